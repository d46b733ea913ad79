/*
 * eval_print.c - values as text for failure reports (ev_print_value);
 * the format is described in eval.h.
 */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "eval_int.h"

enum {
  MAX_ELEMS = 64,      /* tensor elements printed before "..." */
  MAX_NEST = 64,       /* value nesting printed before "..." */
  MAX_LEN = 64 * 1024, /* characters, roughly, before "..." */
};

/* A growing string in an arena (outgrown buffers are abandoned). */
typedef struct Buf {
  Arena *a;
  char *s;
  size_t len, cap;
} Buf;

static void put(Buf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Append formatted text. */
static void put(Buf *b, const char *fmt, ...) {
  va_list ap, ap2;
  va_start(ap, fmt);
  va_copy(ap2, ap);
  int n = vsnprintf(NULL, 0, fmt, ap);
  va_end(ap);
  if (b->len + (size_t)n + 1 > b->cap) {
    size_t cap = 2 * (b->len + (size_t)n + 1);
    char *s = arena_alloc(b->a, cap);
    memcpy(s, b->s, b->len);
    b->s = s, b->cap = cap;
  }
  vsnprintf(b->s + b->len, (size_t)n + 1, fmt, ap2);
  va_end(ap2);
  b->len += (size_t)n;
}

char *ev_format_elem(char *buf, size_t n, const Tensor *t, int64_t i) {
  double f = ir_tensor_get_f64(t, i);
  if (t->dtype == DT_BOOL)
    snprintf(buf, n, "%s", f != 0 ? "True" : "False");
  else if (ir_dtype_is_unsigned(t->dtype))
    snprintf(buf, n, "%llu", (unsigned long long)ir_tensor_get_u64(t, i));
  else if (!ir_dtype_is_float(t->dtype))
    snprintf(buf, n, "%lld", (long long)ir_tensor_get_i64(t, i));
  else if (isnan(f))
    snprintf(buf, n, "nan");
  else if (isinf(f))
    snprintf(buf, n, "%sinf", f < 0 ? "-" : "");
  else
    snprintf(buf, n, "%.*g",
             t->dtype == DT_FLOAT32    ? 9
             : t->dtype == DT_FLOAT16  ? 5
             : t->dtype == DT_BFLOAT16 ? 4
                                       : 17,
             f);
  return buf;
}

/* Nested brackets, row-major, eliding after MAX_ELEMS elements. */
static void put_tensor(Buf *b, const Tensor *t) {
  char e[40];
  put(b, "%s ", ir_dtype_name(t->dtype));
  if (t->rank == 0) {
    put(b, "%s", ev_format_elem(e, sizeof e, t, 0));
    return;
  }
  if (t->numel == 0) {
    put(b, "empty(");
    for (int d = 0; d < t->rank; d++)
      put(b, "%s%lld", d ? ", " : "", (long long)t->shape[d]);
    put(b, ")");
    return;
  }
  int open = 0;
  for (int64_t i = 0; i < t->numel; i++) {
    /* Open one bracket per trailing dimension this element starts. */
    int64_t k = i, stride = 1;
    for (int d = t->rank - 1; d >= 0 && k % (stride * t->shape[d]) == 0; d--)
      stride *= t->shape[d], open++, put(b, "[");
    if (i == MAX_ELEMS) {
      put(b, "...");
      break;
    }
    put(b, "%s", ev_format_elem(e, sizeof e, t, i));
    stride = 1;
    int closes = 0;
    for (int d = t->rank - 1; d >= 0 && (i + 1) % (stride * t->shape[d]) == 0; d--)
      stride *= t->shape[d], closes++;
    for (int c = 0; c < closes; c++)
      open--, put(b, "]");
    if (i + 1 < t->numel)
      put(b, ", ");
  }
  for (; open > 0; open--)
    put(b, "]");
}

static void put_value(Buf *b, const EvValue *v, int nest);

/* Fields separated by commas. */
static void put_fields(Buf *b, int n, EvValue *const *fs, int nest) {
  for (int i = 0; i < n; i++) {
    put(b, "%s", i ? ", " : "");
    put_value(b, fs[i], nest + 1);
  }
}

/* Print v, eliding past MAX_NEST levels or MAX_LEN characters. */
static void put_value(Buf *b, const EvValue *v, int nest) {
  if (nest > MAX_NEST || b->len > MAX_LEN) {
    put(b, "...");
    return;
  }
  switch (v->kind) {
  case VAL_TENSOR: put_tensor(b, v->tensor); break;
  case VAL_TUPLE:
    put(b, "(");
    put_fields(b, v->tuple.n, v->tuple.fields, nest);
    put(b, "%s)", v->tuple.n == 1 ? "," : "");
    break;
  case VAL_CLOSURE:
    if (v->closure.global)
      put(b, "<fn @%s>", v->closure.global->name);
    else
      put(b, "%s", v->closure.fn ? "<closure>" : "<const fn>");
    break;
  case VAL_REF:
    put(b, "ref(");
    put_value(b, v->ref.contents, nest + 1);
    put(b, ")");
    break;
  case VAL_ADT:
    put(b, "%s", v->adt.ctor->name);
    if (v->adt.n) {
      put(b, "(");
      put_fields(b, v->adt.n, v->adt.fields, nest);
      put(b, ")");
    }
    break;
  }
}

char *ev_print_value(Arena *a, const EvValue *v) {
  Buf b = {a, "", 0, 0};
  put(&b, "%s", "");
  put_value(&b, v, 0);
  return b.s;
}
