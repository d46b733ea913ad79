/*
 * Differential tests of to_anf, to_gnf and fuse_ops on generated programs:
 * the oracles of the fuzz harness, on a fixed set of pseudo-random inputs.
 * Each input is decoded with gen_decode under the "default" and the
 * "fusion" policy in turn and must type check (else it is the generator's
 * business and is only counted); then each pass runs alone, a random
 * sequence of four of them runs one after the other, and a random sequence
 * of six passes drawn from all of relayc's (the other passes change what
 * ours get: kernels rewritten by simplify_expr, lets moved by inline...;
 * after one of theirs the module is only type checked again, and the
 * sequence stops there if it does not).  After every pass of ours:
 * the module is well formed, type checks with every global's type
 * unchanged (@main's included), meets the pass's postcondition, prints and
 * parses back to the same text, and @main gives the same result on two
 * input seeds (ev_compare with zero tolerance: these passes do not change
 * arithmetic; undecided runs, out of fuel, are allowed).
 *
 * RS_PASSES_NORM_N (environment) overrides the number of inputs (1500),
 * RS_PASSES_NORM_SHOW the number of failures printed (10).  A failing
 * input is printed as the program before the pass: saved under
 * tests/regressions/<pass>/, test_passes_norm runs it from then on.
 */
#include <stdlib.h>
#include <string.h>

#include "compiler/eval/eval.h"
#include "compiler/passes/pass.h"
#include "compiler/typing/typing.h"
#include "generator/gen.h"
#include "test.h"

static const char *const my_passes[] = {"to_anf", "to_gnf", "fuse_ops"};
enum { NPASSES = sizeof my_passes / sizeof my_passes[0], NSEEDS = 2, SEQ = 4, MIXED = 6 };

/* The other passes, for mixed sequences. */
static const char *const other_passes[] = {"fold_constant", "dead_code", "eliminate_common_subexpr",
                                           "simplify_expr", "inline"};
enum { NOTHERS = sizeof other_passes / sizeof other_passes[0] };

static uint64_t splitmix(uint64_t *s) {
  uint64_t z = (*s += 0x9e3779b97f4a7c15ull);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return z ^ (z >> 31);
}

static const EvTolerance exact = {0, 0, 0, 0};

static int failures, show = 10;
static int changed[NPASSES], ran[NPASSES], undecided, stopped;

/* Report a failed oracle with the program before the pass. */
static void fail(const char *pass, int input, const char *policy, const char *oracle,
                 const char *detail, const char *program) {
  test_failed++;
  if (++failures <= show)
    fprintf(stderr, "input %d (%s), %s: %s: %s\n--- program before:\n%s\n", input, policy, pass,
            oracle, detail ? detail : "", program);
}

static bool diag_ok(bool ok, Diag *d, char *out, size_t n) {
  snprintf(out, n, "%s", ok ? "" : d->text ? d->text : "?");
  return ok;
}

/* Print, parse and print again: the same text. */
static bool round_trip(const char *text) {
  Diag d;
  diag_init(&d, NULL, text);
  Module *n = ir_parse_module(text, strlen(text), "out", &d);
  char *again = n ? ir_print_module(n) : NULL;
  bool ok = again && strcmp(again, text) == 0;
  free(again);
  ir_module_free(n);
  diag_free(&d);
  return ok;
}

/* Run pass k on m (type checked) and apply every oracle; false when one
 * fails (m is then not fit for another pass). */
static bool check_pass(int k, Module *m, int input, const char *policy) {
  const PassInfo *p = pass_lookup(my_passes[k], strlen(my_passes[k]));
  Diag d;
  diag_init(&d, NULL, NULL);
  char msg[4096];
  char *text = ir_print_module(m);
  int nf = m->nfuncs;
  const char **names = malloc(sizeof *names * (size_t)(nf + 1));
  Type **types = malloc(sizeof *types * (size_t)(nf + 1));
  for (int i = 0; i < nf; i++)
    names[i] = m->funcs[i]->name, types[i] = m->funcs[i]->func->type;
  EvRun *before[NSEEDS];
  EvResult res[NSEEDS];
  for (int s = 0; s < NSEEDS; s++) {
    before[s] = ev_run_new(NULL);
    res[s] = ev_run_main(before[s], m, (uint64_t)s + 11);
  }
  int failed = test_failed;
  ran[k]++;
  if (!diag_ok(p->run(m, &d), &d, msg, sizeof msg)) {
    fail(p->name, input, policy, "pass failed", msg, text);
  } else if (diag_reset(&d), !diag_ok(ir_well_formed(m, &d), &d, msg, sizeof msg)) {
    fail(p->name, input, policy, "not well formed", msg, text);
  } else if (diag_reset(&d), !diag_ok(ty_check_module(m, &d), &d, msg, sizeof msg)) {
    char *out = ir_print_module(m);
    size_t len = strlen(msg);
    snprintf(msg + len, sizeof msg - len, "\n--- after:\n%s", out);
    free(out);
    fail(p->name, input, policy, "does not type check", msg, text);
  } else {
    for (int i = 0; i < nf; i++) {
      GlobalFn *g = ir_global_get(m, names[i]);
      if (!g || !ir_type_equal(g->func->type, types[i]))
        fail(p->name, input, policy, "type changed", names[i], text);
    }
    char *out = ir_print_module(m);
    diag_reset(&d);
    if (!diag_ok(p->post(m, &d), &d, msg, sizeof msg)) {
      size_t len = strlen(msg);
      snprintf(msg + len, sizeof msg - len, "\n--- after:\n%s", out);
      fail(p->name, input, policy, "postcondition", msg, text);
    }
    changed[k] += strcmp(out, text) != 0;
    if (!round_trip(out))
      fail(p->name, input, policy, "print/parse/print differs", out, text);
    for (int s = 0; s < NSEEDS; s++) {
      EvRun *r = ev_run_new(NULL);
      EvResult a = ev_run_main(r, m, (uint64_t)s + 11);
      char why[512] = "";
      EvVerdict v = ev_compare(&res[s], &a, &exact, why, sizeof why);
      undecided += v == EV_UNDECIDED;
      if (v == EV_DIFFERENT) {
        snprintf(msg, sizeof msg, "%s (%s vs %s)\n--- after:\n%s", why,
                 ev_status_name(res[s].status), ev_status_name(a.status), out);
        fail(p->name, input, policy, "result changed", msg, text);
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

/* Run another pass (index k - NPASSES into other_passes) and type check
 * its output; false when either fails (not ours to judge here). */
static bool run_other(int k, Module *m) {
  const char *name = other_passes[k - NPASSES];
  const PassInfo *p = pass_lookup(name, strlen(name));
  Diag d;
  diag_init(&d, NULL, NULL);
  bool ok = p && p->run(m, &d) && (diag_reset(&d), ir_well_formed(m, &d)) &&
            (diag_reset(&d), ty_check_module(m, &d));
  diag_free(&d);
  stopped += !ok;
  return ok;
}

/* Decode an input and run a sequence of passes on it (indices >= NPASSES
 * are other passes); false when the decoded program does not type check. */
static bool run_seq(const int *seq, int n, const uint8_t *data, size_t size, int input,
                    const GenPolicy *pol) {
  Module *m = gen_decode(data, size, pol, NULL);
  Diag d;
  diag_init(&d, NULL, NULL);
  bool ok = ty_check_module(m, &d);
  diag_free(&d);
  for (int i = 0; ok && i < n; i++)
    if (seq[i] < NPASSES ? !check_pass(seq[i], m, input, pol->name) : !run_other(seq[i], m))
      break;
  ir_module_free(m);
  return ok;
}

int main(void) {
  const char *env = getenv("RS_PASSES_NORM_N");
  int n = env ? atoi(env) : 1500;
  if (getenv("RS_PASSES_NORM_SHOW"))
    show = atoi(getenv("RS_PASSES_NORM_SHOW"));
  const GenPolicy *pols[2] = {gen_policy_get("default"), gen_policy_get("fusion")};
  CHECK(pols[0] && pols[1]);
  if (!pols[0] || !pols[1])
    return test_summary();
  uint64_t state = 0xf05e;
  static uint8_t buf[4096];
  int usable = 0;
  for (int i = 0; i < n; i++) {
    size_t size = 16 + splitmix(&state) % 2000;
    for (size_t j = 0; j < size; j++)
      buf[j] = (uint8_t)splitmix(&state);
    const GenPolicy *pol = pols[i % 2];
    bool ok = true;
    for (int k = 0; ok && k < NPASSES; k++)
      ok = run_seq(&k, 1, buf, size, i, pol);
    int seq[SEQ];
    for (int j = 0; j < SEQ; j++)
      seq[j] = (int)(splitmix(&state) % NPASSES);
    ok = ok && run_seq(seq, SEQ, buf, size, i, pol);
    int mixed[MIXED];
    for (int j = 0; j < MIXED; j++)
      mixed[j] = (int)(splitmix(&state) % (NPASSES + NOTHERS));
    ok = ok && run_seq(mixed, MIXED, buf, size, i, pol);
    usable += ok;
  }
  printf("%d of %d inputs type checked; %d comparisons undecided; %d mixed sequences stopped "
         "after another pass\n",
         usable, n, undecided, stopped);
  CHECK(usable > n * 9 / 10);
  for (int k = 0; k < NPASSES; k++) {
    printf("%s changed %d of %d programs\n", my_passes[k], changed[k], ran[k]);
    CHECK_MSG(changed[k] >= ran[k] / 10, "%s changed only %d of %d programs", my_passes[k],
              changed[k], ran[k]);
  }
  return test_summary();
}
