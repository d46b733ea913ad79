/*
 * stats.c - the logical and statistical reductions all, any, logsumexp,
 * variance and std: relations, recognizers, solvers, samplers and
 * kernels.
 *
 * Attributes: axis, keepdims and exclude as for sum (reduction.c: None or
 * [] reduces every axis; exclude reduces the axes not listed), and
 * unbiased (default False) for variance and std.  all and any take and
 * give bool; logsumexp, variance and std take and give floats.
 *
 * variance takes two arguments, as TVM's relay `variance` (the Python
 * relay.variance passes mean(A, axis, keepdims=True, exclude) as the
 * second): the data A and the mean M, of A's dtype and rank, each dim of M
 * equal to A's or 1 (TVM checks only the rank; a larger dim would
 * broadcast A beyond its own shape).  TVM has no std operator (relay.std
 * builds sqrt(variance(A, mean))); relayc's std is that composite, with
 * variance's arguments and attributes.  TVM's logsumexp is a Python
 * composite too (max, subtract, exp, sum, log, add); relayc's is one
 * operator, with sum's attributes.
 *
 * Defined behaviour, each step in A's dtype in TVM's order (docs/operators.md,
 * "Float arithmetic"; a sum accumulated in double and rounded once):
 *   all, any      over no elements: true and false.
 *   logsumexp     M = max over the slice (max's rules: NaN wins), then
 *                 log(sum(exp(A - M))) + M; over no elements -inf; a slice
 *                 whose max is +-inf gives NaN (inf - inf), as TVM's.
 *   variance      sum((A - M) * (A - M)) / n, n the number of elements
 *                 reduced (n - 1 when unbiased) as a float: n = 0 divides
 *                 by zero (IEEE).
 *   std           sqrt(variance).
 * TVM's relations refuse variance of a rank-0 input and its compute an
 * exclude that leaves no axis (an internal check); relayc extends the
 * formula there: nothing reduced makes each element its own slice, n = 1.
 */
#include <math.h>

#include "op_int.h"

enum { BOOL_ONLY = 1u << DT_BOOL };

static bool has_mean(OpId op) {
  return op == OP_VARIANCE || op == OP_STD;
}

/* The dtypes of A (and of the result). */
static uint32_t stats_dtypes(OpId op) {
  return op == OP_REDUCE_ALL || op == OP_REDUCE_ANY ? BOOL_ONLY : OP_FLOATS;
}

/* Check variance's mean m against the data x. */
static RelStatus check_mean(const Type *x, const Type *m, char *err, size_t errlen) {
  char bx[96], bm[96];
  if (m->tensor.dtype != x->tensor.dtype || m->tensor.rank != x->tensor.rank)
    return op_fail(err, errlen, "mean %s must have the dtype and rank of the data %s",
                   op_type_str(m, bm, sizeof bm), op_type_str(x, bx, sizeof bx));
  for (int i = 0; i < x->tensor.rank; i++) {
    int64_t d = m->tensor.shape[i];
    if (!op_dim_is(d, 1) && !op_dims_match(d, x->tensor.shape[i]))
      return op_fail(err, errlen, "mean %s does not broadcast to the data %s",
                     op_type_str(m, bm, sizeof bm), op_type_str(x, bx, sizeof bx));
  }
  return REL_OK;
}

RelStatus rel_stats(OpId op, Type *const *args, int nargs, const Attrs *at, Arena *a, Type **out,
                    char *err, size_t errlen) {
  RelStatus s = op_check_attrs(op, at, err, errlen);
  if (s == REL_OK)
    s = op_want_tensors(args, nargs, has_mean(op) ? 2 : 1, err, errlen);
  if (s != REL_OK)
    return s;
  const Type *x = args[0];
  DType dt = x->tensor.dtype;
  if (!(stats_dtypes(op) & (1u << dt)))
    return op_fail(err, errlen, "expects a %s tensor, got %s",
                   stats_dtypes(op) == BOOL_ONLY ? "bool" : "float", ir_dtype_name(dt));
  if (has_mean(op) && check_mean(x, args[1], err, errlen) != REL_OK)
    return REL_ERROR;
  uint32_t mask;
  if (op_reduce_mask(at, x->tensor.rank, &mask, err, errlen) != REL_OK)
    return REL_ERROR;
  int64_t shape[IR_MAX_RANK];
  int r = op_reduce_shape(x, mask, ir_attr_bool(at, "keepdims", false), shape);
  *out = ir_tensor_type(a, dt, r, shape);
  return REL_OK;
}

bool rec_stats(OpId op, const Type *want, const OpLimits *lim) {
  return op_fits_dtype(want, lim, stats_dtypes(op));
}

/* Draw variance's mean for data x reduced over mask, and unbiased: a
 * reduced axis of the mean is 1 (choice 0) or x's dim, a kept one x's dim
 * (choice 0) or 1. */
static void draw_mean(OpSolveCtx *cx, OpSig *sig) {
  const Type *x = sig->args[0];
  uint32_t mask = 0;
  op_reduce_mask(&sig->attrs, x->tensor.rank, &mask, NULL, 0); /* valid: drawn */
  int64_t shape[IR_MAX_RANK];
  for (int i = 0; i < x->tensor.rank; i++) {
    bool red = mask >> i & 1, other = op_choose(cx->ch, 2);
    shape[i] = red != other ? 1 : x->tensor.shape[i];
  }
  sig->args[1] = op_tensor(cx, x->tensor.dtype, x->tensor.rank, shape);
  sig->nargs = 2;
  if (op_choose(cx->ch, 2))
    ir_attr_set_bool(cx->arena, &sig->attrs, "unbiased", true);
}

bool solve_stats(OpId op, const Type *want, OpSolveCtx *cx, OpSig *sig) {
  if (!rec_stats(op, want, cx->lim) || !op_reduce_solve(op, want, cx, sig, want->tensor.dtype))
    return false;
  if (has_mean(op))
    draw_mean(cx, sig);
  return true;
}

bool sample_stats(OpId op, OpSolveCtx *cx, OpSig *sig) {
  uint32_t allowed = stats_dtypes(op) & cx->lim->dtypes;
  if (!allowed)
    return false;
  return solve_stats(op, op_draw_tensor(cx, 0, cx->lim->max_rank, allowed), cx, sig);
}

/* ---------------------------------------------------------------- kernel */

/* The index of input element j's slice: its coordinate on the kept axes,
 * row-major (the result's index, with or without keepdims). */
static int64_t slice_of(const Tensor *x, uint32_t mask, int64_t j) {
  int64_t c[IR_MAX_RANK], o = 0;
  op_unravel(j, x->rank, x->shape, c);
  for (int i = 0; i < x->rank; i++)
    if (!(mask >> i & 1))
      o = o * x->shape[i] + c[i];
  return o;
}

/* The index in m (dims 1 or x's) of input element j. */
static int64_t mean_index(const Tensor *x, const Tensor *m, int64_t j) {
  int64_t c[IR_MAX_RANK], k = 0;
  op_unravel(j, x->rank, x->shape, c);
  for (int i = 0; i < x->rank; i++)
    k = k * m->shape[i] + (m->shape[i] == 1 ? 0 : c[i]);
  return k;
}

void k_stats(OpId op, Tensor *const *args, int nargs, const Attrs *at, Tensor *const *outs,
             int nouts, Arena *scratch) {
  const Tensor *x = args[0];
  Tensor *r = outs[0];
  DType dt = x->dtype;
  uint32_t mask;
  if (op_reduce_mask(at, x->rank, &mask, NULL, 0) != REL_OK)
    return; /* the relation rejects these attributes */
  int64_t n = r->numel ? x->numel / r->numel : 0, no = r->numel ? r->numel : 1;
  double *acc = ARENA_ARRAY(scratch, double, no), *hi = ARENA_ARRAY(scratch, double, no);
  for (int64_t o = 0; o < r->numel; o++)
    acc[o] = op == OP_REDUCE_ALL, hi[o] = -INFINITY;
  if (op == OP_LOGSUMEXP) /* M: the max of each slice */
    for (int64_t j = 0; j < x->numel; j++) {
      int64_t o = slice_of(x, mask, j);
      hi[o] = op_fmax(hi[o], ir_tensor_get_f64(x, j));
    }
  for (int64_t j = 0; j < x->numel; j++) {
    int64_t o = slice_of(x, mask, j);
    double v = ir_tensor_get_f64(x, j);
    if (op == OP_REDUCE_ALL)
      acc[o] = acc[o] && v != 0;
    else if (op == OP_REDUCE_ANY)
      acc[o] = acc[o] || v != 0;
    else if (op == OP_LOGSUMEXP)
      acc[o] += op_round(dt, exp(op_round(dt, v - hi[o])));
    else {
      double d = op_round(dt, v - ir_tensor_get_f64(args[1], mean_index(x, args[1], j)));
      acc[o] += op_round(dt, d * d);
    }
  }
  /* The count of a slice is n (1 when nothing is reduced, 0 when empty). */
  double count = (double)n - (ir_attr_bool(at, "unbiased", false) ? 1 : 0);
  for (int64_t o = 0; o < r->numel; o++) {
    double v = acc[o];
    if (op == OP_LOGSUMEXP)
      v = op_round(dt, log(op_round(dt, v))) + hi[o];
    else if (has_mean(op))
      v = op_fdiv(op_round(dt, v), count);
    if (op == OP_STD)
      v = sqrt(op_round(dt, v));
    ir_tensor_set_f64(r, o, v);
  }
}
