"""SARIF 2.1.0 (the format GitHub code scanning and GitLab read): one result
per gate item, at the candidate's file:line when the failure has a frame in
the candidate's code; rule ids are case and check ids (fuzz findings:
fuzz/TARGET/SIGNATURE)."""
import json
import os
import urllib.parse

SCHEMA = "https://json.schemastore.org/sarif-2.1.0.json"
# The root of the user's repository (--source-root, or the candidate's git
# top level): GitHub's and GitLab's code scanning resolve it to the checkout.
SRCROOT = "%SRCROOT%"
from harness.findings import policy

# The policy's levels as SARIF's: FAIL error, WARN warning, INFO note.
LEVEL = {c: {policy.FAIL: "error", policy.WARN: "warning", policy.INFO: "note"}[lv]
         for c, lv in policy.LEVEL.items()}


def rule_id(item):
    if item["kind"] == "fuzz":
        return "fuzz/%s/%s" % (item["target"], item["id"])
    return item["id"]


def result(ctx, grp, item):
    fail = grp["failure"]
    text = "%s: %s (%s, %s) [%s]" % (
        item["category"], item["id"], grp["signature"], item["why"], ", ".join(item["configs"]))
    res = {"ruleId": rule_id(item), "level": LEVEL[item["category"]],
           "message": {"text": ctx["words"](text + ". Reproduce: " + ctx["reproduce"](item))},
           "properties": {"category": item["category"], "signature": grp["signature"],
                          "configurations": item["configs"]}}
    top = fail.get("top")
    if top and top.get("file") and top.get("line"):
        res["locations"] = [location(ctx, top["file"], top["line"], top["func"])]
    else:
        # No stack (a wrong result, a contract deviation): the entry point's
        # definition, since code scanning shows only located results.
        found = ctx["entry_location"](fail.get("entry"))
        if found:
            res["locations"] = [location(ctx, found[0], found[1], None)]
    return res


def location(ctx, path, line, func):
    """A place in the user's repository, relative to its root (base id
    %SRCROOT%: code scanning resolves it against the checkout); a file of
    lz4gate's own (its shim or adapters) by its absolute URI."""
    got = ctx["in_user_tree"](path)
    if got:
        art = {"uri": urllib.parse.quote(got[1]), "uriBaseId": SRCROOT}
    else:
        art = {"uri": "file://" + urllib.parse.quote(os.path.abspath(path))}
    out = {"physicalLocation": {"artifactLocation": art, "region": {"startLine": line}}}
    if func:
        out["logicalLocations"] = [{"name": func, "kind": "function"}]
    return out


def render(ctx):
    rules, results = {}, []
    for cat in policy.CATEGORIES:
        for grp in ctx["groups"][cat]:
            for item in grp["items"]:
                rid = rule_id(item)
                rule = {"id": rid, "shortDescription": {"text": item.get("title") or rid}}
                about = ctx["summary"](item)
                history = ctx["history"](item, markdown=False)
                if about or history:
                    rule["help"] = {"text": " ".join(filter(None, [
                        about, history and "History: " + history]))}
                rules.setdefault(rid, rule)
                results.append(result(ctx, grp, item))
    run = {"tool": {"driver": {"name": "lz4gate",
                               "rules": sorted(rules.values(), key=lambda r: r["id"])}},
           "results": results,
           # each side as the report's header names it
           "properties": {"base": ctx["names"]["base"], "candidate": ctx["names"]["candidate"]}}
    # A tree lz4gate fetched (a Debian package) has no root of the user's:
    # %SRCROOT% is then wherever the reader unpacks it.
    if ctx["source_root_uri"]:
        run["originalUriBaseIds"] = {SRCROOT: {"uri": ctx["source_root_uri"]}}
    log = {"$schema": SCHEMA, "version": "2.1.0", "runs": [run]}
    return json.dumps(log, indent=1, sort_keys=True) + "\n"
