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
# Linear in graph bindings (tests/scripts/parse_linear).
add_test(NAME fuzz_parse_linear COMMAND ${CMAKE_SOURCE_DIR}/tests/scripts/parse_linear
                                        $<TARGET_FILE:parse_fuzzer>)
set_tests_properties(fuzz_parse_linear PROPERTIES TIMEOUT 120)
# A file given to a target directly that is longer than its -max_len is
# said to be (libFuzzer runs only its first -max_len bytes).
if(RS_ENGINE STREQUAL "libfuzzer")
  string(REPEAT "// a comment line of a long input\n" 200 _long)
  file(WRITE ${CMAKE_BINARY_DIR}/long_input.relay "${_long}def @main() -> float32 { 1f }\n")
  string(REPEAT "a" 2000 _long)
  file(WRITE ${CMAKE_BINARY_DIR}/long_input.bin "${_long}")
  add_test(NAME fuzz_parse_max_len_warning COMMAND parse_fuzzer
                                                   ${CMAKE_BINARY_DIR}/long_input.relay)
  add_test(NAME fuzz_pass_max_len_warning COMMAND pass_fuzzer -passes=dead_code
                                                  ${CMAKE_BINARY_DIR}/long_input.bin)
  # A Relay text input (it starts with #[version) longer than the default
  # -max_len: the default grows to hold it, since a cut text does not parse.
  string(REPEAT "// a comment line of a long input\n" 60 _long)
  file(WRITE ${CMAKE_BINARY_DIR}/long_text.relay
       "#[version = \"0.0.5\"]\n${_long}def @main(%x: float32) -> float32 { add(%x, 1f) }\n")
  add_test(NAME fuzz_pass_long_relay_text COMMAND pass_fuzzer -passes=fold_constant
                                                  ${CMAKE_BINARY_DIR}/long_text.relay)
  set_tests_properties(
    fuzz_pass_long_relay_text PROPERTIES ENVIRONMENT "${RS_TEST_ENV}" TIMEOUT 60
    PASS_REGULAR_EXPRESSION "-max_len=2111 [^\n]*\n(.*\n)*relaysmith: no failure")
  set_tests_properties(
    fuzz_parse_max_len_warning PROPERTIES ENVIRONMENT "${RS_TEST_ENV}" TIMEOUT 60
    PASS_REGULAR_EXPRESSION "warning: [^\n]*long_input.relay has 6830 bytes, more than -max_len=4096")
  set_tests_properties(
    fuzz_pass_max_len_warning PROPERTIES ENVIRONMENT "${RS_TEST_ENV}" TIMEOUT 60
    PASS_REGULAR_EXPRESSION "warning: [^\n]*long_input.bin has 2000 bytes, more than -max_len=1024")
endif()
