/*
 * rs_mutant.h - the run-time switch of a mutant schema (tools/mutate).
 * scripts/mutation-score copies this file and rs_mutant.c into the scratch
 * tree's compiler/passes/, and every rewritten file includes it.
 *
 * Environment:
 *   RELAYSMITH_MUTANT=ID          the active mutant (none when unset or 0);
 *   RELAYSMITH_MUTANT_REACHED=F   created (holding ID) the first time the
 *                                 active mutant's site is executed.
 * A site tests its mutants every time it runs, so "reached" is known
 * whether or not the mutation changes anything there.
 */
#ifndef RS_MUTANT_H
#define RS_MUTANT_H

#include <stdbool.h>

/* The rewritten code compares operands held in __auto_type variables
 * (an enum with an int, a pointer with NULL's void *) and may leave a
 * variable unset where a deleted call set it: the same conversions as
 * the original, and what the mutant means.  Quiet in the including file. */
#ifdef __clang__
#pragma clang diagnostic ignored "-Wsign-compare"
#pragma clang diagnostic ignored "-Wcompare-distinct-pointer-types"
#pragma clang diagnostic ignored "-Wsometimes-uninitialized"
#pragma clang diagnostic ignored "-Wuninitialized"
#endif

extern int rs_mutant_active;

/* Record that the active mutant's site ran (rs_mutant.c). */
void rs_mutant_reached(void);

/* Is mutant id the active one? */
static inline bool rs_mut(int id) {
  if (id != rs_mutant_active)
    return false;
  rs_mutant_reached();
  return true;
}

/* k when mutant base + k - 1 (1 <= k <= n) is the active one, else 0. */
static inline int rs_pick(int base, int n) {
  unsigned k = (unsigned)rs_mutant_active - (unsigned)base;
  if (k >= (unsigned)n)
    return 0;
  rs_mutant_reached();
  return (int)k + 1;
}

/* +1 when mutant id is active, -1 when id + 1 is, else 0. */
static inline int rs_delta(int id) {
  int k = rs_pick(id, 2);
  return k == 1 ? 1 : k == 2 ? -1 : 0;
}

#endif
