/*
 * target.c - the MLIR target: relayc programs translated to TOSA
 * (translate.h) and taken through MLIR 22's pass pipelines in-process
 * (session.h), behind the target interface (oracle/target.h).
 *
 *   stages    a pipeline is one stage per phase, each phase's variant
 *             chosen by the input's header (llvm-opt-fuzzer style; the
 *             tables below): a defect (1 in 8) -> TOSA-level
 *             optimisations (optional) -> TOSA to linalg -> linalg on
 *             tensors (optional) -> bufferization -> loops -> LLVM
 *             dialect.  -pipeline= fixes one: variant
 *             names (`-pipeline=tosa-fold,to-linalg,bufferize,loops,llvm`)
 *             or MLIR's own syntax (`-pipeline='builtin.module(a,b)'`),
 *             cut at its top-level commas into one stage per element, so
 *             that blame lands on one pass.
 *   load      translate, parse and verify, tosa-validate.  A rejection of
 *             the translator's output is oracle "translate" (the report
 *             shows the diagnostic, the op and the text: a translator bug,
 *             or a verifier bug when the op is valid TOSA).
 *   run       mls_run: MLS_FAILED is TG_REJECTED (counted, bucketed by
 *             the diagnostic's text with digits stripped).  A defect stage
 *             (defect.c) puts one defect into the module, which the
 *             verifier must reject (TG_REJECTED); one it accepts goes on,
 *             and invalid IR or illegal ops after it are oracle
 *             "verifier-accepts"
 *   check     the verifier after every stage (oracle "verify": a pass
 *             that succeeded left invalid IR)
 *   post      after the final stage: only builtin.module and llvm.* ops
 *             (oracle "legality"); a legal module the JIT cannot compile
 *             is oracle "jit"
 *   execute   after the final stage only, on a sample of the inputs (one
 *             in -mlir_exec=N, default 4, chosen by the argument
 *             seed; 1: every input): the module JIT-compiled (at the opt
 *             level the final stage says) and called on @main's arguments
 *             (ev_make_args), the results rebuilt as relayc values.  The
 *             final stage allows TG_ALLOW_FLOAT (a lowering may
 *             reassociate); the others are never executed.
 *   reproduce the translated .mlir, the exact pipeline, the failing
 *             stage, and mlir-opt-22 / mlir-runner-22 command lines
 *             (with an entry function printing the results: mlt_entry);
 *             the key of a miscompile names a known cause or the stages
 *             to blame (blame).
 *
 * The observer feeds libFuzzer's extra counters when the binary links
 * counters.c (mlir_fuzzer does): (stage, op), (stage, producer -> op),
 * (stage, changed) and the hashed text of a stage's diagnostic.
 */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "generator/choice.h"
#include "oracle/oracle.h"
#include "schedule.h"
#include "session.h"
#include "target_mlir.h"
#include "targets/targets.h"
#include "translate.h"

/* ------------------------------------------------------------- phases */

/* A stage's implementation: its pipeline text, and whether it is a final
 * lowering (legality, then execution, at JIT opt level opt). */
typedef struct MlirStage {
  const char *text; /* NULL for a defect */
  bool last;
  int opt;
  int defect;    /* 1 + MlsDefect: put a defect into the module (no pass) */
  int sched;     /* 1 + MlsSched: apply a transform schedule (schedule.c; no pass) */
  uint64_t seed; /* a schedule's choices: the header's, or 0 (then the text's) */
  bool road;     /* the linalg road: load translates by linalg.c (no pass) */
  bool each;     /* MLIR's verifier after every pass (mls_run_each) */
} MlirStage;

typedef struct Variant {
  const char *name;
  MlirStage stage;
} Variant;

#define BUFFERIZE                                                                                  \
  "one-shot-bufferize{bufferize-function-boundaries "                                              \
  "function-boundary-type-conversion=identity-layout-map"
#define DEALLOC "buffer-deallocation-pipeline,convert-bufferization-to-memref"
#define TO_CF ",expand-strided-metadata,lower-affine,convert-scf-to-cf)"
#define TO_LLVM                                                                                    \
  "finalize-memref-to-llvm,convert-math-to-llvm,convert-arith-to-llvm,convert-cf-to-llvm,"         \
  "convert-func-to-llvm,reconcile-unrealized-casts)"

/* Negative inputs: a defect the verifier must reject, before the passes. */
static const Variant defects[] = {
    {"defect-shape", {NULL, false, 0, 1 + MLS_DEFECT_SHAPE}},
    {"defect-rank", {NULL, false, 0, 1 + MLS_DEFECT_RANK}},
    {"defect-dtype", {NULL, false, 0, 1 + MLS_DEFECT_DTYPE}},
    {"defect-attribute", {NULL, false, 0, 1 + MLS_DEFECT_ATTRIBUTE}},
};

/* The road into MLIR: the linalg road (linalg.c) instead of TOSA, for the
 * programs it takes (the others go by TOSA).  A stage that does nothing:
 * load reads it in the pipeline, so a report's -pipeline= keeps the road. */
static const Variant roads[] = {
    {"road-linalg", {NULL, false, 0, 0, 0, 0, true}},
};

/* (a) TOSA-level optimisations. */
static const Variant tosa_opt[] = {
    {"tosa-canonicalize", {"builtin.module(canonicalize,cse)"}},
    {"tosa-infer",
     {"builtin.module(func.func(tosa-optional-decompositions,tosa-infer-shapes,"
      "tosa-make-broadcastable))"}},
    {"tosa-fold", {"builtin.module(func.func(tosa-layerwise-constant-fold),canonicalize)"}},
    {"tosa-fold-aggressive",
     {"builtin.module(func.func(tosa-layerwise-constant-fold{aggressive-reduce-constant}))"}},
    {"tosa-transposes", {"builtin.module(func.func(tosa-reduce-transposes),cse)"}},
    {"tosa-all",
     {"builtin.module(func.func(tosa-optional-decompositions,"
      "tosa-layerwise-constant-fold{aggressive-reduce-constant},tosa-reduce-transposes,"
      "tosa-infer-shapes),canonicalize,cse)"}},
    {"tosa-inline", {"builtin.module(inline,symbol-dce,canonicalize)"}},
    {"tosa-sccp", {"builtin.module(sccp,canonicalize)"}},
};

/* TOSA to linalg on tensors (tosa-to-scf first: it cannot follow
 * tosa-to-linalg). */
static const Variant to_linalg[] = {
    {"to-linalg",
     {"builtin.module(func.func(tosa-to-scf,tosa-optional-decompositions,"
      "tosa-infer-shapes,tosa-make-broadcastable,tosa-to-linalg-named,tosa-to-linalg,"
      "tosa-to-arith,tosa-to-tensor,convert-elementwise-to-linalg))"}},
    {"to-linalg-hwcf",
     {"builtin.module(func.func(tosa-to-scf,tosa-optional-decompositions,tosa-infer-shapes,"
      "tosa-make-broadcastable,tosa-to-linalg-named{prefer-conv2d-kernel-layout-hwcf},"
      "tosa-to-linalg{aggressive-reduce-constant},tosa-to-arith{use-32-bit},tosa-to-tensor,"
      "convert-elementwise-to-linalg))"}},
    {"to-linalg-pipeline",
     {"builtin.module(func.func(tosa-to-scf),tosa-to-linalg-pipeline,"
      "func.func(tosa-to-arith,tosa-to-tensor,convert-elementwise-to-linalg))"}},
};

/* (b) linalg on tensors; optional. */
static const Variant linalg_opt[] = {
    {"linalg-canonicalize", {"builtin.module(canonicalize,cse)"}},
    {"linalg-fuse", {"builtin.module(canonicalize,cse,func.func(linalg-fuse-elementwise-ops))"}},
    {"linalg-generalize",
     {"builtin.module(func.func(linalg-generalize-named-ops,"
      "linalg-fuse-elementwise-ops),canonicalize)"}},
    {"linalg-unit-dims", {"builtin.module(func.func(linalg-fold-unit-extent-dims),canonicalize)"}},
    {"linalg-unit-dims-slices",
     {"builtin.module(func.func(linalg-fold-unit-extent-dims{use-rank-reducing-slices}),"
      "canonicalize)"}},
    {"linalg-scalars",
     {"builtin.module(func.func(linalg-generalize-named-ops,"
      "linalg-inline-scalar-operands,linalg-fold-into-elementwise))"}},
    {"linalg-detensorize",
     {"builtin.module(func.func(linalg-detensorize{aggressive-mode}),canonicalize)"}},
    {"linalg-subsets",
     {"builtin.module(eliminate-empty-tensors,fold-tensor-subset-ops,"
      "canonicalize)"}},
};

/* (c) bufferization, always with a deallocation step (compiled code frees
 * its buffers: LeakSanitizer replays). */
static const Variant bufferize[] = {
    {"bufferize", {"builtin.module(" BUFFERIZE "}," DEALLOC ")"}},
    {"bufferize-hoist",
     {"builtin.module(" BUFFERIZE "},func.func(buffer-hoisting,buffer-loop-hoisting)," DEALLOC
      ")"}},
    {"bufferize-stack",
     {"builtin.module(" BUFFERIZE "},func.func(promote-buffers-to-stack{max-"
      "alloc-size-in-bytes=4096})," DEALLOC ")"}},
    {"bufferize-top-down",
     {"builtin.module(" BUFFERIZE " analysis-heuristic=top-down}," DEALLOC ")"}},
    {"bufferize-empty",
     {"builtin.module(eliminate-empty-tensors,empty-tensor-to-alloc-tensor,"
      "" BUFFERIZE "}," DEALLOC ")"}},
};

/* (d) loops and their transformations, then to control flow.  The
 * affine variants verify after every pass: their lower-affine makes
 * valid control flow of an affine.for the IR may not hold (#41: a bound
 * that is not an affine dim), after the affine passes ran on it. */
#define AFFINE(text)                                                                               \
  { "builtin.module(func.func(convert-linalg-to-affine-loops" text ")" TO_CF, .each = true }
static const Variant loops[] = {
    {"loops", {"builtin.module(func.func(convert-linalg-to-loops)" TO_CF}},
    {"loops-parallel", {"builtin.module(func.func(convert-linalg-to-parallel-loops)" TO_CF}},
    {"loops-licm",
     {"builtin.module(func.func(convert-linalg-to-loops,loop-invariant-code-motion,"
      "scf-for-loop-canonicalization),canonicalize" TO_CF}},
    {"affine", AFFINE("")},
    {"affine-scalrep",
     AFFINE(",affine-scalrep,affine-loop-invariant-code-motion,affine-loop-normalize")},
    {"affine-unroll", AFFINE(",affine-loop-unroll{unroll-factor=2},affine-loop-tile{tile-size=2}")},
    {"affine-fuse-producer", AFFINE(",affine-loop-fusion{mode=producer}")},
    {"affine-fuse-sibling", AFFINE(",affine-loop-fusion{mode=sibling}")},
};

/* Variants that crash MLIR 22.1.8 on a large share of inputs with a bug
 * already known (docs/findings/mlir.md): a crash happens inside MLIR, where
 * the known-bug list cannot skip it, so the header never chooses them;
 * -pipeline= still can, by name. */
static const Variant known_crashes[] = {
    /* #6: a linalg.generic with a scalar input (from tosa.cond_if). */
    {"linalg-specialize",
     {"builtin.module(func.func(linalg-generalize-named-ops,linalg-specialize-generic-ops))"}},
    /* #7: copy-before-write and a func.call: an uninitialised read. */
    {"bufferize-copy-before-write",
     {"builtin.module(" BUFFERIZE " copy-before-write}," DEALLOC ")"}},
};

/* To the LLVM dialect: the final stage; (e) the JIT's opt level.
 * convert-math-to-libm scalarises math on vectors (a schedule's) into
 * vector.extract/insert: convert-vector-to-llvm follows it. */
static const Variant to_llvm[] = {
    {"llvm", {"builtin.module(" TO_LLVM, true, 0}},
    {"llvm-generic", {"builtin.module(convert-to-llvm,reconcile-unrealized-casts)", true, 0}},
    {"llvm-libm",
     {"builtin.module(func.func(arith-expand),convert-math-to-libm,convert-vector-to-llvm," TO_LLVM,
      true, 0}},
    {"llvm-O2", {"builtin.module(" TO_LLVM, true, 2}},
};

/* (b') transform schedules on linalg on tensors (schedule.h): the stage
 * text is what mlir-opt-22 runs, on the script the reproducer writes. */
#define SCHEDULE                                                                                   \
  "builtin.module(transform-preload-library{transform-library-paths=@IN@.transform.mlir},"         \
  "transform-interpreter)"
#define SCHED(k)                                                                                   \
  { SCHEDULE, false, 0, 0, 1 + (k), 0 }
static const Variant schedules[] = {
    {"sched-tile-for", SCHED(MLS_SCHED_TILE_FOR)},
    {"sched-tile-forall", SCHED(MLS_SCHED_TILE_FORALL)},
    {"sched-fuse", SCHED(MLS_SCHED_FUSE)},
    {"sched-pad", SCHED(MLS_SCHED_PAD)},
    {"sched-vectorize", SCHED(MLS_SCHED_VECTORIZE)},
    {"sched-vectorize-masked", SCHED(MLS_SCHED_VECTORIZE_MASKED)},
    {"sched-vector-lower", SCHED(MLS_SCHED_VECTOR_LOWER)},
    {"sched-hoist", SCHED(MLS_SCHED_HOIST)},
};

/* What a schedule leaves (scf.forall, vector ops) lowered after the loops
 * stage: in every pipeline with a schedule, before its LLVM stage. */
static const Variant sched_lower = {"sched-lower", {MLS_SCHEDULE_LOWERING}};

#define N(a) (int)(sizeof a / sizeof *a)

/* The phases in order; a phase is in the pipelines of `keep` headers in
 * eight. */
static const struct Phase {
  const char *what;
  const Variant *v;
  int n;
  int keep;
} phases[] = {
    {"the linalg road", roads, N(roads), 4},
    {"a defect for the verifier", defects, N(defects), 1},
    {"TOSA-level optimisations", tosa_opt, N(tosa_opt), 5},
    {"TOSA to linalg", to_linalg, N(to_linalg), 8},
    {"linalg on tensors", linalg_opt, N(linalg_opt), 5},
    {"transform schedules", schedules, N(schedules), 3},
    {"bufferization", bufferize, N(bufferize), 8},
    {"loops", loops, N(loops), 8},
    {"LLVM dialect", to_llvm, N(to_llvm), 8},
};

static const Variant *variant_named(const char *name, size_t len) {
  for (int i = 0; i < N(phases); i++)
    for (int k = 0; k < phases[i].n; k++)
      if (strlen(phases[i].v[k].name) == len && !strncmp(phases[i].v[k].name, name, len))
        return &phases[i].v[k];
  for (int k = 0; k < N(known_crashes); k++)
    if (strlen(known_crashes[k].name) == len && !strncmp(known_crashes[k].name, name, len))
      return &known_crashes[k];
  if (strlen(sched_lower.name) == len && !strncmp(sched_lower.name, name, len))
    return &sched_lower;
  return NULL;
}

/* ------------------------------------------------------------- session */

static MlsSession *session;
static uint8_t seen[1 << 16]; /* features seen so far (mlt_target_stats) */
static long nseen, nrejected, nexecuted, ndefects, naccepted;
static long ntrapped; /* executions whose compiled code trapped (jit.c) */
/* Translations (first forms), those with a `?` dim, those of them with
 * dynamic @main parameters, and static forms loaded for the
 * static-dynamic differential. */
static long ntranslated, ndynamic, ndynparams, nvariants;
/* Inputs whose pipeline chose the linalg road, those it took (the others
 * went by TOSA), and TOSA translations run for the linalg-tosa
 * differential. */
static long nroad, nroad_taken, nroad_compared;

static bool seen_dirty;

/* The user's options (oracle/options.h), as configure last took them. */
static RsOptions opt = {.trace = -1, .mlir_exec = -1, .mlir_counters = true};

/* Do the features feed libFuzzer (counters.c linked, -mlir_counters=1)? */
static bool feedback(void) {
  return rs_mlir_count && opt.mlir_counters;
}

static void count_feature(uint32_t hash) {
  uint8_t *c = &seen[hash & (sizeof seen - 1)];
  nseen += !*c;
  seen_dirty |= !*c;
  *c = 1;
  if (feedback())
    rs_mlir_count(hash);
}

/* Per known cause (translate.h): the miscompiles whose program held its
 * pattern, and those of them its replay confirmed (the rest are reported). */
static long known_matched[MLT_KNOWN_COUNT], known_confirmed[MLT_KNOWN_COUNT];

static void known_count(MltKnown pattern, MltKnown cause) {
  known_matched[pattern]++;
  known_confirmed[cause]++;
}

/* Per schedule kind: inputs whose pipeline ran it, those it applied to,
 * those the transform refused (an error), those with no op it fits. */
static long sched_ran[MLS_SCHED_COUNT], sched_applied[MLS_SCHED_COUNT],
    sched_refused[MLS_SCHED_COUNT], sched_none[MLS_SCHED_COUNT];

/* -mlir_stats=1: the counts, at exit. */
static void print_stats(void) {
  MltTargetStats st = mlt_target_stats();
  fprintf(stderr,
          "relaysmith: mlir: %ld distinct semantic features, %ld refusals, %ld executions "
          "compared (%ld trapped), %ld defects (%ld accepted by the verifier) (feedback %s)\n",
          st.features, st.rejected, st.executed, ntrapped, st.defects, st.accepted,
          feedback() ? "on" : "off");
  fprintf(stderr,
          "relaysmith: mlir: %ld inputs translated, %ld (%.1f%%) with a dynamic dim (%ld of them "
          "with dynamic @main parameters); %ld static translations run for the static-dynamic "
          "differential\n",
          ntranslated, ndynamic, ntranslated ? 100.0 * (double)ndynamic / (double)ntranslated : 0.0,
          ndynparams, nvariants);
  fprintf(stderr,
          "relaysmith: mlir: the linalg road: %ld inputs chose it, %ld (%.1f%%) taken by it, %ld "
          "by TOSA (an operator it lacks); %ld TOSA translations run for the linalg-tosa "
          "differential\n",
          nroad, nroad_taken, nroad ? 100.0 * (double)nroad_taken / (double)nroad : 0.0,
          nroad - nroad_taken, nroad_compared);
  for (int k = MLT_KNOWN_NONE + 1; k < MLT_KNOWN_COUNT; k++)
    fprintf(stderr,
            "relaysmith: mlir: known cause %s: %ld miscompiles held its pattern, a replay "
            "confirmed %ld (skipped as known)\n",
            mlt_known_name(k), known_matched[k], known_confirmed[k]);
  for (int k = 0; k < MLS_SCHED_COUNT; k++)
    fprintf(stderr,
            "relaysmith: mlir: schedule %s: %ld inputs, %ld applied, %ld refused (a transform "
            "error), %ld with no op it fits\n",
            mls_sched_name(k), sched_ran[k], sched_applied[k], sched_refused[k], sched_none[k]);
}

static void configure(const RsOptions *o) {
  static bool stats;
  opt = *o;
  if (opt.mlir_stats && !stats)
    stats = true, atexit(print_stats);
}

static void on_feature(void *ud, const MlsFeature *f) {
  (void)ud;
  count_feature(f->hash);
}

/* The hash of a diagnostic's text with digits (positions, sizes) stripped,
 * mixed with the stage's: a new kind of refusal is new coverage. */
static uint32_t text_hash(const char *text, uint32_t h) {
  for (const char *p = text; *p; p++)
    if (!isdigit((unsigned char)*p))
      h = (h ^ (unsigned char)*p) * 16777619u;
  return h;
}

/* -mlir_seen=FILE keeps the set of features seen in FILE, read at the
 * start and written every 50 programs, so that runs restarted after
 * findings add up (the feedback measurement of docs/mlir.md). */
static void seen_io(bool write) {
  const char *path = opt.mlir_seen;
  FILE *f = *path ? fopen(path, write ? "wb" : "rb") : NULL;
  if (!f)
    return;
  if (write) {
    fwrite(seen, 1, sizeof seen, f);
  } else if (fread(seen, 1, sizeof seen, f) == sizeof seen) {
    for (size_t i = 0; i < sizeof seen; i++)
      nseen += seen[i] != 0;
  }
  fclose(f);
}

static MlsSession *get_session(void) {
  if (!session) {
    seen_io(false);
    session = mls_session_new(-1);
    mls_observe(session, on_feature, NULL);
  }
  return session;
}

MltTargetStats mlt_target_stats(void) {
  return (MltTargetStats){nseen, nrejected, nexecuted, ndefects, naccepted};
}

/* -------------------------------------------------------------- pipelines */

/* Parsed -pipeline= texts live as long as the process (the configuration
 * points into them). */
static char pool[1 << 15];
static size_t pool_used;
static MlirStage pool_stages[TG_MAX_STAGES * 4];
static int pool_nstages;

static char *pool_copy(const char *p, size_t n) {
  if (pool_used + n + 1 > sizeof pool)
    return NULL;
  char *s = memcpy(pool + pool_used, p, n);
  s[n] = 0;
  pool_used += n + 1;
  return s;
}

static void add_variant(TgPipeline *p, const Variant *v) {
  p->stage[p->n++] = (TgStage){v->name, &v->stage, v->stage.last ? TG_ALLOW_FLOAT : 0};
}

/* Schedule stages chosen by a header carry its seed: copies of the
 * variant's stage, reused round robin (a pipeline lives for one input). */
static MlirStage sched_slot[64];
static int sched_next;

static void add_schedule(TgPipeline *p, const Variant *v, uint64_t seed) {
  MlirStage *st = &sched_slot[sched_next++ % N(sched_slot)];
  *st = v->stage;
  st->seed = seed | 1;
  p->stage[p->n++] = (TgStage){v->name, st, 0};
}

/* A pipeline with a schedule that may leave scf.forall or vector ops
 * (mls_sched_leaves_vectors) gets sched-lower before its final stage,
 * unless it has it already: the other schedules leave nothing it lowers,
 * and it cost them a tenth of their time. */
static void add_sched_lower(TgPipeline *p) {
  bool sched = false;
  for (int i = 0; i < p->n; i++) {
    const MlirStage *st = p->stage[i].impl;
    if (st == &sched_lower.stage)
      return;
    sched |= st->sched && mls_sched_leaves_vectors((MlsSched)(st->sched - 1));
  }
  if (!sched || !p->n || p->n == TG_MAX_STAGES)
    return;
  p->stage[p->n] = p->stage[p->n - 1];
  p->stage[p->n - 1] = (TgStage){sched_lower.name, &sched_lower.stage, 0};
  p->n++;
}

/* MLIR syntax: builtin.module(E1,E2,...) -> one stage per element. */
static bool parse_mlir(const char *text, TgPipeline *p, char *err, size_t errlen) {
  static const char head[] = "builtin.module(";
  size_t len = strlen(text);
  if (strncmp(text, head, sizeof head - 1) != 0 || text[len - 1] != ')') {
    snprintf(err, errlen, "a pipeline in MLIR's syntax is builtin.module(...)");
    return false;
  }
  if (!mls_pipeline_ok(get_session(), text)) {
    snprintf(err, errlen, "%s", mls_diag(session));
    return false;
  }
  p->n = 0;
  const char *s = text + sizeof head - 1, *end = text + len - 1;
  while (s < end) {
    const char *e = s;
    for (int depth = 0; e < end && (depth || *e != ','); e++)
      depth += (*e == '(' || *e == '{') - (*e == ')' || *e == '}');
    if (p->n == TG_MAX_STAGES || pool_nstages == N(pool_stages)) {
      snprintf(err, errlen, "more than %d top-level passes", TG_MAX_STAGES);
      return false;
    }
    char *name = pool_copy(s, (size_t)(e - s));
    char full[4096];
    snprintf(full, sizeof full, "%s%.*s)", head, (int)(e - s), s);
    char *impl = pool_copy(full, strlen(full));
    if (!name || !impl) {
      snprintf(err, errlen, "pipeline too long");
      return false;
    }
    MlirStage *st = &pool_stages[pool_nstages++];
    *st = (MlirStage){impl, e == end, 0};
    p->stage[p->n++] = (TgStage){name, st, st->last ? TG_ALLOW_FLOAT : 0};
    s = e + 1;
  }
  return p->n > 0;
}

/* Every variant's name, space-separated. */
static void stage_names(char *buf, size_t len) {
  size_t k = 0;
  buf[0] = 0;
  for (int i = 0; i < N(phases) && k < len; i++)
    for (int j = 0; j < phases[i].n && k < len; j++)
      k += (size_t)snprintf(buf + k, len - k, "%s%s", k ? " " : "", phases[i].v[j].name);
}

static bool parse_pipeline(const char *text, TgPipeline *p, char *err, size_t errlen) {
  if (strchr(text, '('))
    return parse_mlir(text, p, err, errlen);
  p->n = 0;
  for (const char *s = text;;) {
    size_t n = strcspn(s, ",");
    const Variant *v = variant_named(s, n);
    if (!v || p->n == TG_MAX_STAGES) {
      size_t k = (size_t)snprintf(err, errlen,
                                  v ? "too many stages"
                                    : "unknown stage '%.*s' (or give builtin.module(...)); valid: ",
                                  (int)n, s);
      if (!v && k < errlen)
        stage_names(err + k, errlen - k);
      return false;
    }
    add_variant(p, v);
    if (!s[n])
      break;
    s += n + 1;
  }
  const MlirStage *last = p->stage[p->n - 1].impl;
  if (!last->last) {
    snprintf(err, errlen,
             "the last stage must lower to the LLVM dialect (llvm, llvm-generic, ...)");
    return false;
  }
  add_sched_lower(p);
  return true;
}

/* One variant per phase, from the header's bytes (a body mutation keeps
 * the pipeline), each phase kept in `keep` headers in eight. */
static void header_pipeline(const uint8_t *data, size_t size, TgPipeline *p) {
  uint64_t h = tg_header_hash(data, size);
  p->n = 0;
  for (int i = 0; i < N(phases); i++) {
    /* The schedule phase draws from a stream of its own, so that the
     * other phases' variants are those a header chose before it existed;
     * so does the road's, for the same reason. */
    bool sched = phases[i].v == schedules, own = sched || phases[i].v == roads;
    uint64_t s =
        (h ^ (sched ? 0x5851f42d4c957f2dull : 0x2545f4914f6cdd1dull)) * 0x9e3779b97f4a7c15ull;
    if (!own)
      h = h * 6364136223846793005ull + 1442695040888963407ull;
    uint64_t r = (own ? s : h) >> 33;
    if ((int)(r % 8) >= phases[i].keep)
      continue;
    const Variant *v = &phases[i].v[(r / 8) % (uint64_t)phases[i].n];
    if (sched)
      add_schedule(p, v, s);
    else if (v->stage.defect && p->n && ((const MlirStage *)p->stage[0].impl)->road)
      p->stage[0] = (TgStage){v->name, &v->stage, 0}; /* a defect wants TOSA ops: no road */
    else
      add_variant(p, v);
  }
  add_sched_lower(p);
}

/* The differential's second pipeline for a first with a schedule, on
 * three inputs in four: the same pipeline without the schedule (and its
 * sched-lower), so that the schedule alone is compared. */
static bool second_pipeline(const TgPipeline *first, const uint8_t *data, size_t size,
                            TgPipeline *p) {
  uint64_t h = tg_header_hash(data, size);
  bool sched = false;
  p->n = 0;
  for (int i = 0; i < first->n; i++) {
    const MlirStage *st = first->stage[i].impl;
    if (st->sched || st == &sched_lower.stage)
      sched = true;
    else
      p->stage[p->n++] = first->stage[i];
  }
  return sched && (h >> 40) % 4 != 0;
}

/* -------------------------------------------------------------- program */

struct TgProgram {
  Module *m;
  MltResult tr;
  char *text; /* the translation, as parsed */
  MlsModule *mod;
  const MlirStage *stage; /* the last stage run */
  MlsJit *jit;
  bool jit_tried;
  char *jit_diag;       /* why the JIT could not compile a legal module */
  char *diag;           /* the verifier's or legality's diagnostic */
  char *defect;         /* the defect the verifier accepted, or NULL */
  char *defect_text;    /* the module with it, as the verifier saw it */
  char defect_op[96];   /* its op and kind: "tosa.tile, wrong shape" */
  char *script;         /* the last schedule applied (reproducer: X.transform.mlir) */
  char key[256];        /* the failure's discriminator (Verdict.key) */
  char *dyn_text;       /* a second form (load_variant): the first form's translation */
  const char *dyn_name; /* its file: "dynamic.mlir" or "linalg.mlir" */
  bool linalg;          /* translated by the linalg road */
};

/* The first "error: ..." line of a diagnostic, digits kept out, into key:
 * what tells two failures of one stage apart. */
static void key_of(const char *diag, char *key, size_t cap) {
  const char *e = strstr(diag, "error: ");
  e = e ? e + 7 : diag;
  size_t k = 0;
  for (; *e && *e != '\n' && k + 1 < cap; e++)
    if (!isdigit((unsigned char)*e))
      key[k++] = *e;
    else if (!k || key[k - 1] != 'N')
      key[k++] = 'N';
  key[k] = 0;
}

static void unload(TgProgram *p);
static void mlt_target_reproduce(TgProgram *p, Verdict *v);

/* The dims of @main's parameters made dynamic (MltOptions.dyn_params),
 * chosen by the header through the pipeline it chose (by the stages'
 * names, so that a reproduction with -pipeline= chooses the same): in
 * half the pipelines. */
static uint64_t dyn_params_of(const TgPipeline *pl) {
  uint64_t h = 0x84222325cbf29ce4ull;
  for (int i = 0; i < pl->n; i++) /* the road left out: off it, TOSA's as before */
    for (const char *c = pl->stage[i].name;
         c && *c && !((const MlirStage *)pl->stage[i].impl)->road; c++)
      h = (h ^ (unsigned char)*c) * 0x100000001b3ull;
  h ^= h >> 29;
  return h & 1 ? h | 2 : 0;
}

static bool tracing(void);

static TgProgram *load_with(Module *m, Verdict *v, const MltOptions *o) {
  TgProgram *p = calloc(1, sizeof *p);
  p->m = m;
  if (!mlt_translate_with(m, o, &p->tr)) {
    mlt_result_free(&p->tr);
    free(p);
    return NULL; /* outside the translatable subset: skipped */
  }
  MlsSession *s = get_session();
  p->text = strdup(p->tr.text);
  if (tracing()) /* the reproducer's in.mlir, also when a hang or a crash leaves no report */
    fprintf(stderr, "==relaysmith== translation:\n%s", p->text);
  p->mod = mls_parse(s, p->text);
  if (p->mod && mls_validate(s, p->mod) && mls_entry(s, p->mod, "main"))
    return p;
  p->diag = strdup(mls_diag(s));
  key_of(p->diag, p->key, sizeof p->key);
  verdict_fail(v, "translate",
               "MLIR rejects the translator's output: a translator bug, or a verifier bug "
               "when the op shown is valid TOSA (the spec decides)",
               "%s", p->diag);
  mlt_target_reproduce(p, v);
  unload(p);
  return NULL;
}

/* Whether pipeline pl takes the linalg road. */
static bool linalg_road(const TgPipeline *pl) {
  for (int i = 0; i < pl->n; i++)
    if (((const MlirStage *)pl->stage[i].impl)->road)
      return true;
  return false;
}

/* The first form: the translation by the linalg road when the pipeline
 * chose it and the road takes the program; else by TOSA, with relayc's
 * Any dims (and, as the header chooses, @main's parameters) dynamic. */
static TgProgram *load(Module *m, Verdict *v) {
  MltOptions o = {.dyn_params = dyn_params_of(&v->pipeline)};
  TgProgram *p = NULL;
  if (linalg_road(&v->pipeline)) {
    nroad++;
    MltOptions lo = {.linalg = true};
    if ((p = load_with(m, v, &lo))) {
      p->linalg = true;
      nroad_taken++, ntranslated++;
    }
    if (p || v->failed) /* on the road, or MLIR rejects its translation */
      return p;
  }
  p = load_with(m, v, &o);
  ntranslated += p != NULL;
  if (p && p->tr.ndyn > 0) {
    ndynamic++;
    for (int i = 0; i < p->tr.sig.nargs; i++)
      if (p->tr.sig.argdyn[i]) {
        ndynparams++;
        break;
      }
  }
  return p;
}

/* The second form, for the static-dynamic differential: the static
 * translation of a program whose first form has a `?` dim; for the
 * linalg-tosa differential: the TOSA road's (static) translation of a
 * program the linalg road took. */
static TgProgram *load_variant(Module *m, Verdict *v, const char **oracle, const char **what) {
  MltOptions lo = {.linalg = true}, o = {.dyn_params = dyn_params_of(&v->pipeline)};
  MltResult first = {0};
  bool road = linalg_road(&v->pipeline) && mlt_translate_with(m, &lo, &first);
  if (!road) {
    mlt_result_free(&first);
    if (!mlt_translate_with(m, &o, &first) || first.ndyn == 0) {
      mlt_result_free(&first);
      return NULL;
    }
  }
  char *text = strdup(first.text);
  mlt_result_free(&first);
  *oracle = road ? "linalg-tosa" : "static-dynamic";
  *what = road ? "the linalg road and the TOSA road translate one program to different results"
               : "the static and the dynamic translation of one program give different results";
  MltOptions st = {.static_shapes = true};
  TgProgram *p = calloc(1, sizeof *p);
  p->m = m;
  if (!mlt_translate_with(m, &st, &p->tr)) {
    mlt_result_free(&p->tr);
    free(p);
    free(text);
    return NULL;
  }
  p->dyn_text = text;
  p->dyn_name = road ? "linalg.mlir" : "dynamic.mlir";
  MlsSession *s = get_session();
  p->text = strdup(p->tr.text);
  p->mod = mls_parse(s, p->text);
  if (p->mod && mls_validate(s, p->mod) && mls_entry(s, p->mod, "main")) {
    nvariants += !road, nroad_compared += road;
    return p;
  }
  unload(p); /* the first form's own load reports a translation MLIR rejects */
  return NULL;
}

static void unload(TgProgram *p) {
  static long programs;
  if (seen_dirty && ++programs % 50 == 0)
    seen_io(true), seen_dirty = false;
  if (p->jit)
    mls_jit_free(p->jit);
  mls_module_free(p->mod);
  mlt_result_free(&p->tr);
  free(p->text);
  free(p->jit_diag);
  free(p->diag);
  free(p->defect);
  free(p->defect_text);
  free(p->dyn_text);
  free(p->script);
  free(p);
}

/* -trace=1: the translation, and each stage named on stderr before it
 * runs (a schedule with its script), so a crash, hang or out-of-memory
 * inside MLIR shows the stage it happened in and what it was given (the
 * harness turns it on when it reproduces files). */
static bool tracing(void) {
  return opt.trace > 0;
}

/* A defect stage: the verifier must reject the defect (TG_REJECTED, which
 * ends the pipeline: it did its job); a defect it accepts stays, and what
 * the later stages make of it is checked as "verifier-accepts". */
static TgStatus run_defect(TgProgram *p, const MlirStage *st, char **diag) {
  char what[512];
  if (!mls_defect(session, p->mod, (MlsDefect)(st->defect - 1), text_hash(p->text, 0), what,
                  sizeof what))
    return TG_OK; /* no op it fits: the program goes on as it is */
  ndefects++;
  if (!mls_verify(session, p->mod)) {
    const char *d = mls_diag(session);
    size_t n = strlen(what) + strlen(d) + 64;
    *diag = malloc(n);
    snprintf(*diag, n, "the verifier rejects the defect (%s):\n%s", what, d);
    return TG_REJECTED;
  }
  naccepted++;
  p->defect = strdup(what);
  const char *kind = strrchr(what, '(');
  snprintf(p->defect_op, sizeof p->defect_op, "%.*s, %.*s", (int)strcspn(what, ":"), what,
           kind ? (int)strcspn(kind + 1, ")") : 0, kind ? kind + 1 : "");
  p->defect_text = mls_print(session, p->mod);
  return TG_OK;
}

/* The pass pipeline of st on m. */
static MlsStatus run_text(MlsModule *m, const MlirStage *st) {
  return st->each ? mls_run_each(session, m, st->text) : mls_run(session, m, st->text);
}

/* A stage on m: its pipeline, or its schedule built for m (into
 * *script, malloc'd; NULL when no op fits, and the stage changes
 * nothing).  text is the translation (a fixed pipeline's schedule seed). */
static MlsStatus run_on(MlsModule *m, const MlirStage *st, const char *text, char **script) {
  if (st->road) /* chosen at load */
    return MLS_OK;
  if (!st->sched && !st->text) /* a defect: run() puts it in the program; a replay leaves it out */
    return MLS_OK;
  if (!st->sched)
    return run_text(m, st);
  MlsSched k = (MlsSched)(st->sched - 1);
  char why[128], stage[64];
  *script = mls_schedule(session, m, k, st->seed ? st->seed : text_hash(text, 0), why, sizeof why);
  if (!*script)
    return MLS_OK;
  if (tracing()) /* before it runs: a crash or hang inside has it on stderr */
    fprintf(stderr, "==relaysmith== schedule:\n%s", *script);
  snprintf(stage, sizeof stage, "schedule %s", mls_sched_name(k));
  return mls_apply_schedule(session, m, *script, stage);
}

/* A schedule stage, counted by kind; a transform error is a refusal. */
static MlsStatus run_schedule(TgProgram *p, const MlirStage *st) {
  int k = st->sched - 1;
  free(p->script);
  p->script = NULL;
  sched_ran[k]++;
  MlsStatus r = run_on(p->mod, st, p->text, &p->script);
  sched_none[k] += !p->script;
  sched_applied[k] += p->script && r == MLS_OK;
  sched_refused[k] += p->script && r == MLS_FAILED;
  if (!p->script) /* the reproducer's command applies a schedule that does nothing */
    p->script = strdup("module attributes {transform.with_named_sequence} {\n"
                       "  transform.named_sequence @__transform_main(%root: !transform.any_op "
                       "{transform.readonly}) {\n    transform.yield\n  }\n}\n");
  if (tracing() && r != MLS_OK)
    fprintf(stderr, "==relaysmith== the schedule fails:\n%s", mls_diag(session));
  return r;
}

static TgStatus run(TgProgram *p, const TgStage *s, char **diag) {
  p->stage = s->impl;
  if (tracing())
    fprintf(stderr, "==relaysmith== stage %s: %s\n", s->name,
            p->stage->text   ? p->stage->text
            : p->stage->road ? "(the road)"
                             : "(a defect)");
  if (p->stage->road)
    return TG_OK; /* load took it */
  if (p->stage->defect)
    return run_defect(p, p->stage, diag);
  MlsStatus st = p->stage->sched ? run_schedule(p, p->stage) : run_text(p->mod, p->stage);
  if (st == MLS_OK)
    return TG_OK;
  /* A pass of a stage verified after every pass left invalid IR: the
   * verifier oracle after the stage reports it (check). */
  if (st == MLS_FAILED && p->stage->each && !mls_verify(session, p->mod))
    return TG_OK;
  const char *d = mls_diag(session);
  count_feature(text_hash(d, 0x9e3779b9u));
  nrejected++;
  *diag = strdup(d);
  return st == MLS_BAD_PIPELINE ? TG_FAILED : TG_REJECTED;
}

/* The key of a defect the verifier accepted: the op and the kind of the
 * defect first (what the verifier missed), then what went wrong. */
static void defect_key(TgProgram *p) {
  char rest[sizeof p->key];
  snprintf(rest, sizeof rest, "%s", p->key);
  snprintf(p->key, sizeof p->key, "%s accepted; then: %s", p->defect_op, rest);
}

static bool check(TgProgram *p, const TgStage *s, Verdict *v) {
  if (mls_verify(session, p->mod))
    return true;
  free(p->diag);
  p->diag = strdup(mls_diag(session));
  count_feature(text_hash(p->diag, 0x85ebca6bu));
  key_of(p->diag, p->key, sizeof p->key);
  if (p->defect)
    defect_key(p);
  if (p->defect)
    verdict_fail(v, "verifier-accepts",
                 "the verifier accepted a defect, and a later stage left invalid IR", "%s\n%s",
                 p->defect, p->diag);
  else
    verdict_fail(v, "verify", "the module does not verify after a stage that succeeded", "%s",
                 p->diag);
  return false;
}

static bool post(TgProgram *p, const TgStage *s, Verdict *v) {
  if (!p->stage->last)
    return true;
  if (p->defect && !mls_legal(session, p->mod)) {
    key_of(mls_diag(session), p->key, sizeof p->key);
    defect_key(p);
    verdict_fail(v, "verifier-accepts",
                 "the verifier accepted a defect, and the lowering left illegal ops", "%s\n%s",
                 p->defect, mls_diag(session));
    return false;
  }
  if (!mls_legal(session, p->mod)) {
    free(p->diag);
    p->diag = strdup(mls_diag(session));
    key_of(p->diag, p->key, sizeof p->key);
    verdict_fail(v, "legality",
                 "ops other than builtin.module and llvm.* remain after the lowering", "%s",
                 p->diag);
    return false;
  }
  if (p->jit_diag) {
    key_of(p->jit_diag, p->key, sizeof p->key);
    verdict_fail(v, "jit", "the JIT cannot compile the legal, lowered module", "%s", p->jit_diag);
    return false;
  }
  return true;
}

/* One input in rate is executed: -mlir_exec=N (default 4; 1 while
 * reproducing, -trace=1, so that a miscompile found with another rate
 * shows again). */
static bool sampled(uint64_t seed) {
  long rate = opt.mlir_exec >= 0 ? opt.mlir_exec : tracing() ? 1 : 4;
  if (rate <= 0)
    return false;
  seed = (seed ^ seed >> 31) * 0x7fb5d329728ea185ull;
  return (seed ^ seed >> 27) % (uint64_t)rate == 0;
}

/* mls_call; in the test build under -fault=mlir_jit_first, the first
 * element of the first non-empty result comes back changed (a float to
 * x + 1 below 1 in magnitude, -2x above it, 0 for NaN and infinities; an
 * integer or bool with its low bit flipped): a miscompile of the compiled
 * code that no stage explains. */
static MlsCall call(MlsJit *j, int nargs, Tensor *const *args, Arena *a, int nres, Tensor ***res) {
  MlsCall st = mls_call(session, j, nargs, args, a, res);
  if (st != MLS_CALL_OK)
    return st;
#ifdef RS_TEST_PASSES
  for (int i = 0; oracle_test_fault == FAULT_MLIR_JIT_FIRST && i < nres; i++) {
    Tensor *t = (*res)[i];
    if (!t->numel)
      continue;
    if (ir_dtype_is_float(t->dtype)) {
      double x = ir_tensor_get_f64(t, 0);
      ir_tensor_set_f64(t, 0, x != x || x - x != 0 ? 0 : x > -1 && x < 1 ? x + 1 : -2 * x);
    } else {
      ir_tensor_set_i64(t, 0, ir_tensor_get_i64(t, 0) ^ 1);
    }
    break;
  }
#else
  (void)nres;
#endif
  return MLS_CALL_OK;
}

static bool execute(TgProgram *p, EvRun *run, uint64_t seed, EvResult *out) {
  if (!p->stage || !p->stage->last || p->defect || !sampled(seed))
    return false;
  if (!p->jit_tried) {
    p->jit_tried = true;
    if (!mls_legal(session, p->mod))
      return false; /* post reports it */
    p->jit = mls_jit(session, p->mod, p->stage->opt);
    if (!p->jit)
      p->jit_diag = strdup(mls_diag(session));
  }
  if (!p->jit)
    return false;
  GlobalFn *main = ir_global_get(p->m, "main");
  const MltSig *sig = &p->tr.sig;
  EvValue **args = ARENA_ARRAY(run->arena, EvValue *, sig->nparams + 1);
  Tensor **flat = ARENA_ARRAY(run->arena, Tensor *, sig->nargs + 1);
  if (!main || !ev_make_args(run, ev_func_type(run->arena, main->func), seed, args))
    return false;
  for (int i = 0, k = 0; i < sig->nparams; i++)
    k += mlt_flatten_value(args[i], flat + k, sig->nargs - k);
  Tensor **got = NULL;
  MlsCall st = call(p->jit, sig->nargs, flat, run->arena, sig->nresults, &got);
  if (st == MLS_CALL_TRAP) { /* a result: an error where relayc's program has none */
    nexecuted++, ntrapped++;
    *out = (EvResult){.status = EV_ERROR, .msg = arena_strdup(run->arena, mls_diag(session))};
    return true;
  }
  if (st != MLS_CALL_OK) {
    free(p->jit_diag);
    p->jit_diag = strdup(mls_diag(session));
    return false;
  }
  nexecuted++;
  int pos = 0;
  *out = (EvResult){
      .status = EV_OK, .value = mlt_unflatten_value(run, sig->result, got, &pos), .msg = ""};
  return true;
}

static char *print(TgProgram *p) {
  return mls_print(session, p->mod);
}

/* ------------------------------------------------------------ reproducer */

/* The pipeline of the stages up to and including the failing one, as one
 * mlir-opt pipeline: the elements of each stage's builtin.module(...). */
static void joined_pipeline(const TgPipeline *pl, int upto, char *out, size_t cap) {
  size_t n = (size_t)snprintf(out, cap, "builtin.module(");
  const char *sep = "";
  for (int i = 0; i <= upto && i < pl->n && n < cap; i++) {
    const MlirStage *st = pl->stage[i].impl;
    if (!st->text)
      continue;                    /* a defect: in the module the reproducer starts from */
    const char *t = st->text + 15; /* builtin.module( */
    n += (size_t)snprintf(out + n, cap - n, "%s%.*s", sep, (int)strlen(t) - 1, t);
    sep = ",";
  }
  if (n < cap)
    snprintf(out + n, cap - n, ")");
}

/* The variant a stage of phase i is replaced by to clear it of blame: the
 * phase's first (the plainest), or none for a phase that may be left
 * out.  NULL when s is no variant of the tables. */
static bool baseline_of(const TgStage *s, const Variant **base) {
  if (((const MlirStage *)s->impl)->sched) {
    *base = NULL; /* a schedule is optional: left out */
    return true;
  }
  for (int i = 0; i < N(phases); i++)
    for (int k = 0; k < phases[i].n; k++)
      if (s->impl == &phases[i].v[k].stage) {
        *base = phases[i].keep < 8 ? NULL : &phases[i].v[0];
        return true;
      }
  return false;
}

/* Whether the translation through pl gives want on args (the inputs of
 * seed): within the final stage's tolerance, or apart from integers that
 * depend on float rounding the tolerance allows (inexact-int, known.c);
 * false also when it cannot be run. */
static bool gives(TgProgram *p, const TgPipeline *pl, int nargs, Tensor *const *args,
                  const EvValue *want, uint64_t seed) {
  MlsModule *m = mls_parse(session, p->text);
  bool ok = m && mls_entry(session, m, "main");
  int opt = 0;
  for (int i = 0; ok && i < pl->n; i++) {
    const MlirStage *st = pl->stage[i].impl;
    char *script = NULL;
    ok = run_on(m, st, p->text, &script) == MLS_OK && mls_verify(session, m);
    free(script);
    opt = st->opt;
  }
  MlsJit *j = ok && mls_legal(session, m) ? mls_jit(session, m, opt) : NULL;
  EvRun *run = ev_run_new(NULL);
  Tensor **got = NULL;
  bool same = false;
  if (j && call(j, nargs, args, run->arena, p->tr.sig.nresults, &got) == MLS_CALL_OK) {
    int pos = 0;
    EvValue *value = mlt_unflatten_value(run, p->tr.sig.result, got, &pos);
    static const EvRules lowered = {.tol = &ev_default_tolerance};
    char why[256];
    same = ev_compare_values(want, value, &lowered, why, sizeof why) == EV_SAME ||
           mlt_inexact_int(p->m, seed, want, value);
  }
  ev_run_free(run);
  if (j)
    mls_jit_free(j);
  if (m)
    mls_module_free(m);
  return same;
}

/* The stages of a miscompiling pipeline each of which, replaced by its
 * phase's plainest variant (or left out), makes the result right again,
 * as "a+b" into out: the stages to blame, in a key that stays the same
 * whatever the other stages were.  False when no single stage is. */
static bool blame(TgProgram *p, const TgPipeline *pl, int nargs, Tensor *const *args,
                  const EvValue *want, uint64_t seed, char *out, size_t cap) {
  size_t n = 0;
  out[0] = 0;
  for (int i = 0; i < pl->n && n < cap; i++) {
    const Variant *base;
    if (!baseline_of(&pl->stage[i], &base) || (base && pl->stage[i].impl == &base->stage))
      continue;
    TgPipeline alt = {0};
    for (int k = 0; k < pl->n; k++)
      if (k != i)
        alt.stage[alt.n++] = pl->stage[k];
      else if (base)
        alt.stage[alt.n++] = (TgStage){base->name, &base->stage, 0};
    if (gives(p, &alt, nargs, args, want, seed))
      n += (size_t)snprintf(out + n, cap - n, "%s%s", n ? "+" : "", pl->stage[i].name);
  }
  return n > 0;
}

static void mlt_target_reproduce(TgProgram *p, Verdict *v) {
  verdict_file(v, "in.mlir", p->defect_text ? p->defect_text : p->text);
  if (p->script)
    verdict_file(v, "transform.mlir", p->script);
  char pipe[8192], cmd[16384];
  size_t n = 0;
  if (v->stage < 0) {
    n += (size_t)snprintf(cmd + n, sizeof cmd - n,
                          "# parse, verify and validate (the TOSA target the translator aims at):\n"
                          "mlir-opt-22 --pass-pipeline='%s' @IN@.in.mlir\n",
                          MLS_VALIDATE_PIPELINE);
  } else {
    joined_pipeline(&v->pipeline, v->stage, pipe, sizeof pipe);
    const MlirStage *st = v->pipeline.stage[v->stage].impl;
    n += (size_t)snprintf(cmd + n, sizeof cmd - n,
                          "# the failing stage %d (%s): %s\n"
                          "# the pipeline up to it:\n"
                          "mlir-opt-22 --pass-pipeline='%s' @IN@.in.mlir\n",
                          v->stage + 1, v->pipeline.stage[v->stage].name,
                          st->text   ? st->text
                          : st->road ? "the road"
                                     : "a defect",
                          pipe);
    if (p->defect)
      n += (size_t)snprintf(cmd + n, sizeof cmd - n,
                            "# @IN@.in.mlir holds the defect (%s), and the verifier accepts it:\n"
                            "mlir-opt-22 --verify-each @IN@.in.mlir\n",
                            p->defect);
    if (v->stage > 0 && !p->defect)
      n += (size_t)snprintf(
          cmd + n, sizeof cmd - n,
          "# or the failing stage alone, on the module before it (@IN@.before.mlir):\n"
          "mlir-opt-22 --pass-pipeline='%s' @IN@.before.mlir\n",
          st->text);
  }
  if (p->dyn_text) {
    bool road = !strcmp(p->dyn_name, "linalg.mlir");
    verdict_file(v, p->dyn_name, p->dyn_text);
    n += (size_t)snprintf(cmd + n, sizeof cmd - n,
                          "# @IN@.in.mlir is the %s translation; @IN@.%s the %s one, whose run "
                          "gave the first results:\n"
                          "mlir-opt-22 --pass-pipeline='%s' @IN@.%s\n",
                          road ? "TOSA road's (static)" : "static", p->dyn_name,
                          road ? "linalg road's" : "dynamic",
                          v->stage >= 0 ? pipe : MLS_VALIDATE_PIPELINE, p->dyn_name);
  }
  if (v->oracle &&
      (!strcmp(v->oracle, "result") || !strcmp(v->oracle, "differential") ||
       !strcmp(v->oracle, "static-dynamic") || !strcmp(v->oracle, "linalg-tosa")) &&
      v->stage >= 0) {
    /* A miscompile: the same inputs through mlir-runner-22, printing the
     * results' bits (floats as int32), to compare with relayc's. */
    EvRun *run = ev_run_new(NULL);
    GlobalFn *main = ir_global_get(p->m, "main");
    const MltSig *sig = &p->tr.sig;
    EvValue **args = ARENA_ARRAY(run->arena, EvValue *, sig->nparams + 1);
    Tensor **flat = ARENA_ARRAY(run->arena, Tensor *, sig->nargs + 1);
    if (main && ev_make_args(run, ev_func_type(run->arena, main->func), v->seed, args)) {
      for (int i = 0, k = 0; i < sig->nparams; i++)
        k += mlt_flatten_value(args[i], flat + k, sig->nargs - k);
      char *entry = mlt_entry(sig, flat);
      size_t len = strlen(p->text) + strlen(entry) + 2;
      char *runtext = malloc(len);
      snprintf(runtext, len, "%s\n%s", p->text, entry);
      verdict_file(v, "run.mlir", runtext);
      free(runtext);
      free(entry);
      n += (size_t)snprintf(
          cmd + n, sizeof cmd - n,
          "# the miscompile: @main on the inputs relayc used, each result printed as int32 "
          "(floats by their bits)\n"
          "mlir-opt-22 --pass-pipeline='%s' @IN@.run.mlir | mlir-runner-22 -e entry "
          "-entry-point-result=void "
          "-shared-libs=/usr/lib/llvm-22/lib/libmlir_runner_utils.so,/usr/lib/llvm-22/lib/"
          "libmlir_c_runner_utils.so\n",
          pipe);
      EvResult want = ev_run_main(run, p->m, v->seed);
      Tensor **got = NULL;
      if (want.status == EV_OK) {
        n += (size_t)snprintf(cmd + n, sizeof cmd - n, "# relayc's interpreter gives: %s\n",
                              ev_print_value(run->arena, want.value));
        MlsCall st =
            p->jit ? call(p->jit, sig->nargs, flat, run->arena, sig->nresults, &got) : MLS_CALL_BAD;
        if (st != MLS_CALL_BAD) { /* a value, or a trap (no known cause traps) */
          int pos = 0;
          EvValue *value =
              st == MLS_CALL_OK ? mlt_unflatten_value(run, sig->result, got, &pos) : NULL;
          bool diff = strcmp(v->oracle, "result") != 0;
          n += (size_t)snprintf(cmd + n, sizeof cmd - n, "# MLIR gives:                %s%s\n",
                                value ? ev_print_value(run->arena, value) : mls_diag(session),
                                diff ? "  (this pipeline, the second; the first pipeline's "
                                       "value differs as the detail line says)"
                                     : "");
          char blamed[128];
          MltKnown pattern = MLT_KNOWN_NONE, cause = MLT_KNOWN_NONE;
          if (value)
            cause = mlt_known_cause(p->m, v->seed, want.value, value, &pattern);
          known_count(pattern, cause);
          if (pattern && !cause)
            n += (size_t)snprintf(cmd + n, sizeof cmd - n,
                                  "# the program holds the pattern of the known cause %s, but "
                                  "its replay does not give MLIR's values: not that cause\n",
                                  mlt_known_name(pattern));
          if (cause)
            snprintf(p->key, sizeof p->key, "known cause: %s (%s)", mlt_known_name(cause),
                     cause == MLT_KNOWN_FOLD_ZERO
                         ? "MLIR folds a float op with a constant zero, confirmed by replay"
                     : cause == MLT_KNOWN_REDUCE_INF
                         ? "reduce_min/max of infinities give the largest finite float"
                     : cause == MLT_KNOWN_MINMAX_ZERO
                         ? "arith-expand's minimumf/maximumf ignore the sign of zeros, confirmed "
                           "by replay"
                         : "integers that depend on float rounding the tolerance allows, "
                           "confirmed by replay: no MLIR bug");
          else if (blame(p, &v->pipeline, sig->nargs, flat, want.value, v->seed, blamed,
                         sizeof blamed))
            snprintf(p->key, sizeof p->key, "miscompiled by %s", blamed);
          else if (!diff)
            snprintf(p->key, sizeof p->key, "miscompiled by the pipeline as a whole");
          /* A differential blamed by replay (or explained by a known
           * cause) is keyed by that, not by the stages only in the second
           * pipeline: the culprit may be in both. */
          if (diff && p->key[0]) {
            free(v->key);
            v->key = NULL;
          }
        }
      }
    }
    ev_run_free(run);
  }
  v->repro = strdup(cmd);
  if (p->key[0] && !v->key)
    v->key = strdup(p->key);
}

static void reproduce(TgProgram *p, Verdict *v) {
  mlt_target_reproduce(p, v);
  if (v->stage > 0 && v->before)
    verdict_file(v, "before.mlir", v->before);
}

/* m translated to MLIR (decode --target=mlir, reduce's OUT.mlir). */
static char *export_mlir(Module *m, char *err, size_t errlen) {
  MltResult r = {0};
  char *text = NULL;
  if (mlt_translate(m, &r))
    text = strdup(r.text);
  else
    snprintf(err, errlen, "not translated to MLIR: %s", r.skip);
  mlt_result_free(&r);
  return text;
}

const Target target_mlir = {
    .name = "mlir",
    .doc = "MLIR 22's TOSA -> LLVM pass pipelines, in-process (targets/mlir)",
    .policy = "mlir",
    .flag = "pipeline",
    .noun = "stage",
    .parse_pipeline = parse_pipeline,
    .stage_names = stage_names,
    .header_pipeline = header_pipeline,
    .second_pipeline = second_pipeline,
    .configure = configure,
    .load = load,
    .unload = unload,
    .load_variant = load_variant,
    .run = run,
    .check = check,
    .post = post,
    .execute = execute,
    .print = print,
    .reproduce = reproduce,
    .export = export_mlir,
    .ext = "mlir",
};
