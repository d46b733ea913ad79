# relaysmith reduce and triage on the deliberately wrong passes (test build
# only).  reduce_<bug> reduces the crash file oracle_<bug> found
# (tests/cases/oracles.cmake keeps it) and requires a program of at most 12
# expression nodes (16 for bad_cse_attrs and bad_dce_refwrite: which crash
# their seeded runs find moves with the address layout, even under
# setarch -R, as relayc keys tables by pointer, and bad_cse_attrs' seed 6
# crashes reduced to 5 to 14 nodes in six runs) that fails with the same pass and oracle
# (tests/reduce/reduce_bug), and that reduce says its OUT.relay fails the
# same way -- except reduce_generator_spans, a failure of the generator
# (made while decoding), which the text cannot have: reduce must say so;
# reduce_triage requires crash files of two
# passes in two buckets and several of one pass in one (tests/reduce/triage).
if(RS_TEST_PASSES)
  set(_reduce_cases
      "bad_fold_swap 12 bad_fold_swap"
      "bad_cse_attrs 16 bad_cse_attrs"
      "bad_dce_refwrite 16 bad_dce_refwrite"
      "bad_anf 12 bad_anf"
      "print_drop_attr 12 simplify_expr -fault=print_drop_attr"
      "generator_spans 40 - -fault=generator_spans")
  foreach(case ${_reduce_cases})
    string(REPLACE " " ";" case ${case})
    list(GET case 0 bug)
    list(GET case 1 max_nodes)
    list(SUBLIST case 2 -1 args)
    add_test(NAME reduce_${bug}
             COMMAND ${CMAKE_SOURCE_DIR}/tests/reduce/reduce_bug $<TARGET_FILE:relaysmith>
                     $<TARGET_FILE:pass_fuzzer> ${CMAKE_BINARY_DIR}/crashes/${bug} ${args})
    set_tests_properties(reduce_${bug} PROPERTIES FIXTURES_REQUIRED crash_${bug}
                         ENVIRONMENT "${RS_TEST_ENV};MAX_NODES=${max_nodes}" TIMEOUT 120)
    if(bug STREQUAL generator_spans)
      # Its point is the check: line: 300 runs of the reducer, any size.
      set_property(TEST reduce_${bug} APPEND PROPERTY ENVIRONMENT "TEXT_CHECK=differs"
                                                                   "REDUCE_MAX_TESTS=300")
    endif()
  endforeach()
  add_test(NAME reduce_triage
           COMMAND ${CMAKE_SOURCE_DIR}/tests/reduce/triage $<TARGET_FILE:relaysmith>
                   $<TARGET_FILE:pass_fuzzer>)
  set_tests_properties(reduce_triage PROPERTIES ENVIRONMENT "${RS_TEST_ENV}" TIMEOUT 120)
endif()
