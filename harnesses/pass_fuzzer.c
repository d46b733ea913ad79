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
 *
 * Built with RS_CUSTOM_MUTATOR (the default; CMake option of that name) it
 * also defines libFuzzer's custom mutator and crossover: the span-aware
 * mutator of mutators/mut.h, with libFuzzer's own byte mutation
 * (LLVMFuzzerMutate, which keeps its comparison and dictionary hints) for
 * the leaf choices.  RELAYSMITH_BYTE_MUTATION=1 in the environment turns
 * them back into plain byte mutation, for comparison.  Under AFL++ (the
 * `afl` preset) afl-fuzz uses mutators/afl_mutator.c instead.
 */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "oracle.h"

#ifdef RS_CUSTOM_MUTATOR
#include "mutators/mut.h"
#endif

#ifndef RS_FIXED_PASSES
#define RS_FIXED_PASSES NULL
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

#ifdef RS_CUSTOM_MUTATOR
/* libFuzzer's byte mutator; weak, so engines without it still link (the
 * mutator then uses its own, mut_bytes_builtin). */
size_t LLVMFuzzerMutate(uint8_t *data, size_t size, size_t max_size) __attribute__((weak));

/* Whether RELAYSMITH_BYTE_MUTATION asks for plain byte mutation. */
static bool byte_mutation(void) {
  static int on = -1;
  if (on < 0) {
    const char *v = getenv("RELAYSMITH_BYTE_MUTATION");
    on = v && *v && strcmp(v, "0") != 0;
    if (on)
      fprintf(stderr, "relaysmith: RELAYSMITH_BYTE_MUTATION set: byte mutation only\n");
  }
  return on;
}

static MutOptions mut_options(void) {
  MutOptions o = {gen_policy_get(config.policy), LLVMFuzzerMutate, 0};
  return o;
}

size_t LLVMFuzzerCustomMutator(uint8_t *data, size_t size, size_t max_size, unsigned int seed) {
  if (byte_mutation() && LLVMFuzzerMutate)
    return LLVMFuzzerMutate(data, size, max_size);
  MutOptions o = mut_options();
  return mut_mutate(&o, data, size, data, max_size, seed, NULL);
}

size_t LLVMFuzzerCustomCrossOver(const uint8_t *a, size_t na, const uint8_t *b, size_t nb,
                                 uint8_t *out, size_t max_out, unsigned int seed) {
  if (byte_mutation())
    return 0; /* libFuzzer then picks its default mutations (and their crossover) */
  MutOptions o = mut_options();
  return mut_crossover(&o, a, na, b, nb, out, max_out, seed, NULL);
}
#endif
