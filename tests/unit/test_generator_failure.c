/* A failure of the generator met while the mutator makes a mutant leaves
 * an input that reproduces it (mutators/mut.c, oracle/program.c): the
 * mutator's output is then the bytes the generator failed on, and the
 * fuzz target's check, which decodes the way the mutator does (spans on),
 * reports it as the generator's failure.
 *
 * The test build's fault generator_spans makes a generator check fail on
 * `reverse`, but only while spans are recorded: a decode without spans
 * (what the check did before) never sees it. */
#include <string.h>

#include "mutators/mut.h"
#include "targets/targets.h"
#include "test.h"

#ifdef RS_TEST_PASSES
enum { MAXN = 4096 };

/* Whether data makes the generator fail, decoded with or without spans. */
static bool fails(const uint8_t *data, size_t n, bool spans) {
  GenSpans sp = {0};
  char why[256];
  Module *m =
      gen_decode_checked(data, n, gen_policy_get("default"), spans ? &sp : NULL, why, sizeof why);
  ir_module_free(m);
  gen_spans_free(&sp);
  return why[0] != 0;
}

static void handed_over(void) {
  OracleHarness h;
  CHECK(rs_harness_get("pass_fuzzer", &h));
  char *argv[] = {"test", "-fault=generator_spans", NULL};
  OracleConfig c;
  char err[1024];
  CHECK(oracle_init(&c, &h, 2, argv, err, sizeof err));
  gen_test_fault_spans = true;
  MutOptions o = {gen_policy_get("default")};
  /* A parent the generator decodes without failing; its mutants, until
   * one of the mutator's decodes meets the fault. */
  uint8_t parent[MAXN] = {0}, out[MAXN];
  size_t np = 40;
  for (size_t i = 16; i < np; i++)
    parent[i] = (uint8_t)(i * 37);
  CHECK(!fails(parent, np, true));
  int found = 0, mutants = 0;
  for (uint64_t seed = 1; seed <= 3000 && found < 3; seed++) {
    MutInfo info;
    size_t n = mut_mutate(&o, parent, np, out, sizeof out, seed, &info);
    if (!info.failure) {
      mutants++;
      continue;
    }
    found++;
    /* The output is bytes the generator fails on -- with spans only. */
    CHECK(fails(out, n, true));
    CHECK(!fails(out, n, false));
    /* The fuzz target's check reports it, as the generator's failure. */
    Verdict v;
    CHECK(!oracle_check(&c, &(OracleInput){.data = out, .size = n}, &v));
    CHECK(v.failed && strcmp(v.oracle, "generator") == 0 && v.stage == -1);
    CHECK(v.detail && strstr(v.detail, "generator_spans"));
    CHECK(v.before && strstr(v.before, "reverse("));
    verdict_free(&v);
  }
  CHECK_MSG(found == 3, "%d failures handed over", found);
  CHECK(mutants > 0);
  gen_test_fault_spans = false;
}
#endif

int main(void) {
#ifdef RS_TEST_PASSES
  handed_over();
#endif
  return test_summary();
}
