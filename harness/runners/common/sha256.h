#ifndef LZ4GATE_SHA256_H
#define LZ4GATE_SHA256_H

#include <stddef.h>
#include <stdint.h>

/* hex: 64 lower-case hex digits and a NUL. */
void sha256_hex(const uint8_t *data, size_t n, char hex[65]);
/* 1 when the implementation gives the FIPS 180-4 "abc" digest. */
int sha256_self_test(void);

#endif
