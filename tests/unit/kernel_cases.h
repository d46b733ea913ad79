/*
 * kernel_cases.h - what the kernel tests of the newer families
 * (test_kernels_nn2.c, test_kernels_conv_extra.c) share: tensors from
 * values, running an operator through op_eval (relation, then kernel),
 * and checks of its result or of the relation's rejection.  Each test
 * sets A, the arena, per test function.
 */
#ifndef RS_KERNEL_CASES_H
#define RS_KERNEL_CASES_H

#include <math.h>
#include <stdlib.h>

#include "compiler/ops/op.h"
#include "compiler/passes/pass.h"
#include "compiler/typing/typing.h"
#include "test.h"

static Arena *A; /* per test function */
static char last_err[256];

#define SH(...) ((const int64_t[]){__VA_ARGS__})
#define VA(...) ((const double[]){__VA_ARGS__})

/* A tensor with the given values (converted as ir_tensor_set_f64 does). */
static inline Tensor *mk(DType dt, int rank, const int64_t *shape, const double *v) {
  Tensor *t = ir_tensor_new(A, dt, rank, shape);
  for (int64_t i = 0; v && i < t->numel; i++)
    ir_tensor_set_f64(t, i, v[i]);
  return t;
}

/* Runs op; returns output k or NULL (message in last_err). */
static inline Tensor *run_k(OpId op, Tensor *const *args, int nargs, const Attrs *at, int k) {
  Tensor *outs[4];
  last_err[0] = 0;
  int n = op_eval(op, args, nargs, at, A, outs, 4, last_err, sizeof last_err);
  return n > k ? outs[k] : NULL;
}
#define RUN(op, at, ...)                                                                           \
  run_k(op, (Tensor *[]){__VA_ARGS__}, sizeof((Tensor *[]){__VA_ARGS__}) / sizeof(Tensor *), at, 0)

/* Equal NaN-ness and infinities, same sign of zero, else within tol. */
static inline bool close_to(double got, double want, double tol) {
  if (isnan(want) || isnan(got))
    return isnan(want) && isnan(got);
  if (isinf(want) || isinf(got) || want == 0)
    return got == want && signbit(got) == signbit(want);
  return fabs(got - want) <= tol * fmax(1.0, fabs(want));
}

static inline void check_t(int line, const Tensor *t, DType dt, int rank, const int64_t *shape,
                           const double *v) {
  bool ok = t && t->dtype == dt && t->rank == rank;
  for (int i = 0; ok && i < rank; i++)
    ok = t->shape[i] == shape[i];
  CHECK_MSG(ok, "line %d: wrong result (%s)", line, t ? "shape/dtype" : last_err);
  for (int64_t i = 0; ok && i < t->numel; i++) {
    double got = ir_tensor_get_f64(t, i);
    CHECK_MSG(close_to(got, v[i], 1e-6), "line %d: element %lld is %.9g, want %.9g", line,
              (long long)i, got, v[i]);
  }
}
#define CHECK_T(t, dt, rank, shape, vals) check_t(__LINE__, t, dt, rank, shape, vals)

/* The relation rejects the call with a message containing needle. */
static inline void check_rejects(int line, OpId op, Tensor *const *args, int nargs, const Attrs *at,
                                 const char *needle) {
  Tensor *outs[4];
  char err[256] = "";
  int n = op_eval(op, args, nargs, at, A, outs, 4, err, sizeof err);
  CHECK_MSG(n < 0 && strstr(err, needle), "line %d: want a rejection with '%s', got %d '%s'", line,
            needle, n, err);
}
#define REJECT(op, at, needle, ...)                                                                \
  check_rejects(__LINE__, op, (Tensor *[]){__VA_ARGS__},                                           \
                sizeof((Tensor *[]){__VA_ARGS__}) / sizeof(Tensor *), at, needle)

static Attrs none;

static inline Attrs *attrs(void) {
  Attrs *at = ARENA_NEW(A, Attrs);
  memset(at, 0, sizeof *at);
  return at;
}

/* fold_constant on the module src folds away every call of `gone` (its
 * name with the opening parenthesis) through the kernels, leaving `want`
 * in the printed text. */
static inline void check_folds(int line, const char *src, const char *want, const char *gone) {
  Diag d;
  diag_init(&d, "fold", src);
  Module *m = ir_parse_module(src, strlen(src), "fold", &d);
  CHECK_MSG(m && ty_check_module(m, &d), "line %d: %s", line, d.text ? d.text : "");
  if (m) {
    CHECK(pass_run(pass_lookup("fold_constant", 13), m, &d) == PASS_OK);
    char *t = ir_print_module(m);
    CHECK_MSG(strstr(t, want) && !strstr(t, gone), "line %d: not folded:\n%s", line, t);
    free(t);
    ir_module_free(m);
  }
  diag_free(&d);
}
#define CHECK_FOLDS(src, want, gone) check_folds(__LINE__, src, want, gone)

#endif
