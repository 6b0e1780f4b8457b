"""`python3 -m harness fetch`: fetch the default subjects into build/subjects."""
import argparse
import fcntl
import os
import re
import shutil
import signal
import sys
from concurrent.futures import ThreadPoolExecutor

from harness.paths import BUILD
from harness.subjects.fetch.apt import ensure_deb_src, has_candidate
from harness.subjects.fetch.common import (EXIT_MISSING, EXIT_OK, PROG, Fail, Progress, is_root,
                                           need_tool, stamp_problem)
from harness.subjects.fetch.kernel import (KERNEL_REQUIRED, KERNELS, ensure_kernel_tarball,
                                           fetch_kernel, kernel_cache_name)
from harness.subjects.fetch.upstream import (UPSTREAM_DIR, UPSTREAM_REQUIRED, UPSTREAM_SRCPKG,
                                             fetch_upstream)

DEFAULT_OUT = os.path.join(BUILD, "subjects")
SUBJECTS = ("upstream",) + tuple(KERNELS)

HELP = """\
NAME
    python3 -m harness fetch - fetch the default LZ4 subjects into lz4gate's cache

SYNOPSIS
    python3 -m harness fetch [--out DIR] [--only upstream|kernel|kernel-6.12]
                             [--kernel-tarball FILE | --download-kernel]
                             [--force] [--check] [--quiet]

DESCRIPTION
    lz4gate tests LZ4 implementations ("subjects") against its own
    reference codec. The three default subjects are not part of the
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

    DIR/linux-6.12/
        The same for Debian's "linux-source-6.12" (bookworm-security):
        the kernel a stable-kernel upgrade from 6.1 brings in (SPEC
        kernel-6.12).

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
        kernel-6.12:/work/main/build/subjects/linux-6.12

OPTIONS
    --out DIR
        Cache directory (default: <repo>/build/subjects). Created if
        needed. Nothing but the trees, their temporary directories and
        the lock file is written there.
    --only {upstream,kernel,kernel-6.12}
        Fetch just one subject (may be repeated). Default: all three.
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
    /usr/src/linux-source-6.1.tar.xz, /usr/src/linux-source-6.12.tar.xz
                                  installed by linux-source-6.1 / -6.12

EXAMPLES
    python3 -m harness fetch
        Fetch every subject (first run as root: ~40 s, ~280 MB download;
        later runs: no network, well under a second).
    python3 -m harness fetch --download-kernel
        The same without installing anything (works without root once
        a deb-src entry exists).
    python3 -m harness fetch --check && echo cached
    python3 -m harness fetch --only kernel --force

Manual: docs/subjects.md
"""


def tarball_for(args, name):
    """--kernel-tarball replaces the 6.1 tarball ("kernel"); the others come
    from their packages."""
    return args.kernel_tarball if name == "kernel" else KERNELS[name][1]


def tree_of(out, args, name):
    if name == "upstream":
        return os.path.join(out, UPSTREAM_DIR), UPSTREAM_REQUIRED
    return os.path.join(out, kernel_cache_name(name, tarball_for(args, name))), KERNEL_REQUIRED


class _Parser(argparse.ArgumentParser):
    def error(self, message):
        print("%s: error: %s; fix: see python3 -m harness fetch --help" % (PROG, message),
              file=sys.stderr)
        sys.exit(EXIT_MISSING)


class _Help(argparse.Action):
    def __init__(self, option_strings, dest, **kw):
        super().__init__(option_strings, dest, nargs=0, default=None, **kw)

    def __call__(self, parser, namespace, values, option_string=None):
        sys.stdout.write(HELP)
        sys.exit(EXIT_OK)


def parse_args(argv):
    ap = _Parser(prog="harness fetch", add_help=False)
    ap.add_argument("-h", "--help", action=_Help)
    ap.add_argument("--out", default=DEFAULT_OUT, metavar="DIR")
    ap.add_argument("--only", action="append", choices=SUBJECTS)
    ap.add_argument("--kernel-tarball", default=KERNELS["kernel"][1], metavar="FILE")
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
    default_tb = KERNELS["kernel"][1]
    tb = args.kernel_tarball = os.path.abspath(args.kernel_tarball)
    if args.download_kernel and tb != default_tb:
        raise Fail(EXIT_MISSING, "--download-kernel and --kernel-tarball "
                   "exclude each other", "fix: drop one of them")
    wants_kernel = not args.only or "kernel" in args.only
    if wants_kernel and tb != default_tb:
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
        tree, required = tree_of(out, args, w)
        if not args.force and stamp_problem(tree, required) is None:
            continue
        if w == "upstream":
            need_tool("apt-get", "apt")
            need_tool("tar", "tar")
            if not is_root():
                ensure_deb_src(UPSTREAM_SRCPKG, None)   # raises if not ready
            continue
        pkg, default_tb, _ = KERNELS[w]
        need_tool("tar", "tar")
        need_tool("xz", "xz-utils")
        if args.download_kernel:
            need_tool("apt-get", "apt")
            need_tool("dpkg-deb", "dpkg")
            if not is_root() and not has_candidate(pkg):
                raise Fail(EXIT_MISSING, "APT has no candidate for %s "
                           "(package lists missing or stale)" % pkg,
                           "fix (as root): apt-get update")
        elif tarball_for(args, w) == default_tb:
            need_tool("apt-get", "apt")
            if not is_root():
                ensure_kernel_tarball(w, None)         # raises if missing


def remove_leftovers(out, say):
    """Remove staging dirs of runs that were killed (we hold the lock)."""
    for n in sorted(os.listdir(out)):
        if n.startswith(".tmp-") or re.search(r"\.old-\d+$", n):
            say("cache", "removing leftover %s" % os.path.join(out, n))
            shutil.rmtree(os.path.join(out, n), ignore_errors=True)


def _on_sigterm(signum, frame):
    raise KeyboardInterrupt


def main(argv):
    args = parse_args(argv)
    signal.signal(signal.SIGTERM, _on_sigterm)   # clean up staging dirs
    say = Progress(args.quiet)
    try:
        out = validate(args)
        wanted = [w for w in SUBJECTS if not args.only or w in args.only]
        if args.check:
            for w in wanted:
                tree, required = tree_of(out, args, w)
                why = stamp_problem(tree, required)
                if why:
                    raise Fail(EXIT_MISSING, "%s subject not cached at %s (%s)" % (w, tree, why),
                               "fix: python3 -m harness fetch --only %s" % w)
                print("%s:%s" % (w, tree))
            return EXIT_OK
        preflight(out, wanted, args)
        os.makedirs(out, exist_ok=True)
        with open(os.path.join(out, ".lock"), "w") as lock:
            fcntl.flock(lock, fcntl.LOCK_EX)
            remove_leftovers(out, say)
            # Side by side: each kernel tree decompresses a whole
            # linux-source tarball (~10 s of xz on one core); apt-get runs
            # one at a time (common.APT_GET).
            def one(w):
                if w == "upstream":
                    return fetch_upstream(out, args.force, say)
                return fetch_kernel(out, w, args.force, tarball_for(args, w),
                                    args.download_kernel, say)
            with ThreadPoolExecutor(max_workers=max(1, len(wanted))) as pool:
                results = list(zip(wanted, pool.map(one, wanted)))
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
