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
 * without writing past it), cut short, and with a shorter dictionary, or
 * none (matches then reach before the history: rejected, never read).
 *
 * The judged variations are drawn from the block's own shape (its literal
 * runs and matches, and how far its matches reach into the dictionary): a
 * capacity that ends inside a literal run or a match, a dictionary just too
 * short for the deepest match, an input cut inside the block. Valid blocks
 * never reach the checks a decoder needs for those (the literal run and the
 * match fit the output, the offset stays in the history) with their full
 * capacity and dictionary; these calls reach them on every block that has
 * such a run.
 *
 * Input: [42-byte header][payload]; a shorter input completes its header
 * from a hash of its bytes (params.h, fp_init_filled). Header, draw order:
 *   u8      source: bit 0 ref_gen_block (else ref_encode); bit 1 with a
 *           dictionary; bits 2-3 encoder data: 0 the payload, else
 *           fz_synth(payload as description) of the drawn size; bit 4
 *           destSize mode (else limited output); bits 5-7 the checks run:
 *           0 all, 1-2 the exact decodes, 3-4 the partial decode, 5-7 the
 *           judged variations (one group per input most of the time: an
 *           execution costs a third, issue 15)
 *   u8+u32  size: fz_synth_size(sel, value, 4 KiB, 8 MiB) (generator output,
 *           encoder data); its large classes (sel >= 254: 64 KiB and
 *           more) only for 1 input in 16, by a hash of the whole input
 *           (large_allowed): 1 random draw in 2048, the rest log-uniform up
 *           to 4 KiB. An execution costs in proportion to the data (every
 *           decoder call decodes it, ref generates or encodes it), and
 *           large outputs reach new subject code, so libFuzzer kept them
 *           and mutated their payload or other header bytes: they were 3%
 *           of the executions and 97% of the bytes decoded (issue 15).
 *           Hashing the whole input makes 15 in 16 of those mutations small
 *           again. Every size up to 8 MiB stays reachable; the hash's start
 *           value is one that lets the seeds' two large inputs (make_seeds,
 *           synth-large and the 72 000-byte gen) through.
 *   u64     seed (generator; synthesis)
 *   i32     acceleration (full int range)
 *   u32     dictionary: encoder: the first (v % (payload + 1)) payload
 *           bytes; generator: fz_synth_size(0, v, 64 KiB, 64 KiB) bytes
 *           (log-uniform, synth.h)
 *   u8+u32  encoder capacity / destSize target:
 *           fp_size_near(compress_bound(n), compress_bound(n) + 64)
 *   u8+u32  capacity of the judged decode: fp_size_near(size, 16 MiB)
 *   u8+u32  partial target: fp_size_near(size, 16 MiB)
 *   u8      variations: bits 0-1 judged capacity: 1 inside a literal run,
 *           2 inside a match, else the drawn one; bits 2-3 shorter
 *           dictionary: 1 just short of the deepest match, 2 none, else
 *           its last (v % (dictionary + 1)) bytes; bit 4 the judged decode
 *           reads the block cut to (v % size) bytes; bit 5 dictionary as a
 *           prefix of dst; bit 6 the partial decode's capacity is the
 *           drawn capacity (else the size)
 *   u32     v: where in the run, how much shorter, where the cut is
 */
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "oracle.h"
#include "subject.h"
#include "params.h"
#include "synth.h"
#include "judge.h"

FZ_TARGET("ref_to_subject");
FZ_NEEDS(FZ_DECODERS);

#define HEADER 42
#define MAX_DATA ((size_t)8 << 20)

enum { SRC_BLOCK, SRC_CUT, SRC_DICT, SRC_SHORT };

typedef struct made {
    const uint8_t *block;   /* exactly block_len bytes (fz_src) */
    size_t block_len;
    const uint8_t *out;     /* the decoded data */
    size_t out_len;
    const uint8_t *dict;    /* exactly dict_len bytes (fz_src) */
    size_t dict_len;
    const char *how;
} made;

/* The block's shape: its literal runs and matches, and how deep its
 * matches reach into the dictionary. The block is valid (made by ref), so
 * the walk needs no checks beyond staying inside it. */
typedef struct run {
    size_t at, len;         /* output position and length */
} run;

/* Counts the literal runs (matches = 0) or matches (1) of b[0..n) and
 * raises *deepest to the deepest reach before the output start; with pick,
 * stops at the k-th one and stores it there. */
static FZ_NO_COVERAGE size_t walk(const uint8_t *b, size_t n, int matches, size_t k,
                                  run *pick, size_t *deepest)
{
    size_t ip = 0, op = 0, count = 0;
    while (ip < n) {
        uint8_t token = b[ip++], c;
        size_t lit = token >> 4, ml = (size_t)(token & 15) + REF_MIN_MATCH, off;
        if (lit == 15)
            do { c = ip < n ? b[ip++] : 0; lit += c; } while (c == 255);
        if (lit && !matches && count++ == k && pick) {
            pick->at = op;
            pick->len = lit;
            return count;
        }
        ip += lit;
        op += lit;
        if (ip + 2 > n)
            break;
        off = (size_t)b[ip] | (size_t)b[ip + 1] << 8;
        ip += 2;
        if ((token & 15) == 15)
            do { c = ip < n ? b[ip++] : 0; ml += c; } while (c == 255);
        if (off > op && off - op > *deepest)
            *deepest = off - op;
        if (matches && count++ == k && pick) {
            pick->at = op;
            pick->len = ml;
            return count;
        }
        op += ml;
    }
    return count;
}

/* The (v modulo their number)-th literal run or match; 0 if there is none. */
static int pick_run(const uint8_t *b, size_t n, int matches, uint32_t v, run *out)
{
    size_t deepest = 0, count = walk(b, n, matches, 0, NULL, &deepest);
    if (!count)
        return 0;
    walk(b, n, matches, v % count, out, &deepest);
    return 1;
}

/* The block is valid, strict (ref made it): ref's one verdict (judge.h)
 * leaves the call no other result than want bytes of the data; a failure is
 * the class valid_block. */
static void exact(const made *m, const fz_call *c, const fz_result *r, size_t want)
{
    if (judge_decode(r->r >= 0, (size_t)r->r == want &&
                   (want == 0 || memcmp(r->out, m->out, want) == 0), 1, 1) != JUDGE_PASS)
        fz_finding(FAIL_VALID_BLOCK, fz_decoder_names[c->kind],
                   "%s on a valid %s block (%zu bytes -> %zu, dictionary %zu): returned %d, "
                   "want %zu%s (capacity %zu, target %zu)", c->s->name, m->how, m->block_len,
                   m->out_len, m->dict_len, r->r, want,
                   r->r >= 0 && (size_t)r->r == want ? " with different bytes" : "",
                   c->cap, c->target);
}

/* A call that decodes the whole block: all of it, a capacity of at least
 * its output, a dictionary holding its deepest match (a partial decode:
 * min(target, capacity) > 0). The block is valid, so its result is known
 * without ref's decode: the first want bytes of the data ref made, m->out
 * (ref_gen_block computes it as it emits the block, lz4ref.h; ref_encode's
 * input). Run twice as fz_check_call does (writes before dst, return above
 * the capacity or target, output independent of the destination's
 * content); ref decoding the block again only recomputed m->out. */
static void check_known(const made *m, const fz_call *c, size_t want)
{
    fz_result r = fz_run_twice(c, want + 64);
    exact(m, c, &r, want);
}

/* A judged variation: known (check_known) when it still decodes the whole
 * block, else judged against ref's decode of it (oracle_verdict.c). */
static void check_judged(const made *m, const fz_call *c, int whole)
{
    if (whole)
        check_known(m, c, m->out_len);
    else
        (void)fz_check_call(c);
}

/* ref_gen_block, remembered for the last parameters: its bytes depend on
 * (seed, max_output, dict_len) alone (lz4ref.h), and successive inputs often
 * keep them (libFuzzer mutates the payload, which the generator does not
 * read), so the same block is not generated again (a fifth of the time,
 * issue 15). The buffers are scratch slots 4, 7 and 8, which only make()
 * uses: the encoder's path forgets the block (gen_forget). Not instrumented
 * for coverage: what it does depends on the previous input (oracle.h). */
static struct {
    int valid;
    ref_gen_params p;
    ref_gen_result r;
} gen_last;

static FZ_NO_COVERAGE void gen_forget(void)
{
    gen_last.valid = 0;
}

static FZ_NO_COVERAGE ref_gen_result gen_cached(const ref_gen_params *gp, uint8_t *block,
                                                size_t bcap, uint8_t *out, size_t out_cap,
                                                uint8_t *dict)
{
    if (gen_last.valid && gen_last.p.seed == gp->seed &&
        gen_last.p.max_output == gp->max_output && gen_last.p.dict_len == gp->dict_len)
        return gen_last.r;
    gen_last.r = ref_gen_block(gp, block, bcap, out, out_cap, dict);
    gen_last.p = *gp;
    gen_last.valid = gen_last.r.ok;
    return gen_last.r;
}

/* The block: ref_gen_block's, or ref_encode's of the payload or of
 * synthesised data. 0 when there is none (the encoder failed). */
static int make(made *m, fuzz_params *fp, uint8_t source, size_t size, uint64_t seed,
                int32_t accel, uint32_t dict_v, size_t enc_cap_pos)
{
    uint8_t *dict = fz_scratch(7, FP_DICT_MAX + 1);
    if (source & 1) {
        size_t bcap = ref_compress_bound(size) + 64;
        ref_gen_params gp;
        ref_gen_result gr;
        uint8_t *block = fz_scratch(4, bcap), *out = fz_scratch(8, size + 1);
        memset(&gp, 0, sizeof gp);
        gp.seed = seed;
        gp.max_output = size;
        /* log-uniform: short dictionaries most of the time (filling one
         * costs per byte), any length up to the window */
        gp.dict_len = (source & 2) ? fz_synth_size(0, dict_v, REF_MAX_DICT, REF_MAX_DICT) : 0;
        gr = gen_cached(&gp, block, bcap, out, size + 1, dict);
        if (!gr.ok)
            fz_fail("ref_gen_block failed (seed %llu, max_output %zu, dictionary %zu)",
                    (unsigned long long)seed, size, gp.dict_len);
        m->block = fz_src(SRC_BLOCK, block, gr.block_len);
        m->block_len = gr.block_len;
        m->out = out;
        m->out_len = gr.output_len;
        m->dict_len = gr.dict_len;
        m->how = "generated";
    } else {
        const uint8_t *p = fp->payload;
        size_t plen = fp->payload_len, n, bound, cap, keep = fp->pos;
        ref_encode_params ep;
        ref_encode_result er;
        uint8_t *data, *dst;
        gen_forget();           /* slots 4, 7 and 8 get other bytes */
        if (source & 2) {
            m->dict_len = fz_min(dict_v % (plen + 1), FP_DICT_MAX);
            memcpy(dict, p, m->dict_len);
            p += m->dict_len;
            plen -= m->dict_len;
        }
        n = (source & 12) ? size : plen;
        data = fz_scratch(8, n + 1);
        if (source & 12)
            fz_synth(data, n, p, plen, seed);
        else if (n)
            memcpy(data, p, n);
        bound = ref_compress_bound(n);
        fp->pos = enc_cap_pos;
        cap = fp_size_near(fp, bound, bound + 64);
        fp->pos = keep;
        dst = fz_scratch(4, cap + 1);
        memset(&ep, 0, sizeof ep);
        ep.src = data;
        ep.src_len = n;
        ep.dst = dst;
        ep.dst_cap = cap;
        ep.acceleration = accel;
        ep.dict = m->dict_len ? dict : NULL;
        ep.dict_len = m->dict_len;
        ep.mode = (source & 16) ? REF_ENCODE_DEST_SIZE : REF_ENCODE_LIMITED;
        er = ref_encode(&ep, fz_scratch(5, REF_ENCODE_STATE_SIZE));
        if (!er.ok)
            return 0;
        m->block = fz_src(SRC_BLOCK, dst, er.written);
        m->block_len = er.written;
        m->out = data;
        m->out_len = er.consumed;
        m->how = (source & 16) ? "ref_encode(destSize)" : "ref_encode";
    }
    m->dict = fz_src(SRC_DICT, dict, m->dict_len);
    return 1;
}

/* Large sizes (header, size): the top 4 bits of a hash of the input are
 * 0. Not instrumented: comparisons libFuzzer traces would be solved for. */
#define LARGE_HASH_START 136u       /* passes the seeds' large inputs */
static FZ_NO_COVERAGE int large_allowed(const uint8_t *data, size_t size)
{
    uint64_t h = LARGE_HASH_START;
    size_t i;
    for (i = 0; i < size; i++)
        h = ref_prng_mix(h ^ data[i]);
    return h >> 60 == 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    enum { G_EXACT = 1, G_PARTIAL = 2, G_JUDGED = 4 };
    static const uint8_t group_of[8] = { 7, G_EXACT, G_EXACT, G_PARTIAL, G_PARTIAL, G_JUDGED,
                                         G_JUDGED, G_JUDGED };
    const struct lz4_subject *s = lz4gate_subject();
    fuzz_params fp;
    uint8_t source, size_sel, vflags, groups;
    uint32_t size_v, dict_v, v;
    int32_t accel;
    int whole;
    uint64_t seed;
    size_t enc_cap_pos, cap_pos, target_pos, dsize, cap, deepest = 0;
    made m;
    fz_call c;
    run at;

    fz_input(data, size);
    memset(&m, 0, sizeof m);
    fp_init_filled(&fp, data, size, HEADER);
    source = fp_u8(&fp);
    size_sel = fp_u8(&fp);
    size_v = fp_u32(&fp);
    seed = fp_u64(&fp);
    accel = fp_i32(&fp);
    dict_v = fp_u32(&fp);
    enc_cap_pos = fp.pos;
    fp.pos += 5;
    cap_pos = fp.pos;
    fp.pos += 5;
    target_pos = fp.pos;
    fp.pos += 5;
    vflags = fp_u8(&fp);
    v = fp_u32(&fp);

    if (size_sel >= FZ_SYNTH_SEL_LARGE && !large_allowed(data, size))
        size_sel = 0;
    dsize = fz_synth_size(size_sel, size_v, 4096, MAX_DATA);
    if (!make(&m, &fp, source, dsize, seed, accel, dict_v, enc_cap_pos))
        return 0;
    if (m.block_len > INT_MAX || m.out_len > FZ_MAX_CAP)
        return 0;

    memset(&c, 0, sizeof c);
    c.s = s;
    c.src = m.block;
    c.n = m.block_len;
    c.cap = m.out_len;

    groups = group_of[source >> 5];

    /* ---- exact decodes ---- */
    if (!(groups & G_EXACT)) {
        /* not this input's */
    } else if (m.dict_len == 0) {
        if (s->decompress_safe) {
            c.kind = FZ_SAFE;
            check_known(&m, &c, m.out_len);
        }
        if (s->decompress_fast && !fz_skip("decompress_fast")) {
            fz_out o;
            uint8_t *dst = fz_out_open(&o, m.out_len, 0, 0);
            int rr = s->decompress_fast((const char *)m.block, (char *)dst, (int)m.out_len);
            if (!fz_out_close(&o))
                fz_finding(FAIL_WROTE_BEFORE_DST, "decompress_fast", "%s wrote before the "
                           "destination buffer (block %zu bytes -> %zu)", s->name,
                           m.block_len, m.out_len);
            if (rr != (int)m.block_len || (m.out_len && memcmp(dst, m.out, m.out_len) != 0))
                fz_finding(FAIL_VALID_BLOCK, "decompress_fast",
                           "%s on a valid %s block (%zu bytes -> %zu): returned %d, want %zu "
                           "(input bytes read)%s", s->name, m.how, m.block_len, m.out_len, rr,
                           m.block_len, rr == (int)m.block_len ? ", different bytes" : "");
            fz_consume(dst, m.out_len);
        }
    } else if (s->decompress_safe_using_dict) {
        c.kind = (vflags & 32) ? FZ_DICT_PREFIX : FZ_DICT;
        c.dict = m.dict;
        c.dict_len = m.dict_len;
        check_known(&m, &c, m.out_len);
    }

    /* ---- partial ---- */
    if ((groups & G_PARTIAL) && m.dict_len == 0 && s->decompress_safe_partial) {
        size_t target;
        fp.pos = cap_pos;
        cap = fp_size_near(&fp, m.out_len, FZ_MAX_CAP);
        fp.pos = target_pos;
        target = fp_size_near(&fp, m.out_len, FZ_MAX_CAP);
        c.kind = FZ_PARTIAL;
        c.cap = (vflags & 64) ? cap : m.out_len;
        c.target = target;
        if (fz_min(c.target, c.cap) > 0)
            check_known(&m, &c, fz_min(fz_min(c.target, c.cap), m.out_len));
        else        /* nothing to produce: the generation's convention */
            (void)fz_check_call(&c);
        c.target = 0;
    }

    /* ---- judged variations: capacity, cut input, shorter or no dictionary ---- */
    if (!(groups & G_JUDGED))
        return 0;
    fp.pos = cap_pos;
    cap = fp_size_near(&fp, m.out_len, FZ_MAX_CAP);
    if ((vflags & 3) && (vflags & 3) < 3 && pick_run(m.block, m.block_len, (vflags & 3) == 2,
                                                     v, &at))
        cap = at.at + (v >> 8) % at.len;    /* the run or match crosses the capacity */
    c.cap = cap;
    if (vflags & 16) {              /* the block cut short, ending exactly there */
        c.n = v % (m.block_len + 1);
        c.src = fz_src(SRC_CUT, m.block, c.n);
    }
    whole = c.n == m.block_len;
    if (m.dict_len == 0 && s->decompress_safe) {
        c.kind = FZ_SAFE;
        check_judged(&m, &c, whole && c.cap >= m.out_len);
    } else if (m.dict_len && s->decompress_safe_using_dict) {
        size_t k;
        if (m.dict_len)
            walk(m.block, m.block_len, 0, SIZE_MAX, NULL, &deepest);
        switch ((vflags >> 2) & 3) {
        case 1:     /* just short of the deepest match into the dictionary */
            k = deepest ? deepest - 1 - (v >> 16) % fz_min(deepest, 64) : 0;
            break;
        case 2:
            k = 0;
            break;
        default:
            k = v % (m.dict_len + 1);
            break;
        }
        k = fz_min(k, m.dict_len);
        c.kind = (vflags & 32) ? FZ_DICT_PREFIX : FZ_DICT;
        c.dict = m.dict;
        c.dict_len = m.dict_len;
        /* full dictionary, drawn capacity */
        check_judged(&m, &c, whole && c.cap >= m.out_len);
        c.cap = m.out_len;
        c.dict = fz_src(SRC_SHORT, m.dict + (m.dict_len - k), k);
        c.dict_len = k;
        /* shorter dictionary, exact capacity */
        check_judged(&m, &c, whole && k >= deepest);
        if (s->decompress_safe) {
            c.kind = FZ_SAFE;               /* no dictionary at all */
            c.dict = NULL;
            c.dict_len = 0;
            check_judged(&m, &c, whole && deepest == 0);
        }
    }
    return 0;
}
