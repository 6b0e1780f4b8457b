"""Partial LZ4 copies the tests make themselves (tests/test_partial_copies.py,
tests/test_cache.py): an upstream-layout tree whose lib/lz4.c holds only
some entry points, written here on lz4gate's reference codec (amalgamated
by harness/subjects/fixtures.py, as the synthetic fixtures are). No
upstream code: the names and signatures are the public API's.

    make_copy(top, decoder=True, compressor=False, header="elsewhere")

header="elsewhere": lib/lz4.c includes <testlz4/lz4.h>, which lives in
include/testlz4/ (as u-boot keeps include/u-boot/lz4.h): the copy builds
only as upstream:TOP/lib with --include ../include. header="beside":
lib/lz4.h (upstream:TOP).
"""
import os

from harness.subjects.fixtures import ref_amalgam

HEADER = """\
/* A partial LZ4 copy for lz4gate's tests (tests/partial_trees.py). */
#ifndef TESTLZ4_H
#define TESTLZ4_H
#ifdef TESTLZ4_PREFIX          /* a renaming macro, as projects use them */
#define LZ4_decompress_safe testlz4_LZ4_decompress_safe
#define LZ4_compress_default testlz4_LZ4_compress_default
#endif
#ifndef TESTLZ4_BOUND_MARGIN   /* a configuration macro: the bound's constant */
#define TESTLZ4_BOUND_MARGIN 16
#endif
/* Declared whether or not lib/lz4.c defines them (a whole lz4.h kept
 * beside a trimmed lz4.c): the copy has only what it defines. */
int LZ4_decompress_safe(const char *src, char *dst, int srcSize, int dstCapacity);
int LZ4_compressBound(int inputSize);
int LZ4_compress_default(const char *src, char *dst, int srcSize, int dstCapacity);
int LZ4_compress_HC(const char *src, char *dst, int srcSize, int dstCapacity, int level);
#endif
"""

DECODER = """
int LZ4_decompress_safe(const char *src, char *dst, int srcSize, int dstCapacity)
{
    ref_decode_params p;
    ref_decode_result r;
    if (!src || srcSize < 0 || dstCapacity < 0)
        return -1;
    memset(&p, 0, sizeof p);
    p.src = (const uint8_t *)src;
    p.src_len = (size_t)srcSize;
    p.dst = (uint8_t *)dst;
    p.dst_cap = (size_t)dstCapacity;
    p.profile = REF_PROFILE_STRICT;
    r = ref_decode(&p);
    if (r.status != REF_OK)
        return -(int)(r.consumed & 0x3FFFFFFF) - 1;
    return (int)r.written;
}
"""

COMPRESSOR = """
int LZ4_compressBound(int n)
{
    return n < 0 || n > 0x7E000000 ? 0 : n + n / 255 + TESTLZ4_BOUND_MARGIN;
}

int LZ4_compress_default(const char *src, char *dst, int srcSize, int dstCapacity)
{
    uint32_t table[REF_ENCODE_STATE_SIZE / 4];
    ref_encode_params p;
    ref_encode_result r;
    if (!src || srcSize < 0 || srcSize > 0x7E000000 || dstCapacity < 0)
        return 0;
    memset(&p, 0, sizeof p);
    p.src = (const uint8_t *)src;
    p.src_len = (size_t)srcSize;
    p.dst = (uint8_t *)dst;
    p.dst_cap = (size_t)dstCapacity;
    p.acceleration = 1;
    r = ref_encode(&p, table);
    return r.ok ? (int)r.written : 0;
}
"""


def write(path, text):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w") as f:
        f.write(text)


def make_copy(top, decoder=True, compressor=False, header="elsewhere", extra=""):
    """Write the copy under top; return top (a str). extra: C text appended
    to lib/lz4.c."""
    top = str(top)
    part = "all" if decoder and compressor else "decode" if decoder else "encode"
    include = "<testlz4/lz4.h>" if header == "elsewhere" else '"lz4.h"'
    write(os.path.join(top, "lib", "lz4.c"),
          "/* A partial LZ4 copy for lz4gate's tests (tests/partial_trees.py). */\n" +
          ref_amalgam(part) + "#include %s\n" % include +
          (DECODER if decoder else "") + (COMPRESSOR if compressor else "") + extra)
    write(os.path.join(top, *(("include", "testlz4") if header == "elsewhere" else ("lib",)),
                       "lz4.h"), HEADER)
    return top
