/*
 * post.c - what the postcondition checkers (post_<name>) judge alike: the
 * contract's purity and total matches (pass_int.h), written apart from
 * the passes' pass_is_pure, so that a bug there cannot make a checker
 * agree with its pass.  No pass calls this file (scripts/mutation-score
 * mutates only what a pass reaches).
 */
#include "pass_int.h"

bool post_irrefutable(const Pattern *p) {
  if (p->kind == PAT_WILD || p->kind == PAT_VAR)
    return true;
  for (int i = 0; p->kind == PAT_TUPLE && i < p->n; i++)
    if (!post_irrefutable(p->sub[i]))
      return false;
  return p->kind == PAT_TUPLE;
}

/* Does some clause of match e take every value built with c? */
static bool takes_ctor(const Expr *e, const Ctor *c) {
  for (int i = 0; i < e->match.n; i++) {
    const Pattern *p = e->match.clauses[i].pat;
    bool all = p->kind == PAT_CTOR && p->ctor == c;
    for (int j = 0; all && j < p->n; j++)
      all = post_irrefutable(p->sub[j]);
    if (all)
      return true;
  }
  return false;
}

bool post_total_match(const Expr *e) {
  for (int i = 0; i < e->match.n; i++)
    if (post_irrefutable(e->match.clauses[i].pat))
      return true;
  const Type *t = e->match.scrut->type;
  if (!t || t->kind != TY_ADT || t->adt.def->nctors == 0)
    return false;
  for (int i = 0; i < t->adt.def->nctors; i++)
    if (!takes_ctor(e, t->adt.def->ctors[i]))
      return false;
  return true;
}

typedef struct {
  PtrMap *memo;
  bool all;
} PureKids;

static void pure_kid(Expr **slot, void *ctx) {
  PureKids *k = ctx;
  k->all = k->all && post_pure(k->memo, *slot);
}

bool post_pure(PtrMap *memo, const Expr *e) {
  int64_t *v = ptrmap_get(memo, e);
  if (v)
    return *v == 1;
  PureKids k = {memo, true};
  if (e->kind == EX_REF_NEW || e->kind == EX_REF_READ || e->kind == EX_REF_WRITE ||
      (e->kind == EX_CALL && e->call.kind == CALL_EXPR) ||
      (e->kind == EX_MATCH && !post_total_match(e)))
    k.all = false;
  else if (e->kind != EX_FUNC) /* making a closure runs nothing */
    ir_expr_children((Expr *)e, pure_kid, &k);
  *ptrmap_put(memo, e, NULL) = k.all ? 1 : 2;
  return k.all;
}
