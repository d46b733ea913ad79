/*
 * pass_fuzzer.c - the main fuzz target: generated programs through relayc's
 * passes, checked by the oracles after every pass (oracle.h).
 *
 *   ./pass_fuzzer -max_total_time=3600                 passes chosen per input
 *   ./pass_fuzzer -passes=fold_constant,dead_code      a fixed sequence
 *   ./pass_fuzzer -ignore_remaining_args=1 -passes=…   (kept by -jobs/-fork)
 *   ./pass_fuzzer crash-<sha1>                         reproduce a report
 *
 * Built with -DRS_FIXED_PASSES="name" it is pass_fuzzer_<name>, the
 * per-pass binary ClusterFuzzLite runs with its own corpus.
 */
#include <stdio.h>
#include <stdlib.h>

#include "oracle.h"

#ifndef RS_FIXED_PASSES
#define RS_FIXED_PASSES NULL
#endif

static OracleConfig config;

int LLVMFuzzerInitialize(int *argc, char ***argv) {
  if (!oracle_init(&config, *argc, *argv, RS_FIXED_PASSES))
    exit(2);
  return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  oracle_run(&config, data, size);
  return 0;
}
