/*
 * The transform family (compiler/ops/transform.c): one_hot, repeat,
 * nn.batch_flatten, nn.depth_to_space, nn.space_to_depth, reshape_like,
 * collapse_sum_like and slice_like run through op_eval (relation, then
 * kernel) on small cases with TVM's values (ONNX's DepthToSpace example
 * for both modes), the edge cases relayc defines (indices outside the
 * depth, integer wrap in collapse_sum_like), and the relations'
 * rejections.  The five functions' agreement is test_ops_props.c's.
 */
#include "kernel_cases.h"

static Attrs *with_int(Attrs *at, const char *name, int64_t v) {
  ir_attr_set_int(A, at, name, v);
  return at;
}

static void test_one_hot(void) {
  Tensor *ix = mk(DT_INT32, 1, SH(4), VA(0, 2, -1, 5));
  Tensor *on = mk(DT_FLOAT32, 0, NULL, VA(1)), *off = mk(DT_FLOAT32, 0, NULL, VA(0));
  Attrs *at = with_int(attrs(), "depth", 3);
  CHECK_T(RUN(OP_ONE_HOT, at, ix, on, off), DT_FLOAT32, 2, SH(4, 3),
          VA(1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0));
  with_int(at, "axis", 0);
  CHECK_T(RUN(OP_ONE_HOT, at, ix, on, off), DT_FLOAT32, 2, SH(3, 4),
          VA(1, 0, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0));
  /* on and off converted to dtype (int8: 300 wraps to 44) */
  Attrs *a8 = with_int(attrs(), "depth", 2);
  ir_attr_set_str(A, a8, "dtype", "int8");
  Tensor *on2 = mk(DT_INT32, 0, NULL, VA(300)), *off2 = mk(DT_FLOAT32, 0, NULL, VA(-1.5));
  CHECK_T(RUN(OP_ONE_HOT, a8, mk(DT_UINT8, 1, SH(2), VA(1, 0)), on2, off2), DT_INT8, 2, SH(2, 2),
          VA(-1, 44, 44, -1));
  REJECT(OP_ONE_HOT, at, "integer dtype", mk(DT_FLOAT32, 1, SH(1), VA(0)), on, off);
  REJECT(OP_ONE_HOT, at, "scalars", ix, ix, off);
  REJECT(OP_ONE_HOT, with_int(attrs(), "axis", 3), "axis", ix, on, off);
}

static void test_repeat(void) {
  Tensor *x = mk(DT_INT32, 2, SH(2, 2), VA(1, 2, 3, 4));
  Attrs *at = with_int(with_int(attrs(), "repeats", 2), "axis", 1);
  CHECK_T(RUN(OP_REPEAT, at, x), DT_INT32, 2, SH(2, 4), VA(1, 1, 2, 2, 3, 3, 4, 4));
  Attrs *a0 = with_int(attrs(), "repeats", 2);
  CHECK_T(RUN(OP_REPEAT, a0, x), DT_INT32, 2, SH(4, 2), VA(1, 2, 1, 2, 3, 4, 3, 4));
  REJECT(OP_REPEAT, with_int(attrs(), "repeats", 0), ">= 1", x);
  REJECT(OP_REPEAT, &none, "repeats is required", x);
  REJECT(OP_REPEAT, with_int(a0, "axis", -3), "axis", x);
}

static void test_batch_flatten(void) {
  Tensor *x = mk(DT_FLOAT64, 3, SH(2, 1, 3), VA(1, 2, 3, 4, 5, 6));
  CHECK_T(RUN(OP_BATCH_FLATTEN, &none, x), DT_FLOAT64, 2, SH(2, 3), VA(1, 2, 3, 4, 5, 6));
  CHECK_T(RUN(OP_BATCH_FLATTEN, &none, mk(DT_INT8, 1, SH(2), VA(7, 8))), DT_INT8, 2, SH(2, 1),
          VA(7, 8));
  REJECT(OP_BATCH_FLATTEN, &none, "rank", mk(DT_INT8, 0, NULL, VA(7)));
}

static void test_space_depth(void) {
  Tensor *x = mk(DT_FLOAT32, 4, SH(1, 8, 1, 1), VA(0, 1, 2, 3, 4, 5, 6, 7));
  Attrs *at = with_int(attrs(), "block_size", 2);
  CHECK_T(RUN(OP_DEPTH_TO_SPACE, at, x), DT_FLOAT32, 4, SH(1, 2, 2, 2), VA(0, 2, 4, 6, 1, 3, 5, 7));
  Attrs *crd = with_int(attrs(), "block_size", 2);
  ir_attr_set_str(A, crd, "mode", "CRD");
  CHECK_T(RUN(OP_DEPTH_TO_SPACE, crd, x), DT_FLOAT32, 4, SH(1, 2, 2, 2),
          VA(0, 1, 2, 3, 4, 5, 6, 7));
  /* space_to_depth undoes DCR */
  Tensor *y = mk(DT_FLOAT32, 4, SH(1, 2, 2, 2), VA(0, 2, 4, 6, 1, 3, 5, 7));
  CHECK_T(RUN(OP_SPACE_TO_DEPTH, at, y), DT_FLOAT32, 4, SH(1, 8, 1, 1), VA(0, 1, 2, 3, 4, 5, 6, 7));
  REJECT(OP_DEPTH_TO_SPACE, at, "divisible", mk(DT_FLOAT32, 4, SH(1, 2, 1, 1), VA(0, 1)));
  REJECT(OP_SPACE_TO_DEPTH, at, "divisible", mk(DT_FLOAT32, 4, SH(1, 1, 1, 2), VA(0, 1)));
  REJECT(OP_SPACE_TO_DEPTH, &none, "block_size is required", y);
  Attrs *nhwc = with_int(attrs(), "block_size", 1);
  ir_attr_set_str(A, nhwc, "layout", "NHWC");
  REJECT(OP_DEPTH_TO_SPACE, nhwc, "not supported", y);
  REJECT(OP_DEPTH_TO_SPACE, crd, "4-D", mk(DT_FLOAT32, 1, SH(1), VA(0)));
}

static void test_like(void) {
  Tensor *x = mk(DT_INT32, 2, SH(2, 3), VA(1, 2, 3, 4, 5, 6));
  Tensor *l32 = mk(DT_INT8, 2, SH(3, 2), NULL);
  CHECK_T(RUN(OP_RESHAPE_LIKE, &none, x, l32), DT_INT32, 2, SH(3, 2), VA(1, 2, 3, 4, 5, 6));
  Attrs *rb = with_int(attrs(), "rhs_begin", 1);
  CHECK_T(RUN(OP_RESHAPE_LIKE, rb, x, mk(DT_BOOL, 2, SH(5, 6), NULL)), DT_INT32, 1, SH(6),
          VA(1, 2, 3, 4, 5, 6));
  REJECT(OP_RESHAPE_LIKE, &none, "elements", x, mk(DT_INT8, 1, SH(5), NULL));

  CHECK_T(RUN(OP_COLLAPSE_SUM_LIKE, &none, x, mk(DT_BOOL, 1, SH(3), NULL)), DT_INT32, 1, SH(3),
          VA(5, 7, 9));
  CHECK_T(RUN(OP_COLLAPSE_SUM_LIKE, &none, x, mk(DT_FLOAT32, 2, SH(2, 1), NULL)), DT_INT32, 2,
          SH(2, 1), VA(6, 15));
  CHECK_T(RUN(OP_COLLAPSE_SUM_LIKE, &none, x, mk(DT_INT32, 0, NULL, NULL)), DT_INT32, 0, NULL,
          VA(21));
  Tensor *w = mk(DT_INT8, 1, SH(2), VA(100, 100));
  CHECK_T(RUN(OP_COLLAPSE_SUM_LIKE, &none, w, mk(DT_INT8, 0, NULL, NULL)), DT_INT8, 0, NULL,
          VA(-56));
  /* a float32 sum in double, rounded once: 2^24 + 1 + 1 */
  Tensor *f = mk(DT_FLOAT32, 1, SH(3), VA(16777216, 1, 1));
  CHECK_T(RUN(OP_COLLAPSE_SUM_LIKE, &none, f, mk(DT_FLOAT32, 0, NULL, NULL)), DT_FLOAT32, 0, NULL,
          VA(16777218));
  REJECT(OP_COLLAPSE_SUM_LIKE, &none, "broadcast", x, mk(DT_INT32, 1, SH(2), NULL));
  REJECT(OP_COLLAPSE_SUM_LIKE, &none, "rank", w, x);

  Tensor *s = mk(DT_FLOAT32, 2, SH(3, 4), VA(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11));
  CHECK_T(RUN(OP_SLICE_LIKE, &none, s, mk(DT_INT8, 2, SH(2, 2), NULL)), DT_FLOAT32, 2, SH(2, 2),
          VA(0, 1, 4, 5));
  CHECK_T(RUN(OP_SLICE_LIKE, &none, s, mk(DT_INT8, 1, SH(1), NULL)), DT_FLOAT32, 2, SH(1, 4),
          VA(0, 1, 2, 3));
  Attrs *ax = attrs();
  ir_attr_set_ints(A, ax, "axes", 1, SH(-1));
  CHECK_T(RUN(OP_SLICE_LIKE, ax, s, mk(DT_INT8, 2, SH(5, 2), NULL)), DT_FLOAT32, 2, SH(3, 2),
          VA(0, 1, 4, 5, 8, 9));
  REJECT(OP_SLICE_LIKE, &none, "exceeds", s, mk(DT_INT8, 2, SH(4, 1), NULL));
  REJECT(OP_SLICE_LIKE, ax, "out of range", s, mk(DT_INT8, 1, SH(2), NULL));
}

int main(void) {
  void (*tests[])(void) = {test_one_hot, test_repeat, test_batch_flatten, test_space_depth,
                           test_like};
  for (size_t i = 0; i < sizeof tests / sizeof *tests; i++) {
    A = arena_new();
    tests[i]();
    arena_free(A);
  }
  return test_summary();
}
