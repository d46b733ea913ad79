# ClusterFuzzLite's build.sh, run without Docker in an emulated base-builder
# environment, then every target for -runs=100 on its seed corpus (for
# coverage, also the llvm-cov HTML report).
foreach(san address undefined coverage)
  add_test(NAME cflite_${san} COMMAND ${CMAKE_SOURCE_DIR}/scripts/cflite-local ${san})
  set_tests_properties(cflite_${san} PROPERTIES TIMEOUT 900 RESOURCE_LOCK cflite)
endforeach()
