"""Build caches are keyed on every input (harness/objcache.py, the subject
digest in harness/subjects/build.py): a header, a recipe module or a flag
that changes makes a rebuild; nothing else does."""
import os
import shutil
import subprocess
import sys

import pytest

from conftest import TOP
from harness import objcache


@pytest.mark.check
def test_object_cache_keys_on_included_headers_and_flags(tmp_path):
    (tmp_path / "h.h").write_text("#define VALUE 1\n")
    src = tmp_path / "s.c"
    src.write_text('#include "h.h"\nint value(void) { return VALUE; }\n')
    flags = ["-O1", "-I" + str(tmp_path)]
    first = objcache.compile_object("cc", flags, str(src))
    assert objcache.compile_object("cc", flags, str(src)) == first          # a hit
    (tmp_path / "h.h").write_text("#define VALUE 2\n")
    second = objcache.compile_object("cc", flags, str(src))
    assert second != first                                                   # header edit
    assert objcache.compile_object("cc", ["-O2"] + flags[1:], str(src)) != second   # flags
    # Every flag is in the key, a -D too (the text is not preprocessed
    # first: harness/objcache.py says why).
    assert objcache.compile_object("cc", flags + ["-DUNUSED=1"], str(src)) != second


STAGED_SOURCE = """#include <assert.h>
#include "h.h"
static const char where[] = __FILE__;
int table[VALUE];
int value(int i) { assert(i >= 0); return table[i] + where[0]; }
"""


def staged_copy(top, value=4, extra=""):
    (top / "lib").mkdir(parents=True)
    (top / "lib" / "h.h").write_text("#define VALUE %d\n" % value)
    (top / "lib" / "s.c").write_text(STAGED_SOURCE + extra)
    return str(top), str(top / "lib" / "s.c")


@pytest.mark.check
@pytest.mark.parametrize("cc", ["clang", "gcc"])
def test_a_staged_copy_elsewhere_reuses_the_object_with_its_own_paths(tmp_path, monkeypatch, cc):
    # Two stage directories of one length with the same bytes: with clang
    # the second compile is a hit, and the object it gets is byte for byte
    # what compiling in its own directory makes (its paths in the debug
    # information, __FILE__ and ASan's global metadata). gcc's objects
    # differ by more than the path: it compiles each copy.
    compiles = []
    real_run = objcache._run_compile
    monkeypatch.setattr(objcache, "_run_compile",
                        lambda *a, **k: compiles.append(a[2]) or real_run(*a, **k))
    flags = ["-O1", "-g", "-fsanitize=address"]
    first, second, changed = (staged_copy(tmp_path / n, v) for n, v in
                              (("copy-aaaa", 4), ("copy-bbbb", 4), ("copy-cccc", 5)))
    inc = lambda root: ["-I%s/lib" % root]
    obj_a = objcache.compile_object(cc, flags + inc(first[0]), first[1], root=first[0])
    reads = {}
    obj_b = objcache.compile_object(cc, flags + inc(second[0]), second[1], root=second[0],
                                    reads=reads)
    assert compiles == ([first[1]] if cc == "clang" else [first[1], second[1]])
    assert obj_a != obj_b and set(reads) >= {second[1], second[0] + "/lib/h.h"}
    fresh = str(tmp_path / "fresh.o")
    real_run(cc, flags + inc(second[0]), second[1], fresh, "x",
             cwd=second[0] if cc == "clang" else None)
    with open(obj_b, "rb") as f, open(fresh, "rb") as g:
        data = f.read()
        assert data == g.read()
    assert second[0].encode() in data and first[0].encode() not in data
    # A copy whose header differs is compiled (the key has every file read).
    objcache.compile_object(cc, flags + inc(changed[0]), changed[1], root=changed[0])
    assert compiles[-1] == changed[1] and len(compiles) == (2 if cc == "clang" else 3)


@pytest.mark.check
def test_an_object_holding_the_mark_itself_stays_where_it_was_compiled(tmp_path):
    # The stored object writes its root as a run of '@' as long as the
    # root; a source that has such a run of its own is compiled as an
    # ordinary object, keyed on its real paths.
    root, src = staged_copy(tmp_path / "copy-aaaa",
                            extra='const char at[] = "%s";\n' % ("@" * len(str(tmp_path / "copy-aaaa"))))
    obj = objcache.compile_object("clang", ["-O1", "-I%s/lib" % root], src, root=root)
    assert obj == objcache.compile_object("clang", ["-O1", "-I%s/lib" % root], src)


# (run with the repository as the working directory: python -c imports from it)
COMPILE_IN_A_PROCESS = """
import sys
from harness import objcache
print(objcache.compile_object(sys.argv[1], ["-O1"], sys.argv[2]))
"""


def test_two_processes_wanting_one_object_compile_it_once(tmp_path):
    # Parallel test workers and gates want the same objects at the same
    # time; one compiles, the other waits and takes its object (make test
    # compiled 264 objects twice before the lock). A compiler that takes a
    # second makes the two misses overlap.
    slow_cc = tmp_path / "slow-cc"
    slow_cc.write_text('#!/bin/sh\nsleep 1\nexec cc "$@"\n')
    slow_cc.chmod(0o755)
    src = tmp_path / "s.c"
    src.write_text("int value(void) { return %d; }\n" % os.getpid())
    log = tmp_path / "build.log"
    env = dict(os.environ, LZ4GATE_BUILD_LOG=str(log))
    procs = [subprocess.Popen([sys.executable, "-c", COMPILE_IN_A_PROCESS, str(slow_cc), str(src)],
                              cwd=TOP, stdout=subprocess.PIPE, universal_newlines=True, env=env)
             for _ in range(2)]
    objects = {p.communicate(timeout=120)[0].strip() for p in procs}
    assert all(p.returncode == 0 for p in procs)
    assert len(objects) == 1
    compiles = [l for l in log.read_text().splitlines() if l.split("\t")[1] == "compile"]
    assert len(compiles) == 1, compiles


def copy_of_the_harness(tmp_path):
    top = tmp_path / "lz4gate"
    for d in ("harness", "ref", os.path.join("corpus", "vectors")):
        shutil.copytree(os.path.join(TOP, d), str(top / d),
                        ignore=shutil.ignore_patterns("__pycache__"))
    return top


def harness_in(top, *args):
    return subprocess.run([sys.executable, "-m", "harness"] + list(args), cwd=str(top),
                          stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                          universal_newlines=True, timeout=600)


def append(path, text):
    with open(str(path), "a") as f:
        f.write(text)


def test_a_header_edit_and_a_recipe_edit_rebuild(tmp_path):
    top = copy_of_the_harness(tmp_path)
    build = ("subjects", "build", "ref", "--config", "O0")
    first = harness_in(top, *build)
    assert first.returncode == 0 and "building" in first.stderr, first.stderr
    again = harness_in(top, *build)
    assert again.returncode == 0 and "building" not in again.stderr, again.stderr
    objects = {p.name for p in (top / "build" / "obj").rglob("*.o")}
    # (a declaration, not a comment: the test is about the objects rebuilt,
    # and a later key may again come from the preprocessed text)
    append(top / "ref" / "lz4ref.h", "extern int lz4gate_test_edit;\n")
    header = harness_in(top, *build)
    assert "building" in header.stderr, header.stderr
    # new objects, not only a relink
    assert {p.name for p in (top / "build" / "obj").rglob("*.o")} - objects
    append(top / "harness" / "subjects" / "recipes" / "ref.py", "# edited by a test\n")
    recipe = harness_in(top, *build)
    assert "building" in recipe.stderr, recipe.stderr
    # A runner relinks when a header of ours changes (not only a .c file).
    check = ("contracts", "ref", "--config", "O0", "--check", "compress_bound*", "-q")
    assert harness_in(top, *check).returncode == 0
    runner_key = top / "build" / "subj"
    keys = {str(p): p.read_text() for p in runner_key.rglob("contracts.key")}
    append(top / "harness" / "runners" / "common" / "guard.h", "extern int lz4gate_test_edit;\n")
    assert harness_in(top, *check).returncode == 0
    after = {str(p): p.read_text() for p in runner_key.rglob("contracts.key")}
    assert keys and after and keys != after


@pytest.mark.check
def test_object_cache_reports_every_file_the_compile_read(tmp_path):
    # A header reached through -I only, and the -include'd one: both are in
    # what the compile read (the compiler's -MD output) and in the key.
    inc = tmp_path / "inc"
    inc.mkdir()
    (inc / "cfg.h").write_text("#define VALUE 1\n")
    (tmp_path / "forced.h").write_text("#define FORCED 1\n")
    src = tmp_path / "s.c"
    src.write_text('#include <cfg.h>\nint value(void) { return VALUE + FORCED; }\n')
    flags = ["-O1", "-I" + str(inc), "-include", str(tmp_path / "forced.h")]
    reads = {}
    first = objcache.compile_object("cc", flags, str(src), reads=reads)
    assert {str(inc / "cfg.h"), str(tmp_path / "forced.h"), str(src)} <= set(reads)
    again = {}
    assert objcache.compile_object("cc", flags, str(src), reads=again) == first
    assert again == reads                       # a hit reports the same files
    (inc / "cfg.h").write_text("#define VALUE 2\n")
    assert objcache.compile_object("cc", flags, str(src)) != first


def test_a_header_edit_behind_an_include_dir_rebuilds_the_subject(tmp_path):
    from partial_trees import make_copy
    top = make_copy(tmp_path / "copy", decoder=False, compressor=True)
    header = os.path.join(top, "include", "testlz4", "lz4.h")
    spec = "upstream:%s/lib" % top
    build = ("subjects", "build", spec, "--include", "../include", "--config", "O0")
    check = ("contracts", "--config", "O0", "-q", spec, "--include", "../include",
             "--check", "compress_bound*")
    first = harness_in(TOP, *build)
    assert first.returncode == 0 and "building" in first.stderr, first.stderr
    assert harness_in(TOP, *check).returncode == 0
    again = harness_in(TOP, *build)                       # nothing changed: a hit
    assert again.returncode == 0 and "building" not in again.stderr, again.stderr
    # The header is no file of the copy and not in lz4gate: only what the
    # compiler read says the subject depends on it.
    with open(header) as f:
        text = f.read()
    with open(header, "w") as f:
        f.write(text.replace("#define TESTLZ4_BOUND_MARGIN 16", "#define TESTLZ4_BOUND_MARGIN 0"))
    edited = harness_in(TOP, *build)
    assert edited.returncode == 0 and "building" in edited.stderr, edited.stderr
    proc = harness_in(TOP, *check)
    assert proc.returncode == 1 and "want 16" in proc.stdout, proc.stdout + proc.stderr


def test_a_compilers_identity_is_kept_until_its_binary_changes(tmp_path, monkeypatch):
    # toolchain.compiler_id keeps `cc --version` per binary: asked again,
    # the binary is not run; a new binary (an upgrade) is; and a wrapper
    # (afl-*) is always asked, since its answer is its compiler's.
    from harness import toolchain
    monkeypatch.setattr(toolchain, "COMPILER_IDS", str(tmp_path / "ids"))
    runs = tmp_path / "runs"
    bindir = tmp_path / "bin"
    bindir.mkdir()
    monkeypatch.setenv("PATH", str(bindir) + os.pathsep + os.environ["PATH"])

    def install(name, version):
        script = bindir / name
        script.write_text("#!/bin/sh\necho run >> %s\necho '%s'\n" % (runs, version))
        script.chmod(0o755)

    def ident(name):
        toolchain.compiler_id.cache_clear()
        return toolchain.compiler_id(name).split("|", 1)[1]

    def run_count():
        return len(runs.read_text().splitlines()) if runs.exists() else 0

    install("fakecc", "fakecc 1.0")
    assert ident("fakecc") == "fakecc 1.0" and run_count() == 1
    assert ident("fakecc") == "fakecc 1.0" and run_count() == 1      # kept
    install("fakecc", "fakecc 2.0 (upgraded)")
    assert ident("fakecc") == "fakecc 2.0 (upgraded)" and run_count() == 2
    install("afl-fakecc", "afl 1")
    ident("afl-fakecc")
    ident("afl-fakecc")
    assert run_count() == 4
    toolchain.compiler_id.cache_clear()


@pytest.mark.check
def test_a_probe_of_the_same_headers_in_another_stage_directory_is_not_compiled_again(
        tmp_path, monkeypatch):
    # harness/probecache.py: stage directories of equal copies share their
    # probes; a header that differs is probed anew, and a name it adds is
    # found.
    from harness import toolchain
    from harness.paths import BUILD
    log = tmp_path / "build.log"
    monkeypatch.setenv("LZ4GATE_BUILD_LOG", str(log))
    tag = "probetest-%d-%s" % (os.getpid(), tmp_path.name[-6:].replace("/", "_"))
    roots = [os.path.join(BUILD, "stage", "%s-%s" % (tag, x)) for x in "abc"]
    try:
        for root, extra in zip(roots, ("", "", "int lz4gate_later(int);\n")):
            os.makedirs(os.path.join(root, "lib"))
            with open(os.path.join(root, "lib", "h.h"), "w") as f:
                # (the tag: no earlier run's probe of these bytes is cached)
                f.write("/* %s */\nint lz4gate_present(int);\n%s" % (tag, extra))
        probes = lambda: [l for l in log.read_text().splitlines()
                          if l.split("\t")[1] == "probe"] if log.exists() else []

        def probe(root):
            reads = []
            found = toolchain.probe_symbols("clang", ["-I%s/lib" % root], '#include "h.h"\n',
                                            ["lz4gate_present", "lz4gate_later"], None, reads)
            return found, reads

        found, reads = probe(roots[0])
        assert found == ["lz4gate_present"] and roots[0] + "/lib/h.h" in reads
        compiled = len(probes())
        assert compiled >= 2                       # together, then without the failing one
        found, reads = probe(roots[1])
        assert found == ["lz4gate_present"] and roots[1] + "/lib/h.h" in reads
        assert len(probes()) == compiled           # every one from the cache
        assert probe(roots[2])[0] == ["lz4gate_present", "lz4gate_later"]
        assert len(probes()) > compiled
    finally:
        for root in roots:
            shutil.rmtree(root, ignore_errors=True)
