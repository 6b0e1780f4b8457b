/*
 * Guard-page buffers: size bytes that end exactly where an inaccessible
 * page begins, so one byte read or written past the end faults even in a
 * build without ASan (docs/fix-history.md: KLZ4-2022-49078 reads 2 bytes past the
 * input; KLZ4-GAP-17543 writes past the output).
 */
#ifndef LZ4GATE_GUARD_H
#define LZ4GATE_GUARD_H

#include <stddef.h>

typedef struct guard_buf {
    unsigned char *data;   /* size usable bytes, followed by a PROT_NONE page;
                              the usable pages are preceded by another */
    size_t size;
    void *map;             /* the whole mapping, for guard_free */
    size_t map_len;
} guard_buf;

/* Allocate; fill the usable bytes with `fill`. Aborts on mmap failure.
 * Named "output" in the buffer map (guard_label renames). */
guard_buf guard_alloc(size_t size, int fill);
/* Same, with the usable bytes copied from src; named "input". */
guard_buf guard_dup(const void *src, size_t size);
void guard_free(guard_buf *b);
/* Under ASan: the bytes of b before p poisoned, p to the end not; for a
 * buffer carved at the end of b (a read or write before it is reported, to
 * ASan's 8-byte granule). A no-op in other builds. */
void guard_poison_before(const guard_buf *b, const unsigned char *p);

/* A stream's separate buffers, oldest first (live[i] holds live_size[i]
 * bytes of history): frees those that `window` bytes of newer data follow
 * (a block refers back at most that far), moves the rest to the front and
 * returns how many are left. */
size_t guard_keep_window(guard_buf *live, size_t *live_size, size_t nlive, size_t window);

/*
 * The buffer map: with LZ4GATE_BUFFER_MAP=1 in the environment (the runners
 * set it, the fuzz targets do not), every guard buffer is announced on
 * stderr as "lz4gate-buffer NAME 0xSTART 0xEND" (END: one past the last
 * usable byte, where the guard page begins), so a fault can be told as
 * "N bytes past the end of the input" (harness/report/groups.py). A later
 * line for the same range renames it.
 */
void guard_label(const guard_buf *b, const char *name);

#endif
