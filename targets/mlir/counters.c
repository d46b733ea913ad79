/*
 * counters.c - libFuzzer's extra counters for the MLIR target's semantic
 * features (target_mlir.h).  Linked into mlir_fuzzer only: libFuzzer reads
 * every counter of this section after each input, as it reads its own
 * edge counters, so a new (stage, op), (stage, producer -> op), (stage,
 * changed) or diagnostic is new coverage.  The target counts only while
 * its -mlir_counters option is on (target.c).
 */
#include "target_mlir.h"

__attribute__((section("__libfuzzer_extra_counters"),
               used)) static uint8_t counters[RS_MLIR_NCOUNTERS];

void rs_mlir_count(uint32_t hash) {
  counters[hash % RS_MLIR_NCOUNTERS]++;
}
