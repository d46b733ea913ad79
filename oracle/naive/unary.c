/*
 * unary.c - naive unary kernels and cast (docs/operators.md, "unary"):
 * R[i] = f(A[i]), floats computed in double and rounded once (rsqrt and
 * sigmoid: each step rounded to the dtype), integers in 64 bits and
 * wrapped into the dtype.
 */
#include <math.h>

#include "naive.h"

/* f(x) for a float x of dtype dt; lo and hi are clip's bounds. */
static double unary_f(OpId op, DType dt, double x, double lo, double hi) {
  switch (op) {
  case OP_NEGATIVE: return -x;
  case OP_ABS: return fabs(x);
  case OP_EXP: return exp(x);
  case OP_LOG: return log(x);
  case OP_SQRT: return sqrt(x);
  case OP_RSQRT: return nv_div(1, nv_step(dt, sqrt(x))); /* 1 / sqrt x */
  case OP_SIGMOID: {                                     /* 1 / (e^-x + 1) */
    double e = nv_step(dt, exp(-x));
    return nv_div(1, nv_step(dt, e + 1));
  }
  case OP_TANH: return tanh(x);
  case OP_RELU: return nv_max(x, 0); /* NaN stays, -0 becomes +0 */
  case OP_FLOOR: return floor(x);
  case OP_CEIL: return ceil(x);
  case OP_ROUND: return nearbyint(x);              /* the default mode: half to even */
  case OP_SIGN: return x > 0 ? 1 : x < 0 ? -1 : x; /* keeps +-0 and NaN */
  case OP_CLIP: { /* as docs/operators.md defines it: -0 stays at a zero bound */
    double t = x < lo ? lo : x;
    return t > hi ? hi : t;
  }
  default: return x; /* copy */
  }
}

/* f(x) for an integer or bool x of dtype dt (wrapped by the store); an
 * unsigned x is never below zero: abs and relu keep it, sign is 0 or 1. */
static int64_t unary_i(OpId op, DType dt, int64_t x, int64_t lo, int64_t hi) {
  uint64_t neg = 0 - (uint64_t)x;
  bool minus = nv_lt(dt, x, 0);
  switch (op) {
  case OP_NEGATIVE: return (int64_t)neg;
  case OP_ABS: return minus ? (int64_t)neg : x;
  case OP_RELU: return minus ? 0 : x;
  case OP_SIGN: return minus ? -1 : x != 0;
  case OP_LOGICAL_NOT: return !x;
  case OP_CLIP: {
    int64_t t = nv_lt(dt, lo, x) ? x : lo; /* min(max(x, lo), hi) */
    return nv_lt(dt, t, hi) ? t : hi;
  }
  default: return x; /* copy */
  }
}

/* clip's bound name (default v) converted to x's dtype first. */
static Tensor *clip_bound(const Attrs *at, const char *name, double v, Tensor *b) {
  nv_put_f(b, 0, nv_float(at, name, v));
  return b;
}

void nv_unary(OpId op, Tensor *const *args, int nargs, const Attrs *at, Tensor *const *outs,
              int nouts) {
  const Tensor *x = args[0];
  char buf[2][8];
  Tensor lo = {.dtype = x->dtype, .numel = 1, .data = buf[0]};
  Tensor hi = {.dtype = x->dtype, .numel = 1, .data = buf[1]};
  clip_bound(at, "a_min", -INFINITY, &lo);
  clip_bound(at, "a_max", INFINITY, &hi);
  bool fl = nv_is_float(x->dtype);
  for (int64_t i = 0; i < x->numel; i++) {
    if (fl)
      nv_put_f(outs[0], i, unary_f(op, x->dtype, nv_f(x, i), nv_f(&lo, 0), nv_f(&hi, 0)));
    else
      nv_put_i(outs[0], i, unary_i(op, x->dtype, nv_i(x, i), nv_i(&lo, 0), nv_i(&hi, 0)));
  }
}

/* cast: each element converted to the result's dtype. */
void nv_cast(OpId op, Tensor *const *args, int nargs, const Attrs *at, Tensor *const *outs,
             int nouts) {
  for (int64_t i = 0; i < args[0]->numel; i++)
    nv_put(outs[0], i, args[0], i);
}
