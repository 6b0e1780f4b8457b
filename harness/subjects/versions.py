"""What a tree says its version is (for reports and subject identity; never
used to decide how to build: that is what the compile probes are for)."""
import os
import re


def kernel_version(tree):
    """VERSION.PATCHLEVEL.SUBLEVEL plus EXTRAVERSION from a Linux tree's top
    Makefile ("6.1.192", "4.4.0-rc3"), or "" when there is none."""
    vals = {}
    try:
        with open(os.path.join(tree, "Makefile"), encoding="utf-8", errors="replace") as f:
            for line in f:
                m = re.match(r"(VERSION|PATCHLEVEL|SUBLEVEL|EXTRAVERSION)\s*=\s*(\S*)", line)
                if m and m.group(1) not in vals:
                    vals[m.group(1)] = m.group(2)
                if len(vals) == 4:
                    break
    except OSError:
        return ""
    if not vals.get("VERSION"):
        return ""
    return "%s.%s.%s%s" % (vals["VERSION"], vals.get("PATCHLEVEL") or "0",
                           vals.get("SUBLEVEL") or "0", vals.get("EXTRAVERSION", ""))


def upstream_version(header):
    """MAJOR.MINOR.RELEASE from lz4.h's LZ4_VERSION_* macros ("1.9.4"); for
    r1xx trees, which have none, "" (the caller names them by their tag)."""
    try:
        with open(header, encoding="utf-8", errors="replace") as f:
            text = f.read()
    except OSError:
        return ""
    parts = [re.search(r"#\s*define\s+LZ4_VERSION_%s\s+(\d+)" % k, text)
             for k in ("MAJOR", "MINOR", "RELEASE")]
    return ".".join(m.group(1) for m in parts) if all(parts) else ""


# Kernel LZ4 API generations (G1 the old API
# of 3.11-4.10, G2 the 2017 update, G3 the 5.x-6.x code); the code decides,
# never the version number.
# One line per generation for reports: (id, what it is).
GENERATIONS = {"G1": "old API (3.11-4.10)", "G2": "LZ4 1.7.2-based API (4.11-4.19)",
               "G3": "5.x-6.x code (1.8.3 decoder)"}


def read_text(path):
    try:
        with open(path, encoding="utf-8", errors="replace") as f:
            return f.read()
    except OSError:
        return ""


def generation(path):
    """G1, G2 or G3 from the tree's code, "" when it has no LZ4 header."""
    header = read_text(os.path.join(path, "include", "linux", "lz4.h"))
    if not header:
        return ""
    if not re.search(r"\bLZ4_decompress_safe\s*\(", header):
        return "G1"
    decoder = read_text(os.path.join(path, "lib", "lz4", "lz4_decompress.c"))
    return "G3" if "forceExtDict" in decoder or "LZ4_memmove" in decoder else "G2"
