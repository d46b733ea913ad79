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
# A replay that blames stages runs the pipeline again without the stage it
# clears (here the schedule); a defect stage there (one that found
# nothing to break) has no pass pipeline and is left out (it once reached
# MLIR's parser as NULL, under UBSan).  The miscompile is the test fault's.
if(TARGET mlir_fuzzer AND RS_TEST_PASSES)
  set(_out ${CMAKE_BINARY_DIR}/mlir_blame_defect)
  add_test(NAME mlir_blame_defect_stage
           COMMAND sh -c "rm -rf '${_out}' && mkdir -p '${_out}' && cp \"$1\" '${_out}/in.relay' && \
\"$0\" -known=none -mlir_exec=1 -fault=mlir_jit_first \
-pipeline=defect-attribute,to-linalg,sched-tile-for,bufferize,loops,llvm '${_out}/in.relay' >'${_out}/log' 2>&1; \
cat '${_out}/log'; grep -q '^key:     miscompiled by the pipeline as a whole' '${_out}/log' && \
! grep -q 'runtime error' '${_out}/log'"
                   $<TARGET_FILE:mlir_fuzzer> ${CMAKE_SOURCE_DIR}/tests/mlir/known/fold-zero.relay)
  set_tests_properties(mlir_blame_defect_stage PROPERTIES ENVIRONMENT "${RS_TEST_ENV}" TIMEOUT 120)
endif()
