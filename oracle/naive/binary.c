/*
 * binary.c - naive integer and bitwise broadcasting binary kernels
 * (docs/operators.md, "binary"): mod, floor_mod, floor_divide,
 * logical_xor, bitwise and/or/xor and the shifts, each result coordinate
 * reading each operand as numpy broadcasting does.  Written from the
 * definitions: integer quotients from the truncated one, shifts as
 * repeated doubling and floored halving.
 */
#include <math.h>

#include "naive.h"

/* floor(a / b) for b other than 0 and -1 (no overflow). */
static int64_t floor_quot(int64_t a, int64_t b) {
  int64_t q = a / b;
  if ((uint64_t)q * (uint64_t)b != (uint64_t)a && ((a < 0) != (b < 0)))
    q -= 1;
  return q;
}

/* The shift count b taken modulo the dtype's bit width. */
static int count_mod(int64_t b, DType dt) {
  int64_t bits = 8 * (int64_t)ir_dtype_size(dt);
  return (int)(((b % bits) + bits) % bits);
}

/* a op b for integers and bools (the store wraps into the dtype). */
static int64_t binary_i(OpId op, DType dt, int64_t a, int64_t b) {
  switch (op) {
  case OP_MOD: /* the remainder of the truncated quotient; x mod 0 = 0 */
    if (b == 0 || b == -1)
      return 0;
    return a - (a / b) * b;
  case OP_FLOOR_MOD: /* a - floor(a / b) * b; x floor_mod 0 = 0 */
    if (b == 0 || b == -1)
      return 0;
    return (int64_t)((uint64_t)a - (uint64_t)floor_quot(a, b) * (uint64_t)b);
  case OP_FLOOR_DIVIDE:
    if (b == 0)
      return 0;
    if (b == -1) /* -a, wrapping: MIN stays MIN */
      return (int64_t)(~(uint64_t)a + 1);
    return floor_quot(a, b);
  case OP_LOGICAL_XOR: return (a != 0) ^ (b != 0);
  case OP_BITWISE_AND: return (int64_t)((uint64_t)a & (uint64_t)b);
  case OP_BITWISE_OR: return (int64_t)((uint64_t)a | (uint64_t)b);
  case OP_BITWISE_XOR: return (int64_t)((uint64_t)a ^ (uint64_t)b);
  case OP_LEFT_SHIFT: {
    uint64_t v = (uint64_t)a;
    for (int k = count_mod(b, dt); k > 0; k--)
      v *= 2;
    return (int64_t)v;
  }
  case OP_RIGHT_SHIFT: /* floor(a / 2^count): arithmetic */
    for (int k = count_mod(b, dt); k > 0; k--)
      a = (a - (a & 1)) / 2;
    return a;
  default: return 0;
  }
}

/* a op b for floats of dtype dt, each step rounded to dt. */
static double binary_f(OpId op, DType dt, double a, double b) {
  switch (op) {
  case OP_MOD: return fmod(a, b); /* exact; NaN for b = 0 */
  case OP_FLOOR_DIVIDE: return floor(nv_step(dt, nv_div(a, b)));
  case OP_FLOOR_MOD: {
    double q = floor(nv_step(dt, nv_div(a, b)));
    return a - nv_step(dt, q * b);
  }
  default: return NAN;
  }
}

void nv_binary2(OpId op, Tensor *const *args, int nargs, const Attrs *at, Tensor *const *outs,
                int nouts) {
  const Tensor *a = args[0], *b = args[1];
  Tensor *r = outs[0];
  int64_t c[IR_MAX_RANK];
  for (int64_t i = 0; i < r->numel; i++) {
    nv_coord(r->rank, r->shape, i, c);
    int64_t ia = nv_broadcast(a, r->rank, c), ib = nv_broadcast(b, r->rank, c);
    if (ir_dtype_is_float(a->dtype))
      nv_put_f(r, i, binary_f(op, a->dtype, nv_f(a, ia), nv_f(b, ib)));
    else
      nv_put_i(r, i, binary_i(op, a->dtype, nv_i(a, ia), nv_i(b, ib)));
  }
}
