/*
 * reduction.c - the naive reductions (docs/operators.md, "reduction"):
 * for each result element, the elements of the input that agree with it
 * on every kept axis, visited in row-major order; floats accumulated in
 * double from 0 (prod: 1) and rounded once, integers in 64 bits and
 * wrapped.
 */
#include <math.h>

#include "naive.h"

/* Which of x's axes are reduced: those listed in axis (all when it is
 * None or []), or with exclude those not listed. */
static void reduced_axes(const Attrs *at, int rank, bool *red) {
  int n;
  const int64_t *axes = nv_ints(at, "axis", &n);
  for (int d = 0; d < rank; d++)
    red[d] = n == 0;
  if (n == 0)
    return;
  for (int k = 0; k < n; k++)
    red[nv_axis(axes[k], rank)] = true;
  if (nv_bool(at, "exclude", false))
    for (int d = 0; d < rank; d++)
      red[d] = !red[d];
}

/* Does v beat the extreme so far, e (max when hi)?  A NaN beats every
 * number and nothing beats a NaN; +0 is above -0; ties keep the first. */
static bool beats_f(double v, double e, bool hi) {
  if (isnan(e))
    return false;
  if (isnan(v))
    return true;
  if (v == e && signbit(v) != signbit(e))
    return hi ? !signbit(v) : signbit(v) != 0;
  return hi ? v > e : v < e;
}

/* The value of an integer dtype's extreme: its lowest (hi) or highest
 * (as its bits: uint64's highest reads -1). */
static int64_t int_extreme(DType dt, bool lowest) {
  switch (dt) {
  case DT_INT8: return lowest ? INT8_MIN : INT8_MAX;
  case DT_INT16: return lowest ? INT16_MIN : INT16_MAX;
  case DT_INT32: return lowest ? INT32_MIN : INT32_MAX;
  case DT_UINT8: return lowest ? 0 : UINT8_MAX;
  case DT_UINT16: return lowest ? 0 : UINT16_MAX;
  case DT_UINT32: return lowest ? 0 : UINT32_MAX;
  case DT_UINT64: return lowest ? 0 : -1;
  default: return lowest ? INT64_MIN : INT64_MAX;
  }
}

/* Reduce x into result element o (result coordinate ro mapped onto x's
 * kept axes). */
static void reduce_one(OpId op, const Tensor *x, const bool *red, const int64_t *kept, Tensor *r,
                       int64_t o) {
  bool fl = nv_is_float(x->dtype);
  bool hi = op == OP_MAX || op == OP_ARGMAX;
  bool arg = op == OP_ARGMAX || op == OP_ARGMIN;
  double sf = op == OP_PROD ? 1 : 0, ef = 0;
  uint64_t si = op == OP_PROD ? 1 : 0;
  int64_t ei = 0, at = -1, count = 0, c[IR_MAX_RANK];
  for (int64_t j = 0; j < x->numel; j++) {
    nv_coord(x->rank, x->shape, j, c);
    bool mine = true;
    for (int d = 0; d < x->rank; d++)
      mine &= red[d] || c[d] == kept[d];
    if (!mine)
      continue;
    /* count is this element's row-major index within the reduced axes */
    if (fl) {
      double v = nv_f(x, j);
      if (op == OP_SUM || op == OP_MEAN)
        sf += v;
      else if (op == OP_PROD)
        sf *= v;
      else if (at < 0 || beats_f(v, ef, hi))
        ef = v, at = count;
    } else {
      int64_t v = nv_i(x, j);
      if (op == OP_SUM || op == OP_MEAN)
        si += (uint64_t)v;
      else if (op == OP_PROD)
        si *= (uint64_t)v;
      else if (at < 0 || (hi ? nv_lt(x->dtype, ei, v) : nv_lt(x->dtype, v, ei)))
        ei = v, at = count;
    }
    count++;
  }
  if (arg) {
    nv_put_i(r, o, at < 0 ? 0 : at);
  } else if (op == OP_MAX || op == OP_MIN) {
    if (at >= 0 && fl)
      nv_put_f(r, o, ef);
    else if (at >= 0)
      nv_put_i(r, o, ei);
    else if (fl)
      nv_put_f(r, o, hi ? -INFINITY : INFINITY);
    else
      nv_put_i(r, o, int_extreme(x->dtype, hi));
  } else if (op == OP_MEAN) {
    if (fl)
      nv_put_f(r, o, nv_div(sf, (double)count)); /* none: NaN */
    else
      nv_put_i(r, o,
               !count                     ? 0
               : nv_is_unsigned(x->dtype) ? (int64_t)(si / (uint64_t)count)
                                          : (int64_t)si / count);
  } else {
    if (fl)
      nv_put_f(r, o, sf);
    else
      nv_put_i(r, o, (int64_t)si);
  }
}

void nv_reduce(OpId op, Tensor *const *args, int nargs, const Attrs *at, Tensor *const *outs,
               int nouts) {
  const Tensor *x = args[0];
  Tensor *r = outs[0];
  bool red[IR_MAX_RANK], keepdims = nv_bool(at, "keepdims", false);
  reduced_axes(at, x->rank, red);
  int64_t rc[IR_MAX_RANK], kept[IR_MAX_RANK];
  for (int64_t o = 0; o < r->numel; o++) {
    nv_coord(r->rank, r->shape, o, rc);
    /* x's coordinate on the kept axes: the result's dims in order (with
     * keepdims, a reduced axis keeps its place as a dim of 1). */
    for (int d = 0, k = 0; d < x->rank; d++) {
      kept[d] = red[d] ? 0 : rc[k];
      k += !red[d] || keepdims;
    }
    reduce_one(op, x, red, kept, r, o);
  }
}
