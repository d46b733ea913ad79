# pass_fuzzer on every seed-corpus file and every saved finding
# (tests/regressions/pass_fuzzer: choice streams that once failed, each run
# once with the passes its header chooses), then a short seeded fuzzing run
# of all passes from the seed corpus into a scratch directory.
if(TARGET pass_fuzzer)
  file(GLOB _inputs CONFIGURE_DEPENDS ${CMAKE_SOURCE_DIR}/harnesses/corpus/pass_fuzzer/*
       ${CMAKE_SOURCE_DIR}/tests/regressions/pass_fuzzer/*)
  add_test(NAME fuzz_pass_corpus COMMAND pass_fuzzer ${_inputs})
  set_tests_properties(fuzz_pass_corpus PROPERTIES ENVIRONMENT "${RS_TEST_ENV}" TIMEOUT 120)
  if(RS_ENGINE STREQUAL "libfuzzer")
    set(_out ${CMAKE_BINARY_DIR}/fuzz_pass_smoke)
    add_test(NAME fuzz_pass_smoke
             COMMAND sh -c "rm -rf '${_out}' && mkdir -p '${_out}' && exec \"$0\" \"$@\""
                     $<TARGET_FILE:pass_fuzzer> ${_out} ${CMAKE_SOURCE_DIR}/harnesses/corpus/pass_fuzzer
                     -seed=1 -runs=4000 -max_total_time=40 -max_len=1024 -timeout=10)
    set_tests_properties(fuzz_pass_smoke PROPERTIES ENVIRONMENT "${RS_TEST_ENV}" TIMEOUT 120)
  endif()
endif()
