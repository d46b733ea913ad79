/*
 * arange (compiler/ops/arange.c) through op_eval (relation, value type,
 * kernel) on small cases with TVM's values (numpy's: topi's arange for
 * constant operands), each step of a float in its dtype, the defined
 * run-time errors (step 0, a length not positive, NaN or infinite, above
 * 2^31 - 1), the relation's Any result and rejections, the solver's
 * constants giving exactly the wanted length, and fold_constant leaving
 * it unfolded.
 */
#include "generator/choice.h"
#include "kernel_cases.h"

static Tensor *sc(DType dt, double v) {
  return mk(dt, 0, NULL, VA(v));
}

static Attrs *dtype(const char *dt) {
  Attrs *at = attrs();
  ir_attr_set_str(A, at, "dtype", dt);
  return at;
}

static void test_values(void) {
  CHECK_T(RUN(OP_ARANGE, &none, sc(DT_FLOAT32, 0), sc(DT_FLOAT32, 5), sc(DT_FLOAT32, 1)),
          DT_FLOAT32, 1, SH(5), VA(0, 1, 2, 3, 4));
  CHECK_T(RUN(OP_ARANGE, &none, sc(DT_FLOAT32, 1), sc(DT_FLOAT32, 2.5), sc(DT_FLOAT32, 0.5)),
          DT_FLOAT32, 1, SH(3), VA(1, 1.5, 2));
  /* ceil: 10 / 3 gives 4 elements; a negative step counts down */
  CHECK_T(RUN(OP_ARANGE, dtype("int32"), sc(DT_INT32, 0), sc(DT_INT32, 10), sc(DT_INT32, 3)),
          DT_INT32, 1, SH(4), VA(0, 3, 6, 9));
  CHECK_T(RUN(OP_ARANGE, dtype("int64"), sc(DT_INT64, 5), sc(DT_INT64, 0), sc(DT_INT64, -2)),
          DT_INT64, 1, SH(3), VA(5, 3, 1));
  CHECK_T(RUN(OP_ARANGE, dtype("float64"), sc(DT_FLOAT64, -1), sc(DT_FLOAT64, -2.5),
              sc(DT_FLOAT64, -0.5)),
          DT_FLOAT64, 1, SH(3), VA(-1, -1.5, -2));
  CHECK_T(RUN(OP_ARANGE, dtype("uint8"), sc(DT_UINT8, 250), sc(DT_UINT8, 255), sc(DT_UINT8, 2)),
          DT_UINT8, 1, SH(3), VA(250, 252, 254));
  /* float16: the sum rounds to float16 (2049 ties to 2048, 2051 to 2052) */
  CHECK_T(RUN(OP_ARANGE, dtype("float16"), sc(DT_FLOAT16, 2048), sc(DT_FLOAT16, 2052),
              sc(DT_FLOAT16, 1)),
          DT_FLOAT16, 1, SH(4), VA(2048, 2048, 2050, 2052));
  /* float32: 0.1 * i rounds, then the sum: 1 + 0.1 * 3 is float32's 1.3 */
  CHECK_T(RUN(OP_ARANGE, &none, sc(DT_FLOAT32, 1), sc(DT_FLOAT32, 1.35), sc(DT_FLOAT32, 0.1)),
          DT_FLOAT32, 1, SH(4),
          VA((float)1, (float)(1 + (float)0.1f), (float)(1 + (float)(0.1f * 2)),
             (float)(1 + (float)(0.1f * 3))));
  /* one element */
  CHECK_T(RUN(OP_ARANGE, dtype("int8"), sc(DT_INT8, -128), sc(DT_INT8, 127), sc(DT_INT8, 127)),
          DT_INT8, 1, SH(3), VA(-128, -1, 126));
}

static void test_errors(void) {
  REJECT(OP_ARANGE, &none, "step is zero", sc(DT_FLOAT32, 0), sc(DT_FLOAT32, 1), sc(DT_FLOAT32, 0));
  REJECT(OP_ARANGE, &none, "not positive", sc(DT_FLOAT32, 1), sc(DT_FLOAT32, 1), sc(DT_FLOAT32, 1));
  REJECT(OP_ARANGE, &none, "not positive", sc(DT_FLOAT32, 0), sc(DT_FLOAT32, 5),
         sc(DT_FLOAT32, -1));
  REJECT(OP_ARANGE, &none, "finite", sc(DT_FLOAT32, NAN), sc(DT_FLOAT32, 5), sc(DT_FLOAT32, 1));
  REJECT(OP_ARANGE, &none, "finite", sc(DT_FLOAT32, 0), sc(DT_FLOAT32, INFINITY),
         sc(DT_FLOAT32, 1));
  REJECT(OP_ARANGE, dtype("int64"), "2^31", sc(DT_INT64, 0), sc(DT_INT64, 1ll << 40),
         sc(DT_INT64, 1));
  /* the relation: scalars of the dtype attribute (default float32) */
  REJECT(OP_ARANGE, &none, "scalar", sc(DT_INT32, 0), sc(DT_INT32, 5), sc(DT_INT32, 1));
  REJECT(OP_ARANGE, dtype("int32"), "step", sc(DT_INT32, 0), sc(DT_INT32, 5),
         mk(DT_INT32, 1, SH(1), VA(1)));
  REJECT(OP_ARANGE, dtype("bool"), "numeric", sc(DT_BOOL, 0), sc(DT_BOOL, 1), sc(DT_BOOL, 1));
  Type *s = ir_tensor_type(A, DT_FLOAT32, 0, NULL), *args[3] = {s, s, s}, *out = NULL;
  char err[256];
  CHECK(op_relate(OP_ARANGE, args, 3, &none, A, &out, err, sizeof err) == REL_OK && out &&
        out->tensor.rank == 1 && ir_dim_is_any(out->tensor.shape[0]));
  CHECK(op_value_typed(OP_ARANGE) && !op_value_typed(OP_ADD));
}

/* Every wanted length and dtype: the solver's constants give it exactly. */
static void test_solver(void) {
  static const DType dts[] = {DT_FLOAT32, DT_FLOAT16, DT_BFLOAT16, DT_FLOAT64, DT_INT8,
                              DT_INT32,   DT_UINT8,   DT_UINT64,   DT_INT64};
  for (size_t d = 0; d < sizeof dts / sizeof *dts; d++)
    for (int64_t n = 2; n <= 8; n++)
      for (uint64_t seed = 0; seed < 40; seed++) {
        GenStream st;
        uint8_t bytes[16];
        for (int i = 0; i < 16; i++)
          bytes[i] = (uint8_t)((seed * 2654435761u) >> (i % 24));
        gen_stream_init(&st, bytes, sizeof bytes);
        OpSolveCtx cx = {&st.ch, A, &op_default_limits};
        OpSig sig;
        Type *want = ir_tensor_type(A, dts[d], 1, &n);
        CHECK(solve_arange(OP_ARANGE, want, &cx, &sig) && sig.nargs == 3);
        Tensor *a[3];
        for (int i = 0; i < 3; i++) {
          CHECK(sig.lit[i]);
          a[i] = sc(dts[d], sig.val[i]);
          CHECK_MSG(ir_tensor_get_f64(a[i], 0) == sig.val[i], "%s %g not exact",
                    ir_dtype_name(dts[d]), sig.val[i]);
        }
        Tensor *r = run_k(OP_ARANGE, a, 3, &sig.attrs, 0);
        CHECK_MSG(r && r->numel == n, "%s n=%lld: %s", ir_dtype_name(dts[d]), (long long)n,
                  r ? "wrong length" : last_err);
      }
}

/* fold_constant leaves arange alone, even of constants: its folded
 * static length would make a failing run-time check (the reshape's count
 * below: 6 elements to 5) a static type error. */
static void test_fold(void) {
  CHECK_FOLDS("def @main() -> Tensor[(5), float32] { reshape(arange(-8.5f, -3f, 1f), "
              "newshape=[5]) }",
              "arange(", "never");
}

int main(void) {
  void (*tests[])(void) = {test_values, test_errors, test_solver, test_fold};
  for (size_t i = 0; i < sizeof tests / sizeof *tests; i++) {
    A = arena_new();
    tests[i]();
    arena_free(A);
  }
  return test_summary();
}
