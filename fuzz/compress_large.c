/*
 * compress_large: the subject compresses 64 KiB .. 4 MiB of synthesised
 * data (synth.h: a short fuzz input describes it), judged as
 * compress_roundtrip's calls are (compress_check.h). A target of its own
 * (issue 15: "draw large sizes with low probability, or give them a target
 * of their own"): every execution here costs milliseconds, which would
 * slow compress_roundtrip's small ones down wherever libFuzzer kept large
 * inputs in its corpus, and here every execution reaches the paths only
 * large data has:
 *   - limited output counting the run-length bytes of a literal run or a
 *     match (spec, block format: one length byte per 255 beyond 15). A
 *     check that divides by 256 instead undercounts by one byte per 64 KiB
 *     of run, more than the 5-byte end margin only past ~330 KB, so only a
 *     run of hundreds of KiB at the end of the data with a capacity a few
 *     bytes short of what it needs shows it (ULZ4-2019-17543 /
 *     KLZ4-GAP-17543 in compress_default and compress_destSize, HC's
 *     KLZ4-GAP-HCLIM / ULZ4-2019-HCLIM);
 *   - 32-bit position tables past 64 KiB, HC's chain table and pattern
 *     analysis over long runs, copies from beyond the 64 KiB window.
 *
 * Input: [23-byte header][payload]; a shorter input completes its header
 * from a hash of its bytes (params.h, fp_init_filled). Header, in draw
 * order (params.h):
 *   u8   mode, v % 8: 0, 3 limited compress_default; 1, 4
 *        compress_dest_size; 2, 5 compress_hc; 6 compress_fast; 7
 *        compress_using_dict (the limited-output modes, where the
 *        run-length bugs are, 3 draws in 4; a mode the subject lacks falls
 *        back to compress_default)
 *   u8   flags: bits 0-2 all 0: the call runs a second time (determinism,
 *        1 draw in 8: it doubles the cost)
 *   u32  size: 2^k + (v & 0x0FFFFFFF) % 2^k with k = 16 + (v >> 28) % 6,
 *        log-uniform over 64 KiB .. 4 MiB (4 draws in 6 past the ~330 KB
 *        the limited-output bugs need)
 *   u8+u32  capacity (limited, destSize target, HC): sel % 4 = 1 or 2:
 *        1 .. 32 bytes below what the same call reaches with
 *        compress_bound (compress_needed); 3: exactly that or up to 31
 *        bytes more; 0: fp_size_near(what compress_default reaches,
 *        compress_bound + 64). The other modes: compress_bound.
 *   i32  parameter: HC level 1 .. 9 (levels 10-12 run the optimal parser,
 *        many times slower per byte); acceleration -16 .. 111 (the full
 *        int range and its wraps are compress_roundtrip's)
 *   u32  dictionary (compress_using_dict): the first (v % (payload + 1))
 *        payload bytes, the rest is the description
 *   u32  seed of the synthesised data (synth.h, the segments after the
 *        description)
 *
 * HC compresses runs and zeros only (FZ_SYNTH_RUNS): it tries every
 * position of random bytes or text (lz4 1.9.1's HC took 0.9 s per call on
 * 1 MiB of random bytes at every level, 80 s per execution on 2 MiB of
 * 4-letter text at level 9; on runs ~40 ms), through compress_hc (its
 * 256 KiB state allocation is small next to the data, and the entry names
 * the defect).
 */
#include "compress_check.h"
#include "oracle.h"
#include "params.h"
#include "synth.h"

FZ_TARGET("compress_large");
FZ_NEEDS(CAP_COMPRESS_DEFAULT);

#define HEADER 23
#define SIZE_LOG_MIN 16
#define SIZE_LOG_CLASSES 6
#define HC_LEVEL_MAX 9
#define SHORT_MAX 32

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static const uint8_t mode_of[8] = {
        CM_LIMITED, CM_DEST_SIZE, CM_HC, CM_LIMITED, CM_DEST_SIZE, CM_HC, CM_FAST, CM_DICT
    };
    fuzz_params fp;
    compress_job j;
    uint8_t flags, cap_sel, *buf;
    uint32_t size_v, cap_v, dict_sel, seed;
    int32_t pv;
    size_t cap_draw_pos;
    unsigned k;
    const uint8_t *desc;
    size_t desc_len;

    fz_input(data, size);
    memset(&j, 0, sizeof j);
    j.s = lz4gate_subject();
    if (!j.s->compress_default)
        return 0;
    fp_init_filled(&fp, data, size, HEADER);
    j.mode = compress_mode_or_default(j.s, mode_of[fp_u8(&fp) % 8]);
    flags = fp_u8(&fp);
    size_v = fp_u32(&fp);
    cap_draw_pos = fp.pos;
    cap_sel = fp_u8(&fp);
    cap_v = fp_u32(&fp);
    pv = fp_i32(&fp);
    dict_sel = fp_u32(&fp);
    seed = fp_u32(&fp);
    j.twice = (flags & 7) == 0;
    j.param = j.mode == CM_HC ? 1 + (int)((uint32_t)pv % HC_LEVEL_MAX)
                              : (int)((uint32_t)pv % 128) - 16;

    desc = fp.payload;
    desc_len = fp.payload_len;
    compress_take_dict(&j, &desc, &desc_len, dict_sel);
    k = SIZE_LOG_MIN + (size_v >> 28) % SIZE_LOG_CLASSES;
    j.n = ((size_t)1 << k) + (size_v & 0x0FFFFFFFu) % ((size_t)1 << k);
    buf = fz_scratch(11, j.n + 1);
    fz_synth_kinds(buf, j.n, desc, desc_len, (uint64_t)seed << 32 | size_v,
                   j.mode == CM_HC ? FZ_SYNTH_RUNS : FZ_SYNTH_ALL_KINDS);
    j.data = fz_src(0, buf, j.n);

    {
        int bound = compress_bound_of(j.s, j.n);
        size_t ub = bound > 0 ? (size_t)bound : ref_compress_bound(j.n) + 16;
        j.cap = ub;
        if (j.mode == CM_LIMITED || j.mode == CM_DEST_SIZE || j.mode == CM_HC) {
            size_t keep = fp.pos, c;
            switch (cap_sel % 4) {
            case 1:
            case 2:     /* a few bytes short: the run-length bugs above */
                c = compress_needed(&j);
                j.cap = c > SHORT_MAX ? c - 1 - cap_v % SHORT_MAX : c;
                break;
            case 3:     /* exactly enough, or a little more */
                j.cap = compress_needed(&j) + cap_v % SHORT_MAX;
                break;
            default:
                c = compress_default_size(&j);
                fp.pos = cap_draw_pos;      /* its u8+u32, drawn as a size near c */
                j.cap = fp_size_near(&fp, c ? c : ub, ub + 64);
                fp.pos = keep;
                break;
            }
        }
    }
    compress_check(&j);
    return 0;
}
