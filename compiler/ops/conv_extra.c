/*
 * conv_extra.c - nn.conv1d and nn.conv2d_transpose: relations,
 * recognizers, solvers, samplers and kernels.  The relations follow
 * Relay's Conv1DRel and Conv2DTransposeRel, the kernels topi's conv1d_ncw
 * and (group_)conv2d_transpose_nchw, with these deliberate choices:
 *
 *   dtypes   data and weight have one numeric dtype (not bool); integer
 *            arithmetic wraps.  out_dtype "" means the input's dtype; an
 *            explicit out_dtype converts both operands to it first (floats
 *            to ints saturate, as in cast) and accumulates in it.
 *   layouts  conv1d NCW data and OIW weight; conv2d_transpose NCHW data
 *            and IOHW weight [C, O / groups, KH, KW]; out_layout "" or the
 *            data layout.
 *   conv1d   as nn.conv2d along one axis (conv.c): padding has 1 value
 *            (both sides) or 2 (left, right); a tap in the zero padding
 *            still multiplies its weight (0 * NaN = NaN).
 *   transp.  output extent (H - 1) * stride + (K - 1) * dilation + 1 -
 *            pad_top - pad_bottom + output_padding (Relay's formula),
 *            which must not be negative; output_padding below the stride
 *            (topi's check).  The output has O = groups * W's dim 1
 *            channels, as topi computes it (Relay's relation says W's dim
 *            1, which disagrees with topi for groups > 1; the channels
 *            attribute is O, as Relay checks channels / groups against W).
 *            R[n, o, y, x] = sum over the input channels c of o's group
 *            and every tap (ky, kx) of W[c, o mod O/groups, ky, kx] * D,
 *            where D = A[n, c, t / stride, ...] with t = y + pad_top -
 *            ky * dilation when t is a multiple of the stride and inside
 *            the input, else 0: the zeros TVM's dilated and padded input
 *            holds still multiply their weights (0 * NaN = NaN).  TVM
 *            computes dilation 1 only; larger dilations spread the taps.
 *
 * Solvers.  Every freedom is drawn from a range of values each of which
 * can still be completed within the limits: groups, the input channels
 * per group, then each spatial axis (conv1d's as compiler/ops/window.c
 * draws conv2d's; conv2d_transpose's stride, dilation, kernel and output
 * padding, then an input extent no larger than the output's, the padding
 * making up the difference).  So a solver never fails once the recognizer
 * has said yes, and choice 0 is the simplest option (one group, the
 * smallest kernel, stride 1, no padding).  Samplers draw a recognisable
 * result type and solve for it.
 */
#include <string.h>

#include "op_int.h"

enum { CAP = 32 }; /* largest stride, dilation or kernel extent a solver invents */

/* --------------------------------------------------------------- helpers */

/* Reads a list attribute of n (1 or 2) positive values (default all 1). */
static void rd_list(OpAttrReader *r, const char *name, int n, int64_t *v, int64_t lo) {
  static const int64_t ones[2] = {1, 1}, zeros[2] = {0, 0};
  int k = op_rd_ints(r, name, n, v, n, lo ? ones : zeros, false);
  if (r->bad)
    return;
  if (k != n)
    op_rd_fail(r, "%s must have %d value%s, got %d", name, n, n > 1 ? "s" : "", k);
  for (int i = 0; i < k && !r->bad; i++)
    if (v[i] < lo)
      op_rd_fail(r, "%s must be %s, got %lld", name, lo ? "positive" : "non-negative",
                 (long long)v[i]);
}

/* Reads padding for nsp spatial axes into lo[nsp] and hi[nsp]: 1 value
 * for every side, nsp values (each axis both sides) or 2 * nsp (the
 * starts, then the ends). */
static void rd_pads(OpAttrReader *r, int nsp, int64_t *lo, int64_t *hi) {
  static const int64_t zeros[4] = {0, 0, 0, 0};
  int64_t p[4];
  int n = op_rd_ints(r, "padding", 4, p, nsp, zeros, false);
  if (r->bad)
    return;
  for (int i = 0; i < nsp; i++) {
    if (n == 1)
      lo[i] = hi[i] = p[0];
    else if (n == nsp)
      lo[i] = hi[i] = p[i];
    else if (n == 2 * nsp)
      lo[i] = p[i], hi[i] = p[nsp + i];
    else {
      op_rd_fail(r, "padding must have 1, %d or %d values, got %d", nsp, 2 * nsp, n);
      return;
    }
    if (lo[i] < 0 || hi[i] < 0) {
      op_rd_fail(r, "padding must be non-negative");
      return;
    }
  }
}

/* Reads the layouts: data_layout, kernel_layout and out_layout ("" or the
 * data layout). */
static void rd_layouts(OpAttrReader *r, const char *data, const char *kernel) {
  op_rd_layout(r, "data_layout", data);
  op_rd_layout(r, "kernel_layout", kernel);
  const char *o = op_rd_str(r, "out_layout", "");
  if (!r->bad && o[0] && strcmp(o, data) != 0)
    op_rd_fail(r, "out_layout \"%s\" is not supported; only \"\" or \"%s\"", o, data);
}

/* Reads channels and kernel_size (nsp values) when set: the counts. */
static int rd_channels_ksize(OpAttrReader *r, int nsp, int64_t *channels, int64_t *ksize,
                             bool *has_channels) {
  *has_channels = op_rd_opt_int(r, "channels", channels);
  return op_rd_ints(r, "kernel_size", nsp, ksize, 0, NULL, true);
}

/* Writes channels and kernel_size (nsp values), each set or None. */
static void set_channels_ksize(OpSolveCtx *cx, Attrs *at, int64_t channels, int nsp,
                               const int64_t *ksize) {
  if (op_choose(cx->ch, 2))
    ir_attr_set_int(cx->arena, at, "channels", channels);
  else
    ir_attr_set_none(cx->arena, at, "channels");
  if (op_choose(cx->ch, 2))
    ir_attr_set_ints(cx->arena, at, "kernel_size", nsp, ksize);
  else
    ir_attr_set_none(cx->arena, at, "kernel_size");
}

/* The c-th divisor g of o (all of them when o is 0: just 1) for which
 * ok(t, lim, g) holds. */
static int64_t pick_groups(OpSolveCtx *cx, int64_t o,
                           bool (*ok)(const Type *, const OpLimits *, int64_t), const Type *t) {
  uint32_t n = 0;
  for (int64_t g = 1; g <= (o ? op_min64(o, cx->lim->max_dim) : 1); g++)
    n += (o ? o % g == 0 : g == 1) && ok(t, cx->lim, g);
  uint32_t c = op_choose(cx->ch, n);
  for (int64_t g = 1;; g++)
    if ((o ? o % g == 0 : g == 1) && ok(t, cx->lim, g) && c-- == 0)
      return g;
}

/* ---------------------------------------------------------------- conv1d */

/* nn.conv1d(data [N, C, W], weight [O, C / groups, K]) -> [N, O, OW]. */

RelStatus rel_conv1d(OpId op, Type *const *args, int nargs, const Attrs *at, Arena *a, Type **out,
                     char *err, size_t errlen) {
  RelStatus st = op_want_tensors(args, nargs, 2, err, errlen);
  if (st != REL_OK)
    return st;
  OpAttrReader r = op_rd_begin(op, at, err, errlen);
  const Type *d = args[0], *wt = args[1];
  int64_t s, dil, lo, hi, channels = 0, ksize;
  bool has_channels;
  rd_list(&r, "strides", 1, &s, 1);
  rd_pads(&r, 1, &lo, &hi);
  rd_list(&r, "dilation", 1, &dil, 1);
  int64_t groups = op_rd_int(&r, "groups", 1);
  int nks = rd_channels_ksize(&r, 1, &channels, &ksize, &has_channels);
  rd_layouts(&r, "NCW", "OIW");
  DType odt = op_rd_out_dtype(&r, d->tensor.dtype);
  if (r.bad || !op_want_same_numeric(&r, d, wt))
    return REL_ERROR;
  if (d->tensor.rank != 3 || wt->tensor.rank != 3)
    return op_fail(err, errlen, "data and weight must have rank 3, got %d and %d", d->tensor.rank,
                   wt->tensor.rank);
  const int64_t *ds = d->tensor.shape, *ws = wt->tensor.shape;
  if ((st = op_conv_groups(ds[1], ws, groups, err, errlen)) != REL_OK)
    return st;
  if (has_channels && !op_dim_allows(ws[0], channels))
    return op_fail(err, errlen, "channels=%lld but the weight has %lld output channels",
                   (long long)channels, (long long)ws[0]);
  if (nks >= 0 && (nks != 1 || !op_dim_allows(ws[2], ksize)))
    return op_fail(err, errlen, "kernel_size does not match the weight's %lld", (long long)ws[2]);
  int64_t k = op_dim_any(ws[2]) && nks == 1 ? ksize : ws[2], o = IR_DIM_ANY;
  if (!op_dim_any(k) && k < 1)
    return op_fail(err, errlen, "kernel must be at least 1 wide");
  if (!op_dim_any(ds[2]) && !op_dim_any(k)) {
    int64_t dk, span;
    if (__builtin_mul_overflow(k - 1, dil, &dk) || __builtin_add_overflow(dk, 1, &dk) ||
        __builtin_add_overflow(ds[2], lo, &span) || __builtin_add_overflow(span, hi, &span))
      return op_fail(err, errlen, "window attributes too large");
    if (span < dk)
      return op_fail(err, errlen, "dilated kernel (%lld) wider than the padded input (%lld)",
                     (long long)dk, (long long)span);
    o = (span - dk) / s + 1;
  }
  int64_t shape[3] = {ds[0], op_dim_any(ws[0]) && has_channels && channels >= 0 ? channels : ws[0],
                      o};
  *out = ir_tensor_type(a, odt, 3, shape);
  return REL_OK;
}

/* What the conv1d solver knows while drawing. */
typedef struct Conv1Plan {
  const OpLimits *lim;
  int64_t out_c, out_numel, cg;
} Conv1Plan;

/* Kernel extent k keeps the weight [O, cg, k] within the limits. */
static bool conv1_k_ok(const void *ctx, int64_t k) {
  const Conv1Plan *p = ctx;
  int64_t per = op_mul_sat(p->cg, k);
  return k <= p->lim->max_dim && op_mul_sat(p->out_c, per) <= p->lim->max_numel &&
         op_mul_sat(p->out_numel, per) <= p->lim->max_flops;
}

/* Groups g leave room for one input channel per group. */
static bool conv1_groups_ok(const Type *t, const OpLimits *lim, int64_t g) {
  const int64_t *s = t->tensor.shape;
  return g <= lim->max_dim && op_mul_sat(op_mul_sat(s[0], g), s[2]) <= lim->max_numel;
}

bool rec_conv1d(OpId op, const Type *want, const OpLimits *lim) {
  if (!op_fits_dims(lim, want, OP_NUMERIC) || want->tensor.rank != 3 || want->tensor.shape[2] < 1)
    return false;
  Conv1Plan p = {lim, want->tensor.shape[1], op_numel_sat(3, want->tensor.shape), 1};
  return conv1_groups_ok(want, lim, 1) && conv1_k_ok(&p, 1);
}

bool solve_conv1d(OpId op, const Type *want, OpSolveCtx *cx, OpSig *sig) {
  if (!rec_conv1d(op, want, cx->lim))
    return false;
  op_sig_start(cx, sig, 2, NULL);
  const OpLimits *lim = cx->lim;
  const int64_t *s = want->tensor.shape;
  Conv1Plan p = {lim, s[1], op_numel_sat(3, s), 1};
  int64_t g = pick_groups(cx, s[1], conv1_groups_ok, want);
  int64_t cgmax =
      op_min64(lim->max_dim / g, op_quota(lim->max_numel, op_mul_sat(op_mul_sat(s[0], g), s[2])));
  cgmax = op_min64(cgmax, op_quota(lim->max_numel, s[1]));
  p.cg = op_pick(cx, 1, op_min64(cgmax, op_quota(lim->max_flops, p.out_numel)));
  int64_t ic = g * p.cg;
  OpAxis w;
  op_draw_axis(cx, s[2], op_min64(lim->max_dim, op_quota(lim->max_numel, op_mul_sat(s[0], ic))),
               false, conv1_k_ok, &p, &w);
  Attrs *at = &sig->attrs;
  ir_attr_set_ints(cx->arena, at, "strides", 1, &w.s);
  int64_t pads[2] = {w.lo, w.hi};
  ir_attr_set_ints(cx->arena, at, "padding", w.lo == w.hi && op_choose(cx->ch, 2) ? 1 : 2, pads);
  ir_attr_set_ints(cx->arena, at, "dilation", 1, &w.d);
  ir_attr_set_int(cx->arena, at, "groups", g);
  set_channels_ksize(cx, at, s[1], 1, &w.k);
  ir_attr_set_str(cx->arena, at, "data_layout", "NCW");
  ir_attr_set_str(cx->arena, at, "kernel_layout", "OIW");
  DType in = op_pick_out_dtype(cx, at, want->tensor.dtype);
  int64_t ds[3] = {s[0], ic, w.n}, ws[3] = {s[1], p.cg, w.k};
  sig->args[0] = op_tensor(cx, in, 3, ds);
  sig->args[1] = op_tensor(cx, in, 3, ws);
  return op_sig_claim(cx, sig, want);
}

bool sample_conv1d(OpId op, OpSolveCtx *cx, OpSig *sig) {
  return op_sample_tensor(solve_conv1d, op, cx, sig, 3,
                          op_min64(cx->lim->max_numel, cx->lim->max_flops), OP_NUMERIC);
}

void k_conv1d(OpId op, Tensor *const *args, int nargs, const Attrs *at, Tensor *const *outs,
              int nouts, Arena *scratch) {
  const Tensor *x = args[0], *wt = args[1];
  Tensor *r = outs[0];
  OpAttrReader rd = {at, NULL, 0, false};
  int64_t s, dil, lo, hi;
  rd_list(&rd, "strides", 1, &s, 1);
  rd_pads(&rd, 1, &lo, &hi);
  rd_list(&rd, "dilation", 1, &dil, 1);
  int64_t groups = ir_attr_int(at, "groups", 1), ic = x->shape[1], iw = x->shape[2];
  int64_t oc = r->shape[1], ow = r->shape[2], cg = wt->shape[1], kw = wt->shape[2];
  int64_t per_group = oc / groups, idx = 0;
  for (int64_t n = 0; n < r->shape[0]; n++)
    for (int64_t o = 0; o < oc; o++)
      for (int64_t z = 0; z < ow; z++) {
        OpAcc acc = op_acc_new(r->dtype);
        int64_t c0 = (o / per_group) * cg;
        for (int64_t c = 0; c < cg; c++)
          for (int64_t kx = 0; kx < kw; kx++) {
            int64_t ix = z * s + kx * dil - lo, j = (o * cg + c) * kw + kx;
            if (ix < 0 || ix >= iw)
              op_acc_mad_zero(&acc, wt, j);
            else
              op_acc_mad(&acc, x, (n * ic + c0 + c) * iw + ix, wt, j);
          }
        op_acc_store(&acc, r, idx++);
      }
}

/* ------------------------------------------------------ conv2d_transpose */

/* nn.conv2d_transpose(data [N, C, H, W], weight [C, O / groups, KH, KW])
 * -> [N, O, OH, OW]. */

typedef struct TrAttrs {
  int64_t s[2], d[2], op[2], lo[2], hi[2], groups;
} TrAttrs;

static TrAttrs rd_transpose(OpAttrReader *r) {
  TrAttrs t;
  rd_list(r, "strides", 2, t.s, 1);
  rd_list(r, "output_padding", 2, t.op, 0);
  rd_pads(r, 2, t.lo, t.hi);
  rd_list(r, "dilation", 2, t.d, 1);
  t.groups = op_rd_int(r, "groups", 1);
  for (int i = 0; i < 2 && !r->bad; i++)
    if (t.op[i] >= t.s[i])
      op_rd_fail(r, "output_padding %lld must be below the stride %lld", (long long)t.op[i],
                 (long long)t.s[i]);
  return t;
}

RelStatus rel_conv2d_transpose(OpId op, Type *const *args, int nargs, const Attrs *at, Arena *a,
                               Type **out, char *err, size_t errlen) {
  RelStatus st = op_want_tensors(args, nargs, 2, err, errlen);
  if (st != REL_OK)
    return st;
  OpAttrReader r = op_rd_begin(op, at, err, errlen);
  const Type *d = args[0], *wt = args[1];
  int64_t channels = 0, ksize[2];
  bool has_channels;
  int nks = rd_channels_ksize(&r, 2, &channels, ksize, &has_channels);
  TrAttrs t = rd_transpose(&r);
  rd_layouts(&r, "NCHW", "IOHW");
  DType odt = op_rd_out_dtype(&r, d->tensor.dtype);
  if (r.bad || !op_want_same_numeric(&r, d, wt))
    return REL_ERROR;
  if (d->tensor.rank != 4 || wt->tensor.rank != 4)
    return op_fail(err, errlen, "data and weight must have rank 4, got %d and %d", d->tensor.rank,
                   wt->tensor.rank);
  const int64_t *ds = d->tensor.shape, *ws = wt->tensor.shape;
  if (t.groups < 1)
    return op_fail(err, errlen, "groups must be positive, got %lld", (long long)t.groups);
  if (!op_dim_any(ds[1]) && ds[1] % t.groups)
    return op_fail(err, errlen, "groups=%lld must divide the %lld input channels",
                   (long long)t.groups, (long long)ds[1]);
  if (!op_dims_match(ws[0], ds[1]))
    return op_fail(err, errlen, "weight has %lld input channels, data %lld", (long long)ws[0],
                   (long long)ds[1]);
  int64_t oc;
  if (!op_dim_mul(ws[1], t.groups, &oc))
    return op_fail(err, errlen, "too many output channels");
  if (has_channels && (channels % t.groups || !op_dim_allows(ws[1], channels / t.groups)))
    return op_fail(err, errlen, "channels=%lld but the weight has %lld x %lld groups",
                   (long long)channels, (long long)ws[1], (long long)t.groups);
  if (nks >= 0 && (nks != 2 || !op_dim_allows(ws[2], ksize[0]) || !op_dim_allows(ws[3], ksize[1])))
    return op_fail(err, errlen, "kernel_size does not match the weight's %lldx%lld",
                   (long long)ws[2], (long long)ws[3]);
  int64_t shape[4] = {ds[0], op_dim_any(oc) && has_channels ? channels : oc, 0, 0};
  for (int i = 0; i < 2; i++) {
    int64_t k = op_dim_any(ws[2 + i]) && nks == 2 ? ksize[i] : ws[2 + i], n = ds[2 + i], o;
    if (op_dim_any(n) || op_dim_any(k)) {
      shape[2 + i] = IR_DIM_ANY;
      continue;
    }
    if (k < 1)
      return op_fail(err, errlen, "kernel must be at least 1x1");
    int64_t dk, pads;
    if (__builtin_mul_overflow(k - 1, t.d[i], &dk) || __builtin_add_overflow(dk, 1, &dk) ||
        __builtin_add_overflow(t.lo[i], t.hi[i], &pads) ||
        __builtin_mul_overflow(n - 1, t.s[i], &o) || __builtin_add_overflow(o, dk, &o) ||
        __builtin_sub_overflow(o, pads, &o) || __builtin_add_overflow(o, t.op[i], &o))
      return op_fail(err, errlen, "window attributes too large");
    if (o < 0)
      return op_fail(err, errlen, "the padding leaves a negative output extent %lld", (long long)o);
    shape[2 + i] = o;
  }
  return op_result(a, odt, 4, shape, out, err, errlen);
}

/* What the conv2d_transpose solver knows while drawing. */
typedef struct TrPlan {
  const OpLimits *lim;
  int64_t in_c, ocg, taps, out_numel; /* taps: the kernel height once drawn */
} TrPlan;

/* A kernel of taps * k keeps the weight [C, O/g, ...] and the flops in
 * the limits (each output sums C/g * KH * KW terms). */
static bool tr_k_ok(const TrPlan *p, int64_t kk, int64_t cg) {
  return op_mul_sat(op_mul_sat(p->in_c, p->ocg), kk) <= p->lim->max_numel &&
         op_mul_sat(op_mul_sat(p->out_numel, cg), kk) <= p->lim->max_flops;
}

/* Groups g: one input channel per group fits in the input and weight. */
static bool tr_groups_ok(const Type *t, const OpLimits *lim, int64_t g) {
  const int64_t *s = t->tensor.shape;
  return g <= lim->max_dim &&
         op_mul_sat(op_mul_sat(s[0], g), op_mul_sat(s[2], s[3])) <= lim->max_numel;
}

bool rec_conv2d_transpose(OpId op, const Type *want, const OpLimits *lim) {
  if (!op_fits_dims(lim, want, OP_NUMERIC) || want->tensor.rank != 4 || want->tensor.shape[2] < 1 ||
      want->tensor.shape[3] < 1)
    return false;
  TrPlan p = {lim, 1, want->tensor.shape[1], 1, op_numel_sat(4, want->tensor.shape)};
  return tr_groups_ok(want, lim, 1) && tr_k_ok(&p, 1, 1);
}

/* One spatial axis with output extent o: stride, dilation, kernel extent
 * (kmax at most), output padding, input extent n <= o, then the padding
 * (lo + hi = (n - 1) * s + dk + op - o >= 0). */
static void tr_axis(OpSolveCtx *cx, int64_t o, int64_t kmax, int64_t *s, int64_t *d, int64_t *k,
                    int64_t *op, int64_t *n, int64_t *lo, int64_t *hi) {
  int64_t cap = op_min64(cx->lim->max_dim, CAP);
  *s = op_pick(cx, 1, cap);
  *d = op_pick(cx, 1, cap);
  *k = op_pick(cx, 1, op_max64(1, op_min64(kmax, cap)));
  *op = op_pick(cx, 0, *s - 1);
  int64_t dk = (*k - 1) * *d + 1, need = o - dk - *op; /* (n - 1) * s >= need */
  int64_t nmin = need > 0 ? 1 + (need + *s - 1) / *s : 1;
  *n = op_pick(cx, nmin, op_max64(nmin, o));
  int64_t pad = (*n - 1) * *s + dk + *op - o;
  *lo = op_pick(cx, 0, pad);
  *hi = pad - *lo;
}

bool solve_conv2d_transpose(OpId op, const Type *want, OpSolveCtx *cx, OpSig *sig) {
  if (!rec_conv2d_transpose(op, want, cx->lim))
    return false;
  op_sig_start(cx, sig, 2, NULL);
  const OpLimits *lim = cx->lim;
  const int64_t *s = want->tensor.shape;
  int64_t g = pick_groups(cx, s[1], tr_groups_ok, want);
  int64_t ocg = s[1] / g, hw = op_mul_sat(s[2], s[3]);
  TrPlan p = {lim, 1, ocg, 1, op_numel_sat(4, s)};
  int64_t cgmax =
      op_min64(lim->max_dim / g, op_quota(lim->max_numel, op_mul_sat(op_mul_sat(s[0], g), hw)));
  cgmax = op_min64(cgmax, op_quota(lim->max_numel, op_mul_sat(g, ocg)));
  cgmax = op_min64(cgmax, op_quota(lim->max_flops, p.out_numel));
  int64_t cg = op_pick(cx, 1, op_max64(1, cgmax));
  p.in_c = g * cg;
  int64_t kmax = 1; /* the largest kernel height leaving room for width 1 */
  while (kmax < CAP && tr_k_ok(&p, kmax + 1, cg))
    kmax++;
  int64_t sh, dh, kh, oph, nh, loh, hih, sw, dw, kw, opw, nw, low, hiw;
  tr_axis(cx, s[2], kmax, &sh, &dh, &kh, &oph, &nh, &loh, &hih);
  kmax = 1;
  while (kmax < CAP && tr_k_ok(&p, kh * (kmax + 1), cg))
    kmax++;
  tr_axis(cx, s[3], kmax, &sw, &dw, &kw, &opw, &nw, &low, &hiw);
  Attrs *at = &sig->attrs;
  int64_t ks[2] = {kh, kw};
  set_channels_ksize(cx, at, s[1], 2, ks);
  op_set_pair(cx, at, "strides", sh, sw);
  op_set_pair(cx, at, "output_padding", oph, opw);
  OpAxis ah = {.lo = loh, .hi = hih}, aw = {.lo = low, .hi = hiw};
  op_set_padding(cx, at, &ah, &aw);
  op_set_pair(cx, at, "dilation", dh, dw);
  ir_attr_set_int(cx->arena, at, "groups", g);
  ir_attr_set_str(cx->arena, at, "data_layout", "NCHW");
  ir_attr_set_str(cx->arena, at, "kernel_layout", "IOHW");
  DType in = op_pick_out_dtype(cx, at, want->tensor.dtype);
  int64_t ds[4] = {s[0], p.in_c, nh, nw}, ws[4] = {p.in_c, ocg, kh, kw};
  sig->args[0] = op_tensor(cx, in, 4, ds);
  sig->args[1] = op_tensor(cx, in, 4, ws);
  return op_sig_claim(cx, sig, want);
}

bool sample_conv2d_transpose(OpId op, OpSolveCtx *cx, OpSig *sig) {
  return op_sample_tensor(solve_conv2d_transpose, op, cx, sig, 4,
                          op_min64(cx->lim->max_numel, cx->lim->max_flops), OP_NUMERIC);
}

/* The input index along one axis that output position y and kernel tap
 * k read (stride s, dilation d, pad lo, extent n), or -1 for a zero of
 * the dilated, padded input. */
static int64_t tr_source(int64_t y, int64_t k, int64_t s, int64_t d, int64_t lo, int64_t n) {
  int64_t t = y + lo - k * d;
  return t < 0 || t % s || t / s >= n ? -1 : t / s;
}

void k_conv2d_transpose(OpId op, Tensor *const *args, int nargs, const Attrs *at,
                        Tensor *const *outs, int nouts, Arena *scratch) {
  const Tensor *x = args[0], *wt = args[1];
  Tensor *r = outs[0];
  OpAttrReader rd = {at, NULL, 0, false};
  TrAttrs t = rd_transpose(&rd);
  int64_t ic = x->shape[1], ih = x->shape[2], iw = x->shape[3];
  int64_t oc = r->shape[1], oh = r->shape[2], ow = r->shape[3];
  int64_t ocg = wt->shape[1], kh = wt->shape[2], kw = wt->shape[3], cg = ic / t.groups, idx = 0;
  for (int64_t n = 0; n < r->shape[0]; n++)
    for (int64_t o = 0; o < oc; o++)
      for (int64_t y = 0; y < oh; y++)
        for (int64_t z = 0; z < ow; z++) {
          OpAcc acc = op_acc_new(r->dtype);
          int64_t c0 = (o / ocg) * cg;
          for (int64_t c = c0; c < c0 + cg; c++)
            for (int64_t ky = 0; ky < kh; ky++)
              for (int64_t kx = 0; kx < kw; kx++) {
                int64_t sy = tr_source(y, ky, t.s[0], t.d[0], t.lo[0], ih);
                int64_t sx = tr_source(z, kx, t.s[1], t.d[1], t.lo[1], iw);
                int64_t j = ((c * ocg + o % ocg) * kh + ky) * kw + kx;
                if (sy < 0 || sx < 0)
                  op_acc_mad_zero(&acc, wt, j);
                else
                  op_acc_mad(&acc, x, ((n * ic + c) * ih + sy) * iw + sx, wt, j);
              }
          op_acc_store(&acc, r, idx++);
        }
}
