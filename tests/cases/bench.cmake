# relaysmith bench (tools/bench.c): a smoke run, not a timing test: it
# must decode and type check every input, print a row per repetition, the
# best and the median, and the checksums; bad usage exits 2.
add_test(NAME relaysmith_bench
         COMMAND relaysmith bench --count 300 --reps 2 --max-len 512 --checksum)
set_tests_properties(relaysmith_bench PROPERTIES
  ENVIRONMENT "${RS_TEST_ENV}" TIMEOUT 60
  PASS_REGULAR_EXPRESSION "checksums: programs' text [0-9a-f]+, inferred types [0-9a-f]+.*\nbest +[0-9]+ +[0-9]+\nmedian +[0-9]+ +[0-9]+\n")
add_test(NAME relaysmith_bench_usage
         COMMAND sh -c "\"$0\" bench --reps 0 2>/dev/null; test $? = 2 && \"$0\" bench --bogus 2>/dev/null; test $? = 2"
                 $<TARGET_FILE:relaysmith>)
set_tests_properties(relaysmith_bench_usage PROPERTIES ENVIRONMENT "${RS_TEST_ENV}" TIMEOUT 60)
