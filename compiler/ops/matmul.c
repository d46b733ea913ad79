/*
 * matmul.c - the matrix products nn.dense and nn.batch_matmul: relations,
 * recognizers, solvers, samplers and kernels.  Relations follow Relay's
 * (DenseRel/MatmulRel, BatchMatmulRel) with these deliberate restrictions:
 *
 *   dtypes   both operands have one numeric dtype (not bool); integer
 *            arithmetic wraps.  out_dtype "" means the input's dtype; an
 *            explicit out_dtype converts both operands to it first (floats
 *            to ints saturate, as in cast) and accumulates in it.
 *   batch    batch_matmul broadcasts a batch of 1 against any other (so
 *            1 with 0 gives 0, where Relay's max() would say 1).
 *
 * Solvers.  Every freedom (the reduction length, the batch broadcasting,
 * the attributes) is drawn from a range of values each of which can still
 * be completed within the limits, so the solver never fails once the
 * recognizer has said yes, and choice 0 is always the simplest option.
 * Samplers draw a recognisable result type and solve for it.
 */
#include <assert.h>
#include <string.h>

#include "op_int.h"

/* ----------------------------------------------------------------- dense */

/* nn.dense(data [.., k], weight [units, k]) -> [.., units]. */

RelStatus rel_dense(OpId op, Type *const *args, int nargs, const Attrs *at, Arena *a, Type **out,
                    char *err, size_t errlen) {
  RelStatus st = op_want_tensors(args, nargs, 2, err, errlen);
  if (st != REL_OK)
    return st;
  OpAttrReader r = op_rd_begin(op, at, err, errlen);
  int64_t units = 0;
  bool has_units = op_rd_opt_int(&r, "units", &units);
  const Type *d = args[0], *w = args[1];
  DType odt = op_rd_out_dtype(&r, d->tensor.dtype);
  if (r.bad || !op_want_same_numeric(&r, d, w))
    return REL_ERROR;
  int rank = d->tensor.rank;
  if (rank < 1)
    return op_fail(err, errlen, "data must have rank >= 1");
  if (w->tensor.rank != 2)
    return op_fail(err, errlen, "weight must have rank 2, got %d", w->tensor.rank);
  if (!op_dims_match(w->tensor.shape[1], d->tensor.shape[rank - 1]))
    return op_fail(err, errlen, "weight has %lld input features, data has %lld",
                   (long long)w->tensor.shape[1], (long long)d->tensor.shape[rank - 1]);
  if (has_units && !op_dim_allows(w->tensor.shape[0], units))
    return op_fail(err, errlen, "units=%lld but the weight has %lld rows", (long long)units,
                   (long long)w->tensor.shape[0]);
  int64_t shape[IR_MAX_RANK];
  memcpy(shape, d->tensor.shape, sizeof(int64_t) * (size_t)rank);
  shape[rank - 1] = w->tensor.shape[0];
  if (has_units && units >= 0 &&
      op_dim_any(shape[rank - 1])) /* the static one, as TVM's DenseRel */
    shape[rank - 1] = units;
  *out = ir_tensor_type(a, odt, rank, shape);
  return REL_OK;
}

/* Largest reduction length k for dense result t within lim (0: none). */
static int64_t dense_kmax(const Type *t, const OpLimits *lim) {
  int rank = t->tensor.rank;
  int64_t units = t->tensor.shape[rank - 1];
  int64_t lead = op_numel_sat(rank - 1, t->tensor.shape);
  int64_t k = lim->max_dim;
  k = op_min64(k, op_quota(lim->max_numel, lead));                                /* data */
  k = op_min64(k, op_quota(lim->max_numel, units));                               /* weight */
  k = op_min64(k, op_quota(lim->max_flops, op_numel_sat(rank, t->tensor.shape))); /* flops */
  return k;
}

bool rec_dense(OpId op, const Type *want, const OpLimits *lim) {
  return op_fits_dims(lim, want, OP_NUMERIC) && want->tensor.rank >= 1 &&
         dense_kmax(want, lim) >= 1;
}

bool solve_dense(OpId op, const Type *want, OpSolveCtx *cx, OpSig *sig) {
  if (!rec_dense(op, want, cx->lim))
    return false;
  memset(sig, 0, sizeof *sig);
  int rank = want->tensor.rank;
  int64_t units = want->tensor.shape[rank - 1];
  int64_t k = op_pick(cx, 1, dense_kmax(want, cx->lim));
  if (op_choose(cx->ch, 2))
    ir_attr_set_int(cx->arena, &sig->attrs, "units", units);
  else
    ir_attr_set_none(cx->arena, &sig->attrs, "units");
  DType in = op_pick_out_dtype(cx, &sig->attrs, want->tensor.dtype);
  int64_t dshape[IR_MAX_RANK], wshape[2] = {units, k};
  memcpy(dshape, want->tensor.shape, sizeof(int64_t) * (size_t)rank);
  dshape[rank - 1] = k;
  sig->nargs = 2;
  sig->args[0] = op_tensor(cx, in, rank, dshape);
  sig->args[1] = op_tensor(cx, in, 2, wshape);
  return op_sig_claim(cx, sig, want);
}

bool sample_dense(OpId op, OpSolveCtx *cx, OpSig *sig) {
  int64_t shape[IR_MAX_RANK];
  int rank = op_draw_rank(cx, 1, cx->lim->max_rank);
  op_draw_shape(cx, rank, op_min64(cx->lim->max_numel, cx->lim->max_flops), shape);
  Type *want = op_tensor(cx, op_draw_dtype(cx, OP_NUMERIC), rank, shape);
  return solve_dense(op, want, cx, sig);
}

void k_dense(OpId op, Tensor *const *args, int nargs, const Attrs *at, Tensor *const *outs,
             int nouts, Arena *scratch) {
  const Tensor *d = args[0], *w = args[1];
  Tensor *r = outs[0];
  int64_t units = w->shape[0], k = w->shape[1];
  int64_t rows = units ? r->numel / units : 0;
  for (int64_t i = 0; i < rows; i++)
    for (int64_t u = 0; u < units; u++) {
      OpAcc acc = op_acc_new(r->dtype);
      for (int64_t j = 0; j < k; j++)
        op_acc_mad(&acc, d, i * k + j, w, u * k + j);
      op_acc_store(&acc, r, i * units + u);
    }
}

/* ---------------------------------------------------------- batch_matmul */

/* nn.batch_matmul(x [b, m, k], y [b, n, k]) -> [b, m, n] (y transposed by
 * default; transpose_a and transpose_b choose). */

RelStatus rel_batch_matmul(OpId op, Type *const *args, int nargs, const Attrs *at, Arena *a,
                           Type **out, char *err, size_t errlen) {
  RelStatus st = op_want_tensors(args, nargs, 2, err, errlen);
  if (st != REL_OK)
    return st;
  OpAttrReader r = op_rd_begin(op, at, err, errlen);
  const Type *x = args[0], *y = args[1];
  DType odt = op_rd_out_dtype(&r, x->tensor.dtype);
  bool ta = op_rd_bool(&r, "transpose_a", false), tb = op_rd_bool(&r, "transpose_b", true);
  if (r.bad || !op_want_same_numeric(&r, x, y))
    return REL_ERROR;
  if (x->tensor.rank != 3 || y->tensor.rank != 3)
    return op_fail(err, errlen, "operands must have rank 3, got %d and %d", x->tensor.rank,
                   y->tensor.rank);
  const int64_t *xs = x->tensor.shape, *ys = y->tensor.shape;
  int64_t xk = xs[ta ? 1 : 2], yk = ys[tb ? 2 : 1];
  int64_t shape[3] = {0, xs[ta ? 2 : 1], ys[tb ? 1 : 2]};
  if (!op_dim_bcast(xs[0], ys[0], &shape[0]))
    return op_fail(err, errlen, "batch dimensions %lld and %lld differ", (long long)xs[0],
                   (long long)ys[0]);
  if (!op_dims_match(xk, yk))
    return op_fail(err, errlen, "reduction dimensions %lld and %lld differ", (long long)xk,
                   (long long)yk);
  *out = ir_tensor_type(a, odt, 3, shape);
  return REL_OK;
}

/* Largest k for result t when the operands have batches bx and by. */
static int64_t bmm_kmax(const Type *t, int64_t bx, int64_t by, const OpLimits *lim) {
  const int64_t *s = t->tensor.shape;
  int64_t k = lim->max_dim;
  k = op_min64(k, op_quota(lim->max_numel, op_mul_sat(bx, s[1])));
  k = op_min64(k, op_quota(lim->max_numel, op_mul_sat(by, s[2])));
  k = op_min64(k, op_quota(lim->max_flops, op_numel_sat(3, s)));
  return k;
}

/* The batch pairs (bx, by) giving batch b whose k range is not empty. */
static int bmm_modes(const Type *t, const OpLimits *lim, int64_t modes[3][2]) {
  int64_t b = t->tensor.shape[0];
  int64_t all[3][2] = {{b, b}, {1, b}, {b, 1}};
  int n = 0;
  for (int i = 0; i < (b == 1 ? 1 : 3); i++)
    if (bmm_kmax(t, all[i][0], all[i][1], lim) >= 1) {
      modes[n][0] = all[i][0];
      modes[n][1] = all[i][1];
      n++;
    }
  return n;
}

bool rec_batch_matmul(OpId op, const Type *want, const OpLimits *lim) {
  int64_t modes[3][2];
  return op_fits_dims(lim, want, OP_NUMERIC) && want->tensor.rank == 3 &&
         bmm_modes(want, lim, modes) > 0;
}

bool solve_batch_matmul(OpId op, const Type *want, OpSolveCtx *cx, OpSig *sig) {
  int64_t modes[3][2];
  if (!rec_batch_matmul(op, want, cx->lim))
    return false;
  memset(sig, 0, sizeof *sig);
  int mode = (int)op_choose(cx->ch, (uint32_t)bmm_modes(want, cx->lim, modes));
  int64_t bx = modes[mode][0], by = modes[mode][1];
  int64_t m = want->tensor.shape[1], n = want->tensor.shape[2];
  int64_t k = op_pick(cx, 1, bmm_kmax(want, bx, by, cx->lim));
  DType in = op_pick_out_dtype(cx, &sig->attrs, want->tensor.dtype);
  bool ta = op_choose(cx->ch, 2), tb = !op_choose(cx->ch, 2);
  ir_attr_set_bool(cx->arena, &sig->attrs, "transpose_a", ta);
  ir_attr_set_bool(cx->arena, &sig->attrs, "transpose_b", tb);
  int64_t xs[3] = {bx, ta ? k : m, ta ? m : k}, ys[3] = {by, tb ? n : k, tb ? k : n};
  sig->nargs = 2;
  sig->args[0] = op_tensor(cx, in, 3, xs);
  sig->args[1] = op_tensor(cx, in, 3, ys);
  return op_sig_claim(cx, sig, want);
}

bool sample_batch_matmul(OpId op, OpSolveCtx *cx, OpSig *sig) {
  return op_sample_tensor(solve_batch_matmul, op, cx, sig, 3,
                          op_min64(cx->lim->max_numel, cx->lim->max_flops), OP_NUMERIC);
}

void k_batch_matmul(OpId op, Tensor *const *args, int nargs, const Attrs *at, Tensor *const *outs,
                    int nouts, Arena *scratch) {
  const Tensor *x = args[0], *y = args[1];
  Tensor *r = outs[0];
  bool ta = ir_attr_bool(at, "transpose_a", false), tb = ir_attr_bool(at, "transpose_b", true);
  int64_t k = x->shape[ta ? 1 : 2], m = r->shape[1], n = r->shape[2];
  for (int64_t b = 0; b < r->shape[0]; b++) {
    int64_t xb = x->shape[0] == 1 ? 0 : b, yb = y->shape[0] == 1 ? 0 : b;
    for (int64_t i = 0; i < m; i++)
      for (int64_t j = 0; j < n; j++) {
        OpAcc acc = op_acc_new(r->dtype);
        for (int64_t l = 0; l < k; l++) {
          int64_t xi = xb * m * k + (ta ? l * m + i : i * k + l);
          int64_t yi = yb * n * k + (tb ? j * k + l : l * n + j);
          op_acc_mad(&acc, x, xi, y, yi);
        }
        op_acc_store(&acc, r, (b * m + i) * n + j);
      }
  }
}
