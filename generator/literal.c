/*
 * literal.c - literals of every type: tensor constants (whose contents are
 * drawn from the stream: zeros, one value, element by element, a ramp, or
 * a pseudo-random fill seeded from the stream), tuple literals, function
 * literals (closures over the current scope) and ref(..).  Constructor
 * literals are in adt.c.
 */
#include <float.h>
#include <math.h>
#include <string.h>

#include "gen_int.h"

/* Values bytes 224..255 select, for floats and for integers. */
static const double float_special[32] = {
    INFINITY, -INFINITY, NAN,   -0.0,  FLT_MAX,    -FLT_MAX,    1e-45,        FLT_MIN,
    1e-8,     1e8,       1e30,  -1e30, 0.1,        1.0 / 3.0,   M_PI,         M_E,
    65504.0,  1e-3,      0.999, 1.001, 16777217.0, -16777217.0, 2147483648.0, -2147483649.0,
    9.3e18,   1e300,     0.5,   -0.5,  1.5,        2.5,         -2.5,         1e-300,
};
static const int64_t int_special[32] = {
    127,       -128,      2147483647, -2147483647 - 1,
    INT64_MAX, INT64_MIN, 255,        256,
    65535,     65536,     -129,       128,
    1ll << 31, 1ll << 62, 100,        1000,
    12345,     -7,        31,         32,
    63,        64,        -1,         -2,
    0x55,      0xAA,      1ll << 32,  -(1ll << 32),
    7,         -100,      3,          -3,
};

/* b even -> b/2, b odd -> -(b+1)/2: 0, -1, 1, -2, 2, ... */
static int64_t zigzag(uint32_t b) {
  return (b & 1) ? -(int64_t)((b + 1) / 2) : (int64_t)(b / 2);
}

/* Store the value byte b selects into element i of x (the definition). */
static void put_value_slow(Tensor *x, int64_t i, uint32_t b) {
  b &= 255;
  if (x->dtype == DT_BOOL) {
    ir_tensor_set_i64(x, i, b & 1);
  } else if (ir_dtype_is_float(x->dtype)) {
    ir_tensor_set_f64(x, i, b >= 224 ? float_special[b - 224] : (double)zigzag(b) / 4.0);
  } else {
    ir_tensor_set_i64(x, i, b >= 224 ? int_special[b - 224] : zigzag(b));
  }
}

/* The element bytes of every value byte, per dtype, made on first use
 * with put_value_slow (constants are filled by copying them). */
static _Thread_local struct {
  bool init[DT_COUNT];
  uint8_t v[DT_COUNT][256][8];
} values;

/* The table of dt's element bytes, made on first use. */
static uint8_t (*value_table(DType dt))[8] {
  if (!values.init[dt]) {
    uint64_t buf = 0;
    Tensor x = {.dtype = dt, .rank = 0, .numel = 1, .data = &buf};
    for (uint32_t k = 0; k < 256; k++) {
      put_value_slow(&x, 0, k);
      memcpy(values.v[dt][k], &buf, sizeof buf);
    }
    values.init[dt] = true;
  }
  return values.v[dt];
}

/* Copy the size bytes of one element from v to element i of data (fixed
 * sizes, so the copies are inlined). */
static inline void store(uint8_t *data, int64_t i, int size, const uint8_t *v) {
  switch (size) {
  case 1: data[i] = v[0]; break;
  case 2: memcpy(data + 2 * i, v, 2); break;
  case 4: memcpy(data + 4 * i, v, 4); break;
  case 8: memcpy(data + 8 * i, v, 8); break;
  default: memcpy(data + i * size, v, (size_t)size); break;
  }
}

/* Store the value byte b selects into element i of x. */
static void put_value(Tensor *x, int64_t i, uint32_t b) {
  store(x->data, i, ir_dtype_size(x->dtype), value_table(x->dtype)[b & 255]);
}

/* Store the value byte b selects into every element of x. */
static void put_all(Tensor *x, uint32_t b) {
  int size = ir_dtype_size(x->dtype);
  const uint8_t *v = value_table(x->dtype)[b & 255];
  for (int64_t i = 0; i < x->numel; i++)
    store(x->data, i, size, v);
}

/* A ramp start + i * step; integers wrap (computed unsigned). */
static void put_ramp(Tensor *x, uint32_t b0, uint32_t b1) {
  if (ir_dtype_is_float(x->dtype)) {
    double s = (double)zigzag(b0) / 4.0, d = (double)zigzag(b1) / 8.0;
    for (int64_t i = 0; i < x->numel; i++)
      ir_tensor_set_f64(x, i, s + (double)i * d);
  } else {
    uint64_t s = (uint64_t)zigzag(b0), d = (uint64_t)zigzag(b1);
    for (int64_t i = 0; i < x->numel; i++) {
      uint64_t v = s + (uint64_t)i * d;
      ir_tensor_set_i64(x, i, x->dtype == DT_BOOL ? (int64_t)(v & 1) : (int64_t)v);
    }
  }
}

/* Fill from a xorshift generator seeded by four stream bytes; mostly
 * small values, one element in 32 special. */
static void put_random(GenCtx *g, Tensor *x) {
  uint32_t s = 0x9e3779b9u;
  for (int i = 0; i < 4; i++)
    s = s * 31 + gen_stream_byte(&g->st);
  int size = ir_dtype_size(x->dtype);
  uint8_t(*table)[8] = value_table(x->dtype);
  for (int64_t i = 0; i < x->numel; i++) {
    s ^= s << 13;
    s ^= s >> 17;
    s ^= s << 5;
    uint32_t b = (s >> 8) & 255;
    store(x->data, i, size, table[(s & 31) == 0 ? b : b % 64]);
  }
}

/* How a constant of several elements is filled: zeros (choice 0, the
 * simplest), one value everywhere, a value per element, a ramp, or a
 * pseudo-random fill.  The first two make constant tensors, which carry
 * little information through a program (a result that is all zero or one
 * value repeated hides most differences a pass could make), so they are
 * drawn one time in six together instead of two in five. */
static const uint32_t fill_weight[5] = {1, 1, 4, 2, 4};

Expr *gen_const(GenCtx *g, const Type *t) {
  Tensor *x = ir_tensor_of_type(g->a, t);
  if (x->numel == 1) {
    put_value(x, 0, gen_stream_byte(&g->st));
  } else if (x->numel > 1) {
    switch (gen_weighted(&g->st, fill_weight, 5)) {
    case 0: break; /* zeros */
    case 1: put_all(x, gen_stream_byte(&g->st)); break;
    case 2:
      if (x->numel <= 16) {
        for (int64_t i = 0; i < x->numel; i++)
          put_value(x, i, gen_stream_byte(&g->st));
        break;
      }
      put_random(g, x);
      break;
    case 3: {
      uint32_t b0 = gen_stream_byte(&g->st);
      put_ramp(x, b0, gen_stream_byte(&g->st));
      break;
    }
    default: put_random(g, x); break;
    }
  }
  g->pure = true;
  return ir_const(g->m, x);
}

Expr *gen_fn_literal(GenCtx *g, Type *ft, int budget) {
  int n = ft->func.nparams;
  Var **params = ARENA_ARRAY(g->a, Var *, n + 1);
  int mark = g->nscope;
  for (int i = 0; i < n; i++) {
    params[i] = gen_fresh_var(g, "p", ft->func.params[i], true);
    gen_scope_push(g, params[i], ft->func.params[i]);
  }
  Expr *body = gen_sub(g, ft->func.ret, budget - 1, false);
  gen_scope_pop(g, mark);
  g->pure = false;
  return ir_func(g->m, n, params, ft->func.ret, body);
}

Expr *gen_literal(GenCtx *g, Type *t, int budget) {
  switch (t->kind) {
  case TY_TENSOR: return gen_const(g, t);
  case TY_TUPLE: {
    int n = t->tuple.n;
    Expr **f = ARENA_ARRAY(g->a, Expr *, n + 1);
    int *b = ARENA_ARRAY(g->a, int, n + 1);
    gen_split(g, budget - 1, n, b);
    bool pure = true, free = g->free;
    for (int i = 0; i < n; i++) {
      f[i] = gen_sub(g, t->tuple.fields[i], b[i], free);
      pure &= g->pure;
    }
    g->pure = pure;
    return ir_tuple(g->m, n, f);
  }
  case TY_FUNC: return gen_fn_literal(g, t, budget);
  case TY_REF: {
    Expr *v = gen_sub(g, t->ref.inner, budget - 1, g->free);
    g->pure = false;
    return ir_ref_new(g->m, v);
  }
  case TY_ADT: return gen_ctor_literal(g, t, budget);
  default: break;
  }
  gen_fail(g, "a literal of a type that is not concrete was wanted");
  return gen_const(g, ir_scalar_type(g->a, DT_FLOAT32));
}
