/*
 * target_mlir.h - what the MLIR target (target.c, `target_mlir` in
 * targets/targets.h) offers beyond the target interface: its coverage
 * feedback for libFuzzer and its counts.
 *
 * Feedback.  MLIR is not instrumented, so the fuzz target links
 * counters.c, which defines rs_mlir_counters in libFuzzer's extra-counter
 * section; the target's observer (session.h) then increments the counter
 * of each semantic feature after every stage: (stage, op), (stage,
 * producer -> op), (stage, changed) and the hashed text of a stage's
 * diagnostic.  Other binaries do not link counters.c and rs_mlir_count
 * stays NULL (weak).  -mlir_counters=0 keeps the counters at zero (for
 * measuring what the feedback is worth).
 */
#ifndef RS_TARGET_MLIR_H
#define RS_TARGET_MLIR_H

#include <stdbool.h>
#include <stdint.h>

enum { RS_MLIR_NCOUNTERS = 1 << 16 };

/* counters.c: count feature hash in libFuzzer's extra counters (NULL
 * where counters.c is not linked). */
void rs_mlir_count(uint32_t hash) __attribute__((weak));

typedef struct MltTargetStats {
  long features; /* distinct semantic features seen (fed or not) */
  long rejected; /* stages that refused a program (TG_REJECTED) */
  long executed; /* JIT calls compared with the interpreter */
  long defects;  /* defects put into modules (negative inputs) */
  long accepted; /* ... that the verifier accepted */
} MltTargetStats;

MltTargetStats mlt_target_stats(void);

#endif
