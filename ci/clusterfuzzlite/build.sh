#!/bin/bash -eu
# ClusterFuzzLite build: fuzz this project's vendored LZ4 (a Linux-style
# tree at the top of the repository) against lz4gate's reference codec.
export LZ4GATE_SUBJECT=${LZ4GATE_SUBJECT:-kernel:$SRC/project}
exec "$SRC/project/lz4gate/ci/oss-fuzz/build.sh"
