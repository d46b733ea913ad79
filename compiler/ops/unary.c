/*
 * unary.c - the elementwise unary operators (negative, abs, exp, ..., clip)
 * and cast: relations, recognizers, solvers, samplers and kernels.
 *
 * Dtypes: exp, log, sqrt, rsqrt, sigmoid, tanh, floor, ceil and round take
 * floats; logical_not takes bool; copy takes any dtype; the others take
 * ints and floats.  The result has the input's type (cast: the attribute
 * dtype, the input's own dtype when omitted).
 *
 * Defined behaviour: integer negative and abs wrap (INT_MIN stays INT_MIN);
 * on unsigned ints negative wraps (0 - x), abs and relu are the identity
 * and sign is 0 or 1, as TVM's topi defines them;
 * round is half to even; sign keeps +-0 and NaN; relu(x) = maximum(x, 0)
 * (NaN stays, -0 becomes +0); clip(x) = min(max(x, a_min), a_max) as
 * t = x < a_min ? a_min : x, then t > a_max ? a_max : t (so -0 stays -0 at
 * a zero bound, a NaN bound changes nothing, and a_max wins when a_min >
 * a_max) with the bounds
 * (default -inf and +inf) converted to the input dtype first, with
 * saturation and NaN -> 0 for ints; a NaN input stays NaN.  Each step
 * is computed in the input's dtype (docs/operators.md, "Float
 * arithmetic"): one libm call in double rounded once for the single-step
 * operators, and rsqrt = 1 / sqrt x and sigmoid = 1 / (e^-x + 1) rounded
 * after every step, as their lowering computes them.  cast: float -> int saturates and
 * sends NaN to 0, int -> int wraps, float -> float and int -> float round
 * once to nearest even, anything -> bool is x != 0.
 */
#include <math.h>
#include <string.h>

#include "op_int.h"

/* The input dtypes an elementwise unary operator accepts. */
static uint32_t unary_dtypes(OpId op) {
  switch (op) {
  case OP_EXP:
  case OP_LOG:
  case OP_SQRT:
  case OP_RSQRT:
  case OP_SIGMOID:
  case OP_TANH:
  case OP_FLOOR:
  case OP_CEIL:
  case OP_ROUND: return OP_FLOATS;
  case OP_LOGICAL_NOT: return 1u << DT_BOOL;
  case OP_COPY: return OP_ALL;
  default: return OP_NUMERIC;
  }
}

/* A phrase naming a dtype set, for error messages. */
static const char *dtypes_desc(uint32_t m) {
  return m == OP_FLOATS ? "a float" : m == (1u << DT_BOOL) ? "a bool" : "an int or float";
}

/* A copy of a tensor type in arena a with dtype dt. */
static Type *retype(Arena *a, const Type *t, DType dt) {
  return ir_tensor_type(a, dt, t->tensor.rank, t->tensor.shape);
}

RelStatus rel_unary(OpId op, Type *const *args, int nargs, const Attrs *at, Arena *a, Type **out,
                    char *err, size_t errlen) {
  RelStatus s = op_check_attrs(op, at, err, errlen);
  if (s == REL_OK)
    s = op_want_tensors(args, nargs, 1, err, errlen);
  if (s != REL_OK)
    return s;
  DType dt = args[0]->tensor.dtype;
  if (!(unary_dtypes(op) & (1u << dt)))
    return op_fail(err, errlen, "expects %s tensor, got %s", dtypes_desc(unary_dtypes(op)),
                   ir_dtype_name(dt));
  *out = retype(a, args[0], dt);
  return REL_OK;
}

bool rec_unary(OpId op, const Type *want, const OpLimits *lim) {
  return op_fits_dtype(want, lim, unary_dtypes(op));
}

/* Draw clip's bounds; choice 0 gives [0, 6].  a_min > a_max is allowed
 * (the result is then a_max everywhere). */
static void draw_clip(OpSolveCtx *cx, Attrs *at) {
  static const double lo[] = {0, -1, -0.5, -6, 1, -100, -3e9};
  static const double hi[] = {6, 1, 0.5, 0, 100, -1, 3e9};
  ir_attr_set_float(cx->arena, at, "a_min", lo[op_choose(cx->ch, sizeof lo / sizeof *lo)]);
  ir_attr_set_float(cx->arena, at, "a_max", hi[op_choose(cx->ch, sizeof hi / sizeof *hi)]);
}

/* Complete sig for argument x: attrs; the result is x's type. */
static bool finish(OpId op, OpSolveCtx *cx, OpSig *sig, Type *x) {
  sig->nargs = 1;
  sig->args[0] = x;
  sig->attrs = (Attrs){0};
  if (op == OP_CLIP)
    draw_clip(cx, &sig->attrs);
  return op_sig_claim(cx, sig, x);
}

bool solve_unary(OpId op, const Type *want, OpSolveCtx *cx, OpSig *sig) {
  if (!rec_unary(op, want, cx->lim))
    return false;
  return finish(op, cx, sig, retype(cx->arena, want, want->tensor.dtype));
}

bool sample_unary(OpId op, OpSolveCtx *cx, OpSig *sig) {
  uint32_t allowed = unary_dtypes(op) & cx->lim->dtypes;
  if (!allowed)
    return false;
  return finish(op, cx, sig, op_draw_tensor(cx, 0, cx->lim->max_rank, allowed));
}

/* Round half to even, independent of the current rounding mode. */
static double round_even(double x) {
  if (fabs(x - trunc(x)) == 0.5)
    return 2.0 * round(x / 2.0);
  return round(x);
}

/* One float element of dtype dt; lo and hi are clip's bounds. */
static double un_float(OpId op, DType dt, double x, double lo, double hi) {
  switch (op) {
  case OP_NEGATIVE: return -x;
  case OP_ABS: return fabs(x);
  case OP_EXP: return exp(x);
  case OP_LOG: return log(x);
  case OP_SQRT: return sqrt(x);
  case OP_RSQRT: return op_fdiv(1.0, op_round(dt, sqrt(x)));
  case OP_SIGMOID: return 1.0 / op_round(dt, op_round(dt, exp(-x)) + 1.0);
  case OP_TANH: return tanh(x);
  case OP_RELU: return op_fmax(x, 0.0);
  case OP_FLOOR: return floor(x);
  case OP_CEIL: return ceil(x);
  case OP_ROUND: return round_even(x);
  case OP_SIGN: return x > 0 ? 1.0 : x < 0 ? -1.0 : x;
  case OP_CLIP: {
    double t = x < lo ? lo : x;
    return t > hi ? hi : t;
  }
  default: return x; /* copy */
  }
}

/* One integer (or bool) element of dtype dt (its bits, compared as
 * unsigned for the unsigned dtypes); wrapping is done by the store. */
static int64_t un_int(OpId op, DType dt, int64_t x, int64_t lo, int64_t hi) {
  int64_t neg = op_u2i(0u - (uint64_t)x); /* INT64_MIN stays */
  bool below0 = !ir_dtype_is_unsigned(dt) && x < 0;
  switch (op) {
  case OP_NEGATIVE: return neg;
  case OP_ABS: return below0 ? neg : x;
  case OP_RELU: return below0 ? 0 : x;
  case OP_SIGN: return x == 0 ? 0 : below0 ? -1 : 1;
  case OP_LOGICAL_NOT: return !x;
  case OP_CLIP: {
    int64_t t = op_int_less(dt, x, lo) ? lo : x;
    return op_int_less(dt, hi, t) ? hi : t;
  }
  default: return x; /* copy */
  }
}

void k_unary(OpId op, Tensor *const *args, int nargs, const Attrs *at, Tensor *const *outs,
             int nouts, Arena *scratch) {
  const Tensor *x = args[0];
  Tensor *r = outs[0];
  double lo = ir_attr_float(at, "a_min", -INFINITY), hi = ir_attr_float(at, "a_max", INFINITY);
  if (ir_dtype_is_float(x->dtype)) {
    lo = op_round(x->dtype, lo), hi = op_round(x->dtype, hi);
    for (int64_t i = 0; i < x->numel; i++)
      ir_tensor_set_f64(r, i, un_float(op, x->dtype, ir_tensor_get_f64(x, i), lo, hi));
  } else {
    int64_t ilo = ir_sat_f64_to_int(lo, x->dtype), ihi = ir_sat_f64_to_int(hi, x->dtype);
    for (int64_t i = 0; i < x->numel; i++)
      ir_tensor_set_i64(r, i, un_int(op, x->dtype, ir_tensor_get_i64(x, i), ilo, ihi));
  }
}

/* ------------------------------------------------------------------ cast */

RelStatus rel_cast(OpId op, Type *const *args, int nargs, const Attrs *at, Arena *a, Type **out,
                   char *err, size_t errlen) {
  RelStatus s = op_check_attrs(op, at, err, errlen);
  const char *name = ir_attr_str(at, "dtype", NULL);
  DType dt = DT_BOOL;
  if (s == REL_OK && name && !ir_dtype_parse(name, strlen(name), &dt))
    return op_fail(err, errlen, "unknown dtype '%s'", name);
  if (s == REL_OK)
    s = op_want_tensors(args, nargs, 1, err, errlen);
  if (s != REL_OK)
    return s;
  *out = retype(a, args[0], name ? dt : args[0]->tensor.dtype);
  return REL_OK;
}

bool rec_cast(OpId op, const Type *want, const OpLimits *lim) {
  return op_fits(want, lim);
}

/* sig for cast from dtype `from` to the tensor type `to`. */
static bool cast_sig(OpId op, OpSolveCtx *cx, OpSig *sig, const Type *to, DType from) {
  sig->nargs = 1;
  sig->args[0] = retype(cx->arena, to, from);
  sig->attrs = (Attrs){0};
  ir_attr_set_str(cx->arena, &sig->attrs, "dtype", ir_dtype_name(to->tensor.dtype));
  return op_sig_claim(cx, sig, to);
}

bool solve_cast(OpId op, const Type *want, OpSolveCtx *cx, OpSig *sig) {
  if (!rec_cast(op, want, cx->lim))
    return false;
  /* Choice 0 is the identity cast; then the allowed dtypes in order. */
  DType to = want->tensor.dtype, from = to;
  uint32_t others = cx->lim->dtypes & OP_ALL & ~(1u << to);
  uint32_t k = op_choose(cx->ch, 1 + (uint32_t)__builtin_popcount(others));
  for (int dt = 0; k && dt < DT_COUNT; dt++)
    if ((others & (1u << dt)) && --k == 0)
      from = (DType)dt;
  return cast_sig(op, cx, sig, want, from);
}

bool sample_cast(OpId op, OpSolveCtx *cx, OpSig *sig) {
  if (!(cx->lim->dtypes & OP_ALL))
    return false;
  Type *x = op_draw_tensor(cx, 0, cx->lim->max_rank, OP_ALL);
  Type *to = retype(cx->arena, x, op_draw_dtype(cx, OP_ALL));
  return cast_sig(op, cx, sig, to, x->tensor.dtype);
}

#ifdef RS_TEST_PASSES
bool op_test_fault_cast_trunc;

/* float32 to float16 rounded toward zero (the deliberate bug): the value
 * rounded to nearest even, then one step back toward zero when that went
 * away from it. */
static uint16_t trunc_f16(float f) {
  uint16_t b = ir_half_from_f64(DT_FLOAT16, f);
  double r = ir_half_to_f64(DT_FLOAT16, b);
  if (isnan(f) || isinf(f) || fabs(r) <= fabs((double)f))
    return b;
  return (uint16_t)(b - 1); /* the next pattern toward zero (inf -> 65504) */
}
#endif

void k_cast(OpId op, Tensor *const *args, int nargs, const Attrs *at, Tensor *const *outs,
            int nouts, Arena *scratch) {
  const Tensor *x = args[0];
  Tensor *r = outs[0];
  /* The stores implement the conversions: floats saturate into ints
   * (NaN -> 0), ints wrap, into a float the nearest (ties to even), bool
   * is x != 0. */
#ifdef RS_TEST_PASSES
  if (op_test_fault_cast_trunc && x->dtype == DT_FLOAT32 && r->dtype == DT_FLOAT16) {
    for (int64_t i = 0; i < x->numel; i++) /* the deliberate bug: toward zero */
      ((uint16_t *)r->data)[i] = trunc_f16(((const float *)x->data)[i]);
    return;
  }
#endif
  for (int64_t i = 0; i < x->numel; i++)
    ir_tensor_convert(x, i, r, i);
}
