/*
 * fold_constant.c - constant folding, as Relay's FoldConstant.
 *
 * Requires: a well-formed, type-checked module (pass.h).
 * Does, everywhere outside primitive (fused) functions:
 *   - an operator call whose arguments are all constants (for concatenate
 *     stack and einsum: a tuple literal of constants) and that has at least one
 *     argument is evaluated with the registry's kernel (op_eval, the same
 *     code the interpreter runs, so results are bit-exact) and replaced by
 *     the constant, or by a tuple literal of constants for a tuple result;
 *     calls whose results total more than FOLD_MAX_NUMEL elements are kept
 *     (no huge constants), as are those of more than FOLD_MAX_OUTS tensors
 *     in or out, and zero-argument calls (zeros, ones), as Relay does, and
 *     calls of a value-typed operator (arange: its static length could make
 *     a failing run-time check a static type error);
 *   - a projection of a tuple literal whose other fields are pure becomes
 *     that field;
 *   - if on a constant condition becomes the branch taken.
 * Does everywhere, primitive functions included:
 *   - let %x = c; body, where c is a constant or a tuple literal of
 *     constants (nested), becomes body with each use of %x replaced by a
 *     fresh copy of c.
 * Never evaluates anything with effects: only operator kernels run, and only
 * pure subexpressions are dropped.  Shared (graph-bound) nodes are rewritten
 * once, so sharing is preserved.
 * Contract (pass.h): PASS_EXACT.  Floats: a folded call runs op_eval, the
 * interpreter's own kernel, on the same bits, and the constant keeps the
 * result's bits (-0 and NaN payloads included); nothing is re-associated.
 * Errors: what goes is pure, hence total (pass_int.h): the branch an if on
 * a constant never takes, the other fields of a projected tuple literal,
 * an unused constant; a match that may fail is never pure.  Effects: no
 * ref operation is pure, so none is evaluated, dropped or moved.
 * Guarantees (post_fold_constant): outside primitive functions no
 * foldable call remains (an operator call with at least one argument, all
 * constants or tuple literals of constants, at most FOLD_MAX_OUTS tensors
 * in and out, and at most FOLD_MAX_NUMEL result elements), no projection
 * of a tuple literal with pure other fields and no if on a constant
 * condition; nowhere is a let bound to a constant or a tuple of constants,
 * but one annotated with an Any dim: it keeps a type the constant's own
 * would narrow (a pin, pass_int.h).
 *
 * Shapes (what a program must contain to exercise this pass; the "fold"
 * policy, generator/fold.c, makes them at any node of the right type):
 *   - operator calls on constants only: nested (an all-constant tree),
 *     next to operands that are not constant (only the subtree folds),
 *     concatenate/stack of a tuple literal of constants, ops with a
 *     tuple result (folded to a tuple literal), and the calls that must
 *     stay: zeros/ones (no argument) and any call with an operand that is
 *     a variable, a call or a tuple that is not a literal of constants;
 *   - if on a constant condition or on a call that folds to one, with
 *     branches of any type (ADT branches whose type only the dropped
 *     branch fixed: the pin);
 *   - let %x = c, c a constant or a nested tuple literal of constants,
 *     with %x used zero, one or several times, also inside closures;
 *   - a projection of a tuple literal whose other fields are pure (folds)
 *     or impure, a ref(..) (stays), and one whose dropped field alone
 *     fixes an unannotated let variable's type (`let %n = Nil;
 *     (e, Cons(h, %n)).0`: %n must be pinned before the field goes);
 *   - graph-shared foldable nodes (rewritten once, pins refreshed).
 * Not generated: results over FOLD_MAX_NUMEL elements (generated tensors
 * have at most 256) and primitive functions (fuse_ops makes them, so
 * pass_fuzzer's sequences with fuse_ops before this pass reach them).
 */
#include <string.h>

#include "compiler/ops/op.h"
#include "pass.h"
#include "pass_int.h"

enum { FOLD_MAX_NUMEL = 4096, FOLD_MAX_OUTS = 64 };

typedef struct {
  Module *m;
  Arena *scratch; /* kernel temporaries; freed at the end */
  PtrMap memo[2]; /* Expr* -> rewritten Expr*; [1] inside primitive functions */
  PtrMap consts;  /* Var* -> constant value expression bound to it */
  PtrMap pins;    /* rewritten nodes containing a pin let (1: the let) */
  PurityMemo pm;
} Fold;

static Expr *fold(Fold *f, Expr *e, int prim);

/* A constant or a (nested) tuple literal of constants. */
static bool is_const_value(const Expr *e) {
  if (e->kind == EX_CONST)
    return true;
  if (e->kind != EX_TUPLE)
    return false;
  for (int i = 0; i < e->tuple.n; i++)
    if (!is_const_value(e->tuple.fields[i]))
      return false;
  return true;
}

/* A fresh copy of a constant value (fresh nodes, shared tensor data). */
static Expr *copy_const_value(Module *m, const Expr *e) {
  Expr *c = ir_expr_clone_node(m, e);
  if (e->kind == EX_TUPLE) {
    c->tuple.fields = e->tuple.n ? ARENA_ARRAY(m->arena, Expr *, e->tuple.n) : NULL;
    for (int i = 0; i < e->tuple.n; i++)
      c->tuple.fields[i] = copy_const_value(m, e->tuple.fields[i]);
  }
  return c;
}

/* Collect the argument tensors of an all-constant operator call; -1 if
 * some argument is not constant. */
static int const_args(const Expr *e, Tensor **out, int max) {
  const Expr *const *args = (const Expr *const *)e->call.args;
  int n = e->call.nargs;
  if (e->call.op == OP_CONCATENATE || e->call.op == OP_STACK || e->call.op == OP_EINSUM) {
    if (n != 1 || args[0]->kind != EX_TUPLE)
      return -1;
    n = args[0]->tuple.n;
    args = (const Expr *const *)args[0]->tuple.fields;
  }
  if (n > max)
    return -1;
  for (int i = 0; i < n; i++) {
    if (args[i]->kind != EX_CONST)
      return -1;
    out[i] = args[i]->constant;
  }
  return n;
}

/* Elements in a result type (a tensor or a tuple of tensors); -1 otherwise. */
static int64_t result_numel(const Type *t) {
  if (t->kind == TY_TENSOR)
    return ir_type_numel(t);
  if (t->kind != TY_TUPLE)
    return -1;
  int64_t n = 0;
  for (int i = 0; i < t->tuple.n; i++) {
    if (t->tuple.fields[i]->kind != TY_TENSOR)
      return -1;
    n += ir_type_numel(t->tuple.fields[i]);
  }
  return n;
}

/* The result type of an all-constant call when it may be folded (has
 * arguments, relation succeeds, result small enough), else NULL.  A
 * value-typed operator (arange, op_value_typed) is not folded: its
 * constant's static length would turn a run-time check of its Any length
 * downstream (reshape's element count) into a static type error when
 * the values fail it. */
static Type *foldable_call(const Expr *e, Arena *a, Tensor **targs, int *ntargs) {
  if (e->kind != EX_CALL || e->call.kind != CALL_OP || e->call.nargs == 0 ||
      op_value_typed(e->call.op))
    return NULL;
  int n = const_args(e, targs, FOLD_MAX_OUTS);
  if (n < 0)
    return NULL;
  Type *tys[FOLD_MAX_OUTS], *rel_args[OP_MAX_ARGS];
  for (int i = 0; i < n; i++)
    tys[i] = ir_tensor_type_of(a, targs[i]);
  int nrel = n;
  if (e->call.op == OP_CONCATENATE || e->call.op == OP_STACK || e->call.op == OP_EINSUM) {
    rel_args[0] = ir_tuple_type(a, n, tys);
    nrel = 1;
  } else {
    if (n > OP_MAX_ARGS)
      return NULL;
    memcpy(rel_args, tys, sizeof(Type *) * (size_t)n);
  }
  Type *ret = NULL;
  char err[128];
  if (op_relate(e->call.op, rel_args, nrel, &e->call.attrs, a, &ret, err, sizeof err) != REL_OK)
    return NULL;
  int64_t numel = result_numel(ret);
  if (numel < 0 || numel > FOLD_MAX_NUMEL)
    return NULL;
  *ntargs = n;
  return ret;
}

/* Evaluate a foldable call; NULL when it is not foldable. */
static Expr *eval_call(Fold *f, Expr *e) {
  Tensor *args[FOLD_MAX_OUTS], *outs[FOLD_MAX_OUTS];
  int nargs;
  Type *ret = foldable_call(e, f->scratch, args, &nargs);
  if (!ret)
    return NULL;
  char err[256];
  int nouts = op_eval(e->call.op, args, nargs, &e->call.attrs, f->scratch, outs, FOLD_MAX_OUTS, err,
                      sizeof err);
  if (nouts < 0)
    return NULL;
  if (ret->kind == TY_TENSOR)
    return pass_const(f->m, pass_tensor_copy(f->m, outs[0]));
  Expr *fields[FOLD_MAX_OUTS];
  for (int i = 0; i < nouts; i++)
    fields[i] = pass_const(f->m, pass_tensor_copy(f->m, outs[i]));
  Expr *t = ir_tuple(f->m, nouts, fields);
  t->type = e->type;
  return t;
}

/* Fold every child slot of a clone; returns e itself when none changed. */
typedef struct {
  Fold *f;
  int prim;
  bool changed;
} Kids;

/* Fold one child slot of a clone, noting whether it changed. */
static void fold_slot(Expr **slot, void *ctx) {
  Kids *k = ctx;
  Expr *n = fold(k->f, *slot, k->prim);
  if (n != *slot) {
    *slot = n;
    k->changed = true;
  }
}

/* A copy of e with every child folded (e itself when nothing changed). */
static Expr *fold_children(Fold *f, Expr *e, int prim) {
  Expr *c = pass_clone(f->m, e);
  Kids k = {f, prim, false};
  ir_expr_children(c, fold_slot, &k);
  return k.changed ? c : e;
}

/* The folded form of e (prim: inside a primitive function). */
static Expr *fold_node(Fold *f, Expr *e, int prim) {
  switch (e->kind) {
  case EX_VAR: {
    int64_t *c = ptrmap_get(&f->consts, e->var);
    return c ? copy_const_value(f->m, (Expr *)(intptr_t)*c) : e;
  }
  case EX_GLOBAL:
  case EX_CONST: return e;
  case EX_LET: {
    Expr *v = fold(f, e->let.value, prim);
    if (is_const_value(v)) {
      *ptrmap_put(&f->consts, e->let.var, NULL) = (int64_t)(intptr_t)v;
      return fold(f, e->let.body, prim);
    }
    Expr *b = fold(f, e->let.body, prim);
    if (v == e->let.value && b == e->let.body)
      return e;
    Expr *c = ir_expr_clone_node(f->m, e);
    c->let.value = v;
    c->let.body = b;
    return c;
  }
  case EX_IF: {
    Expr *cond = fold(f, e->if_.cond, prim);
    if (!prim && cond->kind == EX_CONST) {
      bool t = ir_tensor_get_i64(cond->constant, 0) != 0;
      pass_pin_refs(t ? e->if_.els : e->if_.then);
      Expr *b = fold(f, t ? e->if_.then : e->if_.els, prim);
      Expr *r = pass_pin_expr(f->m, b, e->type);
      if (r != b)
        *ptrmap_put(&f->pins, r, NULL) = 1;
      return r;
    }
    return fold_children(f, e, prim);
  }
  case EX_PROJ: {
    Expr *t = fold(f, e->proj.tuple, prim);
    if (!prim && t->kind == EX_TUPLE) {
      bool others_pure = true;
      for (int i = 0; i < t->tuple.n; i++)
        if (i != e->proj.index)
          others_pure = others_pure && pass_is_pure(&f->pm, t->tuple.fields[i]);
      if (others_pure) {
        for (int i = 0; i < t->tuple.n; i++)
          if (i != e->proj.index)
            pass_pin_refs(t->tuple.fields[i]);
        return t->tuple.fields[e->proj.index];
      }
    }
    if (t == e->proj.tuple)
      return e;
    Expr *c = ir_expr_clone_node(f->m, e);
    c->proj.tuple = t;
    return c;
  }
  case EX_CALL: {
    Expr *c = fold_children(f, e, prim);
    if (!prim && c->call.kind == CALL_OP) {
      Expr *r = eval_call(f, c);
      if (r)
        return r;
    }
    return c;
  }
  case EX_FUNC: return fold_children(f, e, prim || e->func.primitive);
  default: return fold_children(f, e, prim);
  }
}

/* Pins inside shared nodes.  A folded if may become `let %pin: t = b;
 * %pin` (pass_int.h).  A node containing such a let binds a variable, so
 * it may not be shared: every further use of a shared node whose rewrite
 * contains pins gets a copy with fresh pin variables. */
typedef struct {
  Fold *f;
  bool found;
} PinScan;

/* Note a child that contains a pin. */
static void pin_child(Expr **slot, void *ctx) {
  PinScan *p = ctx;
  p->found = p->found || ptrmap_get(&p->f->pins, *slot);
}

/* Does a direct child of r contain a pin? */
static bool has_pinned_child(Fold *f, Expr *r) {
  PinScan p = {f, false};
  ir_expr_children(r, pin_child, &p);
  return p.found;
}

static Expr *refresh(Fold *f, Expr *r);

/* Refresh a child slot when it contains pins. */
static void refresh_slot(Expr **slot, void *ctx) {
  if (ptrmap_get(&((Fold *)ctx)->pins, *slot))
    *slot = refresh(ctx, *slot);
}

/* A copy of r with fresh pin variables (parts without pins are shared). */
static Expr *refresh(Fold *f, Expr *r) {
  int64_t *kind = ptrmap_get(&f->pins, r);
  Expr *c = pass_clone(f->m, r);
  if (*kind == 1) {
    Var *v = ir_var(f->m, r->let.var->name, r->let.var->annot);
    v->type = r->let.var->type;
    c->let.var = v;
    c->let.body = ir_var_ref(f->m, v);
    c->let.body->type = r->let.body->type;
    refresh_slot(&c->let.value, f);
  } else {
    ir_expr_children(c, refresh_slot, f);
  }
  *ptrmap_put(&f->pins, c, NULL) = *ptrmap_get(&f->pins, r);
  return c;
}

/* fold_node, memoised per node; a second use of a pinned result gets a copy. */
static Expr *fold(Fold *f, Expr *e, int prim) {
  int64_t *v = ptrmap_get(&f->memo[prim], e);
  if (v) {
    Expr *r = (Expr *)(intptr_t)*v;
    return ptrmap_get(&f->pins, r) ? refresh(f, r) : r;
  }
  Expr *r = fold_node(f, e, prim);
  if (r != e && !ptrmap_get(&f->pins, r) && has_pinned_child(f, r))
    *ptrmap_put(&f->pins, r, NULL) = 2;
  *ptrmap_put(&f->memo[prim], e, NULL) = (int64_t)(intptr_t)r;
  return r;
}

/* Fold every global function (see the top of this file). */
bool pass_fold_constant(Module *m, Diag *d) {
  Fold f = {.m = m, .scratch = arena_new()};
  for (int i = 0; i < m->nfuncs; i++)
    if (m->funcs[i]->func)
      m->funcs[i]->func = fold(&f, m->funcs[i]->func, 0);
  arena_free(f.scratch);
  ptrmap_free(&f.memo[0]);
  ptrmap_free(&f.memo[1]);
  ptrmap_free(&f.consts);
  ptrmap_free(&f.pins);
  pass_purity_free(&f.pm);
  return true;
}

/* ----------------------------------------------------------- postcondition
 * Decided by code of its own: nothing below calls a function the pass
 * reaches (not foldable_call, is_const_value, pass_is_pure), so a bug in
 * one cannot make the checker agree with the pass. */

typedef struct {
  const GlobalFn *g;
  Diag *d;
  PtrMap seen[2]; /* [1]: visited inside a primitive function */
  PtrMap pure;    /* Expr* -> 1 pure, 2 impure */
  bool ok;
} Post;

/* A constant or a tuple literal of such (what a let may not bind). */
static bool literal(const Expr *e) {
  if (e->kind == EX_TUPLE) {
    for (int i = 0; i < e->tuple.n; i++)
      if (!literal(e->tuple.fields[i]))
        return false;
    return true;
  }
  return e->kind == EX_CONST;
}

/* Would the pass fold operator call e?  Its arguments are all constants,
 * or tuple literals of constants (concatenate, stack: their fields are the
 * kernel's inputs), at least one, at most FOLD_MAX_OUTS tensors; its result
 * type (as the type checker found it, so the relation accepts the
 * arguments) is a tensor or a tuple of at most FOLD_MAX_OUTS tensors, of
 * at most FOLD_MAX_NUMEL elements in all; it is not value-typed
 * (foldable_call). */
static bool folds(const Expr *e) {
  if (op_value_typed(e->call.op))
    return false;
  int inputs = 0;
  for (int i = 0; i < e->call.nargs; i++) {
    const Expr *a = e->call.args[i];
    bool tuple = a->kind == EX_TUPLE;
    int n = tuple ? a->tuple.n : 1;
    for (int j = 0; j < n; j++)
      if ((tuple ? a->tuple.fields[j] : a)->kind != EX_CONST)
        return false;
    inputs += n;
  }
  const Type *t = e->type;
  bool tuple = t->kind == TY_TUPLE;
  int outs = tuple ? t->tuple.n : 1;
  int64_t numel = 0;
  for (int i = 0; i < outs; i++) {
    const Type *o = tuple ? t->tuple.fields[i] : t;
    if (o->kind != TY_TENSOR)
      return false;
    numel += ir_type_numel(o);
  }
  return e->call.nargs > 0 && inputs <= FOLD_MAX_OUTS && outs <= FOLD_MAX_OUTS &&
         numel <= FOLD_MAX_NUMEL;
}

/* Is a field of tuple literal t other than field index impure? */
static bool impure_other(Post *p, const Expr *t, int index) {
  for (int i = 0; i < t->tuple.n; i++)
    if (i != index && !post_pure(&p->pure, t->tuple.fields[i]))
      return true;
  return false;
}

static void post_walk(Post *p, const Expr *e, int prim);

typedef struct {
  Post *p;
  int prim;
} PostKids;

/* Check one child slot. */
static void post_slot(Expr **slot, void *ctx) {
  PostKids *k = ctx;
  post_walk(k->p, *slot, k->prim);
}

/* Record that the output still has something foldable. */
static void post_bad(Post *p, const Expr *e, const char *what) {
  p->ok = false;
  pass_report(p->d, p->g, e, "fold_constant left %s", what);
}

/* Check e and, once per node, everything under it (prim: inside a
 * primitive function, where only lets are folded). */
static void post_walk(Post *p, const Expr *e, int prim) {
  if (!ptrmap_first(&p->seen[prim], e))
    return;
  if (e->kind == EX_LET && literal(e->let.value) &&
      !(e->let.var && ir_type_has_any(e->let.var->annot)))
    post_bad(p, e, "a let bound to a constant");
  if (!prim && e->kind == EX_IF && e->if_.cond->kind == EX_CONST)
    post_bad(p, e, "an if on a constant condition");
  if (!prim && e->kind == EX_PROJ && e->proj.tuple->kind == EX_TUPLE &&
      !impure_other(p, e->proj.tuple, e->proj.index))
    post_bad(p, e, "a projection of a tuple literal");
  if (!prim && e->kind == EX_CALL && e->call.kind == CALL_OP && folds(e))
    post_bad(p, e, "an operator call on constants");
  PostKids k = {p, prim || (e->kind == EX_FUNC && e->func.primitive)};
  ir_expr_children((Expr *)e, post_slot, &k);
}

/* The postcondition (see the top of this file). */
bool post_fold_constant(const Module *m, Diag *d) {
  Post p = {.d = d, .ok = true};
  for (int i = 0; i < m->nfuncs; i++) {
    p.g = m->funcs[i];
    if (p.g->func)
      post_walk(&p, p.g->func, 0);
  }
  ptrmap_free(&p.seen[0]);
  ptrmap_free(&p.seen[1]);
  ptrmap_free(&p.pure);
  return p.ok;
}
