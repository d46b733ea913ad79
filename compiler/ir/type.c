/*
 * type.c - dtypes, types, tensors and attributes.
 */
#include <math.h>
#include <string.h>

#include "hash.h"
#include "ir.h"

/* ---------------------------------------------------------------- dtypes */

static const struct {
  const char *name;
  int size;
} dtypes[DT_COUNT] = {
#define X(id, name, size, ctype) {name, size},
    IR_DTYPES(X)
#undef X
};

const char *ir_dtype_name(DType dt) {
  return dtypes[dt].name;
}
int ir_dtype_size(DType dt) {
  return dtypes[dt].size;
}
bool ir_dtype_is_float(DType dt) {
  return dt == DT_FLOAT32 || dt == DT_FLOAT64 || dt == DT_FLOAT16 || dt == DT_BFLOAT16;
}
bool ir_dtype_is_int(DType dt) {
  return dt != DT_BOOL && !ir_dtype_is_float(dt);
}
bool ir_dtype_is_unsigned(DType dt) {
  return dt == DT_UINT8 || dt == DT_UINT16 || dt == DT_UINT32 || dt == DT_UINT64;
}
double ir_dtype_float_max(DType dt) {
  switch (dt) {
  case DT_FLOAT16: return 65504.0;
  case DT_BFLOAT16: return 0x1.fep127;
  case DT_FLOAT32: return 0x1.fffffep127;
  default: return 0x1.fffffffffffffp1023;
  }
}

bool ir_dtype_parse(const char *name, size_t len, DType *out) {
  for (int i = 0; i < DT_COUNT; i++)
    if (strlen(dtypes[i].name) == len && memcmp(dtypes[i].name, name, len) == 0) {
      *out = (DType)i;
      return true;
    }
  return false;
}

/* ----------------------------------------------------------------- types */

static Type *new_type(Arena *a, TypeKind k) {
  Type *t = ARENA_NEW(a, Type);
  t->kind = k;
  return t;
}

static Type **copy_types(Arena *a, int n, Type *const *src) {
  if (n == 0)
    return NULL;
  Type **p = ARENA_ARRAY(a, Type *, n);
  memcpy(p, src, sizeof *p * (size_t)n);
  return p;
}

Type *ir_tensor_type(Arena *a, DType dt, int rank, const int64_t *shape) {
  Type *t = new_type(a, TY_TENSOR);
  t->tensor.dtype = dt;
  t->tensor.rank = rank;
  for (int i = 0; i < rank; i++)
    t->tensor.shape[i] = shape[i];
  return t;
}

Type *ir_scalar_type(Arena *a, DType dt) {
  return ir_tensor_type(a, dt, 0, NULL);
}

Type *ir_tuple_type(Arena *a, int n, Type *const *fields) {
  Type *t = new_type(a, TY_TUPLE);
  t->tuple.n = n;
  t->tuple.fields = copy_types(a, n, fields);
  return t;
}

Type *ir_unit_type(Arena *a) {
  return ir_tuple_type(a, 0, NULL);
}

Type *ir_func_type(Arena *a, int ntvars, Type *const *tvars, int nparams, Type *const *params,
                   Type *ret) {
  Type *t = new_type(a, TY_FUNC);
  t->func.ntvars = ntvars;
  t->func.tvars = copy_types(a, ntvars, tvars);
  t->func.nparams = nparams;
  t->func.params = copy_types(a, nparams, params);
  t->func.ret = ret;
  return t;
}

Type *ir_ref_type(Arena *a, Type *inner) {
  Type *t = new_type(a, TY_REF);
  t->ref.inner = inner;
  return t;
}

Type *ir_adt_type(Arena *a, TypeDef *def, int nargs, Type *const *args) {
  Type *t = new_type(a, TY_ADT);
  t->adt.def = def;
  t->adt.nargs = nargs;
  t->adt.args = copy_types(a, nargs, args);
  return t;
}

Type *ir_type_var(Arena *a, const char *name) {
  Type *t = new_type(a, TY_VAR);
  t->var.name = arena_strdup(a, name);
  return t;
}

Type *ir_incomplete_type(Arena *a, int id) {
  Type *t = new_type(a, TY_INCOMPLETE);
  t->incomplete.id = id;
  return t;
}

int64_t ir_type_numel(const Type *t) {
  int64_t n = 1;
  for (int i = 0; i < t->tensor.rank; i++)
    n *= t->tensor.shape[i];
  return n;
}

bool ir_tensor_has_any(const Type *t) {
  for (int i = 0; i < t->tensor.rank; i++)
    if (ir_dim_is_any(t->tensor.shape[i]))
      return true;
  return false;
}

static bool has_any(const Type *t, int depth) {
  if (!t || depth > IR_MAX_NESTING)
    return false;
  switch (t->kind) {
  case TY_TENSOR: return ir_tensor_has_any(t);
  case TY_TUPLE:
    for (int i = 0; i < t->tuple.n; i++)
      if (has_any(t->tuple.fields[i], depth + 1))
        return true;
    return false;
  case TY_FUNC:
    for (int i = 0; i < t->func.nparams; i++)
      if (has_any(t->func.params[i], depth + 1))
        return true;
    return has_any(t->func.ret, depth + 1);
  case TY_REF: return has_any(t->ref.inner, depth + 1);
  case TY_ADT:
    for (int i = 0; i < t->adt.nargs; i++)
      if (has_any(t->adt.args[i], depth + 1))
        return true;
    return false;
  case TY_VAR:
  case TY_INCOMPLETE: return false;
  }
  return false;
}

bool ir_type_has_any(const Type *t) {
  return has_any(t, 0);
}

bool ir_shape_fits(const Type *t, int rank, const int64_t *shape) {
  if (!t || t->kind != TY_TENSOR || t->tensor.rank != rank)
    return false;
  for (int i = 0; i < rank; i++)
    if (!ir_dim_is_any(t->tensor.shape[i]) && t->tensor.shape[i] != shape[i])
      return false;
  return true;
}

bool ir_type_is_scalar(const Type *t, DType dt) {
  return t && t->kind == TY_TENSOR && t->tensor.rank == 0 && t->tensor.dtype == dt;
}

static bool type_eq(const Type *a, const Type *b, bool any);

static bool types_equal(int n, Type *const *a, Type *const *b, bool any) {
  for (int i = 0; i < n; i++)
    if (!type_eq(a[i], b[i], any))
      return false;
  return true;
}

static bool complete(const Type *t, int depth) {
  if (!t || depth > IR_MAX_NESTING)
    return false;
  switch (t->kind) {
  case TY_INCOMPLETE: return false;
  case TY_TENSOR:
  case TY_VAR: return true;
  case TY_TUPLE:
    for (int i = 0; i < t->tuple.n; i++)
      if (!complete(t->tuple.fields[i], depth + 1))
        return false;
    return true;
  case TY_FUNC:
    for (int i = 0; i < t->func.nparams; i++)
      if (!complete(t->func.params[i], depth + 1))
        return false;
    return complete(t->func.ret, depth + 1);
  case TY_REF: return complete(t->ref.inner, depth + 1);
  case TY_ADT:
    for (int i = 0; i < t->adt.nargs; i++)
      if (!complete(t->adt.args[i], depth + 1))
        return false;
    return true;
  }
  return false;
}

bool ir_type_complete(const Type *t) {
  return complete(t, 0);
}

bool ir_type_equal(const Type *a, const Type *b) {
  return type_eq(a, b, false);
}

bool ir_type_unifies(const Type *a, const Type *b) {
  return type_eq(a, b, true);
}

/* ir_type_equal, or with any set ir_type_unifies. */
static bool type_eq(const Type *a, const Type *b, bool any) {
  if (a == b)
    return true;
  if (!a || !b || a->kind != b->kind)
    return false;
  switch (a->kind) {
  case TY_TENSOR:
    if (a->tensor.dtype != b->tensor.dtype || a->tensor.rank != b->tensor.rank)
      return false;
    for (int i = 0; i < a->tensor.rank; i++)
      if (a->tensor.shape[i] != b->tensor.shape[i] &&
          !(any && (ir_dim_is_any(a->tensor.shape[i]) || ir_dim_is_any(b->tensor.shape[i]))))
        return false;
    return true;
  case TY_TUPLE:
    return a->tuple.n == b->tuple.n &&
           types_equal(a->tuple.n, a->tuple.fields, b->tuple.fields, any);
  case TY_FUNC:
    /* Polymorphic function types are equal up to renaming their tvars. */
    if (a->func.ntvars != b->func.ntvars || a->func.nparams != b->func.nparams)
      return false;
    if (a->func.ntvars == 0)
      return types_equal(a->func.nparams, a->func.params, b->func.params, any) &&
             type_eq(a->func.ret, b->func.ret, any);
    else {
      Arena *tmp = arena_new();
      Type *bs = ir_type_subst(tmp, (Type *)b, b->func.ntvars, b->func.tvars, a->func.tvars);
      bool eq = types_equal(a->func.nparams, a->func.params, bs->func.params, any) &&
                type_eq(a->func.ret, bs->func.ret, any);
      arena_free(tmp);
      return eq;
    }
  case TY_REF: return type_eq(a->ref.inner, b->ref.inner, any);
  case TY_ADT:
    return a->adt.def == b->adt.def && a->adt.nargs == b->adt.nargs &&
           types_equal(a->adt.nargs, a->adt.args, b->adt.args, any);
  case TY_VAR: return false; /* distinct pointers */
  case TY_INCOMPLETE: return a->incomplete.id == b->incomplete.id;
  }
  return false;
}

Type *ir_type_subst(Arena *a, Type *t, int n, Type *const *from, Type *const *to) {
  if (!t || n == 0)
    return t;
  switch (t->kind) {
  case TY_TENSOR:
  case TY_INCOMPLETE: return t;
  case TY_VAR:
    for (int i = 0; i < n; i++)
      if (from[i] == t)
        return to[i];
    return t;
  case TY_REF: {
    Type *in = ir_type_subst(a, t->ref.inner, n, from, to);
    return in == t->ref.inner ? t : ir_ref_type(a, in);
  }
  case TY_TUPLE:
  case TY_ADT:
  case TY_FUNC: {
    int m = t->kind == TY_TUPLE ? t->tuple.n : t->kind == TY_ADT ? t->adt.nargs : t->func.nparams;
    Type **src = t->kind == TY_TUPLE ? t->tuple.fields
                 : t->kind == TY_ADT ? t->adt.args
                                     : t->func.params;
    bool changed = false;
    Type **dst = m ? ARENA_ARRAY(a, Type *, m) : NULL;
    for (int i = 0; i < m; i++) {
      dst[i] = ir_type_subst(a, src[i], n, from, to);
      changed |= dst[i] != src[i];
    }
    Type *ret = NULL;
    if (t->kind == TY_FUNC) {
      ret = ir_type_subst(a, t->func.ret, n, from, to);
      changed |= ret != t->func.ret;
    }
    if (!changed)
      return t;
    if (t->kind == TY_TUPLE)
      return ir_tuple_type(a, m, dst);
    if (t->kind == TY_ADT)
      return ir_adt_type(a, t->adt.def, m, dst);
    return ir_func_type(a, t->func.ntvars, t->func.tvars, m, dst, ret);
  }
  }
  return t;
}

Type *ir_type_copy(Arena *a, const Type *t) {
  if (!t)
    return NULL;
  Type *c = new_type(a, t->kind);
  *c = *t;
  switch (t->kind) {
  case TY_TUPLE:
    c->tuple.fields = t->tuple.n ? ARENA_ARRAY(a, Type *, t->tuple.n) : NULL;
    for (int i = 0; i < t->tuple.n; i++)
      c->tuple.fields[i] = ir_type_copy(a, t->tuple.fields[i]);
    break;
  case TY_FUNC:
    /* tvars keep their identity: params refer to them by pointer. */
    c->func.tvars = copy_types(a, t->func.ntvars, t->func.tvars);
    c->func.params = t->func.nparams ? ARENA_ARRAY(a, Type *, t->func.nparams) : NULL;
    for (int i = 0; i < t->func.nparams; i++)
      c->func.params[i] = ir_type_copy(a, t->func.params[i]);
    c->func.ret = ir_type_copy(a, t->func.ret);
    break;
  case TY_REF: c->ref.inner = ir_type_copy(a, t->ref.inner); break;
  case TY_ADT:
    c->adt.args = t->adt.nargs ? ARENA_ARRAY(a, Type *, t->adt.nargs) : NULL;
    for (int i = 0; i < t->adt.nargs; i++)
      c->adt.args[i] = ir_type_copy(a, t->adt.args[i]);
    break;
  case TY_VAR: return (Type *)t; /* identity matters */
  default: break;
  }
  return c;
}

/* --------------------------------------------------------------- tensors */

Tensor *ir_tensor_new(Arena *a, DType dt, int rank, const int64_t *shape) {
  Tensor *t = ARENA_NEW(a, Tensor);
  t->dtype = dt;
  t->rank = rank;
  t->numel = 1;
  for (int i = 0; i < rank; i++) {
    t->shape[i] = shape[i];
    t->numel *= shape[i];
  }
  t->data = arena_alloc(a, (size_t)t->numel * (size_t)ir_dtype_size(dt));
  return t;
}

Tensor *ir_tensor_of_type(Arena *a, const Type *ty) {
  return ir_tensor_new(a, ty->tensor.dtype, ty->tensor.rank, ty->tensor.shape);
}

Tensor *ir_tensor_scalar_f64(Arena *a, DType dt, double v) {
  Tensor *t = ir_tensor_new(a, dt, 0, NULL);
  ir_tensor_set_f64(t, 0, v);
  return t;
}

Type *ir_tensor_type_of(Arena *a, const Tensor *t) {
  return ir_tensor_type(a, t->dtype, t->rank, t->shape);
}

/* ------------------------------------------------- float16 and bfloat16 */

/* The fraction and exponent widths of float16 (10, 5) and bfloat16 (7, 8). */
static int half_mant(DType dt) {
  return dt == DT_FLOAT16 ? 10 : 7;
}
static int half_ebits(DType dt) {
  return dt == DT_FLOAT16 ? 5 : 8;
}

/* The pattern of sign * mag * 2^exp2 (mag > 0) rounded once to nearest,
 * ties to even, in dt's format: the one rounding every conversion into
 * float16 and bfloat16 goes through. */
static uint16_t half_round(DType dt, bool neg, uint64_t mag, int exp2) {
  int mant = half_mant(dt), ebits = half_ebits(dt);
  int bias = (1 << (ebits - 1)) - 1;
  uint16_t sign = (uint16_t)(neg ? 1u << (mant + ebits) : 0);
  int top = 63 - __builtin_clzll(mag);
  int ulp = top + exp2 - mant; /* the exponent of the last kept bit */
  if (ulp < 1 - bias - mant)
    ulp = 1 - bias - mant; /* subnormal */
  int shift = ulp - exp2;
  uint64_t m;
  if (shift <= 0) {
    m = mag << -shift; /* exact: fewer than mant + 1 bits */
  } else if (shift > 64) {
    m = 0; /* below half the smallest subnormal */
  } else {
    m = shift == 64 ? 0 : mag >> shift;
    uint64_t rem = shift == 64 ? mag : mag & ((1ull << shift) - 1);
    uint64_t half = 1ull << (shift - 1);
    if (rem > half || (rem == half && (m & 1)))
      m++;
  }
  if (m >> (mant + 1)) { /* the rounding carried into a new binade */
    m >>= 1;
    ulp++;
  }
  if (!(m >> mant)) /* subnormal (or zero): exponent field 0 */
    return (uint16_t)(sign | m);
  int biased = ulp + mant + bias;
  if (biased >= (1 << ebits) - 1)
    return (uint16_t)(sign | (((1u << ebits) - 1) << mant)); /* inf */
  return (uint16_t)(sign | ((unsigned)biased << mant) | (m & ((1ull << mant) - 1)));
}

uint16_t ir_half_from_f64(DType dt, double v) {
  int mant = half_mant(dt), ebits = half_ebits(dt);
  uint64_t b;
  memcpy(&b, &v, 8);
  bool neg = b >> 63;
  uint64_t frac = b & ((1ull << 52) - 1);
  int e = (int)((b >> 52) & 0x7ff);
  uint16_t sign = (uint16_t)(neg ? 1u << (mant + ebits) : 0);
  uint16_t inf = (uint16_t)(((1u << ebits) - 1) << mant);
  if (e == 0x7ff) /* inf, or a NaN keeping its payload's top bits, quieted */
    return (uint16_t)(sign | inf | (frac ? (frac >> (52 - mant)) | (1u << (mant - 1)) : 0));
  if (e == 0 && frac == 0)
    return sign;
  return e ? half_round(dt, neg, frac | (1ull << 52), e - 1075) : half_round(dt, neg, frac, -1074);
}

uint16_t ir_half_from_i64(DType dt, int64_t v) {
  if (v == 0)
    return 0;
  return half_round(dt, v < 0, v < 0 ? 0 - (uint64_t)v : (uint64_t)v, 0);
}

uint16_t ir_half_from_u64(DType dt, uint64_t v) {
  return v ? half_round(dt, false, v, 0) : 0;
}

double ir_half_to_f64(DType dt, uint16_t bits) {
  int mant = half_mant(dt), ebits = half_ebits(dt);
  int bias = (1 << (ebits - 1)) - 1;
  bool neg = bits >> (mant + ebits);
  int e = (bits >> mant) & ((1 << ebits) - 1);
  uint64_t frac = bits & ((1u << mant) - 1);
  if (e == (1 << ebits) - 1) { /* inf or NaN, by bits: the payload moves up */
    uint64_t b = (neg ? 1ull << 63 : 0) | 0x7ff0000000000000ull | (frac << (52 - mant));
    double d;
    memcpy(&d, &b, 8);
    return d;
  }
  double m = e ? ldexp((double)(frac | (1u << mant)), e - bias - mant)
               : ldexp((double)frac, 1 - bias - mant);
  return neg ? -m : m;
}

double ir_round_float(DType dt, double v) {
  switch (dt) {
  case DT_FLOAT32: return (float)v;
  case DT_FLOAT16:
  case DT_BFLOAT16: return ir_half_to_f64(dt, ir_half_from_f64(dt, v));
  default: return v;
  }
}

/* --------------------------------------------------------------- access */

/* Two's complement bits as a signed value (no implementation-defined cast). */
static int64_t bits_i64(uint64_t u) {
  int64_t v;
  memcpy(&v, &u, 8);
  return v;
}

double ir_tensor_get_f64(const Tensor *t, int64_t i) {
  switch (t->dtype) {
  case DT_BOOL: return ((const uint8_t *)t->data)[i];
  case DT_INT8: return ((const int8_t *)t->data)[i];
  case DT_INT32: return ((const int32_t *)t->data)[i];
  case DT_INT64: return (double)((const int64_t *)t->data)[i];
  case DT_FLOAT32: return ((const float *)t->data)[i];
  case DT_FLOAT64: return ((const double *)t->data)[i];
  case DT_INT16: return ((const int16_t *)t->data)[i];
  case DT_UINT8: return ((const uint8_t *)t->data)[i];
  case DT_UINT16: return ((const uint16_t *)t->data)[i];
  case DT_UINT32: return ((const uint32_t *)t->data)[i];
  case DT_UINT64: return (double)((const uint64_t *)t->data)[i];
  case DT_FLOAT16:
  case DT_BFLOAT16: return ir_half_to_f64(t->dtype, ((const uint16_t *)t->data)[i]);
  default: return 0;
  }
}

int64_t ir_tensor_get_i64(const Tensor *t, int64_t i) {
  switch (t->dtype) {
  case DT_BOOL: return ((const uint8_t *)t->data)[i];
  case DT_INT8: return ((const int8_t *)t->data)[i];
  case DT_INT32: return ((const int32_t *)t->data)[i];
  case DT_INT64: return ((const int64_t *)t->data)[i];
  case DT_INT16: return ((const int16_t *)t->data)[i];
  case DT_UINT8: return ((const uint8_t *)t->data)[i];
  case DT_UINT16: return ((const uint16_t *)t->data)[i];
  case DT_UINT32: return ((const uint32_t *)t->data)[i];
  case DT_UINT64: return bits_i64(((const uint64_t *)t->data)[i]);
  default: return ir_sat_f64_to_int(ir_tensor_get_f64(t, i), DT_INT64);
  }
}

uint64_t ir_tensor_get_u64(const Tensor *t, int64_t i) {
  if (ir_dtype_is_float(t->dtype))
    return (uint64_t)ir_sat_f64_to_int(ir_tensor_get_f64(t, i), DT_UINT64);
  return (uint64_t)ir_tensor_get_i64(t, i);
}

int64_t ir_wrap_int(int64_t v, DType to) {
  uint64_t u = (uint64_t)v;
  switch (to) {
  case DT_BOOL: return v != 0;
  case DT_INT8: return (int8_t)(uint8_t)u;
  case DT_INT16: return (int16_t)(uint16_t)u;
  case DT_INT32: return (int32_t)(uint32_t)u;
  case DT_UINT8: return (uint8_t)u;
  case DT_UINT16: return (uint16_t)u;
  case DT_UINT32: return (uint32_t)u;
  default: return v;
  }
}

int64_t ir_sat_f64_to_int(double v, DType to) {
  if (isnan(v))
    return 0;
  if (to == DT_BOOL)
    return v != 0;
  double lo, hi;
  switch (to) {
  case DT_INT8: lo = -128.0, hi = 127.0; break;
  case DT_INT16: lo = -32768.0, hi = 32767.0; break;
  case DT_INT32: lo = -2147483648.0, hi = 2147483647.0; break;
  case DT_UINT8: lo = 0, hi = 255.0; break;
  case DT_UINT16: lo = 0, hi = 65535.0; break;
  case DT_UINT32: lo = 0, hi = 4294967295.0; break;
  case DT_UINT64: /* [0, 2^64 - 1], returned as its bits */
    if (v <= 0)
      return 0;
    if (v >= 18446744073709551616.0)
      return -1;
    return bits_i64((uint64_t)v); /* truncates; in range, so defined */
  default:                        /* int64: (double)INT64_MAX is 2^63, above every int64 */
    if (v <= -9223372036854775808.0)
      return INT64_MIN;
    return v >= 9223372036854775807.0 ? INT64_MAX : (int64_t)v;
  }
  if (v <= lo)
    return (int64_t)lo;
  if (v >= hi)
    return (int64_t)hi;
  return (int64_t)v; /* truncates toward zero; in range, so defined */
}

void ir_tensor_set_f64(Tensor *t, int64_t i, double v) {
  switch (t->dtype) {
  case DT_BOOL: ((uint8_t *)t->data)[i] = v != 0; break; /* NaN is true */
  case DT_FLOAT32: ((float *)t->data)[i] = (float)v; break;
  case DT_FLOAT64: ((double *)t->data)[i] = v; break;
  case DT_FLOAT16:
  case DT_BFLOAT16: ((uint16_t *)t->data)[i] = ir_half_from_f64(t->dtype, v); break;
  default: ir_tensor_set_i64(t, i, ir_sat_f64_to_int(v, t->dtype)); break;
  }
}

void ir_tensor_set_i64(Tensor *t, int64_t i, int64_t v) {
  uint64_t u = (uint64_t)v;
  switch (t->dtype) {
  case DT_BOOL: ((uint8_t *)t->data)[i] = v != 0; break;
  case DT_INT8:
  case DT_UINT8: ((uint8_t *)t->data)[i] = (uint8_t)u; break;
  case DT_INT16:
  case DT_UINT16: ((uint16_t *)t->data)[i] = (uint16_t)u; break;
  case DT_INT32:
  case DT_UINT32: ((uint32_t *)t->data)[i] = (uint32_t)u; break;
  case DT_INT64:
  case DT_UINT64: ((uint64_t *)t->data)[i] = u; break;
  case DT_FLOAT32: ((float *)t->data)[i] = (float)v; break;
  case DT_FLOAT64: ((double *)t->data)[i] = (double)v; break;
  case DT_FLOAT16:
  case DT_BFLOAT16: ((uint16_t *)t->data)[i] = ir_half_from_i64(t->dtype, v); break;
  default: break;
  }
}

void ir_tensor_set_u64(Tensor *t, int64_t i, uint64_t v) {
  switch (t->dtype) {
  case DT_FLOAT32: ((float *)t->data)[i] = (float)v; break;
  case DT_FLOAT64: ((double *)t->data)[i] = (double)v; break;
  case DT_FLOAT16:
  case DT_BFLOAT16: ((uint16_t *)t->data)[i] = ir_half_from_u64(t->dtype, v); break;
  default: ir_tensor_set_i64(t, i, bits_i64(v)); break;
  }
}

void ir_tensor_convert(const Tensor *src, int64_t i, Tensor *dst, int64_t j) {
  if (ir_dtype_is_float(src->dtype))
    ir_tensor_set_f64(dst, j, ir_tensor_get_f64(src, i)); /* exact read */
  else if (ir_dtype_is_unsigned(src->dtype))
    ir_tensor_set_u64(dst, j, ir_tensor_get_u64(src, i));
  else
    ir_tensor_set_i64(dst, j, ir_tensor_get_i64(src, i));
}

bool ir_tensor_identical(const Tensor *a, const Tensor *b) {
  if (a->dtype != b->dtype || a->rank != b->rank)
    return false;
  for (int i = 0; i < a->rank; i++)
    if (a->shape[i] != b->shape[i])
      return false;
  return memcmp(a->data, b->data, (size_t)a->numel * (size_t)ir_dtype_size(a->dtype)) == 0;
}

uint64_t ir_tensor_hash(const Tensor *t) {
  uint64_t h = hash_mix(t->dtype, (uint64_t)t->rank);
  for (int i = 0; i < t->rank; i++)
    h = hash_mix(h, (uint64_t)t->shape[i]);
  return hash_fnv1a(h, t->data, (size_t)t->numel * (size_t)ir_dtype_size(t->dtype));
}

/* ------------------------------------------------------------ attributes */

const Attr *ir_attr_get(const Attrs *at, const char *name) {
  for (int i = 0; at && i < at->n; i++)
    if (strcmp(at->items[i].name, name) == 0)
      return &at->items[i];
  return NULL;
}

int64_t ir_attr_int(const Attrs *at, const char *name, int64_t dflt) {
  const Attr *x = ir_attr_get(at, name);
  if (!x)
    return dflt;
  if (x->kind == AV_INT || x->kind == AV_BOOL)
    return x->i;
  if (x->kind == AV_INTS && x->n == 1)
    return x->ints[0];
  return dflt;
}

double ir_attr_float(const Attrs *at, const char *name, double dflt) {
  const Attr *x = ir_attr_get(at, name);
  if (!x)
    return dflt;
  if (x->kind == AV_FLOAT)
    return x->f;
  if (x->kind == AV_INT)
    return (double)x->i;
  return dflt;
}

bool ir_attr_bool(const Attrs *at, const char *name, bool dflt) {
  const Attr *x = ir_attr_get(at, name);
  return x && (x->kind == AV_BOOL || x->kind == AV_INT) ? x->i != 0 : dflt;
}

const char *ir_attr_str(const Attrs *at, const char *name, const char *dflt) {
  const Attr *x = ir_attr_get(at, name);
  return x && x->kind == AV_STR ? x->s : dflt;
}

static Attr *slot(Arena *a, Attrs *at, const char *name) {
  for (int i = 0; i < at->n; i++)
    if (strcmp(at->items[i].name, name) == 0) {
      memset(&at->items[i], 0, sizeof(Attr));
      at->items[i].name = arena_strdup(a, name);
      return &at->items[i];
    }
  Attr *items = ARENA_ARRAY(a, Attr, at->n + 1);
  if (at->n)
    memcpy(items, at->items, sizeof(Attr) * (size_t)at->n);
  at->items = items;
  Attr *x = &items[at->n++];
  x->name = arena_strdup(a, name);
  return x;
}

void ir_attr_set_int(Arena *a, Attrs *at, const char *name, int64_t v) {
  Attr *x = slot(a, at, name);
  x->kind = AV_INT;
  x->i = v;
}

void ir_attr_set_float(Arena *a, Attrs *at, const char *name, double v) {
  Attr *x = slot(a, at, name);
  x->kind = AV_FLOAT;
  x->f = v;
}

void ir_attr_set_bool(Arena *a, Attrs *at, const char *name, bool v) {
  Attr *x = slot(a, at, name);
  x->kind = AV_BOOL;
  x->i = v;
}

void ir_attr_set_str(Arena *a, Attrs *at, const char *name, const char *v) {
  Attr *x = slot(a, at, name);
  x->kind = AV_STR;
  x->s = arena_strdup(a, v);
}

static void set_list(Arena *a, Attrs *at, const char *name, AttrKind k, int n, int count,
                     const int64_t *v) {
  Attr *x = slot(a, at, name);
  x->kind = k;
  x->n = n;
  x->ints = ARENA_ARRAY(a, int64_t, count ? count : 1);
  if (count)
    memcpy(x->ints, v, sizeof(int64_t) * (size_t)count);
}

void ir_attr_set_ints(Arena *a, Attrs *at, const char *name, int n, const int64_t *v) {
  set_list(a, at, name, AV_INTS, n, n, v);
}

void ir_attr_set_pairs(Arena *a, Attrs *at, const char *name, int npairs, const int64_t *v) {
  set_list(a, at, name, AV_PAIRS, npairs, 2 * npairs, v);
}

void ir_attr_set_none(Arena *a, Attrs *at, const char *name) {
  slot(a, at, name)->kind = AV_NONE;
}

static bool attr_equal(const Attr *x, const Attr *y) {
  if (strcmp(x->name, y->name) != 0 || x->kind != y->kind)
    return false;
  switch (x->kind) {
  case AV_NONE: return true;
  case AV_INT:
  case AV_BOOL: return x->i == y->i;
  case AV_FLOAT: return memcmp(&x->f, &y->f, sizeof x->f) == 0;
  case AV_STR: return strcmp(x->s, y->s) == 0;
  case AV_INTS:
  case AV_PAIRS: {
    int count = x->kind == AV_PAIRS ? 2 * x->n : x->n;
    return x->n == y->n &&
           (count == 0 || memcmp(x->ints, y->ints, sizeof(int64_t) * (size_t)count) == 0);
  }
  }
  return false;
}

bool ir_attrs_equal(const Attrs *x, const Attrs *y) {
  if (x->n != y->n)
    return false;
  for (int i = 0; i < x->n; i++)
    if (!attr_equal(&x->items[i], &y->items[i]))
      return false;
  return true;
}

/* The names of at are distinct (the setters replace), so the copy is
 * item by item, in one array, without the setters' search. */
Attrs ir_attrs_copy(Arena *a, const Attrs *at) {
  Attrs c = {0};
  if (at->n == 0)
    return c;
  c.n = at->n;
  c.items = ARENA_ARRAY(a, Attr, at->n);
  for (int i = 0; i < at->n; i++) {
    const Attr *x = &at->items[i];
    Attr *y = &c.items[i];
    y->name = arena_strdup(a, x->name);
    y->kind = x->kind;
    switch (x->kind) {
    case AV_NONE: break;
    case AV_INT:
    case AV_BOOL: y->i = x->i; break;
    case AV_FLOAT: y->f = x->f; break;
    case AV_STR: y->s = arena_strdup(a, x->s); break;
    case AV_INTS:
    case AV_PAIRS: {
      int count = x->kind == AV_PAIRS ? 2 * x->n : x->n;
      y->n = x->n;
      y->ints = ARENA_ARRAY(a, int64_t, count ? count : 1);
      if (count)
        memcpy(y->ints, x->ints, sizeof(int64_t) * (size_t)count);
      break;
    }
    }
  }
  return c;
}

/* ------------------------------------------------------------- operators */

static const struct {
  const char *name, *schema;
} ops[OP_COUNT] = {
#define OP(id, name, family, pattern, schema, sem, rel, rec, solve, sample, kernel) {name, schema},
#include "compiler/ops/ops.def"
#undef OP
};

const char *ir_op_name(OpId op) {
  return ops[op].name;
}
const char *ir_op_schema(OpId op) {
  return ops[op].schema;
}

bool ir_op_lookup(const char *name, size_t len, OpId *out) {
  for (int i = 0; i < OP_COUNT; i++)
    if (strlen(ops[i].name) == len && memcmp(ops[i].name, name, len) == 0) {
      *out = (OpId)i;
      return true;
    }
  return false;
}

/* Reads the schema item at *p ("name:kind", items separated by ", ") into
 * spec and moves *p past it; false at the end. */
static bool schema_next(const char **p, AttrSpec *spec) {
  const char *s = *p;
  while (*s == ' ' || *s == ',')
    s++;
  const char *colon = strchr(s, ':');
  if (!colon)
    return false;
  const char *end = strchr(colon, ',');
  if (!end)
    end = colon + strlen(colon);
  spec->name = s;
  spec->nlen = (int)(colon - s);
  spec->kind = colon + 1;
  spec->klen = (int)(end - colon - 1);
  spec->optional = spec->klen && spec->kind[spec->klen - 1] == '?';
  spec->klen -= spec->optional;
  *p = end;
  return true;
}

bool ir_op_attr_at(OpId op, int i, AttrSpec *spec) {
  const char *p = ops[op].schema;
  while (schema_next(&p, spec))
    if (i-- == 0)
      return true;
  return false;
}

bool ir_op_attr(OpId op, const char *name, size_t len, AttrSpec *spec) {
  const char *p = ops[op].schema;
  while (schema_next(&p, spec))
    if ((size_t)spec->nlen == len && memcmp(spec->name, name, len) == 0)
      return true;
  return false;
}

bool ir_attr_fits(const AttrSpec *spec, AttrKind k, bool int_as_bool) {
#define IS(s) ((size_t)spec->klen == sizeof(s) - 1 && memcmp(spec->kind, s, sizeof(s) - 1) == 0)
  switch (k) {
  case AV_NONE: return spec->optional;
  case AV_INT: return IS("int") || IS("int|ints") || IS("float") || (int_as_bool && IS("bool"));
  case AV_INTS: return IS("ints") || IS("int|ints");
  case AV_FLOAT: return IS("float");
  case AV_BOOL: return IS("bool");
  case AV_STR: return IS("str");
  case AV_PAIRS: return IS("pairs");
  }
  return false;
#undef IS
}

const char *ir_op_attr_names(OpId op, Arena *a) {
  const char *p = ops[op].schema;
  if (!*p)
    return "none";
  char *out = arena_alloc(a, strlen(p) + 1);
  size_t n = 0;
  AttrSpec spec;
  while (schema_next(&p, &spec)) {
    if (n)
      memcpy(out + n, ", ", 2), n += 2;
    memcpy(out + n, spec.name, (size_t)spec.nlen);
    n += (size_t)spec.nlen;
  }
  return out;
}
