/*
 * matmul.c - naive nn.dense and nn.batch_matmul (docs/operators.md,
 * "matmul"): each result element the sum over k, in order, of products
 * of operands converted to the result's dtype (floats: accumulated in
 * double and rounded once, as every float kernel computes; integers:
 * wrapping).
 */
#include "naive.h"

/* A sum of products x[i] * y[j], each operand converted to r's dtype
 * first, in the order they are added. */
typedef struct Dot {
  const Tensor *x, *y;
  Tensor *r;
  double f;
  uint64_t i;
} Dot;

static void dot_add(Dot *d, int64_t xi, int64_t yi) {
  double fx, fy;
  int64_t ix, iy;
  nv_convert(d->x, xi, d->r->dtype, &fx, &ix);
  nv_convert(d->y, yi, d->r->dtype, &fy, &iy);
  d->f += fx * fy;
  d->i += (uint64_t)ix * (uint64_t)iy;
}

static void dot_store(const Dot *d, int64_t o) {
  if (nv_is_float(d->r->dtype))
    nv_put_f(d->r, o, d->f);
  else
    nv_put_i(d->r, o, (int64_t)d->i);
}

/* nn.dense(D [.., k], W [units, k]): R[.., u] = sum_k D[.., k] * W[u, k]. */
void nv_dense(OpId op, Tensor *const *args, int nargs, const Attrs *at, Tensor *const *outs,
              int nouts) {
  const Tensor *x = args[0], *w = args[1];
  Tensor *r = outs[0];
  int64_t c[IR_MAX_RANK], k = w->shape[1];
  for (int64_t o = 0; o < r->numel; o++) {
    nv_coord(r->rank, r->shape, o, c);
    int64_t u = c[r->rank - 1];
    Dot d = {x, w, r, 0, 0};
    for (int64_t j = 0; j < k; j++) {
      c[r->rank - 1] = j;
      int64_t wc[2] = {u, j};
      dot_add(&d, nv_index(x->rank, x->shape, c), nv_index(2, w->shape, wc));
    }
    dot_store(&d, o);
  }
}

/* nn.batch_matmul(X, Y): R[b, i, j] = sum_k X'[b, i, k] * Y'[b, k, j]
 * with X' = X, or X transposed in its last two dims when transpose_a
 * (default false), and Y' = Y transposed unless transpose_b is false
 * (default true); a batch of 1 serves every batch. */
void nv_batch_matmul(OpId op, Tensor *const *args, int nargs, const Attrs *at, Tensor *const *outs,
                     int nouts) {
  const Tensor *x = args[0], *y = args[1];
  Tensor *r = outs[0];
  bool ta = nv_bool(at, "transpose_a", false), tb = nv_bool(at, "transpose_b", true);
  int64_t k = x->shape[ta ? 1 : 2], c[3];
  for (int64_t o = 0; o < r->numel; o++) {
    nv_coord(3, r->shape, o, c);
    int64_t xb = x->shape[0] == 1 ? 0 : c[0], yb = y->shape[0] == 1 ? 0 : c[0];
    Dot d = {x, y, r, 0, 0};
    for (int64_t l = 0; l < k; l++) {
      int64_t xc[3] = {xb, ta ? l : c[1], ta ? c[1] : l};
      int64_t yc[3] = {yb, tb ? c[2] : l, tb ? l : c[2]};
      dot_add(&d, nv_index(3, x->shape, xc), nv_index(3, y->shape, yc));
    }
    dot_store(&d, o);
  }
}
