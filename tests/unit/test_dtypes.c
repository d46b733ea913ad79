/* The dtypes of ir.h: float16 and bfloat16 rounding (ties to even,
 * subnormals, overflow, NaN, -0) against hand-computed patterns and, where
 * the compiler has it, _Float16; integer wrap and saturation of the
 * 16-bit and unsigned ints; and the text format's bit-exact round trip of
 * every dtype's constants, scalars and tensors. */
#include <math.h>
#include <stdint.h>
#include <string.h>

#include "compiler/ir/ir.h"
#include "test.h"

static uint16_t h(double v) {
  return ir_half_from_f64(DT_FLOAT16, v);
}
static uint16_t bf(double v) {
  return ir_half_from_f64(DT_BFLOAT16, v);
}

static void test_float16(void) {
  CHECK(h(1.0) == 0x3c00);
  CHECK(h(-2.0) == 0xc000);
  CHECK(h(0.0) == 0x0000);
  CHECK(h(-0.0) == 0x8000);
  CHECK(h(65504.0) == 0x7bff);
  /* Overflow: 65520 is the tie between 65504 and 2^16: even is inf. */
  CHECK(h(65519.99) == 0x7bff);
  CHECK(h(65520.0) == 0x7c00);
  CHECK(h(-1e10) == 0xfc00);
  CHECK(h(INFINITY) == 0x7c00);
  /* Ties to even: 1 + 2^-11 is halfway between 1 and 1 + 2^-10. */
  CHECK(h(1.0 + 0x1p-11) == 0x3c00);
  CHECK(h(1.0 + 3 * 0x1p-11) == 0x3c02);
  CHECK(h(1.0 + 0x1p-11 + 0x1p-40) == 0x3c01);
  /* Rounding double -> float -> half would round twice: this double is
   * just above the tie, float32 rounds it onto the tie, and half would
   * then round down to even. */
  double twice = 1.0 + 0x1p-11 + 0x1p-30;
  CHECK((double)(float)twice == 1.0 + 0x1p-11);
  CHECK(h(twice) == 0x3c01);
  /* Subnormals: the smallest is 2^-24; half of it ties to 0 (even). */
  CHECK(h(0x1p-24) == 0x0001);
  CHECK(h(0x1p-25) == 0x0000);
  CHECK(h(0x1p-25 + 0x1p-40) == 0x0001);
  CHECK(h(3 * 0x1p-25) == 0x0002);
  CHECK(h(-0x1p-26) == 0x8000);
  CHECK(h(0x1p-14) == 0x0400);                 /* smallest normal */
  CHECK(h(0x1p-14 - 0x1p-25) == 0x0400);       /* rounds up into the normals */
  CHECK(h(4.9406564584124654e-324) == 0x0000); /* a double subnormal */
  /* NaN stays NaN (quiet, payload's top bits kept); inf is not NaN. */
  CHECK((h(NAN) & 0x7c00) == 0x7c00 && (h(NAN) & 0x3ff) != 0);
  CHECK(isnan(ir_half_to_f64(DT_FLOAT16, 0x7e00)));
  CHECK(isnan(ir_half_to_f64(DT_FLOAT16, 0x7c01)));
  CHECK(h(ir_half_to_f64(DT_FLOAT16, 0xfe01)) == 0xfe01);
  CHECK(ir_half_to_f64(DT_FLOAT16, 0x0001) == 0x1p-24);
  CHECK(ir_half_to_f64(DT_FLOAT16, 0x7bff) == 65504.0);
  CHECK(signbit(ir_half_to_f64(DT_FLOAT16, 0x8000)));
  /* From integers, rounded once. */
  CHECK(ir_half_from_i64(DT_FLOAT16, 2049) == 0x6800); /* tie: 2048 */
  CHECK(ir_half_from_i64(DT_FLOAT16, 2051) == 0x6802); /* tie: 2052 */
  CHECK(ir_half_from_i64(DT_FLOAT16, -65520) == 0xfc00);
  CHECK(ir_half_from_i64(DT_FLOAT16, INT64_MIN) == 0xfc00);
  CHECK(ir_half_from_u64(DT_FLOAT16, UINT64_MAX) == 0x7c00);
  /* Every pattern reads exactly and rounds back to itself. */
  for (unsigned b = 0; b < 0x10000; b++) {
    double v = ir_half_to_f64(DT_FLOAT16, (uint16_t)b);
    if (!isnan(v))
      CHECK_MSG(h(v) == b, "float16 0x%04x", b);
  }
#ifdef __FLT16_MAX__
  /* The compiler's own conversion rounds directly from double too. */
  uint64_t s = 0x9e3779b97f4a7c15ull;
  for (int i = 0; i < 200000; i++) {
    s = s * 6364136223846793005ull + 1442695040888963407ull;
    uint64_t bits = (s >> 1) & 0x3fffffffffffffffull; /* exponents up to 2^1 */
    bits = (bits & 0x800fffffffffffffull) | ((uint64_t)(990 + (s >> 58) % 48) << 52);
    double v;
    memcpy(&v, &bits, 8);
    _Float16 ref = (_Float16)v;
    uint16_t rb;
    memcpy(&rb, &ref, 2);
    CHECK_MSG(h(v) == rb, "%a: 0x%04x vs 0x%04x", v, h(v), rb);
  }
#endif
}

static void test_bfloat16(void) {
  CHECK(bf(1.0) == 0x3f80);
  CHECK(bf(-0.0) == 0x8000);
  CHECK(bf(1.0 + 0x1p-8) == 0x3f80); /* tie to even */
  CHECK(bf(1.0 + 3 * 0x1p-8) == 0x3f82);
  CHECK(bf(1.0 + 0x1p-8 + 0x1p-40) == 0x3f81);
  CHECK(bf(0x1.fep127) == 0x7f7f);
  CHECK(bf(0x1.ffp127) == 0x7f80); /* the tie above the largest: inf */
  CHECK(bf(0x1p-133) == 0x0001);   /* the smallest subnormal */
  CHECK(bf(0x1p-134) == 0x0000);
  CHECK((bf(NAN) & 0x7f80) == 0x7f80 && (bf(NAN) & 0x7f) != 0);
  /* A float32 is the top half of its bits when exact. */
  CHECK(bf(3.140625) == 0x4049);
  CHECK(ir_half_from_i64(DT_BFLOAT16, 257) == 0x4380); /* tie: 256 */
  CHECK(ir_half_from_u64(DT_BFLOAT16, (1ull << 63) + (1ull << 55) + 1) == 0x5f01);
  for (unsigned b = 0; b < 0x10000; b++) {
    double v = ir_half_to_f64(DT_BFLOAT16, (uint16_t)b);
    if (!isnan(v))
      CHECK_MSG(bf(v) == b, "bfloat16 0x%04x", b);
    else {
      float f;
      uint32_t w = (uint32_t)b << 16;
      memcpy(&f, &w, 4);
      CHECK(isnan(f));
    }
  }
}

/* A one-element tensor of dtype dt. */
static Tensor *one(Module *m, DType dt) {
  int64_t shape[1] = {1};
  return ir_tensor_new(m->arena, dt, 1, shape);
}

static void test_ints(void) {
  Module *m = ir_module_new();
  Tensor *t = one(m, DT_UINT64);
  ir_tensor_set_u64(t, 0, UINT64_MAX);
  CHECK(ir_tensor_get_u64(t, 0) == UINT64_MAX);
  CHECK(ir_tensor_get_f64(t, 0) == 18446744073709551616.0);
  ir_tensor_set_f64(t, 0, 1e30);
  CHECK(ir_tensor_get_u64(t, 0) == UINT64_MAX);
  ir_tensor_set_f64(t, 0, -5);
  CHECK(ir_tensor_get_u64(t, 0) == 0);
  ir_tensor_set_f64(t, 0, NAN);
  CHECK(ir_tensor_get_u64(t, 0) == 0);
  ir_tensor_set_i64(t, 0, -1); /* wraps */
  CHECK(ir_tensor_get_u64(t, 0) == UINT64_MAX);
  Tensor *u8 = one(m, DT_UINT8);
  ir_tensor_set_i64(u8, 0, -1);
  CHECK(ir_tensor_get_i64(u8, 0) == 255);
  ir_tensor_set_f64(u8, 0, 300.5);
  CHECK(ir_tensor_get_i64(u8, 0) == 255);
  ir_tensor_set_f64(u8, 0, -0.5);
  CHECK(ir_tensor_get_i64(u8, 0) == 0);
  Tensor *i16 = one(m, DT_INT16);
  ir_tensor_set_i64(i16, 0, 40000);
  CHECK(ir_tensor_get_i64(i16, 0) == 40000 - 65536);
  ir_tensor_set_f64(i16, 0, -1e9);
  CHECK(ir_tensor_get_i64(i16, 0) == -32768);
  Tensor *u32 = one(m, DT_UINT32);
  ir_tensor_set_f64(u32, 0, 4294967295.9);
  CHECK(ir_tensor_get_i64(u32, 0) == 4294967295);
  Tensor *f = one(m, DT_FLOAT32);
  ir_tensor_set_u64(f, 0, UINT64_MAX);
  CHECK(ir_tensor_get_f64(f, 0) == 18446744073709551616.0);
  CHECK(ir_dtype_is_unsigned(DT_UINT16) && !ir_dtype_is_unsigned(DT_INT16));
  CHECK(ir_dtype_is_int(DT_UINT64) && !ir_dtype_is_int(DT_BOOL) && !ir_dtype_is_int(DT_FLOAT16));
  CHECK(ir_dtype_is_float(DT_BFLOAT16));
  ir_module_free(m);
}

/* Print @main() { c } for constant c, parse it back and compare bits. */
static void round_trip(const Tensor *c) {
  Module *m = ir_module_new();
  Tensor *copy = ir_tensor_new(m->arena, c->dtype, c->rank, c->shape);
  memcpy(copy->data, c->data, (size_t)c->numel * (size_t)ir_dtype_size(c->dtype));
  ir_def(m, "main", ir_func(m, 0, NULL, NULL, ir_const(m, copy)));
  char *text = ir_print_module(m);
  Diag d;
  diag_init(&d, "rt", text);
  Module *back = ir_parse_module(text, strlen(text), "rt", &d);
  CHECK_MSG(back != NULL, "%s: %s", text, d.first);
  if (back) {
    GlobalFn *g = ir_global_get(back, "main");
    const Expr *body = g && g->func ? g->func->func.body : NULL;
    CHECK_MSG(body && body->kind == EX_CONST && ir_tensor_identical(body->constant, copy), "%s",
              text);
    char *again = ir_print_module(back);
    CHECK_STR(again, text);
    free(again);
    ir_module_free(back);
  }
  diag_free(&d);
  free(text);
  ir_module_free(m);
}

static void test_text(void) {
  Module *m = ir_module_new();
  uint64_t s = 1;
  for (int dt = 0; dt < DT_COUNT; dt++) {
    int size = ir_dtype_size((DType)dt);
    for (int k = 0; k < 3000; k++) {
      int64_t shape[1] = {3};
      Tensor *t = ir_tensor_new(m->arena, (DType)dt, k % 2 ? 0 : 1, shape);
      for (int64_t i = 0; i < t->numel * size; i++) {
        s = s * 6364136223846793005ull + 1442695040888963407ull;
        ((uint8_t *)t->data)[i] = (uint8_t)(s >> 56);
      }
      if (dt == DT_BOOL)
        for (int64_t i = 0; i < t->numel; i++)
          ((uint8_t *)t->data)[i] &= 1;
      round_trip(t);
    }
  }
  ir_module_free(m);
  /* TVM's suffixes read into their dtypes. */
  const char *src = "def @main() { (1f16, -2i16, 0.1f16, 65504f16) }";
  Diag d;
  diag_init(&d, "s", src);
  Module *p = ir_parse_module(src, strlen(src), "s", &d);
  CHECK_MSG(p != NULL, "%s", d.first);
  if (p) {
    Expr *tup = ir_global_get(p, "main")->func->func.body;
    CHECK(tup->tuple.fields[0]->constant->dtype == DT_FLOAT16);
    CHECK(tup->tuple.fields[1]->constant->dtype == DT_INT16);
    CHECK(*(uint16_t *)tup->tuple.fields[2]->constant->data == 0x2e66);
    ir_module_free(p);
  }
  diag_free(&d);
  const char *bad = "def @main() { 65520f16 }";
  diag_init(&d, "s", bad);
  CHECK(ir_parse_module(bad, strlen(bad), "s", &d) == NULL);
  diag_free(&d);
}

int main(void) {
  test_float16();
  test_bfloat16();
  test_ints();
  test_text();
  return test_summary();
}
