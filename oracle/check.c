/*
 * check.c - the one checking pipeline (oracle.h): a target's stages and
 * the oracles after each, the differential oracle, and oracle_check,
 * which sends every check to its own file.  Library code: a failure is a
 * Verdict, never a print or an abort.
 */
#include <stdlib.h>
#include <string.h>

#include "compiler/typing/typing.h"
#include "oracle_int.h"

enum { MAX_SEEDS = 8 };

/* The comparison rules stage s's contract allows (with c's additions). */
static EvRules stage_rules(const OracleConfig *c, const TgStage *s) {
  uint32_t allow = s->allow | c->allow;
  return (EvRules){
      .tol = c->tolerance             ? c->tolerance
             : allow & TG_ALLOW_FLOAT ? &ev_default_tolerance
                                      : NULL,
      .signed_zero = allow & TG_ALLOW_SIGNED_ZERO,
      .error_to_value = allow & TG_ALLOW_ERROR_TO_VALUE,
      .drop_checks = allow & TG_ALLOW_DROP_CHECKS,
      .drop_reads = allow & TG_ALLOW_DROP_READS,
      .effects = allow & TG_ALLOW_EFFECTS,
  };
}

/* Results of the program so far, one per argument seed. */
typedef struct Results {
  int n;
  bool target; /* res holds the target's results (not only the reference) */
  uint64_t seed[MAX_SEEDS];
  EvRun *run[MAX_SEEDS];
  EvResult res[MAX_SEEDS];
} Results;

static void results_free(Results *r) {
  for (int k = 0; k < r->n; k++)
    ev_run_free(r->run[k]);
}

/* The result oracle after stage s: execute, compare, keep the new result. */
static bool check_result(const OracleConfig *c, TgProgram *p, const TgStage *s, Results *r,
                         Verdict *v) {
  EvLimits lim = oracle_limits_of(c);
  for (int k = 0; k < r->n && !v->failed; k++) {
    EvRun *run = ev_run_new(&lim);
    EvResult a;
    if (!c->target->execute(p, run, r->seed[k], &a)) {
      ev_run_free(run);
      return true;
    }
    char why[512] = "";
    EvRules rules = stage_rules(c, s);
    bool effects = false; /* the traces differ, not the results */
    EvVerdict same = ev_compare(&r->res[k], &a, &rules, why, sizeof why);
    if (same != EV_DIFFERENT) {
      char ewhy[512];
      if (ev_compare_effects(&r->res[k], &a, &rules, ewhy, sizeof ewhy) == EV_DIFFERENT) {
        same = EV_DIFFERENT, effects = true;
        memcpy(why, ewhy, sizeof why);
      }
    }
    if (c->observer.result && k == 0)
      c->observer.result(c->observer.ctx, v->stage, &a, same, why);
    if (same == EV_DIFFERENT && !v->failed)
      v->seed = r->seed[k];
    if (same == EV_DIFFERENT)
      verdict_fail(v, effects ? "effects" : "result",
                   effects ? "the trace of ref effects differs before and after the pass"
                           : "the interpreter's result differs before and after the pass",
                   "%s (before: %s, after: %s)", why, ev_status_name(r->res[k].status),
                   ev_status_name(a.status));
    ev_run_free(r->run[k]);
    r->run[k] = run;
    r->res[k] = a;
    r->target = true;
  }
  return !v->failed;
}

/* Stage i of pl on p and the oracles after it; false with v failed.  A
 * stage that refuses the program is counted and ends the pipeline. */
static bool run_stage(const OracleConfig *c, TgProgram *p, const TgStage *s, Results *r, Verdict *v,
                      bool *stop) {
  const Target *t = c->target;
  char *diag = NULL;
  TgStatus st = t->run(p, s, &diag);
  if (st == TG_FAILED)
    verdict_fail(v, "crash", "the pass reported an internal failure", "%s", diag ? diag : "");
  if (st == TG_REJECTED) {
    if (!v->rejected++)
      v->reject_diag = diag, diag = NULL;
    *stop = true;
  }
  free(diag);
  if (st != TG_OK)
    return !v->failed;
  if (!(t->check(p, s, v) && (!r->n || !t->execute || check_result(c, p, s, r, v)) &&
        (!t->round_trip || t->round_trip(p, v)) && (!t->post || t->post(p, s, v))))
    return false;
  if (c->observer.stage)
    c->observer.stage(c->observer.ctx, v->stage, s, p);
  return true;
}

/* ------------------------------------------------ differential oracle */

static char *program_before(const OracleConfig *c, const OracleInput *in, const TgPipeline *pl,
                            int stage);

/* The second pipeline of the differential oracle: the target's choice
 * for first, else the one the input's header with every byte flipped
 * would choose. */
static void second_pipeline(const Target *t, const OracleInput *in, const TgPipeline *first,
                            TgPipeline *pl) {
  if (t->second_pipeline && t->second_pipeline(first, in->data, in->data ? in->size : 0, pl))
    return;
  uint8_t header[64] = {0};
  size_t n = in->data && in->size < sizeof header ? in->size : in->data ? sizeof header : 0;
  for (size_t i = 0; i < sizeof header; i++)
    header[i] = (uint8_t)((i < n ? in->data[i] : 0) ^ 0xa5);
  t->header_pipeline(header, sizeof header, pl);
}

/* The differential's key: the stages of b that a has not, "only in the
 * second: x+y" (where the difference most likely comes from). */
static char *differing_stages(const TgPipeline *a, const TgPipeline *b) {
  char buf[1024];
  size_t n = (size_t)snprintf(buf, sizeof buf, "only in the second:");
  for (int i = 0; i < b->n && n < sizeof buf; i++) {
    bool shared = false;
    for (int k = 0; k < a->n; k++)
      shared |= a->stage[k].impl == b->stage[i].impl;
    if (!shared)
      n += (size_t)snprintf(buf + n, sizeof buf - n, " %s", b->stage[i].name);
  }
  return strdup(buf);
}

static bool same_pipeline(const TgPipeline *a, const TgPipeline *b) {
  if (a->n != b->n)
    return false;
  for (int i = 0; i < a->n; i++)
    if (a->stage[i].impl != b->stage[i].impl)
      return false;
  return true;
}

/* The second run of a differential: p (a second form of the program, or
 * the same program loaded again) through pl with the checks after each
 * stage, then executed on every argument seed and compared with the
 * target's results in r; a difference fails v as oracle (what, with the
 * key), reported as the second run.  A run that refuses the program or
 * fails one of its own oracles gives no verdict here.  The results may
 * differ as far as any stage of either pipeline is allowed to change
 * them.  Frees p. */
static void compare_second(const OracleConfig *c, const OracleInput *in, Results *r, Verdict *v,
                           TgProgram *p, const TgPipeline *pl, const char *oracle, const char *what,
                           char *key) {
  const Target *t = c->target;
  Verdict scratch = {0};
  bool ran = p != NULL;
  for (int i = 0; ran && i < pl->n; i++) {
    char *diag = NULL;
    scratch.stage = i;
    ran = t->run(p, &pl->stage[i], &diag) == TG_OK && t->check(p, &pl->stage[i], &scratch) &&
          (!t->post || t->post(p, &pl->stage[i], &scratch));
    free(diag);
  }
  TgStage any = {0};
  for (int i = 0; i < pl->n; i++)
    any.allow |= pl->stage[i].allow;
  for (int i = 0; i < v->pipeline.n; i++)
    any.allow |= v->pipeline.stage[i].allow;
  EvLimits lim = oracle_limits_of(c);
  for (int k = 0; ran && k < r->n && !v->failed; k++) {
    EvRun *run = ev_run_new(&lim);
    EvResult b;
    char why[512] = "";
    EvRules rules = stage_rules(c, &any);
    if (t->execute(p, run, r->seed[k], &b) &&
        ev_compare(&r->res[k], &b, &rules, why, sizeof why) == EV_DIFFERENT) {
      char first[1024] = "";
      for (int i = 0, n = 0; i < v->pipeline.n && n < (int)sizeof first; i++)
        n += snprintf(first + n, sizeof first - (size_t)n, "%s%s", i ? "," : "",
                      v->pipeline.stage[i].name);
      v->pipeline = *pl;
      v->stage = pl->n - 1;
      v->seed = r->seed[k];
      verdict_fail(v, oracle, what, "%s (first pipeline: %s; second: this one)", why, first);
      v->key = key, key = NULL;
      v->after = t->print(p);
      v->before = program_before(c, in, pl, v->stage);
      if (t->reproduce)
        t->reproduce(p, v);
    }
    ev_run_free(run);
  }
  if (p)
    t->unload(p);
  free(key);
  verdict_free(&scratch);
}

/* The differential oracle, on one input in c->differential (by its
 * seed) whose results the target gave: the same program through a second
 * pipeline must give the same results on the same arguments. */
static void check_differential(const OracleConfig *c, const OracleInput *in, Results *r,
                               Verdict *v) {
  const Target *t = c->target;
  uint64_t h = (r->seed[0] ^ 0x9e3779b97f4a7c15ull) * 0xbf58476d1ce4e5b9ull;
  if (c->differential <= 0 || !r->target || !t->execute || (h >> 32) % (uint64_t)c->differential)
    return;
  TgPipeline pl;
  second_pipeline(t, in, &v->pipeline, &pl);
  if (!pl.n || same_pipeline(&pl, &v->pipeline))
    return;
  Verdict scratch = {0};
  Module *m = oracle_make_program(c, in, &scratch, NULL);
  Diag d;
  diag_init(&d, NULL, NULL);
  TgProgram *p = ty_check_module(m, &d) ? t->load(m, &scratch) : NULL;
  compare_second(c, in, r, v, p, &pl, "differential",
                 "two pipelines give different results for the same program and arguments",
                 differing_stages(&v->pipeline, &pl));
  verdict_free(&scratch);
  diag_free(&d);
  ir_module_free(m);
}

/* The second-form oracle (Target.load_variant: MLIR's static translation
 * of a program it translated with dynamic shapes), on every input whose
 * results the target gave and which has a second form: the second form
 * through the same pipeline must give the same results. */
static void check_variant(const OracleConfig *c, const OracleInput *in, Results *r, Verdict *v) {
  const Target *t = c->target;
  if (!r->target || !t->execute || !t->load_variant || v->failed)
    return;
  Verdict scratch = {.pipeline = v->pipeline};
  Module *m = oracle_make_program(c, in, &scratch, NULL);
  Diag d;
  diag_init(&d, NULL, NULL);
  const char *oracle = NULL, *what = NULL;
  TgProgram *p = ty_check_module(m, &d) ? t->load_variant(m, &scratch, &oracle, &what) : NULL;
  if (p)
    compare_second(c, in, r, v, p, &v->pipeline, oracle, what, strdup(oracle));
  verdict_free(&scratch);
  diag_free(&d);
  ir_module_free(m);
}

/* The program before stage `stage` of pl, for a report: made again and
 * taken through the stages before it (everything here is deterministic,
 * and those stages passed every oracle). */
static char *program_before(const OracleConfig *c, const OracleInput *in, const TgPipeline *pl,
                            int stage) {
  Verdict scratch = {0};
  Module *m = oracle_make_program(c, in, &scratch, NULL);
  verdict_free(&scratch);
  char *text = NULL;
  Diag d;
  diag_init(&d, NULL, NULL);
  if (stage <= 0 || !ty_check_module(m, &d)) {
    text = ir_print_module(m);
  } else {
    Verdict scratch = {0};
    TgProgram *p = c->target->load(m, &scratch);
    for (int i = 0; p && i < stage; i++) {
      char *diag = NULL;
      c->target->run(p, &pl->stage[i], &diag);
      free(diag);
    }
    text = p ? c->target->print(p) : ir_print_module(m);
    if (p)
      c->target->unload(p);
    verdict_free(&scratch);
  }
  diag_free(&d);
  ir_module_free(m);
  return text;
}

static bool check_pipeline(const OracleConfig *c, const OracleInput *in, Verdict *v) {
  const Target *t = c->target;
  TgPipeline pl = c->pipeline;
  if (!pl.n && !c->fixed)
    t->header_pipeline(in->data, in->data ? in->size : 0, &pl);
  v->pipeline = pl;
  v->stage = -1;
  GenSpans spans = {0};
  Module *m = oracle_make_program(c, in, v, &spans);
  Results r = {0};
  bool good = oracle_check_generated(m, &spans, v);
  gen_spans_free(&spans);
  if (good && ir_global_get(m, "main")) {
    /* The input's own bytes seed @main's arguments, deterministically. */
    uint64_t seed = in->make ? in->seed : oracle_input_seed(in->data, in->size);
    r.n = c->nseeds < 1 ? 1 : c->nseeds > MAX_SEEDS ? MAX_SEEDS : c->nseeds;
    EvLimits lim = oracle_limits_of(c);
    for (int k = 0; k < r.n; k++) {
      r.seed[k] = seed + (uint64_t)k;
      r.run[k] = ev_run_new(&lim);
      /* Every operator's outputs must fit the call's inferred type: with
       * Any dims a relation decides types a run can contradict. */
      r.run[k]->check_types = true;
      r.res[k] = ev_run_main(r.run[k], m, r.seed[k]);
      if (r.res[k].status == EV_INVALID)
        verdict_fail(v, "generator", "the interpreter rejects the generated program", "%s",
                     r.res[k].msg);
    }
    if (c->observer.result && !v->failed)
      c->observer.result(c->observer.ctx, -1, &r.res[0], EV_SAME, "");
  }
  TgProgram *p = v->failed ? NULL : t->load(m, v);
  if (p) {
    bool stop = false;
    for (int i = 0; i < pl.n && !stop; i++) {
      v->stage = i;
      if (!run_stage(c, p, &pl.stage[i], &r, v, &stop))
        break;
    }
    if (v->failed) {
      v->after = t->print(p);
      v->before = program_before(c, in, &pl, v->stage);
      if (t->reproduce)
        t->reproduce(p, v);
    }
    t->unload(p);
    if (!v->failed)
      check_differential(c, in, &r, v);
    if (!v->failed)
      check_variant(c, in, &r, v);
  } else if (!v->failed) {
    v->skipped = true;
  }
  results_free(&r);
  ir_module_free(m);
  if (v->failed && !v->before)
    v->before = program_before(c, in, &pl, v->stage);
  return !v->failed;
}

Module *oracle_program(const OracleConfig *c, const uint8_t *data, size_t size) {
  OracleInput in = {.data = data, .size = size};
  if (c->check == ORACLE_KERNEL)
    return oracle_kernel_program(&in);
  Verdict v = {0};
  Module *m = oracle_make_program(c, &in, &v, NULL);
  verdict_free(&v);
  return m;
}

bool oracle_check(const OracleConfig *c, const OracleInput *in, Verdict *v) {
  memset(v, 0, sizeof *v);
  v->check = c->check;
  oracle_set_faults(c);
  switch (c->check) {
  case ORACLE_INFERENCE: return oracle_check_inference(c, in, v);
  case ORACLE_KERNEL: return oracle_check_kernel(c, in, v);
  case ORACLE_REJECT: return oracle_check_reject(c, in, v);
  default: return check_pipeline(c, in, v);
  }
}
