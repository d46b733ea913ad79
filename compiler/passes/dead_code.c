/*
 * dead_code.c - dead code elimination, as Relay's DeadCodeElimination.
 *
 * Requires: a well-formed module (types are not needed).
 * Does:
 *   - removes every `let %x = v; body` whose variable is not used in body
 *     and whose value is pure (pass_int.h: no ref operation, no call of a
 *     closure or global, no possibly failing match), leaving body;
 *   - removes every global function not reachable from @main through
 *     global references (nothing is removed when there is no @main).
 * Uses are counted exactly with reference counts on the expression DAG, so
 * a chain of lets that become dead one after another is removed in one
 * pass: the body of a let is processed before the let itself is judged.
 * Graph-shared nodes contain no let (ir_well_formed), so only the tree part
 * of a function is rewritten, in place.
 * One exception keeps the output inferable: a dead let whose variable is
 * annotated and whose value holds a graph-shared node (one with another
 * parent) stays, since its annotation may be all that determines that
 * node's type where the node lives on (`%0 = Nil; let %x: List[T] = %0;
 * %0`).  When it kept such a let and removed anything (lets or globals),
 * the pass runs again, so the exception is judged on the final reference
 * counts, as the checker does.
 * Contract (pass.h): PASS_EXACT.  Errors: a dead let goes only when its
 * value is pure, and a match that is not provably exhaustive is not
 * (pass_int.h), so an unused `match?` that fails stays and fails; the pass
 * never turns an error into a value.  Effects: ref operations and calls
 * of closures and globals are not pure, so an unused ref_read or write
 * stays.  Floats: nothing is computed.  Removed globals are unreachable.
 * Guarantees (post_dead_code, decided by code of its own, which shares no
 * function with the pass): no let remains whose variable no EX_VAR node
 * names and whose value is pure (pass_int.h: the matches it may drop are
 * those with a clause matching every value, or a clause `C(irrefutable..)`
 * for each constructor C of the scrutinee's type), but those of the
 * exception (the variable annotated, a node under the value with two
 * parent slots or more, counted on the output); and when there is an
 * @main, every global is reachable from it through global references.
 *
 * Shapes (what a program must contain to exercise this pass; the "dead"
 * policy, generator/dead.c, makes them at any node of the right type):
 *   - let %x = v; body with %x unused, v pure (operators, constants,
 *     tuples, projections, function literals, a global as a value,
 *     exhaustive matches: removed) or impure (ref, ref_read, ref_write,
 *     calls of closures and globals, a match that may fail: kept);
 *   - chains where a let becomes dead once a later one is removed
 *     (let %a = v1; let %b = f(%a); body using neither);
 *   - an annotated dead let whose value shares a node with the body (the
 *     exception: kept), which needs the value generated before the body;
 *   - globals only reachable through a dead let or another dead global
 *     (removed), and globals reachable from @main only through live code;
 *   - refs written and never read (the writes are effects: kept).
 */
#include "pass.h"
#include "pass_int.h"

typedef struct {
  PtrMap refs; /* Expr* -> number of parent slots pointing at it */
  PtrMap uses; /* Var* -> number of live EX_VAR nodes naming it */
  PtrMap done; /* Expr* already processed */
  PurityMemo pm;
  bool removed; /* a let or a global was removed in this round */
  bool kept;    /* a dead let was kept by the exception in this round */
} Dce;

/* Count parent slots per node and, once per node, variable uses. */
static void count_slot(Expr **slot, void *ctx) {
  Dce *c = ctx;
  int added;
  int64_t *r = ptrmap_put(&c->refs, *slot, &added);
  (*r)++;
  if (!added)
    return;
  if ((*slot)->kind == EX_VAR)
    (*ptrmap_put(&c->uses, (*slot)->var, NULL))++;
  ir_expr_children(*slot, count_slot, c);
}

/* Drop one reference to e; when it was the last, drop its children. */
static void drop_slot(Expr **slot, void *ctx) {
  Dce *c = ctx;
  int64_t *r = ptrmap_get(&c->refs, *slot);
  if (!r || --*r > 0)
    return;
  if ((*slot)->kind == EX_VAR)
    (*ptrmap_get(&c->uses, (*slot)->var))--;
  ir_expr_children(*slot, drop_slot, c);
}

/* Does a node under *slot (itself included) have two parent slots or more? */
typedef struct {
  PtrMap *refs;
  PtrMap seen;
  bool found;
} Shared;

static void shared_slot(Expr **slot, void *ctx) {
  Shared *h = ctx;
  if (!ptrmap_first(&h->seen, *slot) || h->found)
    return;
  int64_t *r = ptrmap_get(h->refs, *slot);
  h->found = r && *r >= 2;
  ir_expr_children(*slot, shared_slot, h);
}

/* The exception (top of the file): let e is annotated and its value holds
 * a node with another parent, under the reference counts refs. */
static bool types_shared(PtrMap *refs, Expr *e) {
  if (!e->let.var->annot)
    return false;
  Shared h = {refs, {0}, false};
  shared_slot(&e->let.value, &h);
  ptrmap_free(&h.seen);
  return h.found;
}

/* Live uses of v. */
static int64_t var_uses(Dce *c, const Var *v) {
  int64_t *u = ptrmap_get(&c->uses, v);
  return u ? *u : 0;
}

static void dce_slot(Expr **slot, void *ctx);

/* Process *slot: in a let chain, judge each let after its body. */
static void dce_slot(Expr **slot, void *ctx) {
  Dce *c = ctx;
  if (!ptrmap_first(&c->done, *slot))
    return; /* a shared node: binder-free, nothing to remove */
  Expr *e = *slot;
  if (e->kind != EX_LET) {
    ir_expr_children(e, dce_slot, c);
    return;
  }
  dce_slot(&e->let.body, c);
  bool dead = var_uses(c, e->let.var) == 0 && pass_is_pure(&c->pm, e->let.value);
  bool keep = dead && types_shared(&c->refs, e);
  c->kept = c->kept || keep;
  if (dead && !keep) {
    pass_pin_refs(e->let.value); /* types the value determined */
    drop_slot(&e->let.value, c);
    *slot = e->let.body; /* the body keeps its one parent slot */
    c->removed = true;
    return;
  }
  dce_slot(&e->let.value, c);
}

/* Mark globals reachable from g through EX_GLOBAL references. */
typedef struct {
  PtrMap *reach;
  PtrMap seen;
} Reach;

static void reach_global(Reach *r, GlobalFn *g);

/* Visit the globals referenced under *slot. */
static void reach_slot(Expr **slot, void *ctx) {
  Reach *r = ctx;
  if (!ptrmap_first(&r->seen, *slot))
    return;
  if ((*slot)->kind == EX_GLOBAL)
    reach_global(r, (*slot)->global);
  ir_expr_children(*slot, reach_slot, r);
}

/* Mark g reachable and visit its body once. */
static void reach_global(Reach *r, GlobalFn *g) {
  if (ptrmap_first(r->reach, g) && g->func)
    reach_slot(&g->func, r);
}

/* The set of globals reachable from @main; false when there is no main. */
static bool reachable(const Module *m, PtrMap *reach) {
  GlobalFn *main_fn = ir_global_get(m, "main");
  if (!main_fn)
    return false;
  Reach r = {reach, {0}};
  reach_global(&r, main_fn);
  ptrmap_free(&r.seen);
  return true;
}

/* Remove dead lets, then unreachable globals (see the top of this file). */
bool pass_dead_code(Module *m, Diag *d) {
  Dce c = {0};
  /* Without the exception one round is exact.  A let it kept is judged
   * again after anything was removed, since removals (of lets or of
   * globals) lower the counts it was judged on. */
  do {
    ptrmap_free(&c.refs);
    ptrmap_free(&c.uses);
    ptrmap_free(&c.done);
    c.removed = c.kept = false;
    for (int i = 0; i < m->nfuncs; i++)
      if (m->funcs[i]->func)
        count_slot(&m->funcs[i]->func, &c);
    for (int i = 0; i < m->nfuncs; i++)
      if (m->funcs[i]->func)
        dce_slot(&m->funcs[i]->func, &c);
    PtrMap reach = {0};
    if (reachable(m, &reach))
      for (int i = m->nfuncs - 1; i >= 0; i--)
        if (!ptrmap_get(&reach, m->funcs[i])) {
          ir_global_remove(m, m->funcs[i]);
          c.removed = true;
        }
    ptrmap_free(&reach);
  } while (c.removed && c.kept);
  ptrmap_free(&c.refs);
  ptrmap_free(&c.uses);
  ptrmap_free(&c.done);
  pass_purity_free(&c.pm);
  return true;
}

/* ----------------------------------------------------------- postcondition
 * The checker decides the guarantee by code of its own: it calls nothing
 * the pass calls (the purity and exhaustiveness of pass_int.h, the
 * reference counts, the reachability walk), so that a wrong helper cannot
 * make the pass and its oracle agree. */

typedef struct {
  PtrMap used;    /* Var* named by some EX_VAR node */
  PtrMap parents; /* Expr* -> parent slots pointing at it */
  PtrMap pure;    /* Expr* -> 1 pure, 2 not (memo) */
  PtrMap shared;  /* Expr* -> 1 holds a node with two parents or more, 2 not (memo) */
} Facts;

/* Note the variables used under *slot, and count parent slots. */
static void note_slot(Expr **slot, void *ctx) {
  Facts *f = ctx;
  int added;
  (*ptrmap_put(&f->parents, *slot, &added))++;
  if (!added)
    return;
  if ((*slot)->kind == EX_VAR)
    ptrmap_put(&f->used, (*slot)->var, NULL);
  ir_expr_children(*slot, note_slot, f);
}

static bool holds_shared(Facts *f, const Expr *e);

typedef struct {
  Facts *f;
  bool any;
} AnyShared;

/* Fold one child into AnyShared.any. */
static void shared_kid(Expr **slot, void *ctx) {
  AnyShared *a = ctx;
  a->any = a->any || holds_shared(a->f, *slot);
}

/* Is e, or a node under it, pointed at by two parent slots or more? */
static bool holds_shared(Facts *f, const Expr *e) {
  int64_t *v = ptrmap_get(&f->shared, e);
  if (v)
    return *v == 1;
  AnyShared a = {f, *ptrmap_get(&f->parents, e) >= 2};
  if (!a.any)
    ir_expr_children((Expr *)e, shared_kid, &a);
  *ptrmap_put(&f->shared, e, NULL) = a.any ? 1 : 2;
  return a.any;
}

typedef struct {
  const GlobalFn *g;
  Diag *d;
  Facts *f;
  PtrMap seen;
  bool ok;
} Post;

/* Report each dead pure let under *slot that the exception does not keep. */
static void post_slot(Expr **slot, void *ctx) {
  Post *p = ctx;
  if (!ptrmap_first(&p->seen, *slot))
    return;
  const Expr *e = *slot;
  if (e->kind == EX_LET && !ptrmap_get(&p->f->used, e->let.var) &&
      post_pure(&p->f->pure, e->let.value) &&
      !(e->let.var->annot && holds_shared(p->f, e->let.value))) {
    p->ok = false;
    pass_report(p->d, p->g, e, "dead_code left the unused pure let %%%s", e->let.var->name);
  }
  ir_expr_children(*slot, post_slot, p);
}

typedef struct {
  PtrMap *live;
  PtrMap seen;
  bool grew;
} Live;

/* Mark live every global referenced under *slot. */
static void live_slot(Expr **slot, void *ctx) {
  Live *l = ctx;
  if (!ptrmap_first(&l->seen, *slot))
    return;
  int added = 0;
  if ((*slot)->kind == EX_GLOBAL)
    ptrmap_put(l->live, (*slot)->global, &added);
  l->grew = l->grew || added;
  ir_expr_children(*slot, live_slot, l);
}

/* The globals reachable from main through references: scan the body of
 * each live global once, until no scan marks a new one. */
static void live_globals(const Module *m, GlobalFn *main_fn, PtrMap *live) {
  Live l = {live, {0}, true};
  PtrMap scanned = {0};
  ptrmap_put(live, main_fn, NULL);
  while (l.grew) {
    l.grew = false;
    for (int i = 0; i < m->nfuncs; i++) {
      GlobalFn *g = m->funcs[i];
      if (g->func && ptrmap_get(live, g) && ptrmap_first(&scanned, g))
        live_slot(&g->func, &l);
    }
  }
  ptrmap_free(&scanned);
  ptrmap_free(&l.seen);
}

/* The postcondition (see the top of this file). */
bool post_dead_code(const Module *m, Diag *d) {
  Facts f = {0};
  for (int i = 0; i < m->nfuncs; i++)
    if (m->funcs[i]->func)
      note_slot(&m->funcs[i]->func, &f);
  Post p = {.d = d, .f = &f, .ok = true};
  for (int i = 0; i < m->nfuncs; i++) {
    p.g = m->funcs[i];
    if (p.g->func)
      post_slot(&m->funcs[i]->func, &p);
  }
  GlobalFn *main_fn = ir_global_get(m, "main");
  PtrMap live = {0};
  if (main_fn)
    live_globals(m, main_fn, &live);
  for (int i = 0; main_fn && i < m->nfuncs; i++)
    if (!ptrmap_get(&live, m->funcs[i])) {
      p.ok = false;
      pass_report(d, m->funcs[i], NULL, "dead_code left @%s, unreachable from @main",
                  m->funcs[i]->name);
    }
  ptrmap_free(&live);
  ptrmap_free(&f.used);
  ptrmap_free(&f.parents);
  ptrmap_free(&f.pure);
  ptrmap_free(&f.shared);
  ptrmap_free(&p.seen);
  return p.ok;
}
