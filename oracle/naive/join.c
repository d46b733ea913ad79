/*
 * join.c - naive kernels of concatenate, stack and split
 * (docs/operators.md, "join"), by coordinates: which input a result
 * coordinate comes from, and where in it.
 */
#include "naive.h"

/* concatenate((A0, A1, ...), axis): along axis, A0's elements, then
 * A1's, ... */
void nv_concatenate(OpId op, Tensor *const *args, int nargs, const Attrs *at, Tensor *const *outs,
                    int nouts) {
  Tensor *r = outs[0];
  int axis = nv_axis(nv_int(at, "axis", 0), r->rank);
  int64_t c[IR_MAX_RANK];
  for (int64_t i = 0; i < r->numel; i++) {
    nv_coord(r->rank, r->shape, i, c);
    int k = 0;
    while (c[axis] >= args[k]->shape[axis])
      c[axis] -= args[k++]->shape[axis];
    nv_put(r, i, args[k], nv_index(args[k]->rank, args[k]->shape, c));
  }
}

/* stack((A0, A1, ...), axis): R's coordinate at the new axis (in
 * [-(rank+1), rank]) picks the input, the others index it. */
void nv_stack(OpId op, Tensor *const *args, int nargs, const Attrs *at, Tensor *const *outs,
              int nouts) {
  Tensor *r = outs[0];
  int axis = nv_axis(nv_int(at, "axis", 0), r->rank);
  int64_t c[IR_MAX_RANK], cx[IR_MAX_RANK];
  for (int64_t i = 0; i < r->numel; i++) {
    nv_coord(r->rank, r->shape, i, c);
    for (int d = 0, k = 0; d < r->rank; d++)
      if (d != axis)
        cx[k++] = c[d];
    const Tensor *x = args[c[axis]];
    nv_put(r, i, x, nv_index(x->rank, x->shape, cx));
  }
}

/* split(A, indices_or_sections, axis): piece k along axis starts at the
 * (k-1)-th index (0 for the first), or at k * (dim / sections). */
void nv_split(OpId op, Tensor *const *args, int nargs, const Attrs *at, Tensor *const *outs,
              int nouts) {
  const Tensor *x = args[0];
  int axis = nv_axis(nv_int(at, "axis", 0), x->rank);
  int n;
  const int64_t *idx = nv_ints(at, "indices_or_sections", &n);
  int64_t sections = idx ? 0 : nv_int(at, "indices_or_sections", 1);
  int64_t c[IR_MAX_RANK];
  for (int k = 0; k < nouts; k++) {
    int64_t start = idx ? (k == 0 ? 0 : idx[k - 1]) : k * (x->shape[axis] / sections);
    Tensor *r = outs[k];
    for (int64_t i = 0; i < r->numel; i++) {
      nv_coord(r->rank, r->shape, i, c);
      c[axis] += start;
      nv_put(r, i, x, nv_index(x->rank, x->shape, c));
    }
  }
}
