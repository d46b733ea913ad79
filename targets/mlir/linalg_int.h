/*
 * linalg_int.h - what the files of the linalg road share (linalg.c,
 * linalg_ops.c): the second translation of relayc into MLIR, straight to
 * linalg on tensors, tensor, arith and math, with no TOSA (docs/mlir.md,
 * "The linalg road").  Built on the translator's driver and values
 * (translate_int.h): translate.c hands each operator call to lin_emit_op
 * when the road is linalg.  Prefix lin_.
 */
#ifndef RS_MLIR_LINALG_INT_H
#define RS_MLIR_LINALG_INT_H

#include "translate_int.h"

/* An elementwise computation: an operator of the unary, cast or broadcast
 * families (or where), or one of the road's own steps below, on inputs of
 * dtype `in` giving dtype `out`. */
enum {
  LIN_COPY = OP_COUNT + 1, /* the input itself (broadcasting) */
  LIN_TRUNC,               /* f64 -> the out dtype (arith.truncf) */
  LIN_MEAN_TRUNC,          /* f64 / count, then truncf */
  LIN_INT_MEAN,            /* i64 / count (truncating), then trunci */
};

typedef struct LinEw {
  int op; /* OpId or LIN_* */
  DType in, out;
  const Attrs *at; /* clip's bounds */
  int64_t count;   /* the means' */
} LinEw;

/* The elementwise computation e of xs[0..n) broadcast (numpy) to the
 * static type rt: linalg.map when every input has rt's shape, else
 * linalg.generic with the broadcasting indexing maps. */
Val *lin_elementwise(Fn *f, int n, Val *const *xs, const Type *rt, const LinEw *e);
/* x converted to dtype `to` with relayc's cast semantics. */
Val *lin_cast(Fn *f, Val *x, DType to);
/* `tensor.empty() : T` of static type t. */
Val *lin_empty(Fn *f, const Type *t);
/* A tensor of type t filled with v (linalg.fill). */
Val *lin_fill(Fn *f, const Type *t, double v);
/* x with the same elements in the given shape (tensor.collapse_shape and
 * tensor.expand_shape). */
Val *lin_reshape(Fn *f, Val *x, int rank, const int64_t *shape);

/* xs[0..n) joined along axis into static type rt (tensor.concat). */
Val *lin_concat(Fn *f, int n, Val **xs, int axis, const Type *rt);

/* x padded by lo[i] before and hi[i] after dim i with the rank-0 value
 * (cast to x's dtype): tensor.pad. */
Val *lin_pad_value(Fn *f, Val *x, const int64_t *lo, const int64_t *hi, Val *value);
/* The block of x at start with the given sizes and strides (NULL: 1s). */
Val *lin_slice(Fn *f, Val *x, const int64_t *start, const int64_t *size, const int64_t *step);
/* NCHW x padded with value and cropped to what output extents o of
 * window w read. */
Val *lin_window_input(Fn *f, Val *x, const Win *w, const int64_t *o, Val *value);

/* linalg_index.c: strided_slice, reverse, tile, split, stack, nn.pad. */
Val *lin_emit_index(Fn *f, const Expr *e, Val **a, const Type *rt);

/* linalg_ops.c: the other families on the road: reductions, shapes,
 * joins, matmul and nn; rt is the static result type. */
Val *lin_emit_other(Fn *f, const Expr *e, Val **a, const Type *rt);

#endif
