/* The round-trip oracle of relayc's passes (targets/relayc/relayc.c)
 * compares the re-parsed program with the printed one, not only the two
 * texts: a printer that loses something the same way twice (the test
 * build's print_zero_sign writes -0 as 0) prints the same text twice,
 * which the text comparison alone accepts. */
#include <string.h>

#include "targets/targets.h"
#include "test.h"

#ifdef RS_TEST_PASSES
static const char program[] = "#[version = \"0.0.5\"]\n"
                              "def @main(%x: Tensor[(2), float32]) -> Tensor[(2), float32] {\n"
                              "  add(%x, Tensor[(2), float32]([1, -0]))\n"
                              "}\n";

static Module *parse_text(void *ctx) {
  const char *t = ctx;
  Diag d;
  diag_init(&d, "test", t);
  Module *m = ir_parse_module(t, strlen(t), "test", &d);
  diag_free(&d);
  return m;
}

/* What the old oracle checked: print -> parse -> print is the identity.
 * Under the fault it still is; the programs differ in one bit. */
static void text_blind(void) {
  ir_test_print_zero_sign = true;
  Module *m = parse_text((void *)program);
  CHECK(m);
  char *t1 = ir_print_module(m);
  Diag d;
  diag_init(&d, "printed", t1);
  Module *m2 = ir_parse_module(t1, strlen(t1), "printed", &d);
  CHECK(m2);
  char *t2 = ir_print_module(m2);
  CHECK_STR(t1, t2);
  CHECK(!ir_module_alpha_equal(m, m2));
  free(t1);
  free(t2);
  diag_free(&d);
  ir_module_free(m);
  ir_module_free(m2);
  ir_test_print_zero_sign = false;
}

/* The oracle: a pass that leaves the program as it is, with and without
 * the fault. */
static void oracle_sees_it(void) {
  static const char *const faults[] = {NULL, "-fault=print_zero_sign"};
  for (int f = 0; f < 2; f++) {
    OracleHarness h;
    CHECK(rs_harness_get("pass_fuzzer", &h));
    char *argv[] = {"test", "-passes=dead_code", (char *)faults[f], NULL};
    OracleConfig c;
    char err[1024];
    CHECK(oracle_init(&c, &h, f ? 3 : 2, argv, err, sizeof err));
    Verdict v;
    bool ok = oracle_check(&c, &(OracleInput){.make = parse_text, .ctx = (void *)program}, &v);
    if (f == 0) {
      CHECK_MSG(ok, "%s: %s", v.oracle, v.detail ? v.detail : "");
    } else {
      CHECK(!ok && strcmp(v.oracle, "round-trip") == 0);
      CHECK(v.detail && strstr(v.detail, "@main is not alpha-equal"));
      CHECK(v.extra && strstr(v.extra, "[1, 0]"));
    }
    verdict_free(&v);
  }
}

/* A stage that leaves the text as it was skips the parse, not the
 * comparison: here the program changes (+0 becomes -0) after a clean round
 * trip, and prints the same under the fault. */
static void unchanged_text_still_compared(void) {
  static const char zero[] = "#[version = \"0.0.5\"]\n"
                             "def @main() -> float32 {\n"
                             "  0f\n"
                             "}\n";
  ir_test_print_zero_sign = true;
  Module *m = parse_text((void *)zero);
  Verdict v = {0};
  TgProgram *p = target_relayc.load(m, &v);
  CHECK(target_relayc.round_trip(p, &v) && !v.failed);
  Tensor *k = m->funcs[0]->func->func.body->constant;
  CHECK(k->dtype == DT_FLOAT32);
  ((float *)k->data)[0] = -0.0f;
  CHECK(!target_relayc.round_trip(p, &v) && strcmp(v.oracle, "round-trip") == 0);
  target_relayc.unload(p);
  ir_module_free(m);
  verdict_free(&v);
  ir_test_print_zero_sign = false;
}
#endif

int main(void) {
#ifdef RS_TEST_PASSES
  text_blind();
  oracle_sees_it();
  unchanged_text_still_compared();
#endif
  return test_summary();
}
