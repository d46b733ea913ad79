/*
 * The gather family (compiler/ops/gather.c): TVM's values for gather,
 * gather_nd and scatter_elements on small cases, the edge cases relayc
 * defines (negative and out-of-range indices, duplicates, empty axes,
 * integer wrap in the reductions), the relations' errors and Any dims,
 * and a loop of random argument types and attributes through relation
 * and kernel (ASan and UBSan watch both).
 */
#include <math.h>

#include "compiler/ops/op_int.h"
#include "test.h"

static Arena *A;

#define SHAPE(...) ((const int64_t[]){__VA_ARGS__})
#define NDIMS(...) ((int)(sizeof((int64_t[]){__VA_ARGS__}) / sizeof(int64_t)))
#define T(dt, ...) ir_tensor_type(A, dt, NDIMS(__VA_ARGS__), SHAPE(__VA_ARGS__))
#define VALS(...) ((const double[]){__VA_ARGS__})

/* A tensor of dtype dt and the given shape holding vals (converted). */
static Tensor *tensor(DType dt, int rank, const int64_t *shape, const double *vals) {
  Tensor *t = ir_tensor_new(A, dt, rank, shape);
  for (int64_t i = 0; vals && i < t->numel; i++)
    ir_tensor_set_f64(t, i, vals[i]);
  return t;
}
#define TS(dt, shape, vals) tensor(dt, (int)(sizeof(shape) / sizeof(int64_t)), shape, vals)

/* op on the arguments through op_eval; NULL (with the message printed)
 * when the relation rejects them. */
static Tensor *run(OpId op, Tensor **args, int nargs, const Attrs *at) {
  Tensor *outs[4];
  char err[256];
  if (op_eval(op, args, nargs, at, A, outs, 4, err, sizeof err) != 1) {
    fprintf(stderr, "op_eval: %s\n", err);
    return NULL;
  }
  return outs[0];
}

/* t has this shape and these values (NaN equal to NaN). */
static bool is(const Tensor *t, int rank, const int64_t *shape, const double *vals) {
  if (!t || t->rank != rank || memcmp(t->shape, shape, sizeof(int64_t) * (size_t)rank) != 0)
    return false;
  for (int64_t i = 0; i < t->numel; i++) {
    double v = ir_tensor_get_f64(t, i);
    if (!(v == vals[i] || (isnan(v) && isnan(vals[i]))))
      return false;
  }
  return true;
}
#define CHECK_T(t, shape, vals) CHECK(is(t, (int)(sizeof(shape) / sizeof(int64_t)), shape, vals))

/* The relation's result for the argument types, as "(2, 3) float32", or
 * its error message. */
static char msg[256];
static const char *relate(OpId op, Type **args, int nargs, const Attrs *at) {
  Type *out = NULL;
  RelStatus s = op_table[op].rel(op, args, nargs, at, A, &out, msg, sizeof msg);
  if (s == REL_OK)
    op_type_str(out, msg, sizeof msg);
  else if (s == REL_DEFER)
    snprintf(msg, sizeof msg, "defer");
  return msg;
}
#define CHECK_REL(op, want, at, ...)                                                               \
  do {                                                                                             \
    Type *targs_[] = {__VA_ARGS__};                                                                \
    CHECK_STR(relate(op, targs_, (int)(sizeof targs_ / sizeof *targs_), at), want);                \
  } while (0)

static Attrs attrs(void) {
  return (Attrs){0};
}
static Attrs *with_int(Attrs *at, const char *name, int64_t v) {
  ir_attr_set_int(A, at, name, v);
  return at;
}
static Attrs *with_str(Attrs *at, const char *name, const char *v) {
  ir_attr_set_str(A, at, name, v);
  return at;
}

/* ---------------------------------------------------------------- gather */

static void test_gather(void) {
  Attrs at = attrs();
  Tensor *x = TS(DT_FLOAT32, SHAPE(2, 2), VALS(1, 2, 3, 4));
  /* torch.gather / TVM's docstring: out[i][j] = data[i][I[i][j]] (axis 1) */
  Tensor *a1[] = {x, TS(DT_INT32, SHAPE(2, 2), VALS(0, 0, 1, 0))};
  CHECK_T(run(OP_GATHER, a1, 2, with_int(&at, "axis", 1)), SHAPE(2, 2), VALS(1, 1, 4, 3));
  /* out[i][j] = data[I[i][j]][j] (axis 0, written -2); more indices than data */
  at = attrs();
  Tensor *a0[] = {x, TS(DT_INT64, SHAPE(3, 2), VALS(1, 0, 0, 0, 1, 1))};
  CHECK_T(run(OP_GATHER, a0, 2, with_int(&at, "axis", -2)), SHAPE(3, 2), VALS(3, 2, 1, 2, 3, 4));
  /* negative indices count from the end once, the rest clamp */
  at = attrs();
  Tensor *an[] = {x, TS(DT_INT32, SHAPE(2, 2), VALS(-1, 5, -3, 0))};
  CHECK_T(run(OP_GATHER, an, 2, with_int(&at, "axis", 1)), SHAPE(2, 2), VALS(2, 2, 3, 3));
  /* an empty axis gives zeros */
  at = attrs();
  Tensor *ae[] = {TS(DT_INT8, SHAPE(2, 0), NULL), TS(DT_INT32, SHAPE(2, 1), VALS(3, -1))};
  CHECK_T(run(OP_GATHER, ae, 2, with_int(&at, "axis", 1)), SHAPE(2, 1), VALS(0, 0));

  at = attrs();
  with_int(&at, "axis", 1);
  CHECK_REL(OP_GATHER, "(2, 5) float32", &at, T(DT_FLOAT32, 2, 3), T(DT_INT32, 2, 5));
  CHECK_REL(OP_GATHER, "(2, 5) float32", &at, T(DT_FLOAT32, IR_DIM_ANY, 3), T(DT_INT32, 2, 5));
  CHECK_REL(OP_GATHER, "(2, ?) float32", &at, T(DT_FLOAT32, 2, 3),
            T(DT_INT32, IR_DIM_ANY, IR_DIM_ANY));
  CHECK_REL(OP_GATHER, "indices have 3 elements along axis 0, data 2", &at, T(DT_FLOAT32, 2, 3),
            T(DT_INT32, 3, 5));
  CHECK_REL(OP_GATHER, "indices have rank 1, data 2 (they must be equal)", &at, T(DT_FLOAT32, 2, 3),
            T(DT_INT32, 2));
  CHECK_REL(OP_GATHER, "indices must have an integer dtype, got float32", &at, T(DT_FLOAT32, 2, 3),
            T(DT_FLOAT32, 2, 3));
  CHECK_REL(OP_GATHER, "indices have no element along axis 1", &at, T(DT_FLOAT32, 2, 3),
            T(DT_INT64, 2, 0));
  at = attrs();
  CHECK_REL(OP_GATHER, "axis is required", &at, T(DT_FLOAT32, 2, 3), T(DT_INT32, 2, 3));
  CHECK_REL(OP_GATHER, "axis 2 is out of range for rank 2", with_int(&at, "axis", 2),
            T(DT_FLOAT32, 2, 3), T(DT_INT32, 2, 3));
}

/* ------------------------------------------------------------- gather_nd */

static void test_gather_nd(void) {
  Attrs at = attrs();
  Tensor *x = TS(DT_FLOAT64, SHAPE(2, 2), VALS(0, 1, 2, 3));
  /* TVM's test_gather_nd: out[y] = data[I[0, y], I[1, y]] */
  Tensor *a[] = {x, TS(DT_INT32, SHAPE(2, 2), VALS(1, 0, 0, 1))};
  CHECK_T(run(OP_GATHER_ND, a, 2, &at), SHAPE(2), VALS(2, 1));
  /* M = 1: whole rows */
  Tensor *b[] = {x, TS(DT_INT64, SHAPE(1, 2), VALS(1, 0))};
  CHECK_T(run(OP_GATHER_ND, b, 2, &at), SHAPE(2, 2), VALS(2, 3, 0, 1));
  /* batch_dims 1: out[y0, z] = data[y0, I[0, y0], z] */
  Tensor *x3 = TS(DT_INT32, SHAPE(2, 2, 2), VALS(0, 1, 2, 3, 4, 5, 6, 7));
  Tensor *c[] = {x3, TS(DT_INT32, SHAPE(1, 2), VALS(1, 0))};
  CHECK_T(run(OP_GATHER_ND, c, 2, with_int(&at, "batch_dims", 1)), SHAPE(2, 2), VALS(2, 3, 4, 5));
  /* out-of-range and negative indices; float indices convert toward zero */
  at = attrs();
  Tensor *d[] = {x, TS(DT_FLOAT32, SHAPE(2, 3), VALS(-1, 9, 1.7, 0, -5, 1.9))};
  CHECK_T(run(OP_GATHER_ND, d, 2, &at), SHAPE(3), VALS(2, 2, 3));
  /* M = 0: the data itself for each index position */
  Tensor *e[] = {TS(DT_INT8, SHAPE(2), VALS(5, 6)), TS(DT_INT32, SHAPE(0, 3), NULL)};
  CHECK_T(run(OP_GATHER_ND, e, 2, &at), SHAPE(3, 2), VALS(5, 6, 5, 6, 5, 6));
  /* an empty data tensor gives zeros */
  Tensor *f[] = {TS(DT_INT8, SHAPE(0, 2), NULL), TS(DT_INT32, SHAPE(1, 2), VALS(0, 1))};
  CHECK_T(run(OP_GATHER_ND, f, 2, &at), SHAPE(2, 2), VALS(0, 0, 0, 0));

  CHECK_REL(OP_GATHER_ND, "(4, 5, 3) float32", &at, T(DT_FLOAT32, 2, 2, 3), T(DT_INT32, 2, 4, 5));
  CHECK_REL(OP_GATHER_ND, "(4, 5) float32", &at, T(DT_FLOAT32, 2, 2), T(DT_INT32, 2, 4, 5));
  CHECK_REL(OP_GATHER_ND, "indices must have rank at least 1", &at, T(DT_FLOAT32, 2, 2),
            ir_tensor_type(A, DT_INT32, 0, NULL));
  CHECK_REL(OP_GATHER_ND, "3 indexed dims after 0 batch dims exceed the data's rank 2", &at,
            T(DT_FLOAT32, 2, 2), T(DT_INT32, 3, 4));
  CHECK_REL(OP_GATHER_ND, "the indices' first dim must be static (or index_rank given)", &at,
            T(DT_FLOAT32, 2, 2), T(DT_INT32, IR_DIM_ANY, 4));
  with_int(&at, "index_rank", 1);
  CHECK_REL(OP_GATHER_ND, "(4, 2) float32", &at, T(DT_FLOAT32, 2, 2), T(DT_INT32, IR_DIM_ANY, 4));
  CHECK_REL(OP_GATHER_ND, "index_rank 1 differs from the indices' first dim 2", &at,
            T(DT_FLOAT32, 2, 2), T(DT_INT32, 2, 4));
  at = attrs();
  with_int(&at, "batch_dims", 1);
  CHECK_REL(OP_GATHER_ND, "(2, 3) float32", &at, T(DT_FLOAT32, 2, 4, 3), T(DT_INT32, 1, 2));
  CHECK_REL(OP_GATHER_ND, "(2, 3) float32", &at, T(DT_FLOAT32, IR_DIM_ANY, 4, 3),
            T(DT_INT32, 1, 2));
  CHECK_REL(OP_GATHER_ND, "batch dim 0: data has 2, indices 3", &at, T(DT_FLOAT32, 2, 4, 3),
            T(DT_INT32, 1, 3));
  CHECK_REL(OP_GATHER_ND, "batch_dims 1 is out of range [0, 0]", &at, T(DT_FLOAT32, 2, 4, 3),
            T(DT_INT32, 1));
}

/* ------------------------------------------------------ scatter_elements */

/* scatter_elements of int32 [1, 2, 3, 4, 5] at indices [1, 1, -1, 7] by
 * [10, 20, 30, 40] with reduction red. */
static Tensor *scatter_dup(const char *red) {
  Attrs at = attrs();
  Tensor *a[] = {TS(DT_INT32, SHAPE(5), VALS(1, 2, 3, 4, 5)),
                 TS(DT_INT64, SHAPE(4), VALS(1, 1, -1, 7)),
                 TS(DT_INT32, SHAPE(4), VALS(10, 20, 30, 40))};
  return run(OP_SCATTER_ELEMENTS, a, 3, with_str(&at, "reduction", red));
}

static void test_scatter_elements(void) {
  Attrs at = attrs();
  /* ONNX's ScatterElements example (TVM's test_scatter_elements). */
  Tensor *a[] = {TS(DT_FLOAT32, SHAPE(3, 3), NULL),
                 TS(DT_INT32, SHAPE(2, 3), VALS(1, 0, 2, 0, 2, 1)),
                 TS(DT_FLOAT32, SHAPE(2, 3), VALS(1, 2, 3, 4, 5, 6))};
  CHECK_T(run(OP_SCATTER_ELEMENTS, a, 3, &at), SHAPE(3, 3), VALS(4, 2, 0, 1, 0, 6, 0, 5, 3));
  /* axis 1, indices narrower than the data */
  Tensor *b[] = {TS(DT_FLOAT32, SHAPE(1, 5), VALS(1, 2, 3, 4, 5)),
                 TS(DT_INT32, SHAPE(1, 2), VALS(1, 3)),
                 TS(DT_FLOAT32, SHAPE(1, 2), VALS(1.5, 2.5))};
  CHECK_T(run(OP_SCATTER_ELEMENTS, b, 3, with_int(&at, "axis", 1)), SHAPE(1, 5),
          VALS(1, 1.5, 3, 2.5, 5));
  /* duplicates in row-major order; -1 is the last; 7 clamps to the last */
  CHECK_T(scatter_dup("update"), SHAPE(5), VALS(1, 20, 3, 4, 40));
  CHECK_T(scatter_dup("add"), SHAPE(5), VALS(1, 32, 3, 4, 75));
  CHECK_T(scatter_dup("mul"), SHAPE(5), VALS(1, 400, 3, 4, 6000));
  CHECK_T(scatter_dup("mean"), SHAPE(5), VALS(1, 13, 3, 4, 28));
  CHECK_T(scatter_dup("min"), SHAPE(5), VALS(1, 2, 3, 4, 5));
  CHECK_T(scatter_dup("max"), SHAPE(5), VALS(1, 20, 3, 4, 40));
  /* int8 wraps: 100 + 100 = -56; mean truncates toward zero */
  at = attrs();
  Tensor *c[] = {TS(DT_INT8, SHAPE(2), VALS(100, -3)), TS(DT_INT32, SHAPE(2), VALS(0, 1)),
                 TS(DT_INT8, SHAPE(2), VALS(100, 0))};
  CHECK_T(run(OP_SCATTER_ELEMENTS, c, 3, with_str(&at, "reduction", "add")), SHAPE(2),
          VALS(-56, -3));
  at = attrs();
  CHECK_T(run(OP_SCATTER_ELEMENTS, c, 3, with_str(&at, "reduction", "mean")), SHAPE(2),
          VALS(-28, -1));
  /* float mean: the sum rounded to float32 first; min/max: NaN wins */
  at = attrs();
  Tensor *d[] = {TS(DT_FLOAT32, SHAPE(2), VALS(16777216, NAN)), TS(DT_INT32, SHAPE(2), VALS(0, 1)),
                 TS(DT_FLOAT32, SHAPE(2), VALS(1, 1))};
  CHECK_T(run(OP_SCATTER_ELEMENTS, d, 3, with_str(&at, "reduction", "mean")), SHAPE(2),
          VALS(8388608, NAN));
  at = attrs();
  CHECK_T(run(OP_SCATTER_ELEMENTS, d, 3, with_str(&at, "reduction", "min")), SHAPE(2),
          VALS(1, NAN));
  /* nothing written into an empty data tensor */
  at = attrs();
  Tensor *e[] = {TS(DT_FLOAT32, SHAPE(0), NULL), TS(DT_INT32, SHAPE(2), VALS(0, 1)),
                 TS(DT_FLOAT32, SHAPE(2), VALS(1, 1))};
  CHECK(run(OP_SCATTER_ELEMENTS, e, 3, &at) && run(OP_SCATTER_ELEMENTS, e, 3, &at)->numel == 0);

  at = attrs();
  CHECK_REL(OP_SCATTER_ELEMENTS, "(3, 4) int8", &at, T(DT_INT8, 3, 4), T(DT_INT32, 9, 2),
            T(DT_INT8, 9, IR_DIM_ANY));
  CHECK_REL(OP_SCATTER_ELEMENTS, "updates have dtype int32, data int8", &at, T(DT_INT8, 3, 4),
            T(DT_INT32, 9, 2), T(DT_INT32, 9, 2));
  CHECK_REL(OP_SCATTER_ELEMENTS, "indices and updates differ along axis 1: 2 and 3", &at,
            T(DT_INT8, 3, 4), T(DT_INT32, 9, 2), T(DT_INT8, 9, 3));
  CHECK_REL(OP_SCATTER_ELEMENTS, "indices have 5 elements along axis 1, data only 4", &at,
            T(DT_INT8, 3, 4), T(DT_INT32, 1, 5), T(DT_INT8, 1, 5));
  CHECK_REL(OP_SCATTER_ELEMENTS, "indices and updates must have the data's rank 2, got 1 and 1",
            &at, T(DT_INT8, 3, 4), T(DT_INT32, 1), T(DT_INT8, 1));
  CHECK_REL(OP_SCATTER_ELEMENTS, "reduction add needs a numeric dtype, got bool",
            with_str(&at, "reduction", "add"), T(DT_BOOL, 3), T(DT_INT32, 1), T(DT_BOOL, 1));
  at = attrs();
  CHECK_REL(OP_SCATTER_ELEMENTS,
            "reduction must be update, add, mul, mean, min or max, got \"sum\"",
            with_str(&at, "reduction", "sum"), T(DT_INT8, 3), T(DT_INT32, 1), T(DT_INT8, 1));
}

/* ----------------------------------------------------- random arguments */

/* xorshift */
static uint64_t rs = 0x9e3779b97f4a7c15ull;
static int64_t rnd(int64_t n) {
  rs ^= rs << 13;
  rs ^= rs >> 7;
  rs ^= rs << 17;
  return n <= 1 ? 0 : (int64_t)(rs % (uint64_t)n);
}

/* A random tensor type: rank 0..4, dims 0..4, some dtype. */
static Type *rand_type(void) {
  int64_t shape[IR_MAX_RANK];
  int r = (int)rnd(5);
  for (int i = 0; i < r; i++)
    shape[i] = rnd(8) == 0 ? 0 : 1 + rnd(4);
  return ir_tensor_type(A, (DType)rnd(DT_COUNT), r, shape);
}

/* Relations are total on random types and attributes, and when they
 * accept, the kernel runs on random data without a sanitizer report. */
static void test_random(void) {
  static const OpId ops[] = {OP_GATHER, OP_GATHER_ND, OP_SCATTER_ELEMENTS};
  static const char *strs[] = {"update", "add", "mul", "mean", "min", "max", "x"};
  int accepted = 0;
  for (int it = 0; it < 30000; it++) {
    Arena *saved = A;
    A = arena_new();
    OpId op = ops[rnd(3)];
    Attrs at = attrs();
    if (rnd(4))
      with_int(&at, op == OP_GATHER_ND ? "batch_dims" : "axis", rnd(7) - 3);
    if (op == OP_GATHER_ND && rnd(3) == 0)
      with_int(&at, "index_rank", rnd(4));
    if (op == OP_SCATTER_ELEMENTS && rnd(2))
      with_str(&at, "reduction", strs[rnd(7)]);
    int nargs = op == OP_SCATTER_ELEMENTS ? 3 : 2;
    Type *args[3];
    Tensor *vals[3];
    for (int i = 0; i < nargs; i++)
      args[i] = rand_type();
    if (rnd(2)) /* often related shapes */
      for (int i = 1; i < nargs; i++)
        args[i] =
            ir_tensor_type(A, args[i]->tensor.dtype, args[0]->tensor.rank, args[0]->tensor.shape);
    if (rnd(4))
      args[1]->tensor.dtype = rnd(2) ? DT_INT32 : DT_INT64;
    if (nargs == 3 && rnd(2))
      args[2]->tensor.dtype = args[0]->tensor.dtype;
    Type *out;
    if (op_table[op].rel(op, args, nargs, &at, A, &out, msg, sizeof msg) == REL_OK) {
      accepted++;
      for (int i = 0; i < nargs; i++) {
        vals[i] = ir_tensor_of_type(A, args[i]);
        for (int64_t k = 0; k < vals[i]->numel; k++)
          ir_tensor_set_f64(vals[i], k, (double)(rnd(13) - 6));
      }
      Tensor *o[2];
      CHECK(op_eval(op, vals, nargs, &at, A, o, 2, msg, sizeof msg) == 1);
    }
    arena_free(A);
    A = saved;
  }
  CHECK_MSG(accepted > 1000, "only %d accepted", accepted);
}

int main(void) {
  void (*tests[])(void) = {test_gather, test_gather_nd, test_scatter_elements, test_random};
  for (size_t i = 0; i < sizeof tests / sizeof *tests; i++) {
    A = arena_new();
    tests[i]();
    arena_free(A);
  }
  return test_summary();
}
