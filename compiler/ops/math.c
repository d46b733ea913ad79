/*
 * math.c - the elementwise unary operators beyond unary.c: bitwise_not,
 * trunc, erf, the trigonometric and hyperbolic functions and their
 * inverses, log2 and log10, and the predicates isnan, isinf and isfinite:
 * relations, recognizers, solvers, samplers and kernels.
 *
 * Dtypes: bitwise_not takes ints and bool (TVM's bool is a 1-bit unsigned
 * int, so ~x is !x); isnan, isinf and isfinite take floats and give bool
 * of the input's shape; the others take floats.  The result has the
 * input's type otherwise.
 *
 * Defined behaviour: each is one libm call in double rounded once to the
 * input's dtype (docs/operators.md, "Float arithmetic"), with the C
 * library's results at the edges: asin and acos NaN outside [-1, 1],
 * acosh NaN below 1, atanh +-inf at +-1 and NaN beyond, log2 and log10
 * -inf at +-0 and NaN below 0; trunc keeps -0, NaN and infinities.
 * isfinite is false for NaN and +-inf.
 */
#include <math.h>

#include "op_int.h"

enum { BOOL_ONLY = 1u << DT_BOOL };

static bool is_pred(OpId op) {
  return op == OP_ISNAN || op == OP_ISINF || op == OP_ISFINITE;
}

/* The input dtypes an operator of this family accepts. */
static uint32_t math_dtypes(OpId op) {
  return op == OP_BITWISE_NOT ? OP_INTS | BOOL_ONLY : OP_FLOATS;
}

RelStatus rel_math(OpId op, Type *const *args, int nargs, const Attrs *at, Arena *a, Type **out,
                   char *err, size_t errlen) {
  RelStatus s = op_check_attrs(op, at, err, errlen);
  if (s == REL_OK)
    s = op_want_tensors(args, nargs, 1, err, errlen);
  if (s != REL_OK)
    return s;
  const Type *x = args[0];
  DType dt = x->tensor.dtype;
  if (!(math_dtypes(op) & (1u << dt)))
    return op_fail(err, errlen, "expects %s tensor, got %s",
                   op == OP_BITWISE_NOT ? "an int or bool" : "a float", ir_dtype_name(dt));
  *out = ir_tensor_type(a, is_pred(op) ? DT_BOOL : dt, x->tensor.rank, x->tensor.shape);
  return REL_OK;
}

bool rec_math(OpId op, const Type *want, const OpLimits *lim) {
  if (is_pred(op)) /* the float input is invented */
    return (lim->dtypes & OP_FLOATS) && op_fits_dtype(want, lim, 1u << DT_BOOL);
  return op_fits_dtype(want, lim, math_dtypes(op));
}

/* Complete sig for argument x and result want. */
static bool finish(OpSolveCtx *cx, OpSig *sig, Type *x, const Type *want) {
  sig->nargs = 1;
  sig->args[0] = x;
  sig->attrs = (Attrs){0};
  return op_sig_claim(cx, sig, want);
}

bool solve_math(OpId op, const Type *want, OpSolveCtx *cx, OpSig *sig) {
  if (!rec_math(op, want, cx->lim))
    return false;
  DType dt = is_pred(op) ? op_draw_dtype(cx, cx->lim->dtypes & OP_FLOATS) : want->tensor.dtype;
  return finish(cx, sig, op_tensor(cx, dt, want->tensor.rank, want->tensor.shape), want);
}

bool sample_math(OpId op, OpSolveCtx *cx, OpSig *sig) {
  uint32_t allowed = math_dtypes(op) & cx->lim->dtypes;
  if (!allowed || (is_pred(op) && !(cx->lim->dtypes & BOOL_ONLY)))
    return false;
  Type *x = op_draw_tensor(cx, 0, cx->lim->max_rank, allowed);
  DType rt = is_pred(op) ? DT_BOOL : x->tensor.dtype;
  return finish(cx, sig, x, op_tensor(cx, rt, x->tensor.rank, x->tensor.shape));
}

/* One float element (the store rounds it to the result's dtype). */
static double math_float(OpId op, double x) {
  switch (op) {
  case OP_TRUNC: return trunc(x);
  case OP_ERF: return erf(x);
  case OP_SIN: return sin(x);
  case OP_COS: return cos(x);
  case OP_TAN: return tan(x);
  case OP_ASIN: return asin(x);
  case OP_ACOS: return acos(x);
  case OP_ATAN: return atan(x);
  case OP_SINH: return sinh(x);
  case OP_COSH: return cosh(x);
  case OP_ASINH: return asinh(x);
  case OP_ACOSH: return acosh(x);
  case OP_ATANH: return atanh(x);
  case OP_LOG2: return log2(x);
  case OP_LOG10: return log10(x);
  case OP_ISNAN: return isnan(x) != 0;
  case OP_ISINF: return isinf(x) != 0;
  case OP_ISFINITE: return isfinite(x) != 0;
  default: return x;
  }
}

void k_math(OpId op, Tensor *const *args, int nargs, const Attrs *at, Tensor *const *outs,
            int nouts, Arena *scratch) {
  const Tensor *x = args[0];
  Tensor *r = outs[0];
  if (op == OP_BITWISE_NOT) {
    bool b = x->dtype == DT_BOOL;
    for (int64_t i = 0; i < x->numel; i++) {
      int64_t v = ir_tensor_get_i64(x, i);
      ir_tensor_set_i64(r, i, b ? !v : ~v);
    }
    return;
  }
  for (int64_t i = 0; i < x->numel; i++)
    ir_tensor_set_f64(r, i, math_float(op, ir_tensor_get_f64(x, i)));
}
