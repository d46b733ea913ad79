/*
 * text_mutate.h - syntax-level mutations of MLIR text, for the MLIR text
 * target (harnesses/mlir_text_fuzzer.c; docs/mlir.md, "The MLIR text
 * target").
 *
 * Each mutation finds the places in the text where it fits by MLIR's
 * lexical syntax (no parse: the text need not be valid), picks one and
 * rewrites it in place.  Plain C, no MLIR library: the mutations know
 * MLIR's op names from a table of the installed headers (text_ops.def).
 */
#ifndef RS_MLIR_TEXT_MUTATE_H
#define RS_MLIR_TEXT_MUTATE_H

#include <stddef.h>
#include <stdint.h>

typedef enum MtmKind {
  MTM_ELEMENT_TYPE, /* an element type (f32, i32, ...) to another */
  MTM_DIM,          /* a shape's dim to another size, 0 or ? */
  MTM_RANK,         /* a shape gains or loses a dim, or becomes unranked */
  MTM_SWAP,         /* two operands of one op swapped */
  MTM_DROP_LINE,    /* a line deleted */
  MTM_DUP_LINE,     /* a line duplicated, its results renamed */
  MTM_ATTRIBUTE,    /* a number outside a shape, or true/false, changed */
  MTM_OP_NAME,      /* an op renamed to another MLIR op */
  MTM_SSA_USE,      /* a use of an SSA value made a use of another */
  MTM_DROP_TOKEN,   /* a token of an op's line deleted (a custom syntax cut short) */
  MTM_NKINDS
} MtmKind;

/* The name of a kind, for traces and tests. */
const char *mtm_kind_name(MtmKind kind);

/* The number of MLIR op names in the table, and the i-th (sorted). */
int mtm_op_count(void);
const char *mtm_op_name(int i);

/* A deterministic generator for the choices (splitmix64). */
uint64_t mtm_next(uint64_t *state);

/* Apply one mutation of kind to text[0, len) in place (capacity cap),
 * choices drawn from *rng; returns the new length, or len with the text
 * unchanged when the kind has no place to apply or the result would not
 * fit in cap. */
size_t mtm_mutate(char *text, size_t len, size_t cap, MtmKind kind, uint64_t *rng);

/* Insert a line of other[0, olen) at a line boundary of text; returns the
 * new length, or len unchanged when nothing fits. */
size_t mtm_splice_line(char *text, size_t len, size_t cap, const char *other, size_t olen,
                       uint64_t *rng);

#endif
