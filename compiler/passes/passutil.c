/*
 * passutil.c - purity, exhaustiveness and small builders shared by the
 * optimisation passes (see pass_int.h).
 */
#include <stdio.h>
#include <string.h>

#include "compiler/typing/typing.h"
#include "pass_int.h"

/* Wildcards, variables and tuples of those match anything. */
bool pass_pat_irrefutable(const Pattern *p) {
  if (p->kind == PAT_WILD || p->kind == PAT_VAR)
    return true;
  if (p->kind != PAT_TUPLE)
    return false;
  for (int i = 0; i < p->n; i++)
    if (!pass_pat_irrefutable(p->sub[i]))
      return false;
  return true;
}

/* Does some clause match every value built with constructor c? */
static bool ctor_covered(const Expr *e, const Ctor *c) {
  for (int i = 0; i < e->match.n; i++) {
    const Pattern *p = e->match.clauses[i].pat;
    if (pass_pat_irrefutable(p))
      return true;
    if (p->kind != PAT_CTOR || p->ctor != c)
      continue;
    bool all = true;
    for (int j = 0; j < p->n; j++)
      all = all && pass_pat_irrefutable(p->sub[j]);
    if (all)
      return true;
  }
  return false;
}

/* See pass_int.h: an irrefutable clause, or every constructor covered. */
bool pass_match_exhaustive(const Expr *e) {
  const TypeDef *def = NULL;
  for (int i = 0; i < e->match.n; i++) {
    const Pattern *p = e->match.clauses[i].pat;
    if (pass_pat_irrefutable(p))
      return true;
    if (p->kind == PAT_CTOR)
      def = p->ctor->def;
  }
  if (!def || def->nctors == 0)
    return false;
  for (int i = 0; i < def->nctors; i++)
    if (!ctor_covered(e, def->ctors[i]))
      return false;
  return true;
}

/* Purity of one node from its children's (pass_int.h). */
static bool pure_node(PurityMemo *pm, const Expr *e) {
  switch (e->kind) {
  case EX_VAR:
  case EX_GLOBAL:
  case EX_CONST:
  case EX_FUNC: return true;
  case EX_REF_NEW:
  case EX_REF_READ:
  case EX_REF_WRITE: return false;
  case EX_TUPLE:
    for (int i = 0; i < e->tuple.n; i++)
      if (!pass_is_pure(pm, e->tuple.fields[i]))
        return false;
    return true;
  case EX_PROJ: return pass_is_pure(pm, e->proj.tuple);
  case EX_LET: return pass_is_pure(pm, e->let.value) && pass_is_pure(pm, e->let.body);
  case EX_IF:
    return pass_is_pure(pm, e->if_.cond) && pass_is_pure(pm, e->if_.then) &&
           pass_is_pure(pm, e->if_.els);
  case EX_CALL:
    if (e->call.kind == CALL_EXPR)
      return false;
    for (int i = 0; i < e->call.nargs; i++)
      if (!pass_is_pure(pm, e->call.args[i]))
        return false;
    return true;
  case EX_MATCH:
    if (!pass_match_exhaustive(e) || !pass_is_pure(pm, e->match.scrut))
      return false;
    for (int i = 0; i < e->match.n; i++)
      if (!pass_is_pure(pm, e->match.clauses[i].body))
        return false;
    return true;
  }
  return false;
}

/* pure_node, memoised per node. */
bool pass_is_pure(PurityMemo *pm, const Expr *e) {
  int64_t *v = ptrmap_get(&pm->map, e);
  if (v)
    return *v == 1;
  bool pure = pure_node(pm, e);
  *ptrmap_put(&pm->map, e, NULL) = pure ? 1 : 2;
  return pure;
}

/* Release the memo. */
void pass_purity_free(PurityMemo *pm) {
  ptrmap_free(&pm->map);
}

/* A copy of n array elements of size sz (NULL when n is 0). */
static void *dup_array(Module *m, const void *src, int n, size_t sz) {
  if (n <= 0)
    return NULL;
  void *p = arena_alloc(m->arena, sz * (size_t)n);
  memcpy(p, src, sz * (size_t)n);
  return p;
}

/* A shallow copy with private child arrays (pass_int.h). */
Expr *pass_clone(Module *m, const Expr *e) {
  Expr *c = ir_expr_clone_node(m, e);
  switch (c->kind) {
  case EX_TUPLE: c->tuple.fields = dup_array(m, e->tuple.fields, e->tuple.n, sizeof(Expr *)); break;
  case EX_CALL: c->call.args = dup_array(m, e->call.args, e->call.nargs, sizeof(Expr *)); break;
  case EX_MATCH:
    c->match.clauses = dup_array(m, e->match.clauses, e->match.n, sizeof(Clause));
    break;
  default: break;
  }
  return c;
}

/* Give g's unannotated parameters and result their inferred types. */
static void pin_global(GlobalFn *g) {
  Expr *f = g->func;
  if (!f || f->kind != EX_FUNC)
    return;
  for (int i = 0; i < f->func.nparams; i++)
    if (!f->func.params[i]->annot && f->func.params[i]->type)
      f->func.params[i]->annot = f->func.params[i]->type;
  if (!f->func.ret && f->type && f->type->kind == TY_FUNC)
    f->func.ret = f->type->func.ret;
}

/* Annotate the binders of the variables and globals under *slot. */
static void pin_visit(Expr **slot, void *ctx) {
  if (!ptrmap_first(ctx, *slot))
    return;
  Expr *e = *slot;
  if (e->kind == EX_VAR && !e->var->annot && e->var->type)
    e->var->annot = e->var->type;
  if (e->kind == EX_GLOBAL)
    pin_global(e->global);
  ir_expr_children(e, pin_visit, ctx);
}

/* Pin what dropped code determined (pass_int.h). */
void pass_pin_refs(Expr *dropped) {
  PtrMap seen = {0};
  pin_visit(&dropped, &seen);
  ptrmap_free(&seen);
}

/* e, or e pinned to t by an annotated let when it no longer infers t alone. */
Expr *pass_pin_expr(Module *m, Expr *e, Type *t) {
  if (!t)
    return e;
  Diag d;
  diag_init(&d, NULL, NULL);
  bool ok = ty_check_expr(m, e, &d) && e->type && ir_type_equal(e->type, t);
  diag_free(&d);
  if (ok)
    return e;
  Var *v = ir_var(m, "pin", t);
  v->type = t;
  Expr *use = ir_var_ref(m, v);
  use->type = t;
  Expr *let = ir_let(m, v, e, use);
  let->type = t;
  return let;
}

/* A typed constant node. */
Expr *pass_const(Module *m, Tensor *t) {
  Expr *e = ir_const(m, t);
  e->type = ir_tensor_type_of(m->arena, t);
  return e;
}

/* A copy of t in the module's arena. */
Tensor *pass_tensor_copy(Module *m, const Tensor *t) {
  Tensor *c = ir_tensor_new(m->arena, t->dtype, t->rank, t->shape);
  size_t n = (size_t)t->numel * (size_t)ir_dtype_size(t->dtype);
  if (n)
    memcpy(c->data, t->data, n);
  return c;
}

/* Record a postcondition violation in d, naming the global. */
void pass_report(Diag *d, const GlobalFn *g, const Expr *at, const char *fmt, ...) {
  char msg[512];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(msg, sizeof msg, fmt, ap);
  va_end(ap);
  diag_error(d, at ? at->line : 0, at ? at->col : 0, "in @%s: %s", g ? g->name : "?", msg);
}
