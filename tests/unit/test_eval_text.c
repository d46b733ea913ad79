/*
 * Interpreter golden tests in the text format: every .relay file in tests/eval is
 * parsed, checked (well formed, well typed), and each line
 *     // eval @name [fuel=N] [seed=N]: expected
 * calls @name and compares the printed result (ev_print_value, or
 * "<status>: <message>") with the expectation, QBE style: the expected
 * output sits in the file next to the program.  A global with parameters
 * gets ev_make_args values from the seed (default 1).  Each call is run
 * twice to check that results are bit-identical.
 */
#include <dirent.h>
#include <stdlib.h>

#include "compiler/eval/eval.h"
#include "compiler/typing/typing.h"
#include "test.h"

/* Run @name once; the printed result, allocated in run's arena. */
static char *run_once(EvRun *r, GlobalFn *g, uint64_t seed, EvResult *res) {
  Type *t = ev_func_type(r->arena, g->func);
  int n = t ? t->func.nparams : 0;
  EvValue **args = ARENA_ARRAY(r->arena, EvValue *, n);
  if (t && ev_make_args(r, t, seed, args))
    *res = ev_call_global(r, g, n, args);
  else
    *res = (EvResult){r->status, NULL, r->msg};
  if (res->status != EV_OK)
    return arena_printf(r->arena, "%s: %s", ev_status_name(res->status), res->msg);
  return ev_print_value(r->arena, res->value);
}

/* Check one `// eval` line (text after "// eval @"). */
static void check_line(Module *m, const char *path, int lineno, const char *spec) {
  char name[128];
  int k = 0;
  while (spec[k] && spec[k] != ' ' && spec[k] != ':' && k < 127)
    name[k] = spec[k], k++;
  name[k] = 0;
  const char *colon = strstr(spec, ": ");
  CHECK_MSG(colon, "%s:%d: no ': ' in eval line", path, lineno);
  if (!colon)
    return;
  EvLimits lim = ev_default_limits;
  uint64_t seed = 1;
  const char *f = strstr(spec, "fuel="), *s = strstr(spec, "seed=");
  if (f && f < colon)
    lim.fuel = strtoll(f + 5, NULL, 10);
  if (s && s < colon)
    seed = strtoull(s + 5, NULL, 10);
  GlobalFn *g = ir_global_get(m, name);
  CHECK_MSG(g, "%s:%d: no @%s", path, lineno, name);
  if (!g)
    return;
  EvRun *r1 = ev_run_new(&lim), *r2 = ev_run_new(&lim);
  EvResult a, b;
  char *got = run_once(r1, g, seed, &a);
  char *again = run_once(r2, g, seed, &b);
  const char *want = colon + 2;
  size_t wlen = strcspn(want, "\n");
  CHECK_MSG(strlen(got) == wlen && strncmp(got, want, wlen) == 0,
            "%s:%d: @%s\n  got:  %s\n  want: %.*s", path, lineno, name, got, (int)wlen, want);
  CHECK_MSG(strcmp(got, again) == 0 && a.status == b.status &&
                (a.status != EV_OK || ev_value_identical(a.value, b.value)) &&
                r1->steps == r2->steps,
            "%s:%d: @%s is not deterministic", path, lineno, name);
  ev_run_free(r1);
  ev_run_free(r2);
}

/* Parse and type check one file, then check each of its eval lines. */
static int run_file(const char *path) {
  size_t len;
  char *src = test_read_file(path, &len);
  CHECK_MSG(src, "cannot read %s", path);
  if (!src)
    return 0;
  Diag d;
  diag_init(&d, path, src);
  Module *m = ir_parse_module(src, len, path, &d);
  CHECK_MSG(m, "%s", d.text);
  int checks = 0;
  if (m && ir_well_formed(m, &d) && ty_check_module(m, &d)) {
    int lineno = 1;
    for (const char *p = src; *p; lineno++) {
      if (strncmp(p, "// eval @", 9) == 0)
        check_line(m, path, lineno, p + 9), checks++;
      const char *nl = strchr(p, '\n');
      p = nl ? nl + 1 : p + strlen(p);
    }
  } else if (m) {
    CHECK_MSG(false, "%s", d.text);
  }
  CHECK_MSG(checks > 0, "%s has no eval lines", path);
  ir_module_free(m);
  diag_free(&d);
  free(src);
  return checks;
}

static int by_name(const void *a, const void *b) {
  return strcmp(*(char *const *)a, *(char *const *)b);
}

int main(void) {
  DIR *dir = opendir("tests/eval");
  CHECK_MSG(dir, "cannot open tests/eval (run from the source root)");
  if (!dir)
    return test_summary();
  char *names[256];
  int n = 0;
  for (struct dirent *e; (e = readdir(dir)) && n < 256;) {
    size_t l = strlen(e->d_name);
    if (l > 6 && strcmp(e->d_name + l - 6, ".relay") == 0)
      names[n++] = strdup(e->d_name);
  }
  closedir(dir);
  qsort(names, (size_t)n, sizeof *names, by_name);
  int total = 0;
  for (int i = 0; i < n; i++) {
    char path[512];
    snprintf(path, sizeof path, "tests/eval/%s", names[i]);
    total += run_file(path);
    free(names[i]);
  }
  printf("%d files, %d evaluations\n", n, total);
  CHECK(n >= 6);
  return test_summary();
}
