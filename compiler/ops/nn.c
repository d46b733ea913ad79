/*
 * nn.c - the neural-network operators other than the matrix products,
 * conv2d and the pools (matmul.c, conv.c, pool.c): nn.softmax,
 * nn.log_softmax, nn.bias_add, nn.batch_norm, nn.layer_norm and nn.pad.
 * Relations follow Relay's (SoftmaxRel, BiasAddRel, BatchNormRel,
 * LayerNormRel, PadRel) with these deliberate restrictions:
 *
 *   dtypes   bias_add takes any numeric dtype (not bool), data and bias
 *            the same; integer arithmetic wraps.  softmax, log_softmax,
 *            batch_norm and layer_norm are float only.  pad takes every
 *            dtype; its scalar pad value may have any dtype and is
 *            converted to the data's.
 *
 * Solvers.  Every freedom is drawn from a range of values each of which can
 * still be completed within the limits, so the solver never fails once the
 * recognizer has said yes, and choice 0 is always the simplest option
 * (default attributes).  Samplers draw a recognisable result type and
 * solve for it.
 */
#include <assert.h>
#include <math.h>
#include <string.h>

#include "op_int.h"

/* --------------------------------------------------------------- helpers */

/* An axis attribute for rank r among those for which ok(axis value) holds
 * (any of [-r, r) when ok is NULL); choice 0 gives pref if allowed. */
static int64_t pick_axis(OpSolveCtx *cx, int r, int64_t lo, int64_t pref,
                         bool (*ok)(const Type *, int64_t, int), const Type *t) {
  int64_t cand[2 * IR_MAX_RANK + 1];
  int n = 0;
  if (pref >= lo && pref < r && (!ok || ok(t, pref, r)))
    cand[n++] = pref;
  for (int64_t v = lo; v < r; v++)
    if (v != pref && (!ok || ok(t, v, r)))
      cand[n++] = v;
  return op_pick_of(cx, cand, n);
}

/* Draws a result shape of rank in [lo, hi] whose numel is at most budget. */
static int draw_shape(OpSolveCtx *cx, int lo, int hi, int64_t budget, int64_t *shape) {
  int rank = op_draw_rank(cx, lo, hi);
  op_draw_shape(cx, rank, budget, shape);
  return rank;
}

/* Copies src[i] to dst[j] converting to dst's dtype (ints wrap, floats to
 * ints saturate). */
static void elem_convert(const Tensor *src, int64_t i, Tensor *dst, int64_t j) {
  ir_tensor_convert(src, i, dst, j);
}

/* Draws a float tensor type of rank >= 1 within the limits. */
static Type *draw_float_tensor(OpSolveCtx *cx, uint32_t allowed) {
  int64_t shape[IR_MAX_RANK];
  int rank = draw_shape(cx, 1, cx->lim->max_rank, cx->lim->max_numel, shape);
  return op_tensor(cx, op_draw_dtype(cx, allowed), rank, shape);
}

/* --------------------------------------------------------------- softmax */

/* nn.softmax(A, axis) and nn.log_softmax(A, axis): float A, its type. */

RelStatus rel_softmax(OpId op, Type *const *args, int nargs, const Attrs *at, Arena *a, Type **out,
                      char *err, size_t errlen) {
  RelStatus st = op_want_tensors(args, nargs, 1, err, errlen);
  if (st != REL_OK)
    return st;
  OpAttrReader r = op_rd_begin(op, at, err, errlen);
  int rank = args[0]->tensor.rank;
  op_rd_axis(&r, -1, rank, -rank);
  if (r.bad || !op_want_dtype(&r, args[0], OP_FLOATS, "data"))
    return REL_ERROR;
  *out = ir_type_copy(a, args[0]);
  return REL_OK;
}

bool rec_softmax(OpId op, const Type *want, const OpLimits *lim) {
  return op_fits_dims(lim, want, OP_FLOATS) && want->tensor.rank >= 1;
}

bool solve_softmax(OpId op, const Type *want, OpSolveCtx *cx, OpSig *sig) {
  if (!rec_softmax(op, want, cx->lim))
    return false;
  memset(sig, 0, sizeof *sig);
  int rank = want->tensor.rank;
  ir_attr_set_int(cx->arena, &sig->attrs, "axis", pick_axis(cx, rank, -rank, -1, NULL, NULL));
  sig->nargs = 1;
  sig->args[0] = ir_type_copy(cx->arena, want);
  return op_sig_claim(cx, sig, want);
}

bool sample_softmax(OpId op, OpSolveCtx *cx, OpSig *sig) {
  return solve_softmax(op, draw_float_tensor(cx, OP_FLOATS), cx, sig);
}

/* softmax(x) = exp(x - max) * (1 / sum exp(x - max)) along the axis,
 * log_softmax(x) = (x - max) - log sum exp(x - max): each step in x's
 * dtype, the sum accumulated in double and rounded once
 * (docs/operators.md, "Float arithmetic"). */
#ifdef RS_TEST_PASSES
bool op_test_fault_bf16_softmax;
#endif

void k_softmax(OpId op, Tensor *const *args, int nargs, const Attrs *at, Tensor *const *outs,
               int nouts, Arena *scratch) {
  const Tensor *x = args[0];
  Tensor *r = outs[0];
  DType dt = r->dtype;
#ifdef RS_TEST_PASSES
  if (op_test_fault_bf16_softmax && dt == DT_BFLOAT16)
    dt = DT_FLOAT32; /* the deliberate bug: the steps in float32, only the result in bfloat16 */
#endif
  int64_t axis = ir_attr_int(at, "axis", -1), outer, len, inner;
  op_split_axis(x, (int)(axis < 0 ? axis + x->rank : axis), &outer, &len, &inner);
  for (int64_t o = 0; o < outer; o++)
    for (int64_t in = 0; in < inner; in++) {
      int64_t base = o * len * inner + in;
      double m = -INFINITY, sum = 0;
      for (int64_t i = 0; i < len; i++)
        m = op_fmax(m, ir_tensor_get_f64(x, base + i * inner));
      for (int64_t i = 0; i < len; i++)
        sum += op_round(dt, exp(op_round(dt, ir_tensor_get_f64(x, base + i * inner) - m)));
      double s = op_round(dt, sum);
      double inv = op_round(dt, op_fdiv(1.0, s)), lg = op_round(dt, log(s));
      for (int64_t i = 0; i < len; i++) {
        double d = op_round(dt, ir_tensor_get_f64(x, base + i * inner) - m);
        ir_tensor_set_f64(r, base + i * inner,
                          op == OP_SOFTMAX ? op_round(dt, exp(d)) * inv : d - lg);
      }
    }
}

/* -------------------------------------------------------------- bias_add */

/* nn.bias_add(A, bias [A's dim at axis], axis): A + bias along axis. */

RelStatus rel_bias_add(OpId op, Type *const *args, int nargs, const Attrs *at, Arena *a, Type **out,
                       char *err, size_t errlen) {
  RelStatus st = op_want_tensors(args, nargs, 2, err, errlen);
  if (st != REL_OK)
    return st;
  OpAttrReader r = op_rd_begin(op, at, err, errlen);
  const Type *d = args[0];
  int axis = op_rd_axis(&r, 1, d->tensor.rank, -d->tensor.rank);
  if (r.bad || !op_want_dtype(&r, d, OP_NUMERIC, "data") ||
      !op_want_vector(&r, args[1], d->tensor.shape[axis], d->tensor.dtype, "bias"))
    return REL_ERROR;
  *out = ir_type_copy(a, d);
  return REL_OK;
}

bool rec_bias_add(OpId op, const Type *want, const OpLimits *lim) {
  return op_fits_dims(lim, want, OP_NUMERIC) && want->tensor.rank >= 1;
}

bool solve_bias_add(OpId op, const Type *want, OpSolveCtx *cx, OpSig *sig) {
  if (!rec_bias_add(op, want, cx->lim))
    return false;
  memset(sig, 0, sizeof *sig);
  int rank = want->tensor.rank;
  int64_t axis = pick_axis(cx, rank, -rank, 1, NULL, NULL);
  ir_attr_set_int(cx->arena, &sig->attrs, "axis", axis);
  sig->nargs = 2;
  sig->args[0] = ir_type_copy(cx->arena, want);
  sig->args[1] =
      op_tensor(cx, want->tensor.dtype, 1, &want->tensor.shape[axis < 0 ? axis + rank : axis]);
  return op_sig_claim(cx, sig, want);
}

bool sample_bias_add(OpId op, OpSolveCtx *cx, OpSig *sig) {
  return solve_bias_add(op, draw_float_tensor(cx, OP_NUMERIC), cx, sig);
}

/* R = A + B[c] where c is the index along axis (integers wrap). */
void k_bias_add(OpId op, Tensor *const *args, int nargs, const Attrs *at, Tensor *const *outs,
                int nouts, Arena *scratch) {
  const Tensor *x = args[0], *b = args[1];
  Tensor *r = outs[0];
  int64_t axis = ir_attr_int(at, "axis", 1), outer, len, inner;
  op_split_axis(x, (int)(axis < 0 ? axis + x->rank : axis), &outer, &len, &inner);
  for (int64_t i = 0; i < x->numel; i++) {
    int64_t c = (i / inner) % len;
    if (ir_dtype_is_float(x->dtype))
      ir_tensor_set_f64(r, i, ir_tensor_get_f64(x, i) + ir_tensor_get_f64(b, c));
    else
      ir_tensor_set_i64(
          r, i, op_u2i((uint64_t)ir_tensor_get_i64(x, i) + (uint64_t)ir_tensor_get_i64(b, c)));
  }
}

/* --------------------------------------------- batch_norm and layer_norm */

/* nn.batch_norm(A, gamma, beta, moving_mean, moving_var, axis, ...) ->
 * (A's type, mean's, var's) and nn.layer_norm(A, gamma, beta, axis, ...)
 * -> A's type; the vectors have A's dim at axis. */

/* Reads epsilon, center and scale, common to both normalisations. */
static void rd_norm(OpAttrReader *r, double *eps, bool *center, bool *scale) {
  *eps = op_rd_float(r, "epsilon", 1e-5);
  *center = op_rd_bool(r, "center", true);
  *scale = op_rd_bool(r, "scale", true);
}

/* Writes epsilon, center and scale (choice 0: Relay's defaults). */
static void set_norm(OpSolveCtx *cx, Attrs *at) {
  static const double eps[] = {1e-5, 1e-3, 0.1, 1.0, 0.0};
  ir_attr_set_float(cx->arena, at, "epsilon", eps[op_choose(cx->ch, 5)]);
  ir_attr_set_bool(cx->arena, at, "center", !op_choose(cx->ch, 2));
  ir_attr_set_bool(cx->arena, at, "scale", !op_choose(cx->ch, 2));
}

RelStatus rel_batch_norm(OpId op, Type *const *args, int nargs, const Attrs *at, Arena *a,
                         Type **out, char *err, size_t errlen) {
  static const char *names[5] = {"data", "gamma", "beta", "moving_mean", "moving_var"};
  RelStatus st = op_want_tensors(args, nargs, 5, err, errlen);
  if (st != REL_OK)
    return st;
  OpAttrReader r = op_rd_begin(op, at, err, errlen);
  const Type *d = args[0];
  double eps;
  bool center, scale;
  int axis = op_rd_axis(&r, 1, d->tensor.rank, -1); /* Relay allows -1 only */
  rd_norm(&r, &eps, &center, &scale);
  if (r.bad || !op_want_dtype(&r, d, OP_FLOATS, "data"))
    return REL_ERROR;
  for (int i = 1; i < 5; i++)
    if (!op_want_vector(&r, args[i], d->tensor.shape[axis], d->tensor.dtype, names[i]))
      return REL_ERROR;
  Type *fields[3] = {ir_type_copy(a, d), ir_type_copy(a, args[1]), ir_type_copy(a, args[1])};
  *out = ir_tuple_type(a, 3, fields);
  return REL_OK;
}

/* Whether batch_norm axis value v matches the vector length of want. */
static bool bn_axis_ok(const Type *want, int64_t v, int rank) {
  const Type *d = want->tuple.fields[0], *c = want->tuple.fields[1];
  return d->tensor.shape[v < 0 ? v + rank : v] == c->tensor.shape[0];
}

bool rec_batch_norm(OpId op, const Type *want, const OpLimits *lim) {
  if (!want || want->kind != TY_TUPLE || want->tuple.n != 3)
    return false;
  const Type *d = want->tuple.fields[0], *c = want->tuple.fields[1];
  if (!op_fits_dims(lim, d, OP_FLOATS) || d->tensor.rank < 1 || !op_fits_dims(lim, c, OP_FLOATS) ||
      c->tensor.rank != 1 || c->tensor.dtype != d->tensor.dtype ||
      !ir_type_equal(c, want->tuple.fields[2]))
    return false;
  for (int i = 0; i < d->tensor.rank; i++)
    if (bn_axis_ok(want, i, d->tensor.rank))
      return true;
  return false;
}

bool solve_batch_norm(OpId op, const Type *want, OpSolveCtx *cx, OpSig *sig) {
  if (!rec_batch_norm(op, want, cx->lim))
    return false;
  memset(sig, 0, sizeof *sig);
  const Type *d = want->tuple.fields[0];
  ir_attr_set_int(cx->arena, &sig->attrs, "axis",
                  pick_axis(cx, d->tensor.rank, -1, 1, bn_axis_ok, want));
  set_norm(cx, &sig->attrs);
  sig->nargs = 5;
  sig->args[0] = ir_type_copy(cx->arena, d);
  for (int i = 1; i < 5; i++)
    sig->args[i] = ir_type_copy(cx->arena, want->tuple.fields[1]);
  return op_sig_claim(cx, sig, want);
}

bool sample_batch_norm(OpId op, OpSolveCtx *cx, OpSig *sig) {
  Type *d = draw_float_tensor(cx, OP_FLOATS);
  int axis = (int)op_choose(cx->ch, (uint32_t)d->tensor.rank);
  Type *c = op_tensor(cx, d->tensor.dtype, 1, &d->tensor.shape[axis]);
  Type *fields[3] = {d, c, c};
  return solve_batch_norm(op, ir_tuple_type(cx->arena, 3, fields), cx, sig);
}

/* Inference batch norm with the moving statistics:
 * R = (A - mean[c]) / sqrt(var[c] + eps) * gamma[c] + beta[c], gamma
 * taken as 1 unless scale and beta as 0 unless center; the second and
 * third outputs are moving_mean and moving_var unchanged. */
void k_batch_norm(OpId op, Tensor *const *args, int nargs, const Attrs *at, Tensor *const *outs,
                  int nouts, Arena *scratch) {
  const Tensor *x = args[0], *gamma = args[1], *beta = args[2], *mean = args[3], *var = args[4];
  int64_t axis = ir_attr_int(at, "axis", 1), outer, len, inner;
  double eps = ir_attr_float(at, "epsilon", 1e-5);
  bool center = ir_attr_bool(at, "center", true), scale = ir_attr_bool(at, "scale", true);
  op_split_axis(x, (int)(axis < 0 ? axis + x->rank : axis), &outer, &len, &inner);
  DType dt = outs[0]->dtype;
  for (int64_t i = 0; i < x->numel; i++) {
    int64_t c = (i / inner) % len;
    double d = op_round(dt, ir_tensor_get_f64(x, i) - ir_tensor_get_f64(mean, c));
    double s = op_round(dt, sqrt(op_round(dt, ir_tensor_get_f64(var, c) + op_round(dt, eps))));
    double v = op_round(dt, op_fdiv(d, s));
    if (scale)
      v = op_round(dt, v * ir_tensor_get_f64(gamma, c));
    if (center)
      v = op_round(dt, v + ir_tensor_get_f64(beta, c));
    ir_tensor_set_f64(outs[0], i, v);
  }
  for (int64_t c = 0; c < len; c++) {
    elem_convert(mean, c, outs[1], c);
    elem_convert(var, c, outs[2], c);
  }
}

RelStatus rel_layer_norm(OpId op, Type *const *args, int nargs, const Attrs *at, Arena *a,
                         Type **out, char *err, size_t errlen) {
  RelStatus st = op_want_tensors(args, nargs, 3, err, errlen);
  if (st != REL_OK)
    return st;
  OpAttrReader r = op_rd_begin(op, at, err, errlen);
  const Type *d = args[0];
  double eps;
  bool center, scale;
  int axis = op_rd_axis(&r, -1, d->tensor.rank, -d->tensor.rank);
  rd_norm(&r, &eps, &center, &scale);
  if (r.bad || !op_want_dtype(&r, d, OP_FLOATS, "data") ||
      !op_want_vector(&r, args[1], d->tensor.shape[axis], d->tensor.dtype, "gamma") ||
      !op_want_vector(&r, args[2], d->tensor.shape[axis], d->tensor.dtype, "beta"))
    return REL_ERROR;
  *out = ir_type_copy(a, d);
  return REL_OK;
}

bool rec_layer_norm(OpId op, const Type *want, const OpLimits *lim) {
  return op_fits_dims(lim, want, OP_FLOATS) && want->tensor.rank >= 1;
}

bool solve_layer_norm(OpId op, const Type *want, OpSolveCtx *cx, OpSig *sig) {
  if (!rec_layer_norm(op, want, cx->lim))
    return false;
  memset(sig, 0, sizeof *sig);
  int rank = want->tensor.rank;
  int64_t axis = pick_axis(cx, rank, -rank, -1, NULL, NULL);
  ir_attr_set_int(cx->arena, &sig->attrs, "axis", axis);
  set_norm(cx, &sig->attrs);
  Type *c =
      op_tensor(cx, want->tensor.dtype, 1, &want->tensor.shape[axis < 0 ? axis + rank : axis]);
  sig->nargs = 3;
  sig->args[0] = ir_type_copy(cx->arena, want);
  sig->args[1] = sig->args[2] = c;
  return op_sig_claim(cx, sig, want);
}

bool sample_layer_norm(OpId op, OpSolveCtx *cx, OpSig *sig) {
  return solve_layer_norm(op, draw_float_tensor(cx, OP_FLOATS), cx, sig);
}

/* R = (A - mean) / sqrt(var + eps) * gamma + beta with the (population)
 * mean and variance of each slice along axis: mean = sum A / n and var =
 * sum (A - mean)^2 / n, each sum accumulated in double and divided, then
 * rounded once; every other step in A's dtype (docs/operators.md, "Float
 * arithmetic"). */
void k_layer_norm(OpId op, Tensor *const *args, int nargs, const Attrs *at, Tensor *const *outs,
                  int nouts, Arena *scratch) {
  const Tensor *x = args[0], *gamma = args[1], *beta = args[2];
  int64_t axis = ir_attr_int(at, "axis", -1), outer, len, inner;
  double eps = ir_attr_float(at, "epsilon", 1e-5);
  bool center = ir_attr_bool(at, "center", true), scale = ir_attr_bool(at, "scale", true);
  DType dt = outs[0]->dtype;
  op_split_axis(x, (int)(axis < 0 ? axis + x->rank : axis), &outer, &len, &inner);
  if (len == 0)
    return; /* nothing to normalise, nothing to write */
  for (int64_t o = 0; o < outer; o++)
    for (int64_t in = 0; in < inner; in++) {
      int64_t base = o * len * inner + in;
      double sum = 0, sq = 0;
      for (int64_t i = 0; i < len; i++)
        sum += ir_tensor_get_f64(x, base + i * inner);
      double mean = op_round(dt, sum / (double)len);
      for (int64_t i = 0; i < len; i++) {
        double d = op_round(dt, ir_tensor_get_f64(x, base + i * inner) - mean);
        sq += op_round(dt, d * d);
      }
      double var = op_round(dt, sq / (double)len);
      double s = op_round(dt, sqrt(op_round(dt, var + op_round(dt, eps))));
      for (int64_t i = 0; i < len; i++) {
        double d = op_round(dt, ir_tensor_get_f64(x, base + i * inner) - mean);
        double v = op_round(dt, op_fdiv(d, s));
        if (scale)
          v = op_round(dt, v * ir_tensor_get_f64(gamma, i));
        if (center)
          v = op_round(dt, v + ir_tensor_get_f64(beta, i));
        ir_tensor_set_f64(outs[0], base + i * inner, v);
      }
    }
}

/* ------------------------------------------------------------------- pad */

/* nn.pad(A, pad_value, pad_width, pad_mode): each dim grown (or cropped,
 * by negative widths) by its (before, after) pair. */

typedef enum PadMode { PAD_CONSTANT, PAD_EDGE, PAD_REFLECT } PadMode;

static const char *const pad_modes[3] = {"constant", "edge", "reflect"};

/* Reads pad_width (pairs, one per dim of rank; absent means no padding)
 * and pad_mode. */
static PadMode rd_pad(OpAttrReader *r, int rank, int64_t *before, int64_t *after) {
  const Attr *x = ir_attr_get(r->at, "pad_width");
  memset(before, 0, sizeof(int64_t) * IR_MAX_RANK);
  memset(after, 0, sizeof(int64_t) * IR_MAX_RANK);
  if (x && x->kind != AV_PAIRS)
    op_rd_fail(r, "pad_width must be a list of pairs");
  else if (x && x->n != rank)
    op_rd_fail(r, "pad_width has %d pairs for rank %d", x->n, rank);
  else
    for (int i = 0; x && i < rank; i++) {
      before[i] = x->ints[2 * i];
      after[i] = x->ints[2 * i + 1];
    }
  const char *mode = op_rd_str(r, "pad_mode", "constant");
  for (int m = 0; m < 3; m++)
    if (strcmp(mode, pad_modes[m]) == 0)
      return (PadMode)m;
  op_rd_fail(r, "pad_mode \"%s\" is not constant, edge or reflect", mode);
  return PAD_CONSTANT;
}

RelStatus rel_pad(OpId op, Type *const *args, int nargs, const Attrs *at, Arena *a, Type **out,
                  char *err, size_t errlen) {
  RelStatus st = op_want_tensors(args, nargs, 2, err, errlen);
  if (st != REL_OK)
    return st;
  OpAttrReader r = op_rd_begin(op, at, err, errlen);
  const Type *d = args[0];
  int rank = d->tensor.rank;
  int64_t before[IR_MAX_RANK], after[IR_MAX_RANK], shape[IR_MAX_RANK];
  PadMode mode = rd_pad(&r, rank, before, after);
  if (r.bad)
    return REL_ERROR;
  if (args[1]->tensor.rank != 0)
    return op_fail(err, errlen, "pad_value must be a scalar, got rank %d", args[1]->tensor.rank);
  for (int i = 0; i < rank; i++) {
    int64_t n = d->tensor.shape[i];
    if (op_dim_any(n)) { /* the extent and its checks wait for the run time */
      shape[i] = IR_DIM_ANY;
      continue;
    }
    if (__builtin_add_overflow(n, before[i], &shape[i]) ||
        __builtin_add_overflow(shape[i], after[i], &shape[i]))
      return op_fail(err, errlen, "pad_width too large in dim %d", i);
    if (shape[i] < 0)
      return op_fail(err, errlen, "padding dim %d of extent %lld by (%lld, %lld) leaves %lld", i,
                     (long long)n, (long long)before[i], (long long)after[i], (long long)shape[i]);
    int64_t last; /* the kernel reads index o - before for o < shape */
    if (__builtin_sub_overflow(shape[i], before[i], &last))
      return op_fail(err, errlen, "pad_width too large in dim %d", i);
    if (mode == PAD_EDGE && n == 0 && shape[i] > 0)
      return op_fail(err, errlen, "edge padding needs a non-empty dim %d", i);
    if (mode == PAD_REFLECT && (before[i] > n - 1 || after[i] > n - 1) &&
        (before[i] > 0 || after[i] > 0))
      return op_fail(err, errlen, "reflect padding (%lld, %lld) of dim %d needs pads below %lld",
                     (long long)before[i], (long long)after[i], i, (long long)n);
  }
  *out = ir_tensor_type(a, d->tensor.dtype, rank, shape);
  return REL_OK;
}

bool rec_pad(OpId op, const Type *want, const OpLimits *lim) {
  return op_fits_dims(lim, want, OP_ALL) && lim->max_numel >= 1;
}

/* Smallest data extent the solver uses for output extent t in mode m
 * (reflect pads at most n - 1 on each side). */
static int64_t pad_min_extent(int64_t t, PadMode m) {
  if (t == 0)
    return 0;
  return m == PAD_REFLECT ? (t + 4) / 3 : 1;
}

/* Draws, per dim, the data extent n (choice 0: n = t, no padding) and the
 * split of t - n into before and after (both >= 0, or both <= 0 when the
 * data is cropped); data numel stays within the limit because each later
 * dim can still take its minimal extent. */
bool solve_pad(OpId op, const Type *want, OpSolveCtx *cx, OpSig *sig) {
  if (!rec_pad(op, want, cx->lim))
    return false;
  memset(sig, 0, sizeof *sig);
  const OpLimits *lim = cx->lim;
  int rank = want->tensor.rank;
  const int64_t *t = want->tensor.shape;
  PadMode mode = (PadMode)op_choose(cx->ch, 3);
  int64_t shape[IR_MAX_RANK], pairs[2 * IR_MAX_RANK], used = 1;
  for (int i = 0; i < rank; i++) {
    int64_t rest = 1;
    for (int j = i + 1; j < rank; j++)
      rest = op_mul_sat(rest, pad_min_extent(t[j], mode));
    int64_t n = 0, lo = pad_min_extent(t[i], mode);
    if (t[i] > 0)
      n = op_pick_pref(
          cx, lo,
          op_max64(lo, op_min64(lim->max_dim, op_quota(lim->max_numel, op_mul_sat(used, rest)))),
          t[i]);
    int64_t s = t[i] - n, b;
    if (t[i] == 0)
      b = 0;
    else if (s < 0)
      b = op_pick(cx, s, 0);
    else if (mode == PAD_REFLECT)
      b = op_pick(cx, op_max64(0, s - (n - 1)), op_min64(s, n - 1));
    else
      b = op_pick(cx, 0, s);
    shape[i] = n;
    pairs[2 * i] = b;
    pairs[2 * i + 1] = s - b;
    used = op_mul_sat(used, n);
  }
  ir_attr_set_pairs(cx->arena, &sig->attrs, "pad_width", rank, pairs);
  ir_attr_set_str(cx->arena, &sig->attrs, "pad_mode", pad_modes[mode]);
  DType vdt = op_choose(cx->ch, 2) ? op_draw_dtype(cx, OP_ALL) : want->tensor.dtype;
  sig->nargs = 2;
  sig->args[0] = op_tensor(cx, want->tensor.dtype, rank, shape);
  sig->args[1] = ir_scalar_type(cx->arena, vdt);
  return op_sig_claim(cx, sig, want);
}

bool sample_pad(OpId op, OpSolveCtx *cx, OpSig *sig) {
  int64_t shape[IR_MAX_RANK];
  int rank = draw_shape(cx, 0, cx->lim->max_rank, cx->lim->max_numel, shape);
  return solve_pad(op, op_tensor(cx, op_draw_dtype(cx, OP_ALL), rank, shape), cx, sig);
}

/* R[o] = A[o - before] where inside; outside, the pad value converted to
 * A's dtype (constant), the nearest element (edge) or the mirror image
 * without repeating the border (reflect). */
void k_pad(OpId op, Tensor *const *args, int nargs, const Attrs *at, Tensor *const *outs, int nouts,
           Arena *scratch) {
  const Tensor *x = args[0];
  Tensor *r = outs[0];
  int64_t before[IR_MAX_RANK], after[IR_MAX_RANK], coord[IR_MAX_RANK];
  OpAttrReader rd = {at, NULL, 0, false};
  PadMode mode = rd_pad(&rd, x->rank, before, after);
  size_t size = (size_t)ir_dtype_size(x->dtype);
  for (int64_t o = 0; o < r->numel; o++) {
    op_unravel(o, r->rank, r->shape, coord);
    int64_t src = 0;
    bool inside = true;
    for (int i = 0; i < x->rank && inside; i++) {
      int64_t n = x->shape[i], k = coord[i] - before[i];
      if (k < 0 || k >= n) {
        if (mode == PAD_CONSTANT)
          inside = false;
        else if (mode == PAD_EDGE)
          k = k < 0 ? 0 : n - 1;
        else
          k = k < 0 ? -k : 2 * (n - 1) - k;
      }
      src = src * n + k;
    }
    if (inside)
      memcpy((char *)r->data + (size_t)o * size, (const char *)x->data + (size_t)src * size, size);
    else
      elem_convert(args[1], 0, r, o);
  }
}
