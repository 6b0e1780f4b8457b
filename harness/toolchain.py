"""The toolchain: build configurations, warning sets, sanitizer options,
compile probes and the one way lz4gate runs a build command.

Every program lz4gate builds (subjects, runners, fuzz targets, the ref unit
tests' mutants) takes its compiler and flags from CONFIGS, and every process
it runs under a sanitizer takes its options from SANITIZER_ENV.
"""
import functools
import hashlib
import os
import re
import shutil
import subprocess
import tempfile
import time

from harness import atomic
from harness.errors import BadInput
from harness.probecache import Probe
from harness.paths import ADAPTERS, BUILD

SAN = ["-fsanitize=address,undefined", "-fno-sanitize-recover=all",
       "-fno-omit-frame-pointer"]
# Line tables only (as OSS-Fuzz builds): every report still names the
# function, file and line of each frame, inlined frames too, and clang
# compiles lz4.c and lz4hc.c some 20% faster than with full -g (no types
# or variables, which nothing lz4gate reports reads). gcc has no such flag.
DEBUG = "-gline-tables-only"
# name: (compiler, flags, bits)
CONFIGS = {
    "asan64": ("clang", ["-O1", DEBUG] + SAN, 64),
    "asan32": ("clang", ["-m32", "-O1", DEBUG] + SAN, 32),
    "O0": ("clang", ["-O0", DEBUG], 64),
    "O2": ("clang", ["-O2", DEBUG], 64),
    "O0-32": ("clang", ["-m32", "-O0", DEBUG], 32),
    "O2-32": ("clang", ["-m32", "-O2", DEBUG], 32),
    "gcov": ("gcc", ["-O0", "-g", "--coverage"], 64),
    "libfuzzer": ("clang", ["-O1", DEBUG, "-fsanitize=fuzzer-no-link"] + SAN, 64),
    "libfuzzer32": ("clang", ["-m32", "-O1", DEBUG, "-fsanitize=fuzzer-no-link"] + SAN, 32),
    "afl": ("afl-clang-fast", ["-O2", DEBUG] + SAN, 64),
}
# "env": the compiler and flags of the environment ($CC, $CFLAGS), as set by
# OSS-Fuzz / ClusterFuzzLite build scripts (ci/oss-fuzz/build.sh).
if os.environ.get("CC") and "CFLAGS" in os.environ:
    _env_flags = os.environ["CFLAGS"].split()
    CONFIGS["env"] = (os.environ["CC"], _env_flags, 32 if "-m32" in _env_flags else 64)
FUZZ_CONFIGS = ("libfuzzer", "libfuzzer32", "afl")
RUNNER_CONFIGS = tuple(c for c in CONFIGS if c not in FUZZ_CONFIGS)

# Programs are linked with lld where it is installed (make deps installs
# it): a sanitizer link takes about 25% less time than with ld.bfd, and
# make test links some 400 programs. Where ld.lld is absent (another
# machine, an OSS-Fuzz image) the compiler's default linker is used.
LINKER = ["-fuse-ld=lld"] if shutil.which("ld.lld") else []
LINKER_COMPILERS = ("clang", "gcc", "cc", "afl-clang-fast")


def linker_flags(cc):
    """The flags that choose the linker, for a link driven by cc."""
    return LINKER if os.path.basename(cc) in LINKER_COMPILERS else []

OUR_WARNINGS = ["-std=gnu11", "-Wall", "-Wextra", "-Werror"]
# Subject code is not ours to fix (its bugs are the point): no warnings. And
# it is built as shipped, without FUZZING_BUILD_MODE_UNSAFE_FOR_PRODUCTION
# (adapters/production_build.h says why).
SUBJECT_WARNINGS = ["-w", "-include", os.path.join(ADAPTERS, "production_build.h")]
# In subject code UBSan reports and continues: an undefined-behaviour report
# there is a finding to record (the runners collect "runtime error:" lines),
# not a reason to stop testing the subject. ASan still stops at once.
SUBJECT_UBSAN = ["-fsanitize-recover=undefined"]

# Sanitizer options by what a process is for (the only place they are set).
SANITIZER_ENV = {
    # runners (contracts, vectors, regress): a failed malloc is a result,
    # leaks are not what a runner judges.
    # symbolize=0: the report's frames are symbolized after the run, all
    # crashes of a run in one llvm-symbolizer process (harness/symbolize.py),
    # not one cold start in every crashing child.
    "runner": {"ASAN_OPTIONS": "detect_leaks=0:allocator_may_return_null=1:symbolize=0",
               "UBSAN_OPTIONS": "print_stacktrace=0",
               # guard buffers announce themselves, so a fault is told as
               # "N bytes past the end of the input" (guard.h)
               "LZ4GATE_BUFFER_MAP": "1"},
    # replaying a fuzz input (regress fuzz:TARGET tests, triage): as a runner,
    # with leak detection on, since the targets free what they allocate;
    # symbolized after the run, as the runners' reports are.
    "replay": {"ASAN_OPTIONS": "detect_leaks=1:allocator_may_return_null=1:symbolize=0",
               "UBSAN_OPTIONS": "print_stacktrace=1:symbolize=0", "LZ4GATE_BUFFER_MAP": "1"},
    # minimising or merging a corpus with libFuzzer
    "minimize": {"ASAN_OPTIONS": "detect_leaks=0:allocator_may_return_null=1",
                 "UBSAN_OPTIONS": "print_stacktrace=1"},
    # libFuzzer campaigns: libFuzzer's own defaults, with UBSan stacks
    "libfuzzer": {"UBSAN_OPTIONS": "print_stacktrace=1"},
    # AFL++ needs an abort to see a crash, and no symbolizer in the loop
    "afl": {"ASAN_OPTIONS": "abort_on_error=1:symbolize=0:detect_leaks=0:"
                            "allocator_may_return_null=1",
            "UBSAN_OPTIONS": "print_stacktrace=1"},
    # the reference codec's own unit tests
    "unit": {"ASAN_OPTIONS": "detect_leaks=1:abort_on_error=0",
             "UBSAN_OPTIONS": "print_stacktrace=1"},
}


@functools.lru_cache(maxsize=None)
def native_i386():
    """Can this machine execute 32-bit x86 programs? (A kernel without IA-32
    emulation answers ENOEXEC: lz4gate then builds 32-bit configurations
    but runs only what an emulator can, see exec_prefix.)
    LZ4GATE_NATIVE_I386=0 answers no on any machine: how a machine with
    IA-32 emulation reproduces what such a machine (a CI runner) runs."""
    if os.environ.get("LZ4GATE_NATIVE_I386") == "0":
        return False
    with tempfile.TemporaryDirectory() as tmp:
        src, exe = os.path.join(tmp, "t.c"), os.path.join(tmp, "t")
        with open(src, "w") as f:
            f.write("int main(void) { return 0; }\n")
        if subprocess.run(["gcc", "-m32", src, "-o", exe], stdout=subprocess.DEVNULL,
                          stderr=subprocess.DEVNULL).returncode != 0:
            return False
        try:
            return subprocess.run([exe]).returncode == 0
        except OSError:
            return False


SANITIZED = ("-fsanitize=address,undefined", "-fsanitize=address")
I386_EMULATOR = "qemu-i386"
NO_I386 = ("this machine cannot execute 32-bit x86 programs (its kernel runs with IA-32 "
           "emulation off), and the sanitizers' 32-bit runtimes do not run under %s"
           % I386_EMULATOR)


def exec_prefix(bits, flags=()):
    """What runs a program of this word size here: nothing, or the i386
    user-mode emulator for a 32-bit program without sanitizers on a machine
    that cannot execute it natively. None: it cannot run here."""
    if bits != 32 or native_i386():
        return []
    if any(f in SANITIZED or f.startswith("-fsanitize=address") for f in flags):
        return None
    return [I386_EMULATOR] if shutil.which(I386_EMULATOR) else None


def runnable(config):
    """Can programs of a build configuration run on this machine?"""
    _, flags, bits = CONFIGS[config]
    return exec_prefix(bits, flags) is not None


def run_argv(config, argv):
    """argv with what this machine needs to run a program of `config`;
    BadInput when it cannot run here at all."""
    _, flags, bits = CONFIGS[config]
    prefix = exec_prefix(bits, flags)
    if prefix is None:
        raise BadInput("cannot run %s programs here: %s" % (config, NO_I386))
    return prefix + list(argv)


def sanitizer_env(purpose, base=None, **extra):
    """A process environment for `purpose` (a key of SANITIZER_ENV)."""
    env = dict(os.environ if base is None else base)
    env.update(SANITIZER_ENV[purpose])
    env.update(extra)
    return env


def config(name):
    """(compiler, flags, bits) of a configuration; BadInput if unknown."""
    if name not in CONFIGS:
        raise BadInput("unknown build configuration '%s'; use one of: %s"
                       % (name, ", ".join(CONFIGS)))
    cc = CONFIGS[name][0]
    if shutil.which(cc) is None:
        raise BadInput("compiler %s not found; run: make deps" % cc)
    return CONFIGS[name]


def bits_of(name):
    return CONFIGS[name][2]


def sha(*parts):
    """A short digest of parts (bytes or anything str() can print)."""
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


# `cc --version` is a compiler start-up (90 ms for clang), which every
# lz4gate process that builds paid once (make test starts some 400). Its
# answer is kept per compiler binary, keyed on the file's identity (size,
# mtime, ctime, inode): an upgrade replaces the binary (Debian's clang and
# gcc packages depend on their libraries' exact versions, so these move
# together). Not for wrappers (afl-clang-fast), whose answer depends on the
# compiler they run.
COMPILER_IDS = os.path.join(BUILD, "toolchain", "compiler-ids")


@functools.lru_cache(maxsize=None)
def compiler_id(cc):
    """What identifies a compiler for caching: its resolved path and the
    first line of --version (a compiler upgrade changes every key)."""
    path = shutil.which(cc)
    if path is None:
        raise BadInput("compiler %s not found; run: make deps" % cc)
    real = os.path.realpath(path)
    memo = None
    if not os.path.basename(real).startswith("afl-"):
        st = os.stat(real)
        memo = os.path.join(COMPILER_IDS, sha(real, st.st_size, st.st_mtime_ns,
                                              st.st_ctime_ns, st.st_ino))
        try:
            with open(memo) as f:
                return f.read()
        except OSError:
            pass
    proc = subprocess.run([path, "--version"], stdout=subprocess.PIPE,
                          stderr=subprocess.STDOUT, universal_newlines=True,
                          errors="replace", env=dict(os.environ, AFL_QUIET="1"))
    first = (proc.stdout.strip().splitlines() or [""])[0]
    ident = "%s|%s" % (real, first)
    if memo and proc.returncode == 0:
        atomic.write_file(memo, ident)
    return ident


# The line of a failed build that matters, best first: an undefined
# reference (the linker's "in function" line before it and the driver's
# "linker command failed" after it say nothing), the compiler's first
# diagnostic error, another linker complaint; never the driver's summary.
_UNDEFINED = re.compile(r"undefined reference to|undefined symbol:")
_DIAGNOSTIC = re.compile(r":\d+(:\d+)?: (fatal )?error: |^[^:\s]*: (fatal )?error: ")
_LINKER = re.compile(r"(^|/)(ld|ld\.lld|ld\.gold|ld\.bfd)(\.\w+)?: ")
_SUMMARY = re.compile(r"(clang|gcc|cc|collect2|clang-\d+)(\.\w+)?: error: (linker command "
                      r"failed|ld returned)|^\d+ errors? generated")


def first_error(output):
    """The line of a build's output that says why it failed, verbatim."""
    lines = [l.strip() for l in output.splitlines() if l.strip()]
    useful = [l for l in lines if not _SUMMARY.search(l)]
    for pick in (lambda l: _UNDEFINED.search(l), lambda l: _DIAGNOSTIC.search(l),
                 lambda l: _LINKER.search(l) and "in function" not in l,
                 lambda l: "error" in l):
        found = [l for l in useful if pick(l)]
        if found:
            return found[0]
    return (lines or ["(no output)"])[0]


# A header the compiler could not find: clang's and gcc's words.
MISSING_HEADER = re.compile(r"^(.*?):\d+:\d+: fatal error: (?:'([^']+)' file not found|"
                            r"([^:]+): No such file or directory)")


class BuildError(BadInput):
    """A compile or link that failed: what was built, the line that matters
    (first_error) and, when a header was not found, (header, includer)."""

    def __init__(self, what, output):
        self.what, self.line = what, first_error(output)
        m = MISSING_HEADER.match(self.line)
        self.missing = (m.group(2) or m.group(3), m.group(1)) if m else None
        super().__init__("%s failed: %s" % (what, self.line))


def run_or_fail(cmd, what, cwd=None, env=None):
    """Run a build command; BuildError with the line that matters if it fails."""
    proc = subprocess.run(cmd, cwd=cwd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                          universal_newlines=True, errors="replace", env=env)
    if proc.returncode != 0:
        raise BuildError(what, proc.stdout)
    return proc.stdout


def read_depfile(path):
    """The files a compile read, from its -MD -MF dependency file."""
    with open(path) as f:
        body = f.read().replace("\\\n", " ")
    out, cur = [], ""
    for tok in body.partition(":")[2].split():
        if tok.endswith("\\"):          # an escaped space inside a path
            cur += tok[:-1] + " "
            continue
        out.append(cur + tok)
        cur = ""
    return out


def undefined_names(obj):
    """The symbols an object uses and does not define, without the reserved
    names (__asan_*, __gcov_*, _GLOBAL_OFFSET_TABLE_, ...) that sanitizer,
    coverage and PIC code generation add."""
    out = subprocess.run(["nm", "-u", "--format=posix", obj], stdout=subprocess.PIPE,
                         universal_newlines=True, check=True).stdout
    return {l.split()[0] for l in out.splitlines()
            if l.strip() and not l.startswith(("__", "_GLOBAL_OFFSET_TABLE_"))}


def log_build(kind, name, flags, started):
    """With LZ4GATE_BUILD_LOG=FILE, one line per compile or link:
    seconds, kind, file, flags (how a run's build time is measured)."""
    path = os.environ.get("LZ4GATE_BUILD_LOG")
    if path:
        with open(path, "a") as f:
            f.write("%.3f\t%s\t%s\t%s\n" % (time.time() - started, kind, name, " ".join(flags)))


def _compile_probe(cc, flags, source, workdir, reads):
    """Compile a probe program (warnings as errors): (ok, stderr, object),
    from the probe cache (harness/probecache.py) when the same probe of the
    same files ran before."""
    cached = Probe(compiler_id(cc), flags, source)
    hit = cached.look()
    if hit:
        if reads is not None:
            reads.extend(hit[3])
        return hit[:3]
    path = os.path.join(workdir, "probe.c")
    obj, dep = os.path.join(workdir, "probe.o"), os.path.join(workdir, "probe.d")
    with open(path, "w") as f:
        f.write(source)
    for stale in (obj, dep):         # the workdir's last probe's
        if os.path.exists(stale):
            os.remove(stale)
    started = time.time()
    proc = subprocess.run([cc] + flags + ["-Werror", "-c", path, "-o", obj, "-MD", "-MF", dep],
                          stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                          universal_newlines=True, errors="replace")
    log_build("probe", source.splitlines()[-1][:60], [cc] + flags, started)
    # Without a dependency file (a compiler that died early) nothing is
    # known of what it read: not cached.
    deps = [f for f in read_depfile(dep) if f != path] if os.path.isfile(dep) else None
    if reads is not None and deps:
        reads.extend(deps)
    ok = proc.returncode == 0
    if deps is None:
        return ok, proc.stderr, obj
    return ok, proc.stderr, cached.keep(ok, proc.stderr, obj, deps)


def compile_ok(cc, flags, source, workdir, defined=None, reads=None):
    """Does `source` compile (warnings as errors) with cc and flags? With
    `defined` (the names a copy's objects define), it must also use no name
    of its own outside that set: a header may declare what the copy's .c
    files do not have. reads: a list the files the compile read are added to."""
    ok, _, obj = _compile_probe(cc, flags, source, workdir, reads)
    return ok and (defined is None or undefined_names(obj) <= defined)


def symbol_probe(header_lines, symbols):
    return header_lines + "\n" + "".join(
        "void *probe_%s(void) { return (void *)&%s; }\n" % (s, s) for s in symbols)


def _failing_symbols(cc, flags, header, symbols, workdir, defined, reads):
    """One compile of every symbol's probe: the set of symbols that fail
    (empty: all probe), or None when a failure names no probe line (the
    header itself, say), and so cannot be told apart."""
    ok, stderr, obj = _compile_probe(cc, flags, symbol_probe(header, symbols), workdir, reads)
    first = header.count("\n") + 2          # the first probe's line (symbol_probe)
    if not ok:
        bad = set()
        for m in re.finditer(r"^.*?probe\.c:(\d+):\d+: (?:fatal )?error:", stderr, re.M):
            k = int(m.group(1)) - first
            if not 0 <= k < len(symbols):
                return None
            bad.add(symbols[k])
        return bad or None
    if defined is None:
        return set()
    # a probe uses its symbol and nothing else of the copy's
    missing = undefined_names(obj) - defined
    bad = {s for s in symbols if s in missing}
    return bad if bad or not missing else None


def _probe_together(items, failing, alone):
    """The items that probe: all compiled together, failing(todo) naming
    those the compiler's errors fall in (None: the errors cannot be told
    apart); the named ones are dropped and the rest compiled together again
    (up to 4 rounds); what is left then is probed alone(item), one by one."""
    todo, found = list(items), set()
    for _ in range(4):
        if not todo:
            break
        bad = failing(todo)
        if bad is None:
            break
        if not bad:
            found.update(todo)
            todo = []
            break
        todo = [x for x in todo if x not in bad]
    found.update(x for x in todo if alone(x))
    return found


def probe_symbols(cc, flags, header, symbols, defined=None, reads=None):
    """The symbols of `symbols` that `header` declares and, with `defined`,
    that the copy defines (compile_ok). All are probed in one compile; the
    symbols the compiler's errors name (each probe has its own line) are
    dropped and the rest compiled again, so a copy costs two or three
    compiles, not one per symbol. Where an error cannot be told to a
    symbol, the rest are probed one by one."""
    with tempfile.TemporaryDirectory() as tmp:
        found = _probe_together(
            list(dict.fromkeys(symbols)),
            lambda todo: _failing_symbols(cc, flags, header, todo, tmp, defined, reads),
            lambda sym: compile_ok(cc, flags, symbol_probe(header, [sym]), tmp, defined, reads))
    return [s for s in symbols if s in found]


def probe_source(cc, flags, source, defined=None, reads=None):
    """Does a probe program compile? (signatures, argument orders, members)"""
    with tempfile.TemporaryDirectory() as tmp:
        return compile_ok(cc, flags, source, tmp, defined, reads)


def source_probe_unit(header, bodies):
    """One program of every body after header, each body's `probe` renamed
    (#define) so that they do not clash: (text, the line range of each body)."""
    text, ranges = header, []
    for i, body in enumerate(bodies):
        body = body if body.endswith("\n") else body + "\n"
        text += "#define probe lz4gate_probe_%d\n" % i
        first = text.count("\n") + 1
        text += body + "#undef probe\n"
        ranges.append((first, first + body.count("\n") - 1))
    return text, ranges


def _failing_bodies(cc, flags, header, bodies, workdir, defined, reads):
    """As _failing_symbols, for probe bodies: the indexes of the bodies the
    compiler's errors fall in, or None when an error (or, with `defined`, a
    name the copy lacks) cannot be told to a body."""
    text, ranges = source_probe_unit(header, bodies)
    ok, stderr, obj = _compile_probe(cc, flags, text, workdir, reads)
    if ok:
        return set() if defined is None or undefined_names(obj) <= defined else None
    bad = set()
    for m in re.finditer(r"^.*?probe\.c:(\d+):\d+: (?:fatal )?error:", stderr, re.M):
        line = int(m.group(1))
        hit = [k for k, (first, last) in enumerate(ranges) if first <= line <= last]
        if not hit:
            return None
        bad.add(hit[0])
    return bad or None


def probe_sources(cc, flags, header, bodies, defined=None, reads=None):
    """[probe_source(header + body) for body in bodies], in one compile of
    them all where they compile (a Linux tree's twelve probes cost 2.6 s of
    compiler start-ups each time a configuration of it was built): the
    bodies the errors fall in fail, the rest are compiled again together,
    and whatever cannot be told apart is probed one by one."""
    def failing(todo):
        bad = _failing_bodies(cc, flags, header, [bodies[i] for i in todo], tmp, defined, reads)
        return bad if bad is None else {todo[k] for k in bad}
    with tempfile.TemporaryDirectory() as tmp:
        good = _probe_together(
            range(len(bodies)), failing,
            lambda i: compile_ok(cc, flags, header + bodies[i], tmp, defined, reads))
    return [i in good for i in range(len(bodies))]
