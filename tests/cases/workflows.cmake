# The GitHub Actions workflow files, validated offline.
add_test(NAME workflows_validate COMMAND ${CMAKE_SOURCE_DIR}/tests/workflows/validate)
set_tests_properties(workflows_validate PROPERTIES TIMEOUT 300)
