# The mlir generation policy and the relayc -> MLIR translator
# (targets/mlir/translate.c), through tests/mlir/mlir_check.c:
#   mlir_policy_stats       random programs of the policy are well formed,
#                           well typed and evaluate (relaysmith stats);
#   mlir_translate_count    the translator takes every one of 20,000 random
#                           programs of the policy (no MLIR needed);
#   mlir_translate_golden   tests/mlir/*.relay, every operator and guarded
#                           corner: translated, validated, lowered and run
#                           by mlir-opt-22/mlir-runner-22, and compared with
#                           relayc's interpreter;
#   mlir_translate_random   the same for 150 random programs of the policy;
#   mlir_translate_dynamic  the golden MLIR of tests/mlir/dynamic.relay (Any
#                           dims), its static translation, dynamic @main
#                           parameters and the refusals (no MLIR needed);
#   mlir_known_filter       each known cause (targets/mlir/known.c) explains
#                           its own difference and not a different
#                           miscompile beside it (no MLIR needed).
# The last two skip (exit 77) where MLIR 22's tools are not installed;
# scripts/test installs them.
add_executable(mlir_check ${CMAKE_SOURCE_DIR}/tests/mlir/mlir_check.c)
target_compile_options(mlir_check PRIVATE ${RS_WARN})
target_link_libraries(mlir_check PRIVATE rsmlt rsgen)
add_executable(test_known ${CMAKE_SOURCE_DIR}/tests/mlir/test_known.c)
target_compile_options(test_known PRIVATE ${RS_WARN})
target_link_libraries(test_known PRIVATE rsmlt)
add_test(NAME mlir_known_filter COMMAND test_known)
add_executable(test_translate_dyn ${CMAKE_SOURCE_DIR}/tests/mlir/test_translate_dyn.c)
target_compile_options(test_translate_dyn PRIVATE ${RS_WARN})
target_link_libraries(test_translate_dyn PRIVATE rsmlt)
add_test(NAME mlir_translate_dynamic COMMAND test_translate_dyn
         ${CMAKE_SOURCE_DIR}/tests/mlir/dynamic.relay ${CMAKE_SOURCE_DIR}/tests/mlir/dynamic.mlir)
set_tests_properties(mlir_known_filter mlir_translate_dynamic PROPERTIES ENVIRONMENT "${RS_TEST_ENV}" TIMEOUT 120)
file(GLOB _mlir_goldens CONFIGURE_DEPENDS ${CMAKE_SOURCE_DIR}/tests/mlir/*.relay)
add_test(NAME mlir_policy_stats COMMAND relaysmith stats --policy mlir --count 3000 --seed 13)
add_test(NAME mlir_translate_count COMMAND mlir_check --count 20000 --max-len 4096 --seed 3)
add_test(NAME mlir_translate_golden COMMAND mlir_check --seeds 3 ${_mlir_goldens})
add_test(NAME mlir_translate_random COMMAND mlir_check --random 150 --seeds 1 --max-len 4096
                                            --seed 7)
set_tests_properties(mlir_policy_stats mlir_translate_count mlir_translate_golden
                     mlir_translate_random PROPERTIES ENVIRONMENT "${RS_TEST_ENV}" TIMEOUT 900
                                                      SKIP_RETURN_CODE 77)
