/*
 * lz4ref, the command-line tool of the reference frame codec: what the
 * option parser (lz4ref.c) hands to the codec loops (lz4ref_codec.c).
 */
#ifndef LZ4REF_TOOL_H
#define LZ4REF_TOOL_H

#include <stdio.h>

#include "lz4frame_ref.h"

/* Exit statuses (documented in --help). */
#define EXIT_OK 0
#define EXIT_CORRUPT 1
#define EXIT_USAGE_IO 2

typedef struct tool_job {
    const char *in_name;     /* for messages: a path or "stdin" */
    FILE *in;
    FILE *out;               /* NULL for -t */
    int legacy;              /* -l */
    ref_frame_prefs prefs;   /* compression */
    int content_size_known;  /* input is a regular file of size content_size */
    unsigned long long content_size;
    ref_frame_options dopt;  /* decompression */
    int quiet;
    int verbose;
} tool_job;

/* Each returns an exit status and prints its own one-line message. */
int tool_compress(tool_job *job);
int tool_decompress(tool_job *job);

#endif
