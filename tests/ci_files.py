"""The CI integrations as data (action.yml, templates/lz4gate.yml) and as
shell: their steps run here with the variables a CI would set, and their
inputs traced to the options of the command they reach (ci/ci_gate.sh).
Used by tests/test_ci_action.py."""
import os
import re
import subprocess

import yaml

from conftest import TOP

ACTION = os.path.join(TOP, "action.yml")
COMPONENT = os.path.join(TOP, "templates", "lz4gate.yml")
CI_GATE = os.path.join(TOP, "ci", "ci_gate.sh")
# Inputs a CI file uses itself rather than pass to ci_gate.sh as an option:
# the variable it sets, and why no option is involved.
OWN_INPUTS = {
    "path": ("LZ4GATE_REPO", "the checkout: harness pr's REPO argument"),
    "args": ("LZ4GATE_EXTRA_ARGS", "gate options, passed on as they are"),
    "lz4gate-repository": ("LZ4GATE_URL", "the component clones lz4gate from it"),
    "lz4gate-ref": ("LZ4GATE_VERSION", "the component clones that tag"),
    "stage": (None, "the job's pipeline stage"),
}
GH_EXPR = re.compile(r"\$\{\{\s*([^}]*?)\s*\}\}")
GL_EXPR = re.compile(r"\$\[\[\s*inputs\.([\w-]+)\s*\]\]")


def load_action(text=None):
    return yaml.safe_load(text if text is not None else open(ACTION).read())


def load_component(text=None):
    """(spec, jobs) of the component file (two YAML documents)."""
    spec, jobs = yaml.safe_load_all(text if text is not None else open(COMPONENT).read())
    return spec["spec"], jobs


def github_value(text, ctx):
    """text with each ${{ EXPR }} evaluated: inputs.X, github.X, runner.X,
    steps.ID.outputs.X (what the action may use; anything else fails)."""
    def one(m):
        parts = m.group(1).split(".")
        if parts[0] == "inputs" and len(parts) == 2:
            return str(ctx["inputs"][parts[1]])
        if parts[0] in ("github", "runner") and len(parts) == 2:
            return ctx[parts[0]][parts[1]]
        if parts[0] == "steps" and len(parts) == 4 and parts[2] == "outputs":
            return ctx["steps"].get(parts[1], {}).get(parts[3], "")
        raise AssertionError("action.yml: an expression this test cannot evaluate: " + m.group(0))
    return GH_EXPR.sub(one, str(text))


def read_outputs(path):
    out = {}
    if os.path.isfile(path):
        for line in open(path):
            if "=" in line:
                k, v = line.rstrip("\n").split("=", 1)
                out[k] = v
    return out


def run_action(given, env, github, runner, tmp):
    """The action's run steps in order, as the runner would (uses: steps
    are not run; they are returned with their evaluated inputs). Returns
    (exit status of the last run step, {step id: outputs}, [(uses, with)])."""
    action = load_action()
    inputs = {k: v.get("default", "") for k, v in action["inputs"].items()}
    ctx = {"github": github, "runner": runner, "steps": {}, "inputs": inputs}
    inputs.update({k: github_value(v, ctx) for k, v in inputs.items()})
    inputs.update(given)
    uses, status = [], None
    for n, step in enumerate(action["runs"]["steps"]):
        if "uses" in step:
            uses.append((step["uses"], {k: github_value(v, ctx)
                                        for k, v in step.get("with", {}).items()}))
            continue
        assert step.get("shell") == "bash" and "${{" not in step["run"], step
        out = os.path.join(str(tmp), "output-%d" % n)
        step_env = dict(env, GITHUB_OUTPUT=out, **{k: github_value(v, ctx)
                                                   for k, v in step.get("env", {}).items()})
        status = subprocess.run(["bash", "-e", "-o", "pipefail", "-c", step["run"]], env=step_env, cwd=TOP,
                                stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                                universal_newlines=True)
        if step.get("id"):
            ctx["steps"][step["id"]] = read_outputs(out)
    return status, ctx["steps"], uses


def run_component(given, env, job="lz4gate"):
    """The component's job: its variables with the inputs interpolated and
    $VARIABLES expanded, its script as GitLab's shell runs it (stop at the
    first failing command), then its after_script. Returns the script's
    CompletedProcess."""
    spec, jobs = load_component()
    inputs = {k: v.get("default") for k, v in spec["inputs"].items()}
    inputs.update(given)
    missing = [k for k, v in inputs.items() if v is None]
    assert not missing, "inputs without a default not given: %s" % missing

    def value(v):
        return GL_EXPR.sub(lambda m: str(inputs[m.group(1)]).lower()
                           if isinstance(inputs[m.group(1)], bool) else str(inputs[m.group(1)]),
                           str(v))
    body = jobs[job]
    job_env = dict(env)
    for k, v in body.get("variables", {}).items():
        job_env.setdefault(k, expand(value(v), job_env))
    script = "\n".join(value(line) for line in body["script"])
    proc = subprocess.run(["bash", "-e", "-o", "pipefail", "-c", script], env=job_env,
                          cwd=job_env["CI_PROJECT_DIR"], stdout=subprocess.PIPE,
                          stderr=subprocess.STDOUT, universal_newlines=True)
    subprocess.run(["bash", "-c", "\n".join(body.get("after_script", []))], env=job_env,
                   cwd=job_env["CI_PROJECT_DIR"], stdout=subprocess.PIPE,
                   stderr=subprocess.STDOUT)
    return proc


def expand(text, env):
    """$NAME and ${NAME} of env in text (GitLab expands variables in variables)."""
    return re.sub(r"\$\{?(\w+)\}?", lambda m: env.get(m.group(1), m.group(0)), text)


def script_options(text=None):
    """{LZ4GATE_ variable: option} of ci_gate.sh's lines that set an
    option from a variable (`... LZ4GATE_X ... args+=(--option ...)`)."""
    text = text if text is not None else open(CI_GATE).read()
    out = {}
    for line in text.splitlines():
        var = re.search(r"\b(LZ4GATE_\w+)\b", line)
        opt = re.search(r"\b(?:args|sides)\+=\((--[\w-]+)", line)
        if var and opt and not line.lstrip().startswith("#"):
            out[var.group(1)] = opt.group(1)
    return out


def accepted_options():
    """Every option harness pr takes itself or passes to the gate."""
    from harness.gate import options, pr
    return set(options.parser()._option_string_actions) | \
        set(re.findall(r"^    (--[\w-]+)", pr.HELP, re.M))


def input_variables(action=None, component=None):
    """[(file, input, variable)]: the variable each input of the action (in
    its steps' env) and of the component (in its job's variables) sets; None
    when it sets none."""
    action = action or load_action()
    spec, jobs = component or load_component()
    out = []
    envs = {}
    for step in action["runs"]["steps"]:
        envs.update(step.get("env", {}))
    for name in action["inputs"]:
        var = [k for k, v in envs.items() if re.fullmatch(r"\$\{\{\s*inputs\.%s\s*\}\}"
                                                          % re.escape(name), str(v))]
        out.append(("action.yml", name, var[0] if var else None))
    variables = {k: v for job in jobs.values() if isinstance(job, dict)
                 for k, v in job.get("variables", {}).items()}
    for name in spec["inputs"]:
        var = [k for k, v in variables.items() if str(v).strip() == "$[[ inputs.%s ]]" % name]
        out.append(("templates/lz4gate.yml", name, var[0] if var else None))
    return out


def input_problems(action=None, component=None, script=None):
    """Inputs that reach no option the command accepts: each sets an
    LZ4GATE_ variable that ci_gate.sh turns into an option harness pr or
    the gate accepts, or is one of OWN_INPUTS, used by the CI file itself."""
    options, accepted = script_options(script), accepted_options()
    problems = []
    for where, name, var in input_variables(action, component):
        if name in OWN_INPUTS:
            if OWN_INPUTS[name][0] != var:
                problems.append("%s: input %s sets %s, not %s" % (where, name, var,
                                                                  OWN_INPUTS[name][0]))
        elif var not in options:
            problems.append("%s: input %s sets %s, which ci_gate.sh makes no option of"
                            % (where, name, var))
        elif options[var] not in accepted:
            problems.append("%s: input %s becomes %s, which harness pr does not accept"
                            % (where, name, options[var]))
    return problems
