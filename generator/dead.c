/*
 * dead.c - the "dead" policy: the shapes dead_code removes and the ones it
 * must keep (compiler/passes/dead_code.c, "Shapes"):
 *
 *   dead let   let %x = v; body with %x never used in body; v anything
 *              the generator makes (pure or not: ref operations, calls of
 *              closures and globals, matches), a function literal (pure),
 *              ref(..) (impure: the let stays), or a new global used as a
 *              value, @g (pure: the let goes and @g becomes unreachable,
 *              with any global only it calls);
 *   dead chain let %a = v1; let %b = v2; body where v2 may use %a and body
 *              uses neither: %b is dead, and then %a;
 *   dead ref   let %r = ref(v0); let _ = ref_write(%r, v1); body with the
 *              body reading %r or not (the write is an effect either way).
 * The value of a dead let is generated before its body, so the body may
 * share the value's pure subexpressions (a graph binding), which is the
 * case where an annotated dead let must stay.
 */
#include "gen_int.h"

/* The forms of a dead let's value. */
enum { V_ANY, V_FN, V_REF, V_GLOBAL, V_KINDS };

/* A value for a dead let and its type. */
static Expr *dead_value(GenCtx *g, int budget, Type **vt) {
  uint32_t w[V_KINDS] = {
      [V_ANY] = 4,
      [V_FN] = gen_feature(g, GEN_F_CLOSURE) ? 1 : 0,
      [V_REF] = gen_feature(g, GEN_F_REF) ? 1 : 0,
      [V_GLOBAL] = gen_feature(g, GEN_F_CLOSURE) && gen_can_make_global(g, budget) ? 2 : 0,
  };
  int k = gen_weighted(&g->st, w, V_KINDS);
  if (k == V_ANY) {
    *vt = gen_type_at(g, 0, GEN_TY_ANY);
    return gen_sub(g, *vt, budget, false);
  }
  if (k == V_REF) {
    *vt = ir_ref_type(g->a, gen_type_at(g, 1, GEN_TY_ANY));
    return gen_literal(g, *vt, budget);
  }
  *vt = gen_closure_type(g, gen_type_at(g, 1, GEN_TY_DATA));
  if (k == V_FN)
    return gen_fn_literal(g, *vt, budget);
  GlobalFn *gf = gen_new_global(g, *vt, budget - 1, NULL, NULL);
  g->pure = true;
  return ir_global_ref(g->m, gf);
}

/* let %x = v; body, the body made without %x in scope. */
static Expr *dead_let(GenCtx *g, Type *t, int budget) {
  int b[2];
  gen_split(g, budget - 1, 2, b);
  Type *vt;
  Expr *value = dead_value(g, b[0], &vt);
  Var *x = gen_fresh_var(g, vt->kind == TY_FUNC ? "f" : "x", vt, true);
  Expr *body = gen_sub(g, t, b[1], false);
  g->pure = false;
  return ir_let(g->m, x, value, body);
}

/* let %a = v1; let %b = v2; body: v2 made with %a in scope, the body
 * without either. */
static Expr *dead_chain(GenCtx *g, Type *t, int budget) {
  int b[3];
  gen_split(g, budget - 1, 3, b);
  Type *at;
  Expr *v1 = dead_value(g, b[0], &at);
  Var *a = gen_fresh_var(g, at->kind == TY_FUNC ? "f" : "x", at, true);
  int mark = g->nscope;
  gen_scope_push(g, a, at);
  Type *bt = gen_type_at(g, 0, GEN_TY_ANY);
  Expr *v2 = gen_sub(g, bt, b[1], false);
  gen_scope_pop(g, mark);
  Var *bv = gen_fresh_var(g, bt->kind == TY_FUNC ? "f" : "x", bt, true);
  Expr *body = gen_sub(g, t, b[2], false);
  g->pure = false;
  return ir_let(g->m, a, v1, ir_let(g->m, bv, v2, body));
}

static bool ref_ok(GenCtx *g, const Type *t) {
  return gen_feature(g, GEN_F_REF);
}

/* let %r = ref(v0); let _ = ref_write(%r, v1); body. */
static Expr *dead_ref(GenCtx *g, Type *t, int budget) {
  int b[3];
  gen_split(g, budget - 2, 3, b);
  Type *inner = gen_type_at(g, 1, GEN_TY_ANY);
  Type *rt = ir_ref_type(g->a, inner);
  Expr *init = gen_sub(g, inner, b[0], false);
  Var *r = gen_fresh_var(g, "r", rt, true);
  int mark = g->nscope;
  gen_scope_push(g, r, rt);
  gen_var_used(g, r);
  Expr *v = gen_sub(g, inner, b[1], false);
  Expr *wr = ir_ref_write(g->m, ir_var_ref(g->m, r), v);
  if (gen_choose(g, 2) == 0)
    gen_scope_pop(g, mark); /* the body cannot read %r */
  Var *u = gen_fresh_var(g, "_", ir_unit_type(g->a), true);
  Expr *body = gen_sub(g, t, b[2], false);
  gen_scope_pop(g, mark);
  g->pure = false;
  return ir_let(g->m, r, ir_ref_new(g->m, init), ir_let(g->m, u, wr, body));
}

static bool let_ok(GenCtx *g, const Type *t) {
  return gen_feature(g, GEN_F_LET);
}

static const GenShape shapes[] = {
    {"dead let", 5, 3, let_ok, dead_let},
    {"dead chain", 2, 5, let_ok, dead_chain},
    {"dead ref", 1, 5, ref_ok, dead_ref},
    {"observed", 2, 6, gen_shape_observed_ok, gen_shape_observed},
};

static Expr *dead_hook(GenCtx *g, Type *t, int budget) {
  return gen_shapes(g, t, budget, shapes, sizeof shapes / sizeof *shapes, 24);
}

const GenPolicy gen_policy_dead = {
    .name = "dead",
    .doc = "dead_code's shapes: unused lets (pure and impure), dead chains, globals and refs",
    .form_weight =
        {
            [GF_VAR] = 6,
            [GF_LIT] = 3,
            [GF_SHARE] = 3,
            [GF_LET] = 5,
            [GF_IF] = 2,
            [GF_PROJ] = 2,
            [GF_OP] = 12,
            [GF_CALL] = 3,
            [GF_GLOBAL] = 3,
            [GF_REF_READ] = 1,
            [GF_REF_WRITE] = 2,
            [GF_MATCH] = 2,
            [GF_PARAM] = 4,
        },
    .features = GEN_F_ALL,
    .swarm_keep = GEN_F_LET,
    .budget = 20,
    .budget_min = 4,
    .budget_max = 40,
    .max_depth = 10,
    .max_globals = 5,
    .hook = dead_hook,
    GEN_PASS_POLICY_COMMON,
};
