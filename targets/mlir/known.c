/*
 * known.c - the known causes of a difference between relayc's interpreter
 * and a correct translation run by MLIR (translate.h,
 * mlt_known_difference): tests/mlir/mlir_check and the MLIR target count
 * them apart from miscompiles.
 */
#include <math.h>

#include "translate.h"

/* Two known causes make a correct translation give a different result:
 *   - MLIR 22.1's TOSA folders rewrite a float x * 0 into 0 (wrong for
 *     NaN, infinities, negative x) and x + 0, x - -0 into x (wrong for
 *     x = -0): docs/findings/mlir.md #5;
 *   - relayc's conv2d kernel skips the padding taps, so a NaN or infinite
 *     weight that meets only padding leaves the sum finite, where TVM
 *     and TOSA multiply the padding's zeros (0 * NaN = NaN).
 * A difference in a program with such a pattern is counted as known, not
 * as a failure. */

/* The value the let variable v is bound to in the function body e. */
static const Expr *binding(const Expr *e, const Var *v) {
  for (; e && e->kind == EX_LET; e = e->let.body)
    if (e->let.var == v)
      return e->let.value;
  return NULL;
}

static bool all_zero(const Tensor *t) {
  for (int64_t i = 0; i < t->numel; i++)
    if (ir_tensor_get_f64(t, i) != 0)
      return false;
  return true;
}

/* Whether e is a float tensor of zeros MLIR folds as a constant: a zero
 * constant, zeros/zeros_like, a shape operator, cast, reduction or product
 * of one. */
static bool zero_like(const Expr *e, const Expr *body, int depth) {
  if (depth > 32)
    return false;
  switch (e->kind) {
  case EX_CONST:
    for (int64_t i = 0; i < e->constant->numel; i++)
      if (ir_tensor_get_f64(e->constant, i) != 0)
        return false;
    return ir_dtype_is_float(e->constant->dtype);
  case EX_VAR: {
    const Expr *v = binding(body, e->var);
    return v && zero_like(v, body, depth + 1);
  }
  case EX_CALL:
    if (e->call.kind != CALL_OP || !e->type || e->type->kind != TY_TENSOR ||
        !ir_dtype_is_float(e->type->tensor.dtype))
      return false;
    switch (e->call.op) {
    case OP_ZEROS:
    case OP_ZEROS_LIKE: return true;
    case OP_MULTIPLY:
      return zero_like(e->call.args[0], body, depth + 1) ||
             zero_like(e->call.args[1], body, depth + 1);
    case OP_RESHAPE:
    case OP_EXPAND_DIMS:
    case OP_SQUEEZE:
    case OP_BROADCAST_TO:
    case OP_TRANSPOSE:
    case OP_TILE:
    case OP_REVERSE:
    case OP_COPY:
    case OP_NEGATIVE:
    case OP_FULL:
    case OP_SUM: /* reductions, and what keeps zeros zeros, of zeros */
    case OP_MEAN:
    case OP_MAX:
    case OP_MIN:
    case OP_PROD:
    case OP_ABS:
    case OP_RELU:
    case OP_STRIDED_SLICE: return zero_like(e->call.args[0], body, depth + 1);
    case OP_CAST: /* a cast of constant zeros of any dtype folds to float zeros */
      return zero_like(e->call.args[0], body, depth + 1) ||
             (e->call.args[0]->kind == EX_CONST && all_zero(e->call.args[0]->constant));
    default: return false;
    }
  default: return false;
  }
}

/* Whether got differs from want only by NaNs where want has a number (what
 * a padded conv2d with a non-finite weight gives: 0 * NaN = NaN). */
static bool only_new_nans(const EvValue *want, const EvValue *got) {
  Tensor *w[256], *g[256];
  int n = mlt_flatten_value(want, w, 256);
  if (n > 256 || mlt_flatten_value(got, g, 256) != n)
    return false;
  for (int i = 0; i < n; i++)
    for (int64_t k = 0; k < w[i]->numel; k++) {
      double a = ir_tensor_get_f64(w[i], k), b = ir_tensor_get_f64(g[i], k);
      bool same =
          ir_dtype_is_float(w[i]->dtype)
              ? ev_float_close(a, b, w[i]->dtype, &ev_default_tolerance) || (isnan(a) && isnan(b))
              : ir_tensor_get_i64(w[i], k) == ir_tensor_get_i64(g[i], k);
      if (!same && !(isnan(b) && !isnan(a)))
        return false;
    }
  return true;
}

/* Whether the call e is one of the known causes above (conv: when the
 * difference is only new NaNs). */
static bool known_pattern(const Expr *e, const Expr *body, bool new_nans) {
  if (e->kind != EX_CALL || e->call.kind != CALL_OP)
    return false;
  switch (e->call.op) {
  case OP_MULTIPLY: return zero_like(e, body, 0);
  case OP_ADD:
  case OP_SUBTRACT:
  case OP_BIAS_ADD:
    return zero_like(e->call.args[0], body, 0) || zero_like(e->call.args[1], body, 0);
  case OP_BATCH_NORM:
  case OP_LAYER_NORM: /* their gamma is a multiplier, their beta a summand */
    return (ir_attr_bool(&e->call.attrs, "scale", true) && zero_like(e->call.args[1], body, 0)) ||
           (ir_attr_bool(&e->call.attrs, "center", true) && zero_like(e->call.args[2], body, 0));
  case OP_CONV2D: {
    const Attr *p = ir_attr_get(&e->call.attrs, "padding");
    for (int i = 0; new_nans && p && p->kind == AV_INTS && i < p->n; i++)
      if (p->ints[i] != 0)
        return true;
    return false;
  }
  default: return false;
  }
}

/* Whether some call in e has a known pattern; body is the enclosing
 * function's body (for let variables). */
static bool has_known(const Expr *e, const Expr *body, bool new_nans, int depth) {
  if (!e || depth > 200)
    return false;
  if (known_pattern(e, body, new_nans))
    return true;
  switch (e->kind) {
  case EX_TUPLE:
    for (int i = 0; i < e->tuple.n; i++)
      if (has_known(e->tuple.fields[i], body, new_nans, depth + 1))
        return true;
    return false;
  case EX_PROJ: return has_known(e->proj.tuple, body, new_nans, depth + 1);
  case EX_LET:
    return has_known(e->let.value, body, new_nans, depth + 1) ||
           has_known(e->let.body, body, new_nans, depth + 1);
  case EX_IF:
    return has_known(e->if_.cond, body, new_nans, depth + 1) ||
           has_known(e->if_.then, body, new_nans, depth + 1) ||
           has_known(e->if_.els, body, new_nans, depth + 1);
  case EX_CALL:
    for (int i = 0; i < e->call.nargs; i++)
      if (has_known(e->call.args[i], body, new_nans, depth + 1))
        return true;
    return false;
  default: return false;
  }
}

bool mlt_known_difference(const Module *m, const EvValue *want, const EvValue *got) {
  bool new_nans = only_new_nans(want, got);
  for (int i = 0; i < m->nfuncs; i++) {
    const Expr *fn = m->funcs[i]->func;
    if (fn && has_known(fn->func.body, fn->func.body, new_nans, 0))
      return true;
  }
  return false;
}
