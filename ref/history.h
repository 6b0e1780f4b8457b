/*
 * A sliding history window: the last `cap` bytes of everything appended.
 * Streams and linked frames keep the last 64 KiB as their dictionary (spec,
 * block format: "Offset ... up to 65535"). Used by ref's frame encoder and
 * by lz4gate's streaming adapter on ref.
 */
#ifndef LZ4REF_HISTORY_H
#define LZ4REF_HISTORY_H

#include <stdint.h>
#include <string.h>

static inline void ref_history_append(uint8_t *buf, size_t *len, size_t cap,
                                      const uint8_t *p, size_t n)
{
    if (n >= cap) {
        memcpy(buf, p + n - cap, cap);
        *len = cap;
        return;
    }
    if (*len + n > cap) {
        size_t drop = *len + n - cap;
        memmove(buf, buf + drop, *len - drop);
        *len -= drop;
    }
    memcpy(buf + *len, p, n);
    *len += n;
}

#endif
