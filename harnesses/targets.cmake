# The fuzz targets.  rs_fuzz_target() is defined in the top CMakeLists.txt.
rs_fuzz_target(parse_fuzzer SOURCES harnesses/parse_fuzzer.c LIBS ${RS_RELAYC_TEXT})

# The production passes, from PASSES in compiler/passes/pass.h (the one
# list of passes); each lives in compiler/passes/<name>.c.
file(READ ${CMAKE_SOURCE_DIR}/compiler/passes/pass.h _pass_h)
string(REGEX MATCHALL "X\\([a-z_]+, false\\)" _pass_items "${_pass_h}")
set(RS_PASSES "")
set(_have_passes TRUE)
foreach(item ${_pass_items})
  string(REGEX REPLACE "X\\(([a-z_]+), false\\)" "\\1" p "${item}")
  list(APPEND RS_PASSES ${p})
  if(NOT EXISTS ${CMAKE_SOURCE_DIR}/compiler/passes/${p}.c)
    set(_have_passes FALSE)
  endif()
endforeach()

# The generator-driven targets get libFuzzer's custom mutator and crossover
# (harnesses/custom_mutator.c, mutators/mut.h) unless RS_CUSTOM_MUTATOR is
# OFF; at run time RELAYSMITH_BYTE_MUTATION=1 also falls back to byte
# mutation.
option(RS_CUSTOM_MUTATOR "span-aware custom mutator in the generator-driven fuzz targets" ON)
set(_mut_src "")
set(_mut_lib rsgen)
if(RS_CUSTOM_MUTATOR AND TARGET rsmut AND NOT RS_ENGINE STREQUAL "standalone")
  set(_mut_src harnesses/custom_mutator.c)
  set(_mut_lib rsmut)
endif()
# AFL++'s libFuzzer driver (the `afl` preset) needs our flags out of argv.
set(_afl_defs "")
if(CMAKE_C_COMPILER MATCHES "afl-")
  set(_afl_defs RS_AFL_DRIVER=1)
endif()

# The oracle runners (harnesses/oracle.c), shared by the generator-driven
# targets and the relaysmith tool (reduce and triage run them in a child).
if(TARGET rsgen AND _have_passes)
  add_library(rsoracle STATIC harnesses/oracle.c)
  target_compile_options(rsoracle PRIVATE ${RS_WARN})
  target_link_libraries(rsoracle PUBLIC rsgen)
endif()

if(TARGET rsoracle)
  rs_fuzz_target(typecheck_fuzzer SOURCES harnesses/typecheck_fuzzer.c ${_mut_src}
                 LIBS rsoracle ${_mut_lib})
  rs_fuzz_target(pass_fuzzer SOURCES harnesses/pass_fuzzer.c ${_mut_src}
                 LIBS rsoracle ${_mut_lib} DEFS ${_afl_defs})
  # All passes on the fusion policy's programs (operator chains feeding
  # reductions, conv2d and dense: what fuse_ops has most to do on).
  rs_fuzz_target(fusion_fuzzer SOURCES harnesses/pass_fuzzer.c ${_mut_src}
                 LIBS rsoracle ${_mut_lib} DEFS RS_POLICY="fusion" ${_afl_defs})
  # One binary per production pass, named after it.
  foreach(p ${RS_PASSES})
    rs_fuzz_target(pass_fuzzer_${p} SOURCES harnesses/pass_fuzzer.c ${_mut_src}
                   LIBS rsoracle ${_mut_lib} DEFS RS_FIXED_PASSES="${p}" ${_afl_defs})
  endforeach()
endif()

# AFL++ (the `afl` preset, CC=afl-clang-fast): the generator and the
# mutator are compiled without AFL's instrumentation (afl-cc with
# AFL_NOOPT=1 is plain clang), so that, as with libFuzzer, the feedback is
# the compiler's behaviour, not the decoder's.
if(CMAKE_C_COMPILER MATCHES "afl-")
  foreach(t rsgen rsmut)
    if(TARGET ${t})
      set_target_properties(${t} PROPERTIES C_COMPILER_LAUNCHER "env;AFL_NOOPT=1")
    endif()
  endforeach()
endif()

# The AFL++ custom mutator, relaysmith_afl.so (AFL_CUSTOM_MUTATOR_LIBRARY):
# afl-fuzz itself has no instrumentation runtime or sanitizers, so the
# library gets its own plain, position-independent copy of the compiler,
# generator and mutator sources.
option(RS_AFL_MUTATOR "build the AFL++ custom mutator library relaysmith_afl.so" OFF)
if(RS_AFL_MUTATOR AND TARGET rsmut)
  add_library(relaysmith_afl MODULE mutators/afl_mutator.c ${RELAYC_SRC} ${GEN_SRC} ${MUT_SRC})
  set_target_properties(relaysmith_afl PROPERTIES PREFIX "" POSITION_INDEPENDENT_CODE ON
                                                  COMPILE_OPTIONS "" LINK_OPTIONS "")
  target_link_libraries(relaysmith_afl PRIVATE m)
  if(CMAKE_C_COMPILER MATCHES "afl-")
    set_target_properties(relaysmith_afl PROPERTIES C_COMPILER_LAUNCHER "env;AFL_NOOPT=1")
  endif()
endif()

# As for the generator: the mutator runs between inputs, so its code is no
# coverage feedback (and instrumenting it costs time).
if(TARGET rsmut AND RS_ENGINE STREQUAL "libfuzzer")
  target_compile_options(rsmut PRIVATE -fno-sanitize-coverage=inline-8bit-counters,pc-table,trace-cmp,indirect-calls)
endif()
