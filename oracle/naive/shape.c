/*
 * shape.c - naive kernels of the shape operators (docs/operators.md,
 * "shape"): reshape, expand_dims and squeeze keep the elements in
 * row-major order; transpose permutes coordinates; broadcast_to repeats
 * dims of 1.
 */
#include "naive.h"

/* reshape, expand_dims, squeeze: R's i-th element in row-major order is
 * A's i-th. */
void nv_row_major(OpId op, Tensor *const *args, int nargs, const Attrs *at, Tensor *const *outs,
                  int nouts) {
  for (int64_t i = 0; i < outs[0]->numel; i++)
    nv_put(outs[0], i, args[0], i);
}

/* transpose(A, axes): R[c] = A[c'] with c'[axes[d]] = c[d]; axes None
 * reverses the dims. */
void nv_transpose(OpId op, Tensor *const *args, int nargs, const Attrs *at, Tensor *const *outs,
                  int nouts) {
  const Tensor *x = args[0];
  Tensor *r = outs[0];
  int n, perm[IR_MAX_RANK];
  const int64_t *axes = nv_ints(at, "axes", &n);
  for (int d = 0; d < x->rank; d++)
    perm[d] = axes ? nv_axis(axes[d], x->rank) : x->rank - 1 - d;
  int64_t c[IR_MAX_RANK], cx[IR_MAX_RANK];
  for (int64_t i = 0; i < r->numel; i++) {
    nv_coord(r->rank, r->shape, i, c);
    for (int d = 0; d < r->rank; d++)
      cx[perm[d]] = c[d];
    nv_put(r, i, x, nv_index(x->rank, x->shape, cx));
  }
}

/* broadcast_to(A, shape): numpy broadcasting of A to the result. */
void nv_broadcast_to(OpId op, Tensor *const *args, int nargs, const Attrs *at, Tensor *const *outs,
                     int nouts) {
  Tensor *r = outs[0];
  int64_t c[IR_MAX_RANK];
  for (int64_t i = 0; i < r->numel; i++) {
    nv_coord(r->rank, r->shape, i, c);
    nv_put(r, i, args[0], nv_broadcast(args[0], r->rank, c));
  }
}
