/*
 * translate.c - relayc IR to MLIR text (see translate.h for the contract
 * and docs/mlir.md for the mapping of every operator).
 *
 * Two passes over the module.  accept_global() walks everything @main
 * reaches and refuses what the translator does not take (the reason
 * becomes the skip), so that the emitters below never meet an unsupported
 * form.  Then
 * each function is emitted: expressions become Vals (a tensor is one SSA
 * value, a tuple a tree of them), operator calls go through emit_op, one
 * case per operator, built from small emitters (one MLIR operation each).
 *
 * Semantics are relayc's interpreter's, not TOSA's defaults: wherever the
 * two differ (integer division by 0 and -1, float to int casts, negate of
 * INT_MIN, the sign of zeros in argmax, sums accumulated in double, ...)
 * the lowering spells out relayc's behaviour with more operations; each
 * such place says so in a comment.
 *
 * Regions: tosa.cond_if must be isolated from above, so while a branch is
 * emitted every value from outside it becomes a block argument (a
 * capture); the condition's operand list is written once both branches
 * are done.  A value is usable at the region depth where it was defined
 * and, through captures, in every region nested inside.  (An if inside
 * another becomes scf.if, whose regions use outside values directly.)
 */
#include <assert.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "compiler/ir/ptrmap.h"
#include "compiler/ops/op.h"
#include "translate.h"

/* ------------------------------------------------------------- text */

/* A growing string. */
typedef struct Buf {
  char *s;
  size_t n, cap;
} Buf;

static void buf_reserve(Buf *b, size_t more) {
  if (b->n + more + 1 <= b->cap)
    return;
  size_t cap = b->cap ? b->cap : 256;
  while (cap < b->n + more + 1)
    cap *= 2;
  char *s = realloc(b->s, cap);
  if (!s)
    abort();
  b->s = s;
  b->cap = cap;
}

static void buf_vput(Buf *b, const char *fmt, va_list ap) {
  va_list aq;
  va_copy(aq, ap);
  int n = vsnprintf(NULL, 0, fmt, aq);
  va_end(aq);
  buf_reserve(b, (size_t)n);
  vsnprintf(b->s + b->n, (size_t)n + 1, fmt, ap);
  b->n += (size_t)n;
}

static void buf_put(Buf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void buf_put(Buf *b, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  buf_vput(b, fmt, ap);
  va_end(ap);
}

/* Insert s at offset at. */
static void buf_insert(Buf *b, size_t at, const char *s) {
  size_t k = strlen(s);
  buf_reserve(b, k);
  memmove(b->s + at + k, b->s + at, b->n - at + 1);
  memcpy(b->s + at, s, k);
  b->n += k;
}

/* The MLIR element type of a dtype. */
static const char *mty_elem(DType dt) {
  switch (dt) {
  case DT_BOOL: return "i1";
  case DT_INT8: return "i8";
  case DT_INT32: return "i32";
  case DT_INT64: return "i64";
  case DT_FLOAT32: return "f32";
  case DT_FLOAT64: return "f64";
  default: return "?";
  }
}

/* "tensor<2x3xf32>" (rank 0: "tensor<f32>") into b. */
static void buf_tensor_type(Buf *b, DType dt, int rank, const int64_t *shape) {
  buf_put(b, "tensor<");
  for (int i = 0; i < rank; i++)
    buf_put(b, "%lldx", (long long)shape[i]);
  buf_put(b, "%s>", mty_elem(dt));
}

/* One element as an MLIR literal: floats exact (%.9g round-trips a
 * float32, %.17g a double; NaN and infinities by their bits, since MLIR
 * has no spelling for them), bools true/false. */
static void buf_elem(Buf *b, DType dt, double f, int64_t i) {
  if (dt == DT_BOOL) {
    buf_put(b, i ? "true" : "false");
  } else if (!ir_dtype_is_float(dt)) {
    buf_put(b, "%lld", (long long)i);
  } else if (isnan(f) || isinf(f)) {
    bool f32 = dt == DT_FLOAT32;
    if (isnan(f))
      buf_put(b, f32 ? "0x7FC00000" : "0x7FF8000000000000");
    else if (f > 0)
      buf_put(b, f32 ? "0x7F800000" : "0x7FF0000000000000");
    else
      buf_put(b, f32 ? "0xFF800000" : "0xFFF0000000000000");
  } else {
    char s[40];
    snprintf(s, sizeof s, dt == DT_FLOAT32 ? "%.9g" : "%.17g", f);
    /* MLIR's float literals need a '.': 1 -> 1.0, 1e+08 -> 1.0e+08. */
    char *e = strchr(s, 'e');
    if (!strchr(s, '.')) {
      if (e) {
        char tail[24];
        snprintf(tail, sizeof tail, "%s", e);
        snprintf(e, sizeof s - (size_t)(e - s), ".0%s", tail);
      } else {
        strcat(s, ".0");
      }
    }
    buf_put(b, "%s", s);
  }
}

/* The number v (an integer value for integer dtypes) as an element. */
static void buf_number(Buf *b, DType dt, double v) {
  buf_elem(b, dt, v, ir_dtype_is_float(dt) ? 0 : (int64_t)v);
}

/* Element i of x as put_elem wants it. */
static void buf_elem_of(Buf *b, const Tensor *x, int64_t i) {
  buf_elem(b, x->dtype, ir_tensor_get_f64(x, i), ir_tensor_get_i64(x, i));
}

/* "dense<...> : tensor<...>" for x: a splat when every element has the
 * same bits, else nested lists. */
static void buf_dense(Buf *b, const Tensor *x) {
  size_t size = (size_t)ir_dtype_size(x->dtype);
  bool splat = x->numel > 0;
  for (int64_t i = 1; splat && i < x->numel; i++)
    splat = memcmp((const char *)x->data + i * (int64_t)size, x->data, size) == 0;
  buf_put(b, "dense<");
  if (splat) {
    buf_elem_of(b, x, 0);
  } else {
    int64_t stride[IR_MAX_RANK + 1]; /* elements in one slice at dim d */
    stride[x->rank] = 1;
    for (int d = x->rank - 1; d >= 0; d--)
      stride[d] = stride[d + 1] * x->shape[d];
    for (int64_t i = 0; i < x->numel; i++) {
      for (int d = 0; d < x->rank; d++)
        if (i % stride[d] == 0)
          buf_put(b, "[");
      buf_elem_of(b, x, i);
      for (int d = x->rank - 1; d >= 0 && (i + 1) % stride[d] == 0; d--)
        buf_put(b, "]");
      if (i + 1 < x->numel)
        buf_put(b, ", ");
    }
  }
  buf_put(b, "> : ");
  buf_tensor_type(b, x->dtype, x->rank, x->shape);
}

char *mlt_dense(const Tensor *x) {
  Buf b = {0};
  buf_dense(&b, x);
  return b.s;
}

/* ----------------------------------------------------------- flattening */

/* Append the tensor leaves of t to out[*n ..] (up to max), counting all. */
static void flatten_type(const Type *t, const Type **out, int max, int *n) {
  if (t->kind != TY_TUPLE) {
    if (*n < max)
      out[*n] = t;
    ++*n;
    return;
  }
  for (int i = 0; i < t->tuple.n; i++)
    flatten_type(t->tuple.fields[i], out, max, n);
}

int mlt_flatten_type(const Type *t, const Type **out, int max) {
  int n = 0;
  flatten_type(t, out, max, &n);
  return n;
}

static void flatten_value(const EvValue *v, Tensor **out, int max, int *n) {
  if (v->kind == VAL_TENSOR) {
    if (*n < max)
      out[*n] = v->tensor;
    ++*n;
    return;
  }
  for (int i = 0; v->kind == VAL_TUPLE && i < v->tuple.n; i++)
    flatten_value(v->tuple.fields[i], out, max, n);
}

int mlt_flatten_value(const EvValue *v, Tensor **out, int max) {
  int n = 0;
  flatten_value(v, out, max, &n);
  return n;
}

EvValue *mlt_unflatten_value(EvRun *r, const Type *t, Tensor *const *leaves, int *pos) {
  if (t->kind != TY_TUPLE)
    return ev_val_tensor(r, leaves[(*pos)++]);
  EvValue *v = ev_val_tuple(r, t->tuple.n);
  for (int i = 0; i < t->tuple.n; i++)
    v->tuple.fields[i] = mlt_unflatten_value(r, t->tuple.fields[i], leaves, pos);
  return v;
}

/* --------------------------------------------------------------- values */

/* A translated expression: a tensor (one SSA value) or a tuple of Vals.
 * Shape operands (!tosa.shape) are Vals without a tensor type. */
typedef struct Val Val;
struct Val {
  int n;            /* -1: a single value; else a tuple of n fields */
  Val **f;          /* the fields of a tuple */
  char *name;       /* "%7", "%x_7", "%7#1" */
  const char *hint; /* the name's prefix, NULL for a plain number */
  int id;           /* its number */
  const Type *type; /* tensor type; NULL for a shape */
  const Tensor *k;  /* the value of a constant, else NULL */
  char *ty;         /* the type as MLIR text */
  int level;        /* region depth of the definition */
};

/* A value used inside a region but defined outside it: the region's
 * block argument for it, one per branch. */
typedef struct Cap {
  Val *outer;
  Val *inner[2];
} Cap;

/* The body of a function (level 0) or of a branch of a tosa.cond_if. */
typedef struct Region {
  Buf body[2];   /* level 0 uses body[0] */
  int branch;    /* 0: then, 1: else */
  bool isolated; /* a tosa.cond_if's: outside values come in as block args */
  Cap *cap;
  int ncap, capcap;
} Region;

/* A remembered translation: of an expression (shared nodes are translated
 * once per region), of a let variable, or of a constant's text. */
typedef struct Memo {
  const void *key;
  const char *text; /* constants: the literal; else NULL */
  Val *v;
  int level;
} Memo;

enum { MAX_LEVEL = 64 };

typedef struct Tr Tr;

/* One function being emitted. */
typedef struct Fn {
  Tr *t;
  Region *reg[MAX_LEVEL];
  int level;
  Memo *memo;
  int nmemo, capmemo;
  Val *last;      /* the last single value defined ... */
  size_t last_at; /* ... and where its name starts in the current body */
} Fn;

/* The module being translated. */
struct Tr {
  Arena *a;
  const Module *m;
  int next;       /* SSA numbers, module-wide so names never clash */
  Buf funcs;      /* the private functions emitted so far */
  PtrMap done;    /* GlobalFn -> 1 once emitted */
  char skip[256]; /* why not, when accept_global() refuses */
};

static Type *mty_tensor(Fn *f, DType dt, int rank, const int64_t *shape) {
  return ir_tensor_type(f->t->a, dt, rank, shape);
}

/* t with another dtype. */
static Type *mty_retype(Fn *f, const Type *t, DType dt) {
  return mty_tensor(f, dt, t->tensor.rank, t->tensor.shape);
}

static char *mty_text(Fn *f, const Type *t) {
  Buf b = {0};
  buf_tensor_type(&b, t->tensor.dtype, t->tensor.rank, t->tensor.shape);
  char *s = arena_strdup(f->t->a, b.s);
  free(b.s);
  return s;
}

/* A new value of tensor type t (shape values: t NULL, ty given). */
static Val *fn_fresh(Fn *f, const Type *t, const char *ty, const char *hint) {
  Val *v = ARENA_NEW(f->t->a, Val);
  v->n = -1;
  v->id = f->t->next++;
  v->hint = hint;
  v->name =
      hint ? arena_printf(f->t->a, "%%%s_%d", hint, v->id) : arena_printf(f->t->a, "%%%d", v->id);
  v->type = t;
  v->ty = t ? mty_text(f, t) : arena_strdup(f->t->a, ty);
  v->level = f->level;
  return v;
}

static Buf *fn_body(Fn *f) {
  Region *r = f->reg[f->level];
  return &r->body[r->branch];
}

/* Start a line of the current body. */
static void fn_line(Fn *f) {
  buf_put(fn_body(f), "%*s", 2 * (f->level + 1), "");
}

/* Start the line defining a new value: "  %7 = ". */
static Val *fn_def(Fn *f, const Type *t, const char *ty) {
  Val *v = fn_fresh(f, t, ty, NULL);
  fn_line(f);
  f->last = v;
  f->last_at = fn_body(f)->n;
  buf_put(fn_body(f), "%s = ", v->name);
  return v;
}

static void fn_out(Fn *f, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void fn_out(Fn *f, const char *fmt, ...) {
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
  for (int b = 0; b < 2; b++)
    c->inner[b] = fn_fresh(f, v->type, v->ty, v->hint);
  f->level = save;
  return c->inner[r->branch]->name;
}

/* The name to use for v here. */
static const char *fn_use(Fn *f, Val *v) {
  return name_at(f, v, f->level);
}

/* ---------------------------------------------------------------- memo */

static void fn_remember(Fn *f, const void *key, const char *text, Val *v) {
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
static Val *fn_recall(Fn *f, const void *key, const char *text) {
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
static Val *emit_literal(Fn *f, const char *lit, const Type *t) {
  Val *v = fn_recall(f, NULL, lit);
  if (v)
    return v;
  v = fn_def(f, t, NULL);
  if (t->tensor.dtype == DT_FLOAT64) /* not a TOSA type: the f64 accumulators' */
    fn_out(f, "arith.constant %s\n", lit);
  else
    fn_out(f, "\"tosa.const\"() <{values = %s}> : () -> %s\n", lit, v->ty);
  fn_remember(f, NULL, arena_strdup(f->t->a, lit), v);
  return v;
}

/* The constant x. */
static Val *emit_const(Fn *f, const Tensor *x) {
  Buf b = {0};
  buf_dense(&b, x);
  Val *v = emit_literal(f, b.s, mty_tensor(f, x->dtype, x->rank, x->shape));
  free(b.s);
  v->k = x;
  return v;
}

/* A tensor of type t holding v everywhere (ints: (int64_t)v). */
static Val *emit_fill(Fn *f, const Type *t, double v) {
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
static Val *emit_splat(Fn *f, DType dt, int rank, double v) {
  int64_t ones[IR_MAX_RANK] = {1, 1, 1, 1, 1, 1};
  return emit_fill(f, mty_tensor(f, dt, rank, ones), v);
}

/* tensor<1xT> zero: the zero points of negate, matmul, conv2d, avg_pool2d. */
static Val *emit_zero_point(Fn *f, DType dt) {
  return emit_splat(f, dt, 1, 0);
}

/* A !tosa.shape<n> constant. */
static Val *emit_shape_value(Fn *f, int n, const int64_t *v) {
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

/* ------------------------------------------------------ TOSA operations */

/* "%r = tosa.OP %a, %b {ATTRS} : (A, B) -> R": the generic form. */
static Val *emit_tosa(Fn *f, const char *op, const char *attrs, const Type *rt, int n,
                      Val *const *a) {
  const char **names = ARENA_ARRAY(f->t->a, const char *, n);
  for (int i = 0; i < n; i++)
    names[i] = fn_use(f, a[i]);
  Val *r = fn_def(f, rt, NULL);
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

static Val *emit_tosa1(Fn *f, const char *op, Val *x, const Type *rt) {
  return emit_tosa(f, op, NULL, rt, 1, &x);
}

static Val *emit_tosa2(Fn *f, const char *op, Val *x, Val *y, const Type *rt) {
  Val *a[2] = {x, y};
  return emit_tosa(f, op, NULL, rt, 2, a);
}

static Val *emit_tosa3(Fn *f, const char *op, Val *x, Val *y, Val *z, const Type *rt) {
  Val *a[3] = {x, y, z};
  return emit_tosa(f, op, NULL, rt, 3, a);
}

/* "%r = OP %a, %b : T" for arith and math operations on tensors of one
 * type (no broadcasting: the operands have the result's type). */
static Val *emit_arith(Fn *f, const char *op, int n, Val *const *a) {
  const char *names[4];
  for (int i = 0; i < n; i++)
    names[i] = fn_use(f, a[i]);
  Val *r = fn_def(f, a[0]->type, NULL);
  fn_out(f, "%s", op);
  for (int i = 0; i < n; i++)
    fn_out(f, "%s %s", i ? "," : "", names[i]);
  fn_out(f, " : %s\n", r->ty);
  return r;
}

static int mty_rank(const Val *v) {
  return v->type->tensor.rank;
}

static const int64_t *mty_shape(const Val *v) {
  return v->type->tensor.shape;
}

static DType mty_dtype(const Val *v) {
  return v->type->tensor.dtype;
}

static bool mty_same_shape(int ra, const int64_t *a, int rb, const int64_t *b) {
  return ra == rb && memcmp(a, b, sizeof *a * (size_t)ra) == 0;
}

/* x reshaped (same elements, row-major) to the given shape. */
static Val *emit_reshape(Fn *f, Val *x, int rank, const int64_t *shape) {
  if (mty_same_shape(mty_rank(x), mty_shape(x), rank, shape))
    return x;
  if (x->k) { /* a constant: the same elements, shaped as wanted */
    Tensor *t = ARENA_NEW(f->t->a, Tensor);
    *t = *x->k;
    t->rank = rank;
    memcpy(t->shape, shape, sizeof *shape * (size_t)rank);
    return emit_const(f, t);
  }
  Val *s = emit_shape_value(f, rank, shape);
  return emit_tosa2(f, "reshape", x, s, mty_tensor(f, mty_dtype(x), rank, shape));
}

/* x with leading unit dims up to the given rank (numpy broadcasting's
 * alignment: TOSA's elementwise operations want equal ranks). */
static Val *emit_align(Fn *f, Val *x, int rank) {
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
static Val *emit_expand(Fn *f, Val *x, int rank, const int64_t *shape) {
  x = emit_align(f, x, rank);
  if (mty_same_shape(mty_rank(x), mty_shape(x), rank, shape))
    return x;
  int64_t mult[IR_MAX_RANK];
  for (int i = 0; i < rank; i++)
    mult[i] = shape[i] / mty_shape(x)[i];
  Val *m = emit_shape_value(f, rank, mult);
  return emit_tosa2(f, "tile", x, m, mty_tensor(f, mty_dtype(x), rank, shape));
}

/* x with its dims permuted: result dim i is x's dim perm[i]. */
static Val *emit_transpose(Fn *f, Val *x, const int *perm) {
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
  return emit_tosa(f, "transpose", attrs, mty_tensor(f, mty_dtype(x), r, shape), 1, &x);
}

/* The block of x starting at start with the given sizes. */
static Val *emit_slice(Fn *f, Val *x, const int64_t *start, const int64_t *size) {
  int r = mty_rank(x);
  bool all = true;
  for (int i = 0; i < r; i++)
    all &= start[i] == 0 && size[i] == mty_shape(x)[i];
  if (all)
    return x;
  Val *a[3] = {x, emit_shape_value(f, r, start), emit_shape_value(f, r, size)};
  return emit_tosa(f, "slice", NULL, mty_tensor(f, mty_dtype(x), r, size), 3, a);
}

/* xs[0..n) joined along axis. */
static Val *emit_concat(Fn *f, int n, Val **xs, int axis) {
  if (n == 1)
    return xs[0];
  int64_t shape[IR_MAX_RANK];
  memcpy(shape, mty_shape(xs[0]), sizeof shape);
  for (int i = 1; i < n; i++)
    shape[axis] += mty_shape(xs[i])[axis];
  char attrs[32];
  snprintf(attrs, sizeof attrs, "axis = %d : i32", axis);
  return emit_tosa(f, "concat", attrs, mty_tensor(f, mty_dtype(xs[0]), mty_rank(xs[0]), shape), n,
                   xs);
}

static Val *emit_reverse(Fn *f, Val *x, int axis) {
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
static Val *emit_pad(Fn *f, Val *x, const int64_t *lo, const int64_t *hi, double v) {
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
static Val *emit_pad_mask(Fn *f, Val *x, const int64_t *lo, const int64_t *hi) {
  Val *ones = emit_fill(f, mty_retype(f, x->type, DT_BOOL), 1);
  return emit_pad(f, ones, lo, hi, 0);
}

/* -------------------------------------------------- elementwise helpers */

/* The numpy broadcast of the shapes of x and y. */
static int mty_broadcast(const Val *x, const Val *y, int64_t *shape) {
  int rx = mty_rank(x), ry = mty_rank(y), r = rx > ry ? rx : ry;
  for (int i = 0; i < r; i++) {
    int64_t dx = i < r - rx ? 1 : mty_shape(x)[i - (r - rx)];
    int64_t dy = i < r - ry ? 1 : mty_shape(y)[i - (r - ry)];
    shape[i] = dx == 1 ? dy : dx;
  }
  return r;
}

/* A broadcasting TOSA binary operation with result dtype dt. */
static Val *emit_binary(Fn *f, const char *op, Val *x, Val *y, DType dt) {
  int64_t shape[IR_MAX_RANK];
  int r = mty_broadcast(x, y, shape);
  return emit_tosa2(f, op, emit_align(f, x, r), emit_align(f, y, r), mty_tensor(f, dt, r, shape));
}

/* Same dtype as the operands. */
static Val *emit_bin(Fn *f, const char *op, Val *x, Val *y) {
  return emit_binary(f, op, x, y, mty_dtype(x));
}

/* A comparison: bool result. */
static Val *emit_cmp(Fn *f, const char *op, Val *x, Val *y) {
  return emit_binary(f, op, x, y, DT_BOOL);
}

/* x * y (tosa.mul takes a shift operand, 0 for anything but int8/16). */
static Val *emit_mul(Fn *f, Val *x, Val *y) {
  int64_t shape[IR_MAX_RANK];
  int r = mty_broadcast(x, y, shape);
  return emit_tosa3(f, "mul", emit_align(f, x, r), emit_align(f, y, r),
                    emit_splat(f, DT_INT8, 1, 0), mty_tensor(f, mty_dtype(x), r, shape));
}

/* c ? x : y, broadcasting all three. */
static Val *emit_select(Fn *f, Val *c, Val *x, Val *y) {
  int64_t s1[IR_MAX_RANK], s2[IR_MAX_RANK];
  int r1 = mty_broadcast(x, y, s1);
  Val tmp = {.n = -1, .type = mty_tensor(f, mty_dtype(x), r1, s1)};
  int r = mty_broadcast(c, &tmp, s2);
  return emit_tosa3(f, "select", emit_align(f, c, r), emit_align(f, x, r), emit_align(f, y, r),
                    mty_tensor(f, mty_dtype(x), r, s2));
}

static Val *emit_not(Fn *f, Val *x) {
  return emit_tosa1(f, "logical_not", x, x->type);
}

/* The scalar v of x's dtype, aligned to x's rank. */
static Val *emit_scalar_like(Fn *f, const Val *x, double v) {
  return emit_splat(f, mty_dtype(x), mty_rank(x), v);
}

/* x != x: true at NaNs. */
static Val *emit_is_nan(Fn *f, Val *x) {
  return emit_not(f, emit_cmp(f, "equal", x, x));
}

/* ------------------------------------------------------------------ cast */

/* x converted to dtype `to` with relayc's cast semantics: float -> int
 * truncates, saturates and sends NaN to 0 (tosa.cast rounds half to even
 * and sends NaN to INT_MAX); anything -> bool is x != 0; bool -> number is
 * 0 or 1 (TOSA has no cast between bool and float). */
static Val *emit_cast(Fn *f, Val *x, DType to) {
  DType from = mty_dtype(x);
  const Type *rt = mty_retype(f, x->type, to);
  if (from == to)
    return x;
  if (to == DT_BOOL && ir_dtype_is_float(from))
    return emit_not(f, emit_cmp(f, "equal", x, emit_scalar_like(f, x, 0)));
  if (from == DT_BOOL && ir_dtype_is_float(to))
    return emit_select(f, x, emit_splat(f, to, mty_rank(x), 1), emit_splat(f, to, mty_rank(x), 0));
  if (ir_dtype_is_float(from) && !ir_dtype_is_float(to)) {
    Val *neg = emit_cmp(f, "greater", emit_scalar_like(f, x, 0), x);
    Val *t =
        emit_select(f, neg, emit_tosa1(f, "ceil", x, x->type), emit_tosa1(f, "floor", x, x->type));
    Val *c = emit_tosa1(f, "cast", t, rt);
    return emit_select(f, emit_is_nan(f, x), emit_splat(f, to, mty_rank(x), 0), c);
  }
  return emit_tosa1(f, "cast", x, rt);
}

/* ------------------------------------------------------------ reductions */

/* The axes a reduction's attributes select for a rank-`rank` input, as a
 * bit mask (reduce.c's rule: None or [] is every axis; exclude inverts). */
static uint32_t reduce_axes(const Attrs *at, int rank) {
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
static Val *emit_reduce_each(Fn *f, const char *op, Val *x, uint32_t mask) {
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

/* An arith elementwise conversion (arith.truncf, ...) of x to dtype dt. */
static Val *emit_convert(Fn *f, const char *op, Val *x, DType dt) {
  const char *xn = fn_use(f, x);
  Val *r = fn_def(f, mty_retype(f, x->type, dt), NULL);
  fn_out(f, "%s %s : %s to %s\n", op, xn, x->ty, r->ty);
  return r;
}

/* A float tensor of x's kept dims after the mask (keepdims, as 1s): the
 * sum (mean: divided by the count) accumulated in double and rounded
 * once, as relayc's kernel does. */
static Val *emit_float_sum(Fn *f, Val *x, uint32_t mask, bool mean) {
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

/* --------------------------------------------------------------- unary */

/* min(max(x, lo), hi) for integers (tosa.clamp takes 8- and 16-bit
 * integers only). */
static Val *emit_clamp_int(Fn *f, Val *x, int64_t lo, int64_t hi) {
  Val *t = emit_bin(f, "maximum", x, emit_scalar_like(f, x, (double)lo));
  return emit_bin(f, "minimum", t, emit_scalar_like(f, t, (double)hi));
}

/* clip(x, lo, hi) = min(max(x, lo), hi) the way relayc computes it: the
 * bounds converted to x's dtype first, then (x < lo ? lo : x), then
 * (t > hi ? hi : t).  tosa.clamp agrees when lo <= hi, except that it
 * turns -0 into +0 at a zero bound (it lowers to maximumf/minimumf): those
 * cases use selects. */
static Val *emit_clip(Fn *f, Val *x, const Attrs *at) {
  double lo = ir_attr_float(at, "a_min", -INFINITY), hi = ir_attr_float(at, "a_max", INFINITY);
  DType dt = mty_dtype(x);
  char attrs[96];
  Buf b = {0};
  if (ir_dtype_is_float(dt)) {
    lo = (float)lo, hi = (float)hi;
    if (!(lo <= hi) || lo == 0 || hi == 0) {
      Val *t = emit_select(f, emit_cmp(f, "greater", emit_scalar_like(f, x, lo), x),
                           emit_scalar_like(f, x, lo), x);
      return emit_select(f, emit_cmp(f, "greater", t, emit_scalar_like(f, t, hi)),
                         emit_scalar_like(f, t, hi), t);
    }
    buf_put(&b, "min_val = ");
    buf_elem(&b, dt, lo, 0);
    buf_put(&b, " : %s, max_val = ", mty_elem(dt));
    buf_elem(&b, dt, hi, 0);
    buf_put(&b, " : %s", mty_elem(dt));
  } else {
    /* TOSA clamps 8- and 16-bit integers only. */
    int64_t ilo = ir_sat_f64_to_int(lo, dt), ihi = ir_sat_f64_to_int(hi, dt);
    if (ilo > ihi) /* x < lo ? lo : x is >= lo > hi: hi everywhere */
      return emit_fill(f, x->type, (double)ihi);
    return emit_clamp_int(f, x, ilo, ihi);
  }
  snprintf(attrs, sizeof attrs, "%s", b.s);
  free(b.s);
  return emit_tosa(f, "clamp", attrs, x->type, 1, &x);
}

/* -1, 0 or 1 by the sign of x; zeros (of either sign) and NaN stay. */
static Val *emit_sign(Fn *f, Val *x) {
  Val *zero = emit_scalar_like(f, x, 0);
  Val *r = emit_select(f, emit_cmp(f, "greater", zero, x), emit_scalar_like(f, x, -1), x);
  return emit_select(f, emit_cmp(f, "greater", x, zero), emit_scalar_like(f, x, 1), r);
}

static Val *emit_unary(Fn *f, OpId op, Val *x, const Attrs *at, const Type *rt) {
  bool fl = ir_dtype_is_float(mty_dtype(x));
  switch (op) {
  case OP_NEGATIVE:
    if (fl) {
      Val *zp = emit_zero_point(f, mty_dtype(x));
      return emit_tosa3(f, "negate", x, zp, zp, x->type);
    }
    /* tosa.negate saturates INT_MIN to INT_MAX; relayc wraps: 0 - x. */
    return emit_bin(f, "sub", emit_scalar_like(f, x, 0), x);
  case OP_ABS: return emit_tosa1(f, "abs", x, x->type); /* INT_MIN stays INT_MIN, as in relayc */
  case OP_EXP: return emit_tosa1(f, "exp", x, x->type);
  case OP_LOG: return emit_tosa1(f, "log", x, x->type);
  case OP_RSQRT: return emit_tosa1(f, "rsqrt", x, x->type);
  case OP_SIGMOID: return emit_tosa1(f, "sigmoid", x, x->type);
  case OP_TANH: return emit_tosa1(f, "tanh", x, x->type);
  case OP_FLOOR: return emit_tosa1(f, "floor", x, x->type);
  case OP_CEIL: return emit_tosa1(f, "ceil", x, x->type);
  /* TOSA has no square root (pow(x, 0.5) is wrong at -0 and -inf) and no
   * rounding half to even. */
  case OP_SQRT: return emit_arith(f, "math.sqrt", 1, &x);
  case OP_ROUND: return emit_arith(f, "math.roundeven", 1, &x);
  case OP_RELU:
    /* max(x, 0): NaN stays, -0 becomes +0 (maximum's order). */
    return emit_bin(f, "maximum", x, emit_scalar_like(f, x, 0));
  case OP_SIGN: return emit_sign(f, x);
  case OP_LOGICAL_NOT: return emit_not(f, x);
  case OP_COPY: return emit_tosa1(f, "identity", x, x->type);
  case OP_CLIP: return emit_clip(f, x, at);
  case OP_CAST: return emit_cast(f, x, rt->tensor.dtype);
  default: assert(!"not unary"); return x;
  }
}

/* ----------------------------------------------------------- broadcast */

/* Integer x / y as relayc defines it: truncating, x / 0 = 0 and
 * x / -1 = -x wrapping (tosa.intdiv is undefined for both, so the divisor
 * is made safe first and the two cases selected afterwards). */
static Val *emit_int_divide(Fn *f, Val *x, Val *y) {
  Val *zero = emit_scalar_like(f, y, 0), *m1 = emit_scalar_like(f, y, -1);
  Val *is0 = emit_cmp(f, "equal", y, zero), *ism1 = emit_cmp(f, "equal", y, m1);
  Val *safe = emit_select(f, emit_bin(f, "logical_or", is0, ism1), emit_scalar_like(f, y, 1), y);
  Val *q = emit_bin(f, "intdiv", x, safe);
  q = emit_select(f, ism1, emit_bin(f, "sub", emit_scalar_like(f, x, 0), x), q);
  return emit_select(f, is0, zero, q);
}

static Val *emit_broadcast(Fn *f, OpId op, Val *x, Val *y, const Type *rt) {
  DType dt = mty_dtype(x);
  bool fl = ir_dtype_is_float(dt);
  if (dt == DT_BOOL && rt->tensor.dtype == DT_BOOL && op != OP_LOGICAL_AND && op != OP_LOGICAL_OR) {
    /* A comparison of bools: TOSA compares numbers only. */
    x = emit_cast(f, x, DT_INT32);
    y = emit_cast(f, y, DT_INT32);
  }
  switch (op) {
  case OP_ADD: return emit_bin(f, "add", x, y);
  case OP_SUBTRACT: return emit_bin(f, "sub", x, y);
  case OP_MULTIPLY: return emit_mul(f, x, y);
  case OP_DIVIDE:
    if (fl) {
      /* TOSA has no float division (reciprocal * x is not exact). */
      Val *a[2] = {emit_expand(f, x, rt->tensor.rank, rt->tensor.shape),
                   emit_expand(f, y, rt->tensor.rank, rt->tensor.shape)};
      return emit_arith(f, "arith.divf", 2, a);
    }
    return emit_int_divide(f, x, y);
  case OP_POWER: return emit_bin(f, "pow", x, y);
  case OP_MAXIMUM: return emit_bin(f, "maximum", x, y); /* NaN wins, -0 < +0 */
  case OP_MINIMUM: return emit_bin(f, "minimum", x, y);
  case OP_EQUAL: return emit_cmp(f, "equal", x, y);
  case OP_NOT_EQUAL: return emit_not(f, emit_cmp(f, "equal", x, y));
  case OP_GREATER: return emit_cmp(f, "greater", x, y);
  case OP_GREATER_EQUAL: return emit_cmp(f, "greater_equal", x, y);
  case OP_LESS: return emit_cmp(f, "greater", y, x);
  case OP_LESS_EQUAL: return emit_cmp(f, "greater_equal", y, x);
  case OP_LOGICAL_AND: return emit_bin(f, "logical_and", x, y);
  case OP_LOGICAL_OR: return emit_bin(f, "logical_or", x, y);
  default: assert(!"not broadcast"); return x;
  }
}

/* --------------------------------------------------------------- shape */

/* An int or int-list attribute: its values and count (-1 when absent or
 * None). */
static int attr_ints(const Attrs *at, const char *name, const int64_t **v) {
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

/* An axis in [-rank, rank) made non-negative. */
static int attr_axis(int64_t a, int rank) {
  return (int)(a < 0 ? a + rank : a);
}

/* topi's canonical begin index of a strided slice (shape.c's canon_index). */
static int64_t canon_begin(int64_t b, int64_t dim, int64_t stride) {
  int64_t lo = stride < 0 ? -1 : 0, hi = stride < 0 ? dim - 1 : dim;
  if (b < 0)
    b += dim;
  return b < lo ? lo : b > hi ? hi : b;
}

/* strided_slice: begin and step per axis, resolved as shape.c's
 * slice_plan does (the sizes are the result type's). */
static void slice_begin_step(const Attrs *at, int rank, const int64_t *dims, int64_t *begin,
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
  slice_begin_step(at, r, mty_shape(x), begin, step);
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

static Val *emit_shape(Fn *f, OpId op, Val **a, const Attrs *at, const Type *rt) {
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
  case OP_ZEROS:
  case OP_ZEROS_LIKE: return emit_fill(f, rt, 0);
  case OP_ONES:
  case OP_ONES_LIKE: return emit_fill(f, rt, 1);
  case OP_FULL:
    return emit_expand(f, emit_cast(f, x, rt->tensor.dtype), rt->tensor.rank, rt->tensor.shape);
  default: assert(!"an operator without a lowering"); return x;
  }
}

/* ---------------------------------------------------------- matrices */

/* "%r = linalg.NAME {ATTRS} ins(%a, %b : A, B) outs(%init : R) -> R": the
 * named linalg operations used where TOSA has no integer form. */
static Val *emit_linalg(Fn *f, const char *op, const char *attrs, Val *x, Val *y, Val *init) {
  const char *xn = fn_use(f, x), *yn = fn_use(f, y), *in = fn_use(f, init);
  Val *r = fn_def(f, init->type, NULL);
  fn_out(f, "linalg.%s %s%sins(%s, %s : %s, %s) outs(%s : %s) -> %s\n", op, attrs ? attrs : "",
         attrs ? " " : "", xn, yn, x->ty, y->ty, in, init->ty, r->ty);
  return r;
}

/* [B, M, K] x [B, K, N] -> [B, M, N]: tosa.matmul for floats;
 * linalg.batch_matmul for int32 (TOSA multiplies 8- and 16-bit integers
 * only), which wraps as relayc does. */
static Val *emit_matmul(Fn *f, Val *x, Val *y) {
  int64_t s[3] = {mty_shape(x)[0], mty_shape(x)[1], mty_shape(y)[2]};
  const Type *rt = mty_tensor(f, mty_dtype(x), 3, s);
  if (!ir_dtype_is_float(mty_dtype(x)))
    return emit_linalg(f, "batch_matmul", NULL, x, y, emit_fill(f, rt, 0));
  Val *zp = emit_zero_point(f, mty_dtype(x));
  Val *a[4] = {x, y, zp, zp};
  return emit_tosa(f, "matmul", NULL, rt, 4, a);
}

static const int swap12[3] = {0, 2, 1};

/* nn.dense: D [.., K] x W [O, K]^T as one [1, M, K] x [1, K, O] matmul. */
static Val *emit_dense(Fn *f, Val *d, Val *w, const Type *rt) {
  DType dt = rt->tensor.dtype; /* out_dtype converts the operands first */
  d = emit_cast(f, d, dt);
  w = emit_cast(f, w, dt);
  int64_t k = mty_shape(w)[1], o = mty_shape(w)[0];
  int64_t ds[3] = {1, ir_type_numel(d->type) / k, k}, ws[3] = {1, k, o};
  static const int swap01[2] = {1, 0};
  Val *r = emit_matmul(f, emit_reshape(f, d, 3, ds),
                       emit_reshape(f, emit_transpose(f, w, swap01), 3, ws));
  return emit_reshape(f, r, rt->tensor.rank, rt->tensor.shape);
}

/* nn.batch_matmul: transpose as the flags say, tile a batch of 1. */
static Val *emit_batch_matmul(Fn *f, Val *x, Val *y, const Attrs *at, const Type *rt) {
  DType dt = rt->tensor.dtype;
  x = emit_cast(f, x, dt);
  y = emit_cast(f, y, dt);
  if (ir_attr_bool(at, "transpose_a", false))
    x = emit_transpose(f, x, swap12);
  if (ir_attr_bool(at, "transpose_b", true))
    y = emit_transpose(f, y, swap12);
  int64_t b = rt->tensor.shape[0];
  int64_t xs[3] = {b, mty_shape(x)[1], mty_shape(x)[2]},
          ys[3] = {b, mty_shape(y)[1], mty_shape(y)[2]};
  return emit_matmul(f, emit_expand(f, x, 3, xs), emit_expand(f, y, 3, ys));
}

/* ------------------------------------------------------------- windows */

/* The sliding window of conv2d and the pools along H (0) and W (1):
 * kernel, stride, dilation, and Relay's written padding lo (top, left)
 * and hi (bottom, right). */
typedef struct Win {
  int64_t k[2], s[2], d[2], lo[2], hi[2];
} Win;

/* A window from the attributes (nn.c's rd_window; padding has 1, 2 or 4
 * values: all sides; top/bottom and left/right; top, left, bottom, right). */
static Win window(const Attrs *at, const int64_t *kernel) {
  Win w = {{kernel[0], kernel[1]}, {1, 1}, {1, 1}, {0, 0}, {0, 0}};
  const int64_t *v;
  if (attr_ints(at, "strides", &v) == 2)
    w.s[0] = v[0], w.s[1] = v[1];
  if (attr_ints(at, "dilation", &v) == 2)
    w.d[0] = v[0], w.d[1] = v[1];
  switch (attr_ints(at, "padding", &v)) {
  case 1: w.lo[0] = w.lo[1] = w.hi[0] = w.hi[1] = v[0]; break;
  case 2:
    w.lo[0] = w.hi[0] = v[0];
    w.lo[1] = w.hi[1] = v[1];
    break;
  case 4:
    w.lo[0] = v[0], w.lo[1] = v[1];
    w.hi[0] = v[2], w.hi[1] = v[3];
    break;
  default: break;
  }
  return w;
}

/* The padded extent output extent o needs along axis i: (o - 1) * s + dk.
 * TOSA wants exactly that (its verifier checks the division is exact), so
 * the bottom/right padding becomes need - lo - n: Relay's written padding
 * trimmed, input rows cropped (negative), or ceil mode's overhang. */
static int64_t win_need(const Win *w, int i, int64_t o) {
  return (o - 1) * w->s[i] + (w->k[i] - 1) * w->d[i] + 1;
}

/* NCHW x padded with v and cropped to exactly the extents the output
 * needs, so that a window operation without padding gives the output. */
static Val *emit_window_input(Fn *f, Val *x, const Win *w, const int64_t *o, double v) {
  int64_t lo[4] = {0, 0, w->lo[0], w->lo[1]}, hi[4] = {0, 0, 0, 0}, start[4] = {0};
  int64_t size[4] = {mty_shape(x)[0], mty_shape(x)[1], win_need(w, 0, o[0]), win_need(w, 1, o[1])};
  for (int i = 0; i < 2; i++) {
    int64_t h = size[2 + i] - w->lo[i] - mty_shape(x)[2 + i];
    hi[2 + i] = h > 0 ? h : 0;
  }
  return emit_slice(f, emit_pad(f, x, lo, hi, v), start, size);
}

/* The TOSA pad attribute (top, bottom, left, right) for x and the output
 * extents o, cropping x when Relay's padding is more than the output
 * needs; false when that cannot be expressed (padding at least `limit`,
 * or a window that lies wholly in the padding). */
static bool tosa_pads(Fn *f, Val **x, const Win *w, const int64_t *o, int64_t limit[2],
                      int64_t *p) {
  int64_t start[4] = {0}, size[4];
  memcpy(size, mty_shape(*x), sizeof size);
  for (int i = 0; i < 2; i++) {
    int64_t n = mty_shape(*x)[2 + i], hi = win_need(w, i, o[i]) - w->lo[i] - n;
    if (hi < 0)
      size[2 + i] = n + hi, hi = 0;
    if (size[2 + i] < 1 || w->lo[i] >= limit[i] || hi >= limit[i])
      return false;
    p[2 * i] = w->lo[i];
    p[2 * i + 1] = hi;
  }
  *x = emit_slice(f, *x, start, size);
  return true;
}

static const int to_nhwc[4] = {0, 2, 3, 1}, to_nchw[4] = {0, 3, 1, 2};

/* "pad = array<i64: t, b, l, r>, stride = array<i64: h, w>" */
static char *pad_stride(Fn *f, const int64_t *p, const Win *w) {
  return arena_printf(f->t->a,
                      "pad = array<i64: %lld, %lld, %lld, %lld>, stride = array<i64: %lld, %lld>",
                      (long long)p[0], (long long)p[1], (long long)p[2], (long long)p[3],
                      (long long)w->s[0], (long long)w->s[1]);
}

/* "dilations = dense<..>, strides = dense<..>" for linalg's convolutions
 * and poolings. */
static char *linalg_window(Fn *f, const Win *w) {
  return arena_printf(f->t->a,
                      "{dilations = dense<[%lld, %lld]> : tensor<2xi64>, strides = "
                      "dense<[%lld, %lld]> : tensor<2xi64>}",
                      (long long)w->d[0], (long long)w->d[1], (long long)w->s[0],
                      (long long)w->s[1]);
}

/* A float conv2d of one group (or, depthwise, of every group at once
 * when each has one input channel): tosa.conv2d or tosa.depthwise_conv2d
 * on NHWC data and OHWI (depthwise: HWCM) weights. */
static Val *emit_conv_tosa(Fn *f, Val *x, Val *wt, const Win *w, const int64_t *o, bool depthwise) {
  int64_t p[4] = {0}, nolimit[2] = {INT64_MAX, INT64_MAX};
  if (!tosa_pads(f, &x, w, o, nolimit, p))
    x = emit_window_input(f, x, w, o, 0);
  int64_t n = mty_shape(x)[0], c = mty_shape(x)[1], oc = mty_shape(wt)[0];
  Val *wn;
  if (depthwise) {
    static const int hwcm[4] = {2, 3, 0, 1};
    int64_t s[4] = {c, oc / c, mty_shape(wt)[2], mty_shape(wt)[3]};
    wn = emit_transpose(f, emit_reshape(f, wt, 4, s), hwcm);
  } else {
    wn = emit_transpose(f, wt, to_nhwc);
  }
  Val *zp = emit_zero_point(f, mty_dtype(x));
  Val *a[5] = {emit_transpose(f, x, to_nhwc), wn, zp, zp, zp};
  int64_t rs[4] = {n, o[0], o[1], oc};
  char *attrs = arena_printf(f->t->a, "acc_type = %s, dilation = array<i64: %lld, %lld>, %s",
                             mty_elem(mty_dtype(x)), (long long)w->d[0], (long long)w->d[1],
                             pad_stride(f, p, w));
  Val *r = emit_tosa(f, depthwise ? "depthwise_conv2d" : "conv2d", attrs,
                     mty_tensor(f, mty_dtype(x), 4, rs), 5, a);
  return emit_transpose(f, r, to_nchw);
}

/* An integer conv2d of one group: linalg.conv_2d_nchw_fchw on the
 * explicitly padded input (TOSA convolves 8- and 16-bit integers only);
 * the arithmetic wraps, as relayc's. */
static Val *emit_conv_linalg(Fn *f, Val *x, Val *wt, const Win *w, const int64_t *o) {
  x = emit_window_input(f, x, w, o, 0);
  int64_t rs[4] = {mty_shape(x)[0], mty_shape(wt)[0], o[0], o[1]};
  return emit_linalg(f, "conv_2d_nchw_fchw", linalg_window(f, w), x, wt,
                     emit_fill(f, mty_tensor(f, mty_dtype(x), 4, rs), 0));
}

/* nn.conv2d (NCHW, OIHW): per group a convolution, joined along C. */
static Val *emit_conv2d(Fn *f, Val *x, Val *wt, const Attrs *at, const Type *rt) {
  DType dt = rt->tensor.dtype;
  x = emit_cast(f, x, dt);
  wt = emit_cast(f, wt, dt);
  Win w = window(at, mty_shape(wt) + 2);
  int64_t g = ir_attr_int(at, "groups", 1), o[2] = {rt->tensor.shape[2], rt->tensor.shape[3]};
  int64_t ic = mty_shape(x)[1], oc = mty_shape(wt)[0];
  bool fl = ir_dtype_is_float(dt);
  if (fl && g > 1 && g == ic)
    return emit_conv_tosa(f, x, wt, &w, o, true);
  Val **parts = ARENA_ARRAY(f->t->a, Val *, g);
  for (int64_t i = 0; i < g; i++) {
    int64_t xs[4] = {0, i * (ic / g), 0, 0},
            xz[4] = {mty_shape(x)[0], ic / g, mty_shape(x)[2], mty_shape(x)[3]};
    int64_t ws[4] = {i * (oc / g), 0, 0, 0},
            wz[4] = {oc / g, mty_shape(wt)[1], mty_shape(wt)[2], mty_shape(wt)[3]};
    Val *xg = emit_slice(f, x, xs, xz), *wg = emit_slice(f, wt, ws, wz);
    parts[i] = fl ? emit_conv_tosa(f, xg, wg, &w, o, false) : emit_conv_linalg(f, xg, wg, &w, o);
  }
  return emit_concat(f, (int)g, parts, 1);
}

/* "tensor.empty() : tensor<KHxKW>": the window shape linalg's poolings
 * take. */
static Val *emit_empty(Fn *f, const Type *t) {
  Val *v = fn_def(f, t, NULL);
  fn_out(f, "tensor.empty() : %s\n", v->ty);
  return v;
}

/* tosa.max_pool2d or tosa.avg_pool2d (op) of NCHW x with the TOSA
 * padding p, on NHWC. */
static Val *emit_pool_tosa(Fn *f, const char *op, Val *x, const Win *w, const int64_t *p,
                           const Type *rt) {
  bool avg = strcmp(op, "avg_pool2d") == 0;
  int64_t rs[4] = {rt->tensor.shape[0], rt->tensor.shape[2], rt->tensor.shape[3],
                   rt->tensor.shape[1]};
  char *attrs =
      arena_printf(f->t->a, "%skernel = array<i64: %lld, %lld>, %s", avg ? "acc_type = f32, " : "",
                   (long long)w->k[0], (long long)w->k[1], pad_stride(f, p, w));
  Val *a[3] = {emit_transpose(f, x, to_nhwc), NULL, NULL};
  if (avg)
    a[1] = a[2] = emit_zero_point(f, mty_dtype(x));
  Val *r = emit_tosa(f, op, attrs, mty_tensor(f, mty_dtype(x), 4, rs), avg ? 3 : 1, a);
  return emit_transpose(f, r, to_nchw);
}

/* nn.max_pool2d: padding is the lowest value (-inf, INT_MIN), a NaN wins.
 * tosa.max_pool2d for float32 without dilation when its padding can stay
 * below the kernel; otherwise linalg.pooling_nchw_max on the explicitly
 * padded input (int32, dilation, windows wholly in the padding). */
static Val *emit_max_pool(Fn *f, Val *x, const Win *w, const Type *rt) {
  int64_t o[2] = {rt->tensor.shape[2], rt->tensor.shape[3]}, p[4], k[2] = {w->k[0], w->k[1]};
  bool fl = ir_dtype_is_float(mty_dtype(x));
  double lowest = fl ? -INFINITY : (double)INT32_MIN;
  if (fl && w->d[0] == 1 && w->d[1] == 1 && tosa_pads(f, &x, w, o, k, p))
    return emit_pool_tosa(f, "max_pool2d", x, w, p, rt);
  Val *xe = emit_window_input(f, x, w, o, lowest);
  Val *kw = emit_empty(f, mty_tensor(f, mty_dtype(x), 2, w->k));
  return emit_linalg(f, "pooling_nchw_max", linalg_window(f, w), xe, kw, emit_fill(f, rt, lowest));
}

/* How many taps of window o along axis i count for the average: inside
 * the input, or (count_include_pad) inside input and written padding. */
static int64_t avg_count(const Win *w, int i, int64_t n, int64_t o, bool cip) {
  int64_t c = 0;
  for (int64_t t = 0; t < w->k[i]; t++) {
    int64_t at = o * w->s[i] - w->lo[i] + t * w->d[i];
    c += cip ? at <= n - 1 + w->hi[i] : at >= 0 && at < n;
  }
  return c;
}

/* nn.avg_pool2d: the sum of the counted taps over their count (0 when
 * none).  tosa.avg_pool2d divides by the taps outside its pad attribute,
 * so without dilation: count_include_pad pads explicitly first (those
 * zeros count) and the attribute holds only what must not count.
 * Otherwise linalg.pooling_nchw_sum times a constant 1 / count. */
static Val *emit_avg_pool(Fn *f, Val *x, const Win *w, bool cip, const Type *rt) {
  int64_t o[2] = {rt->tensor.shape[2], rt->tensor.shape[3]}, p[4], k[2] = {w->k[0], w->k[1]};
  if (w->d[0] == 1 && w->d[1] == 1) {
    Win v = *w;
    Val *y = x;
    if (cip) {
      int64_t lo[4] = {0, 0, w->lo[0], w->lo[1]}, hi[4] = {0, 0, w->hi[0], w->hi[1]};
      y = emit_pad(f, x, lo, hi, 0);
      v.lo[0] = v.lo[1] = v.hi[0] = v.hi[1] = 0;
    }
    if (tosa_pads(f, &y, &v, o, k, p))
      return emit_pool_tosa(f, "avg_pool2d", y, &v, p, rt);
  }
  Val *xe = emit_window_input(f, x, w, o, 0);
  Val *kw = emit_empty(f, mty_tensor(f, mty_dtype(x), 2, w->k));
  Val *sum = emit_linalg(f, "pooling_nchw_sum", linalg_window(f, w), xe, kw, emit_fill(f, rt, 0));
  int64_t cs[4] = {1, 1, o[0], o[1]};
  Tensor *inv = ir_tensor_new(f->t->a, mty_dtype(x), 4, cs);
  for (int64_t y = 0; y < o[0]; y++)
    for (int64_t z = 0; z < o[1]; z++) {
      int64_t c =
          avg_count(w, 0, mty_shape(x)[2], y, cip) * avg_count(w, 1, mty_shape(x)[3], z, cip);
      ir_tensor_set_f64(inv, y * o[1] + z, c ? 1.0 / (double)c : 0);
    }
  return emit_mul(f, sum, emit_const(f, inv));
}

/* nn.global_avg_pool2d: tosa.avg_pool2d with the whole H x W as window. */
static Val *emit_global_avg_pool(Fn *f, Val *x, const Type *rt) {
  Win w = {{mty_shape(x)[2], mty_shape(x)[3]}, {1, 1}, {1, 1}, {0, 0}, {0, 0}};
  int64_t p[4] = {0};
  return emit_pool_tosa(f, "avg_pool2d", x, &w, p, rt);
}

/* ----------------------------------------------------------- axis-wise */

/* v (a vector along x's axis) shaped to broadcast against x. */
static Val *emit_along(Fn *f, Val *v, const Val *x, int axis) {
  int64_t shape[IR_MAX_RANK];
  for (int i = 0; i < mty_rank(x); i++)
    shape[i] = i == axis ? mty_shape(v)[0] : 1;
  return emit_reshape(f, v, mty_rank(x), shape);
}

/* x / y with y broadcast to x's shape: exact IEEE division (arith.divf:
 * TOSA has none). */
static Val *emit_divide(Fn *f, Val *x, Val *y) {
  Val *a[2] = {x, emit_expand(f, y, mty_rank(x), mty_shape(x))};
  return emit_arith(f, "arith.divf", 2, a);
}

/* sqrt(v + eps) for the normalisations. */
static Val *emit_root_eps(Fn *f, Val *v, double eps) {
  Val *s;
  if ((float)eps != 0) {
    s = emit_bin(f, "add", v, emit_scalar_like(f, v, (float)eps));
  } else { /* still + 0 (-0 becomes +0), which MLIR 22.1 folds away in
              tosa.add but not in arith.addf (docs/findings/mlir.md #5) */
    Val *a[2] = {v, emit_fill(f, v->type, 0)};
    s = emit_arith(f, "arith.addf", 2, a);
  }
  return emit_arith(f, "math.sqrt", 1, &s);
}

/* softmax = exp(x - max) / sum exp(x - max), log_softmax = x - max -
 * log sum exp(x - max), along the axis (the terms are in (0, 1], so a
 * float32 sum is as good as relayc's double one). */
static Val *emit_softmax(Fn *f, OpId op, Val *x, const Attrs *at) {
  uint32_t m = 1u << attr_axis(ir_attr_int(at, "axis", -1), mty_rank(x));
  Val *d = emit_bin(f, "sub", x, emit_reduce_each(f, "reduce_max", x, m));
  Val *e = emit_tosa1(f, "exp", d, d->type);
  Val *s = emit_reduce_each(f, "reduce_sum", e, m);
  if (op == OP_SOFTMAX)
    return emit_mul(f, e, emit_tosa1(f, "reciprocal", s, s->type));
  return emit_bin(f, "sub", d, emit_tosa1(f, "log", s, s->type));
}

/* nn.batch_norm with the moving statistics: (x - mean) / sqrt(var + eps)
 * * gamma + beta, and mean and var passed through. */
static Val *emit_batch_norm(Fn *f, Val **a, const Attrs *at) {
  Val *x = a[0];
  int axis = attr_axis(ir_attr_int(at, "axis", 1), mty_rank(x));
  Val *r = emit_bin(f, "sub", x, emit_along(f, a[3], x, axis));
  r = emit_divide(
      f, r, emit_root_eps(f, emit_along(f, a[4], x, axis), ir_attr_float(at, "epsilon", 1e-5)));
  if (ir_attr_bool(at, "scale", true))
    r = emit_mul(f, r, emit_along(f, a[1], x, axis));
  if (ir_attr_bool(at, "center", true))
    r = emit_bin(f, "add", r, emit_along(f, a[2], x, axis));
  Val *v = ARENA_NEW(f->t->a, Val);
  v->n = 3;
  v->f = ARENA_ARRAY(f->t->a, Val *, 3);
  v->f[0] = r;
  v->f[1] = a[3];
  v->f[2] = a[4];
  return v;
}

/* nn.layer_norm: the mean and (population) variance of each slice along
 * the axis accumulated in double, as relayc's kernel does (a float32 mean
 * of equal values can miss them by an ulp, which the division by
 * sqrt(eps) would magnify), then the rest in float32. */
static Val *emit_layer_norm(Fn *f, Val **a, const Attrs *at) {
  Val *x = a[0];
  int axis = attr_axis(ir_attr_int(at, "axis", -1), mty_rank(x));
  Val *d = emit_bin(f, "sub", x, emit_float_sum(f, x, 1u << axis, true));
  Val *var = emit_float_sum(f, emit_mul(f, d, d), 1u << axis, true);
  Val *r = emit_divide(f, d, emit_root_eps(f, var, ir_attr_float(at, "epsilon", 1e-5)));
  if (ir_attr_bool(at, "scale", true))
    r = emit_mul(f, r, emit_along(f, a[1], x, axis));
  if (ir_attr_bool(at, "center", true))
    r = emit_bin(f, "add", r, emit_along(f, a[2], x, axis));
  return r;
}

/* x with dim `axis` replaced by the elements at src[0 .. n): runs of
 * consecutive indices become one slice, runs going down a reversed one. */
static Val *emit_axis_gather(Fn *f, Val *x, int axis, const int64_t *src, int64_t n) {
  Val **parts = ARENA_ARRAY(f->t->a, Val *, n);
  int np = 0;
  for (int64_t i = 0, j; i < n; i = j) {
    int64_t dir = i + 1 < n && (src[i + 1] == src[i] + 1 || src[i + 1] == src[i] - 1)
                      ? src[i + 1] - src[i]
                      : 0;
    for (j = i + 1; dir && j < n && src[j] == src[j - 1] + dir; j++)
      ;
    int64_t start[IR_MAX_RANK] = {0}, size[IR_MAX_RANK];
    memcpy(size, mty_shape(x), sizeof size);
    start[axis] = dir < 0 ? src[j - 1] : src[i];
    size[axis] = j - i;
    Val *p = emit_slice(f, x, start, size);
    parts[np++] = dir < 0 ? emit_reverse(f, p, axis) : p;
  }
  return emit_concat(f, np, parts, axis);
}

/* nn.pad.  Constant mode: crop where a pad is negative, then tosa.pad;
 * its pad value must be a compile-time constant, so a value known only at
 * run time is selected in with a mask.  Edge and reflect: per padded
 * axis, the source index of each output position (pad.c's k_pad),
 * gathered with slices. */
static Val *emit_pad_op(Fn *f, const Expr *e, Val **a, const Type *rt) {
  Val *x = a[0];
  const Attrs *at = &e->call.attrs;
  const Attr *pw = ir_attr_get(at, "pad_width");
  const char *mode = ir_attr_str(at, "pad_mode", "constant");
  int r = mty_rank(x);
  int64_t lo[IR_MAX_RANK] = {0}, hi[IR_MAX_RANK] = {0};
  for (int i = 0; pw && pw->kind == AV_PAIRS && i < r; i++)
    lo[i] = pw->ints[2 * i], hi[i] = pw->ints[2 * i + 1];
  if (strcmp(mode, "constant") != 0) {
    for (int i = 0; i < r; i++) {
      if (lo[i] == 0 && hi[i] == 0)
        continue;
      int64_t n = mty_shape(x)[i], m = rt->tensor.shape[i];
      int64_t *src = ARENA_ARRAY(f->t->a, int64_t, m);
      for (int64_t o = 0; o < m; o++) {
        int64_t k = o - lo[i];
        if (k < 0 || k >= n)
          k = mode[0] == 'e' ? (k < 0 ? 0 : n - 1) : (k < 0 ? -k : 2 * (n - 1) - k);
        src[o] = k;
      }
      x = emit_axis_gather(f, x, i, src, m);
    }
    return x;
  }
  int64_t start[IR_MAX_RANK], size[IR_MAX_RANK];
  for (int i = 0; i < r; i++) {
    start[i] = lo[i] < 0 ? -lo[i] : 0;
    size[i] = mty_shape(x)[i] - start[i] - (hi[i] < 0 ? -hi[i] : 0);
    lo[i] = lo[i] > 0 ? lo[i] : 0;
    hi[i] = hi[i] > 0 ? hi[i] : 0;
  }
  x = emit_slice(f, x, start, size);
  const Expr *v = e->call.args[1];
  if (v->kind == EX_CONST) {
    /* The value converted to x's dtype as relayc's kernel converts it. */
    Tensor *c = ir_tensor_new(f->t->a, mty_dtype(x), 0, NULL);
    if (ir_dtype_is_float(v->constant->dtype) || ir_dtype_is_float(c->dtype))
      ir_tensor_set_f64(c, 0, ir_tensor_get_f64(v->constant, 0));
    else
      ir_tensor_set_i64(c, 0, ir_tensor_get_i64(v->constant, 0));
    return emit_pad(f, x, lo, hi, ir_tensor_get_f64(c, 0));
  }
  Val *p = emit_pad(f, x, lo, hi, 0);
  Val *val = emit_expand(f, emit_cast(f, a[1], mty_dtype(x)), r, mty_shape(p));
  return emit_select(f, emit_pad_mask(f, x, lo, hi), p, val);
}

/* ------------------------------------------------------------ operators */

/* The translation of operator call e with translated arguments a. */
static Val *emit_op(Fn *f, const Expr *e, Val **a) {
  OpId op = e->call.op;
  const Attrs *at = &e->call.attrs;
  const Type *rt = e->type;
  OpRelFn rel = op_table[op].rel; /* the family, whatever ops.def's order */
  if (rel == rel_unary || rel == rel_cast)
    return emit_unary(f, op, a[0], at, rt);
  if (rel == rel_broadcast)
    return emit_broadcast(f, op, a[0], a[1], rt);
  switch (op) {
  case OP_WHERE: return emit_select(f, a[0], a[1], a[2]);
  case OP_SUM:
  case OP_MEAN:
  case OP_MAX:
  case OP_MIN:
  case OP_PROD: {
    Val *r = emit_reduce(f, op, a[0], reduce_axes(at, mty_rank(a[0])));
    return emit_reshape(f, r, rt->tensor.rank, rt->tensor.shape);
  }
  case OP_ARGMAX:
  case OP_ARGMIN: {
    uint32_t mask = reduce_axes(at, mty_rank(a[0]));
    Val *r = mask ? emit_arg_reduce(f, op, a[0], mask) : emit_fill(f, rt, 0);
    return emit_reshape(f, r, rt->tensor.rank, rt->tensor.shape);
  }
  case OP_DENSE: return emit_dense(f, a[0], a[1], rt);
  case OP_BATCH_MATMUL: return emit_batch_matmul(f, a[0], a[1], at, rt);
  case OP_CONV2D: return emit_conv2d(f, a[0], a[1], at, rt);
  case OP_MAX_POOL2D:
  case OP_AVG_POOL2D: {
    const int64_t *ps;
    int64_t k[2] = {1, 1};
    if (attr_ints(at, "pool_size", &ps) == 2)
      k[0] = ps[0], k[1] = ps[1];
    Win w = window(at, k);
    return op == OP_MAX_POOL2D
               ? emit_max_pool(f, a[0], &w, rt)
               : emit_avg_pool(f, a[0], &w, ir_attr_bool(at, "count_include_pad", false), rt);
  }
  case OP_GLOBAL_AVG_POOL2D: return emit_global_avg_pool(f, a[0], rt);
  case OP_SOFTMAX:
  case OP_LOG_SOFTMAX: return emit_softmax(f, op, a[0], at);
  case OP_BIAS_ADD:
    return emit_bin(
        f, "add", a[0],
        emit_along(f, a[1], a[0], attr_axis(ir_attr_int(at, "axis", 1), mty_rank(a[0]))));
  case OP_BATCH_NORM: return emit_batch_norm(f, a, at);
  case OP_LAYER_NORM: return emit_layer_norm(f, a, at);
  case OP_PAD: return emit_pad_op(f, e, a, rt);
  default: return emit_shape(f, op, a, at, rt);
  }
}

/* ---------------------------------------------------------- expressions */

static Val *emit_expr(Fn *f, const Expr *e);

/* A Val of type t whose tensor leaves are leaves[*pos ..]. */
static Val *build(Fn *f, const Type *t, Val **leaves, int *pos) {
  if (t->kind != TY_TUPLE)
    return leaves[(*pos)++];
  Val *v = ARENA_NEW(f->t->a, Val);
  v->n = t->tuple.n;
  v->f = ARENA_ARRAY(f->t->a, Val *, v->n);
  for (int i = 0; i < v->n; i++)
    v->f[i] = build(f, t->tuple.fields[i], leaves, pos);
  return v;
}

/* The tensor leaves of v into out (depth first); returns how many. */
static int leaves_of(Val *v, Val **out) {
  if (v->n < 0) {
    out[0] = v;
    return 1;
  }
  int n = 0;
  for (int i = 0; i < v->n; i++)
    n += leaves_of(v->f[i], out + n);
  return n;
}

static int count_leaves(const Type *t) {
  return mlt_flatten_type(t, NULL, 0);
}

/* Values of the given types, results of the operation whose line starts
 * here: "%7" for one, "%7#0", "%7#1", .. for several. */
static Val **fn_results(Fn *f, const Type **types, int n) {
  Val **r = ARENA_ARRAY(f->t->a, Val *, n + 1);
  if (n == 1) {
    r[0] = fn_def(f, types[0], NULL);
    return r;
  }
  int id = f->t->next++;
  for (int i = 0; i < n; i++) {
    r[i] = fn_fresh(f, types[i], NULL, NULL);
    r[i]->name = arena_printf(f->t->a, "%%%d#%d", id, i);
  }
  fn_line(f);
  fn_out(f, "%%%d:%d = ", id, n);
  f->last = NULL;
  return r;
}

/* ": T0, T1" or "(T0, T1)" lists of types. */
static void type_list(Fn *f, Val **v, int n, bool parens) {
  if (parens)
    fn_out(f, "(");
  for (int i = 0; i < n; i++)
    fn_out(f, "%s%s", i ? ", " : "", v[i]->ty);
  if (parens)
    fn_out(f, ")");
}

/* A variable's name as an SSA name hint ([A-Za-z0-9_]), or NULL. */
static const char *hint_of(Fn *f, const char *name) {
  if (!name || !*name)
    return NULL;
  char *h = arena_strdup(f->t->a, name);
  for (char *p = h; *p; p++)
    if (!(*p >= 'a' && *p <= 'z') && !(*p >= 'A' && *p <= 'Z') && !(*p >= '0' && *p <= '9'))
      *p = '_';
  return h;
}

/* Give v, just defined on the last line, the name of the let variable it
 * is bound to: "%12" becomes "%x_12". */
static void name_value(Fn *f, Val *v, const char *name) {
  const char *h = hint_of(f, name);
  if (!h || v != f->last || v->hint || v->level != f->level)
    return;
  buf_insert(fn_body(f), f->last_at + 1, arena_printf(f->t->a, "%s_", h));
  v->hint = h;
  v->name = arena_printf(f->t->a, "%%%s_%d", h, v->id);
  f->last = NULL;
}

/* Enter branch b of the region at the next level. */
static void fn_enter(Fn *f, Region *r, int b) {
  r->branch = b;
  f->reg[++f->level] = r;
}

/* Leave the branch: forget what was translated inside it. */
static void fn_leave(Fn *f) {
  while (f->nmemo > 0 && f->memo[f->nmemo - 1].level >= f->level)
    f->nmemo--;
  f->level--;
  f->last = NULL;
}

/* if (c) { a } else { b }: tosa.cond_if, both regions taking the outside
 * values they use as block arguments.  Inside another if it is scf.if:
 * tosa-to-scf in MLIR 22.1 fails to legalize a tosa.cond_if nested in
 * another (docs/findings/mlir.md). */
static Val *emit_if(Fn *f, const Expr *e) {
  const Type *t = e->type;
  int n = count_leaves(t);
  if (n == 0) /* nothing to compute: the branches have no effects */
    return build(f, t, NULL, &(int){0});
  Val *c = emit_expr(f, e->if_.cond);
  Region r = {.isolated = f->level == 0};
  const char *yield = r.isolated ? "tosa.yield" : "scf.yield";
  Val **leaves = ARENA_ARRAY(f->t->a, Val *, n);
  for (int b = 0; b < 2; b++) {
    fn_enter(f, &r, b);
    leaves_of(emit_expr(f, b ? e->if_.els : e->if_.then), leaves);
    const char *names[n];
    for (int i = 0; i < n; i++)
      names[i] = fn_use(f, leaves[i]);
    fn_line(f);
    fn_out(f, "%s", yield);
    for (int i = 0; i < n; i++)
      fn_out(f, "%s %s", i ? "," : "", names[i]);
    fn_out(f, " : ");
    type_list(f, leaves, n, false);
    fn_out(f, "\n");
    fn_leave(f);
  }
  const char *cn = fn_use(f, c);
  const char **outer = ARENA_ARRAY(f->t->a, const char *, r.ncap + 1);
  for (int i = 0; i < r.ncap; i++)
    outer[i] = fn_use(f, r.cap[i].outer);
  if (!r.isolated) {
    Val *ext = fn_def(f, NULL, "i1");
    fn_out(f, "tensor.extract %s[] : %s\n", cn, c->ty);
    cn = ext->name;
  }
  const Type **types = ARENA_ARRAY(f->t->a, const Type *, n);
  mlt_flatten_type(t, types, n);
  Val **res = fn_results(f, types, n);
  fn_out(f, "%s %s", r.isolated ? "tosa.cond_if" : "scf.if", cn);
  if (r.ncap) {
    fn_out(f, " (");
    for (int i = 0; i < r.ncap; i++)
      fn_out(f, "%s%s = %s", i ? ", " : "", r.cap[i].inner[0]->name, outer[i]);
    fn_out(f, ")");
  }
  if (r.isolated)
    fn_out(f, " : %s", c->ty);
  if (r.ncap) {
    fn_out(f, " (");
    for (int i = 0; i < r.ncap; i++)
      fn_out(f, "%s%s", i ? ", " : "", r.cap[i].outer->ty);
    fn_out(f, ")");
  }
  fn_out(f, " -> ");
  type_list(f, res, n, n != 1 || !r.isolated);
  fn_out(f, " {\n");
  for (int b = 0; b < 2; b++) {
    if (b) {
      fn_line(f);
      fn_out(f, "} else {\n");
    }
    if (r.ncap) {
      fn_line(f);
      fn_out(f, "^bb0(");
      for (int i = 0; i < r.ncap; i++)
        fn_out(f, "%s%s: %s", i ? ", " : "", r.cap[i].inner[b]->name, r.cap[i].outer->ty);
      fn_out(f, "):\n");
    }
    buf_put(fn_body(f), "%s", r.body[b].s ? r.body[b].s : "");
    free(r.body[b].s);
  }
  fn_line(f);
  fn_out(f, "}\n");
  free(r.cap);
  int pos = 0;
  return build(f, t, res, &pos);
}

static void emit_function(Tr *t, GlobalFn *g, Buf *dst);

/* A call of global g: func.call with the tensors of the arguments. */
static Val *emit_call_global(Fn *f, const Expr *e) {
  GlobalFn *g = e->call.callee->global;
  if (ptrmap_first(&f->t->done, g))
    emit_function(f->t, g, &f->t->funcs);
  int na = 0;
  for (int i = 0; i < e->call.nargs; i++)
    na += count_leaves(e->call.args[i]->type);
  Val **args = ARENA_ARRAY(f->t->a, Val *, na + 1);
  for (int i = 0, k = 0; i < e->call.nargs; i++)
    k += leaves_of(emit_expr(f, e->call.args[i]), args + k);
  int n = count_leaves(e->type);
  if (n == 0) /* a pure function with nothing to return */
    return build(f, e->type, NULL, &(int){0});
  const char **names = ARENA_ARRAY(f->t->a, const char *, na + 1);
  for (int i = 0; i < na; i++)
    names[i] = fn_use(f, args[i]);
  const Type **types = ARENA_ARRAY(f->t->a, const Type *, n);
  mlt_flatten_type(e->type, types, n);
  Val **res = fn_results(f, types, n);
  fn_out(f, "func.call @%s(", g->name);
  for (int i = 0; i < na; i++)
    fn_out(f, "%s%s", i ? ", " : "", names[i]);
  fn_out(f, ") : ");
  type_list(f, args, na, true);
  fn_out(f, " -> ");
  type_list(f, res, n, n != 1);
  fn_out(f, "\n");
  int pos = 0;
  return build(f, e->type, res, &pos);
}

static Val *emit_call(Fn *f, const Expr *e) {
  if (e->call.kind != CALL_OP)
    return emit_call_global(f, e);
  Val *a[OP_MAX_ARGS] = {0};
  for (int i = 0; i < e->call.nargs; i++)
    a[i] = emit_expr(f, e->call.args[i]);
  return emit_op(f, e, a);
}

static Val *emit_expr(Fn *f, const Expr *e) {
  Val *v;
  switch (e->kind) {
  case EX_VAR:
    v = fn_recall(f, e->var, NULL);
    assert(v && "a variable bound in scope");
    return v;
  case EX_CONST: return emit_const(f, e->constant);
  case EX_LET:
    v = emit_expr(f, e->let.value);
    if (v->n < 0)
      name_value(f, v, e->let.var->name);
    fn_remember(f, e->let.var, NULL, v);
    return emit_expr(f, e->let.body);
  default: break;
  }
  /* The rest may be shared: translated once per region. */
  if ((v = fn_recall(f, e, NULL)))
    return v;
  switch (e->kind) {
  case EX_TUPLE:
    v = ARENA_NEW(f->t->a, Val);
    v->n = e->tuple.n;
    v->f = ARENA_ARRAY(f->t->a, Val *, v->n + 1);
    for (int i = 0; i < v->n; i++)
      v->f[i] = emit_expr(f, e->tuple.fields[i]);
    break;
  case EX_PROJ: v = emit_expr(f, e->proj.tuple)->f[e->proj.index]; break;
  case EX_IF: v = emit_if(f, e); break;
  case EX_CALL: v = emit_call(f, e); break;
  default: assert(!"refused by accept_expr()"); return NULL;
  }
  fn_remember(f, e, NULL, v);
  return v;
}

/* Emit global g (or @main) as a func.func into dst. */
static void emit_function(Tr *t, GlobalFn *g, Buf *dst) {
  Fn f = {t};
  Region r0 = {0};
  f.reg[0] = &r0;
  const Expr *fn = g->func;
  int np = 0;
  for (int i = 0; i < fn->func.nparams; i++)
    np += count_leaves(fn->func.params[i]->type);
  Val **params = ARENA_ARRAY(t->a, Val *, np + 1);
  for (int i = 0, k = 0; i < fn->func.nparams; i++) {
    Var *p = fn->func.params[i];
    int n = count_leaves(p->type), pos = k;
    const Type **types = ARENA_ARRAY(t->a, const Type *, n + 1);
    mlt_flatten_type(p->type, types, n);
    for (int j = 0; j < n; j++)
      params[k++] = fn_fresh(&f, types[j], NULL, hint_of(&f, p->name));
    fn_remember(&f, p, NULL, build(&f, p->type, params, &pos));
  }
  Val *v = emit_expr(&f, fn->func.body);
  int n = count_leaves(fn->func.body->type);
  Val **res = ARENA_ARRAY(t->a, Val *, n + 1);
  leaves_of(v, res);
  fn_line(&f);
  fn_out(&f, "return");
  for (int i = 0; i < n; i++)
    fn_out(&f, "%s %s", i ? "," : "", fn_use(&f, res[i]));
  if (n) {
    fn_out(&f, " : ");
    type_list(&f, res, n, false);
  }
  fn_out(&f, "\n");
  bool main = strcmp(g->name, "main") == 0;
  buf_put(dst, "func.func %s@%s(", main ? "" : "private ", g->name);
  for (int i = 0; i < np; i++)
    buf_put(dst, "%s%s: %s", i ? ", " : "", params[i]->name, params[i]->ty);
  buf_put(dst, ")");
  if (n == 1)
    buf_put(dst, " -> %s", res[0]->ty);
  else if (n > 1) {
    buf_put(dst, " -> (");
    for (int i = 0; i < n; i++)
      buf_put(dst, "%s%s", i ? ", " : "", res[i]->ty);
    buf_put(dst, ")");
  }
  buf_put(dst, " {\n%s}\n", r0.body[0].s ? r0.body[0].s : "");
  free(r0.body[0].s);
  free(f.memo);
}

/* ---------------------------------------------------------------- check */

/* Refuse (with a reason in t->skip) what the emitters do not take. */
static bool refuse(Tr *t, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static bool refuse(Tr *t, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(t->skip, sizeof t->skip, fmt, ap);
  va_end(ap);
  return false;
}

/* Tensors of float32, int32 or bool with every dim >= 1 (TOSA rejects
 * empty tensors), and tuples of them. */
static bool accept_type(Tr *t, const Type *ty) {
  if (!ty)
    return refuse(t, "an expression without a type (the module is not type-checked)");
  if (ty->kind == TY_TUPLE) {
    for (int i = 0; i < ty->tuple.n; i++)
      if (!accept_type(t, ty->tuple.fields[i]))
        return false;
    return true;
  }
  if (ty->kind != TY_TENSOR)
    return refuse(t, "a value of a type other than tensors and tuples");
  DType dt = ty->tensor.dtype;
  if (dt != DT_FLOAT32 && dt != DT_INT32 && dt != DT_BOOL)
    return refuse(t, "dtype %s (float32, int32 and bool only)", ir_dtype_name(dt));
  for (int i = 0; i < ty->tensor.rank; i++)
    if (ty->tensor.shape[i] < 1)
      return refuse(t, "a tensor with an empty dim (TOSA wants dims >= 1)");
  return true;
}

static bool accept_global(Tr *t, GlobalFn *g, PtrMap *seen);

/* e and everything below it (shared nodes once). */
static bool accept_expr(Tr *t, const Expr *e, PtrMap *seen) {
  if (!ptrmap_first(seen, e))
    return true;
  if (!accept_type(t, e->type))
    return false;
  switch (e->kind) {
  case EX_VAR: return accept_type(t, e->var->type);
  case EX_CONST: return true;
  case EX_TUPLE:
    for (int i = 0; i < e->tuple.n; i++)
      if (!accept_expr(t, e->tuple.fields[i], seen))
        return false;
    return true;
  case EX_PROJ: return accept_expr(t, e->proj.tuple, seen);
  case EX_LET:
    return accept_type(t, e->let.var->type) && accept_expr(t, e->let.value, seen) &&
           accept_expr(t, e->let.body, seen);
  case EX_IF:
    return accept_expr(t, e->if_.cond, seen) && accept_expr(t, e->if_.then, seen) &&
           accept_expr(t, e->if_.els, seen);
  case EX_CALL:
    if (e->call.kind == CALL_CTOR)
      return refuse(t, "constructors (algebraic data types)");
    if (e->call.kind == CALL_EXPR) {
      if (e->call.callee->kind != EX_GLOBAL)
        return refuse(t, "a call of a closure");
      if (!accept_global(t, e->call.callee->global, seen))
        return false;
    }
    for (int i = 0; i < e->call.nargs; i++)
      if (!accept_expr(t, e->call.args[i], seen))
        return false;
    return true;
  case EX_GLOBAL: return refuse(t, "a global function used as a value");
  case EX_FUNC: return refuse(t, "a function literal");
  case EX_REF_NEW:
  case EX_REF_READ:
  case EX_REF_WRITE: return refuse(t, "references");
  case EX_MATCH: return refuse(t, "match");
  }
  return refuse(t, "an unknown expression");
}

/* A global @main calls: its parameters and body, and no recursion (the
 * seen map holds 1 while a global is being checked, 2 when done). */
static bool accept_global(Tr *t, GlobalFn *g, PtrMap *seen) {
  int added;
  int64_t *state = ptrmap_put(seen, g, &added);
  if (!added)
    return *state == 2 || refuse(t, "recursion (@%s calls itself)", g->name);
  *state = 1;
  if (!g->func || g->func->kind != EX_FUNC || g->func->func.ntvars)
    return refuse(t, "@%s is not a monomorphic function", g->name);
  if (strcmp(g->name, "entry") == 0)
    return refuse(t, "a global named @entry (the runner's entry function)");
  for (int i = 0; i < g->func->func.nparams; i++)
    if (!accept_type(t, g->func->func.params[i]->type))
      return false;
  if (!accept_expr(t, g->func->func.body, seen))
    return false;
  *ptrmap_get(seen, g) = 2;
  return true;
}

/* ------------------------------------------------------------------ API */

bool mlt_translate(const Module *m, MltResult *r) {
  memset(r, 0, sizeof *r);
  GlobalFn *main = ir_global_get(m, "main");
  Tr t = {.a = arena_new(), .m = m};
  t.done.arena = t.a;
  PtrMap seen = {.arena = t.a};
  bool ok = main && accept_global(&t, main, &seen);
  if (!main)
    refuse(&t, "no @main");
  if (ok) {
    Buf text = {0};
    ptrmap_put(&t.done, main, NULL);
    emit_function(&t, main, &text);
    buf_put(&t.funcs, "%s", text.s);
    free(text.s);
    r->text = t.funcs.s;
    /* The signature: @main's parameters and result, flattened. */
    const Expr *fn = main->func;
    MltSig *s = &r->sig;
    s->nparams = fn->func.nparams;
    s->params = malloc(sizeof *s->params * (size_t)(s->nparams + 1));
    for (int i = 0; i < s->nparams; i++) {
      s->params[i] = fn->func.params[i]->type;
      s->nargs += count_leaves(s->params[i]);
    }
    s->args = malloc(sizeof *s->args * (size_t)(s->nargs + 1));
    for (int i = 0, k = 0; i < s->nparams; i++)
      k += mlt_flatten_type(s->params[i], s->args + k, s->nargs - k);
    s->result = fn->func.body->type;
    s->nresults = count_leaves(s->result);
    s->results = malloc(sizeof *s->results * (size_t)(s->nresults + 1));
    mlt_flatten_type(s->result, s->results, s->nresults);
  } else {
    snprintf(r->skip, sizeof r->skip, "%s", t.skip);
    free(t.funcs.s);
  }
  arena_free(t.a);
  return ok;
}

void mlt_result_free(MltResult *r) {
  free(r->text);
  free(r->sig.params);
  free(r->sig.args);
  free(r->sig.results);
  memset(r, 0, sizeof *r);
}

/* ------------------------------------------------------- running (CLI) */

char *mlt_entry(const MltSig *sig, Tensor *const *args) {
  Buf b = {0};
  buf_put(&b, "func.func private @printMemrefI32(tensor<*xi32>)\n");
  buf_put(&b, "func.func @entry() {\n");
  for (int i = 0; i < sig->nargs; i++) {
    buf_put(&b, "  %%a%d = arith.constant ", i);
    buf_dense(&b, args[i]);
    buf_put(&b, "\n");
  }
  int n = sig->nresults;
  buf_put(&b, "  ");
  if (n == 1)
    buf_put(&b, "%%r = ");
  else if (n > 1)
    buf_put(&b, "%%r:%d = ", n);
  buf_put(&b, "func.call @main(");
  for (int i = 0; i < sig->nargs; i++)
    buf_put(&b, "%s%%a%d", i ? ", " : "", i);
  buf_put(&b, ") : (");
  for (int i = 0; i < sig->nargs; i++) {
    buf_put(&b, "%s", i ? ", " : "");
    buf_tensor_type(&b, args[i]->dtype, args[i]->rank, args[i]->shape);
  }
  buf_put(&b, ") -> (");
  for (int i = 0; i < n; i++) {
    const Type *t = sig->results[i];
    buf_put(&b, "%s", i ? ", " : "");
    buf_tensor_type(&b, t->tensor.dtype, t->tensor.rank, t->tensor.shape);
  }
  buf_put(&b, ")\n");
  for (int i = 0; i < n; i++) {
    const Type *t = sig->results[i];
    DType dt = t->tensor.dtype;
    char r[16];
    snprintf(r, sizeof r, n == 1 ? "%%r" : "%%r#%d", i);
    Buf ty = {0}, ity = {0};
    buf_tensor_type(&ty, dt, t->tensor.rank, t->tensor.shape);
    buf_tensor_type(&ity, DT_INT32, t->tensor.rank, t->tensor.shape);
    if (dt == DT_INT32)
      buf_put(&b, "  %%i%d = tensor.cast %s : %s to %s\n", i, r, ty.s, ty.s);
    else
      buf_put(&b, "  %%i%d = %s %s : %s to %s\n", i,
              dt == DT_BOOL ? "arith.extui" : "arith.bitcast", r, ty.s, ity.s);
    buf_put(&b, "  %%u%d = tensor.cast %%i%d : %s to tensor<*xi32>\n", i, i, ity.s);
    buf_put(&b, "  func.call @printMemrefI32(%%u%d) : (tensor<*xi32>) -> ()\n", i);
    free(ty.s);
    free(ity.s);
  }
  buf_put(&b, "  return\n}\n");
  return b.s;
}

bool mlt_parse_printed(const MltSig *sig, const char *out, Arena *a, Tensor **results, char *err,
                       size_t errlen) {
  const char *p = out;
  for (int i = 0; i < sig->nresults; i++) {
    const Type *t = sig->results[i];
    p = p ? strstr(p, "data =") : NULL;
    if (!p) {
      snprintf(err, errlen, "result %d was not printed", i);
      return false;
    }
    p += 6;
    Tensor *x = ir_tensor_of_type(a, t);
    for (int64_t k = 0; k < x->numel; k++) {
      while (*p && *p != '-' && (*p < '0' || *p > '9'))
        p++;
      char *end;
      long long v = strtoll(p, &end, 10);
      if (end == p) {
        snprintf(err, errlen, "result %d: %lld of %lld elements printed", i, (long long)k,
                 (long long)x->numel);
        return false;
      }
      p = end;
      if (x->dtype == DT_FLOAT32) {
        uint32_t bits = (uint32_t)(int32_t)v;
        memcpy((float *)x->data + k, &bits, 4);
      } else {
        ir_tensor_set_i64(x, k, v);
      }
    }
    results[i] = x;
  }
  return true;
}
