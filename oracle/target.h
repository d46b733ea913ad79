/*
 * target.h - what a compiler under test provides to the oracle.  Reading
 * this file (and docs/architecture.md) is all it takes to add one.
 *
 * The oracle (oracle.h) owns the path every input takes:
 *
 *   bytes -> generator (the target's policy) -> relayc type check
 *         -> relayc interpreter: the reference result
 *         -> target: load (translate the program into the target's form)
 *         -> for each stage of the pipeline:
 *              run    the stage (a pass, a pass pipeline)
 *              check  the target's own structural checks
 *              result execute, when the target can at this point, and
 *                     compare with the last result (the reference first),
 *                     then the two traces of ref effects (effects)
 *              round trip, postcondition (optional)
 *         -> verdict
 *
 * and a target fills in the steps.  relayc's passes are target 0
 * (targets/relayc); MLIR is targets/mlir.  Every function gets the
 * target's own program state (TgProgram, opaque to the oracle) and, where
 * it can find something wrong, a Verdict to fill with verdict_fail: the
 * oracle's name, a line saying what the oracle means, and the detail.  A
 * function never prints, never aborts on bad input, and frees what it
 * allocates (LeakSanitizer runs on every input).
 *
 * Failures are classified by the target, not guessed by the oracle:
 *   - a stage that crashes is a crash (the sanitizers, or the target's
 *     fatal-error hook, report it; the oracle never sees it);
 *   - a stage that says "internal error" returns TG_FAILED (oracle "crash");
 *   - a stage that refuses a valid program with a diagnostic (a lowering
 *     that does not handle an operator, say) returns TG_REJECTED: not a
 *     finding by itself, counted and bucketed by the diagnostic's text;
 *   - everything else is a finding of a named oracle, set through the
 *     Verdict ("verify", "well-formed", "legality", "result", ...).
 */
#ifndef RS_TARGET_H
#define RS_TARGET_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "compiler/eval/eval.h"
#include "compiler/ir/ir.h"
#include "oracle/options.h"

typedef struct Verdict Verdict; /* oracle.h */

/* ------------------------------------------------------------- pipelines */

/* What a stage's contract lets the result and effects oracles see change
 * (EvRules, eval.h).  Without any, a stage must keep the program's result
 * and its trace of ref effects exactly: floats bit-identical (NaN
 * payloads aside), -0 and +0 apart, a run that ended in an error an error,
 * every ref creation, write and read in the same order with the same
 * values. */
enum {
  TG_ALLOW_FLOAT = 1u << 0,          /* floats within the default tolerance
                                        (reassociation; -0 vs +0 included) */
  TG_ALLOW_SIGNED_ZERO = 1u << 1,    /* -0 may become +0 and back */
  TG_ALLOW_ERROR_TO_VALUE = 1u << 2, /* a run that failed (a match? with no
                                        matching clause) may return a value */
  TG_ALLOW_DROP_READS = 1u << 3,     /* ref reads may vanish from the trace */
  TG_ALLOW_EFFECTS = 1u << 4,        /* the trace is not compared at all */
  TG_ALLOW_DROP_CHECKS = 1u << 5,    /* a run that failed a pure expression's
                                        run-time check (an operator's with
                                        Any dims, a let annotation's) may
                                        return a value: EvRules.drop_checks */
};

/* One stage of a pipeline: what the report calls it, the target's own
 * handle on it, and its contract. */
typedef struct TgStage {
  const char *name; /* e.g. "fold_constant", "tosa-to-linalg" */
  const void *impl; /* the target's: a PassInfo, a pipeline string, ... */
  uint32_t allow;   /* TG_ALLOW_* */
} TgStage;

enum { TG_MAX_STAGES = 16 };

typedef struct TgPipeline {
  int n;
  TgStage stage[TG_MAX_STAGES];
} TgPipeline;

/* ------------------------------------------------------------- the target */

typedef enum TgStatus {
  TG_OK,       /* the stage ran */
  TG_REJECTED, /* it refused the program with a diagnostic (not a finding) */
  TG_FAILED,   /* it reported an internal failure (oracle "crash") */
} TgStatus;

typedef struct TgProgram TgProgram; /* the target's own state for one program */

typedef struct Target {
  const char *name;   /* "relayc", "mlir" */
  const char *doc;    /* one line for --help texts */
  const char *policy; /* the generation policy whose programs it takes */
  const char *flag;   /* the pipeline flag: "passes" for -passes=a,b */
  const char *noun;   /* what a stage is called in reports: "pass" */

  /* Parse the text of -<flag>= into p; false with a message in err that
   * names the bad part and lists what is valid. */
  bool (*parse_pipeline)(const char *text, TgPipeline *p, char *err, size_t errlen);
  /* The stage names -<flag>= takes, space-separated, into buf (for
   * -help=1). */
  void (*stage_names)(char *buf, size_t len);
  /* The pipeline an input's header selects when none is fixed; it must
   * depend on the header's bytes only, so body mutations keep it. */
  void (*header_pipeline)(const uint8_t *header, size_t n, TgPipeline *p);
  /* Optional: the differential oracle's second pipeline for an input
   * whose first is first (header: the input's first bytes); false leaves
   * the default, the pipeline of the header with its bytes flipped. */
  bool (*second_pipeline)(const TgPipeline *first, const uint8_t *header, size_t n, TgPipeline *p);
  /* Optional: take the user's options (options.h); oracle_init calls it
   * with those its flags gave, before any program. */
  void (*configure)(const RsOptions *o);

  /* Take a type-checked program (the target may keep, change or copy m;
   * the oracle frees m after unload).  NULL when the target cannot take
   * it: with v failed when that is a bug (a translator that produced
   * output its own compiler rejects), with v clean when the program is
   * outside what the target handles (counted as skipped). */
  TgProgram *(*load)(Module *m, Verdict *v);
  void (*unload)(TgProgram *p);
  /* Optional: m in a second form that must give the results of load's
   * (MLIR: the static translation of a program load translated with
   * dynamic shapes), or NULL when m has none; v->pipeline is the
   * pipeline of the first.  *oracle and *what name the differential that
   * compares the two (check.c runs the second form through the same
   * pipeline and reports a difference as that oracle). */
  TgProgram *(*load_variant)(Module *m, Verdict *v, const char **oracle, const char **what);

  /* Run one stage.  TG_REJECTED and TG_FAILED come with the diagnostic
   * in *diag (malloc'd; the caller frees it). */
  TgStatus (*run)(TgProgram *p, const TgStage *s, char **diag);
  /* The target's structural checks after a stage (well formed, types,
   * a verifier); false with v failed. */
  bool (*check)(TgProgram *p, const TgStage *s, Verdict *v);
  /* Optional (NULL): print -> parse -> print of the current program. */
  bool (*round_trip)(TgProgram *p, Verdict *v);
  /* Optional: the stage's own guarantee (an ANF pass leaves ANF, a full
   * lowering leaves only the final dialect). */
  bool (*post)(TgProgram *p, const TgStage *s, Verdict *v);
  /* Optional: run the current program's entry point on the arguments
   * ev_make_args gives for seed, putting the result into run's arena (with
   * its trace of ref effects when the target can record one, else
   * out->trace NULL: then only the value is compared).
   * Returns false when the program cannot be executed at this point (not
   * yet lowered, say); the result oracle then waits for a later stage. */
  bool (*execute)(TgProgram *p, EvRun *run, uint64_t seed, EvResult *out);
  /* The current program as text, for reports (malloc'd). */
  char *(*print)(TgProgram *p);
  /* Optional: after v failed at v->stage (v->before and v->after set),
   * add what reproduces it without relaysmith: the target's own input
   * files (verdict_file) and the command lines that show the failure
   * (v->repro, naming a file NAME as @IN@.NAME), and v->key, what tells
   * this failure apart from others of the same oracle and stage (for
   * signatures: a diagnostic's first line with its numbers taken out). */
  void (*reproduce)(TgProgram *p, Verdict *v);

  /* Optional (NULL: the target reads no language of its own): m, which
   * type checks, in the target's own input language (malloc'd), for the
   * tools (relaysmith decode --target=NAME prints it, reduce writes it as
   * OUT.<ext>); NULL with why in err when the target cannot take m. */
  char *(*export)(Module *m, char *err, size_t errlen);
  const char *ext; /* the file extension of export's text, e.g. "mlir" */
} Target;

/* The hash of an input's header, its first GEN_HEADER_BYTES bytes (zero
 * past its end), for a target's header_pipeline to draw from. */
uint64_t tg_header_hash(const uint8_t *data, size_t size);

#endif
