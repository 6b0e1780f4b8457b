/*
 * lz4ref: compress and decompress LZ4 frames (and legacy frames) with the
 * lz4gate reference codec, with options close to lz4(1) so the two can be
 * tested against each other (tests/test_lz4ref_cli.py). This file: options,
 * file names, exit statuses; lz4ref_codec.c does the work.
 */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "lz4ref_cli.h"

static const char help_text[] =
"NAME\n"
"    lz4ref - LZ4 frame compressor and decompressor built on the lz4gate\n"
"    reference codec\n"
"\n"
"SYNOPSIS\n"
"    lz4ref [-z] [OPTIONS] [INPUT [OUTPUT]]\n"
"    lz4ref -d [OPTIONS] [INPUT [OUTPUT]]\n"
"    lz4ref -t [OPTIONS] [INPUT]\n"
"\n"
"DESCRIPTION\n"
"    Compresses INPUT into one LZ4 frame (lz4_Frame_format.md) or, with -l,\n"
"    a legacy frame (the Linux kernel's format). With -d, decompresses any\n"
"    sequence of LZ4 frames, skippable frames and legacy frames, one after\n"
"    the other, checking every rule of the specification; on corrupt input\n"
"    one line names the check that failed and the byte offset.\n"
"\n"
"    INPUT missing or '-' is standard input. OUTPUT '-' is standard output.\n"
"    Without OUTPUT: standard output when INPUT is standard input or with -c;\n"
"    otherwise INPUT.lz4 when compressing, and INPUT without its .lz4 suffix\n"
"    when decompressing. An existing OUTPUT is never overwritten without -f.\n"
"    When decompression fails, an OUTPUT file it created is removed.\n"
"\n"
"OPTIONS\n"
"    -z, --compress    compress (the default)\n"
"    -d, --decompress  decompress\n"
"    -t, --test        decompress and discard the output: check the input\n"
"    -c, --stdout      write to standard output\n"
"    -f, --force       overwrite an existing OUTPUT\n"
"    -q, --quiet       no warnings\n"
"    -v, --verbose     a summary line after decompression\n"
"    -k                keep INPUT (always the case; accepted for lz4 compatibility)\n"
"    -h, -H, --help    this text\n"
"    -V, --version     version\n"
"\n"
"  Compression\n"
"    -l                legacy frame: 8 MiB chunks, no checksums (the B, content\n"
"                      size and checksum options do not apply)\n"
"    -B4 -B5 -B6 -B7   block maximum size 64 KiB, 256 KiB, 1 MiB, 4 MiB (default -B7)\n"
"    -BD               linked blocks: each may reference the previous 64 KiB\n"
"    -BI               independent blocks (default)\n"
"    -BX               block checksums\n"
"                      (letters combine: -B4DX)\n"
"    --content-size    write the content size (only when INPUT is a regular file,\n"
"                      like lz4 1.9.4; otherwise a warning and no size)\n"
"    --no-content-size do not write it (default)\n"
"    --no-frame-crc    no content checksum (default: written)\n"
"    --frame-crc       content checksum\n"
"    -D FILE           dictionary: the last 64 KiB of FILE precede the data\n"
"                      (decompression needs the same -D)\n"
"    --dict-id=N       write Dict-ID N in the frame header (with -D)\n"
"    -1 .. -12, --best accepted for lz4 compatibility: every level uses the\n"
"                      reference greedy encoder\n"
"    --fast[=N]        acceleration N (default 1): faster, larger output\n"
"\n"
"  Decompression\n"
"    --zero-padding    accept zero bytes where a frame may start and at the end\n"
"                      (4-byte zero words; grub pads concatenated initrds so,\n"
"                      the Linux kernel accepts it since 5.14); lz4 1.9.4 and\n"
"                      the default reject it\n"
"    --strict          strict profile: also reject LZ4 blocks that break the\n"
"                      end-of-block rules or have offset 0, and legacy chunks\n"
"                      below 8 MiB that are not the last\n"
"    -D FILE           the dictionary the frames were compressed with\n"
"\n"
"EXIT STATUS\n"
"    0   success\n"
"    1   corrupt input: a line \"corrupt input at byte N: CHECK (...)\" names the\n"
"        check (ref/frame_checks.h, ref/checks.h) and the input offset\n"
"    2   usage error, or an input/output error (unreadable input, OUTPUT\n"
"        exists without -f, write error, out of memory)\n"
"\n"
"DIFFERENCES FROM lz4 1.9.4\n"
"    Truncated skippable frames and bytes after the last frame are errors\n"
"    (lz4 accepts the first silently and reports the second with status 1).\n"
"    Compression levels do not change the output.\n"
"\n"
"SEE ALSO\n"
"    lz4(1); the LZ4 frame and block format specifications.\n";

typedef struct cli {
    int mode;            /* 'z', 'd', 't' */
    int to_stdout, force;
    const char *dict_file;
    const char *args[2];
    int nargs;
    tool_job job;
} cli;

static int usage(const char *fmt, const char *what)
{
    fputs("lz4ref: ", stderr);
    fprintf(stderr, fmt, what);
    fputs(" (see lz4ref --help)\n", stderr);
    return EXIT_USAGE_IO;
}

static int parse_block_spec(cli *c, const char *spec, const char *arg)
{
    if (!*spec)
        return usage("option %s: -B needs 4..7, D, I or X", arg);
    for (; *spec; spec++) {
        if (*spec >= '4' && *spec <= '7')
            c->job.prefs.block_max = *spec - '0';
        else if (*spec == 'D')
            c->job.prefs.linked_blocks = 1;
        else if (*spec == 'I')
            c->job.prefs.linked_blocks = 0;
        else if (*spec == 'X')
            c->job.prefs.block_checksum = 1;
        else
            return usage("unsupported block option %s (only -B4..-B7, -BD, -BI, -BX)", arg);
    }
    return EXIT_OK;
}

static int parse_number(const char *s, unsigned long *v)
{
    char *end;
    errno = 0;
    *v = strtoul(s, &end, 10);
    return *s && !*end && errno == 0 && *v <= 0xFFFFFFFFul;
}

static int parse_long(cli *c, const char *a)
{
    unsigned long v;
    if (!strcmp(a, "--compress")) c->mode = 'z';
    else if (!strcmp(a, "--decompress")) c->mode = 'd';
    else if (!strcmp(a, "--test")) c->mode = 't';
    else if (!strcmp(a, "--stdout")) c->to_stdout = 1;
    else if (!strcmp(a, "--force")) c->force = 1;
    else if (!strcmp(a, "--quiet")) c->job.quiet = 1;
    else if (!strcmp(a, "--verbose")) c->job.verbose = 1;
    else if (!strcmp(a, "--content-size")) c->job.prefs.content_size = 1;
    else if (!strcmp(a, "--no-content-size")) c->job.prefs.content_size = 0;
    else if (!strcmp(a, "--no-frame-crc")) c->job.prefs.content_checksum = 0;
    else if (!strcmp(a, "--frame-crc")) c->job.prefs.content_checksum = 1;
    else if (!strcmp(a, "--zero-padding")) c->job.dopt.zero_padding = 1;
    else if (!strcmp(a, "--strict")) c->job.dopt.profile = REF_PROFILE_STRICT;
    else if (!strcmp(a, "--best")) c->job.prefs.acceleration = 1;
    else if (!strcmp(a, "--fast")) c->job.prefs.acceleration = 1;
    else if (!strncmp(a, "--fast=", 7)) {
        if (!parse_number(a + 7, &v) || v < 1 || v > 65537)
            return usage("bad acceleration in %s (1..65537)", a);
        c->job.prefs.acceleration = (int)v;
    } else if (!strncmp(a, "--dict-id=", 10)) {
        if (!parse_number(a + 10, &v))
            return usage("bad dictionary id in %s (0..4294967295)", a);
        c->job.prefs.dict_id_present = 1;
        c->job.prefs.dict_id = (uint32_t)v;
    } else if (!strcmp(a, "--help")) {
        fputs(help_text, stdout);
        exit(EXIT_OK);
    } else if (!strcmp(a, "--version")) {
        puts("lz4ref (lz4gate reference LZ4 frame codec) 1.0");
        exit(EXIT_OK);
    } else
        return usage("unknown option %s", a);
    return EXIT_OK;
}

/* Short options, combinable as in lz4 (-dc, -9f, -B4DX). */
static int parse_short(cli *c, int argc, char **argv, int *i)
{
    const char *a = argv[*i], *p;
    for (p = a + 1; *p; p++) {
        switch (*p) {
        case 'z': case 'd': case 't': c->mode = *p; break;
        case 'c': c->to_stdout = 1; break;
        case 'f': c->force = 1; break;
        case 'q': c->job.quiet = 1; break;
        case 'v': c->job.verbose = 1; break;
        case 'k': break;
        case 'l': c->job.legacy = 1; break;
        case 'h': case 'H': fputs(help_text, stdout); exit(EXIT_OK);
        case 'V': puts("lz4ref (lz4gate reference LZ4 frame codec) 1.0"); exit(EXIT_OK);
        case 'B': return parse_block_spec(c, p + 1, a);
        case 'D':
            if (p[1])
                c->dict_file = p + 1;
            else if (*i + 1 < argc)
                c->dict_file = argv[++*i];
            else
                return usage("option %s needs a FILE", a);
            return EXIT_OK;
        default:
            if (*p >= '0' && *p <= '9') {
                int level = 0;
                while (*p >= '0' && *p <= '9')
                    level = level * 10 + (*p++ - '0');
                if (level < 1 || level > 12)
                    return usage("compression level %s out of range (1..12)", a);
                p--;
                break;
            }
            return usage("unknown option %s", a);
        }
    }
    return EXIT_OK;
}

static int parse(cli *c, int argc, char **argv)
{
    int i, rc, options_done = 0;
    for (i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (!options_done && !strcmp(a, "--")) {
            options_done = 1;
            continue;
        }
        if (!options_done && a[0] == '-' && a[1] == '-')
            rc = parse_long(c, a);
        else if (!options_done && a[0] == '-' && a[1])
            rc = parse_short(c, argc, argv, &i);
        else if (c->nargs < 2) {
            c->args[c->nargs++] = a;
            rc = EXIT_OK;
        } else
            rc = usage("too many file names (%s): give INPUT [OUTPUT]", a);
        if (rc != EXIT_OK)
            return rc;
    }
    if (c->mode == 't' && c->nargs > 1)
        return usage("-t takes no OUTPUT (%s)", c->args[1]);
    return EXIT_OK;
}

/* Whole file into memory (dictionaries). */
static uint8_t *read_file(const char *name, size_t *n)
{
    FILE *f = fopen(name, "rb");
    uint8_t *buf = NULL;
    size_t cap = 0;
    *n = 0;
    if (!f)
        return NULL;
    for (;;) {
        size_t r;
        if (*n == cap) {
            uint8_t *nb = realloc(buf, cap ? cap * 2 : 65536);
            if (!nb)
                break;
            buf = nb;
            cap = cap ? cap * 2 : 65536;
        }
        r = fread(buf + *n, 1, cap - *n, f);
        if (r == 0)
            break;
        *n += r;
    }
    if (ferror(f) || !buf) {
        free(buf);
        buf = NULL;
    }
    fclose(f);
    return buf;
}

/* The output name when none is given, or NULL for standard output. */
static char *derive_output(const cli *c, int *err)
{
    const char *in = c->args[0];
    size_t n = strlen(in);
    char *out;
    *err = 0;
    if (c->mode == 'd') {
        if (n <= 4 || strcmp(in + n - 4, ".lz4") != 0) {
            *err = usage("cannot name the output of %s (no .lz4 suffix): give OUTPUT or -c", in);
            return NULL;
        }
        out = malloc(n - 3);
        memcpy(out, in, n - 4);
        out[n - 4] = 0;
        return out;
    }
    out = malloc(n + 5);
    memcpy(out, in, n);
    memcpy(out + n, ".lz4", 5);
    return out;
}

int main(int argc, char **argv)
{
    cli c;
    char *out_name = NULL, *derived = NULL;
    uint8_t *dict = NULL;
    int rc, created = 0;

    memset(&c, 0, sizeof c);
    c.mode = 'z';
    ref_frame_prefs_default(&c.job.prefs);
    ref_frame_options_default(&c.job.dopt);
    rc = parse(&c, argc, argv);
    if (rc != EXIT_OK)
        return rc;

    if (c.dict_file) {
        size_t n;
        dict = read_file(c.dict_file, &n);
        if (!dict) {
            fprintf(stderr, "lz4ref: %s: cannot read dictionary: %s\n", c.dict_file, strerror(errno));
            return EXIT_USAGE_IO;
        }
        c.job.prefs.dict = c.job.dopt.dict = dict;
        c.job.prefs.dict_len = c.job.dopt.dict_len = n;
    } else if (c.job.prefs.dict_id_present) {
        return usage("%s needs a dictionary (-D FILE)", "--dict-id");
    }

    /* Input. */
    if (c.nargs == 0 || !strcmp(c.args[0], "-")) {
        c.job.in_name = "stdin";
        c.job.in = stdin;
    } else {
        struct stat st;
        c.job.in_name = c.args[0];
        c.job.in = fopen(c.args[0], "rb");
        if (!c.job.in) {
            fprintf(stderr, "lz4ref: %s: %s\n", c.args[0], strerror(errno));
            free(dict);
            return EXIT_USAGE_IO;
        }
        if (fstat(fileno(c.job.in), &st) == 0 && S_ISREG(st.st_mode)) {
            c.job.content_size_known = 1;
            c.job.content_size = (unsigned long long)st.st_size;
        }
    }

    /* Output. */
    if (c.mode != 't') {
        if (c.nargs == 2)
            out_name = strcmp(c.args[1], "-") ? (char *)c.args[1] : NULL;
        else if (!c.to_stdout && c.job.in != stdin) {
            derived = derive_output(&c, &rc);
            if (rc != EXIT_OK) {
                free(dict);
                return rc;
            }
            out_name = derived;
        }
        if (out_name) {
            if (!c.force && access(out_name, F_OK) == 0) {
                fprintf(stderr, "lz4ref: %s: already exists; use -f to overwrite\n", out_name);
                free(derived);
                free(dict);
                return EXIT_USAGE_IO;
            }
            c.job.out = fopen(out_name, "wb");
            if (!c.job.out) {
                fprintf(stderr, "lz4ref: %s: %s\n", out_name, strerror(errno));
                free(derived);
                free(dict);
                return EXIT_USAGE_IO;
            }
            created = 1;
        } else {
            if (c.mode == 'z' && !c.to_stdout && isatty(STDOUT_FILENO)) {
                free(dict);
                return usage("%s: refusing to write compressed data to a terminal (use -c)",
                             "stdout");
            }
            c.job.out = stdout;
        }
    }

    rc = c.mode == 'z' ? tool_compress(&c.job) : tool_decompress(&c.job);
    if (c.job.out && fclose(c.job.out) != 0 && rc == EXIT_OK) {
        fprintf(stderr, "lz4ref: %s: write error\n", out_name ? out_name : "stdout");
        rc = EXIT_USAGE_IO;
    }
    if (rc != EXIT_OK && created)
        remove(out_name);
    if (c.job.in != stdin)
        fclose(c.job.in);
    free(derived);
    free(dict);
    return rc;
}
