/*
 * text.c - the translator's text: a growing string, and MLIR's spelling
 * of element types, tensor types and exact literals (translate_int.h).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "translate_int.h"

/* Room for more bytes and the NUL in b. */
static void buf_reserve(Buf *b, size_t more) {
  if (b->n + more + 1 <= b->cap)
    return;
  size_t cap = b->cap ? b->cap : 256;
  while (cap < b->n + more + 1)
    cap *= 2;
  char *s = realloc(b->s, cap);
  if (!s)
    abort();
  b->s = s;
  b->cap = cap;
}

void buf_vput(Buf *b, const char *fmt, va_list ap) {
  va_list aq;
  va_copy(aq, ap);
  int n = vsnprintf(NULL, 0, fmt, aq);
  va_end(aq);
  buf_reserve(b, (size_t)n);
  vsnprintf(b->s + b->n, (size_t)n + 1, fmt, ap);
  b->n += (size_t)n;
}

void buf_put(Buf *b, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  buf_vput(b, fmt, ap);
  va_end(ap);
}

/* Insert s at offset at. */
void buf_insert(Buf *b, size_t at, const char *s) {
  size_t k = strlen(s);
  buf_reserve(b, k);
  memmove(b->s + at + k, b->s + at, b->n - at + 1);
  memcpy(b->s + at, s, k);
  b->n += k;
}

/* The MLIR element type of a dtype. */
const char *mty_elem(DType dt) {
  switch (dt) {
  case DT_BOOL: return "i1";
  case DT_INT8: return "i8";
  case DT_INT32: return "i32";
  case DT_INT64: return "i64";
  case DT_FLOAT32: return "f32";
  case DT_FLOAT64: return "f64";
  case DT_INT16: return "i16";
  case DT_FLOAT16: return "f16";
  case DT_BFLOAT16: return "bf16";
  default: return "?"; /* the unsigned ints: MLIR's builtin types are signless */
  }
}

/* "tensor<2x3xf32>" (rank 0: "tensor<f32>"; an Any dim "?") into b. */
void buf_tensor_type(Buf *b, DType dt, int rank, const int64_t *shape) {
  buf_dyn_type(b, dt, rank, shape, 0);
}

void buf_dyn_type(Buf *b, DType dt, int rank, const int64_t *shape, uint32_t mask) {
  buf_put(b, "tensor<");
  for (int i = 0; i < rank; i++)
    if (mask >> i & 1 || ir_dim_is_any(shape[i]))
      buf_put(b, "?x");
    else
      buf_put(b, "%lldx", (long long)shape[i]);
  buf_put(b, "%s>", mty_elem(dt));
}

/* One element as an MLIR literal: floats exact (%.9g round-trips a
 * float32, %.17g a double; NaN and infinities by their bits, since MLIR
 * has no spelling for them), bools true/false. */
void buf_elem(Buf *b, DType dt, double f, int64_t i) {
  if (dt == DT_BOOL) {
    buf_put(b, i ? "true" : "false");
  } else if (!ir_dtype_is_float(dt)) {
    buf_put(b, "%lld", (long long)i);
  } else if (isnan(f) || isinf(f)) {
    static const char *const bits[][3] = {
        {"0x7FC00000", "0x7F800000", "0xFF800000"}, /* float32: NaN, inf, -inf */
        {"0x7FF8000000000000", "0x7FF0000000000000", "0xFFF0000000000000"},
        {"0x7E00", "0x7C00", "0xFC00"}, /* float16 */
        {"0x7FC0", "0x7F80", "0xFF80"}, /* bfloat16 */
    };
    int k = dt == DT_FLOAT32 ? 0 : dt == DT_FLOAT16 ? 2 : dt == DT_BFLOAT16 ? 3 : 1;
    buf_put(b, "%s", bits[k][isnan(f) ? 0 : f > 0 ? 1 : 2]);
  } else {
    char s[40];
    snprintf(s, sizeof s, dt == DT_FLOAT64 ? "%.17g" : "%.9g", f); /* exact in the dtype */
    /* MLIR's float literals need a '.': 1 -> 1.0, 1e+08 -> 1.0e+08. */
    char *e = strchr(s, 'e');
    if (!strchr(s, '.')) {
      if (e) {
        char tail[24];
        snprintf(tail, sizeof tail, "%s", e);
        snprintf(e, sizeof s - (size_t)(e - s), ".0%s", tail);
      } else {
        strcat(s, ".0");
      }
    }
    buf_put(b, "%s", s);
  }
}

/* The number v (an integer value for integer dtypes) as an element. */
void buf_number(Buf *b, DType dt, double v) {
  buf_elem(b, dt, v, ir_dtype_is_float(dt) ? 0 : (int64_t)v);
}

/* Element i of x as put_elem wants it. */
static void buf_elem_of(Buf *b, const Tensor *x, int64_t i) {
  buf_elem(b, x->dtype, ir_tensor_get_f64(x, i), ir_tensor_get_i64(x, i));
}

/* "dense<...> : tensor<...>" for x: a splat when every element has the
 * same bits, else nested lists. */
void buf_dense(Buf *b, const Tensor *x) {
  size_t size = (size_t)ir_dtype_size(x->dtype);
  bool splat = x->numel > 0;
  for (int64_t i = 1; splat && i < x->numel; i++)
    splat = memcmp((const char *)x->data + i * (int64_t)size, x->data, size) == 0;
  buf_put(b, "dense<");
  if (splat) {
    buf_elem_of(b, x, 0);
  } else {
    int64_t stride[IR_MAX_RANK + 1]; /* elements in one slice at dim d */
    stride[x->rank] = 1;
    for (int d = x->rank - 1; d >= 0; d--)
      stride[d] = stride[d + 1] * x->shape[d];
    for (int64_t i = 0; i < x->numel; i++) {
      for (int d = 0; d < x->rank; d++)
        if (i % stride[d] == 0)
          buf_put(b, "[");
      buf_elem_of(b, x, i);
      for (int d = x->rank - 1; d >= 0 && (i + 1) % stride[d] == 0; d--)
        buf_put(b, "]");
      if (i + 1 < x->numel)
        buf_put(b, ", ");
    }
  }
  buf_put(b, "> : ");
  buf_tensor_type(b, x->dtype, x->rank, x->shape);
}

char *mlt_dense(const Tensor *x) {
  Buf b = {0};
  buf_dense(&b, x);
  return b.s;
}
