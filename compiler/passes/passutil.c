/*
 * passutil.c - purity, exhaustiveness and small builders shared by the
 * optimisation passes (see passutil.h).
 */
#include <stdio.h>
#include <string.h>

#include "passutil.h"

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

bool pass_is_pure(PurityMemo *pm, const Expr *e) {
  int64_t *v = ptrmap_get(&pm->map, e);
  if (v)
    return *v == 1;
  bool pure = pure_node(pm, e);
  *ptrmap_put(&pm->map, e, NULL) = pure ? 1 : 2;
  return pure;
}

void pass_purity_free(PurityMemo *pm) {
  ptrmap_free(&pm->map);
}

Expr *pass_const(Module *m, Tensor *t) {
  Expr *e = ir_const(m, t);
  e->type = ir_tensor_type_of(m->arena, t);
  return e;
}

Tensor *pass_tensor_copy(Module *m, const Tensor *t) {
  Tensor *c = ir_tensor_new(m->arena, t->dtype, t->rank, t->shape);
  size_t n = (size_t)t->numel * (size_t)ir_dtype_size(t->dtype);
  if (n)
    memcpy(c->data, t->data, n);
  return c;
}

void pass_report(Diag *d, const GlobalFn *g, const Expr *at, const char *fmt, ...) {
  char msg[512];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(msg, sizeof msg, fmt, ap);
  va_end(ap);
  diag_error(d, at ? at->line : 0, at ? at->col : 0, "in @%s: %s", g ? g->name : "?", msg);
}
