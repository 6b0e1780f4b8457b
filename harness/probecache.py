"""The cache of probe compiles (toolchain.compile_ok, probe_symbols,
probe_sources): does this program compile with these flags, what did the
compiler say, and which names does its object use.

A subject's build probes its headers for entry points and API features,
once per configuration, and every staged copy probes again: a regression
case's copy differs from its tree in one patched file, Linux 6.1's headers
are Linux 6.12's, a mutant of lz4.c leaves lz4.h alone. make test ran 337
probes, 75 CPU s. A probe's result is keyed like an object
(harness/objcache.py): the compiler, the flags, the program and every file
the compile read, by digest, with the stage directory the flags name as a
token, so that a copy with the same headers elsewhere reuses it. The object
is kept beside the result (callers list the names it uses).
"""
import hashlib
import json
import os
import re
import shutil

from harness import atomic
from harness.depfiles import entry, unchanged
from harness.paths import BUILD

CACHE = os.path.join(BUILD, "obj", "probes")
# A staged copy's directory (harness/subjects/stage.py): the only path of a
# probe's flags that moves between equal copies.
STAGE_RE = re.compile(re.escape(os.path.join(BUILD, "stage")) + r"/[^/\s\"]+")
TOKEN = "{stage}"


def _digest(data):
    return hashlib.sha256(data).hexdigest()


def _stage_of(texts):
    """The one stage directory the texts name, or None (none, or several)."""
    found = {m.group(0) for t in texts for m in STAGE_RE.finditer(t)}
    return found.pop() if len(found) == 1 else None


class Probe:
    """One probe compile's cache entry: look() before compiling, keep() after."""

    def __init__(self, cc_id, flags, source):
        self.stage = _stage_of(list(flags) + [source])
        norm = self.norm
        key = _digest("\0".join([cc_id] + [norm(f) for f in flags] + [norm(source)]).encode())
        self.manifest = os.path.join(CACHE, key[:2], key + ".json")

    def norm(self, text):
        return text.replace(self.stage, TOKEN) if self.stage else text

    def expand(self, text):
        return text.replace(TOKEN, self.stage) if self.stage else text

    def look(self):
        """(ok, stderr, object, files read) of the same probe of the same
        files, or None."""
        try:
            with open(self.manifest) as f:
                m = json.load(f)
        except (OSError, ValueError):
            return None
        deps = [[self.expand(p), sig, d] for p, sig, d in m["deps"]]
        obj = os.path.join(os.path.dirname(self.manifest), m["obj"])
        if not unchanged(deps) or not os.path.isfile(obj):
            return None
        return m["ok"], m["stderr"], obj, [d[0] for d in deps]

    def keep(self, ok, stderr, obj, deps):
        """Store a compile's result; returns the object's path in the cache
        (or obj, when it made none)."""
        entries = [entry(d) for d in deps if os.path.isfile(d)]
        stored = [[self.norm(p), sig, d] for p, sig, d in entries]
        name = os.path.basename(self.manifest)[:-5] + "." + _digest(
            json.dumps(stored).encode())[:16] + ".o"
        kept = os.path.join(os.path.dirname(self.manifest), name)
        os.makedirs(os.path.dirname(kept), exist_ok=True)
        if ok and os.path.isfile(obj):
            tmp = atomic.tmp_name(kept)
            shutil.copyfile(obj, tmp)
            os.replace(tmp, kept)
        else:
            with open(kept, "wb"):
                pass        # a failed compile: no names to list
        atomic.write_file(self.manifest, json.dumps({"ok": ok, "stderr": stderr, "obj": name,
                                                     "deps": stored}))
        return kept
