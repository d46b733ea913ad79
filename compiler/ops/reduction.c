/*
 * reduction.c - the reductions sum, mean, max, min, prod and the index
 * reductions argmax, argmin: relations, recognizers, solvers, samplers and
 * the kernel they share.
 *
 * Attributes (as in Relay): axis, a list of distinct axes in [-rank, rank)
 * (negative counts from the end); None or [] reduces every axis.  exclude
 * reduces the axes not listed instead (with None or [] it still reduces
 * every axis).  keepdims keeps each reduced axis as a dim of 1.  Defaults:
 * axis None, keepdims False, exclude False.  The input is an int or float
 * tensor; the result has its dtype (argmax, argmin: int32).
 *
 * Defined behaviour: elements are combined in row-major order; floats are
 * accumulated in double and rounded once.  Integer sum and prod wrap.
 * Integer mean is the sum taken in int64 (wrapping) divided by the count,
 * truncating toward zero.  Over no elements: sum 0, prod 1, mean 0 for
 * ints and NaN for floats, max the lowest value (-inf, INT_MIN), min the
 * highest (+inf, INT_MAX), argmax/argmin 0.  max and min: a NaN wins, and
 * +0 is above -0.  argmax/argmin give the first NaN if there is one,
 * otherwise the first extreme element (in the same order as max/min); over
 * several axes the index is row-major within the reduced axes.
 */
#include <math.h>
#include <string.h>

#include "op_int.h"

static bool is_arg(OpId op) {
  return op == OP_ARGMAX || op == OP_ARGMIN;
}

/* The mask of axes a rank-`rank` input is reduced over (bit i: axis i),
 * from the attributes; REL_ERROR on a bad or repeated axis. */
static RelStatus reduce_mask(const Attrs *at, int rank, uint32_t *mask, char *err, size_t errlen) {
  uint32_t all = (1u << rank) - 1, m = 0;
  const Attr *ax = ir_attr_get(at, "axis");
  *mask = all;
  if (!ax || ax->kind != AV_INTS || ax->n == 0)
    return REL_OK;
  for (int i = 0; i < ax->n; i++) {
    int k;
    if (!op_axis(ax->ints[i], rank, &k))
      return op_fail(err, errlen, "axis %lld out of range for rank %d", (long long)ax->ints[i],
                     rank);
    if (m & (1u << k))
      return op_fail(err, errlen, "axis %lld repeated", (long long)ax->ints[i]);
    m |= 1u << k;
  }
  *mask = ir_attr_bool(at, "exclude", false) ? all & ~m : m;
  return REL_OK;
}

/* The result shape of reducing `x` over mask: rank and shape. */
static int reduce_shape(const Type *x, uint32_t mask, bool keep, int64_t *shape) {
  int r = 0;
  for (int i = 0; i < x->tensor.rank; i++)
    if (!(mask & (1u << i)))
      shape[r++] = x->tensor.shape[i];
    else if (keep)
      shape[r++] = 1;
  return r;
}

/* Shared by rel_reduce and rel_argreduce. */
static RelStatus relate(OpId op, Type *const *args, int nargs, const Attrs *at, Arena *a,
                        Type **out, char *err, size_t errlen) {
  RelStatus s = op_check_attrs(op, at, err, errlen);
  if (s == REL_OK)
    s = op_want_tensors(args, nargs, 1, err, errlen);
  if (s != REL_OK)
    return s;
  const Type *x = args[0];
  if (!(OP_NUMERIC & (1u << x->tensor.dtype)))
    return op_fail(err, errlen, "expects an int or float tensor, got %s",
                   ir_dtype_name(x->tensor.dtype));
  uint32_t mask;
  if (reduce_mask(at, x->tensor.rank, &mask, err, errlen) != REL_OK)
    return REL_ERROR;
  int64_t shape[IR_MAX_RANK];
  int r = reduce_shape(x, mask, ir_attr_bool(at, "keepdims", false), shape);
  *out = ir_tensor_type(a, is_arg(op) ? DT_INT32 : x->tensor.dtype, r, shape);
  return REL_OK;
}

RelStatus rel_reduce(OpId op, Type *const *args, int nargs, const Attrs *at, Arena *a, Type **out,
                     char *err, size_t errlen) {
  return relate(op, args, nargs, at, a, out, err, errlen);
}

RelStatus rel_argreduce(OpId op, Type *const *args, int nargs, const Attrs *at, Arena *a,
                        Type **out, char *err, size_t errlen) {
  return relate(op, args, nargs, at, a, out, err, errlen);
}

bool rec_reduce(OpId op, const Type *want, const OpLimits *lim) {
  return op_fits_dtype(want, lim, OP_NUMERIC);
}

bool rec_argreduce(OpId op, const Type *want, const OpLimits *lim) {
  return op_fits_dtype(want, lim, 1u << DT_INT32);
}

/* Write the attributes for reducing a rank-`rank` input over mask: the
 * form (axis None, the reduced axes, or exclude with the kept ones) is
 * drawn among those that mean mask; then each listed axis's sign and the
 * list's order.  Choice 0 is the first valid form, positive, in order. */
static void reduce_attrs(OpSolveCtx *cx, int rank, uint32_t mask, bool keep, Attrs *at) {
  uint32_t all = (1u << rank) - 1;
  int forms[3], nf = 0; /* 0: None, 1: listed, 2: exclude the others */
  if (mask == all)
    forms[nf++] = 0;
  if (mask)
    forms[nf++] = 1;
  if (mask != all)
    forms[nf++] = 2;
  int form = forms[op_choose(cx->ch, (uint32_t)nf)];
  int64_t axes[IR_MAX_RANK];
  int n = 0;
  uint32_t list = form == 1 ? mask : all & ~mask;
  for (int i = 0; form && i < rank; i++)
    if (list & (1u << i))
      axes[n++] = op_choose(cx->ch, 2) ? i - rank : i;
  for (int i = n - 1; i > 0; i--) {
    int j = i - (int)op_choose(cx->ch, (uint32_t)i + 1);
    int64_t t = axes[i];
    axes[i] = axes[j];
    axes[j] = t;
  }
  *at = (Attrs){0};
  if (form)
    ir_attr_set_ints(cx->arena, at, "axis", n, axes);
  if (keep)
    ir_attr_set_bool(cx->arena, at, "keepdims", true);
  if (form == 2)
    ir_attr_set_bool(cx->arena, at, "exclude", true);
}

/* Fill sig for input x reduced over mask: the result keeps x's other
 * dims (and a 1 for each reduced one with keep); int32 for argmax and
 * argmin, else x's dtype. */
static bool reduce_sig(OpId op, OpSolveCtx *cx, OpSig *sig, Type *x, uint32_t mask, bool keep) {
  sig->nargs = 1;
  sig->args[0] = x;
  reduce_attrs(cx, x->tensor.rank, mask, keep, &sig->attrs);
  int64_t shape[IR_MAX_RANK];
  int r = 0;
  for (int i = 0; i < x->tensor.rank; i++)
    if (!(mask >> i & 1) || keep)
      shape[r++] = mask >> i & 1 ? 1 : x->tensor.shape[i];
  sig->ret = ir_tensor_type(cx->arena, is_arg(op) ? DT_INT32 : x->tensor.dtype, r, shape);
  return true;
}

/* Solve for want with input dtype dt: draw keepdims, then the input shape
 * (keepdims: some unit dims of want grow; otherwise new axes are inserted)
 * within lim, then the attributes. */
static bool solve(OpId op, const Type *want, OpSolveCtx *cx, OpSig *sig, DType dt) {
  const OpLimits *lim = cx->lim;
  int r = want->tensor.rank, n = 0;
  int64_t numel = ir_type_numel(want), shape[IR_MAX_RANK];
  int64_t left = numel ? lim->max_numel / numel : lim->max_dim;
  uint32_t mask = 0;
  bool keep = op_choose(cx->ch, 2);
  if (keep) {
    for (int i = 0; i < r; i++) {
      shape[i] = want->tensor.shape[i];
      if (shape[i] == 1 && op_choose(cx->ch, 2)) {
        mask |= 1u << i;
        shape[i] = op_draw_dim(cx, left);
        left /= shape[i];
      }
    }
    n = r;
  } else {
    int extra = (int)op_choose(cx->ch, (uint32_t)(lim->max_rank - r + 1));
    for (int i = 0; i < r; i++)
      shape[i] = want->tensor.shape[i];
    n = r;
    for (int e = 0; e < extra; e++) {
      /* Insert a reduced axis at position p, shifting the mask. */
      int p = (int)op_choose(cx->ch, (uint32_t)n + 1);
      memmove(shape + p + 1, shape + p, sizeof *shape * (size_t)(n - p));
      uint32_t low = mask & ((1u << p) - 1);
      mask = ((mask & ~low) << 1) | low | (1u << p);
      shape[p] = op_draw_dim(cx, left);
      left /= shape[p];
      n++;
    }
  }
  Type *x = ir_tensor_type(cx->arena, dt, n, shape);
  return reduce_sig(op, cx, sig, x, mask, keep) && op_sig_claim(cx, sig, want);
}

bool solve_reduce(OpId op, const Type *want, OpSolveCtx *cx, OpSig *sig) {
  return rec_reduce(op, want, cx->lim) && solve(op, want, cx, sig, want->tensor.dtype);
}

bool solve_argreduce(OpId op, const Type *want, OpSolveCtx *cx, OpSig *sig) {
  if (!rec_argreduce(op, want, cx->lim))
    return false;
  /* The input dtype: any allowed int or float, or int32 (want's own). */
  uint32_t mask = (OP_NUMERIC & cx->lim->dtypes) | (1u << DT_INT32);
  return solve(op, want, cx, sig, op_draw_dtype(cx, mask));
}

/* Draw an input and a reduction: choice 0 reduces everything. */
static bool sample(OpId op, OpSolveCtx *cx, OpSig *sig) {
  if (!(OP_NUMERIC & cx->lim->dtypes))
    return false;
  Type *x = op_draw_tensor(cx, 0, cx->lim->max_rank, OP_NUMERIC);
  uint32_t all = (1u << x->tensor.rank) - 1;
  uint32_t mask = all - op_choose(cx->ch, all + 1);
  return reduce_sig(op, cx, sig, x, mask, op_choose(cx->ch, 2));
}

bool sample_reduce(OpId op, OpSolveCtx *cx, OpSig *sig) {
  return sample(op, cx, sig);
}

bool sample_argreduce(OpId op, OpSolveCtx *cx, OpSig *sig) {
  /* The int32 result is invented too. */
  return ((cx->lim->dtypes >> DT_INT32) & 1) && sample(op, cx, sig);
}

/* ---------------------------------------------------------------- kernel */

/* Does x replace the current extreme b (max when hi, else min)?  A NaN
 * beats every number and nothing beats a NaN; +0 is above -0; ties keep
 * the earlier element. */
static bool fbeats(double x, double b, bool hi) {
  if (isnan(b) || isnan(x))
    return !isnan(b);
  if (x == b)
    return signbit(x) != signbit(b) && signbit(x) != hi;
  return hi ? x > b : x < b;
}

/* Per output element: the accumulator and, for arg reductions, the index
 * of the extreme so far (-1 before the first element). */
typedef struct Acc {
  uint64_t u; /* integer sum or product, modulo 2^64 */
  int64_t i;  /* integer extreme */
  double f;   /* float sum, product or extreme */
  int64_t at; /* index of the extreme within the reduced axes */
} Acc;

/* Fold element number k (within the reduced axes) of x at index j into c. */
static void fold(OpId op, Acc *c, const Tensor *x, int64_t j, int64_t k) {
  bool hi = op == OP_MAX || op == OP_ARGMAX;
  if (ir_dtype_is_float(x->dtype)) {
    double v = ir_tensor_get_f64(x, j);
    switch (op) {
    case OP_SUM:
    case OP_MEAN: c->f += v; return;
    case OP_PROD: c->f *= v; return;
    default:
      if (c->at < 0 || fbeats(v, c->f, hi))
        c->f = v, c->at = k;
      return;
    }
  }
  int64_t v = ir_tensor_get_i64(x, j);
  switch (op) {
  case OP_SUM:
  case OP_MEAN: c->u += (uint64_t)v; return;
  case OP_PROD: c->u *= (uint64_t)v; return;
  default:
    if (c->at < 0 || (hi ? op_int_less(x->dtype, c->i, v) : op_int_less(x->dtype, v, c->i)))
      c->i = v, c->at = k;
    return;
  }
}

/* Store the result of one output element reduced over count elements. */
static void store(OpId op, const Acc *c, DType dt, int64_t count, Tensor *r, int64_t o) {
  bool fl = ir_dtype_is_float(dt);
  bool hi = op == OP_MAX;
  switch (op) {
  case OP_ARGMAX:
  case OP_ARGMIN: ir_tensor_set_i64(r, o, c->at < 0 ? 0 : c->at); return;
  case OP_MAX:
  case OP_MIN:
    if (c->at >= 0)
      fl ? ir_tensor_set_f64(r, o, c->f) : ir_tensor_set_i64(r, o, c->i);
    else if (fl)
      ir_tensor_set_f64(r, o, hi ? -INFINITY : INFINITY);
    else /* the dtype's lowest (max) or highest (min) value */
      ir_tensor_set_f64(r, o, hi ? -INFINITY : INFINITY);
    return;
  case OP_MEAN:
    if (fl)
      ir_tensor_set_f64(r, o, c->f / (double)count);
    else if (ir_dtype_is_unsigned(dt))
      ir_tensor_set_u64(r, o, count ? c->u / (uint64_t)count : 0);
    else
      ir_tensor_set_i64(r, o, count ? op_u2i(c->u) / count : 0);
    return;
  default: /* sum, prod */
    fl ? ir_tensor_set_f64(r, o, c->f) : ir_tensor_set_i64(r, o, op_u2i(c->u));
  }
}

#ifdef RS_TEST_PASSES
bool op_test_fault_reduce;
#endif

void k_reduce(OpId op, Tensor *const *args, int nargs, const Attrs *at, Tensor *const *outs,
              int nouts, Arena *scratch) {
  const Tensor *x = args[0];
  Tensor *r = outs[0];
  uint32_t mask;
  char err[8];
  if (reduce_mask(at, x->rank, &mask, err, sizeof err) != REL_OK)
    return; /* the relation rejects these attributes */
  /* Strides of the kept axes into the output and of the reduced axes
   * within the reduced block (row-major over each set); ks counts the
   * elements per output.  An empty input reduces nothing into each output
   * (its products could overflow, so they are not taken). */
  int64_t ostride[IR_MAX_RANK], kstride[IR_MAX_RANK], os = 1, ks = 1;
  for (int i = x->rank - 1; x->numel && i >= 0; i--) {
    bool red = mask & (1u << i);
    ostride[i] = red ? 0 : os;
    kstride[i] = red ? ks : 0;
    *(red ? &ks : &os) *= x->shape[i];
  }
  if (!x->numel)
    ks = 0;
  Acc *acc = ARENA_ARRAY(scratch, Acc, r->numel ? r->numel : 1);
  for (int64_t o = 0; o < r->numel; o++)
    acc[o] = (Acc){.u = op == OP_PROD, .f = op == OP_PROD, .at = -1};
  int64_t coord[IR_MAX_RANK];
  for (int64_t j = 0; j < x->numel; j++) {
    op_unravel(j, x->rank, x->shape, coord);
    int64_t o = 0, k = 0;
    for (int i = 0; i < x->rank; i++)
      o += coord[i] * ostride[i], k += coord[i] * kstride[i];
#ifdef RS_TEST_PASSES
    if (op_test_fault_reduce && (op == OP_SUM || op == OP_MEAN) && ks > 1 && k == ks - 1)
      continue; /* the deliberate off-by-one: the block's last element is left out */
#endif
    fold(op, &acc[o], x, j, k);
  }
  for (int64_t o = 0; o < r->numel; o++)
    store(op, &acc[o], x->dtype, ks, r, o);
}

/* ------------------------------------------- shared with other families */

RelStatus op_reduce_mask(const Attrs *at, int rank, uint32_t *mask, char *err, size_t errlen) {
  return reduce_mask(at, rank, mask, err, errlen);
}

int op_reduce_shape(const Type *x, uint32_t mask, bool keep, int64_t *shape) {
  return reduce_shape(x, mask, keep, shape);
}

bool op_reduce_solve(OpId op, const Type *want, OpSolveCtx *cx, OpSig *sig, DType dt) {
  return solve(op, want, cx, sig, dt);
}
