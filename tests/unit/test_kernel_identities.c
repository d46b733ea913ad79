/* Property tests of the kernels (compiler/ops) against mathematical
 * identities, over random tensors: constant folding and the interpreter
 * share the kernels, so no pass oracle sees a kernel bug.  (The naive
 * references of oracle/naive are the other independent check.)
 *
 *   transpose by p, then by p's inverse     = the tensor (bit for bit)
 *   reverse twice, negative twice (ints)    = the tensor
 *   reshape                                 keeps the row-major order
 *   sum over all axes                       = sum over axis 0, then the rest
 *   concatenate, then split at the seams    = the parts
 *   softmax                                 sums to 1 along its axis
 *   tile, then strided_slice the first tile = the tensor
 *
 * With the test build's kernel fault (sum leaves out the last element of
 * each reduced block) the sum identity must fail: the test can. */
#include <math.h>
#include <string.h>

#include "compiler/ir/hash.h"
#include "compiler/ops/op.h"
#include "test.h"

static Arena *A;
static uint64_t rng = 99;

static uint64_t next(void) {
  return hash_splitmix64(&rng);
}

static int64_t below(int64_t n) {
  return n > 0 ? (int64_t)(next() % (uint64_t)n) : 0;
}

/* A random tensor of dtype dt and rank r (dims 1..4); values small
 * integers, or for floats quarters in [-4, 4]. */
static Tensor *rand_tensor(DType dt, int r) {
  int64_t shape[IR_MAX_RANK];
  for (int i = 0; i < r; i++)
    shape[i] = 1 + below(4);
  Tensor *t = ir_tensor_new(A, dt, r, shape);
  for (int64_t i = 0; i < t->numel; i++)
    ir_tensor_set_f64(t, i, (double)(below(33) - 16) / (ir_dtype_is_float(dt) ? 4 : 1));
  return t;
}

static DType rand_dtype(void) {
  static const DType dts[] = {DT_INT8, DT_INT32, DT_INT64, DT_FLOAT32, DT_FLOAT64};
  return dts[below(5)];
}

/* op on args; its first result (the test fails when the relation
 * refuses). */
static Tensor *eval1(OpId op, Tensor **args, int n, const Attrs *at, Tensor **outs) {
  char err[256];
  Tensor *o[64];
  int k = op_eval(op, args, n, at, A, outs ? outs : o, 64, err, sizeof err);
  CHECK_MSG(k >= 1, "%s: %s", ir_op_name(op), err);
  return k >= 1 ? (outs ? outs : o)[0] : NULL;
}

static bool identical(const Tensor *a, const Tensor *b) {
  return a && b && ir_tensor_identical(a, b);
}

static void transpose_inverse(void) {
  for (int t = 0; t < 300; t++) {
    int r = 1 + (int)below(4);
    Tensor *x = rand_tensor(rand_dtype(), r);
    int64_t p[IR_MAX_RANK], inv[IR_MAX_RANK];
    for (int i = 0; i < r; i++)
      p[i] = i;
    for (int i = r - 1; i > 0; i--) {
      int j = (int)below(i + 1);
      int64_t s = p[i];
      p[i] = p[j], p[j] = s;
    }
    for (int i = 0; i < r; i++)
      inv[p[i]] = i;
    Attrs a1 = {0}, a2 = {0};
    ir_attr_set_ints(A, &a1, "axes", r, p);
    ir_attr_set_ints(A, &a2, "axes", r, inv);
    Tensor *y = eval1(OP_TRANSPOSE, &x, 1, &a1, NULL);
    Tensor *z = y ? eval1(OP_TRANSPOSE, &y, 1, &a2, NULL) : NULL;
    CHECK(identical(x, z));
  }
}

static void involutions(void) {
  for (int t = 0; t < 300; t++) {
    int r = 1 + (int)below(4);
    DType dt = rand_dtype();
    Tensor *x = rand_tensor(dt, r);
    Attrs ax = {0};
    ir_attr_set_int(A, &ax, "axis", below(r));
    Tensor *y = eval1(OP_REVERSE, &x, 1, &ax, NULL);
    CHECK(identical(x, y ? eval1(OP_REVERSE, &y, 1, &ax, NULL) : NULL));
    Tensor *n = eval1(OP_NEGATIVE, &x, 1, NULL, NULL);
    CHECK(identical(x, n ? eval1(OP_NEGATIVE, &n, 1, NULL, NULL) : NULL));
  }
}

static void reshape_order(void) {
  for (int t = 0; t < 300; t++) {
    Tensor *x = rand_tensor(rand_dtype(), 1 + (int)below(4));
    /* a new shape: numel split into a random number of factors */
    int64_t shape[IR_MAX_RANK], left = x->numel;
    int r = 0;
    while (r < 3 && left > 1) {
      int64_t f = 1 + below(left);
      while (left % f)
        f--;
      shape[r++] = f;
      left /= f;
    }
    shape[r++] = left;
    Attrs at = {0};
    ir_attr_set_ints(A, &at, "newshape", r, shape);
    Tensor *y = eval1(OP_RESHAPE, &x, 1, &at, NULL);
    size_t bytes = (size_t)x->numel * (size_t)ir_dtype_size(x->dtype);
    CHECK(y && y->rank == r && y->numel == x->numel && memcmp(x->data, y->data, bytes) == 0);
  }
}

/* sum over every axis, against sum over axis 0 then over the rest; false
 * when one differs (integers exactly, floats within rounding). */
static bool sum_of_sums(int tries) {
  bool all = true;
  for (int t = 0; t < tries; t++) {
    DType dt = rand_dtype();
    Tensor *x = rand_tensor(dt, 2 + (int)below(3));
    Tensor *whole = eval1(OP_SUM, &x, 1, NULL, NULL);
    Attrs a0 = {0};
    ir_attr_set_ints(A, &a0, "axis", 1, (int64_t[]){0});
    Tensor *part = eval1(OP_SUM, &x, 1, &a0, NULL);
    Tensor *total = part ? eval1(OP_SUM, &part, 1, NULL, NULL) : NULL;
    if (!whole || !total)
      return false;
    double a = ir_tensor_get_f64(whole, 0), b = ir_tensor_get_f64(total, 0);
    all &= ir_dtype_is_float(dt) ? fabs(a - b) <= 1e-4 * (1 + fabs(a)) : a == b;
  }
  return all;
}

static void concat_split(void) {
  for (int t = 0; t < 300; t++) {
    DType dt = rand_dtype();
    int r = 1 + (int)below(4), axis = (int)below(r), n = 1 + (int)below(3);
    Tensor *parts[3];
    parts[0] = rand_tensor(dt, r);
    int64_t seams[3], at = 0;
    for (int k = 0; k < n; k++) {
      if (k) {
        int64_t shape[IR_MAX_RANK];
        memcpy(shape, parts[0]->shape, sizeof shape);
        shape[axis] = 1 + below(3);
        parts[k] = ir_tensor_new(A, dt, r, shape);
        for (int64_t i = 0; i < parts[k]->numel; i++)
          ir_tensor_set_f64(parts[k], i, (double)below(100));
      }
      at += parts[k]->shape[axis];
      seams[k] = at;
    }
    Attrs ca = {0}, sa = {0};
    ir_attr_set_int(A, &ca, "axis", axis);
    Tensor *whole = eval1(OP_CONCATENATE, parts, n, &ca, NULL);
    ir_attr_set_ints(A, &sa, "indices_or_sections", n - 1, seams);
    ir_attr_set_int(A, &sa, "axis", axis);
    Tensor *back[64];
    if (whole && eval1(OP_SPLIT, &whole, 1, &sa, back))
      for (int k = 0; k < n; k++)
        CHECK(identical(parts[k], back[k]));
  }
}

static void softmax_sums_to_one(void) {
  for (int t = 0; t < 300; t++) {
    DType dt = below(2) ? DT_FLOAT32 : DT_FLOAT64;
    int r = 1 + (int)below(4), axis = (int)below(r);
    Tensor *x = rand_tensor(dt, r);
    Attrs sa = {0}, ra = {0};
    ir_attr_set_int(A, &sa, "axis", axis);
    Tensor *y = eval1(OP_SOFTMAX, &x, 1, &sa, NULL);
    ir_attr_set_ints(A, &ra, "axis", 1, (int64_t[]){axis});
    Tensor *s = y ? eval1(OP_SUM, &y, 1, &ra, NULL) : NULL;
    double tol = (dt == DT_FLOAT32 ? 1e-6 : 1e-14) * (double)x->shape[axis];
    for (int64_t i = 0; s && i < s->numel; i++)
      CHECK_MSG(fabs(ir_tensor_get_f64(s, i) - 1) <= tol, "softmax sums to %.17g",
                ir_tensor_get_f64(s, i));
  }
}

static void tile_slice(void) {
  for (int t = 0; t < 300; t++) {
    int r = 1 + (int)below(3);
    Tensor *x = rand_tensor(rand_dtype(), r);
    int64_t reps[IR_MAX_RANK], begin[IR_MAX_RANK], end[IR_MAX_RANK];
    for (int i = 0; i < r; i++)
      reps[i] = 1 + below(3), begin[i] = 0, end[i] = x->shape[i];
    Attrs ta = {0}, sa = {0};
    ir_attr_set_ints(A, &ta, "reps", r, reps);
    Tensor *y = eval1(OP_TILE, &x, 1, &ta, NULL);
    ir_attr_set_ints(A, &sa, "begin", r, begin);
    ir_attr_set_ints(A, &sa, "end", r, end);
    CHECK(identical(x, y ? eval1(OP_STRIDED_SLICE, &y, 1, &sa, NULL) : NULL));
  }
}

int main(void) {
  A = arena_new();
  transpose_inverse();
  involutions();
  reshape_order();
  CHECK(sum_of_sums(300));
  concat_split();
  softmax_sums_to_one();
  tile_slice();
#ifdef RS_TEST_PASSES
  op_test_fault_reduce = true;
  CHECK_MSG(!sum_of_sums(300), "the sum identity misses the kernel fault kernel_sum_last");
  op_test_fault_reduce = false;
#endif
  arena_free(A);
  return test_summary();
}
