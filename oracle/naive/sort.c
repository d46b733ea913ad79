/*
 * sort.c - naive kernels of sort, argsort and topk (docs/operators.md,
 * "sort"): for each slice along the axis, the place of every element in
 * the sorted slice is counted (how many elements come before it: smaller,
 * or equal with a lower index; larger first when descending), and the
 * element is written at that place when it is among the first k.
 * A NaN is above every number and equal to every NaN; -0 equals +0.
 */
#include <string.h>

#include "naive.h"

/* Is element i of x below element j, under the defined order? */
static bool below(const Tensor *x, int64_t i, int64_t j) {
  if (nv_is_float(x->dtype)) {
    double a = nv_f(x, i), b = nv_f(x, j);
    if (a != a)
      return false;
    return b != b || a < b;
  }
  return nv_lt(x->dtype, nv_i(x, i), nv_i(x, j));
}

void nv_sort(OpId op, Tensor *const *args, int nargs, const Attrs *at, Tensor *const *outs,
             int nouts) {
  const Tensor *x = args[0];
  int axis = nv_axis(nv_int(at, "axis", -1), x->rank);
  bool asc = nv_bool(at, "is_ascend", op != OP_TOPK);
  const char *ret = op == OP_TOPK ? nv_str(at, "ret_type", "both") : "";
  Tensor *vals = NULL, *idx = NULL;
  if (op == OP_SORT || (op == OP_TOPK && strcmp(ret, "indices") != 0))
    vals = outs[0];
  if (op == OP_ARGSORT || (op == OP_TOPK && strcmp(ret, "indices") == 0))
    idx = outs[0];
  if (op == OP_TOPK && strcmp(ret, "both") == 0)
    idx = outs[1];
  int64_t n = x->shape[axis], k = outs[0]->shape[axis];
  int64_t c[IR_MAX_RANK], d[IR_MAX_RANK];
  /* Every element of the data: where it lands along the axis. */
  for (int64_t e = 0; e < x->numel; e++) {
    nv_coord(x->rank, x->shape, e, c);
    int64_t place = 0;
    memcpy(d, c, sizeof c);
    for (int64_t j = 0; j < n; j++) {
      d[axis] = j;
      int64_t f = nv_index(x->rank, x->shape, d);
      bool first = asc ? below(x, f, e) : below(x, e, f);
      bool tie = !below(x, f, e) && !below(x, e, f);
      if (first || (tie && j < c[axis]))
        place++;
    }
    if (place >= k)
      continue;
    int64_t src = c[axis];
    c[axis] = place;
    int64_t o = nv_index(outs[0]->rank, outs[0]->shape, c);
    if (vals)
      nv_put(vals, o, x, e);
    if (idx)
      nv_put_i(idx, o, src);
  }
}
