/*
 * translate.c - relayc IR to MLIR text (see translate.h for the contract
 * and docs/mlir.md for the mapping of every operator): the driver.
 *
 * Two passes over the module.  accept_module() (accept.c) walks
 * everything @main reaches and refuses what the translator does not take
 * (the reason becomes the skip), so that the emitters never meet an
 * unsupported form.  Then each function is emitted: expressions become
 * Vals (a tensor is one SSA value, a tuple a tree of them), let, tuples
 * and projections are resolved statically, `if` becomes a region
 * operation, a call of a global a func.call, and an operator call goes
 * through emit_op to its family's emitter (emit_<family>.c), built from
 * small emitters (one MLIR operation each; emit.c, emit_shape.c,
 * emit_elemwise.c).  translate_int.h lists what the files share.
 *
 * Semantics are relayc's interpreter's, not TOSA's defaults: wherever the
 * two differ (integer division by 0 and -1, float to int casts, negate of
 * INT_MIN, the sign of zeros in argmax, sums accumulated in double, ...)
 * the lowering spells out relayc's behaviour with more operations; each
 * such place says so in a comment.
 *
 * Regions: tosa.cond_if must be isolated from above, so while a branch is
 * emitted every value from outside it becomes a block argument (a
 * capture); the condition's operand list is written once both branches
 * are done.  (An if inside another becomes scf.if, whose regions use
 * outside values directly.)
 */
#include <assert.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "compiler/ops/op.h"
#include "translate_int.h"

/* ---------------------------------------------------------- dynamic dims */

void tr_refuse(Tr *t, const char *fmt, ...) {
  if (t->refused)
    return;
  t->refused = true;
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(t->skip, sizeof t->skip, fmt, ap);
  va_end(ap);
}

/* The static type of translated value v (tuples field by field). */
static Type *val_type(Fn *f, Val *v) {
  if (v->n < 0)
    return (Type *)v->type;
  Type **fs = ARENA_ARRAY(f->t->a, Type *, v->n + 1);
  for (int i = 0; i < v->n; i++)
    fs[i] = val_type(f, v->f[i]);
  return ir_tuple_type(f->t->a, v->n, fs);
}

/* A value of type t with no text behind it (Any dims taken as 1): what
 * the emission goes on with once it has refused the module. */
static Val *placeholder(Fn *f, const Type *t) {
  if (t->kind == TY_TUPLE) {
    Val *v = ARENA_NEW(f->t->a, Val);
    v->n = t->tuple.n;
    v->f = ARENA_ARRAY(f->t->a, Val *, v->n + 1);
    for (int i = 0; i < v->n; i++)
      v->f[i] = placeholder(f, t->tuple.fields[i]);
    return v;
  }
  int64_t shape[IR_MAX_RANK];
  for (int i = 0; i < t->tensor.rank; i++)
    shape[i] = ir_dim_is_any(t->tensor.shape[i]) ? 1 : t->tensor.shape[i];
  return fn_fresh(f, mty_tensor(f, t->tensor.dtype, t->tensor.rank, shape), NULL, NULL);
}

/* v with the Any dims of relayc's type t `?` too: only those (exact, at
 * function boundaries and yields, whose types must match), or those on
 * top of v's own (elsewhere: a value may be more dynamic than relayc
 * says, until an operation needs it static). */
static Val *conform(Fn *f, Val *v, const Type *t, bool exact) {
  if (v->n < 0) {
    uint32_t want = mty_any_mask(f->t, t);
    return fn_cast(f, v, exact ? want : v->dyn | want);
  }
  Val *c = NULL;
  for (int i = 0; i < v->n; i++) {
    Val *x = conform(f, v->f[i], t->tuple.fields[i], exact);
    if (x != v->f[i] && !c) {
      c = ARENA_NEW(f->t->a, Val);
      *c = *v;
      c->f = ARENA_ARRAY(f->t->a, Val *, v->n + 1);
      memcpy(c->f, v->f, sizeof *c->f * (size_t)v->n);
    }
    if (c)
      c->f[i] = x;
  }
  return c ? c : v;
}

/* The static result type of operator call e on the translated arguments
 * a: relayc's own when it is static, else the operator's relation on the
 * arguments' static types (the shapes the program runs with: @main's
 * parameters are static).  NULL, refusing, when the relation rejects
 * them (a check deferred to run time that fails). */
static const Type *static_type(Fn *f, const Expr *e, Val **a) {
  if (!mty_has_any(e->type))
    return e->type;
  Type *args[OP_MAX_ARGS] = {0}, *out = NULL;
  for (int i = 0; i < e->call.nargs; i++)
    args[i] = val_type(f, a[i]);
  char err[160];
  OpId op = e->call.op;
  if (op_table[op].rel(op, args, e->call.nargs, &e->call.attrs, f->t->a, &out, err, sizeof err) ==
          REL_OK &&
      out && !mty_has_any(out))
    return out;
  tr_refuse(f->t, "%s on its static shapes: %s", op_table[op].name,
            out ? "a result with an Any dim" : err);
  return NULL;
}

/* Operators whose translation takes dynamic operands as they are: the
 * elementwise families (lowers.def), whose TOSA operations give a result
 * dim `?` where an operand's dim is (emit_tosa); the rest get their
 * operands cast to static. */
static bool takes_dynamic(MltFamily fam) {
  return fam == MLF_UNARY || fam == MLF_BROADCAST || fam == MLF_WHERE || fam == MLF_EXTRA_ELEM;
}

/* ------------------------------------------------------------ operators */

/* The translation of operator call e with translated arguments a, by its
 * family's emitter (lowers.def; accept.c refused the operators without
 * one). */
static Val *emit_op(Fn *f, const Expr *e, Val **a) {
  OpId op = e->call.op;
  const Attrs *at = &e->call.attrs;
  const Type *rt = static_type(f, e, a);
  if (!rt)
    return placeholder(f, e->type);
  MltFamily fam = accept_family(op);
  for (int i = 0; i < e->call.nargs && !takes_dynamic(fam); i++)
    a[i] = fn_static(f, a[i]);
  if (f->t->linalg)
    return lin_emit_op(f, e, a, rt);
  switch (fam) {
  case MLF_UNARY: return emit_unary(f, op, a[0], at, rt);
  case MLF_BROADCAST: return emit_broadcast(f, op, a[0], a[1], rt);
  case MLF_WHERE: return emit_select(f, a[0], a[1], a[2]);
  case MLF_REDUCE: return emit_reduction(f, op, a[0], at, rt);
  case MLF_SHAPE: return emit_shape(f, op, a, at, rt);
  case MLF_INDEX: return emit_index(f, op, a, at, rt);
  case MLF_NN: return emit_nn(f, e, a, rt);
  case MLF_EXTRA_ELEM:
  case MLF_EXTRA: return emit_extra(f, e, a, rt);
  case MLF_NONE: break;
  }
  assert(!"refused by accept_call()");
  return placeholder(f, e->type);
}

/* ---------------------------------------------------------- expressions */

static Val *emit_expr(Fn *f, const Expr *e);

/* A Val of type t whose tensor leaves are leaves[*pos ..]. */
static Val *build(Fn *f, const Type *t, Val **leaves, int *pos) {
  if (t->kind != TY_TUPLE)
    return leaves[(*pos)++];
  Val *v = ARENA_NEW(f->t->a, Val);
  v->n = t->tuple.n;
  v->f = ARENA_ARRAY(f->t->a, Val *, v->n);
  for (int i = 0; i < v->n; i++)
    v->f[i] = build(f, t->tuple.fields[i], leaves, pos);
  return v;
}

/* The tensor leaves of v into out (depth first); returns how many. */
static int leaves_of(Val *v, Val **out) {
  if (v->n < 0) {
    out[0] = v;
    return 1;
  }
  int n = 0;
  for (int i = 0; i < v->n; i++)
    n += leaves_of(v->f[i], out + n);
  return n;
}

static int count_leaves(const Type *t) {
  return mlt_flatten_type(t, NULL, 0);
}

/* Values typed as the values proto[0..n) (static type and MLIR type),
 * results of the operation whose line starts here: "%7" for one, "%7#0",
 * "%7#1", .. for several. */
static Val **fn_results(Fn *f, Val **proto, int n) {
  Val **r = ARENA_ARRAY(f->t->a, Val *, n + 1);
  if (n == 1) {
    r[0] = fn_def(f, proto[0]->type, proto[0]->ty);
    r[0]->dyn = proto[0]->dyn;
    return r;
  }
  int id = f->t->next++;
  for (int i = 0; i < n; i++) {
    r[i] = fn_fresh(f, proto[i]->type, proto[i]->ty, NULL);
    r[i]->dyn = proto[i]->dyn;
    r[i]->name = arena_printf(f->t->a, "%%%d#%d", id, i);
  }
  fn_line(f);
  fn_out(f, "%%%d:%d = ", id, n);
  f->last = NULL;
  return r;
}

/* ": T0, T1" or "(T0, T1)" lists of types. */
static void type_list(Fn *f, Val **v, int n, bool parens) {
  if (parens)
    fn_out(f, "(");
  for (int i = 0; i < n; i++)
    fn_out(f, "%s%s", i ? ", " : "", v[i]->ty);
  if (parens)
    fn_out(f, ")");
}

/* A variable's name as an SSA name hint ([A-Za-z0-9_]), or NULL. */
static const char *hint_of(Fn *f, const char *name) {
  if (!name || !*name)
    return NULL;
  char *h = arena_strdup(f->t->a, name);
  for (char *p = h; *p; p++)
    if (!(*p >= 'a' && *p <= 'z') && !(*p >= 'A' && *p <= 'Z') && !(*p >= '0' && *p <= '9'))
      *p = '_';
  return h;
}

/* Give v, just defined on the last line, the name of the let variable it
 * is bound to: "%12" becomes "%x_12". */
static void name_value(Fn *f, Val *v, const char *name) {
  const char *h = hint_of(f, name);
  if (!h || v != f->last || v->hint || v->level != f->level)
    return;
  buf_insert(fn_body(f), f->last_at + 1, arena_printf(f->t->a, "%s_", h));
  v->hint = h;
  v->name = arena_printf(f->t->a, "%%%s_%d", h, v->id);
  f->last = NULL;
}

/* Enter branch b of the region at the next level. */
static void fn_enter(Fn *f, Region *r, int b) {
  r->branch = b;
  f->reg[++f->level] = r;
}

/* Leave the branch: forget what was translated inside it. */
static void fn_leave(Fn *f) {
  while (f->nmemo > 0 && f->memo[f->nmemo - 1].level >= f->level)
    f->nmemo--;
  f->level--;
  f->last = NULL;
}

/* if (c) { a } else { b }: tosa.cond_if, both regions taking the outside
 * values they use as block arguments.  Inside another if it is scf.if:
 * tosa-to-scf in MLIR 22.1 fails to legalize a tosa.cond_if nested in
 * another (docs/findings/mlir.md). */
static Val *emit_if(Fn *f, const Expr *e) {
  const Type *t = e->type;
  int n = count_leaves(t);
  if (n == 0) /* nothing to compute: the branches have no effects */
    return build(f, t, NULL, &(int){0});
  Val *c = fn_static(f, emit_expr(f, e->if_.cond));
  Region r = {.isolated = f->level == 0 && !f->t->linalg}; /* the linalg road: scf.if */
  const char *yield = r.isolated ? "tosa.yield" : "scf.yield";
  Val **leaves = ARENA_ARRAY(f->t->a, Val *, n), **proto = ARENA_ARRAY(f->t->a, Val *, n);
  const Type **types = ARENA_ARRAY(f->t->a, const Type *, n);
  mlt_flatten_type(t, types, n);
  for (int b = 0; b < 2; b++) {
    fn_enter(f, &r, b);
    leaves_of(emit_expr(f, b ? e->if_.els : e->if_.then), leaves);
    for (int i = 0; i < n; i++) { /* yields of the if's types exactly */
      leaves[i] = fn_cast(f, leaves[i], mty_any_mask(f->t, types[i]));
      if (!b)
        proto[i] = leaves[i];
      else if (!ir_type_equal(proto[i]->type, leaves[i]->type))
        tr_refuse(f->t, "an if whose branches have different shapes (%s, %s)", proto[i]->ty,
                  leaves[i]->ty);
    }
    const char *names[n];
    for (int i = 0; i < n; i++)
      names[i] = fn_use(f, leaves[i]);
    fn_line(f);
    fn_out(f, "%s", yield);
    for (int i = 0; i < n; i++)
      fn_out(f, "%s %s", i ? "," : "", names[i]);
    fn_out(f, " : ");
    type_list(f, leaves, n, false);
    fn_out(f, "\n");
    fn_leave(f);
  }
  const char *cn = fn_use(f, c);
  const char **outer = ARENA_ARRAY(f->t->a, const char *, r.ncap + 1);
  for (int i = 0; i < r.ncap; i++)
    outer[i] = fn_use(f, r.cap[i].outer);
  if (!r.isolated) {
    Val *ext = fn_def(f, NULL, "i1");
    fn_out(f, "tensor.extract %s[] : %s\n", cn, c->ty);
    cn = ext->name;
  }
  Val **res = fn_results(f, proto, n);
  fn_out(f, "%s %s", r.isolated ? "tosa.cond_if" : "scf.if", cn);
  if (r.ncap) {
    fn_out(f, " (");
    for (int i = 0; i < r.ncap; i++)
      fn_out(f, "%s%s = %s", i ? ", " : "", r.cap[i].inner[0]->name, outer[i]);
    fn_out(f, ")");
  }
  if (r.isolated)
    fn_out(f, " : %s", c->ty);
  if (r.ncap) {
    fn_out(f, " (");
    for (int i = 0; i < r.ncap; i++)
      fn_out(f, "%s%s", i ? ", " : "", r.cap[i].outer->ty);
    fn_out(f, ")");
  }
  fn_out(f, " -> ");
  type_list(f, res, n, n != 1 || !r.isolated);
  fn_out(f, " {\n");
  for (int b = 0; b < 2; b++) {
    if (b) {
      fn_line(f);
      fn_out(f, "} else {\n");
    }
    if (r.ncap) {
      fn_line(f);
      fn_out(f, "^bb0(");
      for (int i = 0; i < r.ncap; i++)
        fn_out(f, "%s%s: %s", i ? ", " : "", r.cap[i].inner[b]->name, r.cap[i].outer->ty);
      fn_out(f, "):\n");
    }
    buf_put(fn_body(f), "%s", r.body[b].s ? r.body[b].s : "");
    free(r.body[b].s);
  }
  fn_line(f);
  fn_out(f, "}\n");
  free(r.cap);
  int pos = 0;
  return build(f, t, res, &pos);
}

/* A function as emitted: the static types of its parameters (the
 * shapes of its first call, which every call must have), and its
 * results, as values (static type and MLIR type). */
typedef struct Emitted {
  int np, nres;
  Val **params, **res;
} Emitted;

static Emitted *emit_function(Tr *t, GlobalFn *g, Buf *dst, Val *const *args);

/* A call of global g: func.call with the tensors of the arguments, each
 * with g's parameter's type (its Any dims `?`). */
static Val *emit_call_global(Fn *f, const Expr *e) {
  GlobalFn *g = e->call.callee->global;
  int na = 0;
  for (int i = 0; i < e->call.nargs; i++)
    na += count_leaves(e->call.args[i]->type);
  Val **args = ARENA_ARRAY(f->t->a, Val *, na + 1);
  for (int i = 0, k = 0; i < e->call.nargs; i++)
    k += leaves_of(emit_expr(f, e->call.args[i]), args + k);
  if (f->t->refused)
    return placeholder(f, e->type);
  int added;
  int64_t *slot = ptrmap_put(&f->t->done, g, &added);
  if (added)
    *slot = (int64_t)(intptr_t)emit_function(f->t, g, &f->t->funcs, args);
  Emitted *em = (Emitted *)(intptr_t)*ptrmap_get(&f->t->done, g);
  for (int i = 0; i < na && !f->t->refused; i++) {
    if (!ir_type_equal(args[i]->type, em->params[i]->type))
      tr_refuse(f->t, "@%s called at two shapes (%s, %s)", g->name, em->params[i]->ty, args[i]->ty);
    args[i] = fn_cast(f, args[i], em->params[i]->dyn);
  }
  int n = count_leaves(e->type);
  if (n == 0 || f->t->refused) /* a pure function with nothing to return */
    return n ? placeholder(f, e->type) : build(f, e->type, NULL, &(int){0});
  const char **names = ARENA_ARRAY(f->t->a, const char *, na + 1);
  for (int i = 0; i < na; i++)
    names[i] = fn_use(f, args[i]);
  Val **res = fn_results(f, em->res, n);
  fn_out(f, "func.call @%s(", g->name);
  for (int i = 0; i < na; i++)
    fn_out(f, "%s%s", i ? ", " : "", names[i]);
  fn_out(f, ") : ");
  type_list(f, args, na, true);
  fn_out(f, " -> ");
  type_list(f, res, n, n != 1);
  fn_out(f, "\n");
  int pos = 0;
  return build(f, e->type, res, &pos);
}

static Val *emit_call(Fn *f, const Expr *e) {
  if (e->call.kind != CALL_OP)
    return emit_call_global(f, e);
  Val *a[OP_MAX_ARGS] = {0};
  for (int i = 0; i < e->call.nargs; i++)
    a[i] = emit_expr(f, e->call.args[i]);
  if (f->t->refused)
    return placeholder(f, e->type);
  return conform(f, emit_op(f, e, a), e->type, false);
}

static Val *emit_expr(Fn *f, const Expr *e) {
  Val *v;
  switch (e->kind) {
  case EX_VAR:
    v = fn_recall(f, e->var, NULL);
    assert(v && "a variable bound in scope");
    return v;
  case EX_CONST: return emit_const(f, e->constant);
  case EX_LET:
    v = conform(f, emit_expr(f, e->let.value), e->let.var->type, false);
    if (v->n < 0)
      name_value(f, v, e->let.var->name);
    fn_remember(f, e->let.var, NULL, v);
    return emit_expr(f, e->let.body);
  default: break;
  }
  /* The rest may be shared: translated once per region. */
  if ((v = fn_recall(f, e, NULL)))
    return v;
  switch (e->kind) {
  case EX_TUPLE:
    v = ARENA_NEW(f->t->a, Val);
    v->n = e->tuple.n;
    v->f = ARENA_ARRAY(f->t->a, Val *, v->n + 1);
    for (int i = 0; i < v->n; i++)
      v->f[i] = emit_expr(f, e->tuple.fields[i]);
    break;
  case EX_PROJ: v = emit_expr(f, e->proj.tuple)->f[e->proj.index]; break;
  case EX_IF: v = emit_if(f, e); break;
  case EX_CALL: v = emit_call(f, e); break;
  default: assert(!"refused by accept_expr()"); return NULL;
  }
  fn_remember(f, e, NULL, v);
  return v;
}

/* The dims of a parameter of @main made `?` by MltOptions.dyn_params:
 * each dim by one bit of a hash of the seed and the parameter's index. */
static uint32_t dyn_param_mask(const Tr *t, int k, int rank) {
  if (!t->dyn_params || t->static_only)
    return 0;
  uint64_t h = (t->dyn_params + (uint64_t)k * 0x9e3779b97f4a7c15ull) * 0xbf58476d1ce4e5b9ull;
  h ^= h >> 31;
  return (uint32_t)(h >> 7) & ((1u << rank) - 1);
}

/* Emit global g (or @main) as a func.func into dst; args are the values of
 * its first call (their static types are its parameters'; NULL for @main,
 * whose parameters' types are static). */
static Emitted *emit_function(Tr *t, GlobalFn *g, Buf *dst, Val *const *args) {
  Fn f = {t};
  Region r0 = {0};
  f.reg[0] = &r0;
  const Expr *fn = g->func;
  bool main = strcmp(g->name, "main") == 0;
  int np = 0;
  for (int i = 0; i < fn->func.nparams; i++)
    np += count_leaves(fn->func.params[i]->type);
  Emitted *em = ARENA_NEW(t->a, Emitted);
  Val **params = ARENA_ARRAY(t->a, Val *, np + 1);
  for (int i = 0, k = 0; i < fn->func.nparams; i++) {
    Var *p = fn->func.params[i];
    int n = count_leaves(p->type), pos = k;
    const Type **types = ARENA_ARRAY(t->a, const Type *, n + 1);
    mlt_flatten_type(p->type, types, n);
    for (int j = 0; j < n; j++, k++) {
      const Type *st = args ? args[k]->type : types[j];
      uint32_t mask =
          mty_any_mask(t, types[j]) | (main ? dyn_param_mask(t, k, st->tensor.rank) : 0);
      params[k] = fn_fresh(&f, st, mty_text_dyn(&f, st, mask), hint_of(&f, p->name));
      params[k]->dyn = mask;
      t->ndyn += mask != 0;
    }
    fn_remember(&f, p, NULL, build(&f, p->type, params, &pos));
  }
  const Type *rty = fn->func.ret ? fn->func.ret : fn->func.body->type;
  Val *v = conform(&f, emit_expr(&f, fn->func.body), rty, true);
  int n = count_leaves(fn->func.body->type);
  Val **res = ARENA_ARRAY(t->a, Val *, n + 1);
  leaves_of(v, res);
  em->np = np, em->params = params, em->nres = n, em->res = res;
  fn_line(&f);
  fn_out(&f, "return");
  for (int i = 0; i < n; i++)
    fn_out(&f, "%s %s", i ? "," : "", fn_use(&f, res[i]));
  if (n) {
    fn_out(&f, " : ");
    type_list(&f, res, n, false);
  }
  fn_out(&f, "\n");
  buf_put(dst, "func.func %s@%s(", main ? "" : "private ", g->name);
  for (int i = 0; i < np; i++)
    buf_put(dst, "%s%s: %s", i ? ", " : "", params[i]->name, params[i]->ty);
  buf_put(dst, ")");
  if (n == 1)
    buf_put(dst, " -> %s", res[0]->ty);
  else if (n > 1) {
    buf_put(dst, " -> (");
    for (int i = 0; i < n; i++)
      buf_put(dst, "%s%s", i ? ", " : "", res[i]->ty);
    buf_put(dst, ")");
  }
  buf_put(dst, " {\n%s}\n", r0.body[0].s ? r0.body[0].s : "");
  free(r0.body[0].s);
  free(f.memo);
  return em;
}

/* ------------------------------------------------------------------ API */

bool mlt_translate(const Module *m, MltResult *r) {
  return mlt_translate_with(m, NULL, r);
}

bool mlt_translate_with(const Module *m, const MltOptions *o, MltResult *r) {
  memset(r, 0, sizeof *r);
  GlobalFn *main = ir_global_get(m, "main");
  Tr t = {.a = arena_new(), .m = m};
  t.done.arena = t.a;
  if (o)
    t.static_only = o->static_shapes || o->linalg, t.dyn_params = o->dyn_params,
    t.linalg = o->linalg;
  bool ok = accept_module(&t, main) && (!t.linalg || lin_accept(&t, main));
  Emitted *em = NULL;
  Buf text = {0};
  if (ok) {
    ptrmap_put(&t.done, main, NULL);
    em = emit_function(&t, main, &text, NULL);
    ok = !t.refused;
  }
  if (ok) {
    buf_put(&t.funcs, "%s", text.s);
    r->text = t.funcs.s;
    r->ndyn = t.ndyn;
    /* The signature: @main's parameters and result, flattened. */
    const Expr *fn = main->func;
    MltSig *s = &r->sig;
    s->nparams = fn->func.nparams;
    s->params = malloc(sizeof *s->params * (size_t)(s->nparams + 1));
    for (int i = 0; i < s->nparams; i++) {
      s->params[i] = fn->func.params[i]->type;
      s->nargs += count_leaves(s->params[i]);
    }
    s->args = malloc(sizeof *s->args * (size_t)(s->nargs + 1));
    for (int i = 0, k = 0; i < s->nparams; i++)
      k += mlt_flatten_type(s->params[i], s->args + k, s->nargs - k);
    s->result = fn->func.body->type;
    s->nresults = count_leaves(s->result);
    s->results = malloc(sizeof *s->results * (size_t)(s->nresults + 1));
    s->arena = arena_new(); /* the results' static types: the values' */
    for (int i = 0; i < s->nresults; i++)
      s->results[i] = ir_type_copy(s->arena, em->res[i]->type);
    s->argdyn = malloc(sizeof *s->argdyn * (size_t)(s->nargs + 1));
    s->resdyn = malloc(sizeof *s->resdyn * (size_t)(s->nresults + 1));
    for (int i = 0; i < s->nargs; i++)
      s->argdyn[i] = em->params[i]->dyn;
    for (int i = 0; i < s->nresults; i++)
      s->resdyn[i] = em->res[i]->dyn;
  } else {
    snprintf(r->skip, sizeof r->skip, "%s", t.skip);
    free(t.funcs.s);
  }
  free(text.s);
  arena_free(t.a);
  return ok;
}

void mlt_result_free(MltResult *r) {
  free(r->text);
  free(r->sig.params);
  free(r->sig.args);
  free(r->sig.results);
  free(r->sig.argdyn);
  if (r->sig.arena)
    arena_free(r->sig.arena);
  free(r->sig.resdyn);
  memset(r, 0, sizeof *r);
}
