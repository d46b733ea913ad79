# scripts/mutation-score on a tiny, seeded slice (tools/mutate/smoke_test):
# the sample is a function of the seed, and a measured slice of two passes
# (two mutants each, 5 s) classifies the mutants it must and writes well
# formed results.tsv and summary.md.  It builds its own `fuzz`-preset
# schema tree of two targets under this build directory (kept, so that a
# second run rebuilds only what changed).  Needs libclang-14-dev: installed
# when run as root, otherwise skipped (exit 77).
if(RS_ENGINE STREQUAL "libfuzzer")
  add_test(NAME mutation_score_smoke
           COMMAND ${CMAKE_SOURCE_DIR}/tools/mutate/smoke_test ${CMAKE_BINARY_DIR}/mutation_smoke)
  set_tests_properties(mutation_score_smoke PROPERTIES SKIP_RETURN_CODE 77 TIMEOUT 600)
endif()
