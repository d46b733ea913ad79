# AFL++ with the span-aware custom mutator (scripts/afl, the `afl` preset)
# must find a deliberately wrong pass in a bounded run.  The test builds
# its own AFL++ tree (with the test passes) under this build directory; it
# installs afl++ when run as root and is skipped (exit 77) without it.
if(RS_TEST_PASSES)
  add_test(NAME afl_bad_fold_swap
           COMMAND ${CMAKE_SOURCE_DIR}/tests/afl/find_bug ${CMAKE_BINARY_DIR}/afl bad_fold_swap
                   result 120)
  set_tests_properties(afl_bad_fold_swap PROPERTIES SKIP_RETURN_CODE 77 TIMEOUT 600)
endif()
