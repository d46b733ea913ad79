/*
 * bench.c - `relaysmith bench`: the decoder's and the type checker's
 * throughput on a fixed set of random inputs.
 *
 * The inputs are made once from the seed (random lengths in [0, BYTES],
 * the same distribution `relaysmith stats` draws), then every repetition
 * runs two timed loops over all of them:
 *   decode         gen_decode + ir_module_free
 *   decode + check gen_decode + ty_check_module + ir_module_free
 * timed in CPU seconds of this thread, so other load on the machine
 * counts as little as it can.  Each repetition's figures are printed, then
 * the best and the median.  --checksum also prints a hash of every
 * decoded program's text (outside the timed loops), so a speed-up can be
 * shown not to change what the generator produces.
 * Meaningful in a release build (cmake --preset release; scripts/bench).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "compiler/ir/hash.h"
#include "compiler/typing/typing.h"
#include "tool.h"

static const char bench_help[] =
    "usage: relaysmith bench [--count N] [--seed N] [--policy NAME] [--max-len BYTES]\n"
    "                        [--reps R] [--checksum]\n"
    "\n"
    "Time decoding, and decoding plus type checking, of N random byte strings\n"
    "(default 10000) of random lengths in [0, BYTES] (default 4096), R times\n"
    "(default 5); print programs per second for each repetition, the best and\n"
    "the median, and the average program size.\n"
    "\n"
    "  --count N       random byte strings\n"
    "  --seed N        seed of the random bytes (default 1)\n"
    "  --policy NAME   generation policy (default 'default')\n"
    "  --max-len BYTES longest random byte string\n"
    "  --reps R        repetitions\n"
    "  --checksum      also print FNV-1a 64 hashes of all decoded programs' text\n"
    "                  and of the types the checker infers for their nodes\n"
    "                  (not timed), to show a speed-up changes neither\n";

/* The fixed inputs: one buffer, with offsets. */
typedef struct Inputs {
  uint8_t *bytes;
  size_t *off, *len;
  size_t n;
} Inputs;

/* Make n inputs of random lengths in [0, max_len] from seed, drawn as
 * `relaysmith stats` draws its random ones (a length, then the bytes). */
static void make_inputs(Inputs *in, size_t n, uint64_t seed, size_t max_len) {
  uint64_t s = seed;
  size_t cap = 1 << 16, total = 0;
  in->n = n;
  in->off = malloc(sizeof *in->off * n);
  in->len = malloc(sizeof *in->len * n);
  in->bytes = malloc(cap);
  for (size_t i = 0; i < n; i++) {
    size_t k = (size_t)(tool_rand(&s) % (max_len + 1));
    while (total + k > cap)
      in->bytes = realloc(in->bytes, cap *= 2);
    tool_fill(&s, in->bytes + total, k);
    in->off[i] = total;
    in->len[i] = k;
    total += k;
  }
}

static void free_inputs(Inputs *in) {
  free(in->bytes);
  free(in->off);
  free(in->len);
}

/* One timed loop over all inputs; returns CPU seconds, or -1 when some
 * program fails to type check (a generator bug). */
static double run(const Inputs *in, const GenPolicy *p, bool check) {
  double t0 = tool_cpu();
  for (size_t i = 0; i < in->n; i++) {
    Module *m = gen_decode(in->bytes + in->off[i], in->len[i], p, NULL);
    if (check) {
      Diag d;
      diag_init(&d, NULL, NULL);
      bool ok = ty_check_module(m, &d);
      diag_free(&d);
      if (!ok) {
        fprintf(stderr, "relaysmith bench: input %zu does not type check\n", i);
        ir_module_free(m);
        return -1;
      }
    }
    ir_module_free(m);
  }
  return tool_cpu() - t0;
}

/* Mix the bytes of s into the FNV-1a 64 hash h, then a separator. */
static uint64_t fnv(uint64_t h, const char *s) {
  return hash_fnv1a(hash_fnv1a_str(h, s), "\xff", 1);
}

/* Hash the printed inferred type of e and of every node below it. */
static void hash_types(Expr **slot, void *ctx) {
  uint64_t *h = ctx;
  char *t = (*slot)->type ? ir_print_type((*slot)->type) : NULL;
  *h = fnv(*h, t ? t : "-");
  free(t);
  ir_expr_children(*slot, hash_types, ctx);
}

/* Average expression nodes per program; with sums, the checksums of the
 * programs' text and of the types the checker infers for every node. */
static double measure(const Inputs *in, const GenPolicy *p, uint64_t *sums) {
  int64_t nodes = 0;
  uint64_t h = HASH_FNV_BASIS, ht = h;
  for (size_t i = 0; i < in->n; i++) {
    Module *m = gen_decode(in->bytes + in->off[i], in->len[i], p, NULL);
    nodes += ir_module_count(m);
    if (sums) {
      char *text = ir_print_module(m);
      h = fnv(h, text);
      free(text);
      Diag d;
      diag_init(&d, NULL, NULL);
      ht = fnv(ht, ty_check_module(m, &d) ? "ok" : d.first);
      diag_free(&d);
      for (int k = 0; k < m->nfuncs; k++)
        if (m->funcs[k]->func)
          hash_types(&m->funcs[k]->func, &ht);
    }
    ir_module_free(m);
  }
  if (sums)
    sums[0] = h, sums[1] = ht;
  return in->n ? (double)nodes / (double)in->n : 0.0;
}

static int cmp_double(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return x < y ? -1 : x > y;
}

/* The median of v[0..n) (sorts v). */
static double median(double *v, int n) {
  qsort(v, (size_t)n, sizeof *v, cmp_double);
  return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

int cmd_bench(int argc, char **argv) {
  uint64_t count = 10000, seed = 1, max_len = 4096, reps = 5;
  bool checksum = false;
  const char *policy = "default";
  for (int i = 0; i < argc; i++) {
    const char *a = argv[i];
    if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
      fputs(bench_help, stdout);
      return 0;
    }
    const char *v = i + 1 < argc ? argv[i + 1] : NULL;
    uint64_t *num = !strcmp(a, "--count")     ? &count
                    : !strcmp(a, "--seed")    ? &seed
                    : !strcmp(a, "--max-len") ? &max_len
                    : !strcmp(a, "--reps")    ? &reps
                                              : NULL;
    if (num) {
      if (!tool_parse_u64(v, num))
        return tool_usage_error("bench", "%s needs a number", a);
      i++;
    } else if (!strcmp(a, "--policy")) {
      if (!v)
        return tool_usage_error("bench", "--policy needs a value");
      policy = v;
      i++;
    } else if (!strcmp(a, "--checksum")) {
      checksum = true;
    } else {
      return tool_usage_error("bench", "unknown argument '%s'", a);
    }
  }
  if (max_len > (1u << 20))
    return tool_usage_error("bench", "--max-len is at most %u", 1u << 20);
  if (count == 0 || count > 10000000)
    return tool_usage_error("bench", "--count must be in 1..10000000");
  if (reps == 0 || reps > 1000)
    return tool_usage_error("bench", "--reps must be in 1..1000");
  const GenPolicy *p = tool_policy("bench", policy);
  if (!p)
    return 2;

  Inputs in;
  make_inputs(&in, (size_t)count, seed, (size_t)max_len);
  uint64_t sums[2];
  double size = measure(&in, p, checksum ? sums : NULL);
  printf("relaysmith bench: policy %s, seed %llu, %llu inputs of 0-%llu bytes, "
         "%.1f expression nodes per program on average\n",
         p->name, (unsigned long long)seed, (unsigned long long)count, (unsigned long long)max_len,
         size);
  if (checksum)
    printf("checksums: programs' text %016llx, inferred types %016llx\n",
           (unsigned long long)sums[0], (unsigned long long)sums[1]);
  printf("%-6s %16s %22s\n", "rep", "decode/s", "decode+check/s");
  double dec[1000], both[1000];
  double n = (double)count;
  for (int r = 0; r < (int)reps; r++) {
    double td = run(&in, p, false);
    double tb = run(&in, p, true);
    if (tb < 0) {
      free_inputs(&in);
      return 1;
    }
    dec[r] = td > 0 ? n / td : 0;
    both[r] = tb > 0 ? n / tb : 0;
    printf("%-6d %16.0f %22.0f\n", r + 1, dec[r], both[r]);
    fflush(stdout);
  }
  double best_d = 0, best_b = 0;
  for (int r = 0; r < (int)reps; r++) {
    best_d = dec[r] > best_d ? dec[r] : best_d;
    best_b = both[r] > best_b ? both[r] : best_b;
  }
  double med_d = median(dec, (int)reps), med_b = median(both, (int)reps);
  printf("%-6s %16.0f %22.0f\n", "best", best_d, best_b);
  printf("%-6s %16.0f %22.0f\n", "median", med_d, med_b);
  printf("per program: decode %.2f us, type check %.2f us (medians)\n", 1e6 / med_d,
         1e6 / med_b - 1e6 / med_d);
  free_inputs(&in);
  return 0;
}
