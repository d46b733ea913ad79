/*
 * relayc.c - target 0: relayc's own passes (compiler/passes) behind the
 * target interface (oracle/target.h).
 *
 *   stages       the passes of passes.def; -passes=a,b,c (pass_parse_list), or
 *                1 to 4 production passes chosen by the input's header
 *   load         the program itself (relayc takes every generated program)
 *   run          pass_run: the pass, then well-formed and re-typed; an
 *                output too deep (ir_depth_ok) is refused (TG_REJECTED)
 *   check        "well-formed", "type": pass_run's verdict, and every
 *                global that survives keeps its function type (@main must
 *                survive)
 *   execute      the reference interpreter on @main, with its trace
 *   contracts    each pass's allow column (passes.def) as TgStage.allow
 *   round trip   print -> parse -> print is the identity, and the parsed
 *                program is alpha-equal to the printed one, constants
 *                bit for bit (a printer that loses something the same
 *                way twice prints the same text twice)
 *   post         the pass's own checker (post_<pass>)
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "compiler/passes/pass.h"
#include "generator/choice.h"
#include "oracle/oracle.h"
#include "targets/targets.h"

/* Each global's name and function type before a pass.  The type is a deep
 * copy (type variables and definitions kept by pointer, as ir_type_copy
 * does), so the pass's rewrite cannot change it. */
enum { MAX_SIGS = 64 };

struct TgProgram {
  Module *m;
  PassStatus status; /* of the last pass_run */
  char *diag;        /* its message when not PASS_OK */
  Arena *sig_arena;
  int nsigs;
  const char *sig_name[MAX_SIGS];
  Type *sig_type[MAX_SIGS];
  char *text;     /* the program as printed after the last round trip */
  Module *parsed; /* that text parsed (alpha-equal to the program then) */
};

/* ------------------------------------------------------------ pipelines */

/* A pass's contract (pass.h's PASS_ALLOW_*) as the oracle's TG_ALLOW_*. */
static uint32_t stage_allow(const PassInfo *p) {
  static const struct {
    unsigned pass;
    uint32_t tg;
  } map[] = {
      {PASS_ALLOW_FLOAT, TG_ALLOW_FLOAT},
      {PASS_ALLOW_SIGNED_ZERO, TG_ALLOW_SIGNED_ZERO},
      {PASS_ALLOW_ERROR_TO_VALUE, TG_ALLOW_ERROR_TO_VALUE},
      {PASS_ALLOW_DROP_READS, TG_ALLOW_DROP_READS},
  };
  /* Every pass judges purity alike (compiler/passes/pass_int.h): operator
   * calls and lets are pure, as in TVM, though with Any dims their run-time
   * checks can fail; a pass may drop an unused one (docs/interpreter.md). */
  uint32_t allow = TG_ALLOW_DROP_CHECKS;
  for (size_t i = 0; i < sizeof map / sizeof map[0]; i++)
    if (p->allow & map[i].pass)
      allow |= map[i].tg;
  return allow;
}

static void to_pipeline(const PassInfo *const *passes, int n, TgPipeline *p) {
  p->n = n;
  for (int i = 0; i < n; i++)
    p->stage[i] = (TgStage){passes[i]->name, passes[i], stage_allow(passes[i])};
}

/* Outside the test build, a hint after err when the unknown pass is one of
 * the deliberately wrong bad_* passes, which exist only there. */
static void hint_test_build(char *err, size_t errlen) {
#ifndef RS_TEST_PASSES
  size_t n = strlen(err);
  if (strstr(err, "unknown pass 'bad_") && n < errlen)
    snprintf(err + n, errlen - n,
             " (the deliberately wrong passes bad_* exist only in the test build: "
             "build/test/, scripts/repro --preset test)");
#else
  (void)err, (void)errlen;
#endif
}

static bool parse_pipeline(const char *text, TgPipeline *p, char *err, size_t errlen) {
  const PassInfo *passes[TG_MAX_STAGES];
  int n;
  if (!pass_parse_list(text, passes, TG_MAX_STAGES, &n, err, errlen)) {
    hint_test_build(err, errlen);
    return false;
  }
  to_pipeline(passes, n, p);
  return true;
}

/* The header's bytes choose 1 to 4 production passes (never test-only
 * ones), so a body mutation keeps the sequence. */
static void header_pipeline(const uint8_t *data, size_t size, TgPipeline *p) {
  uint64_t h = tg_header_hash(data, size);
  int real = 0;
  while (real < pass_count && !pass_table[real].test_only)
    real++;
  const PassInfo *passes[4];
  int n = 1 + (int)(h % 4);
  for (int i = 0; i < n; i++) {
    h /= 4;
    h = h * 6364136223846793005ull + 1442695040888963407ull;
    passes[i] = &pass_table[(h >> 33) % (uint64_t)real];
  }
  to_pipeline(passes, n, p);
}

/* -------------------------------------------------------------- program */

static TgProgram *load(Module *m, Verdict *v) {
  TgProgram *p = calloc(1, sizeof *p);
  p->m = m;
  return p;
}

static void unload(TgProgram *p) {
  arena_free(p->sig_arena);
  free(p->diag);
  free(p->text);
  ir_module_free(p->parsed);
  free(p);
}

static void sigs_take(TgProgram *p) {
  arena_free(p->sig_arena);
  p->sig_arena = arena_new();
  p->nsigs = 0;
  for (int i = 0; i < p->m->nfuncs && p->nsigs < MAX_SIGS; i++) {
    const GlobalFn *g = p->m->funcs[i];
    if (!g->func || !g->func->type)
      continue;
    p->sig_name[p->nsigs] = arena_strdup(p->sig_arena, g->name);
    p->sig_type[p->nsigs] = ir_type_copy(p->sig_arena, g->func->type);
    p->nsigs++;
  }
}

static TgStatus run(TgProgram *p, const TgStage *s, char **diag) {
  sigs_take(p);
  Diag d;
  diag_init(&d, s->name, NULL);
  p->status = pass_run(s->impl, p->m, &d);
  free(p->diag);
  p->diag = p->status == PASS_OK ? NULL : strdup(d.text ? d.text : "");
  diag_free(&d);
  if (p->status != PASS_FAILED && p->status != PASS_TOO_DEEP)
    return TG_OK;
  *diag = p->diag;
  p->diag = NULL;
  /* An output too deep for the other walks is a refusal, not a bug. */
  return p->status == PASS_TOO_DEEP ? TG_REJECTED : TG_FAILED;
}

/* Every global that survives keeps its function type; @main survives.
 * Structurally equal types print the same, so only a difference needs the
 * printed texts (which decide, and which the report shows). */
static bool check_sigs(TgProgram *p, Verdict *v) {
  for (int i = 0; i < p->nsigs; i++) {
    GlobalFn *g = ir_global_get(p->m, p->sig_name[i]);
    if (!g) {
      if (strcmp(p->sig_name[i], "main") == 0) {
        verdict_fail(v, "type", "@main was removed", NULL);
        return false;
      }
      continue; /* dead_code and inline may remove globals */
    }
    if (ir_type_equal(p->sig_type[i], g->func->type))
      continue;
    char *was = ir_print_type(p->sig_type[i]);
    char *now = ir_print_type(g->func->type);
    if (strcmp(now, was) != 0)
      verdict_fail(v, "type", "a global's function type changed", "@%s had type %s, now %s",
                   g->name, was, now);
    free(now);
    free(was);
    if (v->failed)
      return false;
  }
  return true;
}

static bool check(TgProgram *p, const TgStage *s, Verdict *v) {
  if (p->status == PASS_ILL_FORMED)
    verdict_fail(v, "well-formed", "the output is not well formed", "%s", p->diag);
  else if (p->status == PASS_ILL_TYPED)
    verdict_fail(v, "type", "the output does not type check", "%s", p->diag);
  return !v->failed && check_sigs(p, v);
}

static bool execute(TgProgram *p, EvRun *run, uint64_t seed, EvResult *out) {
  *out = ev_run_main(run, p->m, seed);
  return true;
}

/* The first global of a that is not alpha-equal to b's of that name (the
 * number of globals and type definitions agreeing), or NULL. */
static const char *first_difference(const Module *a, const Module *b) {
  if (a->nfuncs != b->nfuncs || a->ntypes != b->ntypes)
    return "the number of globals or type definitions";
  for (int i = 0; i < a->nfuncs; i++) {
    const GlobalFn *g = ir_global_get(b, a->funcs[i]->name);
    if (!g || !ir_expr_alpha_equal(a->funcs[i]->func, g->func))
      return a->funcs[i]->name;
  }
  return "a type definition";
}

/* The program must equal the parse of its printed text (in the report: the
 * text, once). */
static bool same_as_parsed(TgProgram *p, const Module *parsed, const char *text, Verdict *v) {
  if (ir_module_alpha_equal(p->m, parsed))
    return true;
  verdict_fail(v, "round-trip", "the printed text parses into a different program",
               "@%s is not alpha-equal to its printed text parsed back (constants bit for bit)",
               first_difference(p->m, parsed));
  static const char fmt[] = "--- printed:\n%s\n";
  size_t n = sizeof fmt + strlen(text);
  v->extra = malloc(n);
  snprintf(v->extra, n, fmt, text);
  return false;
}

/* print -> parse -> print is the identity, and parse(print(m)) is m.
 * Both are functions of the printed text alone, given m: a pass that left
 * the text as it was (the text last checked) needs only the program
 * compared with that text's parse, which is kept. */
static bool round_trip(TgProgram *p, Verdict *v) {
  char *t1 = ir_print_module(p->m);
  if (p->text && strcmp(t1, p->text) == 0) {
    free(t1);
    return same_as_parsed(p, p->parsed, p->text, v);
  }
  Diag d;
  diag_init(&d, "printed", t1);
  Module *m2 = ir_parse_module(t1, strlen(t1), "printed", &d);
  if (!m2) {
    verdict_fail(v, "round-trip", "the printed output does not parse", "%s",
                 d.text ? d.text : "parse failed");
  } else {
    char *t2 = ir_print_module(m2);
    if (strcmp(t1, t2) != 0) {
      size_t k = 0;
      while (t1[k] && t1[k] == t2[k])
        k++;
      verdict_fail(v, "round-trip", "print -> parse -> print is not the identity",
                   "texts differ at byte %zu: ...%.40s... vs ...%.40s...", k, t1 + k, t2 + k);
      static const char fmt[] = "--- printed once:\n%s\n--- printed after re-parsing:\n%s\n";
      size_t n = sizeof fmt + strlen(t1) + strlen(t2);
      v->extra = malloc(n);
      snprintf(v->extra, n, fmt, t1, t2);
    } else {
      same_as_parsed(p, m2, t1, v);
    }
    free(t2);
  }
  diag_free(&d);
  free(p->text);
  ir_module_free(p->parsed);
  p->text = t1;
  p->parsed = m2;
  return !v->failed;
}

static bool post(TgProgram *p, const TgStage *s, Verdict *v) {
  const PassInfo *pi = s->impl;
  Diag d;
  diag_init(&d, pi->name, NULL);
  if (!pi->post(p->m, &d))
    verdict_fail(v, "postcondition", "the pass's own guarantee does not hold", "%s",
                 d.text ? d.text : "");
  diag_free(&d);
  return !v->failed;
}

static char *print(TgProgram *p) {
  return ir_print_module(p->m);
}

const Target target_relayc = {
    .name = "relayc",
    .doc = "relayc's optimisation passes (compiler/passes)",
    .policy = "default",
    .flag = "passes",
    .noun = "pass",
    .parse_pipeline = parse_pipeline,
    .stage_names = pass_names,
    .header_pipeline = header_pipeline,
    .load = load,
    .unload = unload,
    .run = run,
    .check = check,
    .round_trip = round_trip,
    .post = post,
    .execute = execute,
    .print = print,
};
