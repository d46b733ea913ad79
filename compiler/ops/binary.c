/*
 * binary.c - the integer and bitwise broadcasting binary operators: mod,
 * floor_mod, floor_divide, logical_xor, bitwise_and, bitwise_or,
 * bitwise_xor, left_shift and right_shift: relations, recognizers,
 * solvers, samplers and kernels.
 *
 * Shapes broadcast as for add (numpy's rules, Any dims as TVM's
 * BroadcastShape); both operands have one dtype, which the result keeps.
 * Dtypes: mod, floor_mod and floor_divide take ints and floats;
 * logical_xor takes bool; bitwise_and, bitwise_or and bitwise_xor take
 * ints and bool (TVM's bool is a 1-bit unsigned int); the shifts take ints.
 *
 * Defined behaviour, as TVM's topi and TIR define it (truncmod, floordiv,
 * floormod), and where TVM leaves it undefined as said here:
 *   mod           truncated: the sign of A (-7 mod 2 = -1); floats fmod.
 *   floor_divide  rounds toward -inf (-7 // 2 = -4); floats floor(A / B),
 *                 each step in A's dtype.
 *   floor_mod     the sign of B (-7 floor_mod 2 = 1); integers
 *                 A - floor_divide(A, B) * B; floats A - floor(A / B) * B,
 *                 each step in A's dtype (TVM's lowering), so
 *                 floor_mod(x, inf) and floor_mod(x, 0) are NaN.
 *   by zero       an integer x mod 0, x floor_mod 0 and x floor_divide 0
 *                 are 0, as divide defines x / 0 (TVM: undefined); float
 *                 division by zero is IEEE.  MIN floor_divide -1 wraps to
 *                 MIN (as MIN / -1), MIN mod -1 and MIN floor_mod -1 are 0.
 *   bitwise       on bool: and, or and xor of the truth values.
 *   shifts        the count is taken modulo the bit width (B & (bits - 1),
 *                 so -1 shifts an int8 by 7; TVM and LLVM leave a count
 *                 outside [0, bits) undefined); left_shift wraps;
 *                 right_shift of a negative signed int is arithmetic
 *                 (fills with the sign bit).
 */
#include <math.h>

#include "op_int.h"

enum { BOOL_ONLY = 1u << DT_BOOL };

/* The operand dtypes an operator of this family accepts. */
static uint32_t bin_dtypes(OpId op) {
  switch (op) {
  case OP_MOD:
  case OP_FLOOR_MOD:
  case OP_FLOOR_DIVIDE: return OP_NUMERIC;
  case OP_LOGICAL_XOR: return BOOL_ONLY;
  case OP_LEFT_SHIFT:
  case OP_RIGHT_SHIFT: return OP_INTS;
  default: return OP_INTS | BOOL_ONLY; /* bitwise_and, _or, _xor */
  }
}

/* A phrase naming a dtype set, for error messages. */
static const char *dtypes_desc(uint32_t m) {
  return m == OP_NUMERIC  ? "int or float"
         : m == BOOL_ONLY ? "bool"
         : m == OP_INTS   ? "int"
                          : "int or bool";
}

RelStatus rel_binary(OpId op, Type *const *args, int nargs, const Attrs *at, Arena *a, Type **out,
                     char *err, size_t errlen) {
  RelStatus s = op_check_attrs(op, at, err, errlen);
  if (s == REL_OK)
    s = op_want_tensors(args, nargs, 2, err, errlen);
  if (s != REL_OK)
    return s;
  const Type *x = args[0], *y = args[1];
  DType dt = x->tensor.dtype;
  if (y->tensor.dtype != dt)
    return op_fail(err, errlen, "operands have different dtypes %s and %s", ir_dtype_name(dt),
                   ir_dtype_name(y->tensor.dtype));
  if (!(bin_dtypes(op) & (1u << dt)))
    return op_fail(err, errlen, "expects %s operands, got %s", dtypes_desc(bin_dtypes(op)),
                   ir_dtype_name(dt));
  int rank;
  int64_t shape[IR_MAX_RANK];
  if (!op_broadcast_shape(x->tensor.rank, x->tensor.shape, y->tensor.rank, y->tensor.shape, &rank,
                          shape)) {
    char bx[96], by[96];
    return op_fail(err, errlen, "shapes %s and %s do not broadcast", op_type_str(x, bx, sizeof bx),
                   op_type_str(y, by, sizeof by));
  }
  *out = ir_tensor_type(a, dt, rank, shape);
  return REL_OK;
}

bool rec_binary(OpId op, const Type *want, const OpLimits *lim) {
  return op_fits_dtype(want, lim, bin_dtypes(op));
}

bool solve_binary(OpId op, const Type *want, OpSolveCtx *cx, OpSig *sig) {
  if (!rec_binary(op, want, cx->lim))
    return false;
  DType dts[2] = {want->tensor.dtype, want->tensor.dtype};
  op_bcast_operands(cx, want->tensor.rank, want->tensor.shape, dts, 2, sig->args);
  sig->nargs = 2;
  sig->attrs = (Attrs){0};
  return op_sig_claim(cx, sig, want);
}

bool sample_binary(OpId op, OpSolveCtx *cx, OpSig *sig) {
  uint32_t allowed = bin_dtypes(op) & cx->lim->dtypes;
  if (!allowed)
    return false;
  return solve_binary(op, op_draw_tensor(cx, 0, cx->lim->max_rank, allowed), cx, sig);
}

/* a shifted right by c < 64 bits, filling with the sign bit. */
static int64_t shift_right(int64_t a, unsigned c) {
  return a < 0 ? ~(int64_t)((uint64_t)~a >> c) : (int64_t)((uint64_t)a >> c);
}

/* An integer (or bool) element of dtype dt, before the store wraps it:
 * operands are sign-extended to 64 bits. */
static int64_t bin_int(OpId op, DType dt, int64_t a, int64_t b) {
  unsigned bits = 8u * (unsigned)ir_dtype_size(dt), c = (unsigned)((uint64_t)b & (bits - 1));
  switch (op) {
  case OP_MOD: return b == 0 || b == -1 ? 0 : a % b;
  case OP_FLOOR_MOD: {
    if (b == 0 || b == -1)
      return 0;
    int64_t r = a % b;
    return r != 0 && (r < 0) != (b < 0) ? r + b : r;
  }
  case OP_FLOOR_DIVIDE: {
    if (b == 0)
      return 0;
    if (b == -1)
      return (int64_t)(0u - (uint64_t)a); /* MIN // -1 wraps to MIN */
    int64_t q = a / b;
    return a % b != 0 && (a < 0) != (b < 0) ? q - 1 : q;
  }
  case OP_LOGICAL_XOR: return (a != 0) != (b != 0);
  case OP_BITWISE_AND: return a & b;
  case OP_BITWISE_OR: return a | b;
  case OP_BITWISE_XOR: return a ^ b;
  case OP_LEFT_SHIFT: return (int64_t)((uint64_t)a << c);
  case OP_RIGHT_SHIFT: return shift_right(a, c);
  default: return 0;
  }
}

/* A float element of dtype dt; each step rounded to dt. */
static double bin_float(OpId op, DType dt, double a, double b) {
  switch (op) {
  case OP_MOD: return b == 0 ? NAN : fmod(a, b);
  case OP_FLOOR_DIVIDE: return floor(op_round(dt, op_fdiv(a, b)));
  case OP_FLOOR_MOD: return a - op_round(dt, floor(op_round(dt, op_fdiv(a, b))) * b);
  default: return 0;
  }
}

void k_binary(OpId op, Tensor *const *args, int nargs, const Attrs *at, Tensor *const *outs,
              int nouts, Arena *scratch) {
  const Tensor *x = args[0], *y = args[1];
  Tensor *r = outs[0];
  DType dt = x->dtype;
  bool fl = ir_dtype_is_float(dt);
  int64_t coord[IR_MAX_RANK];
  for (int64_t i = 0; i < r->numel; i++) {
    op_unravel(i, r->rank, r->shape, coord);
    int64_t ix = op_broadcast_index(coord, r->rank, x->rank, x->shape);
    int64_t iy = op_broadcast_index(coord, r->rank, y->rank, y->shape);
    if (fl)
      ir_tensor_set_f64(r, i,
                        bin_float(op, dt, ir_tensor_get_f64(x, ix), ir_tensor_get_f64(y, iy)));
    else
      ir_tensor_set_i64(r, i, bin_int(op, dt, ir_tensor_get_i64(x, ix), ir_tensor_get_i64(y, iy)));
  }
}
