/*
 * unify.c - the solving half of type inference (infer.c generates the
 * constraints): the union-find of incomplete types, structural
 * unification with an occurs check, and the walks that substitute into
 * types: instantiation (ty_inst), zonking (ty_zonk) and the final
 * resolution (ty_resolve).  The data structures are described in
 * infer_int.h, which also holds the inline fast paths.
 *
 * Unification follows Relay's Unify: two unknown roots are merged (union
 * by rank, their relation lists concatenated); an unknown root met with
 * any other type is bound to it, after an occurs check, and binding it
 * queues the relations waiting on it; other types unify part by part.
 * Type variables are rigid, and polymorphic function types unify up to
 * renaming their type parameters.  Every walk counts its steps against
 * STEP_LIMIT and stops at TYPE_DEPTH, so that a blow-up ends the check
 * with an error instead of exhausting the stack or the time.
 */
#include <string.h>

#include "compiler/ir/hash.h"
#include "infer_int.h"

enum { MEMO = 64 /* entries of the resolution cache (power of 2) */ };

/* ---------------------------------------------------------- union-find */

/* A new unknown type. */
Type *ty_fresh(Cx *cx) {
  cx->nodes = ty_grow(cx->S, cx->nodes, cx->nnodes, &cx->capnodes, sizeof *cx->nodes);
  int id = cx->nnodes++;
  Node *n = &cx->nodes[id];
  memset(n, 0, sizeof *n);
  n->parent = id;
  n->ty = ARENA_NEW(cx->S, Type);
  n->ty->kind = TY_INCOMPLETE;
  n->ty->incomplete.id = id;
  return n->ty;
}

/* Queue the relations waiting on root r. */
static void trigger(Cx *cx, Node *r) {
  for (Link *l = r->rels; l; l = l->next)
    if (!l->rel->done && !l->rel->queued) {
      l->rel->queued = true;
      PUSH(cx, cx->queue, cx->qn, cx->qcap, l->rel);
    }
  r->rels = r->tail = NULL;
}

/* Register relation rel on the unknown root r. */
void ty_wait_on(Cx *cx, Node *r, Rel *rel) {
  Link *l = ARENA_NEW(cx->S, Link);
  l->rel = rel;
  if (r->tail)
    r->tail->next = l;
  else
    r->rels = l;
  r->tail = l;
}

/* Does the unknown root `root` occur in t? */
static bool occurs(Cx *cx, int root, Type *t, int depth) {
  if (depth > TYPE_DEPTH || !ty_step(cx)) {
    cx->big = true;
    return true;
  }
  switch (t->kind) {
  case TY_INCOMPLETE: {
    if (!ty_ours(cx, t))
      return false;
    int r = ty_find(cx, t->incomplete.id);
    if (r == root)
      return true;
    Node *n = &cx->nodes[r];
    if (!n->bound || n->mark == cx->epoch)
      return false;
    n->mark = cx->epoch;
    return occurs(cx, root, n->bound, depth + 1);
  }
  case TY_TENSOR:
  case TY_VAR: return false;
  case TY_TUPLE:
    for (int i = 0; i < t->tuple.n; i++)
      if (occurs(cx, root, t->tuple.fields[i], depth + 1))
        return true;
    return false;
  case TY_FUNC:
    for (int i = 0; i < t->func.nparams; i++)
      if (occurs(cx, root, t->func.params[i], depth + 1))
        return true;
    return occurs(cx, root, t->func.ret, depth + 1);
  case TY_REF: return occurs(cx, root, t->ref.inner, depth + 1);
  case TY_ADT:
    for (int i = 0; i < t->adt.nargs; i++)
      if (occurs(cx, root, t->adt.args[i], depth + 1))
        return true;
    return false;
  }
  return false;
}

/* Bind the unknown root of v to the non-incomplete type t. */
static bool bind(Cx *cx, Type *v, Type *t) {
  int root = ty_find(cx, v->incomplete.id);
  cx->epoch++;
  if (occurs(cx, root, t, 0)) {
    cx->occurs = !cx->big;
    return false;
  }
  cx->nodes[root].bound = t;
  trigger(cx, &cx->nodes[root]);
  return true;
}

#ifdef RS_TEST_PASSES
bool ty_test_fault_merge_rels;
#endif

/* Merge two distinct unknown roots: the relations waiting on either wait
 * on the merged root, so binding it re-runs them all. */
static void merge(Cx *cx, Type *a, Type *b) {
  int ra = ty_find(cx, a->incomplete.id), rb = ty_find(cx, b->incomplete.id);
  if (ra == rb)
    return;
  if (cx->nodes[ra].rank < cx->nodes[rb].rank) {
    int t = ra;
    ra = rb;
    rb = t;
  }
  Node *A = &cx->nodes[ra], *B = &cx->nodes[rb];
  B->parent = ra;
  if (A->rank == B->rank)
    A->rank++;
#ifdef RS_TEST_PASSES
  if (ty_test_fault_merge_rels) /* the deliberate bug: B's relations are lost */
    B->rels = B->tail = NULL;
#endif
  if (B->rels) {
    if (A->tail)
      A->tail->next = B->rels;
    else
      A->rels = B->rels;
    A->tail = B->tail;
    B->rels = B->tail = NULL;
  }
}

/* --------------------------------------------------------- unification */

/* Unify two arrays of types pairwise. */
static bool unify_all(Cx *cx, int n, Type **a, Type **b, int depth) {
  for (int i = 0; i < n; i++)
    if (!ty_unify_rec(cx, a[i], b[i], depth + 1))
      return false;
  return true;
}

/* ty_unify_rec for any types. */
bool ty_unify_any(Cx *cx, Type *a, Type *b, int depth) {
  if (!a || !b)
    return false;
  if (depth > TYPE_DEPTH || !ty_step(cx)) {
    cx->big = true;
    return false;
  }
  a = ty_shallow(cx, a);
  b = ty_shallow(cx, b);
  if (a == b)
    return true;
  bool ua = ty_unknown(cx, a), ub = ty_unknown(cx, b);
  if (ua && ub) {
    merge(cx, a, b);
    return true;
  }
  if (ua)
    return bind(cx, a, b);
  if (ub)
    return bind(cx, b, a);
  if (a->kind != b->kind)
    return false;
  switch (a->kind) {
  case TY_TENSOR: return ty_same_tensor(a, b);
  case TY_TUPLE:
    return a->tuple.n == b->tuple.n &&
           unify_all(cx, a->tuple.n, a->tuple.fields, b->tuple.fields, depth);
  case TY_FUNC:
    if (a->func.ntvars != b->func.ntvars || a->func.nparams != b->func.nparams)
      return false;
    if (a->func.ntvars) {
      /* Polymorphic function types unify up to renaming their type
       * parameters, as in Relay: rename b's to a's. */
      for (int i = 0; i < b->func.ntvars; i++)
        if (!b->func.tvars[i] || b->func.tvars[i]->kind != TY_VAR)
          return false;
      b = ir_type_subst(cx->A, b, b->func.ntvars, b->func.tvars, a->func.tvars);
    }
    return unify_all(cx, a->func.nparams, a->func.params, b->func.params, depth) &&
           ty_unify_rec(cx, a->func.ret, b->func.ret, depth + 1);
  case TY_REF: return ty_unify_rec(cx, a->ref.inner, b->ref.inner, depth + 1);
  case TY_ADT:
    return a->adt.def == b->adt.def && a->adt.nargs == b->adt.nargs &&
           unify_all(cx, a->adt.nargs, a->adt.args, b->adt.args, depth);
  case TY_VAR: return false;        /* rigid: equal only to itself */
  case TY_INCOMPLETE: return false; /* a stray incomplete type */
  }
  return false;
}

/* ------------------------------------------------------ building types */

/* The tuple, ADT or function type t with its parts replaced by parts
 * (and its result by ret), in arena a. */
static Type *rebuild(Arena *a, Type *t, Type **parts, Type *ret) {
  if (t->kind == TY_TUPLE)
    return ir_tuple_type(a, t->tuple.n, parts);
  if (t->kind == TY_ADT)
    return ir_adt_type(a, t->adt.def, t->adt.nargs, parts);
  return ir_func_type(a, t->func.ntvars, t->func.tvars, t->func.nparams, parts, ret);
}

/* ty_inst for any type. */
Type *ty_inst_any(Cx *cx, Type *t, int n, Type *const *from, Type *const *to, bool freshen,
                  int depth) {
  if (!t || depth > TYPE_DEPTH || !ty_step(cx))
    return NULL;
  switch (t->kind) {
  case TY_TENSOR:
    if (t->tensor.rank < 0 || t->tensor.rank > IR_MAX_RANK || (unsigned)t->tensor.dtype >= DT_COUNT)
      return NULL;
    return t;
  case TY_VAR:
    for (int i = 0; i < n; i++)
      if (from[i] == t)
        return to[i];
    return t;
  case TY_INCOMPLETE: return freshen ? ty_fresh(cx) : t;
  case TY_REF: {
    Type *in = ty_inst(cx, t->ref.inner, n, from, to, freshen, depth + 1);
    return !in ? NULL : in == t->ref.inner ? t : ir_ref_type(cx->A, in);
  }
  case TY_TUPLE:
  case TY_ADT:
  case TY_FUNC: {
    int k = t->kind == TY_TUPLE ? t->tuple.n : t->kind == TY_ADT ? t->adt.nargs : t->func.nparams;
    Type **src = t->kind == TY_TUPLE ? t->tuple.fields
                 : t->kind == TY_ADT ? t->adt.args
                                     : t->func.params;
    if (k < 0 || (k > 0 && !src))
      return NULL;
    if (t->kind == TY_ADT && (!t->adt.def || t->adt.def->ntvars != k))
      return NULL;
    Type *buf[8]; /* the builders copy the array */
    Type **dst = k <= 8 ? buf : ARENA_ARRAY(cx->S, Type *, k);
    bool changed = false;
    for (int i = 0; i < k; i++) {
      if (!(dst[i] = ty_inst(cx, src[i], n, from, to, freshen, depth + 1)))
        return NULL;
      changed |= dst[i] != src[i];
    }
    Type *ret = NULL;
    if (t->kind == TY_FUNC) {
      if (!(ret = ty_inst(cx, t->func.ret, n, from, to, freshen, depth + 1)))
        return NULL;
      changed |= ret != t->func.ret;
    }
    return changed ? rebuild(cx->A, t, dst, ret) : t;
  }
  }
  return NULL;
}

/* t with every bound incomplete type replaced by its binding, allocated in
 * arena a.  When collect, the unknown roots met are added to cx->leaves. */
Type *ty_zonk(Cx *cx, Type *t, Arena *a, bool collect, int depth) {
  if (depth > TYPE_DEPTH || !ty_step(cx))
    return t;
  if (t->kind == TY_INCOMPLETE) {
    Type *s = ty_shallow(cx, t);
    if (s->kind == TY_INCOMPLETE) {
      if (collect && ty_ours(cx, s))
        PUSH(cx, cx->leaves, cx->nleaves, cx->capleaves, ty_find(cx, s->incomplete.id));
      return s;
    }
    return ty_zonk(cx, s, a, collect, depth + 1);
  }
  switch (t->kind) {
  case TY_REF: {
    Type *in = ty_zonk(cx, t->ref.inner, a, collect, depth + 1);
    return in == t->ref.inner ? t : ir_ref_type(a, in);
  }
  case TY_TUPLE:
  case TY_ADT:
  case TY_FUNC: {
    int k = t->kind == TY_TUPLE ? t->tuple.n : t->kind == TY_ADT ? t->adt.nargs : t->func.nparams;
    Type **src = t->kind == TY_TUPLE ? t->tuple.fields
                 : t->kind == TY_ADT ? t->adt.args
                                     : t->func.params;
    Type *buf[8];
    Type **dst = k <= 8 ? buf : ARENA_ARRAY(cx->S, Type *, k);
    bool changed = false;
    for (int i = 0; i < k; i++) {
      dst[i] = ty_zonk(cx, src[i], a, collect, depth + 1);
      changed |= dst[i] != src[i];
    }
    Type *ret = NULL;
    if (t->kind == TY_FUNC) {
      ret = ty_zonk(cx, t->func.ret, a, collect, depth + 1);
      changed |= ret != t->func.ret;
    }
    return changed ? rebuild(a, t, dst, ret) : t;
  }
  default: return t;
  }
}

/* ty_resolve for a tuple, function, ref or ADT type t, not memoised (out of
 * line, so that ty_resolve stays cheap on the common tensor types). */
static __attribute__((noinline)) Type *resolve_parts(Cx *cx, Type *t, int depth) {
  if (t->kind == TY_REF) {
    Type *in = ty_resolve(cx, t->ref.inner, depth + 1);
    return !in ? NULL : in == t->ref.inner ? t : ir_ref_type(cx->A, in);
  }
  int k = t->kind == TY_TUPLE ? t->tuple.n : t->kind == TY_ADT ? t->adt.nargs : t->func.nparams;
  Type **src = t->kind == TY_TUPLE ? t->tuple.fields
               : t->kind == TY_ADT ? t->adt.args
                                   : t->func.params;
  Type *buf[8]; /* the builders copy the array */
  Type **dst = k <= 8 ? buf : ARENA_ARRAY(cx->S, Type *, k);
  bool changed = false;
  for (int i = 0; i < k; i++) {
    if (!(dst[i] = ty_resolve(cx, src[i], depth + 1)))
      return NULL;
    changed |= dst[i] != src[i];
  }
  Type *ret = NULL;
  if (t->kind == TY_FUNC) {
    if (!(ret = ty_resolve(cx, t->func.ret, depth + 1)))
      return NULL;
    changed |= ret != t->func.ret;
  }
  return changed ? rebuild(cx->A, t, dst, ret) : t;
}

/* ty_resolve for any type; composite types are memoised by pointer. */
Type *ty_resolve_any(Cx *cx, Type *t, int depth) {
  if (!t || depth > TYPE_DEPTH || !ty_step(cx))
    return NULL;
  switch (t->kind) {
  case TY_TENSOR:
  case TY_VAR: return t;
  case TY_INCOMPLETE: {
    if (!ty_ours(cx, t))
      return NULL;
    Node *r = &cx->nodes[ty_find(cx, t->incomplete.id)];
    if (!r->res && r->bound)
      r->res = ty_resolve(cx, r->bound, depth + 1);
    return r->res;
  }
  default: break;
  }
  if (!cx->memo)
    cx->memo = arena_alloc(cx->S, sizeof *cx->memo * MEMO);
  size_t h = (size_t)(hash_ptr(t) >> 40) & (MEMO - 1);
  if (cx->memo[h].k != t) {
    cx->memo[h].v = resolve_parts(cx, t, depth);
    cx->memo[h].k = t;
  }
  return cx->memo[h].v;
}
