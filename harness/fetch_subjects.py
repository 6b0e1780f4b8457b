#!/usr/bin/env python3
"""Fetch the default lz4gate subjects into a local cache (see --help)."""

import argparse
import contextlib
import fcntl
import hashlib
import json
import os
import re
import shutil
import signal
import subprocess
import sys
import tarfile
import tempfile
import time

PROG = "fetch_subjects"
REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
DEFAULT_OUT = os.path.join(REPO, "build", "subjects")

# Bump when what ends up in a cached tree changes; a stamp with another
# recipe number makes the tree stale and it is fetched again.
RECIPE = 1
STAMP = ".lz4gate-stamp.json"

UPSTREAM_DIR = "lz4-upstream"
UPSTREAM_SRCPKG = "lz4"
UPSTREAM_REQUIRED = ("lib/lz4.c", "lib/lz4.h", "lib/lz4hc.c", "lib/lz4hc.h",
                     "lib/lz4frame.c", "lib/lz4frame.h", "lib/xxhash.c",
                     "lib/xxhash.h")

KERNEL_DIR = "linux-6.1"
KERNEL_PKG = "linux-source-6.1"
KERNEL_TARBALL = "/usr/src/linux-source-6.1.tar.xz"
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

APT_TIMEOUT = 1800     # seconds, any single apt-get call
TAR_TIMEOUT = 600      # seconds, kernel tarball extraction
SRC_FILE = "/etc/apt/sources.list.d/lz4gate-src.sources"

EXIT_OK, EXIT_FAIL, EXIT_MISSING = 0, 1, 2

HELP_DESCRIPTION = """\
NAME
    fetch_subjects.py - fetch the default LZ4 subjects into lz4gate's cache

SYNOPSIS
    python3 harness/fetch_subjects.py [--out DIR] [--only upstream|kernel]
                                      [--kernel-tarball FILE |
                                       --download-kernel]
                                      [--force] [--check] [--quiet]

DESCRIPTION
    lz4gate tests LZ4 implementations ("subjects") against its own
    reference codec. The two default subjects are not part of the
    repository; this tool fetches them from Debian's package archive and
    caches them under DIR (default: <repo>/build/subjects, git-ignored):

    DIR/lz4-upstream/
        The upstream LZ4 release tree (lib/lz4.c, lib/lz4hc.c,
        lib/lz4frame.c, lib/xxhash.c, programs/, tests/, ...), unpacked
        from the pristine .orig tarball of Debian's "lz4" source package.
        Debian's own patches are not applied (for 1.9.4-1 they touch only
        Makefiles; a note is printed if a later Debian revision patches a
        .c or .h file under lib/).
        Needs a deb-src entry in APT's sources. If none serves the "lz4"
        source package, one is added as
        /etc/apt/sources.list.d/lz4gate-src.sources (deb822, "Types:
        deb-src", same URIs and Signed-By as the system's Debian "deb"
        entry, suite of this release, component main) and "apt-get
        update" is run.

    DIR/linux-6.1/
        Only the LZ4-related files of the Linux 6.1 tree shipped by
        Debian's "linux-source-6.1" package (lib/lz4/*,
        lib/decompress_unlz4.c, include/linux/lz4.h,
        include/linux/decompress/*.h and the top Makefile for the kernel
        version). The package is installed with "apt-get install
        --no-install-recommends linux-source-6.1" if
        /usr/src/linux-source-6.1.tar.xz is absent; only the listed
        members are extracted, with tar(1). Installing it may also
        upgrade linux-libc-dev and linux-perf to the same kernel version.
        With --download-kernel nothing is installed: the .deb is fetched
        with "apt-get download" into a temporary directory in DIR, the
        members are streamed out of it and the .deb is deleted.

    Each tree carries a stamp file (.lz4gate-stamp.json: versions,
    checksums, file list). A tree whose stamp is present, current and
    whose files all exist is left alone, so running the tool again costs
    nothing and needs no network. Trees are built in a temporary
    directory inside DIR and renamed into place when complete, so an
    interrupted run leaves no half tree. Concurrent runs on the same DIR
    are serialised by DIR/.lock.

    Staging directories left by a killed run are removed by the next
    run.

    Installing packages, adding the deb-src entry and "apt-get update"
    need root. Run as another user, the tool checks first and, if a step
    would need root, stops with exit status 2 before writing anything,
    printing the exact command to run.

    Progress goes to standard error. On success, standard output has one
    line per subject in lz4gate's SPEC syntax, e.g.
        upstream:/work/main/build/subjects/lz4-upstream
        kernel:/work/main/build/subjects/linux-6.1

OPTIONS
    --out DIR
        Cache directory (default: <repo>/build/subjects). Created if
        needed. Nothing but the trees, their temporary directories and
        the lock file is written there.
    --only {upstream,kernel}
        Fetch just one subject (may be repeated). Default: both.
    --kernel-tarball FILE
        Take the kernel tree from FILE instead of
        /usr/src/linux-source-6.1.tar.xz; nothing is installed then. FILE
        is a .tar.xz whose top directory is its own name without
        ".tar.xz" (linux-6.6.tar.xz holds linux-6.6/, as kernel.org
        tarballs do). The cache directory is DIR/linux-X.Y[.Z], with the
        version taken from FILE's name (DIR/linux-6.6).
    --download-kernel
        Do not install linux-source-6.1; download its .deb (as any user,
        given current APT lists) and extract from that. Leaves /usr/src
        and the installed packages untouched; costs the ~140 MB download
        on every fetch of the kernel tree.
    --force
        Fetch again even if a current stamp is present.
    --check
        Fetch nothing; exit 0 if the selected trees are cached and
        current, else exit 2 naming the first missing one.
    -q, --quiet
        No progress lines, only errors.
    -h, --help
        Show this text.
"""

HELP_EPILOG = """\
EXIT STATUS
    0   the selected subjects are cached and current
    1   a step failed (apt-get, tar, a download, an unexpected archive
        layout); the failing command and the tail of its output are shown
    2   something is missing that the user must provide (root rights for
        an install step, apt-get or tar not on PATH, an unreadable
        --kernel-tarball, bad options); one line names the problem and the
        exact command that fixes it

FILES
    <repo>/build/subjects/        default cache (git-ignored)
    DIR/*/.lz4gate-stamp.json     stamp of one cached tree
    /etc/apt/sources.list.d/lz4gate-src.sources
                                  deb-src entry added when none exists
    /usr/src/linux-source-6.1.tar.xz
                                  installed by linux-source-6.1

EXAMPLES
    python3 harness/fetch_subjects.py
        Fetch both subjects (first run as root: ~20 s, ~140 MB download;
        later runs: no network, well under a second).
    python3 harness/fetch_subjects.py --download-kernel
        The same without installing anything (works without root once
        a deb-src entry exists).
    python3 harness/fetch_subjects.py --check && echo cached
    python3 harness/fetch_subjects.py --only kernel --force
"""


class Fail(Exception):
    """A failure with an exit status and a one-line message."""

    def __init__(self, code, message, detail=None):
        super().__init__(message)
        self.code = code
        self.message = message
        self.detail = detail


class Progress:
    def __init__(self, quiet):
        self.quiet = quiet

    def __call__(self, subject, msg):
        if not self.quiet:
            print("%s: [%s] %s" % (PROG, subject, msg), file=sys.stderr,
                  flush=True)


def is_root():
    return os.geteuid() == 0


def need_tool(name, package):
    if shutil.which(name) is None:
        raise Fail(EXIT_MISSING, "%s not found on PATH" % name,
                   "fix: apt-get install -y %s" % package)


def run(cmd, cwd=None, timeout=APT_TIMEOUT, env_extra=None):
    """Run cmd, capture output, raise Fail(1) on error or timeout."""
    env = dict(os.environ)
    env.setdefault("DEBIAN_FRONTEND", "noninteractive")
    env["LC_ALL"] = "C"
    if env_extra:
        env.update(env_extra)
    shown = " ".join(cmd)
    try:
        p = subprocess.run(cmd, cwd=cwd, env=env, stdin=subprocess.DEVNULL,
                           stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                           timeout=timeout, check=False)
    except subprocess.TimeoutExpired:
        raise Fail(EXIT_FAIL, "command timed out after %ds: %s"
                   % (timeout, shown))
    out = p.stdout.decode("utf-8", "replace")
    if p.returncode != 0:
        tail = "\n".join(out.rstrip().splitlines()[-15:])
        raise Fail(EXIT_FAIL, "command failed (exit %d): %s"
                   % (p.returncode, shown), tail)
    return out


def sha256_file(path):
    h = hashlib.sha256()
    with open(path, "rb") as f:
        for chunk in iter(lambda: f.read(1 << 20), b""):
            h.update(chunk)
    return h.hexdigest()


# ---------------------------------------------------------------- cache ---

def read_stamp(tree):
    try:
        with open(os.path.join(tree, STAMP), encoding="utf-8") as f:
            return json.load(f)
    except (OSError, ValueError):
        return None


def stamp_problem(tree, required):
    """None if tree is cached and current, else a short reason."""
    if not os.path.isdir(tree):
        return "not fetched"
    st = read_stamp(tree)
    if st is None:
        return "no stamp"
    if st.get("recipe") != RECIPE:
        return "stamp from another recipe"
    for rel in list(required) + list(st.get("files", [])):
        if not os.path.isfile(os.path.join(tree, rel)):
            return "missing %s" % rel
    return None


def write_stamp(tree, info):
    files = []
    for root, dirs, names in os.walk(tree):
        dirs.sort()
        for n in sorted(names):
            if n != STAMP:
                files.append(os.path.relpath(os.path.join(root, n), tree))
    info = dict(info, recipe=RECIPE, files=files,
                fetched_at=time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()))
    with open(os.path.join(tree, STAMP), "w", encoding="utf-8") as f:
        json.dump(info, f, indent=1, sort_keys=True)
        f.write("\n")


def install_tree(staged, final):
    """Atomically replace final by staged (both inside the cache dir)."""
    trash = None
    if os.path.lexists(final):
        trash = final + ".old-%d" % os.getpid()
        os.rename(final, trash)
    os.rename(staged, final)
    if trash:
        shutil.rmtree(trash, ignore_errors=True)


@contextlib.contextmanager
def staging_dir(out, name):
    d = tempfile.mkdtemp(prefix=".tmp-%s-" % name, dir=out)
    try:
        yield d
    finally:
        shutil.rmtree(d, ignore_errors=True)


# ------------------------------------------------------------- apt side ---

def os_codename():
    try:
        with open("/etc/os-release", encoding="utf-8") as f:
            for line in f:
                if line.startswith("VERSION_CODENAME="):
                    return line.split("=", 1)[1].strip().strip('"')
    except OSError:
        pass
    return None


def parse_deb822(text):
    stanzas, cur, key = [], {}, None
    for line in text.splitlines():
        if not line.strip():
            if cur:
                stanzas.append(cur)
            cur, key = {}, None
            continue
        if line.startswith("#"):
            continue
        if line[0] in " \t" and key:
            cur[key] += "\n" + line.strip()
            continue
        if ":" in line:
            key, val = line.split(":", 1)
            key = key.strip().lower()
            cur[key] = val.strip()
    if cur:
        stanzas.append(cur)
    return stanzas


def apt_entries():
    """Yield (types, uris, suites, components, signed_by) for all entries."""
    paths = []
    if os.path.isfile("/etc/apt/sources.list"):
        paths.append("/etc/apt/sources.list")
    d = "/etc/apt/sources.list.d"
    if os.path.isdir(d):
        paths += [os.path.join(d, n) for n in sorted(os.listdir(d))]
    for path in paths:
        try:
            with open(path, encoding="utf-8", errors="replace") as f:
                text = f.read()
        except OSError:
            continue
        if path.endswith(".sources"):
            for s in parse_deb822(text):
                if s.get("enabled", "yes").lower() == "no":
                    continue
                yield (s.get("types", "").split(), s.get("uris", "").split(),
                       s.get("suites", "").split(),
                       s.get("components", "").split(),
                       s.get("signed-by", ""))
        elif path.endswith(".list") or path == "/etc/apt/sources.list":
            for line in text.splitlines():
                line = line.split("#", 1)[0].strip()
                m = re.match(r"(deb|deb-src)\s+(\[[^\]]*\]\s+)?(\S+)\s+(\S+)"
                             r"\s*(.*)", line)
                if not m:
                    continue
                opts = m.group(2) or ""
                sb = re.search(r"signed-by=(\S+?)\]?(\s|$)", opts)
                yield ([m.group(1)], [m.group(3)], [m.group(4)],
                       m.group(5).split(), sb.group(1) if sb else "")


def deb_src_stanza():
    """The deb822 text of the deb-src entry to add, or None if unknown."""
    codename = os_codename()
    if not codename:
        return None
    for types, uris, suites, comps, signed_by in apt_entries():
        if "deb" in types and codename in suites and "main" in comps:
            text = ("Types: deb-src\nURIs: %s\nSuites: %s\nComponents: main\n"
                    % (" ".join(uris), codename))
            if signed_by and "\n" not in signed_by:
                text += "Signed-By: %s\n" % signed_by
            return text
    keyring = "/usr/share/keyrings/debian-archive-keyring.gpg"
    if os.path.isfile(keyring):
        return ("Types: deb-src\nURIs: http://deb.debian.org/debian\n"
                "Suites: %s\nComponents: main\nSigned-By: %s\n"
                % (codename, keyring))
    return None


def have_source_index(srcpkg):
    p = subprocess.run(["apt-cache", "showsrc", "--only-source", srcpkg],
                       stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                       stderr=subprocess.DEVNULL,
                       env=dict(os.environ, LC_ALL="C"), check=False)
    return p.returncode == 0 and b"\nVersion:" in b"\n" + p.stdout


def has_candidate(pkg):
    p = subprocess.run(["apt-cache", "policy", pkg], stdin=subprocess.DEVNULL,
                       stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                       env=dict(os.environ, LC_ALL="C"), check=False)
    m = re.search(rb"Candidate:\s*(\S+)", p.stdout)
    return bool(m) and m.group(1) != b"(none)"


def ensure_deb_src(srcpkg, say):
    if have_source_index(srcpkg):
        return
    stanza = deb_src_stanza()
    codename = os_codename()
    # a deb-src entry that would serve the package (this release, main)
    has_src = any("deb-src" in types and codename in suites and "main" in comps
                  for types, _, suites, comps, _ in apt_entries())
    if not is_root():
        if has_src:
            fix = "apt-get update"
        elif stanza:
            fix = ("printf '%s' > %s && apt-get update"
                   % (stanza.replace("\n", "\\n"), SRC_FILE))
        else:
            fix = "add a deb-src entry for Debian main, then apt-get update"
        raise Fail(EXIT_MISSING,
                   "APT knows no source package '%s' (no deb-src entry or "
                   "stale lists) and adding one needs root" % srcpkg,
                   "fix (as root): %s   -- or rerun this tool as root" % fix)
    if not has_src:
        if stanza is None:
            raise Fail(EXIT_MISSING,
                       "cannot derive a deb-src entry: no Debian 'deb' entry "
                       "for this release's main component was found",
                       "fix: add a deb-src entry for Debian main to %s, then "
                       "apt-get update" % SRC_FILE)
        say("upstream", "adding deb-src entry %s" % SRC_FILE)
        with open(SRC_FILE, "w", encoding="utf-8") as f:
            f.write("# Added by lz4gate harness/fetch_subjects.py to "
                    "fetch the lz4 source package.\n" + stanza)
    say("upstream", "apt-get update")
    run(["apt-get", "update"])
    if not have_source_index(srcpkg):
        raise Fail(EXIT_FAIL,
                   "after apt-get update APT still knows no source package "
                   "'%s'" % srcpkg,
                   "check: apt-cache showsrc %s; cat %s" % (srcpkg, SRC_FILE))


# ------------------------------------------------------------- subjects ---

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


def kernel_cache_name(tarball):
    if tarball == KERNEL_TARBALL:
        return KERNEL_DIR
    base = os.path.basename(tarball)
    base = re.sub(r"\.tar(\.[a-z0-9]+)?$", "", base)
    m = re.search(r"(\d+\.\d+(\.\d+)?)", base)
    return "linux-%s" % m.group(1) if m else "linux-" + base


def kernel_version(makefile):
    vals = {}
    try:
        with open(makefile, encoding="utf-8", errors="replace") as f:
            for line in f:
                m = re.match(r"(VERSION|PATCHLEVEL|SUBLEVEL|EXTRAVERSION)\s*="
                             r"\s*(\S*)", line)
                if m and m.group(1) not in vals:
                    vals[m.group(1)] = m.group(2)
                if len(vals) == 4:
                    break
    except OSError:
        return None
    if "VERSION" not in vals:
        return None
    v = "%s.%s.%s" % (vals.get("VERSION"), vals.get("PATCHLEVEL", "0"),
                      vals.get("SUBLEVEL", "0"))
    return v + vals.get("EXTRAVERSION", "")


def dpkg_version(pkg):
    p = subprocess.run(["dpkg-query", "-W", "-f=${Version}", pkg],
                       stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                       stderr=subprocess.DEVNULL, check=False)
    return p.stdout.decode().strip() if p.returncode == 0 else None


def ensure_kernel_tarball(say):
    if os.path.isfile(KERNEL_TARBALL):
        return
    cmd = ["apt-get", "install", "-y", "--no-install-recommends", KERNEL_PKG]
    if not is_root():
        raise Fail(EXIT_MISSING, "%s is missing (package %s not installed) "
                   "and installing it needs root" % (KERNEL_TARBALL,
                                                     KERNEL_PKG),
                   "fix (as root): apt-get update && %s" % " ".join(cmd))
    if not has_candidate(KERNEL_PKG):
        say("kernel", "apt-get update (no candidate for %s yet)" % KERNEL_PKG)
        run(["apt-get", "update"])
    say("kernel", " ".join(cmd) + "  (~140 MB download)")
    t0 = time.monotonic()
    run(cmd)
    say("kernel", "installed %s %s in %.1fs"
        % (KERNEL_PKG, dpkg_version(KERNEL_PKG), time.monotonic() - t0))
    if not os.path.isfile(KERNEL_TARBALL):
        raise Fail(EXIT_FAIL, "%s installed but %s is absent"
                   % (KERNEL_PKG, KERNEL_TARBALL))


def run_pipeline(cmds, timeout=TAR_TIMEOUT):
    """Run cmds as a shell-free pipeline; raise Fail(1) if any stage fails."""
    procs, prev = [], None
    errf = tempfile.TemporaryFile()
    env = dict(os.environ, LC_ALL="C")
    try:
        for i, cmd in enumerate(cmds):
            last = i == len(cmds) - 1
            p = subprocess.Popen(cmd, stdin=prev if prev else subprocess.DEVNULL,
                                 stdout=subprocess.DEVNULL if last
                                 else subprocess.PIPE, stderr=errf, env=env)
            if prev:
                prev.close()       # only the next stage holds the pipe now
            prev = p.stdout
            procs.append(p)
        deadline = time.monotonic() + timeout
        for p in procs:
            p.wait(timeout=max(1, deadline - time.monotonic()))
    except subprocess.TimeoutExpired:
        for p in procs:
            p.kill()
            p.wait()
        raise Fail(EXIT_FAIL, "pipeline timed out after %ds: %s"
                   % (timeout, " | ".join(" ".join(c) for c in cmds)))
    except BaseException:              # interrupted: leave no child behind
        for p in procs:
            p.kill()
            p.wait()
        raise
    errf.seek(0)
    err = errf.read().decode("utf-8", "replace")
    errf.close()
    for p, cmd in zip(procs, cmds):
        if p.returncode != 0:
            tail = "\n".join(err.rstrip().splitlines()[-15:])
            raise Fail(EXIT_FAIL, "command failed (exit %d): %s"
                       % (p.returncode, " ".join(cmd)), tail)


def download_kernel_deb(dldir, say):
    """apt-get download the linux-source .deb into dldir; return its path."""
    if not has_candidate(KERNEL_PKG):
        if not is_root():
            raise Fail(EXIT_MISSING, "APT has no candidate for %s (package "
                       "lists missing or stale)" % KERNEL_PKG,
                       "fix (as root): apt-get update")
        say("kernel", "apt-get update (no candidate for %s yet)" % KERNEL_PKG)
        run(["apt-get", "update"])
    say("kernel", "apt-get download %s  (~140 MB, nothing installed)"
        % KERNEL_PKG)
    extra = (["-o", "APT::Sandbox::User=root"] if is_root() else [])
    run(["apt-get"] + extra + ["download", "-q", KERNEL_PKG], cwd=dldir)
    debs = [n for n in os.listdir(dldir) if n.endswith(".deb")]
    if len(debs) != 1:
        raise Fail(EXIT_FAIL, "apt-get download left %d .deb files in %s"
                   % (len(debs), dldir))
    return os.path.join(dldir, debs[0])


def fetch_kernel(out, force, tarball, download, say):
    final = os.path.join(out, kernel_cache_name(tarball))
    why = stamp_problem(final, KERNEL_REQUIRED)
    if why is None and not force:
        st = read_stamp(final)
        say("kernel", "cached: %s (Linux %s)" % (final,
                                                 st.get("kernel_version")))
        return final
    say("kernel", "fetching (%s)" % ("--force" if why is None else why))
    need_tool("tar", "tar")
    need_tool("xz", "xz-utils")
    top = re.sub(r"\.tar(\.[a-z0-9]+)?$", "", os.path.basename(tarball))
    members = ["%s/%s" % (top, m) for m in KERNEL_MEMBERS]
    untar = ["tar", "-xJ", "--no-same-owner", "--strip-components=1",
             "--wildcards"]
    t0 = time.monotonic()
    with staging_dir(out, "kernel") as tmp:
        tree = os.path.join(tmp, "tree")
        os.mkdir(tree)
        untar += ["-C", tree]
        info = {"subject": "kernel", "members": list(KERNEL_MEMBERS)}
        if download:
            need_tool("apt-get", "apt")
            need_tool("dpkg-deb", "dpkg")
            dl = os.path.join(tmp, "dl")
            os.mkdir(dl)
            deb = download_kernel_deb(dl, say)
            m = re.match(r"[^_]+_([^_]+)_", os.path.basename(deb))
            info.update(deb=os.path.basename(deb), deb_sha256=sha256_file(deb),
                        package=KERNEL_PKG,
                        package_version=m.group(1).replace("%3a", ":")
                        if m else None)
            source = "%s:%s" % (os.path.basename(deb), tarball)
            say("kernel", "extracting %d LZ4 patterns from %s (the whole "
                "archive is decompressed, ~10 s)" % (len(members), source))
            cmds = [["dpkg-deb", "--fsys-tarfile", deb],
                    ["tar", "-xO", "." + tarball],
                    untar + ["-f", "-"] + members]
        else:
            if tarball == KERNEL_TARBALL:
                need_tool("apt-get", "apt")
                ensure_kernel_tarball(say)
                pv = dpkg_version(KERNEL_PKG)
                info.update(package=KERNEL_PKG if pv else None,
                            package_version=pv)
            info.update(tarball=tarball, tarball_sha256=sha256_file(tarball))
            source = tarball
            mb = os.path.getsize(tarball) / 1e6
            say("kernel", "extracting %d LZ4 patterns from %s (%.0f MB xz%s)"
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
        say("kernel", "extracted in %.1fs" % (time.monotonic() - t1))
        for rel in KERNEL_REQUIRED:
            if not os.path.isfile(os.path.join(tree, rel)):
                raise Fail(EXIT_FAIL, "%s lacks %s/%s" % (source, top, rel))
        kver = kernel_version(os.path.join(tree, "Makefile"))
        info["kernel_version"] = kver
        write_stamp(tree, info)
        install_tree(tree, final)
    say("kernel", "ready: %s (Linux %s, %.1fs)"
        % (final, kver, time.monotonic() - t0))
    return final


# ----------------------------------------------------------------- main ---

class _Parser(argparse.ArgumentParser):
    def error(self, message):
        print("%s: error: %s; fix: see python3 harness/fetch_subjects.py "
              "--help" % (PROG, message), file=sys.stderr)
        sys.exit(EXIT_MISSING)


class _Help(argparse.Action):
    def __init__(self, option_strings, dest, **kw):
        super().__init__(option_strings, dest, nargs=0, default=None, **kw)

    def __call__(self, parser, namespace, values, option_string=None):
        sys.stdout.write(HELP_DESCRIPTION + "\n" + HELP_EPILOG)
        sys.exit(EXIT_OK)


def parse_args(argv):
    ap = _Parser(prog="fetch_subjects.py", add_help=False)
    ap.add_argument("-h", "--help", action=_Help)
    ap.add_argument("--out", default=DEFAULT_OUT, metavar="DIR")
    ap.add_argument("--only", action="append", choices=("upstream", "kernel"))
    ap.add_argument("--kernel-tarball", default=KERNEL_TARBALL,
                    metavar="FILE")
    ap.add_argument("--download-kernel", action="store_true")
    ap.add_argument("--force", action="store_true")
    ap.add_argument("--check", action="store_true")
    ap.add_argument("-q", "--quiet", action="store_true")
    return ap.parse_args(argv)


def validate(args):
    """Reject bad input before anything is written anywhere."""
    if args.check and args.force:
        raise Fail(EXIT_MISSING, "--check and --force exclude each other",
                   "fix: drop one of them")
    out = os.path.abspath(args.out)
    if os.path.exists(out) and not os.path.isdir(out):
        raise Fail(EXIT_MISSING, "--out %s exists and is not a directory"
                   % out, "fix: pass another --out DIR or remove the file")
    parent = out
    while not os.path.exists(parent):
        parent = os.path.dirname(parent)
    if not os.access(parent, os.W_OK | os.X_OK):
        raise Fail(EXIT_MISSING, "cannot write to %s (for --out %s)"
                   % (parent, out), "fix: pass a writable --out DIR")
    tb = args.kernel_tarball = os.path.abspath(args.kernel_tarball)
    if args.download_kernel and tb != KERNEL_TARBALL:
        raise Fail(EXIT_MISSING, "--download-kernel and --kernel-tarball "
                   "exclude each other", "fix: drop one of them")
    wants_kernel = not args.only or "kernel" in args.only
    if wants_kernel and tb != KERNEL_TARBALL:
        if not os.path.isfile(tb) or not os.access(tb, os.R_OK):
            raise Fail(EXIT_MISSING, "--kernel-tarball %s is not a readable "
                       "file" % tb, "fix: pass an existing linux-*.tar.xz")
        if not re.search(r"\.tar\.xz$", tb):
            raise Fail(EXIT_MISSING, "--kernel-tarball %s is not a .tar.xz"
                       % tb, "fix: pass a linux-*.tar.xz file")
    return out


def preflight(out, wanted, args):
    """Fail with exit 2 before writing anything if a prerequisite that the
    user must provide is missing (tools; root for an install step)."""
    for w in wanted:
        if w == "upstream":
            if not args.force and stamp_problem(
                    os.path.join(out, UPSTREAM_DIR), UPSTREAM_REQUIRED) is None:
                continue
            need_tool("apt-get", "apt")
            need_tool("tar", "tar")
            if not is_root():
                ensure_deb_src(UPSTREAM_SRCPKG, None)   # raises if not ready
        else:
            tb = args.kernel_tarball
            if not args.force and stamp_problem(
                    os.path.join(out, kernel_cache_name(tb)),
                    KERNEL_REQUIRED) is None:
                continue
            need_tool("tar", "tar")
            need_tool("xz", "xz-utils")
            if args.download_kernel:
                need_tool("apt-get", "apt")
                need_tool("dpkg-deb", "dpkg")
                if not is_root() and not has_candidate(KERNEL_PKG):
                    raise Fail(EXIT_MISSING, "APT has no candidate for %s "
                               "(package lists missing or stale)" % KERNEL_PKG,
                               "fix (as root): apt-get update")
            elif tb == KERNEL_TARBALL:
                need_tool("apt-get", "apt")
                if not is_root():
                    ensure_kernel_tarball(None)         # raises if missing


def remove_leftovers(out, say):
    """Remove staging dirs of runs that were killed (we hold the lock)."""
    for n in sorted(os.listdir(out)):
        if n.startswith(".tmp-") or re.search(r"\.old-\d+$", n):
            say("cache", "removing leftover %s" % os.path.join(out, n))
            shutil.rmtree(os.path.join(out, n), ignore_errors=True)


def _on_sigterm(signum, frame):
    raise KeyboardInterrupt


def main(argv=None):
    args = parse_args(sys.argv[1:] if argv is None else argv)
    signal.signal(signal.SIGTERM, _on_sigterm)   # clean up staging dirs
    say = Progress(args.quiet)
    try:
        out = validate(args)
        wanted = args.only or ["upstream", "kernel"]
        wanted = [w for w in ("upstream", "kernel") if w in wanted]
        if args.check:
            for w in wanted:
                if w == "upstream":
                    tree, req = os.path.join(out, UPSTREAM_DIR), \
                        UPSTREAM_REQUIRED
                else:
                    tree = os.path.join(out, kernel_cache_name(
                        args.kernel_tarball))
                    req = KERNEL_REQUIRED
                why = stamp_problem(tree, req)
                if why:
                    raise Fail(EXIT_MISSING, "%s subject not cached at %s "
                               "(%s)" % (w, tree, why),
                               "fix: python3 %s --only %s"
                               % (os.path.relpath(os.path.abspath(__file__)),
                                  w))
                print("%s:%s" % (w, tree))
            return EXIT_OK
        preflight(out, wanted, args)
        os.makedirs(out, exist_ok=True)
        results = []
        with open(os.path.join(out, ".lock"), "w") as lock:
            fcntl.flock(lock, fcntl.LOCK_EX)
            remove_leftovers(out, say)
            for w in wanted:
                if w == "upstream":
                    results.append(("upstream",
                                    fetch_upstream(out, args.force, say)))
                else:
                    results.append(("kernel", fetch_kernel(
                        out, args.force, args.kernel_tarball,
                        args.download_kernel, say)))
        for w, path in results:
            print("%s:%s" % (w, path))
        return EXIT_OK
    except Fail as e:
        line = "%s: error: %s" % (PROG, e.message)
        if e.code == EXIT_MISSING and e.detail:
            line += "; " + e.detail
        print(line, file=sys.stderr)
        if e.code != EXIT_MISSING and e.detail:
            for d in e.detail.splitlines():
                print("%s:   | %s" % (PROG, d), file=sys.stderr)
        return e.code
    except KeyboardInterrupt:
        print("%s: interrupted" % PROG, file=sys.stderr)
        return 130


if __name__ == "__main__":
    sys.exit(main())
