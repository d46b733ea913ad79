/*
 * The neural-network operators (compiler/ops/matmul.c, conv.c, pool.c and
 * nn.c): kernels against hand-computed values, relations rejecting
 * ill-typed calls, and a property loop over recognizers, solvers,
 * samplers and kernels driven by a PRNG chooser.  The operators'
 * functions are called directly, not through the registry.
 */
#include <math.h>
#include <stdint.h>

#include "compiler/ops/op.h"
#include "test.h"

/* ------------------------------------------------------------ the table */

typedef struct NnOp {
  OpId id;
  OpRelFn rel;
  OpRecFn rec;
  OpSolveFn solve;
  OpSampleFn sample;
  OpKernelFn kernel;
} NnOp;

#define NN(id, fam)                                                                                \
  { OP_##id, rel_##fam, rec_##fam, solve_##fam, sample_##fam, k_##fam }
static const NnOp nn_ops[] = {
    NN(DENSE, dense),           NN(BATCH_MATMUL, batch_matmul),
    NN(CONV2D, conv2d),         NN(MAX_POOL2D, pool2d),
    NN(AVG_POOL2D, pool2d),     NN(GLOBAL_AVG_POOL2D, global_pool2d),
    NN(SOFTMAX, softmax),       NN(LOG_SOFTMAX, softmax),
    NN(BIAS_ADD, bias_add),     NN(BATCH_NORM, batch_norm),
    NN(LAYER_NORM, layer_norm), NN(PAD, pad),
};
enum { NN_COUNT = sizeof nn_ops / sizeof nn_ops[0] };

static const NnOp *nn(OpId op) {
  for (int i = 0; i < NN_COUNT; i++)
    if (nn_ops[i].id == op)
      return &nn_ops[i];
  return NULL;
}

/* ------------------------------------------------------------- helpers */

static Arena *A; /* reset per test */

#define SH(...) ((const int64_t[]){__VA_ARGS__})
#define VA(...) ((const double[]){__VA_ARGS__})

/* A tensor with the given values (converted with the defined casts). */
static Tensor *mk(DType dt, int rank, const int64_t *shape, const double *v) {
  Tensor *t = ir_tensor_new(A, dt, rank, shape);
  for (int64_t i = 0; v && i < t->numel; i++)
    ir_tensor_set_f64(t, i, v[i]);
  return t;
}

static Tensor *f32(int rank, const int64_t *shape, const double *v) {
  return mk(DT_FLOAT32, rank, shape, v);
}

static char last_err[256];

/* Runs the relation and the kernel like op_eval; returns the number of
 * outputs or -1 (message in last_err). */
static int run(OpId op, Tensor *const *args, int nargs, const Attrs *at, Tensor **outs) {
  Type *targs[OP_MAX_ARGS], *ret;
  for (int i = 0; i < nargs; i++)
    targs[i] = ir_tensor_type_of(A, args[i]);
  last_err[0] = 0;
  if (nn(op)->rel(op, targs, nargs, at, A, &ret, last_err, sizeof last_err) != REL_OK)
    return -1;
  int n = 1;
  if (ret->kind == TY_TUPLE) {
    n = ret->tuple.n;
    for (int i = 0; i < n; i++)
      outs[i] = ir_tensor_of_type(A, ret->tuple.fields[i]);
  } else {
    outs[0] = ir_tensor_of_type(A, ret);
  }
  nn(op)->kernel(op, args, nargs, at, outs, n, A);
  return n;
}

/* Runs a one-output op and returns its output, or NULL. */
static Tensor *run1(OpId op, Tensor *const *args, int nargs, const Attrs *at) {
  Tensor *outs[4];
  return run(op, args, nargs, at, outs) == 1 ? outs[0] : NULL;
}

/* Values close: equal NaN-ness, equal infinities, else within tol
 * (relative for large magnitudes). */
static bool close_to(double got, double want, double tol) {
  if (isnan(want) || isnan(got))
    return isnan(want) && isnan(got);
  if (isinf(want) || isinf(got))
    return got == want;
  return fabs(got - want) <= tol * fmax(1.0, fabs(want));
}

/* Checks dtype, shape and values of t. */
static void check_tensor(int line, const Tensor *t, DType dt, int rank, const int64_t *shape,
                         const double *v, double tol) {
  bool ok = t && t->dtype == dt && t->rank == rank;
  for (int i = 0; ok && i < rank; i++)
    ok = t->shape[i] == shape[i];
  CHECK_MSG(ok, "line %d: wrong result type (%s)", line, t ? "shape/dtype" : last_err);
  if (!ok)
    return;
  for (int64_t i = 0; i < t->numel; i++) {
    double got = ir_tensor_get_f64(t, i);
    CHECK_MSG(close_to(got, v[i], tol), "line %d: element %lld is %.9g, want %.9g", line,
              (long long)i, got, v[i]);
  }
}
#define CHECK_T(t, dt, rank, shape, vals) check_tensor(__LINE__, t, dt, rank, shape, vals, 1e-6)

/* Checks that the relation rejects a call, with a message. */
static void check_rejects(int line, OpId op, Type *const *args, int nargs, const Attrs *at,
                          const char *needle) {
  Type *ret;
  char err[256] = "";
  RelStatus st = nn(op)->rel(op, args, nargs, at, A, &ret, err, sizeof err);
  CHECK_MSG(st == REL_ERROR && err[0], "line %d: expected rejection", line);
  if (st == REL_ERROR && needle)
    CHECK_MSG(strstr(err, needle) != NULL, "line %d: message '%s' lacks '%s'", line, err, needle);
}
#define REJECT(op, args, n, at, needle) check_rejects(__LINE__, op, args, n, at, needle)

static Type *ty(DType dt, int rank, const int64_t *shape) {
  return ir_tensor_type(A, dt, rank, shape);
}

static Attrs no_attrs;

/* --------------------------------------------------------------- dense */

static void test_dense(void) {
  Tensor *d = f32(2, SH(2, 2), VA(1, 2, 3, 4));
  Tensor *w = f32(2, SH(3, 2), VA(1, 0, 1, 1, 2, -1));
  CHECK_T(run1(OP_DENSE, (Tensor *[]){d, w}, 2, &no_attrs), DT_FLOAT32, 2, SH(2, 3),
          VA(1, 3, 0, 3, 7, 2));
  Tensor *d3 = f32(3, SH(2, 1, 2), VA(1, 2, 3, 4));
  CHECK_T(run1(OP_DENSE, (Tensor *[]){d3, w}, 2, &no_attrs), DT_FLOAT32, 3, SH(2, 1, 3),
          VA(1, 3, 0, 3, 7, 2));
  Tensor *d1 = f32(1, SH(2), VA(1, 2));
  CHECK_T(run1(OP_DENSE, (Tensor *[]){d1, w}, 2, &no_attrs), DT_FLOAT32, 1, SH(3), VA(1, 3, 0));

  Attrs at = {0};
  ir_attr_set_int(A, &at, "units", 3);
  CHECK_T(run1(OP_DENSE, (Tensor *[]){d, w}, 2, &at), DT_FLOAT32, 2, SH(2, 3),
          VA(1, 3, 0, 3, 7, 2));
  ir_attr_set_int(A, &at, "units", 4);
  REJECT(OP_DENSE, ((Type *[]){ty(DT_FLOAT32, 2, SH(2, 2)), ty(DT_FLOAT32, 2, SH(3, 2))}), 2, &at,
         "units");

  /* int8 wraps; out_dtype int32 accumulates without wrapping */
  Tensor *i8 = mk(DT_INT8, 2, SH(1, 2), VA(100, 100)), *w8 = mk(DT_INT8, 2, SH(1, 2), VA(1, 1));
  CHECK_T(run1(OP_DENSE, (Tensor *[]){i8, w8}, 2, &no_attrs), DT_INT8, 2, SH(1, 1), VA(-56));
  Attrs o32 = {0};
  ir_attr_set_str(A, &o32, "out_dtype", "int32");
  CHECK_T(run1(OP_DENSE, (Tensor *[]){i8, w8}, 2, &o32), DT_INT32, 2, SH(1, 1), VA(200));
  /* floats converted to int32 operand by operand (truncating): 1*3 + 2*1 */
  Tensor *fd = f32(2, SH(1, 2), VA(1.7, 2.2)), *fw = f32(2, SH(1, 2), VA(3.9, 1));
  CHECK_T(run1(OP_DENSE, (Tensor *[]){fd, fw}, 2, &o32), DT_INT32, 2, SH(1, 1), VA(5));
  /* int64 wraps without UB */
  Tensor *big = mk(DT_INT64, 2, SH(1, 2), NULL), *two = mk(DT_INT64, 2, SH(1, 2), NULL);
  ((int64_t *)big->data)[0] = INT64_MAX;
  ((int64_t *)big->data)[1] = INT64_MAX;
  ((int64_t *)two->data)[0] = 2;
  ((int64_t *)two->data)[1] = 2;
  Tensor *r = run1(OP_DENSE, (Tensor *[]){big, two}, 2, &no_attrs);
  CHECK(r && ((int64_t *)r->data)[0] == -4); /* 4 * (2^63 - 1) mod 2^64 */

  REJECT(OP_DENSE, ((Type *[]){ty(DT_FLOAT32, 2, SH(2, 2)), ty(DT_FLOAT32, 2, SH(3, 3))}), 2,
         &no_attrs, "input features");
  REJECT(OP_DENSE, ((Type *[]){ty(DT_FLOAT32, 2, SH(2, 2)), ty(DT_FLOAT32, 1, SH(2))}), 2,
         &no_attrs, "rank 2");
  REJECT(OP_DENSE, ((Type *[]){ty(DT_FLOAT32, 0, NULL), ty(DT_FLOAT32, 2, SH(1, 1))}), 2, &no_attrs,
         "rank");
  REJECT(OP_DENSE, ((Type *[]){ty(DT_FLOAT32, 2, SH(2, 2)), ty(DT_INT32, 2, SH(3, 2))}), 2,
         &no_attrs, "differ");
  REJECT(OP_DENSE, ((Type *[]){ty(DT_BOOL, 2, SH(2, 2)), ty(DT_BOOL, 2, SH(3, 2))}), 2, &no_attrs,
         "numeric");
  Attrs bad = {0};
  ir_attr_set_str(A, &bad, "out_dtype", "bool");
  REJECT(OP_DENSE, ((Type *[]){ty(DT_FLOAT32, 2, SH(2, 2)), ty(DT_FLOAT32, 2, SH(3, 2))}), 2, &bad,
         "out_dtype");
}

/* -------------------------------------------------------- batch_matmul */

static void test_batch_matmul(void) {
  Tensor *x = f32(3, SH(1, 2, 2), VA(1, 2, 3, 4));
  Tensor *y = f32(3, SH(2, 2, 2), VA(1, 0, 0, 1, 1, 1, 2, 0));
  /* default transpose_b: out[b] = x[0] @ y[b]^T, x's batch of 1 broadcast */
  CHECK_T(run1(OP_BATCH_MATMUL, (Tensor *[]){x, y}, 2, &no_attrs), DT_FLOAT32, 3, SH(2, 2, 2),
          VA(1, 2, 3, 4, 3, 2, 7, 6));
  Attrs ta = {0};
  ir_attr_set_bool(A, &ta, "transpose_a", true);
  ir_attr_set_bool(A, &ta, "transpose_b", false);
  Tensor *id = f32(3, SH(1, 2, 2), VA(1, 0, 0, 1));
  CHECK_T(run1(OP_BATCH_MATMUL, (Tensor *[]){x, id}, 2, &ta), DT_FLOAT32, 3, SH(1, 2, 2),
          VA(1, 3, 2, 4));
  Attrs tt = {0};
  ir_attr_set_bool(A, &tt, "transpose_a", true);
  Tensor *y2 = f32(3, SH(1, 2, 2), VA(1, 2, 0, 1));
  CHECK_T(run1(OP_BATCH_MATMUL, (Tensor *[]){x, y2}, 2, &tt), DT_FLOAT32, 3, SH(1, 2, 2),
          VA(7, 3, 10, 4));
  /* y's batch of 1 broadcast; non-square: x [2, 1, 2], y [1, 1, 2] */
  Tensor *xb = f32(3, SH(2, 1, 2), VA(1, 2, 3, 4)), *yb = f32(3, SH(1, 1, 2), VA(10, 1));
  CHECK_T(run1(OP_BATCH_MATMUL, (Tensor *[]){xb, yb}, 2, &no_attrs), DT_FLOAT32, 3, SH(2, 1, 1),
          VA(12, 34));
  /* transpose_b=False with m != n: x [1, 1, 2] @ y [1, 2, 3] */
  Attrs nb = {0};
  ir_attr_set_bool(A, &nb, "transpose_b", false);
  Tensor *xr = f32(3, SH(1, 1, 2), VA(1, 2)), *yr = f32(3, SH(1, 2, 3), VA(1, 2, 3, 4, 5, 6));
  CHECK_T(run1(OP_BATCH_MATMUL, (Tensor *[]){xr, yr}, 2, &nb), DT_FLOAT32, 3, SH(1, 1, 3),
          VA(9, 12, 15));

  REJECT(OP_BATCH_MATMUL,
         ((Type *[]){ty(DT_FLOAT32, 3, SH(2, 2, 2)), ty(DT_FLOAT32, 3, SH(3, 2, 2))}), 2, &no_attrs,
         "batch");
  REJECT(OP_BATCH_MATMUL,
         ((Type *[]){ty(DT_FLOAT32, 3, SH(1, 2, 3)), ty(DT_FLOAT32, 3, SH(1, 2, 2))}), 2, &no_attrs,
         "reduction");
  REJECT(OP_BATCH_MATMUL, ((Type *[]){ty(DT_FLOAT32, 2, SH(2, 2)), ty(DT_FLOAT32, 3, SH(1, 2, 2))}),
         2, &no_attrs, "rank 3");
  Attrs badb = {0};
  ir_attr_set_str(A, &badb, "transpose_a", "yes");
  REJECT(OP_BATCH_MATMUL,
         ((Type *[]){ty(DT_FLOAT32, 3, SH(1, 2, 2)), ty(DT_FLOAT32, 3, SH(1, 2, 2))}), 2, &badb,
         "bool");
}

/* -------------------------------------------------------------- conv2d */

static void test_conv2d(void) {
  Tensor *d = f32(4, SH(1, 1, 3, 3), VA(1, 2, 3, 4, 5, 6, 7, 8, 9));
  Tensor *ones = f32(4, SH(1, 1, 2, 2), VA(1, 1, 1, 1));
  CHECK_T(run1(OP_CONV2D, (Tensor *[]){d, ones}, 2, &no_attrs), DT_FLOAT32, 4, SH(1, 1, 2, 2),
          VA(12, 16, 24, 28));
  /* padding 1 on all sides, stride 2 */
  Attrs ps = {0};
  ir_attr_set_ints(A, &ps, "strides", 2, SH(2, 2));
  ir_attr_set_ints(A, &ps, "padding", 1, SH(1));
  CHECK_T(run1(OP_CONV2D, (Tensor *[]){d, ones}, 2, &ps), DT_FLOAT32, 4, SH(1, 1, 2, 2),
          VA(1, 5, 11, 28));
  /* dilation 2: the corners */
  Attrs dil = {0};
  ir_attr_set_ints(A, &dil, "dilation", 2, SH(2, 2));
  CHECK_T(run1(OP_CONV2D, (Tensor *[]){d, ones}, 2, &dil), DT_FLOAT32, 4, SH(1, 1, 1, 1), VA(20));
  /* stride [1, 2] with a 1x1 kernel picks columns 0 and 2 */
  Attrs s12 = {0};
  ir_attr_set_ints(A, &s12, "strides", 2, SH(1, 2));
  Tensor *one = f32(4, SH(1, 1, 1, 1), VA(1));
  CHECK_T(run1(OP_CONV2D, (Tensor *[]){d, one}, 2, &s12), DT_FLOAT32, 4, SH(1, 1, 3, 2),
          VA(1, 3, 4, 6, 7, 9));
  /* 4-value padding: top 1 only */
  Tensor *d2 = f32(4, SH(1, 1, 2, 2), VA(1, 2, 3, 4));
  Attrs p4 = {0};
  ir_attr_set_ints(A, &p4, "padding", 4, SH(1, 0, 0, 0));
  CHECK_T(run1(OP_CONV2D, (Tensor *[]){d2, ones}, 2, &p4), DT_FLOAT32, 4, SH(1, 1, 2, 1),
          VA(3, 10));
  /* 2-value padding: (top/bottom 0, left/right 1) */
  Attrs p2 = {0};
  ir_attr_set_ints(A, &p2, "padding", 2, SH(0, 1));
  CHECK_T(run1(OP_CONV2D, (Tensor *[]){d2, ones}, 2, &p2), DT_FLOAT32, 4, SH(1, 1, 1, 3),
          VA(4, 10, 6));
  /* groups: depthwise, then two channels per group */
  Attrs g2 = {0};
  ir_attr_set_int(A, &g2, "groups", 2);
  Tensor *dg = f32(4, SH(1, 2, 1, 1), VA(2, 3)), *wg = f32(4, SH(2, 1, 1, 1), VA(10, 100));
  CHECK_T(run1(OP_CONV2D, (Tensor *[]){dg, wg}, 2, &g2), DT_FLOAT32, 4, SH(1, 2, 1, 1),
          VA(20, 300));
  Tensor *dg4 = f32(4, SH(1, 4, 1, 1), VA(1, 2, 3, 4)),
         *wg4 = f32(4, SH(2, 2, 1, 1), VA(1, 1, 1, -1));
  CHECK_T(run1(OP_CONV2D, (Tensor *[]){dg4, wg4}, 2, &g2), DT_FLOAT32, 4, SH(1, 2, 1, 1),
          VA(3, -1));
  /* two output channels over batch 2, one group */
  Tensor *db = f32(4, SH(2, 1, 1, 2), VA(1, 2, 3, 4)),
         *wb = f32(4, SH(2, 1, 1, 2), VA(1, 1, 1, -1));
  CHECK_T(run1(OP_CONV2D, (Tensor *[]){db, wb}, 2, &no_attrs), DT_FLOAT32, 4, SH(2, 2, 1, 1),
          VA(3, -1, 7, -1));
  /* integers wrap in int8; out_dtype int32 does not */
  Tensor *i8 = mk(DT_INT8, 4, SH(1, 1, 1, 2), VA(127, 127)),
         *w8 = mk(DT_INT8, 4, SH(1, 1, 1, 2), VA(1, 1));
  CHECK_T(run1(OP_CONV2D, (Tensor *[]){i8, w8}, 2, &no_attrs), DT_INT8, 4, SH(1, 1, 1, 1), VA(-2));
  Attrs o32 = {0};
  ir_attr_set_str(A, &o32, "out_dtype", "int32");
  CHECK_T(run1(OP_CONV2D, (Tensor *[]){i8, w8}, 2, &o32), DT_INT32, 4, SH(1, 1, 1, 1), VA(254));
  /* channels and kernel_size, consistent */
  Attrs ck = {0};
  ir_attr_set_int(A, &ck, "channels", 1);
  ir_attr_set_ints(A, &ck, "kernel_size", 2, SH(2, 2));
  CHECK_T(run1(OP_CONV2D, (Tensor *[]){d, ones}, 2, &ck), DT_FLOAT32, 4, SH(1, 1, 2, 2),
          VA(12, 16, 24, 28));

  Type *td = ty(DT_FLOAT32, 4, SH(1, 2, 3, 3)), *tw = ty(DT_FLOAT32, 4, SH(2, 2, 2, 2));
  Type *ok[2] = {td, tw};
  Attrs a;
#define BAD(setup, needle)                                                                         \
  do {                                                                                             \
    a = (Attrs){0};                                                                                \
    setup;                                                                                         \
    REJECT(OP_CONV2D, ok, 2, &a, needle);                                                          \
  } while (0)
  BAD(ir_attr_set_int(A, &a, "channels", 3), "channels");
  BAD(ir_attr_set_ints(A, &a, "kernel_size", 2, SH(3, 3)), "kernel_size");
  BAD(ir_attr_set_ints(A, &a, "kernel_size", 1, SH(2)), "kernel_size");
  BAD(ir_attr_set_str(A, &a, "data_layout", "NCHW4c"), "NCHW4c");
  BAD(ir_attr_set_str(A, &a, "kernel_layout", "OIHW4o"), "OIHW4o");
  BAD(ir_attr_set_int(A, &a, "groups", 0), "groups");
  BAD(ir_attr_set_int(A, &a, "groups", -2), "groups");
  BAD(ir_attr_set_int(A, &a, "groups", 3), "groups");
  BAD(ir_attr_set_int(A, &a, "groups", 2), "input channels");
  BAD(ir_attr_set_ints(A, &a, "strides", 2, SH(0, 1)), "strides");
  BAD(ir_attr_set_ints(A, &a, "strides", 1, SH(1)), "strides");
  BAD(ir_attr_set_ints(A, &a, "strides", 3, SH(1, 1, 1)), "strides");
  BAD(ir_attr_set_ints(A, &a, "dilation", 2, SH(1, -1)), "dilation");
  BAD(ir_attr_set_ints(A, &a, "padding", 3, SH(1, 1, 1)), "padding");
  BAD(ir_attr_set_ints(A, &a, "padding", 0, NULL), "padding");
  BAD(ir_attr_set_ints(A, &a, "padding", 2, SH(-1, 0)), "padding");
  BAD(ir_attr_set_ints(A, &a, "dilation", 2, SH(3, 1)), "larger than the padded");
  BAD(ir_attr_set_ints(A, &a, "dilation", 2, SH(INT64_MAX, 1)), "too large");
  BAD(ir_attr_set_ints(A, &a, "padding", 1, SH(INT64_MAX)), "too large");
  BAD(ir_attr_set_str(A, &a, "strides", "1"), "list");
  BAD(ir_attr_set_float(A, &a, "groups", 1.0), "integer");
  BAD(ir_attr_set_int(A, &a, "bogus", 1), "unknown attribute");
  BAD(ir_attr_set_str(A, &a, "out_dtype", "float8"), "out_dtype");
#undef BAD
  /* huge strides are fine: one output */
  Attrs hs = {0};
  ir_attr_set_ints(A, &hs, "strides", 2, SH(INT64_MAX, INT64_MAX));
  Type *ret;
  CHECK(rel_conv2d(OP_CONV2D, ok, 2, &hs, A, &ret, NULL, 0) == REL_OK);
  REJECT(OP_CONV2D, ((Type *[]){td, ty(DT_FLOAT32, 4, SH(2, 2, 0, 2))}), 2, &no_attrs, "1x1");
  REJECT(OP_CONV2D, ((Type *[]){td, ty(DT_FLOAT32, 3, SH(2, 2, 2))}), 2, &no_attrs, "rank 4");
  REJECT(OP_CONV2D, ((Type *[]){td, ty(DT_FLOAT64, 4, SH(2, 2, 2, 2))}), 2, &no_attrs, "differ");
  REJECT(OP_CONV2D, ((Type *[]){td}), 1, &no_attrs, "argument");
}

/* ------------------------------------------------------------- pooling */

static void test_pools(void) {
  double seq[16];
  for (int i = 0; i < 16; i++)
    seq[i] = i + 1;
  Tensor *d4 = f32(4, SH(1, 1, 4, 4), seq), *d3 = f32(4, SH(1, 1, 3, 3), seq);
  Tensor *d2 = f32(4, SH(1, 1, 2, 2), seq);
  Attrs p2s2 = {0};
  ir_attr_set_ints(A, &p2s2, "pool_size", 2, SH(2, 2));
  ir_attr_set_ints(A, &p2s2, "strides", 2, SH(2, 2));
  CHECK_T(run1(OP_MAX_POOL2D, (Tensor *[]){d4}, 1, &p2s2), DT_FLOAT32, 4, SH(1, 1, 2, 2),
          VA(6, 8, 14, 16));
  CHECK_T(run1(OP_MAX_POOL2D, (Tensor *[]){d3}, 1, &p2s2), DT_FLOAT32, 4, SH(1, 1, 1, 1), VA(5));
  CHECK_T(run1(OP_AVG_POOL2D, (Tensor *[]){d3}, 1, &p2s2), DT_FLOAT32, 4, SH(1, 1, 1, 1), VA(3));
  /* ceil_mode: the partial windows at the edge count */
  Attrs ceil = ir_attrs_copy(A, &p2s2);
  ir_attr_set_bool(A, &ceil, "ceil_mode", true);
  CHECK_T(run1(OP_MAX_POOL2D, (Tensor *[]){d3}, 1, &ceil), DT_FLOAT32, 4, SH(1, 1, 2, 2),
          VA(5, 6, 8, 9));
  CHECK_T(run1(OP_AVG_POOL2D, (Tensor *[]){d3}, 1, &ceil), DT_FLOAT32, 4, SH(1, 1, 2, 2),
          VA(3, 4.5, 7.5, 9));
  ir_attr_set_bool(A, &ceil, "count_include_pad", true); /* the ceil overhang never counts */
  CHECK_T(run1(OP_AVG_POOL2D, (Tensor *[]){d3}, 1, &ceil), DT_FLOAT32, 4, SH(1, 1, 2, 2),
          VA(3, 4.5, 7.5, 9));

  /* padding 1, pool 2, stride 1 over [[1, 2], [3, 4]] */
  Attrs pad = {0};
  ir_attr_set_ints(A, &pad, "pool_size", 2, SH(2, 2));
  ir_attr_set_ints(A, &pad, "padding", 1, SH(1));
  CHECK_T(run1(OP_MAX_POOL2D, (Tensor *[]){d2}, 1, &pad), DT_FLOAT32, 4, SH(1, 1, 3, 3),
          VA(1, 2, 2, 3, 4, 4, 3, 4, 4));
  CHECK_T(run1(OP_AVG_POOL2D, (Tensor *[]){d2}, 1, &pad), DT_FLOAT32, 4, SH(1, 1, 3, 3),
          VA(1, 1.5, 2, 2, 2.5, 3, 3, 3.5, 4));
  Attrs padc = ir_attrs_copy(A, &pad);
  ir_attr_set_bool(A, &padc, "count_include_pad", true);
  CHECK_T(run1(OP_AVG_POOL2D, (Tensor *[]){d2}, 1, &padc), DT_FLOAT32, 4, SH(1, 1, 3, 3),
          VA(0.25, 0.75, 0.5, 1, 2.5, 1.5, 0.75, 1.75, 1));
  /* padding does not win over negative values */
  Tensor *neg = f32(4, SH(1, 1, 1, 1), VA(-5));
  CHECK_T(run1(OP_MAX_POOL2D, (Tensor *[]){neg}, 1, &pad), DT_FLOAT32, 4, SH(1, 1, 2, 2),
          VA(-5, -5, -5, -5));

  /* dilation 2 takes the corners */
  Attrs dil = {0};
  ir_attr_set_ints(A, &dil, "pool_size", 2, SH(2, 2));
  ir_attr_set_ints(A, &dil, "dilation", 2, SH(2, 2));
  CHECK_T(run1(OP_MAX_POOL2D, (Tensor *[]){d3}, 1, &dil), DT_FLOAT32, 4, SH(1, 1, 1, 1), VA(9));
  CHECK_T(run1(OP_AVG_POOL2D, (Tensor *[]){d3}, 1, &dil), DT_FLOAT32, 4, SH(1, 1, 1, 1), VA(5));

  /* ceil_mode with left/right padding 1 over a row [1, 2, 3], pool 1x2,
   * stride 2: windows cover columns {-1, 0}, {1, 2}, {3, 4}; with
   * count_include_pad the written padding (column 3) counts, the ceil
   * overhang (column 4) does not */
  Tensor *row = f32(4, SH(1, 1, 1, 3), VA(1, 2, 3));
  Attrs rc = {0};
  ir_attr_set_ints(A, &rc, "pool_size", 2, SH(1, 2));
  ir_attr_set_ints(A, &rc, "strides", 2, SH(1, 2));
  ir_attr_set_ints(A, &rc, "padding", 2, SH(0, 1));
  ir_attr_set_bool(A, &rc, "ceil_mode", true);
  CHECK_T(run1(OP_AVG_POOL2D, (Tensor *[]){row}, 1, &rc), DT_FLOAT32, 4, SH(1, 1, 1, 3),
          VA(1, 2.5, 0));
  ir_attr_set_bool(A, &rc, "count_include_pad", true);
  CHECK_T(run1(OP_AVG_POOL2D, (Tensor *[]){row}, 1, &rc), DT_FLOAT32, 4, SH(1, 1, 1, 3),
          VA(0.5, 2.5, 0));
  Attrs rcmax = {0};
  ir_attr_set_ints(A, &rcmax, "pool_size", 2, SH(1, 2));
  ir_attr_set_ints(A, &rcmax, "strides", 2, SH(1, 2));
  ir_attr_set_ints(A, &rcmax, "padding", 2, SH(0, 1));
  ir_attr_set_bool(A, &rcmax, "ceil_mode", true);
  CHECK_T(run1(OP_MAX_POOL2D, (Tensor *[]){row}, 1, &rcmax), DT_FLOAT32, 4, SH(1, 1, 1, 3),
          VA(1, 3, -INFINITY));

  /* a ceil_mode window wholly past the input: H = 2, pool 1, stride 2 */
  Attrs past = {0};
  ir_attr_set_ints(A, &past, "strides", 2, SH(2, 1));
  ir_attr_set_bool(A, &past, "ceil_mode", true);
  Tensor *col = f32(4, SH(1, 1, 2, 1), VA(1, 2));
  CHECK_T(run1(OP_MAX_POOL2D, (Tensor *[]){col}, 1, &past), DT_FLOAT32, 4, SH(1, 1, 2, 1),
          VA(1, -INFINITY));
  CHECK_T(run1(OP_AVG_POOL2D, (Tensor *[]){col}, 1, &past), DT_FLOAT32, 4, SH(1, 1, 2, 1),
          VA(1, 0));
  Tensor *icol = mk(DT_INT32, 4, SH(1, 1, 2, 1), VA(-7, 2));
  CHECK_T(run1(OP_MAX_POOL2D, (Tensor *[]){icol}, 1, &past), DT_INT32, 4, SH(1, 1, 2, 1),
          VA(-7, INT32_MIN));

  /* integers and NaN */
  Tensor *i8 = mk(DT_INT8, 4, SH(1, 1, 2, 2), VA(-128, 127, -1, 0));
  CHECK_T(run1(OP_MAX_POOL2D, (Tensor *[]){i8}, 1, &pad), DT_INT8, 4, SH(1, 1, 3, 3),
          VA(-128, 127, 127, -1, 127, 127, -1, 0, 0));
  Attrs p12 = {0};
  ir_attr_set_ints(A, &p12, "pool_size", 2, SH(1, 2));
  Tensor *nan = f32(4, SH(1, 1, 1, 3), VA(NAN, 1, 2));
  CHECK_T(run1(OP_MAX_POOL2D, (Tensor *[]){nan}, 1, &p12), DT_FLOAT32, 4, SH(1, 1, 1, 2),
          VA(NAN, 2));
  Tensor *zeros = f32(4, SH(1, 1, 1, 3), VA(-0.0, 0.0, -0.0));
  Tensor *zr = run1(OP_MAX_POOL2D, (Tensor *[]){zeros}, 1, &p12);
  CHECK(zr && !signbit(((float *)zr->data)[0]) && !signbit(((float *)zr->data)[1]));
  Tensor *nan2 = f32(4, SH(1, 1, 1, 2), VA(1, NAN));
  CHECK_T(run1(OP_MAX_POOL2D, (Tensor *[]){nan2}, 1, &p12), DT_FLOAT32, 4, SH(1, 1, 1, 1), VA(NAN));

  Type *td = ty(DT_FLOAT32, 4, SH(1, 1, 3, 3));
  Attrs a;
#define BAD(op, setup, needle)                                                                     \
  do {                                                                                             \
    a = (Attrs){0};                                                                                \
    setup;                                                                                         \
    REJECT(op, &td, 1, &a, needle);                                                                \
  } while (0)
  BAD(OP_MAX_POOL2D, ir_attr_set_ints(A, &a, "pool_size", 2, SH(4, 1)), "larger than the padded");
  BAD(OP_MAX_POOL2D, ir_attr_set_ints(A, &a, "pool_size", 2, SH(0, 1)), "pool_size");
  BAD(OP_MAX_POOL2D, ir_attr_set_ints(A, &a, "pool_size", 1, SH(2)), "pool_size");
  BAD(OP_MAX_POOL2D, ir_attr_set_ints(A, &a, "strides", 2, SH(1, 0)), "strides");
  /* ceil_mode: a second window starting past INT64_MAX - 1 */
  BAD(OP_MAX_POOL2D,
      (ir_attr_set_ints(A, &a, "pool_size", 2, SH(3, 1)),
       ir_attr_set_ints(A, &a, "strides", 2, SH(INT64_MAX - 1, 1)),
       ir_attr_set_ints(A, &a, "padding", 4, SH(1, 0, 0, 0)),
       ir_attr_set_bool(A, &a, "ceil_mode", true)),
      "too large");
  BAD(OP_MAX_POOL2D, ir_attr_set_ints(A, &a, "padding", 4, SH(0, 0, -1, 0)), "padding");
  BAD(OP_MAX_POOL2D, ir_attr_set_str(A, &a, "layout", "NHWC"), "NHWC");
  BAD(OP_MAX_POOL2D, ir_attr_set_bool(A, &a, "count_include_pad", true), "unknown attribute");
  BAD(OP_AVG_POOL2D, ir_attr_set_str(A, &a, "ceil_mode", "True"), "bool");
  BAD(OP_AVG_POOL2D,
      (ir_attr_set_ints(A, &a, "pool_size", 2, SH(2, 1)),
       ir_attr_set_ints(A, &a, "dilation", 2, SH(INT64_MAX, 1))),
      "too large");
#undef BAD
  Type *ti = ty(DT_INT32, 4, SH(1, 1, 3, 3)), *t3 = ty(DT_FLOAT32, 3, SH(1, 3, 3));
  REJECT(OP_AVG_POOL2D, &ti, 1, &no_attrs, "float");
  REJECT(OP_MAX_POOL2D, &t3, 1, &no_attrs, "rank 4");
  Type *tb = ty(DT_BOOL, 4, SH(1, 1, 3, 3));
  REJECT(OP_MAX_POOL2D, &tb, 1, &no_attrs, "numeric");

  /* global average pooling */
  Tensor *g = f32(4, SH(1, 2, 2, 2), seq);
  CHECK_T(run1(OP_GLOBAL_AVG_POOL2D, (Tensor *[]){g}, 1, &no_attrs), DT_FLOAT32, 4, SH(1, 2, 1, 1),
          VA(2.5, 6.5));
  Tensor *g0 = f32(4, SH(1, 1, 0, 2), NULL);
  CHECK_T(run1(OP_GLOBAL_AVG_POOL2D, (Tensor *[]){g0}, 1, &no_attrs), DT_FLOAT32, 4, SH(1, 1, 1, 1),
          VA(NAN));
  REJECT(OP_GLOBAL_AVG_POOL2D, &ti, 1, &no_attrs, "float");
  REJECT(OP_GLOBAL_AVG_POOL2D, &t3, 1, &no_attrs, "rank 4");
  Attrs nhwc = {0};
  ir_attr_set_str(A, &nhwc, "layout", "NHWC");
  REJECT(OP_GLOBAL_AVG_POOL2D, &td, 1, &nhwc, "NHWC");
}

/* ------------------------------------------------------ softmax & co. */

static void test_softmax(void) {
  Tensor *x = f32(1, SH(3), VA(1, 2, 3));
  CHECK_T(run1(OP_SOFTMAX, &x, 1, &no_attrs), DT_FLOAT32, 1, SH(3),
          VA(0.0900305732, 0.2447284711, 0.6652409558));
  CHECK_T(run1(OP_LOG_SOFTMAX, &x, 1, &no_attrs), DT_FLOAT32, 1, SH(3),
          VA(-2.4076059644, -1.4076059644, -0.4076059644));
  Tensor *m = mk(DT_FLOAT64, 2, SH(2, 2), VA(1, 2, 3, 5));
  Attrs ax = {0};
  ir_attr_set_int(A, &ax, "axis", -2); /* along columns */
  CHECK_T(run1(OP_SOFTMAX, &m, 1, &ax), DT_FLOAT64, 2, SH(2, 2),
          VA(0.1192029220, 0.0474258732, 0.8807970780, 0.9525741268));
  ir_attr_set_int(A, &ax, "axis", 0);
  CHECK_T(run1(OP_SOFTMAX, &m, 1, &ax), DT_FLOAT64, 2, SH(2, 2),
          VA(0.1192029220, 0.0474258732, 0.8807970780, 0.9525741268));
  ir_attr_set_int(A, &ax, "axis", 1);
  CHECK_T(run1(OP_SOFTMAX, &m, 1, &ax), DT_FLOAT64, 2, SH(2, 2),
          VA(0.2689414214, 0.7310585786, 0.1192029220, 0.8807970780));
  Tensor *big = f32(1, SH(2), VA(1000, 1000)), *inf = f32(1, SH(2), VA(-INFINITY, 0));
  CHECK_T(run1(OP_SOFTMAX, &big, 1, &no_attrs), DT_FLOAT32, 1, SH(2), VA(0.5, 0.5));
  CHECK_T(run1(OP_LOG_SOFTMAX, &big, 1, &no_attrs), DT_FLOAT32, 1, SH(2),
          VA(-0.6931471806, -0.6931471806));
  CHECK_T(run1(OP_SOFTMAX, &inf, 1, &no_attrs), DT_FLOAT32, 1, SH(2), VA(0, 1));
  Tensor *nan = f32(1, SH(2), VA(NAN, 0));
  CHECK_T(run1(OP_SOFTMAX, &nan, 1, &no_attrs), DT_FLOAT32, 1, SH(2), VA(NAN, NAN));

  Type *t2 = ty(DT_FLOAT32, 2, SH(2, 2)), *ti = ty(DT_INT32, 1, SH(2)),
       *t0 = ty(DT_FLOAT32, 0, NULL);
  ir_attr_set_int(A, &ax, "axis", 2);
  REJECT(OP_SOFTMAX, &t2, 1, &ax, "axis");
  ir_attr_set_int(A, &ax, "axis", -3);
  REJECT(OP_LOG_SOFTMAX, &t2, 1, &ax, "axis");
  REJECT(OP_SOFTMAX, &ti, 1, &no_attrs, "float");
  REJECT(OP_SOFTMAX, &t0, 1, &no_attrs, "axis");
}

static void test_bias_add(void) {
  Tensor *z = f32(2, SH(2, 3), VA(0, 0, 0, 0, 0, 0));
  Attrs a0 = {0};
  ir_attr_set_int(A, &a0, "axis", 0);
  Tensor *b2 = f32(1, SH(2), VA(1, 2)), *b3 = f32(1, SH(3), VA(1, 2, 3));
  CHECK_T(run1(OP_BIAS_ADD, (Tensor *[]){z, b2}, 2, &a0), DT_FLOAT32, 2, SH(2, 3),
          VA(1, 1, 1, 2, 2, 2));
  CHECK_T(run1(OP_BIAS_ADD, (Tensor *[]){z, b3}, 2, &no_attrs), DT_FLOAT32, 2, SH(2, 3),
          VA(1, 2, 3, 1, 2, 3));
  Attrs am1 = {0};
  ir_attr_set_int(A, &am1, "axis", -1);
  CHECK_T(run1(OP_BIAS_ADD, (Tensor *[]){z, b3}, 2, &am1), DT_FLOAT32, 2, SH(2, 3),
          VA(1, 2, 3, 1, 2, 3));
  Tensor *i8 = mk(DT_INT8, 1, SH(2), VA(127, -128)), *bi = mk(DT_INT8, 1, SH(2), VA(1, -1));
  CHECK_T(run1(OP_BIAS_ADD, (Tensor *[]){i8, bi}, 2, &a0), DT_INT8, 1, SH(2), VA(-128, 127));

  Type *td = ty(DT_FLOAT32, 2, SH(2, 3));
  REJECT(OP_BIAS_ADD, ((Type *[]){td, ty(DT_FLOAT32, 1, SH(2))}), 2, &no_attrs, "bias");
  REJECT(OP_BIAS_ADD, ((Type *[]){td, ty(DT_FLOAT64, 1, SH(3))}), 2, &no_attrs, "bias");
  REJECT(OP_BIAS_ADD, ((Type *[]){td, ty(DT_FLOAT32, 2, SH(1, 3))}), 2, &no_attrs, "bias");
  Attrs a2 = {0};
  ir_attr_set_int(A, &a2, "axis", 2);
  REJECT(OP_BIAS_ADD, ((Type *[]){td, ty(DT_FLOAT32, 1, SH(3))}), 2, &a2, "axis");
  REJECT(OP_BIAS_ADD, ((Type *[]){ty(DT_BOOL, 1, SH(3)), ty(DT_BOOL, 1, SH(3))}), 2, &a0,
         "numeric");
}

static void test_batch_norm(void) {
  Tensor *d = f32(4, SH(1, 2, 1, 2), VA(1, 3, 2, 6));
  Tensor *gamma = f32(1, SH(2), VA(2, 1)), *beta = f32(1, SH(2), VA(0, 1));
  Tensor *mean = f32(1, SH(2), VA(2, 4)), *var = f32(1, SH(2), VA(1, 4));
  Tensor *args[5] = {d, gamma, beta, mean, var}, *outs[4];
  Attrs e0 = {0};
  ir_attr_set_float(A, &e0, "epsilon", 0.0);
  CHECK(run(OP_BATCH_NORM, args, 5, &e0, outs) == 3);
  CHECK_T(outs[0], DT_FLOAT32, 4, SH(1, 2, 1, 2), VA(-2, 2, 0, 2));
  CHECK_T(outs[1], DT_FLOAT32, 1, SH(2), VA(2, 4));
  CHECK_T(outs[2], DT_FLOAT32, 1, SH(2), VA(1, 4));
  Attrs nc = ir_attrs_copy(A, &e0);
  ir_attr_set_bool(A, &nc, "center", false);
  CHECK(run(OP_BATCH_NORM, args, 5, &nc, outs) == 3);
  CHECK_T(outs[0], DT_FLOAT32, 4, SH(1, 2, 1, 2), VA(-2, 2, -1, 1));
  Attrs ns = ir_attrs_copy(A, &e0);
  ir_attr_set_bool(A, &ns, "scale", false);
  CHECK(run(OP_BATCH_NORM, args, 5, &ns, outs) == 3);
  CHECK_T(outs[0], DT_FLOAT32, 4, SH(1, 2, 1, 2), VA(-1, 1, 0, 2));
  /* epsilon is added to the variance: sqrt(3 + 1) = 2 */
  Tensor *d2 = f32(4, SH(1, 2, 1, 2), VA(2, 4, 6, 8));
  Tensor *g1 = f32(1, SH(2), VA(1, 1)), *b0 = f32(1, SH(2), VA(0, 0)),
         *v3 = f32(1, SH(2), VA(3, 3));
  Attrs e1 = {0};
  ir_attr_set_float(A, &e1, "epsilon", 1.0);
  CHECK(run(OP_BATCH_NORM, (Tensor *[]){d2, g1, b0, b0, v3}, 5, &e1, outs) == 3);
  CHECK_T(outs[0], DT_FLOAT32, 4, SH(1, 2, 1, 2), VA(1, 2, 3, 4));
  /* axis -1 on a matrix */
  Tensor *m = mk(DT_FLOAT64, 2, SH(2, 2), VA(1, 2, 3, 4));
  Tensor *mg = mk(DT_FLOAT64, 1, SH(2), VA(1, 1)), *mb = mk(DT_FLOAT64, 1, SH(2), VA(0, 0));
  Tensor *mm = mk(DT_FLOAT64, 1, SH(2), VA(1, 2)), *mv = mk(DT_FLOAT64, 1, SH(2), VA(1, 1));
  Attrs last = ir_attrs_copy(A, &e0);
  ir_attr_set_int(A, &last, "axis", -1);
  CHECK(run(OP_BATCH_NORM, (Tensor *[]){m, mg, mb, mm, mv}, 5, &last, outs) == 3);
  CHECK_T(outs[0], DT_FLOAT64, 2, SH(2, 2), VA(0, 0, 2, 2));

  Type *td = ty(DT_FLOAT32, 2, SH(2, 3)), *c3 = ty(DT_FLOAT32, 1, SH(3)),
       *c2 = ty(DT_FLOAT32, 1, SH(2));
  Type *ret;
  CHECK(rel_batch_norm(OP_BATCH_NORM, (Type *[]){td, c3, c3, c3, c3}, 5, &no_attrs, A, &ret, NULL,
                       0) == REL_OK &&
        ret->kind == TY_TUPLE && ret->tuple.n == 3 && ir_type_equal(ret->tuple.fields[0], td) &&
        ir_type_equal(ret->tuple.fields[1], c3) && ir_type_equal(ret->tuple.fields[2], c3));
  REJECT(OP_BATCH_NORM, ((Type *[]){td, c2, c3, c3, c3}), 5, &no_attrs, "gamma");
  REJECT(OP_BATCH_NORM, ((Type *[]){td, c3, c3, c3, c2}), 5, &no_attrs, "moving_var");
  Attrs m2 = {0};
  ir_attr_set_int(A, &m2, "axis", -2); /* Relay accepts -1 only among negatives */
  REJECT(OP_BATCH_NORM, ((Type *[]){td, c2, c2, c2, c2}), 5, &m2, "axis");
  Type *ti = ty(DT_INT32, 2, SH(2, 3)), *ci = ty(DT_INT32, 1, SH(3));
  REJECT(OP_BATCH_NORM, ((Type *[]){ti, ci, ci, ci, ci}), 5, &no_attrs, "float");
  Attrs be = {0};
  ir_attr_set_str(A, &be, "epsilon", "small");
  REJECT(OP_BATCH_NORM, ((Type *[]){td, c3, c3, c3, c3}), 5, &be, "epsilon");
}

static void test_layer_norm(void) {
  Tensor *x = f32(1, SH(4), VA(1, 2, 3, 4));
  Tensor *g = f32(1, SH(4), VA(1, 1, 1, 1)), *b = f32(1, SH(4), VA(0, 0, 0, 0));
  Attrs e0 = {0};
  ir_attr_set_float(A, &e0, "epsilon", 0.0);
  CHECK_T(run1(OP_LAYER_NORM, (Tensor *[]){x, g, b}, 3, &e0), DT_FLOAT32, 1, SH(4),
          VA(-1.3416407865, -0.4472135955, 0.4472135955, 1.3416407865));
  /* axis 0 of [[1, 3], [2, 6]]: columns normalised to (-1, 1), then
   * gamma (2, 1) and beta (1, 0) indexed along the axis */
  Tensor *m = f32(2, SH(2, 2), VA(1, 3, 2, 6));
  Tensor *g2 = f32(1, SH(2), VA(2, 1)), *b2 = f32(1, SH(2), VA(1, 0));
  Attrs a0 = ir_attrs_copy(A, &e0);
  ir_attr_set_int(A, &a0, "axis", 0);
  CHECK_T(run1(OP_LAYER_NORM, (Tensor *[]){m, g2, b2}, 3, &a0), DT_FLOAT32, 2, SH(2, 2),
          VA(-1, -1, 1, 1));
  ir_attr_set_bool(A, &a0, "center", false);
  ir_attr_set_bool(A, &a0, "scale", false);
  CHECK_T(run1(OP_LAYER_NORM, (Tensor *[]){m, g2, b2}, 3, &a0), DT_FLOAT32, 2, SH(2, 2),
          VA(-1, -1, 1, 1));

  Type *td = ty(DT_FLOAT32, 2, SH(2, 3)), *c3 = ty(DT_FLOAT32, 1, SH(3)),
       *c2 = ty(DT_FLOAT32, 1, SH(2));
  REJECT(OP_LAYER_NORM, ((Type *[]){td, c2, c3}), 3, &no_attrs, "gamma");
  REJECT(OP_LAYER_NORM, ((Type *[]){td, c3, c2}), 3, &no_attrs, "beta");
  Attrs a3 = {0};
  ir_attr_set_int(A, &a3, "axis", -3);
  REJECT(OP_LAYER_NORM, ((Type *[]){td, c3, c3}), 3, &a3, "axis");
  Type *ti = ty(DT_INT8, 1, SH(3)), *ci = ty(DT_INT8, 1, SH(3));
  REJECT(OP_LAYER_NORM, ((Type *[]){ti, ci, ci}), 3, &no_attrs, "float");
}

/* ---------------------------------------------------------------- pad */

static void test_pad(void) {
  Tensor *m = f32(2, SH(2, 2), VA(1, 2, 3, 4)), *nine = f32(0, NULL, VA(9));
  Attrs a = {0};
  ir_attr_set_pairs(A, &a, "pad_width", 2, SH(1, 0, 0, 1));
  CHECK_T(run1(OP_PAD, (Tensor *[]){m, nine}, 2, &a), DT_FLOAT32, 2, SH(3, 3),
          VA(9, 9, 9, 1, 2, 9, 3, 4, 9));
  Tensor *v = f32(1, SH(3), VA(1, 2, 3)), *zero = f32(0, NULL, VA(0));
  Attrs e = {0};
  ir_attr_set_pairs(A, &e, "pad_width", 1, SH(2, 1));
  ir_attr_set_str(A, &e, "pad_mode", "edge");
  CHECK_T(run1(OP_PAD, (Tensor *[]){v, zero}, 2, &e), DT_FLOAT32, 1, SH(6), VA(1, 1, 1, 2, 3, 3));
  Attrs r = {0};
  ir_attr_set_pairs(A, &r, "pad_width", 1, SH(2, 2));
  ir_attr_set_str(A, &r, "pad_mode", "reflect");
  CHECK_T(run1(OP_PAD, (Tensor *[]){v, zero}, 2, &r), DT_FLOAT32, 1, SH(7),
          VA(3, 2, 1, 2, 3, 2, 1));
  /* negative widths crop */
  Tensor *v4 = f32(1, SH(4), VA(1, 2, 3, 4));
  Attrs n = {0};
  ir_attr_set_pairs(A, &n, "pad_width", 1, SH(-1, 1));
  CHECK_T(run1(OP_PAD, (Tensor *[]){v4, zero}, 2, &n), DT_FLOAT32, 1, SH(4), VA(2, 3, 4, 0));
  ir_attr_set_str(A, &n, "pad_mode", "reflect");
  CHECK_T(run1(OP_PAD, (Tensor *[]){v4, zero}, 2, &n), DT_FLOAT32, 1, SH(4), VA(2, 3, 4, 3));
  /* the pad value is converted to the data's dtype */
  Tensor *iv = mk(DT_INT32, 1, SH(1), VA(5));
  Attrs one = {0};
  ir_attr_set_pairs(A, &one, "pad_width", 1, SH(1, 1));
  CHECK_T(run1(OP_PAD, (Tensor *[]){iv, f32(0, NULL, VA(2.7))}, 2, &one), DT_INT32, 1, SH(3),
          VA(2, 5, 2));
  CHECK_T(run1(OP_PAD, (Tensor *[]){iv, mk(DT_FLOAT64, 0, NULL, VA(-1e20))}, 2, &one), DT_INT32, 1,
          SH(3), VA(INT32_MIN, 5, INT32_MIN));
  CHECK_T(run1(OP_PAD, (Tensor *[]){iv, f32(0, NULL, VA(NAN))}, 2, &one), DT_INT32, 1, SH(3),
          VA(0, 5, 0));
  Tensor *bv = mk(DT_BOOL, 1, SH(1), VA(0));
  CHECK_T(run1(OP_PAD, (Tensor *[]){bv, mk(DT_INT8, 0, NULL, VA(2))}, 2, &one), DT_BOOL, 1, SH(3),
          VA(1, 0, 1));
  /* a scalar, and no pad_width at all */
  Tensor *s = f32(0, NULL, VA(7));
  CHECK_T(run1(OP_PAD, (Tensor *[]){s, zero}, 2, &no_attrs), DT_FLOAT32, 0, NULL, VA(7));
  CHECK_T(run1(OP_PAD, (Tensor *[]){m, zero}, 2, &no_attrs), DT_FLOAT32, 2, SH(2, 2),
          VA(1, 2, 3, 4));

  Type *t3 = ty(DT_FLOAT32, 1, SH(3)), *t0 = ty(DT_FLOAT32, 1, SH(0)),
       *sc = ty(DT_FLOAT32, 0, NULL);
  Attrs b;
#define BAD(t, setup, needle)                                                                      \
  do {                                                                                             \
    b = (Attrs){0};                                                                                \
    setup;                                                                                         \
    REJECT(OP_PAD, ((Type *[]){t, sc}), 2, &b, needle);                                            \
  } while (0)
  BAD(t3, ir_attr_set_pairs(A, &b, "pad_width", 1, SH(-4, 0)), "leaves -1");
  BAD(t3, ir_attr_set_pairs(A, &b, "pad_width", 2, SH(0, 0, 0, 0)), "pairs");
  BAD(t3, ir_attr_set_ints(A, &b, "pad_width", 2, SH(0, 0)), "pairs");
  BAD(t3, ir_attr_set_pairs(A, &b, "pad_width", 1, SH(INT64_MAX, 1)), "too large");
  BAD(t3, ir_attr_set_pairs(A, &b, "pad_width", 1, SH(INT64_MIN, INT64_MAX)), "too large");
  BAD(t3,
      (ir_attr_set_pairs(A, &b, "pad_width", 1, SH(3, 0)),
       ir_attr_set_str(A, &b, "pad_mode", "reflect")),
      "reflect");
  BAD(t3,
      (ir_attr_set_pairs(A, &b, "pad_width", 1, SH(0, 3)),
       ir_attr_set_str(A, &b, "pad_mode", "reflect")),
      "reflect");
  BAD(t0,
      (ir_attr_set_pairs(A, &b, "pad_width", 1, SH(1, 0)),
       ir_attr_set_str(A, &b, "pad_mode", "edge")),
      "edge");
  BAD(t3, ir_attr_set_str(A, &b, "pad_mode", "wrap"), "pad_mode");
#undef BAD
  REJECT(OP_PAD, ((Type *[]){t3, t3}), 2, &no_attrs, "scalar");
  /* edge of an empty dim that stays empty is fine */
  Attrs ee = {0};
  ir_attr_set_str(A, &ee, "pad_mode", "edge");
  Type *ret;
  CHECK(rel_pad(OP_PAD, (Type *[]){t0, sc}, 2, &ee, A, &ret, NULL, 0) == REL_OK);
}

/* --------------------------------------------- relation plumbing checks */

static void test_relation_plumbing(void) {
  Type *inc = ir_incomplete_type(A, 1), *t = ty(DT_FLOAT32, 2, SH(2, 2));
  Type *tup = ir_tuple_type(A, 1, &t), *ret;
  char err[256];
  for (int i = 0; i < NN_COUNT; i++) {
    OpId op = nn_ops[i].id;
    Type *args[OP_MAX_ARGS] = {inc, inc, inc, inc, inc};
    int n = op == OP_BATCH_NORM   ? 5
            : op == OP_LAYER_NORM ? 3
            : (op == OP_DENSE || op == OP_BATCH_MATMUL || op == OP_CONV2D || op == OP_BIAS_ADD ||
               op == OP_PAD)
                ? 2
                : 1;
    CHECK_MSG(nn_ops[i].rel(op, args, n, &no_attrs, A, &ret, err, sizeof err) == REL_DEFER,
              "%s should defer", ir_op_name(op));
    for (int j = 0; j < n; j++)
      args[j] = t;
    args[0] = tup;
    err[0] = 0;
    CHECK_MSG(nn_ops[i].rel(op, args, n, &no_attrs, A, &ret, err, sizeof err) == REL_ERROR &&
                  err[0],
              "%s should reject a tuple", ir_op_name(op));
    err[0] = 0;
    CHECK_MSG(nn_ops[i].rel(op, args, n + 1, &no_attrs, A, &ret, err, sizeof err) == REL_ERROR &&
                  strstr(err, "argument"),
              "%s should reject an extra argument", ir_op_name(op));
  }
}

/* --------------------------------------------------- the property loop */

/* xorshift64* behind the Chooser interface. */
typedef struct Rng {
  Chooser base;
  uint64_t s;
} Rng;

static uint64_t rng_next(Rng *r) {
  r->s ^= r->s >> 12;
  r->s ^= r->s << 25;
  r->s ^= r->s >> 27;
  return r->s * 0x2545F4914F6CDD1Dull;
}

static uint32_t rng_below(Chooser *c, uint32_t n) {
  return (uint32_t)(rng_next((Rng *)c) % n);
}

static uint32_t zero_below(Chooser *c, uint32_t n) {
  return 0;
}

/* A small number, mostly tiny. */
static int64_t rnd_dim(Rng *r) {
  uint64_t k = rng_next(r) % 16;
  return k < 12 ? (int64_t)(k % 5) : (int64_t)(rng_next(r) % 12);
}

/* The smallest result rank an operator can have. */
static int min_rank(OpId op) {
  switch (op) {
  case OP_CONV2D:
  case OP_MAX_POOL2D:
  case OP_AVG_POOL2D:
  case OP_GLOBAL_AVG_POOL2D: return 4;
  case OP_BATCH_MATMUL: return 3;
  case OP_PAD: return 0;
  default: return 1;
  }
}

/* A random (often ill-suited) want type; for batch_norm often a tuple. */
static Type *rnd_want(Rng *r, OpId op) {
  int64_t shape[IR_MAX_RANK];
  int rank = (int)(rng_next(r) % 6);
  for (int i = 0; i < IR_MAX_RANK; i++)
    shape[i] = rnd_dim(r);
  DType dt = (DType)(rng_next(r) % DT_COUNT);
  if (rng_next(r) % 3 == 0) { /* steer towards the operator's usual shapes */
    rank = min_rank(op) >= 3 ? min_rank(op) : rank;
    if (op == OP_GLOBAL_AVG_POOL2D)
      shape[2] = shape[3] = 1;
    dt = rng_next(r) % 2 ? DT_FLOAT32 : dt;
  }
  Type *t = ty(dt, rank, shape);
  if (op == OP_BATCH_NORM && rank > 0 && rng_next(r) % 4) {
    int64_t c = shape[rng_next(r) % (uint64_t)rank];
    if (rng_next(r) % 8 == 0)
      c = rnd_dim(r);
    Type *v = ty(rng_next(r) % 8 ? dt : (DType)(rng_next(r) % DT_COUNT), 1, &c);
    Type *f[3] = {t, v, rng_next(r) % 8 ? v : ty(dt, 1, SH(c + 1))};
    return ir_tuple_type(A, 3, f);
  }
  return t;
}

/* True when every argument and the result respect the limits, flops
 * included. */
static bool sig_fits(OpId op, const OpSig *sig, const OpLimits *lim) {
  for (int i = 0; i <= sig->nargs; i++) {
    const Type *t = i < sig->nargs ? sig->args[i] : sig->ret;
    int n = t->kind == TY_TUPLE ? t->tuple.n : 1;
    for (int j = 0; j < n; j++) {
      const Type *f = t->kind == TY_TUPLE ? t->tuple.fields[j] : t;
      if (f->kind != TY_TENSOR || f->tensor.rank > lim->max_rank ||
          ir_type_numel(f) > lim->max_numel)
        return false;
      for (int k = 0; k < f->tensor.rank; k++)
        if (f->tensor.shape[k] > lim->max_dim)
          return false;
    }
  }
  int64_t flops = 0, out = sig->ret->kind == TY_TENSOR ? ir_type_numel(sig->ret) : 0;
  const Type *a0 = sig->args[0], *a1 = sig->nargs > 1 ? sig->args[1] : NULL;
  if (op == OP_DENSE)
    flops = out * a1->tensor.shape[1];
  else if (op == OP_BATCH_MATMUL)
    flops = out * a0->tensor.shape[ir_attr_bool(&sig->attrs, "transpose_a", false) ? 1 : 2];
  else if (op == OP_CONV2D) { /* out * I * KH * KW, in any kernel layout */
    const char *kl = ir_attr_str(&sig->attrs, "kernel_layout", "OIHW");
    int64_t o = a1->tensor.shape[strchr(kl, 'O') - kl];
    flops = o ? out * (ir_type_numel(a1) / o) : 0;
  }
  return flops <= lim->max_flops;
}

/* Fills a tensor with values that include NaN, infinities, extremes. */
static void rnd_fill(Rng *r, Tensor *t) {
  static const double specials[] = {0.0,   -0.0,   1.0,    -1.0, NAN,  INFINITY,     -INFINITY,
                                    1e300, -1e300, 3.5e38, 127,  -128, 2147483647.0, -2147483648.0};
  for (int64_t i = 0; i < t->numel; i++) {
    uint64_t k = rng_next(r);
    if (!ir_dtype_is_float(t->dtype) && k % 3 == 0)
      ir_tensor_set_i64(t, i, (int64_t)rng_next(r)); /* wraps to the dtype */
    else if (k % 5 == 0)
      ir_tensor_set_f64(t, i, specials[(k >> 8) % (sizeof specials / sizeof specials[0])]);
    else
      ir_tensor_set_f64(t, i, (double)(int64_t)(k >> 40) / 1024.0 - 8192.0);
  }
}

/* Runs the kernel on random data for a solution; checks output types. */
static void run_kernel(Rng *r, OpId op, const OpSig *sig) {
  Tensor *args[OP_MAX_ARGS], *outs[4];
  for (int i = 0; i < sig->nargs; i++) {
    args[i] = ir_tensor_of_type(A, sig->args[i]);
    rnd_fill(r, args[i]);
  }
  int n = run(op, args, sig->nargs, &sig->attrs, outs);
  CHECK_MSG(n >= 1, "%s: relation rejected its own solution: %s", ir_op_name(op), last_err);
  for (int i = 0; i < n; i++) {
    const Type *want = sig->ret->kind == TY_TUPLE ? sig->ret->tuple.fields[i] : sig->ret;
    Type *got = ir_tensor_type_of(A, outs[i]);
    if (!ir_type_equal(got, want))
      CHECK_MSG(false, "%s: kernel output %d has the wrong type", ir_op_name(op), i);
  }
}

static int prop_failures;

/* Records a property failure (printing only the first few). */
static void prop_fail(OpId op, const char *what, const Type *t) {
  test_failed++;
  if (prop_failures++ < 10) {
    fprintf(stderr, "%s: %s", ir_op_name(op), what);
    const Type *f = t && t->kind == TY_TUPLE ? t->tuple.fields[0] : t;
    for (int i = 0; f && f->kind == TY_TENSOR && i < f->tensor.rank; i++)
      fprintf(stderr, "%s%lld", i ? "x" : " ", (long long)f->tensor.shape[i]);
    fprintf(stderr, "%s %s\n", t && t->kind == TY_TUPLE ? " (tuple)" : "",
            f && f->kind == TY_TENSOR ? ir_dtype_name(f->tensor.dtype) : "");
  }
}

/* rec(T) => solve(T) gives args and attrs whose relation is exactly T
 * within the limits; sample() gives a recognised, related result. */
static void check_op(const NnOp *o, const OpLimits *lim, Rng *r, int draws, int *recognised) {
  for (int i = 0; i < draws; i++) {
    Arena *saved = A;
    A = arena_new();
    OpSolveCtx cx = {&r->base, A, lim};
    OpSig sig;
    Type *ret;
    char err[256];
    Type *want = rnd_want(r, o->id);
    if (o->rec(o->id, want, lim)) {
      ++*recognised;
      if (!o->solve(o->id, want, &cx, &sig))
        prop_fail(o->id, "solver failed for recognised", want);
      else if (o->rel(o->id, sig.args, sig.nargs, &sig.attrs, A, &ret, err, sizeof err) != REL_OK ||
               !ir_type_equal(ret, want) || !ir_type_equal(sig.ret, want))
        prop_fail(o->id, "solution does not relate to", want);
      else if (!sig_fits(o->id, &sig, lim))
        prop_fail(o->id, "solution exceeds the limits for", want);
      else
        test_passed++;
    }
    if (!o->sample(o->id, &cx, &sig)) {
      if (lim->max_rank >= min_rank(o->id)) /* else no result type exists */
        prop_fail(o->id, "sampler failed", NULL);
    } else if (o->rel(o->id, sig.args, sig.nargs, &sig.attrs, A, &ret, err, sizeof err) != REL_OK ||
               !ir_type_equal(ret, sig.ret)) {
      prop_fail(o->id, "sample does not relate:", sig.ret);
    } else if (!o->rec(o->id, sig.ret, lim)) {
      prop_fail(o->id, "sample not recognised:", sig.ret);
    } else if (!sig_fits(o->id, &sig, lim)) {
      prop_fail(o->id, "sample exceeds the limits:", sig.ret);
    } else {
      test_passed++;
      if (i % 2 == 0)
        run_kernel(r, o->id, &sig);
    }
    arena_free(A);
    A = saved;
  }
}

static void test_properties(void) {
  static const OpLimits limits[] = {
      {.max_rank = 4, .max_dim = 8, .max_numel = 256, .max_flops = 16384, .dtypes = 0x3f},
      {.max_rank = 4, .max_dim = 3, .max_numel = 20, .max_flops = 60, .dtypes = 0x30},
      {.max_rank = 6, .max_dim = 16, .max_numel = 1024, .max_flops = 100000, .dtypes = 0x0e},
      {.max_rank = 2, .max_dim = 5, .max_numel = 5, .max_flops = 5, .dtypes = 0x3f},
  };
  static const int draws[] = {4000, 3000, 2000, 1000}; /* 10,000 per operator */
  Rng r = {{rng_below}, 0x9e3779b97f4a7c15ull};
  for (int i = 0; i < NN_COUNT; i++) {
    int recognised = 0;
    for (size_t l = 0; l < sizeof limits / sizeof limits[0]; l++)
      check_op(&nn_ops[i], &limits[l], &r, draws[l], &recognised);
    printf("  %-22s %5d of 10000 drawn types recognised\n", ir_op_name(nn_ops[i].id), recognised);
    CHECK_MSG(recognised >= 100, "%s recognised only %d", ir_op_name(nn_ops[i].id), recognised);
  }
}

/* The all-zero choice stream gives the simplest solutions. */
static void test_choice_zero(void) {
  static const OpLimits lim = {4, 8, 256, 16384, 0x3f};
  Chooser zero = {zero_below};
  OpSolveCtx cx = {&zero, A, &lim};
  OpSig sig;
  Type *want = ty(DT_FLOAT32, 4, SH(1, 3, 4, 5));
  CHECK(solve_conv2d(OP_CONV2D, want, &cx, &sig));
  CHECK(ir_type_equal(sig.args[0], ty(DT_FLOAT32, 4, SH(1, 1, 4, 5))));
  CHECK(ir_type_equal(sig.args[1], ty(DT_FLOAT32, 4, SH(3, 1, 1, 1))));
  CHECK(ir_attr_int(&sig.attrs, "groups", 0) == 1);
  const Attr *p = ir_attr_get(&sig.attrs, "padding");
  CHECK(p && p->kind == AV_INTS && p->n == 1 && p->ints[0] == 0);
  CHECK(ir_attr_get(&sig.attrs, "channels")->kind == AV_NONE);
  CHECK_STR(ir_attr_str(&sig.attrs, "out_dtype", "?"), "");
  CHECK(solve_pool2d(OP_AVG_POOL2D, want, &cx, &sig));
  CHECK(ir_type_equal(sig.args[0], want));
  CHECK(!ir_attr_bool(&sig.attrs, "ceil_mode", true));
  CHECK(solve_dense(OP_DENSE, ty(DT_INT32, 2, SH(2, 3)), &cx, &sig));
  CHECK(ir_type_equal(sig.args[0], ty(DT_INT32, 2, SH(2, 1))));
  CHECK(solve_softmax(OP_SOFTMAX, ty(DT_FLOAT32, 2, SH(2, 3)), &cx, &sig));
  CHECK(ir_attr_int(&sig.attrs, "axis", 0) == -1);
  CHECK(solve_bias_add(OP_BIAS_ADD, ty(DT_FLOAT32, 2, SH(2, 3)), &cx, &sig));
  CHECK(ir_attr_int(&sig.attrs, "axis", 0) == 1);
  CHECK(solve_pad(OP_PAD, ty(DT_INT8, 2, SH(2, 3)), &cx, &sig));
  CHECK(ir_type_equal(sig.args[0], ty(DT_INT8, 2, SH(2, 3))));
  CHECK_STR(ir_attr_str(&sig.attrs, "pad_mode", "?"), "constant");
  /* outside the limits nothing is recognised */
  CHECK(!rec_conv2d(OP_CONV2D, ty(DT_FLOAT32, 4, SH(1, 1, 9, 1)), &lim));
  CHECK(!rec_conv2d(OP_CONV2D, ty(DT_FLOAT32, 4, SH(1, 1, 0, 1)), &lim));
  CHECK(!rec_conv2d(OP_CONV2D, ty(DT_BOOL, 4, SH(1, 1, 1, 1)), &lim));
  CHECK(!rec_dense(OP_DENSE, ty(DT_FLOAT32, 0, NULL), &lim));
  CHECK(!rec_softmax(OP_SOFTMAX, ty(DT_INT32, 1, SH(3)), &lim));
  CHECK(!rec_global_pool2d(OP_GLOBAL_AVG_POOL2D, ty(DT_FLOAT32, 4, SH(1, 1, 2, 1)), &lim));
  static const OpLimits tiny = {4, 8, 256, 10, 0x3f};
  CHECK(!rec_dense(OP_DENSE, ty(DT_FLOAT32, 2, SH(3, 4)), &tiny)); /* 12 multiply-adds > 10 */
  CHECK(rec_dense(OP_DENSE, ty(DT_FLOAT32, 2, SH(2, 5)), &tiny));
  CHECK(!rec_conv2d(OP_CONV2D, ty(DT_FLOAT32, 4, SH(1, 1, 3, 4)), &tiny));
  CHECK(rec_conv2d(OP_CONV2D, ty(DT_FLOAT32, 4, SH(1, 1, 2, 5)), &tiny));
  static const OpLimits flat = {3, 8, 256, 16384, 0x3f};
  CHECK(!rec_pool2d(OP_MAX_POOL2D, ty(DT_FLOAT32, 4, SH(1, 1, 1, 1)), &flat));
}

int main(void) {
  void (*tests[])(void) = {test_dense,   test_batch_matmul,      test_conv2d,      test_pools,
                           test_softmax, test_bias_add,          test_batch_norm,  test_layer_norm,
                           test_pad,     test_relation_plumbing, test_choice_zero, test_properties};
  for (size_t i = 0; i < sizeof tests / sizeof tests[0]; i++) {
    A = arena_new();
    tests[i]();
    arena_free(A);
  }
  return test_summary();
}
