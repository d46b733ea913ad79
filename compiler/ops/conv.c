/*
 * conv.c - 2-D convolution, nn.conv2d: relation, recognizer, solver,
 * sampler and kernel.  The relation follows Relay's Conv2DRel with these
 * deliberate restrictions:
 *
 *   dtypes   data and weight have one numeric dtype (not bool); integer
 *            arithmetic wraps.  out_dtype "" means the input's dtype; an
 *            explicit out_dtype converts both operands to it first (floats
 *            to ints saturate, as in cast) and accumulates in it.
 *   windows  a dilated window larger than the padded input is rejected
 *            (Relay would produce a zero or negative extent); kernels,
 *            strides and dilations must be positive, padding non-negative;
 *            layouts NCHW / OIHW only.  channels and output channels must
 *            be divisible by groups.
 *   padding  a tap in the zero padding still multiplies its weight, as
 *            TVM's convolution of the zero-padded input does: a NaN or
 *            infinite weight that meets only padding makes the sum NaN.
 *
 * Solver.  Every freedom is drawn from a range of values each of which can
 * still be completed within the limits: groups, the input channels per
 * group, then each spatial axis as compiler/ops/window.c describes.  So
 * the solver never fails once the recognizer has said yes, and choice 0 is
 * always the simplest option (one group, the smallest kernel, stride 1, no
 * padding).  The sampler draws a recognisable result type and solves for
 * it.
 */
#include <assert.h>
#include <string.h>

#include "op_int.h"

/* nn.conv2d(data [N, C, H, W], weight [O, C / groups, KH, KW]) -> [N, O, OH, OW]. */

RelStatus rel_conv2d(OpId op, Type *const *args, int nargs, const Attrs *at, Arena *a, Type **out,
                     char *err, size_t errlen) {
  RelStatus st = op_want_tensors(args, nargs, 2, err, errlen);
  if (st != REL_OK)
    return st;
  OpAttrReader r = op_rd_begin(op, at, err, errlen);
  const Type *d = args[0], *wt = args[1];
  OpWin w = {.ceil = false};
  op_rd_window(&r, &w);
  int64_t groups = op_rd_int(&r, "groups", 1), channels = 0, ksize[2];
  bool has_channels = op_rd_opt_int(&r, "channels", &channels);
  int nks = op_rd_ints(&r, "kernel_size", 2, ksize, 0, NULL, true);
  op_rd_layout(&r, "data_layout", "NCHW");
  op_rd_layout(&r, "kernel_layout", "OIHW");
  DType odt = op_rd_out_dtype(&r, d->tensor.dtype);
  if (r.bad || !op_want_same_numeric(&r, d, wt))
    return REL_ERROR;
  if (d->tensor.rank != 4 || wt->tensor.rank != 4)
    return op_fail(err, errlen, "data and weight must have rank 4, got %d and %d", d->tensor.rank,
                   wt->tensor.rank);
  const int64_t *ds = d->tensor.shape, *ws = wt->tensor.shape;
  if ((st = op_conv_groups(ds[1], ws, groups, err, errlen)) != REL_OK)
    return st;
  if ((!op_dim_any(ws[2]) && ws[2] < 1) || (!op_dim_any(ws[3]) && ws[3] < 1))
    return op_fail(err, errlen, "kernel must be at least 1x1");
  if (has_channels && !op_dim_allows(ws[0], channels))
    return op_fail(err, errlen, "channels=%lld but the weight has %lld output channels",
                   (long long)channels, (long long)ws[0]);
  if (nks >= 0 && (nks != 2 || !op_dim_allows(ws[2], ksize[0]) || !op_dim_allows(ws[3], ksize[1])))
    return op_fail(err, errlen, "kernel_size does not match the weight's %lldx%lld",
                   (long long)ws[2], (long long)ws[3]);
  for (int i = 0; i < 2; i++) /* the weight's, or kernel_size's where that is Any */
    w.k[i] = op_dim_any(ws[2 + i]) && nks == 2 && ksize[i] >= 1 ? ksize[i] : ws[2 + i];
  int64_t o[2];
  if (!op_win_outs(&r, &w, ds + 2, o))
    return REL_ERROR;
  int64_t shape[4] = {ds[0], op_dim_any(ws[0]) && has_channels && channels >= 0 ? channels : ws[0],
                      o[0], o[1]};
  *out = ir_tensor_type(a, odt, 4, shape);
  return REL_OK;
}

/* What the conv2d solver knows while drawing: the result and the choices
 * that bound the weight. */
typedef struct ConvPlan {
  const OpLimits *lim;
  int64_t out_c, out_numel; /* O and numel(result) */
  int64_t cg, kh;           /* input channels per group; kernel height once drawn */
} ConvPlan;

/* Weight [O, cg, kh, kw] within the dims, numel and flops limits. */
static bool conv_weight_ok(const ConvPlan *p, int64_t cg, int64_t kh, int64_t kw) {
  int64_t per = op_mul_sat(op_mul_sat(cg, kh), kw);
  return cg <= p->lim->max_dim && kh <= p->lim->max_dim && kw <= p->lim->max_dim &&
         op_mul_sat(p->out_c, per) <= p->lim->max_numel &&
         op_mul_sat(p->out_numel, per) <= p->lim->max_flops;
}

/* Kernel height k leaves room for a kernel width of 1. */
static bool conv_kh_ok(const void *ctx, int64_t k) {
  const ConvPlan *p = ctx;
  return conv_weight_ok(p, p->cg, k, 1);
}

/* Kernel width k fits next to the drawn kernel height. */
static bool conv_kw_ok(const void *ctx, int64_t k) {
  const ConvPlan *p = ctx;
  return conv_weight_ok(p, p->cg, p->kh, k);
}

/* True when groups g leaves room for one input channel per group. */
static bool conv_groups_ok(const Type *t, const OpLimits *lim, int64_t g) {
  const int64_t *s = t->tensor.shape;
  int64_t out_c = s[1];
  return (out_c ? out_c % g == 0 : g == 1) && g <= lim->max_dim &&
         op_mul_sat(op_mul_sat(s[0], g), op_mul_sat(s[2], s[3])) <= lim->max_numel;
}

bool rec_conv2d(OpId op, const Type *want, const OpLimits *lim) {
  if (!op_fits_dims(lim, want, OP_NUMERIC) || want->tensor.rank != 4)
    return false;
  const int64_t *s = want->tensor.shape;
  ConvPlan p = {lim, s[1], op_numel_sat(4, s), 1, 1};
  return s[2] >= 1 && s[3] >= 1 && conv_groups_ok(want, lim, 1) && conv_weight_ok(&p, 1, 1, 1);
}

bool solve_conv2d(OpId op, const Type *want, OpSolveCtx *cx, OpSig *sig) {
  if (!rec_conv2d(op, want, cx->lim))
    return false;
  memset(sig, 0, sizeof *sig);
  const OpLimits *lim = cx->lim;
  const int64_t *s = want->tensor.shape;
  int64_t n = s[0], oc = s[1], oh = s[2], ow = s[3];
  ConvPlan p = {lim, oc, op_numel_sat(4, s), 1, 1};
  /* groups: the c-th divisor of O that leaves room */
  uint32_t ng = 0, c;
  for (int64_t g = 1; g <= (oc ? op_min64(oc, lim->max_dim) : 1); g++)
    ng += conv_groups_ok(want, lim, g);
  c = op_choose(cx->ch, ng);
  int64_t g = 1;
  for (;; g++)
    if (conv_groups_ok(want, lim, g) && c-- == 0)
      break;
  int64_t cgmax = op_min64(
      lim->max_dim / g, op_quota(lim->max_numel, op_mul_sat(op_mul_sat(n, g), op_mul_sat(oh, ow))));
  cgmax = op_min64(cgmax, op_quota(lim->max_numel, oc));
  cgmax = op_min64(cgmax, op_quota(lim->max_flops, p.out_numel));
  p.cg = op_pick(cx, 1, cgmax);
  int64_t ic = g * p.cg;
  OpAxis h, w;
  op_draw_axis(cx, oh,
               op_min64(lim->max_dim, op_quota(lim->max_numel, op_mul_sat(op_mul_sat(n, ic), ow))),
               false, conv_kh_ok, &p, &h);
  p.kh = h.k;
  op_draw_axis(cx, ow,
               op_min64(lim->max_dim, op_quota(lim->max_numel, op_mul_sat(op_mul_sat(n, ic), h.n))),
               false, conv_kw_ok, &p, &w);

  Attrs *at = &sig->attrs;
  op_set_pair(cx, at, "strides", h.s, w.s);
  op_set_padding(cx, at, &h, &w);
  op_set_pair(cx, at, "dilation", h.d, w.d);
  ir_attr_set_int(cx->arena, at, "groups", g);
  if (op_choose(cx->ch, 2))
    ir_attr_set_int(cx->arena, at, "channels", oc);
  else
    ir_attr_set_none(cx->arena, at, "channels");
  if (op_choose(cx->ch, 2))
    op_set_pair(cx, at, "kernel_size", h.k, w.k);
  else
    ir_attr_set_none(cx->arena, at, "kernel_size");
  ir_attr_set_str(cx->arena, at, "data_layout", "NCHW");
  ir_attr_set_str(cx->arena, at, "kernel_layout", "OIHW");
  DType in = op_pick_out_dtype(cx, at, want->tensor.dtype);
  int64_t ds[4] = {n, ic, h.n, w.n}, ws[4] = {oc, p.cg, h.k, w.k};
  sig->nargs = 2;
  sig->args[0] = op_tensor(cx, in, 4, ds);
  sig->args[1] = op_tensor(cx, in, 4, ws);
  return op_sig_claim(cx, sig, want);
}

bool sample_conv2d(OpId op, OpSolveCtx *cx, OpSig *sig) {
  return op_sample_tensor(solve_conv2d, op, cx, sig, 4,
                          op_min64(cx->lim->max_numel, cx->lim->max_flops), OP_NUMERIC);
}

void k_conv2d(OpId op, Tensor *const *args, int nargs, const Attrs *at, Tensor *const *outs,
              int nouts, Arena *scratch) {
  const Tensor *x = args[0], *wt = args[1];
  Tensor *r = outs[0];
  OpWin w = op_win_of(op, at);
  int64_t groups = ir_attr_int(at, "groups", 1);
  int64_t ic = x->shape[1], ih = x->shape[2], iw = x->shape[3];
  int64_t oc = r->shape[1], oh = r->shape[2], ow = r->shape[3];
  int64_t cg = wt->shape[1], kh = wt->shape[2], kw = wt->shape[3], per_group = oc / groups;
  int64_t idx = 0;
  for (int64_t n = 0; n < r->shape[0]; n++)
    for (int64_t o = 0; o < oc; o++)
      for (int64_t y = 0; y < oh; y++)
        for (int64_t z = 0; z < ow; z++) {
          OpAcc acc = op_acc_new(r->dtype);
          int64_t c0 = (o / per_group) * cg;
          for (int64_t c = 0; c < cg; c++)
            for (int64_t ky = 0; ky < kh; ky++)
              for (int64_t kx = 0; kx < kw; kx++) {
                int64_t iy = y * w.s[0] + ky * w.d[0] - w.pad[0];
                int64_t ix = z * w.s[1] + kx * w.d[1] - w.pad[1];
                int64_t j = ((o * cg + c) * kh + ky) * kw + kx;
                if (iy < 0 || iy >= ih || ix < 0 || ix >= iw)
                  op_acc_mad_zero(&acc, wt, j); /* zero padding */
                else
                  op_acc_mad(&acc, x, ((n * ic + c0 + c) * ih + iy) * iw + ix, wt, j);
              }
          op_acc_store(&acc, r, idx++);
        }
}
