/* Erasure with Any dims (compiler/typing/erase.c): a function literal's
 * parameter and result annotations that hold Any dims are erased where
 * every source of the recovered type is at least as static as the
 * annotation, and inference recovers them: equal, or more static where
 * the annotation had `?` (ty_erasure_verify).  Hand-written programs for
 * each rule, the comparison itself, and generated programs with Any dims
 * (the default policy, as typecheck_fuzzer makes them). */
#include <string.h>

#include "compiler/typing/typing.h"
#include "generator/gen.h"
#include "test.h"

/* Check text's program, erase everything erasable, check again; the
 * erasure's kinds by annotation with an Any dim into any[], and whether
 * inference recovered all (verify's first error into err). */
static bool roundtrip(const char *text, int any[4], char *err, size_t errlen) {
  Diag d;
  diag_init(&d, "test", text);
  Module *m = ir_parse_module(text, strlen(text), "test", &d);
  CHECK_MSG(m && ty_check_module(m, &d), "%s", d.text);
  if (!m)
    return false;
  TyErasure er = ty_erase_annotations(m, TY_ERASE_ALL);
  for (int i = 0; i < er.n; i++)
    any[er.items[i].kind] += ir_type_has_any(er.items[i].annot);
  diag_reset(&d);
  bool ok = ty_check_module(m, &d) && ty_erasure_verify(&er, &d);
  snprintf(err, errlen, "%s", ok ? "" : d.text);
  ty_erasure_restore(&er);
  diag_free(&d);
  ir_module_free(m);
  return ok;
}

static void cases(void) {
  static const struct {
    const char *name;
    int params, rets; /* erased annotations with an Any dim, at least */
    const char *text;
  } cs[] = {
      /* called on the spot with a more static argument: %p gets (2, 3) */
      {"on the spot", 1, 0,
       "#[version = \"0.0.5\"]\n"
       "def @main(%x: Tensor[(2, 3), float32]) -> Tensor[(?, 3), float32] {\n"
       "  fn (%p: Tensor[(?, 3), float32]) -> Tensor[(?, 3), float32] {\n"
       "    negative(%p)\n"
       "  }(%x)\n"
       "}\n"},
      /* bound by a let, called twice with arguments of one type */
      {"let, called", 2, 0,
       "#[version = \"0.0.5\"]\n"
       "def @main(%x: Tensor[(?, 3), float32], %y: Tensor[(4, 3), float32]) {\n"
       "  let %f = fn (%p: Tensor[(?, 3), float32], %q: Tensor[(4, ?), float32]) {\n"
       "    add(%p, %q)\n"
       "  };\n"
       "  let %a = %f(%x, %y);\n"
       "  %f(%y, %y)\n"
       "}\n"},
      /* checked against a let's annotation (which stays: the value's type
       * is less static than it in the result) */
      {"let annotation", 1, 0,
       "#[version = \"0.0.5\"]\n"
       "def @main(%x: Tensor[(2, 3), float32]) {\n"
       "  let %f: fn (Tensor[(?, 3), float32]) -> Tensor[(2, 3), float32] =\n"
       "    fn (%p: Tensor[(?, 3), float32]) { exp(%p) };\n"
       "  %f(%x)\n"
       "}\n"},
      /* a result: the body's type is concrete and more static */
      {"result", 0, 1,
       "#[version = \"0.0.5\"]\n"
       "def @main(%x: Tensor[(2, 3), float32]) {\n"
       "  let %f = fn (%p: Tensor[(2, 3), float32]) -> Tensor[(2, ?), float32] {\n"
       "    let %q = %p;\n"
       "    let %r = sum(%q, axis=[1], keepdims=True);\n"
       "    multiply(%q, %r)\n"
       "  };\n"
       "  %f(%x)\n"
       "}\n"},
  };
  for (size_t i = 0; i < sizeof cs / sizeof *cs; i++) {
    int any[4] = {0};
    char err[512];
    CHECK_MSG(roundtrip(cs[i].text, any, err, sizeof err), "%s: %s", cs[i].name, err);
    CHECK_MSG(any[TY_ERASED_PARAM] >= cs[i].params && any[TY_ERASED_RET] >= cs[i].rets,
              "%s: %d parameters and %d results with Any erased", cs[i].name, any[TY_ERASED_PARAM],
              any[TY_ERASED_RET]);
  }
}

/* Annotations whose recovery would be less static stay. */
static void kept(void) {
  static const char *const texts[] = {
      /* the argument is less static than the parameter's (2, 3) ... */
      "#[version = \"0.0.5\"]\n"
      "def @main(%x: Tensor[(?, 3), float32]) {\n"
      "  fn (%p: Tensor[(2, ?), float32]) { negative(%p) }(%x)\n"
      "}\n",
      /* ... the body gives the parameter to a function, not an operator */
      "#[version = \"0.0.5\"]\n"
      "def @main(%x: Tensor[(2, 3), float32]) {\n"
      "  let %g = fn (%u: Tensor[(?, 3), float32]) { %u };\n"
      "  fn (%p: Tensor[(2, ?), float32]) { %g(%p) }(%x)\n"
      "}\n",
      /* ... the result depends on an unannotated outer variable */
      "#[version = \"0.0.5\"]\n"
      "def @main(%x: Tensor[(2, 3), float32]) {\n"
      "  let %y = exp(%x);\n"
      "  let %f = fn (%p: Tensor[(2, 3), float32]) -> Tensor[(2, ?), float32] { add(%p, %y) };\n"
      "  %f(%x)\n"
      "}\n",
  };
  for (size_t i = 0; i < sizeof texts / sizeof *texts; i++) {
    int any[4] = {0};
    char err[512];
    CHECK_MSG(roundtrip(texts[i], any, err, sizeof err), "kept %zu: %s", i, err);
    CHECK_MSG(any[TY_ERASED_PARAM] == 0 && any[TY_ERASED_RET] == 0,
              "kept %zu: %d parameters, %d results erased", i, any[TY_ERASED_PARAM],
              any[TY_ERASED_RET]);
  }
}

/* The comparison: more static where the annotation has `?`, never less,
 * and never a different static dim. */
static void comparison(void) {
  Arena *a = arena_new();
  int64_t s23[] = {2, 3}, sq3[] = {IR_DIM_ANY, 3}, s2q[] = {2, IR_DIM_ANY}, s43[] = {4, 3};
  Type *t23 = ir_tensor_type(a, DT_FLOAT32, 2, s23), *tq3 = ir_tensor_type(a, DT_FLOAT32, 2, sq3),
       *t2q = ir_tensor_type(a, DT_FLOAT32, 2, s2q), *t43 = ir_tensor_type(a, DT_FLOAT32, 2, s43);
  Var v = {.name = "v"};
  struct {
    Type *annot, *got;
    bool ok;
  } cs[] = {
      {tq3, t23, true},
      {tq3, tq3, true},
      {tq3, t43, true},
      {t23, tq3, false},
      {tq3, t2q, false},
      {t23, t43, false},
      {ir_tuple_type(a, 2, (Type *[]){tq3, t23}), ir_tuple_type(a, 2, (Type *[]){t23, t23}), true},
      {ir_tuple_type(a, 2, (Type *[]){tq3, t23}), ir_tuple_type(a, 2, (Type *[]){t23, tq3}), false},
  };
  for (size_t i = 0; i < sizeof cs / sizeof *cs; i++) {
    TyErased it = {TY_ERASED_LET, &v, NULL, cs[i].annot};
    v.type = cs[i].got;
    TyErasure er = {1, &it};
    Diag d;
    diag_init(&d, "cmp", NULL);
    CHECK_MSG(ty_erasure_verify(&er, &d) == cs[i].ok, "comparison %zu", i);
    diag_free(&d);
  }
  arena_free(a);
}

/* Generated programs with Any dims: every erasure recovered, and some of
 * the erased parameters and results held an Any dim. */
static void generated(void) {
  enum { N = 20000 };
  int any[4] = {0}, dyn = 0;
  uint64_t s = 11;
  for (int i = 0; i < N; i++) {
    uint8_t b[1024];
    size_t n = 64 + s % 900;
    for (size_t k = 0; k < n; k++) {
      s = s * 6364136223846793005ull + 1442695040888963407ull;
      b[k] = (uint8_t)(s >> 56);
    }
    Module *m = gen_decode(b, n, gen_policy_get("default"), NULL);
    Diag d;
    diag_init(&d, "generated", NULL);
    CHECK(ty_check_module(m, &d));
    bool has_any = false;
    for (int f = 0; f < m->nfuncs && !has_any; f++)
      has_any = ir_type_has_any(m->funcs[f]->func->type);
    for (int round = 0; round < 2; round++) {
      TyErasure er = ty_erase_annotations(m, round ? s : TY_ERASE_ALL);
      for (int k = 0; k < er.n; k++)
        any[er.items[k].kind] += ir_type_has_any(er.items[k].annot);
      diag_reset(&d);
      bool ok = ty_check_module(m, &d) && ty_erasure_verify(&er, &d);
      CHECK_MSG(ok, "program %d: %s", i, d.text);
      ty_erasure_restore(&er);
      diag_reset(&d);
      ty_check_module(m, &d);
    }
    dyn += has_any;
    diag_free(&d);
    ir_module_free(m);
  }
  printf("%d programs (%d with Any in a global's type): erased with an Any dim: %d lets, %d "
         "parameters, %d results\n",
         N, dyn, any[TY_ERASED_LET], any[TY_ERASED_PARAM], any[TY_ERASED_RET]);
  CHECK(any[TY_ERASED_PARAM] > 0 && any[TY_ERASED_RET] > 0);
}

int main(void) {
  comparison();
  cases();
  kept();
  generated();
  return test_summary();
}
