/*
 * op.h - the operator registry: relations, recognizers, solvers, samplers
 * and kernels for every operator in ops.def.
 *
 * Invariants (checked for every operator by tests/unit/test_ops_props.c):
 *   rec(T)  =>  solve(T) succeeds and rel(solution) == T exactly;
 *   sample() yields a T with rec(T) and rel(args) == T;
 *   the kernel writes outputs of exactly the relation's shapes and dtypes,
 *   with defined behaviour on every input (no UBSan report, ever).
 *
 * Operators never print and never exit; errors are returned as text.
 */
#ifndef RELAYC_OP_H
#define RELAYC_OP_H

#include "compiler/ir/ir.h"

enum { OP_MAX_ARGS = 5 };

/* Fusion pattern kinds, ordered as in Relay: a lower kind can be fused
 * into a higher one's group. */
typedef enum OpPattern {
  OPAT_ELEMWISE,
  OPAT_BROADCAST,
  OPAT_INJECTIVE,
  OPAT_COMM_REDUCE,
  OPAT_OUT_ELEMWISE_FUSABLE,
  OPAT_OPAQUE,
} OpPattern;

/* A source of choices.  below(n) returns a value in [0, n); 0 must always
 * be an acceptable answer and should be the simplest option.  The
 * generator backs it with the choice stream; tests with a PRNG. */
typedef struct Chooser Chooser;
struct Chooser {
  uint32_t (*below)(Chooser *self, uint32_t n);
};
static inline uint32_t op_choose(Chooser *c, uint32_t n) {
  return n <= 1 ? 0 : c->below(c, n);
}

/* Bounds a solver or sampler must respect, so interpretation stays cheap. */
typedef struct OpLimits {
  int max_rank;      /* <= IR_MAX_RANK */
  int64_t max_dim;   /* largest single dimension it may invent */
  int64_t max_numel; /* largest tensor (elements) among args and result */
  int64_t max_flops; /* multiply-adds for dense, batch_matmul, conv2d */
  uint32_t dtypes;   /* bit set of DTypes it may invent (1u << DT_x) */
  int64_t min_dim;   /* smallest dimension it may invent: 0, or 1 for no
                        empty tensors (dims of the wanted type are kept) */
} OpLimits;

extern const OpLimits op_default_limits;

/* One solution: argument types, attributes and the result type.  An
 * operator whose result's shape depends on its operands' values
 * (op_value_typed) may need an argument to be a constant: then lit[i] is
 * set and argument i is the scalar val[i] of its type's dtype. */
typedef struct OpSig {
  int nargs;
  Type *args[OP_MAX_ARGS];
  Attrs attrs;
  Type *ret;
  bool lit[OP_MAX_ARGS];
  double val[OP_MAX_ARGS];
} OpSig;

typedef struct OpSolveCtx {
  Chooser *ch;
  Arena *arena; /* where solution types and attrs are allocated */
  const OpLimits *lim;
} OpSolveCtx;

typedef enum RelStatus {
  REL_OK,    /* *out is the result type */
  REL_DEFER, /* an argument type is still incomplete; retry later */
  REL_ERROR, /* ill-typed; err holds a message */
} RelStatus;

/* Relation.  args are resolved as far as inference knows them (a
 * TY_INCOMPLETE argument, or one containing it, means unknown). */
typedef RelStatus (*OpRelFn)(OpId op, Type *const *args, int nargs, const Attrs *at, Arena *a,
                             Type **out, char *err, size_t errlen);
/* Recognizer.  Must be cheap; called for every operator at every node. */
typedef bool (*OpRecFn)(OpId op, const Type *want, const OpLimits *lim);
/* Before running every recognizer on want: whether want fits lim, which
 * most of them ask, is worked out once and answered from then on, until
 * the next call (NULL: forget it; want must not change meanwhile). */
void op_fits_hint(const Type *want, const OpLimits *lim);
/* Solver: fill sig with a solution whose result is exactly want. */
typedef bool (*OpSolveFn)(OpId op, const Type *want, OpSolveCtx *cx, OpSig *sig);
/* Sampler: fill sig with any valid solution (want-independent). */
typedef bool (*OpSampleFn)(OpId op, OpSolveCtx *cx, OpSig *sig);
/* Kernel.  Arguments and outputs are flattened to tensors: a tuple-typed
 * argument (concatenate, stack) contributes its fields in order, and a
 * tuple result (split, batch_norm) has one output per field.  Outputs are
 * preallocated from the relation's result type.  scratch is for
 * temporaries. */
typedef void (*OpKernelFn)(OpId op, Tensor *const *args, int nargs, const Attrs *at,
                           Tensor *const *outs, int nouts, Arena *scratch);

typedef struct OpInfo {
  const char *name;
  const char *family;
  OpPattern pattern;
  const char *schema;
  const char *semantics;
  OpRelFn rel;
  OpRecFn rec;
  OpSolveFn solve;
  OpSampleFn sample;
  OpKernelFn kernel;
} OpInfo;

extern const OpInfo op_table[OP_COUNT];

const char *op_pattern_name(OpPattern p);

#ifdef RS_TEST_PASSES
/* Test build only: a deliberate kernel bug (the oracle's
 * -fault=kernel_sum_last): sum and mean leave out the last element of
 * each reduced block of more than one.  Constant folding and the
 * interpreter share the kernel, so only the kernel oracle sees it. */
extern bool op_test_fault_reduce;
/* Test build only: deliberate kernel bugs in the new dtypes' rounding
 * (-fault=kernel_cast_f16_trunc: cast from float32 to float16 truncates
 * instead of rounding to nearest even; -fault=kernel_bf16_softmax_f32: a
 * bfloat16 softmax keeps its intermediate steps in float32).  Only the
 * kernel oracle sees them. */
extern bool op_test_fault_cast_trunc, op_test_fault_bf16_softmax;
/* Test build only: a deliberate relation bug (-fault=relation_reshape):
 * reshape's relation rejects a -1 right after a 0 in newshape, a valid
 * encoding its solver draws.  A generator that validated its draws with
 * the relation would never draw it, and nothing would see the bug. */
extern bool op_test_fault_reshape;
#endif

/* Run the relation and, on REL_ERROR, prefix the message with the op name. */
RelStatus op_relate(OpId op, Type *const *args, int nargs, const Attrs *at, Arena *a, Type **out,
                    char *err, size_t errlen);

/* Evaluate an operator on concrete tensors: computes the result type with
 * the operator's relation (never a test build's wrong one: see below),
 * allocates the outputs in `a`, runs the kernel.  Writes the outputs to
 * outs (up to max_outs) and returns how many, or -1 with a message when
 * the relation rejects the arguments. */
int op_eval(OpId op, Tensor *const *args, int nargs, const Attrs *at, Arena *a, Tensor **outs,
            int max_outs, char *err, size_t errlen);

/* Is op's result shape a function of its operands' values (arange), not
 * of their types only?  Its relation gives Any dims there, and
 * op_value_type the concrete type. */
bool op_value_typed(OpId op);
/* The concrete result type of a call of a value-typed op on tensors args
 * (ret, the relation's type, for any other op): REL_ERROR with a message
 * when the values give none (arange's step 0), a defined run-time error. */
RelStatus op_value_type(OpId op, Tensor *const *args, int nargs, Arena *a, Type *ret, Type **out,
                        char *err, size_t errlen);

#ifdef RS_TEST_PASSES
/* Test build only: deliberately wrong relations (bad_relations.c), each
 * accepting argument types its operator's relation rejects.  op_relate
 * runs the one op_test_fault names, for the operators it concerns;
 * op_eval never does. */
typedef enum OpFault {
  OP_FAULT_NONE,
  OP_FAULT_BROADCAST,   /* bad_broadcast: mismatched dimensions broadcast */
  OP_FAULT_REDUCE_AXIS, /* bad_reduce_axis: an out-of-range axis wraps */
  OP_FAULT_RESHAPE,     /* bad_reshape: sizes need not keep the count */
  OP_FAULT_CONCATENATE, /* bad_concatenate: dims outside the axis may differ */
  OP_FAULT_ANY_AS_ONE,  /* bad_any_as_one: broadcast reads an Any dim as 1 */
  OP_FAULT_GATHER_AXIS, /* bad_gather_axis: gather's result takes the data's dim along axis */
  OP_FAULT_COUNT
} OpFault;
extern OpFault op_test_fault;
/* The fault of that name ("bad_broadcast", ...); false when none. */
bool op_fault_lookup(const char *name, OpFault *out);
const char *op_fault_name(OpFault f);
/* Run op_test_fault's wrong relation when it concerns op and these
 * arguments: true with its answer in *st (and *out or err). */
bool op_bad_relate(OpId op, Type *const *args, int nargs, const Attrs *at, Arena *a, Type **out,
                   char *err, size_t errlen, RelStatus *st);
#endif

/* Prototypes of every function named in ops.def. */
#define OP(id, name, family, pattern, schema, sem, rel, rec, solve, sample, kernel)                \
  RelStatus rel(OpId, Type *const *, int, const Attrs *, Arena *, Type **, char *, size_t);        \
  bool rec(OpId, const Type *, const OpLimits *);                                                  \
  bool solve(OpId, const Type *, OpSolveCtx *, OpSig *);                                           \
  bool sample(OpId, OpSolveCtx *, OpSig *);                                                        \
  void kernel(OpId, Tensor *const *, int, const Attrs *, Tensor *const *, int, Arena *);
#include "ops.def"
#undef OP

#endif
