/*
 * math.c - naive unary float functions, predicates and bitwise_not
 * (docs/operators.md, "math"): R[i] = f(A[i]), one C library call in
 * double rounded once by the store; the predicates and trunc written from
 * their definitions (NaN is unequal to itself, the infinities are the
 * values beyond the largest finite one, trunc rounds toward zero).
 */
#include <float.h>
#include <math.h>

#include "naive.h"

/* f(x) for a float x; predicates give 0 or 1. */
static double math_f(OpId op, double x) {
  switch (op) {
  case OP_TRUNC: return x < 0 ? ceil(x) : floor(x);
  case OP_ERF: return erf(x);
  case OP_SIN: return sin(x);
  case OP_COS: return cos(x);
  case OP_TAN: return tan(x);
  case OP_ASIN: return asin(x);
  case OP_ACOS: return acos(x);
  case OP_ATAN: return atan(x);
  case OP_SINH: return sinh(x);
  case OP_COSH: return cosh(x);
  case OP_ASINH: return asinh(x);
  case OP_ACOSH: return acosh(x);
  case OP_ATANH: return atanh(x);
  case OP_LOG2: return log2(x);
  case OP_LOG10: return log10(x);
  case OP_ISNAN: return x != x;
  case OP_ISINF: return x > DBL_MAX || x < -DBL_MAX;
  case OP_ISFINITE: return x == x && x <= DBL_MAX && x >= -DBL_MAX;
  default: return NAN;
  }
}

void nv_math(OpId op, Tensor *const *args, int nargs, const Attrs *at, Tensor *const *outs,
             int nouts) {
  const Tensor *x = args[0];
  for (int64_t i = 0; i < x->numel; i++) {
    if (op == OP_BITWISE_NOT) /* bool: the 1-bit complement, !x */
      nv_put_i(outs[0], i,
               x->dtype == DT_BOOL ? nv_i(x, i) == 0 : (int64_t)(~(uint64_t)nv_i(x, i)));
    else
      nv_put_f(outs[0], i, math_f(op, nv_f(x, i)));
  }
}
