/*
 * pass.h - relayc's optimisation passes.  passes.def is the one place that
 * lists them (with their contracts' allow column and their generation
 * policies); this header declares what it expands into.  Each pass lives
 * in <name>.c and has a contract comment at its top (what it requires,
 * what it guarantees).
 *
 * Common contract: a pass receives a well-formed module whose expressions
 * have been type checked (Expr.type set by ty_check_module); it rewrites the
 * module in place, allocating new nodes in m->arena (old nodes may be left
 * unreachable: the arena frees them with the module); it must keep every
 * global function's type, and @main's result and trace of ref effects
 * under the reference interpreter (eval.h) exactly -- floats bit-identical
 * (NaN payloads aside), -0 and +0 apart, a run that fails failing, every
 * ref creation, write and read in the same order with the same values --
 * except for what its contract allows (passes.def's allow column; the pass's
 * own comment says why it needs each allowance, or why none).
 * New nodes may leave .type NULL: pass_run re-checks types after the pass.
 * A pass returns false only for an internal failure, with a message in d.
 * Its postcondition checker reports, into d, where the output breaks the
 * pass's guarantee, and returns false then.
 *
 * Callers name passes in lists ("fold_constant,dead_code"): pass_parse_list
 * is the one parser of such a list, pass_run the one way to run a pass.
 */
#ifndef RELAYC_PASS_H
#define RELAYC_PASS_H

#include "compiler/ir/ir.h"

/* What a pass's contract lets change, beyond which the result and effects
 * oracles compare exactly (targets/relayc maps these to TG_ALLOW_*). */
enum {
  PASS_EXACT = 0,                      /* nothing */
  PASS_ALLOW_FLOAT = 1u << 0,          /* floats within a tolerance (reassociation) */
  PASS_ALLOW_SIGNED_ZERO = 1u << 1,    /* -0 may become +0 and back */
  PASS_ALLOW_ERROR_TO_VALUE = 1u << 2, /* a failing run (match?) may return a value */
  PASS_ALLOW_DROP_READS = 1u << 3,     /* unused ref reads may go */
};

typedef bool (*PassRunFn)(Module *m, Diag *d);
typedef bool (*PassPostFn)(const Module *m, Diag *d);

typedef struct PassInfo {
  const char *name;
  PassRunFn run;
  PassPostFn post;
  bool test_only; /* a TEST_PASS row: the test build's deliberately wrong passes */
  unsigned allow; /* PASS_ALLOW_* */
  const char *desc;
} PassInfo;

/* Every pass's run and checker, from passes.def. */
#define PASS(name, allow, policy, desc)                                                            \
  bool pass_##name(Module *m, Diag *d);                                                            \
  bool post_##name(const Module *m, Diag *d);
#define TEST_PASS PASS
#include "passes.def"
#undef PASS
#undef TEST_PASS

extern const PassInfo pass_table[];
extern const int pass_count;

/* The pass of that name, or NULL. */
const PassInfo *pass_lookup(const char *name, size_t len);

/* Parse a comma-separated list of pass names ("a,b,c") into out[0 .. *n),
 * at most max of them.  False with a message in err for an empty list, an
 * empty name (",a", "a,,b", "a,"), an unknown name (the message lists the
 * valid ones; test-only passes only in the test build) or more than max
 * names. */
bool pass_parse_list(const char *list, const PassInfo **out, int max, int *n, char *err,
                     size_t errlen);

/* The valid pass names, space-separated, into buf (production passes
 * first; test-only ones exist only in the test build). */
void pass_names(char *buf, size_t len);

/* What pass_run found. */
typedef enum PassStatus {
  PASS_OK,
  PASS_FAILED,     /* the pass reported an internal failure */
  PASS_TOO_DEEP,   /* its output is beyond IR_MAX_DEPTH or IR_MAX_NESTING
                      (ir_depth_ok): no bug, but nothing may walk it */
  PASS_ILL_FORMED, /* its output is not well formed (ir_well_formed) */
  PASS_ILL_TYPED,  /* its output does not type check (ty_check_module) */
} PassStatus;

/* Run pass p on m, then check that the output is within the depth bounds
 * (ir_depth_ok), well formed, and type check it again (which sets the types of the nodes
 * the pass made).  The first problem's message goes into d. */
PassStatus pass_run(const PassInfo *p, Module *m, Diag *d);

#endif
