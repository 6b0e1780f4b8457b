"""The GitHub Action (action.yml) and the GitLab CI/CD component
(templates/lz4gate.yml), run as a CI would run them on a project that
vendors LZ4: PASS on a clean update of its copy, FAIL on an update that
loses a fix, SARIF written either way; and every input of both reaches an
option the command accepts (tests/ci_files.py)."""
import os
import shutil
import subprocess

import pytest
import yaml

import ci_files
from conftest import TOP

# The project's copy: lz4 1.9.4's lib/ (the default upstream subject),
# under vendor/lz4/lib.
LIB = os.path.join(TOP, "build", "subjects", "lz4-upstream", "lib")
# A one-line change that loses CVE-2021-3520's fix (the negative-size guard
# of LZ4_decompress_generic): regression case ULZ4-2021-3520 fails on it.
GUARD = "    if ((src == NULL) || (outputSize < 0)) { return -1; }"
LOST = "    if (src == NULL) { return -1; }"
# The cheap gate: no fuzzing, one configuration (-O2: guard pages, the
# fastest runs), the regression cases only.
QUICK = {"fuzz-time": "0", "configs": "O2",
         "args": "--no-coverage --skip compare --skip replay --skip contracts"}
# The module's gates share builds (one worker: Makefile --dist loadgroup).
pytestmark = pytest.mark.xdist_group("ci_action")


def git(repo, *args):
    env = dict(os.environ, GIT_AUTHOR_NAME="t", GIT_AUTHOR_EMAIL="t@t",
               GIT_COMMITTER_NAME="t", GIT_COMMITTER_EMAIL="t@t")
    return subprocess.run(["git", "-C", str(repo)] + list(args), check=True, env=env,
                          stdout=subprocess.PIPE, universal_newlines=True).stdout.strip()


@pytest.fixture(scope="module")
def project(tmp_path_factory):
    """A clone of a project (its origin a bare repository, branch main with
    lz4 1.9.4 vendored) with two branches: "update" (a clean change of the
    copy) and "lost-fix" (the change that drops the guard)."""
    top = tmp_path_factory.mktemp("ci")
    origin, repo = top / "origin.git", top / "project"
    git(top, "init", "-q", "--bare", "-b", "main", str(origin))
    git(top, "clone", "-q", str(origin), str(repo))
    shutil.copytree(LIB, str(repo / "vendor" / "lz4" / "lib"))
    (repo / "app.c").write_text("int main(void) { return 0; }\n")
    git(repo, "checkout", "-q", "-b", "main")
    git(repo, "add", "-A")
    git(repo, "commit", "-q", "-m", "vendor lz4 1.9.4")
    git(repo, "push", "-q", "origin", "main")
    lz4c = repo / "vendor" / "lz4" / "lib" / "lz4.c"
    text = lz4c.read_text()
    assert text.count(GUARD) == 1
    for branch, new in (("update", text + "/* the project's note */\n"),
                        ("lost-fix", text.replace(GUARD, LOST))):
        git(repo, "checkout", "-q", "-b", branch, "main")
        lz4c.write_text(new)
        git(repo, "commit", "-q", "-am", branch)
    return {"repo": repo, "top": top, "base": git(repo, "rev-parse", "main")}


def ci_env(tmp, **more):
    """The environment of a CI job: none of this machine's CI variables, a
    git configuration of its own (the scripts add safe.directory); the
    suite's memo of passed regression tests kept (tests/conftest.py)."""
    env = {k: v for k, v in os.environ.items()
           if not k.startswith(("GITHUB_", "CI_", "LZ4GATE_", "RUNNER_"))
           or k == "LZ4GATE_RESULT_MEMO"}
    env["GIT_CONFIG_GLOBAL"] = str(tmp / "gitconfig")
    env.update(more)
    return env


def no_build_folder(out):
    """report.md, report-full.md and results.sarif name only the user's paths."""
    for name in ("report.md", "report-full.md", "results.sarif"):
        text = (out / name).read_text()
        assert "build/" not in text, (name, text[text.index("build/") - 300:][:600])


# (the lost fix in asan64 too: its report has a stack, so a "Where" line)
@pytest.mark.parametrize("branch, configs, status, verdict", [("update", "O2", 0, "PASS"),
                                                              ("lost-fix", "asan64", 1, "FAIL")])
def test_the_github_action_gates_a_pull_request(project, tmp_path, branch, configs, status,
                                                verdict):
    repo = project["repo"]
    git(repo, "checkout", "-q", branch)
    summary = tmp_path / "summary.md"
    env = ci_env(tmp_path, GITHUB_ACTION_PATH=TOP, GITHUB_WORKSPACE=str(repo),
                 GITHUB_BASE_REF="main", GITHUB_STEP_SUMMARY=str(summary),
                 RUNNER_TEMP=str(tmp_path))
    proc, steps, uses = ci_files.run_action(
        dict(QUICK, configs=configs), env, github={"workspace": str(repo)}, runner={"temp": str(tmp_path)},
        tmp=tmp_path)
    assert proc.returncode == status, proc.stdout
    gate = steps["gate"]
    assert gate["verdict"] == verdict and gate["status"] == str(status), gate
    out = tmp_path / "lz4gate-report"
    assert gate["sarif"] == str(out / "results.sarif") and os.path.isfile(gate["sarif"])
    assert summary.read_text().startswith("# lz4gate: " + verdict)
    # The uses: steps get the SARIF file and the report's folder.
    got = dict(uses)
    assert got["github/codeql-action/upload-sarif@v3"]["sarif_file"] == gate["sarif"]
    assert got["github/codeql-action/upload-sarif@v3"]["checkout_path"] == str(repo)
    assert got["actions/upload-artifact@v4"]["path"] == str(out)
    # Each side in the project's words, every path the project's.
    report = (out / "report.md").read_text()
    head = git(repo, "rev-parse", "HEAD")
    assert "base** project, vendor/lz4, lz4 1.9.4 at %s:" % project["base"][:7] in report
    assert "**Candidate** project, vendor/lz4, lz4 1.9.4 at %s **" % head[:7] in report
    no_build_folder(out)
    if verdict == "FAIL":
        assert "`ULZ4-2021-3520` (case)" in report
        assert "Where**: `vendor/lz4/lib/lz4.c:" in report


def test_the_gitlab_component_gates_a_merge_request(project, tmp_path):
    repo = project["repo"]
    git(repo, "checkout", "-q", "lost-fix")
    shutil.rmtree(str(repo / "lz4gate-report"), ignore_errors=True)
    env = ci_env(tmp_path, CI_PROJECT_DIR=str(repo), CI_MERGE_REQUEST_TARGET_BRANCH_NAME="main",
                 CI_MERGE_REQUEST_DIFF_BASE_SHA=project["base"], LZ4GATE_HOME=TOP,
                 LZ4GATE_OUT=str(tmp_path / "out"))
    proc = ci_files.run_component(dict(QUICK, **{"lz4gate-repository": "https://invalid/"}),
                                  env)
    assert proc.returncode == 1, proc.stdout
    assert "# lz4gate: FAIL" in proc.stdout
    artifacts = repo / "lz4gate-report"
    for name in ("results.sarif", "junit.xml", "report.md"):
        assert (artifacts / name).is_file(), name
    no_build_folder(artifacts)
    shutil.rmtree(str(artifacts))


@pytest.mark.check
def test_every_input_reaches_an_option_the_command_accepts():
    assert ci_files.input_problems() == []
    # Both files offer the inputs.
    for where, names in (("action.yml", ci_files.load_action()["inputs"]),
                         ("component", ci_files.load_component()[0]["inputs"])):
        assert {"base-ref", "fuzz-time", "configs", "strict", "waivers"} <= set(names), where


@pytest.mark.check
def test_the_input_check_bites():
    # A planted input that sets a variable ci_gate.sh ignores, and an option
    # the command does not take.
    action = ci_files.load_action()
    action["inputs"]["jobs"] = {"default": "2"}
    action["runs"]["steps"][1]["env"]["LZ4GATE_JOBS"] = "${{ inputs.jobs }}"
    assert ci_files.input_problems(action=action) == [
        "action.yml: input jobs sets LZ4GATE_JOBS, which ci_gate.sh makes no option of"]
    script = open(ci_files.CI_GATE).read().replace("args+=(--fuzz-time", "args+=(--fuzz-secs")
    got = ci_files.input_problems(script=script)
    assert "action.yml: input fuzz-time becomes --fuzz-secs, which harness pr does not " \
        "accept" in got, got
    text = open(ci_files.COMPONENT).read().replace("$[[ inputs.waivers ]]", "''")
    got = ci_files.input_problems(component=ci_files.load_component(text))
    assert got == ["templates/lz4gate.yml: input waivers sets None, which ci_gate.sh makes "
                   "no option of"], got


@pytest.mark.check
def test_the_examples_use_the_action_and_the_component():
    github = yaml.safe_load(open(os.path.join(TOP, "ci", "github", "lz4gate.yml")))
    steps = github["jobs"]["gate"]["steps"]
    assert any(s.get("uses", "").endswith("/lz4gate@v1") for s in steps), steps
    gitlab = yaml.safe_load(open(os.path.join(TOP, "ci", "gitlab", "lz4gate.yml")))
    assert gitlab["include"][0]["component"].endswith("/lz4gate/lz4gate@v1")
    # The component's name is its file's (templates/NAME.yml).
    assert os.path.isfile(os.path.join(TOP, "templates", "lz4gate.yml"))
