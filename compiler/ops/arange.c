/*
 * arange.c - arange(start, stop, step): relation, recognizer, solver,
 * sampler and kernel, and the value type that gives its result's length
 * once the operands' values are known.  The relation follows Relay's
 * ArangeRel for operands that are not constants (relayc's relations see
 * types only), the values topi's arange, with these choices:
 *
 *   types    start, stop and step are scalar tensors of the dtype
 *            attribute (default float32; any numeric dtype, not bool);
 *            the result is Tensor[(?), dtype]: its length is an Any dim
 *            (docs/operators.md, "Dynamic dimensions") until run time.
 *   length   L = ceil((stop - start) / step), computed in double from the
 *            operands' values, as Relay's ArangeRel computes it for
 *            constant operands (numpy's rule too).  Defined run-time
 *            errors: step 0; an operand or quotient that is NaN or
 *            infinite; L <= 0 (ArangeRel refuses a length that is not
 *            positive); L above 2^31 - 1 (ArangeRel's int32 length).  The
 *            interpreter's memory bound refuses a smaller L too large for
 *            it, as for any result.  TVM's shape function for
 *            non-constant operands truncates each operand to int64 first
 *            (a step of 0.5 divides by zero there); relayc does not.
 *   values   R[i] = start + step * i in dtype: integers wrap; a float
 *            rounds i to dtype, then step * i, then the sum (topi's
 *            cast(dtype, start + step * i), each step in dtype).
 *   folding  fold_constant leaves a call unfolded even when its operands
 *            are constants (TVM's relation types it statically then, and
 *            FoldConstant folds it): relayc's relation sees types only, so
 *            the folded constant's static length could make a failing
 *            run-time check downstream (reshape's element count) a static
 *            type error.
 *
 * Solver.  A wanted 1-D numeric type of n >= 2 elements (n = 1 is left to
 * others: a squeeze without axis of the Any result would be refused) is
 * made by constant operands (OpSig.lit) whose length is exactly n: a step
 * of 1..3 (floats also 0.5 and 0.25; negative only for signed dtypes and
 * floats), a start in [-8, 8] (unsigned: [0, 8]) and the stop past the
 * last element by a fraction of the step, all exact in every dtype.  It
 * claims the static type those values give, a refinement of the
 * relation's Tensor[(?), dtype] (recognizers, solvers and samplers work on
 * static types; the checks that compare a claim with the relation accept
 * the refinement for a value-typed operator, op_value_typed).  The sampler
 * draws a length and a dtype and solves for them.
 */
#include <math.h>
#include <string.h>

#include "op_int.h"

/* The length limit: Relay's int32 num_elem. */
#define ARANGE_MAX_LEN 2147483647.0

/* The dtype attribute (default float32); REL_ERROR unless numeric. */
static RelStatus arange_dtype(OpId op, const Attrs *at, DType *dt, char *err, size_t errlen) {
  OpAttrReader r = op_rd_begin(op, at, err, errlen);
  const char *s = op_rd_str(&r, "dtype", "float32");
  if (r.bad)
    return REL_ERROR;
  if (!ir_dtype_parse(s, strlen(s), dt) || *dt == DT_BOOL)
    return op_fail(err, errlen, "dtype \"%s\" is not a numeric dtype", s);
  return REL_OK;
}

/* arange(start (), stop (), step ()) -> (?), each operand of dtype. */
RelStatus rel_arange(OpId op, Type *const *args, int nargs, const Attrs *at, Arena *a, Type **out,
                     char *err, size_t errlen) {
  RelStatus st = op_want_tensors(args, nargs, 3, err, errlen);
  if (st != REL_OK)
    return st;
  DType dt;
  if ((st = arange_dtype(op, at, &dt, err, errlen)) != REL_OK)
    return st;
  static const char *what[3] = {"start", "stop", "step"};
  for (int i = 0; i < 3; i++)
    if (args[i]->tensor.rank != 0 || args[i]->tensor.dtype != dt)
      return op_fail(err, errlen, "%s must be a scalar of dtype %s, got rank %d %s", what[i],
                     ir_dtype_name(dt), args[i]->tensor.rank, ir_dtype_name(args[i]->tensor.dtype));
  int64_t any = IR_DIM_ANY;
  *out = ir_tensor_type(a, dt, 1, &any);
  return REL_OK;
}

RelStatus op_arange_type(Tensor *const *args, int nargs, Arena *a, Type **out, char *err,
                         size_t errlen) {
  if (nargs != 3)
    return op_fail(err, errlen, "arange: 3 operands expected, got %d", nargs);
  double start = ir_tensor_get_f64(args[0], 0), stop = ir_tensor_get_f64(args[1], 0),
         step = ir_tensor_get_f64(args[2], 0);
  if (step == 0)
    return op_fail(err, errlen, "arange: step is zero");
  double len = ceil((stop - start) / step);
  if (!isfinite(start) || !isfinite(stop) || !isfinite(step) || !isfinite(len))
    return op_fail(err, errlen, "arange: start %g, stop %g, step %g give no finite length", start,
                   stop, step);
  if (len <= 0)
    return op_fail(err, errlen, "arange: start %g, stop %g, step %g give length %g, not positive",
                   start, stop, step, len);
  if (len > ARANGE_MAX_LEN)
    return op_fail(err, errlen, "arange: length %g above 2^31 - 1", len);
  int64_t n = (int64_t)len;
  *out = ir_tensor_type(a, args[0]->dtype, 1, &n);
  return REL_OK;
}

bool rec_arange(OpId op, const Type *want, const OpLimits *lim) {
  return op_fits_dims(lim, want, OP_NUMERIC) && want->tensor.rank == 1 &&
         want->tensor.shape[0] >= 2;
}

/* The solution's three scalars of dtype dt, constants start, stop, step,
 * claiming want (the type they give). */
static void arange_sig(OpSolveCtx *cx, OpSig *sig, DType dt, const double *v, const Type *want) {
  op_sig_start(cx, sig, 3, want);
  ir_attr_set_str(cx->arena, &sig->attrs, "dtype", ir_dtype_name(dt));
  for (int i = 0; i < 3; i++) {
    sig->args[i] = op_tensor(cx, dt, 0, NULL);
    sig->lit[i] = true;
    sig->val[i] = v[i];
  }
}

bool solve_arange(OpId op, const Type *want, OpSolveCtx *cx, OpSig *sig) {
  if (!rec_arange(op, want, cx->lim))
    return false;
  static const double fsteps[] = {1, 2, 0.5, 3, 0.25};
  DType dt = want->tensor.dtype;
  int64_t n = want->tensor.shape[0];
  bool fl = ir_dtype_is_float(dt), uns = ir_dtype_is_unsigned(dt);
  double step = fl ? fsteps[op_pick_below(cx, 5)] : (double)op_pick(cx, 1, 3);
  if (!uns && op_coin(cx))
    step = -step;
  double start = (double)op_pick(cx, uns ? 0 : -8, 8);
  /* past the last element by a share of the step: ceil gives exactly n */
  double frac =
      fl ? (op_coin(cx) ? 0.5 : 1) : (double)op_pick(cx, 1, (int64_t)fabs(step)) / fabs(step);
  double v[3] = {start, start + step * ((double)(n - 1) + frac), step};
  arange_sig(cx, sig, dt, v, want);
  return true;
}

bool sample_arange(OpId op, OpSolveCtx *cx, OpSig *sig) {
  if (!(cx->lim->dtypes & OP_NUMERIC) || cx->lim->max_rank < 1 || cx->lim->max_dim < 2)
    return false;
  int64_t n = op_pick(cx, 2, op_min64(cx->lim->max_dim, op_max64(2, cx->lim->max_numel)));
  return solve_arange(op, op_tensor(cx, op_draw_dtype(cx, OP_NUMERIC), 1, &n), cx, sig);
}

void k_arange(OpId op, Tensor *const *args, int nargs, const Attrs *at, Tensor *const *outs,
              int nouts, Arena *scratch) {
  Tensor *r = outs[0];
  DType dt = r->dtype;
  if (nargs != 3 || nouts != 1 || r->rank != 1)
    return;
  if (ir_dtype_is_float(dt)) {
    double start = op_elem_f(args[0], 0, dt), step = op_elem_f(args[2], 0, dt);
    for (int64_t i = 0; i < r->numel; i++)
      ir_tensor_set_f64(r, i, op_round(dt, start + op_round(dt, step * op_round(dt, (double)i))));
  } else {
    uint64_t start = (uint64_t)ir_tensor_get_i64(args[0], 0),
             step = (uint64_t)ir_tensor_get_i64(args[2], 0);
    for (int64_t i = 0; i < r->numel; i++)
      ir_tensor_set_i64(r, i, op_u2i(start + step * (uint64_t)i));
  }
}
