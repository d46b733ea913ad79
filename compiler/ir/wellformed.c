/*
 * wellformed.c - the well-formedness check: scoping, single binding,
 * defined globals, constructor arity, and sharing only of pure nodes.
 */
#include <stdio.h>
#include <stdlib.h>

#include "ir.h"
#include "ptrmap.h"

typedef struct {
  const Module *m;
  Diag *d;
  const Var **scope; /* variables in scope, innermost last */
  int nscope, capscope;
  PtrMap bound; /* every Var bound so far: bound once only */
  PtrMap seen;  /* expression nodes visited: a second visit is sharing */
  bool ok;
  const char *fn; /* current global, for messages */
} Wf;

static void bad(Wf *w, const Expr *e, const char *fmt, const char *arg) {
  w->ok = false;
  char msg[256];
  snprintf(msg, sizeof msg, fmt, arg);
  diag_error(w->d, e ? e->line : 0, e ? e->col : 0, "in @%s: %s", w->fn, msg);
}

static void bind(Wf *w, const Expr *at, const Var *v) {
  int added;
  ptrmap_put(&w->bound, v, &added);
  if (!added)
    bad(w, at, "variable %%%s is bound more than once", v->name);
  if (w->nscope == w->capscope) {
    w->capscope = w->capscope ? 2 * w->capscope : 32;
    w->scope = realloc(w->scope, sizeof *w->scope * (size_t)w->capscope);
  }
  w->scope[w->nscope++] = v;
}

static bool in_scope(const Wf *w, const Var *v) {
  for (int i = w->nscope - 1; i >= 0; i--)
    if (w->scope[i] == v)
      return true;
  return false;
}

static void bind_pat(Wf *w, const Expr *at, const Pattern *p) {
  if (p->kind == PAT_VAR)
    bind(w, at, p->var);
  if (p->kind == PAT_CTOR && p->n != p->ctor->nfields)
    bad(w, at, "pattern %s has the wrong number of fields", p->ctor->name);
  for (int i = 0; i < p->n; i++)
    bind_pat(w, at, p->sub[i]);
}

bool ir_expr_is_shareable(const Expr *e) {
  switch (e->kind) {
  case EX_VAR:
  case EX_GLOBAL:
  case EX_CONST: return true;
  case EX_LET:
  case EX_FUNC:
  case EX_REF_NEW:
  case EX_REF_READ:
  case EX_REF_WRITE:
  case EX_MATCH: return false;
  case EX_TUPLE:
    for (int i = 0; i < e->tuple.n; i++)
      if (!ir_expr_is_shareable(e->tuple.fields[i]))
        return false;
    return true;
  case EX_PROJ: return ir_expr_is_shareable(e->proj.tuple);
  case EX_IF:
    return ir_expr_is_shareable(e->if_.cond) && ir_expr_is_shareable(e->if_.then) &&
           ir_expr_is_shareable(e->if_.els);
  case EX_CALL:
    if (e->call.kind == CALL_EXPR)
      return false; /* a closure may have effects */
    for (int i = 0; i < e->call.nargs; i++)
      if (!ir_expr_is_shareable(e->call.args[i]))
        return false;
    return true;
  }
  return false;
}

static void check(Wf *w, const Expr *e);

static void check_all(Wf *w, int n, Expr *const *es) {
  for (int i = 0; i < n; i++)
    check(w, es[i]);
}

/* Free variables of a shared (binder-free) node must be in scope at every
 * use: walk it again at each later use, checking only variables. */
static void uses_visit(Expr **slot, void *ctx) {
  Wf *w = ctx;
  if ((*slot)->kind == EX_VAR) {
    if (!in_scope(w, (*slot)->var))
      bad(w, *slot, "variable %%%s is used outside its scope", (*slot)->var->name);
  } else {
    ir_expr_children(*slot, uses_visit, w);
  }
}

static void check(Wf *w, const Expr *e) {
  if (!e) {
    bad(w, NULL, "%s", "missing expression");
    return;
  }
  int added;
  int64_t *visits = ptrmap_put(&w->seen, e, &added);
  if (!added) {
    if (*visits == 1 && !ir_expr_is_shareable(e))
      bad(w, e, "%s", "an expression with effects or binders is shared (graph binding)");
    (*visits)++;
    Expr *root = (Expr *)e;
    uses_visit(&root, w);
    return;
  }
  *visits = 1;
  int mark = w->nscope;
  switch (e->kind) {
  case EX_VAR:
    if (!in_scope(w, e->var))
      bad(w, e, "variable %%%s is used outside its scope", e->var->name);
    break;
  case EX_GLOBAL:
    if (!e->global->func || ir_global_get(w->m, e->global->name) != e->global)
      bad(w, e, "global @%s is not defined", e->global->name);
    break;
  case EX_CONST: break;
  case EX_TUPLE: check_all(w, e->tuple.n, e->tuple.fields); break;
  case EX_PROJ: check(w, e->proj.tuple); break;
  case EX_LET:
    check(w, e->let.value);
    bind(w, e, e->let.var);
    check(w, e->let.body);
    break;
  case EX_IF:
    check(w, e->if_.cond);
    check(w, e->if_.then);
    check(w, e->if_.els);
    break;
  case EX_CALL:
    if (e->call.kind == CALL_CTOR && e->call.nargs != e->call.ctor->nfields)
      bad(w, e, "constructor %s has the wrong number of arguments", e->call.ctor->name);
    if (e->call.kind == CALL_EXPR)
      check(w, e->call.callee);
    check_all(w, e->call.nargs, e->call.args);
    break;
  case EX_FUNC:
    for (int i = 0; i < e->func.nparams; i++)
      bind(w, e, e->func.params[i]);
    check(w, e->func.body);
    break;
  case EX_REF_NEW: check(w, e->ref_new.value); break;
  case EX_REF_READ: check(w, e->ref_read.ref); break;
  case EX_REF_WRITE:
    check(w, e->ref_write.ref);
    check(w, e->ref_write.value);
    break;
  case EX_MATCH:
    check(w, e->match.scrut);
    for (int i = 0; i < e->match.n; i++) {
      int cmark = w->nscope;
      bind_pat(w, e, e->match.clauses[i].pat);
      check(w, e->match.clauses[i].body);
      w->nscope = cmark;
    }
    break;
  }
  w->nscope = mark;
}

bool ir_well_formed(const Module *m, Diag *d) {
  Arena *scratch = arena_new(); /* the maps' tables */
  Wf w = {.m = m, .d = d, .ok = true, .bound = {.arena = scratch}, .seen = {.arena = scratch}};
  for (int i = 0; i < m->nfuncs; i++) {
    const GlobalFn *g = m->funcs[i];
    w.fn = g->name;
    if (!g->func) {
      bad(&w, NULL, "global @%s is declared but not defined", g->name);
      continue;
    }
    if (g->func->kind != EX_FUNC) {
      bad(&w, g->func, "%s", "a global must be a function");
      continue;
    }
    check(&w, g->func);
  }
  free(w.scope);
  arena_free(scratch);
  return w.ok;
}
