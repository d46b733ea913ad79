/*
 * scopes.c - the "scopes" policy: the shapes to_anf and to_gnf act on
 * (compiler/passes/to_anf.c and to_gnf.c, "Shapes"): where a value is
 * bound, used and shared relative to the scopes of a program.
 *
 *   shared     a pure node used along several paths from different
 *              scopes: both if branches, one branch and after the if, the
 *              then branches of two ifs (its binding point is the scope
 *              enclosing every use), a closure's body and outside it; or
 *              three times in one scope;
 *   nested let lets where no let chain is: an operator's operand, the
 *              value of another let (let %a = (let %b = v; w); body);
 *   let fn     a let-bound closure called once or twice (to_gnf keeps a
 *              function literal used twice, moves one used once);
 *   pure let   let %x = v with v pure (shareable or not) and %x used
 *              twice, once or not at all (then annotated or not), and
 *              with v impure (kept);
 *   poly       `let %f: fn(..) -> T = @g` of a polymorphic global, the
 *              annotation instantiating it (to_gnf's K3), and its calls
 *              (inline.c).
 */
#include "gen_int.h"

/* A branch: e itself, or e combined with another value of t. */
static Expr *with(GenCtx *g, Type *t, Expr *e, int budget) {
  if (gen_choose(g, 2) == 0)
    return e;
  Expr *c = gen_combine(g, t, e, gen_sub(g, t, budget, false));
  return c ? c : e;
}

/* if (c) { a } else { b } with a new condition. */
static Expr *branch(GenCtx *g, Expr *a, Expr *b) {
  Expr *c = gen_sub(g, ir_scalar_type(g->a, DT_BOOL), 1, false);
  return ir_if(g->m, c, a, b);
}

static bool shared_ok(GenCtx *g, const Type *t) {
  OpId ok[GEN_NCOMBINERS];
  return t->kind == TY_TENSOR && gen_feature(g, GEN_F_IF) && gen_combiners(g, t, t, ok) > 0;
}

/* One pure node e used from several scopes. */
static Expr *shared(GenCtx *g, Type *t, int budget) {
  int small = budget / 4 + 1;
  Expr *e = gen_sub(g, t, budget / 2, false);
  if (!g->pure || e->kind == EX_VAR || e->kind == EX_CONST)
    return e; /* not shareable, or an atom: fine as it is */
  uint32_t w[5] = {2, 2, 2, gen_feature(g, GEN_F_CLOSURE) ? 2 : 0, 1};
  Expr *r;
  switch (gen_weighted(&g->st, w, 5)) {
  case 0: /* both branches */ r = branch(g, with(g, t, e, small), with(g, t, e, small)); break;
  case 1: /* a branch, and after the if */
    r = gen_combine(g, t, branch(g, e, gen_sub(g, t, small, false)), e);
    break;
  case 2: /* the then branches of two ifs */
    r = gen_combine(g, t, branch(g, e, gen_sub(g, t, small, false)),
                    branch(g, with(g, t, e, small), gen_sub(g, t, small, false)));
    break;
  case 4: /* three uses in one scope */
    r = gen_combine(g, t, gen_combine(g, t, e, with(g, t, e, small)), e);
    break;
  default: { /* a closure's body, and outside it */
    Expr *fn = ir_func(g->m, 0, NULL, t, with(g, t, e, small));
    r = gen_combine(g, t, ir_call(g->m, fn, 0, NULL), e);
    break;
  }
  }
  g->pure = false;
  return r ? r : e;
}

typedef struct Inner {
  Type *t;
  int budget;
} Inner;

static Expr *inner_body(GenCtx *g, Var *v, void *arg) {
  Inner *in = arg;
  return gen_sub(g, in->t, in->budget, false);
}

/* let %x = (a value of some type); body of t. */
static Expr *let_of(GenCtx *g, Type *t, int budget) {
  int b[2];
  gen_split(g, budget - 1, 2, b);
  Type *vt = gen_type_at(g, 1, GEN_TY_ANY);
  Expr *v = gen_sub(g, vt, b[0], false);
  Inner in = {t, b[1]};
  return gen_let_with(g, vt, v, inner_body, &in);
}

static bool nested_ok(GenCtx *g, const Type *t) {
  return gen_feature(g, GEN_F_LET);
}

/* A let in an operand (an operator's argument 0), or a let whose value
 * is a let. */
static Expr *nested(GenCtx *g, Type *t, int budget) {
  if (t->kind == TY_TENSOR && gen_op_available(g, t) && gen_choose(g, 2) == 0) {
    OpId ops[OP_COUNT];
    int n = gen_op_candidates(g, t, ops);
    if (n == 0)
      return NULL;
    OpId op = ops[gen_choose(g, (uint32_t)n)];
    OpSig sig;
    if (!gen_op_solve(g, op, t, &sig) || sig.nargs == 0)
      return NULL;
    int b[OP_MAX_ARGS];
    gen_split(g, budget - 1, sig.nargs, b);
    Expr *args[OP_MAX_ARGS];
    for (int i = 0; i < sig.nargs; i++)
      args[i] =
          i == 0 && b[0] >= 3 ? let_of(g, sig.args[0], b[0]) : gen_sub(g, sig.args[i], b[i], false);
    g->pure = false;
    return gen_op_build(g, op, &sig, args);
  }
  int b[2];
  gen_split(g, budget - 1, 2, b);
  Type *vt = gen_type_at(g, 1, GEN_TY_ANY);
  Expr *v = b[0] >= 3 ? let_of(g, vt, b[0]) : gen_sub(g, vt, b[0], false);
  Inner in = {t, b[1]};
  Expr *e = gen_let_with(g, vt, v, inner_body, &in);
  g->pure = false;
  return e;
}

typedef struct Uses {
  Type *t;
  int budget;
  int twice; /* 0: as the body likes, 1: twice, 2: not at all */
} Uses;

/* The body of a pure let: %x used twice, or not at all. */
static Expr *uses_body(GenCtx *g, Var *x, void *arg) {
  Uses *u = arg;
  if (u->twice != 1)
    return gen_sub(g, u->t, u->budget, false);
  gen_var_used(g, x);
  Expr *c = gen_combine(g, u->t, ir_var_ref(g->m, x), ir_var_ref(g->m, x));
  return c ? c : ir_var_ref(g->m, x);
}

static bool pure_let_ok(GenCtx *g, const Type *t) {
  return t->kind == TY_TENSOR && gen_feature(g, GEN_F_LET);
}

/* let %x = v (of t); body using %x twice, as it likes, or not at all. */
static Expr *pure_let(GenCtx *g, Type *t, int budget) {
  int b[2];
  gen_split(g, budget - 1, 2, b);
  Expr *v = gen_sub(g, t, b[0], false);
  Uses u = {t, b[1], (int)gen_choose(g, 3)};
  if (u.twice == 2) {
    /* Annotated or not (a tensor value fixes its own type), so that
     * to_gnf also drops unannotated unused lets. */
    Var *x = gen_fresh_var(g, "x", t, gen_choose(g, 2) == 0);
    Expr *body = gen_sub(g, t, b[1], false);
    g->pure = false;
    return ir_let(g->m, x, v, body);
  }
  Expr *e = gen_let_with(g, t, v, uses_body, &u);
  g->pure = false;
  return e;
}

static bool letfn_ok(GenCtx *g, const Type *t) {
  return gen_feature(g, GEN_F_CLOSURE | GEN_F_LET);
}

static bool poly_ok(GenCtx *g, const Type *t) {
  return t->kind == TY_TENSOR && gen_feature(g, GEN_F_GLOBAL);
}

static const GenShape shapes[] = {
    {"shared", 4, 5, shared_ok, shared},
    {"nested let", 4, 4, nested_ok, nested},
    {"let fn", 2, 5, letfn_ok, gen_shape_letfn},
    {"pure let", 3, 3, pure_let_ok, pure_let},
    {"poly", 1, 5, poly_ok, gen_shape_poly},
    {"observed", 2, 6, gen_shape_observed_ok, gen_shape_observed},
};

static Expr *scopes_hook(GenCtx *g, Type *t, int budget) {
  return gen_shapes(g, t, budget, shapes, sizeof shapes / sizeof *shapes, 24);
}

const GenPolicy gen_policy_scopes = {
    .name = "scopes",
    .doc = "to_anf/to_gnf's shapes: values shared across scopes, nested lets, closures",
    .form_weight =
        {
            [GF_VAR] = 6,
            [GF_LIT] = 3,
            [GF_SHARE] = 5,
            [GF_LET] = 6,
            [GF_IF] = 3,
            [GF_PROJ] = 2,
            [GF_OP] = 10,
            [GF_CALL] = 3,
            [GF_GLOBAL] = 2,
            [GF_REF_READ] = 1,
            [GF_REF_WRITE] = 1,
            [GF_MATCH] = 3,
            [GF_PARAM] = 4,
        },
    .features = GEN_F_ALL,
    .swarm_keep = GEN_F_LET | GEN_F_SHARE,
    .budget = 22,
    .budget_min = 6,
    .budget_max = 44,
    .max_depth = 12,
    .max_globals = 3,
    .hook = scopes_hook,
    GEN_PASS_POLICY_COMMON,
};
