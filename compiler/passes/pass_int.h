/*
 * pass_int.h - helpers shared by the optimisation passes: the purity
 * judgement every pass uses to decide what may be dropped, merged or
 * moved, per-node memo maps, and small builders that keep .type set.
 * Internal to compiler/passes.
 */
#ifndef RELAYC_PASS_INT_H
#define RELAYC_PASS_INT_H

#include "compiler/ir/ir.h"
#include "compiler/ir/ptrmap.h"

/* Memoised purity: an expression is pure when evaluating it can have no
 * effect and cannot fail or diverge, so it may be dropped or evaluated at
 * another time.  Impure: ref_new, ref_read, ref_write, a call of anything
 * but an operator or constructor (closures may do all of these, and may
 * not terminate), and a match that is not provably exhaustive.  A function
 * literal is pure whatever its body: making a closure runs nothing. */
typedef struct PurityMemo {
  PtrMap map; /* Expr* -> 1 pure, 2 impure */
} PurityMemo;

bool pass_is_pure(PurityMemo *pm, const Expr *e);
void pass_purity_free(PurityMemo *pm);

/* True when the clauses of match e cover every value of the scrutinee: one
 * clause is irrefutable, or every constructor of the scrutinee's type has
 * a clause whose sub-patterns are all irrefutable. */
bool pass_match_exhaustive(const Expr *e);

/* True when p matches every value of its type (wildcard, variable, or a
 * tuple of irrefutable patterns). */
bool pass_pat_irrefutable(const Pattern *p);

/* A shallow copy of e with its own child arrays (tuple fields, call
 * arguments, match clauses), so the copy's children can be replaced
 * without touching e. */
Expr *pass_clone(Module *m, const Expr *e);

/* ---- keeping the output inferable
 * Type inference must still determine every type after a pass.  A type
 * may have been determined only through code the pass drops (a folded
 * if's other branch, a dead let's value, an inlined function's return
 * annotation): e.g. in `if (False) { Cons(1f, Nil) } else { Nil }` the
 * else branch's Nil gets its element type from the then branch.  Passes
 * therefore pin what dropped code determined:
 *   pass_pin_refs(d)  before dropping d: every variable d uses whose binder
 *                     has no annotation gets its inferred type (Var.type)
 *                     as annotation, and every global d references gets
 *                     its missing parameter and return annotations;
 *   pass_pin_expr(m, e, t)  for an expression e that replaces one of type
 *                     t in a context it no longer shares (the branch
 *                     taken, an inlined body): e itself when it still
 *                     infers to t on its own (ty_check_expr), else
 *                     `let %pin: t = e; %pin`. */
void pass_pin_refs(Expr *dropped);
Expr *pass_pin_expr(Module *m, Expr *e, Type *t);

/* A constant expression node with .type set. */
Expr *pass_const(Module *m, Tensor *t);

/* A tensor copied into the module's arena. */
Tensor *pass_tensor_copy(Module *m, const Tensor *t);

/* The postcondition checkers' own judgements (post.c), apart from the
 * passes' (pass_is_pure): no pass calls them.
 *   post_pure(memo, e)   e is pure as the contract says: no ref operation,
 *                        no call of a closure or global, no match that may
 *                        fail, anywhere but inside a function literal;
 *                        memo (Expr* -> 1 pure, 2 not) is the caller's
 *   post_total_match(e)  match e cannot fail: a clause takes every value,
 *                        or every constructor of the scrutinee's type has
 *                        a clause taking all of its values
 *   post_irrefutable(p)  p matches every value of its type (wildcards,
 *                        variables, tuples of them) */
bool post_pure(PtrMap *memo, const Expr *e);
bool post_total_match(const Expr *e);
bool post_irrefutable(const Pattern *p);

/* Report "in @fn: message" into d (for postcondition checkers). */
void pass_report(Diag *d, const GlobalFn *g, const Expr *at, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

#endif
