/*
 * linalg.c - the linalg road: relayc's operators translated straight to
 * linalg on tensors (named ops, linalg.map, linalg.generic with the
 * indexing maps an operator needs), tensor, arith and math, with no TOSA
 * (MltOptions.linalg; docs/mlir.md, "The linalg road").  The driver,
 * values and regions are the translator's (translate.c): with the road on
 * it emits constants as arith.constant, every `if` as scf.if, all shapes
 * static, and hands each operator call to lin_emit_op.
 *
 * This file: what the road takes (lin_accept, its own walk), the
 * dispatch, and the elementwise operators, whose scalar bodies spell out
 * relayc's semantics where arith's differ (integer division by 0 and -1,
 * float to int casts, comparisons of bools, clip's order).  The other
 * families are in linalg_ops.c.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "compiler/ops/op.h"
#include "linalg_int.h"

/* ------------------------------------------------------------ acceptance */

/* Whether the road lowers operator op. */
static bool lin_takes_op(OpId op) {
  OpRelFn rel = op_table[op].rel;
  if (rel == rel_unary || rel == rel_cast || rel == rel_broadcast)
    return true;
  switch (op) {
  case OP_WHERE:
  case OP_SUM:
  case OP_MEAN:
  case OP_MAX:
  case OP_MIN:
  case OP_PROD:
  case OP_RESHAPE:
  case OP_TRANSPOSE:
  case OP_EXPAND_DIMS:
  case OP_SQUEEZE:
  case OP_BROADCAST_TO:
  case OP_CONCATENATE:
  case OP_ZEROS:
  case OP_ONES:
  case OP_FULL:
  case OP_ZEROS_LIKE:
  case OP_ONES_LIKE:
  case OP_DENSE:
  case OP_BATCH_MATMUL:
  case OP_SOFTMAX:
  case OP_LOG_SOFTMAX:
  case OP_BIAS_ADD:
  case OP_STRIDED_SLICE:
  case OP_REVERSE:
  case OP_TILE:
  case OP_SPLIT:
  case OP_STACK:
  case OP_CONV2D:
  case OP_MAX_POOL2D:
  case OP_GLOBAL_AVG_POOL2D: return true;
  default: return false;
  }
}

static bool lin_accept_global(Tr *t, GlobalFn *g, PtrMap *seen);

/* Every operator call under e (shared nodes once) is one the road takes. */
static bool lin_accept_expr(Tr *t, const Expr *e, PtrMap *seen) {
  if (!ptrmap_first(seen, e))
    return true;
  switch (e->kind) {
  case EX_TUPLE:
    for (int i = 0; i < e->tuple.n; i++)
      if (!lin_accept_expr(t, e->tuple.fields[i], seen))
        return false;
    return true;
  case EX_PROJ: return lin_accept_expr(t, e->proj.tuple, seen);
  case EX_LET:
    return lin_accept_expr(t, e->let.value, seen) && lin_accept_expr(t, e->let.body, seen);
  case EX_IF:
    return lin_accept_expr(t, e->if_.cond, seen) && lin_accept_expr(t, e->if_.then, seen) &&
           lin_accept_expr(t, e->if_.els, seen);
  case EX_CALL:
    if (e->call.kind == CALL_OP && !lin_takes_op(e->call.op) &&
        !(e->call.op == OP_PAD &&
          !strcmp(ir_attr_str(&e->call.attrs, "pad_mode", "constant"), "constant"))) {
      snprintf(t->skip, sizeof t->skip, "the linalg road: operator %s (not on the road)",
               ir_op_name(e->call.op));
      return false;
    }
    if (e->call.kind == CALL_EXPR && !lin_accept_global(t, e->call.callee->global, seen))
      return false;
    for (int i = 0; i < e->call.nargs; i++)
      if (!lin_accept_expr(t, e->call.args[i], seen))
        return false;
    return true;
  default: return true;
  }
}

static bool lin_accept_global(Tr *t, GlobalFn *g, PtrMap *seen) {
  return !ptrmap_first(seen, g) || lin_accept_expr(t, g->func->func.body, seen);
}

/* Whether the linalg road takes @main and what it reaches (accept_module
 * has taken them: types, forms, no recursion); false with t->skip. */
bool lin_accept(Tr *t, GlobalFn *main) {
  PtrMap seen = {.arena = t->a};
  return lin_accept_global(t, main, &seen);
}

/* --------------------------------------------------------- scalar bodies */

/* The body of a linalg.map / generic being written: lines into b, SSA
 * names from the module's counter (never clashing with the values'). */
typedef struct Sc {
  Fn *f;
  Buf b;
} Sc;

/* "%N = TEXT" as a line of the body; returns "%N". */
static const char *sc_put(Sc *s, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static const char *sc_put(Sc *s, const char *fmt, ...) {
  int id = s->f->t->next++;
  buf_put(&s->b, "      %%%d = ", id);
  va_list ap;
  va_start(ap, fmt);
  buf_vput(&s->b, fmt, ap);
  va_end(ap);
  buf_put(&s->b, "\n");
  return arena_printf(s->f->t->a, "%%%d", id);
}

/* The scalar v of dtype dt. */
static const char *sc_const(Sc *s, DType dt, double v) {
  Buf b = {0};
  buf_number(&b, dt, v);
  /* a bool literal has its type: `arith.constant true` */
  const char *r = dt == DT_BOOL ? sc_put(s, "arith.constant %s", b.s)
                                : sc_put(s, "arith.constant %s : %s", b.s, mty_elem(dt));
  free(b.s);
  return r;
}

/* c ? x : y of element type ty. */
static const char *sc_select(Sc *s, const char *c, const char *x, const char *y, DType dt) {
  return sc_put(s, "arith.select %s, %s, %s : %s", c, x, y, mty_elem(dt));
}

/* A comparison x PRED y: arith.cmpf for floats, arith.cmpi for ints
 * (bools unsigned: signed i1 has true = -1 < false). */
static const char *sc_cmp(Sc *s, DType dt, const char *fpred, const char *ipred, const char *x,
                          const char *y) {
  if (ir_dtype_is_float(dt))
    return sc_put(s, "arith.cmpf %s, %s, %s : %s", fpred, x, y, mty_elem(dt));
  const char *p = ipred;
  if (dt == DT_BOOL && ipred[0] == 's') /* slt -> ult */
    p = arena_printf(s->f->t->a, "u%s", ipred + 1);
  return sc_put(s, "arith.cmpi %s, %s, %s : %s", p, x, y, mty_elem(dt));
}

/* "OP x, y : T" (n = 1: "OP x : T"). */
static const char *sc_op(Sc *s, const char *op, const char *x, const char *y, DType dt) {
  if (!y)
    return sc_put(s, "%s %s : %s", op, x, mty_elem(dt));
  return sc_put(s, "%s %s, %s : %s", op, x, y, mty_elem(dt));
}

/* Float x to int32 as relayc casts: truncated, saturated, NaN -> 0
 * (arith.fptosi is poison out of range). */
static const char *sc_float_to_int(Sc *s, const char *x, DType from) {
  const char *lo = sc_const(s, from, -2147483648.0), *hi = sc_const(s, from, 2147483520.0);
  const char *c = sc_op(s, "arith.maximumf", x, lo, from);
  c = sc_op(s, "arith.minimumf", c, hi, from);
  c = sc_put(s, "arith.fptosi %s : %s to i32", c, mty_elem(from));
  const char *big = sc_cmp(s, from, "oge", NULL, x, sc_const(s, from, 2147483648.0));
  c = sc_select(s, big, sc_const(s, DT_INT32, 2147483647.0), c, DT_INT32);
  const char *nan = sc_put(s, "arith.cmpf uno, %s, %s : %s", x, x, mty_elem(from));
  return sc_select(s, nan, sc_const(s, DT_INT32, 0), c, DT_INT32);
}

/* x of dtype `from` cast to `to` (relayc's cast). */
static const char *sc_cast(Sc *s, const char *x, DType from, DType to) {
  const char *ef = mty_elem(from), *et = mty_elem(to);
  bool ff = ir_dtype_is_float(from), ft = ir_dtype_is_float(to);
  if (from == to)
    return x;
  if (to == DT_BOOL) /* x != 0: NaN true, -0 false */
    return ff ? sc_put(s, "arith.cmpf une, %s, %s : %s", x, sc_const(s, from, 0), ef)
              : sc_put(s, "arith.cmpi ne, %s, %s : %s", x, sc_const(s, from, 0), ef);
  if (from == DT_BOOL)
    return sc_put(s, "%s %s : i1 to %s", ft ? "arith.uitofp" : "arith.extui", x, et);
  if (!ff && ft)
    return sc_put(s, "arith.sitofp %s : %s to %s", x, ef, et);
  if (ff && !ft)
    return sc_float_to_int(s, x, from);
  if (ff && ft)
    return sc_put(s, "%s %s : %s to %s",
                  ir_dtype_size(from) > ir_dtype_size(to) ? "arith.truncf" : "arith.extf", x, ef,
                  et);
  return sc_put(s, "%s %s : %s to %s",
                ir_dtype_size(from) > ir_dtype_size(to) ? "arith.trunci" : "arith.extsi", x, ef,
                et);
}

/* Integer x / y as relayc defines it: truncating, x / 0 = 0, x / -1 =
 * 0 - x wrapping (arith.divsi is undefined for both). */
static const char *sc_int_divide(Sc *s, const char *x, const char *y, DType dt) {
  const char *zero = sc_const(s, dt, 0), *one = sc_const(s, dt, 1), *m1 = sc_const(s, dt, -1);
  const char *is0 = sc_cmp(s, dt, NULL, "eq", y, zero), *ism1 = sc_cmp(s, dt, NULL, "eq", y, m1);
  const char *bad = sc_op(s, "arith.ori", is0, ism1, DT_BOOL);
  const char *q = sc_op(s, "arith.divsi", x, sc_select(s, bad, one, y, dt), dt);
  q = sc_select(s, ism1, sc_op(s, "arith.subi", zero, x, dt), q, dt);
  return sc_select(s, is0, zero, q, dt);
}

/* clip: t = x < lo ? lo : x, then t > hi ? hi : t, the bounds converted
 * to x's dtype first. */
static const char *sc_clip(Sc *s, const char *x, DType dt, const Attrs *at) {
  double lo = ir_attr_float(at, "a_min", -INFINITY), hi = ir_attr_float(at, "a_max", INFINITY);
  const char *l, *h;
  if (ir_dtype_is_float(dt)) {
    l = sc_const(s, dt, (float)lo), h = sc_const(s, dt, (float)hi);
  } else {
    l = sc_const(s, dt, (double)ir_sat_f64_to_int(lo, dt));
    h = sc_const(s, dt, (double)ir_sat_f64_to_int(hi, dt));
  }
  const char *t = sc_select(s, sc_cmp(s, dt, "olt", "slt", x, l), l, x, dt);
  return sc_select(s, sc_cmp(s, dt, "ogt", "sgt", t, h), h, t, dt);
}

/* -1, 0 or 1 by the sign of x; zeros and NaN stay. */
static const char *sc_sign(Sc *s, const char *x, DType dt) {
  const char *zero = sc_const(s, dt, 0);
  const char *r = sc_select(s, sc_cmp(s, dt, "olt", "slt", x, zero), sc_const(s, dt, -1), x, dt);
  return sc_select(s, sc_cmp(s, dt, "ogt", "sgt", x, zero), sc_const(s, dt, 1), r, dt);
}

/* 1 / (e^-x + 1), each step in x's dtype. */
static const char *sc_sigmoid(Sc *s, const char *x, DType dt) {
  const char *e = sc_op(s, "math.exp", sc_op(s, "arith.negf", x, NULL, dt), NULL, dt);
  const char *one = sc_const(s, dt, 1);
  return sc_op(s, "arith.divf", one, sc_op(s, "arith.addf", e, one, dt), dt);
}

/* A unary operator on x (dtype dt). */
static const char *sc_unary(Sc *s, const LinEw *e, const char *x) {
  DType dt = e->in;
  bool fl = ir_dtype_is_float(dt);
  switch (e->op) {
  case OP_NEGATIVE:
    return fl ? sc_op(s, "arith.negf", x, NULL, dt)
              : sc_op(s, "arith.subi", sc_const(s, dt, 0), x, dt);
  case OP_ABS: return sc_op(s, fl ? "math.absf" : "math.absi", x, NULL, dt);
  case OP_EXP: return sc_op(s, "math.exp", x, NULL, dt);
  case OP_LOG: return sc_op(s, "math.log", x, NULL, dt);
  case OP_SQRT: return sc_op(s, "math.sqrt", x, NULL, dt);
  case OP_RSQRT:
    return sc_op(s, "arith.divf", sc_const(s, dt, 1), sc_op(s, "math.sqrt", x, NULL, dt), dt);
  case OP_SIGMOID: return sc_sigmoid(s, x, dt);
  case OP_TANH: return sc_op(s, "math.tanh", x, NULL, dt);
  case OP_FLOOR: return sc_op(s, "math.floor", x, NULL, dt);
  case OP_CEIL: return sc_op(s, "math.ceil", x, NULL, dt);
  case OP_ROUND: return sc_op(s, "math.roundeven", x, NULL, dt);
  case OP_RELU: /* max(x, 0): NaN stays, -0 becomes +0 */
    return sc_op(s, fl ? "arith.maximumf" : "arith.maxsi", x, sc_const(s, dt, 0), dt);
  case OP_SIGN: return sc_sign(s, x, dt);
  case OP_LOGICAL_NOT: return sc_op(s, "arith.xori", x, sc_const(s, DT_BOOL, 1), dt);
  case OP_CLIP: return sc_clip(s, x, dt, e->at);
  case OP_CAST: return sc_cast(s, x, dt, e->out);
  default: return x; /* copy */
  }
}

/* A broadcast-family operator on x and y (dtype dt). */
static const char *sc_binary(Sc *s, const LinEw *e, const char *x, const char *y) {
  DType dt = e->in;
  bool fl = ir_dtype_is_float(dt);
  switch (e->op) {
  case OP_ADD: return sc_op(s, fl ? "arith.addf" : "arith.addi", x, y, dt);
  case OP_SUBTRACT: return sc_op(s, fl ? "arith.subf" : "arith.subi", x, y, dt);
  case OP_MULTIPLY: return sc_op(s, fl ? "arith.mulf" : "arith.muli", x, y, dt);
  case OP_DIVIDE: return fl ? sc_op(s, "arith.divf", x, y, dt) : sc_int_divide(s, x, y, dt);
  case OP_POWER: return sc_op(s, "math.powf", x, y, dt);
  case OP_MAXIMUM: /* NaN wins, -0 < +0 */
    return sc_op(s, fl ? "arith.maximumf" : "arith.maxsi", x, y, dt);
  case OP_MINIMUM: return sc_op(s, fl ? "arith.minimumf" : "arith.minsi", x, y, dt);
  case OP_EQUAL: return sc_cmp(s, dt, "oeq", "eq", x, y);
  case OP_NOT_EQUAL: return sc_cmp(s, dt, "une", "ne", x, y);
  case OP_LESS: return sc_cmp(s, dt, "olt", "slt", x, y);
  case OP_LESS_EQUAL: return sc_cmp(s, dt, "ole", "sle", x, y);
  case OP_GREATER: return sc_cmp(s, dt, "ogt", "sgt", x, y);
  case OP_GREATER_EQUAL: return sc_cmp(s, dt, "oge", "sge", x, y);
  case OP_LOGICAL_AND: return sc_op(s, "arith.andi", x, y, dt);
  case OP_LOGICAL_OR: return sc_op(s, "arith.ori", x, y, dt);
  default: return x;
  }
}

/* The scalar body of e on the block arguments a. */
static const char *sc_body(Sc *s, const LinEw *e, const char *const *a) {
  switch (e->op) {
  case OP_WHERE: return sc_select(s, a[0], a[1], a[2], e->out);
  case LIN_COPY: return a[0];
  case LIN_TRUNC: return sc_cast(s, a[0], e->in, e->out);
  case LIN_MEAN_TRUNC:
    return sc_cast(s, sc_op(s, "arith.divf", a[0], sc_const(s, e->in, (double)e->count), e->in),
                   e->in, e->out);
  case LIN_INT_MEAN:
    return sc_cast(s, sc_op(s, "arith.divsi", a[0], sc_const(s, e->in, (double)e->count), e->in),
                   e->in, e->out);
  default: break;
  }
  OpRelFn rel = op_table[e->op].rel;
  return rel == rel_broadcast ? sc_binary(s, e, a[0], a[1]) : sc_unary(s, e, a[0]);
}

/* ------------------------------------------------------------ elementwise */

Val *lin_empty(Fn *f, const Type *t) {
  Val *v = fn_def(f, t, NULL);
  fn_out(f, "tensor.empty() : %s\n", v->ty);
  return v;
}

Val *lin_fill(Fn *f, const Type *t, double v) {
  Val *init = lin_empty(f, t);
  Val *c = fn_def(f, NULL, mty_elem(t->tensor.dtype));
  fn_out(f, "arith.constant ");
  buf_number(fn_body(f), t->tensor.dtype, v);
  fn_out(f, t->tensor.dtype == DT_BOOL ? "\n" : " : %s\n", c->ty);
  Val *r = fn_def(f, t, NULL);
  fn_out(f, "linalg.fill ins(%s : %s) outs(%s : %s) -> %s\n", c->name, c->ty, init->name, init->ty,
         r->ty);
  return r;
}

/* The indexing map of an input of rank rx and shape xs read at the
 * iteration point of a result of rank r and shape rs (numpy broadcast:
 * trailing dims aligned, a 1 against a larger dim read at 0). */
static void put_map(Buf *b, int rx, const int64_t *xs, int r, const int64_t *rs) {
  buf_put(b, "affine_map<(");
  for (int i = 0; i < r; i++)
    buf_put(b, "%sd%d", i ? ", " : "", i);
  buf_put(b, ") -> (");
  for (int i = 0; i < rx; i++) {
    int d = i + r - rx;
    if (xs[i] == 1 && rs[d] != 1)
      buf_put(b, "%s0", i ? ", " : "");
    else
      buf_put(b, "%sd%d", i ? ", " : "", d);
  }
  buf_put(b, ")>");
}

Val *lin_elementwise(Fn *f, int n, Val *const *xs, const Type *rt, const LinEw *e) {
  int r = rt->tensor.rank;
  const int64_t *rs = rt->tensor.shape;
  /* Rank 0: always linalg.generic.  MLIR 22.1's linalg-fuse-elementwise-ops
   * crashes on a rank-0 linalg.map or linalg.copy of a constant that yields
   * its input (docs/findings/mlir.md #26). */
  bool same = r > 0;
  const char *names[4], *args[4];
  for (int i = 0; i < n; i++) {
    same &= mty_same_shape(mty_rank(xs[i]), mty_shape(xs[i]), r, rs);
    names[i] = fn_use(f, xs[i]);
  }
  Val *init = lin_empty(f, rt);
  Sc s = {f};
  for (int i = 0; i < n; i++)
    args[i] = arena_printf(f->t->a, "%%%d", f->t->next++);
  const char *out = arena_printf(f->t->a, "%%%d", f->t->next++);
  const char *res = sc_body(&s, e, args);
  Val *v = fn_def(f, rt, NULL);
  fn_out(f, "%s", same ? "linalg.map" : "linalg.generic {indexing_maps = [");
  if (!same) {
    for (int i = 0; i <= n; i++) {
      if (i)
        fn_out(f, ", ");
      if (i < n)
        put_map(fn_body(f), mty_rank(xs[i]), mty_shape(xs[i]), r, rs);
      else
        put_map(fn_body(f), r, rs, r, rs);
    }
    fn_out(f, "], iterator_types = [");
    for (int i = 0; i < r; i++)
      fn_out(f, "%s\"parallel\"", i ? ", " : "");
    fn_out(f, "]}");
  }
  fn_out(f, " ins(");
  for (int i = 0; i < n; i++)
    fn_out(f, "%s%s", i ? ", " : "", names[i]);
  fn_out(f, " : ");
  for (int i = 0; i < n; i++)
    fn_out(f, "%s%s", i ? ", " : "", xs[i]->ty);
  fn_out(f, ") outs(%s : %s)", init->name, init->ty);
  if (same)
    fn_out(f, "\n");
  else
    fn_out(f, " {\n");
  fn_line(f);
  fn_out(f, "    %s(", same ? "" : "^bb0");
  for (int i = 0; i < n; i++)
    fn_out(f, "%s: %s, ", args[i], mty_elem(mty_dtype(xs[i])));
  fn_out(f, "%s: %s)%s\n", out, mty_elem(rt->tensor.dtype), same ? " {" : ":");
  fn_out(f, "%s", s.b.s ? s.b.s : "");
  free(s.b.s);
  fn_line(f);
  fn_out(f, "      linalg.yield %s : %s\n", res, mty_elem(rt->tensor.dtype));
  fn_line(f);
  fn_out(f, "    }%s%s\n", same ? "" : " -> ", same ? "" : v->ty);
  return v;
}

Val *lin_cast(Fn *f, Val *x, DType to) {
  if (mty_dtype(x) == to)
    return x;
  LinEw e = {OP_CAST, mty_dtype(x), to, NULL, 0};
  return lin_elementwise(f, 1, &x, mty_retype(f, x->type, to), &e);
}

/* ---------------------------------------------------------------- dispatch */

/* linalg.copy of x (relayc's copy).  Not for rank 0 (findings #26): a
 * rank-0 copy is a linalg.generic (lin_elementwise). */
static Val *lin_copy(Fn *f, Val *x) {
  const char *xn = fn_use(f, x);
  Val *init = lin_empty(f, x->type);
  Val *v = fn_def(f, x->type, NULL);
  fn_out(f, "linalg.copy ins(%s : %s) outs(%s : %s) -> %s\n", xn, x->ty, init->name, init->ty,
         v->ty);
  return v;
}

/* The translation on the linalg road of operator call e with translated
 * (static) arguments a and static result type rt. */
Val *lin_emit_op(Fn *f, const Expr *e, Val **a, const Type *rt) {
  OpId op = e->call.op;
  OpRelFn rel = op_table[op].rel;
  if (op == OP_COPY && mty_rank(a[0]) > 0)
    return lin_copy(f, a[0]);
  if (rel == rel_unary || rel == rel_cast || rel == rel_broadcast || op == OP_WHERE) {
    LinEw ew = {op, mty_dtype(a[op == OP_WHERE]), rt->tensor.dtype, &e->call.attrs, 0};
    return lin_elementwise(f, e->call.nargs, a, rt, &ew);
  }
  return lin_emit_other(f, e, a, rt);
}
