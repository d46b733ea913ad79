/*
 * oracle_int.h - what the files of the oracle library share: config.c
 * (the configuration), report.c (verdicts and reports), program.c (the
 * program under check), check.c (the pipeline and oracle_check), front.c
 * and kernel.c (the other checks).  check.c calls the others; no other
 * file calls check.c.
 */
#ifndef RS_ORACLE_INT_H
#define RS_ORACLE_INT_H

#include "oracle.h"

/* config.c: switch the test build's deliberate bugs on or off for a check. */
void oracle_set_faults(const OracleConfig *c);

/* program.c: interpreter budgets for the result oracle.  Generated
 * programs are small; a run that needs more than this is counted as
 * inconclusive rather than slowing every input down. */
extern const EvLimits oracle_limits;
/* The result oracle's budgets under c: oracle_limits with c's fuel. */
EvLimits oracle_limits_of(const OracleConfig *c);
/* The program in, made by the caller or decoded (a generator failure is
 * recorded in v; the spans go to *spans when not NULL). */
Module *oracle_make_program(const OracleConfig *c, const OracleInput *in, Verdict *v,
                            GenSpans *spans);
/* The generated program m is well formed and well typed; false with v
 * failed (oracle "generator", or "relation" found with spans). */
bool oracle_check_generated(Module *m, const GenSpans *spans, Verdict *v);

/* front.c: ORACLE_INFERENCE, erased annotations of in's program must be
 * inferred back exactly. */
bool oracle_check_inference(const OracleConfig *c, const OracleInput *in, Verdict *v);
/* ORACLE_REJECT: in's program with one deliberate defect is rejected with
 * a position inside it, or accepted and sound. */
bool oracle_check_reject(const OracleConfig *c, const OracleInput *in, Verdict *v);

/* kernel.c: ORACLE_KERNEL, one operator call drawn from in, its kernel
 * against the naive one. */
bool oracle_check_kernel(const OracleConfig *c, const OracleInput *in, Verdict *v);
/* The call drawn from in as @main (no @main when the sampler declines). */
Module *oracle_kernel_program(const OracleInput *in);

#endif
