#!/bin/bash -eu
# OSS-Fuzz / ClusterFuzzLite build script: builds every lz4gate fuzz target
# (fuzz/targets.tsv) with the environment's $CC $CFLAGS $LIB_FUZZING_ENGINE
# into $OUT, with <target>_seed_corpus.zip, <target>.dict and
# <target>.options beside each.
#
#   LZ4GATE_SUBJECT  the implementation to fuzz (default: upstream, i.e. the
#                    tree fetched by `python3 -m harness fetch`); in a
#                    project that vendors LZ4, e.g. kernel:$SRC/linux
#   LZ4GATE_BASE     the base for base_vs_candidate (default: the subject)
top=$(cd "$(dirname "$0")/../.." && pwd)
: "${CC:?}" "${CFLAGS?}" "${LIB_FUZZING_ENGINE:?}" "${OUT:?}"
subject=${LZ4GATE_SUBJECT:-upstream}
base=${LZ4GATE_BASE:-$subject}
py=${PYTHON:-python3}
harness() { (cd "$top" && "$py" -m harness "$@"); }

targets=$(harness fuzz list --targets)
for t in $targets; do
    subjects=(--subject "$subject")
    [ "$t" = base_vs_candidate ] && subjects=(--subject "$base" --subject-b "$subject")
    binary=$(harness fuzz build -q --target "$t" --engine env "${subjects[@]}")
    cp "$binary" "$OUT/$t"
    "$py" - "$top/corpus/$t" "$OUT/${t}_seed_corpus.zip" <<'PY'
import os, sys, zipfile
src, dst = sys.argv[1], sys.argv[2]
with zipfile.ZipFile(dst, "w") as z:
    for name in sorted(os.listdir(src)):
        z.write(os.path.join(src, name), name)
PY
    cp "$top/corpus/lz4_block.dict" "$OUT/$t.dict"
    printf '[libfuzzer]\ndict = %s.dict\nmax_len = 1048576\n' "$t" >"$OUT/$t.options"
done
echo "built:" $targets "-> $OUT"
