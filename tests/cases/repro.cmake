# A crash file reproduces the same way in the libFuzzer build and in a gcc
# build with the standalone driver (tests/repro/gcc_repro): parse_fuzzer's
# deliberate crash, and pass_fuzzer's report of a deliberately wrong pass,
# whose last line is the command that reproduces it.
add_test(NAME repro_gcc_parse_fuzzer
         COMMAND ${CMAKE_SOURCE_DIR}/tests/repro/gcc_repro $<TARGET_FILE:parse_fuzzer> parse_fuzzer
                 ${CMAKE_SOURCE_DIR}/tests/repro/parse_deliberate_crash.relay
                 "parse_fuzzer: deliberate crash (test build)")
set_tests_properties(repro_gcc_parse_fuzzer PROPERTIES TIMEOUT 900 RESOURCE_LOCK gccbuild)
# The pass_fuzzer crash is the one oracle_bad_fold_swap found and kept
# (tests/cases/oracles.cmake), so it follows the generator as it changes.
if(RS_TEST_PASSES)
  set(_crash ${CMAKE_BINARY_DIR}/crashes/bad_fold_swap)
  add_test(NAME repro_gcc_pass_fuzzer
           COMMAND ${CMAKE_SOURCE_DIR}/tests/repro/gcc_repro $<TARGET_FILE:pass_fuzzer> pass_fuzzer
                   ${_crash} "oracle:  result (the interpreter's result differs"
                   -passes=bad_fold_swap)
  set_tests_properties(repro_gcc_pass_fuzzer PROPERTIES TIMEOUT 900 RESOURCE_LOCK gccbuild
                                                        FIXTURES_REQUIRED crash_bad_fold_swap)
  # scripts/repro's verdicts (tests/repro/verdicts), with this build's
  # binaries: reproduces, does not reproduce, could not run.
  add_test(NAME repro_verdicts COMMAND ${CMAKE_SOURCE_DIR}/tests/repro/verdicts
                                       $<TARGET_FILE_DIR:pass_fuzzer> ${_crash})
  set_tests_properties(repro_verdicts PROPERTIES TIMEOUT 120 FIXTURES_REQUIRED crash_bad_fold_swap)
endif()
