/*
 * erase.c - erasing type annotations that inference is guaranteed to
 * recover (the rule is in typing.h), for the typecheck fuzzer.
 *
 * One walk over each global decides, node by node, whether the node's
 * type is known: bottom-up (it synthesizes) or from its context (checking
 * mode, E below).  Decisions are made in program order and only count on
 * annotations still present or on types earlier decisions showed to be
 * recoverable; trying to erase an annotation removes it first (so the
 * walk of its value cannot use it) and puts it back if the value does not
 * synthesize.  Being conservative is always sound: "unknown" only keeps
 * annotations.
 *
 * Deferred recovery (TY_RECOVER_DEFERRED): a function literal gets its
 * parameter types from a later call whose arguments are already known
 * where the literal stands: a call of the literal itself, or of the let
 * variable it is bound to (found by looking ahead in the let's body).
 * While inference generates the literal's body those types are unknowns:
 * the operator relations over them wait, merged with whatever the body
 * unifies them with, until the call binds them.
 */
#include <string.h>

#include "compiler/ir/hash.h"
#include "compiler/ir/ptrmap.h"
#include "typing.h"

enum { MAX_DEPTH = 10000, TYPE_DEPTH = 200 };

typedef struct Er {
  Module *m;
  uint64_t rng;
  bool all;
  unsigned recover; /* TY_RECOVER_* */
  bool dyn;         /* an annotation has an Any dim (see erasable) */
  const bool *src;  /* dyn: the next literal's parameters whose every source
                       is at least as static as their annotation (ew_func);
                       NULL: none */
  uint8_t *known;   /* by var id: the variable's type is recoverable */
  int capknown;
  PtrMap seen; /* Expr -> 1: visited, type unknown; 2: synthesizes */
  TyErased *items;
  int n, cap;
  int depth;
} Er;

/* Should this erasable annotation be erased?  (splitmix64 bits) */
static bool coin(Er *er) {
  if (er->all)
    return true;
  return (hash_splitmix64(&er->rng) & 1) != 0;
}

/* Remember an erasure. */
static void note(Er *er, TyErasedKind k, Var *v, Expr *f, Type *annot) {
  if (er->n == er->cap) {
    int nc = er->cap ? 2 * er->cap : 16;
    TyErased *p = ARENA_ARRAY(er->m->arena, TyErased, nc);
    if (er->n)
      memcpy(p, er->items, sizeof *p * (size_t)er->n);
    er->items = p;
    er->cap = nc;
  }
  er->items[er->n++] = (TyErased){k, v, f, annot};
}

static bool var_known(Er *er, const Var *v) {
  return v && v->id >= 0 && v->id < er->capknown && er->known[v->id];
}

static void set_known(Er *er, const Var *v, bool k) {
  if (!v || v->id < 0 || v->id >= (1 << 24))
    return;
  if (v->id >= er->capknown) {
    int nc = er->capknown ? er->capknown : 64;
    while (nc <= v->id)
      nc *= 2;
    uint8_t *p = ARENA_ARRAY(er->m->arena, uint8_t, nc);
    if (er->capknown)
      memcpy(p, er->known, (size_t)er->capknown);
    er->known = p;
    er->capknown = nc;
  }
  er->known[v->id] = k;
}

/* Is g's type known without inference: fully annotated? */
static bool global_known(const GlobalFn *g) {
  const Expr *f = g ? g->func : NULL;
  if (!f || f->kind != EX_FUNC || !f->func.ret)
    return false;
  for (int i = 0; i < f->func.nparams; i++)
    if (!f->func.params[i] || !f->func.params[i]->annot)
      return false;
  return true;
}

/* Is g polymorphic with a complete signature? */
static bool global_poly(const GlobalFn *g) {
  const Expr *f = g ? g->func : NULL;
  if (!f || f->kind != EX_FUNC || !f->func.ntvars || !f->func.ret)
    return false;
  for (int i = 0; i < f->func.nparams; i++)
    if (!f->func.params[i] || !f->func.params[i]->annot)
      return false;
  return true;
}

/* Does t contain an incomplete type (a `_` in the text)? */
static bool has_hole(const Type *t, int depth) {
  if (!t || depth > TYPE_DEPTH)
    return true;
  switch (t->kind) {
  case TY_INCOMPLETE: return true;
  case TY_TENSOR:
  case TY_VAR: return false;
  case TY_REF: return has_hole(t->ref.inner, depth + 1);
  case TY_TUPLE:
    for (int i = 0; i < t->tuple.n; i++)
      if (has_hole(t->tuple.fields[i], depth + 1))
        return true;
    return false;
  case TY_ADT:
    for (int i = 0; i < t->adt.nargs; i++)
      if (has_hole(t->adt.args[i], depth + 1))
        return true;
    return false;
  case TY_FUNC:
    for (int i = 0; i < t->func.nparams; i++)
      if (has_hole(t->func.params[i], depth + 1))
        return true;
    return has_hole(t->func.ret, depth + 1);
  }
  return true;
}

/* Visit the type parameters tv[0..n) occurring in t: with set, mark them
 * in D; otherwise return false if one is not marked. */
static bool tvars(const Type *t, int n, Type *const *tv, bool *D, bool set, int depth) {
  if (!t || depth > TYPE_DEPTH)
    return false;
  switch (t->kind) {
  case TY_VAR:
    for (int i = 0; i < n; i++)
      if (tv[i] == t) {
        if (set)
          D[i] = true;
        return D[i];
      }
    return true;
  case TY_TENSOR:
  case TY_INCOMPLETE: return true;
  case TY_REF: return tvars(t->ref.inner, n, tv, D, set, depth + 1);
  case TY_TUPLE:
  case TY_ADT:
  case TY_FUNC: {
    int k = t->kind == TY_TUPLE ? t->tuple.n : t->kind == TY_ADT ? t->adt.nargs : t->func.nparams;
    Type **src = t->kind == TY_TUPLE ? t->tuple.fields
                 : t->kind == TY_ADT ? t->adt.args
                                     : t->func.params;
    bool all = true;
    for (int i = 0; i < k; i++)
      all &= tvars(src[i], n, tv, D, set, depth + 1);
    if (t->kind == TY_FUNC)
      all &= tvars(t->func.ret, n, tv, D, set, depth + 1);
    return all;
  }
  }
  return false;
}

static bool ew(Er *er, Expr *e, bool E);
static bool ew_func(Er *er, Expr *e, bool pk, bool rk);

/* Is t a real annotation, without `_` holes?  (Only those are erased.) */
static bool solid(const Type *t) {
  return t && !has_hole(t, 0);
}

/* Does pattern p alone fix the scrutinee's whole type?  (Constructors of
 * type definitions without parameters, and tuples of such.) */
static bool pat_fixes(const Pattern *p, int depth) {
  if (!p || depth > MAX_DEPTH)
    return false;
  if (p->kind == PAT_CTOR)
    return p->ctor && p->ctor->def && p->ctor->def->ntvars == 0;
  if (p->kind != PAT_TUPLE)
    return false;
  for (int i = 0; i < p->n; i++)
    if (!pat_fixes(p->sub[i], depth + 1))
      return false;
  return true;
}

/* Does an annotation in e (a let's, a function literal's) have an Any dim? */
static void any_visit(Expr **slot, void *ctx) {
  bool *found = ctx;
  Expr *e = *slot;
  if (*found || !e)
    return;
  if (e->kind == EX_LET && e->let.var)
    *found = ir_type_has_any(e->let.var->annot);
  else if (e->kind == EX_FUNC) {
    for (int i = 0; i < e->func.nparams && !*found; i++)
      *found = e->func.params[i] && ir_type_has_any(e->func.params[i]->annot);
    *found = *found || ir_type_has_any(e->func.ret);
  }
  if (!*found)
    ir_expr_children(e, any_visit, ctx);
}

/* Is got at least as static as want: equal, but where want has an Any dim,
 * where got may have any dim (static or Any)?  The comparison of a
 * recovered type with the annotation erased (docs/oracles.md, "type"). */
static bool refines(const Type *got, const Type *want, int depth) {
  if (got == want)
    return true;
  if (!got || !want || got->kind != want->kind || depth > TYPE_DEPTH)
    return false;
  if (!ir_type_has_any(want))
    return ir_type_equal(got, want);
  switch (want->kind) {
  case TY_TENSOR:
    if (got->tensor.dtype != want->tensor.dtype || got->tensor.rank != want->tensor.rank)
      return false;
    for (int i = 0; i < want->tensor.rank && i < IR_MAX_RANK; i++)
      if (!ir_dim_is_any(want->tensor.shape[i]) && got->tensor.shape[i] != want->tensor.shape[i])
        return false;
    return true;
  case TY_REF: return refines(got->ref.inner, want->ref.inner, depth + 1);
  case TY_TUPLE:
    if (got->tuple.n != want->tuple.n)
      return false;
    for (int i = 0; i < want->tuple.n; i++)
      if (!refines(got->tuple.fields[i], want->tuple.fields[i], depth + 1))
        return false;
    return true;
  case TY_ADT:
    if (got->adt.def != want->adt.def || got->adt.nargs != want->adt.nargs)
      return false;
    for (int i = 0; i < want->adt.nargs; i++)
      if (!refines(got->adt.args[i], want->adt.args[i], depth + 1))
        return false;
    return true;
  case TY_FUNC:
    if (want->func.ntvars || got->func.ntvars || got->func.nparams != want->func.nparams)
      return ir_type_equal(got, want);
    for (int i = 0; i < want->func.nparams; i++)
      if (!refines(got->func.params[i], want->func.params[i], depth + 1))
        return false;
    return refines(got->func.ret, want->func.ret, depth + 1);
  default: return ir_type_equal(got, want);
  }
}

/* With Any dims about, an annotation can be wider than the type of what
 * flows into it (unification takes Any as compatible with any dim), and an
 * unknown takes the first type it meets (infer_int.h), so what inference
 * recovers depends on which source it meets first.  The recovered type
 * must be at least as static as the annotation (refines), so an
 * annotation goes only where every source is: a let's where its value's
 * inferred type (from the check that preceded the erasure) is; a function
 * literal's parameter and result under ew_func's rules.  Globals'
 * parameters and results and pattern variables, which contexts all over
 * the program may give, keep theirs.  Without Any dims, every solid
 * annotation is erasable. */
static bool erasable(const Er *er, const Type *annot, const Expr *from) {
  return solid(annot) && (!er->dyn || (from && refines(from->type, annot, 0)));
}

/* Uses of one variable in an expression: every EX_VAR naming it must be
 * an operator call's argument (lit NULL), or, for the literal lit bound to
 * it, the callee of a call with lit's arity whose argument i is at least
 * as static as lit's parameter i's annotation (else ok[i] goes false). */
typedef struct Uses {
  const Var *v;
  const Expr *lit;
  bool *ok;
  bool fine;
  int budget; /* nodes left to visit */
  PtrMap seen;
} Uses;

/* One child slot of parent, under u's rule, then its own children. */
typedef struct UsesAt {
  Uses *u;
  Expr *parent;
} UsesAt;

static void uses_visit(Expr **slot, void *ctx) {
  UsesAt *at = ctx;
  Uses *u = at->u;
  Expr *e = *slot, *p = at->parent;
  if (!u->fine || !e)
    return;
  if (e->kind == EX_VAR && e->var == u->v) {
    if (!u->lit) {
      u->fine = p && p->kind == EX_CALL && p->call.kind == CALL_OP && slot != &p->call.callee;
    } else if (p && p->kind == EX_CALL && p->call.kind == CALL_EXPR && slot == &p->call.callee &&
               p->call.nargs == u->lit->func.nparams) {
      for (int i = 0; i < p->call.nargs; i++) {
        const Var *q = u->lit->func.params[i];
        u->ok[i] &= q && q->annot && refines(p->call.args[i]->type, q->annot, 0);
      }
    } else {
      u->fine = false;
    }
    return;
  }
  if (--u->budget < 0) {
    u->fine = false;
    return;
  }
  if (!ptrmap_first(&u->seen, e))
    return;
  UsesAt in = {u, e};
  ir_expr_children(e, uses_visit, &in);
}

/* Check the uses of v in e (the root counts as a use in no call). */
static bool uses_check(Expr *e, const Var *v, const Expr *lit, bool *ok) {
  Uses u = {v, lit, ok, true, 4096, {0}};
  UsesAt at = {&u, NULL};
  uses_visit(&e, &at);
  ptrmap_free(&u.seen);
  return u.fine;
}

/* Is every variable e names annotated, or bound by a let inside e (then
 * lets[] has it), and e free of function literals?  (Then its type is
 * concrete when inference meets it: no unknown reaches it.) */
typedef struct Closed {
  bool fine;
  int budget;
  PtrMap seen, lets;
} Closed;

/* Add the variables pattern p binds to set. */
static void pat_bound(PtrMap *set, const Pattern *p, int depth) {
  if (!p || depth > MAX_DEPTH)
    return;
  if (p->kind == PAT_VAR && p->var)
    ptrmap_first(set, p->var);
  for (int i = 0; i < p->n && p->sub; i++)
    pat_bound(set, p->sub[i], depth + 1);
}

static void closed_visit(Expr **slot, void *ctx) {
  Closed *c = ctx;
  Expr *e = *slot;
  if (!c->fine || !e || !ptrmap_first(&c->seen, e))
    return;
  if (--c->budget < 0 || e->kind == EX_FUNC) {
    c->fine = false;
    return;
  }
  if (e->kind == EX_LET && e->let.var)
    ptrmap_first(&c->lets, e->let.var);
  for (int i = 0; e->kind == EX_MATCH && i < e->match.n; i++)
    pat_bound(&c->lets, e->match.clauses[i].pat, 0);
  if (e->kind == EX_VAR && !(e->var && (solid(e->var->annot) || ptrmap_get(&c->lets, e->var)))) {
    c->fine = false;
    return;
  }
  ir_expr_children(e, closed_visit, c);
}

/* Dyn: may literal e's result annotation r go?  Its type is then its
 * body's, which must be concrete when inference meets it (every variable
 * annotated, or a let's inside: closed_visit, before anything in the body
 * is erased; lets are entered before their bodies), and at least as
 * static as r. */
static bool ret_erasable(const Expr *e, const Type *r) {
  if (!r || r->kind != TY_TENSOR || !refines(e->func.body->type, r, 0))
    return false;
  Closed c = {true, 4096, {0}, {0}};
  Expr *body = e->func.body;
  closed_visit(&body, &c);
  ptrmap_free(&c.seen);
  ptrmap_free(&c.lets);
  return c.fine;
}

/* Pattern variables: known when the scrutinee's type is. */
static void ew_pat(Er *er, Pattern *p, bool known, int depth) {
  if (!p || depth > MAX_DEPTH)
    return;
  if (p->kind == PAT_VAR && p->var) {
    Var *v = p->var;
    if (erasable(er, v->annot, NULL) && known && coin(er)) {
      note(er, TY_ERASED_PATVAR, v, NULL, v->annot);
      v->annot = NULL;
    }
    set_known(er, v, known || v->annot);
  }
  for (int i = 0; i < p->n && p->sub; i++)
    ew_pat(er, p->sub[i], known, depth + 1);
}

/* A call whose parameter types P[0..n) and result R mention the type
 * parameters tv[0..ntv) (a polymorphic global or a constructor): a type
 * parameter is fixed by the expected result or by a synthesizing argument;
 * an argument whose parameter type is then fixed is checked. */
static bool ew_poly(Er *er, int ntv, Type *const *tv, Type *const *P, const Type *R, int n,
                    Expr **args, bool E) {
  bool Dbuf[16], done[16];
  bool *D = ntv <= 16 ? Dbuf : ARENA_ARRAY(er->m->arena, bool, ntv);
  bool *fdone = n <= 16 ? done : ARENA_ARRAY(er->m->arena, bool, n);
  memset(D, 0, sizeof *D * (size_t)ntv);
  memset(fdone, 0, sizeof *fdone * (size_t)n);
  if (E)
    tvars(R, ntv, tv, D, true, 0);
  for (int i = 0; i < n; i++) {
    if (args[i] && args[i]->kind == EX_FUNC)
      continue;
    if (tvars(P[i], ntv, tv, D, false, 0))
      ew(er, args[i], true);
    else if (ew(er, args[i], false))
      tvars(P[i], ntv, tv, D, true, 0);
  }
  /* Function literals, those whose parameter types are fixed first. */
  for (;;) {
    int pick = -1;
    for (int i = 0; i < n; i++) {
      if (fdone[i] || !args[i] || args[i]->kind != EX_FUNC)
        continue;
      const Type *p = P[i];
      bool fixed = true;
      if (p && p->kind == TY_FUNC)
        for (int j = 0; j < p->func.nparams; j++)
          fixed &= tvars(p->func.params[j], ntv, tv, D, false, 0);
      else
        fixed = tvars(p, ntv, tv, D, false, 0);
      if (fixed) {
        pick = i;
        break;
      }
      if (pick < 0)
        pick = i;
    }
    if (pick < 0)
      break;
    fdone[pick] = true;
    const Type *p = P[pick];
    bool pk, rk;
    if (p && p->kind == TY_FUNC) {
      pk = true;
      for (int j = 0; j < p->func.nparams; j++)
        pk &= tvars(p->func.params[j], ntv, tv, D, false, 0);
      rk = tvars(p->func.ret, ntv, tv, D, false, 0);
    } else {
      pk = rk = tvars(p, ntv, tv, D, false, 0);
    }
    if (ew_func(er, args[pick], pk, rk))
      tvars(p, ntv, tv, D, true, 0);
  }
  return E || tvars(R, ntv, tv, D, false, 0);
}

/* Is e's type known where the walk stands, without walking it (so
 * without erasing anything): constants, known variables and globals,
 * constructors of type definitions without parameters, and tuples,
 * operator calls, projections and refs of such.  (None of these holds an
 * annotation, so the walk cannot erase one inside them later.) */
static bool known_now(Er *er, const Expr *e, int depth) {
  if (!e || depth > TYPE_DEPTH)
    return false;
  switch (e->kind) {
  case EX_CONST: return true;
  case EX_VAR: return var_known(er, e->var);
  case EX_GLOBAL: return global_known(e->global);
  case EX_TUPLE:
    for (int i = 0; i < e->tuple.n; i++)
      if (!known_now(er, e->tuple.fields[i], depth + 1))
        return false;
    return true;
  case EX_CALL:
    if (e->call.kind == CALL_EXPR ||
        (e->call.kind == CALL_CTOR &&
         (!e->call.ctor || !e->call.ctor->def || e->call.ctor->def->ntvars)))
      return false;
    for (int i = 0; i < e->call.nargs; i++)
      if (!known_now(er, e->call.args[i], depth + 1))
        return false;
    return true;
  case EX_PROJ: return known_now(er, e->proj.tuple, depth + 1);
  case EX_REF_NEW: return known_now(er, e->ref_new.value, depth + 1);
  case EX_REF_READ: return known_now(er, e->ref_read.ref, depth + 1);
  default: return false;
  }
}

/* Are all of the n expressions known now? */
static bool all_known_now(Er *er, int n, Expr *const *es) {
  for (int i = 0; i < n; i++)
    if (!known_now(er, es[i], 0))
      return false;
  return true;
}

/* Looking ahead for a call of f with n arguments known now. */
typedef struct Ahead {
  Er *er;
  const Var *f;
  int n;
  int budget; /* nodes left to visit */
  PtrMap seen;
  bool found;
} Ahead;

static void ahead_visit(Expr **slot, void *ctx) {
  Ahead *a = ctx;
  Expr *e = *slot;
  if (a->found || --a->budget < 0 || !ptrmap_first(&a->seen, e))
    return;
  if (e->kind == EX_CALL && e->call.kind == CALL_EXPR && e->call.callee &&
      e->call.callee->kind == EX_VAR && e->call.callee->var == a->f && e->call.nargs == a->n &&
      all_known_now(a->er, a->n, e->call.args)) {
    a->found = true;
    return;
  }
  ir_expr_children(e, ahead_visit, a);
}

/* Does body call f with n arguments whose types are known now?  (Then
 * inference binds f's parameter types there.) */
static bool called_later(Er *er, Expr *body, const Var *f, int n) {
  Ahead a = {er, f, n, 4096, {0}, false};
  if (body)
    ahead_visit(&body, &a);
  ptrmap_free(&a.seen);
  return a.found;
}

/* A let's value, for variable v that is not annotated (or is being
 * erased): is its type known?  A function literal whose parameter types
 * a later call in the let's body gives has its parameters erased too. */
static bool ew_value(Er *er, Expr *value, Expr *body, const Var *v) {
  if ((er->recover & TY_RECOVER_DEFERRED) && value && value->kind == EX_FUNC &&
      !value->func.ntvars && !ptrmap_get(&er->seen, value) &&
      called_later(er, body, v, value->func.nparams)) {
    if (er->dyn) { /* the sources: the arguments of every call of v */
      int n = value->func.nparams;
      bool *src = ARENA_ARRAY(er->m->arena, bool, n + 1);
      for (int i = 0; i < n; i++)
        src[i] = true;
      if (body && uses_check(body, v, value, src))
        er->src = src;
    }
    return ew_func(er, value, true, false);
  }
  return ew(er, value, false);
}

/* The function type of a callee, when it can be told: its type from the
 * check that preceded the erasure, or its variable's annotation. */
static const Type *callee_type(const Expr *c) {
  const Type *t = c->type;
  if (!t && c->kind == EX_VAR && c->var)
    t = c->var->annot;
  return t && t->kind == TY_FUNC ? t : NULL;
}

/* A call: of a polymorphic global, a constructor, or another callee. */
static bool ew_call(Er *er, Expr *e, bool E) {
  int n = e->call.nargs;
  if (e->call.kind == CALL_OP) {
    bool all = true;
    for (int i = 0; i < n; i++)
      all &= ew(er, e->call.args[i], false);
    return E || all;
  }
  if (e->call.kind == CALL_CTOR) {
    Ctor *c = e->call.ctor;
    if (!c || !c->def || c->nfields != n) {
      for (int i = 0; i < n; i++)
        ew(er, e->call.args[i], false);
      return E;
    }
    TypeDef *td = c->def;
    Type *R = ir_adt_type(er->m->arena, td, td->ntvars, td->tvars);
    return ew_poly(er, td->ntvars, td->tvars, c->fields, R, n, e->call.args, E);
  }
  Expr *callee = e->call.callee;
  if (callee && callee->kind == EX_GLOBAL && global_poly(callee->global) &&
      callee->global->func->func.nparams == n) {
    Expr *f = callee->global->func;
    *ptrmap_put(&er->seen, callee, NULL) = 1;
    Type **P = ARENA_ARRAY(er->m->arena, Type *, n + 1);
    for (int i = 0; i < n; i++)
      P[i] = f->func.params[i]->annot;
    return ew_poly(er, f->func.ntvars, f->func.tvars, P, f->func.ret, n, e->call.args, E);
  }
  /* Deferred: a function literal called on the spot with arguments known
   * now gets its parameter types from them (inference meets them after
   * the literal's body); the arguments synthesize. */
  if ((er->recover & TY_RECOVER_DEFERRED) && callee && callee->kind == EX_FUNC &&
      !callee->func.ntvars && callee->func.nparams == n && !ptrmap_get(&er->seen, callee) &&
      all_known_now(er, n, e->call.args)) {
    bool *src = ARENA_ARRAY(er->m->arena, bool, n + 1);
    for (int i = 0; i < n; i++) { /* the call's arguments are the sources */
      const Var *p = callee->func.params[i];
      src[i] = p && p->annot && refines(e->call.args[i]->type, p->annot, 0);
    }
    er->src = src;
    bool rk = ew_func(er, callee, true, E);
    for (int i = 0; i < n; i++)
      ew(er, e->call.args[i], false);
    return E || rk;
  }
  /* Another callee whose type is known: arguments are checked against a
   * monomorphic one; a polymorphic one (a parameter of type fn [T](..))
   * is instantiated at the call, like a polymorphic global. */
  bool kc = ew(er, callee, false);
  const Type *F = kc ? callee_type(callee) : NULL;
  if (F && F->func.ntvars && F->func.nparams == n)
    return ew_poly(er, F->func.ntvars, F->func.tvars, F->func.params, F->func.ret, n, e->call.args,
                   E);
  bool mono = F ? !F->func.ntvars
                : kc && (callee->kind == EX_FUNC ||
                         (callee->kind == EX_GLOBAL && !callee->global->func->func.ntvars));
  for (int i = 0; i < n; i++)
    ew(er, e->call.args[i], mono);
  return E || mono;
}

/* A function literal whose parameter types (pk) and return type (rk) are
 * known from its context or not. */
static bool ew_func(Er *er, Expr *e, bool pk, bool rk) {
  *ptrmap_put(&er->seen, e, NULL) = 1;
  const bool *src = er->src;
  er->src = NULL;
  bool allp = true;
  for (int i = 0; i < e->func.nparams; i++) {
    Var *v = e->func.params[i];
    if (!v) {
      allp = false;
      continue;
    }
    /* Dyn: only where every source is at least as static (er->src) and
     * the body only gives it to operators, whose relations wait. */
    bool ok = er->dyn ? solid(v->annot) && src && src[i] && uses_check(e->func.body, v, NULL, NULL)
                      : erasable(er, v->annot, NULL);
    if (ok && pk && !e->func.ntvars && coin(er)) {
      note(er, TY_ERASED_PARAM, v, NULL, v->annot);
      v->annot = NULL;
    }
    bool k = pk || v->annot;
    set_known(er, v, k);
    allp &= k;
  }
  Type *r = e->func.ret;
  bool rt;
  bool rok = er->dyn ? solid(r) && ret_erasable(e, r) : erasable(er, r, NULL);
  if (rok && !e->func.ntvars && coin(er)) {
    e->func.ret = NULL;
    rt = ew(er, e->func.body, rk) || rk;
    if (rt)
      note(er, TY_ERASED_RET, NULL, e, r);
    else
      e->func.ret = r;
    rt = true;
  } else {
    rt = ew(er, e->func.body, r || rk) || r;
  }
  return allp && rt;
}

/* Dyn: a function literal checked against a let's annotation t gets its
 * parameter types from t when the let is met, before any other source
 * (ew_func asks that its body give them only to operators). */
static void lit_src(Er *er, const Expr *value, const Type *t) {
  if (!er->dyn || !value || value->kind != EX_FUNC || t->kind != TY_FUNC || t->func.ntvars ||
      t->func.nparams != value->func.nparams || ptrmap_get(&er->seen, value))
    return;
  int n = value->func.nparams;
  bool *src = ARENA_ARRAY(er->m->arena, bool, n + 1);
  for (int i = 0; i < n; i++) {
    const Var *p = value->func.params[i];
    src[i] = p && p->annot && refines(t->func.params[i], p->annot, 0);
  }
  er->src = src;
}

/* A let chain, iterated. */
static bool ew_let(Er *er, Expr *e, bool E) {
  Expr *cur = e;
  for (;;) {
    Var *v = cur->let.var;
    bool kv;
    if (v && erasable(er, v->annot, cur->let.value) && coin(er)) {
      Type *a = v->annot;
      v->annot = NULL;
      if (ew_value(er, cur->let.value, cur->let.body, v))
        note(er, TY_ERASED_LET, v, NULL, a);
      else
        v->annot = a;
      kv = true;
    } else if (v && v->annot) {
      lit_src(er, cur->let.value, v->annot);
      ew(er, cur->let.value, true);
      kv = true;
    } else {
      kv = ew_value(er, cur->let.value, cur->let.body, v);
    }
    set_known(er, v, kv);
    cur = cur->let.body;
    if (!cur || cur->kind != EX_LET)
      return ew(er, cur, E);
  }
}

/* The walk proper: is e's type known (E: known from the context)? */
static bool walk(Er *er, Expr *e, bool E) {
  switch (e->kind) {
  case EX_VAR: return E || var_known(er, e->var);
  case EX_GLOBAL: return E || global_known(e->global);
  case EX_CONST: return true;
  case EX_TUPLE: {
    bool all = true;
    for (int i = 0; i < e->tuple.n; i++)
      all &= ew(er, e->tuple.fields[i], E);
    return E || all;
  }
  case EX_PROJ: return ew(er, e->proj.tuple, false) || E;
  case EX_LET: return ew_let(er, e, E);
  case EX_IF: {
    ew(er, e->if_.cond, true);
    if (E) {
      ew(er, e->if_.then, true);
      ew(er, e->if_.els, true);
      return true;
    }
    if (ew(er, e->if_.then, false)) {
      ew(er, e->if_.els, true);
      return true;
    }
    return ew(er, e->if_.els, false);
  }
  case EX_CALL: return ew_call(er, e, E);
  case EX_FUNC: return ew_func(er, e, E, E);
  case EX_REF_NEW: return ew(er, e->ref_new.value, E);
  case EX_REF_READ: return ew(er, e->ref_read.ref, E);
  case EX_REF_WRITE: {
    bool kr = ew(er, e->ref_write.ref, false);
    ew(er, e->ref_write.value, kr);
    return true;
  }
  case EX_MATCH: {
    bool fixes = false;
    for (int i = 0; i < e->match.n; i++)
      fixes |= pat_fixes(e->match.clauses[i].pat, 0);
    bool ks = ew(er, e->match.scrut, fixes);
    bool found = E;
    for (int i = 0; i < e->match.n; i++) {
      ew_pat(er, e->match.clauses[i].pat, ks, 0);
      if (ew(er, e->match.clauses[i].body, found))
        found = true;
    }
    return found;
  }
  }
  return E;
}

/* Walk e once (shared nodes answer from memory; they bind nothing). */
static bool ew(Er *er, Expr *e, bool E) {
  if (!e)
    return E;
  if (e->kind != EX_FUNC)
    er->src = NULL; /* meant for a literal only */
  int added;
  int64_t *slot = ptrmap_put(&er->seen, e, &added);
  if (!added)
    return E || *slot == 2;
  *slot = 1;
  if (er->depth >= MAX_DEPTH)
    return E;
  er->depth++;
  bool k = walk(er, e, E);
  er->depth--;
  er->src = NULL;
  if (!E && k)
    *ptrmap_get(&er->seen, e) = 2;
  return k;
}

/* Deferred, for globals: the calls that fix a global's parameter types,
 * found before anything is erased. */
typedef struct Calls {
  const Expr *main; /* @main's function, or NULL */
  PtrMap lets;      /* Var -> its let's value (Expr *) */
  PtrMap seen;      /* expressions visited */
  PtrMap fixes;     /* GlobalFn -> its number of arguments: some call of
                       it has fixed arguments */
} Calls;

static bool fixed(Calls *c, const Expr *e, int depth);

/* A constructor call: fixed when its arguments are, or are nullary
 * constructors whose types the others fix (`Cons(%x, Nil)`), and every
 * type parameter is fixed by some argument. */
static bool fixed_ctor(Calls *c, const Expr *e, int depth) {
  const Ctor *k = e->call.ctor;
  if (!k || !k->def || k->nfields != e->call.nargs || k->def->ntvars > 16)
    return false;
  bool D[16] = {false}, fix[32] = {false};
  if (e->call.nargs > (int)(sizeof fix / sizeof *fix))
    return false;
  for (int i = 0; i < e->call.nargs; i++)
    if ((fix[i] = fixed(c, e->call.args[i], depth + 1)))
      tvars(k->fields[i], k->def->ntvars, k->def->tvars, D, true, 0);
  for (int i = 0; i < e->call.nargs; i++) {
    const Expr *a = e->call.args[i];
    if (!fix[i] && !(a->kind == EX_CALL && a->call.kind == CALL_CTOR && a->call.nargs == 0 &&
                     tvars(k->fields[i], k->def->ntvars, k->def->tvars, D, false, 0)))
      return false;
  }
  for (int i = 0; i < k->def->ntvars; i++)
    if (!D[i])
      return false;
  return true;
}

/* Is e's type fixed whatever is erased?  Constants, @main's parameters
 * (never erased), let variables bound to fixed values, and tuples,
 * operator calls, constructors, projections and refs of such. */
static bool fixed(Calls *c, const Expr *e, int depth) {
  if (!e || depth > TYPE_DEPTH)
    return false;
  switch (e->kind) {
  case EX_CONST: return true;
  case EX_VAR: {
    for (int i = 0; c->main && i < c->main->func.nparams; i++)
      if (c->main->func.params[i] == e->var)
        return e->var->annot != NULL;
    const int64_t *v = ptrmap_get(&c->lets, e->var);
    return v && fixed(c, (const Expr *)(intptr_t)*v, depth + 1);
  }
  case EX_TUPLE:
    for (int i = 0; i < e->tuple.n; i++)
      if (!fixed(c, e->tuple.fields[i], depth + 1))
        return false;
    return true;
  case EX_CALL:
    if (e->call.kind == CALL_CTOR)
      return fixed_ctor(c, e, depth);
    if (e->call.kind != CALL_OP)
      return false;
    for (int i = 0; i < e->call.nargs; i++)
      if (!fixed(c, e->call.args[i], depth + 1))
        return false;
    return true;
  case EX_PROJ: return fixed(c, e->proj.tuple, depth + 1);
  case EX_REF_NEW: return fixed(c, e->ref_new.value, depth + 1);
  case EX_REF_READ: return fixed(c, e->ref_read.ref, depth + 1);
  default: return false;
  }
}

/* First walk: every let's value, by variable. */
static void lets_visit(Expr **slot, void *ctx) {
  Calls *c = ctx;
  Expr *e = *slot;
  int added;
  ptrmap_put(&c->seen, e, &added);
  if (!added)
    return;
  if (e->kind == EX_LET && e->let.var)
    *ptrmap_put(&c->lets, e->let.var, NULL) = (int64_t)(intptr_t)e->let.value;
  ir_expr_children(e, lets_visit, c);
}

/* Second walk: the calls of globals with fixed arguments. */
static void calls_visit(Expr **slot, void *ctx) {
  Calls *c = ctx;
  Expr *e = *slot;
  int added;
  ptrmap_put(&c->seen, e, &added);
  if (!added)
    return;
  if (e->kind == EX_CALL && e->call.kind == CALL_EXPR && e->call.callee &&
      e->call.callee->kind == EX_GLOBAL && e->call.callee->global) {
    bool all = true;
    for (int i = 0; i < e->call.nargs && all; i++)
      all = fixed(c, e->call.args[i], 0);
    if (all)
      *ptrmap_put(&c->fixes, e->call.callee->global, NULL) = e->call.nargs;
  }
  ir_expr_children(e, calls_visit, c);
}

/* Find the calls of m's globals with fixed arguments. */
static void find_calls(Calls *c, Module *m) {
  for (int pass = 0; pass < 2; pass++) {
    ptrmap_free(&c->seen);
    memset(&c->seen, 0, sizeof c->seen);
    for (int i = 0; i < m->nfuncs; i++)
      if (m->funcs[i] && m->funcs[i]->func)
        (pass ? calls_visit : lets_visit)(&m->funcs[i]->func, c);
  }
}

/* Can global g's parameter annotations go, because a call gives them?
 * (Not @main's, nor a polymorphic global's.) */
static bool params_fixed(Calls *c, const GlobalFn *g) {
  const Expr *f = g->func;
  const int64_t *n = ptrmap_get(&c->fixes, g);
  return n && *n == f->func.nparams && f != c->main && !f->func.ntvars;
}

TyErasure ty_erase_annotations(Module *m, uint64_t seed) {
  return ty_erase_annotations_by(m, seed, TY_RECOVER_DEFERRED);
}

TyErasure ty_erase_annotations_by(Module *m, uint64_t seed, unsigned recover) {
  Er er = {.m = m, .rng = seed, .all = seed == TY_ERASE_ALL, .recover = recover};
  GlobalFn *main = ir_global_get(m, "main");
  Calls calls = {main && main->func && main->func->kind == EX_FUNC ? main->func : NULL};
  if (recover & TY_RECOVER_DEFERRED)
    find_calls(&calls, m);
  for (int i = 0; i < m->nfuncs && !er.dyn; i++)
    if (m->funcs[i] && m->funcs[i]->func)
      any_visit(&m->funcs[i]->func, &er.dyn);
  for (int i = 0; i < m->nfuncs; i++) {
    GlobalFn *g = m->funcs[i];
    Expr *f = g ? g->func : NULL;
    if (!f || f->kind != EX_FUNC)
      continue;
    *ptrmap_put(&er.seen, f, NULL) = 1;
    bool pk = params_fixed(&calls, g);
    for (int j = 0; j < f->func.nparams; j++) {
      Var *v = f->func.params[j];
      if (v && pk && erasable(&er, v->annot, NULL) && coin(&er)) {
        note(&er, TY_ERASED_PARAM, v, NULL, v->annot);
        v->annot = NULL;
      }
      if (v)
        set_known(&er, v, pk || v->annot);
    }
    Type *r = f->func.ret;
    if (erasable(&er, r, NULL) && !f->func.ntvars && coin(&er)) {
      f->func.ret = NULL; /* references to g no longer count as known */
      if (ew(&er, f->func.body, false))
        note(&er, TY_ERASED_RET, NULL, f, r);
      else
        f->func.ret = r;
    } else {
      ew(&er, f->func.body, r != NULL);
    }
  }
  ptrmap_free(&er.seen);
  ptrmap_free(&calls.lets);
  ptrmap_free(&calls.seen);
  ptrmap_free(&calls.fixes);
  return (TyErasure){er.n, er.items};
}

bool ty_erasure_verify(const TyErasure *er, Diag *d) {
  bool ok = true;
  for (int i = 0; i < er->n; i++) {
    const TyErased *it = &er->items[i];
    const Type *got = NULL;
    const char *what = "";
    if (it->kind == TY_ERASED_RET) {
      const Type *ft = it->func->type;
      got = ft && ft->kind == TY_FUNC ? ft->func.ret : NULL;
      what = "the return type of a function";
    } else {
      got = it->var->type;
      what = it->kind == TY_ERASED_LET     ? "let variable"
             : it->kind == TY_ERASED_PARAM ? "parameter"
                                           : "pattern variable";
    }
    if (!refines(got, it->annot, 0)) {
      ok = false;
      const Expr *at = it->func;
      diag_error(d, at ? at->line : 0, at ? at->col : 0, "erased annotation not recovered: %s%s%s",
                 what, it->var ? " %" : "", it->var ? it->var->name : "");
    }
  }
  return ok;
}

void ty_erasure_restore(const TyErasure *er) {
  for (int i = 0; i < er->n; i++) {
    const TyErased *it = &er->items[i];
    if (it->kind == TY_ERASED_RET)
      it->func->func.ret = it->annot;
    else
      it->var->annot = it->annot;
  }
}
