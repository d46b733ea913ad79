/*
 * reduce.c - `relaysmith reduce` and `relaysmith triage`: run a
 * generator-driven target's check on inputs in forked children, name each
 * failure by a signature, shrink a failing input with the reducer
 * (mutators/reducer.h) while its signature stays the same, and bucket many
 * crash files by signature.
 *
 * A child calls the target's check in-process (oracle_check,
 * oracle/oracle.h, as the fuzz target does) with its stderr on a pipe, and
 * is killed after a timeout.  The signature is read from what it printed:
 * the oracle and the pass of a relaysmith report; the error kind and the
 * top frames of a sanitizer report; an assertion; a timeout; a signal.
 */
#include <dirent.h>
#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "compiler/typing/typing.h"
#include "generator/breaker.h"
#include "mutators/reducer.h"
#include "targets/targets.h"
#include "tool.h"

/* LeakSanitizer's check, when the tool is built with it. */
int __lsan_do_recoverable_leak_check(void) __attribute__((weak));

/* UBSan stack traces, so that its reports have frames for the signature. */
const char *__ubsan_default_options(void) {
  return "print_stacktrace=1";
}

/* ------------------------------------------------------------ checkers */

/* A generator-driven fuzz target's check, run in a forked child. */
typedef struct Checker {
  OracleConfig cfg;
  int timeout;     /* seconds a child may run */
  ToolFlags flags; /* what it was configured with, for messages */
} Checker;

/* Command-line options shared by reduce and triage. */
typedef struct Opts {
  const char *target; /* --target, or NULL: the sidecar's, else pass_fuzzer */
  char **flags;       /* the check's flags given (malloc'd) */
  int nflags;
  const char *out;
  uint64_t timeout, max_tests;
  bool reduce;
  const char **args; /* FILE (reduce) or DIRs (triage) */
  int nargs;
} Opts;

/* Set k up for file (NULL: no file) as o says: the target's harness (o's,
 * the one file's sidecar names, or pass_fuzzer), configured by the flags
 * the sidecar holds and then o's; false with the reason in err on a bad
 * target or flag. */
static bool checker_init(Checker *k, const Opts *o, const char *file, char *err, size_t errlen) {
  OracleHarness h;
  char side[4096];
  const char *target = o->target ? o->target : tool_sidecar_harness(file, side, sizeof side);
  if (!target)
    target = "pass_fuzzer";
  if (!rs_harness_get(target, &h)) {
    snprintf(err, errlen, "unknown target '%s' (%s)", target, rs_harness_names);
    return false;
  }
  /* A target that names its stages on stderr (MLIR's) lets a crash's
   * signature say in which one it happened: -trace=1 first. */
  char *trace = "-trace=1";
  tool_flags(&k->flags, target, h.target->flag, file, o->flags, o->nflags);
  char *argv[66] = {"relaysmith", trace};
  for (int i = 1; i < k->flags.argc; i++)
    argv[i + 1] = k->flags.argv[i];
  char why[2048];
  if (!oracle_init(&k->cfg, &h, k->flags.argc + 1, argv, why, sizeof why)) {
    snprintf(err, errlen, "%s%s: %s", k->flags.desc,
             k->flags.sidecar ? " (its flags read from FILE.flags)" : "", why);
    return false;
  }
  k->timeout = (int)o->timeout;
  return true;
}

/* Say why file, run by k, did not fail: the flags it ran with and where
 * they came from; each line after prefix. */
static void say_not_failing(FILE *f, const char *prefix, const Checker *k, const char *file) {
  char what[1024];
  oracle_describe(&k->cfg, what, sizeof what);
  fprintf(f, "%s%s does not fail on %s (%s)", prefix, file, k->flags.desc, what);
  if (k->flags.sidecar)
    fprintf(f, ", with the flags read from %s.flags", file);
  fprintf(f, "\n");
  if (!k->flags.sidecar && k->cfg.check == ORACLE_PIPELINE && !k->cfg.fixed && k->flags.argc == 1)
    fprintf(f,
            "%sno %s.flags, and a crash found with -passes= or -policy= fails only with the "
            "same flags (the command at the end of its report has them): give them as "
            "--passes= or --policy=\n",
            prefix, file);
}

/* ------------------------------------------------------- running a child */

typedef struct ChildCtx {
  const Checker *k;
  const OracleInput *in;
} ChildCtx;

/* The child: the target's check on the input, then LSan's check.  A
 * failure is reported and aborts, as in the fuzz target. */
static void child(void *ctx) {
  const ChildCtx *c = ctx;
  Verdict v;
  if (!oracle_check(&c->k->cfg, c->in, &v)) {
    oracle_report(stderr, &c->k->cfg, &v, NULL);
    abort();
  }
  verdict_free(&v);
  if (__lsan_do_recoverable_leak_check && __lsan_do_recoverable_leak_check())
    _exit(1);
  _exit(0);
}

/* Run in and return its signature in sig. */
static void check_input(const Checker *k, const OracleInput *in, char sig[TOOL_SIG_MAX]) {
  ToolChild r;
  tool_run_child(child, &(ChildCtx){k, in}, k->timeout, &r);
  tool_signature(r.err, r.status, r.timed_out, sig);
  free(r.err);
}

/* Run data and return its signature in sig. */
static void check(const Checker *k, const uint8_t *data, size_t size, char sig[TOOL_SIG_MAX]) {
  check_input(k, &(OracleInput){.data = data, .size = size}, sig);
}

/* OracleInput.make for a program in text (ctx: the NUL-terminated text). */
static Module *parse_text(void *ctx) {
  const char *text = ctx;
  Diag d;
  diag_init(&d, "reduced", text);
  Module *m = ir_parse_module(text, strlen(text), "reduced", &d);
  if (!m)
    fprintf(stderr, "the reduced program does not parse:\n%s", d.text ? d.text : "");
  diag_free(&d);
  return m ? m : ir_module_new();
}

/* ------------------------------------------------------------- options */

/* The value of option name at argv[*i]: "--name=V" or "--name V" (also
 * with one dash); NULL when argv[*i] is not that option.  *missing is set
 * when the option has no value. */
static const char *opt_value(int argc, char **argv, int *i, const char *name, bool *missing) {
  const char *a = argv[*i];
  if (a[0] != '-')
    return NULL;
  a += a[1] == '-' ? 2 : 1;
  size_t n = strlen(name);
  if (strncmp(a, name, n) != 0)
    return NULL;
  if (a[n] == '=')
    return a + n + 1;
  if (a[n])
    return NULL;
  if (*i + 1 >= argc) {
    *missing = true;
    return NULL;
  }
  return argv[++*i];
}

/* Parse reduce's or triage's arguments; returns 0, 1 when help was
 * printed, or 2 after a usage error. */
static int parse_opts(const char *cmd, const char *help, int argc, char **argv, Opts *o) {
  memset(o, 0, sizeof *o);
  o->timeout = 10;
  o->args = calloc((size_t)argc + 1, sizeof *o->args);
  o->flags = calloc((size_t)argc + 1, sizeof *o->flags);
  static const char *const names[] = {"target", "o", "out"};
  for (int i = 0; i < argc; i++) {
    const char *a = argv[i];
    if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
      fputs(help, stdout);
      return 1;
    }
    bool missing = false, matched = false;
    const char *v;
    for (size_t k = 0; k < sizeof names / sizeof *names && !matched; k++)
      if ((v = opt_value(argc, argv, &i, names[k], &missing)) || missing) {
        matched = true;
        const char **slot[] = {&o->target, &o->out, &o->out};
        *slot[k] = v;
      }
    if (!matched && ((v = opt_value(argc, argv, &i, "timeout", &missing)) || missing)) {
      matched = true;
      if (!tool_parse_u64(v, &o->timeout) || o->timeout == 0 || o->timeout > 86400)
        return tool_usage_error(cmd, "--timeout needs a number of seconds");
    }
    if (!matched && ((v = opt_value(argc, argv, &i, "max-tests", &missing)) || missing)) {
      matched = true;
      if (!tool_parse_u64(v, &o->max_tests))
        return tool_usage_error(cmd, "--max-tests needs a number");
    }
    if (missing)
      return tool_usage_error(cmd, "%s needs a value", a);
    if (matched)
      continue;
    if (!strcmp(a, "--reduce"))
      o->reduce = true;
    else if ((o->flags[o->nflags] = tool_check_flag(argc, argv, &i)))
      o->nflags++;
    else if (a[0] == '-' && a[1])
      return tool_usage_error(cmd, "unknown option '%s'", a);
    else
      o->args[o->nargs++] = a;
  }
  return 0;
}

static void opts_free(Opts *o) {
  for (int i = 0; i < o->nflags; i++)
    free(o->flags[i]);
  free(o->flags);
  free(o->args);
}

/* Parse the arguments of reduce or triage (cmd) and check the target and
 * the flags given: -1 when the command should go on, else its exit status
 * (0 after --help; o is then freed). */
static int setup(const char *cmd, const char *help, int argc, char **argv, Opts *o) {
  bool triage = !strcmp(cmd, "triage");
  int rc = parse_opts(cmd, help, argc, argv, o);
  char err[4096];
  Checker k;
  if (rc == 0 && (triage ? o->nargs == 0 : o->nargs != 1))
    rc = tool_usage_error(cmd, triage     ? "missing DIR"
                               : o->nargs ? "one FILE only"
                                          : "missing FILE");
  else if (rc == 0 && !triage && o->reduce)
    rc = tool_usage_error(cmd, "--reduce is an option of triage");
  else if (rc == 0 && o->target && !checker_init(&k, o, NULL, err, sizeof err))
    rc = tool_usage_error(cmd, "%s", err);
  if (rc == 0)
    return -1;
  opts_free(o);
  return rc == 1 ? 0 : rc;
}

/* ------------------------------------------------------------ reducing */

static int64_t nodes(const Checker *k, const uint8_t *data, size_t size, char **text);

/* The predicate's state: the target, the signature to keep, and the
 * expression nodes of the input kept last. */
typedef struct Want {
  const Checker *k;
  const char *sig;
  int64_t nodes;
  double start, last; /* for the progress line */
  bool tty;
} Want;

/* A candidate is kept when it fails the same way and its program is no
 * larger: the reducer's order is on bytes (shortlex), and fewer bytes may
 * decode to more nodes (another policy or pass sequence in the header),
 * which a reduced program must never have. */
static bool same_failure(const uint8_t *data, size_t size, void *ctx) {
  Want *w = ctx;
  int64_t n = nodes(w->k, data, size, NULL);
  if (n > w->nodes)
    return false;
  char sig[TOOL_SIG_MAX];
  check(w->k, data, size, sig);
  if (strcmp(sig, w->sig) != 0)
    return false;
  w->nodes = n;
  return true;
}

/* The progress line: rewritten in place on a terminal (4 times a second
 * at most), else a line every 5 seconds. */
static void progress(const RedProgress *p, void *ctx) {
  Want *w = ctx;
  double now = tool_now();
  if (now - w->last < (w->tty ? 0.25 : 5))
    return;
  w->last = now;
  fprintf(stderr, "%sreduce: round %d, %-6s %6zu bytes, %6zu tests, %4zu kept, %.1f s%s",
          w->tty ? "\r" : "", p->round, p->move, p->size, p->tests, p->kept, now - w->start,
          w->tty ? "\033[K" : "\n");
}

/* Expression nodes of the program data decodes to, and its text: with a
 * policy that breaks its programs (reject_fuzzer's), the text with its
 * defect, which a comment names. */
static int64_t nodes(const Checker *k, const uint8_t *data, size_t size, char **text) {
  Module *m = oracle_program(&k->cfg, data, size);
  int64_t count = ir_module_count(m);
  if (text && k->cfg.policy->breaks) {
    GenBreak b;
    gen_break(m, data, size, k->cfg.policy, &b);
    size_t n = strlen(b.text) + strlen(b.what) + 64;
    *text = malloc(n);
    snprintf(*text, n, "// defect %s: %s\n%s", gen_break_name(b.kind), b.what, b.text);
    gen_break_free(&b);
  } else if (text) {
    *text = ir_print_module(m);
  }
  ir_module_free(m);
  return count;
}

/* For a target with a language of its own (MLIR), the reduced program in
 * it, into OUT.<ext>: what a bug report holds (mlir-reduce-22 can shrink
 * MLIR further). */
static bool write_export(const Checker *k, const uint8_t *data, size_t size, const char *out) {
  const Target *t = k->cfg.target;
  if (!t->export)
    return true;
  Module *m = gen_decode(data, size, k->cfg.policy, NULL);
  Diag d;
  diag_init(&d, NULL, NULL);
  char why[1024], *text = NULL;
  bool ok = true;
  if (ty_check_module(m, &d) && (text = t->export(m, why, sizeof why))) {
    char path[4096];
    snprintf(path, sizeof path, "%s.%s", out, t->ext);
    ok = tool_write_file(path, text, strlen(text));
    if (ok)
      printf("wrote:  %s\n", path);
  }
  free(text);
  diag_free(&d);
  ir_module_free(m);
  return ok;
}

/* Check that path, the program text of data (which fails with sig), fails
 * the same way when parsed and run as `relaysmith run` runs it: the passes
 * data's header chose, its argument seed.  Prints the verdict; false when
 * the text does not fail the same way. */
static bool text_fails_same(const Checker *k, const uint8_t *data, size_t size, const char *text,
                            const char *sig, const char *path) {
  if (k->cfg.check != ORACLE_PIPELINE || k->cfg.policy->breaks) {
    printf("check:  %s not run as text (%s's check reads the bytes)\n", path, k->cfg.harness);
    return true;
  }
  Checker t = *k;
  if (!t.cfg.pipeline.n && !t.cfg.fixed)
    t.cfg.target->header_pipeline(data, size, &t.cfg.pipeline);
  t.cfg.fixed = true;
  uint64_t seed = oracle_input_seed(data, size);
  char tsig[TOOL_SIG_MAX], passes[1024] = "";
  check_input(&t, &(OracleInput){.make = parse_text, .ctx = (void *)text, .seed = seed}, tsig);
  for (int i = 0, n = 0; i < t.cfg.pipeline.n && n < (int)sizeof passes; i++)
    n += snprintf(passes + n, sizeof passes - (size_t)n, "%s%s", i ? "," : "",
                  t.cfg.pipeline.stage[i].name);
  const char *fault = NULL; /* the -fault= it runs with, for the command */
  for (int i = 1; i < k->flags.argc; i++)
    fault = rs_flag_value(k->flags.argv[i], "fault") ? k->flags.argv[i] : fault;
  if (!strcmp(tsig, sig)) {
    if (t.cfg.target == &target_relayc)
      printf("check:  %s fails the same way: relaysmith run --passes=%s%s%s --seed %llu %s\n", path,
             passes, fault ? " " : "", fault ? fault : "", (unsigned long long)seed, path);
    else
      printf("check:  %s fails the same way (passes %s, argument seed %llu)\n", path, passes,
             (unsigned long long)seed);
    return true;
  }
  printf("check:  %s does NOT fail the same way: parsed and run with the passes %s, it %s%s\n",
         path, passes, tsig[0] ? "fails with " : "passes every oracle", tsig);
  if (!strncmp(sig, "generator", 9))
    fprintf(stderr,
            "relaysmith reduce: %s does not reproduce the failure (the bytes do): it is the "
            "generator's, made while decoding the bytes, which a program text skips\n",
            path);
  else
    fprintf(stderr,
            "relaysmith reduce: %s does not reproduce the failure (the bytes do): the text "
            "loses something the program has (a bug of the printer or the parser: please "
            "report it); the bytes, %.*s, reproduce it\n",
            path, (int)(strlen(path) - 6), path);
  return false;
}

/* Reduce data (which fails with sig) into out and out.relay (and, for the
 * MLIR target, out.mlir); prints the sizes before and after.  False when a
 * file could not be written. */
static bool reduce_to(const Checker *k, const Opts *o, const char *sig, const uint8_t *data,
                      size_t size, const char *out) {
  double now = tool_now();
  Want w = {k, sig, nodes(k, data, size, NULL), now, now, isatty(2)};
  RedOptions ro = {k->cfg.policy, same_failure, &w, progress, o->max_tests};
  RedResult r;
  if (!red_reduce(&ro, data, size, &r)) {
    fprintf(stderr, "relaysmith: the input no longer fails with the same signature (flaky?)\n");
    return false;
  }
  if (w.tty && w.last > w.start)
    fprintf(stderr, "\r\033[K");
  char *text;
  int64_t before = nodes(k, data, size, NULL), after = nodes(k, r.data, r.size, &text);
  printf("before: %zu bytes, %lld expression nodes\n", size, (long long)before);
  printf("after:  %zu bytes, %lld expression nodes (%zu tests, %zu kept, %d rounds, %.1f s)\n",
         r.size, (long long)after, r.tests, r.kept, r.rounds, tool_now() - w.start);
  char path[4096];
  snprintf(path, sizeof path, "%s.relay", out);
  bool ok = tool_write_file(out, r.data, r.size) && tool_write_file(path, text, strlen(text));
  if (ok)
    printf("wrote:  %s, %s\n%s", out, path, text);
  ok = ok && write_export(k, r.data, r.size, out);
  if (ok)
    text_fails_same(k, r.data, r.size, text, sig, path);
  free(text);
  red_result_free(&r);
  return ok;
}

/* The options reduce and triage share, for their help texts. */
#define TARGET_OPTIONS                                                                             \
  "  --target TARGET  pass_fuzzer, pass_fuzzer_<pass>, fusion_fuzzer, typecheck_fuzzer,\n"         \
  "                   kernel_fuzzer, reject_fuzzer or mlir_fuzzer (its -pipeline= is\n"            \
  "                   --passes=); default: the one FILE.flags names, else pass_fuzzer\n"           \
  "  --passes=LIST    the pass sequence the input was found with (pass_fuzzer's\n"                 \
  "                   -passes; without it each input's header chooses)\n"                          \
  "  --policy=NAME    the generator policy (pass_fuzzer's -policy)\n"                              \
  "  --fault=NAME     the target's -fault (test build only: print_drop_attr, ...)\n"               \
  "                   (and -allow=, -differential=: every flag of the targets' -help=1,\n"         \
  "                   spelt -name=V, --name=V or --name V)\n"                                      \
  "  --timeout N      seconds before a run counts as a timeout (default 10)\n"                     \
  "A crash file's sidecar FILE.flags (the target that found it and its flags,\n"                   \
  "written with the report) is read first; the flags given here win.\n"

static const char reduce_help[] =
    "usage: relaysmith reduce [--target TARGET] [--passes=a,b] [--policy=NAME] [--fault=NAME]\n"
    "                         [--timeout SECONDS] [--max-tests N] FILE [-o OUT]\n"
    "\n"
    "Shrink the choice stream in FILE (a crash file of a generator-driven fuzz\n"
    "target) while it keeps failing the same way, and write the smallest input\n"
    "found to OUT (default FILE.min) and its program to OUT.relay.  Each\n"
    "candidate runs the target's check in a forked child.  The failure is named\n"
    "by its signature: the oracle and the pass of a relaysmith report; the\n"
    "error kind and top 3 stack frames of a sanitizer report; an assertion; a\n"
    "timeout.  Moves (docs/reduce.md): trim, zero the header, zero the\n"
    "module-level choices, zero a span, replace a span by a same-type\n"
    "descendant, cut a span's bytes, delete byte blocks, lower single bytes;\n"
    "repeated until none applies.  A candidate is kept only when it is shorter,\n"
    "or as long and lexicographically smaller, with the same signature.\n"
    "Then OUT.relay is parsed and checked as 'relaysmith run' would check it\n"
    "(the passes the input ran, its argument seed): the check: line says\n"
    "whether the text fails the same way, and the command that shows it.\n"
    "OUT and OUT.relay must be writable before anything runs.\n"
    "Exit status: 0 when reduced, 1 when FILE does not fail (or a write\n"
    "failed), 2 on bad usage.\n"
    "\n" TARGET_OPTIONS "  --max-tests N    stop after N runs (default: at the fixpoint)\n"
    "  -o OUT           where to write the reduced input\n";

int cmd_reduce(int argc, char **argv) {
  Opts o;
  Checker k;
  int rc = setup("reduce", reduce_help, argc, argv, &o);
  if (rc >= 0)
    return rc;
  char err[4096];
  if (!checker_init(&k, &o, o.args[0], err, sizeof err)) {
    rc = tool_usage_error("reduce", "%s", err);
    opts_free(&o);
    return rc;
  }
  size_t size;
  uint8_t *data = tool_read_file(o.args[0], &size);
  char sig[TOOL_SIG_MAX], out[4096], text[4104];
  snprintf(out, sizeof out, "%s%s", o.out ? o.out : o.args[0], o.out ? "" : ".min");
  snprintf(text, sizeof text, "%s.relay", out);
  rc = 1;
  if (data && (!tool_can_write(out) || !tool_can_write(text))) {
    fprintf(stderr, "relaysmith reduce: nothing reduced: the output cannot be written\n");
  } else if (data) {
    check(&k, data, size, sig);
    if (!sig[0]) {
      say_not_failing(stderr, "relaysmith reduce: ", &k, o.args[0]);
      fprintf(stderr, "relaysmith reduce: nothing to reduce\n");
    } else {
      printf("signature: %s\n", sig);
      if (k.flags.sidecar)
        printf("flags:     %s (read from %s.flags)\n", k.flags.desc, o.args[0]);
      rc = reduce_to(&k, &o, sig, data, size, out) ? 0 : 1;
    }
  }
  free(data);
  opts_free(&o);
  return rc;
}

/* ------------------------------------------------------------- triage */

/* One input file and its signature. */
typedef struct Case {
  char *path;
  size_t size;
  char sig[TOOL_SIG_MAX];
  bool broken; /* could not run: bad flags (its sidecar's), unreadable */
} Case;

/* Cases sharing a signature. */
typedef struct Bucket {
  const char *sig;
  int count;
  int rep; /* the smallest file */
} Bucket;

static int by_path(const void *a, const void *b) {
  return strcmp(((const Case *)a)->path, ((const Case *)b)->path);
}

static int by_count(const void *a, const void *b) {
  const Bucket *x = a, *y = b;
  return x->count != y->count ? y->count - x->count : strcmp(x->sig, y->sig);
}

/* Add the regular files of dir (or dir itself when it is a file); false
 * (after saying why) when dir cannot be read. */
static bool list_files(const char *dir, Case **v, int *n, int *cap) {
  struct stat st;
  if (stat(dir, &st) != 0) {
    fprintf(stderr, "relaysmith triage: %s: %s\n", dir, strerror(errno));
    return false;
  }
  DIR *d = S_ISDIR(st.st_mode) ? opendir(dir) : NULL;
  for (struct dirent *de = NULL;;) {
    char path[4096];
    if (d) {
      if (!(de = readdir(d)))
        break;
      size_t len = strlen(de->d_name);
      if (de->d_name[0] == '.' || (len > 4 && !strcmp(de->d_name + len - 4, ".min")) ||
          (len > 6 && !strcmp(de->d_name + len - 6, ".relay")) ||
          (len > 5 && !strcmp(de->d_name + len - 5, ".mlir")) ||
          (len > 6 && !strcmp(de->d_name + len - 6, ".flags")) ||
          (len > 7 && !strcmp(de->d_name + len - 7, ".report")))
        continue; /* hidden, what reduce wrote, or a sidecar */
      snprintf(path, sizeof path, "%s/%s", dir, de->d_name);
      if (stat(path, &st) != 0 || !S_ISREG(st.st_mode))
        continue;
    } else {
      snprintf(path, sizeof path, "%s", dir);
    }
    if (*n == *cap)
      *v = realloc(*v, (size_t)(*cap = *cap ? 2 * *cap : 64) * sizeof **v);
    (*v)[(*n)++] = (Case){strdup(path), (size_t)st.st_size, ""};
    if (!d)
      break;
  }
  if (d)
    closedir(d);
  return true;
}

/* Put the cases into buckets by signature; returns the number. */
static int bucket(const Case *c, int n, Bucket *b) {
  int nb = 0;
  for (int i = 0; i < n; i++) {
    int k = 0;
    while (k < nb && strcmp(b[k].sig, c[i].sig) != 0)
      k++;
    if (k == nb)
      b[nb++] = (Bucket){c[i].sig, 0, i};
    b[k].count++;
    if (c[i].size < c[b[k].rep].size)
      b[k].rep = i;
  }
  qsort(b, (size_t)nb, sizeof *b, by_count);
  return nb;
}

static const char triage_help[] =
    "usage: relaysmith triage [--target TARGET] [--passes=a,b] [--policy=NAME] [--fault=NAME]\n"
    "                         [--timeout SECONDS] [--reduce [--out DIR]] DIR...\n"
    "\n"
    "Run every file in each DIR (crash-*, timeout-*, oom-*, leak-* or any other;\n"
    "a DIR may also be a single file) through the target's check in a forked\n"
    "child, and bucket the files by signature (see 'relaysmith reduce --help'):\n"
    "one line per bucket with the number of files, the signature and the\n"
    "smallest file, the biggest bucket first.  Files that do not fail, and\n"
    "those that could not run (flags this build lacks: bad_* and -fault= are\n"
    "the test build's, mlir_fuzzer needs MLIR 22), are counted separately, and\n"
    "the first 20 said why (the flags they ran with);\n"
    "hidden files and *.min, *.relay, *.mlir, *.flags, *.report (reduce's and\n"
    "the MLIR target's reproducers, sidecars) are skipped.  With --reduce, each\n"
    "bucket's smallest file is reduced (as by 'relaysmith reduce') into FILE.min\n"
    "and FILE.min.relay, or into DIR/<name>.min with --out DIR.\n"
    "\n" TARGET_OPTIONS "  --reduce         reduce each bucket's smallest file\n"
    "  --out DIR        where --reduce writes\n";

/* Run case c with the flags of its sidecar and o's; its signature into
 * c->sig ("" when it does not fail or cannot run). */
static void triage_one(const Opts *o, Case *c) {
  Checker k;
  char err[4096];
  size_t size;
  uint8_t *data = NULL;
  if (checker_init(&k, o, c->path, err, sizeof err) && (data = tool_read_file(c->path, &size)))
    check(&k, data, size, c->sig);
  else
    c->broken = true;
  free(data);
}

enum { SAY_MAX = 20 }; /* files not failing said why, at most */

/* Say why the files that do not fail do not, the first SAY_MAX. */
static void say_clean(const Opts *o, const Case *c, int n) {
  int said = 0, clean = 0;
  for (int i = 0; i < n; i++) {
    if (c[i].sig[0] || clean++ >= SAY_MAX)
      continue;
    Checker k;
    char err[4096];
    if (checker_init(&k, o, c[i].path, err, sizeof err))
      say_not_failing(stdout, "  ", &k, c[i].path);
    else
      printf("  %s could not run: %s\n", c[i].path, err);
    said++;
  }
  if (clean > said)
    printf("  (and %d more files not failing)\n", clean - said);
}

int cmd_triage(int argc, char **argv) {
  Opts o;
  int rc = setup("triage", triage_help, argc, argv, &o);
  if (rc >= 0)
    return rc;
  rc = 0;
  Case *c = NULL;
  int n = 0, cap = 0, clean = 0, broken = 0;
  for (int i = 0; i < o.nargs; i++)
    if (!list_files(o.args[i], &c, &n, &cap))
      rc = 1;
  if (n)
    qsort(c, (size_t)n, sizeof *c, by_path);
  for (int i = 0; i < n; i++)
    triage_one(&o, &c[i]), broken += c[i].broken;
  Bucket *b = calloc((size_t)n + 1, sizeof *b);
  int nb = bucket(c, n, b);
  printf("%d files, ", n);
  for (int k = 0; k < nb; k++)
    clean += !b[k].sig[0] ? b[k].count : 0;
  printf("%d buckets, %d not failing", nb - (clean > 0), clean - broken);
  printf(broken ? ", %d could not run\n" : "\n", broken);
  for (int k = 0; k < nb; k++)
    if (b[k].sig[0])
      printf("%5d  %s  %s (%zu bytes)\n", b[k].count, b[k].sig, c[b[k].rep].path, c[b[k].rep].size);
  say_clean(&o, c, n);
  for (int k = 0; k < nb && o.reduce; k++) {
    if (!b[k].sig[0])
      continue;
    const Case *r = &c[b[k].rep];
    char out[4096], err[4096];
    const char *base = strrchr(r->path, '/') ? strrchr(r->path, '/') + 1 : r->path;
    if (o.out)
      snprintf(out, sizeof out, "%s/%s.min", o.out, base);
    else
      snprintf(out, sizeof out, "%s.min", r->path);
    size_t size;
    Checker ck;
    uint8_t *data =
        checker_init(&ck, &o, r->path, err, sizeof err) ? tool_read_file(r->path, &size) : NULL;
    printf("\n--- reducing %s: %s\n", r->path, r->sig);
    if (!data || !reduce_to(&ck, &o, r->sig, data, size, out))
      rc = 1;
    free(data);
  }
  for (int i = 0; i < n; i++)
    free(c[i].path);
  free(c);
  free(b);
  opts_free(&o);
  return rc;
}
