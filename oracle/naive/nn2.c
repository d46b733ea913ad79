/*
 * nn2.c - naive kernels of nn.leaky_relu, nn.prelu, nn.dropout,
 * nn.l2_normalize, nn.lrn, nn.instance_norm, nn.group_norm,
 * nn.global_max_pool2d, the adaptive pools and nn.matmul (docs/operators.md,
 * "nn2"),
 * straight from their definitions: every float step rounded to the data's
 * dtype, sums in double in row-major order rounded once.
 */
#include <math.h>
#include <string.h>

#include "naive.h"

/* A float attribute as the kernels take it: float32 first, then dt. */
static double as_f32(DType dt, double v) {
  return nv_step(dt, (double)(float)v);
}

/* leaky_relu: R = A > 0 ? A : A * alpha (default 0.25, in A's dtype). */
void nv_leaky_relu(OpId op, Tensor *const *args, int nargs, const Attrs *at, Tensor *const *outs,
                   int nouts) {
  const Tensor *x = args[0];
  double alpha = nv_step(x->dtype, nv_float(at, "alpha", 0.25));
  for (int64_t i = 0; i < x->numel; i++) {
    double v = nv_f(x, i);
    nv_put_f(outs[0], i, v > 0 ? v : nv_step(x->dtype, v * alpha));
  }
}

/* prelu: R[c] = A[c] > 0 ? A[c] : A[c] * B[c[axis]] (default axis 1). */
void nv_prelu(OpId op, Tensor *const *args, int nargs, const Attrs *at, Tensor *const *outs,
              int nouts) {
  const Tensor *x = args[0];
  int axis = (int)nv_int(at, "axis", 1);
  int64_t c[IR_MAX_RANK];
  for (int64_t i = 0; i < x->numel; i++) {
    nv_coord(x->rank, x->shape, i, c);
    double v = nv_f(x, i);
    nv_put_f(outs[0], i, v > 0 ? v : nv_step(x->dtype, v * nv_f(args[1], c[axis])));
  }
}

/* dropout at inference: (A, ones). */
void nv_dropout(OpId op, Tensor *const *args, int nargs, const Attrs *at, Tensor *const *outs,
                int nouts) {
  for (int64_t i = 0; i < args[0]->numel; i++) {
    nv_put(outs[0], i, args[0], i);
    nv_put_i(outs[1], i, 1);
  }
}

/* l2_normalize: R = A / sqrt(max(S, eps)), S = the sum of the squares of
 * the elements that agree with this one outside the axes (all of them
 * when axis is None or []). */
void nv_l2_normalize(OpId op, Tensor *const *args, int nargs, const Attrs *at, Tensor *const *outs,
                     int nouts) {
  const Tensor *x = args[0];
  DType dt = x->dtype;
  int na;
  const int64_t *ax = nv_ints(at, "axis", &na);
  bool reduced[IR_MAX_RANK] = {false};
  for (int d = 0; d < x->rank; d++)
    reduced[d] = na == 0;
  for (int k = 0; k < na; k++)
    reduced[nv_axis(ax[k], x->rank)] = true;
  double eps = as_f32(dt, nv_float(at, "eps", 0));
  int64_t ci[IR_MAX_RANK], cj[IR_MAX_RANK];
  for (int64_t i = 0; i < x->numel; i++) {
    nv_coord(x->rank, x->shape, i, ci);
    double s = 0;
    for (int64_t j = 0; j < x->numel; j++) {
      nv_coord(x->rank, x->shape, j, cj);
      bool same = true;
      for (int d = 0; d < x->rank; d++)
        same &= reduced[d] || ci[d] == cj[d];
      if (same)
        s += nv_step(dt, nv_f(x, j) * nv_f(x, j));
    }
    double m = nv_max(nv_step(dt, s), eps);
    nv_put_f(outs[0], i, nv_div(nv_f(x, i), nv_step(dt, sqrt(m))));
  }
}

/* lrn: R = A / (bias + alpha * S / size) ^ beta, S the sum of the squares
 * of the channels c - size / 2 .. c + size / 2 that exist. */
void nv_lrn(OpId op, Tensor *const *args, int nargs, const Attrs *at, Tensor *const *outs,
            int nouts) {
  const Tensor *x = args[0];
  DType dt = x->dtype;
  int64_t size = nv_int(at, "size", 5), c[4];
  int axis = (int)nv_int(at, "axis", 1);
  double bias = as_f32(dt, nv_float(at, "bias", 2)),
         alpha = as_f32(dt, nv_float(at, "alpha", 1e-4));
  double beta = as_f32(dt, nv_float(at, "beta", 0.75));
  for (int64_t i = 0; i < x->numel; i++) {
    nv_coord(4, x->shape, i, c);
    int64_t ch = c[axis];
    double s = 0;
    for (int64_t k = ch - size / 2; k <= ch + size / 2; k++) {
      if (k < 0 || k >= x->shape[axis])
        continue;
      c[axis] = k;
      double v = nv_f(x, nv_index(4, x->shape, c));
      s += nv_step(dt, v * v);
    }
    double t = nv_step(dt, alpha * nv_step(dt, s));
    t = nv_step(dt, bias + nv_step(dt, t / (double)size));
    nv_put_f(outs[0], i, nv_div(nv_f(x, i), nv_step(dt, pow(t, beta))));
  }
}

/* Do elements with coordinates a and b share a normalisation group?
 * instance_norm: the same index along 0 and along axis; group_norm: the
 * same indices before axis and the same group of channels. */
static bool same_group(OpId op, const Tensor *x, int axis, int64_t per, const int64_t *a,
                       const int64_t *b) {
  if (op == OP_INSTANCE_NORM)
    return a[0] == b[0] && a[axis] == b[axis];
  for (int d = 0; d < axis; d++)
    if (a[d] != b[d])
      return false;
  return a[axis] / per == b[axis] / per;
}

/* instance_norm and group_norm: R = (A - mean) / sqrt(var + eps) * gamma
 * + beta, mean and (population) variance over the element's group. */
void nv_group_norm(OpId op, Tensor *const *args, int nargs, const Attrs *at, Tensor *const *outs,
                   int nouts) {
  const Tensor *x = args[0];
  DType dt = x->dtype;
  int axis = nv_axis(nv_int(at, "axis", 1), x->rank);
  int64_t per = op == OP_GROUP_NORM ? x->shape[axis] / nv_int(at, "num_groups", 1) : 1;
  double eps = as_f32(dt, nv_float(at, "epsilon", 1e-5));
  bool center = nv_bool(at, "center", true), scale = nv_bool(at, "scale", true);
  int64_t ci[IR_MAX_RANK], cj[IR_MAX_RANK];
  for (int64_t i = 0; i < x->numel; i++) {
    nv_coord(x->rank, x->shape, i, ci);
    double sum = 0, sq = 0;
    int64_t n = 0;
    for (int64_t j = 0; j < x->numel; j++) {
      nv_coord(x->rank, x->shape, j, cj);
      if (same_group(op, x, axis, per, ci, cj)) {
        sum += nv_f(x, j);
        n++;
      }
    }
    double mean = nv_step(dt, sum / (double)n);
    for (int64_t j = 0; j < x->numel; j++) {
      nv_coord(x->rank, x->shape, j, cj);
      if (same_group(op, x, axis, per, ci, cj)) {
        double d = nv_step(dt, nv_f(x, j) - mean);
        sq += nv_step(dt, d * d);
      }
    }
    double var = nv_step(dt, sq / (double)n);
    double v = nv_step(
        dt, nv_div(nv_step(dt, nv_f(x, i) - mean), nv_step(dt, sqrt(nv_step(dt, var + eps)))));
    if (scale)
      v = nv_step(dt, v * nv_f(args[1], ci[axis]));
    if (center)
      v = nv_step(dt, v + nv_f(args[2], ci[axis]));
    nv_put_f(outs[0], i, v);
  }
}

/* The largest of the elements of x in rows [y0, y1) and columns [x0, x1)
 * of plane p (a NaN wins), or the dtype's lowest value (-inf, the
 * integer minimum) when there are none, stored into r[o]. */
static void window_max(const Tensor *x, int64_t p, int64_t y0, int64_t y1, int64_t x0, int64_t x1,
                       Tensor *r, int64_t o) {
  int64_t h = x->shape[2], w = x->shape[3];
  if (nv_is_float(x->dtype)) {
    double m = -INFINITY;
    for (int64_t a = y0; a < y1; a++)
      for (int64_t b = x0; b < x1; b++)
        m = nv_max(m, nv_f(x, (p * h + a) * w + b));
    nv_put_f(r, o, m);
    return;
  }
  nv_put_f(r, o, -INFINITY); /* saturates to the minimum */
  int64_t m = nv_i(r, o);
  for (int64_t a = y0; a < y1; a++)
    for (int64_t b = x0; b < x1; b++)
      if (nv_i(x, (p * h + a) * w + b) > m)
        m = nv_i(x, (p * h + a) * w + b);
  nv_put_i(r, o, m);
}

/* global_max_pool2d: R[n, c, 0, 0] = the largest of A[n, c, :, :]. */
void nv_global_max_pool2d(OpId op, Tensor *const *args, int nargs, const Attrs *at,
                          Tensor *const *outs, int nouts) {
  const Tensor *x = args[0];
  for (int64_t p = 0; p < outs[0]->numel; p++)
    window_max(x, p, 0, x->shape[2], 0, x->shape[3], outs[0], p);
}

/* adaptive pools: output (y, x) of OH x OW pools input rows floor(y * H /
 * OH) .. ceil((y + 1) * H / OH) - 1 and the columns alike; avg is the sum
 * over the window divided by its size. */
void nv_adaptive_pool2d(OpId op, Tensor *const *args, int nargs, const Attrs *at,
                        Tensor *const *outs, int nouts) {
  const Tensor *x = args[0];
  Tensor *r = outs[0];
  int64_t h = x->shape[2], w = x->shape[3], c[4];
  for (int64_t o = 0; o < r->numel; o++) {
    nv_coord(4, r->shape, o, c);
    int64_t oh = r->shape[2], ow = r->shape[3], p = c[0] * x->shape[1] + c[1];
    int64_t y0 = (int64_t)floor((double)(c[2] * h) / (double)oh);
    int64_t y1 = (int64_t)ceil((double)((c[2] + 1) * h) / (double)oh);
    int64_t x0 = (int64_t)floor((double)(c[3] * w) / (double)ow);
    int64_t x1 = (int64_t)ceil((double)((c[3] + 1) * w) / (double)ow);
    if (op == OP_ADAPTIVE_MAX_POOL2D) {
      window_max(x, p, y0, y1, x0, x1, r, o);
      continue;
    }
    double sum = 0;
    for (int64_t a = y0; a < y1; a++)
      for (int64_t b = x0; b < x1; b++)
        sum += nv_f(x, (p * h + a) * w + b);
    nv_put_f(r, o, nv_div(sum, (double)((y1 - y0) * (x1 - x0))));
  }
}

/* matmul: R[.., i, j] = sum over l of A[.., i, l] * B[l, j], reading A as
 * [.., l, i] with transpose_a and B as [j, l] with transpose_b; operands
 * converted to the result's dtype, integers wrapping. */
void nv_matmul(OpId op, Tensor *const *args, int nargs, const Attrs *at, Tensor *const *outs,
               int nouts) {
  const Tensor *x = args[0], *w = args[1];
  Tensor *r = outs[0];
  bool ta = nv_bool(at, "transpose_a", false), tb = nv_bool(at, "transpose_b", false);
  int64_t c[IR_MAX_RANK], xc[IR_MAX_RANK], k = w->shape[tb ? 1 : 0];
  bool fl = nv_is_float(r->dtype);
  for (int64_t o = 0; o < r->numel; o++) {
    nv_coord(r->rank, r->shape, o, c);
    memcpy(xc, c, sizeof xc);
    double sf = 0;
    uint64_t si = 0;
    for (int64_t l = 0; l < k; l++) {
      int rk = x->rank;
      if (ta) {
        xc[rk - 2] = l;
        xc[rk - 1] = c[rk - 2];
      } else {
        xc[rk - 1] = l;
      }
      int64_t wc[2] = {tb ? c[r->rank - 1] : l, tb ? l : c[r->rank - 1]};
      double fa, fb;
      int64_t ia, ib;
      nv_convert(x, nv_index(rk, x->shape, xc), r->dtype, &fa, &ia);
      nv_convert(w, nv_index(2, w->shape, wc), r->dtype, &fb, &ib);
      sf += fa * fb;
      si += (uint64_t)ia * (uint64_t)ib;
    }
    if (fl)
      nv_put_f(r, o, sf);
    else
      nv_put_i(r, o, (int64_t)si);
  }
}
