/*
 * broadcast.c - the broadcasting binary operators (arithmetic, comparison,
 * logical) and where: relations, recognizers, solvers, samplers, kernels.
 *
 * Shapes broadcast as in numpy: align trailing dims; each pair of dims is
 * equal or one of them is 1 (a 1 also broadcasts against a 0).  Both
 * operands have the same dtype.  Arithmetic takes ints and floats (power:
 * floats) and keeps the dtype; comparisons take any dtype and give bool;
 * logical_and/or take and give bool.  where(c, x, y) broadcasts all three,
 * c is bool, x and y share the result's dtype.
 *
 * Defined behaviour: integer add, subtract and multiply wrap; integer
 * divide truncates toward zero, x / 0 = 0 and MIN / -1 = MIN; unsigned
 * ints divide, compare and take maximum and minimum as unsigned; maximum and
 * minimum return a NaN operand when there is one (the first when both are)
 * and order -0 below +0; float comparisons are IEEE (NaN compares unequal
 * to everything).  A float step is computed in double and rounded once
 * to the dtype (float32, float16, bfloat16).
 */
#include <math.h>
#include <string.h>

#include "op_int.h"

enum { BOOL_ONLY = 1u << DT_BOOL };

/* The operand dtypes a broadcast operator accepts. */
static uint32_t bin_dtypes(OpId op) {
  switch (op) {
  case OP_POWER: return OP_FLOATS;
  case OP_EQUAL:
  case OP_NOT_EQUAL:
  case OP_LESS:
  case OP_LESS_EQUAL:
  case OP_GREATER:
  case OP_GREATER_EQUAL: return OP_ALL;
  case OP_LOGICAL_AND:
  case OP_LOGICAL_OR: return BOOL_ONLY;
  default: return OP_NUMERIC;
  }
}

/* True for the operators whose result is bool whatever the operands. */
static bool is_compare(OpId op) {
  return op >= OP_EQUAL && op <= OP_GREATER_EQUAL;
}

/* A phrase naming a dtype set, for error messages. */
static const char *dtypes_desc(uint32_t m) {
  return m == OP_FLOATS ? "float" : m == BOOL_ONLY ? "bool" : "int or float";
}

/* Broadcast the shapes of tensor types x and y into *rank and shape. */
static RelStatus bcast(const Type *x, const Type *y, int *rank, int64_t *shape, char *err,
                       size_t errlen) {
  if (!op_broadcast_shape(x->tensor.rank, x->tensor.shape, y->tensor.rank, y->tensor.shape, rank,
                          shape)) {
    char bx[96], by[96];
    if (!err || !errlen) /* no message wanted: skip formatting the types */
      return REL_ERROR;
    return op_fail(err, errlen, "shapes %s and %s do not broadcast", op_type_str(x, bx, sizeof bx),
                   op_type_str(y, by, sizeof by));
  }
  return REL_OK;
}

RelStatus rel_broadcast(OpId op, Type *const *args, int nargs, const Attrs *at, Arena *a,
                        Type **out, char *err, size_t errlen) {
  RelStatus s = op_check_attrs(op, at, err, errlen);
  if (s == REL_OK)
    s = op_want_tensors(args, nargs, 2, err, errlen);
  if (s != REL_OK)
    return s;
  DType dt = args[0]->tensor.dtype;
  if (args[1]->tensor.dtype != dt)
    return op_fail(err, errlen, "operands have different dtypes %s and %s", ir_dtype_name(dt),
                   ir_dtype_name(args[1]->tensor.dtype));
  if (!(bin_dtypes(op) & (1u << dt)))
    return op_fail(err, errlen, "expects %s operands, got %s", dtypes_desc(bin_dtypes(op)),
                   ir_dtype_name(dt));
  int rank;
  int64_t shape[IR_MAX_RANK];
  if (bcast(args[0], args[1], &rank, shape, err, errlen) != REL_OK)
    return REL_ERROR;
  *out = ir_tensor_type(a, is_compare(op) ? DT_BOOL : dt, rank, shape);
  return REL_OK;
}

bool rec_broadcast(OpId op, const Type *want, const OpLimits *lim) {
  return op_fits_dtype(want, lim, is_compare(op) ? 1u << DT_BOOL : bin_dtypes(op));
}

/* The operand dtype for a comparison producing a wanted bool: bool (the
 * wanted type's own) or any allowed dtype; choice 0 is bool. */
static DType compare_dtype(OpSolveCtx *cx) {
  uint32_t others = cx->lim->dtypes & OP_ALL & ~(1u << DT_BOOL);
  uint32_t k = op_choose(cx->ch, 1 + (uint32_t)__builtin_popcount(others));
  for (int dt = 0; k && dt < DT_COUNT; dt++)
    if ((others & (1u << dt)) && --k == 0)
      return (DType)dt;
  return DT_BOOL;
}

/* Draw n operand shapes that broadcast to exactly (rank, shape).  Choice 0
 * everywhere gives every operand the full shape.  One operand keeps the
 * full rank; the others may drop leading dims; each dim other than 1 is
 * kept by at least one operand covering it and may be 1 in the others. */
static void draw_operands(OpSolveCtx *cx, int rank, const int64_t *shape, DType *dts, int n,
                          Type **out) {
  int ranks[3];
  int64_t shapes[3][IR_MAX_RANK];
  bool full = false;
  for (int k = 0; k < n; k++) {
    ranks[k] = k == n - 1 && !full ? rank : rank - (int)op_choose(cx->ch, (uint32_t)rank + 1);
    full |= ranks[k] == rank;
  }
  for (int i = 0; i < rank; i++) {
    int cover[3], nc = 0;
    for (int k = 0; k < n; k++)
      if (i >= rank - ranks[k])
        cover[nc++] = k;
    /* Bit j of ones: cover[j] gets 1 instead of the dim; never all. */
    uint32_t ones = shape[i] == 1 ? 0 : op_choose(cx->ch, (1u << nc) - 1);
    for (int j = 0; j < nc; j++) {
      int k = cover[j];
      shapes[k][i - (rank - ranks[k])] = (ones >> j) & 1 ? 1 : shape[i];
    }
  }
  for (int k = 0; k < n; k++)
    out[k] = ir_tensor_type(cx->arena, dts[k], ranks[k], shapes[k]);
}

/* True when bool may be used for an operand or result that is invented
 * (not the wanted type's own dtype). */
static bool bool_ok(const OpSolveCtx *cx) {
  return (cx->lim->dtypes >> DT_BOOL) & 1;
}

/* Fill sig with operands of dtype dt broadcasting to the given shape: the
 * result has that shape, and dt, or bool for a comparison. */
static bool bin_sig(OpId op, OpSolveCtx *cx, OpSig *sig, int rank, const int64_t *shape, DType dt) {
  DType dts[2] = {dt, dt};
  draw_operands(cx, rank, shape, dts, 2, sig->args);
  sig->nargs = 2;
  sig->attrs = (Attrs){0};
  sig->ret = ir_tensor_type(cx->arena, is_compare(op) ? DT_BOOL : dt, rank, shape);
  return true;
}

bool solve_broadcast(OpId op, const Type *want, OpSolveCtx *cx, OpSig *sig) {
  if (!rec_broadcast(op, want, cx->lim))
    return false;
  DType dt = is_compare(op) ? compare_dtype(cx) : want->tensor.dtype;
  return bin_sig(op, cx, sig, want->tensor.rank, want->tensor.shape, dt);
}

bool sample_broadcast(OpId op, OpSolveCtx *cx, OpSig *sig) {
  /* Operand and result dtypes are both invented here. */
  uint32_t allowed = bin_dtypes(op) & cx->lim->dtypes;
  if (!allowed || (is_compare(op) && !bool_ok(cx)))
    return false;
  Type *t = op_draw_tensor(cx, 0, cx->lim->max_rank, allowed);
  return bin_sig(op, cx, sig, t->tensor.rank, t->tensor.shape, t->tensor.dtype);
}

/* Unsigned a / b (b != 0) as the bits of a uint64. */
static int64_t udiv(int64_t a, int64_t b) {
  return op_u2i((uint64_t)a / (uint64_t)b);
}

/* Integer (and bool) element of a broadcast operator on operands of dtype
 * dt, before wrapping to the result dtype by the store; the arithmetic is
 * done modulo 2^64. */
static int64_t bin_int(OpId op, DType dt, int64_t a, int64_t b) {
  bool uns = ir_dtype_is_unsigned(dt);
  switch (op) {
  case OP_ADD: return op_u2i((uint64_t)a + (uint64_t)b);
  case OP_SUBTRACT: return op_u2i((uint64_t)a - (uint64_t)b);
  case OP_MULTIPLY: return op_u2i((uint64_t)a * (uint64_t)b);
  case OP_DIVIDE: return b == 0 ? 0 : uns ? udiv(a, b) : b == -1 ? op_u2i(0u - (uint64_t)a) : a / b;
  case OP_MAXIMUM: return op_int_less(dt, a, b) ? b : a;
  case OP_MINIMUM: return op_int_less(dt, b, a) ? b : a;
  case OP_EQUAL: return a == b;
  case OP_NOT_EQUAL: return a != b;
  case OP_LESS: return op_int_less(dt, a, b);
  case OP_LESS_EQUAL: return !op_int_less(dt, b, a);
  case OP_GREATER: return op_int_less(dt, b, a);
  case OP_GREATER_EQUAL: return !op_int_less(dt, a, b);
  case OP_LOGICAL_AND: return a && b;
  case OP_LOGICAL_OR: return a || b;
  default: return 0;
  }
}

/* Float element of a broadcast operator. */
static double bin_float(OpId op, double a, double b) {
  switch (op) {
  case OP_ADD: return a + b;
  case OP_SUBTRACT: return a - b;
  case OP_MULTIPLY: return a * b;
  case OP_DIVIDE: return op_fdiv(a, b);
  case OP_POWER: return pow(a, b);
  case OP_MAXIMUM: return op_fmax(a, b);
  case OP_MINIMUM: return op_fmin(a, b);
  case OP_EQUAL: return a == b;
  case OP_NOT_EQUAL: return a != b;
  case OP_LESS: return a < b;
  case OP_LESS_EQUAL: return a <= b;
  case OP_GREATER: return a > b;
  case OP_GREATER_EQUAL: return a >= b;
  default: return 0;
  }
}

void k_broadcast(OpId op, Tensor *const *args, int nargs, const Attrs *at, Tensor *const *outs,
                 int nouts, Arena *scratch) {
  const Tensor *x = args[0], *y = args[1];
  Tensor *r = outs[0];
  bool fl = ir_dtype_is_float(x->dtype);
  int64_t coord[IR_MAX_RANK];
  for (int64_t i = 0; i < r->numel; i++) {
    op_unravel(i, r->rank, r->shape, coord);
    int64_t ix = op_broadcast_index(coord, r->rank, x->rank, x->shape);
    int64_t iy = op_broadcast_index(coord, r->rank, y->rank, y->shape);
    if (fl)
      ir_tensor_set_f64(r, i, bin_float(op, ir_tensor_get_f64(x, ix), ir_tensor_get_f64(y, iy)));
    else
      ir_tensor_set_i64(r, i,
                        bin_int(op, x->dtype, ir_tensor_get_i64(x, ix), ir_tensor_get_i64(y, iy)));
  }
}

/* ----------------------------------------------------------------- where */

RelStatus rel_where(OpId op, Type *const *args, int nargs, const Attrs *at, Arena *a, Type **out,
                    char *err, size_t errlen) {
  RelStatus s = op_check_attrs(op, at, err, errlen);
  if (s == REL_OK)
    s = op_want_tensors(args, nargs, 3, err, errlen);
  if (s != REL_OK)
    return s;
  if (args[0]->tensor.dtype != DT_BOOL)
    return op_fail(err, errlen, "condition must be bool, got %s",
                   ir_dtype_name(args[0]->tensor.dtype));
  DType dt = args[1]->tensor.dtype;
  if (args[2]->tensor.dtype != dt)
    return op_fail(err, errlen, "branches have different dtypes %s and %s", ir_dtype_name(dt),
                   ir_dtype_name(args[2]->tensor.dtype));
  int r1, r2;
  int64_t s1[IR_MAX_RANK], s2[IR_MAX_RANK];
  if (bcast(args[1], args[2], &r1, s1, err, errlen) != REL_OK)
    return REL_ERROR;
  Type *xy = ir_tensor_type(a, dt, r1, s1);
  if (bcast(args[0], xy, &r2, s2, err, errlen) != REL_OK)
    return REL_ERROR;
  *out = ir_tensor_type(a, dt, r2, s2);
  return REL_OK;
}

bool rec_where(OpId op, const Type *want, const OpLimits *lim) {
  /* The condition is bool: allowed, or the wanted type's own dtype. */
  return op_fits(want, lim) && (((lim->dtypes >> DT_BOOL) & 1) || want->tensor.dtype == DT_BOOL);
}

/* Fill sig with where's operands for a result of type t. */
static bool where_sig(OpId op, OpSolveCtx *cx, OpSig *sig, const Type *t) {
  DType dts[3] = {DT_BOOL, t->tensor.dtype, t->tensor.dtype};
  draw_operands(cx, t->tensor.rank, t->tensor.shape, dts, 3, sig->args);
  sig->nargs = 3;
  sig->attrs = (Attrs){0};
  return op_sig_claim(cx, sig, t);
}

bool solve_where(OpId op, const Type *want, OpSolveCtx *cx, OpSig *sig) {
  return rec_where(op, want, cx->lim) && where_sig(op, cx, sig, want);
}

bool sample_where(OpId op, OpSolveCtx *cx, OpSig *sig) {
  if (!(cx->lim->dtypes & OP_ALL) || !bool_ok(cx))
    return false;
  return where_sig(op, cx, sig, op_draw_tensor(cx, 0, cx->lim->max_rank, OP_ALL));
}

void k_where(OpId op, Tensor *const *args, int nargs, const Attrs *at, Tensor *const *outs,
             int nouts, Arena *scratch) {
  const Tensor *c = args[0], *x = args[1], *y = args[2];
  Tensor *r = outs[0];
  size_t size = (size_t)ir_dtype_size(r->dtype);
  int64_t coord[IR_MAX_RANK];
  for (int64_t i = 0; i < r->numel; i++) {
    op_unravel(i, r->rank, r->shape, coord);
    const uint8_t *cond = c->data;
    const Tensor *src = cond[op_broadcast_index(coord, r->rank, c->rank, c->shape)] ? x : y;
    int64_t j = op_broadcast_index(coord, r->rank, src->rank, src->shape);
    memcpy((char *)r->data + (size_t)i * size, (const char *)src->data + (size_t)j * size, size);
  }
}

/* ------------------------------------------- shared with other families */

void op_bcast_operands(OpSolveCtx *cx, int rank, const int64_t *shape, DType *dts, int n,
                       Type **out) {
  draw_operands(cx, rank, shape, dts, n, out);
}
