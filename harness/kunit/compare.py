"""The in-kernel (KUnit) results of a tree beside lz4gate's userspace run of
the same tree's LZ4 files on the kshim (harness/subjects/kshim): a case
whose verdict differs is a defect of the shim or a kernel-only behaviour,
and the case must say which (its "kunit" "differs" text)."""
from harness import toolchain
from harness.runners.regress.run import run_subject

# The userspace configuration compared with each UML build: the one with
# guard pages and ASan (32-bit: asan32 where this machine runs it, else the
# plain 32-bit build under the emulator).
KSHIM_CONFIG = "asan64"


def kshim_config(uml_config):
    if uml_config == "uml32":
        return "asan32" if toolchain.runnable("asan32") else "O2-32"
    return KSHIM_CONFIG


def compare(cases, kernel_records, kshim_records, config=KSHIM_CONFIG):
    """[(case id, outcome, detail)]: outcome is same, differs (explained),
    DIFFERS (unexplained) or not compared; config: the kshim's."""
    by_case = {}
    for r in kernel_records:
        by_case.setdefault(r["case"], {})[r["tcId"]] = r
    kshim = {r["case"]: r for r in kshim_records}
    out = []
    for case in cases:
        rows = by_case.get(case["id"])
        rec = kshim.get(case["id"])
        if not rows:
            continue
        run = {t: r for t, r in rows.items() if r["status"] != "SKIP"}
        if not run:
            first = next(iter(rows.values()))["message"].splitlines()
            out.append((case["id"], "not compared", "every row skipped in the kernel (%s)"
                        % (first[-1][:80] if first else "")))
            continue
        if rec is None or rec["verdict"] == "n/a":
            why = "kernel glue" if not case.get("exercised") else rec["evidence"]
            out.append((case["id"], "not compared", "no userspace run [%s]: %s"
                        % (config, why)))
            continue
        crashed = [r for t, r in rows.items() if t is None]
        failed = sorted(str(t) for t, r in run.items() if r["status"] == "FAIL")
        if rec["verdict"] == "pass":
            kernel_says = "FAIL (tc %s)" % ", ".join(failed) if failed else "pass"
            same = not failed
        else:
            t = rec.get("test")
            row = run.get(t)
            if row is None and not crashed:
                out.append((case["id"], "not compared", "kshim fails tc %s, which the kernel "
                            "suite skips" % t))
                continue
            same = bool(crashed) or row["status"] == "FAIL"
            kernel_says = "FAIL" if same else "pass (tc %s)" % t
        detail = "kshim [%s] %s, kernel %s" % (config, rec["verdict"], kernel_says)
        if same:
            out.append((case["id"], "same", detail))
        elif (case.get("kunit") or {}).get("differs"):
            out.append((case["id"], "differs (explained)",
                        detail + ": " + case["kunit"]["differs"]))
        else:
            out.append((case["id"], "DIFFERS", detail + ": explain it in the case "
                        "(kunit.differs) or fix the shim"))
    return out


def kshim_run(src, cases, config=KSHIM_CONFIG, patches=()):
    """The same tree's LZ4 files (with the same patches) on the kshim."""
    return run_subject("kernel:" + src, cases, [config], list(patches), quiet=True)


def report(rows, say=print, label=""):
    """Print the comparison; the number of unexplained differences."""
    for cid, outcome, detail in rows:
        if outcome != "same":
            say("%s%-24s %-20s %s" % (label, cid, outcome, detail))
    counts = {}
    for _, outcome, _ in rows:
        counts[outcome] = counts.get(outcome, 0) + 1
    say("%skernel vs kshim: %s" % (label, ", ".join("%d %s" % (n, o) for o, n in sorted(counts.items()))))
    return counts.get("DIFFERS", 0)
