/*
 * simplify.c - the "simplify" policy: the shapes simplify_expr rewrites,
 * and their near misses (compiler/passes/simplify_expr.c, "Shapes"):
 *
 *   identity   op(x, c) / op(c, x) for the broadcasting binary operators,
 *              c uniform (a constant, zeros/ones/full, zeros_like/
 *              ones_like of a pure or impure argument) with a value that
 *              is the identity (x + -0.0, x - 0, x * 1, x / 1, x && true,
 *              x || false), x * 0 for integers, or a near miss: x + 0.0
 *              and x - -0.0 on floats, c - x, 1 / x, a constant with one
 *              element off, an x that the constant broadcasts (a scalar x
 *              of the node's dtype: the node's type is not x's);
 *   twice      u(v(x)) for negative, logical_not, abs, relu, floor, ceil,
 *              round and copy: mostly u = v (the rules), else u != v;
 *   reshapes   chains of reshape, expand_dims and squeeze (solved link by
 *              link), and reshape / expand_dims by 0 to x's own type;
 *   transposes transpose(transpose(x, p), q) with q random, the inverse
 *              of p (they compose to the identity) or the identity;
 *   casts      cast(cast(x, t1), t2) with random dtypes, a round trip to
 *              x's own dtype, and a cast to x's own dtype;
 *   no-ops     broadcast_to, tile, reverse, concatenate((x,)), copy,
 *              zeros_like and ones_like of x at x's own type (reverse along
 *              an axis of any extent: only extent 1 is a no-op).
 *
 * Everything else (x, the other operands, the shapes the solvers draw)
 * comes from the library.  Each call whose operands or attributes a shape
 * chooses itself has its type by the operator's rule (docs/operators.md),
 * computed here and never asked of relayc's relation: the relation is
 * what the programs test (docs/generators.md, "The generator and relayc's
 * relations").
 */
#include <stdlib.h>

#include "gen_int.h"

/* Whether t is a tensor type and operators may be called. */
static bool tensor_ops(GenCtx *g, const Type *t) {
  return t->kind == TY_TENSOR && gen_feature(g, GEN_F_OPS);
}

/* ------------------------------------------------------------ identity */

/* Values worth putting next to x in op(x, c): the identities first, then
 * the near misses (dt: the node's dtype).  Returns how many. */
static int unit_values(OpId op, DType dt, double *v) {
  bool fl = ir_dtype_is_float(dt), in = ir_dtype_is_int(dt);
  int n = 0;
  switch (op) {
  case OP_ADD:
    v[n++] = fl ? -0.0 : 0;
    if (fl)
      v[n++] = 0.0;
    break;
  case OP_SUBTRACT:
    v[n++] = 0.0;
    if (fl)
      v[n++] = -0.0;
    break;
  case OP_MULTIPLY:
    v[n++] = 1;
    v[n++] = 0;
    v[n++] = -1;
    break;
  case OP_DIVIDE:
    v[n++] = 1;
    if (in)
      v[n++] = 0;
    break;
  case OP_LOGICAL_AND: v[n++] = 1, v[n++] = 0; break;
  case OP_LOGICAL_OR: v[n++] = 0, v[n++] = 1; break;
  default: v[n++] = 0, v[n++] = 1, v[n++] = 2; break;
  }
  return n;
}

/* The forms of the uniform operand. */
enum { U_SCALAR, U_FULLTYPE, U_OFF_BY_ONE, U_FILL, U_LIKE, U_FORMS };

/* A uniform value v of tensor type ct, in the given form (U_LIKE: of a
 * new expression of type ct). */
static Expr *uniform(GenCtx *g, Type *ct, double v, int form, int budget) {
  if (form == U_LIKE) {
    OpId op = v == 0 ? OP_ZEROS_LIKE : OP_ONES_LIKE;
    Expr *y = gen_sub(g, ct, budget, false);
    return ir_call_op(g->m, op, 1, &y, NULL);
  }
  if (form == U_FILL) {
    Attrs at = {0};
    ir_attr_set_ints(g->a, &at, "shape", ct->tensor.rank, ct->tensor.shape);
    ir_attr_set_str(g->a, &at, "dtype", ir_dtype_name(ct->tensor.dtype));
    if (v == 0 && !__builtin_signbit(v))
      return ir_call_op(g->m, OP_ZEROS, 0, NULL, &at);
    if (v == 1)
      return ir_call_op(g->m, OP_ONES, 0, NULL, &at);
    Expr *f = gen_uniform_const(g, ir_scalar_type(g->a, ct->tensor.dtype), v);
    return ir_call_op(g->m, OP_FULL, 1, &f, &at);
  }
  Expr *c = gen_uniform_const(g, ct, v);
  if (form == U_OFF_BY_ONE && c->constant->numel > 1) {
    int64_t i = gen_choose(g, (uint32_t)(c->constant->numel < 256 ? c->constant->numel : 256));
    ir_tensor_set_f64(c->constant, i, ct->tensor.dtype == DT_BOOL ? v == 0 : v + 1);
  }
  return c;
}

/* The operator a uniform operand of this form calls, if any. */
static OpId uniform_op(int form, double v) {
  if (form == U_LIKE)
    return v == 0 ? OP_ZEROS_LIKE : OP_ONES_LIKE;
  if (form != U_FILL)
    return OP_COUNT;
  return v == 0 && !__builtin_signbit(v) ? OP_ZEROS : v == 1 ? OP_ONES : OP_FULL;
}

/* op(x, c) or op(c, x) with c uniform. */
static Expr *identity(GenCtx *g, Type *t, int budget) {
  OpId ops[OP_LOGICAL_OR - OP_ADD + 1];
  uint32_t w[OP_LOGICAL_OR - OP_ADD + 1];
  int n = 0;
  for (int op = OP_ADD; op <= OP_LOGICAL_OR; op++) {
    if (gen_binary_gives(g, (OpId)op, t, t, t)) {
      ops[n] = (OpId)op;
      w[n++] = op <= OP_DIVIDE || op >= OP_LOGICAL_AND ? 4 : 1;
    }
  }
  if (n == 0)
    return NULL;
  OpId op = ops[gen_weighted(&g->st, w, n)];
  double vals[4];
  int nv = unit_values(op, t->tensor.dtype, vals);
  double v = vals[gen_choose(g, (uint32_t)nv)];
  int side = (int)gen_choose(g, 2);
  int form = (int)gen_choose(g, U_FORMS);
  if (form == U_LIKE && v != 0 && v != 1)
    form = U_FILL;
  /* Near miss: a scalar x, which the uniform operand (then of t) grows. */
  bool scalar_x = t->tensor.rank > 0 && gen_choose(g, 4) == 3;
  Type *xt = scalar_x ? ir_scalar_type(g->a, t->tensor.dtype) : t;
  Type *ct = form == U_SCALAR && !scalar_x ? ir_scalar_type(g->a, t->tensor.dtype) : t;
  OpId uop = uniform_op(form, v);
  if (uop != OP_COUNT && !gen_op_allowed(g, uop))
    form = U_FULLTYPE, ct = t;
  if (!gen_binary_gives(g, op, side ? ct : xt, side ? xt : ct, t))
    return NULL;
  int b[2];
  gen_split(g, budget - 1, 2, b);
  Expr *args[2];
  args[side] = gen_sub(g, xt, b[0], false);
  bool pure = g->pure;
  g->pure = true;
  args[1 - side] = uniform(g, ct, v, form, b[1]);
  g->pure = pure && g->pure;
  return ir_call_op(g->m, op, 2, args, NULL);
}

/* --------------------------------------------------------------- twice */

static const OpId unaries[] = {OP_NEGATIVE, OP_LOGICAL_NOT, OP_ABS,   OP_RELU,
                               OP_FLOOR,    OP_CEIL,        OP_ROUND, OP_COPY};
enum { NUNARIES = sizeof unaries / sizeof *unaries };

/* Whether the unary operator op (one of unaries) takes dtype dt
 * (docs/operators.md, unary: floor, ceil and round take floats,
 * logical_not bool, copy any, the others ints and floats); its result has
 * its argument's type. */
static bool unary_takes(OpId op, DType dt) {
  switch (op) {
  case OP_FLOOR:
  case OP_CEIL:
  case OP_ROUND: return ir_dtype_is_float(dt);
  case OP_LOGICAL_NOT: return dt == DT_BOOL;
  case OP_COPY: return true;
  default: return ir_dtype_is_int(dt) || ir_dtype_is_float(dt);
  }
}

/* u(v(x)): mostly u = v. */
static Expr *twice(GenCtx *g, Type *t, int budget) {
  OpId ok[NUNARIES];
  int n = 0;
  for (int i = 0; i < NUNARIES; i++)
    if (gen_op_allowed(g, unaries[i]) && unary_takes(unaries[i], t->tensor.dtype))
      ok[n++] = unaries[i];
  if (n == 0)
    return NULL;
  OpId inner = ok[gen_choose(g, (uint32_t)n)];
  uint32_t w[NUNARIES];
  for (int i = 0; i < n; i++)
    w[i] = ok[i] == inner ? 3 * (uint32_t)n : 1;
  OpId outer = ok[gen_weighted(&g->st, w, n)];
  Expr *x = gen_sub(g, t, budget - 2, false);
  Expr *e = ir_call_op(g->m, inner, 1, &x, NULL);
  return ir_call_op(g->m, outer, 1, &e, NULL);
}

/* ---------------------------------------------------- solved chains */

/* A chain of up to len operators among ops (each solved for the type
 * its consumer wants, argument 0 continuing the chain), ending in an
 * ordinary expression. */
static Expr *chain(GenCtx *g, Type *t, int budget, int len, const OpId *ops, int nops) {
  OpId ok[4];
  int n = 0;
  for (int i = 0; len > 0 && budget > 1 && i < nops; i++)
    if (gen_op_ok(g, ops[i], t))
      ok[n++] = ops[i];
  if (n == 0)
    return gen_sub(g, t, budget, false);
  OpId op = ok[gen_choose(g, (uint32_t)n)];
  OpSig sig;
  if (!gen_op_solve(g, op, t, &sig) || sig.nargs != 1 || sig.args[0]->kind != TY_TENSOR)
    return gen_sub(g, t, budget, false);
  Expr *x = chain(g, sig.args[0], budget - 1, len - 1, ops, nops);
  return gen_op_build(g, op, &sig, &x);
}

/* op(x) with x of type t itself and attributes at, under which op's rule
 * gives t again. */
static Expr *own_type(GenCtx *g, OpId op, Type *t, int budget, const Attrs *at) {
  Expr *x = gen_sub(g, t, budget - 1, false);
  return ir_call_op(g->m, op, 1, &x, at);
}

static const OpId reshapers[] = {OP_RESHAPE, OP_EXPAND_DIMS, OP_SQUEEZE};

static bool reshapes_ok(GenCtx *g, const Type *t) {
  return tensor_ops(g, t) && (gen_op_ok(g, OP_RESHAPE, t) || gen_op_ok(g, OP_EXPAND_DIMS, t) ||
                              gen_op_ok(g, OP_SQUEEZE, t));
}

/* A chain of reshape-likes, or one to x's own type: reshape to newshape
 * t's shape (a 0 in it copies x's dim of 0) or expand_dims by no axis. */
static Expr *reshapes(GenCtx *g, Type *t, int budget) {
  uint32_t k = gen_choose(g, 4);
  if (k < 3)
    return chain(g, t, budget, 2 + (int)k, reshapers, 3);
  Attrs at = {0};
  OpId op = gen_choose(g, 2) ? OP_EXPAND_DIMS : OP_RESHAPE;
  if (op == OP_RESHAPE)
    ir_attr_set_ints(g->a, &at, "newshape", t->tensor.rank, t->tensor.shape);
  else {
    ir_attr_set_int(g->a, &at, "axis", 0);
    ir_attr_set_int(g->a, &at, "num_newaxis", 0);
  }
  return gen_op_allowed(g, op) ? own_type(g, op, t, budget, &at) : NULL;
}

/* The permutation of a transpose of rank n (reversed when axes is None). */
static void perm_of(const Attrs *at, int n, int64_t *p) {
  const Attr *a = ir_attr_get(at, "axes");
  for (int i = 0; i < n; i++)
    p[i] = a && a->kind == AV_INTS && a->n == n ? (a->ints[i] + n) % n : n - 1 - i;
}

/* transpose's rule: the type of transpose(x) for x of type t and axes at
 * (result dim i is x's dim p[i]). */
static Type *transposed(GenCtx *g, const Type *t, const Attrs *at) {
  int n = t->tensor.rank;
  int64_t p[IR_MAX_RANK], shape[IR_MAX_RANK];
  perm_of(at, n, p);
  for (int i = 0; i < n; i++)
    shape[i] = t->tensor.shape[p[i]];
  return ir_tensor_type(g->a, t->tensor.dtype, n, shape);
}

static bool transposes_ok(GenCtx *g, const Type *t) {
  return tensor_ops(g, t) && gen_op_ok(g, OP_TRANSPOSE, t);
}

/* transpose(transpose(x, p), q): q from the solver, p from the solver,
 * p the inverse of q, or a single identity transpose. */
static Expr *transposes(GenCtx *g, Type *t, int budget) {
  uint32_t k = gen_choose(g, 3);
  int n = t->tensor.rank;
  if (k == 2) {
    int64_t id[IR_MAX_RANK];
    for (int i = 0; i < n; i++)
      id[i] = i;
    Attrs at = {0};
    ir_attr_set_ints(g->a, &at, "axes", n, id);
    return own_type(g, OP_TRANSPOSE, t, budget, &at); /* transposes_ok: allowed */
  }
  OpSig outer;
  if (!gen_op_solve(g, OP_TRANSPOSE, t, &outer))
    return NULL;
  Type *a = outer.args[0];
  Expr *inner;
  if (k == 0) {
    inner = chain(g, a, budget - 1, 1, (OpId[]){OP_TRANSPOSE}, 1);
  } else {
    int64_t q[IR_MAX_RANK], p[IR_MAX_RANK];
    perm_of(&outer.attrs, n, q);
    for (int i = 0; i < n; i++)
      p[q[i]] = i;
    Attrs at = {0};
    ir_attr_set_ints(g->a, &at, "axes", n, p);
    Type *pt = transposed(g, t, &at);
    if (!ir_type_equal(pt, a)) { /* p undoes q: transpose(x, p) is a */
      char *want = ir_print_type(a), *got = ir_print_type(pt);
      gen_fail(g, "the solver of transpose wants %s, which the inverse permutation gives as %s",
               want, got);
      free(want);
      free(got);
      return NULL;
    }
    inner = own_type(g, OP_TRANSPOSE, t, budget - 1, &at);
  }
  return gen_op_build(g, OP_TRANSPOSE, &outer, &inner);
}

static bool casts_ok(GenCtx *g, const Type *t) {
  return tensor_ops(g, t) && gen_op_ok(g, OP_CAST, t);
}

/* cast(cast(x, t1), t2), a round trip cast(cast(x, t1), dtype of x), or
 * cast(x, dtype of x). */
static Expr *casts(GenCtx *g, Type *t, int budget) {
  uint32_t k = gen_choose(g, 3);
  Attrs at = {0};
  ir_attr_set_str(g->a, &at, "dtype", ir_dtype_name(t->tensor.dtype));
  if (k == 2)
    return own_type(g, OP_CAST, t, budget, &at); /* casts_ok: allowed */
  OpSig outer;
  if (!gen_op_solve(g, OP_CAST, t, &outer))
    return NULL;
  Type *a = outer.args[0];
  Expr *inner;
  if (k == 0) {
    inner = chain(g, a, budget - 1, 1, (OpId[]){OP_CAST}, 1);
  } else {
    Attrs back = {0};
    ir_attr_set_str(g->a, &back, "dtype", ir_dtype_name(a->tensor.dtype));
    Type *ct = ir_tensor_type(g->a, a->tensor.dtype, t->tensor.rank, t->tensor.shape);
    if (!ir_type_equal(ct, a)) { /* cast's rule: x's shape, the target dtype */
      char *want = ir_print_type(a), *got = ir_print_type(ct);
      gen_fail(g, "the solver of cast wants %s, which a cast of x gives as %s", want, got);
      free(want);
      free(got);
      return NULL;
    }
    inner = own_type(g, OP_CAST, t, budget - 1, &back);
  }
  return gen_op_build(g, OP_CAST, &outer, &inner);
}

/* ------------------------------------------------------------- no-ops */

enum { N_BROADCAST_TO, N_TILE, N_REVERSE, N_CONCAT, N_COPY, N_ZEROS_LIKE, N_ONES_LIKE, N_KINDS };

/* An operator that may keep x's type, applied to x of type t, with
 * attributes under which its rule (docs/operators.md) gives t again:
 * broadcast_to t's shape, tile by ones, reverse or concatenate a single
 * tensor along one of t's axes; copy and the _like fills keep the type. */
static Expr *noop(GenCtx *g, Type *t, int budget) {
  int kind = (int)gen_choose(g, N_KINDS);
  int n = t->tensor.rank;
  int64_t ones[IR_MAX_RANK];
  for (int i = 0; i < n; i++)
    ones[i] = 1;
  Attrs at = {0};
  OpId op = OP_COPY;
  switch (kind) {
  case N_BROADCAST_TO:
    op = OP_BROADCAST_TO;
    ir_attr_set_ints(g->a, &at, "shape", n, t->tensor.shape);
    break;
  case N_TILE:
    op = OP_TILE;
    ir_attr_set_ints(g->a, &at, "reps", n, ones);
    break;
  case N_REVERSE:
  case N_CONCAT:
    if (n == 0)
      return NULL;
    op = kind == N_REVERSE ? OP_REVERSE : OP_CONCATENATE;
    ir_attr_set_int(g->a, &at, "axis", (int64_t)gen_choose(g, (uint32_t)n));
    break;
  case N_ZEROS_LIKE: op = OP_ZEROS_LIKE; break;
  case N_ONES_LIKE: op = OP_ONES_LIKE; break;
  default: break;
  }
  if (!gen_op_allowed(g, op))
    return NULL;
  if (op != OP_CONCATENATE)
    return own_type(g, op, t, budget, &at);
  Expr *x = gen_sub(g, t, budget - 2, false);
  Expr *tuple = ir_tuple(g->m, 1, &x);
  return ir_call_op(g->m, op, 1, &tuple, &at);
}

/* ---------------------------------------------------------- the policy */

static bool ops_ok(GenCtx *g, const Type *t) {
  return tensor_ops(g, t);
}

static const GenShape shapes[] = {
    {"identity", 6, 3, ops_ok, identity},
    {"twice", 3, 3, ops_ok, twice},
    {"reshapes", 2, 3, reshapes_ok, reshapes},
    {"transposes", 2, 3, transposes_ok, transposes},
    {"casts", 2, 3, casts_ok, casts},
    {"no-ops", 3, 3, ops_ok, noop},
    {"observed", 1, 6, gen_shape_observed_ok, gen_shape_observed},
};

static Expr *simplify_hook(GenCtx *g, Type *t, int budget) {
  return gen_shapes(g, t, budget, shapes, sizeof shapes / sizeof *shapes, 24);
}

const GenPolicy gen_policy_simplify = {
    .name = "simplify",
    .doc = "simplify_expr's shapes: identities, double unaries, reshape/transpose/cast chains",
    .form_weight =
        {
            [GF_VAR] = 6,
            [GF_LIT] = 3,
            [GF_SHARE] = 3,
            [GF_LET] = 4,
            [GF_IF] = 2,
            [GF_PROJ] = 2,
            [GF_OP] = 14,
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
    .hook = simplify_hook,
    GEN_PASS_POLICY_COMMON,
};
