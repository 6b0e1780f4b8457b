/*
 * oracle_record.c: a campaign's record of the oracle's findings.
 *
 * With LZ4GATE_FUZZ_RECORD=DIR (harness/fuzzing/campaign.py) a finding does
 * not stop the target: it is counted, and a sample of the inputs that gave
 * it is kept, so that a campaign runs until its time is up and reports
 * every distinct finding with a count and reproducers
 * (harness/fuzzing/findings.py reads DIR):
 *   DIR/ID.PID.SLOT.input, DIR/ID.PID.SLOT.msg   up to FZ_SAMPLE inputs per
 *       id and process, by reservoir sampling: a rare second bug with the
 *       same class@entry as a frequent one still gets sampled;
 *   DIR/counts.PID   "ID COUNT" lines, rewritten when an id is new, every
 *       FZ_COUNT_FLUSH hits and at exit.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "oracle.h"
#include "prng.h"

enum { FZ_SAMPLE = 8, FZ_MAX_IDS = 64, FZ_COUNT_FLUSH = 1024 };

static const uint8_t *current;
static size_t current_size;

unsigned long fz_memo_epoch;

void fz_input(const uint8_t *data, size_t size)
{
    fz_memo_epoch++;
    current = data;
    current_size = size;
}

static const char *record_dir(void)
{
    static const char *dir;
    static int looked;
    if (!looked) {
        dir = getenv("LZ4GATE_FUZZ_RECORD");
        if (dir && !*dir)
            dir = NULL;
        looked = 1;
    }
    return dir;
}

int fz_recording(void)
{
    return record_dir() != NULL;
}

int fz_stop_at_first(void)
{
    static int stop = -1;
    if (stop < 0) {
        const char *v = getenv("LZ4GATE_FUZZ_STOP");
        stop = v && *v == '1';
    }
    return stop;
}

static struct {
    char id[160];
    unsigned long long count;
} ids[FZ_MAX_IDS];
static int n_ids;

static void write_file(const char *path, const void *p, size_t n)
{
    FILE *f = fopen(path, "wb");
    if (!f)
        return;                  /* a lost sample is not worth stopping a campaign */
    if (n)
        fwrite(p, 1, n, f);
    fclose(f);
}

static void flush_counts(void)
{
    char path[4096], tmp[4200];
    FILE *f;
    int i;
    snprintf(path, sizeof path, "%s/counts.%ld", record_dir(), (long)getpid());
    snprintf(tmp, sizeof tmp, "%s.tmp", path);
    f = fopen(tmp, "w");
    if (!f)
        return;
    for (i = 0; i < n_ids; i++)
        fprintf(f, "%s %llu\n", ids[i].id, ids[i].count);
    fclose(f);
    rename(tmp, path);
}

/* Reservoir slot of the count-th hit (1-based), or -1 to keep no input:
 * the first FZ_SAMPLE hits fill the slots, hit c replaces one with
 * probability FZ_SAMPLE / c (deterministic, from ref/prng.h). */
static int sample_slot(unsigned long long count, int which)
{
    ref_prng r = { count * REF_PRNG_GAMMA ^ (uint64_t)which };
    size_t k;
    if (count <= FZ_SAMPLE)
        return (int)count - 1;
    k = (size_t)(ref_prng_next(&r) % count);
    return k < FZ_SAMPLE ? (int)k : -1;
}

void fz_record(const char *id, const char *message)
{
    char path[4096];
    int i, slot;
    for (i = 0; i < n_ids && strcmp(ids[i].id, id) != 0; i++)
        ;
    if (i == n_ids) {
        if (n_ids == FZ_MAX_IDS)
            i = FZ_MAX_IDS - 1;  /* more distinct ids than anyone reads: pool the rest */
        else {
            if (n_ids == 0)
                atexit(flush_counts);
            snprintf(ids[n_ids].id, sizeof ids[n_ids].id, "%s", id);
            n_ids++;
        }
    }
    ids[i].count++;
    slot = sample_slot(ids[i].count, i);
    if (slot >= 0 && current) {
        snprintf(path, sizeof path, "%s/%s.%ld.%d.input", record_dir(), ids[i].id,
                 (long)getpid(), slot);
        write_file(path, current, current_size);
        snprintf(path, sizeof path, "%s/%s.%ld.%d.msg", record_dir(), ids[i].id,
                 (long)getpid(), slot);
        write_file(path, message, strlen(message));
    }
    if (ids[i].count == 1 || ids[i].count % FZ_COUNT_FLUSH == 0)
        flush_counts();
}

/* fz_share (oracle.h): per name, how many executions took the path. */
enum { FZ_MAX_SHARES = 8 };
static struct {
    const char *what;
    unsigned long long hit, all;
} shares[FZ_MAX_SHARES];
static int n_shares;

static void print_shares(void)
{
    int i;
    for (i = 0; i < n_shares; i++)
        fprintf(stderr, "lz4gate-fuzz %s: share %s %llu of %llu\n", fz_target_name,
                shares[i].what, shares[i].hit, shares[i].all);
}

void fz_share(const char *what, int hit)
{
    int i;
    if (!fz_recording())
        return;
    for (i = 0; i < n_shares && strcmp(shares[i].what, what) != 0; i++)
        ;
    if (i == n_shares) {
        if (n_shares == FZ_MAX_SHARES)
            return;
        if (n_shares == 0)
            atexit(print_shares);
        shares[n_shares++].what = what;
    }
    shares[i].hit += hit != 0;
    shares[i].all++;
}
