/*
 * fuzz_target.c - every generator-driven fuzz target: a thin wrapper that
 * checks each input with the oracle (oracle/oracle.h) and, on a failure,
 * prints the report and aborts so libFuzzer saves the input.
 *
 * Built with -DRS_HARNESS="name" once per binary (harnesses/targets.cmake);
 * the name says what it checks (targets/targets.c):
 *   ./pass_fuzzer -max_total_time=3600                 passes chosen per input
 *   ./pass_fuzzer -passes=fold_constant,dead_code      a fixed sequence
 *   ./pass_fuzzer -policy=fusion -jobs=2               (children keep them)
 *   ./pass_fuzzer_inline                               one pass, built in
 *   ./fusion_fuzzer, ./typecheck_fuzzer, ./reject_fuzzer
 *   ./pass_fuzzer crash-<sha1>                         reproduce a report
 *   ./mlir_fuzzer -pipeline=to-linalg,llvm prog.relay  a Relay text program
 *
 * Our flags -- the check's (-passes=, -policy=, -allow=, -differential=,
 * -fault=) and the options of oracle/options.h (-known=, -trace=,
 * -byte_mutation=, ...), as -name=V, --name=V or -name V -- are taken out
 * of argv before libFuzzer parses it, so it does not warn about flags it
 * does not know, and passed on in the environment (RELAYSMITH_FLAGS, which
 * also works alone), where the children of -jobs and -fork find them.
 * -help=1 lists them before libFuzzer's own help.  The flags of
 * harnesses/options apply unless given (defaults.h).  A report ends with
 * the command that reproduces it: this binary, the check's flags and the
 * file the input is in (the file it was run on, or else the crash-<sha1 of
 * the input> libFuzzer saves it in, next to which it writes the sidecar
 * <crash file>.flags: this harness's name and the check's flags, -known=
 * among them since a failure it lists is skipped, which
 * relaysmith run, reduce, triage and scripts/repro read).  Run on files,
 * an input that passes says so, and what flags a crash found with other
 * flags needs.
 *
 * A target that adds reproducer files to a verdict (MLIR's .mlir and
 * command lines) gets them written next to the crash file, as
 * <crash file>.<name>.  A harness built with -DRS_KNOWN_BUGS="FILE" (or run
 * with -known=FILE; "none" for no list) skips the failures whose
 * signature (verdict_signature) matches a line of FILE, "SIGNATURE<tab>note"
 * with * matching any text, and counts them: a long run keeps finding new
 * bugs, not the ones already triaged.  A <harness name>.known beside the
 * binary (as the ClusterFuzzLite build ships it) wins over the built-in FILE.
 *
 * Linked with harnesses/custom_mutator.c (CMake option RS_CUSTOM_MUTATOR,
 * on by default) it mutates with the span-aware mutator.
 */
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "compiler/typing/typing.h"
#include "defaults.h"
#include "targets/targets.h"

#ifndef RS_HARNESS
#error "build with -DRS_HARNESS=\"<fuzz target name>\""
#endif

enum { MAX_FLAGS = 32, CMD_MAX = 8192 };

static OracleConfig config;
static OracleHarness harness;
static bool flagged;       /* the pipeline or the policy came from a flag */
static const char **files; /* the input files argv names (libFuzzer then
                              runs each, and saves no crash file) */
static int nfiles;
static char command[CMD_MAX];        /* this binary and the check's flags, quoted */
static char *check_flags[MAX_FLAGS]; /* the check's flags (for the sidecar) */
static int ncheck_flags;
static const char *artifact_prefix = "./", *exact_artifact_path;

static void known_load(void);
static void watchdog_start(int argc, char **argv);

/* ---------------------------------------------------------------- flags */

/* The length of the "-name=" of flag a when name is one of names[0..n)
 * (one dash or two, as oracle_init reads them), else 0. */
static size_t flag_of(const char *a, const char *const *names, size_t n) {
  size_t dashes = a[0] != '-' ? 0 : a[1] == '-' ? 2 : 1;
  for (size_t i = 0; dashes && i < n; i++) {
    size_t len = strlen(names[i]);
    if (strncmp(a + dashes, names[i], len) == 0 && a[dashes + len] == '=')
      return dashes + len + 1;
  }
  return 0;
}

/* Is a one of our flags (oracle_flag: -<target flag>=, -policy=, ...)? */
static size_t ours(const char *a, const Target *t) {
  return oracle_flag(t, a);
}

/* Does a choose what runs (-<target flag>= or -policy=)? */
static bool chooses(const char *a, const char *target_flag) {
  const char *names[] = {target_flag, "policy"};
  return flag_of(a, names, 2) != 0;
}

/* Append a to s (of capacity CMD_MAX), a space before it, in single quotes
 * when the shell would read it otherwise. */
static void append_arg(char *s, const char *a) {
  size_t n = strlen(s);
  bool plain = *a && strspn(a, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
                               "0123456789-_=,./+:@%") == strlen(a);
  n += (size_t)snprintf(s + n, CMD_MAX - n, "%s%s", n ? " " : "", plain ? "" : "'");
  for (; *a && n + 5 < CMD_MAX; a++)
    n += (size_t)snprintf(s + n, CMD_MAX - n, *a == '\'' ? "'\\''" : "%c", *a);
  if (!plain && n + 1 < CMD_MAX)
    snprintf(s + n, CMD_MAX - n, "'");
}

/* Add flag f to flags[0..*n), replacing an earlier one of the same name
 * (the later one wins in oracle_init too). */
static void add_flag(char **flags, int *n, char *f, const Target *t) {
  size_t key = ours(f, t);
  for (int i = 0; i < *n; i++)
    if (ours(flags[i], t) == key && strncmp(flags[i], f, key) == 0) {
      flags[i] = f;
      return;
    }
  if (*n < MAX_FLAGS)
    flags[(*n)++] = f;
}

/* Our flag of arg, with the value the next argument gives when arg is
 * "-name" or "--name" of one of ours ("--policy NAME"): joined into one,
 * and *i moved past the value; NULL when arg is none of ours. */
static char *flag_at(int argc, char **argv, int *i, const Target *t) {
  static char joined[MAX_FLAGS][1024]; /* for the life of the process */
  static int njoined;
  const char *a = argv[*i];
  if (ours(a, t))
    return argv[*i];
  if (a[0] != '-' || strchr(a, '=') || *i + 1 >= argc || njoined == MAX_FLAGS)
    return NULL;
  char *j = joined[njoined];
  snprintf(j, sizeof joined[0], "%s=%s", a, argv[*i + 1]);
  if (!ours(j, t))
    return NULL;
  ++*i, njoined++;
  return j;
}

/* Take our flags out of argv into flags[], after those RELAYSMITH_FLAGS
 * holds (space-separated); returns how many. */
static int take_flags(int *argc, char **argv, const Target *t, char **flags) {
  int n = 0;
  const char *env = getenv("RELAYSMITH_FLAGS");
  if (env) {
    static char copy[CMD_MAX];
    snprintf(copy, sizeof copy, "%s", env);
    for (char *f = strtok(copy, " "); f; f = strtok(NULL, " "))
      add_flag(flags, &n, f, t);
  }
  int k = 1;
  for (int i = 1; i < *argc; i++) {
    char *f = flag_at(*argc, argv, &i, t);
    if (f)
      add_flag(flags, &n, f, t);
    else
      argv[k++] = argv[i];
  }
  argv[k] = NULL;
  *argc = k;
  return n;
}

/* Where libFuzzer saves a crash, and the input files argv names. */
static void read_engine_args(int argc, char **argv) {
  files = calloc((size_t)argc, sizeof *files);
  for (int i = 1; i < argc; i++) {
    const char *a = argv[i];
    struct stat st;
    if (strncmp(a, "-artifact_prefix=", 17) == 0)
      artifact_prefix = a + 17;
    else if (strncmp(a, "-exact_artifact_path=", 21) == 0)
      exact_artifact_path = a + 21;
    else if (a[0] != '-' && stat(a, &st) == 0 && S_ISREG(st.st_mode))
      files[nfiles++] = a;
  }
}

/* Does argv ask for libFuzzer's help (-help=1)? */
static bool wants_help(int argc, char **argv) {
  for (int i = 1; i < argc; i++)
    if (!strcmp(argv[i], "-help=1") || !strcmp(argv[i], "--help=1"))
      return true;
  return false;
}

int LLVMFuzzerInitialize(int *argc, char ***argv) {
  char err[2048];
  if (!rs_harness_get(RS_HARNESS, &harness)) {
    fprintf(stderr, "relaysmith: no fuzz target named %s\n", RS_HARNESS);
    exit(2);
  }
  if (wants_help(*argc, *argv))
    oracle_help(stderr, &harness); /* libFuzzer's own help follows */
  /* Running files, -trace=1 comes first (a crash inside a target then
   * shows its stage), so that a -trace= of the user's wins. */
  char *flags[MAX_FLAGS + 2] = {(*argv)[0], "-trace=1"};
  int nflags = take_flags(argc, *argv, harness.target, flags + 2);
  read_engine_args(*argc, *argv);
  char **init = nfiles ? flags : flags + 1; /* init[0] is not read */
  if (!oracle_init(&config, &harness, nflags + 2 - (nfiles == 0), init, err, sizeof err)) {
    fprintf(stderr, "relaysmith: %s\n", err);
    exit(2);
  }
  char env[CMD_MAX] = ""; /* the flags as they are: no shell reads it */
  append_arg(command, (*argv)[0]);
  for (int i = 2; i < nflags + 2; i++) {
    size_t n = strlen(env);
    snprintf(env + n, sizeof env - n, "%s%s", n ? " " : "", flags[i]);
    if (rs_options_flag(flags[i]) && !rs_flag_value(flags[i], "known"))
      continue; /* how it searched, not what fails (-known= is: it skips failures) */
    append_arg(command, flags[i]);
    check_flags[ncheck_flags++] = flags[i];
    flagged |= chooses(flags[i], harness.target->flag);
  }
  setenv("RELAYSMITH_FLAGS", env, 1);
  rs_apply_defaults(argc, argv);
  if (!(&rs_standalone_file && rs_standalone_file))
    watchdog_start(*argc, *argv);
  oracle_describe(&config, err, sizeof err);
  fprintf(stderr, "relaysmith: %s\n", err);
  known_load();
  return 0;
}

/* --------------------------------------------------------------- inputs */

static uint32_t rol(uint32_t x, int k) {
  return x << k | x >> (32 - k);
}

/* SHA-1 of data in hex: libFuzzer saves an input as crash-<this>. */
static void sha1_hex(const uint8_t *data, size_t n, char out[41]) {
  uint32_t h[5] = {0x67452301, 0xefcdab89, 0x98badcfe, 0x10325476, 0xc3d2e1f0};
  uint64_t bits = (uint64_t)n * 8;
  size_t total = ((n + 8) / 64 + 1) * 64; /* data, 0x80, zeros, bits */
  for (size_t off = 0; off < total; off += 64) {
    uint32_t w[80];
    for (int i = 0; i < 64; i++) {
      size_t k = off + (size_t)i;
      uint32_t b = k < n            ? data[k]
                   : k == n         ? 0x80
                   : k >= total - 8 ? (uint8_t)(bits >> (8 * (total - 1 - k)))
                                    : 0;
      w[i / 4] = (i % 4 ? w[i / 4] : 0) | b << (24 - 8 * (i % 4));
    }
    for (int i = 16; i < 80; i++)
      w[i] = rol(w[i - 3] ^ w[i - 8] ^ w[i - 14] ^ w[i - 16], 1);
    uint32_t a = h[0], b = h[1], c = h[2], d = h[3], e = h[4];
    for (int i = 0; i < 80; i++) {
      uint32_t f = i < 20   ? (b & c) | (~b & d)
                   : i < 40 ? b ^ c ^ d
                   : i < 60 ? (b & c) | (b & d) | (c & d)
                            : b ^ c ^ d;
      static const uint32_t k[4] = {0x5a827999, 0x6ed9eba1, 0x8f1bbcdc, 0xca62c1d6};
      uint32_t t = rol(a, 5) + f + e + k[i / 20] + w[i];
      e = d, d = c, c = rol(b, 30), b = a, a = t;
    }
    h[0] += a, h[1] += b, h[2] += c, h[3] += d, h[4] += e;
  }
  for (int i = 0; i < 5; i++)
    snprintf(out + 8 * i, 9, "%08x", h[i]);
}

/* ------------------------------------------------------------- watchdog */

/* libFuzzer reports an input that runs past -timeout from a SIGALRM
 * handler that allocates; when the alarm lands inside malloc (glibc's, in
 * the builds without ASan) the handler waits for a lock its own thread
 * holds, for ever, and under -fork= the parent waits for that job for
 * ever too (a 200,000-run soak stopped so, inside affine-loop-fusion).
 * This thread notices an input still running at twice -timeout plus 10 s,
 * saves it as <artifact prefix>timeout-<sha1> and ends the process with
 * libFuzzer's timeout status (70), with no malloc on the way. */
static const uint8_t *volatile running; /* the input now running, or NULL */
static volatile size_t running_size;
static volatile time_t running_since;
static long watchdog_after; /* seconds; 0: no watchdog */

/* s appended to buf (of cap bytes) at *n, without malloc. */
static void put_str(char *buf, size_t cap, size_t *n, const char *s) {
  while (*s && *n + 1 < cap)
    buf[(*n)++] = *s++;
  buf[*n] = 0;
}

/* Not instrumented for coverage: its loop runs once a second, beside the
 * input, and counters it touched would make what libFuzzer sees of an
 * input depend on the time (a seeded run finds another crash from one
 * run to the next). */
#if defined(__clang__)
#define NO_COVERAGE __attribute__((no_sanitize("coverage")))
#else
#define NO_COVERAGE
#endif
NO_COVERAGE static void *watchdog(void *unused) {
  (void)unused;
  for (;;) {
    sleep(1);
    const uint8_t *data = running;
    time_t since = running_since;
    if (!data || time(NULL) - since < watchdog_after)
      continue;
    static char path[4200], sha[41];
    size_t n = 0;
    sha1_hex(data, running_size, sha);
    put_str(path, sizeof path, &n, exact_artifact_path ? "" : artifact_prefix);
    put_str(path, sizeof path, &n, exact_artifact_path ? exact_artifact_path : "timeout-");
    if (!exact_artifact_path)
      put_str(path, sizeof path, &n, sha);
    int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
    bool saved = fd >= 0 && write(fd, data, running_size) == (ssize_t)running_size;
    if (fd >= 0)
      close(fd);
    static char msg[4400];
    n = 0;
    put_str(msg, sizeof msg, &n,
            "==relaysmith== watchdog: an input ran past twice -timeout and "
            "libFuzzer's timeout report did not come (its alarm handler "
            "is stuck in malloc); ");
    put_str(msg, sizeof msg, &n, saved ? "the input is in " : "could not write ");
    put_str(msg, sizeof msg, &n, path);
    put_str(msg, sizeof msg, &n, "\n");
    ssize_t w = write(2, msg, n);
    (void)w;
    _exit(70);
  }
  return NULL;
}

/* Start the watchdog for the last -timeout=N of argv (N > 0). */
static void watchdog_start(int argc, char **argv) {
  long timeout = 0;
  for (int i = 1; i < argc; i++)
    if (!strncmp(argv[i], "-timeout=", 9))
      timeout = atol(argv[i] + 9);
  pthread_t t;
  watchdog_after = 2 * timeout + 10;
  if (timeout > 0 && pthread_create(&t, NULL, watchdog, NULL) == 0)
    pthread_detach(t);
}

/* The input file (of those argv names) that holds exactly data, or NULL. */
static const char *file_holding(const uint8_t *data, size_t size) {
  for (int i = 0; i < nfiles; i++) {
    FILE *f = fopen(files[i], "rb");
    bool same = f != NULL;
    for (size_t k = 0; same && k < size; k++)
      same = getc(f) == data[k];
    same = same && getc(f) == EOF;
    if (f)
      fclose(f);
    if (same)
      return files[i];
  }
  return NULL;
}

/* The command that reproduces a failure of data: this binary, our flags,
 * -max_len= when data is longer than the default, and the file the input
 * is in, or is about to be saved in (into path).
 * True when the input is in a file already. */
static bool reproduce_command(const uint8_t *data, size_t size, char *out, char path[4096]) {
  const char *file =
      &rs_standalone_file && rs_standalone_file ? rs_standalone_file : file_holding(data, size);
  if (file) {
    snprintf(path, 4096, "%s", file);
  } else if (exact_artifact_path) {
    snprintf(path, 4096, "%s", exact_artifact_path);
  } else {
    char sha[41];
    sha1_hex(data, size, sha);
    snprintf(path, 4096, "%scrash-%s", artifact_prefix, sha);
  }
  snprintf(out, CMD_MAX, "%s", command);
  /* A file longer than the default -max_len= (a run with -max_len=4096
   * finds them) is cut to it when run alone: the command says its size. */
  long long cut = rs_default_max_len();
  if (cut && (long long)size > cut) {
    char flag[48];
    snprintf(flag, sizeof flag, "-max_len=%zu", size);
    append_arg(out, flag);
  }
  append_arg(out, path);
  return file != NULL;
}

/* Run on file, the input passed: say what ran, and that a crash found
 * with other flags needs them (those its sidecar has, when it has one). */
static void say_passed(const Verdict *v, const char *file) {
  char what[1024];
  oracle_describe(&config, what, sizeof what);
  if (config.check == ORACLE_PIPELINE && !config.pipeline.n) {
    size_t n = (size_t)snprintf(what, sizeof what,
                                "policy %s, %s chosen by its header:", config.policy->name,
                                config.target->flag);
    for (int i = 0; i < v->pipeline.n && n < sizeof what; i++)
      n += (size_t)snprintf(what + n, sizeof what - n, "%s%s", i ? "," : " ",
                            v->pipeline.stage[i].name);
  }
  fprintf(stderr, "relaysmith: no failure: every oracle holds (%s)\n", what);
  if (config.check == ORACLE_PIPELINE && !config.fixed && !flagged)
    fprintf(stderr,
            "relaysmith: a crash found with -%s= or -policy= reproduces only with the same "
            "flags: the last line of its report is the command\n",
            config.target->flag);
  char line[CMD_MAX];
  const char *name, *found[MAX_FLAGS];
  int n = file ? rs_sidecar_read(file, line, sizeof line, &name, found, MAX_FLAGS) : -1;
  if (n < 0)
    return;
  fprintf(stderr, "relaysmith: %s.flags says it was found by %s", file, name);
  for (int i = 0; i < n; i++)
    fprintf(stderr, " %s", found[i]);
  fprintf(stderr, " (relaysmith run, reduce, triage and scripts/repro read it)\n");
}

/* ------------------------------------------------------------ known bugs */

enum { MAX_KNOWN = 256 };
static char *known[MAX_KNOWN];     /* signature patterns (* matches any text) */
static long known_hits[MAX_KNOWN]; /* failures each pattern skipped */
static int nknown;
static long nskipped;

/* Does text match pattern p, where * matches any run of characters? */
static bool glob(const char *p, const char *text) {
  if (!*p)
    return !*text;
  if (*p == '*')
    return glob(p + 1, text) || (*text && glob(p, text + 1));
  return *p == *text && glob(p + 1, text + 1);
}

/* The list used without -known=: <harness>.known beside the binary when
 * there is one (the ClusterFuzzLite build ships it so), else the source
 * tree's list the build named (RS_KNOWN_BUGS), else none. */
static const char *known_default(char *buf, size_t cap) {
  char exe[4096];
  ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
  char *slash = n > 0 ? (exe[n] = 0, strrchr(exe, '/')) : NULL;
  if (slash) {
    *slash = 0;
    snprintf(buf, cap, "%s/%s.known", exe, harness.name);
    if (access(buf, R_OK) == 0)
      return buf;
  }
#ifdef RS_KNOWN_BUGS
  return RS_KNOWN_BUGS;
#else
  return NULL;
#endif
}

static void known_load(void) {
  static char beside[4200];
  const char *path = config.opt.known[0] ? config.opt.known : known_default(beside, sizeof beside);
  FILE *f = path && strcmp(path, "none") != 0 ? fopen(path, "r") : NULL;
  char line[1024];
  while (f && nknown < MAX_KNOWN && fgets(line, sizeof line, f)) {
    line[strcspn(line, "\t\n")] = 0;
    if (line[0] && line[0] != '#')
      known[nknown++] = strdup(line);
  }
  if (f) {
    fclose(f);
    fprintf(stderr, "relaysmith: %d known bugs (%s) are skipped and counted\n", nknown, path);
  }
}

/* At exit: the failures skipped, in all and by each rule that skipped any. */
static void known_report(void) {
  fprintf(stderr, "relaysmith: %ld failures skipped as known bugs\n", nskipped);
  for (int i = 0; i < nknown; i++)
    if (known_hits[i])
      fprintf(stderr, "relaysmith:   %ld by rule %d: %s\n", known_hits[i], i + 1, known[i]);
}

/* Is v's failure one of the known bugs?  Says so, for the first ones. */
static bool known_bug(const Verdict *v) {
  char sig[1024];
  verdict_signature(v, sig, sizeof sig);
  for (int i = 0; i < nknown; i++)
    if (glob(known[i], sig)) {
      known_hits[i]++;
      if (nskipped++ < 10)
        fprintf(stderr, "relaysmith: known bug skipped: %s\n", sig);
      if (nskipped == 1)
        atexit(known_report);
      return true;
    }
  return false;
}

/* The report of v, as printed, also in PATH.report beside the crash file:
 * with -fork= libFuzzer keeps a failing job's output only while it runs. */
static void report_write(const char *path, const Verdict *v, const char *cmd) {
  char name[4200];
  snprintf(name, sizeof name, "%s.report", path);
  FILE *f = fopen(name, "w");
  if (!f) {
    fprintf(stderr, "relaysmith: cannot write %s\n", name);
    return;
  }
  oracle_report_files(f, &config, v, cmd, v->nfiles ? path : NULL);
  fclose(f);
  fprintf(stderr, "relaysmith: the report is also in %s\n", name);
}

/* ----------------------------------------------------------- text input */

/* A Relay text program (it starts with TVM's `#[version`) among the files
 * argv names, e.g. one `relaysmith reduce` wrote, for a target of passes
 * or stages (not kernel_fuzzer, typecheck_fuzzer or reject_fuzzer, whose
 * inputs are choice streams of their own): parsed, not decoded, with the
 * pipeline the flag gives (else the one an empty header chooses) and
 * @main's arguments seeded by its bytes.  Never while fuzzing: a mutated
 * input is always a choice stream. */
static bool relay_text(const uint8_t *data, size_t size) {
  return nfiles && config.check == ORACLE_PIPELINE && size >= sizeof RS_RELAY_TEXT_MAGIC - 1 &&
         !memcmp(data, RS_RELAY_TEXT_MAGIC, sizeof RS_RELAY_TEXT_MAGIC - 1);
}

/* The program of the text input ctx (NUL-terminated), parsed again at
 * each call (the check makes the program more than once); a text that does
 * not parse, is not well formed or does not type check is not a program
 * to check: say why, with its position, and stop. */
static Module *parse_input(void *ctx) {
  const char *text = ctx;
  Diag d;
  diag_init(&d, "input", text);
  Module *m = ir_parse_module(text, strlen(text), "input", &d);
  if (!m || !ir_well_formed(m, &d) || !ty_check_module(m, &d)) {
    fprintf(stderr, "relaysmith: the Relay text input is not a valid program:\n%s",
            d.text ? d.text : "");
    _exit(1); /* not exit: libFuzzer would call it a crash */
  }
  diag_free(&d);
  GlobalFn *main = ir_global_get(m, "main");
  for (int i = 0; main && i < main->func->func.nparams; i++)
    if (ir_type_has_any(main->func->func.params[i]->type)) {
      fprintf(stderr,
              "relaysmith: @main's parameter %%%s has a `?` dim: the check makes "
              "@main's arguments, so their shapes must be static (a `?` inside the "
              "program is fine)\n",
              main->func->func.params[i]->name);
      _exit(1); /* not exit: libFuzzer would call it a crash */
    }
  return m;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  Verdict v;
  OracleInput in = {.data = data, .size = size};
  char *text = NULL;
  if (relay_text(data, size)) {
    text = malloc(size + 1);
    memcpy(text, data, size);
    text[size] = 0;
    in = (OracleInput){.make = parse_input, .ctx = text, .seed = oracle_input_seed(data, size)};
  }
  running_size = size;
  running_since = time(NULL);
  running = data;
#ifdef RS_TEST_PASSES
  if (config.fault == FAULT_HARNESS_STUCK) {
    sigset_t alarm;
    sigemptyset(&alarm);
    sigaddset(&alarm, SIGALRM);
    sigprocmask(SIG_BLOCK, &alarm, NULL);
    for (;;)
      pause();
  }
#endif
  bool ok = oracle_check(&config, &in, &v);
  running = NULL;
  free(text);
  if (!ok && !known_bug(&v)) {
    static char cmd[CMD_MAX], path[4096];
    bool saved = reproduce_command(data, size, cmd, path);
    if (v.nfiles)
      oracle_write_files(&v, path, stderr);
    if (!saved) { /* libFuzzer is about to save it: its flags and report go next to it */
      rs_sidecar_write(path, harness.name, ncheck_flags, check_flags, stderr);
      report_write(path, &v, cmd);
    }
    oracle_report_files(stderr, &config, &v, cmd, v.nfiles ? path : NULL);
    abort();
  }
  /* libFuzzer may run an input twice (the second time to look for a
   * leak): say it once. */
  static uint64_t said = 0;
  uint64_t key = oracle_input_seed(data, size) ^ size << 40;
  if (nfiles && key != said && !v.failed) {
    const char *file =
        &rs_standalone_file && rs_standalone_file ? rs_standalone_file : file_holding(data, size);
    say_passed(&v, file), said = key;
  }
  verdict_free(&v);
  return 0;
}

/* The policy the custom mutator decodes with (harnesses/custom_mutator.c). */
const char *rs_target_policy(void) {
  return config.policy ? config.policy->name : NULL;
}

/* The options the custom mutator reads (oracle/options.h). */
const RsOptions *rs_target_options(void) {
  return &config.opt;
}
