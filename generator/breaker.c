/*
 * breaker.c - the break stage (breaker.h): the catalogue, the walk that
 * finds every kind's sites in a checked program, the choice of one
 * defect, and one function per kind that makes it.
 *
 * A site is a place where a kind applies: an annotation, a literal, an
 * operator call and one of its schema's attributes, a call argument, an
 * if, a match clause, a pattern, a variable use, a let or function body.
 * Sites are collected in one walk (shared nodes once), in pre-order, so
 * site 0 of a kind is the first in the printed program, more or less.
 * Replacements are built fresh (a constant of the wrong type, a new
 * variable reference, a new pattern) and put into the site's slot, so a
 * node shared with another place is changed only where the site is;
 * literals, attributes and projections are changed in their node.
 */
#include "breaker.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "compiler/ir/ptrmap.h"
#include "compiler/typing/typing.h"
#include "gen_int.h"

/* ------------------------------------------------------------ catalogue */

static const struct {
  const char *name, *doc;
} catalogue[GB_COUNT] = {
#define X(id, name, doc) {name, doc},
    GEN_BREAKS(X)
#undef X
};

const char *gen_break_name(GenBreakKind k) {
  return (unsigned)k < GB_COUNT ? catalogue[k].name : "?";
}

bool gen_break_lookup(const char *name, GenBreakKind *out) {
  for (int k = 0; k < GB_COUNT; k++)
    if (strcmp(catalogue[k].name, name) == 0) {
      *out = (GenBreakKind)k;
      return true;
    }
  return false;
}

/* The default policy's programs (GEN_DEFAULT_DATA), with the break bytes. */
const GenPolicy gen_policy_reject = {
    .name = "reject",
    .doc = "the default policy's programs, each with one deliberate defect (breaker.h)",
    GEN_DEFAULT_DATA,
    .breaks = true,
};

/* -------------------------------------------------------------- sites */

typedef struct Site {
  GenBreakKind kind;
  const char *fn; /* the global it is in */
  Expr *e;        /* the node (the call, if, match, constant, ...) */
  Expr **slot;    /* the child to replace: an argument, a variable use, a
                     let or function body (OCCURS), a callee */
  Type **annot;   /* ANNOT_*: the annotation */
  Var *var;       /* ANNOT_*: the variable annotated (NULL: a return type) */
  Pattern **pat;  /* PATTERN_*: the pattern's slot */
  int i;          /* ATTR_*: the schema item; MATCH_ARM: the clause;
                     OP_ARG etc.: the argument */
  Var **scope;    /* OUT_OF_SCOPE: the variables in scope there */
  int nscope;
} Site;

/* A token of the printed program. */
typedef struct BTok {
  int off, len, line, col;
} BTok;

typedef struct Brk {
  Module *m;
  Arena *S; /* scratch: sites, scopes, tokens, strings */
  GenStream st;
  const char *fn;
  Var **scope;
  int nscope, capscope;
  Var **binders; /* every variable the module binds */
  int nbinders, capbinders;
  Site *sites;
  int nsites, capsites;
  BTok *toks;
  int ntoks, captoks;
  PtrMap seen;
  GenBreak *out;
} Brk;

/* Make room for one more element of an array in the scratch arena. */
static void *grow(Arena *S, void *old, int n, int *cap, size_t elem) {
  if (n < *cap)
    return old;
  int nc = *cap ? 2 * *cap : 32;
  void *p = arena_alloc(S, elem * (size_t)nc);
  if (n)
    memcpy(p, old, elem * (size_t)n);
  *cap = nc;
  return p;
}

#define PUSH(b, arr, n, cap, val)                                                                  \
  do {                                                                                             \
    (arr) = grow((b)->S, (arr), (n), &(cap), sizeof *(arr));                                       \
    (arr)[(n)++] = (val);                                                                          \
  } while (0)

/* A new site of kind k at e; the caller fills in the rest. */
static Site *add(Brk *b, GenBreakKind k, Expr *e, Expr **slot) {
  Site s = {.kind = k, .fn = b->fn, .e = e, .slot = slot};
  PUSH(b, b->sites, b->nsites, b->capsites, s);
  return &b->sites[b->nsites - 1];
}

/* A choice in [0, n) from the break bytes. */
static uint32_t choose(Brk *b, uint32_t n) {
  return gen_stream_below(&b->st, n);
}

/* --------------------------------------------------- types and values */

/* Tensors inside t in pre-order; with rank1 only those of rank >= 1.
 * When want >= 0, the want-th of them (else NULL). */
static Type *tensor_at(Type *t, bool rank1, int *count, int want) {
  if (!t)
    return NULL;
  switch (t->kind) {
  case TY_TENSOR:
    if (rank1 && t->tensor.rank < 1)
      return NULL;
    return (*count)++ == want ? t : NULL;
  case TY_TUPLE:
    for (int i = 0; i < t->tuple.n; i++) {
      Type *r = tensor_at(t->tuple.fields[i], rank1, count, want);
      if (r)
        return r;
    }
    return NULL;
  case TY_FUNC:
    for (int i = 0; i < t->func.nparams; i++) {
      Type *r = tensor_at(t->func.params[i], rank1, count, want);
      if (r)
        return r;
    }
    return tensor_at(t->func.ret, rank1, count, want);
  case TY_REF: return tensor_at(t->ref.inner, rank1, count, want);
  case TY_ADT:
    for (int i = 0; i < t->adt.nargs; i++) {
      Type *r = tensor_at(t->adt.args[i], rank1, count, want);
      if (r)
        return r;
    }
    return NULL;
  default: return NULL;
  }
}

static int count_tensors(Type *t, bool rank1) {
  int n = 0;
  tensor_at(t, rank1, &n, -1);
  return n;
}

/* t printed, in the scratch arena. */
static const char *tstr(Brk *b, const Type *t) {
  if (!t)
    return "?";
  char *s = ir_print_type(t);
  const char *r = arena_strdup(b->S, s);
  free(s);
  return r;
}

/* Change one dimension of tensor type t (owned by the caller). */
static void change_dim(Brk *b, Type *t) {
  int i = (int)choose(b, (uint32_t)t->tensor.rank);
  int64_t d = t->tensor.shape[i], cand[4];
  int n = 0;
  int64_t all[4] = {d + 1, d > 0 ? d - 1 : 2, d == 1 ? 3 : 1, d + 4};
  for (int k = 0; k < 4; k++) {
    bool dup = all[k] == d;
    for (int j = 0; j < n; j++)
      dup |= cand[j] == all[k];
    if (!dup)
      cand[n++] = all[k];
  }
  t->tensor.shape[i] = cand[choose(b, (uint32_t)n)];
}

/* Insert a dimension into tensor type t, or remove one. */
static void change_rank(Brk *b, Type *t) {
  int r = t->tensor.rank;
  bool remove = r == IR_MAX_RANK || (r > 0 && choose(b, 2) == 1);
  if (remove) {
    int i = (int)choose(b, (uint32_t)r);
    for (int k = i; k + 1 < r; k++)
      t->tensor.shape[k] = t->tensor.shape[k + 1];
    t->tensor.rank = r - 1;
    return;
  }
  int i = (int)choose(b, (uint32_t)r + 1);
  static const int64_t dims[3] = {2, 1, 3};
  for (int k = r; k > i; k--)
    t->tensor.shape[k] = t->tensor.shape[k - 1];
  t->tensor.shape[i] = dims[choose(b, 3)];
  t->tensor.rank = r + 1;
}

/* Give tensor type t another dtype. */
static void change_dtype(Brk *b, Type *t) {
  int k = (int)choose(b, DT_COUNT - 1);
  t->tensor.dtype = (DType)(k >= (int)t->tensor.dtype ? k + 1 : k);
}

/* A constant of tensor type t whose elements repeat those of from (zeros
 * without it); an Any dim of t (arange's length) is 1 in it. */
static Expr *tensor_const(Brk *b, const Type *t, const Tensor *from) {
  int64_t shape[IR_MAX_RANK];
  for (int i = 0; i < t->tensor.rank; i++)
    shape[i] = ir_dim_is_any(t->tensor.shape[i]) ? 1 : t->tensor.shape[i];
  Tensor *x = ir_tensor_new(b->m->arena, t->tensor.dtype, t->tensor.rank, shape);
  for (int64_t i = 0; from && from->numel && i < x->numel; i++)
    ir_tensor_set_f64(x, i, ir_tensor_get_f64(from, i % from->numel));
  return ir_const(b->m, x);
}

/* A literal of type t made of zeros and unit, or NULL when t holds
 * something that has no literal here (a function, a ref, an ADT). */
static Expr *zero_of(Brk *b, const Type *t) {
  if (t->kind == TY_TENSOR)
    return tensor_const(b, t, NULL);
  if (t->kind != TY_TUPLE)
    return NULL;
  Expr **fs = ARENA_ARRAY(b->S, Expr *, t->tuple.n + 1);
  for (int i = 0; i < t->tuple.n; i++)
    if (!(fs[i] = zero_of(b, t->tuple.fields[i])))
      return NULL;
  return ir_tuple(b->m, t->tuple.n, fs);
}

/* An expression whose type is not t: a constant of t with one
 * dimension, the rank or the dtype changed, unit, or a scalar.  Its
 * type goes to *nt. */
static Expr *wrong_of(Brk *b, const Type *t, const Type **nt) {
  enum { W_DIM, W_RANK, W_DTYPE, W_UNIT, W_SCALAR };
  int opts[5], n = 0;
  bool tensor = t && t->kind == TY_TENSOR;
  if (tensor && t->tensor.rank > 0 && !ir_type_has_any(t)) /* any dim matches an Any one */
    opts[n++] = W_DIM;
  if (tensor)
    opts[n++] = W_RANK, opts[n++] = W_DTYPE;
  if (!t || t->kind != TY_TUPLE || t->tuple.n)
    opts[n++] = W_UNIT;
  opts[n++] = W_SCALAR;
  int w = opts[choose(b, (uint32_t)n)];
  Arena *a = b->m->arena;
  if (w == W_UNIT) {
    *nt = ir_unit_type(a);
    return ir_tuple(b->m, 0, NULL);
  }
  Type *x;
  if (w == W_SCALAR) {
    x = ir_scalar_type(a, ir_type_is_scalar(t, DT_FLOAT32) ? DT_INT32 : DT_FLOAT32);
  } else {
    x = ir_type_copy(a, t);
    if (w == W_DIM)
      change_dim(b, x);
    else if (w == W_RANK)
      change_rank(b, x);
    else
      change_dtype(b, x);
  }
  *nt = x;
  return tensor_const(b, x, NULL);
}

/* Put an expression of another type than old's into *slot; describe it
 * as "<where>: <old type> replaced by a <new type> literal". */
static void replace_wrong(Brk *b, Expr **slot, const char *where) {
  const Type *old = (*slot)->type, *nt;
  *slot = wrong_of(b, old, &nt);
  snprintf(b->out->what, sizeof b->out->what, "%s: %s replaced by a %s literal", where,
           tstr(b, old), tstr(b, nt));
}

/* ---------------------------------------------------------- attributes */

/* The attribute kinds the ATTR_ defects cover, by attribute name. */
static const struct {
  const char *name;
  GenBreakKind kind;
} attr_kinds[] = {
    {"axis", GB_ATTR_AXIS},
    {"axes", GB_ATTR_AXIS},
    {"padding", GB_ATTR_PAD},
    {"pad_width", GB_ATTR_PAD},
    {"strides", GB_ATTR_STRIDE},
    {"dilation", GB_ATTR_DILATION},
    {"groups", GB_ATTR_GROUPS},
    {"newshape", GB_ATTR_SIZES},
    {"shape", GB_ATTR_SIZES},
    {"reps", GB_ATTR_SIZES},
    {"indices_or_sections", GB_ATTR_SIZES},
    {"begin", GB_ATTR_SIZES},
    {"end", GB_ATTR_SIZES},
    {"pool_size", GB_ATTR_SIZES},
    {"kernel_size", GB_ATTR_SIZES},
    {"channels", GB_ATTR_SIZES},
    {"units", GB_ATTR_SIZES},
    {"num_newaxis", GB_ATTR_SIZES},
    {"batch_dims", GB_ATTR_SIZES},
    {"dtype", GB_ATTR_VALUE},
    {"out_dtype", GB_ATTR_VALUE},
    {"mode", GB_ATTR_VALUE},
    {"slice_mode", GB_ATTR_VALUE},
    {"pad_mode", GB_ATTR_VALUE},
    {"layout", GB_ATTR_VALUE},
    {"data_layout", GB_ATTR_VALUE},
    {"kernel_layout", GB_ATTR_VALUE},
};

/* Item i of op's schema (ir_op_attr_at): its name and kind without the
 * "?", NUL-terminated; false past the last. */
static bool schema_item(OpId op, int i, char *name, size_t nn, char *kind, size_t kn) {
  AttrSpec a;
  if (!ir_op_attr_at(op, i, &a))
    return false;
  snprintf(name, nn, "%.*s", a.nlen, a.name);
  snprintf(kind, kn, "%.*s", a.klen, a.kind);
  return true;
}

static GenBreakKind attr_kind(const char *name) {
  for (size_t i = 0; i < sizeof attr_kinds / sizeof *attr_kinds; i++)
    if (strcmp(attr_kinds[i].name, name) == 0)
      return attr_kinds[i].kind;
  return GB_NONE;
}

/* The rank of a call's first tensor argument (a tuple's first field). */
static int arg_rank(const Expr *e) {
  const Type *t = e->call.nargs ? e->call.args[0]->type : NULL;
  if (t && t->kind == TY_TUPLE && t->tuple.n)
    t = t->tuple.fields[0];
  return t && t->kind == TY_TENSOR ? t->tensor.rank : 0;
}

/* Values for an attribute of kind k whose element is v, on an argument of
 * rank r: first those out of range for the kind, then the values every
 * integer attribute has special cases for (the -1 .. -4 of reshape, zero,
 * sizes too large to allocate, the extremes); distinct and != v.
 * Returns how many. */
static int bad_values(GenBreakKind k, int64_t v, int r, int64_t out[20]) {
  int64_t all[20];
  int n = 0;
  switch (k) {
  case GB_ATTR_AXIS: all[n++] = r, all[n++] = -r - 1, all[n++] = r + 2, all[n++] = 1000; break;
  case GB_ATTR_PAD: all[n++] = -1, all[n++] = -2, all[n++] = 100; break;
  case GB_ATTR_STRIDE:
  case GB_ATTR_DILATION: all[n++] = 0, all[n++] = -1, all[n++] = 100; break;
  case GB_ATTR_GROUPS: all[n++] = 0, all[n++] = -1, all[n++] = 3, all[n++] = 5; break;
  default: /* v + 1 and v - 1, without overflow at the extremes (strided_slice's end) */
    all[n++] = v < INT64_MAX ? v + 1 : 0, all[n++] = v > INT64_MIN ? v - 1 : 0;
    all[n++] = -5;
  }
  static const int64_t common[] = {0, -1, -2,      -3,        -4,        1,        2,
                                   7, 64, 1 << 20, 1ll << 40, INT64_MAX, INT64_MIN};
  for (size_t i = 0; i < sizeof common / sizeof *common; i++)
    all[n++] = common[i];
  int m = 0;
  for (int i = 0; i < n; i++) {
    bool dup = all[i] == v;
    for (int j = 0; j < m; j++)
      dup |= out[j] == all[i];
    if (!dup)
      out[m++] = all[i];
  }
  return m;
}

/* An attribute's value as text, for descriptions. */
static const char *attr_str(Brk *b, const Attr *x) {
  if (!x)
    return "(default)";
  char buf[200];
  size_t n = 0;
  switch (x->kind) {
  case AV_NONE: return "None";
  case AV_INT:
  case AV_BOOL: snprintf(buf, sizeof buf, "%lld", (long long)x->i); break;
  case AV_FLOAT: snprintf(buf, sizeof buf, "%g", x->f); break;
  case AV_STR: snprintf(buf, sizeof buf, "\"%s\"", x->s); break;
  case AV_INTS:
  case AV_PAIRS: {
    int cnt = x->kind == AV_PAIRS ? 2 * x->n : x->n;
    n += (size_t)snprintf(buf, sizeof buf, "[");
    for (int i = 0; i < cnt && n < sizeof buf - 24; i++)
      n +=
          (size_t)snprintf(buf + n, sizeof buf - n, "%s%lld", i ? ", " : "", (long long)x->ints[i]);
    snprintf(buf + n, sizeof buf - n, "]");
    break;
  }
  }
  return arena_strdup(b->S, buf);
}

/* ATTR_*: one attribute of the call out of range. */
static bool apply_attr(Brk *b, Site *s) {
  Expr *e = s->e;
  Arena *a = b->m->arena;
  char name[40], kind[16];
  if (!schema_item(e->call.op, s->i, name, sizeof name, kind, sizeof kind))
    return false;
  const Attr *cur = ir_attr_get(&e->call.attrs, name);
  const char *before = attr_str(b, cur);
  Attrs at = ir_attrs_copy(a, &e->call.attrs);
  if (cur && choose(b, 4) == 3) { /* dropped: the relation's default, or "required" */
    int n = 0;
    for (int i = 0; i < at.n; i++)
      if (strcmp(at.items[i].name, name) != 0)
        at.items[n++] = at.items[i];
    at.n = n;
    e->call.attrs = at;
    snprintf(b->out->what, sizeof b->out->what, "attribute %s of %s, %s, dropped", name,
             ir_op_name(e->call.op), before);
    return true;
  }
  int r = arg_rank(e);
  int64_t bad[20];
  if (strcmp(kind, "str") == 0) {
    /* unknown values, and values other attributes take (a pad_mode may
     * become "edge" or "reflect", a slice_mode "size") */
    static const char *const strs[] = {"float8", "NHWC", "bogus", "",     "edge",  "reflect",
                                       "wrap",   "clip", "size",  "OIHW", "int32", "bool"};
    ir_attr_set_str(a, &at, name, strs[choose(b, sizeof strs / sizeof *strs)]);
  } else if (strcmp(kind, "pairs") == 0) {
    int np = cur && cur->kind == AV_PAIRS ? cur->n : 0;
    int64_t v[2 * IR_MAX_RANK + 2] = {0};
    if (np > IR_MAX_RANK)
      np = IR_MAX_RANK;
    if (np)
      memcpy(v, cur->ints, sizeof *v * 2 * (size_t)np);
    int np2 = np ? np : 1;
    int i = (int)choose(b, (uint32_t)(2 * np2));
    int nb = bad_values(s->kind, v[i], r, bad);
    v[i] = bad[choose(b, (uint32_t)nb)];
    ir_attr_set_pairs(a, &at, name, np2, v);
  } else if (strcmp(kind, "ints") == 0 || (cur && cur->kind == AV_INTS) ||
             (cur && cur->kind == AV_NONE)) {
    int n = cur && cur->kind == AV_INTS ? cur->n : 0;
    int64_t v[IR_MAX_RANK + 2] = {0};
    if (n > IR_MAX_RANK)
      n = IR_MAX_RANK;
    if (n)
      memcpy(v, cur->ints, sizeof *v * (size_t)n);
    enum { CHANGE, APPEND, DROP, REPEAT };
    int ops[4], no = 0;
    if (n)
      ops[no++] = CHANGE;
    ops[no++] = APPEND;
    if (n && s->kind != GB_ATTR_AXIS) /* fewer axes are still in range */
      ops[no++] = DROP;
    if (n && s->kind == GB_ATTR_AXIS)
      ops[no++] = REPEAT;
    int op = ops[choose(b, (uint32_t)no)];
    if (op == CHANGE) {
      int i = (int)choose(b, (uint32_t)n);
      int nb = bad_values(s->kind, v[i], r, bad);
      v[i] = bad[choose(b, (uint32_t)nb)];
    } else if (op == APPEND) {
      int nb = bad_values(s->kind, n ? v[n - 1] : 1, r, bad);
      v[n++] = bad[choose(b, (uint32_t)nb)];
    } else if (op == DROP) {
      n--;
    } else {
      v[n] = v[choose(b, (uint32_t)n)];
      n++;
    }
    ir_attr_set_ints(a, &at, name, n, v);
  } else if (strcmp(kind, "int") == 0 || strcmp(kind, "int|ints") == 0) {
    int64_t v = cur && cur->kind == AV_INT ? cur->i : 0;
    int nb = bad_values(s->kind, v, r, bad);
    ir_attr_set_int(a, &at, name, bad[choose(b, (uint32_t)nb)]);
  } else {
    return false;
  }
  e->call.attrs = at;
  snprintf(b->out->what, sizeof b->out->what, "attribute %s of %s: %s -> %s", name,
           ir_op_name(e->call.op), before, attr_str(b, ir_attr_get(&at, name)));
  return true;
}

/* -------------------------------------------------------------- walk */

static void walk(Brk *b, Expr **slot);

/* Sites of an annotation (*t, of v or a return type) at e. */
static void annot_sites(Brk *b, Type **t, Var *v, Expr *e) {
  if (!*t)
    return;
  GenBreakKind ks[4] = {GB_ANNOT_DROP, GB_ANNOT_DTYPE, GB_ANNOT_RANK, GB_ANNOT_DIM};
  for (int i = 0; i < 4; i++) {
    if ((ks[i] != GB_ANNOT_DROP && !count_tensors(*t, false)) ||
        (ks[i] == GB_ANNOT_DIM && !count_tensors(*t, true)))
      continue;
    Site *s = add(b, ks[i], e, NULL);
    s->annot = t;
    s->var = v;
  }
}

/* Bring v into scope (and remember it binds somewhere). */
static void bind(Brk *b, Var *v) {
  PUSH(b, b->scope, b->nscope, b->capscope, v);
  PUSH(b, b->binders, b->nbinders, b->capbinders, v);
}

/* The sites of a pattern of match e, binding its variables. */
static void walk_pat(Brk *b, Expr *e, Pattern **slot) {
  Pattern *p = *slot;
  if (!p)
    return;
  switch (p->kind) {
  case PAT_WILD: return;
  case PAT_VAR:
    annot_sites(b, &p->var->annot, p->var, e);
    bind(b, p->var);
    return;
  case PAT_CTOR:
  case PAT_TUPLE:
    add(b, p->kind == PAT_CTOR ? GB_PATTERN_CTOR : GB_PATTERN_TUPLE, e, NULL)->pat = slot;
    for (int i = 0; i < p->n; i++)
      walk_pat(b, e, &p->sub[i]);
    return;
  }
}

/* The sites of a function literal's (or a global's) signature and body. */
static void walk_func(Brk *b, Expr *f) {
  int mark = b->nscope;
  for (int i = 0; i < f->func.nparams; i++) {
    annot_sites(b, &f->func.params[i]->annot, f->func.params[i], f);
    bind(b, f->func.params[i]);
  }
  annot_sites(b, &f->func.ret, NULL, f);
  add(b, GB_OCCURS, f, &f->func.body);
  walk(b, &f->func.body);
  b->nscope = mark;
}

static void walk_call(Brk *b, Expr *e) {
  static const GenBreakKind arity[3] = {GB_OP_ARITY, GB_CTOR_ARITY, GB_CALL_ARITY};
  static const GenBreakKind arg[3] = {GB_OP_ARG, GB_CTOR_ARG, GB_CALL_ARG};
  CallKind ck = e->call.kind;
  add(b, arity[ck], e, NULL);
  for (int i = 0; i < e->call.nargs; i++) {
    add(b, arg[ck], e, &e->call.args[i])->i = i;
    Expr *x = e->call.args[i];
    /* concatenate and stack: the tensors in their tuple are arguments */
    if (ck == CALL_OP && x->kind == EX_TUPLE)
      for (int j = 0; j < x->tuple.n; j++)
        add(b, GB_OP_ARG, e, &x->tuple.fields[j])->i = i;
  }
  if (ck == CALL_EXPR) {
    add(b, GB_CALLEE, e, &e->call.callee);
    walk(b, &e->call.callee);
  }
  if (ck == CALL_OP) {
    char name[40], kind[16];
    for (int i = 0; schema_item(e->call.op, i, name, sizeof name, kind, sizeof kind); i++) {
      GenBreakKind k = attr_kind(name);
      if (k != GB_NONE)
        add(b, k, e, NULL)->i = i;
    }
  }
  for (int i = 0; i < e->call.nargs; i++)
    walk(b, &e->call.args[i]);
}

static void walk(Brk *b, Expr **slot) {
  Expr *e = *slot;
  if (!e || !ptrmap_first(&b->seen, e))
    return;
  switch (e->kind) {
  case EX_VAR: {
    add(b, GB_UNBOUND_VAR, e, slot);
    Site *s = add(b, GB_OUT_OF_SCOPE, e, slot);
    s->nscope = b->nscope;
    s->scope = ARENA_ARRAY(b->S, Var *, b->nscope + 1);
    memcpy(s->scope, b->scope, sizeof *s->scope * (size_t)b->nscope);
    break;
  }
  case EX_GLOBAL: break;
  case EX_CONST:
    add(b, GB_LIT_DTYPE, e, NULL);
    add(b, GB_LIT_RANK, e, NULL);
    if (e->constant->rank > 0)
      add(b, GB_LIT_DIM, e, NULL);
    break;
  case EX_TUPLE:
    for (int i = 0; i < e->tuple.n; i++)
      walk(b, &e->tuple.fields[i]);
    break;
  case EX_PROJ:
    if (e->proj.tuple->type && e->proj.tuple->type->kind == TY_TUPLE)
      add(b, GB_PROJ_INDEX, e, NULL);
    walk(b, &e->proj.tuple);
    break;
  case EX_LET: {
    int mark = b->nscope;
    Var *v = e->let.var;
    annot_sites(b, &v->annot, v, e);
    bool rec = e->let.value->kind == EX_FUNC; /* let %f = fn: %f is in scope */
    if (rec)
      bind(b, v);
    walk(b, &e->let.value);
    if (!rec)
      bind(b, v);
    add(b, GB_OCCURS, e, &e->let.body);
    walk(b, &e->let.body);
    b->nscope = mark;
    break;
  }
  case EX_IF:
    add(b, GB_IF_COND, e, &e->if_.cond);
    add(b, GB_IF_BRANCH, e, NULL);
    walk(b, &e->if_.cond);
    walk(b, &e->if_.then);
    walk(b, &e->if_.els);
    break;
  case EX_CALL: walk_call(b, e); break;
  case EX_FUNC: walk_func(b, e); break;
  case EX_REF_NEW: walk(b, &e->ref_new.value); break;
  case EX_REF_READ:
    add(b, GB_REF_READ, e, &e->ref_read.ref);
    walk(b, &e->ref_read.ref);
    break;
  case EX_REF_WRITE:
    add(b, GB_REF_WRITE, e, &e->ref_write.value);
    walk(b, &e->ref_write.ref);
    walk(b, &e->ref_write.value);
    break;
  case EX_MATCH:
    walk(b, &e->match.scrut);
    if (e->match.complete && e->match.n >= 2)
      add(b, GB_MATCH_COVER, e, NULL);
    for (int i = 0; i < e->match.n; i++) {
      int mark = b->nscope;
      if (e->match.n >= 2)
        add(b, GB_MATCH_ARM, e, &e->match.clauses[i].body)->i = i;
      walk_pat(b, e, &e->match.clauses[i].pat);
      walk(b, &e->match.clauses[i].body);
      b->nscope = mark;
    }
    break;
  }
}

/* Is v among vs[0, n)? */
static bool has_var(Var *const *vs, int n, const Var *v) {
  for (int i = 0; i < n; i++)
    if (vs[i] == v)
      return true;
  return false;
}

/* The variables bound somewhere but not in s's scope (nor s's own). */
static int out_of_scope(Brk *b, const Site *s, Var **out) {
  int n = 0;
  for (int i = 0; i < b->nbinders; i++) {
    Var *v = b->binders[i];
    if (v != s->e->var && !has_var(s->scope, s->nscope, v) && !has_var(out, n, v))
      out[n++] = v;
  }
  return n;
}

/* -------------------------------------------------------------- tokens */

/* Split the printed program into tokens: names (with %, @ and dots),
 * numbers (with suffixes and exponents), strings, and punctuation, the
 * two-character arrows and comparisons as one. */
static void tokenize(Brk *b, const char *s) {
  int line = 1, col = 1;
  for (int i = 0; s[i];) {
    char c = s[i];
    if (c == '\n' || c == ' ' || c == '\t') {
      if (c == '\n')
        line++, col = 1;
      else
        col++;
      i++;
      continue;
    }
    int j = i + 1;
    if (c == '/' && s[j] == '/') {
      while (s[j] && s[j] != '\n')
        j++;
      col += j - i;
      i = j;
      continue;
    }
    if (c == '%' || c == '@' || c == '_' || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z')) {
      bool dots = c != '%' && c != '@'; /* nn.conv2d, but %t.0 is a projection */
      while (s[j] == '_' || (dots && s[j] == '.') || (s[j] >= 'a' && s[j] <= 'z') ||
             (s[j] >= 'A' && s[j] <= 'Z') || (s[j] >= '0' && s[j] <= '9'))
        j++;
    } else if (c >= '0' && c <= '9') {
      while ((s[j] >= '0' && s[j] <= '9') || (s[j] >= 'a' && s[j] <= 'z') || s[j] == '.' ||
             ((s[j] == '-' || s[j] == '+') && s[j - 1] == 'e'))
        j++;
    } else if (c == '"') {
      while (s[j] && s[j] != '"')
        j += s[j] == '\\' && s[j + 1] ? 2 : 1;
      if (s[j])
        j++;
    } else if (strchr("-=!<>", c) && (s[j] == '>' || s[j] == '=')) {
      j++;
    }
    BTok t = {i, j - i, line, col};
    PUSH(b, b->toks, b->ntoks, b->captoks, t);
    col += j - i;
    i = j;
  }
}

/* Tokens a replacement may put in besides the program's own: the
 * grammar's keywords and punctuation, and the lexer's harder cases
 * (literals with suffixes, exponents, NaN payloads and escapes, comments,
 * characters it does not know). */
static const char *const grammar_tokens[] = {
    "(",
    ")",
    "{",
    "}",
    "[",
    "]",
    ",",
    ";",
    ":",
    "=",
    ".",
    "->",
    "=>",
    "==",
    "!=",
    "<=",
    "+",
    "*",
    "/",
    "_",
    "let",
    "fn",
    "if",
    "else",
    "match",
    "match?",
    "ref",
    "ref_read",
    "ref_write",
    "free_var",
    "def",
    "type",
    "Tensor",
    "Ref",
    "float32",
    "int64",
    "bool",
    "%x",
    "%0",
    "@main",
    "0",
    "1f",
    "-1",
    "1e-05",
    "2.5f64",
    "-7i8",
    "99999999999i32",
    "1e39f",
    "nan",
    "-inf",
    "nan0x7fc00001f",
    "0x10",
    "1.5i32",
    "True",
    "None",
    "add",
    "Cons",
    "Nil",
    "\"int32\"",
    "\"a\\n\\t\\x41\"",
    "\"\\q\"",
    "\"open",
    "/* a */",
    "/*",
    "// c\n",
    "#",
    "$",
    "`",
    "(2, 3)",
    "Primitive=1",
    "Inline=1",
    "#[version = \"0.0.4\"]",
};

/* The text kinds: one token deleted, doubled, swapped with the next or
 * replaced, in b->out->text. */
static void apply_text(Brk *b, GenBreakKind k, int i) {
  const char *s = b->out->text;
  size_t len = strlen(s);
  BTok t = b->toks[i];
  const char *ins = NULL; /* what goes in place of token i */
  char buf[64];
  snprintf(buf, sizeof buf, "%.*s", t.len < 40 ? t.len : 40, s + t.off);
  size_t from = (size_t)t.off, to = (size_t)(t.off + t.len);
  char *r = malloc(2 * len + 256); /* at most one token (of the text, or the table's) more */
  if (!r)
    abort();
  size_t n = 0;
  memcpy(r, s, from);
  n = from;
  switch (k) {
  case GB_TOK_DELETE:
    snprintf(b->out->what, sizeof b->out->what, "token `%s` at %d:%d deleted", buf, t.line, t.col);
    break;
  case GB_TOK_DUP:
    memcpy(r + n, s + t.off, (size_t)t.len);
    n += (size_t)t.len;
    r[n++] = ' ';
    memcpy(r + n, s + t.off, (size_t)t.len);
    n += (size_t)t.len;
    snprintf(b->out->what, sizeof b->out->what, "token `%s` at %d:%d written twice", buf, t.line,
             t.col);
    break;
  case GB_TOK_SWAP: {
    BTok u = b->toks[i + 1];
    memcpy(r + n, s + u.off, (size_t)u.len);
    n += (size_t)u.len;
    memcpy(r + n, s + to, (size_t)(u.off - (int)to));
    n += (size_t)u.off - to;
    memcpy(r + n, s + t.off, (size_t)t.len);
    n += (size_t)t.len;
    to = (size_t)(u.off + u.len);
    snprintf(b->out->what, sizeof b->out->what, "tokens `%s` and `%.*s` at %d:%d swapped", buf,
             u.len < 40 ? u.len : 40, s + u.off, t.line, t.col);
    break;
  }
  default: {
    int ng = (int)(sizeof grammar_tokens / sizeof *grammar_tokens);
    int c = (int)choose(b, (uint32_t)(ng + b->ntoks));
    if (c < ng) {
      ins = grammar_tokens[strcmp(grammar_tokens[c], buf) == 0 ? (c + 1) % ng : c];
    } else { /* another token of the program */
      BTok u = b->toks[c - ng];
      ins = arena_strndup(b->S, s + u.off, (size_t)u.len);
    }
    size_t il = strlen(ins);
    memcpy(r + n, ins, il);
    n += il;
    snprintf(b->out->what, sizeof b->out->what, "token `%s` at %d:%d replaced by `%s`", buf, t.line,
             t.col, ins);
  }
  }
  memcpy(r + n, s + to, len - to);
  n += len - to;
  r[n] = 0;
  free(b->out->text);
  b->out->text = r;
}

/* ------------------------------------------------------------- defects */

/* A call with one argument too few, or one more (a literal of the last
 * argument's type, or unit). */
static void apply_arity(Brk *b, Expr *e) {
  int n = e->call.nargs;
  bool drop = n > 0 && choose(b, 2) == 0;
  Expr **args = ARENA_ARRAY(b->m->arena, Expr *, n + 1);
  if (n)
    memcpy(args, e->call.args, sizeof *args * (size_t)n);
  if (drop) {
    n--;
  } else {
    Expr *x = n && args[n - 1]->type ? zero_of(b, args[n - 1]->type) : NULL;
    args[n++] = x ? x : ir_tuple(b->m, 0, NULL);
  }
  snprintf(b->out->what, sizeof b->out->what, "%d arguments instead of %d", n, e->call.nargs);
  e->call.args = args;
  e->call.nargs = n;
}

/* What a call is, for descriptions. */
static const char *call_str(Brk *b, const Expr *e) {
  switch (e->call.kind) {
  case CALL_OP: return ir_op_name(e->call.op);
  case CALL_CTOR: return arena_printf(b->S, "constructor %s", e->call.ctor->name);
  default:
    if (e->call.callee->kind == EX_GLOBAL)
      return arena_printf(b->S, "@%s", e->call.callee->global->name);
    if (e->call.callee->kind == EX_VAR)
      return arena_printf(b->S, "%%%s", e->call.callee->var->name);
    return "a closure";
  }
}

/* A constructor of another type definition than def, chosen. */
static Ctor *other_ctor(Brk *b, const TypeDef *def) {
  int n = 0;
  for (int t = 0; t < b->m->ntypes; t++)
    if (b->m->types[t] != def)
      n += b->m->types[t]->nctors;
  int k = (int)choose(b, (uint32_t)n);
  for (int t = 0; t < b->m->ntypes; t++) {
    TypeDef *d = b->m->types[t];
    if (d == def)
      continue;
    if (k < d->nctors)
      return d->ctors[k];
    k -= d->nctors;
  }
  return NULL;
}

static bool apply_pattern(Brk *b, Site *s) {
  Pattern *p = *s->pat;
  Pattern **sub;
  if (s->kind == GB_PATTERN_CTOR) {
    Ctor *c = other_ctor(b, p->ctor->def);
    if (!c)
      return false;
    sub = ARENA_ARRAY(b->m->arena, Pattern *, c->nfields + 1);
    for (int i = 0; i < c->nfields; i++)
      sub[i] = c->nfields == p->n ? p->sub[i] : ir_pat_wild(b->m);
    *s->pat = ir_pat_ctor(b->m, c, c->nfields, sub);
    snprintf(b->out->what, sizeof b->out->what, "pattern %s (of %s) replaced by %s (of %s)",
             p->ctor->name, p->ctor->def->name, c->name, c->def->name);
    return true;
  }
  int n = p->n;
  bool drop = n > 0 && choose(b, 2) == 1;
  sub = ARENA_ARRAY(b->m->arena, Pattern *, n + 1);
  for (int i = 0; i < n; i++)
    sub[i] = p->sub[i];
  if (!drop)
    sub[n] = ir_pat_wild(b->m);
  int nn = drop ? n - 1 : n + 1;
  *s->pat = ir_pat_tuple(b->m, nn, sub);
  snprintf(b->out->what, sizeof b->out->what, "a tuple pattern of %d fields now has %d", n, nn);
  return true;
}

/* let %w = fn (%f) { %f(%f) }  or  fn (%r) { ref_write(%r, %r) }  put
 * before the expression in the slot. */
static void apply_occurs(Brk *b, Expr **slot) {
  Module *m = b->m;
  Var *f = ir_var(m, "f", NULL), *w = ir_var(m, "w", NULL);
  Expr *body;
  if (choose(b, 2) == 0) {
    Expr *arg = ir_var_ref(m, f);
    body = ir_call(m, ir_var_ref(m, f), 1, &arg);
    snprintf(b->out->what, sizeof b->out->what, "let %%w = fn (%%f) { %%f(%%f) } inserted");
  } else {
    body = ir_ref_write(m, ir_var_ref(m, f), ir_var_ref(m, f));
    snprintf(b->out->what, sizeof b->out->what,
             "let %%w = fn (%%f) { ref_write(%%f, %%f) } inserted");
  }
  *slot = ir_let(m, w, ir_func(m, 1, &f, NULL, body), *slot);
}

/* ANNOT_*: one tensor of the annotation changed, or the annotation
 * removed. */
static void apply_annot(Brk *b, Site *s) {
  Type *old = *s->annot, *t = ir_type_copy(b->m->arena, old);
  const char *whose = s->var ? arena_printf(b->S, "the annotation of %%%s", s->var->name)
                             : "a return type annotation";
  if (s->kind == GB_ANNOT_DROP) {
    *s->annot = NULL;
    snprintf(b->out->what, sizeof b->out->what, "%s, %s, removed", whose, tstr(b, old));
    return;
  }
  bool rank1 = s->kind == GB_ANNOT_DIM;
  int cnt = 0;
  Type *x = tensor_at(t, rank1, &cnt, (int)choose(b, (uint32_t)count_tensors(t, rank1)));
  if (s->kind == GB_ANNOT_DIM)
    change_dim(b, x);
  else if (s->kind == GB_ANNOT_RANK)
    change_rank(b, x);
  else
    change_dtype(b, x);
  *s->annot = t;
  snprintf(b->out->what, sizeof b->out->what, "%s: %s -> %s", whose, tstr(b, old), tstr(b, t));
}

/* LIT_*: the constant's type changed, its elements repeated. */
static void apply_lit(Brk *b, Site *s) {
  Tensor *c = s->e->constant;
  Type *old = ir_tensor_type_of(b->m->arena, c), *t = ir_type_copy(b->m->arena, old);
  if (s->kind == GB_LIT_DIM)
    change_dim(b, t);
  else if (s->kind == GB_LIT_RANK)
    change_rank(b, t);
  else
    change_dtype(b, t);
  s->e->constant = tensor_const(b, t, c)->constant;
  snprintf(b->out->what, sizeof b->out->what, "a literal of type %s now has type %s", tstr(b, old),
           tstr(b, t));
}

/* Apply the defect of site s; false when it cannot be made after all. */
static bool apply(Brk *b, Site *s) {
  Expr *e = s->e;
  char where[160];
  switch (s->kind) {
  case GB_ANNOT_DIM:
  case GB_ANNOT_RANK:
  case GB_ANNOT_DTYPE:
  case GB_ANNOT_DROP: apply_annot(b, s); return true;
  case GB_LIT_DIM:
  case GB_LIT_RANK:
  case GB_LIT_DTYPE: apply_lit(b, s); return true;
  case GB_ATTR_AXIS:
  case GB_ATTR_PAD:
  case GB_ATTR_STRIDE:
  case GB_ATTR_DILATION:
  case GB_ATTR_GROUPS:
  case GB_ATTR_SIZES:
  case GB_ATTR_VALUE: return apply_attr(b, s);
  case GB_OP_ARG:
  case GB_CALL_ARG:
  case GB_CTOR_ARG:
    if (!(*s->slot)->type)
      return false;
    snprintf(where, sizeof where, "argument %d of %s", s->i, call_str(b, e));
    replace_wrong(b, s->slot, where);
    return true;
  case GB_OP_ARITY:
  case GB_CALL_ARITY:
  case GB_CTOR_ARITY: {
    const char *who = call_str(b, e);
    apply_arity(b, e);
    size_t n = strlen(b->out->what);
    snprintf(b->out->what + n, sizeof b->out->what - n, " in a call of %s", who);
    return true;
  }
  case GB_CALLEE:
    snprintf(where, sizeof where, "the callee of a call of %s", call_str(b, e));
    replace_wrong(b, s->slot, where);
    return true;
  case GB_IF_COND: replace_wrong(b, s->slot, "the condition of an if"); return true;
  case GB_IF_BRANCH:
    if (choose(b, 2) == 0)
      replace_wrong(b, &e->if_.els, "the else branch of an if");
    else
      replace_wrong(b, &e->if_.then, "the then branch of an if");
    return true;
  case GB_MATCH_ARM:
    snprintf(where, sizeof where, "the body of clause %d of a match", s->i);
    replace_wrong(b, s->slot, where);
    return true;
  case GB_MATCH_COVER: {
    int n = e->match.n, k = (int)choose(b, (uint32_t)n);
    Clause *cs = ARENA_ARRAY(b->m->arena, Clause, n);
    for (int i = 0, j = 0; i < n; i++)
      if (i != k)
        cs[j++] = e->match.clauses[i];
    e->match.clauses = cs;
    e->match.n = n - 1;
    snprintf(b->out->what, sizeof b->out->what, "clause %d of a match of %d clauses dropped", k, n);
    return true;
  }
  case GB_PATTERN_CTOR:
  case GB_PATTERN_TUPLE: return apply_pattern(b, s);
  case GB_PROJ_INDEX: {
    static const int past[3] = {0, 1, 5};
    int n = e->proj.tuple->type->tuple.n, old = e->proj.index;
    e->proj.index = n + past[choose(b, 3)];
    snprintf(b->out->what, sizeof b->out->what, "projection .%d of a tuple of %d fields now .%d",
             old, n, e->proj.index);
    return true;
  }
  case GB_UNBOUND_VAR: {
    Var *v = e->var;
    Type *annot = choose(b, 2) == 0 ? (v->type ? v->type : v->annot) : NULL;
    *s->slot = ir_var_ref(b->m, ir_var(b->m, "unbound", annot));
    snprintf(b->out->what, sizeof b->out->what, "a use of %%%s replaced by an unbound %%unbound",
             v->name);
    return true;
  }
  case GB_OUT_OF_SCOPE: {
    Var **vs = ARENA_ARRAY(b->S, Var *, b->nbinders + 1);
    int n = out_of_scope(b, s, vs);
    if (!n)
      return false;
    Var *v = vs[choose(b, (uint32_t)n)];
    *s->slot = ir_var_ref(b->m, v);
    snprintf(b->out->what, sizeof b->out->what, "a use of %%%s replaced by %%%s, out of its scope",
             e->var->name, v->name);
    return true;
  }
  case GB_REF_WRITE: replace_wrong(b, s->slot, "the value of a ref_write"); return true;
  case GB_REF_READ: replace_wrong(b, s->slot, "the reference of a ref_read"); return true;
  case GB_OCCURS: apply_occurs(b, s->slot); return true;
  default: return false;
  }
}

/* ------------------------------------------------------------- choice */

/* Collect the sites and tokens of m (checked) and the printed text. */
static void collect(Brk *b) {
  Module *m = b->m;
  for (int i = 0; i < m->nfuncs; i++) {
    Expr *f = m->funcs[i]->func;
    if (!f)
      continue;
    b->fn = m->funcs[i]->name;
    ptrmap_put(&b->seen, f, NULL);
    walk_func(b, f);
  }
  b->fn = NULL;
  /* Keep the OUT_OF_SCOPE sites that have a variable to use. */
  Var **tmp = ARENA_ARRAY(b->S, Var *, b->nbinders + 1);
  for (int i = 0; i < b->nsites; i++)
    if (b->sites[i].kind == GB_OUT_OF_SCOPE && !out_of_scope(b, &b->sites[i], tmp))
      b->sites[i].kind = GB_NONE;
  tokenize(b, b->out->text);
}

void gen_break_with(Module *m, const uint8_t *choices, size_t n, GenBreak *out) {
  memset(out, 0, sizeof *out);
  Brk b = {.m = m, .S = arena_new(), .out = out};
  b.seen.arena = b.S;
  uint8_t bytes[GEN_HEADER_BYTES + GEN_BREAK_BYTES] = {0};
  if (n)
    memcpy(bytes + GEN_HEADER_BYTES, choices, n < GEN_BREAK_BYTES ? n : GEN_BREAK_BYTES);
  gen_stream_init(&b.st, bytes, sizeof bytes);
  Diag d;
  diag_init(&d, NULL, NULL);
  bool typed = ty_check_module(m, &d);
  diag_free(&d);
  if (typed) {
    /* Annotations inference recovers: all kept, some erased, or all. */
    uint32_t e = choose(&b, 3);
    if (e)
      out->erased = ty_erase_annotations(m, e == 2 ? TY_ERASE_ALL
                                                   : (choose(&b, 256) + 1) * 0x9e3779b97f4a7c15ull)
                        .n;
  }
  out->text = ir_print_module(m);
  if (!typed) {
    arena_free(b.S);
    return;
  }
  collect(&b);
  int count[GB_COUNT] = {0};
  for (int i = 0; i < b.nsites; i++)
    count[b.sites[i].kind]++;
  count[GB_NONE] = 1;
  count[GB_TOK_DELETE] = count[GB_TOK_DUP] = count[GB_TOK_REPLACE] = b.ntoks;
  count[GB_TOK_SWAP] = b.ntoks > 1 ? b.ntoks - 1 : 0;
  GenBreakKind opts[GB_COUNT];
  int nopts = 0;
  for (int k = 0; k < GB_COUNT; k++)
    if (count[k])
      opts[nopts++] = (GenBreakKind)k;
  GenBreakKind k = opts[choose(&b, (uint32_t)nopts)];
  int at = (int)choose(&b, (uint32_t)count[k]);
  if (k >= GB_FIRST_TEXT) {
    out->kind = k;
    apply_text(&b, k, at);
  } else if (k != GB_NONE) {
    Site *s = NULL;
    for (int i = 0; i < b.nsites; i++)
      if (b.sites[i].kind == k && at-- == 0) {
        s = &b.sites[i];
        break;
      }
    if (apply(&b, s)) {
      out->kind = k;
      out->node = s->e;
      out->fn = s->fn;
      free(out->text);
      out->text = ir_print_module(m);
    } else {
      out->what[0] = 0;
    }
  }
  if (out->kind == GB_NONE)
    snprintf(out->what, sizeof out->what, "none");
  arena_free(b.S);
}

void gen_break(Module *m, const uint8_t *data, size_t size, const GenPolicy *p, GenBreak *out) {
  size_t n = p->breaks && size > GEN_HEADER_BYTES ? size - GEN_HEADER_BYTES : 0;
  gen_break_with(m, data ? data + GEN_HEADER_BYTES : NULL, n, out);
}

void gen_break_free(GenBreak *b) {
  free(b->text);
  memset(b, 0, sizeof *b);
}
