/*
 * nn.conv2d's layouts (compiler/ops/conv.c): NHWC data with HWIO, OHWI and
 * HWOI weights (and the other pairings Relay's relation takes) run through
 * op_eval (relation, then kernel) on small cases with topi's values
 * (conv2d_nhwc, group_conv2d_nhwc), every pairing against the NCHW / OIHW
 * result of the same numbers relaid, and the relation's shapes, Any dims
 * and rejections.
 */
#include "kernel_cases.h"

static Attrs *layouts(const char *dl, const char *kl) {
  Attrs *at = attrs();
  if (dl)
    ir_attr_set_str(A, at, "data_layout", dl);
  if (kl)
    ir_attr_set_str(A, at, "kernel_layout", kl);
  return at;
}

/* topi's conv2d_nhwc on small cases: one channel (the NCHW numbers), then
 * two input channels into three outputs, each weight layout. */
static void test_nhwc_values(void) {
  Tensor *d = mk(DT_FLOAT32, 4, SH(1, 3, 3, 1), VA(1, 2, 3, 4, 5, 6, 7, 8, 9));
  Tensor *ones = mk(DT_FLOAT32, 4, SH(2, 2, 1, 1), VA(1, 1, 1, 1));
  CHECK_T(RUN(OP_CONV2D, layouts("NHWC", "HWIO"), d, ones), DT_FLOAT32, 4, SH(1, 2, 2, 1),
          VA(12, 16, 24, 28));
  Attrs *ps = layouts("NHWC", "HWIO");
  ir_attr_set_ints(A, ps, "strides", 2, SH(2, 2));
  ir_attr_set_ints(A, ps, "padding", 1, SH(1));
  CHECK_T(RUN(OP_CONV2D, ps, d, ones), DT_FLOAT32, 4, SH(1, 2, 2, 1), VA(1, 5, 11, 28));
  Attrs *dil = layouts("NHWC", "OHWI");
  ir_attr_set_ints(A, dil, "dilation", 2, SH(2, 2));
  CHECK_T(RUN(OP_CONV2D, dil, d, mk(DT_FLOAT32, 4, SH(1, 2, 2, 1), VA(1, 1, 1, 1))), DT_FLOAT32, 4,
          SH(1, 1, 1, 1), VA(20));
  /* x[h=0, w, c]: w0 (1, 2), w1 (3, 4); W[i, o] = (1, 10, 100), (2, 20, 200) */
  Tensor *x = mk(DT_FLOAT32, 4, SH(1, 1, 2, 2), VA(1, 2, 3, 4));
  Tensor *hwio = mk(DT_FLOAT32, 4, SH(1, 1, 2, 3), VA(1, 10, 100, 2, 20, 200));
  Tensor *ohwi = mk(DT_FLOAT32, 4, SH(3, 1, 1, 2), VA(1, 2, 10, 20, 100, 200));
  const double *want = VA(5, 50, 500, 11, 110, 1100);
  CHECK_T(RUN(OP_CONV2D, layouts("NHWC", "HWIO"), x, hwio), DT_FLOAT32, 4, SH(1, 1, 2, 3), want);
  CHECK_T(RUN(OP_CONV2D, layouts("NHWC", "OHWI"), x, ohwi), DT_FLOAT32, 4, SH(1, 1, 2, 3), want);
  Tensor *hwoi = mk(DT_FLOAT32, 4, SH(1, 1, 3, 2), VA(1, 2, 10, 20, 100, 200));
  CHECK_T(RUN(OP_CONV2D, layouts("NHWC", "HWOI"), x, hwoi), DT_FLOAT32, 4, SH(1, 1, 2, 3), want);
  /* a 1x2 kernel tells OHWI from HWOI: W[o, kx, i] */
  Tensor *x2 = mk(DT_FLOAT32, 4, SH(1, 1, 2, 1), VA(1, 2));
  Tensor *k2 = mk(DT_FLOAT32, 4, SH(2, 1, 2, 1), VA(1, 10, 100, 1000)); /* OHWI: o0 (1, 10) */
  CHECK_T(RUN(OP_CONV2D, layouts("NHWC", "OHWI"), x2, k2), DT_FLOAT32, 4, SH(1, 1, 1, 2),
          VA(21, 2100));
  Tensor *k3 = mk(DT_FLOAT32, 4, SH(1, 2, 2, 1), VA(1, 10, 100, 1000)); /* HWOI: kx0 (1, 10) */
  CHECK_T(RUN(OP_CONV2D, layouts("NHWC", "HWOI"), x2, k3), DT_FLOAT32, 4, SH(1, 1, 1, 2),
          VA(201, 2010));
  /* group_conv2d_nhwc: 4 channels in 2 groups, HWIO [1, 1, 2, 2] */
  Attrs *g2 = layouts("NHWC", "HWIO");
  ir_attr_set_int(A, g2, "groups", 2);
  Tensor *dg = mk(DT_FLOAT32, 4, SH(1, 1, 1, 4), VA(1, 2, 3, 4));
  Tensor *wg = mk(DT_FLOAT32, 4, SH(1, 1, 2, 2), VA(1, 1, 1, -1));
  CHECK_T(RUN(OP_CONV2D, g2, dg, wg), DT_FLOAT32, 4, SH(1, 1, 1, 2), VA(3, -1));
  /* depthwise NHWC, HWOI [1, 1, 2, 1] */
  Attrs *dw = layouts("NHWC", "HWOI");
  ir_attr_set_int(A, dw, "groups", 2);
  CHECK_T(RUN(OP_CONV2D, dw, mk(DT_FLOAT32, 4, SH(1, 1, 1, 2), VA(2, 3)),
              mk(DT_FLOAT32, 4, SH(1, 1, 2, 1), VA(10, 100))),
          DT_FLOAT32, 4, SH(1, 1, 1, 2), VA(20, 300));
  /* integers wrap; out_dtype; a NaN weight meeting only padding */
  Tensor *i8 = mk(DT_INT8, 4, SH(1, 1, 2, 1), VA(127, 127));
  Tensor *w8 = mk(DT_INT8, 4, SH(1, 2, 1, 1), VA(1, 1));
  CHECK_T(RUN(OP_CONV2D, layouts("NHWC", "HWIO"), i8, w8), DT_INT8, 4, SH(1, 1, 1, 1), VA(-2));
  Attrs *o32 = layouts("NHWC", "HWIO");
  ir_attr_set_str(A, o32, "out_dtype", "int32");
  CHECK_T(RUN(OP_CONV2D, o32, i8, w8), DT_INT32, 4, SH(1, 1, 1, 1), VA(254));
  Attrs *pad = layouts("NHWC", "HWIO");
  ir_attr_set_ints(A, pad, "padding", 4, SH(0, 1, 0, 0));
  CHECK_T(RUN(OP_CONV2D, pad, mk(DT_FLOAT32, 4, SH(1, 1, 1, 1), VA(1)),
              mk(DT_FLOAT32, 4, SH(1, 2, 1, 1), VA(NAN, 1))),
          DT_FLOAT32, 4, SH(1, 1, 1, 1), VA(NAN));
}

/* t (canonical NCHW or OIHW order, shape s) relaid in layout l. */
static Tensor *relay_out(const Tensor *t, const char *canon, const char *l) {
  int pos[4];
  int64_t shape[4], c[4], p[4];
  for (int k = 0; k < 4; k++)
    pos[k] = (int)(strchr(l, canon[k]) - l), shape[pos[k]] = t->shape[k];
  Tensor *r = ir_tensor_new(A, t->dtype, 4, shape);
  for (int64_t i = 0; i < t->numel; i++) {
    int64_t rest = i;
    for (int k = 3; k >= 0; k--)
      c[k] = rest % t->shape[k], rest /= t->shape[k];
    for (int k = 0; k < 4; k++)
      p[pos[k]] = c[k];
    int64_t j = ((p[0] * shape[1] + p[1]) * shape[2] + p[2]) * shape[3] + p[3];
    ir_tensor_set_f64(r, j, ir_tensor_get_f64(t, i));
  }
  return r;
}

/* Every pairing of layouts gives the NCHW / OIHW result relaid, with
 * groups, strides, dilation and uneven padding. */
static void test_pairings(void) {
  static const char *dls[] = {"NCHW", "NHWC"}, *kls[] = {"OIHW", "HWIO", "OHWI", "HWOI"};
  Tensor *d = mk(DT_FLOAT64, 4, SH(2, 4, 5, 4), NULL), *w = mk(DT_FLOAT64, 4, SH(6, 2, 3, 2), NULL);
  for (int64_t i = 0; i < d->numel; i++)
    ir_tensor_set_f64(d, i, (double)((i * 7) % 11) - 5);
  for (int64_t i = 0; i < w->numel; i++)
    ir_tensor_set_f64(w, i, (double)((i * 5) % 13) - 6);
  Attrs base = {0};
  ir_attr_set_int(A, &base, "groups", 2);
  ir_attr_set_ints(A, &base, "strides", 2, SH(2, 1));
  ir_attr_set_ints(A, &base, "dilation", 2, SH(1, 2));
  ir_attr_set_ints(A, &base, "padding", 4, SH(1, 0, 2, 1));
  Tensor *ref = RUN(OP_CONV2D, &base, d, w);
  CHECK(ref != NULL);
  if (!ref)
    return;
  for (int a = 0; a < 2; a++)
    for (int b = 0; b < 4; b++) {
      Attrs *at = layouts(dls[a], kls[b]);
      ir_attr_set_int(A, at, "groups", 2);
      ir_attr_set_ints(A, at, "strides", 2, SH(2, 1));
      ir_attr_set_ints(A, at, "dilation", 2, SH(1, 2));
      ir_attr_set_ints(A, at, "padding", 4, SH(1, 0, 2, 1));
      Tensor *got = RUN(OP_CONV2D, at, relay_out(d, "NCHW", dls[a]), relay_out(w, "OIHW", kls[b]));
      Tensor *want = relay_out(ref, "NCHW", dls[a]);
      bool same = got && got->numel == want->numel;
      for (int k = 0; same && k < 4; k++)
        same = got->shape[k] == want->shape[k];
      for (int64_t i = 0; same && i < want->numel; i++)
        same = ir_tensor_get_f64(got, i) == ir_tensor_get_f64(want, i);
      CHECK_MSG(same, "%s/%s differs from NCHW/OIHW relaid", dls[a], kls[b]);
    }
}

/* Result types, Any dims in their layout's places, and rejections. */
static void test_relation(void) {
  Type *out = NULL;
  char err[256];
  Type *args[2] = {ir_tensor_type(A, DT_FLOAT32, 4, SH(2, 9, 8, 6)),
                   ir_tensor_type(A, DT_FLOAT32, 4, SH(3, 2, 2, 6))};
  Attrs *at = layouts("NHWC", "HWIO");
  ir_attr_set_int(A, at, "groups", 3);
  CHECK(op_relate(OP_CONV2D, args, 2, at, A, &out, err, sizeof err) == REL_OK && out &&
        out->tensor.shape[0] == 2 && out->tensor.shape[1] == 7 && out->tensor.shape[2] == 7 &&
        out->tensor.shape[3] == 6);
  /* Any H and Any O: H out is Any, the channels stay in place */
  args[0] = ir_tensor_type(A, DT_FLOAT32, 4, SH(2, IR_DIM_ANY, 8, 6));
  args[1] = ir_tensor_type(A, DT_FLOAT32, 4, SH(3, 2, 2, IR_DIM_ANY));
  CHECK(op_relate(OP_CONV2D, args, 2, at, A, &out, err, sizeof err) == REL_OK && out &&
        ir_dim_is_any(out->tensor.shape[1]) && out->tensor.shape[2] == 7 &&
        ir_dim_is_any(out->tensor.shape[3]));
  ir_attr_set_int(A, at, "channels", 12);
  CHECK(op_relate(OP_CONV2D, args, 2, at, A, &out, err, sizeof err) == REL_OK && out &&
        out->tensor.shape[3] == 12);
  /* the TVM programs' pairing: NHWC with OHWI, 3x3, padding 1 */
  Attrs *tv = layouts("NHWC", "OHWI");
  ir_attr_set_ints(A, tv, "padding", 4, SH(1, 1, 1, 1));
  ir_attr_set_int(A, tv, "channels", 32);
  ir_attr_set_ints(A, tv, "kernel_size", 2, SH(3, 3));
  ir_attr_set_str(A, tv, "out_dtype", "float32");
  args[0] = ir_tensor_type(A, DT_FLOAT16, 4, SH(16, 32, 32, 16));
  args[1] = ir_tensor_type(A, DT_FLOAT16, 4, SH(32, 3, 3, 16));
  CHECK(op_relate(OP_CONV2D, args, 2, tv, A, &out, err, sizeof err) == REL_OK && out &&
        out->tensor.dtype == DT_FLOAT32 && out->tensor.shape[0] == 16 &&
        out->tensor.shape[1] == 32 && out->tensor.shape[2] == 32 && out->tensor.shape[3] == 32);

  Tensor *d = mk(DT_FLOAT32, 4, SH(1, 2, 2, 2), NULL);
  REJECT(OP_CONV2D, layouts("NCHW4c", NULL), "data_layout", d, d);
  REJECT(OP_CONV2D, layouts("NHWC", "OIHW4o"), "kernel_layout", d, d);
  REJECT(OP_CONV2D, layouts("NHWC", "IOHW"), "kernel_layout", d, d);
  /* NHWC reads C from the last dim: 2 channels against HWIO's I of 3 */
  REJECT(OP_CONV2D, layouts("NHWC", "HWIO"), "input channels", d,
         mk(DT_FLOAT32, 4, SH(1, 1, 3, 1), NULL));
  Attrs *big = layouts("NHWC", "HWIO");
  REJECT(OP_CONV2D, big, "larger than the padded", d, mk(DT_FLOAT32, 4, SH(3, 1, 2, 1), NULL));
}

int main(void) {
  void (*tests[])(void) = {test_nhwc_values, test_pairings, test_relation};
  for (size_t i = 0; i < sizeof tests / sizeof *tests; i++) {
    A = arena_new();
    tests[i]();
    arena_free(A);
  }
  return test_summary();
}
