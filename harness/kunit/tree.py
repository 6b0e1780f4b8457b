"""The default kernel of `make kunit`: the whole tree of Debian's
linux-source-6.12 (bookworm-security), in build/kernel/linux-source-6.12.
From /usr/src/linux-source-6.12.tar.xz when the package is installed, else
from its .deb, fetched with `apt-get download` (nothing is installed).
Made in a staging directory and renamed into place; a stamp records the
package and the kernel version, so a second run costs nothing."""
import json
import os
import time

from harness.kunit.kernel import KUNIT_PY
from harness.paths import BUILD
from harness.subjects.fetch.common import (Fail, install_tree, need_tool, run_pipeline,
                                           staging_dir)
from harness.subjects.fetch.kernel import KERNELS, download_kernel_deb
from harness.subjects.versions import kernel_version

NAME = "kernel-6.12"
OUT = os.path.join(BUILD, "kernel")
STAMP = ".lz4gate-kunit-tree.json"


def default_tree(say):
    """The tree's path, fetched when it is not there yet."""
    pkg, tarball, _ = KERNELS[NAME]
    final = os.path.join(OUT, os.path.basename(tarball)[:-len(".tar.xz")])
    if os.path.isfile(os.path.join(final, STAMP)):
        return final
    for tool, package in (("tar", "tar"), ("xz", "xz-utils"), ("dpkg-deb", "dpkg")):
        need_tool(tool, package)
    os.makedirs(OUT, exist_ok=True)
    untar = ["tar", "-xJ", "--no-same-owner", "--strip-components=1"]
    t0 = time.monotonic()
    with staging_dir(OUT, "linux-source") as tmp:
        tree = os.path.join(tmp, "tree")
        os.mkdir(tree)
        info = {"package": pkg}
        if os.path.isfile(tarball):
            info["source"] = tarball
            cmds = [untar + ["-C", tree, "-f", tarball]]
        else:
            dl = os.path.join(tmp, "dl")
            os.mkdir(dl)
            deb = download_kernel_deb(NAME, dl, lambda _, line: say(line))
            info["source"] = os.path.basename(deb)
            cmds = [["dpkg-deb", "--fsys-tarfile", deb], ["tar", "-xO", "." + tarball],
                    untar + ["-C", tree, "-f", "-"]]
        say("extracting the whole %s tree (~1.4 GB, about a minute)" % pkg)
        run_pipeline(cmds)
        if not os.path.isfile(os.path.join(tree, KUNIT_PY)):
            raise Fail(1, "%s holds no kernel tree with tools/testing/kunit" % info["source"])
        info["kernel_version"] = kernel_version(tree)
        with open(os.path.join(tree, STAMP), "w") as f:
            json.dump(info, f, indent=1, sort_keys=True)
        install_tree(tree, final)
    say("ready: %s (Linux %s, %.0f s)" % (final, info["kernel_version"], time.monotonic() - t0))
    return final
