/*
 * options.c - the user's options (options.h): one table, from which the
 * flags are recognised, parsed and documented; and the crash-file
 * sidecar's writer and reader, side by side.
 */
#include "options.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

/* An option's value: 0 or 1 into a bool, or into an int (-1 until given);
 * a number N >= 0; a file name. */
typedef enum { OPT_BOOL, OPT_SWITCH, OPT_COUNT, OPT_FILE } OptKind;

/* Every option: its flag, its kind, where it goes, the target that takes
 * it (NULL: any), the value its help shows, and its line of help. */
static const struct {
  const char *name;
  OptKind kind;
  size_t off;
  const char *target, *shown, *doc;
} options[] = {
    {"known", OPT_FILE, offsetof(RsOptions, known), NULL, "FILE",
     "skip (and count) failures whose signature matches a line of FILE, "
     "\"SIGNATURE<tab>note\", * matching any text; none: no list (default: the "
     "target's own list, if it has one)"},
    {"trace", OPT_SWITCH, offsetof(RsOptions, trace), NULL, "1",
     "name each stage on stderr before it runs; MLIR: also the translation and each "
     "schedule (on when the target runs files)"},
    {"byte_mutation", OPT_BOOL, offsetof(RsOptions, byte_mutation), NULL, "1",
     "mutator: libFuzzer's byte mutation only, no span-aware mutation"},
    {"local_mutation", OPT_COUNT, offsetof(RsOptions, local_mutation), NULL, "N",
     "mutator: up to N more tries for a mutation that keeps the program outside "
     "its span (default 0)"},
    {"random_streams", OPT_BOOL, offsetof(RsOptions, random_streams), NULL, "1",
     "mutator: every input a fresh random byte string: no feedback steers the search"},
    {"byte_share", OPT_COUNT, offsetof(RsOptions, byte_share), NULL, "N",
     "mutator: one mutation in N is libFuzzer's byte mutation of the whole input "
     "(default 0: none)"},
    {"mlir_exec", OPT_COUNT, offsetof(RsOptions, mlir_exec), "mlir", "N",
     "execute one input in N against the interpreter (0: none; default 4, 1 when "
     "the target runs files)"},
    {"mlir_counters", OPT_BOOL, offsetof(RsOptions, mlir_counters), "mlir", "0",
     "0: keep the semantic-feature counters at zero (feedback off; default 1)"},
    {"mlir_stats", OPT_BOOL, offsetof(RsOptions, mlir_stats), "mlir", "1",
     "print the features, refusals, executions and defects at exit"},
    {"mlir_seen", OPT_FILE, offsetof(RsOptions, mlir_seen), "mlir", "FILE",
     "keep the set of features seen in FILE across runs (read at the start, "
     "written every 50 programs)"},
};
enum { NOPTIONS = sizeof options / sizeof *options };

const char *rs_flag_value(const char *a, const char *name) {
  if (a[0] != '-')
    return NULL;
  a += a[1] == '-' ? 2 : 1;
  size_t n = strlen(name);
  return strncmp(a, name, n) == 0 && a[n] == '=' ? a + n + 1 : NULL;
}

/* The option arg sets, or -1. */
static int option_of(const char *arg, const char **value) {
  for (int i = 0; i < NOPTIONS; i++)
    if ((*value = rs_flag_value(arg, options[i].name)))
      return i;
  return -1;
}

void rs_options_default(RsOptions *o) {
  memset(o, 0, sizeof *o);
  o->trace = -1;
  o->mlir_exec = -1;
  o->mlir_counters = true;
}

size_t rs_options_flag(const char *arg) {
  const char *v;
  return option_of(arg, &v) >= 0 ? (size_t)(v - arg) : 0;
}

/* Parse v as option k's value into o; false when malformed. */
static bool parse_value(RsOptions *o, int k, const char *v) {
  char *at = (char *)o + options[k].off, *end;
  if (options[k].kind == OPT_FILE) {
    if (!*v || strlen(v) >= RS_OPTION_PATH)
      return false;
    snprintf(at, RS_OPTION_PATH, "%s", v);
    return true;
  }
  errno = 0;
  long n = strtol(v, &end, 10);
  bool onoff = options[k].kind != OPT_COUNT;
  if (end == v || *end || errno || n < 0 || n > (onoff ? 1 : 1000000))
    return false;
  if (options[k].kind == OPT_BOOL)
    *(bool *)(void *)at = n != 0;
  else
    *(int *)(void *)at = (int)n;
  return true;
}

bool rs_options_set(RsOptions *o, const char *arg, const char *target, char *err, size_t errlen) {
  const char *v;
  int k = option_of(arg, &v);
  if (k < 0) {
    snprintf(err, errlen, "%s: not an option", arg);
    return false;
  }
  if (options[k].target && strcmp(options[k].target, target) != 0) {
    snprintf(err, errlen, "-%s= is an option of the %s target only", options[k].name,
             options[k].target);
    return false;
  }
  if (parse_value(o, k, v))
    return true;
  snprintf(err, errlen, "-%s=%s: give %s", options[k].name, v,
           options[k].kind == OPT_COUNT  ? "a number N >= 0"
           : options[k].kind == OPT_FILE ? "a file name"
                                         : "0 or 1");
  return false;
}

void rs_options_help(FILE *f, const char *target) {
  for (int i = 0; i < NOPTIONS; i++) {
    if (options[i].target && strcmp(options[i].target, target) != 0)
      continue;
    char flag[64];
    snprintf(flag, sizeof flag, "-%s=%s", options[i].name, options[i].shown);
    fprintf(f, "  %-20s %s\n", flag, options[i].doc);
  }
}

size_t rs_flag_any(const char *arg) {
  /* The check's flags (oracle_init) and the targets' pipeline flags. */
  static const char *const check[] = {"passes", "pipeline",     "policy",
                                      "allow",  "differential", "fault"};
  for (size_t i = 0; i < sizeof check / sizeof *check; i++) {
    const char *v = rs_flag_value(arg, check[i]);
    if (v)
      return (size_t)(v - arg);
  }
  return rs_options_flag(arg);
}

/* ------------------------------------------------------------- sidecar */

bool rs_sidecar_write(const char *crash, const char *harness, int nflags, char *const *flags,
                      FILE *log) {
  char path[4096];
  snprintf(path, sizeof path, "%s.flags", crash);
  FILE *f = fopen(path, "w");
  bool ok = f != NULL;
  if (f) {
    fputs(harness, f);
    for (int i = 0; i < nflags; i++)
      fprintf(f, " %s", flags[i]);
    fputc('\n', f);
    ok = fclose(f) == 0;
  }
  fprintf(log, ok ? "relaysmith: flags: %s\n" : "relaysmith: cannot write %s\n", path);
  return ok;
}

int rs_sidecar_read(const char *crash, char *line, size_t cap, const char **harness,
                    const char **flags, int max) {
  char path[4096];
  snprintf(path, sizeof path, "%s.flags", crash);
  FILE *f = fopen(path, "r");
  if (!f)
    return -1;
  bool got = fgets(line, (int)cap, f) != NULL;
  fclose(f);
  int n = -1;
  for (char *w = got ? strtok(line, " \t\r\n") : NULL; w; w = strtok(NULL, " \t\r\n")) {
    if (n < 0)
      *harness = w;
    else if (n < max)
      flags[n] = w;
    n += n < max;
  }
  return n;
}
