/*
 * ref_to_subject: valid blocks made by the reference (ref_encode in a drawn
 * mode, acceleration and dictionary, or the valid-block generator
 * ref_gen_block) must decode exactly in the subject:
 *   - decompress_safe (or _using_dict with the block's dictionary, as a
 *     separate buffer or as a prefix of dst) at exactly the decoded size;
 *   - decompress_safe_partial at a drawn target and capacity: exactly
 *     min(target, capacity, size) bytes, a prefix of the data (a target of
 *     0 follows the generation's convention);
 *   - decompress_fast with the exact output size, when there is no
 *     dictionary: it reads exactly the block;
 * and, judged against ref like decode_differential (oracle_verdict.c), the
 * same block with a drawn capacity (often too small: it must be rejected
 * without writing past it) and with a shorter dictionary, or none (matches
 * then reach before the history: rejected, never read).
 *
 * Input: [50-byte header][payload]. Header, in draw order:
 *   u8      source: bit 0 ref_gen_block (else ref_encode); bits 1-3 the
 *           generator's output size class (7: up to 1 MiB, 4-6: up to
 *           72 KiB, else up to 4 KiB)
 *   u8      encoder: bit 0 destSize mode (else limited output); bit 1 with a
 *           dictionary; bits 2-3 data: 1 payload repeated to L, 2 text over
 *           4 letters of length L, else the payload
 *   u32     L (up to 64 KiB)
 *   i32     acceleration (full int range)
 *   u32     encoder dictionary: the first (v % (payload + 1)) payload bytes
 *   u8+u32  encoder capacity / destSize target:
 *           fp_size_near(compress_bound(n), compress_bound(n) + 64)
 *   u64     generator seed
 *   u32     generator output size (within the size class)
 *   u32     generator dictionary size (v % (64 KiB + 1), when bit 1 of the
 *           encoder byte is set)
 *   u8+u32  capacity of the judged decode: fp_size_near(size, 16 MiB)
 *   u8+u32  partial target: fp_size_near(size, 16 MiB)
 *   u32     shorter dictionary: its last (v % (dictionary + 1)) bytes
 *   u8      decode flags: bit 0 dictionary as a prefix of dst; bit 1 the
 *           partial decode's capacity is the drawn capacity (else the size)
 */
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "oracle.h"
#include "subject.h"
#include "params.h"

FZ_TARGET("ref_to_subject");

#define HEADER 50

typedef struct made {
    uint8_t *block;     /* exactly block_len bytes */
    size_t block_len;
    const uint8_t *out; /* the decoded data */
    size_t out_len;
    uint8_t *dict;      /* exactly dict_len bytes */
    size_t dict_len;
    const char *how;
} made;

static void exact(const made *m, const fz_call *c, const fz_result *r, size_t want)
{
    if (r->r < 0 || (size_t)r->r != want ||
        (want && memcmp(r->out, m->out, want) != 0))
        fz_finding("valid_block", fz_decoder_names[c->kind],
                   "%s on a valid %s block (%zu bytes -> %zu, dictionary %zu): returned %d, "
                   "want %zu%s (capacity %zu, target %zu)", c->s->name, m->how, m->block_len,
                   m->out_len, m->dict_len, r->r, want,
                   r->r >= 0 && (size_t)r->r == want ? " with different bytes" : "",
                   c->cap, c->target);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const struct lz4_subject *s = lz4gate_subject();
    fuzz_params fp;
    uint8_t source, enc, dflags, *src_data = NULL, *gen_out = NULL;
    uint32_t len, dict_k, gen_size, gen_dict, short_k;
    int32_t accel;
    uint64_t seed;
    size_t enc_cap_pos, cap_pos, target_pos;
    made m;
    fz_call c;
    fz_result r;

    fz_input(data, size);
    memset(&m, 0, sizeof m);
    fp_init(&fp, data, size, HEADER);
    source = fp_u8(&fp);
    enc = fp_u8(&fp);
    len = fp_u32(&fp) % 65537u;
    accel = fp_i32(&fp);
    dict_k = fp_u32(&fp);
    enc_cap_pos = fp.pos;
    fp.pos += 5;
    seed = fp_u64(&fp);
    gen_size = fp_u32(&fp);
    gen_dict = fp_u32(&fp);
    cap_pos = fp.pos;
    fp.pos += 5;
    target_pos = fp.pos;
    fp.pos += 5;
    short_k = fp_u32(&fp);
    dflags = fp_u8(&fp);

    if (source & 1) {
        /* ---- the valid-block generator ---- */
        unsigned cls = (source >> 1) & 7;
        size_t max_out = gen_size % (cls == 7 ? (1u << 20) + 1 : cls >= 4 ? 73729u : 4097u);
        size_t bcap = ref_compress_bound(max_out) + 64;
        ref_gen_params gp;
        ref_gen_result gr;
        uint8_t *block = fz_scratch(4, bcap);
        gen_out = fz_alloc(max_out);
        memset(&gp, 0, sizeof gp);
        gp.seed = seed;
        gp.max_output = max_out;
        gp.dict_len = (enc & 2) ? gen_dict % (REF_MAX_DICT + 1) : 0;
        m.dict = fz_alloc(gp.dict_len);
        gr = ref_gen_block(&gp, block, bcap, gen_out, max_out, m.dict);
        if (!gr.ok)
            fz_fail("ref_gen_block failed (seed %llu, max_output %zu, dictionary %zu)",
                    (unsigned long long)seed, max_out, gp.dict_len);
        m.block = fz_dup(block, gr.block_len);
        m.block_len = gr.block_len;
        m.out = gen_out;
        m.out_len = gr.output_len;
        m.dict_len = gr.dict_len;
        m.how = "generated";
    } else {
        /* ---- the reference encoder ---- */
        const uint8_t *p = fp.payload;
        size_t plen = fp.payload_len, n, bound, cap;
        ref_encode_params ep;
        ref_encode_result er;
        uint8_t *dst;
        if (enc & 2) {
            size_t k = dict_k % (plen + 1);
            m.dict = fz_dup(p, k);
            m.dict_len = k;
            p += k;
            plen -= k;
        } else {
            m.dict = fz_alloc(0);
        }
        switch ((enc >> 2) & 3) {
        case 1:
            src_data = fz_alloc(len);
            n = plen ? len : 0;
            {
                size_t i;
                for (i = 0; i < n; i++)
                    src_data[i] = p[i % plen];
            }
            break;
        case 2:
            src_data = fz_alloc(len);
            fz_fill_prng_cached(src_data, len, (uint64_t)(uint32_t)accel, 4);
            n = len;
            break;
        default:
            src_data = fz_dup(p, plen);
            n = plen;
            break;
        }
        bound = ref_compress_bound(n);
        {
            size_t keep = fp.pos;
            fp.pos = enc_cap_pos;
            cap = fp_size_near(&fp, bound, bound + 64);
            fp.pos = keep;
        }
        dst = fz_scratch(4, cap + 1);
        memset(&ep, 0, sizeof ep);
        ep.src = src_data;
        ep.src_len = n;
        ep.dst = dst;
        ep.dst_cap = cap;
        ep.acceleration = accel;
        ep.dict = m.dict_len ? m.dict : NULL;
        ep.dict_len = m.dict_len;
        ep.mode = (enc & 1) ? REF_ENCODE_DEST_SIZE : REF_ENCODE_LIMITED;
        er = ref_encode(&ep, fz_scratch(5, REF_ENCODE_STATE_SIZE));
        if (!er.ok) {
            free(src_data);
            free(m.dict);
            return 0;
        }
        m.block = fz_dup(dst, er.written);
        m.block_len = er.written;
        m.out = src_data;
        m.out_len = er.consumed;
        m.how = (enc & 1) ? "ref_encode(destSize)" : "ref_encode";
    }
    if (m.block_len > INT_MAX || m.out_len > FZ_MAX_CAP) {
        free(m.block);
        free(m.dict);
        free(src_data);
        free(gen_out);
        return 0;
    }

    memset(&c, 0, sizeof c);
    c.s = s;
    c.src = m.block;
    c.n = m.block_len;
    c.cap = m.out_len;

    /* ---- exact decodes ---- */
    if (m.dict_len == 0) {
        if (s->decompress_safe) {
            c.kind = FZ_SAFE;
            r = fz_check_call(&c);
            exact(&m, &c, &r, m.out_len);
            fz_result_free(&r);
        }
        if (s->decompress_fast && !fz_skip("decompress_fast")) {
            uint8_t *dst = fz_alloc(m.out_len);
            int rr = s->decompress_fast((const char *)m.block, (char *)dst, (int)m.out_len);
            if (rr != (int)m.block_len || (m.out_len && memcmp(dst, m.out, m.out_len) != 0))
                fz_finding("valid_block", "decompress_fast",
                           "%s on a valid %s block (%zu bytes -> %zu): returned %d, want %zu "
                           "(input bytes read)%s", s->name, m.how, m.block_len, m.out_len, rr,
                           m.block_len, rr == (int)m.block_len ? ", different bytes" : "");
            fz_consume(dst, m.out_len);
            free(dst);
        }
    } else if (s->decompress_safe_using_dict) {
        c.kind = (dflags & 1) ? FZ_DICT_PREFIX : FZ_DICT;
        c.dict = m.dict;
        c.dict_len = m.dict_len;
        r = fz_check_call(&c);
        exact(&m, &c, &r, m.out_len);
        fz_result_free(&r);
    }

    /* ---- partial ---- */
    if (m.dict_len == 0 && s->decompress_safe_partial) {
        size_t cap, target;
        fp.pos = cap_pos;
        cap = fp_size_near(&fp, m.out_len, FZ_MAX_CAP);
        fp.pos = target_pos;
        target = fp_size_near(&fp, m.out_len, FZ_MAX_CAP);
        c.kind = FZ_PARTIAL;
        c.dict = NULL;
        c.dict_len = 0;
        c.cap = (dflags & 2) ? cap : m.out_len;
        c.target = target;
        r = fz_check_call(&c);
        if (fz_min(c.target, c.cap) > 0)
            exact(&m, &c, &r, fz_min(fz_min(c.target, c.cap), m.out_len));
        fz_result_free(&r);
        c.target = 0;
    }

    /* ---- judged variations: drawn capacity, shorter or no dictionary ---- */
    {
        size_t cap;
        fp.pos = cap_pos;
        cap = fp_size_near(&fp, m.out_len, FZ_MAX_CAP);
        c.cap = cap;
        if (m.dict_len == 0 && s->decompress_safe) {
            c.kind = FZ_SAFE;
            r = fz_check_call(&c);
            fz_result_free(&r);
        } else if (m.dict_len && s->decompress_safe_using_dict) {
            size_t k = short_k % (m.dict_len + 1);
            uint8_t *shorter = fz_dup(m.dict + (m.dict_len - k), k);
            c.kind = (dflags & 1) ? FZ_DICT_PREFIX : FZ_DICT;
            c.dict = m.dict;
            c.dict_len = m.dict_len;
            r = fz_check_call(&c);              /* full dictionary, drawn capacity */
            fz_result_free(&r);
            c.cap = m.out_len;
            c.dict = shorter;
            c.dict_len = k;
            r = fz_check_call(&c);              /* shorter dictionary, exact capacity */
            fz_result_free(&r);
            free(shorter);
            if (s->decompress_safe) {
                c.kind = FZ_SAFE;               /* no dictionary at all */
                c.dict = NULL;
                c.dict_len = 0;
                r = fz_check_call(&c);
                fz_result_free(&r);
            }
        }
    }

    free(m.block);
    free(m.dict);
    free(src_data);
    free(gen_out);
    return 0;
}
