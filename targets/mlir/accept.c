/*
 * accept.c - the translator's guards: what it takes (translate.h: data
 * flow over float32, int32 and bool tensors with every dim >= 1 or Any,
 * calls of non-recursive globals) and, for anything else, the reason it
 * refuses.  Any dims are taken everywhere but in @main's parameters: the
 * translation derives every static shape from those (translate.c's
 * static_type), and casts a dynamic value to it where an operation needs
 * static shapes; what only the emission can tell (a global called at two
 * shapes, a deferred check that fails) it refuses itself (tr_refuse).
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
 * empty tensors) or Any, and tuples of them.  The other dtypes are refused, never
 * mistranslated: the unsigned ints have no TOSA type (TOSA's integers are
 * signless and its ops signed), and float16, bfloat16 and int16, which
 * mty_elem maps to f16, bf16 and i16, are refused until every emitter's
 * lowering (constants, casts, the float64 accumulators, the runner's
 * buffers) is checked in them. */
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
    return refuse(t, "dtype %s (float32, int32 and bool only%s)", ir_dtype_name(dt),
                  ir_dtype_is_unsigned(dt) ? "; TOSA has no unsigned integers" : "");
  for (int i = 0; i < ty->tensor.rank; i++)
    if (ty->tensor.shape[i] < 1 && !ir_dim_is_any(ty->tensor.shape[i]))
      return refuse(t, "a tensor with an empty dim (TOSA wants dims >= 1)");
  return true;
}

/* Each operator's family, from the one table of what lowers (lowers.def);
 * an operator without a row (MLF_NONE) is refused. */
static const unsigned char op_family[OP_COUNT] = {
#define MLIR_OP(id, family, draw) [OP_##id] = MLF_##family,
#include "lowers.def"
#undef MLIR_OP
};

MltFamily accept_family(OpId op) {
  return (unsigned)op < OP_COUNT ? (MltFamily)op_family[op] : MLF_NONE;
}

/* An operator call the emitters lower: the operator has a row in
 * lowers.def, and the call none of the attributes its emitter refuses
 * (the rows with draw 0). */
static bool accept_call(Tr *t, const Expr *e) {
  OpId op = e->call.op;
  if (accept_family(op) == MLF_NONE)
    return refuse(t, "operator %s (no lowering)", ir_op_name(op));
  if (op == OP_TAKE && ir_attr_int(&e->call.attrs, "batch_dims", 0) != 0)
    return refuse(t, "take with batch_dims (no lowering)");
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
    if (e->call.kind == CALL_OP && !accept_call(t, e))
      return false;
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
  bool main = strcmp(g->name, "main") == 0;
  for (int i = 0; i < g->func->func.nparams; i++) {
    const Type *pt = g->func->func.params[i]->type;
    if (!accept_type(t, pt))
      return false;
    if (main && mty_has_any(pt))
      return refuse(t,
                    "an Any dim in @main's parameter %d (the translation takes its static "
                    "shapes from @main's parameters)",
                    i);
  }
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
