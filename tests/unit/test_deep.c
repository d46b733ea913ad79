/*
 * Programs at the depth bounds (ir.h: IR_MAX_DEPTH, IR_MAX_NESTING), which
 * the parser, every pass, the type checker, the interpreter and the printer
 * must agree on.  At the bounds, under the sanitizers of the test build,
 * every pass alone and all eight in a row go through the fuzz targets'
 * check (oracle_check: type check, the interpreter before and after, the
 * round trip through the printer and the parser, the postconditions):
 *   - a let chain as long as IR_MAX_DEPTH allows;
 *   - a chain of graph bindings (calls) as deep as IR_MAX_NESTING allows;
 *   - a chain of graph bindings that cycles through calls, tuples,
 *     projections, ifs, matches and closures, as deep as allowed.
 * Nothing may fail; a pass whose output goes beyond a bound (to_gnf makes
 * the let chain one nested expression) is refused with the bound's
 * message, never a crash.  One level more than each bound is a parse
 * error that names it.
 */
#include <stdlib.h>
#include <string.h>

#include "targets/targets.h"
#include "test.h"

/* The production passes (the PASS rows of passes.def). */
static const char *const all_passes[] = {
#define PASS(name, allow, policy, desc) #name,
#define TEST_PASS(name, allow, policy, desc)
#include "compiler/passes/passes.def"
#undef PASS
#undef TEST_PASS
};
enum { NPASSES = sizeof all_passes / sizeof *all_passes };

/* A growing string. */
typedef struct Text {
  char *s;
  size_t n, cap;
} Text;

static void put(Text *t, const char *s) {
  size_t k = strlen(s);
  if (t->n + k + 1 > t->cap) {
    t->cap = 2 * (t->n + k + 1);
    t->s = realloc(t->s, t->cap);
  }
  memcpy(t->s + t->n, s, k + 1);
  t->n += k;
}

/* @main with n steps: let %xI = add(%xI-1, 1f); ... */
static char *let_chain(int n) {
  Text t = {0};
  char line[96];
  put(&t, "def @main(%x0: float32) -> float32 {\n");
  for (int i = 1; i <= n; i++) {
    snprintf(line, sizeof line, "  let %%x%d = add(%%x%d, 1f);\n", i, i - 1);
    put(&t, line);
  }
  snprintf(line, sizeof line, "  %%x%d\n}\n", n);
  put(&t, line);
  return t.s;
}

/* @main with n graph bindings, step i of form[i % nforms] on %I-1 (the
 * first on %x); each form has one %s for the previous step. */
static char *graph_chain(int n, const char *const *form, int nforms) {
  Text t = {0};
  char prev[32] = "%x", line[256];
  put(&t, "def @main(%x: float32) -> float32 {\n");
  for (int i = 0; i < n; i++) {
    char step[192];
    snprintf(step, sizeof step, form[i % nforms], prev);
    snprintf(line, sizeof line, "  %%%d = %s;\n", i, step);
    put(&t, line);
    snprintf(prev, sizeof prev, "%%%d", i);
  }
  snprintf(line, sizeof line, "  %s\n}\n", prev);
  put(&t, line);
  return t.s;
}

static const char *const calls[] = {"add(%s, 1f)"};
static const char *const mixed[] = {
    "add(%s, 1f)",
    "(%s, 1f).0",
    "if (True) { %s } else { 0f }",
    "match (Some(%s)) { Some(%%v) => %%v, None => 0f }",
    "fn (%%y: float32) { %%y }(%s)",
    "negative(%s)",
};

/* The parsed program, or NULL with the error in why. */
static Module *parse(const char *text, char *why, size_t n) {
  Diag d;
  diag_init(&d, "deep", text);
  Module *m = ir_parse_module(text, strlen(text), "deep", &d);
  snprintf(why, n, "%s", d.text ? d.text : "");
  diag_free(&d);
  return m;
}

static Module *make(void *ctx) {
  char why[8];
  return parse(ctx, why, sizeof why);
}

/* Each pass alone, then all of them in a row, on text: nothing fails,
 * and a refusal is a depth bound's. */
static void run_passes(const char *name, const char *text) {
  char list[512];
  for (int i = 0; i <= NPASSES; i++) {
    if (i < NPASSES) {
      snprintf(list, sizeof list, "%s", all_passes[i]);
    } else {
      size_t n = 0;
      for (int k = 0; k < NPASSES && n < sizeof list; k++)
        n += (size_t)snprintf(list + n, sizeof list - n, "%s%s", k ? "," : "", all_passes[k]);
    }
    OracleHarness h;
    OracleConfig c;
    char err[1024];
    rs_harness_get("pass_fuzzer", &h);
    oracle_init(&c, &h, 0, NULL, err, sizeof err);
    c.fixed = true;
    CHECK(target_relayc.parse_pipeline(list, &c.pipeline, err, sizeof err));
    Verdict v;
    bool ok = oracle_check(&c, &(OracleInput){.make = make, .ctx = (void *)text, .seed = 1}, &v);
    CHECK_MSG(ok, "%s, %s: oracle %s failed: %s", name, list, v.oracle ? v.oracle : "",
              v.detail ? v.detail : "");
    CHECK_MSG(!v.rejected || (v.reject_diag && strstr(v.reject_diag, "(IR_MAX_")), "%s, %s: %s",
              name, list, v.reject_diag ? v.reject_diag : "");
    printf("%s, %s: %s%s\n", name, list, v.rejected ? "refused after " : "ok",
           v.rejected ? c.pipeline.stage[v.stage].name : "");
    verdict_free(&v);
  }
}

/* The deepest program of a family the parser takes: build(n) for n from
 * start up, until the parser refuses one, which must name the bound; the
 * last one taken must be at the bound (height or nesting), within slack. */
static char *deepest(const char *name, char *(*build)(int, const char *const *, int),
                     const char *const *form, int nforms, int start, bool height, int slack) {
  char why[512];
  char *text = NULL;
  IrDepth d = {0, 0};
  for (int n = start;; n++) {
    char *t = build(n, form, nforms);
    Module *m = parse(t, why, sizeof why);
    if (!m) {
      free(t);
      break;
    }
    d = ir_expr_depth(ir_global_get(m, "main")->func);
    ir_module_free(m);
    free(text);
    text = t;
  }
  CHECK_MSG(text, "%s: no program parses: %s", name, why);
  CHECK_MSG(strstr(why, height ? "(IR_MAX_DEPTH" : "(IR_MAX_NESTING"), "%s: one step more: %s",
            name, why);
  CHECK_MSG(height ? d.height == IR_MAX_DEPTH : d.nesting >= IR_MAX_NESTING - slack,
            "%s: the deepest has height %lld, nesting %lld", name, (long long)d.height,
            (long long)d.nesting);
  return text;
}

static char *lets(int n, const char *const *form, int nforms) {
  (void)form, (void)nforms;
  return let_chain(n);
}

int main(void) {
  char *t = deepest("let chain", lets, NULL, 0, IR_MAX_DEPTH - 10, true, 0);
  run_passes("let chain", t);
  /* to_gnf turns the chain into one expression nested as deep: refused. */
  OracleHarness h;
  OracleConfig c;
  char err[1024];
  rs_harness_get("pass_fuzzer", &h);
  oracle_init(&c, &h, 0, NULL, err, sizeof err);
  c.fixed = true;
  target_relayc.parse_pipeline("to_gnf,dead_code", &c.pipeline, err, sizeof err);
  Verdict v;
  CHECK(oracle_check(&c, &(OracleInput){.make = make, .ctx = t, .seed = 1}, &v));
  CHECK_MSG(v.rejected == 1 && v.stage == 0 && strstr(v.reject_diag, "@main nests deeper than") &&
                strstr(v.reject_diag, "(IR_MAX_NESTING"),
            "to_gnf on the let chain: rejected %d at stage %d: %s", v.rejected, v.stage,
            v.reject_diag ? v.reject_diag : "");
  verdict_free(&v);
  free(t);
  t = deepest("call chain", graph_chain, calls, 1, IR_MAX_NESTING - 10, false, 0);
  run_passes("call chain", t);
  free(t);
  t = deepest("mixed chain", graph_chain, mixed, 6, 300, false, 2);
  run_passes("mixed chain", t);
  free(t);
  return test_summary();
}
