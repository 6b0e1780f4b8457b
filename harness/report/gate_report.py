"""All of the gate's reports from one context: report.md, report-full.md,
findings.json (stable across runs: no times, addresses or paths), junit.xml,
results.sarif, and reproducers/ (the fuzz inputs the commands replay)."""
import hashlib
import json
import os
import re
import shutil

from harness import atomic
from harness.findings.policy import CATEGORIES, LEVEL
from harness.paths import BUILD, TOP, shown
from harness.report import gate_markdown, junit, sarif
from harness.report.groups import failure_of_item
from harness.report.summaries import item_summary
from harness.report.regressions.results import config_key
from harness.subjects import options
from harness.subjects.build import subject_identity
from harness.subjects.origin import origin, replace_dir
from harness.subjects.spec import Subject

CASE_ID_PREFIXES = ("KLZ4-", "ULZ4-")


def candidate_root(gate):
    """Where the candidate's sources the frames point into live (the staged
    copy), and the user's own tree they were copied from."""
    return side_root(gate.opts.candidate, gate.opts.patch, side_kw(gate.opts, "candidate"))


def side_kw(o, role):
    """A side's --include/--define, as the gate's options hold them."""
    return getattr(o, role + "_opts", None) or {}


def side_root(spec, patches=(), kw=None):
    s = Subject(spec, patches, **(kw or {}))
    if s.files:
        return os.path.join(BUILD, "stage", s.id), s.path
    return TOP, TOP


def origins_of(o):
    """{side: Origin} (harness/subjects/origin.py): what the user calls each
    side, and where its files are in the user's tree."""
    return {"candidate": origin(o.candidate, getattr(o, "candidate_name", None),
                                o.source_root),
            "base": origin(o.base, getattr(o, "base_name", None))}


def roots_of(o):
    """[(side, (stage dir, tree, Origin))] of both sides, the candidate first."""
    got = origins_of(o)
    return [("candidate", side_root(o.candidate, o.patch, side_kw(o, "candidate")) +
             (got["candidate"],)),
            ("base", side_root(o.base, (), side_kw(o, "base")) + (got["base"],))]


def repository_root(o):
    """The root of the candidate's repository (its waivers file), or None
    for a subject without a tree."""
    return roots_of(o)[0][1][2].root or None


def locator(o):
    """(signature_of(item), location_of(item)): an item's report group
    signature and its source file relative to the candidate's repository
    root (waivers match on them)."""
    roots = roots_of(o)

    def location_of(item):
        top = failure_of_item(item).get("top")
        got = in_user_tree(top["file"], roots) if top and top.get("file") else None
        if got is None:
            found = entry_definition(roots[0][1][0], failure_of_item(item).get("entry"))
            got = in_user_tree(found[0], roots) if found else None
        return got[1] if got and got[0] == "candidate" else None

    def signature_of(item):
        return item.get("fix") or failure_of_item(item)["signature"]
    return signature_of, location_of


def in_user_tree(path, roots):
    """(side, path as the side's user knows it: relative to the root of its
    repository, or in the Debian package's folder) of a staged source
    file, or None for a file that is not a subject's (lz4gate's own shim or
    adapters). roots: [(side, (stage dir, tree, Origin))]."""
    path = os.path.abspath(path)
    for label, (stage_dir, tree, org) in roots:
        if stage_dir != TOP and path.startswith(stage_dir + os.sep):
            return label, org.path(os.path.join(tree, os.path.relpath(path, stage_dir)))
    return None


def shown_in_tree(path, roots):
    """A source path as the reader knows it: relative to the root of the
    side's repository ("internal-complibs/lz4-1.9.1/lz4.c"; a base file as
    "base: lib/lz4/x.c"), never inside lz4gate's build/stage; lz4gate's own
    files relative to lz4gate."""
    got = in_user_tree(path, roots)
    if not got:
        return shown(path)
    return got[1] if got[0] == "candidate" else "%s: %s" % got


def in_words(roots):
    """text -> text: a staged copy's folder written as the user's tree, and
    a tree lz4gate made (a default subject, a pr export) as the user can
    reach it (Origin.words). The report's last pass: messages and commands
    name no build/ folder."""
    def words(text):
        for _, (stage_dir, tree, org) in roots:
            if stage_dir != TOP:
                text = replace_dir(text, stage_dir, tree)
            text = org.words(text)
        return text
    return words


def make_context(gate, decision, out):
    o = gate.opts
    root, tree = candidate_root(gate)
    repro_dir = os.path.join(out, "reproducers")
    bkw, ckw = side_kw(o, "base"), side_kw(o, "candidate")
    patches = "".join(" --patch %s" % shown(p) for p in o.patch) + options.command_line(ckw)
    base_opts = options.command_line(bkw)

    roots = roots_of(o)
    words = in_words(roots)
    cand = roots[0][1][2]

    def relpath(path):
        return shown_in_tree(path, roots)

    def reproduce(item):
        return words(command(item))

    def command(item):
        config = sorted(item["configs"], key=config_key)[0]     # asan64 first
        # A newly fixed item fails on the base: that is what reproduces.
        on_base = item.get("relation", item["category"]) == "fixed"
        spec, p = (o.base, base_opts) if on_base else (o.candidate, patches)
        if item["stage"] == "kunit":
            # In the side's own kernel (harness/kunit): the table has the case.
            tree = shown(Subject(spec).path)
            return "python3 -m harness kunit --kernel %s%s  # case %s" % (
                tree, "" if on_base else "".join(" --patch %s" % shown(x) for x in o.patch),
                item["id"])
        if item["kind"] == "case":
            return "python3 -m harness regress --case %s --config %s %s%s" % (
                item["id"], config, spec, p)
        if item["kind"] == "contract":
            return "python3 -m harness contracts --config %s --check '%s' %s%s" % (
                config, item["id"], spec, p)
        f = item["fuzz"]
        if not f.get("input") or not os.path.isfile(f["input"]):
            return "(the input is not kept: %s)" % f.get("input")
        os.makedirs(repro_dir, exist_ok=True)
        with open(f["input"], "rb") as fh:
            data = fh.read()
        dest = os.path.join(repro_dir, "%s-%s.bin" % (f["target"],
                                                       hashlib.sha1(data).hexdigest()[:12]))
        if not os.path.exists(dest):
            shutil.copyfile(f["input"], dest)
        pair = "".join(" --patch-b %s" % shown(p) for p in o.patch) + \
            options.command_line(ckw, "-b")
        subjects = "--subject %s%s --subject-b %s%s" % (o.base, base_opts, o.candidate, pair) \
            if f["target"] == "base_vs_candidate" else "--subject %s%s" % (o.candidate, patches)
        return "python3 -m harness fuzz replay --target %s %s %s" % (f["target"], subjects,
                                                                     shown(dest))

    def history(item, markdown=True):
        """A link to the fix's entry under --doc-url (REGRESSIONS.md as
        published), or None: the report's own summary paragraph carries
        what a reader needs, so no link points into a repository the
        reader may not have."""
        fid = item["id"] if item["id"].startswith(CASE_ID_PREFIXES) else item.get("finding")
        if not o.doc_url or not fid or not fid.startswith(CASE_ID_PREFIXES):
            return None
        target = "%s#%s" % (o.doc_url, fid.lower())
        return "[%s](%s)" % (fid, target) if markdown else target

    def message(item):
        return item["fuzz"]["message"] if item.get("fuzz") else item["record"].get("evidence", "")

    return {"gate": gate, "decision": decision, "relpath": relpath, "reproduce": reproduce,
            "history": history, "message": message, "summary": item_summary,
            "in_user_tree": lambda path: in_user_tree(path, roots),
            "words": words, "names": {side: r[2].name for side, r in roots},
            "source_root_uri": source_root_uri(cand),
            "candidate_stage": root,
            "entry_location": lambda entry: entry_definition(root, entry),
            "identities": {"base": subject_identity(o.base, (), **bkw),
                           "candidate": subject_identity(o.candidate, o.patch, **ckw)},
            "groups": split_groups(decision)}


def source_root_uri(org):
    """The URI of SARIF's %SRCROOT%: the candidate's repository; lz4gate's
    top for a subject without a tree (its files are lz4gate's); None for a
    tree lz4gate fetched or exported, whose root is wherever the user
    unpacks or checks it out."""
    if not org.root:
        return "file://%s/" % TOP
    if org.prefix or org.root_as:
        return None
    return "file://%s/" % org.root.rstrip("/")


def split_groups(decision):
    """{category: [root cause]} of the decision (harness/findings/rootcause.py:
    the classifier grouped and placed them; the report only renders)."""
    return {c: [g for g in decision["groups"] if g["category"] == c] for c in CATEGORIES}


def entry_definition(root, entry):
    """(file, line) of the definition of an API entry (decompress_safe ->
    LZ4_decompress_safe, the old kernel API's lz4_*) in the candidate's
    sources, for results without a stack: where a reviewer starts."""
    if not entry:
        return None
    names = re.compile(r"^[^\s#/*].*\b(?:LZ4_|lz4_)?%s\s*\(" % re.escape(entry))
    for dirpath, _, files in sorted(os.walk(root)):
        for name in sorted(files):
            if not name.endswith(".c"):
                continue
            path = os.path.join(dirpath, name)
            with open(path, errors="replace") as f:
                for n, line in enumerate(f, 1):
                    if names.match(line) and not line.rstrip().endswith(";"):
                        return path, n
    return None


def findings_json(ctx):
    """The verdict and every finding, in a stable order, nothing that changes
    from run to run (two runs on the same inputs give the same file)."""
    out = {"verdict": "FAIL" if ctx["decision"]["failed"] else "PASS", "groups": {},
           "levels": LEVEL}
    for cat, groups in ctx["groups"].items():
        out["groups"][cat] = [{
            "signature": g["signature"], "severity": gate_markdown.SEVERITY[g["severity"]],
            "items": sorted(({"id": i["id"], "kind": i["kind"], "configs": sorted(i["configs"]),
                              "why": stable_why(i), "finding": i.get("finding"),
                              "relation": i.get("relation", cat),
                              "failure_kind": i.get("failure_kind")}
                             for i in g["items"]), key=lambda x: (x["kind"], x["id"]))}
            for g in groups]
    return json.dumps(out, indent=1, sort_keys=True) + "\n"


# Counts of replays and inputs change from run to run; the rest of "why" does not.
VOLATILE = re.compile(r"\(\d+ replays\)|\d+ of \d+ replays|confirmed by \d+ replays")


def stable_why(item):
    return VOLATILE.sub("", item["why"]) if item["kind"] == "fuzz" else item["why"]


def write_all(gate, decision, out):
    ctx = make_context(gate, decision, out)
    files = {"report": os.path.join(out, "report.md"),
             "full": os.path.join(out, "report-full.md"),
             "findings": os.path.join(out, "findings.json"),
             "junit": os.path.join(out, "junit.xml"),
             "sarif": os.path.join(out, "results.sarif")}
    shutil.rmtree(os.path.join(out, "reproducers"), ignore_errors=True)
    texts = {"report": gate_markdown.render(ctx), "full": gate_markdown.render(ctx, full=True),
             "findings": findings_json(ctx), "junit": junit.render(gate, decision),
             "sarif": sarif.render(ctx)}
    for key, path in files.items():
        atomic.write_file(path, texts[key])
    return files
