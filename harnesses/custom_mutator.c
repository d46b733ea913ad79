/*
 * custom_mutator.c - libFuzzer's custom mutator and crossover for the
 * generator-driven fuzz targets (pass_fuzzer, pass_fuzzer_<pass>, fusion_fuzzer,
 * typecheck_fuzzer): the span-aware mutator of mutators/mut.h, with
 * libFuzzer's own byte mutation (LLVMFuzzerMutate, with a -dict= given)
 * for the leaf choices.  relayc is built without comparison tracing for
 * these targets (it compares IR values, not input bytes), so the hints it
 * has come from the dictionary and libFuzzer's strcmp/memcmp hooks.
 *
 * The target's options (oracle/options.h) choose other modes, for
 * comparison: -byte_mutation=1 turns them back into plain byte mutation
 * (as does building with -DRS_CUSTOM_MUTATOR=OFF: the file is then not
 * linked); -byte_share=N makes one mutation in N a byte mutation;
 * -local_mutation=N tries up to N more times for a mutation that keeps the
 * program outside its span (MutOptions.local); -random_streams=1 makes
 * every input a fresh random byte string (up to the length limit), so that
 * no feedback steers the search: the baseline of docs/mlir.md's feedback
 * measurement.  Under AFL++
 * afl-fuzz uses mutators/afl_mutator.c instead.
 *
 * A target that decodes with another policy than "default" defines
 * rs_target_policy() to say which.  When that policy breaks its programs
 * (generator/breaker.h), one mutation in four changes a break choice
 * instead, so that one program meets many defects.
 */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "compiler/ir/hash.h"
#include "mutators/mut.h"
#include "oracle/options.h"

/* libFuzzer's byte mutator; weak, so engines without it still link (the
 * mutator then uses its own, mut_bytes_builtin). */
size_t LLVMFuzzerMutate(uint8_t *data, size_t size, size_t max_size) __attribute__((weak));
/* The target's policy name, when it has one. */
const char *rs_target_policy(void) __attribute__((weak));
/* The target's options (harnesses/fuzz_target.c), when it has them. */
const RsOptions *rs_target_options(void) __attribute__((weak));

/* The target's options (-byte_mutation=1, ...: oracle/options.h), read
 * once; the defaults without a target that has them. */
static const RsOptions *opts(void) {
  static RsOptions defaults;
  static const RsOptions *o;
  if (!o) {
    o = rs_target_options ? rs_target_options() : NULL;
    if (!o)
      rs_options_default(&defaults), o = &defaults;
    if (o->byte_mutation)
      fprintf(stderr, "relaysmith: -byte_mutation=1: byte mutation only\n");
    if (o->random_streams)
      fprintf(stderr, "relaysmith: -random_streams=1: random inputs, no feedback\n");
  }
  return o;
}

/* A fresh random byte string of 16 to max_size bytes from seed. */
static size_t random_stream(uint8_t *data, size_t max_size, unsigned int seed) {
  uint64_t x = seed;
  uint64_t r = hash_splitmix64(&x);
  size_t n = max_size < 16 ? max_size : 16 + (size_t)(r % (max_size - 15));
  for (size_t i = 0; i < n; i++)
    data[i] = (uint8_t)hash_splitmix64(&x);
  return n;
}

static MutOptions options(void) {
  const GenPolicy *p = rs_target_policy ? gen_policy_get(rs_target_policy()) : NULL;
  MutOptions o = {p ? p : gen_policy_get("default"), LLVMFuzzerMutate, 0, opts()->local_mutation};
  return o;
}

/* A policy with a break stage (generator/breaker.h): one break byte, the
 * choice of the defect, its site or its variant, set to a random value
 * (the bytes before it zero-extended), so the program stays and its
 * defect changes. */
static size_t mutate_break(uint8_t *data, size_t size, size_t max_size, unsigned int seed) {
  size_t i = GEN_HEADER_BYTES + seed % GEN_BREAK_BYTES;
  if (i >= max_size)
    return 0;
  if (size <= i) {
    memset(data + size, 0, i + 1 - size);
    size = i + 1;
  }
  data[i] = (uint8_t)(seed >> 8 ^ seed >> 16);
  return size;
}

size_t LLVMFuzzerCustomMutator(uint8_t *data, size_t size, size_t max_size, unsigned int seed) {
  const RsOptions *op = opts();
  if (op->random_streams)
    return random_stream(data, max_size, seed);
  unsigned share = (unsigned)op->byte_share;
  if (LLVMFuzzerMutate && (op->byte_mutation || (share && seed % share == 0)))
    return LLVMFuzzerMutate(data, size, max_size);
  MutOptions o = options();
  size_t n;
  if (o.policy->breaks && seed % 4 == 0 && (n = mutate_break(data, size, max_size, seed / 4)))
    return n;
  return mut_mutate(&o, data, size, data, max_size, seed, NULL);
}

size_t LLVMFuzzerCustomCrossOver(const uint8_t *a, size_t na, const uint8_t *b, size_t nb,
                                 uint8_t *out, size_t max_out, unsigned int seed) {
  if (opts()->random_streams)
    return random_stream(out, max_out, seed);
  if (opts()->byte_mutation)
    return 0; /* libFuzzer then picks its default mutations (and their crossover) */
  MutOptions o = options();
  return mut_crossover(&o, a, na, b, nb, out, max_out, seed, NULL);
}
