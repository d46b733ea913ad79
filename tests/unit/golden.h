/*
 * golden.h - what the golden tests of the passes (test_passes.c,
 * test_passes_norm.c) share: reading a golden file, running a pass under
 * every oracle, comparing with the expected program, and the checks of a
 * postcondition on hand-made counterexamples.  Static inline functions in
 * a header, as in test.h: each test is one file (tests/tests.cmake), and
 * test.h's CHECK counters are per file.
 *
 * A golden file tests/golden/passes/<pass>/<name>.relay holds, in one
 * file (as QBE's tests do), a program and what <pass> must turn it into,
 * separated by a marker line:
 *
 *     // what the case is about (comment lines are ignored)
 *     #[version = "0.0.5"]
 *     def @main(...) { ... }            <- the input program
 *     // >>> after
 *     #[version = "0.0.5"]
 *     def @main(...) { ... }            <- the expected output
 *
 * or, for a case where the pass must change nothing (the negative cases),
 * the marker `// >>> unchanged` and nothing after it.  The marker must be
 * a line of its own.  The output must be alpha-equivalent to the expected
 * program (ir_module_alpha_equal: bound variables may be named
 * differently, annotations must be where the expected program has them)
 * and have as many distinct nodes (shared nodes counted once; variables,
 * globals and scalar constants, which the printer writes at every use,
 * not counted), so sharing made by the pass is checked too: write a shared
 * node as a graph binding `%0 = ...;`.  Each case also checks that the
 * input type checks, that the pass's postcondition rejects the input
 * exactly when a change is expected (every expected change is something
 * the checker looks for), and every oracle of golden_run.
 */
#ifndef RS_GOLDEN_H
#define RS_GOLDEN_H

#include <dirent.h>
#include <stdlib.h>
#include <string.h>

#include "compiler/eval/eval.h"
#include "compiler/ir/ptrmap.h"
#include "compiler/passes/pass.h"
#include "compiler/typing/typing.h"
#include "test.h"

#define GOLDEN_DIR RS_SOURCE_DIR "/tests/golden/passes"

enum {
  GOLDEN_SEEDS = 3,   /* @main is run on input seeds 1..GOLDEN_SEEDS */
  GOLDEN_GLOBALS = 64 /* globals whose types golden_run compares */
};

/* What golden_run checks besides the pass's success, the output's
 * well-formedness and types, its postcondition and @main's results. */
enum {
  /* print -> parse gives the same module, sharing included */
  GOLDEN_TEXT = 1,
  /* with GOLDEN_TEXT: running the pass again on the reparsed output
   * changes nothing */
  GOLDEN_AGAIN = 2,
  /* the pass may remove globals (the others must keep their types) */
  GOLDEN_DROPS_GLOBALS = 4,
};

/* The pass named name; a failed check when there is none. */
static inline const PassInfo *golden_pass(const char *name) {
  const PassInfo *p = pass_lookup(name, strlen(name));
  CHECK_MSG(p, "no pass named %s", name);
  return p;
}

/* Parse and type check; NULL (with a message) on failure. */
static inline Module *golden_load(const char *src, const char *file) {
  Diag d;
  diag_init(&d, file, src);
  Module *m = ir_parse_module(src, strlen(src), file, &d);
  if (m && !ty_check_module(m, &d)) {
    ir_module_free(m);
    m = NULL;
  }
  if (!m)
    fprintf(stderr, "%s: %s\n", file, d.text ? d.text : "cannot load");
  diag_free(&d);
  return m;
}

/* Split a golden file at its marker; *after is NULL for `unchanged`. */
static inline bool golden_split(char *text, char **before, char **after) {
  static const char *const marks[] = {"// >>> after", "// >>> unchanged"};
  for (int k = 0; k < 2; k++) {
    size_t n = strlen(marks[k]);
    for (char *p = strstr(text, marks[k]); p; p = strstr(p + 1, marks[k])) {
      if ((p != text && p[-1] != '\n') || (p[n] != '\n' && p[n] != 0 && p[n] != '\r'))
        continue;
      *p = 0;
      *before = text;
      *after = k == 0 ? p + n : NULL;
      return true;
    }
  }
  return false;
}

/* Is m well formed?  Prints why not. */
static inline bool golden_well_formed(const Module *m, const char *what) {
  Diag d;
  diag_init(&d, NULL, NULL);
  bool ok = ir_well_formed(m, &d);
  if (!ok)
    fprintf(stderr, "%s: not well formed: %s\n", what, d.text);
  diag_free(&d);
  return ok;
}

/* Does m type check?  Prints why not. */
static inline bool golden_retype(Module *m, const char *what) {
  Diag d;
  diag_init(&d, NULL, NULL);
  bool ok = ty_check_module(m, &d);
  if (!ok)
    fprintf(stderr, "%s: does not type check: %s\n", what, d.text);
  diag_free(&d);
  return ok;
}

/* Run p's postcondition; *msg receives a malloc'd report when it fails. */
static inline bool golden_post_ok(const PassInfo *p, const Module *m, char **msg) {
  Diag d;
  diag_init(&d, NULL, NULL);
  bool ok = p->post(m, &d);
  if (msg)
    *msg = ok || !d.text ? NULL : strdup(d.text);
  diag_free(&d);
  return ok;
}

/* The state of a module before a pass: global types and results. */
typedef struct {
  int n;
  const char *names[GOLDEN_GLOBALS];
  Type *types[GOLDEN_GLOBALS];
  EvRun *runs[GOLDEN_SEEDS];
  EvResult res[GOLDEN_SEEDS];
} GoldenBefore;

static inline void golden_before_take(GoldenBefore *b, Module *m) {
  b->n = 0;
  for (int i = 0; i < m->nfuncs && b->n < GOLDEN_GLOBALS; i++) {
    b->names[b->n] = m->funcs[i]->name;
    b->types[b->n++] = m->funcs[i]->func->type;
  }
  for (int s = 0; s < GOLDEN_SEEDS; s++) {
    b->runs[s] = ev_run_new(NULL);
    b->res[s] = ev_run_main(b->runs[s], m, (uint64_t)s + 1);
  }
}

/* Compare m, after a pass, with what it was: the same global types (a
 * global may be gone when drops), bit-identical results, the same trace
 * of ref effects. */
static inline void golden_before_check(GoldenBefore *b, Module *m, const char *what, bool drops) {
  for (int i = 0; i < b->n; i++) {
    GlobalFn *g = ir_global_get(m, b->names[i]);
    if (g || !drops)
      CHECK_MSG(g && ir_type_equal(g->func->type, b->types[i]), "%s: type of @%s changed", what,
                b->names[i]);
  }
  for (int s = 0; s < GOLDEN_SEEDS; s++) {
    EvRun *r = ev_run_new(NULL);
    EvResult a = ev_run_main(r, m, (uint64_t)s + 1);
    char why[512] = "";
    bool same = a.status == b->res[s].status &&
                (a.status != EV_OK || ev_value_identical(a.value, b->res[s].value)) &&
                ev_compare_effects(&b->res[s], &a, NULL, why, sizeof why) == EV_SAME;
    if (!same && !why[0])
      ev_compare(&b->res[s], &a, NULL, why, sizeof why);
    CHECK_MSG(same, "%s: seed %d: result changed (%s / %s): %s: %s vs %s", what, s + 1,
              ev_status_name(b->res[s].status), ev_status_name(a.status), why,
              b->res[s].status == EV_OK ? ev_print_value(r->arena, b->res[s].value) : b->res[s].msg,
              a.status == EV_OK ? ev_print_value(r->arena, a.value) : a.msg);
    ev_run_free(r);
  }
}

static inline void golden_before_free(GoldenBefore *b) {
  for (int s = 0; s < GOLDEN_SEEDS; s++)
    ev_run_free(b->runs[s]);
}

/* Distinct nodes other than variables, globals and scalar constants: the
 * printer writes those at every use (their sharing means nothing), so
 * this counts the sharing that print and parse keep. */
typedef struct {
  PtrMap seen;
  int64_t n;
} GoldenCount;

static inline void golden_count_visit(Expr **slot, void *ctx) {
  GoldenCount *c = ctx;
  int added;
  ptrmap_put(&c->seen, *slot, &added);
  if (!added)
    return;
  const Expr *e = *slot;
  if (e->kind != EX_VAR && e->kind != EX_GLOBAL && !(e->kind == EX_CONST && e->constant->rank == 0))
    c->n++;
  ir_expr_children(*slot, golden_count_visit, c);
}

static inline int64_t golden_shared_count(const Module *m) {
  GoldenCount c = {{0}, 0};
  for (int i = 0; i < m->nfuncs; i++)
    if (m->funcs[i]->func)
      golden_count_visit(&m->funcs[i]->func, &c);
  ptrmap_free(&c.seen);
  return c.n;
}

/* Do a and b have the same nodes and the same sharing? */
static inline bool golden_same(const Module *a, const Module *b) {
  return ir_module_alpha_equal(a, b) && golden_shared_count(a) == golden_shared_count(b);
}

/* A copy of m made by printing and parsing it (a failed check if it does
 * not parse). */
static inline Module *golden_reparse(const Module *m, const char *what) {
  char *text = ir_print_module(m);
  Diag d;
  diag_init(&d, what, text);
  Module *n = ir_parse_module(text, strlen(text), what, &d);
  CHECK_MSG(n, "%s: output does not parse: %s\n%s", what, d.text ? d.text : "", text);
  diag_free(&d);
  free(text);
  return n;
}

/* print -> parse gives the same module, sharing included. */
static inline void golden_round_trip(const Module *m, const char *what) {
  Module *n = golden_reparse(m, what);
  if (n) {
    char *text = ir_print_module(m);
    CHECK_MSG(golden_same(m, n), "%s: print/parse round trip differs:\n%s", what, text);
    free(text);
  }
  ir_module_free(n);
}

/* Run pass p on m and check every oracle (flags: GOLDEN_*), but not the
 * expected output. */
static inline void golden_run(const PassInfo *p, Module *m, const char *what, int flags) {
  GoldenBefore b;
  golden_before_take(&b, m);
  Diag d;
  diag_init(&d, NULL, NULL);
  CHECK_MSG(p->run(m, &d), "%s: pass failed: %s", what, d.text);
  diag_free(&d);
  if (golden_well_formed(m, what) && golden_retype(m, what)) {
    char *msg = NULL;
    CHECK_MSG(golden_post_ok(p, m, &msg), "%s: postcondition fails on the output: %s", what, msg);
    free(msg);
    golden_before_check(&b, m, what, flags & GOLDEN_DROPS_GLOBALS);
    if (flags & GOLDEN_TEXT)
      golden_round_trip(m, what);
    bool again_too = (flags & GOLDEN_TEXT) && (flags & GOLDEN_AGAIN);
    Module *again = again_too ? golden_reparse(m, what) : NULL;
    if (again && golden_retype(again, what)) {
      diag_init(&d, NULL, NULL);
      CHECK_MSG(p->run(again, &d), "%s: second run failed", what);
      diag_free(&d);
      CHECK_MSG(golden_same(m, again), "%s: a second run changed the output", what);
    }
    ir_module_free(again);
  } else {
    char *out = ir_print_module(m);
    CHECK_MSG(false, "%s: output invalid:\n%s", what, out);
    free(out);
  }
  golden_before_free(&b);
}

/* Each pass of passes[0..n) on the program src (from path). */
static inline void golden_run_all(const char *const *passes, int n, const char *path,
                                  const char *src, int flags) {
  for (int k = 0; k < n; k++) {
    const PassInfo *p = golden_pass(passes[k]);
    Module *m = golden_load(src, path);
    CHECK_MSG(m, "%s does not load", path);
    if (p && m) {
      char what[1200];
      snprintf(what, sizeof what, "%s on %s", p->name, path);
      golden_run(p, m, what, flags);
    }
    ir_module_free(m);
  }
}

/* ------------------------------------------------------------ files */

static inline int golden_cmp_str(const void *a, const void *b) {
  return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/* The .relay files of a directory (or of its subdirectories, when sub),
 * sorted, as malloc'd paths; returns the count. */
static inline int golden_list(const char *dir, bool sub, char ***out) {
  DIR *dp = opendir(dir);
  int n = 0, cap = 0;
  char **names = NULL;
  struct dirent *de;
  while (dp && (de = readdir(dp))) {
    if (de->d_name[0] == '.')
      continue;
    char path[1024];
    snprintf(path, sizeof path, "%s/%s", dir, de->d_name);
    if (sub) {
      char **inner;
      int k = golden_list(path, false, &inner);
      for (int i = 0; i < k; i++) {
        if (n == cap)
          names = realloc(names, sizeof *names * (size_t)(cap = cap ? 2 * cap : 16));
        names[n++] = inner[i];
      }
      free(inner);
      continue;
    }
    size_t len = strlen(de->d_name);
    if (len < 7 || strcmp(de->d_name + len - 6, ".relay") != 0)
      continue;
    if (n == cap)
      names = realloc(names, sizeof *names * (size_t)(cap = cap ? 2 * cap : 16));
    names[n++] = strdup(path);
  }
  if (dp)
    closedir(dp);
  if (n)
    qsort(names, (size_t)n, sizeof *names, golden_cmp_str);
  *out = names;
  return n;
}

static inline void golden_free_list(char **names, int n) {
  for (int i = 0; i < n; i++)
    free(names[i]);
  free(names);
}

/* The golden case in the file path, for pass p. */
static inline void golden_case(const PassInfo *p, const char *path, int flags) {
  char *text = test_read_file(path, NULL);
  CHECK_MSG(text, "cannot read %s", path);
  if (!text)
    return;
  char *before, *after;
  if (!golden_split(text, &before, &after)) {
    CHECK_MSG(false, "%s: no `// >>> after` or `// >>> unchanged` marker", path);
    free(text);
    return;
  }
  Module *m = golden_load(before, path);
  Module *want = golden_load(after ? after : before, path);
  CHECK_MSG(m && want, "%s: does not load", path);
  if (m && want) {
    char *msg = NULL;
    bool post_before = golden_post_ok(p, m, &msg);
    CHECK_MSG(post_before == !after, "%s: postcondition %s the input%s%s", path,
              post_before ? "accepts" : "rejects", msg ? ": " : "", msg ? msg : "");
    free(msg);
    golden_run(p, m, path, flags);
    bool same = ir_module_alpha_equal(m, want);
    bool counts = golden_shared_count(m) == golden_shared_count(want);
    if (!same || !counts) {
      char *got = ir_print_module(m), *exp = ir_print_module(want);
      CHECK_MSG(false, "%s: output differs from the expected program%s\n--- got:\n%s--- want:\n%s",
                path, same ? " in sharing (node count)" : "", got, exp);
      free(got);
      free(exp);
    }
  }
  ir_module_free(m);
  ir_module_free(want);
  free(text);
}

/* Every golden case of pass name (at least min_files of them). */
static inline void golden_cases(const char *name, int min_files, int flags) {
  const PassInfo *p = golden_pass(name);
  char dir[1024];
  snprintf(dir, sizeof dir, "%s/%s", GOLDEN_DIR, name);
  char **paths;
  int n = golden_list(dir, false, &paths);
  CHECK_MSG(n >= min_files, "%s: only %d golden files", dir, n);
  for (int j = 0; p && j < n; j++)
    golden_case(p, paths[j], flags);
  golden_free_list(paths, n);
}

/* Each pass of passes[0..n) on the input program of every golden file
 * under dir (a pass's directory, or GOLDEN_DIR with sub); returns the
 * number of files. */
static inline int golden_run_all_on(const char *const *passes, int n, const char *dir, bool sub,
                                    int flags) {
  char **paths;
  int k = golden_list(dir, sub, &paths);
  for (int j = 0; j < k; j++) {
    char *text = test_read_file(paths[j], NULL);
    char *before, *after;
    if (text && golden_split(text, &before, &after))
      golden_run_all(passes, n, paths[j], before, flags);
    free(text);
  }
  golden_free_list(paths, k);
  return k;
}

/* ---------------------------------------------------- counterexamples */

/* A program that breaks a pass's postcondition. */
typedef struct {
  const char *pass;
  const char *src; /* without the version header */
  const char *why; /* expected in the checker's report */
} GoldenCounter;

/* Each postcondition checker rejects its counterexamples with a report
 * that names the broken rule, and the pass then fixes each. */
static inline void golden_counterexamples(const GoldenCounter *cs, size_t n, int flags) {
  for (size_t i = 0; i < n; i++) {
    const GoldenCounter *c = &cs[i];
    const PassInfo *p = golden_pass(c->pass);
    char src[2048];
    snprintf(src, sizeof src, "#[version = \"0.0.5\"]\n%s\n", c->src);
    Module *m = golden_load(src, c->pass);
    if (!p || !m) {
      CHECK_MSG(false, "counterexample %zu does not load", i);
      ir_module_free(m);
      continue;
    }
    char *msg = NULL;
    bool ok = golden_post_ok(p, m, &msg);
    CHECK_MSG(!ok && msg && strstr(msg, c->why), "post_%s on counterexample %zu: %s (want %s)",
              c->pass, i, ok ? "accepted" : msg, c->why);
    free(msg);
    golden_run(p, m, src, flags); /* and the pass fixes it */
    ir_module_free(m);
  }
}

#endif
