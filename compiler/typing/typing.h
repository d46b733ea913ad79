/*
 * typing.h - relayc's type inference: constraint generation, then solving,
 * as in Relay (seeds/001: "Expand type unification").
 *
 * Unknown types are incomplete types, nodes of a union-find.  Unification
 * recurses into tensors, tuples, functions, references and ADTs, with an
 * occurs check (?a = (?a, ?b) is rejected).
 *
 * Polymorphism, as in Relay: every call of a function of polymorphic type
 * (a polymorphic global, or a parameter declared fn [T](T) -> T) and every
 * constructor use is instantiated with fresh incomplete types; a reference
 * @id elsewhere keeps its polymorphic type, and polymorphic function types
 * unify up to renaming their type parameters.  One extension: a
 * polymorphic value where a monomorphic function type is expected (an
 * argument, an annotation, a return) is instantiated, so @map(@id, %xs)
 * checks.
 * Operator relations (op_relate) sit in a queue: a relation that cannot
 * run yet (REL_DEFER) is re-run whenever an incomplete type inside its
 * arguments is refined, until every relation is solved or nothing changes;
 * one left unsolved is an error ("cannot infer the type of ...").  Then
 * every type is resolved recursively.
 *
 * Globals are checked together, so unannotated globals may be recursive:
 * an unannotated parameter or return type is an incomplete type shared by
 * every reference (monomorphic).  A polymorphic global (def @f[A](..))
 * must annotate all its parameters and its return type.  Function literals
 * with type parameters are only allowed as a global's definition.
 *
 * Memory: inference bookkeeping lives in a scratch arena freed at the end
 * of each check; the resolved types stored into Expr.type and Var.type are
 * allocated in the module's arena.  The checker never asserts on bad input:
 * ill-typed and ill-formed programs give an error in the Diag.
 */
#ifndef RELAYC_TYPING_H
#define RELAYC_TYPING_H

#include "compiler/ir/ir.h"
#include "compiler/ops/op.h"

/* The relation used for operator calls; op_relate in normal use.  Tests of
 * the solver can pass their own. */
typedef RelStatus (*TyRelateFn)(OpId op, Type *const *args, int nargs, const Attrs *at, Arena *a,
                                Type **out, char *err, size_t errlen);

/* Infer and check every global function of m.  On success every reachable
 * Expr.type, and Var.type of every bound variable (parameters, let and
 * pattern variables), holds a fully resolved type (no TY_INCOMPLETE); the
 * Expr.type of a global's EX_FUNC, and of each EX_GLOBAL reference to it,
 * is its (possibly polymorphic) function type.
 * On failure returns false with the first error in d; Expr.type and
 * Var.type are then unspecified (stale or NULL, never dangling). */
bool ty_check_module(Module *m, Diag *d);
bool ty_check_module_with(Module *m, Diag *d, TyRelateFn relate);

/* Infer and check one expression in m's context, e.g. a subtree a pass has
 * built.  Free variables take Var.type (from an earlier check) or their
 * annotation; globals take their EX_FUNC's Expr.type, or a signature built
 * from their annotations.  Sets Expr.type and Var.type within e. */
bool ty_check_expr(Module *m, Expr *e, Diag *d);
bool ty_check_expr_with(Module *m, Expr *e, Diag *d, TyRelateFn relate);

/* ------------------------------------------------------ exhaustiveness */

/* Is a match over a scrutinee of (resolved) type scrut exhaustive?  Returns
 * 1 when it is, 0 when not (then, if witness is non-NULL, writes a value
 * pattern that no clause covers, e.g. "Cons(_, Nil)"), and -1 when the
 * check gave up (too many cases).  Patterns are assumed well typed; ones
 * that do not fit the type match nothing.  scratch may be NULL. */
int ty_match_exhaustive(const Clause *clauses, int n, const Type *scrut, Arena *scratch,
                        char *witness, size_t witness_len);

/* ------------------------------------------------------------- prelude */

/* Define the prelude function @name (and the prelude functions it calls)
 * in m, unless already defined; returns it, or NULL for an unknown name or
 * a module that defines its own List, Option or Tree (ir_prelude_hide).
 * All are polymorphic over the prelude types List, Option and Tree, fully
 * annotated, total, and terminate on finite lists and trees. */
GlobalFn *ty_prelude_add(Module *m, const char *name);
/* The names ty_prelude_add knows, for generators: index 0..count-1. */
int ty_prelude_count(void);
const char *ty_prelude_name(int i);

/* ------------------------------------------------------------- erasure */

/* Erasing annotations tests inference itself (the typecheck_fuzzer):
 * erase some annotations of a well-typed module, check it again, and the
 * inferred types must equal the erased ones exactly.
 *
 * Rule (bidirectional): an annotation is erased only where inference is
 * guaranteed to recover it from the rest of the program:
 *  - a let variable, when its value synthesizes its type bottom-up;
 *  - a function literal's parameter, when the literal is in a checking
 *    position whose expected type gives that parameter's type: a call
 *    argument of a known function (a fully annotated monomorphic global,
 *    or a known callee), a polymorphic global's or constructor's argument
 *    whose type parameters are fixed by the other arguments or the
 *    expected result, a let value with an annotated variable, a branch,
 *    a function body or a ref_write value whose type is known;
 *  - a function's return type (literal or non-polymorphic global), when
 *    the context gives it or the body synthesizes it;
 *  - a pattern variable, when the scrutinee's type is known;
 *  - deferred (TY_RECOVER_DEFERRED): a function literal's parameters
 *    when a later use gives them: the literal is called on the spot
 *    (`fn (%p) { .. }(a)`), or bound by a let (whose variable's
 *    annotation may go too) whose body calls the variable, with
 *    arguments whose types are known where the literal stands
 *    (constants, known variables and globals, constructors of types
 *    without parameters, tuples, operator calls, projections and refs
 *    of such).  Inference meets the literal's body before that use, with
 *    unknown parameter types: the operator relations over them wait (on
 *    them, and on whatever unknowns they are merged with) until the call
 *    binds them.
 *  - with Any dims (any annotation of the module has one), only where
 *    every source of the recovered type is at least as static as the
 *    annotation (inference binds an unknown to the first type it meets,
 *    and ty_erasure_verify accepts a more static type, never a less
 *    static one): a let's, where its value's type (from the check before
 *    the erasure) is; a function literal's parameter, where the literal
 *    is called on the spot, bound by a let and only called, or checked
 *    against a let's annotation, each argument (or the annotation's
 *    parameter) is, and the body gives the parameter only to operators
 *    (whose relations wait for the call, merged with other unknowns); a
 *    literal's tensor result, where the body's type is and nothing
 *    unknown reaches the body (every variable in it annotated or bound
 *    inside, no literal in it).  Globals' parameters and results and
 *    pattern variables keep theirs.
 * Synthesis: constants, annotated or recovered variables, fully annotated
 * globals, tuples/refs/operator calls of synthesizing
 * arguments, projections and ref_read of synthesizing operands, an if or
 * match with one synthesizing branch, ref_write (unit), calls of a known
 * function, calls of polymorphic globals and constructors whose type
 * parameters are fixed by synthesizing arguments.  Globals' parameters
 * (so @main's) and polymorphic globals' return types stay.  Each
 * decision relies only on annotations still present or on earlier
 * recovered ones, so together they are recoverable. */
typedef enum TyErasedKind {
  TY_ERASED_LET,    /* var: a let variable's annotation */
  TY_ERASED_PARAM,  /* var: a function literal's parameter */
  TY_ERASED_PATVAR, /* var: a pattern variable's annotation */
  TY_ERASED_RET,    /* func: an EX_FUNC's return annotation */
} TyErasedKind;

typedef struct TyErased {
  TyErasedKind kind;
  Var *var;    /* LET, PARAM, PATVAR */
  Expr *func;  /* RET: the EX_FUNC */
  Type *annot; /* the annotation that was erased */
} TyErased;

typedef struct TyErasure {
  int n;
  TyErased *items; /* in m's arena */
} TyErasure;

#define TY_ERASE_ALL UINT64_MAX

/* What the rule may count on to recover an annotation. */
enum {
  TY_RECOVER_LOCAL = 0,          /* synthesis and the immediate context only */
  TY_RECOVER_DEFERRED = 1u << 0, /* also a later use (the last item above) */
};

/* Erase a pseudo-random subset (drawn from seed; TY_ERASE_ALL: all) of the
 * erasable annotations of m, per the rule above (all of it).  m should
 * have been checked: the types of callees (polymorphic or not) are read
 * from Expr.type; where they are missing the rule only keeps more. */
TyErasure ty_erase_annotations(Module *m, uint64_t seed);
/* The same with only the parts of the rule in recover (TY_RECOVER_*). */
TyErasure ty_erase_annotations_by(Module *m, uint64_t seed, unsigned recover);

#ifdef RS_TEST_PASSES
/* Test build only: a deliberate checker bug (the oracle's
 * -fault=checker_call_rels): at a call of a monomorphic function whose
 * parameter type is still unknown, the relations waiting on it are
 * dropped before the argument binds it.  Only deferred recovery (above)
 * leaves such a parameter unknown until its call. */
extern bool ty_test_fault_call_rels;
#endif
#ifdef RS_TEST_PASSES
/* Test build only: a deliberate checker bug (the oracle's
 * -fault=checker_poly_escape): inside a polymorphic global, a function
 * literal with an unannotated parameter given to a polymorphic global is
 * checked against the callee's own parameter type, not its instance, so
 * a type variable of one global escapes into another.  Only erasure
 * leaves such a parameter unannotated. */
extern bool ty_test_fault_poly_escape;
#endif
#ifdef RS_TEST_PASSES
/* Test build only: a deliberate solver bug (the oracle's
 * -fault=checker_merge_rels): when unification merges two unknown types,
 * the relations waiting on the root that stops being one are forgotten,
 * so binding the merged root later re-runs only the other root's.  Only
 * erasure leaves an operator's argument type unknown long enough for its
 * relation to wait on an unknown that is merged before it is bound. */
extern bool ty_test_fault_merge_rels;
#endif
/* After a successful ty_check_module: is every erased annotation recovered
 * exactly?  The inferred type must equal the annotation, but where the
 * annotation has an Any dim, where it may have any dim, static or Any (at
 * least as static as the annotation: inference may know more than an
 * annotation that widened a type, never less than one that did not).
 * Reports each difference into d. */
bool ty_erasure_verify(const TyErasure *er, Diag *d);
/* Put the erased annotations back. */
void ty_erasure_restore(const TyErasure *er);

#endif
