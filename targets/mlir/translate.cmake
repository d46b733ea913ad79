# The relayc -> MLIR translator (targets/mlir/translate.c): plain C, no
# MLIR library needed, so it is built everywhere; the MLIR target and the
# tools link it.  Not feedback: it runs before the compiler under test.
rs_library(rsmlt none SOURCES ${CMAKE_SOURCE_DIR}/targets/mlir/translate.c
           ${CMAKE_SOURCE_DIR}/targets/mlir/known.c LIBS relayc)
