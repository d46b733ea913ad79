/*
 * expr.c - the expression generator: given a wanted type, the variables in
 * scope and a budget of nodes, choose among the forms that can produce the
 * type here (gen.h, GenForm) and generate their subexpressions.
 *
 * Invariants kept by every form:
 *   - the result has exactly the wanted type (checked by tests against the
 *     independent type checker);
 *   - g->pure says whether the result may be shared (a graph binding): it
 *     binds no variable and has no effect;
 *   - when g->free is set the result infers its own type bottom-up, so a
 *     polymorphic constructor (Nil, None) never ends up where no type flows
 *     in to fix its type arguments;
 *   - a variable leaves the scope when its binder is done, and so do the
 *     shared expressions that may mention it.
 */
#include <assert.h>
#include <stdlib.h>
#include <string.h>

#include "gen_int.h"

/* ----------------------------------------------------------------- scope */

Var *gen_fresh_var(GenCtx *g, const char *hint, Type *t, bool annotate) {
  return ir_var_static(g->m, hint, annotate ? t : NULL);
}

/* Grow a malloc'd array to hold n + 1 elements. */
static void *grow(void *p, int n, int *cap, size_t elem) {
  if (n < *cap)
    return p;
  int nc = *cap ? 2 * *cap : 32;
  void *q = realloc(p, elem * (size_t)nc);
  if (!q)
    abort();
  *cap = nc;
  return q;
}

void gen_scope_push(GenCtx *g, Var *v, Type *t) {
  g->scope = grow(g->scope, g->nscope, &g->capscope, sizeof *g->scope);
  uint64_t sub = 0;
  if (t->kind == TY_TUPLE)
    for (int i = 0; i < t->tuple.n; i++)
      sub |= 1ull << (gen_hash(g, t->tuple.fields[i]) & 63);
  if (t->kind == TY_FUNC)
    sub = gen_hash(g, t->func.ret);
  g->scope[g->nscope++] = (Scoped){v, t, gen_hash(g, t), sub, 0, false};
  g->nkind[t->kind]++;
}

void gen_scope_pop(GenCtx *g, int to) {
  while (g->nscope > to)
    g->nkind[g->scope[--g->nscope].type->kind]--;
  while (g->nshared > g->shared_base && g->shared[g->nshared - 1].scope_len > to)
    g->nshared--;
}

Expr *gen_var_expr(GenCtx *g, Scoped *s) {
  s->uses++;
  g->pure = true;
  return ir_var_ref(g->m, s->var);
}

void gen_var_used(GenCtx *g, Var *v) {
  for (int i = g->nscope - 1; i >= g->scope_base; i--)
    if (g->scope[i].var == v) {
      g->scope[i].uses++;
      return;
    }
}

enum { MAXC = 32 }; /* candidates offered per choice */

bool gen_in_main(const GenCtx *g) {
  return g->global_nest == 0;
}

/* Variables of type t (hash h), unused ones first, innermost first
 * (@main's parameters count as outermost). */
static int find_vars(GenCtx *g, const Type *t, uint64_t h, Scoped **out) {
  int n = 0, nused = 0;
  Scoped *used[MAXC];
  if (g->nkind[t->kind] == 0)
    return 0;
  /* Two runs: the scope down from the innermost variable, then @main's
   * parameters up from the first. */
  int len[2] = {g->nscope - g->scope_base, gen_in_main(g) ? g->nmainp : 0};
  for (int k = 0; k < 2; k++)
    for (int j = 0; j < len[k]; j++) {
      Scoped *s = k == 0 ? &g->scope[g->nscope - 1 - j] : &g->mainp[j];
      if (s->h != h || !ir_type_equal(s->type, t))
        continue;
      if (s->uses == 0 && n < MAXC)
        out[n++] = s;
      else if (s->uses && nused < MAXC)
        used[nused++] = s;
    }
  for (int i = 0; i < nused && n < MAXC; i++)
    out[n++] = used[i];
  return n;
}

/* A new parameter of @main of tensor type t, used here. */
static Expr *form_param(GenCtx *g, Type *t) {
  g->mainp = grow(g->mainp, g->nmainp, &g->capmainp, sizeof *g->mainp);
  Var *v = gen_fresh_var(g, "x", t, true);
  Scoped *s = &g->mainp[g->nmainp++];
  *s = (Scoped){v, t, gen_hash(g, t), 0, 0, false};
  g->nkind[t->kind]++;
  return gen_var_expr(g, s);
}

/* Shared expressions of type t (hash h) usable here. */
static int find_shared(GenCtx *g, const Type *t, uint64_t h, Shared **out) {
  int n = 0;
  for (int i = g->nshared - 1; i >= g->shared_base && n < MAXC; i--) {
    Shared *s = &g->shared[i];
    if (s->h == h && (s->typed || !g->free) && ir_type_equal(s->type, t))
      out[n++] = s;
  }
  return n;
}

/* Remember a pure expression of type t (hash h) for later reuse. */
static void add_shared(GenCtx *g, Expr *e, Type *t, uint64_t h) {
  g->shared = grow(g->shared, g->nshared, &g->capshared, sizeof *g->shared);
  g->shared[g->nshared++] = (Shared){e, t, h, g->nscope, g->free || !gen_type_poly_adt(t)};
}

/* ----------------------------------------------------------------- spans */

/* Open a span for an expression of type t starting at the current byte. */
static int span_begin(GenCtx *g, Type *t) {
  GenSpans *s = g->spans;
  s->v = grow(s->v, s->n, &s->cap, sizeof *s->v);
  int idx = s->n++;
  GenSpan *sp = &s->v[idx];
  memset(sp, 0, sizeof *sp);
  sp->start = (uint32_t)g->st.pos;
  sp->parent = g->span_parent;
  sp->depth = sp->parent >= 0 ? s->v[sp->parent].depth + 1 : 0;
  sp->type = t;
  sp->scope_off = s->nscope;
  for (int i = 0; gen_in_main(g) && i < g->nmainp; i++) {
    s->scope = grow(s->scope, s->nscope, &s->capscope, sizeof *s->scope);
    s->scope[s->nscope++] = (GenScopeVar){g->mainp[i].var, g->mainp[i].type};
  }
  for (int i = g->scope_base; i < g->nscope; i++) {
    s->scope = grow(s->scope, s->nscope, &s->capscope, sizeof *s->scope);
    s->scope[s->nscope++] = (GenScopeVar){g->scope[i].var, g->scope[i].type};
  }
  sp->scope_n = s->nscope - sp->scope_off;
  g->span_parent = idx;
  return idx;
}

/* Close span idx around e. */
static void span_end(GenCtx *g, int idx, Expr *e) {
  GenSpan *sp = &g->spans->v[idx];
  sp->end = (uint32_t)g->st.pos;
  sp->expr = e;
  sp->form = g->form;
  g->span_parent = sp->parent;
}

void gen_spans_free(GenSpans *s) {
  free(s->v);
  free(s->scope);
  memset(s, 0, sizeof *s);
}

/* ------------------------------------------------------------- helpers */

Module *gen_module(GenCtx *g) {
  return g->m;
}

const GenConfig *gen_cfg(GenCtx *g) {
  return &g->cfg;
}

uint32_t gen_choose(GenCtx *g, uint32_t n) {
  return gen_stream_below(&g->st, n);
}

int gen_depth(GenCtx *g) {
  return g->depth;
}

void gen_split(GenCtx *g, int budget, int k, int *out) {
  if (k <= 0)
    return;
  if (budget < k)
    budget = k;
  int big = k > 1 ? (int)gen_choose(g, (uint32_t)k + 1) : 0;
  if (big == 0) {
    for (int i = 0; i < k; i++)
      out[i] = budget / k + (i < budget % k);
    return;
  }
  /* Child big-1 gets two thirds; the others share the rest. */
  int first = budget * 2 / 3 > 1 ? budget * 2 / 3 : 1;
  int rest = budget - first;
  for (int i = 0, j = 0; i < k; i++) {
    if (i == big - 1) {
      out[i] = first;
      continue;
    }
    int share = rest / (k - 1) + (j < rest % (k - 1));
    out[i] = share > 1 ? share : 1;
    j++;
  }
}

Expr *gen_sub(GenCtx *g, Type *t, int budget, bool free) {
  bool saved = g->free;
  g->free = free;
  Expr *e = gen_expr(g, t, budget);
  g->free = saved;
  return e;
}

Expr *gen_let_with(GenCtx *g, Type *t, Expr *value, Expr *(*body_fn)(GenCtx *g, Var *v, void *arg),
                   void *arg) {
  Var *v = gen_fresh_var(g, t->kind == TY_FUNC ? "f" : "x", t, true);
  int mark = g->nscope;
  gen_scope_push(g, v, t);
  Expr *body = body_fn(g, v, arg);
  gen_scope_pop(g, mark);
  g->pure = false;
  g->form = GF_LET;
  return ir_let(g->m, v, value, body);
}

Type *gen_closure_type(GenCtx *g, Type *t) {
  int n = (int)gen_choose(g, 3);
  Type *p[2];
  for (int i = 0; i < n; i++)
    p[i] = gen_type_at(g, 1, GEN_TY_ANY);
  return ir_func_type(g->a, 0, NULL, n, p, t);
}

/* Generate arguments for the parameters of function type ft. */
static void gen_args(GenCtx *g, const Type *ft, int budget, Expr **args) {
  int n = ft->func.nparams;
  int b[8];
  gen_split(g, budget, n, b);
  for (int i = 0; i < n; i++)
    args[i] = gen_sub(g, ft->func.params[i], b[i], false);
}

/* ----------------------------------------------------------------- forms */

/* Binary operators that may combine a body with an unused variable. */
static const OpId combiners[GEN_NCOMBINERS] = {OP_ADD,     OP_SUBTRACT,    OP_MULTIPLY,  OP_MAXIMUM,
                                               OP_MINIMUM, OP_LOGICAL_AND, OP_LOGICAL_OR};

/* Does a tensor of type vt broadcast into t, leaving t's shape as it is
 * (docs/operators.md, broadcast: dims aligned from the last, each of vt's
 * equal to t's or 1)? */
static bool broadcasts_into(const Type *vt, const Type *t) {
  int rt = t->tensor.rank, rv = vt->tensor.rank;
  if (rv > rt)
    return false;
  for (int i = 0; i < rv; i++) {
    int64_t d = vt->tensor.shape[i], e = t->tensor.shape[rt - rv + i];
    if (d != e && d != 1)
      return false;
  }
  return true;
}

/* When the body of a let left its variable v (of type vt) unused, and
 * both are tensors, the binary operators that combine them into exactly
 * t: op(body, %v), by the broadcast family's rules (arithmetic on ints and
 * floats, logical on bools, both operands of one dtype; the relation is
 * not asked, docs/generators.md).  Stores them in out (GEN_NCOMBINERS at
 * most) and returns how many; with none, the caller keeps the body as it
 * is (a let left unused on purpose is dead code for the passes to
 * remove). */
int gen_combiners(GenCtx *g, const Type *t, const Type *vt, OpId *out) {
  if (t->kind != TY_TENSOR || vt->kind != TY_TENSOR || !gen_feature(g, GEN_F_OPS))
    return 0;
  if (t->tensor.dtype != vt->tensor.dtype || !broadcasts_into(vt, t))
    return 0;
  bool logical = t->tensor.dtype == DT_BOOL;
  int n = 0;
  for (size_t i = 0; i < sizeof combiners / sizeof *combiners; i++) {
    OpId op = combiners[i];
    if ((g->cfg.op_allow[op / 64] >> (op % 64) & 1) &&
        (op == OP_LOGICAL_AND || op == OP_LOGICAL_OR) == logical)
      out[n++] = op;
  }
  return n;
}

static Expr *consume(GenCtx *g, Type *t, Expr *body, Var *v, Type *vt) {
  OpId ok[GEN_NCOMBINERS];
  int n = gen_combiners(g, t, vt, ok);
  if (n == 0)
    return body;
  OpId op = ok[gen_choose(g, (uint32_t)n)];
  gen_var_used(g, v);
  Expr *args[2] = {body, ir_var_ref(g->m, v)};
  return ir_call_op(g->m, op, 2, args, NULL);
}

/* let %x = e1; e2, where e1 has t itself, a fresh type, or is a closure
 * returning t (so the body may call it). */
static Expr *form_let(GenCtx *g, Type *t, int budget) {
  int b[2];
  gen_split(g, budget - 1, 2, b);
  /* The value's type: t itself or a scalar of t's dtype (types the body is
   * likely to want, so the variable gets used), any type, or a closure
   * returning t (which the body may call). */
  uint32_t w[4] = {4, t->kind == TY_TENSOR && t->tensor.rank > 0 && b[1] >= 3 ? 2 : 0,
                   b[1] >= 4 ? 1 : 0, gen_feature(g, GEN_F_CLOSURE) && b[1] >= 3 ? 2 : 0};
  int k = gen_weighted(&g->st, w, 4);
  Type *t1 = k == 0   ? t
             : k == 1 ? ir_scalar_type(g->a, t->tensor.dtype)
             : k == 2 ? gen_type_at(g, 0, GEN_TY_ANY)
                      : gen_closure_type(g, t);
  Expr *value = gen_sub(g, t1, b[0], false);
  Var *v = gen_fresh_var(g, t1->kind == TY_FUNC ? "f" : "x", t1, true);
  int mark = g->nscope;
  gen_scope_push(g, v, t1);
  Expr *body = gen_sub(g, t, b[1], g->free);
  if (g->scope[mark].uses == 0)
    body = consume(g, t, body, v, t1);
  gen_scope_pop(g, mark);
  g->pure = false;
  return ir_let(g->m, v, value, body);
}

/* if (c) { e1 } else { e2 }. */
static Expr *form_if(GenCtx *g, Type *t, int budget) {
  int b[3];
  gen_split(g, budget - 1, 3, b);
  Expr *c = gen_sub(g, ir_scalar_type(g->a, DT_BOOL), b[0], false);
  bool pure = g->pure;
  Expr *e1 = gen_sub(g, t, b[1], g->free);
  pure &= g->pure;
  Expr *e2 = gen_sub(g, t, b[2], false);
  g->pure = pure && g->pure;
  return ir_if(g->m, c, e1, e2);
}

typedef struct Field {
  Scoped *s;
  int index;
} Field;

/* Fields of tuple variables in scope that have type t (hash h). */
static int find_fields(GenCtx *g, const Type *t, uint64_t h, Field *out) {
  int n = 0;
  if (g->nkind[TY_TUPLE] == 0)
    return 0;
  for (int i = g->nscope - 1; i >= g->scope_base && n < MAXC; i--) {
    Scoped *s = &g->scope[i];
    if (s->type->kind != TY_TUPLE || !(s->sub >> (h & 63) & 1))
      continue;
    for (int j = 0; j < s->type->tuple.n && n < MAXC; j++)
      if (ir_type_equal(s->type->tuple.fields[j], t))
        out[n++] = (Field){s, j};
  }
  return n;
}

/* Whether a new tuple may be built around t (keeps types shallow). */
static bool proj_new_ok(GenCtx *g, const Type *t, int budget) {
  return gen_feature(g, GEN_F_TUPLE) && budget >= 2 && gen_tdepth(g, t) <= g->pol->max_type_depth;
}

enum { MAXSHAPED = 2 + IR_MAX_RANK };

/* Tuple types with t at index 0 that operators may produce: (t, t),
 * (t, t, t) (a split into equal parts) and (t, v, v) with v a vector as
 * long as one of t's dims (batch_norm's mean and variance). */
static int op_tuple_results(GenCtx *g, Type *t, Type **out) {
  if (t->kind != TY_TENSOR || !gen_feature(g, GEN_F_OPS))
    return 0;
  int n = 0;
  Type *f[3] = {t, t, t};
  for (int k = 2; k <= 3; k++) {
    Type *tt = ir_tuple_type(g->a, k, f);
    if (gen_op_available(g, tt))
      out[n++] = tt;
  }
  for (int i = 0; i < t->tensor.rank; i++) {
    bool dup = false;
    for (int j = 0; j < i; j++)
      dup |= t->tensor.shape[j] == t->tensor.shape[i];
    if (dup)
      continue;
    Type *v = ir_tensor_type(g->a, t->tensor.dtype, 1, &t->tensor.shape[i]);
    Type *fv[3] = {t, v, v};
    Type *tt = ir_tuple_type(g->a, 3, fv);
    if (gen_op_available(g, tt))
      out[n++] = tt;
  }
  return n;
}

/* A field of a tuple variable, a projection out of a new tuple, or field
 * 0 of an operator's tuple result. */
static Expr *form_proj(GenCtx *g, Type *t, int budget) {
  Field f[MAXC];
  int nf = find_fields(g, t, gen_hash(g, t), f);
  bool fresh = proj_new_ok(g, t, budget);
  Type *shaped[MAXSHAPED];
  int ns = fresh ? op_tuple_results(g, t, shaped) : 0;
  uint32_t k = gen_choose(g, (uint32_t)(nf + fresh + ns));
  if ((int)k < nf) {
    Expr *v = gen_var_expr(g, f[k].s);
    return ir_proj(g->m, v, f[k].index);
  }
  if ((int)k > nf) {
    g->boost_op = true;
    Expr *src = gen_sub(g, shaped[(int)k - nf - 1], budget - 1, true);
    return ir_proj(g->m, src, 0);
  }
  int n = 2 + (int)gen_choose(g, 3);
  int at = (int)gen_choose(g, (uint32_t)n);
  Type *fields[4];
  for (int i = 0; i < n; i++)
    fields[i] = i == at ? t : gen_type_at(g, 1, GEN_TY_ANY);
  Type *tt = ir_tuple_type(g->a, n, fields);
  Expr *src = gen_sub(g, tt, budget - 1, true);
  return ir_proj(g->m, src, at);
}

/* Function variables in scope that return t (hash h), unused first. */
static int find_callables(GenCtx *g, const Type *t, uint64_t h, Scoped **out) {
  int n = 0;
  if (g->nkind[TY_FUNC] == 0)
    return 0;
  for (int pass = 0; pass < 2; pass++)
    for (int i = g->nscope - 1; i >= g->scope_base && n < MAXC; i--) {
      Scoped *s = &g->scope[i];
      if (s->type->kind == TY_FUNC && s->sub == h && (s->uses == 0) == (pass == 0) &&
          ir_type_equal(s->type->func.ret, t))
        out[n++] = s;
    }
  return n;
}

/* Call of a closure: a function variable, or a new callee (usually a fn
 * literal, possibly capturing the scope). */
static Expr *form_call(GenCtx *g, Type *t, int budget) {
  Scoped *c[MAXC];
  int nc = find_callables(g, t, gen_hash(g, t), c);
  bool fresh = gen_feature(g, GEN_F_CLOSURE) && budget >= 3;
  uint32_t k = gen_choose(g, (uint32_t)nc + fresh);
  Expr *callee;
  Type *ft;
  int argb = budget - 1;
  if ((int)k < nc) {
    callee = gen_var_expr(g, c[k]);
    ft = c[k]->type;
  } else {
    ft = gen_closure_type(g, t);
    int b[2];
    gen_split(g, budget - 1, 2, b);
    callee = gen_sub(g, ft, b[0], true);
    argb = b[1];
  }
  Expr *args[8];
  gen_args(g, ft, argb, args);
  g->pure = false;
  return ir_call(g->m, callee, ft->func.nparams, args);
}

/* ref_read(r) with r : Ref[t]. */
static Expr *form_ref_read(GenCtx *g, Type *t, int budget) {
  Expr *r = gen_sub(g, ir_ref_type(g->a, t), budget - 1, g->free);
  g->pure = false;
  return ir_ref_read(g->m, r);
}

/* Ref variables in scope. */
static int find_refs(GenCtx *g, Scoped **out) {
  int n = 0;
  for (int i = g->nscope - 1; i >= g->scope_base && n < MAXC; i--)
    if (g->scope[i].type->kind == TY_REF)
      out[n++] = &g->scope[i];
  return n;
}

typedef struct WriteArg {
  Type *t;
  Type *rt;      /* the reference's type */
  int budget[2]; /* written value, body */
  bool direct;   /* t is unit: the write itself is the result */
} WriteArg;

/* ref_write(r, v) then (unless direct) let _ = that; body. */
static Expr *write_then(GenCtx *g, Var *r, void *arg) {
  WriteArg *w = arg;
  Type *rt = w->rt;
  gen_var_used(g, r);
  Expr *v = gen_sub(g, rt->ref.inner, w->budget[0], false);
  Expr *wr = ir_ref_write(g->m, ir_var_ref(g->m, r), v);
  if (w->direct)
    return wr;
  Type *unit = ir_unit_type(g->a);
  Var *u = gen_fresh_var(g, "_", unit, true);
  Expr *body = gen_sub(g, w->t, w->budget[1], g->free);
  return ir_let(g->m, u, wr, body);
}

/* A write to a reference: to a Ref variable in scope or to a new one
 * bound by a let, followed by a body of type t (or, when t is unit,
 * the write itself). */
static Expr *form_ref_write(GenCtx *g, Type *t, int budget) {
  Scoped *r[MAXC];
  int nr = find_refs(g, r);
  uint32_t k = gen_choose(g, (uint32_t)nr + 1);
  WriteArg w = {t, NULL, {1, 1}, t->kind == TY_TUPLE && t->tuple.n == 0 && gen_choose(g, 2) == 0};
  int b[3];
  gen_split(g, budget - 1, 3, b);
  w.budget[0] = b[1];
  w.budget[1] = b[2];
  Expr *e;
  if ((int)k < nr) {
    w.rt = r[k]->type;
    e = write_then(g, r[k]->var, &w);
  } else {
    Type *inner = gen_type_at(g, 1, GEN_TY_ANY);
    Expr *init = gen_sub(g, inner, b[0], false);
    w.rt = ir_ref_type(g->a, inner);
    e = gen_let_with(g, w.rt, ir_ref_new(g->m, init), write_then, &w);
  }
  g->pure = false;
  return e;
}

/* --------------------------------------------------------- form choice */

Expr *gen_expr_default(GenCtx *g, Type *t, int budget) {
  const uint8_t *fw = g->pol->form_weight;
  uint32_t w[GF_COUNT] = {0};
  Scoped *vars[MAXC];
  Shared *shared[MAXC];
  uint64_t h = gen_hash(g, t);
  g->hash_type = t;
  g->hash = h;
  int nv = find_vars(g, t, h, vars);
  int ns = gen_feature(g, GEN_F_SHARE) ? find_shared(g, t, h, shared) : 0;
  if (nv)
    w[GF_VAR] = fw[GF_VAR] + (vars[0]->uses == 0 ? 6 : 0) + 1;
  w[GF_LIT] = fw[GF_LIT] ? fw[GF_LIT] : 1;
  if (ns)
    w[GF_SHARE] = fw[GF_SHARE];
  if (t->kind == TY_TENSOR && gen_in_main(g) && g->nmainp < g->pol->max_main_params)
    w[GF_PARAM] = fw[GF_PARAM];
  bool leaf = budget <= 1 || g->depth >= g->pol->max_depth;
  bool boost_op = g->boost_op;
  g->boost_op = false;
  if (!leaf) {
    int tdepth = gen_tdepth(g, t);
    if (gen_feature(g, GEN_F_LET) && budget >= 3)
      w[GF_LET] = fw[GF_LET];
    if (gen_feature(g, GEN_F_IF) && budget >= 4)
      w[GF_IF] = fw[GF_IF];
    Field f[MAXC];
    if (gen_feature(g, GEN_F_TUPLE) && (proj_new_ok(g, t, budget) || find_fields(g, t, h, f)))
      w[GF_PROJ] = fw[GF_PROJ];
    if (gen_op_available(g, t))
      w[GF_OP] = fw[GF_OP] * (boost_op ? 8 : 1);
    Scoped *c[MAXC];
    if ((gen_feature(g, GEN_F_CLOSURE) && budget >= 3) || find_callables(g, t, h, c))
      w[GF_CALL] = fw[GF_CALL];
    if (gen_global_form_ok(g, t, budget))
      w[GF_GLOBAL] = fw[GF_GLOBAL] * (t->kind == TY_FUNC ? 5 : 1);
    if (gen_feature(g, GEN_F_REF) && tdepth <= g->pol->max_type_depth) {
      w[GF_REF_READ] = fw[GF_REF_READ];
      if (budget >= 4 && gen_feature(g, GEN_F_LET)) /* sequencing is a let */
        w[GF_REF_WRITE] = fw[GF_REF_WRITE];
    }
    if (budget >= 4 && gen_match_ok(g))
      w[GF_MATCH] = fw[GF_MATCH];
  }
  /* With a big budget, prefer forms that spend it (choice 0 stays the
   * simplest option: only the weights change). */
  if (budget >= 8)
    for (int f = GF_LET; f <= GF_MATCH; f++)
      w[f] *= 3;
  int boost = g->cfg.boost_form;
  if (boost >= 0 && boost < GF_COUNT)
    w[boost] *= 3;
  GenForm form = (GenForm)gen_weighted(&g->st, w, GF_COUNT);
  Expr *e = NULL;
  switch (form) {
  case GF_VAR: {
    /* Unused variables (listed first) weigh more: every value gets used. */
    uint32_t vw[MAXC];
    for (int i = 0; i < nv; i++)
      vw[i] = vars[i]->uses ? 1 : 4;
    e = gen_var_expr(g, vars[gen_weighted(&g->st, vw, nv)]);
    break;
  }
  case GF_LIT: e = gen_literal(g, t, leaf ? 1 : budget); break;
  case GF_SHARE:
    e = shared[gen_choose(g, (uint32_t)ns)]->e;
    g->pure = true;
    break;
  case GF_LET: e = form_let(g, t, budget); break;
  case GF_IF: e = form_if(g, t, budget); break;
  case GF_PROJ: e = form_proj(g, t, budget); break;
  case GF_OP: e = gen_op_call(g, t, budget); break;
  case GF_CALL: e = form_call(g, t, budget); break;
  case GF_GLOBAL: e = gen_global_form(g, t, budget); break;
  case GF_REF_READ: e = form_ref_read(g, t, budget); break;
  case GF_REF_WRITE: e = form_ref_write(g, t, budget); break;
  case GF_MATCH: e = gen_match(g, t, budget); break;
  case GF_PARAM: e = form_param(g, t); break;
  case GF_COUNT: assert(!"unreachable"); break;
  }
  g->form = form;
  return e;
}

Expr *gen_expr(GenCtx *g, Type *t, int budget) {
  int span = g->spans ? span_begin(g, t) : -1;
  g->depth++;
  Expr *e = NULL;
  if (g->tvar && gen_poly_type(g, t)) /* inside a polymorphic body (poly.c) */
    e = gen_poly_expr(g, t, budget);
  else if (g->pol->hook) {
    e = g->pol->hook(g, t, budget);
    if (e)
      g->form = GF_COUNT;
  }
  if (!e)
    e = gen_expr_default(g, t, budget);
  g->depth--;
  if (span >= 0)
    span_end(g, span, e);
  bool atomic = e->kind == EX_VAR || e->kind == EX_CONST || e->kind == EX_GLOBAL;
  if (g->pure && !atomic && g->form != GF_SHARE && gen_feature(g, GEN_F_SHARE))
    add_shared(g, e, t, g->hash_type == t ? g->hash : gen_hash(g, t));
  return e;
}
