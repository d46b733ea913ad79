#!/bin/bash -eu
# Builds every relaysmith fuzz target for OSS-Fuzz / ClusterFuzzLite with
# $CC, $CXX, $CFLAGS, $CXXFLAGS and $LIB_FUZZING_ENGINE exactly as given
# (RS_ENGINE=external adds no flags of its own; targets link with $CXX),
# and puts into $OUT each target with its <target>_seed_corpus.zip,
# <target>.dict, <target>.options and <target>.known (the known-bug list
# mlir_fuzzer reads beside itself).  Where the image has MLIR 22 (the
# Dockerfile installs it when it can), mlir_fuzzer is built too, and the
# shared libraries it needs (libMLIR, libLLVM and theirs, and the runner
# utilities the JIT loads) go into $OUT/lib, where its rpath ($ORIGIN/lib)
# finds them on a runner without MLIR.
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
  # The known-bug list, which the target reads beside itself.
  known="$src/harnesses/known/$target.known"
  if [ -f "$known" ]; then cp "$known" "$OUT/$target.known"; fi
done < "$build/fuzz_targets.txt"
if grep -qx mlir_fuzzer "$build/fuzz_targets.txt"; then
  mkdir -p "$OUT/lib"
  for f in "$build/mlir_fuzzer" /usr/lib/llvm-22/lib/libmlir_c_runner_utils.so; do
    [ -f "$f" ] && cp -L "$f" "$OUT/lib/" 2>/dev/null || true
    ldd "$f" | awk '/=> \//{print $3}' | grep -vE '/(libc|libm|libdl|librt|libpthread|ld-linux[^/]*)\.so' |
      while read -r lib; do cp -L "$lib" "$OUT/lib/"; done
  done
  rm -f "$OUT/lib/mlir_fuzzer"
  echo "relaysmith: mlir_fuzzer's libraries in $OUT/lib: $(ls "$OUT/lib" | wc -l) files" >&2
fi
