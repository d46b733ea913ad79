/*
 * fusion.c - the "fusion" policy: programs made of long chains of
 * elementwise, broadcast and injective operators feeding reductions and
 * the out-elementwise-fusable operators (nn.conv2d, nn.dense, pooling),
 * which is what an operator-fusion pass groups.
 *
 * It is built from the library's pieces, as docs/generators.md describes:
 * policy data (weights, allowed operators, features) plus a hook.  The
 * hook takes over a tensor-typed node when the budget allows, emits a
 * "sink" operator for the wanted type and grows each tensor argument of
 * the sink as a chain of fusable operators; everything else (leaves, side
 * arguments, the shapes and attributes of each call) comes from gen_expr
 * and the operator solvers.
 */
#include "gen_int.h"

/* Creation operators: a chain link must consume the rest of the chain. */
static bool creates(OpId op) {
  return op == OP_ZEROS || op == OP_ONES || op == OP_FULL || op == OP_ZEROS_LIKE ||
         op == OP_ONES_LIKE;
}

/* Operators of the given fusion patterns that can produce t here (no
 * creation operators). */
static int ops_of(GenCtx *g, const Type *t, uint32_t patterns, OpId *out, uint32_t *w) {
  OpId all[OP_COUNT];
  int n = gen_op_candidates(g, t, all), k = 0;
  for (int i = 0; i < n; i++) {
    OpPattern p = op_table[all[i]].pattern;
    if (patterns >> p & 1 && !creates(all[i])) {
      out[k] = all[i];
      w[k++] = gen_op_weight(g, all[i]);
    }
  }
  return k;
}

#define CHAIN_PATTERNS (1u << OPAT_ELEMWISE | 1u << OPAT_BROADCAST | 1u << OPAT_INJECTIVE)
#define SINK_PATTERNS (1u << OPAT_COMM_REDUCE | 1u << OPAT_OUT_ELEMWISE_FUSABLE)

/* How a chain continues: the fusion patterns its links may have, and a
 * variable its last link should consume when the types agree. */
typedef struct Chain {
  uint32_t patterns;
  Var *bottom;
  Type *bottom_type;
} Chain;

static const Chain plain = {CHAIN_PATTERNS, NULL, NULL};

static Expr *chain(GenCtx *g, Type *t, int budget, int len, const Chain *c);

typedef struct ChainArg {
  Type *t;
  int budget, len;
} ChainArg;

/* The rest of a chain, ending in the bound intermediate v: elementwise
 * links keep the type, so the last one gets to consume v. */
static Expr *chain_rest(GenCtx *g, Var *v, void *arg) {
  ChainArg *a = arg;
  Chain c = {1u << OPAT_ELEMWISE, v, a->t};
  return chain(g, a->t, a->budget, a->len, &c);
}

/* Generate op's call for t: argument 0 continues the chain (len - 1 more
 * links), the others are ordinary expressions with a small budget. */
static Expr *link(GenCtx *g, OpId op, Type *t, int budget, int len, const Chain *c) {
  OpSig sig;
  if (!gen_op_solve(g, op, t, &sig))
    return gen_expr_default(g, t, budget);
  Expr *args[OP_MAX_ARGS];
  int side = sig.nargs > 1 ? (budget / 4) / (sig.nargs - 1) : 0;
  for (int i = 0; i < sig.nargs; i++) {
    bool main_arg = i == 0 && sig.args[0]->kind == TY_TENSOR;
    args[i] = main_arg ? chain(g, sig.args[0], budget - 1 - side * (sig.nargs - 1), len - 1, c)
                       : gen_sub(g, sig.args[i], side > 1 ? side : 1, false);
  }
  g->pure = false; /* chains bind intermediates: do not offer for sharing */
  return gen_op_build(g, op, &sig, args);
}

/* A chain of len fusable operators producing t. */
static Expr *chain(GenCtx *g, Type *t, int budget, int len, const Chain *c) {
  OpId ops[OP_COUNT];
  uint32_t w[OP_COUNT];
  int n = len > 0 && budget > 1 ? ops_of(g, t, c->patterns, ops, w) : 0;
  if (n == 0) {
    if (c->bottom && ir_type_equal(t, c->bottom_type)) {
      gen_var_used(g, c->bottom);
      g->pure = true;
      return ir_var_ref(g->m, c->bottom);
    }
    return gen_sub(g, t, budget, false);
  }
  /* Now and then bind part of the chain to a variable, which the rest of
   * the chain then consumes (an intermediate with a consumer of its own
   * and maybe more, through leaves that pick the variable). */
  if (len >= 3 && !c->bottom && gen_feature(g, GEN_F_LET) && gen_choose(g, 4) == 3) {
    int half = budget / 2 > 1 ? budget / 2 : 1;
    Expr *value = chain(g, t, half, len / 2, c);
    ChainArg rest = {t, budget - half, len - len / 2};
    return gen_let_with(g, t, value, chain_rest, &rest);
  }
  OpId op = ops[gen_weighted(&g->st, w, n)];
  return link(g, op, t, budget, len, c);
}

/* Nodes of a wide tree: more than MAX_DEPTH (fuse_ops.c, 256), which no
 * budget-bound shape reaches. */
enum { WIDE_MIN = 260, WIDE_MORE = 64 };

/* A tree of n binary operators ops[0..nops) on t, their operands of type t
 * (leaves: variables and literals); each side gets 3/8 to 5/8 of the
 * nodes, so the depth stays logarithmic and no subtree holds 256. */
static Expr *wide(GenCtx *g, Type *t, int n, const OpId *ops, int nops) {
  if (n == 0)
    return gen_sub(g, t, 1, false);
  OpId op = ops[gen_choose(g, (uint32_t)nops)];
  int left = (n - 1) * (3 + (int)gen_choose(g, 3)) / 8;
  Expr *args[2] = {wide(g, t, left, ops, nops), wide(g, t, n - 1 - left, ops, nops)};
  return ir_call_op(g->m, op, 2, args, &(Attrs){0});
}

/* Now and then at the root: a wide tree of elementwise operators, whose
 * halves fuse into two groups that must not merge: together they exceed
 * fuse_ops' MAX_DEPTH nodes per primitive function (F2). */
static Expr *wide_tree(GenCtx *g, Type *t) {
  static const OpId binary[] = {OP_ADD, OP_SUBTRACT, OP_MULTIPLY, OP_MAXIMUM, OP_MINIMUM};
  OpId ops[5];
  int nops = 0;
  for (int i = 0; i < 5; i++)
    if (gen_op_ok(g, binary[i], t))
      ops[nops++] = binary[i];
  if (nops == 0)
    return NULL;
  g->pure = false;
  return wide(g, t, WIDE_MIN + (int)gen_choose(g, WIDE_MORE), ops, nops);
}

/* The hook: at the root of @main (one input in 32 a wide tree instead),
 * and now and then below it, make a sink operator for t whose tensor
 * arguments are chains. */
static Expr *fusion_hook(GenCtx *g, Type *t, int budget) {
  if (t->kind != TY_TENSOR || budget < 6)
    return NULL;
  if (gen_depth(g) > 1 && gen_choose(g, 4) != 3)
    return NULL;
  if (gen_depth(g) <= 1 && gen_choose(g, 32) == 31) {
    Expr *e = wide_tree(g, t);
    if (e)
      return e;
  }
  OpId ops[OP_COUNT];
  uint32_t w[OP_COUNT];
  int n = ops_of(g, t, SINK_PATTERNS, ops, w);
  if (n == 0)
    return NULL;
  OpId op = ops[gen_weighted(&g->st, w, n)];
  OpSig sig;
  if (!gen_op_solve(g, op, t, &sig))
    return NULL;
  int b[OP_MAX_ARGS];
  gen_split(g, budget - 1, sig.nargs, b);
  Expr *args[OP_MAX_ARGS];
  for (int i = 0; i < sig.nargs; i++) {
    int len = 2 + (int)gen_choose(g, 7);
    args[i] = sig.args[i]->kind == TY_TENSOR ? chain(g, sig.args[i], b[i], len, &plain)
                                             : gen_sub(g, sig.args[i], b[i], false);
  }
  g->pure = false;
  return gen_op_build(g, op, &sig, args);
}

const GenPolicy gen_policy_fusion = {
    .name = "fusion",
    .doc = "chains of elementwise/broadcast/injective ops feeding reductions, conv2d, dense",
    .form_weight =
        {
            [GF_VAR] = 4,
            [GF_LIT] = 2,
            [GF_SHARE] = 3,
            [GF_LET] = 3,
            [GF_PROJ] = 1,
            [GF_OP] = 16,
            [GF_PARAM] = 6,
        },
    .type_weight = {[GT_TENSOR] = 2, [GT_OPTYPE] = 1},
    .pattern_weight =
        {
            [OPAT_ELEMWISE] = 4,
            [OPAT_BROADCAST] = 4,
            [OPAT_INJECTIVE] = 2,
            [OPAT_COMM_REDUCE] = 2,
            [OPAT_OUT_ELEMWISE_FUSABLE] = 3,
            [OPAT_OPAQUE] = 1,
        },
    .features = GEN_F_LET | GEN_F_TUPLE | GEN_F_SHARE | GEN_F_OPS,
    .swarm = true,
    .swarm_keep = GEN_F_OPS,
    .budget = 32,
    .budget_min = 12,
    .budget_max = 64,
    .max_depth = 16,
    .max_type_depth = 1,
    .max_params = 3,
    .max_main_params = 6,
    .max_globals = 0,
    .max_adts = 0,
    .limits = {.max_rank = 4,
               .max_dim = 8,
               .max_numel = 256,
               .max_flops = 16384,
               .dtypes =
                   (1u << DT_FLOAT32) | (1u << DT_FLOAT64) | (1u << DT_INT32) | (1u << DT_BOOL)},
    .dtypes = (1u << DT_FLOAT32) | (1u << DT_FLOAT64) | (1u << DT_INT32),
    .hook = fusion_hook,
};
