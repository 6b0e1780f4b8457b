/*
 * frame_input.h: the frame decoder's error cases as data. A case is a
 * recipe for its input (up to 6 parts, then at most one edit: a cut or a
 * flipped bit), the decoding options, and what the decoder must report.
 * The rows are in frame_error_cases.c; test_frame_errors.c runs them.
 */
#ifndef LZ4GATE_FRAME_INPUT_H
#define LZ4GATE_FRAME_INPUT_H

#include <stddef.h>
#include <stdint.h>

#include "buf.h"
#include "lz4frame_ref.h"

enum frame_part_kind {
    PART_END = 0,
    PART_SMALL_FRAME,   /* put_small_frame(FLG a, content size b) */
    PART_HEADER,        /* put_frame_header(FLG a, BD b, content size c, Dict-ID d) */
    PART_LE32,          /* a, 4 bytes little endian */
    PART_BYTES,         /* bytes[0..n) */
    PART_STORED_ZEROS,  /* a stored block of a zero bytes, with its checksum when b */
    PART_RUN_BLOCK,     /* a compressed block holding put_run_block(a) */
    PART_RUN_DATA,      /* put_run_block(a) without a size field, cut to b bytes if b */
    PART_RUN_CHUNK,     /* a legacy chunk: size field, then put_run_block(a) */
    PART_LEGACY_MEMBER, /* put_legacy_member */
    PART_SKIPPABLES,    /* 16 skippable frames, magic 0x184D2A5m with m bytes of data */
};

typedef struct frame_part {
    enum frame_part_kind kind;
    uint64_t a, b, c, d;
    const char *bytes;
    size_t n;
} frame_part;

#define SMALL(flg, csize) { PART_SMALL_FRAME, flg, csize, 0, 0, NULL, 0 }
#define HEADER(flg, bd, csize, dict_id) { PART_HEADER, flg, bd, csize, dict_id, NULL, 0 }
#define LE32(v) { PART_LE32, v, 0, 0, 0, NULL, 0 }
#define RAW(s) { PART_BYTES, 0, 0, 0, 0, s, sizeof(s) - 1 }
#define STORED_ZEROS(n, checksum) { PART_STORED_ZEROS, n, checksum, 0, 0, NULL, 0 }
#define RUN_BLOCK(run) { PART_RUN_BLOCK, run, 0, 0, 0, NULL, 0 }
#define RUN_DATA(run, cut) { PART_RUN_DATA, run, cut, 0, 0, NULL, 0 }
#define RUN_CHUNK(run) { PART_RUN_CHUNK, run, 0, 0, 0, NULL, 0 }
#define LEGACY_MEMBER { PART_LEGACY_MEMBER, 0, 0, 0, 0, NULL, 0 }
#define SKIPPABLES { PART_SKIPPABLES, 0, 0, 0, 0, NULL, 0 }

enum frame_edit_kind { EDIT_NONE = 0, EDIT_CUT_TO, EDIT_CUT, EDIT_XOR_AT, EDIT_XOR_FROM_END };

typedef struct frame_edit {
    enum frame_edit_kind kind;
    size_t at;
    unsigned mask;
} frame_edit;

#define CUT_TO(n) { EDIT_CUT_TO, n, 0 }               /* keep the first n bytes */
#define CUT(k) { EDIT_CUT, k, 0 }                     /* drop the last k bytes */
#define XOR_AT(i, m) { EDIT_XOR_AT, i, m }            /* byte i ^= m */
#define XOR_FROM_END(k, m) { EDIT_XOR_FROM_END, k, m } /* byte n - k ^= m */

/* The input offset the decoder reports: at an absolute position, k bytes
 * before the end of the (edited) input, or not checked. */
enum frame_offset_kind { OFFSET_AT, OFFSET_FROM_END, OFFSET_UNCHECKED };
typedef struct frame_offset {
    enum frame_offset_kind kind;
    size_t value;
} frame_offset;
#define AT(x) { OFFSET_AT, x }
#define FROM_END(k) { OFFSET_FROM_END, k }
#define UNCHECKED { OFFSET_UNCHECKED, 0 }

#define NO_CHECK (-1)
enum { OPT_STRICT = 1, OPT_ZERO_PADDING = 2 };   /* else the default options */
enum { SPLIT_EVERY = 1, SPLIT_RANDOM = 2 };

typedef struct frame_error_case {
    const char *what;
    frame_part parts[6];
    frame_edit edit;
    unsigned options;           /* OPT_* */
    ref_frame_status status;
    int check;                  /* REF_CHECK_* (frame_checks.h, checks.h) or NO_CHECK */
    ref_status block_status;    /* status REF_FRAME_ERR_BLOCK: the block's error */
    frame_offset offset;
    size_t written;
    size_t max_out;             /* 0: 128 KiB */
    int splits;                 /* SPLIT_EVERY for small inputs, else SPLIT_RANDOM */
} frame_error_case;

/* A row that decodes: no check fires, the whole input is consumed. */
#define DECODES(n) .status = REF_FRAME_OK, .check = NO_CHECK, .offset = FROM_END(0), .written = n
/* A row that fails with status and check at offset. */
#define FAILS(st, chk, off) .status = st, .check = chk, .offset = off

extern const frame_error_case frame_error_cases[];
extern const size_t frame_error_case_count;

/* The input of a case, appended to `in`. */
void frame_input_build(const frame_error_case *fc, buf *in);
/* The offset the case expects for its input `in`, or -1 when unchecked. */
long long frame_input_offset(const frame_error_case *fc, const buf *in);
/* CHECKs that the recipe parts have the sizes the rows assume
 * (RUN19_BLOCK_LEN, LEGACY_MEMBER_LEN). */
void frame_input_self_test(void);

#endif /* LZ4GATE_FRAME_INPUT_H */
