/*
 * examples.h - the hand-translated examples of tests/mlir/examples, for the
 * runtime's test and benchmark: exN_*.mlir is relayc's exN_*.relay @f in
 * TOSA, and every call of @f in the .relay's @main whose arguments are
 * constants is one set of inputs (exN_entry.mlir drives the same calls for
 * mlir-runner).
 */
#ifndef RS_TESTS_MLIR_EXAMPLES_H
#define RS_TESTS_MLIR_EXAMPLES_H

#include "compiler/eval/eval.h"
#include "compiler/typing/typing.h"

enum { NEXAMPLES = 4, EXAMPLE_MAX_CALLS = 4, EXAMPLE_MAX_ARGS = 8 };
extern const char *const example_names[NEXAMPLES];

typedef struct Example {
  const char *name;
  char *mlir;    /* the module's text (malloc'd) */
  Module *relay; /* parsed and type checked */
  GlobalFn *f;
  int ncalls; /* calls of @f in @main with constant arguments */
  int nargs;  /* @f's parameters */
  Tensor *args[EXAMPLE_MAX_CALLS][EXAMPLE_MAX_ARGS];
} Example;

/* A whole file, malloc'd and NUL-terminated, or NULL. */
char *example_read(const char *path);
/* Load example `name` from dir; false (with a message on stderr) when a
 * file is missing, the .relay does not check or its @main has no call of
 * @f with constant arguments. */
bool example_load(Example *ex, const char *dir, const char *name);
void example_free(Example *ex);
/* Flatten a value (a tensor, or tuples of tensors) into out[n..max);
 * the new count, or -1 when it holds something else or too many. */
int example_flatten(const EvValue *v, Tensor **out, int n, int max);

#endif
