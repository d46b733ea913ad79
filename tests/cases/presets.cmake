# Every preset of the README's table builds with its one line (cmake
# --preset NAME && cmake --build build/NAME): tests/scripts/presets_build,
# release whole and a fuzz target of each other preset, in scratch
# directories.  Run from the test build only.
if(RS_TEST_PASSES)
  add_test(NAME presets_build COMMAND ${CMAKE_SOURCE_DIR}/tests/scripts/presets_build
                                      ${CMAKE_BINARY_DIR}/presets)
  set_tests_properties(presets_build PROPERTIES TIMEOUT 900)
endif()
