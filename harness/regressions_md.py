#!/usr/bin/env python3
"""Generate and check REGRESSIONS.md from regress/cases/*.json and a results file.

  harness/regressions_md.py [--results FILE] --write     write REGRESSIONS.md
  harness/regressions_md.py --check                      REGRESSIONS.md lists exactly
                                                         the cases (ids, titles, CVEs)
  harness/regressions_md.py --snapshot OUT RAW...        compact raw results files
                                                         (regress.py --json) into OUT

The case files are the source of truth for what the list contains; the
results file (JSON lines written by `harness/regress.py --json FILE SPEC...`,
or the committed snapshot regress/results/default.jsonl) only fills in the
status columns. --check reads nothing but the case files and REGRESSIONS.md,
so a case added, removed or retitled without regenerating is an error.

Exit status: 0 ok, 1 --check found a difference, 2 bad input.
"""
import argparse
import json
import os
import re
import sys

TOP = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
CASES_DIR = os.path.join(TOP, "regress", "cases")
MD_PATH = os.path.join(TOP, "REGRESSIONS.md")
DEFAULT_RESULTS = os.path.join(TOP, "regress", "results", "default.jsonl")

BASE = "kernel"          # the vendored copy today (build/subjects/linux-6.1)
CANDIDATE = "upstream"   # the release a vendoring update would bring in (lz4 1.9.4)
REFERENCE = "ref"
# Worst first: the cell of a case on a subject is its worst status over configs.
ORDER = {"FAIL": 0, "known finding": 1, "pass": 2, "n/a": 3}
CONFIG_ORDER = ["asan64", "asan32", "O0", "O2", "O0-32", "O2-32"]
BEGIN, END = "<!-- cases:begin -->", "<!-- cases:end -->"
KEEP = ("case", "spec", "config", "generation", "verdict", "status", "finding", "evidence")


class BadInput(Exception):
    pass


# ---------------------------------------------------------------- loading

def load_cases(cases_dir=CASES_DIR):
    cases = []
    try:
        names = sorted(os.listdir(cases_dir))
    except OSError as e:
        raise BadInput("cannot read the case directory: %s" % e)
    for name in names:
        if not name.endswith(".json"):
            continue
        path = os.path.join(cases_dir, name)
        try:
            with open(path) as f:
                case = json.load(f)
        except ValueError as e:
            raise BadInput("%s: not valid JSON: %s" % (name, e))
        for key in ("id", "title"):
            if key not in case:
                raise BadInput("%s: missing field '%s'" % (name, key))
        if name != case["id"] + ".json":
            raise BadInput("%s: file name must be the id (%s.json)" % (name, case["id"]))
        cases.append(case)
    if not cases:
        raise BadInput("no case files in %s" % cases_dir)
    return cases


def load_results(path):
    if path is None:
        return []
    try:
        with open(path) as f:
            text = f.read()
    except OSError as e:
        raise BadInput("cannot read results file: %s" % e)
    recs = []
    for n, line in enumerate(text.splitlines(), 1):
        line = line.strip()
        if not line:
            continue
        try:
            rec = json.loads(line)
        except ValueError:
            raise BadInput("%s:%d: not a JSON record" % (path, n))
        for key in ("case", "spec", "config", "status"):
            if key not in rec:
                raise BadInput("%s:%d: record without '%s'" % (path, n, key))
        if rec["status"] not in ORDER:
            raise BadInput("%s:%d: unknown status '%s'" % (path, n, rec["status"]))
        recs.append(rec)
    return recs


def compact(recs):
    """The fields REGRESSIONS.md needs; evidence without pids and truncated."""
    out = []
    for r in recs:
        c = {k: r[k] for k in KEEP if k in r}
        ev = c.get("evidence", "")
        if ev.startswith("not exercised here"):
            ev = ""
        c["evidence"] = stable(ev)[:300]
        out.append(c)
    out.sort(key=lambda r: (r["case"], r["spec"], config_key(r["config"])))
    return out


def stable(text):
    """Evidence without what changes from run to run (pids, addresses)."""
    text = re.sub(r"==\d+==", "==PID==", text)
    text = re.sub(r"\b(pc|bp|sp) 0x[0-9a-f]+", r"\1 0x...", text)
    # Heap/stack addresses move with ASLR; small (wrapped) ones are the finding.
    text = re.sub(r"\baddress 0x([0-9a-f]+)",
                  lambda m: m.group(0) if int(m.group(1), 16) < 0x1000000 else "address 0x...",
                  text)
    return text


def config_key(c):
    return (CONFIG_ORDER.index(c) if c in CONFIG_ORDER else len(CONFIG_ORDER), c)


# ---------------------------------------------------------------- cells

def cells(recs):
    """(case, spec) -> {"status", "configs": {config: status}, "worst": record}."""
    out = {}
    for r in recs:
        cell = out.setdefault((r["case"], r["spec"]), {"configs": {}, "worst": None})
        cell["configs"][r["config"]] = r["status"]
        w = cell["worst"]
        if w is None or ORDER[r["status"]] < ORDER[w["status"]]:
            cell["worst"] = r
    for cell in out.values():
        cell["status"] = cell["worst"]["status"]
    return out


def cell_text(case, cell):
    if not case.get("exercised"):
        return "not exercised"
    if cell is None:
        return "not run"
    st = cell["status"]
    if st in ("FAIL", "known finding"):
        bad = sorted((c for c, s in cell["configs"].items() if s == st), key=config_key)
        if len(bad) == len(cell["configs"]) and len(bad) > 3:
            return "%s (all %d configs)" % (st, len(bad))
        return "%s (%s)" % (st, ", ".join(bad))
    return st


# ---------------------------------------------------------------- markdown

def esc(text):
    return str(text).replace("|", "\\|").replace("\n", " ")


def short_commit(c):
    """The first commit id in a commits entry (12 hex digits), else the text."""
    doubt = re.search(r"unknown|not verified|candidate|vendor", c)
    for m in re.finditer(r"\b[0-9a-f]{6,40}\b", c):
        if re.search(r"[0-9]", m.group(0)):
            return m.group(0)[:12] + ("?" if doubt else "")
    return c if len(c) <= 30 else c[:27] + "..."


def commits_cell(case):
    commits = case.get("commits") or []
    if not commits:
        return "-"
    return short_commit(commits[0]) + (" +%d" % (len(commits) - 1) if len(commits) > 1 else "")


def cve_of(case):
    return case.get("cve") or "-"


def call_summary(call):
    keys = [k for k in ("input", "decoded", "data", "src_size", "target", "capacity", "original",
                        "repeat_capacity", "level", "levels", "acceleration", "dict", "dst_len",
                        "in_place", "high", "mode", "flip", "cut", "input2", "in_chunk",
                        "out_chunk", "chunk", "block_size_id", "expect", "len") if k in call]
    parts = []
    for k in keys:
        v = str(call[k])
        if len(v) > 60:
            v = v[:57] + "..."
        parts.append("%s=%s" % (k, v))
    return "`%s` %s" % (call.get("entry", "?"), " ".join("`%s`" % p for p in parts))


def specs_in(recs):
    seen = []
    for r in recs:
        if r["spec"] not in seen:
            seen.append(r["spec"])
    return seen


def configs_in(recs, spec):
    return sorted({r["config"] for r in recs if r["spec"] == spec}, key=config_key)


def render(cases, recs, results_name):
    cl = cells(recs)
    n_ex = sum(1 for c in cases if c.get("exercised"))
    lines = []
    add = lines.append
    add("# REGRESSIONS: every LZ4 security fix, as a test")
    add("")
    add("<!-- Generated by harness/regressions_md.py from regress/cases/*.json and %s."
        % results_name)
    add("     Do not edit by hand: edit the case files, then run"
        " `python3 harness/regressions_md.py --write`. -->")
    add("")
    add("This is lz4gate's regression list: every security fix the Linux kernel carried for its "
        "vendored LZ4 (`KLZ4-*`) and every upstream LZ4 security fix (`ULZ4-*`), taken from the "
        "catalogue in `../shared/history.md` (same ids), each written down as a reproducer that "
        "runs against a **base** (the vendored copy today) and a **candidate** (what a vendoring "
        "update would bring in) before the update is merged. A fix the base has and the "
        "candidate lacks shows up as a FAIL in the candidate column; a fix the base lacks shows "
        "up as a known finding in the base column.")
    add("")
    add("%d cases, %d of them exercised here; the others say why not (kernel glue that does "
        "not run in userspace, a runner feature that is missing, or no known trigger) and what "
        "a test needs." % (len(cases), n_ex))
    add("")
    add("## How to run it")
    add("")
    add("```sh")
    add("make regress                                   # ref upstream kernel, every config of each case")
    add("make regress SUBJECT=\"kernel upstream:/path/to/lz4-1.10.0\" CONFIGS=\"asan64 asan32\"")
    add("make mutants                                   # every case fails on a subject with its bug")
    add("python3 harness/regress.py -q --config asan32 --case KLZ4-2014-4611 ref upstream kernel")
    add("python3 harness/regress.py --mutants --case KLZ4-FAST")
    add("python3 harness/regress.py --check             # validate the case files, run nothing")
    add("```")
    add("")
    add("Each test runs in its own process (a crash or a hang is a result) with its input and "
        "output buffers ending at a guard page, in every configuration the case applies to: "
        "`asan64`, `O0`, `O2` for 64-bit cases and `asan32`, `O0-32`, `O2-32` for 32-bit ones "
        "(ASan+UBSan builds and plain -O0/-O2 builds, because a check that relies on undefined "
        "behaviour can vanish under the optimiser, see ULZ4-2016-UBWRAP).")
    add("")
    add("Status words: **pass**; **FAIL** (a test did not hold: wrong result, crash, sanitizer "
        "report or timeout); **known finding** (a FAIL the case documents for that generation "
        "under `known_findings`, confirmed by running it); **n/a** (the subject has none of the "
        "case's entry points, e.g. ref has no HC compressor); **not exercised**.")
    add("")
    add("To refresh this file after a run:")
    add("")
    add("```sh")
    add("python3 harness/regress.py --json /tmp/r.jsonl ref upstream kernel")
    add("python3 harness/regressions_md.py --snapshot regress/results/default.jsonl /tmp/r.jsonl")
    add("python3 harness/regressions_md.py --write      # reads regress/results/default.jsonl")
    add("python3 harness/regressions_md.py --check      # REGRESSIONS.md lists exactly the case files")
    add("```")
    add("")
    # ---- matrix
    add("## The list")
    add("")
    if recs:
        runs = "; ".join("%s: %s" % (s, ", ".join(configs_in(recs, s))) for s in specs_in(recs))
        add("Results from `%s` (%s). Base = `%s` (Linux 6.1 lib/lz4 by default), candidate = "
            "`%s` (lz4 1.9.4 by default), `%s` = lz4gate's reference codec. A cell is the worst "
            "status over the configurations run; the configurations that failed are named."
            % (results_name, runs, BASE, CANDIDATE, REFERENCE))
    else:
        add("No results file was given: the status columns say \"not run\".")
    add("")
    add(BEGIN)
    add("| id | title | CVE | commits | API entry | class | base: %s | candidate: %s | %s |"
        % (BASE, CANDIDATE, REFERENCE))
    add("|---|---|---|---|---|---|---|---|---|")
    for c in cases:
        add("| [%s](#%s) | %s | %s | %s | %s | %s | %s | %s | %s |" % (
            c["id"], c["id"].lower(), esc(c["title"]), esc(cve_of(c)), esc(commits_cell(c)),
            esc(c.get("entry", "-")), esc(c.get("class", "-")),
            cell_text(c, cl.get((c["id"], BASE))), cell_text(c, cl.get((c["id"], CANDIDATE))),
            cell_text(c, cl.get((c["id"], REFERENCE)))))
    add(END)
    add("")
    # ---- known findings
    add("## Known findings in the default subjects")
    add("")
    add("The kernel 6.1 tree is the 1.8.3 decoder and the 1.7.3 compressors plus six local "
        "patches (history.md §1); it lacks the upstream fixes made after those versions. "
        "history.md §9 lists what was confirmed by running the code before this list existed "
        "(KLZ4-GAP-17543, KLZ4-GAP-HCLIM, KLZ4-GAP-3520, the target-0 behaviour of "
        "ULZ4-2019-PARTIAL). The matrix shows these, for the subjects and configurations run:")
    add("")
    found = []
    for c in cases:
        for spec in specs_in(recs):
            cell = cl.get((c["id"], spec))
            if not cell or cell["status"] not in ("known finding", "FAIL"):
                continue
            w = cell["worst"]
            kf = [k for k in c.get("known_findings", [])
                  if k.get("generation") == w.get("generation")]
            found.append((c, spec, cell, kf))
            text = cell_text(c, cell)
            configs = text[text.index("(") + 1:-1] if "(" in text else w["config"]
            if cell["status"] == "FAIL" or not kf:
                add("- **%s** on `%s` [%s]: **unexplained FAIL**: fix the case or, once the "
                    "failure is confirmed as a real bug, add a known finding" % (c["id"], spec,
                                                                                 configs))
            else:
                add("- **%s** on `%s` [%s] (source: %s): %s" % (
                    c["id"], spec, configs, kf[0].get("source", "not given"), kf[0]["note"]))
            if w.get("evidence"):
                add("  Evidence [%s]: `%s`" % (w["config"], w["evidence"].replace("`", "'")))
    if not found:
        add("- none in the results given")
    add("")
    new = [c for c in cases
           if any(str(k.get("source", "")).startswith("lz4gate (new)")
                  for k in c.get("known_findings", []))]
    if new:
        add("Found by lz4gate, not in history.md §9 (the case notes say how):")
        add("")
        for c in new:
            ours = [k for k in c.get("known_findings", [])
                    if str(k.get("source", "")).startswith("lz4gate (new)")]
            gens = sorted({k["generation"] for k in ours})
            first = ours[0]["note"].split(". ")[0].rstrip(".") + "."
            add("- [%s](#%s) (%s): %s" % (c["id"], c["id"].lower(), ", ".join(gens), first))
        add("")
    fast_ids = [c["id"] for c in cases
                if any("confirmed by lz4gate" in str(k.get("source", ""))
                       for k in c.get("known_findings", []))]
    if fast_ids:
        add("Known from reading the code and now confirmed by running it: %s "
            "(`LZ4_decompress_fast` in 6.1 reads before `dest`, and on 32-bit writes at a "
            "wrapped address)." % ", ".join(fast_ids))
        add("")
    # ---- checklist
    add("## Checklist for reviewing an LZ4 upgrade")
    add("")
    add("1. Run the list on the base and the candidate, in 64- and 32-bit and at -O0 and -O2: "
        "`make regress SUBJECT=\"kernel:OLD upstream:NEW\" CONFIGS=\"asan64 asan32 O0 O2 O0-32 "
        "O2-32\"` (or with `PATCHES=` for the vendoring patch series).")
    add("2. Every FAIL in the candidate column is a fix the update would drop: stop, and either "
        "carry the fix forward as a local patch or explain in the case why it no longer applies.")
    add("3. Every known finding in the base column that passes in the candidate is a fix the "
        "update brings in: say so in the merge request; remove the `known_findings` entry once "
        "the update lands (a known finding that no longer fails is stale).")
    add("4. A known finding in the candidate column needs its own decision (report upstream, or "
        "carry a local fix).")
    add("5. Behaviour changes are listed too (e.g. ULZ4-2019-PARTIAL: target 0 returns 0 "
        "upstream, -1 in 6.1; ULZ4-2020-783: partial decoding accepts a truncated literal run "
        "upstream): check the in-tree callers (erofs, f2fs, squashfs, zram, crypto, "
        "decompress_unlz4) against them.")
    add("6. Cases marked \"not exercised\" are still on the checklist: read their reason and check "
        "the glue by hand (crypto, erofs, unlz4), or add the runner support they describe.")
    add("7. `make mutants` must still pass: every exercised case fails on a subject with its "
        "bug and passes on ref.")
    add("8. Regenerate this file from the new results (`--snapshot`, `--write`) and commit it "
        "with the update.")
    add("")
    add("Adding a case is one step: drop a JSON file in regress/cases/ (see regress/README.md).")
    add("")
    # ---- per case
    add("## Cases")
    add("")
    for c in cases:
        add('<a id="%s"></a>' % c["id"].lower())
        add("")
        add("### %s: %s" % (c["id"], c["title"]))
        add("")
        add("- CVE: %s; origin: %s; bits: %s; class: %s" % (
            cve_of(c), c.get("origin", "-"), c.get("bits", "-"), c.get("class", "-")))
        add("- Commits: %s" % ("; ".join("`%s`" % x for x in c.get("commits", [])) or "-"))
        if c.get("entry"):
            add("- API entry: `%s`" % c["entry"])
        if c.get("related"):
            add("- Related: %s" % ", ".join("[%s](#%s)" % (r, r.lower()) for r in c["related"]))
        if c.get("generations"):
            add("- Generations: %s" % ", ".join(c["generations"]))
        add("- Trigger: %s" % c.get("trigger", "-"))
        add("- What the fix checks: %s" % c.get("fix", "-"))
        if not c.get("exercised"):
            add("- **Not exercised here**: %s" % c.get("reason", "-"))
        else:
            add("- Shown to fail on: %s (`python3 harness/regress.py --mutants --case %s`)"
                % (", ".join("`%s`" % s for s in c.get("fails_on", [])), c["id"]))
            if c.get("configs"):
                add("- Configurations: %s" % ", ".join(c["configs"]))
            add("")
            add("| tc | result | call | comment |")
            add("|---|---|---|---|")
            for t in c.get("tests", []):
                add("| %s | %s | %s | %s |" % (t["tcId"], t["result"],
                                               esc(call_summary(t["call"])), esc(t["comment"])))
            add("")
            rows = []
            for spec in specs_in(recs):
                cell = cl.get((c["id"], spec))
                if not cell:
                    continue
                per = ", ".join("%s %s" % (cfg, st) for cfg, st in
                                sorted(cell["configs"].items(), key=lambda x: config_key(x[0])))
                rows.append("- Results `%s`: %s" % (spec, per))
                if cell["status"] in ("FAIL", "known finding") and cell["worst"].get("evidence"):
                    rows.append("  - %s [%s]: `%s`" % (cell["status"], cell["worst"]["config"],
                                                      cell["worst"]["evidence"].replace("`", "'")))
            lines.extend(rows)
        for k in c.get("known_findings", []):
            add("- Known finding (%s): %s" % (k.get("generation"), k.get("note", "")))
        if c.get("notes"):
            add("- Notes: %s" % c["notes"])
        add("")
    return "\n".join(lines) + "\n"


# ---------------------------------------------------------------- check

def split_row(line):
    cols, cur, i = [], "", 0
    body = line.strip()
    if body.startswith("|"):
        body = body[1:]
    if body.endswith("|") and not body.endswith("\\|"):
        body = body[:-1]
    while i < len(body):
        ch = body[i]
        if ch == "\\" and i + 1 < len(body) and body[i + 1] == "|":
            cur += "|"
            i += 2
            continue
        if ch == "|":
            cols.append(cur.strip())
            cur = ""
        else:
            cur += ch
        i += 1
    cols.append(cur.strip())
    return cols


def listed_cases(md_text):
    """(id, title, cve) of every row of the case table in REGRESSIONS.md."""
    if BEGIN not in md_text or END not in md_text:
        raise BadInput("REGRESSIONS.md has no case table (markers %s ... %s); regenerate it "
                       "with --write" % (BEGIN, END))
    table = md_text.split(BEGIN, 1)[1].split(END, 1)[0]
    rows = []
    for line in table.splitlines():
        if not line.startswith("| ["):
            continue
        cols = split_row(line)
        m = re.match(r"^\[([^\]]+)\]", cols[0])
        if not m or len(cols) < 3:
            raise BadInput("REGRESSIONS.md: malformed table row: %s" % line[:80])
        rows.append((m.group(1), cols[1], cols[2]))
    return rows


def check(cases, md_path):
    try:
        with open(md_path) as f:
            text = f.read()
    except OSError as e:
        raise BadInput("cannot read %s: %s (generate it with --write)" % (md_path, e))
    listed = listed_cases(text)
    problems = []
    ids = [r[0] for r in listed]
    dups = sorted({i for i in ids if ids.count(i) > 1})
    for i in dups:
        problems.append("%s is listed more than once" % i)
    by_id = {r[0]: r for r in listed}
    want = {c["id"]: c for c in cases}
    for cid in sorted(set(want) - set(by_id)):
        problems.append("%s is a case file but is not listed in REGRESSIONS.md" % cid)
    for cid in sorted(set(by_id) - set(want)):
        problems.append("%s is listed in REGRESSIONS.md but has no case file" % cid)
    for cid in sorted(set(want) & set(by_id)):
        c, (_, title, cve) = want[cid], by_id[cid]
        if title != c["title"].replace("\n", " ").strip():
            problems.append("%s: title differs (case file: %r, REGRESSIONS.md: %r)"
                            % (cid, c["title"], title))
        if cve != cve_of(c):
            problems.append("%s: CVE differs (case file: %r, REGRESSIONS.md: %r)"
                            % (cid, cve_of(c), cve))
        if "\n### %s: " % cid not in text:
            problems.append("%s: no section in REGRESSIONS.md" % cid)
    return problems


# ---------------------------------------------------------------- main

def main(argv):
    ap = argparse.ArgumentParser(prog="regressions_md.py", description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    mode = ap.add_mutually_exclusive_group(required=True)
    mode.add_argument("--write", action="store_true", help="write REGRESSIONS.md")
    mode.add_argument("--check", action="store_true",
                      help="REGRESSIONS.md lists exactly the cases (ids, titles, CVEs)")
    mode.add_argument("--snapshot", metavar="OUT",
                      help="compact raw results files (regress.py --json) into OUT")
    ap.add_argument("raw", nargs="*", metavar="RAW", help="raw results files for --snapshot")
    ap.add_argument("--results", metavar="FILE",
                    help="results (JSON lines) for the status columns; default: %s"
                    % os.path.relpath(DEFAULT_RESULTS, TOP))
    ap.add_argument("--cases", metavar="DIR", default=CASES_DIR,
                    help="case directory (default: regress/cases)")
    ap.add_argument("--md", metavar="FILE", default=MD_PATH,
                    help="the Markdown file to write or check (default: REGRESSIONS.md)")
    ap.add_argument("--stdout", action="store_true", help="with --write: print, do not write")
    args = ap.parse_args(argv[1:])
    try:
        if args.snapshot:
            if not args.raw:
                raise BadInput("--snapshot needs at least one raw results file")
            recs = []
            for path in args.raw:
                recs += load_results(path)
            # A later file overrides an earlier one for the same case/spec/config.
            merged = {}
            for r in compact(recs):
                merged[(r["case"], r["spec"], r["config"])] = r
            out = sorted(merged.values(),
                         key=lambda r: (r["case"], r["spec"], config_key(r["config"])))
            os.makedirs(os.path.dirname(os.path.abspath(args.snapshot)), exist_ok=True)
            with open(args.snapshot, "w") as f:
                for r in out:
                    f.write(json.dumps(r, sort_keys=True) + "\n")
            print("%d records -> %s" % (len(out), args.snapshot))
            return 0
        cases = load_cases(args.cases)
        if args.check:
            problems = check(cases, args.md)
            for p in problems:
                print("regressions_md: " + p, file=sys.stderr)
            if problems:
                print("regressions_md: REGRESSIONS.md is out of date; run "
                      "python3 harness/regressions_md.py --write", file=sys.stderr)
                return 1
            print("REGRESSIONS.md lists the %d cases of regress/cases" % len(cases))
            return 0
        results = args.results or DEFAULT_RESULTS
        if args.results is None and not os.path.exists(results):
            results = None
        recs = compact(load_results(results))
        known = {c["id"] for c in cases}
        recs = [r for r in recs if r["case"] in known]
        name = os.path.relpath(os.path.abspath(results), TOP) if results else "no results"
        text = render(cases, recs, name)
        if args.stdout:
            sys.stdout.write(text)
        else:
            with open(args.md, "w") as f:
                f.write(text)
            print("wrote %s (%d cases, %d result records)" % (args.md, len(cases), len(recs)))
        return 0
    except BadInput as e:
        print("regressions_md.py: %s" % e, file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv))
