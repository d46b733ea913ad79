/*
 * mut.h - the structure-aware mutator: edits a choice stream (an input of
 * the generator, gen.h) through its spans, independent of the fuzzing
 * engine.  The libFuzzer adapter is in harnesses/pass_fuzzer.c, the AFL++
 * one in mutators/afl_mutator.c.
 *
 * One call decodes the input with span recording, picks a kind of
 * mutation (MutKind) and a span, writes new bytes for that span, and
 * measures with one more decode how many of them the new subtree reads,
 * so that the bytes after the span stay where they were and the rest of
 * the program is read from the same bytes (it can still change where it
 * depends on the span, e.g. which variables are still unused).
 *
 * Decoding is total, so every output decodes to a well-typed program,
 * unless the generator breaks a contract on one of the mutator's decodes:
 * the output is then the bytes it failed on (MutInfo.failure), for the
 * fuzz target's check to report.
 * The output depends only on (input, max_size, seed) and the byte
 * mutator (MutOptions.bytes; the built-in one is seeded from seed).
 *
 *   MutOptions o = {gen_policy_get("default")};
 *   size_t n = mut_mutate(&o, data, size, data, max_size, seed, NULL);
 */
#ifndef RS_MUT_H
#define RS_MUT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "generator/gen.h"

/* The kinds of mutation. */
typedef enum MutKind {
  MUT_REGEN,  /* fresh random bytes for a span: a new subtree of its type,
                 in its scope */
  MUT_SHRINK, /* a span toward zeros: its simplest value, or its own bytes
                 with a zero tail, or smaller bytes */
  MUT_COPY,   /* a span replaced by another same-type span of the input that
                 is not its descendant (a sibling, another branch, an
                 ancestor), preferring ones whose free variables are in scope */
  MUT_WRAP,   /* a let or an if added around a span */
  MUT_UNWRAP, /* a span replaced by one of its same-type descendants */
  MUT_LEAF,   /* the byte mutator on the bytes of one leaf span */
  MUT_HEADER, /* the swarm header (budget, features, operators, and the pass
                 sequence in pass_fuzzer) or the module-level choices */
  MUT_CROSS,  /* crossover: a same-type span of a second input, its free
                 variables read again as variables of the recipient's scope */
  MUT_KINDS
} MutKind;

extern const char *const mut_kind_names[MUT_KINDS];

/* A byte mutator, e.g. libFuzzer's LLVMFuzzerMutate: mutates data[0, size)
 * in place (capacity max_size) and returns the new size. */
typedef size_t (*MutBytesFn)(uint8_t *data, size_t size, size_t max_size);

typedef struct MutOptions {
  const GenPolicy *policy; /* the policy the target decodes with */
  MutBytesFn bytes;        /* NULL: mut_bytes_builtin, seeded per call */
  uint32_t kinds;          /* bit k allows MutKind k; 0 allows every kind */
  int local;               /* > 0: up to this many more tries for a span
                              mutation that leaves the program outside the
                              span unchanged (mut_locality); the first one
                              made when none does */
} MutOptions;

/* What one call did (for statistics and tests). */
typedef struct MutInfo {
  MutKind kind;
  int span;         /* the parent's span index, -1 for MUT_HEADER */
  uint32_t start;   /* the span's bytes [start, old_end) in the parent */
  uint32_t old_end; /* became [start, new_end) in the output */
  uint32_t new_end;
  int donor;    /* MUT_COPY/UNWRAP/CROSS: the span copied, else -1 */
  bool exact;   /* new_end is where the new subtree ends */
  bool failure; /* the output is not a mutant but bytes the generator failed
                   on (gen_decode_checked), for the target's check to report */
} MutInfo;

/* Mutate data[0, size) into out (capacity max_size; out may be data).
 * Returns the new size (<= max_size), 0 only when max_size is 0 or no
 * allowed kind applies. */
size_t mut_mutate(const MutOptions *o, const uint8_t *data, size_t size, uint8_t *out,
                  size_t max_size, uint64_t seed, MutInfo *info);

/* Crossover: a span of a gets the bytes of a same-type span of b.  Falls
 * back to mut_mutate of a when no span of b fits (MUT_CROSS need not be
 * in o->kinds).  out may not overlap a or b. */
size_t mut_crossover(const MutOptions *o, const uint8_t *a, size_t na, const uint8_t *b, size_t nb,
                     uint8_t *out, size_t max_size, uint64_t seed, MutInfo *info);

/* A small byte mutator (bit flips, random and interesting values, inserts,
 * deletes), deterministic in seed. */
size_t mut_bytes_builtin(uint8_t *data, size_t size, size_t max_size, uint64_t seed);

/* The input with trailing bytes the decoder never reads removed (and
 * trailing zeros, which read like missing bytes): decodes to the same
 * program.  Returns the new size. */
size_t mut_trim(const GenPolicy *p, const uint8_t *data, size_t size);

/* ------------------------------------------------ measuring a mutation */

/* How a mutant relates to its parent. */
typedef struct MutLocality {
  bool differs; /* the programs are not alpha-equivalent */
  bool outside; /* with the mutated span cut out of both, they are
                   (for MUT_HEADER: the whole programs are) */
} MutLocality;

/* Decode parent and mutant and compare them around info's span. */
MutLocality mut_locality(const GenPolicy *p, const uint8_t *parent, size_t np,
                         const uint8_t *mutant, size_t nm, const MutInfo *info);

/* One past the last span of span i's subtree (spans are in pre-order). */
int mut_subtree_end(const GenSpans *sp, int i);

/* ------------------------------------------------- editing (reducer) */

/* An input decoded once with spans, whose spans can be replaced one edit
 * at a time; every edit starts from that same input.  For the reducer
 * (reducer.h), which needs the measured replacement without randomness. */
typedef struct MutEdit MutEdit;

/* Decode data[0, size) with spans (zero padded, as the mutator does). */
MutEdit *mut_edit_new(const GenPolicy *p, const uint8_t *data, size_t size);
void mut_edit_free(MutEdit *e);
/* The input's spans, in pre-order; v[0] is @main's body. */
const GenSpans *mut_edit_spans(const MutEdit *e);
/* The input's bytes (zero padded); the decoder reads [0, *end). */
const uint8_t *mut_edit_bytes(const MutEdit *e, size_t *end);
/* The input with span i's bytes replaced by r[0, rn), zero extended to
 * the length the new subtree reads (measured by a decode), without
 * trailing zeros: *out (owned by e, valid until the next edit) and *n.
 * False when the length could not be measured. */
bool mut_edit_span(MutEdit *e, int i, const uint8_t *r, size_t rn, const uint8_t **out, size_t *n);
/* The spans of the last mut_edit_span's measuring decode: those up to and
 * in the new subtree are the candidate's (its span i is the new one). */
const GenSpans *mut_edit_last(const MutEdit *e);
/* The same for the module-level choices between the header and @main's
 * body (type definitions, @main's result type). */
bool mut_edit_prefix(MutEdit *e, const uint8_t *r, size_t rn, const uint8_t **out, size_t *n);

#endif
