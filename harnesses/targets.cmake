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

if(TARGET rsgen)
  rs_fuzz_target(typecheck_fuzzer SOURCES harnesses/typecheck_fuzzer.c LIBS rsgen)
endif()

if(TARGET rsgen AND _have_passes)
  rs_fuzz_target(pass_fuzzer SOURCES harnesses/pass_fuzzer.c harnesses/oracle.c LIBS rsgen)
  # One binary per production pass, named after it.
  foreach(p ${RS_PASSES})
    rs_fuzz_target(pass_fuzzer_${p} SOURCES harnesses/pass_fuzzer.c harnesses/oracle.c
                   LIBS rsgen DEFS RS_FIXED_PASSES="${p}")
  endforeach()
endif()
