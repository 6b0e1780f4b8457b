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
