/* The files of the vector generator (vector_files.h). */
#define _DEFAULT_SOURCE
#include "vector_files.h"

#include <dirent.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "alloc.h"

static const char *outdir;

#define MAX_FILES 1024
static char *written_files[MAX_FILES];
static size_t nwritten;
static size_t total_bytes;

typedef struct dict_file {
    char name[64];
    uint8_t *data;
    size_t len;
} dict_file;

#define MAX_DICTS 64
static dict_file dicts[MAX_DICTS];
static size_t ndicts;

void die(const char *fmt, ...)
{
    va_list ap;
    fprintf(stderr, "make_vectors: ");
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fprintf(stderr, "\n");
    exit(1);
}

void files_open_dir(const char *dir)
{
    struct stat st;
    outdir = dir;
    if (stat(outdir, &st) != 0 && mkdir(outdir, 0777) != 0)
        die("cannot create %s: %s", outdir, strerror(errno));
}

const char *files_dir(void)
{
    return outdir;
}

void files_write(const char *name, const void *data, size_t n)
{
    char path[4096];
    FILE *f;
    if (nwritten == MAX_FILES)
        die("too many files");
    snprintf(path, sizeof path, "%s/%s", outdir, name);
    f = fopen(path, "wb");
    if (!f || (n && fwrite(data, 1, n, f) != n) || fclose(f) != 0)
        die("cannot write %s: %s", path, strerror(errno));
    written_files[nwritten++] = xmemdup(name, strlen(name) + 1);
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

void files_use_dict(const char *name, const uint8_t *data, size_t len)
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
    dicts[ndicts].data = xmemdup(data, len);
    dicts[ndicts].len = len;
    ndicts++;
    files_write(name, data, len);
}

void files_remove_stale(void)
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

size_t files_count(void)
{
    return nwritten;
}

size_t files_bytes(void)
{
    return total_bytes;
}
