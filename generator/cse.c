/*
 * cse.c - the "cse" policy: the shapes eliminate_common_subexpr merges and
 * the ones it must keep apart (compiler/passes/eliminate_common_subexpr.c,
 * "Shapes"):
 *
 *   twin       a structurally equal copy (new nodes) of a pure expression
 *              generated earlier and still in scope, or a near copy: one
 *              constant element changed;
 *   pair       an operator call e and a copy of it, or a near copy whose
 *              attributes the solver drew again for the same argument
 *              types, combined in op(e, e'), with the copy placed after e
 *              in the same scope, under `let %v = e` (it should become
 *              %v), inside an if branch, or inside a closure's body (a
 *              scope that must not see e);
 *   scoped     one node S = op(copy of e, w) used under `let %v = e` (where
 *              it becomes op(%v, w)) and outside it (an if's other branch,
 *              or after the let): the rewrite made under the let must not
 *              be reused outside, where %v is not in scope;
 *   impure     two equal calls of a unary operator on ref_read(%r), one
 *              before and one after a ref_write to %r: equal text, but
 *              not candidates (they read a ref), so never merged.
 */
#include <string.h>

#include "gen_int.h"

/* The first constant under e, or NULL (depth first). */
static Expr *first_const(Expr *e) {
  switch (e->kind) {
  case EX_CONST: return e;
  case EX_TUPLE:
    for (int i = 0; i < e->tuple.n; i++) {
      Expr *c = first_const(e->tuple.fields[i]);
      if (c)
        return c;
    }
    return NULL;
  case EX_PROJ: return first_const(e->proj.tuple);
  case EX_CALL:
    for (int i = 0; i < e->call.nargs; i++) {
      Expr *c = first_const(e->call.args[i]);
      if (c)
        return c;
    }
    return NULL;
  default: return NULL;
  }
}

/* A copy of e, or with near: one element of its first constant changed
 * (e itself when e cannot be copied). */
static Expr *copy_of(GenCtx *g, Expr *e, bool near) {
  Expr *c = gen_clone(g, e);
  if (!c)
    return e;
  Expr *k = near ? first_const(c) : NULL;
  if (k && k->constant->numel > 0) {
    Expr *n = ir_const(g->m, ir_tensor_of_type(g->a, ir_tensor_type_of(g->a, k->constant)));
    memcpy(n->constant->data, k->constant->data,
           (size_t)(k->constant->numel * ir_dtype_size(k->constant->dtype)));
    ((uint8_t *)n->constant->data)[0] ^= 1; /* the lowest byte of element 0 */
    *k = *n;
  }
  return c;
}

enum { MAXTWINS = 8 };

static bool twin_ok(GenCtx *g, const Type *t) {
  Shared *s[1];
  return gen_feature(g, GEN_F_SHARE) && gen_shared_of(g, t, s, 1) > 0;
}

/* A copy (or near copy) of a pure expression made earlier. */
static Expr *twin(GenCtx *g, Type *t, int budget) {
  Shared *s[MAXTWINS];
  int n = gen_shared_of(g, t, s, MAXTWINS);
  if (n == 0)
    return NULL;
  Expr *e = s[gen_choose(g, (uint32_t)n)]->e;
  Expr *c = copy_of(g, e, gen_choose(g, 4) == 3);
  g->pure = true;
  return c;
}

/* An operator call of type t with the solution sig; when again is set,
 * the same call drawn again with the arguments args (the attributes
 * drawn again; the first ones when the argument types differ). */
static Expr *op_at(GenCtx *g, OpId op, Type *t, int budget, OpSig *sig, Expr **args) {
  if (!gen_op_solve(g, op, t, sig))
    return NULL;
  int b[OP_MAX_ARGS];
  gen_split(g, budget, sig->nargs, b);
  bool pure = true;
  for (int i = 0; i < sig->nargs; i++) {
    args[i] = gen_sub(g, sig->args[i], b[i], false);
    pure &= g->pure;
  }
  g->pure = pure;
  return gen_op_build(g, op, sig, args);
}

/* op_at with *op chosen among the operators that can make a t; NULL
 * when none can. */
static Expr *any_op_at(GenCtx *g, Type *t, int budget, OpId *op, OpSig *sig, Expr **args) {
  OpId ops[OP_COUNT];
  int n = gen_op_candidates(g, t, ops);
  if (n == 0)
    return NULL;
  *op = ops[gen_choose(g, (uint32_t)n)];
  return op_at(g, *op, t, budget, sig, args);
}

/* A second call of op on copies of args: the attributes drawn again
 * when near and the solver keeps the argument types. */
static Expr *again(GenCtx *g, OpId op, Type *t, const OpSig *sig, Expr **args, bool near) {
  Expr *copies[OP_MAX_ARGS];
  for (int i = 0; i < sig->nargs; i++)
    if (!(copies[i] = gen_clone(g, args[i])))
      return NULL;
  const OpSig *use = sig;
  OpSig redo;
  if (near && gen_op_solve(g, op, t, &redo) && redo.nargs == sig->nargs) {
    bool same = true;
    for (int i = 0; i < sig->nargs; i++)
      same &= ir_type_equal(redo.args[i], sig->args[i]);
    if (same)
      use = &redo;
  }
  g->pure = true;
  return gen_op_build(g, op, use, copies);
}

static bool pair_ok(GenCtx *g, const Type *t) {
  OpId ok[GEN_NCOMBINERS];
  return t->kind == TY_TENSOR && gen_op_available(g, t) && gen_combiners(g, t, t, ok) > 0;
}

typedef struct Pair {
  Type *t;
  Expr *copy;
} Pair;

/* combine(%v, copy) under let %v = e. */
static Expr *pair_body(GenCtx *g, Var *v, void *arg) {
  Pair *p = arg;
  gen_var_used(g, v);
  return gen_combine(g, p->t, ir_var_ref(g->m, v), p->copy);
}

/* op(e, e'): e an operator call, e' its copy or near copy, placed in the
 * same scope, under a let of e, in an if branch or in a closure. */
static Expr *pair(GenCtx *g, Type *t, int budget) {
  OpId op;
  OpSig sig;
  Expr *args[OP_MAX_ARGS];
  Expr *e = any_op_at(g, t, budget / 2, &op, &sig, args);
  if (!e || !g->pure)
    return e; /* not a candidate: e alone is a fine t */
  Expr *c = again(g, op, t, &sig, args, gen_choose(g, 4) == 3);
  if (!c)
    return e;
  uint32_t w[4] = {3, gen_feature(g, GEN_F_LET) ? 2 : 0, gen_feature(g, GEN_F_IF) ? 1 : 0,
                   gen_feature(g, GEN_F_CLOSURE) ? 1 : 0};
  switch (gen_weighted(&g->st, w, 4)) {
  case 1: {
    Pair p = {t, c};
    return gen_let_with(g, t, e, pair_body, &p);
  }
  case 2: {
    Expr *cond = gen_sub(g, ir_scalar_type(g->a, DT_BOOL), 1, false);
    Expr *other = gen_sub(g, t, budget / 4 + 1, false);
    bool first = gen_choose(g, 2);
    c = ir_if(g->m, cond, first ? c : other, first ? other : c);
    break;
  }
  case 3: {
    Expr *fn = ir_func(g->m, 0, NULL, t, c);
    c = ir_call(g->m, fn, 0, NULL);
    break;
  }
  default: break;
  }
  Expr *r = gen_combine(g, t, e, c);
  g->pure = false;
  return r ? r : e;
}

/* One node S = combine(copy of e, w) used in two scopes, one of them
 * under `let %v = e` (where S's copy of e becomes %v) and one outside it:
 * S's rewrite in the first must not be reused in the other. */
static Expr *scoped(GenCtx *g, Type *t, int budget) {
  OpId op;
  OpSig sig;
  Expr *args[OP_MAX_ARGS];
  Expr *e = any_op_at(g, t, budget / 3, &op, &sig, args);
  if (!e || !g->pure)
    return e;
  Expr *c = again(g, op, t, &sig, args, false);
  Expr *w = gen_sub(g, t, budget / 4 + 1, false);
  if (!c || !g->pure)
    return e;
  Expr *shared = gen_combine(g, t, c, w);
  Pair p = {t, shared};
  Expr *under = gen_let_with(g, t, e, pair_body, &p);
  uint32_t k = gen_choose(g, 3);
  Expr *r;
  if (k == 2 || !gen_feature(g, GEN_F_IF)) {
    r = gen_combine(g, t, under, shared); /* the let's body, then after it */
  } else {
    Expr *cond = gen_sub(g, ir_scalar_type(g->a, DT_BOOL), 1, false);
    r = ir_if(g->m, cond, k ? under : shared, k ? shared : under);
  }
  g->pure = false;
  return r;
}

static bool impure_ok(GenCtx *g, const Type *t) {
  return t->kind == TY_TENSOR && gen_feature(g, GEN_F_REF | GEN_F_LET) && gen_op_available(g, t);
}

typedef struct Reads {
  Type *t;
  OpId op;
  const OpSig *sig;
  int budget;
} Reads;

/* op(ref_read(%r)) and (let _ = ref_write(%r, v); op(ref_read(%r))),
 * combined: the first read happens before the write. */
static Expr *reads_body(GenCtx *g, Var *r, void *arg) {
  Reads *R = arg;
  gen_var_used(g, r);
  Expr *rd = ir_ref_read(g->m, ir_var_ref(g->m, r));
  Expr *a = gen_op_build(g, R->op, R->sig, &rd);
  Expr *v = gen_sub(g, R->sig->args[0], R->budget, false);
  Expr *wr = ir_ref_write(g->m, ir_var_ref(g->m, r), v);
  Expr *rd2 = ir_ref_read(g->m, ir_var_ref(g->m, r));
  Expr *b = gen_op_build(g, R->op, R->sig, &rd2);
  Var *u = gen_fresh_var(g, "_", ir_unit_type(g->a), true);
  Expr *then = ir_let(g->m, u, wr, b);
  Expr *both = gen_combine(g, R->t, a, then);
  return both ? both : then;
}

/* let %r = ref(v0); op(ref_read(%r)) ... ref_write(%r, v1) ...
 * op(ref_read(%r)): equal calls that read different values. */
static Expr *impure(GenCtx *g, Type *t, int budget) {
  OpId ops[OP_COUNT];
  int n = gen_op_candidates(g, t, ops), k = 0;
  for (int i = 0; i < n; i++) /* one tensor argument */
    if (op_table[ops[i]].pattern <= OPAT_INJECTIVE)
      ops[k++] = ops[i];
  if (k == 0)
    return NULL;
  OpId op = ops[gen_choose(g, (uint32_t)k)];
  OpSig sig;
  if (!gen_op_solve(g, op, t, &sig) || sig.nargs != 1 || sig.args[0]->kind != TY_TENSOR)
    return NULL;
  Type *rt = ir_ref_type(g->a, sig.args[0]);
  Expr *init = gen_sub(g, sig.args[0], budget / 3 + 1, false);
  Reads R = {t, op, &sig, budget / 3 + 1};
  Expr *e = gen_let_with(g, rt, ir_ref_new(g->m, init), reads_body, &R);
  g->pure = false;
  return e;
}

static const GenShape shapes[] = {
    {"twin", 4, 2, twin_ok, twin},
    {"pair", 6, 4, pair_ok, pair},
    {"scoped", 2, 6, pair_ok, scoped},
    {"impure", 1, 5, impure_ok, impure},
    {"observed", 1, 6, gen_shape_observed_ok, gen_shape_observed},
};

static Expr *cse_hook(GenCtx *g, Type *t, int budget) {
  return gen_shapes(g, t, budget, shapes, sizeof shapes / sizeof *shapes, 12);
}

const GenPolicy gen_policy_cse = {
    .name = "cse",
    .doc =
        "eliminate_common_subexpr's shapes: equal and near-equal pure subexpressions, impure twins",
    .form_weight =
        {
            [GF_VAR] = 6,
            [GF_LIT] = 3,
            [GF_SHARE] = 2,
            [GF_LET] = 5,
            [GF_IF] = 2,
            [GF_PROJ] = 2,
            [GF_OP] = 14,
            [GF_CALL] = 2,
            [GF_GLOBAL] = 2,
            [GF_REF_READ] = 1,
            [GF_REF_WRITE] = 1,
            [GF_MATCH] = 2,
            [GF_PARAM] = 4,
        },
    .features = GEN_F_ALL,
    .swarm_keep = GEN_F_OPS | GEN_F_SHARE,
    .budget = 20,
    .budget_min = 4,
    .budget_max = 40,
    .max_depth = 10,
    .max_globals = 3,
    .hook = cse_hook,
    GEN_PASS_POLICY_COMMON,
};
