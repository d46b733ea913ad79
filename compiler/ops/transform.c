/*
 * transform.c - more of Relay's transforms: one_hot, repeat,
 * nn.batch_flatten, nn.depth_to_space, nn.space_to_depth, reshape_like,
 * collapse_sum_like and slice_like.  For each, its relation, recognizer,
 * solver, sampler and kernel (op.h states their contracts).
 *
 * The relations follow Relay's (OneHotRel, RepeatRel, BatchFlattenRel,
 * DepthToSpaceRel, SpaceToDepthRel, ReshapeLikeRel, CollapseSumLikeRel,
 * SliceLikeRel) and the kernels topi's, with these deliberate choices:
 *
 *   one_hot     indices of an int dtype; on_value and off_value rank-0
 *               tensors of any dtype, converted to dtype (default
 *               "float32") as cast converts.  depth >= 0 (default 1);
 *               axis -1 (the default: last) or in [0, rank].  An index
 *               equal to none of 0 .. depth - 1 (negative, too large)
 *               gives off_value everywhere, as topi's comparison does.
 *   repeat      repeats >= 1 (required, as in TVM); axis in [-rank, rank)
 *               (default 0): R[.., i, ..] = A[.., i / repeats, ..].
 *   batch_flat  rank >= 1: R has shape (d0, d1 * ... * dn) (rank 1: (d0,
 *               1)), A's elements in row-major order.
 *   d2s, s2d    4-D NCHW data (layout "NCHW" only), block_size b >= 1
 *               (required).  depth_to_space: C divisible by b * b, R of
 *               shape (N, C / b^2, H * b, W * b), R[n, c, y, x] = A[n,
 *               ch, y / b, x / b] with ch = (b * (y % b) + x % b) * C /
 *               b^2 + c in mode "DCR" (the default), c * b^2 + b * (y %
 *               b) + x % b in "CRD".  space_to_depth: H and W divisible
 *               by b, R of shape (N, C * b^2, H / b, W / b), R[n, c, y,
 *               x] = A[n, c % C, y * b + (c / C) / b, x * b + (c / C) %
 *               b], topi's inverse of DCR.
 *   reshape_like  R's shape is A's dims before lhs_begin, then B's from
 *               rhs_begin to rhs_end, then A's from lhs_end (defaults 0,
 *               None = rank, 0, None; negative counts from the end); the
 *               element counts must agree; B's dtype is free.
 *   collapse_sum_like  R has B's shape and A's dtype (numeric): A summed
 *               over the axes where B (aligned to the right) has fewer
 *               dims or a 1; B must broadcast to A.  A float sum is
 *               accumulated in double in row-major order and rounded
 *               once (docs/operators.md, "Float arithmetic"); ints wrap.
 *   slice_like  R = A[0:B's dim] along axes (None or []: each of B's
 *               axes, B's rank at most A's), each such dim of B at most
 *               A's; an axis counts from the end of A when negative and
 *               must be an axis of B.
 *
 * Solvers.  Every freedom is drawn from a range of values each of which
 * can still be completed within the limits, so a solver never fails once
 * the recognizer has said yes, and choice 0 is the simplest option.
 * Samplers draw a recognisable result type and solve for it.
 */
#include <string.h>

#include "op_int.h"

/* The index dtypes a solver may use (int32 and int64 the policy allows,
 * or int32). */
static DType pick_index_dtype(OpSolveCtx *cx) {
  uint32_t m = ((1u << DT_INT32) | (1u << DT_INT64)) & cx->lim->dtypes;
  return op_pick_dtype(cx, m ? m : 1u << DT_INT32);
}

/* A dtype for an argument whose dtype is free: choice 0 gives dt. */
static DType pick_free_dtype(OpSolveCtx *cx, DType dt) {
  return op_coin(cx) ? op_draw_dtype(cx, OP_ALL) : dt;
}

/* Grows shape[i] (of rank r) by a drawn amount (choice 0: none), keeping
 * it within max_dim and the whole within max_numel. */
static void grow_dim(OpSolveCtx *cx, int r, int64_t *shape, int i) {
  int64_t o = 1;
  for (int j = 0; j < r; j++)
    if (j != i)
      o = op_mul_sat(o, shape[j]);
  int64_t cap = op_min64(cx->lim->max_dim, op_quota(cx->lim->max_numel, o));
  if (shape[i] < cap)
    shape[i] += op_pick_below(cx, cap - shape[i] + 1);
}

/* Draws a shape with n elements of rank 1 .. cap: choice 0 gives (n);
 * each further dim is one of the first divisors of what is left (within
 * max_dim), the last dim the rest.  Returns the rank. */
static int draw_factors(OpSolveCtx *cx, int64_t n, int cap, int64_t *shape) {
  int rank = n > 0 && cap > 1 ? 1 + (int)op_pick_below(cx, cap < 3 ? cap : 3) : 1;
  int64_t left = n;
  for (int i = 0; i + 1 < rank; i++) {
    int64_t cand[16];
    int nc = 0;
    for (int64_t d = 1; d <= left && d <= cx->lim->max_dim && nc < 16; d++)
      if (left % d == 0)
        cand[nc++] = d;
    shape[i] = op_pick_of(cx, cand, nc);
    left /= shape[i];
  }
  shape[rank - 1] = left;
  return rank;
}

/* Copies the data argument's elements to the output (same count). */
static void copy_all(Tensor *const *args, int nargs, Tensor *const *outs, int nouts) {
  if (nargs >= 1 && nouts == 1 && args[0]->numel == outs[0]->numel &&
      args[0]->dtype == outs[0]->dtype)
    op_copy_run(outs[0], 0, args[0], 0, outs[0]->numel);
}

/* --------------------------------------------------------------- one_hot */

/* one_hot(I, on, off; depth, axis, dtype): I's shape with depth inserted
 * at axis. */

typedef struct OneHot {
  int64_t depth;
  int axis; /* in [0, rank] */
  DType dt;
} OneHot;

static bool rd_one_hot(OpId op, const Attrs *at, int rank, OneHot *o, char *err, size_t errlen) {
  OpAttrReader r = op_rd_begin(op, at, err, errlen);
  o->depth = op_rd_int(&r, "depth", 1);
  int64_t ax = op_rd_int(&r, "axis", -1);
  const char *dt = op_rd_str(&r, "dtype", "float32");
  if (r.bad)
    return false;
  if (o->depth < 0)
    op_rd_fail(&r, "depth must be >= 0, got %lld", (long long)o->depth);
  else if (ax < -1 || ax > rank)
    op_rd_fail(&r, "axis %lld is out of range: -1 or [0, %d]", (long long)ax, rank);
  else if (!ir_dtype_parse(dt, strlen(dt), &o->dt))
    op_rd_fail(&r, "dtype \"%s\" is not a dtype", dt);
  o->axis = ax == -1 ? rank : (int)ax;
  return !r.bad;
}

RelStatus rel_one_hot(OpId op, Type *const *args, int nargs, const Attrs *at, Arena *a, Type **out,
                      char *err, size_t errlen) {
  RelStatus st = op_want_shaped(args, nargs, 3, err, errlen);
  if (st != REL_OK)
    return st;
  const Type *ix = args[0];
  int r = ix->tensor.rank;
  if (!ir_dtype_is_int(ix->tensor.dtype))
    return op_fail(err, errlen, "indices must have an integer dtype, got %s",
                   ir_dtype_name(ix->tensor.dtype));
  if (args[1]->tensor.rank != 0 || args[2]->tensor.rank != 0)
    return op_fail(err, errlen, "on_value and off_value must be scalars (rank 0)");
  OneHot o;
  if (!rd_one_hot(op, at, r, &o, err, errlen))
    return REL_ERROR;
  if (r + 1 > IR_MAX_RANK)
    return op_fail(err, errlen, "the result would have rank %d", r + 1);
  int64_t shape[IR_MAX_RANK];
  for (int i = 0, j = 0; i <= r; i++)
    shape[i] = i == o.axis ? o.depth : ix->tensor.shape[j++];
  return op_result(a, o.dt, r + 1, shape, out, err, errlen);
}

/* The axes of want one_hot may insert (the indices, want without that
 * axis, within max_numel) into cand; returns how many. */
static int one_hot_axes(const Type *want, const OpLimits *lim, int *cand) {
  int n = 0, r = want->tensor.rank;
  for (int i = 0; i < r; i++) {
    int64_t k = 1;
    for (int j = 0; j < r; j++)
      k = j == i ? k : op_mul_sat(k, want->tensor.shape[j]);
    if (k <= lim->max_numel)
      cand[n++] = i;
  }
  return n;
}

bool rec_one_hot(OpId op, const Type *want, const OpLimits *lim) {
  int cand[IR_MAX_RANK];
  return op_fits(want, lim) && want->tensor.rank >= 1 && one_hot_axes(want, lim, cand) > 0;
}

bool solve_one_hot(OpId op, const Type *want, OpSolveCtx *cx, OpSig *sig) {
  if (!rec_one_hot(op, want, cx->lim))
    return false;
  int r = want->tensor.rank, cand[IR_MAX_RANK], nc = one_hot_axes(want, cx->lim, cand);
  int axis = cand[op_pick_pref(cx, 0, nc - 1, nc - 1)]; /* choice 0: the last */
  int64_t shape[IR_MAX_RANK];
  for (int i = 0, j = 0; i < r; i++)
    if (i != axis)
      shape[j++] = want->tensor.shape[i];
  op_sig_start(cx, sig, 3, NULL);
  DType dt = want->tensor.dtype;
  sig->args[0] = op_tensor(cx, pick_index_dtype(cx), r - 1, shape);
  sig->args[1] = op_tensor(cx, pick_free_dtype(cx, dt), 0, NULL);
  sig->args[2] = op_tensor(cx, sig->args[1]->tensor.dtype, 0, NULL);
  Attrs *at = &sig->attrs;
  ir_attr_set_int(cx->arena, at, "depth", want->tensor.shape[axis]);
  ir_attr_set_int(cx->arena, at, "axis", axis == r - 1 && !op_coin(cx) ? -1 : axis);
  ir_attr_set_str(cx->arena, at, "dtype", ir_dtype_name(dt));
  return op_sig_claim(cx, sig, want);
}

bool sample_one_hot(OpId op, OpSolveCtx *cx, OpSig *sig) {
  return op_sample_via(solve_one_hot, op, cx, sig, 1);
}

void k_one_hot(OpId op, Tensor *const *args, int nargs, const Attrs *at, Tensor *const *outs,
               int nouts, Arena *scratch) {
  OneHot o;
  if (nargs != 3 || nouts != 1 || !rd_one_hot(op, at, args[0]->rank, &o, NULL, 0))
    return;
  const Tensor *ix = args[0];
  Tensor *y = outs[0];
  if (y->rank != ix->rank + 1 || y->shape[o.axis] != o.depth || args[1]->numel != 1 ||
      args[2]->numel != 1)
    return;
  for (int d = 0, j = 0; d < y->rank; d++)
    if (d != o.axis && y->shape[d] != ix->shape[j++])
      return;
  bool uns = ir_dtype_is_unsigned(ix->dtype);
  int64_t c[IR_MAX_RANK] = {0};
  for (int64_t i = 0; i < y->numel; i++) {
    int64_t src = 0; /* the index element: c without the axis, row-major */
    for (int d = 0; d < y->rank; d++)
      if (d != o.axis)
        src = src * y->shape[d] + c[d];
    int64_t v = ir_tensor_get_i64(ix, src);
    bool on = uns ? (uint64_t)v == (uint64_t)c[o.axis] : v == c[o.axis];
    ir_tensor_convert(args[on ? 1 : 2], 0, y, i);
    op_next_coord(y->rank, y->shape, c);
  }
}

/* ---------------------------------------------------------------- repeat */

/* repeat(A; repeats, axis): A's dim along axis times repeats. */

static bool rd_repeat(OpId op, const Attrs *at, int rank, int64_t *reps, int *axis, char *err,
                      size_t errlen) {
  OpAttrReader r = op_rd_begin(op, at, err, errlen);
  if (!ir_attr_get(at, "repeats"))
    op_rd_fail(&r, "attribute repeats is required");
  *reps = op_rd_int(&r, "repeats", 1);
  *axis = op_rd_axis(&r, 0, rank, -rank);
  if (!r.bad && *reps < 1)
    op_rd_fail(&r, "repeats must be >= 1, got %lld", (long long)*reps);
  return !r.bad;
}

RelStatus rel_repeat(OpId op, Type *const *args, int nargs, const Attrs *at, Arena *a, Type **out,
                     char *err, size_t errlen) {
  RelStatus st = op_want_shaped(args, nargs, 1, err, errlen);
  if (st != REL_OK)
    return st;
  const Type *x = args[0];
  int64_t reps, shape[IR_MAX_RANK];
  int axis, r = x->tensor.rank;
  if (!rd_repeat(op, at, r, &reps, &axis, err, errlen))
    return REL_ERROR;
  memcpy(shape, x->tensor.shape, sizeof *shape * (size_t)r);
  if (!op_dim_mul(shape[axis], reps, &shape[axis]))
    return op_fail(err, errlen, "the repeated axis is too long");
  return op_result(a, x->tensor.dtype, r, shape, out, err, errlen);
}

bool rec_repeat(OpId op, const Type *want, const OpLimits *lim) {
  return op_fits(want, lim) && want->tensor.rank >= 1;
}

bool solve_repeat(OpId op, const Type *want, OpSolveCtx *cx, OpSig *sig) {
  if (!rec_repeat(op, want, cx->lim))
    return false;
  int r = want->tensor.rank, axis = (int)op_pick(cx, 0, r - 1);
  int64_t shape[IR_MAX_RANK], d = want->tensor.shape[axis], cand[8];
  int nc = 0;
  for (int64_t k = 1; k <= 8 && nc < 8; k++)
    if (d % k == 0)
      cand[nc++] = k;
  int64_t reps = op_pick_of(cx, cand, nc);
  memcpy(shape, want->tensor.shape, sizeof *shape * (size_t)r);
  shape[axis] = d / reps;
  op_sig_start(cx, sig, 1, NULL);
  sig->args[0] = op_like(cx->arena, want, r, shape);
  ir_attr_set_int(cx->arena, &sig->attrs, "repeats", reps);
  if (axis != 0 || op_coin(cx))
    ir_attr_set_int(cx->arena, &sig->attrs, "axis", op_enc_axis(cx, axis, r));
  return op_sig_claim(cx, sig, want);
}

bool sample_repeat(OpId op, OpSolveCtx *cx, OpSig *sig) {
  return op_sample_via(solve_repeat, op, cx, sig, 1);
}

void k_repeat(OpId op, Tensor *const *args, int nargs, const Attrs *at, Tensor *const *outs,
              int nouts, Arena *scratch) {
  int64_t reps, outer, n, inner;
  int axis;
  if (nargs != 1 || nouts != 1 || !rd_repeat(op, at, args[0]->rank, &reps, &axis, NULL, 0))
    return;
  const Tensor *x = args[0];
  Tensor *y = outs[0];
  op_split_axis(x, axis, &outer, &n, &inner);
  if (y->dtype != x->dtype || y->numel != op_mul_sat(x->numel, reps))
    return;
  for (int64_t o = 0; o < outer; o++)
    for (int64_t i = 0; i < n * reps; i++)
      op_copy_run(y, (o * n * reps + i) * inner, x, (o * n + i / reps) * inner, inner);
}

/* --------------------------------------------------------- batch_flatten */

RelStatus rel_batch_flatten(OpId op, Type *const *args, int nargs, const Attrs *at, Arena *a,
                            Type **out, char *err, size_t errlen) {
  RelStatus st = op_check_attrs(op, at, err, errlen);
  if (st == REL_OK)
    st = op_want_shaped(args, nargs, 1, err, errlen);
  if (st != REL_OK)
    return st;
  const Type *x = args[0];
  if (x->tensor.rank < 1)
    return op_fail(err, errlen, "expects a tensor of rank >= 1");
  int64_t shape[2] = {x->tensor.shape[0], 1};
  for (int i = 1; i < x->tensor.rank; i++)
    if (!op_dim_mul(shape[1], x->tensor.shape[i], &shape[1]))
      return op_fail(err, errlen, "the flattened dims have too many elements");
  return op_result(a, x->tensor.dtype, 2, shape, out, err, errlen);
}

bool rec_batch_flatten(OpId op, const Type *want, const OpLimits *lim) {
  return op_fits(want, lim) && want->tensor.rank == 2;
}

bool solve_batch_flatten(OpId op, const Type *want, OpSolveCtx *cx, OpSig *sig) {
  if (!rec_batch_flatten(op, want, cx->lim))
    return false;
  int64_t shape[IR_MAX_RANK];
  int64_t n = want->tensor.shape[1];
  int rank = 1;
  shape[0] = want->tensor.shape[0];
  if (n != 1 || op_coin(cx))
    rank += draw_factors(cx, n, op_rank_cap(cx->lim) - 1, shape + 1);
  op_sig_start(cx, sig, 1, NULL);
  sig->args[0] = op_like(cx->arena, want, rank, shape);
  return op_sig_claim(cx, sig, want);
}

bool sample_batch_flatten(OpId op, OpSolveCtx *cx, OpSig *sig) {
  if (!op_can_sample(cx, 2))
    return false;
  return op_sample_tensor(solve_batch_flatten, op, cx, sig, 2, cx->lim->max_numel, OP_ALL);
}

void k_batch_flatten(OpId op, Tensor *const *args, int nargs, const Attrs *at, Tensor *const *outs,
                     int nouts, Arena *scratch) {
  copy_all(args, nargs, outs, nouts);
}

/* ------------------------------------------- depth_to_space, space_to_depth */

static bool rd_block(OpId op, const Attrs *at, int64_t *b, bool *crd, char *err, size_t errlen) {
  OpAttrReader r = op_rd_begin(op, at, err, errlen);
  if (!ir_attr_get(at, "block_size"))
    op_rd_fail(&r, "attribute block_size is required");
  *b = op_rd_int(&r, "block_size", 1);
  op_rd_layout(&r, "layout", "NCHW");
  const char *mode = op == OP_DEPTH_TO_SPACE ? op_rd_str(&r, "mode", "DCR") : "DCR";
  if (r.bad)
    return false;
  if (*b < 1)
    op_rd_fail(&r, "block_size must be >= 1, got %lld", (long long)*b);
  else if (strcmp(mode, "DCR") != 0 && strcmp(mode, "CRD") != 0)
    op_rd_fail(&r, "mode must be DCR or CRD, got \"%s\"", mode);
  *crd = !strcmp(mode, "CRD");
  return !r.bad;
}

RelStatus rel_space_depth(OpId op, Type *const *args, int nargs, const Attrs *at, Arena *a,
                          Type **out, char *err, size_t errlen) {
  RelStatus st = op_want_shaped(args, nargs, 1, err, errlen);
  if (st != REL_OK)
    return st;
  const Type *x = args[0];
  int64_t b, bb, s[4];
  bool crd;
  if (x->tensor.rank != 4)
    return op_fail(err, errlen, "expects 4-D NCHW data, got rank %d", x->tensor.rank);
  if (!rd_block(op, at, &b, &crd, err, errlen))
    return REL_ERROR;
  if (!op_dim_mul(b, b, &bb))
    return op_fail(err, errlen, "block_size %lld is too large", (long long)b);
  memcpy(s, x->tensor.shape, sizeof s);
  if (op == OP_DEPTH_TO_SPACE) {
    if (!op_dim_any(s[1]) && s[1] % bb != 0)
      return op_fail(err, errlen, "%lld channels are not divisible by block_size^2 = %lld",
                     (long long)s[1], (long long)bb);
    s[1] = op_dim_any(s[1]) ? s[1] : s[1] / bb;
    if (!op_dim_mul(s[2], b, &s[2]) || !op_dim_mul(s[3], b, &s[3]))
      return op_fail(err, errlen, "the result is too large");
  } else {
    for (int i = 2; i < 4; i++) {
      if (!op_dim_any(s[i]) && s[i] % b != 0)
        return op_fail(err, errlen, "dim %d (%lld) is not divisible by block_size %lld", i,
                       (long long)s[i], (long long)b);
      s[i] = op_dim_any(s[i]) ? s[i] : s[i] / b;
    }
    if (!op_dim_mul(s[1], bb, &s[1]))
      return op_fail(err, errlen, "the result is too large");
  }
  return op_result(a, x->tensor.dtype, 4, s, out, err, errlen);
}

bool rec_space_depth(OpId op, const Type *want, const OpLimits *lim) {
  return op_fits(want, lim) && want->tensor.rank == 4;
}

bool solve_space_depth(OpId op, const Type *want, OpSolveCtx *cx, OpSig *sig) {
  if (!rec_space_depth(op, want, cx->lim))
    return false;
  const int64_t *w = want->tensor.shape;
  int64_t cand[8], s[4];
  int nc = 0;
  for (int64_t b = 1; b <= 4; b++) {
    bool ok = b == 1 || (op == OP_DEPTH_TO_SPACE
                             ? w[2] % b == 0 && w[3] % b == 0 && w[1] * b * b <= cx->lim->max_dim
                             : w[1] % (b * b) == 0 && w[2] * b <= cx->lim->max_dim &&
                                   w[3] * b <= cx->lim->max_dim);
    if (ok)
      cand[nc++] = b;
  }
  int64_t b = op_pick_of(cx, cand, nc);
  memcpy(s, w, sizeof s);
  if (op == OP_DEPTH_TO_SPACE)
    s[1] *= b * b, s[2] /= b, s[3] /= b;
  else
    s[1] /= b * b, s[2] *= b, s[3] *= b;
  op_sig_start(cx, sig, 1, NULL);
  sig->args[0] = op_like(cx->arena, want, 4, s);
  ir_attr_set_int(cx->arena, &sig->attrs, "block_size", b);
  if (op == OP_DEPTH_TO_SPACE && op_coin(cx))
    ir_attr_set_str(cx->arena, &sig->attrs, "mode", op_coin(cx) ? "CRD" : "DCR");
  return op_sig_claim(cx, sig, want);
}

bool sample_space_depth(OpId op, OpSolveCtx *cx, OpSig *sig) {
  if (!op_can_sample(cx, 4))
    return false;
  return op_sample_tensor(solve_space_depth, op, cx, sig, 4, cx->lim->max_numel, OP_ALL);
}

void k_space_depth(OpId op, Tensor *const *args, int nargs, const Attrs *at, Tensor *const *outs,
                   int nouts, Arena *scratch) {
  int64_t b;
  bool crd;
  if (nargs != 1 || nouts != 1 || args[0]->rank != 4 || !rd_block(op, at, &b, &crd, NULL, 0))
    return;
  const Tensor *x = args[0];
  Tensor *y = outs[0];
  if (y->rank != 4 || y->numel != x->numel || y->dtype != x->dtype)
    return;
  const int64_t *xs = x->shape;
  int64_t c[4] = {0}, ds[4], bb = b * b;
  op_strides(4, xs, ds);
  for (int64_t i = 0; i < y->numel; i++) {
    int64_t src[4] = {c[0], 0, 0, 0};
    if (op == OP_DEPTH_TO_SPACE) {
      int64_t k = b * (c[2] % b) + c[3] % b;
      src[1] = crd ? c[1] * bb + k : k * y->shape[1] + c[1];
      src[2] = c[2] / b, src[3] = c[3] / b;
    } else {
      int64_t q = c[1] / xs[1];
      src[1] = c[1] % xs[1], src[2] = c[2] * b + q / b, src[3] = c[3] * b + q % b;
    }
    op_copy_run(y, i, x, src[0] * ds[0] + src[1] * ds[1] + src[2] * ds[2] + src[3] * ds[3], 1);
    op_next_coord(4, y->shape, c);
  }
}

/* ---------------------------------------------------------- reshape_like */

/* The [begin, end) range of a rank-r shape an attribute pair names
 * (negative counts from the end, end None = r); false when invalid. */
static bool like_range(OpAttrReader *r, const char *bn, const char *en, int rank, int *lo,
                       int *hi) {
  int64_t b = op_rd_int(r, bn, 0), e = rank;
  op_rd_opt_int(r, en, &e);
  b = b < 0 ? b + rank : b;
  e = e < 0 ? e + rank : e;
  if (!r->bad && (b < 0 || e > rank || b > e))
    op_rd_fail(r, "%s and %s select no valid range of a rank-%d shape", bn, en, rank);
  *lo = (int)b, *hi = (int)e;
  return !r->bad;
}

RelStatus rel_reshape_like(OpId op, Type *const *args, int nargs, const Attrs *at, Arena *a,
                           Type **out, char *err, size_t errlen) {
  RelStatus st = op_want_shaped(args, nargs, 2, err, errlen);
  if (st != REL_OK)
    return st;
  const Type *x = args[0], *l = args[1];
  OpAttrReader r = op_rd_begin(op, at, err, errlen);
  int lb, le, rb, re;
  if (!like_range(&r, "lhs_begin", "lhs_end", x->tensor.rank, &lb, &le) ||
      !like_range(&r, "rhs_begin", "rhs_end", l->tensor.rank, &rb, &re))
    return REL_ERROR;
  int n = lb + (re - rb) + (x->tensor.rank - le);
  if (n > IR_MAX_RANK)
    return op_fail(err, errlen, "the result would have rank %d", n);
  int64_t s[IR_MAX_RANK];
  int k = 0;
  for (int i = 0; i < lb; i++)
    s[k++] = x->tensor.shape[i];
  for (int i = rb; i < re; i++)
    s[k++] = l->tensor.shape[i];
  for (int i = le; i < x->tensor.rank; i++)
    s[k++] = x->tensor.shape[i];
  int64_t cx, cr;
  if (op_shape_static(x->tensor.rank, x->tensor.shape) && op_shape_static(n, s) &&
      op_count_elems(x->tensor.rank, x->tensor.shape, &cx) && op_count_elems(n, s, &cr) && cx != cr)
    return op_fail(err, errlen, "the data has %lld elements, the new shape %lld", (long long)cx,
                   (long long)cr);
  return op_result(a, x->tensor.dtype, n, s, out, err, errlen);
}

bool rec_reshape_like(OpId op, const Type *want, const OpLimits *lim) {
  return op_fits(want, lim);
}

bool solve_reshape_like(OpId op, const Type *want, OpSolveCtx *cx, OpSig *sig) {
  if (!rec_reshape_like(op, want, cx->lim))
    return false;
  int r = want->tensor.rank, cap = op_rank_cap(cx->lim), xr = r, lr = r;
  int64_t xs[IR_MAX_RANK], ls[IR_MAX_RANK], n = op_numel_sat(r, want->tensor.shape);
  memcpy(xs, want->tensor.shape, sizeof *xs * (size_t)r);
  memcpy(ls, want->tensor.shape, sizeof *ls * (size_t)r);
  if (op_coin(cx)) { /* the data in another shape of as many elements */
    xr = draw_factors(cx, n, cap, xs);
    int64_t bound = cx->lim->max_dim; /* no dim above the limit or want's */
    for (int i = 0; i < r; i++)
      bound = op_max64(bound, want->tensor.shape[i]);
    for (int i = 0; i < xr; i++)
      if (xs[i] > bound) { /* (a factor too long): want's own shape */
        xr = r;
        memcpy(xs, want->tensor.shape, sizeof *xs * (size_t)r);
        break;
      }
  }
  op_sig_start(cx, sig, 2, NULL);
  if (r < cap && op_coin(cx)) { /* a leading dim of shape_like skipped */
    memmove(ls + 1, ls, sizeof *ls * (size_t)r);
    ls[0] = op_draw_dim(cx, op_quota(cx->lim->max_numel, op_max64(n, 1)));
    lr++;
    ir_attr_set_int(cx->arena, &sig->attrs, "rhs_begin", lr > 1 && op_coin(cx) ? 1 - lr : 1);
  }
  sig->args[0] = op_like(cx->arena, want, xr, xs);
  sig->args[1] = op_tensor(cx, pick_free_dtype(cx, want->tensor.dtype), lr, ls);
  return op_sig_claim(cx, sig, want);
}

bool sample_reshape_like(OpId op, OpSolveCtx *cx, OpSig *sig) {
  return op_sample_via(solve_reshape_like, op, cx, sig, 0);
}

void k_reshape_like(OpId op, Tensor *const *args, int nargs, const Attrs *at, Tensor *const *outs,
                    int nouts, Arena *scratch) {
  copy_all(args, nargs, outs, nouts);
}

/* ----------------------------------------------------- collapse_sum_like */

RelStatus rel_collapse_sum_like(OpId op, Type *const *args, int nargs, const Attrs *at, Arena *a,
                                Type **out, char *err, size_t errlen) {
  RelStatus st = op_check_attrs(op, at, err, errlen);
  if (st == REL_OK)
    st = op_want_shaped(args, nargs, 2, err, errlen);
  if (st != REL_OK)
    return st;
  const Type *x = args[0], *l = args[1];
  int xr = x->tensor.rank, lr = l->tensor.rank;
  if (!(OP_NUMERIC & (1u << x->tensor.dtype)))
    return op_fail(err, errlen, "expects int or float data, got %s",
                   ir_dtype_name(x->tensor.dtype));
  if (lr > xr)
    return op_fail(err, errlen, "the target has rank %d, the data only %d", lr, xr);
  for (int i = 0; i < lr; i++) {
    int64_t t = l->tensor.shape[i], d = x->tensor.shape[xr - lr + i];
    if (!op_dim_is(t, 1) && !op_dims_match(t, d))
      return op_fail(err, errlen, "the target's dim %d (%lld) does not broadcast to %lld", i,
                     (long long)t, (long long)d);
  }
  return op_result(a, x->tensor.dtype, lr, l->tensor.shape, out, err, errlen);
}

bool rec_collapse_sum_like(OpId op, const Type *want, const OpLimits *lim) {
  return op_fits(want, lim) && (OP_NUMERIC & (1u << want->tensor.dtype));
}

bool solve_collapse_sum_like(OpId op, const Type *want, OpSolveCtx *cx, OpSig *sig) {
  if (!rec_collapse_sum_like(op, want, cx->lim))
    return false;
  int r = want->tensor.rank, lead = (int)op_pick_below(cx, op_rank_cap(cx->lim) - r + 1);
  int64_t s[IR_MAX_RANK];
  for (int i = 0; i < lead; i++)
    s[i] = 1;
  memcpy(s + lead, want->tensor.shape, sizeof *s * (size_t)r);
  for (int i = 0; i < lead + r; i++)
    if (s[i] == 1)
      grow_dim(cx, lead + r, s, i);
  op_sig_start(cx, sig, 2, NULL);
  sig->args[0] = op_like(cx->arena, want, lead + r, s);
  sig->args[1] = op_tensor(cx, pick_free_dtype(cx, want->tensor.dtype), r, want->tensor.shape);
  return op_sig_claim(cx, sig, want);
}

bool sample_collapse_sum_like(OpId op, OpSolveCtx *cx, OpSig *sig) {
  if (!op_can_sample(cx, 0))
    return false;
  Type *t = op_draw_tensor_maybe_empty(cx, 0, op_rank_cap(cx->lim), OP_NUMERIC);
  return solve_collapse_sum_like(op, t, cx, sig);
}

void k_collapse_sum_like(OpId op, Tensor *const *args, int nargs, const Attrs *at,
                         Tensor *const *outs, int nouts, Arena *scratch) {
  if (nargs != 2 || nouts != 1)
    return;
  const Tensor *x = args[0];
  Tensor *y = outs[0];
  int xr = x->rank, yr = y->rank;
  if (yr > xr || y->dtype != x->dtype)
    return;
  for (int i = 0; i < yr; i++)
    if (y->shape[i] != 1 && y->shape[i] != x->shape[xr - yr + i])
      return;
  bool fl = ir_dtype_is_float(y->dtype);
  double *f = ARENA_ARRAY(scratch, double, y->numel > 0 ? y->numel : 1);
  uint64_t *u = ARENA_ARRAY(scratch, uint64_t, y->numel > 0 ? y->numel : 1);
  for (int64_t k = 0; k < y->numel; k++)
    f[k] = 0, u[k] = 0;
  int64_t c[IR_MAX_RANK] = {0};
  for (int64_t i = 0; i < x->numel; i++) {
    int64_t k = 0;
    for (int d = 0; d < yr; d++)
      k = k * y->shape[d] + (y->shape[d] == 1 ? 0 : c[xr - yr + d]);
    if (fl)
      f[k] += ir_tensor_get_f64(x, i);
    else
      u[k] += (uint64_t)ir_tensor_get_i64(x, i);
    op_next_coord(xr, x->shape, c);
  }
  for (int64_t k = 0; k < y->numel; k++)
    fl ? ir_tensor_set_f64(y, k, f[k]) : ir_tensor_set_i64(y, k, op_u2i(u[k]));
}

/* ------------------------------------------------------------ slice_like */

/* The axes slice_like cuts (bit i: axis i of the data), or false. */
static bool slice_axes(OpId op, const Attrs *at, int xr, int lr, uint32_t *mask, char *err,
                       size_t errlen) {
  OpAttrReader r = op_rd_begin(op, at, err, errlen);
  int64_t ax[IR_MAX_RANK];
  int n = op_rd_ints(&r, "axes", IR_MAX_RANK, ax, 0, NULL, true);
  if (r.bad)
    return false;
  *mask = 0;
  if (n <= 0) {
    if (lr > xr)
      op_rd_fail(&r, "shape_like has rank %d, the data only %d", lr, xr);
    *mask = (1u << lr) - 1;
  }
  for (int i = 0; i < n && !r.bad; i++) {
    int64_t k = ax[i] < 0 ? ax[i] + xr : ax[i];
    if (k < 0 || k >= xr || k >= lr)
      op_rd_fail(&r, "axis %lld is out of range for ranks %d and %d", (long long)ax[i], xr, lr);
    else
      *mask |= 1u << k;
  }
  return !r.bad;
}

RelStatus rel_slice_like(OpId op, Type *const *args, int nargs, const Attrs *at, Arena *a,
                         Type **out, char *err, size_t errlen) {
  RelStatus st = op_want_shaped(args, nargs, 2, err, errlen);
  if (st != REL_OK)
    return st;
  const Type *x = args[0], *l = args[1];
  uint32_t mask;
  if (!slice_axes(op, at, x->tensor.rank, l->tensor.rank, &mask, err, errlen))
    return REL_ERROR;
  int64_t s[IR_MAX_RANK];
  memcpy(s, x->tensor.shape, sizeof *s * (size_t)x->tensor.rank);
  for (int i = 0; i < x->tensor.rank; i++) {
    if (!(mask >> i & 1))
      continue;
    int64_t d = l->tensor.shape[i];
    if (!op_dim_any(d) && !op_dim_any(s[i]) && d > s[i])
      return op_fail(err, errlen, "shape_like's dim %d (%lld) exceeds the data's %lld", i,
                     (long long)d, (long long)s[i]);
    s[i] = d;
  }
  return op_result(a, x->tensor.dtype, x->tensor.rank, s, out, err, errlen);
}

bool rec_slice_like(OpId op, const Type *want, const OpLimits *lim) {
  return op_fits(want, lim);
}

bool solve_slice_like(OpId op, const Type *want, OpSolveCtx *cx, OpSig *sig) {
  if (!rec_slice_like(op, want, cx->lim))
    return false;
  int r = want->tensor.rank;
  int64_t xs[IR_MAX_RANK], ls[IR_MAX_RANK];
  memcpy(xs, want->tensor.shape, sizeof *xs * (size_t)r);
  memcpy(ls, want->tensor.shape, sizeof *ls * (size_t)r);
  op_sig_start(cx, sig, 2, NULL);
  int lr = r;
  uint32_t mask = (1u << r) - 1;
  if (r > 0 && op_coin(cx)) { /* explicit axes: a nonempty subset */
    mask = 1 + op_pick_below(cx, mask);
    int64_t ax[IR_MAX_RANK];
    int n = 0;
    for (int i = 0; i < r; i++)
      if (mask >> i & 1)
        ax[n++] = op_enc_axis(cx, i, r);
    ir_attr_set_ints(cx->arena, &sig->attrs, "axes", n, ax);
    int64_t p = 1; /* shape_like's other dims are free within the limits */
    for (int i = 0; i < r; i++)
      p = mask >> i & 1 ? op_mul_sat(p, ls[i]) : p;
    for (int i = 0; i < r; i++)
      if (!(mask >> i & 1)) {
        ls[i] = op_draw_dim(cx, op_quota(cx->lim->max_numel, p));
        p = op_mul_sat(p, ls[i]);
      }
  } else {
    lr = r - (int)op_pick_below(cx, r + 1); /* choice 0: every axis */
    mask = (1u << lr) - 1;
  }
  for (int i = 0; i < r; i++)
    if (mask >> i & 1)
      grow_dim(cx, r, xs, i);
  sig->args[0] = op_like(cx->arena, want, r, xs);
  sig->args[1] = op_tensor(cx, pick_free_dtype(cx, want->tensor.dtype), lr, ls);
  return op_sig_claim(cx, sig, want);
}

bool sample_slice_like(OpId op, OpSolveCtx *cx, OpSig *sig) {
  return op_sample_via(solve_slice_like, op, cx, sig, 0);
}

void k_slice_like(OpId op, Tensor *const *args, int nargs, const Attrs *at, Tensor *const *outs,
                  int nouts, Arena *scratch) {
  if (nargs != 2 || nouts != 1)
    return;
  const Tensor *x = args[0];
  Tensor *y = outs[0];
  if (y->rank != x->rank || y->dtype != x->dtype)
    return;
  for (int i = 0; i < x->rank; i++)
    if (y->shape[i] > x->shape[i])
      return;
  int64_t c[IR_MAX_RANK] = {0}, ds[IR_MAX_RANK];
  op_strides(x->rank, x->shape, ds);
  for (int64_t i = 0; i < y->numel; i++) {
    int64_t src = 0;
    for (int d = 0; d < x->rank; d++)
      src += c[d] * ds[d];
    op_copy_run(y, i, x, src, 1);
    op_next_coord(y->rank, y->shape, c);
  }
}
