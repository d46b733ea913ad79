/*
 * Differential tests of the optimisation passes fold_constant, dead_code,
 * eliminate_common_subexpr, simplify_expr and inline on generated
 * programs (each generator policy in turn, some globals marked Inline=1,
 * and for CSE the generator's shared nodes copied once per use):
 * the same oracles the fuzz harness applies, on a fixed set of
 * pseudo-random inputs, so a regression shows up in ctest.  Each input
 * runs each pass alone and a random sequence of four passes; after every
 * pass: the decoded program type checks; after the pass it is well
 * formed, type checks with every global's type unchanged, meets the pass's
 * postcondition, prints and parses back to the same text, and @main gives
 * the same result on two input seeds (exactly: zero tolerance, NaN equal to
 * NaN, -0 equal to +0; runs out of fuel are skipped).
 *
 * RS_PASSES_RANDOM_N (environment) overrides the number of inputs, and
 * RS_PASSES_RANDOM_SHOW the number of failures printed (10).
 */
#if !__has_include("generator/gen.h") || !__has_include("compiler/eval/eval.h") ||                 \
                                                        !__has_include("compiler/typing/typing.h")
#include <stdio.h>
int main(void) {
  printf("skipped: needs the generator, compiler/eval and compiler/typing\n");
  return 0;
}
#else
#include <stdlib.h>
#include <string.h>

#include "compiler/eval/eval.h"
#include "compiler/ir/ptrmap.h"
#include "compiler/passes/pass.h"
#include "compiler/typing/typing.h"
#include "generator/gen.h"
#include "test.h"

static const char *const my_passes[] = {"fold_constant", "dead_code", "eliminate_common_subexpr",
                                        "simplify_expr", "inline"};
enum { NPASSES = sizeof my_passes / sizeof my_passes[0], NSEEDS = 2 };

static uint64_t splitmix(uint64_t *s) {
  uint64_t z = (*s += 0x9e3779b97f4a7c15ull);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return z ^ (z >> 31);
}

static const EvTolerance exact = {0, 0, 0, 0};

static int failures, show = 10;
static int changed[NPASSES]; /* inputs each pass changed */

/* Report a failed oracle with the program before the pass. */
static void fail(const char *pass, int input, const char *oracle, const char *detail,
                 const char *program) {
  test_failed++;
  if (++failures <= show)
    fprintf(stderr, "input %d, %s: %s: %s\n--- program before:\n%s\n", input, pass, oracle,
            detail ? detail : "", program);
}

static bool diag_ok(bool ok, Diag *d, char *out, size_t n) {
  snprintf(out, n, "%s", ok ? "" : d->text ? d->text : "?");
  return ok;
}

/* Copies of shared nodes, one per use, so that CSE has work to redo:
 * structurally equal but distinct nodes where the generator shared one.
 * Shared nodes are binder-free, so plain copies are well formed. */
typedef struct {
  Module *m;
  int64_t budget; /* nodes the copies may add */
  PtrMap seen;
} Unshare;

static void unshare_slot(Expr **slot, void *ctx) {
  Unshare *u = ctx;
  int added;
  ptrmap_put(&u->seen, *slot, &added);
  if (!added && (*slot)->kind != EX_VAR && (*slot)->kind != EX_GLOBAL && u->budget > 0) {
    *slot = ir_expr_clone_node(u->m, *slot); /* a second use: a copy */
    Expr *c = *slot;
    if (c->kind == EX_TUPLE && c->tuple.n) {
      Expr **f = ARENA_ARRAY(u->m->arena, Expr *, c->tuple.n);
      memcpy(f, c->tuple.fields, sizeof *f * (size_t)c->tuple.n);
      c->tuple.fields = f;
    }
    if (c->kind == EX_CALL && c->call.nargs) {
      Expr **a = ARENA_ARRAY(u->m->arena, Expr *, c->call.nargs);
      memcpy(a, c->call.args, sizeof *a * (size_t)c->call.nargs);
      c->call.args = a;
    }
    u->budget--;
    ptrmap_put(&u->seen, c, NULL);
  }
  ir_expr_children(*slot, unshare_slot, u);
}

static void unshare(Module *m) {
  Unshare u = {m, 4000, {0}};
  for (int i = 0; i < m->nfuncs; i++)
    unshare_slot(&m->funcs[i]->func, &u);
  ptrmap_free(&u.seen);
}

/* Run pass k on m (type checked) and apply every oracle; false when one
 * fails (m is then not fit for another pass). */
static bool check_pass(int k, Module *m, int input) {
  const PassInfo *p = pass_lookup(my_passes[k], strlen(my_passes[k]));
  Diag d;
  diag_init(&d, NULL, NULL);
  char msg[2048];
  char *text = ir_print_module(m);
  int ntypes = m->nfuncs;
  const char **names = malloc(sizeof *names * (size_t)(ntypes + 1));
  Type **types = malloc(sizeof *types * (size_t)(ntypes + 1));
  for (int i = 0; i < ntypes; i++)
    names[i] = m->funcs[i]->name, types[i] = m->funcs[i]->func->type;
  EvRun *before[NSEEDS];
  EvResult res[NSEEDS];
  for (int s = 0; s < NSEEDS; s++) {
    before[s] = ev_run_new(NULL);
    res[s] = ev_run_main(before[s], m, (uint64_t)s + 7);
  }
  int failed = test_failed;
  if (!diag_ok(p->run(m, &d), &d, msg, sizeof msg))
    fail(p->name, input, "pass failed", msg, text);
  else if (diag_reset(&d), !diag_ok(ir_well_formed(m, &d), &d, msg, sizeof msg))
    fail(p->name, input, "not well formed", msg, text);
  else if (diag_reset(&d), !diag_ok(ty_check_module(m, &d), &d, msg, sizeof msg)) {
    char *out = ir_print_module(m);
    size_t len = strlen(msg);
    snprintf(msg + len, sizeof msg - len, "\n--- after:\n%s", out);
    free(out);
    fail(p->name, input, "does not type check", msg, text);
  } else {
    for (int i = 0; i < ntypes; i++) {
      GlobalFn *g = ir_global_get(m, names[i]);
      if (g && !ir_type_equal(g->func->type, types[i]))
        fail(p->name, input, "type changed", names[i], text);
    }
    diag_reset(&d);
    if (!diag_ok(p->post(m, &d), &d, msg, sizeof msg))
      fail(p->name, input, "postcondition", msg, text);
    char *out = ir_print_module(m);
    changed[k] += strcmp(out, text) != 0;
    Diag pd;
    diag_init(&pd, NULL, out);
    Module *n = ir_parse_module(out, strlen(out), "out", &pd);
    char *again = n ? ir_print_module(n) : NULL;
    if (!again || strcmp(again, out) != 0)
      fail(p->name, input, "print/parse/print differs", out, text);
    free(again);
    ir_module_free(n);
    diag_free(&pd);
    for (int s = 0; s < NSEEDS; s++) {
      EvRun *r = ev_run_new(NULL);
      EvResult a = ev_run_main(r, m, (uint64_t)s + 7);
      char why[512] = "";
      if (ev_compare(&res[s], &a, &exact, why, sizeof why) == EV_DIFFERENT) {
        snprintf(msg, sizeof msg, "%s (%s vs %s)\n--- after:\n%s", why,
                 ev_status_name(res[s].status), ev_status_name(a.status), out);
        fail(p->name, input, "result changed", msg, text);
      }
      ev_run_free(r);
    }
    free(out);
  }
  test_passed++;
  for (int s = 0; s < NSEEDS; s++)
    ev_run_free(before[s]);
  free(names);
  free(types);
  free(text);
  diag_free(&d);
  return test_failed == failed;
}

/* Decode an input and run a sequence of passes on it; false when the
 * input does not type check (the generator's business, not ours). */
static bool run_seq(const int *seq, int n, const uint8_t *data, size_t size, int input) {
  int npol = 0;
  while (gen_policy_at(npol))
    npol++;
  Module *m = gen_decode(data, size, gen_policy_at(input % npol), NULL);
  /* The generator never marks globals Inline=1: mark some, chosen by the
   * input, so that inline's main rule is exercised (it changes nothing
   * else). */
  for (int i = 0; i < m->nfuncs; i++)
    m->funcs[i]->is_inline = ((unsigned)input >> (i % 8)) & 1;
  if (seq[0] == 2)
    unshare(m); /* CSE first: give it copies to merge */
  Diag d;
  diag_init(&d, NULL, NULL);
  bool ok = ty_check_module(m, &d);
  diag_free(&d);
  for (int i = 0; ok && i < n; i++)
    if (!check_pass(seq[i], m, input))
      break;
  ir_module_free(m);
  return ok;
}

int main(void) {
  const char *env = getenv("RS_PASSES_RANDOM_N");
  int n = env ? atoi(env) : 300;
  if (getenv("RS_PASSES_RANDOM_SHOW"))
    show = atoi(getenv("RS_PASSES_RANDOM_SHOW"));
  uint64_t state = 0x5eed;
  uint8_t buf[4096];
  int usable = 0;
  for (int i = 0; i < n; i++) {
    size_t size = 16 + splitmix(&state) % 1500;
    for (size_t j = 0; j < size; j++)
      buf[j] = (uint8_t)splitmix(&state);
    bool ok = true;
    for (int k = 0; ok && k < NPASSES; k++)
      ok = run_seq(&k, 1, buf, size, i);
    /* And a random sequence of four passes, each after the other. */
    int seq[4];
    for (int j = 0; j < 4; j++)
      seq[j] = (int)(splitmix(&state) % NPASSES);
    ok = ok && run_seq(seq, 4, buf, size, i);
    usable += ok;
  }
  printf("%d of %d inputs type checked\n", usable, n);
  CHECK(usable > n / 2);
  for (int k = 0; k < NPASSES; k++) {
    printf("%s changed %d\n", my_passes[k], changed[k]);
    CHECK_MSG(changed[k] >= usable / 50, "%s changed only %d programs", my_passes[k], changed[k]);
  }
  return test_summary();
}
#endif
