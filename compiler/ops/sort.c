/*
 * sort.c - sorting along an axis: sort, argsort and topk.  For each, its
 * relation, recognizer, solver, sampler and kernel (op.h states their
 * contracts).
 *
 * The relations follow Relay's (SortRel, ArgsortRel and TopKRel in
 * src/relay/op/algorithm/) and the attributes its ArgsortAttrs and
 * TopKAttrs: axis (default -1), is_ascend (default True for sort and
 * argsort, False for topk), dtype of the indices (default "int32"; sort
 * takes it, as TVM's ArgsortAttrs has it, and ignores it), topk's k
 * (default 1; k < 1 takes the whole axis) and ret_type ("both", the
 * default, gives the tuple (values, indices); "values" or "indices" one
 * tensor).  The data is an int or float tensor of rank >= 1; dtype is an
 * int or float dtype, and an index is converted to it as cast converts.
 *
 * The order is TVM's stable sort (std::stable_sort in
 * src/runtime/contrib/sort/sort.cc): elements that compare equal keep
 * their order along the axis, the lower index first, ascending and
 * descending alike (so -0 and +0 keep theirs); unsigned ints compare as
 * unsigned.  TVM leaves NaN undefined (its comparator is no order with
 * NaN); relayc defines every NaN as equal to every other and greater than
 * every number, +inf included: ascending puts the NaNs last, descending
 * (and topk's default) first, as torch.sort and torch.topk do.
 * topk with k >= 1 takes the first k of that order; a k larger than the
 * axis is refused (TVM's kernel leaves the extra elements unwritten),
 * checked at run time when the axis is Any.
 */
#include <string.h>

#include "op_int.h"

enum { RET_BOTH, RET_VALUES, RET_INDICES };

/* The attributes of the three, read and checked. */
typedef struct SortAttrs {
  int axis;
  bool asc;
  DType dt; /* the indices' dtype */
  int64_t k;
  int ret;
} SortAttrs;

/* Reads op's attributes for data of rank `rank` into *s; false (with a
 * message in err when it is not NULL) when one is invalid. */
static bool rd_sort(OpId op, const Attrs *at, int rank, SortAttrs *s, char *err, size_t errlen) {
  OpAttrReader r = op_rd_begin(op, at, err, errlen);
  s->axis = op_rd_axis(&r, -1, rank, -rank);
  s->asc = op_rd_bool(&r, "is_ascend", op != OP_TOPK);
  const char *dt = op_rd_str(&r, "dtype", "int32");
  s->k = op != OP_TOPK ? 0 : op_rd_int(&r, "k", 1);
  const char *ret = op != OP_TOPK ? "both" : op_rd_str(&r, "ret_type", "both");
  if (r.bad)
    return false;
  if (!ir_dtype_parse(dt, strlen(dt), &s->dt) || !(OP_NUMERIC & (1u << s->dt))) {
    op_rd_fail(&r, "dtype \"%s\" is not an int or float dtype", dt);
    return false;
  }
  s->ret = !strcmp(ret, "both") ? RET_BOTH : !strcmp(ret, "values") ? RET_VALUES : RET_INDICES;
  if (s->ret == RET_INDICES && strcmp(ret, "indices") != 0) {
    op_rd_fail(&r, "ret_type must be both, values or indices, got \"%s\"", ret);
    return false;
  }
  return true;
}

RelStatus rel_sort(OpId op, Type *const *args, int nargs, const Attrs *at, Arena *a, Type **out,
                   char *err, size_t errlen) {
  RelStatus st = op_want_shaped(args, nargs, 1, err, errlen);
  if (st != REL_OK)
    return st;
  const Type *x = args[0];
  int r = x->tensor.rank;
  if (!(OP_NUMERIC & (1u << x->tensor.dtype)))
    return op_fail(err, errlen, "expects an int or float tensor, got %s",
                   ir_dtype_name(x->tensor.dtype));
  SortAttrs s;
  if (!rd_sort(op, at, r, &s, err, errlen))
    return REL_ERROR;
  int64_t shape[IR_MAX_RANK];
  memcpy(shape, x->tensor.shape, sizeof *shape * (size_t)r);
  if (op == OP_SORT)
    return op_result(a, x->tensor.dtype, r, shape, out, err, errlen);
  if (op == OP_ARGSORT)
    return op_result(a, s.dt, r, shape, out, err, errlen);
  if (s.k >= 1) {
    if (!op_dim_any(shape[s.axis]) && s.k > shape[s.axis])
      return op_fail(err, errlen, "k %lld exceeds the %lld elements along axis %d", (long long)s.k,
                     (long long)shape[s.axis], s.axis);
    shape[s.axis] = s.k;
  }
  Type *f[2];
  if ((st = op_result(a, x->tensor.dtype, r, shape, &f[0], err, errlen)) != REL_OK ||
      (st = op_result(a, s.dt, r, shape, &f[1], err, errlen)) != REL_OK)
    return st;
  *out = s.ret == RET_BOTH ? ir_tuple_type(a, 2, f) : f[s.ret == RET_INDICES];
  return REL_OK;
}

/* A tensor type a sort can give: numeric, rank >= 1, within lim. */
static bool sortable(const Type *t, const OpLimits *lim) {
  return op_fits(t, lim) && t->tensor.rank >= 1 && (OP_NUMERIC & (1u << t->tensor.dtype));
}

bool rec_sort(OpId op, const Type *want, const OpLimits *lim) {
  if (op != OP_TOPK || !want || want->kind != TY_TUPLE)
    return sortable(want, lim);
  return want->tuple.n == 2 && sortable(want->tuple.fields[0], lim) &&
         sortable(want->tuple.fields[1], lim) &&
         want->tuple.fields[1]->tensor.rank == want->tuple.fields[0]->tensor.rank &&
         !memcmp(want->tuple.fields[0]->tensor.shape, want->tuple.fields[1]->tensor.shape,
                 sizeof(int64_t) * (size_t)want->tuple.fields[0]->tensor.rank);
}

/* Sets the dtype attribute to the indices' dtype dt (left out for int32
 * on choice 0). */
static void set_index_dtype(OpSolveCtx *cx, Attrs *at, DType dt) {
  if (dt != DT_INT32 || op_coin(cx))
    ir_attr_set_str(cx->arena, at, "dtype", ir_dtype_name(dt));
}

/* topk's k and the data's extent along the axis for a result extent o:
 * k = o with an extent from o up to what the limits allow (others: the
 * elements of the other axes), or k < 1 (the whole axis) with extent o. */
static void pick_k(OpSolveCtx *cx, int64_t o, int64_t others, int64_t *k, int64_t *n) {
  int64_t cap = op_min64(cx->lim->max_dim, op_quota(cx->lim->max_numel, others));
  if (o < 1 || op_pick_below(cx, 4) == 3) {
    *k = op_coin(cx) ? -1 : 0;
    *n = o;
    return;
  }
  *k = o;
  *n = cap > o ? o + op_pick_below(cx, cap - o + 1) : o;
}

bool solve_sort(OpId op, const Type *want, OpSolveCtx *cx, OpSig *sig) {
  if (!rec_sort(op, want, cx->lim))
    return false;
  bool tuple = want->kind == TY_TUPLE;
  const Type *v = tuple ? want->tuple.fields[0] : want;
  int r = v->tensor.rank;
  int64_t shape[IR_MAX_RANK];
  memcpy(shape, v->tensor.shape, sizeof *shape * (size_t)r);
  DType data = v->tensor.dtype, dt = DT_INT32;
  int ret = tuple ? RET_BOTH : (op == OP_TOPK && op_coin(cx)) ? RET_INDICES : RET_VALUES;
  if (op == OP_ARGSORT || ret == RET_INDICES) {
    dt = v->tensor.dtype;
    data = op_draw_dtype(cx, (cx->lim->dtypes & OP_NUMERIC) | (1u << dt));
  } else if (tuple) {
    dt = want->tuple.fields[1]->tensor.dtype;
  }
  op_sig_start(cx, sig, 1, NULL);
  Attrs *at = &sig->attrs;
  int axis = (int)op_pick_pref(cx, 0, r - 1, r - 1);
  if (axis != r - 1 || op_coin(cx))
    ir_attr_set_int(cx->arena, at, "axis", op_enc_axis(cx, axis, r));
  bool asc = op_coin(cx) ? op == OP_TOPK : op != OP_TOPK;
  if (asc != (op != OP_TOPK) || op_coin(cx))
    ir_attr_set_bool(cx->arena, at, "is_ascend", asc);
  if (op != OP_SORT)
    set_index_dtype(cx, at, dt);
  if (op == OP_TOPK) {
    int64_t k, others = op_numel_sat(r, shape) / (shape[axis] ? shape[axis] : 1);
    pick_k(cx, shape[axis], op_max64(others, 1), &k, &shape[axis]);
    ir_attr_set_int(cx->arena, at, "k", k);
    if (ret != RET_BOTH || op_coin(cx))
      ir_attr_set_str(cx->arena, at, "ret_type",
                      ret == RET_BOTH     ? "both"
                      : ret == RET_VALUES ? "values"
                                          : "indices");
  }
  sig->args[0] = op_tensor(cx, data, r, shape);
  return op_sig_claim(cx, sig, want);
}

bool sample_sort(OpId op, OpSolveCtx *cx, OpSig *sig) {
  if (!op_can_sample(cx, 1))
    return false;
  uint32_t num = cx->lim->dtypes & OP_NUMERIC ? cx->lim->dtypes & OP_NUMERIC : OP_NUMERIC;
  Type *t = op_draw_tensor_maybe_empty(cx, 1, op_rank_cap(cx->lim), num);
  if (op == OP_TOPK && op_coin(cx)) {
    Type *f[2] = {t, ir_type_copy(cx->arena, t)};
    f[1]->tensor.dtype = op_draw_dtype(cx, num);
    t = ir_tuple_type(cx->arena, 2, f);
  }
  return solve_sort(op, t, cx, sig);
}

/* -------------------------------------------------------------- kernel */

/* One slice along the axis: element p of it is x[base + p * stride]. */
typedef struct Slice {
  const Tensor *x;
  int64_t base, stride;
  bool asc;
} Slice;

/* -1, 0 or 1 as element i of x is below, equal to or above element j in
 * the defined order (a NaN above every number, NaNs equal, -0 == +0). */
static int order(const Tensor *x, int64_t i, int64_t j) {
  if (ir_dtype_is_float(x->dtype)) {
    double a = ir_tensor_get_f64(x, i), b = ir_tensor_get_f64(x, j);
    if (a != a || b != b)
      return (a != a) - (b != b);
    return (a > b) - (a < b);
  }
  int64_t a = ir_tensor_get_i64(x, i), b = ir_tensor_get_i64(x, j);
  return op_int_less(x->dtype, b, a) - op_int_less(x->dtype, a, b);
}

/* Does position p of the slice come before position q (ties: p < q)? */
static bool before(const Slice *s, int64_t p, int64_t q) {
  int c = order(s->x, s->base + p * s->stride, s->base + q * s->stride);
  if (!s->asc)
    c = -c;
  return c < 0 || (c == 0 && p < q);
}

/* Sorts the positions pos[0..n) by `before`, bottom-up merge sort with a
 * buffer tmp of n. */
static void sort_positions(const Slice *s, int64_t *pos, int64_t *tmp, int64_t n) {
  for (int64_t w = 1; w < n; w *= 2) {
    for (int64_t lo = 0; lo < n; lo += 2 * w) {
      int64_t mid = op_min64(lo + w, n), hi = op_min64(lo + 2 * w, n), i = lo, j = mid, o = lo;
      while (i < mid || j < hi)
        tmp[o++] = (j >= hi || (i < mid && !before(s, pos[j], pos[i]))) ? pos[i++] : pos[j++];
    }
    memcpy(pos, tmp, sizeof *pos * (size_t)n);
  }
}

void k_sort(OpId op, Tensor *const *args, int nargs, const Attrs *at, Tensor *const *outs,
            int nouts, Arena *scratch) {
  SortAttrs sa;
  if (nargs != 1 || nouts < 1 || !rd_sort(op, at, args[0]->rank, &sa, NULL, 0))
    return;
  const Tensor *x = args[0];
  int64_t outer, n, inner;
  op_split_axis(x, sa.axis, &outer, &n, &inner);
  int64_t m = op == OP_TOPK && sa.k >= 1 ? op_min64(sa.k, n) : n;
  Tensor *vals = NULL, *idx = NULL;
  if (op == OP_SORT || (op == OP_TOPK && sa.ret != RET_INDICES))
    vals = outs[0];
  if (op == OP_ARGSORT || (op == OP_TOPK && sa.ret == RET_INDICES))
    idx = outs[0];
  else if (op == OP_TOPK && sa.ret == RET_BOTH && nouts == 2)
    idx = outs[1];
  for (int o = 0; o < nouts; o++)
    if (outs[o]->numel != outer * m * inner)
      return;
  if (vals && vals->dtype != x->dtype)
    return;
  if (n == 0 || inner == 0)
    return;
  int64_t *pos = ARENA_ARRAY(scratch, int64_t, n), *tmp = ARENA_ARRAY(scratch, int64_t, n);
  for (int64_t a = 0; a < outer; a++)
    for (int64_t b = 0; b < inner; b++) {
      Slice s = {x, a * n * inner + b, inner, sa.asc};
      for (int64_t p = 0; p < n; p++)
        pos[p] = p;
      sort_positions(&s, pos, tmp, n);
      for (int64_t p = 0; p < m; p++) {
        int64_t dst = (a * m + p) * inner + b;
        if (vals)
          op_copy_run(vals, dst, x, s.base + pos[p] * inner, 1);
        if (idx)
          ir_tensor_set_i64(idx, dst, pos[p]);
      }
    }
}
