# The MLIR runtime (targets/mlir/session.h), when the MLIR target is built:
# mlir_runtime runs the four hand-translated examples through MLIR 22
# in-process against relayc's interpreter, and the failure paths
# (tests/mlir/test_runtime.c); mlir_bench (targets/mlir/mlir.cmake), the
# throughput benchmark, runs once per example as a smoke test (its timings
# are printed, not checked).
if(TARGET rsmlir)
  add_executable(test_mlir_runtime tests/mlir/test_runtime.c tests/mlir/examples.c)
  target_compile_options(test_mlir_runtime PRIVATE ${RS_WARN})
  target_link_libraries(test_mlir_runtime PRIVATE rsmlir)
  add_test(NAME mlir_runtime COMMAND test_mlir_runtime WORKING_DIRECTORY ${CMAKE_SOURCE_DIR})
  set_tests_properties(mlir_runtime PROPERTIES ENVIRONMENT "${RS_TEST_ENV}" TIMEOUT 300)
  add_test(NAME mlir_bench COMMAND mlir_bench -n 1 WORKING_DIRECTORY ${CMAKE_SOURCE_DIR})
  set_tests_properties(mlir_bench PROPERTIES ENVIRONMENT "${RS_TEST_ENV}" TIMEOUT 300)
endif()
