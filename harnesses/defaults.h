/*
 * defaults.h - a fuzz target's own libFuzzer defaults: the [libfuzzer]
 * section of its harnesses/options/<name>.options (the file
 * ClusterFuzzLite reads), compiled in as RS_FUZZ_DEFAULTS ("-max_len=1024
 * -timeout=10"; harnesses/targets.cmake), so that they hold however the
 * binary is started: `./pass_fuzzer -max_total_time=3600` as well as
 * scripts/fuzz.  A flag the user gives wins.  Included by the harnesses
 * that define LLVMFuzzerInitialize.
 */
#ifndef RS_HARNESS_DEFAULTS_H
#define RS_HARNESS_DEFAULTS_H

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

/* The file the standalone driver runs (harnesses/standalone_main.c);
 * absent under libFuzzer. */
extern const char *rs_standalone_file __attribute__((weak));

/* Warn about each file named in argv (an input run once, not a corpus
 * directory) longer than the last -max_len=N: libFuzzer runs only its
 * first N bytes, and says nothing. */
static inline void rs_warn_long_inputs(int argc, char **argv) {
  long long max_len = 0;
  for (int i = 1; i < argc; i++)
    if (!strncmp(argv[i], "-max_len=", 9))
      max_len = atoll(argv[i] + 9);
  struct stat st;
  for (int i = 1; i < argc && max_len > 0; i++)
    if (argv[i][0] != '-' && stat(argv[i], &st) == 0 && S_ISREG(st.st_mode) && st.st_size > max_len)
      fprintf(stderr,
              "relaysmith: warning: %s has %lld bytes, more than -max_len=%lld: only its "
              "first %lld run (give -max_len=%lld to run all of it)\n",
              argv[i], (long long)st.st_size, max_len, max_len, (long long)st.st_size);
}

/* How a Relay text input begins (TVM's version line): the harness parses
 * such a file instead of decoding it. */
#define RS_RELAY_TEXT_MAGIC "#[version"

/* The size of the largest Relay text file (it starts with `#[version`)
 * that argv names, or 0: a text cut at -max_len would not parse, so the
 * default -max_len grows to hold it (the user's own -max_len still wins). */
static inline long long rs_longest_text_input(int argc, char **argv) {
  long long longest = 0;
  struct stat st;
  for (int i = 1; i < argc; i++) {
    char head[sizeof RS_RELAY_TEXT_MAGIC - 1];
    FILE *f = argv[i][0] != '-' && stat(argv[i], &st) == 0 && S_ISREG(st.st_mode)
                  ? fopen(argv[i], "rb")
                  : NULL;
    if (f && fread(head, 1, sizeof head, f) == sizeof head &&
        !memcmp(head, RS_RELAY_TEXT_MAGIC, sizeof head) && st.st_size > longest)
      longest = st.st_size;
    if (f)
      fclose(f);
  }
  return longest;
}

/* The -max_len=N of RS_FUZZ_DEFAULTS: what libFuzzer cuts a file to when
 * it is run with no -max_len= of its own; 0 without one (the standalone
 * driver and AFL++'s read the whole file). */
static inline long long rs_default_max_len(void) {
#if defined(RS_FUZZ_DEFAULTS) && !defined(RS_AFL_DRIVER)
  const char *f = strstr(RS_FUZZ_DEFAULTS, "-max_len=");
  if (&rs_standalone_file && rs_standalone_file)
    return 0;
  return f ? atoll(f + 9) : 0;
#else
  return 0;
#endif
}

/* Put the defaults the user did not give at the front of *argv (libFuzzer
 * parses argv after LLVMFuzzerInitialize; argv[0] stays as it was) and
 * say which on stderr; then warn about input files longer than -max_len
 * (rs_warn_long_inputs).  Nothing for the standalone driver, which has no
 * such flags, or AFL++'s driver, which reads arguments its own way. */
static inline void rs_apply_defaults(int *argc, char ***argv) {
#if defined(RS_FUZZ_DEFAULTS) && !defined(RS_AFL_DRIVER)
  if (&rs_standalone_file)
    return;
  enum { MAX_DEFAULTS = 16 };
  static char text[] = RS_FUZZ_DEFAULTS;
  static char **grown; /* the new argv, for the life of the process */
  static char text_max_len[32];
  char *add[MAX_DEFAULTS];
  int nadd = 0;
  for (char *f = strtok(text, " "); f && nadd < MAX_DEFAULTS; f = strtok(NULL, " ")) {
    size_t key = strcspn(f, "=") + 1; /* "-max_len=" */
    bool given = false;
    for (int i = 1; i < *argc && !given; i++)
      given = strncmp((*argv)[i], f, key) == 0;
    long long longest = strncmp(f, "-max_len=", 9) ? 0 : rs_longest_text_input(*argc, *argv);
    if (!given && longest && longest > atoll(f + 9) && longest < (1ll << 30)) {
      snprintf(text_max_len, sizeof text_max_len, "-max_len=%lld", longest);
      f = text_max_len;
    }
    if (!given)
      add[nadd++] = f;
  }
  if (!nadd) {
    rs_warn_long_inputs(*argc, *argv);
    return;
  }
  grown = malloc(sizeof *grown * (size_t)(*argc + nadd + 1));
  if (!grown)
    abort();
  grown[0] = (*argv)[0];
  memcpy(grown + 1, add, sizeof *add * (size_t)nadd);
  memcpy(grown + 1 + nadd, *argv + 1, sizeof *grown * (size_t)(*argc - 1));
  grown[*argc + nadd] = NULL;
  *argv = grown;
  *argc += nadd;
  fprintf(stderr, "relaysmith: defaults from harnesses/options:");
  for (int i = 0; i < nadd; i++)
    fprintf(stderr, " %s", add[i]);
  fprintf(stderr, "\n");
  rs_warn_long_inputs(*argc, *argv);
#else
  (void)argc, (void)argv;
#endif
}

#endif
