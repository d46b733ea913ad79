/*
 * pass.h - relayc's optimisation passes.  This is the one place that lists
 * them: PASSES expands into the pass table (pass.c), the per-pass fuzz
 * targets and the documentation.  Each pass lives in <name>.c and has a
 * contract comment at its top (what it requires, what it guarantees).
 *
 * Common contract: a pass receives a well-formed module whose expressions
 * have been type checked (Expr.type set by ty_check_module); it rewrites the
 * module in place, allocating new nodes in m->arena (old nodes may be left
 * unreachable: the arena frees them with the module); it must keep every
 * global function's type and its result under the reference interpreter.
 * New nodes may leave .type NULL: pass_run re-checks types after the pass.
 * A pass returns false only for an internal failure, with a message in d.
 * Its postcondition checker reports, into d, where the output breaks the
 * pass's guarantee, and returns false then.
 */
#ifndef RELAYC_PASS_H
#define RELAYC_PASS_H

#include "../ir/ir.h"

/* PASS(name, test_only) -- run is pass_<name>, checker is post_<name>. */
#define PASSES(X)                                                                                  \
  X(fold_constant, false)                                                                          \
  X(dead_code, false)                                                                              \
  X(eliminate_common_subexpr, false)                                                               \
  X(simplify_expr, false)                                                                          \
  X(inline, false)                                                                                 \
  X(to_anf, false)                                                                                 \
  X(to_gnf, false)                                                                                 \
  X(fuse_ops, false)                                                                               \
  TEST_PASSES(X)

/* Deliberately wrong passes: they exist only in the test build, to prove
 * that every oracle of the harness fires (see tests/). */
#ifdef RS_TEST_PASSES
#define TEST_PASSES(X)                                                                             \
  X(bad_fold_swap, true)                                                                           \
  X(bad_cse_attrs, true)                                                                           \
  X(bad_dce_refwrite, true)                                                                        \
  X(bad_anf, true)
#else
#define TEST_PASSES(X)
#endif

typedef bool (*PassRunFn)(Module *m, Diag *d);
typedef bool (*PassPostFn)(const Module *m, Diag *d);

typedef struct PassInfo {
  const char *name;
  PassRunFn run;
  PassPostFn post;
  bool test_only;
} PassInfo;

#define X(name, test_only)                                                                         \
  bool pass_##name(Module *m, Diag *d);                                                            \
  bool post_##name(const Module *m, Diag *d);
PASSES(X)
#undef X

extern const PassInfo pass_table[];
extern const int pass_count;

/* The pass of that name, or NULL. */
const PassInfo *pass_lookup(const char *name, size_t len);

#endif
