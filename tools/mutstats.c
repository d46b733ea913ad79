/*
 * mutstats.c - `relaysmith stats --mutations`: the locality of each kind
 * of mutation (mutators/mut.h).  For many inputs (random byte strings, or
 * the files of a corpus) and each kind, mutate once and report
 *   - how often the kind applies (returns an input) and how often the
 *     mutant is valid (well formed and type checked; must be always);
 *   - how often the mutant's program differs from its parent's at all
 *     (alpha-equivalence);
 *   - how often the program outside the mutated span is unchanged: the
 *     two programs with the span's expression cut out are alpha-equivalent;
 *   - how often the new span's length was measured exactly, the mean
 *     change in length, and the cost per call.
 * Exit status: 0 when every mutant is valid, 1 otherwise, 2 on bad usage.
 */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "compiler/typing/typing.h"
#include "mutators/mut.h"
#include "tool.h"

static const char help[] =
    "usage: relaysmith stats --mutations [--count N] [--seed N] [--policy NAME]\n"
    "                        [--max-len BYTES] [--max-size BYTES] [--corpus DIR]\n"
    "                        [--local N]\n"
    "\n"
    "Mutate N inputs (default 1000: random byte strings of random lengths in\n"
    "[0, BYTES], default 512, or the files of DIR) once with each kind of\n"
    "mutation, and report per kind: how often it applies, how often the\n"
    "mutant's program differs from its parent's, how often the program\n"
    "outside the mutated span is unchanged (alpha-equivalent with the span\n"
    "cut out of both), how often the new span's end was measured exactly, the\n"
    "mean change in length and the time per call.  'mixed' is the weighted\n"
    "choice the fuzzers make; 'cross' takes the previous input as the donor.\n"
    "\n"
    "  --count N        inputs (with --corpus: at most N files)\n"
    "  --seed N         seed of the inputs and the mutations (default 1)\n"
    "  --policy NAME    generation policy (default 'default')\n"
    "  --max-len BYTES  longest random input\n"
    "  --max-size BYTES max_size given to the mutator (default 4096)\n"
    "  --corpus DIR     mutate the files of DIR instead of random inputs\n"
    "  --local N        the local mutator: up to N more tries for a mutation\n"
    "                   that keeps the program outside its span (default 0)\n"
    "\n"
    "Exit status 0 when every mutant is well formed and well typed; 1 otherwise.\n";

enum { ROWS = MUT_KINDS + 1 }; /* the kinds, then the mix */

typedef struct Row {
  int64_t calls, applied, valid, differs, spans, outside, exact;
  int64_t dlen;
  double cpu;
} Row;

/* Whether data decodes to a well-formed, well-typed program. */
static bool valid(const GenPolicy *p, const uint8_t *data, size_t n) {
  Module *m = gen_decode(data, n, p, NULL);
  Diag d;
  diag_init(&d, NULL, NULL);
  bool ok = ir_well_formed(m, &d) && ty_check_module(m, &d);
  diag_free(&d);
  ir_module_free(m);
  return ok;
}

/* Mutate x (kind row, or the mix) and account for the result. */
static void one(const GenPolicy *p, int local, Row *r, int row, const uint8_t *x, size_t nx,
                const uint8_t *y, size_t ny, size_t max, uint64_t seed, uint8_t *out) {
  MutOptions o = {p, NULL, row < MUT_KINDS ? 1u << row : 0, local};
  MutInfo info;
  double t0 = tool_cpu();
  size_t n = row == MUT_CROSS ? mut_crossover(&o, x, nx, y, ny, out, max, seed, &info)
                              : mut_mutate(&o, x, nx, out, max, seed, &info);
  r->cpu += tool_cpu() - t0;
  r->calls++;
  if (n == 0)
    return;
  r->applied++;
  r->valid += valid(p, out, n);
  MutLocality loc = mut_locality(p, x, nx, out, n, &info);
  r->differs += loc.differs;
  if (info.span >= 0) {
    r->spans++;
    r->outside += loc.outside;
    r->exact += info.exact;
  }
  r->dlen += (int64_t)n - (int64_t)mut_trim(p, x, nx);
}

static double pct(int64_t a, int64_t b) {
  return b ? 100.0 * (double)a / (double)b : 0.0;
}

static void report(const Row *rows, const GenPolicy *p, uint64_t n, const char *corpus) {
  printf("relaysmith stats --mutations: policy %s, %llu inputs (%s)\n\n", p->name,
         (unsigned long long)n, corpus ? corpus : "random byte strings");
  printf("%-8s %8s %8s %8s %9s %18s %8s %9s %9s\n", "kind", "calls", "applied", "valid", "differs",
         "outside unchanged", "exact", "mean dlen", "us/call");
  for (int k = 0; k < ROWS; k++) {
    const Row *r = &rows[k];
    char outside[32] = "-", exact[32] = "-";
    if (r->spans) {
      snprintf(outside, sizeof outside, "%.1f%%", pct(r->outside, r->spans));
      snprintf(exact, sizeof exact, "%.1f%%", pct(r->exact, r->spans));
    }
    printf("%-8s %8lld %7.1f%% %7.1f%% %8.1f%% %18s %8s %9.1f %9.1f\n",
           k < MUT_KINDS ? mut_kind_names[k] : "mixed", (long long)r->calls,
           pct(r->applied, r->calls), pct(r->valid, r->applied), pct(r->differs, r->applied),
           outside, exact, r->applied ? (double)r->dlen / (double)r->applied : 0.0,
           r->calls ? 1e6 * r->cpu / (double)r->calls : 0.0);
  }
  printf("\n(applied: %% of calls; valid, differs: %% of applied; outside unchanged, exact: %%\n"
         "of applied mutations of a span; header mutations have no span)\n");
}

/* The regular files of dir, sorted, at most max. */
static int list_files(const char *dir, char ***out, uint64_t max) {
  DIR *d = opendir(dir);
  if (!d)
    return -1;
  int n = 0, cap = 0;
  char **v = NULL;
  for (struct dirent *e; (e = readdir(d)) && (uint64_t)n < max;) {
    if (e->d_name[0] == '.')
      continue;
    if (n == cap)
      v = realloc(v, sizeof *v * (size_t)(cap = cap ? 2 * cap : 64));
    size_t len = strlen(dir) + strlen(e->d_name) + 2;
    v[n] = malloc(len);
    snprintf(v[n++], len, "%s/%s", dir, e->d_name);
  }
  closedir(d);
  *out = v;
  return n;
}

int cmd_stats_mutations(int argc, char **argv) {
  uint64_t count = 1000, seed = 1, max_len = 512, max_size = 4096, local = 0;
  const char *policy = "default", *corpus = NULL;
  for (int i = 0; i < argc; i++) {
    const char *a = argv[i];
    if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
      fputs(help, stdout);
      return 0;
    }
    if (!strcmp(a, "--mutations"))
      continue;
    const char *v = i + 1 < argc ? argv[i + 1] : NULL;
    uint64_t *num = !strcmp(a, "--count")      ? &count
                    : !strcmp(a, "--seed")     ? &seed
                    : !strcmp(a, "--max-len")  ? &max_len
                    : !strcmp(a, "--max-size") ? &max_size
                    : !strcmp(a, "--local")    ? &local
                                               : NULL;
    if (num) {
      if (!tool_parse_u64(v, num))
        return tool_usage_error("stats", "%s needs a number", a);
      i++;
    } else if (!strcmp(a, "--policy") || !strcmp(a, "--corpus")) {
      if (!v)
        return tool_usage_error("stats", "%s needs a value", a);
      *(!strcmp(a, "--policy") ? &policy : &corpus) = v;
      i++;
    } else {
      return tool_usage_error("stats", "unknown argument '%s' (with --mutations)", a);
    }
  }
  if (max_len > (1u << 20) || max_size == 0 || max_size > (1u << 20) || local > 64)
    return tool_usage_error("stats", "--max-len and --max-size are 1..%u, --local 0..64", 1u << 20);
  const GenPolicy *p = tool_policy("stats", policy);
  if (!p)
    return 2;
  char **files = NULL;
  int nfiles = 0;
  if (corpus) {
    nfiles = list_files(corpus, &files, count);
    if (nfiles <= 0)
      return tool_usage_error("stats", "no files in '%s'", corpus);
    count = (uint64_t)nfiles;
  }
  Row rows[ROWS] = {{0}};
  uint8_t *out = malloc(max_size);
  uint8_t *prev = NULL, *x = NULL;
  size_t nprev = 0, nx = 0;
  uint64_t s = seed;
  for (uint64_t i = 0; i < count; i++) {
    if (corpus) {
      x = tool_read_file(files[i], &nx);
      if (!x)
        continue;
    } else {
      nx = (size_t)(tool_rand(&s) % (max_len + 1));
      x = malloc(nx ? nx : 1);
      tool_fill(&s, x, nx);
    }
    for (int k = 0; k < ROWS; k++)
      if (k != MUT_CROSS || prev)
        one(p, (int)local, &rows[k], k, x, nx, prev, nprev, max_size, tool_rand(&s), out);
    free(prev);
    prev = x;
    nprev = nx;
  }
  free(prev);
  free(out);
  for (int i = 0; i < nfiles; i++)
    free(files[i]);
  free(files);
  report(rows, p, count, corpus);
  bool ok = true;
  for (int k = 0; k < ROWS; k++)
    ok &= rows[k].valid == rows[k].applied;
  return ok ? 0 : 1;
}
