/*
 * breaker.h - the break stage: one deliberate defect in a generated
 * program, for negative testing (the reject_fuzzer; oracle.h's
 * ORACLE_REJECT).
 *
 * Every program the generator makes is well typed, so the error paths of
 * the parser and the type checker, and the operator relations' refusals,
 * are never taken.  The break stage takes a decoded program and makes it
 * near-valid: one defect from the catalogue below, at one place, so that
 * a correct checker rejects it (with a diagnostic inside the program) or
 * accepts it (when the defect happens to be well typed: a dimension
 * changed where broadcasting allows it), and whatever it accepts must run
 * without a type fault (the soundness oracle).
 *
 * The choices.  A policy with `breaks` set (gen_policy_reject, the
 * default policy's data otherwise) opens its body with GEN_BREAK_BYTES
 * bytes that gen_decode skips; gen_break reads them, once the program is
 * decoded, as a choice stream of their own, with the rules of choice.h:
 * total (missing bytes read as 0), deterministic, choice 0 the simplest
 * (no defect; then the first site, the first variant), and filtered
 * before choosing: the kind among those that have a site in this program,
 * the site among that kind's sites, the variant among those that apply
 * there.  The first choice, before the defect, erases some or all of the
 * annotations inference can recover (typing.h, ty_erase_annotations), so
 * that a defect also meets the checker's inference: incomplete types,
 * relations deferred until their arguments are known.  Since the bytes sit
 * before the program's own, a mutation of the program keeps the defect's
 * kind and moves its site with the program.
 *
 *   Module *m = gen_decode(data, size, gen_policy_get("reject"), NULL);
 *   GenBreak b;
 *   gen_break(m, data, size, gen_policy_get("reject"), &b);
 *   ... parse and check b.text; b.kind, b.what name the defect ...
 *   gen_break_free(&b);
 *   ir_module_free(m);
 */
#ifndef RS_GEN_BREAKER_H
#define RS_GEN_BREAKER_H

#include "gen.h"

/* The catalogue: one line per kind of defect (id, name, what it is).  It
 * covers every typing rule of relayc's checker and every kind of operator
 * attribute; the last four work on the printed text, for the parser. */
#define GEN_BREAKS(X)                                                                              \
  X(NONE, "none", "no defect: the program as decoded")                                             \
  X(ANNOT_DIM, "annot_dim", "a dimension of a tensor in a type annotation changed")                \
  X(ANNOT_RANK, "annot_rank", "a tensor in a type annotation gains or loses a dimension")          \
  X(ANNOT_DTYPE, "annot_dtype", "the dtype of a tensor in a type annotation changed")              \
  X(ANNOT_DROP, "annot_drop",                                                                      \
    "a type annotation removed (a polymorphic function's parameters and result need theirs)")      \
  X(LIT_DIM, "lit_dim", "a dimension of a tensor literal changed")                                 \
  X(LIT_RANK, "lit_rank", "a tensor literal gains or loses a dimension")                           \
  X(LIT_DTYPE, "lit_dtype", "the dtype of a tensor literal changed")                               \
  X(ATTR_AXIS, "attr_axis", "an axis attribute out of range, or repeated")                         \
  X(ATTR_PAD, "attr_pad", "a padding attribute negative or too large")                             \
  X(ATTR_STRIDE, "attr_stride", "a stride attribute zero, negative or too large")                  \
  X(ATTR_DILATION, "attr_dilation", "a dilation attribute zero, negative or too large")            \
  X(ATTR_GROUPS, "attr_groups", "a groups attribute that does not divide the channels")            \
  X(ATTR_SIZES, "attr_sizes",                                                                      \
    "a size attribute changed: newshape, shape, reps, sections, slice bounds, pool or kernel "     \
    "sizes, units, channels")                                                                      \
  X(ATTR_VALUE, "attr_value", "a string attribute (dtype, layout, mode) with an unknown value")    \
  X(OP_ARG, "op_arg", "an operator argument of another type")                                      \
  X(OP_ARITY, "op_arity", "an operator called with one argument too few or too many")              \
  X(CALL_ARG, "call_arg", "a function argument of another type")                                   \
  X(CALL_ARITY, "call_arity", "a function called with one argument too few or too many")           \
  X(CALLEE, "callee", "a call of a value that is not a function")                                  \
  X(CTOR_ARG, "ctor_arg", "a constructor argument of another type")                                \
  X(CTOR_ARITY, "ctor_arity", "a constructor called with one argument too few or too many")        \
  X(IF_COND, "if_cond", "an if condition that is not a scalar bool")                               \
  X(IF_BRANCH, "if_branch", "an if branch of another type than the other")                         \
  X(MATCH_ARM, "match_arm", "a match clause whose body has another type than the others")          \
  X(MATCH_COVER, "match_cover", "a clause dropped from a complete match")                          \
  X(PATTERN_CTOR, "pattern_ctor", "a constructor of another type definition in a pattern")         \
  X(PATTERN_TUPLE, "pattern_tuple", "a tuple pattern with one field too few or too many")          \
  X(PROJ_INDEX, "proj_index", "a tuple projection past the last field")                            \
  X(UNBOUND_VAR, "unbound_var", "a variable bound nowhere")                                        \
  X(OUT_OF_SCOPE, "out_of_scope", "a variable used outside the scope that binds it")               \
  X(REF_WRITE, "ref_write", "a ref written with a value of another type")                          \
  X(REF_READ, "ref_read", "ref_read of a value that is not a ref")                                 \
  X(OCCURS, "occurs", "a function whose type would have to contain itself (the occurs check)")     \
  X(TOK_DELETE, "tok_delete", "the printed program with one token deleted")                        \
  X(TOK_DUP, "tok_dup", "the printed program with one token written twice")                        \
  X(TOK_SWAP, "tok_swap", "the printed program with two adjacent tokens swapped")                  \
  X(TOK_REPLACE, "tok_replace", "the printed program with one token replaced by another")

typedef enum GenBreakKind {
#define X(id, name, doc) GB_##id,
  GEN_BREAKS(X)
#undef X
      GB_COUNT
} GenBreakKind;

/* The first of the kinds that work on the printed text. */
enum { GB_FIRST_TEXT = GB_TOK_DELETE };

const char *gen_break_name(GenBreakKind k);
/* The kind of that name; false when there is none. */
bool gen_break_lookup(const char *name, GenBreakKind *out);

/* The policy of the reject_fuzzer: the default policy's data, with the
 * break bytes. */
extern const GenPolicy gen_policy_reject;

/* What the break stage did. */
typedef struct GenBreak {
  GenBreakKind kind;
  Expr *node;     /* the node at fault, or holding what changed (in the
                     module); NULL for GB_NONE and the text kinds */
  const char *fn; /* the global function it is in (module-owned), or NULL */
  char what[320]; /* what changed, one line, e.g. "dim 1 of the annotation
                     of %x: Tensor[(2, 3), float32] -> Tensor[(2, 4),
                     float32]" */
  char *text;     /* the program to check, printed (malloc'd): with the
                     defect, or as decoded for GB_NONE */
  int erased;     /* annotations erased before the defect was made */
} GenBreak;

/* Break m, a program gen_decode made from data under p: read p's break
 * bytes (none when p does not have `breaks`: then GB_NONE), check m (the
 * sites need its types), choose a defect and apply it.  m is changed in
 * place (types set by the check may then be stale).  Deterministic, and
 * total: a program that does not check, or has no site, gets GB_NONE. */
void gen_break(Module *m, const uint8_t *data, size_t size, const GenPolicy *p, GenBreak *out);
/* The same with the break choices given directly (n bytes; missing ones
 * read as 0). */
void gen_break_with(Module *m, const uint8_t *choices, size_t n, GenBreak *out);
void gen_break_free(GenBreak *b);

#endif
