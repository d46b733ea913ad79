/*
 * bench_runtime.c - mlir_bench: what one input costs in the MLIR runtime
 * (targets/mlir/session.h), per example of tests/mlir/examples, in the
 * build it is compiled in (the `mlir` preset is the fuzz target's).
 *
 *   mlir_bench [-n N] [-e NAME] [-m N [-x]] [-d DIR]
 *
 * For each example (or only NAME), N times: parse+verify, tosa-validate,
 * the full lowering as four stages (each followed by the verifier), the
 * same with the semantic observer on, legality, the JIT at opt 0 and at
 * opt 2, and the calls of @f.  It prints the mean of each in milliseconds
 * of CPU time, and what they add up to per input with and without
 * execution.  -m N instead parses and lowers N modules with fresh
 * constants (-x: and compiles and calls each) and prints the process's
 * RSS every N/10 inputs, for the context recycling interval.  -d names
 * the examples' directory (default tests/mlir/examples).  Timings are
 * printed, never checked.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "examples.h"
#include "targets/mlir/session.h"

/* MLS_FULL_PIPELINE as four stages. */
static const char *const stages[][2] = {
    {"tosa->linalg",
     "builtin.module(func.func(tosa-to-scf,tosa-optional-decompositions,tosa-infer-shapes,"
     "tosa-make-broadcastable,tosa-to-linalg-named,tosa-to-linalg,tosa-to-arith,tosa-to-tensor,"
     "convert-elementwise-to-linalg))"},
    {"linalg opts", "builtin.module(canonicalize,cse,func.func(linalg-fuse-elementwise-ops))"},
    {"bufferize",
     "builtin.module(one-shot-bufferize{bufferize-function-boundaries "
     "function-boundary-type-conversion=identity-layout-map},buffer-deallocation-pipeline,"
     "convert-bufferization-to-memref)"},
    {"->llvm",
     "builtin.module(convert-linalg-to-loops,expand-strided-metadata,lower-affine,"
     "convert-scf-to-cf,finalize-memref-to-llvm,convert-math-to-llvm,convert-arith-to-llvm,"
     "convert-cf-to-llvm,convert-func-to-llvm,reconcile-unrealized-casts)"},
};
enum { NSTAGES = 4 };

/* CPU time, not wall time: the machines this runs on are shared, and the
 * process is single-threaded (the context runs passes on one thread). */
static double now(void) {
  struct timespec t;
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
  return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

static long features;
static void count(void *ud, const MlsFeature *f) {
  (void)ud;
  (void)f;
  features++;
}

static void die(MlsSession *s, const char *what, const char *name) {
  fprintf(stderr, "mlir_bench: %s: %s failed:\n%s", name, what, mls_diag(s));
  exit(1);
}

/* Parse ex's module and lower it, adding each step's time to t[] (ms).
 * After each stage an empty stage runs too: with the observer on, nearly
 * all of its time is the observer's walk. */
enum { T_PARSE, T_VALIDATE, T_STAGE, T_VERIFY = T_STAGE + NSTAGES, T_LEGAL, T_EMPTY, T_N };

static MlsModule *lower(MlsSession *s, const Example *ex, double *t) {
  double t0 = now();
  MlsModule *m = mls_parse(s, ex->mlir);
  if (!m)
    die(s, "parse", ex->name);
  double t1 = now();
  if (!mls_validate(s, m))
    die(s, "validate", ex->name);
  double t2 = now();
  t[T_PARSE] += (t1 - t0) * 1e3;
  t[T_VALIDATE] += (t2 - t1) * 1e3;
  if (!mls_entry(s, m, "f"))
    die(s, "entry", ex->name);
  for (int i = 0; i < NSTAGES; i++) {
    double a = now();
    if (mls_run(s, m, stages[i][1]) != MLS_OK)
      die(s, stages[i][0], ex->name);
    double b = now();
    if (!mls_verify(s, m))
      die(s, "verify", ex->name);
    double c = now();
    long seen = features;
    if (mls_run(s, m, "builtin.module()") != MLS_OK)
      die(s, "empty stage", ex->name);
    features = seen;
    t[T_STAGE + i] += (b - a) * 1e3;
    t[T_VERIFY] += (c - b) * 1e3;
    t[T_EMPTY] += (now() - c) * 1e3;
  }
  double a = now();
  if (!mls_legal(s, m))
    die(s, "legality", ex->name);
  t[T_LEGAL] += (now() - a) * 1e3;
  return m;
}

static void bench(MlsSession *s, const Example *ex, int n) {
  double t[T_N] = {0}, tobs[T_N] = {0}, jit[2] = {0}, call = 0;
  long nfeat = 0;
  for (int it = 0; it < n; it++) {
    for (int k = 0; k < 2; k++) { /* with and without the observer, in turns */
      bool on = (k + it) % 2;
      mls_observe(s, on ? count : NULL, NULL);
      features = 0;
      mls_module_free(lower(s, ex, on ? tobs : t));
      nfeat += features;
    }
    mls_observe(s, NULL, NULL);
    for (int o = 0; o < 2; o++) { /* the JIT at opt 0 and 2; the calls at opt 0 */
      MlsModule *m = lower(s, ex, (double[T_N]){0});
      double a = now();
      MlsJit *j = mls_jit(s, m, o ? 2 : 0);
      if (!j)
        die(s, "jit", ex->name);
      jit[o] += (now() - a) * 1e3;
      mls_module_free(m);
      a = now();
      for (int c = 0; c < ex->ncalls; c++) {
        Arena *ar = arena_new();
        Tensor **res;
        if (mls_call(s, j, ex->nargs, ex->args[c], ar, &res) != MLS_CALL_OK)
          die(s, "call", ex->name);
        arena_free(ar);
      }
      if (o == 0)
        call += (now() - a) * 1e3 / ex->ncalls;
      mls_jit_free(j);
    }
  }
  for (int i = 0; i < T_N; i++)
    t[i] /= n, tobs[i] /= n;
  double stages_ms = 0;
  for (int i = 0; i < NSTAGES; i++)
    stages_ms += t[T_STAGE + i];
  double walk = tobs[T_EMPTY] - t[T_EMPTY];
  double compile = t[T_PARSE] + t[T_VALIDATE] + stages_ms + t[T_VERIFY] + t[T_LEGAL];
  double run = compile + jit[0] / n + call / n;
  printf("%-10s parse+verify %5.2f  validate %5.2f  stages", ex->name, t[T_PARSE], t[T_VALIDATE]);
  for (int i = 0; i < NSTAGES; i++)
    printf(" %5.2f", t[T_STAGE + i]);
  printf(" (sum %5.2f)  verify %5.2f  legal %4.2f\n", stages_ms, t[T_VERIFY], t[T_LEGAL]);
  printf("%-10s observer: %ld features, walks %.2f ms (%.0f%% of the stages)\n", "", nfeat / n,
         walk, 100 * walk / stages_ms);
  printf("%-10s jit opt0 %5.2f  opt2 %6.2f  call %6.3f\n", "", jit[0] / n, jit[1] / n, call / n);
  printf("%-10s per input: without execution %5.2f ms (%5.1f/s), with jit opt0 + call %5.2f ms "
         "(%5.1f/s)\n",
         "", compile, 1e3 / compile, run, 1e3 / run);
}

static long rss_kb(void) {
  FILE *f = fopen("/proc/self/statm", "r");
  long pages = 0, rss = 0;
  if (f && fscanf(f, "%ld %ld", &pages, &rss) != 2)
    rss = 0;
  if (f)
    fclose(f);
  return rss * 4;
}

/* ex plus a function returning 64 fresh float constants, n times, with
 * the full lowering (and the JIT and a call when exec): the growth of a
 * context that is never recycled. */
static void memory(const Example *ex, int n, bool exec) {
  MlsSession *s = mls_session_new(0);
  size_t cap = strlen(ex->mlir) + 4096;
  char *text = malloc(cap);
  unsigned r = 1;
  long rss0 = 0;
  for (int i = 0; i <= n; i++) {
    int k = snprintf(text, cap,
                     "%s\nfunc.func @g() -> tensor<64xf32> {\n  %%c = \"tosa.const\"() <{values = "
                     "dense<[",
                     ex->mlir);
    for (int e = 0; e < 64; e++) {
      r = r * 1103515245u + 12345u;
      k += snprintf(text + k, cap - (size_t)k, "%s%u.5", e ? ", " : "", r >> 8);
    }
    snprintf(text + k, cap - (size_t)k,
             "]> : tensor<64xf32>}> : () -> tensor<64xf32>\n  return %%c : tensor<64xf32>\n}\n");
    MlsModule *m = mls_parse(s, text);
    if (!m || !mls_entry(s, m, "f") || mls_run(s, m, MLS_FULL_PIPELINE) != MLS_OK)
      die(s, "memory run", ex->name);
    MlsJit *j = exec ? mls_jit(s, m, 0) : NULL;
    mls_module_free(m);
    if (exec) {
      Arena *a = arena_new();
      Tensor **res;
      if (!j || mls_call(s, j, ex->nargs, ex->args[0], a, &res) != MLS_CALL_OK)
        die(s, "memory call", ex->name);
      arena_free(a);
      mls_jit_free(j);
    }
    if (i == n / 10)
      rss0 = rss_kb();
    if (i % (n / 10) == 0)
      printf("after %6d inputs: rss %6ld KB\n", i, rss_kb());
  }
  printf("growth: %.2f KB per input (from input %d on)\n", (double)(rss_kb() - rss0) / (n - n / 10),
         n / 10);
  free(text);
  mls_session_free(s);
}

/* Parse and lower ex n times in a session that recycles its context
 * every `recycle` parses; the mean per input in ms. */
static double per_input(const Example *ex, int n, int recycle) {
  MlsSession *s = mls_session_new(recycle);
  mls_module_free(mls_parse(s, ex->mlir)); /* the first context's dialects */
  double t0 = now();
  for (int i = 0; i < n; i++) {
    MlsModule *m = mls_parse(s, ex->mlir);
    if (!m || mls_run(s, m, MLS_FULL_PIPELINE) != MLS_OK)
      die(s, "recycle run", ex->name);
    mls_module_free(m);
  }
  double t = (now() - t0) * 1e3 / n;
  mls_session_free(s);
  return t;
}

int main(int argc, char **argv) {
  int n = 5, mem = 0;
  bool exec = false;
  const char *only = NULL, *dir = "tests/mlir/examples";
  for (int i = 1; i < argc; i++) {
    if (!strcmp(argv[i], "-n") && i + 1 < argc)
      n = atoi(argv[++i]);
    else if (!strcmp(argv[i], "-e") && i + 1 < argc)
      only = argv[++i];
    else if (!strcmp(argv[i], "-m") && i + 1 < argc)
      mem = atoi(argv[++i]);
    else if (!strcmp(argv[i], "-x"))
      exec = true;
    else if (!strcmp(argv[i], "-d") && i + 1 < argc)
      dir = argv[++i];
    else {
      fprintf(stderr, "usage: mlir_bench [-n N] [-e NAME] [-m N [-x]] [-d DIR]\n");
      return 2;
    }
  }
  if (n < 1 || (mem && mem < 10)) {
    fprintf(stderr, "mlir_bench: -n wants >= 1, -m >= 10\n");
    return 2;
  }
  double t0 = now();
  MlsSession *s = mls_session_new(0);
  printf("session: %.1f ms\n", (now() - t0) * 1e3);
  int done = 0;
  for (int i = 0; i < NEXAMPLES; i++) {
    if (only && strcmp(only, example_names[i]))
      continue;
    Example ex;
    if (!example_load(&ex, dir, example_names[i])) {
      example_free(&ex);
      return 1;
    }
    if (mem) {
      memory(&ex, mem, exec);
    } else {
      bench(s, &ex, n);
      double keep = per_input(&ex, n, 0), fresh = per_input(&ex, n, 1);
      printf("%-10s a fresh context per input: parse+lower %.2f ms instead of %.2f\n", "", fresh,
             keep);
    }
    example_free(&ex);
    done++;
  }
  mls_session_free(s);
  if (!done)
    fprintf(stderr, "mlir_bench: no example named %s\n", only);
  return done ? 0 : 1;
}
