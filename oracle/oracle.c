/*
 * oracle.c - the one checking pipeline (see oracle.h).  Library code: a
 * failure is a Verdict, never a print or an abort.
 */
#include "oracle.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "compiler/ir/hash.h"
#include "compiler/typing/typing.h"
#include "generator/breaker.h"
#include "oracle_int.h"

/* Interpreter budgets for the result oracle.  Generated programs are
 * small; a run that needs more than this is counted as inconclusive rather
 * than slowing every input down. */
static const EvLimits oracle_limits = {
    .fuel = 200000,
    .max_depth = 500,
    .max_stack = 1 << 20,
    .max_bytes = 32 << 20,
};

/* The result oracle's budgets under c: oracle_limits with c's fuel. */
static EvLimits limits(const OracleConfig *c) {
  EvLimits l = oracle_limits;
  if (c->fuel > 0)
    l.fuel = c->fuel;
  return l;
}

enum { MAX_SEEDS = 8 };

/* ------------------------------------------------------------- flags */

/* The value of flag -name= (or --name=) in a, or NULL. */
static const char *flag_value(const char *a, const char *name) {
  if (a[0] != '-')
    return NULL;
  a += a[1] == '-' ? 2 : 1;
  size_t n = strlen(name);
  return strncmp(a, name, n) == 0 && a[n] == '=' ? a + n + 1 : NULL;
}

/* The flags oracle_init reads besides the target's own. */
static const char *const flag_names[] = {"policy", "allow", "differential", "fault"};

size_t oracle_flag(const Target *t, const char *arg) {
  const char *v = flag_value(arg, t->flag);
  for (size_t i = 0; !v && i < sizeof flag_names / sizeof *flag_names; i++)
    v = flag_value(arg, flag_names[i]);
  return v ? (size_t)(v - arg) : 0;
}

static bool set_policy(OracleConfig *c, const char *name, char *err, size_t errlen) {
  c->policy = gen_policy_get(name);
  if (c->policy)
    return true;
  size_t n = (size_t)snprintf(err, errlen, "unknown policy '%s'; valid:", name);
  for (int k = 0; gen_policy_at(k) && n < errlen; k++)
    n += (size_t)snprintf(err + n, errlen - n, " %s", gen_policy_at(k)->name);
  return false;
}

/* The allowances -allow= names (target.h). */
static const struct {
  const char *name;
  uint32_t flag;
} allowances[] = {
    {"float", TG_ALLOW_FLOAT},
    {"signed_zero", TG_ALLOW_SIGNED_ZERO},
    {"error_to_value", TG_ALLOW_ERROR_TO_VALUE},
    {"drop_reads", TG_ALLOW_DROP_READS},
    {"effects", TG_ALLOW_EFFECTS},
};
enum { NALLOW = sizeof allowances / sizeof allowances[0] };

/* Add the comma-separated allowances of text to c->allow. */
static bool set_allow(OracleConfig *c, const char *text, char *err, size_t errlen) {
  for (const char *p = text;;) {
    size_t len = strcspn(p, ",");
    int k = 0;
    while (k < NALLOW &&
           !(strlen(allowances[k].name) == len && !strncmp(allowances[k].name, p, len)))
      k++;
    if (k == NALLOW) {
      size_t n = (size_t)snprintf(err, errlen, "-allow=%s: unknown allowance '%.*s'; valid:", text,
                                  (int)len, p);
      for (int i = 0; i < NALLOW && n < errlen; i++)
        n += (size_t)snprintf(err + n, errlen - n, " %s", allowances[i].name);
      return false;
    }
    c->allow |= allowances[k].flag;
    if (!p[len])
      return true;
    p += len + 1;
  }
}

static bool set_pipeline(OracleConfig *c, const char *text, char *err, size_t errlen) {
  char why[1024];
  if (c->target->parse_pipeline(text, &c->pipeline, why, sizeof why))
    return true;
  snprintf(err, errlen, "-%s=%s: %s", c->target->flag, text, why);
  return false;
}

#ifdef RS_TEST_PASSES
/* The test build's deliberate bugs by -fault= name (OracleFault). */
static const char *const fault_names[] = {
    [FAULT_PRINT_DROP_ATTR] = "print_drop_attr",   [FAULT_PRINT_ZERO_SIGN] = "print_zero_sign",
    [FAULT_GENERATOR_SPANS] = "generator_spans",   [FAULT_KERNEL_SUM_LAST] = "kernel_sum_last",
    [FAULT_RELATION_RESHAPE] = "relation_reshape", [FAULT_CHECKER_CALL_RELS] = "checker_call_rels",
};
#endif

static bool set_fault(OracleConfig *c, const char *name, char *err, size_t errlen) {
#ifdef RS_TEST_PASSES
  for (size_t f = 1; f < sizeof fault_names / sizeof *fault_names; f++)
    if (strcmp(name, fault_names[f]) == 0) {
      c->fault = (OracleFault)f;
      return true;
    }
  OpFault of; /* a wrong relation (compiler/ops/bad_relations.c) */
  if (op_fault_lookup(name, &of)) {
    c->op_fault = (int)of;
    return true;
  }
  size_t n = (size_t)snprintf(err, errlen, "unknown fault '%s'; valid:", name);
  for (size_t f = 1; f < sizeof fault_names / sizeof *fault_names && n < errlen; f++)
    n += (size_t)snprintf(err + n, errlen - n, " %s", fault_names[f]);
  for (int k = OP_FAULT_NONE + 1; k < OP_FAULT_COUNT && n < errlen; k++)
    n += (size_t)snprintf(err + n, errlen - n, " %s", op_fault_name((OpFault)k));
#else
  snprintf(err, errlen, "unknown fault '%s' (faults exist only in the test build)", name);
#endif
  return false;
}

/* Switch the test build's deliberate bugs on or off for a check. */
static void set_faults(const OracleConfig *c) {
#ifdef RS_TEST_PASSES
  ir_test_print_drop_attr = c->fault == FAULT_PRINT_DROP_ATTR;
  ir_test_print_zero_sign = c->fault == FAULT_PRINT_ZERO_SIGN;
  gen_test_fault_spans = c->fault == FAULT_GENERATOR_SPANS;
  ty_test_fault_call_rels = c->fault == FAULT_CHECKER_CALL_RELS;
  op_test_fault_reduce = c->fault == FAULT_KERNEL_SUM_LAST;
  op_test_fault_reshape = c->fault == FAULT_RELATION_RESHAPE;
  op_test_fault = (OpFault)c->op_fault;
#endif
}

bool oracle_init(OracleConfig *c, const OracleHarness *h, int argc, char **argv, char *err,
                 size_t errlen) {
  memset(c, 0, sizeof *c);
  c->check = h->check;
  c->target = h->target;
  snprintf(c->harness, sizeof c->harness, "%s", h->name);
  c->nseeds = 1;
  c->differential = h->differential;
  if (!set_policy(c, h->policy ? h->policy : h->target->policy, err, errlen))
    return false;
  if (h->pipeline) {
    c->fixed = true;
    if (!set_pipeline(c, h->pipeline, err, errlen))
      return false;
  }
  for (int i = 1; i < argc; i++) {
    const char *a = argv[i], *v;
    if ((v = flag_value(a, c->target->flag))) {
      if (c->fixed || c->check != ORACLE_PIPELINE) {
        snprintf(err, errlen, "%s always runs %s; -%s= is not accepted", h->name,
                 h->pipeline ? h->pipeline : "its own check", c->target->flag);
        return false;
      }
      if (!set_pipeline(c, v, err, errlen))
        return false;
    } else if ((v = flag_value(a, "policy"))) {
      if (c->check != ORACLE_PIPELINE) {
        snprintf(err, errlen, "%s decodes with the %s policy; -policy= is not accepted", h->name,
                 c->policy->name);
        return false;
      }
      if (!set_policy(c, v, err, errlen))
        return false;
    } else if ((v = flag_value(a, "allow"))) {
      if (!set_allow(c, v, err, errlen))
        return false;
    } else if ((v = flag_value(a, "differential"))) {
      char *end;
      long n = strtol(v, &end, 10);
      if (*end || end == v || n < 0 || n > 1000000) {
        snprintf(err, errlen, "-differential=%s: give N >= 0 (one input in N; 0: off)", v);
        return false;
      }
      c->differential = (int)n;
    } else if ((v = flag_value(a, "fault"))) {
      if (!set_fault(c, v, err, errlen))
        return false;
    }
  }
  return true;
}

void oracle_describe(const OracleConfig *c, char *buf, size_t len) {
  if (c->check == ORACLE_KERNEL) {
    snprintf(buf, len, "operator kernels against naive references");
    return;
  }
  if (c->check == ORACLE_INFERENCE) {
    snprintf(buf, len, "policy %s, type inference", c->policy->name);
    return;
  }
  if (c->check == ORACLE_REJECT) {
    snprintf(buf, len, "policy %s, the front end on programs with a defect", c->policy->name);
    return;
  }
  size_t n = (size_t)snprintf(buf, len, "policy %s, %s: ", c->policy->name, c->target->flag);
  if (!c->pipeline.n)
    n += (size_t)snprintf(buf + n, len - n, "chosen by each input's header");
  for (int i = 0; i < c->pipeline.n && n < len; i++)
    n += (size_t)snprintf(buf + n, len - n, "%s%s", i ? "," : "", c->pipeline.stage[i].name);
  if (c->differential > 0 && n < len)
    n += (size_t)snprintf(buf + n, len - n, ", differential: 1 executed input in %d",
                          c->differential);
  const char *sep = ", allow: ";
  for (int k = 0; k < NALLOW && n < len; k++)
    if (c->allow & allowances[k].flag) {
      n += (size_t)snprintf(buf + n, len - n, "%s%s", sep, allowances[k].name);
      sep = ",";
    }
}

/* ------------------------------------------------------------ verdicts */

void verdict_fail(Verdict *v, const char *oracle, const char *what, const char *fmt, ...) {
  if (v->failed)
    return;
  v->failed = true;
  v->oracle = oracle;
  v->what = what;
  if (!fmt)
    return;
  va_list ap, again;
  va_start(ap, fmt);
  va_copy(again, ap);
  int n = vsnprintf(NULL, 0, fmt, ap);
  va_end(ap);
  v->detail = malloc((size_t)n + 1);
  vsnprintf(v->detail, (size_t)n + 1, fmt, again);
  va_end(again);
}

void verdict_free(Verdict *v) {
  for (int i = 0; i < v->nfiles; i++)
    free(v->files[i].text);
  free(v->key);
  free(v->repro);
  free(v->detail);
  free(v->extra);
  free(v->before);
  free(v->after);
  free(v->reject_diag);
  memset(v, 0, sizeof *v);
}

void verdict_file(Verdict *v, const char *name, const char *text) {
  if (v->nfiles == (int)(sizeof v->files / sizeof *v->files))
    return;
  snprintf(v->files[v->nfiles].name, sizeof v->files[0].name, "%s", name);
  v->files[v->nfiles++].text = strdup(text);
}

void verdict_signature(const Verdict *v, char *out, size_t cap) {
  const char *stage =
      v->stage >= 0 && v->stage < v->pipeline.n ? v->pipeline.stage[v->stage].name : NULL;
  /* As tools/signature.c reads the report: the stage's name up to a space. */
  int n = stage ? snprintf(out, cap, "%s (%s) in pass %.*s", v->oracle, v->what,
                           (int)strcspn(stage, " "), stage)
                : snprintf(out, cap, "%s (%s), the generator's output", v->oracle, v->what);
  if (v->key && n >= 0 && (size_t)n < cap)
    snprintf(out + n, cap - (size_t)n, ": %s", v->key);
}

bool oracle_write_files(const Verdict *v, const char *base, FILE *log) {
  bool ok = true;
  for (int i = 0; i < v->nfiles; i++) {
    char path[4096];
    snprintf(path, sizeof path, "%s.%s", base, v->files[i].name);
    FILE *f = fopen(path, "w");
    if (f) {
      fputs(v->files[i].text, f);
      ok = fclose(f) == 0 && ok;
      fprintf(log, "relaysmith: reproducer file: %s\n", path);
    } else {
      ok = false;
      fprintf(log, "relaysmith: cannot write %s\n", path);
    }
  }
  return ok;
}

uint64_t oracle_input_seed(const uint8_t *data, size_t size) {
  uint64_t seed = size;
  for (size_t i = 0; i < size && i < 64; i++)
    seed = seed * 31 + data[i];
  return seed;
}

/* ------------------------------------------------------------- reports */

/* text with every @IN@ replaced by base. */
static void put_replaced(FILE *f, const char *text, const char *base) {
  for (const char *at; (at = strstr(text, "@IN@")); text = at + 4)
    fprintf(f, "%.*s%s", (int)(at - text), text, base);
  fputs(text, f);
}

void oracle_report(FILE *f, const OracleConfig *c, const Verdict *v, const char *reproduce) {
  oracle_report_files(f, c, v, reproduce, NULL);
}

void oracle_report_files(FILE *f, const OracleConfig *c, const Verdict *v, const char *reproduce,
                         const char *base) {
  if (v->extra)
    fputs(v->extra, f);
  fprintf(f, "\n==relaysmith== FAILURE\n");
  const TgPipeline *pl = &v->pipeline;
  const char *before_label = "passes";
  if (c->check == ORACLE_KERNEL) {
    fprintf(f, "pass:    (none: kernel %s)\n", v->op ? v->op : "?");
  } else if (c->check == ORACLE_INFERENCE) {
    fprintf(f, "pass:    (none: type inference)\n");
  } else if (c->check == ORACLE_REJECT) {
    fprintf(f, "pass:    (none: rejection, %s)\n", v->subject);
  } else if (v->stage < 0) {
    fprintf(f, "pass:    (none: the generator's output)\n");
  } else {
    before_label = pl->stage[v->stage].name;
    fprintf(f, "pass:    %s (%s %d of %d:", before_label, c->target->noun, v->stage + 1, pl->n);
    for (int i = 0; i < pl->n; i++)
      fprintf(f, " %s", pl->stage[i].name);
    fprintf(f, ")\n");
  }
  fprintf(f, "oracle:  %s (%s)\n", v->oracle, v->what);
  if (v->key)
    fprintf(f, "key:     %s\n", v->key);
  if (v->detail && *v->detail)
    fprintf(f, "detail:  %s%s", v->detail, v->detail[strlen(v->detail) - 1] == '\n' ? "" : "\n");
  if (c->check == ORACLE_REJECT) {
    if (v->before)
      fprintf(f, "--- program with its defect:\n%s\n", v->before);
  } else if (c->check == ORACLE_KERNEL) {
    if (v->before)
      fprintf(f, "--- the call:\n%s\n", v->before);
  } else if (c->check == ORACLE_INFERENCE) {
    if (v->before)
      fprintf(f, "--- program, fully annotated:\n%s\n", v->before);
    if (v->after)
      fprintf(f, "--- program with annotations erased:\n%s\n", v->after);
  } else {
    if (v->before)
      fprintf(f, "--- program before %s:\n%s\n", before_label, v->before);
    if (v->after)
      fprintf(f, "--- program after %s:\n%s\n", before_label, v->after);
  }
  for (int i = 0; i < v->nfiles; i++) {
    fprintf(f, "--- %s.%s:\n", base ? base : "input", v->files[i].name);
    fputs(v->files[i].text, f);
  }
  if (v->repro) {
    fprintf(f, "--- without relaysmith:\n");
    put_replaced(f, v->repro, base ? base : "input");
  }
  if (reproduce)
    fprintf(f, "reproduce: %s\n", reproduce);
  fprintf(f, "==relaysmith== end of report\n");
  fflush(f);
}

/* ------------------------------------------------------------ pipeline */

/* The program in: made by the caller, or decoded.  Decoding records spans,
 * as the mutator's decodes do (harnesses/custom_mutator.c), so that a
 * failure of the generator the mutator met on some bytes, which it hands
 * over as its output (mutators/mut.c), fails here too and the saved input
 * reproduces it; spans cost about 1% of a check.  A failure is oracle
 * "generator" in v (the module is still made, for the report).  The spans
 * go to *spans when it is not NULL (free with gen_spans_free). */
static Module *make_program(const OracleConfig *c, const OracleInput *in, Verdict *v,
                            GenSpans *spans) {
  if (in->make)
    return in->make(in->ctx);
  GenSpans own = {0};
  char why[256];
  Module *m =
      gen_decode_checked(in->data, in->size, c->policy, spans ? spans : &own, why, sizeof why);
  gen_spans_free(&own);
  if (why[0])
    verdict_fail(v, "generator", "the generator broke one of its own contracts", "%s", why);
  return m;
}

/* The span of sp whose expression is e, among span i's children. */
static const GenSpan *child_span(const GenSpans *sp, int i, const Expr *e) {
  for (int j = i + 1; j < sp->n && sp->v[j].depth > sp->v[i].depth; j++)
    if (sp->v[j].parent == i && sp->v[j].expr == e)
      return &sp->v[j];
  return NULL;
}

/* An operator call the generator made whose relation disagrees with the
 * solver that chose its arguments: the types the generator wanted (the
 * spans') against what the relation gives.  Solvers never ask the
 * relation (docs/generators.md), so when the program does not type check
 * this tells whether an operator's solver and relation disagree, and
 * which. */
static bool find_disagreement(const GenSpans *sp, Verdict *v) {
  Arena *a = arena_new();
  for (int i = 0; i < sp->n && !v->failed; i++) {
    const Expr *e = sp->v[i].expr;
    if (e->kind != EX_CALL || e->call.kind != CALL_OP || e->call.nargs > OP_MAX_ARGS)
      continue;
    Type *args[OP_MAX_ARGS], *got = NULL;
    int n = 0;
    for (const GenSpan *s; n < e->call.nargs && (s = child_span(sp, i, e->call.args[n])); n++)
      args[n] = s->type;
    if (n < e->call.nargs)
      continue; /* an argument the generator did not make as a span */
    char err[256] = "";
    RelStatus st = op_relate(e->call.op, args, n, &e->call.attrs, a, &got, err, sizeof err);
    if (st == REL_OK && ir_type_equal(got, sp->v[i].type))
      continue;
    char *want = ir_print_type(sp->v[i].type), *has = st == REL_OK ? ir_print_type(got) : NULL;
    size_t len = 0;
    char list[512] = "";
    for (int k = 0; k < n && len < sizeof list; k++) {
      char *t = ir_print_type(args[k]);
      len += (size_t)snprintf(list + len, sizeof list - len, "%s%s", k ? ", " : "", t);
      free(t);
    }
    verdict_fail(v, "relation", "the operator's relation disagrees with its solver",
                 "%s(%s): the solver claims %s, the relation %s%s", ir_op_name(e->call.op), list,
                 want, has ? "gives " : "says: ", has ? has : err);
    free(want);
    free(has);
  }
  arena_free(a);
  return v->failed;
}

/* The generated program must be one the oracles can trust: well formed,
 * well typed, and accepted by the interpreter.  When it does not type
 * check, an operator whose relation disagrees with its solver (found
 * with the spans, when given) is oracle "relation", else "generator". */
static bool check_generated(Module *m, const GenSpans *spans, Verdict *v) {
  if (v->failed)
    return false;
  Diag d;
  diag_init(&d, "generated", NULL);
  if (!ir_well_formed(m, &d))
    verdict_fail(v, "generator", "the generated program is not well formed", "%s",
                 d.text ? d.text : "");
  else if (!ty_check_module(m, &d) && !(spans && find_disagreement(spans, v)))
    verdict_fail(v, "generator", "the generated program does not type check", "%s",
                 d.text ? d.text : "");
  diag_free(&d);
  return !v->failed;
}

/* The comparison rules stage s's contract allows (with c's additions). */
static EvRules stage_rules(const OracleConfig *c, const TgStage *s) {
  uint32_t allow = s->allow | c->allow;
  return (EvRules){
      .tol = c->tolerance             ? c->tolerance
             : allow & TG_ALLOW_FLOAT ? &ev_default_tolerance
                                      : NULL,
      .signed_zero = allow & TG_ALLOW_SIGNED_ZERO,
      .error_to_value = allow & TG_ALLOW_ERROR_TO_VALUE,
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
  EvLimits lim = limits(c);
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

/* The second pipeline of the differential oracle: the one the input's
 * header with every byte flipped would choose. */
static void second_pipeline(const Target *t, const OracleInput *in, TgPipeline *pl) {
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

/* The differential oracle, on one input in c->differential (by its
 * seed) whose results the target gave: the same program through a second
 * pipeline must give the same results on the same arguments.  A second pipeline that
 * refuses the program or fails one of its own oracles gives no verdict
 * here (the input that takes that pipeline first will).  The results
 * may differ as far as any stage of either pipeline is allowed to change
 * them. */
static void check_differential(const OracleConfig *c, const OracleInput *in, Results *r,
                               Verdict *v) {
  const Target *t = c->target;
  uint64_t h = (r->seed[0] ^ 0x9e3779b97f4a7c15ull) * 0xbf58476d1ce4e5b9ull;
  if (c->differential <= 0 || !r->target || !t->execute || (h >> 32) % (uint64_t)c->differential)
    return;
  TgPipeline pl;
  second_pipeline(t, in, &pl);
  if (!pl.n || same_pipeline(&pl, &v->pipeline))
    return;
  Verdict scratch = {0};
  Module *m = make_program(c, in, &scratch, NULL);
  Diag d;
  diag_init(&d, NULL, NULL);
  TgProgram *p = ty_check_module(m, &d) ? t->load(m, &scratch) : NULL;
  bool ran = p != NULL;
  for (int i = 0; ran && i < pl.n; i++) {
    char *diag = NULL;
    scratch.stage = i;
    ran = t->run(p, &pl.stage[i], &diag) == TG_OK && t->check(p, &pl.stage[i], &scratch) &&
          (!t->post || t->post(p, &pl.stage[i], &scratch));
    free(diag);
  }
  /* Either pipeline may have changed what its stages' contracts allow:
   * the comparison allows what any stage of the two allows. */
  TgStage any = {0};
  for (int i = 0; i < pl.n; i++)
    any.allow |= pl.stage[i].allow;
  for (int i = 0; i < v->pipeline.n; i++)
    any.allow |= v->pipeline.stage[i].allow;
  EvLimits lim = limits(c);
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
      char *key = differing_stages(&v->pipeline, &pl);
      v->pipeline = pl;
      v->stage = pl.n - 1;
      v->seed = r->seed[k];
      verdict_fail(v, "differential",
                   "two pipelines give different results for the same program and arguments",
                   "%s (first pipeline: %s; second: this one)", why, first);
      v->key = key;
      v->after = t->print(p);
      v->before = program_before(c, in, &pl, v->stage);
      if (t->reproduce)
        t->reproduce(p, v);
    }
    ev_run_free(run);
  }
  if (p)
    t->unload(p);
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
  Module *m = make_program(c, in, &scratch, NULL);
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
  Module *m = make_program(c, in, v, &spans);
  Results r = {0};
  bool good = check_generated(m, &spans, v);
  gen_spans_free(&spans);
  if (good && ir_global_get(m, "main")) {
    /* The input's own bytes seed @main's arguments, deterministically. */
    uint64_t seed = in->make ? in->seed : oracle_input_seed(in->data, in->size);
    r.n = c->nseeds < 1 ? 1 : c->nseeds > MAX_SEEDS ? MAX_SEEDS : c->nseeds;
    EvLimits lim = limits(c);
    for (int k = 0; k < r.n; k++) {
      r.seed[k] = seed + (uint64_t)k;
      r.run[k] = ev_run_new(&lim);
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
  } else if (!v->failed) {
    v->skipped = true;
  }
  results_free(&r);
  ir_module_free(m);
  if (v->failed && !v->before)
    v->before = program_before(c, in, &pl, v->stage);
  return !v->failed;
}

/* ------------------------------------------------------ type inference */

static bool check_inference(const OracleConfig *c, const OracleInput *in, Verdict *v) {
  v->stage = -1;
  GenSpans spans = {0};
  Module *m = make_program(c, in, v, &spans);
  char *before = ir_print_module(m);
  Diag d;
  diag_init(&d, "generated", NULL);
  bool good = check_generated(m, &spans, v);
  gen_spans_free(&spans);
  if (good) {
    /* The body bytes choose which annotations go; an all-ones seed (every
     * erasable one) for one input in eight. */
    uint64_t seed =
        in->data ? hash_fnv1a(0x9e3779b97f4a7c15ull, in->data, in->size) : 0x9e3779b97f4a7c15ull;
    TyErasure er = ty_erase_annotations(m, (seed & 7) == 0 ? TY_ERASE_ALL : seed);
    diag_reset(&d);
    if (!ty_check_module(m, &d))
      verdict_fail(v, "type", "inference fails once annotations are erased", "%s",
                   d.text ? d.text : "");
    else if (!ty_erasure_verify(&er, &d))
      verdict_fail(v, "type", "inference recovers a different type than the erased one", "%s",
                   d.text);
    if (v->failed)
      v->after = ir_print_module(m);
    ty_erasure_restore(&er);
  }
  diag_free(&d);
  if (v->failed)
    v->before = before;
  else
    free(before);
  ir_module_free(m);
  return !v->failed;
}

/* ----------------------------------------------------------- rejection */

/* Whether line:col names a character of text, or the end of its last
 * line (where a parser reports what is missing). */
static bool inside(const char *text, int line, int col) {
  if (line < 1 || col < 1)
    return false;
  const char *p = text;
  for (int l = 1; l < line; l++)
    if (!(p = strchr(p, '\n')))
      return false;
    else
      p++;
  return (size_t)col <= strcspn(p, "\n") + 1;
}

/* The soundness oracle on a program the checker accepted: @main runs on
 * the input's arguments without a type fault, every operator's outputs
 * of the call's inferred type.  Arguments that cannot be made (a defect
 * in @main's signature can ask for a huge tensor) skip the run. */
static void check_sound(Module *m, uint64_t seed, Verdict *v) {
  GlobalFn *g = ir_global_get(m, "main");
  if (!g || !g->func || g->func->kind != EX_FUNC)
    return;
  EvRun *run = ev_run_new(&oracle_limits);
  run->check_types = true;
  Type *ft = ev_func_type(run->arena, g->func);
  int n = g->func->func.nparams;
  EvValue **args = ARENA_ARRAY(run->arena, EvValue *, n + 1);
  if (ft && ev_make_args(run, ft, seed, args)) {
    EvResult r = ev_call_global(run, g, n, args);
    if (r.status == EV_INVALID)
      verdict_fail(v, "soundness",
                   "a program the checker accepts hits a type fault in the interpreter", "%s",
                   r.msg);
  }
  ev_run_free(run);
}

/* What a soundness finding is about: the operator its message starts
 * with ("add: ..."), else the defect's kind. */
static void set_subject(Verdict *v, const GenBreak *b) {
  const char *d = v->detail ? v->detail : "";
  size_t n = strcspn(d, ":");
  OpId op;
  if (!strcmp(v->oracle, "soundness") && d[n] == ':' && ir_op_lookup(d, n, &op))
    snprintf(v->subject, sizeof v->subject, "operator %s", ir_op_name(op));
  else
    snprintf(v->subject, sizeof v->subject, "defect %s", gen_break_name(b->kind));
}

/* The first line of a diagnostic, for a report. */
static const char *first_line(const Diag *d, char *buf, size_t len) {
  const char *t = d->text ? d->text : "(no message)";
  snprintf(buf, len, "%.*s", (int)strcspn(t, "\n"), t);
  return buf;
}

static bool check_reject(const OracleConfig *c, const OracleInput *in, Verdict *v) {
  v->stage = -1;
  Module *m = make_program(c, in, v, NULL);
  if (v->failed) { /* the generator broke a contract: no defect to judge */
    snprintf(v->subject, sizeof v->subject, "the generator's output");
    v->before = ir_print_module(m);
    ir_module_free(m);
    return false;
  }
  GenBreak b;
  gen_break(m, in->make ? NULL : in->data, in->make ? 0 : in->size, c->policy, &b);
  Diag d;
  diag_init(&d, "program", b.text);
  Module *pm = ir_parse_module(b.text, strlen(b.text), "program", &d);
  bool accepted = pm && ty_check_module(pm, &d);
  char diag[600];
  if (!accepted && b.kind == GB_NONE)
    verdict_fail(v, "valid", "the checker rejects a program without a defect", "%s",
                 first_line(&d, diag, sizeof diag));
  else if (!accepted && !inside(b.text, d.line, d.col))
    verdict_fail(v, "position", "the checker's diagnostic has no position inside the program", "%s",
                 first_line(&d, diag, sizeof diag));
  else if (accepted)
    check_sound(pm, in->make ? in->seed : oracle_input_seed(in->data, in->size), v);
  if (v->failed) {
    set_subject(v, &b);
    char *detail = v->detail;
    const char *verdict = accepted ? "accepted" : first_line(&d, diag, sizeof diag);
    size_t len = strlen(detail ? detail : "") + strlen(b.what) + strlen(verdict) + 128;
    v->detail = malloc(len);
    char erased[48] = "";
    if (b.erased)
      snprintf(erased, sizeof erased, " (%d annotations erased)", b.erased);
    snprintf(v->detail, len, "%s\ndefect:  %s: %s%s%s%s\nchecker: %s", detail ? detail : "",
             gen_break_name(b.kind), b.what, b.fn ? " in @" : "", b.fn ? b.fn : "", erased,
             accepted ? "accepted" : verdict);
    free(detail);
    v->before = b.text;
    b.text = NULL;
  }
  diag_free(&d);
  if (pm)
    ir_module_free(pm);
  gen_break_free(&b);
  ir_module_free(m);
  return !v->failed;
}

Module *oracle_program(const OracleConfig *c, const uint8_t *data, size_t size) {
  OracleInput in = {.data = data, .size = size};
  if (c->check == ORACLE_KERNEL)
    return oracle_kernel_program(&in);
  Verdict v = {0};
  Module *m = make_program(c, &in, &v, NULL);
  verdict_free(&v);
  return m;
}

bool oracle_check(const OracleConfig *c, const OracleInput *in, Verdict *v) {
  memset(v, 0, sizeof *v);
  set_faults(c);
  switch (c->check) {
  case ORACLE_INFERENCE: return check_inference(c, in, v);
  case ORACLE_KERNEL: return oracle_check_kernel(c, in, v);
  case ORACLE_REJECT: return check_reject(c, in, v);
  default: return check_pipeline(c, in, v);
  }
}
