/*
 * compress_roundtrip: the subject compresses drawn data of up to 68 KiB in
 * a drawn mode, judged by compress_check.h: the block must fit the
 * capacity it is told (the buffer ends there), succeed within
 * compress_bound, decode with ref (strict profile) to exactly the input,
 * and come out the same when the call is repeated. Larger data (64 KiB ..
 * 4 MiB, the limited-output run-length bugs) is compress_large's: a
 * target of its own so that these small, fast executions are not slowed by
 * the large ones libFuzzer keeps in its corpus (issue 15: exec/s).
 *
 * Input: [21-byte header][payload]; a shorter input completes its header
 * from a hash of its bytes (params.h, fp_init_filled). Header, in draw
 * order (params.h):
 *   u8      mode, v % 16: 0 compress_default, 1 compress_fast, 2
 *           compress_default with a capacity around the compressed size
 *           (limited output), 3 compress_dest_size, 4 compress_hc, 5
 *           compress_using_dict; 6-15 the modes other than HC in turn (HC
 *           costs a 256 KiB state per call: 1 draw in 16; modes the subject
 *           lacks fall back to compress_default)
 *   u8      data: bits 0-1: 0 or 3 the payload, 1 fz_synth(payload as
 *           description) of the drawn size (synth.h), 2 pseudo-random text
 *           over 4 letters of the drawn size; bits 2-4 all set: the call
 *           runs a second time (determinism; the data and capacity
 *           unchanged; 1 draw in 8, as it doubles the cost)
 *   u8+u32  size of drawn data: fz_synth_size(sel, value, 4 KiB, 68 KiB):
 *           log-uniform up to 4 KiB, 1 draw in 128 up to 68 KiB (past the
 *           64 KiB where compressors switch to 32-bit position tables); HC
 *           4 KiB at most (HC on 64 KiB of text at level 12 costs ~100
 *           small calls: with them, 90% of this target's time went to HC;
 *           compress_large compresses HC's larger data)
 *   u8      parameter class: bits 0-1: 0 full int range, else small
 *           (acceleration -128..127, HC level -3..16; HC takes the full
 *           range only when bits 6-7 are 0 too, 1 draw in 16: its levels
 *           above 12 all run the optimal parser, the costliest); bits 2-5 (HC): 0
 *           compress_hc, else compress_hc_ext_state when the subject has it
 *           (the same compressor with a state allocated once: compress_hc
 *           allocates 256 KiB per call, 35% of the time when it took every
 *           HC draw; its own allocation path is still called in 1 HC draw
 *           of 16); bits 2-4 (other modes, class 0): 0 the full range, 7
 *           an acceleration k * 2^26, k 1..31 (KLZ4-ACCEL-WRAP:
 *           acceleration << 6 wraps to a search step of 0 there; the full
 *           range hits one of these 31 values once in 2^27 draws), else
 *           small. Half of the full range is above 2^25, where releases up
 *           to 1.9.2 overflow the step (a crash on most inputs that would
 *           hide their other bugs) and later ones clamp: 1 draw in 32.
 *   i32     acceleration or HC level (also the seed of drawn data)
 *   u8+u32  capacity (modes 2, 4) or destSize target (mode 3):
 *           fp_size_near(what compress_default reaches, compress_bound(n)
 *           + 64)
 *   u32     dictionary (mode 5): the first (v % (payload + 1)) payload bytes,
 *           the rest is the data (or the description)
 *
 * The data and the dictionary are exact (fz_src: a read past them is
 * reported), the destination ends exactly at the capacity (fz_out_open),
 * without an allocation per call.
 */
#include "compress_check.h"
#include "oracle.h"
#include "params.h"
#include "synth.h"

FZ_TARGET("compress_roundtrip");
FZ_NEEDS(CAP_COMPRESS_DEFAULT);

#define HEADER 21
#define MAX_DATA ((size_t)(64 + 4) << 10)
#define HC_MAX_DATA ((size_t)4 << 10)
#define ACCEL_WRAP_CLASS 7

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    /* mode draw (v % 16) -> mode: HC once in 16 (see the header above) */
    static const uint8_t mode_of[16] = {
        CM_DEFAULT, CM_FAST, CM_LIMITED, CM_DEST_SIZE, CM_HC, CM_DICT, CM_DEFAULT, CM_FAST,
        CM_LIMITED, CM_DEST_SIZE, CM_DICT, CM_DEFAULT, CM_FAST, CM_LIMITED, CM_DEST_SIZE,
        CM_DICT
    };
    fuzz_params fp;
    compress_job j;
    uint8_t kind, size_sel, psel, *buf;
    uint32_t size_v, dict_sel;
    int32_t pv;
    size_t cap_draw_pos, len;
    const uint8_t *desc;
    size_t desc_len;

    fz_input(data, size);
    memset(&j, 0, sizeof j);
    j.s = lz4gate_subject();
    if (!j.s->compress_default)
        return 0;
    fp_init_filled(&fp, data, size, HEADER);
    j.mode = compress_mode_or_default(j.s, mode_of[fp_u8(&fp) % 16]);
    kind = fp_u8(&fp);
    size_sel = fp_u8(&fp);
    size_v = fp_u32(&fp);
    psel = fp_u8(&fp);
    pv = fp_i32(&fp);
    cap_draw_pos = fp.pos;
    fp.pos += 5;                      /* capacity: drawn once the size is known */
    dict_sel = fp_u32(&fp);
    j.twice = ((kind >> 2) & 7) == 7;       /* 1 draw in 8: it doubles the cost */
    j.hc_ext = j.mode == CM_HC && j.s->compress_hc_ext_state && ((psel >> 2) & 15) != 0;
    fz_share("hc", j.mode == CM_HC);     /* the bench's peer weights (speed.py) */
    if (j.mode == CM_HC)
        j.param = (psel & 3) || (psel >> 6) ? (int)((uint32_t)pv & 0xFF) % 20 - 3 : pv;
    else if (!(psel & 3) && ((psel >> 2) & 7) == ACCEL_WRAP_CLASS)
        j.param = (int)(((uint32_t)pv % 31 + 1) << 26);    /* KLZ4-ACCEL-WRAP */
    else
        j.param = (psel & 3) || ((psel >> 2) & 7) ? (int)(int8_t)(uint8_t)pv : pv;

    /* The data (and dictionary). */
    desc = fp.payload;
    desc_len = fp.payload_len;
    compress_take_dict(&j, &desc, &desc_len, dict_sel);
    len = fz_synth_size(size_sel, size_v, 4096, j.mode == CM_HC ? HC_MAX_DATA : MAX_DATA);
    switch (kind & 3) {
    case 1:
        buf = fz_scratch(11, len + 1);
        fz_synth(buf, len, desc, desc_len, (uint64_t)(uint32_t)pv << 32 | size_v);
        break;
    case 2:
        buf = fz_scratch(11, len + 1);
        fz_fill_prng_cached(buf, len, (uint64_t)pv, 4);
        break;
    default:
        buf = (uint8_t *)desc;
        len = desc_len;
        break;
    }
    j.n = len;
    j.data = fz_src(0, buf, len);

    /* The capacity: compress_bound, or around what compress_default reaches. */
    {
        int bound = compress_bound_of(j.s, j.n);
        size_t ub = bound > 0 ? (size_t)bound : ref_compress_bound(j.n) + 16;
        j.cap = ub;
        if (j.mode == CM_LIMITED || j.mode == CM_DEST_SIZE || j.mode == CM_HC) {
            size_t c = compress_default_size(&j), keep = fp.pos;
            fp.pos = cap_draw_pos;
            j.cap = fp_size_near(&fp, c ? c : ub, ub + 64);
            fp.pos = keep;
        }
    }
    compress_check(&j);
    return 0;
}
