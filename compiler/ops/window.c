/*
 * window.c - the sliding windows of nn.conv2d and the 2-D pools (see
 * op_int.h): reading strides, dilation and padding, Relay's output extent,
 * and drawing one spatial axis for the solvers; and the channel checks
 * the convolutions share.
 *
 * Relations reject a dilated window larger than the padded input (Relay
 * would produce a zero or negative extent); kernels, strides and
 * dilations must be positive and padding non-negative.
 *
 * Solvers draw the spatial axes from one family: kernel k, stride s and
 * dilation d up to min(max_dim, 32), pads each at most (dk - 1) / 2 where
 * dk = (k - 1) * d + 1 is the dilated kernel; then the input extent n for
 * output extent o is an interval (see axis_x_lo).  In that family n >= o,
 * with n == o reachable, which makes the limits monotone.  Every draw is
 * limited to values that can still be completed, and choice 0 is the
 * simplest (the smallest kernel, stride 1, no padding).
 */
#include <assert.h>
#include <string.h>

#include "op_int.h"

enum { ATTR_CAP = 32 }; /* largest stride, dilation or pool size a solver invents */

/* ------------------------------------------------------------- relations */

void op_rd_pair(OpAttrReader *r, const char *name, int64_t *v) {
  static const int64_t ones[2] = {1, 1};
  int n = op_rd_ints(r, name, 2, v, 2, ones, false);
  if (r->bad)
    return;
  if (n != 2)
    op_rd_fail(r, "%s must have 2 values, got %d", name, n);
  else if (v[0] < 1 || v[1] < 1)
    op_rd_fail(r, "%s must be positive, got [%lld, %lld]", name, (long long)v[0], (long long)v[1]);
}

void op_rd_window(OpAttrReader *r, OpWin *w) {
  static const int64_t zeros[2] = {0, 0};
  int64_t p[4];
  op_rd_pair(r, "strides", w->s);
  op_rd_pair(r, "dilation", w->d);
  int n = op_rd_ints(r, "padding", 4, p, 2, zeros, false);
  if (r->bad)
    return;
  switch (n) {
  case 1: w->pad[0] = w->pad[1] = w->pad[2] = w->pad[3] = p[0]; break;
  case 2:
    w->pad[0] = w->pad[2] = p[0];
    w->pad[1] = w->pad[3] = p[1];
    break;
  case 4: memcpy(w->pad, p, sizeof p); break;
  default: op_rd_fail(r, "padding must have 1, 2 or 4 values, got %d", n); return;
  }
  for (int i = 0; i < 4; i++)
    if (w->pad[i] < 0)
      op_rd_fail(r, "padding must be non-negative, got %lld", (long long)w->pad[i]);
}

/* Relay's output extent along axis i (0 = H, 1 = W) for input extent n;
 * -1 when the dilated window does not fit the padded input, -2 when the
 * arithmetic overflows, here or in a kernel indexing the last window. */
static int64_t win_out(const OpWin *w, int i, int64_t n) {
  int64_t dk, span, num, end;
  if (__builtin_mul_overflow(w->k[i] - 1, w->d[i], &dk) || __builtin_add_overflow(dk, 1, &dk) ||
      __builtin_add_overflow(n, w->pad[i], &span) ||
      __builtin_add_overflow(span, w->pad[i + 2], &span))
    return -2;
  if (span < dk)
    return -1;
  num = span - dk;
  if (w->ceil && __builtin_add_overflow(num, w->s[i] - 1, &num))
    return -2;
  int64_t o = num / w->s[i] + 1;
  if (__builtin_mul_overflow(o - 1, w->s[i], &end) || __builtin_add_overflow(end, dk, &end))
    return -2;
  return o;
}

bool op_win_outs(OpAttrReader *r, const OpWin *w, const int64_t *in, int64_t *o) {
  static const char *axis[2] = {"height", "width"};
  for (int i = 0; i < 2; i++) {
    if (op_dim_any(in[i]) || op_dim_any(w->k[i])) { /* checked at run time */
      o[i] = IR_DIM_ANY;
      continue;
    }
    o[i] = win_out(w, i, in[i]);
    if (o[i] == -2)
      op_rd_fail(r, "window attributes too large along %s", axis[i]);
    else if (o[i] == -1)
      op_rd_fail(r, "dilated window (%lld) larger than the padded %s (%lld + %lld + %lld)",
                 (long long)((w->k[i] - 1) * w->d[i] + 1), axis[i], (long long)in[i],
                 (long long)w->pad[i], (long long)w->pad[i + 2]);
  }
  return !r->bad;
}

RelStatus op_conv_groups(int64_t c, const int64_t *ws, int64_t groups, char *err, size_t errlen) {
  if (groups < 1)
    return op_fail(err, errlen, "groups must be positive, got %lld", (long long)groups);
  if ((!op_dim_any(c) && c % groups) || (!op_dim_any(ws[0]) && ws[0] % groups))
    return op_fail(err, errlen, "groups=%lld must divide the %lld input and %lld output channels",
                   (long long)groups, (long long)c, (long long)ws[0]);
  if (!op_dims_match(ws[1], op_dim_any(c) ? IR_DIM_ANY : c / groups))
    return op_fail(err, errlen, "weight has %lld input channels, expected %lld / %lld groups",
                   (long long)ws[1], (long long)c, (long long)groups);
  return REL_OK;
}

/* --------------------------------------------------------------- kernels */

OpWin op_win_of(OpId op, const Attrs *at) {
  OpWin w = {.ceil = false};
  OpAttrReader r = {at, NULL, 0, false};
  op_rd_window(&r, &w);
  w.ceil = op_rd_bool(&r, "ceil_mode", false);
  if (op != OP_CONV2D)
    op_rd_pair(&r, "pool_size", w.k);
  assert(!r.bad);
  return w;
}

/* --------------------------------------------------------------- solvers */

/* Smallest slack x = n + pads - dk giving output extent o with stride s:
 * floor mode needs x / s == o - 1, ceil mode ceil(x / s) == o - 1. */
static int64_t axis_x_lo(int64_t o, int64_t s, bool ceil) {
  if (!ceil)
    return op_mul_sat(o - 1, s);
  return o >= 2 ? op_add_sat(op_mul_sat(o - 2, s), 1) : 0;
}

/* Largest slack giving output extent o (see axis_x_lo). */
static int64_t axis_x_hi(int64_t o, int64_t s, bool ceil) {
  int64_t x = op_mul_sat(o - 1, s);
  return ceil ? x : op_add_sat(x, s - 1);
}

/* With stride s and dilated kernel dk the input extent is dk - lo - hi + x
 * for x in [axis_x_lo, axis_x_hi], and the pads can bring dk - lo - hi
 * down to 1 or 2. */
void op_draw_axis(OpSolveCtx *cx, int64_t o, int64_t ncap, bool ceil, OpKernelOk kok,
                  const void *ctx, OpAxis *ax) {
  int64_t cap = op_min64(cx->lim->max_dim, ATTR_CAP), ks[ATTR_CAP];
  int64_t smax = 1;
  while (smax < cap && op_add_sat(axis_x_lo(o, smax + 1, ceil), 1) <= ncap)
    smax++;
  ax->s = op_pick(cx, 1, smax);
  ax->d = op_pick(cx, 1, cap);
  int64_t xlo = axis_x_lo(o, ax->s, ceil);
  int nk = 0;
  for (int64_t k = 1; k <= cap; k++) {
    int64_t dk = (k - 1) * ax->d + 1;
    if (kok(ctx, k) && xlo + dk - 2 * ((dk - 1) / 2) <= ncap)
      ks[nk++] = k;
  }
  ax->k = op_pick_of(cx, ks, nk);
  int64_t dk = (ax->k - 1) * ax->d + 1, half = (dk - 1) / 2, base = xlo + dk;
  ax->lo = op_pick(cx, op_max64(0, base - half - ncap), half);
  ax->hi = op_pick(cx, op_max64(0, base - ax->lo - ncap), half);
  int64_t e = dk - ax->lo - ax->hi;
  ax->n = op_pick(cx, e + xlo, op_min64(op_add_sat(e, axis_x_hi(o, ax->s, ceil)), ncap));
}

void op_set_padding(OpSolveCtx *cx, Attrs *at, const OpAxis *h, const OpAxis *w) {
  int64_t p[4] = {h->lo, w->lo, h->hi, w->hi}, forms[3];
  int n = 0;
  if (p[0] == p[1] && p[1] == p[2] && p[2] == p[3])
    forms[n++] = 1;
  if (p[0] == p[2] && p[1] == p[3])
    forms[n++] = 2;
  forms[n++] = 4;
  ir_attr_set_ints(cx->arena, at, "padding", (int)op_pick_of(cx, forms, n), p);
}

void op_set_pair(OpSolveCtx *cx, Attrs *at, const char *name, int64_t a, int64_t b) {
  int64_t v[2] = {a, b};
  ir_attr_set_ints(cx->arena, at, name, 2, v);
}
