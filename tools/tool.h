/*
 * tool.h - shared pieces of the relaysmith command-line tool: argument
 * parsing helpers, the input PRNG, and the subcommands' entry points.
 * The tool is not library code: it prints, and exits with 2 on bad usage.
 */
#ifndef RS_TOOL_H
#define RS_TOOL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "compiler/ir/hash.h"
#include "generator/gen.h"
#include "oracle/options.h"

/* The tool's source of random inputs. */
static inline uint64_t tool_rand(uint64_t *s) {
  return hash_splitmix64(s);
}

/* Fill buf with n random bytes. */
void tool_fill(uint64_t *s, uint8_t *buf, size_t n);

/* Report a usage error for subcommand cmd and return 2. */
int tool_usage_error(const char *cmd, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* Parse a non-negative integer option value; false when malformed. */
bool tool_parse_u64(const char *s, uint64_t *out);

/* The policy named name, or NULL after printing the known names. */
const GenPolicy *tool_policy(const char *cmd, const char *name);

/* Print the registered policies, one per line, for help texts. */
void tool_list_policies(FILE *f);

/* Write n bytes to path; false (after printing why) on failure. */
bool tool_write_file(const char *path, const void *data, size_t n);

/* Whether path can be written (opened for appending; a file made only
 * for the test is removed); false after printing why. */
bool tool_can_write(const char *path);

/* Read a whole file; NULL (after printing why) on failure. */
uint8_t *tool_read_file(const char *path, size_t *len);

double tool_now(void); /* monotonic seconds */
double tool_cpu(void); /* this thread's CPU seconds */

/* relaysmith's flag at argv[*i] for the check (-passes=, --passes=,
 * -policy=, --policy NAME, -fault=, ...: every flag the fuzz targets take,
 * oracle/options.h's rs_flag_any) as a malloc'd "-name=V", *i moved past
 * a value given as the next argument; NULL when argv[*i] is none of them
 * (or its value is missing). */
char *tool_check_flag(int argc, char **argv, int *i);

/* The flags a harness runs a crash file with, for oracle_init. */
typedef struct ToolFlags {
  char buf[8192]; /* the words */
  char *argv[64]; /* argv[0] a placeholder, then the flags */
  int argc;
  char desc[4096]; /* "HARNESS FLAGS...", for messages */
  bool sidecar;    /* some came from the crash file's sidecar */
} ToolFlags;

/* The harness crash's sidecar (<crash>.flags, written by the fuzz target
 * that found it) names, into buf; NULL when it has none. */
const char *tool_sidecar_harness(const char *crash, char *buf, size_t cap);

/* Into f, the flags harness (whose target flag is flag) runs crash with:
 * those crash's sidecar holds when it names harness (crash may be NULL),
 * then given[0..n) (the later wins), each -passes= or -pipeline= spelt
 * -<flag>=. */
void tool_flags(ToolFlags *f, const char *harness, const char *flag, const char *crash,
                char *const *given, int n);

enum { TOOL_SIG_MAX = 512 };
/* The signature of a failure into sig ("" when it is none), from a run's
 * stderr text and how it ended (a waitpid status, or killed after its
 * timeout): the oracle and pass of a relaysmith report; the kind and top
 * 3 frames of a sanitizer report; an assertion; timeout; signal; exit. */
void tool_signature(const char *err, int status, bool timed_out, char sig[TOOL_SIG_MAX]);

/* What a child run printed on stderr (its first 256 KiB) and how it
 * ended. */
typedef struct ToolChild {
  char *err; /* malloc'd, NUL-terminated */
  size_t n;
  int status;     /* waitpid's */
  bool timed_out; /* killed after the timeout */
} ToolChild;

/* Run body(ctx) in a forked child with its stderr captured into r, killed
 * after timeout seconds; body ends the child (_exit or abort). */
void tool_run_child(void (*body)(void *ctx), void *ctx, double timeout, ToolChild *r);

int cmd_gen(int argc, char **argv);    /* gen.c */
int cmd_decode(int argc, char **argv); /* gen.c */
int cmd_stats(int argc, char **argv);
/* relaysmith stats --mutations (mutstats.c). */
int cmd_stats_mutations(int argc, char **argv);
int cmd_run(int argc, char **argv);
int cmd_seeds(int argc, char **argv);
int cmd_bench(int argc, char **argv);  /* bench.c */
int cmd_reduce(int argc, char **argv); /* reduce.c */
int cmd_triage(int argc, char **argv); /* reduce.c */
int cmd_report(int argc, char **argv); /* report.c */

#endif
