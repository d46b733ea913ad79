/*
 * emit_elemwise.c - elementwise operations: numpy broadcasting over TOSA's
 * equal-rank operations, relayc's cast, and the operators of the unary
 * and broadcast families (compiler/ops's unary.c and broadcast.c).
 */
#include <assert.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "translate_int.h"

/* -------------------------------------------------- elementwise helpers */

/* The numpy broadcast of the shapes of x and y. */
static int mty_broadcast(const Val *x, const Val *y, int64_t *shape) {
  int rx = mty_rank(x), ry = mty_rank(y), r = rx > ry ? rx : ry;
  for (int i = 0; i < r; i++) {
    int64_t dx = i < r - rx ? 1 : mty_shape(x)[i - (r - rx)];
    int64_t dy = i < r - ry ? 1 : mty_shape(y)[i - (r - ry)];
    shape[i] = dx == 1 ? dy : dx;
  }
  return r;
}

/* A broadcasting TOSA binary operation with result dtype dt. */
static Val *emit_binary(Fn *f, const char *op, Val *x, Val *y, DType dt) {
  int64_t shape[IR_MAX_RANK];
  int r = mty_broadcast(x, y, shape);
  return emit_tosa2(f, op, emit_align(f, x, r), emit_align(f, y, r), mty_tensor(f, dt, r, shape));
}

/* Same dtype as the operands. */
Val *emit_bin(Fn *f, const char *op, Val *x, Val *y) {
  return emit_binary(f, op, x, y, mty_dtype(x));
}

/* A comparison: bool result. */
Val *emit_cmp(Fn *f, const char *op, Val *x, Val *y) {
  return emit_binary(f, op, x, y, DT_BOOL);
}

/* x * y (tosa.mul takes a shift operand, 0 for anything but int8/16). */
Val *emit_mul(Fn *f, Val *x, Val *y) {
  int64_t shape[IR_MAX_RANK];
  int r = mty_broadcast(x, y, shape);
  return emit_tosa3(f, "mul", emit_align(f, x, r), emit_align(f, y, r),
                    emit_splat(f, DT_INT8, 1, 0), mty_tensor(f, mty_dtype(x), r, shape));
}

/* c ? x : y, broadcasting all three. */
Val *emit_select(Fn *f, Val *c, Val *x, Val *y) {
  int64_t s1[IR_MAX_RANK], s2[IR_MAX_RANK];
  int r1 = mty_broadcast(x, y, s1);
  Val tmp = {.n = -1, .type = mty_tensor(f, mty_dtype(x), r1, s1)};
  int r = mty_broadcast(c, &tmp, s2);
  return emit_tosa3(f, "select", emit_align(f, c, r), emit_align(f, x, r), emit_align(f, y, r),
                    mty_tensor(f, mty_dtype(x), r, s2));
}

/* The logical not of bool x. */
Val *emit_not(Fn *f, Val *x) {
  return emit_tosa1(f, "logical_not", x, x->type);
}

/* The scalar v of x's dtype, aligned to x's rank. */
Val *emit_scalar_like(Fn *f, const Val *x, double v) {
  return emit_splat(f, mty_dtype(x), mty_rank(x), v);
}

/* x != x: true at NaNs. */
Val *emit_is_nan(Fn *f, Val *x) {
  return emit_not(f, emit_cmp(f, "equal", x, x));
}

/* ------------------------------------------------------------------ cast */

/* x converted to dtype `to` with relayc's cast semantics: float -> int
 * truncates, saturates and sends NaN to 0 (tosa.cast rounds half to even
 * and sends NaN to INT_MAX); anything -> bool is x != 0; bool -> number is
 * 0 or 1 (TOSA has no cast between bool and float). */
Val *emit_cast(Fn *f, Val *x, DType to) {
  DType from = mty_dtype(x);
  const Type *rt = mty_retype(f, x->type, to);
  if (from == to)
    return x;
  if (to == DT_BOOL && ir_dtype_is_float(from))
    return emit_not(f, emit_cmp(f, "equal", x, emit_scalar_like(f, x, 0)));
  if (from == DT_BOOL && ir_dtype_is_float(to))
    return emit_select(f, x, emit_splat(f, to, mty_rank(x), 1), emit_splat(f, to, mty_rank(x), 0));
  if (ir_dtype_is_float(from) && !ir_dtype_is_float(to)) {
    Val *neg = emit_cmp(f, "greater", emit_scalar_like(f, x, 0), x);
    Val *t =
        emit_select(f, neg, emit_tosa1(f, "ceil", x, x->type), emit_tosa1(f, "floor", x, x->type));
    Val *c = emit_tosa1(f, "cast", t, rt);
    return emit_select(f, emit_is_nan(f, x), emit_splat(f, to, mty_rank(x), 0), c);
  }
  return emit_tosa1(f, "cast", x, rt);
}

/* --------------------------------------------------------------- unary */

/* min(max(x, lo), hi) for integers (tosa.clamp takes 8- and 16-bit
 * integers only). */
Val *emit_clamp_int(Fn *f, Val *x, int64_t lo, int64_t hi) {
  Val *t = emit_bin(f, "maximum", x, emit_scalar_like(f, x, (double)lo));
  return emit_bin(f, "minimum", t, emit_scalar_like(f, t, (double)hi));
}

/* clip(x, lo, hi) = min(max(x, lo), hi) the way relayc computes it: the
 * bounds converted to x's dtype first, then (x < lo ? lo : x), then
 * (t > hi ? hi : t).  tosa.clamp agrees when lo <= hi, except that it
 * turns -0 into +0 at a zero bound (it lowers to maximumf/minimumf): those
 * cases use selects. */
static Val *emit_clip(Fn *f, Val *x, const Attrs *at) {
  double lo = ir_attr_float(at, "a_min", -INFINITY), hi = ir_attr_float(at, "a_max", INFINITY);
  DType dt = mty_dtype(x);
  char attrs[96];
  Buf b = {0};
  if (ir_dtype_is_float(dt)) {
    lo = (float)lo, hi = (float)hi;
    if (!(lo <= hi) || lo == 0 || hi == 0) {
      Val *t = emit_select(f, emit_cmp(f, "greater", emit_scalar_like(f, x, lo), x),
                           emit_scalar_like(f, x, lo), x);
      return emit_select(f, emit_cmp(f, "greater", t, emit_scalar_like(f, t, hi)),
                         emit_scalar_like(f, t, hi), t);
    }
    buf_put(&b, "min_val = ");
    buf_elem(&b, dt, lo, 0);
    buf_put(&b, " : %s, max_val = ", mty_elem(dt));
    buf_elem(&b, dt, hi, 0);
    buf_put(&b, " : %s", mty_elem(dt));
  } else {
    /* TOSA clamps 8- and 16-bit integers only. */
    int64_t ilo = ir_sat_f64_to_int(lo, dt), ihi = ir_sat_f64_to_int(hi, dt);
    if (ilo > ihi) /* x < lo ? lo : x is >= lo > hi: hi everywhere */
      return emit_fill(f, x->type, (double)ihi);
    return emit_clamp_int(f, x, ilo, ihi);
  }
  snprintf(attrs, sizeof attrs, "%s", b.s);
  free(b.s);
  return emit_tosa(f, "clamp", attrs, x->type, 1, &x);
}

/* -1, 0 or 1 by the sign of x; zeros (of either sign) and NaN stay. */
static Val *emit_sign(Fn *f, Val *x) {
  Val *zero = emit_scalar_like(f, x, 0);
  Val *r = emit_select(f, emit_cmp(f, "greater", zero, x), emit_scalar_like(f, x, -1), x);
  return emit_select(f, emit_cmp(f, "greater", x, zero), emit_scalar_like(f, x, 1), r);
}

Val *emit_unary(Fn *f, OpId op, Val *x, const Attrs *at, const Type *rt) {
  bool fl = ir_dtype_is_float(mty_dtype(x));
  switch (op) {
  case OP_NEGATIVE:
    if (fl) {
      Val *zp = emit_zero_point(f, mty_dtype(x));
      return emit_tosa3(f, "negate", x, zp, zp, x->type);
    }
    /* tosa.negate saturates INT_MIN to INT_MAX; relayc wraps: 0 - x. */
    return emit_bin(f, "sub", emit_scalar_like(f, x, 0), x);
  case OP_ABS: return emit_tosa1(f, "abs", x, x->type); /* INT_MIN stays INT_MIN, as in relayc */
  case OP_EXP: return emit_tosa1(f, "exp", x, x->type);
  case OP_LOG: return emit_tosa1(f, "log", x, x->type);
  case OP_RSQRT: return emit_tosa1(f, "rsqrt", x, x->type);
  case OP_SIGMOID: return emit_tosa1(f, "sigmoid", x, x->type);
  case OP_TANH: return emit_tosa1(f, "tanh", x, x->type);
  case OP_FLOOR: return emit_tosa1(f, "floor", x, x->type);
  case OP_CEIL: return emit_tosa1(f, "ceil", x, x->type);
  /* TOSA has no square root (pow(x, 0.5) is wrong at -0 and -inf) and no
   * rounding half to even. */
  case OP_SQRT: return emit_arith(f, "math.sqrt", 1, &x);
  case OP_ROUND: return emit_arith(f, "math.roundeven", 1, &x);
  case OP_RELU:
    /* max(x, 0): NaN stays, -0 becomes +0 (maximum's order). */
    return emit_bin(f, "maximum", x, emit_scalar_like(f, x, 0));
  case OP_SIGN: return emit_sign(f, x);
  case OP_LOGICAL_NOT: return emit_not(f, x);
  case OP_COPY: return emit_tosa1(f, "identity", x, x->type);
  case OP_CLIP: return emit_clip(f, x, at);
  case OP_CAST: return emit_cast(f, x, rt->tensor.dtype);
  default: assert(!"not unary"); return x;
  }
}

/* ----------------------------------------------------------- broadcast */

/* Integer x / y as relayc defines it: truncating, x / 0 = 0 and
 * x / -1 = -x wrapping (tosa.intdiv is undefined for both, so the divisor
 * is made safe first and the two cases selected afterwards). */
static Val *emit_int_divide(Fn *f, Val *x, Val *y) {
  Val *zero = emit_scalar_like(f, y, 0), *m1 = emit_scalar_like(f, y, -1);
  Val *is0 = emit_cmp(f, "equal", y, zero), *ism1 = emit_cmp(f, "equal", y, m1);
  Val *safe = emit_select(f, emit_bin(f, "logical_or", is0, ism1), emit_scalar_like(f, y, 1), y);
  Val *q = emit_bin(f, "intdiv", x, safe);
  q = emit_select(f, ism1, emit_bin(f, "sub", emit_scalar_like(f, x, 0), x), q);
  return emit_select(f, is0, zero, q);
}

Val *emit_broadcast(Fn *f, OpId op, Val *x, Val *y, const Type *rt) {
  DType dt = mty_dtype(x);
  bool fl = ir_dtype_is_float(dt);
  if (dt == DT_BOOL && rt->tensor.dtype == DT_BOOL && op != OP_LOGICAL_AND && op != OP_LOGICAL_OR) {
    /* A comparison of bools: TOSA compares numbers only. */
    x = emit_cast(f, x, DT_INT32);
    y = emit_cast(f, y, DT_INT32);
  }
  switch (op) {
  case OP_ADD: return emit_bin(f, "add", x, y);
  case OP_SUBTRACT: return emit_bin(f, "sub", x, y);
  case OP_MULTIPLY: return emit_mul(f, x, y);
  case OP_DIVIDE:
    if (fl) {
      /* TOSA has no float division (reciprocal * x is not exact). */
      Val *a[2] = {emit_expand(f, x, rt->tensor.rank, rt->tensor.shape),
                   emit_expand(f, y, rt->tensor.rank, rt->tensor.shape)};
      return emit_arith(f, "arith.divf", 2, a);
    }
    return emit_int_divide(f, x, y);
  case OP_POWER: return emit_bin(f, "pow", x, y);
  case OP_MAXIMUM: return emit_bin(f, "maximum", x, y); /* NaN wins, -0 < +0 */
  case OP_MINIMUM: return emit_bin(f, "minimum", x, y);
  case OP_EQUAL: return emit_cmp(f, "equal", x, y);
  case OP_NOT_EQUAL: return emit_not(f, emit_cmp(f, "equal", x, y));
  case OP_GREATER: return emit_cmp(f, "greater", x, y);
  case OP_GREATER_EQUAL: return emit_cmp(f, "greater_equal", x, y);
  case OP_LESS: return emit_cmp(f, "greater", y, x);
  case OP_LESS_EQUAL: return emit_cmp(f, "greater_equal", y, x);
  case OP_LOGICAL_AND: return emit_bin(f, "logical_and", x, y);
  case OP_LOGICAL_OR: return emit_bin(f, "logical_or", x, y);
  default: assert(!"not broadcast"); return x;
  }
}
