/*
 * emit.c - what every emitter builds on (translate_int.h): tensor types,
 * the SSA values of the function being emitted (names, lines, captures
 * into isolated regions, the memo of what was translated), constants, and
 * the generic forms of TOSA, arith and linalg operations.
 *
 * Regions: tosa.cond_if must be isolated from above, so while a branch is
 * emitted every value from outside it becomes a block argument (a
 * capture; fn_use makes them).  A value is usable at the region depth
 * where it was defined and, through captures, in every region nested
 * inside.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "translate_int.h"

/* ---------------------------------------------------------------- types */

/* The tensor type dt[shape]. */
Type *mty_tensor(Fn *f, DType dt, int rank, const int64_t *shape) {
  return ir_tensor_type(f->t->a, dt, rank, shape);
}

/* t with another dtype. */
Type *mty_retype(Fn *f, const Type *t, DType dt) {
  return mty_tensor(f, dt, t->tensor.rank, t->tensor.shape);
}

/* Tensor type t as MLIR text, in the translation's arena. */
char *mty_text(Fn *f, const Type *t) {
  Buf b = {0};
  buf_tensor_type(&b, t->tensor.dtype, t->tensor.rank, t->tensor.shape);
  char *s = arena_strdup(f->t->a, b.s);
  free(b.s);
  return s;
}

/* Tensor type t as MLIR text with the dims in mask `?`. */
char *mty_text_dyn(Fn *f, const Type *t, uint32_t mask) {
  Buf b = {0};
  buf_dyn_type(&b, t->tensor.dtype, t->tensor.rank, t->tensor.shape, mask);
  char *s = arena_strdup(f->t->a, b.s);
  free(b.s);
  return s;
}

bool mty_has_any(const Type *t) {
  if (t->kind == TY_TUPLE) {
    for (int i = 0; i < t->tuple.n; i++)
      if (mty_has_any(t->tuple.fields[i]))
        return true;
    return false;
  }
  return t->kind == TY_TENSOR && ir_tensor_has_any(t);
}

uint32_t mty_any_mask(const Tr *t, const Type *ty) {
  uint32_t mask = 0;
  if (t->static_only || !ty || ty->kind != TY_TENSOR)
    return 0;
  for (int i = 0; i < ty->tensor.rank; i++)
    if (ir_dim_is_any(ty->tensor.shape[i]))
      mask |= 1u << i;
  return mask;
}

/* ------------------------------------------------------------- values */

/* A new value of tensor type t (shape values: t NULL, ty given). */
Val *fn_fresh(Fn *f, const Type *t, const char *ty, const char *hint) {
  Val *v = ARENA_NEW(f->t->a, Val);
  v->n = -1;
  v->id = f->t->next++;
  v->hint = hint;
  v->name =
      hint ? arena_printf(f->t->a, "%%%s_%d", hint, v->id) : arena_printf(f->t->a, "%%%d", v->id);
  v->type = t;
  v->ty = ty ? arena_strdup(f->t->a, ty) : mty_text(f, t);
  v->level = f->level;
  return v;
}

Buf *fn_body(Fn *f) {
  Region *r = f->reg[f->level];
  return &r->body[r->branch];
}

/* Start a line of the current body. */
void fn_line(Fn *f) {
  buf_put(fn_body(f), "%*s", 2 * (f->level + 1), "");
}

/* Start the line defining a new value: "  %7 = ". */
Val *fn_def(Fn *f, const Type *t, const char *ty) {
  Val *v = fn_fresh(f, t, ty, NULL);
  fn_line(f);
  f->last = v;
  f->last_at = fn_body(f)->n;
  buf_put(fn_body(f), "%s = ", v->name);
  return v;
}

Val *fn_def_dyn(Fn *f, const Type *t, uint32_t mask) {
  Val *v = fn_def(f, t, mask ? mty_text_dyn(f, t, mask) : NULL);
  v->dyn = mask;
  f->t->ndyn += mask != 0;
  return v;
}

Val *fn_cast(Fn *f, Val *v, uint32_t mask) {
  if (v->n >= 0 || v->dyn == mask)
    return v;
  for (int i = f->nmemo - 1; i >= 0; i--) /* this value cast to this mask before */
    if (f->memo[i].key == v && f->memo[i].v->dyn == mask)
      return f->memo[i].v;
  const char *vn = fn_use(f, v);
  Val *r = fn_def_dyn(f, v->type, mask);
  fn_out(f, "tensor.cast %s : %s to %s\n", vn, v->ty, r->ty);
  r->k = v->k;
  fn_remember(f, v, NULL, r);
  return r;
}

Val *fn_static(Fn *f, Val *v) {
  if (!v || v->n < 0)
    return v ? fn_cast(f, v, 0) : v;
  Val *t = NULL;
  for (int i = 0; i < v->n; i++) {
    Val *s = fn_static(f, v->f[i]);
    if (s != v->f[i] && !t) {
      t = ARENA_NEW(f->t->a, Val);
      *t = *v;
      t->f = ARENA_ARRAY(f->t->a, Val *, v->n + 1);
      memcpy(t->f, v->f, sizeof *t->f * (size_t)v->n);
    }
    if (t)
      t->f[i] = s;
  }
  return t ? t : v;
}

void fn_out(Fn *f, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  buf_vput(fn_body(f), fmt, ap);
  va_end(ap);
}

/* The name of v at region depth level (capturing it into every region
 * between its definition and level). */
static const char *name_at(Fn *f, Val *v, int level) {
  if (v->level >= level)
    return v->name;
  Region *r = f->reg[level];
  if (!r->isolated)
    return name_at(f, v, level - 1);
  for (int i = 0; i < r->ncap; i++)
    if (r->cap[i].outer == v)
      return r->cap[i].inner[r->branch]->name;
  name_at(f, v, level - 1); /* capture it outside first */
  if (r->ncap == r->capcap) {
    r->capcap = r->capcap ? 2 * r->capcap : 8;
    r->cap = realloc(r->cap, sizeof *r->cap * (size_t)r->capcap);
    if (!r->cap)
      abort();
  }
  Cap *c = &r->cap[r->ncap++];
  c->outer = v;
  int save = f->level;
  f->level = level;
  for (int b = 0; b < 2; b++) {
    c->inner[b] = fn_fresh(f, v->type, v->ty, v->hint);
    c->inner[b]->dyn = v->dyn;
    c->inner[b]->k = NULL;
  }
  f->level = save;
  return c->inner[r->branch]->name;
}

/* The name to use for v here. */
const char *fn_use(Fn *f, Val *v) {
  return name_at(f, v, f->level);
}

/* ---------------------------------------------------------------- memo */

void fn_remember(Fn *f, const void *key, const char *text, Val *v) {
  if (f->nmemo == f->capmemo) {
    f->capmemo = f->capmemo ? 2 * f->capmemo : 32;
    f->memo = realloc(f->memo, sizeof *f->memo * (size_t)f->capmemo);
    if (!f->memo)
      abort();
  }
  f->memo[f->nmemo++] = (Memo){key, text, v, f->level};
}

/* What key (or, for constants, text) was translated to, if usable here:
 * constants only from this region (a copy is cheaper than a capture). */
Val *fn_recall(Fn *f, const void *key, const char *text) {
  for (int i = f->nmemo - 1; i >= 0; i--) {
    Memo *m = &f->memo[i];
    if (text ? m->text && m->level == f->level && strcmp(m->text, text) == 0 : m->key == key)
      return m->v;
  }
  return NULL;
}

/* ------------------------------------------------------------ constants */

/* "%7 = "tosa.const"() <{values = LIT}> : () -> T" for the literal text
 * lit ("dense<..> : T") of type t, once per region. */
Val *emit_literal(Fn *f, const char *lit, const Type *t) {
  Val *v = fn_recall(f, NULL, lit);
  if (v)
    return v;
  v = fn_def(f, t, NULL);
  /* float64 is not a TOSA type (the accumulators'); the linalg road has no TOSA */
  if (t->tensor.dtype == DT_FLOAT64 || f->t->linalg)
    fn_out(f, "arith.constant %s\n", lit);
  else
    fn_out(f, "\"tosa.const\"() <{values = %s}> : () -> %s\n", lit, v->ty);
  fn_remember(f, NULL, arena_strdup(f->t->a, lit), v);
  return v;
}

/* The constant x. */
Val *emit_const(Fn *f, const Tensor *x) {
  Buf b = {0};
  buf_dense(&b, x);
  Val *v = emit_literal(f, b.s, mty_tensor(f, x->dtype, x->rank, x->shape));
  free(b.s);
  v->k = x;
  return v;
}

/* A tensor of type t holding v everywhere (ints: (int64_t)v). */
Val *emit_fill(Fn *f, const Type *t, double v) {
  Buf b = {0};
  buf_put(&b, "dense<");
  buf_number(&b, t->tensor.dtype, v);
  buf_put(&b, "> : ");
  buf_tensor_type(&b, t->tensor.dtype, t->tensor.rank, t->tensor.shape);
  Val *r = emit_literal(f, b.s, t);
  free(b.s);
  return r;
}

/* A scalar v of dtype dt shaped 1x..x1 with the given rank (what an
 * elementwise TOSA operation broadcasts). */
Val *emit_splat(Fn *f, DType dt, int rank, double v) {
  int64_t ones[IR_MAX_RANK] = {1, 1, 1, 1, 1, 1};
  return emit_fill(f, mty_tensor(f, dt, rank, ones), v);
}

/* tensor<1xT> zero: the zero points of negate, matmul, conv2d, avg_pool2d. */
Val *emit_zero_point(Fn *f, DType dt) {
  return emit_splat(f, dt, 1, 0);
}

/* A !tosa.shape<n> constant. */
Val *emit_shape_value(Fn *f, int n, const int64_t *v) {
  char ty[32];
  snprintf(ty, sizeof ty, "!tosa.shape<%d>", n);
  Buf b = {0};
  buf_put(&b, "dense<");
  if (n > 1)
    buf_put(&b, "[");
  for (int i = 0; i < n; i++)
    buf_put(&b, "%s%lld", i ? ", " : "", (long long)v[i]);
  buf_put(&b, "%s> : tensor<%dxindex>", n > 1 ? "]" : "", n);
  Val *r = fn_recall(f, NULL, b.s);
  if (!r) {
    r = fn_def(f, NULL, ty);
    fn_out(f, "tosa.const_shape {values = %s} : () -> %s\n", b.s, ty);
    fn_remember(f, NULL, arena_strdup(f->t->a, b.s), r);
  }
  free(b.s);
  return r;
}

/* --------------------------------------------------------- generic forms */

/* "%r = tosa.OP %a, %b {ATTRS} : (A, B) -> R": the generic form. */
Val *emit_tosa(Fn *f, const char *op, const char *attrs, const Type *rt, int n, Val *const *a) {
  const char **names = ARENA_ARRAY(f->t->a, const char *, n);
  /* Elementwise: a result dim is `?` where an operand of the result's
   * rank has it, unless another has a static extent other than 1 there,
   * which the broadcast result takes.  (A `?` result beside a static
   * operand also meets MLIR 22's tosa.add folder, which returns x for
   * zeros + x although the zeros broadcast x: docs/findings/mlir.md #38.) */
  uint32_t dyn = 0, fixed = 0;
  for (int i = 0; i < n; i++) {
    names[i] = fn_use(f, a[i]);
    if (!a[i]->type || a[i]->type->tensor.rank != rt->tensor.rank)
      continue;
    dyn |= a[i]->dyn;
    for (int d = 0; d < rt->tensor.rank; d++)
      if (!(a[i]->dyn >> d & 1) && a[i]->type->tensor.shape[d] != 1)
        fixed |= 1u << d;
  }
  dyn &= ~fixed;
  Val *r = fn_def_dyn(f, rt, dyn);
  fn_out(f, "tosa.%s", op);
  for (int i = 0; i < n; i++)
    fn_out(f, "%s %s", i ? "," : "", names[i]);
  if (attrs)
    fn_out(f, " {%s}", attrs);
  fn_out(f, " : (");
  for (int i = 0; i < n; i++)
    fn_out(f, "%s%s", i ? ", " : "", a[i]->ty);
  fn_out(f, ") -> %s\n", r->ty);
  return r;
}

Val *emit_tosa1(Fn *f, const char *op, Val *x, const Type *rt) {
  return emit_tosa(f, op, NULL, rt, 1, &x);
}

Val *emit_tosa2(Fn *f, const char *op, Val *x, Val *y, const Type *rt) {
  Val *a[2] = {x, y};
  return emit_tosa(f, op, NULL, rt, 2, a);
}

Val *emit_tosa3(Fn *f, const char *op, Val *x, Val *y, Val *z, const Type *rt) {
  Val *a[3] = {x, y, z};
  return emit_tosa(f, op, NULL, rt, 3, a);
}

/* "%r = OP %a, %b : T" for arith and math operations on tensors of one
 * type (no broadcasting: the operands have the result's type). */
Val *emit_arith(Fn *f, const char *op, int n, Val *const *a) {
  const char *names[4];
  Val *x[4];
  bool alike = true; /* one type for all: dynamic only when all are alike */
  for (int i = 1; i < n; i++)
    alike &= a[i]->dyn == a[0]->dyn;
  for (int i = 0; i < n; i++) {
    x[i] = alike ? a[i] : fn_static(f, a[i]);
    names[i] = fn_use(f, x[i]);
  }
  Val *r = fn_def_dyn(f, x[0]->type, x[0]->dyn);
  fn_out(f, "%s", op);
  for (int i = 0; i < n; i++)
    fn_out(f, "%s %s", i ? "," : "", names[i]);
  fn_out(f, " : %s\n", r->ty);
  return r;
}

/* An arith elementwise conversion (arith.truncf, ...) of x to dtype dt. */
Val *emit_convert(Fn *f, const char *op, Val *x, DType dt) {
  const char *xn = fn_use(f, x);
  Val *r = fn_def_dyn(f, mty_retype(f, x->type, dt), x->dyn);
  fn_out(f, "%s %s : %s to %s\n", op, xn, x->ty, r->ty);
  return r;
}

/* "%r = linalg.NAME {ATTRS} ins(%a, %b : A, B) outs(%init : R) -> R": the
 * named linalg operations used where TOSA has no integer form. */
Val *emit_linalg(Fn *f, const char *op, const char *attrs, Val *x, Val *y, Val *init) {
  x = fn_static(f, x), y = fn_static(f, y), init = fn_static(f, init);
  const char *xn = fn_use(f, x), *yn = fn_use(f, y), *in = fn_use(f, init);
  Val *r = fn_def(f, init->type, NULL);
  fn_out(f, "linalg.%s %s%sins(%s, %s : %s, %s) outs(%s : %s) -> %s\n", op, attrs ? attrs : "",
         attrs ? " " : "", xn, yn, x->ty, y->ty, in, init->ty, r->ty);
  return r;
}

/* ----------------------------------------------------------- attributes */

/* An int or int-list attribute: its values and count (-1 when absent or
 * None). */
int attr_ints(const Attrs *at, const char *name, const int64_t **v) {
  const Attr *x = ir_attr_get(at, name);
  if (!x || x->kind == AV_NONE)
    return -1;
  if (x->kind == AV_INT) {
    *v = &x->i;
    return 1;
  }
  *v = x->ints;
  return x->n;
}
