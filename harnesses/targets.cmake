# The fuzz targets.  rs_fuzz_target() is defined in the top CMakeLists.txt.
rs_fuzz_target(parse_fuzzer SOURCES harnesses/parse_fuzzer.c LIBS relayc)

if(TARGET rsgen AND EXISTS ${CMAKE_SOURCE_DIR}/compiler/typing/typing.h
   AND EXISTS ${CMAKE_SOURCE_DIR}/compiler/eval/eval.h)
  rs_fuzz_target(pass_fuzzer SOURCES harnesses/pass_fuzzer.c harnesses/oracle.c LIBS rsgen)
  # One binary per production pass, named after it; the names come from
  # PASSES in compiler/passes/pass.h, the one list of passes.
  file(STRINGS ${CMAKE_SOURCE_DIR}/compiler/passes/pass.h _pass_lines
       REGEX "^  X\\([a-z_]+, false\\)")
  foreach(line ${_pass_lines})
    string(REGEX REPLACE "^  X\\(([a-z_]+), false\\).*" "\\1" p "${line}")
    rs_fuzz_target(pass_fuzzer_${p} SOURCES harnesses/pass_fuzzer.c harnesses/oracle.c
                   LIBS rsgen DEFS RS_FIXED_PASSES="${p}")
  endforeach()
endif()
