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
 *            strides and dilations must be positive, padding non-negative.
 *            channels and output channels must be divisible by groups.
 *   layouts  data_layout NCHW (default) or NHWC, kernel_layout OIHW
 *            (default), HWIO, OHWI or HWOI, in any pairing (Relay's
 *            relation takes each through its layout to NCHW / OIHW, and
 *            so do we); the result has the data's layout (no out_layout).
 *            The weight in OIHW terms is [O, C / groups, KH, KW] whatever
 *            its layout: topi's conv2d_nhwc (HWIO) and group_conv2d_nhwc
 *            compute the same sums as the NCHW form, element for element.
 *   padding  a tap in the zero padding still multiplies its weight, as
 *            TVM's convolution of the zero-padded input does: a NaN or
 *            infinite weight that meets only padding makes the sum NaN.
 *
 * Solver.  Every freedom is drawn from a range of values each of which can
 * still be completed within the limits: groups, the input channels per
 * group, then each spatial axis as compiler/ops/window.c describes.  So
 * the solver never fails once the recognizer has said yes, and choice 0 is
 * always the simplest option (one group, the smallest kernel, stride 1, no
 * padding) in NCHW / OIHW.  A wanted type is read in the layout drawn first
 * (NHWC in a share of the calls, when its dims fit as NHWC), the weight's
 * layout drawn after.  The sampler draws a recognisable
 * result type and solves for it.
 */
#include <assert.h>
#include <string.h>

#include "op_int.h"

/* The layouts nn.conv2d takes: data and kernel, the first the default. */
static const char *const data_layouts[] = {"NCHW", "NHWC"};
static const char *const kernel_layouts[] = {"OIHW", "HWIO", "OHWI", "HWOI"};

/* pos[k] = where axis k of canon ("NCHW" or "OIHW") sits in layout l. */
static void layout_pos(const char *l, const char *canon, int *pos) {
  for (int k = 0; k < 4; k++)
    pos[k] = (int)(strchr(l, canon[k]) - l);
}

/* Reads layout attribute name, one of the n in allowed (the first is the
 * default), into pos (layout_pos against allowed[0]). */
static void rd_conv_layout(OpAttrReader *r, const char *name, const char *const *allowed, int n,
                           int *pos) {
  const char *s = op_rd_str(r, name, allowed[0]);
  layout_pos(allowed[0], allowed[0], pos);
  if (r->bad)
    return;
  for (int i = 0; i < n; i++)
    if (strcmp(s, allowed[i]) == 0) {
      layout_pos(s, allowed[0], pos);
      return;
    }
  op_rd_fail(r, "%s \"%s\" is not supported; only %s", name, s,
             n == 2 ? "\"NCHW\" or \"NHWC\"" : "\"OIHW\", \"HWIO\", \"OHWI\" or \"HWOI\"");
}

/* nn.conv2d(data [N, C, H, W], weight [O, C / groups, KH, KW]) -> [N, O, OH, OW],
 * each shape written in its layout (the brackets give NCHW / OIHW). */

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
  int nks = op_rd_ints(&r, "kernel_size", 2, ksize, 0, NULL, true), dp[4], kp[4];
  rd_conv_layout(&r, "data_layout", data_layouts, 2, dp);
  rd_conv_layout(&r, "kernel_layout", kernel_layouts, 4, kp);
  DType odt = op_rd_out_dtype(&r, d->tensor.dtype);
  if (r.bad || !op_want_same_numeric(&r, d, wt))
    return REL_ERROR;
  if (d->tensor.rank != 4 || wt->tensor.rank != 4)
    return op_fail(err, errlen, "data and weight must have rank 4, got %d and %d", d->tensor.rank,
                   wt->tensor.rank);
  int64_t ds[4], ws[4]; /* in NCHW and OIHW */
  for (int k = 0; k < 4; k++)
    ds[k] = d->tensor.shape[dp[k]], ws[k] = wt->tensor.shape[kp[k]];
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
  int64_t canon[4] = {ds[0], op_dim_any(ws[0]) && has_channels && channels >= 0 ? channels : ws[0],
                      o[0], o[1]},
          shape[4];
  for (int k = 0; k < 4; k++)
    shape[dp[k]] = canon[k];
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

/* True when groups g leaves room for one input channel per group of the
 * result s (NCHW). */
static bool conv_groups_ok(const int64_t *s, const OpLimits *lim, int64_t g) {
  int64_t out_c = s[1];
  return (out_c ? out_c % g == 0 : g == 1) && g <= lim->max_dim &&
         op_mul_sat(op_mul_sat(s[0], g), op_mul_sat(s[2], s[3])) <= lim->max_numel;
}

/* Can a call give the result of shape s (NCHW), within the limits? */
static bool rec_nchw(const int64_t *s, const OpLimits *lim) {
  ConvPlan p = {lim, s[1], op_numel_sat(4, s), 1, 1};
  return s[2] >= 1 && s[3] >= 1 && conv_groups_ok(s, lim, 1) && conv_weight_ok(&p, 1, 1, 1);
}

/* want's shape read in data layout l (as NCHW) into s. */
static void want_nchw(const Type *want, const char *l, int64_t *s) {
  int pos[4];
  layout_pos(l, "NCHW", pos);
  for (int k = 0; k < 4; k++)
    s[k] = want->tensor.shape[pos[k]];
}

bool rec_conv2d(OpId op, const Type *want, const OpLimits *lim) {
  if (!op_fits_dims(lim, want, OP_NUMERIC) || want->tensor.rank != 4)
    return false;
  int64_t s[4];
  for (int i = 0; i < 2; i++) {
    want_nchw(want, data_layouts[i], s);
    if (rec_nchw(s, lim))
      return true;
  }
  return false;
}

/* The data layout to read want in: NCHW or NHWC, either when both fit
 * (choice 0 NCHW). */
static int pick_data_layout(OpSolveCtx *cx, const Type *want) {
  int64_t s[4];
  bool ok[2];
  for (int i = 0; i < 2; i++) {
    want_nchw(want, data_layouts[i], s);
    ok[i] = rec_nchw(s, cx->lim);
  }
  return ok[0] && ok[1] ? (int)op_choose(cx->ch, 2) : ok[1];
}

/* The kernel layout for data layout dl: choice 0 the usual partner (OIHW
 * for NCHW, HWIO for NHWC), otherwise one of the other three. */
static const char *pick_kernel_layout(OpSolveCtx *cx, int dl) {
  static const int order[2][4] = {{0, 1, 2, 3}, {1, 2, 3, 0}};
  return kernel_layouts[order[dl][op_coin(cx) ? 1 + op_pick_below(cx, 3) : 0]];
}

/* shape (canon order: NCHW or OIHW) written in layout l. */
static void to_layout(const char *l, const char *canon, const int64_t *shape, int64_t *out) {
  int pos[4];
  layout_pos(l, canon, pos);
  for (int k = 0; k < 4; k++)
    out[pos[k]] = shape[k];
}

bool solve_conv2d(OpId op, const Type *want, OpSolveCtx *cx, OpSig *sig) {
  if (!rec_conv2d(op, want, cx->lim))
    return false;
  memset(sig, 0, sizeof *sig);
  const OpLimits *lim = cx->lim;
  int dl = pick_data_layout(cx, want);
  int64_t s[4];
  want_nchw(want, data_layouts[dl], s);
  int64_t n = s[0], oc = s[1], oh = s[2], ow = s[3];
  ConvPlan p = {lim, oc, op_numel_sat(4, s), 1, 1};
  /* groups: the c-th divisor of O that leaves room */
  uint32_t ng = 0, c;
  for (int64_t g = 1; g <= (oc ? op_min64(oc, lim->max_dim) : 1); g++)
    ng += conv_groups_ok(s, lim, g);
  c = op_choose(cx->ch, ng);
  int64_t g = 1;
  for (;; g++)
    if (conv_groups_ok(s, lim, g) && c-- == 0)
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
  const char *kl = pick_kernel_layout(cx, dl);
  ir_attr_set_str(cx->arena, at, "data_layout", data_layouts[dl]);
  ir_attr_set_str(cx->arena, at, "kernel_layout", kl);
  DType in = op_pick_out_dtype(cx, at, want->tensor.dtype);
  int64_t ds[4] = {n, ic, h.n, w.n}, ws[4] = {oc, p.cg, h.k, w.k}, dsl[4], wsl[4];
  to_layout(data_layouts[dl], "NCHW", ds, dsl);
  to_layout(kl, "OIHW", ws, wsl);
  sig->nargs = 2;
  sig->args[0] = op_tensor(cx, in, 4, dsl);
  sig->args[1] = op_tensor(cx, in, 4, wsl);
  return op_sig_claim(cx, sig, want);
}

bool sample_conv2d(OpId op, OpSolveCtx *cx, OpSig *sig) {
  return op_sample_tensor(solve_conv2d, op, cx, sig, 4,
                          op_min64(cx->lim->max_numel, cx->lim->max_flops), OP_NUMERIC);
}

/* The element strides of t, laid out in layout l, for the axes of canon
 * in canon's order; the extents too (NCHW or OIHW order). */
static void canon_strides(const Tensor *t, const char *l, const char *canon, int64_t *st,
                          int64_t *ext) {
  int pos[4];
  int64_t phys[4];
  layout_pos(l, canon, pos);
  phys[3] = 1;
  for (int i = 2; i >= 0; i--)
    phys[i] = phys[i + 1] * t->shape[i + 1];
  for (int k = 0; k < 4; k++)
    st[k] = phys[pos[k]], ext[k] = t->shape[pos[k]];
}

void k_conv2d(OpId op, Tensor *const *args, int nargs, const Attrs *at, Tensor *const *outs,
              int nouts, Arena *scratch) {
  const Tensor *x = args[0], *wt = args[1];
  Tensor *r = outs[0];
  OpWin w = op_win_of(op, at);
  const char *dl = ir_attr_str(at, "data_layout", "NCHW");
  const char *kl = ir_attr_str(at, "kernel_layout", "OIHW");
  int64_t groups = ir_attr_int(at, "groups", 1);
  int64_t xs[4], xe[4], ws[4], we[4], rs[4], re[4]; /* strides and extents, NCHW / OIHW */
  canon_strides(x, dl, "NCHW", xs, xe);
  canon_strides(wt, kl, "OIHW", ws, we);
  canon_strides(r, dl, "NCHW", rs, re);
  int64_t ih = xe[2], iw = xe[3], oc = re[1], oh = re[2], ow = re[3];
  int64_t cg = we[1], kh = we[2], kw = we[3], per_group = oc / groups;
  for (int64_t n = 0; n < re[0]; n++)
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
                int64_t j = o * ws[0] + c * ws[1] + ky * ws[2] + kx * ws[3];
                if (iy < 0 || iy >= ih || ix < 0 || ix >= iw)
                  op_acc_mad_zero(&acc, wt, j); /* zero padding */
                else
                  op_acc_mad(&acc, x, n * xs[0] + (c0 + c) * xs[1] + iy * xs[2] + ix * xs[3], wt,
                             j);
              }
          op_acc_store(&acc, r, n * rs[0] + o * rs[1] + y * rs[2] + z * rs[3]);
        }
}
