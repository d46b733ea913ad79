/*
 * The sort family (compiler/ops/sort.c): sort, argsort and topk run
 * through op_eval (relation, then kernel) on small cases with TVM's
 * values, the ties TVM's stable sort orders (lower index first, also
 * descending), the NaN order relayc defines (above every number), and
 * the relations' rejections and Any dims.  The five functions' agreement
 * is tests/unit/test_ops_props.c's.
 */
#include "kernel_cases.h"

static Attrs *sort_attrs(int64_t axis, int asc, const char *dtype) {
  Attrs *at = attrs();
  ir_attr_set_int(A, at, "axis", axis);
  if (asc >= 0)
    ir_attr_set_bool(A, at, "is_ascend", asc);
  if (dtype)
    ir_attr_set_str(A, at, "dtype", dtype);
  return at;
}

static void test_sort(void) {
  Tensor *x = mk(DT_FLOAT32, 1, SH(3), VA(3, 1, 2));
  CHECK_T(RUN(OP_SORT, &none, x), DT_FLOAT32, 1, SH(3), VA(1, 2, 3));
  CHECK_T(RUN(OP_SORT, sort_attrs(0, 0, NULL), x), DT_FLOAT32, 1, SH(3), VA(3, 2, 1));
  /* NaN above every number; -0 and +0 equal, so they keep their order */
  Tensor *n = mk(DT_FLOAT32, 1, SH(6), VA(NAN, 1, -INFINITY, NAN, 0, -0.0));
  CHECK_T(RUN(OP_SORT, &none, n), DT_FLOAT32, 1, SH(6), VA(-INFINITY, 0, -0.0, 1, NAN, NAN));
  CHECK_T(RUN(OP_SORT, sort_attrs(-1, 0, NULL), n), DT_FLOAT32, 1, SH(6),
          VA(NAN, NAN, 1, 0, -0.0, -INFINITY));
  /* axis 0 of a matrix; unsigned ints compare as unsigned */
  Tensor *m = mk(DT_INT32, 2, SH(2, 2), VA(3, 1, 1, 2));
  CHECK_T(RUN(OP_SORT, sort_attrs(0, -1, NULL), m), DT_INT32, 2, SH(2, 2), VA(1, 1, 3, 2));
  Tensor *u = mk(DT_UINT8, 1, SH(3), VA(200, 1, 128));
  CHECK_T(RUN(OP_SORT, &none, u), DT_UINT8, 1, SH(3), VA(1, 128, 200));
  REJECT(OP_SORT, &none, "int or float", mk(DT_BOOL, 1, SH(2), VA(1, 0)));
  REJECT(OP_SORT, &none, "axis", mk(DT_FLOAT32, 0, NULL, VA(1)));
  REJECT(OP_SORT, sort_attrs(2, -1, NULL), "axis", m);
}

static void test_argsort(void) {
  /* ties: the lower index first, ascending and descending */
  Tensor *x = mk(DT_FLOAT32, 1, SH(4), VA(2, 1, 2, 1));
  CHECK_T(RUN(OP_ARGSORT, &none, x), DT_INT32, 1, SH(4), VA(1, 3, 0, 2));
  CHECK_T(RUN(OP_ARGSORT, sort_attrs(0, 0, NULL), x), DT_INT32, 1, SH(4), VA(0, 2, 1, 3));
  Tensor *n = mk(DT_FLOAT64, 1, SH(5), VA(NAN, 1, -INFINITY, NAN, 0));
  CHECK_T(RUN(OP_ARGSORT, sort_attrs(0, 1, "int64"), n), DT_INT64, 1, SH(5), VA(2, 4, 1, 0, 3));
  CHECK_T(RUN(OP_ARGSORT, sort_attrs(0, 0, "float32"), n), DT_FLOAT32, 1, SH(5), VA(0, 3, 1, 4, 2));
  Tensor *m = mk(DT_INT8, 2, SH(2, 2), VA(3, 1, 1, 2));
  CHECK_T(RUN(OP_ARGSORT, sort_attrs(0, -1, NULL), m), DT_INT32, 2, SH(2, 2), VA(1, 0, 0, 1));
  CHECK_T(RUN(OP_ARGSORT, &none, m), DT_INT32, 2, SH(2, 2), VA(1, 0, 0, 1));
  REJECT(OP_ARGSORT, sort_attrs(0, 1, "bool"), "dtype", x);
  REJECT(OP_ARGSORT, sort_attrs(0, 1, "int33"), "dtype", x);
}

static Attrs *topk_attrs(int64_t k, const char *ret) {
  Attrs *at = attrs();
  ir_attr_set_int(A, at, "k", k);
  if (ret)
    ir_attr_set_str(A, at, "ret_type", ret);
  return at;
}

static void test_topk(void) {
  Tensor *x = mk(DT_FLOAT32, 1, SH(4), VA(1, 3, 2, 3));
  CHECK_T(run_k(OP_TOPK, &x, 1, topk_attrs(2, NULL), 0), DT_FLOAT32, 1, SH(2), VA(3, 3));
  CHECK_T(run_k(OP_TOPK, &x, 1, topk_attrs(2, NULL), 1), DT_INT32, 1, SH(2), VA(1, 3));
  CHECK_T(RUN(OP_TOPK, topk_attrs(3, "values"), x), DT_FLOAT32, 1, SH(3), VA(3, 3, 2));
  CHECK_T(RUN(OP_TOPK, topk_attrs(0, "indices"), x), DT_INT32, 1, SH(4), VA(1, 3, 2, 0));
  CHECK_T(RUN(OP_TOPK, topk_attrs(-1, "values"), x), DT_FLOAT32, 1, SH(4), VA(3, 3, 2, 1));
  Attrs *asc = topk_attrs(2, "indices");
  ir_attr_set_bool(A, asc, "is_ascend", true);
  ir_attr_set_str(A, asc, "dtype", "int64");
  CHECK_T(RUN(OP_TOPK, asc, x), DT_INT64, 1, SH(2), VA(0, 2));
  /* the default k is 1; NaN is the largest */
  Tensor *n = mk(DT_FLOAT32, 1, SH(3), VA(5, NAN, 7));
  CHECK_T(RUN(OP_TOPK, topk_attrs(1, "values"), n), DT_FLOAT32, 1, SH(1), VA(NAN));
  Attrs *dflt = attrs();
  ir_attr_set_str(A, dflt, "ret_type", "indices");
  CHECK_T(RUN(OP_TOPK, dflt, n), DT_INT32, 1, SH(1), VA(1));
  /* axis 0 of a matrix */
  Tensor *m = mk(DT_INT32, 2, SH(3, 2), VA(1, 6, 5, 2, 3, 4));
  Attrs *a0 = topk_attrs(2, NULL);
  ir_attr_set_int(A, a0, "axis", 0);
  CHECK_T(run_k(OP_TOPK, &m, 1, a0, 0), DT_INT32, 2, SH(2, 2), VA(5, 6, 3, 4));
  CHECK_T(run_k(OP_TOPK, &m, 1, a0, 1), DT_INT32, 2, SH(2, 2), VA(1, 0, 2, 2));
  REJECT(OP_TOPK, topk_attrs(5, NULL), "exceeds", x);
  REJECT(OP_TOPK, topk_attrs(1, "both_"), "ret_type", x);

  /* Any dims: k along an Any axis is static; the check waits */
  Type *out = NULL;
  char err[256];
  Type *t = ir_tensor_type(A, DT_FLOAT32, 2, SH(IR_DIM_ANY, 4));
  Attrs *av = topk_attrs(2, "values");
  ir_attr_set_int(A, av, "axis", 0);
  CHECK(op_relate(OP_TOPK, &t, 1, av, A, &out, err, sizeof err) == REL_OK && out &&
        out->kind == TY_TENSOR && out->tensor.shape[0] == 2 && out->tensor.shape[1] == 4);
  CHECK(op_relate(OP_ARGSORT, &t, 1, &none, A, &out, err, sizeof err) == REL_OK && out &&
        ir_dim_is_any(out->tensor.shape[0]));
}

int main(void) {
  void (*tests[])(void) = {test_sort, test_argsort, test_topk};
  for (size_t i = 0; i < sizeof tests / sizeof *tests; i++) {
    A = arena_new();
    tests[i]();
    arena_free(A);
  }
  return test_summary();
}
