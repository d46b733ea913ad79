/*
 * gather.c - gathers and scatters by index tensors: gather, gather_nd and
 * scatter_elements.  For each, its relation, recognizer, solver, sampler
 * and kernel (op.h states their contracts).
 *
 * The relations follow Relay's (GatherRel, GatherNDRel, ScatterElementsRel
 * in src/relay/op/tensor/transform.cc) and the kernels topi's (gather,
 * gather_nd in include/tvm/topi/transform.h, python/tvm/topi/
 * scatter_elements.py).  Where TVM is undefined, relayc defines:
 *   - Out-of-range indices (TVM reads or writes out of bounds).  Every
 *     index into an axis of n elements is first counted from the end when
 *     negative (k + n, once, as TVM's scatter_elements does), then clamped
 *     to [0, n - 1].  gather and gather_nd from an empty axis give zeros;
 *     scatter_elements into an empty axis writes nothing.
 *   - gather: indices of data's rank with data's dims outside axis (Relay
 *     asserts equality there) and at least one index along axis; axis is
 *     required.
 *   - gather_nd: indices (M, Y_0, ..., Y_{K-1}) of any dtype (TVM casts a
 *     non-integer one to int32; relayc converts as cast converts to int64,
 *     then clamps), M + batch_dims <= data's rank and batch_dims <= K are
 *     checked (Relay does not), batch_dims >= 0.  index_rank, when given,
 *     must equal M, and stands for an Any M.
 *   - scatter_elements: indices and updates of one shape and data's rank,
 *     at most data's dims outside axis (TVM reads past them otherwise);
 *     updates of data's dtype; reductions other than "update" need a
 *     numeric dtype.  Duplicate indices are applied in row-major order of
 *     the indices (TVM's order along each fibre of axis: the last write
 *     wins for "update").  Each step is one operation in data's dtype:
 *     add and mul wrap for integers and round once for floats; mean is
 *     (out + u) / 2, the sum rounded (or wrapped) first, integers
 *     truncating toward zero; min and max as minimum and maximum (NaN
 *     wins, -0 below +0).
 * Every result shape is checked for overflow and for rank <= 6.  The
 * test build's bad_gather_axis (bad_relations.c) is a gather relation
 * that takes the result's dim along axis from the data; the ctest
 * oracle_bad_gather_axis shows pass_fuzzer finds it.
 */
#include <string.h>

#include "op_int.h"

/* The index dtypes a solver for a result of type want may use. */
static uint32_t index_dtypes(const Type *want, const OpLimits *lim) {
  return ((1u << DT_INT32) | (1u << DT_INT64)) & (lim->dtypes | (1u << want->tensor.dtype));
}

/* Index k into an axis of n > 0 elements: a negative one counted from the
 * end once, then clamped to [0, n). */
static int64_t clamp_index(int64_t k, int64_t n) {
  if (k < 0)
    k = k < -n ? -1 : k + n;
  return k < 0 ? 0 : k >= n ? n - 1 : k;
}

/* A relation's first checks: the attributes against the schema, then n
 * shaped tensor arguments. */
static RelStatus want_args(OpId op, const Attrs *at, Type *const *args, int nargs, int n, char *err,
                           size_t errlen) {
  RelStatus s = op_check_attrs(op, at, err, errlen);
  return s == REL_OK ? op_want_shaped(args, nargs, n, err, errlen) : s;
}

/* Element i of an index tensor as an int64 (floats as cast converts). */
static int64_t index_at(const Tensor *ix, int64_t i) {
  return op_elem_i(ix, i, DT_INT64);
}

/* ---------------------------------------------------------------- gather */

/* gather(data, indices, axis): R[c] = data[c with c[axis] = I[c]], R of
 * the indices' shape. */

/* gather's axis: required, in [-rank, rank). */
static RelStatus gather_axis(const Attrs *at, int rank, int *axis, char *err, size_t errlen) {
  bool given;
  int64_t v = 0;
  RelStatus s = op_get_opt_int(at, "axis", &given, &v, err, errlen);
  if (s != REL_OK)
    return s;
  if (!given)
    return op_fail(err, errlen, "axis is required");
  return op_want_axis(v, rank, axis, err, errlen);
}

RelStatus rel_gather(OpId op, Type *const *args, int nargs, const Attrs *at, Arena *a, Type **out,
                     char *err, size_t errlen) {
  int axis;
  RelStatus s = want_args(op, at, args, nargs, 2, err, errlen);
  if (s != REL_OK)
    return s;
  const Type *d = args[0], *ix = args[1];
  int r = d->tensor.rank;
  if (!ir_dtype_is_int(ix->tensor.dtype))
    return op_fail(err, errlen, "indices must have an integer dtype, got %s",
                   ir_dtype_name(ix->tensor.dtype));
  if (ix->tensor.rank != r)
    return op_fail(err, errlen, "indices have rank %d, data %d (they must be equal)",
                   ix->tensor.rank, r);
  if ((s = gather_axis(at, r, &axis, err, errlen)) != REL_OK)
    return s;
  int64_t shape[IR_MAX_RANK];
  for (int i = 0; i < r; i++) {
    int64_t di = d->tensor.shape[i], ii = ix->tensor.shape[i];
    if (i == axis) {
      if (!op_dim_any(ii) && ii < 1)
        return op_fail(err, errlen, "indices have no element along axis %d", axis);
      shape[i] = ii;
    } else if (!op_dims_match(di, ii)) {
      return op_fail(err, errlen, "indices have %lld elements along axis %d, data %lld",
                     (long long)ii, i, (long long)di);
    } else {
      shape[i] = op_dim_meet(ii, di);
    }
  }
  return op_result(a, d->tensor.dtype, r, shape, out, err, errlen);
}

/* An axis of want that may be gathered along: a dim >= 1. */
static bool gather_axis_ok(const Type *want, int i) {
  return want->tensor.shape[i] >= 1;
}

bool rec_gather(OpId op, const Type *want, const OpLimits *lim) {
  if (!op_fits_elems(want, lim) || want->tensor.rank < 1 || !index_dtypes(want, lim))
    return false;
  for (int i = 0; i < want->tensor.rank; i++)
    if (gather_axis_ok(want, i))
      return true;
  return false;
}

bool solve_gather(OpId op, const Type *want, OpSolveCtx *cx, OpSig *sig) {
  if (!rec_gather(op, want, cx->lim))
    return false;
  int r = want->tensor.rank, cand[IR_MAX_RANK], nc = 0;
  for (int i = 0; i < r; i++)
    if (gather_axis_ok(want, i))
      cand[nc++] = i;
  int axis = cand[op_pick_below(cx, nc)];
  int64_t ds[IR_MAX_RANK], others = 1, dmax = cx->lim->max_dim;
  memcpy(ds, want->tensor.shape, sizeof ds);
  for (int i = 0; i < r; i++)
    others = op_mul_sat(others, i == axis ? 1 : ds[i]);
  if (others > 0 && cx->lim->max_numel / others < dmax)
    dmax = cx->lim->max_numel / others;
  if (dmax < 1)
    dmax = 1;
  /* The data's extent along axis: 1 .. dmax, or 0 (last) when empty
   * tensors are allowed. */
  int64_t v = op_pick_below(cx, dmax + (cx->lim->min_dim < 1));
  ds[axis] = v == dmax ? 0 : v + 1;
  DType idt = op_pick_dtype(cx, index_dtypes(want, cx->lim));
  op_sig_start(cx, sig, 2, want);
  sig->args[0] = op_like(cx->arena, want, r, ds);
  sig->args[1] = ir_tensor_type(cx->arena, idt, r, want->tensor.shape);
  ir_attr_set_int(cx->arena, &sig->attrs, "axis", op_enc_axis(cx, axis, r));
  return true;
}

bool sample_gather(OpId op, OpSolveCtx *cx, OpSig *sig) {
  if (!op_can_sample(cx, 1))
    return false;
  Type *t = op_draw_tensor_maybe_empty(cx, 1, op_rank_cap(cx->lim), OP_ALL);
  if (t->tensor.rank == 1 && t->tensor.shape[0] == 0)
    t->tensor.shape[0] = 1; /* keep an axis to gather along */
  return solve_gather(op, t, cx, sig);
}

void k_gather(OpId op, Tensor *const *args, int nargs, const Attrs *at, Tensor *const *outs,
              int nouts, Arena *scratch) {
  int axis;
  int64_t c[IR_MAX_RANK] = {0}, ds[IR_MAX_RANK];
  if (nargs != 2 || nouts != 1 || gather_axis(at, args[0]->rank, &axis, NULL, 0) != REL_OK)
    return;
  Tensor *x = args[0], *ix = args[1], *y = outs[0];
  if (x->dtype != y->dtype || ix->rank != x->rank || !op_has_shape(y, ix->rank, ix->shape) ||
      y->numel == 0)
    return;
  for (int i = 0; i < x->rank; i++)
    if (i != axis && x->shape[i] != ix->shape[i])
      return;
  memset(y->data, 0, (size_t)y->numel * (size_t)ir_dtype_size(y->dtype));
  int64_t n = x->shape[axis];
  if (n == 0)
    return; /* gathering from an empty axis gives zeros */
  op_strides(x->rank, x->shape, ds);
  for (int64_t i = 0; i < y->numel; i++) {
    int64_t src = 0;
    for (int d = 0; d < x->rank; d++)
      src += (d == axis ? clamp_index(index_at(ix, i), n) : c[d]) * ds[d];
    op_copy_run(y, i, x, src, 1);
    op_next_coord(y->rank, y->shape, c);
  }
}

/* ------------------------------------------------------------- gather_nd */

/* gather_nd(data, indices, batch_dims, index_rank): indices (M, Y...):
 * R[y..., x...] = data[y[:B]..., I[0, y...], ..., I[M-1, y...], x...]. */

/* gather_nd's plan: the batch dims B and the index tuple's length M. */
typedef struct NdPlan {
  int b, m;
} NdPlan;

/* Read gather_nd's attributes and check them against the ranks; m0 is
 * the indices' first dim (possibly Any). */
static RelStatus nd_plan(const Attrs *at, int drank, int irank, int64_t m0, NdPlan *p, char *err,
                         size_t errlen) {
  bool given;
  int64_t b, ir = 0;
  RelStatus s = op_get_int(at, "batch_dims", 0, &b, err, errlen);
  if (s == REL_OK)
    s = op_get_opt_int(at, "index_rank", &given, &ir, err, errlen);
  if (s != REL_OK)
    return s;
  if (irank < 1)
    return op_fail(err, errlen, "indices must have rank at least 1");
  if (given && !op_dim_allows(m0, ir))
    return op_fail(err, errlen, "index_rank %lld differs from the indices' first dim %lld",
                   (long long)ir, (long long)m0);
  if (op_dim_any(m0) && !given)
    return op_fail(err, errlen, "the indices' first dim must be static (or index_rank given)");
  int64_t m = op_dim_any(m0) ? ir : m0;
  if (b < 0 || b > irank - 1)
    return op_fail(err, errlen, "batch_dims %lld is out of range [0, %d]", (long long)b, irank - 1);
  if (m < 0 || m + b > drank)
    return op_fail(err, errlen, "%lld indexed dims after %lld batch dims exceed the data's rank %d",
                   (long long)m, (long long)b, drank);
  p->b = (int)b;
  p->m = (int)m;
  return REL_OK;
}

RelStatus rel_gather_nd(OpId op, Type *const *args, int nargs, const Attrs *at, Arena *a,
                        Type **out, char *err, size_t errlen) {
  NdPlan p;
  RelStatus s = want_args(op, at, args, nargs, 2, err, errlen);
  if (s != REL_OK)
    return s;
  const Type *d = args[0], *ix = args[1];
  int dr = d->tensor.rank, ir = ix->tensor.rank;
  s = nd_plan(at, dr, ir, ir >= 1 ? ix->tensor.shape[0] : 0, &p, err, errlen);
  if (s != REL_OK)
    return s;
  int64_t shape[2 * IR_MAX_RANK];
  int r = 0;
  for (int i = 1; i < ir; i++) {
    int64_t ii = ix->tensor.shape[i];
    if (i - 1 < p.b) {
      int64_t di = d->tensor.shape[i - 1];
      if (!op_dims_match(di, ii))
        return op_fail(err, errlen, "batch dim %d: data has %lld, indices %lld", i - 1,
                       (long long)di, (long long)ii);
      ii = op_dim_meet(ii, di);
    }
    shape[r++] = ii;
  }
  for (int i = p.m + p.b; i < dr; i++)
    shape[r++] = d->tensor.shape[i];
  return op_result(a, d->tensor.dtype, r, shape, out, err, errlen);
}

/* Can gather_nd produce want with K of want's dims from the indices
 * (indices of rank K + 1, data ending with want[K:]) within lim? */
static bool nd_split_ok(const Type *want, int k, const OpLimits *lim) {
  int r = want->tensor.rank, cap = op_rank_cap(lim);
  int64_t tail = op_numel_sat(r - k, want->tensor.shape + k);
  return k + 1 <= cap && r - k + 1 <= cap && tail <= lim->max_numel;
}

bool rec_gather_nd(OpId op, const Type *want, const OpLimits *lim) {
  if (!op_fits_elems(want, lim) || !index_dtypes(want, lim))
    return false;
  for (int k = 0; k <= want->tensor.rank; k++)
    if (nd_split_ok(want, k, lim))
      return true;
  return false;
}

bool solve_gather_nd(OpId op, const Type *want, OpSolveCtx *cx, OpSig *sig) {
  if (!rec_gather_nd(op, want, cx->lim))
    return false;
  const int64_t *t = want->tensor.shape;
  int r = want->tensor.rank, cap = op_rank_cap(cx->lim), ks[IR_MAX_RANK + 1], nk = 0;
  int64_t lim = cx->lim->max_numel;
  for (int k = r; k >= 0; k--)
    if (nd_split_ok(want, k, cx->lim))
      ks[nk++] = k;
  int k = ks[op_pick_below(cx, nk)];
  int64_t tail = op_numel_sat(r - k, t + k);
  /* Batch dims: want's first b dims are the data's too. */
  int bmax = 0;
  while (bmax < k && bmax + 1 + 1 + (r - k) <= cap &&
         op_mul_sat(op_numel_sat(bmax + 1, t), tail) <= lim)
    bmax++;
  int b = (int)op_pick_below(cx, bmax + 1);
  int64_t base = op_mul_sat(op_numel_sat(b, t), tail), lead = op_numel_sat(k, t);
  /* The index tuple's length m >= 1 when the indices fit, else 0. */
  int64_t mmax = cap - b - (r - k);
  if (lead > 0 && lim / lead < mmax)
    mmax = lim / lead;
  int m = mmax >= 1 ? 1 + (int)op_pick_below(cx, mmax) : 0;
  int64_t ds[IR_MAX_RANK], is[IR_MAX_RANK], left = base > 0 ? lim / base : lim;
  int nd = 0;
  for (int i = 0; i < b; i++)
    ds[nd++] = t[i];
  for (int j = 0; j < m; j++) {
    int64_t hi = left < cx->lim->max_dim ? left : cx->lim->max_dim;
    ds[nd] = 1 + op_pick_below(cx, hi < 1 ? 1 : hi);
    left /= ds[nd++];
  }
  for (int i = k; i < r; i++)
    ds[nd++] = t[i];
  is[0] = m;
  memcpy(is + 1, t, (size_t)k * sizeof *t);
  DType idt = op_pick_dtype(cx, index_dtypes(want, cx->lim));
  op_sig_start(cx, sig, 2, want);
  sig->args[0] = op_like(cx->arena, want, nd, ds);
  sig->args[1] = ir_tensor_type(cx->arena, idt, k + 1, is);
  if (b > 0 || op_coin(cx))
    ir_attr_set_int(cx->arena, &sig->attrs, "batch_dims", b);
  if (op_coin(cx))
    ir_attr_set_int(cx->arena, &sig->attrs, "index_rank", m);
  return true;
}

bool sample_gather_nd(OpId op, OpSolveCtx *cx, OpSig *sig) {
  return op_sample_via(solve_gather_nd, op, cx, sig, 0);
}

void k_gather_nd(OpId op, Tensor *const *args, int nargs, const Attrs *at, Tensor *const *outs,
                 int nouts, Arena *scratch) {
  NdPlan p;
  if (nargs != 2 || nouts != 1 || args[1]->rank < 1 ||
      nd_plan(at, args[0]->rank, args[1]->rank, args[1]->shape[0], &p, NULL, 0) != REL_OK)
    return;
  Tensor *x = args[0], *ix = args[1], *y = outs[0];
  int k = ix->rank - 1, tail = x->rank - p.m - p.b;
  int64_t shape[2 * IR_MAX_RANK], c[2 * IR_MAX_RANK] = {0}, xs[IR_MAX_RANK];
  for (int i = 0; i < k; i++)
    shape[i] = ix->shape[i + 1];
  for (int i = 0; i < tail; i++)
    shape[k + i] = x->shape[p.m + p.b + i];
  for (int i = 0; i < p.b; i++)
    if (x->shape[i] != ix->shape[i + 1])
      return;
  if (x->dtype != y->dtype || !op_has_shape(y, k + tail, shape) || y->numel == 0)
    return;
  memset(y->data, 0, (size_t)y->numel * (size_t)ir_dtype_size(y->dtype));
  if (x->numel == 0)
    return; /* gathering from an empty tensor gives zeros */
  op_strides(x->rank, x->shape, xs);
  int64_t ipos = y->numel / op_prod(shape + k, 0, tail); /* positions of one index tuple */
  for (int64_t i = 0; i < y->numel; i++) {
    int64_t src = 0, at_ix = i / op_prod(shape + k, 0, tail); /* row-major over Y... */
    for (int d = 0; d < p.b; d++)
      src += c[d] * xs[d];
    for (int j = 0; j < p.m; j++)
      src += clamp_index(index_at(ix, j * ipos + at_ix), x->shape[p.b + j]) * xs[p.b + j];
    for (int d = 0; d < tail; d++)
      src += c[k + d] * xs[p.b + p.m + d];
    op_copy_run(y, i, x, src, 1);
    op_next_coord(k + tail, shape, c);
  }
}

/* ------------------------------------------------------ scatter_elements */

/* scatter_elements(data, indices, updates, axis, reduction): a copy of
 * data, then for each position p of the indices in row-major order,
 * R[p with p[axis] = I[p]] = f(that element, U[p]). */

/* scatter_elements's reductions, in the order the solver draws them. */
static const char *const reductions[] = {"update", "add", "mul", "mean", "min", "max"};
enum { NRED = 6 };

/* Read axis and reduction for data of the given rank and dtype. */
static RelStatus scatter_plan(const Attrs *at, int rank, DType dt, int *axis, int *red, char *err,
                              size_t errlen) {
  int64_t v;
  const char *rs;
  RelStatus s = op_get_int(at, "axis", 0, &v, err, errlen);
  if (s == REL_OK)
    s = op_get_str(at, "reduction", "update", &rs, err, errlen);
  if (s == REL_OK)
    s = op_want_axis(v, rank, axis, err, errlen);
  if (s != REL_OK)
    return s;
  for (*red = 0; *red < NRED && strcmp(reductions[*red], rs) != 0; (*red)++)
    ;
  if (*red == NRED)
    return op_fail(err, errlen, "reduction must be update, add, mul, mean, min or max, got \"%s\"",
                   rs);
  if (*red > 0 && !(OP_NUMERIC & (1u << dt)))
    return op_fail(err, errlen, "reduction %s needs a numeric dtype, got %s", rs,
                   ir_dtype_name(dt));
  return REL_OK;
}

RelStatus rel_scatter_elements(OpId op, Type *const *args, int nargs, const Attrs *at, Arena *a,
                               Type **out, char *err, size_t errlen) {
  int axis, red;
  RelStatus s = want_args(op, at, args, nargs, 3, err, errlen);
  if (s != REL_OK)
    return s;
  const Type *d = args[0], *ix = args[1], *u = args[2];
  int r = d->tensor.rank;
  if (!ir_dtype_is_int(ix->tensor.dtype))
    return op_fail(err, errlen, "indices must have an integer dtype, got %s",
                   ir_dtype_name(ix->tensor.dtype));
  if (u->tensor.dtype != d->tensor.dtype)
    return op_fail(err, errlen, "updates have dtype %s, data %s", ir_dtype_name(u->tensor.dtype),
                   ir_dtype_name(d->tensor.dtype));
  if (ix->tensor.rank != r || u->tensor.rank != r)
    return op_fail(err, errlen, "indices and updates must have the data's rank %d, got %d and %d",
                   r, ix->tensor.rank, u->tensor.rank);
  if ((s = scatter_plan(at, r, d->tensor.dtype, &axis, &red, err, errlen)) != REL_OK)
    return s;
  int64_t shape[IR_MAX_RANK];
  for (int i = 0; i < r; i++) {
    int64_t di = d->tensor.shape[i], ii = ix->tensor.shape[i], ui = u->tensor.shape[i];
    if (!op_dims_match(ii, ui))
      return op_fail(err, errlen, "indices and updates differ along axis %d: %lld and %lld", i,
                     (long long)ii, (long long)ui);
    ii = op_dim_meet(ii, ui);
    if (i != axis && !op_dim_any(ii) && !op_dim_any(di) && ii > di)
      return op_fail(err, errlen, "indices have %lld elements along axis %d, data only %lld",
                     (long long)ii, i, (long long)di);
    shape[i] = di;
  }
  return op_result(a, d->tensor.dtype, r, shape, out, err, errlen);
}

bool rec_scatter_elements(OpId op, const Type *want, const OpLimits *lim) {
  return op_fits_elems(want, lim) && want->tensor.rank >= 1 && index_dtypes(want, lim) != 0;
}

bool solve_scatter_elements(OpId op, const Type *want, OpSolveCtx *cx, OpSig *sig) {
  if (!rec_scatter_elements(op, want, cx->lim))
    return false;
  int r = want->tensor.rank, axis = (int)op_pick_below(cx, r);
  const int64_t *t = want->tensor.shape;
  int64_t is[IR_MAX_RANK], others = 1, dmax = cx->lim->max_dim;
  for (int i = 0; i < r; i++) {
    if (i == axis)
      continue;
    is[i] = t[i] < 1 ? t[i] : 1 + op_pick_below(cx, t[i]); /* at most the data's */
    others = op_mul_sat(others, is[i]);
  }
  if (others > 0 && cx->lim->max_numel / others < dmax)
    dmax = cx->lim->max_numel / others;
  is[axis] = 1 + op_pick_below(cx, dmax < 1 ? 1 : dmax); /* more than the data's: duplicates */
  DType idt = op_pick_dtype(cx, index_dtypes(want, cx->lim));
  int nred = OP_NUMERIC & (1u << want->tensor.dtype) ? NRED : 1;
  op_sig_start(cx, sig, 3, want);
  sig->args[0] = ir_type_copy(cx->arena, want);
  sig->args[1] = ir_tensor_type(cx->arena, idt, r, is);
  sig->args[2] = op_like(cx->arena, want, r, is);
  ir_attr_set_int(cx->arena, &sig->attrs, "axis", op_enc_axis(cx, axis, r));
  ir_attr_set_str(cx->arena, &sig->attrs, "reduction", reductions[op_pick_below(cx, nred)]);
  return true;
}

bool sample_scatter_elements(OpId op, OpSolveCtx *cx, OpSig *sig) {
  return op_sample_via(solve_scatter_elements, op, cx, sig, 1);
}

/* One reduction step f(a, u) in dtype dt, for float dtypes. */
static double scatter_f(int red, DType dt, double a, double u) {
  switch (red) {
  case 1: return a + u;
  case 2: return a * u;
  case 3: return op_round(dt, a + u) / 2;
  case 4: return op_fmin(a, u);
  case 5: return op_fmax(a, u);
  default: return u;
  }
}

/* One reduction step f(a, u) in integer dtype dt (wrapping). */
static int64_t scatter_i(int red, DType dt, int64_t a, int64_t u) {
  switch (red) {
  case 1: return op_u2i((uint64_t)a + (uint64_t)u);
  case 2: return op_u2i((uint64_t)a * (uint64_t)u);
  case 3: return ir_wrap_int(op_u2i((uint64_t)a + (uint64_t)u), dt) / 2;
  case 4: return a < u ? a : u;
  case 5: return a > u ? a : u;
  default: return u;
  }
}

void k_scatter_elements(OpId op, Tensor *const *args, int nargs, const Attrs *at,
                        Tensor *const *outs, int nouts, Arena *scratch) {
  int axis, red;
  int64_t c[IR_MAX_RANK] = {0}, ys[IR_MAX_RANK];
  if (nargs != 3 || nouts != 1 ||
      scatter_plan(at, args[0]->rank, args[0]->dtype, &axis, &red, NULL, 0) != REL_OK)
    return;
  Tensor *x = args[0], *ix = args[1], *u = args[2], *y = outs[0];
  if (x->dtype != y->dtype || u->dtype != y->dtype || !op_has_shape(y, x->rank, x->shape) ||
      !op_has_shape(u, ix->rank, ix->shape) || ix->rank != x->rank)
    return;
  for (int i = 0; i < x->rank; i++)
    if (i != axis && ix->shape[i] > x->shape[i])
      return;
  op_copy_run(y, 0, x, 0, y->numel);
  int64_t n = x->shape[axis];
  if (n == 0 || ix->numel == 0)
    return; /* nothing to write into */
  op_strides(y->rank, y->shape, ys);
  bool fl = ir_dtype_is_float(y->dtype);
  for (int64_t p = 0; p < ix->numel; p++) {
    int64_t dst = 0;
    for (int d = 0; d < y->rank; d++)
      dst += (d == axis ? clamp_index(index_at(ix, p), n) : c[d]) * ys[d];
    if (fl)
      ir_tensor_set_f64(
          y, dst, scatter_f(red, y->dtype, ir_tensor_get_f64(y, dst), ir_tensor_get_f64(u, p)));
    else
      ir_tensor_set_i64(
          y, dst, scatter_i(red, y->dtype, ir_tensor_get_i64(y, dst), ir_tensor_get_i64(u, p)));
    op_next_coord(ix->rank, ix->shape, c);
  }
}
