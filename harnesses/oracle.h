/*
 * oracle.h - the oracle runners shared by the generator-driven fuzz targets
 * (and by `relaysmith reduce` and `triage`, which call them in a child).
 *
 * One input runs: decode (the generator) -> type check (a failure here is a
 * generator bug) -> for each pass in the sequence: the pass, then the
 * oracles
 *   well-formed   ir_well_formed holds after the pass
 *   type          the output type checks, and every global that survives
 *                 keeps its function type (@main must survive)
 *   result        the interpreter's result of @main equals the one before
 *                 the pass (skipped when either run is inconclusive)
 *   round-trip    print -> parse -> print is the identity
 *   postcondition the pass's own checker (post_<pass>) accepts the output
 * and, implicitly, no crash and no sanitizer report.  A failure prints a
 * report on stderr (the pass, the oracle, what differed, the program before
 * and after the pass) and aborts, so libFuzzer saves the input.
 */
#ifndef RS_ORACLE_H
#define RS_ORACLE_H

#include <stddef.h>
#include <stdint.h>

#include "compiler/passes/pass.h"

enum { ORACLE_MAX_PASSES = 16 };

typedef enum OracleFault {
  FAULT_NONE,
  FAULT_PRINT_DROP_ATTR, /* test build only: the printer loses an attribute */
} OracleFault;

typedef struct OracleConfig {
  const PassInfo *passes[ORACLE_MAX_PASSES];
  int npasses;        /* 0: the input's header chooses a sequence */
  const char *policy; /* generator policy name (set before oracle_init:
                       * the default that -policy= overrides) */
  OracleFault fault;
  bool quiet; /* do not print the configuration (oracle_init keeps it) */
} OracleConfig;

/* Parse our flags out of argv (they may stand anywhere, also after
 * -ignore_remaining_args=1, so -jobs/-fork children keep them):
 *   -passes=a,b,c   -policy=NAME   -fault=print_drop_attr (test build)
 * fixed_passes, when not NULL, is the comma-separated list a per-pass
 * binary was built for; c->policy, when set, is the binary's policy.
 * On a bad flag it prints the error and the valid names and returns
 * false. */
bool oracle_init(OracleConfig *c, int argc, char **argv, const char *fixed_passes);

/* Run one input through the configuration; aborts on a failure. */
void oracle_run(const OracleConfig *c, const uint8_t *data, size_t size);

/* typecheck_fuzzer's check: the program decoded from data (default
 * policy) with a seeded subset of its annotations erased must type check
 * and recover exactly the erased types; aborts with a report otherwise. */
void oracle_typecheck(const uint8_t *data, size_t size);

/* The pass sequence an input's header selects when none is configured. */
int oracle_header_passes(const uint8_t *data, size_t size, const PassInfo **out, int max);

#endif
