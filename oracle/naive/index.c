/*
 * index.c - naive kernels of strided_slice, take, tile and reverse
 * (docs/operators.md, "index"): each result coordinate mapped to the
 * input coordinate it reads.
 */
#include <string.h>

#include "naive.h"

/* topi's CanonicalizeIndex: a negative index counts from the end, then
 * it is clamped to [0, dim] (stride > 0) or [-1, dim - 1] (stride < 0). */
static int64_t canon(int64_t i, int64_t dim, int64_t stride) {
  if (i < 0)
    i += dim;
  int64_t lo = stride < 0 ? -1 : 0, hi = stride < 0 ? dim - 1 : dim;
  return i < lo ? lo : i > hi ? hi : i;
}

/* strided_slice(A, begin, end, strides, axes, slice_mode): along each
 * sliced axis, the elements from begin on, stride apart, before end (in
 * slice_mode "size", end is begin + size, size -1 meaning to the end, and
 * the stride 1).  Without axes, entry k slices axis k and a missing entry
 * takes the whole axis in the stride's direction; with axes, entry k
 * slices axis axes[k].  R[c] = A[c'], c'[a] = first[a] + c[a] * stride[a]
 * (end only bounds R's shape, which the relation gave). */
void nv_strided_slice(OpId op, Tensor *const *args, int nargs, const Attrs *at, Tensor *const *outs,
                      int nouts) {
  const Tensor *x = args[0];
  Tensor *r = outs[0];
  int nb, ns, na;
  const int64_t *b = nv_ints(at, "begin", &nb), *s = nv_ints(at, "strides", &ns);
  const int64_t *axes = nv_ints(at, "axes", &na);
  bool size_mode = strcmp(nv_str(at, "slice_mode", "end"), "size") == 0;
  int64_t first[IR_MAX_RANK], step[IR_MAX_RANK];
  for (int a = 0; a < x->rank; a++)
    first[a] = 0, step[a] = 1;
  int n = axes ? na : x->rank;
  for (int k = 0; k < n; k++) {
    int a = axes ? nv_axis(axes[k], x->rank) : k;
    int64_t dim = x->shape[a];
    int64_t st = size_mode || !s || k >= ns ? 1 : s[k];
    int64_t bv = k < nb ? b[k] : st > 0 ? 0 : dim - 1;
    first[a] = canon(bv, dim, st);
    step[a] = st;
  }
  int64_t c[IR_MAX_RANK], cx[IR_MAX_RANK];
  for (int64_t i = 0; i < r->numel; i++) {
    nv_coord(r->rank, r->shape, i, c);
    for (int a = 0; a < x->rank; a++)
      cx[a] = first[a] + c[a] * step[a];
    nv_put(r, i, x, nv_index(x->rank, x->shape, cx));
  }
}

/* Index k of ix into an axis of n > 0 elements: wrapped ("wrap"), or
 * clipped to [0, n) ("clip", and "fast"); an unsigned index is its
 * unsigned value. */
static int64_t take_index(const Tensor *ix, int64_t k, int64_t n, bool wrap) {
  int64_t v = nv_i(ix, k);
  if (nv_is_unsigned(ix->dtype)) {
    uint64_t u = nv_u(ix, k);
    return wrap ? (int64_t)(u % (uint64_t)n) : u >= (uint64_t)n ? n - 1 : (int64_t)u;
  }
  if (wrap)
    return ((v % n) + n) % n;
  return v < 0 ? 0 : v >= n ? n - 1 : v;
}

/* take(A, indices, axis, batch_dims, mode): R[a..., i..., b...] =
 * A[a..., I[i...], b...] along axis, or A's flattened elements at I when
 * axis is None; zeros when the axis is empty.  With batch_dims B > 0 (a
 * negative one counted from I's rank) I's first B coordinates are R's
 * (and A's) first B: R[a..., i..., b...] = A[a..., I[a[:B]..., i...], b...]. */
void nv_take(OpId op, Tensor *const *args, int nargs, const Attrs *at, Tensor *const *outs,
             int nouts) {
  const Tensor *x = args[0], *ix = args[1];
  Tensor *r = outs[0];
  bool wrap = strcmp(nv_str(at, "mode", "clip"), "wrap") == 0;
  const Attr *ax = nv_attr(at, "axis");
  int axis = ax ? nv_axis(ax->i, x->rank) : -1;
  int64_t bd = nv_int(at, "batch_dims", 0);
  int b = ax ? (int)(bd < 0 ? bd + ix->rank : bd) : 0;
  int64_t c[2 * IR_MAX_RANK], cx[IR_MAX_RANK], ci[IR_MAX_RANK];
  for (int64_t o = 0; o < r->numel; o++) {
    nv_coord(r->rank, r->shape, o, c);
    if (axis < 0) {
      int64_t k = nv_index(ix->rank, ix->shape, c);
      if (x->numel == 0)
        nv_put_i(r, o, 0);
      else
        nv_put(r, o, x, take_index(ix, k, x->numel, wrap));
      continue;
    }
    /* c = A's leading coordinates, then I's after the batch, then A's
     * trailing ones */
    for (int d = 0; d < b; d++)
      ci[d] = c[d];
    for (int d = b; d < ix->rank; d++)
      ci[d] = c[axis + d - b];
    int64_t k = nv_index(ix->rank, ix->shape, ci);
    for (int d = 0; d < axis; d++)
      cx[d] = c[d];
    for (int d = axis + 1; d < x->rank; d++)
      cx[d] = c[d - 1 + ix->rank - b];
    if (x->shape[axis] == 0) {
      nv_put_i(r, o, 0);
      continue;
    }
    cx[axis] = take_index(ix, k, x->shape[axis], wrap);
    nv_put(r, o, x, nv_index(x->rank, x->shape, cx));
  }
}

/* tile(A, reps): R[c] = A[c mod A's shape], A's shape and reps aligned
 * at their last dims (the shorter padded with leading ones). */
void nv_tile(OpId op, Tensor *const *args, int nargs, const Attrs *at, Tensor *const *outs,
             int nouts) {
  const Tensor *x = args[0];
  Tensor *r = outs[0];
  int64_t c[IR_MAX_RANK], cx[IR_MAX_RANK];
  for (int64_t i = 0; i < r->numel; i++) {
    nv_coord(r->rank, r->shape, i, c);
    for (int d = 0; d < x->rank; d++)
      cx[d] = c[r->rank - x->rank + d] % x->shape[d];
    nv_put(r, i, x, nv_index(x->rank, x->shape, cx));
  }
}

/* reverse(A, axis): R[.., i, ..] = A[.., n - 1 - i, ..] along axis. */
void nv_reverse(OpId op, Tensor *const *args, int nargs, const Attrs *at, Tensor *const *outs,
                int nouts) {
  const Tensor *x = args[0];
  Tensor *r = outs[0];
  int axis = nv_axis(nv_int(at, "axis", 0), x->rank);
  int64_t c[IR_MAX_RANK];
  for (int64_t i = 0; i < r->numel; i++) {
    nv_coord(r->rank, r->shape, i, c);
    c[axis] = x->shape[axis] - 1 - c[axis];
    nv_put(r, i, x, nv_index(x->rank, x->shape, c));
  }
}
