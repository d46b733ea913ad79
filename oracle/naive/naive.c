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
 * is computed), conv1d and conv2d_transpose (as conv2d). */
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
    /* binary.c */
    [OP_MOD] = {nv_binary2, NV_EXACT},
    [OP_FLOOR_MOD] = {nv_binary2, NV_EXACT},
    [OP_FLOOR_DIVIDE] = {nv_binary2, NV_EXACT},
    [OP_LOGICAL_XOR] = {nv_binary2, NV_EXACT},
    [OP_BITWISE_AND] = {nv_binary2, NV_EXACT},
    [OP_BITWISE_OR] = {nv_binary2, NV_EXACT},
    [OP_BITWISE_XOR] = {nv_binary2, NV_EXACT},
    [OP_LEFT_SHIFT] = {nv_binary2, NV_EXACT},
    [OP_RIGHT_SHIFT] = {nv_binary2, NV_EXACT},
    /* math.c */
    [OP_BITWISE_NOT] = {nv_math, NV_EXACT},
    [OP_TRUNC] = {nv_math, NV_EXACT},
    [OP_ERF] = {nv_math, NV_EXACT},
    [OP_SIN] = {nv_math, NV_EXACT},
    [OP_COS] = {nv_math, NV_EXACT},
    [OP_TAN] = {nv_math, NV_EXACT},
    [OP_ASIN] = {nv_math, NV_EXACT},
    [OP_ACOS] = {nv_math, NV_EXACT},
    [OP_ATAN] = {nv_math, NV_EXACT},
    [OP_SINH] = {nv_math, NV_EXACT},
    [OP_COSH] = {nv_math, NV_EXACT},
    [OP_ASINH] = {nv_math, NV_EXACT},
    [OP_ACOSH] = {nv_math, NV_EXACT},
    [OP_ATANH] = {nv_math, NV_EXACT},
    [OP_LOG2] = {nv_math, NV_EXACT},
    [OP_LOG10] = {nv_math, NV_EXACT},
    [OP_ISNAN] = {nv_math, NV_EXACT},
    [OP_ISINF] = {nv_math, NV_EXACT},
    [OP_ISFINITE] = {nv_math, NV_EXACT},
    /* stats.c */
    [OP_REDUCE_ALL] = {nv_stats, NV_EXACT},
    [OP_REDUCE_ANY] = {nv_stats, NV_EXACT},
    [OP_LOGSUMEXP] = {nv_stats, NV_EXACT},
    [OP_VARIANCE] = {nv_stats, NV_EXACT},
    [OP_STD] = {nv_stats, NV_EXACT},
    /* cumulative.c */
    [OP_CUMSUM] = {nv_cumulative, NV_EXACT},
    [OP_CUMPROD] = {nv_cumulative, NV_EXACT},
    [OP_LEAKY_RELU] = {nv_leaky_relu, NV_EXACT},
    [OP_PRELU] = {nv_prelu, NV_EXACT},
    [OP_DROPOUT] = {nv_dropout, NV_EXACT},
    [OP_L2_NORMALIZE] = {nv_l2_normalize, NV_EXACT},
    [OP_LRN] = {nv_lrn, NV_EXACT},
    [OP_INSTANCE_NORM] = {nv_group_norm, NV_EXACT},
    [OP_GROUP_NORM] = {nv_group_norm, NV_EXACT},
    [OP_GLOBAL_MAX_POOL2D] = {nv_global_max_pool2d, NV_EXACT},
    [OP_ADAPTIVE_AVG_POOL2D] = {nv_adaptive_pool2d, NV_EXACT},
    [OP_ADAPTIVE_MAX_POOL2D] = {nv_adaptive_pool2d, NV_EXACT},
    [OP_MATMUL] = {nv_matmul, NV_EXACT},
    [OP_CONV1D] = {nv_conv1d, NV_CLOSE},
    [OP_CONV2D_TRANSPOSE] = {nv_conv2d_transpose, NV_CLOSE},
    [OP_GATHER] = {nv_gather, NV_EXACT},
    [OP_GATHER_ND] = {nv_gather_nd, NV_EXACT},
    [OP_SCATTER_ELEMENTS] = {nv_scatter_elements, NV_EXACT},
    /* sort.c */
    [OP_SORT] = {nv_sort, NV_EXACT},
    [OP_ARGSORT] = {nv_sort, NV_EXACT},
    [OP_TOPK] = {nv_sort, NV_EXACT},
    /* transform.c */
    [OP_ONE_HOT] = {nv_one_hot, NV_EXACT},
    [OP_REPEAT] = {nv_repeat, NV_EXACT},
    [OP_BATCH_FLATTEN] = {nv_flat_copy, NV_EXACT},
    [OP_DEPTH_TO_SPACE] = {nv_space_depth, NV_EXACT},
    [OP_SPACE_TO_DEPTH] = {nv_space_depth, NV_EXACT},
    [OP_RESHAPE_LIKE] = {nv_flat_copy, NV_EXACT},
    [OP_COLLAPSE_SUM_LIKE] = {nv_collapse_sum_like, NV_EXACT},
    [OP_SLICE_LIKE] = {nv_slice_like, NV_EXACT},
    /* image.c */
    [OP_LAYOUT_TRANSFORM] = {nv_layout_transform, NV_EXACT},
    [OP_UPSAMPLING] = {nv_resize, NV_EXACT},
    [OP_RESIZE2D] = {nv_resize, NV_EXACT},
    /* arange.c */
    [OP_ARANGE] = {nv_arange, NV_EXACT},
    /* einsum.c */
    [OP_EINSUM] = {nv_einsum, NV_CLOSE},
};

const NvOp *nv_op(OpId op) {
  return (unsigned)op < OP_COUNT ? &table[op] : NULL;
}

/* --------------------------------------------------------------- values */

bool nv_is_float(DType dt) {
  return dt == DT_FLOAT32 || dt == DT_FLOAT64 || dt == DT_FLOAT16 || dt == DT_BFLOAT16;
}

bool nv_is_unsigned(DType dt) {
  return dt == DT_UINT8 || dt == DT_UINT16 || dt == DT_UINT32 || dt == DT_UINT64;
}

bool nv_lt(DType dt, int64_t a, int64_t b) {
  return nv_is_unsigned(dt) ? (uint64_t)a < (uint64_t)b : a < b;
}

/* The bytes of an element of dtype dt. */
static int size_of(DType dt) {
  switch (dt) {
  case DT_BOOL:
  case DT_INT8:
  case DT_UINT8: return 1;
  case DT_INT16:
  case DT_UINT16:
  case DT_FLOAT16:
  case DT_BFLOAT16: return 2;
  case DT_INT32:
  case DT_UINT32:
  case DT_FLOAT32: return 4;
  default: return 8;
  }
}

/* The fraction bits of a 16-bit float format. */
static int frac_bits(DType dt) {
  return dt == DT_FLOAT16 ? 10 : 7;
}

/* The value of the non-negative finite pattern b of a 16-bit float format
 * with f fraction bits, from the format's definition. */
static long double pattern_value(unsigned b, int f) {
  int ebits = 15 - f, bias = (1 << (ebits - 1)) - 1;
  unsigned e = b >> f, m = b & ((1u << f) - 1);
  if (e == 0)
    return ldexpl((long double)m, 1 - bias - f);
  return ldexpl((long double)((1u << f) + m), (int)e - bias - f);
}

/* v (exact in a long double: every double and 64-bit integer is) rounded
 * to a 16-bit float format: the nearest of the two patterns around |v|,
 * found by bisection over the ordered patterns, the even one on a tie. */
static uint16_t round16(long double v, DType dt) {
  int f = frac_bits(dt);
  unsigned inf = (0x7fffu >> f) << f, sign = signbit(v) ? 0x8000u : 0;
  if (isnan(v))
    return (uint16_t)(sign | inf | (1u << (f - 1)));
  long double a = fabsl(v);
  if (isinf(a))
    return (uint16_t)(sign | inf);
  unsigned lo = 0, hi = inf - 1; /* the largest pattern whose value is <= a */
  if (pattern_value(hi, f) <= a) {
    lo = hi;
  } else {
    while (lo + 1 < hi) {
      unsigned mid = (lo + hi) / 2;
      if (pattern_value(mid, f) <= a)
        lo = mid;
      else
        hi = mid;
    }
  }
  /* The next value up: one ulp more (past the largest: 2^(emax+1)). */
  long double vlo = pattern_value(lo, f);
  long double vhi =
      lo + 1 == inf ? 2 * pattern_value(inf - (1u << f), f) : pattern_value(lo + 1, f);
  if (a == vlo)
    return (uint16_t)(sign | lo);
  long double dlo = a - vlo, dhi = vhi - a;
  unsigned pick = dlo < dhi ? lo : dhi < dlo ? lo + 1 : (lo % 2 == 0 ? lo : lo + 1);
  return (uint16_t)(sign | pick);
}

/* The value of a 16-bit float pattern. */
static double value16(uint16_t b, DType dt) {
  int f = frac_bits(dt);
  unsigned inf = (0x7fffu >> f) << f, mag = b & 0x7fffu;
  double v = (mag & inf) == inf ? (mag == inf ? INFINITY : NAN) : (double)pattern_value(mag, f);
  return b & 0x8000u ? -v : v;
}

/* Element i's bits, zero-extended. */
static uint64_t raw(const Tensor *t, int64_t i) {
  int n = size_of(t->dtype);
  uint8_t b[8];
  memcpy(b, (const char *)t->data + n * i, (size_t)n);
  uint64_t u = 0;
  for (int k = n - 1; k >= 0; k--) /* little endian, as the targets are */
    u = u << 8 | b[k];
  return u;
}

/* Store the low bytes of u as element i. */
static void put_raw(Tensor *t, int64_t i, uint64_t u) {
  int n = size_of(t->dtype);
  uint8_t b[8];
  for (int k = 0; k < n; k++)
    b[k] = (uint8_t)(u >> (8 * k));
  memcpy((char *)t->data + n * i, b, (size_t)n);
}

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
  case DT_FLOAT16:
  case DT_BFLOAT16: return value16((uint16_t)raw(t, i), t->dtype);
  case DT_UINT64: return (double)raw(t, i);
  default: return (double)nv_i(t, i);
  }
}

int64_t nv_i(const Tensor *t, int64_t i) {
  if (nv_is_float(t->dtype)) {
    /* A float read as an integer: as cast converts it. */
    Tensor one = {.dtype = DT_INT64, .rank = 0, .numel = 1};
    int64_t v;
    one.data = &v;
    nv_put_f(&one, 0, nv_f(t, i));
    return v;
  }
  uint64_t u = raw(t, i);
  int bits = 8 * size_of(t->dtype);
  if (t->dtype == DT_BOOL)
    return u != 0;
  if (!nv_is_unsigned(t->dtype) && bits < 64 && (u >> (bits - 1)) & 1)
    u |= ~0ull << bits; /* sign-extend */
  int64_t v;
  memcpy(&v, &u, 8);
  return v;
}

uint64_t nv_u(const Tensor *t, int64_t i) {
  return (uint64_t)nv_i(t, i);
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
  case DT_FLOAT16:
  case DT_BFLOAT16: put_raw(t, i, round16(v, t->dtype)); return;
  case DT_BOOL: ((uint8_t *)t->data)[i] = v != 0; return;
  case DT_INT8: put_raw(t, i, (uint64_t)saturate(v, INT8_MIN, INT8_MAX)); return;
  case DT_INT16: put_raw(t, i, (uint64_t)saturate(v, INT16_MIN, INT16_MAX)); return;
  case DT_INT32: put_raw(t, i, (uint64_t)saturate(v, INT32_MIN, INT32_MAX)); return;
  case DT_INT64: put_raw(t, i, (uint64_t)saturate(v, INT64_MIN, INT64_MAX)); return;
  case DT_UINT8: put_raw(t, i, (uint64_t)saturate(v, 0, UINT8_MAX)); return;
  case DT_UINT16: put_raw(t, i, (uint64_t)saturate(v, 0, UINT16_MAX)); return;
  case DT_UINT32: put_raw(t, i, (uint64_t)saturate(v, 0, UINT32_MAX)); return;
  case DT_UINT64: /* [0, 2^64 - 1] */
    put_raw(t, i, isnan(v) || v <= 0 ? 0 : v >= 0x1p64 ? UINT64_MAX : (uint64_t)v);
    return;
  default: return;
  }
}

void nv_put_i(Tensor *t, int64_t i, int64_t v) {
  switch (t->dtype) {
  case DT_FLOAT32: {
    float f = (float)v; /* rounded once, from the integer */
    memcpy((char *)t->data + 4 * i, &f, 4);
    return;
  }
  case DT_FLOAT64: nv_put_f(t, i, (double)v); return;
  case DT_FLOAT16:
  case DT_BFLOAT16: put_raw(t, i, round16((long double)v, t->dtype)); return;
  case DT_BOOL: ((uint8_t *)t->data)[i] = v != 0; return;
  default: put_raw(t, i, (uint64_t)v); return; /* the low bytes: wraps */
  }
}

void nv_put_u(Tensor *t, int64_t i, uint64_t v) {
  switch (t->dtype) {
  case DT_FLOAT32: {
    float f = (float)v;
    memcpy((char *)t->data + 4 * i, &f, 4);
    return;
  }
  case DT_FLOAT64: nv_put_f(t, i, (double)v); return;
  case DT_FLOAT16:
  case DT_BFLOAT16: put_raw(t, i, round16((long double)v, t->dtype)); return;
  case DT_BOOL: ((uint8_t *)t->data)[i] = v != 0; return;
  default: put_raw(t, i, v); return;
  }
}

void nv_put(Tensor *dst, int64_t i, const Tensor *src, int64_t j) {
  if (nv_is_float(src->dtype))
    nv_put_f(dst, i, nv_f(src, j));
  else if (nv_is_unsigned(src->dtype))
    nv_put_u(dst, i, nv_u(src, j));
  else
    nv_put_i(dst, i, nv_i(src, j));
}

void nv_convert(const Tensor *x, int64_t j, DType dt, double *f, int64_t *i) {
  char buf[8];
  Tensor t = {.dtype = dt, .rank = 0, .numel = 1, .data = buf};
  nv_put(&t, 0, x, j);
  *f = nv_f(&t, 0);
  *i = nv_is_float(dt) ? 0 : nv_i(&t, 0);
}

double nv_div(double a, double b) {
  if (b != 0)
    return a / b;
  if (a == 0 || isnan(a))
    return NAN;
  return (a < 0) == (signbit(b) != 0) ? INFINITY : -INFINITY;
}

double nv_step(DType dt, double v) {
  if (dt == DT_FLOAT16 || dt == DT_BFLOAT16)
    return value16(round16(v, dt), dt);
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
