# The harness's watchdog (harnesses/fuzz_target.c): an input still
# running at twice -timeout plus 10 s, whose timeout report never came (the
# test build's -fault=harness_stuck blocks SIGALRM and waits, as a
# deadlocked alarm handler leaves it), is saved as timeout-<sha1> and the
# process ends with libFuzzer's timeout status, 70.
if(TARGET pass_fuzzer AND RS_TEST_PASSES AND RS_ENGINE STREQUAL "libfuzzer")
  set(_out ${CMAKE_BINARY_DIR}/fuzz_watchdog)
  add_test(NAME fuzz_watchdog
           COMMAND sh -c "rm -rf '${_out}' && mkdir -p '${_out}' && printf abc >'${_out}/in' && \
\"$0\" -timeout=1 -fault=harness_stuck -artifact_prefix='${_out}/' '${_out}/in' >'${_out}/log' 2>&1; \
rc=$?; cat '${_out}/log'; [ $rc = 70 ] && grep -q 'watchdog: an input ran past' '${_out}/log' && \
cmp '${_out}/in' '${_out}/timeout-a9993e364706816aba3e25717850c26c9cd0d89d'"
                   $<TARGET_FILE:pass_fuzzer>)
  set_tests_properties(fuzz_watchdog PROPERTIES ENVIRONMENT "${RS_TEST_ENV}" TIMEOUT 60)
endif()
