/*
 * infer.c - type inference: constraint generation over the expression
 * DAG, a queue of operator relations re-run when their argument types are
 * refined, and the final resolution into Expr.type and Var.type (see
 * typing.h).  Unification and the union-find are in unify.c; what the two
 * files share is in infer_int.h.
 *
 * Constraint generation (the cg_* functions) visits each node once (a
 * shared node reuses its type): a node's type is built from its
 * children's, two types that must be equal are unified on the spot, and
 * a type not known yet is a fresh incomplete type.  The first error is
 * kept; later ones tend to cascade.
 *
 * Relations.  An operator call whose argument types are known runs its
 * relation at once.  Otherwise (REL_DEFER) it becomes a Rel, registered on
 * the unknown roots found inside its arguments ("trigger lists", as in
 * Relay).  Binding a root moves its relations to the queue; merging two
 * roots concatenates their lists.  A re-run re-registers on whatever is
 * still unknown, so a refinement nested anywhere inside an argument (the
 * element of a tuple bound to a parent variable, say) re-runs it.  Each
 * root is bound at most once, so the queue reaches a fixpoint.
 * Projections from a tuple of yet unknown type are relations too.
 */
#include <stdio.h>
#include <string.h>

#include "compiler/ir/hash.h"
#include "infer_int.h"

enum {
  MAX_DEPTH = IR_MAX_DEPTH, /* expression nesting (let chains do not count) */
  MAX_VAR_ID = 1 << 24,     /* larger var ids are taken as corrupt */
  MSG = 200,                /* bytes of a formatted type in messages */
};

/* ----------------------------------------------------------- messages */

typedef struct Buf {
  char s[MSG];
  size_t n;
} Buf;

/* Append text, truncating with "..." when full. */
static void put(Buf *b, const char *s) {
  size_t l = strlen(s);
  if (b->n + l + 4 > sizeof b->s) {
    if (b->n + 4 <= sizeof b->s) {
      memcpy(b->s + b->n, "...", 4);
      b->n = sizeof b->s;
    }
    return;
  }
  memcpy(b->s + b->n, s, l + 1);
  b->n += l;
}

/* Format t as Relay text, unknown parts as ?N.  (A local formatter: the
 * printer does not know this check's incomplete types.) */
static void fmt(Cx *cx, Buf *b, Type *t, int depth) {
  char tmp[48];
  if (!t) {
    put(b, "<none>");
    return;
  }
  if (depth > 12 || b->n >= sizeof b->s - 4) {
    put(b, "...");
    return;
  }
  t = ty_shallow(cx, t);
  switch (t->kind) {
  case TY_TENSOR:
    put(b, "Tensor[(");
    for (int i = 0; i < t->tensor.rank && i < IR_MAX_RANK; i++) {
      if (ir_dim_is_any(t->tensor.shape[i]))
        snprintf(tmp, sizeof tmp, "%s?", i ? ", " : "");
      else
        snprintf(tmp, sizeof tmp, "%s%lld", i ? ", " : "", (long long)t->tensor.shape[i]);
      put(b, tmp);
    }
    put(b, "), ");
    put(b, (unsigned)t->tensor.dtype < DT_COUNT ? ir_dtype_name(t->tensor.dtype) : "?");
    put(b, "]");
    break;
  case TY_TUPLE:
    put(b, "(");
    for (int i = 0; i < t->tuple.n; i++) {
      if (i)
        put(b, ", ");
      fmt(cx, b, t->tuple.fields[i], depth + 1);
    }
    put(b, t->tuple.n == 1 ? ",)" : ")");
    break;
  case TY_FUNC:
    put(b, "fn ");
    if (t->func.ntvars) {
      put(b, "[");
      for (int i = 0; i < t->func.ntvars; i++) {
        if (i)
          put(b, ", ");
        fmt(cx, b, t->func.tvars[i], depth + 1);
      }
      put(b, "]");
    }
    put(b, "(");
    for (int i = 0; i < t->func.nparams; i++) {
      if (i)
        put(b, ", ");
      fmt(cx, b, t->func.params[i], depth + 1);
    }
    put(b, ") -> ");
    fmt(cx, b, t->func.ret, depth + 1);
    break;
  case TY_REF:
    put(b, "Ref[");
    fmt(cx, b, t->ref.inner, depth + 1);
    put(b, "]");
    break;
  case TY_ADT:
    put(b, t->adt.def && t->adt.def->name ? t->adt.def->name : "?");
    if (t->adt.nargs) {
      put(b, "[");
      for (int i = 0; i < t->adt.nargs; i++) {
        if (i)
          put(b, ", ");
        fmt(cx, b, t->adt.args[i], depth + 1);
      }
      put(b, "]");
    }
    break;
  case TY_VAR: put(b, t->var.name ? t->var.name : "?"); break;
  case TY_INCOMPLETE:
    snprintf(tmp, sizeof tmp, "?%d", ty_ours(cx, t) ? ty_find(cx, t->incomplete.id) : -1);
    put(b, tmp);
    break;
  }
}

/* A formatted type, in the scratch arena. */
static const char *show(Cx *cx, Type *t) {
  Buf b = {.n = 0};
  b.s[0] = 0;
  fmt(cx, &b, t, 0);
  return arena_strdup(cx->S, b.s);
}

/* A list of types, "(T0, T1)", in the scratch arena. */
static const char *show_list(Cx *cx, Type *const *ts, int n) {
  Buf b = {.n = 0};
  b.s[0] = 0;
  put(&b, "(");
  for (int i = 0; i < n; i++) {
    if (i)
      put(&b, ", ");
    fmt(cx, &b, ts[i], 0);
  }
  put(&b, ")");
  return arena_strdup(cx->S, b.s);
}

/* What e is, for messages: "call to add", "let %x", "constructor Cons". */
static const char *describe(Cx *cx, const Expr *e) {
  if (!e)
    return "expression";
  switch (e->kind) {
  case EX_VAR: return arena_printf(cx->S, "variable %%%s", e->var ? e->var->name : "?");
  case EX_GLOBAL: return arena_printf(cx->S, "global @%s", e->global ? e->global->name : "?");
  case EX_CONST: return "constant";
  case EX_TUPLE: return "tuple";
  case EX_PROJ: return arena_printf(cx->S, "projection .%d", e->proj.index);
  case EX_LET: return arena_printf(cx->S, "let %%%s", e->let.var ? e->let.var->name : "?");
  case EX_IF: return "if";
  case EX_CALL:
    switch (e->call.kind) {
    case CALL_OP:
      return arena_printf(cx->S, "call to %s",
                          (unsigned)e->call.op < OP_COUNT ? ir_op_name(e->call.op) : "?");
    case CALL_CTOR:
      return arena_printf(cx->S, "constructor %s", e->call.ctor ? e->call.ctor->name : "?");
    case CALL_EXPR:
      if (e->call.callee && e->call.callee->kind == EX_GLOBAL && e->call.callee->global)
        return arena_printf(cx->S, "call to @%s", e->call.callee->global->name);
      if (e->call.callee && e->call.callee->kind == EX_VAR && e->call.callee->var)
        return arena_printf(cx->S, "call to %%%s", e->call.callee->var->name);
      return "call";
    }
    return "call";
  case EX_FUNC: return "function";
  case EX_REF_NEW: return "ref";
  case EX_REF_READ: return "ref_read";
  case EX_REF_WRITE: return "ref_write";
  case EX_MATCH: return e->match.complete ? "match" : "match?";
  }
  return "expression";
}

/* Record the first error, at line:col of global fn (later ones are
 * dropped: they tend to cascade). */
static void verrat(Cx *cx, const char *fn, int line, int col, const char *fmt, va_list ap)
    __attribute__((format(printf, 5, 0)));
static void verrat(Cx *cx, const char *fn, int line, int col, const char *fmt, va_list ap) {
  if (cx->failed)
    return;
  cx->failed = true;
  char msg[600];
  vsnprintf(msg, sizeof msg, fmt, ap);
  if (fn)
    diag_error(cx->d, line, col, "in @%s: %s", fn, msg);
  else
    diag_error(cx->d, line, col, "%s", msg);
}

/* verrat with its arguments. */
static void errat(Cx *cx, const char *fn, int line, int col, const char *fmt, ...)
    __attribute__((format(printf, 5, 6)));
static void errat(Cx *cx, const char *fn, int line, int col, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  verrat(cx, fn, line, col, fmt, ap);
  va_end(ap);
}

/* An error at e in the current global (or at the innermost enclosing
 * position known when e has none). */
static void expr_error(Cx *cx, const Expr *e, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static void expr_error(Cx *cx, const Expr *e, const char *fmt, ...) {
  bool here = e && e->line;
  va_list ap;
  va_start(ap, fmt);
  verrat(cx, cx->fn, here ? e->line : cx->line, here ? e->col : cx->col, fmt, ap);
  va_end(ap);
}

/* Report that unifying expected with found failed, for `what`. */
static void mismatch(Cx *cx, const Expr *at, const char *what, Type *expected, Type *found) {
  if (cx->big)
    expr_error(cx, at, "%s: types too large or too deeply nested", what);
  else
    expr_error(cx, at, "%s: expected %s, found %s%s", what, show(cx, expected), show(cx, found),
               cx->occurs ? " (a type cannot contain itself)" : "");
}

/* ------------------------------------------------------------ globals */

/* The signature of g built from its annotations: unannotated parameters
 * and return type become fresh incomplete types.  NULL after an error. */
static Type *make_sig(Cx *cx, GlobalFn *g) {
  Expr *f = g->func;
  if (!f) {
    errat(cx, g->name, 0, 0, "global @%s is declared but not defined", g->name);
    return NULL;
  }
  if (f->kind != EX_FUNC) {
    errat(cx, g->name, f->line, f->col, "global @%s is not a function", g->name);
    return NULL;
  }
  if (f->func.ntvars < 0 || f->func.nparams < 0 || (f->func.nparams && !f->func.params) ||
      (f->func.ntvars && !f->func.tvars)) {
    errat(cx, g->name, f->line, f->col, "global @%s is malformed", g->name);
    return NULL;
  }
  bool poly = f->func.ntvars > 0;
  Type **ps = f->func.nparams ? ARENA_ARRAY(cx->S, Type *, f->func.nparams) : NULL;
  for (int i = 0; i < f->func.nparams; i++) {
    Var *v = f->func.params[i];
    if (!v) {
      errat(cx, g->name, f->line, f->col, "parameter %d of @%s is missing", i, g->name);
      return NULL;
    }
    if (poly && (!v->annot || !ir_type_complete(v->annot))) {
      errat(cx, g->name, f->line, f->col,
            "polymorphic function @%s must annotate its parameter %%%s: expected a complete type "
            "(over its type parameters), found %s",
            g->name, v->name, v->annot ? show(cx, v->annot) : "none");
      return NULL;
    }
    ps[i] = v->annot ? ty_inst(cx, v->annot, 0, NULL, NULL, true, 0) : ty_fresh(cx);
    if (!ps[i]) {
      errat(cx, g->name, f->line, f->col, "parameter %%%s of @%s has a malformed type", v->name,
            g->name);
      return NULL;
    }
  }
  if (poly && (!f->func.ret || !ir_type_complete(f->func.ret))) {
    errat(cx, g->name, f->line, f->col,
          "polymorphic function @%s must annotate its return type: expected a complete type (over "
          "its type parameters), found %s",
          g->name, f->func.ret ? show(cx, f->func.ret) : "none");
    return NULL;
  }
  Type *ret = f->func.ret ? ty_inst(cx, f->func.ret, 0, NULL, NULL, true, 0) : ty_fresh(cx);
  if (!ret) {
    errat(cx, g->name, f->line, f->col, "the return type of @%s is malformed", g->name);
    return NULL;
  }
  return ir_func_type(cx->A, f->func.ntvars, f->func.tvars, f->func.nparams, ps, ret);
}

/* The slot of g in the signature table. */
static int sig_slot(Cx *cx, const GlobalFn *g) {
  size_t i = (size_t)(hash_ptr(g) >> 32) & (size_t)(cx->capsig - 1);
  while (cx->sigk[i] && cx->sigk[i] != g)
    i = (i + 1) & (size_t)(cx->capsig - 1);
  return (int)i;
}

/* g's signature, or NULL when not recorded yet. */
static Type *find_sig(Cx *cx, const GlobalFn *g) {
  int i = sig_slot(cx, g);
  return cx->sigk[i] ? cx->sigv[cx->sigi[i]] : NULL;
}

/* Record g's signature (the table has room for every global of m). */
static void set_sig(Cx *cx, GlobalFn *g, Type *sig) {
  if (2 * (cx->nsigv + 1) > cx->capsig)
    return; /* more globals than the module has: cannot happen */
  int i = sig_slot(cx, g);
  cx->sigk[i] = g;
  cx->sigi[i] = cx->nsigv;
  PUSH(cx, cx->sigv, cx->nsigv, cx->capsigv, sig);
}

/* The signature of g for a reference at e, or NULL after an error.  In
 * ty_check_expr a global not seen yet takes its checked type. */
static Type *sig_of(Cx *cx, GlobalFn *g, Expr *e) {
  Type *known = find_sig(cx, g);
  if (known)
    return known;
  if (!cx->free_vars_ok || ir_global_get(cx->m, g->name) != g) {
    expr_error(cx, e, "global @%s is not defined in this module", g->name);
    return NULL;
  }
  Type *sig = g->func && g->func->kind == EX_FUNC && g->func->type &&
                      g->func->type->kind == TY_FUNC && ir_type_complete(g->func->type)
                  ? g->func->type
                  : make_sig(cx, g);
  if (sig)
    set_sig(cx, g, sig);
  return sig;
}

/* A polymorphic function type with fresh incomplete types for its type
 * parameters (a monomorphic one is returned as is). */
static Type *instantiate(Cx *cx, Type *sig) {
  int n = sig->func.ntvars;
  if (!n)
    return sig;
  Type **to = ARENA_ARRAY(cx->S, Type *, n);
  for (int i = 0; i < n; i++)
    to[i] = ty_fresh(cx);
  Type **ps = sig->func.nparams ? ARENA_ARRAY(cx->S, Type *, sig->func.nparams) : NULL;
  for (int i = 0; i < sig->func.nparams; i++)
    ps[i] = ty_inst(cx, sig->func.params[i], n, sig->func.tvars, to, false, 0);
  Type *ret = ty_inst(cx, sig->func.ret, n, sig->func.tvars, to, false, 0);
  return ir_func_type(cx->A, 0, NULL, sig->func.nparams, ps, ret);
}

/* Unify an expected type with a found one.  A polymorphic function value
 * used where a monomorphic function type is expected is instantiated
 * first (so @map(@id, %xs) checks); the value being the polymorphic side
 * keeps this sound. */
static bool unify_to(Cx *cx, Type *expected, Type *found) {
  Type *f = ty_shallow(cx, found), *x = ty_shallow(cx, expected);
  if (f->kind == TY_FUNC && f->func.ntvars && x->kind == TY_FUNC && !x->func.ntvars)
    found = instantiate(cx, f);
  return ty_unify(cx, expected, found);
}

/* ---------------------------------------------------------- variables */

/* The slot for v's type, or NULL (with an error) for a corrupt var. */
static Type **var_slot(Cx *cx, Var *v, const Expr *at) {
  if (!v || v->id < 0 || v->id >= MAX_VAR_ID) {
    expr_error(cx, at, "malformed variable");
    return NULL;
  }
  if (v->id >= cx->capvty) {
    int nc = cx->capvty ? cx->capvty : 64;
    while (nc <= v->id)
      nc *= 2;
    Type **p = ARENA_ARRAY(cx->S, Type *, nc);
    if (cx->capvty)
      memcpy(p, cx->vty, sizeof *p * (size_t)cx->capvty);
    cx->vty = p;
    cx->capvty = nc;
  }
  return &cx->vty[v->id];
}

/* Bring v into scope with type t. */
static inline __attribute__((always_inline)) bool bind_var(Cx *cx, Var *v, Type *t,
                                                           const Expr *at) {
  Type **slot = var_slot(cx, v, at);
  if (!slot)
    return false;
  *slot = t;
  VarRec r = {v, cx->fn, at && at->line ? at->line : cx->line, at && at->line ? at->col : cx->col};
  PUSH(cx, cx->vars, cx->nvars, cx->capvars, r);
  return true;
}

/* v's annotation as a type of this check, or NULL (error) if malformed. */
static Type *annot(Cx *cx, Var *v, const Expr *at) {
  Type *t = ty_inst(cx, v->annot, 0, NULL, NULL, true, 0);
  if (!t)
    expr_error(cx, at, "the annotation of %%%s is malformed", v->name);
  return t;
}

/* ---------------------------------------------------------- relations */

/* A fresh relation waiting on the leaves of the last zonk. */
static Rel *new_rel(Cx *cx, RelKind k, Expr *e, int nargs, Type **args) {
  Rel *r = ARENA_NEW(cx->S, Rel);
  r->kind = k;
  r->e = e;
  r->fn = cx->fn;
  r->line = e->line ? e->line : cx->line;
  r->col = e->line ? e->col : cx->col;
  r->nargs = nargs;
  r->args = ARENA_ARRAY(cx->S, Type *, nargs);
  memcpy(r->args, args, sizeof *args * (size_t)nargs);
  r->out = ty_fresh(cx);
  PUSH(cx, cx->rels, cx->nrels, cx->caprels, r);
  return r;
}

/* Append attribute x's value, as the text format writes it. */
static void put_attr(Buf *b, const Attr *x) {
  char tmp[48];
  switch (x->kind) {
  case AV_NONE: put(b, "None"); return;
  case AV_INT: snprintf(tmp, sizeof tmp, "%lld", (long long)x->i); break;
  case AV_BOOL: snprintf(tmp, sizeof tmp, "%s", x->i ? "True" : "False"); break;
  case AV_FLOAT: snprintf(tmp, sizeof tmp, "%g", x->f); break;
  case AV_STR:
    put(b, "\"");
    put(b, x->s ? x->s : "");
    put(b, "\"");
    return;
  case AV_INTS:
  case AV_PAIRS:
    put(b, "[");
    for (int i = 0; i < x->n; i++) {
      if (x->kind == AV_PAIRS)
        snprintf(tmp, sizeof tmp, "%s[%lld, %lld]", i ? ", " : "", (long long)x->ints[2 * i],
                 (long long)x->ints[2 * i + 1]);
      else
        snprintf(tmp, sizeof tmp, "%s%lld", i ? ", " : "", (long long)x->ints[i]);
      put(b, tmp);
    }
    put(b, "]");
    return;
  }
  put(b, tmp);
}

/* An operator call as its relation saw it: op(T0, T1, attr=value, ..). */
static const char *show_call(Cx *cx, const Expr *e, Type *const *args, int nargs) {
  Buf b = {.n = 0};
  b.s[0] = 0;
  put(&b, ir_op_name(e->call.op));
  put(&b, "(");
  for (int i = 0; i < nargs; i++) {
    if (i)
      put(&b, ", ");
    fmt(cx, &b, args[i], 0);
  }
  for (int i = 0; i < e->call.attrs.n; i++) {
    const Attr *x = &e->call.attrs.items[i];
    put(&b, i || nargs ? ", " : "");
    put(&b, x->name ? x->name : "?");
    put(&b, "=");
    put_attr(&b, x);
  }
  put(&b, ")");
  return arena_strdup(cx->S, b.s);
}

/* An error from the relation of the call e on args: the relation's
 * message (what it requires, in its own words) and the call it found. */
static void rel_error(Cx *cx, const Rel *r, Type *const *args, int nargs, const char *msg) {
  const Expr *e = r->e;
  const char *op = ir_op_name(e->call.op);
  size_t l = strlen(op);
  if (strncmp(msg, op, l) == 0 && msg[l] == ':') /* op_relate's prefix */
    msg += l + (msg[l + 1] == ' ' ? 2 : 1);
  errat(cx, r->fn, r->line, r->col, "%s: %s; found %s", describe(cx, e), msg,
        show_call(cx, e, args, nargs));
}

/* Run an operator relation on its (zonked) arguments.  Returns the status;
 * on REL_OK *out is the result type. */
static RelStatus run_op(Cx *cx, Expr *e, Type **args, int nargs, Type **out, char *err,
                        size_t errlen) {
  Type *buf[OP_MAX_ARGS * 2];
  Type **z = nargs <= (int)(sizeof buf / sizeof *buf) ? buf : ARENA_ARRAY(cx->S, Type *, nargs);
  cx->nleaves = 0;
  cx->big = false;
  for (int i = 0; i < nargs; i++)
    z[i] = ty_zonk(cx, args[i], cx->A, true, 0);
  if (cx->big) {
    snprintf(err, errlen, "argument types too large");
    return REL_ERROR;
  }
  *out = NULL;
  err[0] = 0;
  RelStatus st = cx->relate(e->call.op, z, nargs, &e->call.attrs, cx->A, out, err, errlen);
  if (st == REL_OK && !*out) {
    snprintf(err, errlen, "the relation gave no result type");
    return REL_ERROR;
  }
  if (st == REL_ERROR && !err[0])
    snprintf(err, errlen, "ill-typed arguments");
  return st;
}

/* Register r on every unknown root the last zonk met. */
static void wait_leaves(Cx *cx, Rel *r) {
  for (int i = 0; i < cx->nleaves; i++)
    ty_wait_on(cx, &cx->nodes[cx->leaves[i]], r);
}

static void rerun_in(Cx *cx, Rel *r);

/* Run a queued relation again, in the context where it was made. */
static void rerun(Cx *cx, Rel *r) {
  const char *fn = cx->fn;
  int line = cx->line, col = cx->col;
  cx->fn = r->fn;
  cx->line = r->line;
  cx->col = r->col;
  rerun_in(cx, r);
  cx->fn = fn;
  cx->line = line;
  cx->col = col;
}

/* rerun's body. */
static void rerun_in(Cx *cx, Rel *r) {
  if (r->kind == RK_PROJ) {
    Type *s = ty_shallow(cx, r->args[0]);
    if (ty_unknown(cx, s)) {
      ty_wait_on(cx, &cx->nodes[ty_find(cx, s->incomplete.id)], r);
      return;
    }
    r->done = true;
    int i = r->e->proj.index;
    if (s->kind != TY_TUPLE)
      expr_error(cx, r->e, "projection .%d: expected a tuple, found %s", i, show(cx, s));
    else if (i < 0 || i >= s->tuple.n)
      expr_error(
          cx, r->e,
          "projection .%d is out of range for %s: expected a tuple of at least %d fields, found %d",
          i, show(cx, s), i + 1, s->tuple.n);
    else if (!ty_unify(cx, r->out, s->tuple.fields[i]))
      mismatch(cx, r->e, "projection", r->out, s->tuple.fields[i]);
    return;
  }
  char err[256];
  Type *out;
  RelStatus st = run_op(cx, r->e, r->args, r->nargs, &out, err, sizeof err);
  if (st == REL_DEFER) {
    wait_leaves(cx, r);
  } else if (st == REL_ERROR) {
    r->done = true;
    rel_error(cx, r, r->args, r->nargs, err);
  } else {
    r->done = true;
    if (!ty_unify(cx, r->out, out))
      mismatch(cx, r->e, describe(cx, r->e), r->out, out);
  }
}

/* Run queued relations until the queue is empty. */
static void solve(Cx *cx) {
  while (cx->qhead < cx->qn && !cx->failed) {
    Rel *r = cx->queue[cx->qhead++];
    r->queued = false;
    if (!r->done)
      rerun(cx, r);
  }
}

/* ------------------------------------------------- constraint generation */

static Type *cg_expr(Cx *cx, Expr *e);

/* Generate constraints for the n expressions es; NULL after an error. */
static Type **cg_exprs(Cx *cx, int n, Expr **es) {
  if (n < 0 || (n && !es)) {
    expr_error(cx, NULL, "malformed expression list");
    return NULL;
  }
  Type **ts = n ? ARENA_ARRAY(cx->S, Type *, n) : NULL;
  for (int i = 0; i < n; i++)
    if (!(ts[i] = cg_expr(cx, es[i])))
      return NULL;
  return ts;
}

/* Fresh type arguments for a type definition, and a constructor's field
 * types under them. */
static Type **ctor_fields(Cx *cx, Ctor *c, Type ***targs, const Expr *at) {
  TypeDef *td = c->def;
  Type **to = td->ntvars ? ARENA_ARRAY(cx->S, Type *, td->ntvars) : NULL;
  for (int i = 0; i < td->ntvars; i++)
    to[i] = ty_fresh(cx);
  Type **fs = c->nfields ? ARENA_ARRAY(cx->S, Type *, c->nfields) : NULL;
  for (int i = 0; i < c->nfields; i++)
    if (!(fs[i] = ty_inst(cx, c->fields[i], td->ntvars, td->tvars, to, true, 0))) {
      expr_error(cx, at, "constructor %s has a malformed field type", c->name);
      return NULL;
    }
  *targs = to;
  return fs;
}

/* Is c a usable constructor? */
static bool ctor_ok(const Ctor *c) {
  return c && c->def && c->def->ntvars >= 0 && (c->def->ntvars == 0 || c->def->tvars) &&
         c->nfields >= 0 && (c->nfields == 0 || c->fields);
}

/* Bind the variables of pattern p, matched against a value of type t. */
static void cg_pat(Cx *cx, Expr *m, Pattern *p, Type *t, int depth) {
  if (cx->failed)
    return;
  if (!p || depth > MAX_DEPTH) {
    expr_error(cx, m, "malformed pattern");
    return;
  }
  switch (p->kind) {
  case PAT_WILD: return;
  case PAT_VAR: {
    if (!p->var) {
      expr_error(cx, m, "malformed pattern");
      return;
    }
    if (p->var->annot) {
      Type *a = annot(cx, p->var, m);
      if (!a)
        return;
      if (!unify_to(cx, a, t)) {
        mismatch(cx, m, arena_printf(cx->S, "pattern variable %%%s", p->var->name), a, t);
        return;
      }
    }
    bind_var(cx, p->var, t, m);
    return;
  }
  case PAT_CTOR: {
    Ctor *c = p->ctor;
    if (!ctor_ok(c) || p->n < 0 || (p->n && !p->sub)) {
      expr_error(cx, m, "malformed constructor pattern");
      return;
    }
    if (p->n != c->nfields) {
      expr_error(cx, m, "pattern %s: constructor takes %d field%s, pattern has %d", c->name,
                 c->nfields, c->nfields == 1 ? "" : "s", p->n);
      return;
    }
    Type **targs;
    Type **fs = ctor_fields(cx, c, &targs, m);
    if (!fs && c->nfields)
      return;
    Type *adt = ir_adt_type(cx->A, c->def, c->def->ntvars, targs);
    if (!ty_unify(cx, t, adt)) {
      mismatch(cx, m, arena_printf(cx->S, "pattern %s", c->name), t, adt);
      return;
    }
    for (int i = 0; i < p->n; i++)
      cg_pat(cx, m, p->sub[i], fs[i], depth + 1);
    return;
  }
  case PAT_TUPLE: {
    if (p->n < 0 || (p->n && !p->sub)) {
      expr_error(cx, m, "malformed tuple pattern");
      return;
    }
    Type *s = ty_shallow(cx, t);
    Type **fs;
    if (s->kind == TY_TUPLE && s->tuple.n == p->n) {
      fs = s->tuple.fields;
    } else {
      fs = p->n ? ARENA_ARRAY(cx->S, Type *, p->n) : NULL;
      for (int i = 0; i < p->n; i++)
        fs[i] = ty_fresh(cx);
      Type *tt = ir_tuple_type(cx->A, p->n, fs);
      if (!ty_unify(cx, t, tt)) {
        mismatch(cx, m, "tuple pattern", t, tt);
        return;
      }
    }
    for (int i = 0; i < p->n; i++)
      cg_pat(cx, m, p->sub[i], fs[i], depth + 1);
    return;
  }
  }
  expr_error(cx, m, "malformed pattern");
}

/* An operator call: run its relation now, or defer it. */
static Type *cg_op(Cx *cx, Expr *e, Type **args) {
  if ((unsigned)e->call.op >= OP_COUNT) {
    expr_error(cx, e, "call of an unknown operator");
    return NULL;
  }
  char err[256];
  Type *out;
  RelStatus st = run_op(cx, e, args, e->call.nargs, &out, err, sizeof err);
  if (st == REL_OK)
    return out;
  if (st == REL_ERROR) {
    Rel tmp = {.e = e, .fn = cx->fn};
    tmp.line = e->line ? e->line : cx->line;
    tmp.col = e->line ? e->col : cx->col;
    rel_error(cx, &tmp, args, e->call.nargs, err);
    return NULL;
  }
  Rel *r = new_rel(cx, RK_OP, e, e->call.nargs, args);
  wait_leaves(cx, r);
  return r->out;
}

#ifdef RS_TEST_PASSES
bool ty_test_fault_call_rels;

/* The deliberate bug: the relations waiting on a parameter type of a
 * monomorphic callee that is still unknown are dropped, so binding it
 * from the argument re-runs none of them. */
static void drop_waiting(Cx *cx, Type *param) {
  Type *p = ty_shallow(cx, param);
  if (ty_unknown(cx, p)) {
    Node *r = &cx->nodes[ty_find(cx, p->incomplete.id)];
    r->rels = r->tail = NULL;
  }
}
#endif

#ifdef RS_TEST_PASSES
bool ty_test_fault_poly_escape;

/* The deliberate bug's trigger: inside a polymorphic global, argument i
 * of a call of a polymorphic global is a function literal with an
 * unannotated parameter (only erasure leaves one). */
static bool escapes(const Cx *cx, const Expr *e, int i) {
  const Expr *a = e->call.args[i];
  if (!ty_test_fault_poly_escape || !cx->in_poly || e->call.callee->kind != EX_GLOBAL ||
      a->kind != EX_FUNC)
    return false;
  for (int k = 0; k < a->func.nparams; k++)
    if (a->func.params[k] && !a->func.params[k]->annot)
      return true;
  return false;
}
#endif

/* A call of a function-typed expression. */
static Type *cg_call(Cx *cx, Expr *e, Type *callee, Type **args) {
  int n = e->call.nargs;
  Type *s = ty_shallow(cx, callee);
#ifdef RS_TEST_PASSES
  bool mono = s->kind == TY_FUNC && !s->func.ntvars;
  Type *generic = s; /* the callee's own type, before instantiation */
#endif
  if (s->kind == TY_FUNC && s->func.ntvars)
    s = instantiate(cx, s); /* each call of a polymorphic function */
  if (s->kind == TY_FUNC) {
    if (s->func.nparams != n) {
      expr_error(cx, e, "%s: expects %d argument%s, got %d: expected %s, found %s", describe(cx, e),
                 s->func.nparams, s->func.nparams == 1 ? "" : "s", n,
                 show_list(cx, s->func.params, s->func.nparams), show_list(cx, args, n));
      return NULL;
    }
    for (int i = 0; i < n; i++) {
      Type *want = s->func.params[i];
#ifdef RS_TEST_PASSES
      if (ty_test_fault_call_rels && mono)
        drop_waiting(cx, s->func.params[i]);
      if (!mono && escapes(cx, e, i)) /* the callee's type variables, not fresh ones */
        want = generic->func.params[i];
#endif
      if (!unify_to(cx, want, args[i])) {
        mismatch(cx, e->call.args[i], arena_printf(cx->S, "argument %d of %s", i, describe(cx, e)),
                 s->func.params[i], args[i]);
        return NULL;
      }
    }
    return s->func.ret;
  }
  if (ty_unknown(cx, s)) {
    Type *ret = ty_fresh(cx);
    Type *ft = ir_func_type(cx->A, 0, NULL, n, args, ret);
    if (!ty_unify(cx, s, ft)) {
      mismatch(cx, e, arena_printf(cx->S, "callee of %s", describe(cx, e)), s, ft);
      return NULL;
    }
    return ret;
  }
  expr_error(cx, e, "%s: the callee is not a function: expected a function type, found %s",
             describe(cx, e), show(cx, s));
  return NULL;
}

/* A constructor call. */
static Type *cg_ctor(Cx *cx, Expr *e, Type **args) {
  Ctor *c = e->call.ctor;
  if (!ctor_ok(c)) {
    expr_error(cx, e, "call of a malformed constructor");
    return NULL;
  }
  if (e->call.nargs != c->nfields) {
    expr_error(cx, e, "constructor %s: expects %d argument%s, got %d: expected %s, found %s",
               c->name, c->nfields, c->nfields == 1 ? "" : "s", e->call.nargs,
               show_list(cx, c->fields, c->nfields), show_list(cx, args, e->call.nargs));
    return NULL;
  }
  Type **targs;
  Type **fs = ctor_fields(cx, c, &targs, e);
  if (!fs && c->nfields)
    return NULL;
  for (int i = 0; i < c->nfields; i++)
    if (!unify_to(cx, fs[i], args[i])) {
      mismatch(cx, e->call.args[i],
               arena_printf(cx->S, "argument %d of constructor %s", i, c->name), fs[i], args[i]);
      return NULL;
    }
  return ir_adt_type(cx->A, c->def, c->def->ntvars, targs);
}

/* A function literal (not a global's definition). */
static Type *cg_func(Cx *cx, Expr *e) {
  if (e->func.ntvars) {
    expr_error(cx, e, "a function with type parameters is only allowed as a global definition");
    return NULL;
  }
  int n = e->func.nparams;
  if (n < 0 || (n && !e->func.params)) {
    expr_error(cx, e, "malformed function");
    return NULL;
  }
  Type **ps = n ? ARENA_ARRAY(cx->S, Type *, n) : NULL;
  for (int i = 0; i < n; i++) {
    Var *v = e->func.params[i];
    if (!v) {
      expr_error(cx, e, "malformed function parameter");
      return NULL;
    }
    ps[i] = v->annot ? annot(cx, v, e) : ty_fresh(cx);
    if (!ps[i] || !bind_var(cx, v, ps[i], e))
      return NULL;
  }
  Type *bt = cg_expr(cx, e->func.body);
  if (!bt)
    return NULL;
  Type *rt = bt;
  if (e->func.ret) {
    if (!(rt = ty_inst(cx, e->func.ret, 0, NULL, NULL, true, 0))) {
      expr_error(cx, e, "the return annotation is malformed");
      return NULL;
    }
    if (!unify_to(cx, rt, bt)) {
      mismatch(cx, e->func.body, "function body (against the return annotation)", rt, bt);
      return NULL;
    }
  }
  return ir_func_type(cx->A, 0, NULL, n, ps, rt);
}

/* A match: bind each clause's pattern, unify the clause bodies. */
static Type *cg_match(Cx *cx, Expr *e) {
  Type *st = cg_expr(cx, e->match.scrut);
  if (!st)
    return NULL;
  if (e->match.n < 0 || (e->match.n && !e->match.clauses)) {
    expr_error(cx, e, "malformed match");
    return NULL;
  }
  Type *r = NULL;
  for (int i = 0; i < e->match.n && !cx->failed; i++) {
    Clause *c = &e->match.clauses[i];
    cg_pat(cx, e, c->pat, st, 0);
    Type *bt = cx->failed ? NULL : cg_expr(cx, c->body);
    if (!bt)
      return NULL;
    if (!r)
      r = bt;
    else if (!ty_unify(cx, r, bt)) {
      mismatch(cx, c->body, arena_printf(cx->S, "clause %d of the match (against clause 0)", i), r,
               bt);
      return NULL;
    }
  }
  if (cx->failed)
    return NULL;
  if (e->match.complete) {
    Visit v = {e, st, cx->fn, e->line ? e->line : cx->line, e->line ? e->col : cx->col};
    PUSH(cx, cx->matches, cx->nmatches, cx->capmatches, v);
  }
  return r ? r : ty_fresh(cx);
}

/* Visited marks.  During a check, the Expr.type of a visited node holds
 * (index in visits << 1) | 1: real types are 16-byte aligned, so the low
 * bit tells a mark from a type left by an earlier check.  Every marked
 * node is in visits, and the check ends by storing the resolved types
 * there (success) or NULL (failure), so no mark survives a check.  This
 * saves a hash map on the hot path and visits shared nodes once. */
static Visit *mark_of(Cx *cx, const Expr *e) {
  uintptr_t t = (uintptr_t)e->type;
  return t & 1 && (t >> 1) < (uintptr_t)cx->nvisits ? &cx->visits[t >> 1] : NULL;
}

/* Record the type of the entered expression e. */
static void record(Cx *cx, Expr *e, Type *t) {
  mark_of(cx, e)->t = t;
}

/* Mark e as being visited; false if it was already visited (then *seen is
 * its type), or is being visited (a cycle: an error).  Always inlined: it
 * runs once per node, and as a call it cost 4% of checking. */
static inline __attribute__((always_inline)) bool enter(Cx *cx, Expr *e, Type **seen) {
  Visit *v = mark_of(cx, e);
  *seen = NULL;
  if (v) {
    if (!v->t)
      expr_error(cx, e, "%s contains itself (a cyclic expression)", describe(cx, e));
    *seen = v->t;
    return false;
  }
  Visit nv = {e, NULL, cx->fn, e->line ? e->line : cx->line, e->line ? e->col : cx->col};
  PUSH(cx, cx->visits, cx->nvisits, cx->capvisits, nv);
  e->type = (Type *)(((uintptr_t)(cx->nvisits - 1) << 1) | 1);
  return true;
}

/* After a failed check: clear the marks. */
static void unmark(Cx *cx) {
  for (int i = 0; i < cx->nvisits; i++)
    cx->visits[i].e->type = NULL;
}

/* A let, iterating down chains of lets so that long ones (ANF) do not
 * nest the recursion. */
static Type *cg_let(Cx *cx, Expr *e) {
  int n0 = 0, cap = 0;
  Expr **chain = NULL;
  Expr *cur = e;
  Type *bt = NULL;
  int line = cx->line, col = cx->col;
  for (;;) {
    if (cur != e) {
      Type *seen;
      if (!enter(cx, cur, &seen)) {
        bt = seen;
        break;
      }
      PUSH(cx, chain, n0, cap, cur);
    }
    if (cur->line) {
      cx->line = cur->line;
      cx->col = cur->col;
    }
    Var *v = cur->let.var;
    Type *vt = cg_expr(cx, cur->let.value);
    if (!vt)
      return NULL;
    if (!v) {
      expr_error(cx, cur, "malformed let");
      return NULL;
    }
    if (v->annot) {
      Type *a = annot(cx, v, cur);
      if (!a)
        return NULL;
      if (!unify_to(cx, a, vt)) {
        mismatch(cx, cur, arena_printf(cx->S, "let %%%s (annotation against value)", v->name), a,
                 vt);
        return NULL;
      }
      vt = a;
    }
    if (!bind_var(cx, v, vt, cur))
      return NULL;
    cur = cur->let.body;
    if (!cur || cur->kind != EX_LET) {
      bt = cg_expr(cx, cur);
      break;
    }
  }
  cx->line = line;
  cx->col = col;
  if (!bt)
    return NULL;
  for (int i = 0; i < n0; i++)
    record(cx, chain[i], bt);
  return bt;
}

/* The constraints of one node; its type, or NULL after an error. */
static Type *cg_node(Cx *cx, Expr *e) {
  switch (e->kind) {
  case EX_VAR: {
    Type **slot = var_slot(cx, e->var, e);
    if (!slot)
      return NULL;
    if (*slot)
      return *slot;
    if (cx->free_vars_ok && (e->var->type || e->var->annot)) {
      Type *t = e->var->type ? e->var->type : annot(cx, e->var, e);
      if (t)
        bind_var(cx, e->var, t, e);
      return t;
    }
    expr_error(
        cx, e,
        "variable %%%s is not bound here: expected a variable bound by an enclosing let, function "
        "or pattern, found a free variable%s%s",
        e->var->name, e->var->annot ? " of type " : "",
        e->var->annot ? show(cx, e->var->annot) : "");
    return NULL;
  }
  case EX_GLOBAL: {
    if (!e->global) {
      expr_error(cx, e, "malformed global reference");
      return NULL;
    }
    /* Its (possibly polymorphic) type: calls instantiate it. */
    return sig_of(cx, e->global, e);
  }
  case EX_CONST: {
    Tensor *t = e->constant;
    if (!t || t->rank < 0 || t->rank > IR_MAX_RANK || (unsigned)t->dtype >= DT_COUNT) {
      expr_error(cx, e, "malformed constant");
      return NULL;
    }
    return ir_tensor_type_of(cx->A, t);
  }
  case EX_TUPLE: {
    Type **fs = cg_exprs(cx, e->tuple.n, e->tuple.fields);
    return fs || !e->tuple.n ? ir_tuple_type(cx->A, e->tuple.n, fs) : NULL;
  }
  case EX_PROJ: {
    Type *tt = cg_expr(cx, e->proj.tuple);
    if (!tt)
      return NULL;
    Type *s = ty_shallow(cx, tt);
    int i = e->proj.index;
    if (ty_unknown(cx, s)) {
      Rel *r = new_rel(cx, RK_PROJ, e, 1, &tt);
      ty_wait_on(cx, &cx->nodes[ty_find(cx, s->incomplete.id)], r);
      return r->out;
    }
    if (s->kind != TY_TUPLE) {
      expr_error(cx, e, "projection .%d: expected a tuple, found %s", i, show(cx, s));
      return NULL;
    }
    if (i < 0 || i >= s->tuple.n) {
      expr_error(
          cx, e,
          "projection .%d is out of range for %s: expected a tuple of at least %d fields, found %d",
          i, show(cx, s), i + 1, s->tuple.n);
      return NULL;
    }
    return s->tuple.fields[i];
  }
  case EX_LET: return cg_let(cx, e);
  case EX_IF: {
    Type *c = cg_expr(cx, e->if_.cond);
    if (!c)
      return NULL;
    if (!ty_unify(cx, cx->bool_ty, c)) {
      mismatch(cx, e->if_.cond, "if condition", cx->bool_ty, c);
      return NULL;
    }
    Type *t = cg_expr(cx, e->if_.then);
    Type *f = t ? cg_expr(cx, e->if_.els) : NULL;
    if (!f)
      return NULL;
    if (!ty_unify(cx, t, f)) {
      mismatch(cx, e->if_.els, "else branch of the if (against the then branch)", t, f);
      return NULL;
    }
    return t;
  }
  case EX_CALL: {
    Type *callee = NULL;
    if (e->call.kind == CALL_EXPR && !(callee = cg_expr(cx, e->call.callee)))
      return NULL;
    Type **args = cg_exprs(cx, e->call.nargs, e->call.args);
    if (!args && e->call.nargs)
      return NULL;
    if (cx->failed)
      return NULL;
    switch (e->call.kind) {
    case CALL_OP: return cg_op(cx, e, args);
    case CALL_CTOR: return cg_ctor(cx, e, args);
    case CALL_EXPR: return cg_call(cx, e, callee, args);
    }
    expr_error(cx, e, "malformed call");
    return NULL;
  }
  case EX_FUNC: return cg_func(cx, e);
  case EX_REF_NEW: {
    Type *v = cg_expr(cx, e->ref_new.value);
    return v ? ir_ref_type(cx->A, v) : NULL;
  }
  case EX_REF_READ: {
    Type *r = cg_expr(cx, e->ref_read.ref);
    if (!r)
      return NULL;
    Type *s = ty_shallow(cx, r);
    if (s->kind == TY_REF)
      return s->ref.inner;
    Type *x = ty_fresh(cx), *rx = ir_ref_type(cx->A, x);
    if (!ty_unify(cx, rx, r)) {
      mismatch(cx, e->ref_read.ref, "ref_read", rx, r);
      return NULL;
    }
    return x;
  }
  case EX_REF_WRITE: {
    Type *r = cg_expr(cx, e->ref_write.ref);
    Type *v = r ? cg_expr(cx, e->ref_write.value) : NULL;
    if (!v)
      return NULL;
    Type *rv = ir_ref_type(cx->A, v);
    if (!ty_unify(cx, r, rv)) {
      mismatch(cx, e->ref_write.ref, "ref_write reference (against the value written)", rv, r);
      return NULL;
    }
    return cx->unit_ty;
  }
  case EX_MATCH: return cg_match(cx, e);
  }
  expr_error(cx, e, "malformed expression");
  return NULL;
}

/* Generate the constraints of e (once per node: shared nodes reuse their
 * type) and return its type, or NULL after an error. */
static Type *cg_expr(Cx *cx, Expr *e) {
  if (cx->failed)
    return NULL;
  if (!e) {
    expr_error(cx, e, "missing expression");
    return NULL;
  }
  Type *seen;
  if (!enter(cx, e, &seen))
    return seen;
  if (cx->depth >= MAX_DEPTH) {
    expr_error(cx, e, "expression nested too deeply");
    return NULL;
  }
  int line = cx->line, col = cx->col;
  if (e->line) {
    cx->line = e->line;
    cx->col = e->col;
  }
  cx->depth++;
  Type *t = cg_node(cx, e);
  cx->depth--;
  cx->line = line;
  cx->col = col;
  if (!t || cx->failed)
    return NULL;
  record(cx, e, t);
  return t;
}

/* A global's definition: its parameters take the signature's types. */
static void cg_global(Cx *cx, GlobalFn *g, Type *sig) {
  Expr *f = g->func;
  Type *seen;
  cx->fn = g->name;
#ifdef RS_TEST_PASSES
  cx->in_poly = f->func.ntvars > 0;
#endif
  cx->line = f->line;
  cx->col = f->col;
  if (!enter(cx, f, &seen)) {
    if (!cx->failed)
      errat(cx, g->name, f->line, f->col, "the definition of @%s is shared", g->name);
    return;
  }
  for (int i = 0; i < f->func.nparams; i++)
    if (!bind_var(cx, f->func.params[i], sig->func.params[i], f))
      return;
  Type *bt = cg_expr(cx, f->func.body);
  if (!bt)
    return;
  if (!unify_to(cx, sig->func.ret, bt)) {
    mismatch(cx, f->func.body,
             arena_printf(cx->S, "body of @%s (against its return type)", g->name), sig->func.ret,
             bt);
    return;
  }
  record(cx, f, sig);
}

/* --------------------------------------------------------------- finish */

/* After generation: solve, report what stays unknown, check matches for
 * exhaustiveness, and store the resolved types.  Returns success. */
static bool finish(Cx *cx) {
  solve(cx);
  if (cx->failed)
    return false;
  for (int i = 0; i < cx->nrels; i++) {
    Rel *r = cx->rels[i];
    if (r->done)
      continue;
    if (r->kind == RK_PROJ) {
      errat(cx, r->fn, r->line, r->col,
            "cannot infer the type of %s: the type of the tuple, %s, is not known",
            describe(cx, r->e), show(cx, r->args[0]));
    } else {
      Buf b = {.n = 0};
      b.s[0] = 0;
      for (int j = 0; j < r->nargs; j++) {
        put(&b, j ? ", " : "(");
        fmt(cx, &b, r->args[j], 0);
      }
      put(&b, r->nargs ? ")" : "()");
      bool known = true;
      for (int j = 0; j < r->nargs; j++)
        known &= ty_resolve(cx, r->args[j], 0) != NULL;
      errat(cx, r->fn, r->line, r->col,
            known ? "cannot infer the type of %s: its relation gives no result for %s"
                  : "cannot infer the type of %s: its argument types %s are not known well enough",
            describe(cx, r->e), b.s);
    }
    return false;
  }
  for (int i = 0; i < cx->nvisits; i++) {
    Visit *v = &cx->visits[i];
    Type *t = ty_resolve(cx, v->t, 0);
    if (!t) {
      if (cx->big)
        errat(cx, v->fn, v->line, v->col, "the type of %s is too large", describe(cx, v->e));
      else
        errat(cx, v->fn, v->line, v->col, "cannot infer the type of %s: found %s",
              describe(cx, v->e), show(cx, v->t));
      return false;
    }
    v->t = t;
  }
  Type **vts = cx->nvars ? ARENA_ARRAY(cx->S, Type *, cx->nvars) : NULL;
  for (int i = 0; i < cx->nvars; i++) {
    VarRec *r = &cx->vars[i];
    Type *t = cx->vty[r->v->id];
    if (!(vts[i] = ty_resolve(cx, t, 0))) {
      errat(cx, r->fn, r->line, r->col, "cannot infer the type of %%%s: found %s", r->v->name,
            show(cx, t));
      return false;
    }
  }
  for (int i = 0; i < cx->nmatches; i++) {
    Visit *v = &cx->matches[i];
    Type *st = ty_resolve(cx, v->t, 0);
    char wit[160];
    int ex =
        st ? ty_match_exhaustive(v->e->match.clauses, v->e->match.n, st, cx->S, wit, sizeof wit)
           : -1;
    if (ex == 0) {
      errat(cx, v->fn, v->line, v->col,
            "match is not exhaustive: %s is not covered: expected clauses for every value of %s, "
            "found none for %s",
            wit, show(cx, st), wit);
      return false;
    }
    if (ex < 0) {
      errat(cx, v->fn, v->line, v->col, "match is too complex to check for exhaustiveness");
      return false;
    }
  }
  for (int i = 0; i < cx->nvisits; i++)
    cx->visits[i].e->type = cx->visits[i].t;
  for (int i = 0; i < cx->nvars; i++)
    cx->vars[i].v->type = vts[i];
  return true;
}

/* Types every check needs (immutable, so shared by all modules). */
static Type bool_type = {.kind = TY_TENSOR, .tensor = {.dtype = DT_BOOL, .rank = 0}};
static Type unit_type = {.kind = TY_TUPLE, .tuple = {.n = 0, .fields = NULL}};

/* Set up a check of m. */
static void cx_init(Cx *cx, Module *m, Diag *d, TyRelateFn relate) {
  memset(cx, 0, sizeof *cx);
  cx->m = m;
  cx->A = m->arena;
  cx->S = arena_new();
  cx->d = d;
  cx->relate = relate;
  cx->bool_ty = &bool_type;
  cx->unit_ty = &unit_type;
  int nv = m->next_var_id > 0 && m->next_var_id < MAX_VAR_ID ? m->next_var_id : 0;
  cx->capvty = nv > 16 ? nv : 16;
  cx->vty = ARENA_ARRAY(cx->S, Type *, cx->capvty);
  cx->capsig = 8;
  while (cx->capsig < 2 * (m->nfuncs + 1))
    cx->capsig *= 2;
  cx->sigk = ARENA_ARRAY(cx->S, GlobalFn *, cx->capsig);
  cx->sigi = ARENA_ARRAY(cx->S, int, cx->capsig);
}

/* Release a check's scratch memory. */
static void cx_free(Cx *cx, bool ok) {
  if (!ok)
    unmark(cx);
  arena_free(cx->S);
}

bool ty_check_module_with(Module *m, Diag *d, TyRelateFn relate) {
  Cx cx;
  cx_init(&cx, m, d, relate);
  /* Signatures first, so that globals may refer to each other in any
   * order, recursively. */
  for (int i = 0; i < m->nfuncs && !cx.failed; i++) {
    GlobalFn *g = m->funcs[i];
    if (!g) {
      errat(&cx, NULL, 0, 0, "malformed module");
      break;
    }
    if (find_sig(&cx, g)) {
      errat(&cx, g->name, 0, 0, "global @%s is listed twice", g->name);
      break;
    }
    Type *sig = make_sig(&cx, g);
    if (sig)
      set_sig(&cx, g, sig);
  }
  for (int i = 0; i < m->nfuncs && !cx.failed; i++) {
    cg_global(&cx, m->funcs[i], cx.sigv[i]);
    solve(&cx);
  }
  cx.fn = NULL;
  bool ok = !cx.failed && finish(&cx);
  cx_free(&cx, ok);
  return ok;
}

bool ty_check_expr_with(Module *m, Expr *e, Diag *d, TyRelateFn relate) {
  Cx cx;
  cx_init(&cx, m, d, relate);
  cx.free_vars_ok = true;
  cg_expr(&cx, e);
  bool ok = !cx.failed && finish(&cx);
  cx_free(&cx, ok);
  return ok;
}
