/* Deferred inference in the typecheck fuzzer (compiler/typing/erase.c,
 * TY_RECOVER_DEFERRED): annotations whose recovery waits for a later use
 * are erased too -- a global's parameters that a call with fixed
 * arguments gives, a function literal's parameters that its call gives --
 * and inference still recovers each exactly.
 *
 * The test build's checker fault checker_call_rels drops, at a call, the
 * relations waiting on a parameter type that is still unknown.  With only
 * the old erasure (TY_RECOVER_LOCAL) no parameter type is unknown at its
 * call, so the fault is invisible; with deferred recovery it is found. */
#include <string.h>

#include "compiler/typing/typing.h"
#include "generator/gen.h"
#include "test.h"

/* The checker fault exists only in the test build (RS_TEST_PASSES): the
 * other presets compile this file to an empty test. */
#ifdef RS_TEST_PASSES
/* Erase every erasable annotation of text's program (per recover), check
 * it again and verify; true when inference recovered everything.  *n gets
 * the number erased. */
static bool roundtrip(const char *text, unsigned recover, int *n) {
  Diag d;
  diag_init(&d, "test", text);
  Module *m = ir_parse_module(text, strlen(text), "test", &d);
  CHECK(m && ty_check_module(m, &d));
  TyErasure er = ty_erase_annotations_by(m, TY_ERASE_ALL, recover);
  *n = er.n;
  diag_reset(&d);
  bool ok = ty_check_module(m, &d) && ty_erasure_verify(&er, &d);
  ty_erasure_restore(&er);
  diag_free(&d);
  ir_module_free(m);
  return ok;
}

/* Each deferred case: more erased than the old rule, all recovered. */
static void cases(void) {
  static const char *const programs[] = {
      /* a global's parameter, from @main's call */
      "#[version = \"0.0.5\"]\n"
      "def @f(%p: Tensor[(2), float32]) -> Tensor[(2), float32] {\n"
      "  negative(%p)\n"
      "}\n"
      "def @main(%x: Tensor[(2), float32]) -> Tensor[(2), float32] {\n"
      "  let %y: Tensor[(2), float32] = exp(%x);\n"
      "  @f(%y)\n"
      "}\n",
      /* a literal called on the spot */
      "#[version = \"0.0.5\"]\n"
      "def @main(%x: Tensor[(2, 3), int32]) -> Tensor[(3), int32] {\n"
      "  fn (%p: Tensor[(2, 3), int32]) -> Tensor[(3), int32] {\n"
      "    sum(%p, axis=[0])\n"
      "  }(%x)\n"
      "}\n",
      /* a literal bound by a let, called later */
      "#[version = \"0.0.5\"]\n"
      "def @main(%x: Tensor[(2), float64]) -> Tensor[(2), float64] {\n"
      "  let %f: fn (Tensor[(2), float64], float64) -> Tensor[(2), float64] = "
      "fn (%p: Tensor[(2), float64], %q: float64) -> Tensor[(2), float64] {\n"
      "    add(%p, %q)\n"
      "  };\n"
      "  %f(%x, 1f64)\n"
      "}\n",
  };
  for (size_t i = 0; i < sizeof programs / sizeof *programs; i++) {
    int old, now;
    CHECK(roundtrip(programs[i], TY_RECOVER_LOCAL, &old));
    CHECK_MSG(roundtrip(programs[i], TY_RECOVER_DEFERRED, &now) && now > old,
              "program %zu: %d erased, %d before", i, now, old);
    ty_test_fault_call_rels = true;
    CHECK_MSG(roundtrip(programs[i], TY_RECOVER_LOCAL, &old), "program %zu: old erasure", i);
    CHECK_MSG(!roundtrip(programs[i], TY_RECOVER_DEFERRED, &now), "program %zu: fault missed", i);
    ty_test_fault_call_rels = false;
  }
}

/* Generated programs (as typecheck_fuzzer makes them): no erasure fails
 * without the fault; with it, the old erasure finds nothing, the new one
 * finds it. */
static void generated(void) {
  enum { N = 30000 };
  int fails[2][2] = {{0}}; /* [fault][deferred] */
  int erased[2] = {0};
  uint64_t s = 7;
  for (int i = 0; i < N; i++) {
    uint8_t b[256];
    size_t n = 20 + s % 200;
    for (size_t k = 0; k < n; k++) {
      s = s * 6364136223846793005ull + 1442695040888963407ull;
      b[k] = (uint8_t)(s >> 56);
    }
    Module *m = gen_decode(b, n, gen_policy_get("default"), NULL);
    Diag d;
    diag_init(&d, "generated", NULL);
    CHECK(ty_check_module(m, &d));
    for (int fault = 0; fault < 2; fault++)
      for (int deferred = 0; deferred < 2; deferred++) {
        uint64_t seed = (i & 7) == 0 ? TY_ERASE_ALL : s;
        TyErasure er = ty_erase_annotations_by(m, seed, deferred ? TY_RECOVER_DEFERRED : 0);
        erased[deferred] += fault ? 0 : er.n;
        ty_test_fault_call_rels = fault;
        diag_reset(&d);
        bool ok = ty_check_module(m, &d) && ty_erasure_verify(&er, &d);
        ty_test_fault_call_rels = false;
        fails[fault][deferred] += !ok;
        if (!ok && !fault)
          fprintf(stderr, "program %d: %s\n", i, d.text);
        ty_erasure_restore(&er);
        diag_reset(&d);
        ty_check_module(m, &d); /* the types as before, for the next erasure */
      }
    diag_free(&d);
    ir_module_free(m);
  }
  printf("%d programs: erased %d (old rule) / %d (deferred); with the fault, %d / %d fail\n", N,
         erased[0], erased[1], fails[1][0], fails[1][1]);
  CHECK(fails[0][0] == 0 && fails[0][1] == 0);
  CHECK(erased[1] > erased[0]);
  CHECK(fails[1][0] == 0);
  CHECK(fails[1][1] > 0);
}
#endif

int main(void) {
#ifdef RS_TEST_PASSES
  cases();
  generated();
#endif
  return test_summary();
}
