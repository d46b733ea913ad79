/*
 * emit_shape.c - the building blocks that move elements without computing
 * (reshape, broadcast, transpose, slice, concatenate, reverse, pad), and
 * the operators of the shape, join and create families (compiler/ops's
 * shape.c, join.c and create.c).
 */
#include <assert.h>
#include <stdio.h>
#include <string.h>

#include "translate_int.h"

/* ---------------------------------------------------------------- blocks */

/* x reshaped (same elements, row-major) to the given shape. */
Val *emit_reshape(Fn *f, Val *x, int rank, const int64_t *shape) {
  if (mty_same_shape(mty_rank(x), mty_shape(x), rank, shape))
    return x;
  if (x->k) { /* a constant: the same elements, shaped as wanted */
    Tensor *t = ARENA_NEW(f->t->a, Tensor);
    *t = *x->k;
    t->rank = rank;
    memcpy(t->shape, shape, sizeof *shape * (size_t)rank);
    return emit_const(f, t);
  }
  x = fn_static(f, x); /* a static shape operand wants a static input */
  Val *s = emit_shape_value(f, rank, shape);
  return emit_tosa2(f, "reshape", x, s, mty_tensor(f, mty_dtype(x), rank, shape));
}

/* x with leading unit dims up to the given rank (numpy broadcasting's
 * alignment: TOSA's elementwise operations want equal ranks). */
Val *emit_align(Fn *f, Val *x, int rank) {
  int r = mty_rank(x);
  if (r >= rank)
    return x;
  int64_t shape[IR_MAX_RANK];
  for (int i = 0; i < rank; i++)
    shape[i] = i < rank - r ? 1 : mty_shape(x)[i - (rank - r)];
  return emit_reshape(f, x, rank, shape);
}

/* x broadcast to exactly the given shape (align, then tile the unit dims):
 * for operations that do not broadcast. */
Val *emit_expand(Fn *f, Val *x, int rank, const int64_t *shape) {
  x = emit_align(f, x, rank);
  if (mty_same_shape(mty_rank(x), mty_shape(x), rank, shape))
    return x;
  int64_t mult[IR_MAX_RANK];
  for (int i = 0; i < rank; i++)
    mult[i] = shape[i] / mty_shape(x)[i];
  x = fn_static(f, x);
  Val *m = emit_shape_value(f, rank, mult);
  return emit_tosa2(f, "tile", x, m, mty_tensor(f, mty_dtype(x), rank, shape));
}

/* x with its dims permuted: result dim i is x's dim perm[i]. */
Val *emit_transpose(Fn *f, Val *x, const int *perm) {
  int r = mty_rank(x);
  bool id = true;
  int64_t shape[IR_MAX_RANK];
  char attrs[128];
  int k = snprintf(attrs, sizeof attrs, "perms = array<i32");
  for (int i = 0; i < r; i++) {
    shape[i] = mty_shape(x)[perm[i]];
    id &= perm[i] == i;
    k += snprintf(attrs + k, sizeof attrs - (size_t)k, "%s %d", i ? "," : ":", perm[i]);
  }
  snprintf(attrs + k, sizeof attrs - (size_t)k, ">");
  if (id)
    return x;
  x = fn_static(f, x);
  /* A bool tensor goes through int8: tosa-reduce-transposes folds the
   * transpose of an i1 constant into a malformed constant that crashes
   * the translation to LLVM IR (docs/findings/mlir.md #13). */
  if (mty_dtype(x) == DT_BOOL)
    return emit_cast(f, emit_transpose(f, emit_cast(f, x, DT_INT8), perm), DT_BOOL);
  return emit_tosa(f, "transpose", attrs, mty_tensor(f, mty_dtype(x), r, shape), 1, &x);
}

/* The block of x starting at start with the given sizes. */
Val *emit_slice(Fn *f, Val *x, const int64_t *start, const int64_t *size) {
  int r = mty_rank(x);
  bool all = true;
  for (int i = 0; i < r; i++)
    all &= start[i] == 0 && size[i] == mty_shape(x)[i];
  if (all)
    return x;
  x = fn_static(f, x);
  Val *a[3] = {x, emit_shape_value(f, r, start), emit_shape_value(f, r, size)};
  return emit_tosa(f, "slice", NULL, mty_tensor(f, mty_dtype(x), r, size), 3, a);
}

/* xs[0..n) joined along axis. */
Val *emit_concat(Fn *f, int n, Val **xs, int axis) {
  if (n == 1)
    return xs[0];
  Val **sx = ARENA_ARRAY(f->t->a, Val *, n);
  for (int i = 0; i < n; i++)
    sx[i] = fn_static(f, xs[i]);
  xs = sx;
  int64_t shape[IR_MAX_RANK];
  memcpy(shape, mty_shape(xs[0]), sizeof shape);
  for (int i = 1; i < n; i++)
    shape[axis] += mty_shape(xs[i])[axis];
  char attrs[32];
  snprintf(attrs, sizeof attrs, "axis = %d : i32", axis);
  return emit_tosa(f, "concat", attrs, mty_tensor(f, mty_dtype(xs[0]), mty_rank(xs[0]), shape), n,
                   xs);
}

/* x reversed along axis. */
Val *emit_reverse(Fn *f, Val *x, int axis) {
  char attrs[32];
  snprintf(attrs, sizeof attrs, "axis = %d : i32", axis);
  return emit_tosa(f, "reverse", attrs, x->type, 1, &x);
}

/* x padded by lo[i] before and hi[i] after dim i (all >= 0) with the
 * constant v (tosa.pad wants its pad value known at compile time).
 * tosa-validate in MLIR 22.1 rejects a padding shape longer than MAX_RANK
 * (6), i.e. tosa.pad of a rank-4 tensor (fixed upstream: llvm-project
 * #175020), so runs of unpadded dims are merged first, and what still has
 * rank > 3 is padded one axis at a time by concatenating constants. */
Val *emit_pad(Fn *f, Val *x, const int64_t *lo, const int64_t *hi, double v) {
  int r = mty_rank(x), m = 0;
  int64_t p[2 * IR_MAX_RANK], shape[IR_MAX_RANK], merged[IR_MAX_RANK], out[IR_MAX_RANK];
  bool none = true;
  for (int i = 0; i < r; i++) {
    bool padded = lo[i] || hi[i];
    if (m > 0 && !padded && !p[2 * (m - 1)] && !p[2 * m - 1]) {
      merged[m - 1] *= mty_shape(x)[i];
    } else {
      merged[m] = mty_shape(x)[i];
      p[2 * m] = lo[i];
      p[2 * m + 1] = hi[i];
      m++;
    }
    shape[i] = mty_shape(x)[i] + lo[i] + hi[i];
    none &= !padded;
  }
  if (none)
    return x;
  x = fn_static(f, x);
  Type *rt = mty_tensor(f, mty_dtype(x), r, shape);
  if (m > 3) {
    for (int i = 0; i < r; i++) {
      if (!lo[i] && !hi[i])
        continue;
      Val *parts[3];
      int n = 0;
      memcpy(out, mty_shape(x), sizeof out);
      if (lo[i])
        out[i] = lo[i], parts[n++] = emit_fill(f, mty_tensor(f, mty_dtype(x), r, out), v);
      parts[n++] = x;
      if (hi[i])
        out[i] = hi[i], parts[n++] = emit_fill(f, mty_tensor(f, mty_dtype(x), r, out), v);
      x = emit_concat(f, n, parts, i);
    }
    return x;
  }
  for (int i = 0; i < m; i++)
    out[i] = merged[i] + p[2 * i] + p[2 * i + 1];
  Val *a[3] = {emit_reshape(f, x, m, merged), emit_shape_value(f, 2 * m, p),
               emit_splat(f, mty_dtype(x), 1, v)};
  Val *y = emit_tosa(f, "pad", NULL, mty_tensor(f, mty_dtype(x), m, out), 3, a);
  return emit_reshape(f, y, rt->tensor.rank, rt->tensor.shape);
}

/* x padded like emit_pad() with zeros, and (in the same shape) a bool mask
 * that is true where x is: for pad values known only at run time. */
Val *emit_pad_mask(Fn *f, Val *x, const int64_t *lo, const int64_t *hi) {
  Val *ones = emit_fill(f, mty_retype(f, x->type, DT_BOOL), 1);
  return emit_pad(f, ones, lo, hi, 0);
}

/* -------------------------------------------------------------- families */

/* split: one tosa.slice per piece (shape.c's split_plan). */
static Val *emit_split(Fn *f, Val *x, const Attrs *at, const Type *rt) {
  int r = mty_rank(x), axis = attr_axis(ir_attr_int(at, "axis", 0), r);
  Val *v = ARENA_NEW(f->t->a, Val);
  v->n = rt->tuple.n;
  v->f = ARENA_ARRAY(f->t->a, Val *, v->n);
  int64_t start[IR_MAX_RANK] = {0};
  for (int i = 0; i < v->n; i++) {
    const Type *p = rt->tuple.fields[i];
    v->f[i] = emit_slice(f, x, start, p->tensor.shape);
    start[axis] += p->tensor.shape[axis];
  }
  return v;
}

/* ------------------------------------------- transform.c and image.c */

/* repeat: each element repeated reps times along axis, as x shaped
 * [outer, n, 1, inner] broadcast to [outer, n, reps, inner]. */
static Val *emit_repeat(Fn *f, Val *x, const Attrs *at, const Type *rt) {
  int r = mty_rank(x), axis = attr_axis(ir_attr_int(at, "axis", 0), r);
  int64_t s[4] = {1, mty_shape(x)[axis], 1, 1};
  for (int i = 0; i < r; i++)
    if (i != axis)
      s[i < axis ? 0 : 3] *= mty_shape(x)[i];
  x = emit_reshape(f, x, 4, s);
  s[2] = rt->tensor.shape[axis] / s[1];
  return emit_reshape(f, emit_expand(f, x, 4, s), rt->tensor.rank, rt->tensor.shape);
}

/* depth_to_space and space_to_depth (NCHW) as reshape, transpose,
 * reshape over the six dims (n, c, h, block row, w, block column) in the
 * order each side of the move has them:
 *   depth_to_space DCR: x [N, b, b, C, H, W] -> [N, C, H, b, W, b];
 *                  CRD: x [N, C, b, b, H, W] -> [N, C, H, b, W, b];
 *   space_to_depth:     x [N, C, H, b, W, b] -> [N, b, b, C, H, W]. */
static Val *emit_space_depth(Fn *f, OpId op, Val *x, const Attrs *at, const Type *rt) {
  int64_t b = ir_attr_int(at, "block_size", 1);
  const int64_t *xs = mty_shape(x), *ys = rt->tensor.shape;
  int64_t s[6];
  static const int dcr[6] = {0, 3, 4, 1, 5, 2}, crd[6] = {0, 1, 4, 2, 5, 3},
                   s2d[6] = {0, 3, 5, 1, 2, 4};
  const int *perm = s2d;
  if (op == OP_DEPTH_TO_SPACE) {
    bool c = !strcmp(ir_attr_str(at, "mode", "DCR"), "CRD");
    int64_t v[6] = {xs[0], c ? ys[1] : b, b, c ? b : ys[1], xs[2], xs[3]};
    memcpy(s, v, sizeof s);
    perm = c ? crd : dcr;
  } else {
    int64_t v[6] = {xs[0], xs[1], ys[2], b, ys[3], b};
    memcpy(s, v, sizeof s);
  }
  Val *t = emit_transpose(f, emit_reshape(f, x, 6, s), perm);
  return emit_reshape(f, t, 4, ys);
}

/* layout_transform between simple layouts: a transpose, result dim i
 * the source's dim named dst_layout[i]. */
static Val *emit_layout(Fn *f, Val *x, const Attrs *at) {
  const char *src = ir_attr_str(at, "src_layout", ""), *dst = ir_attr_str(at, "dst_layout", "");
  int perm[IR_MAX_RANK];
  for (int i = 0; i < mty_rank(x); i++)
    perm[i] = (int)(strchr(src, dst[i]) - src);
  return emit_transpose(f, x, perm);
}

/* collapse_sum_like: x summed over its leading dims and those where the
 * target's dim is 1, as relayc's kernel (floats accumulated in double
 * from 0 and rounded once, so -0 becomes +0 even where nothing is summed:
 * then a sum over an axis of 1; integers wrapping). */
static Val *emit_collapse_sum(Fn *f, Val *x, const Type *rt) {
  int xr = mty_rank(x), lead = xr - rt->tensor.rank;
  uint32_t mask = (1u << lead) - 1;
  for (int i = lead; i < xr; i++)
    if (rt->tensor.shape[i - lead] == 1)
      mask |= 1u << i;
  if (!ir_dtype_is_float(mty_dtype(x))) {
    if (mask)
      x = emit_reduce_each(f, "reduce_sum", x, mask);
  } else if (mask) {
    x = emit_float_sum(f, x, mask, false);
  } else {
    int64_t col[2] = {ir_type_numel(x->type), 1};
    x = emit_float_sum(f, emit_reshape(f, x, 2, col), 2, false);
  }
  return emit_reshape(f, x, rt->tensor.rank, rt->tensor.shape);
}

Val *emit_shape(Fn *f, OpId op, Val **a, const Attrs *at, const Type *rt) {
  Val *x = a[0];
  const int64_t *v;
  switch (op) {
  case OP_RESHAPE:
  case OP_EXPAND_DIMS:
  case OP_SQUEEZE: return emit_reshape(f, x, rt->tensor.rank, rt->tensor.shape);
  case OP_TRANSPOSE: {
    int r = mty_rank(x), perm[IR_MAX_RANK];
    int n = attr_ints(at, "axes", &v);
    for (int i = 0; i < r; i++)
      perm[i] = n >= 0 ? attr_axis(v[i], r) : r - 1 - i;
    return emit_transpose(f, x, perm);
  }
  case OP_BROADCAST_TO: return emit_expand(f, x, rt->tensor.rank, rt->tensor.shape);
  case OP_CONCATENATE: {
    /* x is the tuple of tensors */
    return emit_concat(f, x->n, x->f, attr_axis(ir_attr_int(at, "axis", 0), mty_rank(x->f[0])));
  }
  case OP_STACK: {
    Val **xs = x->f;
    int n = x->n, r = mty_rank(xs[0]);
    int axis = (int)ir_attr_int(at, "axis", 0);
    axis = axis < 0 ? axis + r + 1 : axis;
    Val **ys = ARENA_ARRAY(f->t->a, Val *, n);
    int64_t shape[IR_MAX_RANK];
    memcpy(shape, rt->tensor.shape, sizeof shape);
    shape[axis] = 1;
    for (int i = 0; i < n; i++)
      ys[i] = emit_reshape(f, xs[i], r + 1, shape);
    return emit_concat(f, n, ys, axis);
  }
  case OP_SPLIT: return emit_split(f, x, at, rt);
  case OP_BATCH_FLATTEN:
  case OP_RESHAPE_LIKE: return emit_reshape(f, x, rt->tensor.rank, rt->tensor.shape);
  case OP_SLICE_LIKE: {
    int64_t zero[IR_MAX_RANK] = {0};
    return emit_slice(f, x, zero, rt->tensor.shape);
  }
  case OP_REPEAT: return emit_repeat(f, x, at, rt);
  case OP_DEPTH_TO_SPACE:
  case OP_SPACE_TO_DEPTH: return emit_space_depth(f, op, x, at, rt);
  case OP_LAYOUT_TRANSFORM: return emit_layout(f, x, at);
  case OP_COLLAPSE_SUM_LIKE: return emit_collapse_sum(f, x, rt);
  case OP_ZEROS:
  case OP_ZEROS_LIKE: return emit_fill(f, rt, 0);
  case OP_ONES:
  case OP_ONES_LIKE: return emit_fill(f, rt, 1);
  case OP_FULL:
    return emit_expand(f, emit_cast(f, x, rt->tensor.dtype), rt->tensor.rank, rt->tensor.shape);
  default: assert(!"an operator without a lowering"); return x;
  }
}
