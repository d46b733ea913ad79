/*
 * test_translate_dyn.c - the translation of Any dims (translate.h,
 * MltOptions): the golden MLIR of tests/mlir/dynamic.relay (RS_UPDATE_GOLDEN=1
 * rewrites it), its static translation (no `?` anywhere), @main's
 * parameters made dynamic by MltOptions.dyn_params (and the runner's
 * entry casting to them), and the refusals: an Any dim in @main's
 * parameters (accept.c), a global called at two shapes (the emission), an
 * operator without a lowering and take with batch_dims (accept.c).
 *
 *   test_translate_dyn tests/mlir/dynamic.relay tests/mlir/dynamic.mlir
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../unit/test.h"
#include "compiler/typing/typing.h"
#include "targets/mlir/translate.h"

/* src parsed and type-checked, or NULL. */
static Module *load(const char *src) {
  Diag d;
  diag_init(&d, "test", src);
  Module *m = ir_parse_module(src, strlen(src), "test", &d);
  bool ok = m && ty_check_module(m, &d);
  if (!ok)
    fprintf(stderr, "%s\n", d.text ? d.text : "parse failed");
  diag_free(&d);
  if (!ok && m)
    ir_module_free(m);
  return ok ? m : NULL;
}

/* The golden text, and what the options change. */
static void golden(const char *relay, const char *mlir) {
  char *src = test_read_file(relay, NULL), *want = test_read_file(mlir, NULL);
  CHECK_MSG(src, "cannot read %s", relay);
  Module *m = src ? load(src) : NULL;
  CHECK(m);
  if (!m)
    return;
  MltResult r;
  CHECK_MSG(mlt_translate(m, &r), "%s", r.skip);
  if (r.text && getenv("RS_UPDATE_GOLDEN")) {
    FILE *f = fopen(mlir, "wb");
    fputs(r.text, f);
    fclose(f);
  } else if (r.text) {
    CHECK_MSG(want && !strcmp(r.text, want), "the translation differs from %s:\n%s", mlir, r.text);
  }
  CHECK(r.ndyn > 0);
  CHECK(r.sig.resdyn[1] == 1 && r.sig.resdyn[2] == 3 && r.sig.resdyn[0] == 0);
  mlt_result_free(&r);

  MltOptions st = {.static_shapes = true};
  CHECK(mlt_translate_with(m, &st, &r));
  CHECK_MSG(r.text && !strchr(r.text, '?'), "a `?` in the static translation:\n%s", r.text);
  CHECK(r.ndyn == 0);
  mlt_result_free(&r);

  /* Every seed gives some parameters dynamic, and the entry casts to them. */
  int with = 0;
  for (uint64_t seed = 1; seed <= 8; seed++) {
    MltOptions o = {.dyn_params = seed};
    CHECK(mlt_translate_with(m, &o, &r));
    bool dyn = false;
    for (int i = 0; i < r.sig.nargs; i++)
      dyn |= r.sig.argdyn[i] != 0;
    if (dyn) {
      with++;
      char *head = strstr(r.text, "func.func @main(");
      CHECK(head && strchr(head, '?') < strchr(head, ')'));
      Tensor *args[8];
      for (int i = 0; i < r.sig.nargs; i++)
        args[i] = ir_tensor_of_type(m->arena, r.sig.args[i]);
      char *entry = mlt_entry(&r.sig, args);
      CHECK(strstr(entry, "_d = tensor.cast"));
      free(entry);
    }
    mlt_result_free(&r);
  }
  CHECK(with > 0);
  ir_module_free(m);
  free(src);
  free(want);
}

static void refusals(void) {
  Module *m = load("#[version = \"0.0.5\"]\n"
                   "def @main(%x: Tensor[(?, 3), float32]) { exp(%x) }\n");
  MltResult r;
  CHECK(m && !mlt_translate(m, &r) && strstr(r.skip, "@main's parameter"));
  mlt_result_free(&r);
  ir_module_free(m);
  m = load("#[version = \"0.0.5\"]\n"
           "def @f(%v: Tensor[(?), float32]) -> Tensor[(?), float32] { exp(%v) }\n"
           "def @main(%x: Tensor[(2), float32], %y: Tensor[(3), float32]) {\n"
           "  (@f(%x), @f(%y))\n"
           "}\n");
  CHECK(m && !mlt_translate(m, &r) && strstr(r.skip, "two shapes"));
  mlt_result_free(&r);
  ir_module_free(m);
  /* An operator without a row in targets/mlir/lowers.def, and a call its
   * row's emitter does not take. */
  m = load("#[version = \"0.0.5\"]\n"
           "def @main(%x: Tensor[(2), float32]) { erf(%x) }\n");
  CHECK(m && !mlt_translate(m, &r) && strstr(r.skip, "operator erf (no lowering)"));
  mlt_result_free(&r);
  ir_module_free(m);
  m = load("#[version = \"0.0.5\"]\n"
           "def @main(%x: Tensor[(2, 3), float32], %i: Tensor[(2, 1), int32]) {\n"
           "  take(%x, %i, axis=1, batch_dims=1)\n"
           "}\n");
  CHECK(m && !mlt_translate(m, &r) && strstr(r.skip, "batch_dims"));
  mlt_result_free(&r);
  ir_module_free(m);
}

int main(int argc, char **argv) {
  if (argc != 3) {
    fprintf(stderr, "usage: test_translate_dyn FILE.relay FILE.mlir\n");
    return 2;
  }
  golden(argv[1], argv[2]);
  refusals();
  return test_summary();
}
