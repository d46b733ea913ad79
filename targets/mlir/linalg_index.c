/*
 * linalg_index.c - the linalg road's index, join and pad operators:
 * strided_slice (tensor.extract_slice with its strides), reverse and tile
 * (a linalg.generic whose indexing map reads the input at N - 1 - d and at
 * d mod n), split (extract_slice per piece), stack (expand_shape and
 * tensor.concat) and nn.pad in constant mode (tensor.pad, negative pads
 * cropping with extract_slice first).
 */
#include <assert.h>
#include <stdio.h>
#include <string.h>

#include "compiler/ops/op.h"
#include "linalg_int.h"

/* x read at the point of the result (static type rt) given per dim of x
 * by exprs[i], an affine expression of the result's d0, d1, ...: a
 * linalg.generic that yields what it reads. */
static Val *lin_gather(Fn *f, Val *x, const Type *rt, char *const *exprs) {
  int r = rt->tensor.rank;
  const char *xn = fn_use(f, x), *el = mty_elem(mty_dtype(x));
  Val *init = lin_empty(f, rt);
  int a = f->t->next++, o = f->t->next++;
  Val *v = fn_def(f, rt, NULL);
  fn_out(f, "linalg.generic {indexing_maps = [affine_map<(");
  for (int k = 0; k < 2; k++) {
    for (int i = 0; i < r; i++)
      fn_out(f, "%sd%d", i ? ", " : "", i);
    fn_out(f, ") -> (");
    for (int i = 0; i < (k ? r : mty_rank(x)); i++)
      if (k)
        fn_out(f, "%sd%d", i ? ", " : "", i);
      else
        fn_out(f, "%s%s", i ? ", " : "", exprs[i]);
    fn_out(f, ")>%s", k ? "" : ", affine_map<(");
  }
  fn_out(f, "], iterator_types = [");
  for (int i = 0; i < r; i++)
    fn_out(f, "%s\"parallel\"", i ? ", " : "");
  fn_out(f, "]} ins(%s : %s) outs(%s : %s) {\n", xn, x->ty, init->name, init->ty);
  fn_line(f);
  fn_out(f, "    ^bb0(%%%d: %s, %%%d: %s):\n", a, el, o, el);
  fn_line(f);
  fn_out(f, "      linalg.yield %%%d : %s\n", a, el);
  fn_line(f);
  fn_out(f, "    } -> %s\n", v->ty);
  return v;
}

/* x reversed along axis. */
static Val *lin_reverse(Fn *f, Val *x, int axis) {
  if (mty_shape(x)[axis] == 1)
    return x;
  char *e[IR_MAX_RANK];
  for (int i = 0; i < mty_rank(x); i++)
    e[i] = i == axis ? arena_printf(f->t->a, "%lld - d%d", (long long)mty_shape(x)[i] - 1, i)
                     : arena_printf(f->t->a, "d%d", i);
  return lin_gather(f, x, x->type, e);
}

/* tile: x aligned to the result's rank, read at d mod its dim. */
static Val *lin_tile(Fn *f, Val *x, const Type *rt) {
  int r = rt->tensor.rank, rx = mty_rank(x);
  int64_t shape[IR_MAX_RANK];
  for (int i = 0; i < r; i++)
    shape[i] = i < r - rx ? 1 : mty_shape(x)[i - (r - rx)];
  x = lin_reshape(f, x, r, shape);
  if (mty_same_shape(r, shape, r, rt->tensor.shape))
    return x;
  char *e[IR_MAX_RANK];
  for (int i = 0; i < r; i++)
    e[i] = shape[i] == 1 ? arena_printf(f->t->a, "0")
           : shape[i] == rt->tensor.shape[i]
               ? arena_printf(f->t->a, "d%d", i)
               : arena_printf(f->t->a, "d%d mod %lld", i, (long long)shape[i]);
  return lin_gather(f, x, rt, e);
}

/* The block of x at offsets start with the given sizes and strides:
 * tensor.extract_slice (x itself when that is all of it). */
Val *lin_slice(Fn *f, Val *x, const int64_t *start, const int64_t *size, const int64_t *step) {
  int r = mty_rank(x);
  bool all = mty_same_shape(r, mty_shape(x), r, size);
  for (int i = 0; i < r; i++)
    all &= start[i] == 0;
  if (all)
    return x;
  const char *xn = fn_use(f, x);
  Val *v = fn_def(f, mty_tensor(f, mty_dtype(x), r, size), NULL);
  const int64_t *lists[3] = {start, size, step};
  fn_out(f, "tensor.extract_slice %s", xn);
  for (int k = 0; k < 3; k++) {
    fn_out(f, "[");
    for (int i = 0; i < r; i++)
      fn_out(f, "%s%lld", i ? ", " : "", (long long)(lists[k] ? lists[k][i] : 1));
    fn_out(f, "]%s", k < 2 ? " " : "");
  }
  fn_out(f, " : %s to %s\n", x->ty, v->ty);
  return v;
}

/* strided_slice: negative strides reverse their axis first. */
static Val *lin_strided_slice(Fn *f, Val *x, const Attrs *at, const Type *rt) {
  int r = mty_rank(x);
  int64_t begin[IR_MAX_RANK], step[IR_MAX_RANK];
  attr_slice_begin_step(at, r, mty_shape(x), begin, step);
  for (int i = 0; i < r; i++) {
    if (step[i] < 0 && rt->tensor.shape[i] > 1) {
      x = lin_reverse(f, x, i);
      begin[i] = mty_shape(x)[i] - 1 - begin[i];
      step[i] = -step[i];
    }
    if (rt->tensor.shape[i] == 1)
      step[i] = 1; /* one element: the stride does not matter */
  }
  return lin_slice(f, x, begin, rt->tensor.shape, step);
}

/* split: one extract_slice per piece along the axis. */
static Val *lin_split(Fn *f, Val *x, const Attrs *at, const Type *rt) {
  int axis = attr_axis(ir_attr_int(at, "axis", 0), mty_rank(x));
  Val *v = ARENA_NEW(f->t->a, Val);
  v->n = rt->tuple.n;
  v->f = ARENA_ARRAY(f->t->a, Val *, v->n + 1);
  int64_t start[IR_MAX_RANK] = {0};
  for (int i = 0; i < v->n; i++) {
    const Type *p = rt->tuple.fields[i];
    v->f[i] = lin_slice(f, x, start, p->tensor.shape, NULL);
    start[axis] += p->tensor.shape[axis];
  }
  return v;
}

/* stack: each field with a unit dim at the axis, then tensor.concat. */
static Val *lin_stack(Fn *f, Val *t, const Attrs *at, const Type *rt) {
  int r = rt->tensor.rank, axis = (int)ir_attr_int(at, "axis", 0);
  axis = axis < 0 ? axis + r : axis;
  int64_t shape[IR_MAX_RANK];
  for (int i = 0; i < r; i++)
    shape[i] = i == axis ? 1 : rt->tensor.shape[i];
  Val **xs = ARENA_ARRAY(f->t->a, Val *, t->n + 1);
  for (int i = 0; i < t->n; i++)
    xs[i] = lin_reshape(f, t->f[i], r, shape);
  return lin_concat(f, t->n, xs, axis, rt);
}

Val *lin_pad_value(Fn *f, Val *x, const int64_t *lo, const int64_t *hi, Val *value) {
  int r = mty_rank(x);
  int64_t shape[IR_MAX_RANK];
  for (int i = 0; i < r; i++)
    shape[i] = lo[i] + mty_shape(x)[i] + hi[i];
  value = lin_cast(f, value, mty_dtype(x));
  const char *vn = fn_use(f, value), *xn = fn_use(f, x), *el = mty_elem(mty_dtype(x));
  Val *s = fn_def(f, NULL, el);
  fn_out(f, "tensor.extract %s[] : %s\n", vn, value->ty);
  Val *v = fn_def(f, mty_tensor(f, mty_dtype(x), r, shape), NULL);
  fn_out(f, "tensor.pad %s low[", xn);
  for (int i = 0; i < r; i++)
    fn_out(f, "%s%lld", i ? ", " : "", (long long)lo[i]);
  fn_out(f, "] high[");
  for (int i = 0; i < r; i++)
    fn_out(f, "%s%lld", i ? ", " : "", (long long)hi[i]);
  fn_out(f, "] {\n");
  fn_line(f);
  fn_out(f, "    ^bb0(");
  for (int i = 0; i < r; i++)
    fn_out(f, "%s%%%d: index", i ? ", " : "", f->t->next++);
  fn_out(f, "):\n");
  fn_line(f);
  fn_out(f, "      tensor.yield %s : %s\n", s->name, el);
  fn_line(f);
  fn_out(f, "    } : %s to %s\n", x->ty, v->ty);
  return v;
}

/* nn.pad, constant mode: negative pads crop first (extract_slice), then
 * tensor.pad yielding the value converted to x's dtype (as cast does). */
static Val *lin_pad(Fn *f, Val *x, Val *value, const Attrs *at) {
  const Attr *pw = ir_attr_get(at, "pad_width");
  int r = mty_rank(x);
  int64_t lo[IR_MAX_RANK] = {0}, hi[IR_MAX_RANK] = {0}, start[IR_MAX_RANK], size[IR_MAX_RANK];
  bool none = true;
  for (int i = 0; pw && pw->kind == AV_PAIRS && i < r; i++)
    lo[i] = pw->ints[2 * i], hi[i] = pw->ints[2 * i + 1];
  for (int i = 0; i < r; i++) {
    start[i] = lo[i] < 0 ? -lo[i] : 0;
    size[i] = mty_shape(x)[i] - start[i] - (hi[i] < 0 ? -hi[i] : 0);
    lo[i] = lo[i] > 0 ? lo[i] : 0;
    hi[i] = hi[i] > 0 ? hi[i] : 0;
    none &= !lo[i] && !hi[i];
  }
  x = lin_slice(f, x, start, size, NULL);
  return none ? x : lin_pad_value(f, x, lo, hi, value);
}

/* NCHW x padded (with the rank-0 value) and cropped to what output
 * extents o of window w read: Relay's written padding, trimmed where the
 * output does not reach it, or ceil mode's overhang. */
Val *lin_window_input(Fn *f, Val *x, const Win *w, const int64_t *o, Val *value) {
  int64_t lo[4] = {0, 0, w->lo[0], w->lo[1]}, hi[4] = {0}, start[4] = {0};
  int64_t size[4] = {mty_shape(x)[0], mty_shape(x)[1], attr_win_need(w, 0, o[0]),
                     attr_win_need(w, 1, o[1])};
  for (int i = 0; i < 2; i++) {
    int64_t h = size[2 + i] - w->lo[i] - mty_shape(x)[2 + i];
    hi[2 + i] = h > 0 ? h : 0;
  }
  if (lo[2] || lo[3] || hi[2] || hi[3])
    x = lin_pad_value(f, x, lo, hi, value);
  return lin_slice(f, x, start, size, NULL);
}

Val *lin_emit_index(Fn *f, const Expr *e, Val **a, const Type *rt) {
  const Attrs *at = &e->call.attrs;
  switch (e->call.op) {
  case OP_STRIDED_SLICE: return lin_strided_slice(f, a[0], at, rt);
  case OP_REVERSE:
    return lin_reverse(f, a[0], attr_axis(ir_attr_int(at, "axis", 0), mty_rank(a[0])));
  case OP_TILE: return lin_tile(f, a[0], rt);
  case OP_SPLIT: return lin_split(f, a[0], at, rt);
  case OP_STACK: return lin_stack(f, a[0], at, rt);
  case OP_PAD: return lin_pad(f, a[0], a[1], at);
  default: assert(!"not an index operator on the road"); return a[0];
  }
}
