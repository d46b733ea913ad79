# The relayc -> MLIR translator (targets/mlir/translate.c) against relayc's
# interpreter through mlir-opt-22 and mlir-runner-22 (tests/mlir/
# mlir_check.c): the golden programs of tests/mlir/*.relay.  Skipped (exit 77) where MLIR 22's tools are
# not installed; scripts/test installs them.
add_executable(mlir_check ${CMAKE_SOURCE_DIR}/tests/mlir/mlir_check.c)
target_compile_options(mlir_check PRIVATE ${RS_WARN})
target_link_libraries(mlir_check PRIVATE rsmlt rsgen)
file(GLOB _mlir_goldens CONFIGURE_DEPENDS ${CMAKE_SOURCE_DIR}/tests/mlir/*.relay)
add_test(NAME mlir_translate_golden COMMAND mlir_check --seeds 3 ${_mlir_goldens})
set_tests_properties(mlir_translate_golden PROPERTIES ENVIRONMENT "${RS_TEST_ENV}" TIMEOUT 900 SKIP_RETURN_CODE 77)
