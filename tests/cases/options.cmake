# relaysmith's options are flags of one table (oracle/options.h): every
# target's -help=1 lists them, the README's table has them and every
# environment variable the sources read, and parse_fuzzer takes none
# (tests/oracles/options).
if(RS_ENGINE STREQUAL "libfuzzer")
  add_test(NAME options_flags COMMAND ${CMAKE_SOURCE_DIR}/tests/oracles/options
                                      $<TARGET_FILE_DIR:pass_fuzzer>)
  set_tests_properties(options_flags PROPERTIES ENVIRONMENT "${RS_TEST_ENV}" TIMEOUT 300)
endif()
