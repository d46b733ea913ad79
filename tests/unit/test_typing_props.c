/* Property tests of type inference on random well-typed programs.
 *
 * A small type-directed generator (given a type, build an expression of
 * that type, annotating every binder) makes programs over tensors, tuples,
 * lists, options, functions, refs, matches, closures, globals and prelude
 * calls.  For each program:
 *   - it type checks, and every expression and variable gets a complete
 *     type;
 *   - erasing annotations by the erasure rule (several random subsets and
 *     all of them) infers exactly the erased types, and every expression
 *     keeps its type;
 *   - a corrupted annotation gives an error, never a crash.
 * Operators go through a fake relation (negative, add, equal), so this
 * runs without the operator families. */
#include "compiler/ir/hash.h"
#include "compiler/typing/typing.h"
#include "test.h"

static uint64_t rng_state;

static uint32_t rnd(uint32_t n) {
  uint64_t z = hash_splitmix64(&rng_state);
  return n ? (uint32_t)(z % n) : 0;
}

static bool known(const Type *t) {
  if (t->kind == TY_INCOMPLETE)
    return false;
  if (t->kind == TY_TUPLE)
    for (int i = 0; i < t->tuple.n; i++)
      if (!known(t->tuple.fields[i]))
        return false;
  return true;
}

static RelStatus fake_rel(OpId op, Type *const *args, int nargs, const Attrs *at, Arena *a,
                          Type **out, char *err, size_t errlen) {
  for (int i = 0; i < nargs; i++)
    if (!known(args[i]))
      return REL_DEFER;
  for (int i = 0; i < nargs; i++)
    if (args[i]->kind != TY_TENSOR) {
      snprintf(err, errlen, "not a tensor");
      return REL_ERROR;
    }
  if (nargs == 2 && !ir_type_equal(args[0], args[1])) {
    snprintf(err, errlen, "types differ");
    return REL_ERROR;
  }
  if (op == OP_EQUAL)
    *out = ir_tensor_type(a, DT_BOOL, args[0]->tensor.rank, args[0]->tensor.shape);
  else
    *out = args[0];
  return REL_OK;
}

/* ----------------------------------------------------------- generator */

static Module *M;
static Var *scope[256];
static int nscope;
static int nglobals;

static Type *tensor(DType dt) {
  int64_t shape[2] = {1 + rnd(3), 1 + rnd(2)};
  return ir_tensor_type(M->arena, dt, (int)rnd(3), shape);
}

static Type *rand_type(int depth) {
  static const DType dts[3] = {DT_FLOAT32, DT_INT32, DT_BOOL};
  uint32_t r = depth >= 2 ? 0 : rnd(12);
  if (r < 6)
    return tensor(dts[rnd(3)]);
  if (r < 8) {
    Type *fs[3];
    int n = (int)rnd(4);
    for (int i = 0; i < n; i++)
      fs[i] = rand_type(depth + 1);
    return ir_tuple_type(M->arena, n, fs);
  }
  Type *a = rand_type(depth + 1);
  if (r < 10)
    return ir_adt_type(M->arena, r == 8 ? ir_list_def(M) : ir_option_def(M), 1, &a);
  Type *b = rand_type(depth + 1);
  return ir_func_type(M->arena, 0, NULL, 1, &a, b);
}

static bool is_adt(const Type *t, const char *name) {
  return t->kind == TY_ADT && strcmp(t->adt.def->name, name) == 0;
}

static Expr *gen(Type *t, int depth);

/* A simplest value of type t (may not synthesize: Nil, None). */
static Expr *literal(Type *t, int depth) {
  switch (t->kind) {
  case TY_TENSOR: {
    Tensor *v = ir_tensor_new(M->arena, t->tensor.dtype, t->tensor.rank, t->tensor.shape);
    for (int64_t i = 0; i < v->numel; i++)
      ir_tensor_set_i64(v, i, (int64_t)rnd(5));
    return ir_const(M, v);
  }
  case TY_TUPLE: {
    Expr *fs[3];
    for (int i = 0; i < t->tuple.n; i++)
      fs[i] = literal(t->tuple.fields[i], depth + 1);
    return ir_tuple(M, t->tuple.n, fs);
  }
  case TY_ADT: return ir_call_ctor(M, ir_ctor_get(M, is_adt(t, "List") ? "Nil" : "None"), 0, NULL);
  case TY_FUNC: {
    Var *p = ir_var(M, "p", t->func.params[0]);
    scope[nscope++] = p;
    Expr *body = gen(t->func.ret, depth + 1);
    nscope--;
    return ir_func(M, 1, &p, t->func.ret, body);
  }
  default: return NULL;
  }
}

/* let %tmp: t = <gen t>; %tmp -- an expression of type t that
 * synthesizes, for positions whose type nothing else fixes. */
static Expr *fixed(Type *t, int depth) {
  Var *v = ir_var(M, "tmp", t);
  Expr *val = gen(t, depth + 1);
  return ir_let(M, v, val, ir_var_ref(M, v));
}

static Expr *call1(Expr *f, Expr *a) {
  return ir_call(M, f, 1, &a);
}

static Expr *prelude_ref(const char *name) {
  return ir_global_ref(M, ty_prelude_add(M, name));
}

/* An expression of type t built with one of the forms that can give t. */
static Expr *gen(Type *t, int depth) {
  int leafy = depth >= 5;
  for (int tries = 0; tries < 20; tries++) {
    switch (leafy ? rnd(2) : rnd(17)) {
    case 0: /* a variable of type t, innermost first */
      for (int i = nscope - 1; i >= 0; i--)
        if (ir_type_equal(scope[i]->annot ? scope[i]->annot : scope[i]->type, t) && rnd(3))
          return ir_var_ref(M, scope[i]);
      break;
    case 1: return literal(t, depth);
    case 2: { /* let */
      Type *u = rand_type(1);
      Var *v = ir_var(M, "v", u);
      Expr *val = gen(u, depth + 1);
      scope[nscope++] = v;
      Expr *body = gen(t, depth + 1);
      nscope--;
      return ir_let(M, v, val, body);
    }
    case 3:
      return ir_if(M, gen(ir_scalar_type(M->arena, DT_BOOL), depth + 1), gen(t, depth + 1),
                   gen(t, depth + 1));
    case 4: { /* projection from an annotated tuple */
      Type *fs[2] = {t, rand_type(1)};
      int i = (int)rnd(2);
      if (i) {
        fs[1] = t;
        fs[0] = rand_type(1);
      }
      return ir_proj(M, fixed(ir_tuple_type(M->arena, 2, fs), depth), i);
    }
    case 5: /* operators */
      if (t->kind != TY_TENSOR)
        break;
      if (t->tensor.dtype == DT_BOOL) {
        Type *u = ir_tensor_type(M->arena, DT_INT32, t->tensor.rank, t->tensor.shape);
        Expr *args[2] = {gen(u, depth + 1), gen(u, depth + 1)};
        return ir_call_op(M, OP_EQUAL, 2, args, NULL);
      }
      if (rnd(2)) {
        Expr *a = gen(t, depth + 1);
        return ir_call_op(M, OP_NEGATIVE, 1, &a, NULL);
      } else {
        Expr *args[2] = {gen(t, depth + 1), gen(t, depth + 1)};
        return ir_call_op(M, OP_ADD, 2, args, NULL);
      }
    case 6: { /* (fn (%p: u) -> t { .. })(arg), or through a let */
      Type *u = rand_type(1);
      Type *ft = ir_func_type(M->arena, 0, NULL, 1, &u, t);
      Expr *f = literal(ft, depth + 1);
      Expr *arg = gen(u, depth + 1);
      if (rnd(2))
        return call1(f, arg);
      Var *fv = ir_var(M, "f", ft);
      return ir_let(M, fv, f, call1(ir_var_ref(M, fv), arg));
    }
    case 7: /* constructors */
      if (is_adt(t, "List")) {
        Expr *args[2] = {gen(t->adt.args[0], depth + 1), gen(t, depth + 1)};
        return ir_call_ctor(M, ir_ctor_get(M, "Cons"), 2, args);
      }
      if (is_adt(t, "Option")) {
        Expr *a = gen(t->adt.args[0], depth + 1);
        return ir_call_ctor(M, ir_ctor_get(M, "Some"), 1, &a);
      }
      if (t->kind == TY_TUPLE) {
        Expr *fs[3];
        for (int i = 0; i < t->tuple.n; i++)
          fs[i] = gen(t->tuple.fields[i], depth + 1);
        return ir_tuple(M, t->tuple.n, fs);
      }
      if (t->kind == TY_FUNC)
        return literal(t, depth);
      break;
    case 8: { /* match on an option or a list */
      Type *u = rand_type(1);
      bool opt = rnd(2);
      Type *st = ir_adt_type(M->arena, opt ? ir_option_def(M) : ir_list_def(M), 1, &u);
      Expr *scrut = fixed(st, depth);
      Var *x = ir_var(M, "x", rnd(2) ? u : NULL), *rest = ir_var(M, "rest", rnd(2) ? st : NULL);
      x->type = u, rest->type = st; /* for the generator's own scope lookups */
      Pattern *pat;
      if (opt) {
        Pattern *px = ir_pat_var(M, x);
        pat = ir_pat_ctor(M, ir_ctor_get(M, "Some"), 1, &px);
      } else {
        Pattern *ps[2] = {ir_pat_var(M, x), ir_pat_var(M, rest)};
        pat = ir_pat_ctor(M, ir_ctor_get(M, "Cons"), 2, ps);
      }
      scope[nscope++] = x;
      if (!opt)
        scope[nscope++] = rest;
      Expr *b0 = gen(t, depth + 1);
      nscope -= opt ? 1 : 2;
      Clause cs[2] = {
          {pat, b0},
          {rnd(2) ? ir_pat_wild(M) : ir_pat_ctor(M, ir_ctor_get(M, opt ? "None" : "Nil"), 0, NULL),
           gen(t, depth + 1)}};
      return ir_match(M, scrut, 2, cs, true);
    }
    case 9: { /* refs */
      Var *r = ir_var(M, "r", ir_ref_type(M->arena, t));
      Var *w = ir_var(M, "w", ir_unit_type(M->arena));
      Expr *init = ir_ref_new(M, gen(t, depth + 1));
      scope[nscope++] = r;
      Expr *write = ir_ref_write(M, ir_var_ref(M, r), gen(t, depth + 1));
      Expr *body = ir_let(M, w, write, ir_ref_read(M, ir_var_ref(M, r)));
      nscope--;
      return ir_let(M, r, init, body);
    }
    case 10: /* @map */
      if (is_adt(t, "List")) {
        Type *u = rand_type(1);
        Type *ft = ir_func_type(M->arena, 0, NULL, 1, &u, t->adt.args[0]);
        Type *lu = ir_adt_type(M->arena, ir_list_def(M), 1, &u);
        Expr *args[2] = {literal(ft, depth + 1), gen(lu, depth + 1)};
        return ir_call(M, prelude_ref("map"), 2, args);
      }
      break;
    case 11: /* @length, @hd, @id */
      if (ir_type_is_scalar(t, DT_INT32)) {
        Type *u = rand_type(1);
        return call1(prelude_ref("length"),
                     fixed(ir_adt_type(M->arena, ir_list_def(M), 1, &u), depth));
      }
      if (is_adt(t, "Option"))
        return call1(prelude_ref("hd"),
                     gen(ir_adt_type(M->arena, ir_list_def(M), 1, t->adt.args), depth + 1));
      return call1(prelude_ref("id"), gen(t, depth + 1));
    case 12: { /* @foldl(fn (%acc: t, %el: u) -> t { .. }, init, xs) */
      Type *u = rand_type(1);
      Var *ps[2] = {ir_var(M, "acc", t), ir_var(M, "el", u)};
      scope[nscope++] = ps[0];
      scope[nscope++] = ps[1];
      Expr *body = gen(t, depth + 1);
      nscope -= 2;
      Expr *args[3] = {ir_func(M, 2, ps, t, body), gen(t, depth + 1),
                       gen(ir_adt_type(M->arena, ir_list_def(M), 1, &u), depth + 1)};
      return ir_call(M, prelude_ref("foldl"), 3, args);
    }
    case 13: { /* a new global, called */
      Type *u = rand_type(1);
      Var *p = ir_var(M, "p", u);
      int saved = nscope;
      nscope = 0;
      scope[nscope++] = p;
      Expr *body = gen(t, depth + 1);
      nscope = saved;
      char name[16];
      snprintf(name, sizeof name, "g%d", nglobals++);
      GlobalFn *g = ir_def(M, name, ir_func(M, 1, &p, t, body));
      return call1(ir_global_ref(M, g), gen(u, depth + 1));
    }
    case 14: /* a closure over the scope, returned from a function */
      if (t->kind == TY_FUNC)
        return literal(t, depth);
      break;
    case 16: { /* rank 2: @gN(%f: fn [T](T) -> T, %x: t) -> t { %f(%f(%x)) } */
      Type *T = ir_type_var(M->arena, "T");
      Type *poly = ir_func_type(M->arena, 1, &T, 1, &T, T);
      Var *ps[2] = {ir_var(M, "f", poly), ir_var(M, "x", t)};
      Expr *inner = call1(ir_var_ref(M, ps[0]), ir_var_ref(M, ps[1]));
      char name[16];
      snprintf(name, sizeof name, "g%d", nglobals++);
      GlobalFn *g = ir_def(M, name, ir_func(M, 2, ps, t, call1(ir_var_ref(M, ps[0]), inner)));
      Expr *args[2] = {prelude_ref("id"), gen(t, depth + 1)};
      if (rnd(2))
        return ir_call(M, ir_global_ref(M, g), 2, args);
      Var *pv = ir_var(M, "pid", poly);
      args[0] = ir_var_ref(M, pv);
      return ir_let(M, pv, prelude_ref("id"), ir_call(M, ir_global_ref(M, g), 2, args));
    }
    case 15: /* @tmap / @size over a tree */
      if (ir_type_is_scalar(t, DT_INT32)) {
        Type *u = rand_type(1);
        Type *tr = ir_adt_type(M->arena, ir_tree_def(M), 1, &u);
        Var *tv = ir_var(M, "tree", tr);
        Expr *kids = ir_call_ctor(M, ir_ctor_get(M, "Nil"), 0, NULL);
        Expr *rose[2] = {gen(u, depth + 1), kids};
        Expr *val = ir_call_ctor(M, ir_ctor_get(M, "Rose"), 2, rose);
        return ir_let(M, tv, val, call1(prelude_ref("size"), ir_var_ref(M, tv)));
      }
      break;
    }
  }
  return literal(t, depth);
}

/* ------------------------------------------------------------ checking */

typedef struct Snap {
  Expr **e;
  Type **t;
  int n, cap;
} Snap;

static void snap_visit(Expr **slot, void *ctx) {
  Snap *s = ctx;
  if (s->n == s->cap) {
    s->cap = s->cap ? 2 * s->cap : 256;
    s->e = realloc(s->e, sizeof *s->e * (size_t)s->cap);
    s->t = realloc(s->t, sizeof *s->t * (size_t)s->cap);
  }
  s->e[s->n] = *slot;
  s->t[s->n++] = (*slot)->type;
  ir_expr_children(*slot, snap_visit, ctx);
}

/* Every expression's type (a tree walk: the generator shares nothing). */
static Snap snapshot(void) {
  Snap s = {0};
  for (int i = 0; i < M->nfuncs; i++)
    snap_visit(&M->funcs[i]->func, &s);
  return s;
}

static int programs, erased_total, failures, mutated_errors;

static void one_program(uint64_t seed) {
  rng_state = seed;
  M = ir_module_new();
  nscope = nglobals = 0;
  Type *pt = rand_type(0), *rt = rand_type(0);
  Var *p = ir_var(M, "arg", pt);
  scope[nscope++] = p;
  Expr *body = gen(rt, 0);
  nscope = 0;
  ir_def(M, "main", ir_func(M, 1, &p, rt, body));
  Diag d;
  diag_init(&d, NULL, NULL);
  bool ok = ty_check_module_with(M, &d, fake_rel);
  CHECK_MSG(ok, "seed %llu: %s", (unsigned long long)seed, d.first);
  if (!ok) {
    failures++;
    goto out;
  }
  programs++;
  Snap s = snapshot();
  bool all_complete = true;
  for (int i = 0; i < s.n; i++)
    all_complete &= ir_type_complete(s.t[i]);
  CHECK_MSG(all_complete, "seed %llu: an incomplete type", (unsigned long long)seed);
  for (int round = 0; round < 5; round++) {
    uint64_t es = round == 4 ? TY_ERASE_ALL : seed * 31 + (uint64_t)round;
    TyErasure er = ty_erase_annotations(M, es);
    erased_total += er.n;
    diag_reset(&d);
    bool ok2 = ty_check_module_with(M, &d, fake_rel);
    CHECK_MSG(ok2, "seed %llu round %d (%d erased): %s", (unsigned long long)seed, round, er.n,
              d.first);
    if (ok2) {
      CHECK_MSG(ty_erasure_verify(&er, &d), "seed %llu round %d: %s", (unsigned long long)seed,
                round, d.first);
      int same = 0;
      for (int i = 0; i < s.n; i++)
        same += ir_type_equal(s.e[i]->type, s.t[i]);
      CHECK_MSG(same == s.n, "seed %llu round %d: %d of %d types differ", (unsigned long long)seed,
                round, s.n - same, s.n);
    }
    ty_erasure_restore(&er);
  }
  /* Corrupt one let annotation: an error or success, never a crash. */
  for (int i = 0; i < s.n; i++)
    if (s.e[i]->kind == EX_LET && s.e[i]->let.var->annot && rnd(4) == 0) {
      s.e[i]->let.var->annot = rand_type(0);
      diag_reset(&d);
      ty_check_module_with(M, &d, fake_rel);
      break;
    }
  /* Swap random subtrees: scope errors, type errors, even cycles.  The
   * checker must report, not crash, and leave no visited mark behind. */
  for (int k = 0; k < 4 && s.n > 1; k++) {
    Expr *a = s.e[rnd((uint32_t)s.n)], *b = s.e[rnd((uint32_t)s.n)];
    Expr tmp = *a;
    *a = *b;
    *b = tmp;
    diag_reset(&d);
    if (!ty_check_module_with(M, &d, fake_rel)) {
      bool clean = true;
      for (int i = 0; i < s.n; i++)
        clean &= ((uintptr_t)s.e[i]->type & 1) == 0;
      CHECK_MSG(clean, "seed %llu: a mark is left after a failed check", (unsigned long long)seed);
      mutated_errors++;
    }
    TyErasure er = ty_erase_annotations(M, seed + (uint64_t)k);
    diag_reset(&d);
    ty_check_module_with(M, &d, fake_rel);
    ty_erasure_restore(&er);
  }
  free(s.e);
  free(s.t);
out:
  diag_free(&d);
  ir_module_free(M);
}

int main(int argc, char **argv) {
  int n = argc > 1 ? atoi(argv[1]) : 1500;
  for (int i = 0; i < n; i++)
    one_program(1000 + (uint64_t)i);
  printf("%d programs checked, %d erased annotations recovered, %d generator failures, %d "
         "errors in mutated programs\n",
         programs, erased_total, failures, mutated_errors);
  CHECK(programs == n);
  CHECK(erased_total > n); /* erasure does real work */
  return test_summary();
}
