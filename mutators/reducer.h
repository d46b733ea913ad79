/*
 * reducer.h - the test-case reducer: shrinks a choice stream while a
 * predicate (e.g. "the same failure") keeps holding.
 *
 * A candidate is kept only when it is shortlex-smaller than the current
 * input (shorter, or as long and lexicographically smaller) and the
 * predicate holds for it; since the generator's choice 0 is the simplest
 * option, smaller bytes decode to simpler programs.  The moves, repeated
 * until none applies (see docs/reduce.md):
 *   trim     drop the bytes the decoder never reads (mut_trim)
 *   header   the swarm header all zero, then each header byte lowered
 *   prefix   the module-level choices (type definitions, @main's result
 *            type) all zero, measured so @main's body keeps its bytes
 *   zero     a span's simplest same-type value (zero bytes, measured)
 *   hoist    a span replaced by a same-type descendant (a let by its body,
 *            an if by a branch, a call of a new global by an argument...)
 *   cut      a span's bytes with their second half zeroed, measured
 *   form     a span's first byte lowered, its other bytes kept, measured
 *   delete   blocks of bytes removed (8, 4, 2, 1 bytes)
 *   zeros    blocks of bytes set to zero (8, 4, 2 bytes)
 *   lower    single bytes lowered: to 0, halved, minus one
 * and, when none of these applies:
 *   graft    a span replaced by a same-type descendant B, with another
 *            same-type descendant A put in place of a span inside B
 *   retype   @main's body replaced by a span of another type, after
 *            module-level choices giving that result type
 *
 *   RedOptions o = {policy, still_fails, ctx};
 *   RedResult r;
 *   if (red_reduce(&o, data, size, &r)) ... r.data[0, r.size) ...
 *   red_result_free(&r);
 */
#ifndef RS_REDUCE_H
#define RS_REDUCE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "generator/gen.h"

/* The predicate: true when data[0, size) is still interesting. */
typedef bool (*RedTestFn)(const uint8_t *data, size_t size, void *ctx);

/* Where the reducer is, for a progress line. */
typedef struct RedProgress {
  size_t size;      /* bytes of the current input */
  size_t tests;     /* predicate calls so far */
  size_t kept;      /* candidates kept so far */
  int round;        /* 1 for the first pass over all moves */
  const char *move; /* the move being tried */
} RedProgress;

typedef struct RedOptions {
  const GenPolicy *policy; /* the policy the predicate decodes with */
  RedTestFn test;
  void *ctx;                                        /* passed to test and progress */
  void (*progress)(const RedProgress *, void *ctx); /* optional, after each test */
  size_t max_tests;                                 /* 0: until the fixpoint */
} RedOptions;

typedef struct RedResult {
  uint8_t *data; /* the reduced input (malloc'd; free with red_result_free) */
  size_t size;
  size_t tests, kept;
  int rounds;
} RedResult;

/* Reduce data[0, size): false (and nothing in out) when the predicate
 * does not hold for the input itself. */
bool red_reduce(const RedOptions *o, const uint8_t *data, size_t size, RedResult *out);
void red_result_free(RedResult *r);

/* Whether a[0, na) is shortlex-smaller than b[0, nb). */
bool red_shortlex_less(const uint8_t *a, size_t na, const uint8_t *b, size_t nb);

#endif
