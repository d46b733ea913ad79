/*
 * infer_int.h - what the two halves of type inference share: unification
 * (unify.c: the union-find of incomplete types, unification, and the
 * walks that substitute into types) and constraint generation (infer.c:
 * the walk over the expressions, the relation queue, and the resolution
 * into Expr.type and Var.type).  Private to those two files.
 *
 * Representation.  Each incomplete type is a TY_INCOMPLETE Type (in the
 * scratch arena) whose id indexes `nodes`, a union-find.  A root node is
 * either unknown (bound == NULL) or bound to a non-incomplete type, which
 * may itself contain incomplete types.  Only unknown roots are ever
 * merged.  Every other type built during inference is allocated in the
 * module's arena, so resolution can return a type unchanged when it holds
 * no incomplete type; only the scratch arena is freed after a check.
 *
 * The fast paths of unification, instantiation and resolution (tensor
 * types, most of them) are here, always inlined, since both files call
 * them on every node; the general cases are unify.c's ty_*_any.
 */
#ifndef RELAYC_INFER_INT_H
#define RELAYC_INFER_INT_H

#include <string.h>

#include "typing.h"

enum {
  TYPE_DEPTH = 400,     /* type nesting */
  STEP_LIMIT = 1 << 22, /* work on types per check, against blow-ups */
};

typedef struct Rel Rel;

/* An element of a root's list of relations waiting on it. */
typedef struct Link {
  Rel *rel;
  struct Link *next;
} Link;

/* A union-find node: one per incomplete type. */
typedef struct Node {
  int parent, rank;
  Type *ty;          /* the TY_INCOMPLETE type whose id is this node */
  Type *bound;       /* root only: the type it equals, never incomplete */
  Link *rels, *tail; /* root only: relations to re-run when bound */
  Type *res;         /* resolved type (memo) */
  uint32_t mark;     /* occurs-check epoch */
} Node;

typedef enum RelKind { RK_OP, RK_PROJ } RelKind;

/* A deferred constraint: an operator relation or a tuple projection. */
struct Rel {
  RelKind kind;
  Expr *e;        /* the call or projection, for messages */
  const char *fn; /* the enclosing global, for messages */
  int line, col;
  int nargs;
  Type **args; /* RK_PROJ: args[0] is the tuple's type */
  Type *out;   /* the expression's type, unified with the result */
  bool done, queued;
};

/* A visited expression and its (unresolved, then resolved) type. */
typedef struct Visit {
  Expr *e;
  Type *t;
  const char *fn;
  int line, col;
} Visit;

/* A bound variable. */
typedef struct VarRec {
  Var *v;
  const char *fn;
  int line, col;
} VarRec;

/* The state of one check (ty_check_module_with or ty_check_expr_with). */
typedef struct Cx {
  Module *m;
  Arena *A; /* the module's arena: types that outlive the check */
  Arena *S; /* scratch, freed after the check */
  Diag *d;
  TyRelateFn relate;
  bool failed;
  bool free_vars_ok; /* ty_check_expr: unbound vars use Var.type/annot */
  bool occurs, big;  /* why the last unification failed */
#ifdef RS_TEST_PASSES
  bool in_poly; /* the global being checked is polymorphic (-fault=checker_poly_escape) */
#endif
  const char *fn; /* the global being checked */
  int line, col;  /* innermost known source position */
  int depth;
  long steps;
  uint32_t epoch;

  Node *nodes;
  int nnodes, capnodes;
  Type **vty; /* by var id */
  int capvty;
  VarRec *vars;
  int nvars, capvars;
  Visit *visits; /* every expression entered, in order (see infer.c's enter) */
  int nvisits, capvisits;
  GlobalFn **sigk; /* open addressing: global -> index in sigv */
  int *sigi, capsig;
  Type **sigv;
  int nsigv, capsigv;
  struct {
    Type *k, *v;
  } * memo; /* direct-mapped cache: structural type -> resolved type */
  Rel **rels;
  int nrels, caprels;
  Rel **queue;
  int qhead, qn, qcap;
  Visit *matches; /* complete matches, for the exhaustiveness check */
  int nmatches, capmatches;
  int *leaves; /* unknown roots found by the last zonk (node indices) */
  int nleaves, capleaves;
  Type *bool_ty, *unit_ty;
} Cx;

/* Make room for one more element in an array held in the scratch arena. */
static inline void *ty_grow(Arena *S, void *old, int n, int *cap, size_t elem) {
  if (n < *cap)
    return old;
  int nc = *cap ? 2 * *cap : 16;
  void *p = arena_alloc(S, elem * (size_t)nc);
  if (n)
    memcpy(p, old, elem * (size_t)n);
  *cap = nc;
  return p;
}

#define PUSH(cx, arr, n, cap, val)                                                                 \
  do {                                                                                             \
    (arr) = ty_grow((cx)->S, (arr), (n), &(cap), sizeof *(arr));                                   \
    (arr)[(n)++] = (val);                                                                          \
  } while (0)

/* Count work on types; false once the per-check budget is spent. */
static inline bool ty_step(Cx *cx) {
  if (++cx->steps > STEP_LIMIT) {
    cx->big = true;
    return false;
  }
  return true;
}

/* ---------------------------------------------------------- union-find */

/* A new unknown type. */
Type *ty_fresh(Cx *cx);

/* Is t an incomplete type of this check (not a stray one)? */
static inline bool ty_ours(const Cx *cx, const Type *t) {
  return t->kind == TY_INCOMPLETE && t->incomplete.id >= 0 && t->incomplete.id < cx->nnodes &&
         cx->nodes[t->incomplete.id].ty == t;
}

/* The root of node i, with path halving. */
static inline int ty_find(Cx *cx, int i) {
  while (cx->nodes[i].parent != i) {
    cx->nodes[i].parent = cx->nodes[cx->nodes[i].parent].parent;
    i = cx->nodes[i].parent;
  }
  return i;
}

/* t with a bound incomplete type replaced by its binding (one level): an
 * unknown root's type, a non-incomplete type, or a stray incomplete. */
static inline Type *ty_shallow(Cx *cx, Type *t) {
  if (!ty_ours(cx, t))
    return t;
  Node *r = &cx->nodes[ty_find(cx, t->incomplete.id)];
  return r->bound ? r->bound : r->ty;
}

/* Is t (after ty_shallow) an unknown root of this check? */
static inline bool ty_unknown(Cx *cx, Type *t) {
  return ty_ours(cx, t);
}

/* Register relation rel on the unknown root r. */
void ty_wait_on(Cx *cx, Node *r, Rel *rel);

/* --------------------------------------------------------- unification */

/* ty_unify_rec for any types. */
bool ty_unify_any(Cx *cx, Type *a, Type *b, int depth);

/* Whether tensor types a and b unify: one dtype, one rank, and every pair
 * of dims equal or one of them Any.  As TVM's UnifyDim (an Any dim unified
 * with any dim gives Any), two tensor types are leaves of the union-find:
 * the unknown bound first keeps its binding, and run time checks an
 * annotation's static dims (docs/interpreter.md). */
static inline bool ty_same_tensor(const Type *a, const Type *b) {
  if (a->tensor.dtype != b->tensor.dtype || a->tensor.rank != b->tensor.rank)
    return false;
  for (int i = 0; i < a->tensor.rank && i < IR_MAX_RANK; i++)
    if (a->tensor.shape[i] != b->tensor.shape[i] && !ir_dim_is_any(a->tensor.shape[i]) &&
        !ir_dim_is_any(b->tensor.shape[i]))
      return false;
  return true;
}

/* Structural unification (Relay's Unify): see unify.c.  Tensor against
 * tensor, most of them, inline. */
static inline __attribute__((always_inline)) bool ty_unify_rec(Cx *cx, Type *a, Type *b,
                                                               int depth) {
  if (a && b && a->kind == TY_TENSOR && b->kind == TY_TENSOR && depth <= TYPE_DEPTH) {
    if (!ty_step(cx)) {
      cx->big = true;
      return false;
    }
    return ty_same_tensor(a, b);
  }
  return ty_unify_any(cx, a, b, depth);
}

/* Unify a and b; on failure cx->occurs / cx->big say why. */
static inline bool ty_unify(Cx *cx, Type *a, Type *b) {
  cx->occurs = cx->big = false;
  return ty_unify_rec(cx, a, b, 0);
}

/* ------------------------------------------------------ building types */

/* ty_inst for any type. */
Type *ty_inst_any(Cx *cx, Type *t, int n, Type *const *from, Type *const *to, bool freshen,
                  int depth);

/* t with the TY_VARs from[i] replaced by to[i] and, when freshen, every
 * incomplete type (a `_` written in an annotation) replaced by a fresh
 * one.  Returns t itself when nothing changes.  NULL if t is malformed.
 * Tensor types, most of them, inline. */
static inline __attribute__((always_inline)) Type *
ty_inst(Cx *cx, Type *t, int n, Type *const *from, Type *const *to, bool freshen, int depth) {
  if (t && t->kind == TY_TENSOR && depth <= TYPE_DEPTH) {
    if (!ty_step(cx) || t->tensor.rank < 0 || t->tensor.rank > IR_MAX_RANK ||
        (unsigned)t->tensor.dtype >= DT_COUNT)
      return NULL;
    return t;
  }
  return ty_inst_any(cx, t, n, from, to, freshen, depth);
}

/* t with every bound incomplete type replaced by its binding, allocated in
 * arena a.  When collect, the unknown roots met are added to cx->leaves. */
Type *ty_zonk(Cx *cx, Type *t, Arena *a, bool collect, int depth);

/* ty_resolve for any type; composite types are memoised by pointer. */
Type *ty_resolve_any(Cx *cx, Type *t, int depth);

/* The fully resolved form of t (in the module's arena), or NULL when some
 * part is still unknown.  Tensor types, most of them, inline. */
static inline __attribute__((always_inline)) Type *ty_resolve(Cx *cx, Type *t, int depth) {
  if (t && t->kind == TY_TENSOR && depth <= TYPE_DEPTH)
    return ty_step(cx) ? t : NULL;
  return ty_resolve_any(cx, t, depth);
}

#endif
