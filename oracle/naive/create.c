/*
 * create.c - naive kernels of zeros, ones, full, zeros_like and ones_like
 * (docs/operators.md, "create"): one value everywhere, converted to the
 * result's dtype.
 */
#include "naive.h"

/* zeros, ones, zeros_like, ones_like. */
void nv_fill(OpId op, Tensor *const *args, int nargs, const Attrs *at, Tensor *const *outs,
             int nouts) {
  int64_t v = op == OP_ONES || op == OP_ONES_LIKE;
  for (int64_t i = 0; i < outs[0]->numel; i++)
    nv_put_i(outs[0], i, v);
}

/* full(F): the scalar F converted to the result's dtype, as cast does. */
void nv_full(OpId op, Tensor *const *args, int nargs, const Attrs *at, Tensor *const *outs,
             int nouts) {
  for (int64_t i = 0; i < outs[0]->numel; i++)
    nv_put(outs[0], i, args[0], 0);
}
