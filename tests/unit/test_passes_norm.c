/*
 * Tests of the passes to_anf, to_gnf and fuse_ops:
 *
 * 1. Golden tests, in the format of tests/unit/test_passes.c: each file
 *    tests/golden/passes/<pass>/<name>.relay holds a program, a marker line
 *    `// >>> after` and the program the pass must turn it into (or the
 *    marker `// >>> unchanged` alone).  The output must be alpha-equivalent
 *    to the expected program, annotations included, with as many distinct
 *    nodes (variables, globals and scalar constants aside), so sharing is
 *    checked too.  Each case also checks that the pass's postcondition
 *    rejects the input exactly when a change is expected, and every oracle
 *    of 2.
 * 2. Each pass on every golden program of every pass (all directories
 *    under tests/golden/passes) and on every saved regression input
 *    (the .relay files of tests/regressions/test_passes_norm): the output
 *    is well formed, type checks with every global's type unchanged, meets
 *    the postcondition, gives bit-identical interpreter results for @main
 *    on three seeds, survives print -> parse with the same sharing; and a
 *    second run of the pass changes nothing.
 * 3. Hand-made counterexamples each postcondition checker must reject,
 *    with the part of the report that names the broken rule; the pass then
 *    fixes each.
 * 4. A node shared by two globals (built with the builder: text cannot
 *    say it), and fuse_ops' size limit on a chain of 300 operators.
 */
#include <dirent.h>
#include <stdlib.h>
#include <string.h>

#include "compiler/eval/eval.h"
#include "compiler/ir/ptrmap.h"
#include "compiler/passes/pass.h"
#include "compiler/typing/typing.h"
#include "test.h"

#define GOLDEN_DIR RS_SOURCE_DIR "/tests/golden/passes"
#define REGRESSION_DIR RS_SOURCE_DIR "/tests/regressions/test_passes_norm"

static const char *const my_passes[] = {"to_anf", "to_gnf", "fuse_ops"};
enum { NPASSES = sizeof my_passes / sizeof my_passes[0], NSEEDS = 3 };

static const PassInfo *find_pass(const char *name) {
  const PassInfo *p = pass_lookup(name, strlen(name));
  CHECK_MSG(p, "no pass named %s", name);
  return p;
}

/* Parse and type check; NULL (with a message) on failure. */
static Module *load(const char *src, const char *file) {
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
static bool split_golden(char *text, char **before, char **after) {
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

static bool well_formed(const Module *m, const char *what) {
  Diag d;
  diag_init(&d, NULL, NULL);
  bool ok = ir_well_formed(m, &d);
  if (!ok)
    fprintf(stderr, "%s: not well formed: %s\n", what, d.text);
  diag_free(&d);
  return ok;
}

static bool retype(Module *m, const char *what) {
  Diag d;
  diag_init(&d, NULL, NULL);
  bool ok = ty_check_module(m, &d);
  if (!ok)
    fprintf(stderr, "%s: does not type check: %s\n", what, d.text);
  diag_free(&d);
  return ok;
}

/* Run p's postcondition; *msg receives a malloc'd report when it fails. */
static bool post_ok(const PassInfo *p, const Module *m, char **msg) {
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
  const char *names[64];
  Type *types[64];
  EvRun *runs[NSEEDS];
  EvResult res[NSEEDS];
} Before;

static void before_take(Before *b, Module *m) {
  b->n = 0;
  for (int i = 0; i < m->nfuncs && b->n < 64; i++) {
    b->names[b->n] = m->funcs[i]->name;
    b->types[b->n++] = m->funcs[i]->func->type;
  }
  for (int s = 0; s < NSEEDS; s++) {
    b->runs[s] = ev_run_new(NULL);
    b->res[s] = ev_run_main(b->runs[s], m, (uint64_t)s + 1);
  }
}

/* Compare m, after a pass, with what it was: same types, bit-identical
 * results. */
static void before_check(Before *b, Module *m, const char *what) {
  for (int i = 0; i < b->n; i++) {
    GlobalFn *g = ir_global_get(m, b->names[i]);
    CHECK_MSG(g && ir_type_equal(g->func->type, b->types[i]), "%s: type of @%s changed", what,
              b->names[i]);
  }
  for (int s = 0; s < NSEEDS; s++) {
    EvRun *r = ev_run_new(NULL);
    EvResult a = ev_run_main(r, m, (uint64_t)s + 1);
    char why[512] = "";
    bool same = a.status == b->res[s].status &&
                (a.status != EV_OK || ev_value_identical(a.value, b->res[s].value));
    if (!same)
      ev_compare(&b->res[s], &a, NULL, why, sizeof why);
    CHECK_MSG(same, "%s: seed %d: result changed (%s / %s): %s", what, s + 1,
              ev_status_name(b->res[s].status), ev_status_name(a.status), why);
    ev_run_free(r);
  }
}

static void before_free(Before *b) {
  for (int s = 0; s < NSEEDS; s++)
    ev_run_free(b->runs[s]);
}

/* Distinct nodes other than variables, globals and scalar constants (the
 * printer writes those at every use). */
typedef struct {
  PtrMap seen;
  int64_t n;
} Count;

static void count_visit(Expr **slot, void *ctx) {
  Count *c = ctx;
  int added;
  ptrmap_put(&c->seen, *slot, &added);
  if (!added)
    return;
  const Expr *e = *slot;
  if (e->kind != EX_VAR && e->kind != EX_GLOBAL && !(e->kind == EX_CONST && e->constant->rank == 0))
    c->n++;
  ir_expr_children(*slot, count_visit, c);
}

static int64_t shared_count(const Module *m) {
  Count c = {{0}, 0};
  for (int i = 0; i < m->nfuncs; i++)
    if (m->funcs[i]->func)
      count_visit(&m->funcs[i]->func, &c);
  ptrmap_free(&c.seen);
  return c.n;
}

/* A copy of m made by printing and parsing it. */
static Module *reparse(const Module *m, const char *what) {
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
static void check_round_trip(const Module *m, const char *what) {
  Module *n = reparse(m, what);
  if (n) {
    char *text = ir_print_module(m);
    CHECK_MSG(ir_module_alpha_equal(m, n) && shared_count(m) == shared_count(n),
              "%s: print/parse round trip differs:\n%s", what, text);
    free(text);
  }
  ir_module_free(n);
}

/* Run pass p on m and check every oracle; then (when text can hold m) check
 * the round trip, and run the pass again on a reparsed copy of the output,
 * which must not change. */
static void run_and_check_text(const PassInfo *p, Module *m, const char *what, bool text) {
  Before b;
  before_take(&b, m);
  Diag d;
  diag_init(&d, NULL, NULL);
  CHECK_MSG(p->run(m, &d), "%s: pass failed: %s", what, d.text);
  diag_free(&d);
  if (well_formed(m, what) && retype(m, what)) {
    char *msg = NULL;
    CHECK_MSG(post_ok(p, m, &msg), "%s: postcondition fails on the output: %s", what, msg);
    free(msg);
    before_check(&b, m, what);
    if (text)
      check_round_trip(m, what);
    Module *again = text ? reparse(m, what) : NULL;
    if (again && retype(again, what)) {
      diag_init(&d, NULL, NULL);
      CHECK_MSG(p->run(again, &d), "%s: second run failed", what);
      diag_free(&d);
      CHECK_MSG(ir_module_alpha_equal(m, again) && shared_count(m) == shared_count(again),
                "%s: a second run changed the output", what);
    }
    ir_module_free(again);
  } else {
    char *out = ir_print_module(m);
    CHECK_MSG(false, "%s: output invalid:\n%s", what, out);
    free(out);
  }
  before_free(&b);
}

static void run_and_check(const PassInfo *p, Module *m, const char *what) {
  run_and_check_text(p, m, what, true);
}

/* ------------------------------------------------------------ golden */

static int cmp_str(const void *a, const void *b) {
  return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/* The .relay files of a directory (or its subdirectories, when sub), sorted,
 * as paths; returns the count. */
static int list_relay(const char *dir, bool sub, char ***out) {
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
      int k = list_relay(path, false, &inner);
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
    qsort(names, (size_t)n, sizeof *names, cmp_str);
  *out = names;
  return n;
}

static void free_names(char **names, int n) {
  for (int i = 0; i < n; i++)
    free(names[i]);
  free(names);
}

static void golden_case(const PassInfo *p, const char *path) {
  char *text = test_read_file(path, NULL);
  CHECK_MSG(text, "cannot read %s", path);
  char *before, *after;
  if (!text || !split_golden(text, &before, &after)) {
    CHECK_MSG(false, "%s: no `// >>> after` or `// >>> unchanged` marker", path);
    free(text);
    return;
  }
  Module *m = load(before, path);
  Module *want = load(after ? after : before, path);
  CHECK_MSG(m && want, "%s: does not load", path);
  if (m && want) {
    char *msg = NULL;
    bool post_before = post_ok(p, m, &msg);
    CHECK_MSG(post_before == !after, "%s: postcondition %s the input%s%s", path,
              post_before ? "accepts" : "rejects", msg ? ": " : "", msg ? msg : "");
    free(msg);
    run_and_check(p, m, path);
    bool same = ir_module_alpha_equal(m, want);
    bool counts = shared_count(m) == shared_count(want);
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

static void test_golden(void) {
  for (int i = 0; i < NPASSES; i++) {
    const PassInfo *p = find_pass(my_passes[i]);
    char dir[1024];
    snprintf(dir, sizeof dir, "%s/%s", GOLDEN_DIR, my_passes[i]);
    char **names;
    int n = list_relay(dir, false, &names);
    CHECK_MSG(n >= 6, "%s: only %d golden files", dir, n);
    for (int j = 0; p && j < n; j++)
      golden_case(p, names[j]);
    free_names(names, n);
  }
}

/* Each pass on one input program. */
static void all_passes_on(const char *path, const char *src) {
  for (int k = 0; k < NPASSES; k++) {
    const PassInfo *p = find_pass(my_passes[k]);
    Module *m = load(src, path);
    CHECK_MSG(m, "%s does not load", path);
    if (p && m) {
      char what[1200];
      snprintf(what, sizeof what, "%s on %s", p->name, path);
      run_and_check(p, m, what);
    }
    ir_module_free(m);
  }
}

/* Every pass on the input program of every golden file of every pass, and
 * on every regression input. */
static void test_all_on_all(void) {
  char **names;
  int n = list_relay(GOLDEN_DIR, true, &names);
  CHECK_MSG(n >= 30, "only %d golden files under %s", n, GOLDEN_DIR);
  for (int j = 0; j < n; j++) {
    char *text = test_read_file(names[j], NULL);
    char *before, *after;
    if (text && split_golden(text, &before, &after))
      all_passes_on(names[j], before);
    free(text);
  }
  free_names(names, n);
  n = list_relay(REGRESSION_DIR, false, &names);
  CHECK_MSG(n >= 5, "only %d regression inputs under %s", n, REGRESSION_DIR);
  for (int j = 0; j < n; j++) {
    char *text = test_read_file(names[j], NULL);
    if (text)
      all_passes_on(names[j], text);
    free(text);
  }
  free_names(names, n);
}

/* ---------------------------------------------------- counterexamples */

typedef struct {
  const char *pass;
  const char *src;
  const char *why; /* expected in the checker's report */
} Counter;

static const Counter counters[] = {
    /* to_anf */
    {"to_anf", "def @main(%x: float32) -> float32 { let %a = add(%x, multiply(%x, %x)); %a }",
     "a call argument is not an atom"},
    {"to_anf", "def @main(%x: float32) -> float32 { let %a = add(%x, %x); negative(%a) }",
     "the result of a block is not an atom"},
    {"to_anf",
     "def @main(%x: float32) -> float32 { %0 = add(%x, %x); let %a = (%0, %0); let %b = %a.0; "
     "%b }",
     "a tuple field is not an atom"},
    {"to_anf", "def @main(%x: float32) -> float32 { let %a = { let %b = exp(%x); %b }; %a }",
     "a let is a let's value"},
    {"to_anf",
     "def @main(%x: float32, %c: bool) -> float32 {"
     " let %a = if (%c) { exp(%x) } else { %x }; %a }",
     "the result of a block is not an atom"},
    {"to_anf",
     "def @main(%x: float32) -> float32 {"
     " let %a = fn (%y: float32) -> float32 { %y }(%x); %a }",
     "a callee is not a variable or a global"},
    {"to_anf",
     "def @main(%x: float32) -> float32 {"
     " let %f = fn (%y: float32) -> float32 { negative(%y) }; let %a = %f(%x); %a }",
     "the result of a block is not an atom"},
    /* to_gnf */
    {"to_gnf", "def @main(%x: float32) -> float32 { let %a = exp(%x); add(%a, %a) }",
     "should be shared"},
    {"to_gnf",
     "def @main(%x: float32) -> float32 {"
     " let %f = fn (%y: float32) -> float32 { negative(%y) }; %f(%x) }",
     "should be moved to its only use"},
    {"to_gnf", "def @main(%x: float32) -> float32 { let %d = exp(%x); %x }", "should be dropped"},
    {"to_gnf",
     "def @main(%x: float32) -> float32 {"
     " let %m = match (Some(%x)) { Some(%v) => %v, None => 0f }; negative(%m) }",
     "should be moved to its only use"},
    /* fuse_ops */
    {"fuse_ops", "def @main(%x: float32) -> float32 { exp(%x) }",
     "operator exp is called outside a primitive function"},
    {"fuse_ops",
     "def @main(%x: float32) -> float32 {"
     " fn (%p: float32, Primitive=1) -> float32 { let %a = exp(%p); %a }(%x) }",
     "holds something other than operator calls"},
    {"fuse_ops",
     "def @main(%x: Tensor[(2, 3), float32]) -> Tensor[(2, 3), float32] {"
     " fn (%p: Tensor[(2, 3), float32], Primitive=1) -> Tensor[(2, 3), float32] {"
     " nn.softmax(exp(%p), axis=0) }(%x) }",
     "an opaque operator is fused with others"},
    {"fuse_ops",
     "def @main(%x: Tensor[(2, 3), float32]) -> float32 {"
     " fn (%p: Tensor[(2, 3), float32], Primitive=1) -> float32 {"
     " sum(sum(%p, axis=[0])) }(%x) }",
     "two anchors"},
    {"fuse_ops",
     "def @main(%x: Tensor[(2, 3), float32]) -> Tensor[(3), float32] {"
     " fn (%p: Tensor[(2, 3), float32], Primitive=1) -> Tensor[(3), float32] {"
     " exp(sum(%p, axis=[0])) }(%x) }",
     "reduction sum is not the result"},
    {"fuse_ops",
     "def @main(%x: Tensor[(2, 3), float32], %w: Tensor[(4, 3), float32]) ->"
     " Tensor[(4, 2), float32] {"
     " fn (%p: Tensor[(2, 3), float32], %q: Tensor[(4, 3), float32], Primitive=1) ->"
     " Tensor[(4, 2), float32] { transpose(nn.dense(%p, %q)) }(%x, %w) }",
     "applies transpose to the result of its anchor"},
    {"fuse_ops",
     "def @main(%x: float32) -> float32 {"
     " fn (%p: float32, %q: float32, Primitive=1) -> float32 { exp(%p) }(%x, %x) }",
     "parameter %q is unused"},
    {"fuse_ops",
     "def @main(%x: float32) -> float32 {"
     " fn (%p: float32, Primitive=1) -> float32 { exp(%p) }("
     " fn (%q: float32, Primitive=1) -> float32 { negative(%q) }(%x)) }",
     "ending in negative should have been fused"},
    {"fuse_ops",
     "def @main(%x: Tensor[(2, 3), float32]) -> Tensor[(3), float32] {"
     " fn (%p: Tensor[(2, 3), float32], Primitive=1) -> Tensor[(3), float32] {"
     " sum(%p, axis=[0]) }(fn (%q: Tensor[(2, 3), float32], Primitive=1) ->"
     " Tensor[(2, 3), float32] { add(%q, %q) }(%x)) }",
     "ending in add should have been fused"},
};

static void test_counterexamples(void) {
  for (size_t i = 0; i < sizeof counters / sizeof counters[0]; i++) {
    const Counter *c = &counters[i];
    const PassInfo *p = find_pass(c->pass);
    char src[2048];
    snprintf(src, sizeof src, "#[version = \"0.0.5\"]\n%s\n", c->src);
    Module *m = load(src, c->pass);
    if (!p || !m) {
      CHECK_MSG(false, "counterexample %zu does not load", i);
      ir_module_free(m);
      continue;
    }
    char *msg = NULL;
    bool ok = post_ok(p, m, &msg);
    CHECK_MSG(!ok && msg && strstr(msg, c->why), "post_%s on counterexample %zu: %s (want %s)",
              c->pass, i, ok ? "accepted" : msg, c->why);
    free(msg);
    run_and_check(p, m, src); /* and the pass fixes it */
    ir_module_free(m);
  }
}

/* A checker must also accept what it should: a primitive function alone
 * at the maximal size, and F4's near misses. */
static const char *const accepted[][2] = {
    {"fuse_ops", /* an injective producer is not fused into a reduction */
     "def @main(%x: Tensor[(2, 3), float32]) -> Tensor[(2), float32] {"
     " fn (%p: Tensor[(3, 2), float32], Primitive=1) -> Tensor[(2), float32] {"
     " sum(%p, axis=[0]) }(fn (%q: Tensor[(2, 3), float32], Primitive=1) ->"
     " Tensor[(3, 2), float32] { transpose(%q) }(%x)) }"},
    {"fuse_ops", /* a producer used twice by its consumer */
     "def @main(%x: float32) -> float32 {"
     " fn (%p: float32, Primitive=1) -> float32 { add(%p, %p) }("
     " fn (%q: float32, Primitive=1) -> float32 { negative(%q) }(%x)) }"},
    {"to_gnf", /* an annotation a Nil needs */
     "def @main() { let %n: List[float32] = Nil; %n }"},
    {"to_gnf", /* effects */
     "def @main(%x: float32) -> float32 { let %r = ref(%x); let %u = ref_write(%r, 1f);"
     " ref_read(%r) }"},
    {"to_anf", "def @main(%x: float32) -> float32 { %x }"},
};

static void test_accepted(void) {
  for (size_t i = 0; i < sizeof accepted / sizeof accepted[0]; i++) {
    const PassInfo *p = find_pass(accepted[i][0]);
    char src[2048];
    snprintf(src, sizeof src, "#[version = \"0.0.5\"]\n%s\n", accepted[i][1]);
    Module *m = load(src, accepted[i][0]);
    char *msg = NULL;
    CHECK_MSG(p && m && post_ok(p, m, &msg), "post_%s rejects accepted case %zu: %s",
              accepted[i][0], i, msg ? msg : "(does not load)");
    free(msg);
    ir_module_free(m);
  }
}

/* ---------------------------------------------------------- built */

/* A closed node shared by two globals: each pass treats each global on its
 * own, and the result is still well formed. */
static void test_shared_across_globals(void) {
  for (int k = 0; k < NPASSES; k++) {
    Module *m = ir_module_new();
    Expr *shared = ir_call_op(m, OP_EXP, 1, (Expr *[]){ir_const_scalar(m, DT_FLOAT32, 0.5)}, NULL);
    Var *y = ir_var(m, "y", ir_scalar_type(m->arena, DT_FLOAT32));
    Expr *g = ir_func(m, 1, &y, NULL,
                      ir_call_op(m, OP_ADD, 2, (Expr *[]){ir_var_ref(m, y), shared}, NULL));
    GlobalFn *gf = ir_def(m, "g", g);
    Var *x = ir_var(m, "x", ir_scalar_type(m->arena, DT_FLOAT32));
    Expr *call = ir_call(m, ir_global_ref(m, gf), 1, (Expr *[]){ir_var_ref(m, x)});
    Expr *main_fn =
        ir_func(m, 1, &x, NULL, ir_call_op(m, OP_MULTIPLY, 2, (Expr *[]){call, shared}, NULL));
    ir_def(m, "main", main_fn);
    CHECK(well_formed(m, "shared across globals") && retype(m, "shared across globals"));
    const PassInfo *p = find_pass(my_passes[k]);
    if (p) /* the printer cannot write a node shared by two globals */
      run_and_check_text(p, m, my_passes[k], false);
    ir_module_free(m);
  }
}

/* Operator calls in each primitive function of e, in the order met. */
typedef struct {
  PtrMap seen;
  int nk, ops[8];
} Kernels;

static void kernel_ops(Expr **slot, void *ctx) {
  Kernels *k = ctx;
  int added;
  ptrmap_put(&k->seen, *slot, &added);
  if (!added)
    return;
  Expr *e = *slot;
  if (e->kind == EX_FUNC && e->func.primitive && k->nk < 8)
    k->ops[k->nk++] = (int)ir_expr_count(e->func.body) - 1; /* all calls and one %p */
  ir_expr_children(e, kernel_ops, k);
}

/* A chain of 300 elementwise operators: the first MAX_DEPTH (256) form one
 * kernel, the other 44 the next, as Relay's max_depth splits it. */
static void test_max_depth(void) {
  enum { N = 300 };
  char *src = malloc(64 + 10 * N + N + 64);
  char *w = src + sprintf(src, "#[version = \"0.0.5\"]\ndef @main(%%x: float32) -> float32 {\n");
  for (int i = 0; i < N; i++)
    w += sprintf(w, "negative(");
  w += sprintf(w, "%%x");
  for (int i = 0; i < N; i++)
    *w++ = ')';
  sprintf(w, "\n}\n");
  Module *m = load(src, "max_depth");
  const PassInfo *p = find_pass("fuse_ops");
  if (m && p) {
    run_and_check(p, m, "max_depth");
    Kernels k = {{0}, 0, {0}};
    kernel_ops(&m->funcs[0]->func, &k);
    CHECK_MSG(k.nk == 2 && k.ops[0] == 44 && k.ops[1] == 256,
              "max_depth: %d kernels of %d and %d operators, want 44 then 256", k.nk, k.ops[0],
              k.ops[1]);
    ptrmap_free(&k.seen);
  }
  ir_module_free(m);
  free(src);
}

int main(void) {
  test_golden();
  test_all_on_all();
  test_counterexamples();
  test_accepted();
  test_shared_across_globals();
  test_max_depth();
  return test_summary();
}
