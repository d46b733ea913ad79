/*
 * analyse.h - what a program uses: expression forms, type kinds, language
 * features, operators, size and depth.  `relaysmith stats` builds its
 * histograms from it, and tests use it to check that policies restrict
 * what they say.  It reads any module (not only generated ones); types
 * are taken from annotations, and from Expr.type when a type check ran.
 * The prelude's library functions (typing.h, ty_prelude_add) are not
 * generated code: calls of them count, their bodies do not.
 */
#ifndef RS_GEN_ANALYSE_H
#define RS_GEN_ANALYSE_H

#include "compiler/ir/ir.h"

#define GEN_FEATURES(X)                                                                            \
  X(LET, "let")                                                                                    \
  X(IF, "if")                                                                                      \
  X(TUPLE, "tuple literal")                                                                        \
  X(PROJ, "projection")                                                                            \
  X(CONST, "constant")                                                                             \
  X(OP_CALL, "operator call")                                                                      \
  X(CTOR_CALL, "constructor call")                                                                 \
  X(FN_LITERAL, "function literal")                                                                \
  X(CLOSURE_CALL, "closure call")                                                                  \
  X(CAPTURE, "closure capturing a variable")                                                       \
  X(GLOBAL_CALL, "global call")                                                                    \
  X(GLOBAL_VALUE, "global used as a value")                                                        \
  X(GLOBALS, "global functions besides @main")                                                     \
  X(RECURSION, "recursive global")                                                                 \
  X(POLY_CALL, "call of a polymorphic global (prelude)")                                           \
  X(POLY_GLOBAL, "generated polymorphic global")                                                   \
  X(POLY_MUTUAL, "mutually recursive polymorphic globals")                                         \
  X(POLY_TWO, "polymorphic global over two type parameters")                                       \
  X(REF_NEW, "ref")                                                                                \
  X(REF_READ, "ref_read")                                                                          \
  X(REF_WRITE, "ref_write")                                                                        \
  X(MATCH, "match")                                                                                \
  X(NESTED_PATTERN, "match with nested patterns")                                                  \
  X(TUPLE_PATTERN, "tuple pattern")                                                                \
  X(VAR_PATTERN, "variable pattern")                                                               \
  X(GRAPH_BINDING, "graph binding (shared node)")                                                  \
  X(PRELUDE_ADT, "prelude ADT (List/Option/Tree)")                                                 \
  X(GEN_ADT, "generated ADT")                                                                      \
  X(TY_TENSOR, "type: tensor")                                                                     \
  X(TY_SCALAR, "type: scalar tensor")                                                              \
  X(TY_ANY_DIM, "type: tensor with an Any dim (?)")                                                \
  X(TY_TUPLE, "type: tuple")                                                                       \
  X(TY_UNIT, "type: unit")                                                                         \
  X(TY_FUNC, "type: function")                                                                     \
  X(TY_REF, "type: ref")                                                                           \
  X(TY_ADT, "type: ADT")                                                                           \
  X(UNUSED_LET, "let whose variable is unused")

typedef enum GenFeat {
#define X(id, desc) GFE_##id,
  GEN_FEATURES(X)
#undef X
      GFE_COUNT
} GenFeat;

extern const char *const gen_feat_names[GFE_COUNT];

typedef struct GenInfo {
  bool has[GFE_COUNT];
  int op_calls[OP_COUNT]; /* calls of each operator */
  int64_t nodes;          /* expression nodes, shared ones once */
  int depth;              /* deepest expression nesting */
  int64_t max_numel;      /* largest tensor type mentioned */
  int nfuncs;             /* global functions including @main */
  int dtypes;             /* bit set of dtypes mentioned */
} GenInfo;

/* Analyse every global function of m. */
void gen_analyse(const Module *m, GenInfo *out);

#endif
