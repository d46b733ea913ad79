/*
 * oracle.h - the one checking pipeline: bytes -> program -> compiler
 * under test -> verdict.  Every fuzz target, `relaysmith run`, `reduce`,
 * `triage` and the tests call oracle_check; nothing else runs the oracles.
 *
 * A check is one of:
 *   ORACLE_PIPELINE   the program through a target's pipeline (target.h),
 *                     with these oracles after every stage:
 *       crash          no crash, no sanitizer report; a stage's own
 *                      internal failure (TG_FAILED)
 *       (the target's) its structural checks: relayc's "well-formed" and
 *                      "type" (every surviving global keeps its type),
 *                      MLIR's verifier
 *       result         the program's result on the same arguments equals
 *                      the last one (first: relayc's interpreter on the
 *                      generated program), within what the stage's
 *                      contract allows (TgStage.allow); skipped while
 *                      either run is inconclusive or the target cannot
 *                      execute yet
 *       effects        the trace of ref effects (creations, writes and
 *                      reads, with their values) equals the last one,
 *                      within what the contract allows; an inconclusive
 *                      run's trace must agree as far as it goes
 *       round-trip     print -> parse -> print is the identity (optional)
 *       postcondition  the stage's own guarantee (optional)
 *     and after the pipeline, on one input in OracleConfig.differential
 *     whose results the target gave:
 *       differential   the same program through a second pipeline (the
 *                      one the header with its bits flipped chooses)
 *                      gives the same results, within what any stage of
 *                      either pipeline may change
 *   ORACLE_KERNEL     operator kernels: one call drawn from the input
 *                     (through the operator's sampler), its kernel against
 *                     a naive reference (oracle/naive); constant folding
 *                     and the interpreter share the kernels, so no other
 *                     check can see a kernel bug (oracles "kernel",
 *                     "relation")
 *   ORACLE_INFERENCE  type inference: a seeded subset of the generated
 *                     program's annotations erased must be inferred back
 *                     exactly, including ones only a later use gives
 *                     (deferred relations: typing.h, ty_erase_annotations).
 * Before either, the generated program must be well formed, type check
 * and run in the interpreter (oracle "generator": a generator bug).
 *
 *   ORACLE_REJECT     negative testing of relayc's front end: the break
 *                     stage (generator/breaker.h) makes one deliberate
 *                     defect in the generated program (or none), and its
 *                     text goes through the parser and the type checker:
 *       valid          a program without a defect is accepted
 *       position       a rejection's diagnostic has a position inside the
 *                      program (the checker may also accept a defect
 *                      that happens to be well typed)
 *       soundness      a program the checker accepts (defective or not)
 *                      runs without a type, shape or arity fault of the
 *                      interpreter (EV_INVALID), and every operator's
 *                      outputs have exactly the call's inferred type
 *                      (EvRun.check_types)
 *                     and, as everywhere, no crash, hang, leak or
 *                     sanitizer report.  Reports name the defect, the
 *                     checker's verdict and the oracle.
 *
 * The library never prints and never aborts: a failure is a Verdict,
 * which oracle_report prints in the format every tool parses
 * (oracle_report_signature).  Fuzz targets report and abort (harnesses/).
 *
 *   OracleConfig c;
 *   char err[512];
 *   if (!oracle_init(&c, harness, argc, argv, err, sizeof err)) ...
 *   Verdict v;
 *   if (!oracle_check(&c, &(OracleInput){.data = d, .size = n}, &v))
 *     oracle_report(stderr, &c, &v, "./pass_fuzzer crash-…");
 *   verdict_free(&v);
 */
#ifndef RS_ORACLE_H
#define RS_ORACLE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "generator/gen.h"
#include "oracle/target.h"

typedef enum OracleCheck {
  ORACLE_PIPELINE,  /* the target's pipeline and the per-stage oracles */
  ORACLE_INFERENCE, /* erased annotations inferred back (relayc's checker) */
  ORACLE_KERNEL,    /* one operator's kernel against its naive reference */
  ORACLE_REJECT,    /* near-valid programs: rejected cleanly, or sound */
} OracleCheck;

/* Deliberate bugs of the test build (-fault=NAME), one per blind spot an
 * oracle closes: each must be found by the oracle named, and is missed by
 * the others (tests/cases/oracles.cmake). */
typedef enum OracleFault {
  FAULT_NONE,
  FAULT_PRINT_DROP_ATTR,   /* print_drop_attr: the printer loses an attribute
                              (round-trip: the texts differ) */
  FAULT_PRINT_ZERO_SIGN,   /* print_zero_sign: the printer writes -0 as 0
                              (round-trip: the texts agree, the programs not) */
  FAULT_GENERATOR_SPANS,   /* generator_spans: a generator check fails on
                              `reverse` while spans are recorded, i.e. on the
                              mutator's decodes (generator: the input the
                              mutator failed on reproduces it) */
  FAULT_KERNEL_SUM_LAST,   /* kernel_sum_last: sum and mean leave out the last
                              element of each reduced block (kernel: only the
                              naive reference disagrees) */
  FAULT_RELATION_RESHAPE,  /* relation_reshape: reshape's relation rejects a
                              -1 right after a 0 (relation: the solver, which
                              never asks the relation, draws that encoding) */
  FAULT_CHECKER_CALL_RELS, /* checker_call_rels: at a call, the checker drops
                              the relations waiting on a still unknown
                              parameter type (type: only deferred inference
                              leaves one unknown until its call) */
  /* checker_poly_escape: a type variable of one polymorphic global escapes
   * into another at a call (type: only erasure exposes it) */
  FAULT_CHECKER_POLY_ESCAPE,
  /* checker_merge_rels: merging two unknown types forgets the relations
   * waiting on one of them (type: only erasure defers a relation on an
   * unknown that is merged before it is bound) */
  FAULT_CHECKER_MERGE_RELS,
  FAULT_KERNEL_CAST_F16_TRUNC,   /* kernel_cast_f16_trunc: cast from float32 to
                                    float16 truncates instead of rounding to
                                    nearest even (kernel) */
  FAULT_KERNEL_BF16_SOFTMAX_F32, /* kernel_bf16_softmax_f32: a bfloat16 softmax
                                    keeps its intermediate steps in float32
                                    (kernel) */
  /* mlir_jit_first: the MLIR target's compiled code returns its first
   * result element changed, in every pipeline: a miscompile no stage
   * explains, which no known-bug rule may skip (tests/cases/mlir_known.cmake) */
  FAULT_MLIR_JIT_FIRST,
  /* harness_stuck: the fuzz target's check blocks SIGALRM and sleeps, as
   * an input does whose timeout report deadlocked (the harness's watchdog
   * must end it: tests/cases/fuzz_watchdog.cmake) */
  FAULT_HARNESS_STUCK,
} OracleFault;

#ifdef RS_TEST_PASSES
/* Test build only: the -fault= of the check running (oracle_check sets
 * it), for the targets' own deliberate bugs. */
extern OracleFault oracle_test_fault;
#endif

/* A fuzz target binary: what its name stands for.  The table is in
 * targets/targets.c (it knows every target); pass_fuzzer_<pass> names a
 * fixed pipeline of one pass. */
typedef struct OracleHarness {
  const char *name;     /* the binary's name, e.g. "pass_fuzzer" */
  OracleCheck check;    /* what it checks */
  const Target *target; /* whose pipeline */
  const char *policy;   /* the generation policy; NULL: the target's */
  const char *pipeline; /* a fixed pipeline (the target's syntax), or NULL */
  int differential;     /* OracleConfig.differential's default */
} OracleHarness;

/* Optional callbacks that watch a pipeline check (relaysmith run shows the
 * program after chosen passes and the results): stage after stage i has
 * passed its oracles; result with each new result of the program (stage
 * -1: the reference), its verdict against the one before and why. */
typedef struct OracleObserver {
  void (*stage)(void *ctx, int i, const TgStage *s, TgProgram *p);
  void (*result)(void *ctx, int i, const EvResult *r, EvVerdict v, const char *why);
  void *ctx;
} OracleObserver;

typedef struct OracleConfig {
  OracleCheck check;
  const Target *target;
  TgPipeline pipeline;          /* the stages (none and not fixed: each
                                   input's header chooses) */
  bool fixed;                   /* the pipeline is fixed (by the harness,
                                   or by the caller) */
  const GenPolicy *policy;      /* what inputs decode with */
  int nseeds;                   /* argument seeds per result comparison (>= 1) */
  const EvTolerance *tolerance; /* NULL: the default where a stage's
                                   contract allows float changes, exact
                                   elsewhere; else this one everywhere */
  uint32_t allow;               /* TG_ALLOW_* added to every stage's
                                   contract (-allow=); float, signed_zero,
                                   error_to_value and effects together
                                   are the rules before contracts */
  int differential;             /* the differential oracle on one input
                                   in this many (0: never; -differential=) */
  OracleFault fault;
  int op_fault;            /* test build: the wrong relation to use (an
                              OpFault of compiler/ops/op.h), 0 for none */
  char harness[64];        /* the harness's name, for reports */
  OracleObserver observer; /* optional */
  RsOptions opt;           /* the user's other options (options.h) */
  int64_t fuel;            /* the interpreter's fuel per run of the result
                              oracle; 0: the default (200,000 steps) */
} OracleConfig;

/* Set c up for harness h, then read our flags out of argv (they may stand
 * anywhere, also after -ignore_remaining_args=1, so -jobs/-fork children
 * keep them): -<target flag>=LIST (-passes= for relayc), -policy=NAME,
 * -allow=LIST (allowances added to every stage's contract: float,
 * signed_zero, error_to_value, drop_reads, effects), -differential=N
 * (the differential oracle on one input in N; 0: off), -fault=NAME (test
 * build), and the options of options.h into c->opt, which the target's
 * configure then gets.  Other arguments are left alone.  False with the
 * reason in err on a bad flag. */
bool oracle_init(OracleConfig *c, const OracleHarness *h, int argc, char **argv, char *err,
                 size_t errlen);

/* The length of the "-name=" (or "--name=") of arg when it is one of the
 * flags oracle_init reads for target t, else 0 (for a harness that takes
 * them out of what libFuzzer sees). */
size_t oracle_flag(const Target *t, const char *arg);

/* Print the flags oracle_init reads for harness h, with the values each
 * takes (passes, policies, allowances, faults), for -help=1. */
void oracle_help(FILE *f, const OracleHarness *h);

/* The configuration in one line, e.g. "policy default, passes: inline". */
void oracle_describe(const OracleConfig *c, char *buf, size_t len);

/* What to check: a choice stream (decoded with c->policy), or a program
 * made by make(ctx) -- called again when a report needs the program
 * before a stage, so it must make the same program every time. */
typedef struct OracleInput {
  const uint8_t *data;
  size_t size;
  Module *(*make)(void *ctx);
  void *ctx;
  uint64_t seed; /* with make: the first argument seed (data: derived) */
} OracleInput;

/* What a check found.  Clean: failed is false (and skipped may be set:
 * the target could not take the program). */
struct Verdict {
  OracleCheck check; /* the check that gave it (oracle_check sets it) */
  bool failed;
  bool skipped;       /* the target did not take the program (load) */
  const char *oracle; /* "result", "crash", "type", ... */
  const char *what;   /* what the oracle means, one line */
  char *detail;       /* what differed (malloc'd, or NULL) */
  char *extra;        /* more text for the report, e.g. the two texts of
                         a failed round trip (malloc'd, or NULL) */
  int stage;          /* the stage that failed; -1: before any stage */
  const char *op;     /* ORACLE_KERNEL: the operator checked */
  TgPipeline pipeline;
  char *before, *after; /* the program before and after the stage, when
                           known (malloc'd, or NULL) */
  int rejected;         /* stages that refused the program (TG_REJECTED) */
  char *reject_diag;    /* the first refusal's diagnostic (malloc'd) */
  char subject[64];     /* ORACLE_REJECT: what a finding is about (the
                           operator whose relation is at fault, else the
                           defect's kind), for the report's pass line */
  uint64_t seed;        /* the argument seed of the failing comparison */
  /* What reproduces the failure without relaysmith (Target.reproduce):
   * files the target's own tools read, and the commands that show the
   * failure with them (@IN@ stands for the path the files are written
   * under: VERDICT_FILES_BASE, or the harness's crash file). */
  char *key; /* the failure's discriminator for signatures, or NULL */
  char *repro;
  int nfiles;
  struct {
    char name[32]; /* e.g. "in.mlir": written as <base>.in.mlir */
    char *text;
  } files[4];
};

/* Add a reproducer file (a copy of text) to v; at most four. */
void verdict_file(Verdict *v, const char *name, const char *text);
/* The signature of a failed verdict, as oracle_report_signature reads it
 * from its report: "ORACLE (WHAT) in pass STAGE[: KEY]", or "ORACLE
 * (WHAT), NONE[: KEY]" with what the report's pass line says in
 * parentheses (e.g. "the generator's output", "kernel sum"). */
void verdict_signature(const Verdict *v, char *out, size_t cap);
/* The signature of the first failure report in text (oracle_report's,
 * among other output), as verdict_signature gives it for the verdict
 * reported; false when text holds no report. */
bool oracle_report_signature(const char *text, char *out, size_t cap);
/* Write v's reproducer files as <base>.<name>, saying so on log; false
 * when one cannot be written. */
bool oracle_write_files(const Verdict *v, const char *base, FILE *log);

/* Run c's check on in.  True when nothing failed; false with v failed.
 * Free v with verdict_free either way. */
bool oracle_check(const OracleConfig *c, const OracleInput *in, Verdict *v);
void verdict_free(Verdict *v);

/* Mark v failed by oracle (what it means: what), with a printf detail
 * (fmt may be NULL).  The first failure wins. */
void verdict_fail(Verdict *v, const char *oracle, const char *what, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

/* Print a failure report: "==relaysmith== FAILURE", the pass and oracle
 * lines, the key, the detail, the programs, the target's reproducer (its
 * files and commands, @IN@ replaced by base or "input" when base is
 * NULL), then (when not NULL) "reproduce: " and the command line that
 * reproduces it, and "==relaysmith== end of report". */
void oracle_report(FILE *f, const OracleConfig *c, const Verdict *v, const char *reproduce);
void oracle_report_files(FILE *f, const OracleConfig *c, const Verdict *v, const char *reproduce,
                         const char *base);

/* The program an input stands for, for tools (free with ir_module_free):
 * the program it decodes to, or for ORACLE_KERNEL the operator call as
 * @main. */
Module *oracle_program(const OracleConfig *c, const uint8_t *data, size_t size);

/* The argument seed of a choice stream: a hash of its first bytes. */
uint64_t oracle_input_seed(const uint8_t *data, size_t size);

#endif
