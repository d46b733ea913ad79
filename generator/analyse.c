/*
 * analyse.c - the program analysis behind `relaysmith stats` (analyse.h):
 * one walk over each global function, visiting shared nodes once.
 */
#include <stdlib.h>
#include <string.h>

#include "analyse.h"
#include "compiler/ir/ptrmap.h"
#include "compiler/typing/typing.h"

const char *const gen_feat_names[GFE_COUNT] = {
#define X(id, desc) desc,
    GEN_FEATURES(X)
#undef X
};

/* The counter of p in c, inserted at 0 when absent. */
static int64_t *count_of(PtrMap *c, const void *p) {
  return ptrmap_put(c, p, NULL);
}

typedef struct Walk {
  GenInfo *info;
  PtrMap seen;  /* expression nodes visited */
  PtrMap level; /* variable -> 1 + function-literal nesting where bound */
  PtrMap uses;  /* variable -> references */
  const Var **lets;
  int nlets, caplets;
  const GlobalFn *fn; /* the global being walked */
  struct {
    const GlobalFn *from, *to;
  } polyref[64]; /* references among polymorphic globals (generated: the
                    prelude's bodies are not walked) */
  int npolyref;
} Walk;

static bool is_prelude(const GlobalFn *g);

/* Note a reference to global to from the global being walked, when both
 * are polymorphic and to is not the prelude's. */
static void see_ref(Walk *w, const GlobalFn *to) {
  const Expr *a = w->fn->func, *b = to->func;
  if (w->npolyref < 64 && a->func.ntvars && b && b->kind == EX_FUNC && b->func.ntvars &&
      to != w->fn && !is_prelude(to))
    w->polyref[w->npolyref].from = w->fn, w->polyref[w->npolyref++].to = to;
}

/* Record the kinds found in type t. */
static void see_type(Walk *w, const Type *t) {
  if (!t)
    return;
  bool *h = w->info->has;
  switch (t->kind) {
  case TY_TENSOR: {
    h[GFE_TY_TENSOR] = true;
    h[GFE_TY_SCALAR] |= t->tensor.rank == 0;
    h[GFE_TY_ANY_DIM] |= ir_tensor_has_any(t);
    int64_t n = ir_tensor_has_any(t) ? 0 : ir_type_numel(t);
    if (n > w->info->max_numel)
      w->info->max_numel = n;
    w->info->dtypes |= 1 << t->tensor.dtype;
    break;
  }
  case TY_TUPLE:
    h[t->tuple.n ? GFE_TY_TUPLE : GFE_TY_UNIT] = true;
    for (int i = 0; i < t->tuple.n; i++)
      see_type(w, t->tuple.fields[i]);
    break;
  case TY_FUNC:
    h[GFE_TY_FUNC] = true;
    for (int i = 0; i < t->func.nparams; i++)
      see_type(w, t->func.params[i]);
    see_type(w, t->func.ret);
    break;
  case TY_REF:
    h[GFE_TY_REF] = true;
    see_type(w, t->ref.inner);
    break;
  case TY_ADT:
    h[GFE_TY_ADT] = true;
    h[t->adt.def->builtin ? GFE_PRELUDE_ADT : GFE_GEN_ADT] = true;
    for (int i = 0; i < t->adt.nargs; i++)
      see_type(w, t->adt.args[i]);
    break;
  default: break;
  }
}

/* Bind v at function-literal level lvl. */
static void bind(Walk *w, const Var *v, int lvl) {
  *count_of(&w->level, v) = lvl + 1;
  see_type(w, v->annot);
}

/* Bind a pattern's variables; note nesting and tuple patterns. */
static void bind_pat(Walk *w, const Pattern *p, int lvl, int nest) {
  bool *h = w->info->has;
  if (p->kind == PAT_VAR) {
    h[GFE_VAR_PATTERN] = true;
    bind(w, p->var, lvl);
  }
  if (p->kind == PAT_TUPLE)
    h[GFE_TUPLE_PATTERN] = true;
  if ((p->kind == PAT_CTOR && p->n > 0) || p->kind == PAT_TUPLE) {
    if (nest > 0)
      h[GFE_NESTED_PATTERN] = true;
    for (int i = 0; i < p->n; i++)
      bind_pat(w, p->sub[i], lvl, nest + 1);
  } else if (p->kind == PAT_CTOR && nest > 0) {
    h[GFE_NESTED_PATTERN] = true;
  }
}

static void walk(Walk *w, const Expr *e, int lvl, int depth);

static void walk_all(Walk *w, int n, Expr *const *es, int lvl, int depth) {
  for (int i = 0; i < n; i++)
    walk(w, es[i], lvl, depth);
}

/* Visit e at function-literal nesting lvl and expression depth depth. */
static void walk(Walk *w, const Expr *e, int lvl, int depth) {
  GenInfo *in = w->info;
  bool *h = in->has;
  int64_t *seen = count_of(&w->seen, e);
  if ((*seen)++) {
    h[GFE_GRAPH_BINDING] = true;
    return;
  }
  in->nodes++;
  if (depth > in->depth)
    in->depth = depth;
  see_type(w, e->type);
  int d = depth + 1;
  switch (e->kind) {
  case EX_VAR: {
    (*count_of(&w->uses, e->var))++;
    int bl = (int)*count_of(&w->level, e->var) - 1;
    if (bl >= 0 && bl < lvl)
      h[GFE_CAPTURE] = true;
    break;
  }
  case EX_GLOBAL:
    h[GFE_GLOBAL_VALUE] = true;
    h[GFE_RECURSION] |= e->global == w->fn;
    see_ref(w, e->global);
    break;
  case EX_CONST: {
    const Tensor *x = e->constant;
    h[GFE_CONST] = h[GFE_TY_TENSOR] = true;
    h[GFE_TY_SCALAR] |= x->rank == 0;
    in->max_numel = x->numel > in->max_numel ? x->numel : in->max_numel;
    in->dtypes |= 1 << x->dtype;
    break;
  }
  case EX_TUPLE:
    h[GFE_TUPLE] = true;
    walk_all(w, e->tuple.n, e->tuple.fields, lvl, d);
    break;
  case EX_PROJ:
    h[GFE_PROJ] = true;
    walk(w, e->proj.tuple, lvl, d);
    break;
  case EX_LET:
    h[GFE_LET] = true;
    walk(w, e->let.value, lvl, d);
    bind(w, e->let.var, lvl);
    if (w->nlets == w->caplets) {
      w->caplets = w->caplets ? 2 * w->caplets : 16;
      w->lets = realloc(w->lets, sizeof *w->lets * (size_t)w->caplets);
    }
    w->lets[w->nlets++] = e->let.var;
    walk(w, e->let.body, lvl, d);
    break;
  case EX_IF:
    h[GFE_IF] = true;
    walk(w, e->if_.cond, lvl, d);
    walk(w, e->if_.then, lvl, d);
    walk(w, e->if_.els, lvl, d);
    break;
  case EX_CALL:
    if (e->call.kind == CALL_OP) {
      h[GFE_OP_CALL] = true;
      in->op_calls[e->call.op]++;
    } else if (e->call.kind == CALL_CTOR) {
      h[GFE_CTOR_CALL] = true;
      h[e->call.ctor->def->builtin ? GFE_PRELUDE_ADT : GFE_GEN_ADT] = true;
    } else if (e->call.callee->kind == EX_GLOBAL) {
      h[GFE_GLOBAL_CALL] = true;
      h[GFE_RECURSION] |= e->call.callee->global == w->fn;
      const Expr *gfn = e->call.callee->global->func;
      h[GFE_POLY_CALL] |=
          gfn && gfn->kind == EX_FUNC && gfn->func.ntvars > 0 && is_prelude(e->call.callee->global);
      see_ref(w, e->call.callee->global);
      if ((*count_of(&w->seen, e->call.callee))++ == 0)
        in->nodes++;
    } else {
      h[GFE_CLOSURE_CALL] = true;
      walk(w, e->call.callee, lvl, d);
    }
    walk_all(w, e->call.nargs, e->call.args, lvl, d);
    break;
  case EX_FUNC:
    h[GFE_FN_LITERAL] = true;
    for (int i = 0; i < e->func.nparams; i++)
      bind(w, e->func.params[i], lvl + 1);
    see_type(w, e->func.ret);
    walk(w, e->func.body, lvl + 1, d);
    break;
  case EX_REF_NEW:
    h[GFE_REF_NEW] = true;
    walk(w, e->ref_new.value, lvl, d);
    break;
  case EX_REF_READ:
    h[GFE_REF_READ] = true;
    walk(w, e->ref_read.ref, lvl, d);
    break;
  case EX_REF_WRITE:
    h[GFE_REF_WRITE] = true;
    walk(w, e->ref_write.ref, lvl, d);
    walk(w, e->ref_write.value, lvl, d);
    break;
  case EX_MATCH:
    h[GFE_MATCH] = true;
    walk(w, e->match.scrut, lvl, d);
    for (int i = 0; i < e->match.n; i++) {
      bind_pat(w, e->match.clauses[i].pat, lvl, 0);
      walk(w, e->match.clauses[i].body, lvl, d);
    }
    break;
  }
}

/* Whether g is one of the prelude's library functions (not generated
 * code: its body is not analysed). */
static bool is_prelude(const GlobalFn *g) {
  for (int i = 0; i < ty_prelude_count(); i++)
    if (strcmp(g->name, ty_prelude_name(i)) == 0)
      return true;
  return false;
}

void gen_analyse(const Module *m, GenInfo *out) {
  memset(out, 0, sizeof *out);
  Walk w = {.info = out};
  for (int i = 0; i < m->nfuncs; i++) {
    const GlobalFn *g = m->funcs[i];
    if (!g->func || g->func->kind != EX_FUNC || is_prelude(g))
      continue;
    out->nfuncs++;
    out->has[GFE_POLY_GLOBAL] |= g->func->func.ntvars > 0;
    out->has[GFE_POLY_TWO] |= g->func->func.ntvars > 1;
    w.fn = g;
    const Expr *f = g->func;
    (*count_of(&w.seen, f))++;
    for (int k = 0; k < f->func.nparams; k++)
      bind(&w, f->func.params[k], 0);
    see_type(&w, f->func.ret);
    out->nodes++;
    walk(&w, f->func.body, 0, 1);
  }
  out->has[GFE_GLOBALS] = out->nfuncs > 1;
  for (int i = 0; i < w.npolyref; i++)
    for (int j = 0; j < w.npolyref; j++)
      out->has[GFE_POLY_MUTUAL] |=
          w.polyref[i].from == w.polyref[j].to && w.polyref[i].to == w.polyref[j].from;
  for (int i = 0; i < w.nlets; i++)
    if (*count_of(&w.uses, w.lets[i]) == 0 && strcmp(w.lets[i]->name, "_") != 0)
      out->has[GFE_UNUSED_LET] = true;
  ptrmap_free(&w.seen);
  ptrmap_free(&w.level);
  ptrmap_free(&w.uses);
  free(w.lets);
}
