# The mutator's locality report: every mutant of every kind must be valid
# (exit 0), for each policy.
add_test(NAME relaysmith_stats_mutations
         COMMAND relaysmith stats --mutations --count 300 --max-len 1024 --seed 3)
add_test(NAME relaysmith_stats_mutations_fusion
         COMMAND relaysmith stats --mutations --policy fusion --count 200 --seed 4)
set_tests_properties(relaysmith_stats_mutations relaysmith_stats_mutations_fusion
                     PROPERTIES ENVIRONMENT "${RS_TEST_ENV}" TIMEOUT 120)
