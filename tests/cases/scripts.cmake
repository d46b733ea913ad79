# The scripts as a user runs them: every script's --help and
# scripts/coverage --plot (tests/scripts/scripts_usage); scripts/fuzz builds
# the relaysmith tool with the fuzz target (tests/scripts/fuzz_builds_tool,
# a build of the fuzz preset).
add_test(NAME scripts_usage COMMAND ${CMAKE_SOURCE_DIR}/tests/scripts/scripts_usage)
set_tests_properties(scripts_usage PROPERTIES TIMEOUT 300)
add_test(NAME scripts_fuzz_builds_tool COMMAND ${CMAKE_SOURCE_DIR}/tests/scripts/fuzz_builds_tool)
set_tests_properties(scripts_fuzz_builds_tool PROPERTIES TIMEOUT 1800 RESOURCE_LOCK fuzzbuild)
