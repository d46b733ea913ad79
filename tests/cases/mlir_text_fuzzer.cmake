# mlir_text_fuzzer (harnesses/mlir_text_fuzzer.c), when the MLIR target is
# built: its mutations on a small module and on random bytes
# (tests/mlir/test_text_mutate.c, plain C); the seed corpus replayed; and a
# seeded, bounded fuzzing run (a crash inside MLIR would fail it: the seed
# and the number of runs are ones that meet none of the known parser
# crashes of docs/findings/mlir.md).
if(TARGET mlir_text_fuzzer)
  add_executable(test_mlir_text_mutate tests/mlir/test_text_mutate.c targets/mlir/text_mutate.c)
  target_compile_options(test_mlir_text_mutate PRIVATE ${RS_WARN})
  add_test(NAME mlir_text_mutate COMMAND test_mlir_text_mutate)
  set_tests_properties(mlir_text_mutate PROPERTIES ENVIRONMENT "${RS_TEST_ENV}" TIMEOUT 120)
  rs_files_test(mlir_text_corpus mlir_text_fuzzer
                ${CMAKE_SOURCE_DIR}/harnesses/corpus/mlir_text_fuzzer/*)
  set_property(TEST mlir_text_corpus PROPERTY TIMEOUT 300)
  set(_out ${CMAKE_BINARY_DIR}/mlir_text_smoke)
  add_test(NAME mlir_text_smoke
           COMMAND sh -c "rm -rf '${_out}' && mkdir -p '${_out}' && exec \"$0\" \"$@\""
                   $<TARGET_FILE:mlir_text_fuzzer> ${_out}
                   ${CMAKE_SOURCE_DIR}/harnesses/corpus/mlir_text_fuzzer -seed=1 -runs=1000
                   -max_total_time=120 -artifact_prefix=${_out}/
                   -dict=${CMAKE_SOURCE_DIR}/dictionaries/mlir_text_fuzzer.dict)
  set_tests_properties(mlir_text_smoke PROPERTIES ENVIRONMENT "${RS_TEST_ENV}" TIMEOUT 300)
endif()
