# Transform-dialect schedules (targets/mlir/schedule.c): for each schedule
# kind, mlir_fuzzer in the ASan build with a fixed pipeline that applies
# it (to-linalg, the schedule, bufferize, loops, sched-lower, llvm), every
# input executed and compared with relayc's interpreter (-mlir_exec=1)
# and the differential on every executed input (its second pipeline: the
# same without the schedule); a bounded, seeded run from the seed corpus.
# A schedule that does not apply is a refusal; a verifier failure, a
# crash or a wrong result fails the test.
if(TARGET mlir_fuzzer)
  foreach(kind tile-for tile-forall fuse pad vectorize vectorize-masked vector-lower hoist)
    set(_out ${CMAKE_BINARY_DIR}/mlir_sched_${kind})
    add_test(NAME mlir_schedule_${kind}
             COMMAND sh -c "rm -rf '${_out}' && mkdir -p '${_out}' && exec \"$0\" \"$@\""
                     $<TARGET_FILE:mlir_fuzzer> ${_out} ${CMAKE_SOURCE_DIR}/harnesses/corpus/mlir_fuzzer
                     -pipeline=to-linalg,sched-${kind},bufferize,loops,llvm -seed=1 -runs=40
                     -max_total_time=120 -artifact_prefix=${_out}/ -mlir_exec=1 -differential=1)
    set_tests_properties(mlir_schedule_${kind} PROPERTIES ENVIRONMENT "${RS_TEST_ENV}" TIMEOUT 300)
  endforeach()
endif()
# Inputs that failed with a fixed schedule pipeline (a header-chosen one
# is in tests/regressions/mlir_fuzzer): vector-lower-canonicalize hung in
# the transform interpreter while canonicalization shared a pattern set
# with the vector lowerings (schedule.c keeps them apart).
if(TARGET mlir_fuzzer)
  add_test(NAME mlir_schedule_regressions
           COMMAND mlir_fuzzer -pipeline=to-linalg,sched-vector-lower,bufferize,loops,llvm
                   -mlir_exec=1 -timeout=60
                   ${CMAKE_SOURCE_DIR}/tests/regressions/mlir_schedules/vector-lower-canonicalize)
  set_tests_properties(mlir_schedule_regressions PROPERTIES ENVIRONMENT "${RS_TEST_ENV}" TIMEOUT 300)
endif()
