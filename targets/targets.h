/*
 * targets.h - the compilers under test and the fuzz targets built for
 * them.  The oracle (oracle/) knows a target only through target.h; this
 * is the one place that lists them, for the harnesses and the tools.
 */
#ifndef RS_TARGETS_H
#define RS_TARGETS_H

#include "oracle/oracle.h"

extern const Target target_relayc; /* targets/relayc/relayc.c */
extern const Target target_mlir;   /* targets/mlir/target.c: weak, NULL in binaries
                                      without the MLIR runtime (targets.c) */

/* The target named name, or NULL. */
const Target *rs_target_get(const char *name);
/* The i-th of the targets this binary has (0, 1, ...), NULL past the last. */
const Target *rs_target_at(int i);

/* The fuzz target binary named name (pass_fuzzer, pass_fuzzer_<pass>,
 * fusion_fuzzer, typecheck_fuzzer, ...) into *h; false when there is none
 * of that name. */
bool rs_harness_get(const char *name, OracleHarness *h);

/* The harness names, for messages: "pass_fuzzer, pass_fuzzer_<pass>, ...". */
extern const char rs_harness_names[];

#endif
