#!/bin/bash -eu
# OSS-Fuzz / ClusterFuzzLite build script: builds every lz4gate fuzz target
# with the environment's $CC $CFLAGS $LIB_FUZZING_ENGINE into $OUT, with
# <target>_seed_corpus.zip, <target>.dict and <target>.options beside each.
#
#   LZ4GATE_SUBJECT  the implementation to fuzz (default: upstream, i.e. the
#                    tree fetched by harness/fetch_subjects.py); in a
#                    project that vendors LZ4, e.g. kernel:$SRC/linux
#   LZ4GATE_BASE     the base for base_vs_candidate (default: the subject)
top=$(cd "$(dirname "$0")/../.." && pwd)
: "${CC:?}" "${CFLAGS?}" "${LIB_FUZZING_ENGINE:?}" "${OUT:?}"
subject=${LZ4GATE_SUBJECT:-upstream}
base=${LZ4GATE_BASE:-$subject}
py=${PYTHON:-python3}

subject_dir=$("$py" "$top/harness/subjects.py" build -q "$subject" --config env)
base_dir=$("$py" "$top/harness/subjects.py" build -q "$base" --config env)
link=$("$py" -c 'import json, sys; print(" ".join(json.load(open(sys.argv[1]))["link"]))' \
       "$subject_dir/subject.json")

targets="decode_differential compress_roundtrip ref_to_subject base_vs_candidate frame_decode
         frame_roundtrip legacy_decode"
for t in $targets; do
    objs=("$subject_dir/subject.o")
    [ "$t" = base_vs_candidate ] && objs=("$base_dir/subject.o" "$subject_dir/subject_b.o")
    extra=()   # the frame targets drive the subject through harness/frame_driver.c
    case $t in frame_*|legacy_*) extra=("$top/harness/frame_driver.c" "$top/harness/guard.c") ;; esac
    # shellcheck disable=SC2086
    $CC $CFLAGS -std=gnu11 -I"$top/fuzz" -I"$top/ref" -I"$top/harness" \
        "$top/fuzz/$t.c" "${extra[@]}" "$top"/ref/*.c "${objs[@]}" $LIB_FUZZING_ENGINE $link \
        -o "$OUT/$t"
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
