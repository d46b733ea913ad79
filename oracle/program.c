/*
 * program.c - the program a check is about: made by the caller or
 * decoded from the input, and trusted only once it is well formed and
 * well typed (oracle "generator", or "relation" when an operator's
 * relation and solver disagree).
 */
#include <stdlib.h>

#include "compiler/typing/typing.h"
#include "oracle_int.h"

/* The result oracle's budgets (oracle_int.h). */
const EvLimits oracle_limits = {
    .fuel = 200000,
    .max_depth = 500,
    .max_stack = 1 << 20,
    .max_bytes = 32 << 20,
};

EvLimits oracle_limits_of(const OracleConfig *c) {
  EvLimits l = oracle_limits;
  if (c->fuel > 0)
    l.fuel = c->fuel;
  return l;
}

uint64_t oracle_input_seed(const uint8_t *data, size_t size) {
  uint64_t seed = size;
  for (size_t i = 0; i < size && i < 64; i++)
    seed = seed * 31 + data[i];
  return seed;
}

uint64_t tg_header_hash(const uint8_t *data, size_t size) {
  uint64_t h = 1469598103934665603ull;
  for (size_t i = 0; i < GEN_HEADER_BYTES; i++)
    h = (h ^ (i < size ? data[i] : 0)) * 0x100000001b3ull;
  return h;
}

/* The program in: made by the caller, or decoded.  Decoding records spans,
 * as the mutator's decodes do (harnesses/custom_mutator.c), so that a
 * failure of the generator the mutator met on some bytes, which it hands
 * over as its output (mutators/mut.c), fails here too and the saved input
 * reproduces it; spans cost about 1% of a check.  A failure is oracle
 * "generator" in v (the module is still made, for the report).  The spans
 * go to *spans when it is not NULL (free with gen_spans_free). */
Module *oracle_make_program(const OracleConfig *c, const OracleInput *in, Verdict *v,
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
bool oracle_check_generated(Module *m, const GenSpans *spans, Verdict *v) {
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
