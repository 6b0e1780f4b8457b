"""--check: REGRESSIONS.md lists exactly the case files (ids, titles, CVEs)."""
import re

from harness.errors import BadInput
from harness.report.regressions.render import BEGIN, END, cve_of


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
