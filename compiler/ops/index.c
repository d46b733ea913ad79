/*
 * index.c - the indexing operators, whose result elements are input
 * elements at computed positions: strided_slice, take, tile and reverse.
 * For each, its relation, recognizer, solver, sampler and kernel (op.h
 * states their contracts).
 *
 * The relations follow Relay's (src/relay/op/tensor/transform.cc and
 * topi's strided_slice.h), with these deliberate differences, all of them
 * places where Relay would crash or index out of range:
 *   - take checks axis < rank (Relay checks <= rank), and defines taking
 *     from an empty axis: the result is zeros.  Mode "fast" (undefined
 *     out of range in TVM) behaves like "clip".  batch_dims B (negative:
 *     counted from the indices' rank) needs an axis, 0 <= B <= the
 *     indices' rank, B <= axis, and the first B dims of data and indices
 *     equal; every mode honours it (topi's "wrap" and "fast" ignore it, a
 *     TVM bug).  Without an axis batch_dims must be 0 (Relay ignores it).
 *   - strided_slice rejects begin/end/strides longer than the rank (Relay
 *     ignores the excess), duplicate axes and stride 0; negative axes count
 *     from the end.  None strides mean all ones.
 *   - Every result shape is checked for overflow and for rank <= 6.
 * begin, end and reps are required (errors when missing); the others
 * default as in Relay (axis 0, mode "clip", slice_mode "end").
 */
#include <string.h>

#include "op_int.h"

/* --------------------------------------------------------- strided_slice */

/* strided_slice(A, begin, end, strides, axes, slice_mode): per sliced
 * axis, the elements from begin towards end (or size of them) step apart;
 * topi's index clamping. */

/* A resolved slice: along axis i, size[i] elements from begin[i] on,
 * step[i] apart. */
typedef struct Slice {
  int64_t begin[IR_MAX_RANK], step[IR_MAX_RANK], size[IR_MAX_RANK];
} Slice;

/* topi's CanonicalizeIndex: count a negative index from the end, then
 * clamp to [0, extent] (stride > 0) or [-1, extent - 1] (stride < 0). */
static int64_t canon_index(int64_t index, int64_t extent, int64_t stride) {
  int64_t lo = stride < 0 ? -1 : 0, hi = stride < 0 ? extent - 1 : extent;
  if (index < 0)
    index += extent;
  return index < lo ? lo : index > hi ? hi : index;
}

/* Resolve one axis of extent dim from raw begin, end (or size) and stride. */
static RelStatus slice_axis(int axis, int64_t dim, int64_t b, int64_t e, int64_t stride,
                            bool size_mode, Slice *sl, char *err, size_t errlen) {
  if (size_mode) {
    stride = 1;
    if (e < 0)
      e = INT64_MAX;
    else if (__builtin_add_overflow(b, e, &e))
      e = b < 0 ? INT64_MIN : INT64_MAX;
  }
  if (stride == 0)
    return op_fail(err, errlen, "stride of axis %d is 0", axis);
  if (op_dim_any(dim)) { /* the clamped bounds, hence the size, depend on the extent */
    sl->begin[axis] = 0;
    sl->step[axis] = stride;
    sl->size[axis] = IR_DIM_ANY;
    return REL_OK;
  }
  int64_t bc = canon_index(b, dim, stride), ec = canon_index(e, dim, stride);
  if (stride > 0 ? bc > ec : ec > bc)
    return op_fail(err, errlen,
                   "axis %d: begin %lld and end %lld (clamped to %lld and %lld) are "
                   "out of order for stride %lld",
                   axis, (long long)b, (long long)e, (long long)bc, (long long)ec,
                   (long long)stride);
  int64_t len = stride > 0 ? ec - bc : bc - ec; /* <= dim, so no overflow */
  int64_t mag = stride == INT64_MIN ? INT64_MAX : stride < 0 ? -stride : stride;
  sl->begin[axis] = bc;
  sl->step[axis] = stride;
  sl->size[axis] = len / mag + (len % mag != 0);
  return REL_OK;
}

/* Resolve strided_slice's attributes for an input of the given shape. */
static RelStatus slice_plan(const Attrs *at, int rank, const int64_t *shape, Slice *sl, char *err,
                            size_t errlen) {
  OpInts b, e, st, ax;
  const char *mode;
  RelStatus s = op_need_ints(at, "begin", &b, err, errlen);
  if (s == REL_OK)
    s = op_need_ints(at, "end", &e, err, errlen);
  if (s == REL_OK)
    s = op_get_ints(at, "strides", &st, err, errlen);
  if (s == REL_OK)
    s = op_get_ints(at, "axes", &ax, err, errlen);
  if (s == REL_OK)
    s = op_get_str(at, "slice_mode", "end", &mode, err, errlen);
  if (s != REL_OK)
    return s;
  bool size_mode = strcmp(mode, "size") == 0;
  if (!size_mode && strcmp(mode, "end") != 0)
    return op_fail(err, errlen, "slice_mode must be \"end\" or \"size\", got \"%s\"", mode);
  for (int i = 0; i < rank; i++)
    sl->begin[i] = 0, sl->step[i] = 1, sl->size[i] = shape[i];
  if (ax.given) {
    bool seen[IR_MAX_RANK] = {0};
    if (b.n != ax.n || e.n != ax.n || (st.given && st.n != ax.n))
      return op_fail(err, errlen, "axes, begin, end and strides must have the same length");
    for (int k = 0; k < ax.n; k++) {
      int a;
      if ((s = op_want_axis(ax.v[k], rank, &a, err, errlen)) != REL_OK)
        return s;
      if (seen[a])
        return op_fail(err, errlen, "axis %d is sliced twice", a);
      seen[a] = true;
      s = slice_axis(a, shape[a], b.v[k], e.v[k], st.given ? st.v[k] : 1, size_mode, sl, err,
                     errlen);
      if (s != REL_OK)
        return s;
    }
    return REL_OK;
  }
  if (b.n > rank || e.n > rank || (st.given && st.n > rank))
    return op_fail(err, errlen, "begin, end and strides may have at most %d entries (the rank)",
                   rank);
  for (int a = 0; a < rank; a++) {
    int64_t stride = size_mode || !st.given || a >= st.n ? 1 : st.v[a];
    int64_t bv = a < b.n ? b.v[a] : stride > 0 ? 0 : INT64_MAX;
    int64_t ev = a < e.n ? e.v[a] : stride < 0 ? 0 : size_mode ? -1 : INT64_MAX;
    if ((s = slice_axis(a, shape[a], bv, ev, stride, size_mode, sl, err, errlen)) != REL_OK)
      return s;
  }
  return REL_OK;
}

RelStatus rel_strided_slice(OpId op, Type *const *args, int nargs, const Attrs *at, Arena *a,
                            Type **out, char *err, size_t errlen) {
  Slice sl;
  RelStatus s = op_want_shaped(args, nargs, 1, err, errlen);
  if (s == REL_OK)
    s = slice_plan(at, args[0]->tensor.rank, args[0]->tensor.shape, &sl, err, errlen);
  if (s == REL_OK)
    *out = op_like(a, args[0], args[0]->tensor.rank, sl.size);
  return s;
}

bool rec_strided_slice(OpId op, const Type *want, const OpLimits *lim) {
  return op_fits_elems(want, lim);
}

/* A raw index that canon_index takes to c for extent d and a stride of
 * the given sign: c itself, c counted from the end, or a value beyond
 * either end that clamps to c. */
static int64_t enc_index(OpSolveCtx *cx, int64_t c, int64_t d, bool neg) {
  int64_t opts[5];
  int n = 0;
  opts[n++] = c >= 0 ? c : -d - 1;
  if (c >= 0 && c < d)
    opts[n++] = c - d;
  if (c == (neg ? d - 1 : d))
    opts[n++] = d + 2, opts[n++] = INT64_MAX;
  if (c == (neg ? -1 : 0))
    opts[n++] = -d - 3;
  return opts[op_pick_below(cx, n)];
}

/* Draw an extent *d <= dmax (dmax >= t) and a slice of it with t
 * elements: raw begin *b, raw end (or size, in size mode) *e, stride *s. */
static void slice_draw(OpSolveCtx *cx, int64_t t, int64_t dmax, bool size_mode, int64_t *d,
                       int64_t *b, int64_t *e, int64_t *s) {
  int64_t m = size_mode ? 1 : 1 + op_pick_below(cx, 3), span, o, bc, ec, lo, hi;
  bool neg = !size_mode && op_coin(cx);
  span = t == 0 ? 0 : (t - 1) * m + 1;
  if (span > dmax)
    m = 1, span = t;
  *d = span + op_pick_below(cx, dmax - span + 1);
  o = op_pick_below(cx, *d - span + 1); /* the selected elements lie in [o, o + span) */
  if (!neg) {
    bc = o;
    lo = t == 0 ? o : o + span;
    hi = t == 0 ? o : o + t * m < *d ? o + t * m : *d;
  } else {
    bc = o + span - 1;
    lo = t == 0 ? bc : o - m > -1 ? o - m : -1;
    hi = t == 0 ? bc : o - 1;
  }
  ec = lo + op_pick_below(cx, hi - lo + 1);
  *s = neg ? -m : m;
  if (size_mode) {
    *b = bc + t < *d && op_coin(cx) ? bc - *d : bc;
    *e = bc + t == *d && op_coin(cx) ? -1 : t;
  } else {
    *b = enc_index(cx, bc, *d, neg);
    *e = enc_index(cx, ec, *d, neg);
  }
}

bool solve_strided_slice(OpId op, const Type *want, OpSolveCtx *cx, OpSig *sig) {
  int64_t d[IR_MAX_RANK], b[IR_MAX_RANK], e[IR_MAX_RANK], s[IR_MAX_RANK], axes[IR_MAX_RANK];
  int64_t suffix[IR_MAX_RANK + 1], prefix = 1; /* prefix saturates only past a zero dim */
  bool listed[IR_MAX_RANK], ones = true;
  if (!op_fits_elems(want, cx->lim))
    return false;
  int r = want->tensor.rank, n = 0;
  const int64_t *t = want->tensor.shape;
  bool size_mode = op_pick_below(cx, 4) == 3, use_axes = op_coin(cx);
  int nl = use_axes ? 0 : r - (int)op_pick_below(cx, r + 1); /* without axes: the first nl */
  suffix[r] = 1;
  for (int i = r - 1; i >= 0; i--)
    suffix[i] = suffix[i + 1] * t[i]; /* a sub-product of a valid shape */
  for (int i = 0; i < r; i++) {
    listed[i] = use_axes ? op_coin(cx) : i < nl;
    if (!listed[i]) {
      prefix = op_mul_sat(prefix, d[i] = t[i]);
      continue;
    }
    /* Keep the input within max_numel: prefix * d * suffix <= max_numel. */
    int64_t rest, dmax = t[i] > cx->lim->max_dim ? t[i] : cx->lim->max_dim;
    if (__builtin_mul_overflow(prefix, suffix[i + 1], &rest))
      dmax = t[i]; /* only when t[i] == 0 */
    else if (rest > 0 && cx->lim->max_numel / rest < dmax)
      dmax = cx->lim->max_numel / rest;
    slice_draw(cx, t[i], dmax, size_mode, &d[i], &b[n], &e[n], &s[n]);
    ones &= s[n] == 1;
    axes[n++] = use_axes ? op_enc_axis(cx, i, r) : i;
    prefix = op_mul_sat(prefix, d[i]);
  }
  op_sig_start(cx, sig, 1, want);
  sig->args[0] = op_like(cx->arena, want, r, d);
  ir_attr_set_ints(cx->arena, &sig->attrs, "begin", n, b);
  ir_attr_set_ints(cx->arena, &sig->attrs, "end", n, e);
  if (ones && op_coin(cx))
    ir_attr_set_none(cx->arena, &sig->attrs, "strides");
  else
    ir_attr_set_ints(cx->arena, &sig->attrs, "strides", n, s);
  if (use_axes)
    ir_attr_set_ints(cx->arena, &sig->attrs, "axes", n, axes);
  else
    ir_attr_set_none(cx->arena, &sig->attrs, "axes");
  ir_attr_set_str(cx->arena, &sig->attrs, "slice_mode", size_mode ? "size" : "end");
  return true;
}

bool sample_strided_slice(OpId op, OpSolveCtx *cx, OpSig *sig) {
  return op_sample_via(solve_strided_slice, op, cx, sig, 0);
}

void k_strided_slice(OpId op, Tensor *const *args, int nargs, const Attrs *at, Tensor *const *outs,
                     int nouts, Arena *scratch) {
  Slice sl;
  int64_t xs[IR_MAX_RANK], c[IR_MAX_RANK] = {0};
  if (!op_arity(args, nargs, 1, outs, nouts, 1) ||
      slice_plan(at, args[0]->rank, args[0]->shape, &sl, NULL, 0) != REL_OK)
    return;
  Tensor *x = args[0], *y = outs[0];
  if (!op_has_shape(y, x->rank, sl.size) || y->numel == 0)
    return;
  op_strides(x->rank, x->shape, xs);
  for (int64_t i = 0; i < y->numel; i++) {
    int64_t src = 0;
    for (int d = 0; d < y->rank; d++)
      src += (sl.begin[d] + c[d] * sl.step[d]) * xs[d];
    op_copy_run(y, i, x, src, 1);
    op_next_coord(y->rank, y->shape, c);
  }
}

/* ------------------------------------------------------------------ take */

/* take(A, indices, axis, batch_dims, mode): A's elements at integer
 * indices along axis, or in the flattened A when axis is None; indices
 * out of range are clipped or wrapped.  With B batch dims,
 * R[b, a, i, c] = A[b, a, I[b, i], c] for b the first B coordinates. */

/* take's attributes for data and indices of ranks drank and irank: *axis
 * is -1 for None (take from the flattened data); *nbatch the batch dims;
 * *wrap selects mode "wrap" (otherwise clip; "fast" clips too). */
static RelStatus take_plan(const Attrs *at, int drank, int irank, int *axis, int *nbatch,
                           bool *wrap, char *err, size_t errlen) {
  bool given;
  int64_t ax = 0, bd;
  const char *mode;
  RelStatus s = op_get_opt_int(at, "axis", &given, &ax, err, errlen);
  if (s == REL_OK)
    s = op_get_int(at, "batch_dims", 0, &bd, err, errlen);
  if (s == REL_OK)
    s = op_get_str(at, "mode", "clip", &mode, err, errlen);
  if (s != REL_OK)
    return s;
  if (bd != 0 && !given)
    return op_fail(err, errlen, "batch_dims %lld needs an axis (only 0 without one)",
                   (long long)bd);
  *wrap = strcmp(mode, "wrap") == 0;
  if (!*wrap && strcmp(mode, "clip") != 0 && strcmp(mode, "fast") != 0)
    return op_fail(err, errlen, "mode must be \"clip\", \"wrap\" or \"fast\", got \"%s\"", mode);
  *axis = -1;
  *nbatch = 0;
  if (!given)
    return REL_OK;
  if ((s = op_want_axis(ax, drank, axis, err, errlen)) != REL_OK)
    return s;
  int64_t b = bd < 0 ? bd + irank : bd;
  if (b < 0 || b > irank || b > *axis)
    return op_fail(err, errlen,
                   "batch_dims %lld must lie in [0, %d] (the indices' rank) and not exceed axis %d",
                   (long long)bd, irank, *axis);
  *nbatch = (int)b;
  return REL_OK;
}

RelStatus rel_take(OpId op, Type *const *args, int nargs, const Attrs *at, Arena *a, Type **out,
                   char *err, size_t errlen) {
  int axis, bd;
  bool wrap;
  RelStatus s = op_want_shaped(args, nargs, 2, err, errlen);
  if (s == REL_OK)
    s = take_plan(at, args[0]->tensor.rank, args[1]->tensor.rank, &axis, &bd, &wrap, err, errlen);
  if (s != REL_OK)
    return s;
  const Type *d = args[0], *ix = args[1];
  if (!ir_dtype_is_int(ix->tensor.dtype))
    return op_fail(err, errlen, "indices must have an integer dtype, got %s",
                   ir_dtype_name(ix->tensor.dtype));
  if (axis < 0)
    return op_result(a, d->tensor.dtype, ix->tensor.rank, ix->tensor.shape, out, err, errlen);
  int64_t shape[2 * IR_MAX_RANK];
  int r = 0;
  for (int i = 0; i < bd; i++) {
    if (!op_dims_match(d->tensor.shape[i], ix->tensor.shape[i]))
      return op_fail(err, errlen, "batch dim %d: data has %lld, indices %lld", i,
                     (long long)d->tensor.shape[i], (long long)ix->tensor.shape[i]);
    shape[r++] = op_dim_meet(d->tensor.shape[i], ix->tensor.shape[i]);
  }
  for (int i = bd; i < axis; i++)
    shape[r++] = d->tensor.shape[i];
  for (int i = bd; i < ix->tensor.rank; i++)
    shape[r++] = ix->tensor.shape[i];
  for (int i = axis + 1; i < d->tensor.rank; i++)
    shape[r++] = d->tensor.shape[i];
  return op_result(a, d->tensor.dtype, r, shape, out, err, errlen);
}

/* The index dtypes a solver for a result of type want may use. */
static uint32_t index_dtypes(const Type *want, const OpLimits *lim) {
  return ((1u << DT_INT32) | (1u << DT_INT64)) & (lim->dtypes | (1u << want->tensor.dtype));
}

/* Set take's attributes: axis (-1: None), batch_dims and a drawn mode. */
static void take_attrs(OpSolveCtx *cx, OpSig *sig, int axis, int rank) {
  static const char *modes[] = {"clip", "wrap", "fast"};
  if (axis < 0)
    ir_attr_set_none(cx->arena, &sig->attrs, "axis");
  else
    ir_attr_set_int(cx->arena, &sig->attrs, "axis", op_enc_axis(cx, axis, rank));
  ir_attr_set_int(cx->arena, &sig->attrs, "batch_dims", 0);
  ir_attr_set_str(cx->arena, &sig->attrs, "mode", modes[op_pick_below(cx, 3)]);
}

/* Drawn after take_attrs (so that the draws before stay as they were):
 * B batch dims, 0 <= B <= axis, the data's first B dims ds put in front
 * of the indices (sig->args[1]) within the limits, written as is or
 * counted from the indices' rank (-ri); no choice is read when B must
 * be 0. */
static void take_batch(OpSolveCtx *cx, OpSig *sig, int axis, const int64_t *ds) {
  const Type *ix = sig->args[1];
  int ri = ix->tensor.rank, bmax = 0;
  int64_t n = op_numel_sat(ri, ix->tensor.shape);
  while (axis >= 0 && bmax < axis && ri + bmax + 1 <= op_rank_cap(cx->lim) &&
         op_mul_sat(n, op_numel_sat(bmax + 1, ds)) <= cx->lim->max_numel)
    bmax++;
  int b = (int)op_pick_below(cx, bmax + 1);
  if (b == 0)
    return;
  int64_t is[IR_MAX_RANK];
  memcpy(is, ds, (size_t)b * sizeof *ds);
  memcpy(is + b, ix->tensor.shape, (size_t)ri * sizeof *ds);
  sig->args[1] = ir_tensor_type(cx->arena, ix->tensor.dtype, ri + b, is);
  ir_attr_set_int(cx->arena, &sig->attrs, "batch_dims", ri > 0 && op_coin(cx) ? -ri : b);
}

bool rec_take(OpId op, const Type *want, const OpLimits *lim) {
  return op_fits_elems(want, lim) && index_dtypes(want, lim) != 0;
}

bool solve_take(OpId op, const Type *want, OpSolveCtx *cx, OpSig *sig) {
  if (!rec_take(op, want, cx->lim))
    return false;
  int r = want->tensor.rank;
  const int64_t *t = want->tensor.shape;
  DType idt = op_pick_dtype(cx, index_dtypes(want, cx->lim));
  op_sig_start(cx, sig, 2, want);
  if (!op_coin(cx) ||
      op_rank_cap(cx->lim) < 1) { /* axis None: any data, indices shaped like want */
    sig->args[0] =
        op_draw_tensor_maybe_empty(cx, 0, op_rank_cap(cx->lim), 1u << want->tensor.dtype);
    sig->args[1] = ir_tensor_type(cx->arena, idt, r, t);
    take_attrs(cx, sig, -1, 0);
    return true;
  }
  /* want = data[:a] + indices + data[a+1:], data of rank rd. */
  int rd = 1 + (int)op_pick_below(cx, r + 1 < op_rank_cap(cx->lim) ? r + 1 : op_rank_cap(cx->lim));
  int a = (int)op_pick_below(cx, rd), ri = r - rd + 1, k = 0;
  if (op_numel_sat(ri, t + a) > cx->lim->max_numel) /* an empty want hides large indices */
    rd = 1, a = 0, ri = r;
  int64_t ds[IR_MAX_RANK], others = 1, dmax = cx->lim->max_dim;
  for (int i = 0; i < a; i++)
    ds[k++] = t[i];
  ds[k++] = 0; /* the taken axis, drawn below */
  for (int i = a + ri; i < r; i++)
    ds[k++] = t[i];
  for (int i = 0; i < rd; i++)
    others *= i == a ? 1 : ds[i]; /* a sub-product of want's valid shape */
  if (others > 0 && cx->lim->max_numel / others < dmax)
    dmax = cx->lim->max_numel / others;
  ds[a] = dmax < 1 ? 0 : 1 + op_pick_below(cx, dmax);
  sig->args[0] = op_like(cx->arena, want, rd, ds);
  sig->args[1] = ir_tensor_type(cx->arena, idt, ri, t + a);
  take_attrs(cx, sig, a, rd);
  take_batch(cx, sig, a, ds);
  return true;
}

bool sample_take(OpId op, OpSolveCtx *cx, OpSig *sig) {
  uint32_t mask = ((1u << DT_INT32) | (1u << DT_INT64)) & cx->lim->dtypes;
  int64_t ishape[IR_MAX_RANK], others = 1;
  if (!op_can_sample(cx, 0) || !mask)
    return false;
  Type *x = op_draw_tensor_maybe_empty(cx, 0, op_rank_cap(cx->lim), OP_ALL);
  int rd = x->tensor.rank, a = rd >= 1 && op_coin(cx) ? (int)op_pick_below(cx, rd) : -1;
  for (int i = 0; a >= 0 && i < rd; i++)
    others *= i == a ? 1 : x->tensor.shape[i];
  int ri = op_draw_rank(cx, 0, a >= 0 ? op_rank_cap(cx->lim) - rd + 1 : op_rank_cap(cx->lim));
  op_draw_shape(cx, ri, others ? cx->lim->max_numel / others : cx->lim->max_numel, ishape);
  op_maybe_empty(cx, ri, ishape);
  op_sig_start(cx, sig, 2, NULL);
  sig->args[0] = x;
  sig->args[1] = ir_tensor_type(cx->arena, op_pick_dtype(cx, mask), ri, ishape);
  take_attrs(cx, sig, a, rd);
  take_batch(cx, sig, a, x->tensor.shape);
  /* The result: the data's dims with the taken axis replaced by the
   * indices' (the indices' shape alone when axis is None). */
  int64_t rs[2 * IR_MAX_RANK];
  int rr = 0;
  for (int i = 0; i < a; i++)
    rs[rr++] = x->tensor.shape[i];
  for (int i = 0; i < ri; i++)
    rs[rr++] = ishape[i];
  for (int i = a + 1; a >= 0 && i < rd; i++)
    rs[rr++] = x->tensor.shape[i];
  sig->ret = op_like(cx->arena, x, rr, rs);
  return true;
}

/* Index k of ix into an axis of n > 0 elements: wrapped, or clipped to
 * [0, n) (a uint64 index above INT64_MAX counts as the large value it is). */
static int64_t take_index(const Tensor *ix, int64_t k, int64_t n, bool wrap) {
  int64_t v = ir_tensor_get_i64(ix, k);
  if (ir_dtype_is_unsigned(ix->dtype) && v < 0)
    return wrap ? (int64_t)(ir_tensor_get_u64(ix, k) % (uint64_t)n) : n - 1;
  if (wrap) {
    v %= n;
    return v < 0 ? v + n : v;
  }
  return v < 0 ? 0 : v >= n ? n - 1 : v;
}

void k_take(OpId op, Tensor *const *args, int nargs, const Attrs *at, Tensor *const *outs,
            int nouts, Arena *scratch) {
  int axis, bd;
  bool wrap;
  int64_t shape[2 * IR_MAX_RANK];
  if (nargs != 2 || nouts != 1 ||
      take_plan(at, args[0]->rank, args[1]->rank, &axis, &bd, &wrap, NULL, 0) != REL_OK)
    return;
  Tensor *x = args[0], *ix = args[1], *y = outs[0];
  if (x->dtype != y->dtype || !ir_dtype_is_int(ix->dtype))
    return;
  int r = 0;
  for (int i = 0; i < bd; i++)
    if (x->shape[i] != ix->shape[i])
      return;
  for (int i = 0; axis >= 0 && i < axis; i++)
    shape[r++] = x->shape[i];
  for (int i = bd; i < ix->rank; i++)
    shape[r++] = ix->shape[i];
  for (int i = axis + 1; axis >= 0 && i < x->rank; i++)
    shape[r++] = x->shape[i];
  if (!op_has_shape(y, r, shape) || y->numel == 0)
    return;
  /* Taking from an empty axis gives zeros: write them, never rely on the
   * caller's zeroed memory. */
  memset(y->data, 0, (size_t)y->numel * (size_t)ir_dtype_size(y->dtype));
  if (axis < 0) {
    for (int64_t i = 0; x->numel > 0 && i < y->numel; i++)
      op_copy_run(y, i, x, take_index(ix, i, x->numel, wrap), 1);
    return;
  }
  /* m indices per batch; the outer coordinate o covers the batch (o / mid) */
  int64_t d = x->shape[axis], m = op_prod(ix->shape, bd, ix->rank);
  int64_t outer = op_prod(x->shape, 0, axis), inner = op_prod(x->shape, axis + 1, x->rank);
  int64_t mid = op_prod(x->shape, bd, axis);
  for (int64_t o = 0; d > 0 && o < outer; o++)
    for (int64_t k = 0; k < m; k++) {
      int64_t j = take_index(ix, o / mid * m + k, d, wrap);
      op_copy_run(y, (o * m + k) * inner, x, (o * d + j) * inner, inner);
    }
}

/* ------------------------------------------------------------------ tile */

/* tile(A, reps): A repeated reps[i] times along each axis; the shorter of
 * A's shape and reps is padded with leading ones. */

RelStatus rel_tile(OpId op, Type *const *args, int nargs, const Attrs *at, Arena *a, Type **out,
                   char *err, size_t errlen) {
  OpInts reps;
  RelStatus s = op_want_shaped(args, nargs, 1, err, errlen);
  if (s == REL_OK)
    s = op_need_ints(at, "reps", &reps, err, errlen);
  if (s != REL_OK)
    return s;
  const Type *t = args[0];
  int rank = t->tensor.rank;
  if (reps.n > IR_MAX_RANK)
    return op_fail(err, errlen, "result rank %d exceeds %d", reps.n, IR_MAX_RANK);
  for (int i = 0; i < reps.n; i++)
    if (reps.v[i] < 1)
      return op_fail(err, errlen, "reps must be positive, got %lld", (long long)reps.v[i]);
  int r = rank > reps.n ? rank : reps.n;
  int64_t shape[IR_MAX_RANK];
  for (int i = 0; i < r; i++) {
    int di = i - (r - rank), ri = i - (r - reps.n);
    int64_t d = di >= 0 ? t->tensor.shape[di] : 1, k = ri >= 0 ? reps.v[ri] : 1;
    if (!op_dim_mul(d, k, &shape[i]))
      return op_fail(err, errlen, "result shape is too large");
  }
  return op_result(a, t->tensor.dtype, r, shape, out, err, errlen);
}

bool rec_tile(OpId op, const Type *want, const OpLimits *lim) {
  return op_fits_elems(want, lim);
}

/* Up to 64 divisors of n > 0, 1 first. */
static int divisors(int64_t n, int64_t *out) {
  int k = 0;
  for (int64_t d = 1; d <= n / d && k < 63; d++)
    if (n % d == 0) {
      out[k++] = d;
      if (d != n / d)
        out[k++] = n / d;
    }
  return k;
}

bool solve_tile(OpId op, const Type *want, OpSolveCtx *cx, OpSig *sig) {
  int64_t data[IR_MAX_RANK], reps[IR_MAX_RANK], divs[64];
  if (!op_fits_elems(want, cx->lim))
    return false;
  int r = want->tensor.rank, rd = r, k;
  const int64_t *t = want->tensor.shape;
  if (!op_coin(cx)) { /* reps for the last k axes */
    k = (int)op_pick_below(cx, r + 1);
  } else { /* reps for every axis; leading data dims of 1 may be left out */
    int lead = 0;
    k = r;
    while (lead < r && t[lead] >= 1)
      lead++;
    rd = r - (int)op_pick_below(cx, lead + 1);
  }
  for (int i = 0; i < r; i++) {
    int di = i - (r - rd), ri = i - (r - k);
    int64_t rep = 1;
    if (di < 0)
      rep = t[i];
    else if (ri >= 0 && t[i] == 0)
      rep = 1 + op_pick_below(cx, 3);
    else if (ri >= 0)
      rep = divs[op_pick_below(cx, divisors(t[i], divs))];
    if (di >= 0)
      data[di] = t[i] / rep;
    if (ri >= 0)
      reps[ri] = rep;
  }
  op_sig_start(cx, sig, 1, want);
  sig->args[0] = op_like(cx->arena, want, rd, data);
  ir_attr_set_ints(cx->arena, &sig->attrs, "reps", k, reps);
  return true;
}

bool sample_tile(OpId op, OpSolveCtx *cx, OpSig *sig) {
  return op_sample_via(solve_tile, op, cx, sig, 0);
}

void k_tile(OpId op, Tensor *const *args, int nargs, const Attrs *at, Tensor *const *outs,
            int nouts, Arena *scratch) {
  int64_t xs[IR_MAX_RANK], c[IR_MAX_RANK] = {0};
  if (!op_arity(args, nargs, 1, outs, nouts, 1))
    return;
  Tensor *x = args[0], *y = outs[0];
  int off = y->rank - x->rank;
  if (off < 0 || y->numel == 0)
    return;
  for (int i = 0; i < x->rank; i++)
    if (x->shape[i] == 0 || y->shape[off + i] % x->shape[i] != 0)
      return;
  op_strides(x->rank, x->shape, xs);
  for (int64_t i = 0; i < y->numel; i++) {
    int64_t src = 0;
    for (int d = 0; d < x->rank; d++)
      src += c[off + d] % x->shape[d] * xs[d];
    op_copy_run(y, i, x, src, 1);
    op_next_coord(y->rank, y->shape, c);
  }
}

/* --------------------------------------------------------------- reverse */

/* reverse(A, axis): A with the order of axis reversed. */

RelStatus rel_reverse(OpId op, Type *const *args, int nargs, const Attrs *at, Arena *a, Type **out,
                      char *err, size_t errlen) {
  int64_t v;
  int axis;
  RelStatus s = op_want_shaped(args, nargs, 1, err, errlen);
  if (s == REL_OK)
    s = op_get_int(at, "axis", 0, &v, err, errlen);
  if (s == REL_OK)
    s = op_want_axis(v, args[0]->tensor.rank, &axis, err, errlen);
  if (s == REL_OK)
    *out = op_like(a, args[0], args[0]->tensor.rank, args[0]->tensor.shape);
  return s;
}

bool rec_reverse(OpId op, const Type *want, const OpLimits *lim) {
  return op_fits_elems(want, lim) && want->tensor.rank >= 1;
}

bool solve_reverse(OpId op, const Type *want, OpSolveCtx *cx, OpSig *sig) {
  if (!rec_reverse(op, want, cx->lim))
    return false;
  int r = want->tensor.rank;
  op_sig_start(cx, sig, 1, want);
  sig->args[0] = ir_type_copy(cx->arena, want);
  ir_attr_set_int(cx->arena, &sig->attrs, "axis", op_enc_axis(cx, (int)op_pick_below(cx, r), r));
  return true;
}

bool sample_reverse(OpId op, OpSolveCtx *cx, OpSig *sig) {
  return op_sample_via(solve_reverse, op, cx, sig, 1);
}

void k_reverse(OpId op, Tensor *const *args, int nargs, const Attrs *at, Tensor *const *outs,
               int nouts, Arena *scratch) {
  int64_t v;
  int axis;
  if (!op_arity(args, nargs, 1, outs, nouts, 1) ||
      op_get_int(at, "axis", 0, &v, NULL, 0) != REL_OK || !op_axis(v, args[0]->rank, &axis))
    return;
  Tensor *x = args[0], *y = outs[0];
  if (!op_has_shape(y, x->rank, x->shape) || y->numel == 0)
    return;
  int64_t outer = op_prod(x->shape, 0, axis), d = x->shape[axis];
  int64_t inner = op_prod(x->shape, axis + 1, x->rank);
  for (int64_t o = 0; o < outer; o++)
    for (int64_t k = 0; k < d; k++)
      op_copy_run(y, (o * d + k) * inner, x, (o * d + d - 1 - k) * inner, inner);
}
