/*
 * The shape, join, index and create families (compiler/ops/shape.c,
 * join.c, index.c, create.c): hand-computed results of every operator's
 * relation and kernel, the relations' error messages, and a property loop
 * over the recognizers, solvers, samplers and kernels driven by a small
 * PRNG.  It calls the families' functions directly, not through the
 * registry.
 */
#include <math.h>

#include "compiler/ops/op_int.h"
#include "test.h"

/* ------------------------------------------------ the family's functions */

typedef struct Fns {
  OpRelFn rel;
  OpRecFn rec;
  OpSolveFn solve;
  OpSampleFn sample;
  OpKernelFn kernel;
} Fns;

/* Pick out these families' rows of ops.def; other families' functions
 * are not referenced. */
#define SEL_shape(x) x
#define SEL_join(x) x
#define SEL_index(x) x
#define SEL_create(x) x
#define SEL_unary(x) NULL
#define SEL_broadcast(x) NULL
#define SEL_reduction(x) NULL
#define SEL_matmul(x) NULL
#define SEL_conv(x) NULL
#define SEL_pool(x) NULL
#define SEL_nn(x) NULL
#define SEL_binary(x) NULL
#define SEL_math(x) NULL
#define SEL_stats(x) NULL
#define SEL_cumulative(x) NULL
#define SEL_nn2(x) NULL
#define SEL_conv_extra(x) NULL
#define SEL_gather(x) NULL
#define SEL_sort(x) NULL
#define SEL_transform(x) NULL
#define SEL_image(x) NULL
#define SEL_arange(x) NULL
#define SEL_einsum(x) NULL
static const Fns fns[OP_COUNT] = {
#define OP(id, name, family, pattern, schema, sem, rel, rec, solve, sample, kernel)                \
  [OP_##id] = {SEL_##family(rel), SEL_##family(rec), SEL_##family(solve), SEL_##family(sample),    \
               SEL_##family(kernel)},
#include "compiler/ops/ops.def"
#undef OP
};

static const OpLimits limits = {.max_rank = 4,
                                .max_dim = 8,
                                .max_numel = 256,
                                .max_flops = 16384,
                                .dtypes = (1u << DT_COUNT) - 1};

/* --------------------------------------------------------------- helpers */

static Arena *A; /* per test function */

/* A tensor type in the test's arena. */
static Type *ty(DType dt, int rank, const int64_t *shape) {
  return ir_tensor_type(A, dt, rank, shape);
}
#define SHAPE(...) ((const int64_t[]){__VA_ARGS__})
#define T(dt, ...)                                                                                 \
  ty(dt, (int)(sizeof((int64_t[]){__VA_ARGS__}) / sizeof(int64_t)), SHAPE(__VA_ARGS__))
#define T0(dt) ty(dt, 0, NULL)

/* A tensor holding vals (converted to dt), or zeros when vals is NULL. */
static Tensor *tensor_of(DType dt, int rank, const int64_t *shape, const double *vals) {
  Tensor *t = ir_tensor_new(A, dt, rank, shape);
  for (int64_t i = 0; vals && i < t->numel; i++)
    ir_tensor_set_f64(t, i, vals[i]);
  return t;
}
#define VALS(...) ((const double[]){__VA_ARGS__})

/* Append a Relay-style rendering of a type to buf. */
static void tystr(const Type *t, char *buf, size_t n) {
  size_t k = strlen(buf);
  if (!t) {
    snprintf(buf + k, n - k, "NULL");
  } else if (t->kind == TY_TENSOR) {
    k += (size_t)snprintf(buf + k, n - k, "Tensor[(");
    for (int i = 0; i < t->tensor.rank && k < n; i++)
      k += (size_t)snprintf(buf + k, n - k, "%s%lld", i ? ", " : "", (long long)t->tensor.shape[i]);
    if (k < n)
      snprintf(buf + k, n - k, "), %s]", ir_dtype_name(t->tensor.dtype));
  } else if (t->kind == TY_TUPLE) {
    snprintf(buf + k, n - k, "(");
    for (int i = 0; i < t->tuple.n; i++) {
      if (i)
        strncat(buf, ", ", n - strlen(buf) - 1);
      tystr(t->tuple.fields[i], buf, n);
    }
    strncat(buf, ")", n - strlen(buf) - 1);
  } else {
    snprintf(buf + k, n - k, "<kind %d>", t->kind);
  }
}

/* A type as text, in one of four rotating buffers. */
static const char *show(const Type *t) {
  static char bufs[4][512];
  static int next;
  char *b = bufs[next++ % 4];
  b[0] = 0;
  tystr(t, b, 512);
  return b;
}

/* Run op's relation; returns the status and leaves the message in err. */
static char err[512];
static RelStatus rel(OpId op, Type *const *args, int nargs, const Attrs *at, Type **out) {
  err[0] = 0;
  *out = NULL;
  return fns[op].rel(op, args, nargs, at, A, out, err, sizeof err);
}

/* The relation's result must be want (a type string). */
#define CHECK_REL(op, want, at, ...)                                                               \
  do {                                                                                             \
    Type *args_[] = {__VA_ARGS__}, *out_;                                                          \
    RelStatus s_ = rel(op, args_, (int)(sizeof args_ / sizeof *args_), at, &out_);                 \
    CHECK_MSG(s_ == REL_OK, "%s", err);                                                            \
    CHECK_STR(s_ == REL_OK ? show(out_) : err, want);                                              \
  } while (0)

/* The relation must reject with exactly this message. */
#define CHECK_ERR(op, msg, at, ...)                                                                \
  do {                                                                                             \
    Type *args_[] = {__VA_ARGS__}, *out_;                                                          \
    RelStatus s_ = rel(op, args_, (int)(sizeof args_ / sizeof *args_), at, &out_);                 \
    CHECK_MSG(s_ == REL_ERROR, "accepted: %s", show(out_));                                        \
    CHECK_STR(err, msg);                                                                           \
  } while (0)

/* Evaluate op on tensors as op_eval does: relation, then kernel.  Returns
 * the number of outputs (into outs) or -1 with err set. */
static int eval(OpId op, Tensor **args, int nargs, const Attrs *at, Tensor **outs) {
  Type *targs[OP_MAX_ARGS], *fields[64], *ret;
  int ntargs = nargs;
  for (int i = 0; i < nargs; i++)
    fields[i] = ir_tensor_type_of(A, args[i]);
  if (op == OP_CONCATENATE || op == OP_STACK) {
    targs[0] = ir_tuple_type(A, nargs, fields);
    ntargs = 1;
  } else {
    memcpy(targs, fields, sizeof(Type *) * (size_t)nargs);
  }
  if (rel(op, targs, ntargs, at, &ret) != REL_OK)
    return -1;
  int n = ret->kind == TY_TUPLE ? ret->tuple.n : 1;
  for (int i = 0; i < n; i++)
    outs[i] = ir_tensor_of_type(A, ret->kind == TY_TUPLE ? ret->tuple.fields[i] : ret);
  fns[op].kernel(op, args, nargs, at, outs, n, A);
  return n;
}

/* The tensor must have this shape and these values. */
static bool tensor_is(const Tensor *t, int rank, const int64_t *shape, const double *vals) {
  if (t->rank != rank || memcmp(t->shape, shape, sizeof(int64_t) * (size_t)rank) != 0)
    return false;
  for (int64_t i = 0; i < t->numel; i++) {
    double v = ir_tensor_get_f64(t, i);
    if (!(v == vals[i] || (isnan(v) && isnan(vals[i]))))
      return false;
  }
  return true;
}
#define CHECK_T(t, shape, vals)                                                                    \
  CHECK(tensor_is(t, (int)(sizeof(shape) / sizeof(int64_t)), shape, vals))

/* Attribute builders. */
static Attrs at_none(void) {
  return (Attrs){0};
}
static Attrs *ints(Attrs *at, const char *name, int n, const int64_t *v) {
  ir_attr_set_ints(A, at, name, n, v);
  return at;
}
static Attrs *one(Attrs *at, const char *name, int64_t v) {
  ir_attr_set_int(A, at, name, v);
  return at;
}
static Attrs *str(Attrs *at, const char *name, const char *v) {
  ir_attr_set_str(A, at, name, v);
  return at;
}
#define INTS(at, name, ...)                                                                        \
  ints(at, name, (int)(sizeof((int64_t[]){__VA_ARGS__}) / sizeof(int64_t)), SHAPE(__VA_ARGS__))

/* An Attrs holding only newshape, for reshape's table of cases. */
static Attrs newshape(int n, const int64_t *v) {
  Attrs at = at_none();
  ints(&at, "newshape", n, v);
  return at;
}
#define NS(...)                                                                                    \
  newshape((int)(sizeof((int64_t[]){__VA_ARGS__}) / sizeof(int64_t)), SHAPE(__VA_ARGS__))

/* ------------------------------------------------------------- reshape */

static void test_reshape(void) {
  Type *x = T(DT_FLOAT32, 2, 3, 4);
  Attrs at;
  /* The examples of Relay's reshape documentation. */
  struct {
    Attrs at;
    const char *want;
  } cases[] = {
      {NS(4, 0, 2), "Tensor[(4, 3, 2), float32]"},
      {NS(2, 0, 0), "Tensor[(2, 3, 4), float32]"},
      {NS(6, 1, -1), "Tensor[(6, 1, 4), float32]"},
      {NS(3, -1, 8), "Tensor[(3, 1, 8), float32]"},
      {NS(-1), "Tensor[(24), float32]"},
      {NS(-2), "Tensor[(2, 3, 4), float32]"},
      {NS(2, -2), "Tensor[(2, 3, 4), float32]"},
      {NS(-2, 1, 1), "Tensor[(2, 3, 4, 1, 1), float32]"},
      {NS(-3, 4), "Tensor[(6, 4), float32]"},
      {NS(0, -3), "Tensor[(2, 12), float32]"},
      {NS(-3, -2), "Tensor[(6, 4), float32]"},
      {NS(-4, 1, 2, -2), "Tensor[(1, 2, 3, 4), float32]"},
      {NS(2, -4, -1, 3, -2), "Tensor[(2, 1, 3, 4), float32]"},
      {NS(-4, 2, -1, 0, 0), "Tensor[(2, 1, 3, 4), float32]"},
  };
  for (size_t i = 0; i < sizeof cases / sizeof *cases; i++)
    CHECK_REL(OP_RESHAPE, cases[i].want, &cases[i].at, x);
  at = NS(-3, -3);
  CHECK_REL(OP_RESHAPE, "Tensor[(6, 20), int8]", &at, T(DT_INT8, 2, 3, 4, 5));
  /* Zero-size dims: 0 copies them, -1 infers from the other dims. */
  at = NS(0, -1);
  CHECK_REL(OP_RESHAPE, "Tensor[(0, 3), float32]", &at, T(DT_FLOAT32, 0, 3));
  at = NS(-1, 0);
  CHECK_REL(OP_RESHAPE, "Tensor[(2, 0), float32]", &at, T(DT_FLOAT32, 2, 0));
  at = NS(-1);
  CHECK_REL(OP_RESHAPE, "Tensor[(1), float32]", &at, T0(DT_FLOAT32));
  at = NS();
  CHECK_REL(OP_RESHAPE, "Tensor[(), bool]", &at, T(DT_BOOL, 1, 1));

  /* The kernel keeps the row-major order of the elements. */
  Tensor *in = tensor_of(DT_INT32, 2, SHAPE(2, 3), VALS(0, 1, 2, 3, 4, 5)), *out[1];
  at = NS(3, -1);
  CHECK(eval(OP_RESHAPE, &in, 1, &at, out) == 1);
  CHECK_T(out[0], SHAPE(3, 2), VALS(0, 1, 2, 3, 4, 5));
  at = NS(-1);
  CHECK(eval(OP_RESHAPE, &in, 1, &at, out) == 1);
  CHECK_T(out[0], SHAPE(6), VALS(0, 1, 2, 3, 4, 5));

  /* Errors. */
  Type *y = T(DT_FLOAT32, 2, 3);
  at = NS(4, -1);
  CHECK_ERR(OP_RESHAPE, "cannot reshape (2, 3) (6 elements) to (4, 1) (4 elements)", &at, y);
  at = NS(5);
  CHECK_ERR(OP_RESHAPE, "cannot reshape (2, 3) (6 elements) to (5) (5 elements)", &at, y);
  at = NS(-1, -1);
  CHECK_ERR(OP_RESHAPE, "newshape has more than one -1", &at, y);
  at = NS(-5, 6);
  CHECK_ERR(OP_RESHAPE, "newshape[0] = -5 is not a dim or one of 0, -1, -2, -3, -4", &at, y);
  at = NS(6, 0);
  CHECK_ERR(OP_RESHAPE, "newshape[1] = 0 copies input dim 1, but the input has rank 1", &at,
            T(DT_FLOAT32, 6));
  at = NS(-2, -1);
  CHECK_ERR(OP_RESHAPE, "newshape[1] = -1 after a -2 or -4 that moves positions is not supported",
            &at, y);
  at = NS(-4, 2, 3, -1);
  CHECK_ERR(OP_RESHAPE, "newshape[3] = -1 after a -2 or -4 that moves positions is not supported",
            &at, x);
  at = NS(2, -3);
  CHECK_ERR(OP_RESHAPE, "newshape[1] = -3 needs two input dims, the input has 1 left", &at, y);
  at = NS(-4, 2);
  CHECK_ERR(OP_RESHAPE, "newshape[0] = -4 must be followed by two dims", &at, y);
  at = NS(-4, -1, -1);
  CHECK_ERR(OP_RESHAPE, "newshape[0] = -4 must be followed by two dims, at most one -1", &at, y);
  at = NS(-4, 0, -1, 3);
  CHECK_ERR(OP_RESHAPE, "newshape[0] = -4 cannot infer a dim next to 0", &at, y);
  at = NS(-4, 4, -1, 3); /* 2 / 4 = 0: Relay's floor division, then the size check */
  CHECK_ERR(OP_RESHAPE, "cannot reshape (2, 3) (6 elements) to (4, 0, 3) (0 elements)", &at, y);
  at = NS(6, -2, 0);
  CHECK_ERR(OP_RESHAPE, "newshape[2] = 0 copies input dim 2, but the input has rank 2", &at, y);
  at = NS(1, 1, 1, 1, 1, 1, 6);
  CHECK_ERR(OP_RESHAPE, "newshape gives a result of rank above 6", &at, y);
  at = NS(3037000500, 3037000500, 4);
  CHECK_ERR(OP_RESHAPE, "newshape gives a result that is too large", &at, y);
  at = at_none();
  CHECK_ERR(OP_RESHAPE, "attribute newshape is required", &at, y);
  str(&at, "newshape", "6");
  CHECK_ERR(OP_RESHAPE, "attribute newshape must be a list of integers", &at, y);
  at = NS(6);
  CHECK_ERR(OP_RESHAPE, "argument 0 is not a tensor", &at, ir_tuple_type(A, 1, &y));
  CHECK_ERR(OP_RESHAPE, "expects 1 argument, got 2", &at, y, y);
  Type *bad = T(DT_FLOAT32, 2, -3);
  CHECK_ERR(OP_RESHAPE, "argument 0 has an invalid shape", &at, bad);
  Type *huge = T(DT_FLOAT32, 1ll << 40, 1ll << 40);
  CHECK_ERR(OP_RESHAPE, "argument 0 has an invalid shape", &at, huge);
  /* Unknown arguments defer. */
  Type *inc = ir_incomplete_type(A, 1), *o;
  CHECK(rel(OP_RESHAPE, &inc, 1, &at, &o) == REL_DEFER);
}

/* ----------------------------------------------------------- transpose */

static void test_transpose(void) {
  Type *x = T(DT_FLOAT64, 2, 3, 4);
  Attrs at = at_none();
  CHECK_REL(OP_TRANSPOSE, "Tensor[(4, 3, 2), float64]", &at, x);
  ir_attr_set_none(A, &at, "axes");
  CHECK_REL(OP_TRANSPOSE, "Tensor[(4, 3, 2), float64]", &at, x);
  CHECK_REL(OP_TRANSPOSE, "Tensor[(1, 2), float64]", INTS(&at, "axes", 1, 0), T(DT_FLOAT64, 2, 1));
  CHECK_REL(OP_TRANSPOSE, "Tensor[(3, 2, 4), float64]", INTS(&at, "axes", 1, 0, 2), x);
  CHECK_REL(OP_TRANSPOSE, "Tensor[(4, 2, 3), float64]", INTS(&at, "axes", -1, 0, 1), x);
  at = at_none();
  CHECK_REL(OP_TRANSPOSE, "Tensor[(), int8]", INTS(&at, "axes"), T0(DT_INT8));

  Tensor *in = tensor_of(DT_INT64, 2, SHAPE(2, 3), VALS(0, 1, 2, 3, 4, 5)), *out[1];
  at = at_none();
  CHECK(eval(OP_TRANSPOSE, &in, 1, &at, out) == 1);
  CHECK_T(out[0], SHAPE(3, 2), VALS(0, 3, 1, 4, 2, 5));
  /* (2, 2, 3) with axes (1, 2, 0): out[j][k][i] = in[i][j][k]. */
  in = tensor_of(DT_FLOAT32, 3, SHAPE(2, 2, 3), VALS(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11));
  CHECK(eval(OP_TRANSPOSE, &in, 1, INTS(&at, "axes", 1, 2, 0), out) == 1);
  CHECK_T(out[0], SHAPE(2, 3, 2), VALS(0, 6, 1, 7, 2, 8, 3, 9, 4, 10, 5, 11));

  CHECK_ERR(OP_TRANSPOSE, "axes has 2 entries, but the input has rank 3", INTS(&at, "axes", 0, 1),
            x);
  CHECK_ERR(OP_TRANSPOSE, "axis 0 appears twice in axes", INTS(&at, "axes", 0, 1, -3), x);
  CHECK_ERR(OP_TRANSPOSE, "axis 3 is out of range for rank 3", INTS(&at, "axes", 0, 1, 3), x);
  CHECK_ERR(OP_TRANSPOSE, "attribute axes must be a list of integers", str(&at, "axes", "x"), x);
}

/* --------------------------------------------------------- expand_dims */

static void test_expand_dims(void) {
  Type *x = T(DT_INT32, 2, 3);
  Attrs at = at_none();
  CHECK_REL(OP_EXPAND_DIMS, "Tensor[(1, 2, 3), int32]", &at, x); /* axis 0, one new axis */
  one(&at, "axis", 1);
  CHECK_REL(OP_EXPAND_DIMS, "Tensor[(2, 1, 1, 3), int32]", one(&at, "num_newaxis", 2), x);
  CHECK_REL(OP_EXPAND_DIMS, "Tensor[(2, 3), int32]", one(&at, "num_newaxis", 0), x);
  at = at_none();
  CHECK_REL(OP_EXPAND_DIMS, "Tensor[(2, 3, 1), int32]", one(&at, "axis", -1), x);
  CHECK_REL(OP_EXPAND_DIMS, "Tensor[(1, 2, 3), int32]", one(&at, "axis", -3), x);
  CHECK_REL(OP_EXPAND_DIMS, "Tensor[(2, 3, 1), int32]", one(&at, "axis", 2), x);
  CHECK_REL(OP_EXPAND_DIMS, "Tensor[(1), int32]", one(&at, "axis", 0), T0(DT_INT32));

  Tensor *in = tensor_of(DT_INT32, 2, SHAPE(2, 2), VALS(1, 2, 3, 4)), *out[1];
  CHECK(eval(OP_EXPAND_DIMS, &in, 1, one(&at, "axis", 1), out) == 1);
  CHECK_T(out[0], SHAPE(2, 1, 2), VALS(1, 2, 3, 4));

  CHECK_ERR(OP_EXPAND_DIMS, "axis 3 is out of range [-3, 2]", one(&at, "axis", 3), x);
  CHECK_ERR(OP_EXPAND_DIMS, "axis -4 is out of range [-3, 2]", one(&at, "axis", -4), x);
  one(&at, "axis", 0);
  CHECK_ERR(OP_EXPAND_DIMS, "num_newaxis must be >= 0, got -1", one(&at, "num_newaxis", -1), x);
  CHECK_ERR(OP_EXPAND_DIMS, "num_newaxis 2 would make the rank exceed 6",
            one(&at, "num_newaxis", 2), T(DT_INT32, 1, 1, 1, 1, 1));
  CHECK_ERR(OP_EXPAND_DIMS, "num_newaxis 9223372036854775807 would make the rank exceed 6",
            one(&at, "num_newaxis", INT64_MAX), T(DT_INT32, 1, 1));
  CHECK_ERR(OP_EXPAND_DIMS, "attribute axis must be an integer", INTS(&at, "axis", 0), x);
}

/* ------------------------------------------------------------- squeeze */

static void test_squeeze(void) {
  Type *x = T(DT_BOOL, 1, 2, 1, 3);
  Attrs at = at_none();
  CHECK_REL(OP_SQUEEZE, "Tensor[(2, 3), bool]", &at, x);
  CHECK_REL(OP_SQUEEZE, "Tensor[(2, 1, 3), bool]", INTS(&at, "axis", 0), x);
  CHECK_REL(OP_SQUEEZE, "Tensor[(1, 2, 3), bool]", INTS(&at, "axis", -2), x);
  CHECK_REL(OP_SQUEEZE, "Tensor[(2, 3), bool]", INTS(&at, "axis", 2, 0), x);
  CHECK_REL(OP_SQUEEZE, "Tensor[(1, 2, 1, 3), bool]", INTS(&at, "axis"), x);
  CHECK_REL(OP_SQUEEZE, "Tensor[(), bool]", INTS(&at, "axis", 0, 0), T(DT_BOOL, 1));
  at = at_none();
  CHECK_REL(OP_SQUEEZE, "Tensor[(0), bool]", &at, T(DT_BOOL, 1, 0, 1));

  Tensor *in = tensor_of(DT_BOOL, 3, SHAPE(1, 3, 1), VALS(1, 0, 1)), *out[1];
  CHECK(eval(OP_SQUEEZE, &in, 1, &at, out) == 1);
  CHECK_T(out[0], SHAPE(3), VALS(1, 0, 1));

  CHECK_ERR(OP_SQUEEZE, "cannot squeeze axis 1 of size 2", INTS(&at, "axis", 1), x);
  CHECK_ERR(OP_SQUEEZE, "axis 4 is out of range for rank 4", INTS(&at, "axis", 4), x);
  CHECK_ERR(OP_SQUEEZE, "axis -5 is out of range for rank 4", INTS(&at, "axis", -5), x);
}

/* -------------------------------------------------------- broadcast_to */

static void test_broadcast_to(void) {
  Attrs at = at_none();
  CHECK_REL(OP_BROADCAST_TO, "Tensor[(2, 3, 4), float32]", INTS(&at, "shape", 2, 3, 4),
            T(DT_FLOAT32, 3, 1));
  CHECK_REL(OP_BROADCAST_TO, "Tensor[(2, 3, 4), float32]", &at, T0(DT_FLOAT32));
  CHECK_REL(OP_BROADCAST_TO, "Tensor[(0), float32]", INTS(&at, "shape", 0), T(DT_FLOAT32, 1));
  CHECK_REL(OP_BROADCAST_TO, "Tensor[(5, 0), float32]", INTS(&at, "shape", 5, 0), T(DT_FLOAT32, 0));
  CHECK_REL(OP_BROADCAST_TO, "Tensor[(), float32]", INTS(&at, "shape"), T0(DT_FLOAT32));

  Tensor *in = tensor_of(DT_INT8, 1, SHAPE(3), VALS(1, 2, 3)), *out[1];
  CHECK(eval(OP_BROADCAST_TO, &in, 1, INTS(&at, "shape", 2, 3), out) == 1);
  CHECK_T(out[0], SHAPE(2, 3), VALS(1, 2, 3, 1, 2, 3));
  in = tensor_of(DT_INT8, 2, SHAPE(2, 1), VALS(7, 8));
  CHECK(eval(OP_BROADCAST_TO, &in, 1, INTS(&at, "shape", 2, 2, 3), out) == 1);
  CHECK_T(out[0], SHAPE(2, 2, 3), VALS(7, 7, 7, 8, 8, 8, 7, 7, 7, 8, 8, 8));

  CHECK_ERR(OP_BROADCAST_TO, "cannot broadcast (3) to (4)", INTS(&at, "shape", 4),
            T(DT_FLOAT32, 3));
  CHECK_ERR(OP_BROADCAST_TO, "cannot broadcast (3) to (3, 1)", INTS(&at, "shape", 3, 1),
            T(DT_FLOAT32, 3));
  CHECK_ERR(OP_BROADCAST_TO, "cannot broadcast (2, 3) to (3)", INTS(&at, "shape", 3),
            T(DT_FLOAT32, 2, 3));
  CHECK_ERR(OP_BROADCAST_TO, "shape has a negative dim -1", INTS(&at, "shape", 2, -1),
            T(DT_FLOAT32, 1));
  CHECK_ERR(OP_BROADCAST_TO, "result rank 7 exceeds 6", INTS(&at, "shape", 1, 1, 1, 1, 1, 1, 1),
            T(DT_FLOAT32, 1));
  CHECK_ERR(OP_BROADCAST_TO, "result shape is too large", INTS(&at, "shape", 1ll << 40, 1ll << 40),
            T(DT_FLOAT32, 1));
  at = at_none();
  CHECK_ERR(OP_BROADCAST_TO, "attribute shape is required", &at, T(DT_FLOAT32, 1));
}

/* --------------------------------------------------------- concatenate */

/* A tuple type of n fields. */
static Type *tup(int n, Type **f) {
  return ir_tuple_type(A, n, f);
}

static void test_concatenate(void) {
  Attrs at = at_none();
  Type *f[3] = {T(DT_FLOAT32, 2, 3), T(DT_FLOAT32, 2, 1), T(DT_FLOAT32, 2, 0)};
  CHECK_REL(OP_CONCATENATE, "Tensor[(2, 4), float32]", one(&at, "axis", 1), tup(2, f));
  CHECK_REL(OP_CONCATENATE, "Tensor[(2, 4), float32]", one(&at, "axis", -1), tup(3, f));
  CHECK_REL(OP_CONCATENATE, "Tensor[(2, 3), float32]", one(&at, "axis", 0), tup(1, f));
  Type *g[2] = {T(DT_INT32, 1, 3), T(DT_INT32, 2, 3)};
  at = at_none();
  CHECK_REL(OP_CONCATENATE, "Tensor[(3, 3), int32]", &at, tup(2, g));

  Tensor *in[3] = {tensor_of(DT_INT32, 2, SHAPE(2, 3), VALS(1, 2, 3, 4, 5, 6)),
                   tensor_of(DT_INT32, 2, SHAPE(2, 1), VALS(7, 8)),
                   tensor_of(DT_INT32, 2, SHAPE(2, 0), NULL)},
         *out[1];
  CHECK(eval(OP_CONCATENATE, in, 3, one(&at, "axis", 1), out) == 1);
  CHECK_T(out[0], SHAPE(2, 4), VALS(1, 2, 3, 7, 4, 5, 6, 8));
  in[1] = tensor_of(DT_INT32, 2, SHAPE(1, 3), VALS(7, 8, 9));
  CHECK(eval(OP_CONCATENATE, in, 2, one(&at, "axis", -2), out) == 1);
  CHECK_T(out[0], SHAPE(3, 3), VALS(1, 2, 3, 4, 5, 6, 7, 8, 9));

  Type *h[2] = {T(DT_FLOAT32, 2, 3), T(DT_INT32, 2, 3)};
  at = at_none();
  CHECK_ERR(OP_CONCATENATE, "tuple field 1 has dtype int32, field 0 has float32", &at, tup(2, h));
  h[1] = T(DT_FLOAT32, 6);
  CHECK_ERR(OP_CONCATENATE, "tuple field 1 has rank 1, field 0 has 2", &at, tup(2, h));
  h[1] = T(DT_FLOAT32, 3, 1);
  CHECK_ERR(OP_CONCATENATE,
            "tuple field 1 has shape (3, 1), which does not match (2, 3) outside the axis",
            one(&at, "axis", 1), tup(2, h));
  CHECK_ERR(OP_CONCATENATE, "axis 2 is out of range for rank 2", one(&at, "axis", 2), tup(2, h));
  Type *s[2] = {T0(DT_FLOAT32), T0(DT_FLOAT32)};
  CHECK_ERR(OP_CONCATENATE, "axis 0 is out of range for rank 0", one(&at, "axis", 0), tup(2, s));
  CHECK_ERR(OP_CONCATENATE, "expects a non-empty tuple", &at, tup(0, NULL));
  CHECK_ERR(OP_CONCATENATE, "expects a tuple of tensors", &at, f[0]);
  CHECK_ERR(OP_CONCATENATE, "expects 1 argument (a tuple of tensors), got 2", &at, tup(2, f),
            tup(2, f));
  Type *nested[2] = {f[0], tup(1, f)};
  CHECK_ERR(OP_CONCATENATE, "tuple field 1 is not a tensor", &at, tup(2, nested));
  Type *big[2] = {T(DT_FLOAT32, INT64_MAX), T(DT_FLOAT32, 1)};
  CHECK_ERR(OP_CONCATENATE, "result shape is too large", one(&at, "axis", 0), tup(2, big));
  Type *part[2] = {f[0], ir_incomplete_type(A, 7)}, *t = tup(2, part), *o;
  CHECK(rel(OP_CONCATENATE, &t, 1, &at, &o) == REL_DEFER);
}

/* --------------------------------------------------------------- stack */

static void test_stack(void) {
  Attrs at = at_none();
  Type *f[3] = {T(DT_INT64, 2), T(DT_INT64, 2), T(DT_INT64, 2)};
  CHECK_REL(OP_STACK, "Tensor[(3, 2), int64]", &at, tup(3, f));
  CHECK_REL(OP_STACK, "Tensor[(2, 3), int64]", one(&at, "axis", 1), tup(3, f));
  CHECK_REL(OP_STACK, "Tensor[(2, 3), int64]", one(&at, "axis", -1), tup(3, f));
  CHECK_REL(OP_STACK, "Tensor[(3, 2), int64]", one(&at, "axis", -2), tup(3, f));
  Type *s[3] = {T0(DT_BOOL), T0(DT_BOOL), T0(DT_BOOL)};
  CHECK_REL(OP_STACK, "Tensor[(3), bool]", one(&at, "axis", 0), tup(3, s));

  Tensor *in[2] = {tensor_of(DT_INT64, 1, SHAPE(2), VALS(1, 2)),
                   tensor_of(DT_INT64, 1, SHAPE(2), VALS(3, 4))},
         *out[1];
  CHECK(eval(OP_STACK, in, 2, one(&at, "axis", 0), out) == 1);
  CHECK_T(out[0], SHAPE(2, 2), VALS(1, 2, 3, 4));
  CHECK(eval(OP_STACK, in, 2, one(&at, "axis", 1), out) == 1);
  CHECK_T(out[0], SHAPE(2, 2), VALS(1, 3, 2, 4));

  f[1] = T(DT_INT64, 3);
  CHECK_ERR(OP_STACK, "tuple field 1 has shape (3), which does not match (2)", &at, tup(3, f));
  CHECK_ERR(OP_STACK, "axis 2 is out of range [-2, 1]", one(&at, "axis", 2), tup(1, f));
  CHECK_ERR(OP_STACK, "axis -3 is out of range [-2, 1]", one(&at, "axis", -3), tup(1, f));
  Type *r6[2] = {T(DT_INT64, 1, 1, 1, 1, 1, 1), T(DT_INT64, 1, 1, 1, 1, 1, 1)};
  CHECK_ERR(OP_STACK, "result rank 7 exceeds 6", one(&at, "axis", 0), tup(2, r6));
}

/* --------------------------------------------------------------- split */

static void test_split(void) {
  Attrs at = at_none();
  Type *x = T(DT_FLOAT32, 6);
  CHECK_REL(OP_SPLIT, "(Tensor[(2), float32], Tensor[(2), float32], Tensor[(2), float32])",
            one(&at, "indices_or_sections", 3), x);
  CHECK_REL(OP_SPLIT, "(Tensor[(6), float32])", one(&at, "indices_or_sections", 1), x);
  at = at_none();
  CHECK_REL(OP_SPLIT, "(Tensor[(2), float32], Tensor[(4), float32])",
            INTS(&at, "indices_or_sections", 2), x);
  CHECK_REL(OP_SPLIT, "(Tensor[(6), float32])", INTS(&at, "indices_or_sections"), x);
  at = at_none();
  INTS(&at, "indices_or_sections", 1, 3);
  CHECK_REL(OP_SPLIT, "(Tensor[(2, 1), float32], Tensor[(2, 2), float32], Tensor[(2, 2), float32])",
            one(&at, "axis", -1), T(DT_FLOAT32, 2, 5));
  at = at_none();
  one(&at, "indices_or_sections", 2);
  CHECK_REL(OP_SPLIT, "(Tensor[(0, 3), int8], Tensor[(0, 3), int8])", &at, T(DT_INT8, 0, 3));

  Tensor *in = tensor_of(DT_INT32, 2, SHAPE(2, 5), VALS(0, 1, 2, 3, 4, 5, 6, 7, 8, 9)), *out[3];
  at = at_none();
  INTS(&at, "indices_or_sections", 1, 3);
  CHECK(eval(OP_SPLIT, &in, 1, one(&at, "axis", 1), out) == 3);
  CHECK_T(out[0], SHAPE(2, 1), VALS(0, 5));
  CHECK_T(out[1], SHAPE(2, 2), VALS(1, 2, 6, 7));
  CHECK_T(out[2], SHAPE(2, 2), VALS(3, 4, 8, 9));
  in = tensor_of(DT_INT32, 1, SHAPE(6), VALS(0, 1, 2, 3, 4, 5));
  at = at_none();
  CHECK(eval(OP_SPLIT, &in, 1, one(&at, "indices_or_sections", 3), out) == 3);
  CHECK_T(out[0], SHAPE(2), VALS(0, 1));
  CHECK_T(out[1], SHAPE(2), VALS(2, 3));
  CHECK_T(out[2], SHAPE(2), VALS(4, 5));

  at = at_none();
  CHECK_ERR(OP_SPLIT, "4 sections do not divide axis 0 of size 6",
            one(&at, "indices_or_sections", 4), x);
  CHECK_ERR(OP_SPLIT, "the number of sections must be >= 1, got 0",
            one(&at, "indices_or_sections", 0), x);
  CHECK_ERR(OP_SPLIT, "at most 64 sections, got 65", one(&at, "indices_or_sections", 65),
            T(DT_FLOAT32, 0));
  CHECK_ERR(OP_SPLIT, "indices must be positive and increasing, got 1 after 3",
            INTS(&at, "indices_or_sections", 3, 1), x);
  CHECK_ERR(OP_SPLIT, "indices must be positive and increasing, got 0 after 0",
            INTS(&at, "indices_or_sections", 0), x);
  CHECK_ERR(OP_SPLIT, "index 6 is not below the size 6 of axis 0",
            INTS(&at, "indices_or_sections", 2, 6), x);
  CHECK_ERR(OP_SPLIT, "index 0 is not below the size 0 of axis 0", INTS(&at, "indices_or_sections"),
            T(DT_FLOAT32, 0));
  CHECK_ERR(OP_SPLIT, "cannot split a scalar", &at, T0(DT_FLOAT32));
  CHECK_ERR(OP_SPLIT, "axis 1 is out of range for rank 1", one(&at, "axis", 1), x);
  at = at_none();
  CHECK_ERR(OP_SPLIT, "attribute indices_or_sections is required", &at, x);
  CHECK_ERR(OP_SPLIT, "indices_or_sections must be an integer or a list of integers",
            str(&at, "indices_or_sections", "2"), x);
}

/* ------------------------------------------------------- strided_slice */

/* Attributes for strided_slice: begin, end and (when ns > 0) strides. */
static Attrs slice_at(int n, const int64_t *b, const int64_t *e, int ns, const int64_t *s) {
  Attrs at = at_none();
  ints(&at, "begin", n, b);
  ints(&at, "end", n, e);
  if (ns)
    ints(&at, "strides", ns, s);
  return at;
}

static void test_strided_slice(void) {
  /* Relay's documentation example. */
  Tensor *x = tensor_of(DT_FLOAT32, 2, SHAPE(3, 4), VALS(1, 4, 7, 10, 2, 5, 8, 11, 3, 6, 9, 12));
  Tensor *v = tensor_of(DT_INT32, 1, SHAPE(5), VALS(0, 1, 2, 3, 4)), *out[1];
  Attrs at = slice_at(2, SHAPE(0, 1), SHAPE(2, 4), 2, SHAPE(1, 1));
  CHECK(eval(OP_STRIDED_SLICE, &x, 1, &at, out) == 1);
  CHECK_T(out[0], SHAPE(2, 3), VALS(4, 7, 10, 5, 8, 11));
  /* Begin and end shorter than the rank: the other axes are kept whole. */
  at = slice_at(1, SHAPE(1), SHAPE(3), 0, NULL);
  CHECK(eval(OP_STRIDED_SLICE, &x, 1, &at, out) == 1);
  CHECK_T(out[0], SHAPE(2, 4), VALS(2, 5, 8, 11, 3, 6, 9, 12));
  /* axes. */
  at = slice_at(1, SHAPE(1), SHAPE(3), 0, NULL);
  INTS(&at, "axes", -1);
  CHECK(eval(OP_STRIDED_SLICE, &x, 1, &at, out) == 1);
  CHECK_T(out[0], SHAPE(3, 2), VALS(4, 7, 5, 8, 6, 9));
  /* Negative strides: 4, 2 (end 0 excluded). */
  at = slice_at(1, SHAPE(4), SHAPE(0), 1, SHAPE(-2));
  CHECK(eval(OP_STRIDED_SLICE, &v, 1, &at, out) == 1);
  CHECK_T(out[0], SHAPE(2), VALS(4, 2));
  /* end -6 counts from the end to -1, which a negative stride keeps. */
  at = slice_at(1, SHAPE(-1), SHAPE(-6), 1, SHAPE(-1));
  CHECK(eval(OP_STRIDED_SLICE, &v, 1, &at, out) == 1);
  CHECK_T(out[0], SHAPE(5), VALS(4, 3, 2, 1, 0));
  at = slice_at(1, SHAPE(10), SHAPE(-10), 1, SHAPE(-3));
  CHECK(eval(OP_STRIDED_SLICE, &v, 1, &at, out) == 1);
  CHECK_T(out[0], SHAPE(2), VALS(4, 1));
  /* Positive strides clamp to [0, 5]. */
  at = slice_at(1, SHAPE(-10), SHAPE(100), 1, SHAPE(2));
  CHECK(eval(OP_STRIDED_SLICE, &v, 1, &at, out) == 1);
  CHECK_T(out[0], SHAPE(3), VALS(0, 2, 4));
  /* Relay pads a missing end with 0 for a negative stride, so element 0
   * is left out. */
  at = slice_at(0, NULL, NULL, 1, SHAPE(-1));
  CHECK(eval(OP_STRIDED_SLICE, &v, 1, &at, out) == 1);
  CHECK_T(out[0], SHAPE(4), VALS(4, 3, 2, 1));
  /* Extreme strides and indices. */
  at = slice_at(1, SHAPE(INT64_MAX), SHAPE(INT64_MIN), 1, SHAPE(INT64_MIN));
  CHECK(eval(OP_STRIDED_SLICE, &v, 1, &at, out) == 1);
  CHECK_T(out[0], SHAPE(1), VALS(4));
  at = slice_at(1, SHAPE(1), SHAPE(INT64_MAX), 1, SHAPE(INT64_MAX));
  CHECK(eval(OP_STRIDED_SLICE, &v, 1, &at, out) == 1);
  CHECK_T(out[0], SHAPE(1), VALS(1));
  /* An empty slice. */
  at = slice_at(1, SHAPE(2), SHAPE(2), 0, NULL);
  CHECK(eval(OP_STRIDED_SLICE, &v, 1, &at, out) == 1);
  CHECK(out[0]->rank == 1 && out[0]->shape[0] == 0);
  /* slice_mode "size": end is a size, -1 meaning to the end; strides are
   * ignored. */
  at = slice_at(1, SHAPE(1), SHAPE(2), 1, SHAPE(3));
  str(&at, "slice_mode", "size");
  CHECK(eval(OP_STRIDED_SLICE, &v, 1, &at, out) == 1);
  CHECK_T(out[0], SHAPE(2), VALS(1, 2));
  at = slice_at(1, SHAPE(-4), SHAPE(-1), 0, NULL);
  str(&at, "slice_mode", "size");
  CHECK(eval(OP_STRIDED_SLICE, &v, 1, &at, out) == 1);
  CHECK_T(out[0], SHAPE(4), VALS(1, 2, 3, 4));
  at = slice_at(1, SHAPE(INT64_MAX), SHAPE(5), 0, NULL);
  str(&at, "slice_mode", "size");
  CHECK(eval(OP_STRIDED_SLICE, &v, 1, &at, out) == 1);
  CHECK(out[0]->rank == 1 && out[0]->shape[0] == 0);
  /* A scalar slices to itself. */
  at = slice_at(0, NULL, NULL, 0, NULL);
  CHECK_REL(OP_STRIDED_SLICE, "Tensor[(), float32]", &at, T0(DT_FLOAT32));

  Type *t = T(DT_INT32, 5), *m = T(DT_INT32, 3, 4);
  at = slice_at(1, SHAPE(0), SHAPE(5), 1, SHAPE(0));
  CHECK_ERR(OP_STRIDED_SLICE, "stride of axis 0 is 0", &at, t);
  at = slice_at(1, SHAPE(3), SHAPE(1), 0, NULL);
  CHECK_ERR(OP_STRIDED_SLICE,
            "axis 0: begin 3 and end 1 (clamped to 3 and 1) are out of order for stride 1", &at, t);
  at = slice_at(1, SHAPE(-10), SHAPE(3), 1, SHAPE(-1));
  CHECK_ERR(OP_STRIDED_SLICE,
            "axis 0: begin -10 and end 3 (clamped to -1 and 3) are out of order for stride -1", &at,
            t);
  /* In size mode Relay computes end = begin + size before counting from
   * the end, so begin -1 with size 1 is out of order. */
  at = slice_at(1, SHAPE(-1), SHAPE(1), 0, NULL);
  str(&at, "slice_mode", "size");
  CHECK_ERR(OP_STRIDED_SLICE,
            "axis 0: begin -1 and end 0 (clamped to 4 and 0) are out of order for stride 1", &at,
            t);
  str(&at, "slice_mode", "step");
  CHECK_ERR(OP_STRIDED_SLICE, "slice_mode must be \"end\" or \"size\", got \"step\"", &at, t);
  at = slice_at(2, SHAPE(0, 0), SHAPE(1, 1), 0, NULL);
  CHECK_ERR(OP_STRIDED_SLICE, "begin, end and strides may have at most 1 entries (the rank)", &at,
            t);
  INTS(&at, "axes", 0);
  CHECK_ERR(OP_STRIDED_SLICE, "axes, begin, end and strides must have the same length", &at, m);
  INTS(&at, "axes", 0, -2);
  CHECK_ERR(OP_STRIDED_SLICE, "axis 0 is sliced twice", &at, m);
  INTS(&at, "axes", 0, 2);
  CHECK_ERR(OP_STRIDED_SLICE, "axis 2 is out of range for rank 2", &at, m);
  at = at_none();
  CHECK_ERR(OP_STRIDED_SLICE, "attribute begin is required", INTS(&at, "end", 1), t);
}

/* ---------------------------------------------------------------- take */

static void test_take(void) {
  /* Relay's documentation examples. */
  Tensor *a = tensor_of(DT_FLOAT32, 2, SHAPE(2, 2), VALS(1, 2, 3, 4)), *out[1], *args[2];
  Attrs at = at_none();
  args[0] = a;
  args[1] = tensor_of(DT_INT32, 1, SHAPE(3), VALS(3, 0, 2));
  CHECK(eval(OP_TAKE, args, 2, &at, out) == 1);
  CHECK_T(out[0], SHAPE(3), VALS(4, 1, 3));
  args[1] = tensor_of(DT_INT64, 1, SHAPE(2), VALS(1, 0));
  CHECK(eval(OP_TAKE, args, 2, one(&at, "axis", 1), out) == 1);
  CHECK_T(out[0], SHAPE(2, 2), VALS(2, 1, 4, 3));
  /* Indices of rank 2 along axis 0 of a (3, 2) tensor. */
  args[0] = tensor_of(DT_INT8, 2, SHAPE(3, 2), VALS(1, 2, 3, 4, 5, 6));
  args[1] = tensor_of(DT_INT8, 2, SHAPE(2, 2), VALS(2, 0, 1, 1));
  CHECK(eval(OP_TAKE, args, 2, one(&at, "axis", -2), out) == 1);
  CHECK_T(out[0], SHAPE(2, 2, 2), VALS(5, 6, 1, 2, 3, 4, 3, 4));
  /* Out-of-range indices: clip (the default, and "fast") and wrap. */
  args[0] = tensor_of(DT_FLOAT64, 1, SHAPE(4), VALS(10, 20, 30, 40));
  args[1] = tensor_of(DT_INT64, 1, SHAPE(6), VALS(-1, 5, 2, -9, 0, 0));
  ((int64_t *)args[1]->data)[4] = INT64_MIN;
  ((int64_t *)args[1]->data)[5] = INT64_MAX;
  at = at_none();
  CHECK(eval(OP_TAKE, args, 2, &at, out) == 1);
  CHECK_T(out[0], SHAPE(6), VALS(10, 40, 30, 10, 10, 40));
  CHECK(eval(OP_TAKE, args, 2, str(&at, "mode", "fast"), out) == 1);
  CHECK_T(out[0], SHAPE(6), VALS(10, 40, 30, 10, 10, 40));
  CHECK(eval(OP_TAKE, args, 2, str(&at, "mode", "wrap"), out) == 1);
  CHECK_T(out[0], SHAPE(6), VALS(40, 20, 30, 40, 10, 40));
  one(&at, "axis", 0);
  CHECK(eval(OP_TAKE, args, 2, &at, out) == 1);
  CHECK_T(out[0], SHAPE(6), VALS(40, 20, 30, 40, 10, 40));
  /* Taking from an empty axis gives zeros. */
  args[0] = tensor_of(DT_FLOAT32, 2, SHAPE(2, 0), NULL);
  args[1] = tensor_of(DT_INT32, 1, SHAPE(3), VALS(0, 1, -1));
  CHECK(eval(OP_TAKE, args, 2, one(&at, "axis", 1), out) == 1);
  CHECK(out[0]->rank == 2 && out[0]->shape[0] == 2 && out[0]->shape[1] == 3);
  at = at_none();
  CHECK(eval(OP_TAKE, args, 2, &at, out) == 1);
  CHECK_T(out[0], SHAPE(3), VALS(0, 0, 0));
  /* batch_dims 1 (TVM's test_take_batch_dims): R[b, i] = A[b, I[b, i]],
   * in every mode. */
  args[0] = tensor_of(DT_INT32, 2, SHAPE(2, 3), VALS(1, 2, 3, 4, 5, 6));
  args[1] = tensor_of(DT_INT32, 2, SHAPE(2, 2), VALS(2, 0, -1, 4));
  at = at_none();
  CHECK(eval(OP_TAKE, args, 2, one(one(&at, "axis", 1), "batch_dims", 1), out) == 1);
  CHECK_T(out[0], SHAPE(2, 2), VALS(3, 1, 4, 6));
  CHECK(eval(OP_TAKE, args, 2, str(&at, "mode", "wrap"), out) == 1);
  CHECK_T(out[0], SHAPE(2, 2), VALS(3, 1, 6, 5));
  CHECK(eval(OP_TAKE, args, 2, str(&at, "mode", "fast"), out) == 1);
  CHECK_T(out[0], SHAPE(2, 2), VALS(3, 1, 4, 6));
  at = at_none();
  /* A scalar's flattened form has one element. */
  CHECK_REL(OP_TAKE, "Tensor[(2, 2), bool]", &at, T0(DT_BOOL), T(DT_INT8, 2, 2));

  Type *d = T(DT_FLOAT32, 3, 4), *ix = T(DT_INT32, 2);
  at = at_none();
  CHECK_ERR(OP_TAKE, "indices must have an integer dtype, got float32", &at, d, d);
  CHECK_ERR(OP_TAKE, "indices must have an integer dtype, got bool", &at, d, T(DT_BOOL, 2));
  CHECK_ERR(OP_TAKE, "batch_dims 1 needs an axis (only 0 without one)", one(&at, "batch_dims", 1),
            d, ix);
  CHECK_ERR(OP_TAKE, "batch_dims 1 must lie in [0, 1] (the indices' rank) and not exceed axis 0",
            one(&at, "axis", 0), d, ix);
  CHECK_ERR(OP_TAKE, "batch_dims -2 must lie in [0, 1] (the indices' rank) and not exceed axis 0",
            one(&at, "batch_dims", -2), d, T(DT_INT32, 3));
  at = at_none();
  CHECK_REL(OP_TAKE, "Tensor[(3, 5), float32]", one(one(&at, "axis", 1), "batch_dims", 1), d,
            T(DT_INT32, 3, 5));
  CHECK_REL(OP_TAKE, "Tensor[(3, 5), float32]", one(&at, "batch_dims", -1), d, T(DT_INT32, 3, 5));
  CHECK_ERR(OP_TAKE, "batch dim 0: data has 3, indices 2", &at, d, T(DT_INT32, 2, 5));
  at = at_none();
  CHECK_ERR(OP_TAKE, "mode must be \"clip\", \"wrap\" or \"fast\", got \"raise\"",
            str(&at, "mode", "raise"), d, ix);
  at = at_none();
  CHECK_ERR(OP_TAKE, "axis 2 is out of range for rank 2", one(&at, "axis", 2), d, ix);
  CHECK_ERR(OP_TAKE, "axis 0 is out of range for rank 0", one(&at, "axis", 0), T0(DT_INT8), ix);
  CHECK_ERR(OP_TAKE, "result rank 7 exceeds 6", one(&at, "axis", 0), T(DT_INT8, 1, 1, 1, 1),
            T(DT_INT32, 1, 1, 1, 1));
  Type *inc = ir_incomplete_type(A, 3), *targs[2] = {d, inc}, *o;
  CHECK(rel(OP_TAKE, targs, 2, &at, &o) == REL_DEFER);
}

/* ---------------------------------------------------------------- tile */

static void test_tile(void) {
  Tensor *v = tensor_of(DT_INT32, 1, SHAPE(2), VALS(1, 2)), *out[1];
  Attrs at = at_none();
  CHECK(eval(OP_TILE, &v, 1, INTS(&at, "reps", 2), out) == 1);
  CHECK_T(out[0], SHAPE(4), VALS(1, 2, 1, 2));
  CHECK(eval(OP_TILE, &v, 1, INTS(&at, "reps", 2, 3), out) == 1);
  CHECK_T(out[0], SHAPE(2, 6), VALS(1, 2, 1, 2, 1, 2, 1, 2, 1, 2, 1, 2));
  Tensor *c = tensor_of(DT_INT32, 2, SHAPE(2, 1), VALS(1, 2));
  CHECK(eval(OP_TILE, &c, 1, INTS(&at, "reps", 2), out) == 1);
  CHECK_T(out[0], SHAPE(2, 2), VALS(1, 1, 2, 2));
  CHECK(eval(OP_TILE, &c, 1, INTS(&at, "reps", 2, 1), out) == 1);
  CHECK_T(out[0], SHAPE(4, 1), VALS(1, 2, 1, 2));
  CHECK(eval(OP_TILE, &c, 1, INTS(&at, "reps"), out) == 1);
  CHECK_T(out[0], SHAPE(2, 1), VALS(1, 2));
  CHECK_REL(OP_TILE, "Tensor[(0, 6), float32]", INTS(&at, "reps", 2, 2), T(DT_FLOAT32, 0, 3));
  CHECK_REL(OP_TILE, "Tensor[(3, 2), float32]", INTS(&at, "reps", 3, 2), T0(DT_FLOAT32));

  Type *t = T(DT_FLOAT32, 3);
  CHECK_ERR(OP_TILE, "reps must be positive, got 0", INTS(&at, "reps", 2, 0), t);
  CHECK_ERR(OP_TILE, "reps must be positive, got -2", INTS(&at, "reps", -2), t);
  CHECK_ERR(OP_TILE, "result shape is too large", INTS(&at, "reps", INT64_MAX), t);
  CHECK_ERR(OP_TILE, "result shape is too large", INTS(&at, "reps", 1ll << 40, 1ll << 40), t);
  CHECK_ERR(OP_TILE, "result rank 7 exceeds 6", INTS(&at, "reps", 1, 1, 1, 1, 1, 1, 1), t);
  at = at_none();
  CHECK_ERR(OP_TILE, "attribute reps is required", &at, t);
}

/* ------------------------------------------------------------- reverse */

static void test_reverse(void) {
  Tensor *x = tensor_of(DT_INT32, 2, SHAPE(2, 3), VALS(0, 1, 2, 3, 4, 5)), *out[1];
  Attrs at = at_none();
  CHECK(eval(OP_REVERSE, &x, 1, &at, out) == 1);
  CHECK_T(out[0], SHAPE(2, 3), VALS(3, 4, 5, 0, 1, 2));
  CHECK(eval(OP_REVERSE, &x, 1, one(&at, "axis", 1), out) == 1);
  CHECK_T(out[0], SHAPE(2, 3), VALS(2, 1, 0, 5, 4, 3));
  CHECK(eval(OP_REVERSE, &x, 1, one(&at, "axis", -1), out) == 1);
  CHECK_T(out[0], SHAPE(2, 3), VALS(2, 1, 0, 5, 4, 3));
  CHECK_REL(OP_REVERSE, "Tensor[(0, 2), int8]", &at, T(DT_INT8, 0, 2));
  CHECK_ERR(OP_REVERSE, "axis 2 is out of range for rank 2", one(&at, "axis", 2), T(DT_INT8, 2, 2));
  at = at_none();
  CHECK_ERR(OP_REVERSE, "axis 0 is out of range for rank 0", &at, T0(DT_INT8));
}

/* ------------------------------------------------------------ creation */

static void test_creation(void) {
  Attrs at = at_none();
  Tensor *out[1], *fill;
  INTS(&at, "shape", 2, 3);
  CHECK(eval(OP_ZEROS, NULL, 0, str(&at, "dtype", "int32"), out) == 1);
  CHECK_T(out[0], SHAPE(2, 3), VALS(0, 0, 0, 0, 0, 0));
  CHECK(out[0]->dtype == DT_INT32);
  CHECK(eval(OP_ONES, NULL, 0, str(&at, "dtype", "bool"), out) == 1);
  CHECK_T(out[0], SHAPE(2, 3), VALS(1, 1, 1, 1, 1, 1));
  at = at_none();
  CHECK_REL(OP_ONES, "Tensor[(2), float32]", INTS(&at, "shape", 2));
  CHECK_REL(OP_ZEROS, "Tensor[(), float32]", INTS(&at, "shape"));
  CHECK_REL(OP_ZEROS, "Tensor[(0, 4), float32]", INTS(&at, "shape", 0, 4));

  /* full converts its fill value as cast does: a float saturates into an
   * integer dtype, an integer wraps. */
  fill = tensor_of(DT_FLOAT64, 0, NULL, VALS(3.7));
  at = at_none();
  INTS(&at, "shape", 2);
  CHECK(eval(OP_FULL, &fill, 1, str(&at, "dtype", "int32"), out) == 1);
  CHECK_T(out[0], SHAPE(2), VALS(3, 3));
  CHECK(eval(OP_FULL, &fill, 1, str(&at, "dtype", "bool"), out) == 1);
  CHECK_T(out[0], SHAPE(2), VALS(1, 1));
  fill = tensor_of(DT_FLOAT32, 0, NULL, VALS(1e30));
  CHECK(eval(OP_FULL, &fill, 1, str(&at, "dtype", "int8"), out) == 1);
  CHECK_T(out[0], SHAPE(2), VALS(127, 127));
  fill = tensor_of(DT_FLOAT32, 0, NULL, VALS(NAN));
  CHECK(eval(OP_FULL, &fill, 1, str(&at, "dtype", "int64"), out) == 1);
  CHECK_T(out[0], SHAPE(2), VALS(0, 0));
  at = at_none();
  INTS(&at, "shape", 3);
  CHECK(eval(OP_FULL, &fill, 1, &at, out) == 1); /* dtype defaults to the fill value's */
  CHECK(out[0]->dtype == DT_FLOAT32);
  CHECK_T(out[0], SHAPE(3), VALS(NAN, NAN, NAN));
  fill = tensor_of(DT_INT64, 0, NULL, VALS(255));
  CHECK(eval(OP_FULL, &fill, 1, str(&at, "dtype", "int8"), out) == 1);
  CHECK_T(out[0], SHAPE(3), VALS(-1, -1, -1));

  /* zeros_like and ones_like. */
  Tensor *x = tensor_of(DT_INT8, 1, SHAPE(3), VALS(5, 6, 7));
  at = at_none();
  CHECK(eval(OP_ZEROS_LIKE, &x, 1, &at, out) == 1);
  CHECK_T(out[0], SHAPE(3), VALS(0, 0, 0));
  CHECK(eval(OP_ONES_LIKE, &x, 1, &at, out) == 1);
  CHECK_T(out[0], SHAPE(3), VALS(1, 1, 1));
  CHECK(out[0]->dtype == DT_INT8);

  INTS(&at, "shape", 2);
  CHECK_ERR(OP_ZEROS, "unknown dtype \"float8\"", str(&at, "dtype", "float8"));
  CHECK_ERR(OP_ZEROS, "expects 0 arguments, got 1", &at, T0(DT_FLOAT32));
  at = at_none();
  CHECK_ERR(OP_ONES, "shape has a negative dim -2", INTS(&at, "shape", 3, -2));
  CHECK_ERR(OP_ONES, "result shape is too large", INTS(&at, "shape", 1ll << 62, 4));
  at = at_none();
  CHECK_ERR(OP_ONES, "attribute shape is required", &at);
  INTS(&at, "shape", 2);
  CHECK_ERR(OP_FULL, "the fill value must be a scalar, got rank 1", &at, T(DT_FLOAT32, 1));
  CHECK_ERR(OP_FULL, "expects 1 argument, got 0", &at);
  CHECK_ERR(OP_ONES_LIKE, "expects 1 argument, got 2", &at, T0(DT_INT8), T0(DT_INT8));
}

/* ------------------------------------------------------- property loop */

/* A xorshift PRNG behind the Chooser interface; with zeros set it answers
 * 0 to every choice, the all-zero choice stream. */
typedef struct Rng {
  Chooser ch;
  uint64_t s;
  bool zeros;
} Rng;

/* The next 64 random bits. */
static uint64_t next64(Rng *r) {
  r->s ^= r->s << 13;
  r->s ^= r->s >> 7;
  r->s ^= r->s << 17;
  return r->s;
}

/* Chooser.below: a number in [0, n), or 0 in all-zero mode. */
static uint32_t rng_below(Chooser *c, uint32_t n) {
  Rng *r = (Rng *)c;
  return r->zeros ? 0 : (uint32_t)(next64(r) % n);
}

/* A number in [0, n) for the test's own draws. */
static int64_t rnd(Rng *r, int64_t n) {
  return n <= 1 ? 0 : (int64_t)(next64(r) % (uint64_t)n);
}

/* Report a property failure; only the first few are printed. */
static int prop_failures;
#define PROP(cond, ...)                                                                            \
  do {                                                                                             \
    if (cond) {                                                                                    \
      test_passed++;                                                                               \
    } else {                                                                                       \
      test_failed++;                                                                               \
      if (++prop_failures <= 20) {                                                                 \
        fprintf(stderr, "%s:%d: property failed: %s: ", __FILE__, __LINE__, #cond);                \
        fprintf(stderr, __VA_ARGS__);                                                              \
        fputc('\n', stderr);                                                                       \
      }                                                                                            \
    }                                                                                              \
  } while (0)

/* A random tensor type: rank 0..4 (sometimes 5), dims mostly 1..9 with
 * some zeros, any dtype; often within the default limits, not always. */
static Type *rand_type(Rng *g) {
  int64_t shape[IR_MAX_RANK];
  int r = rnd(g, 16) == 0 ? 5 : (int)rnd(g, 5);
  for (int i = 0; i < r; i++)
    shape[i] = rnd(g, 12) == 0 ? 0 : 1 + rnd(g, r >= 3 ? 4 : 9);
  return ty((DType)rnd(g, DT_COUNT), r, shape);
}

/* A random tuple type for split: pieces of one tensor along an axis (some
 * with equal sizes), or unrelated tensors, or a plain tensor. */
static Type *rand_split_type(Rng *g) {
  Type *f[6];
  int n = 1 + (int)rnd(g, 5);
  switch (rnd(g, 4)) {
  case 0: return rand_type(g);
  case 1:
    for (int i = 0; i < n; i++)
      f[i] = rand_type(g);
    return tup(n, f);
  default: {
    Type *base = rand_type(g);
    if (base->tensor.rank == 0)
      return tup(1, &base);
    int axis = (int)rnd(g, base->tensor.rank);
    bool equal = rnd(g, 2);
    int64_t size = rnd(g, 4);
    for (int i = 0; i < n; i++) {
      f[i] = ir_type_copy(A, base);
      f[i]->tensor.shape[axis] = equal ? size : rnd(g, 4);
    }
    return tup(n, f);
  }
  }
}

/* The tensors of a type: itself, or a tuple's fields. */
static int flatten(Type *t, Type **out) {
  if (t->kind != TY_TUPLE) {
    out[0] = t;
    return 1;
  }
  memcpy(out, t->tuple.fields, sizeof(Type *) * (size_t)t->tuple.n);
  return t->tuple.n;
}

/* The largest dim in any of the tensors of t. */
static int64_t max_dim_of(Type *t) {
  Type *f[64];
  int64_t m = 0;
  for (int i = 0, n = flatten(t, f); i < n; i++)
    for (int d = 0; d < f[i]->tensor.rank; d++)
      if (f[i]->tensor.shape[d] > m)
        m = f[i]->tensor.shape[d];
  return m;
}

/* Check a solution for want: the relation gives want exactly, and every
 * tensor stays within lim (dims beyond max_dim only when copied from a
 * wanted dim at least as large). */
static void check_sig(OpId op, Type *want, OpSig *sig, const OpLimits *lim, const char *who) {
  Type *got, *f[64];
  const char *name = ir_op_name(op);
  RelStatus s = rel(op, sig->args, sig->nargs, &sig->attrs, &got);
  PROP(s == REL_OK, "%s %s for %s: %s", name, who, show(want), err);
  PROP(s != REL_OK || ir_type_equal(got, want), "%s %s: relation gives %s, want %s", name, who,
       show(got), show(want));
  PROP(sig->ret && ir_type_equal(sig->ret, want), "%s %s: ret %s, want %s", name, who,
       show(sig->ret), show(want));
  PROP(fns[op].rec(op, want, lim), "%s %s: rec rejects %s", name, who, show(want));
  Type *fw[64];
  flatten(want, fw);
  DType own = fw[0]->tensor.dtype;
  int64_t maxd = max_dim_of(want) > lim->max_dim ? max_dim_of(want) : lim->max_dim;
  for (int a = 0; a <= sig->nargs; a++) {
    Type *t = a < sig->nargs ? sig->args[a] : want;
    for (int i = 0, n = flatten(t, f); i < n; i++) {
      int64_t numel = ir_type_numel(f[i]);
      PROP(f[i]->tensor.rank <= lim->max_rank && numel <= lim->max_numel &&
               max_dim_of(f[i]) <= maxd,
           "%s %s: %s outside the limits (for %s)", name, who, show(f[i]), show(want));
      PROP(f[i]->tensor.dtype == own || (lim->dtypes & (1u << f[i]->tensor.dtype)),
           "%s %s: invented dtype %s (for %s)", name, who, ir_dtype_name(f[i]->tensor.dtype),
           show(want));
    }
  }
}

/* Fill a tensor with small random values, some of them extreme. */
static void fill_random(Tensor *t, Rng *g) {
  for (int64_t i = 0; i < t->numel; i++) {
    int64_t v = rnd(g, 41) - 20;
    if (rnd(g, 16) == 0)
      v = rnd(g, 2) ? INT64_MAX : INT64_MIN;
    if (ir_dtype_is_float(t->dtype))
      ir_tensor_set_f64(t, i, (double)v / 4);
    else
      ir_tensor_set_i64(t, i, v);
  }
}

/* Element i of a and element j of b are bitwise equal. */
static bool same_elem(const Tensor *a, int64_t i, const Tensor *b, int64_t j) {
  size_t n = (size_t)ir_dtype_size(a->dtype);
  return a->dtype == b->dtype && memcmp((char *)a->data + i * n, (char *)b->data + j * n, n) == 0;
}

/* Row-major index of coordinate c in shape. */
static int64_t ravel(int rank, const int64_t *shape, const int64_t *c) {
  int64_t i = 0;
  for (int d = 0; d < rank; d++)
    i = i * shape[d] + c[d];
  return i;
}

/* An ints attribute as a list, or given = false. */
static bool attr_list(const Attrs *at, const char *name, int *n, const int64_t **v) {
  const Attr *x = ir_attr_get(at, name);
  if (!x || x->kind == AV_NONE)
    return false;
  *n = x->kind == AV_INTS ? x->n : 1;
  *v = x->kind == AV_INTS ? x->ints : &x->i;
  return true;
}

/* An axis counted from the end made non-negative. */
static int norm_axis(int64_t a, int rank) {
  return (int)(a < 0 ? a + rank : a);
}

/* The indices strided_slice selects along each axis of x, enumerated one
 * by one with numpy's rules (an independent check of the size formula). */
static bool slice_lists(const Attrs *at, const Tensor *x, int64_t lists[][64], int64_t *lens) {
  int nb, ne, ns = 0, na = 0;
  const int64_t *b, *e, *s = NULL, *ax = NULL;
  attr_list(at, "begin", &nb, &b);
  attr_list(at, "end", &ne, &e);
  bool has_s = attr_list(at, "strides", &ns, &s), has_ax = attr_list(at, "axes", &na, &ax);
  bool size_mode = strcmp(ir_attr_str(at, "slice_mode", "end"), "size") == 0;
  int64_t B[IR_MAX_RANK], E[IR_MAX_RANK], S[IR_MAX_RANK];
  for (int a = 0; a < x->rank; a++)
    B[a] = 0, E[a] = INT64_MAX, S[a] = 1;
  for (int k = 0; k < (has_ax ? na : x->rank); k++) {
    int a = has_ax ? norm_axis(ax[k], x->rank) : k;
    S[a] = has_s && k < ns && !size_mode ? s[k] : 1;
    B[a] = k < nb ? b[k] : S[a] > 0 ? 0 : INT64_MAX;
    E[a] = k < ne ? e[k] : S[a] < 0 ? 0 : INT64_MAX;
    if (size_mode && k < ne)
      E[a] = e[k] < 0 || B[a] > INT64_MAX - e[k] ? INT64_MAX : B[a] + e[k];
  }
  for (int a = 0; a < x->rank; a++) {
    int64_t d = x->shape[a], i = B[a] < 0 ? B[a] + d : B[a], end = E[a] < 0 ? E[a] + d : E[a];
    bool pos = S[a] > 0;
    int64_t lo = pos ? 0 : -1, hi = pos ? d : d - 1;
    i = i < lo ? lo : i > hi ? hi : i;
    end = end < lo ? lo : end > hi ? hi : end;
    lens[a] = 0;
    while ((pos ? i < end : i > end) && lens[a] < 64) {
      lists[a][lens[a]++] = i;
      if (__builtin_add_overflow(i, S[a], &i))
        break;
    }
  }
  return true;
}

/* An index into n > 0 elements by take's mode. */
static int64_t ref_take_index(int64_t v, int64_t n, bool wrap) {
  if (!wrap)
    return v < 0 ? 0 : v >= n ? n - 1 : v;
  int64_t r = v % n;
  return r < 0 ? r + n : r;
}

/* The element of the input that output element c (coordinate) of a
 * one-input operator copies, or -1 when the output element is zero. */
static int64_t ref_source(OpId op, const Attrs *at, const Tensor *x, const Tensor *y,
                          const int64_t *c) {
  int64_t xc[IR_MAX_RANK];
  int off = y->rank - x->rank, n;
  const int64_t *v;
  static int64_t lists[IR_MAX_RANK][64], lens[IR_MAX_RANK];
  switch (op) {
  case OP_TRANSPOSE:
    for (int d = 0; d < y->rank; d++) {
      int p = attr_list(at, "axes", &n, &v) ? norm_axis(v[d], x->rank) : x->rank - 1 - d;
      xc[p] = c[d];
    }
    return ravel(x->rank, x->shape, xc);
  case OP_BROADCAST_TO:
    for (int d = 0; d < x->rank; d++)
      xc[d] = x->shape[d] == 1 ? 0 : c[off + d];
    return ravel(x->rank, x->shape, xc);
  case OP_TILE:
    for (int d = 0; d < x->rank; d++)
      xc[d] = c[off + d] % x->shape[d];
    return ravel(x->rank, x->shape, xc);
  case OP_REVERSE: {
    int a = norm_axis(ir_attr_int(at, "axis", 0), x->rank);
    memcpy(xc, c, sizeof xc);
    xc[a] = x->shape[a] - 1 - c[a];
    return ravel(x->rank, x->shape, xc);
  }
  case OP_STRIDED_SLICE:
    if (c[0] == 0 || y->rank == 0) /* recompute once per row; cheap enough */
      slice_lists(at, x, lists, lens);
    for (int d = 0; d < x->rank; d++)
      xc[d] = lists[d][c[d]];
    return ravel(x->rank, x->shape, xc);
  default: /* reshape, expand_dims, squeeze: the same flat element */
    return ravel(y->rank, y->shape, c);
  }
}

/* Run the kernel of a solution on random data and compare each output
 * element with an independent reference. */
static void check_kernel(OpId op, OpSig *sig, Rng *g) {
  Tensor *args[64], *outs[64];
  Type *f[64], *r[64];
  int n = 0, nout = flatten(sig->ret, r);
  const char *name = ir_op_name(op);
  for (int a = 0; a < sig->nargs; a++)
    for (int i = 0, k = flatten(sig->args[a], f); i < k; i++) {
      args[n] = ir_tensor_of_type(A, f[i]);
      fill_random(args[n++], g);
    }
  for (int i = 0; i < nout; i++)
    outs[i] = ir_tensor_of_type(A, r[i]);
  fns[op].kernel(op, args, n, &sig->attrs, outs, nout, A);

  Tensor *y = outs[0], *x = n ? args[0] : NULL;
  int64_t c[2 * IR_MAX_RANK];
  bool ok = true;
  switch (op) {
  case OP_ZEROS:
  case OP_ONES:
  case OP_ZEROS_LIKE:
  case OP_ONES_LIKE:
  case OP_FULL: {
    /* converted as cast converts: an integer fill value wraps */
    Tensor *want = ir_tensor_new(A, y->dtype, 0, NULL);
    if (op == OP_FULL && ir_dtype_is_unsigned(x->dtype))
      ir_tensor_set_u64(want, 0, ir_tensor_get_u64(x, 0));
    else if (op == OP_FULL && !ir_dtype_is_float(x->dtype))
      ir_tensor_set_i64(want, 0, ir_tensor_get_i64(x, 0));
    else
      ir_tensor_set_f64(
          want, 0, op == OP_FULL ? ir_tensor_get_f64(x, 0) : op == OP_ONES || op == OP_ONES_LIKE);
    for (int64_t i = 0; i < y->numel; i++)
      ok &= same_elem(y, i, want, 0);
    break;
  }
  case OP_TAKE: {
    const Tensor *ix = args[1];
    bool wrap = strcmp(ir_attr_str(&sig->attrs, "mode", "clip"), "wrap") == 0;
    const Attr *ax = ir_attr_get(&sig->attrs, "axis");
    int a = ax && ax->kind == AV_INT ? norm_axis(ax->i, x->rank) : -1;
    int64_t bd = ir_attr_int(&sig->attrs, "batch_dims", 0);
    int b = a < 0 ? 0 : (int)(bd < 0 ? bd + ix->rank : bd), ni = ix->rank - b;
    memset(c, 0, sizeof c);
    for (int64_t i = 0; i < y->numel; i++, op_unravel(i, y->rank, y->shape, c)) {
      int64_t xc[IR_MAX_RANK], src;
      if (a < 0) {
        src = x->numel ? ref_take_index(ir_tensor_get_i64(ix, i), x->numel, wrap) : -1;
      } else {
        int64_t ic[IR_MAX_RANK]; /* the batch coordinates, then those after axis */
        for (int d = 0; d < ix->rank; d++)
          ic[d] = d < b ? c[d] : c[a + d - b];
        int64_t k = ravel(ix->rank, ix->shape, ic);
        for (int d = 0; d < x->rank; d++)
          xc[d] = d < a ? c[d] : d > a ? c[d - 1 + ni] : 0;
        if (x->shape[a] == 0)
          src = -1;
        else
          xc[a] = ref_take_index(ir_tensor_get_i64(ix, k), x->shape[a], wrap),
          src = ravel(x->rank, x->shape, xc);
      }
      ok &= src < 0 ? ir_tensor_get_f64(y, i) == 0 : same_elem(y, i, x, src);
    }
    break;
  }
  case OP_CONCATENATE:
  case OP_STACK: {
    int a = norm_axis(ir_attr_int(&sig->attrs, "axis", 0), op == OP_STACK ? y->rank : y->rank);
    memset(c, 0, sizeof c);
    for (int64_t i = 0; i < y->numel; i++, op_unravel(i, y->rank, y->shape, c)) {
      int64_t xc[IR_MAX_RANK], k = 0, at = c[a];
      if (op == OP_STACK) {
        k = c[a];
        for (int d = 0, m = 0; d < y->rank; d++)
          if (d != a)
            xc[m++] = c[d];
      } else {
        while (at >= args[k]->shape[a])
          at -= args[k++]->shape[a];
        memcpy(xc, c, sizeof xc);
        xc[a] = at;
      }
      ok &= same_elem(y, i, args[k], ravel(args[k]->rank, args[k]->shape, xc));
    }
    break;
  }
  case OP_SPLIT: {
    int a = norm_axis(ir_attr_int(&sig->attrs, "axis", 0), x->rank);
    int64_t start = 0;
    for (int k = 0; k < nout; k++) {
      memset(c, 0, sizeof c);
      for (int64_t i = 0; i < outs[k]->numel; i++, op_unravel(i, x->rank, outs[k]->shape, c)) {
        int64_t xc[IR_MAX_RANK];
        memcpy(xc, c, sizeof xc);
        xc[a] += start;
        ok &= same_elem(outs[k], i, x, ravel(x->rank, x->shape, xc));
      }
      start += outs[k]->shape[a];
    }
    break;
  }
  default:
    if (op == OP_STRIDED_SLICE) { /* the enumerated indices give the relation's extents */
      static int64_t lists[IR_MAX_RANK][64], lens[IR_MAX_RANK];
      slice_lists(&sig->attrs, x, lists, lens);
      for (int d = 0; d < y->rank; d++)
        ok &= lens[d] == y->shape[d];
    }
    memset(c, 0, sizeof c);
    for (int64_t i = 0; ok && i < y->numel; i++, op_unravel(i, y->rank, y->shape, c))
      ok &= same_elem(y, i, x, ref_source(op, &sig->attrs, x, y, c));
  }
  PROP(ok, "%s: kernel output differs from the reference for %s", name, show(sig->ret));
}

/* Limit sets the solvers and samplers are exercised under. */
static const OpLimits small_limits = {
    .max_rank = 2, .max_dim = 3, .max_numel = 16, .max_flops = 64, .dtypes = 1u << DT_FLOAT32};
static const OpLimits int_limits = {.max_rank = 6,
                                    .max_dim = 5,
                                    .max_numel = 1000,
                                    .max_flops = 64,
                                    .dtypes = (1u << DT_INT8) | (1u << DT_BOOL)};

enum { DRAWS = 10000 };

/* The recognizer/solver/sampler/kernel properties for one operator. */
static void props(OpId op, Rng *g) {
  int solved = 0, sampled = 0;
  for (int it = 0; it < DRAWS; it++) {
    Arena *saved = A;
    A = arena_new();
    const OpLimits *lim = it % 8 == 6 ? &small_limits : it % 8 == 7 ? &int_limits : &limits;
    Rng ch = {{rng_below}, next64(g) | 1, it % 16 == 5};
    OpSolveCtx cx = {&ch.ch, A, lim};
    OpSig sig;
    Type *want = op == OP_SPLIT ? rand_split_type(g) : rand_type(g);
    if (op == OP_SPLIT && it % 3 == 0 && fns[op].sample(op, &cx, &sig)) /* valid tuples */
      want = sig.ret;
    if (fns[op].rec(op, want, lim)) {
      bool ok = fns[op].solve(op, want, &cx, &sig);
      PROP(ok, "%s: rec accepts %s but solve fails", ir_op_name(op), show(want));
      if (ok) {
        solved++;
        check_sig(op, want, &sig, lim, "solution");
        check_kernel(op, &sig, g);
      }
    }
    if (fns[op].sample(op, &cx, &sig)) {
      sampled++;
      check_sig(op, sig.ret, &sig, lim, "sample");
      check_kernel(op, &sig, g);
    }
    arena_free(A);
    A = saved;
  }
  if (getenv("SHAPE_STATS"))
    printf("%-14s solved %5d sampled %5d\n", ir_op_name(op), solved, sampled);
  /* Most draws are solvable and every limit set can be sampled. */
  PROP(solved > DRAWS / 20 && sampled > DRAWS / 2, "%s: solved %d, sampled %d of %d",
       ir_op_name(op), solved, sampled, DRAWS);
}

static void test_properties(void) {
  Rng g = {{rng_below}, 0x9e3779b97f4a7c15ull, false};
  for (int op = 0; op < OP_COUNT; op++)
    if (fns[op].rel)
      props((OpId)op, &g);
}

/* Relations are total: arbitrary attributes (wrong kinds, extreme and
 * negative values, empty and long lists) and argument types either type
 * check or give an error, never crash; when they type check, the kernel
 * runs on random data (ASan and UBSan watch both). */
static void garbage_attr(Rng *g, Attrs *at, const char *name) {
  static const int64_t pool[] = {0,
                                 1,
                                 2,
                                 3,
                                 4,
                                 6,
                                 -1,
                                 -2,
                                 -3,
                                 -4,
                                 -5,
                                 7,
                                 64,
                                 65,
                                 INT64_MIN,
                                 INT64_MAX,
                                 INT64_MIN + 1,
                                 1ll << 40,
                                 -(1ll << 40)};
  static const char *strs[] = {"clip",    "wrap", "fast", "end", "size",
                               "float32", "int8", "bool", "",    "junk"};
  int64_t v[9];
  int n = (int)rnd(g, 9);
  for (int i = 0; i < n; i++)
    v[i] = rnd(g, 3) ? pool[rnd(g, sizeof pool / sizeof *pool)] : rnd(g, 9) - 3;
  switch (rnd(g, 9)) {
  case 0: break; /* absent */
  case 1: ir_attr_set_none(A, at, name); break;
  case 2: ir_attr_set_str(A, at, name, strs[rnd(g, sizeof strs / sizeof *strs)]); break;
  case 3: ir_attr_set_float(A, at, name, 1.5); break;
  case 4: ir_attr_set_bool(A, at, name, true); break;
  case 5:
  case 6: ir_attr_set_int(A, at, name, n ? v[0] : rnd(g, 5) - 2); break;
  default: ir_attr_set_ints(A, at, name, n, v); break;
  }
}

static void test_garbage(void) {
  Rng g = {{rng_below}, 0x1234567887654321ull, false};
  int ok = 0, rejected = 0;
  for (int op = 0; op < OP_COUNT; op++) {
    if (!fns[op].rel)
      continue;
    for (int it = 0; it < 4000; it++) {
      Arena *saved = A;
      A = arena_new();
      Attrs at = at_none();
      /* The attribute names from the op's schema, e.g. "axis:int?, mode:str". */
      AttrSpec spec;
      for (int i = 0; ir_op_attr_at((OpId)op, i, &spec); i++) {
        char name[64];
        snprintf(name, sizeof name, "%.*s", spec.nlen, spec.name);
        garbage_attr(&g, &at, name);
      }
      Type *args[OP_MAX_ARGS], *f[4], *out;
      int nargs = op == OP_ZEROS || op == OP_ONES ? 0 : op == OP_TAKE ? 2 : 1;
      if (rnd(&g, 16) == 0)
        nargs = (int)rnd(&g, 3);
      for (int i = 0; i < nargs; i++)
        args[i] = rand_type(&g);
      if ((op == OP_CONCATENATE || op == OP_STACK) && nargs == 1 && rnd(&g, 8)) {
        int n = (int)rnd(&g, 4);
        for (int i = 0; i < n; i++)
          f[i] = rnd(&g, 2) ? ir_type_copy(A, args[0]) : rand_type(&g);
        args[0] = tup(n, f);
      }
      if (op == OP_TAKE && nargs == 2 && rnd(&g, 4))
        args[1]->tensor.dtype = rnd(&g, 2) ? DT_INT32 : DT_INT64;
      if (op == OP_FULL && nargs == 1 && rnd(&g, 2))
        args[0] = T0((DType)rnd(&g, DT_COUNT));
      RelStatus s = rel((OpId)op, args, nargs, &at, &out);
      PROP(s == REL_OK || (s == REL_ERROR && err[0]), "%s: status %d without a message",
           ir_op_name((OpId)op), s);
      if (s != REL_OK) {
        rejected++;
      } else {
        /* Run the kernel when the tensors are small. */
        Type *fa[64], *fo[64];
        int64_t total = 0;
        int na = 0, no = flatten(out, fo);
        for (int i = 0; i < nargs; i++)
          na += flatten(args[i], fa + na);
        for (int i = 0; i < na + no; i++)
          if (__builtin_add_overflow(total, ir_type_numel(i < na ? fa[i] : fo[i - na]), &total))
            total = INT64_MAX;
        if (total <= 100000) {
          Tensor *ta[64], *to[64];
          for (int i = 0; i < na; i++)
            fill_random(ta[i] = ir_tensor_of_type(A, fa[i]), &g);
          for (int i = 0; i < no; i++)
            to[i] = ir_tensor_of_type(A, fo[i]);
          fns[op].kernel((OpId)op, ta, na, &at, to, no, A);
          ok++;
        }
      }
      arena_free(A);
      A = saved;
    }
  }
  if (getenv("SHAPE_STATS"))
    printf("garbage: %d kernels run, %d rejected\n", ok, rejected);
  PROP(ok > 1000 && rejected > 1000, "garbage: %d kernels run, %d rejected", ok, rejected);
}

int main(void) {
  void (*tests[])(void) = {test_reshape,       test_transpose,   test_expand_dims, test_squeeze,
                           test_broadcast_to,  test_concatenate, test_stack,       test_split,
                           test_strided_slice, test_take,        test_tile,        test_reverse,
                           test_creation,      test_garbage,     test_properties};
  for (size_t i = 0; i < sizeof tests / sizeof *tests; i++) {
    A = arena_new();
    tests[i]();
    arena_free(A);
  }
  return test_summary();
}
