/*
 * typecheck_fuzzer.c - fuzzes type inference itself.  A generated program
 * (fully annotated, well typed) has a seeded subset of its erasable
 * annotations removed (ty_erase_annotations: let-bound variables,
 * function-literal parameters, return types); inference must then succeed
 * and recover exactly the erased types (ty_erasure_verify).  A failure
 * prints the program before and after erasure and aborts.  The check is
 * oracle_typecheck (oracle.c), which `relaysmith reduce` calls too.
 */
#include "oracle.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  oracle_typecheck(data, size);
  return 0;
}
