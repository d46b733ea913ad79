/*
 * emit_index.c - the operators of the index family (compiler/ops's
 * index.c): strided_slice, take, tile and reverse.
 */
#include <assert.h>
#include <stdint.h>
#include <string.h>

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

Val *emit_index(Fn *f, OpId op, Val **a, const Attrs *at, const Type *rt) {
  Val *x = a[0];
  switch (op) {
  case OP_STRIDED_SLICE: return emit_strided_slice(f, x, at, rt);
  case OP_TAKE: return emit_take(f, x, a[1], at, rt);
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
