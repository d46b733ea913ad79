# The known-bug list of mlir_fuzzer (harnesses/known/mlir_fuzzer.known):
# each rule that skips a miscompile, on a Relay program that holds its
# cause (tests/mlir/known/*.relay, whose comments name the pipeline and
# the rule), must skip it as that rule, and must not skip a deliberately
# different miscompile beside it (the test build's -fault=mlir_jit_first;
# tests/mlir/known_rule).  mlir_known_covered: every rule that could skip
# a miscompile has such a program, and names a cause a replay confirms
# (tests/mlir/known_covered).  The other rules match one diagnostic of one
# op in one kind of stage; their inputs are the regression inputs.
add_test(NAME mlir_known_covered
         COMMAND ${CMAKE_SOURCE_DIR}/tests/mlir/known_covered
                 ${CMAKE_SOURCE_DIR}/harnesses/known/mlir_fuzzer.known
                 ${CMAKE_SOURCE_DIR}/tests/mlir/known)
if(TARGET mlir_fuzzer AND RS_TEST_PASSES)
  file(GLOB _known_programs CONFIGURE_DEPENDS ${CMAKE_SOURCE_DIR}/tests/mlir/known/*.relay)
  foreach(_prog ${_known_programs})
    get_filename_component(_name ${_prog} NAME_WE)
    add_test(NAME mlir_known_${_name}
             COMMAND ${CMAKE_SOURCE_DIR}/tests/mlir/known_rule $<TARGET_FILE:mlir_fuzzer>
                     ${CMAKE_SOURCE_DIR}/harnesses/known/mlir_fuzzer.known ${_prog})
    set_tests_properties(mlir_known_${_name} PROPERTIES ENVIRONMENT "${RS_TEST_ENV}" TIMEOUT 300
                                                        SKIP_RETURN_CODE 77)
  endforeach()
endif()
