/*
 * stats.c - `relaysmith stats`: decode many random byte strings (plus the
 * empty, all-zero and all-0xFF streams) and report
 *   - validity: ir_well_formed, the independent type checker
 *     (ty_check_module), and the interpreter (ok / inconclusive by fuel /
 *     runtime error -- a match? with no matching clause, which the
 *     generator makes on purpose now and then -- / invalid);
 *   - degenerate results: how often @main's result carries little
 *     information (no element, all zero, one value repeated, every float
 *     NaN or infinite), which hides differences from the result oracle,
 *     and how often it holds a NaN or infinity or an integer near
 *     overflow;
 *   - speed: programs per second for decoding, decoding plus type
 *     checking, and those plus evaluating (one core; meaningful in a
 *     release build);
 *   - an operator histogram: how many registry operators appear, and for
 *     each the share of programs calling it;
 *   - a language-feature histogram (expression forms, type kinds,
 *     closures capturing variables, ref writes, nested patterns, graph
 *     bindings, globals, recursion) as % of programs;
 *   - distributions of program size, depth and largest tensor.
 * Exit status: 0 when every program is well formed, well typed and
 * evaluates without invalidity; 1 otherwise; 2 on bad usage.
 */
#include <math.h>
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
    "evaluated by the interpreter), how often results are degenerate (no\n"
    "element, all zero, constant, all NaN/inf), programs per second, and\n"
    "operator, language-feature, size, depth and tensor-size histograms.\n"
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
    "evaluates (to a value, an inconclusive run or a runtime error, never an\n"
    "invalid run); 1 otherwise.\n";

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

/* What @main's value says.  The first four are degenerate: a result
 * like that hides most differences a pass could make. */
typedef enum Degen {
  DG_EMPTY,          /* no tensor element (unit, closures, empty tensors) */
  DG_ZERO,           /* every element zero (or False) */
  DG_CONSTANT,       /* two elements or more, all the same bits, not zero */
  DG_NONFINITE,      /* float elements only, every one NaN or infinite */
  DG_SOME_NONFINITE, /* (not degenerate) some float element NaN or infinite */
  DG_INT_BIG,        /* (not degenerate) an integer element in the top quarter
                        of its dtype's range: a wrapped or saturated value */
  DG_COUNT
} Degen;

static const char *const degen_names[DG_COUNT] = {
    "no element",     "all zero",        "constant (2+ elements)",
    "all NaN or inf", "some NaN or inf", "an integer near overflow",
};

/* Element counts over a value's tensors. */
typedef struct Elems {
  int64_t n, zero, nonfinite, floats, big;
  bool varied;    /* two elements differ in their bits */
  uint64_t first; /* the first element's bits */
  long nodes;     /* values visited (bounded) */
} Elems;

static void elems_tensor(Elems *s, const Tensor *t) {
  int size = ir_dtype_size(t->dtype);
  bool fl = ir_dtype_is_float(t->dtype);
  for (int64_t i = 0; i < t->numel; i++) {
    uint64_t b = 0;
    memcpy(&b, (const char *)t->data + i * size, (size_t)size);
    if (s->n++ == 0)
      s->first = b;
    else if (b != s->first)
      s->varied = true;
    if (fl) {
      double x = ir_tensor_get_f64(t, i);
      s->floats++;
      s->zero += x == 0;
      s->nonfinite += !isfinite(x);
    } else {
      int64_t v = ir_tensor_get_i64(t, i);
      s->zero += v == 0;
      int64_t quarter = (int64_t)1 << (8 * size - 2);
      s->big += t->dtype != DT_BOOL && (v >= quarter || v <= -quarter);
    }
  }
}

/* Count the elements of v's tensors (closures have none). */
static void elems_value(Elems *s, const EvValue *v, int depth) {
  for (; v && depth < 64 && s->nodes++ < 100000; depth++) {
    switch (v->kind) {
    case VAL_TENSOR: elems_tensor(s, v->tensor); return;
    case VAL_CLOSURE: return;
    case VAL_REF: v = v->ref.contents; continue;
    case VAL_TUPLE:
      for (int i = 0; i < v->tuple.n; i++)
        elems_value(s, v->tuple.fields[i], depth + 1);
      return;
    case VAL_ADT:
      for (int i = 0; i < v->adt.n; i++)
        elems_value(s, v->adt.fields[i], depth + 1);
      return;
    }
  }
}

/* Which of the Degen properties v has (a bit per Degen). */
static unsigned degen_of(const EvValue *v) {
  Elems s = {0};
  elems_value(&s, v, 0);
  unsigned d = 0;
  if (s.n == 0)
    d |= 1u << DG_EMPTY;
  else if (s.zero == s.n)
    d |= 1u << DG_ZERO;
  else if (s.n > 1 && !s.varied)
    d |= 1u << DG_CONSTANT;
  if (s.n > 0 && s.floats == s.n && s.nonfinite == s.n)
    d |= 1u << DG_NONFINITE;
  if (s.nonfinite)
    d |= 1u << DG_SOME_NONFINITE;
  if (s.big)
    d |= 1u << DG_INT_BIG;
  return d;
}

enum {
  DG_DEGENERATE = (1u << DG_EMPTY) | (1u << DG_ZERO) | (1u << DG_CONSTANT) | (1u << DG_NONFINITE)
};

typedef struct Stats {
  int64_t n, wf, typed;
  int64_t ev[4]; /* by EvStatus */
  int64_t degen[DG_COUNT], degenerate;
  double t_decode, t_check, t_eval;
  int64_t op_progs[OP_COUNT], op_calls[OP_COUNT];
  int64_t feat[GFE_COUNT];
  int64_t dtype_progs[DT_COUNT]; /* programs mentioning each dtype */
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
  int64_t bad = st->n - st->typed + st->ev[EV_INVALID];
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
  EvRun *run; /* the interpreter's run on @main (NULL: not run) */
  EvResult res;
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
  if (it->run) {
    const EvResult *res = &it->res;
    st->ev[res->status]++;
    if (res->status == EV_INVALID)
      failure(o, st, it->idx, it->data, it->n, m, ev_status_name(res->status), res->msg);
    if (res->status == EV_OK) {
      unsigned d = degen_of(res->value);
      for (int k = 0; k < DG_COUNT; k++)
        st->degen[k] += d >> k & 1;
      st->degenerate += (d & DG_DEGENERATE) != 0;
    }
    ev_run_free(it->run);
  }
  GenInfo in;
  gen_analyse(m, &in);
  for (int i = 0; i < GFE_COUNT; i++)
    st->feat[i] += in.has[i];
  for (int i = 0; i < DT_COUNT; i++)
    st->dtype_progs[i] += in.dtypes >> i & 1;
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

/* Decode a batch, then type check it, then evaluate it, timing each
 * phase as a whole (CPU time of this thread, so other load on the machine
 * does not count), then check and analyse each program. */
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
  EvLimits lim = ev_default_limits;
  lim.fuel = (int64_t)o->fuel;
  for (int i = 0; i < k; i++) {
    items[i].run = o->eval && items[i].typed ? ev_run_new(&lim) : NULL;
    if (items[i].run)
      items[i].res = ev_run_main(items[i].run, items[i].m, (uint64_t)items[i].idx);
  }
  double t3 = tool_cpu();
  st->t_decode += t1 - t0;
  st->t_check += t2 - t1;
  st->t_eval += t3 - t2;
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
    printf("  evaluation    ok %lld (%.3f%%), inconclusive by fuel %lld (%.3f%%), runtime error "
           "%lld (%.3f%%), invalid %lld   (fuel %llu)\n",
           (long long)st->ev[EV_OK], pct(st->ev[EV_OK], ran), (long long)st->ev[EV_INCONCLUSIVE],
           pct(st->ev[EV_INCONCLUSIVE], ran), (long long)st->ev[EV_ERROR],
           pct(st->ev[EV_ERROR], ran), (long long)st->ev[EV_INVALID], (unsigned long long)o->fuel);
    int64_t ok = st->ev[EV_OK];
    printf("\nresults (%% of the %lld programs evaluating to a value)\n", (long long)ok);
    printf("  degenerate                %7.2f%%\n", pct(st->degenerate, ok));
    for (int k = 0; k < DG_COUNT; k++)
      printf("  %s%-24s %7.2f%%\n", k <= DG_NONFINITE ? "  " : "", degen_names[k],
             pct(st->degen[k], ok));
  }
  printf("\nspeed (one core, CPU time of decoding, type checking and evaluating only)\n");
  printf("  decode               %10.0f programs/s  (%.2f us each)\n",
         st->t_decode > 0 ? (double)st->n / st->t_decode : 0.0,
         st->n ? 1e6 * st->t_decode / (double)st->n : 0.0);
  double both = st->t_decode + st->t_check;
  printf("  decode + type check  %10.0f programs/s  (%.2f us each)\n",
         both > 0 ? (double)st->n / both : 0.0, st->n ? 1e6 * both / (double)st->n : 0.0);
  if (o->eval) {
    double all = both + st->t_eval;
    printf("  ... + evaluate       %10.0f programs/s  (%.2f us each)\n",
           all > 0 ? (double)st->n / all : 0.0, st->n ? 1e6 * all / (double)st->n : 0.0);
  }

  int seen = 0;
  for (int i = 0; i < OP_COUNT; i++)
    seen += st->op_progs[i] > 0;
  printf("\noperators: %d of %d registry operators appear\n", seen, OP_COUNT);
  printf("  %-22s %9s %10s\n", "operator", "programs", "calls");
  for (int i = 0; i < OP_COUNT; i++)
    printf("  %-22s %8.2f%% %10lld%s\n", ir_op_name((OpId)i), pct(st->op_progs[i], st->n),
           (long long)st->op_calls[i], st->op_progs[i] ? "" : "   <- never");

  printf("\ndtypes (%% of programs mentioning one in a type or a constant)\n");
  for (int i = 0; i < DT_COUNT; i++)
    printf("  %-22s %8.2f%%%s\n", ir_dtype_name((DType)i), pct(st->dtype_progs[i], st->n),
           pct(st->dtype_progs[i], st->n) < 0.5 ? "   <- under 0.5%" : "");

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
  bool ok = st.wf == st.n && st.typed == st.n && st.ev[EV_INVALID] == 0;
  return ok ? 0 : 1;
}
