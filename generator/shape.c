/*
 * shape.c - the pieces the pass-directed policies share: a hook that picks
 * one of a policy's program shapes for the node being generated (or
 * leaves the node to the default forms), and small builders that keep
 * every shape well typed by construction: the broadcast family's result
 * type (computed here, not asked of the relation under test), structural
 * copies of pure expressions, uniform constants and binary combinations.
 *
 * A shape is a function that makes an expression of the wanted type in
 * the current scope, drawing every freedom from the stream and building
 * its subexpressions with gen_sub, the solvers and the default forms, so
 * decoding stays total and the programs valid.  Each pass's policy lists
 * the shapes its pass rewrites (and the near misses it must leave alone),
 * derived from the "Shapes" paragraph of the pass's contract comment
 * (compiler/passes/<pass>.c); docs/generators.md describes them.
 */
#include <string.h>

#include "gen_int.h"

Expr *gen_shapes(GenCtx *g, Type *t, int budget, const GenShape *shapes, int n, uint32_t decline) {
  if (g->free || budget < 2)
    return NULL; /* shapes need an expected type, and room */
  uint32_t w[GEN_MAX_SHAPES + 1];
  int idx[GEN_MAX_SHAPES + 1];
  int k = 0;
  w[k] = decline;
  idx[k++] = -1;
  for (int i = 0; i < n && k <= GEN_MAX_SHAPES; i++)
    if (budget >= shapes[i].min_budget && (!shapes[i].ok || shapes[i].ok(g, t))) {
      w[k] = shapes[i].weight;
      idx[k++] = i;
    }
  if (k == 1)
    return NULL; /* nothing applies: no byte read */
  int c = gen_weighted(&g->st, w, k);
  return idx[c] < 0 ? NULL : shapes[idx[c]].make(g, t, budget);
}

bool gen_op_allowed(GenCtx *g, OpId op) {
  return gen_feature(g, GEN_F_OPS) && (g->cfg.op_allow[op / 64] >> (op % 64) & 1);
}

/* The operand dtypes a broadcasting binary operator takes
 * (docs/operators.md, broadcast): power floats, comparisons any,
 * logical_and/or bool, the other arithmetic ints and floats. */
static bool binary_takes(OpId op, DType dt) {
  switch (op) {
  case OP_POWER: return ir_dtype_is_float(dt);
  case OP_EQUAL:
  case OP_NOT_EQUAL:
  case OP_LESS:
  case OP_LESS_EQUAL:
  case OP_GREATER:
  case OP_GREATER_EQUAL: return true;
  case OP_LOGICAL_AND:
  case OP_LOGICAL_OR: return dt == DT_BOOL;
  default: return ir_dtype_is_int(dt) || ir_dtype_is_float(dt);
  }
}

bool gen_binary_gives(GenCtx *g, OpId op, const Type *x, const Type *y, const Type *want) {
  if (!gen_op_allowed(g, op) || x->kind != TY_TENSOR || y->kind != TY_TENSOR ||
      want->kind != TY_TENSOR)
    return false;
  DType dt = x->tensor.dtype;
  bool compare = op >= OP_EQUAL && op <= OP_GREATER_EQUAL;
  if (y->tensor.dtype != dt || !binary_takes(op, dt) ||
      want->tensor.dtype != (compare ? DT_BOOL : dt))
    return false;
  int rx = x->tensor.rank, ry = y->tensor.rank, r = rx > ry ? rx : ry;
  if (want->tensor.rank != r)
    return false;
  for (int i = 0; i < r; i++) { /* dims aligned from the last; a missing one is 1 */
    int64_t dx = i < r - rx ? 1 : x->tensor.shape[i - (r - rx)];
    int64_t dy = i < r - ry ? 1 : y->tensor.shape[i - (r - ry)];
    if ((dx != dy && dx != 1 && dy != 1) || (dx == 1 ? dy : dx) != want->tensor.shape[i])
      return false;
  }
  return true;
}

Expr *gen_clone(GenCtx *g, Expr *e) {
  Expr *c = ir_expr_clone_node(g->m, e);
  Expr **kids = NULL;
  int n = 0;
  switch (e->kind) {
  case EX_VAR:
  case EX_GLOBAL:
  case EX_CONST: return c;
  case EX_TUPLE: n = e->tuple.n; break;
  case EX_PROJ: n = 1; break;
  case EX_IF: n = 3; break;
  case EX_CALL:
    if (e->call.kind == CALL_EXPR)
      return NULL;
    n = e->call.nargs;
    break;
  default: return NULL; /* binds variables or has effects: not shareable */
  }
  if (n) {
    kids = ARENA_ARRAY(g->a, Expr *, n);
    for (int i = 0; i < n; i++) {
      Expr *k = e->kind == EX_TUPLE  ? e->tuple.fields[i]
                : e->kind == EX_PROJ ? e->proj.tuple
                : e->kind == EX_IF   ? (i == 0   ? e->if_.cond
                                        : i == 1 ? e->if_.then
                                                 : e->if_.els)
                                     : e->call.args[i];
      if (!(kids[i] = gen_clone(g, k)))
        return NULL;
    }
  }
  switch (e->kind) {
  case EX_TUPLE: c->tuple.fields = kids; break;
  case EX_PROJ: c->proj.tuple = kids[0]; break;
  case EX_IF:
    c->if_.cond = kids[0];
    c->if_.then = kids[1];
    c->if_.els = kids[2];
    break;
  default: c->call.args = kids; break;
  }
  return c;
}

Expr *gen_uniform_const(GenCtx *g, const Type *t, double v) {
  Tensor *x = ir_tensor_of_type(g->a, t);
  for (int64_t i = 0; i < x->numel; i++)
    ir_tensor_set_f64(x, i, v);
  g->pure = true;
  return ir_const(g->m, x);
}

Expr *gen_combine(GenCtx *g, Type *t, Expr *a, Expr *b) {
  OpId ok[GEN_NCOMBINERS];
  int n = gen_combiners(g, t, t, ok);
  if (n == 0)
    return NULL;
  Expr *args[2] = {a, b};
  return ir_call_op(g->m, ok[gen_choose(g, (uint32_t)n)], 2, args, NULL);
}

int gen_shared_of(GenCtx *g, const Type *t, Shared **out, int max) {
  int n = 0;
  uint64_t h = gen_hash(g, t);
  for (int i = g->nshared - 1; i >= g->shared_base && n < max; i--) {
    Shared *s = &g->shared[i];
    if (s->h == h && (s->typed || !g->free) && ir_type_equal(s->type, t))
      out[n++] = s;
  }
  return n;
}

/* ------------------------------------------------------ observed effects */

/* let _ = ref_write(%r, v); w, with w of type t (v of r's contents type). */
static Expr *written(GenCtx *g, Var *r, Type *inner, Type *t, int budget) {
  int b[2];
  gen_split(g, budget, 2, b);
  Expr *v = gen_sub(g, inner, b[0], false);
  Expr *wr = ir_ref_write(g->m, ir_var_ref(g->m, r), v);
  Expr *w = gen_sub(g, t, b[1], false);
  Var *u = gen_fresh_var(g, "_", ir_unit_type(g->a), true);
  g->pure = false;
  return ir_let(g->m, u, wr, w);
}

/* Where a write can hide: the first operand of an operator call, the
 * value of a dead let (that operand again), a tuple field projected
 * away, the argument of a closure called at once. */
enum { HIDE_OPERAND, HIDE_DEAD_LET, HIDE_PROJ, HIDE_ARG, HIDE_KINDS };

/* An expression of tensor type t that writes %r (contents inner) where a
 * wrong pass may drop or move the write. */
static Expr *hide(GenCtx *g, Var *r, Type *inner, Type *t, int budget) {
  uint32_t w[HIDE_KINDS] = {3, gen_feature(g, GEN_F_LET) ? 3 : 0,
                            gen_feature(g, GEN_F_TUPLE) ? 3 : 0,
                            gen_feature(g, GEN_F_CLOSURE) ? 1 : 0};
  int kind = gen_weighted(&g->st, w, HIDE_KINDS);
  int b[2];
  gen_split(g, budget, 2, b);
  if (kind == HIDE_PROJ || kind == HIDE_ARG) {
    Type *x = gen_tensor_type(g);
    Expr *wx = written(g, r, inner, x, b[0]);
    if (kind == HIDE_ARG) {
      Var *p = gen_fresh_var(g, "p", x, true);
      Expr *fn = ir_func(g->m, 1, &p, t, gen_sub(g, t, b[1], false));
      g->pure = false;
      return ir_call(g->m, fn, 1, &wx);
    }
    Expr *f[2] = {gen_sub(g, t, b[1], false), wx};
    bool first = gen_choose(g, 2);
    Expr *tuple = ir_tuple(g->m, 2, first ? (Expr *[]){f[1], f[0]} : f);
    g->pure = false;
    return ir_proj(g->m, tuple, first ? 1 : 0);
  }
  /* An operator call of type t with the write in its first operand; as
   * the value of a dead let, or the node itself. */
  OpId ops[OP_COUNT];
  int n = gen_op_candidates(g, t, ops), k = 0;
  for (int i = 0; i < n; i++) /* not the creation operators: they take no operand */
    if (ops[i] != OP_ZEROS && ops[i] != OP_ONES)
      ops[k++] = ops[i];
  OpId op = k ? ops[gen_choose(g, (uint32_t)k)] : OP_COUNT;
  OpSig sig;
  if (op == OP_COUNT || !gen_op_solve(g, op, t, &sig) || sig.nargs == 0 ||
      sig.args[0]->kind != TY_TENSOR)
    return written(g, r, inner, t, budget);
  Expr *args[OP_MAX_ARGS];
  for (int i = 0; i < sig.nargs; i++)
    args[i] = i == 0 ? written(g, r, inner, sig.args[0], b[0]) : gen_sub(g, sig.args[i], 1, false);
  Expr *call = gen_op_build(g, op, &sig, args);
  g->pure = false;
  if (kind == HIDE_OPERAND)
    return call;
  Var *d = gen_fresh_var(g, "x", t, true);
  return ir_let(g->m, d, call, gen_sub(g, t, b[1], false));
}

typedef struct Observed {
  Type *t;
  int budget;
} Observed;

/* combine(E, ref_read(%r)): E writes %r where a wrong pass may lose the
 * write, and the read brings what it wrote into the result. */
static Expr *observed_body(GenCtx *g, Var *r, void *arg) {
  Observed *o = arg;
  gen_var_used(g, r);
  Expr *e = hide(g, r, o->t, o->t, o->budget);
  Expr *c = gen_combine(g, o->t, e, ir_ref_read(g->m, ir_var_ref(g->m, r)));
  return c ? c : e;
}

bool gen_shape_observed_ok(GenCtx *g, const Type *t) {
  OpId ok[GEN_NCOMBINERS];
  return t->kind == TY_TENSOR && gen_feature(g, GEN_F_REF | GEN_F_LET) &&
         gen_combiners(g, t, t, ok) > 0;
}

Expr *gen_shape_observed(GenCtx *g, Type *t, int budget) {
  int b[2];
  gen_split(g, budget - 2, 2, b);
  Expr *init = gen_sub(g, t, b[0], false);
  Observed o = {t, b[1]};
  Expr *e = gen_let_with(g, ir_ref_type(g->a, t), ir_ref_new(g->m, init), observed_body, &o);
  g->pure = false;
  return e;
}
