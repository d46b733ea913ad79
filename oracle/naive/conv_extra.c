/*
 * conv_extra.c - naive nn.conv1d and nn.conv2d_transpose
 * (docs/operators.md, "conv_extra"): operands converted to the result's
 * dtype, integers wrapping, zeros of the padding multiplying their
 * weights.
 */
#include "naive.h"

/* A sum of products in the result's dtype. */
typedef struct Sum {
  double f;
  uint64_t i;
} Sum;

/* sum += a * w, a (x[xi], or 0 when xi < 0) and w[wi] converted to dt. */
static void add_tap(Sum *s, DType dt, const Tensor *x, int64_t xi, const Tensor *w, int64_t wi) {
  double fa = 0, fw;
  int64_t ia = 0, iw;
  if (xi >= 0)
    nv_convert(x, xi, dt, &fa, &ia);
  nv_convert(w, wi, dt, &fw, &iw);
  s->f += fa * fw;
  s->i += (uint64_t)ia * (uint64_t)iw;
}

static void put_sum(Tensor *r, int64_t o, const Sum *s) {
  if (nv_is_float(r->dtype))
    nv_put_f(r, o, s->f);
  else
    nv_put_i(r, o, (int64_t)s->i);
}

/* conv1d: R[n, o, x] = sum over the channels c of o's group and the taps
 * k of D[n, g * C + c, x * s + k * d - left] * W[o, c, k], a tap outside D
 * reading 0 (padding: one value for both sides or left, right). */
void nv_conv1d(OpId op, Tensor *const *args, int nargs, const Attrs *at, Tensor *const *outs,
               int nouts) {
  const Tensor *x = args[0], *w = args[1];
  Tensor *r = outs[0];
  int n;
  const int64_t *p = nv_ints(at, "padding", &n);
  int64_t left = n >= 1 ? p[0] : 0, c[3];
  const int64_t *sv = nv_ints(at, "strides", &n);
  int64_t s = n == 1 ? sv[0] : 1;
  const int64_t *dv = nv_ints(at, "dilation", &n);
  int64_t d = n == 1 ? dv[0] : 1;
  int64_t per_group = r->shape[1] / nv_int(at, "groups", 1);
  for (int64_t o = 0; o < r->numel; o++) {
    nv_coord(3, r->shape, o, c);
    int64_t g = c[1] / per_group;
    Sum sum = {0, 0};
    for (int64_t ch = 0; ch < w->shape[1]; ch++)
      for (int64_t k = 0; k < w->shape[2]; k++) {
        int64_t ix = c[2] * s + k * d - left;
        int64_t dc[3] = {c[0], g * w->shape[1] + ch, ix}, wc[3] = {c[1], ch, k};
        bool in = ix >= 0 && ix < x->shape[2];
        add_tap(&sum, r->dtype, x, in ? nv_index(3, x->shape, dc) : -1, w,
                nv_index(3, w->shape, wc));
      }
    put_sum(r, o, &sum);
  }
}

/* The dilated input's element at position q along an axis of n elements
 * with stride s (element q / s where q is a multiple of s), or -1 where
 * the dilation put a zero or q lies in the padding. */
static int64_t dilated(int64_t q, int64_t s, int64_t n) {
  if (q < 0 || q % s != 0 || q / s >= n)
    return -1;
  return q / s;
}

/* conv2d_transpose as TVM defines it: the input dilated by the strides
 * (zeros between its elements) and padded by dk - 1 - pad before (dk the
 * dilated kernel extent), convolved with the kernel flipped in both
 * spatial axes; channel o of group g = o / (O / groups) reads the input
 * channels of group g and weights W[c, o mod (O / groups)].  A flipped
 * tap that falls between the taps of a dilated kernel is not a tap. */
void nv_conv2d_transpose(OpId op, Tensor *const *args, int nargs, const Attrs *at,
                         Tensor *const *outs, int nouts) {
  const Tensor *x = args[0], *w = args[1];
  Tensor *r = outs[0];
  int64_t s[2], d[2], pad[4], c[4];
  nv_pair(at, "strides", s);
  nv_pair(at, "dilation", d);
  nv_padding(at, pad);
  int64_t groups = nv_int(at, "groups", 1), ocg = w->shape[1], cg = x->shape[1] / groups;
  int64_t dk[2] = {(w->shape[2] - 1) * d[0] + 1, (w->shape[3] - 1) * d[1] + 1};
  for (int64_t o = 0; o < r->numel; o++) {
    nv_coord(4, r->shape, o, c);
    int64_t g = c[1] / ocg;
    Sum sum = {0, 0};
    for (int64_t ch = g * cg; ch < (g + 1) * cg; ch++)
      for (int64_t dh = 0; dh < dk[0]; dh++)
        for (int64_t dw = 0; dw < dk[1]; dw++) {
          int64_t fh = dk[0] - 1 - dh, fw = dk[1] - 1 - dw; /* the flip */
          if (fh % d[0] || fw % d[1])
            continue;
          int64_t iy = dilated(c[2] + dh - (dk[0] - 1 - pad[0]), s[0], x->shape[2]);
          int64_t ix = dilated(c[3] + dw - (dk[1] - 1 - pad[1]), s[1], x->shape[3]);
          int64_t dc[4] = {c[0], ch, iy, ix}, wc[4] = {ch, c[1] % ocg, fh / d[0], fw / d[1]};
          add_tap(&sum, r->dtype, x, iy < 0 || ix < 0 ? -1 : nv_index(4, x->shape, dc), w,
                  nv_index(4, w->shape, wc));
        }
    put_sum(r, o, &sum);
  }
}
