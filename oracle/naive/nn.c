/*
 * nn.c - naive kernels of nn.softmax, nn.log_softmax, nn.bias_add,
 * nn.batch_norm, nn.layer_norm and nn.pad (docs/operators.md, "nn"),
 * floats computed step by step in the tensor's dtype, sums accumulated in
 * double and rounded once (docs/operators.md, "Float arithmetic").
 */
#include <math.h>
#include <string.h>

#include "naive.h"

/* The element of x at coordinate c with c[axis] replaced by k. */
static int64_t along(const Tensor *x, const int64_t *c, int axis, int64_t k) {
  int64_t cc[IR_MAX_RANK];
  memcpy(cc, c, sizeof cc);
  cc[axis] = k;
  return nv_index(x->rank, x->shape, cc);
}

/* softmax: R = exp(A - max) * (1 / sum exp(A - max)) along axis (default
 * -1); log_softmax: R = (A - max) - log sum exp(A - max).  max as `max`
 * defines it (a NaN wins), the sum in order along the axis, every other
 * step in A's dtype. */
void nv_softmax(OpId op, Tensor *const *args, int nargs, const Attrs *at, Tensor *const *outs,
                int nouts) {
  const Tensor *x = args[0];
  DType dt = x->dtype;
  int axis = nv_axis(nv_int(at, "axis", -1), x->rank);
  int64_t c[IR_MAX_RANK], n = x->shape[axis];
  for (int64_t i = 0; i < x->numel; i++) {
    nv_coord(x->rank, x->shape, i, c);
    double m = -INFINITY, sum = 0;
    for (int64_t k = 0; k < n; k++)
      m = nv_max(m, nv_f(x, along(x, c, axis, k)));
    for (int64_t k = 0; k < n; k++)
      sum += nv_step(dt, exp(nv_step(dt, nv_f(x, along(x, c, axis, k)) - m)));
    double s = nv_step(dt, sum), v = nv_step(dt, nv_f(x, i) - m);
    if (op == OP_SOFTMAX)
      nv_put_f(outs[0], i, nv_step(dt, exp(v)) * nv_step(dt, nv_div(1, s)));
    else
      nv_put_f(outs[0], i, v - nv_step(dt, log(s)));
  }
}

/* bias_add(A, B, axis): R[c] = A[c] + B[c[axis]] (default axis 1;
 * integers wrap). */
void nv_bias_add(OpId op, Tensor *const *args, int nargs, const Attrs *at, Tensor *const *outs,
                 int nouts) {
  const Tensor *x = args[0], *b = args[1];
  int axis = nv_axis(nv_int(at, "axis", 1), x->rank);
  int64_t c[IR_MAX_RANK];
  for (int64_t i = 0; i < x->numel; i++) {
    nv_coord(x->rank, x->shape, i, c);
    if (nv_is_float(x->dtype))
      nv_put_f(outs[0], i, nv_f(x, i) + nv_f(b, c[axis]));
    else
      nv_put_i(outs[0], i, (int64_t)((uint64_t)nv_i(x, i) + (uint64_t)nv_i(b, c[axis])));
  }
}

/* (x - mean) / sqrt(var + eps) * gamma + beta, gamma left out unless scale
 * and beta unless center; every step rounded to dtype dt, as the
 * operator's definition computes it in the tensor's dtype. */
static double normalise(DType dt, double x, double mean, double var, double eps, bool scale,
                        double gamma, bool center, double beta) {
  double v = nv_step(
      dt, nv_div(nv_step(dt, x - mean), nv_step(dt, sqrt(nv_step(dt, var + nv_step(dt, eps))))));
  if (scale)
    v = nv_step(dt, v * gamma);
  if (center)
    v = nv_step(dt, v + beta);
  return v;
}

/* batch_norm(A, gamma, beta, moving_mean, moving_var), inference: R =
 * the normalisation of A with the moving statistics of its channel
 * c[axis] (default axis 1, epsilon 1e-5, center and scale true); the
 * second and third results are moving_mean and moving_var. */
void nv_batch_norm(OpId op, Tensor *const *args, int nargs, const Attrs *at, Tensor *const *outs,
                   int nouts) {
  const Tensor *x = args[0];
  int axis = nv_axis(nv_int(at, "axis", 1), x->rank);
  double eps = nv_float(at, "epsilon", 1e-5);
  bool center = nv_bool(at, "center", true), scale = nv_bool(at, "scale", true);
  int64_t c[IR_MAX_RANK];
  for (int64_t i = 0; i < x->numel; i++) {
    nv_coord(x->rank, x->shape, i, c);
    int64_t k = c[axis];
    nv_put_f(outs[0], i,
             normalise(x->dtype, nv_f(x, i), nv_f(args[3], k), nv_f(args[4], k), eps, scale,
                       nv_f(args[1], k), center, nv_f(args[2], k)));
  }
  for (int64_t k = 0; k < outs[1]->numel; k++) {
    nv_put(outs[1], k, args[3], k);
    nv_put(outs[2], k, args[4], k);
  }
}

/* layer_norm(A, gamma, beta, axis): each slice along axis (default -1)
 * normalised with its own mean and (population) variance, then scaled by
 * gamma and shifted by beta element by element.  mean = sum A / n and var
 * = sum (A - mean)^2 / n are sums in double divided and rounded once;
 * each difference and square is a step in A's dtype. */
void nv_layer_norm(OpId op, Tensor *const *args, int nargs, const Attrs *at, Tensor *const *outs,
                   int nouts) {
  const Tensor *x = args[0];
  int axis = nv_axis(nv_int(at, "axis", -1), x->rank);
  double eps = nv_float(at, "epsilon", 1e-5);
  bool center = nv_bool(at, "center", true), scale = nv_bool(at, "scale", true);
  int64_t c[IR_MAX_RANK], n = x->shape[axis];
  for (int64_t i = 0; i < x->numel; i++) {
    nv_coord(x->rank, x->shape, i, c);
    DType dt = x->dtype;
    double sum = 0, sq = 0;
    for (int64_t k = 0; k < n; k++)
      sum += nv_f(x, along(x, c, axis, k));
    double mean = nv_step(dt, sum / (double)n);
    for (int64_t k = 0; k < n; k++) {
      double d = nv_step(dt, nv_f(x, along(x, c, axis, k)) - mean);
      sq += nv_step(dt, d * d);
    }
    double var = nv_step(dt, sq / (double)n);
    int64_t k = c[axis];
    nv_put_f(outs[0], i,
             normalise(dt, nv_f(x, i), mean, var, eps, scale, nv_f(args[1], k), center,
                       nv_f(args[2], k)));
  }
}

/* pad(A, V, pad_width, pad_mode): R[c] = A[c - before] where that is
 * inside A; outside, V converted to A's dtype ("constant", the default),
 * the nearest element ("edge") or the mirror image without repeating the
 * border ("reflect").  Negative widths crop. */
void nv_pad(OpId op, Tensor *const *args, int nargs, const Attrs *at, Tensor *const *outs,
            int nouts) {
  const Tensor *x = args[0];
  Tensor *r = outs[0];
  int np;
  const int64_t *w = nv_ints(at, "pad_width", &np);
  const char *mode = nv_str(at, "pad_mode", "constant");
  bool edge = strcmp(mode, "edge") == 0, reflect = strcmp(mode, "reflect") == 0;
  int64_t c[IR_MAX_RANK];
  for (int64_t o = 0; o < r->numel; o++) {
    nv_coord(r->rank, r->shape, o, c);
    bool inside = true;
    for (int d = 0; d < x->rank; d++) {
      int64_t n = x->shape[d], k = c[d] - (d < np ? w[2 * d] : 0);
      if (k < 0 || k >= n) {
        if (edge)
          k = k < 0 ? 0 : n - 1;
        else if (reflect)
          k = k < 0 ? -k : 2 * (n - 1) - k;
        else
          inside = false;
      }
      c[d] = k;
    }
    if (inside)
      nv_put(r, o, x, nv_index(x->rank, x->shape, c));
    else
      nv_put(r, o, args[1], 0);
  }
}
