/*
 * arange.c - naive arange (docs/operators.md, "arange"): the result's
 * length is the caller's (op_value_type), its elements start + step * i.
 */
#include "naive.h"

/* R[i] = start + step * i in R's dtype: an unsigned or signed integer
 * wraps modulo 2^64 (then to R's width, as nv_put_u stores); a float
 * rounds i, step * i and the sum to the dtype, one step each. */
void nv_arange(OpId op, Tensor *const *args, int nargs, const Attrs *at, Tensor *const *outs,
               int nouts) {
  Tensor *r = outs[0];
  if (nv_is_float(r->dtype)) {
    double start = nv_f(args[0], 0), step = nv_f(args[2], 0);
    for (int64_t i = 0; i < r->numel; i++) {
      double k = nv_step(r->dtype, (double)i), d = nv_step(r->dtype, step * k);
      nv_put_f(r, i, nv_step(r->dtype, start + d));
    }
    return;
  }
  uint64_t start = nv_is_unsigned(r->dtype) ? nv_u(args[0], 0) : (uint64_t)nv_i(args[0], 0);
  uint64_t step = nv_is_unsigned(r->dtype) ? nv_u(args[2], 0) : (uint64_t)nv_i(args[2], 0);
  uint64_t v = start;
  for (int64_t i = 0; i < r->numel; i++, v += step)
    nv_put_u(r, i, v);
}
