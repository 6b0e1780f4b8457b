"""What a kernel tree is, for the kernels snapshot: its name, where it came
from (repository + commit), its version and its LZ4 API generation.

Generations (issue 13): G1 is the old API of 3.11-4.10 (lz4_compress,
lz4hc_compress, lz4_decompress, lz4_decompress_unknownoutputsize) alone;
trees carrying the 2017 update may keep those names as wrappers, so a
header declaring LZ4_decompress_safe is G2 or G3 either way; G2 is the LZ4 1.7.2-based API of the
2017 update (4.11-4.19); G3 the 5.x-6.x code, whose decoder has the 1.8.3
dictionary modes (LZ4_decompress_safe_forceExtDict). Android vendor trees
mix these (a 4.4 tree carrying the 2017 update, a 4.19 tree with a 5.x
decoder), so the code decides, never the version number. A tree's
PROVENANCE.json (written by whoever extracted it: "repository", "commit",
"generation", "android") is taken as given; what it lacks is derived here.
"""
import json
import os
import subprocess

from harness.errors import BadInput
from harness.paths import shown
from harness.subjects.versions import generation, kernel_version, read_text

PROVENANCE = "PROVENANCE.json"
def _git_head(path):
    try:
        out = subprocess.run(["git", "-C", path, "rev-parse", "HEAD"], stdout=subprocess.PIPE,
                             stderr=subprocess.DEVNULL, universal_newlines=True, timeout=30)
    except (OSError, subprocess.SubprocessError):
        return ""
    return out.stdout.strip() if out.returncode == 0 else ""


def tree_record(path, order, name=None):
    """The snapshot's "tree" record (harness/runners/releases/run.py) with
    the kernel fields: repository, generation, android."""
    if not os.path.isdir(path):
        raise BadInput("kernel tree %s is not a directory" % path)
    prov = {}
    text = read_text(os.path.join(path, PROVENANCE))
    if text:
        try:
            prov = json.loads(text)
        except ValueError:
            raise BadInput("%s: not JSON" % os.path.join(path, PROVENANCE))
    version = kernel_version(path) or prov.get("version", "")
    name = name or prov.get("tree") or os.path.basename(os.path.normpath(path))
    return {"kind": "tree", "tree": name, "order": order, "tag": "v" + version if version else name,
            "commit": prov.get("commit") or _git_head(path), "version": version,
            "repository": prov.get("repository", ""),
            "generation": prov.get("generation") or generation(path),
            "android": bool(prov.get("android", False)),
            "spec": "kernel:" + shown(path), "identity": ""}
