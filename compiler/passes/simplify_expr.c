/*
 * simplify_expr.c - algebraic and shape simplification, as Relay's
 * SimplifyExpr, restricted to rewrites that keep the exact type and the
 * exact (bitwise) interpreter result.
 *
 * Requires: a well-formed, type-checked module (rules read Expr.type; a
 * node without a type is left alone).
 * Rewrites, bottom-up, each to a fixpoint (x, y any expressions; "uniform
 * c" is a constant, zeros/ones/full with a constant fill value, or
 * zeros_like/ones_like of a pure argument, all of whose elements are
 * bitwise c; every rule that drops x's result only applies when the
 * node's type equals x's, so a broadcast that grows x is never removed):
 *   add(x, c) / add(c, x)  -> x   c = 0 (ints), c = -0.0 (floats: x + -0.0
 *                                is x for every x, x + 0.0 is not for -0.0)
 *   subtract(x, c)         -> x   c = 0 (ints), c = +0.0 (floats)
 *   multiply(x, c) / (c, x) -> x  c = 1
 *   divide(x, c)           -> x   c = 1
 *   logical_and(x, true), logical_or(x, false) (either side) -> x
 *   multiply(x, c) / (c, x) -> zeros(shape, dtype)  c = 0, ints only (for
 *                                floats x * 0 may be NaN or -0), x pure
 *   op(x, f) / op(f, x) -> op(x, scalar c)  op a broadcasting binary
 *                                operator, f zeros/ones/full/zeros_like/
 *                                ones_like with uniform value c
 *   zeros_like(x), ones_like(x) -> zeros/ones(shape, dtype)   x pure
 *   negative(negative(x)), logical_not(logical_not(x)) -> x
 *   abs, relu, floor, ceil, round applied twice -> once
 *   copy(x) -> x
 *   reshape/expand_dims/squeeze/broadcast_to/tile of x to x's own type -> x
 *   reshape-like(reshape-like(x)) -> reshape(x, final shape)  (all three
 *                                keep row-major element order; not to a
 *                                shape with an empty dimension, which
 *                                newshape cannot express: 0 copies a dim)
 *   transpose with the identity permutation -> x;
 *   transpose(transpose(x, p), q) -> transpose(x, p o q) (or x)
 *   reverse along an axis of extent <= 1 -> x
 *   (the reshape-like, broadcast_to, tile, reverse, *_like and x * 0
 *   rules only on results without an Any dim: two types equal with `?` in them need
 *   not be equal shapes, and newshape or shape cannot spell `?`)
 *   concatenate((x,)) -> x
 *   cast(x, dtype of x) -> x
 *   cast(cast(x, t1), t2) -> cast(x, t2) when x -> t1 is exact and keeps
 *                                the kind of conversion: int to wider int,
 *                                float32 to float64, or from bool
 * Contract (pass.h): PASS_EXACT.  Every rule keeps the result bit for bit:
 * x * 1, x / 1, x - (+0.0) and x + (-0.0) are x for every float x,
 * -0.0 and NaN included.  x + (+0.0) is not: -0.0 + 0.0 is +0.0 in IEEE
 * 754 arithmetic (round to nearest), which Relay's float add is, and the
 * two zeros are different values to a program (1 / x tells them apart),
 * so that rule would be wrong, not a precision matter; it is left out
 * rather than the contract relaxed.  x * 0 becomes 0 for integers only
 * (for floats it may be -0 or NaN).  Errors and effects: only pure
 * operands are dropped, nothing is reordered.
 * Shared nodes are rewritten once (memoised), so sharing is preserved;
 * only pure operator nodes and uniform arguments are ever dropped, and what
 * a dropped argument determined about types is pinned (pass_int.h).
 * Guarantees (post_simplify_expr): no node matches any rule above.
 *
 * Shapes (what a program must contain to exercise this pass; the
 * "simplify" policy, generator/simplify.c, makes them at any node of the
 * right type):
 *   - each binary rule with c a scalar, a constant of the node's type, a
 *     zeros/ones/full call or zeros_like/ones_like of a pure or impure
 *     argument, on either side, and its near misses: the other float zero
 *     (x + 0.0, x - -0.0), the wrong side (c - x, c / x), x * 0 on floats
 *     or with x impure, a constant with one element off (not uniform), an
 *     x the constant broadcasts (x's type is not the node's);
 *   - each unary rule on itself (negative(negative(x)), ...) and on a
 *     different operator (not merged), logical_not on bool only;
 *   - reshape-like chains of two to four links with every combination of
 *     reshape/expand_dims/squeeze, reshapes to x's own type (shapes with a
 *     zero dimension, which must not merge, are not generated: generated
 *     dimensions are at least 1);
 *   - transpose chains composing to a permutation and to the identity,
 *     identity and None axes; casts chained through exact and inexact
 *     dtypes (int to wider int, float32 to float64, from bool; and the
 *     others, which must not merge), and casts to x's own dtype;
 *   - broadcast_to, tile, reverse (axis of extent 1 and more),
 *     concatenate((x,)), copy, zeros_like and ones_like at x's own type
 *     (and, from the default forms, broadcasts to bigger types);
 *   - graph-shared matching nodes (rewritten once).
 */
#include <math.h>
#include <string.h>

#include "compiler/ops/op.h"
#include "pass.h"
#include "pass_int.h"

typedef struct {
  Module *m;      /* NULL when only checking: rules then allocate nothing */
  Arena *scratch; /* kernel temporaries */
  PurityMemo pm;
  PtrMap memo;
} Simp;

/* Returned by a rule in check mode (m == NULL): "would rewrite". */
static Expr matched;

/* e's type when it is a tensor type, else NULL. */
static const Type *tensor_type(const Expr *e) {
  return e->type && e->type->kind == TY_TENSOR ? e->type : NULL;
}

/* Do a and b have the same (known) type? */
static bool same_type(const Expr *a, const Expr *b) {
  return a->type && b->type && ir_type_equal(a->type, b->type);
}

/* Is e a call of operator op? */
static bool is_op(const Expr *e, OpId op) {
  return e->kind == EX_CALL && e->call.kind == CALL_OP && e->call.op == op;
}

/* ------------------------------------------------------- uniform values */

/* A scalar with the value of element i of t. */
static Tensor *element(Arena *a, const Tensor *t, int64_t i) {
  Tensor *s = ir_tensor_new(a, t->dtype, 0, NULL);
  size_t sz = (size_t)ir_dtype_size(t->dtype);
  memcpy(s->data, (const char *)t->data + (size_t)i * sz, sz);
  return s;
}

/* Evaluate a fill-like call at shape () with the registry's kernel. */
static Tensor *fill_scalar(Simp *s, const Expr *e, DType dt) {
  Tensor *args[1], *out[1];
  int nargs = 0;
  Attrs at = ir_attrs_copy(s->scratch, &e->call.attrs);
  switch (e->call.op) {
  case OP_ZEROS:
  case OP_ONES: ir_attr_set_ints(s->scratch, &at, "shape", 0, NULL); break;
  case OP_FULL:
    if (e->call.args[0]->kind != EX_CONST || e->call.args[0]->constant->rank != 0)
      return NULL;
    args[nargs++] = e->call.args[0]->constant;
    ir_attr_set_ints(s->scratch, &at, "shape", 0, NULL);
    break;
  case OP_ZEROS_LIKE:
  case OP_ONES_LIKE:
    if (!pass_is_pure(&s->pm, e->call.args[0]))
      return NULL;
    args[nargs++] = ir_tensor_new(s->scratch, dt, 0, NULL);
    break;
  default: return NULL;
  }
  char err[256];
  if (op_eval(e->call.op, args, nargs, &at, s->scratch, out, 1, err, sizeof err) != 1 ||
      out[0]->rank != 0 || out[0]->dtype != dt)
    return NULL;
  return out[0];
}

/* zeros, ones, full, zeros_like or ones_like. */
static bool is_fill(const Expr *e) {
  return is_op(e, OP_ZEROS) || is_op(e, OP_ONES) || is_op(e, OP_FULL) || is_op(e, OP_ZEROS_LIKE) ||
         is_op(e, OP_ONES_LIKE);
}

/* If e is pure and all its elements are bitwise one value, that value as a
 * scalar; else NULL. */
static Tensor *uniform(Simp *s, const Expr *e) {
  const Type *t = tensor_type(e);
  if (!t)
    return NULL;
  if (e->kind == EX_CONST) {
    const Tensor *c = e->constant;
    if (c->numel < 1)
      return NULL;
    size_t sz = (size_t)ir_dtype_size(c->dtype);
    for (int64_t i = 1; i < c->numel; i++)
      if (memcmp((const char *)c->data + (size_t)i * sz, c->data, sz) != 0)
        return NULL;
    return element(s->scratch, c, 0);
  }
  if (!is_fill(e) || ir_type_numel(t) < 1)
    return NULL;
  return fill_scalar(s, e, t->tensor.dtype);
}

/* Is the scalar c bitwise equal to v (ints, bool) or to the double v with
 * the given sign (floats)? */
static bool scalar_is(const Tensor *c, int64_t iv, double fv) {
  if (!c)
    return false;
  switch (c->dtype) {
  case DT_FLOAT32: {
    float x = (float)fv;
    return memcmp(c->data, &x, sizeof x) == 0;
  }
  case DT_FLOAT64: return memcmp(c->data, &fv, sizeof fv) == 0;
  case DT_FLOAT16:
  case DT_BFLOAT16: {
    uint16_t x = ir_half_from_f64(c->dtype, fv);
    return memcmp(c->data, &x, sizeof x) == 0;
  }
  default: return ir_tensor_get_i64(c, 0) == iv;
  }
}

/* A signed or unsigned integer dtype. */
static bool is_int(DType dt) {
  return ir_dtype_is_int(dt);
}

/* The identity element of a binary operator on dtype dt, as a test. */
static bool is_identity(OpId op, const Tensor *c, bool right) {
  if (!c)
    return false;
  DType dt = c->dtype;
  switch (op) {
  case OP_ADD:
    return (is_int(dt) && scalar_is(c, 0, 0)) || (ir_dtype_is_float(dt) && scalar_is(c, 0, -0.0));
  case OP_SUBTRACT:
    return right &&
           ((is_int(dt) && scalar_is(c, 0, 0)) || (ir_dtype_is_float(dt) && scalar_is(c, 0, 0.0)));
  case OP_MULTIPLY: return (is_int(dt) || ir_dtype_is_float(dt)) && scalar_is(c, 1, 1.0);
  case OP_DIVIDE: return right && (is_int(dt) || ir_dtype_is_float(dt)) && scalar_is(c, 1, 1.0);
  case OP_LOGICAL_AND: return dt == DT_BOOL && scalar_is(c, 1, 1);
  case OP_LOGICAL_OR: return dt == DT_BOOL && scalar_is(c, 0, 0);
  default: return false;
  }
}

/* The broadcasting binary operators, add .. logical_or in ops.def. */
static bool is_broadcast_binary(OpId op) {
  return op >= OP_ADD && op <= OP_LOGICAL_OR;
}

/* ---------------------------------------------------------------- builders */

/* A typed operator call. */
static Expr *mk_op(Simp *s, OpId op, int nargs, Expr *const *args, const Attrs *at,
                   const Type *type) {
  Expr *e = ir_call_op(s->m, op, nargs, args, at);
  e->type = (Type *)type;
  return e;
}

/* zeros or ones of tensor type t. */
static Expr *mk_fill(Simp *s, OpId op, const Type *t) {
  Attrs at = {0};
  ir_attr_set_ints(s->m->arena, &at, "shape", t->tensor.rank, t->tensor.shape);
  ir_attr_set_str(s->m->arena, &at, "dtype", ir_dtype_name(t->tensor.dtype));
  return mk_op(s, op, 0, NULL, &at, t);
}

/* reshape(x) to tensor type t (no empty dimension). */
static Expr *mk_reshape(Simp *s, Expr *x, const Type *t) {
  Attrs at = {0};
  ir_attr_set_ints(s->m->arena, &at, "newshape", t->tensor.rank, t->tensor.shape);
  return mk_op(s, OP_RESHAPE, 1, &x, &at, t);
}

/* ------------------------------------------------------------------ rules */

/* Binary identities, x * 0 for ints, and fills folded to scalars. */
static Expr *rule_binary(Simp *s, Expr *e) {
  OpId op = e->call.op;
  if (!is_broadcast_binary(op) || e->call.nargs != 2)
    return NULL;
  const Type *t = tensor_type(e);
  if (!t)
    return NULL;
  for (int side = 0; side < 2; side++) {
    Expr *x = e->call.args[side], *k = e->call.args[1 - side];
    if (!same_type(x, e))
      continue;
    Tensor *c = uniform(s, k);
    if (is_identity(op, c, side == 0))
      return s->m ? (pass_pin_refs(k), x) : &matched;
  }
  for (int side = 0;
       op == OP_MULTIPLY && is_int(t->tensor.dtype) && !ir_tensor_has_any(t) && side < 2;
       side++) { /* zeros cannot spell an Any dim */
    Expr *x = e->call.args[side], *k = e->call.args[1 - side];
    if (!pass_is_pure(&s->pm, x) || !scalar_is(uniform(s, k), 0, 0))
      continue;
    if (!s->m)
      return &matched;
    pass_pin_refs(e);
    return mk_fill(s, OP_ZEROS, t);
  }
  for (int side = 0; side < 2; side++) {
    Expr *x = e->call.args[side], *k = e->call.args[1 - side];
    if (!is_fill(k) || !same_type(x, e))
      continue;
    Tensor *c = uniform(s, k);
    if (!c)
      continue;
    if (!s->m)
      return &matched;
    pass_pin_refs(k);
    Expr *args[2];
    args[side] = x;
    args[1 - side] = pass_const(s->m, pass_tensor_copy(s->m, c));
    return mk_op(s, op, 2, args, &e->call.attrs, e->type);
  }
  return NULL;
}

/* The permutation of a transpose of rank n into p; false if malformed. */
static bool transpose_perm(const Expr *e, int n, int64_t *p) {
  const Attr *a = ir_attr_get(&e->call.attrs, "axes");
  if (!a || a->kind == AV_NONE) {
    for (int i = 0; i < n; i++)
      p[i] = n - 1 - i;
    return true;
  }
  if (a->kind != AV_INTS || a->n != n)
    return false;
  for (int i = 0; i < n; i++) {
    p[i] = a->ints[i] < 0 ? a->ints[i] + n : a->ints[i];
    if (p[i] < 0 || p[i] >= n)
      return false;
  }
  return true;
}

/* Is p the identity permutation? */
static bool is_identity_perm(int n, const int64_t *p) {
  for (int i = 0; i < n; i++)
    if (p[i] != i)
      return false;
  return true;
}

/* Identity transposes go; transpose of transpose composes. */
static Expr *rule_transpose(Simp *s, Expr *e) {
  const Type *t = tensor_type(e);
  Expr *x = e->call.args[0];
  int64_t p[IR_MAX_RANK], q[IR_MAX_RANK], r[IR_MAX_RANK];
  int n = t ? t->tensor.rank : -1;
  if (n < 0 || !transpose_perm(e, n, q))
    return NULL;
  if (is_identity_perm(n, q) && same_type(x, e))
    return s->m ? x : &matched;
  if (!is_op(x, OP_TRANSPOSE) || x->call.nargs != 1 || !tensor_type(x) || !transpose_perm(x, n, p))
    return NULL;
  if (!s->m)
    return &matched;
  for (int i = 0; i < n; i++)
    r[i] = p[q[i]];
  Expr *y = x->call.args[0];
  if (is_identity_perm(n, r) && same_type(y, e))
    return y;
  Attrs at = {0};
  ir_attr_set_ints(s->m->arena, &at, "axes", n, r);
  return mk_op(s, OP_TRANSPOSE, 1, &y, &at, t);
}

/* reshape, expand_dims or squeeze of one argument. */
static bool is_reshape_like(const Expr *e) {
  return (is_op(e, OP_RESHAPE) || is_op(e, OP_EXPAND_DIMS) || is_op(e, OP_SQUEEZE)) &&
         e->call.nargs == 1;
}

/* Reshapes to the same type go; chains of reshape-likes merge.  Not on
 * an Any dim: equal types need not be equal shapes, and newshape cannot
 * spell one. */
static Expr *rule_reshape(Simp *s, Expr *e) {
  Expr *x = e->call.args[0];
  const Type *t = tensor_type(e);
  if (!t || ir_tensor_has_any(t))
    return NULL;
  if (same_type(x, e))
    return s->m ? x : &matched;
  if (!is_reshape_like(x) || !tensor_type(x->call.args[0]))
    return NULL;
  Expr *y = x->call.args[0];
  if (same_type(y, e))
    return s->m ? y : &matched;
  /* reshape's newshape reads 0 as "copy this dimension", so a shape with
   * an empty dimension cannot be written as one. */
  for (int i = 0; i < t->tensor.rank; i++)
    if (t->tensor.shape[i] == 0)
      return NULL;
  return s->m ? mk_reshape(s, y, t) : &matched;
}

/* The range of integer dtype dt in [*lo, *hi] (as doubles: exact for
 * every bound compared here). */
static void int_range(DType dt, double *lo, double *hi) {
  *lo = ir_dtype_is_unsigned(dt) ? 0 : -ldexp(1, ir_dtype_size(dt) * 8 - 1);
  *hi = ldexp(1, ir_dtype_size(dt) * 8 - !ir_dtype_is_unsigned(dt)) - 1;
}

/* Exact conversions that keep how any further cast behaves: every value
 * of from is a value of to (an integer into a wider integer range;
 * float16, bfloat16 and float32 into a wider float). */
static bool cast_keeps(DType from, DType to) {
  if (from == to || from == DT_BOOL)
    return true;
  if (from == DT_FLOAT16 || from == DT_BFLOAT16)
    return to == DT_FLOAT32 || to == DT_FLOAT64;
  if (from == DT_FLOAT32)
    return to == DT_FLOAT64;
  if (!ir_dtype_is_int(from) || !ir_dtype_is_int(to))
    return false;
  double flo, fhi, tlo, thi;
  int_range(from, &flo, &fhi);
  int_range(to, &tlo, &thi);
  return tlo <= flo && fhi <= thi;
}

/* Same-dtype casts go; an exact inner cast merges into the outer one. */
static Expr *rule_cast(Simp *s, Expr *e) {
  Expr *x = e->call.args[0];
  const Type *t = tensor_type(e), *tx = tensor_type(x);
  if (!t || !tx)
    return NULL;
  if (same_type(x, e))
    return s->m ? x : &matched;
  if (!is_op(x, OP_CAST) || x->call.nargs != 1)
    return NULL;
  const Type *ty = tensor_type(x->call.args[0]);
  if (!ty || !cast_keeps(ty->tensor.dtype, tx->tensor.dtype))
    return NULL;
  if (!s->m)
    return &matched;
  Expr *y = x->call.args[0];
  if (same_type(y, e))
    return y;
  return mk_op(s, OP_CAST, 1, &y, &e->call.attrs, t);
}

/* copy, double negation, idempotent operators applied twice. */
static Expr *rule_unary(Simp *s, Expr *e) {
  OpId op = e->call.op;
  Expr *x = e->call.nargs == 1 ? e->call.args[0] : NULL;
  if (!x || !same_type(x, e))
    return NULL;
  switch (op) {
  case OP_COPY: return s->m ? x : &matched;
  case OP_NEGATIVE:
  case OP_LOGICAL_NOT:
    if (!is_op(x, op) || x->call.nargs != 1 || !same_type(x->call.args[0], e))
      return NULL;
    if (op == OP_LOGICAL_NOT && (!tensor_type(e) || tensor_type(e)->tensor.dtype != DT_BOOL))
      return NULL;
    return s->m ? x->call.args[0] : &matched;
  case OP_ABS:
  case OP_RELU:
  case OP_FLOOR:
  case OP_CEIL:
  case OP_ROUND: return is_op(x, op) && x->call.nargs == 1 ? (s->m ? x : &matched) : NULL;
  default: return NULL;
  }
}

/* broadcast_to, tile, reverse, concatenate and *_like simplifications.
 * None on a result with an Any dim: a tile or reverse of the same type
 * still changes the value, and zeros/ones need a static shape. */
static Expr *rule_shape(Simp *s, Expr *e) {
  OpId op = e->call.op;
  Expr *x = e->call.nargs >= 1 ? e->call.args[0] : NULL;
  const Type *t = tensor_type(e);
  if (!x || !t || (ir_tensor_has_any(t) && op != OP_CONCATENATE))
    return NULL;
  switch (op) {
  case OP_BROADCAST_TO:
  case OP_TILE: return same_type(x, e) ? (s->m ? x : &matched) : NULL;
  case OP_REVERSE: {
    int64_t ax = ir_attr_int(&e->call.attrs, "axis", 0);
    int n = t->tensor.rank;
    ax = ax < 0 ? ax + n : ax;
    if (!same_type(x, e) || ax < 0 || ax >= n || t->tensor.shape[ax] > 1)
      return NULL;
    return s->m ? x : &matched;
  }
  case OP_CONCATENATE:
    if (x->kind != EX_TUPLE || x->tuple.n != 1 || !same_type(x->tuple.fields[0], e))
      return NULL;
    return s->m ? x->tuple.fields[0] : &matched;
  case OP_ZEROS_LIKE:
  case OP_ONES_LIKE:
    if (!pass_is_pure(&s->pm, x))
      return NULL;
    if (!s->m)
      return &matched;
    pass_pin_refs(x);
    return mk_fill(s, op == OP_ZEROS_LIKE ? OP_ZEROS : OP_ONES, t);
  default: return NULL;
  }
}

/* The rewrite of operator call e (children already simplified), or NULL. */
static Expr *rule(Simp *s, Expr *e) {
  if (e->kind != EX_CALL || e->call.kind != CALL_OP || !e->type)
    return NULL;
  switch (e->call.op) {
  case OP_TRANSPOSE: return e->call.nargs == 1 ? rule_transpose(s, e) : NULL;
  case OP_RESHAPE:
  case OP_EXPAND_DIMS:
  case OP_SQUEEZE: return e->call.nargs == 1 ? rule_reshape(s, e) : NULL;
  case OP_CAST: return e->call.nargs == 1 ? rule_cast(s, e) : NULL;
  default: break;
  }
  Expr *r = rule_binary(s, e);
  if (!r)
    r = rule_unary(s, e);
  if (!r)
    r = rule_shape(s, e);
  return r;
}

/* ---------------------------------------------------------------- the pass */

static Expr *simp(Simp *s, Expr *e);

typedef struct {
  Simp *s;
  bool changed;
} Kids;

/* Simplify one child slot, noting whether it changed. */
static void kid_slot(Expr **slot, void *ctx) {
  Kids *k = ctx;
  Expr *n = simp(k->s, *slot);
  if (n != *slot) {
    *slot = n;
    k->changed = true;
  }
}

/* e with simplified children, then rewritten until no rule applies. */
static Expr *simp_node(Simp *s, Expr *e) {
  Expr *c = pass_clone(s->m, e);
  Kids k = {s, false};
  ir_expr_children(c, kid_slot, &k);
  Expr *r = k.changed ? c : e;
  /* Each rewrite removes an operator node or replaces a fill by a
   * constant, so this terminates; the bound is a guard. */
  for (int i = 0; i < 1000; i++) {
    Expr *n = rule(s, r);
    if (!n)
      break;
    r = n;
  }
  return r;
}

/* simp_node, memoised per node. */
static Expr *simp(Simp *s, Expr *e) {
  int64_t *v = ptrmap_get(&s->memo, e);
  if (v)
    return (Expr *)(intptr_t)*v;
  Expr *r = simp_node(s, e);
  *ptrmap_put(&s->memo, e, NULL) = (int64_t)(intptr_t)r;
  return r;
}

/* Simplify every global function (see the top of this file). */
bool pass_simplify_expr(Module *m, Diag *d) {
  Simp s = {.m = m, .scratch = arena_new()};
  for (int i = 0; i < m->nfuncs; i++)
    if (m->funcs[i]->func)
      m->funcs[i]->func = simp(&s, m->funcs[i]->func);
  arena_free(s.scratch);
  pass_purity_free(&s.pm);
  ptrmap_free(&s.memo);
  return true;
}

/* ----------------------------------------------------------- postcondition */

typedef struct {
  Simp s;
  const GlobalFn *g;
  Diag *d;
  bool ok;
} Post;

/* Report each node under *slot that a rule still matches. */
static void post_slot(Expr **slot, void *ctx) {
  Post *p = ctx;
  if (!ptrmap_first(&p->s.memo, *slot))
    return;
  if (rule(&p->s, *slot)) {
    p->ok = false;
    pass_report(p->d, p->g, *slot, "simplify_expr left a simplifiable %s",
                ir_op_name((*slot)->call.op));
  }
  ir_expr_children(*slot, post_slot, p);
}

/* The postcondition (see the top of this file). */
bool post_simplify_expr(const Module *m, Diag *d) {
  Post p = {.s = {.scratch = arena_new()}, .d = d, .ok = true};
  for (int i = 0; i < m->nfuncs; i++) {
    p.g = m->funcs[i];
    if (p.g->func)
      post_slot(&m->funcs[i]->func, &p);
  }
  arena_free(p.s.scratch);
  pass_purity_free(&p.s.pm);
  ptrmap_free(&p.s.memo);
  return p.ok;
}
