# parse_fuzzer on every seed-corpus, printer golden and regression file
# (tests/regressions/parse_fuzzer: inputs that once failed; each run once:
# files, not directories, so nothing is written to the source tree), then
# a short fuzzing run from the corpus into a scratch directory.
rs_files_test(fuzz_parse_corpus parse_fuzzer ${CMAKE_SOURCE_DIR}/harnesses/corpus/parse_fuzzer/*
              ${CMAKE_SOURCE_DIR}/tests/golden/print/*.relay
              ${CMAKE_SOURCE_DIR}/tests/regressions/parse_fuzzer/*)
if(RS_ENGINE STREQUAL "libfuzzer")
  set(_out ${CMAKE_BINARY_DIR}/fuzz_parse_smoke)
  add_test(NAME fuzz_parse_smoke
           COMMAND sh -c "rm -rf '${_out}' && mkdir -p '${_out}' && exec \"$0\" \"$@\""
                   $<TARGET_FILE:parse_fuzzer> ${_out}
                   ${CMAKE_SOURCE_DIR}/harnesses/corpus/parse_fuzzer
                   -dict=${CMAKE_SOURCE_DIR}/dictionaries/relay_text.dict -seed=1 -runs=8000
                   -max_total_time=25 -timeout=5)
  set_tests_properties(fuzz_parse_smoke PROPERTIES ENVIRONMENT "${RS_TEST_ENV}" TIMEOUT 60)
endif()
