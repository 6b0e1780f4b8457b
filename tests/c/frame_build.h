/*
 * frame_build.h: writing LZ4 frames byte by byte for the frame tests
 * (lz4_Frame_format.md), into the growable buffer of buf.h, and the
 * deterministic test data they compress.
 */
#ifndef LZ4GATE_FRAME_BUILD_H
#define LZ4GATE_FRAME_BUILD_H

#include <stddef.h>
#include <stdint.h>

#include "buf.h"

void put_byte(buf *b, unsigned v);
void put_le32(buf *b, uint32_t v);
void put_le64(buf *b, uint64_t v);

/* Frame header: magic, FLG, BD, the optional fields FLG asks for (content
 * size, Dict-ID), HC = second byte of xxh32 of the descriptor. */
void put_frame_header(buf *b, unsigned flg, unsigned bd, uint64_t csize, uint32_t dict_id);

/* A block: size field (high bit for stored data), data, optional checksum. */
void put_frame_block(buf *b, const void *data, size_t n, int stored, int checksum);

/* An LZ4 block (block format) decoding to 'a' x (1 + run) then "tail!"
 * (run + 6 bytes). */
void put_run_block(buf *b, size_t run);
/* put_run_block(b, 19): 1F 'a' 01 00 00, then 50 "tail!" (25 bytes of output). */
#define RUN19_BLOCK_LEN 11

/* A small valid frame: header (FLG flg, BD 0x40, content size csize when
 * FLG asks) + stored "hello" + LZ4 block "a" x 20 + "tail!" + EndMark
 * (+ content checksum): SMALL_CONTENT, SMALL_LEN bytes. */
#define SMALL_CONTENT "helloaaaaaaaaaaaaaaaaaaaatail!"
#define SMALL_LEN 30
void put_small_frame(buf *b, unsigned flg, uint64_t csize);

/* A legacy member: magic, then one chunk holding put_run_block(19)
 * (25 bytes of output). */
void put_legacy_member(buf *b);
#define LEGACY_MEMBER_LEN (8 + RUN19_BLOCK_LEN)

/* Test data: FILL_RANDOM (incompressible) or FILL_MIXED (runs of 120 zeros
 * between runs of random bytes); the random bytes are ref/prng.h's stream
 * of `seed`. */
enum fill_kind { FILL_RANDOM, FILL_MIXED };
void fill_data(uint8_t *p, size_t n, enum fill_kind kind, uint64_t seed);

#endif /* LZ4GATE_FRAME_BUILD_H */
