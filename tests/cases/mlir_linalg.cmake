# The linalg road (targets/mlir/linalg.c: relayc to linalg + tensor +
# arith/math, no TOSA; docs/mlir.md, "The linalg road"):
#   mlir_linalg_golden    tests/mlir/linalg*.relay and the goldens the road
#                         takes, translated by it, validated, lowered, run by
#                         mlir-opt-22/mlir-runner-22 and compared exactly (by
#                         the result oracle's rules) with relayc's
#                         interpreter; none may be off the road;
#   mlir_linalg_validate  20,000 random programs of the mlir policy: every
#                         one the road takes parses and verifies (mlir-opt-22);
#   mlir_linalg_random    40 random programs run and compared as above;
#   mlir_fuzz_linalg      a bounded, seeded mlir_fuzzer run on the road
#                         (random streams, every input executed, the
#                         linalg-tosa differential on each the road takes;
#                         the pipelines' differential off): the -mlir_stats=1 lines
#                         must show inputs taken by the road and compared.
set(_d ${CMAKE_SOURCE_DIR}/tests/mlir)
add_test(NAME mlir_linalg_golden
         COMMAND sh -c "\"$0\" \"$@\" >'${CMAKE_BINARY_DIR}/mlir_linalg_golden.log' 2>&1; rc=$?; \
cat '${CMAKE_BINARY_DIR}/mlir_linalg_golden.log'; [ $rc = 0 ] && \
grep -q 'the linalg road: 0 of' '${CMAKE_BINARY_DIR}/mlir_linalg_golden.log'"
                 $<TARGET_FILE:mlir_check> --linalg --seeds 3 ${_d}/linalg.relay ${_d}/linalg_index.relay
                 ${_d}/linalg_nn.relay ${_d}/binary.relay ${_d}/shape.relay ${_d}/conv.relay
                 ${_d}/conv_layouts.relay
                 ${_d}/cast.relay ${_d}/clip.relay ${_d}/compare.relay ${_d}/control.relay
                 ${_d}/dense.relay ${_d}/dynamic.relay ${_d}/unary.relay)
add_test(NAME mlir_linalg_validate COMMAND mlir_check --linalg --count 20000 --max-len 4096
                                           --seed 3 --validate)
add_test(NAME mlir_linalg_random COMMAND mlir_check --linalg --random 40 --seeds 1 --max-len 4096
                                         --seed 11)
set_tests_properties(mlir_linalg_golden mlir_linalg_validate mlir_linalg_random
                     PROPERTIES ENVIRONMENT "${RS_TEST_ENV}" TIMEOUT 900 SKIP_RETURN_CODE 77)
if(TARGET mlir_fuzzer)
  set(_out ${CMAKE_BINARY_DIR}/mlir_fuzz_linalg)
  add_test(NAME mlir_fuzz_linalg
           COMMAND sh -c "rm -rf '${_out}' && mkdir -p '${_out}' && \"$0\" \"$@\" >'${_out}/log' 2>&1; \
rc=$?; cat '${_out}/log'; [ $rc = 0 ] && \
grep -Eq ', [1-9][0-9]* \\([0-9.]+%\\) taken by it' '${_out}/log' && \
grep -Eq ' [1-9][0-9]* TOSA translations run for the linalg-tosa' '${_out}/log'"
                   $<TARGET_FILE:mlir_fuzzer> ${_out} -random_streams=1 -mlir_exec=1 -mlir_stats=1
                   -pipeline=road-linalg,to-linalg,linalg-canonicalize,bufferize,loops,llvm
                   -differential=0 -seed=1 -runs=40 -max_total_time=200 -timeout=120
                   -artifact_prefix=${_out}/)
  set_tests_properties(mlir_fuzz_linalg PROPERTIES ENVIRONMENT "${RS_TEST_ENV}" TIMEOUT 400)
endif()
