/*
 * util.c - helpers shared by the operator families (see op_int.h).
 */
#include <assert.h>
#include <math.h>
#include <stdarg.h>
#include <string.h>

#include "op_int.h"

/* ------------------------------------------------------------- relations */

RelStatus op_fail(char *err, size_t errlen, const char *fmt, ...) {
  if (err && errlen) {
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err, errlen, fmt, ap);
    va_end(ap);
  }
  return REL_ERROR;
}

RelStatus op_want_tensors(Type *const *args, int nargs, int want, char *err, size_t errlen) {
  if (nargs != want)
    return op_fail(err, errlen, "expects %d argument%s, got %d", want, want == 1 ? "" : "s", nargs);
  for (int i = 0; i < nargs; i++)
    if (!ir_type_complete(args[i]))
      return REL_DEFER;
  for (int i = 0; i < nargs; i++)
    if (args[i]->kind != TY_TENSOR)
      return op_fail(err, errlen, "argument %d is not a tensor", i);
  return REL_OK;
}

RelStatus op_want_shaped(Type *const *args, int nargs, int n, char *err, size_t errlen) {
  RelStatus s = op_want_tensors(args, nargs, n, err, errlen);
  if (s != REL_OK)
    return s;
  for (int i = 0; i < nargs; i++) {
    int64_t c;
    if (args[i]->tensor.rank > IR_MAX_RANK ||
        !op_count_static(args[i]->tensor.rank, args[i]->tensor.shape, &c))
      return op_fail(err, errlen, "argument %d has an invalid shape", i);
  }
  return REL_OK;
}

/* Writes dim d (the i-th) of a shape into buf: ", 3" or "?"; returns the
 * length snprintf gives. */
static size_t dim_str(char *buf, size_t len, int i, int64_t d) {
  if (op_dim_any(d))
    return (size_t)snprintf(buf, len, "%s?", i ? ", " : "");
  return (size_t)snprintf(buf, len, "%s%lld", i ? ", " : "", (long long)d);
}

const char *op_type_str(const Type *t, char *buf, size_t len) {
  if (!t || t->kind != TY_TENSOR) {
    snprintf(buf, len, "a non-tensor");
    return buf;
  }
  size_t n = 0;
  n += (size_t)snprintf(buf, len, "(");
  for (int i = 0; i < t->tensor.rank && n < len; i++)
    n += dim_str(buf + n, len - n, i, t->tensor.shape[i]);
  if (n < len)
    snprintf(buf + n, len - n, "%s) %s", t->tensor.rank == 1 ? "," : "",
             ir_dtype_name(t->tensor.dtype));
  return buf;
}

const char *op_shape_str(char *buf, size_t n, int rank, const int64_t *shape) {
  size_t k = (size_t)snprintf(buf, n, "(");
  for (int i = 0; i < rank && k < n; i++)
    k += dim_str(buf + k, n - k, i, shape[i]);
  if (k < n)
    snprintf(buf + k, n - k, ")");
  return buf;
}

RelStatus op_result(Arena *a, DType dt, int rank, const int64_t *shape, Type **out, char *err,
                    size_t errlen) {
  int64_t n;
  if (rank > IR_MAX_RANK)
    return op_fail(err, errlen, "result rank %d exceeds %d", rank, IR_MAX_RANK);
  if (!op_count_static(rank, shape, &n))
    return op_fail(err, errlen, "result shape is too large");
  *out = ir_tensor_type(a, dt, rank, shape);
  return REL_OK;
}

Type *op_like(Arena *a, const Type *t, int rank, const int64_t *shape) {
  return ir_tensor_type(a, t->tensor.dtype, rank, shape);
}

bool op_axis(int64_t axis, int rank, int *out) {
  if (axis < -rank || axis >= rank)
    return false;
  *out = (int)(axis < 0 ? axis + rank : axis);
  return true;
}

RelStatus op_want_axis(int64_t axis, int rank, int *out, char *err, size_t errlen) {
  if (!op_axis(axis, rank, out))
    return op_fail(err, errlen, "axis %lld is out of range for rank %d", (long long)axis, rank);
  return REL_OK;
}

bool op_broadcast_shape(int ra, const int64_t *a, int rb, const int64_t *b, int *rout,
                        int64_t *out) {
  int r = ra > rb ? ra : rb;
  for (int i = 0; i < r; i++) {
    int64_t da = i < r - ra ? 1 : a[i - (r - ra)];
    int64_t db = i < r - rb ? 1 : b[i - (r - rb)];
    if (!op_dim_bcast(da, db, &out[i]))
      return false;
  }
  *rout = r;
  return true;
}

/* ----------------------------------------------------------- recognizers */

/* op_fits_hint's answer, for the type and limits it was given. */
static _Thread_local struct {
  const Type *t;
  const OpLimits *lim;
  bool fits;
} hint;

void op_fits_hint(const Type *t, const OpLimits *lim) {
  hint.t = NULL;
  if (t) {
    hint.fits = op_fits(t, lim);
    hint.t = t, hint.lim = lim;
  }
}

bool op_fits(const Type *t, const OpLimits *lim) {
  if (t == hint.t && lim == hint.lim && t)
    return hint.fits;
  if (!t || t->kind != TY_TENSOR || t->tensor.rank > lim->max_rank)
    return false;
  /* Every dim and the product (taken without overflow) within max_numel. */
  int64_t n = 1;
  for (int i = 0; i < t->tensor.rank; i++) {
    int64_t d = t->tensor.shape[i];
    if (d < 0 || d > lim->max_numel)
      return false;
    /* n <= max_numel + 1 and d <= max_numel: compare the product without
     * a division (this runs for every recognizer on every wanted type). */
    int64_t p;
    if (__builtin_mul_overflow(n, d, &p) || p > lim->max_numel)
      p = lim->max_numel + 1;
    n = p;
  }
  return n <= lim->max_numel;
}

/* --------------------------------------------------------------- drawing */

int op_draw_rank(OpSolveCtx *cx, int lo, int hi) {
  if (hi > cx->lim->max_rank)
    hi = cx->lim->max_rank;
  if (hi < lo)
    return lo;
  return lo + (int)op_choose(cx->ch, (uint32_t)(hi - lo + 1));
}

int64_t op_draw_dim(OpSolveCtx *cx, int64_t hi) {
  if (hi > cx->lim->max_dim)
    hi = cx->lim->max_dim;
  if (hi < 1)
    return 1;
  return 1 + (int64_t)op_choose(cx->ch, (uint32_t)hi);
}

DType op_draw_dtype(OpSolveCtx *cx, uint32_t allowed) {
  uint32_t mask = allowed & cx->lim->dtypes;
  if (!mask)
    mask = allowed;
  int n = __builtin_popcount(mask);
  uint32_t k = op_choose(cx->ch, (uint32_t)n);
  for (int dt = 0; dt < DT_COUNT; dt++)
    if (mask & (1u << dt))
      if (k-- == 0)
        return (DType)dt;
  return DT_FLOAT32;
}

void op_draw_shape(OpSolveCtx *cx, int rank, int64_t max_numel, int64_t *shape) {
  int64_t left = max_numel < 1 ? 1 : max_numel;
  for (int i = 0; i < rank; i++) {
    shape[i] = op_draw_dim(cx, left);
    left /= shape[i];
  }
}

Type *op_draw_tensor(OpSolveCtx *cx, int lo, int hi, uint32_t allowed) {
  int64_t shape[IR_MAX_RANK];
  int rank = op_draw_rank(cx, lo, hi);
  op_draw_shape(cx, rank, cx->lim->max_numel, shape);
  return ir_tensor_type(cx->arena, op_draw_dtype(cx, allowed), rank, shape);
}

int64_t op_pick_pref(OpSolveCtx *cx, int64_t lo, int64_t hi, int64_t pref) {
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

int64_t op_pick(OpSolveCtx *cx, int64_t lo, int64_t hi) {
  return op_pick_pref(cx, lo, hi, lo);
}

int64_t op_pick_of(OpSolveCtx *cx, const int64_t *cand, int n) {
  assert(n > 0);
  return cand[op_choose(cx->ch, (uint32_t)n)];
}

DType op_pick_out_dtype(OpSolveCtx *cx, Attrs *at, DType want) {
  if (op_choose(cx->ch, 2) == 0) {
    ir_attr_set_str(cx->arena, at, "out_dtype", "");
    return want;
  }
  ir_attr_set_str(cx->arena, at, "out_dtype", ir_dtype_name(want));
  return op_draw_dtype(cx, OP_NUMERIC);
}

Type *op_tensor(OpSolveCtx *cx, DType dt, int rank, const int64_t *shape) {
  return ir_tensor_type(cx->arena, dt, rank, shape);
}

uint32_t op_pick_below(OpSolveCtx *cx, int64_t n) {
  return n <= 1 ? 0 : op_choose(cx->ch, n > UINT32_MAX ? UINT32_MAX : (uint32_t)n);
}

bool op_coin(OpSolveCtx *cx) {
  return op_pick_below(cx, 2) == 1;
}

DType op_pick_dtype(OpSolveCtx *cx, uint32_t mask) {
  uint32_t k = op_pick_below(cx, __builtin_popcount(mask));
  for (int dt = 0; dt < DT_COUNT; dt++)
    if (mask & (1u << dt) && k-- == 0)
      return (DType)dt;
  return DT_INT32;
}

int64_t op_enc_axis(OpSolveCtx *cx, int axis, int range) {
  return op_coin(cx) ? axis - range : axis;
}

void op_maybe_empty(OpSolveCtx *cx, int rank, int64_t *shape) {
  if (cx->lim->min_dim < 1 && rank > 0 && op_pick_below(cx, 8) == 7)
    shape[op_pick_below(cx, rank)] = 0;
}

Type *op_draw_tensor_maybe_empty(OpSolveCtx *cx, int lo, int hi, uint32_t allowed) {
  int64_t shape[IR_MAX_RANK];
  int rank = op_draw_rank(cx, lo, hi < IR_MAX_RANK ? hi : IR_MAX_RANK);
  op_draw_shape(cx, rank, cx->lim->max_numel, shape);
  op_maybe_empty(cx, rank, shape);
  return ir_tensor_type(cx->arena, op_draw_dtype(cx, allowed), rank, shape);
}

int op_draw_npieces(OpSolveCtx *cx, int64_t total, int max) {
  int64_t m = cx->lim->min_dim;
  if (m > 0 && total / m < max)
    max = (int)(total / m);
  return 1 + (int)op_pick_below(cx, max > 1 ? max : 1);
}

void op_draw_pieces(OpSolveCtx *cx, int64_t total, int n, bool exact, int64_t *sizes) {
  int64_t m = cx->lim->min_dim > 0 ? cx->lim->min_dim : 0;
  for (int i = 0; i < n; i++) {
    int64_t rest = m * (n - 1 - i); /* what the pieces after this one need */
    if (exact && i == n - 1)
      sizes[i] = total;
    else
      sizes[i] = m + op_pick_below(cx, total - rest - m + 1);
    total -= sizes[i];
  }
}

void op_sig_start(OpSolveCtx *cx, OpSig *sig, int nargs, const Type *ret) {
  memset(sig, 0, sizeof *sig);
  sig->nargs = nargs;
  sig->ret = ret ? ir_type_copy(cx->arena, ret) : NULL;
}

bool op_sig_claim(OpSolveCtx *cx, OpSig *sig, const Type *want) {
  sig->ret = ir_type_copy(cx->arena, want);
  return true;
}

bool op_sample_tensor(OpSolveFn solve, OpId op, OpSolveCtx *cx, OpSig *sig, int rank,
                      int64_t budget, uint32_t allowed) {
  int64_t shape[IR_MAX_RANK];
  if (cx->lim->max_rank < rank)
    return false;
  op_draw_shape(cx, rank, budget, shape);
  return solve(op, op_tensor(cx, op_draw_dtype(cx, allowed), rank, shape), cx, sig);
}

bool op_can_sample(OpSolveCtx *cx, int lo) {
  return op_rank_cap(cx->lim) >= lo && cx->lim->max_numel >= 1 && (cx->lim->dtypes & OP_ALL);
}

bool op_sample_via(OpSolveFn solve, OpId op, OpSolveCtx *cx, OpSig *sig, int lo) {
  if (!op_can_sample(cx, lo))
    return false;
  Type *t = op_draw_tensor_maybe_empty(cx, lo, op_rank_cap(cx->lim), OP_ALL);
  return solve(op, t, cx, sig);
}

/* --------------------------------------------------------------- kernels */

double op_fmax(double a, double b) {
  if (isnan(a) || isnan(b))
    return isnan(a) ? a : b;
  if (a == b)
    return signbit(a) ? b : a;
  return a > b ? a : b;
}

double op_fmin(double a, double b) {
  if (isnan(a) || isnan(b))
    return isnan(a) ? a : b;
  if (a == b)
    return signbit(a) ? a : b;
  return a < b ? a : b;
}

void op_strides(int rank, const int64_t *shape, int64_t *strides) {
  int64_t s = 1;
  for (int i = rank - 1; i >= 0; i--) {
    strides[i] = s;
    s *= shape[i];
  }
}

void op_unravel(int64_t index, int rank, const int64_t *shape, int64_t *coord) {
  for (int i = rank - 1; i >= 0; i--) {
    int64_t d = shape[i] ? shape[i] : 1;
    coord[i] = index % d;
    index /= d;
  }
}

int64_t op_broadcast_index(const int64_t *coord, int rout, int r, const int64_t *shape) {
  int64_t idx = 0;
  for (int i = 0; i < r; i++) {
    int64_t c = shape[i] == 1 ? 0 : coord[i + (rout - r)];
    idx = idx * shape[i] + c;
  }
  return idx;
}

int64_t op_prod(const int64_t *shape, int lo, int hi) {
  int64_t p = 1;
  for (int i = lo; i < hi; i++)
    p *= shape[i];
  return p;
}

bool op_arity(Tensor *const *args, int nargs, int n, Tensor *const *outs, int nouts, int m) {
  if (nargs != n || nouts != m || m < 1)
    return false;
  for (int i = 0; i < nargs; i++)
    if (args[i]->dtype != outs[0]->dtype)
      return false;
  for (int i = 0; i < nouts; i++)
    if (outs[i]->dtype != outs[0]->dtype)
      return false;
  return true;
}

bool op_has_shape(const Tensor *t, int rank, const int64_t *shape) {
  return t->rank == rank && memcmp(t->shape, shape, sizeof(int64_t) * (size_t)rank) == 0;
}

bool op_want_vector(OpAttrReader *r, const Type *t, int64_t n, DType dt, const char *what) {
  if (t->tensor.rank == 1 && op_dims_match(t->tensor.shape[0], n) && t->tensor.dtype == dt)
    return true;
  char got[160], want[32];
  op_shape_str(want, sizeof want, 1, &n);
  int len = snprintf(got, sizeof got, "Tensor[");
  op_shape_str(got + len, sizeof got - (size_t)len, t->tensor.rank, t->tensor.shape);
  len = (int)strlen(got);
  snprintf(got + len - 1, sizeof got - (size_t)len + 1, "%s), %s]", t->tensor.rank == 1 ? "," : "",
           ir_dtype_name(t->tensor.dtype));
  want[strlen(want) - 1] = 0;
  op_rd_fail(r, "%s must be Tensor[%s,), %s], got %s", what, want, ir_dtype_name(dt), got);
  return false;
}

void op_split_axis(const Tensor *t, int axis, int64_t *outer, int64_t *len, int64_t *inner) {
  *outer = 1;
  *inner = 1;
  for (int i = 0; i < axis; i++)
    *outer *= t->shape[i];
  for (int i = axis + 1; i < t->rank; i++)
    *inner *= t->shape[i];
  *len = t->shape[axis];
}
