/*
 * emit_extra.c - the operators of relayc's later families (compiler/ops's
 * binary.c, math.c, stats.c and nn2.c) that have a faithful lowering,
 * each with relayc's semantics exactly; every corner where TOSA's or
 * arith's default differs is guarded (docs/mlir.md's operator table):
 *   - integer mod, floor_mod and floor_divide by 0 are 0 and by -1 wrap
 *     (tosa.intdiv and arith.remsi are undefined there): the divisor is
 *     made 1 first, the cases selected after;
 *   - shift counts are taken modulo 32 before TOSA's shifts (undefined
 *     outside [0, 32));
 *   - float products use arith.mulf, not tosa.mul, whose folder makes
 *     x * 0 into 0 (docs/findings/mlir.md #5);
 *   - maxima over a slice of -inf are -inf (tosa.reduce_max's lowering
 *     gives -FLT_MAX there: #16).
 */
#include <assert.h>
#include <math.h>

#include "compiler/ops/op.h"
#include "translate_int.h"

/* ------------------------------------------------------------ helpers */

/* x and y broadcast to the result's shape (arith does not broadcast). */
static void expand2(Fn *f, Val **x, Val **y, const Type *rt) {
  *x = emit_expand(f, *x, rt->tensor.rank, rt->tensor.shape);
  *y = emit_expand(f, *y, rt->tensor.rank, rt->tensor.shape);
}

/* "%r = OP %x, %y : T" on operands of one type. */
static Val *arith2(Fn *f, const char *op, Val *x, Val *y) {
  Val *a[2] = {x, y};
  return emit_arith(f, op, 2, a);
}

/* The divisor y with 0 and -1 made 1 (then no integer division or
 * remainder overflows or divides by zero); *is0 and *ism1 where they
 * were. */
static Val *safe_divisor(Fn *f, Val *y, Val **is0, Val **ism1) {
  *is0 = emit_cmp(f, "equal", y, emit_scalar_like(f, y, 0));
  *ism1 = emit_cmp(f, "equal", y, emit_scalar_like(f, y, -1));
  return emit_select(f, emit_bin(f, "logical_or", *is0, *ism1), emit_scalar_like(f, y, 1), y);
}

/* Where the remainder r of a division by d is nonzero and of the other
 * sign than d: where a truncated quotient and a floored one differ. */
static Val *floor_adjust(Fn *f, Val *r, Val *d) {
  Val *zero = emit_scalar_like(f, r, 0);
  Val *nz = emit_not(f, emit_cmp(f, "equal", r, zero));
  Val *sign =
      emit_bin(f, "logical_xor", emit_cmp(f, "greater", zero, r), emit_cmp(f, "greater", zero, d));
  return emit_bin(f, "logical_and", nz, sign);
}

/* Integer mod, floor_mod and floor_divide as binary.c defines them: by 0
 * all three give 0; by -1, mod and floor_mod 0 and floor_divide -x
 * (wrapping).  x and y have the result's shape. */
static Val *emit_int_floor(Fn *f, OpId op, Val *x, Val *y) {
  Val *is0, *ism1;
  Val *d = safe_divisor(f, y, &is0, &ism1);
  Val *r = arith2(f, "arith.remsi", x, d); /* by 1: 0, as relayc's by 0 and -1 */
  if (op == OP_MOD)
    return r;
  Val *adj = floor_adjust(f, r, d);
  if (op == OP_FLOOR_MOD)
    return emit_select(f, adj, emit_bin(f, "add", r, d), r);
  Val *q = emit_bin(f, "intdiv", x, d);
  q = emit_select(f, adj, emit_bin(f, "sub", q, emit_scalar_like(f, q, 1)), q);
  q = emit_select(f, ism1, emit_bin(f, "sub", emit_scalar_like(f, x, 0), x), q);
  return emit_select(f, is0, emit_scalar_like(f, q, 0), q);
}

/* Float mod (fmod: arith.remf, NaN by 0), floor_divide (floor(x / y))
 * and floor_mod (x - floor(x / y) * y), each step in the dtype. */
static Val *emit_float_floor(Fn *f, OpId op, Val *x, Val *y) {
  if (op == OP_MOD)
    return arith2(f, "arith.remf", x, y);
  Val *q = emit_tosa1(f, "floor", arith2(f, "arith.divf", x, y), x->type);
  if (op == OP_FLOOR_DIVIDE)
    return q;
  return arith2(f, "arith.subf", x, arith2(f, "arith.mulf", q, y));
}

/* x shifted by y modulo 32 (relayc's count is y & (bits - 1); TOSA's
 * shifts are undefined outside [0, bits)): left, or right arithmetic. */
static Val *emit_shift(Fn *f, OpId op, Val *x, Val *y) {
  int bits = 8 * (int)ir_dtype_size(mty_dtype(y));
  Val *c = emit_bin(f, "bitwise_and", y, emit_scalar_like(f, y, bits - 1));
  if (op == OP_LEFT_SHIFT)
    return emit_bin(f, "logical_left_shift", x, c);
  int64_t shape[IR_MAX_RANK];
  int r = mty_rank(x) > mty_rank(c) ? mty_rank(x) : mty_rank(c);
  x = emit_align(f, x, r), c = emit_align(f, c, r);
  for (int i = 0; i < r; i++)
    shape[i] = mty_shape(x)[i] == 1 ? mty_shape(c)[i] : mty_shape(x)[i];
  Val *a[2] = {x, c};
  return emit_tosa(f, "arithmetic_right_shift", "round = false",
                   mty_tensor(f, mty_dtype(x), r, shape), 2, a);
}

/* The broadcasting binary operators of binary.c. */
static Val *emit_binary_family(Fn *f, OpId op, Val *x, Val *y, const Type *rt) {
  bool b = mty_dtype(x) == DT_BOOL;
  switch (op) {
  case OP_MOD:
  case OP_FLOOR_MOD:
  case OP_FLOOR_DIVIDE:
    expand2(f, &x, &y, rt);
    return ir_dtype_is_float(mty_dtype(x)) ? emit_float_floor(f, op, x, y)
                                           : emit_int_floor(f, op, x, y);
  case OP_LOGICAL_XOR: return emit_bin(f, "logical_xor", x, y);
  case OP_BITWISE_AND: return emit_bin(f, b ? "logical_and" : "bitwise_and", x, y);
  case OP_BITWISE_OR: return emit_bin(f, b ? "logical_or" : "bitwise_or", x, y);
  case OP_BITWISE_XOR: return emit_bin(f, b ? "logical_xor" : "bitwise_xor", x, y);
  case OP_LEFT_SHIFT:
  case OP_RIGHT_SHIFT: return emit_shift(f, op, x, y);
  default: assert(!"not binary.c's"); return x;
  }
}

/* ------------------------------------- math.c's functions, in double */

/* tan, asin, acos, atan, sinh and cosh as relayc's kernel computes them:
 * in double (math's operations: libm's functions through LLVM), rounded
 * once to x's dtype. */
static Val *emit_libm(Fn *f, OpId op, Val *x) {
  static const char *const name[] = {
      [OP_TAN] = "math.tan",   [OP_ASIN] = "math.asin", [OP_ACOS] = "math.acos",
      [OP_ATAN] = "math.atan", [OP_SINH] = "math.sinh", [OP_COSH] = "math.cosh",
  };
  Val *d = emit_convert(f, "arith.extf", fn_static(f, x), DT_FLOAT64);
  d = emit_arith(f, name[op], 1, &d);
  return emit_convert(f, "arith.truncf", d, mty_dtype(x));
}

/* The elementwise unary operators of math.c that lower faithfully. */
static Val *emit_math(Fn *f, OpId op, Val *x) {
  switch (op) {
  case OP_BITWISE_NOT:
    return mty_dtype(x) == DT_BOOL ? emit_not(f, x) : emit_tosa1(f, "bitwise_not", x, x->type);
  case OP_TRUNC: return emit_arith(f, "math.trunc", 1, &x);
  case OP_SIN: return emit_tosa1(f, "sin", x, x->type);
  case OP_COS: return emit_tosa1(f, "cos", x, x->type);
  case OP_TAN:
  case OP_ASIN:
  case OP_ACOS:
  case OP_ATAN:
  case OP_SINH:
  case OP_COSH: return emit_libm(f, op, x);
  case OP_LOG2: return emit_arith(f, "math.log2", 1, &x);
  case OP_LOG10: return emit_arith(f, "math.log10", 1, &x);
  case OP_ISNAN: return emit_is_nan(f, x);
  case OP_ISINF:
  case OP_ISFINITE: {
    Val *ax = emit_tosa1(f, "abs", x, x->type), *inf = emit_scalar_like(f, x, INFINITY);
    return op == OP_ISINF ? emit_cmp(f, "equal", ax, inf) : emit_cmp(f, "greater", inf, ax);
  }
  default: assert(!"not lowered"); return x;
  }
}

/* x > 0 ? x : x * alpha, alpha of x's shape (arith.mulf: -0 and NaN
 * products stay as they are). */
static Val *emit_leaky(Fn *f, Val *x, Val *alpha) {
  Val *pos = emit_cmp(f, "greater", x, emit_scalar_like(f, x, 0));
  return emit_select(f, pos, x, arith2(f, "arith.mulf", x, alpha));
}

/* nn.prelu(x, alpha): alpha along axis, broadcast to x's shape. */
static Val *emit_prelu(Fn *f, Val *x, Val *alpha, const Attrs *at) {
  int rank = mty_rank(x), axis = attr_axis(ir_attr_int(at, "axis", 1), rank);
  int64_t shape[IR_MAX_RANK];
  for (int i = 0; i < rank; i++)
    shape[i] = i == axis ? mty_shape(x)[i] : 1;
  alpha = emit_expand(f, emit_reshape(f, alpha, rank, shape), rank, mty_shape(x));
  return emit_leaky(f, x, alpha);
}

/* ------------------------------------------------- matmul and conv1d */

/* x with its last two dims swapped. */
static Val *swap_last(Fn *f, Val *x) {
  int r = mty_rank(x), perm[IR_MAX_RANK];
  for (int i = 0; i < r; i++)
    perm[i] = i;
  perm[r - 2] = r - 1, perm[r - 1] = r - 2;
  return emit_transpose(f, x, perm);
}

/* nn.matmul: A [.., m, k] (transpose_a: [.., k, m]) times B [k, n]
 * (transpose_b: [n, k]) as one [1, M, k] x [1, k, n] matmul, the
 * operands converted to out_dtype first. */
static Val *emit_nn_matmul(Fn *f, Val *x, Val *y, const Attrs *at, const Type *rt) {
  DType dt = rt->tensor.dtype;
  x = emit_cast(f, x, dt);
  y = emit_cast(f, y, dt);
  if (ir_attr_bool(at, "transpose_a", false))
    x = swap_last(f, x);
  if (ir_attr_bool(at, "transpose_b", false))
    y = swap_last(f, y);
  int64_t k = mty_shape(y)[0], n = mty_shape(y)[1];
  int64_t xs[3] = {1, ir_type_numel(x->type) / k, k}, ys[3] = {1, k, n};
  Val *r = emit_matmul(f, emit_reshape(f, x, 3, xs), emit_reshape(f, y, 3, ys));
  return emit_reshape(f, r, rt->tensor.rank, rt->tensor.shape);
}

/* nn.conv1d (NCW, OIW) as nn.conv2d (NCHW, OIHW) with H = 1. */
static Val *emit_conv1d(Fn *f, Val *x, Val *wt, const Attrs *at, const Type *rt) {
  const int64_t *v;
  int64_t st[2] = {1, 1}, dl[2] = {1, 1}, pad[4] = {0, 0, 0, 0}; /* top, left, bottom, right */
  if (attr_ints(at, "strides", &v) >= 1)
    st[1] = v[0];
  if (attr_ints(at, "dilation", &v) >= 1)
    dl[1] = v[0];
  int np = attr_ints(at, "padding", &v);
  if (np >= 1)
    pad[1] = pad[3] = v[0];
  if (np == 2)
    pad[3] = v[1];
  Attrs a2 = {0};
  ir_attr_set_ints(f->t->a, &a2, "strides", 2, st);
  ir_attr_set_ints(f->t->a, &a2, "dilation", 2, dl);
  ir_attr_set_ints(f->t->a, &a2, "padding", 4, pad);
  ir_attr_set_int(f->t->a, &a2, "groups", ir_attr_int(at, "groups", 1));
  const int64_t *xs = mty_shape(x), *ws = mty_shape(wt), *rs = rt->tensor.shape;
  int64_t x4[4] = {xs[0], xs[1], 1, xs[2]}, w4[4] = {ws[0], ws[1], 1, ws[2]},
          r4[4] = {rs[0], rs[1], 1, rs[2]};
  Val *r = emit_conv2d(f, emit_reshape(f, x, 4, x4), emit_reshape(f, wt, 4, w4), &a2,
                       mty_tensor(f, rt->tensor.dtype, 4, r4));
  return emit_reshape(f, r, 3, rs);
}

/* nn.conv2d_transpose (NCHW data, IOHW weights) as the nn.conv2d whose
 * taps are relayc's: x with stride - 1 zeros after each element (reshaped
 * to [N, C, H, 1, W, 1], padded, reshaped), then the window of it that
 * output row 0 .. o - 1 reads, from padding - dilation * (k - 1) on
 * (zeros padded where the window leaves the data, the rest sliced off),
 * convolved with the weights as OIHW per group and flipped in H and W,
 * stride 1, the dilation and no padding.  Every tap is a product, the
 * inserted zeros' too, as relayc multiplies them (0 * NaN is NaN). */
static Val *emit_conv2d_transpose(Fn *f, Val *x, Val *wt, const Attrs *at, const Type *rt) {
  const int64_t *xs = mty_shape(x), *ws = mty_shape(wt);
  Win w = attr_window(at, ws + 2);
  int64_t g = ir_attr_int(at, "groups", 1), n = xs[0], c = xs[1];
  int64_t x6[6] = {n, c, xs[2], 1, xs[3], 1}, lo6[6] = {0},
          hi6[6] = {0, 0, 0, w.s[0] - 1, 0, w.s[1] - 1};
  int64_t up[4] = {n, c, xs[2] * w.s[0], xs[3] * w.s[1]};
  x = emit_reshape(f, emit_pad(f, emit_reshape(f, x, 6, x6), lo6, hi6, 0), 4, up);
  int64_t pre[4] = {0}, post[4] = {0}, start[4] = {0}, size[4] = {n, c, 0, 0};
  int64_t zero[4] = {0, 0, 0, 0}, one[2] = {1, 1};
  for (int i = 2; i < 4; i++) {
    int64_t need = rt->tensor.shape[i] + w.d[i - 2] * (ws[i] - 1);
    int64_t from = w.lo[i - 2] - w.d[i - 2] * (ws[i] - 1);
    pre[i] = from < 0 ? -from : 0;
    post[i] = from + need > up[i] ? from + need - up[i] : 0;
    start[i] = from + pre[i], size[i] = need;
  }
  x = emit_slice(f, emit_pad(f, x, pre, post, 0), start, size);
  int64_t cg = c / g, ocg = ws[1], w5[5] = {g, cg, ocg, ws[2], ws[3]};
  int64_t oihw[4] = {g * ocg, cg, ws[2], ws[3]};
  static const int swap[5] = {0, 2, 1, 3, 4};
  wt = emit_reshape(f, emit_transpose(f, emit_reshape(f, wt, 5, w5), swap), 4, oihw);
  for (int i = 2; i < 4; i++)
    if (ws[i] > 1)
      wt = emit_reverse(f, wt, i);
  Attrs a2 = {0};
  ir_attr_set_ints(f->t->a, &a2, "strides", 2, one);
  ir_attr_set_ints(f->t->a, &a2, "dilation", 2, w.d);
  ir_attr_set_ints(f->t->a, &a2, "padding", 4, zero);
  ir_attr_set_int(f->t->a, &a2, "groups", g);
  return emit_conv2d(f, x, wt, &a2, rt);
}

/* ---------------------------------------------------------- reductions */

/* The max of x over mask (kept as 1s), -inf over a slice of -inf. */
static Val *emit_max_over(Fn *f, Val *x, uint32_t mask) {
  Val *m = emit_reduce_each(f, "reduce_max", x, mask);
  if (!ir_dtype_is_float(mty_dtype(x)))
    return m;
  Val *ninf = emit_scalar_like(f, x, -INFINITY);
  Val *all = emit_reduce_each(f, "reduce_all", emit_cmp(f, "equal", x, ninf), mask);
  return emit_select(f, all, emit_scalar_like(f, m, -INFINITY), m);
}

/* The float sum of x over mask in double, rounded once (kept as 1s):
 * over no axis, x itself (relayc adds x to 0, which changes no element
 * here: they are exponentials and squares, never -0). */
static Val *sum_over(Fn *f, Val *x, uint32_t mask) {
  return mask ? emit_float_sum(f, x, mask, false) : x;
}

/* all, any, logsumexp, variance and std as stats.c defines them (kept as
 * 1s; the caller reshapes): sums accumulated in double and rounded once,
 * every other step in the dtype. */
static Val *emit_stats(Fn *f, OpId op, Val **a, const Attrs *at) {
  Val *x = a[0];
  uint32_t mask = attr_reduce_axes(at, mty_rank(x));
  switch (op) {
  case OP_REDUCE_ALL: return emit_reduce_each(f, "reduce_all", x, mask);
  case OP_REDUCE_ANY: return emit_reduce_each(f, "reduce_any", x, mask);
  case OP_LOGSUMEXP: {
    Val *m = emit_max_over(f, x, mask);
    Val *e = emit_tosa1(f, "exp", emit_bin(f, "sub", x, m), x->type);
    Val *s = sum_over(f, e, mask);
    s = emit_tosa1(f, "log", s, s->type);
    return emit_bin(f, "add", s, m);
  }
  default: break;
  }
  /* variance, std: sum((x - m)^2) / (count - unbiased), count the
   * elements of a slice. */
  double count = 1;
  for (int i = 0; i < mty_rank(x); i++)
    if (mask >> i & 1)
      count *= (double)mty_shape(x)[i];
  count -= ir_attr_bool(at, "unbiased", false) ? 1 : 0;
  Val *d = emit_expand(f, emit_bin(f, "sub", x, a[1]), mty_rank(x), mty_shape(x));
  Val *s = sum_over(f, arith2(f, "arith.mulf", d, d), mask);
  Val *v = arith2(f, "arith.divf", s, emit_fill(f, s->type, count));
  return op == OP_STD ? emit_arith(f, "math.sqrt", 1, &v) : v;
}

/* ---------------------------------------------------------------- entry */

Val *emit_extra(Fn *f, const Expr *e, Val **a, const Type *rt) {
  OpId op = e->call.op;
  const Attrs *at = &e->call.attrs;
  switch (op) {
  case OP_MOD:
  case OP_FLOOR_MOD:
  case OP_FLOOR_DIVIDE:
  case OP_LOGICAL_XOR:
  case OP_BITWISE_AND:
  case OP_BITWISE_OR:
  case OP_BITWISE_XOR:
  case OP_LEFT_SHIFT:
  case OP_RIGHT_SHIFT: return emit_binary_family(f, op, a[0], a[1], rt);
  case OP_LEAKY_RELU: {
    double alpha = (float)ir_attr_float(at, "alpha", 0.25); /* relayc rounds it to the dtype */
    Val *x = fn_static(f, a[0]);
    return emit_leaky(f, x, emit_fill(f, x->type, alpha));
  }
  case OP_PRELU: return emit_prelu(f, a[0], a[1], at);
  case OP_DROPOUT: { /* inference: (x, ones) */
    Val *v = ARENA_NEW(f->t->a, Val);
    v->n = 2;
    v->f = ARENA_ARRAY(f->t->a, Val *, 2);
    v->f[0] = a[0];
    v->f[1] = emit_fill(f, a[0]->type, 1);
    return v;
  }
  case OP_REDUCE_ALL:
  case OP_REDUCE_ANY:
  case OP_LOGSUMEXP:
  case OP_VARIANCE:
  case OP_STD: return emit_reshape(f, emit_stats(f, op, a, at), rt->tensor.rank, rt->tensor.shape);
  case OP_GLOBAL_MAX_POOL2D: return emit_max_over(f, a[0], 0xc); /* H and W of NCHW */
  case OP_MATMUL: return emit_nn_matmul(f, a[0], a[1], at, rt);
  case OP_CONV1D: return emit_conv1d(f, a[0], a[1], at, rt);
  case OP_CONV2D_TRANSPOSE: return emit_conv2d_transpose(f, a[0], a[1], at, rt);
  default: return emit_math(f, op, a[0]);
  }
}
