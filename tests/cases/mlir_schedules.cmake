# Transform-dialect schedules (targets/mlir/schedule.c): for each schedule
# kind, mlir_fuzzer in the ASan build with a fixed pipeline that applies
# it (to-linalg, the schedule, bufferize, loops, sched-lower when the
# schedule may leave vector ops or scf.forall, llvm), every
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
# Inputs that failed with a fixed schedule pipeline (schedule seeds come
# from the translation then, so each file is replayed with its own
# pipeline): vector-lower-canonicalize hung in the transform interpreter
# while canonicalization shared a pattern set with the vector lowerings;
# vectorize-libm left the vector ops convert-math-to-libm makes of vector
# math unlowered (llvm-libm now runs convert-vector-to-llvm after it);
# pad-divide trapped (SIGFPE) on an integer division by a padded 0 (ops
# that divide integers are no longer padded); vector-lower-cast-away ran
# out of memory while cast_away_vector_leading_one_dim shared a pattern
# set with lower_broadcast (it has a set of its own now); fuse-reduction
# (Relay text) gave a max of the last tile only when sched-fuse tiled its
# reduction dim (the fuse schedule tiles parallel dims only now);
# insert-column (Relay text) wrote one element of a column when the
# vectorizer met the rank-reducing insert_slice of linalg-unit-dims-slices;
# tile-reverse (the linalg road's reverse reads its input backwards) left
# invalid IR when tiled (such ops are no longer tiled, padded or fused);
# extract-0d: vectorize_nd_extract on a 0-d op that extracts left invalid
# IR (the whole-function vectorizer no longer takes the flag then);
# vector-lower-masked-max: a masked maximumf reduction lowered by
# innerreduction gave -1.4e-45 for a maximum of negatives (#39: the
# schedule draws innerparallel after a masked vectorization of such ops);
# gather-slice(-masked): vectorize_nd_extract on an op that extracts from a
# tensor.extract_slice read the wrong rows once the slice was a strided
# memref (#43: the schedules leave the flag out for such ops).
if(TARGET mlir_fuzzer)
  foreach(case "vector-lower-canonicalize:sched-vector-lower,bufferize,loops,llvm"
               "vectorize-libm:sched-vectorize,bufferize,loops,llvm-libm"
               "pad-divide:sched-pad,bufferize,loops,llvm"
               "vector-lower-cast-away:sched-vector-lower,bufferize,loops,llvm"
               "fuse-reduction.relay:sched-fuse,bufferize,loops,llvm"
               "insert-column.relay:linalg-unit-dims-slices,sched-vectorize,bufferize,loops,llvm"
               "tile-reverse.relay:road-linalg,sched-tile-for,bufferize,loops,llvm"
               "extract-0d.relay:linalg-scalars,sched-vectorize,bufferize,loops,llvm"
               "vector-lower-masked-max.relay:sched-vector-lower,bufferize,loops,llvm"
               "gather-slice-masked.relay:sched-vectorize-masked,bufferize,loops,llvm"
               "gather-slice.relay:sched-vectorize,bufferize,loops,llvm")
    string(REPLACE ":" ";" _parts "${case}")
    list(GET _parts 0 _name)
    list(GET _parts 1 _rest)
    string(REPLACE ".relay" "" _test ${_name})
    rs_file_test(mlir_schedule_regression_${_test} mlir_fuzzer
                 ${CMAKE_SOURCE_DIR}/tests/regressions/mlir_schedules/${_name}
                 -pipeline=to-linalg,${_rest} -mlir_exec=1 -timeout=60)
  endforeach()
endif()
