/*
 * typecheck_fuzzer.c - fuzzes type inference itself.  A generated program
 * (fully annotated, well typed) has a seeded subset of its erasable
 * annotations removed (ty_erase_annotations: let-bound variables,
 * function-literal parameters, return types); inference must then succeed
 * and recover exactly the erased types (ty_erasure_verify).  A failure
 * prints the program before and after erasure and aborts.
 */
#include <stdio.h>
#include <stdlib.h>

#include "compiler/typing/typing.h"
#include "generator/gen.h"

static void fail(const char *what, const char *detail, const char *before, const Module *after) {
  fprintf(stderr, "\n==relaysmith== FAILURE\npass:    (none: type inference)\noracle:  %s\n", what);
  if (detail)
    fprintf(stderr, "detail:  %s\n", detail);
  fprintf(stderr, "--- program, fully annotated:\n%s\n", before);
  if (after) {
    char *t = ir_print_module(after);
    fprintf(stderr, "--- program with annotations erased:\n%s\n", t);
    free(t);
  }
  fprintf(stderr, "==relaysmith== end of report\n");
  abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  Module *m = gen_decode(data, size, gen_policy_get("default"), NULL);
  char *before = ir_print_module(m);
  Diag d;
  diag_init(&d, "generated", NULL);
  if (!ty_check_module(m, &d))
    fail("generator (the generated program does not type check)", d.text, before, NULL);
  /* The body bytes choose which annotations go; an all-ones seed (every
   * erasable one) for one input in eight. */
  uint64_t seed = 0x9e3779b97f4a7c15ull;
  for (size_t i = 0; i < size; i++)
    seed = (seed ^ data[i]) * 0x100000001b3ull;
  TyErasure er = ty_erase_annotations(m, (seed & 7) == 0 ? TY_ERASE_ALL : seed);
  diag_reset(&d);
  if (!ty_check_module(m, &d))
    fail("type (inference fails once annotations are erased)", d.text, before, m);
  if (!ty_erasure_verify(&er, &d))
    fail("type (inference recovers a different type than the erased one)", d.text, before, m);
  ty_erasure_restore(&er);
  diag_free(&d);
  free(before);
  ir_module_free(m);
  return 0;
}
