/*
 * The reference interpreter with operators: calls through op_eval,
 * flattened tuple arguments (concatenate), tuple results (split),
 * recursion with arithmetic, the memory check before allocation, and the
 * oracle telling a pass that keeps the value from one that changes it.
 * Expected values are worked out by hand in comments.
 */
#include "compiler/eval/eval.h"
#include "test.h"

static Type *i32(Module *m) {
  return ir_scalar_type(m->arena, DT_INT32);
}
static Expr *ci(Module *m, int v) {
  return ir_const_scalar(m, DT_INT32, v);
}
static Expr *vr(Module *m, Var *v) {
  return ir_var_ref(m, v);
}
static Expr *fn1(Module *m, Var *p, Expr *body) {
  return ir_func(m, 1, &p, NULL, body);
}
static Expr *call1(Module *m, Expr *f, Expr *a) {
  return ir_call(m, f, 1, &a);
}

static Expr *op2(Module *m, OpId op, Expr *a, Expr *b) {
  Expr *args[2] = {a, b};
  return ir_call_op(m, op, 2, args, NULL);
}

/* A constant tensor of the given shape from doubles. */
static Expr *ct(Module *m, DType dt, int rank, const int64_t *shape, const double *xs) {
  Tensor *t = ir_tensor_new(m->arena, dt, rank, shape);
  for (int64_t i = 0; i < t->numel; i++)
    ir_tensor_set_f64(t, i, xs[i]);
  return ir_const(m, t);
}

static char *show(EvRun *r, Expr *e) {
  EvResult res = ev_eval(r, e);
  if (res.status != EV_OK)
    return arena_printf(r->arena, "%s: %s", ev_status_name(res.status), res.msg);
  return ev_print_value(r->arena, res.value);
}

static void test_operators(void) {
  Module *m = ir_module_new();
  EvRun *r = ev_run_new(NULL);
  CHECK_STR(show(r, op2(m, OP_ADD, ci(m, 2), ci(m, 3))), "int32 5");
  /* [[1, 2], [3, 4]] * [10, 100] broadcasts the row: [[10, 200], [30, 400]] */
  int64_t s22[2] = {2, 2}, s2[1] = {2}, s1[1] = {1}, s6[1] = {6};
  double a[4] = {1, 2, 3, 4}, b[2] = {10, 100};
  CHECK_STR(show(r, op2(m, OP_MULTIPLY, ct(m, DT_FLOAT32, 2, s22, a), ct(m, DT_FLOAT32, 1, s2, b))),
            "float32 [[10, 200], [30, 400]]");
  /* sum over axis 1: [3, 7] */
  Attrs at = {0};
  int64_t ax = 1;
  ir_attr_set_ints(m->arena, &at, "axis", 1, &ax);
  Expr *x = ct(m, DT_INT32, 2, s22, a);
  CHECK_STR(show(r, ir_call_op(m, OP_SUM, 1, &x, &at)), "int32 [3, 7]");
  /* a tuple argument is flattened: concatenate(([1, 2], [3])) = [1, 2, 3] */
  double c3[1] = {3};
  Expr *parts[2] = {ct(m, DT_INT64, 1, s2, a), ct(m, DT_INT64, 1, s1, c3)};
  Expr *tup = ir_tuple(m, 2, parts);
  Attrs cat = {0};
  ir_attr_set_int(m->arena, &cat, "axis", 0);
  CHECK_STR(show(r, ir_call_op(m, OP_CONCATENATE, 1, &tup, &cat)), "int64 [1, 2, 3]");
  /* a tuple result is a tuple value: split([1..6], 3) = ([1, 2], [3, 4], [5, 6]) */
  double six[6] = {1, 2, 3, 4, 5, 6};
  Attrs sp = {0};
  ir_attr_set_int(m->arena, &sp, "indices_or_sections", 3);
  ir_attr_set_int(m->arena, &sp, "axis", 0);
  Expr *y = ct(m, DT_FLOAT64, 1, s6, six);
  Expr *split = ir_call_op(m, OP_SPLIT, 1, &y, &sp);
  CHECK_STR(show(r, split), "(float64 [1, 2], float64 [3, 4], float64 [5, 6])");
  CHECK_STR(show(r, ir_proj(m, split, 2)), "float64 [5, 6]");
  /* operator results cost fuel by their size: 2 nodes + 6 elements */
  int64_t before = r->steps;
  CHECK_STR(show(r, op2(m, OP_ADD, y, y)), "float64 [2, 4, 6, 8, 10, 12]");
  CHECK(r->steps - before == 3 + 6);
  /* an ill-typed call is EV_INVALID with the relation's message */
  EvResult bad = ev_eval(r, op2(m, OP_ADD, ci(m, 1), ct(m, DT_FLOAT32, 1, s2, b)));
  CHECK(bad.status == EV_INVALID && strncmp(bad.msg, "add: ", 5) == 0);
  ev_run_free(r);
  ir_module_free(m);
}

static void test_recursion_with_ops(void) {
  Module *m = ir_module_new();
  /* def @sum(%n) { if (%n == 0) { 0 } else { %n + @sum(%n - 1) } }: sum(10) = 55 */
  GlobalFn *sum = ir_global_intern(m, "sum");
  Var *n = ir_var(m, "n", i32(m));
  Expr *rec = op2(m, OP_ADD, vr(m, n),
                  call1(m, ir_global_ref(m, sum), op2(m, OP_SUBTRACT, vr(m, n), ci(m, 1))));
  ir_def(m, "sum", fn1(m, n, ir_if(m, op2(m, OP_EQUAL, vr(m, n), ci(m, 0)), ci(m, 0), rec)));
  EvRun *r = ev_run_new(NULL);
  CHECK_STR(show(r, call1(m, ir_global_ref(m, sum), ci(m, 10))), "int32 55");

  /* def @len(%l) { match (%l) { Cons(_, %t) => 1 + @len(%t), Nil => 0 } }: len([4, 5, 6]) = 3 */
  GlobalFn *len = ir_global_intern(m, "len");
  Var *l = ir_var(m, "l", NULL), *t = ir_var(m, "t", NULL);
  Ctor *cons = ir_ctor_get(m, "Cons"), *nil = ir_ctor_get(m, "Nil");
  Pattern *cp[2] = {ir_pat_wild(m), ir_pat_var(m, t)};
  Clause cl[2] = {
      {ir_pat_ctor(m, cons, 2, cp),
       op2(m, OP_ADD, ci(m, 1), call1(m, ir_global_ref(m, len), vr(m, t)))},
      {ir_pat_ctor(m, nil, 0, NULL), ci(m, 0)},
  };
  ir_def(m, "len", fn1(m, l, ir_match(m, vr(m, l), 2, cl, true)));
  Expr *lst = ir_call_ctor(m, nil, 0, NULL);
  for (int i = 6; i >= 4; i--) {
    Expr *f[2] = {ci(m, i), lst};
    lst = ir_call_ctor(m, cons, 2, f);
  }
  CHECK_STR(show(r, call1(m, ir_global_ref(m, len), lst)), "int32 3");

  /* def @count(%k) { if (%k > 0) { @count(%k - 1) } else { %k } }: a tail
   * loop of 100000 iterations in constant stack (needs ~1e6 fuel) */
  GlobalFn *count = ir_global_intern(m, "count");
  Var *k = ir_var(m, "k", i32(m));
  Expr *again = call1(m, ir_global_ref(m, count), op2(m, OP_SUBTRACT, vr(m, k), ci(m, 1)));
  ir_def(m, "count", fn1(m, k, ir_if(m, op2(m, OP_GREATER, vr(m, k), ci(m, 0)), again, vr(m, k))));
  EvLimits lim = ev_default_limits;
  lim.fuel = 10000000;
  EvRun *r2 = ev_run_new(&lim);
  CHECK_STR(show(r2, call1(m, ir_global_ref(m, count), ci(m, 100000))), "int32 0");
  CHECK(r2->peak_depth <= 3);
  ev_run_free(r2);
  ev_run_free(r);
  ir_module_free(m);
}

static void test_memory_check(void) {
  Module *m = ir_module_new();
  /* [20000, 1] + [1, 20000] would be 1.6 GB of float32: refused before
   * allocation, the run is inconclusive. */
  int64_t sa[2] = {20000, 1}, sb[2] = {1, 20000};
  Tensor *ta = ir_tensor_new(m->arena, DT_FLOAT32, 2, sa);
  Tensor *tb = ir_tensor_new(m->arena, DT_FLOAT32, 2, sb);
  EvRun *r = ev_run_new(NULL);
  EvResult res = ev_eval(r, op2(m, OP_ADD, ir_const(m, ta), ir_const(m, tb)));
  CHECK(res.status == EV_INCONCLUSIVE && strstr(res.msg, "memory budget"));
  CHECK(arena_used(r->arena) < (1 << 20));
  /* zeros(shape=[2^62]) of float32: a well-typed result whose size in
   * bytes overflows int64 is refused the same way, not a type fault (it
   * was EV_INVALID; the reject_fuzzer's soundness oracle found it with
   * broadcast_to(shape=[INT64_MAX])). */
  Attrs at = {0};
  int64_t huge = 1ll << 62;
  ir_attr_set_ints(m->arena, &at, "shape", 1, &huge);
  ir_attr_set_str(m->arena, &at, "dtype", "float32");
  res = ev_eval(r, ir_call_op(m, OP_ZEROS, 0, NULL, &at));
  CHECK_MSG(res.status == EV_INCONCLUSIVE && strstr(res.msg, "memory budget"), "%s",
            ev_status_name(res.status));
  ev_run_free(r);
  ir_module_free(m);
}

/* @main(%x: float32[8]) { %x * c } as a module, for the oracle test. */
static Module *scale_module(double c) {
  Module *m = ir_module_new();
  int64_t s8[1] = {8};
  Var *x = ir_var(m, "x", ir_tensor_type(m->arena, DT_FLOAT32, 1, s8));
  ir_def(m, "main", fn1(m, x, op2(m, OP_MULTIPLY, vr(m, x), ir_const_scalar(m, DT_FLOAT32, c))));
  return m;
}

/* @main(%x: float32[8]) { %x + %x } */
static Module *double_module(void) {
  Module *m = ir_module_new();
  int64_t s8[1] = {8};
  Var *x = ir_var(m, "x", ir_tensor_type(m->arena, DT_FLOAT32, 1, s8));
  ir_def(m, "main", fn1(m, x, op2(m, OP_ADD, vr(m, x), vr(m, x))));
  return m;
}

static void test_oracle(void) {
  Module *orig = scale_module(2), *same = double_module(), *close = scale_module(2.00005),
         *wrong = scale_module(2.001);
  char why[300];
  for (uint64_t seed = 0; seed < 5; seed++) {
    EvRun *ra = ev_run_new(NULL), *rb = ev_run_new(NULL), *rc = ev_run_new(NULL),
          *rd = ev_run_new(NULL);
    EvResult a = ev_run_main(ra, orig, seed), b = ev_run_main(rb, same, seed),
             c = ev_run_main(rc, close, seed), d = ev_run_main(rd, wrong, seed);
    CHECK(a.status == EV_OK);
    /* x * 2 == x + x exactly */
    CHECK(ev_compare(&a, &b, NULL, why, sizeof why) == EV_SAME);
    CHECK(ev_value_identical(a.value, b.value));
    /* a 2.5e-5 relative change is within float32 tolerance, when one is
     * allowed, and a difference when the comparison is exact (no input is
     * 0 in every element) */
    EvRules reassoc = {.tol = &ev_default_tolerance};
    CHECK(ev_compare(&a, &c, &reassoc, why, sizeof why) == EV_SAME);
    CHECK(ev_compare(&a, &c, NULL, why, sizeof why) == EV_DIFFERENT);
    /* a 5e-4 relative change is a miscompile (inputs are not all 0) */
    CHECK_MSG(ev_compare(&a, &d, &reassoc, why, sizeof why) == EV_DIFFERENT, "seed %d", (int)seed);
    CHECK(strncmp(why, "at $[", 5) == 0);
    ev_run_free(ra), ev_run_free(rb), ev_run_free(rc), ev_run_free(rd);
  }
  ir_module_free(orig), ir_module_free(same), ir_module_free(close), ir_module_free(wrong);
}

int main(void) {
  test_operators();
  test_recursion_with_ops();
  test_memory_check();
  test_oracle();
  return test_summary();
}
