#define _DEFAULT_SOURCE
#include "guard.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#if defined(__has_feature)
#if __has_feature(address_sanitizer)
#define GUARD_ASAN 1
#endif
#endif
#if defined(__SANITIZE_ADDRESS__) && !defined(GUARD_ASAN)
#define GUARD_ASAN 1
#endif
#if defined(GUARD_ASAN)
#include <sanitizer/asan_interface.h>
#define GUARD_POISON(p, n) ASAN_POISON_MEMORY_REGION((p), (n))
#define GUARD_UNPOISON(p, n) ASAN_UNPOISON_MEMORY_REGION((p), (n))
#else
#define GUARD_POISON(p, n) ((void)(p), (void)(n))
#define GUARD_UNPOISON(p, n) ((void)(p), (void)(n))
#endif

static int buffer_map_on(void)
{
    static int on = -1;
    if (on < 0) {
        const char *v = getenv("LZ4GATE_BUFFER_MAP");
        on = v && *v == '1';
    }
    return on;
}

void guard_label(const guard_buf *b, const char *name)
{
    if (buffer_map_on())
        fprintf(stderr, "lz4gate-buffer %s %p %p\n", name, (void *)b->data,
                (void *)(b->data + b->size));
}

/* The mapping: a PROT_NONE page, the usable pages, a PROT_NONE page. The
 * usable bytes end where the trailing guard begins (one byte past the end
 * faults). The leading guard makes a read or write more than the usable
 * pages' slack before the start fault every time: without it what lies
 * there is whichever mapping the kernel placed before this one, and an
 * LZ4_decompress_fast offset beyond the output (ULZ4-2022-FASTBOUND tcId 1)
 * crashed in one run and read stale bytes in the next. */
static guard_buf guard_make(size_t size, int fill)
{
    guard_buf b;
    size_t page = (size_t)sysconf(_SC_PAGESIZE);
    size_t usable_pages = (size + page - 1) / page;
    unsigned char *usable;
    if (usable_pages == 0)
        usable_pages = 1;           /* a 0-byte buffer still has an address */
    b.map_len = (usable_pages + 2) * page;
    b.map = mmap(NULL, b.map_len, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (b.map == MAP_FAILED) {
        perror("guard_alloc: mmap");
        abort();
    }
    usable = (unsigned char *)b.map + page;
    if (mprotect(usable, usable_pages * page, PROT_READ | PROT_WRITE) != 0) {
        perror("guard_alloc: mprotect");
        abort();
    }
#ifdef MADV_POPULATE_WRITE
    /* One call instead of a page fault per page (the fill below, or the
     * caller's copy, touches every page anyway); a kernel without it (before 5.14) says EINVAL and
     * the pages fault in as before. */
    (void)madvise(usable, usable_pages * page, MADV_POPULATE_WRITE);
#endif
    b.data = usable + usable_pages * page - size;
    b.size = size;
    if (fill != 0)      /* a fresh anonymous mapping reads as zeros */
        memset(b.data, fill, size);
    return b;
}

guard_buf guard_alloc(size_t size, int fill)
{
    guard_buf b = guard_make(size, fill);
    guard_label(&b, "output");
    return b;
}

guard_buf guard_dup(const void *src, size_t size)
{
    guard_buf b = guard_make(size, 0);
    if (size)
        memcpy(b.data, src, size);
    guard_label(&b, "input");
    return b;
}

void guard_poison_before(const guard_buf *b, const unsigned char *p)
{
    GUARD_UNPOISON(b->data, b->size);
    GUARD_POISON(b->data, (size_t)(p - b->data));
}

void guard_free(guard_buf *b)
{
    if (b->map) {
        GUARD_UNPOISON(b->map, b->map_len);    /* a later mapping there starts clean */
        munmap(b->map, b->map_len);
    }
    b->map = NULL;
    b->data = NULL;
}

size_t guard_keep_window(guard_buf *live, size_t *live_size, size_t nlive, size_t window)
{
    size_t newer = 0, i = nlive, k;
    while (i > 0 && newer < window)
        newer += live_size[--i];
    for (k = 0; k < i; k++)
        guard_free(&live[k]);
    memmove(live, live + i, (nlive - i) * sizeof live[0]);
    memmove(live_size, live_size + i, (nlive - i) * sizeof live_size[0]);
    return nlive - i;
}
