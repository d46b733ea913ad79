/*
 * options.h - the user's options besides the check itself: how a fuzz
 * target searches (the span-aware mutator's modes), what it skips (known
 * bugs) and shows (stage traces), and the MLIR target's own settings.
 * Each is a flag -name=V (or --name=V), read once by oracle_init into
 * OracleConfig.opt with the check's flags (oracle.h), and handed to the
 * target (Target.configure) and the mutator (harnesses/custom_mutator.c).
 * The fuzz targets list them in -help=1; the README has the table.
 *
 * The crash-file sidecar is here too: the one line of flags a finding was
 * made with, <crash file>.flags, written by the fuzz targets and read by
 * relaysmith run, reduce, triage and scripts/repro.
 */
#ifndef RS_OPTIONS_H
#define RS_OPTIONS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

enum { RS_OPTION_PATH = 1024 };

typedef struct RsOptions {
  char known[RS_OPTION_PATH];     /* -known=FILE: the known-bug list ("none": none;
                           "": the one built in) */
  int trace;                      /* -trace=1: name each stage on stderr before it
                                     runs (-1: not given; the harness turns it on
                                     when it runs files) */
  bool byte_mutation;             /* -byte_mutation=1: libFuzzer's byte mutation only */
  int local_mutation;             /* -local_mutation=N: tries for a local mutation */
  bool random_streams;            /* -random_streams=1: random inputs, no feedback */
  int byte_share;                 /* -byte_share=N: one mutation in N is byte mutation */
  int mlir_exec;                  /* -mlir_exec=N: execute one input in N (0: none;
                                     -1: not given: 4, 1 with trace on) */
  bool mlir_counters;             /* -mlir_counters=0: the semantic counters off */
  bool mlir_stats;                /* -mlir_stats=1: print the MLIR target's counts at exit */
  char mlir_seen[RS_OPTION_PATH]; /* -mlir_seen=FILE: features seen, kept across runs */
} RsOptions;

/* The value of flag -name= (or --name=) in arg, or NULL. */
const char *rs_flag_value(const char *arg, const char *name);

/* The defaults: every option as if not given. */
void rs_options_default(RsOptions *o);

/* The length of the "-name=" (or "--name=") of arg when it is one of
 * these options, else 0. */
size_t rs_options_flag(const char *arg);

/* Set the option arg gives (rs_options_flag(arg) > 0) for a harness of
 * target target (an MLIR option only for "mlir"); false with the reason
 * in err on a bad value or an option the target does not take. */
bool rs_options_set(RsOptions *o, const char *arg, const char *target, char *err, size_t errlen);

/* Print the options target takes, one a line, for -help=1. */
void rs_options_help(FILE *f, const char *target);

/* The length of the "-name=" of arg when it names a flag of relaysmith
 * for any target (the check's, an option), else 0: for a harness that
 * takes none (parse_fuzzer). */
size_t rs_flag_any(const char *arg);

/* The crash-file sidecar: <crash>.flags, one line: the harness's name and
 * the check's flags it ran with ("pass_fuzzer -passes=bad_fold_swap").
 * Write it, saying so on log; false (after saying why) when it cannot be
 * written. */
bool rs_sidecar_write(const char *crash, const char *harness, int nflags, char *const *flags,
                      FILE *log);

/* Read crash's sidecar into line (of cap bytes), and split it into words:
 * *harness the first, flags[0..n) the rest (pointers into line; at most
 * max); -1 when there is none (or it is empty), else n. */
int rs_sidecar_read(const char *crash, char *line, size_t cap, const char **harness,
                    const char **flags, int max);

#endif
