/*
 * inline.c - function inlining, as Relay's Inline pass, extended to
 * let-bound function literals.
 *
 * Requires: a well-formed, type-checked module (the types of arguments are
 * read to instantiate polymorphic globals).
 * Does:
 *   - a direct call @g(a1, .., an) of a global g is inlined when g is not
 *     recursive (not reachable from itself through global references) and
 *     is marked Inline=1 or is referenced exactly once (by this call); a
 *     polymorphic g is inlined only when the call's argument and result
 *     types determine every type parameter (annotations in the copy are
 *     instantiated);
 *   - `let %f = fn (..) {..}; body` (not primitive, not polymorphic) where
 *     %f is used exactly once, as the callee of a call, is removed and that
 *     call inlined;
 *   - an inlined call becomes `let %p1 = a1; .. let %pn = an; body`, so the
 *     arguments are evaluated once, in order, before the body, as the call
 *     did.  A global's body is copied with every binder renamed to a fresh
 *     variable (each variable stays bound once in the module); a let-bound
 *     literal's body is moved, as the literal disappears.
 *   - when the inlined body no longer infers to the call's type on its own
 *     (its return annotation determined it), it is pinned with an
 *     annotated let (pass_int.h);
 *   - callees are processed before they are copied, so nested calls are
 *     inlined once, in the callee; a global all of whose references were
 *     inlined calls is removed (never @main);
 *   - rounds repeat until the postcondition holds, since an inlined body
 *     can make a new direct call (a global returned as a value, then
 *     called).
 * Contract (pass.h): PASS_EXACT.  The arguments are bound by lets in the
 * order the call evaluated them, before the body, and evaluating the
 * callee (a global or a variable) has no effect, so every ref effect and
 * every failure happens as and when it did; no arithmetic changes.
 * Guarantees (post_inline, decided by code of its own, which shares no
 * function with the pass): no direct call @g(..) remains of a global g
 * that is a function literal, not primitive, not recursive (g is not among
 * the globals its body references, nor theirs, and so on), marked Inline=1
 * or referenced once (one EX_GLOBAL slot in the module), and whose type
 * parameters (at most INL_MAX_TVARS) each occur in a parameter or return
 * annotation (a well-typed call's types then determine them); and no `let
 * %f = fn (..) {..}` (not primitive, not polymorphic) remains whose %f is
 * named by exactly one EX_VAR slot, the callee of a call.
 *
 * Shapes (what a program must contain to exercise this pass; the
 * "inline" policy, generator/inline.c, makes them at any node of the
 * right type):
 *   - calls of globals referenced once (inlined), twice (kept) or twice
 *     and marked Inline=1 (inlined at both calls, the global kept if still
 *     referenced as a value); recursive globals, marked or not (never);
 *   - globals used as values: `let %f = @g; %f(..)` (kept), and, from
 *     the default forms, a global returned by a call and then called (a
 *     direct call only after a round);
 *   - polymorphic globals whose type parameters the call's argument and
 *     result types determine (annotations in the copy instantiated),
 *     called once, twice, or through `let %f: fn(..) -> T = @g`;
 *   - let-bound function literals used once as a callee (inlined), twice,
 *     or once but not as a callee (`let %h = %f; %h(..)`: kept);
 *   - from the default forms: arguments with effects and parameters used
 *     zero or several times (an inlined call still evaluates each
 *     argument once, in order), bodies whose type only the return
 *     annotation fixed (pinned).
 */
#include <string.h>

#include "pass.h"
#include "pass_int.h"

enum { INL_MAX_TVARS = 16 };

/* Reference counts over a whole module. */
typedef struct {
  PtrMap refs, calls;  /* GlobalFn* -> EX_GLOBAL slots; of which callee slots */
  PtrMap rec;          /* GlobalFn* -> 1 when reachable from itself */
  PtrMap vuses, vcall; /* Var* -> EX_VAR slots naming it; of which callee slots */
  PtrMap vsite;        /* Var* -> the call whose callee it is */
  PtrMap seen;
} Counts;

/* Count the reference in one slot (callee slots separately). */
static void count_slot(Counts *c, Expr *parent, Expr **slot) {
  Expr *e = *slot;
  bool callee = parent && parent->kind == EX_CALL && parent->call.kind == CALL_EXPR &&
                slot == &parent->call.callee;
  if (e->kind == EX_GLOBAL) {
    (*ptrmap_put(&c->refs, e->global, NULL))++;
    if (callee)
      (*ptrmap_put(&c->calls, e->global, NULL))++;
  }
  if (e->kind == EX_VAR) {
    (*ptrmap_put(&c->vuses, e->var, NULL))++;
    if (callee) {
      (*ptrmap_put(&c->vcall, e->var, NULL))++;
      *ptrmap_put(&c->vsite, e->var, NULL) = (int64_t)(intptr_t)parent;
    }
  }
}

typedef struct {
  Counts *c;
  Expr *parent;
} CountCtx;

/* Count every slot under *slot, each node's children once. */
static void count_visit(Expr **slot, void *ctx) {
  CountCtx *k = ctx;
  count_slot(k->c, k->parent, slot);
  if (!ptrmap_first(&k->c->seen, *slot))
    return;
  CountCtx sub = {k->c, *slot};
  ir_expr_children(*slot, count_visit, &sub);
}

/* Globals referenced directly from g's body, into out (a set). */
typedef struct {
  PtrMap *out;
  PtrMap seen;
} Direct;

/* Collect the globals referenced under *slot. */
static void direct_visit(Expr **slot, void *ctx) {
  Direct *d = ctx;
  if (!ptrmap_first(&d->seen, *slot))
    return;
  if ((*slot)->kind == EX_GLOBAL)
    ptrmap_put(d->out, (*slot)->global, NULL);
  ir_expr_children(*slot, direct_visit, d);
}

/* Is g reachable from itself?  Depth-first over direct references. */
static bool reaches(const Module *m, PtrMap *direct, GlobalFn *from, GlobalFn *to,
                    PtrMap *visited) {
  int idx = -1;
  for (int i = 0; i < m->nfuncs; i++)
    if (m->funcs[i] == from)
      idx = i;
  if (idx < 0)
    return false;
  for (int i = 0; i < m->nfuncs; i++) {
    GlobalFn *h = m->funcs[i];
    if (!ptrmap_get(&direct[idx], h))
      continue;
    if (h == to)
      return true;
    if (ptrmap_first(visited, h) && reaches(m, direct, h, to, visited))
      return true;
  }
  return false;
}

/* Reference counts and recursion for every global and variable of m. */
static void counts_compute(Counts *c, const Module *m) {
  memset(c, 0, sizeof *c);
  PtrMap *direct = calloc((size_t)m->nfuncs + 1, sizeof *direct);
  for (int i = 0; i < m->nfuncs; i++) {
    GlobalFn *g = m->funcs[i];
    if (!g->func)
      continue;
    CountCtx k = {c, NULL};
    count_visit(&g->func, &k);
    Direct d = {&direct[i], {0}};
    direct_visit(&g->func, &d);
    ptrmap_free(&d.seen);
  }
  for (int i = 0; i < m->nfuncs; i++) {
    PtrMap visited = {0};
    if (reaches(m, direct, m->funcs[i], m->funcs[i], &visited))
      ptrmap_put(&c->rec, m->funcs[i], NULL);
    ptrmap_free(&visited);
  }
  for (int i = 0; i < m->nfuncs; i++)
    ptrmap_free(&direct[i]);
  free(direct);
}

/* Release the counts. */
static void counts_free(Counts *c) {
  ptrmap_free(&c->refs);
  ptrmap_free(&c->calls);
  ptrmap_free(&c->rec);
  ptrmap_free(&c->vuses);
  ptrmap_free(&c->vcall);
  ptrmap_free(&c->vsite);
  ptrmap_free(&c->seen);
}

/* The count stored for k (0 when absent). */
static int64_t count_of(PtrMap *map, const void *k) {
  int64_t *v = ptrmap_get(map, k);
  return v ? *v : 0;
}

/* ------------------------------------------------------- instantiation */

/* Match a parameter type (mentioning tvars) against an argument's type. */
static bool tmatch(const Type *pat, const Type *act, int n, Type *const *tvars, Type **inst) {
  if (!pat || !act)
    return true; /* unknown: leaves a type parameter undetermined at worst */
  if (pat->kind == TY_VAR)
    for (int i = 0; i < n; i++)
      if (tvars[i] == pat) {
        if (!inst[i])
          inst[i] = (Type *)act; /* the first, as the checker binds it */
        return ir_type_unifies(inst[i], act);
      }
  if (pat->kind != act->kind)
    return false;
  switch (pat->kind) {
  case TY_TUPLE:
    if (pat->tuple.n != act->tuple.n)
      return false;
    for (int i = 0; i < pat->tuple.n; i++)
      if (!tmatch(pat->tuple.fields[i], act->tuple.fields[i], n, tvars, inst))
        return false;
    return true;
  case TY_FUNC:
    if (pat->func.nparams != act->func.nparams)
      return false;
    for (int i = 0; i < pat->func.nparams; i++)
      if (!tmatch(pat->func.params[i], act->func.params[i], n, tvars, inst))
        return false;
    return tmatch(pat->func.ret, act->func.ret, n, tvars, inst);
  case TY_REF: return tmatch(pat->ref.inner, act->ref.inner, n, tvars, inst);
  case TY_ADT:
    if (pat->adt.def != act->adt.def || pat->adt.nargs != act->adt.nargs)
      return false;
    for (int i = 0; i < pat->adt.nargs; i++)
      if (!tmatch(pat->adt.args[i], act->adt.args[i], n, tvars, inst))
        return false;
    return true;
  default: return true;
  }
}

/* Determine fn's type parameters at call; false when some stays unknown. */
static bool instantiate(const Expr *fn, const Expr *call, Type **inst) {
  int n = fn->func.ntvars;
  if (n > INL_MAX_TVARS)
    return false;
  const Type *fty = fn->type && fn->type->kind == TY_FUNC ? fn->type : NULL;
  for (int i = 0; i < n; i++)
    inst[i] = NULL;
  for (int i = 0; i < fn->func.nparams; i++) {
    const Type *pat = fn->func.params[i]->annot;
    if (!pat && fty && fty->func.nparams == fn->func.nparams)
      pat = fty->func.params[i];
    if (!tmatch(pat, call->call.args[i]->type, n, fn->func.tvars, inst))
      return false;
  }
  const Type *ret = fn->func.ret ? fn->func.ret : fty ? fty->func.ret : NULL;
  if (!tmatch(ret, call->type, n, fn->func.tvars, inst))
    return false;
  for (int i = 0; i < n; i++)
    if (!inst[i])
      return false;
  return true;
}

/* Is this call of a global to be inlined?  (Shared by pass and checker.) */
static bool site_ok(Counts *c, const Expr *call, Type **inst) {
  if (call->kind != EX_CALL || call->call.kind != CALL_EXPR || call->call.callee->kind != EX_GLOBAL)
    return false;
  GlobalFn *g = call->call.callee->global;
  const Expr *fn = g->func;
  if (!fn || fn->kind != EX_FUNC || fn->func.primitive || fn->func.nparams != call->call.nargs)
    return false;
  if (ptrmap_get(&c->rec, g) || !(g->is_inline || count_of(&c->refs, g) == 1))
    return false;
  return fn->func.ntvars == 0 || instantiate(fn, call, inst);
}

/* Is `let v = value` a function literal to inline at its one call? */
static bool letfn_ok(Counts *c, const Var *v, const Expr *value) {
  if (value->kind != EX_FUNC || value->func.primitive || value->func.ntvars != 0)
    return false;
  if (count_of(&c->vuses, v) != 1 || count_of(&c->vcall, v) != 1)
    return false;
  const Expr *site = (const Expr *)(intptr_t)count_of(&c->vsite, v);
  return site && site->call.nargs == value->func.nparams;
}

/* ------------------------------------------------ copying with fresh vars */

typedef struct {
  Module *m;
  PtrMap vars; /* Var* -> fresh Var* */
  PtrMap memo; /* Expr* -> copy */
  int n;
  Type **from, **to; /* type parameter instantiation */
} Copy;

/* t with the type parameters instantiated. */
static Type *cty(Copy *c, Type *t) {
  return t && c->n ? ir_type_subst(c->m->arena, t, c->n, c->from, c->to) : t;
}

/* A fresh variable standing for v in the copy. */
static Var *fresh(Copy *c, Var *v) {
  Var *n = ir_var(c->m, v->name, cty(c, v->annot));
  n->type = cty(c, v->type);
  *ptrmap_put(&c->vars, v, NULL) = (int64_t)(intptr_t)n;
  return n;
}

/* A copy of pattern p with fresh variables. */
static Pattern *cpat(Copy *c, const Pattern *p) {
  Pattern *n = ARENA_NEW(c->m->arena, Pattern);
  *n = *p;
  if (p->kind == PAT_VAR)
    n->var = fresh(c, p->var);
  if (p->n) {
    n->sub = ARENA_ARRAY(c->m->arena, Pattern *, p->n);
    for (int i = 0; i < p->n; i++)
      n->sub[i] = cpat(c, p->sub[i]);
  }
  return n;
}

static Expr *cexpr(Copy *c, Expr *e);

/* Copies of n expressions. */
static Expr **cexprs(Copy *c, int n, Expr *const *es) {
  if (!n)
    return NULL;
  Expr **out = ARENA_ARRAY(c->m->arena, Expr *, n);
  for (int i = 0; i < n; i++)
    out[i] = cexpr(c, es[i]);
  return out;
}

/* Fill copy n's children from e's, binding fresh variables. */
static void cexpr_kids(Copy *c, Expr *n, const Expr *e) {
  switch (e->kind) {
  case EX_VAR: {
    int64_t *v = ptrmap_get(&c->vars, e->var);
    if (v)
      n->var = (Var *)(intptr_t)*v;
    break;
  }
  case EX_TUPLE: n->tuple.fields = cexprs(c, e->tuple.n, e->tuple.fields); break;
  case EX_PROJ: n->proj.tuple = cexpr(c, e->proj.tuple); break;
  case EX_LET:
    n->let.value = cexpr(c, e->let.value);
    n->let.var = fresh(c, e->let.var);
    n->let.body = cexpr(c, e->let.body);
    break;
  case EX_IF:
    n->if_.cond = cexpr(c, e->if_.cond);
    n->if_.then = cexpr(c, e->if_.then);
    n->if_.els = cexpr(c, e->if_.els);
    break;
  case EX_CALL:
    if (e->call.kind == CALL_EXPR)
      n->call.callee = cexpr(c, e->call.callee);
    n->call.args = cexprs(c, e->call.nargs, e->call.args);
    break;
  case EX_FUNC:
    if (e->func.nparams) {
      n->func.params = ARENA_ARRAY(c->m->arena, Var *, e->func.nparams);
      for (int i = 0; i < e->func.nparams; i++)
        n->func.params[i] = fresh(c, e->func.params[i]);
    }
    n->func.ret = cty(c, e->func.ret);
    n->func.body = cexpr(c, e->func.body);
    break;
  case EX_REF_NEW: n->ref_new.value = cexpr(c, e->ref_new.value); break;
  case EX_REF_READ: n->ref_read.ref = cexpr(c, e->ref_read.ref); break;
  case EX_REF_WRITE:
    n->ref_write.ref = cexpr(c, e->ref_write.ref);
    n->ref_write.value = cexpr(c, e->ref_write.value);
    break;
  case EX_MATCH:
    n->match.scrut = cexpr(c, e->match.scrut);
    n->match.clauses = e->match.n ? ARENA_ARRAY(c->m->arena, Clause, e->match.n) : NULL;
    for (int i = 0; i < e->match.n; i++) {
      n->match.clauses[i].pat = cpat(c, e->match.clauses[i].pat);
      n->match.clauses[i].body = cexpr(c, e->match.clauses[i].body);
    }
    break;
  default: break;
  }
}

/* A copy of e (sharing preserved) with binders renamed and types
 * instantiated. */
static Expr *cexpr(Copy *c, Expr *e) {
  int64_t *v = ptrmap_get(&c->memo, e);
  if (v)
    return (Expr *)(intptr_t)*v;
  Expr *n = ir_expr_clone_node(c->m, e);
  n->type = cty(c, e->type);
  cexpr_kids(c, n, e);
  *ptrmap_put(&c->memo, e, NULL) = (int64_t)(intptr_t)n;
  return n;
}

/* ----------------------------------------------------------------- the pass */

typedef struct {
  Module *m;
  Counts c;
  PtrMap state;   /* GlobalFn* -> 1 in progress, 2 done */
  PtrMap inlined; /* GlobalFn* -> call sites inlined */
  PtrMap letfn;   /* Var* -> function literal to inline at its call */
  PtrMap memo;    /* Expr* -> rewritten Expr* */
} Inl;

static Expr *inl(Inl *I, Expr *e);

/* Inline inside g's body, once per round. */
static void process_global(Inl *I, GlobalFn *g) {
  int added;
  int64_t *st = ptrmap_put(&I->state, g, &added);
  if (!added)
    return;
  *st = 1;
  g->func = inl(I, g->func);
  *ptrmap_get(&I->state, g) = 2;
}

/* let %p1 = a1; .. let %pn = an; body  (all of the call's type). */
static Expr *bind_args(Inl *I, int n, Var *const *params, Expr *const *args, Expr *body,
                       Type *type) {
  Expr *r = body;
  for (int i = n - 1; i >= 0; i--) {
    r = ir_let(I->m, params[i], args[i], r);
    r->type = type;
  }
  return r;
}

/* The call's arguments, rewritten. */
static Expr **inl_args(Inl *I, const Expr *call) {
  Expr **args = ARENA_ARRAY(I->m->arena, Expr *, call->call.nargs + 1);
  for (int i = 0; i < call->call.nargs; i++)
    args[i] = inl(I, call->call.args[i]);
  return args;
}

/* Inline a call of a global: a fresh copy of its processed body. */
static Expr *inline_global(Inl *I, Expr *call, Type **inst) {
  GlobalFn *g = call->call.callee->global;
  Expr **args = inl_args(I, call);
  process_global(I, g);
  Copy c = {.m = I->m, .n = g->func->func.ntvars, .from = g->func->func.tvars, .to = inst};
  Expr *fn = cexpr(&c, g->func);
  ptrmap_free(&c.vars);
  ptrmap_free(&c.memo);
  (*ptrmap_put(&I->inlined, g, NULL))++;
  Expr *r = bind_args(I, fn->func.nparams, fn->func.params, args, fn->func.body, call->type);
  return pass_pin_expr(I->m, r, call->type); /* the return annotation is gone */
}

typedef struct {
  Inl *I;
  bool changed;
} Kids;

/* Rewrite one child slot, noting whether it changed. */
static void kid_slot(Expr **slot, void *ctx) {
  Kids *k = ctx;
  Expr *n = inl(k->I, *slot);
  if (n != *slot) {
    *slot = n;
    k->changed = true;
  }
}

/* e with rewritten children (e itself when none changed). */
static Expr *inl_children(Inl *I, Expr *e) {
  Expr *c = pass_clone(I->m, e);
  Kids k = {I, false};
  ir_expr_children(c, kid_slot, &k);
  return k.changed ? c : e;
}

/* The rewrite of e: inlined calls, removed let-bound literals. */
static Expr *inl_node(Inl *I, Expr *e) {
  if (e->kind == EX_LET) {
    Expr *v = inl(I, e->let.value);
    if (letfn_ok(&I->c, e->let.var, v)) {
      *ptrmap_put(&I->letfn, e->let.var, NULL) = (int64_t)(intptr_t)v;
      return inl(I, e->let.body); /* the literal moves to its call */
    }
    Expr *b = inl(I, e->let.body);
    if (v == e->let.value && b == e->let.body)
      return e;
    Expr *c = ir_expr_clone_node(I->m, e);
    c->let.value = v;
    c->let.body = b;
    return c;
  }
  if (e->kind == EX_CALL && e->call.kind == CALL_EXPR) {
    Expr *callee = e->call.callee;
    int64_t *fn = callee->kind == EX_VAR ? ptrmap_get(&I->letfn, callee->var) : NULL;
    if (fn) {
      Expr *f = (Expr *)(intptr_t)*fn;
      /* The literal's annotations go; they may have determined the types
       * of variables it uses (its return type fixing a Nil's element
       * type, say), so those variables keep their types as annotations. */
      pass_pin_refs(f);
      Expr **args = inl_args(I, e);
      Expr *r = bind_args(I, f->func.nparams, f->func.params, args, f->func.body, e->type);
      return pass_pin_expr(I->m, r, e->type);
    }
    Type *inst[INL_MAX_TVARS];
    if (site_ok(&I->c, e, inst)) {
      int64_t *st = ptrmap_get(&I->state, callee->global);
      if (!st || *st == 2)
        return inline_global(I, e, inst);
    }
  }
  return inl_children(I, e);
}

/* inl_node, memoised per node. */
static Expr *inl(Inl *I, Expr *e) {
  int64_t *v = ptrmap_get(&I->memo, e);
  if (v)
    return (Expr *)(intptr_t)*v;
  Expr *r = inl_node(I, e);
  *ptrmap_put(&I->memo, e, NULL) = (int64_t)(intptr_t)r;
  return r;
}

/* One round: inline every call decided inlinable from the current counts. */
static void inline_round(Module *m) {
  Inl I = {.m = m};
  counts_compute(&I.c, m);
  int n = m->nfuncs;
  GlobalFn **gs = malloc(sizeof *gs * (size_t)(n + 1));
  memcpy(gs, m->funcs, sizeof *gs * (size_t)n);
  for (int i = 0; i < n; i++)
    if (gs[i]->func)
      process_global(&I, gs[i]);
  /* Remove globals whose every reference was an inlined call. */
  Counts after;
  counts_compute(&after, m);
  for (int i = 0; i < n; i++)
    if (count_of(&I.inlined, gs[i]) > 0 && count_of(&after.refs, gs[i]) == 0 &&
        strcmp(gs[i]->name, "main") != 0)
      ir_global_remove(m, gs[i]);
  counts_free(&after);
  free(gs);
  counts_free(&I.c);
  ptrmap_free(&I.state);
  ptrmap_free(&I.inlined);
  ptrmap_free(&I.letfn);
  ptrmap_free(&I.memo);
}

static bool anything_left(const Module *m);

/* Inline in rounds until nothing is left (see the top of this file). */
bool pass_inline(Module *m, Diag *d) {
  /* An inlined body can turn a reference into a direct call (@f0()() with
   * @f0 returning @f1 becomes @f1()), so repeat until nothing is left to
   * inline; every round inlines at least one call of a non-recursive
   * global, so this ends; the bound is a guard. */
  for (int round = 0; round < 32; round++) {
    inline_round(m);
    if (!anything_left(m))
      break;
  }
  return true;
}

typedef struct {
  Counts *c;
  PtrMap seen;
  bool left;
} Left;

/* Note whether a call or a let under *slot is still to be inlined. */
static void left_slot(Expr **slot, void *ctx) {
  Left *l = ctx;
  if (l->left || !ptrmap_first(&l->seen, *slot))
    return;
  Expr *e = *slot;
  Type *inst[INL_MAX_TVARS];
  l->left =
      site_ok(l->c, e, inst) || (e->kind == EX_LET && letfn_ok(l->c, e->let.var, e->let.value));
  ir_expr_children(e, left_slot, l);
}

/* Is there a call or a let-bound literal the next round would inline? */
static bool anything_left(const Module *m) {
  Counts c;
  counts_compute(&c, m);
  Left l = {.c = &c};
  for (int i = 0; i < m->nfuncs && !l.left; i++)
    if (m->funcs[i]->func)
      left_slot(&m->funcs[i]->func, &l);
  counts_free(&c);
  ptrmap_free(&l.seen);
  return l.left;
}

/* ----------------------------------------------------------- postcondition
 * The checker decides the guarantee by code of its own, sharing nothing
 * with the pass (not its counts, recursion test, instantiation or
 * decisions), so that a wrong helper cannot make the pass and its oracle
 * agree. */

typedef struct {
  PtrMap grefs;   /* GlobalFn* -> EX_GLOBAL slots naming it */
  PtrMap vrefs;   /* Var* -> EX_VAR slots naming it */
  PtrMap vcallee; /* Var* -> callee slots of calls naming it */
  PtrMap rec;     /* GlobalFn* -> 1 recursive, 2 not (memo) */
  PtrMap seen;
} Refs;

/* Count the reference in *slot, then, once per node, those under it. */
static void refs_slot(Expr **slot, void *ctx) {
  Refs *r = ctx;
  Expr *e = *slot;
  if (e->kind == EX_GLOBAL)
    (*ptrmap_put(&r->grefs, e->global, NULL))++;
  if (e->kind == EX_VAR)
    (*ptrmap_put(&r->vrefs, e->var, NULL))++;
  if (!ptrmap_first(&r->seen, e))
    return;
  if (e->kind == EX_CALL && e->call.kind == CALL_EXPR && e->call.callee->kind == EX_VAR)
    (*ptrmap_put(&r->vcallee, e->call.callee->var, NULL))++;
  ir_expr_children(e, refs_slot, r);
}

/* How many times k is counted in map (0 when absent). */
static int64_t times(const PtrMap *map, const void *k) {
  int64_t *v = ptrmap_get(map, k);
  return v ? *v : 0;
}

typedef struct {
  PtrMap *out;
  PtrMap seen;
} Named;

/* Add to out every global referenced under *slot. */
static void named_slot(Expr **slot, void *ctx) {
  Named *n = ctx;
  if (!ptrmap_first(&n->seen, *slot))
    return;
  if ((*slot)->kind == EX_GLOBAL)
    ptrmap_put(n->out, (*slot)->global, NULL);
  ir_expr_children(*slot, named_slot, n);
}

/* Is g recursive: does the closure of the globals g's body references,
 * body after body, contain g? */
static bool recursive(const Module *m, Refs *r, GlobalFn *g) {
  int64_t *memo = ptrmap_get(&r->rec, g);
  if (memo)
    return *memo == 1;
  PtrMap reached = {0}, scanned = {0};
  Named n = {&reached, {0}};
  named_slot(&g->func, &n);
  for (size_t before = 0; before != reached.n;) {
    before = reached.n;
    for (int i = 0; i < m->nfuncs; i++) {
      GlobalFn *h = m->funcs[i];
      if (h->func && ptrmap_get(&reached, h) && ptrmap_first(&scanned, h))
        named_slot(&h->func, &n);
    }
  }
  bool rec = ptrmap_get(&reached, g) != NULL;
  *ptrmap_put(&r->rec, g, NULL) = rec ? 1 : 2;
  ptrmap_free(&reached);
  ptrmap_free(&scanned);
  ptrmap_free(&n.seen);
  return rec;
}

/* Does type variable v occur in t? */
static bool occurs(const Type *v, const Type *t) {
  if (!t)
    return false;
  switch (t->kind) {
  case TY_VAR: return t == v;
  case TY_TUPLE:
    for (int i = 0; i < t->tuple.n; i++)
      if (occurs(v, t->tuple.fields[i]))
        return true;
    return false;
  case TY_FUNC:
    for (int i = 0; i < t->func.nparams; i++)
      if (occurs(v, t->func.params[i]))
        return true;
    return occurs(v, t->func.ret);
  case TY_REF: return occurs(v, t->ref.inner);
  case TY_ADT:
    for (int i = 0; i < t->adt.nargs; i++)
      if (occurs(v, t->adt.args[i]))
        return true;
    return false;
  default: return false;
  }
}

/* Do a call's argument and result types determine every type parameter
 * of fn?  The call type checks, so its types are an instance of fn's
 * annotations (which a polymorphic global has in full): a parameter is
 * determined exactly when it occurs in a parameter's or the return
 * annotation.  More than INL_MAX_TVARS parameters are never inlined. */
static bool determined(const Expr *fn) {
  if (fn->func.ntvars > INL_MAX_TVARS)
    return false;
  for (int k = 0; k < fn->func.ntvars; k++) {
    bool seen = occurs(fn->func.tvars[k], fn->func.ret);
    for (int i = 0; i < fn->func.nparams && !seen; i++)
      seen = occurs(fn->func.tvars[k], fn->func.params[i]->annot);
    if (!seen)
      return false;
  }
  return true;
}

/* Must the guarantee have inlined this direct call of g? */
static bool must_inline(const Module *m, Refs *r, const GlobalFn *g) {
  const Expr *fn = g->func;
  if (!fn || fn->kind != EX_FUNC || fn->func.primitive)
    return false;
  if (!g->is_inline && times(&r->grefs, g) != 1)
    return false;
  return determined(fn) && !recursive(m, r, (GlobalFn *)g);
}

typedef struct {
  const Module *m;
  Refs *r;
  const GlobalFn *g;
  Diag *d;
  PtrMap seen;
  bool ok;
} Post;

/* Report each call and let under *slot the pass had to inline. */
static void post_slot(Expr **slot, void *ctx) {
  Post *p = ctx;
  if (!ptrmap_first(&p->seen, *slot))
    return;
  Expr *e = *slot;
  if (e->kind == EX_CALL && e->call.kind == CALL_EXPR && e->call.callee->kind == EX_GLOBAL &&
      must_inline(p->m, p->r, e->call.callee->global)) {
    p->ok = false;
    pass_report(p->d, p->g, e, "inline left a call of @%s", e->call.callee->global->name);
  }
  if (e->kind == EX_LET && e->let.value->kind == EX_FUNC && !e->let.value->func.primitive &&
      e->let.value->func.ntvars == 0 && times(&p->r->vrefs, e->let.var) == 1 &&
      times(&p->r->vcallee, e->let.var) == 1) {
    p->ok = false;
    pass_report(p->d, p->g, e, "inline left the function literal %%%s, called once",
                e->let.var->name);
  }
  ir_expr_children(e, post_slot, p);
}

/* The postcondition (see the top of this file). */
bool post_inline(const Module *m, Diag *d) {
  Refs r = {0};
  for (int i = 0; i < m->nfuncs; i++)
    if (m->funcs[i]->func)
      refs_slot(&m->funcs[i]->func, &r);
  Post p = {.m = m, .r = &r, .d = d, .ok = true};
  for (int i = 0; i < m->nfuncs; i++) {
    p.g = m->funcs[i];
    if (p.g->func)
      post_slot(&m->funcs[i]->func, &p);
  }
  ptrmap_free(&r.grefs);
  ptrmap_free(&r.vrefs);
  ptrmap_free(&r.vcallee);
  ptrmap_free(&r.rec);
  ptrmap_free(&r.seen);
  ptrmap_free(&p.seen);
  return p.ok;
}
