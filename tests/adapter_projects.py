"""Project-API "copies" that tests/test_adapter.py writes for itself: lz4gate's
reference codec (ref/, copied into the project's folder) behind the APIs of
the two adapter examples of docs/subjects.md, written here from their public
signatures:

  fs    size_t lz4_compress_zfs(void *, void *, size_t s_len, size_t d_len, int);
        int lz4_decompress_zfs(void *, void *, size_t s_len, size_t d_len, int);
        void lz4_init(void);
        (a 4-byte big-endian block length, then the block; 0/1 results)
  boot  int ulz4fn(const void *src, size_t srcn, void *dst, size_t *dstn);
        (decodes LZ4 frames; *dstn in: room, out: bytes decoded)

A planted bug switches one of ref's named checks off in the copy
(ref/mutant.h, as ref-mutant:CHECK does), or plants one in the project's
own wrapper.
"""
import os
import shutil

from conftest import TOP

OUT = os.path.join(TOP, "build", "test-adapter")
EXAMPLES = os.path.join(TOP, "docs", "examples")
ADAPTER = {"fs": os.path.join(EXAMPLES, "adapter_fs.c"),
           "boot": os.path.join(EXAMPLES, "adapter_bootloader.c")}

FS_API = r"""/* A file system's LZ4 hooks on lz4gate's reference codec (tests/adapter_projects.py). */
#include <limits.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "lz4ref.h"

void lz4_init(void) {}

size_t lz4_compress_zfs(void *src, void *dst, size_t s_len, size_t d_len, int level)
{
    unsigned char *d = dst;
    size_t w;
    (void)level;
    if (d_len < 4 || d_len > INT_MAX || s_len > INT_MAX)
        return s_len;
    w = ref_compress(src, s_len, d + 4, d_len - 4, 1);
    if (w == 0)
        return s_len;
    d[0] = (unsigned char)(w >> 24);
    d[1] = (unsigned char)(w >> 16);
    d[2] = (unsigned char)(w >> 8);
    d[3] = (unsigned char)w;
    return w + 4;
}

int lz4_decompress_zfs(void *src, void *dst, size_t s_len, size_t d_len, int level)
{
    const unsigned char *s = src;
    uint32_t n;
    ref_decode_params p;
    (void)level;
    if (s_len < 4 || d_len > INT_MAX)
        return 1;
    n = (uint32_t)s[0] << 24 | (uint32_t)s[1] << 16 | (uint32_t)s[2] << 8 | s[3];
    if (n > s_len - 4)
        return 1;
    memset(&p, 0, sizeof p);
    p.src = s + 4;
    p.src_len = n;
    p.dst = dst;
    p.dst_cap = d_len;
    p.profile = REF_PROFILE_STRICT;
    return ref_decode(&p).status == REF_OK ? 0 : 1;
}
"""

BOOT_API = r"""/* A boot loader's frame decoder on lz4gate's reference codec (tests/adapter_projects.py). */
#include <stddef.h>

#include "lz4frame_ref.h"

int ulz4fn(const void *src, size_t srcn, void *dst, size_t *dstn)
{
    ref_frame_options o;
    ref_frame_result r;
    ref_frame_options_default(&o);
    o.formats = REF_FORMAT_LZ4 | REF_FORMAT_SKIPPABLE;
    r = ref_frame_decode(&o, src, srcn, dst, *dstn);
    *dstn = r.written;
    return r.status == REF_FRAME_OK ? 0 : -22;
}
"""

# Bugs planted in the project's own wrapper: (file, text, replacement).
WRAPPER_BUGS = {
    # the decoder accepts a block that ref rejects
    "fs-accepts-errors": ("fs_api.c", "return ref_decode(&p).status == REF_OK ? 0 : 1;",
                          "(void)ref_decode(&p);\n    return 0;"),
}


def make_project(name, api, mutant=None, bug=None):
    """Write build/test-adapter/NAME: ref/ + the api's wrapper; return its path."""
    d = os.path.join(OUT, name)
    tmp = d + ".tmp%d" % os.getpid()
    shutil.rmtree(tmp, ignore_errors=True)
    os.makedirs(tmp)
    for f in os.listdir(os.path.join(TOP, "ref")):
        if f.endswith((".c", ".h")):
            shutil.copy(os.path.join(TOP, "ref", f), tmp)
    wrapper = {"fs": ("fs_api.c", FS_API), "boot": ("boot_api.c", BOOT_API)}[api]
    with open(os.path.join(tmp, wrapper[0]), "w") as f:
        f.write(wrapper[1])
    if mutant:
        # One named check of the copy off (ref/mutant.h): the project's bug.
        for f in ("block_decode.c", "frame_decode.c"):
            path = os.path.join(tmp, f)
            with open(path) as fh:
                text = fh.read()
            with open(path, "w") as fh:
                fh.write("#define REF_MUTANT %s\n" % mutant + text)
    if bug:
        f, old, new = WRAPPER_BUGS[bug]
        path = os.path.join(tmp, f)
        with open(path) as fh:
            text = fh.read()
        assert old in text, bug
        with open(path, "w") as fh:
            fh.write(text.replace(old, new))
    if _same_tree(tmp, d):      # keep the tree (and the build cache) as it was
        shutil.rmtree(tmp)
    else:
        shutil.rmtree(d, ignore_errors=True)
        os.rename(tmp, d)
    return d


def _same_tree(a, b):
    if not os.path.isdir(b) or sorted(os.listdir(a)) != sorted(os.listdir(b)):
        return False
    for f in os.listdir(a):
        with open(os.path.join(a, f), "rb") as x, open(os.path.join(b, f), "rb") as y:
            if x.read() != y.read():
                return False
    return True


def spec(path, api):
    """The SPEC of a project tree behind its example adapter."""
    return "project:%s,adapter=%s" % (path, ADAPTER[api])
