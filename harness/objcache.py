"""The object cache every C build of lz4gate goes through.

An object is keyed on everything that decides its bytes: the compiler (path
and version), the code-generation flags and the preprocessed source, which
holds every header it includes and every -D, -I and -include. The same
source compiled for two subjects, two runners or a mutant whose macro it
never reads is compiled once, in any process (build/obj/, shared across
configurations, runners and fuzz targets).

A manifest per (compiler, flags, source file) records the headers the
preprocessor read with their sizes, mtimes and digests ("direct mode"): when
none of them changed, the preprocessor does not run again. Editing any
header, a flag or the compiler makes a new key.
"""
import hashlib
import json
import os
import subprocess

from harness import atomic
from harness.errors import BadInput
from harness.paths import BUILD, shown
from harness.toolchain import compiler_id

CACHE = os.path.join(BUILD, "obj")
# Flags whose effect is entirely in the preprocessed text (so they stay out
# of the key, and a -DREF_MUTANT=X that a file never reads shares its object).
PREPROCESSOR_PREFIXES = ("-I", "-D", "-U", "-isystem")
PREPROCESSOR_WITH_ARG = ("-include", "-isystem", "-I", "-D", "-U")


def codegen_flags(flags):
    out, skip = [], False
    for f in flags:
        if skip:
            skip = False
            continue
        if f in PREPROCESSOR_WITH_ARG:
            skip = True
            continue
        if f.startswith(PREPROCESSOR_PREFIXES):
            continue
        out.append(f)
    return out


def _digest(data):
    return hashlib.sha256(data).hexdigest()


def _file_sig(path):
    st = os.stat(path)
    return [st.st_size, st.st_mtime_ns]


def _parse_depfile(text):
    body = text.replace("\\\n", " ")
    _, _, deps = body.partition(":")
    out, cur = [], ""
    for tok in deps.split():
        if tok.endswith("\\"):          # an escaped space inside a path
            cur += tok[:-1] + " "
            continue
        out.append(cur + tok)
        cur = ""
    return out


def _manifest_path(cc, flags, src):
    with open(src, "rb") as f:
        src_digest = _digest(f.read())
    key = _digest(("%s\0%s\0%s\0%s" % (compiler_id(cc), "\0".join(flags),
                                       os.path.abspath(src), src_digest)).encode())
    return os.path.join(CACHE, "manifests", key[:2], key + ".json")


def _from_manifest(path):
    """The object key a manifest names, if none of its inputs changed."""
    try:
        with open(path) as f:
            m = json.load(f)
    except (OSError, ValueError):
        return None
    for dep, sig, digest in m["deps"]:
        try:
            if _file_sig(dep) == sig:
                continue
            with open(dep, "rb") as f:
                if _digest(f.read()) != digest:
                    return None
        except OSError:
            return None
    return m["key"]


def _preprocess(cc, flags, src, what):
    """(preprocessed bytes, the files the preprocessor read)."""
    os.makedirs(os.path.join(CACHE, "tmp"), exist_ok=True)
    dep = atomic.tmp_name(os.path.join(CACHE, "tmp", "dep"))
    proc = subprocess.run([cc] + flags + ["-E", "-MD", "-MF", dep, src],
                          stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                          env=dict(os.environ, AFL_QUIET="1"))
    if proc.returncode != 0:
        err = proc.stderr.decode(errors="replace").splitlines()
        lines = [l for l in err if "error" in l] or err or ["(no output)"]
        raise BadInput("%s failed: %s" % (what, lines[0].strip()))
    try:
        with open(dep) as f:
            deps = _parse_depfile(f.read())
        os.remove(dep)
    except OSError:
        deps = [src]
    return proc.stdout, deps


def compile_object(cc, flags, src, what=None, obj=None):
    """Compile src with cc and flags; return the object's path.

    With obj=None the object lives in the shared cache. A caller that needs
    the object at a place of its own (gcov: the counters go next to the
    object) passes obj, and the compile always runs."""
    what = what or "compiling %s" % shown(src)
    if obj is not None:
        os.makedirs(os.path.dirname(obj), exist_ok=True)
        _run_compile(cc, flags, src, obj, what)
        return obj
    manifest = _manifest_path(cc, flags, src)
    key = _from_manifest(manifest)
    if key is None:
        pre, deps = _preprocess(cc, flags, src, what)
        key = _digest(b"\0".join([compiler_id(cc).encode(),
                                  "\0".join(codegen_flags(flags)).encode(), pre]))
        entries = []
        for d in deps:
            d = os.path.abspath(d)
            with open(d, "rb") as f:
                entries.append([d, _file_sig(d), _digest(f.read())])
        atomic.write_file(manifest, json.dumps({"key": key, "deps": entries}))
    out = os.path.join(CACHE, key[:2], key + ".o")
    if not os.path.exists(out):
        # Two processes may compile the same object: each to its own name,
        # then an atomic rename (same bytes; the second simply wins).
        tmp = atomic.tmp_name(out)
        os.makedirs(os.path.dirname(out), exist_ok=True)
        try:
            _run_compile(cc, flags, src, tmp, what)
            os.replace(tmp, out)
        finally:
            if os.path.exists(tmp):
                os.remove(tmp)
    return out


def _run_compile(cc, flags, src, obj, what):
    proc = subprocess.run([cc] + flags + ["-c", src, "-o", obj], stdout=subprocess.PIPE,
                          stderr=subprocess.STDOUT, universal_newlines=True, errors="replace",
                          env=dict(os.environ, AFL_QUIET="1"))
    if proc.returncode != 0:
        lines = [l for l in proc.stdout.splitlines() if "error" in l] or \
            proc.stdout.splitlines() or ["(no output)"]
        raise BadInput("%s failed: %s" % (what, lines[0].strip()))


def link_key(*parts):
    """A digest of what a link reads (object paths are content keys)."""
    return _digest("\0".join(str(p) for p in parts).encode())[:16]


def link_program(cc, flags, objects, out, what, libs=(), env=None):
    """Link objects into out, unless out was linked from exactly these
    inputs before (a stamp beside it records the key)."""
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
        proc = subprocess.run([cc] + flags + ["-o", tmp] + list(objects) + list(libs),
                              stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                              universal_newlines=True, errors="replace",
                              env=env or dict(os.environ, AFL_QUIET="1"))
        if proc.returncode != 0:
            if os.path.exists(tmp):
                os.remove(tmp)
            lines = [l for l in proc.stdout.splitlines() if "error" in l] or \
                proc.stdout.splitlines() or ["(no output)"]
            raise BadInput("%s failed: %s" % (what, lines[0].strip()))
        os.replace(tmp, out)
        atomic.write_file(stamp, key)
    return out
