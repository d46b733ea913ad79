/*
 * shape.c - the shape operators reshape, transpose, expand_dims, squeeze
 * and broadcast_to: for each, its relation, recognizer, solver, sampler
 * and kernel (op.h states their contracts).
 *
 * The relations follow Relay's (src/relay/op/tensor/transform.cc), with
 * these deliberate differences, places where Relay would write the wrong
 * dim or divide by zero:
 *   - reshape rejects a -1 whose position in the result differs from its
 *     position in newshape (after a -2 that copies other than one dim, or
 *     after a -4); Relay writes the inferred dim to the wrong place there.
 *     It also rejects inferring -1 when the other dims hold no elements.
 *   - Every result shape is checked for overflow and for rank <= 6.
 * newshape and broadcast_to's shape are required (errors when missing);
 * expand_dims's axis defaults to 0 and num_newaxis to 1, as in Relay.
 */
#include <string.h>

#include "op_int.h"

/* --------------------------------------------------------------- reshape */

/* reshape(A, newshape): A's elements in a new shape.  The kernel,
 * k_copy_data, serves expand_dims and squeeze too. */

/* Relay's reshape shape inference: newshape entries are positive dims, 0
 * (copy the input dim at the same position), -1 (infer from the input
 * dims not otherwise used), -2 (copy all remaining input dims), -3 (merge
 * two input dims) and -4 a b (split an input dim into a and b, one of
 * which may be -1).  Input dims must be valid (op_count_elems). */
#ifdef RS_TEST_PASSES
bool op_test_fault_reshape;
#endif

static RelStatus reshape_infer(int rin, const int64_t *in, int n, const int64_t *ns, int *rout,
                               int64_t *out, char *err, size_t errlen) {
  bool used_in[IR_MAX_RANK] = {0}, used_out[IR_MAX_RANK + 2] = {0};
  int src = 0, r = 0, infer = -1;
  for (int i = 0; i < n; i++) {
    int64_t v = ns[i];
    int grows = v == -4 ? 2 : v == -2 ? (src < rin ? rin - src : 0) : 1;
    if (v < -4)
      return op_fail(err, errlen, "newshape[%d] = %lld is not a dim or one of 0, -1, -2, -3, -4", i,
                     (long long)v);
    if (r + grows > IR_MAX_RANK)
      return op_fail(err, errlen, "newshape gives a result of rank above %d", IR_MAX_RANK);
    if (v > 0) {
      out[r++] = v;
      src++;
    } else if (v == 0) {
      if (src >= rin)
        return op_fail(err, errlen,
                       "newshape[%d] = 0 copies input dim %d, but the input has rank %d", i, src,
                       rin);
      used_in[src] = used_out[r] = true;
      out[r++] = in[src++];
    } else if (v == -1) {
#ifdef RS_TEST_PASSES
      if (op_test_fault_reshape && i > 0 && ns[i - 1] == 0)
        return op_fail(err, errlen, "newshape[%d] = -1 after a 0 is not supported", i);
#endif
      if (infer >= 0)
        return op_fail(err, errlen, "newshape has more than one -1");
      if (r != i)
        return op_fail(err, errlen,
                       "newshape[%d] = -1 after a -2 or -4 that moves positions is "
                       "not supported",
                       i);
      infer = r;
      out[r++] = 1;
      src++;
    } else if (v == -2) {
      while (src < rin) {
        used_in[src] = used_out[r] = true;
        out[r++] = in[src++];
      }
    } else if (v == -3) {
      if (src + 1 >= rin)
        return op_fail(err, errlen, "newshape[%d] = -3 needs two input dims, the input has %d left",
                       i, rin - src > 0 ? rin - src : 0);
      used_in[src] = used_in[src + 1] = used_out[r] = true;
      op_dim_mul(in[src], in[src + 1], &out[r++]); /* no overflow: the input is valid */
      src += 2;
    } else { /* -4 */
      if (i + 2 >= n)
        return op_fail(err, errlen, "newshape[%d] = -4 must be followed by two dims", i);
      if (src >= rin)
        return op_fail(err, errlen, "newshape[%d] = -4 has no input dim left to split", i);
      int64_t d0 = in[src], d1 = ns[i + 1], d2 = ns[i + 2];
      if (d1 < -1 || d2 < -1 || (d1 == -1 && d2 == -1))
        return op_fail(err, errlen,
                       "newshape[%d] = -4 must be followed by two dims, at most one -1", i);
      if ((d1 == -1 && d2 == 0) || (d2 == -1 && d1 == 0))
        return op_fail(err, errlen, "newshape[%d] = -4 cannot infer a dim next to 0", i);
      if (d1 == -1)
        d1 = op_dim_any(d0) ? IR_DIM_ANY : d0 / d2;
      else if (d2 == -1)
        d2 = op_dim_any(d0) ? IR_DIM_ANY : d0 / d1;
      used_in[src++] = true;
      used_out[r] = used_out[r + 1] = true;
      out[r++] = d1;
      out[r++] = d2;
      i += 2;
    }
  }
  if (infer >= 0) {
    int64_t pin = 1, pout = 1;
    for (int j = 0; j < rin; j++)
      if (!used_in[j])
        op_dim_mul(pin, in[j], &pin); /* a sub-product of a valid shape, or Any */
    for (int j = 0; j < r; j++)
      if (!used_out[j] && j != infer && !op_dim_mul(pout, out[j], &pout))
        return op_fail(err, errlen, "newshape gives a result that is too large");
    if (pout == 0)
      return op_fail(err, errlen, "cannot infer the -1 dim: the other dims hold no elements");
    out[infer] = op_dim_any(pin) || op_dim_any(pout) ? IR_DIM_ANY : pin / pout;
  }
  int64_t nin, nout;
  char b1[96], b2[96];
  if (!op_count_static(r, out, &nout))
    return op_fail(err, errlen, "newshape gives a result that is too large");
  *rout = r;
  if (!op_shape_static(rin, in) || !op_shape_static(r, out))
    return REL_OK; /* the element counts are compared at run time */
  op_count_elems(rin, in, &nin);
  if (nin != nout)
    return op_fail(err, errlen, "cannot reshape %s (%lld elements) to %s (%lld elements)",
                   op_shape_str(b1, sizeof b1, rin, in), (long long)nin,
                   op_shape_str(b2, sizeof b2, r, out), (long long)nout);
  *rout = r;
  return REL_OK;
}

RelStatus rel_reshape(OpId op, Type *const *args, int nargs, const Attrs *at, Arena *a, Type **out,
                      char *err, size_t errlen) {
  OpInts ns;
  int r;
  int64_t shape[IR_MAX_RANK];
  RelStatus s = op_want_shaped(args, nargs, 1, err, errlen);
  if (s == REL_OK)
    s = op_need_ints(at, "newshape", &ns, err, errlen);
  if (s == REL_OK)
    s = reshape_infer(args[0]->tensor.rank, args[0]->tensor.shape, ns.n, ns.v, &r, shape, err,
                      errlen);
  if (s == REL_OK)
    s = op_result(a, args[0]->tensor.dtype, r, shape, out, err, errlen);
  return s;
}

bool rec_reshape(OpId op, const Type *want, const OpLimits *lim) {
  return op_fits_elems(want, lim);
}

/* Draw a factorisation of n > 0 into a shape of dims <= max_dim; returns
 * its rank, or -1 when the last factor comes out above max_dim. */
static int draw_factors(OpSolveCtx *cx, int64_t n, int64_t *shape) {
  int r = op_draw_rank(cx, n == 1 ? 0 : 1, op_rank_cap(cx->lim));
  int64_t rem = n;
  for (int i = 0; i + 1 < r; i++) {
    int64_t divs[64];
    int nd = 0;
    for (int64_t d = 1; d <= rem && d <= cx->lim->max_dim && nd < 64; d++)
      if (rem % d == 0)
        divs[nd++] = d;
    if (nd == 0)
      return -1;
    shape[i] = divs[op_pick_below(cx, nd)];
    rem /= shape[i];
  }
  if (r > 0)
    shape[r - 1] = rem;
  return r > 0 && rem > cx->lim->max_dim ? -1 : r;
}

/* Draw a newshape turning shape in into out, using at each step one of the
 * encodings that give exactly the next dims: a literal, 0, -1, -2, -3 or
 * -4.  Returns its length, or -1 when no encoding fits. */
static int reshape_encode(OpSolveCtx *cx, int rin, const int64_t *in, int r, const int64_t *out,
                          int64_t *ns) {
  enum { LIT, COPY, INFER, REST, MERGE, SPLIT };
  int n = 0, src = 0, j = 0;
  bool inferred = false;
  int64_t numel;
  op_count_elems(r, out, &numel);
  while (j < r) {
    int opts[6], k = 0, left = rin - src;
    if (out[j] > 0)
      opts[k++] = LIT;
    if (src < rin && in[src] == out[j])
      opts[k++] = COPY;
    /* -1 stands at its own position in the result, and gives out[j]
     * only when no dim is 0 (else the dims it is inferred from do not
     * determine it) */
    if (!inferred && n == j && numel > 0)
      opts[k++] = INFER;
    if (left > 0 && left <= r - j && memcmp(in + src, out + j, sizeof(int64_t) * (size_t)left) == 0)
      opts[k++] = REST;
    if (left >= 2 && in[src] * in[src + 1] == out[j])
      opts[k++] = MERGE;
    if (left >= 1 && j + 1 < r && out[j] * out[j + 1] == in[src])
      opts[k++] = SPLIT;
    if (k == 0)
      return -1;
    switch (opts[op_pick_below(cx, k)]) {
    case LIT: ns[n++] = out[j++], src++; break;
    case COPY: ns[n++] = 0, j++, src++; break;
    case INFER: ns[n++] = -1, j++, src++, inferred = true; break;
    case REST: ns[n++] = -2, j += left, src = rin; break;
    case MERGE: ns[n++] = -3, j++, src += 2; break;
    default: { /* SPLIT: -4 and the two dims, one of them maybe -1 */
      int c = out[j] > 0 && out[j + 1] > 0 ? (int)op_pick_below(cx, 3) : 0;
      ns[n++] = -4;
      ns[n++] = c == 1 ? -1 : out[j];
      ns[n++] = c == 2 ? -1 : out[j + 1];
      j += 2, src++;
    }
    }
  }
  return n;
}

/* Fill sig with reshape(in) -> out: a drawn newshape, or plain dims when
 * no encoding fits (0 for a zero dim: out has zeros only where in has them,
 * as both callers make it: the same shape, or a factoring of a non-empty
 * one).  The encoding gives out by construction; the relation is not asked
 * (docs/generators.md). */
static bool reshape_sig(OpSolveCtx *cx, OpSig *sig, DType dt, int rin, const int64_t *in, int r,
                        const int64_t *out) {
  int64_t ns[3 * IR_MAX_RANK];
  int n = reshape_encode(cx, rin, in, r, out, ns);
  if (n < 0)
    for (n = 0; n < r; n++)
      ns[n] = out[n];
  op_sig_start(cx, sig, 1, NULL);
  sig->args[0] = ir_tensor_type(cx->arena, dt, rin, in);
  ir_attr_set_ints(cx->arena, &sig->attrs, "newshape", n, ns);
  sig->ret = ir_tensor_type(cx->arena, dt, r, out);
  return true;
}

bool solve_reshape(OpId op, const Type *want, OpSolveCtx *cx, OpSig *sig) {
  int64_t in[IR_MAX_RANK], n;
  if (!op_fits_elems(want, cx->lim))
    return false;
  int rin = want->tensor.rank, r = rin;
  memcpy(in, want->tensor.shape, sizeof in);
  op_count_elems(r, want->tensor.shape, &n);
  if (n > 0 && op_coin(cx)) {
    int64_t f[IR_MAX_RANK];
    int rf = draw_factors(cx, n, f);
    if (rf >= 0)
      rin = rf, memcpy(in, f, sizeof f);
  }
  return reshape_sig(cx, sig, want->tensor.dtype, rin, in, r, want->tensor.shape);
}

bool sample_reshape(OpId op, OpSolveCtx *cx, OpSig *sig) {
  int64_t out[IR_MAX_RANK], n;
  if (!op_can_sample(cx, 0))
    return false;
  Type *x = op_draw_tensor_maybe_empty(cx, 0, op_rank_cap(cx->lim), OP_ALL);
  int r = x->tensor.rank;
  memcpy(out, x->tensor.shape, sizeof out);
  op_count_elems(r, out, &n);
  if (n > 0) {
    int64_t f[IR_MAX_RANK];
    int rf = draw_factors(cx, n, f);
    if (rf >= 0)
      r = rf, memcpy(out, f, sizeof f);
  }
  return reshape_sig(cx, sig, x->tensor.dtype, x->tensor.rank, x->tensor.shape, r, out);
}

void k_copy_data(OpId op, Tensor *const *args, int nargs, const Attrs *at, Tensor *const *outs,
                 int nouts, Arena *scratch) {
  if (op_arity(args, nargs, 1, outs, nouts, 1) && args[0]->numel == outs[0]->numel)
    op_copy_run(outs[0], 0, args[0], 0, outs[0]->numel);
}

/* ------------------------------------------------------------- transpose */

/* transpose(A, axes): dims permuted by axes, reversed when None. */

/* The permutation given by the axes attribute (reversal when None). */
static RelStatus transpose_perm(const Attrs *at, int rank, int *perm, char *err, size_t errlen) {
  OpInts axes;
  bool seen[IR_MAX_RANK] = {0};
  RelStatus s = op_get_ints(at, "axes", &axes, err, errlen);
  if (s != REL_OK)
    return s;
  if (!axes.given) {
    for (int i = 0; i < rank; i++)
      perm[i] = rank - 1 - i;
    return REL_OK;
  }
  if (axes.n != rank)
    return op_fail(err, errlen, "axes has %d entries, but the input has rank %d", axes.n, rank);
  for (int i = 0; i < rank; i++) {
    if ((s = op_want_axis(axes.v[i], rank, &perm[i], err, errlen)) != REL_OK)
      return s;
    if (seen[perm[i]])
      return op_fail(err, errlen, "axis %d appears twice in axes", perm[i]);
    seen[perm[i]] = true;
  }
  return REL_OK;
}

RelStatus rel_transpose(OpId op, Type *const *args, int nargs, const Attrs *at, Arena *a,
                        Type **out, char *err, size_t errlen) {
  int perm[IR_MAX_RANK];
  int64_t shape[IR_MAX_RANK];
  RelStatus s = op_want_shaped(args, nargs, 1, err, errlen);
  if (s == REL_OK)
    s = transpose_perm(at, args[0]->tensor.rank, perm, err, errlen);
  if (s != REL_OK)
    return s;
  for (int i = 0; i < args[0]->tensor.rank; i++)
    shape[i] = args[0]->tensor.shape[perm[i]];
  *out = op_like(a, args[0], args[0]->tensor.rank, shape);
  return REL_OK;
}

bool rec_transpose(OpId op, const Type *want, const OpLimits *lim) {
  return op_fits_elems(want, lim);
}

bool solve_transpose(OpId op, const Type *want, OpSolveCtx *cx, OpSig *sig) {
  int perm[IR_MAX_RANK];
  int64_t in[IR_MAX_RANK], axes[IR_MAX_RANK];
  if (!op_fits_elems(want, cx->lim))
    return false;
  int r = want->tensor.rank;
  bool none = !op_coin(cx);
  for (int i = 0; i < r; i++)
    perm[i] = none ? r - 1 - i : i;
  for (int i = 0; !none && i + 1 < r; i++) {
    int j = i + (int)op_pick_below(cx, r - i), t = perm[i];
    perm[i] = perm[j], perm[j] = t;
  }
  for (int i = 0; i < r; i++) {
    in[perm[i]] = want->tensor.shape[i];
    axes[i] = none ? 0 : op_enc_axis(cx, perm[i], r);
  }
  op_sig_start(cx, sig, 1, want);
  sig->args[0] = op_like(cx->arena, want, r, in);
  if (none)
    ir_attr_set_none(cx->arena, &sig->attrs, "axes");
  else
    ir_attr_set_ints(cx->arena, &sig->attrs, "axes", r, axes);
  return true;
}

bool sample_transpose(OpId op, OpSolveCtx *cx, OpSig *sig) {
  return op_sample_via(solve_transpose, op, cx, sig, 0);
}

void k_transpose(OpId op, Tensor *const *args, int nargs, const Attrs *at, Tensor *const *outs,
                 int nouts, Arena *scratch) {
  int perm[IR_MAX_RANK];
  int64_t xs[IR_MAX_RANK], c[IR_MAX_RANK] = {0}, shape[IR_MAX_RANK];
  if (!op_arity(args, nargs, 1, outs, nouts, 1) ||
      transpose_perm(at, args[0]->rank, perm, NULL, 0) != REL_OK)
    return;
  Tensor *x = args[0], *y = outs[0];
  for (int i = 0; i < x->rank; i++)
    shape[i] = x->shape[perm[i]];
  if (!op_has_shape(y, x->rank, shape) || y->numel == 0)
    return;
  op_strides(x->rank, x->shape, xs);
  for (int64_t i = 0; i < y->numel; i++) {
    int64_t src = 0;
    for (int d = 0; d < y->rank; d++)
      src += c[d] * xs[perm[d]];
    op_copy_run(y, i, x, src, 1);
    op_next_coord(y->rank, y->shape, c);
  }
}

/* ----------------------------------------------------------- expand_dims */

/* expand_dims(A, axis, num_newaxis): num_newaxis dims of 1 inserted at
 * axis in [-rank - 1, rank]; the kernel is k_copy_data. */

RelStatus rel_expand_dims(OpId op, Type *const *args, int nargs, const Attrs *at, Arena *a,
                          Type **out, char *err, size_t errlen) {
  int64_t axis, num, shape[IR_MAX_RANK];
  RelStatus s = op_want_shaped(args, nargs, 1, err, errlen);
  if (s == REL_OK)
    s = op_get_int(at, "axis", 0, &axis, err, errlen);
  if (s == REL_OK)
    s = op_get_int(at, "num_newaxis", 1, &num, err, errlen);
  if (s != REL_OK)
    return s;
  int rank = args[0]->tensor.rank;
  if (num < 0)
    return op_fail(err, errlen, "num_newaxis must be >= 0, got %lld", (long long)num);
  if (axis < -rank - 1 || axis > rank)
    return op_fail(err, errlen, "axis %lld is out of range [%d, %d]", (long long)axis, -rank - 1,
                   rank);
  if (num > IR_MAX_RANK - rank)
    return op_fail(err, errlen, "num_newaxis %lld would make the rank exceed %d", (long long)num,
                   IR_MAX_RANK);
  int pivot = (int)(axis < 0 ? axis + rank + 1 : axis), r = 0;
  for (int i = 0; i <= rank; i++) {
    if (i == pivot)
      for (int k = 0; k < num; k++)
        shape[r++] = 1;
    if (i < rank)
      shape[r++] = args[0]->tensor.shape[i];
  }
  *out = op_like(a, args[0], r, shape);
  return REL_OK;
}

bool rec_expand_dims(OpId op, const Type *want, const OpLimits *lim) {
  return op_fits_elems(want, lim);
}

bool solve_expand_dims(OpId op, const Type *want, OpSolveCtx *cx, OpSig *sig) {
  int64_t in[IR_MAX_RANK];
  if (!op_fits_elems(want, cx->lim))
    return false;
  int r = want->tensor.rank, p = (int)op_pick_below(cx, r + 1), ones = 0;
  while (p + ones < r && want->tensor.shape[p + ones] == 1)
    ones++;
  int k = (int)op_pick_below(cx, ones + 1), rin = 0;
  for (int i = 0; i < r; i++)
    if (i < p || i >= p + k)
      in[rin++] = want->tensor.shape[i];
  op_sig_start(cx, sig, 1, want);
  sig->args[0] = op_like(cx->arena, want, rin, in);
  ir_attr_set_int(cx->arena, &sig->attrs, "axis", op_coin(cx) ? p - rin - 1 : p);
  ir_attr_set_int(cx->arena, &sig->attrs, "num_newaxis", k);
  return true;
}

bool sample_expand_dims(OpId op, OpSolveCtx *cx, OpSig *sig) {
  return op_sample_via(solve_expand_dims, op, cx, sig, 0);
}

/* --------------------------------------------------------------- squeeze */

/* squeeze(A, axis): the listed dims of 1 removed, or every dim of 1 when
 * None; the kernel is k_copy_data. */

RelStatus rel_squeeze(OpId op, Type *const *args, int nargs, const Attrs *at, Arena *a, Type **out,
                      char *err, size_t errlen) {
  OpInts axes;
  bool drop[IR_MAX_RANK] = {0};
  int64_t shape[IR_MAX_RANK];
  RelStatus s = op_want_shaped(args, nargs, 1, err, errlen);
  if (s == REL_OK)
    s = op_get_ints(at, "axis", &axes, err, errlen);
  if (s != REL_OK)
    return s;
  const Type *t = args[0];
  for (int i = 0; !axes.given && i < t->tensor.rank; i++) {
    if (op_dim_any(t->tensor.shape[i])) /* as TVM: which dims are 1 decides the rank */
      return op_fail(err, errlen, "squeeze without axis needs static dims, dim %d is Any", i);
    drop[i] = t->tensor.shape[i] == 1;
  }
  for (int i = 0; axes.given && i < axes.n; i++) {
    int ax;
    if ((s = op_want_axis(axes.v[i], t->tensor.rank, &ax, err, errlen)) != REL_OK)
      return s;
    if (!op_dim_allows(t->tensor.shape[ax], 1))
      return op_fail(err, errlen, "cannot squeeze axis %d of size %lld", ax,
                     (long long)t->tensor.shape[ax]);
    drop[ax] = true;
  }
  int r = 0;
  for (int i = 0; i < t->tensor.rank; i++)
    if (!drop[i])
      shape[r++] = t->tensor.shape[i];
  *out = op_like(a, t, r, shape);
  return REL_OK;
}

bool rec_squeeze(OpId op, const Type *want, const OpLimits *lim) {
  return op_fits_elems(want, lim);
}

bool solve_squeeze(OpId op, const Type *want, OpSolveCtx *cx, OpSig *sig) {
  int64_t in[IR_MAX_RANK], axes[IR_MAX_RANK];
  bool added[IR_MAX_RANK] = {0}, has_one = false;
  if (!op_fits_elems(want, cx->lim))
    return false;
  int r = want->tensor.rank, rin = r, u = (int)op_pick_below(cx, op_rank_cap(cx->lim) - r + 1);
  memcpy(in, want->tensor.shape, sizeof in);
  for (int i = 0; i < r; i++)
    has_one |= in[i] == 1;
  for (int k = 0; k < u && rin < IR_MAX_RANK; k++, rin++) {
    int pos = (int)op_pick_below(cx, rin + 1);
    memmove(in + pos + 1, in + pos, sizeof(int64_t) * (size_t)(rin - pos));
    memmove(added + pos + 1, added + pos, sizeof(bool) * (size_t)(rin - pos));
    in[pos] = 1, added[pos] = true;
  }
  op_sig_start(cx, sig, 1, want);
  sig->args[0] = op_like(cx->arena, want, rin, in);
  if (!has_one && op_coin(cx)) {
    ir_attr_set_none(cx->arena, &sig->attrs, "axis");
    return true;
  }
  int n = 0;
  for (int i = 0; i < rin; i++)
    if (added[i])
      axes[n++] = op_enc_axis(cx, i, rin);
  ir_attr_set_ints(cx->arena, &sig->attrs, "axis", n, axes);
  return true;
}

bool sample_squeeze(OpId op, OpSolveCtx *cx, OpSig *sig) {
  return op_sample_via(solve_squeeze, op, cx, sig, 0);
}

/* ---------------------------------------------------------- broadcast_to */

/* broadcast_to(A, shape): A repeated along its dims of 1 (numpy rules). */

RelStatus rel_broadcast_to(OpId op, Type *const *args, int nargs, const Attrs *at, Arena *a,
                           Type **out, char *err, size_t errlen) {
  OpInts sh;
  char b1[96], b2[96];
  RelStatus s = op_want_shaped(args, nargs, 1, err, errlen);
  if (s == REL_OK)
    s = op_need_shape(at, &sh, err, errlen);
  if (s != REL_OK)
    return s;
  const Type *t = args[0];
  int rank = t->tensor.rank;
  bool ok = rank <= sh.n;
  for (int i = 0; ok && i < rank; i++) {
    int64_t d = t->tensor.shape[i], want_d = sh.v[sh.n - rank + i];
    ok = op_dim_allows(d, want_d) || d == 1;
  }
  if (!ok)
    return op_fail(err, errlen, "cannot broadcast %s to %s",
                   op_shape_str(b1, sizeof b1, rank, t->tensor.shape),
                   op_shape_str(b2, sizeof b2, sh.n, sh.v));
  return op_result(a, t->tensor.dtype, sh.n, sh.v, out, err, errlen);
}

bool rec_broadcast_to(OpId op, const Type *want, const OpLimits *lim) {
  return op_fits_elems(want, lim);
}

bool solve_broadcast_to(OpId op, const Type *want, OpSolveCtx *cx, OpSig *sig) {
  int64_t in[IR_MAX_RANK];
  if (!op_fits_elems(want, cx->lim))
    return false;
  int r = want->tensor.rank, rin = r - (int)op_pick_below(cx, r + 1);
  for (int i = 0; i < rin; i++)
    in[i] = op_coin(cx) ? 1 : want->tensor.shape[r - rin + i];
  op_sig_start(cx, sig, 1, want);
  sig->args[0] = op_like(cx->arena, want, rin, in);
  ir_attr_set_ints(cx->arena, &sig->attrs, "shape", r, want->tensor.shape);
  return true;
}

bool sample_broadcast_to(OpId op, OpSolveCtx *cx, OpSig *sig) {
  return op_sample_via(solve_broadcast_to, op, cx, sig, 0);
}

void k_broadcast_to(OpId op, Tensor *const *args, int nargs, const Attrs *at, Tensor *const *outs,
                    int nouts, Arena *scratch) {
  int64_t c[IR_MAX_RANK] = {0};
  if (!op_arity(args, nargs, 1, outs, nouts, 1))
    return;
  Tensor *x = args[0], *y = outs[0];
  if (x->rank > y->rank || y->numel == 0)
    return;
  for (int i = 0; i < x->rank; i++)
    if (x->shape[i] != 1 && x->shape[i] != y->shape[y->rank - x->rank + i])
      return;
  for (int64_t i = 0; i < y->numel; i++) {
    op_copy_run(y, i, x, op_broadcast_index(c, y->rank, x->rank, x->shape), 1);
    op_next_coord(y->rank, y->shape, c);
  }
}
