/*
 * seeds.c - `relaysmith seeds`: choose a small seed corpus of byte files
 * that, together, use every language feature and every operator (and,
 * with a policy that breaks its programs, make every kind of defect of
 * generator/breaker.h).  It
 * decodes many random byte strings and picks greedily the one that adds
 * the most not-yet-covered items (ties: the shorter), until nothing more
 * can be added.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "generator/analyse.h"
#include "generator/breaker.h"
#include "tool.h"

static const char seeds_help[] =
    "usage: relaysmith seeds --out DIR [--count N] [--seed N] [--policy NAME] [--max-len B]\n"
    "\n"
    "Decodes N random byte strings (default 20000, lengths 0..B, default 800)\n"
    "and writes to DIR a small set of them that together use every language\n"
    "feature and every operator the policy can produce (greedy set cover);\n"
    "with --policy reject, also every kind of defect the break stage makes.\n";

enum { NITEMS = GFE_COUNT + OP_COUNT + GB_COUNT };

typedef struct Cand {
  uint8_t *data;
  size_t len;
  bool item[NITEMS];
} Cand;

/* The items input d (decoded as m under p) covers; m may be broken. */
static void items_of(Module *m, const uint8_t *d, size_t n, const GenPolicy *p, bool *item) {
  GenInfo info;
  gen_analyse(m, &info);
  for (int i = 0; i < GFE_COUNT; i++)
    item[i] = info.has[i] && i != GFE_UNUSED_LET;
  for (int i = 0; i < OP_COUNT; i++)
    item[GFE_COUNT + i] = info.op_calls[i] > 0;
  if (p->breaks) {
    GenBreak b;
    gen_break(m, d, n, p, &b);
    item[GFE_COUNT + OP_COUNT + b.kind] = true;
    gen_break_free(&b);
  }
}

static const char *item_name(int i) {
  if (i < GFE_COUNT)
    return gen_feat_names[i];
  if (i < GFE_COUNT + OP_COUNT)
    return ir_op_name((OpId)(i - GFE_COUNT));
  return gen_break_name((GenBreakKind)(i - GFE_COUNT - OP_COUNT));
}

int cmd_seeds(int argc, char **argv) {
  const char *out = NULL, *policy = "default";
  uint64_t count = 20000, seed = 1, max_len = 800;
  for (int i = 0; i < argc; i++) {
    const char *a = argv[i];
    if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
      fputs(seeds_help, stdout);
      return 0;
    }
    bool has = i + 1 < argc;
    if (!strcmp(a, "--out") && has)
      out = argv[++i];
    else if (!strcmp(a, "--policy") && has)
      policy = argv[++i];
    else if (!strcmp(a, "--count") && has) {
      if (!tool_parse_u64(argv[++i], &count) || count == 0)
        return tool_usage_error("seeds", "bad --count '%s'", argv[i]);
    } else if (!strcmp(a, "--seed") && has) {
      if (!tool_parse_u64(argv[++i], &seed))
        return tool_usage_error("seeds", "bad --seed '%s'", argv[i]);
    } else if (!strcmp(a, "--max-len") && has) {
      if (!tool_parse_u64(argv[++i], &max_len) || max_len > (1u << 20))
        return tool_usage_error("seeds", "bad --max-len '%s'", argv[i]);
    } else
      return tool_usage_error("seeds", "unknown or incomplete option '%s'", a);
  }
  if (!out)
    return tool_usage_error("seeds", "missing --out DIR");
  const GenPolicy *p = tool_policy("seeds", policy);
  if (!p)
    return 2;
  if (mkdir(out, 0777) != 0 && errno != EEXIST) {
    fprintf(stderr, "relaysmith seeds: cannot create %s: %s\n", out, strerror(errno));
    return 1;
  }
  Cand *c = calloc(count, sizeof *c);
  uint64_t rng = seed;
  for (uint64_t k = 0; k < count; k++) {
    c[k].len = (size_t)(tool_rand(&rng) % (max_len + 1));
    c[k].data = malloc(c[k].len ? c[k].len : 1);
    tool_fill(&rng, c[k].data, c[k].len);
    Module *m = gen_decode(c[k].data, c[k].len, p, NULL);
    items_of(m, c[k].data, c[k].len, p, c[k].item);
    ir_module_free(m);
    if (k % 2000 == 1999)
      fprintf(stderr, "\rrelaysmith seeds: decoded %llu/%llu", (unsigned long long)k + 1,
              (unsigned long long)count);
  }
  fprintf(stderr, "\n");
  bool covered[NITEMS] = {0};
  int chosen = 0, ncovered = 0;
  for (;;) {
    int64_t best = -1, best_gain = 0;
    for (uint64_t k = 0; k < count; k++) {
      int gain = 0;
      for (int i = 0; i < NITEMS; i++)
        gain += c[k].item[i] && !covered[i];
      if (gain > best_gain || (gain == best_gain && gain && c[k].len < c[best].len))
        best = (int64_t)k, best_gain = gain;
    }
    if (best < 0)
      break;
    for (int i = 0; i < NITEMS; i++)
      if (c[best].item[i] && !covered[i])
        covered[i] = true, ncovered++;
    char path[4096];
    snprintf(path, sizeof path, "%s/seed-%03d", out, chosen++);
    FILE *f = fopen(path, "wb");
    if (!f || fwrite(c[best].data, 1, c[best].len, f) != c[best].len) {
      fprintf(stderr, "relaysmith seeds: cannot write %s\n", path);
      return 1;
    }
    fclose(f);
  }
  int nitems = GFE_COUNT + OP_COUNT + (p->breaks ? GB_COUNT : 0);
  printf("relaysmith seeds: %d files cover %d of %d items (features + operators%s)\n", chosen,
         ncovered, nitems - 1, p->breaks ? " + defects" : "");
  for (int i = 0; i < nitems; i++)
    if (!covered[i] && i != GFE_UNUSED_LET)
      printf("  not covered: %s\n", item_name(i));
  for (uint64_t k = 0; k < count; k++)
    free(c[k].data);
  free(c);
  return 0;
}
