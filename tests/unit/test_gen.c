/* The generator (generator/): decoding is total and deterministic, the
 * all-zero stream gives the minimal program, every program is well
 * formed, type checks with the independent checker and evaluates without
 * error, spans describe what was generated, and policies and the header's
 * swarm bits restrict what they say. */
#include <stdlib.h>
#include <string.h>

#include "compiler/eval/eval.h"
#include "compiler/typing/typing.h"
#include "generator/analyse.h"
#include "generator/gen.h"
#include "test.h"

static uint64_t rng = 0x1234567;

/* xorshift64*: the test's random inputs. */
static uint64_t next(void) {
  rng ^= rng >> 12;
  rng ^= rng << 25;
  rng ^= rng >> 27;
  return rng * 2685821657736338717ull;
}

static uint8_t *random_bytes(size_t n) {
  uint8_t *b = malloc(n + 1);
  for (size_t i = 0; i < n; i++)
    b[i] = (uint8_t)(next() >> 32);
  return b;
}

static int nfail; /* failures reported in full (the rest only counted) */

/* Decode data; the module must be well formed and well typed. */
static Module *decode_checked(const uint8_t *data, size_t n, const GenPolicy *p, GenSpans *sp) {
  Module *m = gen_decode(data, n, p, sp);
  Diag d;
  diag_init(&d, NULL, NULL);
  bool wf = ir_well_formed(m, &d);
  bool typed = wf && ty_check_module(m, &d);
  CHECK(wf && typed);
  if ((!wf || !typed) && nfail++ < 3) {
    char *text = ir_print_module(m);
    fprintf(stderr, "policy %s, %zu bytes: %s\n%s\n", p->name, n, d.text, text);
    free(text);
  }
  diag_free(&d);
  return m;
}

/* The empty, all-zero, all-0xFF and random streams, and every prefix of
 * some random ones, decode to well-typed modules with a @main. */
static void test_total(void) {
  const GenPolicy *p = gen_policy_get("default");
  size_t lens[] = {0, 1, 15, 16, 17, 100, 4096};
  for (size_t i = 0; i < sizeof lens / sizeof *lens; i++) {
    uint8_t *b = calloc(lens[i] + 1, 1);
    for (int fill = 0; fill < 2; fill++) {
      memset(b, fill ? 0xff : 0, lens[i]);
      for (int k = 0; gen_policy_at(k); k++) {
        Module *m = decode_checked(b, lens[i], gen_policy_at(k), NULL);
        CHECK(ir_global_get(m, "main") && ir_global_get(m, "main")->func);
        ir_module_free(m);
      }
    }
    free(b);
  }
  for (int i = 0; i < 4; i++) {
    size_t n = 200 + (size_t)(next() % 200);
    uint8_t *b = random_bytes(n);
    for (size_t k = 0; k <= n; k++)
      ir_module_free(decode_checked(b, k, p, NULL));
    free(b);
  }
}

/* The same bytes give byte-identical text, with or without spans. */
static void test_deterministic(void) {
  for (int i = 0; i < 200; i++) {
    size_t n = (size_t)(next() % 1500);
    uint8_t *b = random_bytes(n);
    const GenPolicy *p = gen_policy_at(i % 2);
    GenSpans sp = {0};
    Module *m1 = gen_decode(b, n, p, NULL);
    Module *m2 = gen_decode(b, n, p, &sp);
    char *t1 = ir_print_module(m1), *t2 = ir_print_module(m2);
    CHECK_STR(t1, t2);
    free(t1);
    free(t2);
    ir_module_free(m1);
    ir_module_free(m2);
    gen_spans_free(&sp);
    free(b);
  }
}

/* All zeros: no generated types, @main() -> float32 { 0f }: choice 0
 * of the result type is a tensor, of the dtype float32, of the rank 0;
 * the body's choice 0 is a literal (no variable is in scope), whose
 * value byte 0 means 0.0. */
static void test_minimal(void) {
  uint8_t zeros[512] = {0};
  size_t lens[] = {0, 16, 512};
  char *first = NULL;
  for (size_t i = 0; i < 3; i++) {
    Module *m = gen_decode(zeros, lens[i], gen_policy_get("default"), NULL);
    CHECK(m->nfuncs == 1);
    for (int k = 0; k < m->ntypes; k++)
      CHECK(m->types[k]->builtin);
    Expr *f = ir_global_get(m, "main")->func;
    CHECK(f->func.nparams == 0);
    CHECK(ir_type_is_scalar(f->func.ret, DT_FLOAT32));
    Expr *body = f->func.body;
    CHECK(body->kind == EX_CONST && body->constant->dtype == DT_FLOAT32 &&
          body->constant->rank == 0 && ir_tensor_get_f64(body->constant, 0) == 0.0);
    CHECK(ir_module_count(m) == 2);
    char *text = ir_print_module(m);
    if (!first)
      first = text;
    else {
      CHECK_STR(text, first);
      free(text);
    }
    ir_module_free(m);
  }
  free(first);
}

/* Thousands of random inputs type check under each policy, @main's body
 * has @main's result type (equal up to Any dims, when relaxed), and the interpreter never finds
 * a program invalid; a runtime error (a match? that fails) happens, but rarely, and only where a
 * match? is. */
static void test_valid(void) {
  int64_t ran = 0, inconclusive = 0, failed = 0;
  for (int k = 0; gen_policy_at(k); k++) {
    const GenPolicy *p = gen_policy_at(k);
    for (int i = 0; i < 1500; i++) {
      size_t n = (size_t)(next() % 2048);
      uint8_t *b = random_bytes(n);
      Module *m = decode_checked(b, n, p, NULL);
      Expr *f = ir_global_get(m, "main")->func;
      CHECK(f->func.body->type && ir_type_unifies(f->func.body->type, f->func.ret)); /* dyn.c */
      EvRun *r = ev_run_new(NULL);
      EvResult res = ev_run_main(r, m, (uint64_t)i);
      CHECK_MSG(res.status != EV_INVALID, "%s: %s", ev_status_name(res.status), res.msg);
      if (res.status == EV_ERROR) {
        char *text = ir_print_module(m);
        CHECK_MSG(strstr(text, "match?") != NULL, "%s without a match?", res.msg);
        free(text);
      }
      ran++;
      inconclusive += res.status == EV_INCONCLUSIVE;
      failed += res.status == EV_ERROR;
      ev_run_free(r);
      ir_module_free(m);
      free(b);
    }
  }
  CHECK(inconclusive * 100 < ran); /* fuel rarely runs out */
  CHECK(failed * 50 < ran);        /* runs rarely fail */
}

/* Spans: pre-order, nested, within the input, typed as generated (or
 * with Any dims, when generator/dyn.c relaxed the program). */
static void test_spans(void) {
  const GenPolicy *p = gen_policy_get("default");
  for (int i = 0; i < 300; i++) {
    size_t n = (size_t)(next() % 1024);
    uint8_t *b = random_bytes(n);
    GenSpans sp = {0};
    Module *m = decode_checked(b, n, p, &sp);
    CHECK(sp.n >= 1 && sp.v[0].parent == -1);
    CHECK(sp.v[0].expr == ir_global_get(m, "main")->func->func.body);
    bool ok = true;
    for (int k = 0; k < sp.n; k++) {
      const GenSpan *s = &sp.v[k];
      ok &= s->start <= s->end && s->end <= (n > GEN_HEADER_BYTES ? n : GEN_HEADER_BYTES);
      ok &= s->expr && s->expr->type && ir_type_unifies(s->expr->type, s->type);
      ok &= s->scope_off >= 0 && s->scope_off + s->scope_n <= sp.nscope;
      if (s->parent >= 0) {
        const GenSpan *q = &sp.v[s->parent];
        ok &= s->parent < k && q->start <= s->start && s->end <= q->end;
        ok &= s->depth > q->depth;
      }
      for (int v = 0; v < s->scope_n; v++)
        ok &= sp.scope[s->scope_off + v].var && sp.scope[s->scope_off + v].type;
    }
    CHECK_MSG(ok, "input %d", i);
    /* Zeroing a span's bytes still decodes (and type checks). */
    if (sp.n > 1) {
      const GenSpan *s = &sp.v[1 + next() % (uint64_t)(sp.n - 1)];
      memset(b + s->start, 0, s->end - s->start);
      ir_module_free(decode_checked(b, n, p, NULL));
    }
    ir_module_free(m);
    gen_spans_free(&sp);
    free(b);
  }
}

/* Which analysis features a GEN_F_ feature's absence rules out. */
static const struct {
  uint32_t feature;
  GenFeat gone[4];
  int n;
} absent[] = {
    {GEN_F_LET, {GFE_LET}, 1},
    {GEN_F_IF, {GFE_IF}, 1},
    {GEN_F_TUPLE, {GFE_PROJ, GFE_TUPLE_PATTERN}, 2},
    {GEN_F_CLOSURE, {GFE_FN_LITERAL, GFE_CLOSURE_CALL, GFE_TY_FUNC}, 3},
    {GEN_F_GLOBAL, {GFE_GLOBALS, GFE_GLOBAL_CALL, GFE_RECURSION}, 3},
    {GEN_F_RECURSION, {GFE_RECURSION}, 1},
    {GEN_F_REF, {GFE_REF_NEW, GFE_REF_READ, GFE_REF_WRITE, GFE_TY_REF}, 4},
    {GEN_F_ADT, {GFE_PRELUDE_ADT}, 1},
    {GEN_F_GENADT, {GFE_GEN_ADT}, 1},
    {GEN_F_NESTED, {GFE_NESTED_PATTERN}, 1},
    {GEN_F_SHARE, {GFE_GRAPH_BINDING}, 1},
    {GEN_F_OPS, {GFE_OP_CALL}, 1},
    {GEN_F_PRELUDE, {GFE_POLY_CALL}, 1},
};

/* A policy without a feature never uses it, and neither does a header
 * that switches it off; and the feature does appear when it is on. */
static void test_features(void) {
  for (size_t f = 0; f < sizeof absent / sizeof *absent; f++) {
    GenPolicy p = gen_policy_default;
    p.features &= ~absent[f].feature;
    int seen_on[4] = {0};
    for (int i = 0; i < 300; i++) {
      size_t n = 64 + (size_t)(next() % 1024);
      uint8_t *b = random_bytes(n);
      Module *m = decode_checked(b, n, &p, NULL);
      GenInfo in;
      gen_analyse(m, &in);
      for (int k = 0; k < absent[f].n; k++)
        CHECK_MSG(!in.has[absent[f].gone[k]], "feature bit %u: %s", absent[f].feature,
                  gen_feat_names[absent[f].gone[k]]);
      ir_module_free(m);
      /* The same through the header: both bits of the feature set. */
      int bit = __builtin_ctz(absent[f].feature);
      int at = bit < 12 ? 2 + 2 * bit / 8 : 15; /* header bytes 2-4, then 15 */
      b[at] |= (uint8_t)(3u << (2 * bit % 8));
      m = decode_checked(b, n, &gen_policy_default, NULL);
      gen_analyse(m, &in);
      for (int k = 0; k < absent[f].n; k++)
        CHECK(!in.has[absent[f].gone[k]]);
      ir_module_free(m);
      /* And with the bits clear, the feature shows up somewhere. */
      b[at] &= (uint8_t) ~(3u << (2 * bit % 8));
      m = decode_checked(b, n, &gen_policy_default, NULL);
      gen_analyse(m, &in);
      for (int k = 0; k < absent[f].n; k++)
        seen_on[k] += in.has[absent[f].gone[k]];
      ir_module_free(m);
      free(b);
    }
    for (int k = 0; k < absent[f].n; k++)
      CHECK_MSG(seen_on[k] > 0, "%s never generated", gen_feat_names[absent[f].gone[k]]);
  }
}

/* Whether t holds only float32, int32 and bool tensors with dims >= 1 or
 * Any (the translator takes Any dims: docs/mlir.md, "Dynamic dims"). */
static bool mlir_type_ok(const Type *t) {
  if (t->kind == TY_TUPLE) {
    for (int i = 0; i < t->tuple.n; i++)
      if (!mlir_type_ok(t->tuple.fields[i]))
        return false;
    return true;
  }
  if (t->kind != TY_TENSOR)
    return false;
  DType dt = t->tensor.dtype;
  for (int i = 0; i < t->tensor.rank; i++)
    if (t->tensor.shape[i] < 1 && !ir_dim_is_any(t->tensor.shape[i]))
      return false;
  return dt == DT_FLOAT32 || dt == DT_INT32 || dt == DT_BOOL;
}

/* mlir_type_ok for the type of e and of every expression below it (but
 * a global called, which is a function). */
static void check_mlir_types(Expr **slot, void *ok) {
  Expr *e = *slot;
  if (e->kind != EX_GLOBAL && (!e->type || !mlir_type_ok(e->type)))
    *(bool *)ok = false;
  ir_expr_children(e, check_mlir_types, ok);
}

static bool mlir_types_ok(Expr *e) {
  bool ok = true;
  check_mlir_types(&e, &ok);
  return ok;
}

/* Operator restrictions: the policy's deny-list and pattern weights, and
 * the header's operator bits. */
static void test_ops_restricted(void) {
  GenPolicy p = gen_policy_default;
  memset(p.op_deny, 0xff, sizeof p.op_deny);
  OpId keep[] = {OP_ADD, OP_SUM, OP_RESHAPE};
  for (int i = 0; i < 3; i++)
    p.op_deny[keep[i] / 64] &= ~(1ull << (keep[i] % 64));
  int used[3] = {0};
  for (int i = 0; i < 400; i++) {
    size_t n = 64 + (size_t)(next() % 1024);
    uint8_t *b = random_bytes(n);
    memset(b + 5, 0, 9); /* no header op bits */
    Module *m = decode_checked(b, n, &p, NULL);
    GenInfo in;
    gen_analyse(m, &in);
    for (int op = 0; op < OP_COUNT; op++) {
      bool kept = op == OP_ADD || op == OP_SUM || op == OP_RESHAPE;
      CHECK_MSG(kept || in.op_calls[op] == 0, "%s called", ir_op_name((OpId)op));
    }
    used[0] += in.op_calls[OP_ADD] > 0;
    used[1] += in.op_calls[OP_SUM] > 0;
    used[2] += in.op_calls[OP_RESHAPE] > 0;
    ir_module_free(m);
    /* The header's operator bits switch operators off too. */
    memset(b + 5, 0xff, 9);
    b[5 + OP_MULTIPLY / 8] &= (uint8_t) ~(1u << (OP_MULTIPLY % 8));
    m = decode_checked(b, n, &gen_policy_default, NULL);
    gen_analyse(m, &in);
    for (int op = 0; op < OP_COUNT; op++) /* the bit of op is op % 72 */
      CHECK(op % 72 == OP_MULTIPLY || in.op_calls[op] == 0);
    ir_module_free(m);
    free(b);
  }
  CHECK(used[0] > 0 && used[1] > 0 && used[2] > 0);

  /* The fusion policy: operators and lets only, long operator chains. */
  const GenPolicy *fu = gen_policy_get("fusion");
  int64_t calls = 0, progs = 0;
  for (int i = 0; i < 300; i++) {
    size_t n = 64 + (size_t)(next() % 2048);
    uint8_t *b = random_bytes(n);
    Module *m = decode_checked(b, n, fu, NULL);
    GenInfo in;
    gen_analyse(m, &in);
    GenFeat never[] = {GFE_IF,        GFE_FN_LITERAL, GFE_GLOBALS, GFE_REF_NEW, GFE_MATCH,
                       GFE_CTOR_CALL, GFE_TY_ADT,     GFE_TY_REF,  GFE_TY_FUNC, GFE_CLOSURE_CALL};
    for (size_t k = 0; k < sizeof never / sizeof *never; k++)
      CHECK(!in.has[never[k]]);
    for (int op = 0; op < OP_COUNT; op++)
      calls += in.op_calls[op];
    progs++;
    ir_module_free(m);
    free(b);
  }
  CHECK(calls >= 4 * progs); /* chains: several operator calls per program */

  /* The mlir policy: data flow, if and non-recursive globals over float32,
   * int32 and bool tensors with no empty dim (what the MLIR translator
   * takes; tests/mlir/mlir_check counts that it takes all of them). */
  const GenPolicy *ml = gen_policy_get("mlir");
  int with_if = 0, with_globals = 0;
  for (int i = 0; i < 300; i++) {
    size_t n = (size_t)(next() % 4096);
    uint8_t *b = random_bytes(n);
    Module *m = decode_checked(b, n, ml, NULL);
    GenInfo in;
    gen_analyse(m, &in);
    GenFeat never[] = {GFE_FN_LITERAL, GFE_CLOSURE_CALL, GFE_GLOBAL_VALUE, GFE_RECURSION,
                       GFE_POLY_CALL,  GFE_REF_NEW,      GFE_MATCH,        GFE_CTOR_CALL,
                       GFE_TY_ADT,     GFE_TY_REF,       GFE_TY_FUNC};
    for (size_t k = 0; k < sizeof never / sizeof *never; k++)
      CHECK_MSG(!in.has[never[k]], "mlir policy: %s", gen_feat_names[never[k]]);
    for (int f = 0; f < m->nfuncs; f++)
      CHECK(mlir_types_ok(m->funcs[f]->func->func.body));
    with_if += in.has[GFE_IF];
    with_globals += in.has[GFE_GLOBALS];
    ir_module_free(m);
    free(b);
  }
  CHECK(with_if > 0 && with_globals > 0);
}

/* The header's budget byte scales program size. */
static void test_budget(void) {
  int64_t small = 0, big = 0;
  for (int i = 0; i < 300; i++) {
    size_t n = 2048;
    uint8_t *b = random_bytes(n);
    b[0] = 1;
    Module *m = gen_decode(b, n, &gen_policy_default, NULL);
    small += ir_module_count(m);
    ir_module_free(m);
    b[0] = 255;
    m = gen_decode(b, n, &gen_policy_default, NULL);
    big += ir_module_count(m);
    ir_module_free(m);
    free(b);
  }
  CHECK_MSG(2 * small < big, "small %lld, big %lld", (long long)small, (long long)big);
}

/* Policy lookup. */
static void test_policies(void) {
  CHECK(gen_policy_get("default") == &gen_policy_default);
  CHECK(gen_policy_get("fusion") == &gen_policy_fusion);
  CHECK(gen_policy_get("nope") == NULL);
  int n = 0;
  while (gen_policy_at(n))
    n++;
  CHECK(n >= 2 && gen_policy_at(-1) == NULL);
  GenConfig c;
  uint8_t h[GEN_HEADER_BYTES] = {0};
  gen_config(&gen_policy_default, h, &c);
  CHECK(c.budget == gen_policy_default.budget && c.features == gen_policy_default.features);
  h[0] = 1;
  gen_config(&gen_policy_default, h, &c);
  CHECK(c.budget == gen_policy_default.budget_min);
  h[0] = 255;
  gen_config(&gen_policy_default, h, &c);
  CHECK(c.budget == gen_policy_default.budget_max);
  h[2] = 0x0c; /* bits 2-3: GEN_F_IF off; one bit of a pair does nothing */
  h[3] = 0x01;
  gen_config(&gen_policy_default, h, &c);
  CHECK(c.features == (GEN_F_ALL & ~GEN_F_IF));
}

int main(void) {
  test_policies();
  test_minimal();
  test_total();
  test_deterministic();
  test_valid();
  test_spans();
  test_features();
  test_ops_restricted();
  test_budget();
  return test_summary();
}
