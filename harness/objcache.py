"""The object cache every C build of lz4gate goes through.

An object is keyed on everything that decides its bytes: the compiler (path
and version), every flag, and every file the compile read (the compiler's
own dependency output, -MD -MF: the source, headers reached through -I
directories and -include, system headers), by path and digest. The same
source compiled with the same flags for two subjects, runners or fuzz
targets is compiled once, in any process (build/obj/, shared across
configurations, runners and fuzz targets).

A manifest per (compiler, flags, source file) records those files with
their size, mtime and digest ("direct mode"): when none of them changed, the
object is the one the manifest names, and nothing runs. On a miss the source
is compiled at once (with -MD), and the object stored under the key its
dependencies make. (Keys used to be made from the preprocessed text, so that
a -D a file never reads shared its object; measured on make test, the extra
preprocessor run cost more than the compiles it saved: 266 s against 108 s.)
Editing any of those files, a flag (-I, -D: a subject's --include and
--define) or the compiler makes a new key. A caller passing `reads` (a dict)
gets {file: digest} of everything the compile read: the subject build keys
its own cache on it (harness/subjects/build.py).

A subject's files are compiled in its staged copy, build/stage/<id>/, and
the id changes with any file of the copy: a mutant of lz4.c (make mutate), a
regression case's reverted fix, or Linux 6.1 next to 6.12 leaves most files
as they were, in another directory. Those compiles pass root=<stage>: the
compiler runs in root, so the object names root only as itself (never
relative to the working directory), and root is a token in keys and
manifests and a same-length run of '@' in the stored object. Another copy
with the same bytes gets that object with its own root written back,
byte for byte what compiling there makes (tests/test_cache.py). make test
compiled the same bytes in another stage directory 149 times, 114 CPU s.
"""
import hashlib
import json
import os
import re
import shutil
import subprocess
import time

from harness import atomic, toolchain
from harness.depfiles import _file_sig, entry, unchanged   # noqa: F401 (callers use objcache's)
from harness.paths import BUILD, shown
from harness.toolchain import BuildError, compiler_id, read_depfile

CACHE = os.path.join(BUILD, "obj")
def _digest(data):
    return hashlib.sha256(data).hexdigest()


class Root:
    """Paths under a relocatable root as the token {root} (keys, manifests)
    and the object's bytes with root as a same-length run of '@'."""
    TOKEN = "{root}"

    def __init__(self, root):
        self.path = os.path.abspath(root)
        self._under = re.compile(re.escape(self.path) + r"(?=/|$)")
        self.mark = b"@" * len(self.path)
        self.id = "root:%d" % len(self.path)     # the mark's length is in the key

    def norm(self, text):
        return self._under.sub(self.TOKEN, text)

    def expand(self, text):
        return text.replace(self.TOKEN, self.path)

    def unplace(self, data):
        return data.replace(self.path.encode(), self.mark)

    def place(self, data):
        return data.replace(self.mark, self.path.encode())


def relocatable(cc):
    """Does cc write a path into an object only as the path's bytes? clang
    does; gcc orders its string tables by a hash of the strings, so its
    object in another directory differs by more than the path (and afl's
    compilers or $CC are other programs again): those compile per copy."""
    path = shutil.which(cc)
    return bool(path) and os.path.basename(os.path.realpath(path)).startswith("clang")


class Fixed:
    """The identity of an ordinary compile: paths are what they are."""
    id = "fixed"
    path = None

    def norm(self, text):
        return text

    expand = norm


def _manifest_path(cc, flags, src, where=Fixed()):
    with open(src, "rb") as f:
        src_digest = _digest(f.read())
    key = _digest("\0".join([compiler_id(cc), "\0".join(map(where.norm, flags)),
                             where.norm(os.path.abspath(src)), src_digest]
                            + ([] if where.id == "fixed" else [where.id])).encode())
    return os.path.join(CACHE, "manifests", key[:2], key + ".json")


def _from_manifest(path, where):
    """(object key, dependency entries) a manifest names, if none of its
    inputs changed."""
    try:
        with open(path) as f:
            m = json.load(f)
    except (OSError, ValueError):
        return None, None
    deps = [[where.expand(p), sig, digest] for p, sig, digest in m["deps"]]
    if not unchanged(deps):
        return None, None
    return m["key"], deps


def compile_object(cc, flags, src, what=None, obj=None, reads=None, root=None):
    """Compile src with cc and flags; return the object's path.

    With obj=None the object lives in the shared cache. A caller that needs
    the object at a place of its own (gcov: the counters go next to the
    object) passes obj, and the compile always runs. reads (a dict): the
    files the compile read are added to it, {path: digest}. root: a staged
    copy the compile may be moved out of (the module's docstring)."""
    what = what or "compiling %s" % shown(src)
    if obj is not None:
        os.makedirs(os.path.dirname(obj), exist_ok=True)
        deps = _run_compile(cc, flags, src, obj, what, reads is not None)
        if reads is not None:
            reads.update((e[0], e[2]) for e in map(entry, deps))
        return obj
    where = Root(root) if root and relocatable(cc) else Fixed()
    manifest = _manifest_path(cc, flags, src, where)
    hit = _cached(manifest, reads, where)
    if hit:
        return hit
    # A miss: one process compiles, and another that wants the same object
    # meanwhile (parallel test workers, two gates) waits for it and reads
    # the manifest it wrote (make test compiled 264 objects twice, 123 s,
    # before this lock).
    os.makedirs(os.path.dirname(manifest), exist_ok=True)
    with atomic.lock(path=manifest + ".lock"):
        return (_cached(manifest, reads, where) or
                _compile_miss(cc, flags, src, what, manifest, reads, where))


def _cached(manifest, reads, where):
    """The object a manifest names, when its inputs are unchanged."""
    key, entries = _from_manifest(manifest, where)
    if key is None or not os.path.exists(_object_path(key)):
        return None
    if reads is not None:
        reads.update((e[0], e[2]) for e in entries)
    return _placed(key, where)


def _placed(key, where, data=None):
    """The object of key for this compile: the stored one, or for a root a
    copy with the root written back (made once per root)."""
    if where.path is None:
        return _object_path(key)
    out = _object_path(key, _digest(where.path.encode())[:16])
    if not os.path.exists(out):
        if data is None:
            with open(_object_path(key), "rb") as f:
                data = where.place(f.read())
        atomic.write_file(out, data)
    return out


def _compile_miss(cc, flags, src, what, manifest, reads, where):
    """Compile now, to a private name, learning what the compile read; the
    object then goes under the key those files make."""
    os.makedirs(os.path.join(CACHE, "tmp"), exist_ok=True)
    tmp = atomic.tmp_name(os.path.join(CACHE, "tmp", "obj")) + ".o"
    try:
        deps = _run_compile(cc, flags, src, tmp, what, deps=True, cwd=where.path)
        entries = [entry(d) for d in deps]
        stored = [[where.norm(p), sig, digest] for p, sig, digest in entries]
        key = _digest(b"\0".join([compiler_id(cc).encode(),
                                  "\0".join(map(where.norm, flags)).encode(),
                                  where.id.encode()] +
                                 [("%s:%s" % (e[0], e[2])).encode() for e in sorted(stored)]))
        with open(tmp, "rb") as f:
            data = f.read()
        if where.path is not None and where.mark in data:
            # The object has our mark of its own: it cannot be moved; it
            # is compiled again as an ordinary, fixed-path one.
            os.remove(tmp)
            return compile_object(cc, flags, src, what, None, reads)
        out = _object_path(key)
        os.makedirs(os.path.dirname(out), exist_ok=True)
        if where.path is None:
            os.replace(tmp, out)
        else:
            atomic.write_file(out, where.unplace(data))
            out = _placed(key, where, data)
    finally:
        if os.path.exists(tmp):
            os.remove(tmp)
    atomic.write_file(manifest, json.dumps({"key": key, "deps": stored}))
    if reads is not None:
        reads.update((e[0], e[2]) for e in entries)
    return out


def _object_path(key, placed=None):
    return os.path.join(CACHE, key[:2], key + ("." + placed if placed else "") + ".o")


def _run_compile(cc, flags, src, obj, what, deps=False, cwd=None):
    """Compile; with deps, return the files the compile read (-MD -MF). cwd:
    where the compiler runs (a root: harness/objcache.py's docstring)."""
    dep = obj + ".d"
    started = time.time()
    proc = subprocess.run([cc] + flags + ["-c", src, "-o", obj] +
                          (["-MD", "-MF", dep] if deps else []), stdout=subprocess.PIPE,
                          stderr=subprocess.STDOUT, universal_newlines=True, errors="replace",
                          env=dict(os.environ, AFL_QUIET="1"), cwd=cwd)
    toolchain.log_build("compile", src, [cc] + flags, started)
    if proc.returncode != 0:
        raise BuildError(what, proc.stdout)
    if not deps:
        return []
    try:
        out = read_depfile(dep)
        os.remove(dep)
    except OSError:
        out = [src]
    return [os.path.join(cwd, p) for p in out] if cwd else out


def link_key(*parts):
    """A digest of what a link reads (object paths are content keys)."""
    return _digest("\0".join(str(p) for p in parts).encode())[:16]


def link_program(cc, flags, objects, out, what, libs=(), env=None):
    """Link objects into out, unless out was linked from exactly these
    inputs before (a stamp beside it records the key)."""
    flags = list(flags) + toolchain.linker_flags(cc)
    sig = []
    for o in objects:
        # Cached objects are named by their content; others by their bytes.
        sig.append(o if o.startswith(CACHE + os.sep) else "%s:%s" % (o, _file_sig(o)))
    key = link_key(compiler_id(cc), flags, sig, list(libs))
    # Under a lock beside out: the stamp always describes the binary next to
    # it, and concurrent builders of one program link it once. The program
    # is linked to a private name and renamed into place, so a process
    # executing out meanwhile runs a whole file (never one being written).
    os.makedirs(os.path.dirname(out), exist_ok=True)
    with atomic.lock(path=out + ".lock"):
        stamp = out + ".key"
        try:
            with open(stamp) as f:
                if f.read() == key and os.path.exists(out):
                    return out
        except OSError:
            pass
        tmp = atomic.tmp_name(out)
        started = time.time()
        proc = subprocess.run([cc] + flags + ["-o", tmp] + list(objects) + list(libs),
                              stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                              universal_newlines=True, errors="replace",
                              env=env or dict(os.environ, AFL_QUIET="1"))
        toolchain.log_build("link", out, [cc] + flags, started)
        if proc.returncode != 0:
            if os.path.exists(tmp):
                os.remove(tmp)
            raise BuildError(what, proc.stdout)
        os.replace(tmp, out)
        atomic.write_file(stamp, key)
    return out
