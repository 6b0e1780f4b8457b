#!/usr/bin/env python3
"""lz4gate subjects: locate, stage, probe and build implementations under test.

A SPEC names a subject:
  ref             lz4gate's reference codec (ref/)
  system          the installed liblz4 shared library (black box)
  upstream:DIR    an upstream lz4 release tree (lib/lz4.c, or lz4.c at the top)
  kernel:DIR      a Linux tree (lib/lz4/, include/linux/lz4.h, lib/decompress_unlz4.c)
  upstream, kernel  the default trees fetched by harness/fetch_subjects.py

Building a subject:
  1. locate its LZ4 sources (a tree with none is an error);
  2. copy them into build/stage/<id>/ and apply the patch series there
     (never to the user's tree);
  3. probe which entry points its headers declare (compile probes, no
     version numbers);
  4. compile sources + adapter for a CONFIG into build/subj/<id>/<config>/,
     link them into one relocatable object and make every symbol local except
     lz4gate_subject() (subject.o) or lz4gate_subject_b() (subject_b.o), so
     two subjects link into one program without clashing.
The result is cached by content: building the same subject twice reuses it.

Exit codes: 0 ok, 2 bad input or a subject that does not build.
"""
import argparse
import hashlib
import json
import os
import shutil
import subprocess
import sys
import tempfile

TOP = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
HARNESS = os.path.join(TOP, "harness")
BUILD = os.path.join(TOP, "build")
DEFAULT_TREES = {
    "upstream": os.path.join(BUILD, "subjects", "lz4-upstream"),
    "kernel": os.path.join(BUILD, "subjects", "linux-6.1"),
}
EXIT_BAD_INPUT = 2

SAN = ["-fsanitize=address,undefined", "-fno-sanitize-recover=all",
       "-fno-omit-frame-pointer"]
# name: (compiler, flags, bits)
CONFIGS = {
    "asan64": ("clang", ["-O1", "-g"] + SAN, 64),
    "asan32": ("clang", ["-m32", "-O1", "-g"] + SAN, 32),
    "O0": ("clang", ["-O0", "-g"], 64),
    "O2": ("clang", ["-O2", "-g"], 64),
    "O0-32": ("clang", ["-m32", "-O0", "-g"], 32),
    "O2-32": ("clang", ["-m32", "-O2", "-g"], 32),
    "gcov": ("gcc", ["-O0", "-g", "--coverage"], 64),
    "libfuzzer": ("clang", ["-O1", "-g", "-fsanitize=fuzzer-no-link"] + SAN, 64),
    "libfuzzer32": ("clang", ["-m32", "-O1", "-g", "-fsanitize=fuzzer-no-link"] + SAN, 32),
    "afl": ("afl-clang-fast", ["-O2", "-g"] + SAN, 64),
}
# "env": the compiler and flags of the environment ($CC, $CFLAGS), as set by
# OSS-Fuzz / ClusterFuzzLite build scripts (ci/oss-fuzz/build.sh).
if os.environ.get("CC") and "CFLAGS" in os.environ:
    _env_flags = os.environ["CFLAGS"].split()
    CONFIGS["env"] = (os.environ["CC"], _env_flags, 32 if "-m32" in _env_flags else 64)
OUR_WARNINGS = ["-std=gnu11", "-Wall", "-Wextra", "-Werror"]
# Subject code is not ours to fix (its bugs are the point): no warnings. And
# it is built as shipped, without FUZZING_BUILD_MODE_UNSAFE_FOR_PRODUCTION
# (harness/production_build.h says why).
SUBJECT_WARNINGS = ["-w", "-include", os.path.join(HARNESS, "production_build.h")]
# In subject code UBSan reports and continues: an undefined-behaviour report
# there is a finding to record (the runners collect "runtime error:" lines),
# not a reason to stop testing the subject. ASan still stops at once.
SUBJECT_UBSAN = ["-fsanitize-recover=undefined"]


class BadInput(Exception):
    """One clear line: what is wrong and how to fix it."""


def sha(*parts):
    h = hashlib.sha256()
    for p in parts:
        h.update(p if isinstance(p, bytes) else str(p).encode())
        h.update(b"\0")
    return h.hexdigest()[:16]


def file_digest(paths):
    h = hashlib.sha256()
    for p in sorted(paths):
        h.update(p.encode())
        with open(p, "rb") as f:
            h.update(f.read())
    return h.hexdigest()[:16]


# ---- locating sources ------------------------------------------------------

UPSTREAM_LAYOUTS = ("lib", ".")     # r125+ under lib/, older at the top
UPSTREAM_FILES = ("lz4.c", "lz4.h", "lz4hc.c", "lz4hc.h",
                  # the frame API (r126+), and the xxHash it checksums with
                  "lz4frame.c", "lz4frame.h", "lz4frame_static.h", "xxhash.c", "xxhash.h")
KERNEL_FILES = ("lib/lz4/lz4_decompress.c", "lib/lz4/lz4_compress.c",
                "lib/lz4/lz4hc_compress.c", "lib/lz4/lz4defs.h",
                "include/linux/lz4.h", "lib/decompress_unlz4.c",
                "include/linux/decompress/unlz4.h", "include/linux/decompress/mm.h")


BROKEN_MODES = ("write_past_capacity", "short_return", "ignore_capacity",
                "partial_overshoot", "bad_bound", "no_negative_guard", "frame_reset_noop",
                "frame_write_past", "frame_state_reuse", "frame_dict_uninit",
                "frame_dict_unbounded", "unlz4_short_flush", "unlz4_no_padding",
                "unlz4_fill_eof_error")


def ref_check_names():
    """Named checks of the reference decoder: block (ref/checks.h) and frame
    (ref/frame_checks.h)."""
    import re
    names = []
    for header, start, end in (("checks.h", "#define REF_CHECK_LIST", "enum ref_check_id"),
                               ("frame_checks.h", "#define REF_FRAME_CHECK_LIST",
                                "enum ref_frame_check_id")):
        with open(os.path.join(TOP, "ref", header)) as f:
            text = f.read()
        names += re.findall(r"X\((\w+),", text[text.index(start):text.index(end)])
    return names


class Subject:
    def __init__(self, spec, patches=()):
        self.spec = spec
        self.patches = [os.path.abspath(p) for p in patches]
        kind, _, path = spec.partition(":")
        if spec in ("ref", "system"):
            kind, path = spec, ""
        elif kind in ("ref-mutant", "broken"):
            # Test subjects: the reference with one named check compiled out
            # (ref/checks.h), or a deliberately broken adapter.
            self.variant, path = path, ""
            valid = ref_check_names() if kind == "ref-mutant" else BROKEN_MODES
            if self.variant not in valid:
                raise BadInput("unknown %s '%s'; use one of: %s"
                               % (kind, self.variant, ", ".join(valid)))
        elif kind == "fixture":
            # Synthetic trees for testing lz4gate itself (harness/fixtures.py).
            import fixtures
            if path not in fixtures.FIXTURES:
                raise BadInput("unknown fixture '%s'; use one of: %s"
                               % (path, ", ".join(sorted(fixtures.FIXTURES))))
            kind, path = fixtures.materialize(path)
        elif spec in DEFAULT_TREES:
            kind, path = spec, DEFAULT_TREES[spec]
            if not os.path.isdir(path):
                raise BadInput("default %s tree not fetched yet (%s); run: "
                               "python3 harness/fetch_subjects.py" % (spec, path))
        elif kind not in ("upstream", "kernel") or not path:
            raise BadInput("unknown subject '%s'; use ref, system, upstream[:DIR], "
                           "kernel[:DIR] (or, for testing lz4gate, ref-mutant:CHECK, "
                           "broken:MODE, fixture:NAME)" % spec)
        self.kind = kind
        if kind in ("ref", "ref-mutant", "broken"):
            self.variant = getattr(self, "variant", "")
        self.path = os.path.abspath(path) if path else ""
        if self.path and not os.path.isdir(self.path):
            raise BadInput("subject directory %s does not exist; pass the top of an "
                           "lz4 or Linux source tree" % self.path)
        if self.patches and kind not in ("upstream", "kernel"):
            raise BadInput("patches apply to a source tree; %s has none" % spec)
        for p in self.patches:
            if not os.path.isfile(p):
                raise BadInput("patch file %s does not exist" % p)
        self.files = self._locate()
        self.id = "%s-%s" % (kind, sha(self.path, getattr(self, "variant", ""), *[file_digest([p]) for p in self.patches],
                                       file_digest([os.path.join(self.path, f)
                                                    for f in self.files])
                                       if self.files else ""))
        self.missing = []

    def _locate(self):
        """Relative paths of the LZ4 files this subject is built from."""
        if self.kind in ("ref", "system", "ref-mutant", "broken"):
            return []
        if self.kind == "upstream":
            for layout in UPSTREAM_LAYOUTS:
                d = os.path.join(self.path, layout)
                if os.path.isfile(os.path.join(d, "lz4.c")) and \
                        os.path.isfile(os.path.join(d, "lz4.h")):
                    return [os.path.normpath(os.path.join(layout, f)) for f in UPSTREAM_FILES
                            if os.path.isfile(os.path.join(d, f))]
            raise BadInput("no LZ4 sources in %s (looked for lib/lz4.c and lz4.c); "
                           "pass the top of an lz4 release tree" % self.path)
        found = [f for f in KERNEL_FILES if os.path.isfile(os.path.join(self.path, f))]
        if "include/linux/lz4.h" not in found or not any(f.endswith(".c") for f in found):
            raise BadInput("no kernel LZ4 sources in %s (need include/linux/lz4.h and "
                           "lib/lz4/*.c); pass the top of a Linux tree" % self.path)
        return found

    # ---- staging: copy + patch, never touching the user's tree ----------
    def stage(self):
        """Copy the LZ4 files to build/stage/<id>/ and apply the patches there."""
        stage = os.path.join(BUILD, "stage", self.id)
        done = os.path.join(stage, ".staged")
        if os.path.exists(done):
            return stage
        tmp = stage + ".tmp"
        shutil.rmtree(tmp, ignore_errors=True)
        for f in self.files:
            os.makedirs(os.path.dirname(os.path.join(tmp, f)), exist_ok=True)
            shutil.copy2(os.path.join(self.path, f), os.path.join(tmp, f))
        for p in self.patches:
            self._apply(p, tmp)
        shutil.rmtree(stage, ignore_errors=True)
        os.rename(tmp, stage)
        open(done, "w").close()
        return stage

    def _apply(self, patch, tree):
        # Only hunks for the files we stage: a kernel series also touches
        # crypto/, fs/... which are not built here.
        includes = []
        for f in self.files:
            includes += ["--include", f]
        if self.kind == "kernel":
            includes += ["--include", "lib/lz4/*", "--include", "include/linux/lz4.h",
                         "--include", "lib/decompress_unlz4.c"]
        # The staging copy lives inside lz4gate's own git checkout: stop git
        # from finding that repository, or it would apply paths relative to
        # its top and silently skip every file of the copy.
        env = dict(os.environ, GIT_CEILING_DIRECTORIES=os.path.dirname(tree))
        proc = subprocess.run(["git", "apply", "-p1"] + includes + [patch],
                              cwd=tree, env=env, stdout=subprocess.PIPE,
                              stderr=subprocess.STDOUT, universal_newlines=True)
        if proc.returncode != 0:
            first = (proc.stdout.strip().splitlines() or ["?"])[0]
            raise BadInput("patch %s does not apply to %s: %s" % (patch, self.spec, first))
        # New files a patch created inside the LZ4 area join the build.
        for f in KERNEL_FILES if self.kind == "kernel" else []:
            if f not in self.files and os.path.isfile(os.path.join(tree, f)):
                self.files.append(f)


# ---- probing ------------------------------------------------------------------

UPSTREAM_PROBES = [
    "LZ4_compressBound", "LZ4_decompress_safe", "LZ4_decompress_safe_partial",
    "LZ4_decompress_fast", "LZ4_decompress_safe_usingDict", "LZ4_compress_default",
    "LZ4_compress_fast", "LZ4_compress_destSize", "LZ4_compress_limitedOutput",
    "LZ4_uncompress", "LZ4_uncompress_unknownOutputSize", "LZ4_loadDict",
    "LZ4_compress_fast_continue",
]
UPSTREAM_HC_PROBES = ["LZ4_compress_HC", "LZ4_compressHC2_limitedOutput"]
FRAME_PROBES = ["LZ4F_decompress", "LZ4F_resetDecompressionContext", "LZ4F_decompress_usingDict",
                "LZ4F_compressFrame", "LZ4F_compressBegin", "LZ4F_compressBegin_usingCDict"]
KERNEL_PROBES = [
    "LZ4_decompress_safe", "LZ4_decompress_safe_partial", "LZ4_decompress_fast",
    "LZ4_decompress_safe_usingDict", "LZ4_compress_default", "LZ4_compress_fast",
    "LZ4_compress_destSize", "LZ4_compress_HC", "LZ4_loadDict",
    "LZ4_compress_fast_continue", "lz4_compress", "lz4hc_compress", "lz4_decompress",
    "lz4_decompress_unknownoutputsize",
]
# The 2017 patch set declared LZ4_compress_fast(..., void *wrkmem, int acceleration);
# mainline has (..., int acceleration, void *wrkmem). Probe the mainline order.
KERNEL_FAST_ORDER_PROBE = """
int probe(const char *s, char *d) { return LZ4_compress_fast(s, d, 1, 1, 1, (void *)0); }
"""


def compile_ok(cc, flags, source, workdir):
    path = os.path.join(workdir, "probe.c")
    with open(path, "w") as f:
        f.write(source)
    proc = subprocess.run([cc] + flags + ["-Werror", "-c", path, "-o",
                                          os.path.join(workdir, "probe.o")],
                          stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    return proc.returncode == 0


def symbol_probe(header_lines, symbol):
    return "%s\nvoid *probe_%s(void) { return (void *)&%s; }\n" % (header_lines, symbol, symbol)


# ---- building -----------------------------------------------------------------

def run_or_fail(cmd, what, cwd=None):
    proc = subprocess.run(cmd, cwd=cwd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                          universal_newlines=True, errors="replace")
    if proc.returncode != 0:
        lines = [l for l in proc.stdout.splitlines() if "error" in l] or \
            proc.stdout.splitlines() or ["(no output)"]
        raise BadInput("%s failed: %s" % (what, lines[0].strip()))
    return proc.stdout


def global_definitions(obj):
    """Names of the GLOBAL/WEAK, DEFAULT-visibility symbols obj defines."""
    out = run_or_fail(["readelf", "-sW", obj], "reading symbols of " + obj)
    names = set()
    for line in out.splitlines():
        f = line.split()
        # Num: Value Size Type Bind Vis Ndx Name
        if len(f) >= 8 and f[4] in ("GLOBAL", "WEAK") and f[5] == "DEFAULT" and f[6] != "UND":
            names.add(f[7])
    return names


class Builder:
    def __init__(self, subject, config, quiet=False):
        if config not in CONFIGS:
            raise BadInput("unknown build configuration '%s'; use one of: %s"
                           % (config, ", ".join(CONFIGS)))
        self.s = subject
        self.config = config
        self.cc, self.flags, self.bits = CONFIGS[config]
        if shutil.which(self.cc) is None:
            raise BadInput("compiler %s not found; run: make deps" % self.cc)
        self.quiet = quiet
        self.out = os.path.join(BUILD, "subj", subject.id, config)

    def say(self, msg):
        if not self.quiet:
            print("subjects: %s [%s] %s" % (self.s.spec, self.config, msg), file=sys.stderr)

    def inputs_digest(self, stage):
        # What goes into subject.o: the adapters and the ABI header (not the
        # runners, which are linked separately).
        ours = [os.path.join(HARNESS, f) for f in os.listdir(HARNESS)
                if f.startswith("adapter_") or f in ("subject.h", "production_build.h")]
        kshim = []
        for root, _, files in os.walk(os.path.join(HARNESS, "kshim")):
            kshim += [os.path.join(root, f) for f in files if f.endswith(".h")]
        refs = [os.path.join(TOP, "ref", f) for f in os.listdir(os.path.join(TOP, "ref"))]
        theirs = [os.path.join(stage, f) for f in self.s.files] if stage else []
        return sha(self.cc, self.flags, file_digest(ours + kshim + refs + theirs),
                   open(__file__, "rb").read())

    def build(self):
        """Build (or reuse) subject.o and subject_b.o; return the directory."""
        stage = self.s.stage() if self.s.files else None
        digest = self.inputs_digest(stage)
        info_path = os.path.join(self.out, "subject.json")
        if os.path.isfile(info_path):
            with open(info_path) as f:
                if json.load(f).get("digest") == digest:
                    return self.out
        shutil.rmtree(self.out, ignore_errors=True)
        os.makedirs(self.out)
        self.say("building")
        objs, link_extra, info = getattr(self, "_build_" + self.s.kind.replace("-", "_"))(stage)
        merged = os.path.join(self.out, "merged.o")
        # A partial link of our objects only: no sanitizer, coverage or fuzzer
        # flags here, or the compiler driver would pull its runtimes into the
        # object (each program links those once, itself).
        run_or_fail(["cc", "-m%d" % self.bits, "-r", "-nostdlib", "-o", merged] + objs,
                    "linking %s" % self.s.spec)
        # Make every default-visibility definition local except the entry
        # point. (Not --keep-global-symbol: it also localizes gcc -m32's
        # hidden COMDAT __x86.get_pc_thunk.* and the final link fails.)
        localize = os.path.join(self.out, "localize.txt")
        with open(localize, "w") as f:
            f.write("\n".join(global_definitions(merged) - {"lz4gate_subject"}) + "\n")
        for entry, name in (("lz4gate_subject", "subject.o"),
                            ("lz4gate_subject_b", "subject_b.o")):
            cmd = ["objcopy", "--localize-symbols=" + localize]
            if entry != "lz4gate_subject":
                cmd += ["--redefine-sym", "lz4gate_subject=" + entry]
            run_or_fail(cmd + [merged, os.path.join(self.out, name)],
                        "isolating symbols of %s" % self.s.spec)
        info.update(spec=self.s.spec, id=self.s.id, config=self.config, bits=self.bits,
                    digest=digest, link=link_extra, path=self.s.path,
                    patches=self.s.patches, files=self.s.files)
        with open(info_path, "w") as f:
            json.dump(info, f, indent=1)
        return self.out

    def compile(self, src, obj, flags):
        run_or_fail([self.cc] + self.flags + flags + ["-c", src, "-o", obj],
                    "compiling %s of %s" % (os.path.relpath(src, TOP) if src.startswith(TOP)
                                            else src, self.s.spec))
        return obj

    def subject_ubsan(self):
        return SUBJECT_UBSAN if "-fsanitize=address,undefined" in self.flags else []

    def obj(self, name):
        return os.path.join(self.out, name + ".o")

    def _build_ref(self, _stage, mutant="", entry="lz4gate_subject"):
        objs = []
        ref_flags = OUR_WARNINGS + ["-I" + os.path.join(TOP, "ref")]
        if mutant:
            ref_flags.append("-DREF_MUTANT=" + mutant)
        for f in sorted(os.listdir(os.path.join(TOP, "ref"))):
            if f.endswith(".c"):
                objs.append(self.compile(os.path.join(TOP, "ref", f), self.obj("ref_" + f[:-2]),
                                         ref_flags))
        objs.append(self.compile(os.path.join(HARNESS, "adapter_ref.c"), self.obj("adapter"),
                                 ref_flags + ["-I" + HARNESS, "-DSUBJECT_ENTRY=" + entry]))
        objs.append(self.compile(os.path.join(HARNESS, "adapter_ref_frame.c"),
                                 self.obj("adapter_frame"), ref_flags + ["-I" + HARNESS]))
        return objs, [], {"kind": self.s.kind, "variant": self.s.variant}

    def _build_ref_mutant(self, stage):
        return self._build_ref(stage, mutant=self.s.variant)

    def _build_broken(self, stage):
        objs, link, info = self._build_ref(stage, entry="lz4gate_ref_subject")
        objs.append(self.compile(os.path.join(HARNESS, "adapter_broken.c"), self.obj("broken"),
                                 OUR_WARNINGS + ["-I" + HARNESS, "-I" + os.path.join(TOP, "ref"),
                                                 "-DBROKEN=" + self.s.variant]))
        return objs, link, info

    def _probe(self, flags, header, symbols):
        found = []
        with tempfile.TemporaryDirectory() as tmp:
            for sym in symbols:
                if compile_ok(self.cc, flags, symbol_probe(header, sym), tmp):
                    found.append(sym)
        return found

    def _upstream_flags(self, incdir):
        return ["-std=gnu11", "-I" + incdir, "-DLZ4_DISABLE_DEPRECATE_WARNINGS=1"]

    def _build_upstream_like(self, incdir, sources, name):
        flags = self._upstream_flags(incdir)
        header = '#define LZ4_HC_STATIC_LINKING_ONLY 1\n#include "lz4.h"\n'
        syms = self._probe(flags, header, UPSTREAM_PROBES)
        if os.path.isfile(os.path.join(incdir, "lz4hc.h")):
            syms += self._probe(flags, header + '#include "lz4hc.h"\n', UPSTREAM_HC_PROBES)
        if "LZ4_decompress_safe" not in syms and "LZ4_uncompress_unknownOutputSize" not in syms:
            raise BadInput("%s declares no LZ4 decoder in %s/lz4.h; is this an lz4 tree?"
                           % (self.s.spec, incdir))
        frame_syms = []
        if os.path.isfile(os.path.join(incdir, "lz4frame.h")) and \
                (not sources or any(src.endswith("lz4frame.c") for src in sources)):
            frame_syms = self._probe(flags, '#define LZ4F_STATIC_LINKING_ONLY 1\n'
                                            '#include "lz4frame.h"\n', FRAME_PROBES)
        defines = ["-DHAVE_" + s.upper() for s in syms + frame_syms]
        if "LZ4F_decompress" in frame_syms or "LZ4F_compressFrame" in frame_syms:
            defines.append("-DHAVE_LZ4FRAME")
        objs = [self.compile(src, self.obj(os.path.basename(src)[:-2]),
                             flags + SUBJECT_WARNINGS + self.subject_ubsan())
                for src in sources]
        adapter_flags = OUR_WARNINGS + flags + defines + ["-I" + HARNESS,
                                                          '-DSUBJECT_NAME="%s"' % name]
        objs.append(self.compile(os.path.join(HARNESS, "adapter_upstream.c"), self.obj("adapter"),
                                 adapter_flags))
        if "-DHAVE_LZ4FRAME" in defines:
            objs.append(self.compile(os.path.join(HARNESS, "adapter_upstream_frame.c"),
                                     self.obj("adapter_frame"), adapter_flags))
        return objs, {"kind": self.s.kind, "entry_points": syms + frame_syms}

    def _build_upstream(self, stage):
        layout = os.path.dirname(self.s.files[0])
        incdir = os.path.join(stage, layout)
        sources = [os.path.join(stage, f) for f in self.s.files if f.endswith(".c")]
        objs, info = self._build_upstream_like(incdir, sources, self.s.spec)
        return objs, [], info

    def _build_system(self, _stage):
        if self.bits != 64:
            raise BadInput("the system liblz4 exists for the native 64-bit ABI only; "
                           "use a 64-bit configuration for 'system'")
        if not os.path.isfile("/usr/include/lz4.h"):
            raise BadInput("the system liblz4 headers are missing; run: make deps")
        objs, info = self._build_upstream_like("/usr/include", [], "system")
        return objs, ["-llz4"], info

    def _build_kernel(self, stage):
        from kernel_build import kernel_objects   # kernel-specific recipe
        return kernel_objects(self, stage)


def build(spec, config, patches=(), quiet=False):
    """Build (or reuse) one subject; concurrent builds of the same subject
    (parallel tests, fuzz jobs) wait for each other."""
    import fcntl
    s = Subject(spec, patches)
    builder = Builder(s, config, quiet)
    lock_dir = os.path.join(BUILD, "locks")
    os.makedirs(lock_dir, exist_ok=True)
    with open(os.path.join(lock_dir, s.id + ".lock"), "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        return builder.build()


# ---- command line -------------------------------------------------------------

HELP = """\
NAME
    subjects.py - build LZ4 implementations under test for lz4gate

SYNOPSIS
    harness/subjects.py build SPEC [--patch FILE]... [--config CONFIG]...
    harness/subjects.py info SPEC [--patch FILE]... [--config CONFIG]
    harness/subjects.py list

DESCRIPTION
    build   stage, probe and compile SPEC for each CONFIG (default asan64) and
            print the output directory (subject.o, subject_b.o, subject.json).
    info    build, then print the subject's entry points as JSON.
    list    print the default subjects and the build configurations.

SPEC
    ref | system | upstream | kernel | upstream:DIR | kernel:DIR
    (upstream and kernel alone mean the trees fetched by
    harness/fetch_subjects.py under build/subjects/).
    For testing lz4gate itself: ref-mutant:CHECK (ref with one named check
    switched off), broken:MODE (a deliberately broken adapter) and
    fixture:NAME (a synthetic tree of tests/fixtures: kernel-g1,
    kernel-g1-3.11, kernel-g1-compat, kernel-g1-srclen, kernel-g1-dstlen,
    upstream-r1xx).

OPTIONS
    --patch FILE    apply FILE (a git-style patch, -p1) to a copy of the tree in
                    build/stage/; repeatable, applied in order. The tree given
                    in SPEC is never modified.
    --config NAME   %s
    -q, --quiet     no progress lines

EXIT STATUS
    0 success; 2 bad input (unknown SPEC, missing tree, no LZ4 sources,
    patch that does not apply, subject that does not compile), with one line
    on stderr saying what and how to fix it.
""" % ", ".join(CONFIGS)


def main(argv):
    if len(argv) < 2 or argv[1] in ("-h", "--help", "help"):
        print(HELP)
        return 0 if len(argv) >= 2 else EXIT_BAD_INPUT
    ap = argparse.ArgumentParser(prog="subjects.py", add_help=False)
    ap.add_argument("command", choices=("build", "info", "list"))
    ap.add_argument("spec", nargs="?")
    ap.add_argument("--patch", action="append", default=[])
    ap.add_argument("--config", action="append", default=[])
    ap.add_argument("-q", "--quiet", action="store_true")
    try:
        args = ap.parse_intermixed_args(argv[1:])
    except SystemExit:
        return EXIT_BAD_INPUT
    if args.command == "list":
        for name, path in sorted(DEFAULT_TREES.items()):
            print("%-9s %s%s" % (name, path, "" if os.path.isdir(path) else "  (not fetched)"))
        print("ref       the reference codec\nsystem    /usr/lib liblz4")
        print("configs:  " + " ".join(CONFIGS))
        return 0
    if not args.spec:
        print("subjects.py: %s needs a SPEC; see --help" % args.command, file=sys.stderr)
        return EXIT_BAD_INPUT
    try:
        for config in args.config or ["asan64"]:
            out = build(args.spec, config, args.patch, args.quiet)
            if args.command == "build":
                print(out)
            else:
                with open(os.path.join(out, "subject.json")) as f:
                    print(f.read())
    except BadInput as e:
        print("subjects.py: %s" % e, file=sys.stderr)
        return EXIT_BAD_INPUT
    return 0


if __name__ == "__main__":
    sys.path.insert(0, HARNESS)
    sys.exit(main(sys.argv))
