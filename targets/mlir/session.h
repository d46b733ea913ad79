/*
 * session.h - the MLIR 22 runtime: MLIR in-process through its C API, for
 * the MLIR target (targets/mlir; docs/mlir.md, "The runtime").
 *
 * A session owns one MLIR context with every dialect, pass and LLVM IR
 * translation registered, a cache of pass managers keyed by pipeline text,
 * and the diagnostics of the last call.  One input's path:
 *
 *   m = mls_parse(s, text)        parse and verify; NULL when either fails
 *   mls_validate(s, m)            tosa-validate against the TOSA target below
 *   mls_entry(s, m, "main")       mark the function to execute (before lowering)
 *   mls_run(s, m, pipeline)       one stage: a pass pipeline, MLIR's own syntax
 *   mls_verify(s, m)              the verifier, after each stage
 *   mls_legal(s, m)               after the full lowering: builtin.module and llvm.* only
 *   j = mls_jit(s, m, opt)        the lowered module, compiled by the ExecutionEngine
 *   mls_call(s, j, args, arena, &res) ... mls_jit_free(j)
 *   mls_module_free(m)
 *
 * Diagnostics.  Every call that can fail resets the session's diagnostics
 * and, when it fails, leaves MLIR's messages there (mls_diag), each as
 *     LINE:COL: error: MESSAGE
 *       <the line of the module's text>
 *       ^
 *     LINE:COL: note: ...
 * where LINE:COL is the position in the text the module was parsed from
 * (passes keep their ops' locations, so a diagnostic after a stage points
 * at the op of the input it came from).  MLIR itself prints nothing.
 *
 * Failures.  Nothing here prints or exits, with one exception: an LLVM
 * fatal error (llvm::report_fatal_error, which MLIR and LLVM use for
 * internal errors) prints
 *     ==relaysmith== MLIR FATAL ERROR: <reason, on one line>
 *     ==relaysmith== during: <what the session was doing>
 * on stderr and aborts, so libFuzzer reports a crash with a readable
 * reason.  A stage that fails with a diagnostic is not a crash: mls_run
 * returns MLS_FAILED.  A segfault inside MLIR is the sanitizers' to report.
 *
 * Memory.  A module, a compiled module (MlsJit) and the session are freed
 * by their own call; the tensors mls_call returns live in the caller's
 * arena, and what the compiled code allocated for them is freed.  MLIR
 * interns attributes (constants) in the context for its lifetime, so a
 * long run grows; the session makes a fresh context after `recycle`
 * parses, at the first parse with no module alive (mls_session_new).
 *
 * Threads.  A session is used by one thread at a time; the context runs
 * passes single-threaded.
 */
#ifndef RS_MLIR_SESSION_H
#define RS_MLIR_SESSION_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "compiler/ir/ir.h"

typedef struct MlsSession MlsSession;
typedef struct MlsModule MlsModule;
typedef struct MlsJit MlsJit;

/* The pipeline mls_validate runs: the TOSA target the translator aims at
 * (TOSA 1.1.draft, integer and float profiles, the extensions of
 * NOTES.md), then tosa-validate with strict spec alignment. */
#define MLS_VALIDATE_PIPELINE                                                                      \
  "builtin.module(tosa-attach-target{specification_version=1.1.draft profiles=pro_int,pro_fp "     \
  "extensions=int64,bf16,controlflow,doubleround,inexactround},"                                   \
  "tosa-validate{strict-op-spec-alignment})"

/* The full lowering TOSA (with arith, math, tensor, scf) -> LLVM dialect
 * that the examples are known to run through (NOTES.md section 2). */
#define MLS_FULL_PIPELINE                                                                          \
  "builtin.module(func.func(tosa-to-scf,tosa-optional-decompositions,tosa-infer-shapes,"           \
  "tosa-make-broadcastable,tosa-to-linalg-named,tosa-to-linalg,tosa-to-arith,tosa-to-tensor,"      \
  "convert-elementwise-to-linalg),canonicalize,cse,func.func(linalg-fuse-elementwise-ops),"        \
  "one-shot-bufferize{bufferize-function-boundaries "                                              \
  "function-boundary-type-conversion=identity-layout-map},buffer-deallocation-pipeline,"           \
  "convert-bufferization-to-memref,convert-linalg-to-loops,expand-strided-metadata,lower-affine,"  \
  "convert-scf-to-cf,finalize-memref-to-llvm,convert-math-to-llvm,convert-arith-to-llvm,"          \
  "convert-cf-to-llvm,convert-func-to-llvm,reconcile-unrealized-casts)"

/* Contexts are recycled after this many parses unless told otherwise
 * (docs/mlir.md: the measured growth per input). */
enum { MLS_RECYCLE_DEFAULT = 10000 };

/* ------------------------------------------------------------- session */

/* A new session; recycle is the number of parses after which the context
 * is made afresh (0: never, negative: MLS_RECYCLE_DEFAULT).  The first
 * session of a process registers MLIR's passes and installs the fatal
 * error handler. */
MlsSession *mls_session_new(int recycle);
/* Free the session, after every module and compiled module it made. */
void mls_session_free(MlsSession *s);

/* The diagnostics of the last call that could fail ("" when it did not). */
const char *mls_diag(const MlsSession *s);

typedef struct MlsStats {
  long parses;   /* modules parsed, over all contexts */
  int contexts;  /* contexts made so far (1 + recycles) */
  int pipelines; /* pass managers in the cache now */
  int live;      /* modules and compiled modules alive */
} MlsStats;
MlsStats mls_stats(const MlsSession *s);

/* -------------------------------------------------------------- modules */

/* Parse text (NUL-terminated) into a module and verify it.  NULL when
 * either fails, with the diagnostic.  The module keeps a copy of text for
 * diagnostics' source lines. */
MlsModule *mls_parse(MlsSession *s, const char *text);
void mls_module_free(MlsModule *m);

/* The verifier on the whole module; false with its diagnostics. */
bool mls_verify(MlsSession *s, MlsModule *m);

/* MLS_VALIDATE_PIPELINE on the module; false with its diagnostics.  The
 * module is left as it was (the target attribute it attaches is removed). */
bool mls_validate(MlsSession *s, MlsModule *m);

/* The module as MLIR text (malloc'd), in the form mlir-opt reads. */
char *mls_print(MlsSession *s, MlsModule *m);

/* ---------------------------------------------------------------- stages */

typedef enum MlsStatus {
  MLS_OK,           /* the stage ran (verify it with mls_verify) */
  MLS_FAILED,       /* a pass failed; mls_diag says why */
  MLS_BAD_PIPELINE, /* the pipeline text does not parse; mls_diag says where */
} MlsStatus;

/* Check a pipeline's text (what `mlir-opt --pass-pipeline=` takes, e.g.
 * "builtin.module(func.func(tosa-to-linalg),canonicalize)"); false with
 * MLIR's message naming the bad part. */
bool mls_pipeline_ok(MlsSession *s, const char *pipeline);

/* Run a pipeline on m as one stage.  Its pass manager is made once per
 * text and cached; it runs with MLIR's verifier off, so that a pass that
 * leaves invalid IR is caught by the mls_verify that follows, not blamed
 * on the pass manager. */
MlsStatus mls_run(MlsSession *s, MlsModule *m, const char *pipeline);

/* mls_run with MLIR's verifier after every pass, for a stage whose later
 * passes would make invalid IR valid again (lower-affine after the affine
 * loop passes): a pass that leaves invalid IR stops the stage there,
 * MLS_FAILED, and the module is as that pass left it (mls_verify names
 * the op). */
MlsStatus mls_run_each(MlsSession *s, MlsModule *m, const char *pipeline);

/* After a full lowering: true when only builtin.module and llvm.* ops
 * remain; otherwise false, naming the first other op and counting them. */
bool mls_legal(MlsSession *s, MlsModule *m);

/* ------------------------------------------------------ negative inputs */

/* A deliberate defect in a valid module (defect.c), which the verifier
 * must reject: the first result of a TOSA op gets a wrong shape (its
 * last dim + 1), a wrong rank for its users (a leading 1 added) or a wrong
 * element type (f32 <-> i32), or an op's `axis` is set out of range. */
typedef enum MlsDefect {
  MLS_DEFECT_SHAPE,
  MLS_DEFECT_RANK,
  MLS_DEFECT_DTYPE,
  MLS_DEFECT_ATTRIBUTE,
} MlsDefect;

/* Put a defect of kind into m, in the op pick chooses (modulo the number
 * of ops it fits); what says where and what, for reports.  False (with
 * what saying why) when no op fits; m is then unchanged. */
bool mls_defect(MlsSession *s, MlsModule *m, MlsDefect kind, uint32_t pick, char *what, size_t len);

/* ------------------------------------------------------ semantic observer */

/* What the observer sees after parsing and after every stage that ran:
 * each op (MLS_FEAT_OP), each operand's producer -> op pair
 * (MLS_FEAT_EDGE; a block argument is the producer "^arg"), and once per
 * stage whether it changed the module (MLS_FEAT_CHANGED: a hash of op
 * names, operand producers, result types and attributes differs from the
 * one after the previous stage).  hash mixes the kind, stage, names and
 * the changed bit: the same feature gets the same hash in every process,
 * fit for indexing libFuzzer's extra counters. */
typedef enum MlsFeatKind { MLS_FEAT_OP, MLS_FEAT_EDGE, MLS_FEAT_CHANGED } MlsFeatKind;

typedef struct MlsFeature {
  MlsFeatKind kind;
  uint32_t stage;       /* hash of the stage's pipeline text; 0 for the parse */
  const char *op;       /* op name (not NUL-terminated: op_len) */
  size_t op_len;        /* ... MLS_FEAT_OP and MLS_FEAT_EDGE */
  const char *producer; /* MLS_FEAT_EDGE: the operand's producer */
  size_t producer_len;
  bool changed; /* MLS_FEAT_CHANGED */
  uint32_t hash;
} MlsFeature;

typedef void (*MlsObserver)(void *ud, const MlsFeature *f);

/* Install an observer (NULL: none, and no walks are made). */
void mls_observe(MlsSession *s, MlsObserver fn, void *ud);

/* ------------------------------------------------------------- execution */

/* The tensor signature of the entry function, recorded by mls_entry. */
typedef struct MlsType {
  DType dtype;
  int rank;
  int64_t shape[IR_MAX_RANK]; /* MLS_DYN: `?`, any extent (the argument's own) */
} MlsType;

#define MLS_DYN ((int64_t)-1)

typedef struct MlsSig {
  int nparams, nresults;
  MlsType *params, *results;
} MlsSig;

/* Mark func.func @name as the function mls_jit compiles for calling:
 * records its signature (ranked tensors of float32, float64, bool, int8,
 * int32 or int64 only; a `?` dim takes the argument's extent, and a
 * result's comes from its memref descriptor) and sets llvm.emit_c_interface, which the lowering
 * (convert-func-to-llvm) turns into the _mlir_ciface_ wrapper mls_call
 * uses.  Call it before lowering.  False with a diagnostic otherwise. */
bool mls_entry(MlsSession *s, MlsModule *m, const char *name);
const MlsSig *mls_entry_sig(const MlsModule *m); /* NULL before mls_entry */

/* Compile the lowered module with LLVM at opt (0..3) and link the MLIR C
 * runner utilities (memrefCopy and friends).  NULL with a diagnostic when
 * the module has no entry, does not translate to LLVM IR, or lacks the
 * entry's wrapper.  The result is independent of m (free either first). */
MlsJit *mls_jit(MlsSession *s, MlsModule *m, int opt);
void mls_jit_free(MlsJit *j);

typedef enum MlsCall {
  MLS_CALL_OK,   /* *res holds the results */
  MLS_CALL_BAD,  /* the arguments do not match, or a result's sizes differ
                    from the signature's; mls_diag says which */
  MLS_CALL_TRAP, /* the compiled code trapped (SIGFPE, SIGSEGV, SIGBUS or
                    SIGILL); mls_diag names the signal */
} MlsCall;

/* Call the entry with args (nargs tensors matching its signature; they
 * are copied, so the compiled code cannot change them) and put its results
 * into *res (an array of sig->nresults tensors, all in arena a). */
MlsCall mls_call(MlsSession *s, MlsJit *j, int nargs, Tensor *const *args, Arena *a, Tensor ***res);

#endif
