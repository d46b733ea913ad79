/* The pass-directed policies (generator/simplify.c, fold.c, dead.c, cse.c,
 * inline.c, scopes.c) and the mix policy: each gives its pass work to do
 * far more often than the default policy does (the generated program
 * fails the pass's postcondition: there is something left to rewrite),
 * the mix policy decodes an input exactly as the policy its header
 * picks, and the inline policy exercises what only it makes (globals
 * marked Inline=1, polymorphic globals). */
#include <stdlib.h>

#include "compiler/passes/pass.h"
#include "compiler/typing/typing.h"
#include "generator/gen.h"
#include "test.h"

static uint64_t rng = 0x9e3779b97f4a7c15ull;

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

enum { INPUTS = 600 };

/* Percent of INPUTS random inputs whose program, decoded with p, fails
 * pass's postcondition. */
static int work_rate(const char *pass, const GenPolicy *p, uint64_t seed) {
  const PassInfo *info = pass_lookup(pass, strlen(pass));
  CHECK(info != NULL);
  rng = seed;
  int work = 0;
  for (int i = 0; i < INPUTS; i++) {
    size_t n = 16 + (size_t)(next() % 1024);
    uint8_t *b = random_bytes(n);
    Module *m = gen_decode(b, n, p, NULL);
    Diag d;
    diag_init(&d, NULL, NULL);
    CHECK(ty_check_module(m, &d));
    diag_reset(&d);
    work += !info->post(m, &d);
    diag_free(&d);
    ir_module_free(m);
    free(b);
  }
  return work * 100 / INPUTS;
}

/* Each pass policy gives its pass work in at least 40% of its programs,
 * and in 20 points more than the default policy does. */
static void test_work(void) {
  static const char *const pairs[][2] = {
      {"fold_constant", "fold"},     {"dead_code", "dead"}, {"eliminate_common_subexpr", "cse"},
      {"simplify_expr", "simplify"}, {"inline", "inline"},
  };
  for (size_t i = 0; i < sizeof pairs / sizeof *pairs; i++) {
    int base = work_rate(pairs[i][0], gen_policy_get("default"), 42 + i);
    int with = work_rate(pairs[i][0], gen_policy_get(pairs[i][1]), 42 + i);
    printf("%-26s default %3d%%, %-8s %3d%%\n", pairs[i][0], base, pairs[i][1], with);
    CHECK_MSG(with >= 40 && with >= base + 20, "%s: policy %s gives work in %d%% (default %d%%)",
              pairs[i][0], pairs[i][1], with, base);
  }
}

/* mix decodes like the policy byte 14's low nibble picks; 0 is default. */
static void test_mix(void) {
  const GenPolicy *mix = gen_policy_get("mix");
  CHECK(mix && mix->mix);
  for (int nib = 0; nib < 16; nib++) {
    uint8_t h[GEN_HEADER_BYTES] = {0};
    h[14] = (uint8_t)(0x30 | nib);
    const GenPolicy *p = gen_policy_pick(mix, h);
    CHECK(p && !p->mix);
    if (nib == 0)
      CHECK(p == gen_policy_get("default"));
    for (int k = 0; k < 20; k++) {
      size_t n = 16 + (size_t)(next() % 600);
      uint8_t *b = random_bytes(n);
      memcpy(b, h, GEN_HEADER_BYTES);
      Module *a = gen_decode(b, n, mix, NULL), *c = gen_decode(b, n, p, NULL);
      char *ta = ir_print_module(a), *tc = ir_print_module(c);
      CHECK_STR(ta, tc);
      free(ta);
      free(tc);
      ir_module_free(a);
      ir_module_free(c);
      free(b);
    }
  }
  /* Every policy of the mix is picked by some nibble. */
  for (int i = 0; mix->mix[i]; i++) {
    bool found = false;
    for (int nib = 0; nib < 16; nib++) {
      uint8_t h[GEN_HEADER_BYTES] = {0};
      h[14] = (uint8_t)nib;
      found |= gen_policy_pick(mix, h) == mix->mix[i];
    }
    CHECK_MSG(found, "%s is never picked", mix->mix[i]->name);
  }
  CHECK(gen_policy_pick(gen_policy_get("default"), (uint8_t[GEN_HEADER_BYTES]){0}) ==
        gen_policy_get("default"));
}

/* What only the inline policy makes: globals marked Inline=1 and
 * polymorphic globals (with type parameters), among them ones whose type
 * parameter only an ADT's argument reaches (%a: List[A]), each in some
 * programs. */
static void test_inline_makes(void) {
  const GenPolicy *p = gen_policy_get("inline");
  int marked = 0, poly = 0, adt = 0;
  rng = 7;
  for (int i = 0; i < 400; i++) {
    size_t n = 16 + (size_t)(next() % 1024);
    uint8_t *b = random_bytes(n);
    Module *m = gen_decode(b, n, p, NULL);
    bool mk = false, pl = false, ad = false;
    for (int k = 0; k < m->nfuncs; k++) {
      const Expr *f = m->funcs[k]->func;
      bool made = f && f->func.ntvars > 0 && m->funcs[k]->name[0] == 'f' && /* @f0, not prelude */
                  m->funcs[k]->name[1] >= '0' && m->funcs[k]->name[1] <= '9';
      mk |= m->funcs[k]->is_inline;
      pl |= made;
      ad |= made && f->func.nparams > 0 && f->func.params[0]->annot->kind == TY_ADT;
    }
    marked += mk;
    poly += pl;
    adt += ad;
    ir_module_free(m);
    free(b);
  }
  printf("inline policy: %d of 400 programs mark a global Inline=1, %d have a polymorphic one, %d "
         "one taking List[A]\n",
         marked, poly, adt);
  CHECK(marked >= 40 && poly >= 20 && adt >= 10);
}

int main(void) {
  test_work();
  test_mix();
  test_inline_makes();
  return test_summary();
}
