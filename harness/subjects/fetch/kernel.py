"""The default kernel trees: only the LZ4 files of Debian's linux-source-X.Y
packages (6.1 from bookworm, 6.12 from bookworm-security), extracted from
the package's tarball into build/subjects/linux-X.Y."""
import os
import re
import time

from harness.subjects.fetch.apt import dpkg_version, has_candidate
from harness.subjects.fetch.common import (EXIT_FAIL, EXIT_MISSING, Fail, install_tree, is_root,
                                           need_tool, read_stamp, run, run_pipeline,
                                           sha256_file, stamp_problem, staging_dir,
                                           write_stamp)
from harness.subjects.versions import kernel_version

# name (the SPEC) -> (Debian package, the tarball it installs, cache directory)
KERNELS = {
    "kernel": ("linux-source-6.1", "/usr/src/linux-source-6.1.tar.xz", "linux-6.1"),
    "kernel-6.12": ("linux-source-6.12", "/usr/src/linux-source-6.12.tar.xz", "linux-6.12"),
}
# Members taken from the kernel tarball, relative to its top directory.
# GNU tar wildcards; every pattern must match at least one member.
KERNEL_MEMBERS = (
    "Makefile",                      # VERSION/PATCHLEVEL/SUBLEVEL only
    "lib/lz4/*",                     # lz4_compress.c lz4_decompress.c
                                     # lz4hc_compress.c lz4defs.h Makefile
    "lib/decompress_unlz4.c",
    "include/linux/lz4.h",           # the API under test
    "include/linux/decompress/*.h",  # unlz4.h, mm.h (+ siblings)
)
KERNEL_REQUIRED = ("lib/lz4/lz4_compress.c", "lib/lz4/lz4_decompress.c",
                   "lib/lz4/lz4hc_compress.c", "lib/lz4/lz4defs.h",
                   "lib/decompress_unlz4.c", "include/linux/lz4.h",
                   "include/linux/decompress/unlz4.h",
                   "include/linux/decompress/mm.h")


def kernel_cache_name(name, tarball):
    """The cache directory of kernel `name` taken from `tarball`."""
    pkg, default_tarball, cache_dir = KERNELS[name]
    if tarball == default_tarball:
        return cache_dir
    base = os.path.basename(tarball)
    base = re.sub(r"\.tar(\.[a-z0-9]+)?$", "", base)
    m = re.search(r"(\d+\.\d+(\.\d+)?)", base)
    return "linux-%s" % m.group(1) if m else "linux-" + base


def ensure_kernel_tarball(name, say):
    KERNEL_PKG, KERNEL_TARBALL, _ = KERNELS[name]
    if os.path.isfile(KERNEL_TARBALL):
        return
    cmd = ["apt-get", "install", "-y", "--no-install-recommends", KERNEL_PKG]
    if not is_root():
        raise Fail(EXIT_MISSING, "%s is missing (package %s not installed) "
                   "and installing it needs root" % (KERNEL_TARBALL,
                                                     KERNEL_PKG),
                   "fix (as root): apt-get update && %s" % " ".join(cmd))
    if not has_candidate(KERNEL_PKG):
        say(name, "apt-get update (no candidate for %s yet)" % KERNEL_PKG)
        run(["apt-get", "update"])
    say(name, " ".join(cmd) + "  (~140 MB download)")
    t0 = time.monotonic()
    run(cmd)
    say(name, "installed %s %s in %.1fs"
        % (KERNEL_PKG, dpkg_version(KERNEL_PKG), time.monotonic() - t0))
    if not os.path.isfile(KERNEL_TARBALL):
        raise Fail(EXIT_FAIL, "%s installed but %s is absent"
                   % (KERNEL_PKG, KERNEL_TARBALL))


def download_kernel_deb(name, dldir, say):
    """apt-get download the linux-source .deb into dldir; return its path."""
    KERNEL_PKG = KERNELS[name][0]
    if not has_candidate(KERNEL_PKG):
        if not is_root():
            raise Fail(EXIT_MISSING, "APT has no candidate for %s (package "
                       "lists missing or stale)" % KERNEL_PKG,
                       "fix (as root): apt-get update")
        say(name, "apt-get update (no candidate for %s yet)" % KERNEL_PKG)
        run(["apt-get", "update"])
    say(name, "apt-get download %s  (~140 MB, nothing installed)"
        % KERNEL_PKG)
    extra = (["-o", "APT::Sandbox::User=root"] if is_root() else [])
    run(["apt-get"] + extra + ["download", "-q", KERNEL_PKG], cwd=dldir)
    debs = [n for n in os.listdir(dldir) if n.endswith(".deb")]
    if len(debs) != 1:
        raise Fail(EXIT_FAIL, "apt-get download left %d .deb files in %s"
                   % (len(debs), dldir))
    return os.path.join(dldir, debs[0])


def fetch_kernel(out, name, force, tarball, download, say):
    """Fetch kernel `name` (a key of KERNELS) from `tarball` (the package's
    own, or one the user gave) or, with download, from the package's .deb."""
    KERNEL_PKG, KERNEL_TARBALL, _ = KERNELS[name]
    final = os.path.join(out, kernel_cache_name(name, tarball))
    why = stamp_problem(final, KERNEL_REQUIRED)
    if why is None and not force:
        st = read_stamp(final)
        say(name, "cached: %s (Linux %s)" % (final,
                                                 st.get("kernel_version")))
        return final
    say(name, "fetching (%s)" % ("--force" if why is None else why))
    need_tool("tar", "tar")
    need_tool("xz", "xz-utils")
    top = re.sub(r"\.tar(\.[a-z0-9]+)?$", "", os.path.basename(tarball))
    members = ["%s/%s" % (top, m) for m in KERNEL_MEMBERS]
    untar = ["tar", "-xJ", "--no-same-owner", "--strip-components=1",
             "--wildcards"]
    t0 = time.monotonic()
    with staging_dir(out, name) as tmp:
        tree = os.path.join(tmp, "tree")
        os.mkdir(tree)
        untar += ["-C", tree]
        # top: the folder the tarball holds, which reports name files in
        info = {"subject": name, "members": list(KERNEL_MEMBERS), "top_dir": top}
        if download:
            need_tool("apt-get", "apt")
            need_tool("dpkg-deb", "dpkg")
            dl = os.path.join(tmp, "dl")
            os.mkdir(dl)
            deb = download_kernel_deb(name, dl, say)
            m = re.match(r"[^_]+_([^_]+)_", os.path.basename(deb))
            info.update(deb=os.path.basename(deb), deb_sha256=sha256_file(deb),
                        package=KERNEL_PKG,
                        package_version=m.group(1).replace("%3a", ":")
                        if m else None)
            source = "%s:%s" % (os.path.basename(deb), tarball)
            say(name, "extracting %d LZ4 patterns from %s (the whole "
                "archive is decompressed, ~10 s)" % (len(members), source))
            cmds = [["dpkg-deb", "--fsys-tarfile", deb],
                    ["tar", "-xO", "." + tarball],
                    untar + ["-f", "-"] + members]
        else:
            if tarball == KERNEL_TARBALL:
                need_tool("apt-get", "apt")
                ensure_kernel_tarball(name, say)
                pv = dpkg_version(KERNEL_PKG)
                info.update(package=KERNEL_PKG if pv else None,
                            package_version=pv)
            info.update(tarball=tarball, tarball_sha256=sha256_file(tarball))
            source = tarball
            mb = os.path.getsize(tarball) / 1e6
            say(name, "extracting %d LZ4 patterns from %s (%.0f MB xz%s)"
                % (len(members), tarball, mb, "; the whole archive is "
                   "decompressed, ~10 s" if mb > 50 else ""))
            cmds = [untar + ["-f", tarball] + members]
        t1 = time.monotonic()
        try:
            run_pipeline(cmds)
        except Fail as e:
            if "Not found in archive" in (e.detail or ""):
                raise Fail(EXIT_FAIL, "%s does not hold a kernel tree under "
                           "%s/ with all LZ4 files" % (source, top), e.detail)
            raise
        say(name, "extracted in %.1fs" % (time.monotonic() - t1))
        for rel in KERNEL_REQUIRED:
            if not os.path.isfile(os.path.join(tree, rel)):
                raise Fail(EXIT_FAIL, "%s lacks %s/%s" % (source, top, rel))
        kver = kernel_version(tree)
        info["kernel_version"] = kver
        write_stamp(tree, info)
        install_tree(tree, final)
    say(name, "ready: %s (Linux %s, %.1fs)"
        % (final, kver, time.monotonic() - t0))
    return final
