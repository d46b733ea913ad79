# The relayc -> MLIR translator (targets/mlir/translate.c, the driver, and
# the files its private header translate_int.h names) and known.c: plain
# C, no MLIR library needed, so it is built everywhere; the MLIR target
# and the tools link it.  Not feedback: it runs before the compiler under
# test.
set(_mlt ${CMAKE_SOURCE_DIR}/targets/mlir)
set(RS_MLT_SRC
    ${_mlt}/translate.c
    ${_mlt}/accept.c
    ${_mlt}/emit.c
    ${_mlt}/emit_elemwise.c
    ${_mlt}/emit_reduce.c
    ${_mlt}/emit_shape.c
    ${_mlt}/emit_index.c
    ${_mlt}/emit_nn.c
    ${_mlt}/linalg.c
    ${_mlt}/linalg_ops.c
    ${_mlt}/linalg_index.c
    ${_mlt}/emit_extra.c
    ${_mlt}/text.c
    ${_mlt}/entry.c
    ${_mlt}/known.c)
rs_library(rsmlt none SOURCES ${RS_MLT_SRC} LIBS relayc)
