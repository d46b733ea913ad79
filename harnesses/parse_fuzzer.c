/*
 * parse_fuzzer.c - fuzzes the text format: raw bytes -> ir_parse_module.
 *
 * When the input parses, the module is printed, the text re-parsed (which
 * must succeed) and printed again.  Oracles:
 *   - the two texts are identical (print . parse . print is the identity
 *     on printed text);
 *   - the two modules are alpha-equal;
 *   - sharing survives: both modules have the same number of distinct
 *     shared-or-not compound nodes (variables, globals and scalar
 *     constants excepted: the printer writes them at every use).
 * A violation prints both texts to stderr and aborts, so libFuzzer saves
 * the input.  The parser itself must never crash, leak or hang.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "compiler/ir/ir.h"
#include "compiler/ir/ptrmap.h"
#include "defaults.h"
#include "no_flags.h"

typedef struct {
  PtrMap seen; /* nodes visited */
  long compound;
} Count;

static void count_visit(Expr **slot, void *ctx) {
  Count *c = ctx;
  const Expr *e = *slot;
  if (!ptrmap_first(&c->seen, e))
    return;
  if (!(e->kind == EX_VAR || e->kind == EX_GLOBAL ||
        (e->kind == EX_CONST && e->constant->rank == 0)))
    c->compound++;
  ir_expr_children(*slot, count_visit, ctx);
}

/* Distinct compound nodes per function, summed (sharing counts once). */
static long compound_nodes(const Module *m) {
  long total = 0;
  for (int i = 0; i < m->nfuncs; i++) {
    Count c = {{0}, 0};
    Expr *root = m->funcs[i]->func;
    if (root)
      count_visit(&root, &c);
    ptrmap_free(&c.seen);
    total += c.compound;
  }
  return total;
}

static void violation(const char *what, const char *t1, const char *t2, const char *extra) {
  fprintf(stderr, "parse_fuzzer: %s\n--- first print:\n%s\n--- second print:\n%s\n%s", what,
          t1 ? t1 : "(none)", t2 ? t2 : "(none)", extra ? extra : "");
  abort();
}

/* harnesses/options/parse_fuzzer.options holds however it is started.
 * relaysmith's flags (-passes=, -policy=, ...: oracle/options.h) are an
 * error here, since none applies to text; -help=1 says so before
 * libFuzzer's own help. */
int LLVMFuzzerInitialize(int *argc, char ***argv) {
  rs_refuse_flags(*argc, *argv, "parse_fuzzer", "the text format");
  rs_apply_defaults(argc, argv);
  return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
#ifdef RS_TEST_PASSES
  /* Test build only: a deliberately crashing input, to show that a crash
   * file reproduces the same way in the libFuzzer build and in a gcc build
   * with the standalone driver (tests/repro). */
  static const char marker[] = "// relaysmith: deliberate crash";
  static int armed = -1; /* only when asked for, so fuzzing never finds it */
  if (armed < 0)
    armed = getenv("RELAYSMITH_DELIBERATE_CRASH") != NULL;
  if (armed && size >= sizeof marker - 1 && memcmp(data, marker, sizeof marker - 1) == 0) {
    fprintf(stderr, "parse_fuzzer: deliberate crash (test build)\n");
    abort();
  }
#endif
  Diag d;
  diag_init(&d, "<fuzz>", NULL);
  Module *m1 = ir_parse_module((const char *)data, size, "<fuzz>", &d);
  if (!m1) {
    if (d.count == 0)
      violation("parse failed without an error message", NULL, NULL, NULL);
    diag_free(&d);
    return 0;
  }
  char *t1 = ir_print_module(m1);
  diag_reset(&d);
  Module *m2 = ir_parse_module(t1, strlen(t1), "<printed>", &d);
  if (!m2)
    violation("the printed text does not parse", t1, NULL, d.text);
  char *t2 = ir_print_module(m2);
  if (strcmp(t1, t2) != 0)
    violation("print(parse(print(m))) differs from print(m)", t1, t2, NULL);
  if (!ir_module_alpha_equal(m1, m2))
    violation("parse(print(m)) is not alpha-equal to m", t1, t2, NULL);
  if (compound_nodes(m1) != compound_nodes(m2))
    violation("sharing was not preserved", t1, t2, NULL);
  free(t1);
  free(t2);
  ir_module_free(m1);
  ir_module_free(m2);
  diag_free(&d);
  return 0;
}
