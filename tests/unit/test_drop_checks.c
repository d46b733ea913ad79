/* Passes and checks deferred to run time (docs/interpreter.md, "Checks
 * deferred to run time, and passes"): an operator call with Any dims, or
 * a let's annotation, can fail when it runs; passes treat both as pure,
 * as TVM's do, and may drop an unused one.  The run that failed such a
 * check is marked (EvResult.pure_check), and the result oracle accepts a
 * value after a relayc pass where the run before failed one
 * (EvRules.drop_checks); no other error may become a value, and no value
 * an error. */
#include <string.h>

#include "compiler/eval/eval.h"
#include "compiler/passes/pass.h"
#include "compiler/typing/typing.h"
#include "targets/targets.h"
#include "test.h"

static Module *parse_text(void *ctx) {
  const char *t = ctx;
  Diag d;
  diag_init(&d, "test", t);
  Module *m = ir_parse_module(t, strlen(t), "test", &d);
  CHECK_MSG(m && ty_check_module(m, &d), "%s", d.text);
  diag_free(&d);
  return m;
}

/* %a is (2, 3) and %c (4, 3) at run time, both typed (?, 3): add fails. */
#define WIDEN                                                                                      \
  "#[version = \"0.0.5\"]\n"                                                                       \
  "def @main(%x: Tensor[(2, 3), float32]) -> Tensor[(2, 3), float32] {\n"                          \
  "  let %a: Tensor[(?, 3), float32] = %x;\n"                                                      \
  "  let %c: Tensor[(?, 3), float32] = concatenate((%x, %x), axis=0);\n"

/* An unused operator call whose check fails. */
static const char dead_op[] = WIDEN "  let %d = add(%a, %c);\n"
                                    "  %x\n"
                                    "}\n";
/* An unused let whose annotation its value does not fit. */
static const char dead_annot[] = WIDEN "  let %d: Tensor[(2, 3), float32] = %c;\n"
                                       "  %x\n"
                                       "}\n";
/* A closure's parameter annotation: calls are not pure, nothing drops it. */
static const char param[] = WIDEN "  let %f = fn (%p: Tensor[(4, 3), float32]) { %p };\n"
                                  "  let %d = %f(%a);\n"
                                  "  %x\n"
                                  "}\n";

static EvResult run(const char *text, EvRun **r, Module **m) {
  *m = parse_text((void *)text);
  *r = ev_run_new(NULL);
  return ev_run_main(*r, *m, 1);
}

/* The interpreter marks the checks of pure expressions, and ev_compare
 * lets exactly those become a value under drop_checks. */
static void marks(void) {
  static const struct {
    const char *name, *text;
    bool pure;
  } cs[] = {{"dead op", dead_op, true},
            {"dead annotation", dead_annot, true},
            {"parameter", param, false}};
  for (size_t i = 0; i < sizeof cs / sizeof *cs; i++) {
    EvRun *r, *r2;
    Module *m, *m2;
    EvResult a = run(cs[i].text, &r, &m);
    CHECK_MSG(a.status == EV_ERROR && a.pure_check == cs[i].pure, "%s: status %d, pure %d: %s",
              cs[i].name, a.status, a.pure_check, a.msg);
    /* Any value: @main returns %x either way. */
    static const char ok[] = "#[version = \"0.0.5\"]\n"
                             "def @main(%x: Tensor[(2, 3), float32]) { %x }\n";
    EvResult b = run(ok, &r2, &m2);
    CHECK(b.status == EV_OK);
    char why[256];
    CHECK(ev_compare(&a, &b, NULL, why, sizeof why) == EV_DIFFERENT);
    EvRules drop = {.drop_checks = true};
    CHECK_MSG(ev_compare(&a, &b, &drop, why, sizeof why) == (cs[i].pure ? EV_SAME : EV_DIFFERENT),
              "%s: %s", cs[i].name, why);
    CHECK(ev_compare_effects(&a, &b, &drop, why, sizeof why) == EV_SAME);
    CHECK(ev_compare(&b, &a, &drop, why, sizeof why) == EV_DIFFERENT); /* never value -> error */
    ev_run_free(r);
    ev_run_free(r2);
    ir_module_free(m);
    ir_module_free(m2);
  }
}

/* dead_code drops the unused call and the unused let (as TVM's
 * DeadCodeElimination would), and pass_fuzzer's oracles accept it; the
 * parameter's check stays, and so does the error. */
static void oracle(void) {
  static const char *const texts[] = {dead_op, dead_annot, param};
  static const char *const pipelines[] = {"-passes=dead_code", "-passes=to_gnf",
                                          "-passes=fold_constant,dead_code,fuse_ops"};
  for (size_t i = 0; i < sizeof texts / sizeof *texts; i++)
    for (size_t k = 0; k < sizeof pipelines / sizeof *pipelines; k++) {
      OracleHarness h;
      char err[2048];
      CHECK(rs_harness_get("pass_fuzzer", &h));
      char *argv[] = {"test", (char *)pipelines[k], NULL};
      OracleConfig c;
      CHECK(oracle_init(&c, &h, 2, argv, err, sizeof err));
      Verdict v;
      OracleInput in = {.make = parse_text, .ctx = (void *)texts[i]};
      CHECK_MSG(oracle_check(&c, &in, &v), "program %zu, %s: %s: %s", i, pipelines[k],
                v.oracle ? v.oracle : "", v.detail ? v.detail : "");
      verdict_free(&v);
    }
}

int main(void) {
  marks();
  oracle();
  return test_summary();
}
