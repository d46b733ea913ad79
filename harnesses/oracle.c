/*
 * oracle.c - the oracle runner (see oracle.h).  This is harness code: it
 * prints reports and aborts, which library code never does.
 */
#include "oracle.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "compiler/eval/eval.h"
#include "compiler/typing/typing.h"
#include "generator/gen.h"

/* Interpreter budgets for the result oracle.  Generated programs are
 * small; a run that needs more than this is counted as inconclusive rather
 * than slowing every input down. */
static const EvLimits oracle_limits = {
    .fuel = 200000,
    .max_depth = 500,
    .max_stack = 1 << 20,
    .max_bytes = 32 << 20,
};

/* ------------------------------------------------------------- flags */

static void list_passes(void) {
  fprintf(stderr, "valid passes:");
  for (int i = 0; i < pass_count; i++)
    fprintf(stderr, " %s", pass_table[i].name);
  fprintf(stderr, "\n");
}

static bool parse_passes(OracleConfig *c, const char *list) {
  c->npasses = 0;
  for (const char *p = list; *p;) {
    const char *e = strchr(p, ',');
    size_t len = e ? (size_t)(e - p) : strlen(p);
    if (len) {
      const PassInfo *pi = pass_lookup(p, len);
      if (!pi) {
        fprintf(stderr, "relaysmith: unknown pass '%.*s'\n", (int)len, p);
        list_passes();
        return false;
      }
      if (c->npasses == ORACLE_MAX_PASSES) {
        fprintf(stderr, "relaysmith: at most %d passes\n", ORACLE_MAX_PASSES);
        return false;
      }
      c->passes[c->npasses++] = pi;
    }
    p += len + (e != NULL);
  }
  return true;
}

bool oracle_init(OracleConfig *c, int argc, char **argv, const char *fixed_passes) {
  bool quiet = c->quiet;
  const char *policy = c->policy ? c->policy : "default";
  memset(c, 0, sizeof *c);
  c->quiet = quiet;
  c->policy = policy;
  if (fixed_passes && !parse_passes(c, fixed_passes))
    return false;
  for (int i = 1; i < argc; i++) {
    const char *a = argv[i];
    if (strncmp(a, "-passes=", 8) == 0 || strncmp(a, "--passes=", 9) == 0) {
      if (fixed_passes) {
        fprintf(stderr, "relaysmith: this binary always runs %s; -passes is not accepted\n",
                fixed_passes);
        return false;
      }
      if (!parse_passes(c, strchr(a, '=') + 1))
        return false;
    } else if (strncmp(a, "-policy=", 8) == 0) {
      /* The policy's own name, not a pointer into argv, whose strings
       * need not outlive this call (relaysmith reduce builds them). */
      const GenPolicy *pol = gen_policy_get(a + 8);
      if (pol) {
        c->policy = pol->name;
      } else {
        fprintf(stderr, "relaysmith: unknown policy '%s'; valid:", a + 8);
        for (int k = 0; gen_policy_at(k); k++)
          fprintf(stderr, " %s", gen_policy_at(k)->name);
        fprintf(stderr, "\n");
        return false;
      }
    } else if (strncmp(a, "-fault=", 7) == 0) {
#ifdef RS_TEST_PASSES
      if (strcmp(a + 7, "print_drop_attr") == 0) {
        c->fault = FAULT_PRINT_DROP_ATTR;
        continue;
      }
#endif
      fprintf(stderr, "relaysmith: unknown fault '%s' (faults exist only in the test build)\n",
              a + 7);
      return false;
    }
  }
  if (!c->quiet) {
    fprintf(stderr, "relaysmith: policy %s, passes: ", c->policy);
    if (!c->npasses)
      fprintf(stderr, "chosen by each input's header");
    for (int i = 0; i < c->npasses; i++)
      fprintf(stderr, "%s%s", i ? "," : "", c->passes[i]->name);
    fprintf(stderr, "\n");
  }
  return true;
}

/* The header's bytes choose 1 to 4 production passes (never test-only
 * ones), so a body mutation keeps the sequence. */
int oracle_header_passes(const uint8_t *data, size_t size, const PassInfo **out, int max) {
  uint64_t h = 1469598103934665603ull;
  for (size_t i = 0; i < GEN_HEADER_BYTES; i++)
    h = (h ^ (i < size ? data[i] : 0)) * 0x100000001b3ull;
  int real = 0;
  while (real < pass_count && !pass_table[real].test_only)
    real++;
  int n = 1 + (int)(h % 4);
  if (n > max)
    n = max;
  for (int i = 0; i < n; i++) {
    h /= 4;
    h = h * 6364136223846793005ull + 1442695040888963407ull;
    out[i] = &pass_table[(h >> 33) % (uint64_t)real];
  }
  return n;
}

/* ------------------------------------------------------------- reports */

typedef struct Run {
  const OracleConfig *c;
  const PassInfo *const *passes;
  int npasses;
  int at;              /* index of the pass being checked, -1 before passes */
  char *before_text;   /* the program before the current pass, once printed */
  const uint8_t *data; /* the input, to decode the generated program again */
  size_t size;
  const GenPolicy *policy;
} Run;

/* The program before the current pass.  Before the first pass that is
 * the generated program, which only a report needs: decoding is
 * deterministic, so it is decoded and printed again then rather than
 * printed for every input. */
static char *before_text(const Run *r) {
  if (r->before_text)
    return strdup(r->before_text);
  Module *m = gen_decode(r->data, r->size, r->policy, NULL);
  char *t = ir_print_module(m);
  ir_module_free(m);
  return t;
}

static void report(const Run *r, const char *oracle, const char *what, const char *detail,
                   const Module *after) {
  fprintf(stderr, "\n==relaysmith== FAILURE\n");
  if (r->at < 0) {
    fprintf(stderr, "pass:    (none: the generator's output)\n");
  } else {
    fprintf(stderr, "pass:    %s (pass %d of %d:", r->passes[r->at]->name, r->at + 1, r->npasses);
    for (int i = 0; i < r->npasses; i++)
      fprintf(stderr, " %s", r->passes[i]->name);
    fprintf(stderr, ")\n");
  }
  fprintf(stderr, "oracle:  %s (%s)\n", oracle, what);
  if (detail && *detail)
    fprintf(stderr, "detail:  %s%s", detail, detail[strlen(detail) - 1] == '\n' ? "" : "\n");
  char *before = before_text(r);
  fprintf(stderr, "--- program before %s:\n%s\n", r->at < 0 ? "passes" : r->passes[r->at]->name,
          before);
  free(before);
  if (after) {
    char *t = ir_print_module(after);
    fprintf(stderr, "--- program after %s:\n%s\n", r->passes[r->at]->name, t);
    free(t);
  }
  fprintf(stderr, "==relaysmith== end of report\n");
  fflush(stderr);
  abort();
}

/* ------------------------------------------------------------- oracles */

/* Each global's name and function type before a pass.  The type is a
 * deep copy (type variables and definitions kept by pointer, as
 * ir_type_copy does), so the pass's rewrite cannot change it.  After the
 * pass it is compared with ir_type_equal first: structurally equal types
 * print the same, so only a difference needs the printed texts (which
 * decide, and which the report shows). */
typedef struct Sigs {
  Arena *a;
  int n;
  const char *name[64];
  Type *type[64];
} Sigs;

static void sigs_take(Sigs *s, const Module *m) {
  s->a = arena_new();
  s->n = 0;
  for (int i = 0; i < m->nfuncs && s->n < 64; i++) {
    const GlobalFn *g = m->funcs[i];
    if (!g->func || !g->func->type)
      continue;
    s->name[s->n] = arena_strdup(s->a, g->name);
    s->type[s->n] = ir_type_copy(s->a, g->func->type);
    s->n++;
  }
}

static void sigs_free(Sigs *s) {
  arena_free(s->a);
  s->a = NULL;
  s->n = 0;
}

static void check_types(Run *r, Module *m, const Sigs *before) {
  Diag d;
  diag_init(&d, "after-pass", NULL);
  if (!ir_well_formed(m, &d))
    report(r, "well-formed", "the output is not well formed", d.text, m);
  if (!ty_check_module(m, &d))
    report(r, "type", "the output does not type check", d.text, m);
  diag_free(&d);
  for (int i = 0; i < before->n; i++) {
    GlobalFn *g = ir_global_get(m, before->name[i]);
    if (!g) {
      if (strcmp(before->name[i], "main") == 0)
        report(r, "type", "@main was removed", NULL, m);
      continue; /* dead_code and inline may remove globals */
    }
    if (ir_type_equal(before->type[i], g->func->type))
      continue;
    char *was = ir_print_type(before->type[i]);
    char *t = ir_print_type(g->func->type);
    if (strcmp(t, was) != 0) {
      char msg[1024];
      snprintf(msg, sizeof msg, "@%s had type %s, now %s", g->name, was, t);
      free(t);
      free(was);
      report(r, "type", "a global's function type changed", msg, m);
    }
    free(t);
    free(was);
  }
}

/* Returns the printed text of m (the caller frees it).  print -> parse ->
 * print is a function of the printed text alone, so a pass that left the
 * text as it was (known: the text before it, when it was checked) needs
 * no second check. */
static char *check_round_trip(Run *r, Module *m) {
  char *t1 = ir_print_module(m);
  if (r->before_text && strcmp(t1, r->before_text) == 0)
    return t1;
  Diag d;
  diag_init(&d, "printed", t1);
  Module *m2 = ir_parse_module(t1, strlen(t1), "printed", &d);
  if (!m2) {
    char *msg = strdup(d.text ? d.text : "parse failed");
    diag_free(&d);
    free(t1);
    report(r, "round-trip", "the printed output does not parse", msg, m);
  }
  char *t2 = ir_print_module(m2);
  if (strcmp(t1, t2) != 0) {
    size_t k = 0;
    while (t1[k] && t1[k] == t2[k])
      k++;
    char msg[512];
    snprintf(msg, sizeof msg, "texts differ at byte %zu: ...%.40s... vs ...%.40s...", k, t1 + k,
             t2 + k);
    fprintf(stderr, "--- printed once:\n%s\n--- printed after re-parsing:\n%s\n", t1, t2);
    report(r, "round-trip", "print -> parse -> print is not the identity", msg, m);
  }
  free(t2);
  ir_module_free(m2);
  diag_free(&d);
  return t1;
}

static EvRun *evaluate(const Module *m, uint64_t seed, EvResult *out) {
  EvRun *run = ev_run_new(&oracle_limits);
  *out = ev_run_main(run, m, seed);
  return run;
}

void oracle_run(const OracleConfig *c, const uint8_t *data, size_t size) {
  const GenPolicy *policy = gen_policy_get(c->policy);
  const PassInfo *chosen[ORACLE_MAX_PASSES];
  Run r = {.c = c,
           .passes = c->passes,
           .npasses = c->npasses,
           .at = -1,
           .data = data,
           .size = size,
           .policy = policy};
  if (!c->npasses) {
    r.npasses = oracle_header_passes(data, size, chosen, ORACLE_MAX_PASSES);
    r.passes = chosen;
  }
#ifdef RS_TEST_PASSES
  ir_test_print_drop_attr = c->fault == FAULT_PRINT_DROP_ATTR;
#endif

  Module *m = gen_decode(data, size, policy, NULL);
  Diag d;
  diag_init(&d, "generated", NULL);
  if (!ir_well_formed(m, &d))
    report(&r, "generator", "the generated program is not well formed", d.text, NULL);
  if (!ty_check_module(m, &d))
    report(&r, "generator", "the generated program does not type check", d.text, NULL);
  diag_free(&d);

  /* The input's own bytes seed @main's arguments, deterministically. */
  uint64_t seed = size;
  for (size_t i = 0; i < size && i < 64; i++)
    seed = seed * 31 + data[i];
  EvResult before;
  EvRun *before_run = evaluate(m, seed, &before);
  if (before.status == EV_INVALID)
    report(&r, "generator", "the interpreter rejects the generated program", before.msg, NULL);

  Sigs sigs = {0};
  for (r.at = 0; r.at < r.npasses; r.at++) {
    const PassInfo *p = r.passes[r.at];
    sigs_take(&sigs, m);
    diag_init(&d, p->name, NULL);
    if (!p->run(m, &d))
      report(&r, "crash", "the pass reported an internal failure", d.text, m);
    diag_free(&d);
    check_types(&r, m, &sigs);
    sigs_free(&sigs);

    EvResult after;
    EvRun *after_run = evaluate(m, seed, &after);
    char why[512] = "";
    if (ev_compare(&before, &after, &ev_default_tolerance, why, sizeof why) == EV_DIFFERENT) {
      char msg[1024];
      snprintf(msg, sizeof msg, "%s (before: %s, after: %s)", why, ev_status_name(before.status),
               ev_status_name(after.status));
      report(&r, "result", "the interpreter's result differs before and after the pass", msg, m);
    }
    ev_run_free(before_run);
    before_run = after_run;
    before = after;

    char *text = check_round_trip(&r, m);
    diag_init(&d, p->name, NULL);
    if (!p->post(m, &d))
      report(&r, "postcondition", "the pass's own guarantee does not hold", d.text, m);
    diag_free(&d);
    /* m as printed is the program before the next pass (post does not
     * change it), so it need not be printed again. */
    free(r.before_text);
    r.before_text = text;
  }
  ev_run_free(before_run);
  free(r.before_text);
  ir_module_free(m);
}

/* ------------------------------------------------------ type inference */

static void typecheck_fail(const char *what, const char *detail, const char *before,
                           const Module *after) {
  fprintf(stderr, "\n==relaysmith== FAILURE\npass:    (none: type inference)\noracle:  %s\n", what);
  if (detail)
    fprintf(stderr, "detail:  %s\n", detail);
  fprintf(stderr, "--- program, fully annotated:\n%s\n", before);
  if (after) {
    char *t = ir_print_module(after);
    fprintf(stderr, "--- program with annotations erased:\n%s\n", t);
    free(t);
  }
  fprintf(stderr, "==relaysmith== end of report\n");
  fflush(stderr);
  abort();
}

void oracle_typecheck(const uint8_t *data, size_t size) {
  Module *m = gen_decode(data, size, gen_policy_get("default"), NULL);
  char *before = ir_print_module(m);
  Diag d;
  diag_init(&d, "generated", NULL);
  if (!ty_check_module(m, &d))
    typecheck_fail("generator (the generated program does not type check)", d.text, before, NULL);
  /* The body bytes choose which annotations go; an all-ones seed (every
   * erasable one) for one input in eight. */
  uint64_t seed = 0x9e3779b97f4a7c15ull;
  for (size_t i = 0; i < size; i++)
    seed = (seed ^ data[i]) * 0x100000001b3ull;
  TyErasure er = ty_erase_annotations(m, (seed & 7) == 0 ? TY_ERASE_ALL : seed);
  diag_reset(&d);
  if (!ty_check_module(m, &d))
    typecheck_fail("type (inference fails once annotations are erased)", d.text, before, m);
  if (!ty_erasure_verify(&er, &d))
    typecheck_fail("type (inference recovers a different type than the erased one)", d.text, before,
                   m);
  ty_erasure_restore(&er);
  diag_free(&d);
  free(before);
  ir_module_free(m);
}
