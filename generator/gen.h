/*
 * gen.h - the type-directed program generator: decodes any byte string
 * into a module whose @main is well typed.
 *
 * Generation follows the typing rules in reverse: given a wanted type and
 * the variables in scope, choose an expression form that can produce it
 * (filtered by context before any byte is spent), then generate the
 * subexpressions at the types that form requires.  Operator calls go
 * through the registry's recognizers and solvers (op.h), drawing their
 * freedoms from the same choice stream (choice.h).
 *
 * Policies are data (GenPolicy): weights per expression form and per type
 * kind, an operator deny-list and weights per fusion pattern, feature
 * flags, size budgets and tensor limits, plus an optional hook through
 * which a specialised generator takes over some nodes while reusing the
 * library's pieces (see generator/fusion.c and docs/generators.md).
 *
 * Usage:
 *   const GenPolicy *p = gen_policy_get("default");
 *   Module *m = gen_decode(data, size, p, NULL);
 *   ... ir_print_module(m) ...
 *   ir_module_free(m);
 */
#ifndef RS_GEN_H
#define RS_GEN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "choice.h"
#include "compiler/ir/ir.h"
#include "compiler/ops/op.h"

/* --------------------------------------------------------------- policy */

/* Expression forms, in the order they are offered: form 0 (a variable) and
 * form 1 (a literal) are the simplest, terminating ones. */
typedef enum GenForm {
  GF_VAR,       /* a variable in scope of the wanted type */
  GF_LIT,       /* constant, tuple, fn literal, ref(..), constructor */
  GF_SHARE,     /* reuse a pure expression generated earlier (graph binding) */
  GF_LET,       /* let %x = e1; e2 */
  GF_IF,        /* if (c) { e1 } else { e2 } */
  GF_PROJ,      /* (.., e, ..).i or a tuple variable's field */
  GF_OP,        /* an operator call (registry recognizer + solver) */
  GF_CALL,      /* call of a closure: a fn literal or a function variable */
  GF_GLOBAL,    /* call of a global function (or one made for the purpose) */
  GF_REF_READ,  /* ref_read(e) with e : Ref[T] */
  GF_REF_WRITE, /* let _ = ref_write(r, v); body  (or ref_write when T = ()) */
  GF_MATCH,     /* match with complete, possibly nested, patterns (one in
                   8 a match? with a clause left out, which may fail) */
  GF_PARAM,     /* a new parameter of @main (tensors; made where needed, so
                   data flows from the inputs instead of constants) */
  GF_COUNT
} GenForm;

/* Type kinds the type generator draws. */
typedef enum GenTypeKind {
  GT_TENSOR, /* a tensor type within the limits */
  GT_TUPLE,
  GT_FUNC,
  GT_REF,
  GT_ADT,
  GT_OPTYPE, /* a tensor type some operator produces (drawn by its sampler),
                so rarely-wanted result shapes get wanted too */
  GT_COUNT
} GenTypeKind;

/* Language features; a policy enables a set, and the input's header may
 * switch some off (swarm testing). */
enum {
  GEN_F_LET = 1u << 0,       /* let bindings (ref_write sequences too) */
  GEN_F_IF = 1u << 1,        /* if expressions */
  GEN_F_TUPLE = 1u << 2,     /* tuple types, tuple literals, projections
                                (operators taking a tuple, concatenate and
                                stack, still get a tuple literal) */
  GEN_F_CLOSURE = 1u << 3,   /* function types, fn literals, closure calls */
  GEN_F_GLOBAL = 1u << 4,    /* global functions besides @main */
  GEN_F_RECURSION = 1u << 5, /* structurally recursive globals over ADTs */
  GEN_F_REF = 1u << 6,       /* Ref types, ref/ref_read/ref_write */
  GEN_F_ADT = 1u << 7,       /* prelude ADTs (List, Option, Tree) and match */
  GEN_F_GENADT = 1u << 8,    /* generated type definitions */
  GEN_F_NESTED = 1u << 9,    /* nested patterns */
  GEN_F_SHARE = 1u << 10,    /* graph bindings */
  GEN_F_OPS = 1u << 11,      /* operator calls */
  GEN_F_PRELUDE = 1u << 12,  /* calls of the polymorphic prelude functions
                                (@map, @foldl, ...; needs GLOBAL and ADT) */
  GEN_F_ALL = (1u << 13) - 1,
};
enum { GEN_NFEATURES = 13 };

typedef struct GenCtx GenCtx;

/* A hook lets a specialised generator take over the generation of an
 * expression of type `want` with the given budget.  It returns NULL to
 * leave the node to the default forms.  It may read choices (it runs
 * deterministically, so decoding stays total) and build on gen_expr and
 * the other functions below. */
typedef Expr *(*GenHook)(GenCtx *g, Type *want, int budget);

typedef struct GenPolicy {
  const char *name;
  const char *doc;                    /* one line for `relaysmith gen --help` */
  uint8_t form_weight[GF_COUNT];      /* relative weights; 0 disables a form */
  uint8_t type_weight[GT_COUNT];      /* for the type generator */
  uint8_t pattern_weight[6];          /* operator weight by OpPattern; 0 = never */
  uint64_t op_deny[OP_WORDS];         /* bit i set: operator i is never called */
  uint32_t features;                  /* GEN_F_* enabled */
  bool swarm;                         /* honour the header's disable bits */
  uint32_t swarm_keep;                /* features the header cannot switch off */
  int budget;                         /* nodes for @main when the header says 0 */
  int budget_min, budget_max;         /* range the header's budget byte maps to */
  int max_depth;                      /* expression nesting bound */
  int max_type_depth;                 /* nesting of generated types */
  int max_params;                     /* parameters of globals (and closures) */
  int max_main_params;                /* parameters @main may get (GF_PARAM) */
  int max_globals;                    /* global functions besides @main */
  int max_adts;                       /* generated type definitions */
  OpLimits limits;                    /* tensor bounds for types and solvers */
  uint32_t dtypes;                    /* dtypes the type generator draws */
  const bool *op_only;                /* optional allow-list of OP_COUNT entries: only the
                                         operators marked true are called */
  GenHook hook;                       /* optional, see above */
  const struct GenPolicy *const *mix; /* optional: NULL-terminated policies, one of
                                    which each input's header picks to decode
                                    with (gen_policy_pick); the fields above
                                    are then unused */
  uint8_t any_rate;                   /* Any dims: after the static program, a
                                         draw in 0..15 at most this (and not 0)
                                         relaxes some annotations' dims to Any
                                         (generator/dyn.c); 0 never */
  bool breaks;                        /* the body opens with GEN_BREAK_BYTES
                                         choices of the break stage (breaker.h),
                                         which gen_decode skips */
  uint8_t poly_weight;                /* weight of a generated polymorphic global
                                         (or mutually recursive pair) among the
                                         global-call options (generator/poly.c);
                                         0: never */
} GenPolicy;

enum { GEN_BREAK_BYTES = 12 };

extern const GenPolicy gen_policy_default;
extern const GenPolicy gen_policy_fusion;
extern const GenPolicy gen_policy_mlir;
/* Pass-directed policies: the program shapes one pass acts on. */
extern const GenPolicy gen_policy_simplify; /* simplify_expr */
extern const GenPolicy gen_policy_fold;     /* fold_constant */
extern const GenPolicy gen_policy_dead;     /* dead_code */
extern const GenPolicy gen_policy_cse;      /* eliminate_common_subexpr */
extern const GenPolicy gen_policy_inline;   /* inline */
extern const GenPolicy gen_policy_scopes;   /* to_anf, to_gnf */
extern const GenPolicy gen_policy_mix;      /* default or one of the above, per input */

/* The policy an input with this header decodes with under p: p itself,
 * or for a mixing policy the one the header picks (byte 14's low nibble
 * f picks entry f * n / 16 of the n in p->mix, so 0 picks the first). */
const GenPolicy *gen_policy_pick(const GenPolicy *p, const uint8_t header[GEN_HEADER_BYTES]);

/* Look a policy up by name; NULL when unknown. */
const GenPolicy *gen_policy_get(const char *name);
/* The registered policies, for listing: NULL past the end. */
const GenPolicy *gen_policy_at(int i);

/* ---------------------------------------------------------------- spans */

/* One variable in scope where a span starts. */
typedef struct GenScopeVar {
  Var *var;
  Type *type;
} GenScopeVar;

/* The bytes one generated expression consumed, its type and its scope. */
typedef struct GenSpan {
  uint32_t start, end;    /* body byte range [start, end) in the input */
  int parent;             /* index of the enclosing span, -1 for a root */
  int depth;              /* nesting among spans: 0 for a root, parent's + 1 */
  GenForm form;           /* how it was generated */
  Type *type;             /* the wanted (= generated) type; module-owned */
  Expr *expr;             /* the expression; module-owned */
  int scope_off, scope_n; /* its scope: scope[scope_off .. +scope_n) */
} GenSpan;

/* Spans recorded by one gen_decode call, in pre-order (a parent before its
 * children).  Initialise with {0}; gen_decode resets it; free with
 * gen_spans_free.  Types and expressions belong to the decoded module. */
typedef struct GenSpans {
  GenSpan *v;
  int n, cap;
  GenScopeVar *scope;
  int nscope, capscope;
} GenSpans;

void gen_spans_free(GenSpans *s);

/* ----------------------------------------------------------- decoding */

/* Decode data into a new module (free with ir_module_free).  Total: every
 * byte string, including the empty one, gives a module whose @main is
 * well typed.  Deterministic.  When spans is not NULL it receives one span
 * per generated expression.  A broken contract of the generator (a bug)
 * asserts; gen_decode_checked reports it instead. */
Module *gen_decode(const uint8_t *data, size_t size, const GenPolicy *p, GenSpans *spans);

/* gen_decode for the callers that report what they find (the oracle, the
 * mutator): a broken contract of the generator, or of an operator's solver
 * it called, is written to why (the first one; "" when none) instead of
 * asserting.  Every byte string is a valid input, so such a failure is
 * always a bug, never the input's fault.  Decoding goes on with a
 * fallback at the failing node, so the module can still be printed and
 * freed, but need not be well typed.  With spans, their invariants (one
 * root, pre-order, each span inside its parent's bytes) are checked too:
 * the mutator relies on them. */
Module *gen_decode_checked(const uint8_t *data, size_t size, const GenPolicy *p, GenSpans *spans,
                           char *why, size_t whylen);

#ifdef RS_TEST_PASSES
/* Test build only: a deliberate generator bug (the oracle's
 * -fault=generator_spans): its check of an operator call fails for
 * `reverse`, but only while spans are recorded, i.e. only on the
 * mutator's decodes unless the check decodes the same way. */
extern bool gen_test_fault_spans;
#endif

/* The effective configuration a header selects under a policy. */
typedef struct GenConfig {
  uint32_t features;
  uint64_t op_allow[OP_WORDS]; /* bit op set: allowed; no bit at or above OP_COUNT */
  int budget;
  OpLimits limits;
  uint32_t dtypes;
  int boost_form; /* -1, or a GenForm whose weight is tripled */
} GenConfig;
void gen_config(const GenPolicy *p, const uint8_t header[GEN_HEADER_BYTES], GenConfig *out);

/* ------------------------------------ building blocks for new generators */

/* These are for hooks (and tests): they work on the context of the decode
 * in progress. */
Module *gen_module(GenCtx *g);
const GenConfig *gen_cfg(GenCtx *g);
/* A choice in [0, n) from the stream. */
uint32_t gen_choose(GenCtx *g, uint32_t n);
/* Current expression depth. */
int gen_depth(GenCtx *g);
/* An expression of type t with about `budget` nodes, in the current scope. */
Expr *gen_expr(GenCtx *g, Type *t, int budget);
/* The default forms only (what gen_expr does when the hook declines). */
Expr *gen_expr_default(GenCtx *g, Type *t, int budget);
/* A type of the kinds the configuration enables. */
Type *gen_type(GenCtx *g);
/* A tensor type within the configuration's limits. */
Type *gen_tensor_type(GenCtx *g);
/* Whether op may be called here to produce t (allowed and recognised). */
bool gen_op_ok(GenCtx *g, OpId op, const Type *t);
/* Solve op for t (gen_op_ok must hold): argument types and attrs.  False
 * only when the solver breaks its contract (asserts in debug builds). */
bool gen_op_solve(GenCtx *g, OpId op, Type *t, OpSig *sig);
/* The call op(args) with the solution's attributes. */
Expr *gen_op_build(GenCtx *g, OpId op, const OpSig *sig, Expr *const *args);
/* Bind value to a fresh variable of type t while generating body; body_fn
 * is called with the variable in scope and returns the body. */
Expr *gen_let_with(GenCtx *g, Type *t, Expr *value, Expr *(*body_fn)(GenCtx *g, Var *v, void *arg),
                   void *arg);
/* Split budget among k children (choice 0 = evenly); each gets >= 1. */
void gen_split(GenCtx *g, int budget, int k, int *out);

#endif
