/*
 * Differential tests of every relayc pass on generated programs, through
 * the fuzz targets' own check (oracle_check, oracle/oracle.h) on a fixed
 * set of pseudo-random inputs, so that a regression shows up in ctest.
 * The comparison is exact (every pass's contract is PASS_EXACT: results
 * bit-identical, -0 and +0 apart, errors kept, traces of ref effects
 * identical) on two argument seeds.
 *
 *   opt    fold_constant, dead_code, eliminate_common_subexpr,
 *          simplify_expr, inline: 300 inputs under each generator policy
 *          in turn, some globals marked Inline=1 (the generator never marks
 *          one) and, when CSE runs first, the generator's shared nodes
 *          copied once per use (so CSE has work to redo); each pass alone,
 *          then a random sequence of four.
 *   norm   to_anf, to_gnf, fuse_ops and any pass listed after them in
 *          passes.def: 1500 inputs under the default and the fusion
 *          policies; each pass alone, a random sequence of four of them,
 *          and a random sequence of six drawn from all passes.
 * Every pass must change a share of the programs (else the test would
 * prove nothing).  RS_PASSES_RANDOM_N and RS_PASSES_NORM_N (environment)
 * override the numbers of inputs, RS_PASSES_RANDOM_SHOW the number of
 * failures printed (10).  A failure prints the fuzzers' report.
 */
#include <stdlib.h>
#include <string.h>

#include "compiler/ir/hash.h"
#include "compiler/ir/ptrmap.h"
#include "compiler/passes/pass.h"
#include "targets/targets.h"
#include "test.h"

/* The production passes (the PASS rows of passes.def): the first NOPT are
 * the opt group, the rest the norm group. */
static const char *const all_passes[] = {
#define PASS(name, allow, policy, desc) #name,
#define TEST_PASS(name, allow, policy, desc)
#include "compiler/passes/passes.def"
#undef PASS
#undef TEST_PASS
};
enum { NALL = sizeof all_passes / sizeof all_passes[0], NOPT = 5 };

static int failures, show = 10, unusable;
static int changed[NALL], ran[NALL];

/* ------------------------------------------------------------ programs */

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

/* One input: its bytes, the policy, and how to prepare the program. */
typedef struct Input {
  const uint8_t *data;
  size_t size;
  const GenPolicy *policy;
  int index;
  bool mark_inline; /* mark globals Inline=1, chosen by the index */
  bool unshare;     /* copy shared nodes once per use */
} Input;

/* OracleInput.make: the same program every time. */
static Module *make(void *ctx) {
  const Input *in = ctx;
  Module *m = gen_decode(in->data, in->size, in->policy, NULL);
  for (int i = 0; in->mark_inline && i < m->nfuncs; i++)
    m->funcs[i]->is_inline = ((unsigned)in->index >> (i % 8)) & 1;
  if (in->unshare) {
    Unshare u = {m, 4000, {0}};
    for (int i = 0; i < m->nfuncs; i++)
      unshare_slot(&m->funcs[i]->func, &u);
    ptrmap_free(&u.seen);
  }
  return m;
}

/* --------------------------------------------------------------- checks */

/* Counts which passes changed the program (its text). */
typedef struct Watch {
  const OracleConfig *c;
  char *text; /* the program before the next stage */
} Watch;

static int pass_index(const char *name) {
  for (int k = 0; k < NALL; k++)
    if (strcmp(all_passes[k], name) == 0)
      return k;
  return -1;
}

static void watch_stage(void *ctx, int i, const TgStage *s, TgProgram *p) {
  Watch *w = ctx;
  char *t = w->c->target->print(p);
  int k = pass_index(s->name);
  ran[k]++;
  changed[k] += strcmp(t, w->text) != 0;
  free(w->text);
  w->text = t;
}

/* Check the sequence seq[0 .. n) of all_passes on in; false when the
 * generated program is not usable (the generator's business). */
static bool check_seq(const int *seq, int n, Input *in) {
  OracleHarness h;
  OracleConfig c;
  char err[1024];
  rs_harness_get("pass_fuzzer", &h);
  oracle_init(&c, &h, 0, NULL, err, sizeof err);
  c.policy = in->policy;
  c.fixed = true;
  c.nseeds = 2;
  c.pipeline.n = n;
  for (int i = 0; i < n; i++) {
    const PassInfo *p = pass_lookup(all_passes[seq[i]], strlen(all_passes[seq[i]]));
    c.pipeline.stage[i] = (TgStage){p->name, p, 0}; /* exact */
  }
  in->unshare = strcmp(all_passes[seq[0]], "eliminate_common_subexpr") == 0;
  Module *m = make(in);
  Watch w = {&c, ir_print_module(m)};
  ir_module_free(m);
  c.observer = (OracleObserver){watch_stage, NULL, &w};
  Verdict v;
  bool ok = oracle_check(&c, &(OracleInput){.make = make, .ctx = in, .seed = 7}, &v);
  bool usable = ok || v.stage >= 0;
  if (!ok && usable) {
    test_failed++;
    if (++failures <= show) {
      fprintf(stderr, "input %d (%s):", in->index, in->policy->name);
      oracle_report(stderr, &c, &v, NULL);
    }
  }
  test_passed += ok;
  unusable += !usable;
  verdict_free(&v);
  free(w.text);
  return usable;
}

/* n inputs: each pass of [first, first + npasses) alone, a random sequence
 * of four of them, and (mixed) a random sequence of six of all passes. */
static int run_inputs(int n, int first, int npasses, bool all_policies, bool mixed, uint64_t state,
                      size_t max_size) {
  int npol = 0;
  while (gen_policy_at(npol))
    npol++;
  const GenPolicy *two[] = {gen_policy_get("default"), gen_policy_get("fusion")};
  static uint8_t buf[4096];
  int usable = 0;
  for (int i = 0; i < n; i++) {
    size_t size = 16 + hash_splitmix64(&state) % max_size;
    for (size_t j = 0; j < size; j++)
      buf[j] = (uint8_t)hash_splitmix64(&state);
    Input in = {buf, size, all_policies ? gen_policy_at(i % npol) : two[i % 2], i, all_policies};
    bool ok = true;
    for (int k = first; ok && k < first + npasses; k++)
      ok = check_seq(&k, 1, &in);
    int seq[6];
    for (int j = 0; j < 4; j++)
      seq[j] = first + (int)(hash_splitmix64(&state) % (uint64_t)npasses);
    ok = ok && check_seq(seq, 4, &in);
    for (int j = 0; mixed && j < 6; j++)
      seq[j] = (int)(hash_splitmix64(&state) % NALL);
    ok = ok && (!mixed || check_seq(seq, 6, &in));
    usable += ok;
  }
  return usable;
}

static int env_int(const char *name, int dflt) {
  const char *v = getenv(name);
  return v ? atoi(v) : dflt;
}

int main(void) {
  show = env_int("RS_PASSES_RANDOM_SHOW", 10);
  int n = env_int("RS_PASSES_RANDOM_N", 300);
  int usable = run_inputs(n, 0, NOPT, true, false, 0x5eed, 1500);
  printf("opt: %d of %d inputs usable\n", usable, n);
  CHECK(usable > n / 2);
  n = env_int("RS_PASSES_NORM_N", 1500);
  usable = run_inputs(n, NOPT, NALL - NOPT, false, true, 0xf05e, 2000);
  printf("norm: %d of %d inputs usable\n", usable, n);
  CHECK(usable > n * 9 / 10);
  for (int k = 0; k < NALL; k++) {
    printf("%s changed %d of %d programs\n", all_passes[k], changed[k], ran[k]);
    CHECK_MSG(changed[k] >= ran[k] / (k < NOPT ? 50 : 10), "%s changed only %d of %d programs",
              all_passes[k], changed[k], ran[k]);
  }
  return test_summary();
}
