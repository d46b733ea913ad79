# reject_fuzzer on every seed-corpus file (one per kind of defect of the
# break stage, generator/breaker.h) and every saved finding
# (tests/regressions/reject_fuzzer: choice streams of the reject policy
# that once failed), then a short seeded fuzzing run from the seed corpus
# into a scratch directory.
if(TARGET reject_fuzzer)
  rs_files_test(fuzz_reject_corpus reject_fuzzer
                ${CMAKE_SOURCE_DIR}/harnesses/corpus/reject_fuzzer/*
                ${CMAKE_SOURCE_DIR}/tests/regressions/reject_fuzzer/*)
  if(RS_ENGINE STREQUAL "libfuzzer")
    set(_out ${CMAKE_BINARY_DIR}/fuzz_reject_smoke)
    add_test(NAME fuzz_reject_smoke
             COMMAND sh -c "rm -rf '${_out}' && mkdir -p '${_out}' && exec \"$0\" \"$@\""
                     $<TARGET_FILE:reject_fuzzer> ${_out}
                     ${CMAKE_SOURCE_DIR}/harnesses/corpus/reject_fuzzer
                     -seed=1 -runs=6000 -max_total_time=40 -max_len=1024 -timeout=10)
    set_tests_properties(fuzz_reject_smoke PROPERTIES ENVIRONMENT "${RS_TEST_ENV}" TIMEOUT 120)
  endif()
endif()
