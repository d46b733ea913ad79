/*
 * stats.c - `relaysmith stats`: decode many random byte strings (plus the
 * empty, all-zero and all-0xFF streams) and report
 *   - validity: ir_well_formed, the independent type checker
 *     (ty_check_module), and the interpreter (ok / inconclusive by fuel /
 *     error / invalid);
 *   - speed: programs per second for decoding, and for decoding plus type
 *     checking (one core; meaningful in a release build);
 *   - an operator histogram: how many registry operators appear, and for
 *     each the share of programs calling it;
 *   - a language-feature histogram (expression forms, type kinds,
 *     closures capturing variables, ref writes, nested patterns, graph
 *     bindings, globals, recursion) as % of programs;
 *   - distributions of program size, depth and largest tensor.
 * Exit status: 0 when every program is well formed, well typed and
 * evaluates without error or invalidity; 1 otherwise; 2 on bad usage.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "compiler/eval/eval.h"
#include "compiler/typing/typing.h"
#include "generator/analyse.h"
#include "tool.h"

static const char stats_help[] =
    "usage: relaysmith stats [--count N] [--seed N] [--policy NAME] [--max-len BYTES]\n"
    "                        [--no-eval] [--fuel N] [--show-failures K] [--save-failures DIR]\n"
    "\n"
    "Decode N random byte strings (default 10000) of random lengths in\n"
    "[0, BYTES] (default 4096), plus the empty, all-zero and all-0xFF streams,\n"
    "and report validity (well formed, type checked by ty_check_module,\n"
    "evaluated by the interpreter), programs per second, and operator,\n"
    "language-feature, size, depth and tensor-size histograms.\n"
    "\n"
    "  --count N            random byte strings\n"
    "  --seed N             seed of the random bytes (default 1)\n"
    "  --policy NAME        generation policy (default 'default')\n"
    "  --max-len BYTES      longest random byte string\n"
    "  --no-eval            skip the interpreter\n"
    "  --fuel N             interpreter fuel per program (default: the\n"
    "                       interpreter's, 1000000)\n"
    "  --show-failures K    print up to K failing programs to stderr (default 3)\n"
    "  --save-failures DIR  write each failing input to DIR/fail-<i>.bin\n"
    "  --mutations          measure the mutator instead (relaysmith stats\n"
    "                       --mutations --help)\n"
    "\n"
    "Exit status 0 when every program is well formed, well typed and\n"
    "evaluates without error; 1 otherwise.\n";

enum { NBUCKET = 8 };

/* A histogram over fixed bucket bounds plus running min/max/sum. */
typedef struct Dist {
  const char *name;
  int64_t bounds[NBUCKET]; /* bucket i holds values <= bounds[i] */
  int64_t counts[NBUCKET + 1];
  int64_t min, max, sum, n;
} Dist;

static void dist_add(Dist *d, int64_t v) {
  int i = 0;
  while (i < NBUCKET && d->bounds[i] && v > d->bounds[i])
    i++;
  if (i < NBUCKET && !d->bounds[i])
    i = NBUCKET;
  d->counts[i]++;
  if (d->n == 0 || v < d->min)
    d->min = v;
  if (d->n == 0 || v > d->max)
    d->max = v;
  d->sum += v;
  d->n++;
}

static void dist_print(const Dist *d) {
  printf("\n%s: min %lld, mean %.1f, max %lld\n", d->name, (long long)d->min,
         d->n ? (double)d->sum / (double)d->n : 0.0, (long long)d->max);
  int64_t lo = d->min < 0 ? d->min : 0;
  for (int i = 0; i <= NBUCKET; i++) {
    if (i < NBUCKET && !d->bounds[i])
      i = NBUCKET;
    int64_t hi = i < NBUCKET ? d->bounds[i] : d->max;
    if (d->counts[i]) {
      double pct = 100.0 * (double)d->counts[i] / (double)d->n;
      char range[64];
      snprintf(range, sizeof range, i < NBUCKET ? "%lld-%lld" : ">= %lld", (long long)lo,
               (long long)hi);
      printf("  %-14s %6.2f%%  ", range, pct);
      for (int k = 0; k < (int)(pct / 2); k++)
        putchar('#');
      putchar('\n');
    }
    if (i < NBUCKET)
      lo = d->bounds[i] + 1;
  }
}

typedef struct Stats {
  int64_t n, wf, typed;
  int64_t ev[4]; /* by EvStatus */
  double t_decode, t_check;
  int64_t op_progs[OP_COUNT], op_calls[OP_COUNT];
  int64_t feat[GFE_COUNT];
  Dist size, depth, numel, len;
} Stats;

typedef struct Opts {
  uint64_t count, seed, max_len, fuel, show;
  bool eval;
  const char *save;
  const GenPolicy *p;
} Opts;

/* Report a failing input: print the program, save the bytes. */
static void failure(const Opts *o, Stats *st, int64_t idx, const uint8_t *data, size_t n,
                    const Module *m, const char *what, const char *msg) {
  int64_t bad = st->n - st->typed + (st->ev[EV_ERROR] + st->ev[EV_INVALID]);
  if ((uint64_t)bad <= o->show) {
    char *text = ir_print_module(m);
    fprintf(stderr, "relaysmith stats: input %lld (%zu bytes): %s: %s\n%s\n", (long long)idx, n,
            what, msg, text);
    free(text);
  }
  if (o->save) {
    char path[4096];
    snprintf(path, sizeof path, "%s/fail-%lld.bin", o->save, (long long)idx);
    FILE *f = fopen(path, "wb");
    if (f) {
      fwrite(data, 1, n, f);
      fclose(f);
    }
  }
}

enum { BATCH = 256 };

/* One input of a batch and what became of it. */
typedef struct Item {
  const uint8_t *data;
  size_t n;
  int64_t idx;
  Module *m;
  bool typed;
  char err[256];
} Item;

/* Everything but the timed phases for one decoded input. */
static void after(const Opts *o, Stats *st, Item *it) {
  Module *m = it->m;
  st->n++;
  st->typed += it->typed;
  if (!it->typed)
    failure(o, st, it->idx, it->data, it->n, m, "type check", it->err);
  Diag d;
  diag_init(&d, NULL, NULL);
  if (ir_well_formed(m, &d))
    st->wf++;
  else
    failure(o, st, it->idx, it->data, it->n, m, "well-formedness", d.first);
  diag_free(&d);
  if (o->eval && it->typed) {
    EvLimits lim = ev_default_limits;
    lim.fuel = (int64_t)o->fuel;
    EvRun *r = ev_run_new(&lim);
    EvResult res = ev_run_main(r, m, (uint64_t)it->idx);
    st->ev[res.status]++;
    if (res.status == EV_ERROR || res.status == EV_INVALID)
      failure(o, st, it->idx, it->data, it->n, m, ev_status_name(res.status), res.msg);
    ev_run_free(r);
  }
  GenInfo in;
  gen_analyse(m, &in);
  for (int i = 0; i < GFE_COUNT; i++)
    st->feat[i] += in.has[i];
  for (int i = 0; i < OP_COUNT; i++) {
    st->op_progs[i] += in.op_calls[i] > 0;
    st->op_calls[i] += in.op_calls[i];
  }
  dist_add(&st->size, in.nodes);
  dist_add(&st->depth, in.depth);
  dist_add(&st->numel, in.max_numel);
  dist_add(&st->len, (int64_t)it->n);
  ir_module_free(m);
}

/* Decode a batch, then type check it, timing each phase as a whole (CPU
 * time of this thread, so other load on the machine does not count),
 * then check, evaluate and analyse each program. */
static void batch(const Opts *o, Stats *st, Item *items, int k) {
  double t0 = tool_cpu();
  for (int i = 0; i < k; i++)
    items[i].m = gen_decode(items[i].data, items[i].n, o->p, NULL);
  double t1 = tool_cpu();
  for (int i = 0; i < k; i++) {
    Diag d;
    diag_init(&d, NULL, NULL);
    items[i].typed = ty_check_module(items[i].m, &d);
    snprintf(items[i].err, sizeof items[i].err, "%s", d.first);
    diag_free(&d);
  }
  double t2 = tool_cpu();
  st->t_decode += t1 - t0;
  st->t_check += t2 - t1;
  for (int i = 0; i < k; i++)
    after(o, st, &items[i]);
}

static double pct(int64_t a, int64_t b) {
  return b ? 100.0 * (double)a / (double)b : 0.0;
}

/* Print everything gathered. */
static void report(const Opts *o, const Stats *st) {
  printf("relaysmith stats: policy %s, seed %llu, %lld programs (%llu random byte strings of "
         "0-%llu bytes, the empty, all-zero and all-0xFF streams)\n",
         o->p->name, (unsigned long long)o->seed, (long long)st->n, (unsigned long long)o->count,
         (unsigned long long)o->max_len);
  printf("\nvalidity\n");
  printf("  well formed   %10lld / %lld  %7.3f%%\n", (long long)st->wf, (long long)st->n,
         pct(st->wf, st->n));
  printf("  well typed    %10lld / %lld  %7.3f%%   (ty_check_module)\n", (long long)st->typed,
         (long long)st->n, pct(st->typed, st->n));
  if (o->eval) {
    int64_t ran = st->ev[0] + st->ev[1] + st->ev[2] + st->ev[3];
    printf("  evaluation    ok %lld (%.3f%%), inconclusive by fuel %lld (%.3f%%), error %lld, "
           "invalid %lld   (fuel %llu)\n",
           (long long)st->ev[EV_OK], pct(st->ev[EV_OK], ran), (long long)st->ev[EV_INCONCLUSIVE],
           pct(st->ev[EV_INCONCLUSIVE], ran), (long long)st->ev[EV_ERROR],
           (long long)st->ev[EV_INVALID], (unsigned long long)o->fuel);
  }
  printf("\nspeed (one core, CPU time of decoding and type checking only)\n");
  printf("  decode               %10.0f programs/s  (%.2f us each)\n",
         st->t_decode > 0 ? (double)st->n / st->t_decode : 0.0,
         st->n ? 1e6 * st->t_decode / (double)st->n : 0.0);
  double both = st->t_decode + st->t_check;
  printf("  decode + type check  %10.0f programs/s  (%.2f us each)\n",
         both > 0 ? (double)st->n / both : 0.0, st->n ? 1e6 * both / (double)st->n : 0.0);

  int seen = 0;
  for (int i = 0; i < OP_COUNT; i++)
    seen += st->op_progs[i] > 0;
  printf("\noperators: %d of %d registry operators appear\n", seen, OP_COUNT);
  printf("  %-22s %9s %10s\n", "operator", "programs", "calls");
  for (int i = 0; i < OP_COUNT; i++)
    printf("  %-22s %8.2f%% %10lld%s\n", ir_op_name((OpId)i), pct(st->op_progs[i], st->n),
           (long long)st->op_calls[i], st->op_progs[i] ? "" : "   <- never");

  printf("\nlanguage features (%% of programs)\n");
  for (int i = 0; i < GFE_COUNT; i++)
    printf("  %-34s %7.2f%%%s\n", gen_feat_names[i], pct(st->feat[i], st->n),
           i != GFE_UNUSED_LET && pct(st->feat[i], st->n) < 5.0 ? "   <- under 5%" : "");

  dist_print(&st->size);
  dist_print(&st->depth);
  dist_print(&st->numel);
  dist_print(&st->len);
}

int cmd_stats(int argc, char **argv) {
  for (int i = 0; i < argc; i++)
    if (!strcmp(argv[i], "--mutations"))
      return cmd_stats_mutations(argc, argv);
  Opts o = {.count = 10000, .seed = 1, .max_len = 4096, .show = 3, .eval = true};
  o.fuel = (uint64_t)ev_default_limits.fuel;
  const char *policy = "default";
  for (int i = 0; i < argc; i++) {
    const char *a = argv[i];
    if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
      fputs(stats_help, stdout);
      return 0;
    }
    const char *v = i + 1 < argc ? argv[i + 1] : NULL;
    uint64_t *num = !strcmp(a, "--count")           ? &o.count
                    : !strcmp(a, "--seed")          ? &o.seed
                    : !strcmp(a, "--max-len")       ? &o.max_len
                    : !strcmp(a, "--fuel")          ? &o.fuel
                    : !strcmp(a, "--show-failures") ? &o.show
                                                    : NULL;
    if (num) {
      if (!tool_parse_u64(v, num))
        return tool_usage_error("stats", "%s needs a number", a);
      i++;
    } else if (!strcmp(a, "--policy") || !strcmp(a, "--save-failures")) {
      if (!v)
        return tool_usage_error("stats", "%s needs a value", a);
      *(!strcmp(a, "--policy") ? &policy : &o.save) = v;
      i++;
    } else if (!strcmp(a, "--no-eval")) {
      o.eval = false;
    } else {
      return tool_usage_error("stats", "unknown argument '%s'", a);
    }
  }
  if (o.max_len > (1u << 24))
    return tool_usage_error("stats", "--max-len is at most %u", 1u << 24);
  if (!(o.p = tool_policy("stats", policy)))
    return 2;

  Stats st = {
      .size = {"program size (expression nodes)", {4, 9, 19, 29, 39, 59, 99, 0}},
      .depth = {"program depth", {2, 4, 6, 8, 10, 14, 20, 0}},
      .numel = {"largest tensor (elements)", {1, 4, 16, 64, 128, 256, 1024, 0}},
      .len = {"input length (bytes)", {0, 16, 64, 256, 1024, 2048, 4096, 0}},
  };
  uint8_t *buf = malloc((o.max_len + 1) * BATCH);
  Item items[BATCH];
  uint64_t s = o.seed;
  bool tty = isatty(2);
  double last = tool_now();
  int64_t total = (int64_t)o.count + 3;
  for (int64_t i = 0; i < total;) {
    int k = 0;
    for (; k < BATCH && i < total; k++, i++) {
      uint8_t *b = buf + (o.max_len + 1) * (size_t)k;
      size_t n;
      if (i < 3) {
        n = i == 0 ? 0 : o.max_len;
        memset(b, i == 2 ? 0xff : 0, n);
      } else {
        n = (size_t)(tool_rand(&s) % (o.max_len + 1));
        tool_fill(&s, b, n);
      }
      items[k] = (Item){.data = b, .n = n, .idx = i};
    }
    batch(&o, &st, items, k);
    double now = tool_now();
    if (now - last >= 1.0 || i == total) {
      fprintf(stderr, "%s%lld / %lld programs, %lld ill-typed%s", tty ? "\r" : "", (long long)i,
              (long long)total, (long long)(st.n - st.typed),
              tty ? (i == total ? "\n" : "") : "\n");
      last = now;
    }
  }
  free(buf);
  report(&o, &st);
  bool ok = st.wf == st.n && st.typed == st.n && st.ev[EV_ERROR] == 0 && st.ev[EV_INVALID] == 0;
  return ok ? 0 : 1;
}
