/*
 * to_gnf.c - conversion to graph normal form, as Relay's ToGraphNormalForm:
 * let bindings of pure values become sharing in the expression graph.
 *
 * Requires: a well-formed, type-checked module (Expr.type and Var.type
 * set; without them fewer lets are removed).
 *
 * Does: for each `let %x = v; body`, with v' the value already converted:
 *   - v' shareable (ir_expr_is_shareable: built of variables, globals,
 *     constants, tuples, projections, ifs, operator and constructor calls):
 *     the let goes and every use of %x becomes the node v' itself, so a
 *     value used twice is one node reached along two paths (a graph
 *     binding);
 *   - v' pure (pass_int.h: no ref operation, no call of a closure or global,
 *     no possibly failing match) but not shareable (it binds variables: a
 *     function literal, an exhaustive match, a let) and %x used along at
 *     most one path: the let goes and v' moves to that use;
 *   - %x unused and v' pure: the let goes with its value;
 * unless the let must stay (the "kept lets", exactly):
 *   K1 v' is impure: its effects happen where the let is (ref operations,
 *      calls of closures and globals, matches that may fail);
 *   K2 v' is pure, not shareable and %x is used along two paths or more
 *      (a function literal used twice cannot be shared; lets are not
 *      recursive in relayc, so no function literal needs its own let);
 *   K3 the let fixes a type that removing it would leave open: %x's
 *      inferred type differs from v's (an annotation that instantiates a
 *      polymorphic global); or %x is annotated and v' does not synthesize
 *      its type; or %x is unused and v' is not closed.  With variables and
 *      globals counted as annotated when they have an inferred type (the
 *      pass gives them that annotation, pass_pin_refs, whenever it removes
 *      an annotated let or drops a value), "synthesizes" is: constants,
 *      variables, globals, function literals with annotated parameters and
 *      result; tuples, projections and operator calls of synthesizing
 *      operands; constructor calls of synthesizing arguments whose fields
 *      mention every type parameter; an if with a synthesizing branch; a
 *      let with a synthesizing body.  "Closed": every variable, global and
 *      constructor call in v' is as above, so every node of v' that may be
 *      shared has its type fixed within (e.g. a shared Nil is not: the
 *      dropped `Cons(%x, %n)` may be all that gives it an element type).
 * Every other let is removed; nothing else changes.  Effects keep their
 * order, since only pure values move.  A value moved or shared into a
 * function body or a branch is evaluated there instead of before it, as
 * in Relay (pure and total, so the result is the same).
 *
 * Contract (pass.h): PASS_EXACT.  Only pure values (total, without
 * effects) move or go; impure lets stay where they are (K1).
 * Guarantees (post_to_gnf): every let that remains is kept by K1-K3.
 *
 * Shapes (what a program must contain to exercise this pass; the
 * "scopes" policy, generator/scopes.c, makes them at any node of the
 * right type): lets of shareable values used once, twice (shared) or not
 * at all; of pure values that are not shareable (function literals, lets,
 * exhaustive matches) used once (moved), twice (K2) or not at all; of
 * impure values (K1); annotated lets whose annotation fixes a type (K3:
 * `let %f: fn(T) -> T = @g` of a polymorphic global; Nil and None from
 * the default forms); nested lets (a let's value a let) and lets in
 * operands; values moved into branches and closure bodies.
 */
#include "pass.h"
#include "pass_int.h"
#include "scope.h"

typedef struct {
  Module *m;
  PtrMap paths;  /* Expr* -> paths from the globals to it, capped at 2 */
  PtrMap uses;   /* Var* -> paths to its uses, capped at 2 */
  PtrMap synth;  /* Expr* -> 1 synthesizes, 2 does not */
  PtrMap closed; /* Expr* -> 1 closed (see closed()), 2 not */
  PurityMemo pm;
} Info;

/* ---- paths and uses */

typedef struct {
  PtrMap seen;
  Expr **post;
  int n, cap;
} Order;

/* Post-order of the module's nodes, each once. */
static void order_visit(Expr **slot, void *ctx) {
  Order *o = ctx;
  if (!ptrmap_first(&o->seen, *slot))
    return;
  ir_expr_children(*slot, order_visit, o);
  if (o->n == o->cap) {
    o->cap = o->cap ? 2 * o->cap : 64;
    o->post = realloc(o->post, sizeof *o->post * (size_t)o->cap);
    if (!o->post)
      abort();
  }
  o->post[o->n++] = *slot;
}

typedef struct {
  Info *in;
  int64_t from; /* paths to the parent */
} AddPaths;

/* Add `from` (capped at 2) to the path count of child *slot. */
static void add_paths(Expr **slot, void *ctx) {
  AddPaths *a = ctx;
  int64_t *p = ptrmap_put(&a->in->paths, *slot, NULL);
  *p = *p + a->from > 2 ? 2 : *p + a->from;
}

/* Count paths to every node (parents before children) and to every
 * variable's uses, over the whole module. */
static void count_paths(Info *in, const Module *m) {
  Order o = {{0}, NULL, 0, 0};
  for (int i = 0; i < m->nfuncs; i++)
    if (m->funcs[i]->func) {
      Expr *root = m->funcs[i]->func;
      int64_t *p = ptrmap_put(&in->paths, root, NULL);
      *p = *p + 1 > 2 ? 2 : *p + 1;
      order_visit(&root, &o);
    }
  for (int i = o.n - 1; i >= 0; i--) {
    Expr *e = o.post[i];
    AddPaths a = {in, *ptrmap_get(&in->paths, e)};
    ir_expr_children(e, add_paths, &a);
    if (e->kind == EX_VAR) {
      int64_t *u = ptrmap_put(&in->uses, e->var, NULL);
      *u = *u + a.from > 2 ? 2 : *u + a.from;
    }
  }
  free(o.post);
  ptrmap_free(&o.seen);
}

static int64_t uses_of(const Info *in, const Var *v) {
  int64_t *u = ptrmap_get(&in->uses, v);
  return u ? *u : 0;
}

/* ---- the judgements shared by the pass and its checker */

static bool synth(Info *in, const Expr *e);

static bool all_synth(Info *in, int n, Expr *const *es) {
  for (int i = 0; i < n; i++)
    if (!synth(in, es[i]))
      return false;
  return true;
}

/* Does type variable tv occur in t? */
static bool tvar_in(const Type *t, const Type *tv) {
  switch (t->kind) {
  case TY_VAR: return t == tv;
  case TY_TUPLE:
    for (int i = 0; i < t->tuple.n; i++)
      if (tvar_in(t->tuple.fields[i], tv))
        return true;
    return false;
  case TY_FUNC:
    for (int i = 0; i < t->func.nparams; i++)
      if (tvar_in(t->func.params[i], tv))
        return true;
    return tvar_in(t->func.ret, tv);
  case TY_REF: return tvar_in(t->ref.inner, tv);
  case TY_ADT:
    for (int i = 0; i < t->adt.nargs; i++)
      if (tvar_in(t->adt.args[i], tv))
        return true;
    return false;
  default: return false;
  }
}

/* Do c's fields mention every type parameter of its type? */
static bool ctor_fixes_tvars(const Ctor *c) {
  for (int i = 0; i < c->def->ntvars; i++) {
    bool found = false;
    for (int j = 0; !found && j < c->nfields; j++)
      found = tvar_in(c->fields[j], c->def->tvars[i]);
    if (!found)
      return false;
  }
  return true;
}

/* Would pass_pin_refs give global g annotations on all its parameters
 * and its result (it has them, or their inferred types)? */
static bool global_pinned(const GlobalFn *g) {
  const Expr *f = g->func;
  if (!f || f->kind != EX_FUNC)
    return false;
  for (int i = 0; i < f->func.nparams; i++)
    if (!f->func.params[i]->annot && !f->func.params[i]->type)
      return false;
  return f->func.ret || (f->type && f->type->kind == TY_FUNC);
}

/* Does variable v have, or would it get, an annotation? */
static bool var_pinned(const Var *v) {
  return v->annot || v->type;
}

/* Are function literal f's parameters and result annotated (and f is not
 * polymorphic)? */
static bool params_annotated(const Expr *f) {
  for (int i = 0; i < f->func.nparams; i++)
    if (!f->func.params[i]->annot)
      return false;
  return f->func.ret != NULL && f->func.ntvars == 0;
}

/* synth for one node, its children judged by synth. */
static bool synth_node(Info *in, const Expr *e) {
  switch (e->kind) {
  case EX_CONST: return true;
  case EX_VAR: return var_pinned(e->var);
  case EX_GLOBAL: return global_pinned(e->global);
  case EX_TUPLE: return all_synth(in, e->tuple.n, e->tuple.fields);
  case EX_PROJ: return synth(in, e->proj.tuple);
  case EX_CALL:
    if (e->call.kind == CALL_OP)
      return all_synth(in, e->call.nargs, e->call.args);
    if (e->call.kind == CALL_CTOR)
      return ctor_fixes_tvars(e->call.ctor) && all_synth(in, e->call.nargs, e->call.args);
    return false;
  case EX_IF: return synth(in, e->if_.then) || synth(in, e->if_.els);
  case EX_FUNC: return params_annotated(e);
  case EX_LET: return synth(in, e->let.body);
  default: return false;
  }
}

/* Is e's type determined bottom-up, variables and globals pinned (see the
 * top of the file)? */
static bool synth(Info *in, const Expr *e) {
  int64_t *v = ptrmap_get(&in->synth, e);
  if (v)
    return *v == 1;
  bool s = synth_node(in, e);
  *ptrmap_put(&in->synth, e, NULL) = s ? 1 : 2;
  return s;
}

typedef struct {
  Info *in;
  bool ok;
} Closed;

static bool closed(Info *in, Expr *e);

static void closed_child(Expr **slot, void *ctx) {
  Closed *c = ctx;
  c->ok = c->ok && closed(c->in, *slot);
}

/* Can e be dropped without losing a type it fixes elsewhere: are the
 * types of all its variables, globals and constructor calls (so of every
 * node in it that may be shared) determined within it? */
static bool closed(Info *in, Expr *e) {
  int64_t *v = ptrmap_get(&in->closed, e);
  if (v)
    return *v == 1;
  Closed c = {in, true};
  if (e->kind == EX_VAR)
    c.ok = var_pinned(e->var);
  else if (e->kind == EX_GLOBAL)
    c.ok = global_pinned(e->global);
  else if (e->kind == EX_CALL && e->call.kind == CALL_CTOR)
    c.ok = ctor_fixes_tvars(e->call.ctor);
  if (c.ok)
    ir_expr_children(e, closed_child, &c);
  *ptrmap_put(&in->closed, e, NULL) = c.ok ? 1 : 2;
  return c.ok;
}

typedef enum { KEEP, SHARE, MOVE, DROP } Verdict;

/* What happens to `let x = v` (v already converted), given whether v is
 * pure and synthesizes its type; which K rule keeps it is written to
 * *why. */
static Verdict judge(Info *in, const Var *x, Expr *v, int64_t uses, bool pure, bool synthesizes,
                     const char **why) {
  *why = NULL;
  if (!pure)
    *why = "its value has effects (K1)";
  else if (x->type && v->type && !ir_type_equal(x->type, v->type))
    *why = "its variable's type differs from its value's (K3)";
  else if (x->annot && !synthesizes)
    *why = "its annotation fixes a type its value does not synthesize (K3)";
  else if (uses == 0 && !closed(in, v))
    *why = "its unused value fixes types used elsewhere (K3)";
  else if (uses >= 2 && !ir_expr_is_shareable(v))
    *why = "its pure value binds variables and is used twice (K2)";
  if (*why)
    return KEEP;
  if (uses == 0)
    return DROP;
  return ir_expr_is_shareable(v) ? SHARE : MOVE;
}

/* ---- the pass */

typedef struct {
  Info in;
  Module *m;
  PtrMap memo;  /* Expr* -> converted */
  PtrMap subst; /* Var* -> the node replacing its uses */
  int removed;  /* lets removed */
} Gnf;

static Expr *gnf(Gnf *g, Expr *e);

static Expr *gnf_child(void *ctx, Expr *e) {
  return gnf(ctx, e);
}

static Expr *gnf_let(Gnf *g, Expr *e) {
  Var *x = e->let.var;
  Expr *v = gnf(g, e->let.value);
  int64_t uses = uses_of(&g->in, x);
  const char *why;
  Verdict verdict =
      judge(&g->in, x, v, uses, pass_is_pure(&g->in.pm, v), x->annot && synth(&g->in, v), &why);
  if (verdict != KEEP && (x->annot || uses == 0))
    pass_pin_refs(v); /* keep fixed what the annotation or the dropped value fixed */
  switch (verdict) {
  case SHARE:
  case MOVE:
    *ptrmap_put(&g->subst, x, NULL) = (int64_t)(intptr_t)v;
    g->removed++;
    return gnf(g, e->let.body);
  case DROP: g->removed++; return gnf(g, e->let.body);
  case KEEP: break;
  }
  Expr *body = gnf(g, e->let.body);
  if (v == e->let.value && body == e->let.body)
    return e;
  Expr *c = ir_let(g->m, x, v, body);
  c->type = e->type;
  return c;
}

/* e converted: lets judged, uses of removed variables replaced. */
static Expr *gnf(Gnf *g, Expr *e) {
  int64_t *done = ptrmap_get(&g->memo, e);
  if (done)
    return (Expr *)(intptr_t)*done;
  Expr *r;
  if (e->kind == EX_VAR) {
    int64_t *s = ptrmap_get(&g->subst, e->var);
    r = s ? (Expr *)(intptr_t)*s : e;
  } else if (e->kind == EX_LET) {
    r = gnf_let(g, e);
  } else {
    r = pass_map_children(g->m, e, gnf_child, g);
  }
  *ptrmap_put(&g->memo, e, NULL) = (int64_t)(intptr_t)r;
  return r;
}

static void info_free(Info *in) {
  ptrmap_free(&in->paths);
  ptrmap_free(&in->uses);
  ptrmap_free(&in->synth);
  ptrmap_free(&in->closed);
  pass_purity_free(&in->pm);
}

/* One sweep over the module; returns the number of lets removed. */
static int sweep(Module *m) {
  Gnf g = {.in = {.m = m}, .m = m};
  count_paths(&g.in, m);
  for (int i = 0; i < m->nfuncs; i++)
    if (m->funcs[i]->func)
      m->funcs[i]->func = gnf(&g, m->funcs[i]->func);
  info_free(&g.in);
  ptrmap_free(&g.memo);
  ptrmap_free(&g.subst);
  return g.removed;
}

/* Sweeps until none removes a let: removing one can leave another with
 * fewer uses (a dropped value used a variable), which the next sweep
 * judges with the new counts.  Each sweep but the last removes a let, so
 * this ends. */
bool pass_to_gnf(Module *m, Diag *d) {
  (void)d;
  while (sweep(m) > 0)
    ;
  return true;
}

/* ----------------------------------------------------------- postcondition */

typedef struct {
  Info in;
  const GlobalFn *g;
  Diag *d;
  PtrMap seen;
  PtrMap pure; /* Expr* -> 1 pure by post_pure, 2 not */
  bool ok;
} Post;

/* The checker judges purity and function literals' types a second time,
 * written apart from the pass's pass_is_pure and params_annotated, so
 * that a bug in those (a let kept for an effect its value does not have,
 * or for a type its value does fix) cannot make the checker agree.  Both
 * are sound (they say "pure" and "fixed" only when it is so); the checker
 * takes whichever judgement says more. */

/* Is e a function literal whose annotations fix its type (every
 * parameter and the result annotated, no type parameters)? */
static bool post_fixed_fn(const Expr *e) {
  if (e->kind != EX_FUNC || !e->func.ret || e->func.ntvars > 0)
    return false;
  for (int i = 0; i < e->func.nparams; i++)
    if (!e->func.params[i]->annot)
      return false;
  return true;
}

static void post_visit(Expr **slot, void *ctx) {
  Post *p = ctx;
  if (!ptrmap_first(&p->seen, *slot))
    return;
  Expr *e = *slot;
  if (e->kind == EX_LET) {
    const char *why;
    Var *x = e->let.var;
    Expr *val = e->let.value;
    bool pure = pass_is_pure(&p->in.pm, val) || post_pure(&p->pure, val);
    bool synthesizes = x->annot && (synth(&p->in, val) || post_fixed_fn(val));
    Verdict v = judge(&p->in, x, val, uses_of(&p->in, x), pure, synthesizes, &why);
    if (v != KEEP) {
      p->ok = false;
      pass_report(p->d, p->g, e, "not in graph normal form: the let of %%%s should be %s",
                  e->let.var->name,
                  v == SHARE  ? "shared (its value is pure and shareable)"
                  : v == MOVE ? "moved to its only use (its value is pure)"
                              : "dropped (unused and pure)");
    }
  }
  ir_expr_children(e, post_visit, p);
}

bool post_to_gnf(const Module *m, Diag *d) {
  Post p = {.in = {.m = (Module *)m}, .d = d, .ok = true};
  count_paths(&p.in, m);
  for (int i = 0; i < m->nfuncs; i++) {
    p.g = m->funcs[i];
    if (p.g->func)
      post_visit(&m->funcs[i]->func, &p);
  }
  info_free(&p.in);
  ptrmap_free(&p.seen);
  ptrmap_free(&p.pure);
  return p.ok;
}
