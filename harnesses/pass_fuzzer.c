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
 * per-pass binary ClusterFuzzLite runs with its own corpus; built with
 * -DRS_POLICY="fusion" it is fusion_fuzzer, all passes on the fusion
 * policy's programs (-policy= still overrides it).
 *
 * Linked with harnesses/custom_mutator.c (CMake option RS_CUSTOM_MUTATOR,
 * on by default) it mutates with the span-aware mutator.
 */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "oracle.h"

#ifndef RS_FIXED_PASSES
#define RS_FIXED_PASSES NULL
#endif

#ifndef RS_POLICY
#define RS_POLICY NULL
#endif

static OracleConfig config = {.policy = RS_POLICY};

#ifdef RS_AFL_DRIVER
/* AFL++'s libFuzzer driver reads argv after this function and takes a
 * lone "-passes=..." for an iteration count: drop our flags (its own
 * arguments are files to run, or a count). */
static void drop_our_flags(int *argc, char **argv) {
  static const char *ours[] = {"-passes=", "--passes=", "-policy=", "-fault="};
  int k = 1;
  for (int i = 1; i < *argc; i++) {
    bool mine = false;
    for (size_t j = 0; j < sizeof ours / sizeof *ours; j++)
      mine |= strncmp(argv[i], ours[j], strlen(ours[j])) == 0;
    if (!mine)
      argv[k++] = argv[i];
  }
  argv[k] = NULL;
  *argc = k;
}
#endif

int LLVMFuzzerInitialize(int *argc, char ***argv) {
  if (!oracle_init(&config, *argc, *argv, RS_FIXED_PASSES))
    exit(2);
#ifdef RS_AFL_DRIVER
  drop_our_flags(argc, *argv);
#endif
  return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  oracle_run(&config, data, size);
  return 0;
}

/* The policy the custom mutator decodes with (harnesses/custom_mutator.c). */
const char *rs_target_policy(void) {
  return config.policy;
}
