/*
 * project_adapter.h: what an adapter for a project:DIR subject needs (an
 * LZ4 copy behind its project's own API; docs/subjects.md, "Project APIs").
 *
 * The adapter is one C file the user writes. It declares the project's
 * functions (from their public signatures), wraps each in a function with
 * the signature of a slot of struct lz4_subject (subject.h), and names the
 * slots with PROJECT_SUBJECT:
 *
 *     #include "project_adapter.h"
 *
 *     int my_unpack(const void *src, size_t n, void *dst, size_t *dst_len);
 *
 *     static int unpack_safe(const char *src, char *dst, int n, int cap)
 *     {
 *         size_t len = (size_t)cap;
 *         return my_unpack(src, (size_t)n, dst, &len) == 0 ? (int)len : -1;
 *     }
 *
 *     PROJECT_SUBJECT(.decompress_safe = unpack_safe)
 *
 * The recipe (harness/subjects/recipes/project.py) compiles it with
 * lz4gate's warnings (-std=gnu11 -Wall -Wextra -Werror) and
 * -I harness/subjects/adapters, so `#include "project_adapter.h"` is all it
 * includes of lz4gate; the copy's folder (and its include/) is on the path
 * too, should the adapter want the project's own header.
 *
 * The rules of subject.h hold: a slot calls the project's function with the
 * caller's arguments and adds no checks and no clamping, so a bug of the
 * copy reaches the verdict unchanged. What a project API makes necessary is
 * allowed, and nothing else:
 *   - converting arguments and results between the slot's convention and
 *     the project's (sizes pass as C converts them at the call: an int to a
 *     size_t parameter, a negative one becoming huge, is what a caller's
 *     bug would hand the project; 0/1 results become the slot's -1 or size);
 *   - framing the project's format adds (a length prefix before the block:
 *     copy the block behind the prefix in a project_buf, whose end is a
 *     guard page as the runners' own buffers are);
 *   - declaring what the API cannot tell, in .flags: the decoded size
 *     (SUBJECT_DECODE_SIZE_UNREPORTED) or streaming (SUBJECT_FRAME_ONE_SHOT).
 * Examples: docs/examples/adapter_bootloader.c, docs/examples/adapter_fs.c.
 */
#ifndef LZ4GATE_PROJECT_ADAPTER_H
#define LZ4GATE_PROJECT_ADAPTER_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "subject.h"

#ifndef SUBJECT_NAME      /* the recipe defines it: the subject's SPEC */
#define SUBJECT_NAME "project"
#endif
/* The API generation whose conventions apply where contracts differ
 * (subject.h); a project copy is judged as upstream lz4 unless the adapter
 * defines PROJECT_GENERATION before including this header. */
#ifndef PROJECT_GENERATION
#define PROJECT_GENERATION GEN_UPSTREAM
#endif

/* The capability bits of the slots an adapter filled. */
static inline subject_caps project_caps(const struct lz4_subject *t)
{
    return (t->compress_hc_dest_size ? CAP_COMPRESS_HC_DEST_SIZE : 0u) |
           (t->decompress_fast_using_dict ? CAP_DECOMPRESS_FAST_USING_DICT : 0u) |
           (t->compress_bound ? CAP_COMPRESS_BOUND : 0u) |
           (t->decompress_safe ? CAP_DECOMPRESS_SAFE : 0u) |
           (t->decompress_safe_partial ? CAP_DECOMPRESS_PARTIAL : 0u) |
           (t->decompress_fast ? CAP_DECOMPRESS_FAST : 0u) |
           (t->decompress_safe_using_dict ? CAP_DECOMPRESS_USING_DICT : 0u) |
           (t->compress_default ? CAP_COMPRESS_DEFAULT : 0u) |
           (t->compress_fast ? CAP_COMPRESS_FAST : 0u) |
           (t->compress_dest_size ? CAP_COMPRESS_DEST_SIZE : 0u) |
           (t->compress_hc ? CAP_COMPRESS_HC : 0u) |
           (t->compress_using_dict ? CAP_COMPRESS_USING_DICT : 0u) |
           (t->frame_dctx_create && t->frame_decompress ? CAP_FRAME_DECOMPRESS : 0u) |
           (t->frame_dctx_reset ? CAP_FRAME_RESET : 0u) |
           (t->frame_compress && t->frame_compress_bound ? CAP_FRAME_COMPRESS : 0u);
}

/* The subject's entry point, lz4gate_subject(), from designated
 * initializers of struct lz4_subject's slots (and .flags); caps follow from
 * the slots filled. PROJECT_SUBJECT_INIT first calls init() once (a
 * project's set-up call, e.g. creating its work-memory cache). */
#define PROJECT_SUBJECT_INIT(init, ...)                                         \
    const struct lz4_subject *lz4gate_subject(void)                             \
    {                                                                           \
        static struct lz4_subject s = { .name = SUBJECT_NAME,                   \
                                        .generation = PROJECT_GENERATION,       \
                                        __VA_ARGS__ };                          \
        static int ready;                                                       \
        if (!ready) {                                                           \
            init();                                                             \
            s.caps |= project_caps(&s);                                         \
            ready = 1;                                                          \
        }                                                                       \
        return &s;                                                              \
    }
static inline void project_no_init(void) {}
#define PROJECT_SUBJECT(...) PROJECT_SUBJECT_INIT(project_no_init, __VA_ARGS__)

/* ---- byte order of a project's own framing ------------------------------ */

static inline void project_put_be32(unsigned char *p, uint32_t v)
{
    p[0] = (unsigned char)(v >> 24);
    p[1] = (unsigned char)(v >> 16);
    p[2] = (unsigned char)(v >> 8);
    p[3] = (unsigned char)v;
}

static inline uint32_t project_get_be32(const unsigned char *p)
{
    return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}

/* ---- buffers that end at a guard page ------------------------------------ */

/* n bytes at data, followed by an inaccessible page: a read or write past
 * them faults in every configuration, as past the runners' buffers (ASan
 * does not see into mmap'd memory). align 1: the page follows the n bytes
 * directly; a larger power of two places data at a multiple of it, as a
 * project's own buffers are (one that stores words at their start), with
 * fewer than align bytes between the n bytes and the page. data is NULL
 * when the mapping fails. */
typedef struct project_buf {
    unsigned char *data;
    void *map;
    size_t map_len;
} project_buf;

static inline project_buf project_buf_alloc(size_t n, size_t align)
{
    project_buf b = { NULL, NULL, 0 };
    size_t page = (size_t)sysconf(_SC_PAGESIZE);
    size_t body = (n + page - 1) / page * page;
    void *m;
    if (body < n || body + page < body || align == 0 || align > page || (align & (align - 1)))
        return b;
    m = mmap(NULL, body + page, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (m == MAP_FAILED)
        return b;
    if (mprotect((unsigned char *)m + body, page, PROT_NONE) != 0) {
        munmap(m, body + page);
        return b;
    }
    b.map = m;
    b.map_len = body + page;
    b.data = (unsigned char *)m + (body - n) / align * align;
    return b;
}

static inline void project_buf_free(project_buf *b)
{
    if (b->map)
        munmap(b->map, b->map_len);
    b->data = NULL;
    b->map = NULL;
}

/* ---- a one-shot frame decoder behind the streaming slot ------------------ */

/* A project's "decode this frame" call has no context: these fill
 * frame_dctx_create / frame_dctx_free with a token (SUBJECT_FRAME_ONE_SHOT
 * makes every call a whole frame). Its errors are LZ4F's
 * ERROR_GENERIC (-1 in the slot's convention). */
static inline void *project_oneshot_dctx_create(void)
{
    static int token;
    return &token;
}

static inline void project_oneshot_dctx_free(void *dctx)
{
    (void)dctx;
}

static inline const char *project_oneshot_error_name(long long result)
{
    return result < 0 ? "the project's decoder failed" : "no error";
}

#endif /* LZ4GATE_PROJECT_ADAPTER_H */
