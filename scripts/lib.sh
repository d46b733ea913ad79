# scripts/lib.sh - shared by the scripts: locate the tree, install what is
# missing from Debian's packages.  Sourced, not run.

RS_ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)

# rs_help SCRIPT - print the script's usage: its opening comment, after
# the #! line, up to the first line that is not a comment.
rs_help() {
  sed -n '2,/^[^#]/s/^# \{0,1\}//p' "$1"
}

# rs_help_case SCRIPT ARG - print the usage and exit 0 when ARG is -h or
# --help.
rs_help_case() {
  case "${2:-}" in -h|--help) rs_help "$1"; exit 0 ;; esac
}

# rs_need CMD:PACKAGE ... - install the packages whose command or file is
# missing.  An entry whose first part starts with / is a file path.  As
# root it runs apt-get; otherwise it prints the exact command and fails.
rs_need() {
  local missing=() item what pkg
  for item in "$@"; do
    what=${item%%:*}
    pkg=${item#*:}
    if [[ $what == /* ]]; then
      compgen -G "$what" >/dev/null || missing+=("$pkg")
    else
      command -v "$what" >/dev/null 2>&1 || missing+=("$pkg")
    fi
  done
  [ ${#missing[@]} -eq 0 ] && return 0
  # Remove duplicates, keep order.
  local uniq=() p q seen
  for p in "${missing[@]}"; do
    seen=0
    for q in "${uniq[@]}"; do [ "$p" = "$q" ] && seen=1; done
    [ $seen = 0 ] && uniq+=("$p")
  done
  if [ "$(id -u)" = 0 ]; then
    echo "relaysmith: installing ${uniq[*]}" >&2
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -qq >&2 || true
    apt-get install -y -qq --no-install-recommends "${uniq[@]}" >&2
  else
    echo "relaysmith: missing packages. Run:" >&2
    echo "  sudo apt-get install -y ${uniq[*]}" >&2
    return 1
  fi
}

# The toolchain every build needs: clang with libFuzzer and the sanitizer
# runtimes, cmake, ninja, zip.
rs_need_toolchain() {
  rs_need clang:clang \
    '/usr/lib/llvm-*/lib/clang/*/lib/linux/libclang_rt.fuzzer-x86_64.a:libclang-rt-dev' \
    cmake:cmake ninja:ninja-build zip:zip
}

# MLIR 22 for the MLIR target (targets/mlir/mlir.cmake): the C API's
# headers and libraries, and mlir-opt-22 / mlir-runner-22 for reproducers.
# Optional: when it cannot be installed the build leaves the target out
# (RS_MLIR=AUTO) and says so here.
rs_need_mlir() {
  rs_need '/usr/lib/llvm-22/lib/libMLIR.so*:libmlir-22-dev' mlir-opt-22:mlir-22-tools ||
    echo "relaysmith: MLIR 22 is not installed: the MLIR target and its tests are left out" >&2
}

# rs_build PRESET [TARGET...] - configure (once) and build.
rs_build() {
  local preset=$1
  shift
  cmake --preset "$preset" -S "$RS_ROOT" >/dev/null || return 1
  cmake --build "$RS_ROOT/build/$preset" ${1:+--target "$@"}
}

# rs_target_preset TARGET - the build preset a fuzz target is built with
# (sets RS_PRESET): the MLIR targets build without ASan (mlir), the others
# with it (fuzz).  Installs MLIR's packages when the target needs them.
rs_target_preset() {
  RS_PRESET=fuzz
  case "$1" in
    mlir_fuzzer | mlir_text_fuzzer)
      RS_PRESET=mlir
      rs_need_mlir
      ;;
  esac
  return 0
}

# rs_target_files TARGET - where a fuzz target's companion files live.
# Per-pass targets (pass_fuzzer_<pass>) and fusion_fuzzer share
# pass_fuzzer's files.  Sets RS_SEEDS (seed corpus directory), RS_DICT and
# RS_OPTIONS (paths; the files may not exist).
rs_target_files() {
  local base=${1%%_fuzzer*}_fuzzer
  [ "$base" = fusion_fuzzer ] && base=pass_fuzzer
  RS_SEEDS="$RS_ROOT/harnesses/corpus/$base"
  RS_DICT="$RS_ROOT/dictionaries/$base.dict"
  [ "$base" = parse_fuzzer ] && RS_DICT="$RS_ROOT/dictionaries/relay_text.dict"
  RS_OPTIONS="$RS_ROOT/harnesses/options/$base.options"
  return 0
}
