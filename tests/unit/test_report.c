/* The failure report (oracle/report.c) read back: for a verdict of each
 * kind of check, the signature oracle_report_signature reads from what
 * oracle_report printed is the one verdict_signature gives (the known-bug
 * lists of the fuzz targets match the latter, triage buckets by the
 * former). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "targets/targets.h"
#include "test.h"

/* v reported under harness and read back: its signature, checked against
 * verdict_signature's and want. */
static void round_trip(const char *harness, Verdict *v, const char *want) {
  OracleHarness h;
  OracleConfig c;
  char err[512], wrote[512], read[512];
  char *argv[] = {"test", NULL};
  CHECK(rs_harness_get(harness, &h));
  CHECK(oracle_init(&c, &h, 1, argv, err, sizeof err));
  v->check = c.check;
  char *text = NULL;
  size_t len = 0;
  FILE *f = open_memstream(&text, &len);
  oracle_report(f, &c, v, "./fuzzer crash-1");
  fclose(f);
  verdict_signature(v, wrote, sizeof wrote);
  CHECK(oracle_report_signature(text, read, sizeof read));
  CHECK_STR(read, wrote);
  CHECK_STR(read, want);
  free(text);
  verdict_free(v);
}

int main(void) {
  Verdict v = {0};
  CHECK(!oracle_report_signature("relaysmith: no report here\n", (char[64]){0}, 64));

  /* A stage of a pipeline, with the target's key. */
  v.pipeline = (TgPipeline){.n = 2, .stage = {{.name = "fold_constant"}, {.name = "dead_code"}}};
  v.stage = 1;
  verdict_fail(&v, "result", "the result differs", "at $: 1 vs 2");
  v.key = strdup("a key");
  round_trip("pass_fuzzer", &v, "result (the result differs) in pass dead_code: a key");

  /* The generator's output, before any stage. */
  v.stage = -1;
  verdict_fail(&v, "generator", "the program does not type check", NULL);
  round_trip("pass_fuzzer", &v,
             "generator (the program does not type check), the generator's output");

  /* The checks without a pipeline. */
  verdict_fail(&v, "kernel", "the kernel disagrees", "sum");
  v.op = "sum";
  round_trip("kernel_fuzzer", &v, "kernel (the kernel disagrees), kernel sum");
  verdict_fail(&v, "type", "inference fails", NULL);
  round_trip("typecheck_fuzzer", &v, "type (inference fails), type inference");
  verdict_fail(&v, "soundness", "a type fault", "sum: axis");
  snprintf(v.subject, sizeof v.subject, "operator sum");
  round_trip("reject_fuzzer", &v, "soundness (a type fault), rejection, operator sum");
  return test_summary();
}
