/*
 * op_int.h - what the operator families share, in one private header with a
 * section per file that implements it: argument checks for relations and
 * the tests of recognizers (util.c), shape arithmetic (inline), reading
 * attributes (attrs.c), drawing for solvers and samplers (util.c), the
 * sliding windows of conv2d and the pools (window.c), and index
 * arithmetic and accumulators for kernels (util.c).  Not used outside
 * compiler/ops and its tests.
 */
#ifndef RELAYC_OP_INT_H
#define RELAYC_OP_INT_H

#include <stdio.h>

#include "op.h"

/* Sets of dtypes (bit 1u << DT_x). */
#define OP_FLOATS                                                                                  \
  ((1u << DT_FLOAT32) | (1u << DT_FLOAT64) | (1u << DT_FLOAT16) | (1u << DT_BFLOAT16))
#define OP_SIGNED ((1u << DT_INT8) | (1u << DT_INT16) | (1u << DT_INT32) | (1u << DT_INT64))
#define OP_UNSIGNED ((1u << DT_UINT8) | (1u << DT_UINT16) | (1u << DT_UINT32) | (1u << DT_UINT64))
#define OP_INTS (OP_SIGNED | OP_UNSIGNED)
#define OP_NUMERIC (OP_FLOATS | OP_INTS)
#define OP_ALL ((1u << DT_COUNT) - 1)

/* ---------------------------------------------------- relations (util.c) */

/* Format an error message into a relation's buffer; returns REL_ERROR. */
RelStatus op_fail(char *err, size_t errlen, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* Check that args[i] is known; REL_DEFER if not; REL_ERROR unless a
 * tensor.  Use at the top of a relation: `RelStatus s = op_want_tensors(…);
 * if (s != REL_OK) return s;` */
RelStatus op_want_tensors(Type *const *args, int nargs, int want, char *err, size_t errlen);

/* op_want_tensors, and every shape valid too (op_count_elems). */
RelStatus op_want_shaped(Type *const *args, int nargs, int n, char *err, size_t errlen);

/* Write a tensor type as "(2, 3) float32" into buf (for error messages;
 * relations cannot rely on the printer).  Returns buf. */
const char *op_type_str(const Type *t, char *buf, size_t len);
/* Write a shape as Relay prints it: (2, 3), (3) or ().  Returns buf. */
const char *op_shape_str(char *buf, size_t n, int rank, const int64_t *shape);

/* The result tensor type in *out after checking its rank and size. */
RelStatus op_result(Arena *a, DType dt, int rank, const int64_t *shape, Type **out, char *err,
                    size_t errlen);
/* A fresh tensor type with t's dtype and the given shape, in arena a. */
Type *op_like(Arena *a, const Type *t, int rank, const int64_t *shape);

/* Normalise an axis in [-rank, rank) to [0, rank); false if out of range. */
bool op_axis(int64_t axis, int rank, int *out);
/* op_axis, or REL_ERROR with the standard message. */
RelStatus op_want_axis(int64_t axis, int rank, int *out, char *err, size_t errlen);

/* Numpy broadcasting of two shapes; false if incompatible. */
bool op_broadcast_shape(int ra, const int64_t *a, int rb, const int64_t *b, int *rout,
                        int64_t *out);

/* ------------------------------------------------------------ dims (dim.c) */

/* Every relation sees an Any dim (IR_DIM_ANY) through these, alike:
 *   1. check a constraint statically only when every dim in it is static
 *      (op_dims_match, op_dim_is); the interpreter runs the relation again
 *      on the concrete types, so a skipped check is made at run time;
 *   2. a result dim computed from an Any dim is Any (op_dim_add,
 *      op_dim_mul; a dim copied from an argument stays Any);
 *   3. where dims must be equal, the result takes the static one
 *      (op_dim_meet); broadcasting follows TVM (op_dim_bcast).
 * docs/operators.md, "Dynamic dimensions", shows a relation written so. */

/* Is d an Any dim? */
static inline bool op_dim_any(int64_t d) {
  return ir_dim_is_any(d);
}
/* Is d static and equal to v (a check that holds only for a known dim)? */
static inline bool op_dim_is(int64_t d, int64_t v) {
  return !op_dim_any(d) && d == v;
}
/* May type dim d have the static value v (an attribute's, never Any):
 * d == v, or d is Any (checked at run time)? */
static inline bool op_dim_allows(int64_t d, int64_t v) {
  return d == v || op_dim_any(d);
}
/* May type dims a and b be equal: equal, or either Any (checked at run
 * time)? */
bool op_dims_match(int64_t a, int64_t b);
/* The dim of two that must be equal: the static one, else Any. */
int64_t op_dim_meet(int64_t a, int64_t b);
/* Broadcast two dims into *out (TVM's rules: ? with 1 gives ?, ? with d
 * gives d, ? with ? gives ?); false when both are static and clash. */
bool op_dim_bcast(int64_t a, int64_t b, int64_t *out);
/* a + b and a * b into *out, Any when either is; false on overflow. */
bool op_dim_add(int64_t a, int64_t b, int64_t *out);
bool op_dim_mul(int64_t a, int64_t b, int64_t *out);
/* Is every dim of the shape static? */
bool op_shape_static(int rank, const int64_t *shape);
/* op_count_elems with each Any dim counted as 1: false when a dim is
 * negative (other than Any) or the product overflows. */
bool op_count_static(int rank, const int64_t *shape, int64_t *out);

/* --------------------------------------------------- arithmetic (inline) */

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
/* Elements of a shape in *out; false when a dim is negative or the product
 * of the dims (zero dims counted as one) overflows int64. */
static inline bool op_count_elems(int rank, const int64_t *shape, int64_t *out) {
  int64_t n = 1;
  bool zero = false;
  for (int i = 0; i < rank; i++) {
    if (shape[i] < 0)
      return false;
    if (shape[i] == 0)
      zero = true;
    else if (__builtin_mul_overflow(n, shape[i], &n))
      return false;
  }
  *out = zero ? 0 : n;
  return true;
}
/* Elements of a shape, saturating. */
static inline int64_t op_numel_sat(int rank, const int64_t *shape) {
  int64_t n = 1;
  for (int i = 0; i < rank; i++)
    n = op_mul_sat(n, shape[i]);
  return n;
}
/* Two's complement bits as a signed value (no UB). */
static inline int64_t op_u2i(uint64_t u) {
  int64_t r;
  __builtin_memcpy(&r, &u, sizeof r);
  return r;
}

/* -------------------------------------------------- recognizers (util.c) */

/* Recognizers run for every operator at every node the generator builds,
 * so the tests they share are inline. */

/* True when t is a tensor type whose rank and element count are within lim
 * (recognizers use it: a solution's arguments are at least as big). */
bool op_fits(const Type *t, const OpLimits *lim);

/* op_fits for a tensor type with a dtype in allowed (the dtype, cheaper,
 * is tested first: most recognizers refuse most wanted types by it). */
static inline bool op_fits_dtype(const Type *t, const OpLimits *lim, uint32_t allowed) {
  return t && t->kind == TY_TENSOR && (allowed & (1u << t->tensor.dtype)) && op_fits(t, lim);
}

/* True when t is a tensor type with a dtype in allowed whose rank, every
 * dim (max_dim) and element count are within lim. */
static inline bool op_fits_dims(const OpLimits *lim, const Type *t, uint32_t allowed) {
  if (!t || t->kind != TY_TENSOR || !(allowed & (1u << t->tensor.dtype)) ||
      t->tensor.rank > lim->max_rank)
    return false;
  for (int i = 0; i < t->tensor.rank; i++)
    if (t->tensor.shape[i] > lim->max_dim)
      return false;
  return op_numel_sat(t->tensor.rank, t->tensor.shape) <= lim->max_numel;
}

/* The largest rank a solver may use. */
static inline int op_rank_cap(const OpLimits *lim) {
  return lim->max_rank < IR_MAX_RANK ? lim->max_rank : IR_MAX_RANK;
}

/* True when t is a tensor type of rank at most op_rank_cap whose element
 * count (op_count_elems: a zero dim makes it 0) is within lim. */
static inline bool op_fits_elems(const Type *t, const OpLimits *lim) {
  int64_t n;
  return t && t->kind == TY_TENSOR && t->tensor.rank <= op_rank_cap(lim) &&
         op_count_elems(t->tensor.rank, t->tensor.shape, &n) && n <= lim->max_numel;
}

/* -------------------------------------------------- attributes (attrs.c) */

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
/* The axis attribute, valid for rank when in [lo, rank) (lo >= -rank:
 * a rank-0 tensor has no axis, not even -1), normalised to [0, rank). */
int op_rd_axis(OpAttrReader *r, int64_t dflt, int rank, int64_t lo);
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

/* The getters of the shape, join, index and create families.  They differ
 * from the reader above in ways those relations and their messages rely
 * on: None reads as absent for every attribute, a single int as a
 * one-element list, the first problem is returned at once (REL_ERROR with
 * a message), and a wrong optional int "must be an integer" (not "or
 * None"). */

/* An ints attribute: given is false when absent or None. */
typedef struct OpInts {
  bool given;
  int n;
  const int64_t *v;
} OpInts;

/* An ints attribute; a single integer counts as a one-element list. */
RelStatus op_get_ints(const Attrs *at, const char *name, OpInts *out, char *err, size_t errlen);
/* An ints attribute Relay requires. */
RelStatus op_need_ints(const Attrs *at, const char *name, OpInts *out, char *err, size_t errlen);
/* The shape attribute of broadcast_to, zeros, ones and full: required, of
 * rank at most IR_MAX_RANK, without negative dims. */
RelStatus op_need_shape(const Attrs *at, OpInts *out, char *err, size_t errlen);
/* An optional int attribute: *given is false when absent or None. */
RelStatus op_get_opt_int(const Attrs *at, const char *name, bool *given, int64_t *v, char *err,
                         size_t errlen);
/* An int attribute with a default. */
RelStatus op_get_int(const Attrs *at, const char *name, int64_t dflt, int64_t *v, char *err,
                     size_t errlen);
/* A string attribute with a default. */
RelStatus op_get_str(const Attrs *at, const char *name, const char *dflt, const char **v, char *err,
                     size_t errlen);

/* ------------------------------------------------------ drawing (util.c) */

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
/* Finish a solver's solution with its claim: the result is want.  Solvers
 * and samplers build their solutions by their own arithmetic and never ask
 * the relation (docs/generators.md): a disagreement is the type checker's
 * finding about one of them.  Returns true. */
bool op_sig_claim(OpSolveCtx *cx, OpSig *sig, const Type *want);
/* Sample by drawing a result tensor type of the given rank (numel at most
 * budget, dtype in allowed) and solving for it; false when the limits
 * allow no tensor of that rank. */
bool op_sample_tensor(OpSolveFn solve, OpId op, OpSolveCtx *cx, OpSig *sig, int rank,
                      int64_t budget, uint32_t allowed);

/* The shape, join, index and create families' solvers copy dims from the
 * wanted type and invent dims only up to max_dim and tensors only up to
 * max_numel elements.  Their samplers draw a result type within the limits
 * and solve for it, or draw arguments and compute the result by their own
 * arithmetic. */

/* A choice in [0, n). */
uint32_t op_pick_below(OpSolveCtx *cx, int64_t n);
/* A yes/no choice; no is the simpler. */
bool op_coin(OpSolveCtx *cx);
/* One of the dtypes in a non-empty mask (whatever the limits allow). */
DType op_pick_dtype(OpSolveCtx *cx, uint32_t mask);
/* An axis in [0, range) written as is or counted from the end. */
int64_t op_enc_axis(OpSolveCtx *cx, int axis, int range);
/* Sometimes (the last choice) make one of the rank dims of shape zero,
 * when the limits' min_dim allows empty tensors (otherwise no choice is
 * read). */
void op_maybe_empty(OpSolveCtx *cx, int rank, int64_t *shape);
/* Draw a tensor type: rank in [lo, hi], at most max_numel elements, dtype
 * in allowed, and sometimes one dim of size zero (op_maybe_empty). */
Type *op_draw_tensor_maybe_empty(OpSolveCtx *cx, int lo, int hi, uint32_t allowed);
/* How many pieces, 1 .. max, an extent may be cut into when each piece has
 * at least min_dim elements (total >= 1); choice 0 gives one. */
int op_draw_npieces(OpSolveCtx *cx, int64_t total, int max);
/* Cut an extent into n pieces of at least min_dim each (total >= n *
 * min_dim): their sizes sum to total (exact), or to at most total. */
void op_draw_pieces(OpSolveCtx *cx, int64_t total, int n, bool exact, int64_t *sizes);
/* Start a solution with nargs arguments, no attributes and result ret
 * (copied; NULL: the caller sets it). */
void op_sig_start(OpSolveCtx *cx, OpSig *sig, int nargs, const Type *ret);
/* True when a sampler may draw tensors of rank >= lo at all. */
bool op_can_sample(OpSolveCtx *cx, int lo);
/* Sample by drawing a result type of rank >= lo and solving for it. */
bool op_sample_via(OpSolveFn solve, OpId op, OpSolveCtx *cx, OpSig *sig, int lo);

/* ------------------------------------------------ value types (arange.c) */

/* arange's result type for its operands' values (op_value_type). */
RelStatus op_arange_type(Tensor *const *args, int nargs, Arena *a, Type **out, char *err,
                         size_t errlen);

/* ---------------------------------------------------- windows (window.c) */

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
/* A convolution's channel checks (conv2d, conv1d): groups positive and
 * dividing the data's c channels and the weight's ws[0] output channels,
 * ws[1] = c / groups input channels per group; REL_OK or REL_ERROR. */
RelStatus op_conv_groups(int64_t c, const int64_t *ws, int64_t groups, char *err, size_t errlen);
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

/* ------------------------------------------------------ kernels (util.c) */

/* Kernels: maximum and minimum of two floats as every kernel defines them
 * (maximum, minimum, nn.relu, max, min): a NaN wins (the first one when
 * both are NaN) and +0 is greater than -0. */
double op_fmax(double a, double b);
double op_fmin(double a, double b);

/* Kernels: row-major strides and coordinates. */
void op_strides(int rank, const int64_t *shape, int64_t *strides);
/* Error (on r) unless t is a rank-1 tensor [n] of dtype dt (n or the dim
 * may be Any); what names the argument. */
bool op_want_vector(OpAttrReader *r, const Type *t, int64_t n, DType dt, const char *what);
/* Splits t's shape around axis: outer * len * inner elements. */
void op_split_axis(const Tensor *t, int axis, int64_t *outer, int64_t *len, int64_t *inner);
void op_unravel(int64_t index, int rank, const int64_t *shape, int64_t *coord);
/* Index into a tensor of shape `shape` (rank r) for a coordinate of a
 * broadcast result of rank rout (dims of size 1 repeat). */
int64_t op_broadcast_index(const int64_t *coord, int rout, int r, const int64_t *shape);
/* Advance a row-major coordinate by one. */
static inline void op_next_coord(int rank, const int64_t *shape, int64_t *c) {
  for (int i = rank - 1; i >= 0; i--) {
    if (++c[i] < shape[i])
      return;
    c[i] = 0;
  }
}
/* Product of shape[lo..hi). */
int64_t op_prod(const int64_t *shape, int lo, int hi);

/* The kernels of the shape, join, index and create families check that
 * their tensors agree with the relation before they touch any data, and
 * do nothing otherwise: they never read or write out of bounds, whatever
 * they are given.  Outputs come zero-filled. */

/* True when the kernel got n inputs and m outputs, every one of them of
 * the first output's dtype. */
bool op_arity(Tensor *const *args, int nargs, int n, Tensor *const *outs, int nouts, int m);
/* True when t has the given rank and shape. */
bool op_has_shape(const Tensor *t, int rank, const int64_t *shape);
/* Copy count consecutive elements from src[si] to dst[di] (same dtype). */
static inline void op_copy_run(Tensor *dst, int64_t di, const Tensor *src, int64_t si,
                               int64_t count) {
  size_t n = (size_t)ir_dtype_size(dst->dtype);
  if (count > 0)
    __builtin_memcpy((char *)dst->data + (size_t)di * n, (const char *)src->data + (size_t)si * n,
                     (size_t)count * n);
}

/* Element i of t as a value of float dtype dt (rounded to dt). */
static inline double op_elem_f(const Tensor *t, int64_t i, DType dt) {
  double v = ir_tensor_get_f64(t, i);
  return dt == DT_FLOAT64 ? v : ir_round_float(dt, v);
}

/* a < b for two integer elements of dtype dt read as int64 bits: unsigned
 * dtypes compare as unsigned (a uint64 above INT64_MAX reads negative). */
static inline bool op_int_less(DType dt, int64_t a, int64_t b) {
  return ir_dtype_is_unsigned(dt) ? (uint64_t)a < (uint64_t)b : a < b;
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

/* acc += 0 * y[j]: a tap in zero padding, multiplied as TVM multiplies
 * it (a NaN or infinite y makes the sum NaN; a finite one adds nothing). */
static inline void op_acc_mad_zero(OpAcc *a, const Tensor *y, int64_t j) {
  if (ir_dtype_is_float(a->dt))
    a->f += 0.0 * op_elem_f(y, j, a->dt);
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

/* v rounded to dtype dt (float32, float16, bfloat16: the nearest value,
 * ties to even; float64: v).  A kernel that computes a step in double and
 * rounds it with this gets exactly the step in dt (+, -, *, / and sqrt:
 * double has more than twice the precision of each), as Relay's kernels
 * compute them. */
static inline double op_round(DType dt, double v) {
  return dt == DT_FLOAT32 ? (double)(float)v : dt == DT_FLOAT64 ? v : ir_round_float(dt, v);
}

/* ------------------ shared by the operator families (broadcast.c, reduction.c) */

/* Draw n operand types of dtypes dts that broadcast to exactly (rank,
 * shape), as the broadcasting binary operators' solvers do; choice 0 gives
 * every operand the full shape. */
void op_bcast_operands(OpSolveCtx *cx, int rank, const int64_t *shape, DType *dts, int n,
                       Type **out);
/* The axes (bit i: axis i) a reduction's axis and exclude attributes
 * reduce on a rank-`rank` input, as sum's relation reads them; REL_ERROR
 * on a bad or repeated axis. */
RelStatus op_reduce_mask(const Attrs *at, int rank, uint32_t *mask, char *err, size_t errlen);
/* The result shape (returned: its rank) of reducing x over mask. */
int op_reduce_shape(const Type *x, uint32_t mask, bool keep, int64_t *shape);
/* sum's solver for a result want (non-index reduction op) and input dtype
 * dt: one argument and the attributes axis, keepdims and exclude. */
bool op_reduce_solve(OpId op, const Type *want, OpSolveCtx *cx, OpSig *sig, DType dt);

#endif
