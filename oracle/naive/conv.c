/*
 * conv.c - naive nn.conv2d (docs/operators.md, "conv"): NCHW or NHWC
 * data, OIHW, HWIO, OHWI or HWOI weights, zero padding, operands
 * converted to the result's dtype.
 */
#include <string.h>

#include "naive.h"

enum { N_, C_, H_, W_, O_, I_, NAMES };

/* Where the dim letter l's value sits among the named values: N, C, H, W
 * of the data, O, I, H, W of the weight. */
static int slot(char l) {
  return (int)(strchr("NCHWOI", l) - "NCHWOI");
}

/* The coordinate, in layout lay, of the named values v. */
static void spell(const char *lay, const int64_t *v, int64_t *c) {
  for (int i = 0; i < 4; i++)
    c[i] = v[slot(lay[i])];
}

/* R[n, o, y, x] = sum over the input channels c of o's group and the
 * kernel taps (ky, kx) of
 *   D[n, g * C + c, y * sh + ky * dh - top, x * sw + kx * dw - left]
 *   * W[o, c, ky, kx]
 * (each indexed by its letters in its layout) where C = W's I extent,
 * g = o / (O / groups), and a tap outside D reads a zero (padding), which
 * still multiplies its weight: 0 * NaN = NaN, as in TVM, which pads D
 * with zeros before it convolves. */
void nv_conv2d(OpId op, Tensor *const *args, int nargs, const Attrs *at, Tensor *const *outs,
               int nouts) {
  const Tensor *x = args[0], *w = args[1];
  Tensor *r = outs[0];
  const char *dl = nv_str(at, "data_layout", "NCHW"), *kl = nv_str(at, "kernel_layout", "OIHW");
  int64_t s[2], dil[2], pad[4], c[4], rv[NAMES] = {0}, xv[NAMES] = {0}, wv[NAMES] = {0};
  nv_pair(at, "strides", s);
  nv_pair(at, "dilation", dil);
  nv_padding(at, pad);
  for (int i = 0; i < 4; i++) /* the extents, by letter */
    xv[slot(dl[i])] = x->shape[i], wv[slot(kl[i])] = w->shape[i], rv[slot(dl[i])] = r->shape[i];
  int64_t xh = xv[H_], xw = xv[W_], kh = wv[H_], kw = wv[W_], ci = wv[I_];
  int64_t groups = nv_int(at, "groups", 1), per_group = rv[C_] / groups;
  bool fl = nv_is_float(r->dtype);
  for (int64_t o = 0; o < r->numel; o++) {
    nv_coord(4, r->shape, o, c);
    int64_t at_r[NAMES] = {0};
    for (int i = 0; i < 4; i++)
      at_r[slot(dl[i])] = c[i];
    int64_t g = at_r[C_] / per_group;
    double sf = 0;
    uint64_t si = 0;
    for (int64_t ch = 0; ch < ci; ch++)
      for (int64_t ky = 0; ky < kh; ky++)
        for (int64_t kx = 0; kx < kw; kx++) {
          int64_t iy = at_r[H_] * s[0] + ky * dil[0] - pad[0];
          int64_t ix = at_r[W_] * s[1] + kx * dil[1] - pad[1];
          bool outside = iy < 0 || iy >= xh || ix < 0 || ix >= xw;
          int64_t dn[NAMES] = {0}, wn[NAMES] = {0}, dc[4], wc[4];
          dn[N_] = at_r[N_], dn[C_] = g * ci + ch, dn[H_] = iy, dn[W_] = ix;
          wn[O_] = at_r[C_], wn[I_] = ch, wn[H_] = ky, wn[W_] = kx;
          spell(dl, dn, dc);
          spell(kl, wn, wc);
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
