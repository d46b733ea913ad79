/*
 * dyn.c - Any dims (`?`) in generated programs (docs/generators.md, "Any
 * dims"), as the Relay fuzzing RFC suggests: the program is made with
 * static shapes first; then, drawn after every other choice (so a stream
 * decodes to the same static program), some dims of annotations become
 * Any: let annotations, the parameters and results of function literals
 * and globals, and @main's result (never @main's parameters, whose types
 * make the interpreter's inputs).
 *
 * Unification takes an Any dim as compatible with any dim and a relation
 * propagates Any where a result depends on it, so a relaxed program is
 * well typed unless a relation refuses an Any dim outright (squeeze
 * without an axis): the program is checked (with the operators' own
 * relations), and when the check fails every relaxation is undone.
 * Relaxed consistently: a let after a relaxed site whose value's type now
 * has Any dims gets them in its annotation too (a round or two).  The
 * values are the static program's, so every run-time check of an
 * annotation holds and the result is the static program's.
 */
#include <string.h>

#include "compiler/typing/typing.h"
#include "gen_int.h"

enum { MAX_SITES = 64, WIDEN_ROUNDS = 2 };

typedef struct Relax {
  GenCtx *g;
  struct {
    Type **slot;
    Type *old;
  } site[MAX_SITES];
  int n;
} Relax;

/* Maybe relax the annotation in *slot, a tensor type of rank >= 1: when
 * the stream says so (choice 0 keeps it), one drawn dim becomes Any. */
static void relax_slot(Relax *rx, Type **slot) {
  Type *t = *slot;
  if (!t || t->kind != TY_TENSOR || t->tensor.rank == 0 || rx->n == MAX_SITES ||
      gen_choose(rx->g, 2) != 1)
    return;
  Type *c = ir_type_copy(rx->g->a, t);
  c->tensor.shape[gen_choose(rx->g, (uint32_t)t->tensor.rank)] = IR_DIM_ANY;
  rx->site[rx->n].slot = slot;
  rx->site[rx->n++].old = t;
  *slot = c;
}

/* Relax the annotations of function f (monomorphic only): parameters
 * unless params is false, and the result. */
static void relax_func(Relax *rx, Expr *f, bool params) {
  if (f->func.ntvars)
    return;
  for (int i = 0; params && i < f->func.nparams; i++)
    if (f->func.params[i])
      relax_slot(rx, &f->func.params[i]->annot);
  relax_slot(rx, &f->func.ret);
}

/* The walk over an expression: let annotations and function literals. */
static void relax_visit(Expr **slot, void *ctx) {
  Relax *rx = ctx;
  Expr *e = *slot;
  if (!e)
    return;
  if (e->kind == EX_LET && e->let.var)
    relax_slot(rx, &e->let.var->annot);
  else if (e->kind == EX_FUNC)
    relax_func(rx, e, true);
  ir_expr_children(e, relax_visit, ctx);
}

/* Widen a let's tensor annotation to its value's inferred type (from the
 * last check) where that has an Any dim the annotation lacks, so that Any
 * flows on through the lets after a relaxed one. */
static void widen_visit(Expr **slot, void *ctx) {
  Relax *rx = ctx;
  Expr *e = *slot;
  if (!e)
    return;
  if (e->kind == EX_LET && e->let.var && rx->n < MAX_SITES) {
    Type *a = e->let.var->annot, *t = e->let.value->type;
    if (a && t && a->kind == TY_TENSOR && t->kind == TY_TENSOR && ir_tensor_has_any(t) &&
        !ir_type_equal(a, t) && t->tensor.dtype == a->tensor.dtype &&
        t->tensor.rank == a->tensor.rank) {
      Type *w = ir_type_copy(rx->g->a, a);
      for (int i = 0; i < w->tensor.rank; i++)
        if (ir_dim_is_any(t->tensor.shape[i]))
          w->tensor.shape[i] = IR_DIM_ANY;
      rx->site[rx->n].slot = &e->let.var->annot;
      rx->site[rx->n++].old = a;
      e->let.var->annot = w;
    }
  }
  ir_expr_children(e, widen_visit, ctx);
}

/* The registry's own relation (op_table), never a test build's wrong one
 * (op_relate's -fault=bad_*): the generator judges a relaxed program by
 * the operators' specification, so that a checker which rejects it or
 * types it wrongly is the oracles' finding, not a relaxation undone. */
static RelStatus spec_relate(OpId op, Type *const *args, int nargs, const Attrs *at, Arena *a,
                             Type **out, char *err, size_t errlen) {
  return op_table[op].rel(op, args, nargs, at, a, out, err, errlen);
}

/* Does m type check with the operators' own relations? */
static bool spec_check(Module *m) {
  Diag diag;
  diag_init(&diag, NULL, NULL);
  bool typed = ty_check_module_with(m, &diag, spec_relate);
  diag_free(&diag);
  return typed;
}

void gen_relax_any(GenCtx *g) {
  uint32_t d = gen_choose(g, 16); /* 0, the simplest, relaxes nothing */
  if (d == 0 || d > g->pol->any_rate)
    return;
  Relax rx = {g, {{0}}, 0};
  Module *m = g->m;
  for (int i = 0; i < m->nfuncs; i++) {
    Expr *f = m->funcs[i] ? m->funcs[i]->func : NULL;
    if (!f || f->kind != EX_FUNC)
      continue;
    relax_func(&rx, f, strcmp(m->funcs[i]->name, "main") != 0);
    ir_expr_children(f, relax_visit, &rx);
  }
  if (!rx.n)
    return;
  bool typed = spec_check(m);
  for (int round = 0; typed && round < WIDEN_ROUNDS; round++) {
    int n = rx.n;
    for (int i = 0; i < m->nfuncs; i++)
      if (m->funcs[i] && m->funcs[i]->func)
        ir_expr_children(m->funcs[i]->func, widen_visit, &rx);
    if (rx.n == n)
      break;
    typed = spec_check(m);
  }
  if (typed)
    return;
  for (int i = rx.n - 1; i >= 0; i--)
    *rx.site[i].slot = rx.site[i].old;
  spec_check(m); /* the static program's types again, not a failed check's */
}
