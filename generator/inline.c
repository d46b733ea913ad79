/*
 * inline.c - the "inline" policy: the shapes inline rewrites and the ones
 * it must leave (compiler/passes/inline.c, "Shapes"):
 *
 *   global     a call of a global (a new one, an existing one, a recursive
 *              one over an ADT, one called through `let %f = @g`, a
 *              prelude function), then now and then one of the module's
 *              globals marked Inline=1 (a global called once is inlined
 *              anyway; called twice, only when marked; recursive, never);
 *   twice      two calls of the same global, combined;
 *   let fn     let %f = fn (..) {..}; then %f called once (inlined), twice
 *              (kept), used once but not as a callee (`let %h = %f;
 *              %h(..)`: kept), or a body that may use it any way;
 *   poly       a polymorphic global def @g[A](%a: A, %b: T) -> T,
 *              def @g[A](%a: A) -> A, or def @g[A](%a: List[A], %b: T)
 *              -> T (A reached only through the ADT's arguments), called
 *              once or twice (its type parameter is determined by the
 *              call's argument and result types, and annotations in the
 *              copy are instantiated), or bound to `let %f: fn(..) -> T =
 *              @g`, whose annotation instantiates it, and called through
 *              %f.
 * Arguments are ordinary expressions, effects included: an inlined call
 * must still evaluate each argument once, in order, before the body.
 */
#include "gen_int.h"

/* Mark one of the module's globals (or none: choice 0) Inline=1. */
static void mark_one(GenCtx *g) {
  uint32_t k = gen_choose(g, (uint32_t)g->nglobals + 1);
  if (k > 0)
    g->globals[k - 1].fn->is_inline = true;
}

static bool global_ok(GenCtx *g, const Type *t) {
  return gen_feature(g, GEN_F_GLOBAL);
}

/* A call of a global (GF_GLOBAL's choices), then a mark. */
static Expr *global(GenCtx *g, Type *t, int budget) {
  if (!gen_global_form_ok(g, t, budget))
    return NULL;
  Expr *e = gen_global_form(g, t, budget);
  mark_one(g);
  g->pure = false;
  return e;
}

/* A call of gf (of type ft) with new arguments. */
static Expr *call_of(GenCtx *g, GlobalFn *gf, const Type *ft, int budget, bool free) {
  int n = ft->func.nparams;
  Expr *args[8];
  int b[8];
  gen_split(g, budget, n, b);
  for (int i = 0; i < n && i < 8; i++)
    args[i] = gen_sub(g, ft->func.params[i], b[i], free);
  g->pure = false;
  return ir_call(g->m, ir_global_ref(g->m, gf), n, args);
}

static bool twice_ok(GenCtx *g, const Type *t) {
  OpId ok[GEN_NCOMBINERS];
  return t->kind == TY_TENSOR && gen_feature(g, GEN_F_GLOBAL) && gen_combiners(g, t, t, ok) > 0;
}

/* combine(@g(..), @g(..)) for a global returning t (made when needed). */
static Expr *twice(GenCtx *g, Type *t, int budget) {
  int b[2];
  gen_split(g, budget - 1, 2, b);
  if (!gen_global_form_ok(g, t, b[0]))
    return NULL;
  Expr *first = gen_global_form(g, t, b[0]);
  int idx[GEN_MAX_GLOBALS], n = 0;
  for (int i = 0; i < g->nglobals; i++)
    if (g->globals[i].type->func.ntvars == 0 && ir_type_equal(g->globals[i].type->func.ret, t))
      idx[n++] = i;
  if (n == 0) {
    g->pure = false;
    return first;
  }
  GenGlobal *gg = &g->globals[idx[gen_choose(g, (uint32_t)n)]];
  Expr *second = call_of(g, gg->fn, gg->type, b[1], false);
  mark_one(g);
  Expr *e = gen_combine(g, t, first, second);
  g->pure = false;
  return e ? e : second;
}

/* --------------------------------------------------------------- let fn */

typedef struct LetFn {
  Type *t, *ft;
  int budget;
} LetFn;

/* %f(args) for the function variable f of type ft. */
static Expr *call_var(GenCtx *g, Var *f, const Type *ft, int budget) {
  int n = ft->func.nparams;
  Expr *args[8];
  int b[8];
  gen_split(g, budget, n, b);
  for (int i = 0; i < n && i < 8; i++)
    args[i] = gen_sub(g, ft->func.params[i], b[i], false);
  gen_var_used(g, f);
  return ir_call(g->m, ir_var_ref(g->m, f), n, args);
}

/* `let %h = %f; %h(..)`: %f used once, not as a callee. */
static Expr *via_body(GenCtx *g, Var *h, void *arg) {
  LetFn *L = arg;
  return call_var(g, h, L->ft, L->budget);
}

/* The body of `let %f = fn ..`: %f called once, twice, through another
 * variable, or used as the body likes. */
static Expr *letfn_body(GenCtx *g, Var *f, void *arg) {
  LetFn *L = arg;
  OpId ok[GEN_NCOMBINERS];
  uint32_t w[4] = {3, L->t->kind == TY_TENSOR && gen_combiners(g, L->t, L->t, ok) ? 2 : 0, 1, 1};
  switch (gen_weighted(&g->st, w, 4)) {
  case 0: return call_var(g, f, L->ft, L->budget);
  case 1: {
    Expr *a = call_var(g, f, L->ft, L->budget / 2);
    Expr *b = call_var(g, f, L->ft, L->budget / 2);
    return gen_combine(g, L->t, a, b);
  }
  case 2: gen_var_used(g, f); return gen_let_with(g, L->ft, ir_var_ref(g->m, f), via_body, L);
  default: return gen_sub(g, L->t, L->budget, false);
  }
}

static bool letfn_ok(GenCtx *g, const Type *t) {
  return gen_feature(g, GEN_F_CLOSURE | GEN_F_LET);
}

Expr *gen_shape_letfn(GenCtx *g, Type *t, int budget) {
  Type *ft = gen_closure_type(g, t);
  int b[2];
  gen_split(g, budget - 1, 2, b);
  Expr *fn = gen_fn_literal(g, ft, b[0]);
  LetFn L = {t, ft, b[1]};
  Expr *e = gen_let_with(g, ft, fn, letfn_body, &L);
  g->pure = false;
  return e;
}

/* ----------------------------------------------------------------- poly */

/* The polymorphic globals poly makes. */
typedef enum PolyKind {
  POLY_PAIR,  /* def @g[A](%a: A, %b: t) -> t */
  POLY_IDENT, /* def @g[A](%a: A) -> A */
  POLY_LIST,  /* def @g[A](%a: List[A], %b: t) -> t */
} PolyKind;

typedef struct Poly {
  Type *t;
  int budget;
  bool ident; /* POLY_IDENT */
} Poly;

/* The body of a polymorphic global: %a (maybe through a let), or an
 * expression of t with %b in scope (%a has a type no form asks for). */
static Expr *poly_body(GenCtx *g, Var *const *params, void *arg) {
  Poly *P = arg;
  if (!P->ident)
    return gen_sub(g, P->t, P->budget, false);
  gen_var_used(g, params[0]);
  Expr *a = ir_var_ref(g->m, params[0]);
  if (!gen_feature(g, GEN_F_LET) || gen_choose(g, 2) == 0)
    return a;
  Var *y = gen_fresh_var(g, "y", params[0]->annot, true);
  return ir_let(g->m, y, a, ir_var_ref(g->m, y));
}

static bool poly_ok(GenCtx *g, const Type *t) {
  return t->kind == TY_TENSOR && gen_feature(g, GEN_F_GLOBAL);
}

typedef struct Via {
  const Type *ft;
  int budget;
} Via;

/* %f(args): the polymorphic global through a variable whose annotation
 * instantiates it. */
static Expr *poly_via(GenCtx *g, Var *f, void *arg) {
  Via *v = arg;
  int n = v->ft->func.nparams;
  Expr *args[2];
  int b[2];
  gen_split(g, v->budget, n, b);
  for (int i = 0; i < n; i++)
    args[i] = gen_sub(g, v->ft->func.params[i], b[i], true);
  gen_var_used(g, f);
  return ir_call(g->m, ir_var_ref(g->m, f), n, args);
}

Expr *gen_shape_poly(GenCtx *g, Type *t, int budget) {
  if (!gen_can_make_global(g, budget))
    return NULL;
  Type *A = ir_type_var(g->a, "A");
  TypeDef *list = gen_feature(g, GEN_F_ADT) ? ir_list_def(g->m) : NULL;
  PolyKind kind = (PolyKind)gen_choose(g, list ? 3 : 2);
  Poly P = {t, budget / 2, kind == POLY_IDENT};
  Type *params[2] = {kind == POLY_LIST ? ir_adt_type(g->a, list, 1, &A) : A, t};
  Type *ft = ir_func_type(g->a, 1, &A, P.ident ? 1 : 2, params, P.ident ? A : t);
  GlobalFn *gf = gen_new_global(g, ft, P.budget, poly_body, &P);
  if (gen_choose(g, 3) == 2)
    gf->is_inline = true;
  /* The argument for %a fixes A: a self-typing expression of some type
   * (of t when the result is A; a list of some type for List[A]). */
  Type *at = P.ident ? t : gen_type_at(g, 1, GEN_TY_DATA);
  if (kind == POLY_LIST)
    at = ir_adt_type(g->a, list, 1, &at);
  Type *call_type = ir_func_type(g->a, 0, NULL, P.ident ? 1 : 2, (Type *[]){at, t}, t);
  int b[2];
  gen_split(g, budget / 2, 2, b);
  OpId ok[GEN_NCOMBINERS];
  uint32_t w[3] = {2, gen_combiners(g, t, t, ok) ? 1 : 0,
                   gen_feature(g, GEN_F_LET | GEN_F_CLOSURE) ? 1 : 0};
  int how = gen_weighted(&g->st, w, 3);
  g->pure = false;
  if (how == 2) { /* let %f: fn(..) -> t = @g; %f(..) */
    Via v = {call_type, budget / 2};
    Expr *e = gen_let_with(g, call_type, ir_global_ref(g->m, gf), poly_via, &v);
    g->pure = false;
    return e;
  }
  Expr *first = call_of(g, gf, call_type, b[0], true);
  if (how == 0)
    return first;
  Expr *second = call_of(g, gf, call_type, b[1], true);
  Expr *e = gen_combine(g, t, first, second);
  g->pure = false;
  return e ? e : first;
}

static const GenShape shapes[] = {
    {"global", 5, 3, global_ok, global},
    {"twice", 2, 5, twice_ok, twice},
    {"let fn", 3, 5, letfn_ok, gen_shape_letfn},
    {"poly", 2, 5, poly_ok, gen_shape_poly},
    {"observed", 1, 6, gen_shape_observed_ok, gen_shape_observed},
};

static Expr *inline_hook(GenCtx *g, Type *t, int budget) {
  return gen_shapes(g, t, budget, shapes, sizeof shapes / sizeof *shapes, 24);
}

const GenPolicy gen_policy_inline = {
    .name = "inline",
    .doc = "inline's shapes: globals marked Inline=1, called once or twice, let-bound fns, "
           "polymorphic globals",
    .form_weight =
        {
            [GF_VAR] = 6,
            [GF_LIT] = 3,
            [GF_SHARE] = 3,
            [GF_LET] = 5,
            [GF_IF] = 2,
            [GF_PROJ] = 2,
            [GF_OP] = 10,
            [GF_CALL] = 4,
            [GF_GLOBAL] = 6,
            [GF_REF_READ] = 1,
            [GF_REF_WRITE] = 1,
            [GF_MATCH] = 2,
            [GF_PARAM] = 4,
        },
    .features = GEN_F_ALL,
    .swarm_keep = GEN_F_GLOBAL,
    .budget = 24,
    .budget_min = 6,
    .budget_max = 44,
    .max_depth = 10,
    .max_globals = 6,
    .hook = inline_hook,
    GEN_PASS_POLICY_COMMON,
};
