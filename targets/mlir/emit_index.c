/*
 * emit_index.c - the operators of the index family (compiler/ops's
 * index.c): strided_slice, take, tile and reverse.
 */
#include <assert.h>
#include <stdint.h>
#include <string.h>

#include "compiler/ops/resize.h"
#include "translate_int.h"

/* topi's canonical begin index of a strided slice (shape.c's canon_index). */
static int64_t canon_begin(int64_t b, int64_t dim, int64_t stride) {
  int64_t lo = stride < 0 ? -1 : 0, hi = stride < 0 ? dim - 1 : dim;
  if (b < 0)
    b += dim;
  return b < lo ? lo : b > hi ? hi : b;
}

/* strided_slice: begin and step per axis, resolved as shape.c's
 * slice_plan does (the sizes are the result type's). */
void attr_slice_begin_step(const Attrs *at, int rank, const int64_t *dims, int64_t *begin,
                           int64_t *step) {
  const int64_t *b, *st = NULL, *ax;
  int nb = attr_ints(at, "begin", &b), nst = attr_ints(at, "strides", &st);
  int nax = attr_ints(at, "axes", &ax);
  bool size_mode = strcmp(ir_attr_str(at, "slice_mode", "end"), "size") == 0;
  for (int i = 0; i < rank; i++)
    begin[i] = 0, step[i] = 1;
  for (int k = 0; k < (nax >= 0 ? nax : rank); k++) {
    int a = nax >= 0 ? attr_axis(ax[k], rank) : k;
    int64_t s = size_mode ? 1 : nax >= 0 ? (nst >= 0 ? st[k] : 1) : (k < nst ? st[k] : 1);
    int64_t bv = k < nb ? b[k] : s > 0 ? 0 : INT64_MAX;
    begin[a] = canon_begin(bv, dims[a], s);
    step[a] = s;
  }
}

/* strided_slice: negative strides become a reverse of their axis; then
 * tosa.slice when every stride is 1, else tensor.extract_slice (TOSA has
 * no strided slice). */
static Val *emit_strided_slice(Fn *f, Val *x, const Attrs *at, const Type *rt) {
  int r = mty_rank(x);
  int64_t begin[IR_MAX_RANK], step[IR_MAX_RANK];
  attr_slice_begin_step(at, r, mty_shape(x), begin, step);
  bool unit = true;
  for (int i = 0; i < r; i++) {
    if (step[i] < 0 && rt->tensor.shape[i] > 1) {
      x = emit_reverse(f, x, i);
      begin[i] = mty_shape(x)[i] - 1 - begin[i];
      step[i] = -step[i];
    }
    if (rt->tensor.shape[i] == 1)
      step[i] = 1; /* one element: the stride does not matter */
    unit &= step[i] == 1;
  }
  if (unit)
    return emit_slice(f, x, begin, rt->tensor.shape);
  const char *xn = fn_use(f, x);
  Val *v = fn_def(f, rt, NULL);
  fn_out(f, "tensor.extract_slice %s[", xn);
  for (int i = 0; i < r; i++)
    fn_out(f, "%s%lld", i ? ", " : "", (long long)begin[i]);
  fn_out(f, "] [");
  for (int i = 0; i < r; i++)
    fn_out(f, "%s%lld", i ? ", " : "", (long long)rt->tensor.shape[i]);
  fn_out(f, "] [");
  for (int i = 0; i < r; i++)
    fn_out(f, "%s%lld", i ? ", " : "", (long long)step[i]);
  fn_out(f, "] : %s to %s\n", x->ty, v->ty);
  return v;
}

/* take: tosa.gather over data viewed as [N, K, C] (N the dims before the
 * axis, K the axis, C the dims after it; the flattened data is [1, n, 1])
 * with the indices made valid first, as relayc's modes define them: clip
 * to [0, K), or wrap modulo K. */
static Val *emit_take(Fn *f, Val *x, Val *ix, const Attrs *at, const Type *rt) {
  const Attr *ax = ir_attr_get(at, "axis");
  bool wrap = strcmp(ir_attr_str(at, "mode", "clip"), "wrap") == 0;
  int r = mty_rank(x);
  int64_t n = 1, k = 1, c = 1;
  if (!ax || ax->kind == AV_NONE) {
    k = ir_type_numel(x->type);
  } else {
    int a = attr_axis(ax->i, r);
    for (int i = 0; i < r; i++)
      *(i < a ? &n : i == a ? &k : &c) *= mty_shape(x)[i];
  }
  DType dt = mty_dtype(x);
  if (dt == DT_BOOL) /* TOSA gathers numbers only */
    x = emit_cast(f, x, DT_INT32);
  int64_t vs[3] = {n, k, c};
  Val *values = emit_reshape(f, x, 3, vs);
  if (wrap) {
    Val *q = emit_bin(f, "intdiv", ix, emit_scalar_like(f, ix, (double)k));
    Val *m = emit_bin(f, "sub", ix, emit_mul(f, q, emit_scalar_like(f, q, (double)k)));
    ix = emit_select(f, emit_cmp(f, "greater", emit_scalar_like(f, m, 0), m),
                     emit_bin(f, "add", m, emit_scalar_like(f, m, (double)k)), m);
  } else {
    ix = emit_clamp_int(f, ix, 0, k - 1);
  }
  int64_t w = ir_type_numel(ix->type), is[2] = {n, w}, os[3] = {n, w, c};
  Val *idx = emit_expand(f, emit_reshape(f, ix, 2, (int64_t[]){1, w}), 2, is);
  Val *g = emit_tosa2(f, "gather", values, idx, mty_tensor(f, mty_dtype(values), 3, os));
  g = emit_reshape(f, g, rt->tensor.rank, rt->tensor.shape);
  return emit_cast(f, g, dt);
}

/* The elements of x (flattened) at the int32 offsets off, shaped as rt:
 * one tosa.gather from x as [1, numel, 1]. */
static Val *gather_flat(Fn *f, Val *x, Val *off, const Type *rt) {
  int64_t w = ir_type_numel(rt);
  int64_t vs[3] = {1, ir_type_numel(x->type), 1}, is[2] = {1, w}, os[3] = {1, w, 1};
  Val *values = emit_reshape(f, x, 3, vs), *idx = emit_reshape(f, off, 2, is);
  Val *g = emit_tosa2(f, "gather", values, idx, mty_tensor(f, mty_dtype(values), 3, os));
  return emit_reshape(f, g, rt->tensor.rank, rt->tensor.shape);
}

/* gather: R[c] = x[c with c[axis] = I[c]] as one tosa.gather from x
 * flattened to [1, numel, 1] at flat offsets: a constant holding each
 * result element's offset over the other axes, plus the index made valid
 * as relayc's kernel does (a negative one counted from the end once, then
 * clamped to [0, n)) times the axis' stride; bool data through int32. */
static Val *emit_gather(Fn *f, Val *x, Val *ix, const Attrs *at, const Type *rt) {
  int r = mty_rank(x), axis = attr_axis(ir_attr_int(at, "axis", 0), r);
  const int64_t *xs = mty_shape(x), *ys = rt->tensor.shape;
  int64_t ds[IR_MAX_RANK], c[IR_MAX_RANK] = {0}, n = xs[axis], w = ir_type_numel(rt);
  for (int d = r - 1; d >= 0; d--)
    ds[d] = d == r - 1 ? 1 : ds[d + 1] * xs[d + 1];
  Tensor *base = ir_tensor_new(f->t->a, DT_INT32, r, ys);
  for (int64_t i = 0; i < w; i++) {
    int64_t off = 0;
    for (int d = 0; d < r; d++)
      off += d == axis ? 0 : c[d] * ds[d];
    ir_tensor_set_i64(base, i, off);
    for (int d = r - 1; d >= 0 && ++c[d] == ys[d]; d--)
      c[d] = 0;
  }
  Val *neg = emit_cmp(f, "greater", emit_scalar_like(f, ix, 0), ix);
  ix = emit_select(f, neg, emit_bin(f, "add", ix, emit_scalar_like(f, ix, (double)n)), ix);
  ix = emit_clamp_int(f, ix, 0, n - 1);
  if (ds[axis] != 1)
    ix = emit_mul(f, ix, emit_scalar_like(f, ix, (double)ds[axis]));
  DType dt = mty_dtype(x);
  if (dt == DT_BOOL) /* TOSA gathers numbers only */
    x = emit_cast(f, x, DT_INT32);
  return emit_cast(f, gather_flat(f, x, emit_bin(f, "add", emit_const(f, base), ix), rt), dt);
}

/* one_hot: where the index (reshaped with a 1 at axis) equals a constant
 * 0 .. depth - 1 along axis, on_value, else off_value, both cast to the
 * result's dtype as relayc's kernel converts them. */
static Val *emit_one_hot(Fn *f, Val **a, const Attrs *at, const Type *rt) {
  int r = rt->tensor.rank, axis = attr_axis(ir_attr_int(at, "axis", -1), r);
  int64_t is[IR_MAX_RANK], ks[IR_MAX_RANK];
  const int64_t *ys = rt->tensor.shape;
  for (int d = 0, j = 0; d < r; d++) {
    is[d] = d == axis ? 1 : mty_shape(a[0])[j++];
    ks[d] = 1;
  }
  ks[axis] = ys[axis];
  Tensor *iota = ir_tensor_new(f->t->a, DT_INT32, r, ks);
  for (int64_t i = 0; i < ys[axis]; i++)
    ir_tensor_set_i64(iota, i, i);
  Val *ix = emit_reshape(f, emit_cast(f, a[0], DT_INT32), r, is);
  Val *eq = emit_expand(f, emit_cmp(f, "equal", ix, emit_const(f, iota)), r, ys);
  DType dt = rt->tensor.dtype;
  return emit_select(f, eq, emit_cast(f, a[1], dt), emit_cast(f, a[2], dt));
}

/* a * wa + b * wb, each step in float32 (arith: no folding of a * 0). */
static Val *lerp2(Fn *f, Val *a, Val *wa, Val *b, Val *wb) {
  Val *pa[2] = {a, wa}, *pb[2] = {b, wb};
  Val *s[2] = {emit_arith(f, "arith.mulf", 2, pa), emit_arith(f, "arith.mulf", 2, pb)};
  return emit_arith(f, "arith.addf", 2, s);
}

/* nn.upsampling and image.resize2d (NCHW) with image.c's own taps
 * (op_resize_tap, computed here for every output row and column): the
 * data read as float32, nearest one gather of the pixels at constant
 * offsets; linear four gathers (the corners) weighted as k_resize does,
 * each step in float32 (arith.mulf and arith.addf: a * (1 - t) + b * t
 * along W, then along H); the value cast to the result's dtype. */
static Val *emit_resize(Fn *f, OpId op, Val *x, const Attrs *at, const Type *rt) {
  const int64_t *xs = mty_shape(x), *ys = rt->tensor.shape;
  int64_t h = xs[2], w = xs[3], n = ir_type_numel(rt);
  OpResizeTap ty, tx;
  Type *ft = mty_retype(f, rt, DT_FLOAT32);
  Tensor *off[4], *wt[4];
  for (int k = 0; k < 4; k++) {
    off[k] = ir_tensor_new(f->t->a, DT_INT32, 4, ys);
    wt[k] = ir_tensor_new(f->t->a, DT_FLOAT32, 4, ys);
  }
  bool linear = false;
  for (int64_t i = 0; i < n; i++) {
    int64_t xc = i % ys[3], yc = i / ys[3] % ys[2], plane = i / (ys[2] * ys[3]) * h * w;
    op_resize_tap(op, at, h, ys[2], yc, &ty);
    op_resize_tap(op, at, w, ys[3], xc, &tx);
    linear = ty.linear;
    for (int k = 0; k < 4; k++)
      ir_tensor_set_i64(off[k], i, plane + ty.i[k >> 1] * w + tx.i[k & 1]);
    float t = tx.t, u = ty.t;
    float wv[4] = {1.0f - t, t, 1.0f - u, u}; /* W's weights, then H's */
    for (int k = 0; k < 4; k++)
      ir_tensor_set_f64(wt[k], i, wv[k]);
  }
  x = emit_cast(f, x, DT_FLOAT32);
  Val *p[4], *r;
  for (int k = 0; k < (linear ? 4 : 1); k++)
    p[k] = gather_flat(f, x, emit_const(f, off[k]), ft);
  if (!linear) {
    r = p[0];
  } else {
    Val *c[4];
    for (int k = 0; k < 4; k++)
      c[k] = emit_const(f, wt[k]);
    Val *top = lerp2(f, p[0], c[0], p[1], c[1]), *bottom = lerp2(f, p[2], c[0], p[3], c[1]);
    r = lerp2(f, top, c[2], bottom, c[3]);
  }
  return emit_cast(f, r, rt->tensor.dtype);
}

Val *emit_index(Fn *f, OpId op, Val **a, const Attrs *at, const Type *rt) {
  Val *x = a[0];
  switch (op) {
  case OP_STRIDED_SLICE: return emit_strided_slice(f, x, at, rt);
  case OP_TAKE: return emit_take(f, x, a[1], at, rt);
  case OP_GATHER: return emit_gather(f, x, a[1], at, rt);
  case OP_ONE_HOT: return emit_one_hot(f, a, at, rt);
  case OP_UPSAMPLING:
  case OP_RESIZE2D: return emit_resize(f, op, x, at, rt);
  case OP_TILE: {
    int r = rt->tensor.rank;
    x = emit_align(f, x, r);
    int64_t mult[IR_MAX_RANK];
    bool one = true;
    for (int i = 0; i < r; i++)
      one &= (mult[i] = rt->tensor.shape[i] / mty_shape(x)[i]) == 1;
    return one ? x : emit_tosa2(f, "tile", x, emit_shape_value(f, r, mult), rt);
  }
  case OP_REVERSE: return emit_reverse(f, x, attr_axis(ir_attr_int(at, "axis", 0), mty_rank(x)));
  default: assert(!"not an index operator"); return x;
  }
}
