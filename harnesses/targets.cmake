# The fuzz targets.  rs_fuzz_target() is defined in the top CMakeLists.txt.

# AFL++'s libFuzzer driver (the `afl` preset) needs our flags out of argv
# and no defaults put in.
set(_afl_defs "")
if(CMAKE_C_COMPILER MATCHES "afl-")
  set(_afl_defs RS_AFL_DRIVER=1)
endif()

# rs_fuzz_defaults(NAME OUT) - the [libfuzzer] section of the target's
# harnesses/options/<base>.options as compile definitions for
# harnesses/defaults.h: RS_FUZZ_DEFAULTS="-key=value ...".  The per-pass
# targets and fusion_fuzzer share pass_fuzzer's file (as scripts/lib.sh's
# rs_target_files says).
function(rs_fuzz_defaults name out)
  string(REGEX REPLACE "_fuzzer.*" "_fuzzer" base ${name})
  if(base STREQUAL "fusion_fuzzer")
    set(base pass_fuzzer)
  endif()
  set(file ${CMAKE_SOURCE_DIR}/harnesses/options/${base}.options)
  set(flags "")
  if(EXISTS ${file})
    set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS ${file})
    file(STRINGS ${file} lines)
    set(section "")
    foreach(line IN LISTS lines)
      string(REGEX REPLACE "#.*" "" line "${line}")
      string(STRIP "${line}" line)
      if(line MATCHES "^\\[(.*)\\]$")
        set(section "${CMAKE_MATCH_1}")
      elseif(section STREQUAL "libfuzzer" AND line MATCHES "^([A-Za-z_]+) *= *(.+)$")
        list(APPEND flags "-${CMAKE_MATCH_1}=${CMAKE_MATCH_2}")
      endif()
    endforeach()
  endif()
  list(JOIN flags " " flags)
  set(${out} ${_afl_defs} PARENT_SCOPE)
  if(flags)
    set(${out} ${_afl_defs} RS_FUZZ_DEFAULTS="${flags}" PARENT_SCOPE)
  endif()
endfunction()

rs_fuzz_defaults(parse_fuzzer _defs)
# oracle/options.c: relaysmith's flag names, which it rejects.
rs_fuzz_target(parse_fuzzer SOURCES harnesses/parse_fuzzer.c oracle/options.c LIBS ${RS_RELAYC_TEXT}
               DEFS ${_defs})

# The production passes, the PASS rows of compiler/passes/passes.def (the
# one list of passes); each lives in compiler/passes/<name>.c.
# A new row re-runs CMake.
set(_passes_def ${CMAKE_SOURCE_DIR}/compiler/passes/passes.def)
set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS ${_passes_def})
file(STRINGS ${_passes_def} _pass_rows REGEX "^PASS\\(")
set(RS_PASSES "")
foreach(row ${_pass_rows})
  if(row MATCHES "^PASS\\(([a-z0-9_]+),")
    list(APPEND RS_PASSES ${CMAKE_MATCH_1})
  endif()
endforeach()

# The generator-driven targets get libFuzzer's custom mutator and crossover
# (harnesses/custom_mutator.c, mutators/mut.h) unless RS_CUSTOM_MUTATOR is
# OFF; at run time -byte_mutation=1 also falls back to byte mutation.
option(RS_CUSTOM_MUTATOR "span-aware custom mutator in the generator-driven fuzz targets" ON)
set(_mut_src "")
if(RS_CUSTOM_MUTATOR AND NOT RS_ENGINE STREQUAL "standalone")
  set(_mut_src harnesses/custom_mutator.c)
endif()
# rs_oracle_target(NAME): a generator-driven fuzz target, one binary of
# harnesses/fuzz_target.c per name; the name says what it checks
# (targets/targets.c).
function(rs_oracle_target name)
  cmake_parse_arguments(O "" "" "SOURCES;DEFS" ${ARGN})
  rs_fuzz_defaults(${name} defs)
  rs_fuzz_target(${name} SOURCES harnesses/fuzz_target.c ${_mut_src} ${O_SOURCES} LIBS rstargets
                 rsmut DEFS RS_HARNESS="${name}" ${defs} ${O_DEFS})
endfunction()

rs_oracle_target(pass_fuzzer)
# All passes on the fusion policy's programs (operator chains feeding
# reductions, conv2d and dense: what fuse_ops has most to do on).
rs_oracle_target(fusion_fuzzer)
rs_oracle_target(typecheck_fuzzer)
# Operator kernels against naive references: its inputs are kernel cases,
# not programs, so it mutates bytes (no span-aware custom mutator).
rs_fuzz_target(kernel_fuzzer SOURCES harnesses/fuzz_target.c LIBS rstargets rsmut
               DEFS RS_HARNESS="kernel_fuzzer" ${_afl_defs})
# Programs with one deliberate defect (generator/breaker.h): rejected with a
# diagnostic inside the program, or accepted and sound.
rs_oracle_target(reject_fuzzer)
if(TARGET relayc_front) # its front end is the subject: the parser's edges too
  set_target_properties(reject_fuzzer PROPERTIES RS_RELAYC relayc_front)
endif()
# MLIR 22's pipelines (targets/mlir), with libFuzzer's extra counters fed
# by the semantic observer (counters.c) and the known-bug list.
if(TARGET rsmlir)
  rs_oracle_target(
    mlir_fuzzer SOURCES targets/mlir/counters.c DEFS
    RS_KNOWN_BUGS="${CMAKE_SOURCE_DIR}/harnesses/known/mlir_fuzzer.known")
  rs_link_mlir(mlir_fuzzer)
  # MLIR text mutated at the level of MLIR's syntax, through the parser,
  # the verifier and a short pipeline (harnesses/mlir_text_fuzzer.c).
  rs_fuzz_defaults(mlir_text_fuzzer _defs)
  rs_fuzz_target(mlir_text_fuzzer SOURCES harnesses/mlir_text_fuzzer.c targets/mlir/counters.c
                 LIBS rsmlir DEFS ${_defs})
  set_property(TARGET mlir_text_fuzzer APPEND PROPERTY BUILD_RPATH "\$ORIGIN/lib")
endif()
# One binary per production pass, named after it.
foreach(p ${RS_PASSES})
  rs_oracle_target(pass_fuzzer_${p})
endforeach()

# AFL++ (the `afl` preset, CC=afl-clang-fast): the generator and the
# mutator are compiled without AFL's instrumentation (afl-cc with
# AFL_NOOPT=1 is plain clang), so that, as with libFuzzer, the feedback is
# the compiler's behaviour, not the decoder's.
if(CMAKE_C_COMPILER MATCHES "afl-")
  set_target_properties(rsgen rsmut PROPERTIES C_COMPILER_LAUNCHER "env;AFL_NOOPT=1")
endif()

# The AFL++ custom mutator, relaysmith_afl.so (AFL_CUSTOM_MUTATOR_LIBRARY):
# afl-fuzz itself has no instrumentation runtime or sanitizers, so the
# library gets its own plain, position-independent copy of the compiler,
# generator and mutator sources.
option(RS_AFL_MUTATOR "build the AFL++ custom mutator library relaysmith_afl.so" OFF)
if(RS_AFL_MUTATOR)
  add_library(relaysmith_afl MODULE mutators/afl_mutator.c ${RELAYC_SRC} ${GEN_SRC} ${MUT_SRC})
  set_target_properties(relaysmith_afl PROPERTIES PREFIX "" POSITION_INDEPENDENT_CODE ON
                                                  COMPILE_OPTIONS "" LINK_OPTIONS "")
  target_link_libraries(relaysmith_afl PRIVATE m)
  if(CMAKE_C_COMPILER MATCHES "afl-")
    set_target_properties(relaysmith_afl PROPERTIES C_COMPILER_LAUNCHER "env;AFL_NOOPT=1")
  endif()
endif()
