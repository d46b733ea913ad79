/*
 * fuse_ops.c - operator fusion, as Relay's FuseOps (its GraphPartitioner):
 * groups of operator calls become calls of primitive functions
 * `fn (%p: T, .., Primitive=1) -> R { .. }(args)`, one per group.
 *
 * Requires: a well-formed, type-checked module (an operator call, tuple or
 * projection without a type is left alone, and then post_fuse_ops fails).
 *
 * Groups of operator calls, tuples and projections in one scope (never
 * across a let, a branch, a clause or a function body) are chosen on the
 * dataflow graph's post-dominator tree with Relay's three sweeps, and each
 * becomes a call of a new primitive function; primitive functions in the
 * input are taken apart first, so a second run changes nothing.
 * docs/fuse_ops.md walks through the graph, the sweeps, the output and the
 * treatment of primitive functions in the input.
 *
 * Contract (pass.h): PASS_EXACT.  A primitive function runs the same
 * kernels on the same values in the interpreter (no fused kernel of its
 * own re-associates anything), so floats stay bit-identical.  Only pure
 * operator calls, tuples and projections are grouped; a kernel's outside
 * inputs become its arguments in the order the body first uses them,
 * which is the order they were evaluated in (left to right, depth first),
 * so impure inputs keep their effects' order, and a primitive function
 * taken apart had shareable (pure, total) arguments.
 *
 * Guarantees (post_fuse_ops):
 *   F1 no operator call outside a primitive function;
 *   F2 each primitive function's body is made of operator calls, tuples,
 *      projections, its parameters and scalar constants only (no nested
 *      function, let, if, closure call...), its result is an operator call
 *      or a projection, every parameter is used, and it has at most
 *      MAX_DEPTH calls, tuples and projections;
 *   F3 in each primitive function: at least one operator; an OPAQUE one
 *      only alone; at most one anchor (COMM_REDUCE or OUT_ELEMWISE_FUSABLE);
 *      a COMM_REDUCE anchor is the result; every operator that uses an
 *      OUT_ELEMWISE_FUSABLE anchor's result is ELEMWISE or BROADCAST;
 *   F4 (no fusion missed, the exact case): no primitive call P used once,
 *      as the argument of another primitive call C, both of which the pass
 *      would expand (all their arguments shareable once expanded), where
 *      P's result is an ELEMWISE or BROADCAST operator, P has no anchor and
 *      no opaque operator, C uses that parameter exactly once, directly as
 *      an argument of an operator that is INJECTIVE-or-lower or
 *      COMM_REDUCE, and P and C together have at most MAX_DEPTH nodes:
 *      sweep 0 always merges such a pair.
 *
 * Shapes (what a program must contain to exercise this pass; the "fusion"
 * policy, generator/fusion.c, makes them): chains of elementwise,
 * broadcast and injective operators feeding a COMM_REDUCE or
 * OUT_ELEMWISE_FUSABLE sink, intermediates with several consumers (bound
 * by lets, or graph-shared), tuples and projections of tensors, opaque
 * operators in the middle of a chain, trees of more than MAX_DEPTH
 * elementwise operators whose halves must not merge (the policy's "wide"
 * trees, beyond every budget), and primitive functions from an earlier
 * run (pass_fuzzer's sequences with fuse_ops twice).
 */
#include <stdio.h>
#include <string.h>

#include "compiler/ops/op.h"
#include "pass.h"
#include "pass_int.h"
#include "scope.h"

enum { MAX_DEPTH = 256 };

/* Relay's pattern kinds, ordered: lower fuses into higher. */
enum {
  K_ELEMWISE = OPAT_ELEMWISE,
  K_BROADCAST = OPAT_BROADCAST,
  K_INJECTIVE = OPAT_INJECTIVE,
  K_COMM_REDUCE = OPAT_COMM_REDUCE,
  K_OUT_EWISE = OPAT_OUT_ELEMWISE_FUSABLE,
  K_TUPLE = 7,
  K_OPAQUE = 8,
};

/* op's fusion pattern (ops.def) as a K_* rank: opaque ranks above tuples. */
static int pattern_rank(OpId op) {
  OpPattern p = op_table[op].pattern;
  return p == OPAT_OPAQUE ? K_OPAQUE : (int)p;
}

static int combine(int a, int b) {
  return a > b ? a : b;
}

/* ------------------------------------------------------------ kernels */

static bool is_prim_call(const Expr *e) {
  return e->kind == EX_CALL && e->call.kind == CALL_EXPR && e->call.callee->kind == EX_FUNC &&
         e->call.callee->func.primitive;
}

/* What a primitive body holds. */
typedef struct {
  int nodes, ops, anchors, opaque;
  const Expr *anchor;
  PtrMap seen;
  PtrMap deps; /* Expr* -> 1 when it uses the anchor's result */
  PtrMap uses; /* Var* -> occurrences (paths), for parameters */
  bool bad_form;
  const Expr *bad_at;
} Kstat;

static void kstat_visit(Kstat *k, const Expr *e, const Expr *fn) {
  int added;
  int64_t *vis = ptrmap_put(&k->seen, e, &added);
  if (!added) {
    (*vis)++;
    if (e->kind == EX_VAR)
      (*ptrmap_put(&k->uses, e->var, NULL))++;
    return;
  }
  *vis = 1;
  switch (e->kind) {
  case EX_VAR: {
    bool param = false;
    for (int i = 0; i < fn->func.nparams; i++)
      param = param || fn->func.params[i] == e->var;
    if (!param && !k->bad_form)
      k->bad_form = true, k->bad_at = e;
    (*ptrmap_put(&k->uses, e->var, NULL))++;
    return;
  }
  case EX_CONST:
    if (e->constant->rank != 0 && !k->bad_form)
      k->bad_form = true, k->bad_at = e;
    return;
  case EX_TUPLE:
    k->nodes++;
    for (int i = 0; i < e->tuple.n; i++)
      kstat_visit(k, e->tuple.fields[i], fn);
    return;
  case EX_PROJ:
    k->nodes++;
    kstat_visit(k, e->proj.tuple, fn);
    return;
  case EX_CALL:
    if (e->call.kind == CALL_OP) {
      int kind = pattern_rank(e->call.op);
      k->nodes++;
      k->ops++;
      k->opaque += kind == K_OPAQUE;
      if (kind == K_COMM_REDUCE || kind == K_OUT_EWISE)
        k->anchors++, k->anchor = e;
      for (int i = 0; i < e->call.nargs; i++)
        kstat_visit(k, e->call.args[i], fn);
      return;
    }
    break;
  default: break;
  }
  if (!k->bad_form)
    k->bad_form = true, k->bad_at = e;
}

/* What the body of primitive function fn holds. */
static Kstat kernel_stat(const Expr *fn) {
  Kstat k = {0};
  kstat_visit(&k, fn->func.body, fn);
  return k;
}

static void kstat_free(Kstat *k) {
  ptrmap_free(&k->seen);
  ptrmap_free(&k->deps);
  ptrmap_free(&k->uses);
}

/* The postcondition checker's state (also used silently, p == NULL, by
 * the pass to judge kernels it finds). */
typedef struct Post {
  const GlobalFn *g;
  Diag *d;
  PtrMap refs; /* Expr* -> parent slots, outside primitive bodies */
  PtrMap seen;
  PtrMap expand; /* memo of expandable() */
  bool ok;
} Post;

/* Report a broken rule into p, unless p is NULL; returns false. */
static bool fail(Post *p, const Expr *at, const char *fmt, const char *arg) {
  if (!p)
    return false;
  char msg[256];
  snprintf(msg, sizeof msg, fmt, arg);
  p->ok = false;
  pass_report(p->d, p->g, at, "fuse_ops: %s", msg);
  return false;
}

/* Does e use the result of k->anchor? */
static bool uses_anchor(Kstat *k, const Expr *e) {
  if (e == k->anchor)
    return true;
  int64_t *v = ptrmap_get(&k->deps, e);
  if (v)
    return *v == 1;
  bool dep = false;
  if (e->kind == EX_TUPLE)
    for (int i = 0; i < e->tuple.n; i++)
      dep = dep || uses_anchor(k, e->tuple.fields[i]);
  else if (e->kind == EX_PROJ)
    dep = uses_anchor(k, e->proj.tuple);
  else if (e->kind == EX_CALL && e->call.kind == CALL_OP)
    for (int i = 0; i < e->call.nargs; i++)
      dep = dep || uses_anchor(k, e->call.args[i]);
  *ptrmap_put(&k->deps, e, NULL) = dep ? 1 : 2;
  return dep;
}

/* F3's last rule: consumers of an out-elemwise-fusable anchor. */
static bool check_after_anchor(Post *p, Kstat *k, const Expr *fn) {
  bool ok = true;
  for (size_t i = 0; i < k->seen.cap; i++) {
    const Expr *e = k->seen.keys[i];
    if (!e || e == k->anchor || e->kind != EX_CALL || e->call.kind != CALL_OP)
      continue;
    int kind = pattern_rank(e->call.op);
    if (kind > K_BROADCAST && uses_anchor(k, e))
      ok = fail(p, fn, "a primitive function applies %s to the result of its anchor",
                ir_op_name(e->call.op));
  }
  return ok;
}

/* F2 and F3 for one primitive function; reports into p unless it is NULL. */
static bool check_kernel(Post *p, const Expr *fn) {
  Kstat k = {0};
  const Expr *root = fn->func.body;
  kstat_visit(&k, root, fn);
  bool ok = true;
  if (k.bad_form)
    ok = fail(p, k.bad_at,
              "a primitive function holds something other than operator calls, tuples, "
              "projections, its parameters and scalar constants%s",
              "");
  if (!(root->kind == EX_CALL && root->call.kind == CALL_OP) && root->kind != EX_PROJ)
    ok = fail(p, root, "a primitive function's result is not an operator call or a projection%s",
              "");
  for (int i = 0; i < fn->func.nparams; i++)
    if (!ptrmap_get(&k.uses, fn->func.params[i]))
      ok = fail(p, fn, "primitive function parameter %%%s is unused", fn->func.params[i]->name);
  if (k.nodes > MAX_DEPTH)
    ok = fail(p, fn, "a primitive function has more than %s nodes", "256");
  if (k.ops == 0)
    ok = fail(p, fn, "a primitive function has no operator call%s", "");
  if (k.opaque && k.ops > 1)
    ok = fail(p, fn, "an opaque operator is fused with others%s", "");
  if (k.anchors > 1)
    ok = fail(p, fn,
              "a primitive function has two anchors (reductions or out-elemwise-fusable "
              "operators)%s",
              "");
  if (k.anchors == 1 && !k.bad_form) {
    if (pattern_rank(k.anchor->call.op) == K_COMM_REDUCE && k.anchor != root)
      ok = fail(p, k.anchor, "reduction %s is not the result of its primitive function",
                ir_op_name(k.anchor->call.op));
    if (pattern_rank(k.anchor->call.op) == K_OUT_EWISE)
      ok = check_after_anchor(p, &k, fn) && ok;
  }
  kstat_free(&k);
  return ok;
}

/* Is fn's body made only of what fuse_ops puts in a kernel (F2's form)? */
static bool kernel_form(const Expr *fn) {
  Kstat k = kernel_stat(fn);
  const Expr *r = fn->func.body;
  bool ok = !k.bad_form && ((r->kind == EX_CALL && r->call.kind == CALL_OP) || r->kind == EX_PROJ);
  kstat_free(&k);
  return ok;
}

/* Would e be shareable once the pass has expanded the calls of primitive
 * functions in it whose arguments are shareable (see unfuse)? */
static bool expandable(PtrMap *memo, const Expr *e) {
  int64_t *v = ptrmap_get(memo, e);
  if (v)
    return *v == 1;
  bool ok;
  Expr *const *kids = NULL;
  int n = 0;
  switch (e->kind) {
  case EX_VAR:
  case EX_GLOBAL:
  case EX_CONST: ok = true; break;
  case EX_TUPLE: kids = e->tuple.fields, n = e->tuple.n, ok = true; break;
  case EX_PROJ: kids = &e->proj.tuple, n = 1, ok = true; break;
  case EX_IF:
    ok = expandable(memo, e->if_.cond) && expandable(memo, e->if_.then) &&
         expandable(memo, e->if_.els);
    break;
  case EX_CALL:
    ok = e->call.kind != CALL_EXPR ||
         (is_prim_call(e) && expandable(memo, e->call.callee->func.body));
    kids = e->call.args, n = e->call.nargs;
    break;
  default: ok = false; break;
  }
  for (int i = 0; ok && i < n; i++)
    ok = expandable(memo, kids[i]);
  *ptrmap_put(memo, e, NULL) = ok ? 1 : 2;
  return ok;
}

/* ---------------------------------------------- expanding kernels */

typedef struct {
  Module *m;
  PtrMap memo;
} Unfuse;

/* Body e of primitive function fn with its parameters replaced by args. */
typedef struct {
  Module *m;
  const Expr *fn;
  Expr *const *args;
  PtrMap memo;
} Subst;

static Expr *subst(Subst *s, Expr *e);

static Expr *subst_child(void *ctx, Expr *e) {
  return subst(ctx, e);
}

static Expr *subst(Subst *s, Expr *e) {
  if (e->kind == EX_VAR) {
    for (int i = 0; i < s->fn->func.nparams; i++)
      if (s->fn->func.params[i] == e->var)
        return s->args[i];
    return e;
  }
  int64_t *done = ptrmap_get(&s->memo, e);
  if (done)
    return (Expr *)(intptr_t)*done;
  Expr *r = pass_map_children(s->m, e, subst_child, s);
  *ptrmap_put(&s->memo, e, NULL) = (int64_t)(intptr_t)r;
  return r;
}

static Expr *unfuse(Unfuse *u, Expr *e);

static Expr *unfuse_child(void *ctx, Expr *e) {
  return unfuse(ctx, e);
}

/* Primitive function fn with its body processed, demoted to an ordinary
 * function when that body is not a valid kernel (F2, F3). */
static Expr *unfuse_kernel(Unfuse *u, Expr *fn) {
  Expr *body = unfuse(u, fn->func.body);
  if (body != fn->func.body) {
    fn = ir_expr_clone_node(u->m, fn);
    fn->func.body = body;
  }
  if (!check_kernel(NULL, fn)) {
    fn = ir_expr_clone_node(u->m, fn);
    fn->func.primitive = false;
  }
  return fn;
}

/* e with primitive functions taken apart where they are not (or are no
 * longer) fused as they should be: see the top of the file. */
static Expr *unfuse(Unfuse *u, Expr *e) {
  int64_t *done = ptrmap_get(&u->memo, e);
  if (done)
    return (Expr *)(intptr_t)*done;
  Expr *r;
  if (is_prim_call(e)) {
    Expr **args = e->call.nargs ? ARENA_ARRAY(u->m->arena, Expr *, e->call.nargs) : NULL;
    bool pure = true;
    for (int i = 0; i < e->call.nargs; i++) {
      args[i] = unfuse(u, e->call.args[i]);
      pure = pure && ir_expr_is_shareable(args[i]);
    }
    Expr *fn = e->call.callee;
    if (pure) {
      Subst s = {u->m, fn, args, {0}};
      r = subst(&s, unfuse(u, fn->func.body));
      ptrmap_free(&s.memo);
    } else {
      r = pass_clone(u->m, e);
      for (int i = 0; i < e->call.nargs; i++)
        r->call.args[i] = args[i];
      r->call.callee = unfuse_kernel(u, fn);
    }
  } else if (e->kind == EX_FUNC && e->func.primitive) {
    r = unfuse_kernel(u, e);
  } else {
    r = pass_map_children(u->m, e, unfuse_child, u);
  }
  *ptrmap_put(&u->memo, e, NULL) = (int64_t)(intptr_t)r;
  return r;
}

/* ------------------------------------------------------------ the graph */

typedef struct Edge {
  int to, kind;
} Edge;

typedef struct Node {
  Expr *e;
  int kind;
  bool outside; /* used by something that is not an edge */
  Edge *outs;
  int nouts, capouts;
  /* post-dominator tree */
  int pdom, depth, pdom_kind;
  /* group (union-find, one per node to start with) */
  int up, num_nodes, gkind, nops;
  bool anchor;
} Node;

typedef struct {
  Module *m;
  ScopeInfo si;
  Node *g; /* graph nodes in post-DFS order */
  int n;
  int *gid; /* per ScopeInfo node: graph index or -1 */
  char *visited;
} Fuse;

static bool is_tensor(const Type *t) {
  return t && t->kind == TY_TENSOR;
}

static bool tensor_tuple(const Type *t) {
  if (!t || t->kind != TY_TUPLE)
    return false;
  for (int i = 0; i < t->tuple.n; i++)
    if (!is_tensor(t->tuple.fields[i]))
      return false;
  return true;
}

static bool typed_all(int n, Expr *const *es) {
  for (int i = 0; i < n; i++)
    if (!es[i]->type)
      return false;
  return true;
}

/* Pattern of a graph node, or -1 when e is not one. */
static int node_kind(const Expr *e) {
  if (!e->type)
    return -1;
  if (e->kind == EX_CALL && e->call.kind == CALL_OP && typed_all(e->call.nargs, e->call.args))
    return pattern_rank(e->call.op);
  if (e->kind == EX_TUPLE && typed_all(e->tuple.n, e->tuple.fields))
    return K_TUPLE;
  if (e->kind == EX_PROJ && tensor_tuple(e->proj.tuple->type))
    return K_INJECTIVE;
  return -1;
}

static int gindex(const Fuse *f, const Expr *e) {
  int i = pass_scope_id(&f->si, e);
  return i < 0 ? -1 : f->gid[i];
}

static void add_edge(Node *from, int to, int kind) {
  if (from->nouts == from->capouts) {
    from->capouts = from->capouts ? 2 * from->capouts : 4;
    from->outs = realloc(from->outs, sizeof *from->outs * (size_t)from->capouts);
    if (!from->outs)
      abort();
  }
  from->outs[from->nouts++] = (Edge){to, kind};
}

/* Edge from argument c into consumer node p (if both are nodes of the
 * same scope and the consumer takes it as a fusable input). */
static void link(Fuse *f, int p, Expr *c) {
  int ci = gindex(f, c);
  if (ci < 0)
    return;
  const Expr *pe = f->g[p].e;
  int home_p = f->si.home[pass_scope_id(&f->si, pe)];
  int home_c = f->si.home[pass_scope_id(&f->si, c)];
  if (home_p != home_c)
    return;
  int kind;
  if (pe->kind == EX_TUPLE) {
    if (!is_tensor(c->type))
      return;
    kind = K_INJECTIVE;
  } else if (pe->kind == EX_PROJ) {
    kind = K_INJECTIVE;
  } else {
    kind = f->g[p].kind;
    if (kind == K_BROADCAST && is_tensor(c->type) && is_tensor(pe->type) &&
        c->type->tensor.rank == pe->type->tensor.rank &&
        memcmp(c->type->tensor.shape, pe->type->tensor.shape,
               sizeof(int64_t) * (size_t)pe->type->tensor.rank) == 0)
      kind = K_ELEMWISE;
  }
  add_edge(&f->g[ci], p, kind);
}

static void build_graph(Fuse *f) {
  ScopeInfo *si = &f->si;
  f->gid = malloc(sizeof(int) * (size_t)si->n);
  f->g = calloc((size_t)si->n + 1, sizeof *f->g);
  if (!f->gid || !f->g)
    abort();
  f->n = 0;
  /* si->node is parents first: walk it backwards for post-DFS order. */
  for (int i = si->n - 1; i >= 0; i--) {
    int k = node_kind(si->node[i]);
    f->gid[i] = k < 0 ? -1 : f->n;
    if (k >= 0)
      f->g[f->n++] = (Node){.e = si->node[i], .kind = k};
  }
  for (int p = 0; p < f->n; p++) {
    Expr *e = f->g[p].e;
    if (e->kind == EX_TUPLE)
      for (int i = 0; i < e->tuple.n; i++)
        link(f, p, e->tuple.fields[i]);
    else if (e->kind == EX_PROJ)
      link(f, p, e->proj.tuple);
    else
      for (int i = 0; i < e->call.nargs; i++)
        link(f, p, e->call.args[i]);
  }
  for (int i = 0; i < f->n; i++) {
    Node *nd = &f->g[i];
    nd->outside = nd->nouts < si->refs[pass_scope_id(si, nd->e)];
    nd->up = i;
    nd->num_nodes = 1;
    nd->gkind = nd->kind;
    nd->anchor = nd->kind == K_OUT_EWISE;
    nd->nops = nd->e->kind == EX_CALL;
  }
}

/* ---------------------------------------------------- post-dominators */

/* Least common ancestor of a and b in the post-dominator tree, combining
 * the patterns met into *kind; -1 when there is none. */
static int pdom_lca(Fuse *f, int a, int b, int *kind) {
  while (a != b) {
    if (a < 0 || b < 0)
      return -1;
    Node *x = &f->g[a], *y = &f->g[b];
    if (x->depth < y->depth) {
      *kind = combine(*kind, y->pdom_kind);
      b = y->pdom;
    } else if (y->depth < x->depth) {
      *kind = combine(*kind, x->pdom_kind);
      a = x->pdom;
    } else {
      *kind = combine(*kind, combine(x->pdom_kind, y->pdom_kind));
      a = x->pdom;
      b = y->pdom;
    }
  }
  return a;
}

static void post_dominators(Fuse *f) {
  for (int i = f->n - 1; i >= 0; i--) {
    Node *nd = &f->g[i];
    int parent = -1, kind = K_ELEMWISE;
    if (nd->outside) {
      kind = K_OPAQUE;
    } else if (nd->nouts > 0) {
      parent = nd->outs[0].to;
      kind = combine(kind, nd->outs[0].kind);
      for (int j = 1; j < nd->nouts; j++) {
        parent = pdom_lca(f, parent, nd->outs[j].to, &kind);
        kind = combine(kind, nd->outs[j].kind);
      }
    }
    nd->pdom = parent;
    nd->pdom_kind = kind;
    nd->depth = parent < 0 ? 1 : f->g[parent].depth + 1;
  }
}

/* -------------------------------------------------------------- groups */

static int find(Fuse *f, int i) {
  while (f->g[i].up != i) {
    f->g[i].up = f->g[f->g[i].up].up;
    i = f->g[i].up;
  }
  return i;
}

static void merge(Fuse *f, int child, int parent) {
  child = find(f, child);
  parent = find(f, parent);
  if (child == parent)
    return;
  Node *c = &f->g[child], *p = &f->g[parent];
  p->num_nodes += c->num_nodes;
  p->nops += c->nops;
  c->up = parent;
  if (c->anchor) {
    p->anchor = true;
    p->gkind = combine(c->gkind, p->gkind);
  }
}

typedef bool (*PathTest)(int kind, bool is_sink);

static bool check_from(Fuse *f, int src, int sink, PathTest test) {
  if (f->visited[src])
    return true;
  f->visited[src] = 1;
  if (!test(f->g[find(f, src)].gkind, src == sink))
    return false;
  if (src == sink)
    return true;
  for (int j = 0; j < f->g[src].nouts; j++)
    if (!check_from(f, f->g[src].outs[j].to, sink, test))
      return false;
  return true;
}

/* Does every node on every path from src to sink (src excluded) pass? */
static bool check_path(Fuse *f, int src, int sink, PathTest test) {
  memset(f->visited, 0, (size_t)f->n);
  for (int j = 0; j < f->g[src].nouts; j++)
    if (!check_from(f, f->g[src].outs[j].to, sink, test))
      return false;
  return true;
}

static void commit_from(Fuse *f, int src, int sink, int target) {
  if (src == sink || f->visited[src])
    return;
  f->visited[src] = 1;
  merge(f, src, target);
  for (int j = 0; j < f->g[src].nouts; j++)
    commit_from(f, f->g[src].outs[j].to, sink, target);
}

/* Merge every node on the paths from src to sink into sink's group. */
static void commit(Fuse *f, int src, int sink) {
  memset(f->visited, 0, (size_t)f->n);
  commit_from(f, src, sink, find(f, sink));
}

static int count_from(Fuse *f, int src, int sink) {
  if (src == sink || f->visited[src])
    return 0;
  f->visited[src] = 1;
  int sum = f->g[src].num_nodes;
  for (int j = 0; j < f->g[src].nouts; j++)
    sum += count_from(f, f->g[src].outs[j].to, sink);
  return sum;
}

/* Nodes in sink's group after merging the paths from child into it. */
static int count_fused(Fuse *f, int child, int sink) {
  memset(f->visited, 0, (size_t)f->n);
  return f->g[find(f, sink)].num_nodes + count_from(f, child, sink);
}

static bool after_anchor_from(Fuse *f, int i, int root) {
  for (int j = 0; j < f->g[i].nouts; j++) {
    int to = f->g[i].outs[j].to;
    if (f->visited[to] || find(f, to) != root)
      continue;
    f->visited[to] = 1;
    const Expr *e = f->g[to].e;
    bool op = e->kind == EX_CALL && e->call.kind == CALL_OP;
    if ((op && f->g[to].kind > K_BROADCAST) || !after_anchor_from(f, to, root))
      return false;
  }
  return true;
}

/* Is every operator of dp's group that uses dp's result ELEMWISE or
 * BROADCAST?  An out-elemwise-fusable anchor fused into dp feeds them all
 * (F3).  The path test between the anchor and dp does not see them: a node
 * swept before the anchor may have merged dp's group into an injective
 * consumer already (Relay's sweep order allows that too). */
static bool after_anchor_ok(Fuse *f, int dp) {
  memset(f->visited, 0, (size_t)f->n);
  return after_anchor_from(f, dp, find(f, dp));
}

static bool upto_broadcast(int k, bool sink) {
  (void)sink;
  return k <= K_BROADCAST;
}

static bool upto_injective(int k, bool sink) {
  (void)sink;
  return k <= K_INJECTIVE;
}

static bool into_anchor(int k, bool sink) {
  if (!sink)
    return k <= K_INJECTIVE;
  return k <= K_INJECTIVE || k == K_COMM_REDUCE || k == K_OUT_EWISE;
}

static void sweep(Fuse *f, int phase) {
  for (int i = 0; i < f->n; i++) {
    Node *nd = &f->g[i];
    int dp = nd->pdom;
    if (nd->gkind == K_OPAQUE || dp < 0)
      continue;
    if (count_fused(f, i, dp) > MAX_DEPTH)
      continue;
    if (phase == 2) {
      /* Injective nodes into a tuple fused into an injective consumer. */
      if (nd->gkind > K_INJECTIVE)
        continue;
      int root = find(f, dp);
      if (f->g[root].gkind == K_TUPLE)
        continue;
      if (f->g[dp].gkind == K_TUPLE && f->g[root].gkind <= K_INJECTIVE &&
          check_path(f, i, dp, upto_injective))
        commit(f, i, dp);
      continue;
    }
    if (find(f, i) == find(f, dp))
      continue;
    if (f->g[dp].gkind == K_TUPLE)
      continue;
    if (nd->gkind == K_OUT_EWISE) {
      if (phase == 0 && nd->pdom_kind == K_ELEMWISE && check_path(f, i, dp, upto_broadcast) &&
          after_anchor_ok(f, dp))
        commit(f, i, dp);
    } else if (nd->gkind <= K_BROADCAST) {
      if ((nd->pdom_kind <= K_INJECTIVE || nd->pdom_kind == K_COMM_REDUCE) &&
          check_path(f, i, dp, into_anchor))
        commit(f, i, dp);
    } else if (nd->gkind == K_INJECTIVE || nd->gkind == K_TUPLE) {
      if (phase == 1 && check_path(f, i, dp, upto_injective))
        commit(f, i, dp);
    }
  }
}

/* ------------------------------------------------------------- output */

typedef struct {
  Fuse *f;
  PtrMap memo; /* Expr* -> rebuilt, outside primitive functions */
} Out;

typedef struct {
  Out *o;
  int root;
  PtrMap memo;  /* group members -> their copies in the body */
  PtrMap param; /* outside input (rebuilt node, or Var* for a variable) -> param Var* */
  Var **params;
  Expr **args;
  int n, cap;
} Kernel;

static Expr *rebuild(Out *o, Expr *e);

static Expr *rebuild_child(void *ctx, Expr *e) {
  return rebuild(ctx, e);
}

/* The parameter standing for outside input e in kernel k. */
static Expr *param_for(Kernel *k, Expr *e) {
  Expr *a = rebuild(k->o, e);
  const void *key = a->kind == EX_VAR ? (const void *)a->var : (const void *)a;
  int added;
  int64_t *slot = ptrmap_put(&k->param, key, &added);
  if (added) {
    if (k->n == k->cap) {
      k->cap = k->cap ? 2 * k->cap : 4;
      k->params = realloc(k->params, sizeof *k->params * (size_t)k->cap);
      k->args = realloc(k->args, sizeof *k->args * (size_t)k->cap);
      if (!k->params || !k->args)
        abort();
    }
    Var *p = ir_var(k->o->f->m, "p", e->type);
    p->type = e->type;
    k->params[k->n] = p;
    k->args[k->n] = a;
    *slot = k->n++;
  }
  return pass_var_use(k->o->f->m, k->params[*slot]);
}

/* Group member e inside the kernel's body; other inputs become params. */
static Expr *body_of(Kernel *k, Expr *e) {
  Fuse *f = k->o->f;
  int gi = gindex(f, e);
  if (gi < 0 || find(f, gi) != k->root) {
    if (e->kind == EX_CONST && e->constant->rank == 0)
      return e;
    return param_for(k, e);
  }
  int64_t *done = ptrmap_get(&k->memo, e);
  if (done)
    return (Expr *)(intptr_t)*done;
  Expr *c = pass_clone(f->m, e);
  if (c->kind == EX_TUPLE)
    for (int i = 0; i < c->tuple.n; i++)
      c->tuple.fields[i] = body_of(k, c->tuple.fields[i]);
  else if (c->kind == EX_PROJ)
    c->proj.tuple = body_of(k, c->proj.tuple);
  else
    for (int i = 0; i < c->call.nargs; i++)
      c->call.args[i] = body_of(k, c->call.args[i]);
  *ptrmap_put(&k->memo, e, NULL) = (int64_t)(intptr_t)c;
  return c;
}

/* The call of a new primitive function for the group rooted at node gi. */
static Expr *fused_call(Out *o, int gi) {
  Fuse *f = o->f;
  Module *m = f->m;
  Kernel k = {o, gi, {0}, {0}, NULL, NULL, 0, 0};
  Expr *root = f->g[gi].e;
  Expr *body = body_of(&k, root);
  Expr *fn = ir_func(m, k.n, k.params, root->type, body);
  fn->func.primitive = true;
  Type **pt = k.n ? ARENA_ARRAY(m->arena, Type *, k.n) : NULL;
  for (int i = 0; i < k.n; i++)
    pt[i] = k.params[i]->type;
  fn->type = ir_func_type(m->arena, 0, NULL, k.n, pt, root->type);
  Expr *call = ir_call(m, fn, k.n, k.args);
  call->type = root->type;
  free(k.params);
  free(k.args);
  ptrmap_free(&k.memo);
  ptrmap_free(&k.param);
  return call;
}

/* Does the group rooted at gi become a primitive function? */
static bool wraps(Fuse *f, int gi) {
  const Expr *e = f->g[gi].e;
  if (f->g[gi].nops == 0 || e->kind == EX_TUPLE)
    return false;
  if (e->kind == EX_PROJ) {
    int t = gindex(f, e->proj.tuple);
    return t >= 0 && find(f, t) == gi;
  }
  return true;
}

/* e with its groups fused (no placement of shared calls yet). */
static Expr *rebuild(Out *o, Expr *e) {
  int64_t *done = ptrmap_get(&o->memo, e);
  if (done)
    return (Expr *)(intptr_t)*done;
  Fuse *f = o->f;
  int gi = gindex(f, e);
  Expr *r;
  if (gi >= 0 && find(f, gi) == gi && wraps(f, gi))
    r = fused_call(o, gi);
  else if (e->kind == EX_FUNC && e->func.primitive)
    r = e;
  else
    r = pass_map_children(f->m, e, rebuild_child, o);
  *ptrmap_put(&o->memo, e, NULL) = (int64_t)(intptr_t)r;
  return r;
}

/* Fuse the operators of one function body; returns the new body. */
static Expr *fuse_body(Module *m, Expr *body) {
  Fuse f = {.m = m};
  pass_scope_build(&f.si, body, true);
  build_graph(&f);
  f.visited = calloc((size_t)f.n + 1, 1);
  if (!f.visited)
    abort();
  post_dominators(&f);
  for (int phase = 0; phase < 3; phase++)
    sweep(&f, phase);
  Out o = {&f, {0}};
  Expr *r = rebuild(&o, body);
  ptrmap_free(&o.memo);
  for (int i = 0; i < f.n; i++)
    free(f.g[i].outs);
  free(f.g);
  free(f.gid);
  free(f.visited);
  pass_scope_free(&f.si);
  return r;
}

/* ---------------------------------------- binding shared fused calls */

typedef struct {
  Module *m;
  ScopeInfo si;
  bool *bind; /* per node: bound by a let at its home */
  PtrMap memo;
} Place;

static Expr *place(Place *p, Expr *e);

/* The chain of lets starting at e, as the body of scope s. */
static Expr *chain(Place *p, Expr *e, int s) {
  int mark = pass_scope_mark(&p->si, s);
  while (e->kind == EX_LET) {
    Expr *v = place(p, e->let.value);
    pass_scope_emit(&p->si, s, e->let.var, v);
    e = e->let.body;
  }
  return pass_scope_wrap(p->m, &p->si, s, mark, place(p, e));
}

/* e with shared non-shareable nodes bound, children in evaluation order. */
static Expr *place_node(Place *p, Expr *e, int i) {
  int sub = p->si.sub[i];
  Expr *c = pass_clone(p->m, e);
  switch (e->kind) {
  case EX_VAR:
  case EX_GLOBAL:
  case EX_CONST: return e;
  case EX_LET: return chain(p, e, sub);
  case EX_TUPLE:
    for (int j = 0; j < e->tuple.n; j++)
      c->tuple.fields[j] = place(p, e->tuple.fields[j]);
    break;
  case EX_PROJ: c->proj.tuple = place(p, e->proj.tuple); break;
  case EX_IF:
    c->if_.cond = place(p, e->if_.cond);
    c->if_.then = chain(p, e->if_.then, sub);
    c->if_.els = chain(p, e->if_.els, sub + 1);
    break;
  case EX_CALL:
    for (int j = 0; j < e->call.nargs; j++)
      c->call.args[j] = place(p, e->call.args[j]);
    if (e->call.kind == CALL_EXPR)
      c->call.callee = place(p, e->call.callee);
    break;
  case EX_FUNC:
    if (e->func.primitive)
      return e;
    c->func.body = chain(p, e->func.body, sub);
    break;
  case EX_REF_NEW: c->ref_new.value = place(p, e->ref_new.value); break;
  case EX_REF_READ: c->ref_read.ref = place(p, e->ref_read.ref); break;
  case EX_REF_WRITE:
    c->ref_write.ref = place(p, e->ref_write.ref);
    c->ref_write.value = place(p, e->ref_write.value);
    break;
  case EX_MATCH:
    c->match.scrut = place(p, e->match.scrut);
    for (int j = 0; j < e->match.n; j++)
      c->match.clauses[j].body = chain(p, e->match.clauses[j].body, sub + j);
    break;
  }
  return c;
}

static Expr *place(Place *p, Expr *e) {
  int64_t *done = ptrmap_get(&p->memo, e);
  if (done)
    return (Expr *)(intptr_t)*done;
  int i = pass_scope_id(&p->si, e);
  Expr *r = place_node(p, e, i);
  if (p->bind[i]) {
    Var *v = pass_fresh_var(p->m, "x", e->type);
    pass_scope_emit(&p->si, p->si.home[i], v, r);
    r = pass_var_use(p->m, v);
  }
  *ptrmap_put(&p->memo, e, NULL) = (int64_t)(intptr_t)r;
  return r;
}

/* Would e (node i) be shareable once its children marked in ok[] are?
 * lets[s] says a binding lands in scope s: an if whose branch receives one
 * holds a let after placement, and a node with a binder is not shareable. */
static bool shareable_given(const ScopeInfo *si, const bool *ok, const bool *lets, int i) {
  const Expr *e = si->node[i];
  Expr *const *kids = NULL;
  int n = 0;
  switch (e->kind) {
  case EX_VAR:
  case EX_GLOBAL:
  case EX_CONST: return true;
  case EX_TUPLE: kids = e->tuple.fields, n = e->tuple.n; break;
  case EX_PROJ: kids = &e->proj.tuple, n = 1; break;
  case EX_IF:
    return ok[pass_scope_id(si, e->if_.cond)] && ok[pass_scope_id(si, e->if_.then)] &&
           ok[pass_scope_id(si, e->if_.els)] && !lets[si->sub[i]] && !lets[si->sub[i] + 1];
  case EX_CALL:
    if (e->call.kind == CALL_EXPR)
      return false;
    kids = e->call.args, n = e->call.nargs;
    break;
  default: return false;
  }
  for (int j = 0; j < n; j++)
    if (!ok[pass_scope_id(si, kids[j])])
      return false;
  return true;
}

/* Bind, at their homes, the nodes reached along two paths that are not
 * shareable (fused calls, and shared nodes containing unbound ones or, in
 * an if branch, bindings of their own). */
static Expr *bind_shared(Module *m, Expr *body) {
  Place p = {m, {0}, NULL, {0}};
  pass_scope_build(&p.si, body, true);
  int n = p.si.n;
  p.bind = calloc((size_t)n + 1, sizeof *p.bind);
  bool *ok = calloc((size_t)n + 1, sizeof *ok);                /* shareable, or bound */
  bool *lets = calloc((size_t)p.si.nscopes + 1, sizeof *lets); /* a binding lands here */
  if (!p.bind || !ok || !lets)
    abort();
  bool any = false;
  for (int i = n - 1; i >= 0; i--) { /* children first */
    bool own = shareable_given(&p.si, ok, lets, i);
    p.bind[i] = p.si.refs[i] >= 2 && !own;
    ok[i] = own || p.bind[i];
    if (p.bind[i])
      any = lets[p.si.home[i]] = true;
  }
  if (any)
    body = chain(&p, body, 0);
  free(lets);
  free(ok);
  free(p.bind);
  ptrmap_free(&p.memo);
  pass_scope_free(&p.si);
  return body;
}

bool pass_fuse_ops(Module *m, Diag *d) {
  (void)d;
  for (int i = 0; i < m->nfuncs; i++) {
    Expr *fn = m->funcs[i]->func;
    if (!fn || fn->kind != EX_FUNC)
      continue;
    if (fn->func.primitive && check_kernel(NULL, fn))
      continue; /* a valid kernel as it is */
    fn->func.primitive = false;
    Unfuse u = {m, {0}};
    Expr *body = unfuse(&u, fn->func.body);
    ptrmap_free(&u.memo);
    fn->func.body = bind_shared(m, fuse_body(m, body));
  }
  return true;
}

/* ----------------------------------------------------------- postcondition */

/* The operator call of the body that takes parameter v directly as an
 * argument, when that is v's only use (one parent slot in all); else NULL. */
static const Expr *sole_op_use(Kstat *k, const Var *v) {
  int64_t *u = ptrmap_get(&k->uses, v);
  if (!u || *u != 1)
    return NULL;
  for (size_t i = 0; i < k->seen.cap; i++) {
    const Expr *e = k->seen.keys[i];
    if (!e || e->kind != EX_CALL || e->call.kind != CALL_OP)
      continue;
    for (int j = 0; j < e->call.nargs; j++)
      if (e->call.args[j]->kind == EX_VAR && e->call.args[j]->var == v)
        return e;
  }
  return NULL;
}

/* Would the pass expand this kernel call (so its operators were fused
 * again by this run)? */
static bool expanded(Post *p, const Expr *call) {
  if (!kernel_form(call->call.callee))
    return false;
  for (int i = 0; i < call->call.nargs; i++)
    if (!expandable(&p->expand, call->call.args[i]))
      return false;
  return true;
}

/* F4 for primitive call c. */
static void check_missed(Post *p, const Expr *c) {
  for (int j = 0; j < c->call.nargs; j++) {
    const Expr *a = c->call.args[j];
    if (!is_prim_call(a) || *ptrmap_get(&p->refs, a) != 1)
      continue;
    const Expr *pf = a->call.callee, *cf = c->call.callee;
    const Expr *r = pf->func.body;
    if (r->kind != EX_CALL || r->call.kind != CALL_OP || pattern_rank(r->call.op) > K_BROADCAST ||
        !expanded(p, a) || !expanded(p, c))
      continue;
    Kstat kp = kernel_stat(pf), kc = kernel_stat(cf);
    const Expr *use = j < cf->func.nparams ? sole_op_use(&kc, cf->func.params[j]) : NULL;
    int uk = use ? pattern_rank(use->call.op) : K_OPAQUE;
    if (kp.anchors == 0 && kp.opaque == 0 && use && (uk <= K_INJECTIVE || uk == K_COMM_REDUCE) &&
        kp.nodes + kc.nodes <= MAX_DEPTH)
      fail(p, a, "a primitive call ending in %s should have been fused into its consumer",
           ir_op_name(r->call.op));
    kstat_free(&kp);
    kstat_free(&kc);
  }
}

/* Count parent slots per node, primitive bodies excepted. */
static void refs_visit(Expr **slot, void *ctx) {
  Post *p = ctx;
  (*ptrmap_put(&p->refs, *slot, NULL))++;
  if (ptrmap_first(&p->seen, *slot) && !((*slot)->kind == EX_FUNC && (*slot)->func.primitive))
    ir_expr_children(*slot, refs_visit, p);
}

typedef struct {
  Post *p;
  PtrMap seen;
} Walk;

/* F1 at operator calls, F2-F3 at primitive functions, F4 at their calls. */
static void post_visit(Expr **slot, void *ctx) {
  Walk *w = ctx;
  const Expr *e = *slot;
  if (!ptrmap_first(&w->seen, e))
    return;
  if (e->kind == EX_FUNC && e->func.primitive) {
    check_kernel(w->p, e);
    return;
  }
  if (e->kind == EX_CALL && e->call.kind == CALL_OP)
    fail(w->p, e, "operator %s is called outside a primitive function", ir_op_name(e->call.op));
  if (is_prim_call(e))
    check_missed(w->p, e);
  ir_expr_children(*slot, post_visit, w);
}

bool post_fuse_ops(const Module *m, Diag *d) {
  Post p = {.d = d, .ok = true};
  for (int i = 0; i < m->nfuncs; i++)
    if (m->funcs[i]->func)
      refs_visit(&m->funcs[i]->func, &p);
  Walk w = {&p, {0}};
  for (int i = 0; i < m->nfuncs; i++) {
    p.g = m->funcs[i];
    if (p.g->func)
      post_visit(&m->funcs[i]->func, &w);
  }
  ptrmap_free(&w.seen);
  ptrmap_free(&p.expand);
  ptrmap_free(&p.refs);
  ptrmap_free(&p.seen);
  return p.ok;
}
