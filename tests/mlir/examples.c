/*
 * examples.c - loading the hand-translated examples (examples.h).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "examples.h"

const char *const example_names[NEXAMPLES] = {"ex1_chain", "ex2_conv", "ex3_dense", "ex4_ctrl"};

char *example_read(const char *path) {
  FILE *fp = fopen(path, "rb");
  if (!fp)
    return NULL;
  fseek(fp, 0, SEEK_END);
  long n = ftell(fp);
  fseek(fp, 0, SEEK_SET);
  char *b = malloc((size_t)n + 1);
  size_t got = fread(b, 1, (size_t)n, fp);
  fclose(fp);
  b[got] = 0;
  return b;
}

/* Collect the calls of ex->f with constant arguments under e. */
static void example_calls(Example *ex, const Expr *e) {
  switch (e->kind) {
  case EX_LET:
    example_calls(ex, e->let.value);
    example_calls(ex, e->let.body);
    break;
  case EX_TUPLE:
    for (int i = 0; i < e->tuple.n; i++)
      example_calls(ex, e->tuple.fields[i]);
    break;
  case EX_PROJ: example_calls(ex, e->proj.tuple); break;
  case EX_CALL: {
    bool consts = e->call.kind == CALL_EXPR && e->call.callee->kind == EX_GLOBAL &&
                  e->call.callee->global == ex->f && e->call.nargs <= EXAMPLE_MAX_ARGS;
    for (int i = 0; consts && i < e->call.nargs; i++)
      consts = e->call.args[i]->kind == EX_CONST;
    if (consts && ex->ncalls < EXAMPLE_MAX_CALLS) {
      for (int i = 0; i < e->call.nargs; i++)
        ex->args[ex->ncalls][i] = e->call.args[i]->constant;
      ex->nargs = e->call.nargs;
      ex->ncalls++;
    }
    for (int i = 0; i < e->call.nargs; i++)
      example_calls(ex, e->call.args[i]);
    break;
  }
  default: break;
  }
}

bool example_load(Example *ex, const char *dir, const char *name) {
  char path[512];
  memset(ex, 0, sizeof *ex);
  ex->name = name;
  snprintf(path, sizeof path, "%s/%s.mlir", dir, name);
  ex->mlir = example_read(path);
  snprintf(path, sizeof path, "%s/%s.relay", dir, name);
  char *relay = example_read(path);
  if (!ex->mlir || !relay) {
    fprintf(stderr, "%s: cannot read %s/%s.{mlir,relay}\n", name, dir, name);
    free(relay);
    return false;
  }
  Diag d;
  diag_init(&d, path, relay);
  ex->relay = ir_parse_module(relay, strlen(relay), path, &d);
  bool ok = ex->relay && ty_check_module(ex->relay, &d);
  if (!ok)
    fprintf(stderr, "%s", d.text ? d.text : "relay example does not parse\n");
  diag_free(&d);
  free(relay);
  GlobalFn *main = ok ? ir_global_get(ex->relay, "main") : NULL;
  ex->f = ok ? ir_global_get(ex->relay, "f") : NULL;
  if (main && ex->f)
    example_calls(ex, main->func->func.body);
  return ok && ex->ncalls > 0;
}

void example_free(Example *ex) {
  free(ex->mlir);
  if (ex->relay)
    ir_module_free(ex->relay);
}

int example_flatten(const EvValue *v, Tensor **out, int n, int max) {
  if (v->kind == VAL_TENSOR) {
    if (n >= max)
      return -1;
    out[n] = v->tensor;
    return n + 1;
  }
  if (v->kind != VAL_TUPLE)
    return -1;
  for (int i = 0; i < v->tuple.n && n >= 0; i++)
    n = example_flatten(v->tuple.fields[i], out, n, max);
  return n;
}
