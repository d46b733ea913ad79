/*
 * stats.c - naive all, any, logsumexp, variance and std (docs/operators.md,
 * "stats"): for each result element, the input elements whose coordinate
 * agrees with it on every kept axis, visited in row-major order, and the
 * definition's steps one after the other, each rounded to the dtype (a
 * sum accumulated in double and rounded once).
 */
#include <math.h>

#include "naive.h"

/* Bit d set when axis d of a rank-`rank` input is reduced. */
static unsigned reduced_bits(const Attrs *at, int rank) {
  int n;
  const int64_t *axes = nv_ints(at, "axis", &n);
  unsigned all = (1u << rank) - 1, listed = 0;
  if (n == 0)
    return all;
  for (int k = 0; k < n; k++)
    listed |= 1u << nv_axis(axes[k], rank);
  return nv_bool(at, "exclude", false) ? all & ~listed : listed;
}

/* Is input coordinate c in the slice of result coordinate rc? */
static bool in_slice(const Tensor *x, unsigned red, bool keepdims, const int64_t *c,
                     const int64_t *rc) {
  for (int d = 0, k = 0; d < x->rank; d++) {
    bool r = red >> d & 1;
    if (!r && c[d] != rc[k])
      return false;
    k += !r || keepdims;
  }
  return true;
}

void nv_stats(OpId op, Tensor *const *args, int nargs, const Attrs *at, Tensor *const *outs,
              int nouts) {
  const Tensor *x = args[0], *m = nargs > 1 ? args[1] : NULL;
  Tensor *r = outs[0];
  DType dt = x->dtype;
  unsigned red = reduced_bits(at, x->rank);
  bool keepdims = nv_bool(at, "keepdims", false);
  int64_t rc[IR_MAX_RANK], c[IR_MAX_RANK], mc[IR_MAX_RANK];
  for (int64_t o = 0; o < r->numel; o++) {
    nv_coord(r->rank, r->shape, o, rc);
    /* The max of the slice first (logsumexp), then the fold. */
    double hi = -INFINITY, sum = 0;
    int64_t count = 0;
    bool all = true, any = false;
    for (int64_t j = 0; j < x->numel; j++) {
      nv_coord(x->rank, x->shape, j, c);
      if (in_slice(x, red, keepdims, c, rc))
        hi = nv_max(hi, nv_f(x, j));
    }
    for (int64_t j = 0; j < x->numel; j++) {
      nv_coord(x->rank, x->shape, j, c);
      if (!in_slice(x, red, keepdims, c, rc))
        continue;
      count++;
      double v = nv_f(x, j);
      all = all && v != 0;
      any = any || v != 0;
      if (op == OP_LOGSUMEXP) {
        sum += nv_step(dt, exp(nv_step(dt, v - hi)));
      } else if (m) {
        for (int d = 0; d < x->rank; d++)
          mc[d] = m->shape[d] == 1 ? 0 : c[d];
        double diff = nv_step(dt, v - nv_f(m, nv_index(m->rank, m->shape, mc)));
        sum += nv_step(dt, diff * diff);
      }
    }
    if (op == OP_REDUCE_ALL || op == OP_REDUCE_ANY) {
      nv_put_i(r, o, op == OP_REDUCE_ALL ? all : any);
    } else if (op == OP_LOGSUMEXP) {
      nv_put_f(r, o, nv_step(dt, log(nv_step(dt, sum))) + hi);
    } else {
      double n = (double)count - (nv_bool(at, "unbiased", false) ? 1 : 0);
      double var = nv_step(dt, nv_div(nv_step(dt, sum), n));
      nv_put_f(r, o, op == OP_STD ? sqrt(var) : var);
    }
  }
}
