/*
 * known.c - the known causes of a difference between relayc's interpreter
 * and a correct translation run by MLIR (translate.h,
 * mlt_known_difference): tests/mlir/mlir_check and the MLIR target count
 * them apart from miscompiles.
 */
#include <float.h>
#include <math.h>

#include "translate.h"

/* Three known causes make a correct translation give a different result:
 *   - MLIR 22.1's TOSA folders rewrite a float x * 0 into 0 (wrong for
 *     NaN, infinities, negative x) and x + 0, x - -0 into x (wrong for
 *     x = -0): docs/findings/mlir.md #5;
 *   - tosa-to-linalg starts reduce_min (reduce_max) at FLT_MAX (-FLT_MAX)
 *     instead of +inf (-inf), so a slice of infinities reduces to the
 *     largest finite float: docs/findings/mlir.md #16;
 *   - relayc's conv2d kernel skips the padding taps, so a NaN or infinite
 *     weight that meets only padding leaves the sum finite, where TVM
 *     and TOSA multiply the padding's zeros (0 * NaN = NaN).
 * A difference in a program with such a pattern (and, for the last two,
 * of that form) is counted as known, not as a failure. */

typedef struct {
  const Module *m;
  const Expr *body; /* the enclosing function's body, for let variables */
} Known;

/* The value the let variable v is bound to somewhere in e. */
static const Expr *binding(const Expr *e, const Var *v, int depth) {
  if (!e || depth > 200)
    return NULL;
  const Expr *found = NULL;
  switch (e->kind) {
  case EX_LET:
    if (e->let.var == v)
      return e->let.value;
    found = binding(e->let.value, v, depth + 1);
    return found ? found : binding(e->let.body, v, depth + 1);
  case EX_TUPLE:
    for (int i = 0; i < e->tuple.n && !found; i++)
      found = binding(e->tuple.fields[i], v, depth + 1);
    return found;
  case EX_PROJ: return binding(e->proj.tuple, v, depth + 1);
  case EX_IF:
    found = binding(e->if_.cond, v, depth + 1);
    found = found ? found : binding(e->if_.then, v, depth + 1);
    return found ? found : binding(e->if_.els, v, depth + 1);
  case EX_CALL:
    for (int i = 0; i < e->call.nargs && !found; i++)
      found = binding(e->call.args[i], v, depth + 1);
    return found;
  default: return NULL;
  }
}

/* e with let variables, let blocks and projections of tuples looked
 * through: the expression whose value e is. */
static const Expr *value_of(const Known *k, const Expr *e, int depth) {
  while (e && depth++ < 64) {
    if (e->kind == EX_VAR)
      e = binding(k->body, e->var, 0);
    else if (e->kind == EX_LET)
      e = e->let.body;
    else if (e->kind == EX_PROJ) {
      const Expr *t = value_of(k, e->proj.tuple, depth);
      if (!t || t->kind != EX_TUPLE || e->proj.index >= t->tuple.n)
        return e;
      e = t->tuple.fields[e->proj.index];
    } else
      return e;
  }
  return e;
}

static bool all_zero(const Tensor *t) {
  for (int64_t i = 0; i < t->numel; i++)
    if (ir_tensor_get_f64(t, i) != 0)
      return false;
  return true;
}

/* Whether e is a float tensor of zeros MLIR folds as a constant: a zero
 * constant, zeros/zeros_like, a shape operator, cast, reduction or product
 * of one, a stack or concatenation of them, an if whose branches both are,
 * or a call of a global that returns one (tosa-inline exposes it). */
static bool zero_like(const Known *k, const Expr *e, int depth) {
  e = value_of(k, e, 0);
  if (!e || depth > 32)
    return false;
  switch (e->kind) {
  case EX_CONST: return ir_dtype_is_float(e->constant->dtype) && all_zero(e->constant);
  case EX_IF: return zero_like(k, e->if_.then, depth + 1) && zero_like(k, e->if_.els, depth + 1);
  case EX_CALL:
    if (e->call.kind == CALL_EXPR && e->call.callee->kind == EX_GLOBAL) {
      const Expr *fn = e->call.callee->global->func;
      Known in = {k->m, fn ? fn->func.body : NULL};
      return fn && zero_like(&in, fn->func.body, depth + 1);
    }
    if (e->call.kind != CALL_OP || !e->type || e->type->kind != TY_TENSOR ||
        !ir_dtype_is_float(e->type->tensor.dtype))
      return false;
    switch (e->call.op) {
    case OP_ZEROS:
    case OP_ZEROS_LIKE: return true;
    case OP_MULTIPLY:
      return zero_like(k, e->call.args[0], depth + 1) || zero_like(k, e->call.args[1], depth + 1);
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
    case OP_STRIDED_SLICE: return zero_like(k, e->call.args[0], depth + 1);
    case OP_STACK:
    case OP_CONCATENATE: { /* of a tuple of zeros */
      const Expr *t = value_of(k, e->call.args[0], 0);
      if (!t || t->kind != EX_TUPLE)
        return false;
      for (int i = 0; i < t->tuple.n; i++)
        if (!zero_like(k, t->tuple.fields[i], depth + 1))
          return false;
      return true;
    }
    case OP_CAST: { /* a cast of constant zeros of any dtype folds to float zeros */
      const Expr *a = value_of(k, e->call.args[0], 0);
      return zero_like(k, a, depth + 1) || (a && a->kind == EX_CONST && all_zero(a->constant));
    }
    default: return false;
    }
  default: return false;
  }
}

/* Whether got differs from want only where same(want, got) allows. */
static bool differs_only(const EvValue *want, const EvValue *got, bool (*same)(double, double)) {
  Tensor *w[256], *g[256];
  int n = mlt_flatten_value(want, w, 256);
  if (n > 256 || mlt_flatten_value(got, g, 256) != n)
    return false;
  for (int i = 0; i < n; i++)
    for (int64_t k = 0; k < w[i]->numel; k++) {
      double a = ir_tensor_get_f64(w[i], k), b = ir_tensor_get_f64(g[i], k);
      bool equal =
          ir_dtype_is_float(w[i]->dtype)
              ? ev_float_close(a, b, w[i]->dtype, &ev_default_tolerance) || (isnan(a) && isnan(b))
              : ir_tensor_get_i64(w[i], k) == ir_tensor_get_i64(g[i], k);
      if (!equal && !(ir_dtype_is_float(w[i]->dtype) && same(a, b)))
        return false;
    }
  return true;
}

/* A NaN where want has a number (a padded conv2d with a non-finite
 * weight: 0 * NaN = NaN). */
static bool new_nan(double want, double got) {
  return isnan(got) && !isnan(want);
}

/* The largest finite float where want has the infinity of that sign
 * (#16), or what negation or a further reduction made of it. */
static bool finite_for_inf(double want, double got) {
  return isinf(want) && fabs(got) == FLT_MAX && (want > 0) == (got > 0);
}

/* Whether the call e is one of the known causes above (conv: when the
 * difference is only new NaNs; min/max: when it is only ±FLT_MAX for
 * ±inf). */
static bool known_pattern(const Known *k, const Expr *e, bool new_nans, bool max_for_inf) {
  if (e->kind != EX_CALL || e->call.kind != CALL_OP)
    return false;
  switch (e->call.op) {
  case OP_MULTIPLY: return zero_like(k, e, 0);
  case OP_ADD:
  case OP_SUBTRACT:
  case OP_BIAS_ADD: return zero_like(k, e->call.args[0], 0) || zero_like(k, e->call.args[1], 0);
  case OP_BATCH_NORM:
  case OP_LAYER_NORM: /* their gamma is a multiplier, their beta a summand */
    return (ir_attr_bool(&e->call.attrs, "scale", true) && zero_like(k, e->call.args[1], 0)) ||
           (ir_attr_bool(&e->call.attrs, "center", true) && zero_like(k, e->call.args[2], 0));
  case OP_MIN:
  case OP_MAX: return max_for_inf;
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

typedef struct {
  const Known *k;
  bool new_nans, max_for_inf;
} Search;

/* Whether some call in e has a known pattern. */
static bool has_known(const Search *s, const Expr *e, int depth) {
  if (!e || depth > 200)
    return false;
  if (known_pattern(s->k, e, s->new_nans, s->max_for_inf))
    return true;
  switch (e->kind) {
  case EX_TUPLE:
    for (int i = 0; i < e->tuple.n; i++)
      if (has_known(s, e->tuple.fields[i], depth + 1))
        return true;
    return false;
  case EX_PROJ: return has_known(s, e->proj.tuple, depth + 1);
  case EX_LET: return has_known(s, e->let.value, depth + 1) || has_known(s, e->let.body, depth + 1);
  case EX_IF:
    return has_known(s, e->if_.cond, depth + 1) || has_known(s, e->if_.then, depth + 1) ||
           has_known(s, e->if_.els, depth + 1);
  case EX_CALL:
    for (int i = 0; i < e->call.nargs; i++)
      if (has_known(s, e->call.args[i], depth + 1))
        return true;
    return false;
  default: return false;
  }
}

bool mlt_known_difference(const Module *m, const EvValue *want, const EvValue *got) {
  bool new_nans = differs_only(want, got, new_nan);
  bool max_for_inf = differs_only(want, got, finite_for_inf);
  for (int i = 0; i < m->nfuncs; i++) {
    const Expr *fn = m->funcs[i]->func;
    if (!fn)
      continue;
    Known k = {m, fn->func.body};
    Search s = {&k, new_nans, max_for_inf};
    if (has_known(&s, fn->func.body, 0))
      return true;
  }
  return false;
}
