"""Every disagreement with ref that a runner accepts is a named row of ref's
tables (ref/profile.c): the profile rules (strict vs compatible) and the API
latitudes. A latitude used in code but missing from the table, or a row no
runner uses, is an error; and the fuzz targets stop (fz_latitude) rather
than accept a disagreement under a name the table does not have."""
import os
import re
import subprocess

from conftest import TOP

VECTORS = os.path.join("harness", "runners", "vectors")
USERS = [os.path.join(d, f) for d in ("fuzz", VECTORS) for f in sorted(os.listdir(os.path.join(TOP, d)))
         if f.endswith((".c", ".h"))]


def table_names():
    with open(os.path.join(TOP, "ref", "profile.c")) as f:
        text = f.read()
    body = text[text.index("const ref_latitude ref_latitudes[]"):]
    body = body[:body.index("};")]
    return re.findall(r'\{\s*"([A-Z0-9_]+)"', body)


def used_names():
    used = {}
    for rel in USERS:
        with open(os.path.join(TOP, rel)) as f:
            for name in re.findall(r'(?:fz_latitude|ref_latitude_named)\("([A-Z0-9_]+)"\)',
                                   f.read()):
                used.setdefault(name, []).append(rel)
    return used


def test_every_latitude_used_is_in_the_table_and_every_row_is_used():
    table, used = table_names(), used_names()
    assert len(table) == len(set(table)) >= 5
    assert set(used) <= set(table), "not in ref/profile.c: %s" % sorted(set(used) - set(table))
    assert set(table) <= set(used), "rows no runner uses: %s" % sorted(set(table) - set(used))


def test_no_latitude_is_accepted_by_a_bare_string():
    # A rule name assigned without the table lookup would bypass it.
    for rel in USERS:
        with open(os.path.join(TOP, rel)) as f:
            text = f.read()
        for name in table_names():
            bare = re.findall(r'(?<![(])"%s"' % name, text)
            assert not bare, "%s uses \"%s\" without fz_latitude()" % (rel, name)


def test_a_missing_row_stops_the_fuzz_target(tmp_path):
    # The mutant: the table without one row that the decode oracle uses.
    src = os.path.join(TOP, "ref", "profile.c")
    with open(src) as f:
        text = f.read()
    start = text.index('    { "PARTIAL_EARLY_END"')
    end = text.index('    { "PARTIAL_LOOKAHEAD_REJECT"')
    mutant = tmp_path / "profile.c"
    mutant.write_text(text[:start] + text[end:])
    prog = tmp_path / "probe"
    probe = tmp_path / "probe.c"
    probe.write_text('#include "oracle.h"\nFZ_TARGET("probe");\n'
                     'int main(void) { fz_latitude("PARTIAL_EARLY_END"); return 0; }\n')
    refs = [os.path.join(TOP, "ref", f) for f in os.listdir(os.path.join(TOP, "ref"))
            if f.endswith(".c") and f != "profile.c"]
    oracle = [os.path.join(TOP, "fuzz", f) for f in ("oracle.c", "oracle_record.c")]
    subprocess.run(["cc", "-std=gnu11", "-I" + os.path.join(TOP, "fuzz"),
                    "-I" + os.path.join(TOP, "ref"),
                    "-o", str(prog), str(probe), str(mutant)] + oracle + refs, check=True)
    proc = subprocess.run([str(prog)], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                          universal_newlines=True)
    assert proc.returncode != 0
    assert "has no latitude PARTIAL_EARLY_END" in proc.stderr
