/*
 * to_anf.c - conversion to A-normal form, as Relay's ToANormalForm.
 *
 * Requires: a well-formed module (types are not needed; new nodes copy the
 * .type of what they stand for when it is known).
 *
 * Guarantees (post_to_anf checks exactly this): the body of every global
 * and of every function literal, except primitive functions (fuse_ops'
 * kernels, which are left as they are, as Relay does), is a block
 *
 *     block ::= let %x = value; block  |  atom
 *     atom  ::= %var | @global | constant
 *     value ::= atom | (atom, ..) | atom.i | op(atom, ..) | Ctor(atom, ..)
 *             | callee(atom, ..)                    callee: %var or @global
 *             | ref(atom) | ref_read(atom) | ref_write(atom, atom)
 *             | if (atom) { block } else { block }
 *             | match (atom) { pattern => block, .. }
 *             | fn (..) { block }  |  a primitive fn, as it was
 *
 * so lets appear only along block spines, every operand is an atom, and
 * no node other than an atom is reachable along two paths (graph sharing
 * has become let sharing).
 *
 * Does: every non-atomic node is bound by a let, in evaluation order (a
 * call's arguments before its callee, a let's value before its body), in
 * the scope it belongs to (scope.h): the function body, an if branch, a
 * match clause.  A node reached along several paths is bound once, at the
 * first point of the innermost scope enclosing all its uses, as Relay does
 * with its dominator tree; such nodes are pure and total, so binding them
 * once there changes no result, though a node used only in, say, the then
 * branches of two ifs is then evaluated before both.  Nested lets (a let
 * in an argument or in a let value) are flattened into the enclosing block,
 * which keeps their order of evaluation.  Existing let variables are kept:
 * a let's value is bound to its variable, unless it is a shared node that
 * belongs to an enclosing scope or whose type the variable's annotation
 * instantiates (then `let %x = %t`).  A constructor without arguments (Nil)
 * is a call in relayc, so it is bound too (Relay's constructors are
 * atoms).  The effects of
 * ref operations and calls happen in the same order as before: nothing is
 * moved into or out of an if branch, a clause or a function body except
 * such a graph-shared pure node.  Running the pass on its own output gives
 * the same program.
 *
 * Contract (pass.h): PASS_EXACT.  Bindings follow evaluation order; the
 * only node evaluated elsewhere than before is a graph-shared one, pure
 * and total (ir_well_formed), so results, errors and the trace of ref
 * effects are unchanged.
 *
 * Shapes (what a program must contain to exercise this pass; the
 * "scopes" policy, generator/scopes.c, makes them at any node of the
 * right type): nested non-atomic operands (a let, an if, a call, a match
 * in an operand; a let whose value is a let); graph-shared pure nodes
 * used from several scopes (both branches of an if, a branch and after
 * it, the then branches of two ifs, inside and outside a closure: bound
 * once at the innermost scope enclosing every use); closures, called
 * once or twice, capturing outer variables; from the default forms,
 * shared nodes whose type a let's annotation instantiates (Nil, None) and
 * effects in operands (their order must survive the flattening).
 */
#include <stdio.h>

#include "pass.h"
#include "pass_int.h"
#include "scope.h"

typedef struct {
  Module *m;
  ScopeInfo si;
  PtrMap memo; /* shared node -> the atom that stands for it */
} Anf;

static bool is_atom(const Expr *e) {
  return e->kind == EX_VAR || e->kind == EX_GLOBAL || e->kind == EX_CONST;
}

static Expr *atom_of(Anf *a, Expr *e);
static Expr *block(Anf *a, Expr *e, int scope);

static int home(Anf *a, const Expr *e) {
  int i = pass_scope_id(&a->si, e);
  return a->si.home[i];
}

static int refs(Anf *a, const Expr *e) {
  return a->si.refs[pass_scope_id(&a->si, e)];
}

static Expr *memo_get(Anf *a, const Expr *e) {
  int64_t *v = ptrmap_get(&a->memo, e);
  return v ? (Expr *)(intptr_t)*v : NULL;
}

static void memo_put(Anf *a, const Expr *e, Expr *atom) {
  *ptrmap_put(&a->memo, e, NULL) = (int64_t)(intptr_t)atom;
}

/* Copies of n expressions made atomic, left to right. */
static Expr **atoms(Anf *a, int n, Expr *const *es) {
  Expr **out = n ? ARENA_ARRAY(a->m->arena, Expr *, n) : NULL;
  for (int i = 0; i < n; i++)
    out[i] = atom_of(a, es[i]);
  return out;
}

/* e rebuilt with atomic operands; its operands are bound on the way.  Not
 * for atoms or lets. */
static Expr *compound(Anf *a, Expr *e) {
  Expr *c = ir_expr_clone_node(a->m, e);
  const ScopeInfo *si = &a->si;
  switch (e->kind) {
  case EX_TUPLE: c->tuple.fields = atoms(a, e->tuple.n, e->tuple.fields); break;
  case EX_PROJ: c->proj.tuple = atom_of(a, e->proj.tuple); break;
  case EX_CALL:
    c->call.args = atoms(a, e->call.nargs, e->call.args);
    if (e->call.kind == CALL_EXPR)
      c->call.callee = atom_of(a, e->call.callee); /* evaluated after the arguments */
    break;
  case EX_IF: {
    int sub = si->sub[pass_scope_id(si, e)];
    c->if_.cond = atom_of(a, e->if_.cond);
    c->if_.then = block(a, e->if_.then, sub);
    c->if_.els = block(a, e->if_.els, sub + 1);
    break;
  }
  case EX_MATCH: {
    int sub = si->sub[pass_scope_id(si, e)];
    c->match.scrut = atom_of(a, e->match.scrut);
    c->match.clauses = ARENA_ARRAY(a->m->arena, Clause, e->match.n);
    for (int i = 0; i < e->match.n; i++) {
      c->match.clauses[i].pat = e->match.clauses[i].pat;
      c->match.clauses[i].body = block(a, e->match.clauses[i].body, sub + i);
    }
    break;
  }
  case EX_FUNC:
    if (!e->func.primitive)
      c->func.body = block(a, e->func.body, si->sub[pass_scope_id(si, e)]);
    break;
  case EX_REF_NEW: c->ref_new.value = atom_of(a, e->ref_new.value); break;
  case EX_REF_READ: c->ref_read.ref = atom_of(a, e->ref_read.ref); break;
  case EX_REF_WRITE:
    c->ref_write.ref = atom_of(a, e->ref_write.ref);
    c->ref_write.value = atom_of(a, e->ref_write.value);
    break;
  case EX_VAR:
  case EX_GLOBAL:
  case EX_CONST:
  case EX_LET: break;
  }
  return c;
}

/* Bind e (not an atom, not a let) to a fresh variable in its home. */
static Expr *bind_fresh(Anf *a, Expr *e) {
  Expr *c = compound(a, e);
  Var *v = pass_fresh_var(a->m, "x", e->type);
  pass_scope_emit(&a->si, home(a, e), v, c);
  Expr *use = pass_var_use(a->m, v);
  memo_put(a, e, use);
  return use;
}

static Expr *flatten(Anf *a, Expr *e);

/* May later uses of v be written as let variable x?  Not when x's
 * annotation instantiates a polymorphic value to another type. */
static bool same_type(const Var *x, const Expr *v) {
  return !x->annot || (v->type && ir_type_equal(x->annot, v->type));
}

/* What to bind to the let variable x in scope s for the expression v. */
static Expr *value_of(Anf *a, Expr *v, int s, Var *x) {
  if (is_atom(v))
    return v;
  Expr *m = memo_get(a, v);
  if (m)
    return m;
  if (v->kind == EX_LET)
    return value_of(a, flatten(a, v), s, x);
  if (refs(a, v) < 2)
    return compound(a, v);
  if (home(a, v) != s || !same_type(x, v))
    return atom_of(a, v); /* bound once, where all its uses see it */
  Expr *c = compound(a, v);
  memo_put(a, v, pass_var_use(a->m, x)); /* its first use: later ones name x */
  return c;
}

/* Emit the bindings of a let chain into its scope; returns the chain's
 * final body (not yet converted). */
static Expr *flatten(Anf *a, Expr *e) {
  while (e->kind == EX_LET) {
    int s = home(a, e);
    pass_scope_emit(&a->si, s, e->let.var, value_of(a, e->let.value, s, e->let.var));
    e = e->let.body;
  }
  return e;
}

/* An atom for e's value, binding what needs binding. */
static Expr *atom_of(Anf *a, Expr *e) {
  if (is_atom(e))
    return e;
  Expr *m = memo_get(a, e);
  if (m)
    return m;
  if (e->kind == EX_LET)
    return atom_of(a, flatten(a, e));
  return bind_fresh(a, e);
}

/* The block for a scope whose body is e. */
static Expr *block(Anf *a, Expr *e, int scope) {
  int mark = pass_scope_mark(&a->si, scope);
  Expr *tail = atom_of(a, e);
  return pass_scope_wrap(a->m, &a->si, scope, mark, tail);
}

bool pass_to_anf(Module *m, Diag *d) {
  (void)d;
  for (int i = 0; i < m->nfuncs; i++) {
    Expr *f = m->funcs[i]->func;
    if (!f || f->kind != EX_FUNC || f->func.primitive)
      continue;
    Anf a = {m, {0}, {0}};
    pass_scope_build(&a.si, f->func.body, false);
    f->func.body = block(&a, f->func.body, 0);
    pass_scope_free(&a.si);
    ptrmap_free(&a.memo);
  }
  return true;
}

/* ----------------------------------------------------------- postcondition */

typedef struct {
  const GlobalFn *g;
  Diag *d;
  PtrMap seen; /* non-atomic nodes visited */
  bool ok;
} Post;

static void bad(Post *p, const Expr *e, const char *what) {
  p->ok = false;
  pass_report(p->d, p->g, e, "not in A-normal form: %s", what);
}

static void check_block(Post *p, const Expr *e);

/* The checker's own atom test, written apart from the pass's is_atom so
 * that a bug there (everything taken for an atom) cannot blind it. */
static bool post_atom(const Expr *e) {
  switch (e->kind) {
  case EX_VAR:
  case EX_GLOBAL:
  case EX_CONST: return true;
  default: return false;
  }
}

static void check_atom(Post *p, const Expr *e, const char *where) {
  if (!post_atom(e)) {
    char msg[160];
    snprintf(msg, sizeof msg, "%s is not an atom (a variable, global or constant)", where);
    bad(p, e, msg);
  }
}

static void check_atoms(Post *p, int n, Expr *const *es, const char *where) {
  for (int i = 0; i < n; i++)
    check_atom(p, es[i], where);
}

/* A let's value: an atom or a compound over atoms. */
static void check_value(Post *p, const Expr *e) {
  if (post_atom(e))
    return;
  if (!ptrmap_first(&p->seen, e)) {
    bad(p, e, "a non-atomic node is shared (reachable along two paths)");
    return;
  }
  switch (e->kind) {
  case EX_TUPLE: check_atoms(p, e->tuple.n, e->tuple.fields, "a tuple field"); break;
  case EX_PROJ: check_atom(p, e->proj.tuple, "a projected tuple"); break;
  case EX_CALL:
    check_atoms(p, e->call.nargs, e->call.args, "a call argument");
    if (e->call.kind == CALL_EXPR && e->call.callee->kind != EX_VAR &&
        e->call.callee->kind != EX_GLOBAL)
      bad(p, e->call.callee, "a callee is not a variable or a global");
    break;
  case EX_IF:
    check_atom(p, e->if_.cond, "an if condition");
    check_block(p, e->if_.then);
    check_block(p, e->if_.els);
    break;
  case EX_MATCH:
    check_atom(p, e->match.scrut, "a match scrutinee");
    for (int i = 0; i < e->match.n; i++)
      check_block(p, e->match.clauses[i].body);
    break;
  case EX_FUNC:
    if (!e->func.primitive)
      check_block(p, e->func.body);
    break;
  case EX_REF_NEW: check_atom(p, e->ref_new.value, "a ref value"); break;
  case EX_REF_READ: check_atom(p, e->ref_read.ref, "a ref_read operand"); break;
  case EX_REF_WRITE:
    check_atom(p, e->ref_write.ref, "a ref_write reference");
    check_atom(p, e->ref_write.value, "a ref_write value");
    break;
  case EX_LET: bad(p, e, "a let is a let's value (not flattened)"); break;
  case EX_VAR:
  case EX_GLOBAL:
  case EX_CONST: break;
  }
}

static void check_block(Post *p, const Expr *e) {
  while (e->kind == EX_LET) {
    ptrmap_put(&p->seen, e, NULL);
    check_value(p, e->let.value);
    e = e->let.body;
  }
  check_atom(p, e, "the result of a block");
}

bool post_to_anf(const Module *m, Diag *d) {
  Post p = {.d = d, .ok = true};
  for (int i = 0; i < m->nfuncs; i++) {
    p.g = m->funcs[i];
    const Expr *f = p.g->func;
    if (f && f->kind == EX_FUNC && !f->func.primitive)
      check_block(&p, f->func.body);
  }
  ptrmap_free(&p.seen);
  return p.ok;
}
