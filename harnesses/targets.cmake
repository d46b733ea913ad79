# The fuzz targets.  rs_fuzz_target() is defined in the top CMakeLists.txt.
rs_fuzz_target(parse_fuzzer SOURCES harnesses/parse_fuzzer.c LIBS relayc)

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

# The generator-driven targets define libFuzzer's custom mutator and
# crossover (mutators/mut.h) unless RS_CUSTOM_MUTATOR is OFF; at run time
# RELAYSMITH_BYTE_MUTATION=1 also falls back to byte mutation.
option(RS_CUSTOM_MUTATOR "span-aware custom mutator in the generator-driven fuzz targets" ON)
set(_mut_defs "")
set(_mut_lib rsgen)
if(RS_CUSTOM_MUTATOR AND TARGET rsmut AND NOT RS_ENGINE STREQUAL "standalone")
  set(_mut_defs RS_CUSTOM_MUTATOR=1)
  set(_mut_lib rsmut)
endif()

if(TARGET rsgen AND _have_passes)
  rs_fuzz_target(pass_fuzzer SOURCES harnesses/pass_fuzzer.c harnesses/oracle.c LIBS ${_mut_lib}
                 DEFS ${_mut_defs})
  # One binary per production pass, named after it.
  foreach(p ${RS_PASSES})
    rs_fuzz_target(pass_fuzzer_${p} SOURCES harnesses/pass_fuzzer.c harnesses/oracle.c
                   LIBS ${_mut_lib} DEFS RS_FIXED_PASSES="${p}" ${_mut_defs})
  endforeach()
endif()
