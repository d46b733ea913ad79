/*
 * util.h - helpers shared by the operator families: argument checks for
 * relations, axis and shape arithmetic, drawing shapes for solvers and
 * samplers, and index arithmetic for kernels.
 */
#ifndef RELAYC_OPS_UTIL_H
#define RELAYC_OPS_UTIL_H

#include <stdio.h>

#include "op.h"

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

/* Check attrs against the operator's schema in ops.def: every name is
 * known and appears once, and every value has the schema's kind (float
 * also takes an int, bool also takes an int, a trailing ? allows None).
 * Returns REL_OK or REL_ERROR with a message. */
RelStatus op_check_attrs(OpId op, const Attrs *at, char *err, size_t errlen);

/* True when t is a tensor type whose rank and element count are within lim
 * (recognizers use it: a solution's arguments are at least as big). */
bool op_fits(const Type *t, const OpLimits *lim);

/* Normalise an axis in [-rank, rank) to [0, rank); false if out of range. */
bool op_axis(int64_t axis, int rank, int *out);

/* Numpy broadcasting of two shapes; false if incompatible. */
bool op_broadcast_shape(int ra, const int64_t *a, int rb, const int64_t *b, int *rout,
                        int64_t *out);

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

#define OP_FLOATS ((1u << DT_FLOAT32) | (1u << DT_FLOAT64))
#define OP_INTS ((1u << DT_INT8) | (1u << DT_INT32) | (1u << DT_INT64))
#define OP_NUMERIC (OP_FLOATS | OP_INTS)
#define OP_ALL ((1u << DT_COUNT) - 1)

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
