/* The structure-aware mutator (mutators/mut.h): every output of every kind
 * decodes to a well-formed, well-typed program, fits max_size, and depends
 * only on (input, max_size, seed); each kind does what it says on inputs
 * where the answer is known; the bytes outside a span stay in place. */
#include "compiler/ir/hash.h"
#include "compiler/typing/typing.h"
#include "mutators/mut.h"
#include "test.h"

static const GenPolicy *policy;

static uint64_t rng = 12345;

static uint64_t next(void) {
  return hash_splitmix64(&rng);
}

/* Whether data decodes to a well-formed, type-checked module. */
static bool valid(const uint8_t *data, size_t n, const GenPolicy *p) {
  Module *m = gen_decode(data, n, p, NULL);
  Diag d;
  diag_init(&d, NULL, NULL);
  bool ok = ir_well_formed(m, &d) && ty_check_module(m, &d);
  if (!ok)
    fprintf(stderr, "invalid mutant: %s\n", d.first);
  diag_free(&d);
  ir_module_free(m);
  return ok;
}

/* Whether two inputs decode to alpha-equivalent programs. */
static bool same_program(const uint8_t *a, size_t na, const uint8_t *b, size_t nb) {
  Module *ma = gen_decode(a, na, policy, NULL), *mb = gen_decode(b, nb, policy, NULL);
  bool eq = ir_module_alpha_equal(ma, mb);
  ir_module_free(ma);
  ir_module_free(mb);
  return eq;
}

enum { MAXN = 4096 };

/* The empty and all-zero inputs are already minimal: shrinking cannot
 * change them, and trimming removes every byte (a missing byte reads as
 * 0).  The fallback still returns a changed, one-byte input. */
static void test_minimal(void) {
  uint8_t zero[100] = {0}, out[MAXN];
  CHECK(mut_trim(policy, zero, sizeof zero) == 0);
  MutOptions shrink = {policy, NULL, 1u << MUT_SHRINK};
  for (uint64_t seed = 0; seed < 20; seed++) {
    CHECK(mut_mutate(&shrink, zero, sizeof zero, out, sizeof out, seed, NULL) == 0);
    CHECK(mut_mutate(&shrink, NULL, 0, out, sizeof out, seed, NULL) == 0);
  }
  MutOptions all = {policy};
  MutInfo info;
  size_t n = mut_mutate(&all, NULL, 0, out, 1, 7, &info);
  CHECK(n == 1 && out[0] != 0);
  /* With max_size 16 only the header fits: HEADER or the fallback. */
  for (uint64_t seed = 0; seed < 50; seed++) {
    n = mut_mutate(&all, zero, 16, out, 16, seed, &info);
    CHECK(n >= 1 && n <= 16 && info.kind == MUT_HEADER);
  }
}

/* Trimming keeps the program: the bytes after the decoder's last read,
 * and trailing zeros, do not matter. */
static void test_trim(void) {
  uint8_t buf[600];
  for (int k = 0; k < 200; k++) {
    size_t n = next() % sizeof buf;
    for (size_t i = 0; i < n; i++)
      buf[i] = (uint8_t)next();
    size_t t = mut_trim(policy, buf, n);
    CHECK(t <= n);
    CHECK(same_program(buf, n, buf, t));
  }
}

typedef struct Tally {
  int calls, ok, zero, unchanged, exact, outside, same;
} Tally;

static Tally tally[MUT_KINDS];

/* Check one mutation of parent: size, validity, determinism, and the
 * span bookkeeping of info against a decode of the mutant. */
static void check_one(const MutOptions *o, const uint8_t *p, size_t np, const uint8_t *q, size_t nq,
                      size_t max, uint64_t seed, uint8_t *out) {
  MutInfo info, info2;
  size_t n = q ? mut_crossover(o, p, np, q, nq, out, max, seed, &info)
               : mut_mutate(o, p, np, out, max, seed, &info);
  static uint8_t again[MAXN];
  size_t n2 = q ? mut_crossover(o, p, np, q, nq, again, max, seed, &info2)
                : mut_mutate(o, p, np, again, max, seed, &info2);
  CHECK(n == n2 && memcmp(out, again, n) == 0);
  if (n == 0) {
    CHECK(o->kinds != 0);
    if (o->kinds)
      tally[__builtin_ctz(o->kinds)].zero++;
    return;
  }
  CHECK(info.kind == info2.kind && info.span == info2.span && info.new_end == info2.new_end);
  Tally *t = &tally[info.kind];
  t->calls++;
  CHECK(n <= max);
  CHECK_MSG(valid(out, n, o->policy), "kind %s seed %llu", mut_kind_names[info.kind],
            (unsigned long long)seed);
  size_t canon = mut_trim(o->policy, p, np);
  if (n == canon && memcmp(out, p, n) == 0)
    t->unchanged++;
  t->ok++;
  if (info.span >= 0) {
    /* The mutant's span info.span is the new subtree: it starts where the
     * old one did and ends at new_end (both clipped to the mutant's
     * length: reads past the end do not advance). */
    GenSpans sp = {0};
    ir_module_free(gen_decode(out, n, o->policy, &sp));
    CHECK(info.span < sp.n);
    if (info.span < sp.n && info.exact) {
      size_t s = info.start < n ? info.start : n, e = info.new_end < n ? info.new_end : n;
      CHECK_MSG(sp.v[info.span].start == s && sp.v[info.span].end == e,
                "%s: span %d [%u, %u) want [%zu, %zu)", mut_kind_names[info.kind], info.span,
                sp.v[info.span].start, sp.v[info.span].end, s, e);
      t->exact++;
    }
    if (info.kind == MUT_WRAP && info.span < sp.n)
      CHECK(sp.v[info.span].form == GF_LET || sp.v[info.span].form == GF_IF);
    gen_spans_free(&sp);
    MutLocality loc = mut_locality(o->policy, p, np, out, n, &info);
    t->outside += loc.outside;
    t->same += !loc.differs;
  } else if (info.kind == MUT_HEADER && info.old_end == GEN_HEADER_BYTES) {
    /* Only header bytes changed. */
    size_t a = canon > GEN_HEADER_BYTES ? canon : GEN_HEADER_BYTES;
    size_t b = n > GEN_HEADER_BYTES ? n : GEN_HEADER_BYTES;
    CHECK(a == b || (n <= GEN_HEADER_BYTES && canon <= GEN_HEADER_BYTES));
    if (a == b && n > GEN_HEADER_BYTES)
      CHECK(memcmp(out + GEN_HEADER_BYTES, p + GEN_HEADER_BYTES, n - GEN_HEADER_BYTES) == 0);
  }
}

/* Random inputs, and chains of mutants of them (what a fuzzer's corpus
 * looks like), mutated with every kind and crossed over, many times. */
static void test_property(bool hook) {
  static uint8_t a[MAXN], b[MAXN], out[MAXN];
  size_t na = 0, nb = 0;
  MutOptions all = {policy};
  memset(tally, 0, sizeof tally);
  for (int round = 0; round < 40; round++) {
    na = next() % 400;
    for (size_t i = 0; i < na; i++)
      a[i] = (uint8_t)next();
    for (int step = 0; step < 25; step++) {
      size_t max = 16 + next() % (MAXN - 16);
      if (na > max)
        max = na;
      uint64_t seed = next();
      /* Every kind alone, then all kinds, then a crossover. */
      for (int k = 0; k < MUT_KINDS; k++) {
        MutOptions one = {policy, NULL, 1u << k};
        check_one(&one, a, na, k == MUT_CROSS ? b : NULL, nb, max, seed + (uint64_t)k, out);
      }
      check_one(&all, a, na, NULL, 0, max, seed, out);
      if (nb)
        check_one(&all, a, na, b, nb, max, seed, out);
      /* Walk on: b keeps an older input for crossover. */
      if (step % 5 == 0) {
        memcpy(b, a, na);
        nb = na;
      }
      size_t n = mut_mutate(&all, a, na, out, MAXN, seed ^ 1, NULL);
      CHECK(n > 0 && n <= MAXN);
      memcpy(a, out, n);
      na = n;
    }
  }
  printf("%-8s %7s %7s %7s %9s %7s %8s\n", "kind", "calls", "zero", "exact", "unchanged", "outside",
         "");
  for (int k = 0; k < MUT_KINDS; k++) {
    Tally *t = &tally[k];
    printf("%-8s %7d %7d %7d %9d %7d\n", mut_kind_names[k], t->calls, t->zero, t->exact,
           t->unchanged, t->outside);
    /* Every kind applies to most inputs and (bytes-wise) always changes
     * its input when it applies.  Under a policy with a hook (fusion),
     * nodes the hook takes over read its choices before any form, so
     * they cannot be wrapped. */
    CHECK_MSG(t->calls > 0 && (t->zero * 3 < t->calls + t->zero || (hook && k == MUT_WRAP)), "%s",
              mut_kind_names[k]);
    CHECK(t->unchanged == 0);
    /* A span mutation that keeps the subtree is retried, so the program
     * changes (up to the rare subtree that differs only in variable
     * numbering, which alpha-equivalence ignores, and leaf choices whose
     * other values give the same program: the narrow dtypes, bool, uint8
     * and float16's overflowing specials, have fewer values, and about 5%
     * of leaf mutations decode to the same program since the operators of
     * binary.c .. cumulative.c).  Leaf mutations of this walk gave 54 of
     * 1,132 before polymorphic globals over two type parameters, 62 of
     * 1,137 since (generator/poly.c), 74 of 1,139 since a new polymorphic
     * global is a mutually recursive pair three times in four (a skewed
     * draw: more of a leaf's other values give the same choice): at most
     * 1 in 14. */
    CHECK_MSG(k == MUT_HEADER || t->same * 14 <= t->calls, "%s: %d of %d the same program",
              mut_kind_names[k], t->same, t->calls);
  }
}

/* MutOptions.local: the mutants are still valid, and the program outside
 * the mutated span stays unchanged far more often than without it. */
static void test_local(void) {
  static uint8_t a[MAXN], out[MAXN];
  int outside[2] = {0, 0}, spans[2] = {0, 0};
  for (int round = 0; round < 300; round++) {
    size_t na = 16 + next() % 400;
    for (size_t i = 0; i < na; i++)
      a[i] = (uint8_t)next();
    uint64_t seed = next();
    for (int l = 0; l < 2; l++) {
      MutOptions o = {policy, NULL, 0, l ? 4 : 0};
      MutInfo info;
      size_t n = mut_mutate(&o, a, na, out, MAXN, seed, &info);
      CHECK(n > 0 && valid(out, n, policy));
      if (info.span < 0)
        continue;
      spans[l]++;
      outside[l] += mut_locality(policy, a, na, out, n, &info).outside;
    }
  }
  printf("outside unchanged: %d of %d span mutations, %d of %d with local = 4\n", outside[0],
         spans[0], outside[1], spans[1]);
  CHECK(outside[1] * spans[0] > outside[0] * spans[1] + spans[0] * spans[1] / 4);
}

int main(void) {
  policy = gen_policy_get("default");
  test_minimal();
  test_trim();
  test_local();
  test_property(false);
  policy = gen_policy_get("fusion");
  test_property(true);
  return test_summary();
}
