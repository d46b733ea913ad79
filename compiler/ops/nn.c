/*
 * nn.c - the neural-network operator family: nn.dense, nn.batch_matmul,
 * nn.conv2d, nn.max_pool2d, nn.avg_pool2d, nn.global_avg_pool2d,
 * nn.softmax, nn.log_softmax, nn.bias_add, nn.batch_norm, nn.layer_norm
 * and nn.pad.  Relations follow Relay's (DenseRel/MatmulRel, BatchMatmulRel,
 * Conv2DRel, Pool2DRel, GlobalPool2DRel, SoftmaxRel, BiasAddRel,
 * BatchNormRel, LayerNormRel, PadRel) with these deliberate restrictions:
 *
 *   dtypes   dense, batch_matmul, conv2d, max_pool2d and bias_add take any
 *            numeric dtype (not bool), both operands the same; integer
 *            arithmetic wraps.  out_dtype "" means the input's dtype; an
 *            explicit out_dtype converts every operand to it first (floats
 *            to ints saturate, as in cast) and accumulates in it.  softmax,
 *            log_softmax, avg pools, batch_norm and layer_norm are float
 *            only.  pad takes every dtype; its scalar pad value may have any
 *            dtype and is converted to the data's.
 *   windows  conv2d and the pools reject a dilated window larger than the
 *            padded input (Relay would produce a zero or negative extent);
 *            kernels and strides and dilations must be positive, padding
 *            non-negative; layouts NCHW / OIHW only.  conv2d needs channels
 *            and output channels divisible by groups.  Pools use Relay's
 *            output formula, ceil_mode included (Relay has no rule that the
 *            last window must start inside the input, so it may lie wholly
 *            in the padding: max gives -inf or the dtype's minimum there,
 *            avg gives 0).
 *   batch    batch_matmul broadcasts a batch of 1 against any other (so
 *            1 with 0 gives 0, where Relay's max() would say 1).
 *
 * Solvers.  Every freedom is drawn from a range of values each of which can
 * still be completed within the limits, so the solver never fails once the
 * recognizer has said yes, and choice 0 is always the simplest option (the
 * smallest kernel, stride 1, no padding, default attributes).  The spatial
 * axes of conv2d and the pools are drawn from one family: kernel k, stride
 * s and dilation d up to min(max_dim, 32), pads each at most (dk - 1) / 2
 * where dk = (k - 1) * d + 1 is the dilated kernel; then the input extent
 * n for output extent o is an interval (see axis_x_lo).  In that family
 * n >= o, with n == o reachable, which makes the limits monotone.
 * Samplers draw a recognisable result type and solve for it.
 */
#include <assert.h>
#include <math.h>
#include <stdarg.h>
#include <string.h>

#include "util.h"

enum { ATTR_CAP = 32 }; /* largest stride, dilation or pool size a solver invents */

/* ------------------------------------------------------------ arithmetic */

/* a * b for non-negative operands, saturating at INT64_MAX. */
static int64_t mul_sat(int64_t a, int64_t b) {
  int64_t r;
  return __builtin_mul_overflow(a, b, &r) ? INT64_MAX : r;
}

/* a + b for non-negative operands, saturating at INT64_MAX. */
static int64_t add_sat(int64_t a, int64_t b) {
  int64_t r;
  return __builtin_add_overflow(a, b, &r) ? INT64_MAX : r;
}

/* The smaller of a and b. */
static int64_t min64(int64_t a, int64_t b) {
  return a < b ? a : b;
}

/* The larger of a and b. */
static int64_t max64(int64_t a, int64_t b) {
  return a > b ? a : b;
}

/* budget / used, or INT64_MAX when used is 0 (nothing limits the quotient). */
static int64_t quota(int64_t budget, int64_t used) {
  return used > 0 ? budget / used : INT64_MAX;
}

/* Elements of a shape, saturating. */
static int64_t numel_of(int rank, const int64_t *shape) {
  int64_t n = 1;
  for (int i = 0; i < rank; i++)
    n = mul_sat(n, shape[i]);
  return n;
}

/* Reinterpret two's complement bits as a signed value (no UB). */
static int64_t u2i(uint64_t u) {
  int64_t r;
  memcpy(&r, &u, sizeof r);
  return r;
}

/* ---------------------------------------------------------- attributes */

/* Reads a relation's attributes, checking each kind; the first problem is
 * formatted into the relation's error buffer and bad is set. */
typedef struct AttrReader {
  const Attrs *at;
  char *err;
  size_t errlen;
  bool bad;
} AttrReader;

/* Records the first attribute error. */
static void rd_fail(AttrReader *r, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void rd_fail(AttrReader *r, const char *fmt, ...) {
  if (r->bad)
    return;
  r->bad = true;
  if (r->err && r->errlen) {
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(r->err, r->errlen, fmt, ap);
    va_end(ap);
  }
}

/* Starts reading: rejects attribute names op's schema does not list. */
static AttrReader rd_begin(OpId op, const Attrs *at, char *err, size_t errlen) {
  AttrReader r = {at, err, errlen, false};
  AttrSpec spec;
  for (int i = 0; at && i < at->n; i++)
    if (!ir_op_attr(op, at->items[i].name, strlen(at->items[i].name), &spec))
      rd_fail(&r, "unknown attribute '%s'", at->items[i].name);
  return r;
}

/* An int attribute; absent gives dflt. */
static int64_t rd_int(AttrReader *r, const char *name, int64_t dflt) {
  const Attr *x = ir_attr_get(r->at, name);
  if (!x)
    return dflt;
  if (x->kind != AV_INT) {
    rd_fail(r, "attribute %s must be an integer", name);
    return dflt;
  }
  return x->i;
}

/* An optional int attribute (default None): true and *v when set. */
static bool rd_opt_int(AttrReader *r, const char *name, int64_t *v) {
  const Attr *x = ir_attr_get(r->at, name);
  if (!x || x->kind == AV_NONE)
    return false;
  if (x->kind != AV_INT) {
    rd_fail(r, "attribute %s must be an integer or None", name);
    return false;
  }
  *v = x->i;
  return true;
}

/* A bool attribute (True/False, or 0/1); absent gives dflt. */
static bool rd_bool(AttrReader *r, const char *name, bool dflt) {
  const Attr *x = ir_attr_get(r->at, name);
  if (!x)
    return dflt;
  if (x->kind != AV_BOOL && !(x->kind == AV_INT && (x->i == 0 || x->i == 1))) {
    rd_fail(r, "attribute %s must be a bool", name);
    return dflt;
  }
  return x->i != 0;
}

/* A float attribute (an int is accepted); absent gives dflt. */
static double rd_float(AttrReader *r, const char *name, double dflt) {
  const Attr *x = ir_attr_get(r->at, name);
  if (!x)
    return dflt;
  if (x->kind == AV_FLOAT)
    return x->f;
  if (x->kind == AV_INT)
    return (double)x->i;
  rd_fail(r, "attribute %s must be a float", name);
  return dflt;
}

/* A string attribute; absent gives dflt. */
static const char *rd_str(AttrReader *r, const char *name, const char *dflt) {
  const Attr *x = ir_attr_get(r->at, name);
  if (!x)
    return dflt;
  if (x->kind != AV_STR) {
    rd_fail(r, "attribute %s must be a string", name);
    return dflt;
  }
  return x->s;
}

/* An int list of at most max entries into v; absent copies the ndflt
 * defaults.  Returns the count, or -1 when None and none_ok. */
static int rd_ints(AttrReader *r, const char *name, int max, int64_t *v, int ndflt,
                   const int64_t *dflt, bool none_ok) {
  const Attr *x = ir_attr_get(r->at, name);
  if (!x) {
    if (!dflt)
      return -1;
    memcpy(v, dflt, sizeof(int64_t) * (size_t)ndflt);
    return ndflt;
  }
  if (x->kind == AV_NONE && none_ok)
    return -1;
  if (x->kind != AV_INTS) {
    rd_fail(r, "attribute %s must be a list of integers", name);
    return 0;
  }
  if (x->n > max) {
    rd_fail(r, "attribute %s has %d values, at most %d allowed", name, x->n, max);
    return 0;
  }
  if (x->n)
    memcpy(v, x->ints, sizeof(int64_t) * (size_t)x->n);
  return x->n;
}

/* Reads an out_dtype attribute: "" (or absent) means in; bool is refused. */
static DType rd_out_dtype(AttrReader *r, DType in) {
  const char *s = rd_str(r, "out_dtype", "");
  if (!s[0])
    return in;
  DType dt;
  if (!ir_dtype_parse(s, strlen(s), &dt) || dt == DT_BOOL) {
    rd_fail(r, "out_dtype \"%s\" is not a numeric dtype", s);
    return in;
  }
  return dt;
}

/* --------------------------------------------------------- type checks */

/* Error unless t's dtype is in the allowed set. */
static bool want_dtype(AttrReader *r, const Type *t, uint32_t allowed, const char *what) {
  if (allowed & (1u << t->tensor.dtype))
    return true;
  rd_fail(r, "%s has dtype %s; %s expected", what, ir_dtype_name(t->tensor.dtype),
          allowed == OP_FLOATS ? "a float dtype" : "a numeric dtype");
  return false;
}

/* Error unless t is a rank-1 tensor [n] of dtype dt. */
static bool want_vector(AttrReader *r, const Type *t, int64_t n, DType dt, const char *what) {
  if (t->tensor.rank == 1 && t->tensor.shape[0] == n && t->tensor.dtype == dt)
    return true;
  char got[160];
  int len = snprintf(got, sizeof got, "Tensor[(");
  for (int i = 0; i < t->tensor.rank && len < 120; i++)
    len += snprintf(got + len, sizeof got - (size_t)len, "%s%lld", i ? ", " : "",
                    (long long)t->tensor.shape[i]);
  snprintf(got + len, sizeof got - (size_t)len, "%s), %s]", t->tensor.rank == 1 ? "," : "",
           ir_dtype_name(t->tensor.dtype));
  rd_fail(r, "%s must be Tensor[(%lld,), %s], got %s", what, (long long)n, ir_dtype_name(dt), got);
  return false;
}

/* True when a tensor shape respects the limits: rank, every dim, numel. */
static bool shape_fits(const OpLimits *lim, int rank, const int64_t *shape) {
  if (rank > lim->max_rank)
    return false;
  for (int i = 0; i < rank; i++)
    if (shape[i] > lim->max_dim)
      return false;
  return numel_of(rank, shape) <= lim->max_numel;
}

/* True when t is a tensor type within the limits with a dtype in allowed. */
static bool tensor_fits(const OpLimits *lim, const Type *t, uint32_t allowed) {
  return t && t->kind == TY_TENSOR && (allowed & (1u << t->tensor.dtype)) &&
         shape_fits(lim, t->tensor.rank, t->tensor.shape);
}

/* ------------------------------------------------------------- drawing */

/* A value in [lo, hi] (lo <= hi); choice 0 gives pref when it is in range,
 * the other choices the remaining values in increasing order. */
static int64_t pick_pref(OpSolveCtx *cx, int64_t lo, int64_t hi, int64_t pref) {
  assert(lo <= hi);
  if (hi - lo >= (int64_t)UINT32_MAX)
    hi = lo + (int64_t)UINT32_MAX - 1;
  uint32_t c = op_choose(cx->ch, (uint32_t)(hi - lo + 1));
  if (pref < lo || pref > hi)
    return lo + c;
  if (c == 0)
    return pref;
  int64_t v = lo + c - 1;
  return v >= pref ? v + 1 : v;
}

/* A value in [lo, hi], choice 0 giving lo. */
static int64_t pick(OpSolveCtx *cx, int64_t lo, int64_t hi) {
  return pick_pref(cx, lo, hi, lo);
}

/* One of the n candidates, choice 0 giving the first. */
static int64_t pick_of(OpSolveCtx *cx, const int64_t *cand, int n) {
  assert(n > 0);
  return cand[op_choose(cx->ch, (uint32_t)n)];
}

/* An axis attribute for rank r among those for which ok(axis value) holds
 * (any of [-r, r) when ok is NULL); choice 0 gives pref if allowed. */
static int64_t pick_axis(OpSolveCtx *cx, int r, int64_t lo, int64_t pref,
                         bool (*ok)(const Type *, int64_t, int), const Type *t) {
  int64_t cand[2 * IR_MAX_RANK + 1];
  int n = 0;
  if (pref >= lo && pref < r && (!ok || ok(t, pref, r)))
    cand[n++] = pref;
  for (int64_t v = lo; v < r; v++)
    if (v != pref && (!ok || ok(t, v, r)))
      cand[n++] = v;
  return pick_of(cx, cand, n);
}

/* A dtype for an operand when the result dtype is given by out_dtype. */
static DType pick_in_dtype(OpSolveCtx *cx) {
  return op_draw_dtype(cx, OP_NUMERIC);
}

/* Sets out_dtype: choice 0 leaves it "" (the input dtype equals want);
 * otherwise writes want's name and draws the input dtype. */
static DType pick_out_dtype(OpSolveCtx *cx, Attrs *at, DType want) {
  if (op_choose(cx->ch, 2) == 0) {
    ir_attr_set_str(cx->arena, at, "out_dtype", "");
    return want;
  }
  ir_attr_set_str(cx->arena, at, "out_dtype", ir_dtype_name(want));
  return pick_in_dtype(cx);
}

/* A tensor type in the solver's arena. */
static Type *tensor(OpSolveCtx *cx, DType dt, int rank, const int64_t *shape) {
  return ir_tensor_type(cx->arena, dt, rank, shape);
}

/* Draws a result shape of rank in [lo, hi] whose numel is at most budget. */
static int draw_shape(OpSolveCtx *cx, int lo, int hi, int64_t budget, int64_t *shape) {
  int rank = op_draw_rank(cx, lo, hi);
  op_draw_shape(cx, rank, budget, shape);
  return rank;
}

/* ----------------------------------------------------- kernel elements */

/* Element i of t as a value of float dtype dt (float32 rounds). */
static double elem_f(const Tensor *t, int64_t i, DType dt) {
  double v = ir_tensor_get_f64(t, i);
  return dt == DT_FLOAT32 ? (double)(float)v : v;
}

/* Element i of t converted to integer dtype dt (floats saturate, ints wrap). */
static int64_t elem_i(const Tensor *t, int64_t i, DType dt) {
  if (ir_dtype_is_float(t->dtype))
    return ir_sat_f64_to_int(ir_tensor_get_f64(t, i), dt);
  return ir_wrap_int(ir_tensor_get_i64(t, i), dt);
}

/* A multiply-accumulate in the result dtype: doubles for floats, wrapping
 * 64-bit arithmetic for integers (narrowed when stored). */
typedef struct Acc {
  DType dt;
  double f;
  uint64_t i;
} Acc;

/* An accumulator at zero for dtype dt. */
static Acc acc_new(DType dt) {
  Acc a = {dt, 0.0, 0};
  return a;
}

/* acc += x[i] * y[j], each converted to the accumulator's dtype first. */
static void acc_mad(Acc *a, const Tensor *x, int64_t i, const Tensor *y, int64_t j) {
  if (ir_dtype_is_float(a->dt))
    a->f += elem_f(x, i, a->dt) * elem_f(y, j, a->dt);
  else
    a->i += (uint64_t)elem_i(x, i, a->dt) * (uint64_t)elem_i(y, j, a->dt);
}

/* Writes the accumulated value to r[k]. */
static void acc_store(const Acc *a, Tensor *r, int64_t k) {
  if (ir_dtype_is_float(a->dt))
    ir_tensor_set_f64(r, k, a->f);
  else
    ir_tensor_set_i64(r, k, u2i(a->i));
}

/* Copies src[i] to dst[j] converting to dst's dtype (ints wrap, floats to
 * ints saturate). */
static void elem_convert(const Tensor *src, int64_t i, Tensor *dst, int64_t j) {
  if (ir_dtype_is_float(src->dtype) || ir_dtype_is_float(dst->dtype))
    ir_tensor_set_f64(dst, j, ir_tensor_get_f64(src, i));
  else
    ir_tensor_set_i64(dst, j, ir_tensor_get_i64(src, i));
}

/* --------------------------------------------------------------- dense */

/* Common checks for the matrix products: numeric operands of one dtype. */
static bool same_numeric(AttrReader *r, const Type *x, const Type *y) {
  if (!want_dtype(r, x, OP_NUMERIC, "the first operand"))
    return false;
  if (x->tensor.dtype != y->tensor.dtype) {
    rd_fail(r, "operand dtypes differ: %s and %s", ir_dtype_name(x->tensor.dtype),
            ir_dtype_name(y->tensor.dtype));
    return false;
  }
  return true;
}

RelStatus rel_dense(OpId op, Type *const *args, int nargs, const Attrs *at, Arena *a, Type **out,
                    char *err, size_t errlen) {
  RelStatus st = op_want_tensors(args, nargs, 2, err, errlen);
  if (st != REL_OK)
    return st;
  AttrReader r = rd_begin(op, at, err, errlen);
  int64_t units = 0;
  bool has_units = rd_opt_int(&r, "units", &units);
  const Type *d = args[0], *w = args[1];
  DType odt = rd_out_dtype(&r, d->tensor.dtype);
  if (r.bad || !same_numeric(&r, d, w))
    return REL_ERROR;
  int rank = d->tensor.rank;
  if (rank < 1)
    return op_fail(err, errlen, "data must have rank >= 1");
  if (w->tensor.rank != 2)
    return op_fail(err, errlen, "weight must have rank 2, got %d", w->tensor.rank);
  if (w->tensor.shape[1] != d->tensor.shape[rank - 1])
    return op_fail(err, errlen, "weight has %lld input features, data has %lld",
                   (long long)w->tensor.shape[1], (long long)d->tensor.shape[rank - 1]);
  if (has_units && units != w->tensor.shape[0])
    return op_fail(err, errlen, "units=%lld but the weight has %lld rows", (long long)units,
                   (long long)w->tensor.shape[0]);
  int64_t shape[IR_MAX_RANK];
  memcpy(shape, d->tensor.shape, sizeof(int64_t) * (size_t)rank);
  shape[rank - 1] = w->tensor.shape[0];
  *out = ir_tensor_type(a, odt, rank, shape);
  return REL_OK;
}

/* Largest reduction length k for dense result t within lim (0: none). */
static int64_t dense_kmax(const Type *t, const OpLimits *lim) {
  int rank = t->tensor.rank;
  int64_t units = t->tensor.shape[rank - 1];
  int64_t lead = numel_of(rank - 1, t->tensor.shape);
  int64_t k = lim->max_dim;
  k = min64(k, quota(lim->max_numel, lead));                            /* data */
  k = min64(k, quota(lim->max_numel, units));                           /* weight */
  k = min64(k, quota(lim->max_flops, numel_of(rank, t->tensor.shape))); /* flops */
  return k;
}

bool rec_dense(OpId op, const Type *want, const OpLimits *lim) {
  return tensor_fits(lim, want, OP_NUMERIC) && want->tensor.rank >= 1 && dense_kmax(want, lim) >= 1;
}

bool solve_dense(OpId op, const Type *want, OpSolveCtx *cx, OpSig *sig) {
  if (!rec_dense(op, want, cx->lim))
    return false;
  memset(sig, 0, sizeof *sig);
  int rank = want->tensor.rank;
  int64_t units = want->tensor.shape[rank - 1];
  int64_t k = pick(cx, 1, dense_kmax(want, cx->lim));
  if (op_choose(cx->ch, 2))
    ir_attr_set_int(cx->arena, &sig->attrs, "units", units);
  else
    ir_attr_set_none(cx->arena, &sig->attrs, "units");
  DType in = pick_out_dtype(cx, &sig->attrs, want->tensor.dtype);
  int64_t dshape[IR_MAX_RANK], wshape[2] = {units, k};
  memcpy(dshape, want->tensor.shape, sizeof(int64_t) * (size_t)rank);
  dshape[rank - 1] = k;
  sig->nargs = 2;
  sig->args[0] = tensor(cx, in, rank, dshape);
  sig->args[1] = tensor(cx, in, 2, wshape);
  RelStatus st = rel_dense(op, sig->args, 2, &sig->attrs, cx->arena, &sig->ret, NULL, 0);
  assert(st == REL_OK && ir_type_equal(sig->ret, want));
  return st == REL_OK;
}

bool sample_dense(OpId op, OpSolveCtx *cx, OpSig *sig) {
  int64_t shape[IR_MAX_RANK];
  int rank =
      draw_shape(cx, 1, cx->lim->max_rank, min64(cx->lim->max_numel, cx->lim->max_flops), shape);
  Type *want = tensor(cx, op_draw_dtype(cx, OP_NUMERIC), rank, shape);
  return solve_dense(op, want, cx, sig);
}

void k_dense(OpId op, Tensor *const *args, int nargs, const Attrs *at, Tensor *const *outs,
             int nouts, Arena *scratch) {
  const Tensor *d = args[0], *w = args[1];
  Tensor *r = outs[0];
  int64_t units = w->shape[0], k = w->shape[1];
  int64_t rows = units ? r->numel / units : 0;
  for (int64_t i = 0; i < rows; i++)
    for (int64_t u = 0; u < units; u++) {
      Acc acc = acc_new(r->dtype);
      for (int64_t j = 0; j < k; j++)
        acc_mad(&acc, d, i * k + j, w, u * k + j);
      acc_store(&acc, r, i * units + u);
    }
}

/* -------------------------------------------------------- batch_matmul */

RelStatus rel_batch_matmul(OpId op, Type *const *args, int nargs, const Attrs *at, Arena *a,
                           Type **out, char *err, size_t errlen) {
  RelStatus st = op_want_tensors(args, nargs, 2, err, errlen);
  if (st != REL_OK)
    return st;
  AttrReader r = rd_begin(op, at, err, errlen);
  const Type *x = args[0], *y = args[1];
  DType odt = rd_out_dtype(&r, x->tensor.dtype);
  bool ta = rd_bool(&r, "transpose_a", false), tb = rd_bool(&r, "transpose_b", true);
  if (r.bad || !same_numeric(&r, x, y))
    return REL_ERROR;
  if (x->tensor.rank != 3 || y->tensor.rank != 3)
    return op_fail(err, errlen, "operands must have rank 3, got %d and %d", x->tensor.rank,
                   y->tensor.rank);
  const int64_t *xs = x->tensor.shape, *ys = y->tensor.shape;
  int64_t xk = xs[ta ? 1 : 2], yk = ys[tb ? 2 : 1];
  if (xs[0] != ys[0] && xs[0] != 1 && ys[0] != 1)
    return op_fail(err, errlen, "batch dimensions %lld and %lld differ", (long long)xs[0],
                   (long long)ys[0]);
  if (xk != yk)
    return op_fail(err, errlen, "reduction dimensions %lld and %lld differ", (long long)xk,
                   (long long)yk);
  int64_t shape[3] = {xs[0] == 1 ? ys[0] : xs[0], xs[ta ? 2 : 1], ys[tb ? 1 : 2]};
  *out = ir_tensor_type(a, odt, 3, shape);
  return REL_OK;
}

/* Largest k for result t when the operands have batches bx and by. */
static int64_t bmm_kmax(const Type *t, int64_t bx, int64_t by, const OpLimits *lim) {
  const int64_t *s = t->tensor.shape;
  int64_t k = lim->max_dim;
  k = min64(k, quota(lim->max_numel, mul_sat(bx, s[1])));
  k = min64(k, quota(lim->max_numel, mul_sat(by, s[2])));
  k = min64(k, quota(lim->max_flops, numel_of(3, s)));
  return k;
}

/* The batch pairs (bx, by) giving batch b whose k range is not empty. */
static int bmm_modes(const Type *t, const OpLimits *lim, int64_t modes[3][2]) {
  int64_t b = t->tensor.shape[0];
  int64_t all[3][2] = {{b, b}, {1, b}, {b, 1}};
  int n = 0;
  for (int i = 0; i < (b == 1 ? 1 : 3); i++)
    if (bmm_kmax(t, all[i][0], all[i][1], lim) >= 1) {
      modes[n][0] = all[i][0];
      modes[n][1] = all[i][1];
      n++;
    }
  return n;
}

bool rec_batch_matmul(OpId op, const Type *want, const OpLimits *lim) {
  int64_t modes[3][2];
  return tensor_fits(lim, want, OP_NUMERIC) && want->tensor.rank == 3 &&
         bmm_modes(want, lim, modes) > 0;
}

bool solve_batch_matmul(OpId op, const Type *want, OpSolveCtx *cx, OpSig *sig) {
  int64_t modes[3][2];
  if (!rec_batch_matmul(op, want, cx->lim))
    return false;
  memset(sig, 0, sizeof *sig);
  int mode = (int)op_choose(cx->ch, (uint32_t)bmm_modes(want, cx->lim, modes));
  int64_t bx = modes[mode][0], by = modes[mode][1];
  int64_t m = want->tensor.shape[1], n = want->tensor.shape[2];
  int64_t k = pick(cx, 1, bmm_kmax(want, bx, by, cx->lim));
  DType in = pick_out_dtype(cx, &sig->attrs, want->tensor.dtype);
  bool ta = op_choose(cx->ch, 2), tb = !op_choose(cx->ch, 2);
  ir_attr_set_bool(cx->arena, &sig->attrs, "transpose_a", ta);
  ir_attr_set_bool(cx->arena, &sig->attrs, "transpose_b", tb);
  int64_t xs[3] = {bx, ta ? k : m, ta ? m : k}, ys[3] = {by, tb ? n : k, tb ? k : n};
  sig->nargs = 2;
  sig->args[0] = tensor(cx, in, 3, xs);
  sig->args[1] = tensor(cx, in, 3, ys);
  RelStatus st = rel_batch_matmul(op, sig->args, 2, &sig->attrs, cx->arena, &sig->ret, NULL, 0);
  assert(st == REL_OK && ir_type_equal(sig->ret, want));
  return st == REL_OK;
}

bool sample_batch_matmul(OpId op, OpSolveCtx *cx, OpSig *sig) {
  int64_t shape[3];
  if (cx->lim->max_rank < 3)
    return false;
  op_draw_shape(cx, 3, min64(cx->lim->max_numel, cx->lim->max_flops), shape);
  return solve_batch_matmul(op, tensor(cx, op_draw_dtype(cx, OP_NUMERIC), 3, shape), cx, sig);
}

void k_batch_matmul(OpId op, Tensor *const *args, int nargs, const Attrs *at, Tensor *const *outs,
                    int nouts, Arena *scratch) {
  const Tensor *x = args[0], *y = args[1];
  Tensor *r = outs[0];
  bool ta = ir_attr_bool(at, "transpose_a", false), tb = ir_attr_bool(at, "transpose_b", true);
  int64_t k = x->shape[ta ? 1 : 2], m = r->shape[1], n = r->shape[2];
  for (int64_t b = 0; b < r->shape[0]; b++) {
    int64_t xb = x->shape[0] == 1 ? 0 : b, yb = y->shape[0] == 1 ? 0 : b;
    for (int64_t i = 0; i < m; i++)
      for (int64_t j = 0; j < n; j++) {
        Acc acc = acc_new(r->dtype);
        for (int64_t l = 0; l < k; l++) {
          int64_t xi = xb * m * k + (ta ? l * m + i : i * k + l);
          int64_t yi = yb * n * k + (tb ? j * k + l : l * n + j);
          acc_mad(&acc, x, xi, y, yi);
        }
        acc_store(&acc, r, (b * m + i) * n + j);
      }
  }
}

/* ------------------------------------------------- windows (conv, pools) */

/* Sliding-window parameters along H and W (NCHW). */
typedef struct Win {
  int64_t k[2], s[2], d[2];
  int64_t pad[4]; /* top, left, bottom, right */
  bool ceil;
} Win;

/* Reads a list attribute of exactly two positive values. */
static void rd_pair(AttrReader *r, const char *name, int64_t *v) {
  static const int64_t ones[2] = {1, 1};
  int n = rd_ints(r, name, 2, v, 2, ones, false);
  if (r->bad)
    return;
  if (n != 2)
    rd_fail(r, "%s must have 2 values, got %d", name, n);
  else if (v[0] < 1 || v[1] < 1)
    rd_fail(r, "%s must be positive, got [%lld, %lld]", name, (long long)v[0], (long long)v[1]);
}

/* Reads strides, dilation and padding (1, 2 or 4 values as in Relay:
 * all sides; top/bottom and left/right; top, left, bottom, right). */
static void rd_window(AttrReader *r, Win *w) {
  static const int64_t zeros[2] = {0, 0};
  int64_t p[4];
  rd_pair(r, "strides", w->s);
  rd_pair(r, "dilation", w->d);
  int n = rd_ints(r, "padding", 4, p, 2, zeros, false);
  if (r->bad)
    return;
  switch (n) {
  case 1: w->pad[0] = w->pad[1] = w->pad[2] = w->pad[3] = p[0]; break;
  case 2:
    w->pad[0] = w->pad[2] = p[0];
    w->pad[1] = w->pad[3] = p[1];
    break;
  case 4: memcpy(w->pad, p, sizeof p); break;
  default: rd_fail(r, "padding must have 1, 2 or 4 values, got %d", n); return;
  }
  for (int i = 0; i < 4; i++)
    if (w->pad[i] < 0)
      rd_fail(r, "padding must be non-negative, got %lld", (long long)w->pad[i]);
}

/* Relay's output extent along axis i (0 = H, 1 = W) for input extent n;
 * -1 when the dilated window does not fit the padded input, -2 when the
 * arithmetic overflows, here or in a kernel indexing the last window. */
static int64_t win_out(const Win *w, int i, int64_t n) {
  int64_t dk, span, num, end;
  if (__builtin_mul_overflow(w->k[i] - 1, w->d[i], &dk) || __builtin_add_overflow(dk, 1, &dk) ||
      __builtin_add_overflow(n, w->pad[i], &span) ||
      __builtin_add_overflow(span, w->pad[i + 2], &span))
    return -2;
  if (span < dk)
    return -1;
  num = span - dk;
  if (w->ceil && __builtin_add_overflow(num, w->s[i] - 1, &num))
    return -2;
  int64_t o = num / w->s[i] + 1;
  if (__builtin_mul_overflow(o - 1, w->s[i], &end) || __builtin_add_overflow(end, dk, &end))
    return -2;
  return o;
}

/* Computes both output extents into o[2] or reports why it cannot. */
static bool win_outs(AttrReader *r, const Win *w, const int64_t *in, int64_t *o) {
  static const char *axis[2] = {"height", "width"};
  for (int i = 0; i < 2; i++) {
    o[i] = win_out(w, i, in[i]);
    if (o[i] == -2)
      rd_fail(r, "window attributes too large along %s", axis[i]);
    else if (o[i] == -1)
      rd_fail(r, "dilated window (%lld) larger than the padded %s (%lld + %lld + %lld)",
              (long long)((w->k[i] - 1) * w->d[i] + 1), axis[i], (long long)in[i],
              (long long)w->pad[i], (long long)w->pad[i + 2]);
  }
  return !r->bad;
}

/* Checks a layout attribute against the only layout we support. */
static void rd_layout(AttrReader *r, const char *name, const char *only) {
  const char *s = rd_str(r, name, only);
  if (!r->bad && strcmp(s, only) != 0)
    rd_fail(r, "%s \"%s\" is not supported; only \"%s\"", name, s, only);
}

/* One spatial axis of a solution: kernel, stride, dilation, pads, input. */
typedef struct Axis {
  int64_t k, s, d, lo, hi, n;
} Axis;

/* Smallest slack x = n + pads - dk giving output extent o with stride s:
 * floor mode needs x / s == o - 1, ceil mode ceil(x / s) == o - 1. */
static int64_t axis_x_lo(int64_t o, int64_t s, bool ceil) {
  if (!ceil)
    return mul_sat(o - 1, s);
  return o >= 2 ? add_sat(mul_sat(o - 2, s), 1) : 0;
}

/* Largest slack giving output extent o (see axis_x_lo). */
static int64_t axis_x_hi(int64_t o, int64_t s, bool ceil) {
  int64_t x = mul_sat(o - 1, s);
  return ceil ? x : add_sat(x, s - 1);
}

/* Whether a kernel extent fits the caller's budgets (extent 1 always must). */
typedef bool (*KernelOk)(const void *ctx, int64_t k);

/* Draws one axis from the solver family (see the top of the file) with
 * output extent o >= 1 and input extent at most ncap >= o.  Each draw is
 * limited to values that still leave a completion: with stride s and
 * dilated kernel dk the input extent is dk - lo - hi + x for x in
 * [axis_x_lo, axis_x_hi], and the pads can bring dk - lo - hi down to 1
 * or 2. */
static void draw_axis(OpSolveCtx *cx, int64_t o, int64_t ncap, bool ceil, KernelOk kok,
                      const void *ctx, Axis *ax) {
  int64_t cap = min64(cx->lim->max_dim, ATTR_CAP), ks[ATTR_CAP];
  int64_t smax = 1;
  while (smax < cap && add_sat(axis_x_lo(o, smax + 1, ceil), 1) <= ncap)
    smax++;
  ax->s = pick(cx, 1, smax);
  ax->d = pick(cx, 1, cap);
  int64_t xlo = axis_x_lo(o, ax->s, ceil);
  int nk = 0;
  for (int64_t k = 1; k <= cap; k++) {
    int64_t dk = (k - 1) * ax->d + 1;
    if (kok(ctx, k) && xlo + dk - 2 * ((dk - 1) / 2) <= ncap)
      ks[nk++] = k;
  }
  ax->k = pick_of(cx, ks, nk);
  int64_t dk = (ax->k - 1) * ax->d + 1, half = (dk - 1) / 2, base = xlo + dk;
  ax->lo = pick(cx, max64(0, base - half - ncap), half);
  ax->hi = pick(cx, max64(0, base - ax->lo - ncap), half);
  int64_t e = dk - ax->lo - ax->hi;
  ax->n = pick(cx, e + xlo, min64(add_sat(e, axis_x_hi(o, ax->s, ceil)), ncap));
}

/* Writes strides, padding and dilation for two axes; the padding form
 * (1, 2 or 4 values) is drawn among those that express the pads, the
 * shortest first. */
static void set_padding(OpSolveCtx *cx, Attrs *at, const Axis *h, const Axis *w) {
  int64_t p[4] = {h->lo, w->lo, h->hi, w->hi}, forms[3];
  int n = 0;
  if (p[0] == p[1] && p[1] == p[2] && p[2] == p[3])
    forms[n++] = 1;
  if (p[0] == p[2] && p[1] == p[3])
    forms[n++] = 2;
  forms[n++] = 4;
  ir_attr_set_ints(cx->arena, at, "padding", (int)pick_of(cx, forms, n), p);
}

/* Writes a two-value list attribute. */
static void set_pair(OpSolveCtx *cx, Attrs *at, const char *name, int64_t a, int64_t b) {
  int64_t v[2] = {a, b};
  ir_attr_set_ints(cx->arena, at, name, 2, v);
}

/* Reads the window back from validated attributes (kernels). */
static Win win_of(OpId op, const Attrs *at) {
  Win w = {.ceil = false};
  AttrReader r = {at, NULL, 0, false};
  rd_window(&r, &w);
  w.ceil = rd_bool(&r, "ceil_mode", false);
  if (op != OP_CONV2D)
    rd_pair(&r, "pool_size", w.k);
  assert(!r.bad);
  return w;
}

/* -------------------------------------------------------------- conv2d */

RelStatus rel_conv2d(OpId op, Type *const *args, int nargs, const Attrs *at, Arena *a, Type **out,
                     char *err, size_t errlen) {
  RelStatus st = op_want_tensors(args, nargs, 2, err, errlen);
  if (st != REL_OK)
    return st;
  AttrReader r = rd_begin(op, at, err, errlen);
  const Type *d = args[0], *wt = args[1];
  Win w = {.ceil = false};
  rd_window(&r, &w);
  int64_t groups = rd_int(&r, "groups", 1), channels = 0, ksize[2];
  bool has_channels = rd_opt_int(&r, "channels", &channels);
  int nks = rd_ints(&r, "kernel_size", 2, ksize, 0, NULL, true);
  rd_layout(&r, "data_layout", "NCHW");
  rd_layout(&r, "kernel_layout", "OIHW");
  DType odt = rd_out_dtype(&r, d->tensor.dtype);
  if (r.bad || !same_numeric(&r, d, wt))
    return REL_ERROR;
  if (d->tensor.rank != 4 || wt->tensor.rank != 4)
    return op_fail(err, errlen, "data and weight must have rank 4, got %d and %d", d->tensor.rank,
                   wt->tensor.rank);
  const int64_t *ds = d->tensor.shape, *ws = wt->tensor.shape;
  if (groups < 1)
    return op_fail(err, errlen, "groups must be positive, got %lld", (long long)groups);
  if (ds[1] % groups || ws[0] % groups)
    return op_fail(err, errlen, "groups=%lld must divide the %lld input and %lld output channels",
                   (long long)groups, (long long)ds[1], (long long)ws[0]);
  if (ws[1] != ds[1] / groups)
    return op_fail(err, errlen, "weight has %lld input channels, expected %lld / %lld groups",
                   (long long)ws[1], (long long)ds[1], (long long)groups);
  if (ws[2] < 1 || ws[3] < 1)
    return op_fail(err, errlen, "kernel must be at least 1x1");
  if (has_channels && channels != ws[0])
    return op_fail(err, errlen, "channels=%lld but the weight has %lld output channels",
                   (long long)channels, (long long)ws[0]);
  if (nks >= 0 && (nks != 2 || ksize[0] != ws[2] || ksize[1] != ws[3]))
    return op_fail(err, errlen, "kernel_size does not match the weight's %lldx%lld",
                   (long long)ws[2], (long long)ws[3]);
  w.k[0] = ws[2];
  w.k[1] = ws[3];
  int64_t o[2];
  if (!win_outs(&r, &w, ds + 2, o))
    return REL_ERROR;
  int64_t shape[4] = {ds[0], ws[0], o[0], o[1]};
  *out = ir_tensor_type(a, odt, 4, shape);
  return REL_OK;
}

/* What the conv2d solver knows while drawing: the result and the choices
 * that bound the weight. */
typedef struct ConvPlan {
  const OpLimits *lim;
  int64_t out_c, out_numel; /* O and numel(result) */
  int64_t cg, kh;           /* input channels per group; kernel height once drawn */
} ConvPlan;

/* Weight [O, cg, kh, kw] within the dims, numel and flops limits. */
static bool conv_weight_ok(const ConvPlan *p, int64_t cg, int64_t kh, int64_t kw) {
  int64_t per = mul_sat(mul_sat(cg, kh), kw);
  return cg <= p->lim->max_dim && kh <= p->lim->max_dim && kw <= p->lim->max_dim &&
         mul_sat(p->out_c, per) <= p->lim->max_numel &&
         mul_sat(p->out_numel, per) <= p->lim->max_flops;
}

/* Kernel height k leaves room for a kernel width of 1. */
static bool conv_kh_ok(const void *ctx, int64_t k) {
  const ConvPlan *p = ctx;
  return conv_weight_ok(p, p->cg, k, 1);
}

/* Kernel width k fits next to the drawn kernel height. */
static bool conv_kw_ok(const void *ctx, int64_t k) {
  const ConvPlan *p = ctx;
  return conv_weight_ok(p, p->cg, p->kh, k);
}

/* True when groups g leaves room for one input channel per group. */
static bool conv_groups_ok(const Type *t, const OpLimits *lim, int64_t g) {
  const int64_t *s = t->tensor.shape;
  int64_t out_c = s[1];
  return (out_c ? out_c % g == 0 : g == 1) && g <= lim->max_dim &&
         mul_sat(mul_sat(s[0], g), mul_sat(s[2], s[3])) <= lim->max_numel;
}

bool rec_conv2d(OpId op, const Type *want, const OpLimits *lim) {
  if (!tensor_fits(lim, want, OP_NUMERIC) || want->tensor.rank != 4)
    return false;
  const int64_t *s = want->tensor.shape;
  ConvPlan p = {lim, s[1], numel_of(4, s), 1, 1};
  return s[2] >= 1 && s[3] >= 1 && conv_groups_ok(want, lim, 1) && conv_weight_ok(&p, 1, 1, 1);
}

bool solve_conv2d(OpId op, const Type *want, OpSolveCtx *cx, OpSig *sig) {
  if (!rec_conv2d(op, want, cx->lim))
    return false;
  memset(sig, 0, sizeof *sig);
  const OpLimits *lim = cx->lim;
  const int64_t *s = want->tensor.shape;
  int64_t n = s[0], oc = s[1], oh = s[2], ow = s[3];
  ConvPlan p = {lim, oc, numel_of(4, s), 1, 1};
  /* groups: the c-th divisor of O that leaves room */
  uint32_t ng = 0, c;
  for (int64_t g = 1; g <= (oc ? min64(oc, lim->max_dim) : 1); g++)
    ng += conv_groups_ok(want, lim, g);
  c = op_choose(cx->ch, ng);
  int64_t g = 1;
  for (;; g++)
    if (conv_groups_ok(want, lim, g) && c-- == 0)
      break;
  int64_t cgmax =
      min64(lim->max_dim / g, quota(lim->max_numel, mul_sat(mul_sat(n, g), mul_sat(oh, ow))));
  cgmax = min64(cgmax, quota(lim->max_numel, oc));
  cgmax = min64(cgmax, quota(lim->max_flops, p.out_numel));
  p.cg = pick(cx, 1, cgmax);
  int64_t ic = g * p.cg;
  Axis h, w;
  draw_axis(cx, oh, min64(lim->max_dim, quota(lim->max_numel, mul_sat(mul_sat(n, ic), ow))), false,
            conv_kh_ok, &p, &h);
  p.kh = h.k;
  draw_axis(cx, ow, min64(lim->max_dim, quota(lim->max_numel, mul_sat(mul_sat(n, ic), h.n))), false,
            conv_kw_ok, &p, &w);

  Attrs *at = &sig->attrs;
  set_pair(cx, at, "strides", h.s, w.s);
  set_padding(cx, at, &h, &w);
  set_pair(cx, at, "dilation", h.d, w.d);
  ir_attr_set_int(cx->arena, at, "groups", g);
  if (op_choose(cx->ch, 2))
    ir_attr_set_int(cx->arena, at, "channels", oc);
  else
    ir_attr_set_none(cx->arena, at, "channels");
  if (op_choose(cx->ch, 2))
    set_pair(cx, at, "kernel_size", h.k, w.k);
  else
    ir_attr_set_none(cx->arena, at, "kernel_size");
  ir_attr_set_str(cx->arena, at, "data_layout", "NCHW");
  ir_attr_set_str(cx->arena, at, "kernel_layout", "OIHW");
  DType in = pick_out_dtype(cx, at, want->tensor.dtype);
  int64_t ds[4] = {n, ic, h.n, w.n}, ws[4] = {oc, p.cg, h.k, w.k};
  sig->nargs = 2;
  sig->args[0] = tensor(cx, in, 4, ds);
  sig->args[1] = tensor(cx, in, 4, ws);
  RelStatus st = rel_conv2d(op, sig->args, 2, at, cx->arena, &sig->ret, NULL, 0);
  assert(st == REL_OK && ir_type_equal(sig->ret, want));
  return st == REL_OK;
}

bool sample_conv2d(OpId op, OpSolveCtx *cx, OpSig *sig) {
  int64_t shape[4];
  if (cx->lim->max_rank < 4)
    return false;
  op_draw_shape(cx, 4, min64(cx->lim->max_numel, cx->lim->max_flops), shape);
  return solve_conv2d(op, tensor(cx, op_draw_dtype(cx, OP_NUMERIC), 4, shape), cx, sig);
}

void k_conv2d(OpId op, Tensor *const *args, int nargs, const Attrs *at, Tensor *const *outs,
              int nouts, Arena *scratch) {
  const Tensor *x = args[0], *wt = args[1];
  Tensor *r = outs[0];
  Win w = win_of(op, at);
  int64_t groups = ir_attr_int(at, "groups", 1);
  int64_t ic = x->shape[1], ih = x->shape[2], iw = x->shape[3];
  int64_t oc = r->shape[1], oh = r->shape[2], ow = r->shape[3];
  int64_t cg = wt->shape[1], kh = wt->shape[2], kw = wt->shape[3], per_group = oc / groups;
  int64_t idx = 0;
  for (int64_t n = 0; n < r->shape[0]; n++)
    for (int64_t o = 0; o < oc; o++)
      for (int64_t y = 0; y < oh; y++)
        for (int64_t z = 0; z < ow; z++) {
          Acc acc = acc_new(r->dtype);
          int64_t c0 = (o / per_group) * cg;
          for (int64_t c = 0; c < cg; c++)
            for (int64_t ky = 0; ky < kh; ky++)
              for (int64_t kx = 0; kx < kw; kx++) {
                int64_t iy = y * w.s[0] + ky * w.d[0] - w.pad[0];
                int64_t ix = z * w.s[1] + kx * w.d[1] - w.pad[1];
                if (iy < 0 || iy >= ih || ix < 0 || ix >= iw)
                  continue; /* zero padding */
                acc_mad(&acc, x, ((n * ic + c0 + c) * ih + iy) * iw + ix, wt,
                        ((o * cg + c) * kh + ky) * kw + kx);
              }
          acc_store(&acc, r, idx++);
        }
}

/* ------------------------------------------------------------- pool2d */

RelStatus rel_pool2d(OpId op, Type *const *args, int nargs, const Attrs *at, Arena *a, Type **out,
                     char *err, size_t errlen) {
  RelStatus st = op_want_tensors(args, nargs, 1, err, errlen);
  if (st != REL_OK)
    return st;
  AttrReader r = rd_begin(op, at, err, errlen);
  const Type *d = args[0];
  Win w = {.ceil = false};
  rd_pair(&r, "pool_size", w.k);
  rd_window(&r, &w);
  rd_layout(&r, "layout", "NCHW");
  w.ceil = rd_bool(&r, "ceil_mode", false);
  if (op == OP_AVG_POOL2D)
    rd_bool(&r, "count_include_pad", false);
  if (r.bad || !want_dtype(&r, d, op == OP_MAX_POOL2D ? OP_NUMERIC : OP_FLOATS, "data"))
    return REL_ERROR;
  if (d->tensor.rank != 4)
    return op_fail(err, errlen, "data must have rank 4 (NCHW), got %d", d->tensor.rank);
  int64_t o[2];
  if (!win_outs(&r, &w, d->tensor.shape + 2, o))
    return REL_ERROR;
  int64_t shape[4] = {d->tensor.shape[0], d->tensor.shape[1], o[0], o[1]};
  *out = ir_tensor_type(a, d->tensor.dtype, 4, shape);
  return REL_OK;
}

bool rec_pool2d(OpId op, const Type *want, const OpLimits *lim) {
  return tensor_fits(lim, want, op == OP_MAX_POOL2D ? OP_NUMERIC : OP_FLOATS) &&
         want->tensor.rank == 4 && want->tensor.shape[2] >= 1 && want->tensor.shape[3] >= 1;
}

/* Pools have no weight: every pool size fits. */
static bool pool_k_ok(const void *ctx, int64_t k) {
  return true;
}

bool solve_pool2d(OpId op, const Type *want, OpSolveCtx *cx, OpSig *sig) {
  if (!rec_pool2d(op, want, cx->lim))
    return false;
  memset(sig, 0, sizeof *sig);
  const OpLimits *lim = cx->lim;
  const int64_t *s = want->tensor.shape;
  int64_t nc = mul_sat(s[0], s[1]);
  bool ceil = op_choose(cx->ch, 2);
  Axis h, w;
  draw_axis(cx, s[2], min64(lim->max_dim, quota(lim->max_numel, mul_sat(nc, s[3]))), ceil,
            pool_k_ok, NULL, &h);
  draw_axis(cx, s[3], min64(lim->max_dim, quota(lim->max_numel, mul_sat(nc, h.n))), ceil, pool_k_ok,
            NULL, &w);
  Attrs *at = &sig->attrs;
  set_pair(cx, at, "pool_size", h.k, w.k);
  set_pair(cx, at, "strides", h.s, w.s);
  set_pair(cx, at, "dilation", h.d, w.d);
  set_padding(cx, at, &h, &w);
  ir_attr_set_str(cx->arena, at, "layout", "NCHW");
  ir_attr_set_bool(cx->arena, at, "ceil_mode", ceil);
  if (op == OP_AVG_POOL2D)
    ir_attr_set_bool(cx->arena, at, "count_include_pad", op_choose(cx->ch, 2));
  int64_t ds[4] = {s[0], s[1], h.n, w.n};
  sig->nargs = 1;
  sig->args[0] = tensor(cx, want->tensor.dtype, 4, ds);
  RelStatus st = rel_pool2d(op, sig->args, 1, at, cx->arena, &sig->ret, NULL, 0);
  assert(st == REL_OK && ir_type_equal(sig->ret, want));
  return st == REL_OK;
}

bool sample_pool2d(OpId op, OpSolveCtx *cx, OpSig *sig) {
  int64_t shape[4];
  if (cx->lim->max_rank < 4)
    return false;
  op_draw_shape(cx, 4, cx->lim->max_numel, shape);
  DType dt = op_draw_dtype(cx, op == OP_MAX_POOL2D ? OP_NUMERIC : OP_FLOATS);
  return solve_pool2d(op, tensor(cx, dt, 4, shape), cx, sig);
}

/* The smallest value of an integer dtype: what max pooling pads with. */
static int64_t int_min_of(DType dt) {
  switch (dt) {
  case DT_INT8: return INT8_MIN;
  case DT_INT32: return INT32_MIN;
  default: return INT64_MIN;
  }
}

/* The larger of m and v as max kernels define it: the first NaN wins and
 * +0 is greater than -0. */
static double max_f(double m, double v) {
  if (isnan(m) || isnan(v))
    return isnan(m) ? m : v;
  return v > m || (v == m && signbit(m) && !signbit(v)) ? v : m;
}

/* Max pooling of one window; padding taps are -inf (or the dtype's
 * minimum) and a NaN tap makes the result NaN. */
static void pool_max(const Tensor *x, int64_t base, int64_t ih, int64_t iw, const Win *w,
                     int64_t y0, int64_t x0, Tensor *r, int64_t ri) {
  bool fl = ir_dtype_is_float(x->dtype);
  double mf = -INFINITY;
  int64_t mi = int_min_of(x->dtype);
  for (int64_t ky = 0; ky < w->k[0]; ky++)
    for (int64_t kx = 0; kx < w->k[1]; kx++) {
      int64_t iy = y0 + ky * w->d[0], ix = x0 + kx * w->d[1];
      if (iy < 0 || iy >= ih || ix < 0 || ix >= iw)
        continue;
      if (fl) {
        mf = max_f(mf, ir_tensor_get_f64(x, base + iy * iw + ix));
      } else {
        int64_t v = ir_tensor_get_i64(x, base + iy * iw + ix);
        mi = v > mi ? v : mi;
      }
    }
  if (fl)
    ir_tensor_set_f64(r, ri, mf);
  else
    ir_tensor_set_i64(r, ri, mi);
}

/* Average pooling of one window: the sum of the input taps divided by
 * their count, or with count_include_pad by the taps inside input plus
 * the written padding (not the ceil_mode overhang), as TOPI does; 0 when
 * that count is 0. */
static void pool_avg(const Tensor *x, int64_t base, int64_t ih, int64_t iw, const Win *w, bool cip,
                     int64_t y0, int64_t x0, Tensor *r, int64_t ri) {
  double sum = 0;
  int64_t real = 0, padded = 0;
  for (int64_t ky = 0; ky < w->k[0]; ky++)
    for (int64_t kx = 0; kx < w->k[1]; kx++) {
      int64_t iy = y0 + ky * w->d[0], ix = x0 + kx * w->d[1];
      if (iy <= ih - 1 + w->pad[2] && ix <= iw - 1 + w->pad[3])
        padded++;
      if (iy < 0 || iy >= ih || ix < 0 || ix >= iw)
        continue;
      sum += ir_tensor_get_f64(x, base + iy * iw + ix);
      real++;
    }
  int64_t count = cip ? padded : real;
  ir_tensor_set_f64(r, ri, count ? sum / (double)count : 0.0);
}

void k_pool2d(OpId op, Tensor *const *args, int nargs, const Attrs *at, Tensor *const *outs,
              int nouts, Arena *scratch) {
  const Tensor *x = args[0];
  Tensor *r = outs[0];
  Win w = win_of(op, at);
  bool cip = ir_attr_bool(at, "count_include_pad", false);
  int64_t ih = x->shape[2], iw = x->shape[3], oh = r->shape[2], ow = r->shape[3];
  int64_t ri = 0;
  for (int64_t nc = 0; nc < x->shape[0] * x->shape[1]; nc++)
    for (int64_t y = 0; y < oh; y++)
      for (int64_t z = 0; z < ow; z++, ri++) {
        int64_t y0 = y * w.s[0] - w.pad[0], x0 = z * w.s[1] - w.pad[1];
        if (op == OP_MAX_POOL2D)
          pool_max(x, nc * ih * iw, ih, iw, &w, y0, x0, r, ri);
        else
          pool_avg(x, nc * ih * iw, ih, iw, &w, cip, y0, x0, r, ri);
      }
}

/* --------------------------------------------------- global_avg_pool2d */

RelStatus rel_global_pool2d(OpId op, Type *const *args, int nargs, const Attrs *at, Arena *a,
                            Type **out, char *err, size_t errlen) {
  RelStatus st = op_want_tensors(args, nargs, 1, err, errlen);
  if (st != REL_OK)
    return st;
  AttrReader r = rd_begin(op, at, err, errlen);
  rd_layout(&r, "layout", "NCHW");
  if (r.bad || !want_dtype(&r, args[0], OP_FLOATS, "data"))
    return REL_ERROR;
  if (args[0]->tensor.rank != 4)
    return op_fail(err, errlen, "data must have rank 4 (NCHW), got %d", args[0]->tensor.rank);
  int64_t shape[4] = {args[0]->tensor.shape[0], args[0]->tensor.shape[1], 1, 1};
  *out = ir_tensor_type(a, args[0]->tensor.dtype, 4, shape);
  return REL_OK;
}

bool rec_global_pool2d(OpId op, const Type *want, const OpLimits *lim) {
  return tensor_fits(lim, want, OP_FLOATS) && want->tensor.rank == 4 &&
         want->tensor.shape[2] == 1 && want->tensor.shape[3] == 1;
}

bool solve_global_pool2d(OpId op, const Type *want, OpSolveCtx *cx, OpSig *sig) {
  if (!rec_global_pool2d(op, want, cx->lim))
    return false;
  memset(sig, 0, sizeof *sig);
  const OpLimits *lim = cx->lim;
  int64_t nc = mul_sat(want->tensor.shape[0], want->tensor.shape[1]);
  int64_t h = pick(cx, 1, min64(lim->max_dim, quota(lim->max_numel, nc)));
  int64_t w = pick(cx, 1, min64(lim->max_dim, quota(lim->max_numel, mul_sat(nc, h))));
  ir_attr_set_str(cx->arena, &sig->attrs, "layout", "NCHW");
  int64_t ds[4] = {want->tensor.shape[0], want->tensor.shape[1], h, w};
  sig->nargs = 1;
  sig->args[0] = tensor(cx, want->tensor.dtype, 4, ds);
  RelStatus st = rel_global_pool2d(op, sig->args, 1, &sig->attrs, cx->arena, &sig->ret, NULL, 0);
  assert(st == REL_OK && ir_type_equal(sig->ret, want));
  return st == REL_OK;
}

bool sample_global_pool2d(OpId op, OpSolveCtx *cx, OpSig *sig) {
  int64_t shape[4];
  if (cx->lim->max_rank < 4)
    return false;
  op_draw_shape(cx, 2, cx->lim->max_numel, shape);
  shape[2] = shape[3] = 1;
  return solve_global_pool2d(op, tensor(cx, op_draw_dtype(cx, OP_FLOATS), 4, shape), cx, sig);
}

void k_global_pool2d(OpId op, Tensor *const *args, int nargs, const Attrs *at, Tensor *const *outs,
                     int nouts, Arena *scratch) {
  const Tensor *x = args[0];
  int64_t hw = x->shape[2] * x->shape[3];
  for (int64_t nc = 0; nc < outs[0]->numel; nc++) {
    double sum = 0;
    for (int64_t i = 0; i < hw; i++)
      sum += ir_tensor_get_f64(x, nc * hw + i);
    ir_tensor_set_f64(outs[0], nc, hw ? sum / (double)hw : NAN);
  }
}

/* ------------------------------------------------- axis-wise operators */

/* Splits a shape around axis: outer * len * inner elements. */
static void split_axis(const Tensor *t, int axis, int64_t *outer, int64_t *len, int64_t *inner) {
  *outer = 1;
  *inner = 1;
  for (int i = 0; i < axis; i++)
    *outer *= t->shape[i];
  for (int i = axis + 1; i < t->rank; i++)
    *inner *= t->shape[i];
  *len = t->shape[axis];
}

/* Reads an axis attribute valid for rank (in [lo, rank), lo >= -rank) and
 * normalises it. */
static int rd_axis(AttrReader *r, int64_t dflt, int rank, int64_t lo) {
  int64_t v = rd_int(r, "axis", dflt);
  if (r->bad)
    return 0;
  if (lo < -rank)
    lo = -rank; /* a rank-0 tensor has no axis at all, not even -1 */
  if (v < lo || v >= rank) {
    rd_fail(r, "axis %lld out of range [%lld, %d) for rank %d", (long long)v, (long long)lo, rank,
            rank);
    return 0;
  }
  return (int)(v < 0 ? v + rank : v);
}

/* Draws a float tensor type of rank >= 1 within the limits. */
static Type *draw_float_tensor(OpSolveCtx *cx, uint32_t allowed) {
  int64_t shape[IR_MAX_RANK];
  int rank = draw_shape(cx, 1, cx->lim->max_rank, cx->lim->max_numel, shape);
  return tensor(cx, op_draw_dtype(cx, allowed), rank, shape);
}

/* ------------------------------------------------------------ softmax */

RelStatus rel_softmax(OpId op, Type *const *args, int nargs, const Attrs *at, Arena *a, Type **out,
                      char *err, size_t errlen) {
  RelStatus st = op_want_tensors(args, nargs, 1, err, errlen);
  if (st != REL_OK)
    return st;
  AttrReader r = rd_begin(op, at, err, errlen);
  int rank = args[0]->tensor.rank;
  rd_axis(&r, -1, rank, -rank);
  if (r.bad || !want_dtype(&r, args[0], OP_FLOATS, "data"))
    return REL_ERROR;
  *out = ir_type_copy(a, args[0]);
  return REL_OK;
}

bool rec_softmax(OpId op, const Type *want, const OpLimits *lim) {
  return tensor_fits(lim, want, OP_FLOATS) && want->tensor.rank >= 1;
}

bool solve_softmax(OpId op, const Type *want, OpSolveCtx *cx, OpSig *sig) {
  if (!rec_softmax(op, want, cx->lim))
    return false;
  memset(sig, 0, sizeof *sig);
  int rank = want->tensor.rank;
  ir_attr_set_int(cx->arena, &sig->attrs, "axis", pick_axis(cx, rank, -rank, -1, NULL, NULL));
  sig->nargs = 1;
  sig->args[0] = ir_type_copy(cx->arena, want);
  RelStatus st = rel_softmax(op, sig->args, 1, &sig->attrs, cx->arena, &sig->ret, NULL, 0);
  assert(st == REL_OK && ir_type_equal(sig->ret, want));
  return st == REL_OK;
}

bool sample_softmax(OpId op, OpSolveCtx *cx, OpSig *sig) {
  return solve_softmax(op, draw_float_tensor(cx, OP_FLOATS), cx, sig);
}

/* softmax(x) = exp(x - max) / sum exp(x - max) along the axis, computed in
 * double; log_softmax(x) = x - max - log sum exp(x - max). */
void k_softmax(OpId op, Tensor *const *args, int nargs, const Attrs *at, Tensor *const *outs,
               int nouts, Arena *scratch) {
  const Tensor *x = args[0];
  Tensor *r = outs[0];
  int64_t axis = ir_attr_int(at, "axis", -1), outer, len, inner;
  split_axis(x, (int)(axis < 0 ? axis + x->rank : axis), &outer, &len, &inner);
  for (int64_t o = 0; o < outer; o++)
    for (int64_t in = 0; in < inner; in++) {
      int64_t base = o * len * inner + in;
      double m = -INFINITY, sum = 0;
      for (int64_t i = 0; i < len; i++)
        m = max_f(m, ir_tensor_get_f64(x, base + i * inner));
      for (int64_t i = 0; i < len; i++)
        sum += exp(ir_tensor_get_f64(x, base + i * inner) - m);
      for (int64_t i = 0; i < len; i++) {
        double v = ir_tensor_get_f64(x, base + i * inner) - m;
        ir_tensor_set_f64(r, base + i * inner,
                          op == OP_SOFTMAX ? op_fdiv(exp(v), sum) : v - log(sum));
      }
    }
}

/* ----------------------------------------------------------- bias_add */

RelStatus rel_bias_add(OpId op, Type *const *args, int nargs, const Attrs *at, Arena *a, Type **out,
                       char *err, size_t errlen) {
  RelStatus st = op_want_tensors(args, nargs, 2, err, errlen);
  if (st != REL_OK)
    return st;
  AttrReader r = rd_begin(op, at, err, errlen);
  const Type *d = args[0];
  int axis = rd_axis(&r, 1, d->tensor.rank, -d->tensor.rank);
  if (r.bad || !want_dtype(&r, d, OP_NUMERIC, "data") ||
      !want_vector(&r, args[1], d->tensor.shape[axis], d->tensor.dtype, "bias"))
    return REL_ERROR;
  *out = ir_type_copy(a, d);
  return REL_OK;
}

bool rec_bias_add(OpId op, const Type *want, const OpLimits *lim) {
  return tensor_fits(lim, want, OP_NUMERIC) && want->tensor.rank >= 1;
}

bool solve_bias_add(OpId op, const Type *want, OpSolveCtx *cx, OpSig *sig) {
  if (!rec_bias_add(op, want, cx->lim))
    return false;
  memset(sig, 0, sizeof *sig);
  int rank = want->tensor.rank;
  int64_t axis = pick_axis(cx, rank, -rank, 1, NULL, NULL);
  ir_attr_set_int(cx->arena, &sig->attrs, "axis", axis);
  sig->nargs = 2;
  sig->args[0] = ir_type_copy(cx->arena, want);
  sig->args[1] =
      tensor(cx, want->tensor.dtype, 1, &want->tensor.shape[axis < 0 ? axis + rank : axis]);
  RelStatus st = rel_bias_add(op, sig->args, 2, &sig->attrs, cx->arena, &sig->ret, NULL, 0);
  assert(st == REL_OK && ir_type_equal(sig->ret, want));
  return st == REL_OK;
}

bool sample_bias_add(OpId op, OpSolveCtx *cx, OpSig *sig) {
  return solve_bias_add(op, draw_float_tensor(cx, OP_NUMERIC), cx, sig);
}

/* R = A + B[c] where c is the index along axis (integers wrap). */
void k_bias_add(OpId op, Tensor *const *args, int nargs, const Attrs *at, Tensor *const *outs,
                int nouts, Arena *scratch) {
  const Tensor *x = args[0], *b = args[1];
  Tensor *r = outs[0];
  int64_t axis = ir_attr_int(at, "axis", 1), outer, len, inner;
  split_axis(x, (int)(axis < 0 ? axis + x->rank : axis), &outer, &len, &inner);
  for (int64_t i = 0; i < x->numel; i++) {
    int64_t c = (i / inner) % len;
    if (ir_dtype_is_float(x->dtype))
      ir_tensor_set_f64(r, i, ir_tensor_get_f64(x, i) + ir_tensor_get_f64(b, c));
    else
      ir_tensor_set_i64(r, i,
                        u2i((uint64_t)ir_tensor_get_i64(x, i) + (uint64_t)ir_tensor_get_i64(b, c)));
  }
}

/* ------------------------------------------- batch_norm and layer_norm */

/* Reads epsilon, center and scale, common to both normalisations. */
static void rd_norm(AttrReader *r, double *eps, bool *center, bool *scale) {
  *eps = rd_float(r, "epsilon", 1e-5);
  *center = rd_bool(r, "center", true);
  *scale = rd_bool(r, "scale", true);
}

/* Writes epsilon, center and scale (choice 0: Relay's defaults). */
static void set_norm(OpSolveCtx *cx, Attrs *at) {
  static const double eps[] = {1e-5, 1e-3, 0.1, 1.0, 0.0};
  ir_attr_set_float(cx->arena, at, "epsilon", eps[op_choose(cx->ch, 5)]);
  ir_attr_set_bool(cx->arena, at, "center", !op_choose(cx->ch, 2));
  ir_attr_set_bool(cx->arena, at, "scale", !op_choose(cx->ch, 2));
}

RelStatus rel_batch_norm(OpId op, Type *const *args, int nargs, const Attrs *at, Arena *a,
                         Type **out, char *err, size_t errlen) {
  static const char *names[5] = {"data", "gamma", "beta", "moving_mean", "moving_var"};
  RelStatus st = op_want_tensors(args, nargs, 5, err, errlen);
  if (st != REL_OK)
    return st;
  AttrReader r = rd_begin(op, at, err, errlen);
  const Type *d = args[0];
  double eps;
  bool center, scale;
  int axis = rd_axis(&r, 1, d->tensor.rank, -1); /* Relay allows -1 only */
  rd_norm(&r, &eps, &center, &scale);
  if (r.bad || !want_dtype(&r, d, OP_FLOATS, "data"))
    return REL_ERROR;
  for (int i = 1; i < 5; i++)
    if (!want_vector(&r, args[i], d->tensor.shape[axis], d->tensor.dtype, names[i]))
      return REL_ERROR;
  Type *fields[3] = {ir_type_copy(a, d), ir_type_copy(a, args[1]), ir_type_copy(a, args[1])};
  *out = ir_tuple_type(a, 3, fields);
  return REL_OK;
}

/* Whether batch_norm axis value v matches the vector length of want. */
static bool bn_axis_ok(const Type *want, int64_t v, int rank) {
  const Type *d = want->tuple.fields[0], *c = want->tuple.fields[1];
  return d->tensor.shape[v < 0 ? v + rank : v] == c->tensor.shape[0];
}

bool rec_batch_norm(OpId op, const Type *want, const OpLimits *lim) {
  if (!want || want->kind != TY_TUPLE || want->tuple.n != 3)
    return false;
  const Type *d = want->tuple.fields[0], *c = want->tuple.fields[1];
  if (!tensor_fits(lim, d, OP_FLOATS) || d->tensor.rank < 1 || !tensor_fits(lim, c, OP_FLOATS) ||
      c->tensor.rank != 1 || c->tensor.dtype != d->tensor.dtype ||
      !ir_type_equal(c, want->tuple.fields[2]))
    return false;
  for (int i = 0; i < d->tensor.rank; i++)
    if (bn_axis_ok(want, i, d->tensor.rank))
      return true;
  return false;
}

bool solve_batch_norm(OpId op, const Type *want, OpSolveCtx *cx, OpSig *sig) {
  if (!rec_batch_norm(op, want, cx->lim))
    return false;
  memset(sig, 0, sizeof *sig);
  const Type *d = want->tuple.fields[0];
  ir_attr_set_int(cx->arena, &sig->attrs, "axis",
                  pick_axis(cx, d->tensor.rank, -1, 1, bn_axis_ok, want));
  set_norm(cx, &sig->attrs);
  sig->nargs = 5;
  sig->args[0] = ir_type_copy(cx->arena, d);
  for (int i = 1; i < 5; i++)
    sig->args[i] = ir_type_copy(cx->arena, want->tuple.fields[1]);
  RelStatus st = rel_batch_norm(op, sig->args, 5, &sig->attrs, cx->arena, &sig->ret, NULL, 0);
  assert(st == REL_OK && ir_type_equal(sig->ret, want));
  return st == REL_OK;
}

bool sample_batch_norm(OpId op, OpSolveCtx *cx, OpSig *sig) {
  Type *d = draw_float_tensor(cx, OP_FLOATS);
  int axis = (int)op_choose(cx->ch, (uint32_t)d->tensor.rank);
  Type *c = tensor(cx, d->tensor.dtype, 1, &d->tensor.shape[axis]);
  Type *fields[3] = {d, c, c};
  return solve_batch_norm(op, ir_tuple_type(cx->arena, 3, fields), cx, sig);
}

/* Inference batch norm with the moving statistics:
 * R = (A - mean[c]) / sqrt(var[c] + eps) * gamma[c] + beta[c], gamma
 * taken as 1 unless scale and beta as 0 unless center; the second and
 * third outputs are moving_mean and moving_var unchanged. */
void k_batch_norm(OpId op, Tensor *const *args, int nargs, const Attrs *at, Tensor *const *outs,
                  int nouts, Arena *scratch) {
  const Tensor *x = args[0], *gamma = args[1], *beta = args[2], *mean = args[3], *var = args[4];
  int64_t axis = ir_attr_int(at, "axis", 1), outer, len, inner;
  double eps = ir_attr_float(at, "epsilon", 1e-5);
  bool center = ir_attr_bool(at, "center", true), scale = ir_attr_bool(at, "scale", true);
  split_axis(x, (int)(axis < 0 ? axis + x->rank : axis), &outer, &len, &inner);
  for (int64_t i = 0; i < x->numel; i++) {
    int64_t c = (i / inner) % len;
    double v = op_fdiv(ir_tensor_get_f64(x, i) - ir_tensor_get_f64(mean, c),
                       sqrt(ir_tensor_get_f64(var, c) + eps));
    if (scale)
      v *= ir_tensor_get_f64(gamma, c);
    if (center)
      v += ir_tensor_get_f64(beta, c);
    ir_tensor_set_f64(outs[0], i, v);
  }
  for (int64_t c = 0; c < len; c++) {
    elem_convert(mean, c, outs[1], c);
    elem_convert(var, c, outs[2], c);
  }
}

RelStatus rel_layer_norm(OpId op, Type *const *args, int nargs, const Attrs *at, Arena *a,
                         Type **out, char *err, size_t errlen) {
  RelStatus st = op_want_tensors(args, nargs, 3, err, errlen);
  if (st != REL_OK)
    return st;
  AttrReader r = rd_begin(op, at, err, errlen);
  const Type *d = args[0];
  double eps;
  bool center, scale;
  int axis = rd_axis(&r, -1, d->tensor.rank, -d->tensor.rank);
  rd_norm(&r, &eps, &center, &scale);
  if (r.bad || !want_dtype(&r, d, OP_FLOATS, "data") ||
      !want_vector(&r, args[1], d->tensor.shape[axis], d->tensor.dtype, "gamma") ||
      !want_vector(&r, args[2], d->tensor.shape[axis], d->tensor.dtype, "beta"))
    return REL_ERROR;
  *out = ir_type_copy(a, d);
  return REL_OK;
}

bool rec_layer_norm(OpId op, const Type *want, const OpLimits *lim) {
  return tensor_fits(lim, want, OP_FLOATS) && want->tensor.rank >= 1;
}

bool solve_layer_norm(OpId op, const Type *want, OpSolveCtx *cx, OpSig *sig) {
  if (!rec_layer_norm(op, want, cx->lim))
    return false;
  memset(sig, 0, sizeof *sig);
  int rank = want->tensor.rank;
  int64_t axis = pick_axis(cx, rank, -rank, -1, NULL, NULL);
  ir_attr_set_int(cx->arena, &sig->attrs, "axis", axis);
  set_norm(cx, &sig->attrs);
  Type *c = tensor(cx, want->tensor.dtype, 1, &want->tensor.shape[axis < 0 ? axis + rank : axis]);
  sig->nargs = 3;
  sig->args[0] = ir_type_copy(cx->arena, want);
  sig->args[1] = sig->args[2] = c;
  RelStatus st = rel_layer_norm(op, sig->args, 3, &sig->attrs, cx->arena, &sig->ret, NULL, 0);
  assert(st == REL_OK && ir_type_equal(sig->ret, want));
  return st == REL_OK;
}

bool sample_layer_norm(OpId op, OpSolveCtx *cx, OpSig *sig) {
  return solve_layer_norm(op, draw_float_tensor(cx, OP_FLOATS), cx, sig);
}

/* R = (A - mean) / sqrt(var + eps) * gamma + beta with the (population)
 * mean and variance of each slice along axis. */
void k_layer_norm(OpId op, Tensor *const *args, int nargs, const Attrs *at, Tensor *const *outs,
                  int nouts, Arena *scratch) {
  const Tensor *x = args[0], *gamma = args[1], *beta = args[2];
  int64_t axis = ir_attr_int(at, "axis", -1), outer, len, inner;
  double eps = ir_attr_float(at, "epsilon", 1e-5);
  bool center = ir_attr_bool(at, "center", true), scale = ir_attr_bool(at, "scale", true);
  split_axis(x, (int)(axis < 0 ? axis + x->rank : axis), &outer, &len, &inner);
  if (len == 0)
    return; /* nothing to normalise, nothing to write */
  for (int64_t o = 0; o < outer; o++)
    for (int64_t in = 0; in < inner; in++) {
      int64_t base = o * len * inner + in;
      double mean = 0, var = 0;
      for (int64_t i = 0; i < len; i++)
        mean += ir_tensor_get_f64(x, base + i * inner);
      mean /= (double)len;
      for (int64_t i = 0; i < len; i++) {
        double dv = ir_tensor_get_f64(x, base + i * inner) - mean;
        var += dv * dv;
      }
      var /= (double)len;
      for (int64_t i = 0; i < len; i++) {
        double v = op_fdiv(ir_tensor_get_f64(x, base + i * inner) - mean, sqrt(var + eps));
        if (scale)
          v *= ir_tensor_get_f64(gamma, i);
        if (center)
          v += ir_tensor_get_f64(beta, i);
        ir_tensor_set_f64(outs[0], base + i * inner, v);
      }
    }
}

/* ---------------------------------------------------------------- pad */

typedef enum PadMode { PAD_CONSTANT, PAD_EDGE, PAD_REFLECT } PadMode;

static const char *const pad_modes[3] = {"constant", "edge", "reflect"};

/* Reads pad_width (pairs, one per dim of rank; absent means no padding)
 * and pad_mode. */
static PadMode rd_pad(AttrReader *r, int rank, int64_t *before, int64_t *after) {
  const Attr *x = ir_attr_get(r->at, "pad_width");
  memset(before, 0, sizeof(int64_t) * IR_MAX_RANK);
  memset(after, 0, sizeof(int64_t) * IR_MAX_RANK);
  if (x && x->kind != AV_PAIRS)
    rd_fail(r, "pad_width must be a list of pairs");
  else if (x && x->n != rank)
    rd_fail(r, "pad_width has %d pairs for rank %d", x->n, rank);
  else
    for (int i = 0; x && i < rank; i++) {
      before[i] = x->ints[2 * i];
      after[i] = x->ints[2 * i + 1];
    }
  const char *mode = rd_str(r, "pad_mode", "constant");
  for (int m = 0; m < 3; m++)
    if (strcmp(mode, pad_modes[m]) == 0)
      return (PadMode)m;
  rd_fail(r, "pad_mode \"%s\" is not constant, edge or reflect", mode);
  return PAD_CONSTANT;
}

RelStatus rel_pad(OpId op, Type *const *args, int nargs, const Attrs *at, Arena *a, Type **out,
                  char *err, size_t errlen) {
  RelStatus st = op_want_tensors(args, nargs, 2, err, errlen);
  if (st != REL_OK)
    return st;
  AttrReader r = rd_begin(op, at, err, errlen);
  const Type *d = args[0];
  int rank = d->tensor.rank;
  int64_t before[IR_MAX_RANK], after[IR_MAX_RANK], shape[IR_MAX_RANK];
  PadMode mode = rd_pad(&r, rank, before, after);
  if (r.bad)
    return REL_ERROR;
  if (args[1]->tensor.rank != 0)
    return op_fail(err, errlen, "pad_value must be a scalar, got rank %d", args[1]->tensor.rank);
  for (int i = 0; i < rank; i++) {
    int64_t n = d->tensor.shape[i];
    if (__builtin_add_overflow(n, before[i], &shape[i]) ||
        __builtin_add_overflow(shape[i], after[i], &shape[i]))
      return op_fail(err, errlen, "pad_width too large in dim %d", i);
    if (shape[i] < 0)
      return op_fail(err, errlen, "padding dim %d of extent %lld by (%lld, %lld) leaves %lld", i,
                     (long long)n, (long long)before[i], (long long)after[i], (long long)shape[i]);
    int64_t last; /* the kernel reads index o - before for o < shape */
    if (__builtin_sub_overflow(shape[i], before[i], &last))
      return op_fail(err, errlen, "pad_width too large in dim %d", i);
    if (mode == PAD_EDGE && n == 0 && shape[i] > 0)
      return op_fail(err, errlen, "edge padding needs a non-empty dim %d", i);
    if (mode == PAD_REFLECT && (before[i] > n - 1 || after[i] > n - 1) &&
        (before[i] > 0 || after[i] > 0))
      return op_fail(err, errlen, "reflect padding (%lld, %lld) of dim %d needs pads below %lld",
                     (long long)before[i], (long long)after[i], i, (long long)n);
  }
  *out = ir_tensor_type(a, d->tensor.dtype, rank, shape);
  return REL_OK;
}

bool rec_pad(OpId op, const Type *want, const OpLimits *lim) {
  return tensor_fits(lim, want, OP_ALL) && lim->max_numel >= 1;
}

/* Smallest data extent the solver uses for output extent t in mode m
 * (reflect pads at most n - 1 on each side). */
static int64_t pad_min_extent(int64_t t, PadMode m) {
  if (t == 0)
    return 0;
  return m == PAD_REFLECT ? (t + 4) / 3 : 1;
}

/* Draws, per dim, the data extent n (choice 0: n = t, no padding) and the
 * split of t - n into before and after (both >= 0, or both <= 0 when the
 * data is cropped); data numel stays within the limit because each later
 * dim can still take its minimal extent. */
bool solve_pad(OpId op, const Type *want, OpSolveCtx *cx, OpSig *sig) {
  if (!rec_pad(op, want, cx->lim))
    return false;
  memset(sig, 0, sizeof *sig);
  const OpLimits *lim = cx->lim;
  int rank = want->tensor.rank;
  const int64_t *t = want->tensor.shape;
  PadMode mode = (PadMode)op_choose(cx->ch, 3);
  int64_t shape[IR_MAX_RANK], pairs[2 * IR_MAX_RANK], used = 1;
  for (int i = 0; i < rank; i++) {
    int64_t rest = 1;
    for (int j = i + 1; j < rank; j++)
      rest = mul_sat(rest, pad_min_extent(t[j], mode));
    int64_t n = 0, lo = pad_min_extent(t[i], mode);
    if (t[i] > 0)
      n = pick_pref(
          cx, lo, max64(lo, min64(lim->max_dim, quota(lim->max_numel, mul_sat(used, rest)))), t[i]);
    int64_t s = t[i] - n, b;
    if (t[i] == 0)
      b = 0;
    else if (s < 0)
      b = pick(cx, s, 0);
    else if (mode == PAD_REFLECT)
      b = pick(cx, max64(0, s - (n - 1)), min64(s, n - 1));
    else
      b = pick(cx, 0, s);
    shape[i] = n;
    pairs[2 * i] = b;
    pairs[2 * i + 1] = s - b;
    used = mul_sat(used, n);
  }
  ir_attr_set_pairs(cx->arena, &sig->attrs, "pad_width", rank, pairs);
  ir_attr_set_str(cx->arena, &sig->attrs, "pad_mode", pad_modes[mode]);
  DType vdt = op_choose(cx->ch, 2) ? op_draw_dtype(cx, OP_ALL) : want->tensor.dtype;
  sig->nargs = 2;
  sig->args[0] = tensor(cx, want->tensor.dtype, rank, shape);
  sig->args[1] = ir_scalar_type(cx->arena, vdt);
  RelStatus st = rel_pad(op, sig->args, 2, &sig->attrs, cx->arena, &sig->ret, NULL, 0);
  assert(st == REL_OK && ir_type_equal(sig->ret, want));
  return st == REL_OK;
}

bool sample_pad(OpId op, OpSolveCtx *cx, OpSig *sig) {
  int64_t shape[IR_MAX_RANK];
  int rank = draw_shape(cx, 0, cx->lim->max_rank, cx->lim->max_numel, shape);
  return solve_pad(op, tensor(cx, op_draw_dtype(cx, OP_ALL), rank, shape), cx, sig);
}

/* R[o] = A[o - before] where inside; outside, the pad value converted to
 * A's dtype (constant), the nearest element (edge) or the mirror image
 * without repeating the border (reflect). */
void k_pad(OpId op, Tensor *const *args, int nargs, const Attrs *at, Tensor *const *outs, int nouts,
           Arena *scratch) {
  const Tensor *x = args[0];
  Tensor *r = outs[0];
  int64_t before[IR_MAX_RANK], after[IR_MAX_RANK], coord[IR_MAX_RANK];
  AttrReader rd = {at, NULL, 0, false};
  PadMode mode = rd_pad(&rd, x->rank, before, after);
  size_t size = (size_t)ir_dtype_size(x->dtype);
  for (int64_t o = 0; o < r->numel; o++) {
    op_unravel(o, r->rank, r->shape, coord);
    int64_t src = 0;
    bool inside = true;
    for (int i = 0; i < x->rank && inside; i++) {
      int64_t n = x->shape[i], k = coord[i] - before[i];
      if (k < 0 || k >= n) {
        if (mode == PAD_CONSTANT)
          inside = false;
        else if (mode == PAD_EDGE)
          k = k < 0 ? 0 : n - 1;
        else
          k = k < 0 ? -k : 2 * (n - 1) - k;
      }
      src = src * n + k;
    }
    if (inside)
      memcpy((char *)r->data + (size_t)o * size, (const char *)x->data + (size_t)src * size, size);
    else
      elem_convert(args[1], 0, r, o);
  }
}
