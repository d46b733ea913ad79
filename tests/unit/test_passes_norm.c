/*
 * Tests of the passes to_anf, to_gnf and fuse_ops (golden.h has the
 * format of a golden file and the checks of each case):
 *
 * 1. Golden tests: each file tests/golden/passes/<pass>/<name>.relay, a
 *    program and what <pass> must turn it into (or `// >>> unchanged`).
 * 2. Each pass on every golden program of every pass (all directories
 *    under tests/golden/passes) and on every saved regression input (the
 *    .relay files of tests/regressions/test_passes_norm): the output is
 *    well formed, type checks with every global's type unchanged, meets
 *    the postcondition, gives bit-identical interpreter results for @main
 *    on three seeds, survives print -> parse with the same sharing; and a
 *    second run of the pass changes nothing.
 * 3. Hand-made counterexamples each postcondition checker must reject,
 *    with the part of the report that names the broken rule; the pass then
 *    fixes each.
 * 4. A node shared by two globals (built with the builder: text cannot
 *    say it), and fuse_ops' size limit on a chain of 300 operators.
 */
#include "golden.h"

#define REGRESSION_DIR RS_SOURCE_DIR "/tests/regressions/test_passes_norm"

static const char *const my_passes[] = {"to_anf", "to_gnf", "fuse_ops"};
enum {
  NPASSES = sizeof my_passes / sizeof my_passes[0],
  FLAGS = GOLDEN_TEXT | GOLDEN_AGAIN,
};

static void test_golden(void) {
  for (int i = 0; i < NPASSES; i++)
    golden_cases(my_passes[i], 6, FLAGS);
}

/* Every pass on the input program of every golden file of every pass, and
 * on every regression input. */
static void test_all_on_all(void) {
  int n = golden_run_all_on(my_passes, NPASSES, GOLDEN_DIR, true, FLAGS);
  CHECK_MSG(n >= 30, "only %d golden files under %s", n, GOLDEN_DIR);
  char **paths;
  n = golden_list(REGRESSION_DIR, false, &paths);
  CHECK_MSG(n >= 5, "only %d regression inputs under %s", n, REGRESSION_DIR);
  for (int j = 0; j < n; j++) {
    char *text = test_read_file(paths[j], NULL);
    if (text)
      golden_run_all(my_passes, NPASSES, paths[j], text, FLAGS);
    free(text);
  }
  golden_free_list(paths, n);
}

/* ---------------------------------------------------- counterexamples */

static const GoldenCounter counters[] = {
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
    const PassInfo *p = golden_pass(accepted[i][0]);
    char src[2048];
    snprintf(src, sizeof src, "#[version = \"0.0.5\"]\n%s\n", accepted[i][1]);
    Module *m = golden_load(src, accepted[i][0]);
    char *msg = NULL;
    CHECK_MSG(p && m && golden_post_ok(p, m, &msg), "post_%s rejects accepted case %zu: %s",
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
    CHECK(golden_well_formed(m, "shared across globals") &&
          golden_retype(m, "shared across globals"));
    const PassInfo *p = golden_pass(my_passes[k]);
    if (p) /* the printer cannot write a node shared by two globals */
      golden_run(p, m, my_passes[k], 0);
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
  if (!ptrmap_first(&k->seen, *slot))
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
  Module *m = golden_load(src, "max_depth");
  const PassInfo *p = golden_pass("fuse_ops");
  if (m && p) {
    golden_run(p, m, "max_depth", FLAGS);
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
  golden_counterexamples(counters, sizeof counters / sizeof counters[0], FLAGS);
  test_accepted();
  test_shared_across_globals();
  test_max_depth();
  return test_summary();
}
