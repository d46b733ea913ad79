# docs/operators.md is generated from compiler/ops/ops.def and the opening
# comments of the family files by tools/opdocs/gen_opdocs.c.
#   cmake --build build/test --target opdocs   regenerates it;
#   the ctest opdocs fails when the checked-in file is out of date.
add_executable(gen_opdocs tools/opdocs/gen_opdocs.c)
target_compile_options(gen_opdocs PRIVATE ${RS_WARN})
add_custom_target(opdocs
  COMMAND gen_opdocs ${CMAKE_SOURCE_DIR} -o ${CMAKE_SOURCE_DIR}/docs/operators.md
  DEPENDS gen_opdocs
  COMMENT "Generating docs/operators.md")
add_test(NAME opdocs
  COMMAND gen_opdocs ${CMAKE_SOURCE_DIR} --check ${CMAKE_SOURCE_DIR}/docs/operators.md)
set_tests_properties(opdocs PROPERTIES ENVIRONMENT "${RS_TEST_ENV}" TIMEOUT 60)
