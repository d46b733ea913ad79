/*
 * The image family (compiler/ops/image.c): layout_transform,
 * nn.upsampling and image.resize2d run through op_eval (relation, then
 * kernel) on small cases with topi's values (float32 coordinates, the
 * integer division of asymmetric nearest, clamped borders, ties to even),
 * and the relations' rejections of what relayc does not take (split
 * layouts, cubic, tf_crop_and_resize).  The five functions' agreement is
 * tests/unit/test_ops_props.c's.
 */
#include "kernel_cases.h"

static Attrs *with_str(Attrs *at, const char *name, const char *v) {
  ir_attr_set_str(A, at, name, v);
  return at;
}

static Attrs *layouts(const char *src, const char *dst) {
  return with_str(with_str(attrs(), "src_layout", src), "dst_layout", dst);
}

static void test_layout_transform(void) {
  Tensor *x = mk(DT_INT32, 3, SH(1, 2, 3), VA(0, 1, 2, 3, 4, 5));
  CHECK_T(RUN(OP_LAYOUT_TRANSFORM, layouts("NCW", "NWC"), x), DT_INT32, 3, SH(1, 3, 2),
          VA(0, 3, 1, 4, 2, 5));
  CHECK_T(RUN(OP_LAYOUT_TRANSFORM, layouts("NCW", "NCW"), x), DT_INT32, 3, SH(1, 2, 3),
          VA(0, 1, 2, 3, 4, 5));
  Tensor *y = mk(DT_FLOAT32, 4, SH(1, 2, 1, 2), VA(1, 2, 3, 4));
  CHECK_T(RUN(OP_LAYOUT_TRANSFORM, layouts("NCHW", "NHWC"), y), DT_FLOAT32, 4, SH(1, 1, 2, 2),
          VA(1, 3, 2, 4));
  REJECT(OP_LAYOUT_TRANSFORM, layouts("NCHW", "NCHW4c"), "split", y);
  REJECT(OP_LAYOUT_TRANSFORM, layouts("NCW", "NCX"), "reordering", x);
  REJECT(OP_LAYOUT_TRANSFORM, layouts("NCW", "NWW"), "reordering", x);
  REJECT(OP_LAYOUT_TRANSFORM, layouts("NCHW", "NHWC"), "dims", x);
  REJECT(OP_LAYOUT_TRANSFORM, &none, "required", x);
}

static Attrs *scales(double h, double w) {
  Attrs *at = attrs();
  ir_attr_set_float(A, at, "scale_h", h);
  ir_attr_set_float(A, at, "scale_w", w);
  return at;
}

static void test_upsampling(void) {
  Tensor *x = mk(DT_FLOAT32, 4, SH(1, 1, 2, 2), VA(1, 2, 3, 4));
  CHECK_T(RUN(OP_UPSAMPLING, scales(2, 2), x), DT_FLOAT32, 4, SH(1, 1, 4, 4),
          VA(1, 1, 2, 2, 1, 1, 2, 2, 3, 3, 4, 4, 3, 3, 4, 4));
  Attrs *bl = with_str(scales(2, 2), "method", "bilinear");
  CHECK_T(RUN(OP_UPSAMPLING, bl, x), DT_FLOAT32, 4, SH(1, 1, 4, 4),
          VA(1, 1.5, 2, 2, 2, 2.5, 3, 3, 3, 3.5, 4, 4, 3, 3.5, 4, 4));
  /* align_corners: in = 1/3 * x in float32 */
  ir_attr_set_bool(A, bl, "align_corners", true);
  Tensor *r = RUN(OP_UPSAMPLING, bl, x);
  float t = 1.0f / 3.0f, w = 1.0f - t, a = 1.0f * w, b = 2.0f * t;
  CHECK(r && ir_tensor_get_f64(r, 1) == (double)(a + b) && ir_tensor_get_f64(r, 15) == 4);
  /* H * 1.5 = 4.5 rounds to 4 (ties to even); nearest floors 0.75 * y */
  Tensor *col = mk(DT_INT8, 4, SH(1, 1, 3, 1), VA(7, 8, 9));
  CHECK_T(RUN(OP_UPSAMPLING, scales(1.5, 1), col), DT_INT8, 4, SH(1, 1, 4, 1), VA(7, 7, 8, 9));
  REJECT(OP_UPSAMPLING, scales(0, 1), "> 0", x);
  REJECT(OP_UPSAMPLING, with_str(scales(2, 2), "method", "bicubic"), "not supported", x);
  REJECT(OP_UPSAMPLING, with_str(scales(2, 2), "layout", "NHWC"), "not supported", x);
}

static Attrs *resize(const char *method, const char *mode, const char *rounding) {
  Attrs *at = attrs();
  ir_attr_set_ints(A, at, "size", 2, SH(1, 3));
  if (method)
    with_str(at, "method", method);
  if (mode)
    with_str(at, "coordinate_transformation_mode", mode);
  if (rounding)
    with_str(at, "rounding_method", rounding);
  return at;
}

static void test_resize2d(void) {
  Tensor *x = mk(DT_FLOAT32, 4, SH(1, 1, 1, 2), VA(0, 10));
  CHECK_T(RUN(OP_RESIZE2D, resize(NULL, NULL, NULL), x), DT_FLOAT32, 4, SH(1, 1, 1, 3),
          VA(0, 5, 10));
  CHECK_T(RUN(OP_RESIZE2D, resize("nearest_neighbor", NULL, NULL), x), DT_FLOAT32, 4,
          SH(1, 1, 1, 3), VA(0, 0, 10));
  CHECK_T(RUN(OP_RESIZE2D, resize("nearest_neighbor", NULL, "round"), x), DT_FLOAT32, 4,
          SH(1, 1, 1, 3), VA(0, 0, 10));
  CHECK_T(RUN(OP_RESIZE2D, resize("nearest_neighbor", NULL, "round_prefer_ceil"), x), DT_FLOAT32, 4,
          SH(1, 1, 1, 3), VA(0, 10, 10));
  CHECK_T(RUN(OP_RESIZE2D, resize("nearest_neighbor", "align_corners", NULL), x), DT_FLOAT32, 4,
          SH(1, 1, 1, 3), VA(0, 0, 10));
  CHECK_T(RUN(OP_RESIZE2D, resize("linear", "align_corners", NULL), x), DT_FLOAT32, 4,
          SH(1, 1, 1, 3), VA(0, 5, 10));
  /* ints: the float32 value converted toward zero; out_dtype */
  Tensor *i = mk(DT_INT32, 4, SH(1, 1, 1, 2), VA(0, 3));
  CHECK_T(RUN(OP_RESIZE2D, resize(NULL, NULL, NULL), i), DT_INT32, 4, SH(1, 1, 1, 3), VA(0, 1, 3));
  CHECK_T(RUN(OP_RESIZE2D, with_str(resize(NULL, NULL, NULL), "out_dtype", "float16"), i),
          DT_FLOAT16, 4, SH(1, 1, 1, 3), VA(0, 1.5, 3));
  REJECT(OP_RESIZE2D, resize("cubic", NULL, NULL), "not supported", x);
  REJECT(OP_RESIZE2D, resize(NULL, "tf_crop_and_resize", NULL), "not supported", x);
  REJECT(OP_RESIZE2D, &none, "size", x);
  REJECT(OP_RESIZE2D, resize(NULL, NULL, NULL), "4-D", mk(DT_FLOAT32, 1, SH(1), VA(0)));
  REJECT(OP_RESIZE2D, resize(NULL, NULL, NULL), "empty", mk(DT_FLOAT32, 4, SH(1, 1, 0, 2), NULL));
}

int main(void) {
  void (*tests[])(void) = {test_layout_transform, test_upsampling, test_resize2d};
  for (size_t i = 0; i < sizeof tests / sizeof *tests; i++) {
    A = arena_new();
    tests[i]();
    arena_free(A);
  }
  return test_summary();
}
