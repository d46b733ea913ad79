/*
 * cumulative.c - naive cumsum and cumprod (docs/operators.md,
 * "cumulative"): each result element recomputed from scratch as the sum
 * (product) of the input elements before it along the axis (the
 * flattened input when axis is None), each converted to the result's
 * dtype first, floats accumulated in double and rounded once, integers
 * wrapped.
 */
#include "naive.h"

void nv_cumulative(OpId op, Tensor *const *args, int nargs, const Attrs *at, Tensor *const *outs,
                   int nouts) {
  const Tensor *x = args[0];
  Tensor *r = outs[0];
  DType dt = r->dtype;
  bool excl = nv_bool(at, "exclusive", false), prod = op == OP_CUMPROD;
  bool flat = nv_attr(at, "axis") == NULL;
  int axis = flat ? 0 : nv_axis(nv_int(at, "axis", 0), x->rank);
  int64_t c[IR_MAX_RANK];
  for (int64_t o = 0; o < r->numel; o++) {
    /* Walk back from element o along the axis (or the flat order). */
    int64_t pos = o;
    if (!flat) {
      nv_coord(x->rank, x->shape, o, c);
      pos = c[axis];
    }
    double f = prod ? 1 : 0;
    uint64_t u = prod ? 1 : 0;
    for (int64_t j = 0; j < pos + !excl; j++) {
      int64_t src = j;
      if (!flat) {
        c[axis] = j;
        src = nv_index(x->rank, x->shape, c);
      }
      double vf;
      int64_t vi;
      nv_convert(x, src, dt, &vf, &vi);
      if (prod)
        f *= vf, u *= (uint64_t)vi;
      else
        f += vf, u += (uint64_t)vi;
    }
    if (ir_dtype_is_float(dt))
      nv_put_f(r, o, f);
    else
      nv_put_i(r, o, (int64_t)u);
  }
}
