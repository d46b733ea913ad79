/*
 * custom_mutator.c - libFuzzer's custom mutator and crossover for the
 * generator-driven fuzz targets (pass_fuzzer, pass_fuzzer_<pass>, fusion_fuzzer,
 * typecheck_fuzzer): the span-aware mutator of mutators/mut.h, with
 * libFuzzer's own byte mutation (LLVMFuzzerMutate, with a -dict= given)
 * for the leaf choices.  relayc is built without comparison tracing for
 * these targets (it compares IR values, not input bytes), so the hints it
 * has come from the dictionary and libFuzzer's strcmp/memcmp hooks.
 *
 * RELAYSMITH_BYTE_MUTATION=1 in the environment turns them back into
 * plain byte mutation, for comparison; RELAYSMITH_RANDOM_STREAMS=1 makes
 * every input a fresh random byte string (up to the length limit), so that
 * no feedback steers the search: the baseline of docs/mlir.md's feedback
 * measurement.  So does building with
 * -DRS_CUSTOM_MUTATOR=OFF (the file is then not linked).  Under AFL++
 * afl-fuzz uses mutators/afl_mutator.c instead.
 *
 * A target that decodes with another policy than "default" defines
 * rs_target_policy() to say which.
 */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mutators/mut.h"

/* libFuzzer's byte mutator; weak, so engines without it still link (the
 * mutator then uses its own, mut_bytes_builtin). */
size_t LLVMFuzzerMutate(uint8_t *data, size_t size, size_t max_size) __attribute__((weak));
/* The target's policy name, when it has one. */
const char *rs_target_policy(void) __attribute__((weak));

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

/* Whether RELAYSMITH_RANDOM_STREAMS asks for random inputs. */
static bool random_streams(void) {
  static int on = -1;
  if (on < 0) {
    const char *v = getenv("RELAYSMITH_RANDOM_STREAMS");
    on = v && *v && strcmp(v, "0") != 0;
    if (on)
      fprintf(stderr, "relaysmith: RELAYSMITH_RANDOM_STREAMS set: random inputs, no feedback\n");
  }
  return on;
}

/* A fresh random byte string of 16 to max_size bytes from seed. */
static size_t random_stream(uint8_t *data, size_t max_size, unsigned int seed) {
  uint64_t x = seed * 0x9e3779b97f4a7c15ull + 1;
  size_t n = max_size < 16 ? max_size : 16 + (size_t)(x % (max_size - 15));
  for (size_t i = 0; i < n; i++) {
    x ^= x << 13, x ^= x >> 7, x ^= x << 17;
    data[i] = (uint8_t)x;
  }
  return n;
}

static MutOptions options(void) {
  const GenPolicy *p = rs_target_policy ? gen_policy_get(rs_target_policy()) : NULL;
  MutOptions o = {p ? p : gen_policy_get("default"), LLVMFuzzerMutate, 0};
  return o;
}

size_t LLVMFuzzerCustomMutator(uint8_t *data, size_t size, size_t max_size, unsigned int seed) {
  if (random_streams())
    return random_stream(data, max_size, seed);
  if (byte_mutation() && LLVMFuzzerMutate)
    return LLVMFuzzerMutate(data, size, max_size);
  MutOptions o = options();
  return mut_mutate(&o, data, size, data, max_size, seed, NULL);
}

size_t LLVMFuzzerCustomCrossOver(const uint8_t *a, size_t na, const uint8_t *b, size_t nb,
                                 uint8_t *out, size_t max_out, unsigned int seed) {
  if (random_streams())
    return random_stream(out, max_out, seed);
  if (byte_mutation())
    return 0; /* libFuzzer then picks its default mutations (and their crossover) */
  MutOptions o = options();
  return mut_crossover(&o, a, na, b, nb, out, max_out, seed, NULL);
}
