/*
 * fail_class.h: lz4gate's one table of failure classes.
 *
 * Every failure a C runner (contracts, vectors, regression tests) or a fuzz
 * target reports carries one of these codes, and its record or finding line
 * names it ("fail_class": "rejects_valid"; "FAIL [wrong_output@ENTRY]").
 * Python reads this very file (harness/evidence/classes.py): the verdict
 * takes a failure's kind from its class, never from the words of its
 * message. A crash's class comes from the sanitizer's own report type (the
 * rows of kind MEMORY named like ASan's, harness/evidence/failure.py).
 *
 * X(ID, "name", KIND, FAMILY, SEVERITY, "what it means")
 *   KIND     what the verdict policy does with a failure the base does not
 *            share (harness/findings/policy.py): MEMORY, CORRUPTION and
 *            FALSE_REJECT fail the gate; LATITUDE, CONVENTION, UNDEFINED,
 *            RESOURCES and HARNESS are listed as behaviour changes (WARN).
 *   FAMILY   failures of one family at the same place are one root cause,
 *            whatever class each report gave: at the same innermost
 *            functions of the subject's code for a crash (an out-of-bounds
 *            write is a SEGV at a guard page and a negative-size-param under
 *            ASan), at the same API entry point for a wrong result (an
 *            offset-0 leak is stale_output to one check, offset0_output to
 *            another). memory, leak (output from memory the call may not
 *            read), output (wrong results of valid input), encoder (blocks
 *            and frames that do not decode), bounds (sizes past a buffer),
 *            reject, latitude, convention, ub, resources, harness.
 *   SEVERITY the report's order: 0 out-of-bounds write, 1 read, 2 wrong
 *            output or information leak, 3 contract or API deviation,
 *            4 performance.
 * A name is never reused for another meaning: documented findings and
 * waivers match on it.
 */
#ifndef LZ4GATE_FAIL_CLASS_H
#define LZ4GATE_FAIL_CLASS_H

#define LZ4GATE_FAIL_CLASSES(X) \
    /* ---- memory safety: what a sanitizer reports (its report type), and \
     * what the runners' guard bytes and the oracle see themselves ---- */ \
    X(FAIL_OOB_READ, "OOB-READ", MEMORY, memory, 1, \
      "read outside a buffer (ASan's overflow reports, or a fault at a guard page)") \
    X(FAIL_OOB_WRITE, "OOB-WRITE", MEMORY, memory, 0, \
      "wrote outside a buffer (ASan's overflow reports, or a fault at a guard page)") \
    X(FAIL_NULL_READ, "NULL-READ", MEMORY, memory, 1, \
      "read through a NULL pointer (a fault below address 0x10000)") \
    X(FAIL_NULL_WRITE, "NULL-WRITE", MEMORY, memory, 0, \
      "wrote through a NULL pointer (a fault below address 0x10000)") \
    X(FAIL_SEGV, "SEGV", MEMORY, memory, 1, "a fault the report does not say more of") \
    X(FAIL_NEGATIVE_SIZE, "negative-size-param", MEMORY, memory, 0, \
      "a memory function given a negative (huge) size") \
    X(FAIL_USE_AFTER_FREE, "heap-use-after-free", MEMORY, memory, 1, "freed memory used") \
    X(FAIL_DOUBLE_FREE, "double-free", MEMORY, memory, 0, "memory freed twice") \
    X(FAIL_BAD_FREE, "bad-free", MEMORY, memory, 0, "a pointer freed that malloc never gave") \
    X(FAIL_ATTEMPTING, "attempting", MEMORY, memory, 0, \
      "ASan: attempting a double or invalid free") \
    X(FAIL_STACK_OVERFLOW, "stack-overflow", MEMORY, memory, 1, "the stack overflowed") \
    X(FAIL_OVERLAP, "memcpy-param-overlap", MEMORY, memory, 2, \
      "memcpy with overlapping arguments (undefined: wrong output)") \
    X(FAIL_ALLOC_MISMATCH, "alloc-dealloc-mismatch", MEMORY, memory, 1, \
      "freed with another allocator than the one that allocated") \
    X(FAIL_UNKNOWN_CRASH, "unknown-crash", MEMORY, memory, 1, "ASan: an unknown crash") \
    X(FAIL_CRASH, "crash", MEMORY, memory, 1, "killed by a signal, without a sanitizer report") \
    X(FAIL_FAILED, "failed", MEMORY, memory, 1, \
      "ended without a verdict, a signal or a sanitizer report") \
    X(FAIL_WRITES_PAST_CAPACITY, "writes_past_capacity", MEMORY, memory, 0, \
      "wrote past the capacity it was given (the runner's guard bytes changed)") \
    X(FAIL_WROTE_BEFORE_DST, "wrote_before_dst", MEMORY, memory, 0, \
      "wrote before the start of the destination") \
    X(FAIL_READS_BEFORE_HISTORY, "reads_before_history", MEMORY, memory, 1, \
      "accepted a match that reaches before the history it was given (the dictionary, or " \
      "the output's start) where no guard page catches it: its output holds bytes the call " \
      "may not read") \
    X(FAIL_NULL_STATE_REUSE, "null_state_reuse", MEMORY, memory, 1, \
      "a context whose allocation failed is used again") \
    X(FAIL_SAVE_DICT, "save_dict", MEMORY, memory, 0, \
      "saveDict wrote or reported more than the room it was given") \
    X(FAIL_OUTPUT_FULL, "output_full", MEMORY, memory, 0, \
      "a frame decoder produced more than the frame's content") \
    X(FAIL_SIZE_BEYOND_OFFERED, "contract", MEMORY, memory, 0, \
      "a frame call reported reading or writing more than it was offered (*srcSizePtr, " \
      "*dstSizePtr)") \
    /* ---- data corruption: wrong output for valid input, blocks that do \
     * not decode to their input, information leaks ---- */ \
    X(FAIL_WRONG_OUTPUT, "wrong_output", CORRUPTION, output, 2, \
      "a valid input decoded to other bytes") \
    X(FAIL_WRONG_LENGTH, "wrong_length", CORRUPTION, output, 2, \
      "a valid input decoded with another size reported than its content's") \
    X(FAIL_VALID_BLOCK, "valid_block", CORRUPTION, output, 2, \
      "a valid block made by ref not decoded exactly") \
    X(FAIL_STALE_OUTPUT, "stale_output", CORRUPTION, leak, 2, \
      "the output depends on the destination's previous content (an information leak)") \
    X(FAIL_ROUNDTRIP, "roundtrip", CORRUPTION, encoder, 2, \
      "a compressor's output does not decode to its input") \
    X(FAIL_CROSS_DECODE, "cross_decode", CORRUPTION, encoder, 2, \
      "the other subject decodes a block to other bytes") \
    X(FAIL_NONCONFORMANT_BLOCK, "nonconformant_block", CORRUPTION, encoder, 2, \
      "a compressor's block breaks a rule of the format") \
    X(FAIL_BAD_BLOCK, "bad_block", CORRUPTION, encoder, 2, \
      "a compressed block ref cannot decode") \
    X(FAIL_BAD_FRAME, "bad_frame", CORRUPTION, encoder, 2, \
      "a compressed frame ref cannot decode, or decodes to other bytes") \
    X(FAIL_BAD_STREAM, "bad_stream", CORRUPTION, encoder, 2, \
      "streamed blocks that do not decode to their input") \
    X(FAIL_BAD_BSID_FRAME, "invalid_block_size_id_frame", CORRUPTION, encoder, 2, \
      "a frame written with a block size id the format does not have") \
    X(FAIL_EARLY_FRAME_END, "early_frame_end", CORRUPTION, output, 2, \
      "a frame decoder reported a frame complete where none ends") \
    X(FAIL_WRONG_FRAME_INFO, "wrong_frame_info", CORRUPTION, output, 2, \
      "LZ4F_getFrameInfo reported a field other than the header's") \
    X(FAIL_RETURN_ABOVE_CAPACITY, "return_above_capacity", CORRUPTION, bounds, 2, \
      "returned a size above the capacity: callers read or copy that much") \
    X(FAIL_RETURN_ABOVE_TARGET, "return_above_target", CORRUPTION, bounds, 2, \
      "a partial decode returned more than its target and capacity allow") \
    /* ---- false rejects: refusing what the API must accept ---- */ \
    X(FAIL_REJECTS_VALID, "rejects_valid", FALSE_REJECT, reject, 3, \
      "a valid input rejected (ref's strict profile accepts it whole)") \
    X(FAIL_FAILS_WITHIN_BOUND, "fails_within_bound", FALSE_REJECT, reject, 3, \
      "a compressor failed with a capacity of at least its bound") \
    X(FAIL_COMPRESS_FAILS, "compress_fails", FALSE_REJECT, reject, 3, \
      "a compressor failed where it must succeed") \
    X(FAIL_BOUND_TOO_SMALL, "bound_too_small", FALSE_REJECT, reject, 3, \
      "a bound below what the compressor needs: callers' buffers are too small") \
    X(FAIL_FRAME_ERROR, "frame_error", FALSE_REJECT, reject, 3, \
      "a frame call returned an error on valid use") \
    X(FAIL_STREAM_ERROR, "stream_error", FALSE_REJECT, reject, 3, \
      "a streaming call failed on valid use") \
    X(FAIL_CREATE_FAILED, "create_failed", FALSE_REJECT, reject, 3, \
      "a context or state could not be created") \
    X(FAIL_STALLED, "stalled", FALSE_REJECT, reject, 3, \
      "a frame decoder stopped making progress on valid input") \
    /* ---- the format's latitude: invalid input, where the spec leaves the \
     * answer to the decoder ---- */ \
    X(FAIL_ACCEPTS_INVALID, "accepts_invalid", LATITUDE, latitude, 3, \
      "accepted invalid input with a result ref does not allow: ref compatible rejects " \
      "it, or ref strict rejects it and ref compatible decodes it to other bytes") \
    /* an offset-0 match decoded to other bytes than zeros, the same whatever \
     * the buffer held (a leak is stale_output): the format's latitude \
     * (issue 23, c-blosc's lz4 1.8.3 -> 1.9.1), one family with the leak it \
     * usually is (ULZ4-PARTIAL-OFFSET0) */ \
    X(FAIL_OFFSET0_OUTPUT, "offset0_output", LATITUDE, leak, 3, \
      "an offset-0 match accepted without writing zeros, the output the same whatever " \
      "the buffer held") \
    X(FAIL_MALFORMED_WRONG_OUTPUT, "malformed_wrong_output", LATITUDE, latitude, 3, \
      "a partial decode of a malformed block returned other bytes than those before its " \
      "defect") \
    /* ---- return conventions: how a result is reported ---- */ \
    X(FAIL_WRONG_RETURN, "wrong_return", CONVENTION, convention, 3, \
      "a return value the API's convention does not give (an error value, a size through " \
      "a pointer), the data being right") \
    X(FAIL_NEGATIVE_RETURN, "negative_return", CONVENTION, convention, 3, \
      "returned a negative value where the API says 0") \
    X(FAIL_BAD_CONSUMED, "bad_consumed", CONVENTION, convention, 3, \
      "reported consuming another amount of input than it read") \
    X(FAIL_DEST_SIZE_SHORT, "dest_size_short", CONVENTION, convention, 3, \
      "destSize consumed less input than the target allows") \
    X(FAIL_BOUND_DIFFERS, "bound_differs", CONVENTION, convention, 3, \
      "a bound other than the API's formula, not below what compression needs") \
    X(FAIL_NONDETERMINISTIC, "nondeterministic", CONVENTION, convention, 3, \
      "two identical calls gave different results") \
    /* ---- undefined behaviour without a memory error ---- */ \
    X(FAIL_UBSAN, "ubsan", UNDEFINED, ub, 3, "undefined behaviour (a UBSan report)") \
    /* ---- speed, size, resources ---- */ \
    X(FAIL_TIMEOUT, "timeout", RESOURCES, resources, 4, "no result within the time allowed") \
    X(FAIL_OUT_OF_MEMORY, "out-of-memory", RESOURCES, resources, 4, "ran out of memory") \
    X(FAIL_MEMORY_LEAK, "memory-leak", RESOURCES, resources, 4, "memory not freed") \
    X(FAIL_STALLED_INVALID, "stalled_invalid", RESOURCES, resources, 4, \
      "a frame decoder stopped making progress on invalid input (its caller loops)") \
    X(FAIL_TOO_MANY_ALLOCATIONS, "too_many_allocations", RESOURCES, resources, 4, \
      "more allocations than lz4gate's bound") \
    X(FAIL_FLAKY, "flaky", RESOURCES, resources, 4, \
      "a crash file whose replay does not fail") \
    /* ---- lz4gate could not complete the check ---- */ \
    X(FAIL_CHECK_INCOMPLETE, "check_incomplete", HARNESS, harness, 3, \
      "lz4gate could not complete the check (ref could not make its input, or the subject " \
      "lacks what it needs)") \
    X(FAIL_ORACLE_ERROR, "oracle_error", HARNESS, harness, 3, \
      "the fuzz oracle failed itself (lz4gate's defect, not the subject's)") \
    X(FAIL_NOT_TRIAGED, "not_triaged", HARNESS, harness, 3, \
      "crash files that could not be looked at")

enum fail_class {
    FAIL_NONE = 0,          /* no failure: the check passed */
#define LZ4GATE_FAIL_ENUM(id, name, kind, family, severity, what) id,
    LZ4GATE_FAIL_CLASSES(LZ4GATE_FAIL_ENUM)
#undef LZ4GATE_FAIL_ENUM
    FAIL_CLASS_COUNT
};

/* The class's name ("rejects_valid"); NULL for FAIL_NONE or a value out of
 * range. */
const char *fail_class_name(enum fail_class c);

/* The class of a name, FAIL_NONE for a name the table does not have. */
enum fail_class fail_class_named(const char *name);

/*
 * What a check returns: its failure class, FAIL_NONE when it passed. A
 * struct, not an int, so that a check or helper that returns a bare
 * 0 or 1 does not compile: every failure names its class.
 */
typedef struct check_result {
    enum fail_class cls;
} check_result;

#define CHECK_PASS ((check_result){ FAIL_NONE })
#define CHECK_FAIL(c) ((check_result){ (c) })

static inline int check_failed(check_result r)
{
    return r.cls != FAIL_NONE;
}

/* The first failure of two results (a when both failed). */
static inline check_result check_first(check_result a, check_result b)
{
    return check_failed(a) ? a : b;
}

/* Write the message (printf format) into msg[0..cap) and return cls. */
check_result check_fail(char *msg, unsigned cap, enum fail_class cls, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

#endif /* LZ4GATE_FAIL_CLASS_H */
