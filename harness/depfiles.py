"""The files a build step read, as [path, [size, mtime], digest] entries:
what the object cache (harness/objcache.py), the probe cache
(harness/probecache.py) and the subject build key their results on."""
import hashlib
import os


def _digest(data):
    return hashlib.sha256(data).hexdigest()


def _file_sig(path):
    st = os.stat(path)
    return [st.st_size, st.st_mtime_ns]


def unchanged(entries):
    """Do the files of [path, [size, mtime], digest] entries still have
    those digests? (The digest is read only when size or mtime moved.)"""
    for dep, sig, digest in entries:
        try:
            if _file_sig(dep) == sig:
                continue
            with open(dep, "rb") as f:
                if _digest(f.read()) != digest:
                    return False
        except OSError:
            return False
    return True


def entry(path):
    """[path, [size, mtime], digest] of one file (unchanged() checks it)."""
    path = os.path.abspath(path)
    with open(path, "rb") as f:
        return [path, _file_sig(path), _digest(f.read())]
