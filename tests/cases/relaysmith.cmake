# The relaysmith tool: stats over random inputs must report every program
# well formed, well typed and evaluating without invalidity (exit 0), for
# each policy; gen/decode round trip through a saved byte file; bad usage exits 2.
add_test(NAME relaysmith_stats COMMAND relaysmith stats --count 3000 --max-len 2048
                                                        --seed 11)
add_test(NAME relaysmith_stats_fusion COMMAND relaysmith stats --policy fusion --count 1500
                                                               --max-len 2048 --seed 12)
# The pass-directed policies and their mix (generator/simplify.c, ...).
set(_seed 13)
foreach(_policy simplify fold dead cse inline scopes mix)
  add_test(NAME relaysmith_stats_${_policy}
           COMMAND relaysmith stats --policy ${_policy} --count 1500 --max-len 2048 --seed ${_seed})
  set_tests_properties(relaysmith_stats_${_policy} PROPERTIES ENVIRONMENT "${RS_TEST_ENV}"
                                                              TIMEOUT 120)
  math(EXPR _seed "${_seed} + 1")
endforeach()
add_test(NAME relaysmith_usage
         COMMAND ${CMAKE_COMMAND} -DEXE=$<TARGET_FILE:relaysmith>
                 -DOUT=${CMAKE_BINARY_DIR}/relaysmith_usage
                 -P ${CMAKE_SOURCE_DIR}/tests/scripts/relaysmith_usage.cmake)
set_tests_properties(relaysmith_stats relaysmith_stats_fusion relaysmith_usage
                     PROPERTIES ENVIRONMENT "${RS_TEST_ENV}" TIMEOUT 120)
