"""The set-up step (ci/deps.sh): installs or names the exact command."""
import os
import subprocess

from conftest import TOP

SCRIPT = os.path.join(TOP, "ci", "deps.sh")


def run(tmp_path, **env):
    full = dict(os.environ, LZ4GATE_STAMP_DIR=str(tmp_path), **env)
    return subprocess.run(["bash", SCRIPT], env=full, stdout=subprocess.PIPE,
                          stderr=subprocess.PIPE, universal_newlines=True)


def test_missing_package_names_the_command(tmp_path):
    proc = run(tmp_path, LZ4GATE_DEPS_EXTRA="lz4gate-no-such-package",
               LZ4GATE_DEPS_NO_INSTALL="1")
    assert proc.returncode == 2
    assert "apt-get install -y lz4gate-no-such-package" in proc.stderr
    assert not (tmp_path / ".deps-stamp").exists()


def test_complete_set_writes_stamp_and_is_idempotent(tmp_path):
    first = run(tmp_path, LZ4GATE_DEPS_NO_INSTALL="1")
    assert first.returncode == 0, first.stderr
    stamp = tmp_path / ".deps-stamp"
    assert "liblz4-dev" in stamp.read_text()
    second = run(tmp_path, LZ4GATE_DEPS_NO_INSTALL="1")
    assert second.returncode == 0 and second.stderr == ""


def test_two_set_ups_at_once_install_once(tmp_path):
    # Two `make deps` at once on a machine missing a package: apt-get takes
    # the dpkg lock, so a second apt-get meanwhile fails ("Could not get
    # lock"). Stand-ins on PATH: dpkg-query reports the package missing until
    # apt-get installed it; apt-get fails as the real one does when another
    # runs, and is slow.
    bindir = tmp_path / "bin"
    bindir.mkdir()
    state = tmp_path / "state"
    state.mkdir()
    tools = {
        "id": "#!/bin/sh\necho 0\n",
        "dpkg-query": '#!/bin/sh\nfor p; do :; done\n'
                      'if [ "$p" != lz4gate-test-pkg ] || [ -e "%s/installed" ]; then\n'
                      '    printf "install ok installed"; else printf "not-installed"; fi\n' % state,
        "apt-get": '#!/bin/sh\nmkdir "%s/lock" 2>/dev/null || '
                   '{ echo "E: Could not get lock /var/lib/dpkg/lock-frontend" >&2; exit 100; }\n'
                   'echo "$*" >>"%s/runs"\nsleep 1\n'
                   'case "$*" in *install*) touch "%s/installed";; esac\nrmdir "%s/lock"\n'
                   % (state, state, state, state),
    }
    for name, text in tools.items():
        (bindir / name).write_text(text)
        (bindir / name).chmod(0o755)
    env = dict(os.environ, LZ4GATE_STAMP_DIR=str(tmp_path), LZ4GATE_DEPS_EXTRA="lz4gate-test-pkg",
               PATH="%s:%s" % (bindir, os.environ["PATH"]), TMPDIR=str(tmp_path))
    procs = [subprocess.Popen(["bash", SCRIPT], env=env, stdout=subprocess.PIPE,
                              stderr=subprocess.PIPE, universal_newlines=True)
             for _ in range(2)]
    outs = [p.communicate() + (p.returncode,) for p in procs]
    assert all(rc == 0 for _, _, rc in outs), outs
    runs = (state / "runs").read_text().splitlines()
    assert len([r for r in runs if "install" in r]) == 1, runs   # the second found it done
    assert "lz4gate-test-pkg" in (tmp_path / ".deps-stamp").read_text()
    assert [p.name for p in tmp_path.iterdir() if ".tmp." in p.name] == []
