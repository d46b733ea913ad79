/*
 * The reference interpreter without operators: every expression form,
 * closures, recursion through globals, refs, ADTs and match, budgets,
 * inputs, comparison (exact, and under each rule), the trace of ref
 * effects and its comparison, printing and determinism.  Programs are built with
 * the builder API; expected values are worked out by hand in comments.
 * (Operator calls are in test_eval_ops.c.)
 */
#include <math.h>

#include "compiler/eval/eval.h"
#include "test.h"

/* ------------------------------------------------------------ builders */

static Type *i32(Module *m) {
  return ir_scalar_type(m->arena, DT_INT32);
}
static Expr *ci(Module *m, int v) {
  return ir_const_scalar(m, DT_INT32, v);
}
static Expr *cb(Module *m, bool v) {
  return ir_const_scalar(m, DT_BOOL, v);
}
static Expr *vr(Module *m, Var *v) {
  return ir_var_ref(m, v);
}
static Expr *unit(Module *m) {
  return ir_tuple(m, 0, NULL);
}

static Expr *tup2(Module *m, Expr *a, Expr *b) {
  Expr *f[2] = {a, b};
  return ir_tuple(m, 2, f);
}

static Expr *call1(Module *m, Expr *f, Expr *a) {
  return ir_call(m, f, 1, &a);
}

static Expr *ctor0(Module *m, const char *name) {
  return ir_call_ctor(m, ir_ctor_get(m, name), 0, NULL);
}
static Expr *ctor1(Module *m, const char *name, Expr *a) {
  return ir_call_ctor(m, ir_ctor_get(m, name), 1, &a);
}
static Expr *ctor2(Module *m, const char *name, Expr *a, Expr *b) {
  Expr *f[2] = {a, b};
  return ir_call_ctor(m, ir_ctor_get(m, name), 2, f);
}

static Expr *fn1(Module *m, Var *p, Expr *body) {
  return ir_func(m, 1, &p, NULL, body);
}
static Expr *fn0(Module *m, Expr *body) {
  return ir_func(m, 0, NULL, NULL, body);
}

/* type Nat { Z, S(Nat) } */
static Type *add_nat(Module *m) {
  TypeDef *d = ir_typedef_add(m, "Nat", 0, NULL);
  Type *t = ir_adt_type(m->arena, d, 0, NULL);
  ir_ctor_add(m, d, "Z", 0, NULL);
  ir_ctor_add(m, d, "S", 1, &t);
  return t;
}

static Expr *nat(Module *m, int n) {
  return n == 0 ? ctor0(m, "Z") : ctor1(m, "S", nat(m, n - 1));
}

/* Cons(a, Cons(b, .. Nil)) of int32 constants. */
static Expr *list(Module *m, int n, const int *xs) {
  return n == 0 ? ctor0(m, "Nil") : ctor2(m, "Cons", ci(m, xs[0]), list(m, n - 1, xs + 1));
}

/* Evaluate a closed expression and print its value (or the status). */
static char *show(EvRun *r, Expr *e) {
  EvResult res = ev_eval(r, e);
  if (res.status != EV_OK)
    return arena_printf(r->arena, "%s: %s", ev_status_name(res.status), res.msg);
  return ev_print_value(r->arena, res.value);
}

/* Run @main of m with seed 1 and print. */
static char *show_main(EvRun *r, Module *m) {
  EvResult res = ev_run_main(r, m, 1);
  if (res.status != EV_OK)
    return arena_printf(r->arena, "%s: %s", ev_status_name(res.status), res.msg);
  return ev_print_value(r->arena, res.value);
}

/* ------------------------------------------------------- expression forms */

static void test_basic_forms(void) {
  Module *m = ir_module_new();
  EvRun *r = ev_run_new(NULL);
  /* constants, tuples, projection */
  CHECK_STR(show(r, ci(m, 7)), "int32 7");
  CHECK_STR(show(r, ir_const_scalar(m, DT_FLOAT32, 2.5)), "float32 2.5");
  CHECK_STR(show(r, unit(m)), "()");
  Expr *t = tup2(m, tup2(m, ci(m, 1), ir_const_scalar(m, DT_FLOAT64, -0.5)), cb(m, true));
  CHECK_STR(show(r, t), "((int32 1, float64 -0.5), bool True)");
  CHECK_STR(show(r, ir_proj(m, ir_proj(m, t, 0), 1)), "float64 -0.5");
  /* let: let %x = 3; (%x, %x) */
  Var *x = ir_var(m, "x", NULL);
  CHECK_STR(show(r, ir_let(m, x, ci(m, 3), tup2(m, vr(m, x), vr(m, x)))), "(int32 3, int32 3)");
  /* if on a scalar bool picks a branch */
  CHECK_STR(show(r, ir_if(m, cb(m, true), ci(m, 1), ci(m, 2))), "int32 1");
  CHECK_STR(show(r, ir_if(m, cb(m, false), ci(m, 1), ci(m, 2))), "int32 2");
  /* a shared (graph-bound) node evaluates the same at both uses */
  Expr *shared = tup2(m, ci(m, 4), cb(m, false));
  CHECK_STR(show(r, tup2(m, shared, ir_proj(m, shared, 0))), "((int32 4, bool False), int32 4)");
  CHECK(r->status == EV_OK && r->steps > 0);
  ev_run_free(r);
  ir_module_free(m);
}

static void test_closures(void) {
  Module *m = ir_module_new();
  EvRun *r = ev_run_new(NULL);
  /* let %y = 10; let %f = fn (%a) { (%a, %y) }; %f(5)  =>  (5, 10) */
  Var *y = ir_var(m, "y", NULL), *f = ir_var(m, "f", NULL), *a = ir_var(m, "a", NULL);
  Expr *e =
      ir_let(m, y, ci(m, 10),
             ir_let(m, f, fn1(m, a, tup2(m, vr(m, a), vr(m, y))), call1(m, vr(m, f), ci(m, 5))));
  CHECK_STR(show(r, e), "(int32 5, int32 10)");
  /* A closure made inside a function keeps that call's argument:
   * let %mk = fn (%b) { fn () { %b } }; (%mk(1)(), %mk(2)())  =>  (1, 2) */
  Var *mk = ir_var(m, "mk", NULL), *b = ir_var(m, "b", NULL);
  Expr *mkfn = fn1(m, b, fn0(m, vr(m, b)));
  Expr *use = tup2(m, ir_call(m, call1(m, vr(m, mk), ci(m, 1)), 0, NULL),
                   ir_call(m, call1(m, vr(m, mk), ci(m, 2)), 0, NULL));
  CHECK_STR(show(r, ir_let(m, mk, mkfn, use)), "(int32 1, int32 2)");
  /* A function literal called directly, and a closure returned as a value. */
  Var *c = ir_var(m, "c", NULL);
  CHECK_STR(show(r, call1(m, fn1(m, c, tup2(m, vr(m, c), vr(m, c))), cb(m, true))),
            "(bool True, bool True)");
  CHECK_STR(show(r, fn0(m, ci(m, 1))), "<closure>");
  ev_run_free(r);
  ir_module_free(m);
}

static void test_globals_and_recursion(void) {
  Module *m = ir_module_new();
  Type *natt = add_nat(m);
  /* def @id(%x) { %x } used as a value: let %g = @id; %g(4)  => 4 */
  Var *x = ir_var(m, "x", NULL);
  GlobalFn *id = ir_def(m, "id", fn1(m, x, vr(m, x)));
  Var *g = ir_var(m, "g", NULL);
  EvRun *r = ev_run_new(NULL);
  CHECK_STR(show(r, ir_let(m, g, ir_global_ref(m, id), call1(m, vr(m, g), ci(m, 4)))), "int32 4");
  CHECK_STR(show(r, ir_global_ref(m, id)), "<fn @id>");

  /* def @len(%l) { match (%l) { Cons(_, %t) => S(@len(%t)), Nil => Z } }
   * non-tail recursion; @len([7, 8, 9]) = S(S(S(Z))) */
  GlobalFn *len = ir_global_intern(m, "len");
  Var *l = ir_var(m, "l", NULL), *tl = ir_var(m, "t", NULL);
  Pattern *cons_p[2] = {ir_pat_wild(m), ir_pat_var(m, tl)};
  Clause cl[2] = {
      {ir_pat_ctor(m, ir_ctor_get(m, "Cons"), 2, cons_p),
       ctor1(m, "S", call1(m, ir_global_ref(m, len), vr(m, tl)))},
      {ir_pat_ctor(m, ir_ctor_get(m, "Nil"), 0, NULL), ctor0(m, "Z")},
  };
  ir_def(m, "len", fn1(m, l, ir_match(m, vr(m, l), 2, cl, true)));
  int xs[3] = {7, 8, 9};
  CHECK_STR(show(r, call1(m, ir_global_ref(m, len), list(m, 3, xs))), "S(S(S(Z)))");

  /* Tail recursion: def @down(%n) { match (%n) { S(%p) => @down(%p), Z => Z } }
   * applied to a 5000-deep Nat made directly as a value: tail calls loop,
   * so the nesting stays flat and max_depth (2000) is not reached. */
  GlobalFn *down = ir_global_intern(m, "down");
  Var *n = ir_var(m, "n", natt), *p = ir_var(m, "p", NULL);
  Pattern *s_p = ir_pat_var(m, p);
  Clause dl[2] = {
      {ir_pat_ctor(m, ir_ctor_get(m, "S"), 1, &s_p), call1(m, ir_global_ref(m, down), vr(m, p))},
      {ir_pat_ctor(m, ir_ctor_get(m, "Z"), 0, NULL), ctor0(m, "Z")},
  };
  ir_def(m, "down", fn1(m, n, ir_match(m, vr(m, n), 2, dl, true)));
  EvRun *r2 = ev_run_new(NULL);
  EvValue *big = ev_val_adt(r2, ir_ctor_get(m, "Z"));
  for (int i = 0; i < 5000; i++) {
    EvValue *s = ev_val_adt(r2, ir_ctor_get(m, "S"));
    s->adt.fields[0] = big;
    big = s;
  }
  EvResult res = ev_call_global(r2, down, 1, &big);
  CHECK(res.status == EV_OK && strcmp(res.value->adt.ctor->name, "Z") == 0);
  CHECK_MSG(r2->peak_depth <= 3, "peak depth %d", r2->peak_depth);
  CHECK(r2->steps > 5000 * 3);
  /* a 1500-deep Nat built by the program nests 1500 levels (non-tail) */
  CHECK_STR(show(r2, call1(m, ir_global_ref(m, down), nat(m, 1500))), "Z");
  CHECK_MSG(r2->peak_depth > 1500 && r2->peak_depth < 1510, "peak depth %d", r2->peak_depth);
  ev_run_free(r2);

  /* Recursive let: let %f = fn (%k) { match (%k) { S(%q) => %f(%q), Z => Z } }; %f(S(S(Z))) */
  Var *f = ir_var(m, "f", NULL), *k = ir_var(m, "k", NULL), *q = ir_var(m, "q", NULL);
  Pattern *q_p = ir_pat_var(m, q);
  Clause fl[2] = {
      {ir_pat_ctor(m, ir_ctor_get(m, "S"), 1, &q_p), call1(m, vr(m, f), vr(m, q))},
      {ir_pat_wild(m), ctor0(m, "Z")},
  };
  Expr *rec =
      ir_let(m, f, fn1(m, k, ir_match(m, vr(m, k), 2, fl, true)), call1(m, vr(m, f), nat(m, 2)));
  CHECK_STR(show(r, rec), "Z");
  ev_run_free(r);
  ir_module_free(m);
}

static void test_refs(void) {
  Module *m = ir_module_new();
  /* def @main(%c: bool) {
   *   let %r = ref(0);
   *   let %u = if (%c) { %r := 1 } else { () };
   *   ref_read(%r) }
   * written in one branch, read after. */
  Var *c = ir_var(m, "c", ir_scalar_type(m->arena, DT_BOOL));
  Var *rv = ir_var(m, "r", NULL), *u = ir_var(m, "u", NULL);
  Expr *body =
      ir_let(m, rv, ir_ref_new(m, ci(m, 0)),
             ir_let(m, u, ir_if(m, vr(m, c), ir_ref_write(m, vr(m, rv), ci(m, 1)), unit(m)),
                    ir_ref_read(m, vr(m, rv))));
  GlobalFn *main = ir_def(m, "main", fn1(m, c, body));
  EvRun *r = ev_run_new(NULL);
  EvValue *t = ev_val_tensor(r, ir_tensor_scalar_f64(r->arena, DT_BOOL, 1));
  EvValue *f = ev_val_tensor(r, ir_tensor_scalar_f64(r->arena, DT_BOOL, 0));
  EvResult a = ev_call_global(r, main, 1, &t);
  CHECK(a.status == EV_OK && strcmp(ev_print_value(r->arena, a.value), "int32 1") == 0);
  EvResult b = ev_call_global(r, main, 1, &f);
  CHECK(b.status == EV_OK && strcmp(ev_print_value(r->arena, b.value), "int32 0") == 0);

  /* Effects in order: let %s = ref(0); (%s := 5, ref_read(%s), ref(ref_read(%s)))
   * => ((), 5, ref(5)); ref_write gives unit. */
  Var *s = ir_var(m, "s", NULL);
  Expr *f3[3] = {ir_ref_write(m, vr(m, s), ci(m, 5)), ir_ref_read(m, vr(m, s)),
                 ir_ref_new(m, ir_ref_read(m, vr(m, s)))};
  CHECK_STR(show(r, ir_let(m, s, ir_ref_new(m, ci(m, 0)), ir_tuple(m, 3, f3))),
            "((), int32 5, ref(int32 5))");

  /* Relay's call order: arguments first, then the callee expression.
   * let %w = ref(0);
   * let %v = (let %z = (%w := 2); fn (%a) { %a })(ref_read(%w));
   * (%v, ref_read(%w))   =>  (0, 2): the argument read 0 before the
   * callee's write. */
  Var *w = ir_var(m, "w", NULL), *v = ir_var(m, "v", NULL), *z = ir_var(m, "z", NULL),
      *aa = ir_var(m, "a", NULL);
  Expr *callee = ir_let(m, z, ir_ref_write(m, vr(m, w), ci(m, 2)), fn1(m, aa, vr(m, aa)));
  Expr *order = ir_let(m, w, ir_ref_new(m, ci(m, 0)),
                       ir_let(m, v, call1(m, callee, ir_ref_read(m, vr(m, w))),
                              tup2(m, vr(m, v), ir_ref_read(m, vr(m, w)))));
  CHECK_STR(show(r, order), "(int32 0, int32 2)");

  /* A closure capturing a ref sees later writes:
   * let %k = ref(1); let %g = fn () { ref_read(%k) }; let %x = (%k := 9); %g()  => 9 */
  Var *k = ir_var(m, "k", NULL), *g = ir_var(m, "g", NULL), *x = ir_var(m, "x", NULL);
  Expr *cap = ir_let(
      m, k, ir_ref_new(m, ci(m, 1)),
      ir_let(m, g, fn0(m, ir_ref_read(m, vr(m, k))),
             ir_let(m, x, ir_ref_write(m, vr(m, k), ci(m, 9)), ir_call(m, vr(m, g), 0, NULL))));
  CHECK_STR(show(r, cap), "int32 9");
  ev_run_free(r);
  ir_module_free(m);
}

static void test_match(void) {
  Module *m = ir_module_new();
  EvRun *r = ev_run_new(NULL);
  Ctor *cons = ir_ctor_get(m, "Cons"), *nil = ir_ctor_get(m, "Nil");
  /* match ([1, 2]) {
   *   Cons(%a, Cons(%b, _)) => (%b, %a),   -- nested constructor pattern
   *   _ => (0, 0) }                        => (2, 1) */
  Var *a = ir_var(m, "a", NULL), *b = ir_var(m, "b", NULL);
  Pattern *inner[2] = {ir_pat_var(m, b), ir_pat_wild(m)};
  Pattern *outer[2] = {ir_pat_var(m, a), ir_pat_ctor(m, cons, 2, inner)};
  Clause cl[2] = {{ir_pat_ctor(m, cons, 2, outer), tup2(m, vr(m, b), vr(m, a))},
                  {ir_pat_wild(m), tup2(m, ci(m, 0), ci(m, 0))}};
  int xs[2] = {1, 2};
  CHECK_STR(show(r, ir_match(m, list(m, 2, xs), 2, cl, true)), "(int32 2, int32 1)");
  /* the same match on [1] falls through to the wildcard */
  CHECK_STR(show(r, ir_match(m, list(m, 1, xs), 2, cl, true)), "(int32 0, int32 0)");

  /* Tuple pattern with a nested constructor:
   * match ((Some(3), True)) { (None, _) => 0, (Some(%x), %y) => if (%y) { %x } else { 0 } } */
  Var *x = ir_var(m, "x", NULL), *y = ir_var(m, "y", NULL);
  Pattern *p1[2] = {ir_pat_ctor(m, ir_ctor_get(m, "None"), 0, NULL), ir_pat_wild(m)};
  Pattern *some_x = ir_pat_var(m, x);
  Pattern *p2[2] = {ir_pat_ctor(m, ir_ctor_get(m, "Some"), 1, &some_x), ir_pat_var(m, y)};
  Clause tc[2] = {{ir_pat_tuple(m, 2, p1), ci(m, 0)},
                  {ir_pat_tuple(m, 2, p2), ir_if(m, vr(m, y), vr(m, x), ci(m, 0))}};
  Expr *scrut = tup2(m, ctor1(m, "Some", ci(m, 3)), cb(m, true));
  CHECK_STR(show(r, ir_match(m, scrut, 2, tc, true)), "int32 3");

  /* Variables of a clause that failed late are not visible in the next:
   * match ([5]) { Cons(%a, Cons(_, _)) => 1, Cons(%b, Nil) => %b }  => 5 */
  Var *a2 = ir_var(m, "a2", NULL), *b2 = ir_var(m, "b2", NULL);
  Pattern *cc[2] = {ir_pat_wild(m), ir_pat_wild(m)};
  Pattern *q1[2] = {ir_pat_var(m, a2), ir_pat_ctor(m, cons, 2, cc)};
  Pattern *q2[2] = {ir_pat_var(m, b2), ir_pat_ctor(m, nil, 0, NULL)};
  Clause lc[2] = {{ir_pat_ctor(m, cons, 2, q1), ci(m, 1)},
                  {ir_pat_ctor(m, cons, 2, q2), vr(m, b2)}};
  int five = 5;
  CHECK_STR(show(r, ir_match(m, list(m, 1, &five), 2, lc, true)), "int32 5");

  /* Tree: Rose(1, [Rose(2, [])]) matched two levels deep. */
  Expr *leaf = ctor2(m, "Rose", ci(m, 2), ctor0(m, "Nil"));
  Expr *tree = ctor2(m, "Rose", ci(m, 1), ctor2(m, "Cons", leaf, ctor0(m, "Nil")));
  Var *v = ir_var(m, "v", NULL);
  Pattern *rose_in[2] = {ir_pat_var(m, v), ir_pat_wild(m)};
  Pattern *kids[2] = {ir_pat_ctor(m, ir_ctor_get(m, "Rose"), 2, rose_in), ir_pat_wild(m)};
  Pattern *rose_out[2] = {ir_pat_wild(m), ir_pat_ctor(m, cons, 2, kids)};
  Clause rc = {ir_pat_ctor(m, ir_ctor_get(m, "Rose"), 2, rose_out), vr(m, v)};
  CHECK_STR(show(r, ir_match(m, tree, 1, &rc, false)), "int32 2");
  CHECK_STR(show(r, tree), "Rose(int32 1, Cons(Rose(int32 2, Nil), Nil))");

  /* An incomplete match with no matching clause is a runtime error. */
  Clause only_nil = {ir_pat_ctor(m, nil, 0, NULL), ci(m, 0)};
  EvResult res = ev_eval(r, ir_match(m, list(m, 2, xs), 1, &only_nil, false));
  CHECK(res.status == EV_ERROR);
  CHECK_STR(res.msg, "match: no clause matches Cons(int32 1, Cons(int32 2, Nil))");
  /* the run goes on being usable afterwards */
  CHECK_STR(show(r, ci(m, 1)), "int32 1");
  ev_run_free(r);
  ir_module_free(m);
}

static void test_invalid(void) {
  Module *m = ir_module_new();
  EvRun *r = ev_run_new(NULL);
  Var *x = ir_var(m, "x", NULL);
  CHECK_STR(show(r, vr(m, x)), "invalid: unbound variable %x");
  CHECK_STR(show(r, ir_if(m, ci(m, 1), ci(m, 1), ci(m, 2))),
            "invalid: if condition is not a scalar bool");
  CHECK_STR(show(r, ir_proj(m, ci(m, 1), 0)),
            "invalid: projection .0 of a value that is not a tuple that long");
  CHECK_STR(show(r, call1(m, ci(m, 1), ci(m, 2))),
            "invalid: calling a value that is not a function");
  GlobalFn *undef = ir_global_intern(m, "nowhere");
  CHECK_STR(show(r, ir_global_ref(m, undef)), "invalid: global @nowhere is not defined");
  CHECK_STR(show_main(r, m), "invalid: no @main");
  ev_run_free(r);
  ir_module_free(m);
}

/* --------------------------------------------------------------- budgets */

static void test_budgets(void) {
  Module *m = ir_module_new();
  /* def @loop(%x) { @loop(%x) }: an infinite tail loop runs out of fuel */
  GlobalFn *loop = ir_global_intern(m, "loop");
  Var *x = ir_var(m, "x", NULL);
  ir_def(m, "loop", fn1(m, x, call1(m, ir_global_ref(m, loop), vr(m, x))));
  EvLimits lim = ev_default_limits;
  lim.fuel = 10000;
  EvRun *r = ev_run_new(&lim);
  EvResult res = ev_eval(r, call1(m, ir_global_ref(m, loop), ci(m, 1)));
  CHECK(res.status == EV_INCONCLUSIVE && res.value == NULL);
  CHECK_STR(res.msg, "out of fuel after 10000 steps");
  CHECK(r->peak_depth <= 3);
  ev_run_free(r);

  /* def @deep(%x) { (@deep(%x),) }: infinite non-tail recursion hits the
   * depth limit, or with no depth limit the stack guard. */
  GlobalFn *deep = ir_global_intern(m, "deep");
  Var *y = ir_var(m, "y", NULL);
  Expr *inner = call1(m, ir_global_ref(m, deep), vr(m, y));
  ir_def(m, "deep", fn1(m, y, ir_tuple(m, 1, &inner)));
  r = ev_run_new(NULL);
  res = ev_eval(r, call1(m, ir_global_ref(m, deep), ci(m, 1)));
  CHECK(res.status == EV_INCONCLUSIVE);
  CHECK_STR(res.msg, "evaluation nested deeper than 2000");
  ev_run_free(r);
  lim = ev_default_limits;
  lim.max_depth = 1 << 30;
  lim.max_stack = 256 << 10;
  r = ev_run_new(&lim);
  res = ev_eval(r, call1(m, ir_global_ref(m, deep), ci(m, 1)));
  CHECK(res.status == EV_INCONCLUSIVE);
  CHECK_STR(res.msg, "evaluation used more than 262144 bytes of stack");
  /* the default depth limit fits in the default stack budget (in this
   * sanitizer build, where frames are biggest) */
  int64_t per_level = (256 << 10) / r->peak_depth;
  CHECK_MSG(per_level * ev_default_limits.max_depth <= ev_default_limits.max_stack,
            "%lld bytes of stack per level", (long long)per_level);
  printf("stack per nesting level: about %lld bytes\n", (long long)per_level);
  ev_run_free(r);

  /* Memory: a 1000x1000 float32 input (4 MB) does not fit in 1 MB. */
  int64_t shape[2] = {1000, 1000};
  Var *big = ir_var(m, "big", ir_tensor_type(m->arena, DT_FLOAT32, 2, shape));
  ir_def(m, "main", fn1(m, big, vr(m, big)));
  lim = ev_default_limits;
  lim.max_bytes = 1 << 20;
  r = ev_run_new(&lim);
  res = ev_run_main(r, m, 1);
  CHECK(res.status == EV_INCONCLUSIVE);
  CHECK_STR(res.msg, "memory budget of 1048576 bytes exhausted");
  CHECK(arena_used(r->arena) < (1 << 20));
  ev_run_free(r);
  /* ... and so is a big constant */
  Tensor *c = ir_tensor_new(m->arena, DT_FLOAT64, 2, shape);
  r = ev_run_new(&lim);
  res = ev_eval(r, ir_const(m, c));
  CHECK(res.status == EV_INCONCLUSIVE && strstr(res.msg, "memory budget"));
  ev_run_free(r);
  ir_module_free(m);
}

/* ---------------------------------------------------------------- inputs */

static void test_inputs(void) {
  Module *m = ir_module_new();
  int64_t s23[2] = {2, 3}, s50[1] = {50};
  Type *f32 = ir_tensor_type(m->arena, DT_FLOAT32, 1, s50);
  Type *f64 = ir_tensor_type(m->arena, DT_FLOAT64, 2, s23);
  Type *i8 = ir_tensor_type(m->arena, DT_INT8, 1, s50);
  Type *i64 = ir_tensor_type(m->arena, DT_INT64, 1, s50);
  Type *bl = ir_tensor_type(m->arena, DT_BOOL, 1, s50);
  Type *elem = i32(m);
  Type *lst = ir_adt_type(m->arena, ir_list_def(m), 1, &elem);
  Type *fty = ir_func_type(m->arena, 0, NULL, 1, &elem, f64);
  Type *pair[2] = {ir_ref_type(m->arena, i32(m)), ir_unit_type(m->arena)};
  Type *ps[8] = {f32, f64, i8, i64, bl, lst, fty, ir_tuple_type(m->arena, 2, pair)};
  Type *ft = ir_func_type(m->arena, 0, NULL, 8, ps, ir_unit_type(m->arena));

  EvRun *r = ev_run_new(NULL);
  EvValue *a[8], *b[8], *c[8];
  CHECK(ev_make_args(r, ft, 42, a));
  CHECK(ev_make_args(r, ft, 42, b));
  CHECK(ev_make_args(r, ft, 43, c));
  bool same = true, differs = false;
  for (int i = 0; i < 8; i++) {
    same &= ev_value_identical(a[i], b[i]);
    differs |= !ev_value_identical(a[i], c[i]);
  }
  CHECK(same);
  CHECK(differs);
  /* ranges: floats in [-2, 2] with some exact values, ints in [-5, 5], bools 0/1 */
  int exact = 0, neg = 0;
  for (int i = 0; i < 50; i++) {
    double f = ir_tensor_get_f64(a[0]->tensor, i);
    CHECK(f >= -2 && f <= 2);
    exact += f == 0 || f == 1 || f == -1 || f == 0.5 || f == -0.5 || f == 2 || f == -2 || f == 0.25;
    int64_t k = ir_tensor_get_i64(a[2]->tensor, i), l = ir_tensor_get_i64(a[3]->tensor, i);
    CHECK(k >= -5 && k <= 5 && l >= -5 && l <= 5);
    neg += k < 0;
    int64_t t = ir_tensor_get_i64(a[4]->tensor, i);
    CHECK(t == 0 || t == 1);
  }
  CHECK_MSG(exact >= 3 && exact <= 30, "%d exact", exact);
  CHECK(neg > 5 && neg < 45);
  CHECK(a[1]->tensor->dtype == DT_FLOAT64 && a[1]->tensor->rank == 2 &&
        a[1]->tensor->shape[1] == 3);
  /* a list value is finite and well formed: Cons(int32, ..) ending in Nil */
  const EvValue *v = a[5];
  int len = 0;
  while (v->kind == VAL_ADT && strcmp(v->adt.ctor->name, "Cons") == 0) {
    CHECK(v->adt.fields[0]->kind == VAL_TENSOR && v->adt.fields[0]->tensor->dtype == DT_INT32);
    v = v->adt.fields[1], len++;
  }
  CHECK(v->kind == VAL_ADT && strcmp(v->adt.ctor->name, "Nil") == 0 && len <= 16);
  /* a function parameter is a constant function of its result type */
  CHECK(a[6]->kind == VAL_CLOSURE && a[6]->closure.konst &&
        a[6]->closure.konst->kind == VAL_TENSOR && a[6]->closure.konst->tensor->numel == 6);
  EvValue *arg = ev_val_tensor(r, ir_tensor_scalar_f64(r->arena, DT_INT32, 9));
  EvResult res = ev_apply(r, a[6], 1, &arg);
  CHECK(res.status == EV_OK && res.value == a[6]->closure.konst);
  CHECK(a[7]->kind == VAL_TUPLE && a[7]->tuple.fields[0]->kind == VAL_REF &&
        a[7]->tuple.fields[1]->kind == VAL_TUPLE && a[7]->tuple.fields[1]->tuple.n == 0);

  /* lists across seeds have several lengths (the ADT budget is used) */
  int lens[20], distinct = 0;
  for (int s = 0; s < 20; s++) {
    EvValue *one;
    CHECK(ev_make_args(r, ir_func_type(m->arena, 0, NULL, 1, &lst, lst), (uint64_t)s, &one));
    int n = 0;
    for (; strcmp(one->adt.ctor->name, "Cons") == 0; one = one->adt.fields[1])
      n++;
    lens[s] = n;
    bool seen = false;
    for (int t = 0; t < s; t++)
      seen |= lens[t] == n;
    distinct += !seen;
  }
  CHECK_MSG(distinct >= 3, "%d distinct lengths", distinct);

  /* type variables cannot be given values */
  Type *tv = ir_type_var(m->arena, "T");
  EvValue *dummy;
  CHECK(!ev_make_args(r, ir_func_type(m->arena, 1, &tv, 1, &tv, tv), 1, &dummy));
  CHECK(r->status == EV_INVALID);
  ev_run_free(r);
  ir_module_free(m);
}

/* ---------------------------------------------------------- determinism */

static void test_determinism(void) {
  Module *m = ir_module_new();
  /* def @main(%a: float32[2,3], %l: List[int32], %r: Ref[bool]) {
   *   let %u = %r := True; (%l, %a, ref_read(%r), %a) } */
  int64_t s23[2] = {2, 3};
  Type *elem = i32(m);
  Var *a = ir_var(m, "a", ir_tensor_type(m->arena, DT_FLOAT32, 2, s23));
  Var *l = ir_var(m, "l", ir_adt_type(m->arena, ir_list_def(m), 1, &elem));
  Var *rv = ir_var(m, "r", ir_ref_type(m->arena, ir_scalar_type(m->arena, DT_BOOL)));
  Var *u = ir_var(m, "u", NULL);
  Expr *f[4] = {vr(m, l), vr(m, a), ir_ref_read(m, vr(m, rv)), vr(m, a)};
  Var *params[3] = {a, l, rv};
  Expr *body = ir_let(m, u, ir_ref_write(m, vr(m, rv), cb(m, true)), ir_tuple(m, 4, f));
  ir_def(m, "main", ir_func(m, 3, params, NULL, body));
  EvRun *r1 = ev_run_new(NULL), *r2 = ev_run_new(NULL), *r3 = ev_run_new(NULL);
  EvResult x = ev_run_main(r1, m, 7), y = ev_run_main(r2, m, 7), z = ev_run_main(r3, m, 8);
  CHECK(x.status == EV_OK && y.status == EV_OK && z.status == EV_OK);
  CHECK(ev_value_identical(x.value, y.value));
  CHECK(!ev_value_identical(x.value, z.value));
  CHECK(r1->steps == r2->steps);
  CHECK_STR(ev_print_value(r1->arena, x.value), ev_print_value(r2->arena, y.value));
  char why[300];
  CHECK(ev_compare(&x, &y, NULL, why, sizeof why) == EV_SAME);
  CHECK(ev_compare(&x, &z, NULL, why, sizeof why) == EV_DIFFERENT);
  ev_run_free(r1);
  ev_run_free(r2);
  ev_run_free(r3);

  /* A result does not alias the module: rewriting a constant afterwards
   * leaves the run's value alone. */
  Tensor *k = ir_tensor_scalar_f64(m->arena, DT_INT32, 5);
  EvRun *r = ev_run_new(NULL);
  EvResult res = ev_eval(r, tup2(m, ir_const(m, k), ir_const(m, k)));
  ((int32_t *)k->data)[0] = 6;
  CHECK_STR(ev_print_value(r->arena, res.value), "(int32 5, int32 5)");
  ev_run_free(r);
  ir_module_free(m);
}

/* --------------------------------------------------------------- effects */

/* A trace as text: "new 0 int32 0; write 0 int32 5; read 0 int32 5". */
static char *trace_str(EvRun *r, const EvTrace *t) {
  static const char *kind[] = {"new", "write", "read"};
  char *s = "";
  for (const EvEffect *e = t->first; e; e = e->next)
    s = arena_printf(r->arena, "%s%s%s %d %s", s, *s ? "; " : "", kind[e->kind], e->ref,
                     ev_print_value(r->arena, e->value));
  return s;
}

static void test_effects_recorded(void) {
  Module *m = ir_module_new();
  /* let %s = ref(0); (%s := 5, ref_read(%s), ref(ref_read(%s))) */
  Var *s = ir_var(m, "s", NULL);
  Expr *f3[3] = {ir_ref_write(m, vr(m, s), ci(m, 5)), ir_ref_read(m, vr(m, s)),
                 ir_ref_new(m, ir_ref_read(m, vr(m, s)))};
  EvRun *r = ev_run_new(NULL);
  EvResult res = ev_eval(r, ir_let(m, s, ir_ref_new(m, ci(m, 0)), ir_tuple(m, 3, f3)));
  CHECK(res.status == EV_OK && res.trace && res.trace->n == 5);
  CHECK_STR(trace_str(r, res.trace),
            "new 0 int32 0; write 0 int32 5; read 0 int32 5; read 0 int32 5; new 1 int32 5");
  /* A call without effects has an empty trace, not a missing one. */
  res = ev_eval(r, ci(m, 1));
  CHECK(res.trace && res.trace->n == 0 && !res.trace->first);
  /* Refs stay numbered across the calls of one run. */
  res = ev_eval(r, ir_ref_new(m, ci(m, 7)));
  CHECK_STR(trace_str(r, res.trace), "new 2 int32 7");
  ev_run_free(r);

  /* An input ref is numbered first and its creation is not an effect:
   * def @main(%x: Ref[int32]) { let %y = ref(1); %x := ref_read(%y) } */
  Var *x = ir_var(m, "x", ir_ref_type(m->arena, i32(m))), *y = ir_var(m, "y", NULL);
  Expr *body =
      ir_let(m, y, ir_ref_new(m, ci(m, 1)), ir_ref_write(m, vr(m, x), ir_ref_read(m, vr(m, y))));
  ir_def(m, "main", fn1(m, x, body));
  r = ev_run_new(NULL);
  res = ev_run_main(r, m, 3);
  CHECK(res.status == EV_OK);
  CHECK_STR(trace_str(r, res.trace), "new 1 int32 1; read 1 int32 1; write 0 int32 1");
  ev_run_free(r);

  /* A failing run keeps the effects before its failure:
   * let %z = ref(2); match? (Nil) { Cons(_, _) => ref_read(%z) } ... */
  Var *z = ir_var(m, "z", NULL);
  Pattern *w2[2] = {ir_pat_wild(m), ir_pat_wild(m)};
  Clause cl = {ir_pat_ctor(m, ir_ctor_get(m, "Cons"), 2, w2), ir_ref_read(m, vr(m, z))};
  Expr *fail = ir_let(m, z, ir_ref_new(m, ci(m, 2)), ir_match(m, ctor0(m, "Nil"), 1, &cl, false));
  r = ev_run_new(NULL);
  res = ev_eval(r, fail);
  CHECK(res.status == EV_ERROR);
  CHECK_STR(trace_str(r, res.trace), "new 0 int32 2");
  ev_run_free(r);
  ir_module_free(m);
}

/* A result of status st whose trace is the n effects (kind, ref, int32
 * value) in es, built by hand. */
typedef struct {
  EvEffectKind kind;
  int ref, value;
} Eff;

static EvResult traced(EvRun *r, EvStatus st, int n, const Eff *es) {
  EvTrace *t = ARENA_NEW(r->arena, EvTrace);
  for (int i = 0; i < n; i++) {
    EvEffect *e = ARENA_NEW(r->arena, EvEffect);
    e->kind = es[i].kind;
    e->ref = es[i].ref;
    e->value = ev_val_tensor(r, ir_tensor_scalar_f64(r->arena, DT_INT32, es[i].value));
    if (t->last)
      t->last->next = e;
    else
      t->first = e;
    t->last = e;
    t->n++;
  }
  EvValue *unit_value = ev_val_tuple(r, 0);
  return (EvResult){st, st == EV_OK ? unit_value : NULL, st == EV_OK ? "" : "why", t};
}

static void test_effects_compare(void) {
  EvRun *r = ev_run_new(NULL);
  char why[300];
  const Eff base[4] = {
      {EV_EFF_NEW, 0, 0}, {EV_EFF_WRITE, 0, 5}, {EV_EFF_READ, 0, 5}, {EV_EFF_WRITE, 1, 6}};
  EvResult a = traced(r, EV_OK, 4, base), same = traced(r, EV_OK, 4, base);
  CHECK(ev_compare_effects(&a, &same, NULL, why, sizeof why) == EV_SAME);
  CHECK_STR(why, "");
  /* a different value written */
  const Eff val[4] = {
      {EV_EFF_NEW, 0, 0}, {EV_EFF_WRITE, 0, 4}, {EV_EFF_READ, 0, 5}, {EV_EFF_WRITE, 1, 6}};
  EvResult b = traced(r, EV_OK, 4, val);
  CHECK(ev_compare_effects(&a, &b, NULL, why, sizeof why) == EV_DIFFERENT);
  CHECK_STR(why, "effect 2 (ref 0 written (int32 5)): at $: int32 5 vs 4");
  /* reordered effects */
  const Eff swap[4] = {
      {EV_EFF_NEW, 0, 0}, {EV_EFF_READ, 0, 5}, {EV_EFF_WRITE, 0, 5}, {EV_EFF_WRITE, 1, 6}};
  b = traced(r, EV_OK, 4, swap);
  CHECK(ev_compare_effects(&a, &b, NULL, why, sizeof why) == EV_DIFFERENT);
  CHECK_STR(why, "effect 2: ref 0 written (int32 5) vs ref 0 read (int32 5)");
  /* a dropped read: a difference, unless the rules let reads go */
  EvRules reads = {.drop_reads = true};
  const Eff noread[3] = {{EV_EFF_NEW, 0, 0}, {EV_EFF_WRITE, 0, 5}, {EV_EFF_WRITE, 1, 6}};
  b = traced(r, EV_OK, 3, noread);
  CHECK(ev_compare_effects(&a, &b, NULL, why, sizeof why) == EV_DIFFERENT);
  CHECK(ev_compare_effects(&a, &b, &reads, why, sizeof why) == EV_SAME);
  /* ... but never writes, and never adds a read */
  const Eff nowrite[3] = {{EV_EFF_NEW, 0, 0}, {EV_EFF_WRITE, 0, 5}, {EV_EFF_READ, 0, 5}};
  b = traced(r, EV_OK, 3, nowrite);
  CHECK(ev_compare_effects(&a, &b, &reads, why, sizeof why) == EV_DIFFERENT);
  CHECK_STR(why,
            "effect 4: ref 1 written (int32 6) vs nothing: the second run has no more effects");
  CHECK(ev_compare_effects(&b, &a, &reads, why, sizeof why) == EV_DIFFERENT);
  CHECK_STR(why, "effect 4: nothing: the first run has no more effects vs ref 1 written (int32 6)");
  CHECK(ev_compare_effects(&b, &a, &(EvRules){.effects = true}, why, sizeof why) == EV_SAME);
  /* a duplicated write */
  const Eff dup[5] = {{EV_EFF_NEW, 0, 0},
                      {EV_EFF_WRITE, 0, 5},
                      {EV_EFF_WRITE, 0, 5},
                      {EV_EFF_READ, 0, 5},
                      {EV_EFF_WRITE, 1, 6}};
  b = traced(r, EV_OK, 5, dup);
  CHECK(ev_compare_effects(&a, &b, &reads, why, sizeof why) == EV_DIFFERENT);
  /* An inconclusive run's trace must agree as far as it goes. */
  EvResult inc = traced(r, EV_INCONCLUSIVE, 2, base), inc_bad = traced(r, EV_INCONCLUSIVE, 2, val);
  CHECK(ev_compare_effects(&a, &inc, NULL, why, sizeof why) == EV_SAME);
  CHECK(ev_compare_effects(&inc, &a, NULL, why, sizeof why) == EV_SAME);
  CHECK(ev_compare_effects(&a, &inc_bad, NULL, why, sizeof why) == EV_DIFFERENT);
  CHECK(ev_compare_effects(&inc_bad, &a, NULL, why, sizeof why) == EV_DIFFERENT);
  /* A failure ends a trace; a value where it failed continues it only
   * when the rules allow the value. */
  EvResult err = traced(r, EV_ERROR, 2, base), err2 = traced(r, EV_ERROR, 2, base);
  CHECK(ev_compare_effects(&err, &err2, NULL, why, sizeof why) == EV_SAME);
  CHECK(ev_compare_effects(&err, &a, NULL, why, sizeof why) == EV_DIFFERENT);
  CHECK(ev_compare_effects(&err, &a, &(EvRules){.error_to_value = true}, why, sizeof why) ==
        EV_SAME);
  CHECK(ev_compare_effects(&a, &err, &(EvRules){.error_to_value = true}, why, sizeof why) ==
        EV_DIFFERENT);
  /* Without a trace (a target that records none) nothing is compared. */
  EvResult untraced = a;
  untraced.trace = NULL;
  CHECK(ev_compare_effects(&untraced, &b, NULL, why, sizeof why) == EV_SAME);
  /* Refs inside traced values compare by their number, not contents. */
  EvResult ra = traced(r, EV_OK, 1, base), rb = traced(r, EV_OK, 1, base);
  EvValue *cell = ev_val_ref(r, ev_val_tuple(r, 0)), *cell2 = ev_val_ref(r, ev_val_tuple(r, 0));
  ra.trace->first->value = cell;
  rb.trace->first->value = cell2;
  CHECK(ev_compare_effects(&ra, &rb, NULL, why, sizeof why) == EV_DIFFERENT);
  CHECK(strstr(why, "ref 0 vs ref 1") != NULL);
  rb.trace->first->value = cell;
  CHECK(ev_compare_effects(&ra, &rb, NULL, why, sizeof why) == EV_SAME);
  ev_run_free(r);
}

/* ------------------------------------------------------------ comparison */

/* A float tensor of shape (n) or (2, 3) from doubles. */
static EvValue *ften(EvRun *r, DType dt, int rank, const int64_t *shape, const double *xs) {
  Tensor *t = ir_tensor_new(r->arena, dt, rank, shape);
  for (int64_t i = 0; i < t->numel; i++)
    ir_tensor_set_f64(t, i, xs[i]);
  return ev_val_tensor(r, t);
}

static EvVerdict cmpr(EvRun *r, DType dt, double x, double y, const EvRules *rules, char *why,
                      size_t n) {
  return ev_compare_values(ften(r, dt, 0, NULL, &x), ften(r, dt, 0, NULL, &y), rules, why, n);
}

/* Scalars under the default tolerance. */
static EvVerdict cmp1(EvRun *r, DType dt, double x, double y, char *why, size_t n) {
  return cmpr(r, dt, x, y, &(EvRules){.tol = &ev_default_tolerance}, why, n);
}

/* A NaN of float32 with another payload (and sign) than NAN's. */
static double other_nan(void) {
  uint32_t bits = 0xffc00123u;
  float f;
  memcpy(&f, &bits, sizeof f);
  return f;
}

static void test_compare(void) {
  EvRun *r = ev_run_new(NULL);
  char why[300];
  /* Exact by default: the same bits, but any NaN faces any NaN. */
  CHECK(cmpr(r, DT_FLOAT32, 0.1, 0.1, NULL, why, sizeof why) == EV_SAME);
  CHECK(cmpr(r, DT_FLOAT32, 1, 1 + 0x1p-23, NULL, why, sizeof why) == EV_DIFFERENT); /* 1 ulp */
  CHECK_STR(why, "at $: float32 1 vs 1.00000012");
  CHECK(cmpr(r, DT_FLOAT64, 1, 1 + 0x1p-52, NULL, why, sizeof why) == EV_DIFFERENT);
  CHECK(cmpr(r, DT_FLOAT32, NAN, other_nan(), NULL, why, sizeof why) == EV_SAME);
  CHECK(cmpr(r, DT_FLOAT32, NAN, 1, NULL, why, sizeof why) == EV_DIFFERENT);
  CHECK(cmpr(r, DT_FLOAT32, INFINITY, INFINITY, NULL, why, sizeof why) == EV_SAME);
  /* -0 and +0 differ unless the rules say otherwise (a tolerance does) */
  CHECK(cmpr(r, DT_FLOAT32, -0.0, 0.0, NULL, why, sizeof why) == EV_DIFFERENT);
  CHECK_STR(why, "at $: float32 -0 vs 0");
  CHECK(cmpr(r, DT_FLOAT64, 0.0, -0.0, NULL, why, sizeof why) == EV_DIFFERENT);
  CHECK(cmpr(r, DT_FLOAT32, -0.0, -0.0, NULL, why, sizeof why) == EV_SAME);
  EvRules zeros = {.signed_zero = true};
  CHECK(cmpr(r, DT_FLOAT32, -0.0, 0.0, &zeros, why, sizeof why) == EV_SAME);
  CHECK(cmpr(r, DT_FLOAT32, 1, 1 + 0x1p-23, &zeros, why, sizeof why) == EV_DIFFERENT);
  CHECK(cmp1(r, DT_FLOAT32, -0.0, 0.0, why, sizeof why) == EV_SAME);
  /* float32 under the tolerance: |a - b| <= 1e-4 + 1e-4 * max(|a|, |b|) */
  CHECK(cmp1(r, DT_FLOAT32, 100, 100.01, why, sizeof why) == EV_SAME);      /* 0.01 <= 0.0101 */
  CHECK(cmp1(r, DT_FLOAT32, 100, 100.02, why, sizeof why) == EV_DIFFERENT); /* 0.02 > 0.0101 */
  CHECK_STR(why, "at $: float32 100 vs 100.019997");
  CHECK(cmp1(r, DT_FLOAT32, 0, 9e-5, why, sizeof why) == EV_SAME);      /* atol near zero */
  CHECK(cmp1(r, DT_FLOAT32, 0, 2e-4, why, sizeof why) == EV_DIFFERENT); /* 2e-4 > 1e-4 */
  /* float64 is tighter: 1e-9 + 1e-9 * 1 */
  CHECK(cmp1(r, DT_FLOAT64, 1, 1 + 5e-10, why, sizeof why) == EV_SAME);
  CHECK(cmp1(r, DT_FLOAT64, 1, 1 + 3e-9, why, sizeof why) == EV_DIFFERENT);
  CHECK(cmp1(r, DT_FLOAT64, 1, 1 + 1e-6, why, sizeof why) == EV_DIFFERENT);
  /* NaN must face NaN; infinities must match in sign */
  CHECK(cmp1(r, DT_FLOAT32, NAN, NAN, why, sizeof why) == EV_SAME);
  CHECK(cmp1(r, DT_FLOAT32, NAN, 1, why, sizeof why) == EV_DIFFERENT);
  CHECK_STR(why, "at $: float32 nan vs 1");
  CHECK(cmp1(r, DT_FLOAT32, 0, NAN, why, sizeof why) == EV_DIFFERENT);
  CHECK(cmp1(r, DT_FLOAT32, INFINITY, INFINITY, why, sizeof why) == EV_SAME);
  CHECK(cmp1(r, DT_FLOAT32, -INFINITY, -INFINITY, why, sizeof why) == EV_SAME);
  CHECK(cmp1(r, DT_FLOAT32, INFINITY, -INFINITY, why, sizeof why) == EV_DIFFERENT);
  CHECK_STR(why, "at $: float32 inf vs -inf");
  CHECK(cmp1(r, DT_FLOAT32, INFINITY, 3.4e38, why, sizeof why) == EV_DIFFERENT);
  CHECK(cmp1(r, DT_FLOAT32, INFINITY, NAN, why, sizeof why) == EV_DIFFERENT);
  /* NaN positions: same positions pass, a moved NaN is reported */
  int64_t s4[1] = {4};
  double n1[4] = {1, NAN, 3, NAN}, n2[4] = {1, NAN, 3, NAN}, n3[4] = {1, 2, NAN, NAN};
  CHECK(ev_compare_values(ften(r, DT_FLOAT32, 1, s4, n1), ften(r, DT_FLOAT32, 1, s4, n2), NULL, why,
                          sizeof why) == EV_SAME);
  CHECK(ev_compare_values(ften(r, DT_FLOAT32, 1, s4, n1), ften(r, DT_FLOAT32, 1, s4, n3), NULL, why,
                          sizeof why) == EV_DIFFERENT);
  CHECK_STR(why, "at $[1] (index (1,) of (4,)): float32 nan vs 2");

  /* integers and bools compare exactly */
  CHECK(cmp1(r, DT_INT64, 3, 3, why, sizeof why) == EV_SAME);
  CHECK(cmp1(r, DT_INT32, 1000000, 1000001, why, sizeof why) == EV_DIFFERENT);
  CHECK_STR(why, "at $: int32 1000000 vs 1000001");
  CHECK(cmp1(r, DT_BOOL, 1, 0, why, sizeof why) == EV_DIFFERENT);
  CHECK_STR(why, "at $: bool True vs False");

  /* the first differing element inside a tuple, with its index */
  int64_t s23[2] = {2, 3};
  double g1[6] = {1, 2, 3, 4, 5, 6}, g2[6] = {1, 2, 3, 4, 6, 7};
  EvValue *ta = ev_val_tuple(r, 2), *tb = ev_val_tuple(r, 2);
  ta->tuple.fields[0] = tb->tuple.fields[0] = ften(r, DT_INT8, 0, NULL, g1);
  ta->tuple.fields[1] = ften(r, DT_FLOAT32, 2, s23, g1);
  tb->tuple.fields[1] = ften(r, DT_FLOAT32, 2, s23, g2);
  CHECK(ev_compare_values(ta, tb, NULL, why, sizeof why) == EV_DIFFERENT);
  CHECK_STR(why, "at $.1[4] (index (1, 1) of (2, 3)): float32 5 vs 6");
  /* shapes and dtypes must agree */
  tb->tuple.fields[1] = ften(r, DT_FLOAT32, 1, s4, g1);
  CHECK(ev_compare_values(ta, tb, NULL, why, sizeof why) == EV_DIFFERENT);
  CHECK_STR(why, "at $.1: Tensor[(2, 3), float32] vs Tensor[(4,), float32]");
  tb->tuple.fields[1] = ften(r, DT_FLOAT64, 2, s23, g1);
  CHECK(ev_compare_values(ta, tb, NULL, why, sizeof why) == EV_DIFFERENT);
  CHECK_STR(why, "at $.1: Tensor[(2, 3), float32] vs Tensor[(2, 3), float64]");
  tb->tuple.fields[1] = ev_val_tuple(r, 0);
  CHECK(ev_compare_values(ta, tb, NULL, why, sizeof why) == EV_DIFFERENT);
  CHECK_STR(why, "at $.1: tensor vs tuple");

  /* ADTs: paths name the constructor; values of two modules compare by name */
  Module *m1 = ir_module_new(), *m2 = ir_module_new();
  Ctor *c1 = ir_ctor_get(m1, "Cons"), *nil1 = ir_ctor_get(m1, "Nil");
  Ctor *c2 = ir_ctor_get(m2, "Cons"), *nil2 = ir_ctor_get(m2, "Nil");
  double e1[3] = {1, 2, 3}, e2[3] = {1, 5, 3};
  EvValue *la = NULL, *lb = NULL;
  EvValue *na = ev_val_adt(r, nil1), *nb = ev_val_adt(r, nil2);
  la = na, lb = nb;
  for (int i = 2; i >= 0; i--) {
    EvValue *x = ev_val_adt(r, c1), *y = ev_val_adt(r, c2);
    x->adt.fields[0] = ften(r, DT_INT32, 0, NULL, &e1[i]);
    y->adt.fields[0] = ften(r, DT_INT32, 0, NULL, &e2[i]);
    x->adt.fields[1] = la, y->adt.fields[1] = lb;
    la = x, lb = y;
  }
  CHECK(ev_compare_values(la, la, NULL, why, sizeof why) == EV_SAME);
  CHECK_STR(why, "");
  CHECK(ev_compare_values(la, lb, NULL, why, sizeof why) == EV_DIFFERENT);
  CHECK_STR(why, "at $.Cons.1.Cons.0: int32 2 vs 5");
  CHECK(ev_compare_values(la, la->adt.fields[1], NULL, why, sizeof why) == EV_DIFFERENT);
  CHECK_STR(why, "at $.Cons.0: int32 1 vs 2");               /* [1, 2, 3] vs [2, 3] */
  EvValue *lc = ev_val_adt(r, c1), *lc2 = ev_val_adt(r, c1); /* [1, 2] */
  lc->adt.fields[0] = la->adt.fields[0], lc->adt.fields[1] = lc2;
  lc2->adt.fields[0] = la->adt.fields[1]->adt.fields[0], lc2->adt.fields[1] = na;
  CHECK(ev_compare_values(la, lc, NULL, why, sizeof why) == EV_DIFFERENT);
  CHECK_STR(why, "at $.Cons.1.Cons.1: Cons vs Nil");
  /* refs compare by contents */
  EvValue *ra = ev_val_ref(r, ften(r, DT_FLOAT64, 0, NULL, &e1[0]));
  EvValue *rb = ev_val_ref(r, ften(r, DT_FLOAT64, 0, NULL, &e1[1]));
  CHECK(ev_compare_values(ra, rb, NULL, why, sizeof why) == EV_DIFFERENT);
  CHECK_STR(why, "at $.ref: float64 1 vs 2");
  rb->ref.contents = ra->ref.contents;
  CHECK(ev_compare_values(ra, rb, NULL, why, sizeof why) == EV_SAME);
  /* closures are skipped, with a note */
  Expr *fnx = fn0(m1, ci(m1, 1));
  EvValue *fa = ev_val_tuple(r, 2), *fb = ev_val_tuple(r, 2);
  EvResult cl = ev_eval(r, fnx), cl2 = ev_eval(r, fn0(m2, ci(m2, 2)));
  fa->tuple.fields[0] = cl.value, fb->tuple.fields[0] = cl2.value;
  fa->tuple.fields[1] = fb->tuple.fields[1] = ra;
  CHECK(ev_compare_values(fa, fb, NULL, why, sizeof why) == EV_SAME);
  CHECK_STR(why, "1 closure not compared");
  /* a custom tolerance applies */
  EvTolerance loose = {1e-1, 0, 1e-1, 0};
  double p = 1.0, q = 1.05;
  CHECK(ev_compare_values(ften(r, DT_FLOAT32, 0, NULL, &p), ften(r, DT_FLOAT32, 0, NULL, &q),
                          &(EvRules){.tol = &loose}, why, sizeof why) == EV_SAME);
  CHECK(ev_float_close(1.0, 1.05, DT_FLOAT64, &loose) &&
        !ev_float_close(1.0, 1.2, DT_FLOAT64, &loose));

  /* Statuses: inconclusive undecides, errors agree, invalid differs. */
  EvResult ok = {EV_OK, la, ""}, ok2 = {EV_OK, lb, ""};
  EvResult err = {EV_ERROR, NULL, "match: no clause"}, inc = {EV_INCONCLUSIVE, NULL, "out of fuel"};
  EvResult bad = {EV_INVALID, NULL, "unbound variable %x"};
  CHECK(ev_compare(&ok, &ok, NULL, why, sizeof why) == EV_SAME);
  CHECK(ev_compare(&ok, &ok2, NULL, why, sizeof why) == EV_DIFFERENT);
  CHECK(ev_compare(&ok, &inc, NULL, why, sizeof why) == EV_UNDECIDED);
  CHECK_STR(why, "second run inconclusive: out of fuel");
  CHECK(ev_compare(&inc, &bad, NULL, why, sizeof why) == EV_UNDECIDED);
  CHECK(ev_compare(&err, &err, NULL, why, sizeof why) == EV_SAME);
  /* a transformation may remove a failure only when the rules allow it,
   * and may never add one */
  CHECK(ev_compare(&err, &ok, NULL, why, sizeof why) == EV_DIFFERENT);
  CHECK_STR(why, "only the first run fails: match: no clause");
  CHECK(ev_compare(&err, &ok, &(EvRules){.error_to_value = true}, why, sizeof why) == EV_SAME);
  CHECK_STR(why, "the first run fails (match: no clause), the second does not: allowed");
  CHECK(ev_compare(&ok, &err, &(EvRules){.error_to_value = true}, why, sizeof why) == EV_DIFFERENT);
  CHECK(ev_compare(&ok, &err, NULL, why, sizeof why) == EV_DIFFERENT);
  CHECK_STR(why, "only the second run fails: match: no clause");
  CHECK(ev_compare(&ok, &bad, NULL, why, sizeof why) == EV_DIFFERENT);
  CHECK_STR(why, "second run invalid: unbound variable %x");
  CHECK(ev_compare(&bad, &bad, NULL, NULL, 0) == EV_DIFFERENT);

  /* A long list (deeper than the walk limit if it recursed) compares. */
  EvValue *big_a = ev_val_adt(r, nil1), *big_b = ev_val_adt(r, nil1);
  for (int i = 0; i < 100000; i++) {
    double d = i;
    EvValue *x = ev_val_adt(r, c1), *y = ev_val_adt(r, c1);
    x->adt.fields[0] = y->adt.fields[0] = ften(r, DT_INT32, 0, NULL, &d);
    x->adt.fields[1] = big_a, y->adt.fields[1] = big_b;
    big_a = x, big_b = y;
  }
  CHECK(ev_compare_values(big_a, big_b, NULL, why, sizeof why) == EV_SAME);
  CHECK(ev_value_identical(big_a, big_b));
  CHECK(strlen(ev_print_value(r->arena, big_a)) < 2000);
  /* A cycle through a ref inside an ADT cannot hang a comparison. */
  TypeDef *d = ir_typedef_add(m1, "Loop", 0, NULL);
  Type *lt = ir_adt_type(m1->arena, d, 0, NULL);
  Type *rt = ir_ref_type(m1->arena, lt);
  Ctor *node = ir_ctor_add(m1, d, "Node", 1, &rt);
  EvValue *cyc = ev_val_adt(r, node);
  cyc->adt.fields[0] = ev_val_ref(r, cyc);
  CHECK(ev_compare_values(cyc, cyc, NULL, why, sizeof why) == EV_UNDECIDED);
  CHECK(!ev_value_identical(cyc, cyc));
  CHECK(strlen(ev_print_value(r->arena, cyc)) < 2000);
  ir_module_free(m1);
  ir_module_free(m2);
  ev_run_free(r);
}

/* -------------------------------------------------------------- printing */

static void test_print(void) {
  Module *m = ir_module_new();
  EvRun *r = ev_run_new(NULL);
  int64_t s22[2] = {2, 2}, s3[1] = {3}, s100[1] = {100}, s0[2] = {2, 0};
  double v4[4] = {1, 2, 3, 4}, b3[3] = {1, 0, 1};
  CHECK_STR(ev_print_value(r->arena, ften(r, DT_INT32, 2, s22, v4)), "int32 [[1, 2], [3, 4]]");
  CHECK_STR(ev_print_value(r->arena, ften(r, DT_BOOL, 1, s3, b3)), "bool [True, False, True]");
  double fl[3] = {0.1, -1e30, NAN};
  CHECK_STR(ev_print_value(r->arena, ften(r, DT_FLOAT32, 1, s3, fl)),
            "float32 [0.100000001, -1.00000002e+30, nan]");
  CHECK_STR(ev_print_value(r->arena, ften(r, DT_FLOAT64, 1, s3, fl)),
            "float64 [0.10000000000000001, -1e+30, nan]");
  CHECK_STR(ev_print_value(r->arena, ften(r, DT_INT8, 2, s0, v4)), "int8 empty(2, 0)");
  int64_t s222[3] = {2, 1, 2};
  CHECK_STR(ev_print_value(r->arena, ften(r, DT_INT64, 3, s222, v4)), "int64 [[[1, 2]], [[3, 4]]]");
  double h[100];
  for (int i = 0; i < 100; i++)
    h[i] = i;
  char *long_s = ev_print_value(r->arena, ften(r, DT_INT32, 1, s100, h));
  CHECK(strncmp(long_s, "int32 [0, 1, 2, ", 16) == 0);
  CHECK(strstr(long_s, ", 63, ...]") && !strstr(long_s, "64"));
  /* tuples, including the 1-tuple, refs, ADTs */
  EvValue *one = ev_val_tuple(r, 1);
  one->tuple.fields[0] = ev_val_ref(r, ev_val_tuple(r, 0));
  CHECK_STR(ev_print_value(r->arena, one), "(ref(()),)");
  CHECK_STR(show(r, ctor1(m, "Some", ctor0(m, "None"))), "Some(None)");
  ev_run_free(r);
  ir_module_free(m);
}

int main(void) {
  test_basic_forms();
  test_closures();
  test_globals_and_recursion();
  test_refs();
  test_match();
  test_invalid();
  test_budgets();
  test_inputs();
  test_determinism();
  test_compare();
  test_effects_recorded();
  test_effects_compare();
  test_print();
  return test_summary();
}
