/*
 * create.c - the creation operators zeros, ones and full (the result's
 * shape and dtype are attributes) and zeros_like and ones_like (the
 * argument's type): for each, its relation, recognizer, solver, sampler
 * and kernel (op.h states their contracts).
 *
 * shape is required (an error when missing); dtype defaults to float32
 * for zeros and ones and to the fill value's dtype for full, as in Relay.
 * Every result shape is checked for overflow and for rank <= 6.
 */
#include <string.h>

#include "op_int.h"

/* -------------------------------------------------- zeros, ones and full */

/* Read a dtype attribute; dflt is used when it is absent or None. */
static RelStatus get_dtype(const Attrs *at, DType dflt, DType *dt, char *err, size_t errlen) {
  const char *s;
  RelStatus st = op_get_str(at, "dtype", NULL, &s, err, errlen);
  if (st != REL_OK)
    return st;
  *dt = dflt;
  if (s && !ir_dtype_parse(s, strlen(s), dt))
    return op_fail(err, errlen, "unknown dtype \"%s\"", s);
  return REL_OK;
}

/* The shape attribute of zeros, ones and full, then the result type. */
static RelStatus fill_result(const Attrs *at, DType dt, Arena *a, Type **out, char *err,
                             size_t errlen) {
  OpInts sh;
  RelStatus s = op_need_shape(at, &sh, err, errlen);
  return s == REL_OK ? op_result(a, dt, sh.n, sh.v, out, err, errlen) : s;
}

/* Set the shape and dtype attributes of zeros, ones and full to want's. */
static void fill_attrs(OpSolveCtx *cx, OpSig *sig, const Type *want) {
  ir_attr_set_ints(cx->arena, &sig->attrs, "shape", want->tensor.rank, want->tensor.shape);
  ir_attr_set_str(cx->arena, &sig->attrs, "dtype", ir_dtype_name(want->tensor.dtype));
}

/* -------------------------------------------------------- zeros and ones */

/* zeros(shape, dtype) and ones(shape, dtype); the kernel also serves
 * zeros_like and ones_like. */

RelStatus rel_fill(OpId op, Type *const *args, int nargs, const Attrs *at, Arena *a, Type **out,
                   char *err, size_t errlen) {
  DType dt;
  RelStatus s = op_want_shaped(args, nargs, 0, err, errlen);
  if (s == REL_OK)
    s = get_dtype(at, DT_FLOAT32, &dt, err, errlen);
  return s == REL_OK ? fill_result(at, dt, a, out, err, errlen) : s;
}

bool rec_fill(OpId op, const Type *want, const OpLimits *lim) {
  return op_fits_elems(want, lim);
}

bool solve_fill(OpId op, const Type *want, OpSolveCtx *cx, OpSig *sig) {
  if (!op_fits_elems(want, cx->lim))
    return false;
  op_sig_start(cx, sig, 0, want);
  fill_attrs(cx, sig, want);
  return true;
}

bool sample_fill(OpId op, OpSolveCtx *cx, OpSig *sig) {
  return op_sample_via(solve_fill, op, cx, sig, 0);
}

void k_fill(OpId op, Tensor *const *args, int nargs, const Attrs *at, Tensor *const *outs,
            int nouts, Arena *scratch) {
  double v = op == OP_ONES || op == OP_ONES_LIKE ? 1 : 0;
  if (nouts != 1)
    return;
  for (int64_t i = 0; i < outs[0]->numel; i++)
    ir_tensor_set_f64(outs[0], i, v);
}

/* ------------------------------------------------------------------ full */

/* full(F, shape, dtype): the scalar F converted to dtype, everywhere. */

RelStatus rel_full(OpId op, Type *const *args, int nargs, const Attrs *at, Arena *a, Type **out,
                   char *err, size_t errlen) {
  DType dt;
  RelStatus s = op_want_shaped(args, nargs, 1, err, errlen);
  if (s != REL_OK)
    return s;
  if (args[0]->tensor.rank != 0)
    return op_fail(err, errlen, "the fill value must be a scalar, got rank %d",
                   args[0]->tensor.rank);
  s = get_dtype(at, args[0]->tensor.dtype, &dt, err, errlen);
  return s == REL_OK ? fill_result(at, dt, a, out, err, errlen) : s;
}

bool rec_full(OpId op, const Type *want, const OpLimits *lim) {
  return op_fits_elems(want, lim);
}

bool solve_full(OpId op, const Type *want, OpSolveCtx *cx, OpSig *sig) {
  if (!op_fits_elems(want, cx->lim))
    return false;
  DType dt = want->tensor.dtype;
  if (op_coin(cx)) /* a fill value of another dtype, converted */
    dt = op_pick_dtype(cx, (cx->lim->dtypes & OP_ALL) | (1u << dt));
  op_sig_start(cx, sig, 1, want);
  sig->args[0] = ir_scalar_type(cx->arena, dt);
  fill_attrs(cx, sig, want);
  return true;
}

bool sample_full(OpId op, OpSolveCtx *cx, OpSig *sig) {
  return op_sample_via(solve_full, op, cx, sig, 0);
}

void k_full(OpId op, Tensor *const *args, int nargs, const Attrs *at, Tensor *const *outs,
            int nouts, Arena *scratch) {
  if (nargs != 1 || nouts != 1 || args[0]->numel != 1)
    return;
  /* Converted as cast converts: an integer fill value wraps into an
   * integer dtype (through a double it would saturate, and lose bits
   * above 2^53). */
  const Tensor *f = args[0];
  for (int64_t i = 0; i < outs[0]->numel; i++)
    ir_tensor_convert(f, 0, outs[0], i);
}

/* ---------------------------------------------- zeros_like and ones_like */

/* zeros_like(A) and ones_like(A): of A's type; the kernel is k_fill. */

RelStatus rel_unary_like(OpId op, Type *const *args, int nargs, const Attrs *at, Arena *a,
                         Type **out, char *err, size_t errlen) {
  RelStatus s = op_want_shaped(args, nargs, 1, err, errlen);
  if (s == REL_OK)
    *out = op_like(a, args[0], args[0]->tensor.rank, args[0]->tensor.shape);
  return s;
}

bool rec_unary_like(OpId op, const Type *want, const OpLimits *lim) {
  return op_fits_elems(want, lim);
}

bool solve_unary_like(OpId op, const Type *want, OpSolveCtx *cx, OpSig *sig) {
  if (!op_fits_elems(want, cx->lim))
    return false;
  op_sig_start(cx, sig, 1, want);
  sig->args[0] = ir_type_copy(cx->arena, want);
  return true;
}

bool sample_unary_like(OpId op, OpSolveCtx *cx, OpSig *sig) {
  return op_sample_via(solve_unary_like, op, cx, sig, 0);
}
