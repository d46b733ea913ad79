# Unit and property tests: every tests/unit/test_<name>.c is one executable
# and one ctest named unit_<name>.  It links every library.
set(RS_TEST_LIBS rstargets rsmut)

set(RS_TEST_ENV
    "ASAN_OPTIONS=detect_leaks=1:abort_on_error=1:strict_string_checks=1"
    "UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1"
    "LSAN_OPTIONS=report_objects=1")

file(GLOB RS_UNIT_TESTS CONFIGURE_DEPENDS ${CMAKE_SOURCE_DIR}/tests/unit/test_*.c)
foreach(src ${RS_UNIT_TESTS})
  get_filename_component(n ${src} NAME_WE)
  string(REGEX REPLACE "^test_" "" n ${n})
  add_executable(test_${n} ${src})
  target_compile_options(test_${n} PRIVATE ${RS_WARN})
  target_link_libraries(test_${n} PRIVATE ${RS_TEST_LIBS})
  add_test(NAME unit_${n} COMMAND test_${n} WORKING_DIRECTORY ${CMAKE_SOURCE_DIR})
  set_tests_properties(unit_${n} PROPERTIES ENVIRONMENT "${RS_TEST_ENV}" TIMEOUT 300)
endforeach()
# The relaysmith tool is no library: its signature reader is built in.
target_sources(test_signature PRIVATE ${CMAKE_SOURCE_DIR}/tools/signature.c)

# rs_files_test(NAME TARGET GLOB...) - a test that runs the fuzz target
# TARGET once on every file the globs match (files, not directories, so
# libFuzzer writes nothing into the source tree).
function(rs_files_test name target)
  file(GLOB _inputs CONFIGURE_DEPENDS ${ARGN})
  add_test(NAME ${name} COMMAND ${target} ${_inputs})
  set_tests_properties(${name} PROPERTIES ENVIRONMENT "${RS_TEST_ENV}" TIMEOUT 120)
endfunction()

# rs_file_test(NAME TARGET FILE FLAGS...) - a test that runs the fuzz
# target TARGET with FLAGS on a copy of FILE in the build directory, so
# that the reproducer files a failure writes beside its input stay out of
# the source tree.
function(rs_file_test name target file)
  set(_dir ${CMAKE_BINARY_DIR}/file_tests/${name})
  get_filename_component(_base ${file} NAME)
  add_test(NAME ${name}
           COMMAND sh -c "rm -rf '${_dir}' && mkdir -p '${_dir}' && cp '${file}' '${_dir}/${_base}' && \
exec \"$0\" \"$@\" '${_dir}/${_base}'" $<TARGET_FILE:${target}> ${ARGN})
  set_tests_properties(${name} PROPERTIES ENVIRONMENT "${RS_TEST_ENV}" TIMEOUT 300)
endfunction()

# Tests that drive whole programs (fuzz smoke runs, scripts): each
# fragment tests/cases/*.cmake adds its own.
file(GLOB RS_TEST_FRAGMENTS CONFIGURE_DEPENDS ${CMAKE_SOURCE_DIR}/tests/cases/*.cmake)
foreach(f ${RS_TEST_FRAGMENTS})
  include(${f})
endforeach()
