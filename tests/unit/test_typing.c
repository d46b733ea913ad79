/* Type inference on programs built with the builder API, checked with a
 * small fake operator relation (a test double for op_relate), so that the
 * solver is tested on its own: unification, the occurs check, relations
 * deferred and re-run, polymorphism, recursion, closures, refs, matches
 * and their exhaustiveness, errors with positions, the prelude, and
 * annotation erasure. */
#include <stdarg.h>

#include "compiler/typing/typing.h"
#include "test.h"

/* ------------------------------------------------------- fake relation */

static int rel_calls;

static RelStatus fail(char *err, size_t n, const char *msg) {
  snprintf(err, n, "%s", msg);
  return REL_ERROR;
}

/* add/subtract/multiply: equal tensor types, or a scalar and a tensor of
 * one dtype; equal/less: the same with a bool result; negative: any
 * tensor; concatenate: a tuple of vectors of one dtype, joined. */
static RelStatus fake_rel(OpId op, Type *const *args, int nargs, const Attrs *at, Arena *a,
                          Type **out, char *err, size_t errlen) {
  rel_calls++;
  for (int i = 0; i < nargs; i++)
    if (!ir_type_complete(args[i]))
      return REL_DEFER;
  switch (op) {
  case OP_NEGATIVE:
    if (nargs != 1 || args[0]->kind != TY_TENSOR)
      return fail(err, errlen, "wants one tensor");
    *out = args[0];
    return REL_OK;
  case OP_ADD:
  case OP_SUBTRACT:
  case OP_MULTIPLY:
  case OP_EQUAL:
  case OP_LESS: {
    if (nargs != 2 || args[0]->kind != TY_TENSOR || args[1]->kind != TY_TENSOR)
      return fail(err, errlen, "wants two tensors");
    const Type *x = args[0], *y = args[1];
    if (x->tensor.dtype != y->tensor.dtype)
      return fail(err, errlen, "dtypes differ");
    const Type *r = x->tensor.rank == 0 ? y : x;
    if (x->tensor.rank && y->tensor.rank && !ir_type_equal(x, y))
      return fail(err, errlen, "shapes differ");
    *out = op == OP_EQUAL || op == OP_LESS
               ? ir_tensor_type(a, DT_BOOL, r->tensor.rank, r->tensor.shape)
               : (Type *)r;
    return REL_OK;
  }
  case OP_EXP: /* a relation that never decides */ return REL_DEFER;
  case OP_CONCATENATE: {
    if (nargs != 1 || args[0]->kind != TY_TUPLE || args[0]->tuple.n == 0)
      return fail(err, errlen, "wants a tuple");
    int64_t n = 0;
    const Type *f0 = args[0]->tuple.fields[0];
    for (int i = 0; i < args[0]->tuple.n; i++) {
      const Type *f = args[0]->tuple.fields[i];
      if (f->kind != TY_TENSOR || f->tensor.rank != 1 || f0->kind != TY_TENSOR ||
          f->tensor.dtype != f0->tensor.dtype)
        return fail(err, errlen, "wants vectors of one dtype");
      n += f->tensor.shape[0];
    }
    *out = ir_tensor_type(a, f0->tensor.dtype, 1, &n);
    return REL_OK;
  }
  default: return fail(err, errlen, "not in the fake relation");
  }
}

/* ------------------------------------------------------------- helpers */

static Module *M;

static Type *vec(DType dt, int64_t n) {
  return ir_tensor_type(M->arena, dt, 1, &n);
}
static Type *sc(DType dt) {
  return ir_scalar_type(M->arena, dt);
}
static Type *tup(int n, ...) {
  Type *ts[8];
  va_list ap;
  va_start(ap, n);
  for (int i = 0; i < n; i++)
    ts[i] = va_arg(ap, Type *);
  va_end(ap);
  return ir_tuple_type(M->arena, n, ts);
}
static Type *fnty(Type *ret, int n, ...) {
  Type *ts[8];
  va_list ap;
  va_start(ap, n);
  for (int i = 0; i < n; i++)
    ts[i] = va_arg(ap, Type *);
  va_end(ap);
  return ir_func_type(M->arena, 0, NULL, n, ts, ret);
}
static Type *list(Type *a) {
  return ir_adt_type(M->arena, ir_list_def(M), 1, &a);
}
static Type *option(Type *a) {
  return ir_adt_type(M->arena, ir_option_def(M), 1, &a);
}
static Var *var(const char *name, Type *t) {
  return ir_var(M, name, t);
}
static Expr *ref(Var *v) {
  return ir_var_ref(M, v);
}
static Expr *tuple(int n, ...) {
  Expr *es[8];
  va_list ap;
  va_start(ap, n);
  for (int i = 0; i < n; i++)
    es[i] = va_arg(ap, Expr *);
  va_end(ap);
  return ir_tuple(M, n, es);
}
static Expr *call(Expr *f, int n, ...) {
  Expr *es[8];
  va_list ap;
  va_start(ap, n);
  for (int i = 0; i < n; i++)
    es[i] = va_arg(ap, Expr *);
  va_end(ap);
  return ir_call(M, f, n, es);
}
static Expr *op(OpId o, int n, ...) {
  Expr *es[8];
  va_list ap;
  va_start(ap, n);
  for (int i = 0; i < n; i++)
    es[i] = va_arg(ap, Expr *);
  va_end(ap);
  return ir_call_op(M, o, n, es, NULL);
}
static Expr *ctor(const char *name, int n, ...) {
  Expr *es[8];
  va_list ap;
  va_start(ap, n);
  for (int i = 0; i < n; i++)
    es[i] = va_arg(ap, Expr *);
  va_end(ap);
  return ir_call_ctor(M, ir_ctor_get(M, name), n, es);
}
static Expr *fn(int n, Var **ps, Type *ret, Expr *body) {
  return ir_func(M, n, ps, ret, body);
}
static Expr *let(Var *v, Expr *val, Expr *body) {
  return ir_let(M, v, val, body);
}
static Expr *i32(int v) {
  return ir_const_scalar(M, DT_INT32, v);
}
static Expr *tru(void) {
  return ir_const_scalar(M, DT_BOOL, 1);
}
static Expr *at(Expr *e, int line, int col) {
  e->line = line;
  e->col = col;
  return e;
}
static Pattern *pv(Var *v) {
  return ir_pat_var(M, v);
}
static Pattern *pw(void) {
  return ir_pat_wild(M);
}
static Pattern *pc(const char *name, int n, ...) {
  Pattern *ps[8];
  va_list ap;
  va_start(ap, n);
  for (int i = 0; i < n; i++)
    ps[i] = va_arg(ap, Pattern *);
  va_end(ap);
  return ir_pat_ctor(M, ir_ctor_get(M, name), n, ps);
}
static Pattern *pt(int n, ...) {
  Pattern *ps[8];
  va_list ap;
  va_start(ap, n);
  for (int i = 0; i < n; i++)
    ps[i] = va_arg(ap, Pattern *);
  va_end(ap);
  return ir_pat_tuple(M, n, ps);
}

static Diag D;

/* Start a test on a fresh module. */
static void begin(void) {
  M = ir_module_new();
  diag_init(&D, "t.relay", NULL);
  rel_calls = 0;
}

static void end(void) {
  ir_module_free(M);
  diag_free(&D);
}

static bool check(void) {
  diag_reset(&D);
  return ty_check_module_with(M, &D, fake_rel);
}

/* The check fails with a first message containing `want`. */
static bool fails_with(const char *want) {
  bool ok = check();
  bool hit = !ok && strstr(D.first, want);
  if (getenv("SHOW_ERRORS"))
    fprintf(stderr, "%s", D.text);
  if (!hit)
    fprintf(stderr, "  wanted an error with \"%s\", got %s: %s\n", want, ok ? "success" : "error",
            ok ? "" : D.first);
  return hit;
}

#define TYPE_IS(t, want) CHECK((t) && ir_type_equal((t), (want)))

/* --------------------------------------------------------------- tests */

/* Tuples of incomplete types unify component-wise: (?p, ?q) = (?r, ?s)
 * makes ?q learn ?s's annotation and ?r learn ?p's. */
static void test_tuple_unify(void) {
  begin();
  Type *T1 = vec(DT_FLOAT32, 2), *T2 = sc(DT_INT32);
  Var *ps[4] = {var("p", T1), var("q", NULL), var("r", NULL), var("s", T2)};
  Expr *th = tuple(2, ref(ps[0]), ref(ps[1])), *el = tuple(2, ref(ps[2]), ref(ps[3]));
  Expr *f = fn(4, ps, NULL, ir_if(M, tru(), th, el));
  ir_def(M, "main", fn(0, NULL, NULL, f));
  CHECK(check());
  TYPE_IS(ps[1]->type, T2);
  TYPE_IS(ps[2]->type, T1);
  TYPE_IS(f->type, fnty(tup(2, T1, T2), 4, T1, T2, T1, T2));
  TYPE_IS(el->type, tup(2, T1, T2));
  end();

  /* Two tuples of unknowns unify; a later annotation fixes all four. */
  begin();
  T1 = vec(DT_FLOAT32, 2), T2 = sc(DT_INT32);
  Var *qs[4] = {var("a", NULL), var("b", NULL), var("c", NULL), var("d", NULL)};
  Var *u = var("u", NULL), *w = var("w", tup(2, T1, T2));
  Expr *choice =
      ir_if(M, tru(), tuple(2, ref(qs[0]), ref(qs[1])), tuple(2, ref(qs[2]), ref(qs[3])));
  Expr *g = fn(4, qs, NULL, let(u, choice, let(w, ref(u), ref(u))));
  ir_def(M, "main", fn(0, NULL, NULL, g));
  CHECK(check());
  TYPE_IS(qs[0]->type, T1);
  TYPE_IS(qs[1]->type, T2);
  TYPE_IS(qs[2]->type, T1);
  TYPE_IS(qs[3]->type, T2);
  TYPE_IS(u->type, tup(2, T1, T2));
  end();
}

/* A relation on ?t (concatenate(%t)) is deferred; ?t is later bound to
 * (?p, ?q), the relation re-runs and defers again on the nested ?p, ?q;
 * binding those must re-run it once more (three runs in all). */
static void test_nested_rerun(void) {
  begin();
  Type *T = vec(DT_FLOAT32, 2);
  Var *t = var("t", NULL);
  Expr *cat = op(OP_CONCATENATE, 1, ref(t));
  GlobalFn *f = ir_def(M, "f", fn(1, &t, NULL, cat));
  Var *pq[2] = {var("p", NULL), var("q", NULL)};
  GlobalFn *g = ir_def(
      M, "g", fn(2, pq, NULL, call(ir_global_ref(M, f), 1, tuple(2, ref(pq[0]), ref(pq[1])))));
  Var *x = var("x", T);
  ir_def(M, "main", fn(1, &x, NULL, call(ir_global_ref(M, g), 2, ref(x), ref(x))));
  CHECK(check());
  CHECK(rel_calls == 3);
  TYPE_IS(cat->type, vec(DT_FLOAT32, 4));
  TYPE_IS(t->type, tup(2, T, T));
  TYPE_IS(f->func->type, fnty(vec(DT_FLOAT32, 4), 1, tup(2, T, T)));
  TYPE_IS(g->func->type, fnty(vec(DT_FLOAT32, 4), 2, T, T));
  end();

  /* The nested unknown is refined through a merge with another unknown. */
  begin();
  Var *t2 = var("t", NULL);
  Expr *cat2 = op(OP_CONCATENATE, 1, ref(t2));
  GlobalFn *f2 = ir_def(M, "f", fn(1, &t2, NULL, cat2));
  Var *a = var("a", NULL), *b = var("b", NULL), *c = var("c", NULL);
  /* fn (%a, %b) { let %c = %b; @f((%a, %c)) } binds ?t = (?a, ?b). */
  Expr *body = let(c, ref(b), call(ir_global_ref(M, f2), 1, tuple(2, ref(a), ref(c))));
  Var *ab[2] = {a, b};
  GlobalFn *g2 = ir_def(M, "g", fn(2, ab, NULL, body));
  Var *y = var("y", vec(DT_INT32, 3)), *z = var("z", vec(DT_INT32, 5));
  Var *yz[2] = {y, z};
  ir_def(M, "main", fn(2, yz, NULL, call(ir_global_ref(M, g2), 2, ref(y), ref(z))));
  CHECK(check());
  TYPE_IS(cat2->type, vec(DT_INT32, 8));
  end();
}

/* ?a = (?a, ?b) is rejected by the occurs check. */
static void test_occurs(void) {
  begin();
  Var *ab[2] = {var("a", NULL), var("b", NULL)};
  Expr *e = at(ir_if(M, tru(), ref(ab[0]), tuple(2, ref(ab[0]), ref(ab[1]))), 4, 2);
  Var *x = var("x", sc(DT_INT32));
  ir_def(M, "main", fn(1, &x, NULL, let(var("f", NULL), fn(2, ab, NULL, e), ref(x))));
  CHECK(fails_with("cannot contain itself"));
  CHECK(D.line == 4 && D.col == 2);
  end();

  /* %f(%f): ?f = fn(?f) -> ?r. */
  begin();
  Var *f = var("f", NULL);
  ir_def(M, "main", fn(0, NULL, NULL, fn(1, &f, NULL, call(ref(f), 1, ref(f)))));
  CHECK(fails_with("cannot contain itself"));
  end();
}

/* A relation whose arguments never become known is a clear error. */
static void test_unsolved(void) {
  begin();
  Var *p = var("p", NULL), *x = var("x", sc(DT_INT32));
  Expr *add = at(op(OP_ADD, 2, ref(p), ref(p)), 3, 14);
  ir_def(M, "main", fn(1, &x, NULL, let(var("f", NULL), fn(1, &p, NULL, add), ref(x))));
  CHECK(fails_with("cannot infer the type of call to add"));
  CHECK(D.line == 3 && D.col == 14);
  CHECK(strstr(D.text, "t.relay:3:14: error: in @main:") != NULL);
  end();

  /* A relation that defers on known arguments. */
  begin();
  Var *y = var("y", sc(DT_FLOAT32));
  ir_def(M, "main", fn(1, &y, NULL, op(OP_EXP, 1, ref(y))));
  CHECK(fails_with("cannot infer the type of call to exp: its relation gives no result for "
                   "(Tensor[(), float32])"));
  end();

  /* An unused Nil: its type argument is never fixed. */
  begin();
  Var *e = var("e", NULL);
  Expr *nil = at(ctor("Nil", 0), 2, 11);
  ir_def(M, "main", fn(0, NULL, NULL, let(e, nil, i32(0))));
  CHECK(fails_with("cannot infer the type of constructor Nil"));
  CHECK(D.line == 2 && D.col == 11);
  end();

  /* An unannotated global that only calls itself has no return type. */
  begin();
  Var *n = var("n", sc(DT_INT32));
  GlobalFn *loop = ir_global_intern(M, "loop");
  ir_def(M, "loop", fn(1, &n, NULL, call(ir_global_ref(M, loop), 1, ref(n))));
  CHECK(fails_with("cannot infer the type of"));
  end();
}

/* Polymorphic globals are instantiated per use. */
static void test_polymorphic(void) {
  begin();
  GlobalFn *id = ty_prelude_add(M, "id");
  Type *T1 = vec(DT_FLOAT32, 2), *T2 = sc(DT_BOOL);
  Var *ab[2] = {var("a", T1), var("b", T2)};
  Expr *r1 = ir_global_ref(M, id), *r2 = ir_global_ref(M, id);
  Expr *body = tuple(2, call(r1, 1, ref(ab[0])), call(r2, 1, ref(ab[1])));
  GlobalFn *mn = ir_def(M, "main", fn(2, ab, NULL, body));
  CHECK(check());
  /* References keep the polymorphic type (as in Relay); calls instantiate. */
  CHECK(r1->type == id->func->type && r2->type == id->func->type);
  TYPE_IS(r1->type, id->func->type);
  TYPE_IS(mn->func->type, fnty(tup(2, T1, T2), 2, T1, T2));
  const Type *it = id->func->type;
  CHECK(it && it->kind == TY_FUNC && it->func.ntvars == 1 &&
        it->func.params[0] == it->func.tvars[0] && it->func.ret == it->func.tvars[0]);
  end();

  /* A polymorphic global passed as a value is instantiated too. */
  begin();
  GlobalFn *map = ty_prelude_add(M, "map");
  GlobalFn *id2 = ty_prelude_add(M, "id");
  Var *xs = var("xs", list(sc(DT_INT8)));
  ir_def(M, "main",
         fn(1, &xs, NULL, call(ir_global_ref(M, map), 2, ir_global_ref(M, id2), ref(xs))));
  CHECK(check());
  end();

  /* Rank 2 (as Relay allows): a parameter of polymorphic function type is
   * instantiated at each call; @id may be passed for it, a monomorphic
   * function may not. */
  begin();
  Type *T = ir_type_var(M->arena, "T");
  Type *poly = ir_func_type(M->arena, 1, &T, 1, &T, T);
  Var *pf[2] = {var("f", poly), var("x", sc(DT_FLOAT32))};
  Expr *uses = tuple(2, call(ref(pf[0]), 1, ref(pf[1])), call(ref(pf[0]), 1, tru()));
  GlobalFn *ap = ir_def(M, "apply_poly", fn(2, pf, NULL, uses));
  GlobalFn *idp = ty_prelude_add(M, "id");
  Var *mx = var("x", sc(DT_FLOAT32));
  Expr *good = call(ir_global_ref(M, ap), 2, ir_global_ref(M, idp), ref(mx));
  GlobalFn *mg = ir_def(M, "main", fn(1, &mx, NULL, good));
  CHECK(check());
  TYPE_IS(mg->func->type, fnty(tup(2, sc(DT_FLOAT32), sc(DT_BOOL)), 1, sc(DT_FLOAT32)));
  Var *yf = var("y", sc(DT_FLOAT32));
  good->call.args[0] = at(fn(1, &yf, sc(DT_FLOAT32), ref(yf)), 3, 9);
  CHECK(fails_with("argument 0 of call to @apply_poly: expected fn [T](T) -> T, found fn "
                   "(Tensor[(), float32]) -> Tensor[(), float32]"));
  CHECK(D.line == 3 && D.col == 9);
  end();

  /* Rigid type variables: inside @bad[A], A is not int32. */
  begin();
  Type *A = ir_type_var(M->arena, "A");
  Var *x = var("x", A);
  Expr *f = fn(1, &x, A, at(i32(1), 7, 3));
  f->func.ntvars = 1;
  f->func.tvars = &A;
  ir_def(M, "bad", f);
  CHECK(fails_with("expected A, found Tensor[(), int32]"));
  CHECK(D.line == 7);
  end();

  /* A polymorphic global must be fully annotated. */
  begin();
  Type *B = ir_type_var(M->arena, "B");
  Var *y = var("y", B);
  Expr *g = fn(1, &y, NULL, ref(y));
  g->func.ntvars = 1;
  g->func.tvars = &B;
  ir_def(M, "g", g);
  CHECK(fails_with("must annotate its return type"));
  end();
}

/* Recursion: annotated, unannotated, mutual. */
static void test_recursion(void) {
  begin();
  Type *I = sc(DT_INT32);
  GlobalFn *sum = ir_global_intern(M, "sum");
  Var *xs = var("xs", list(I)), *h = var("h", NULL), *t = var("t", NULL);
  Clause cs[2] = {
      {pc("Cons", 2, pv(h), pv(t)), op(OP_ADD, 2, ref(h), call(ir_global_ref(M, sum), 1, ref(t)))},
      {pc("Nil", 0), i32(0)}};
  ir_def(M, "sum", fn(1, &xs, I, ir_match(M, ref(xs), 2, cs, true)));
  /* @count has no return annotation: inferred through its recursion. */
  GlobalFn *count = ir_global_intern(M, "count");
  Var *ys = var("ys", list(vec(DT_FLOAT64, 3))), *t2 = var("t", NULL);
  Clause cs2[2] = {{pc("Cons", 2, pw(), pv(t2)),
                    op(OP_ADD, 2, i32(1), call(ir_global_ref(M, count), 1, ref(t2)))},
                   {pc("Nil", 0), i32(0)}};
  ir_def(M, "count", fn(1, &ys, NULL, ir_match(M, ref(ys), 2, cs2, true)));
  CHECK(check());
  TYPE_IS(count->func->type, fnty(I, 1, list(vec(DT_FLOAT64, 3))));
  TYPE_IS(h->type, I);
  TYPE_IS(t->type, list(I));
  end();

  /* Mutual recursion without return annotations, used before defined. */
  begin();
  GlobalFn *even = ir_global_intern(M, "even"), *odd = ir_global_intern(M, "odd");
  Var *x = var("x", sc(DT_INT32));
  ir_def(M, "main", fn(1, &x, NULL, call(ir_global_ref(M, even), 1, ref(x))));
  Var *n1 = var("n", sc(DT_INT32)), *n2 = var("n", sc(DT_INT32));
  ir_def(M, "even",
         fn(1, &n1, NULL,
            ir_if(M, op(OP_EQUAL, 2, ref(n1), i32(0)), tru(),
                  call(ir_global_ref(M, odd), 1, op(OP_SUBTRACT, 2, ref(n1), i32(1))))));
  ir_def(M, "odd",
         fn(1, &n2, NULL,
            ir_if(M, op(OP_EQUAL, 2, ref(n2), i32(0)), ir_const_scalar(M, DT_BOOL, 0),
                  call(ir_global_ref(M, even), 1, op(OP_SUBTRACT, 2, ref(n2), i32(1))))));
  CHECK(check());
  TYPE_IS(odd->func->type, fnty(sc(DT_BOOL), 1, sc(DT_INT32)));
  TYPE_IS(ir_global_get(M, "main")->func->type, fnty(sc(DT_BOOL), 1, sc(DT_INT32)));
  end();
}

/* Closures capture variables of enclosing scopes. */
static void test_closures(void) {
  begin();
  Type *T = vec(DT_FLOAT32, 4);
  Var *x = var("x", T), *y = var("y", T), *k = var("k", NULL);
  Var *z = var("z", NULL), *w = var("w", T), *mk = var("mk", NULL);
  Expr *kf = fn(1, &y, NULL, op(OP_ADD, 2, ref(x), ref(y)));
  Expr *mkf = fn(1, &z, NULL, fn(1, &w, NULL, op(OP_MULTIPLY, 2, ref(z), ref(w))));
  Expr *use = tuple(2, call(ref(k), 1, ref(x)), call(call(ref(mk), 1, ref(x)), 1, ref(x)));
  ir_def(M, "main", fn(1, &x, NULL, let(k, kf, let(mk, mkf, use))));
  CHECK(check());
  TYPE_IS(z->type, T);
  TYPE_IS(mk->type, fnty(fnty(T, 1, T), 1, T));
  TYPE_IS(use->type, tup(2, T, T));
  end();
}

/* References: ref_write has type (), ref_read unwraps. */
static void test_refs(void) {
  begin();
  Type *T = vec(DT_INT64, 2);
  Var *x = var("x", T), *r = var("r", NULL), *u = var("u", NULL);
  Expr *body = let(r, ir_ref_new(M, ref(x)),
                   let(u, ir_ref_write(M, ref(r), op(OP_NEGATIVE, 1, ref(x))),
                       tuple(2, ref(u), ir_ref_read(M, ref(r)))));
  ir_def(M, "main", fn(1, &x, NULL, body));
  CHECK(check());
  TYPE_IS(u->type, tup(0));
  TYPE_IS(r->type, ir_ref_type(M->arena, T));
  TYPE_IS(body->type, tup(2, tup(0), T));
  end();

  /* A reference's content type is fixed by a later write. */
  begin();
  T = vec(DT_INT64, 2);
  Var *q = var("q", NULL), *x2 = var("x", T);
  Expr *body2 = fn(1, &q, NULL, ir_ref_write(M, ref(q), ref(x2)));
  Var *g = var("g", NULL);
  ir_def(M, "main", fn(1, &x2, NULL, let(g, body2, ref(x2))));
  CHECK(check());
  TYPE_IS(q->type, ir_ref_type(M->arena, T));
  end();

  begin();
  T = vec(DT_INT64, 2);
  Var *x3 = var("x", T);
  ir_def(M, "main", fn(1, &x3, NULL, at(ir_ref_write(M, at(ref(x3), 5, 20), ref(x3)), 5, 9)));
  CHECK(fails_with("ref_write"));
  CHECK(D.line == 5 && D.col == 20);
  end();
}

/* Matches over ADTs and tuples; exhaustiveness of complete matches. */
static void test_match(void) {
  /* match (%o) { Some(%v) => %v, None => 0 }, with %v inferred. */
  begin();
  Type *I = sc(DT_INT32);
  Var *o = var("o", option(I)), *v = var("v", NULL);
  Clause cs[2] = {{pc("Some", 1, pv(v)), ref(v)}, {pc("None", 0), i32(0)}};
  ir_def(M, "main", fn(1, &o, NULL, ir_match(M, ref(o), 2, cs, true)));
  CHECK(check());
  TYPE_IS(v->type, I);
  end();

  /* Cons(%h, Nil) and Nil leave lists of two or more uncovered. */
  begin();
  I = sc(DT_INT32);
  Var *xs = var("xs", list(I)), *h = var("h", NULL);
  Clause c2[2] = {{pc("Cons", 2, pv(h), pc("Nil", 0)), ref(h)}, {pc("Nil", 0), i32(0)}};
  Expr *mt = at(ir_match(M, ref(xs), 2, c2, true), 9, 4);
  ir_def(M, "main", fn(1, &xs, NULL, mt));
  CHECK(fails_with("match is not exhaustive: Cons(_, Cons(_, _)) is not covered"));
  CHECK(D.line == 9 && D.col == 4);
  mt->match.complete = false; /* match? may be partial */
  CHECK(check());
  end();

  /* Tuples of options: (Some, Some), (None, _), (_, None) cover all. */
  begin();
  I = sc(DT_INT32);
  Var *a = var("a", option(I)), *b = var("b", option(I));
  Var *x = var("x", NULL), *y = var("y", NULL);
  Clause c3[3] = {
      {pt(2, pc("Some", 1, pv(x)), pc("Some", 1, pv(y))), op(OP_ADD, 2, ref(x), ref(y))},
      {pt(2, pc("None", 0), pw()), i32(1)},
      {pt(2, pw(), pc("None", 0)), i32(2)}};
  Var *ab[2] = {a, b};
  Expr *m3 = ir_match(M, tuple(2, ref(a), ref(b)), 3, c3, true);
  ir_def(M, "main", fn(2, ab, NULL, m3));
  CHECK(check());
  m3->match.n = 2; /* without (_, None) */
  CHECK(fails_with("(Some(_), None) is not covered"));
  end();

  /* A type definition without parameters (as the generator makes). */
  begin();
  I = sc(DT_INT32);
  TypeDef *color = ir_typedef_add(M, "Color", 0, NULL);
  ir_ctor_add(M, color, "Red", 0, NULL);
  ir_ctor_add(M, color, "Green", 0, NULL);
  ir_ctor_add(M, color, "Blue", 0, NULL);
  Var *c = var("c", NULL);
  Clause c4[2] = {{pc("Red", 0), i32(0)}, {pc("Green", 0), i32(1)}};
  Expr *m4 = ir_match(M, ref(c), 2, c4, true);
  ir_def(M, "main", fn(0, NULL, NULL, let(var("f", NULL), fn(1, &c, NULL, m4), i32(0))));
  CHECK(fails_with("Blue is not covered"));
  end();

  /* Clause bodies must agree; patterns must fit the scrutinee. */
  begin();
  I = sc(DT_INT32);
  Var *o2 = var("o", option(I)), *v2 = var("v", NULL);
  Clause c5[2] = {{pc("Some", 1, pv(v2)), ref(v2)}, {pc("None", 0), at(tru(), 3, 30)}};
  ir_def(M, "main", fn(1, &o2, NULL, ir_match(M, ref(o2), 2, c5, true)));
  CHECK(fails_with("clause 1 of the match (against clause 0): expected Tensor[(), int32], found "
                   "Tensor[(), bool]"));
  CHECK(D.line == 3 && D.col == 30);
  end();

  begin();
  I = sc(DT_INT32);
  Var *o3 = var("o", option(I));
  Clause c6[2] = {{pc("Cons", 2, pw(), pw()), i32(0)}, {pw(), i32(1)}};
  ir_def(M, "main", fn(1, &o3, NULL, ir_match(M, ref(o3), 2, c6, true)));
  CHECK(fails_with("pattern Cons: expected Option[Tensor[(), int32]], found List["));
  end();
}

/* The exhaustiveness check on its own. */
static void test_exhaustive(void) {
  begin();
  Type *I = sc(DT_INT32);
  Type *tree = ir_adt_type(M->arena, ir_tree_def(M), 1, &I);
  char w[100];
  /* Rose(_, Nil) only. */
  Clause c1[1] = {{pc("Rose", 2, pw(), pc("Nil", 0)), NULL}};
  CHECK(ty_match_exhaustive(c1, 1, tree, NULL, w, sizeof w) == 0);
  CHECK_STR(w, "Rose(_, Cons(_, _))");
  Clause c2[2] = {{pc("Rose", 2, pw(), pc("Nil", 0)), NULL},
                  {pc("Rose", 2, pv(var("v", NULL)), pc("Cons", 2, pw(), pw())), NULL}};
  CHECK(ty_match_exhaustive(c2, 2, tree, NULL, w, sizeof w) == 1);
  /* No clauses: nothing is covered. */
  CHECK(ty_match_exhaustive(NULL, 0, I, NULL, w, sizeof w) == 0);
  CHECK_STR(w, "_");
  /* A wildcard covers a tensor. */
  Clause c3[1] = {{pw(), NULL}};
  CHECK(ty_match_exhaustive(c3, 1, I, NULL, w, sizeof w) == 1);
  /* Nested lists: [], [_], [_, _ | _] all covered. */
  Type *l = list(I);
  Clause c4[3] = {{pc("Nil", 0), NULL},
                  {pc("Cons", 2, pw(), pc("Nil", 0)), NULL},
                  {pc("Cons", 2, pw(), pc("Cons", 2, pw(), pw())), NULL}};
  CHECK(ty_match_exhaustive(c4, 3, l, NULL, w, sizeof w) == 1);
  /* Triples of bool-like options: a missing middle case. */
  Type *oi = option(I);
  Type *t3 = tup(3, oi, oi, oi);
  Clause c5[3] = {{pt(3, pc("None", 0), pw(), pw()), NULL},
                  {pt(3, pw(), pc("Some", 1, pw()), pw()), NULL},
                  {pt(3, pc("Some", 1, pw()), pc("None", 0), pc("Some", 1, pw())), NULL}};
  CHECK(ty_match_exhaustive(c5, 3, t3, NULL, w, sizeof w) == 0);
  CHECK_STR(w, "(Some(_), None, None)");
  end();
}

/* Ill-typed programs: each error names the expression, the expected and
 * found types, and the position. */
static void test_errors(void) {
  begin();
  Type *T = vec(DT_FLOAT32, 2);
  Var *x = var("x", T);
  ir_def(M, "main", fn(1, &x, NULL, ir_if(M, at(ref(x), 2, 7), ref(x), ref(x))));
  CHECK(fails_with("if condition: expected Tensor[(), bool], found Tensor[(2), float32]"));
  CHECK(D.line == 2 && D.col == 7);
  end();

  begin();
  T = vec(DT_FLOAT32, 2);
  x = var("x", T);
  ir_def(M, "main", fn(1, &x, NULL, at(ir_proj(M, tuple(2, ref(x), ref(x)), 2), 1, 5)));
  CHECK(
      fails_with("projection .2 is out of range for (Tensor[(2), float32], Tensor[(2), float32])"));
  CHECK(D.line == 1 && D.col == 5);
  end();

  begin();
  T = vec(DT_FLOAT32, 2);
  x = var("x", T);
  Var *f = var("f", NULL), *y = var("y", T);
  ir_def(
      M, "main",
      fn(1, &x, NULL, let(f, fn(1, &y, NULL, ref(y)), at(call(ref(f), 2, ref(x), ref(x)), 6, 1))));
  CHECK(fails_with("call to %f: expects 1 argument, got 2"));
  CHECK(D.line == 6);
  end();

  begin();
  T = vec(DT_FLOAT32, 2);
  x = var("x", T);
  ir_def(M, "main", fn(1, &x, NULL, at(ctor("Cons", 1, ref(x)), 2, 2)));
  CHECK(fails_with("constructor Cons: expects 2 arguments, got 1"));
  end();

  begin();
  T = vec(DT_FLOAT32, 2);
  x = var("x", T);
  Expr *bad = at(ctor("Cons", 2, ref(x), ctor("Some", 1, ref(x))), 8, 8);
  ir_def(M, "main", fn(1, &x, NULL, bad));
  CHECK(fails_with("argument 1 of constructor Cons: expected List[Tensor[(2), float32]], found "
                   "Option[Tensor[(2), float32]]"));
  end();

  begin();
  T = vec(DT_FLOAT32, 2);
  x = var("x", T);
  Var *unbound = var("ghost", T);
  ir_def(M, "main", fn(1, &x, NULL, at(ref(unbound), 3, 3)));
  CHECK(fails_with("variable %ghost is not bound here"));
  CHECK(D.line == 3);
  end();

  begin();
  T = vec(DT_FLOAT32, 2);
  GlobalFn *g = ir_global_intern(M, "nowhere");
  ir_def(M, "main", fn(0, NULL, NULL, call(ir_global_ref(M, g), 0)));
  CHECK(fails_with("global @nowhere is declared but not defined"));
  end();

  begin();
  T = vec(DT_FLOAT32, 2);
  x = var("x", T);
  Var *b = var("b", vec(DT_INT32, 2));
  Var *xb[2] = {x, b};
  ir_def(M, "main", fn(2, xb, NULL, at(op(OP_ADD, 2, ref(x), ref(b)), 4, 10)));
  CHECK(fails_with("call to add: dtypes differ"));
  CHECK(D.line == 4 && D.col == 10);
  end();

  begin();
  T = vec(DT_FLOAT32, 2);
  x = var("x", T);
  ir_def(M, "main", fn(1, &x, NULL, at(call(ref(x), 1, ref(x)), 2, 3)));
  CHECK(fails_with("call to %x: the callee is not a function: expected a function type, found "
                   "Tensor[(2), float32]"));
  end();

  begin();
  T = vec(DT_FLOAT32, 2);
  x = var("x", T);
  Var *l = var("l", sc(DT_INT32));
  ir_def(M, "main", fn(1, &x, NULL, at(let(l, ref(x), ref(l)), 5, 5)));
  CHECK(fails_with("let %l (annotation against value): expected Tensor[(), int32], found "
                   "Tensor[(2), float32]"));
  CHECK(D.line == 5);
  end();

  begin();
  T = vec(DT_FLOAT32, 2);
  Var *p = var("p", sc(DT_INT32));
  GlobalFn *h = ir_def(M, "h", fn(1, &p, NULL, ref(p)));
  x = var("x", T);
  ir_def(M, "main", fn(1, &x, NULL, call(ir_global_ref(M, h), 1, at(ref(x), 9, 15))));
  CHECK(fails_with("argument 0 of call to @h: expected Tensor[(), int32], found Tensor[(2), "
                   "float32]"));
  CHECK(D.line == 9 && D.col == 15);
  end();

  begin();
  T = vec(DT_FLOAT32, 2);
  x = var("x", T);
  Var *rt = var("r", NULL);
  Expr *body = fn(1, &rt, NULL, at(ir_proj(M, ref(rt), 0), 2, 2));
  ir_def(M, "main", fn(1, &x, NULL, let(var("g", NULL), body, ref(x))));
  CHECK(fails_with("cannot infer the type of projection .0"));
  end();

  /* A projection of an unknown tuple, resolved later, out of range. */
  begin();
  T = vec(DT_FLOAT32, 2);
  x = var("x", T);
  Var *r2 = var("r", NULL), *g2 = var("g", NULL);
  Expr *pj = fn(1, &r2, NULL, at(ir_proj(M, ref(r2), 3), 2, 2));
  ir_def(M, "main", fn(1, &x, NULL, let(g2, pj, call(ref(g2), 1, tuple(1, ref(x))))));
  CHECK(fails_with("projection .3 is out of range for (Tensor[(2), float32],)"));
  end();
}

/* Malformed input: no crash, an error. */
static void test_robust(void) {
  begin();
  Expr *t = tuple(1, i32(0));
  t->tuple.fields[0] = t; /* a cycle */
  ir_def(M, "main", fn(0, NULL, NULL, t));
  CHECK(fails_with("contains itself"));
  end();

  begin();
  ir_def(M, "main", fn(0, NULL, NULL, NULL));
  CHECK(fails_with("missing expression"));
  end();

  /* Nesting up to IR_MAX_DEPTH (ir.h) is fine; beyond, an error rather
   * than a stack overflow. */
  for (int depth = IR_MAX_DEPTH - 10; depth <= IR_MAX_DEPTH + 10; depth += 20) {
    begin();
    Var *x = var("x", sc(DT_INT32));
    Expr *e = ref(x);
    for (int i = 0; i < depth; i++)
      e = op(OP_NEGATIVE, 1, e);
    ir_def(M, "main", fn(1, &x, NULL, e));
    if (depth < IR_MAX_DEPTH)
      CHECK(check());
    else
      CHECK(fails_with("nested too deeply"));
    end();
  }

  /* A long let chain (as ANF makes) is fine. */
  begin();
  Var *x = var("x", sc(DT_INT32));
  enum { N = 30000 };
  Var **vs = malloc(sizeof *vs * N);
  for (int i = 0; i < N; i++)
    vs[i] = var("v", NULL);
  Expr *body = ref(vs[N - 1]);
  for (int i = N - 1; i >= 0; i--)
    body = let(vs[i], op(OP_ADD, 2, i ? ref(vs[i - 1]) : ref(x), i32(1)), body);
  ir_def(M, "main", fn(1, &x, NULL, body));
  CHECK(check());
  TYPE_IS(vs[N - 1]->type, sc(DT_INT32));
  free(vs);
  end();

  /* Shared pure nodes are checked once; a polymorphic use too. */
  begin();
  x = var("x", vec(DT_INT8, 2));
  Expr *s = op(OP_NEGATIVE, 1, ref(x));
  for (int i = 0; i < 60; i++)
    s = op(OP_ADD, 2, s, s); /* 2^60 paths */
  ir_def(M, "main", fn(1, &x, NULL, s));
  CHECK(check());
  CHECK(rel_calls == 61);
  end();
}

/* ty_check_expr: a subtree in the context of a checked module. */
static void test_check_expr(void) {
  begin();
  Type *T = vec(DT_FLOAT32, 2);
  Var *x = var("x", NULL), *y = var("y", T);
  Expr *inner = fn(1, &x, NULL, op(OP_ADD, 2, ref(x), ref(y)));
  GlobalFn *mn = ir_def(M, "main", fn(1, &y, NULL, call(inner, 1, ref(y))));
  CHECK(check());
  TYPE_IS(x->type, T);
  /* A new expression using %x (whose Var.type is known) and @main. */
  Expr *e = tuple(2, op(OP_MULTIPLY, 2, ref(x), ref(x)), ir_global_ref(M, mn));
  diag_reset(&D);
  CHECK(ty_check_expr_with(M, e, &D, fake_rel));
  TYPE_IS(e->type, tup(2, T, fnty(T, 1, T)));
  end();
}

/* The prelude type checks, and its functions instantiate per use. */
static void test_prelude(void) {
  begin();
  for (int i = 0; i < ty_prelude_count(); i++)
    CHECK(ty_prelude_add(M, ty_prelude_name(i)) != NULL);
  CHECK(ty_prelude_add(M, "no_such_function") == NULL);
  int n = M->nfuncs;
  CHECK(n == ty_prelude_count());
  CHECK(ty_prelude_add(M, "map") == ir_global_get(M, "map") && M->nfuncs == n);
  CHECK(check());
  end();

  /* Each on its own pulls in what it needs. */
  for (int i = 0; i < ty_prelude_count(); i++) {
    begin();
    ty_prelude_add(M, ty_prelude_name(i));
    CHECK_MSG(check(), "%s: %s", ty_prelude_name(i), D.first);
    end();
  }

  /* Uses: map with a closure over a parameter, foldl, length, nth, zip. */
  begin();
  Type *F = vec(DT_FLOAT32, 3), *I = sc(DT_INT32);
  Var *xs = var("xs", list(F)), *k = var("k", F), *e = var("e", NULL);
  Var *xk[2] = {xs, k};
  Expr *scale = fn(1, &e, NULL, op(OP_MULTIPLY, 2, ref(e), ref(k)));
  Expr *mapped = call(ir_global_ref(M, ty_prelude_add(M, "map")), 2, scale, ref(xs));
  Var *acc = var("acc", NULL), *el = var("el", NULL);
  Var *ae[2] = {acc, el};
  Expr *adder = fn(2, ae, NULL, op(OP_ADD, 2, ref(acc), ref(el)));
  Expr *total = call(ir_global_ref(M, ty_prelude_add(M, "foldl")), 3, adder, ref(k), mapped);
  Expr *len = call(ir_global_ref(M, ty_prelude_add(M, "length")), 1, ref(xs));
  Expr *nth = call(ir_global_ref(M, ty_prelude_add(M, "nth")), 2, ref(xs), i32(1));
  Expr *zip = call(ir_global_ref(M, ty_prelude_add(M, "zip")), 2, ref(xs),
                   call(ir_global_ref(M, ty_prelude_add(M, "rev")), 1, ref(xs)));
  Expr *body = tuple(4, total, len, nth, zip);
  ir_def(M, "main", fn(2, xk, NULL, body));
  CHECK(check());
  TYPE_IS(e->type, F);
  TYPE_IS(acc->type, F);
  TYPE_IS(mapped->type, list(F));
  TYPE_IS(body->type, tup(4, F, I, option(F), list(tup(2, F, F))));
  end();
}

/* The program of test_erase: main(%xs: List[T], %y: T) -> int32. */
typedef struct EraseProg {
  Var *a, *f, *p, *q, *n, *e, *z;
  Expr *fp, *fq, *mf;
} EraseProg;

static EraseProg erase_prog(void) {
  EraseProg P;
  Type *T = vec(DT_FLOAT32, 2), *I = sc(DT_INT32), *LT = list(T);
  Var *xs = var("xs", LT), *y = var("y", T), *ys = var("ys", NULL), *g = var("g", NULL);
  P.a = var("a", T), P.f = var("f", fnty(T, 1, T)), P.p = var("p", T);
  P.q = var("q", T), P.n = var("n", I), P.e = var("e", list(I)), P.z = var("z", T);
  P.fp = fn(1, &P.p, T, op(OP_ADD, 2, ref(P.p), ref(P.a)));
  P.fq = fn(1, &P.q, T, call(ref(P.f), 1, ref(P.q)));
  Expr *len = ir_global_ref(M, ty_prelude_add(M, "length"));
  Expr *len2 = ir_global_ref(M, ty_prelude_add(M, "length"));
  Expr *body = let(P.a, op(OP_NEGATIVE, 1, ref(y)),
                   let(P.f, P.fp,
                       let(ys, call(ir_global_ref(M, ty_prelude_add(M, "map")), 2, P.fq, ref(xs)),
                           let(P.e, ctor("Nil", 0),                /* Nil does not synthesize */
                               let(g, fn(1, &P.z, NULL, ref(P.z)), /* %z: no context */
                                   let(P.n, call(len, 1, ref(ys)),
                                       op(OP_ADD, 2, ref(P.n), call(len2, 1, ref(P.e)))))))));
  Var *ps[2] = {xs, y};
  P.mf = fn(2, ps, I, body);
  ir_def(M, "main", P.mf);
  return P;
}

/* Erasure: the rule's decisions on one program, by hand, and recovery. */
static void test_erase(void) {
  begin();
  EraseProg P = erase_prog();
  Type *T = vec(DT_FLOAT32, 2);
  CHECK(check());
  TyErasure er = ty_erase_annotations(M, TY_ERASE_ALL);
  /* let a, let f, let n; param q (from @map's A, fixed by %xs); the
   * returns of fp and fq (their bodies synthesize) and of @main.  Not: %p
   * (fp's context is unknown), %e (Nil does not synthesize), %z. */
  int lets = 0, params = 0, rets = 0;
  for (int i = 0; i < er.n; i++) {
    lets += er.items[i].kind == TY_ERASED_LET;
    params += er.items[i].kind == TY_ERASED_PARAM;
    rets += er.items[i].kind == TY_ERASED_RET;
  }
  CHECK(er.n == 7 && lets == 3 && params == 1 && rets == 3);
  CHECK(!P.a->annot && !P.f->annot && !P.n->annot && !P.q->annot);
  CHECK(P.p->annot && P.e->annot && !P.fp->func.ret && !P.fq->func.ret && !P.mf->func.ret);
  CHECK(check());
  CHECK(ty_erasure_verify(&er, &D));
  TYPE_IS(P.q->type, T);
  TYPE_IS(P.f->type, fnty(T, 1, T));
  ty_erasure_restore(&er);
  CHECK(P.a->annot && P.f->annot && P.n->annot && P.q->annot && P.fp->func.ret && P.mf->func.ret);
  /* Random subsets recover too. */
  int sizes = 0;
  for (uint64_t seed = 1; seed <= 40; seed++) {
    TyErasure r = ty_erase_annotations(M, seed);
    sizes |= 1 << r.n;
    CHECK_MSG(check(), "seed %llu: %s", (unsigned long long)seed, D.first);
    CHECK(ty_erasure_verify(&r, &D));
    ty_erasure_restore(&r);
  }
  CHECK(__builtin_popcount(sizes) > 3); /* the subsets vary in size */
  /* Erasing what the rule keeps breaks inference: %e = Nil. */
  P.e->annot = NULL;
  CHECK(fails_with("cannot infer the type of constructor Nil"));
  end();

  /* Annotations with `_` holes are not erased (nor checked by verify). */
  begin();
  Type *I = sc(DT_INT32);
  Type *hole = ir_incomplete_type(M->arena, 0);
  Var *h1 = var("h1", hole), *h2 = var("h2", list(hole)), *h3 = var("h3", I);
  ir_def(M, "main",
         fn(0, NULL, NULL,
            let(h1, i32(1),
                let(h2, ctor("Cons", 2, ref(h1), ctor("Nil", 0)), let(h3, ref(h1), ref(h2))))));
  CHECK(check());
  TYPE_IS(h1->type, I);
  TYPE_IS(h2->type, list(I));
  TyErasure holes = ty_erase_annotations(M, TY_ERASE_ALL);
  CHECK(holes.n == 1 && holes.items[0].var == h3);
  CHECK(h1->annot == hole && h3->annot == NULL);
  CHECK(check());
  CHECK(ty_erasure_verify(&holes, &D));
  end();

  /* With the whole prelude: its closures' annotations are erasable too. */
  begin();
  for (int i = 0; i < ty_prelude_count(); i++)
    ty_prelude_add(M, ty_prelude_name(i));
  erase_prog();
  TyErasure all = ty_erase_annotations(M, TY_ERASE_ALL);
  CHECK(all.n > 7);
  CHECK_MSG(check(), "%s", D.first);
  CHECK(ty_erasure_verify(&all, &D));
  end();
}

int main(void) {
  test_tuple_unify();
  test_nested_rerun();
  test_occurs();
  test_unsolved();
  test_polymorphic();
  test_recursion();
  test_closures();
  test_refs();
  test_match();
  test_exhaustive();
  test_errors();
  test_robust();
  test_check_expr();
  test_prelude();
  test_erase();
  return test_summary();
}
