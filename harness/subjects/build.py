"""Building a subject: stage, run its kind's recipe, and link the objects
into one relocatable object whose only global symbol is lz4gate_subject()
(subject.o) or lz4gate_subject_b() (subject_b.o), so that two subjects link
into one program without clashing.

The result is cached under build/subj/<id>/<config>/ and keyed on every
input: the staged sources, ref/, the adapters and the kshim, the recipe
modules (all of harness/subjects/ and the toolchain), the flags (with the
subject's --include and --define) and the compiler's version, and every
file the last build's compiles and probes read (the compiler's dependency
output: a header reached through an --include directory is one of them).
Objects come from the shared cache (harness/objcache.py).
"""
import hashlib
import json
import os
import re
import shutil
import sys

from harness import atomic, objcache, toolchain
from harness.errors import BadInput
from harness.paths import ADAPTERS, BUILD, HARNESS, KSHIM, REF
from harness.subjects.recipes import RECIPES
from harness.subjects.spec import Subject
from harness.subjects.stage import stage as stage_subject
from harness.subjects.versions import upstream_version
from harness.toolchain import BuildError, file_digest, sha

# Python modules whose logic decides what a subject build produces.
RECIPE_MODULES = [os.path.join(HARNESS, f) for f in ("toolchain.py", "objcache.py", "depfiles.py",
                                                     "probecache.py")]

# Subjects made of lz4gate's own code (ref, its mutants, the broken
# adapters): they link by construction, and the runner that links them says
# so loudly if not; the link check is for a copy's missing functions. (make
# test builds some 60 of them, each one more link.)
OUR_KINDS = ("ref", "ref-mutant", "broken")


def _files_under(top, suffixes):
    out = []
    for root, _, files in os.walk(top):
        out += [os.path.join(root, f) for f in files if f.endswith(suffixes)]
    return out


class Builder:
    """What a recipe gets: the subject (s), the configuration's compiler,
    flags and word size, and compile/probe helpers."""

    def __init__(self, subject, config, quiet=False):
        self.s = subject
        self.config = config
        self.cc, self.flags, self.bits = toolchain.config(config)
        self.quiet = quiet
        self.out = os.path.join(BUILD, "subj", subject.id, config)
        self.reads = {}         # {file: digest} of what every compile and probe read
        self.defined = None     # names the copy's own objects define, once compiled
        self.stage = None

    @property
    def user_flags(self):
        """The subject's --include directories and --define macros, as its
        own files are compiled with them (-I: the project's headers first)."""
        return ["-I" + d for d in self.s.includes] + ["-D" + d for d in self.s.defines]

    @property
    def api_flags(self):
        """The same for lz4gate's probes and adapters, which are hosted C: an
        --include directory never hides the C library from them (u-boot's
        include/ has its own stdlib.h and string.h), it only adds what the
        copy's headers include and the system lacks."""
        out = []
        for d in self.s.includes:
            out += ["-idirafter", d]
        return out + ["-D" + d for d in self.s.defines]

    def say(self, msg):
        if not self.quiet:
            print("subjects: %s [%s] %s" % (self.s.spec, self.config, msg), file=sys.stderr)

    def inputs_digest(self, stage):
        ours = _files_under(ADAPTERS, (".c", ".h")) + _files_under(KSHIM, (".h",))
        ours += _files_under(os.path.join(HARNESS, "subjects"), (".py",)) + RECIPE_MODULES
        ours += [os.path.join(REF, f) for f in os.listdir(REF)]
        theirs = [os.path.join(stage, f) for f in self.s.files] if stage else []
        if self.s.adapter:      # project:DIR: the user's adapter (its headers: self.reads)
            theirs.append(self.s.adapter)
        return sha(toolchain.compiler_id(self.cc), self.flags, self.user_flags,
                   file_digest(ours + theirs))

    def compile(self, src, name, flags):
        """One object of the subject: from the shared cache, except for gcov,
        whose counters belong next to the subject's own objects."""
        obj = os.path.join(self.out, name + ".o") if self.config == "gcov" else None
        what = "compiling %s of %s" % (os.path.basename(src), self.s.spec)
        try:
            return objcache.compile_object(self.cc, self.flags + flags, src, what, obj,
                                           self.reads, root=self.stage)
        except BuildError as e:
            if e.missing:
                raise MissingHeader(self.s, self.stage, *e.missing) from e
            raise

    def _probe_reads(self, files):
        for f in set(files):
            e = objcache.entry(f)
            self.reads[e[0]] = e[2]

    def probe(self, flags, header, symbols):
        read = []
        found = toolchain.probe_symbols(self.cc, self.flags + flags, header, symbols,
                                        self.defined, read)
        self._probe_reads(read)
        return found

    def probe_sources(self, flags, header, bodies):
        """Does each header + body compile? (toolchain.probe_sources: together)"""
        read = []
        ok = toolchain.probe_sources(self.cc, self.flags + flags, header, bodies,
                                     self.defined, read)
        self._probe_reads(read)
        return ok

    def copy_defines(self, objs):
        """From now on a probed entry point must be defined by objs (the
        copy's own objects), not only declared by a header."""
        self.defined = set()
        for o in objs:
            self.defined |= defined_names(o)

    def subject_ubsan(self):
        return toolchain.SUBJECT_UBSAN if "-fsanitize=address,undefined" in self.flags else []

    def build(self):
        """Build (or reuse) subject.o and subject_b.o; return the directory."""
        stage = self.stage = stage_subject(self.s) if self.s.files else None
        digest = self.inputs_digest(stage)
        info_path = os.path.join(self.out, "subject.json")
        if os.path.isfile(info_path):
            with open(info_path) as f:
                old = json.load(f)
            if old.get("digest") == digest and objcache.unchanged(old.get("reads", [])):
                return self.out
        shutil.rmtree(self.out, ignore_errors=True)
        os.makedirs(self.out)
        self.say("building")
        objs, link_extra, info = RECIPES[self.s.kind](self, stage)
        self._isolate(objs)
        if self.s.kind not in OUR_KINDS:
            self._link_check(link_extra)
        info.update(spec=self.s.spec, id=self.s.id, config=self.config, bits=self.bits,
                    digest=digest, link=link_extra, path=self.s.path,
                    patches=self.s.patches, files=self.s.files,
                    includes=self.s.includes, defines=self.s.defines,
                    identity=identity(self.s, stage, info.get("version", "")),
                    reads=[objcache.entry(f) for f in sorted(self.reads)
                           if os.path.isfile(f)])
        atomic.write_file(info_path, json.dumps(info, indent=1))
        return self.out

    def _link_check(self, link_extra):
        """subject.o links into a program: an undefined reference (a function
        of a file outside the copy) is reported now, naming it."""
        # (our stub without coverage counters: it lives in the shared cache)
        stub = objcache.compile_object(self.cc, [f for f in self.flags if f != "--coverage"] +
                                       toolchain.OUR_WARNINGS + ["-I" + ADAPTERS],
                                       os.path.join(ADAPTERS, "link_check.c"))
        exe = os.path.join(self.out, "link-check")
        cmd = [self.cc] + self.flags + ["-o", exe, stub, os.path.join(self.out, "subject.o")] + \
            link_extra
        what, env = "linking %s" % self.s.spec, dict(os.environ, AFL_QUIET="1")
        try:
            # lld first (make test checks some 300 links; lld takes a third
            # less time); a failure is linked again with the default linker
            # for its message: ld.bfd names file and line in the one line it
            # reports, "lz4.c:9: undefined reference to `MIN'"; lld does not.
            toolchain.run_or_fail(cmd[:1] + toolchain.linker_flags(self.cc) + cmd[1:], what,
                                  env=env)
        except BuildError:
            try:
                toolchain.run_or_fail(cmd, what, env=env)
            except BuildError as e:
                m = UNDEFINED.search(e.line)
                if m:
                    raise MissingSymbol(self.s, self.stage, m.group(3), m.group(1),
                                        m.group(2)) from e
                raise
        os.remove(exe)

    def _isolate(self, objs):
        merged = os.path.join(self.out, "merged.o")
        # A partial link of our objects only: no sanitizer, coverage or fuzzer
        # flags here, or the compiler driver would pull its runtimes into the
        # object (each program links those once, itself).
        toolchain.run_or_fail(["cc", "-m%d" % self.bits, "-r", "-nostdlib"] +
                              toolchain.linker_flags("cc") + ["-o", merged] + objs,
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
            toolchain.run_or_fail(cmd + [merged, os.path.join(self.out, name)],
                                  "isolating symbols of %s" % self.s.spec)


def identity(subject, stage, version):
    """What a subject IS, wherever its tree lies: kind and a digest of the
    LZ4 files it is built from (after its patches), or the library version
    for the system liblz4, or the spec for ref and its test variants. Known
    findings are recorded against identities (harness/findings/documented.py)."""
    if stage:
        h = hashlib.sha256()
        for f in sorted(subject.files):
            h.update(f.encode() + b"\0")
            with open(os.path.join(stage, f), "rb") as fh:
                h.update(hashlib.sha256(fh.read()).digest())
        for o in subject.options_key():         # --define, --include
            h.update(o.encode() + b"\0")
        if subject.adapter:     # a project copy is what its adapter makes of it
            with open(subject.adapter, "rb") as fh:
                h.update(b"adapter\0" + hashlib.sha256(fh.read()).digest())
            h.update(("sources\0" + ",".join(subject.sources)).encode())
        return "%s@%s" % (subject.kind, h.hexdigest()[:16])
    if subject.kind == "system":
        return "system@%s" % version
    return subject.spec


def subject_identity(spec, patches=(), includes=(), defines=()):
    """The identity of a SPEC without building it (staging only)."""
    s = Subject(spec, patches, includes, defines)
    stage = stage_subject(s) if s.files else None
    version = upstream_version("/usr/include/lz4.h") if s.kind == "system" else ""
    return identity(s, stage, version)


class MissingHeader(BadInput):
    """A header a file of the copy (or a header it reached) includes and
    nothing provides: named with its includer and the option that fixes it
    (`option`: the gate names the side, --candidate-include)."""

    def __init__(self, subject, stage, header, includer, option="--include"):
        self.subject, self.stage, self.header, self.includer = subject, stage, header, includer
        self.option = option
        super().__init__(self.message())

    def where(self):
        """The includer as the reader knows it: relative to the copy (its
        staged files), or to the tree (a header in an --include directory)."""
        path = os.path.abspath(self.includer)
        for top in ([self.stage] if self.stage else []) + [self.subject.path]:
            if top and path.startswith(top + os.sep):
                return os.path.relpath(path, top)
        return path

    def message(self, option=None):
        return "%s (%s) includes %s, which is not in the copy: pass %s DIR" % (
            self.where(), self.subject.spec, self.header, option or self.option)


# ld.bfd's one line: "/stage/lz4.c:1493: undefined reference to `name'".
UNDEFINED = re.compile(r"(/\S+?):(\d+): undefined reference to `([^']+)'")


class MissingSymbol(MissingHeader):
    """A function a file of the copy calls and no file of the copy defines
    (the project's own code: librdkafka's lz4.c allocates through
    rd_kafka_mem_malloc): named with the file and line that need it and the
    options that supply it (issue 45)."""

    def __init__(self, subject, stage, symbol, includer, line):
        self.symbol, self.line = symbol, line
        super().__init__(subject, stage, symbol, includer)

    def message(self, option=None):
        # the gate names the side: --candidate-include -> --candidate-define
        side = (option or "--include")[:-len("include")]
        return ("%s:%s (%s) calls %s, which no file of the copy defines (the project's own "
                "code): a %sdefine that selects the copy's other path (LZ4_USER_MEMORY_"
                "FUNCTIONS, XXH_INLINE_ALL, ...), or an adapter that defines it (%sadapter "
                "FILE.c with %ssources; docs/subjects.md)" % (
                    self.where(), self.line, self.subject.spec, self.symbol, side, side, side))


def defined_names(obj):
    """Every GLOBAL/WEAK symbol obj defines, whatever its visibility."""
    out = toolchain.run_or_fail(["readelf", "-sW", obj], "reading symbols of " + obj)
    return {f[7] for f in (line.split() for line in out.splitlines())
            if len(f) >= 8 and f[4] in ("GLOBAL", "WEAK") and f[6] != "UND"}


def global_definitions(obj):
    """Names of the GLOBAL/WEAK, DEFAULT-visibility symbols obj defines."""
    out = toolchain.run_or_fail(["readelf", "-sW", obj], "reading symbols of " + obj)
    names = set()
    for line in out.splitlines():
        f = line.split()
        # Num: Value Size Type Bind Vis Ndx Name
        if len(f) >= 8 and f[4] in ("GLOBAL", "WEAK") and f[5] == "DEFAULT" and f[6] != "UND":
            names.add(f[7])
    return names


def build(spec, config, patches=(), quiet=False, includes=(), defines=()):
    """Build (or reuse) one subject; return its directory. Concurrent builds
    of the same subject (parallel tests, fuzz jobs) wait for each other."""
    s = Subject(spec, patches, includes, defines)
    builder = Builder(s, config, quiet)
    with atomic.lock(s.id):
        return builder.build()


def info(subject_dir):
    """subject.json of a built subject."""
    with open(os.path.join(subject_dir, "subject.json")) as f:
        return json.load(f)


def generation(info_):
    """The API generation of a built subject (the key of every per-generation
    table: known findings, expected behaviour)."""
    kind = info_["kind"]
    gen = {"ref-mutant": "ref", "broken": "ref", "system": "upstream"}.get(kind, kind)
    entries = info_.get("entry_points", ["LZ4_decompress_safe"])
    if gen in ("kernel", "upstream") and not any(e in MODERN_API for e in entries):
        gen += "-old"   # kernel 3.11-4.10 / upstream r1xx API (adapters/subject.h)
    return gen


# Entry points of the API since upstream r129 / kernel 4.11: a copy with any
# of them (a decoder-only or a compressor-only one) is of that generation;
# one with none has the older names (adapters/subject.h GEN_*_OLD).
MODERN_API = ("LZ4_decompress_safe", "LZ4_decompress_safe_partial", "LZ4_compress_default",
              "LZ4_compress_fast", "LZ4_compress_destSize")
