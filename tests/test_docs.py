"""The README and the manual (docs/) as a reader follows them: the README
reads in ten minutes (at most 250 lines), every relative link of it and of
docs/ leads to a file (and a heading, where it names one), every `make
TARGET` it shows is a target of the Makefile, and every command's --help
names its page of the manual."""
import os
import re
import subprocess
import sys

import pytest

from conftest import TOP

README_MAX_LINES = 250
FENCE = re.compile(r"^(```|~~~).*?^\1[^\n]*$", re.M | re.S)
CODE_SPAN = re.compile(r"`[^`\n]*`")
LINK = re.compile(r"(?<!!)\[[^\]\n]*\]\(([^)\s]+)\)")
MANUAL = re.compile(r"^Manual: (docs/[\w./-]+\.md)$", re.M)


def markdown_files():
    """README.md and every page under docs/, relative to the top."""
    out = ["README.md"]
    for root, _, files in os.walk(os.path.join(TOP, "docs")):
        out += [os.path.relpath(os.path.join(root, f), TOP) for f in files if f.endswith(".md")]
    return sorted(out)


def prose(text):
    """text without code blocks and code spans (no link lives there)."""
    return CODE_SPAN.sub("", FENCE.sub("", text))


def slug(heading):
    """A heading's anchor as GitHub makes it: lower case, punctuation
    dropped (backticks, dots, parentheses...), spaces to hyphens."""
    return re.sub(r"[^\w\- ]", "", heading.strip().lower()).replace(" ", "-")


def anchors(text):
    """The anchors of a Markdown text's headings (not those in code
    blocks); a repeated heading gets -1, -2, ... as on GitHub."""
    seen, out = {}, set()
    for m in re.finditer(r"^#{1,6} +(.+?) *#*$", FENCE.sub("", text), re.M):
        s = slug(m.group(1))
        n = seen.get(s, 0)
        seen[s] = n + 1
        out.add(s if n == 0 else "%s-%d" % (s, n))
    return out


def link_problems(pages):
    """[problem] of the relative links of pages ({path: text}; files read
    from the repository when a link leads outside the given pages)."""
    problems = []
    for path, text in sorted(pages.items()):
        for target in LINK.findall(prose(text)):
            if re.match(r"[a-z][\w+.-]*:", target):          # https:, mailto:
                continue
            file_part, _, anchor = target.partition("#")
            dest = os.path.normpath(os.path.join(os.path.dirname(path), file_part)) \
                if file_part else path
            if dest in pages:
                dest_text = pages[dest]
            elif os.path.exists(os.path.join(TOP, dest)):
                dest_text = open(os.path.join(TOP, dest)).read() \
                    if os.path.isfile(os.path.join(TOP, dest)) else None
            else:
                problems.append("%s: %s: no such file %s" % (path, target, dest))
                continue
            if anchor and (dest_text is None or anchor not in anchors(dest_text)):
                problems.append("%s: %s: no heading #%s in %s" % (path, target, anchor, dest))
    return problems


def make_targets():
    with open(os.path.join(TOP, "Makefile")) as f:
        text = f.read()
    return set(re.findall(r"^([A-Za-z][\w.-]*)\s*:(?!=)", text, re.M))


def make_problems(text, targets):
    """`make TARGET` in the README's code (spans and blocks) that names no
    target of the Makefile."""
    code = "\n".join([m.group(0) for m in FENCE.finditer(text)] + CODE_SPAN.findall(text))
    named = set(re.findall(r"\bmake +(?:-\S+ +)*([a-z][\w-]*)", code))
    return sorted("make %s" % t for t in named - targets)


def read(rel):
    with open(os.path.join(TOP, rel)) as f:
        return f.read()


@pytest.mark.check
def test_the_readme_reads_in_ten_minutes():
    n = read("README.md").count("\n")
    assert n <= README_MAX_LINES, "README.md has %d lines; move detail to docs/" % n


@pytest.mark.check
def test_every_relative_link_resolves():
    pages = {p: read(p) for p in markdown_files()}
    assert len(LINK.findall(prose(pages["README.md"]))) > 20
    assert link_problems(pages) == []


@pytest.mark.check
def test_every_make_target_the_readme_names_exists():
    text, targets = read("README.md"), make_targets()
    assert {"gate", "test", "check", "gate-pr", "scan", "kunit"} <= targets
    assert make_problems(text, targets) == []


@pytest.mark.check
def test_the_checks_bite():
    # A planted broken link, a missing anchor, and a make target that is gone.
    pages = {"README.md": "see [the gate](docs/gate.md#no-such-heading) and "
                          "[gone](docs/gone.md), [ok](#two-words)\n\n## Two words\n",
             "docs/gate.md": "# The gate\n\n```\n## Not a heading\n```\n"}
    assert link_problems(pages) == [
        "README.md: docs/gate.md#no-such-heading: no heading #no-such-heading in docs/gate.md",
        "README.md: docs/gone.md: no such file docs/gone.md"]
    assert make_problems("run `make gate` then\n```sh\nmake -s nosuch X=1\n```\n",
                         {"gate"}) == ["make nosuch"]
    assert slug("`make kunit` in one paragraph") == "make-kunit-in-one-paragraph"
    assert MANUAL.search("usage: x\n\nManual: docs/gate.md\n").group(1) == "docs/gate.md"
    assert not MANUAL.search("usage: x\n(see the README)\n")


@pytest.mark.check
def test_each_commands_help_names_its_page_of_the_manual():
    from harness.__main__ import COMMANDS
    missing = []
    for name in list(COMMANDS) + ["ci/gate.py"]:
        cmd = [sys.executable, os.path.join(TOP, name)] if name.endswith(".py") else \
            [sys.executable, "-m", "harness", name]
        out = subprocess.run(cmd + ["--help"], cwd=TOP, stdout=subprocess.PIPE,
                             stderr=subprocess.STDOUT, universal_newlines=True).stdout
        page = MANUAL.search(out)
        if not page or not os.path.isfile(os.path.join(TOP, page.group(1))):
            missing.append("%s: %s" % (name, page.group(1) if page else "no Manual: line"))
    assert not missing, missing
