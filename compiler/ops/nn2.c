/*
 * nn2.c - more neural-network layers: nn.leaky_relu, nn.prelu,
 * nn.dropout, nn.l2_normalize, nn.lrn, nn.instance_norm, nn.group_norm,
 * nn.global_max_pool2d, nn.adaptive_avg_pool2d, nn.adaptive_max_pool2d and
 * nn.matmul: relations, recognizers, solvers, samplers and kernels.
 * Relations follow Relay's (IdentityRel, PReluRel, DropoutRel,
 * InstanceNormRel, GroupNormRel, GlobalPool2DRel, AdaptivePool2DRel,
 * MatmulRel), the kernels the computations TVM gives them (topi's
 * leaky_relu, prelu and lrn; SimplifyInference's expansions of dropout,
 * l2_normalize, instance_norm and group_norm; topi's adaptive pools and
 * matmul), each float step in the data's dtype (docs/operators.md, "Float
 * arithmetic"), with these deliberate choices:
 *
 *   dtypes   leaky_relu, prelu, l2_normalize, lrn, the two norms and
 *            adaptive_avg_pool2d take floats; global_max_pool2d and
 *            adaptive_max_pool2d any numeric dtype (not bool); dropout
 *            every dtype.
 *   dropout  is the inference form: its type is TVM's tuple (data, mask)
 *            of two tensors of data's type (relay.nn.dropout is field 0 of
 *            it); data passes unchanged and the mask, which TVM leaves
 *            undefined at inference, is defined as all ones (every element
 *            kept).  rate is any float and changes nothing.
 *   leaky    R = A > 0 ? A : A * alpha, alpha converted to A's dtype
 *            (default 0.25, TVM's attribute default; it must be >= 0, as
 *            TVM's lower bound says).  prelu: the same with alpha[c], c
 *            the index along axis (default 1, in [0, rank) as TVM's
 *            relation indexes it).  A NaN stays NaN, -0 * alpha keeps the
 *            sign rules of IEEE.
 *   l2       R = A / sqrt(max(sum A*A, eps)) over axis (None or []: every
 *            axis), eps converted to float32 first (TVM makes it a
 *            float32 constant) and required, as in TVM; max as `maximum`
 *            (a NaN wins).
 *   lrn      4-D data, axis 1 or 3, size odd and positive (topi's checks):
 *            R = A / (bias + alpha * S / size) ^ beta, S the sum of the
 *            squares of the size channels centred on the element (the
 *            zero padding adds nothing); alpha, beta and bias converted to
 *            float32 then to A's dtype (topi takes them as floats).
 *   norms    instance_norm (rank >= 3) normalises over every axis but 0
 *            and axis; group_norm over the num_groups groups of channels
 *            along axis together with every axis after it (num_groups >= 1
 *            dividing the channels; TVM's default 0 is rejected).  mean =
 *            sum / n and var = sum (A - mean)^2 / n, each sum in double
 *            rounded once, then (A - mean) / sqrt(var + eps) * gamma +
 *            beta step by step, eps converted to float32 first.
 *   pools    NCHW only (layout, and out_layout "" or NCHW).  global and
 *            adaptive max: a NaN wins; an empty window gives -inf (the
 *            dtype's minimum for integers).  Adaptive windows are TVM's:
 *            start = floor(i * in / out), end = ceil((i + 1) * in / out);
 *            avg divides the window's sum (double, rounded once) by its
 *            size, 0 / 0 = NaN for an empty one.  output_size None or []
 *            keeps the input's extents, one value is used for both.
 *   matmul   as nn.dense (matmul.c) with TVM's MatmulAttrs: A of rank >= 1
 *            (>= 2 with transpose_a), B of rank 2, both of one numeric
 *            dtype; transpose_a and transpose_b default False; out_dtype
 *            converts both operands first and accumulates in it.
 *
 * Solvers.  Every freedom is drawn from a range of values each of which
 * can still be completed within the limits, so a solver never fails once
 * the recognizer has said yes, and choice 0 is the simplest option
 * (default attributes where they are valid).  Samplers draw a recognisable
 * result type and solve for it.
 */
#include <math.h>
#include <string.h>

#include "op_int.h"

/* --------------------------------------------------------------- helpers */

/* One float of the list, choice 0 the first. */
static double pick_float(OpSolveCtx *cx, const double *v, int n) {
  return v[op_choose(cx->ch, (uint32_t)n)];
}

/* A float attribute as TVM's kernels get it: converted to float32 (a C++
 * float parameter or a float32 constant), then to the dtype. */
static double attr_f32(DType dt, double v) {
  return op_round(dt, (double)(float)v);
}

/* An axis in [lo, rank) for the solvers; choice 0 gives pref when valid. */
static int64_t pick_axis_in(OpSolveCtx *cx, int64_t lo, int rank, int64_t pref) {
  return op_pick_pref(cx, lo, rank - 1, pref);
}

/* The lowest value of dtype dt (max pooling's start). */
static double lowest_of(DType dt) {
  return ir_dtype_is_float(dt) ? -INFINITY : (double)ir_sat_f64_to_int(-INFINITY, dt);
}

/* Draws a float tensor type of rank in [lo, max_rank] within the limits. */
static Type *draw_ranked(OpSolveCtx *cx, int lo, uint32_t allowed) {
  int64_t shape[IR_MAX_RANK];
  int rank = op_draw_rank(cx, lo, op_rank_cap(cx->lim));
  op_draw_shape(cx, rank, cx->lim->max_numel, shape);
  return op_tensor(cx, op_draw_dtype(cx, allowed), rank, shape);
}

/* ------------------------------------------------------------ leaky_relu */

/* nn.leaky_relu(A, alpha) and nn.prelu(A, alpha [A's dim at axis], axis):
 * A's type. */

RelStatus rel_leaky_relu(OpId op, Type *const *args, int nargs, const Attrs *at, Arena *a,
                         Type **out, char *err, size_t errlen) {
  RelStatus st = op_want_tensors(args, nargs, 1, err, errlen);
  if (st != REL_OK)
    return st;
  OpAttrReader r = op_rd_begin(op, at, err, errlen);
  double alpha = op_rd_float(&r, "alpha", 0.25);
  if (!r.bad && alpha < 0)
    op_rd_fail(&r, "alpha must be >= 0, got %g", alpha);
  if (r.bad || !op_want_dtype(&r, args[0], OP_FLOATS, "data"))
    return REL_ERROR;
  *out = ir_type_copy(a, args[0]);
  return REL_OK;
}

bool rec_leaky_relu(OpId op, const Type *want, const OpLimits *lim) {
  return op_fits_dims(lim, want, OP_FLOATS);
}

bool solve_leaky_relu(OpId op, const Type *want, OpSolveCtx *cx, OpSig *sig) {
  static const double alphas[] = {0.25, 0.01, 0.1, 0.2, 0.0, 1.0, 3.0};
  if (!rec_leaky_relu(op, want, cx->lim))
    return false;
  op_sig_start(cx, sig, 1, NULL);
  ir_attr_set_float(cx->arena, &sig->attrs, "alpha", pick_float(cx, alphas, 7));
  sig->args[0] = ir_type_copy(cx->arena, want);
  return op_sig_claim(cx, sig, want);
}

bool sample_leaky_relu(OpId op, OpSolveCtx *cx, OpSig *sig) {
  return solve_leaky_relu(op, draw_ranked(cx, 0, OP_FLOATS), cx, sig);
}

/* R[i] = A[i] > 0 ? A[i] : A[i] * alpha, one step in A's dtype. */
void k_leaky_relu(OpId op, Tensor *const *args, int nargs, const Attrs *at, Tensor *const *outs,
                  int nouts, Arena *scratch) {
  const Tensor *x = args[0];
  DType dt = outs[0]->dtype;
  double alpha = op_round(dt, ir_attr_float(at, "alpha", 0.25));
  for (int64_t i = 0; i < x->numel; i++) {
    double v = ir_tensor_get_f64(x, i);
    ir_tensor_set_f64(outs[0], i, v > 0 ? v : v * alpha);
  }
}

RelStatus rel_prelu(OpId op, Type *const *args, int nargs, const Attrs *at, Arena *a, Type **out,
                    char *err, size_t errlen) {
  RelStatus st = op_want_tensors(args, nargs, 2, err, errlen);
  if (st != REL_OK)
    return st;
  OpAttrReader r = op_rd_begin(op, at, err, errlen);
  const Type *d = args[0];
  int axis = op_rd_axis(&r, 1, d->tensor.rank, 0);
  if (r.bad || !op_want_dtype(&r, d, OP_FLOATS, "data") ||
      !op_want_vector(&r, args[1], d->tensor.shape[axis], d->tensor.dtype, "alpha"))
    return REL_ERROR;
  *out = ir_type_copy(a, d);
  return REL_OK;
}

bool rec_prelu(OpId op, const Type *want, const OpLimits *lim) {
  return op_fits_dims(lim, want, OP_FLOATS) && want->tensor.rank >= 1;
}

bool solve_prelu(OpId op, const Type *want, OpSolveCtx *cx, OpSig *sig) {
  if (!rec_prelu(op, want, cx->lim))
    return false;
  op_sig_start(cx, sig, 2, NULL);
  int64_t axis = pick_axis_in(cx, 0, want->tensor.rank, 1);
  ir_attr_set_int(cx->arena, &sig->attrs, "axis", axis);
  sig->args[0] = ir_type_copy(cx->arena, want);
  sig->args[1] = op_tensor(cx, want->tensor.dtype, 1, &want->tensor.shape[axis]);
  return op_sig_claim(cx, sig, want);
}

bool sample_prelu(OpId op, OpSolveCtx *cx, OpSig *sig) {
  return solve_prelu(op, draw_ranked(cx, 1, OP_FLOATS), cx, sig);
}

/* R[i] = A[i] > 0 ? A[i] : A[i] * alpha[c], c the index along axis. */
void k_prelu(OpId op, Tensor *const *args, int nargs, const Attrs *at, Tensor *const *outs,
             int nouts, Arena *scratch) {
  const Tensor *x = args[0], *alpha = args[1];
  int64_t outer, len, inner;
  op_split_axis(x, (int)ir_attr_int(at, "axis", 1), &outer, &len, &inner);
  for (int64_t i = 0; i < x->numel; i++) {
    double v = ir_tensor_get_f64(x, i);
    ir_tensor_set_f64(outs[0], i, v > 0 ? v : v * ir_tensor_get_f64(alpha, (i / inner) % len));
  }
}

/* --------------------------------------------------------------- dropout */

/* nn.dropout(A, rate) -> (A's type, A's type). */

RelStatus rel_dropout(OpId op, Type *const *args, int nargs, const Attrs *at, Arena *a, Type **out,
                      char *err, size_t errlen) {
  RelStatus st = op_want_tensors(args, nargs, 1, err, errlen);
  if (st != REL_OK)
    return st;
  OpAttrReader r = op_rd_begin(op, at, err, errlen);
  op_rd_float(&r, "rate", 0.5);
  if (r.bad)
    return REL_ERROR;
  Type *fields[2] = {ir_type_copy(a, args[0]), ir_type_copy(a, args[0])};
  *out = ir_tuple_type(a, 2, fields);
  return REL_OK;
}

bool rec_dropout(OpId op, const Type *want, const OpLimits *lim) {
  return want && want->kind == TY_TUPLE && want->tuple.n == 2 &&
         op_fits_dims(lim, want->tuple.fields[0], OP_ALL) &&
         ir_type_equal(want->tuple.fields[0], want->tuple.fields[1]);
}

bool solve_dropout(OpId op, const Type *want, OpSolveCtx *cx, OpSig *sig) {
  static const double rates[] = {0.5, 0.1, 0.25, 0.0, 0.9};
  if (!rec_dropout(op, want, cx->lim))
    return false;
  op_sig_start(cx, sig, 1, NULL);
  ir_attr_set_float(cx->arena, &sig->attrs, "rate", pick_float(cx, rates, 5));
  sig->args[0] = ir_type_copy(cx->arena, want->tuple.fields[0]);
  return op_sig_claim(cx, sig, want);
}

bool sample_dropout(OpId op, OpSolveCtx *cx, OpSig *sig) {
  Type *t = draw_ranked(cx, 0, OP_ALL), *fields[2] = {t, t};
  return solve_dropout(op, ir_tuple_type(cx->arena, 2, fields), cx, sig);
}

/* Inference: R.0 = A, R.1 = ones (the mask keeps every element). */
void k_dropout(OpId op, Tensor *const *args, int nargs, const Attrs *at, Tensor *const *outs,
               int nouts, Arena *scratch) {
  op_copy_run(outs[0], 0, args[0], 0, args[0]->numel);
  for (int64_t i = 0; i < outs[1]->numel; i++)
    ir_tensor_set_f64(outs[1], i, 1.0);
}

/* ---------------------------------------------------------- l2_normalize */

/* nn.l2_normalize(A, eps, axis): A's type. */

/* Reads eps (required) and axis into a mask of reduced axes (None or []:
 * all of them). */
static uint32_t rd_l2(OpAttrReader *r, int rank, double *eps) {
  if (!ir_attr_get(r->at, "eps"))
    op_rd_fail(r, "attribute eps is required");
  *eps = op_rd_float(r, "eps", 0);
  int64_t ax[IR_MAX_RANK];
  int n = op_rd_ints(r, "axis", IR_MAX_RANK, ax, 0, NULL, true);
  if (r->bad)
    return 0;
  uint32_t mask = 0;
  for (int i = 0; i < n; i++) {
    if (ax[i] < -rank || ax[i] >= rank) {
      op_rd_fail(r, "axis %lld out of range for rank %d", (long long)ax[i], rank);
      return 0;
    }
    int k = (int)(ax[i] < 0 ? ax[i] + rank : ax[i]);
    if (mask >> k & 1) {
      op_rd_fail(r, "axis %d appears twice", k);
      return 0;
    }
    mask |= 1u << k;
  }
  return n > 0 ? mask : (1u << rank) - 1;
}

RelStatus rel_l2_normalize(OpId op, Type *const *args, int nargs, const Attrs *at, Arena *a,
                           Type **out, char *err, size_t errlen) {
  RelStatus st = op_want_tensors(args, nargs, 1, err, errlen);
  if (st != REL_OK)
    return st;
  OpAttrReader r = op_rd_begin(op, at, err, errlen);
  double eps;
  rd_l2(&r, args[0]->tensor.rank, &eps);
  if (r.bad || !op_want_dtype(&r, args[0], OP_FLOATS, "data"))
    return REL_ERROR;
  *out = ir_type_copy(a, args[0]);
  return REL_OK;
}

bool rec_l2_normalize(OpId op, const Type *want, const OpLimits *lim) {
  return op_fits_dims(lim, want, OP_FLOATS);
}

bool solve_l2_normalize(OpId op, const Type *want, OpSolveCtx *cx, OpSig *sig) {
  static const double eps[] = {1e-12, 1e-5, 1e-3, 1.0, 0.0};
  if (!rec_l2_normalize(op, want, cx->lim))
    return false;
  op_sig_start(cx, sig, 1, NULL);
  int rank = want->tensor.rank;
  ir_attr_set_float(cx->arena, &sig->attrs, "eps", pick_float(cx, eps, 5));
  int n = rank ? (int)op_choose(cx->ch, (uint32_t)rank + 1) : 0; /* 0: None */
  if (n == 0) {
    ir_attr_set_none(cx->arena, &sig->attrs, "axis");
  } else {
    int64_t ax[IR_MAX_RANK];
    int free[IR_MAX_RANK], nfree = rank;
    for (int i = 0; i < rank; i++)
      free[i] = i;
    for (int i = 0; i < n; i++) { /* n distinct axes, each maybe from the end */
      int k = (int)op_choose(cx->ch, (uint32_t)nfree);
      ax[i] = op_choose(cx->ch, 2) ? free[k] - rank : free[k];
      free[k] = free[--nfree];
    }
    ir_attr_set_ints(cx->arena, &sig->attrs, "axis", n, ax);
  }
  sig->args[0] = ir_type_copy(cx->arena, want);
  return op_sig_claim(cx, sig, want);
}

bool sample_l2_normalize(OpId op, OpSolveCtx *cx, OpSig *sig) {
  return solve_l2_normalize(op, draw_ranked(cx, 0, OP_FLOATS), cx, sig);
}

/* The flat index of i's slice: its coordinate with the reduced axes at 0. */
static int64_t slice_of(const Tensor *x, uint32_t mask, int64_t i) {
  int64_t c[IR_MAX_RANK], k = 0;
  op_unravel(i, x->rank, x->shape, c);
  for (int d = 0; d < x->rank; d++)
    k = k * x->shape[d] + (mask >> d & 1 ? 0 : c[d]);
  return k;
}

/* R = A / sqrt(max(S, eps)) with S the sum of the squares of A's slice
 * (each square a step, the sum in double in row-major order rounded
 * once). */
void k_l2_normalize(OpId op, Tensor *const *args, int nargs, const Attrs *at, Tensor *const *outs,
                    int nouts, Arena *scratch) {
  const Tensor *x = args[0];
  DType dt = outs[0]->dtype;
  double eps;
  OpAttrReader r = {at, NULL, 0, false};
  uint32_t mask = rd_l2(&r, x->rank, &eps);
  eps = attr_f32(dt, eps);
  double *sum = ARENA_ARRAY(scratch, double, x->numel ? x->numel : 1);
  for (int64_t i = 0; i < x->numel; i++)
    sum[i] = 0;
  for (int64_t i = 0; i < x->numel; i++) {
    double v = ir_tensor_get_f64(x, i);
    sum[slice_of(x, mask, i)] += op_round(dt, v * v);
  }
  for (int64_t i = 0; i < x->numel; i++) {
    double s = op_fmax(op_round(dt, sum[slice_of(x, mask, i)]), eps);
    ir_tensor_set_f64(outs[0], i, op_fdiv(ir_tensor_get_f64(x, i), op_round(dt, sqrt(s))));
  }
}

/* ------------------------------------------------------------------- lrn */

/* nn.lrn(A [4-D], size, axis, bias, alpha, beta): A's type. */

typedef struct LrnAttrs {
  int64_t size;
  int axis;
  double bias, alpha, beta;
} LrnAttrs;

static LrnAttrs rd_lrn(OpAttrReader *r) {
  LrnAttrs l;
  l.size = op_rd_int(r, "size", 5);
  l.axis = (int)op_rd_int(r, "axis", 1);
  l.bias = op_rd_float(r, "bias", 2);
  l.alpha = op_rd_float(r, "alpha", 1e-4);
  l.beta = op_rd_float(r, "beta", 0.75);
  if (!r->bad && (l.size < 1 || l.size % 2 == 0))
    op_rd_fail(r, "size must be odd and positive, got %lld", (long long)l.size);
  if (!r->bad && l.axis != 1 && l.axis != 3)
    op_rd_fail(r, "axis must be 1 (NCHW) or 3 (NHWC), got %d", l.axis);
  return l;
}

RelStatus rel_lrn(OpId op, Type *const *args, int nargs, const Attrs *at, Arena *a, Type **out,
                  char *err, size_t errlen) {
  RelStatus st = op_want_tensors(args, nargs, 1, err, errlen);
  if (st != REL_OK)
    return st;
  OpAttrReader r = op_rd_begin(op, at, err, errlen);
  rd_lrn(&r);
  if (r.bad || !op_want_dtype(&r, args[0], OP_FLOATS, "data"))
    return REL_ERROR;
  if (args[0]->tensor.rank != 4)
    return op_fail(err, errlen, "data must have rank 4, got %d", args[0]->tensor.rank);
  *out = ir_type_copy(a, args[0]);
  return REL_OK;
}

bool rec_lrn(OpId op, const Type *want, const OpLimits *lim) {
  return op_fits_dims(lim, want, OP_FLOATS) && want->tensor.rank == 4;
}

bool solve_lrn(OpId op, const Type *want, OpSolveCtx *cx, OpSig *sig) {
  static const int64_t sizes[] = {5, 1, 3, 7};
  static const double bias[] = {2, 1, 0.5, 0}, alpha[] = {1e-4, 1e-3, 0.1, 1},
                      beta[] = {0.75, 0.5, 1, 2};
  if (!rec_lrn(op, want, cx->lim))
    return false;
  op_sig_start(cx, sig, 1, NULL);
  Attrs *at = &sig->attrs;
  ir_attr_set_int(cx->arena, at, "size", op_pick_of(cx, sizes, 4));
  ir_attr_set_int(cx->arena, at, "axis", op_choose(cx->ch, 2) ? 3 : 1);
  ir_attr_set_float(cx->arena, at, "bias", pick_float(cx, bias, 4));
  ir_attr_set_float(cx->arena, at, "alpha", pick_float(cx, alpha, 4));
  ir_attr_set_float(cx->arena, at, "beta", pick_float(cx, beta, 4));
  sig->args[0] = ir_type_copy(cx->arena, want);
  return op_sig_claim(cx, sig, want);
}

bool sample_lrn(OpId op, OpSolveCtx *cx, OpSig *sig) {
  return op_sample_tensor(solve_lrn, op, cx, sig, 4, cx->lim->max_numel, OP_FLOATS);
}

/* R = A / (bias + alpha * S / size) ^ beta, S the sum over the size
 * channels centred on the element (inside A) of their squares: each
 * square a step, the sum in double rounded once, then one step per
 * operation in the order written. */
void k_lrn(OpId op, Tensor *const *args, int nargs, const Attrs *at, Tensor *const *outs, int nouts,
           Arena *scratch) {
  const Tensor *x = args[0];
  DType dt = outs[0]->dtype;
  OpAttrReader r = {at, NULL, 0, false};
  LrnAttrs l = rd_lrn(&r);
  double alpha = attr_f32(dt, l.alpha), beta = attr_f32(dt, l.beta), bias = attr_f32(dt, l.bias);
  int64_t outer, len, inner, half = l.size / 2;
  op_split_axis(x, l.axis, &outer, &len, &inner);
  for (int64_t i = 0; i < x->numel; i++) {
    int64_t c = (i / inner) % len, base = i - c * inner;
    double s = 0;
    for (int64_t k = op_max64(0, c - half); k <= op_min64(len - 1, c + half); k++) {
      double v = ir_tensor_get_f64(x, base + k * inner);
      s += op_round(dt, v * v);
    }
    double d = op_round(dt, op_round(dt, alpha * op_round(dt, s)) / (double)l.size);
    double p = op_round(dt, pow(op_round(dt, bias + d), beta));
    ir_tensor_set_f64(outs[0], i, op_fdiv(ir_tensor_get_f64(x, i), p));
  }
}

/* ---------------------------------------------- instance_norm, group_norm */

/* nn.instance_norm(A, gamma, beta, axis, epsilon, center, scale) and
 * nn.group_norm(A, gamma, beta, num_groups, axis, ...): A's type; gamma
 * and beta have A's dim at axis. */

RelStatus rel_group_norm(OpId op, Type *const *args, int nargs, const Attrs *at, Arena *a,
                         Type **out, char *err, size_t errlen) {
  RelStatus st = op_want_tensors(args, nargs, 3, err, errlen);
  if (st != REL_OK)
    return st;
  OpAttrReader r = op_rd_begin(op, at, err, errlen);
  const Type *d = args[0];
  int rank = d->tensor.rank;
  int64_t groups = op == OP_GROUP_NORM ? op_rd_int(&r, "num_groups", 0) : 1;
  int axis = op_rd_axis(&r, 1, rank, -rank);
  op_rd_float(&r, "epsilon", 1e-5);
  op_rd_bool(&r, "center", true);
  op_rd_bool(&r, "scale", true);
  if (r.bad || !op_want_dtype(&r, d, OP_FLOATS, "data"))
    return REL_ERROR;
  if (op == OP_INSTANCE_NORM && rank < 3)
    return op_fail(err, errlen, "data must have rank >= 3, got %d", rank);
  int64_t c = d->tensor.shape[axis];
  if (groups < 1)
    return op_fail(err, errlen, "num_groups must be positive, got %lld", (long long)groups);
  if (!op_dim_any(c) && c % groups)
    return op_fail(err, errlen, "num_groups=%lld must divide the %lld channels", (long long)groups,
                   (long long)c);
  if (!op_want_vector(&r, args[1], c, d->tensor.dtype, "gamma") ||
      !op_want_vector(&r, args[2], c, d->tensor.dtype, "beta"))
    return REL_ERROR;
  *out = ir_type_copy(a, d);
  return REL_OK;
}

bool rec_group_norm(OpId op, const Type *want, const OpLimits *lim) {
  return op_fits_dims(lim, want, OP_FLOATS) && want->tensor.rank >= (op == OP_GROUP_NORM ? 1 : 3);
}

bool solve_group_norm(OpId op, const Type *want, OpSolveCtx *cx, OpSig *sig) {
  static const double eps[] = {1e-5, 1e-3, 0.1, 1.0, 0.0};
  if (!rec_group_norm(op, want, cx->lim))
    return false;
  op_sig_start(cx, sig, 3, NULL);
  int rank = want->tensor.rank;
  int64_t axis = pick_axis_in(cx, -rank, rank, 1),
          c = want->tensor.shape[axis < 0 ? axis + rank : axis];
  Attrs *at = &sig->attrs;
  if (op == OP_GROUP_NORM) {
    int64_t div[64];
    int n = 0;
    for (int64_t g = 1; g <= (c ? c : 1) && n < 64; g++)
      if (c % g == 0)
        div[n++] = g;
    ir_attr_set_int(cx->arena, at, "num_groups", op_pick_of(cx, div, n));
  }
  ir_attr_set_int(cx->arena, at, "axis", axis);
  ir_attr_set_float(cx->arena, at, "epsilon", pick_float(cx, eps, 5));
  ir_attr_set_bool(cx->arena, at, "center", !op_choose(cx->ch, 2));
  ir_attr_set_bool(cx->arena, at, "scale", !op_choose(cx->ch, 2));
  sig->args[0] = ir_type_copy(cx->arena, want);
  sig->args[1] = sig->args[2] = op_tensor(cx, want->tensor.dtype, 1, &c);
  return op_sig_claim(cx, sig, want);
}

bool sample_group_norm(OpId op, OpSolveCtx *cx, OpSig *sig) {
  if (op_rank_cap(cx->lim) < (op == OP_GROUP_NORM ? 1 : 3))
    return false;
  return solve_group_norm(op, draw_ranked(cx, op == OP_GROUP_NORM ? 1 : 3, OP_FLOATS), cx, sig);
}

/* The group element i of x is normalised in, and how many groups there
 * are: instance_norm's (index along 0, channel), group_norm's (indices
 * before axis, group of the channel). */
static int64_t norm_group(OpId op, const Tensor *x, int axis, int64_t groups, int64_t i,
                          int64_t *ngroups) {
  int64_t outer, len, inner;
  op_split_axis(x, axis, &outer, &len, &inner);
  int64_t c = (i / inner) % len, o = i / (len * inner);
  if (op == OP_GROUP_NORM) {
    *ngroups = outer * groups;
    return o * groups + c / (len / groups);
  }
  if (axis == 0) {
    *ngroups = len;
    return c;
  }
  *ngroups = x->shape[0] * len;
  return i / op_prod(x->shape, 1, x->rank) * len + c;
}

/* R = (A - mean) / sqrt(var + eps) * gamma[c] + beta[c] with the mean and
 * (population) variance of each group, sums in double in row-major order
 * rounded once, every other operation a step in A's dtype. */
void k_group_norm(OpId op, Tensor *const *args, int nargs, const Attrs *at, Tensor *const *outs,
                  int nouts, Arena *scratch) {
  const Tensor *x = args[0], *gamma = args[1], *beta = args[2];
  DType dt = outs[0]->dtype;
  int axis = (int)ir_attr_int(at, "axis", 1);
  axis = axis < 0 ? axis + x->rank : axis;
  int64_t groups = op == OP_GROUP_NORM ? ir_attr_int(at, "num_groups", 1) : 1, n, outer, len, inner;
  bool center = ir_attr_bool(at, "center", true), scale = ir_attr_bool(at, "scale", true);
  double eps = attr_f32(dt, ir_attr_float(at, "epsilon", 1e-5));
  if (x->numel == 0)
    return;
  op_split_axis(x, axis, &outer, &len, &inner);
  norm_group(op, x, axis, groups, 0, &n);
  double *sum = ARENA_ARRAY(scratch, double, 2 * n);
  double *sq = sum + n;
  for (int64_t g = 0; g < 2 * n; g++)
    sum[g] = 0;
  int64_t count = x->numel / n, unused;
  for (int64_t i = 0; i < x->numel; i++)
    sum[norm_group(op, x, axis, groups, i, &unused)] += ir_tensor_get_f64(x, i);
  for (int64_t g = 0; g < n; g++)
    sum[g] = op_round(dt, sum[g] / (double)count); /* the mean */
  for (int64_t i = 0; i < x->numel; i++) {
    int64_t g = norm_group(op, x, axis, groups, i, &unused);
    double d = op_round(dt, ir_tensor_get_f64(x, i) - sum[g]);
    sq[g] += op_round(dt, d * d);
  }
  for (int64_t i = 0; i < x->numel; i++) {
    int64_t g = norm_group(op, x, axis, groups, i, &unused), c = (i / inner) % len;
    double var = op_round(dt, sq[g] / (double)count);
    double s = op_round(dt, sqrt(op_round(dt, var + eps)));
    double v = op_round(dt, op_fdiv(op_round(dt, ir_tensor_get_f64(x, i) - sum[g]), s));
    if (scale)
      v = op_round(dt, v * ir_tensor_get_f64(gamma, c));
    if (center)
      v = op_round(dt, v + ir_tensor_get_f64(beta, c));
    ir_tensor_set_f64(outs[0], i, v);
  }
}

/* ------------------------------------------------------- global max pool */

/* nn.global_max_pool2d(A [N, C, H, W]) -> [N, C, 1, 1]. */

/* Reads layout (and out_layout when the schema has it): NCHW only. */
static void rd_pool_layouts(OpAttrReader *r, OpId op) {
  op_rd_layout(r, "layout", "NCHW");
  if (op != OP_GLOBAL_MAX_POOL2D) {
    const char *ol = op_rd_str(r, "out_layout", "");
    if (!r->bad && ol[0] && strcmp(ol, "NCHW") != 0)
      op_rd_fail(r, "out_layout must be \"\" or \"NCHW\", got \"%s\"", ol);
  }
}

RelStatus rel_global_max_pool2d(OpId op, Type *const *args, int nargs, const Attrs *at, Arena *a,
                                Type **out, char *err, size_t errlen) {
  RelStatus st = op_want_tensors(args, nargs, 1, err, errlen);
  if (st != REL_OK)
    return st;
  OpAttrReader r = op_rd_begin(op, at, err, errlen);
  rd_pool_layouts(&r, op);
  if (r.bad || !op_want_dtype(&r, args[0], OP_NUMERIC, "data"))
    return REL_ERROR;
  if (args[0]->tensor.rank != 4)
    return op_fail(err, errlen, "data must have rank 4 (NCHW), got %d", args[0]->tensor.rank);
  int64_t shape[4] = {args[0]->tensor.shape[0], args[0]->tensor.shape[1], 1, 1};
  *out = ir_tensor_type(a, args[0]->tensor.dtype, 4, shape);
  return REL_OK;
}

bool rec_global_max_pool2d(OpId op, const Type *want, const OpLimits *lim) {
  return op_fits_dims(lim, want, OP_NUMERIC) && want->tensor.rank == 4 &&
         want->tensor.shape[2] == 1 && want->tensor.shape[3] == 1;
}

bool solve_global_max_pool2d(OpId op, const Type *want, OpSolveCtx *cx, OpSig *sig) {
  if (!rec_global_max_pool2d(op, want, cx->lim))
    return false;
  op_sig_start(cx, sig, 1, NULL);
  const OpLimits *lim = cx->lim;
  int64_t nc = op_mul_sat(want->tensor.shape[0], want->tensor.shape[1]);
  int64_t lo = lim->min_dim > 0 ? 1 : 0;
  int64_t h =
      op_pick_pref(cx, lo, op_max64(1, op_min64(lim->max_dim, op_quota(lim->max_numel, nc))), 1);
  int64_t w = op_pick_pref(
      cx, lo, op_max64(1, op_min64(lim->max_dim, op_quota(lim->max_numel, op_mul_sat(nc, h)))), 1);
  ir_attr_set_str(cx->arena, &sig->attrs, "layout", "NCHW");
  int64_t ds[4] = {want->tensor.shape[0], want->tensor.shape[1], h, w};
  sig->args[0] = op_tensor(cx, want->tensor.dtype, 4, ds);
  return op_sig_claim(cx, sig, want);
}

bool sample_global_max_pool2d(OpId op, OpSolveCtx *cx, OpSig *sig) {
  int64_t shape[4];
  if (cx->lim->max_rank < 4)
    return false;
  op_draw_shape(cx, 2, cx->lim->max_numel, shape);
  shape[2] = shape[3] = 1;
  return solve_global_max_pool2d(op, op_tensor(cx, op_draw_dtype(cx, OP_NUMERIC), 4, shape), cx,
                                 sig);
}

/* The largest of A's n elements from base (a NaN wins); the lowest value
 * of the dtype when n is 0. */
static void max_into(const Tensor *x, const int64_t *idx, int64_t n, Tensor *r, int64_t ri) {
  if (ir_dtype_is_float(x->dtype)) {
    double m = -INFINITY;
    for (int64_t k = 0; k < n; k++)
      m = op_fmax(m, ir_tensor_get_f64(x, idx[k]));
    ir_tensor_set_f64(r, ri, m);
    return;
  }
  int64_t m = (int64_t)lowest_of(x->dtype);
  for (int64_t k = 0; k < n; k++) {
    int64_t v = ir_tensor_get_i64(x, idx[k]);
    m = v > m ? v : m;
  }
  ir_tensor_set_i64(r, ri, m);
}

void k_global_max_pool2d(OpId op, Tensor *const *args, int nargs, const Attrs *at,
                         Tensor *const *outs, int nouts, Arena *scratch) {
  const Tensor *x = args[0];
  int64_t hw = x->shape[2] * x->shape[3];
  int64_t *idx = ARENA_ARRAY(scratch, int64_t, hw ? hw : 1);
  for (int64_t nc = 0; nc < outs[0]->numel; nc++) {
    for (int64_t k = 0; k < hw; k++)
      idx[k] = nc * hw + k;
    max_into(x, idx, hw, outs[0], nc);
  }
}

/* -------------------------------------------------------- adaptive pools */

/* nn.adaptive_avg_pool2d and nn.adaptive_max_pool2d(A [N, C, H, W],
 * output_size) -> [N, C, OH, OW]. */

/* Reads output_size into o[2] from the input extents in[2]. */
static void rd_output_size(OpAttrReader *r, const int64_t *in, int64_t *o) {
  int64_t v[2];
  int n = op_rd_ints(r, "output_size", 2, v, 0, NULL, true);
  if (r->bad)
    return;
  if (n <= 0) {
    o[0] = in[0];
    o[1] = in[1];
    return;
  }
  o[0] = v[0];
  o[1] = n == 2 ? v[1] : v[0];
  if (o[0] < 0 || o[1] < 0)
    op_rd_fail(r, "output_size must be non-negative, got [%lld, %lld]", (long long)o[0],
               (long long)o[1]);
}

RelStatus rel_adaptive_pool2d(OpId op, Type *const *args, int nargs, const Attrs *at, Arena *a,
                              Type **out, char *err, size_t errlen) {
  RelStatus st = op_want_tensors(args, nargs, 1, err, errlen);
  if (st != REL_OK)
    return st;
  OpAttrReader r = op_rd_begin(op, at, err, errlen);
  const Type *d = args[0];
  int64_t o[2], in[2] = {0, 0};
  if (d->tensor.rank == 4)
    memcpy(in, d->tensor.shape + 2, sizeof in);
  rd_output_size(&r, in, o);
  rd_pool_layouts(&r, op);
  uint32_t dts = op == OP_ADAPTIVE_MAX_POOL2D ? OP_NUMERIC : OP_FLOATS;
  if (r.bad || !op_want_dtype(&r, d, dts, "data"))
    return REL_ERROR;
  if (d->tensor.rank != 4)
    return op_fail(err, errlen, "data must have rank 4 (NCHW), got %d", d->tensor.rank);
  for (int i = 0; i < 2; i++) { /* the kernel computes (k + 1) * in + o - 1, k < o */
    int64_t p;
    if (!op_dim_any(in[i]) && !op_dim_any(o[i]) &&
        (__builtin_add_overflow(o[i], 1, &p) || __builtin_mul_overflow(p, in[i], &p) ||
         __builtin_add_overflow(p, o[i], &p)))
      return op_fail(err, errlen, "output_size too large for the input");
  }
  int64_t shape[4] = {d->tensor.shape[0], d->tensor.shape[1], o[0], o[1]};
  return op_result(a, d->tensor.dtype, 4, shape, out, err, errlen);
}

bool rec_adaptive_pool2d(OpId op, const Type *want, const OpLimits *lim) {
  return op_fits_dims(lim, want, op == OP_ADAPTIVE_MAX_POOL2D ? OP_NUMERIC : OP_FLOATS) &&
         want->tensor.rank == 4;
}

bool solve_adaptive_pool2d(OpId op, const Type *want, OpSolveCtx *cx, OpSig *sig) {
  if (!rec_adaptive_pool2d(op, want, cx->lim))
    return false;
  op_sig_start(cx, sig, 1, NULL);
  const OpLimits *lim = cx->lim;
  const int64_t *s = want->tensor.shape;
  int64_t nc = op_mul_sat(s[0], s[1]), in[2], lo = lim->min_dim > 0 ? 1 : 0;
  for (int i = 0; i < 2; i++) { /* choice 0: the output's extent */
    int64_t used = op_mul_sat(nc, i ? in[0] : 1), l = op_min64(lo, s[2 + i]);
    int64_t hi = op_min64(lim->max_dim, op_quota(lim->max_numel, used));
    in[i] = op_pick_pref(cx, l, op_max64(l, i ? hi : op_max64(s[2], hi)), s[2 + i]);
  }
  int64_t forms[3], nf = 0;
  if (in[0] == s[2] && in[1] == s[3])
    forms[nf++] = 0; /* None */
  if (s[2] == s[3])
    forms[nf++] = 1;
  forms[nf++] = 2;
  int64_t form = op_pick_of(cx, forms, (int)nf);
  if (form == 0)
    ir_attr_set_none(cx->arena, &sig->attrs, "output_size");
  else
    ir_attr_set_ints(cx->arena, &sig->attrs, "output_size", (int)form, s + 2);
  ir_attr_set_str(cx->arena, &sig->attrs, "layout", "NCHW");
  int64_t ds[4] = {s[0], s[1], in[0], in[1]};
  sig->args[0] = op_tensor(cx, want->tensor.dtype, 4, ds);
  return op_sig_claim(cx, sig, want);
}

bool sample_adaptive_pool2d(OpId op, OpSolveCtx *cx, OpSig *sig) {
  return op_sample_tensor(solve_adaptive_pool2d, op, cx, sig, 4, cx->lim->max_numel,
                          op == OP_ADAPTIVE_MAX_POOL2D ? OP_NUMERIC : OP_FLOATS);
}

/* Window k of out along an extent of in: [k * in / out, ceil((k + 1) *
 * in / out)). */
static void adaptive_window(int64_t k, int64_t out, int64_t in, int64_t *lo, int64_t *hi) {
  *lo = k * in / out;
  *hi = ((k + 1) * in + out - 1) / out;
}

void k_adaptive_pool2d(OpId op, Tensor *const *args, int nargs, const Attrs *at,
                       Tensor *const *outs, int nouts, Arena *scratch) {
  const Tensor *x = args[0];
  Tensor *r = outs[0];
  int64_t ih = x->shape[2], iw = x->shape[3], oh = r->shape[2], ow = r->shape[3], ri = 0;
  int64_t *idx = ARENA_ARRAY(scratch, int64_t, ih * iw ? ih * iw : 1);
  for (int64_t nc = 0; nc < r->shape[0] * r->shape[1]; nc++)
    for (int64_t y = 0; y < oh; y++)
      for (int64_t z = 0; z < ow; z++, ri++) {
        int64_t y0, y1, x0, x1, n = 0;
        adaptive_window(y, oh, ih, &y0, &y1);
        adaptive_window(z, ow, iw, &x0, &x1);
        for (int64_t a = y0; a < y1; a++)
          for (int64_t b = x0; b < x1; b++)
            idx[n++] = (nc * ih + a) * iw + b;
        if (op == OP_ADAPTIVE_MAX_POOL2D) {
          max_into(x, idx, n, r, ri);
          continue;
        }
        double sum = 0;
        for (int64_t k = 0; k < n; k++)
          sum += ir_tensor_get_f64(x, idx[k]);
        ir_tensor_set_f64(r, ri, op_fdiv(sum, (double)n));
      }
}

/* ---------------------------------------------------------------- matmul */

/* nn.matmul(A [.., m, k] or [.., k, m] with transpose_a, B [k, n] or
 * [n, k] with transpose_b) -> [.., m, n]; A of rank 1 is [k]. */

RelStatus rel_matmul(OpId op, Type *const *args, int nargs, const Attrs *at, Arena *a, Type **out,
                     char *err, size_t errlen) {
  RelStatus st = op_want_tensors(args, nargs, 2, err, errlen);
  if (st != REL_OK)
    return st;
  OpAttrReader r = op_rd_begin(op, at, err, errlen);
  int64_t units = 0;
  bool has_units = op_rd_opt_int(&r, "units", &units);
  const Type *d = args[0], *w = args[1];
  DType odt = op_rd_out_dtype(&r, d->tensor.dtype);
  bool ta = op_rd_bool(&r, "transpose_a", false), tb = op_rd_bool(&r, "transpose_b", false);
  if (r.bad || !op_want_same_numeric(&r, d, w))
    return REL_ERROR;
  int rank = d->tensor.rank;
  if (rank < (ta ? 2 : 1))
    return op_fail(err, errlen, "tensor_a must have rank >= %d, got %d", ta ? 2 : 1, rank);
  if (w->tensor.rank != 2)
    return op_fail(err, errlen, "tensor_b must have rank 2, got %d", w->tensor.rank);
  const int64_t *ds = d->tensor.shape, *ws = w->tensor.shape;
  int64_t ka = ds[rank - (ta ? 2 : 1)], kb = ws[tb ? 1 : 0], n = ws[tb ? 0 : 1];
  if (!op_dims_match(ka, kb))
    return op_fail(err, errlen, "reduction dimensions %lld and %lld differ", (long long)ka,
                   (long long)kb);
  if (has_units && !op_dim_allows(n, units))
    return op_fail(err, errlen, "units=%lld but tensor_b has %lld output features",
                   (long long)units, (long long)n);
  int64_t shape[IR_MAX_RANK];
  memcpy(shape, ds, sizeof(int64_t) * (size_t)rank);
  if (ta)
    shape[rank - 2] = ds[rank - 1];
  shape[rank - 1] = has_units && units >= 0 && op_dim_any(n) ? units : n;
  *out = ir_tensor_type(a, odt, rank, shape);
  return REL_OK;
}

/* Largest reduction length k for matmul result t within lim (0: none). */
static int64_t matmul_kmax(const Type *t, const OpLimits *lim) {
  int rank = t->tensor.rank;
  int64_t n = t->tensor.shape[rank - 1], lead = op_numel_sat(rank - 1, t->tensor.shape);
  int64_t k = op_min64(lim->max_dim, op_quota(lim->max_numel, lead));
  k = op_min64(k, op_quota(lim->max_numel, n));
  return op_min64(k, op_quota(lim->max_flops, op_numel_sat(rank, t->tensor.shape)));
}

bool rec_matmul(OpId op, const Type *want, const OpLimits *lim) {
  return op_fits_dims(lim, want, OP_NUMERIC) && want->tensor.rank >= 1 &&
         matmul_kmax(want, lim) >= 1;
}

bool solve_matmul(OpId op, const Type *want, OpSolveCtx *cx, OpSig *sig) {
  if (!rec_matmul(op, want, cx->lim))
    return false;
  op_sig_start(cx, sig, 2, NULL);
  int rank = want->tensor.rank;
  int64_t n = want->tensor.shape[rank - 1], k = op_pick(cx, 1, matmul_kmax(want, cx->lim));
  if (op_choose(cx->ch, 2))
    ir_attr_set_int(cx->arena, &sig->attrs, "units", n);
  else
    ir_attr_set_none(cx->arena, &sig->attrs, "units");
  DType in = op_pick_out_dtype(cx, &sig->attrs, want->tensor.dtype);
  bool ta = rank >= 2 && op_choose(cx->ch, 2), tb = op_choose(cx->ch, 2);
  ir_attr_set_bool(cx->arena, &sig->attrs, "transpose_a", ta);
  ir_attr_set_bool(cx->arena, &sig->attrs, "transpose_b", tb);
  int64_t ds[IR_MAX_RANK], ws[2] = {tb ? n : k, tb ? k : n};
  memcpy(ds, want->tensor.shape, sizeof(int64_t) * (size_t)rank);
  if (ta) {
    ds[rank - 2] = k;
    ds[rank - 1] = want->tensor.shape[rank - 2];
  } else {
    ds[rank - 1] = k;
  }
  sig->args[0] = op_tensor(cx, in, rank, ds);
  sig->args[1] = op_tensor(cx, in, 2, ws);
  return op_sig_claim(cx, sig, want);
}

bool sample_matmul(OpId op, OpSolveCtx *cx, OpSig *sig) {
  int64_t shape[IR_MAX_RANK];
  int rank = op_draw_rank(cx, 1, op_rank_cap(cx->lim));
  op_draw_shape(cx, rank, op_min64(cx->lim->max_numel, cx->lim->max_flops), shape);
  return solve_matmul(op, op_tensor(cx, op_draw_dtype(cx, OP_NUMERIC), rank, shape), cx, sig);
}

/* R[.., i, j] = sum_l A[.., i, l] * B[l, j], A and B read transposed as
 * the attributes say; accumulated in the result's dtype (OpAcc). */
void k_matmul(OpId op, Tensor *const *args, int nargs, const Attrs *at, Tensor *const *outs,
              int nouts, Arena *scratch) {
  const Tensor *x = args[0], *w = args[1];
  Tensor *r = outs[0];
  bool ta = ir_attr_bool(at, "transpose_a", false), tb = ir_attr_bool(at, "transpose_b", false);
  int64_t n = r->shape[r->rank - 1], k = w->shape[tb ? 1 : 0];
  int64_t m = r->rank >= 2 ? r->shape[r->rank - 2] : 1;
  int64_t batches = m * n ? r->numel / (m * n) : 0;
  for (int64_t b = 0; b < batches; b++)
    for (int64_t i = 0; i < m; i++)
      for (int64_t j = 0; j < n; j++) {
        OpAcc acc = op_acc_new(r->dtype);
        for (int64_t l = 0; l < k; l++)
          op_acc_mad(&acc, x, b * m * k + (ta ? l * m + i : i * k + l), w,
                     tb ? j * k + l : l * n + j);
        op_acc_store(&acc, r, (b * m + i) * n + j);
      }
}
