# The fuzz targets.  rs_fuzz_target() is defined in the top CMakeLists.txt.
rs_fuzz_target(parse_fuzzer SOURCES harnesses/parse_fuzzer.c LIBS relayc)
