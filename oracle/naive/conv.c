/*
 * conv.c - naive nn.conv2d (docs/operators.md, "conv"): NCHW data, OIHW
 * weights, zero padding, operands converted to the result's dtype.
 */
#include "naive.h"

/* R[n, o, y, x] = sum over the input channels c of o's group and the
 * kernel taps (ky, kx) of
 *   D[n, g * C + c, y * sh + ky * dh - top, x * sw + kx * dw - left]
 *   * W[o, c, ky, kx]
 * where C = W's dim 1, g = o / (O / groups), and a tap outside D reads a
 * zero (padding), which still multiplies its weight: 0 * NaN = NaN, as in
 * TVM, which pads D with zeros before it convolves. */
void nv_conv2d(OpId op, Tensor *const *args, int nargs, const Attrs *at, Tensor *const *outs,
               int nouts) {
  const Tensor *x = args[0], *w = args[1];
  Tensor *r = outs[0];
  int64_t s[2], dil[2], pad[4], c[4];
  nv_pair(at, "strides", s);
  nv_pair(at, "dilation", dil);
  nv_padding(at, pad);
  int64_t groups = nv_int(at, "groups", 1), per_group = r->shape[1] / groups;
  bool fl = nv_is_float(r->dtype);
  for (int64_t o = 0; o < r->numel; o++) {
    nv_coord(4, r->shape, o, c);
    int64_t g = c[1] / per_group;
    double sf = 0;
    uint64_t si = 0;
    for (int64_t ch = 0; ch < w->shape[1]; ch++)
      for (int64_t ky = 0; ky < w->shape[2]; ky++)
        for (int64_t kx = 0; kx < w->shape[3]; kx++) {
          int64_t iy = c[2] * s[0] + ky * dil[0] - pad[0];
          int64_t ix = c[3] * s[1] + kx * dil[1] - pad[1];
          bool outside = iy < 0 || iy >= x->shape[2] || ix < 0 || ix >= x->shape[3];
          int64_t dc[4] = {c[0], g * w->shape[1] + ch, iy, ix}, wc[4] = {c[1], ch, ky, kx};
          double fd = 0, fw;
          int64_t id = 0, iw;
          if (!outside)
            nv_convert(x, nv_index(4, x->shape, dc), r->dtype, &fd, &id);
          nv_convert(w, nv_index(4, w->shape, wc), r->dtype, &fw, &iw);
          sf += fd * fw;
          si += (uint64_t)id * (uint64_t)iw;
        }
    if (fl)
      nv_put_f(r, o, sf);
    else
      nv_put_i(r, o, (int64_t)si);
  }
}
