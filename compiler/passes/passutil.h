/*
 * passutil.h - helpers shared by the optimisation passes: the purity
 * judgement every pass uses to decide what may be dropped, merged or
 * moved, per-node memo maps, and small builders that keep .type set.
 * Internal to compiler/passes.
 */
#ifndef RELAYC_PASSUTIL_H
#define RELAYC_PASSUTIL_H

#include "../ir/ir.h"
#include "../ir/ptrmap.h"

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

/* A constant expression node with .type set. */
Expr *pass_const(Module *m, Tensor *t);

/* A tensor copied into the module's arena. */
Tensor *pass_tensor_copy(Module *m, const Tensor *t);

/* Report "in @fn: message" into d (for postcondition checkers). */
void pass_report(Diag *d, const GlobalFn *g, const Expr *at, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

#endif
