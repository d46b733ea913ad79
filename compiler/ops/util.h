/*
 * util.h - what the operator families share, in one private header with a
 * section per file that implements it: argument checks and shape
 * arithmetic for relations (util.c), reading attributes (attrs.c),
 * drawing for solvers and samplers (util.c), the sliding windows of
 * conv2d and the pools (window.c), and index arithmetic and accumulators
 * for kernels (util.c).  Not used outside compiler/ops and its tests.
 */
#ifndef RELAYC_OPS_UTIL_H
#define RELAYC_OPS_UTIL_H

#include <stdio.h>

#include "op.h"

/* Sets of dtypes (bit 1u << DT_x). */
#define OP_FLOATS ((1u << DT_FLOAT32) | (1u << DT_FLOAT64))
#define OP_INTS ((1u << DT_INT8) | (1u << DT_INT32) | (1u << DT_INT64))
#define OP_NUMERIC (OP_FLOATS | OP_INTS)
#define OP_ALL ((1u << DT_COUNT) - 1)

/* ------------------------------------------------- relations (util.c) */

/* Format an error message into a relation's buffer; returns REL_ERROR. */
RelStatus op_fail(char *err, size_t errlen, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* True when t contains no TY_INCOMPLETE anywhere. */
bool op_known(const Type *t);
/* Check that args[i] is known; REL_DEFER if not; REL_ERROR unless a
 * tensor.  Use at the top of a relation: `RelStatus s = op_want_tensors(…);
 * if (s != REL_OK) return s;` */
RelStatus op_want_tensors(Type *const *args, int nargs, int want, char *err, size_t errlen);

/* Write a tensor type as "(2, 3) float32" into buf (for error messages;
 * relations cannot rely on the printer).  Returns buf. */
const char *op_type_str(const Type *t, char *buf, size_t len);

/* True when t is a tensor type whose rank and element count are within lim
 * (recognizers use it: a solution's arguments are at least as big). */
bool op_fits(const Type *t, const OpLimits *lim);
/* True when t is a tensor type with a dtype in allowed whose rank, every
 * dim (max_dim) and element count are within lim. */
bool op_fits_dims(const OpLimits *lim, const Type *t, uint32_t allowed);

/* Normalise an axis in [-rank, rank) to [0, rank); false if out of range. */
bool op_axis(int64_t axis, int rank, int *out);

/* Numpy broadcasting of two shapes; false if incompatible. */
bool op_broadcast_shape(int ra, const int64_t *a, int rb, const int64_t *b, int *rout,
                        int64_t *out);

/* ------------------------------------------------ arithmetic (util.c) */

/* a * b and a + b for non-negative operands, saturating at INT64_MAX. */
static inline int64_t op_mul_sat(int64_t a, int64_t b) {
  int64_t r;
  return __builtin_mul_overflow(a, b, &r) ? INT64_MAX : r;
}
static inline int64_t op_add_sat(int64_t a, int64_t b) {
  int64_t r;
  return __builtin_add_overflow(a, b, &r) ? INT64_MAX : r;
}
static inline int64_t op_min64(int64_t a, int64_t b) {
  return a < b ? a : b;
}
static inline int64_t op_max64(int64_t a, int64_t b) {
  return a > b ? a : b;
}
/* budget / used, or INT64_MAX when used is 0 (nothing limits the quotient). */
static inline int64_t op_quota(int64_t budget, int64_t used) {
  return used > 0 ? budget / used : INT64_MAX;
}
/* Elements of a shape, saturating. */
int64_t op_numel_sat(int rank, const int64_t *shape);
/* Two's complement bits as a signed value (no UB). */
static inline int64_t op_u2i(uint64_t u) {
  int64_t r;
  __builtin_memcpy(&r, &u, sizeof r);
  return r;
}

/* ------------------------------------------------ attributes (attrs.c) */

/* Check attrs against the operator's schema in ops.def: every name is
 * known and appears once, and every value has the schema's kind (float
 * also takes an int, bool also takes an int, a trailing ? allows None).
 * Returns REL_OK or REL_ERROR with a message. */
RelStatus op_check_attrs(OpId op, const Attrs *at, char *err, size_t errlen);

/* Reads a relation's attributes one at a time, checking each kind; the
 * first problem is formatted into the relation's error buffer and bad is
 * set, and later reads return their defaults.  Kernels read validated
 * attributes with {at, NULL, 0, false}. */
typedef struct OpAttrReader {
  const Attrs *at;
  char *err;
  size_t errlen;
  bool bad;
} OpAttrReader;

/* Starts reading: rejects attribute names op's schema does not list. */
OpAttrReader op_rd_begin(OpId op, const Attrs *at, char *err, size_t errlen);
/* Records the first error. */
void op_rd_fail(OpAttrReader *r, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* An int attribute; absent gives dflt. */
int64_t op_rd_int(OpAttrReader *r, const char *name, int64_t dflt);
/* An optional int attribute (default None): true and *v when set. */
bool op_rd_opt_int(OpAttrReader *r, const char *name, int64_t *v);
/* A bool attribute (True/False, or 0/1); absent gives dflt. */
bool op_rd_bool(OpAttrReader *r, const char *name, bool dflt);
/* A float attribute (an int is accepted); absent gives dflt. */
double op_rd_float(OpAttrReader *r, const char *name, double dflt);
/* A string attribute; absent gives dflt. */
const char *op_rd_str(OpAttrReader *r, const char *name, const char *dflt);
/* An int list of at most max entries into v; absent copies the ndflt
 * defaults.  Returns the count, or -1 when None and none_ok. */
int op_rd_ints(OpAttrReader *r, const char *name, int max, int64_t *v, int ndflt,
               const int64_t *dflt, bool none_ok);
/* An out_dtype attribute: "" (or absent) means in; bool is refused. */
DType op_rd_out_dtype(OpAttrReader *r, DType in);
/* A layout attribute, which must be the only layout supported. */
void op_rd_layout(OpAttrReader *r, const char *name, const char *only);
/* Error through the reader unless t's dtype is in the allowed set. */
bool op_want_dtype(OpAttrReader *r, const Type *t, uint32_t allowed, const char *what);
/* The matrix products' check: numeric operands of one dtype. */
bool op_want_same_numeric(OpAttrReader *r, const Type *x, const Type *y);

/* -------------------------------------------------- drawing (util.c) */

/* Drawing for solvers and samplers.  Every draw uses op_choose, so choice 0
 * gives the smallest option: rank 0..max, dims 1..max_dim, the first
 * allowed dtype. */
int op_draw_rank(OpSolveCtx *cx, int lo, int hi);
int64_t op_draw_dim(OpSolveCtx *cx, int64_t hi);
DType op_draw_dtype(OpSolveCtx *cx, uint32_t allowed);
/* Draw a shape of the given rank with numel <= max_numel. */
void op_draw_shape(OpSolveCtx *cx, int rank, int64_t max_numel, int64_t *shape);
/* Draw a tensor type with rank in [lo, hi] and dtype in allowed. */
Type *op_draw_tensor(OpSolveCtx *cx, int lo, int hi, uint32_t allowed);
/* A value in [lo, hi] (lo <= hi); choice 0 gives pref when it is in range,
 * the other choices the remaining values in increasing order. */
int64_t op_pick_pref(OpSolveCtx *cx, int64_t lo, int64_t hi, int64_t pref);
/* A value in [lo, hi], choice 0 giving lo. */
int64_t op_pick(OpSolveCtx *cx, int64_t lo, int64_t hi);
/* One of the n > 0 candidates, choice 0 giving the first. */
int64_t op_pick_of(OpSolveCtx *cx, const int64_t *cand, int n);
/* Sets out_dtype: choice 0 leaves it "" (the input dtype equals want);
 * otherwise writes want's name and draws the input dtype, returned. */
DType op_pick_out_dtype(OpSolveCtx *cx, Attrs *at, DType want);
/* A tensor type in the solver's arena. */
Type *op_tensor(OpSolveCtx *cx, DType dt, int rank, const int64_t *shape);

/* -------------------------------------------------- windows (window.c) */

/* Sliding-window parameters along H and W (NCHW). */
typedef struct OpWin {
  int64_t k[2], s[2], d[2];
  int64_t pad[4]; /* top, left, bottom, right */
  bool ceil;
} OpWin;

/* Reads a list attribute of exactly two positive values (default 1, 1). */
void op_rd_pair(OpAttrReader *r, const char *name, int64_t *v);
/* Reads strides, dilation and padding (1, 2 or 4 values as in Relay:
 * all sides; top/bottom and left/right; top, left, bottom, right). */
void op_rd_window(OpAttrReader *r, OpWin *w);
/* Computes both output extents into o[2] for input extents in[2], or
 * reports through r why it cannot. */
bool op_win_outs(OpAttrReader *r, const OpWin *w, const int64_t *in, int64_t *o);
/* The window of validated attributes (kernels): pool_size unless conv2d. */
OpWin op_win_of(OpId op, const Attrs *at);

/* One spatial axis of a solution: kernel, stride, dilation, pads, input. */
typedef struct OpAxis {
  int64_t k, s, d, lo, hi, n;
} OpAxis;
/* Whether a kernel extent fits the caller's budgets (extent 1 always must). */
typedef bool (*OpKernelOk)(const void *ctx, int64_t k);
/* Draws one axis from the solver family (see window.c) with output extent
 * o >= 1 and input extent at most ncap >= o; kok(ctx, k) limits the
 * kernel extent.  Each draw leaves a completion. */
void op_draw_axis(OpSolveCtx *cx, int64_t o, int64_t ncap, bool ceil, OpKernelOk kok,
                  const void *ctx, OpAxis *ax);
/* Writes padding for two axes; the form (1, 2 or 4 values) is drawn among
 * those that express the pads, the shortest first. */
void op_set_padding(OpSolveCtx *cx, Attrs *at, const OpAxis *h, const OpAxis *w);
/* Writes a two-value list attribute. */
void op_set_pair(OpSolveCtx *cx, Attrs *at, const char *name, int64_t a, int64_t b);

/* -------------------------------------------------- kernels (util.c) */

/* Kernels: maximum and minimum of two floats as every kernel defines them
 * (maximum, minimum, nn.relu, max, min): a NaN wins (the first one when
 * both are NaN) and +0 is greater than -0. */
double op_fmax(double a, double b);
double op_fmin(double a, double b);

/* Kernels: row-major strides and coordinates. */
void op_strides(int rank, const int64_t *shape, int64_t *strides);
void op_unravel(int64_t index, int rank, const int64_t *shape, int64_t *coord);
/* Index into a tensor of shape `shape` (rank r) for a coordinate of a
 * broadcast result of rank rout (dims of size 1 repeat). */
int64_t op_broadcast_index(const int64_t *coord, int rout, int r, const int64_t *shape);

/* Element i of t as a value of float dtype dt (float32 rounds). */
static inline double op_elem_f(const Tensor *t, int64_t i, DType dt) {
  double v = ir_tensor_get_f64(t, i);
  return dt == DT_FLOAT32 ? (double)(float)v : v;
}

/* Element i of t converted to integer dtype dt (floats saturate, ints wrap). */
static inline int64_t op_elem_i(const Tensor *t, int64_t i, DType dt) {
  if (ir_dtype_is_float(t->dtype))
    return ir_sat_f64_to_int(ir_tensor_get_f64(t, i), dt);
  return ir_wrap_int(ir_tensor_get_i64(t, i), dt);
}

/* A multiply-accumulate in the result dtype (dense, batch_matmul, conv2d):
 * doubles for floats, wrapping 64-bit arithmetic for integers (narrowed
 * when stored). */
typedef struct OpAcc {
  DType dt;
  double f;
  uint64_t i;
} OpAcc;

/* An accumulator at zero for dtype dt. */
static inline OpAcc op_acc_new(DType dt) {
  OpAcc a = {dt, 0.0, 0};
  return a;
}

/* acc += x[i] * y[j], each converted to the accumulator's dtype first. */
static inline void op_acc_mad(OpAcc *a, const Tensor *x, int64_t i, const Tensor *y, int64_t j) {
  if (ir_dtype_is_float(a->dt))
    a->f += op_elem_f(x, i, a->dt) * op_elem_f(y, j, a->dt);
  else
    a->i += (uint64_t)op_elem_i(x, i, a->dt) * (uint64_t)op_elem_i(y, j, a->dt);
}

/* Writes the accumulated value to r[k]. */
static inline void op_acc_store(const OpAcc *a, Tensor *r, int64_t k) {
  if (ir_dtype_is_float(a->dt))
    ir_tensor_set_f64(r, k, a->f);
  else
    ir_tensor_set_i64(r, k, op_u2i(a->i));
}

/* IEEE division a / b, with b == 0 spelled out (inf or NaN) so kernels
 * have no float division by zero for UBSan's float-divide-by-zero check. */
static inline double op_fdiv(double a, double b) {
  if (b != 0)
    return a / b;
  if (a == 0 || a != a)
    return __builtin_nan("");
  return (a < 0) != __builtin_signbit(b) ? -__builtin_inf() : __builtin_inf();
}

#endif
