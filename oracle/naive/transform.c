/*
 * transform.c - naive kernels of one_hot, repeat, nn.batch_flatten,
 * nn.depth_to_space, nn.space_to_depth, reshape_like, collapse_sum_like
 * and slice_like (docs/operators.md, "transform"): each result element
 * computed from its coordinate, by the definitions there.
 */
#include <string.h>

#include "naive.h"

/* Every element of the result is element i of the data, in order
 * (batch_flatten, reshape_like). */
void nv_flat_copy(OpId op, Tensor *const *args, int nargs, const Attrs *at, Tensor *const *outs,
                  int nouts) {
  for (int64_t i = 0; i < outs[0]->numel; i++)
    nv_put(outs[0], i, args[0], i);
}

/* one_hot(I, on, off; depth, axis): R[c] = I[c without the axis] ==
 * c[axis] ? on : off. */
void nv_one_hot(OpId op, Tensor *const *args, int nargs, const Attrs *at, Tensor *const *outs,
                int nouts) {
  const Tensor *ix = args[0];
  Tensor *r = outs[0];
  int64_t ax = nv_int(at, "axis", -1);
  int axis = ax == -1 ? ix->rank : (int)ax;
  int64_t c[IR_MAX_RANK], ci[IR_MAX_RANK];
  for (int64_t o = 0; o < r->numel; o++) {
    nv_coord(r->rank, r->shape, o, c);
    for (int d = 0, j = 0; d < r->rank; d++)
      if (d != axis)
        ci[j++] = c[d];
    int64_t k = nv_index(ix->rank, ix->shape, ci);
    bool hit =
        nv_is_unsigned(ix->dtype) ? nv_u(ix, k) == (uint64_t)c[axis] : nv_i(ix, k) == c[axis];
    nv_put(r, o, args[hit ? 1 : 2], 0);
  }
}

/* repeat(A; repeats, axis): R[c] = A[c with c[axis] / repeats]. */
void nv_repeat(OpId op, Tensor *const *args, int nargs, const Attrs *at, Tensor *const *outs,
               int nouts) {
  const Tensor *x = args[0];
  Tensor *r = outs[0];
  int axis = nv_axis(nv_int(at, "axis", 0), x->rank);
  int64_t reps = nv_int(at, "repeats", 1), c[IR_MAX_RANK];
  for (int64_t o = 0; o < r->numel; o++) {
    nv_coord(r->rank, r->shape, o, c);
    c[axis] /= reps;
    nv_put(r, o, x, nv_index(x->rank, x->shape, c));
  }
}

/* depth_to_space and space_to_depth, NCHW, block b. */
void nv_space_depth(OpId op, Tensor *const *args, int nargs, const Attrs *at, Tensor *const *outs,
                    int nouts) {
  const Tensor *x = args[0];
  Tensor *r = outs[0];
  int64_t b = nv_int(at, "block_size", 1), c[4], s[4];
  bool crd = strcmp(nv_str(at, "mode", "DCR"), "CRD") == 0;
  for (int64_t o = 0; o < r->numel; o++) {
    nv_coord(4, r->shape, o, c);
    int64_t n = c[0], ch = c[1], y = c[2], w = c[3];
    if (op == OP_DEPTH_TO_SPACE) {
      int64_t off = (y % b) * b + (w % b); /* which of the b * b blocks */
      int64_t src_c = crd ? ch * b * b + off : off * r->shape[1] + ch;
      s[0] = n, s[1] = src_c, s[2] = y / b, s[3] = w / b;
    } else {
      int64_t blk = ch / x->shape[1];
      s[0] = n, s[1] = ch % x->shape[1], s[2] = y * b + blk / b, s[3] = w * b + blk % b;
    }
    nv_put(r, o, x, nv_index(4, x->shape, s));
  }
}

/* collapse_sum_like(A, B): R[t] = sum of A[c] over every c that B's
 * broadcast maps to t; floats summed in double in row-major order of A. */
void nv_collapse_sum_like(OpId op, Tensor *const *args, int nargs, const Attrs *at,
                          Tensor *const *outs, int nouts) {
  const Tensor *x = args[0];
  Tensor *r = outs[0];
  int lead = x->rank - r->rank;
  int64_t c[IR_MAX_RANK], t[IR_MAX_RANK];
  for (int64_t o = 0; o < r->numel; o++) {
    nv_coord(r->rank, r->shape, o, t);
    double f = 0;
    uint64_t u = 0;
    for (int64_t i = 0; i < x->numel; i++) {
      nv_coord(x->rank, x->shape, i, c);
      bool mine = true;
      for (int d = 0; d < r->rank; d++)
        if (r->shape[d] != 1 && c[lead + d] != t[d])
          mine = false;
      if (!mine)
        continue;
      if (nv_is_float(x->dtype))
        f += nv_f(x, i);
      else
        u += (uint64_t)nv_i(x, i);
    }
    if (nv_is_float(x->dtype))
      nv_put_f(r, o, f);
    else
      nv_put_u(r, o, u);
  }
}

/* slice_like: R[c] = A[c] (R's dims at most A's). */
void nv_slice_like(OpId op, Tensor *const *args, int nargs, const Attrs *at, Tensor *const *outs,
                   int nouts) {
  const Tensor *x = args[0];
  Tensor *r = outs[0];
  int64_t c[IR_MAX_RANK];
  for (int64_t o = 0; o < r->numel; o++) {
    nv_coord(r->rank, r->shape, o, c);
    nv_put(r, o, x, nv_index(x->rank, x->shape, c));
  }
}
