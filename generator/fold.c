/*
 * fold.c - the "fold" policy: the shapes fold_constant rewrites and the
 * ones it must leave alone (compiler/passes/fold_constant.c, "Shapes"):
 *
 *   constants  operator calls on constants, nested (an all-constant tree)
 *              and next to operands that are not constant (so only a
 *              subtree folds), concatenate and stack of tuple literals of
 *              constants, calls of zeros and ones (no argument: never
 *              folded) and calls whose result is a tuple;
 *   if         if on a constant condition, or on a comparison of
 *              constants (it folds to a constant first), with branches of
 *              any type (an ADT's branch may fix the other's type);
 *   let        let %x = c, with c a constant of the wanted type, of its
 *              dtype, of any tensor type, or a (nested) tuple literal of
 *              constants, then a body in which %x is in scope;
 *   projection (e0, .., en).i of a tuple literal whose other fields are
 *              pure, or include an impure one (ref(..)), which must stay;
 *   pinned     let %n = Nil; (e, Cons(h, %n)).i (either order), %n
 *              unannotated: only the dropped field fixes its type, so
 *              the pass must pin it (pass_pin_refs) before dropping.
 */
#include "gen_int.h"

/* A tuple literal of constants of tuple-of-tensors type t (fields that
 * are not tensors: ordinary expressions). */
static Expr *const_tuple(GenCtx *g, Type *t, int budget) {
  Expr **f = ARENA_ARRAY(g->a, Expr *, t->tuple.n + 1);
  bool pure = true;
  for (int i = 0; i < t->tuple.n; i++) {
    Type *ft = t->tuple.fields[i];
    f[i] = ft->kind == TY_TENSOR ? gen_const(g, ft) : gen_sub(g, ft, budget, false);
    pure &= g->pure;
  }
  g->pure = pure;
  return ir_tuple(g->m, t->tuple.n, f);
}

/* An operator call producing t whose operands are constants, all-constant
 * trees and, when mixed, now and then an ordinary expression. */
static Expr *const_tree(GenCtx *g, Type *t, int budget, bool mixed) {
  OpId ops[OP_COUNT];
  uint32_t w[OP_COUNT];
  int n = gen_op_candidates(g, t, ops);
  if (n == 0)
    return gen_const(g, t);
  for (int i = 0; i < n; i++)
    w[i] = g->pol->pattern_weight[op_table[ops[i]].pattern];
  OpId op = ops[gen_weighted(&g->st, w, n)];
  OpSig sig;
  if (!gen_op_solve(g, op, t, &sig))
    return gen_const(g, t);
  int b[OP_MAX_ARGS];
  gen_split(g, budget - 1, sig.nargs, b);
  Expr *args[OP_MAX_ARGS];
  bool pure = true;
  for (int i = 0; i < sig.nargs; i++) {
    Type *at = sig.args[i];
    uint32_t ow[3] = {3, b[i] >= 3 && gen_op_available(g, at) ? 2 : 0, mixed ? 1 : 0};
    int k = at->kind == TY_TUPLE ? 3 : gen_weighted(&g->st, ow, 3);
    if (at->kind == TY_TUPLE)
      args[i] = const_tuple(g, at, b[i]);
    else if (at->kind != TY_TENSOR || k == 2)
      args[i] = gen_sub(g, at, b[i], false);
    else if (k == 1)
      args[i] = const_tree(g, at, b[i], mixed);
    else
      args[i] = gen_const(g, at);
    pure &= g->pure;
  }
  g->pure = pure;
  return gen_op_build(g, op, &sig, args);
}

static bool constants_ok(GenCtx *g, const Type *t) {
  return (t->kind == TY_TENSOR || t->kind == TY_TUPLE) && gen_op_available(g, t);
}

/* An all-constant tree, or one mixed with other operands. */
static Expr *constants(GenCtx *g, Type *t, int budget) {
  return const_tree(g, t, budget, gen_choose(g, 2) == 1);
}

/* A constant condition: true, false, or a comparison of two constant
 * scalars (which folding turns into one). */
static Expr *const_cond(GenCtx *g) {
  Type *b = ir_scalar_type(g->a, DT_BOOL);
  uint32_t k = gen_choose(g, 3);
  if (k < 2)
    return gen_uniform_const(g, b, k == 0);
  static const OpId cmp[] = {OP_LESS, OP_EQUAL, OP_GREATER_EQUAL, OP_NOT_EQUAL};
  OpId op = cmp[gen_choose(g, 4)];
  Type *s = ir_scalar_type(g->a, gen_choose(g, 2) ? DT_INT32 : DT_FLOAT32);
  if (!gen_binary_gives(g, op, s, s, b))
    return gen_uniform_const(g, b, 1);
  Expr *args[2] = {gen_const(g, s), gen_const(g, s)};
  g->pure = true;
  return ir_call_op(g->m, op, 2, args, NULL);
}

static bool if_ok(GenCtx *g, const Type *t) {
  return gen_feature(g, GEN_F_IF);
}

/* if (constant) { e1 } else { e2 }. */
static Expr *const_if(GenCtx *g, Type *t, int budget) {
  int b[2];
  gen_split(g, budget - 2, 2, b);
  Expr *c = const_cond(g);
  Expr *e1 = gen_sub(g, t, b[0], false);
  bool pure = g->pure;
  Expr *e2 = gen_sub(g, t, b[1], false);
  g->pure = pure && g->pure;
  return ir_if(g->m, c, e1, e2);
}

/* A constant value of type vt: a constant, or a tuple literal of them. */
static Expr *const_value(GenCtx *g, Type *vt) {
  if (vt->kind == TY_TENSOR)
    return gen_const(g, vt);
  Expr **f = ARENA_ARRAY(g->a, Expr *, vt->tuple.n + 1);
  for (int i = 0; i < vt->tuple.n; i++)
    f[i] = const_value(g, vt->tuple.fields[i]);
  g->pure = true;
  return ir_tuple(g->m, vt->tuple.n, f);
}

/* A type for a constant value: t, its dtype, any tensor, or a tuple of
 * them (nested once). */
static Type *const_type(GenCtx *g, Type *t, int nest) {
  uint32_t w[4] = {t->kind == TY_TENSOR ? 3 : 0, t->kind == TY_TENSOR ? 2 : 0, 2,
                   nest < 2 && gen_feature(g, GEN_F_TUPLE) ? 2 : 0};
  switch (gen_weighted(&g->st, w, 4)) {
  case 0: return t;
  case 1: return ir_scalar_type(g->a, t->tensor.dtype);
  case 2: return gen_tensor_type(g);
  default: break;
  }
  int n = 1 + (int)gen_choose(g, 3);
  Type *f[3];
  for (int i = 0; i < n; i++)
    f[i] = const_type(g, t, nest + 1);
  return ir_tuple_type(g->a, n, f);
}

typedef struct Body {
  Type *t;
  int budget;
} Body;

static Expr *let_body(GenCtx *g, Var *v, void *arg) {
  Body *b = arg;
  return gen_sub(g, b->t, b->budget, false);
}

static bool let_ok(GenCtx *g, const Type *t) {
  return gen_feature(g, GEN_F_LET);
}

/* let %x = constant value; body. */
static Expr *const_let(GenCtx *g, Type *t, int budget) {
  Type *vt = const_type(g, t, 0);
  Expr *value = const_value(g, vt);
  Body b = {t, budget - 2};
  return gen_let_with(g, vt, value, let_body, &b);
}

static bool proj_ok(GenCtx *g, const Type *t) {
  return gen_feature(g, GEN_F_TUPLE);
}

/* (e0, .., en).i with field i of type t; the others pure, or one a
 * ref(..) (impure: the projection must keep it). */
static Expr *proj(GenCtx *g, Type *t, int budget) {
  int n = 2 + (int)gen_choose(g, 2);
  int at = (int)gen_choose(g, (uint32_t)n);
  int impure = gen_feature(g, GEN_F_REF) && gen_choose(g, 3) == 2 ? (at + 1) % n : -1;
  int b[3];
  gen_split(g, budget - 1, n, b);
  Expr *f[3];
  bool pure = true;
  for (int i = 0; i < n; i++) {
    if (i == at) {
      f[i] = gen_sub(g, t, b[i], false);
    } else { /* no type flows into the other fields: each types itself */
      Type *ft = gen_type_at(g, 1, GEN_TY_ANY);
      g->free = true;
      f[i] = i == impure ? gen_literal(g, ir_ref_type(g->a, ft), b[i]) : gen_sub(g, ft, b[i], true);
      g->free = false;
    }
    pure &= g->pure;
  }
  g->pure = pure;
  return ir_proj(g->m, ir_tuple(g->m, n, f), at);
}

static bool pinned_ok(GenCtx *g, const Type *t) {
  (void)t;
  return gen_feature(g, GEN_F_TUPLE) && gen_feature(g, GEN_F_LET) && gen_feature(g, GEN_F_ADT) &&
         ir_list_def(g->m);
}

/* let %n = Nil; (.., Cons(h, %n), ..).i with %n unannotated: the list's
 * element type is fixed only by the field the projection drops, so
 * fold_constant must pin %n's type (pass_pin_refs) before dropping it.
 * The Cons field is before or after the projected one. */
static Expr *pinned(GenCtx *g, Type *t, int budget) {
  TypeDef *d = ir_list_def(g->m);
  Ctor *nil = d->ctors[0]->nfields == 0 ? d->ctors[0] : d->ctors[1];
  Ctor *cons = nil == d->ctors[0] ? d->ctors[1] : d->ctors[0];
  Type *et = gen_type_at(g, 1, GEN_TY_ANY);
  Type *lt = ir_adt_type(g->a, d, 1, &et);
  Var *n = gen_fresh_var(g, "n", lt, false);
  int at = (int)gen_choose(g, 2);
  int b[2];
  gen_split(g, budget - 3, 2, b);
  Expr *f[2];
  for (int i = 0; i < 2; i++) { /* in evaluation order, for the shared nodes */
    if (i == at) {
      f[i] = gen_sub(g, t, b[0], false);
    } else {
      g->free = true;
      Expr *args[2] = {gen_sub(g, et, b[1], true), ir_var_ref(g->m, n)};
      g->free = false;
      f[i] = ir_call_ctor(g->m, cons, 2, args);
    }
  }
  g->pure = false; /* a let binds %n: never shared */
  return ir_let(g->m, n, ir_call_ctor(g->m, nil, 0, NULL), ir_proj(g->m, ir_tuple(g->m, 2, f), at));
}

static const GenShape shapes[] = {
    {"constants", 6, 2, constants_ok, constants},
    {"if", 2, 4, if_ok, const_if},
    {"let", 3, 3, let_ok, const_let},
    {"projection", 2, 3, proj_ok, proj},
    {"observed", 4, 6, gen_shape_observed_ok, gen_shape_observed},
    {"pinned", 1, 4, pinned_ok, pinned},
};

static Expr *fold_hook(GenCtx *g, Type *t, int budget) {
  return gen_shapes(g, t, budget, shapes, sizeof shapes / sizeof *shapes, 20);
}

const GenPolicy gen_policy_fold = {
    .name = "fold",
    .doc = "fold_constant's shapes: constant subtrees, constant ifs, lets of constants",
    .form_weight =
        {
            [GF_VAR] = 6,
            [GF_LIT] = 5,
            [GF_SHARE] = 3,
            [GF_LET] = 5,
            [GF_IF] = 2,
            [GF_PROJ] = 2,
            [GF_OP] = 12,
            [GF_CALL] = 2,
            [GF_GLOBAL] = 2,
            [GF_REF_READ] = 1,
            [GF_REF_WRITE] = 1,
            [GF_MATCH] = 1,
            [GF_PARAM] = 4,
        },
    .features = GEN_F_ALL,
    .swarm_keep = GEN_F_OPS,
    .budget = 20,
    .budget_min = 4,
    .budget_max = 40,
    .max_depth = 10,
    .max_globals = 3,
    .hook = fold_hook,
    GEN_PASS_POLICY_COMMON,
};
