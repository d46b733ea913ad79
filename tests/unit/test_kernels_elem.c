/* Kernels and relations of the families binary.c (mod, floor_mod,
 * floor_divide, logical_xor, bitwise and shifts), math.c (the unary float
 * functions, predicates and bitwise_not), stats.c (all, any, logsumexp,
 * variance, std) and cumulative.c (cumsum, cumprod) against TVM's values
 * on small cases, edge cases first: signs of integer division and modulo,
 * division by zero, MIN by -1, shift counts out of range, NaN and
 * infinities, empty tensors.  Calls go through the registry (op_eval: the
 * relation, then the kernel). */
#include <math.h>
#include <stdint.h>

#include "compiler/ops/op.h"
#include "test.h"

static Arena *A;

#define SH(...) ((const int64_t[]){__VA_ARGS__})
#define DV(...) ((const double[]){__VA_ARGS__})
#define IV(...) ((const int64_t[]){__VA_ARGS__})
#define NARGS(...) (int)(sizeof((const double[]){__VA_ARGS__}) / sizeof(double))
/* A rank-1 tensor of the listed values. */
#define VF(dt, ...) tf(dt, 1, SH(NARGS(__VA_ARGS__)), DV(__VA_ARGS__))
#define VI(dt, ...) ti(dt, 1, SH(NARGS(__VA_ARGS__)), IV(__VA_ARGS__))

static const double NaN = NAN, Inf = INFINITY;

static Tensor *tf(DType dt, int rank, const int64_t *shape, const double *v) {
  Tensor *t = ir_tensor_new(A, dt, rank, shape);
  for (int64_t i = 0; v && i < t->numel; i++)
    ir_tensor_set_f64(t, i, v[i]);
  return t;
}

static Tensor *ti(DType dt, int rank, const int64_t *shape, const int64_t *v) {
  Tensor *t = ir_tensor_new(A, dt, rank, shape);
  for (int64_t i = 0; v && i < t->numel; i++)
    ir_tensor_set_i64(t, i, v[i]);
  return t;
}

static char last_err[256];

/* The first output of op on n arguments, or NULL (message in last_err). */
static Tensor *run(OpId op, int n, Tensor *const *args, const Attrs *at) {
  Attrs none = {0};
  Tensor *outs[4];
  last_err[0] = 0;
  int k = op_eval(op, args, n, at ? at : &none, A, outs, 4, last_err, sizeof last_err);
  return k > 0 ? outs[0] : NULL;
}
static Tensor *run1(OpId op, Tensor *x, const Attrs *at) {
  return run(op, 1, &x, at);
}
static Tensor *run2(OpId op, Tensor *x, Tensor *y, const Attrs *at) {
  Tensor *args[2] = {x, y};
  return run(op, 2, args, at);
}

/* Bitwise-equal floats (NaN equals NaN, -0 differs from +0). */
static bool same(double a, double b) {
  return (isnan(a) && isnan(b)) || (a == b && signbit(a) == signbit(b));
}

static bool eqf(const Tensor *t, DType dt, int rank, const int64_t *shape, const double *v) {
  if (!t || t->dtype != dt || t->rank != rank)
    return false;
  for (int i = 0; i < rank; i++)
    if (t->shape[i] != shape[i])
      return false;
  for (int64_t i = 0; i < t->numel; i++)
    if (!same(ir_tensor_get_f64(t, i), v[i])) {
      fprintf(stderr, "  element %lld: got %.17g want %.17g\n", (long long)i,
              ir_tensor_get_f64(t, i), v[i]);
      return false;
    }
  return true;
}

static bool eqi(const Tensor *t, DType dt, int rank, const int64_t *shape, const int64_t *v) {
  if (!t || t->dtype != dt || t->rank != rank)
    return false;
  for (int i = 0; i < rank; i++)
    if (t->shape[i] != shape[i])
      return false;
  for (int64_t i = 0; i < t->numel; i++)
    if (ir_tensor_get_i64(t, i) != v[i]) {
      fprintf(stderr, "  element %lld: got %lld want %lld\n", (long long)i,
              (long long)ir_tensor_get_i64(t, i), (long long)v[i]);
      return false;
    }
  return true;
}

/* Rank-1 results of n elements. */
#define EF(t, dt, ...) eqf(t, dt, 1, SH(NARGS(__VA_ARGS__)), DV(__VA_ARGS__))
#define EI(t, dt, ...) eqi(t, dt, 1, SH(NARGS(__VA_ARGS__)), IV(__VA_ARGS__))

/* ---------------------------------------------------------------- binary */

static void test_int_division(void) {
  Tensor *a = VI(DT_INT32, 7, -7, 7, -7, 0, 5);
  Tensor *b = VI(DT_INT32, 2, 2, -2, -2, 3, 0);
  /* TVM: mod is truncmod (sign of a), floor_mod the sign of b. */
  CHECK(EI(run2(OP_MOD, a, b, NULL), DT_INT32, 1, -1, 1, -1, 0, 0));
  CHECK(EI(run2(OP_FLOOR_MOD, a, b, NULL), DT_INT32, 1, 1, -1, -1, 0, 0));
  CHECK(EI(run2(OP_FLOOR_DIVIDE, a, b, NULL), DT_INT32, 3, -4, -4, 3, 0, 0));
  /* MIN by -1: the quotient wraps to MIN, the remainders are 0. */
  Tensor *m8 = VI(DT_INT8, -128, -128, -128), *n8 = VI(DT_INT8, -1, 3, -3);
  CHECK(EI(run2(OP_FLOOR_DIVIDE, m8, n8, NULL), DT_INT8, -128, -43, 42));
  CHECK(EI(run2(OP_MOD, m8, n8, NULL), DT_INT8, 0, -2, -2));
  CHECK(EI(run2(OP_FLOOR_MOD, m8, n8, NULL), DT_INT8, 0, 1, -2));
  Tensor *m64 = VI(DT_INT64, INT64_MIN, INT64_MIN, INT64_MAX);
  Tensor *n64 = VI(DT_INT64, -1, INT64_MAX, INT64_MIN);
  CHECK(EI(run2(OP_FLOOR_DIVIDE, m64, n64, NULL), DT_INT64, INT64_MIN, -2, -1));
  CHECK(EI(run2(OP_FLOOR_MOD, m64, n64, NULL), DT_INT64, 0, INT64_MAX - 1, -1));
  CHECK(EI(run2(OP_MOD, m64, n64, NULL), DT_INT64, 0, -1, INT64_MAX));
  /* Broadcasting: (2, 1) by (3). */
  Tensor *c = ti(DT_INT64, 2, SH(2, 1), IV(10, -10));
  CHECK(eqi(run2(OP_FLOOR_MOD, c, VI(DT_INT64, 3, -3, 7), NULL), DT_INT64, 2, SH(2, 3),
            IV(1, -2, 3, 2, -1, 4)));
}

static void test_float_division(void) {
  Tensor *a = VF(DT_FLOAT32, 7, -7, 7, -7, 5.5, -0.0, 1, 1);
  Tensor *b = VF(DT_FLOAT32, 2, 2, -2, -2, 0, 3, Inf, -Inf);
  CHECK(EF(run2(OP_MOD, a, b, NULL), DT_FLOAT32, 1, -1, 1, -1, NaN, -0.0, 1, 1));
  CHECK(EF(run2(OP_FLOOR_DIVIDE, a, b, NULL), DT_FLOAT32, 3, -4, -4, 3, Inf, -0.0, 0, -0.0));
  /* a - floor(a / b) * b: by zero and by an infinity NaN (TVM's lowering). */
  CHECK(EF(run2(OP_FLOOR_MOD, a, b, NULL), DT_FLOAT32, 1, 1, -1, -1, NaN, 0, NaN, NaN));
  /* Each step in float32: 1e8 / 3 rounds up to 33333334 before floor,
   * and 33333334 * 3 to 1e8, so floor_mod gives 0 (exactly: 1). */
  Tensor *x = VF(DT_FLOAT32, 100000000, 0.7), *y = VF(DT_FLOAT32, 3, 0.1);
  volatile float s7 = 0.7f, s1 = 0.1f;
  volatile float q = floorf(s7 / s1), qb = q * s1, r = s7 - qb;
  CHECK(EF(run2(OP_FLOOR_DIVIDE, x, y, NULL), DT_FLOAT32, 33333334, q));
  CHECK(EF(run2(OP_FLOOR_MOD, x, y, NULL), DT_FLOAT32, 0, r));
  CHECK(EF(run2(OP_MOD, VF(DT_FLOAT64, 5.5, NaN), VF(DT_FLOAT64, -2, 1), NULL), DT_FLOAT64, 1.5,
           NaN));
}

static void test_logical_bitwise(void) {
  Tensor *p = VI(DT_BOOL, 0, 0, 1, 1), *q = VI(DT_BOOL, 0, 1, 0, 1);
  CHECK(EI(run2(OP_LOGICAL_XOR, p, q, NULL), DT_BOOL, 0, 1, 1, 0));
  CHECK(EI(run2(OP_BITWISE_AND, p, q, NULL), DT_BOOL, 0, 0, 0, 1));
  CHECK(EI(run2(OP_BITWISE_OR, p, q, NULL), DT_BOOL, 0, 1, 1, 1));
  CHECK(EI(run2(OP_BITWISE_XOR, p, q, NULL), DT_BOOL, 0, 1, 1, 0));
  Tensor *a = VI(DT_INT8, 12, -1, -128), *b = VI(DT_INT8, 10, 85, 127);
  CHECK(EI(run2(OP_BITWISE_AND, a, b, NULL), DT_INT8, 8, 85, 0));
  CHECK(EI(run2(OP_BITWISE_OR, a, b, NULL), DT_INT8, 14, -1, -1));
  CHECK(EI(run2(OP_BITWISE_XOR, a, b, NULL), DT_INT8, 6, -86, -1));
  /* Dtypes: logical_xor is bool only, bitwise not float, shifts not bool. */
  CHECK(!run2(OP_LOGICAL_XOR, a, b, NULL));
  CHECK(!run2(OP_BITWISE_AND, VF(DT_FLOAT32, 1), VF(DT_FLOAT32, 1), NULL));
  CHECK(!run2(OP_LEFT_SHIFT, p, q, NULL));
  CHECK(!run2(OP_MOD, p, q, NULL));
  CHECK(!run2(OP_MOD, VI(DT_INT32, 1), VI(DT_INT64, 1), NULL));
  CHECK(!run2(OP_MOD, VI(DT_INT32, 1, 2), VI(DT_INT32, 1, 2, 3), NULL));
}

static void test_shifts(void) {
  /* Counts in range; then taken modulo the width: int8 by 8 is by 0, by
   * 9 by 1, by -1 by 7. */
  Tensor *a = VI(DT_INT8, 1, 1, 3, -1, 1, 64);
  Tensor *b = VI(DT_INT8, 0, 7, 6, 3, 8, 9);
  CHECK(EI(run2(OP_LEFT_SHIFT, a, b, NULL), DT_INT8, 1, -128, -64, -8, 1, -128));
  Tensor *c = VI(DT_INT8, -128, -128, -7, 127, 100, -1);
  Tensor *d = VI(DT_INT8, 1, 7, 1, 6, -1, 9);
  /* Arithmetic: -7 >> 1 = -4, -128 >> 7 = -1, 100 >> 7 (count -1) = 0. */
  CHECK(EI(run2(OP_RIGHT_SHIFT, c, d, NULL), DT_INT8, -64, -1, -4, 1, 0, -1));
  Tensor *e = VI(DT_INT64, 1, INT64_MIN, 5), *f = VI(DT_INT64, 63, 63, 64);
  CHECK(EI(run2(OP_LEFT_SHIFT, e, f, NULL), DT_INT64, INT64_MIN, 0, 5));
  CHECK(EI(run2(OP_RIGHT_SHIFT, e, f, NULL), DT_INT64, 0, -1, 5));
  Tensor *g = VI(DT_INT32, 1, -1), *h = VI(DT_INT32, 32, 33);
  CHECK(EI(run2(OP_LEFT_SHIFT, g, h, NULL), DT_INT32, 1, -2));
  CHECK(EI(run2(OP_RIGHT_SHIFT, g, h, NULL), DT_INT32, 1, -1));
}

/* ------------------------------------------------------------------ math */

static void test_math(void) {
  Tensor *x = VF(DT_FLOAT32, -2.7, -0.5, 2.5, -0.0, Inf, NaN);
  CHECK(EF(run1(OP_TRUNC, x, NULL), DT_FLOAT32, -2, -0.0, 2, -0.0, Inf, NaN));
  Tensor *z = VF(DT_FLOAT64, 0, -0.0, Inf, -Inf, NaN);
  CHECK(EF(run1(OP_ERF, z, NULL), DT_FLOAT64, 0, -0.0, 1, -1, NaN));
  CHECK(EF(run1(OP_SIN, z, NULL), DT_FLOAT64, 0, -0.0, NaN, NaN, NaN));
  CHECK(EF(run1(OP_COS, z, NULL), DT_FLOAT64, 1, 1, NaN, NaN, NaN));
  CHECK(EF(run1(OP_TAN, z, NULL), DT_FLOAT64, 0, -0.0, NaN, NaN, NaN));
  CHECK(EF(run1(OP_ATAN, z, NULL), DT_FLOAT64, 0, -0.0, M_PI / 2, -M_PI / 2, NaN));
  CHECK(EF(run1(OP_SINH, z, NULL), DT_FLOAT64, 0, -0.0, Inf, -Inf, NaN));
  CHECK(EF(run1(OP_COSH, z, NULL), DT_FLOAT64, 1, 1, Inf, Inf, NaN));
  CHECK(EF(run1(OP_ASINH, z, NULL), DT_FLOAT64, 0, -0.0, Inf, -Inf, NaN));
  /* Domains: NaN outside, infinities at the poles. */
  Tensor *d = VF(DT_FLOAT32, 1, -1, 2, 0.5);
  CHECK(EF(run1(OP_ASIN, d, NULL), DT_FLOAT32, (float)(M_PI / 2), (float)(-M_PI / 2), NaN,
           (float)asin(0.5)));
  CHECK(EF(run1(OP_ACOS, d, NULL), DT_FLOAT32, 0, (float)M_PI, NaN, (float)acos(0.5)));
  CHECK(EF(run1(OP_ACOSH, d, NULL), DT_FLOAT32, 0, NaN, (float)acosh(2.0), NaN));
  CHECK(EF(run1(OP_ATANH, d, NULL), DT_FLOAT32, Inf, -Inf, NaN, (float)atanh(0.5)));
  Tensor *l = VF(DT_FLOAT32, 8, 1000, 0, -0.0, -1, Inf);
  CHECK(EF(run1(OP_LOG2, l, NULL), DT_FLOAT32, 3, (float)log2(1000.0), -Inf, -Inf, NaN, Inf));
  CHECK(EF(run1(OP_LOG10, l, NULL), DT_FLOAT32, (float)log10(8.0), 3, -Inf, -Inf, NaN, Inf));
  /* float32: one libm call in double, rounded once. */
  CHECK(EF(run1(OP_SIN, VF(DT_FLOAT32, 1), NULL), DT_FLOAT32, (float)sin((double)1.0f)));
  /* Predicates: float in, bool out. */
  Tensor *p = VF(DT_FLOAT32, 1, NaN, Inf, -Inf, -0.0);
  CHECK(EI(run1(OP_ISNAN, p, NULL), DT_BOOL, 0, 1, 0, 0, 0));
  CHECK(EI(run1(OP_ISINF, p, NULL), DT_BOOL, 0, 0, 1, 1, 0));
  CHECK(EI(run1(OP_ISFINITE, p, NULL), DT_BOOL, 1, 0, 0, 0, 1));
  CHECK(!run1(OP_ISNAN, VI(DT_INT32, 1), NULL));
  CHECK(!run1(OP_SIN, VI(DT_INT32, 1), NULL));
  /* bitwise_not: ints and bool. */
  CHECK(EI(run1(OP_BITWISE_NOT, VI(DT_INT8, 0, -1, 127, -128), NULL), DT_INT8, -1, 0, -128, 127));
  CHECK(EI(run1(OP_BITWISE_NOT, VI(DT_INT64, INT64_MIN), NULL), DT_INT64, INT64_MAX));
  CHECK(EI(run1(OP_BITWISE_NOT, VI(DT_BOOL, 0, 1), NULL), DT_BOOL, 1, 0));
  CHECK(!run1(OP_BITWISE_NOT, VF(DT_FLOAT32, 1), NULL));
}

/* ----------------------------------------------------------------- stats */

/* Reduction attributes: axis (NULL for None), keepdims, exclude, unbiased. */
static Attrs red(int n, const int64_t *axis, bool keep, bool excl, bool unbiased) {
  Attrs at = {0};
  if (axis)
    ir_attr_set_ints(A, &at, "axis", n, axis);
  if (keep)
    ir_attr_set_bool(A, &at, "keepdims", true);
  if (excl)
    ir_attr_set_bool(A, &at, "exclude", true);
  if (unbiased)
    ir_attr_set_bool(A, &at, "unbiased", true);
  return at;
}

static void test_all_any(void) {
  Tensor *b = ti(DT_BOOL, 2, SH(2, 3), IV(1, 1, 1, 0, 1, 0));
  Attrs all = {0}, a1 = red(1, IV(1), false, false, false), k0 = red(1, IV(0), true, false, false);
  Attrs ex1 = red(1, IV(1), false, true, false);
  CHECK(eqi(run1(OP_REDUCE_ALL, b, &all), DT_BOOL, 0, NULL, IV(0)));
  CHECK(eqi(run1(OP_REDUCE_ANY, b, &all), DT_BOOL, 0, NULL, IV(1)));
  CHECK(EI(run1(OP_REDUCE_ALL, b, &a1), DT_BOOL, 1, 0));
  CHECK(EI(run1(OP_REDUCE_ANY, b, &ex1), DT_BOOL, 1, 1, 1));
  CHECK(eqi(run1(OP_REDUCE_ALL, b, &k0), DT_BOOL, 2, SH(1, 3), IV(0, 1, 0)));
  /* Over no elements: all true, any false. */
  Tensor *e = ti(DT_BOOL, 2, SH(2, 0), NULL);
  CHECK(EI(run1(OP_REDUCE_ALL, e, &a1), DT_BOOL, 1, 1));
  CHECK(EI(run1(OP_REDUCE_ANY, e, &a1), DT_BOOL, 0, 0));
  CHECK(!run1(OP_REDUCE_ALL, VI(DT_INT32, 1), &all));
}

static void test_logsumexp(void) {
  Attrs all = {0}, a1 = red(1, IV(-1), true, false, false);
  CHECK(eqf(run1(OP_LOGSUMEXP, VF(DT_FLOAT64, 1, 2, 3), &all), DT_FLOAT64, 0, NULL,
            DV(log(exp(-2.0) + exp(-1.0) + 1.0) + 3.0)));
  /* Large values do not overflow: the max is taken out first. */
  CHECK(eqf(run1(OP_LOGSUMEXP, VF(DT_FLOAT32, 1000, 1000), &all), DT_FLOAT32, 0, NULL,
            DV((float)((float)log(2.0) + 1000.0f))));
  /* A slice whose max is infinite gives NaN (inf - inf), as TVM's; NaN
   * wins the max; over no elements -inf. */
  Tensor *x = tf(DT_FLOAT32, 2, SH(4, 2), DV(-Inf, -Inf, Inf, 1, NaN, 1, 0, -Inf));
  CHECK(eqf(run1(OP_LOGSUMEXP, x, &a1), DT_FLOAT32, 2, SH(4, 1), DV(NaN, NaN, NaN, 0)));
  CHECK(
      eqf(run1(OP_LOGSUMEXP, tf(DT_FLOAT32, 1, SH(0), NULL), &all), DT_FLOAT32, 0, NULL, DV(-Inf)));
  /* A scalar: log(exp(0)) + x = x. */
  CHECK(eqf(run1(OP_LOGSUMEXP, tf(DT_FLOAT64, 0, NULL, DV(-7.5)), &all), DT_FLOAT64, 0, NULL,
            DV(-7.5)));
  CHECK(!run1(OP_LOGSUMEXP, VI(DT_INT32, 1), &all));
}

static void test_variance(void) {
  Attrs all = {0}, unb = red(0, NULL, false, false, true);
  Tensor *x = VF(DT_FLOAT64, 1, 2, 3, 4), *m = VF(DT_FLOAT64, 2.5);
  CHECK(eqf(run2(OP_VARIANCE, x, m, &all), DT_FLOAT64, 0, NULL, DV(1.25)));
  CHECK(eqf(run2(OP_VARIANCE, x, m, &unb), DT_FLOAT64, 0, NULL, DV(5.0 / 3)));
  CHECK(eqf(run2(OP_STD, x, m, &all), DT_FLOAT64, 0, NULL, DV(sqrt(1.25))));
  /* The mean is an argument: variance about 0. */
  CHECK(eqf(run2(OP_VARIANCE, VF(DT_FLOAT32, 1, 3), VF(DT_FLOAT32, 0), &all), DT_FLOAT32, 0, NULL,
            DV(5)));
  /* Per row (axis 1, keepdims), the mean (2, 1); float32 division. */
  Tensor *y = tf(DT_FLOAT32, 2, SH(2, 3), DV(1, 2, 3, 4, 5, 6));
  Tensor *ym = tf(DT_FLOAT32, 2, SH(2, 1), DV(2, 5));
  Attrs k1 = red(1, IV(1), true, false, false), ex0 = red(1, IV(0), false, true, false);
  float third = 2.0f / 3.0f;
  CHECK(eqf(run2(OP_VARIANCE, y, ym, &k1), DT_FLOAT32, 2, SH(2, 1), DV(third, third)));
  CHECK(EF(run2(OP_STD, y, ym, &ex0), DT_FLOAT32, (float)sqrt((double)third),
           (float)sqrt((double)third)));
  /* Unbiased over one element divides by zero: 0 / 0 and 1 / 0. */
  Attrs u1 = red(1, IV(1), false, false, true);
  Tensor *z = tf(DT_FLOAT32, 2, SH(2, 1), DV(3, 4)), *zm = tf(DT_FLOAT32, 2, SH(2, 1), DV(3, 3));
  CHECK(EF(run2(OP_VARIANCE, z, zm, &u1), DT_FLOAT32, NaN, Inf));
  /* Nothing reduced (exclude listing every axis): each element alone. */
  Attrs exall = red(2, IV(0, 1), false, true, false);
  CHECK(eqf(run2(OP_VARIANCE, z, zm, &exall), DT_FLOAT32, 2, SH(2, 1), DV(0, 1)));
  /* The mean: same dtype and rank, each dim the data's or 1. */
  CHECK(!run2(OP_VARIANCE, y, VF(DT_FLOAT32, 1), &all));
  CHECK(!run2(OP_VARIANCE, y, tf(DT_FLOAT64, 2, SH(1, 1), DV(0)), &all));
  CHECK(!run2(OP_VARIANCE, y, tf(DT_FLOAT32, 2, SH(2, 2), DV(0, 0, 0, 0)), &all));
  CHECK(!run1(OP_VARIANCE, y, &all));
}

/* ------------------------------------------------------------ cumulative */

/* Scan attributes: axis (none when absent), dtype ("" when NULL), exclusive. */
static Attrs scan(bool has_axis, int64_t axis, const char *dtype, bool excl) {
  Attrs at = {0};
  if (has_axis)
    ir_attr_set_int(A, &at, "axis", axis);
  if (dtype)
    ir_attr_set_str(A, &at, "dtype", dtype);
  if (excl)
    ir_attr_set_bool(A, &at, "exclusive", true);
  return at;
}

static void test_cumulative(void) {
  Attrs none = {0}, ex = scan(false, 0, NULL, true);
  CHECK(EI(run1(OP_CUMSUM, VI(DT_INT32, 1, 2, 3), &none), DT_INT32, 1, 3, 6));
  CHECK(EI(run1(OP_CUMSUM, VI(DT_INT32, 1, 2, 3), &ex), DT_INT32, 0, 1, 3));
  CHECK(EI(run1(OP_CUMPROD, VI(DT_INT32, 2, 3, 4), &none), DT_INT32, 2, 6, 24));
  CHECK(EI(run1(OP_CUMPROD, VI(DT_INT32, 2, 3, 4), &ex), DT_INT32, 1, 2, 6));
  /* Axes of (2, 3); None flattens. */
  Tensor *x = ti(DT_INT64, 2, SH(2, 3), IV(1, 2, 3, 4, 5, 6));
  Attrs a0 = scan(true, 0, NULL, false), am1 = scan(true, -1, NULL, false);
  CHECK(eqi(run1(OP_CUMSUM, x, &a0), DT_INT64, 2, SH(2, 3), IV(1, 2, 3, 5, 7, 9)));
  CHECK(eqi(run1(OP_CUMSUM, x, &am1), DT_INT64, 2, SH(2, 3), IV(1, 3, 6, 4, 9, 15)));
  CHECK(EI(run1(OP_CUMSUM, x, &none), DT_INT64, 1, 3, 6, 10, 15, 21));
  CHECK(eqi(run1(OP_CUMSUM, ti(DT_INT8, 0, NULL, IV(5)), &none), DT_INT8, 1, SH(1), IV(5)));
  /* dtype: each element converted first; integers wrap. */
  Attrs i8 = scan(false, 0, "int8", false), i32 = scan(false, 0, "int32", false);
  Attrs f32 = scan(false, 0, "float32", false);
  CHECK(EI(run1(OP_CUMSUM, VI(DT_INT32, 100, 100, 300), &i8), DT_INT8, 100, -56, -12));
  CHECK(EI(run1(OP_CUMSUM, VF(DT_FLOAT64, 1.5, 2.7, -0.9), &i32), DT_INT32, 1, 3, 3));
  CHECK(EF(run1(OP_CUMPROD, VI(DT_INT64, 3, -2), &f32), DT_FLOAT32, 3, -6));
  /* Floats: each prefix accumulated in double and rounded once, so the
   * last element is sum's (a float32 step by step would stay at 2^24). */
  CHECK(EF(run1(OP_CUMSUM, VF(DT_FLOAT32, 16777216, 1, 1), &none), DT_FLOAT32, 16777216, 16777216,
           16777218));
  CHECK(EF(run1(OP_CUMPROD, VF(DT_FLOAT32, 0, Inf, 2), &none), DT_FLOAT32, 0, NaN, NaN));
  /* Empty along the axis. */
  Tensor *e = tf(DT_FLOAT32, 2, SH(2, 0), NULL);
  Attrs a1 = scan(true, 1, NULL, true);
  CHECK(run1(OP_CUMSUM, e, &a1) && run1(OP_CUMSUM, e, &a1)->numel == 0);
  /* Errors: the axis out of range, a scalar with an axis, bool. */
  Attrs a2 = scan(true, 2, NULL, false), b = scan(false, 0, "bool", false);
  CHECK(!run1(OP_CUMSUM, x, &a2));
  CHECK(!run1(OP_CUMSUM, ti(DT_INT8, 0, NULL, IV(5)), &a0));
  CHECK(!run1(OP_CUMSUM, x, &b));
  CHECK(!run1(OP_CUMPROD, VI(DT_BOOL, 1), &none));
}

int main(void) {
  A = arena_new();
  test_int_division();
  test_float_division();
  test_logical_bitwise();
  test_shifts();
  test_math();
  test_all_any();
  test_logsumexp();
  test_variance();
  test_cumulative();
  arena_free(A);
  return test_summary();
}
