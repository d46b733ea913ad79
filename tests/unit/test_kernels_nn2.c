/*
 * The nn2 family (compiler/ops/nn2.c): leaky_relu, prelu, dropout,
 * l2_normalize, lrn, instance_norm, group_norm, global_max_pool2d and the
 * adaptive pools, and nn.matmul, run through op_eval (relation, then kernel) on small
 * hand-computed cases with TVM's values, edge cases included, and the
 * relations' rejections.  The five functions' agreement is
 * tests/unit/test_ops_props.c's.
 */
#include "kernel_cases.h"

static void test_leaky_prelu(void) {
  Tensor *x = mk(DT_FLOAT32, 1, SH(6), VA(-2, -0.0, 0, 3, NAN, -INFINITY));
  /* TVM's attribute default is 0.25 (relay.nn.leaky_relu's 0.01 is Python's) */
  CHECK_T(RUN(OP_LEAKY_RELU, &none, x), DT_FLOAT32, 1, SH(6), VA(-0.5, -0.0, 0, 3, NAN, -INFINITY));
  Attrs *at = attrs();
  ir_attr_set_float(A, at, "alpha", 0.1);
  Tensor *one = mk(DT_FLOAT32, 1, SH(1), VA(-1));
  CHECK_T(RUN(OP_LEAKY_RELU, at, one), DT_FLOAT32, 1, SH(1), VA(-(double)0.1f));
  Tensor *d = mk(DT_FLOAT64, 1, SH(1), VA(-1));
  CHECK_T(RUN(OP_LEAKY_RELU, at, d), DT_FLOAT64, 1, SH(1), VA(-0.1));
  ir_attr_set_float(A, at, "alpha", -1);
  REJECT(OP_LEAKY_RELU, at, ">= 0", x);
  REJECT(OP_LEAKY_RELU, &none, "dtype", mk(DT_INT32, 1, SH(1), VA(1)));

  Tensor *p = mk(DT_FLOAT32, 2, SH(2, 3), VA(-1, 2, -3, 4, -5, 6));
  Tensor *alpha = mk(DT_FLOAT32, 1, SH(3), VA(0.5, 2, -1));
  CHECK_T(RUN(OP_PRELU, &none, p, alpha), DT_FLOAT32, 2, SH(2, 3), VA(-0.5, 2, 3, 4, -10, 6));
  Attrs *a0 = attrs();
  ir_attr_set_int(A, a0, "axis", 0);
  Tensor *a2 = mk(DT_FLOAT32, 1, SH(2), VA(0, 1));
  CHECK_T(RUN(OP_PRELU, a0, p, a2), DT_FLOAT32, 2, SH(2, 3), VA(-0.0, 2, -0.0, 4, -5, 6));
  REJECT(OP_PRELU, &none, "alpha", p, a2);
  ir_attr_set_int(A, a0, "axis", -1); /* TVM's relation indexes shape[axis] as is */
  REJECT(OP_PRELU, a0, "axis", p, alpha);
}

static void test_dropout(void) {
  Tensor *x = mk(DT_INT32, 1, SH(2), VA(7, -3));
  Tensor *outs[4];
  int n = op_eval(OP_DROPOUT, &x, 1, &none, A, outs, 4, last_err, sizeof last_err);
  CHECK(n == 2);
  if (n == 2) {
    CHECK_T(outs[0], DT_INT32, 1, SH(2), VA(7, -3));
    CHECK_T(outs[1], DT_INT32, 1, SH(2), VA(1, 1));
  }
  Attrs *at = attrs();
  ir_attr_set_float(A, at, "rate", 0.9);
  Tensor *f = mk(DT_FLOAT32, 0, NULL, VA(NAN));
  CHECK_T(run_k(OP_DROPOUT, &f, 1, at, 0), DT_FLOAT32, 0, NULL, VA(NAN));
  CHECK_T(run_k(OP_DROPOUT, &f, 1, at, 1), DT_FLOAT32, 0, NULL, VA(1));
}

static void test_l2_normalize(void) {
  Attrs *at = attrs();
  Tensor *v = mk(DT_FLOAT32, 1, SH(2), VA(3, 4));
  REJECT(OP_L2_NORMALIZE, at, "eps", v);
  ir_attr_set_float(A, at, "eps", 0);
  CHECK_T(RUN(OP_L2_NORMALIZE, at, v), DT_FLOAT32, 1, SH(2), VA(0.6, 0.8));
  Tensor *m = mk(DT_FLOAT32, 2, SH(2, 2), VA(3, 4, 0, 0));
  ir_attr_set_ints(A, at, "axis", 1, SH(1));
  /* a zero row with eps 0: 0 / sqrt(0) is NaN */
  CHECK_T(RUN(OP_L2_NORMALIZE, at, m), DT_FLOAT32, 2, SH(2, 2), VA(0.6, 0.8, NAN, NAN));
  ir_attr_set_float(A, at, "eps", 1e-12);
  CHECK_T(RUN(OP_L2_NORMALIZE, at, m), DT_FLOAT32, 2, SH(2, 2), VA(0.6, 0.8, 0, 0));
  ir_attr_set_ints(A, at, "axis", 1, SH(-2));
  CHECK_T(RUN(OP_L2_NORMALIZE, at, m), DT_FLOAT32, 2, SH(2, 2), VA(1, 1, 0, 0));
  /* eps above the sum of squares: x / sqrt(eps) */
  ir_attr_set_float(A, at, "eps", 100);
  ir_attr_set_none(A, at, "axis");
  CHECK_T(RUN(OP_L2_NORMALIZE, at, m), DT_FLOAT32, 2, SH(2, 2), VA(0.3, 0.4, 0, 0));
  ir_attr_set_ints(A, at, "axis", 2, SH(0, -2));
  REJECT(OP_L2_NORMALIZE, at, "twice", m);
}

static void test_lrn(void) {
  Attrs *at = attrs();
  ir_attr_set_int(A, at, "size", 3);
  ir_attr_set_float(A, at, "alpha", 1);
  ir_attr_set_float(A, at, "beta", 1);
  ir_attr_set_float(A, at, "bias", 1);
  Tensor *x = mk(DT_FLOAT64, 4, SH(1, 3, 1, 1), VA(1, 2, 3));
  /* c0: 1 / (1 + (1 + 4) / 3); c1: 2 / (1 + 14 / 3); c2: 3 / (1 + 13 / 3) */
  CHECK_T(RUN(OP_LRN, at, x), DT_FLOAT64, 4, SH(1, 3, 1, 1), VA(0.375, 6.0 / 17, 0.5625));
  ir_attr_set_int(A, at, "axis", 3);
  Tensor *y = mk(DT_FLOAT64, 4, SH(1, 1, 1, 3), VA(1, 2, 3));
  CHECK_T(RUN(OP_LRN, at, y), DT_FLOAT64, 4, SH(1, 1, 1, 3), VA(0.375, 6.0 / 17, 0.5625));
  /* the defaults: size 5, alpha 1e-4, beta 0.75, bias 2 */
  double d = 1 / pow(2 + (double)(float)1e-4 * 14 / 5, (double)(float)0.75);
  CHECK_T(RUN(OP_LRN, &none, x), DT_FLOAT64, 4, SH(1, 3, 1, 1), VA(d, 2 * d, 3 * d));
  ir_attr_set_int(A, at, "axis", 2);
  REJECT(OP_LRN, at, "axis", x);
  ir_attr_set_int(A, at, "axis", 1);
  ir_attr_set_int(A, at, "size", 4);
  REJECT(OP_LRN, at, "odd", x);
  REJECT(OP_LRN, &none, "rank 4", mk(DT_FLOAT32, 1, SH(3), VA(1, 2, 3)));
}

static void test_norms(void) {
  Attrs *at = attrs();
  ir_attr_set_float(A, at, "epsilon", 0);
  Tensor *x = mk(DT_FLOAT32, 3, SH(1, 2, 2), VA(1, 3, 2, 2));
  Tensor *g = mk(DT_FLOAT32, 1, SH(2), VA(1, 1)), *b = mk(DT_FLOAT32, 1, SH(2), VA(0, 0));
  /* channel 1 is constant: 0 / sqrt(0 + 0) is NaN */
  CHECK_T(RUN(OP_INSTANCE_NORM, at, x, g, b), DT_FLOAT32, 3, SH(1, 2, 2), VA(-1, 1, NAN, NAN));
  REJECT(OP_INSTANCE_NORM, at, "rank >= 3", mk(DT_FLOAT32, 2, SH(1, 2), VA(1, 2)), g, b);
  /* axis 2: the groups are (n, w), normalised over c */
  ir_attr_set_int(A, at, "axis", 2);
  Tensor *x2 = mk(DT_FLOAT32, 3, SH(1, 2, 2), VA(1, 5, 3, 5));
  CHECK_T(RUN(OP_INSTANCE_NORM, at, x2, g, b), DT_FLOAT32, 3, SH(1, 2, 2), VA(-1, NAN, 1, NAN));

  Attrs *gn = attrs();
  ir_attr_set_float(A, gn, "epsilon", 0);
  ir_attr_set_int(A, gn, "num_groups", 2);
  Tensor *y = mk(DT_FLOAT64, 3, SH(1, 4, 1), VA(1, 3, 5, 7));
  Tensor *g4 = mk(DT_FLOAT64, 1, SH(4), VA(1, 2, 3, 4)),
         *b4 = mk(DT_FLOAT64, 1, SH(4), VA(0, 0, 0, 1));
  CHECK_T(RUN(OP_GROUP_NORM, gn, y, g4, b4), DT_FLOAT64, 3, SH(1, 4, 1), VA(-1, 2, -3, 5));
  ir_attr_set_bool(A, gn, "scale", false);
  ir_attr_set_bool(A, gn, "center", false);
  ir_attr_set_int(A, gn, "num_groups", 1);
  double s = sqrt(5);
  CHECK_T(RUN(OP_GROUP_NORM, gn, y, g4, b4), DT_FLOAT64, 3, SH(1, 4, 1),
          VA(-3 / s, -1 / s, 1 / s, 3 / s));
  ir_attr_set_int(A, gn, "num_groups", 3);
  REJECT(OP_GROUP_NORM, gn, "divide", y, g4, b4);
  REJECT(OP_GROUP_NORM, &none, "positive", y, g4, b4); /* TVM's default 0 */
  /* eps is converted to float32 before it meets float64 data */
  Attrs *e = attrs();
  ir_attr_set_float(A, e, "epsilon", 0.1);
  ir_attr_set_int(A, e, "num_groups", 1);
  ir_attr_set_bool(A, e, "scale", false);
  ir_attr_set_bool(A, e, "center", false);
  Tensor *z = mk(DT_FLOAT64, 2, SH(1, 2), VA(0, 2));
  double want = 1 / sqrt(1 + (double)0.1f);
  CHECK_T(RUN(OP_GROUP_NORM, e, z, mk(DT_FLOAT64, 1, SH(2), VA(1, 1)),
              mk(DT_FLOAT64, 1, SH(2), VA(0, 0))),
          DT_FLOAT64, 2, SH(1, 2), VA(-want, want));
}

static void test_pools(void) {
  Tensor *x = mk(DT_FLOAT32, 4, SH(1, 2, 2, 2), VA(1, 5, 3, 2, NAN, 1, 2, 3));
  CHECK_T(RUN(OP_GLOBAL_MAX_POOL2D, &none, x), DT_FLOAT32, 4, SH(1, 2, 1, 1), VA(5, NAN));
  Tensor *e = mk(DT_INT8, 4, SH(1, 1, 0, 2), NULL);
  CHECK_T(RUN(OP_GLOBAL_MAX_POOL2D, &none, e), DT_INT8, 4, SH(1, 1, 1, 1), VA(-128));
  REJECT(OP_GLOBAL_MAX_POOL2D, &none, "rank 4", mk(DT_FLOAT32, 1, SH(1), VA(1)));

  Attrs *at = attrs();
  ir_attr_set_ints(A, at, "output_size", 2, SH(1, 3));
  Tensor *r = mk(DT_FLOAT32, 4, SH(1, 1, 1, 5), VA(1, 2, 3, 4, 5));
  /* windows [0, 2), [1, 4), [3, 5): TVM's floor and ceil of k * 5 / 3 */
  CHECK_T(RUN(OP_ADAPTIVE_AVG_POOL2D, at, r), DT_FLOAT32, 4, SH(1, 1, 1, 3), VA(1.5, 3, 4.5));
  CHECK_T(RUN(OP_ADAPTIVE_MAX_POOL2D, at, r), DT_FLOAT32, 4, SH(1, 1, 1, 3), VA(2, 4, 5));
  Tensor *i = mk(DT_INT32, 4, SH(1, 1, 2, 2), VA(4, -1, 2, 3));
  CHECK_T(RUN(OP_ADAPTIVE_MAX_POOL2D, &none, i), DT_INT32, 4, SH(1, 1, 2, 2), VA(4, -1, 2, 3));
  Attrs *one = attrs();
  ir_attr_set_ints(A, one, "output_size", 1, SH(1));
  CHECK_T(RUN(OP_ADAPTIVE_MAX_POOL2D, one, i), DT_INT32, 4, SH(1, 1, 1, 1), VA(4));
  /* more outputs than inputs: windows overlap, each of one element */
  Attrs *up = attrs();
  ir_attr_set_ints(A, up, "output_size", 2, SH(1, 3));
  Tensor *two = mk(DT_FLOAT64, 4, SH(1, 1, 1, 2), VA(1, 3));
  CHECK_T(RUN(OP_ADAPTIVE_AVG_POOL2D, up, two), DT_FLOAT64, 4, SH(1, 1, 1, 3), VA(1, 2, 3));
  /* an empty input: avg 0 / 0, max the lowest value */
  Tensor *em = mk(DT_FLOAT32, 4, SH(1, 1, 0, 2), NULL);
  CHECK_T(RUN(OP_ADAPTIVE_AVG_POOL2D, up, em), DT_FLOAT32, 4, SH(1, 1, 1, 3), VA(NAN, NAN, NAN));
  CHECK_T(RUN(OP_ADAPTIVE_MAX_POOL2D, up, em), DT_FLOAT32, 4, SH(1, 1, 1, 3),
          VA(-INFINITY, -INFINITY, -INFINITY));
  REJECT(OP_ADAPTIVE_AVG_POOL2D, &none, "dtype", i);
  Attrs *lay = attrs();
  ir_attr_set_str(A, lay, "layout", "NHWC");
  REJECT(OP_ADAPTIVE_AVG_POOL2D, lay, "layout", r);
}

static void test_matmul(void) {
  Tensor *a = mk(DT_FLOAT32, 2, SH(2, 3), VA(1, 2, 3, 4, 5, 6));
  Tensor *b = mk(DT_FLOAT32, 2, SH(3, 2), VA(1, 0, 0, 1, 1, 1));
  /* TVM's nn.matmul defaults: neither operand transposed */
  CHECK_T(RUN(OP_MATMUL, &none, a, b), DT_FLOAT32, 2, SH(2, 2), VA(4, 5, 10, 11));
  Attrs *tb = attrs();
  ir_attr_set_bool(A, tb, "transpose_b", true);
  Tensor *bt = mk(DT_FLOAT32, 2, SH(2, 3), VA(1, 0, 1, 0, 1, 1));
  CHECK_T(RUN(OP_MATMUL, tb, a, bt), DT_FLOAT32, 2, SH(2, 2), VA(4, 5, 10, 11));
  Attrs *ta = attrs();
  ir_attr_set_bool(A, ta, "transpose_a", true);
  Tensor *at = mk(DT_FLOAT32, 2, SH(3, 2), VA(1, 4, 2, 5, 3, 6));
  CHECK_T(RUN(OP_MATMUL, ta, at, b), DT_FLOAT32, 2, SH(2, 2), VA(4, 5, 10, 11));
  Tensor *v = mk(DT_FLOAT32, 1, SH(3), VA(1, 2, 3));
  CHECK_T(RUN(OP_MATMUL, &none, v, b), DT_FLOAT32, 1, SH(2), VA(4, 5));
  REJECT(OP_MATMUL, ta, "rank >= 2", v, b);
  Tensor *a3 = mk(DT_FLOAT32, 3, SH(2, 1, 3), VA(1, 2, 3, 4, 5, 6));
  CHECK_T(RUN(OP_MATMUL, &none, a3, b), DT_FLOAT32, 3, SH(2, 1, 2), VA(4, 5, 10, 11));
  /* int8 wraps; out_dtype int32 accumulates without wrapping */
  Tensor *i8 = mk(DT_INT8, 2, SH(1, 2), VA(100, 100)), *o8 = mk(DT_INT8, 2, SH(2, 1), VA(1, 1));
  CHECK_T(RUN(OP_MATMUL, &none, i8, o8), DT_INT8, 2, SH(1, 1), VA(-56));
  Attrs *o32 = attrs();
  ir_attr_set_str(A, o32, "out_dtype", "int32");
  CHECK_T(RUN(OP_MATMUL, o32, i8, o8), DT_INT32, 2, SH(1, 1), VA(200));
  REJECT(OP_MATMUL, &none, "reduction", a, bt);
  Attrs *u = attrs();
  ir_attr_set_int(A, u, "units", 3);
  REJECT(OP_MATMUL, u, "units", a, b);
  REJECT(OP_MATMUL, &none, "rank 2", a, a3);
}

int main(void) {
  void (*tests[])(void) = {test_leaky_prelu, test_dropout, test_l2_normalize, test_lrn,
                           test_norms,       test_pools,   test_matmul};
  for (size_t i = 0; i < sizeof tests / sizeof *tests; i++) {
    A = arena_new();
    tests[i]();
    arena_free(A);
  }
  return test_summary();
}
