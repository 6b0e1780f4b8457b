"""The default upstream tree: the pristine .orig tarball of Debian's lz4
source package (apt-get source), unpacked into build/subjects/lz4-upstream."""
import os
import re
import tarfile
import time

from harness.subjects.fetch.apt import ensure_deb_src
from harness.subjects.fetch.common import (EXIT_FAIL, TAR_TIMEOUT, Fail, install_tree, is_root,
                                           need_tool, read_stamp, run, sha256_file,
                                           stamp_problem, staging_dir, write_stamp)

UPSTREAM_DIR = "lz4-upstream"
UPSTREAM_SRCPKG = "lz4"
UPSTREAM_REQUIRED = ("lib/lz4.c", "lib/lz4.h", "lib/lz4hc.c", "lib/lz4hc.h",
                     "lib/lz4frame.c", "lib/lz4frame.h", "lib/xxhash.c",
                     "lib/xxhash.h")


def fetch_upstream(out, force, say):
    final = os.path.join(out, UPSTREAM_DIR)
    why = stamp_problem(final, UPSTREAM_REQUIRED)
    if why is None and not force:
        say("upstream", "cached: %s (version %s)"
            % (final, read_stamp(final).get("version")))
        return final
    say("upstream", "fetching (%s)" % ("--force" if why is None else why))
    need_tool("apt-get", "apt")
    need_tool("tar", "tar")
    ensure_deb_src(UPSTREAM_SRCPKG, say)
    t0 = time.monotonic()
    with staging_dir(out, "upstream") as tmp:
        dl = os.path.join(tmp, "dl")
        os.mkdir(dl)
        say("upstream", "apt-get source --download-only %s" % UPSTREAM_SRCPKG)
        # As root, apt drops to user _apt for downloads and cannot write to
        # our 0700 temp dir; it then warns and downloads as root anyway.
        # Say so up front to keep the log clean.
        extra = (["-o", "APT::Sandbox::User=root"] if is_root() else [])
        run(["apt-get"] + extra + ["source", "--download-only", "-q",
                                   UPSTREAM_SRCPKG], cwd=dl)
        names = sorted(os.listdir(dl))
        origs = [n for n in names if re.search(r"\.orig\.tar\.[a-z0-9]+$", n)]
        dscs = [n for n in names if n.endswith(".dsc")]
        if len(origs) != 1 or len(dscs) != 1:
            raise Fail(EXIT_FAIL, "unexpected files from apt-get source: %s"
                       % " ".join(names) or "(none)")
        m = re.match(r"[^_]+_(.+)\.dsc$", dscs[0])
        version = m.group(1) if m else "?"
        orig = os.path.join(dl, origs[0])
        unpack = os.path.join(tmp, "unpack")
        os.mkdir(unpack)
        say("upstream", "unpacking %s" % origs[0])
        run(["tar", "-xf", orig, "-C", unpack, "--no-same-owner"],
            timeout=TAR_TIMEOUT)
        tops = os.listdir(unpack)
        if len(tops) != 1 or not os.path.isdir(os.path.join(unpack, tops[0])):
            raise Fail(EXIT_FAIL, "%s has %d top-level entries, expected one "
                       "directory" % (origs[0], len(tops)))
        tree = os.path.join(unpack, tops[0])
        for rel in UPSTREAM_REQUIRED:
            if not os.path.isfile(os.path.join(tree, rel)):
                raise Fail(EXIT_FAIL, "%s lacks %s" % (origs[0], rel))
        lib_patches = debian_patches_touching_lib(dl, names)
        if lib_patches:
            say("upstream", "note: Debian patches lib/ in %s (not applied): %s"
                % (version, ", ".join(lib_patches)))
        write_stamp(tree, {
            "subject": "upstream",
            "source_package": UPSTREAM_SRCPKG,
            "version": version,
            "orig_tarball": origs[0],
            "top_dir": tops[0],          # the folder reports name its files in
            "orig_sha256": sha256_file(orig),
            "debian_patches_applied": False,
            "debian_patches_touching_lib": lib_patches,
        })
        install_tree(tree, final)
    say("upstream", "ready: %s (version %s, %.1fs)"
        % (final, version, time.monotonic() - t0))
    return final

def debian_patches_touching_lib(dl, names):
    found = []
    for n in names:
        if ".debian.tar." not in n:
            continue
        try:
            with tarfile.open(os.path.join(dl, n)) as tf:
                for mem in tf.getmembers():
                    if not (mem.isfile() and
                            mem.name.startswith("debian/patches/")):
                        continue
                    data = tf.extractfile(mem).read()
                    if re.search(rb"^\+\+\+ [^/\n]*/lib/\S*\.[ch]\s",
                                 data, re.M):
                        found.append(os.path.basename(mem.name))
        except (tarfile.TarError, OSError):
            pass
    return found
