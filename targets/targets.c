/*
 * targets.c - the table of targets and of the fuzz target binaries.
 */
#include <string.h>

#include "compiler/passes/pass.h"
#include "targets.h"

/* target_mlir is weak: only the binaries that link the MLIR runtime
 * (rsmlir: mlir_fuzzer and the relaysmith tool, where MLIR 22 is
 * installed) have it; elsewhere its address is NULL and the MLIR target
 * and mlir_fuzzer do not exist. */
extern const Target target_mlir __attribute__((weak));

static const Target *const targets[] = {&target_relayc, &target_mlir};

const Target *rs_target_get(const char *name) {
  for (size_t i = 0; i < sizeof targets / sizeof *targets; i++)
    if (targets[i] && strcmp(targets[i]->name, name) == 0)
      return targets[i];
  return NULL;
}

const Target *rs_target_at(int i) {
  for (size_t k = 0; k < sizeof targets / sizeof *targets; k++)
    if (targets[k] && i-- == 0)
      return targets[k];
  return NULL;
}

/* Each generator-driven fuzz target (harnesses/targets.cmake builds them
 * all from harnesses/fuzz_target.c). */
static const OracleHarness harnesses[] = {
    /* Passes and policy chosen per input (the mix policy: default or one
     * of the pass policies below, by a header byte). */
    {"pass_fuzzer", ORACLE_PIPELINE, &target_relayc, "mix", NULL},
    /* All passes on the fusion policy's programs. */
    {"fusion_fuzzer", ORACLE_PIPELINE, &target_relayc, "fusion", NULL},
    {"typecheck_fuzzer", ORACLE_INFERENCE, &target_relayc, "default", NULL},
    /* MLIR 22's pipelines, one variant per phase chosen by the header;
     * the differential oracle on one executed input in 4. */
    {"mlir_fuzzer", ORACLE_PIPELINE, &target_mlir, NULL, NULL, 4},
    /* relayc's operator kernels against naive references. */
    {"kernel_fuzzer", ORACLE_KERNEL, &target_relayc, "default", NULL},
    /* Programs with one deliberate defect through relayc's front end. */
    {"reject_fuzzer", ORACLE_REJECT, &target_relayc, "reject", NULL},
};

/* The policy of each pass_fuzzer_<pass> (passes.def's policy column): the
 * one made of the shapes the pass acts on (generator/; the pass's contract
 * comment lists them). */
static const struct {
  const char *pass, *policy;
} pass_policies[] = {
#define PASS(name, allow, policy, desc) {#name, policy},
#define TEST_PASS PASS
#include "compiler/passes/passes.def"
#undef PASS
#undef TEST_PASS
};

const char rs_harness_names[] = "pass_fuzzer, pass_fuzzer_<pass>, fusion_fuzzer, typecheck_fuzzer, "
                                "kernel_fuzzer, reject_fuzzer, mlir_fuzzer (with MLIR 22)";

bool rs_harness_get(const char *name, OracleHarness *h) {
  for (size_t i = 0; i < sizeof harnesses / sizeof *harnesses; i++)
    if (harnesses[i].target && strcmp(harnesses[i].name, name) == 0) {
      *h = harnesses[i];
      return true;
    }
  /* pass_fuzzer_<pass>: pass_fuzzer with that one pass, for a corpus of
   * its own (ClusterFuzzLite runs each). */
  const char *pass = strncmp(name, "pass_fuzzer_", 12) == 0 ? name + 12 : NULL;
  if (!pass || !pass_lookup(pass, strlen(pass)))
    return false;
  *h = harnesses[0];
  h->name = name;
  h->pipeline = pass;
  for (size_t i = 0; i < sizeof pass_policies / sizeof *pass_policies; i++)
    if (strcmp(pass_policies[i].pass, pass) == 0)
      h->policy = pass_policies[i].policy;
  return true;
}
