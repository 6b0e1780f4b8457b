/*
 * oracle.h: what the lz4gate fuzz targets share besides parameter drawing
 * (params.h): calling a subject's decoder on exactly sized buffers, the
 * reference expectation for a call, and the verdict.
 *
 *   oracle.c          failing (fz_fail), LZ4GATE_FUZZ_SKIP, latitudes,
 *                     allocation, scratch, deterministic fills
 *   oracle_verdict.c  ref's expectation for a call and the verdict (the
 *                     rules are described there), findings
 *                     (LZ4GATE_FUZZ_IGNORE)
 *   oracle_call.c     input, destination and dictionary areas, running a
 *                     decoder call twice (0x00 / 0xFF) and checking it
 *   synth.c           data of up to several MiB described by a few bytes
 *                     (synth.h)
 *   oracle_needs.c    is the target applicable: has the subject any entry
 *                     point it exercises (FZ_NEEDS)? else n/a
 *
 * Findings abort with "lz4gate-fuzz TARGET: FAIL [CLASS@ENTRY]: details",
 * CLASS the name of a row of fail_class.h (fail_class_name; tools parse
 * that line: harness/evidence/failure.py), for the pair target
 * followed by "lz4gate-fuzz-fault: base|candidate", other failures of
 * the oracle itself with "lz4gate-fuzz TARGET: FAIL: details".
 * Decoder classes: wrong_output (a valid block decoded wrongly),
 * rejects_valid, accepts_invalid (naming ref's status and check),
 * offset0_output (offset 0 accepted without writing zeros),
 * malformed_wrong_output (partial decode of a malformed block returns bytes
 * other than the data before the defect), stale_output, wrote_before_dst,
 * return_above_capacity, return_above_target. LZ4GATE_FUZZ_IGNORE lists
 * ids (or classes) to count instead of abort, LZ4GATE_FUZZ_SKIP entry
 * points not to call (python3 -m harness fuzz --ignore / --skip / --known).
 *
 * Every program linked with oracle.c names itself once, at file scope, and
 * every fuzz target says what it exercises:
 *     FZ_TARGET("decode_differential");
 *     FZ_NEEDS(FZ_DECODERS);
 */
#ifndef LZ4GATE_FUZZ_ORACLE_H
#define LZ4GATE_FUZZ_ORACLE_H

#include <stddef.h>
#include <stdint.h>

/* By its path from here: programs that build parts of the oracle with
 * only -Ifuzz -Iref (tests/test_fuzz_synth.py, tests/test_latitudes.py)
 * include this header too. */
#include "../harness/runners/common/fail_class.h"
#include "lz4ref.h"

struct lz4_subject;

/* Every target's LLVMFuzzerTestOneInput starts with fz_input(data, size):
 * a campaign keeps the inputs that give findings (oracle_record.c). */
void fz_input(const uint8_t *data, size_t size);
/* Changes at every fz_input and fz_src: what the oracle remembers of ref's
 * decodes (fz_ref_whole) holds only while it is unchanged. */
extern unsigned long fz_memo_epoch;
/* LZ4GATE_FUZZ_RECORD is set: findings are recorded (and not stopped at,
 * unless LZ4GATE_FUZZ_STOP=1 and they are not ignored). */
int fz_recording(void);
int fz_stop_at_first(void);
void fz_record(const char *id, const char *message);
/* In a campaign (fz_recording), counts the executions that took the path
 * `what` (a string literal) out of all that asked, and prints
 * "lz4gate-fuzz TARGET: share WHAT HIT of ALL" at exit: the bench weighs a
 * target's upstream peers by it (harness/bench/speed.py). */
void fz_share(const char *what, int hit);

/* The TARGET of the failure lines. */
extern const char fz_target_name[];
#define FZ_TARGET(name) const char fz_target_name[] = name

/* What a target exercises, at file scope beside FZ_TARGET: any of these
 * subject capabilities (subject.h CAP_*; 0: every subject), of both
 * subjects for the pair target (FZ_NEEDS_BOTH). A subject with none of
 * them is n/a for the target (oracle_needs.c). */
extern const unsigned fz_target_needs;
extern const int fz_target_pair;
#define FZ_NEEDS(caps) const unsigned fz_target_needs = (caps)
#define FZ_NEEDS_BOTH(caps) FZ_NEEDS(caps); const int fz_target_pair = 1
/* The decoders a block decoding target calls. */
#define FZ_DECODERS (CAP_DECOMPRESS_SAFE | CAP_DECOMPRESS_PARTIAL | CAP_DECOMPRESS_FAST | \
                     CAP_DECOMPRESS_USING_DICT)
/* 1 when the target has something to test; else 0 and why (oracle_needs.c). */
int fz_applicable(char *why, size_t cap);

/* Capacities and targets are drawn in [0, FZ_MAX_CAP]. */
#define FZ_MAX_CAP (16u << 20)
/* "Valid as a whole": decoded with this capacity, more than any drawn one. */
#define FZ_BIG_CAP (FZ_MAX_CAP + 64u)

/* The oracle's own helpers (buffers, filling, checksumming) are not
 * instrumented for coverage: their branches depend on earlier inputs
 * (caches, buffers that grow), which would make coverage depend on the
 * order of the inputs (libFuzzer's merge assumes it does not), and under
 * -fsanitize=fuzzer every comparison of every iteration of their loops
 * would call the comparison tracer (a 64 KiB dictionary fill was 70% of
 * decode_differential's time). noinline: an inlined copy would be
 * instrumented as part of its caller. */
#if defined(__clang__) && defined(__has_attribute)
#if __has_attribute(no_sanitize)
#define FZ_NO_COVERAGE __attribute__((noinline, no_sanitize("coverage")))
#endif
#endif
#ifndef FZ_NO_COVERAGE
#define FZ_NO_COVERAGE
#endif

static inline size_t fz_min(size_t a, size_t b) { return a < b ? a : b; }
static inline size_t fz_max(size_t a, size_t b) { return a > b ? a : b; }

/* ---- failing, latitudes (oracle.c); findings (oracle_verdict.c) ------ */

void fz_fail(const char *fmt, ...) __attribute__((noreturn, format(printf, 1, 2)));
/* A finding of class cls (not FAIL_NONE) at the entry point `entry`: its
 * id is "NAME@ENTRY", NAME = fail_class_name(cls). */
void fz_finding(enum fail_class cls, const char *entry, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
/* A finding of the pair target (base_vs_candidate) with the side at fault,
 * "base" or "candidate" ("" or NULL: none), decided by ref, as a field:
 * the line "fault: SIDE" after the message in a campaign's record, the line
 * "lz4gate-fuzz-fault: SIDE" after the failure line when it aborts. */
void fz_finding_by(const char *side, enum fail_class cls, const char *entry, const char *fmt,
                   ...) __attribute__((format(printf, 4, 5)));
/* Findings counted instead of aborting (LZ4GATE_FUZZ_IGNORE). */
extern int fz_ignored_count;
const char *fz_latitude(const char *name);
int fz_skip(const char *entry);

/* ---- memory and fills (oracle.c) ------------------------------------- */

void *fz_alloc(size_t size);
uint8_t *fz_dup(const uint8_t *p, size_t n);
/* *slot (a static pointer to a persistent buffer) is freed at exit. */
void fz_free_at_exit(uint8_t **slot);
enum { FZ_SCRATCH_SLOTS = 12 };
uint8_t *fz_scratch(int slot, size_t size);
/* Reads p[0..n) (under MSan, so that it reports uninitialised returned
 * bytes; elsewhere a no-op: ASan and UBSan see nothing in a read of our
 * own buffer). */
void fz_consume(const uint8_t *p, size_t n);
void fz_fill_prng(uint8_t *p, size_t n, uint64_t seed, unsigned alphabet);
void fz_fill_prng_cached(uint8_t *p, size_t n, uint64_t seed, unsigned alphabet);
#define FZ_DICT_MAX_LEN (1u << 17)
void fz_fill_dict(uint8_t *p, size_t n, uint64_t seed);

/* ---- the reference and the verdict (oracle_verdict.c) ---------------- */

typedef struct fz_ref {
    ref_decode_result r;
    const uint8_t *out;     /* r.written bytes */
} fz_ref;

typedef struct fz_expect {
    fz_ref strict, compat;  /* ref under the call's own parameters */
    int partial;
    int whole_valid;        /* partial: the block decodes (strict, no capacity limit) */
    const uint8_t *lenient; /* partial: what the input decodes to before ref's error */
    size_t lenient_len;
    size_t limit;           /* partial: min(target, capacity) */
    int empty_token;        /* EMPTY_BUFFER_ZERO_TOKEN applies */
} fz_expect;

enum fz_decoder { FZ_SAFE, FZ_PARTIAL, FZ_DICT, FZ_DICT_PREFIX };
extern const char *const fz_decoder_names[];

typedef struct fz_call {
    const struct lz4_subject *s;
    enum fz_decoder kind;
    const uint8_t *src;     /* exactly n bytes of their own (fz_dup) */
    size_t n;
    size_t cap, target;
    const uint8_t *dict;    /* ext: exactly dict_len bytes of their own */
    size_t dict_len;
    /* Non-zero: passed instead of cap / target (a negative size; fz_run's
     * buffer is still cap bytes). */
    int neg_cap, neg_target;
    /* The pair target: the side s is ("base", "candidate"), named as the
     * fault of the call's findings (fz_finding_by); NULL elsewhere. */
    const char *side;
} fz_call;

typedef struct fz_result {
    int r;
    const uint8_t *out;     /* the returned bytes (r > 0), in an area (fz_run) */
} fz_result;

fz_ref fz_ref_decode(int slot, const uint8_t *src, size_t n, size_t cap, const uint8_t *dict,
                     size_t dict_len, ref_profile profile, int partial, size_t target,
                     ref_target0 target0);
/* ref's decode of the whole block src[0..n) (capacity FZ_BIG_CAP, no
 * dictionary) under `profile`, computed once per block and input
 * (fz_memo_epoch); out stays valid until the next block. */
fz_ref fz_ref_whole(const uint8_t *src, size_t n, ref_profile profile);
const char *fz_check_name(int check);
size_t fz_expect_max(const fz_expect *e);
fz_expect fz_expect_for(const fz_call *c, ref_target0 target0);
int fz_target0_conventions(const struct lz4_subject *s, ref_target0 conv[2]);
/* FAIL_NONE when the result is acceptable, else the class of the finding. */
enum fail_class fz_judge_call(const fz_call *c, const fz_expect *first, const fz_result *res,
                              const char **rule, char *why, size_t why_len);

/* ---- running a decoder call (oracle_call.c) -------------------------- */

/* The input bytes a call reads: a copy of p[0..n) at the start of the
 * persistent area `slot` (< FZ_SRC_SLOTS), everything after it poisoned
 * under ASan, so that a read past the n bytes is reported exactly as past
 * an exact allocation (and a read before them hits the allocation's own
 * redzone), without a fresh allocation per input. Valid until the next
 * fz_src of the same slot. */
enum { FZ_SRC_SLOTS = 4 };
const uint8_t *fz_src(int slot, const uint8_t *p, size_t n);

/* An output buffer of exactly cap bytes for a compressor: the end of the
 * next destination area (a write past it is a heap-buffer-overflow), the
 * FZ_GUARD bytes before it poisoned and a canary just before it, its first
 * min(fill_len, cap) bytes set to `fill`. fz_out_close ends the call:
 * returns 0 when something was written before the buffer. The bytes stay
 * valid for FZ_AREAS - 1 further calls (fz_out_open or fz_run). */
typedef struct fz_out {
    uint8_t *dst;
    size_t cap;
    uint8_t *guard;
    size_t guard_len;
} fz_out;
uint8_t *fz_out_open(fz_out *o, size_t cap, int fill, size_t fill_len);
int fz_out_close(fz_out *o);

const uint8_t *fz_dict(size_t n, uint64_t seed);
fz_result fz_run(const fz_call *c, int fill, size_t fill_len);
void fz_result_free(fz_result *r);
int fz_result_equal(const fz_result *a, const fz_result *b);
fz_result fz_run_twice(const fz_call *c, size_t fill_len);
fz_result fz_check_call(const fz_call *c);
/* fz_check_call of c through decompress_safe, then decompress_safe_partial
 * (each when the subject has it and LZ4GATE_FUZZ_SKIP does not exclude
 * it); c->kind is left at FZ_PARTIAL. */
void fz_check_safe_and_partial(fz_call *c);
/* decode_differential's further modes. In place (the rule in
 * oracle_call.c): c->kind FZ_SAFE or FZ_PARTIAL, c->cap the decoded size of
 * a block valid as a whole, want its bytes. */
void fz_check_in_place(const fz_call *c, const uint8_t *want);
/* decompress_fast with originalSize c->cap, made only when
 * fz_fast_must_reject (oracle_verdict.c: the rule) says the block's defect
 * is on the output side; then it must fail. */
void fz_check_fast(const fz_call *c);
int fz_fast_must_reject(const uint8_t *src, size_t n, size_t original, char *why,
                        size_t why_len);

#endif /* LZ4GATE_FUZZ_ORACLE_H */
