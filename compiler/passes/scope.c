/*
 * scope.c - the scope tree, home scopes and pending let lists shared by
 * to_anf and fuse_ops (see scope.h).
 */
#include <stdlib.h>
#include <string.h>

#include "pass_int.h"
#include "scope.h"

/* How a child sits in its parent. */
enum { SLOT_PLAIN = -1, SLOT_LET_BODY = -2 }; /* >= 0: the parent's k-th branch scope */

typedef void (*ChildFn)(void *ctx, Expr *parent, Expr *child, int slot);

/* Calls f on each child of e in evaluation order (a call's arguments before
 * its callee), with the slot it occupies; primitive bodies are not entered. */
static void each_child(Expr *e, ChildFn f, void *ctx) {
  switch (e->kind) {
  case EX_VAR:
  case EX_GLOBAL:
  case EX_CONST: break;
  case EX_TUPLE:
    for (int i = 0; i < e->tuple.n; i++)
      f(ctx, e, e->tuple.fields[i], SLOT_PLAIN);
    break;
  case EX_PROJ: f(ctx, e, e->proj.tuple, SLOT_PLAIN); break;
  case EX_LET:
    f(ctx, e, e->let.value, SLOT_PLAIN);
    f(ctx, e, e->let.body, SLOT_LET_BODY);
    break;
  case EX_IF:
    f(ctx, e, e->if_.cond, SLOT_PLAIN);
    f(ctx, e, e->if_.then, 0);
    f(ctx, e, e->if_.els, 1);
    break;
  case EX_CALL:
    for (int i = 0; i < e->call.nargs; i++)
      f(ctx, e, e->call.args[i], SLOT_PLAIN);
    if (e->call.kind == CALL_EXPR)
      f(ctx, e, e->call.callee, SLOT_PLAIN);
    break;
  case EX_FUNC:
    if (!e->func.primitive)
      f(ctx, e, e->func.body, 0);
    break;
  case EX_REF_NEW: f(ctx, e, e->ref_new.value, SLOT_PLAIN); break;
  case EX_REF_READ: f(ctx, e, e->ref_read.ref, SLOT_PLAIN); break;
  case EX_REF_WRITE:
    f(ctx, e, e->ref_write.ref, SLOT_PLAIN);
    f(ctx, e, e->ref_write.value, SLOT_PLAIN);
    break;
  case EX_MATCH:
    f(ctx, e, e->match.scrut, SLOT_PLAIN);
    for (int i = 0; i < e->match.n; i++)
      f(ctx, e, e->match.clauses[i].body, i);
    break;
  }
}

/* Branch scopes e opens: if branches, clauses, a function body. */
static int branch_scopes(const Expr *e) {
  switch (e->kind) {
  case EX_IF: return 2;
  case EX_MATCH: return e->match.n;
  case EX_FUNC: return e->func.primitive ? 0 : 1;
  default: return 0;
  }
}

int pass_scope_id(const ScopeInfo *si, const Expr *e) {
  int64_t *v = ptrmap_get(&si->index, e);
  return v ? (int)*v : -1;
}

static int new_scope(ScopeInfo *si, int parent) {
  if (si->nscopes == si->capscopes) {
    si->capscopes = si->capscopes ? 2 * si->capscopes : 16;
    si->parent = realloc(si->parent, sizeof *si->parent * (size_t)si->capscopes);
    si->depth = realloc(si->depth, sizeof *si->depth * (size_t)si->capscopes);
    if (!si->parent || !si->depth)
      abort();
  }
  si->parent[si->nscopes] = parent;
  si->depth[si->nscopes] = parent < 0 ? 0 : si->depth[parent] + 1;
  return si->nscopes++;
}

int pass_scope_lca(const ScopeInfo *si, int a, int b) {
  while (a != b) {
    if (si->depth[a] >= si->depth[b])
      a = si->parent[a];
    else
      b = si->parent[b];
  }
  return a;
}

/* ---- post-order collection */

typedef struct {
  ScopeInfo *si;
  Expr **post;
  int n, cap;
} Collect;

static void collect(void *ctx, Expr *parent, Expr *e, int slot);

static void collect_node(Collect *c, Expr *e) {
  if (!ptrmap_first(&c->si->index, e))
    return;
  each_child(e, collect, c);
  if (c->n == c->cap) {
    c->cap = c->cap ? 2 * c->cap : 64;
    c->post = realloc(c->post, sizeof *c->post * (size_t)c->cap);
    if (!c->post)
      abort();
  }
  c->post[c->n++] = e;
}

static void collect(void *ctx, Expr *parent, Expr *e, int slot) {
  (void)parent;
  (void)slot;
  collect_node(ctx, e);
}

/* ---- homes */

/* Parent p (home known) contributes a scope to child e. */
static void contribute(void *ctx, Expr *p, Expr *e, int slot) {
  ScopeInfo *si = ctx;
  int pi = pass_scope_id(si, p), ci = pass_scope_id(si, e);
  int s;
  si->refs[ci]++;
  if (slot >= 0) {
    s = si->sub[pi] + slot;
  } else if (si->chains && e->kind == EX_LET && slot != SLOT_LET_BODY) {
    /* A let chain in a plain slot: a scope of its own (lets have one
     * parent, so this runs once per chain head). */
    s = si->inner[pi];
    si->sub[ci] = new_scope(si, s);
  } else {
    s = si->inner[pi];
  }
  si->home[ci] = si->home[ci] < 0 ? s : pass_scope_lca(si, si->home[ci], s);
}

void pass_scope_build(ScopeInfo *si, Expr *body, bool chains) {
  memset(si, 0, sizeof *si);
  si->chains = chains;
  Collect c = {si, NULL, 0, 0};
  collect_node(&c, body);
  si->n = c.n;
  si->node = malloc(sizeof *si->node * (size_t)(c.n ? c.n : 1));
  si->home = malloc(sizeof(int) * (size_t)(c.n ? c.n : 1));
  si->inner = malloc(sizeof(int) * (size_t)(c.n ? c.n : 1));
  si->sub = malloc(sizeof(int) * (size_t)(c.n ? c.n : 1));
  si->refs = calloc((size_t)(c.n ? c.n : 1), sizeof(int));
  if (!si->node || !si->home || !si->inner || !si->sub || !si->refs)
    abort();
  for (int i = 0; i < c.n; i++) {
    si->node[i] = c.post[c.n - 1 - i];
    *ptrmap_get(&si->index, si->node[i]) = i;
    si->home[i] = -1;
    si->sub[i] = -1;
  }
  free(c.post);
  si->home[0] = new_scope(si, -1);
  for (int i = 0; i < si->n; i++) {
    Expr *e = si->node[i];
    /* A chain head got its own scope from its parent; otherwise children
     * sit where e sits. */
    si->inner[i] = si->sub[i] >= 0 ? si->sub[i] : si->home[i];
    int k = branch_scopes(e);
    if (k > 0) {
      si->sub[i] = new_scope(si, si->home[i]);
      for (int j = 1; j < k; j++)
        new_scope(si, si->home[i]);
    }
    each_child(e, contribute, si);
  }
  si->lets = calloc((size_t)si->nscopes, sizeof *si->lets);
  if (!si->lets)
    abort();
}

void pass_scope_free(ScopeInfo *si) {
  for (int i = 0; si->lets && i < si->nscopes; i++) {
    free(si->lets[i].vars);
    free(si->lets[i].vals);
  }
  free(si->lets);
  free(si->node);
  free(si->home);
  free(si->inner);
  free(si->sub);
  free(si->refs);
  free(si->parent);
  free(si->depth);
  ptrmap_free(&si->index);
  memset(si, 0, sizeof *si);
}

/* ---- pending bindings */

void pass_scope_emit(ScopeInfo *si, int s, Var *v, Expr *val) {
  ScopeLets *l = &si->lets[s];
  if (l->n == l->cap) {
    l->cap = l->cap ? 2 * l->cap : 8;
    l->vars = realloc(l->vars, sizeof *l->vars * (size_t)l->cap);
    l->vals = realloc(l->vals, sizeof *l->vals * (size_t)l->cap);
    if (!l->vars || !l->vals)
      abort();
  }
  l->vars[l->n] = v;
  l->vals[l->n++] = val;
}

int pass_scope_mark(const ScopeInfo *si, int s) {
  return si->lets[s].n;
}

Expr *pass_scope_wrap(Module *m, ScopeInfo *si, int s, int mark, Expr *tail) {
  ScopeLets *l = &si->lets[s];
  for (int i = l->n - 1; i >= mark; i--) {
    Expr *let = ir_let(m, l->vars[i], l->vals[i], tail);
    let->type = tail->type;
    tail = let;
  }
  l->n = mark;
  return tail;
}

Var *pass_fresh_var(Module *m, const char *hint, Type *t) {
  Var *v = ir_var(m, hint, NULL);
  v->type = t;
  return v;
}

Expr *pass_var_use(Module *m, Var *v) {
  Expr *e = ir_var_ref(m, v);
  e->type = v->type;
  return e;
}

typedef struct {
  Expr *(*f)(void *ctx, Expr *child);
  void *ctx;
  Expr **out;
  int n, cap;
  bool changed;
} MapKids;

static void map_kid(Expr **slot, void *ctx) {
  MapKids *k = ctx;
  Expr *r = k->f(k->ctx, *slot);
  if (k->n == k->cap) {
    k->cap = k->cap ? 2 * k->cap : 8;
    k->out = realloc(k->out, sizeof *k->out * (size_t)k->cap);
    if (!k->out)
      abort();
  }
  k->out[k->n++] = r;
  k->changed = k->changed || r != *slot;
}

static void put_kid(Expr **slot, void *ctx) {
  MapKids *k = ctx;
  *slot = k->out[k->n++];
}

Expr *pass_map_children(Module *m, Expr *e, Expr *(*f)(void *ctx, Expr *child), void *ctx) {
  MapKids k = {f, ctx, NULL, 0, 0, false};
  ir_expr_children(e, map_kid, &k);
  if (k.changed) {
    e = pass_clone(m, e);
    k.n = 0;
    ir_expr_children(e, put_kid, &k);
  }
  free(k.out);
  return e;
}
