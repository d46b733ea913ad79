/*
 * known.c - the known causes of a difference between relayc's interpreter
 * and a correct translation run by MLIR (translate.h,
 * mlt_known_difference): tests/mlir/mlir_check and the MLIR target count
 * them apart from miscompiles.
 */
#include <float.h>
#include <math.h>

#include <stdlib.h>
#include <string.h>

#include "compiler/typing/typing.h"
#include "translate.h"

/* Three known causes make a correct translation give a different result:
 *   fold-zero   MLIR 22.1's TOSA folders rewrite a float x * 0 into 0
 *               (wrong for NaN, infinities, negative x) and x + 0, x - 0
 *               into x (wrong for x = -0): docs/findings/mlir.md #5;
 *   reduce-inf  tosa-to-linalg starts reduce_min (reduce_max) at FLT_MAX
 *               (-FLT_MAX) instead of +inf (-inf), so a slice of
 *               infinities reduces to the largest finite float: #16;
 *   minmax-zero arith-expand (the llvm-libm stage) lowers minimumf and
 *               maximumf to a compare and a select that take the second
 *               operand of two equal ones, so min(-0, +0) is +0: #32.
 * A program holding a cause's pattern is not enough: the difference is
 * known only when a replay confirms the cause.  fold-zero: relayc's
 * interpreter runs the program with MLIR's folds done by hand (every fold
 * site at once, or one site alone) and must give exactly MLIR's result.
 * reduce-inf: every differing element must be the one the cause predicts
 * (the largest finite float of the sign of the interpreter's infinity),
 * or relayc's interpreter runs the program with every float min and max
 * reduction started at the largest finite float and must give exactly
 * MLIR's result (what follows the reduction, a log say, carries it on).
 * minmax-zero: relayc's interpreter runs the program with every float
 * minimum and maximum written as that compare and select, and must give
 * exactly MLIR's result.
 * Any other miscompile in the same program still shows, as a difference
 * the replay does not explain. */

typedef struct Known Known;
struct Known {
  const Module *m;
  const Expr *body; /* the enclosing function's body, for let variables */
  const Expr *fn;   /* a global function entered through call: its params */
  const Expr *call; /* ... are bound to this call's arguments, */
  const Known *up;  /* which are in this function */
};

/* The value the let variable v is bound to somewhere in e. */
static const Expr *binding(const Expr *e, const Var *v, int depth) {
  if (!e || depth > 200)
    return NULL;
  const Expr *found = NULL;
  switch (e->kind) {
  case EX_LET:
    if (e->let.var == v)
      return e->let.value;
    found = binding(e->let.value, v, depth + 1);
    return found ? found : binding(e->let.body, v, depth + 1);
  case EX_TUPLE:
    for (int i = 0; i < e->tuple.n && !found; i++)
      found = binding(e->tuple.fields[i], v, depth + 1);
    return found;
  case EX_PROJ: return binding(e->proj.tuple, v, depth + 1);
  case EX_IF:
    found = binding(e->if_.cond, v, depth + 1);
    found = found ? found : binding(e->if_.then, v, depth + 1);
    return found ? found : binding(e->if_.els, v, depth + 1);
  case EX_CALL:
    for (int i = 0; i < e->call.nargs && !found; i++)
      found = binding(e->call.args[i], v, depth + 1);
    return found;
  default: return NULL;
  }
}

enum { MAX_ENTERED = 8 };

/* The global functions a lookup entered, each with the call it came by;
 * kept while the lookup's result is used (a zero_like call's). */
typedef struct Entered {
  Known k[MAX_ENTERED];
  int n;
} Entered;

/* e with let variables, let blocks, projections of tuples, calls of
 * global functions (into their bodies, noted in en) and their parameters
 * (back to the call's arguments) looked through: the expression whose
 * value e is, in the function *kout. */
static const Expr *value_of(const Known *k, const Expr *e, Entered *en, const Known **kout,
                            int depth) {
  while (e && depth++ < 64) {
    if (e->kind == EX_VAR) {
      const Expr *b = binding(k->body, e->var, 0);
      int i = 0;
      while (!b && k->call && i < k->fn->func.nparams && k->fn->func.params[i] != e->var)
        i++;
      if (b)
        e = b;
      else if (k->call && i < k->fn->func.nparams && i < k->call->call.nargs)
        e = k->call->call.args[i], k = k->up;
      else
        break;
    } else if (e->kind == EX_LET) {
      e = e->let.body;
    } else if (e->kind == EX_PROJ) {
      const Known *kt;
      const Expr *t = value_of(k, e->proj.tuple, en, &kt, depth);
      if (!t || t->kind != EX_TUPLE || e->proj.index >= t->tuple.n)
        break;
      e = t->tuple.fields[e->proj.index], k = kt;
    } else if (e->kind == EX_CALL && e->call.kind == CALL_EXPR &&
               e->call.callee->kind == EX_GLOBAL && e->call.callee->global->func &&
               en->n < MAX_ENTERED) {
      const Expr *fn = e->call.callee->global->func;
      en->k[en->n] = (Known){k->m, fn->func.body, fn, e, k};
      k = &en->k[en->n++];
      e = fn->func.body;
    } else {
      break;
    }
  }
  *kout = k;
  return e;
}

static bool all_zero(const Tensor *t) {
  for (int64_t i = 0; i < t->numel; i++)
    if (ir_tensor_get_f64(t, i) != 0)
      return false;
  return true;
}

/* Whether e's value is a constant bool tensor with one value in every
 * element (what MLIR folds an if or a select on), into *v. */
static bool const_splat_bool(const Known *k, const Expr *e, bool *v) {
  Entered en = {.n = 0};
  const Known *kc;
  const Expr *c = value_of(k, e, &en, &kc, 0);
  if (!c || c->kind != EX_CONST || c->constant->dtype != DT_BOOL || c->constant->numel == 0)
    return false;
  double c0 = ir_tensor_get_f64(c->constant, 0);
  for (int64_t i = 1; i < c->constant->numel; i++)
    if (ir_tensor_get_f64(c->constant, i) != c0)
      return false;
  *v = c0 != 0;
  return true;
}

/* Whether e is a float tensor of zeros MLIR folds as a constant: a zero
 * constant, zeros/zeros_like, a shape operator, cast, reduction or product
 * of one, a stack or concatenation of them, an if whose branches both are
 * (or whose condition is a constant and whose branch it takes is), a
 * where of the same kind,
 * or a call of a global that returns one (tosa-inline exposes it), or a
 * parameter of one that a call binds to one. */
static bool zero_like(const Known *k0, const Expr *e, int depth) {
  Entered en = {.n = 0};
  const Known *k;
  e = value_of(k0, e, &en, &k, 0);
  if (!e || depth > 32)
    return false;
  switch (e->kind) {
  case EX_CONST: return ir_dtype_is_float(e->constant->dtype) && all_zero(e->constant);
  case EX_IF: { /* MLIR folds an if on a constant condition to its branch */
    bool c;
    if (const_splat_bool(k, e->if_.cond, &c))
      return zero_like(k, c ? e->if_.then : e->if_.els, depth + 1);
    return zero_like(k, e->if_.then, depth + 1) && zero_like(k, e->if_.els, depth + 1);
  }
  case EX_CALL:
    if (e->call.kind != CALL_OP || !e->type || e->type->kind != TY_TENSOR ||
        !ir_dtype_is_float(e->type->tensor.dtype))
      return false;
    switch (e->call.op) {
    case OP_ZEROS:
    case OP_ZEROS_LIKE: return true;
    case OP_MULTIPLY:
      return zero_like(k, e->call.args[0], depth + 1) || zero_like(k, e->call.args[1], depth + 1);
    case OP_SUBTRACT: { /* x - x of one value (one node in one call's context) MLIR
                           folds: 0 when finite, which the replay decides */
      const Known *k1, *k2;
      Entered e1 = {.n = 0}, e2 = {.n = 0};
      const Expr *a = value_of(k, e->call.args[0], &e1, &k1, 0);
      const Expr *b = value_of(k, e->call.args[1], &e2, &k2, 0);
      return a && b &&
             ((a == b && k1 == k2) || (a->kind == EX_CONST && b->kind == EX_CONST &&
                                       ir_tensor_identical(a->constant, b->constant)));
    }
    case OP_RESHAPE:
    case OP_EXPAND_DIMS:
    case OP_SQUEEZE:
    case OP_BROADCAST_TO:
    case OP_TRANSPOSE:
    case OP_TILE:
    case OP_REVERSE:
    case OP_COPY:
    case OP_NEGATIVE:
    case OP_FULL:
    case OP_SUM: /* reductions, and what keeps zeros zeros, of zeros */
    case OP_MEAN:
    case OP_MAX:
    case OP_MIN:
    case OP_PROD:
    case OP_ABS:
    case OP_RELU:
    case OP_LEAKY_RELU:
    case OP_ROUND:
    case OP_FLOOR:
    case OP_CEIL:
    case OP_TRUNC:
    case OP_SIGN:
    case OP_STRIDED_SLICE: return zero_like(k, e->call.args[0], depth + 1);
    case OP_PAD: { /* zeros only cropped, or padded with zeros or their own edges */
      const Attr *w = ir_attr_get(&e->call.attrs, "pad_width");
      const Attr *mode = ir_attr_get(&e->call.attrs, "pad_mode");
      bool grows = w && w->kind != AV_PAIRS;
      for (int i = 0; w && w->kind == AV_PAIRS && i < 2 * w->n; i++)
        grows |= w->ints[i] > 0;
      bool constant = !mode || mode->kind != AV_STR || !strcmp(mode->s, "constant");
      return zero_like(k, e->call.args[0], depth + 1) &&
             (!grows || !constant || zero_like(k, e->call.args[1], depth + 1));
    }
    case OP_STACK:
    case OP_CONCATENATE: { /* of a tuple of zeros */
      const Known *kt;
      const Expr *t = value_of(k, e->call.args[0], &en, &kt, 0);
      if (!t || t->kind != EX_TUPLE)
        return false;
      for (int i = 0; i < t->tuple.n; i++)
        if (!zero_like(kt, t->tuple.fields[i], depth + 1))
          return false;
      return true;
    }
    case OP_WHERE: { /* MLIR folds a select on a constant splat condition to that side */
      bool c;
      if (const_splat_bool(k, e->call.args[0], &c))
        return zero_like(k, e->call.args[c ? 1 : 2], depth + 1);
      return zero_like(k, e->call.args[1], depth + 1) && zero_like(k, e->call.args[2], depth + 1);
    }
    case OP_CAST: { /* a cast of constant zeros of any dtype folds to float zeros */
      const Known *ka;
      const Expr *a = value_of(k, e->call.args[0], &en, &ka, 0);
      return zero_like(ka, a, depth + 1) || (a && a->kind == EX_CONST && all_zero(a->constant));
    }
    default: return false;
    }
  default: return false;
  }
}

/* Whether got differs from want only where same(want, got) allows. */
static bool differs_only(const EvValue *want, const EvValue *got, bool (*same)(double, double)) {
  Tensor *w[256], *g[256];
  int n = mlt_flatten_value(want, w, 256);
  if (n > 256 || mlt_flatten_value(got, g, 256) != n)
    return false;
  for (int i = 0; i < n; i++)
    for (int64_t k = 0; k < w[i]->numel; k++) {
      double a = ir_tensor_get_f64(w[i], k), b = ir_tensor_get_f64(g[i], k);
      bool equal =
          ir_dtype_is_float(w[i]->dtype)
              ? ev_float_close(a, b, w[i]->dtype, &ev_default_tolerance) || (isnan(a) && isnan(b))
              : ir_tensor_get_i64(w[i], k) == ir_tensor_get_i64(g[i], k);
      if (!equal && !(ir_dtype_is_float(w[i]->dtype) && same(a, b)))
        return false;
    }
  return true;
}

/* The largest finite float where want has the infinity of that sign
 * (#16), or what negation or a further reduction made of it. */
static bool finite_for_inf(double want, double got) {
  return isinf(want) && fabs(got) == FLT_MAX && (want > 0) == (got > 0);
}

/* Whether e is a float tensor operation. */
static bool float_call(const Expr *e, OpId op) {
  return e->kind == EX_CALL && e->call.kind == CALL_OP && e->call.op == op && e->type &&
         e->type->kind == TY_TENSOR && ir_dtype_is_float(e->type->tensor.dtype);
}

/* Whether the conv e (nn.conv2d in any layout, nn.conv1d) is a depthwise
 * 1x1 convolution of stride 1 with a static result: one group per input
 * channel.  tosa-optional-decompositions makes it a tosa.mul of the
 * (padded) input by the weights, which the multiply's folder then meets. */
static bool depthwise_1x1(const Expr *e) {
  const Type *x = e->call.args[0]->type, *w = e->call.args[1]->type;
  if (!x || !w || x->kind != TY_TENSOR || w->kind != TY_TENSOR || ir_tensor_has_any(e->type))
    return false;
  const char *data = ir_attr_str(&e->call.attrs, "data_layout", "NCHW");
  const char *c = strchr(data, 'C');
  int ci = c && c - data < x->tensor.rank ? (int)(c - data) : 1;
  const Attr *st = ir_attr_get(&e->call.attrs, "strides");
  for (int i = 0; st && st->kind == AV_INTS && i < st->n; i++)
    if (st->ints[i] != 1)
      return false;
  /* As many weights as output channels: 1x1 (1) kernels of one input
   * channel each. */
  int64_t weights = 1;
  for (int i = 0; i < w->tensor.rank; i++)
    weights *= w->tensor.shape[i];
  int64_t groups = ir_attr_int(&e->call.attrs, "groups", 1);
  return groups > 1 && groups == x->tensor.shape[ci] && e->type->tensor.rank == x->tensor.rank &&
         weights == e->type->tensor.shape[ci];
}

/* Whether the call e is a place MLIR's folders rewrite (fold-zero): a
 * float multiply, add or subtract with a zero operand, a bias_add of zeros,
 * a layer_norm or batch_norm whose gamma is zeros, a depthwise 1x1 conv
 * of zero weights. */
static bool fold_site(const Known *k, const Expr *e) {
  if (e->kind != EX_CALL || e->call.kind != CALL_OP)
    return false;
  switch (e->call.op) {
  case OP_MULTIPLY:
  case OP_ADD:
  case OP_SUBTRACT:
    return float_call(e, e->call.op) &&
           (zero_like(k, e->call.args[0], 0) || zero_like(k, e->call.args[1], 0));
  case OP_BIAS_ADD: return float_call(e, OP_BIAS_ADD) && zero_like(k, e->call.args[1], 0);
  case OP_CONV1D:
  case OP_CONV2D:
    return float_call(e, e->call.op) && depthwise_1x1(e) && zero_like(k, e->call.args[1], 0);
  case OP_LAYER_NORM:
    return float_call(e, OP_LAYER_NORM) && ir_attr_bool(&e->call.attrs, "scale", true) &&
           zero_like(k, e->call.args[1], 0);
  case OP_BATCH_NORM: /* a tuple (out, mean, var) */
    return e->type && e->type->kind == TY_TUPLE && e->type->tuple.n == 3 &&
           e->type->tuple.fields[0]->kind == TY_TENSOR &&
           ir_dtype_is_float(e->type->tuple.fields[0]->tensor.dtype) &&
           ir_attr_bool(&e->call.attrs, "scale", true) && zero_like(k, e->call.args[1], 0);
  default: return false;
  }
}

enum { MAX_SITES = 16 };

typedef struct Sites {
  const Known *k;
  bool (*is_site)(const Known *k, const Expr *e);
  Expr *at[MAX_SITES];
  int n;
} Sites;

/* Add the fold sites of e to s, in walk order. */
static void collect_sites(Sites *s, Expr *e, int depth) {
  if (!e || depth > 200 || s->n == MAX_SITES)
    return;
  if (s->is_site(s->k, e))
    s->at[s->n++] = e;
  switch (e->kind) {
  case EX_TUPLE:
    for (int i = 0; i < e->tuple.n; i++)
      collect_sites(s, e->tuple.fields[i], depth + 1);
    return;
  case EX_PROJ: collect_sites(s, e->proj.tuple, depth + 1); return;
  case EX_LET:
    collect_sites(s, e->let.value, depth + 1);
    collect_sites(s, e->let.body, depth + 1);
    return;
  case EX_IF:
    collect_sites(s, e->if_.cond, depth + 1);
    collect_sites(s, e->if_.then, depth + 1);
    collect_sites(s, e->if_.els, depth + 1);
    return;
  case EX_CALL:
    for (int i = 0; i < e->call.nargs; i++)
      collect_sites(s, e->call.args[i], depth + 1);
    return;
  default: return;
  }
}

/* The sites is_site takes in every function of m, in order, each with the
 * function it is in (ks, when not NULL); at most MAX_SITES. */
static int sites_of(const Module *m, bool (*is_site)(const Known *, const Expr *), Expr **at,
                    Known *ks) {
  int n = 0;
  for (int i = 0; i < m->nfuncs && n < MAX_SITES; i++) {
    Expr *fn = m->funcs[i]->func;
    if (!fn)
      continue;
    Known k = {m, fn->func.body, NULL, NULL, NULL};
    Sites s = {.k = &k, .is_site = is_site};
    collect_sites(&s, fn->func.body, 0);
    for (int j = 0; j < s.n && n < MAX_SITES; j++) {
      if (ks)
        ks[n] = k;
      at[n++] = s.at[j];
    }
  }
  return n;
}

/* The call e rewritten in place into op(args[0 .. n)), no attributes. */
static void recall(Expr *e, OpId op, int n, Expr **args) {
  e->call.op = op;
  e->call.nargs = n;
  e->call.args = args;
  e->call.attrs = (Attrs){0};
}

/* e becomes broadcast_to(x, e's shape): what a fold to x gives. */
static void become(Module *m, Expr *e, Expr *x) {
  const Type *t = e->type;
  Expr **args = ARENA_ARRAY(m->arena, Expr *, 1);
  args[0] = x;
  recall(e, OP_BROADCAST_TO, 1, args);
  ir_attr_set_ints(m->arena, &e->call.attrs, "shape", t->tensor.rank, t->tensor.shape);
}

/* beta ([C]) reshaped to [C, 1, ..] so that it broadcasts along axis of
 * a tensor of type t. */
static Expr *along(Module *m, Expr *beta, const Type *t, int64_t axis) {
  int rank = t->tensor.rank;
  axis = axis < 0 ? axis + rank : axis;
  int64_t shape[IR_MAX_RANK];
  int n = 0;
  shape[n++] = t->tensor.shape[axis];
  for (int64_t i = axis + 1; i < rank; i++)
    shape[n++] = 1;
  Attrs at = {0};
  ir_attr_set_ints(m->arena, &at, "newshape", n, shape);
  return ir_call_op(m, OP_RESHAPE, 1, &beta, &at);
}

/* A norm's normalised x times a zero gamma folded to 0: the norm's result
 * is beta along the axis (center), else zeros of x's type t. */
static Expr *folded_norm(Module *m, const Expr *e, const Type *t, int64_t axis_default) {
  Expr *x = e->call.args[0];
  if (!ir_attr_bool(&e->call.attrs, "center", true))
    return ir_call_op(m, OP_ZEROS_LIKE, 1, &x, NULL);
  Expr *b = along(m, e->call.args[2], t, ir_attr_int(&e->call.attrs, "axis", axis_default));
  Attrs at = {0};
  ir_attr_set_ints(m->arena, &at, "shape", t->tensor.rank, t->tensor.shape);
  return ir_call_op(m, OP_BROADCAST_TO, 1, &b, &at);
}

/* batch_norm(x, 0, beta, mean, var) folded: the tuple of the folded norm
 * and the mean and variance it passes on. */
static void fold_batch_norm(Module *m, Expr *e) {
  Expr **f = ARENA_ARRAY(m->arena, Expr *, 3);
  f[0] = folded_norm(m, e, e->type->tuple.fields[0], 1);
  f[1] = e->call.args[3];
  f[2] = e->call.args[4];
  e->kind = EX_TUPLE;
  e->tuple.n = 3;
  e->tuple.fields = f;
}

/* zeros of the static tensor type t. */
static Expr *zeros_of(Module *m, const Type *t) {
  Attrs at = {0};
  ir_attr_set_ints(m->arena, &at, "shape", t->tensor.rank, t->tensor.shape);
  ir_attr_set_str(m->arena, &at, "dtype", ir_dtype_name(t->tensor.dtype));
  return ir_call_op(m, OP_ZEROS, 0, NULL, &at);
}

/* A replay's `which`, beside its site bits: where both operands of a
 * multiply or add are zeros, MLIR's folder takes the right one for the
 * zero (keeping the left) only when it is a constant by then; one that is
 * still an op (a negate of zeros, say) makes it take the left one, whose
 * sign the result then has.  This bit asks for the left. */
enum { LEFT_ZERO = 1u << 31 };
_Static_assert(MAX_SITES < 31, "site bits and LEFT_ZERO do not overlap");

/* The fold site e rewritten into what MLIR folds it to: x * 0 -> zeros,
 * x + 0 and x - 0 -> x, 0 - x -> -x, bias_add(x, 0) -> x, a layer_norm
 * or batch_norm by zeros -> beta along its axis (or zeros), a depthwise
 * 1x1 conv of zero weights -> zeros.  left_zero: see LEFT_ZERO. */
static void fold(Module *m, const Known *k, Expr *e, bool left_zero) {
  Expr **a = e->call.args;
  bool z1 = e->call.nargs > 1 && zero_like(k, a[1], 0);
  if (z1 && left_zero && zero_like(k, a[0], 0))
    z1 = false;
  switch (e->call.op) {
  case OP_MULTIPLY:
    /* x * 0 -> the 0 operand (the right one when both are): the other
     * operand becomes +0, so the product has the zero's sign. */
    a[z1 ? 0 : 1] = ir_call_op(m, OP_ZEROS_LIKE, 1, &a[z1 ? 0 : 1], NULL);
    return;
  case OP_ADD: become(m, e, a[z1 ? 0 : 1]); return;
  case OP_SUBTRACT: become(m, e, z1 ? a[0] : ir_call_op(m, OP_NEGATIVE, 1, &a[1], NULL)); return;
  case OP_BIAS_ADD: become(m, e, a[0]); return;
  case OP_CONV1D:
  case OP_CONV2D: become(m, e, zeros_of(m, e->type)); return;
  case OP_LAYER_NORM: become(m, e, folded_norm(m, e, e->type, -1)); return;
  case OP_BATCH_NORM: fold_batch_norm(m, e); return;
  default: return;
  }
}

/* The fold sites in `which` (a bit per site; all when none) rewritten,
 * with LEFT_ZERO's choice if it is set. */
static void fold_sites(Module *m, uint32_t which) {
  Expr *at[MAX_SITES];
  Known ks[MAX_SITES];
  int n = sites_of(m, fold_site, at, ks); /* all found before any rewrite */
  uint32_t sites = which & ~(uint32_t)LEFT_ZERO;
  for (int i = 0; i < n; i++)
    if (!sites || (sites >> i & 1))
      fold(m, &ks[i], at[i], which & LEFT_ZERO);
}

/* A float minimum or maximum call (minmax-zero's pattern). */
static bool minmax_site(const Known *k, const Expr *e) {
  (void)k;
  return float_call(e, OP_MINIMUM) || float_call(e, OP_MAXIMUM);
}

/* Every float minimum(a, b) (maximum) of m written as arith-expand lowers
 * arith.minimumf: select(a <u b, a, b) (>u), then b where b is NaN, i.e.
 * where(isnan(b), b, where(less(a, b) or isnan(a), a, b)). */
static void expand_minmax(Module *m, uint32_t which) {
  (void)which;
  Expr *at[MAX_SITES];
  int n = sites_of(m, minmax_site, at, NULL);
  for (int i = 0; i < n; i++) {
    Expr *e = at[i], *a = e->call.args[0], *b = e->call.args[1];
    Expr *ab[2] = {a, b};
    Expr *pick_a[2] = {ir_call_op(m, e->call.op == OP_MINIMUM ? OP_LESS : OP_GREATER, 2, ab, NULL),
                       ir_call_op(m, OP_ISNAN, 1, &a, NULL)};
    Expr *inner[3] = {ir_call_op(m, OP_LOGICAL_OR, 2, pick_a, NULL), a, b};
    Expr **outer = ARENA_ARRAY(m->arena, Expr *, 3);
    outer[0] = ir_call_op(m, OP_ISNAN, 1, &b, NULL);
    outer[1] = b;
    outer[2] = ir_call_op(m, OP_WHERE, 3, inner, NULL);
    recall(e, OP_WHERE, 3, outer);
  }
}

/* A float min or max reduction (reduce-inf's pattern and replay site). */
static bool reduce_site(const Known *k, const Expr *e) {
  (void)k;
  return float_call(e, OP_MIN) || float_call(e, OP_MAX);
}

/* Every float min (max) reduction of m started where tosa-to-linalg
 * starts it, at the largest finite float (its negative):
 * minimum(min(x), largest). */
static void start_finite(Module *m, uint32_t which) {
  (void)which;
  Expr *at[MAX_SITES];
  int n = sites_of(m, reduce_site, at, NULL);
  for (int i = 0; i < n; i++) {
    Expr *e = at[i];
    DType dt = e->type->tensor.dtype;
    bool min = e->call.op == OP_MIN;
    Expr **args = ARENA_ARRAY(m->arena, Expr *, 2);
    args[0] = ir_expr_clone_node(m, e);
    args[1] = ir_const_scalar(m, dt, min ? ir_dtype_float_max(dt) : -ir_dtype_float_max(dt));
    recall(e, min ? OP_MINIMUM : OP_MAXIMUM, 2, args);
  }
}

/* Whether relayc's interpreter, on text parsed again and rewritten by
 * rewrite (with which), gives got on the inputs of seed. */
static bool replay_gives(const char *text, void (*rewrite)(Module *, uint32_t), uint32_t which,
                         uint64_t seed, const EvValue *got) {
  Diag d;
  diag_init(&d, "replay", text);
  Module *m = ir_parse_module(text, strlen(text), "replay", &d);
  bool same = false;
  if (m && ty_check_module(m, &d)) {
    rewrite(m, which);
    if (ty_check_module(m, &d)) {
      EvRun *run = ev_run_new(NULL);
      EvResult r = ev_run_main(run, m, seed);
      static const EvRules lowered = {.tol = &ev_default_tolerance};
      char why[256];
      same = r.status == EV_OK &&
             ev_compare_values(r.value, got, &lowered, why, sizeof why) == EV_SAME;
      ev_run_free(run);
    }
  }
  if (m)
    ir_module_free(m);
  diag_free(&d);
  return same;
}

/* fold-zero's replay: all fold sites folded, or one alone; each way with
 * either zero of a site whose operands both are. */
static bool fold_confirmed(const char *text, int nsites, uint64_t seed, const EvValue *got) {
  bool same = false;
  for (int left = 0; !same && left < 2; left++) {
    uint32_t z = left ? LEFT_ZERO : 0;
    same = replay_gives(text, fold_sites, z, seed, got);
    for (int i = 0; !same && nsites > 1 && i < nsites && i < MAX_SITES; i++)
      same = replay_gives(text, fold_sites, z | 1u << i, seed, got);
  }
  return same;
}

enum { JITTERS = 8 };

/* Into lo[] and hi[] (indexed by base[i] + k for element k of the
 * flattened want's tensor i, set to want's values by the caller): the
 * least and greatest integer values that JITTERS runs of relayc's
 * interpreter on text give there with their float results jittered
 * (EvRun.jitter).  False when a run fails or its result has another
 * shape. */
static bool jitter_range(const char *text, uint64_t seed, Tensor **w, int n, const int64_t *base,
                         int64_t *lo, int64_t *hi) {
  Diag d;
  diag_init(&d, "replay", text);
  Module *m = ir_parse_module(text, strlen(text), "replay", &d);
  bool ok = m && ty_check_module(m, &d);
  for (int j = 0; ok && j < JITTERS; j++) {
    EvRun *run = ev_run_new(NULL);
    run->jitter = 0x2545f4914f6cdd1dull * (uint64_t)(j + 1);
    EvResult r = ev_run_main(run, m, seed);
    Tensor *t[256];
    ok = r.status == EV_OK && mlt_flatten_value(r.value, t, 256) == n;
    for (int i = 0; ok && i < n; i++) {
      ok = t[i]->numel == w[i]->numel && t[i]->dtype == w[i]->dtype;
      for (int64_t k = 0; ok && !ir_dtype_is_float(w[i]->dtype) && k < w[i]->numel; k++) {
        int64_t v = ir_tensor_get_i64(t[i], k), *l = &lo[base[i] + k], *h = &hi[base[i] + k];
        *l = v < *l ? v : *l;
        *h = v > *h ? v : *h;
      }
    }
    ev_run_free(run);
  }
  if (m)
    ir_module_free(m);
  diag_free(&d);
  return ok;
}

/* inexact-int: got differs from want in some integer (or bool) element;
 * floats agree within the tolerance; and each integer where it differs
 * lies within the values relayc's own interpreter gives there when its
 * float results are jittered within that tolerance (and moves there).
 * Such an integer depends on float rounding the comparison allows, so
 * MLIR's value cannot be called wrong; any other difference (a float
 * beyond the tolerance, an integer relayc pins down, one outside what
 * the jitter reaches) leaves the difference unexplained. */
bool mlt_inexact_int(const Module *m, uint64_t seed, const EvValue *want, const EvValue *got) {
  Tensor *w[256], *g[256];
  int n = mlt_flatten_value(want, w, 256);
  if (n > 256 || mlt_flatten_value(got, g, 256) != n)
    return false;
  int64_t base[256], total = 0;
  bool ints = false; /* an integer differs: else not this cause */
  for (int i = 0; i < n; i++) {
    if (g[i]->numel != w[i]->numel || g[i]->dtype != w[i]->dtype)
      return false;
    base[i] = total, total += w[i]->numel;
    for (int64_t k = 0; !ints && !ir_dtype_is_float(w[i]->dtype) && k < w[i]->numel; k++)
      ints = ir_tensor_get_i64(w[i], k) != ir_tensor_get_i64(g[i], k);
  }
  if (!ints)
    return false;
  int64_t *lo = malloc(((size_t)total + 1) * sizeof *lo),
          *hi = malloc(((size_t)total + 1) * sizeof *hi);
  for (int i = 0; i < n; i++)
    for (int64_t k = 0; k < w[i]->numel; k++)
      lo[base[i] + k] = hi[base[i] + k] =
          ir_dtype_is_float(w[i]->dtype) ? 0 : ir_tensor_get_i64(w[i], k);
  char *text = ir_print_module(m);
  bool ok = jitter_range(text, seed, w, n, base, lo, hi);
  for (int i = 0; ok && i < n; i++)
    for (int64_t k = 0; ok && k < w[i]->numel; k++) {
      double x = ir_tensor_get_f64(w[i], k), y = ir_tensor_get_f64(g[i], k);
      int64_t v = ir_tensor_get_i64(g[i], k);
      ok = ir_dtype_is_float(w[i]->dtype)
               ? ev_float_close(x, y, w[i]->dtype, &ev_default_tolerance) || (isnan(x) && isnan(y))
               : v >= lo[base[i] + k] && v <= hi[base[i] + k];
    }
  free(text);
  free(lo);
  free(hi);
  return ok;
}

const char *mlt_known_name(MltKnown k) {
  static const char *const names[MLT_KNOWN_COUNT] = {
      [MLT_KNOWN_NONE] = "none",
      [MLT_KNOWN_FOLD_ZERO] = "fold-zero",
      [MLT_KNOWN_REDUCE_INF] = "reduce-inf",
      [MLT_KNOWN_MINMAX_ZERO] = "minmax-zero",
      [MLT_KNOWN_INEXACT_INT] = "inexact-int",
  };
  return k >= 0 && k < MLT_KNOWN_COUNT ? names[k] : "?";
}

MltKnown mlt_known_cause(const Module *m, uint64_t seed, const EvValue *want, const EvValue *got,
                         MltKnown *pattern) {
  Expr *at[MAX_SITES];
  int nsites = sites_of(m, fold_site, at, NULL);
  int nminmax = sites_of(m, minmax_site, at, NULL);
  bool minmax = sites_of(m, reduce_site, at, NULL) > 0;
  *pattern = nsites    ? MLT_KNOWN_FOLD_ZERO
             : minmax  ? MLT_KNOWN_REDUCE_INF
             : nminmax ? MLT_KNOWN_MINMAX_ZERO
                       : MLT_KNOWN_NONE;
  if (minmax && differs_only(want, got, finite_for_inf))
    return MLT_KNOWN_REDUCE_INF;
  MltKnown k = MLT_KNOWN_NONE;
  if (minmax || nsites || nminmax) { /* the replays, on the module printed once */
    char *text = ir_print_module(m);
    if (minmax && replay_gives(text, start_finite, 0, seed, got))
      k = MLT_KNOWN_REDUCE_INF; /* the finite start taken further (a log of it, say) */
    else if (nsites && fold_confirmed(text, nsites, seed, got))
      k = MLT_KNOWN_FOLD_ZERO;
    else if (nminmax && replay_gives(text, expand_minmax, 0, seed, got))
      k = MLT_KNOWN_MINMAX_ZERO;
    free(text);
  }
  if (k != MLT_KNOWN_NONE)
    return k;
  if (mlt_inexact_int(m, seed, want, got)) {
    if (*pattern == MLT_KNOWN_NONE)
      *pattern = MLT_KNOWN_INEXACT_INT;
    return MLT_KNOWN_INEXACT_INT;
  }
  return MLT_KNOWN_NONE;
}
