/*
 * einsum (compiler/ops/einsum.c) through op_eval (relation, then kernel)
 * on small cases with numpy's values (which topi's einsum computes):
 * matrix and batch products, transpose, trace and diagonal, outer
 * product, sums, the implicit form (capitals first), broadcasting of
 * extent 1, integer wrap and float16 steps; the refusals with their
 * positions; and the solver's equations giving the wanted type.
 */
#include "generator/choice.h"
#include "kernel_cases.h"

static Attrs *eq(const char *s) {
  Attrs *at = attrs();
  ir_attr_set_str(A, at, "equation", s);
  return at;
}

static Tensor *m22(DType dt, double a, double b, double c, double d) {
  return mk(dt, 2, SH(2, 2), VA(a, b, c, d));
}

static void test_values(void) {
  Tensor *a = m22(DT_FLOAT32, 1, 2, 3, 4), *b = m22(DT_FLOAT32, 5, 6, 7, 8);
  CHECK_T(RUN(OP_EINSUM, eq("ij,jk->ik"), a, b), DT_FLOAT32, 2, SH(2, 2), VA(19, 22, 43, 50));
  CHECK_T(RUN(OP_EINSUM, eq("ab,bc"), a, b), DT_FLOAT32, 2, SH(2, 2), VA(19, 22, 43, 50));
  CHECK_T(RUN(OP_EINSUM, eq("ij, jk -> ki"), a, b), DT_FLOAT32, 2, SH(2, 2), VA(19, 43, 22, 50));
  CHECK_T(RUN(OP_EINSUM, eq("ii->"), a), DT_FLOAT32, 0, NULL, VA(5));
  CHECK_T(RUN(OP_EINSUM, eq("ii"), a), DT_FLOAT32, 0, NULL, VA(5));
  CHECK_T(RUN(OP_EINSUM, eq("ii->i"), a), DT_FLOAT32, 1, SH(2), VA(1, 4));
  CHECK_T(RUN(OP_EINSUM, eq("ij->"), a), DT_FLOAT32, 0, NULL, VA(10));
  CHECK_T(RUN(OP_EINSUM, eq("ij->j"), a), DT_FLOAT32, 1, SH(2), VA(4, 6));
  Tensor *r23 = mk(DT_FLOAT32, 2, SH(2, 3), VA(1, 2, 3, 4, 5, 6));
  CHECK_T(RUN(OP_EINSUM, eq("ji"), r23), DT_FLOAT32, 2, SH(3, 2), VA(1, 4, 2, 5, 3, 6));
  CHECK_T(RUN(OP_EINSUM, eq("ij"), r23), DT_FLOAT32, 2, SH(2, 3), VA(1, 2, 3, 4, 5, 6));
  /* implicit: labels used once, ASCII order (capitals first) */
  CHECK_T(RUN(OP_EINSUM, eq("aB,Ca"), mk(DT_FLOAT32, 2, SH(1, 2), VA(1, 2)),
              mk(DT_FLOAT32, 2, SH(3, 1), VA(1, 10, 100))),
          DT_FLOAT32, 2, SH(2, 3), VA(1, 10, 100, 2, 20, 200));
  CHECK_T(RUN(OP_EINSUM, eq("i,j->ij"), mk(DT_FLOAT32, 1, SH(2), VA(1, 2)),
              mk(DT_FLOAT32, 1, SH(3), VA(3, 4, 5))),
          DT_FLOAT32, 2, SH(2, 3), VA(3, 4, 5, 6, 8, 10));
  /* batch matmul */
  Tensor *x = mk(DT_FLOAT64, 3, SH(2, 1, 2), VA(1, 2, 3, 4));
  Tensor *y = mk(DT_FLOAT64, 3, SH(2, 2, 1), VA(1, 1, 1, -1));
  CHECK_T(RUN(OP_EINSUM, eq("bij,bjk->bik"), x, y), DT_FLOAT64, 3, SH(2, 1, 1), VA(3, -1));
  /* extent 1 broadcasts */
  CHECK_T(RUN(OP_EINSUM, eq("ij,ij->ij"), mk(DT_FLOAT32, 2, SH(1, 2), VA(2, 3)), a), DT_FLOAT32, 2,
          SH(2, 2), VA(2, 6, 6, 12));
  /* three operands; an empty sum */
  Tensor *v = mk(DT_INT32, 1, SH(3), VA(1, 2, 3));
  CHECK_T(RUN(OP_EINSUM, eq("i,i,i->"), v, v, v), DT_INT32, 0, NULL, VA(36));
  CHECK_T(RUN(OP_EINSUM, eq("ij->i"), mk(DT_FLOAT32, 2, SH(2, 0), NULL)), DT_FLOAT32, 1, SH(2),
          VA(0, 0));
  /* int8 wraps: 100 * 2 + 100 * 1 = 300 -> 44 */
  CHECK_T(RUN(OP_EINSUM, eq("i,i->"), mk(DT_INT8, 1, SH(2), VA(100, 100)),
              mk(DT_INT8, 1, SH(2), VA(2, 1))),
          DT_INT8, 0, NULL, VA(44));
  /* float16: 300 * 300 overflows to inf in the product's step */
  Tensor *h = mk(DT_FLOAT16, 1, SH(1), VA(300));
  CHECK_T(RUN(OP_EINSUM, eq("i,i,i->i"), h, h, mk(DT_FLOAT16, 1, SH(1), VA(0.001))), DT_FLOAT16, 1,
          SH(1), VA(INFINITY));
}

static void test_refusals(void) {
  Tensor *a = m22(DT_FLOAT32, 1, 2, 3, 4), *v = mk(DT_FLOAT32, 1, SH(2), VA(1, 2));
  REJECT(OP_EINSUM, eq("i1->i"), "at 1: invalid character '1'", v);
  REJECT(OP_EINSUM, eq("i->j"), "at 3: an output label in no input", v);
  REJECT(OP_EINSUM, eq("i->ii"), "at 4: an output label repeated", v);
  REJECT(OP_EINSUM, eq("i-j"), "at 1: '-' not followed by '>'", v);
  REJECT(OP_EINSUM, eq("i->i->i"), "at 4: a second arrow", v);
  REJECT(OP_EINSUM, eq("...i->i"), "at 0: the ellipsis", v);
  REJECT(OP_EINSUM, eq("i->i,j"), "at 4: ',' after the arrow", v);
  REJECT(OP_EINSUM, eq("ij->i"), "rank 1", v);
  REJECT(OP_EINSUM, eq("ij,jk->ik"), "label 'j'", a, mk(DT_FLOAT32, 2, SH(3, 2), NULL));
  REJECT(OP_EINSUM, eq("i,j->ij"), "2 inputs, the tuple 1", v);
  REJECT(OP_EINSUM, eq("i,i->i"), "dtype", v, mk(DT_INT32, 1, SH(2), VA(1, 2)));
  REJECT(OP_EINSUM, eq("i->i"), "numeric", mk(DT_BOOL, 1, SH(2), VA(1, 0)));
  REJECT(OP_EINSUM, &none, "equation", v);
  /* Any dims: the static one wins; Any with 1 stays Any */
  Type *f[2] = {ir_tensor_type(A, DT_FLOAT32, 2, SH(IR_DIM_ANY, 3)),
                ir_tensor_type(A, DT_FLOAT32, 2, SH(3, IR_DIM_ANY))};
  Type *arg = ir_tuple_type(A, 2, f), *out = NULL;
  char err[256];
  CHECK(op_relate(OP_EINSUM, &arg, 1, eq("ij,jk->ik"), A, &out, err, sizeof err) == REL_OK && out &&
        ir_dim_is_any(out->tensor.shape[0]) && ir_dim_is_any(out->tensor.shape[1]));
  f[1] = ir_tensor_type(A, DT_FLOAT32, 2, SH(4, 5));
  arg = ir_tuple_type(A, 2, f);
  CHECK(op_relate(OP_EINSUM, &arg, 1, eq("ij,ik->jk"), A, &out, err, sizeof err) == REL_OK && out &&
        out->tensor.shape[0] == 3 && out->tensor.shape[1] == 5);
}

/* The solver's equations give the wanted type; the kernel runs them. */
static void test_solver(void) {
  static const int64_t shapes[][3] = {{2, 3, 1}, {4, 1, 2}, {1, 1, 1}, {8, 2, 0}};
  int implicit = 0, multi = 0;
  for (int rank = 0; rank <= 3; rank++)
    for (int s = 0; s < 4; s++)
      for (uint64_t seed = 0; seed < 60; seed++) {
        uint8_t bytes[48];
        for (int i = 0; i < 48; i++)
          bytes[i] = (uint8_t)((seed * 2654435761u + (uint64_t)i * 40503u) >> 7);
        GenStream st;
        gen_stream_init(&st, bytes, sizeof bytes);
        OpSolveCtx cx = {&st.ch, A, &op_default_limits};
        OpSig sig;
        Type *want = ir_tensor_type(A, DT_FLOAT32, rank, shapes[s]);
        CHECK(solve_einsum(OP_EINSUM, want, &cx, &sig));
        Type *ret = NULL;
        char err[256] = "";
        const char *e = ir_attr_str(&sig.attrs, "equation", "");
        CHECK_MSG(op_relate(OP_EINSUM, sig.args, 1, &sig.attrs, A, &ret, err, sizeof err) ==
                          REL_OK &&
                      ir_type_equal(ret, want),
                  "\"%s\": %s", e, err);
        implicit += strstr(e, "->") == NULL;
        multi += sig.args[0]->tuple.n > 1;
      }
  CHECK(implicit > 20 && multi > 100);
}

/* fold_constant folds a call of constants through the kernel. */
static void test_fold(void) {
  CHECK_FOLDS("def @main() -> Tensor[(2), float32] {"
              " einsum((Tensor[(2, 2), float32]([[1, 2], [3, 4]]),), equation=\"ii->i\") }",
              "[1, 4]", "einsum(");
}

int main(void) {
  void (*tests[])(void) = {test_values, test_refusals, test_solver, test_fold};
  for (size_t i = 0; i < sizeof tests / sizeof *tests; i++) {
    A = arena_new();
    tests[i]();
    arena_free(A);
  }
  return test_summary();
}
