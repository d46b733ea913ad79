/*
 * schedule.h - transform-dialect schedules on linalg on tensors, for the
 * MLIR target (docs/mlir.md, "Transform schedules").
 *
 * A schedule is a script of MLIR's transform dialect (tiling with scf.for
 * or scf.forall, tiling with producer fusion, padding, vectorization with
 * and without vector sizes, the vector lowering patterns, hoisting) built
 * for one payload module: the builder looks at the module's linalg ops
 * (their loops, static sizes, reduction dims and operand types) and draws
 * the ops to transform, the tile, pad and vector sizes and the options
 * from a seed, so that a schedule is a deterministic function of the
 * payload and the seed.  The script is text, as mlir-opt-22 reads it:
 *
 *   module attributes {transform.with_named_sequence} {
 *     transform.named_sequence @__transform_main(%root: ...) { ... } }
 *
 * and is applied in-process by MLIR's transform interpreter (its C API),
 * exactly as `mlir-opt-22 --pass-pipeline='builtin.module(
 * transform-preload-library{transform-library-paths=F},
 * transform-interpreter)'` applies the file F.
 */
#ifndef RS_MLIR_SCHEDULE_H
#define RS_MLIR_SCHEDULE_H

#include <stddef.h>
#include <stdint.h>

#include "session.h"

typedef enum MlsSched {
  MLS_SCHED_TILE_FOR,         /* tile_using_for */
  MLS_SCHED_TILE_FORALL,      /* tile_using_forall (parallel dims) */
  MLS_SCHED_FUSE,             /* structured.fuse: tile a consumer, fuse its producers */
  MLS_SCHED_PAD,              /* structured.pad of parallel dims */
  MLS_SCHED_VECTORIZE,        /* vectorize without vector sizes */
  MLS_SCHED_VECTORIZE_MASKED, /* vectorize with vector sizes (masking) */
  MLS_SCHED_VECTOR_LOWER,     /* vectorize, then the vector lowering patterns */
  MLS_SCHED_HOIST,            /* tile, vectorize, hoist loop-invariant subsets, LICM */
  MLS_SCHED_COUNT
} MlsSched;

/* The passes that lower what a schedule leaves after bufferization and
 * the loops stage (scf.forall, vector.mask, n-D vector transfers, vector
 * ops) to what the LLVM stage takes: the target runs them as one stage
 * before its LLVM stage whenever the pipeline has a schedule that may
 * leave such ops (mls_sched_leaves_vectors). */
#define MLS_SCHEDULE_LOWERING                                                                      \
  "builtin.module(func.func(scf-forall-to-for,lower-vector-mask,lower-vector-multi-reduction),"    \
  "convert-vector-to-scf,"                                                                         \
  "expand-strided-metadata,lower-affine,convert-scf-to-cf,convert-vector-to-llvm,convert-ub-to-"   \
  "llvm)"

/* The pipeline that applies a schedule written to the file path (as
 * mlir-opt-22 takes it), into out. */
void mls_schedule_pipeline(const char *path, char *out, size_t cap);

/* Whether a schedule of kind may leave ops that only
 * MLS_SCHEDULE_LOWERING lowers: scf.forall or vector ops.  tile-for, fuse
 * and pad leave scf.for, affine.min/apply, tensor.pad and linalg ops,
 * which bufferization and the loops stage lower as they lower any
 * program. */
bool mls_sched_leaves_vectors(MlsSched kind);

/* The kind's name, e.g. "tile-for". */
const char *mls_sched_name(MlsSched kind);

/* The script of a schedule of kind for m (malloc'd), sizes and choices
 * drawn from seed; NULL, with why, when no op of m fits the kind. */
char *mls_schedule(MlsSession *s, MlsModule *m, MlsSched kind, uint64_t seed, char *why,
                   size_t len);

/* Parse script in s's context and apply its @__transform_main to m with
 * the transform interpreter; the observer sees m as after a stage named
 * stage (a kind's name, not the script: one stage id per kind).  MLS_OK (verify m next), MLS_FAILED
 * (the transform failed: mls_diag says why), MLS_BAD_PIPELINE (the script does not parse or has no
 * entry: mls_diag). */
MlsStatus mls_apply_schedule(MlsSession *s, MlsModule *m, const char *script, const char *stage);

#endif
