/*
 * cumulative.c - the scans cumsum and cumprod: relations, recognizers,
 * solvers, samplers and kernels.
 *
 * Attributes as TVM's ScanopAttrs: axis (default None: the input is
 * flattened in row-major order and the result has rank 1), dtype (default
 * "" or None: the input's) and exclusive (default False).  The input is an
 * int or float tensor; so is dtype.  axis is in [-rank, rank).
 *
 * Defined behaviour: each input element is converted to dtype first (as
 * cast converts it: floats saturate into ints, NaN -> 0, ints wrap).
 * Element i along the axis is the sum (product) of the converted elements
 * 0 .. i, or 0 .. i - 1 when exclusive (the first is then 0, or 1 for
 * cumprod).  Integers wrap.  Floats follow the accumulation rule of
 * docs/operators.md ("Float arithmetic") as sum and prod do: each prefix
 * is accumulated in double in order and rounded once to dtype, so the last
 * element of cumsum along an axis is sum over that axis, bit for bit
 * (TVM's CPU scan rounds each step instead; its GPU scan reorders them).
 */
#include <string.h>

#include "op_int.h"

/* The result dtype from the dtype attribute (absent, None or "": in). */
static bool scan_dtype(const Attrs *at, DType in, DType *out) {
  const char *name = ir_attr_str(at, "dtype", "");
  *out = in;
  return !name[0] || ir_dtype_parse(name, strlen(name), out);
}

RelStatus rel_cumulative(OpId op, Type *const *args, int nargs, const Attrs *at, Arena *a,
                         Type **out, char *err, size_t errlen) {
  RelStatus s = op_check_attrs(op, at, err, errlen);
  if (s == REL_OK)
    s = op_want_tensors(args, nargs, 1, err, errlen);
  if (s != REL_OK)
    return s;
  const Type *x = args[0];
  DType dt;
  if (!(OP_NUMERIC & (1u << x->tensor.dtype)))
    return op_fail(err, errlen, "expects an int or float tensor, got %s",
                   ir_dtype_name(x->tensor.dtype));
  if (!scan_dtype(at, x->tensor.dtype, &dt) || !(OP_NUMERIC & (1u << dt)))
    return op_fail(err, errlen, "dtype '%s' is not an int or float dtype",
                   ir_attr_str(at, "dtype", ""));
  const Attr *ax = ir_attr_get(at, "axis");
  if (ax && ax->kind == AV_INT) {
    int k;
    if (op_want_axis(ax->i, x->tensor.rank, &k, err, errlen) != REL_OK)
      return REL_ERROR;
    return op_result(a, dt, x->tensor.rank, x->tensor.shape, out, err, errlen);
  }
  int64_t n = 1; /* None: flattened */
  for (int i = 0; i < x->tensor.rank; i++)
    if (!op_dim_mul(n, x->tensor.shape[i], &n))
      return op_fail(err, errlen, "the flattened input has too many elements");
  return op_result(a, dt, 1, &n, out, err, errlen);
}

bool rec_cumulative(OpId op, const Type *want, const OpLimits *lim) {
  return op_fits(want, lim) && want->tensor.rank >= 1 && (OP_NUMERIC & (1u << want->tensor.dtype));
}

/* Draw a shape of at most rank cap with n >= 0 elements: choice 0 gives
 * (n); each further dim is one of the first divisors of what is left
 * (within max_dim), the last dim the rest. */
static int draw_flat_shape(OpSolveCtx *cx, int64_t n, int cap, int64_t *shape) {
  int rank = n ? 1 + (int)op_choose(cx->ch, (uint32_t)(cap < 3 ? cap : 3)) : 1;
  int64_t left = n;
  for (int i = 0; i + 1 < rank; i++) {
    int64_t cand[16];
    int nc = 0;
    for (int64_t d = 1; d <= left && d <= cx->lim->max_dim && nc < 16; d++)
      if (left % d == 0)
        cand[nc++] = d;
    shape[i] = op_pick_of(cx, cand, nc); /* d = 1 is always there */
    left /= shape[i];
  }
  shape[rank - 1] = left;
  return rank;
}

bool solve_cumulative(OpId op, const Type *want, OpSolveCtx *cx, OpSig *sig) {
  if (!rec_cumulative(op, want, cx->lim))
    return false;
  int r = want->tensor.rank;
  DType in = want->tensor.dtype;
  Attrs at = {0};
  if (op_choose(cx->ch, 2)) { /* an explicit dtype, the input's drawn */
    ir_attr_set_str(cx->arena, &at, "dtype", ir_dtype_name(in));
    in = op_draw_dtype(cx, (cx->lim->dtypes & OP_NUMERIC) | (1u << in));
  }
  int64_t shape[IR_MAX_RANK];
  int rank = r;
  memcpy(shape, want->tensor.shape, sizeof *shape * (size_t)r);
  if (r == 1 && op_choose(cx->ch, 2) == 0) {
    rank = draw_flat_shape(cx, want->tensor.shape[0], op_rank_cap(cx->lim), shape);
  } else {
    int64_t axis = op_pick(cx, 0, 2 * r - 1);
    ir_attr_set_int(cx->arena, &at, "axis", axis < r ? axis : axis - 2 * r);
  }
  if (op_choose(cx->ch, 2))
    ir_attr_set_bool(cx->arena, &at, "exclusive", true);
  sig->nargs = 1;
  sig->args[0] = op_tensor(cx, in, rank, shape);
  sig->attrs = at;
  return op_sig_claim(cx, sig, want);
}

bool sample_cumulative(OpId op, OpSolveCtx *cx, OpSig *sig) {
  uint32_t allowed = cx->lim->dtypes & OP_NUMERIC;
  if (!allowed || cx->lim->max_rank < 1)
    return false;
  return solve_cumulative(op, op_draw_tensor(cx, 1, cx->lim->max_rank, allowed), cx, sig);
}

void k_cumulative(OpId op, Tensor *const *args, int nargs, const Attrs *at, Tensor *const *outs,
                  int nouts, Arena *scratch) {
  const Tensor *x = args[0];
  Tensor *r = outs[0];
  DType dt = r->dtype;
  bool fl = ir_dtype_is_float(dt), excl = ir_attr_bool(at, "exclusive", false);
  bool prod = op == OP_CUMPROD;
  /* The scan as outer x len x inner: flattened, or around the axis. */
  int64_t len = x->numel, inner = 1;
  const Attr *ax = ir_attr_get(at, "axis");
  int k;
  if (ax && ax->kind == AV_INT && op_axis(ax->i, x->rank, &k)) {
    len = x->shape[k];
    inner = op_prod(x->shape, k + 1, x->rank);
  }
  if (!len || !inner || r->numel != x->numel)
    return;
  for (int64_t o = 0; o < x->numel / (len * inner); o++)
    for (int64_t i = 0; i < inner; i++) {
      double f = prod;
      uint64_t u = prod;
      for (int64_t j = 0; j < len; j++) {
        int64_t at_j = (o * len + j) * inner + i;
        if (excl)
          fl ? ir_tensor_set_f64(r, at_j, f) : ir_tensor_set_i64(r, at_j, op_u2i(u));
        if (fl)
          f = prod ? f * op_elem_f(x, at_j, dt) : f + op_elem_f(x, at_j, dt);
        else
          u = prod ? u * (uint64_t)op_elem_i(x, at_j, dt) : u + (uint64_t)op_elem_i(x, at_j, dt);
        if (!excl)
          fl ? ir_tensor_set_f64(r, at_j, f) : ir_tensor_set_i64(r, at_j, op_u2i(u));
      }
    }
}
