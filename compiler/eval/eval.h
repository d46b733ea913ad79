/*
 * eval.h - relayc's reference interpreter: the differential oracle every
 * optimisation pass is compared against.
 *
 * It is meant to be obviously correct rather than fast: a direct
 * environment-passing evaluator over the expression DAG.  It is total on
 * well-typed programs (every run ends in one of the four statuses below,
 * never a hang or a crash) and deterministic (the same program, inputs and
 * limits give bit-identical results).
 *
 * A run (EvRun) owns an arena holding everything it allocates (values,
 * environments, tensors) and a scratch arena for operator calls' types and
 * kernel temporaries, recycled as it fills; ev_run_free releases both.
 * Values returned by a run stay valid until then.  Their tensors are the
 * run's own (constants are copied in once each), so a pass may rewrite the
 * module in place after a run without changing the run's result; they do
 * refer to the module's constructors, globals and closure code, so the
 * module must outlive comparing and printing them.
 *
 * Semantics (Relay's, as in TVM's reference interpreter):
 *   - Evaluation order is Relay's: tuple fields and operator, constructor
 *     and function arguments left to right; for a call of an expression,
 *     the arguments first and then the callee; let value before body;
 *     ref_write evaluates the ref, then the value.  Ref effects happen in
 *     this order.
 *   - `let %f = fn ...` binds %f inside its own function (a recursive
 *     closure), as in Relay.
 *   - Shared (graph-bound) subexpressions are evaluated at each use.  They
 *     are pure (ir_well_formed), so this gives the same result as
 *     evaluating once; it costs fuel per use, which is the only difference.
 *   - An operator call goes through op_eval with its arguments flattened:
 *     a tuple-typed argument (concatenate, stack) contributes its fields in
 *     order; a tuple result (split, batch_norm) becomes a tuple value.
 *   - if requires a scalar bool condition.  match tries clauses in order;
 *     when none matches (possible for `match?`) the run ends with
 *     EV_ERROR, which a well-typed program may legitimately do.
 *   - Calls in tail position (let body, if branch, match clause body, a
 *     call's function body) do not grow the C stack, so tail-recursive
 *     loops through globals run until fuel runs out.
 *
 * Budgets (EvLimits), each ending the run with EV_INCONCLUSIVE:
 *   fuel       one unit per expression node visited, plus the element count
 *              of every operator result (so kernels' work is paid for);
 *   max_depth  nested non-tail evaluations (recursion through globals that
 *              is not a tail call);
 *   max_stack  bytes of C stack below the run's entry point, measured, as a
 *              safety net under max_depth for builds with big frames;
 *   max_bytes  bytes allocated in the run's arenas (tensors, values,
 *              environments; kernel scratch while in use); an operator
 *              whose result would not fit is refused before it is
 *              allocated.
 *
 * Inputs (ev_make_args): deterministic values from a seed and a function
 * type.  Floats are uniform in [-2, 2], one element in four an exact small
 * value from {0, 1, -1, 0.5, -0.5, 2, -2, 0.25}; integers (int8, int32,
 * int64) are uniform in [-5, 5]; bools are 0/1.  Tuples, refs (a fresh cell)
 * and ADTs (constructors drawn at random, with the least recursive
 * constructor chosen once a size budget is spent, so values stay small)
 * are built recursively.  A function-typed parameter gets a constant
 * function: it ignores its arguments and returns a fixed value of its
 * result type drawn from the same seed.  Type variables cannot be given
 * values: such a parameter makes the run EV_INVALID.
 *
 * Effects: a run records its trace, the observable effects in order --
 * every ref creation (with the value stored), every ref_write (with the
 * value written) and every ref_read (with the value read).  Refs are named
 * by their creation number in the run (inputs first), so the traces of two
 * runs of the same inputs compare.  Recording costs nothing in a run that
 * makes no ref.
 *
 * Comparison (ev_compare, ev_compare_effects) is structural and exact by
 * default: integers and bools equal, floats bit-identical (NaN faces NaN,
 * whatever its payload; -0 and +0 differ), a run that failed stays failed,
 * the traces identical.  EvRules relaxes each rule, for the
 * transformations whose contract allows it:
 *   tol             floats within a tolerance (reassociation):
 *                       |a - b| <= atol + rtol * max(|a|, |b|)
 *                   NaN must still face NaN and an infinity the same
 *                   infinity; -0 and +0 are within any tolerance.
 *                   ev_default_tolerance is (rtol, atol) = (1e-4, 1e-4)
 *                   for float32 and (1e-9, 1e-9) for float64;
 *   signed_zero     -0 equals +0;
 *   error_to_value  the transformed program may return a value where the
 *                   original failed (its trace then continues the
 *                   original's);
 *   drop_checks     the same, only where the original failed the run-time
 *                   check of a pure expression (EvResult.pure_check): an
 *                   operator call with Any dims whose concrete arguments
 *                   its relation or kernel rejects, or a let's annotation
 *                   its value does not fit (passes drop unused pure
 *                   expressions, as TVM's do: docs/interpreter.md);
 *   drop_reads      the transformed trace may lack some of the original's
 *                   reads;
 *   effects         traces are not compared at all.
 * Why the default tolerance is what it is: inputs are O(1) and tensors
 * hold at most a few hundred elements, so values stay within O(1e3); a
 * transformation that re-associates a float32 sum of n such terms moves
 * the result by about sqrt(n) * 2^-24 * sum|x| -- around 1e-5 for n = 256
 * -- and chains of a few dozen operators compound that to well under 1e-4
 * relative.  atol covers results near zero that come from cancellation,
 * where the relative error is unbounded but the absolute error stays at
 * the scale of the terms times 2^-24.  float64 gets the same reasoning
 * with 2^-53.  Closures are not compared (there is no finite test of
 * function equality; ev_compare counts them as equal and says so in a
 * note); refs in a result compare by their current contents, refs in a
 * trace's values by their creation number (their contents are traced).
 */
#ifndef RELAYC_EVAL_H
#define RELAYC_EVAL_H

#include "compiler/ir/ir.h"

/* ---------------------------------------------------------------- values */

typedef struct EvValue EvValue;
typedef struct EvEnv EvEnv; /* a closure's captured environment (opaque) */

typedef enum EvKind {
  VAL_TENSOR,  /* a tensor; never NULL */
  VAL_TUPLE,   /* n fields; the empty tuple is unit */
  VAL_CLOSURE, /* a function literal with its environment, a global
                  function (global set), or a constant function (konst set) */
  VAL_REF,     /* a mutable cell; contents is its current value */
  VAL_ADT,     /* a constructor applied to its fields */
} EvKind;

struct EvValue {
  EvKind kind;
  union {
    Tensor *tensor;
    struct {
      int n;
      EvValue **fields;
    } tuple;
    struct {
      Expr *fn;         /* the EX_FUNC, or NULL for a constant function */
      EvEnv *env;       /* captured variables (NULL for globals) */
      GlobalFn *global; /* set when the value is a global function */
      EvValue *konst;   /* a constant function's result (inputs only) */
    } closure;
    struct {
      EvValue *contents;
      int id; /* creation number in its run: 0, 1, .. (inputs first) */
    } ref;
    struct {
      Ctor *ctor;
      int n; /* == ctor->nfields */
      EvValue **fields;
    } adt;
  };
};

/* ------------------------------------------------------------------ runs */

typedef enum EvStatus {
  EV_OK,           /* value is the result */
  EV_INCONCLUSIVE, /* fuel, depth, stack or memory budget exhausted */
  EV_ERROR,        /* a runtime error a well-typed program can reach
                      (a match with no matching clause) */
  EV_INVALID,      /* the program is not well typed or well formed (an
                      unbound variable, an operator relation rejecting its
                      arguments, a non-bool condition, ...), or its inputs
                      cannot be made: a bug in whoever produced it */
} EvStatus;

typedef struct EvLimits {
  int64_t fuel;      /* steps; see the top of this file */
  int max_depth;     /* nested non-tail evaluations */
  int64_t max_stack; /* bytes of C stack the evaluator may use */
  int64_t max_bytes; /* bytes allocated in the run's arena */
} EvLimits;

/* fuel 1e6, depth 2000, stack 2 MiB, memory 64 MiB. */
extern const EvLimits ev_default_limits;

/* The effects of a run, in order (see the top of this file). */
typedef enum EvEffectKind {
  EV_EFF_NEW,   /* ref(v): ref `ref` made holding value */
  EV_EFF_WRITE, /* ref_write: value stored into ref `ref` */
  EV_EFF_READ,  /* ref_read: value read from ref `ref` */
} EvEffectKind;

typedef struct EvEffect {
  EvEffectKind kind;
  int ref;              /* the ref's creation number */
  const EvValue *value; /* stored, written or read */
  struct EvEffect *next;
} EvEffect;

typedef struct EvTrace {
  EvEffect *first, *last;
  int64_t n;
} EvTrace;

typedef struct EvResult {
  EvStatus status;
  EvValue *value;       /* EV_OK only */
  const char *msg;      /* why, for every other status ("" for EV_OK) */
  const EvTrace *trace; /* the call's effects up to its end, whatever its
                           status; NULL: not recorded (a result a target
                           made some other way), so not compared */
  bool pure_check;      /* EV_ERROR: the run-time check that failed is a pure
                           expression's (an operator call's deferred check,
                           or a let's annotation), which a pass may drop
                           with the expression (EvRules.drop_checks) */
} EvResult;

/* One interpretation, with its arena and budgets.  Fields are read-only
 * for callers; fuel and memory budgets are shared by all calls made
 * through one run. */
typedef struct EvRun {
  Arena *arena; /* everything the run allocates */
  EvLimits lim;
  int64_t steps;        /* fuel spent so far */
  int depth;            /* current nesting */
  int peak_depth;       /* deepest nesting reached */
  uintptr_t stack_base; /* frame address at the outermost entry, or 0 */
  EvStatus status;      /* of the current or last call */
  char msg[256];
  int nrefs;               /* refs made so far: the next one's number */
  EvTrace trace;           /* the current call's effects */
  struct EvConsts *consts; /* private: the run's copies of constants */
  Arena *scratch;          /* private: operator calls' temporaries */
  bool check_types;        /* set by the caller (the soundness oracle): each
                              operator's outputs must have exactly the
                              call's inferred type (Expr.type, when set and
                              concrete), else the run ends EV_INVALID */
  bool pure_check;         /* the current error is EvResult.pure_check */
  uint64_t jitter;         /* set by the caller (a replay that asks whether
                              a result depends on float rounding): when
                              nonzero, every float element an operator
                              outputs moves by as much as a comparison of
                              floats allows (the default tolerance's
                              rtol * |x| + atol), up or down as a hash of
                              jitter, the fuel spent and the element's index
                              says; 0: off */
} EvRun;

/* A new run; lim NULL means ev_default_limits. */
EvRun *ev_run_new(const EvLimits *lim);
/* Frees the run and everything it allocated (values, messages). */
void ev_run_free(EvRun *r);

/* Value constructors for callers' own arguments, allocating in the run's
 * arena (a tensor is used as is, not copied). */
EvValue *ev_val_tensor(EvRun *r, Tensor *t);
EvValue *ev_val_tuple(EvRun *r, int n); /* fields NULL, to be filled */
EvValue *ev_val_ref(EvRun *r, EvValue *contents);
EvValue *ev_val_adt(EvRun *r, Ctor *c); /* fields NULL, to be filled */

/* Evaluate a closed expression (no free variables). */
EvResult ev_eval(EvRun *r, Expr *e);
/* Apply a function value to arguments. */
EvResult ev_apply(EvRun *r, EvValue *fn, int nargs, EvValue *const *args);
/* Call a global function. */
EvResult ev_call_global(EvRun *r, GlobalFn *g, int nargs, EvValue *const *args);
/* Make @main's arguments from its type and seed, then call it. */
EvResult ev_run_main(EvRun *r, const Module *m, uint64_t seed);

/* The type of a function expression: its inferred type when set, else one
 * built from its parameter and return annotations; NULL when neither. */
Type *ev_func_type(Arena *a, const Expr *fn);
/* Fill args[0 .. nparams) with deterministic values for the parameters of
 * function type fn_type (see the top of this file).  On failure returns
 * false and sets r->status and r->msg. */
bool ev_make_args(EvRun *r, const Type *fn_type, uint64_t seed, EvValue **args);

/* ------------------------------------------------------------ comparison */

typedef struct EvTolerance {
  double rtol32, atol32;     /* float32 */
  double rtol64, atol64;     /* float64 */
  double rtol16, atol16;     /* float16 */
  double rtolbf16, atolbf16; /* bfloat16 */
} EvTolerance;

/* float32 1e-4 / 1e-4, float64 1e-9 / 1e-9, float16 1e-2 / 1e-2 (ten of
 * its 2^-10 epsilons), bfloat16 6e-2 / 6e-2 (eight of its 2^-7); see the
 * top of this file. */
extern const EvTolerance ev_default_tolerance;
/* The relative and absolute tolerance of tol for float dtype dt. */
void ev_tolerance_of(const EvTolerance *tol, DType dt, double *rtol, double *atol);

/* What a comparison lets differ (see the top of this file); all zero (or
 * a NULL pointer) is exact. */
typedef struct EvRules {
  const EvTolerance *tol; /* floats within it; NULL: bit-identical */
  bool signed_zero;       /* -0 equals +0 */
  bool error_to_value;    /* a value where the first run failed is accepted */
  bool drop_checks;       /* a value where the first run failed a pure
                             expression's run-time check (pure_check) is
                             accepted */
  bool drop_reads;        /* the second trace may lack reads of the first */
  bool effects;           /* traces are not compared */
} EvRules;

typedef enum EvVerdict {
  EV_SAME,      /* equal under the rules */
  EV_DIFFERENT, /* why says where and how */
  EV_UNDECIDED, /* a run was inconclusive, or the values nest too deeply */
} EvVerdict;

/* Compare the result a of a program with the result b of its transformed
 * version (statuses and values; ev_compare_effects compares the traces):
 * inconclusive on either side is EV_UNDECIDED; any EV_INVALID is
 * EV_DIFFERENT; two EV_ERRORs are the same; a value where a failed is
 * different unless rules->error_to_value; an error where a had a value is
 * different; two EV_OKs compare their values.  why (may be NULL) receives
 * the first difference, e.g.
 * "at $.1.Cons.0[5] (index (1, 2) of (2, 3)): float32 1.5 vs 1.75", or for
 * EV_SAME a note such as "2 closures not compared" (else ""). */
EvVerdict ev_compare(const EvResult *a, const EvResult *b, const EvRules *rules, char *why,
                     size_t whylen);
/* Compare the traces of a and b: effect by effect, the same kind, ref and
 * value (under the rules), and as many -- except that a run that did not
 * finish (inconclusive; or a failed a that rules->error_to_value lets b
 * continue) may stop early: then the other's trace must continue it.
 * EV_SAME when either trace is NULL, either run is invalid, or
 * rules->effects.  why as for ev_compare, e.g.
 * "effect 3: ref 1 written (float32 2) vs ref 1 read (float32 2)". */
EvVerdict ev_compare_effects(const EvResult *a, const EvResult *b, const EvRules *rules, char *why,
                             size_t whylen);
/* Compare two values structurally (the EV_OK case of ev_compare).
 * Constructors compare by name and tag, so values of two modules compare. */
EvVerdict ev_compare_values(const EvValue *a, const EvValue *b, const EvRules *rules, char *why,
                            size_t whylen);
/* Bitwise equality (NaN payloads, -0 vs +0 included); closures compare by
 * code and global; for determinism tests. */
bool ev_value_identical(const EvValue *a, const EvValue *b);
/* Is x close to y for a float dtype under tol? (the element rule above) */
bool ev_float_close(double x, double y, DType dt, const EvTolerance *tol);

/* --------------------------------------------------------------- printing */

/* Text for failure reports, allocated in a:
 *   tensors   float32 1.5   int32 [[1, 2], [3, 4]]   bool [True, False]
 *   tuples    (int32 1, ())      ADTs  Cons(int32 1, Nil)
 *   refs      ref(int32 3)       closures  <fn @name> / <closure> / <const fn>
 * Floats print with enough digits to round-trip; tensors longer than 64
 * elements and values nested deeper than 64 are elided with "...". */
char *ev_print_value(Arena *a, const EvValue *v);
const char *ev_status_name(EvStatus s);

#endif
