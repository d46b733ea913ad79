/*
 * accept.c - the translator's guards: what it takes (translate.h: data
 * flow over float32, int32 and bool tensors with every dim >= 1, calls of
 * non-recursive globals) and, for anything else, the reason it refuses.
 */
#include <stdio.h>
#include <string.h>

#include "compiler/ops/op.h"
#include "translate_int.h"

/* Refuse (with a reason in t->skip) what the emitters do not take. */
static bool refuse(Tr *t, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static bool refuse(Tr *t, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(t->skip, sizeof t->skip, fmt, ap);
  va_end(ap);
  return false;
}

/* Tensors of float32, int32 or bool with every dim >= 1 (TOSA rejects
 * empty tensors), and tuples of them. */
static bool accept_type(Tr *t, const Type *ty) {
  if (!ty)
    return refuse(t, "an expression without a type (the module is not type-checked)");
  if (ty->kind == TY_TUPLE) {
    for (int i = 0; i < ty->tuple.n; i++)
      if (!accept_type(t, ty->tuple.fields[i]))
        return false;
    return true;
  }
  if (ty->kind != TY_TENSOR)
    return refuse(t, "a value of a type other than tensors and tuples");
  DType dt = ty->tensor.dtype;
  if (dt != DT_FLOAT32 && dt != DT_INT32 && dt != DT_BOOL)
    return refuse(t, "dtype %s (float32, int32 and bool only)", ir_dtype_name(dt));
  for (int i = 0; i < ty->tensor.rank; i++)
    if (ty->tensor.shape[i] < 1)
      return refuse(t, "a tensor with an empty dim (TOSA wants dims >= 1)");
  return true;
}

static bool accept_global(Tr *t, GlobalFn *g, PtrMap *seen);

/* e and everything below it (shared nodes once). */
static bool accept_expr(Tr *t, const Expr *e, PtrMap *seen) {
  if (!ptrmap_first(seen, e))
    return true;
  if (!accept_type(t, e->type))
    return false;
  switch (e->kind) {
  case EX_VAR: return accept_type(t, e->var->type);
  case EX_CONST: return true;
  case EX_TUPLE:
    for (int i = 0; i < e->tuple.n; i++)
      if (!accept_expr(t, e->tuple.fields[i], seen))
        return false;
    return true;
  case EX_PROJ: return accept_expr(t, e->proj.tuple, seen);
  case EX_LET:
    return accept_type(t, e->let.var->type) && accept_expr(t, e->let.value, seen) &&
           accept_expr(t, e->let.body, seen);
  case EX_IF:
    return accept_expr(t, e->if_.cond, seen) && accept_expr(t, e->if_.then, seen) &&
           accept_expr(t, e->if_.els, seen);
  case EX_CALL:
    if (e->call.kind == CALL_CTOR)
      return refuse(t, "constructors (algebraic data types)");
    if (e->call.kind == CALL_OP && e->call.op >= OP_GATHER && e->call.op <= OP_SCATTER_ELEMENTS)
      return refuse(t, "operator %s (no lowering)", op_table[e->call.op].name);
    if (e->call.kind == CALL_EXPR) {
      if (e->call.callee->kind != EX_GLOBAL)
        return refuse(t, "a call of a closure");
      if (!accept_global(t, e->call.callee->global, seen))
        return false;
    }
    for (int i = 0; i < e->call.nargs; i++)
      if (!accept_expr(t, e->call.args[i], seen))
        return false;
    return true;
  case EX_GLOBAL: return refuse(t, "a global function used as a value");
  case EX_FUNC: return refuse(t, "a function literal");
  case EX_REF_NEW:
  case EX_REF_READ:
  case EX_REF_WRITE: return refuse(t, "references");
  case EX_MATCH: return refuse(t, "match");
  }
  return refuse(t, "an unknown expression");
}

/* A global @main calls: its parameters and body, and no recursion (the
 * seen map holds 1 while a global is being checked, 2 when done). */
static bool accept_global(Tr *t, GlobalFn *g, PtrMap *seen) {
  int added;
  int64_t *state = ptrmap_put(seen, g, &added);
  if (!added)
    return *state == 2 || refuse(t, "recursion (@%s calls itself)", g->name);
  *state = 1;
  if (!g->func || g->func->kind != EX_FUNC || g->func->func.ntvars)
    return refuse(t, "@%s is not a monomorphic function", g->name);
  if (strcmp(g->name, "entry") == 0)
    return refuse(t, "a global named @entry (the runner's entry function)");
  for (int i = 0; i < g->func->func.nparams; i++)
    if (!accept_type(t, g->func->func.params[i]->type))
      return false;
  if (!accept_expr(t, g->func->func.body, seen))
    return false;
  *ptrmap_get(seen, g) = 2;
  return true;
}

bool accept_module(Tr *t, GlobalFn *main) {
  if (!main)
    return refuse(t, "no @main");
  PtrMap seen = {.arena = t->a};
  return accept_global(t, main, &seen);
}
