/*
 * pool.c - naive 2-D pools (docs/operators.md, "pool"): NCHW, each
 * result element over its window of the input.
 */
#include <math.h>

#include "naive.h"

/* nn.max_pool2d: the largest tap of the window, padding taps -inf (the
 * dtype's lowest for integers), a NaN tap wins.  nn.avg_pool2d: the sum of
 * the taps inside the input divided by their count, or with
 * count_include_pad by the taps inside the input and its written padding
 * (not the overhang ceil_mode adds); 0 when that count is 0.  The window
 * of R[n, c, y, x] has the taps (y * sh + ky * dh - top, x * sw + kx * dw
 * - left) for ky, kx below pool_size. */
void nv_pool2d(OpId op, Tensor *const *args, int nargs, const Attrs *at, Tensor *const *outs,
               int nouts) {
  const Tensor *x = args[0];
  Tensor *r = outs[0];
  int64_t k[2], s[2], dil[2], pad[4], c[4];
  nv_pair(at, "pool_size", k);
  nv_pair(at, "strides", s);
  nv_pair(at, "dilation", dil);
  nv_padding(at, pad);
  bool cip = nv_bool(at, "count_include_pad", false);
  bool fl = nv_is_float(x->dtype);
  int64_t h = x->shape[2], w = x->shape[3];
  for (int64_t o = 0; o < r->numel; o++) {
    nv_coord(4, r->shape, o, c);
    double best = -INFINITY, sum = 0;
    int64_t besti = nv_is_unsigned(x->dtype) ? 0
                    : x->dtype == DT_INT8    ? INT8_MIN
                    : x->dtype == DT_INT16   ? INT16_MIN
                    : x->dtype == DT_INT32   ? INT32_MIN
                                             : INT64_MIN;
    int64_t inside = 0, written = 0;
    for (int64_t ky = 0; ky < k[0]; ky++)
      for (int64_t kx = 0; kx < k[1]; kx++) {
        int64_t iy = c[2] * s[0] + ky * dil[0] - pad[0];
        int64_t ix = c[3] * s[1] + kx * dil[1] - pad[1];
        if (iy >= -pad[0] && iy < h + pad[2] && ix >= -pad[1] && ix < w + pad[3])
          written++;
        if (iy < 0 || iy >= h || ix < 0 || ix >= w)
          continue;
        int64_t dc[4] = {c[0], c[1], iy, ix}, j = nv_index(4, x->shape, dc);
        inside++;
        if (op == OP_AVG_POOL2D)
          sum += nv_f(x, j);
        else if (fl)
          best = nv_max(best, nv_f(x, j));
        else if (nv_lt(x->dtype, besti, nv_i(x, j)))
          besti = nv_i(x, j);
      }
    if (op == OP_AVG_POOL2D) {
      int64_t count = cip ? written : inside;
      nv_put_f(r, o, count ? sum / (double)count : 0);
    } else if (fl) {
      nv_put_f(r, o, best);
    } else {
      nv_put_i(r, o, besti);
    }
  }
}

/* nn.global_avg_pool2d: R[n, c, 0, 0] = the mean of A[n, c, :, :] (NaN
 * when empty). */
void nv_global_avg_pool2d(OpId op, Tensor *const *args, int nargs, const Attrs *at,
                          Tensor *const *outs, int nouts) {
  const Tensor *x = args[0];
  int64_t c[4];
  for (int64_t o = 0; o < outs[0]->numel; o++) {
    nv_coord(4, outs[0]->shape, o, c);
    double sum = 0;
    for (c[2] = 0; c[2] < x->shape[2]; c[2]++)
      for (c[3] = 0; c[3] < x->shape[3]; c[3]++)
        sum += nv_f(x, nv_index(4, x->shape, c));
    nv_put_f(outs[0], o, nv_div(sum, (double)(x->shape[2] * x->shape[3])));
  }
}
