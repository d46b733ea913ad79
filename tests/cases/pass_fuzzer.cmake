# pass_fuzzer on every seed-corpus file and every saved finding
# (tests/regressions/pass_fuzzer: choice streams that once failed, each run
# once with the passes its header chooses; tests/regressions/fusion_fuzzer:
# the same for fusion_fuzzer), then a short seeded fuzzing run
# of all passes from the seed corpus into a scratch directory.
rs_files_test(fuzz_pass_corpus pass_fuzzer ${CMAKE_SOURCE_DIR}/harnesses/corpus/pass_fuzzer/*
              ${CMAKE_SOURCE_DIR}/tests/regressions/pass_fuzzer/*)
# A Relay text regression of one pass, run by that pass's target.
rs_file_test(fuzz_cse_shared_node_sibling_branch pass_fuzzer_eliminate_common_subexpr
             ${CMAKE_SOURCE_DIR}/tests/regressions/pass_fuzzer/cse-shared-node-sibling-branch.relay)
if(RS_ENGINE STREQUAL "libfuzzer")
  set(_out ${CMAKE_BINARY_DIR}/fuzz_pass_smoke)
  add_test(NAME fuzz_pass_smoke
           COMMAND sh -c "rm -rf '${_out}' && mkdir -p '${_out}' && exec \"$0\" \"$@\""
                   $<TARGET_FILE:pass_fuzzer> ${_out} ${CMAKE_SOURCE_DIR}/harnesses/corpus/pass_fuzzer
                   -seed=1 -runs=4000 -max_total_time=40 -max_len=1024 -timeout=10)
  set_tests_properties(fuzz_pass_smoke PROPERTIES ENVIRONMENT "${RS_TEST_ENV}" TIMEOUT 120)
  # Started directly, as a user would: bad -passes= lists are errors, our
  # flags reach -jobs workers without libFuzzer's "unrecognized flag"
  # warning, harnesses/options' defaults hold (tests/oracles/fuzz_flags).
  add_test(NAME fuzz_pass_flags COMMAND ${CMAKE_SOURCE_DIR}/tests/oracles/fuzz_flags
                                        $<TARGET_FILE:pass_fuzzer>)
  set_tests_properties(fuzz_pass_flags PROPERTIES ENVIRONMENT "${RS_TEST_ENV}" TIMEOUT 120)
  # A fixed random sample without feedback: 3,000 choice streams from
  # `relaysmith gen`, each run once (-runs=0).  Random sampling reaches
  # what coverage-guided runs from a grown corpus may stay away from (a
  # sample of 426,337 found two dead_code bugs that ten-minute runs did
  # not); this one keeps a broad, fixed set of programs passing.
  set(_rnd ${CMAKE_BINARY_DIR}/fuzz_pass_random)
  add_test(NAME fuzz_pass_random
           COMMAND sh -c "rm -rf '${_rnd}' && mkdir -p '${_rnd}' && \"$0\" gen --seed 7 --count 3000 --size 512 --save '${_rnd}' >/dev/null && exec \"$1\" -seed=1 -runs=0 -timeout=10 '${_rnd}'"
                   $<TARGET_FILE:relaysmith> $<TARGET_FILE:pass_fuzzer>)
  set_tests_properties(fuzz_pass_random PROPERTIES ENVIRONMENT "${RS_TEST_ENV}" TIMEOUT 180)
endif()
# Findings with the fusion policy (fusion_fuzzer, or pass_fuzzer
# -policy=fusion: tests/regressions/fusion_fuzzer), and the seed
# corpus, decoded with that policy.
rs_files_test(fuzz_fusion_corpus fusion_fuzzer ${CMAKE_SOURCE_DIR}/harnesses/corpus/pass_fuzzer/*
              ${CMAKE_SOURCE_DIR}/tests/regressions/fusion_fuzzer/*)
# Long runs keep a flat resident set because every fuzz target links
# ASan's defaults of harnesses/sanitizer_options.c (a bounded quarantine,
# 8-frame malloc stacks); ASAN_OPTIONS still overrides them.  The figures
# are scripts/soak's (docs/performance.md, "Memory").
if(RS_ENGINE STREQUAL "libfuzzer" AND RS_SANITIZE)
  add_test(NAME fuzz_asan_defaults
           COMMAND sh -c "ASAN_OPTIONS=print_stats=1:atexit=1 \"$0\" -runs=50 -seed=1 2>&1 | grep -q 'Quarantine limits: global: 64Mb' && ASAN_OPTIONS=quarantine_size_mb=32:print_stats=1:atexit=1 \"$0\" -runs=50 -seed=1 2>&1 | grep -q 'Quarantine limits: global: 32Mb'"
                   $<TARGET_FILE:pass_fuzzer>)
  set_tests_properties(fuzz_asan_defaults PROPERTIES TIMEOUT 60)
endif()
