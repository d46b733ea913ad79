/*
 * linalg_ops.c - the linalg road's operators other than the elementwise
 * ones (linalg.c): reductions (linalg.reduce, float sums, means and
 * products accumulated in double as relayc's kernels do), shapes
 * (tensor.collapse_shape / expand_shape, linalg.transpose,
 * linalg.broadcast), concatenate (tensor.concat), the create family,
 * nn.dense and nn.batch_matmul (linalg.matmul and linalg.batch_matmul with
 * the indexing maps of their transposes, accumulating float products in
 * double), nn.softmax and nn.log_softmax (their steps) and nn.bias_add.
 */
#include <assert.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "compiler/ops/op.h"
#include "linalg_int.h"

/* ----------------------------------------------------------------- shapes */

/* "[[0, 1], [2]]": the reassociation grouping all of rank r into one. */
static void put_all(Fn *f, int r) {
  fn_out(f, "[");
  if (r) {
    fn_out(f, "[");
    for (int i = 0; i < r; i++)
      fn_out(f, "%s%d", i ? ", " : "", i);
    fn_out(f, "]");
  }
  fn_out(f, "]");
}

/* x (numel n, any rank) as a rank-1 tensor [n], or (to_rank 0) x as a
 * rank-0 tensor when n is 1. */
static Val *collapse(Fn *f, Val *x, int to_rank) {
  int64_t n = ir_type_numel(x->type);
  const char *xn = fn_use(f, x);
  Val *v = fn_def(f, mty_tensor(f, mty_dtype(x), to_rank, &n), NULL);
  fn_out(f, "tensor.collapse_shape %s ", xn);
  put_all(f, to_rank ? mty_rank(x) : 0);
  fn_out(f, " : %s into %s\n", x->ty, v->ty);
  return v;
}

/* x of rank 0 or 1 expanded to shape (numel equal). */
static Val *expand(Fn *f, Val *x, int rank, const int64_t *shape) {
  const char *xn = fn_use(f, x);
  Val *v = fn_def(f, mty_tensor(f, mty_dtype(x), rank, shape), NULL);
  fn_out(f, "tensor.expand_shape %s ", xn);
  put_all(f, mty_rank(x) ? rank : 0);
  fn_out(f, " output_shape [");
  for (int i = 0; i < rank; i++)
    fn_out(f, "%s%lld", i ? ", " : "", (long long)shape[i]);
  fn_out(f, "] : %s into %s\n", x->ty, v->ty);
  return v;
}

Val *lin_reshape(Fn *f, Val *x, int rank, const int64_t *shape) {
  if (mty_same_shape(mty_rank(x), mty_shape(x), rank, shape))
    return x;
  if (rank == 0)
    return collapse(f, x, 0);
  if (mty_rank(x) > 1 || (mty_rank(x) == 1 && rank == 1))
    x = collapse(f, x, 1);
  if (rank == 1 && mty_rank(x) == 1)
    return x;
  return expand(f, x, rank, shape);
}

/* x with its dims permuted (result dim i is x's dim perm[i]):
 * linalg.transpose. */
static Val *lin_transpose(Fn *f, Val *x, const int *perm) {
  int r = mty_rank(x);
  int64_t shape[IR_MAX_RANK];
  bool id = true;
  for (int i = 0; i < r; i++)
    shape[i] = mty_shape(x)[perm[i]], id &= perm[i] == i;
  if (id)
    return x;
  const char *xn = fn_use(f, x);
  Val *init = lin_empty(f, mty_tensor(f, mty_dtype(x), r, shape));
  Val *v = fn_def(f, init->type, NULL);
  fn_out(f, "linalg.transpose ins(%s : %s) outs(%s : %s) permutation = [", xn, x->ty, init->name,
         init->ty);
  for (int i = 0; i < r; i++)
    fn_out(f, "%s%d", i ? ", " : "", perm[i]);
  fn_out(f, "]\n");
  return v;
}

/* x broadcast to rt's shape: linalg.broadcast when x's dims are rt's
 * trailing dims (new leading dims only), else a linalg.generic whose
 * indexing map reads x's unit dims at 0. */
static Val *lin_expand(Fn *f, Val *x, const Type *rt) {
  int r = rt->tensor.rank, rx = mty_rank(x);
  if (mty_same_shape(rx, mty_shape(x), r, rt->tensor.shape))
    return x;
  bool trailing = true;
  for (int i = 0; i < rx; i++)
    trailing &= mty_shape(x)[i] == rt->tensor.shape[i + r - rx];
  if (!trailing) {
    LinEw e = {LIN_COPY, mty_dtype(x), mty_dtype(x), NULL, 0};
    return lin_elementwise(f, 1, &x, rt, &e);
  }
  const char *xn = fn_use(f, x);
  Val *init = lin_empty(f, rt);
  Val *v = fn_def(f, rt, NULL);
  fn_out(f, "linalg.broadcast ins(%s : %s) outs(%s : %s) dimensions = [", xn, x->ty, init->name,
         init->ty);
  for (int i = 0; i < r - rx; i++)
    fn_out(f, "%s%d", i ? ", " : "", i);
  fn_out(f, "]\n");
  return v;
}

/* xs[0..n) joined along axis: tensor.concat. */
Val *lin_concat(Fn *f, int n, Val **xs, int axis, const Type *rt) {
  if (n == 1)
    return xs[0];
  const char **names = ARENA_ARRAY(f->t->a, const char *, n);
  for (int i = 0; i < n; i++)
    names[i] = fn_use(f, xs[i]);
  Val *v = fn_def(f, rt, NULL);
  fn_out(f, "tensor.concat dim(%d) ", axis);
  for (int i = 0; i < n; i++)
    fn_out(f, "%s%s", i ? ", " : "", names[i]);
  fn_out(f, " : (");
  for (int i = 0; i < n; i++)
    fn_out(f, "%s%s", i ? ", " : "", xs[i]->ty);
  fn_out(f, ") -> %s\n", v->ty);
  return v;
}

/* ------------------------------------------------------------- reductions */

/* The number of elements mask selects of x. */
static int64_t count_of(const Val *x, uint32_t mask) {
  int64_t n = 1;
  for (int i = 0; i < mty_rank(x); i++)
    if (mask >> i & 1)
      n *= mty_shape(x)[i];
  return n;
}

/* x (of acc dtype) finished by step `op` (LIN_TRUNC, a mean) into dtype dt. */
static Val *lin_finish(Fn *f, Val *x, int op, DType dt, int64_t count) {
  LinEw e = {op, mty_dtype(x), dt, NULL, count};
  return lin_elementwise(f, 1, &x, mty_retype(f, x->type, dt), &e);
}

/* sum, mean, max, min or prod of x over the axes in mask, shaped rt. */
static Val *lin_reduction(Fn *f, OpId op, Val *x, uint32_t mask, const Type *rt) {
  DType dt = mty_dtype(x);
  bool fl = ir_dtype_is_float(dt);
  for (int i = 0; i < mty_rank(x); i++) /* a unit dim reduces to itself */
    if (mty_shape(x)[i] == 1 && (op == OP_MAX || op == OP_MIN || !fl))
      mask &= ~(1u << i);
  Val *r;
  if (mask == 0 && !(fl && (op == OP_SUM || op == OP_MEAN))) {
    r = x; /* nothing reduced: each element folded into a fresh accumulator */
  } else if (op == OP_MAX || op == OP_MIN) {
    bool mx = op == OP_MAX;
    double init = fl ? (mx ? -INFINITY : INFINITY) : (mx ? -2147483648.0 : 2147483647.0);
    const char *c =
        fl ? (mx ? "arith.maximumf" : "arith.minimumf") : (mx ? "arith.maxsi" : "arith.minsi");
    r = emit_linalg_reduce(f, x, mask, dt, init, c);
  } else if (op == OP_PROD) {
    r = fl ? lin_finish(f, emit_linalg_reduce(f, x, mask, DT_FLOAT64, 1, "arith.mulf"), LIN_TRUNC,
                        dt, 0)
           : emit_linalg_reduce(f, x, mask, dt, 1, "arith.muli");
  } else if (fl) {
    /* In double, rounded once; over no axis still 0 + x (-0 becomes +0):
     * a reduction over an added unit dim. */
    if (mask == 0) {
      int64_t one[IR_MAX_RANK + 1];
      for (int i = 0; i < mty_rank(x); i++)
        one[i] = mty_shape(x)[i];
      one[mty_rank(x)] = 1;
      x = lin_reshape(f, x, mty_rank(x) + 1, one);
      mask = 1u << (mty_rank(x) - 1);
    }
    r = lin_finish(f, emit_linalg_reduce(f, x, mask, DT_FLOAT64, 0, "arith.addf"),
                   op == OP_MEAN ? LIN_MEAN_TRUNC : LIN_TRUNC, dt, count_of(x, mask));
  } else if (op == OP_SUM) {
    r = emit_linalg_reduce(f, x, mask, dt, 0, "arith.addi"); /* wraps */
  } else { /* an integer mean: the sum in int64, truncated by the count */
    r = lin_finish(f, emit_linalg_reduce(f, x, mask, DT_INT64, 0, "arith.addi"), LIN_INT_MEAN, dt,
                   count_of(x, mask));
  }
  return lin_reshape(f, r, rt->tensor.rank, rt->tensor.shape);
}

/* ---------------------------------------------------------------- matmul */

/* nn.dense(x [.., k], w [n, k]): x as [m, k], linalg.matmul with w read
 * transposed by its indexing map, into float64 (int32: wrapping) from
 * zeros, rounded once. */
static Val *lin_dense(Fn *f, Val *x, Val *w, const Type *rt) {
  DType odt = rt->tensor.dtype;
  x = lin_cast(f, x, odt), w = lin_cast(f, w, odt);
  int64_t k = mty_shape(w)[1], n = mty_shape(w)[0], mk[2] = {ir_type_numel(x->type) / k, k};
  x = lin_reshape(f, x, 2, mk);
  DType acc = ir_dtype_is_float(odt) ? DT_FLOAT64 : odt;
  int64_t mn[2] = {mk[0], n};
  Val *out = lin_fill(f, mty_tensor(f, acc, 2, mn), 0);
  const char *xn = fn_use(f, x), *wn = fn_use(f, w);
  Val *v = fn_def(f, out->type, NULL);
  fn_out(f,
         "linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) "
         "-> (n, k)>, affine_map<(m, n, k) -> (m, n)>] ins(%s, %s : %s, %s) outs(%s : %s) -> %s\n",
         xn, wn, x->ty, w->ty, out->name, out->ty, v->ty);
  if (acc != odt)
    v = lin_finish(f, v, LIN_TRUNC, odt, 0);
  return lin_reshape(f, v, rt->tensor.rank, rt->tensor.shape);
}

/* x [b, .., ..] with a batch of 1 broadcast to b. */
static Val *batch_to(Fn *f, Val *x, int64_t b) {
  if (mty_shape(x)[0] == b)
    return x;
  int64_t shape[3] = {b, mty_shape(x)[1], mty_shape(x)[2]};
  return lin_expand(f, lin_reshape(f, x, 2, shape + 1), mty_tensor(f, mty_dtype(x), 3, shape));
}

/* nn.batch_matmul(x, y): linalg.batch_matmul with the indexing maps of
 * transpose_a and transpose_b, batches of 1 broadcast first. */
static Val *lin_batch_matmul(Fn *f, Val *x, Val *y, const Attrs *at, const Type *rt) {
  DType odt = rt->tensor.dtype;
  bool ta = ir_attr_bool(at, "transpose_a", false), tb = ir_attr_bool(at, "transpose_b", true);
  int64_t b = rt->tensor.shape[0];
  x = batch_to(f, lin_cast(f, x, odt), b), y = batch_to(f, lin_cast(f, y, odt), b);
  DType acc = ir_dtype_is_float(odt) ? DT_FLOAT64 : odt;
  Val *out = lin_fill(f, mty_retype(f, rt, acc), 0);
  const char *xn = fn_use(f, x), *yn = fn_use(f, y);
  Val *v = fn_def(f, out->type, NULL);
  fn_out(f,
         "linalg.batch_matmul indexing_maps = [affine_map<(b, m, n, k) -> (b, %s)>, "
         "affine_map<(b, m, n, k) -> (b, %s)>, affine_map<(b, m, n, k) -> (b, m, n)>] ins(%s, %s "
         ": %s, %s) outs(%s : %s) -> %s\n",
         ta ? "k, m" : "m, k", tb ? "n, k" : "k, n", xn, yn, x->ty, y->ty, out->name, out->ty,
         v->ty);
  return acc != odt ? lin_finish(f, v, LIN_TRUNC, odt, 0) : v;
}

/* ------------------------------------------------------- conv and pools */

/* A rank-0 constant v of dtype dt. */
static Val *lin_scalar(Fn *f, DType dt, double v) {
  int64_t unit[1] = {1};
  return emit_fill(f, mty_tensor(f, dt, 0, unit), v);
}

/* nn.conv2d (NCHW data, OIHW weights): per group, the input zero-padded
 * (its zeros multiply the weights, as relayc's do: 0 * NaN is NaN) and
 * linalg.conv_2d_nchw_fchw with the strides and dilations, float32 into
 * a float64 accumulator rounded once (int32 wraps); joined along C. */
static Val *lin_conv2d(Fn *f, Val *x, Val *wt, const Attrs *at, const Type *rt) {
  DType dt = rt->tensor.dtype, acc = ir_dtype_is_float(dt) ? DT_FLOAT64 : dt;
  x = lin_cast(f, x, dt), wt = lin_cast(f, wt, dt);
  Win w = attr_window(at, mty_shape(wt) + 2);
  int64_t g = ir_attr_int(at, "groups", 1), o[2] = {rt->tensor.shape[2], rt->tensor.shape[3]};
  int64_t ic = mty_shape(x)[1], oc = mty_shape(wt)[0];
  Val **parts = ARENA_ARRAY(f->t->a, Val *, g + 1);
  x = lin_window_input(f, x, &w, o, lin_scalar(f, dt, 0));
  for (int64_t i = 0; i < g; i++) {
    int64_t xs[4] = {0, i * (ic / g), 0, 0},
            xz[4] = {mty_shape(x)[0], ic / g, mty_shape(x)[2], mty_shape(x)[3]};
    int64_t ws[4] = {i * (oc / g), 0, 0, 0},
            wz[4] = {oc / g, mty_shape(wt)[1], mty_shape(wt)[2], mty_shape(wt)[3]};
    Val *xg = lin_slice(f, x, xs, xz, NULL), *wg = lin_slice(f, wt, ws, wz, NULL);
    int64_t rs[4] = {mty_shape(x)[0], oc / g, o[0], o[1]};
    Val *out = lin_fill(f, mty_tensor(f, acc, 4, rs), 0);
    const char *xn = fn_use(f, xg), *wn = fn_use(f, wg);
    Val *v = fn_def(f, out->type, NULL);
    fn_out(f, "linalg.conv_2d_nchw_fchw %s ins(%s, %s : %s, %s) outs(%s : %s) -> %s\n",
           attr_linalg_window(f, &w), xn, wn, xg->ty, wg->ty, out->name, out->ty, v->ty);
    parts[i] = acc != dt ? lin_finish(f, v, LIN_TRUNC, dt, 0) : v;
  }
  return lin_concat(f, (int)g, parts, 1, rt);
}

/* nn.max_pool2d: the input padded with the lowest value (-inf, INT_MIN),
 * linalg.pooling_nchw_max (NaN wins: arith.maximumf). */
static Val *lin_max_pool(Fn *f, Val *x, const Attrs *at, const Type *rt) {
  const int64_t *ps;
  int64_t k[2] = {1, 1}, o[2] = {rt->tensor.shape[2], rt->tensor.shape[3]};
  if (attr_ints(at, "pool_size", &ps) == 2)
    k[0] = ps[0], k[1] = ps[1];
  Win w = attr_window(at, k);
  DType dt = mty_dtype(x);
  double lowest = ir_dtype_is_float(dt) ? -INFINITY : -2147483648.0;
  x = lin_window_input(f, x, &w, o, lin_scalar(f, dt, lowest));
  Val *kw = lin_empty(f, mty_tensor(f, dt, 2, k)), *out = lin_fill(f, rt, lowest);
  const char *xn = fn_use(f, x);
  Val *v = fn_def(f, rt, NULL);
  fn_out(f, "linalg.pooling_nchw_max %s ins(%s, %s : %s, %s) outs(%s : %s) -> %s\n",
         attr_linalg_window(f, &w), xn, kw->name, x->ty, kw->ty, out->name, out->ty, v->ty);
  return v;
}

/* -------------------------------------------------------------------- nn */

/* x op y broadcasting, in x's dtype (a step of softmax). */
static Val *lin_bin(Fn *f, OpId op, Val *x, Val *y) {
  Val *xs[2] = {x, y};
  LinEw e = {op, mty_dtype(x), mty_dtype(x), NULL, 0};
  return lin_elementwise(f, y ? 2 : 1, xs, x->type, &e);
}

/* x reduced over axis by linalg.reduce, kept as a unit dim. */
static Val *lin_reduce_keep(Fn *f, Val *r, const Val *x, int axis) {
  int64_t shape[IR_MAX_RANK];
  for (int i = 0; i < mty_rank(x); i++)
    shape[i] = i == axis ? 1 : mty_shape(x)[i];
  return lin_reshape(f, r, mty_rank(x), shape);
}

/* nn.softmax and nn.log_softmax along the axis, relayc's steps: m = max,
 * d = x - m, s = the sum of exp(d) in double rounded once; softmax
 * exp(d) * (1 / s), log_softmax d - log(s).  (linalg.softmax would say it
 * in one op, but no pass of MLIR 22 lowers it: only the transform
 * dialect's decompose_interface does.) */
static Val *lin_softmax(Fn *f, OpId op, Val *x, const Attrs *at) {
  int axis = attr_axis(ir_attr_int(at, "axis", -1), mty_rank(x));
  uint32_t mask = 1u << axis;
  DType dt = mty_dtype(x);
  Val *m =
      lin_reduce_keep(f, emit_linalg_reduce(f, x, mask, dt, -INFINITY, "arith.maximumf"), x, axis);
  Val *d = lin_bin(f, OP_SUBTRACT, x, m), *e = lin_bin(f, OP_EXP, d, NULL);
  Val *s =
      lin_finish(f, emit_linalg_reduce(f, e, mask, DT_FLOAT64, 0, "arith.addf"), LIN_TRUNC, dt, 0);
  s = lin_reduce_keep(f, s, x, axis);
  if (op == OP_LOG_SOFTMAX)
    return lin_bin(f, OP_SUBTRACT, d, lin_bin(f, OP_LOG, s, NULL));
  int64_t unit[1] = {1};
  Val *one = emit_fill(f, mty_tensor(f, dt, 0, unit), 1);
  Val *xs[2] = {one, s};
  LinEw div = {OP_DIVIDE, dt, dt, NULL, 0};
  return lin_bin(f, OP_MULTIPLY, e, lin_elementwise(f, 2, xs, s->type, &div));
}

/* nn.bias_add(x, b): b [c] viewed as [c, 1, ..] against x's dims from
 * axis on, added with broadcasting. */
static Val *lin_bias_add(Fn *f, Val *x, Val *b, const Attrs *at, const Type *rt) {
  int r = mty_rank(x), axis = attr_axis(ir_attr_int(at, "axis", 1), r);
  int64_t shape[IR_MAX_RANK];
  for (int i = 0; i < r - axis; i++)
    shape[i] = i ? 1 : mty_shape(b)[0];
  Val *xs[2] = {x, lin_reshape(f, b, r - axis, shape)};
  LinEw e = {OP_ADD, mty_dtype(x), mty_dtype(x), NULL, 0};
  return lin_elementwise(f, 2, xs, rt, &e);
}

Val *lin_emit_other(Fn *f, const Expr *e, Val **a, const Type *rt) {
  OpId op = e->call.op;
  const Attrs *at = &e->call.attrs;
  switch (op) {
  case OP_SUM:
  case OP_MEAN:
  case OP_MAX:
  case OP_MIN:
  case OP_PROD: return lin_reduction(f, op, a[0], attr_reduce_axes(at, mty_rank(a[0])), rt);
  case OP_GLOBAL_AVG_POOL2D: return lin_reduction(f, OP_MEAN, a[0], 0xc, rt); /* H and W */
  case OP_CONV2D: return emit_conv2d_layouts(f, a[0], a[1], at, rt, lin_conv2d, lin_transpose);
  case OP_MAX_POOL2D: return lin_max_pool(f, a[0], at, rt);
  case OP_RESHAPE:
  case OP_EXPAND_DIMS:
  case OP_SQUEEZE: return lin_reshape(f, a[0], rt->tensor.rank, rt->tensor.shape);
  case OP_TRANSPOSE: {
    const int64_t *v;
    int r = mty_rank(a[0]), perm[IR_MAX_RANK], n = attr_ints(at, "axes", &v);
    for (int i = 0; i < r; i++)
      perm[i] = n >= 0 ? attr_axis(v[i], r) : r - 1 - i;
    return lin_transpose(f, a[0], perm);
  }
  case OP_BROADCAST_TO: return lin_expand(f, a[0], rt);
  case OP_CONCATENATE:
    return lin_concat(f, a[0]->n, a[0]->f,
                      attr_axis(ir_attr_int(at, "axis", 0), mty_rank(a[0]->f[0])), rt);
  case OP_ZEROS:
  case OP_ZEROS_LIKE: return emit_fill(f, rt, 0);
  case OP_ONES:
  case OP_ONES_LIKE: return emit_fill(f, rt, 1);
  case OP_FULL: return lin_expand(f, lin_cast(f, a[0], rt->tensor.dtype), rt);
  case OP_DENSE: return lin_dense(f, a[0], a[1], rt);
  case OP_BATCH_MATMUL: return lin_batch_matmul(f, a[0], a[1], at, rt);
  case OP_SOFTMAX:
  case OP_LOG_SOFTMAX: return lin_softmax(f, op, a[0], at);
  case OP_BIAS_ADD: return lin_bias_add(f, a[0], a[1], at, rt);
  default: return lin_emit_index(f, e, a, rt);
  }
}
