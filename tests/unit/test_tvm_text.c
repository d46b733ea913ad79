/*
 * Relay text written for TVM: every .relay file in tests/tvm is a program
 * in the style of TVM's parser tests (tests/python/relay/test_ir_parser.py:
 * ADTs with match and match?, closures, recursion, refs, sequencing,
 * globals without @main), accepted or rejected as TVM would.  Its lines
 *     // expect: accepted
 *     // expect: error LINE:COL: MESSAGE
 *     // expect: unsupported FEATURE
 *     // eval: RESULT
 * say which: an accepted program parses, type checks and round-trips
 * (print -> parse -> print is the identity, the re-parsed module is
 * alpha-equal), and @main's result is RESULT when given; a rejected one
 * fails to parse, to be well formed or to type check with that error at
 * that position; an unsupported one (a program of TVM's tests that needs
 * what relayc lacks, an operator or a dtype) does not load, and
 * docs/text-format.md lists it by file name with that FEATURE.  The
 * files named after a TVM test (pass_dead_code_elimination.*.relay) hold
 * the text of that test verbatim.
 */
#include <dirent.h>
#include <stdlib.h>

#include "compiler/eval/eval.h"
#include "compiler/typing/typing.h"
#include "test.h"

/* The text after `// key: ` in src, up to the end of its line, or NULL. */
static char *directive(const char *src, const char *key) {
  char pat[64];
  snprintf(pat, sizeof pat, "// %s: ", key);
  const char *at = strstr(src, pat);
  if (!at)
    return NULL;
  at += strlen(pat);
  return strndup(at, strcspn(at, "\n"));
}

/* An accepted program: checked, round-tripped, evaluated. */
static void accepted(const char *path, Module *m, const char *eval) {
  Diag d;
  diag_init(&d, path, NULL);
  CHECK_MSG(ir_well_formed(m, &d) && ty_check_module(m, &d), "%s is rejected:\n%s", path, d.text);
  char *t1 = ir_print_module(m);
  diag_reset(&d);
  Module *m2 = ir_parse_module(t1, strlen(t1), "printed", &d);
  CHECK_MSG(m2, "%s: the printed text does not parse:\n%s\n%s", path, d.text, t1);
  if (m2) {
    char *t2 = ir_print_module(m2);
    CHECK_MSG(strcmp(t1, t2) == 0, "%s: printed twice:\n%s\n---\n%s", path, t1, t2);
    CHECK_MSG(ir_module_alpha_equal(m, m2), "%s: not alpha-equal after a round trip", path);
    free(t2);
    ir_module_free(m2);
  }
  if (eval) {
    EvRun *r = ev_run_new(&ev_default_limits);
    EvResult res = ev_run_main(r, m, 1);
    const char *got = res.status == EV_OK ? ev_print_value(r->arena, res.value) : res.msg;
    CHECK_MSG(res.status == EV_OK && strcmp(got, eval) == 0, "%s: @main gives %s, want %s", path,
              got, eval);
    ev_run_free(r);
  }
  free(t1);
  diag_free(&d);
}

/* docs/text-format.md, read once (NULL when missing). */
static char *docs_text(void) {
  static char *docs;
  size_t len;
  if (!docs)
    docs = test_read_file("docs/text-format.md", &len);
  return docs;
}

/* A program relayc cannot load for the one feature it names: it must not
 * load, and the docs must list it with that feature on its line. */
static void unsupported(const char *path, Module *m, Diag *d, const char *feature) {
  CHECK_MSG(!(m && ir_well_formed(m, d) && ty_check_module(m, d)),
            "%s loads: make it `// expect: accepted` and drop it from docs/text-format.md", path);
  const char *name = strrchr(path, '/') + 1, *docs = docs_text();
  char *pat = malloc(strlen(name) + 3);
  sprintf(pat, "`%s`", name);
  const char *at = docs ? strstr(docs, pat) : NULL;
  size_t line = at ? strcspn(at, "\n") : 0;
  char *l = at ? strndup(at, line) : NULL;
  CHECK_MSG(l && strstr(l, feature), "%s: docs/text-format.md has no line listing %s with `%s`",
            path, pat, feature);
  free(l);
  free(pat);
}

static void run_file(const char *path) {
  size_t len;
  char *src = test_read_file(path, &len);
  CHECK_MSG(src, "cannot read %s", path);
  if (!src)
    return;
  char *expect = directive(src, "expect"), *eval = directive(src, "eval");
  CHECK_MSG(expect, "%s: no `// expect:` line", path);
  Diag d;
  diag_init(&d, path, src);
  Module *m = ir_parse_module(src, len, path, &d);
  if (expect && strcmp(expect, "accepted") == 0) {
    CHECK_MSG(m, "%s does not parse:\n%s", path, d.text);
    if (m)
      accepted(path, m, eval);
  } else if (expect && strncmp(expect, "unsupported ", 12) == 0) {
    unsupported(path, m, &d, expect + 12);
  } else if (expect && strncmp(expect, "error ", 6) == 0) {
    if (m && ir_well_formed(m, &d) && ty_check_module(m, &d)) {
      CHECK_MSG(false, "%s: accepted, want %s", path, expect);
    } else {
      char want[512];
      snprintf(want, sizeof want, "%s:%.*s error:%s", path, (int)strcspn(expect + 6, " "),
               expect + 6, expect + 6 + strcspn(expect + 6, " "));
      CHECK_MSG(d.text && strstr(d.text, want), "%s: want %s, got:\n%s", path, want, d.text);
    }
  } else {
    CHECK_MSG(false, "%s: bad expectation '%s'", path, expect ? expect : "");
  }
  ir_module_free(m);
  diag_free(&d);
  free(expect);
  free(eval);
  free(src);
}

int main(void) {
  DIR *dir = opendir("tests/tvm");
  CHECK_MSG(dir, "no tests/tvm (run from the source root)");
  int n = 0;
  for (struct dirent *e; dir && (e = readdir(dir));) {
    size_t l = strlen(e->d_name);
    if (l < 7 || strcmp(e->d_name + l - 6, ".relay") != 0)
      continue;
    char path[512];
    snprintf(path, sizeof path, "tests/tvm/%s", e->d_name);
    run_file(path);
    n++;
  }
  if (dir)
    closedir(dir);
  CHECK_MSG(n >= 120, "only %d programs in tests/tvm", n);
  free(docs_text());
  return test_summary();
}
