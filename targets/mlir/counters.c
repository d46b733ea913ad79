/*
 * counters.c - libFuzzer's extra counters for the MLIR target's semantic
 * features (target_mlir.h).  Linked into mlir_fuzzer only: libFuzzer reads
 * every counter of this section after each input, as it reads its own
 * edge counters, so a new (stage, op), (stage, producer -> op), (stage,
 * changed) or diagnostic is new coverage.
 *
 * RELAYSMITH_MLIR_COUNTERS=0 leaves them at zero (feedback off); with
 * RELAYSMITH_MLIR_STATS=1 the process prints its counts at exit.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "target_mlir.h"

__attribute__((section("__libfuzzer_extra_counters"),
               used)) static uint8_t counters[RS_MLIR_NCOUNTERS];
static bool feedback;

void rs_mlir_count(uint32_t hash) {
  if (feedback)
    counters[hash % RS_MLIR_NCOUNTERS]++;
}

static void print_stats(void) {
  MltTargetStats st = mlt_target_stats();
  fprintf(stderr,
          "relaysmith: mlir: %ld distinct semantic features, %ld refusals, %ld executions "
          "compared, %ld defects (%ld accepted by the verifier) (feedback %s)\n",
          st.features, st.rejected, st.executed, st.defects, st.accepted, feedback ? "on" : "off");
}

__attribute__((constructor)) static void counters_init(void) {
  const char *e = getenv("RELAYSMITH_MLIR_COUNTERS");
  feedback = !(e && strcmp(e, "0") == 0);
  e = getenv("RELAYSMITH_MLIR_STATS");
  if (e && *e && strcmp(e, "0") != 0)
    atexit(print_stats);
}
