/* The known-cause filter (targets/mlir/known.c): each rule explains the
 * difference its cause makes, and does not explain a deliberately
 * different miscompile in a program that also holds the cause's pattern
 * (one element more or less wrong than the cause predicts). */
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../unit/test.h"
#include "compiler/typing/typing.h"
#include "targets/mlir/translate.h"

enum { SEED = 5 };

/* fold-zero: %z * 0 with %z all NaN and infinities; (1, 1, 1) + %x / 1e30
 * beside it, untouched by any fold. */
static const char fold_src[] = "#[version = \"0.0.5\"]\n"
                               "def @main(%x: Tensor[(3), float32]) {\n"
                               "  let %s = Tensor[(3), float32]([nan, inf, -inf]);\n"
                               "  let %z = multiply(%s, 0f);\n"
                               "  (%z, add(%x, 0f), add(%x, 1f))\n"
                               "}\n";

/* reduce-inf: the max of infinities, and a sum beside it. */
static const char inf_src[] = "#[version = \"0.0.5\"]\n"
                              "def @main(%x: Tensor[(3), float32]) {\n"
                              "  let %s = Tensor[(3), float32]([-inf, -inf, -inf]);\n"
                              "  (max(%s), sum(%x))\n"
                              "}\n";

typedef struct {
  Module *m;
  EvRun *run;
  EvValue *want;
} Case;

static bool load(Case *c, const char *src) {
  Diag d;
  diag_init(&d, "test", src);
  c->m = ir_parse_module(src, strlen(src), "test", &d);
  bool ok = c->m && ty_check_module(c->m, &d);
  if (!ok)
    fprintf(stderr, "%s\n", d.text ? d.text : "parse failed");
  diag_free(&d);
  if (!ok)
    return false;
  c->run = ev_run_new(NULL);
  EvResult r = ev_run_main(c->run, c->m, SEED);
  c->want = r.status == EV_OK ? r.value : NULL;
  return c->want != NULL;
}

static void unload(Case *c) {
  ev_run_free(c->run);
  ir_module_free(c->m);
}

/* A deep copy of the tuple want whose field i, element k, is v. */
static EvValue *with(Case *c, const EvValue *want, int i, int64_t k, double v) {
  EvValue *t = ev_val_tuple(c->run, want->tuple.n);
  for (int f = 0; f < want->tuple.n; f++) {
    const Tensor *src = want->tuple.fields[f]->tensor;
    Tensor *dst = ir_tensor_new(c->run->arena, src->dtype, src->rank, src->shape);
    for (int64_t e = 0; e < src->numel; e++)
      ir_tensor_set_f64(dst, e, f == i && e == k ? v : ir_tensor_get_f64(src, e));
    t->tuple.fields[f] = ev_val_tensor(c->run, dst);
  }
  return t;
}

static MltKnown cause(Case *c, const EvValue *got, MltKnown *pattern) {
  return mlt_known_cause(c->m, SEED, c->want, got, pattern);
}

static void fold_zero(void) {
  Case c;
  CHECK(load(&c, fold_src));
  if (!c.want)
    return;
  MltKnown pattern;
  /* What MLIR gives: %z folded to zeros (all three elements). */
  EvValue *got = with(&c, c.want, 0, 0, 0);
  got = with(&c, got, 0, 1, 0);
  got = with(&c, got, 0, 2, 0);
  CHECK(cause(&c, got, &pattern) == MLT_KNOWN_FOLD_ZERO);
  CHECK(pattern == MLT_KNOWN_FOLD_ZERO);
  /* One fold site alone: only %z[0] folded would not be what MLIR does,
   * but an unfolded NaN where the fold predicts 0 is a different value. */
  EvValue *partial = with(&c, c.want, 0, 0, 0);
  CHECK(cause(&c, partial, &pattern) == MLT_KNOWN_NONE);
  /* The fold, and a different miscompile beside it: add(%x, 1f) off by 1. */
  double x1 = ir_tensor_get_f64(c.want->tuple.fields[2]->tensor, 1);
  EvValue *other = with(&c, got, 2, 1, x1 + 1);
  CHECK(cause(&c, other, &pattern) == MLT_KNOWN_NONE);
  CHECK(pattern == MLT_KNOWN_FOLD_ZERO);
  /* A wrong value at a fold site that no fold gives. */
  EvValue *wrong = with(&c, got, 0, 1, 7);
  CHECK(cause(&c, wrong, &pattern) == MLT_KNOWN_NONE);
  unload(&c);
}

static void reduce_inf(void) {
  Case c;
  CHECK(load(&c, inf_src));
  if (!c.want)
    return;
  MltKnown pattern;
  EvValue *got = with(&c, c.want, 0, 0, -FLT_MAX);
  CHECK(cause(&c, got, &pattern) == MLT_KNOWN_REDUCE_INF);
  CHECK(pattern == MLT_KNOWN_REDUCE_INF);
  /* The cause's value, and the sum beside it wrong. */
  double s = ir_tensor_get_f64(c.want->tuple.fields[1]->tensor, 0);
  CHECK(cause(&c, with(&c, got, 1, 0, s + 1), &pattern) == MLT_KNOWN_NONE);
  /* A finite value that is not the largest float. */
  CHECK(cause(&c, with(&c, c.want, 0, 0, -1), &pattern) == MLT_KNOWN_NONE);
  CHECK(pattern == MLT_KNOWN_REDUCE_INF);
  unload(&c);
}

/* fold-zero through a global function's parameter: @g returns its
 * parameter in a tuple, and the zero it is called with multiplies NaNs
 * once tosa-inline has inlined it (the layer_norm by zero gamma of an
 * mlir_fuzzer fork run); a nonzero argument is no fold site. */
static void zero_through_call(void) {
  static const char *const srcs[] = {
      "#[version = \"0.0.5\"]\n"
      "def @g(%p: float32) -> ((float32,), int32) { ((%p,), 0) }\n"
      "def @main(%x: Tensor[(3), float32]) {\n"
      "  let %s = Tensor[(3), float32]([nan, inf, -inf]);\n"
      "  let %t: (float32,) = @g(0f).0;\n"
      "  (multiply(%s, %t.0), add(%x, 1f))\n"
      "}\n",
      "#[version = \"0.0.5\"]\n"
      "def @g(%p: float32) -> ((float32,), int32) { ((%p,), 0) }\n"
      "def @main(%x: Tensor[(3), float32]) {\n"
      "  let %s = Tensor[(3), float32]([nan, inf, -inf]);\n"
      "  let %t: (float32,) = @g(2f).0;\n"
      "  (multiply(%s, %t.0), add(%x, 1f))\n"
      "}\n",
  };
  for (int k = 0; k < 2; k++) {
    Case c;
    CHECK(load(&c, srcs[k]));
    if (!c.want)
      continue;
    MltKnown pattern;
    EvValue *got = with(&c, c.want, 0, 0, 0);
    got = with(&c, got, 0, 1, 0);
    got = with(&c, got, 0, 2, 0);
    CHECK(cause(&c, got, &pattern) == (k ? MLT_KNOWN_NONE : MLT_KNOWN_FOLD_ZERO));
    CHECK(pattern == (k ? MLT_KNOWN_NONE : MLT_KNOWN_FOLD_ZERO));
    unload(&c);
  }
}

/* fold-zero through nn.pad: zeros cropped (pad_width [0, -1]) are zeros
 * whatever the pad value (NaN here); grown by one NaN they are not. */
static void zero_through_pad(void) {
  static const char *const widths[] = {"[[0, -1]]", "[[1, -1]]"};
  for (int k = 0; k < 2; k++) {
    char src[512];
    snprintf(src, sizeof src,
             "#[version = \"0.0.5\"]\n"
             "def @main(%%x: Tensor[(3), float32]) {\n"
             "  let %%s = Tensor[(1), float32]([inf]);\n"
             "  let %%p = nn.pad(Tensor[(2), float32]([0, 0]), divide(0f, 0f), pad_width=%s);\n"
             "  (multiply(%%s, %%p), add(%%x, 1f))\n"
             "}\n",
             widths[k]);
    Case c;
    CHECK(load(&c, src));
    if (!c.want)
      continue;
    MltKnown pattern;
    CHECK(cause(&c, with(&c, c.want, 0, 0, 0), &pattern) ==
          (k ? MLT_KNOWN_NONE : MLT_KNOWN_FOLD_ZERO));
    unload(&c);
  }
}

/* minmax-zero: -1 / minimum(-0, +0) is +inf in relayc (the minimum is
 * -0); arith-expand's select takes +0, so MLIR gives -inf. */
static void minmax_zero(void) {
  Case c;
  CHECK(load(&c, "#[version = \"0.0.5\"]\n"
                 "def @main(%x: Tensor[(3), float32]) {\n"
                 "  let %z = zeros(shape=[3], dtype=\"float32\");\n"
                 "  (divide(-1f, minimum(negative(%z), %z)), add(%x, 1f))\n"
                 "}\n"));
  if (!c.want)
    return;
  MltKnown pattern;
  EvValue *got = with(&c, c.want, 0, 0, -INFINITY);
  got = with(&c, got, 0, 1, -INFINITY);
  got = with(&c, got, 0, 2, -INFINITY);
  CHECK(cause(&c, got, &pattern) == MLT_KNOWN_MINMAX_ZERO);
  CHECK(pattern == MLT_KNOWN_MINMAX_ZERO);
  /* The cause, and a different miscompile beside it. */
  double x1 = ir_tensor_get_f64(c.want->tuple.fields[1]->tensor, 1);
  CHECK(cause(&c, with(&c, got, 1, 1, x1 + 1), &pattern) == MLT_KNOWN_NONE);
  /* A value at the site the expansion does not give. */
  CHECK(cause(&c, with(&c, got, 0, 1, 5), &pattern) == MLT_KNOWN_NONE);
  unload(&c);
}

/* A program without either pattern: no difference is known. */
static void no_pattern(void) {
  Case c;
  CHECK(load(&c, "#[version = \"0.0.5\"]\n"
                 "def @main(%x: Tensor[(3), float32]) {\n"
                 "  (add(%x, 1f), sum(%x))\n"
                 "}\n"));
  if (!c.want)
    return;
  MltKnown pattern;
  CHECK(cause(&c, with(&c, c.want, 1, 0, 0), &pattern) == MLT_KNOWN_NONE);
  CHECK(pattern == MLT_KNOWN_NONE);
  unload(&c);
}

/* inexact-int: exp(0) = 1 cast to an integer, beside exp(1) and %x's
 * cast; MLIR's exp(0) a little below 1 gives 0 there. */
static const char inexact_src[] =
    "#[version = \"0.0.5\"]\n"
    "def @main(%x: Tensor[(2), float32]) {\n"
    "  let %e = exp(Tensor[(2), float32]([1, 0]));\n"
    "  (cast(%e, dtype=\"int32\"), %e, cast(multiply(%x, 0.5f), dtype=\"int32\"))\n"
    "}\n";

static void inexact_int(void) {
  Case c;
  CHECK(load(&c, inexact_src));
  if (!c.want)
    return;
  MltKnown pattern;
  /* exp(0) = 1 truncated to 0: a value within the tolerance of relayc's
   * gives it, so the comparison cannot decide. */
  EvValue *got = with(&c, c.want, 0, 1, 0);
  CHECK(cause(&c, got, &pattern) == MLT_KNOWN_INEXACT_INT);
  CHECK(pattern == MLT_KNOWN_INEXACT_INT);
  /* exp(1) = 2.718 truncated to 3 or 1: no value within the tolerance
   * gives that. */
  CHECK(cause(&c, with(&c, c.want, 0, 0, 3), &pattern) == MLT_KNOWN_NONE);
  CHECK(cause(&c, with(&c, got, 0, 0, 1), &pattern) == MLT_KNOWN_NONE);
  /* exp(0) = 1 as 7: no rounding within the tolerance reaches it. */
  CHECK(cause(&c, with(&c, c.want, 0, 1, 7), &pattern) == MLT_KNOWN_NONE);
  /* The float beside it beyond the tolerance. */
  CHECK(cause(&c, with(&c, got, 1, 0, 2.7), &pattern) == MLT_KNOWN_NONE);
  unload(&c);
}

/* fold-zero with zeros on both sides: MLIR's x * 0 gives the right
 * operand, +0, where relayc's -0 * 0 is -0; rsqrt shows the sign. */
static const char both_src[] = "#[version = \"0.0.5\"]\n"
                               "def @main(%x: Tensor[(3), float32]) {\n"
                               "  (rsqrt(multiply(negative(0f), 0f)), add(%x, 1f))\n"
                               "}\n";

static void zero_times_zero(void) {
  Case c;
  CHECK(load(&c, both_src));
  if (!c.want)
    return;
  MltKnown pattern;
  EvValue *got = with(&c, c.want, 0, 0, INFINITY);
  CHECK(cause(&c, got, &pattern) == MLT_KNOWN_FOLD_ZERO);
  double x1 = ir_tensor_get_f64(c.want->tuple.fields[1]->tensor, 1);
  CHECK(cause(&c, with(&c, got, 1, 1, x1 + 1), &pattern) == MLT_KNOWN_NONE);
  unload(&c);
}

int main(void) {
  zero_times_zero();
  inexact_int();
  fold_zero();
  reduce_inf();
  zero_through_call();
  zero_through_pad();
  minmax_zero();
  no_pattern();
  return test_summary();
}
