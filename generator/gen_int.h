/*
 * gen_int.h - the generator's internal state, shared by its files:
 *   policy.c  policies and the header -> configuration mapping
 *   types.c   the type generator and ADT bookkeeping
 *   literal.c constants and literals
 *   opcall.c  operator calls and the recogniser cache
 *   expr.c    the expression generator (forms) and spans
 *   adt.c     constructors, match and pattern covers
 *   module.c  module generator: @main, globals, recursion, generated ADTs
 *   poly.c    generated polymorphic globals (and mutually recursive pairs)
 *   fusion.c  the fusion-heavy policy (an example of a hook)
 *   shape.c   what the pass-directed policies share; their shapes are in
 *             simplify.c, fold.c, dead.c, cse.c, inline.c, scopes.c, and
 *             mix.c picks one of the policies per input
 */
#ifndef RS_GEN_INT_H
#define RS_GEN_INT_H

#include "gen.h"

/* A variable in scope.  uses counts references generated so far (unused
 * ones are offered first); smaller marks a pattern variable holding a
 * structurally smaller value of the recursive global being generated. */
typedef struct Scoped {
  Var *var;
  Type *type;
  uint64_t h;   /* gen_type_hash(type) */
  uint64_t sub; /* tuples: bloom of the fields' hashes; functions: the
                   result type's hash (a pre-filter for lookups) */
  int uses;
  bool smaller;
} Scoped;

/* A pure expression available for reuse while scope_len variables are in
 * scope (it mentions no variable above that). */
typedef struct Shared {
  Expr *e;
  Type *type;
  uint64_t h;
  int scope_len;
  bool typed; /* self-typing: may be reused where g->free is set */
} Shared;

/* A global function the generator made.  callable once its body is done
 * (so calls among globals form a DAG). */
typedef struct GenGlobal {
  GlobalFn *fn;
  Type *type; /* its function type */
  bool callable;
} GenGlobal;

/* A generated polymorphic global fn[A](..) -> R, callable at any
 * instantiation of A once its body (and its partner's) is done. */
typedef struct GenPoly {
  GlobalFn *fn;
  Type *type; /* its polymorphic function type */
} GenPoly;

/* Per type definition: the constructor of least height (the base case
 * minimal literals use) and whether it can be recursed on. */
typedef struct AdtInfo {
  TypeDef *def;
  int height;     /* nesting of its minimal literal */
  int base;       /* index of the constructor of least height */
  int tbase;      /* least height among constructors whose fields include
                     every type variable (their calls infer their type) */
  bool recursive; /* some constructor has a field of the type itself */
  bool usable;    /* finite height, and tbase >= 0 when polymorphic */
  bool used;      /* drawn by the type generator (the only source of ADT
                     types in a program) */
} AdtInfo;

/* What the type generator may draw. */
typedef enum GenTyMode {
  GEN_TY_ANY,    /* every enabled kind */
  GEN_TY_DATA,   /* no function or Ref types (results of @main) */
  GEN_TY_TENSOR, /* tensors only */
} GenTyMode;

enum { GEN_MAX_GLOBALS = 16, GEN_MAX_ADTS = 8, GEN_TYPE_MEMO = 64 /* 2^6: see types.c */ };

/* gen_type_hash and gen_type_depth of a non-tensor type, remembered by
 * pointer for one decode (types are never changed once built). */
typedef struct TypeMemo {
  const Type *t;
  uint64_t h;
  int depth; /* -1 until asked */
} TypeMemo;

struct GenCtx {
  Module *m;
  Arena *a; /* m->arena */
  GenStream st;
  const GenPolicy *pol;
  GenConfig cfg;
  GenSpans *spans; /* NULL: not recording */
  int span_parent;

  Scoped *scope;
  int nscope, capscope;
  int nkind[TY_INCOMPLETE + 1]; /* entries of each type kind in scope */
  int scope_base;               /* variables below belong to an enclosing function */

  Scoped *mainp; /* @main's parameters, made on demand (GF_PARAM) */
  int nmainp, capmainp;

  Shared *shared;
  int nshared, capshared;
  int shared_base;

  GenGlobal globals[GEN_MAX_GLOBALS];
  int nglobals;
  int global_nest; /* globals being generated inside one another */

  /* The recursive global whose body is being generated, if any. */
  GlobalFn *self;
  Type *self_type;
  Var *self_param; /* its first parameter, the one recursed on */
  int nmade;       /* globals started (registered or in progress) */

  GenPoly polys[GEN_MAX_GLOBALS]; /* poly.c: the callable polymorphic globals */
  int npolys;
  Type *tvar;  /* the type variable in scope (a polymorphic body), or NULL */
  Type *tvar2; /* the second one (fn[A, B]), or NULL */

  AdtInfo adts[GEN_MAX_ADTS + 3];
  int nadts;
  bool adts_usable; /* some definition is enabled and usable */

  int depth;
  bool pure;             /* whether the expression just generated may be shared */
  bool free;             /* no expected type flows into the expression being generated
                            (a match scrutinee, a projected tuple, a callee): it must
                            be self-typing, i.e. infer its own type bottom-up */
  GenForm form;          /* the form chosen for the expression just generated */
  bool boost_op;         /* the next node should rather be an operator call */
  const Type *hash_type; /* the type whose gen_type_hash is in hash */
  uint64_t hash;
  TypeMemo tmemo[GEN_TYPE_MEMO]; /* direct-mapped by pointer */
  int rec_slot;                  /* opcall.c: 1 + the recogniser cache's slot
                                    for cfg.limits (0: not looked up) ... */
  uint32_t rec_epoch;            /* ... valid while the cache has this epoch */
  const Type *rec_type;          /* the type whose full recogniser mask ... */
  uint64_t rec_mask[GEN_OPW];    /* ... is this (one entry, by pointer) */
  Type *hint_type;               /* the type last drawn from an operator's sampler ... */
  OpId hint_op;                  /* ... and that operator, favoured when it is wanted */
  int names;                     /* counter for global and type names */
  char *why;                     /* the first broken contract (gen_fail); "" when none */
  size_t whylen;
};

/* A broken contract of the generator or of a solver it called: keep the
 * first one for gen_decode_checked.  The caller goes on with a fallback,
 * so that decoding stays total. */
void gen_fail(GenCtx *g, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Relax some annotations' dims to Any, drawn after the rest of the
 * program, keeping it well typed (dyn.c; the policy's any_rate). */
void gen_relax_any(GenCtx *g);

/* gen_stream_weighted, inlined (so the sum over a constant n unrolls). */
static inline int gen_weighted(GenStream *s, const uint32_t *weight, int n) {
  uint32_t sum = 0;
  for (int i = 0; i < n; i++)
    sum += weight[i];
  return gen_stream_pick(s, weight, n, sum);
}

/* expr.c */
/* Whether @main's parameters are in scope (not inside another global). */
bool gen_in_main(const GenCtx *g);
Expr *gen_sub(GenCtx *g, Type *t, int budget, bool free);
void gen_scope_push(GenCtx *g, Var *v, Type *t);
void gen_scope_pop(GenCtx *g, int to);
void gen_var_used(GenCtx *g, Var *v);
Expr *gen_var_expr(GenCtx *g, Scoped *s);
/* A new variable; hint is a string literal (it is not copied). */
Var *gen_fresh_var(GenCtx *g, const char *hint, Type *t, bool annotate);
enum { GEN_NCOMBINERS = 7 };
/* The binary operators that may combine a t with a vt into a t here
 * (allowed, and accepted by their relations with exactly that result),
 * into out; reads no choice.  (A let's body repaired to use its unused
 * variable, and the shapes, combine values with them.) */
int gen_combiners(GenCtx *g, const Type *t, const Type *vt, OpId *out);
/* A function type returning t, with up to two parameters. */
Type *gen_closure_type(GenCtx *g, Type *t);

/* types.c */
Type *gen_type_at(GenCtx *g, int depth, GenTyMode mode);
Type *gen_adt_type(GenCtx *g, int depth, bool recursive_only, GenTyMode mode);
AdtInfo *gen_adt_info(GenCtx *g, const TypeDef *def);
void gen_adt_analyse(GenCtx *g);
Type *gen_ctor_field(GenCtx *g, const Ctor *c, const Type *adt, int i);
int gen_type_depth(const Type *t);
bool gen_type_poly_adt(const Type *t);
/* A hash of the outer structure: equal types hash equal (a pre-filter
 * for ir_type_equal). */
uint64_t gen_type_hash(const Type *t);
/* gen_type_hash of a tensor type (inline: most types asked about are
 * tensors). */
static inline uint64_t gen_tensor_hash(const Type *t) {
  uint64_t h = (uint64_t)t->tensor.dtype << 4 | (uint64_t)t->tensor.rank;
  for (int i = 0; i < t->tensor.rank; i++)
    h = h * 0x100000001b3ull + (uint64_t)t->tensor.shape[i];
  return h * 0x9e3779b97f4a7c15ull;
}
/* gen_type_hash and gen_type_depth of a non-tensor type, memoised for
 * this decode. */
uint64_t gen_hash_memo(GenCtx *g, const Type *t);
int gen_tdepth_memo(GenCtx *g, const Type *t);
/* gen_type_hash and gen_type_depth of any type (tensors inline). */
static inline uint64_t gen_hash(GenCtx *g, const Type *t) {
  return t->kind == TY_TENSOR ? gen_tensor_hash(t) : gen_hash_memo(g, t);
}
static inline int gen_tdepth(GenCtx *g, const Type *t) {
  return t->kind == TY_TENSOR ? 0 : gen_tdepth_memo(g, t);
}
/* Whether c has, for every type variable of its definition, a field that
 * is exactly that variable (so a call of c infers its type arguments). */
bool gen_ctor_determines(const Ctor *c);
/* Whether any type definition is enabled and usable. */
bool gen_adts_usable(GenCtx *g);

/* literal.c */
Expr *gen_const(GenCtx *g, const Type *t);
Expr *gen_literal(GenCtx *g, Type *t, int budget);
Expr *gen_fn_literal(GenCtx *g, Type *ft, int budget);

/* opcall.c */
int gen_op_candidates(GenCtx *g, const Type *t, OpId *out);
/* Whether some allowed operator can produce t (cheaper than the list). */
bool gen_op_available(GenCtx *g, const Type *t);
/* The weight of op among the candidates: its fusion pattern's weight in
 * the policy, doubled unless its results carry little information (NaN
 * on much of its domain: log, sqrt, rsqrt, power; constant or nearly: the
 * fills, sign, argmin, argmax). */
uint32_t gen_op_weight(GenCtx *g, OpId op);
Expr *gen_op_call(GenCtx *g, Type *t, int budget);

/* adt.c */
Expr *gen_ctor_literal(GenCtx *g, Type *t, int budget);
Expr *gen_match(GenCtx *g, Type *t, int budget);
bool gen_match_ok(GenCtx *g);
/* match (scrut : s) { a complete cover } with clause bodies of type t;
 * force_rec: clauses binding a smaller value may start with a recursive
 * call of the global being generated. */
Expr *gen_match_on(GenCtx *g, Expr *scrut, Type *s, Type *t, int budget, bool force_rec);

/* module.c */
Expr *gen_global_form(GenCtx *g, Type *t, int budget);
/* Makes the body of a global, its parameters in scope (module.c). */
typedef Expr *(*GenBodyFn)(GenCtx *g, Var *const *params, void *arg);
/* Whether a new global may be made here (GEN_F_GLOBAL, max_globals). */
bool gen_can_make_global(GenCtx *g, int budget);
/* A new non-recursive global of function type ft (polymorphic when ft
 * has type parameters, then body_fn is required), callable from then on;
 * its body is body_fn's, or an expression of about budget nodes. */
GlobalFn *gen_new_global(GenCtx *g, Type *ft, int budget, GenBodyFn body_fn, void *arg);
/* gen_new_global defining gf, a global interned (and maybe referenced)
 * before (poly.c's mutually recursive pairs). */
GlobalFn *gen_define_global(GenCtx *g, GlobalFn *gf, Type *ft, GenBodyFn body_fn, void *arg);
/* A fresh name for a global ("f<n>"). */
const char *gen_global_name(GenCtx *g);
bool gen_global_form_ok(GenCtx *g, const Type *t, int budget);
/* @self(scope[smaller], ..): a recursive call on a smaller value. */
Expr *gen_self_call(GenCtx *g, int smaller, int budget);

/* prelude.c */
bool gen_prelude_ok(GenCtx *g);
Expr *gen_prelude_call(GenCtx *g, Type *t, int budget);

/* poly.c */
/* Whether a generated polymorphic global may be made or called for t. */
bool gen_poly_ok(GenCtx *g, const Type *t, int budget);
/* A call of type t of a generated polymorphic global: a new one (or a
 * mutually recursive pair), called at a second instantiation too, or one
 * made before, at a new instantiation. */
Expr *gen_poly_form(GenCtx *g, Type *t, int budget);
/* Whether t mentions a type variable in scope (g->tvar, g->tvar2). */
bool gen_poly_type(const GenCtx *g, const Type *t);
/* An expression of type t, which mentions the type variable in scope: a
 * value of it is only passed around, never given to an operator. */
Expr *gen_poly_expr(GenCtx *g, Type *t, int budget);

/* shape.c: the pass-directed policies' shapes (simplify.c, fold.c,
 * dead.c, cse.c, inline.c, scopes.c) */

enum { GEN_MAX_SHAPES = 16 };

/* A program shape a pass acts on.  make builds an expression of exactly
 * type t (setting g->pure) or returns NULL to leave the node to the
 * default forms; ok says, reading no choice, whether it applies to t
 * (NULL: always). */
typedef struct GenShape {
  const char *name;
  uint8_t weight;
  int min_budget;
  bool (*ok)(GenCtx *g, const Type *t);
  Expr *(*make)(GenCtx *g, Type *t, int budget);
} GenShape;

/* A policy's hook body: one of the shapes that apply to t here, or NULL
 * (choice 0, weight decline: the default forms).  Reads nothing when no
 * shape applies; declines where no type flows in (g->free). */
Expr *gen_shapes(GenCtx *g, Type *t, int budget, const GenShape *shapes, int n, uint32_t decline);
/* Whether operator op may be called in this input (features, deny-list,
 * the header's swarm bits). */
bool gen_op_allowed(GenCtx *g, OpId op);
/* Whether the broadcasting binary operator op (add ... logical_or) is
 * allowed here and op(x, y) has exactly type want by the broadcast
 * family's rules (docs/operators.md: one dtype the operator takes, shapes
 * aligned from the last dim, each pair equal or one of them 1; bool for
 * comparisons).  Computed by the generator's own arithmetic, not asked of
 * the relation under test (docs/generators.md). */
bool gen_binary_gives(GenCtx *g, OpId op, const Type *x, const Type *y, const Type *want);
/* A structurally equal copy of e made of new nodes (variables, globals
 * and constants stay the same), or NULL when e binds a variable or has an
 * effect (then it is not shareable and not a CSE candidate either). */
Expr *gen_clone(GenCtx *g, Expr *e);
/* A constant of tensor type t with every element v. */
Expr *gen_uniform_const(GenCtx *g, const Type *t, double v);
/* op(a, b) for a binary operator combining two values of tensor type t
 * into a t (chosen from the stream), or NULL when none is allowed. */
Expr *gen_combine(GenCtx *g, Type *t, Expr *a, Expr *b);
/* The shared (pure, binder-free) expressions of type t usable here, newest
 * first, at most max. */
int gen_shared_of(GenCtx *g, const Type *t, Shared **out, int max);

/* let %f = fn (..) {..}; a body calling %f once, twice, through another
 * variable, or as it likes (inline.c; the scopes policy uses it too). */
Expr *gen_shape_letfn(GenCtx *g, Type *t, int budget);
/* A polymorphic global made for the purpose, called once, twice, or
 * through a let whose annotation instantiates it (inline.c; scopes too). */
Expr *gen_shape_poly(GenCtx *g, Type *t, int budget);

/* let %r = ref(v); combine(E, ref_read(%r)), E writing %r where a wrong
 * pass may drop or move the write (an operand, a dead let's value, a
 * tuple field projected away, an argument), so that the result shows a
 * lost write (shape.c; for tensor types with refs, lets and a combiner). */
bool gen_shape_observed_ok(GenCtx *g, const Type *t);
Expr *gen_shape_observed(GenCtx *g, Type *t, int budget);

/* The default policy's data (policy.c): also the reject policy's
 * (breaker.c), which adds the break bytes to the same programs. */
#define GEN_DEFAULT_DATA                                                                           \
  .form_weight =                                                                                   \
      {                                                                                            \
          [GF_VAR] = 6,       [GF_LIT] = 3,   [GF_SHARE] = 3, [GF_LET] = 5,    [GF_IF] = 2,        \
          [GF_PROJ] = 2,      [GF_OP] = 12,   [GF_CALL] = 3,  [GF_GLOBAL] = 3, [GF_REF_READ] = 1,  \
          [GF_REF_WRITE] = 1, [GF_MATCH] = 2, [GF_PARAM] = 4,                                      \
  },                                                                                               \
  .type_weight = {[GT_TENSOR] = 12, [GT_TUPLE] = 2, [GT_FUNC] = 2,                                 \
                  [GT_REF] = 1,     [GT_ADT] = 2,   [GT_OPTYPE] = 6},                              \
  .pattern_weight = {1, 1, 1, 2, 3, 2}, .features = GEN_F_ALL, .swarm = true, .budget = 20,        \
  .budget_min = 4, .budget_max = 40, .max_depth = 10, .max_type_depth = 2, .max_params = 3,        \
  .max_main_params = 6, .max_globals = 4, .max_adts = 2,                                           \
  .limits = {.max_rank = 4,                                                                        \
             .max_dim = 8,                                                                         \
             .max_numel = 256,                                                                     \
             .max_flops = 16384,                                                                   \
             .dtypes = (1u << DT_COUNT) - 1},                                                      \
  .dtypes = (1u << DT_COUNT) - 1, .poly_weight = 3

/* The data every pass-directed policy has in common with the default
 * policy (types, operators, swarm, limits); each adds its name, doc,
 * form weights, features, budgets, globals and hook. */
#define GEN_PASS_POLICY_COMMON                                                                     \
  .type_weight = {[GT_TENSOR] = 12, [GT_TUPLE] = 2, [GT_FUNC] = 2,                                 \
                  [GT_REF] = 1,     [GT_ADT] = 2,   [GT_OPTYPE] = 6},                              \
  .pattern_weight = {1, 1, 1, 2, 3, 2}, .swarm = true, .max_type_depth = 2, .max_params = 3,       \
  .max_main_params = 6, .max_adts = 2,                                                             \
  .limits = {.max_rank = 4,                                                                        \
             .max_dim = 8,                                                                         \
             .max_numel = 256,                                                                     \
             .max_flops = 16384,                                                                   \
             .dtypes = (1u << DT_COUNT) - 1},                                                      \
  .dtypes = (1u << DT_COUNT) - 1

/* Whether the features f are all enabled for this input. */
static inline bool gen_feature(const GenCtx *g, uint32_t f) {
  return (g->cfg.features & f) == f;
}

#endif
