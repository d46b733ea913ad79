/*
 * mlir_text_fuzzer.c - MLIR 22's parser, verifier and a short pipeline on
 * MLIR text mutated at the level of MLIR's syntax (docs/mlir.md, "The MLIR
 * text target").
 *
 * The input is MLIR text; the seed corpus is the translator's output
 * (harnesses/corpus/mlir_text_fuzzer, scripts/mlir-text-seeds), and the
 * custom mutator rewrites it with targets/mlir/text_mutate.h (element
 * types, dims, ranks, operand order, lines, attribute values, op names
 * from MLIR's own table, SSA uses), one mutation in eight being
 * libFuzzer's byte mutation.  Each input is parsed and verified in-process
 * (targets/mlir/session.h), then, when it verifies, taken through one of
 * the short pipelines below (chosen by a hash of the text, so a file
 * always runs the same), one stage at a time with the verifier after each.
 *
 * The oracle: no crash, no hang, no sanitizer report.  A diagnostic (the
 * text does not parse, does not verify, a pass fails) is fine and never
 * printed, and a stage that leaves invalid IR ends the input's pipeline.
 * An LLVM fatal error aborts with its reason and stage (session.h).
 * Running files (a crash to reproduce) names each stage on stderr before
 * it runs, with the parser's and passes' diagnostics.
 *
 * Feedback: MLIR is not instrumented, so the session's observer feeds
 * libFuzzer's extra counters (targets/mlir/counters.c) with (stage, op),
 * (stage, producer -> op) and (stage, changed), and the text of the
 * first diagnostic (digits out) is a feature too: a new parser or
 * verifier error is new coverage.  Each feature counts once per input.
 */
#include <ctype.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "defaults.h"
#include "no_flags.h"
#include "targets/mlir/session.h"
#include "targets/mlir/target_mlir.h"
#include "targets/mlir/text_mutate.h"

/* libFuzzer's byte mutation; absent (NULL) with the standalone driver
 * (the release and gcc presets), which never calls the custom mutator. */
size_t LLVMFuzzerMutate(uint8_t *data, size_t size, size_t max_size) __attribute__((weak));

static size_t byte_mutate(uint8_t *data, size_t size, size_t max_size) {
  return LLVMFuzzerMutate ? LLVMFuzzerMutate(data, size, max_size) : size;
}

#define N(a) (int)(sizeof a / sizeof *a)

#define TO_LINALG                                                                                  \
  "func.func(tosa-to-scf,tosa-optional-decompositions,tosa-infer-shapes,tosa-make-broadcastable,"  \
  "tosa-to-linalg-named,tosa-to-linalg,tosa-to-arith,tosa-to-tensor,"                              \
  "convert-elementwise-to-linalg)"
#define BUFFERIZE                                                                                  \
  "builtin.module(one-shot-bufferize{bufferize-function-boundaries "                               \
  "function-boundary-type-conversion=identity-layout-map},buffer-deallocation-pipeline,"           \
  "convert-bufferization-to-memref)"

/* The short pipelines, one stage per string (NULL ends a pipeline's list):
 * TOSA-level rewrites, TOSA to linalg, linalg on tensors, bufferization.
 * No stage holds a pass that crashes on most inputs with a bug already
 * known (target.c's known_crashes). */
static const char *const pipelines[][5] = {
    {"builtin.module(canonicalize,cse)", "builtin.module(" TO_LINALG ")",
     "builtin.module(canonicalize,cse,func.func(linalg-fuse-elementwise-ops))", BUFFERIZE, NULL},
    {"builtin.module(func.func(tosa-optional-decompositions,tosa-infer-shapes,"
     "tosa-layerwise-constant-fold{aggressive-reduce-constant},tosa-reduce-transposes))",
     "builtin.module(" TO_LINALG ",canonicalize)",
     "builtin.module(func.func(linalg-generalize-named-ops,linalg-fold-unit-extent-dims),"
     "canonicalize)",
     BUFFERIZE, NULL},
    {"builtin.module(inline,sccp,symbol-dce,canonicalize)",
     "builtin.module(func.func(tosa-to-scf),tosa-to-linalg-pipeline,"
     "func.func(tosa-to-arith,tosa-to-tensor,convert-elementwise-to-linalg))",
     "builtin.module(eliminate-empty-tensors,fold-tensor-subset-ops,canonicalize,cse)", BUFFERIZE,
     NULL},
    {"builtin.module(" TO_LINALG ")",
     "builtin.module(func.func(linalg-detensorize{aggressive-mode}),canonicalize)",
     "builtin.module(" BUFFERIZE ",func.func(convert-linalg-to-loops,lower-affine),"
     "convert-scf-to-cf,canonicalize)",
     NULL},
};

static MlsSession *session;
static bool trace; /* running files: name the stages, show diagnostics */

/* How far the inputs got, printed at exit (docs/mlir.md's shares). */
static struct { long inputs, known, parsed, valid, failed, invalid, ran; } count;

static void print_counts(void) {
  if (!trace)
    fprintf(stderr,
            "mlir_text_fuzzer: %ld inputs: %ld skipped (a known crash), %ld parsed and verified "
            "(%ld valid TOSA); of those %ld ran the whole pipeline, %ld stopped at a diagnostic, "
            "%ld at invalid IR after a stage\n",
            count.inputs, count.known, count.parsed, count.valid, count.ran, count.failed,
            count.invalid);
}

/* The features of the input in progress: each reaches libFuzzer's
 * counters once per input, so that a counter says "seen", not "seen N
 * times" (libFuzzer would take every new count bucket, e.g. one more
 * tosa.add, for new coverage and keep the input). */
static uint8_t this_input[RS_MLIR_NCOUNTERS / 8];

static void feed(uint32_t hash) {
  uint32_t i = hash % RS_MLIR_NCOUNTERS;
  if (rs_mlir_count && !(this_input[i / 8] & (1u << (i % 8)))) {
    this_input[i / 8] |= (uint8_t)(1u << (i % 8));
    rs_mlir_count(hash);
  }
}

static void on_feature(void *ud, const MlsFeature *f) {
  (void)ud;
  feed(f->hash);
}

/* The first line of the last diagnostic, digits out, hashed with the
 * stage: a feature per kind of parser, verifier or pass error. */
static void count_diag(uint32_t stage) {
  uint32_t h = stage ^ 0x9747b28cu;
  const char *d = mls_diag(session);
  const char *msg = strstr(d, "error: ");
  for (const char *p = msg ? msg : d; *p && *p != '\n'; p++)
    if (!isdigit((unsigned char)*p))
      h = (h ^ (unsigned char)*p) * 16777619u;
  if (*d)
    feed(h);
}

static uint32_t fnv(const char *s) {
  uint32_t h = 2166136261u;
  for (; *s; s++)
    h = (h ^ (unsigned char)*s) * 16777619u;
  return h;
}

static void show(const char *what, const char *detail) {
  if (trace)
    fprintf(stderr, "mlir_text_fuzzer: %s%s%s", what, detail,
            *detail && detail[strlen(detail) - 1] == '\n' ? "" : "\n");
}

/* Running files: the mlir-opt-22 command that runs the whole pipeline. */
static void show_command(const char *const *stages) {
  static const char head[] = "builtin.module(";
  if (!trace)
    return;
  fprintf(stderr, "mlir_text_fuzzer: without relaysmith: mlir-opt-22 --pass-pipeline='%s", head);
  for (int i = 0; stages[i]; i++)
    fprintf(stderr, "%s%.*s", i ? "," : "", (int)(strlen(stages[i]) - sizeof head),
            stages[i] + sizeof head - 1);
  fprintf(stderr, ")' FILE\n");
}

/* The pipeline's stages on m, each verified after it; the first failure
 * (a diagnostic or invalid IR) ends it. */
static void run_pipeline(MlsModule *m, const char *const *stages) {
  for (int i = 0; stages[i]; i++) {
    show("stage: ", stages[i]);
    MlsStatus st = mls_run(session, m, stages[i]);
    count_diag(fnv(stages[i]));
    if (st != MLS_OK) {
      count.failed++;
      show("the stage failed (a diagnostic, fine):\n", mls_diag(session));
      return;
    }
    if (!mls_verify(session, m)) {
      count.invalid++;
      show("the stage left invalid IR (the pipeline ends):\n", mls_diag(session));
      return;
    }
  }
  count.ran++;
  show("the pipeline ran", "");
}

/* ------------------------------------------------------- known crashes */

/* Parser crashes of MLIR 22.1.8 already recorded (docs/findings/
 * mlir-text.md) that mutations meet within seconds: an input that holds
 * one is skipped (counted), so that a run looks past them.  Each rule is
 * a test of one line of the text, wider than the bug where that keeps it
 * simple (named in the finding). */

static bool line_has(const char *line, size_t len, const char *word) {
  size_t n = strlen(word);
  for (size_t i = 0; i + n <= len; i++)
    if (!memcmp(line + i, word, n))
      return true;
  return false;
}

static size_t blanks(const char *line, size_t len, size_t j) {
  while (j < len && line[j] == ' ')
    j++;
  return j;
}

/* Does line[j, len) start with a list `[i, j, ...]` (maybe empty)? */
static bool int_list(const char *line, size_t len, size_t j) {
  j = blanks(line, len, j);
  if (j >= len || line[j++] != '[')
    return false;
  j = blanks(line, len, j);
  for (bool first = true; j < len && line[j] != ']'; first = false) {
    if (!first && line[j++] != ',')
      return false;
    j = blanks(line, len, j);
    j += j < len && line[j] == '-';
    if (j >= len || !isdigit((unsigned char)line[j]))
      return false;
    while (j < len && isdigit((unsigned char)line[j]))
      j++;
    j = blanks(line, len, j);
  }
  return j < len;
}

/* T1: linalg.reduce, broadcast or transpose whose `dimensions =` or
 * `permutation =` is not followed by a list `[i, j, ...]`. */
static bool bad_dims_list(const char *line, size_t len) {
  if (!line_has(line, len, "linalg.reduce") && !line_has(line, len, "linalg.broadcast") &&
      !line_has(line, len, "linalg.transpose"))
    return false;
  for (size_t i = 0; i < len; i++) {
    if (strncmp(line + i, "dimensions", 10) && strncmp(line + i, "permutation", 11))
      continue;
    size_t j = blanks(line, len, i + (line[i] == 'd' ? 10 : 11));
    if (j >= len || line[j] != '=')
      return false; /* a diagnostic, no crash */
    return !int_list(line, len, j + 1);
  }
  return false;
}

/* T2: the region builders of linalg.batch_matmul, batch_reduce_matmul
 * and elementwise with an operand that cannot be cast to the output's
 * element type (index and a float; complex, none, a vector or a dialect's
 * type such as !tosa.shape<1> as element type). */
static bool uncastable_named_op(const char *line, size_t len) {
  return (line_has(line, len, "linalg.batch_matmul") ||
          line_has(line, len, "linalg.batch_reduce_matmul") ||
          line_has(line, len, "linalg.elementwise")) &&
         (line_has(line, len, "index") || line_has(line, len, "complex") ||
          line_has(line, len, "none") || line_has(line, len, "vector") || line_has(line, len, "!"));
}

/* T3: the folders of tosa.equal, greater and greater_equal with an
 * unranked result (any such line, constant operands or not). */
static bool unranked_compare(const char *line, size_t len) {
  return (line_has(line, len, "tosa.equal") || line_has(line, len, "tosa.greater")) &&
         line_has(line, len, "-> tensor<*x");
}

/* The known crash the text holds ("T1", "T2", "T3"), or NULL. */
static const char *known_crash(const char *text) {
  for (const char *line = text; *line;) {
    size_t len = strcspn(line, "\n");
    if (bad_dims_list(line, len))
      return "T1";
    if (uncastable_named_op(line, len))
      return "T2";
    if (unranked_compare(line, len))
      return "T3";
    line += len + (line[len] != 0);
  }
  return NULL;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  if (!session) {
    session = mls_session_new(-1);
    mls_observe(session, on_feature, NULL);
    atexit(print_counts);
  }
  count.inputs++;
  memset(this_input, 0, sizeof this_input);
  char *text = malloc(size + 1);
  if (!text)
    return 0;
  memcpy(text, data, size);
  text[size] = 0;
  const char *known = known_crash(text);
  if (known) {
    count.known++;
    show("skipped: it holds a known MLIR crash (docs/findings/mlir-text.md): ", known);
    free(text);
    return 0;
  }
  MlsModule *m = mls_parse(session, text);
  count_diag(0);
  if (!m) {
    show("parse or verify failed (a diagnostic, fine):\n", mls_diag(session));
    free(text);
    return 0;
  }
  count.parsed++;
  bool valid = mls_validate(session, m);
  count.valid += valid;
  count_diag(1);
  show(valid ? "tosa-validate: valid" : "tosa-validate: not valid TOSA (fine)", "");
  uint32_t h = fnv(text);
  const char *const *stages = pipelines[h % (uint32_t)N(pipelines)];
  if (trace)
    fprintf(stderr, "mlir_text_fuzzer: pipeline %u of %d\n", h % (uint32_t)N(pipelines),
            N(pipelines));
  show_command(stages);
  run_pipeline(m, stages);
  mls_module_free(m);
  free(text);
  return 0;
}

/* One syntax-level mutation (two in half the calls), or libFuzzer's byte
 * mutation (one call in eight, or when no syntax-level mutation changed
 * anything). */
size_t LLVMFuzzerCustomMutator(uint8_t *data, size_t size, size_t max_size, unsigned int seed) {
  uint64_t rng = seed;
  char *before = mtm_next(&rng) % 8 && size ? malloc(size) : NULL;
  if (!before)
    return byte_mutate(data, size, max_size);
  memcpy(before, data, size);
  size_t len = size;
  for (int i = 0, n = 1 + (int)(mtm_next(&rng) % 4 / 2); i < n; i++)
    len = mtm_mutate((char *)data, len, max_size, (MtmKind)(mtm_next(&rng) % MTM_NKINDS), &rng);
  bool same = len == size && !memcmp(before, data, size);
  free(before);
  return same ? byte_mutate(data, size, max_size) : len;
}

/* A line of the other input put into this one, or libFuzzer's crossover's
 * stand-in (the first input's text) when it has no line to give. */
size_t LLVMFuzzerCustomCrossOver(const uint8_t *d1, size_t s1, const uint8_t *d2, size_t s2,
                                 uint8_t *out, size_t max_out, unsigned int seed) {
  uint64_t rng = seed;
  size_t len = s1 < max_out ? s1 : max_out;
  memcpy(out, d1, len);
  return mtm_splice_line((char *)out, len, max_out, (const char *)d2, s2, &rng);
}

/* harnesses/options/mlir_text_fuzzer.options holds however it is started.
 * relaysmith's flags are an error here (none applies to MLIR text); a
 * file among the arguments (a crash to reproduce) turns the trace on. */
int LLVMFuzzerInitialize(int *argc, char ***argv) {
  rs_refuse_flags(*argc, *argv, "mlir_text_fuzzer", "MLIR text");
  struct stat st;
  for (int i = 1; i < *argc; i++)
    if ((*argv)[i][0] != '-' && stat((*argv)[i], &st) == 0 && S_ISREG(st.st_mode))
      trace = true;
  rs_apply_defaults(argc, argv);
  return 0;
}
