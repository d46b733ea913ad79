# relaysmith's options are flags of one table (oracle/options.h): every
# target's -help=1 lists them, the README's table has them and every
# environment variable the sources read, and parse_fuzzer takes none
# (tests/oracles/options).  Crash files carry their flags in a sidecar,
# which run, reduce, triage and scripts/repro read (tests/reduce/sidecar,
# test build only: the deliberately wrong passes).  The fuzz build says
# that bad_* passes live in the test build (tests/scripts/fuzz_test_hints,
# a build of the fuzz preset).
if(RS_ENGINE STREQUAL "libfuzzer")
  add_test(NAME options_flags COMMAND ${CMAKE_SOURCE_DIR}/tests/oracles/options
                                      $<TARGET_FILE_DIR:pass_fuzzer>)
  set_tests_properties(options_flags PROPERTIES ENVIRONMENT "${RS_TEST_ENV}" TIMEOUT 300)
  if(RS_TEST_PASSES)
    add_test(NAME options_sidecar COMMAND ${CMAKE_SOURCE_DIR}/tests/reduce/sidecar
                                          $<TARGET_FILE_DIR:pass_fuzzer>)
    set_tests_properties(options_sidecar PROPERTIES ENVIRONMENT "${RS_TEST_ENV}" TIMEOUT 300)
  endif()
endif()
add_test(NAME options_fuzz_build_hints COMMAND ${CMAKE_SOURCE_DIR}/tests/scripts/fuzz_test_hints)
set_tests_properties(options_fuzz_build_hints PROPERTIES TIMEOUT 1800 RESOURCE_LOCK fuzzbuild)
