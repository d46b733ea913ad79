/*
 * fuzz_target.c - every generator-driven fuzz target: a thin wrapper that
 * checks each input with the oracle (oracle/oracle.h) and, on a failure,
 * prints the report and aborts so libFuzzer saves the input.
 *
 * Built with -DRS_HARNESS="name" once per binary (harnesses/targets.cmake);
 * the name says what it checks (targets/targets.c):
 *   ./pass_fuzzer -max_total_time=3600                 passes chosen per input
 *   ./pass_fuzzer -passes=fold_constant,dead_code      a fixed sequence
 *   ./pass_fuzzer -ignore_remaining_args=1 -passes=…   (kept by -jobs/-fork)
 *   ./pass_fuzzer_inline                               one pass, built in
 *   ./fusion_fuzzer, ./typecheck_fuzzer, ./reject_fuzzer
 *   ./pass_fuzzer crash-<sha1>                         reproduce a report
 *
 * Linked with harnesses/custom_mutator.c (CMake option RS_CUSTOM_MUTATOR,
 * on by default) it mutates with the span-aware mutator.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "targets/targets.h"

#ifndef RS_HARNESS
#error "build with -DRS_HARNESS=\"<fuzz target name>\""
#endif

static OracleConfig config;

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
  OracleHarness h;
  char err[2048];
  if (!rs_harness_get(RS_HARNESS, &h)) {
    fprintf(stderr, "relaysmith: no fuzz target named %s\n", RS_HARNESS);
    exit(2);
  }
  if (!oracle_init(&config, &h, *argc, *argv, err, sizeof err)) {
    fprintf(stderr, "relaysmith: %s\n", err);
    exit(2);
  }
  oracle_describe(&config, err, sizeof err);
  fprintf(stderr, "relaysmith: %s\n", err);
#ifdef RS_AFL_DRIVER
  drop_our_flags(argc, *argv);
#endif
  return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  Verdict v;
  if (!oracle_check(&config, &(OracleInput){.data = data, .size = size}, &v)) {
    oracle_report(stderr, &config, &v);
    abort();
  }
  verdict_free(&v);
  return 0;
}

/* The policy the custom mutator decodes with (harnesses/custom_mutator.c). */
const char *rs_target_policy(void) {
  return config.policy ? config.policy->name : NULL;
}
