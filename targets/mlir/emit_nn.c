/*
 * emit_nn.c - the operators of the matmul, conv, pool and nn families
 * (compiler/ops's matmul.c, conv.c, pool.c and nn.c): dense and
 * batch_matmul, conv2d, the pools (with the sliding window they share),
 * softmax, bias_add, the normalisations and nn.pad.
 */
#include <assert.h>
#include <math.h>
#include <stdint.h>
#include <string.h>

#include "translate_int.h"

/* ---------------------------------------------------------- matrices */

/* [B, M, K] x [B, K, N] -> [B, M, N]: tosa.matmul for floats;
 * linalg.batch_matmul for int32 (TOSA multiplies 8- and 16-bit integers
 * only), which wraps as relayc does. */
Val *emit_matmul(Fn *f, Val *x, Val *y) {
  int64_t s[3] = {mty_shape(x)[0], mty_shape(x)[1], mty_shape(y)[2]};
  const Type *rt = mty_tensor(f, mty_dtype(x), 3, s);
  if (!ir_dtype_is_float(mty_dtype(x)))
    return emit_linalg(f, "batch_matmul", NULL, x, y, emit_fill(f, rt, 0));
  Val *zp = emit_zero_point(f, mty_dtype(x));
  Val *a[4] = {x, y, zp, zp};
  return emit_tosa(f, "matmul", NULL, rt, 4, a);
}

static const int swap12[3] = {0, 2, 1};

/* nn.dense: D [.., K] x W [O, K]^T as one [1, M, K] x [1, K, O] matmul. */
static Val *emit_dense(Fn *f, Val *d, Val *w, const Type *rt) {
  DType dt = rt->tensor.dtype; /* out_dtype converts the operands first */
  d = emit_cast(f, d, dt);
  w = emit_cast(f, w, dt);
  int64_t k = mty_shape(w)[1], o = mty_shape(w)[0];
  int64_t ds[3] = {1, ir_type_numel(d->type) / k, k}, ws[3] = {1, k, o};
  static const int swap01[2] = {1, 0};
  Val *r = emit_matmul(f, emit_reshape(f, d, 3, ds),
                       emit_reshape(f, emit_transpose(f, w, swap01), 3, ws));
  return emit_reshape(f, r, rt->tensor.rank, rt->tensor.shape);
}

/* nn.batch_matmul: transpose as the flags say, tile a batch of 1. */
static Val *emit_batch_matmul(Fn *f, Val *x, Val *y, const Attrs *at, const Type *rt) {
  DType dt = rt->tensor.dtype;
  x = emit_cast(f, x, dt);
  y = emit_cast(f, y, dt);
  if (ir_attr_bool(at, "transpose_a", false))
    x = emit_transpose(f, x, swap12);
  if (ir_attr_bool(at, "transpose_b", true))
    y = emit_transpose(f, y, swap12);
  int64_t b = rt->tensor.shape[0];
  int64_t xs[3] = {b, mty_shape(x)[1], mty_shape(x)[2]},
          ys[3] = {b, mty_shape(y)[1], mty_shape(y)[2]};
  return emit_matmul(f, emit_expand(f, x, 3, xs), emit_expand(f, y, 3, ys));
}

/* ------------------------------------------------------------- windows */

/* A window (translate_int.h's Win: the sliding window of conv2d and the
 * pools along H (0) and W (1)) from the attributes (nn.c's rd_window; padding has 1, 2 or 4
 * values: all sides; top/bottom and left/right; top, left, bottom, right). */
Win attr_window(const Attrs *at, const int64_t *kernel) {
  Win w = {{kernel[0], kernel[1]}, {1, 1}, {1, 1}, {0, 0}, {0, 0}};
  const int64_t *v;
  if (attr_ints(at, "strides", &v) == 2)
    w.s[0] = v[0], w.s[1] = v[1];
  if (attr_ints(at, "dilation", &v) == 2)
    w.d[0] = v[0], w.d[1] = v[1];
  switch (attr_ints(at, "padding", &v)) {
  case 1: w.lo[0] = w.lo[1] = w.hi[0] = w.hi[1] = v[0]; break;
  case 2:
    w.lo[0] = w.hi[0] = v[0];
    w.lo[1] = w.hi[1] = v[1];
    break;
  case 4:
    w.lo[0] = v[0], w.lo[1] = v[1];
    w.hi[0] = v[2], w.hi[1] = v[3];
    break;
  default: break;
  }
  return w;
}

/* The padded extent output extent o needs along axis i: (o - 1) * s + dk.
 * TOSA wants exactly that (its verifier checks the division is exact), so
 * the bottom/right padding becomes need - lo - n: Relay's written padding
 * trimmed, input rows cropped (negative), or ceil mode's overhang. */
int64_t attr_win_need(const Win *w, int i, int64_t o) {
  return (o - 1) * w->s[i] + (w->k[i] - 1) * w->d[i] + 1;
}

/* NCHW x padded with v and cropped to exactly the extents the output
 * needs, so that a window operation without padding gives the output. */
static Val *emit_window_input(Fn *f, Val *x, const Win *w, const int64_t *o, double v) {
  int64_t lo[4] = {0, 0, w->lo[0], w->lo[1]}, hi[4] = {0, 0, 0, 0}, start[4] = {0};
  int64_t size[4] = {mty_shape(x)[0], mty_shape(x)[1], attr_win_need(w, 0, o[0]),
                     attr_win_need(w, 1, o[1])};
  for (int i = 0; i < 2; i++) {
    int64_t h = size[2 + i] - w->lo[i] - mty_shape(x)[2 + i];
    hi[2 + i] = h > 0 ? h : 0;
  }
  return emit_slice(f, emit_pad(f, x, lo, hi, v), start, size);
}

/* The TOSA pad attribute (top, bottom, left, right) for x and the output
 * extents o, cropping x when Relay's padding is more than the output
 * needs; false when that cannot be expressed (padding at least `limit`,
 * or a window that lies wholly in the padding). */
static bool tosa_pads(Fn *f, Val **x, const Win *w, const int64_t *o, int64_t limit[2],
                      int64_t *p) {
  int64_t start[4] = {0}, size[4];
  memcpy(size, mty_shape(*x), sizeof size);
  for (int i = 0; i < 2; i++) {
    int64_t n = mty_shape(*x)[2 + i], hi = attr_win_need(w, i, o[i]) - w->lo[i] - n;
    if (hi < 0)
      size[2 + i] = n + hi, hi = 0;
    if (size[2 + i] < 1 || w->lo[i] >= limit[i] || hi >= limit[i])
      return false;
    p[2 * i] = w->lo[i];
    p[2 * i + 1] = hi;
  }
  *x = emit_slice(f, *x, start, size);
  return true;
}

static const int to_nhwc[4] = {0, 2, 3, 1}, to_nchw[4] = {0, 3, 1, 2};

/* "pad = array<i64: t, b, l, r>, stride = array<i64: h, w>" */
static char *pad_stride(Fn *f, const int64_t *p, const Win *w) {
  return arena_printf(f->t->a,
                      "pad = array<i64: %lld, %lld, %lld, %lld>, stride = array<i64: %lld, %lld>",
                      (long long)p[0], (long long)p[1], (long long)p[2], (long long)p[3],
                      (long long)w->s[0], (long long)w->s[1]);
}

/* "dilations = dense<..>, strides = dense<..>" for linalg's convolutions
 * and poolings. */
char *attr_linalg_window(Fn *f, const Win *w) {
  return arena_printf(f->t->a,
                      "{dilations = dense<[%lld, %lld]> : tensor<2xi64>, strides = "
                      "dense<[%lld, %lld]> : tensor<2xi64>}",
                      (long long)w->d[0], (long long)w->d[1], (long long)w->s[0],
                      (long long)w->s[1]);
}

/* A float conv2d of one group (or, depthwise, of every group at once
 * when each has one input channel): tosa.conv2d or tosa.depthwise_conv2d
 * on NHWC data and OHWI (depthwise: HWCM) weights. */
static Val *emit_conv_tosa(Fn *f, Val *x, Val *wt, const Win *w, const int64_t *o, bool depthwise) {
  int64_t p[4] = {0}, nolimit[2] = {INT64_MAX, INT64_MAX};
  if (!tosa_pads(f, &x, w, o, nolimit, p))
    x = emit_window_input(f, x, w, o, 0);
  int64_t n = mty_shape(x)[0], c = mty_shape(x)[1], oc = mty_shape(wt)[0];
  Val *wn;
  if (depthwise) {
    static const int hwcm[4] = {2, 3, 0, 1};
    int64_t s[4] = {c, oc / c, mty_shape(wt)[2], mty_shape(wt)[3]};
    wn = emit_transpose(f, emit_reshape(f, wt, 4, s), hwcm);
  } else {
    wn = emit_transpose(f, wt, to_nhwc);
  }
  Val *zp = emit_zero_point(f, mty_dtype(x));
  Val *a[5] = {emit_transpose(f, x, to_nhwc), wn, zp, zp, zp};
  int64_t rs[4] = {n, o[0], o[1], oc};
  char *attrs = arena_printf(f->t->a, "acc_type = %s, dilation = array<i64: %lld, %lld>, %s",
                             mty_elem(mty_dtype(x)), (long long)w->d[0], (long long)w->d[1],
                             pad_stride(f, p, w));
  Val *r = emit_tosa(f, depthwise ? "depthwise_conv2d" : "conv2d", attrs,
                     mty_tensor(f, mty_dtype(x), 4, rs), 5, a);
  return emit_transpose(f, r, to_nchw);
}

/* An integer conv2d of one group: linalg.conv_2d_nchw_fchw on the
 * explicitly padded input (TOSA convolves 8- and 16-bit integers only);
 * the arithmetic wraps, as relayc's. */
static Val *emit_conv_linalg(Fn *f, Val *x, Val *wt, const Win *w, const int64_t *o) {
  x = emit_window_input(f, x, w, o, 0);
  int64_t rs[4] = {mty_shape(x)[0], mty_shape(wt)[0], o[0], o[1]};
  return emit_linalg(f, "conv_2d_nchw_fchw", attr_linalg_window(f, w), x, wt,
                     emit_fill(f, mty_tensor(f, mty_dtype(x), 4, rs), 0));
}

/* nn.conv2d (NCHW, OIHW): per group a convolution, joined along C. */
Val *emit_conv2d(Fn *f, Val *x, Val *wt, const Attrs *at, const Type *rt) {
  DType dt = rt->tensor.dtype;
  x = emit_cast(f, x, dt);
  wt = emit_cast(f, wt, dt);
  Win w = attr_window(at, mty_shape(wt) + 2);
  int64_t g = ir_attr_int(at, "groups", 1), o[2] = {rt->tensor.shape[2], rt->tensor.shape[3]};
  int64_t ic = mty_shape(x)[1], oc = mty_shape(wt)[0];
  bool fl = ir_dtype_is_float(dt);
  if (fl && g > 1 && g == ic)
    return emit_conv_tosa(f, x, wt, &w, o, true);
  Val **parts = ARENA_ARRAY(f->t->a, Val *, g);
  for (int64_t i = 0; i < g; i++) {
    int64_t xs[4] = {0, i * (ic / g), 0, 0},
            xz[4] = {mty_shape(x)[0], ic / g, mty_shape(x)[2], mty_shape(x)[3]};
    int64_t ws[4] = {i * (oc / g), 0, 0, 0},
            wz[4] = {oc / g, mty_shape(wt)[1], mty_shape(wt)[2], mty_shape(wt)[3]};
    Val *xg = emit_slice(f, x, xs, xz), *wg = emit_slice(f, wt, ws, wz);
    parts[i] = fl ? emit_conv_tosa(f, xg, wg, &w, o, false) : emit_conv_linalg(f, xg, wg, &w, o);
  }
  return emit_concat(f, (int)g, parts, 1);
}

/* The permutation that takes a tensor in layout `from` to layout `to`
 * (four letters each, the same ones: a transpose's result dim i is dim
 * perm[i] of its input). */
static void layout_perm(const char *from, const char *to, int perm[4]) {
  for (int i = 0; i < 4; i++)
    perm[i] = (int)(strchr(from, to[i]) - from);
}

Val *emit_conv2d_layouts(Fn *f, Val *x, Val *wt, const Attrs *at, const Type *rt, ConvFn *conv,
                         TransposeFn *transpose) {
  const char *dl = ir_attr_str(at, "data_layout", "NCHW"),
             *kl = ir_attr_str(at, "kernel_layout", "OIHW");
  int p[4];
  if (strcmp(kl, "OIHW")) {
    layout_perm(kl, "OIHW", p);
    wt = transpose(f, wt, p);
  }
  if (!strcmp(dl, "NCHW"))
    return conv(f, x, wt, at, rt);
  layout_perm(dl, "NCHW", p);
  int64_t s[4];
  for (int i = 0; i < 4; i++)
    s[i] = rt->tensor.shape[p[i]];
  Val *r = conv(f, transpose(f, x, p), wt, at, ir_tensor_type(f->t->a, rt->tensor.dtype, 4, s));
  layout_perm("NCHW", dl, p);
  return transpose(f, r, p);
}

/* "tensor.empty() : tensor<KHxKW>": the window shape linalg's poolings
 * take. */
static Val *emit_empty(Fn *f, const Type *t) {
  Val *v = fn_def(f, t, NULL);
  fn_out(f, "tensor.empty() : %s\n", v->ty);
  return v;
}

/* tosa.max_pool2d or tosa.avg_pool2d (op) of NCHW x with the TOSA
 * padding p, on NHWC. */
static Val *emit_pool_tosa(Fn *f, const char *op, Val *x, const Win *w, const int64_t *p,
                           const Type *rt) {
  bool avg = strcmp(op, "avg_pool2d") == 0;
  int64_t rs[4] = {rt->tensor.shape[0], rt->tensor.shape[2], rt->tensor.shape[3],
                   rt->tensor.shape[1]};
  char *attrs =
      arena_printf(f->t->a, "%skernel = array<i64: %lld, %lld>, %s", avg ? "acc_type = f32, " : "",
                   (long long)w->k[0], (long long)w->k[1], pad_stride(f, p, w));
  Val *a[3] = {emit_transpose(f, x, to_nhwc), NULL, NULL};
  if (avg)
    a[1] = a[2] = emit_zero_point(f, mty_dtype(x));
  Val *r = emit_tosa(f, op, attrs, mty_tensor(f, mty_dtype(x), 4, rs), avg ? 3 : 1, a);
  return emit_transpose(f, r, to_nchw);
}

/* nn.max_pool2d: padding is the lowest value (-inf, INT_MIN), a NaN wins.
 * tosa.max_pool2d for float32 without dilation when its padding can stay
 * below the kernel; otherwise linalg.pooling_nchw_max on the explicitly
 * padded input (int32, dilation, windows wholly in the padding). */
static Val *emit_max_pool(Fn *f, Val *x, const Win *w, const Type *rt) {
  int64_t o[2] = {rt->tensor.shape[2], rt->tensor.shape[3]}, p[4], k[2] = {w->k[0], w->k[1]};
  bool fl = ir_dtype_is_float(mty_dtype(x));
  double lowest = fl ? -INFINITY : (double)INT32_MIN;
  if (fl && w->d[0] == 1 && w->d[1] == 1 && tosa_pads(f, &x, w, o, k, p))
    return emit_pool_tosa(f, "max_pool2d", x, w, p, rt);
  Val *xe = emit_window_input(f, x, w, o, lowest);
  Val *kw = emit_empty(f, mty_tensor(f, mty_dtype(x), 2, w->k));
  return emit_linalg(f, "pooling_nchw_max", attr_linalg_window(f, w), xe, kw,
                     emit_fill(f, rt, lowest));
}

/* How many taps of window o along axis i count for the average: inside
 * the input, or (count_include_pad) inside input and written padding. */
static int64_t avg_count(const Win *w, int i, int64_t n, int64_t o, bool cip) {
  int64_t c = 0;
  for (int64_t t = 0; t < w->k[i]; t++) {
    int64_t at = o * w->s[i] - w->lo[i] + t * w->d[i];
    c += cip ? at <= n - 1 + w->hi[i] : at >= 0 && at < n;
  }
  return c;
}

/* nn.avg_pool2d: the sum of the counted taps over their count (0 when
 * none).  tosa.avg_pool2d divides by the taps outside its pad attribute,
 * so without dilation: count_include_pad pads explicitly first (those
 * zeros count) and the attribute holds only what must not count.
 * Otherwise linalg.pooling_nchw_sum times a constant 1 / count. */
static Val *emit_avg_pool(Fn *f, Val *x, const Win *w, bool cip, const Type *rt) {
  int64_t o[2] = {rt->tensor.shape[2], rt->tensor.shape[3]}, p[4], k[2] = {w->k[0], w->k[1]};
  if (w->d[0] == 1 && w->d[1] == 1) {
    Win v = *w;
    Val *y = x;
    if (cip) {
      int64_t lo[4] = {0, 0, w->lo[0], w->lo[1]}, hi[4] = {0, 0, w->hi[0], w->hi[1]};
      y = emit_pad(f, x, lo, hi, 0);
      v.lo[0] = v.lo[1] = v.hi[0] = v.hi[1] = 0;
    }
    if (tosa_pads(f, &y, &v, o, k, p))
      return emit_pool_tosa(f, "avg_pool2d", y, &v, p, rt);
  }
  Val *xe = emit_window_input(f, x, w, o, 0);
  Val *kw = emit_empty(f, mty_tensor(f, mty_dtype(x), 2, w->k));
  Val *sum =
      emit_linalg(f, "pooling_nchw_sum", attr_linalg_window(f, w), xe, kw, emit_fill(f, rt, 0));
  int64_t cs[4] = {1, 1, o[0], o[1]};
  Tensor *inv = ir_tensor_new(f->t->a, mty_dtype(x), 4, cs);
  for (int64_t y = 0; y < o[0]; y++)
    for (int64_t z = 0; z < o[1]; z++) {
      int64_t c =
          avg_count(w, 0, mty_shape(x)[2], y, cip) * avg_count(w, 1, mty_shape(x)[3], z, cip);
      ir_tensor_set_f64(inv, y * o[1] + z, c ? 1.0 / (double)c : 0);
    }
  return emit_mul(f, sum, emit_const(f, inv));
}

/* nn.global_avg_pool2d: tosa.avg_pool2d with the whole H x W as window. */
static Val *emit_global_avg_pool(Fn *f, Val *x, const Type *rt) {
  Win w = {{mty_shape(x)[2], mty_shape(x)[3]}, {1, 1}, {1, 1}, {0, 0}, {0, 0}};
  int64_t p[4] = {0};
  return emit_pool_tosa(f, "avg_pool2d", x, &w, p, rt);
}

/* ----------------------------------------------------------- axis-wise */

/* v (a vector along x's axis) shaped to broadcast against x. */
static Val *emit_along(Fn *f, Val *v, const Val *x, int axis) {
  int64_t shape[IR_MAX_RANK];
  for (int i = 0; i < mty_rank(x); i++)
    shape[i] = i == axis ? mty_shape(v)[0] : 1;
  return emit_reshape(f, v, mty_rank(x), shape);
}

/* x / y with y broadcast to x's shape: exact IEEE division (arith.divf:
 * TOSA has none). */
static Val *emit_divide(Fn *f, Val *x, Val *y) {
  Val *a[2] = {x, emit_expand(f, y, mty_rank(x), mty_shape(x))};
  return emit_arith(f, "arith.divf", 2, a);
}

/* sqrt(v + eps) for the normalisations. */
static Val *emit_root_eps(Fn *f, Val *v, double eps) {
  Val *s;
  if ((float)eps != 0) {
    s = emit_bin(f, "add", v, emit_scalar_like(f, v, (float)eps));
  } else { /* still + 0 (-0 becomes +0), which MLIR 22.1 folds away in
              tosa.add but not in arith.addf (docs/findings/mlir.md #5) */
    Val *a[2] = {v, emit_fill(f, v->type, 0)};
    s = emit_arith(f, "arith.addf", 2, a);
  }
  return emit_arith(f, "math.sqrt", 1, &s);
}

/* softmax = exp(x - max) / sum exp(x - max), log_softmax = x - max -
 * log sum exp(x - max), along the axis (the terms are in (0, 1], so a
 * float32 sum is as good as relayc's double one). */
static Val *emit_softmax(Fn *f, OpId op, Val *x, const Attrs *at) {
  uint32_t m = 1u << attr_axis(ir_attr_int(at, "axis", -1), mty_rank(x));
  Val *d = emit_bin(f, "sub", x, emit_reduce_each(f, "reduce_max", x, m));
  Val *e = emit_tosa1(f, "exp", d, d->type);
  Val *s = emit_reduce_each(f, "reduce_sum", e, m);
  if (op == OP_SOFTMAX)
    return emit_mul(f, e, emit_tosa1(f, "reciprocal", s, s->type));
  return emit_bin(f, "sub", d, emit_tosa1(f, "log", s, s->type));
}

/* nn.batch_norm with the moving statistics: (x - mean) / sqrt(var + eps)
 * * gamma + beta, and mean and var passed through. */
static Val *emit_batch_norm(Fn *f, Val **a, const Attrs *at) {
  Val *x = a[0];
  int axis = attr_axis(ir_attr_int(at, "axis", 1), mty_rank(x));
  Val *r = emit_bin(f, "sub", x, emit_along(f, a[3], x, axis));
  r = emit_divide(
      f, r, emit_root_eps(f, emit_along(f, a[4], x, axis), ir_attr_float(at, "epsilon", 1e-5)));
  if (ir_attr_bool(at, "scale", true))
    r = emit_mul(f, r, emit_along(f, a[1], x, axis));
  if (ir_attr_bool(at, "center", true))
    r = emit_bin(f, "add", r, emit_along(f, a[2], x, axis));
  Val *v = ARENA_NEW(f->t->a, Val);
  v->n = 3;
  v->f = ARENA_ARRAY(f->t->a, Val *, 3);
  v->f[0] = r;
  v->f[1] = a[3];
  v->f[2] = a[4];
  return v;
}

/* nn.layer_norm: the mean and (population) variance of each slice along
 * the axis accumulated in double, as relayc's kernel does (a float32 mean
 * of equal values can miss them by an ulp, which the division by
 * sqrt(eps) would magnify), then the rest in float32. */
static Val *emit_layer_norm(Fn *f, Val **a, const Attrs *at) {
  Val *x = a[0];
  int axis = attr_axis(ir_attr_int(at, "axis", -1), mty_rank(x));
  Val *d = emit_bin(f, "sub", x, emit_float_sum(f, x, 1u << axis, true));
  Val *var = emit_float_sum(f, emit_mul(f, d, d), 1u << axis, true);
  Val *r = emit_divide(f, d, emit_root_eps(f, var, ir_attr_float(at, "epsilon", 1e-5)));
  if (ir_attr_bool(at, "scale", true))
    r = emit_mul(f, r, emit_along(f, a[1], x, axis));
  if (ir_attr_bool(at, "center", true))
    r = emit_bin(f, "add", r, emit_along(f, a[2], x, axis));
  return r;
}

/* x with dim `axis` replaced by the elements at src[0 .. n): runs of
 * consecutive indices become one slice, runs going down a reversed one. */
static Val *emit_axis_gather(Fn *f, Val *x, int axis, const int64_t *src, int64_t n) {
  Val **parts = ARENA_ARRAY(f->t->a, Val *, n);
  int np = 0;
  for (int64_t i = 0, j; i < n; i = j) {
    int64_t dir = i + 1 < n && (src[i + 1] == src[i] + 1 || src[i + 1] == src[i] - 1)
                      ? src[i + 1] - src[i]
                      : 0;
    for (j = i + 1; dir && j < n && src[j] == src[j - 1] + dir; j++)
      ;
    int64_t start[IR_MAX_RANK] = {0}, size[IR_MAX_RANK];
    memcpy(size, mty_shape(x), sizeof size);
    start[axis] = dir < 0 ? src[j - 1] : src[i];
    size[axis] = j - i;
    Val *p = emit_slice(f, x, start, size);
    parts[np++] = dir < 0 ? emit_reverse(f, p, axis) : p;
  }
  return emit_concat(f, np, parts, axis);
}

/* nn.pad.  Constant mode: crop where a pad is negative, then tosa.pad;
 * its pad value must be a compile-time constant, so a value known only at
 * run time is selected in with a mask.  Edge and reflect: per padded
 * axis, the source index of each output position (pad.c's k_pad),
 * gathered with slices. */
static Val *emit_pad_op(Fn *f, const Expr *e, Val **a, const Type *rt) {
  Val *x = a[0];
  const Attrs *at = &e->call.attrs;
  const Attr *pw = ir_attr_get(at, "pad_width");
  const char *mode = ir_attr_str(at, "pad_mode", "constant");
  int r = mty_rank(x);
  int64_t lo[IR_MAX_RANK] = {0}, hi[IR_MAX_RANK] = {0};
  for (int i = 0; pw && pw->kind == AV_PAIRS && i < r; i++)
    lo[i] = pw->ints[2 * i], hi[i] = pw->ints[2 * i + 1];
  if (strcmp(mode, "constant") != 0) {
    for (int i = 0; i < r; i++) {
      if (lo[i] == 0 && hi[i] == 0)
        continue;
      int64_t n = mty_shape(x)[i], m = rt->tensor.shape[i];
      int64_t *src = ARENA_ARRAY(f->t->a, int64_t, m);
      for (int64_t o = 0; o < m; o++) {
        int64_t k = o - lo[i];
        if (k < 0 || k >= n)
          k = mode[0] == 'e' ? (k < 0 ? 0 : n - 1) : (k < 0 ? -k : 2 * (n - 1) - k);
        src[o] = k;
      }
      x = emit_axis_gather(f, x, i, src, m);
    }
    return x;
  }
  int64_t start[IR_MAX_RANK], size[IR_MAX_RANK];
  for (int i = 0; i < r; i++) {
    start[i] = lo[i] < 0 ? -lo[i] : 0;
    size[i] = mty_shape(x)[i] - start[i] - (hi[i] < 0 ? -hi[i] : 0);
    lo[i] = lo[i] > 0 ? lo[i] : 0;
    hi[i] = hi[i] > 0 ? hi[i] : 0;
  }
  x = emit_slice(f, x, start, size);
  const Expr *v = e->call.args[1];
  if (v->kind == EX_CONST) {
    /* The value converted to x's dtype as relayc's kernel converts it. */
    Tensor *c = ir_tensor_new(f->t->a, mty_dtype(x), 0, NULL);
    if (ir_dtype_is_float(v->constant->dtype) || ir_dtype_is_float(c->dtype))
      ir_tensor_set_f64(c, 0, ir_tensor_get_f64(v->constant, 0));
    else
      ir_tensor_set_i64(c, 0, ir_tensor_get_i64(v->constant, 0));
    return emit_pad(f, x, lo, hi, ir_tensor_get_f64(c, 0));
  }
  Val *p = emit_pad(f, x, lo, hi, 0);
  Val *val = emit_expand(f, emit_cast(f, a[1], mty_dtype(x)), r, mty_shape(p));
  return emit_select(f, emit_pad_mask(f, x, lo, hi), p, val);
}

Val *emit_nn(Fn *f, const Expr *e, Val **a, const Type *rt) {
  OpId op = e->call.op;
  const Attrs *at = &e->call.attrs;
  switch (op) {
  case OP_DENSE: return emit_dense(f, a[0], a[1], rt);
  case OP_BATCH_MATMUL: return emit_batch_matmul(f, a[0], a[1], at, rt);
  case OP_CONV2D: return emit_conv2d_layouts(f, a[0], a[1], at, rt, emit_conv2d, emit_transpose);
  case OP_MAX_POOL2D:
  case OP_AVG_POOL2D: {
    const int64_t *ps;
    int64_t k[2] = {1, 1};
    if (attr_ints(at, "pool_size", &ps) == 2)
      k[0] = ps[0], k[1] = ps[1];
    Win w = attr_window(at, k);
    return op == OP_MAX_POOL2D
               ? emit_max_pool(f, a[0], &w, rt)
               : emit_avg_pool(f, a[0], &w, ir_attr_bool(at, "count_include_pad", false), rt);
  }
  case OP_GLOBAL_AVG_POOL2D: return emit_global_avg_pool(f, a[0], rt);
  case OP_SOFTMAX:
  case OP_LOG_SOFTMAX: return emit_softmax(f, op, a[0], at);
  case OP_BIAS_ADD:
    return emit_bin(
        f, "add", a[0],
        emit_along(f, a[1], a[0], attr_axis(ir_attr_int(at, "axis", 1), mty_rank(a[0]))));
  case OP_BATCH_NORM: return emit_batch_norm(f, a, at);
  case OP_LAYER_NORM: return emit_layer_norm(f, a, at);
  case OP_PAD: return emit_pad_op(f, e, a, rt);
  default: assert(!"not an nn operator"); return a[0];
  }
}
