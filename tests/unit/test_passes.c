/*
 * Tests of the optimisation passes fold_constant, dead_code,
 * eliminate_common_subexpr, simplify_expr and inline (golden.h has the
 * format of a golden file and the checks of each case):
 *
 * 1. Golden tests: each file tests/golden/passes/<pass>/<name>.relay, a
 *    program and what <pass> must turn it into (or `// >>> unchanged`).
 *    The output is also well formed, type checks with every global's
 *    type unchanged (dead_code and inline may remove globals), satisfies
 *    the postcondition, gives bit-identical interpreter results for
 *    @main on three input seeds, and survives print -> parse unchanged.
 * 2. Every pass on every golden program of these passes: types, results,
 *    well-formedness, postcondition and round trip as above.
 * 3. Hand-made counterexamples each postcondition checker must reject;
 *    the pass then fixes each.
 */
#include "golden.h"

static const char *const my_passes[] = {"fold_constant", "dead_code", "eliminate_common_subexpr",
                                        "simplify_expr", "inline"};
enum {
  NPASSES = sizeof my_passes / sizeof my_passes[0],
  FLAGS = GOLDEN_TEXT | GOLDEN_DROPS_GLOBALS,
};

static void test_golden(void) {
  for (int i = 0; i < NPASSES; i++)
    golden_cases(my_passes[i], 4, FLAGS);
}

/* Every pass on the input program of every golden file of these passes. */
static void test_all_on_all(void) {
  for (int i = 0; i < NPASSES; i++) {
    char dir[1024];
    snprintf(dir, sizeof dir, "%s/%s", GOLDEN_DIR, my_passes[i]);
    golden_run_all_on(my_passes, NPASSES, dir, false, FLAGS);
  }
}

/* ---------------------------------------------------- counterexamples */

static const GoldenCounter counters[] = {
    {"fold_constant", "def @main(%x: float32) -> float32 { add(%x, multiply(2f, 3f)) }",
     "operator call"},
    {"fold_constant", "def @main(%x: float32) -> float32 { let %c = 2f; add(%x, %c) }",
     "let bound to a constant"},
    {"fold_constant", "def @main(%x: float32) -> float32 { if (True) { %x } else { 1f } }",
     "constant condition"},
    {"fold_constant", "def @main(%x: float32) -> float32 { let %t = (%x, 1f); (%x, %t).0 }",
     "projection"},
    {"dead_code", "def @main(%x: float32) -> float32 { let %d = exp(%x); %x }", "unused pure let"},
    {"dead_code",
     "def @main(%x: float32) -> float32 { %x }\n"
     "def @lost(%y: float32) -> float32 { %y }",
     "unreachable"},
    {"eliminate_common_subexpr", "def @main(%x: float32) -> float32 { add(exp(%x), exp(%x)) }",
     "two equal exp"},
    {"eliminate_common_subexpr",
     "def @main(%x: float32) -> float32 { let %a = exp(%x); add(%a, exp(%x)) }", "instead of %a"},
    {"simplify_expr", "def @main(%x: int32) -> int32 { add(%x, 0) }", "simplifiable add"},
    {"simplify_expr",
     "def @main(%x: Tensor[(2, 3), float32]) -> Tensor[(2, 3), float32] {"
     " transpose(transpose(%x)) }",
     "simplifiable transpose"},
    {"simplify_expr", "def @main(%x: float32) -> float32 { cast(%x, dtype=\"float32\") }",
     "simplifiable cast"},
    {"inline",
     "def @main(%x: float32) -> float32 { @f(%x) }\n"
     "def @f(%y: float32) -> float32 { exp(%y) }",
     "call of @f"},
    {"inline",
     "def @main(%x: float32) -> float32 { add(@f(%x), @f(%x)) }\n"
     "def @f(%y: float32, Inline=1) -> float32 { exp(%y) }",
     "call of @f"},
    {"inline",
     "def @main(%x: float32) -> float32 {"
     " let %g = fn (%y: float32) -> float32 { exp(%y) }; %g(%x) }",
     "function literal %g"},
};

int main(void) {
  test_golden();
  test_all_on_all();
  golden_counterexamples(counters, sizeof counters / sizeof counters[0], FLAGS);
  return test_summary();
}
