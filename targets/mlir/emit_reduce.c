/*
 * emit_reduce.c - the operators of the reduction family (compiler/ops's
 * reduction.c): sums, means and products accumulated as relayc's kernels
 * accumulate them (linalg.reduce in double), max and min, and argmax and
 * argmin with relayc's rule for ties, NaNs and signed zeros.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "translate_int.h"

uint32_t attr_reduce_axes(const Attrs *at, int rank) {
  uint32_t all = (1u << rank) - 1, m = 0;
  const Attr *ax = ir_attr_get(at, "axis");
  if (!ax || ax->kind != AV_INTS || ax->n == 0)
    return all;
  for (int i = 0; i < ax->n; i++)
    m |= 1u << (ax->ints[i] < 0 ? ax->ints[i] + rank : ax->ints[i]);
  return ir_attr_bool(at, "exclude", false) ? all & ~m : m;
}

/* The dims of x left by reducing over mask: kept ones, or (keep) 1s. */
static int reduced_shape(const Val *x, uint32_t mask, bool keep, int64_t *shape) {
  int r = 0;
  for (int i = 0; i < mty_rank(x); i++)
    if (!(mask >> i & 1))
      shape[r++] = mty_shape(x)[i];
    else if (keep)
      shape[r++] = 1;
  return r;
}

/* x reduced with tosa.reduce_OP over each axis in mask in turn (TOSA
 * reduces one axis at a time and keeps it as a 1). */
Val *emit_reduce_each(Fn *f, const char *op, Val *x, uint32_t mask) {
  x = fn_static(f, x);
  for (int i = 0; i < mty_rank(x); i++) {
    if (!(mask >> i & 1) || mty_shape(x)[i] == 1)
      continue; /* a reduction over one element is that element */
    int64_t shape[IR_MAX_RANK];
    memcpy(shape, mty_shape(x), sizeof shape);
    shape[i] = 1;
    char attrs[32];
    snprintf(attrs, sizeof attrs, "axis = %d : i32", i);
    x = emit_tosa(f, op, attrs, mty_tensor(f, mty_dtype(x), mty_rank(x), shape), 1, &x);
  }
  return x;
}

/* x reduced over mask by linalg.reduce, each element extended to the
 * accumulator's dtype acc (from init) and combined with `combine`
 * (arith.addf, arith.muli, ...); the result has the kept dims, dtype acc.
 * This is how float sums and products keep relayc's accumulation in
 * double (and integer products, which TOSA lacks, wrap). */
static Val *emit_linalg_reduce(Fn *f, Val *x, uint32_t mask, DType acc, double init,
                               const char *combine) {
  int64_t shape[IR_MAX_RANK];
  int r = reduced_shape(x, mask, false, shape);
  const Type *rt = mty_tensor(f, acc, r, shape);
  const char *xn = fn_use(f, x);
  Val *iv = fn_def(f, rt, NULL);
  fn_out(f, "arith.constant dense<");
  buf_number(fn_body(f), acc, init);
  fn_out(f, "> : %s\n", iv->ty);
  Val *v = fn_def(f, rt, NULL);
  fn_out(f, "linalg.reduce ins(%s : %s) outs(%s : %s) dimensions = [", xn, x->ty, iv->name, iv->ty);
  for (int i = 0, k = 0; i < mty_rank(x); i++)
    if (mask >> i & 1)
      fn_out(f, "%s%d", k++ ? ", " : "", i);
  const char *in = mty_elem(mty_dtype(x)), *ac = mty_elem(acc);
  int a = f->t->next++, b = f->t->next++, e = f->t->next++, s = f->t->next++;
  fn_out(f, "]\n");
  fn_line(f);
  fn_out(f, "    (%%%d: %s, %%%d: %s) {\n", a, in, b, ac);
  fn_line(f);
  if (mty_dtype(x) == acc)
    fn_out(f, "      %%%d = %s %%%d, %%%d : %s\n", s, combine, a, b, ac);
  else
    fn_out(f, "      %%%d = %s %%%d : %s to %s\n", e,
           ir_dtype_is_float(acc) ? "arith.extf" : "arith.extsi", a, in, ac);
  if (mty_dtype(x) != acc) {
    fn_line(f);
    fn_out(f, "      %%%d = %s %%%d, %%%d : %s\n", s, combine, e, b, ac);
  }
  fn_line(f);
  fn_out(f, "      linalg.yield %%%d : %s\n", s, ac);
  fn_line(f);
  fn_out(f, "    }\n");
  f->last = NULL;
  return v;
}

/* A float tensor of x's kept dims after the mask (keepdims, as 1s): the
 * sum (mean: divided by the count) accumulated in double and rounded
 * once, as relayc's kernel does. */
Val *emit_float_sum(Fn *f, Val *x, uint32_t mask, bool mean) {
  x = fn_static(f, x);
  int64_t shape[IR_MAX_RANK], count = 1;
  for (int i = 0; i < mty_rank(x); i++)
    if (mask >> i & 1)
      count *= mty_shape(x)[i];
  Val *s = emit_linalg_reduce(f, x, mask, DT_FLOAT64, 0, "arith.addf");
  if (mean) {
    Val *a[2] = {s, emit_fill(f, s->type, (double)count)};
    s = emit_arith(f, "arith.divf", 2, a);
  }
  s = emit_convert(f, "arith.truncf", s, mty_dtype(x));
  int r = reduced_shape(x, mask, true, shape);
  return emit_reshape(f, s, r, shape);
}

/* The sum, mean, product, max or min of x over mask (kept as 1s). */
static Val *emit_reduce(Fn *f, OpId op, Val *x, uint32_t mask) {
  bool fl = ir_dtype_is_float(mty_dtype(x));
  int64_t shape[IR_MAX_RANK];
  int r = reduced_shape(x, mask, true, shape);
  if (mask == 0) {
    /* Nothing reduced (a scalar, or every axis excluded): relayc still
     * folds each element into a fresh accumulator, 0 + x for sums (-0
     * becomes +0).  Not as tosa.add(x, 0), which MLIR 22.1 folds to x
     * (docs/findings/mlir.md #5): as sums over an axis of 1. */
    if (!fl || (op != OP_SUM && op != OP_MEAN))
      return x;
    int64_t col[2] = {ir_type_numel(x->type), 1};
    Val *s = emit_float_sum(f, emit_reshape(f, x, 2, col), 2, op == OP_MEAN);
    return emit_reshape(f, s, mty_rank(x), mty_shape(x));
  }
  switch (op) {
  case OP_MAX: return emit_reduce_each(f, "reduce_max", x, mask);
  case OP_MIN: return emit_reduce_each(f, "reduce_min", x, mask);
  case OP_PROD:
    if (fl) {
      Val *p = emit_linalg_reduce(f, x, mask, DT_FLOAT64, 1, "arith.mulf");
      return emit_reshape(f, emit_convert(f, "arith.truncf", p, mty_dtype(x)), r, shape);
    }
    return emit_reshape(f, emit_linalg_reduce(f, x, mask, mty_dtype(x), 1, "arith.muli"), r, shape);
  default: break;
  }
  if (fl)
    return emit_float_sum(f, x, mask, op == OP_MEAN);
  if (op == OP_SUM)
    return emit_reduce_each(f, "reduce_sum", x, mask);
  /* Integer mean: the sum taken in int64, divided by the count (which
   * fits: |mean| <= max |x|). */
  int64_t count = 1;
  for (int i = 0; i < mty_rank(x); i++)
    if (mask >> i & 1)
      count *= mty_shape(x)[i];
  Val *w = emit_tosa1(f, "cast", x, mty_retype(f, x->type, DT_INT64));
  w = emit_reduce_each(f, "reduce_sum", w, mask);
  w = emit_bin(f, "intdiv", w, emit_scalar_like(f, w, (double)count));
  return emit_tosa1(f, "cast", w, mty_retype(f, w->type, mty_dtype(x)));
}

/* argmax or argmin of x over mask: int32, shaped like x with the reduced
 * axes moved last and merged into one 1.  relayc's rule is the first index
 * (row-major within the reduced axes) of the extreme, where a NaN beats
 * everything and +0 is above -0; tosa.argmax ties -0 with +0 (and has no
 * int32 form), so: m = the extreme (tosa.reduce_max/min, which order the
 * zeros and let NaN win), hit = the elements equal to m (zeros of m's
 * sign only; the NaNs when m is NaN), then the least index of a hit. */
static Val *emit_arg_reduce(Fn *f, OpId op, Val *x, uint32_t mask) {
  int rank = mty_rank(x), perm[IR_MAX_RANK], k = 0;
  int64_t shape[IR_MAX_RANK + 1], n = 1;
  for (int i = 0; i < rank; i++)
    if (!(mask >> i & 1))
      shape[k] = mty_shape(x)[i], perm[k++] = i;
  int nk = k;
  for (int i = 0; i < rank; i++)
    if (mask >> i & 1)
      n *= mty_shape(x)[i], perm[k++] = i;
  shape[nk] = n;
  if (n == 1) /* one candidate: index 0 */
    return emit_fill(f, mty_tensor(f, DT_INT32, nk + 1, shape), 0);
  Val *y = emit_reshape(f, emit_transpose(f, x, perm), nk + 1, shape);
  uint32_t last = 1u << nk;
  Val *m = emit_reduce_each(f, op == OP_ARGMAX ? "reduce_max" : "reduce_min", y, last);
  Val *hit = emit_cmp(f, "equal", y, m);
  if (ir_dtype_is_float(mty_dtype(x))) {
    Val *zero = emit_scalar_like(f, y, 0);
    Val *yz = emit_cmp(f, "equal", y, zero);
    Val *yneg = emit_cmp(f, "greater", zero, emit_tosa1(f, "reciprocal", y, y->type));
    Val *mneg = emit_cmp(f, "greater", zero, emit_tosa1(f, "reciprocal", m, m->type));
    Val *bad = emit_bin(f, "logical_and", yz, emit_bin(f, "logical_xor", yneg, mneg));
    hit = emit_bin(f, "logical_and", hit, emit_not(f, bad));
    hit = emit_select(f, emit_is_nan(f, m), emit_is_nan(f, y), hit);
  }
  int64_t ishape[IR_MAX_RANK + 1];
  for (int i = 0; i < nk; i++)
    ishape[i] = 1;
  ishape[nk] = n;
  Tensor *iota = ir_tensor_new(f->t->a, DT_INT32, nk + 1, ishape);
  for (int64_t i = 0; i < n; i++)
    ir_tensor_set_i64(iota, i, i);
  Val *none = emit_splat(f, DT_INT32, nk + 1, (double)n);
  Val *idx =
      emit_reduce_each(f, "reduce_min", emit_select(f, hit, emit_const(f, iota), none), last);
  if (ir_dtype_is_float(mty_dtype(x))) {
    /* MLIR 22.1's reduce_min (reduce_max) of a slice of +inf (-inf) is
     * FLT_MAX (-FLT_MAX), which no element equals (docs/findings/mlir.md
     * #16): where nothing hit, the first infinity is the answer. */
    Val *inf = emit_scalar_like(f, y, op == OP_ARGMAX ? -INFINITY : INFINITY);
    Val *first_inf = emit_select(f, emit_cmp(f, "equal", y, inf), emit_const(f, iota), none);
    first_inf = emit_reduce_each(f, "reduce_min", first_inf, last);
    idx = emit_select(f, emit_cmp(f, "equal", idx, emit_scalar_like(f, idx, (double)n)), first_inf,
                      idx);
  }
  return idx;
}

Val *emit_reduction(Fn *f, OpId op, Val *x, const Attrs *at, const Type *rt) {
  uint32_t mask = attr_reduce_axes(at, mty_rank(x));
  Val *r;
  if (op == OP_ARGMAX || op == OP_ARGMIN)
    r = mask ? emit_arg_reduce(f, op, x, mask) : emit_fill(f, rt, 0);
  else
    r = emit_reduce(f, op, x, mask);
  return emit_reshape(f, r, rt->tensor.rank, rt->tensor.shape);
}
