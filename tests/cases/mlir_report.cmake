# `relaysmith report` (tools/report.c) on a miscompile and a verifier gap
# saved in tests/regressions/mlir_fuzzer: the issue text's sections, the
# blamed pass, its mlir-opt-22 command run as printed (tests/mlir/report).
# Skips (exit 77) without mlir-opt-22; needs a relaysmith with MLIR 22.
if(TARGET mlir_fuzzer)
  add_test(NAME mlir_report COMMAND ${CMAKE_SOURCE_DIR}/tests/mlir/report $<TARGET_FILE:relaysmith>
                                    ${CMAKE_SOURCE_DIR}/tests/regressions/mlir_fuzzer)
  set_tests_properties(mlir_report PROPERTIES ENVIRONMENT "${RS_TEST_ENV}" TIMEOUT 600
                                              SKIP_RETURN_CODE 77)
endif()
