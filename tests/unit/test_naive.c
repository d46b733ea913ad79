/* The naive kernels (oracle/naive) and the kernel check (oracle.h,
 * ORACLE_KERNEL, kernel_fuzzer):
 *   - every operator has a naive kernel;
 *   - the naive kernels give the documented answers where the definition
 *     is subtle (signed zeros, NaN, wrapping, clamped and wrapped indices);
 *   - a bounded sweep of every operator through the kernel check finds
 *     the kernels and their references agreeing, never skipping a case;
 *   - with the test build's kernel fault (sum and mean leave out the last
 *     element of each reduced block) the same sweep finds it, in sum and
 *     mean only. */
#include <math.h>
#include <string.h>

#include "generator/choice.h"
#include "oracle/naive/naive.h"
#include "targets/targets.h"
#include "test.h"

static Arena *A;

static Tensor *vec(DType dt, int n, const double *v) {
  int64_t shape[1] = {n};
  Tensor *t = ir_tensor_new(A, dt, 1, shape);
  for (int i = 0; i < n; i++)
    nv_put_f(t, i, v[i]);
  return t;
}

/* The naive kernel of op on args into one output of out's dtype and shape. */
static Tensor *run(OpId op, Tensor **args, int n, const Attrs *at, DType dt, int rank,
                   const int64_t *shape) {
  Tensor *out = ir_tensor_new(A, dt, rank, shape);
  nv_op(op)->kernel(op, args, n, at, &out, 1);
  return out;
}

static bool bits(const Tensor *t, int64_t i, double want) {
  double got = nv_f(t, i);
  return (isnan(got) && isnan(want)) || memcmp(&got, &want, sizeof got) == 0;
}

static void complete(void) {
  for (int op = 0; op < OP_COUNT; op++)
    CHECK_MSG(nv_op((OpId)op) && nv_op((OpId)op)->kernel, "%s has no naive kernel",
              ir_op_name((OpId)op));
}

static void definitions(void) {
  int64_t two[1] = {2}, one[1] = {1};
  /* clip(-0) with a_min 0 stays -0 (x < a_min is false), NaN stays NaN */
  Attrs at = {0};
  ir_attr_set_float(A, &at, "a_min", 0);
  Tensor *x = vec(DT_FLOAT64, 2, (double[]){-0.0, NAN});
  Tensor *r = run(OP_CLIP, &x, 1, &at, DT_FLOAT64, 1, two);
  CHECK(bits(r, 0, -0.0) && isnan(nv_f(r, 1)));
  /* full(255) into int8 wraps, as cast converts integers */
  Tensor *f = ir_tensor_new(A, DT_INT64, 0, NULL);
  nv_put_i(f, 0, 255);
  CHECK(nv_i(run(OP_FULL, &f, 1, NULL, DT_INT8, 1, one), 0) == -1);
  /* integer division: x / 0 = 0, MIN / -1 = MIN */
  Tensor *d[2] = {vec(DT_INT8, 2, (double[]){-128, 7}), vec(DT_INT8, 2, (double[]){-1, 0})};
  r = run(OP_DIVIDE, d, 2, NULL, DT_INT8, 1, two);
  CHECK(nv_i(r, 0) == -128 && nv_i(r, 1) == 0);
  /* argmax: the first NaN; then +0 above -0 */
  Tensor *m = vec(DT_FLOAT32, 4, (double[]){-0.0, 0.0, NAN, NAN});
  CHECK(nv_i(run(OP_ARGMAX, &m, 1, NULL, DT_INT32, 0, NULL), 0) == 2);
  m = vec(DT_FLOAT32, 3, (double[]){-0.0, 0.0, 0.0});
  CHECK(nv_i(run(OP_ARGMAX, &m, 1, NULL, DT_INT32, 0, NULL), 0) == 1);
  CHECK(nv_i(run(OP_ARGMIN, &m, 1, NULL, DT_INT32, 0, NULL), 0) == 0);
  /* the mean of no floats is NaN */
  int64_t none[1] = {0};
  Tensor *e = ir_tensor_new(A, DT_FLOAT64, 1, none);
  CHECK(isnan(nv_f(run(OP_MEAN, &e, 1, NULL, DT_FLOAT64, 0, NULL), 0)));
  /* strided_slice with a negative stride from past the end: [4, 2, 0] */
  Tensor *s = vec(DT_INT32, 5, (double[]){0, 1, 2, 3, 4});
  Attrs sl = {0};
  ir_attr_set_ints(A, &sl, "begin", 1, (int64_t[]){99});
  ir_attr_set_ints(A, &sl, "end", 1, (int64_t[]){-99});
  ir_attr_set_ints(A, &sl, "strides", 1, (int64_t[]){-2});
  r = run(OP_STRIDED_SLICE, &s, 1, &sl, DT_INT32, 1, (int64_t[]){3});
  CHECK(nv_i(r, 0) == 4 && nv_i(r, 1) == 2 && nv_i(r, 2) == 0);
  /* take: wrap and clip */
  Tensor *tk[2] = {s, vec(DT_INT64, 3, (double[]){-1, 7, 2})};
  Attrs wrap = {0};
  ir_attr_set_str(A, &wrap, "mode", "wrap");
  r = run(OP_TAKE, tk, 2, &wrap, DT_INT32, 1, (int64_t[]){3});
  CHECK(nv_i(r, 0) == 4 && nv_i(r, 1) == 2 && nv_i(r, 2) == 2);
  r = run(OP_TAKE, tk, 2, NULL, DT_INT32, 1, (int64_t[]){3});
  CHECK(nv_i(r, 0) == 0 && nv_i(r, 1) == 4 && nv_i(r, 2) == 2);
  /* pad reflect: [2, 1, 0, 1, 2, 3, 4, 3] */
  Attrs pd = {0};
  ir_attr_set_str(A, &pd, "pad_mode", "reflect");
  int64_t widths[2] = {2, 1};
  const Attr pw = {"pad_width", AV_PAIRS, 0, 0, NULL, 1, widths};
  Attr items[2] = {pd.items[0], pw};
  Attrs pads = {2, items};
  Tensor *pa[2] = {s, ir_tensor_new(A, DT_INT32, 0, NULL)};
  r = run(OP_PAD, pa, 2, &pads, DT_INT32, 1, (int64_t[]){8});
  static const int want[8] = {2, 1, 0, 1, 2, 3, 4, 3};
  for (int i = 0; i < 8; i++)
    CHECK(nv_i(r, i) == want[i]);
}

/* cases per operator through kernel_fuzzer's check; the failures per
 * operator into fails (NULL: none allowed). */
static void sweep(const char *fault, int *fails) {
  OracleHarness h;
  CHECK(rs_harness_get("kernel_fuzzer", &h));
  char *argv[] = {"test", (char *)fault, NULL};
  OracleConfig c;
  char err[256];
  CHECK(oracle_init(&c, &h, fault ? 2 : 1, argv, err, sizeof err));
  uint64_t s = 5;
  for (int op = 0; op < OP_COUNT; op++)
    for (int k = 0; k < 60; k++) {
      uint8_t b[300];
      size_t n = 17 + s % 280;
      for (size_t i = 0; i < n; i++) {
        s = s * 6364136223846793005ull + 1442695040888963407ull;
        b[i] = (uint8_t)(s >> 56);
      }
      b[0] = (uint8_t)(k % 3); /* default, tiny and small tensors */
      gen_choice_encode((uint32_t)op, OP_COUNT, &b[GEN_HEADER_BYTES]);
      Verdict v;
      bool ok = oracle_check(&c, &(OracleInput){.data = b, .size = n}, &v);
      CHECK_MSG(!v.skipped, "%s: a case skipped", ir_op_name((OpId)op));
      if (!fails)
        CHECK_MSG(ok, "%s: %s", ir_op_name((OpId)op), v.detail ? v.detail : "");
      else if (!ok && strcmp(v.oracle, "kernel") == 0)
        fails[op]++;
      verdict_free(&v);
    }
}

int main(void) {
  A = arena_new();
  complete();
  definitions();
  sweep(NULL, NULL);
#ifdef RS_TEST_PASSES
  int fails[OP_COUNT] = {0};
  sweep("-fault=kernel_sum_last", fails);
  for (int op = 0; op < OP_COUNT; op++)
    CHECK_MSG((fails[op] > 0) == (op == OP_SUM || op == OP_MEAN), "%s: %d cases fail",
              ir_op_name((OpId)op), fails[op]);
#endif
  arena_free(A);
  return test_summary();
}
