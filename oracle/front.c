/*
 * front.c - the checks of relayc's front end (oracle.h): type inference
 * (ORACLE_INFERENCE: erased annotations inferred back) and rejection
 * (ORACLE_REJECT: a program with one deliberate defect is rejected with a
 * position inside it, or runs soundly).
 */
#include <stdlib.h>
#include <string.h>

#include "compiler/ir/hash.h"
#include "compiler/typing/typing.h"
#include "generator/breaker.h"
#include "oracle_int.h"

/* ------------------------------------------------------ type inference */

bool oracle_check_inference(const OracleConfig *c, const OracleInput *in, Verdict *v) {
  v->stage = -1;
  GenSpans spans = {0};
  Module *m = oracle_make_program(c, in, v, &spans);
  char *before = ir_print_module(m);
  Diag d;
  diag_init(&d, "generated", NULL);
  bool good = oracle_check_generated(m, &spans, v);
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

bool oracle_check_reject(const OracleConfig *c, const OracleInput *in, Verdict *v) {
  v->stage = -1;
  Module *m = oracle_make_program(c, in, v, NULL);
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
