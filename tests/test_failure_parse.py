"""Reading failures (harness/evidence/failure.py, groups.py): messages are
never cut mid-word or from the wrong end, the API entry is found under every
adapter prefix, and a guard-page fault is attributed to the nearest buffer."""
import os

import pytest

from harness.fuzzing.findings import from_records
from harness.evidence.failure import (clip, failure_of, fault_of_frames, first_sanitizer_line,
                                    top_subject_frame)
from harness.report.groups import access_of, where

pytestmark = pytest.mark.check

SEGV = """lz4gate-buffer input 0x7f0000003fef 0x7f0000004000
lz4gate-buffer output 0x7f0000001fdf 0x7f0000002000
==1==ERROR: AddressSanitizer: SEGV on unknown address 0x7f0000002000 (pc 0x1 bp 0x2 sp 0x3 T0)
==1==The signal is caused by a WRITE memory access.
    #0 0x55 in LZ4_compress_generic /stage/lib/lz4/lz4_compress.c:310:14
    #1 0x56 in LZ4_compress_fast /stage/lib/lz4/lz4_compress.c:520:9
    #2 0x57 in %s_compress_default /work/harness/subjects/adapters/adapter_kernel.c:88:12
    #3 0x58 in main /work/harness/runners/regress/regress.c:40:3
"""


def test_clip_keeps_the_start_and_cuts_between_words():
    text = "lz4: the decoder followed an offset to null pointer " + "x" * 40 + " tail words"
    got = clip(text, 60)
    assert got.startswith("lz4: the decoder followed an offset")
    assert got.endswith("...") and len(got) <= 60
    assert "null pointer" in got and "xxxx" not in got     # never inside a word
    assert clip("short", 60) == "short"


@pytest.mark.parametrize("prefix", ["api", "a", "k", "f", "r", "b"])
def test_the_entry_is_found_under_every_adapter_prefix(prefix):
    got = failure_of(SEGV % prefix)
    assert got["entry"] == "compress_default"
    assert got["top"]["func"] == "LZ4_compress_generic"
    assert got["signature"] == "OOB-WRITE@compress_default in LZ4_compress_generic"


def test_a_fault_in_the_adapter_itself_is_its_own_top_frame():
    frames = [{"num": 0, "func": "b_decompress_safe", "file": "/a/adapter_broken.c", "line": 9},
              {"num": 1, "func": "call", "file": "/a/harness/runners/x.c", "line": 3}]
    assert top_subject_frame(frames)["func"] == "b_decompress_safe"


def test_a_guard_page_fault_names_the_nearest_buffer():
    # 0x...2000 is the first byte after output and 8175 bytes before input:
    # the write ran off the end of output.
    assert where(SEGV % "k") == "the first byte past the end of output (guard page)"
    acc = access_of({"text": SEGV % "k"})
    assert acc["kind"] == "WRITE" and acc["size"] is None
    before = SEGV.replace("address 0x7f0000002000", "address 0x7f0000003fe0") % "k"
    assert where(before) == "15 bytes before the start of input (guard page)"


def test_asan_words_give_the_distance_and_the_buffer():
    text = ("==1==ERROR: AddressSanitizer: heap-buffer-overflow on address 0x602000000013\n"
            "READ of size 1 at 0x602000000013 thread T0\n"
            "0x602000000013 is located 3 bytes to the right of 16-byte region "
            "[0x602000000000,0x602000000010)\n")
    assert where(text) == "3 bytes past the end of a 16-byte buffer"
    assert access_of({"text": text})["size"] == 1


def test_one_defect_has_one_signature_whatever_the_sanitizer_saw():
    # The same over-read at a guard page (SEGV) and on the heap (ASan's
    # region report), faulting inside a memory-access helper: one signature,
    # named after the helper's caller.
    stack = ("    #0 0x1 in LZ4_wildCopy32 /s/lib/lz4.c:400:5\n"
             "    #1 0x2 in LZ4_decompress_generic /s/lib/lz4.c:1900:13\n"
             "    #2 0x3 in api_decompress_safe_partial /h/adapter_upstream.c:10:1\n")
    segv = ("==1==ERROR: AddressSanitizer: SEGV on unknown address 0x7f0000002000 (pc 0x1 bp 0 "
            "sp 0 T0)\n"
            "==1==The signal is caused by a READ memory access.\n" + stack)
    heap = ("==1==ERROR: AddressSanitizer: heap-buffer-overflow on address 0x10 at pc 0x1\n"
            "READ of size 32 at 0x10 thread T0\n" + stack)
    want = "OOB-READ@decompress_safe_partial in LZ4_decompress_generic"
    assert failure_of(segv)["signature"] == failure_of(heap)["signature"] == want
    assert failure_of(heap)["top"]["line"] == 1900


def test_a_segv_in_the_null_pages_is_a_null_dereference_not_an_overrun():
    # ULZ4-LZ4F-ALLOCFAIL-REUSE: a field of a NULL state, NULL+0x4014
    text = ("==1==ERROR: AddressSanitizer: SEGV on unknown address 0x000000004014 (pc 0x1 bp 0 "
            "sp 0 T0)\n==1==The signal is caused by a WRITE memory access.\n"
            "    #0 0x1 in LZ4_prepareTable /s/lib/lz4.c:700:5\n"
            "    #1 0x3 in f_begin /h/adapter_upstream_frame.c:10:1\n")
    got = failure_of(text)
    assert got["signature"].startswith("NULL-WRITE@"), got
    assert got["signature"].endswith(" in LZ4_prepareTable"), got
    assert got["cls"].startswith("NULL pointer dereference"), got
    # the last address of the NULL pages, and the first one past them
    assert failure_of(text.replace("0x000000004014", "0xffff"))["signature"].startswith("NULL-")
    assert failure_of(text.replace("0x000000004014", "0x10000"))["signature"].startswith("OOB-")


UB_THEN_ASAN = """/stage/lib/lz4frame.c:900:21: runtime error: applying zero offset to null pointer
    #0 0x40 in LZ4F_compressBegin_usingCDict /stage/lib/lz4frame.c:900:21
    #1 0x41 in f_frame_compress /work/harness/subjects/adapters/adapter_upstream_frame.c:50:9
==2==ERROR: AddressSanitizer: heap-buffer-overflow on address 0x602 at pc 0x1 bp 0x2 sp 0x3
READ of size 1 at 0x602 thread T0
    #0 0x50 in LZ4_decompress_generic /stage/lib/lz4.c:1968:13
    #1 0x51 in LZ4_decompress_safe /stage/lib/lz4.c:2049:12
    #2 0x52 in api_decompress_safe /work/harness/subjects/adapters/adapter_lz4_api.h:50:10
0x602 is located 0 bytes to the right of 9-byte region [0x5f9,0x602)
"""


def test_the_crash_site_is_the_faulting_report_not_an_earlier_ubsan_note():
    # UBSan in subject code reports and continues; the ASan report after it
    # is the fault, and its stack names the site (issue 23 item 7).
    got = failure_of(UB_THEN_ASAN)
    assert got["top"]["func"] == "LZ4_decompress_generic", got["top"]
    assert got["signature"] == "OOB-READ@decompress_safe in LZ4_decompress_generic"


def test_a_ubsan_report_alone_keeps_its_own_stack():
    got = failure_of(UB_THEN_ASAN.split("==2==")[0])
    assert got["top"]["func"] == "LZ4F_compressBegin_usingCDict"


def test_entry_presence_is_read_from_the_sides_own_records():
    from harness.findings.placement import Evidence
    recs = [{"role": "base", "stage": "contracts", "check": "frame_decompress.x",
             "config": "asan64", "verdict": "n/a"},
            {"role": "base", "stage": "contracts", "check": "decompress_safe.y",
             "config": "asan64", "verdict": "pass"},
            {"role": "candidate", "stage": "contracts", "check": "frame_decompress.x",
             "config": "asan64", "verdict": "FAIL", "fail_class": "frame_error"}]
    ev = Evidence(recs)
    assert ev.has_entry("base", "frame_decompress") is False
    assert ev.has_entry("base", "decompress_safe") is True
    assert ev.has_entry("candidate", "frame_decompress") is True
    assert ev.has_entry("base", "unlz4") is None


ORACLE_FAIL = ("lz4gate-fuzz base_vs_candidate: FAIL [cross_decode@compress_fast]: kernel's "
               "10-byte block of 29 bytes decodes in upstream to 29 bytes that differ\n")


def test_the_side_at_fault_is_read_from_its_own_line():
    got = failure_of(ORACLE_FAIL + "lz4gate-fuzz-fault: base\n")
    assert got["fault"] == "base" and got["kind"] == "cross_decode@compress_fast"
    assert "fault" not in got["message"]
    assert failure_of("  " + ORACLE_FAIL + "  lz4gate-fuzz-fault: candidate\n")["fault"] == \
        "candidate"                                     # as the replay command prints it
    assert failure_of(ORACLE_FAIL)["fault"] is None
    # The words of a message are not the field.
    assert failure_of(ORACLE_FAIL.replace("differ", "differ; fault: base"))["fault"] is None


def test_a_campaign_record_carries_the_side_at_fault(tmp_path):
    (tmp_path / "counts.7").write_text("cross_decode@compress_fast 3\nwrong_output@x 1\n")
    for fid, extra in (("cross_decode@compress_fast", "\nfault: base"), ("wrong_output@x", "")):
        (tmp_path / ("%s.7.0.input" % fid)).write_bytes(b"x")
        (tmp_path / ("%s.7.0.msg" % fid)).write_text(ORACLE_FAIL.strip() + extra)
    got = from_records(str(tmp_path))
    assert got["cross_decode@compress_fast"]["fault"] == "base"
    assert got["cross_decode@compress_fast"]["message"] == ORACLE_FAIL.strip()
    assert got["wrong_output@x"]["fault"] is None


def frames_in(path):
    return [{"num": 0, "func": "LZ4_decompress_generic", "file": path, "line": 9},
            {"num": 1, "func": "api_decompress_safe", "file": "/t/adapter_upstream.c", "line": 3}]


def test_a_crash_is_put_on_the_side_whose_staged_tree_holds_its_top_frame(tmp_path):
    base, cand = str(tmp_path / "stage" / "kernel-1a2b"), str(tmp_path / "stage" / "up-3c4d")
    assert fault_of_frames(frames_in(base + "/lib/lz4/lz4_decompress.c"), base, cand) == "base"
    assert fault_of_frames(frames_in(cand + "/lib/lz4.c"), base, cand) == "candidate"
    # A sibling whose name starts like a root is not inside it.
    assert fault_of_frames(frames_in(base + "-x/lib/lz4.c"), base, cand) is None
    # Our code, no subject frame, one tree for both sides: no side.
    assert fault_of_frames(frames_in("/elsewhere/lz4.c"), base, cand) is None
    assert fault_of_frames([], base, cand) is None
    assert fault_of_frames(frames_in(base + "/lib/lz4.c"), base, base) is None
    # Relative roots (build/stage/ID) match the absolute paths of a stack.
    rel = os.path.relpath(base)
    assert fault_of_frames(frames_in(base + "/lib/lz4.c"), rel, cand) == "base"


def test_a_crash_without_a_sanitizer_report_is_not_named_by_a_buffer_address():
    # An O2 build's SIGSEGV leaves only the buffer map on stderr: the evidence
    # is then the runner's own words, the same on every machine.
    text = "lz4gate-buffer output 0x7f61ebd38fec 0x7f61ebd39000\n"
    assert first_sanitizer_line(text) == ""
    assert first_sanitizer_line(text + "decoder gave up\n") == "decoder gave up"
    # nor by the step it was at (isolate.h isolate_step: the record names it apart)
    assert first_sanitizer_line(text + "lz4gate-step allocation 3 failing\n") == ""
