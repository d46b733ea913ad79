/*
 * poly.c - generated polymorphic global functions: def @f[A](%x: A, ..)
 * -> R, over one type variable A or two (fn[A, B]), called at several
 * instantiations (tensors, tuples, functions, refs, ADTs) in one program,
 * and, as often as a single one, a mutually recursive pair over List[A].
 *
 * The RFC's rule: a value of type A is used only where A is in scope,
 * and only passed around: returned, bound, put in tuples and
 * constructors, matched on, given to a function-typed parameter
 * (fn(A) -> A) or to another polymorphic global; never given to an
 * operator.  gen_expr sends every type that mentions A here
 * (gen_poly_expr), which makes only variables, calls, projections, lets,
 * ifs, matches and literals of it; every other type in the body is the
 * default forms' (they never see A).
 *
 * A signature: the result R abstracts a subterm S of the wanted type t
 * (R = t with S replaced by A, so the call at A := S has type t) or is t
 * itself (S drawn); the parameters are A (always: every type over A has
 * a value in the body, and the call's argument for it, generated
 * self-typing, fixes A for inference), then up to two of fn(A) -> A,
 * fn(A) -> T, List[A], Option[A], a generated ADT over A, (A, T) and a
 * concrete T; one signature in two (not a pair's) has a second type
 * parameter B: a parameter of type B, then maybe fn(B) -> A or (A, B).
 * R stays over A, so B takes a fresh instantiation at every call, fixed
 * by its self-typing argument.  A mutually recursive pair shares one signature whose
 * first parameter is List[A]: each matches on it and calls the other on
 * the tail only, so both terminate.  Polymorphic globals become callable
 * when complete (the pair together), so other calls among globals stay a
 * DAG.
 */
#include "gen_int.h"

enum { MAXP = 6, MAXSUB = 16, MAXC = 32, TDEPTH = 64 };

/* Does t mention the type variable a? */
static bool mentions(const Type *t, const Type *a, int depth) {
  if (!t || depth > TDEPTH)
    return false;
  switch (t->kind) {
  case TY_VAR: return t == a;
  case TY_REF: return mentions(t->ref.inner, a, depth + 1);
  case TY_TUPLE:
    for (int i = 0; i < t->tuple.n; i++)
      if (mentions(t->tuple.fields[i], a, depth + 1))
        return true;
    return false;
  case TY_ADT:
    for (int i = 0; i < t->adt.nargs; i++)
      if (mentions(t->adt.args[i], a, depth + 1))
        return true;
    return false;
  case TY_FUNC:
    for (int i = 0; i < t->func.nparams; i++)
      if (mentions(t->func.params[i], a, depth + 1))
        return true;
    return mentions(t->func.ret, a, depth + 1);
  default: return false;
  }
}

bool gen_poly_type(const GenCtx *g, const Type *t) {
  return t->kind != TY_TENSOR &&
         (mentions(t, g->tvar, 0) || (g->tvar2 && mentions(t, g->tvar2, 0)));
}

/* The children of a tuple, ADT, function (parameters, then the result)
 * or ref type, into kid (room for MAXSUB); their number. */
static int kids(const Type *t, Type **kid) {
  int n = 0;
  switch (t->kind) {
  case TY_REF: kid[n++] = t->ref.inner; break;
  case TY_TUPLE:
    for (int i = 0; i < t->tuple.n && n < MAXSUB; i++)
      kid[n++] = t->tuple.fields[i];
    break;
  case TY_ADT:
    for (int i = 0; i < t->adt.nargs && n < MAXSUB; i++)
      kid[n++] = t->adt.args[i];
    break;
  case TY_FUNC:
    for (int i = 0; i < t->func.nparams && n < MAXSUB - 1; i++)
      kid[n++] = t->func.params[i];
    kid[n++] = t->func.ret;
    break;
  default: break;
  }
  return n;
}

/* Whether pattern p (over type variable a) is t when a := *s, binding *s
 * at a's first occurrence (NULL: not bound yet). */
static bool match(const Type *p, const Type *t, const Type *a, Type **s, int depth) {
  if (p == a) {
    if (*s)
      return ir_type_equal(*s, t);
    *s = (Type *)t;
    return true;
  }
  if (depth > TDEPTH || p->kind != t->kind)
    return false;
  switch (p->kind) {
  case TY_TENSOR:
  case TY_VAR: return ir_type_equal(p, t);
  case TY_TUPLE:
    if (p->tuple.n != t->tuple.n)
      return false;
    break;
  case TY_ADT:
    if (p->adt.def != t->adt.def || p->adt.nargs != t->adt.nargs)
      return false;
    break;
  case TY_FUNC:
    if (p->func.ntvars || t->func.ntvars || p->func.nparams != t->func.nparams)
      return false;
    break;
  case TY_REF: break;
  default: return false;
  }
  Type *pk[MAXSUB], *tk[MAXSUB];
  int n = kids(p, pk);
  if (kids(t, tk) != n)
    return false;
  for (int i = 0; i < n; i++)
    if (!match(pk[i], tk[i], a, s, depth + 1))
      return false;
  return true;
}

/* t with every subterm equal to s replaced by a. */
static Type *abstract(GenCtx *g, Type *t, const Type *s, Type *a, int depth) {
  if (ir_type_equal(t, s))
    return a;
  Type *k[MAXSUB];
  int n = depth < TDEPTH ? kids(t, k) : 0;
  if (n == 0)
    return t;
  for (int i = 0; i < n; i++)
    k[i] = abstract(g, k[i], s, a, depth + 1);
  switch (t->kind) {
  case TY_REF: return ir_ref_type(g->a, k[0]);
  case TY_TUPLE: return ir_tuple_type(g->a, n, k);
  case TY_ADT: return ir_adt_type(g->a, t->adt.def, n, k);
  default: return ir_func_type(g->a, 0, NULL, n - 1, k, k[n - 1]);
  }
}

/* The subterms of t in pre-order, at most max, into out. */
static int subterms(Type *t, Type **out, int n, int max, int depth) {
  if (n >= max || depth > 3)
    return n;
  out[n++] = t;
  Type *k[MAXSUB];
  int nk = kids(t, k);
  for (int i = 0; i < nk; i++)
    n = subterms(k[i], out, n, max, depth + 1);
  return n;
}

/* ------------------------------------------------------------ signatures */

/* A generated type definition with one type variable usable here (its
 * base constructor holds a value of the variable), or NULL. */
static TypeDef *gen_adt_over(GenCtx *g) {
  if (!gen_feature(g, GEN_F_GENADT))
    return NULL;
  for (int i = 0; i < g->nadts; i++) {
    AdtInfo *ai = &g->adts[i];
    if (!ai->def->builtin && ai->def->ntvars == 1 && ai->usable)
      return ai->def;
  }
  return NULL;
}

/* A parameter type over a for a new signature (after the first). */
static Type *param_type(GenCtx *g, Type *a) {
  bool adt = gen_feature(g, GEN_F_ADT), clo = gen_feature(g, GEN_F_CLOSURE);
  TypeDef *gd = gen_adt_over(g);
  uint32_t w[7] = {clo ? 3 : 0,
                   clo ? 1 : 0,
                   adt ? 2 : 0,
                   adt ? 1 : 0,
                   gd ? 1 : 0,
                   gen_feature(g, GEN_F_TUPLE) ? 1 : 0,
                   2};
  switch (gen_weighted(&g->st, w, 7)) {
  case 0: return ir_func_type(g->a, 0, NULL, 1, &a, a);
  case 1: return ir_func_type(g->a, 0, NULL, 1, &a, gen_tensor_type(g));
  case 2: return ir_adt_type(g->a, ir_list_def(g->m), 1, &a);
  case 3: return ir_adt_type(g->a, ir_option_def(g->m), 1, &a);
  case 4: gen_adt_info(g, gd)->used = true; return ir_adt_type(g->a, gd, 1, &a);
  case 5: return ir_tuple_type(g->a, 2, (Type *[]){a, gen_tensor_type(g)});
  default: return gen_type_at(g, 1, GEN_TY_ANY);
  }
}

/* A polymorphic signature whose result at A := *s is t (pair: its first
 * parameter is List[A]). */
static Type *new_sig(GenCtx *g, Type *t, bool pair, Type **s) {
  Type *a = ir_type_var(g->a, "A");
  Type *sub[MAXSUB];
  int nsub = subterms(t, sub, 0, MAXSUB, 0);
  uint32_t w[2] = {3, 1};
  Type *ret = t;
  if (gen_weighted(&g->st, w, 2) == 0) {
    *s = sub[gen_choose(g, (uint32_t)nsub)];
    ret = abstract(g, t, *s, a, 0);
  } else {
    *s = gen_type_at(g, 1, GEN_TY_ANY);
  }
  Type *p[MAXP];
  int np = 0;
  if (pair)
    p[np++] = ir_adt_type(g->a, ir_list_def(g->m), 1, &a);
  p[np++] = a;
  int extra = (int)gen_choose(g, 3);
  for (int i = 0; i < extra && np < MAXP; i++)
    p[np++] = param_type(g, a);
  uint32_t w1[2] = {1, 1}; /* a two-way draw: a leaf mutation always flips it */
  if (pair || gen_weighted(&g->st, w1, 2) == 0)
    return ir_func_type(g->a, 1, &a, np, p, ret);
  /* A second type parameter, fn[A, B]: a parameter of type B (its
   * argument fixes B at each call), and now and then one that maps B into
   * A or holds both.  The result stays over A, so B takes a new
   * instantiation at every call. */
  Type *b = ir_type_var(g->a, "B");
  Type *ab[2] = {a, b};
  p[np++] = b;
  uint32_t w2[3] = {2, gen_feature(g, GEN_F_CLOSURE) ? 2 : 0, gen_feature(g, GEN_F_TUPLE) ? 1 : 0};
  switch (w2[1] + w2[2] ? gen_weighted(&g->st, w2, 3) : 0) { /* no draw with one outcome */
  case 1: p[np++] = ir_func_type(g->a, 0, NULL, 1, &b, a); break;
  case 2: p[np++] = ir_tuple_type(g->a, 2, ab); break;
  default: break;
  }
  return ir_func_type(g->a, 2, ab, np, p, ret);
}

/* ----------------------------------------------------------------- calls */

/* @f(args) at the instantiation A := s (and B := a type drawn here, for
 * fn[A, B]): the first argument of type A (of B) is self-typing (it fixes
 * A, B), the others are checked. */
static Expr *call_at(GenCtx *g, GlobalFn *gf, const Type *ft, Type *s, int budget) {
  int ntv = ft->func.ntvars < 2 ? ft->func.ntvars : 2;
  Type *to[2] = {s, ntv > 1 ? gen_type_at(g, 1, GEN_TY_ANY) : NULL};
  int n = ft->func.nparams, fix[2] = {-1, -1};
  Expr *args[MAXP];
  int b[MAXP];
  gen_split(g, budget, n, b);
  for (int i = 0; i < n; i++) {
    for (int k = 0; k < ntv; k++)
      if (fix[k] < 0 && ft->func.params[i] == ft->func.tvars[k])
        fix[k] = i;
    Type *pt = ir_type_subst(g->a, ft->func.params[i], ntv, ft->func.tvars, to);
    args[i] = gen_sub(g, pt, b[i], i == fix[0] || i == fix[1]);
  }
  g->pure = false;
  g->form = GF_GLOBAL;
  return ir_call(g->m, ir_global_ref(g->m, gf), n, args);
}

typedef struct Calls {
  GlobalFn *gf;
  Type *ft, *s;
  int budget;
} Calls;

static Expr *second_body(GenCtx *g, Var *v, void *arg) {
  Calls *c = arg;
  return call_at(g, c->gf, c->ft, c->s, c->budget);
}

/* A call of gf at A := s (of type t), often after a call at another
 * instantiation bound by a let (whose variable the call may use). */
static Expr *calls(GenCtx *g, GlobalFn *gf, Type *ft, Type *s, int budget) {
  uint32_t w[2] = {1, gen_feature(g, GEN_F_LET) && budget >= 4 ? 3 : 0};
  if (gen_weighted(&g->st, w, 2) == 0)
    return call_at(g, gf, ft, s, budget);
  Type *s2 = gen_type_at(g, 1, GEN_TY_ANY);
  if (ir_type_equal(s2, s)) /* one instantiation twice: a single call */
    return call_at(g, gf, ft, s, budget);
  Type *a = ft->func.tvars[0];
  int b[2];
  gen_split(g, budget, 2, b);
  Expr *first = call_at(g, gf, ft, s2, b[0]);
  Calls c = {gf, ft, s, b[1]};
  Expr *e = gen_let_with(g, ir_type_subst(g->a, ft->func.ret, 1, &a, &s2), first, second_body, &c);
  g->pure = false;
  return e;
}

static void add_poly(GenCtx *g, GlobalFn *gf, Type *ft) {
  if (g->npolys < GEN_MAX_GLOBALS)
    g->polys[g->npolys++] = (GenPoly){gf, ft};
}

/* ---------------------------------------------------------------- bodies */

static Expr *body_one(GenCtx *g, Var *const *params, void *arg) {
  Type *ft = ((Calls *)arg)->ft;
  return gen_sub(g, ft->func.ret, ((Calls *)arg)->budget, false);
}

typedef struct Pair {
  GlobalFn *partner;
  Type *ft;
  int budget;
} Pair;

/* let %r = @partner(%t, ..); a body of the result type. */
static Expr *after_rec(GenCtx *g, Var *r, void *arg) {
  Pair *P = arg;
  return gen_sub(g, P->ft->func.ret, P->budget, false);
}

/* match (%xs) { Cons(%h, %t) => let %r = @partner(%t, ..); .. | Nil => .. } */
static Expr *body_pair(GenCtx *g, Var *const *params, void *arg) {
  Pair *P = arg;
  const Type *ft = P->ft;
  Type *a = ft->func.tvars[0], *la = ft->func.params[0];
  TypeDef *list = la->adt.def;
  Ctor *cons = list->ctors[0]->nfields == 2 ? list->ctors[0] : list->ctors[1];
  Ctor *nil = cons == list->ctors[0] ? list->ctors[1] : list->ctors[0];
  int b[3];
  gen_split(g, P->budget, 3, b);
  int mark = g->nscope;
  Var *h = gen_fresh_var(g, "h", a, false), *t = gen_fresh_var(g, "t", la, false);
  gen_scope_push(g, h, a);
  gen_scope_push(g, t, la);
  int n = ft->func.nparams;
  Expr *args[MAXP];
  int ab[MAXP];
  gen_split(g, b[0], n, ab);
  gen_var_used(g, t);
  args[0] = ir_var_ref(g->m, t);
  for (int i = 1; i < n; i++)
    args[i] = gen_sub(g, ft->func.params[i], ab[i], false);
  Expr *rec = ir_call(g->m, ir_global_ref(g->m, P->partner), n, args);
  Pair rest = *P;
  rest.budget = b[1];
  Expr *on_cons =
      gen_feature(g, GEN_F_LET) ? gen_let_with(g, ft->func.ret, rec, after_rec, &rest) : rec;
  gen_scope_pop(g, mark);
  Expr *on_nil = gen_sub(g, ft->func.ret, b[2], false);
  gen_var_used(g, params[0]);
  Pattern *sub[2] = {ir_pat_var(g->m, h), ir_pat_var(g->m, t)};
  Clause cl[2] = {{ir_pat_ctor(g->m, cons, 2, sub), on_cons},
                  {ir_pat_ctor(g->m, nil, 0, NULL), on_nil}};
  g->pure = false;
  return ir_match(g->m, ir_var_ref(g->m, params[0]), 2, cl, true);
}

/* ------------------------------------------------------------------ form */

/* Whether a new polymorphic global (two: a pair) may be made. */
static bool new_ok(GenCtx *g, int budget, int k) {
  return gen_can_make_global(g, budget) && g->nmade + k <= g->pol->max_globals &&
         g->nmade + k <= GEN_MAX_GLOBALS && g->npolys + k <= GEN_MAX_GLOBALS;
}

static bool pair_ok(GenCtx *g, int budget) {
  return budget >= 6 && gen_feature(g, GEN_F_ADT | GEN_F_RECURSION) && new_ok(g, budget, 2);
}

/* The callable polymorphic globals whose result can be t, with the
 * instantiation that gives it (NULL: any), into idx and s. */
static int existing(GenCtx *g, const Type *t, int *idx, Type **s) {
  int n = 0;
  for (int i = 0; i < g->npolys && n < GEN_MAX_GLOBALS; i++) {
    const Type *ft = g->polys[i].type;
    s[n] = NULL;
    if (match(ft->func.ret, t, ft->func.tvars[0], &s[n], 0))
      idx[n++] = i;
  }
  return n;
}

bool gen_poly_ok(GenCtx *g, const Type *t, int budget) {
  if (!g->pol->poly_weight || budget < 3 || !gen_feature(g, GEN_F_GLOBAL))
    return false;
  if (new_ok(g, budget, 1))
    return true;
  int idx[GEN_MAX_GLOBALS];
  Type *s[GEN_MAX_GLOBALS];
  return existing(g, t, idx, s) > 0;
}

Expr *gen_poly_form(GenCtx *g, Type *t, int budget) {
  int idx[GEN_MAX_GLOBALS];
  Type *s[GEN_MAX_GLOBALS];
  int ne = existing(g, t, idx, s);
  uint32_t w[GEN_MAX_GLOBALS + 2];
  for (int i = 0; i < ne; i++)
    w[i] = 2;
  w[ne] = new_ok(g, budget, 1) ? 4 : 0;
  w[ne + 1] = pair_ok(g, budget) ? 12 : 0;
  int k = gen_weighted(&g->st, w, ne + 2);
  g->pure = false;
  if (k < ne) {
    GenPoly *p = &g->polys[idx[k]];
    Type *si = s[k] ? s[k] : gen_type_at(g, 1, GEN_TY_ANY);
    return calls(g, p->fn, p->type, si, budget - 1);
  }
  Type *si;
  Type *ft = new_sig(g, t, k > ne, &si);
  int b[2];
  gen_split(g, budget - 1, 2, b);
  if (k == ne) {
    Calls c = {NULL, ft, NULL, b[0]};
    GlobalFn *gf = gen_new_global(g, ft, b[0], body_one, &c);
    add_poly(g, gf, ft);
    return calls(g, gf, ft, si, b[1]);
  }
  GlobalFn *f0 = ir_global_intern(g->m, gen_global_name(g));
  GlobalFn *f1 = ir_global_intern(g->m, gen_global_name(g));
  Pair p0 = {f1, ft, b[0] / 2}, p1 = {f0, ft, b[0] - b[0] / 2};
  gen_define_global(g, f0, ft, body_pair, &p0);
  gen_define_global(g, f1, ft, body_pair, &p1);
  add_poly(g, f0, ft);
  add_poly(g, f1, ft);
  return calls(g, gen_choose(g, 2) ? f1 : f0, ft, si, b[1]);
}

/* ------------------------------------------------------- inside a body */

enum { PX_VAR, PX_CALL, PX_PROJ, PX_POLY, PX_LET, PX_IF, PX_MATCH, PX_LIT, PX_COUNT };

typedef struct Cand {
  Scoped *v[MAXC];
  int n;
} Cand;

static Expr *let_body(GenCtx *g, Var *v, void *arg) {
  Calls *c = arg;
  return gen_sub(g, c->ft, c->budget, g->free);
}

Expr *gen_poly_expr(GenCtx *g, Type *t, int budget) {
  Cand vars = {0}, fns = {0}, tups = {0}, adts = {0};
  int field[MAXC];
  for (int i = g->nscope - 1; i >= g->scope_base; i--) {
    Scoped *s = &g->scope[i];
    const Type *st = s->type;
    if (ir_type_equal(st, t) && vars.n < MAXC)
      vars.v[vars.n++] = s;
    if (st->kind == TY_FUNC && !st->func.ntvars && ir_type_equal(st->func.ret, t) && fns.n < MAXC)
      fns.v[fns.n++] = s;
    if (st->kind == TY_TUPLE && tups.n < MAXC)
      for (int j = 0; j < st->tuple.n; j++)
        if (ir_type_equal(st->tuple.fields[j], t)) {
          field[tups.n] = j;
          tups.v[tups.n++] = s;
          break;
        }
    if (st->kind == TY_ADT && gen_poly_type(g, st) && adts.n < MAXC)
      adts.v[adts.n++] = s;
  }
  int idx[GEN_MAX_GLOBALS];
  Type *inst[GEN_MAX_GLOBALS];
  int np = 0;
  bool leaf = budget <= 1 || g->depth >= g->pol->max_depth;
  uint32_t w[PX_COUNT] = {0};
  w[PX_VAR] = vars.n ? 6 : 0;
  w[PX_LIT] = t->kind != TY_VAR ? 2 : 0;
  if (!leaf) {
    np = existing(g, t, idx, inst);
    w[PX_CALL] = fns.n ? 4 : 0;
    w[PX_PROJ] = tups.n ? 2 : 0;
    w[PX_POLY] = np ? 3 : 0;
    w[PX_LET] = gen_feature(g, GEN_F_LET) && budget >= 3 ? 2 : 0;
    w[PX_IF] = gen_feature(g, GEN_F_IF) && budget >= 4 ? 1 : 0;
    w[PX_MATCH] = adts.n && budget >= 4 ? 2 : 0;
  }
  if (!w[PX_VAR] && !w[PX_LIT] && !w[PX_CALL] && !w[PX_PROJ] && !w[PX_POLY]) {
    gen_fail(g, "no value of a type over the type variable in scope");
    return ir_tuple(g->m, 0, NULL);
  }
  int k = gen_weighted(&g->st, w, PX_COUNT);
  Expr *e;
  GenForm form = GF_VAR;
  switch (k) {
  case PX_VAR: return gen_var_expr(g, vars.v[gen_choose(g, (uint32_t)vars.n)]);
  case PX_CALL: {
    Scoped *f = fns.v[gen_choose(g, (uint32_t)fns.n)];
    int n = f->type->func.nparams;
    Expr *args[8];
    int b[8];
    gen_split(g, budget - 1, n < 8 ? n : 8, b);
    Expr *callee = gen_var_expr(g, f);
    for (int i = 0; i < n && i < 8; i++)
      args[i] = gen_sub(g, f->type->func.params[i], b[i], false);
    e = ir_call(g->m, callee, n, args);
    form = GF_CALL;
    break;
  }
  case PX_PROJ: {
    uint32_t j = gen_choose(g, (uint32_t)tups.n);
    e = ir_proj(g->m, gen_var_expr(g, tups.v[j]), field[j]);
    form = GF_PROJ;
    break;
  }
  case PX_POLY: {
    uint32_t j = gen_choose(g, (uint32_t)np);
    GenPoly *p = &g->polys[idx[j]];
    Type *s = inst[j] ? inst[j] : gen_type_at(g, 1, GEN_TY_ANY);
    e = call_at(g, p->fn, p->type, s, budget - 1);
    form = GF_GLOBAL;
    break;
  }
  case PX_LET: {
    Type *vt = gen_choose(g, 2) ? g->tvar : t;
    int b[2];
    gen_split(g, budget - 1, 2, b);
    Expr *value = gen_sub(g, vt, b[0], false);
    Calls c = {NULL, t, NULL, b[1]};
    e = gen_let_with(g, vt, value, let_body, &c);
    form = GF_LET;
    break;
  }
  case PX_IF: {
    int b[3];
    gen_split(g, budget - 1, 3, b);
    Expr *c = gen_sub(g, ir_scalar_type(g->a, DT_BOOL), b[0], false);
    Expr *e1 = gen_sub(g, t, b[1], g->free);
    Expr *e2 = gen_sub(g, t, b[2], g->free);
    e = ir_if(g->m, c, e1, e2);
    form = GF_IF;
    break;
  }
  case PX_MATCH: {
    Scoped *s = adts.v[gen_choose(g, (uint32_t)adts.n)];
    e = gen_match_on(g, gen_var_expr(g, s), s->type, t, budget - 1, false);
    form = GF_MATCH;
    break;
  }
  default:
    e = gen_literal(g, t, leaf ? 1 : budget);
    form = GF_LIT;
    break;
  }
  g->pure = false;
  g->form = form;
  return e;
}
