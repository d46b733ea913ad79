/*
 * The conv_extra family (compiler/ops/conv_extra.c): nn.conv1d and
 * nn.conv2d_transpose run through op_eval (relation, then kernel) on
 * small hand-computed cases (TVM's output extents, groups, dilation,
 * padding, output_padding, zeros of the padding times a NaN weight) and
 * the relations' rejections.
 */
#include "kernel_cases.h"

static void test_conv1d(void) {
  Tensor *x = mk(DT_FLOAT32, 3, SH(1, 1, 4), VA(1, 2, 3, 4));
  Tensor *w = mk(DT_FLOAT32, 3, SH(1, 1, 2), VA(1, 1));
  CHECK_T(RUN(OP_CONV1D, &none, x, w), DT_FLOAT32, 3, SH(1, 1, 3), VA(3, 5, 7));
  Attrs *at = attrs();
  ir_attr_set_ints(A, at, "strides", 1, SH(2));
  CHECK_T(RUN(OP_CONV1D, at, x, w), DT_FLOAT32, 3, SH(1, 1, 2), VA(3, 7));
  Attrs *p = attrs();
  ir_attr_set_ints(A, p, "padding", 1, SH(1));
  CHECK_T(RUN(OP_CONV1D, p, x, w), DT_FLOAT32, 3, SH(1, 1, 5), VA(1, 3, 5, 7, 4));
  Attrs *d = attrs();
  ir_attr_set_ints(A, d, "dilation", 1, SH(2));
  CHECK_T(RUN(OP_CONV1D, d, x, w), DT_FLOAT32, 3, SH(1, 1, 2), VA(4, 6));
  Attrs *g = attrs();
  ir_attr_set_int(A, g, "groups", 2);
  Tensor *x2 = mk(DT_FLOAT32, 3, SH(1, 2, 3), VA(1, 2, 3, 10, 20, 30));
  Tensor *w2 = mk(DT_FLOAT32, 3, SH(2, 1, 1), VA(1, 2));
  CHECK_T(RUN(OP_CONV1D, g, x2, w2), DT_FLOAT32, 3, SH(1, 2, 3), VA(1, 2, 3, 20, 40, 60));
  /* a zero of the padding times a NaN weight is NaN, as in TVM */
  Attrs *r = attrs();
  ir_attr_set_ints(A, r, "padding", 2, SH(0, 1));
  Tensor *one = mk(DT_FLOAT32, 3, SH(1, 1, 1), VA(5)),
         *wn = mk(DT_FLOAT32, 3, SH(1, 1, 2), VA(1, NAN));
  CHECK_T(RUN(OP_CONV1D, r, one, wn), DT_FLOAT32, 3, SH(1, 1, 1), VA(NAN));
  /* int8 wraps; out_dtype int32 does not */
  Tensor *i8 = mk(DT_INT8, 3, SH(1, 1, 2), VA(100, 100)),
         *w8 = mk(DT_INT8, 3, SH(1, 1, 2), VA(1, 1));
  CHECK_T(RUN(OP_CONV1D, &none, i8, w8), DT_INT8, 3, SH(1, 1, 1), VA(-56));
  Attrs *o32 = attrs();
  ir_attr_set_str(A, o32, "out_dtype", "int32");
  CHECK_T(RUN(OP_CONV1D, o32, i8, w8), DT_INT32, 3, SH(1, 1, 1), VA(200));
  ir_attr_set_int(A, g, "groups", 3);
  REJECT(OP_CONV1D, g, "divide", x2, w2);
  REJECT(OP_CONV1D, &none, "input channels", x2, w);
  Attrs *l = attrs();
  ir_attr_set_str(A, l, "data_layout", "NWC");
  REJECT(OP_CONV1D, l, "data_layout", x, w);
  REJECT(OP_CONV1D, &none, "wider", one, w);
}

static void test_conv2d_transpose(void) {
  Tensor *x = mk(DT_FLOAT32, 4, SH(1, 1, 2, 2), VA(1, 2, 3, 4));
  Tensor *w = mk(DT_FLOAT32, 4, SH(1, 1, 2, 2), VA(1, 1, 1, 1));
  CHECK_T(RUN(OP_CONV2D_TRANSPOSE, &none, x, w), DT_FLOAT32, 4, SH(1, 1, 3, 3),
          VA(1, 3, 2, 4, 10, 6, 3, 7, 4));
  Attrs *s = attrs();
  ir_attr_set_ints(A, s, "strides", 2, SH(2, 2));
  CHECK_T(RUN(OP_CONV2D_TRANSPOSE, s, x, w), DT_FLOAT32, 4, SH(1, 1, 4, 4),
          VA(1, 1, 2, 2, 1, 1, 2, 2, 3, 3, 4, 4, 3, 3, 4, 4));
  ir_attr_set_ints(A, s, "output_padding", 2, SH(1, 0));
  CHECK_T(RUN(OP_CONV2D_TRANSPOSE, s, x, w), DT_FLOAT32, 4, SH(1, 1, 5, 4),
          VA(1, 1, 2, 2, 1, 1, 2, 2, 3, 3, 4, 4, 3, 3, 4, 4, 0, 0, 0, 0));
  Attrs *p = attrs();
  ir_attr_set_ints(A, p, "padding", 2, SH(1, 1));
  CHECK_T(RUN(OP_CONV2D_TRANSPOSE, p, x, w), DT_FLOAT32, 4, SH(1, 1, 1, 1), VA(10));
  /* a kernel tap (0, 0) of 2 and dilation 2: the taps land two apart */
  Attrs *d = attrs();
  ir_attr_set_ints(A, d, "dilation", 2, SH(1, 2));
  Tensor *r1 = mk(DT_FLOAT32, 4, SH(1, 1, 1, 1), VA(3)),
         *w12 = mk(DT_FLOAT32, 4, SH(1, 1, 1, 2), VA(2, 5));
  CHECK_T(RUN(OP_CONV2D_TRANSPOSE, d, r1, w12), DT_FLOAT32, 4, SH(1, 1, 1, 3), VA(6, 0, 15));
  /* groups: channel o of group g reads group g's input channels; O = 2 * W's dim 1 */
  Attrs *g = attrs();
  ir_attr_set_int(A, g, "groups", 2);
  Tensor *x2 = mk(DT_FLOAT32, 4, SH(1, 2, 1, 1), VA(1, 2)),
         *w2 = mk(DT_FLOAT32, 4, SH(2, 1, 1, 1), VA(3, 5));
  CHECK_T(RUN(OP_CONV2D_TRANSPOSE, g, x2, w2), DT_FLOAT32, 4, SH(1, 2, 1, 1), VA(3, 10));
  CHECK_T(RUN(OP_CONV2D_TRANSPOSE, &none, x2, w2), DT_FLOAT32, 4, SH(1, 1, 1, 1), VA(13));
  ir_attr_set_int(A, g, "channels", 2);
  CHECK_T(RUN(OP_CONV2D_TRANSPOSE, g, x2, w2), DT_FLOAT32, 4, SH(1, 2, 1, 1), VA(3, 10));
  /* the zeros TVM's padded, dilated input holds multiply a NaN weight: every
   * output has a tap of the NaN weight, on an input or on a zero */
  Tensor *wn = mk(DT_FLOAT32, 4, SH(1, 1, 1, 2), VA(1, NAN));
  Attrs *s2 = attrs();
  ir_attr_set_ints(A, s2, "strides", 2, SH(1, 2));
  Tensor *x12 = mk(DT_FLOAT32, 4, SH(1, 1, 1, 2), VA(1, 1));
  CHECK_T(RUN(OP_CONV2D_TRANSPOSE, s2, x12, wn), DT_FLOAT32, 4, SH(1, 1, 1, 4),
          VA(NAN, NAN, NAN, NAN));
  Attrs *bad = attrs();
  ir_attr_set_ints(A, bad, "output_padding", 2, SH(1, 1));
  REJECT(OP_CONV2D_TRANSPOSE, bad, "below the stride", x, w);
  Attrs *neg = attrs();
  ir_attr_set_ints(A, neg, "padding", 2, SH(2, 0));
  REJECT(OP_CONV2D_TRANSPOSE, neg, "negative", x, w);
  REJECT(OP_CONV2D_TRANSPOSE, &none, "input channels", x, w2);
}

int main(void) {
  void (*tests[])(void) = {test_conv1d, test_conv2d_transpose};
  for (size_t i = 0; i < sizeof tests / sizeof *tests; i++) {
    A = arena_new();
    tests[i]();
    arena_free(A);
  }
  return test_summary();
}
