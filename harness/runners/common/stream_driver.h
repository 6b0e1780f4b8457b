/*
 * Driving a subject's streaming block API (subject.h stream_*, dstream_*)
 * over a stream of blocks, the way applications do, and ref's view of the
 * same stream: the fuzz target fuzz/stream_roundtrip.c and the regression
 * runner's stream entries (regress_stream.c) share it.
 *
 * A stream is a sequence of blocks; before each block an event may change
 * its history: a reset (no history), a dictionary loaded (LZ4_loadDict) or
 * attached (LZ4_attach_dictionary, after a reset). lz4.h's contract is the
 * "logical stream": a block may refer to the last 64 KiB of (the
 * dictionary of its last event, then every block since), and ref decodes
 * a subject's stream by that rule (stream_ref_decode), whatever memory
 * layout the subject compressed it from.
 *
 * The layouts (lz4.h "Streaming Compression Functions", the examples of
 * blockStreaming_*): where each block's input lies while it is compressed
 * (enum stream_mode) or where its output goes while it is decoded (enum
 * stream_dmode). Every buffer handed to the subject ends at a guard page
 * (guard.h), so a byte read or written past it faults.
 */
#ifndef LZ4GATE_STREAM_DRIVER_H
#define LZ4GATE_STREAM_DRIVER_H

#include <stddef.h>
#include <stdint.h>

#include "fail_class.h"
#include "guard.h"
#include "subject.h"

#define STREAM_WINDOW 65536u   /* the history a block may refer to */
#define STREAM_MAX_STEPS 64

enum stream_mode {
    SM_PREFIX,     /* the input is one buffer, block after block (prefix history) */
    SM_SEPARATE,   /* each block in a buffer of its own, freed once 64 KiB of newer input follow */
    SM_RING,       /* a ring of 64 KiB + the largest block: history always intact */
    SM_RING_SYNC,  /* a small ring (>= 2 x the largest block): LZ4_compress_*_continue
                      must drop history the new input overwrites; the subject decodes it in
                      a ring of the same size, blocks at the same places (lz4.h "synchronized
                      mode") */
    SM_SAVEDICT,   /* one input buffer reused for every block; LZ4_saveDict into a 64 KiB
                      buffer after each */
    SM_COUNT
};

enum stream_dmode {
    DM_PREFIX,        /* one output buffer, block after block: LZ4_decompress_safe_continue */
    DM_SEPARATE,      /* each block's output in a buffer of its own: the history is the
                         previous block only (lz4.h: the previous prefix becomes the dictionary) */
    DM_RING,          /* a ring of 64 KiB + 14 + the largest block (LZ4_decoderRingBufferSize) */
    DM_USINGDICT,     /* one buffer; LZ4_decompress_safe_usingDict with the output since the
                         last event as a prefix dictionary (dict + size == dst), else the event's
                         dictionary */
    DM_USINGDICT_COPY, /* LZ4_decompress_safe_usingDict with a copy of the last 64 KiB */
    DM_RING_SYNC,     /* the ring of an SM_RING_SYNC stream: same size, same places, exact
                         capacities (only for the subject's own SM_RING_SYNC streams) */
    DM_COUNT
};

enum stream_event { SE_NONE, SE_RESET, SE_LOAD_DICT, SE_ATTACH, SE_COUNT };

extern const char *const stream_mode_names[SM_COUNT];
extern const char *const stream_dmode_names[DM_COUNT];
extern const char *const stream_event_names[SE_COUNT];

typedef struct stream_step {
    size_t size;       /* input bytes of the block */
    int event;         /* before it: enum stream_event (step 0: never SE_NONE) */
    int dict;          /* SE_LOAD_DICT, SE_ATTACH: dictionary 0 or 1 */
    int fast_reset;    /* SE_RESET, SE_ATTACH: LZ4_resetStream(HC)_fast */
    int cap_delta;     /* capacity = LZ4_COMPRESSBOUND(size) + cap_delta (< 0: may fail) */
} stream_step;

typedef struct stream_plan {
    int hc;            /* an HC stream (param = level) or a fast one (param = acceleration) */
    int param;
    int mode;          /* enum stream_mode */
    size_t ring;       /* SM_RING_SYNC: the ring's size (>= 2 x the largest block) */
    const uint8_t *dict[2];
    size_t dict_len[2];
    size_t nsteps;
    stream_step step[STREAM_MAX_STEPS];
} stream_plan;

/* A compressed stream: blocks with the event before each, and the data
 * they decode to (the blocks a subject failed to compress are left out). */
typedef struct stream_blocks {
    size_t n;
    uint8_t *bytes;          /* the blocks, one after another */
    size_t bytes_cap;        /* room in bytes (init: every step's bound) */
    size_t *off, *clen;      /* each block: where in bytes, its size */
    size_t *dlen;            /* its decoded size */
    int *event, *dict;       /* the event before it and its dictionary */
    uint8_t *data;           /* the decoded stream, dlen[0] + ... bytes */
    size_t data_len;
} stream_blocks;

/* An empty stream with room for every step of p; one more block. */
void stream_blocks_init(stream_blocks *b, const stream_plan *p);
void stream_blocks_add(stream_blocks *b, const uint8_t *block, size_t clen, const uint8_t *data,
                       size_t dlen, int event, int dict);
void stream_blocks_free(stream_blocks *b);

/* A problem the driver saw: its class, at which block (-1: none). */
typedef struct stream_result {
    int block;
    enum fail_class cls;     /* FAIL_NONE, or fails_within_bound, return_above_capacity, ... */
    char msg[384];
} stream_result;

/* The calls of a pass that each take a buffer of their own (a block's
 * output in compression, its input in decoding, a copied dictionary) share
 * one guard buffer mapped at the largest size: each call's n bytes are its
 * last n, so one byte past them still faults (a mapping per call was half
 * of a small stream's time, issue 15). Returns where they start; the
 * buffer map names them `name`; under ASan the bytes before them are
 * poisoned (guard_poison_before). */
unsigned char *stream_guard_tail(const guard_buf *g, size_t n, const char *name);

/* A result: block (-1: none), class and message. */
stream_result stream_problem(int block, enum fail_class cls, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* Bring a plan in line with what the subject has: attach without its bit
 * becomes a load, a fast reset a full one, SM_SAVEDICT without saveDict
 * SM_PREFIX; step 0 gets an event. Returns 0 when the subject cannot
 * stream this kind at all. */
int stream_plan_fit(const struct lz4_subject *s, stream_plan *p);

size_t stream_plan_max_block(const stream_plan *p);

/* The subject compresses data (the concatenation of the steps' sizes) as
 * the plan says; *out gets the blocks it produced. Returns block -1, or the
 * first problem (the stream is then cut there). */
stream_result stream_subject_compress(const struct lz4_subject *s, const stream_plan *p,
                                      const uint8_t *data, stream_blocks *out);

/* ref compresses data as the plan says (its steps, events, dictionaries),
 * each block with the history a decoder in dmode keeps. */
void stream_ref_encode(const stream_plan *p, int dmode, const uint8_t *data,
                       stream_blocks *out);

/* ref decodes the logical stream (strict profile): block -1, or the first
 * block that does not decode to its data. */
stream_result stream_ref_decode(const stream_plan *p, const stream_blocks *b);

/* The subject decodes b in dmode (capacities: the decoded size plus
 * `slack` where the layout has room). corrupt_block >= 0: that block's byte
 * corrupt_at is XORed with corrupt_mask first, and the decode stops after
 * it: only memory safety, the return range and the untouched history are
 * checked then. Returns block -1, or the first problem. */
stream_result stream_subject_decode(const struct lz4_subject *s, const stream_plan *p,
                                    const stream_blocks *b, int dmode, size_t slack,
                                    int corrupt_block, size_t corrupt_at, uint8_t corrupt_mask);

#endif
