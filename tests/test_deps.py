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
