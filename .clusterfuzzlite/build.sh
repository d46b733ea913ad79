#!/bin/bash -eu
# Builds every relaysmith fuzz target for OSS-Fuzz / ClusterFuzzLite with
# $CC, $CXX, $CFLAGS, $CXXFLAGS and $LIB_FUZZING_ENGINE exactly as given
# (RS_ENGINE=external adds no flags of its own; targets link with $CXX),
# and puts into $OUT each target with its <target>_seed_corpus.zip,
# <target>.dict and <target>.options.
src=${SRC}/relaysmith
[ -d "$src" ] || src=$(cd "$(dirname "$0")/.." && pwd)
source "$src/scripts/lib.sh"
build=${WORK}/relaysmith-build
cmake -S "$src" -B "$build" -G Ninja \
  -DRS_ENGINE=external -DRS_LIB_FUZZING_ENGINE="$LIB_FUZZING_ENGINE" \
  -DRS_TESTS=OFF -DCMAKE_C_COMPILER="$CC" -DCMAKE_CXX_COMPILER="$CXX"
cmake --build "$build"
while read -r target; do
  [ -n "$target" ] || continue
  [[ $target =~ ^[A-Za-z0-9_-]+$ ]] || { echo "bad target name: $target" >&2; exit 1; }
  cp "$build/$target" "$OUT/"
  rs_target_files "$target"
  if [ -d "$RS_SEEDS" ]; then
    rm -f "$OUT/${target}_seed_corpus.zip"
    (cd "$RS_SEEDS" && zip -q -j "$OUT/${target}_seed_corpus.zip" ./*)
  fi
  if [ -f "$RS_DICT" ]; then cp "$RS_DICT" "$OUT/$target.dict"; fi
  if [ -f "$RS_OPTIONS" ]; then cp "$RS_OPTIONS" "$OUT/$target.options"; fi
done < "$build/fuzz_targets.txt"
