"""From regression cases to the rows of the KUnit suite: which tests the
kernel's lib/lz4 can run, with every size and expectation resolved to a
number, and why the others are skipped. No C here (emit.py writes it)."""
import re

from harness.runners.regress.cases import load_cases

# Entry points of the regression runner (harness/runners/regress/regress.c)
# -> the kernel function the suite calls (include/linux/lz4.h, 4.11+;
# include/linux/decompress/unlz4.h), as named in suite_runtime.c.
KERNEL_ENTRIES = {
    "decompress_safe": ("KLZ4_DECOMPRESS_SAFE", "LZ4_decompress_safe"),
    "decompress_safe_partial": ("KLZ4_DECOMPRESS_SAFE_PARTIAL", "LZ4_decompress_safe_partial"),
    "decompress_fast": ("KLZ4_DECOMPRESS_FAST", "LZ4_decompress_fast"),
    "decompress_safe_using_dict": ("KLZ4_DECOMPRESS_USING_DICT",
                                   "LZ4_decompress_safe_usingDict"),
    "compress_default": ("KLZ4_COMPRESS_DEFAULT", "LZ4_compress_default"),
    "compress_fast": ("KLZ4_COMPRESS_FAST", "LZ4_compress_fast"),
    "compress_hc": ("KLZ4_COMPRESS_HC", "LZ4_compress_HC"),
    "compress_dest_size": ("KLZ4_COMPRESS_DEST_SIZE", "LZ4_compress_destSize"),
    "unlz4": ("KLZ4_UNLZ4", "unlz4"),
}
# Kernel glue: the crypto API over crypto/lz4.c and crypto/lz4hc.c. Only a
# case's "kunit" tests call these (regress/README.md): the userspace runners
# have no such entry point.
GLUE_ENTRIES = {"crypto_decompress": "KLZ4_CRYPTO_DECOMPRESS",
                "crypto_compress": "KLZ4_CRYPTO_COMPRESS"}
CRYPTO_ALGS = ("lz4", "lz4hc")
CRYPTO_KEYS = {"entry", "expect", "alg", "input", "data", "output", "decoded", "src_size",
               "capacity"}
DECODERS = ("decompress_safe", "decompress_safe_partial", "decompress_fast",
            "decompress_safe_using_dict")
OLD_API = ("old_decompress", "old_decompress_unknown", "old_compress", "old_hc_compress")

# Keys of a call the suite understands; any other key skips the test.
DECODE_KEYS = {"entry", "expect", "input", "output", "decoded", "src_size", "capacity",
               "target", "original", "dict", "in_place", "max_seconds"}
COMPRESS_KEYS = {"entry", "expect", "data", "capacity", "repeat_capacity", "src_size",
                 "acceleration", "level", "max_seconds"}
UNLZ4_KEYS = {"entry", "expect", "input", "output", "mode", "max_seconds"}
KEY_REASONS = {
    "high": "high=1 maps buffers at a fixed high address; the kernel suite cannot",
    "alloc_fail_at": "allocation-failure injection is not wired into the kernel suite",
}
# Generated data kinds (harness/runners/common/testdata.c) -> enum klz4_gen
# of suite_runtime.c, which makes the same bytes; zeros is a run.
GENERATED = {"random": "KLZ4_RANDOM", "text": "KLZ4_TEXT", "mixed": "KLZ4_MIXED",
             "unique": "KLZ4_UNIQUE"}
INT_MIN, INT_MAX = -2 ** 31, 2 ** 31 - 1


class Unsupported(Exception):
    """A test the kernel suite cannot express; the message is the reason."""


def c_name(case_id):
    """The C identifier prefix of a case: KLZ4-2014-4611 -> klz4_2014_4611."""
    name = re.sub(r"[^0-9a-zA-Z]", "_", case_id).lower()
    return name if not name[0].isdigit() else "c_" + name


def blob(spec):
    """A data spec as segments: ("bytes", b"...") or ("run", BYTE, COUNT)."""
    spec = str(spec)
    if spec.startswith("hex:"):
        h = spec[4:]
        try:
            return [("bytes", bytes.fromhex(h[:len(h) // 2 * 2]))]
        except ValueError:
            raise Unsupported("bad hex in %r" % spec[:40])
    if spec.startswith("pattern:"):
        segs = []
        for part in spec[8:].split(","):
            m = re.match(r"^([0-9A-Fa-f]{2})x(\d+)$", part)
            if not m:
                raise Unsupported("bad pattern part %r" % part)
            segs.append(("run", int(m.group(1), 16), int(m.group(2))))
        return segs
    if spec.startswith("concat:"):
        return [s for part in spec[7:].split("+") for s in blob(part)]
    m = re.match(r"^([a-z]+):(\d+)(?::(\d+))?$", spec)
    if m and m.group(1) == "zeros":
        return [("run", 0, int(m.group(2)))]
    if m and m.group(1) in GENERATED:
        return [("gen", GENERATED[m.group(1)], int(m.group(2)), int(m.group(3) or 1))]
    kind = spec.split(":", 1)[0]
    if kind in ("compress", "legacy", "frame"):
        raise Unsupported("input %s:... is made by ref's encoder at run time; the "
                          "suite has no precomputed copy yet" % kind)
    if kind == "file":
        raise Unsupported("file: inputs are not embedded in the suite yet")
    raise Unsupported("data spec %r" % spec[:40])


def blob_size(segs):
    return sum(len(s[1]) if s[0] == "bytes" else s[2] for s in segs)



def size_expr(expr, input_len, decoded):
    """A size expression of regress.c (number, input|decoded|bound[+-N])."""
    expr = str(expr)
    m = re.match(r"^(input|decoded|bound)([+-]\d+)?$", expr)
    if m:
        base = {"input": input_len, "decoded": decoded,
                "bound": decoded + decoded // 255 + 16}[m.group(1)]
        value = base + int(m.group(2) or 0)
    else:
        try:
            value = int(expr, 0)
        except ValueError:
            raise Unsupported("size expression %r" % expr)
    if not INT_MIN <= value <= INT_MAX:
        raise Unsupported("size %d does not fit an int" % value)
    return value


def expectation(expect, input_len, decoded):
    """(C enum, value) of an expect= of a decoder or unlz4."""
    if expect == "reject" or expect == "return:<0":
        return "KLZ4_REJECT", 0
    if expect == "any":
        return "KLZ4_ANY", 0
    if expect == "decoded":
        return "KLZ4_EQUAL", decoded
    if expect == "return:>=0":
        return "KLZ4_NOT_NEGATIVE", 0
    if expect.startswith("return:"):
        return "KLZ4_EQUAL", size_expr(expect[7:], input_len, decoded)
    raise Unsupported("expect=%s" % expect)


def check_keys(call, allowed):
    for key in sorted(call):
        if key in KEY_REASONS:
            raise Unsupported(KEY_REASONS[key])
        if key not in allowed:
            raise Unsupported("key %s= is not supported by the kernel suite" % key)


def decode_row(call):
    check_keys(call, DECODE_KEYS)
    segs = blob(call.get("input", ""))
    n = blob_size(segs)
    decoded = int(call.get("decoded", 0))
    row = {"input": segs, "output": blob(call["output"]) if "output" in call else [],
           "dict": blob(call["dict"]) if "dict" in call else [],
           "in_place": str(call.get("in_place", "0")) not in ("0", ""), "decoded": decoded}
    row["src_size"] = size_expr(call.get("src_size", "input"), n, decoded)
    row["capacity"] = size_expr(call.get("capacity", "decoded"), n, decoded)
    row["target"] = size_expr(call.get("target", row["capacity"]), n, decoded)
    row["original"] = size_expr(call.get("original", "decoded"), n, decoded)
    row["expect"], row["value"] = expectation(call["expect"], n, decoded)
    return row


def compress_row(call):
    check_keys(call, COMPRESS_KEYS)
    segs = blob(call.get("data", ""))
    n = blob_size(segs)
    if "repeat_capacity" in call:
        lo, _, hi = str(call["repeat_capacity"]).partition(":")
        cap_from, cap_to = size_expr(lo, n, n), size_expr(hi, n, n)
    else:
        cap_from = cap_to = size_expr(call.get("capacity", n + n // 255 + 16), n, n)
    return {"input": segs, "src_size": size_expr(call.get("src_size", n), n, n),
            "cap_from": cap_from, "cap_to": cap_to, "expect": "KLZ4_ROUNDTRIP", "value": 0,
            "acceleration": int(call.get("acceleration", 1)),
            "level": int(call.get("level", 9))}


def unlz4_row(call):
    check_keys(call, UNLZ4_KEYS)
    segs = blob(call.get("input", ""))
    mode = call.get("mode", "buffer")
    if mode not in ("buffer", "fill"):
        raise Unsupported("unlz4 mode=%s" % mode)
    expect, value = expectation(call["expect"], blob_size(segs), 0)
    if call["expect"] == "decoded":
        raise Unsupported("unlz4 expect=decoded")
    return {"input": segs, "output": blob(call["output"]) if "output" in call else [],
            "fill": mode == "fill", "expect": expect, "value": value}


def crypto_row(call):
    """A crypto API row: decompress expects "errno" (a negative errno, never
    LZ4's own value: KLZ4-2017-CRYPTO-ERR) or "decoded"; compress expects
    "roundtrip" (an errno, or a block within the capacity that decodes back)."""
    check_keys(call, CRYPTO_KEYS)
    if call.get("alg") not in CRYPTO_ALGS:
        raise Unsupported("alg=%s is not one of %s" % (call.get("alg"), ", ".join(CRYPTO_ALGS)))
    compress = call["entry"] == "crypto_compress"
    segs = blob(call.get("data" if compress else "input", ""))
    n = blob_size(segs)
    decoded = int(call.get("decoded", n if compress else 0))
    expect = {"errno": "KLZ4_ERRNO", "decoded": "KLZ4_EQUAL",
              "roundtrip": "KLZ4_ROUNDTRIP"}.get(call["expect"])
    if not expect or (expect == "KLZ4_ROUNDTRIP") != compress:
        raise Unsupported("%s expect=%s" % (call["entry"], call["expect"]))
    return {"input": segs, "output": blob(call["output"]) if "output" in call else [],
            "alg": call["alg"], "decoded": decoded, "expect": expect, "value": decoded,
            "src_size": size_expr(call.get("src_size", "input"), n, decoded),
            "capacity": size_expr(call.get("capacity", "bound" if compress else "decoded"),
                                  n, decoded)}


def test_row(test, bits):
    """The row of one test: a dict with 'entry' (the C enum), or with
    'skip' (the reason) when the suite cannot run it."""
    call = test["call"]
    entry = str(call["entry"])
    row = {"tcId": int(test["tcId"]), "bits": 0 if bits == "both" else int(bits),
           "name": entry}
    try:
        if entry in OLD_API:
            raise Unsupported("%s is the kernel 3.11-4.10 API (gone since 4.11)" % entry)
        if entry in GLUE_ENTRIES:
            row.update(crypto_row(call))
            row["entry"] = GLUE_ENTRIES[entry]
            return row
        if entry not in KERNEL_ENTRIES:
            raise Unsupported("%s is not an entry point of the kernel's lib/lz4" % entry)
        if entry in DECODERS:
            row.update(decode_row(call))
        elif entry == "unlz4":
            row.update(unlz4_row(call))
        else:
            row.update(compress_row(call))
        row["entry"] = KERNEL_ENTRIES[entry][0]
        if row.get("fill"):
            row["entry"] = "KLZ4_UNLZ4_FILL"
    except Unsupported as e:
        return {"tcId": row["tcId"], "bits": row["bits"], "name": entry, "skip": str(e)}
    return row


def kunit_tests(case):
    """The case's kernel-only tests (its "kunit" object: the glue the
    userspace runners cannot call)."""
    return list((case.get("kunit") or {}).get("tests") or [])


def suite(cases_dir=None):
    """(included, excluded): included is [(case, [row...])] for every case
    with at least one test calling a kernel entry point; excluded is
    [(case id, reason)] for the others."""
    cases = load_cases(cases_dir=cases_dir) if cases_dir else load_cases()
    included, excluded, names = [], [], {}
    for case in cases:
        # The EROFS tests are the other suite's (harness/kunit/emit_erofs.py).
        glue = [t for t in kunit_tests(case) if t["call"]["entry"] != "erofs"]
        tests = (case.get("tests") or []) + glue if case.get("exercised") else glue
        if not glue and kunit_tests(case):
            excluded.append((case["id"], "in the lz4gate_erofs suite (fs/erofs/decompressor.c)"))
            continue
        if not case.get("exercised") and not glue:
            reason = " ".join(str(case.get("reason", "")).split())
            excluded.append((case["id"], "not exercised here: %s"
                             % (reason[:117] + "..." if len(reason) > 120 else reason)))
            continue
        entries = sorted({str(t["call"]["entry"]) for t in tests})
        if not any(e in KERNEL_ENTRIES or e in GLUE_ENTRIES for e in entries):
            excluded.append((case["id"], "no test calls a kernel entry point (%s)"
                             % ", ".join(entries)))
            continue
        name = c_name(case["id"])
        if name in names:
            raise ValueError("cases %s and %s have the same C name %s"
                             % (names[name], case["id"], name))
        names[name] = case["id"]
        included.append((case, [test_row(t, case["bits"]) for t in tests]))
    return included, excluded
