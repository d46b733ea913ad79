/*
 * bad_passes.c - deliberately wrong passes, compiled only into the test
 * build (RS_TEST_PASSES).  Each breaks exactly one guarantee, so the test
 * suite can prove that the harness's oracle for it fires:
 *   bad_fold_swap     folds subtract as add          -> result oracle
 *   bad_cse_attrs     CSE that ignores attributes    -> type or result oracle
 *   bad_dce_refwrite  DCE that drops a ref write     -> effects or result oracle
 *   bad_anf           to_anf, then undoes one let    -> postcondition oracle
 * (The fifth, a printer that loses an attribute, is ir_test_print_drop_attr
 * and the round-trip oracle.)  The next four break the exactness every
 * contract promises (pass.h: PASS_EXACT) in ways the oracle missed before
 * contracts -- floats within 1e-4, -0 equal to +0, a value accepted where
 * there was an error, effects unseen unless they reached the result:
 *   bad_neg_sub       negative(x) as 0 - x: -0 becomes +0   -> result oracle
 *   bad_match_wild    a match?'s last clause matches all:
 *                     a failing match returns a value     -> result oracle
 *   bad_dse           dead-store elimination that ignores
 *                     aliases and escaping refs           -> effects oracle
 *   bad_reassoc       (a + b) + c as a + (b + c)          -> result oracle
 */
#ifdef RS_TEST_PASSES

#include <string.h>

#include "compiler/ir/ptrmap.h"
#include "pass.h"

/* ------------------------------------------------- a generic rewriter */

typedef Expr *(*RewriteFn)(Module *m, Expr *e, void *ctx);

typedef struct Rewriter {
  Module *m;
  RewriteFn f; /* called bottom-up on each node whose children are done */
  void *ctx;
  PtrMap memo; /* old node -> new node, so sharing is kept */
} Rewriter;

static Expr *rewrite(Rewriter *r, Expr *e);

static void rewrite_slot(Expr **slot, void *ctx) {
  *slot = rewrite(ctx, *slot);
}

/* Rewrites e's children into a copy (when any changed), then applies f. */
static Expr *rewrite(Rewriter *r, Expr *e) {
  int64_t *done = ptrmap_get(&r->memo, e);
  if (done)
    return (Expr *)(intptr_t)*done;
  Expr *c = ir_expr_clone_node(r->m, e);
  /* Own copies of the child arrays before they are written. */
  if (c->kind == EX_TUPLE && c->tuple.n) {
    c->tuple.fields = ARENA_ARRAY(r->m->arena, Expr *, c->tuple.n);
    memcpy(c->tuple.fields, e->tuple.fields, sizeof(Expr *) * (size_t)c->tuple.n);
  } else if (c->kind == EX_CALL && c->call.nargs) {
    c->call.args = ARENA_ARRAY(r->m->arena, Expr *, c->call.nargs);
    memcpy(c->call.args, e->call.args, sizeof(Expr *) * (size_t)c->call.nargs);
  } else if (c->kind == EX_MATCH && c->match.n) {
    c->match.clauses = ARENA_ARRAY(r->m->arena, Clause, c->match.n);
    memcpy(c->match.clauses, e->match.clauses, sizeof(Clause) * (size_t)c->match.n);
  }
  ir_expr_children(c, rewrite_slot, r);
  Expr *out = r->f(r->m, c, r->ctx);
  *ptrmap_put(&r->memo, e, NULL) = (int64_t)(intptr_t)out;
  return out;
}

static void rewrite_module(Module *m, RewriteFn f, void *ctx) {
  Rewriter r = {.m = m, .f = f, .ctx = ctx};
  for (int i = 0; i < m->nfuncs; i++)
    if (m->funcs[i]->func)
      m->funcs[i]->func = rewrite(&r, m->funcs[i]->func);
  ptrmap_free(&r.memo);
}

static bool post_none(const Module *m, Diag *d) {
  return true;
}

/* ------------------------------------------------------ bad_fold_swap */

static Expr *swap(Module *m, Expr *e, void *ctx) {
  if (e->kind == EX_CALL && e->call.kind == CALL_OP && e->call.op == OP_SUBTRACT)
    e->call.op = OP_ADD;
  return e;
}

bool pass_bad_fold_swap(Module *m, Diag *d) {
  rewrite_module(m, swap, NULL);
  return true;
}

bool post_bad_fold_swap(const Module *m, Diag *d) {
  return post_none(m, d);
}

/* ------------------------------------------------------ bad_cse_attrs */

typedef struct Seen {
  Expr *v[256];
  int n;
} Seen;

static bool same_args(const Expr *a, const Expr *b) {
  if (a->call.op != b->call.op || a->call.nargs != b->call.nargs)
    return false;
  for (int i = 0; i < a->call.nargs; i++)
    if (!ir_expr_alpha_equal(a->call.args[i], b->call.args[i]))
      return false;
  return true; /* the bug: attributes are not compared */
}

static Expr *cse(Module *m, Expr *e, void *ctx) {
  Seen *s = ctx;
  if (e->kind != EX_CALL || e->call.kind != CALL_OP || !ir_expr_is_shareable(e))
    return e;
  for (int i = 0; i < s->n; i++)
    if (same_args(s->v[i], e))
      return s->v[i];
  if (s->n < 256)
    s->v[s->n++] = e;
  return e;
}

bool pass_bad_cse_attrs(Module *m, Diag *d) {
  /* One table per global: its variables are not in scope elsewhere. */
  for (int i = 0; i < m->nfuncs; i++) {
    Seen s = {0};
    Rewriter r = {.m = m, .f = cse, .ctx = &s};
    if (m->funcs[i]->func)
      m->funcs[i]->func = rewrite(&r, m->funcs[i]->func);
    ptrmap_free(&r.memo);
  }
  return true;
}

bool post_bad_cse_attrs(const Module *m, Diag *d) {
  return post_none(m, d);
}

/* --------------------------------------------------- bad_dce_refwrite */

typedef struct Uses {
  const Var *v;
  PtrMap seen;
  bool found;
} Uses;

static void uses_visit(Expr **slot, void *ctx) {
  Uses *u = ctx;
  if (!ptrmap_first(&u->seen, *slot) || u->found)
    return;
  if ((*slot)->kind == EX_VAR)
    u->found = (*slot)->var == u->v;
  else
    ir_expr_children(*slot, uses_visit, u);
}

/* Does v occur in e? */
static bool uses_var(Expr *e, const Var *v) {
  Uses u = {.v = v};
  uses_visit(&e, &u);
  ptrmap_free(&u.seen);
  return u.found;
}

static Expr *drop_write(Module *m, Expr *e, void *ctx) {
  if (e->kind != EX_LET || e->let.value->kind != EX_REF_WRITE)
    return e;
  return uses_var(e->let.body, e->let.var) ? e : e->let.body; /* the bug: a ref write is not pure */
}

bool pass_bad_dce_refwrite(Module *m, Diag *d) {
  rewrite_module(m, drop_write, NULL);
  return true;
}

bool post_bad_dce_refwrite(const Module *m, Diag *d) {
  return post_none(m, d);
}

/* -------------------------------------------------------- bad_neg_sub */

/* negative(x) -> subtract(0, x) for floats: the same value except for
 * x = +0, where -x is -0 but 0 - x is +0. */
static Expr *neg_sub(Module *m, Expr *e, void *ctx) {
  if (e->kind != EX_CALL || e->call.kind != CALL_OP || e->call.op != OP_NEGATIVE ||
      e->call.nargs != 1 || !e->type || e->type->kind != TY_TENSOR ||
      !ir_dtype_is_float(e->type->tensor.dtype))
    return e;
  Expr *args[2] = {ir_const_scalar(m, e->type->tensor.dtype, 0), e->call.args[0]};
  Attrs none = {0};
  return ir_call_op(m, OP_SUBTRACT, 2, args, &none);
}

bool pass_bad_neg_sub(Module *m, Diag *d) {
  rewrite_module(m, neg_sub, NULL);
  return true;
}

bool post_bad_neg_sub(const Module *m, Diag *d) {
  return post_none(m, d);
}

/* ----------------------------------------------------- bad_match_wild */

/* Does p bind a variable? */
static bool binds(const Pattern *p) {
  if (p->kind == PAT_VAR)
    return true;
  for (int i = 0; p->kind != PAT_WILD && i < p->n; i++)
    if (binds(p->sub[i]))
      return true;
  return false;
}

/* A match? whose last clause binds nothing: that clause's pattern becomes
 * a wildcard, as if the match could not fail (values that matched no
 * clause now take the last one). */
static Expr *match_wild(Module *m, Expr *e, void *ctx) {
  if (e->kind != EX_MATCH || e->match.complete || e->match.n < 1)
    return e;
  Clause *last = &e->match.clauses[e->match.n - 1];
  if (binds(last->pat))
    return e;
  last->pat = ir_pat_wild(m);
  e->match.complete = true;
  return e;
}

bool pass_bad_match_wild(Module *m, Diag *d) {
  rewrite_module(m, match_wild, NULL);
  return true;
}

bool post_bad_match_wild(const Module *m, Diag *d) {
  return post_none(m, d);
}

/* ------------------------------------------------------------ bad_dse */

/* Whether an expression makes, reads or writes a ref or calls a closure
 * or global. */
typedef struct Effects {
  PtrMap seen;
  bool found;
} Effects;

static void effects_visit(Expr **slot, void *ctx) {
  Effects *f = ctx;
  if (!ptrmap_first(&f->seen, *slot) || f->found)
    return;
  Expr *e = *slot;
  f->found = e->kind == EX_REF_NEW || e->kind == EX_REF_READ || e->kind == EX_REF_WRITE ||
             (e->kind == EX_CALL && e->call.kind == CALL_EXPR);
  ir_expr_children(e, effects_visit, f);
}

static bool effectful(Expr *e) {
  Effects f = {0};
  effects_visit(&e, &f);
  ptrmap_free(&f.seen);
  return f.found;
}

/* let %u = ref_write(%r, v); body, where the body never names %r and v
 * has no effect of its own: a dead store, if no other name led to the
 * same ref and it did not escape (the bug: it may). */
static Expr *drop_dead_store(Module *m, Expr *e, void *ctx) {
  if (e->kind != EX_LET || e->let.value->kind != EX_REF_WRITE)
    return e;
  Expr *w = e->let.value;
  if (w->ref_write.ref->kind != EX_VAR || uses_var(e->let.body, e->let.var) ||
      uses_var(e->let.body, w->ref_write.ref->var))
    return e;
  return effectful(w->ref_write.value) ? e : e->let.body;
}

bool pass_bad_dse(Module *m, Diag *d) {
  rewrite_module(m, drop_dead_store, NULL);
  return true;
}

bool post_bad_dse(const Module *m, Diag *d) {
  return post_none(m, d);
}

/* -------------------------------------------------------- bad_reassoc */

/* Is e a float add of two operands of its own type? */
static bool float_add(const Expr *e) {
  if (e->kind != EX_CALL || e->call.kind != CALL_OP || e->call.op != OP_ADD || e->call.nargs != 2 ||
      !e->type || e->type->kind != TY_TENSOR || !ir_dtype_is_float(e->type->tensor.dtype))
    return false;
  for (int i = 0; i < 2; i++)
    if (!e->call.args[i]->type || !ir_type_equal(e->call.args[i]->type, e->type))
      return false;
  return true;
}

/* add(add(a, b), c) -> add(a, add(b, c)) on floats of one type: a, b and
 * c are still evaluated in that order, but the sum is rounded
 * differently (float addition is not associative). */
static Expr *reassoc(Module *m, Expr *e, void *ctx) {
  if (!float_add(e) || !float_add(e->call.args[0]))
    return e;
  Expr *ab = e->call.args[0];
  Expr *bc[2] = {ab->call.args[1], e->call.args[1]};
  Expr *args[2] = {ab->call.args[0], ir_call_op(m, OP_ADD, 2, bc, &e->call.attrs)};
  args[1]->type = e->type;
  Expr *r = ir_call_op(m, OP_ADD, 2, args, &e->call.attrs);
  r->type = e->type;
  return r;
}

bool pass_bad_reassoc(Module *m, Diag *d) {
  rewrite_module(m, reassoc, NULL);
  return true;
}

bool post_bad_reassoc(const Module *m, Diag *d) {
  return post_none(m, d);
}

/* ------------------------------------------------------------ bad_anf */

typedef struct Undo {
  Var *var; /* the let variable being substituted away, once found */
  Expr *value;
  bool done;
} Undo;

static Expr *subst(Module *m, Expr *e, void *ctx) {
  Undo *u = ctx;
  return e->kind == EX_VAR && e->var == u->var ? u->value : e;
}

/* Finds the first let binding a pure operator call and substitutes the
 * call into the let's body: the result is correct but no longer in ANF. */
static Expr *undo_one(Module *m, Expr *e, void *ctx) {
  Undo *u = ctx;
  if (u->done || e->kind != EX_LET || e->let.value->kind != EX_CALL ||
      e->let.value->call.kind != CALL_OP || !ir_expr_is_shareable(e->let.value))
    return e;
  u->done = true;
  Undo s = {e->let.var, e->let.value, true};
  Rewriter r = {.m = m, .f = subst, .ctx = &s};
  Expr *body = rewrite(&r, e->let.body);
  ptrmap_free(&r.memo);
  return body;
}

bool pass_bad_anf(Module *m, Diag *d) {
  if (!pass_to_anf(m, d))
    return false;
  Undo u = {0};
  rewrite_module(m, undo_one, &u);
  return true;
}

bool post_bad_anf(const Module *m, Diag *d) {
  return post_to_anf(m, d);
}

#endif
