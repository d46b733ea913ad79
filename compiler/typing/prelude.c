/*
 * prelude.c - Relay's polymorphic prelude functions over List, Option and
 * Tree, defined on demand in a module with the builder (ty_prelude_add).
 *
 * Each is fully annotated (polymorphic globals must be), its matches are
 * complete and exhaustive, and it recurses only on a structurally smaller
 * list or tree, so it terminates on finite ones.  In Relay's text format:
 *
 *   def @id[A](%x: A) -> A
 *   def @compose[A, B, C](%f: fn (B) -> C, %g: fn (A) -> B) -> fn (A) -> C
 *   def @map[A, B](%f: fn (A) -> B, %xs: List[A]) -> List[B]
 *   def @foldl[A, B](%f: fn (A, B) -> A, %acc: A, %xs: List[B]) -> A
 *   def @foldr[A, B](%f: fn (A, B) -> B, %acc: B, %xs: List[A]) -> B
 *   def @length[A](%xs: List[A]) -> Tensor[(), int32]
 *   def @hd[A](%xs: List[A]) -> Option[A]                 (None when empty)
 *   def @tl[A](%xs: List[A]) -> Option[List[A]]           (None when empty)
 *   def @nth[A](%xs: List[A], %n: Tensor[(), int32]) -> Option[A]
 *                                          (None when n < 0 or n >= length)
 *   def @rev[A](%xs: List[A]) -> List[A]
 *   def @concat[A](%xs: List[A], %ys: List[A]) -> List[A]
 *   def @filter[A](%f: fn (A) -> Tensor[(), bool], %xs: List[A]) -> List[A]
 *   def @zip[A, B](%xs: List[A], %ys: List[B]) -> List[(A, B)]
 *                                          (as long as the shorter list)
 *   def @tmap[A, B](%f: fn (A) -> B, %t: Tree[A]) -> Tree[B]
 *   def @size[A](%t: Tree[A]) -> Tensor[(), int32]        (number of nodes)
 */
#include <string.h>

#include "typing.h"

/* Building context for one prelude function. */
typedef struct P {
  Module *m;
  GlobalFn *self;
  Type *tv[3]; /* the function's type parameters A, B, C */
} P;

static Type *list(P *p, Type *a) {
  return ir_adt_type(p->m->arena, ir_list_def(p->m), 1, &a);
}
static Type *option(P *p, Type *a) {
  return ir_adt_type(p->m->arena, ir_option_def(p->m), 1, &a);
}
static Type *tree(P *p, Type *a) {
  return ir_adt_type(p->m->arena, ir_tree_def(p->m), 1, &a);
}
static Type *i32(P *p) {
  return ir_scalar_type(p->m->arena, DT_INT32);
}
static Type *fn1(P *p, Type *a, Type *r) {
  return ir_func_type(p->m->arena, 0, NULL, 1, &a, r);
}
static Type *fn2(P *p, Type *a, Type *b, Type *r) {
  Type *ps[2] = {a, b};
  return ir_func_type(p->m->arena, 0, NULL, 2, ps, r);
}
static Expr *ref(P *p, Var *v) {
  return ir_var_ref(p->m, v);
}
static Expr *con(P *p, const char *ctor, int n, Expr *a0, Expr *a1) {
  Expr *args[2] = {a0, a1};
  return ir_call_ctor(p->m, ir_ctor_get(p->m, ctor), n, args);
}
static Expr *call(P *p, Expr *f, int n, Expr *a0, Expr *a1, Expr *a2) {
  Expr *args[3] = {a0, a1, a2};
  return ir_call(p->m, f, n, args);
}
static Expr *op2(P *p, OpId op, Expr *a, Expr *b) {
  Expr *args[2] = {a, b};
  return ir_call_op(p->m, op, 2, args, NULL);
}
static Expr *int32(P *p, int v) {
  return ir_const_scalar(p->m, DT_INT32, v);
}
static Pattern *pvar(P *p, Var *v) {
  return ir_pat_var(p->m, v);
}
static Pattern *pwild(P *p) {
  return ir_pat_wild(p->m);
}
static Pattern *pcon(P *p, const char *ctor, int n, Pattern *a0, Pattern *a1) {
  Pattern *sub[2] = {a0, a1};
  return ir_pat_ctor(p->m, ir_ctor_get(p->m, ctor), n, sub);
}

/* match (scrut) { Cons(ph, pt) => cons_body, Nil => nil_body } */
static Expr *match_list(P *p, Expr *scrut, Pattern *ph, Pattern *pt, Expr *cons_body,
                        Expr *nil_body) {
  Clause cs[2] = {{pcon(p, "Cons", 2, ph, pt), cons_body},
                  {pcon(p, "Nil", 0, NULL, NULL), nil_body}};
  return ir_match(p->m, scrut, 2, cs, true);
}

/* A call of a prelude function (defined first if need be). */
static Expr *prel(P *p, const char *name) {
  GlobalFn *g = strcmp(name, p->self->name) == 0 ? p->self : ty_prelude_add(p->m, name);
  return ir_global_ref(p->m, g);
}

/* The polymorphic function expression fn[tvars](params) -> ret { body }. */
static Expr *poly(P *p, int ntv, int np, Var **ps, Type *ret, Expr *body) {
  Expr *f = ir_func(p->m, np, ps, ret, body);
  f->func.ntvars = ntv;
  f->func.tvars = ARENA_ARRAY(p->m->arena, Type *, ntv);
  memcpy(f->func.tvars, p->tv, sizeof(Type *) * (size_t)ntv);
  return f;
}

static Expr *def_id(P *p) {
  Type *A = p->tv[0];
  Var *x = ir_var(p->m, "x", A);
  return poly(p, 1, 1, &x, A, ref(p, x));
}

static Expr *def_compose(P *p) {
  Type *A = p->tv[0], *B = p->tv[1], *C = p->tv[2];
  Var *ps[2] = {ir_var(p->m, "f", fn1(p, B, C)), ir_var(p->m, "g", fn1(p, A, B))};
  Var *x = ir_var(p->m, "x", A);
  Expr *inner = call(p, ref(p, ps[0]), 1, call(p, ref(p, ps[1]), 1, ref(p, x), 0, 0), 0, 0);
  return poly(p, 3, 2, ps, fn1(p, A, C), ir_func(p->m, 1, &x, C, inner));
}

static Expr *def_map(P *p) {
  Type *A = p->tv[0], *B = p->tv[1];
  Var *ps[2] = {ir_var(p->m, "f", fn1(p, A, B)), ir_var(p->m, "xs", list(p, A))};
  Var *x = ir_var(p->m, "x", NULL), *rest = ir_var(p->m, "rest", NULL);
  Expr *cons = con(p, "Cons", 2, call(p, ref(p, ps[0]), 1, ref(p, x), 0, 0),
                   call(p, prel(p, "map"), 2, ref(p, ps[0]), ref(p, rest), 0));
  Expr *body =
      match_list(p, ref(p, ps[1]), pvar(p, x), pvar(p, rest), cons, con(p, "Nil", 0, 0, 0));
  return poly(p, 2, 2, ps, list(p, B), body);
}

static Expr *def_foldl(P *p) {
  Type *A = p->tv[0], *B = p->tv[1];
  Var *ps[3] = {ir_var(p->m, "f", fn2(p, A, B, A)), ir_var(p->m, "acc", A),
                ir_var(p->m, "xs", list(p, B))};
  Var *x = ir_var(p->m, "x", NULL), *rest = ir_var(p->m, "rest", NULL);
  Expr *step = call(p, ref(p, ps[0]), 2, ref(p, ps[1]), ref(p, x), 0);
  Expr *rec = call(p, prel(p, "foldl"), 3, ref(p, ps[0]), step, ref(p, rest));
  Expr *body = match_list(p, ref(p, ps[2]), pvar(p, x), pvar(p, rest), rec, ref(p, ps[1]));
  return poly(p, 2, 3, ps, A, body);
}

static Expr *def_foldr(P *p) {
  Type *A = p->tv[0], *B = p->tv[1];
  Var *ps[3] = {ir_var(p->m, "f", fn2(p, A, B, B)), ir_var(p->m, "acc", B),
                ir_var(p->m, "xs", list(p, A))};
  Var *x = ir_var(p->m, "x", NULL), *rest = ir_var(p->m, "rest", NULL);
  Expr *rec = call(p, prel(p, "foldr"), 3, ref(p, ps[0]), ref(p, ps[1]), ref(p, rest));
  Expr *step = call(p, ref(p, ps[0]), 2, ref(p, x), rec, 0);
  Expr *body = match_list(p, ref(p, ps[2]), pvar(p, x), pvar(p, rest), step, ref(p, ps[1]));
  return poly(p, 2, 3, ps, B, body);
}

static Expr *def_length(P *p) {
  Var *xs = ir_var(p->m, "xs", list(p, p->tv[0]));
  Var *rest = ir_var(p->m, "rest", NULL);
  Expr *rec = op2(p, OP_ADD, int32(p, 1), call(p, prel(p, "length"), 1, ref(p, rest), 0, 0));
  Expr *body = match_list(p, ref(p, xs), pwild(p), pvar(p, rest), rec, int32(p, 0));
  return poly(p, 1, 1, &xs, i32(p), body);
}

static Expr *def_hd(P *p) {
  Type *A = p->tv[0];
  Var *xs = ir_var(p->m, "xs", list(p, A)), *x = ir_var(p->m, "x", NULL);
  Expr *body = match_list(p, ref(p, xs), pvar(p, x), pwild(p), con(p, "Some", 1, ref(p, x), 0),
                          con(p, "None", 0, 0, 0));
  return poly(p, 1, 1, &xs, option(p, A), body);
}

static Expr *def_tl(P *p) {
  Type *A = p->tv[0];
  Var *xs = ir_var(p->m, "xs", list(p, A)), *rest = ir_var(p->m, "rest", NULL);
  Expr *body = match_list(p, ref(p, xs), pwild(p), pvar(p, rest),
                          con(p, "Some", 1, ref(p, rest), 0), con(p, "None", 0, 0, 0));
  return poly(p, 1, 1, &xs, option(p, list(p, A)), body);
}

static Expr *def_nth(P *p) {
  Type *A = p->tv[0];
  Var *ps[2] = {ir_var(p->m, "xs", list(p, A)), ir_var(p->m, "n", i32(p))};
  Var *x = ir_var(p->m, "x", NULL), *rest = ir_var(p->m, "rest", NULL);
  Expr *found = con(p, "Some", 1, ref(p, x), 0);
  Expr *next =
      call(p, prel(p, "nth"), 2, ref(p, rest), op2(p, OP_SUBTRACT, ref(p, ps[1]), int32(p, 1)), 0);
  Expr *cons = ir_if(p->m, op2(p, OP_EQUAL, ref(p, ps[1]), int32(p, 0)), found, next);
  Expr *body =
      match_list(p, ref(p, ps[0]), pvar(p, x), pvar(p, rest), cons, con(p, "None", 0, 0, 0));
  return poly(p, 1, 2, ps, option(p, A), body);
}

static Expr *def_rev(P *p) {
  Type *A = p->tv[0];
  Var *xs = ir_var(p->m, "xs", list(p, A));
  Var *fps[2] = {ir_var(p->m, "acc", list(p, A)), ir_var(p->m, "x", A)};
  Expr *f = ir_func(p->m, 2, fps, list(p, A), con(p, "Cons", 2, ref(p, fps[1]), ref(p, fps[0])));
  Expr *body = call(p, prel(p, "foldl"), 3, f, con(p, "Nil", 0, 0, 0), ref(p, xs));
  return poly(p, 1, 1, &xs, list(p, A), body);
}

static Expr *def_concat(P *p) {
  Type *A = p->tv[0];
  Var *ps[2] = {ir_var(p->m, "xs", list(p, A)), ir_var(p->m, "ys", list(p, A))};
  Var *fps[2] = {ir_var(p->m, "x", A), ir_var(p->m, "acc", list(p, A))};
  Expr *f = ir_func(p->m, 2, fps, list(p, A), con(p, "Cons", 2, ref(p, fps[0]), ref(p, fps[1])));
  Expr *body = call(p, prel(p, "foldr"), 3, f, ref(p, ps[1]), ref(p, ps[0]));
  return poly(p, 1, 2, ps, list(p, A), body);
}

static Expr *def_filter(P *p) {
  Type *A = p->tv[0];
  Type *pred = fn1(p, A, ir_scalar_type(p->m->arena, DT_BOOL));
  Var *ps[2] = {ir_var(p->m, "f", pred), ir_var(p->m, "xs", list(p, A))};
  Var *x = ir_var(p->m, "x", NULL), *rest = ir_var(p->m, "rest", NULL);
  Expr *rec = call(p, prel(p, "filter"), 2, ref(p, ps[0]), ref(p, rest), 0);
  Expr *keep = con(p, "Cons", 2, ref(p, x), rec);
  Expr *skip = call(p, prel(p, "filter"), 2, ref(p, ps[0]), ref(p, rest), 0);
  Expr *cons = ir_if(p->m, call(p, ref(p, ps[0]), 1, ref(p, x), 0, 0), keep, skip);
  Expr *body =
      match_list(p, ref(p, ps[1]), pvar(p, x), pvar(p, rest), cons, con(p, "Nil", 0, 0, 0));
  return poly(p, 1, 2, ps, list(p, A), body);
}

static Expr *def_zip(P *p) {
  Type *A = p->tv[0], *B = p->tv[1];
  Type *ab[2] = {A, B};
  Type *pair = ir_tuple_type(p->m->arena, 2, ab);
  Var *ps[2] = {ir_var(p->m, "xs", list(p, A)), ir_var(p->m, "ys", list(p, B))};
  Var *x = ir_var(p->m, "x", NULL), *xr = ir_var(p->m, "xr", NULL);
  Var *y = ir_var(p->m, "y", NULL), *yr = ir_var(p->m, "yr", NULL);
  Pattern *both[2] = {pcon(p, "Cons", 2, pvar(p, x), pvar(p, xr)),
                      pcon(p, "Cons", 2, pvar(p, y), pvar(p, yr))};
  Expr *xy[2] = {ref(p, x), ref(p, y)};
  Expr *rec = call(p, prel(p, "zip"), 2, ref(p, xr), ref(p, yr), 0);
  Expr *lists[2] = {ref(p, ps[0]), ref(p, ps[1])};
  Clause cs[2] = {{ir_pat_tuple(p->m, 2, both), con(p, "Cons", 2, ir_tuple(p->m, 2, xy), rec)},
                  {pwild(p), con(p, "Nil", 0, 0, 0)}};
  Expr *body = ir_match(p->m, ir_tuple(p->m, 2, lists), 2, cs, true);
  return poly(p, 2, 2, ps, list(p, pair), body);
}

static Expr *def_tmap(P *p) {
  Type *A = p->tv[0], *B = p->tv[1];
  Var *ps[2] = {ir_var(p->m, "f", fn1(p, A, B)), ir_var(p->m, "t", tree(p, A))};
  Var *v = ir_var(p->m, "v", NULL), *cs = ir_var(p->m, "cs", NULL);
  Var *c = ir_var(p->m, "c", tree(p, A));
  Expr *sub =
      ir_func(p->m, 1, &c, tree(p, B), call(p, prel(p, "tmap"), 2, ref(p, ps[0]), ref(p, c), 0));
  Expr *kids = call(p, prel(p, "map"), 2, sub, ref(p, cs), 0);
  Expr *node = con(p, "Rose", 2, call(p, ref(p, ps[0]), 1, ref(p, v), 0, 0), kids);
  Clause cl = {pcon(p, "Rose", 2, pvar(p, v), pvar(p, cs)), node};
  return poly(p, 2, 2, ps, tree(p, B), ir_match(p->m, ref(p, ps[1]), 1, &cl, true));
}

static Expr *def_size(P *p) {
  Type *A = p->tv[0];
  Var *t = ir_var(p->m, "t", tree(p, A)), *cs = ir_var(p->m, "cs", NULL);
  Var *fps[2] = {ir_var(p->m, "acc", i32(p)), ir_var(p->m, "c", tree(p, A))};
  Expr *add = op2(p, OP_ADD, ref(p, fps[0]), call(p, prel(p, "size"), 1, ref(p, fps[1]), 0, 0));
  Expr *f = ir_func(p->m, 2, fps, i32(p), add);
  Expr *total = call(p, prel(p, "foldl"), 3, f, int32(p, 0), ref(p, cs));
  Clause cl = {pcon(p, "Rose", 2, pwild(p), pvar(p, cs)), op2(p, OP_ADD, int32(p, 1), total)};
  return poly(p, 1, 1, &t, i32(p), ir_match(p->m, ref(p, t), 1, &cl, true));
}

static const struct {
  const char *name;
  Expr *(*build)(P *);
} prelude[] = {
    {"id", def_id},       {"compose", def_compose}, {"map", def_map},       {"foldl", def_foldl},
    {"foldr", def_foldr}, {"length", def_length},   {"hd", def_hd},         {"tl", def_tl},
    {"nth", def_nth},     {"rev", def_rev},         {"concat", def_concat}, {"filter", def_filter},
    {"zip", def_zip},     {"tmap", def_tmap},       {"size", def_size},
};

enum { NPRELUDE = sizeof prelude / sizeof prelude[0] };

int ty_prelude_count(void) {
  return NPRELUDE;
}

const char *ty_prelude_name(int i) {
  return i >= 0 && i < NPRELUDE ? prelude[i].name : NULL;
}

GlobalFn *ty_prelude_add(Module *m, const char *name) {
  if (!ir_list_def(m) || !ir_option_def(m) || !ir_tree_def(m))
    return NULL; /* the module has its own List, Option or Tree */
  for (int i = 0; i < NPRELUDE; i++) {
    if (strcmp(prelude[i].name, name) != 0)
      continue;
    GlobalFn *g = ir_global_intern(m, name);
    if (g->func)
      return g;
    P p = {.m = m, .self = g};
    static const char *tv[3] = {"A", "B", "C"};
    for (int j = 0; j < 3; j++)
      p.tv[j] = ir_type_var(m->arena, tv[j]);
    /* Dependencies are defined (interned) while building; a function
     * refers to itself through p.self. */
    g->func = prelude[i].build(&p);
    return g;
  }
  return NULL;
}
