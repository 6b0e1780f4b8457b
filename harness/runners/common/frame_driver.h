/*
 * Driving a subject's streaming frame decoder (LZ4F_decompress contract,
 * subject.h) over a whole input, the way an application does: feed input
 * in chunks, offer output room in chunks, go on after the end of a frame
 * (concatenated frames), stop when the input is used up.
 *
 * Each call sees its input chunk at the very end of a guard-page buffer
 * and its output room likewise, so a read past the bytes offered or a
 * write past the room offered faults even without ASan.
 */
#ifndef LZ4GATE_FRAME_DRIVER_H
#define LZ4GATE_FRAME_DRIVER_H

#include <stddef.h>

#include "fail_class.h"
#include "subject.h"

enum frame_drive_outcome {
    FRAME_DRIVE_COMPLETE = 0,   /* input used up, at the end of a frame */
    FRAME_DRIVE_INCOMPLETE,     /* input used up inside a frame (hint > 0) */
    FRAME_DRIVE_ERROR,          /* the subject returned an error */
    FRAME_DRIVE_STALLED,        /* calls made no progress with input and room offered */
    FRAME_DRIVE_OUTPUT_FULL,    /* the subject produced more than out_cap */
    FRAME_DRIVE_CONTRACT,       /* *src_len or *dst_len grew beyond what was offered */
};

typedef struct frame_drive {
    enum frame_drive_outcome outcome;
    size_t consumed;         /* input bytes the subject took */
    size_t written;          /* output bytes it produced (copied to out) */
    long long error;         /* FRAME_DRIVE_ERROR: the subject's (negative) result */
    unsigned frames;         /* calls that returned 0 (frame ends) */
    unsigned long calls;
} frame_drive;

/* How input is offered, in_chunk bytes at a time (both ways applications
 * feed LZ4F_decompress):
 *   FRAME_FEED_SLIDE   every call gets the next in_chunk bytes after what
 *                      the decoder took (the rest moved up, topped up): one
 *                      copy of up to in_chunk bytes per call;
 *   FRAME_FEED_REFILL  a chunk of in_chunk bytes is read, the calls get what
 *                      is left of it until it is used up, then the next
 *                      chunk: one copy per chunk. With little output room
 *                      per call and large chunks, SLIDE's copies cost the
 *                      input size times the calls (issue 15: 53 s for a
 *                      1 MiB frame decoded 256 bytes per call). */
enum frame_feed { FRAME_FEED_SLIDE, FRAME_FEED_REFILL };

/* in_chunk / out_chunk: most bytes offered per call (0: all / out_cap).
 * dict: LZ4F_decompress_usingDict's dictionary, or NULL. Input offered
 * FRAME_FEED_SLIDE. */
frame_drive frame_drive_decode(const struct lz4_subject *s, void *dctx,
                               const unsigned char *src, size_t n, size_t in_chunk,
                               size_t out_chunk, const unsigned char *dict, size_t dict_len,
                               unsigned char *out, size_t out_cap);
/* The same, input offered as `feed` says. */
frame_drive frame_drive_decode_fed(const struct lz4_subject *s, void *dctx,
                                   const unsigned char *src, size_t n, size_t in_chunk,
                                   size_t out_chunk, const unsigned char *dict,
                                   size_t dict_len, unsigned char *out, size_t out_cap,
                                   enum frame_feed feed);

const char *frame_drive_outcome_name(enum frame_drive_outcome o);

/* The failure class of a decode that should have completed and ended
 * otherwise: an error is frame_error (a false reject), a stall stalled,
 * output beyond the room offered output_full, sizes reported beyond what
 * was offered size_beyond_offered ("contract"); FAIL_NONE for COMPLETE, and
 * for INCOMPLETE (a decoder waiting for more input: the caller says what
 * that means). */
enum fail_class frame_drive_outcome_class(enum frame_drive_outcome o);

/* One frame through the streaming compressor: Begin (with dict, or none),
 * Update in pieces of `chunk` bytes, End, on the given context. *frame is
 * malloc'd (the caller frees it, also on error). Returns the frame size or
 * the subject's negative result. */
long long frame_compress_chunked(const struct lz4_subject *s, void *cctx,
                                 const struct subject_frame_prefs *p,
                                 const unsigned char *dict, size_t dict_len,
                                 const unsigned char *data, size_t n, size_t chunk,
                                 unsigned char **frame);

/* Whether ref (strict profile) decodes frame[0..len), with the dictionary
 * dict (NULL: none), to exactly want[0..n): 1 if so; otherwise 0, and msg
 * says "WHAT: the L-byte frame does not decode to the N input bytes (ref:
 * STATUS, check CHECK, W bytes)". */
int frame_ref_decodes_to(const unsigned char *frame, size_t len, const unsigned char *want,
                         size_t n, const unsigned char *dict, size_t dict_len, const char *what,
                         char *msg, size_t cap);

#endif
