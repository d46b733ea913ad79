/*
 * naive.c - the table of naive kernels (naive.h) and the helpers they
 * share: reading and writing elements with the documented conversions,
 * coordinates, attributes.
 */
#include "naive.h"

#include <math.h>
#include <string.h>

/* Every operator's naive kernel, and whether its floats are compared
 * exactly.  NV_CLOSE: conv2d and avg_pool2d (the definition does not say
 * in which order a window is summed), layer_norm (nor how the variance
 * is computed). */
static const NvOp table[OP_COUNT] = {
    [OP_NEGATIVE] = {nv_unary, NV_EXACT},
    [OP_ABS] = {nv_unary, NV_EXACT},
    [OP_EXP] = {nv_unary, NV_EXACT},
    [OP_LOG] = {nv_unary, NV_EXACT},
    [OP_SQRT] = {nv_unary, NV_EXACT},
    [OP_RSQRT] = {nv_unary, NV_EXACT},
    [OP_SIGMOID] = {nv_unary, NV_EXACT},
    [OP_TANH] = {nv_unary, NV_EXACT},
    [OP_RELU] = {nv_unary, NV_EXACT},
    [OP_FLOOR] = {nv_unary, NV_EXACT},
    [OP_CEIL] = {nv_unary, NV_EXACT},
    [OP_ROUND] = {nv_unary, NV_EXACT},
    [OP_SIGN] = {nv_unary, NV_EXACT},
    [OP_LOGICAL_NOT] = {nv_unary, NV_EXACT},
    [OP_COPY] = {nv_unary, NV_EXACT},
    [OP_CLIP] = {nv_unary, NV_EXACT},
    [OP_CAST] = {nv_cast, NV_EXACT},
    [OP_ADD] = {nv_binary, NV_EXACT},
    [OP_SUBTRACT] = {nv_binary, NV_EXACT},
    [OP_MULTIPLY] = {nv_binary, NV_EXACT},
    [OP_DIVIDE] = {nv_binary, NV_EXACT},
    [OP_POWER] = {nv_binary, NV_EXACT},
    [OP_MAXIMUM] = {nv_binary, NV_EXACT},
    [OP_MINIMUM] = {nv_binary, NV_EXACT},
    [OP_EQUAL] = {nv_binary, NV_EXACT},
    [OP_NOT_EQUAL] = {nv_binary, NV_EXACT},
    [OP_LESS] = {nv_binary, NV_EXACT},
    [OP_LESS_EQUAL] = {nv_binary, NV_EXACT},
    [OP_GREATER] = {nv_binary, NV_EXACT},
    [OP_GREATER_EQUAL] = {nv_binary, NV_EXACT},
    [OP_LOGICAL_AND] = {nv_binary, NV_EXACT},
    [OP_LOGICAL_OR] = {nv_binary, NV_EXACT},
    [OP_WHERE] = {nv_where, NV_EXACT},
    [OP_SUM] = {nv_reduce, NV_EXACT},
    [OP_MEAN] = {nv_reduce, NV_EXACT},
    [OP_MAX] = {nv_reduce, NV_EXACT},
    [OP_MIN] = {nv_reduce, NV_EXACT},
    [OP_PROD] = {nv_reduce, NV_EXACT},
    [OP_ARGMAX] = {nv_reduce, NV_EXACT},
    [OP_ARGMIN] = {nv_reduce, NV_EXACT},
    [OP_RESHAPE] = {nv_row_major, NV_EXACT},
    [OP_TRANSPOSE] = {nv_transpose, NV_EXACT},
    [OP_EXPAND_DIMS] = {nv_row_major, NV_EXACT},
    [OP_SQUEEZE] = {nv_row_major, NV_EXACT},
    [OP_BROADCAST_TO] = {nv_broadcast_to, NV_EXACT},
    [OP_CONCATENATE] = {nv_concatenate, NV_EXACT},
    [OP_STACK] = {nv_stack, NV_EXACT},
    [OP_SPLIT] = {nv_split, NV_EXACT},
    [OP_STRIDED_SLICE] = {nv_strided_slice, NV_EXACT},
    [OP_TAKE] = {nv_take, NV_EXACT},
    [OP_TILE] = {nv_tile, NV_EXACT},
    [OP_REVERSE] = {nv_reverse, NV_EXACT},
    [OP_ZEROS] = {nv_fill, NV_EXACT},
    [OP_ONES] = {nv_fill, NV_EXACT},
    [OP_FULL] = {nv_full, NV_EXACT},
    [OP_ZEROS_LIKE] = {nv_fill, NV_EXACT},
    [OP_ONES_LIKE] = {nv_fill, NV_EXACT},
    [OP_DENSE] = {nv_dense, NV_EXACT},
    [OP_BATCH_MATMUL] = {nv_batch_matmul, NV_EXACT},
    [OP_CONV2D] = {nv_conv2d, NV_CLOSE},
    [OP_MAX_POOL2D] = {nv_pool2d, NV_EXACT},
    [OP_AVG_POOL2D] = {nv_pool2d, NV_CLOSE},
    [OP_GLOBAL_AVG_POOL2D] = {nv_global_avg_pool2d, NV_EXACT},
    [OP_SOFTMAX] = {nv_softmax, NV_EXACT},
    [OP_LOG_SOFTMAX] = {nv_softmax, NV_EXACT},
    [OP_BIAS_ADD] = {nv_bias_add, NV_EXACT},
    [OP_BATCH_NORM] = {nv_batch_norm, NV_EXACT},
    [OP_LAYER_NORM] = {nv_layer_norm, NV_CLOSE},
    [OP_PAD] = {nv_pad, NV_EXACT},
    [OP_GATHER] = {nv_gather, NV_EXACT},
    [OP_GATHER_ND] = {nv_gather_nd, NV_EXACT},
    [OP_SCATTER_ELEMENTS] = {nv_scatter_elements, NV_EXACT},
};

const NvOp *nv_op(OpId op) {
  return (unsigned)op < OP_COUNT ? &table[op] : NULL;
}

/* --------------------------------------------------------------- values */

double nv_f(const Tensor *t, int64_t i) {
  switch (t->dtype) {
  case DT_FLOAT32: {
    float v;
    memcpy(&v, (const char *)t->data + 4 * i, 4);
    return v;
  }
  case DT_FLOAT64: {
    double v;
    memcpy(&v, (const char *)t->data + 8 * i, 8);
    return v;
  }
  default: return (double)nv_i(t, i);
  }
}

int64_t nv_i(const Tensor *t, int64_t i) {
  switch (t->dtype) {
  case DT_BOOL: return ((const uint8_t *)t->data)[i] != 0;
  case DT_INT8: return ((const int8_t *)t->data)[i];
  case DT_INT32: {
    int32_t v;
    memcpy(&v, (const char *)t->data + 4 * i, 4);
    return v;
  }
  case DT_INT64: {
    int64_t v;
    memcpy(&v, (const char *)t->data + 8 * i, 8);
    return v;
  }
  default: {
    /* A float read as an integer: as cast converts it. */
    Tensor one = {.dtype = DT_INT64, .rank = 0, .numel = 1};
    int64_t v;
    one.data = &v;
    nv_put_f(&one, 0, nv_f(t, i));
    return v;
  }
  }
}

/* v saturated into [lo, hi], NaN to 0. */
static int64_t saturate(double v, int64_t lo, int64_t hi) {
  if (isnan(v))
    return 0;
  if (v <= (double)lo)
    return lo;
  if (v >= (double)hi) /* (double)INT64_MAX is 2^63, above every int64 */
    return hi;
  return (int64_t)v; /* toward zero */
}

void nv_put_f(Tensor *t, int64_t i, double v) {
  switch (t->dtype) {
  case DT_FLOAT32: {
    float f = (float)v;
    memcpy((char *)t->data + 4 * i, &f, 4);
    return;
  }
  case DT_FLOAT64: memcpy((char *)t->data + 8 * i, &v, 8); return;
  case DT_BOOL: ((uint8_t *)t->data)[i] = v != 0; return;
  case DT_INT8: ((int8_t *)t->data)[i] = (int8_t)saturate(v, INT8_MIN, INT8_MAX); return;
  case DT_INT32: {
    int32_t x = (int32_t)saturate(v, INT32_MIN, INT32_MAX);
    memcpy((char *)t->data + 4 * i, &x, 4);
    return;
  }
  case DT_INT64: {
    int64_t x = saturate(v, INT64_MIN, INT64_MAX);
    memcpy((char *)t->data + 8 * i, &x, 8);
    return;
  }
  default: return;
  }
}

void nv_put_i(Tensor *t, int64_t i, int64_t v) {
  uint64_t u = (uint64_t)v;
  switch (t->dtype) {
  case DT_FLOAT32:
  case DT_FLOAT64: nv_put_f(t, i, (double)v); return;
  case DT_BOOL: ((uint8_t *)t->data)[i] = v != 0; return;
  case DT_INT8: ((uint8_t *)t->data)[i] = (uint8_t)u; return;
  case DT_INT32: {
    uint32_t x = (uint32_t)u;
    memcpy((char *)t->data + 4 * i, &x, 4);
    return;
  }
  case DT_INT64: memcpy((char *)t->data + 8 * i, &u, 8); return;
  default: return;
  }
}

void nv_put(Tensor *dst, int64_t i, const Tensor *src, int64_t j) {
  if (src->dtype == DT_FLOAT32 || src->dtype == DT_FLOAT64)
    nv_put_f(dst, i, nv_f(src, j));
  else
    nv_put_i(dst, i, nv_i(src, j));
}

void nv_convert(const Tensor *x, int64_t j, DType dt, double *f, int64_t *i) {
  char buf[8];
  Tensor t = {.dtype = dt, .rank = 0, .numel = 1, .data = buf};
  nv_put(&t, 0, x, j);
  *f = nv_f(&t, 0);
  *i = dt == DT_FLOAT32 || dt == DT_FLOAT64 ? 0 : nv_i(&t, 0);
}

double nv_div(double a, double b) {
  if (b != 0)
    return a / b;
  if (a == 0 || isnan(a))
    return NAN;
  return (a < 0) == (signbit(b) != 0) ? INFINITY : -INFINITY;
}

double nv_step(DType dt, double v) {
  return dt == DT_FLOAT32 ? (double)(float)v : v;
}

double nv_max(double a, double b) {
  if (isnan(a) || isnan(b))
    return isnan(a) ? a : b;
  if (a == b)
    return signbit(a) ? b : a;
  return a > b ? a : b;
}

double nv_min(double a, double b) {
  if (isnan(a) || isnan(b))
    return isnan(a) ? a : b;
  if (a == b)
    return signbit(a) ? a : b;
  return a < b ? a : b;
}

/* ---------------------------------------------------------- coordinates */

void nv_coord(int rank, const int64_t *shape, int64_t i, int64_t *c) {
  for (int d = rank - 1; d >= 0; d--) {
    c[d] = shape[d] ? i % shape[d] : 0;
    i = shape[d] ? i / shape[d] : 0;
  }
}

int64_t nv_index(int rank, const int64_t *shape, const int64_t *c) {
  int64_t i = 0;
  for (int d = 0; d < rank; d++)
    i = i * shape[d] + c[d];
  return i;
}

int64_t nv_broadcast(const Tensor *x, int rc, const int64_t *c) {
  int64_t cx[IR_MAX_RANK];
  for (int d = 0; d < x->rank; d++) {
    int64_t k = c[rc - x->rank + d];
    cx[d] = x->shape[d] == 1 ? 0 : k;
  }
  return nv_index(x->rank, x->shape, cx);
}

int nv_axis(int64_t axis, int rank) {
  return (int)(axis < 0 ? axis + rank : axis);
}

/* ----------------------------------------------------------- attributes */

const Attr *nv_attr(const Attrs *at, const char *name) {
  for (int i = 0; at && i < at->n; i++)
    if (strcmp(at->items[i].name, name) == 0)
      return at->items[i].kind == AV_NONE ? NULL : &at->items[i];
  return NULL;
}

int64_t nv_int(const Attrs *at, const char *name, int64_t dflt) {
  const Attr *a = nv_attr(at, name);
  return a && (a->kind == AV_INT || a->kind == AV_BOOL) ? a->i : dflt;
}

double nv_float(const Attrs *at, const char *name, double dflt) {
  const Attr *a = nv_attr(at, name);
  if (!a)
    return dflt;
  return a->kind == AV_FLOAT ? a->f : a->kind == AV_INT ? (double)a->i : dflt;
}

bool nv_bool(const Attrs *at, const char *name, bool dflt) {
  const Attr *a = nv_attr(at, name);
  return a && (a->kind == AV_BOOL || a->kind == AV_INT) ? a->i != 0 : dflt;
}

const char *nv_str(const Attrs *at, const char *name, const char *dflt) {
  const Attr *a = nv_attr(at, name);
  return a && a->kind == AV_STR ? a->s : dflt;
}

const int64_t *nv_ints(const Attrs *at, const char *name, int *n) {
  const Attr *a = nv_attr(at, name);
  if (!a || (a->kind != AV_INTS && a->kind != AV_PAIRS)) {
    *n = 0;
    return NULL;
  }
  *n = a->n;
  return a->ints;
}

void nv_pair(const Attrs *at, const char *name, int64_t *v) {
  int n;
  const int64_t *p = nv_ints(at, name, &n);
  v[0] = n == 2 ? p[0] : 1;
  v[1] = n == 2 ? p[1] : 1;
}

void nv_padding(const Attrs *at, int64_t *pad) {
  int n;
  const int64_t *p = nv_ints(at, "padding", &n);
  for (int i = 0; i < 4; i++)
    pad[i] = n == 1 ? p[0] : n == 2 ? p[i % 2] : n == 4 ? p[i] : 0;
}
