/*
 * translate.h - relayc IR to MLIR: a type-checked Module becomes the text
 * of one MLIR module in the TOSA dialect (func, arith, math, tensor and
 * linalg where TOSA has no operation), with Relay's semantics kept exactly
 * as relayc's interpreter defines them (docs/mlir.md lists the mapping and
 * every guarded corner).
 *
 * Shape of the output:
 *   - @main becomes the public `func.func @main`; its parameters are the
 *     tensors of @main's parameters and its results the tensors of @main's
 *     result, tuples flattened depth first, in order (MltSig says how);
 *   - every global @main calls (directly or not) becomes a private
 *     func.func taking and returning its tensors flattened the same way,
 *     called with func.call;
 *   - let, sharing, tuples and projections are resolved statically into
 *     SSA values (a shared node is translated once per region); `if`
 *     becomes tosa.cond_if, whose regions take what they use from outside
 *     as block arguments (TOSA wants them isolated from above).
 *
 * What it takes: data-flow programs (let, tuples, sharing, operator calls,
 * if, calls of non-recursive globals) over float32, int32 and bool tensors
 * with every dim >= 1 or Any (not in @main's parameters, whose static
 * shapes fix every other) -- the programs of the generator's `mlir`
 * policy.  Anything else (closures, refs, ADTs, match, recursion, other dtypes, an
 * empty dim) is refused with a reason: the translation is "skipped", which
 * for the mlir policy never happens.
 *
 * Usage:
 *   MltResult r;
 *   if (mlt_translate(m, &r)) { ... r.text ... } else { ... r.skip ... }
 *   mlt_result_free(&r);
 */
#ifndef RS_MLIR_TRANSLATE_H
#define RS_MLIR_TRANSLATE_H

#include <stdbool.h>
#include <stddef.h>

#include "compiler/eval/eval.h"
#include "compiler/ir/ir.h"

/* How @main's parameters and result map to the flattened tensors of
 * `func.func @main`: parameter k of the MLIR function is tensor leaf k of
 * @main's parameters taken in order (each parameter's type flattened depth
 * first), and result k is leaf k of @main's result type. */
typedef struct MltSig {
  int nparams;          /* relay parameters of @main */
  const Type **params;  /* their types */
  int nargs;            /* MLIR parameters: the tensor leaves of params */
  const Type **args;    /* their tensor types */
  const Type *result;   /* @main's result type */
  int nresults;         /* MLIR results: the tensor leaves of result */
  const Type **results; /* their static tensor types (in arena) */
  uint32_t *argdyn;     /* per MLIR parameter: its dims that are `?` */
  uint32_t *resdyn;     /* per MLIR result: its dims that are `?` */
  Arena *arena;         /* what the signature owns */
} MltSig;

/* How to translate.  Dynamic dims: a dim Any in relayc's type is `?` in
 * MLIR's (the values flow as dynamic tensors between the operations that
 * take them so, and are cast to their static shape, which the translator
 * derives from @main's static parameters, before those that need it);
 * dyn_params makes dims of @main's parameters `?` besides (each dim of
 * each parameter by a bit of its hash), so that the run-time extents come
 * in through the memref descriptors.  static_shapes ignores both: every
 * type static (the translation the static-dynamic differential compares
 * with). */
typedef struct MltOptions {
  bool static_shapes;
  uint64_t dyn_params; /* 0: none */
  /* The linalg road (linalg.c): linalg on tensors, tensor, arith and math
   * with no TOSA, every shape static, every `if` scf.if; a program with an
   * operator the road lacks is skipped ("the linalg road: ..."). */
  bool linalg;
} MltOptions;

/* A translation.  On success text is the MLIR module (malloc'd); on a skip
 * text is NULL and skip says why.  The types point into the module, which
 * must outlive the result. */
typedef struct MltResult {
  char *text;
  char skip[256];
  MltSig sig;
  int ndyn; /* values of a type with a `?` dim in the text */
} MltResult;

/* Translate the type-checked module m (ty_check_module has run: every node
 * has its type).  Returns true with r->text set, or false with r->skip. */
bool mlt_translate(const Module *m, MltResult *r);
/* The same with options (NULL: the defaults, as mlt_translate). */
bool mlt_translate_with(const Module *m, const MltOptions *o, MltResult *r);
void mlt_result_free(MltResult *r);

/* The tensor leaves of type t (tuples flattened depth first) into out (at
 * most max); returns how many t has (also when that is more than max). */
int mlt_flatten_type(const Type *t, const Type **out, int max);
/* The tensors of value v in the same order; returns how many v has.  v
 * holds only tensors and tuples (a value of a type the translator takes). */
int mlt_flatten_value(const EvValue *v, Tensor **out, int max);
/* The value of type t built from the tensors leaves[*pos ..], advancing
 * *pos: the inverse of mlt_flatten_value, allocated in r's arena. */
EvValue *mlt_unflatten_value(EvRun *r, const Type *t, Tensor *const *leaves, int *pos);

/* An MLIR element or tensor literal for a constant: "dense<...> :
 * tensor<2x3xf32>" with every float exact (NaN, infinities and -0 by their
 * bits).  malloc'd. */
char *mlt_dense(const Tensor *x);

/* An entry function `func.func @entry()` for running the translation with
 * mlir-runner-22: it calls @main on the given tensors (sig.nargs of them,
 * as constants) and prints each result with printMemrefI32, as the int32
 * bits of floats (bitcast), ints as they are and bools as 0/1, so that
 * mlt_parse_printed reads them back exactly.  Append it to r->text.
 * malloc'd. */
char *mlt_entry(const MltSig *sig, Tensor *const *args);
/* Read what the entry function printed (mlir-runner-22's stdout) back into
 * sig->nresults tensors allocated in a; false with a message when the text
 * does not hold them. */
bool mlt_parse_printed(const MltSig *sig, const char *out, Arena *a, Tensor **results, char *err,
                       size_t errlen);

/* The known causes of a difference between relayc's interpreter and a
 * correct translation run by MLIR 22 (docs/findings/mlir.md): fold-zero,
 * MLIR folds float x * 0 to 0 and x + 0 to x (#5); reduce-inf, its
 * reduce_min/max of infinities give the largest finite float (#16);
 * minmax-zero, arith-expand's minimumf/maximumf pick the second of two
 * zeros, whatever their signs (#32).  And one that is no MLIR bug:
 * inexact-int, integers (or bools) computed from floats whose values
 * relayc's interpreter itself cannot pin down within the float tolerance
 * (a cast of exp(0) = 1, which MLIR may compute as 0.99999994), so that
 * the comparison cannot decide them (docs/mlir.md, "False alarms"). */
typedef enum MltKnown {
  MLT_KNOWN_NONE,
  MLT_KNOWN_FOLD_ZERO,
  MLT_KNOWN_REDUCE_INF,
  MLT_KNOWN_MINMAX_ZERO,
  MLT_KNOWN_INEXACT_INT,
  MLT_KNOWN_COUNT
} MltKnown;

/* Which known cause explains that MLIR's run of the translation of m gave
 * got where relayc's interpreter gave want, on the inputs of seed: the
 * cause whose pattern m holds *and* whose replay gives exactly got (so a
 * second, different miscompile in the same program is never explained
 * away); MLT_KNOWN_NONE when none.  *pattern is the cause whose pattern m
 * holds, confirmed or not.  known.c. */
MltKnown mlt_known_cause(const Module *m, uint64_t seed, const EvValue *want, const EvValue *got,
                         MltKnown *pattern);
/* Whether got differs from want (relayc's interpreter on the inputs of
 * seed) only in integers that relayc's own values reach when its float
 * results are jittered within the tolerance: the inexact-int cause alone,
 * without the replays of the others (the blame's replays ask this). */
bool mlt_inexact_int(const Module *m, uint64_t seed, const EvValue *want, const EvValue *got);
/* "fold-zero", "reduce-inf", "minmax-zero", "inexact-int", "none". */
const char *mlt_known_name(MltKnown k);

#endif
