/*
 * make_vectors: writes lz4gate's known-answer vectors (corpus/vectors/).
 *
 *   make_vectors [DIR]          (default: corpus/vectors)
 *
 * Three kinds of vectors, each one LZ4 block in its own file <id>.lz4:
 *   generated  blocks from the valid-block generator (ref_gen_block), fixed
 *              seeds, various sizes and features, some with a dictionary;
 *   edge       hand-made valid blocks at the places decoders get wrong
 *              (the spec's length examples, overlapping and far offsets,
 *              blocks ending exactly at the end-of-block limits...);
 *   invalid    hand-made blocks for every ref_status error class a block
 *              can produce, and the profile-dependent ones.
 *
 * For every vector, DIR/index.json records the capacity to decode with,
 * the dictionary file if any, and the expected result under the strict and
 * the compatible profile (ref/profile.c), for a whole-block decode and for a
 * partial decode with target = capacity. The expected output is given by
 * size and SHA-256. Expectations come from two independent sources that
 * must agree, or nothing is written:
 *   - the vector's own construction: the generator's output, or for a
 *     hand-made block the output built sequence by sequence here and the
 *     status the block was designed to produce;
 *   - ref_decode, for both profiles.
 * When the profiles disagree the entry carries "acceptable" with the rule
 * (ref_profile_rule_for) that allows it.
 *
 * Deterministic: fixed seeds, no time, no addresses, the same bytes on
 * 32- and 64-bit hosts, so the committed files regenerate byte-identically
 * (tests/test_vectors.py checks it). Files in DIR named *.lz4 or *.dict
 * that this run did not write are removed.
 */
#define _DEFAULT_SOURCE
#include <dirent.h>
#include <errno.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "checks.h"
#include "lz4ref.h"
#include "sha256.h"

static const char *outdir = "corpus/vectors";

__attribute__((format(printf, 1, 2), noreturn)) static void die(const char *fmt, ...)
{
    va_list ap;
    fprintf(stderr, "make_vectors: ");
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fprintf(stderr, "\n");
    exit(1);
}

static void *xmalloc(size_t n)
{
    void *p = malloc(n ? n : 1);
    if (!p)
        die("out of memory (%zu bytes)", n);
    return p;
}


/* ---- a growing string, for the index --------------------------------- */

typedef struct sbuf {
    char *s;
    size_t len, cap;
} sbuf;

static void sb_printf(sbuf *b, const char *fmt, ...)
{
    va_list ap;
    int n;
    for (;;) {
        va_start(ap, fmt);
        n = vsnprintf(b->s ? b->s + b->len : NULL, b->s ? b->cap - b->len : 0, fmt, ap);
        va_end(ap);
        if (n < 0)
            die("vsnprintf failed");
        if (b->s && b->len + (size_t)n < b->cap) {
            b->len += (size_t)n;
            return;
        }
        b->cap = (b->cap + (size_t)n + 1) * 2;
        b->s = realloc(b->s, b->cap);
        if (!b->s)
            die("out of memory");
    }
}

static void sb_json_string(sbuf *b, const char *s)
{
    sb_printf(b, "\"");
    for (; *s; s++) {
        unsigned char ch = (unsigned char)*s;
        if (ch == '"' || ch == '\\')
            sb_printf(b, "\\%c", ch);
        else if (ch < 0x20 || ch >= 0x7f)
            sb_printf(b, "\\u%04x", ch);
        else
            sb_printf(b, "%c", ch);
    }
    sb_printf(b, "\"");
}

/* ---- files --------------------------------------------------------------- */

#define MAX_FILES 1024
static char *written_files[MAX_FILES];
static size_t nwritten;
static size_t total_bytes;

static void write_file(const char *name, const void *data, size_t n)
{
    char path[4096];
    FILE *f;
    if (nwritten == MAX_FILES)
        die("too many files");
    snprintf(path, sizeof path, "%s/%s", outdir, name);
    f = fopen(path, "wb");
    if (!f || (n && fwrite(data, 1, n, f) != n) || fclose(f) != 0)
        die("cannot write %s: %s", path, strerror(errno));
    written_files[nwritten++] = strdup(name);
    total_bytes += n;
}

static int was_written(const char *name)
{
    size_t i;
    for (i = 0; i < nwritten; i++)
        if (!strcmp(written_files[i], name))
            return 1;
    return 0;
}

/* Remove *.lz4 / *.dict files of an earlier run that this run did not write. */
static void remove_stale(void)
{
    DIR *d = opendir(outdir);
    struct dirent *e;
    if (!d)
        die("cannot list %s: %s", outdir, strerror(errno));
    while ((e = readdir(d)) != NULL) {
        size_t n = strlen(e->d_name);
        int ours = (n > 4 && !strcmp(e->d_name + n - 4, ".lz4")) ||
                   (n > 5 && !strcmp(e->d_name + n - 5, ".dict"));
        if (ours && !was_written(e->d_name)) {
            char path[4096];
            snprintf(path, sizeof path, "%s/%s", outdir, e->d_name);
            if (remove(path) != 0)
                die("cannot remove stale %s: %s", path, strerror(errno));
        }
    }
    closedir(d);
}

/* ---- dictionaries -------------------------------------------------------- */

typedef struct dict_file {
    char name[64];
    uint8_t *data;
    size_t len;
} dict_file;

#define MAX_DICTS 64
static dict_file dicts[MAX_DICTS];
static size_t ndicts;

/* Write a dictionary file once; a second use must have the same content. */
static void use_dict(const char *name, const uint8_t *data, size_t len)
{
    size_t i;
    for (i = 0; i < ndicts; i++) {
        if (!strcmp(dicts[i].name, name)) {
            if (dicts[i].len != len || memcmp(dicts[i].data, data, len) != 0)
                die("dictionary %s used with two different contents", name);
            return;
        }
    }
    if (ndicts == MAX_DICTS)
        die("too many dictionaries");
    snprintf(dicts[ndicts].name, sizeof dicts[ndicts].name, "%s", name);
    dicts[ndicts].data = xmalloc(len);
    memcpy(dicts[ndicts].data, data, len);
    dicts[ndicts].len = len;
    ndicts++;
    write_file(name, data, len);
}

/* ---- expectations and the index ------------------------------------------ */

typedef struct outcome {
    ref_decode_result r;
    char sha[65];           /* of the output, when r.status == REF_OK */
} outcome;

static outcome decode_with(const uint8_t *blk, size_t blen, size_t cap, const uint8_t *dict,
                           size_t dict_len, ref_profile profile, int partial,
                           uint8_t **out_copy)
{
    ref_decode_params p;
    outcome o;
    uint8_t *out = xmalloc(cap);
    memset(&p, 0, sizeof p);
    p.src = blk;
    p.src_len = blen;
    p.dst = out;
    p.dst_cap = cap;
    p.dict = dict;
    p.dict_len = dict_len;
    p.profile = profile;
    p.partial = partial;
    p.target = cap;
    p.target0 = REF_TARGET0_RETURNS_ZERO;
    o.r = ref_decode(&p);
    o.sha[0] = 0;
    if (o.r.status == REF_OK)
        sha256_hex(out, o.r.written, o.sha);
    if (out_copy)
        *out_copy = out;
    else
        free(out);
    return o;
}

static void sb_outcome(sbuf *b, const outcome *o)
{
    if (o->r.status == REF_OK) {
        sb_printf(b, "{\"result\": \"valid\", \"status\": \"ok\", \"output_size\": %zu, "
                     "\"output_sha256\": \"%s\"}", o->r.written, o->sha);
    } else {
        sb_printf(b, "{\"result\": \"invalid\", \"status\": \"%s\", \"check\": \"%s\", "
                     "\"input_position\": %zu}",
                  ref_status_name(o->r.status), ref_check_name(o->r.failed_check),
                  o->r.consumed);
    }
}

/* The rule that lets strict and compatible disagree; dies if none does. */
static const ref_profile_rule *rule_for_difference(const char *id, const outcome *s,
                                                   const outcome *c)
{
    const ref_profile_rule *rule;
    if ((s->r.status == REF_OK) == (c->r.status == REF_OK)) {
        if (s->r.status == REF_OK && strcmp(s->sha, c->sha) != 0)
            die("%s: strict and compatible both accept but decode differently", id);
        return NULL;
    }
    rule = ref_profile_rule_for(s->r.status != REF_OK ? s->r.status : c->r.status);
    if (!rule || !rule->strict_rejects || rule->compatible_rejects || c->r.status != REF_OK)
        die("%s: strict says %s, compatible says %s, and no profile rule allows it", id,
            ref_status_name(s->r.status), ref_status_name(c->r.status));
    return rule;
}

static void sb_expected(sbuf *b, const char *key, const char *id, const outcome *s,
                        const outcome *c, const char *extra)
{
    const ref_profile_rule *rule = rule_for_difference(id, s, c);
    sb_printf(b, ",\n      \"%s\": {\n        \"strict\": ", key);
    sb_outcome(b, s);
    sb_printf(b, ",\n        \"compatible\": ");
    sb_outcome(b, c);
    if (rule) {
        sb_printf(b, ",\n        \"acceptable\": {\"rule\": ");
        sb_json_string(b, rule->name);
        sb_printf(b, ", \"spec_section\": ");
        sb_json_string(b, rule->spec_section);
        sb_printf(b, ", \"note\": ");
        sb_json_string(b, rule->note);
        sb_printf(b, "}");
    }
    if (extra)
        sb_printf(b, ",\n        %s", extra);
    sb_printf(b, "\n      }");
}

/*
 * The bytes a malformed block defines before its defect, as far as a
 * partial decode with target = cap can go: the output of ref's partial
 * decode (compatible profile) when it succeeds; otherwise the bytes it
 * wrote before the error, plus, when the input ended inside a literal run,
 * the literal bytes that are there. out has cap bytes. harness/vectors.c
 * computes the same at run time and checks it against the index.
 */
static size_t defined_prefix(const uint8_t *blk, size_t blen, size_t cap, const uint8_t *dict,
                             size_t dict_len, uint8_t *out)
{
    ref_decode_params p;
    ref_decode_result r;
    size_t n;
    memset(&p, 0, sizeof p);
    p.src = blk;
    p.src_len = blen;
    p.dst = out;
    p.dst_cap = cap;
    p.dict = dict;
    p.dict_len = dict_len;
    p.profile = REF_PROFILE_COMPATIBLE;
    p.partial = 1;
    p.target = cap;
    p.target0 = REF_TARGET0_RETURNS_ZERO;
    r = ref_decode(&p);
    n = r.written;
    if (r.status == REF_ERR_TRUNCATED_LITERALS && r.consumed <= blen) {
        size_t k = blen - r.consumed < cap - n ? blen - r.consumed : cap - n;
        memcpy(out + n, blk + r.consumed, k);
        n += k;
    }
    return n;
}

/* Enough for every vector's output: "with ample capacity". */
#define AMPLE_CAPACITY (1u << 20)

#define MAX_VECTORS 1024
static char *entries[MAX_VECTORS];
static char *entry_ids[MAX_VECTORS];
static size_t nvectors;

/* Counts per kind and per flag, for the index header. */
#define MAX_FLAG_NAMES 128
static char *flag_names[MAX_FLAG_NAMES];
static unsigned flag_counts[MAX_FLAG_NAMES];
static size_t nflag_names;
static unsigned status_counts[2][REF_STATUS_COUNT]; /* [profile][status], whole-block */

static void count_flag(const char *f)
{
    size_t i;
    for (i = 0; i < nflag_names; i++)
        if (!strcmp(flag_names[i], f)) {
            flag_counts[i]++;
            return;
        }
    if (nflag_names == MAX_FLAG_NAMES)
        die("too many flag names");
    flag_names[nflag_names] = strdup(f);
    flag_counts[nflag_names++] = 1;
}

/* What the vector's construction says it must decode to (whole block). */
typedef struct design {
    int declared;              /* statuses below are meaningful */
    ref_status strict, compatible;
    const uint8_t *output;     /* expected output when a profile accepts, or NULL */
    size_t output_len;
} design;

/*
 * Record one vector: write its block, compute the expectations with
 * ref_decode, check them against the design, and append its index entry.
 * flags: space-separated.
 */
static void add_vector(const char *id, const char *comment, const char *flags,
                       const uint8_t *blk, size_t blen, size_t cap, const char *dict_name,
                       const uint8_t *dict, size_t dict_len, const design *want)
{
    sbuf b = { NULL, 0, 0 };
    char file[96], flagbuf[512], *tok, *save = NULL;
    outcome whole[2], part[2];
    int prof, first = 1, well_formed = 0;
    char malformed_json[256] = "";
    size_t i;

    if (nvectors == MAX_VECTORS)
        die("too many vectors");
    if (strlen(id) > 64 || strspn(id, "abcdefghijklmnopqrstuvwxyz0123456789-_+") != strlen(id))
        die("bad vector id '%s'", id);
    for (i = 0; i < nvectors; i++)
        if (!strcmp(entry_ids[i], id))
            die("duplicate vector id %s", id);

    for (prof = 0; prof < 2; prof++) {
        uint8_t *out;
        whole[prof] = decode_with(blk, blen, cap, dict, dict_len, (ref_profile)prof, 0, &out);
        if (want->declared) {
            ref_status ws = prof == REF_PROFILE_STRICT ? want->strict : want->compatible;
            if (whole[prof].r.status != ws)
                die("%s: designed to give %s under the %s profile, ref_decode says %s "
                    "(check %s, input position %zu)", id, ref_status_name(ws),
                    prof ? "compatible" : "strict", ref_status_name(whole[prof].r.status),
                    ref_check_name(whole[prof].r.failed_check), whole[prof].r.consumed);
        }
        if (whole[prof].r.status == REF_OK && want->output &&
            (whole[prof].r.written != want->output_len ||
             memcmp(out, want->output, want->output_len) != 0))
            die("%s: ref_decode (%s) output differs from the designed output (%zu vs %zu "
                "bytes)", id, prof ? "compatible" : "strict", whole[prof].r.written,
                want->output_len);
        if (whole[prof].r.status == REF_OK && !want->output)
            die("%s: accepted under the %s profile but has no designed output", id,
                prof ? "compatible" : "strict");
        free(out);
        status_counts[prof][whole[prof].r.status]++;
        if (cap > 0)
            part[prof] = decode_with(blk, blen, cap, dict, dict_len, (ref_profile)prof, 1,
                                     NULL);
        if (decode_with(blk, blen, AMPLE_CAPACITY, dict, dict_len, (ref_profile)prof, 0,
                        NULL).r.status == REF_OK)
            well_formed = 1;
    }
    if (!well_formed && cap > 0) {
        uint8_t *pre = xmalloc(cap);
        size_t n = defined_prefix(blk, blen, cap, dict, dict_len, pre);
        char sha[65];
        sha256_hex(pre, n, sha);
        snprintf(malformed_json, sizeof malformed_json,
                 "\"malformed\": {\"prefix_size\": %zu, \"prefix_sha256\": \"%s\"}", n, sha);
        free(pre);
    }

    snprintf(file, sizeof file, "%s.lz4", id);
    write_file(file, blk, blen);

    sb_printf(&b, "    {\n      \"id\": \"%s\",\n      \"file\": \"%s\",\n      \"size\": %zu,"
                  "\n      \"comment\": ", id, file, blen);
    sb_json_string(&b, comment);
    sb_printf(&b, ",\n      \"flags\": [");
    snprintf(flagbuf, sizeof flagbuf, "%s", flags);
    for (tok = strtok_r(flagbuf, " ", &save); tok; tok = strtok_r(NULL, " ", &save)) {
        sb_printf(&b, "%s", first ? "" : ", ");
        sb_json_string(&b, tok);
        count_flag(tok);
        first = 0;
    }
    if (!well_formed) {
        sb_printf(&b, "%s\"malformed\"", first ? "" : ", ");
        count_flag("malformed");
    }
    sb_printf(&b, "],\n      \"capacity\": %zu", cap);
    if (dict_name) {
        use_dict(dict_name, dict, dict_len);
        sb_printf(&b, ",\n      \"dict\": \"%s\",\n      \"dict_size\": %zu", dict_name,
                  dict_len);
    }
    sb_expected(&b, "expected", id, &whole[0], &whole[1], NULL);
    if (cap > 0)
        sb_expected(&b, "expected_partial", id, &part[0], &part[1],
                    malformed_json[0] ? malformed_json : NULL);
    sb_printf(&b, "\n    }");
    entries[nvectors] = b.s;
    entry_ids[nvectors] = strdup(id);
    nvectors++;
}

/* ---- generated vectors ------------------------------------------------------ */

#define NUM_FEATURES 9
static const char *const feature_names[NUM_FEATURES] = {
    "LONG_LITERALS", "LENGTH_CHAIN", "OVERLAP", "MAX_OFFSET", "EDGE_MATCHLEN",
    "EDGE_LITLEN", "EXACT_END", "DICT", "HUGE_LITERALS",
};
static unsigned gen_feature_count[NUM_FEATURES];
static unsigned ngen;

/* Generate with (seed, max_output, dict_len) and add the block as the next
 * gen-NNN vector, unless need_feature is set and missing or the block is
 * longer than max_block. extra_cap: decode with that much more capacity.
 * Returns whether it was added. */
static int gen_one(uint64_t seed, size_t max_output, size_t dict_len, uint32_t need_feature,
                   size_t max_block, size_t extra_cap)
{
    ref_gen_params gp;
    ref_gen_result gr;
    size_t block_cap = ref_compress_bound(max_output) + 64;
    uint8_t *blk = xmalloc(block_cap), *out = xmalloc(max_output), *dict = xmalloc(dict_len);
    char id[32], dname[40], comment[256], flags[256];
    design want;
    unsigned f;
    int added = 0;

    gp.seed = seed;
    gp.max_output = max_output;
    gp.dict_len = dict_len;
    gr = ref_gen_block(&gp, blk, block_cap, out, max_output, dict);
    if (!gr.ok)
        die("ref_gen_block failed (seed %llu, max_output %zu, dict %zu)",
            (unsigned long long)seed, max_output, dict_len);
    if ((need_feature && !(gr.features & need_feature)) || gr.block_len > max_block)
        goto done;

    snprintf(id, sizeof id, "gen-%03u", ngen);
    snprintf(comment, sizeof comment,
             "ref_gen_block(seed=%llu, max_output=%zu, dict_len=%zu): %zu-byte block, %zu bytes "
             "of output%s", (unsigned long long)seed, max_output, dict_len, gr.block_len,
             gr.output_len, extra_cap ? ", decoded with a larger capacity" : "");
    snprintf(flags, sizeof flags, "generated");
    for (f = 0; f < NUM_FEATURES; f++) {
        if (gr.features & (1u << f)) {
            size_t l = strlen(flags);
            snprintf(flags + l, sizeof flags - l, " %s", feature_names[f]);
            gen_feature_count[f]++;
        }
    }
    if (dict_len)
        strcat(flags, " dictionary");
    if (extra_cap)
        strcat(flags, " capacity_larger");
    want.declared = 1;
    want.strict = want.compatible = REF_OK;
    want.output = out;
    want.output_len = gr.output_len;
    snprintf(dname, sizeof dname, "%s.dict", id);
    add_vector(id, comment, flags, blk, gr.block_len, gr.output_len + extra_cap,
               dict_len ? dname : NULL, dict, dict_len, &want);
    ngen++;
    added = 1;
done:
    free(blk);
    free(out);
    free(dict);
    return added;
}

static void generated_vectors(void)
{
    /* (max_output, dict_len, how many). Small blocks dominate: they are
     * where the end-of-block limits and the length-field edges sit. */
    static const struct { size_t max_output, dict_len; unsigned count; } plan[] = {
        { 0, 0, 1 }, { 1, 0, 2 }, { 3, 0, 2 }, { 5, 0, 2 }, { 12, 0, 2 }, { 13, 0, 6 },
        { 16, 0, 4 }, { 24, 0, 4 }, { 40, 0, 8 }, { 64, 0, 10 }, { 128, 0, 14 },
        { 300, 0, 16 }, { 600, 0, 14 }, { 1024, 0, 14 }, { 2048, 0, 10 }, { 4096, 0, 8 },
        { 8192, 0, 4 }, { 16384, 0, 2 }, { 32768, 0, 1 }, { 40, 1, 2 }, { 64, 16, 5 },
        { 256, 64, 5 }, { 1024, 300, 5 }, { 2048, 1000, 3 }, { 4096, 4096, 2 },
        { 600, 20000, 1 },
    };
    static const size_t extras[] = { 1, 7, 64, 1000 };
    static const unsigned min_count[NUM_FEATURES] = { 4, 4, 4, 2, 4, 4, 4, 4, 1 };
    uint64_t seed = 0x6C7A346761746531ull; /* "lz4gate1" */
    size_t i, n = 0;
    unsigned f, k;

    for (i = 0; i < sizeof plan / sizeof plan[0]; i++)
        for (k = 0; k < plan[i].count; k++, n++)
            gen_one(seed + n, plan[i].max_output, plan[i].dict_len, 0, (size_t)-1,
                    n % 5 == 4 ? extras[(n / 5) % 4] : 0);

    /* Top up every feature to its minimum with the first seeds (in a fixed
     * order) that show it in a small enough block. */
    for (f = 0; f < NUM_FEATURES; f++) {
        uint32_t bit = 1u << f;
        uint64_t s = 0x6C7A346761746532ull + (uint64_t)f * 1000003u;
        size_t max_output = bit == REF_GEN_F_HUGE_LITERALS ? 70000
                            : bit == REF_GEN_F_MAX_OFFSET ? 65600 : 2000;
        size_t dict_len = bit == REF_GEN_F_DICT ? 500 : 0;
        size_t max_block = bit == REF_GEN_F_HUGE_LITERALS ? 70000
                           : bit == REF_GEN_F_MAX_OFFSET ? 12000 : 1200;
        unsigned tries = 0;
        while (gen_feature_count[f] < min_count[f]) {
            if (++tries > 200000)
                die("no seed gives feature %s in a block <= %zu bytes", feature_names[f],
                    max_block);
            gen_one(s++, max_output, dict_len, bit, max_block, 0);
        }
    }
}

/* ---- hand-made blocks ------------------------------------------------------- */

/* Literal bytes for hand-made blocks: a fixed splitmix64 stream, so that
 * every offset error copies visibly different bytes. */
static uint64_t lit_state = 0x68616E646D616465ull; /* "handmade" */

static uint8_t lit_byte(void)
{
    uint64_t z = (lit_state += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return (uint8_t)((z ^ (z >> 31)) >> 24);
}

#define BLD_MAX (256u * 1024u)

typedef struct bld {
    uint8_t *blk;
    size_t blen;
    uint8_t *out;     /* what the block decodes to (compatible semantics for offset 0) */
    size_t olen;
    const uint8_t *dict;
    size_t dict_len;
} bld;

static bld bld_new(const uint8_t *dict, size_t dict_len)
{
    bld b;
    b.blk = xmalloc(BLD_MAX);
    b.out = xmalloc(BLD_MAX);
    b.blen = b.olen = 0;
    b.dict = dict;
    b.dict_len = dict_len;
    return b;
}

static void bld_free(bld *b)
{
    free(b->blk);
    free(b->out);
}

static void bld_byte(bld *b, uint8_t x)
{
    if (b->blen >= BLD_MAX)
        die("hand-made block too large");
    b->blk[b->blen++] = x;
}

/* Raw bytes into the block (no output accounting). */
static void bld_raw(bld *b, const void *p, size_t n)
{
    size_t i;
    for (i = 0; i < n; i++)
        bld_byte(b, ((const uint8_t *)p)[i]);
}

static void bld_ext(bld *b, size_t v)
{
    while (v >= 255) {
        bld_byte(b, 255);
        v -= 255;
    }
    bld_byte(b, (uint8_t)v);
}

/* Token + literal-length bytes + nlit fresh literals (into block and output). */
static void bld_token_lits(bld *b, size_t nlit, size_t mlen_field_src, int has_match)
{
    unsigned hi = nlit < 15 ? (unsigned)nlit : 15u, lo = 0;
    size_t i;
    if (has_match)
        lo = mlen_field_src - REF_MIN_MATCH < 15 ? (unsigned)(mlen_field_src - REF_MIN_MATCH)
                                                 : 15u;
    bld_byte(b, (uint8_t)(hi << 4 | lo));
    if (nlit >= 15)
        bld_ext(b, nlit - 15);
    for (i = 0; i < nlit; i++) {
        uint8_t x = lit_byte();
        bld_byte(b, x);
        if (b->olen >= BLD_MAX)
            die("hand-made output too large");
        b->out[b->olen++] = x;
    }
}

/*
 * A sequence: nlit literals, then a match of mlen >= 4 at offset. The
 * designed output copies byte by byte, oldest first (overlap), from the
 * dictionary for positions before the output; offset 0 gives zeros (the
 * compatible profile). An offset outside the history adds no output.
 */
static void bld_seq(bld *b, size_t nlit, size_t mlen, size_t offset)
{
    size_t k;
    bld_token_lits(b, nlit, mlen, 1);
    bld_byte(b, (uint8_t)(offset & 0xFF));
    bld_byte(b, (uint8_t)(offset >> 8));
    if (mlen - REF_MIN_MATCH >= 15)
        bld_ext(b, mlen - REF_MIN_MATCH - 15);
    if (offset > b->olen + b->dict_len)
        return;
    if (b->olen + mlen > BLD_MAX)
        die("hand-made output too large");
    for (k = 0; k < mlen; k++) {
        size_t q = b->olen + k;
        b->out[q] = offset == 0 ? 0
                    : q >= offset ? b->out[q - offset]
                                  : b->dict[b->dict_len - (offset - q)];
    }
    b->olen += mlen;
}

/* The last sequence: literals only. */
static void bld_last(bld *b, size_t nlit)
{
    bld_token_lits(b, nlit, 0, 0);
}

static design designed(const bld *b, ref_status strict, ref_status compatible)
{
    design d;
    d.declared = 1;
    d.strict = strict;
    d.compatible = compatible;
    d.output = b->out;
    d.output_len = b->olen;
    return d;
}

static void add_bld(const char *id, const char *comment, const char *flags, const bld *b,
                    size_t cap, const char *dict_name, ref_status strict,
                    ref_status compatible)
{
    design d = designed(b, strict, compatible);
    add_vector(id, comment, flags, b->blk, b->blen, cap, dict_name, b->dict, b->dict_len, &d);
}

/* A valid hand-made block, at the exact capacity and (when extra) at a larger one. */
static void add_valid(const char *id, const char *comment, const char *flags, const bld *b,
                      size_t extra, const char *dict_name)
{
    char id2[96], comment2[512], flags2[256];
    add_bld(id, comment, flags, b, b->olen, dict_name, REF_OK, REF_OK);
    if (extra) {
        snprintf(id2, sizeof id2, "%s-cap+%zu", id, extra);
        snprintf(comment2, sizeof comment2, "%s; capacity %zu bytes larger than the output",
                 comment, extra);
        snprintf(flags2, sizeof flags2, "%s capacity_larger", flags);
        add_bld(id2, comment2, flags2, b, b->olen + extra, dict_name, REF_OK, REF_OK);
    }
}

/* An invalid block built from raw bytes. */
static void add_raw_invalid(const char *id, const char *comment, const char *flags,
                            const void *blk, size_t blen, size_t cap, ref_status status)
{
    design d;
    memset(&d, 0, sizeof d);
    d.declared = 1;
    d.strict = d.compatible = status;
    add_vector(id, comment, flags, blk, blen, cap, NULL, NULL, 0, &d);
}

static void edge_vectors(void)
{
    char id[96], comment[512];
    size_t i;

    /* The empty block: one token 0x00, no literals. */
    {
        bld b = bld_new(NULL, 0);
        bld_last(&b, 0);
        add_valid("edge-empty-block", "the one-byte block 00: zero literals, no match, "
                  "decodes to nothing (capacity 0)", "edge empty_block", &b, 64, NULL);
        bld_free(&b);
    }

    /* Literal-only blocks; 15, 48, 280 are the spec's examples of the
     * literal-length encoding (15 -> F0 00, 48 -> F0 21, 280 -> F0 FF 0A). */
    {
        static const size_t lens[] = { 1, 4, 5, 12, 13, 14, 15, 16, 48, 269, 270, 271, 280,
                                       524, 525, 526, 779, 780 };
        for (i = 0; i < sizeof lens / sizeof lens[0]; i++) {
            bld b = bld_new(NULL, 0);
            bld_last(&b, lens[i]);
            snprintf(id, sizeof id, "edge-literals-%zu", lens[i]);
            snprintf(comment, sizeof comment,
                     "a block of one literal run of %zu bytes (literal length %s)", lens[i],
                     lens[i] == 15 ? "15: token F, then 0 (spec example)"
                     : lens[i] == 48 ? "48: token F, then 33 (spec example)"
                     : lens[i] == 280 ? "280: token F, then 255, 10 (spec example)"
                     : lens[i] < 15 ? "in the token" : "with extension bytes");
            add_valid(id, comment, "edge literal_length", &b, i % 3 == 0 ? 1 : 0, NULL);
            bld_free(&b);
        }
    }

    /* Match lengths around the token / 255-chain boundaries. */
    {
        static const size_t lens[] = { 4, 5, 17, 18, 19, 20, 33, 273, 274, 275, 528, 529,
                                       530, 1000 };
        for (i = 0; i < sizeof lens / sizeof lens[0]; i++) {
            bld b = bld_new(NULL, 0);
            bld_seq(&b, 16, lens[i], 16);
            bld_last(&b, 12);
            snprintf(id, sizeof id, "edge-match-%zu", lens[i]);
            snprintf(comment, sizeof comment, "16 literals, a match of length %zu at offset "
                     "16%s, 12 final literals", lens[i],
                     lens[i] == 4 ? " (token field 0)" : lens[i] == 18 ? " (token field 14)"
                     : lens[i] == 19 ? " (token field 15, then 0)"
                     : lens[i] == 274 ? " (token field 15, then 255, 0)" : "");
            add_valid(id, comment, "edge match_length", &b, i % 4 == 1 ? 64 : 0, NULL);
            bld_free(&b);
        }
    }

    /* Overlapping matches (offset < length) at every small offset, where
     * decoders use special copy paths. */
    {
        static const size_t offs[] = { 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 15, 16, 17, 31,
                                       32, 33 };
        for (i = 0; i < sizeof offs / sizeof offs[0]; i++) {
            bld b = bld_new(NULL, 0);
            bld_seq(&b, offs[i], 64, offs[i]);
            bld_seq(&b, 3, 21, offs[i]);
            bld_last(&b, 8);
            snprintf(id, sizeof id, "edge-overlap-offset-%zu", offs[i]);
            snprintf(comment, sizeof comment, "overlapping matches: %zu literals, match of 64 "
                     "at offset %zu, 3 literals, match of 21 at offset %zu, 8 literals",
                     offs[i], offs[i], offs[i]);
            add_valid(id, comment, "edge overlap", &b, i % 4 == 0 ? 7 : 0, NULL);
            bld_free(&b);
        }
    }
    {
        bld b = bld_new(NULL, 0);
        bld_seq(&b, 1, 5000, 1);
        bld_last(&b, 5);
        add_valid("edge-overlap-offset-1-run", "one literal, then a 5000-byte match at "
                  "offset 1 (a run), 5 literals", "edge overlap", &b, 0, NULL);
        bld_free(&b);
    }

    /* Matches that start at the very first output byte. */
    {
        bld b = bld_new(NULL, 0);
        bld_seq(&b, 20, 10, 20);
        bld_seq(&b, 0, 30, 30);
        bld_seq(&b, 2, 4, 62);
        bld_last(&b, 9);
        add_valid("edge-offset-to-output-start", "matches whose offset equals the output "
                  "produced so far (they start at output byte 0)", "edge offset", &b, 3, NULL);
        bld_free(&b);
    }

    /* Offset 65535 with enough history (and one byte too little). The
     * history is cheap to encode but not periodic: 300 literals, then
     * sequences of 2 literals and a 200-byte match at a pseudo-random offset;
     * the match at offset 65535 follows a literal run that brings the output
     * to exactly `history` bytes. */
    {
        static const size_t history[] = { 65534, 65535, 65536, 70000 };
        for (i = 0; i < sizeof history / sizeof history[0]; i++) {
            bld b = bld_new(NULL, 0);
            uint64_t x = 0x6F6666736574ull; /* "offset" */
            int valid = history[i] >= 65535;
            bld_seq(&b, 300, 200, 300);
            while (b.olen + 202 + 1 <= history[i]) {
                size_t room = b.olen + 2 < 65535 ? b.olen + 2 : 65535;
                x = x * 6364136223846793005ull + 1442695040888963407ull;
                bld_seq(&b, 2, 200, 1 + (size_t)((x >> 33) % room));
            }
            bld_seq(&b, history[i] - b.olen, 300, 65535);
            if (valid)
                bld_seq(&b, 7, 40, 65535);
            bld_last(&b, 6);
            if (valid) {
                snprintf(id, sizeof id, "edge-offset-65535-history-%zu", history[i]);
                snprintf(comment, sizeof comment, "%zu bytes of varied output, then matches "
                         "of 300 and 40 at offset 65535%s", history[i],
                         history[i] == 65535 ? " (the first starts at output byte 0)" : "");
                add_valid(id, comment, "edge offset MAX_OFFSET", &b, i == 1 ? 1 : 0, NULL);
            } else {
                add_bld("inv-offset-65535-history-65534", "65534 bytes of output, then a "
                        "match at offset 65535: one byte before the start",
                        "invalid offset_before_start", &b, 65534 + 300 + 6, NULL,
                        REF_ERR_OFFSET_BEFORE_START, REF_ERR_OFFSET_BEFORE_START);
            }
            bld_free(&b);
        }
    }

    /* Blocks that end exactly at the end-of-block limits. */
    {
        bld b = bld_new(NULL, 0);
        bld_seq(&b, 8, 7, 8);
        bld_last(&b, 5);
        add_valid("edge-end-both-limits", "8 literals, match of 7 at offset 8, 5 literals: "
                  "the last match starts exactly 12 bytes before the end and the last 5 "
                  "bytes are literals", "edge end_of_block EXACT_END", &b, 1, NULL);
        bld_free(&b);

        b = bld_new(NULL, 0);
        bld_seq(&b, 1, 4, 1);
        bld_last(&b, 8);
        add_valid("edge-end-smallest-with-match", "1 literal, match of 4 at offset 1, 8 "
                  "literals: the smallest block with a match (13 bytes of output)",
                  "edge end_of_block EXACT_END", &b, 64, NULL);
        bld_free(&b);

        b = bld_new(NULL, 0);
        bld_seq(&b, 20, 30, 20);
        bld_last(&b, 5);
        add_valid("edge-end-last-literals-5", "the last match ends exactly 5 bytes before "
                  "the end", "edge end_of_block EXACT_END", &b, 4, NULL);
        bld_free(&b);

        b = bld_new(NULL, 0);
        bld_seq(&b, 10, 4, 10);
        bld_last(&b, 8);
        add_valid("edge-end-last-match-12", "the last match (4 bytes) starts exactly 12 "
                  "bytes before the end, 8 final literals", "edge end_of_block EXACT_END",
                  &b, 0, NULL);
        bld_free(&b);

        b = bld_new(NULL, 0);
        bld_seq(&b, 5, 4, 5);
        for (i = 0; i < 40; i++)
            bld_seq(&b, i % 4, 4 + i % 3, 1 + i % 5);
        bld_last(&b, 12);
        add_valid("edge-many-short-sequences", "5 literals and a match, then 40 sequences of 0-3 literals and matches of "
                  "4-6 bytes at offsets 1-5, then 12 literals", "edge short_sequences", &b, 0,
                  NULL);
        bld_free(&b);

        b = bld_new(NULL, 0);
        bld_seq(&b, 16, 4, 16);
        bld_seq(&b, 0, 4, 3);
        bld_seq(&b, 0, 19, 7);
        bld_seq(&b, 0, 274, 1);
        bld_seq(&b, 0, 18, 40);
        bld_last(&b, 5);
        add_valid("edge-zero-literal-sequences", "sequences with no literals (token high "
                  "nibble 0) after the first", "edge literal_length", &b, 16, NULL);
        bld_free(&b);

        b = bld_new(NULL, 0);
        bld_seq(&b, 270, 4, 100);
        bld_seq(&b, 525, 19, 300);
        bld_seq(&b, 15, 20, 1);
        bld_last(&b, 14);
        add_valid("edge-long-literals-before-match", "literal runs of 270, 525 and 15 bytes "
                  "(255-chain boundaries) followed by matches", "edge literal_length", &b, 0,
                  NULL);
        bld_free(&b);
    }

    /* The last token's low nibble is not a match length: the block ends
     * after the literals whatever it holds. */
    {
        bld b = bld_new(NULL, 0);
        bld_seq(&b, 6, 6, 6);
        bld_last(&b, 7);
        b.blk[b.blen - 8] |= 0x0F;
        add_valid("edge-last-token-low-nibble", "the last token is 7F: its match-length "
                  "nibble is ignored, as the block ends after the literals",
                  "edge end_of_block", &b, 0, NULL);
        bld_free(&b);
    }
}

static void dict_vectors(void)
{
    uint8_t *small = xmalloc(1000), *big = xmalloc(65536);
    size_t i;
    for (i = 0; i < 1000; i++)
        small[i] = lit_byte();
    for (i = 0; i < 65536; i++)
        big[i] = lit_byte();

    {
        bld b = bld_new(small, 1000);
        bld_seq(&b, 0, 20, 1000);
        bld_last(&b, 5);
        add_valid("edge-dict-oldest-byte", "no literals, then a match of 20 at offset 1000 "
                  "with a 1000-byte dictionary: starts at the dictionary's first byte",
                  "edge dictionary", &b, 10, "dict-1000.dict");
        bld_free(&b);

        b = bld_new(small, 1000);
        bld_seq(&b, 4, 40, 14);
        bld_last(&b, 12);
        add_valid("edge-dict-spanning", "a match that starts 10 bytes into the end of the "
                  "dictionary and continues into the output (overlapping it)",
                  "edge dictionary overlap", &b, 0, "dict-1000.dict");
        bld_free(&b);

        b = bld_new(small, 1000);
        bld_seq(&b, 0, 30, 3);
        bld_seq(&b, 5, 100, 999);
        bld_last(&b, 5);
        add_valid("edge-dict-short-offset", "a match of 30 at offset 3 from output byte 0: "
                  "3 dictionary bytes, repeated", "edge dictionary overlap", &b, 0,
                  "dict-1000.dict");
        bld_free(&b);

        b = bld_new(small, 1000);
        bld_seq(&b, 0, 4, 1001);
        bld_last(&b, 8);
        add_bld("inv-dict-offset-beyond", "a match at offset 1001 from output byte 0 with a "
                "1000-byte dictionary: one byte before the history", "invalid dictionary "
                "offset_before_start", &b, 64, "dict-1000.dict", REF_ERR_OFFSET_BEFORE_START,
                REF_ERR_OFFSET_BEFORE_START);
        bld_free(&b);

        b = bld_new(big, 65536);
        bld_seq(&b, 0, 300, 65535);
        bld_seq(&b, 100, 50, 65535);
        bld_seq(&b, 3, 70, 600);
        bld_last(&b, 5);
        add_valid("edge-dict-64k-offset-65535", "a 64 KiB dictionary: matches at offset "
                  "65535 from output bytes 0 and 400, then one spanning dictionary and output",
                  "edge dictionary MAX_OFFSET", &b, 1, "dict-65536.dict");
        bld_free(&b);
    }
    free(small);
    free(big);
}

static void invalid_vectors(void)
{
    /* Truncations, in the order of the fields. */
    add_raw_invalid("inv-empty-input", "0 bytes of input: a token was due",
                    "invalid truncated_token", "", 0, 16, REF_ERR_TRUNCATED_TOKEN);
    {
        bld b = bld_new(NULL, 0);
        bld_seq(&b, 8, 8, 8);
        add_bld("inv-truncated-token-after-match", "the block ends right after a match: "
                "the last sequence (literals only) is missing", "invalid truncated_token", &b,
                16, NULL, REF_ERR_TRUNCATED_TOKEN, REF_ERR_TRUNCATED_TOKEN);
        add_bld("inv-truncated-token-after-match-cap+64", "the block ends right after a "
                "match, decoded with a larger capacity", "invalid truncated_token", &b, 80,
                NULL, REF_ERR_TRUNCATED_TOKEN, REF_ERR_TRUNCATED_TOKEN);
        bld_free(&b);
    }
    add_raw_invalid("inv-truncated-literal-length-1", "token F0 alone: the literal length "
                    "needs a next byte", "invalid truncated_literal_length", "\xF0", 1, 1000,
                    REF_ERR_TRUNCATED_LITERAL_LENGTH);
    add_raw_invalid("inv-truncated-literal-length-2", "F0 FF: the length chain goes on past "
                    "the input", "invalid truncated_literal_length", "\xF0\xFF", 2, 1000,
                    REF_ERR_TRUNCATED_LITERAL_LENGTH);
    {
        uint8_t blk[64];
        memset(blk, 0xFF, sizeof blk);
        blk[0] = 0xF0;
        add_raw_invalid("inv-truncated-literal-length-chain", "F0 then 63 bytes FF: the "
                        "literal-length chain never ends", "invalid truncated_literal_length",
                        blk, sizeof blk, 20000, REF_ERR_TRUNCATED_LITERAL_LENGTH);
        blk[0] = 0x1F;
        blk[1] = 'a';
        blk[2] = 1;
        blk[3] = 0;
        add_raw_invalid("inv-truncated-match-length-chain", "1 literal, offset 1, match "
                        "field 15 then 60 bytes FF: the match-length chain never ends",
                        "invalid truncated_match_length", blk, sizeof blk, 20000,
                        REF_ERR_TRUNCATED_MATCH_LENGTH);
    }
    add_raw_invalid("inv-truncated-literals", "token 50 (5 literals) but 3 follow",
                    "invalid truncated_literals", "\x50" "abc", 4, 16,
                    REF_ERR_TRUNCATED_LITERALS);
    {
        uint8_t blk[200];
        size_t n = 0, i;
        blk[n++] = 0xF0;
        for (i = 0; i < 100; i++)
            blk[n++] = 0xFF;
        blk[n++] = 0x00;
        for (; n < sizeof blk; n++)
            blk[n] = (uint8_t)n;
        add_raw_invalid("inv-truncated-literals-long-length", "a literal length of 25515 "
                        "(F0, 100 x FF, 00) with 98 literal bytes present; capacity 30000",
                        "invalid truncated_literals", blk, sizeof blk, 30000,
                        REF_ERR_TRUNCATED_LITERALS);
        add_raw_invalid("inv-truncated-literals-long-length-cap100", "the same, capacity "
                        "100: the input is checked first", "invalid truncated_literals", blk,
                        sizeof blk, 100, REF_ERR_TRUNCATED_LITERALS);
    }
    {
        bld b = bld_new(NULL, 0);
        bld_seq(&b, 20, 8, 20);
        bld_last(&b, 20);
        b.blen--;
        add_bld("inv-truncated-literals-by-one", "a valid block with its last byte cut: the "
                "final literal run is one byte short", "invalid truncated_literals", &b, 48,
                NULL, REF_ERR_TRUNCATED_LITERALS, REF_ERR_TRUNCATED_LITERALS);
        bld_free(&b);
    }
    add_raw_invalid("inv-truncated-offset-1-byte", "1 literal, then only 1 of the 2 offset "
                    "bytes", "invalid truncated_offset", "\x14" "a\x01", 3, 64,
                    REF_ERR_TRUNCATED_OFFSET);
    {
        bld b = bld_new(NULL, 0);
        bld_seq(&b, 8, 8, 8);
        bld_raw(&b, "\x20" "ab\x02", 4);
        add_bld("inv-truncated-offset-second-sequence", "a complete sequence, then 2 "
                "literals and 1 offset byte", "invalid truncated_offset", &b, 64, NULL,
                REF_ERR_TRUNCATED_OFFSET, REF_ERR_TRUNCATED_OFFSET);
        bld_free(&b);
    }
    add_raw_invalid("inv-truncated-match-length", "1 literal, offset 1, match field 15 and "
                    "no length byte", "invalid truncated_match_length", "\x1F" "a\x01\x00", 4,
                    64, REF_ERR_TRUNCATED_MATCH_LENGTH);

    /* Offsets. */
    {
        bld b = bld_new(NULL, 0);
        bld_seq(&b, 4, 8, 0);
        bld_last(&b, 5);
        add_bld("inv-offset-zero", "4 literals, a match of 8 at offset 0, 5 literals. "
                "Compatible: 8 zero bytes", "invalid offset_zero OFFSET_ZERO", &b, b.olen,
                NULL, REF_ERR_OFFSET_ZERO, REF_OK);
        add_bld("inv-offset-zero-cap+64", "offset 0 as above, with a larger capacity",
                "invalid offset_zero OFFSET_ZERO capacity_larger", &b, b.olen + 64, NULL,
                REF_ERR_OFFSET_ZERO, REF_OK);
        bld_free(&b);

        b = bld_new(NULL, 0);
        bld_seq(&b, 0, 4, 0);
        bld_last(&b, 8);
        add_bld("inv-offset-zero-first-sequence", "the first sequence: no literals, offset "
                "0, match of 4. Compatible: 4 zero bytes (no history is needed)",
                "invalid offset_zero OFFSET_ZERO", &b, b.olen, NULL, REF_ERR_OFFSET_ZERO,
                REF_OK);
        bld_free(&b);

        b = bld_new(NULL, 0);
        bld_seq(&b, 16, 16, 16);
        bld_seq(&b, 2, 100, 0);
        bld_last(&b, 9);
        add_bld("inv-offset-zero-long", "a valid sequence, then a match of 100 at offset 0. "
                "Compatible: 100 zero bytes, whatever the buffer held",
                "invalid offset_zero OFFSET_ZERO", &b, b.olen, NULL, REF_ERR_OFFSET_ZERO,
                REF_OK);
        bld_free(&b);

        b = bld_new(NULL, 0);
        bld_seq(&b, 0, 4, 1);
        bld_last(&b, 8);
        add_bld("inv-offset-first-sequence-no-history", "the first sequence has no literals "
                "and offset 1: there is no history", "invalid offset_before_start", &b, 64,
                NULL, REF_ERR_OFFSET_BEFORE_START, REF_ERR_OFFSET_BEFORE_START);
        bld_free(&b);

        b = bld_new(NULL, 0);
        bld_seq(&b, 4, 4, 5);
        bld_last(&b, 8);
        add_bld("inv-offset-before-start-by-one", "4 literals, then offset 5",
                "invalid offset_before_start", &b, 16, NULL, REF_ERR_OFFSET_BEFORE_START,
                REF_ERR_OFFSET_BEFORE_START);
        bld_free(&b);

        b = bld_new(NULL, 0);
        bld_seq(&b, 30, 10, 30);
        bld_seq(&b, 0, 40, 41);
        bld_last(&b, 8);
        add_bld("inv-offset-before-start-later", "40 bytes of output, then offset 41",
                "invalid offset_before_start", &b, 88, NULL, REF_ERR_OFFSET_BEFORE_START,
                REF_ERR_OFFSET_BEFORE_START);
        bld_free(&b);

        b = bld_new(NULL, 0);
        bld_seq(&b, 10, 4, 65535);
        bld_last(&b, 8);
        add_bld("inv-offset-65535-no-history", "10 literals, then offset 65535",
                "invalid offset_before_start", &b, 1000, NULL, REF_ERR_OFFSET_BEFORE_START,
                REF_ERR_OFFSET_BEFORE_START);
        bld_free(&b);
    }

    /* Capacity. */
    {
        bld b = bld_new(NULL, 0);
        bld_seq(&b, 16, 100, 16);
        bld_seq(&b, 40, 20, 7);
        bld_last(&b, 9);
        /* olen = 16+100+40+20+9 = 185 */
        add_bld("inv-output-overflow-last-literals", "a valid 185-byte block with capacity "
                "184: the final literals do not fit", "invalid output_overflow", &b, 184,
                NULL, REF_ERR_OUTPUT_OVERFLOW, REF_ERR_OUTPUT_OVERFLOW);
        add_bld("inv-output-overflow-in-match", "the same block with capacity 50: the first "
                "match does not fit", "invalid output_overflow", &b, 50, NULL,
                REF_ERR_OUTPUT_OVERFLOW, REF_ERR_OUTPUT_OVERFLOW);
        add_bld("inv-output-overflow-match-by-one", "the same block with capacity 115: the "
                "first match is one byte too long", "invalid output_overflow", &b, 115, NULL,
                REF_ERR_OUTPUT_OVERFLOW, REF_ERR_OUTPUT_OVERFLOW);
        add_bld("inv-output-overflow-in-literals", "the same block with capacity 130: the "
                "second literal run does not fit", "invalid output_overflow", &b, 130, NULL,
                REF_ERR_OUTPUT_OVERFLOW, REF_ERR_OUTPUT_OVERFLOW);
        add_bld("inv-output-overflow-capacity-0", "the same block with capacity 0",
                "invalid output_overflow", &b, 0, NULL, REF_ERR_OUTPUT_OVERFLOW,
                REF_ERR_OUTPUT_OVERFLOW);
        bld_free(&b);
    }
    {
        uint8_t blk[8];
        memset(blk, 0xFF, sizeof blk);
        blk[0] = 0x1F;
        blk[1] = 'x';
        blk[2] = 1;
        blk[3] = 0;
        blk[7] = 0;
        add_raw_invalid("inv-output-overflow-long-match", "1 literal, then a match of 784 "
                        "(15, FF FF FF, 00) at offset 1 into a capacity of 100",
                        "invalid output_overflow", blk, sizeof blk, 100,
                        REF_ERR_OUTPUT_OVERFLOW);
    }
    add_raw_invalid("inv-output-full-input-left", "5 literals fill the capacity of 5, one "
                    "byte of input is left", "invalid output_full_input_left",
                    "\x50" "abcde\x00", 7, 5, REF_ERR_OUTPUT_FULL_INPUT_LEFT);
    add_raw_invalid("inv-trailing-byte-cap+64", "the same 7 bytes with capacity 69: the "
                    "trailing byte is a 1-byte offset", "invalid truncated_offset",
                    "\x50" "abcde\x00", 7, 69, REF_ERR_TRUNCATED_OFFSET);
    {
        bld b = bld_new(NULL, 0);
        bld_seq(&b, 12, 12, 12);
        bld_last(&b, 6);
        bld_raw(&b, "\x00", 1);
        add_bld("inv-valid-block-then-zero-byte", "a valid 30-byte block followed by a "
                "00 byte, exact capacity: output full, input left",
                "invalid output_full_input_left", &b, 30, NULL,
                REF_ERR_OUTPUT_FULL_INPUT_LEFT, REF_ERR_OUTPUT_FULL_INPUT_LEFT);
        bld_free(&b);
    }

    /* End-of-block conditions (strict rejects, compatible accepts). Each at
     * the exact capacity and at a larger one: decoders that test the limits
     * against the capacity reject only the former. */
    {
        static const struct { const char *id, *comment; size_t lit0, mlen, off, last;
                              ref_status strict; } eob[] = {
            { "inv-last-literals-4", "4 literals, match of 8 at offset 4, 4 final literals: "
              "the last match starts 12 bytes before the end but only 4 bytes are literals",
              4, 8, 4, 4, REF_ERR_LAST_LITERALS },
            { "inv-last-literals-1", "8 literals, match of 16 at offset 8, 1 final literal",
              8, 16, 8, 1, REF_ERR_LAST_LITERALS },
            { "inv-last-literals-0", "8 literals, match of 16 at offset 8, then a final "
              "token with no literals", 8, 16, 8, 0, REF_ERR_LAST_LITERALS },
            { "inv-last-match-9-from-end", "4 literals, match of 4 at offset 4, 5 final "
              "literals: the last match starts 9 bytes before the end", 4, 4, 4, 5,
              REF_ERR_LAST_MATCH_TOO_CLOSE },
            { "inv-last-match-11-from-end", "10 literals, match of 6 at offset 10, 5 final "
              "literals: the last match starts 11 bytes before the end", 10, 6, 10, 5,
              REF_ERR_LAST_MATCH_TOO_CLOSE },
            { "inv-last-literals-and-match", "4 literals, match of 4 at offset 4, 2 final "
              "literals: both rules broken, rule 2 is reported", 4, 4, 4, 2,
              REF_ERR_LAST_LITERALS },
        };
        size_t i;
        for (i = 0; i < sizeof eob / sizeof eob[0]; i++) {
            const ref_profile_rule *rule = ref_profile_rule_for(eob[i].strict);
            char flags[128], id[96], comment[512];
            bld b = bld_new(NULL, 0);
            bld_seq(&b, eob[i].lit0, eob[i].mlen, eob[i].off);
            bld_last(&b, eob[i].last);
            snprintf(flags, sizeof flags, "invalid %s %s", ref_status_name(eob[i].strict),
                     rule ? rule->name : "?");
            add_bld(eob[i].id, eob[i].comment, flags, &b, b.olen, NULL, eob[i].strict,
                    REF_OK);
            snprintf(id, sizeof id, "%s-cap+64", eob[i].id);
            snprintf(comment, sizeof comment, "%s; capacity 64 bytes larger", eob[i].comment);
            snprintf(flags, sizeof flags, "invalid %s %s capacity_larger",
                     ref_status_name(eob[i].strict), rule ? rule->name : "?");
            add_bld(id, comment, flags, &b, b.olen + 64, NULL, eob[i].strict, REF_OK);
            bld_free(&b);
        }
    }
}

/* ---- index ------------------------------------------------------------------ */

static void write_index(void)
{
    sbuf b = { NULL, 0, 0 };
    size_t i;
    int p;
    unsigned s;

    sb_printf(&b, "{\n  \"comment\": ");
    sb_json_string(&b,
        "lz4gate known-answer vectors: LZ4 blocks with their expected decoding under the "
        "strict and compatible profiles (ref/profile.c). Generated by harness/make_vectors.c "
        "(deterministic; do not edit by hand) and run on every subject by harness/vectors.c.");
    sb_printf(&b, ",\n  \"schema\": {\n");
    sb_printf(&b, "    \"file\": \"the block, raw bytes (size bytes)\",\n");
    sb_printf(&b, "    \"capacity\": \"the output capacity to decode with\",\n");
    sb_printf(&b, "    \"dict\": \"optional: a dictionary file (dict_size bytes) to decode "
                  "with, as an external dictionary (LZ4_decompress_safe_usingDict)\",\n");
    sb_printf(&b, "    \"expected\": \"whole-block decode (LZ4_decompress_safe, or _usingDict "
                  "with dict): {strict, compatible, acceptable?}; each profile gives result "
                  "valid (output_size, output_sha256) or invalid (status = ref_status_name, "
                  "check = the ref check that fired, input_position)\",\n");
    sb_printf(&b, "    \"expected_partial\": \"the same for a partial decode "
                  "(LZ4_decompress_safe_partial) with target = capacity; absent when the "
                  "capacity is 0, where API generations differ (contracts cover it)\",\n");
    sb_printf(&b, "    \"malformed\": \"in flags: no profile accepts the block even with "
                  "ample capacity. In expected_partial: partial decoders differ on such "
                  "input (upstream returns what it decoded before the input ended), so a "
                  "subject may reject it, or return the first r <= prefix_size bytes the "
                  "block defines before its defect (prefix_sha256 covers all of them)\",\n");
    sb_printf(&b, "    \"acceptable\": \"present when the profiles disagree: the "
                  "ref_profile_rules row that allows a decoder either result\",\n");
    sb_printf(&b, "    \"flags\": \"generated | edge | invalid, then REF_GEN_F_* features, "
                  "ref_status names, profile rule names and descriptive tags\"\n  }");
    sb_printf(&b, ",\n  \"not_covered\": [\n");
    sb_printf(&b, "    {\"status\": \"length_overflow\", \"why\": \"needs a length chain of "
                  "~16.8 million FF bytes (a 32-bit size_t); tests/c/test_decode.c covers it "
                  "in 32-bit builds\"},\n");
    sb_printf(&b, "    {\"status\": \"bad_parameter\", \"why\": \"a property of the call "
                  "(NULL buffers, dictionary over 64 KiB), not of a block; the API "
                  "contracts cover it\"}\n  ]");
    sb_printf(&b, ",\n  \"counts\": {\"vectors\": %zu, \"block_and_dict_bytes\": %zu", nvectors,
              total_bytes);
    for (i = 0; i < nflag_names; i++)
        if (!strcmp(flag_names[i], "generated") || !strcmp(flag_names[i], "edge") ||
            !strcmp(flag_names[i], "invalid") || !strcmp(flag_names[i], "dictionary") ||
            !strcmp(flag_names[i], "capacity_larger") || !strcmp(flag_names[i], "malformed"))
            sb_printf(&b, ", \"%s\": %u", flag_names[i], flag_counts[i]);
    for (p = 0; p < 2; p++) {
        sb_printf(&b, ",\n    \"%s\": {", p ? "compatible" : "strict");
        for (s = 0; s < REF_STATUS_COUNT; s++)
            sb_printf(&b, "%s\"%s\": %u", s ? ", " : "", ref_status_name((ref_status)s),
                      status_counts[p][s]);
        sb_printf(&b, "}");
    }
    sb_printf(&b, ",\n    \"generated_features\": {");
    for (i = 0; i < NUM_FEATURES; i++)
        sb_printf(&b, "%s\"%s\": %u", i ? ", " : "", feature_names[i], gen_feature_count[i]);
    sb_printf(&b, "}\n  }");
    sb_printf(&b, ",\n  \"vectors\": [\n");
    for (i = 0; i < nvectors; i++)
        sb_printf(&b, "%s%s", entries[i], i + 1 < nvectors ? ",\n" : "\n");
    sb_printf(&b, "  ]\n}\n");
    write_file("index.json", b.s, b.len);
    free(b.s);
}

int main(int argc, char **argv)
{
    struct stat st;
    if (argc > 2 || (argc == 2 && argv[1][0] == '-')) {
        fprintf(stderr, "usage: %s [DIR]   (default: corpus/vectors)\n", argv[0]);
        return 2;
    }
    if (argc == 2)
        outdir = argv[1];
    if (stat(outdir, &st) != 0 && mkdir(outdir, 0777) != 0)
        die("cannot create %s: %s", outdir, strerror(errno));
    if (!sha256_self_test())
        die("SHA-256 self-test failed");
    generated_vectors();
    edge_vectors();
    dict_vectors();
    invalid_vectors();
    write_index();
    remove_stale();
    printf("make_vectors: %zu vectors (%u generated), %zu files, %zu bytes in %s\n", nvectors,
           ngen, nwritten, total_bytes, outdir);
    return 0;
}
