/*
 * mlir_check.c - the translator's correctness test through MLIR's command
 * line tools: each program is translated (targets/mlir/translate.c),
 * checked by mlir-opt-22 (parse, verify, tosa-validate), lowered to LLVM
 * with the full pipeline of docs/mlir.md and run by mlir-runner-22 with an
 * entry function that passes @main the inputs relayc's interpreter gets
 * (ev_make_args) and prints the results; those must equal the
 * interpreter's under the result oracle's rules (ev_compare_values: rtol
 * and atol 1e-4 for float32, NaN positions and infinity signs equal).
 *
 *   mlir_check [options] FILE.relay...   golden programs (text)
 *   mlir_check --random N [options]      N random byte strings decoded
 *                                        with the mlir policy
 *   mlir_check --count N [options]       translate only: how many of N
 *                                        random programs the translator
 *                                        takes; with --validate, also
 *                                        parse/verify/validate them all
 *                                        (mlir-opt --split-input-file)
 * Options: --seed S (inputs and streams), --seeds K (input seeds per
 * program, default 2), --policy NAME, --max-len BYTES (default 1024),
 * --pipeline P (lower with MLIR pass pipeline P instead of LOWER below),
 * --keep DIR (write every .mlir there), -v (print each program),
 * --dyn-params (dims of @main's parameters made `?` too: MltOptions),
 * --linalg (the linalg road, MltOptions.linalg: a program with an
 * operator the road lacks is counted as off the road, not skipped).
 * Every run prints how many translations have a dynamic dim.
 *
 * Exit status: 0 when every program translated, validated, ran and agreed;
 * 1 otherwise; 77 (ctest's skip) when mlir-opt-22 is not installed.
 */
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "compiler/eval/eval.h"
#include "compiler/typing/typing.h"
#include "generator/gen.h"
#include "targets/mlir/session.h"
#include "targets/mlir/translate.h"

#define LIB "/usr/lib/llvm-22/lib"
/* The validation and the full lowering of the runtime (session.h). */
#define VALIDATE MLS_VALIDATE_PIPELINE
#define LOWER MLS_FULL_PIPELINE

typedef struct Opts {
  uint64_t seed, count, max_len;
  int seeds;
  bool random, validate, verbose, dyn_params, linalg;
  const char *keep, *pipeline;
  const GenPolicy *policy;
} Opts;

/* What happened to the programs. */
typedef struct Tally {
  int programs, skipped, invalid, failed, compared, equal, different, known, uncomparable;
  int dynamic; /* translations with a `?` dim */
  int offroad; /* --linalg: programs with an operator the road lacks */
} Tally;

static char dir[256]; /* where the .mlir files go */

/* Run a shell command; its stdout (malloc'd) into *out when out is not
 * NULL; returns the exit status. */
static int run(const char *cmd, char **out) {
  FILE *p = popen(cmd, "r");
  if (!p)
    return -1;
  size_t n = 0, cap = 4096;
  char *buf = malloc(cap);
  for (size_t got; (got = fread(buf + n, 1, cap - n - 1, p)) > 0;)
    if ((n += got) + 1 == cap)
      buf = realloc(buf, cap *= 2);
  buf[n] = 0;
  int st = pclose(p);
  if (out)
    *out = buf;
  else
    free(buf);
  return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

static bool write_file(const char *path, const char *a, const char *b) {
  FILE *f = fopen(path, "w");
  if (!f)
    return false;
  fputs(a, f);
  if (b)
    fputs(b, f);
  return fclose(f) == 0;
}

/* Report a failing program: what, the relay text and the .mlir file. */
static void report(const Module *m, const char *name, const char *path, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  fprintf(stderr, "==mlir_check== %s: ", name);
  vfprintf(stderr, fmt, ap);
  fprintf(stderr, "\n");
  va_end(ap);
  char *text = ir_print_module(m);
  fprintf(stderr, "--- program:\n%s", text);
  if (path)
    fprintf(stderr, "--- mlir: %s\n", path);
  free(text);
}

/* ---------------------------------------------------------- checking */

/* m translated (with --dyn-params, @main's parameters made dynamic by a
 * seed drawn from the program's number), counting dynamic translations. */
static bool translate(const Opts *o, Module *m, Tally *t, MltResult *tr) {
  MltOptions mo = {.dyn_params = o->dyn_params ? o->seed * 1000003u + (uint64_t)t->programs : 0,
                   .linalg = o->linalg};
  bool ok = mlt_translate_with(m, &mo, tr);
  t->dynamic += ok && tr->ndyn > 0;
  return ok;
}

/* Whether a skip is the linalg road's own (an operator it lacks). */
static bool off_road(const Opts *o, const MltResult *tr) {
  return o->linalg && !strncmp(tr->skip, "the linalg road:", 16);
}

/* Translate, validate, run and compare one type-checked program. */
static void check(const Opts *o, Module *m, const char *name, Tally *t) {
  t->programs++;
  MltResult tr;
  if (!translate(o, m, t, &tr)) {
    if (off_road(o, &tr)) {
      t->offroad++;
      mlt_result_free(&tr);
      return;
    }
    t->skipped++;
    report(m, name, NULL, "translation skipped: %s", tr.skip);
    return;
  }
  char path[512], cmd[2048];
  snprintf(path, sizeof path, "%s/%s.mlir", dir, name);
  if (o->verbose)
    printf("--- %s\n%s", name, tr.text);
  char *err = NULL;
  snprintf(cmd, sizeof cmd, "mlir-opt-22 --pass-pipeline='%s' %s -o /dev/null 2>&1", VALIDATE,
           path);
  if (!write_file(path, tr.text, NULL) || run(cmd, &err) != 0) {
    t->invalid++;
    report(m, name, path, "the translation does not parse, verify or validate:\n%s",
           err ? err : "");
    free(err);
    mlt_result_free(&tr);
    return;
  }
  free(err);
  GlobalFn *main = ir_global_get(m, "main");
  bool kept = false; /* a run failed: its files stay */
  for (int s = 0; s < o->seeds; s++) {
    uint64_t seed = o->seed + (uint64_t)s;
    EvRun *ref = ev_run_new(NULL), *in = ev_run_new(NULL);
    EvResult want = ev_run_main(ref, m, seed);
    EvValue **args = ARENA_ARRAY(in->arena, EvValue *, main->func->func.nparams + 1);
    Tensor **flat = ARENA_ARRAY(in->arena, Tensor *, tr.sig.nargs + 1);
    Tensor **got = ARENA_ARRAY(in->arena, Tensor *, tr.sig.nresults + 1);
    char *printed = NULL, why[512];
    if (want.status != EV_OK ||
        !ev_make_args(in, ev_func_type(in->arena, main->func), seed, args)) {
      t->uncomparable++;
      goto next;
    }
    for (int i = 0, k = 0; i < tr.sig.nparams; i++)
      k += mlt_flatten_value(args[i], flat + k, tr.sig.nargs - k);
    char *entry = mlt_entry(&tr.sig, flat);
    char rpath[512], lpath[512];
    snprintf(rpath, sizeof rpath, "%s/%s.run%d.mlir", dir, name, s);
    snprintf(lpath, sizeof lpath, "%s/%s.llvm%d.mlir", dir, name, s);
    bool written = write_file(rpath, tr.text, entry);
    free(entry);
    snprintf(cmd, sizeof cmd, "mlir-opt-22 --pass-pipeline='%s' %s -o %s 2>&1", o->pipeline, rpath,
             lpath);
    if (!written || run(cmd, &printed) != 0) {
      t->failed++;
      kept = true;
      report(m, name, rpath, "lowering failed:\n%s", printed ? printed : "");
      goto next;
    }
    free(printed);
    snprintf(cmd, sizeof cmd,
             "mlir-runner-22 -e entry -entry-point-result=void "
             "-shared-libs=" LIB "/libmlir_runner_utils.so," LIB "/libmlir_c_runner_utils.so %s",
             lpath);
    if (run(cmd, &printed) != 0 ||
        !mlt_parse_printed(&tr.sig, printed, in->arena, got, why, sizeof why)) {
      t->failed++;
      kept = true;
      report(m, name, rpath, "running failed: %s", printed ? printed : "");
      goto next;
    }
    int pos = 0;
    EvValue *v = mlt_unflatten_value(in, tr.sig.result, got, &pos);
    bool differs = false;
    MltKnown cause, pattern;
    t->compared++;
    /* A lowering may reassociate floats; everything else is exact. */
    static const EvRules lowered = {.tol = &ev_default_tolerance};
    if (ev_compare_values(want.value, v, &lowered, why, sizeof why) == EV_SAME) {
      t->equal++;
    } else if ((cause = mlt_known_cause(m, seed, want.value, v, &pattern)) != MLT_KNOWN_NONE) {
      t->known++;
      printf("%s: differs (%s), by a known cause its replay confirms: %s "
             "(docs/findings/mlir.md: fold-zero #5, reduce-inf #16)\n",
             name, why, mlt_known_name(cause));
    } else {
      t->different++;
      differs = kept = true; /* the files stay for a person to look at */
      report(m, name, rpath, "inputs of seed %llu: the interpreter and MLIR differ %s",
             (unsigned long long)seed, why);
      fprintf(stderr, "--- interpreter: %s\n--- mlir:        %s\n",
              ev_print_value(in->arena, want.value), ev_print_value(in->arena, v));
    }
    if (!o->keep && !differs) {
      remove(rpath);
      remove(lpath);
    }
  next:
    free(printed);
    ev_run_free(ref);
    ev_run_free(in);
  }
  if (!o->keep && !kept)
    remove(path);
  mlt_result_free(&tr);
}

/* A golden program: parse and type-check FILE, then check(). */
static void check_file(const Opts *o, const char *file, Tally *t) {
  FILE *f = fopen(file, "rb");
  if (!f) {
    fprintf(stderr, "mlir_check: cannot open %s: %s\n", file, strerror(errno));
    t->programs++, t->failed++;
    return;
  }
  char *src = NULL;
  size_t len = 0;
  FILE *mem = open_memstream(&src, &len);
  for (int c; (c = fgetc(f)) != EOF;)
    fputc(c, mem);
  fclose(mem);
  fclose(f);
  Diag d;
  diag_init(&d, file, src);
  Module *m = ir_parse_module(src, len, file, &d);
  if (!m || !ty_check_module(m, &d)) {
    fprintf(stderr, "%s", d.text);
    t->programs++, t->failed++;
  } else {
    const char *base = strrchr(file, '/');
    char name[128];
    snprintf(name, sizeof name, "%s", base ? base + 1 : file);
    char *dot = strrchr(name, '.');
    if (dot)
      *dot = 0;
    check(o, m, name, t);
  }
  if (m)
    ir_module_free(m);
  diag_free(&d);
  free(src);
}

/* The next pseudo-random byte string (an LCG: any will do). */
static size_t next_input(uint64_t *s, uint8_t *buf, size_t max) {
  *s = *s * 6364136223846793005ull + 1442695040888963407ull;
  size_t n = (size_t)(*s >> 33) % (max + 1);
  for (size_t i = 0; i < n; i++) {
    *s = *s * 6364136223846793005ull + 1442695040888963407ull;
    buf[i] = (uint8_t)(*s >> 56);
  }
  return n;
}

/* A random program of the policy, type-checked (a generator bug is a
 * failure). */
static Module *random_program(const Opts *o, uint64_t *s, uint8_t *buf, Tally *t) {
  size_t n = next_input(s, buf, o->max_len);
  Module *m = gen_decode(buf, n, o->policy, NULL);
  Diag d;
  diag_init(&d, NULL, NULL);
  if (!ty_check_module(m, &d)) {
    fprintf(stderr, "mlir_check: a generated program does not type-check: %s", d.text);
    t->failed++;
  }
  diag_free(&d);
  return m;
}

/* --count: translate only, tallying the reasons for skips; --validate
 * also runs every translation through mlir-opt, 500 modules per call. */
static void count(const Opts *o, Tally *t) {
  uint8_t *buf = malloc(o->max_len + 1);
  uint64_t s = o->seed;
  char path[512], cmd[1024];
  snprintf(path, sizeof path, "%s/batch.mlir", dir);
  FILE *batch = NULL;
  int inbatch = 0;
  for (uint64_t i = 0; i < o->count; i++) {
    Module *m = random_program(o, &s, buf, t);
    MltResult tr;
    t->programs++;
    if (!translate(o, m, t, &tr)) {
      if (off_road(o, &tr))
        t->offroad++;
      else if (t->skipped++ < 5)
        report(m, "count", NULL, "translation skipped: %s", tr.skip);
    } else if (o->validate) {
      if (!batch)
        batch = fopen(path, "w");
      fprintf(batch, "%s%s", inbatch++ ? "// -----\n" : "", tr.text);
    }
    mlt_result_free(&tr);
    ir_module_free(m);
    if (batch && (inbatch == 500 || i + 1 == o->count)) {
      fclose(batch);
      batch = NULL;
      char *err = NULL;
      snprintf(cmd, sizeof cmd,
               "mlir-opt-22 --split-input-file --pass-pipeline='%s' %s -o /dev/null 2>&1", VALIDATE,
               path);
      if (run(cmd, &err) != 0) {
        t->invalid++;
        fprintf(stderr, "==mlir_check== a batch does not validate (%s kept):\n%s", path, err);
        free(err);
        break;
      }
      free(err);
      t->compared += inbatch;
      inbatch = 0;
    }
  }
  if (!o->keep)
    remove(path);
  free(buf);
}

static int usage(void) {
  fprintf(stderr, "usage: mlir_check [--seed S] [--seeds K] [--policy NAME] [--max-len N] "
                  "[--pipeline P] [--keep DIR] [-v] (FILE.relay... | --random N | --count N "
                  "[--validate]) [--dyn-params] [--linalg]\n");
  return 2;
}

int main(int argc, char **argv) {
  Opts o = {
      .seed = 1, .seeds = 2, .max_len = 1024, .pipeline = LOWER, .policy = gen_policy_get("mlir")};
  int first = argc;
  for (int i = 1; i < argc; i++) {
    const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
    if (!strcmp(a, "--seed") && v)
      o.seed = strtoull(v, NULL, 0), i++;
    else if (!strcmp(a, "--seeds") && v)
      o.seeds = atoi(v), i++;
    else if (!strcmp(a, "--random") && v)
      o.random = true, o.count = strtoull(v, NULL, 0), i++;
    else if (!strcmp(a, "--count") && v)
      o.count = strtoull(v, NULL, 0), i++;
    else if (!strcmp(a, "--max-len") && v)
      o.max_len = strtoull(v, NULL, 0), i++;
    else if (!strcmp(a, "--policy") && v)
      o.policy = gen_policy_get(v), i++;
    else if (!strcmp(a, "--pipeline") && v)
      o.pipeline = v, i++;
    else if (!strcmp(a, "--keep") && v)
      o.keep = v, i++;
    else if (!strcmp(a, "--validate"))
      o.validate = true;
    else if (!strcmp(a, "--dyn-params"))
      o.dyn_params = true;
    else if (!strcmp(a, "--linalg"))
      o.linalg = true;
    else if (!strcmp(a, "-v"))
      o.verbose = true;
    else if (a[0] == '-')
      return usage();
    else {
      first = i;
      break;
    }
  }
  if (!o.policy || (first == argc && !o.count))
    return usage();
  bool tools = system("mlir-opt-22 --version >/dev/null 2>&1") == 0 &&
               system("mlir-runner-22 --version >/dev/null 2>&1") == 0;
  bool count_only = o.count && !o.random;
  if (!tools && !(count_only && !o.validate)) {
    printf("mlir_check: mlir-opt-22 or mlir-runner-22 is not installed: skipped\n");
    return 77;
  }
  if (o.keep) {
    snprintf(dir, sizeof dir, "%s", o.keep);
    mkdir(dir, 0755);
  } else {
    snprintf(dir, sizeof dir, "/tmp/mlir_check.XXXXXX");
    if (!mkdtemp(dir)) {
      perror("mlir_check: mkdtemp");
      return 1;
    }
  }
  Tally t = {0};
  if (count_only) {
    count(&o, &t);
    int took = t.programs - t.skipped - t.offroad;
    printf("%d programs (policy %s), %d translated (%.2f%%), %d skipped%s", t.programs,
           o.policy->name, took, t.programs ? 100.0 * took / t.programs : 0.0, t.skipped,
           o.validate ? "" : "\n");
    if (o.validate)
      printf("; %d validated by mlir-opt-22 (parse, verify, tosa-validate)%s\n", t.compared,
             t.invalid ? ", a batch FAILED" : "");
  } else if (o.random) {
    uint8_t *buf = malloc(o.max_len + 1);
    uint64_t s = o.seed;
    for (uint64_t i = 0; i < o.count; i++) {
      Module *m = random_program(&o, &s, buf, &t);
      char name[64];
      snprintf(name, sizeof name, "random-%llu-%llu", (unsigned long long)o.seed,
               (unsigned long long)i);
      check(&o, m, name, &t);
      ir_module_free(m);
    }
    free(buf);
  } else {
    for (int i = first; i < argc; i++)
      check_file(&o, argv[i], &t);
  }
  if (!count_only)
    printf("%d programs: %d skipped, %d invalid, %d failed to lower or run; %d runs compared: "
           "%d equal, %d different, %d different by a known cause; %d runs not comparable "
           "(interpreter inconclusive)\n",
           t.programs, t.skipped, t.invalid, t.failed, t.compared, t.equal, t.different, t.known,
           t.uncomparable);
  printf("%d of %d translations have a dynamic dim\n", t.dynamic,
         t.programs - t.skipped - t.offroad);
  if (o.linalg)
    printf("the linalg road: %d of %d programs (%.1f%%) off the road (an operator it lacks)\n",
           t.offroad, t.programs, t.programs ? 100.0 * t.offroad / t.programs : 0.0);
  if (!o.keep)
    rmdir(dir);
  return t.skipped || t.invalid || t.failed || t.different ? 1 : 0;
}
