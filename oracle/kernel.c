/*
 * kernel.c - the kernel check (oracle.h, ORACLE_KERNEL): one operator
 * call drawn from the input, its kernel (compiler/ops) against the naive
 * one (oracle/naive).  Constant folding and the interpreter share the
 * kernels, so every other oracle is blind to a kernel bug.
 *
 * The input is a choice stream (generator/choice.h: out of bytes every
 * choice is 0, and smaller bytes pick simpler options, so the reducer's
 * byte moves shrink a case):
 *   header byte 0   tensor sizes: the operators' default limits, or tiny
 *                   or small ones (so that empty and one-element axes
 *                   come up often)
 *   body            the operator, then its sampler's choices (argument
 *                   types and attributes), then one byte per argument
 *                   element: small values, and from byte 224 on special
 *                   ones (NaN, infinities, -0, extremes of each dtype)
 *
 * Checked: the sampler's solution is one the relation accepts with the
 * same result type (oracle "relation"); the kernel leaves its arguments
 * alone and writes every element of its results (they start poisoned);
 * each result element equals the naive kernel's, as naive.h's NvCompare
 * says (oracle "kernel").
 */
#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "compiler/ops/op.h"
#include "generator/choice.h"
#include "naive/naive.h"
#include "oracle_int.h"

enum { MAX_TENSORS = 64, POISON = 0xA5 };

/* Values bytes 224..255 select. */
static const double float_special[32] = {
    NAN,          -NAN,          INFINITY, -INFINITY, -0.0,  FLT_MAX, -FLT_MAX, DBL_MAX,
    1e-45,        FLT_MIN,       1e-300,   4.9e-324,  1e30,  -1e30,   0.1,      1.0 / 3.0,
    65504.0,      0.999,         1.001,    16777217., 2.5,   -2.5,    0.5,      -0.5,
    2147483648.0, -2147483649.0, 9.3e18,   -9.3e18,   128.0, -129.0,  255.5,    1e-8,
};
static const int64_t int_special[32] = {
    127,       -128,      255,       256,          2147483647, -2147483647 - 1,
    INT64_MAX, INT64_MIN, 1ll << 31, -(1ll << 31), 1ll << 32,  -(1ll << 32),
    65535,     65536,     -129,      128,          1ll << 62,  -(1ll << 62),
    100,       1000,      -1000,     12345,        -7,         31,
    32,        63,        64,        0x55,         0xAA,       7,
    -100,      3,
};

/* b even -> b / 2, b odd -> -(b + 1) / 2: 0, -1, 1, -2, 2, ... */
static int64_t zigzag(unsigned b) {
  return (b & 1) ? -(int64_t)((b + 1) / 2) : (int64_t)(b / 2);
}

/* Fill t's elements from the stream, one byte each. */
static void fill(GenStream *st, Tensor *t) {
  bool fl = nv_is_float(t->dtype);
  for (int64_t i = 0; i < t->numel; i++) {
    unsigned b = gen_stream_byte(st);
    if (t->dtype == DT_BOOL)
      nv_put_i(t, i, b & 1);
    else if (fl)
      nv_put_f(t, i, b >= 224 ? float_special[b - 224] : (double)zigzag(b) / 4);
    else
      nv_put_i(t, i, b >= 224 ? int_special[b - 224] : zigzag(b));
  }
}

/* The tensor types of a type: a tensor is one, a tuple of tensors its
 * fields.  -1 when it is something else or too many. */
static int flatten(Type *t, Type **out, int max) {
  if (t && t->kind == TY_TENSOR && max >= 1) {
    out[0] = t;
    return 1;
  }
  if (!t || t->kind != TY_TUPLE || t->tuple.n > max)
    return -1;
  for (int i = 0; i < t->tuple.n; i++)
    if ((out[i] = t->tuple.fields[i])->kind != TY_TENSOR)
      return -1;
  return t->tuple.n;
}

/* One kernel case. */
typedef struct Case {
  Module *m; /* owns everything; the call as @main, for reports */
  OpId op;
  OpSig sig;
  Type *ret;
  bool drawn; /* arguments and results made */
  int nargs, nouts;
  Tensor *args[MAX_TENSORS], *real[MAX_TENSORS], *naive[MAX_TENSORS];
} Case;

/* The limits header byte 0 selects. */
static OpLimits limits(const GenStream *st) {
  OpLimits l = op_default_limits;
  switch (st->header[0] % 3) {
  case 1: l.max_dim = 2, l.max_numel = 8, l.max_flops = 64; break;
  case 2: l.max_dim = 4, l.max_numel = 32, l.max_flops = 512; break;
  default: break;
  }
  return l;
}

/* @main() { op(constants) }: the case as a program, for the report. */
static void make_program(Case *k) {
  Expr *args[OP_MAX_ARGS];
  int next = 0;
  for (int i = 0; i < k->sig.nargs; i++) {
    Type *f[MAX_TENSORS];
    int n = flatten(k->sig.args[i], f, MAX_TENSORS);
    Expr *fields[MAX_TENSORS];
    for (int j = 0; j < n; j++)
      fields[j] = ir_const(k->m, k->args[next++]);
    args[i] = k->sig.args[i]->kind == TY_TUPLE ? ir_tuple(k->m, n, fields) : fields[0];
  }
  Expr *call = ir_call_op(k->m, k->op, k->sig.nargs, args, &k->sig.attrs);
  ir_def(k->m, "main", ir_func(k->m, 0, NULL, k->ret, call));
}

/* Does claim t refine the relation's type ret of a value-typed op
 * (arange: its Any length made the static one its constants give)? */
static bool value_refines(OpId op, const Type *ret, const Type *t) {
  if (!op_value_typed(op) || !t || ret->kind != TY_TENSOR || t->kind != TY_TENSOR ||
      ret->tensor.rank != t->tensor.rank || ret->tensor.dtype != t->tensor.dtype)
    return false;
  for (int i = 0; i < ret->tensor.rank; i++)
    if (!ir_dim_is_any(ret->tensor.shape[i]) && ret->tensor.shape[i] != t->tensor.shape[i])
      return false;
  return true;
}

/* Draw the case from the input; false when the sampler declines (the
 * input is skipped) or the relation disagrees with it (v failed). */
static bool draw(const OracleInput *in, Case *k, Verdict *v) {
  GenStream st;
  gen_stream_init(&st, in->data, in->data ? in->size : 0);
  OpLimits lim = limits(&st);
  k->op = (OpId)gen_stream_below(&st, OP_COUNT);
  OpSolveCtx cx = {&st.ch, k->m->arena, &lim};
  memset(&k->sig, 0, sizeof k->sig);
  if (!op_table[k->op].sample(k->op, &cx, &k->sig)) {
    v->skipped = true;
    return false;
  }
  char err[256] = "";
  RelStatus rs = op_relate(k->op, k->sig.args, k->sig.nargs, &k->sig.attrs, k->m->arena, &k->ret,
                           err, sizeof err);
  if (rs != REL_OK ||
      (!ir_type_equal(k->ret, k->sig.ret) && !value_refines(k->op, k->ret, k->sig.ret))) {
    char *want = k->sig.ret ? ir_print_type(k->sig.ret) : NULL;
    char *got = rs == REL_OK ? ir_print_type(k->ret) : NULL;
    verdict_fail(v, "relation", "the operator's relation disagrees with its sampler",
                 "%s: the sampler's arguments give %s, the relation %s", ir_op_name(k->op),
                 want ? want : "nothing", got ? got : err);
    free(want);
    free(got);
    return false;
  }
  Type *types[MAX_TENSORS];
  for (int i = 0; i < k->sig.nargs; i++) {
    int n = flatten(k->sig.args[i], types, MAX_TENSORS - k->nargs);
    for (int j = 0; j < n; j++) {
      Tensor *t = ir_tensor_of_type(k->m->arena, types[j]);
      if (k->sig.lit[i] && gen_stream_below(&st, 2) == 0)
        ir_tensor_set_f64(t, 0, k->sig.val[i]); /* the constant the sampler chose */
      else
        fill(&st, t);
      k->args[k->nargs++] = t;
    }
  }
  /* A value-typed op's result type from the values; when they give none
   * (or one beyond the limits), the sampler's constants, which do. */
  Type *ret = k->ret;
  if (op_value_type(k->op, k->args, k->nargs, k->m->arena, ret, &k->ret, err, sizeof err) !=
          REL_OK ||
      (op_value_typed(k->op) && ir_type_numel(k->ret) > lim.max_numel)) {
    for (int i = 0; i < k->sig.nargs && i < k->nargs; i++)
      if (k->sig.lit[i])
        ir_tensor_set_f64(k->args[i], 0, k->sig.val[i]);
    if (op_value_type(k->op, k->args, k->nargs, k->m->arena, ret, &k->ret, err, sizeof err) !=
        REL_OK) {
      v->skipped = true;
      return false;
    }
  }
  k->nouts = flatten(k->ret, types, MAX_TENSORS);
  for (int i = 0; i < k->nouts; i++) {
    k->real[i] = ir_tensor_of_type(k->m->arena, types[i]);
    k->naive[i] = ir_tensor_of_type(k->m->arena, types[i]);
    memset(k->real[i]->data, POISON,
           (size_t)k->real[i]->numel * (size_t)ir_dtype_size(types[i]->tensor.dtype));
  }
  k->drawn = true;
  return true;
}

/* Whether two elements agree as c says: integers and bools bit for bit,
 * floats bit for bit (any NaN equal to any NaN) or within the tolerance. */
static bool same(const Tensor *a, const Tensor *b, int64_t i, NvCompare c) {
  size_t size = (size_t)ir_dtype_size(a->dtype);
  if (!nv_is_float(a->dtype))
    return memcmp((const char *)a->data + i * size, (const char *)b->data + i * size, size) == 0;
  double x = nv_f(a, i), y = nv_f(b, i);
  if (isnan(x) || isnan(y))
    return isnan(x) && isnan(y);
  if (c == NV_EXACT || isinf(x) || isinf(y))
    return memcmp(&x, &y, sizeof x) == 0;
  double rtol, atol;
  ev_tolerance_of(&ev_default_tolerance, a->dtype, &rtol, &atol);
  return fabs(x - y) <= atol + rtol * fmax(fabs(x), fabs(y));
}

/* An element for a report: "float32 0.25", "int8 -3", "bool 1". */
static void show(const Tensor *t, int64_t i, char *buf, size_t n) {
  if (nv_is_float(t->dtype))
    snprintf(buf, n, "%s %.17g", ir_dtype_name(t->dtype), nv_f(t, i));
  else if (nv_is_unsigned(t->dtype))
    snprintf(buf, n, "%s %llu", ir_dtype_name(t->dtype), (unsigned long long)nv_u(t, i));
  else if (t->dtype == DT_BOOL)
    snprintf(buf, n, "bool 0x%02x", ((const uint8_t *)t->data)[i]);
  else
    snprintf(buf, n, "%s %lld", ir_dtype_name(t->dtype), (long long)nv_i(t, i));
}

/* Compare the kernel's results with the naive ones. */
static void compare(Case *k, NvCompare c, Verdict *v) {
  for (int o = 0; o < k->nouts && !v->failed; o++) {
    const Tensor *a = k->real[o], *b = k->naive[o];
    for (int64_t i = 0; i < a->numel; i++) {
      if (same(a, b, i, c))
        continue;
      int64_t coord[IR_MAX_RANK];
      char at[256], x[64], y[64];
      size_t n = (size_t)snprintf(at, sizeof at, "(");
      nv_coord(a->rank, a->shape, i, coord);
      for (int d = 0; d < a->rank && n < sizeof at; d++)
        n += (size_t)snprintf(at + n, sizeof at - n, "%s%lld", d ? ", " : "", (long long)coord[d]);
      show(a, i, x, sizeof x);
      show(b, i, y, sizeof y);
      verdict_fail(v, "kernel", "the operator's kernel disagrees with its naive reference",
                   "%s: result %d at %s): kernel %s, naive %s%s", ir_op_name(k->op), o, at, x, y,
                   c == NV_CLOSE ? " (beyond the tolerance)" : "");
      return;
    }
  }
}

Module *oracle_kernel_program(const OracleInput *in) {
  Case k = {.m = ir_module_new()};
  Verdict v = {0};
  if (draw(in, &k, &v))
    make_program(&k);
  verdict_free(&v);
  return k.m;
}

bool oracle_check_kernel(const OracleConfig *c, const OracleInput *in, Verdict *v) {
  Case k = {.m = ir_module_new()};
  v->stage = -1;
  if (draw(in, &k, v)) {
    v->op = ir_op_name(k.op);
    /* The arguments as they were, to see that the kernel leaves them. */
    Tensor *copy[MAX_TENSORS];
    for (int i = 0; i < k.nargs; i++) {
      copy[i] = ir_tensor_new(k.m->arena, k.args[i]->dtype, k.args[i]->rank, k.args[i]->shape);
      memcpy(copy[i]->data, k.args[i]->data,
             (size_t)k.args[i]->numel * (size_t)ir_dtype_size(k.args[i]->dtype));
    }
    Arena *scratch = arena_new();
    op_table[k.op].kernel(k.op, k.args, k.nargs, &k.sig.attrs, k.real, k.nouts, scratch);
    arena_free(scratch);
    for (int i = 0; i < k.nargs && !v->failed; i++)
      if (!ir_tensor_identical(copy[i], k.args[i]))
        verdict_fail(v, "kernel", "the operator's kernel changed its argument",
                     "%s: argument tensor %d", ir_op_name(k.op), i);
    const NvOp *nv = nv_op(k.op);
    if (!v->failed) {
      nv->kernel(k.op, copy, k.nargs, &k.sig.attrs, k.naive, k.nouts);
      compare(&k, nv->compare, v);
    }
  } else if (v->failed) {
    v->op = ir_op_name(k.op);
  }
  if (v->failed && k.drawn) {
    make_program(&k);
    v->before = ir_print_module(k.m);
  }
  ir_module_free(k.m);
  return !v->failed;
}
