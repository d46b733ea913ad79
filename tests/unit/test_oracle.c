/* The oracle library (oracle/oracle.h): its flags, what oracle_init keeps
 * (never a pointer into argv, whose strings may not outlive the call:
 * relaysmith reduce and triage build them in a stack buffer), the pass
 * runner's list parser, and verdicts on real inputs. */
#include <string.h>

#include "compiler/passes/pass.h"
#include "targets/targets.h"
#include "test.h"

static bool init(OracleConfig *c, const char *harness, int argc, char **argv) {
  OracleHarness h;
  char err[2048];
  CHECK(rs_harness_get(harness, &h));
  return oracle_init(c, &h, argc, argv, err, sizeof err);
}

static void policy_outlives_argv(void) {
  OracleConfig c;
  {
    char flag[64];
    strcpy(flag, "-policy=fusion");
    char *argv[] = {"test", flag, NULL};
    CHECK(init(&c, "pass_fuzzer", 2, argv));
    memset(flag, 'z', sizeof flag - 1);
  }
  CHECK(c.policy && strcmp(c.policy->name, "fusion") == 0);
}

static void bad_flags(void) {
  OracleConfig c;
  char *unknown_policy[] = {"test", "-policy=nosuch", NULL};
  CHECK(!init(&c, "pass_fuzzer", 2, unknown_policy));
  char *unknown_pass[] = {"test", "-passes=fold_constant,nosuch", NULL};
  CHECK(!init(&c, "pass_fuzzer", 2, unknown_pass));
  char *fixed[] = {"test", "-passes=dead_code", NULL};
  CHECK(!init(&c, "pass_fuzzer_fuse_ops", 2, fixed));
  char *typecheck[] = {"test", "-passes=dead_code", NULL};
  CHECK(!init(&c, "typecheck_fuzzer", 2, typecheck));
  char *good[] = {"test", "-passes=fold_constant,dead_code", NULL};
  CHECK(init(&c, "pass_fuzzer", 2, good));
  CHECK(c.pipeline.n == 2 && strcmp(c.pipeline.stage[1].name, "dead_code") == 0);
  CHECK(strcmp(c.policy->name, "mix") == 0);
  OracleHarness h;
  CHECK(!rs_harness_get("pass_fuzzer_nosuch", &h));
  CHECK(!rs_harness_get("nosuch_fuzzer", &h));
}

/* A binary's own policy (fusion_fuzzer's, a pass_fuzzer_<pass>'s: its
 * pass's) is the default; -policy= overrides it. */
static void preset_policy(void) {
  OracleConfig c;
  char *none[] = {"test", NULL};
  CHECK(init(&c, "fusion_fuzzer", 1, none));
  CHECK(strcmp(c.policy->name, "fusion") == 0);
  char *flag[] = {"test", "-policy=default", NULL};
  CHECK(init(&c, "fusion_fuzzer", 2, flag));
  CHECK(strcmp(c.policy->name, "default") == 0);
  CHECK(init(&c, "pass_fuzzer_inline", 1, none));
  CHECK(c.fixed && c.pipeline.n == 1 && strcmp(c.pipeline.stage[0].name, "inline") == 0);
  CHECK(strcmp(c.policy->name, "inline") == 0);
  CHECK(init(&c, "pass_fuzzer_inline", 2, flag));
  CHECK(strcmp(c.policy->name, "default") == 0);
  static const char *const pairs[][2] = {
      {"fold_constant", "fold"},
      {"dead_code", "dead"},
      {"eliminate_common_subexpr", "cse"},
      {"simplify_expr", "simplify"},
      {"to_anf", "scopes"},
      {"to_gnf", "scopes"},
      {"fuse_ops", "fusion"},
      {"bad_fold_swap", "default"},
  };
  for (size_t i = 0; i < sizeof pairs / sizeof *pairs; i++) {
    char name[64];
    snprintf(name, sizeof name, "pass_fuzzer_%s", pairs[i][0]);
    CHECK(init(&c, name, 1, none));
    CHECK_MSG(strcmp(c.policy->name, pairs[i][1]) == 0, "%s decodes with %s", name, c.policy->name);
  }
  CHECK(init(&c, "pass_fuzzer", 1, none));
  CHECK(strcmp(c.policy->name, "mix") == 0 && c.pipeline.n == 0);
}

/* Contracts: every relayc pass promises exactness (pass.h says why none
 * needs an allowance), the relayc target hands that on as TgStage.allow,
 * with the one rule every relayc pass shares (a pure expression's failing
 * run-time check may go with it: docs/interpreter.md), and -allow= adds
 * allowances to every stage. */
static void contracts(void) {
  for (int i = 0; i < pass_count; i++)
    CHECK_MSG(pass_table[i].allow == PASS_EXACT, "%s", pass_table[i].name);
  OracleConfig c;
  char *passes[] = {"test", "-passes=fold_constant,fuse_ops", NULL};
  CHECK(init(&c, "pass_fuzzer", 2, passes));
  CHECK(c.allow == 0 && c.pipeline.stage[0].allow == TG_ALLOW_DROP_CHECKS &&
        c.pipeline.stage[1].allow == TG_ALLOW_DROP_CHECKS);
  char *allow[] = {"test", "-allow=signed_zero,effects", "-allow=float", NULL};
  CHECK(init(&c, "pass_fuzzer", 3, allow));
  CHECK(c.allow == (TG_ALLOW_SIGNED_ZERO | TG_ALLOW_EFFECTS | TG_ALLOW_FLOAT));
  char buf[256];
  oracle_describe(&c, buf, sizeof buf);
  CHECK_STR(buf, "policy mix, passes: chosen by each input's header, allow: "
                 "float,signed_zero,effects");
  OracleHarness h;
  char err[512];
  CHECK(rs_harness_get("pass_fuzzer", &h));
  char *bad[] = {"test", "-allow=float,nosuch", NULL};
  CHECK(!oracle_init(&c, &h, 2, bad, err, sizeof err));
  CHECK_STR(err, "-allow=float,nosuch: unknown allowance 'nosuch'; valid: float signed_zero "
                 "error_to_value drop_reads effects");
  char *empty[] = {"test", "-allow=", NULL};
  CHECK(!oracle_init(&c, &h, 2, empty, err, sizeof err));
}

/* pass_parse_list: the one parser of pass lists. */
static void pass_lists(void) {
  const PassInfo *p[4];
  int n;
  char err[1024];
  CHECK(pass_parse_list("inline,to_anf", p, 4, &n, err, sizeof err) && n == 2);
  CHECK(p[0] == pass_lookup("inline", 6));
  static const char *const bad[] = {"",
                                    ",",
                                    "inline,",
                                    ",inline",
                                    "inline,,to_anf",
                                    "nosuch",
                                    "inline,inline,inline,inline,inline"};
  for (size_t i = 0; i < sizeof bad / sizeof *bad; i++)
    CHECK_MSG(!pass_parse_list(bad[i], p, 4, &n, err, sizeof err) && err[0], "'%s' accepted",
              bad[i]);
  CHECK(!pass_parse_list("nosuch", p, 4, &n, err, sizeof err) && strstr(err, "fold_constant"));
}

/* The empty input passes every pass; a verdict is clean and frees. */
static void clean_verdicts(void) {
  OracleConfig c;
  char *none[] = {"test", NULL};
  static const char *const harnesses[] = {"pass_fuzzer", "fusion_fuzzer", "typecheck_fuzzer",
                                          "pass_fuzzer_fuse_ops"};
  const uint8_t bytes[] = {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 7, 3, 9, 1, 4, 4};
  for (size_t i = 0; i < sizeof harnesses / sizeof *harnesses; i++) {
    CHECK(init(&c, harnesses[i], 1, none));
    for (size_t n = 0; n <= sizeof bytes; n += 11) {
      Verdict v;
      CHECK_MSG(oracle_check(&c, &(OracleInput){.data = bytes, .size = n}, &v), "%s: %s: %s",
                harnesses[i], v.oracle, v.detail ? v.detail : "");
      CHECK(!v.failed && !v.before && !v.after);
      verdict_free(&v);
    }
  }
}

#ifdef RS_TEST_PASSES
/* OracleInput.make for a program given as text. */
static Module *parse_text(void *ctx) {
  const char *t = ctx;
  Diag d;
  diag_init(&d, "test", t);
  Module *m = ir_parse_module(t, strlen(t), "test", &d);
  diag_free(&d);
  return m;
}

/* A wrong pass: the verdict names the pass and the oracle and holds the
 * programs before and after; the report is in the format tools parse. */
static void failing_verdict(void) {
  OracleConfig c;
  char *argv[] = {"test", "-passes=bad_fold_swap", NULL};
  CHECK(init(&c, "pass_fuzzer", 2, argv));
  /* subtract(const, exp(0)) folds into add: a different result. */
  static const char text[] = "#[version = \"0.0.5\"]\n"
                             "def @main() -> Tensor[(3, 1), float32] {\n"
                             "  let %x: float32 = exp(0f);\n"
                             "  subtract(Tensor[(3, 1), float32]([[0], [0], [0]]), %x)\n"
                             "}\n";
  Verdict v;
  CHECK(!oracle_check(&c, &(OracleInput){.make = parse_text, .ctx = (void *)text}, &v));
  CHECK(v.failed && v.stage == 0 && strcmp(v.oracle, "result") == 0);
  CHECK(v.before && strstr(v.before, "subtract(") && v.after && strstr(v.after, "add("));
  char *report = NULL;
  size_t len = 0;
  FILE *f = open_memstream(&report, &len);
  oracle_report(f, &c, &v, "./pass_fuzzer -passes=bad_fold_swap ./crash-1");
  fclose(f);
  CHECK(strstr(report, "\npass:    bad_fold_swap (pass 1 of 1: bad_fold_swap)\n"));
  CHECK(strstr(report, "\noracle:  result (the interpreter's result differs"));
  CHECK(strstr(report, "--- program before bad_fold_swap:\n#[version"));
  /* The command that reproduces it is the report's last line. */
  static const char last[] = "\nreproduce: ./pass_fuzzer -passes=bad_fold_swap ./crash-1\n"
                             "==relaysmith== end of report\n";
  CHECK(strlen(report) > sizeof last && !strcmp(report + strlen(report) - strlen(last), last));
  free(report);
  verdict_free(&v);
}

/* What the rules before contracts let through, now found (by the result
 * or the effects oracle), and let through again by the one allowance that
 * covers it. */
static void exact_verdicts(void) {
  static const struct {
    const char *pass, *oracle, *allow, *text;
  } cases[] = {
      /* -(+0) is -0, 0 - (+0) is +0 */
      {"bad_neg_sub", "result", "signed_zero", "def @main() -> float32 { negative(0f) }"},
      /* (1.1 + 2.2) + 3.3 is 6.6000004 in float32, 1.1 + (2.2 + 3.3) 6.5999999 */
      {"bad_reassoc", "result", "float", "def @main() -> float32 { add(add(1.1f, 2.2f), 3.3f) }"},
      /* no clause matches Some(1): an error, until None becomes _ */
      {"bad_match_wild", "result", "error_to_value",
       "def @main() -> int32 { match? (Some(1)) { None => 2 } }"},
      /* a write to an input ref, which the caller sees, is dropped */
      {"bad_dse", "effects", "effects",
       "def @main(%r: Ref[int32]) -> () { let %u: () = ref_write(%r, 1); () }"},
  };
  for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
    char text[512], passes[64], allow[64];
    snprintf(text, sizeof text, "#[version = \"0.0.5\"]\n%s\n", cases[i].text);
    snprintf(passes, sizeof passes, "-passes=%s", cases[i].pass);
    snprintf(allow, sizeof allow, "-allow=%s", cases[i].allow);
    char *argv[] = {"test", passes, allow, NULL};
    OracleConfig c;
    CHECK(init(&c, "pass_fuzzer", 2, argv));
    Verdict v;
    OracleInput in = {.make = parse_text, .ctx = text};
    CHECK_MSG(!oracle_check(&c, &in, &v) && strcmp(v.oracle, cases[i].oracle) == 0, "%s: %s",
              cases[i].pass, v.failed ? v.oracle : "not found");
    verdict_free(&v);
    CHECK(init(&c, "pass_fuzzer", 3, argv));
    CHECK_MSG(oracle_check(&c, &in, &v), "%s with %s: %s: %s", cases[i].pass, allow, v.oracle,
              v.detail ? v.detail : "");
    verdict_free(&v);
  }
}
#endif

int main(void) {
  preset_policy();
  policy_outlives_argv();
  bad_flags();
  pass_lists();
  contracts();
  clean_verdicts();
#ifdef RS_TEST_PASSES
  failing_verdict();
  exact_verdicts();
#endif
  return test_summary();
}
