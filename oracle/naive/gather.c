/*
 * gather.c - naive kernels of gather, gather_nd and scatter_elements
 * (docs/operators.md, "gather"): each result coordinate mapped to the
 * data coordinate it reads (gather, gather_nd), or each index position
 * applied to a copy of the data in row-major order (scatter_elements).
 * An index into an axis of n elements: a negative one plus n, then
 * clamped to [0, n - 1].
 */
#include <string.h>

#include "naive.h"

/* Index v into an axis of n > 0 elements, as the definition says. */
static int64_t fix_index(int64_t v, int64_t n) {
  if (v < 0 && v >= -n)
    v += n;
  if (v < 0)
    return 0;
  return v > n - 1 ? n - 1 : v;
}

/* Element i of an index tensor as an integer: a float converted as cast
 * converts it to int64 (toward zero, saturating, NaN 0). */
static int64_t index_of(const Tensor *ix, int64_t i) {
  double f;
  int64_t v;
  nv_convert(ix, i, DT_INT64, &f, &v);
  return v;
}

/* gather(A, I, axis): R[c] = A[c'], c' = c but c'[axis] = I[c]; zeros
 * when A's axis is empty. */
void nv_gather(OpId op, Tensor *const *args, int nargs, const Attrs *at, Tensor *const *outs,
               int nouts) {
  const Tensor *x = args[0], *ix = args[1];
  Tensor *r = outs[0];
  int axis = nv_axis(nv_int(at, "axis", 0), x->rank);
  int64_t c[IR_MAX_RANK];
  for (int64_t o = 0; o < r->numel; o++) {
    if (x->shape[axis] == 0) {
      nv_put_i(r, o, 0);
      continue;
    }
    nv_coord(r->rank, r->shape, o, c);
    c[axis] = fix_index(index_of(ix, o), x->shape[axis]);
    nv_put(r, o, x, nv_index(x->rank, x->shape, c));
  }
}

/* gather_nd(A, I, batch_dims B): I has shape (M, Y_0 .. Y_{K-1});
 * R[y, z] = A[y_0 .. y_{B-1}, I[0, y], .., I[M-1, y], z]; zeros when A
 * is empty. */
void nv_gather_nd(OpId op, Tensor *const *args, int nargs, const Attrs *at, Tensor *const *outs,
                  int nouts) {
  const Tensor *x = args[0], *ix = args[1];
  Tensor *r = outs[0];
  int b = (int)nv_int(at, "batch_dims", 0), m = (int)ix->shape[0], k = ix->rank - 1;
  int64_t c[2 * IR_MAX_RANK], cx[IR_MAX_RANK], ci[IR_MAX_RANK];
  for (int64_t o = 0; o < r->numel; o++) {
    if (x->numel == 0) {
      nv_put_i(r, o, 0);
      continue;
    }
    nv_coord(r->rank, r->shape, o, c);
    for (int d = 0; d < b; d++)
      cx[d] = c[d];
    for (int j = 0; j < m; j++) {
      ci[0] = j;
      for (int d = 0; d < k; d++)
        ci[1 + d] = c[d];
      int64_t v = index_of(ix, nv_index(ix->rank, ix->shape, ci));
      cx[b + j] = fix_index(v, x->shape[b + j]);
    }
    for (int d = b + m; d < x->rank; d++)
      cx[d] = c[k + d - b - m];
    nv_put(r, o, x, nv_index(x->rank, x->shape, cx));
  }
}

/* The reduction f(a, u) of scatter_elements on doubles (floats: the
 * result is rounded to the dtype by the store; mean's sum is rounded
 * first). */
static double reduce_f(const char *red, DType dt, double a, double u) {
  if (strcmp(red, "add") == 0)
    return a + u;
  if (strcmp(red, "mul") == 0)
    return a * u;
  if (strcmp(red, "mean") == 0)
    return nv_step(dt, a + u) / 2;
  if (strcmp(red, "min") == 0)
    return nv_min(a, u);
  if (strcmp(red, "max") == 0)
    return nv_max(a, u);
  return u;
}

/* a + u wrapped into integer dtype dt, through a one-element tensor. */
static int64_t wrap_sum(DType dt, int64_t a, int64_t u) {
  char buf[8];
  Tensor t = {.dtype = dt, .rank = 0, .numel = 1, .data = buf};
  nv_put_i(&t, 0, (int64_t)((uint64_t)a + (uint64_t)u));
  return nv_i(&t, 0);
}

/* The reduction f(a, u) on integers (the store wraps add and mul). */
static int64_t reduce_i(const char *red, DType dt, int64_t a, int64_t u) {
  if (strcmp(red, "add") == 0)
    return (int64_t)((uint64_t)a + (uint64_t)u);
  if (strcmp(red, "mul") == 0)
    return (int64_t)((uint64_t)a * (uint64_t)u);
  if (strcmp(red, "mean") == 0)
    return wrap_sum(dt, a, u) / 2;
  if (strcmp(red, "min") == 0)
    return a < u ? a : u;
  if (strcmp(red, "max") == 0)
    return a > u ? a : u;
  return u;
}

/* scatter_elements(A, I, U, axis, reduction): R = A; then for each
 * position p of I in row-major order, with q = p but q[axis] = I[p]:
 * R[q] = f(R[q], U[p]). */
void nv_scatter_elements(OpId op, Tensor *const *args, int nargs, const Attrs *at,
                         Tensor *const *outs, int nouts) {
  const Tensor *x = args[0], *ix = args[1], *u = args[2];
  Tensor *r = outs[0];
  int axis = nv_axis(nv_int(at, "axis", 0), x->rank);
  const char *red = nv_str(at, "reduction", "update");
  bool fl = ir_dtype_is_float(r->dtype);
  for (int64_t i = 0; i < r->numel; i++)
    nv_put(r, i, x, i);
  if (x->shape[axis] == 0)
    return;
  int64_t c[IR_MAX_RANK];
  for (int64_t p = 0; p < ix->numel; p++) {
    nv_coord(ix->rank, ix->shape, p, c);
    c[axis] = fix_index(index_of(ix, p), x->shape[axis]);
    int64_t q = nv_index(r->rank, r->shape, c);
    if (fl)
      nv_put_f(r, q, reduce_f(red, r->dtype, nv_f(r, q), nv_f(u, p)));
    else
      nv_put_i(r, q, reduce_i(red, r->dtype, nv_i(r, q), nv_i(u, p)));
  }
}
