/*
 * pool.c - 2-D pooling, nn.max_pool2d, nn.avg_pool2d and
 * nn.global_avg_pool2d: relations, recognizers, solvers, samplers and
 * kernels.  Relations follow Relay's Pool2DRel and GlobalPool2DRel with
 * these deliberate restrictions:
 *
 *   dtypes   max_pool2d takes any numeric dtype (not bool); avg_pool2d and
 *            global_avg_pool2d are float only.
 *   windows  a dilated window larger than the padded input is rejected
 *            (Relay would produce a zero or negative extent); pool sizes,
 *            strides and dilations must be positive, padding non-negative;
 *            layout NCHW only.  Pools use Relay's output formula, ceil_mode
 *            included (Relay has no rule that the last window must start
 *            inside the input, so it may lie wholly in the padding: max
 *            gives -inf or the dtype's minimum there, avg gives 0).
 *
 * Solvers draw each spatial axis as compiler/ops/window.c describes, so
 * they never fail once the recognizer has said yes, and choice 0 is always
 * the simplest option (the smallest pool, stride 1, no padding).  Samplers
 * draw a recognisable result type and solve for it.
 */
#include <assert.h>
#include <math.h>
#include <string.h>

#include "op_int.h"

/* ------------------------------------------------------ max and avg pool */

/* nn.max_pool2d and nn.avg_pool2d(data [N, C, H, W]) -> [N, C, OH, OW]. */

RelStatus rel_pool2d(OpId op, Type *const *args, int nargs, const Attrs *at, Arena *a, Type **out,
                     char *err, size_t errlen) {
  RelStatus st = op_want_tensors(args, nargs, 1, err, errlen);
  if (st != REL_OK)
    return st;
  OpAttrReader r = op_rd_begin(op, at, err, errlen);
  const Type *d = args[0];
  OpWin w = {.ceil = false};
  op_rd_pair(&r, "pool_size", w.k);
  op_rd_window(&r, &w);
  op_rd_layout(&r, "layout", "NCHW");
  w.ceil = op_rd_bool(&r, "ceil_mode", false);
  if (op == OP_AVG_POOL2D)
    op_rd_bool(&r, "count_include_pad", false);
  if (r.bad || !op_want_dtype(&r, d, op == OP_MAX_POOL2D ? OP_NUMERIC : OP_FLOATS, "data"))
    return REL_ERROR;
  if (d->tensor.rank != 4)
    return op_fail(err, errlen, "data must have rank 4 (NCHW), got %d", d->tensor.rank);
  int64_t o[2];
  if (!op_win_outs(&r, &w, d->tensor.shape + 2, o))
    return REL_ERROR;
  int64_t shape[4] = {d->tensor.shape[0], d->tensor.shape[1], o[0], o[1]};
  *out = ir_tensor_type(a, d->tensor.dtype, 4, shape);
  return REL_OK;
}

bool rec_pool2d(OpId op, const Type *want, const OpLimits *lim) {
  return op_fits_dims(lim, want, op == OP_MAX_POOL2D ? OP_NUMERIC : OP_FLOATS) &&
         want->tensor.rank == 4 && want->tensor.shape[2] >= 1 && want->tensor.shape[3] >= 1;
}

/* Pools have no weight: every pool size fits. */
static bool pool_k_ok(const void *ctx, int64_t k) {
  return true;
}

bool solve_pool2d(OpId op, const Type *want, OpSolveCtx *cx, OpSig *sig) {
  if (!rec_pool2d(op, want, cx->lim))
    return false;
  memset(sig, 0, sizeof *sig);
  const OpLimits *lim = cx->lim;
  const int64_t *s = want->tensor.shape;
  int64_t nc = op_mul_sat(s[0], s[1]);
  bool ceil = op_choose(cx->ch, 2);
  OpAxis h, w;
  op_draw_axis(cx, s[2], op_min64(lim->max_dim, op_quota(lim->max_numel, op_mul_sat(nc, s[3]))),
               ceil, pool_k_ok, NULL, &h);
  op_draw_axis(cx, s[3], op_min64(lim->max_dim, op_quota(lim->max_numel, op_mul_sat(nc, h.n))),
               ceil, pool_k_ok, NULL, &w);
  Attrs *at = &sig->attrs;
  op_set_pair(cx, at, "pool_size", h.k, w.k);
  op_set_pair(cx, at, "strides", h.s, w.s);
  op_set_pair(cx, at, "dilation", h.d, w.d);
  op_set_padding(cx, at, &h, &w);
  ir_attr_set_str(cx->arena, at, "layout", "NCHW");
  ir_attr_set_bool(cx->arena, at, "ceil_mode", ceil);
  if (op == OP_AVG_POOL2D)
    ir_attr_set_bool(cx->arena, at, "count_include_pad", op_choose(cx->ch, 2));
  int64_t ds[4] = {s[0], s[1], h.n, w.n};
  sig->nargs = 1;
  sig->args[0] = op_tensor(cx, want->tensor.dtype, 4, ds);
  return op_sig_claim(cx, sig, want);
}

bool sample_pool2d(OpId op, OpSolveCtx *cx, OpSig *sig) {
  return op_sample_tensor(solve_pool2d, op, cx, sig, 4, cx->lim->max_numel,
                          op == OP_MAX_POOL2D ? OP_NUMERIC : OP_FLOATS);
}

/* The smallest value of an integer dtype (its bits): what max pooling
 * pads with. */
static int64_t int_min_of(DType dt) {
  return ir_sat_f64_to_int(-INFINITY, dt);
}

/* Max pooling of one window; padding taps are -inf (or the dtype's
 * minimum) and a NaN tap makes the result NaN. */
static void pool_max(const Tensor *x, int64_t base, int64_t ih, int64_t iw, const OpWin *w,
                     int64_t y0, int64_t x0, Tensor *r, int64_t ri) {
  bool fl = ir_dtype_is_float(x->dtype);
  double mf = -INFINITY;
  int64_t mi = int_min_of(x->dtype);
  for (int64_t ky = 0; ky < w->k[0]; ky++)
    for (int64_t kx = 0; kx < w->k[1]; kx++) {
      int64_t iy = y0 + ky * w->d[0], ix = x0 + kx * w->d[1];
      if (iy < 0 || iy >= ih || ix < 0 || ix >= iw)
        continue;
      if (fl) {
        mf = op_fmax(mf, ir_tensor_get_f64(x, base + iy * iw + ix));
      } else {
        int64_t v = ir_tensor_get_i64(x, base + iy * iw + ix);
        mi = op_int_less(x->dtype, mi, v) ? v : mi;
      }
    }
  if (fl)
    ir_tensor_set_f64(r, ri, mf);
  else
    ir_tensor_set_i64(r, ri, mi);
}

/* Average pooling of one window: the sum of the input taps divided by
 * their count, or with count_include_pad by the taps inside input plus
 * the written padding (not the ceil_mode overhang), as TOPI does; 0 when
 * that count is 0. */
static void pool_avg(const Tensor *x, int64_t base, int64_t ih, int64_t iw, const OpWin *w,
                     bool cip, int64_t y0, int64_t x0, Tensor *r, int64_t ri) {
  double sum = 0;
  int64_t real = 0, padded = 0;
  for (int64_t ky = 0; ky < w->k[0]; ky++)
    for (int64_t kx = 0; kx < w->k[1]; kx++) {
      int64_t iy = y0 + ky * w->d[0], ix = x0 + kx * w->d[1];
      if (iy <= ih - 1 + w->pad[2] && ix <= iw - 1 + w->pad[3])
        padded++;
      if (iy < 0 || iy >= ih || ix < 0 || ix >= iw)
        continue;
      sum += ir_tensor_get_f64(x, base + iy * iw + ix);
      real++;
    }
  int64_t count = cip ? padded : real;
  ir_tensor_set_f64(r, ri, count ? sum / (double)count : 0.0);
}

void k_pool2d(OpId op, Tensor *const *args, int nargs, const Attrs *at, Tensor *const *outs,
              int nouts, Arena *scratch) {
  const Tensor *x = args[0];
  Tensor *r = outs[0];
  OpWin w = op_win_of(op, at);
  bool cip = ir_attr_bool(at, "count_include_pad", false);
  int64_t ih = x->shape[2], iw = x->shape[3], oh = r->shape[2], ow = r->shape[3];
  int64_t ri = 0;
  for (int64_t nc = 0; nc < x->shape[0] * x->shape[1]; nc++)
    for (int64_t y = 0; y < oh; y++)
      for (int64_t z = 0; z < ow; z++, ri++) {
        int64_t y0 = y * w.s[0] - w.pad[0], x0 = z * w.s[1] - w.pad[1];
        if (op == OP_MAX_POOL2D)
          pool_max(x, nc * ih * iw, ih, iw, &w, y0, x0, r, ri);
        else
          pool_avg(x, nc * ih * iw, ih, iw, &w, cip, y0, x0, r, ri);
      }
}

/* ----------------------------------------------------- global_avg_pool2d */

/* nn.global_avg_pool2d(data [N, C, H, W]) -> [N, C, 1, 1]. */

RelStatus rel_global_pool2d(OpId op, Type *const *args, int nargs, const Attrs *at, Arena *a,
                            Type **out, char *err, size_t errlen) {
  RelStatus st = op_want_tensors(args, nargs, 1, err, errlen);
  if (st != REL_OK)
    return st;
  OpAttrReader r = op_rd_begin(op, at, err, errlen);
  op_rd_layout(&r, "layout", "NCHW");
  if (r.bad || !op_want_dtype(&r, args[0], OP_FLOATS, "data"))
    return REL_ERROR;
  if (args[0]->tensor.rank != 4)
    return op_fail(err, errlen, "data must have rank 4 (NCHW), got %d", args[0]->tensor.rank);
  int64_t shape[4] = {args[0]->tensor.shape[0], args[0]->tensor.shape[1], 1, 1};
  *out = ir_tensor_type(a, args[0]->tensor.dtype, 4, shape);
  return REL_OK;
}

bool rec_global_pool2d(OpId op, const Type *want, const OpLimits *lim) {
  return op_fits_dims(lim, want, OP_FLOATS) && want->tensor.rank == 4 &&
         want->tensor.shape[2] == 1 && want->tensor.shape[3] == 1;
}

bool solve_global_pool2d(OpId op, const Type *want, OpSolveCtx *cx, OpSig *sig) {
  if (!rec_global_pool2d(op, want, cx->lim))
    return false;
  memset(sig, 0, sizeof *sig);
  const OpLimits *lim = cx->lim;
  int64_t nc = op_mul_sat(want->tensor.shape[0], want->tensor.shape[1]);
  int64_t h = op_pick(cx, 1, op_min64(lim->max_dim, op_quota(lim->max_numel, nc)));
  int64_t w = op_pick(cx, 1, op_min64(lim->max_dim, op_quota(lim->max_numel, op_mul_sat(nc, h))));
  ir_attr_set_str(cx->arena, &sig->attrs, "layout", "NCHW");
  int64_t ds[4] = {want->tensor.shape[0], want->tensor.shape[1], h, w};
  sig->nargs = 1;
  sig->args[0] = op_tensor(cx, want->tensor.dtype, 4, ds);
  return op_sig_claim(cx, sig, want);
}

bool sample_global_pool2d(OpId op, OpSolveCtx *cx, OpSig *sig) {
  int64_t shape[4];
  if (cx->lim->max_rank < 4)
    return false;
  op_draw_shape(cx, 2, cx->lim->max_numel, shape);
  shape[2] = shape[3] = 1;
  return solve_global_pool2d(op, op_tensor(cx, op_draw_dtype(cx, OP_FLOATS), 4, shape), cx, sig);
}

void k_global_pool2d(OpId op, Tensor *const *args, int nargs, const Attrs *at, Tensor *const *outs,
                     int nouts, Arena *scratch) {
  const Tensor *x = args[0];
  int64_t hw = x->shape[2] * x->shape[3];
  for (int64_t nc = 0; nc < outs[0]->numel; nc++) {
    double sum = 0;
    for (int64_t i = 0; i < hw; i++)
      sum += ir_tensor_get_f64(x, nc * hw + i);
    ir_tensor_set_f64(outs[0], nc, hw ? sum / (double)hw : NAN);
  }
}
