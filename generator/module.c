/*
 * module.c - the module generator: generated type definitions, @main, and
 * global functions made on demand while generating expressions.
 *
 * Termination: a global becomes callable only once its body is complete,
 * so calls among globals form a DAG; the one exception is a structurally
 * recursive global, which calls itself only on a value bound under a
 * constructor pattern of its first parameter (adt.c marks those).
 */
#include <assert.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gen_int.h"

/* ------------------------------------------------------ global functions */

/* prefix, the decimal n, then suffix (if not 0), in the module's arena
 * (without printf, which is slow enough to show in profiles). */
static const char *name(GenCtx *g, const char *prefix, int n, char suffix) {
  char buf[32], digits[12];
  int len = 0, nd = 0;
  for (; *prefix && len < 16; prefix++)
    buf[len++] = *prefix;
  do
    digits[nd++] = (char)('0' + n % 10);
  while ((n /= 10) > 0 && nd < 11);
  while (nd)
    buf[len++] = digits[--nd];
  if (suffix)
    buf[len++] = suffix;
  return arena_strndup(g->a, buf, (size_t)len);
}

/* Whether another global may be started here. */
static bool can_make(GenCtx *g, int budget) {
  return budget >= 3 && g->nmade < g->pol->max_globals && g->nmade < GEN_MAX_GLOBALS &&
         g->global_nest < 2;
}

/* A smaller value in scope the current recursive global may recurse on. */
static int find_smaller(GenCtx *g, int *out, int max) {
  int n = 0;
  if (!g->self)
    return 0;
  for (int i = g->nscope - 1; i >= g->scope_base && n < max; i--)
    if (g->scope[i].smaller)
      out[n++] = i;
  return n;
}

/* Whether a recursive global over some ADT could be made. */
static bool rec_ok(GenCtx *g) {
  if (!gen_feature(g, GEN_F_RECURSION))
    return false;
  for (int i = 0; i < g->nadts; i++) {
    AdtInfo *ai = &g->adts[i];
    bool on = ai->def->builtin ? gen_feature(g, GEN_F_ADT) : gen_feature(g, GEN_F_GENADT);
    if (on && ai->usable && ai->recursive)
      return true;
  }
  return false;
}

bool gen_global_form_ok(GenCtx *g, const Type *t, int budget) {
  if (!gen_feature(g, GEN_F_GLOBAL))
    return false;
  if (can_make(g, budget) || (budget >= 3 && gen_prelude_ok(g)) || gen_poly_ok(g, t, budget))
    return true;
  int sm[1];
  if (find_smaller(g, sm, 1) && ir_type_equal(g->self_type->func.ret, t))
    return true;
  for (int i = 0; i < g->nglobals; i++) {
    const Type *ft = g->globals[i].type;
    if (ir_type_equal(ft->func.ret, t) || ir_type_equal(ft, t))
      return true;
  }
  return false;
}

/* Generate a global of function type ft with a body of about budget
 * nodes; recursive: its body matches on its first parameter (an ADT with
 * a recursive constructor) and may call itself on smaller values; with
 * body_fn, that makes the body (ft may then be polymorphic). */
static GlobalFn *make_global(GenCtx *g, GlobalFn *gf, Type *ft, int budget, bool recursive,
                             GenBodyFn body_fn, void *arg) {
  int save_base = g->scope_base, save_sbase = g->shared_base, save_depth = g->depth;
  GlobalFn *save_self = g->self;
  Type *save_type = g->self_type;
  Var *save_param = g->self_param;
  Type *save_tvar = g->tvar, *save_tvar2 = g->tvar2;
  bool save_free = g->free;
  g->scope_base = g->nscope;
  g->shared_base = g->nshared;
  g->depth = 0;
  g->free = false;
  g->tvar = ft->func.ntvars ? ft->func.tvars[0] : NULL;
  g->tvar2 = ft->func.ntvars > 1 ? ft->func.tvars[1] : NULL;
  g->global_nest++;
  g->nmade++;

  if (!gf)
    gf = ir_global_intern(g->m, gen_global_name(g));
  int n = ft->func.nparams;
  Var **params = ARENA_ARRAY(g->a, Var *, n + 1);
  for (int i = 0; i < n; i++) {
    params[i] = gen_fresh_var(g, "p", ft->func.params[i], true);
    gen_scope_push(g, params[i], ft->func.params[i]);
  }
  Expr *body;
  if (recursive) {
    g->self = gf;
    g->self_type = ft;
    g->self_param = params[0];
    Expr *scrut = gen_var_expr(g, &g->scope[g->scope_base]);
    body = gen_match_on(g, scrut, ft->func.params[0], ft->func.ret, budget, true);
  } else {
    g->self = NULL;
    g->self_type = NULL;
    g->self_param = NULL;
    body = body_fn ? body_fn(g, params, arg) : gen_sub(g, ft->func.ret, budget, false);
  }
  gen_scope_pop(g, g->scope_base);
  gf->func = ir_func(g->m, n, params, ft->func.ret, body);
  gf->func->func.ntvars = ft->func.ntvars;
  gf->func->func.tvars = ft->func.tvars;

  g->global_nest--;
  g->scope_base = save_base;
  g->shared_base = save_sbase;
  g->depth = save_depth;
  g->self = save_self;
  g->self_type = save_type;
  g->self_param = save_param;
  g->tvar = save_tvar;
  g->tvar2 = save_tvar2;
  g->free = save_free;
  if (ft->func.ntvars == 0) /* the forms call globals at concrete types */
    g->globals[g->nglobals++] = (GenGlobal){gf, ft, true};
  return gf;
}

bool gen_can_make_global(GenCtx *g, int budget) {
  return gen_feature(g, GEN_F_GLOBAL) && can_make(g, budget);
}

GlobalFn *gen_new_global(GenCtx *g, Type *ft, int budget, GenBodyFn body_fn, void *arg) {
  return make_global(g, NULL, ft, budget, false, body_fn, arg);
}

GlobalFn *gen_define_global(GenCtx *g, GlobalFn *gf, Type *ft, GenBodyFn body_fn, void *arg) {
  return make_global(g, gf, ft, 0, false, body_fn, arg);
}

const char *gen_global_name(GenCtx *g) {
  return name(g, "f", g->names++, 0);
}

/* Parameter types for a new global: up to max_params, any kind. */
static int global_params(GenCtx *g, Type **p, int first) {
  int max = g->pol->max_params < 7 ? g->pol->max_params : 7;
  int n = first + (int)gen_choose(g, (uint32_t)(max - first + 1));
  for (int i = first; i < n; i++)
    p[i] = gen_type_at(g, 1, GEN_TY_ANY);
  return n;
}

/* Call the global of type ft with generated arguments, the first one
 * given when arg0 is not NULL. */
static Expr *call_global(GenCtx *g, GlobalFn *gf, Type *ft, Expr *arg0, int budget) {
  int n = ft->func.nparams;
  Expr *args[8];
  int b[8];
  int first = arg0 ? 1 : 0;
  if (arg0)
    args[0] = arg0;
  gen_split(g, budget, n - first, b);
  for (int i = first; i < n; i++)
    args[i] = gen_sub(g, ft->func.params[i], b[i - first], false);
  g->pure = false;
  return ir_call(g->m, ir_global_ref(g->m, gf), n, args);
}

typedef struct ViaArg {
  GlobalFn *gf;
  Type *ft;
  int budget;
} ViaArg;

/* %f(args) for the variable %f bound to a global. */
static Expr *call_via(GenCtx *g, Var *f, void *arg) {
  ViaArg *va = arg;
  int n = va->ft->func.nparams;
  Expr *args[8];
  int b[8];
  gen_var_used(g, f);
  gen_split(g, va->budget, n, b);
  for (int i = 0; i < n; i++)
    args[i] = gen_sub(g, va->ft->func.params[i], b[i], false);
  return ir_call(g->m, ir_var_ref(g->m, f), n, args);
}

/* Call gf directly, or now and then through a let-bound variable
 * (let %f = @g; %f(..)): a global used as a value. */
static Expr *call_maybe_via(GenCtx *g, GlobalFn *gf, Type *ft, int budget) {
  if (!gen_feature(g, GEN_F_LET | GEN_F_CLOSURE) || gen_choose(g, 4) != 3)
    return call_global(g, gf, ft, NULL, budget);
  ViaArg va = {gf, ft, budget};
  Expr *e = gen_let_with(g, ft, ir_global_ref(g->m, gf), call_via, &va);
  g->pure = false;
  return e;
}

Expr *gen_self_call(GenCtx *g, int smaller, int budget) {
  Expr *arg0 = gen_var_expr(g, &g->scope[smaller]);
  return call_global(g, g->self, g->self_type, arg0, budget);
}

enum { OPT_CALL, OPT_REF, OPT_SELF, OPT_NEW, OPT_NEW_REC, OPT_NEW_REF, OPT_PRELUDE, OPT_POLY };

typedef struct Opt {
  int kind, idx;
} Opt;

Expr *gen_global_form(GenCtx *g, Type *t, int budget) {
  Opt opt[GEN_MAX_GLOBALS * 2 + 8];
  uint32_t w[GEN_MAX_GLOBALS * 2 + 8];
  int n = 0;
  for (int i = 0; i < g->nglobals; i++) {
    const Type *ft = g->globals[i].type;
    if (ir_type_equal(ft->func.ret, t))
      opt[n] = (Opt){OPT_CALL, i}, w[n++] = 2;
    if (ir_type_equal(ft, t))
      opt[n] = (Opt){OPT_REF, i}, w[n++] = 6;
  }
  int sm[8];
  int nsm = find_smaller(g, sm, 8);
  if (nsm && ir_type_equal(g->self_type->func.ret, t))
    opt[n] = (Opt){OPT_SELF, 0}, w[n++] = 6;
  if (can_make(g, budget)) {
    opt[n] = (Opt){OPT_NEW, 0}, w[n++] = 2;
    if (rec_ok(g))
      opt[n] = (Opt){OPT_NEW_REC, 0}, w[n++] = 5;
    if (t->kind == TY_FUNC)
      opt[n] = (Opt){OPT_NEW_REF, 0}, w[n++] = 6;
  }
  if (budget >= 3 && gen_prelude_ok(g))
    opt[n] = (Opt){OPT_PRELUDE, 0}, w[n++] = 3;
  if (gen_poly_ok(g, t, budget))
    opt[n] = (Opt){OPT_POLY, 0}, w[n++] = g->pol->poly_weight;
  if (n == 0) {
    gen_fail(g, "no global-call form applies, though gen_global_form_ok allowed one");
    return gen_literal(g, t, budget);
  }
  Opt o = opt[gen_weighted(&g->st, w, n)];
  g->pure = false;
  switch (o.kind) {
  case OPT_CALL:
    return call_global(g, g->globals[o.idx].fn, g->globals[o.idx].type, NULL, budget - 1);
  case OPT_REF: return ir_global_ref(g->m, g->globals[o.idx].fn);
  case OPT_SELF: return gen_self_call(g, sm[gen_choose(g, (uint32_t)nsm)], budget - 1);
  case OPT_PRELUDE: return gen_prelude_call(g, t, budget);
  case OPT_POLY: return gen_poly_form(g, t, budget);
  case OPT_NEW_REF: {
    GlobalFn *gf = make_global(g, NULL, t, budget - 1, false, NULL, NULL);
    g->pure = false;
    return ir_global_ref(g->m, gf);
  }
  default: break;
  }
  Type *p[8];
  int np;
  if (o.kind == OPT_NEW_REC) {
    p[0] = gen_adt_type(g, 1, true, GEN_TY_ANY);
    np = global_params(g, p, 1);
  } else {
    np = global_params(g, p, 0);
  }
  Type *ft = ir_func_type(g->a, 0, NULL, np, p, t);
  int b[2];
  gen_split(g, budget - 1, 2, b);
  GlobalFn *gf = make_global(g, NULL, ft, b[0], o.kind == OPT_NEW_REC, NULL, NULL);
  return call_maybe_via(g, gf, ft, b[1]);
}

/* --------------------------------------------------- generated ADTs */

/* A field type for constructor j of a generated definition: a tensor, the
 * type variable, or (not in the base constructor) the type itself. */
static Type *adt_field(GenCtx *g, TypeDef *td, Type *self, int j) {
  uint32_t w[3] = {2, td->ntvars ? 2 : 0, j > 0 ? 3 : 0};
  switch (gen_weighted(&g->st, w, 3)) {
  case 1: return td->tvars[0];
  case 2: return self;
  default: return gen_tensor_type(g);
  }
}

/* Up to max_adts new type definitions, each with a base constructor
 * (no recursive field; with the type variable when polymorphic). */
static void gen_adts(GenCtx *g) {
  if (!gen_feature(g, GEN_F_GENADT))
    return;
  int max = g->pol->max_adts < GEN_MAX_ADTS ? g->pol->max_adts : GEN_MAX_ADTS;
  int n = (int)gen_choose(g, (uint32_t)max + 1);
  for (int k = 0; k < n; k++) {
    const char *A = "A";
    const char *tname = name(g, "Gen", k, 0);
    int ntv = (int)gen_choose(g, 2);
    TypeDef *td = ir_typedef_add(g->m, tname, ntv, &A);
    Type *self = ir_adt_type(g->a, td, ntv, td->tvars);
    int nctors = 2 + (int)gen_choose(g, 2);
    for (int j = 0; j < nctors; j++) {
      int nf = j == 0 ? (ntv ? 1 : 0) + (int)gen_choose(g, 2) : 1 + (int)gen_choose(g, 3);
      Type *f[4];
      for (int i = 0; i < nf; i++)
        f[i] = j == 0 && i == 0 && ntv ? td->tvars[0] : adt_field(g, td, self, j);
      ir_ctor_add(g->m, td, name(g, "Gen", k, (char)('A' + j)), nf, f);
    }
  }
}

/* Drop the generated type definitions the program never used (the
 * prelude's stay: ir_module_new makes them). */
static void drop_unused_adts(GenCtx *g) {
  Module *m = g->m;
  int k = 0;
  for (int i = 0; i < m->ntypes; i++) {
    AdtInfo *ai = gen_adt_info(g, m->types[i]);
    if (m->types[i]->builtin || !ai || ai->used)
      m->types[k++] = m->types[i];
  }
  m->ntypes = k;
}

/* ------------------------------------------------------------ decoding */

/* The result type of @main: data only (no closures or refs). */
static Type *result_type(GenCtx *g) {
  uint32_t w[2] = {4, 1};
  if (gen_weighted(&g->st, w, 2) == 0)
    return gen_tensor_type(g);
  return gen_type_at(g, 0, GEN_TY_DATA);
}

/* The scope, shared-expression and @main parameter arrays of the last
 * decode on this thread, lent to the next one instead of going back to
 * malloc (kept for the thread's life: reachable, so not a leak). */
static _Thread_local struct {
  Scoped *scope, *mainp;
  Shared *shared;
  int capscope, capmainp, capshared;
} spare;

/* Lend g the spare arrays (empty), or give them back after a decode. */
static void lend_arrays(GenCtx *g) {
  g->scope = spare.scope, g->capscope = spare.capscope;
  g->mainp = spare.mainp, g->capmainp = spare.capmainp;
  g->shared = spare.shared, g->capshared = spare.capshared;
  memset(&spare, 0, sizeof spare);
}

static void return_arrays(GenCtx *g) {
  free(spare.scope); /* not NULL only if decodes were nested */
  free(spare.mainp);
  free(spare.shared);
  spare.scope = g->scope, spare.capscope = g->capscope;
  spare.mainp = g->mainp, spare.capmainp = g->capmainp;
  spare.shared = g->shared, spare.capshared = g->capshared;
}

void gen_fail(GenCtx *g, const char *fmt, ...) {
  if (g->why[0])
    return;
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(g->why, g->whylen, fmt, ap);
  va_end(ap);
  if (!g->why[0])
    snprintf(g->why, g->whylen, "?");
}

/* The span invariants the mutator relies on (gen.h, GenSpans). */
static void check_spans(GenCtx *g, const GenSpans *s) {
  if (s->n == 0 || s->v[0].parent >= 0) {
    gen_fail(g, "spans: @main's body has no root span");
    return;
  }
  for (int i = 0; i < s->n; i++) {
    const GenSpan *sp = &s->v[i];
    const GenSpan *up = sp->parent >= 0 ? &s->v[sp->parent] : NULL;
    if (sp->parent >= i || sp->start > sp->end || !sp->expr || !sp->type ||
        sp->scope_off + sp->scope_n > s->nscope ||
        (up && (sp->depth != up->depth + 1 || sp->start < up->start || sp->end > up->end))) {
      gen_fail(g, "spans: span %d [%u, %u) (parent %d) breaks the span invariants", i, sp->start,
               sp->end, sp->parent);
      return;
    }
  }
}

Module *gen_decode(const uint8_t *data, size_t size, const GenPolicy *p, GenSpans *spans) {
  char why[256];
  Module *m = gen_decode_checked(data, size, p, spans, why, sizeof why);
  assert(!why[0] && "the generator broke a contract (gen_decode_checked says which)");
  return m;
}

Module *gen_decode_checked(const uint8_t *data, size_t size, const GenPolicy *p, GenSpans *spans,
                           char *why, size_t whylen) {
  GenCtx g = {0};
  why[0] = 0;
  g.why = why;
  g.whylen = whylen;
  lend_arrays(&g);
  g.m = ir_module_new();
  g.a = g.m->arena;
  gen_stream_init(&g.st, data, size);
  p = gen_policy_pick(p, g.st.header);
  g.pol = p;
  gen_config(p, g.st.header, &g.cfg);
  if (spans) {
    spans->n = 0;
    spans->nscope = 0;
    g.spans = spans;
  }
  g.span_parent = -1;
  for (int i = 0; p->breaks && i < GEN_BREAK_BYTES; i++) /* read by gen_break */
    gen_stream_byte(&g.st);
  gen_adts(&g);
  gen_adt_analyse(&g);

  /* @main's parameters are made where the body needs them (GF_PARAM). */
  Type *ret = result_type(&g);
  Expr *body = gen_sub(&g, ret, g.cfg.budget, false);
  Var **params = ARENA_ARRAY(g.a, Var *, g.nmainp + 1);
  for (int i = 0; i < g.nmainp; i++)
    params[i] = g.mainp[i].var;
  ir_def(g.m, "main", ir_func(g.m, g.nmainp, params, ret, body));
  drop_unused_adts(&g);
  gen_relax_any(&g); /* last: the static program's choices come first */
  if (spans && spans->n && spans->v[0].end < g.st.pos)
    spans->v[0].end = (uint32_t)g.st.pos; /* the root covers every byte read */
  return_arrays(&g);
  if (spans)
    check_spans(&g, spans);
  return g.m;
}
