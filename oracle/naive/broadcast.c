/*
 * broadcast.c - naive broadcasting binary kernels and where
 * (docs/operators.md, "broadcast"): each result coordinate reads each
 * operand at the same coordinate, aligned from the last dim, a dim of 1
 * repeating.
 */
#include <math.h>

#include "naive.h"

/* a op b for floats; comparisons give 0 or 1. */
static double binary_f(OpId op, double a, double b) {
  switch (op) {
  case OP_ADD: return a + b;
  case OP_SUBTRACT: return a - b;
  case OP_MULTIPLY: return a * b;
  case OP_DIVIDE: return nv_div(a, b);
  case OP_POWER: return pow(a, b);
  case OP_MAXIMUM: return nv_max(a, b);
  case OP_MINIMUM: return nv_min(a, b);
  case OP_EQUAL: return a == b;
  case OP_NOT_EQUAL: return a != b;
  case OP_LESS: return a < b;
  case OP_LESS_EQUAL: return a <= b;
  case OP_GREATER: return a > b;
  case OP_GREATER_EQUAL: return a >= b;
  default: return NAN;
  }
}

/* a op b for integers and bools of dtype dt, in 64 bits (wrapped by the
 * store): division truncates, x / 0 = 0, MIN / -1 = MIN; unsigned
 * dtypes divide and compare as unsigned. */
static int64_t binary_i(OpId op, DType dt, int64_t a, int64_t b) {
  uint64_t ua = (uint64_t)a, ub = (uint64_t)b;
  switch (op) {
  case OP_ADD: return (int64_t)(ua + ub);
  case OP_SUBTRACT: return (int64_t)(ua - ub);
  case OP_MULTIPLY: return (int64_t)(ua * ub);
  case OP_DIVIDE:
    if (b == 0)
      return 0;
    if (nv_is_unsigned(dt))
      return (int64_t)(ua / ub);
    if (b == -1)
      return (int64_t)(0 - ua); /* MIN / -1 wraps to MIN in every dtype */
    return a / b;
  case OP_MAXIMUM: return nv_lt(dt, b, a) ? a : b;
  case OP_MINIMUM: return nv_lt(dt, a, b) ? a : b;
  case OP_EQUAL: return a == b;
  case OP_NOT_EQUAL: return a != b;
  case OP_LESS: return nv_lt(dt, a, b);
  case OP_LESS_EQUAL: return a == b || nv_lt(dt, a, b);
  case OP_GREATER: return nv_lt(dt, b, a);
  case OP_GREATER_EQUAL: return a == b || nv_lt(dt, b, a);
  case OP_LOGICAL_AND: return a && b;
  case OP_LOGICAL_OR: return a || b;
  default: return 0;
  }
}

void nv_binary(OpId op, Tensor *const *args, int nargs, const Attrs *at, Tensor *const *outs,
               int nouts) {
  const Tensor *a = args[0], *b = args[1];
  Tensor *r = outs[0];
  int64_t c[IR_MAX_RANK];
  for (int64_t i = 0; i < r->numel; i++) {
    nv_coord(r->rank, r->shape, i, c);
    int64_t ia = nv_broadcast(a, r->rank, c), ib = nv_broadcast(b, r->rank, c);
    if (nv_is_float(a->dtype))
      nv_put_f(r, i, binary_f(op, nv_f(a, ia), nv_f(b, ib)));
    else
      nv_put_i(r, i, binary_i(op, a->dtype, nv_i(a, ia), nv_i(b, ib)));
  }
}

/* where(C, A, B): A's element where C is true, else B's. */
void nv_where(OpId op, Tensor *const *args, int nargs, const Attrs *at, Tensor *const *outs,
              int nouts) {
  Tensor *r = outs[0];
  int64_t c[IR_MAX_RANK];
  for (int64_t i = 0; i < r->numel; i++) {
    nv_coord(r->rank, r->shape, i, c);
    const Tensor *src = nv_i(args[0], nv_broadcast(args[0], r->rank, c)) ? args[1] : args[2];
    nv_put(r, i, src, nv_broadcast(src, r->rank, c));
  }
}
