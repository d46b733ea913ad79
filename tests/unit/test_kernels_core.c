/* Kernels and relations of the unary, broadcast and reduction families
 * against hand-computed values: integer edge cases (wrapping, INT_MIN,
 * division by zero), NaN and signed zeros, broadcasting with rank
 * mismatch, negative axes, keepdims and exclude, empty reductions; and the
 * relations' errors and deferral.  Relations and kernels are called
 * directly (not through the registry), so this test links only these
 * families. */
#include <float.h>
#include <math.h>

#include "compiler/ops/op.h"
#include "compiler/ops/op_int.h"
#include "test.h"

/* The relation and kernel of each operator of the three families:
 * OP_FAM(family) expands to 1 for them and 0 otherwise. */
#define FAM_unary 1
#define FAM_broadcast 1
#define FAM_reduction 1
#define FAM_shape 0
#define FAM_join 0
#define FAM_index 0
#define FAM_create 0
#define FAM_matmul 0
#define FAM_conv 0
#define FAM_pool 0
#define FAM_nn 0
#define FAM_binary 0
#define FAM_math 0
#define FAM_stats 0
#define FAM_cumulative 0
#define FAM_nn2 0
#define FAM_conv_extra 0
#define FAM_gather 0
#define FAM_sort 0
#define FAM_transform 0
#define FAM_image 0
#define FAM_arange 0
#define FAM_einsum 0
#define CAT(a, b) CAT_(a, b)
#define CAT_(a, b) a##b
#define IF_1(...) __VA_ARGS__
#define IF_0(...)
typedef struct Fns {
  OpRelFn rel;
  OpKernelFn kernel;
} Fns;
static const Fns fns[OP_COUNT] = {
#define OP(id, name, family, pattern, schema, sem, rel, rec, solve, sample, kernel)                \
  CAT(IF_, FAM_##family)([OP_##id] = {rel, kernel}, )
#include "compiler/ops/ops.def"
#undef OP
};

static Arena *A;

/* A tensor of dtype dt and the given shape holding doubles (stored with
 * the defined conversions). */
static Tensor *tf(DType dt, int rank, const int64_t *shape, const double *v) {
  Tensor *t = ir_tensor_new(A, dt, rank, shape);
  for (int64_t i = 0; i < t->numel; i++)
    ir_tensor_set_f64(t, i, v[i]);
  return t;
}

/* A tensor holding exact int64 values (wrapped to dt). */
static Tensor *ti(DType dt, int rank, const int64_t *shape, const int64_t *v) {
  Tensor *t = ir_tensor_new(A, dt, rank, shape);
  for (int64_t i = 0; i < t->numel; i++)
    ir_tensor_set_i64(t, i, v[i]);
  return t;
}

#define SH(...) ((const int64_t[]){__VA_ARGS__})
#define DV(...) ((const double[]){__VA_ARGS__})
#define IV(...) ((const int64_t[]){__VA_ARGS__})
#define N(...) (int)(sizeof((const int64_t[]){__VA_ARGS__}) / sizeof(int64_t))
/* A rank-1 tensor from a list of doubles or of int64s. */
#define VF(dt, ...) tf(dt, 1, SH(sizeof(DV(__VA_ARGS__)) / sizeof(double)), DV(__VA_ARGS__))
#define VI(dt, ...) ti(dt, 1, SH(N(__VA_ARGS__)), IV(__VA_ARGS__))

/* Run op through its relation and kernel; NULL (and a message on stderr)
 * when the relation rejects the arguments. */
static Tensor *run(OpId op, int n, Tensor *const *args, const Attrs *at) {
  Type *ty[3], *ret;
  for (int i = 0; i < n; i++)
    ty[i] = ir_tensor_type_of(A, args[i]);
  char err[256] = "";
  if (fns[op].rel(op, ty, n, at, A, &ret, err, sizeof err) != REL_OK) {
    fprintf(stderr, "%s: %s\n", ir_op_name(op), err);
    return NULL;
  }
  Tensor *out = ir_tensor_of_type(A, ret);
  fns[op].kernel(op, args, n, at, &out, 1, A);
  return out;
}

static Tensor *run1(OpId op, Tensor *x, const Attrs *at) {
  return run(op, 1, &x, at);
}

static Tensor *run2(OpId op, Tensor *x, Tensor *y) {
  Tensor *args[2] = {x, y};
  return run(op, 2, args, NULL);
}

/* Bitwise float equality: NaN equals NaN, -0 differs from +0. */
static bool same(double a, double b) {
  return (isnan(a) && isnan(b)) || (a == b && signbit(a) == signbit(b));
}

/* Does t have this shape and these values (compared as doubles,
 * bitwise)? */
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

/* Does t have this shape and these exact integer values? */
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

/* Rank-1 expectations. */
#define EF(t, dt, ...) eqf(t, dt, 1, SH(sizeof(DV(__VA_ARGS__)) / sizeof(double)), DV(__VA_ARGS__))
#define EI(t, dt, ...) eqi(t, dt, 1, SH(N(__VA_ARGS__)), IV(__VA_ARGS__))

static const double NaN = NAN, Inf = INFINITY;

static void test_unary_int(void) {
  CHECK(EI(run1(OP_NEGATIVE, VI(DT_INT8, -128, -1, 0, 127), NULL), DT_INT8, -128, 1, 0, -127));
  CHECK(EI(run1(OP_NEGATIVE, VI(DT_INT32, INT32_MIN, 5), NULL), DT_INT32, INT32_MIN, -5));
  CHECK(EI(run1(OP_NEGATIVE, VI(DT_INT64, INT64_MIN, INT64_MAX), NULL), DT_INT64, INT64_MIN,
           -INT64_MAX));
  CHECK(EI(run1(OP_ABS, VI(DT_INT8, -128, -5, 5), NULL), DT_INT8, -128, 5, 5));
  CHECK(EI(run1(OP_ABS, VI(DT_INT64, INT64_MIN, -1), NULL), DT_INT64, INT64_MIN, 1));
  CHECK(EI(run1(OP_RELU, VI(DT_INT32, -5, 0, 7, INT32_MIN), NULL), DT_INT32, 0, 0, 7, 0));
  CHECK(EI(run1(OP_SIGN, VI(DT_INT8, -128, 0, 5), NULL), DT_INT8, -1, 0, 1));
  CHECK(EI(run1(OP_LOGICAL_NOT, VI(DT_BOOL, 0, 1), NULL), DT_BOOL, 1, 0));
  CHECK(EI(run1(OP_COPY, VI(DT_BOOL, 1, 0), NULL), DT_BOOL, 1, 0));
  CHECK(EI(run1(OP_COPY, VI(DT_INT64, INT64_MIN), NULL), DT_INT64, INT64_MIN));
}

static void test_unary_float(void) {
  DType f = DT_FLOAT32, d = DT_FLOAT64;
  CHECK(EF(run1(OP_NEGATIVE, VF(f, 1.5, -0.0, 0.0, NaN), NULL), f, -1.5, 0.0, -0.0, NaN));
  CHECK(EF(run1(OP_ABS, VF(d, -0.0, -Inf, -2), NULL), d, 0.0, Inf, 2));
  CHECK(EF(run1(OP_EXP, VF(f, 0, 1, -Inf, Inf, NaN, 1000), NULL), f, 1, (float)M_E, 0, Inf, NaN,
           Inf));
  CHECK(EF(run1(OP_LOG, VF(d, 1, 0, -1, Inf), NULL), d, 0, -Inf, NaN, Inf));
  CHECK(EF(run1(OP_SQRT, VF(d, 4, -0.0, -1), NULL), d, 2, -0.0, NaN));
  CHECK(EF(run1(OP_RSQRT, VF(f, 4, 0, Inf), NULL), f, 0.5, Inf, 0));
  CHECK(EF(run1(OP_SIGMOID, VF(d, 0, -Inf, Inf, 1000, -1000, NaN), NULL), d, 0.5, 0, 1, 1, 0, NaN));
  CHECK(EF(run1(OP_TANH, VF(f, 0, Inf, -Inf), NULL), f, 0, 1, -1));
  CHECK(EF(run1(OP_RELU, VF(f, -0.0, -1, 2, NaN, -Inf), NULL), f, 0.0, 0.0, 2, NaN, 0.0));
  CHECK(EF(run1(OP_FLOOR, VF(d, -1.5, 1.5, -0.0, Inf), NULL), d, -2, 1, -0.0, Inf));
  CHECK(EF(run1(OP_CEIL, VF(d, -1.5, 1.5, -0.5), NULL), d, -1, 2, -0.0));
  CHECK(EF(run1(OP_ROUND, VF(d, 0.5, 1.5, 2.5, -0.5, -1.5, 2.4, 2.6, 1e300, NaN), NULL), d, 0, 2, 2,
           -0.0, -2, 2, 3, 1e300, NaN));
  CHECK(EF(run1(OP_ROUND, VF(f, 3.5, -2.5), NULL), f, 4, -2));
  CHECK(EF(run1(OP_SIGN, VF(d, -0.0, 0.0, 3, -Inf, NaN), NULL), d, -0.0, 0.0, 1, -1, NaN));
  CHECK(EF(run1(OP_COPY, VF(f, -0.0, NaN), NULL), f, -0.0, NaN));
}

static void test_clip(void) {
  Attrs at = {0};
  ir_attr_set_float(A, &at, "a_min", -1);
  ir_attr_set_float(A, &at, "a_max", 2.5);
  CHECK(EF(run1(OP_CLIP, VF(DT_FLOAT32, -5, 0, 3, NaN, -Inf, Inf), &at), DT_FLOAT32, -1, 0, 2.5,
           NaN, -1, 2.5));
  /* Integer bounds saturate to the dtype and truncate: [-128, 1]. */
  Attrs wide = {0};
  ir_attr_set_float(A, &wide, "a_min", -1000);
  ir_attr_set_float(A, &wide, "a_max", 1.7);
  CHECK(EI(run1(OP_CLIP, VI(DT_INT8, -128, 0, 1, 127), &wide), DT_INT8, -128, 0, 1, 1));
  /* a_min > a_max: everything becomes a_max. */
  Attrs inv = {0};
  ir_attr_set_int(A, &inv, "a_min", 3);
  ir_attr_set_int(A, &inv, "a_max", 1);
  CHECK(EI(run1(OP_CLIP, VI(DT_INT32, -9, 2, 9), &inv), DT_INT32, 1, 1, 1));
  /* Omitted bounds are -inf and +inf. */
  CHECK(
      EI(run1(OP_CLIP, VI(DT_INT64, INT64_MIN, INT64_MAX), NULL), DT_INT64, INT64_MIN, INT64_MAX));
  /* -0 stays -0 at a zero bound (x < a_min is false), as the MLIR
   * translation keeps it (targets/mlir/translate.c, clip). */
  Attrs zero = {0};
  ir_attr_set_float(A, &zero, "a_min", 0);
  CHECK(EF(run1(OP_CLIP, VF(DT_FLOAT64, -0.0, 0.0), &zero), DT_FLOAT64, -0.0, 0.0));
  /* A float32 bound is rounded to float32 first. */
  Attrs tenth = {0};
  ir_attr_set_float(A, &tenth, "a_min", 0.1);
  CHECK(EF(run1(OP_CLIP, VF(DT_FLOAT32, 0.0), &tenth), DT_FLOAT32, (float)0.1));
}

static Attrs dtype_attr(const char *dt) {
  Attrs at = {0};
  ir_attr_set_str(A, &at, "dtype", dt);
  return at;
}

static void test_cast(void) {
  Attrs i8 = dtype_attr("int8"), i64 = dtype_attr("int64"), b = dtype_attr("bool");
  Attrs f32 = dtype_attr("float32"), f64 = dtype_attr("float64");
  CHECK(EI(run1(OP_CAST, VF(DT_FLOAT32, 1e10, -1e10, NaN, -1.9, 1.9, 127.5, Inf), &i8), DT_INT8,
           127, -128, 0, -1, 1, 127, 127));
  CHECK(EI(run1(OP_CAST, VF(DT_FLOAT64, 1e300, -1e300, 9.3e18, -Inf), &i64), DT_INT64, INT64_MAX,
           INT64_MIN, INT64_MAX, INT64_MIN));
  CHECK(EI(run1(OP_CAST, VI(DT_INT32, 300, -129, 128), &i8), DT_INT8, 44, 127, -128));
  CHECK(EI(run1(OP_CAST, VF(DT_FLOAT32, 0, -0.0, NaN, 0.5), &b), DT_BOOL, 0, 0, 1, 1));
  CHECK(EI(run1(OP_CAST, VI(DT_INT64, 0, INT64_MIN), &b), DT_BOOL, 0, 1));
  CHECK(EF(run1(OP_CAST, VI(DT_INT64, INT64_MAX), &f32), DT_FLOAT32, 9223372036854775808.0));
  CHECK(EF(run1(OP_CAST, VF(DT_FLOAT64, 1e300, -1e300, 1e-300), &f32), DT_FLOAT32, Inf, -Inf, 0));
  CHECK(EF(run1(OP_CAST, VI(DT_BOOL, 1, 0), &f64), DT_FLOAT64, 1, 0));
  /* Without dtype, cast is the identity. */
  CHECK(EI(run1(OP_CAST, VI(DT_INT8, -3), NULL), DT_INT8, -3));
}

static void test_broadcast_shapes(void) {
  /* (2, 3) + (3,) */
  Tensor *x = tf(DT_FLOAT32, 2, SH(2, 3), DV(1, 2, 3, 4, 5, 6));
  Tensor *y = VF(DT_FLOAT32, 10, 20, 30);
  CHECK(eqf(run2(OP_ADD, x, y), DT_FLOAT32, 2, SH(2, 3), DV(11, 22, 33, 14, 25, 36)));
  CHECK(eqf(run2(OP_SUBTRACT, y, x), DT_FLOAT32, 2, SH(2, 3), DV(9, 18, 27, 6, 15, 24)));
  /* (2, 1, 3) * (4, 1): rank mismatch, both sides broadcast -> (2, 4, 3). */
  Tensor *p = ti(DT_INT32, 3, SH(2, 1, 3), IV(1, 2, 3, 4, 5, 6));
  Tensor *q = ti(DT_INT32, 2, SH(4, 1), IV(1, 10, 100, 1000));
  Tensor *r = run2(OP_MULTIPLY, p, q);
  CHECK(eqi(r, DT_INT32, 3, SH(2, 4, 3),
            IV(1, 2, 3, 10, 20, 30, 100, 200, 300, 1000, 2000, 3000, 4, 5, 6, 40, 50, 60, 400, 500,
               600, 4000, 5000, 6000)));
  /* Scalar against a tensor, and a 0-sized dim against 1. */
  CHECK(EI(run2(OP_SUBTRACT, ti(DT_INT64, 0, NULL, IV(7)), VI(DT_INT64, 1, 2)), DT_INT64, 6, 5));
  Tensor *e = run2(OP_ADD, ti(DT_INT8, 2, SH(0, 3), NULL), ti(DT_INT8, 2, SH(1, 3), IV(1, 2, 3)));
  CHECK(e && e->rank == 2 && e->shape[0] == 0 && e->shape[1] == 3 && e->numel == 0);
}

static void test_broadcast_int(void) {
  CHECK(EI(run2(OP_ADD, VI(DT_INT8, 127, -128), VI(DT_INT8, 1, -1)), DT_INT8, -128, 127));
  CHECK(EI(run2(OP_ADD, VI(DT_INT64, INT64_MAX), VI(DT_INT64, 1)), DT_INT64, INT64_MIN));
  CHECK(EI(run2(OP_SUBTRACT, VI(DT_INT32, INT32_MIN), VI(DT_INT32, 1)), DT_INT32, INT32_MAX));
  CHECK(EI(run2(OP_MULTIPLY, VI(DT_INT8, 16, -128), VI(DT_INT8, 16, -1)), DT_INT8, 0, -128));
  CHECK(EI(run2(OP_MULTIPLY, VI(DT_INT64, INT64_MAX, INT64_MIN), VI(DT_INT64, 2, -1)), DT_INT64, -2,
           INT64_MIN));
  CHECK(EI(run2(OP_DIVIDE, VI(DT_INT32, 7, -7, 7, -7, 5, INT32_MIN, 0),
                VI(DT_INT32, 2, 2, -2, -2, 0, -1, 0)),
           DT_INT32, 3, -3, -3, 3, 0, INT32_MIN, 0));
  CHECK(EI(run2(OP_DIVIDE, VI(DT_INT8, -128, -128), VI(DT_INT8, -1, 0)), DT_INT8, -128, 0));
  CHECK(EI(run2(OP_DIVIDE, VI(DT_INT64, INT64_MIN, INT64_MIN, INT64_MAX),
                VI(DT_INT64, -1, 2, INT64_MIN)),
           DT_INT64, INT64_MIN, INT64_MIN / 2, 0));
  CHECK(EI(run2(OP_MAXIMUM, VI(DT_INT8, -128, 5), VI(DT_INT8, 127, -5)), DT_INT8, 127, 5));
  CHECK(EI(run2(OP_MINIMUM, VI(DT_INT64, INT64_MIN, 5), VI(DT_INT64, 0, -5)), DT_INT64, INT64_MIN,
           -5));
  /* int64 comparisons are exact: 2^53 + 1 and 2^53 are one double. */
  int64_t big = (int64_t)1 << 53;
  CHECK(EI(run2(OP_EQUAL, VI(DT_INT64, big + 1, 3), VI(DT_INT64, big, 3)), DT_BOOL, 0, 1));
  CHECK(EI(run2(OP_LESS, VI(DT_INT64, big, INT64_MIN), VI(DT_INT64, big + 1, INT64_MAX)), DT_BOOL,
           1, 1));
  CHECK(EI(run2(OP_GREATER_EQUAL, VI(DT_INT8, 1, 1, 2), VI(DT_INT8, 2, 1, 1)), DT_BOOL, 0, 1, 1));
  CHECK(EI(run2(OP_LESS, VI(DT_BOOL, 0, 1, 1), VI(DT_BOOL, 1, 1, 0)), DT_BOOL, 1, 0, 0));
  CHECK(EI(run2(OP_LOGICAL_AND, VI(DT_BOOL, 0, 0, 1, 1), VI(DT_BOOL, 0, 1, 0, 1)), DT_BOOL, 0, 0, 0,
           1));
  CHECK(EI(run2(OP_LOGICAL_OR, VI(DT_BOOL, 0, 0, 1, 1), VI(DT_BOOL, 0, 1, 0, 1)), DT_BOOL, 0, 1, 1,
           1));
}

static void test_broadcast_float(void) {
  DType f = DT_FLOAT32, d = DT_FLOAT64;
  CHECK(EF(run2(OP_DIVIDE, VF(d, 1, -1, 0, 1), VF(d, 0, 0, 0, -0.0)), d, Inf, -Inf, NaN, -Inf));
  CHECK(EF(run2(OP_POWER, VF(d, 2, -8, 0, NaN, 1), VF(d, 10, 1.0 / 3, 0, 0, NaN)), d, 1024, NaN, 1,
           1, 1));
  CHECK(EF(run2(OP_POWER, VF(f, 2), VF(f, 200)), f, Inf));
  CHECK(EF(run2(OP_MAXIMUM, VF(f, NaN, 1, -0.0, 0.0, 1), VF(f, 1, NaN, 0.0, -0.0, -Inf)), f, NaN,
           NaN, 0.0, 0.0, 1));
  CHECK(EF(run2(OP_MINIMUM, VF(d, NaN, 1, -0.0, 0.0, 1), VF(d, 1, NaN, 0.0, -0.0, -Inf)), d, NaN,
           NaN, -0.0, -0.0, -Inf));
  CHECK(EF(run2(OP_ADD, VF(f, FLT_MAX, Inf), VF(f, FLT_MAX, -Inf)), f, Inf, NaN));
  CHECK(EI(run2(OP_EQUAL, VF(d, NaN, -0.0, 1), VF(d, NaN, 0.0, 2)), DT_BOOL, 0, 1, 0));
  CHECK(EI(run2(OP_NOT_EQUAL, VF(d, NaN, -0.0, 1), VF(d, NaN, 0.0, 2)), DT_BOOL, 1, 0, 1));
  CHECK(EI(run2(OP_LESS_EQUAL, VF(f, 2, NaN, -Inf), VF(f, 2, 1, -Inf)), DT_BOOL, 1, 0, 1));
  CHECK(EI(run2(OP_GREATER, VF(f, NaN, 3, Inf), VF(f, 1, 2, Inf)), DT_BOOL, 0, 1, 0));
}

static void test_where(void) {
  Tensor *c = ti(DT_BOOL, 2, SH(2, 1), IV(1, 0));
  Tensor *x = VF(DT_FLOAT64, 1, 2, -0.0);
  Tensor *y = tf(DT_FLOAT64, 0, NULL, DV(NaN));
  Tensor *args[3] = {c, x, y};
  CHECK(eqf(run(OP_WHERE, 3, args, NULL), DT_FLOAT64, 2, SH(2, 3), DV(1, 2, -0.0, NaN, NaN, NaN)));
  /* The condition broadcasts too: scalar condition, (2,) and (3, 1). */
  Tensor *c2 = ti(DT_BOOL, 0, NULL, IV(0));
  Tensor *x2 = VI(DT_INT8, 1, 2);
  Tensor *y2 = ti(DT_INT8, 2, SH(3, 1), IV(-128, 0, 127));
  Tensor *args2[3] = {c2, x2, y2};
  CHECK(eqi(run(OP_WHERE, 3, args2, NULL), DT_INT8, 2, SH(3, 2), IV(-128, -128, 0, 0, 127, 127)));
}

/* Reduction attributes: axis (NULL for None), keepdims, exclude. */
static Attrs red(int n, const int64_t *axis, bool keep, bool excl) {
  Attrs at = {0};
  if (axis)
    ir_attr_set_ints(A, &at, "axis", n, axis);
  if (keep)
    ir_attr_set_bool(A, &at, "keepdims", true);
  if (excl)
    ir_attr_set_bool(A, &at, "exclude", true);
  return at;
}

static void test_reduce_axes(void) {
  Tensor *x = tf(DT_FLOAT32, 2, SH(2, 3), DV(1, 2, 3, 4, 5, 6));
  Attrs none = red(0, NULL, false, false), empty = red(0, IV(0), false, false);
  Attrs a0 = red(1, IV(0), false, false), am1 = red(1, IV(-1), false, false);
  Attrs keep1 = red(1, IV(1), true, false), ex0 = red(1, IV(0), false, true);
  Attrs both = red(2, IV(1, 0), false, false), keepall = red(0, NULL, true, false);
  Attrs exall = red(2, IV(0, -1), false, true), exnone = red(0, NULL, false, true);
  CHECK(eqf(run1(OP_SUM, x, &none), DT_FLOAT32, 0, NULL, DV(21)));
  CHECK(eqf(run1(OP_SUM, x, &empty), DT_FLOAT32, 0, NULL, DV(21)));
  CHECK(EF(run1(OP_SUM, x, &a0), DT_FLOAT32, 5, 7, 9));
  CHECK(EF(run1(OP_SUM, x, &am1), DT_FLOAT32, 6, 15));
  CHECK(eqf(run1(OP_SUM, x, &keep1), DT_FLOAT32, 2, SH(2, 1), DV(6, 15)));
  CHECK(EF(run1(OP_SUM, x, &ex0), DT_FLOAT32, 6, 15));
  CHECK(eqf(run1(OP_PROD, x, &both), DT_FLOAT32, 0, NULL, DV(720)));
  CHECK(eqf(run1(OP_MAX, x, &keepall), DT_FLOAT32, 2, SH(1, 1), DV(6)));
  /* exclude listing every axis reduces nothing; exclude with None, all. */
  CHECK(eqf(run1(OP_MEAN, x, &exall), DT_FLOAT32, 2, SH(2, 3), DV(1, 2, 3, 4, 5, 6)));
  CHECK(eqf(run1(OP_MIN, x, &exnone), DT_FLOAT32, 0, NULL, DV(1)));
  /* Middle axis of (2, 2, 2), negative and with keepdims. */
  Tensor *z = ti(DT_INT32, 3, SH(2, 2, 2), IV(1, 2, 3, 4, 5, 6, 7, 8));
  Attrs mid = red(1, IV(-2), true, false);
  CHECK(eqi(run1(OP_SUM, z, &mid), DT_INT32, 3, SH(2, 1, 2), IV(4, 6, 12, 14)));
  Attrs outer = red(2, IV(2, 0), false, false);
  CHECK(EI(run1(OP_SUM, z, &outer), DT_INT32, 14, 22));
  /* A scalar reduces to itself. */
  CHECK(eqi(run1(OP_PROD, ti(DT_INT8, 0, NULL, IV(-7)), &none), DT_INT8, 0, NULL, IV(-7)));
}

static void test_reduce_values(void) {
  Attrs all = {0};
  CHECK(eqi(run1(OP_SUM, VI(DT_INT8, 127, 1), &all), DT_INT8, 0, NULL, IV(-128)));
  CHECK(eqi(run1(OP_SUM, VI(DT_INT64, INT64_MAX, 1), &all), DT_INT64, 0, NULL, IV(INT64_MIN)));
  CHECK(eqi(run1(OP_PROD, VI(DT_INT8, 16, 16), &all), DT_INT8, 0, NULL, IV(0)));
  CHECK(eqi(run1(OP_PROD, VI(DT_INT64, INT64_MIN, -1), &all), DT_INT64, 0, NULL, IV(INT64_MIN)));
  CHECK(eqf(run1(OP_PROD, VF(DT_FLOAT64, 2, 0.5, -3), &all), DT_FLOAT64, 0, NULL, DV(-3)));
  /* Integer mean: exact sum, truncated quotient. */
  CHECK(eqi(run1(OP_MEAN, VI(DT_INT32, -7, 2), &all), DT_INT32, 0, NULL, IV(-2)));
  CHECK(eqi(run1(OP_MEAN, VI(DT_INT8, 100, 100, 100), &all), DT_INT8, 0, NULL, IV(100)));
  CHECK(eqf(run1(OP_MEAN, VF(DT_FLOAT32, 1, 2), &all), DT_FLOAT32, 0, NULL, DV(1.5)));
  /* NaN wins max and min; +0 is above -0. */
  CHECK(eqf(run1(OP_MAX, VF(DT_FLOAT32, 1, NaN, 3), &all), DT_FLOAT32, 0, NULL, DV(NaN)));
  CHECK(eqf(run1(OP_MIN, VF(DT_FLOAT64, -Inf, NaN), &all), DT_FLOAT64, 0, NULL, DV(NaN)));
  CHECK(eqf(run1(OP_MAX, VF(DT_FLOAT64, -0.0, 0.0), &all), DT_FLOAT64, 0, NULL, DV(0.0)));
  CHECK(eqf(run1(OP_MIN, VF(DT_FLOAT64, 0.0, -0.0), &all), DT_FLOAT64, 0, NULL, DV(-0.0)));
  CHECK(eqf(run1(OP_SUM, VF(DT_FLOAT64, Inf, -Inf), &all), DT_FLOAT64, 0, NULL, DV(NaN)));
  CHECK(eqi(run1(OP_MIN, VI(DT_INT64, 5, INT64_MIN, 7), &all), DT_INT64, 0, NULL, IV(INT64_MIN)));
}

static void test_reduce_empty(void) {
  Attrs all = {0}, a1 = red(1, IV(1), false, false);
  Tensor *f = tf(DT_FLOAT32, 1, SH(0), NULL);
  Tensor *i8 = ti(DT_INT8, 1, SH(0), NULL);
  CHECK(eqf(run1(OP_SUM, f, &all), DT_FLOAT32, 0, NULL, DV(0)));
  CHECK(eqf(run1(OP_PROD, f, &all), DT_FLOAT32, 0, NULL, DV(1)));
  CHECK(eqf(run1(OP_MEAN, f, &all), DT_FLOAT32, 0, NULL, DV(NaN)));
  CHECK(eqf(run1(OP_MAX, f, &all), DT_FLOAT32, 0, NULL, DV(-Inf)));
  CHECK(eqf(run1(OP_MIN, f, &all), DT_FLOAT32, 0, NULL, DV(Inf)));
  CHECK(eqi(run1(OP_MEAN, i8, &all), DT_INT8, 0, NULL, IV(0)));
  CHECK(eqi(run1(OP_MAX, i8, &all), DT_INT8, 0, NULL, IV(-128)));
  CHECK(eqi(run1(OP_MIN, i8, &all), DT_INT8, 0, NULL, IV(127)));
  CHECK(eqi(run1(OP_ARGMAX, i8, &all), DT_INT32, 0, NULL, IV(0)));
  /* (2, 0) over axis 1: two empty reductions. */
  Tensor *e = ti(DT_INT32, 2, SH(2, 0), NULL);
  CHECK(EI(run1(OP_MAX, e, &a1), DT_INT32, INT32_MIN, INT32_MIN));
  CHECK(EI(run1(OP_MIN, e, &a1), DT_INT32, INT32_MAX, INT32_MAX));
  CHECK(EI(run1(OP_PROD, ti(DT_INT64, 2, SH(2, 0), NULL), &a1), DT_INT64, 1, 1));
  CHECK(EI(run1(OP_ARGMIN, e, &a1), DT_INT32, 0, 0));
  CHECK(eqi(run1(OP_MAX, ti(DT_INT64, 2, SH(1, 0), NULL), &all), DT_INT64, 0, NULL, IV(INT64_MIN)));
  /* Reducing a 0-sized axis away leaves a 0-sized result. */
  Attrs a0 = red(1, IV(0), false, false);
  Tensor *r = run1(OP_SUM, ti(DT_INT32, 2, SH(3, 0), NULL), &a0);
  CHECK(r && r->rank == 1 && r->shape[0] == 0);
  /* Empty, with dims whose product overflows int64. */
  Attrs a12 = red(2, IV(1, 2), false, false);
  r = run1(OP_MAX, ti(DT_FLOAT64, 3, SH(0, (int64_t)1 << 62, 4), NULL), &a12);
  CHECK(r && r->rank == 1 && r->shape[0] == 0);
}

static void test_argreduce(void) {
  Attrs a1 = red(1, IV(1), false, false), all = {0};
  Tensor *x = tf(DT_FLOAT32, 2, SH(2, 3), DV(1, 3, 3, NaN, 2, NaN));
  CHECK(EI(run1(OP_ARGMAX, x, &a1), DT_INT32, 1, 0));
  CHECK(EI(run1(OP_ARGMIN, x, &a1), DT_INT32, 0, 0));
  Tensor *y = tf(DT_FLOAT64, 2, SH(2, 2), DV(1, 5, 5, 2));
  CHECK(eqi(run1(OP_ARGMAX, y, &all), DT_INT32, 0, NULL, IV(1)));
  CHECK(eqi(run1(OP_ARGMIN, y, &all), DT_INT32, 0, NULL, IV(0)));
  CHECK(eqi(run1(OP_ARGMAX, VF(DT_FLOAT64, -0.0, 0.0), &all), DT_INT32, 0, NULL, IV(1)));
  CHECK(eqi(run1(OP_ARGMIN, VF(DT_FLOAT64, 0.0, -0.0), &all), DT_INT32, 0, NULL, IV(1)));
  CHECK(eqi(run1(OP_ARGMAX, VF(DT_FLOAT32, -Inf, -Inf), &all), DT_INT32, 0, NULL, IV(0)));
  CHECK(eqi(run1(OP_ARGMAX, VI(DT_INT64, 3, 7, 7), &all), DT_INT32, 0, NULL, IV(1)));
  CHECK(eqi(run1(OP_ARGMIN, VI(DT_INT8, 5, -128, -128), &all), DT_INT32, 0, NULL, IV(1)));
  /* Over axes 0 and 2 of (2, 2, 2): the index is i * 2 + k. */
  Tensor *z = ti(DT_INT32, 3, SH(2, 2, 2), IV(1, 9, 8, 2, 3, 4, 5, 7));
  Attrs outer = red(2, IV(0, -1), false, false);
  /* j = 0: [[1, 9], [3, 4]] -> max at (0, 1) = 1; j = 1: [[8, 2], [5, 7]]
   * -> max at (0, 0) = 0.  argmin: 0 and (0, 1) = 1. */
  CHECK(EI(run1(OP_ARGMAX, z, &outer), DT_INT32, 1, 0));
  CHECK(EI(run1(OP_ARGMIN, z, &outer), DT_INT32, 0, 1));
  Attrs keep = red(1, IV(0), true, false);
  CHECK(eqi(run1(OP_ARGMAX, z, &keep), DT_INT32, 3, SH(1, 2, 2), IV(1, 0, 0, 1)));
}

/* The relation rejects (REL_ERROR with a message) or defers. */
static RelStatus rel(OpId op, int n, Type *const *args, const Attrs *at, char *err) {
  Type *ret = NULL;
  err[0] = 0;
  return fns[op].rel(op, args, n, at, A, &ret, err, 200);
}

static Type *ty(DType dt, int rank, const int64_t *shape) {
  return ir_tensor_type(A, dt, rank, shape);
}

static void test_relations(void) {
  char err[200];
  Type *f = ty(DT_FLOAT32, 1, SH(3)), *i = ty(DT_INT32, 1, SH(3)), *b = ty(DT_BOOL, 1, SH(3));
  Type *f4 = ty(DT_FLOAT32, 1, SH(4)), *m = ty(DT_FLOAT32, 2, SH(2, 3));
  Type *unk = ir_incomplete_type(A, 1), *tup = ir_tuple_type(A, 1, &f);
  Type *ff[2] = {f, f}, *fi[2] = {f, i}, *ii[2] = {i, i}, *bb[2] = {b, b}, *f43[2] = {f4, f};
  Type *fu[2] = {f, unk};
  CHECK(rel(OP_EXP, 1, &i, NULL, err) == REL_ERROR && strstr(err, "float"));
  CHECK(rel(OP_LOGICAL_NOT, 1, &f, NULL, err) == REL_ERROR && err[0]);
  CHECK(rel(OP_NEGATIVE, 1, &b, NULL, err) == REL_ERROR && err[0]);
  CHECK(rel(OP_COPY, 1, &b, NULL, err) == REL_OK);
  CHECK(rel(OP_ABS, 2, ff, NULL, err) == REL_ERROR && strstr(err, "argument"));
  CHECK(rel(OP_ABS, 1, &tup, NULL, err) == REL_ERROR && strstr(err, "tensor"));
  CHECK(rel(OP_ABS, 1, &unk, NULL, err) == REL_DEFER);
  Attrs bad = {0};
  ir_attr_set_str(A, &bad, "a_min", "x");
  CHECK(rel(OP_CLIP, 1, &f, &bad, err) == REL_ERROR && strstr(err, "a_min"));
  Attrs extra = {0};
  ir_attr_set_int(A, &extra, "axis", 0);
  CHECK(rel(OP_SQRT, 1, &f, &extra, err) == REL_ERROR && strstr(err, "unknown attribute"));
  Attrs f8 = dtype_attr("float8");
  CHECK(rel(OP_CAST, 1, &f, &f8, err) == REL_ERROR && strstr(err, "float8"));
  Attrs nodt = {0};
  ir_attr_set_int(A, &nodt, "dtype", 3);
  CHECK(rel(OP_CAST, 1, &f, &nodt, err) == REL_ERROR && err[0]);
  CHECK(rel(OP_ADD, 2, fi, NULL, err) == REL_ERROR && strstr(err, "dtype"));
  CHECK(rel(OP_ADD, 2, f43, NULL, err) == REL_ERROR && strstr(err, "(4,) float32"));
  CHECK(rel(OP_ADD, 2, bb, NULL, err) == REL_ERROR && err[0]);
  CHECK(rel(OP_POWER, 2, ii, NULL, err) == REL_ERROR && strstr(err, "float"));
  CHECK(rel(OP_LOGICAL_OR, 2, ii, NULL, err) == REL_ERROR && strstr(err, "bool"));
  CHECK(rel(OP_EQUAL, 2, bb, NULL, err) == REL_OK);
  CHECK(rel(OP_ADD, 2, fu, NULL, err) == REL_DEFER);
  CHECK(rel(OP_ADD, 1, ff, NULL, err) == REL_ERROR);
  Type *w1[3] = {f, f, f}, *w2[3] = {b, f, i}, *w3[3] = {b, f, f4}, *w4[3] = {b, unk, f};
  CHECK(rel(OP_WHERE, 3, w1, NULL, err) == REL_ERROR && strstr(err, "bool"));
  CHECK(rel(OP_WHERE, 3, w2, NULL, err) == REL_ERROR && strstr(err, "dtype"));
  CHECK(rel(OP_WHERE, 3, w3, NULL, err) == REL_ERROR && strstr(err, "broadcast"));
  CHECK(rel(OP_WHERE, 3, w4, NULL, err) == REL_DEFER);
  Attrs out = red(1, IV(2), false, false), dup = red(2, IV(0, -2), false, false);
  Attrs low = red(1, IV(INT64_MIN), false, false);
  CHECK(rel(OP_SUM, 1, &m, &out, err) == REL_ERROR && strstr(err, "out of range"));
  CHECK(rel(OP_SUM, 1, &m, &low, err) == REL_ERROR && strstr(err, "out of range"));
  CHECK(rel(OP_ARGMAX, 1, &m, &dup, err) == REL_ERROR && strstr(err, "repeated"));
  CHECK(rel(OP_MAX, 1, &b, NULL, err) == REL_ERROR && err[0]);
  Attrs one = {0};
  ir_attr_set_int(A, &one, "axis", 1);
  CHECK(rel(OP_SUM, 1, &m, &one, err) == REL_ERROR && strstr(err, "axis"));
  Attrs kd = {0};
  ir_attr_set_str(A, &kd, "keepdims", "yes");
  CHECK(rel(OP_MEAN, 1, &m, &kd, err) == REL_ERROR && strstr(err, "keepdims"));
  Attrs nonax = {0};
  ir_attr_set_none(A, &nonax, "axis");
  CHECK(rel(OP_SUM, 1, &m, &nonax, err) == REL_OK);
  CHECK(rel(OP_PROD, 1, &unk, NULL, err) == REL_DEFER);
  /* argmax's result is int32 whatever the input. */
  Type *ret = NULL;
  Attrs a0 = red(1, IV(0), true, false);
  CHECK(fns[OP_ARGMIN].rel(OP_ARGMIN, &m, 1, &a0, A, &ret, err, 200) == REL_OK &&
        ret->tensor.dtype == DT_INT32 && ret->tensor.rank == 2 && ret->tensor.shape[0] == 1 &&
        ret->tensor.shape[1] == 3);
}

int main(void) {
  A = arena_new();
  test_unary_int();
  test_unary_float();
  test_clip();
  test_cast();
  test_broadcast_shapes();
  test_broadcast_int();
  test_broadcast_float();
  test_where();
  test_reduce_axes();
  test_reduce_values();
  test_reduce_empty();
  test_argreduce();
  test_relations();
  arena_free(A);
  return test_summary();
}
