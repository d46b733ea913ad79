# A crash file reproduces the same way in the libFuzzer build and in a gcc
# build with the standalone driver (tests/repro/gcc_repro).
add_test(NAME repro_gcc_parse_fuzzer
         COMMAND ${CMAKE_SOURCE_DIR}/tests/repro/gcc_repro $<TARGET_FILE:parse_fuzzer> parse_fuzzer
                 ${CMAKE_SOURCE_DIR}/tests/repro/parse_deliberate_crash.relay
                 "parse_fuzzer: deliberate crash (test build)")
set_tests_properties(repro_gcc_parse_fuzzer PROPERTIES TIMEOUT 900 RESOURCE_LOCK gccbuild)
