"""What a failing run printed, parsed once: the oracle's verdict line, a
sanitizer report, a UBSan line. Every tool that reads a failure (the fuzz
campaigns, triage, the regression runner, the gate) uses these."""
import os
import re

from harness.evidence import classes

# Lines that say a fuzz input failed (the oracle, a sanitizer, libFuzzer).
FAIL_RE = re.compile(r"(lz4gate-fuzz \S+: FAIL.*|==\d+==ERROR: .*|SUMMARY: .*|"
                     r"ERROR: libFuzzer: .*)")
UBSAN_RE = re.compile(r"(\S+:\d+:\d+: runtime error: .*)")

ORACLE_RE = re.compile(r"lz4gate-fuzz (\S+): FAIL(?: \[([^\]]+)\])?: (.*)")
SANITIZER_RE = re.compile(r"ERROR: (AddressSanitizer|LeakSanitizer|MemorySanitizer|"
                          r"UndefinedBehaviorSanitizer|libFuzzer): ([\w-]+)(.*)")
ACCESS_RE = re.compile(r"^(READ|WRITE) of size (\d+)", re.M)
# The adapter frame under the subject's code names the API entry: api_* in
# the LZ4_* adapters (upstream, kernel), k_* the old kernel API, f_* the frame
# API, r_* ref, b_* the broken test adapters (harness/subjects/adapters/).
ADAPTER_PREFIX = r"(?:api|a|k|f|r|b)_"
ADAPTER_FRAME_RE = re.compile(r"#\d+ 0x[0-9a-f]+ in " + ADAPTER_PREFIX + r"(\w+) ")
UB_RE = re.compile(r"(\S+:\d+:\d+): runtime error: (.*)")
# The pair target names the side at fault on its own line after the failure
# line (fuzz/oracle.h, fz_finding_by).
FAULT_RE = re.compile(r"^\s*lz4gate-fuzz-fault: (base|candidate)\s*$", re.M)


# ASan's reports of an access outside a buffer (the region it hit).
ASAN_CLASSES = {
    "heap-buffer-overflow": "OOB", "stack-buffer-overflow": "OOB",
    "global-buffer-overflow": "OOB", "use-after-poison": "OOB",
    "stack-buffer-underflow": "OOB", "dynamic-stack-buffer-overflow": "OOB",
    "container-overflow": "OOB", "stack-use-after-return": "OOB",
    "stack-use-after-scope": "OOB",
}
# Report types that are another table class's (libFuzzer's own words: its
# "deadly signal" is a crash, "fuzz target exited" ended without a verdict).
REPORT_CLASSES = {"deadly": "crash", "fuzz": "failed", "leak": "memory-leak",
                  "requested": "out-of-memory", "allocation-size-too-big": "out-of-memory",
                  "calloc-overflow": "out-of-memory", "malloc-limit": "out-of-memory",
                  "Segmentation": "SEGV", "SIGSEGV": "SEGV", "SIGBUS": "SEGV",
                  "SIGABRT": "crash", "SIGILL": "crash", "SIGFPE": "crash",
                  "Aborted": "crash"}


def failure_of(text):
    """What a failing run printed: {kind, message, entry, cls, frames, top,
    signature, fault}. kind is what must stay the same while minimising: the
    oracle's CLASS@ENTRY, or the sanitizer's report type, access and API
    entry; signature adds the top frame in subject code (signature());
    fault is the side the pair target blamed ("base", "candidate") or None."""
    out = _failure_of(text)
    fault = FAULT_RE.search(text)
    out["fault"] = fault.group(1) if fault else None
    out["frames"] = frames_of(text)
    out["top"] = top_subject_frame(out["frames"])
    out["signature"] = signature(signature_class(out["kind"], text), out["entry"], out["top"])
    return out


# Sanitizer reports of one out-of-bounds access: ASan names the region it
# hit (heap, stack, a poisoned guard), a guard page gives SEGV. One defect
# reaches several (a guard page in the runners, the heap in the fuzzers),
# so the signature names the access instead.
OOB_REPORTS = set(ASAN_CLASSES) | {"SEGV"}
SEGV_ACCESS_RE = re.compile(r"caused by a (READ|WRITE) memory access")
SEGV_ADDRESS_RE = re.compile(r"SEGV on unknown address (0x[0-9a-fA-F]+)")
# Below this address nothing is ever mapped (Linux's vm.mmap_min_addr,
# 64 KiB by default): a fault there is a NULL pointer plus an offset (a
# field of a NULL state: ULZ4-LZ4F-ALLOCFAIL-REUSE faults at NULL+0x4014),
# not an access past a buffer.
NULL_PAGE_END = 0x10000


def null_based(text):
    """Is the report a SEGV at an address no mapping can hold?"""
    m = SEGV_ADDRESS_RE.search(text)
    return bool(m) and int(m.group(1), 16) < NULL_PAGE_END


def signature_class(kind, text):
    """The failure class of a signature: OOB-READ / OOB-WRITE for an
    out-of-bounds access whatever the sanitizer called it, NULL-READ /
    NULL-WRITE for a SEGV in the NULL pages, else the oracle's class or the
    sanitizer's report type."""
    what = kind.split(" in ")[0].split("@")[0]
    report = what.split(" ")[0]
    if report in OOB_REPORTS:
        acc = ACCESS_RE.search(text) or SEGV_ACCESS_RE.search(text)
        if acc:
            return ("NULL-" if report == "SEGV" and null_based(text) else "OOB-") + acc.group(1)
    return what


def fail_class_of(sig):
    """The table class (harness/evidence/classes.py) of a signature or of
    the class part of one: the oracle's and the runners' class names are
    the table's; a sanitizer's report type maps to the row of that name (its
    out-of-bounds reports to OOB-READ/WRITE already in signature_class), a
    UBSan report to "ubsan"; a report type the table does not know is an
    "unknown-crash" (a memory error the classes do not tell apart), never
    left without a class."""
    what = (sig or "").split(" in ")[0].split("@")[0].strip()
    if what.startswith("ubsan"):
        return "ubsan"
    word = what.split(" ")[0]
    for name in (what, word, REPORT_CLASSES.get(word)):
        if name and classes.is_class(name):
            return name
    if word in ASAN_CLASSES:
        return "OOB-READ"            # an overflow without its access line
    return "unknown-crash"


def signature(cls, entry, top=None):
    """The one failure signature: failure class @ API entry, and the function
    of the top frame in subject code when there is a stack. Suppression
    (known findings), de-duplication (campaigns) and grouping (reports) all
    key on it."""
    key = "%s@%s" % (cls, entry or "-")
    return key + (" in %s" % top["func"] if top else "")


def _failure_of(text):
    m = ORACLE_RE.search(text)
    if m:
        fid = m.group(2) or "oracle_error"
        cls, _, entry = fid.partition("@")
        return {"kind": fid, "message": m.group(0).strip(), "entry": entry or None,
                "cls": classes.get(cls).what if classes.is_class(cls)
                else cls.replace("_", " ")}
    m = SANITIZER_RE.search(text)
    if m:
        tool, what = m.group(1), m.group(2)
        rest = text[m.end():]
        acc = ACCESS_RE.search(rest)
        frame = ADAPTER_FRAME_RE.search(rest)
        entry = frame.group(1) if frame else None
        if tool == "LeakSanitizer":
            what = "memory-leak"
        kind = "%s%s%s" % (what, " " + acc.group(1) if acc else "",
                           " in " + entry if entry else "")
        if what in ASAN_CLASSES and acc:
            cls = "%s %s (%s)" % (ASAN_CLASSES[what], acc.group(1).lower(), what)
        elif what == "SEGV" and null_based(text):
            cls = "NULL pointer dereference (SEGV below address 0x10000)"
        elif what == "SEGV":
            cls = "invalid memory access (SEGV)"
        elif what == "memory-leak":
            cls = "memory leak"
        else:
            cls = "memory error (%s: %s)" % (tool, what)
        line = m.group(0).strip()
        return {"kind": kind, "message": re.sub(r"^==\d+==", "", line).strip(),
                "entry": entry, "cls": cls}
    m = UB_RE.search(text)
    if m:
        what = re.sub(r"[-\d]+", "N", m.group(2).split(" of type")[0])[:80]
        return {"kind": "ubsan: " + what, "message": m.group(0).strip(), "entry": None,
                "cls": "undefined behaviour (%s)" % m.group(2).split(":")[0]}
    sig = re.search(r"(SIG[A-Z]+|deadly signal|Segmentation fault|Aborted)", text)
    return {"kind": sig.group(1) if sig else "failed", "message":
            (text.strip().splitlines() or ["failed without a message"])[-1].strip(),
            "entry": None, "cls": "crash"}


# A symbolized stack frame: "#3 0x55d0c1 in LZ4_decompress_generic /path/lz4.c:1957:13"
FRAME_RE = re.compile(r"^\s*#(\d+) 0x[0-9a-f]+ in (\S+)"
                      r"(?: (\S+?):(\d+)(?::\d+)?| \(\S+\))?\s*$", re.M)
# Frames of the runtimes: sanitizers, libc's memory functions, the engines.
RUNTIME_FUNC = re.compile(r"^(__asan|__ubsan|__sanitizer|__interceptor|__libc|__mem|_start$|"
                          r"fuzzer::|LLVMFuzzer|memcpy$|memmove$|memset$|memcmp$|strlen$)")
RUNTIME_FILE = re.compile(r"(compiler-rt|sanitizer_common|/libc|glibc|libFuzzer|/usr/lib/)")
# The adapters call the subject (ADAPTER_PREFIX above).
ADAPTER_FUNC = re.compile("^" + ADAPTER_PREFIX + r"\w+$")
# Without an adapter frame the fault is not under a subject call: our code.
OURS_FILE = re.compile(r"/(harness|fuzz|ref|tests)/")


# The report of the error that stopped the program: its stack is the
# fault's, not that of a UBSan note printed before it (UBSan in subject code
# reports and continues: toolchain.SUBJECT_UBSAN).
FATAL_RE = re.compile(r"^.*ERROR: (?:AddressSanitizer|MemorySanitizer|LeakSanitizer): .*$", re.M)


def frames_of(text):
    """[{num, func, file, line}] of the stack of the fatal sanitizer report
    in text, else of the first stack (a UBSan report)."""
    out = []
    fatal = FATAL_RE.search(text)
    if fatal:
        text = text[fatal.start():]
    for m in FRAME_RE.finditer(text):
        num = int(m.group(1))
        if out and num == 0:
            break                      # the next stack (allocation, free...)
        out.append({"num": num, "func": m.group(2), "file": m.group(3) or "",
                    "line": int(m.group(4)) if m.group(4) else 0})
    return out


# The subjects' memory-access helpers (upstream's LZ4_read16/LZ4_wildCopy32,
# the kernel's get_unaligned/LZ4_copy8...): every defect of their callers
# faults inside them, so the caller is the frame that tells defects apart.
ACCESS_HELPER_FUNC = re.compile(
    r"^(LZ4_(read|write)(16|32|64|ARCH|LE16|LE32|LE64)|LZ4_readLE16|LZ4_writeLE16|"
    r"LZ4_wildCopy\w*|LZ4_memcpy\w*|LZ4_memmove|LZ4_copy\d+|LZ4_secureCopy\w*|"
    r"read_variable_length|(get|put)_unaligned\w*|__(get|put)_unaligned\w*)$")


def subject_frames(frames):
    """The frames of the subject's own code, innermost first: those below
    the first adapter frame (or the adapter frame itself when the fault is
    there), runtimes and, without an adapter frame, lz4gate's code skipped."""
    below = next((i for i, f in enumerate(frames) if ADAPTER_FUNC.match(f["func"])), None)
    if below == 0:
        return frames[:1]
    return [f for f in (frames[:below] if below is not None else frames)
            if not (RUNTIME_FUNC.match(f["func"]) or (f["file"] and RUNTIME_FILE.search(f["file"])))
            and not (below is None and f["file"] and OURS_FILE.search(f["file"]))]


def top_subject_frame(frames):
    """The innermost frame of the subject's own code, or None: the frames
    below the first adapter frame (the subject called from an adapter),
    runtimes and memory-access helpers skipped (the helper's frame only
    when it is all there is)."""
    subject = subject_frames(frames)
    return next((f for f in subject if not ACCESS_HELPER_FUNC.match(f["func"])),
                subject[0] if subject else None)


def fault_of_frames(frames, base_root, candidate_root):
    """The side of the pair target a sanitizer report is in: "base" or
    "candidate" when the top subject frame's file lies in that subject's
    staged tree (build/stage/<subject id>/...), else None (no subject frame,
    a file in neither tree, or both sides staged from the same tree)."""
    top = top_subject_frame(frames)
    if not top or not top["file"]:
        return None
    path = os.path.normpath(os.path.abspath(top["file"]))
    inside = []
    for side, root in (("base", base_root), ("candidate", candidate_root)):
        root = os.path.normpath(os.path.abspath(root)) if root else None
        if root and (path + os.sep).startswith(root + os.sep):
            inside.append((len(root), side))
    if not inside or (len(inside) == 2 and inside[0][0] == inside[1][0]):
        return None
    return max(inside)[1]         # the deeper root, should one hold the other


def clip(text, limit):
    """The start of text, at most limit characters, cut between words (never
    in the middle of one, never from the end), with "..." when cut."""
    text = " ".join((text or "").split())
    if len(text) <= limit:
        return text
    cut = text.rfind(" ", 0, limit - 3)
    return text[:cut if cut > limit // 2 else limit - 3].rstrip() + "..."


def report_of(text, limit=4096):
    """What a reader of a crash needs from a program's output: the runner's
    buffer map (guard.h) and the sanitizer's report from its ERROR line on
    (as isolate.c keeps it for the contract runner)."""
    buffers = [l for l in text.splitlines() if l.startswith("lz4gate-buffer ")]
    start = text.find("ERROR: ")
    if start < 0:
        start = text.find("runtime error:")
    if start < 0:
        return ""
    start = text.rfind("\n", 0, start) + 1
    return ("\n".join(buffers) + "\n" if buffers else "") + text[start:start + limit]


def first_sanitizer_line(text):
    """The line a reader needs first: the sanitizer's ERROR line, else a
    UBSan report, else the last line that is not the runners' buffer map
    (addresses mean nothing to a reader, and differ from run to run) or a
    step line (isolate.h isolate_step: the record names it apart)."""
    for pat in ("ERROR: AddressSanitizer", "runtime error:", "ERROR: "):
        for line in text.splitlines():
            if pat in line:
                return line.strip()
    said = [l.strip() for l in text.splitlines()
            if l.strip() and not l.startswith(("lz4gate-buffer ", "lz4gate-step "))]
    return said[-1] if said else ""
