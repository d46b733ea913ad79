/*
 * join.c - joining and splitting tensors: concatenate and stack (each
 * takes one tuple of tensors, as in Relay) and split (gives a tuple): for
 * each, its relation, recognizer, solver, sampler and kernel (op.h states
 * their contracts).
 *
 * The relations follow Relay's (src/relay/op/tensor/transform.cc), with
 * these deliberate differences, places where Relay would crash or divide
 * by zero:
 *   - split rejects sections < 1 and more than 64 pieces (MAX_PIECES).
 *   - stack takes axis in [-(rank+1), rank] as numpy does.
 *   - Every result shape is checked for overflow and for rank <= 6.
 * indices_or_sections is required (an error when missing); axis defaults
 * to 0, as in Relay.
 */
#include <string.h>

#include "op_int.h"

/* The most tensors split returns; also bounds what the solvers of stack
 * and split build, so op_eval (64 outputs) can always run them. */
enum { MAX_PIECES = 64 };

/* --------------------------------------- concatenate's and stack's tuple */

/* The tensors of concatenate's and stack's one tuple argument: all known
 * tensors of one dtype and rank, with valid shapes. */
static RelStatus tuple_arg(Type *const *args, int nargs, Type ***fields, int *n, char *err,
                           size_t errlen) {
  if (nargs != 1)
    return op_fail(err, errlen, "expects 1 argument (a tuple of tensors), got %d", nargs);
  if (!ir_type_complete(args[0]))
    return REL_DEFER;
  if (args[0]->kind != TY_TUPLE)
    return op_fail(err, errlen, "expects a tuple of tensors");
  *fields = args[0]->tuple.fields;
  *n = args[0]->tuple.n;
  if (*n == 0)
    return op_fail(err, errlen, "expects a non-empty tuple");
  for (int i = 0; i < *n; i++) {
    const Type *f = (*fields)[i];
    int64_t c;
    if (f->kind != TY_TENSOR)
      return op_fail(err, errlen, "tuple field %d is not a tensor", i);
    if (f->tensor.rank > IR_MAX_RANK || !op_count_static(f->tensor.rank, f->tensor.shape, &c))
      return op_fail(err, errlen, "tuple field %d has an invalid shape", i);
    if (f->tensor.dtype != (*fields)[0]->tensor.dtype)
      return op_fail(err, errlen, "tuple field %d has dtype %s, field 0 has %s", i,
                     ir_dtype_name(f->tensor.dtype), ir_dtype_name((*fields)[0]->tensor.dtype));
    if (f->tensor.rank != (*fields)[0]->tensor.rank)
      return op_fail(err, errlen, "tuple field %d has rank %d, field 0 has %d", i, f->tensor.rank,
                     (*fields)[0]->tensor.rank);
  }
  return REL_OK;
}

/* Check that the fields agree on every dim except skip (-1: none). */
static RelStatus same_dims(Type *const *fields, int n, int skip, char *err, size_t errlen) {
  char b1[96], b2[96];
  const Type *f0 = fields[0];
  for (int i = 1; i < n; i++)
    for (int d = 0; d < f0->tensor.rank; d++)
      if (d != skip && !op_dims_match(fields[i]->tensor.shape[d], f0->tensor.shape[d]))
        return op_fail(err, errlen, "tuple field %d has shape %s, which does not match %s%s", i,
                       op_shape_str(b1, sizeof b1, f0->tensor.rank, fields[i]->tensor.shape),
                       op_shape_str(b2, sizeof b2, f0->tensor.rank, f0->tensor.shape),
                       skip >= 0 ? " outside the axis" : "");
  return REL_OK;
}

/* ----------------------------------------------------------- concatenate */

/* concatenate((A, B, ...), axis): the tensors joined along axis. */

/* The normalised concatenation axis for fields of the given rank. */
/* Each dim of the fields' shapes: the static one where any field's is
 * static (same_dims checked they match), else Any. */
static void meet_dims(Type *const *fields, int n, int64_t *shape) {
  int rank = fields[0]->tensor.rank;
  for (int d = 0; d < rank; d++) {
    shape[d] = fields[0]->tensor.shape[d];
    for (int i = 1; i < n; i++)
      shape[d] = op_dim_meet(shape[d], fields[i]->tensor.shape[d]);
  }
}

static RelStatus concat_axis(const Attrs *at, int rank, int *axis, char *err, size_t errlen) {
  int64_t v;
  RelStatus s = op_get_int(at, "axis", 0, &v, err, errlen);
  return s == REL_OK ? op_want_axis(v, rank, axis, err, errlen) : s;
}

RelStatus rel_concatenate(OpId op, Type *const *args, int nargs, const Attrs *at, Arena *a,
                          Type **out, char *err, size_t errlen) {
  Type **fields;
  int n, axis;
  RelStatus s = tuple_arg(args, nargs, &fields, &n, err, errlen);
  if (s == REL_OK)
    s = concat_axis(at, fields[0]->tensor.rank, &axis, err, errlen);
  if (s == REL_OK)
    s = same_dims(fields, n, axis, err, errlen);
  if (s != REL_OK)
    return s;
  int64_t shape[IR_MAX_RANK];
  meet_dims(fields, n, shape);
  shape[axis] = fields[0]->tensor.shape[axis];
  for (int i = 1; i < n; i++)
    if (!op_dim_add(shape[axis], fields[i]->tensor.shape[axis], &shape[axis]))
      return op_fail(err, errlen, "result shape is too large");
  return op_result(a, fields[0]->tensor.dtype, fields[0]->tensor.rank, shape, out, err, errlen);
}

/* Fill sig with concatenate of n tensors like base, the i-th having size
 * sizes[i] along axis. */
static void concat_sig(OpSolveCtx *cx, OpSig *sig, const Type *base, int axis, int n,
                       const int64_t *sizes) {
  Type *fields[4];
  int64_t shape[IR_MAX_RANK];
  int r = base->tensor.rank;
  memcpy(shape, base->tensor.shape, sizeof shape);
  for (int i = 0; i < n; i++) {
    shape[axis] = sizes[i];
    fields[i] = op_like(cx->arena, base, r, shape);
  }
  sig->args[0] = ir_tuple_type(cx->arena, n, fields);
  ir_attr_set_int(cx->arena, &sig->attrs, "axis", op_enc_axis(cx, axis, r));
}

bool rec_concatenate(OpId op, const Type *want, const OpLimits *lim) {
  return op_fits_elems(want, lim) && want->tensor.rank >= 1;
}

bool solve_concatenate(OpId op, const Type *want, OpSolveCtx *cx, OpSig *sig) {
  int64_t sizes[4];
  if (!rec_concatenate(op, want, cx->lim))
    return false;
  int axis = (int)op_pick_below(cx, want->tensor.rank);
  int n = op_draw_npieces(cx, want->tensor.shape[axis], 4);
  op_draw_pieces(cx, want->tensor.shape[axis], n, true, sizes);
  op_sig_start(cx, sig, 1, want);
  concat_sig(cx, sig, want, axis, n, sizes);
  return true;
}

bool sample_concatenate(OpId op, OpSolveCtx *cx, OpSig *sig) {
  int64_t sizes[4], others;
  if (!op_can_sample(cx, 1))
    return false;
  Type *base = op_draw_tensor_maybe_empty(cx, 1, op_rank_cap(cx->lim), OP_ALL);
  int r = base->tensor.rank, axis = (int)op_pick_below(cx, r);
  int64_t saved = base->tensor.shape[axis];
  base->tensor.shape[axis] = 1;
  op_count_elems(r, base->tensor.shape, &others);
  base->tensor.shape[axis] = saved;
  int64_t budget = others ? cx->lim->max_numel / others : cx->lim->max_dim;
  if (budget > cx->lim->max_dim)
    budget = cx->lim->max_dim; /* the result's axis is invented too */
  int n = op_draw_npieces(cx, budget, 4);
  op_draw_pieces(cx, budget, n, false, sizes);
  op_sig_start(cx, sig, 1, NULL);
  concat_sig(cx, sig, base, axis, n, sizes);
  int64_t shape[IR_MAX_RANK];
  memcpy(shape, base->tensor.shape, sizeof shape);
  shape[axis] = 0;
  for (int i = 0; i < n; i++)
    shape[axis] += sizes[i]; /* the parts, one after the other */
  sig->ret = op_like(cx->arena, base, r, shape);
  return true;
}

void k_concatenate(OpId op, Tensor *const *args, int nargs, const Attrs *at, Tensor *const *outs,
                   int nouts, Arena *scratch) {
  int axis;
  if (!op_arity(args, nargs, nargs, outs, nouts, 1) || nargs < 1 ||
      concat_axis(at, outs[0]->rank, &axis, NULL, 0) != REL_OK)
    return;
  Tensor *y = outs[0];
  int64_t shape[IR_MAX_RANK], total = 0;
  memcpy(shape, y->shape, sizeof shape);
  for (int k = 0; k < nargs; k++) {
    shape[axis] = args[k]->shape[axis];
    if (!op_has_shape(args[k], y->rank, shape) ||
        __builtin_add_overflow(total, shape[axis], &total))
      return;
  }
  if (total != y->shape[axis] || y->numel == 0)
    return;
  int64_t outer = op_prod(y->shape, 0, axis), inner = op_prod(y->shape, axis + 1, y->rank);
  for (int64_t o = 0; o < outer; o++) {
    int64_t off = 0;
    for (int k = 0; k < nargs; k++) {
      int64_t d = args[k]->shape[axis];
      op_copy_run(y, (o * total + off) * inner, args[k], o * d * inner, d * inner);
      off += d;
    }
  }
}

/* ----------------------------------------------------------------- stack */

/* stack((A, B, ...), axis): the tensors stacked along a new axis. */

/* The normalised stacking axis: the position of the new dim. */
static RelStatus stack_axis(const Attrs *at, int rank, int *axis, char *err, size_t errlen) {
  int64_t v;
  RelStatus s = op_get_int(at, "axis", 0, &v, err, errlen);
  if (s != REL_OK)
    return s;
  if (v < -rank - 1 || v > rank)
    return op_fail(err, errlen, "axis %lld is out of range [%d, %d]", (long long)v, -rank - 1,
                   rank);
  *axis = (int)(v < 0 ? v + rank + 1 : v);
  return REL_OK;
}

RelStatus rel_stack(OpId op, Type *const *args, int nargs, const Attrs *at, Arena *a, Type **out,
                    char *err, size_t errlen) {
  Type **fields;
  int n, axis;
  RelStatus s = tuple_arg(args, nargs, &fields, &n, err, errlen);
  if (s == REL_OK)
    s = stack_axis(at, fields[0]->tensor.rank, &axis, err, errlen);
  if (s == REL_OK)
    s = same_dims(fields, n, -1, err, errlen);
  if (s != REL_OK)
    return s;
  int rank = fields[0]->tensor.rank;
  int64_t shape[IR_MAX_RANK + 1], dims[IR_MAX_RANK];
  meet_dims(fields, n, dims);
  for (int i = 0, r = 0; i <= rank; i++) {
    if (i == axis)
      shape[r++] = n;
    if (i < rank)
      shape[r++] = dims[i];
  }
  return op_result(a, fields[0]->tensor.dtype, rank + 1, shape, out, err, errlen);
}

/* Fill sig with stack of n copies of base along axis. */
static void stack_sig(OpSolveCtx *cx, OpSig *sig, Type *base, int axis, int n) {
  Type *fields[MAX_PIECES];
  for (int i = 0; i < n; i++)
    fields[i] = base;
  sig->args[0] = ir_tuple_type(cx->arena, n, fields);
  ir_attr_set_int(cx->arena, &sig->attrs, "axis", op_enc_axis(cx, axis, base->tensor.rank + 1));
}

bool rec_stack(OpId op, const Type *want, const OpLimits *lim) {
  if (!op_fits_elems(want, lim))
    return false;
  for (int i = 0; i < want->tensor.rank; i++)
    if (want->tensor.shape[i] >= 1 && want->tensor.shape[i] <= MAX_PIECES)
      return true;
  return false;
}

bool solve_stack(OpId op, const Type *want, OpSolveCtx *cx, OpSig *sig) {
  int cand[IR_MAX_RANK], nc = 0;
  int64_t in[IR_MAX_RANK];
  if (!rec_stack(op, want, cx->lim))
    return false;
  int r = want->tensor.rank;
  for (int i = 0; i < r; i++)
    if (want->tensor.shape[i] >= 1 && want->tensor.shape[i] <= MAX_PIECES)
      cand[nc++] = i;
  int axis = cand[op_pick_below(cx, nc)], rin = 0;
  for (int i = 0; i < r; i++)
    if (i != axis)
      in[rin++] = want->tensor.shape[i];
  op_sig_start(cx, sig, 1, want);
  stack_sig(cx, sig, op_like(cx->arena, want, rin, in), axis, (int)want->tensor.shape[axis]);
  return true;
}

bool sample_stack(OpId op, OpSolveCtx *cx, OpSig *sig) {
  int64_t numel;
  if (!op_can_sample(cx, 1))
    return false;
  Type *base = op_draw_tensor_maybe_empty(cx, 0, op_rank_cap(cx->lim) - 1, OP_ALL);
  op_count_elems(base->tensor.rank, base->tensor.shape, &numel);
  int64_t most = numel ? cx->lim->max_numel / numel : 4;
  if (most > cx->lim->max_dim)
    most = cx->lim->max_dim;
  int n = 1 + (int)op_pick_below(cx, most < 4 ? most : 4);
  int axis = (int)op_pick_below(cx, base->tensor.rank + 1), r = 0;
  op_sig_start(cx, sig, 1, NULL);
  stack_sig(cx, sig, base, axis, n);
  int64_t shape[IR_MAX_RANK];
  for (int i = 0; i <= base->tensor.rank; i++) {
    if (i == axis)
      shape[r++] = n; /* the new axis, one entry per tensor */
    if (i < base->tensor.rank)
      shape[r++] = base->tensor.shape[i];
  }
  sig->ret = op_like(cx->arena, base, r, shape);
  return true;
}

void k_stack(OpId op, Tensor *const *args, int nargs, const Attrs *at, Tensor *const *outs,
             int nouts, Arena *scratch) {
  int axis;
  if (!op_arity(args, nargs, nargs, outs, nouts, 1) || nargs < 1 || outs[0]->rank < 1 ||
      stack_axis(at, outs[0]->rank - 1, &axis, NULL, 0) != REL_OK)
    return;
  Tensor *y = outs[0];
  int64_t shape[IR_MAX_RANK];
  for (int i = 0, r = 0; i < y->rank; i++)
    if (i != axis)
      shape[r++] = y->shape[i];
  for (int k = 0; k < nargs; k++)
    if (!op_has_shape(args[k], y->rank - 1, shape))
      return;
  if (y->shape[axis] != nargs || y->numel == 0)
    return;
  int64_t outer = op_prod(y->shape, 0, axis), inner = op_prod(y->shape, axis + 1, y->rank);
  for (int64_t o = 0; o < outer; o++)
    for (int k = 0; k < nargs; k++)
      op_copy_run(y, (o * nargs + k) * inner, args[k], o * inner, inner);
}

/* ----------------------------------------------------------------- split */

/* split(A, indices_or_sections, axis): a tuple of A's pieces along axis,
 * cut at the given indices or in that many equal sections. */

/* How split cuts axis *axis of shape: *n pieces, piece i starting at
 * start[i] with size[i]. */
static RelStatus split_plan(const Attrs *at, int rank, const int64_t *shape, int *axis, int *n,
                            int64_t *start, int64_t *size, char *err, size_t errlen) {
  int64_t ax;
  RelStatus s = op_get_int(at, "axis", 0, &ax, err, errlen);
  if (s != REL_OK)
    return s;
  if (rank == 0)
    return op_fail(err, errlen, "cannot split a scalar");
  if ((s = op_want_axis(ax, rank, axis, err, errlen)) != REL_OK)
    return s;
  int64_t dim = shape[*axis];
  const Attr *x = ir_attr_get(at, "indices_or_sections");
  if (!x || x->kind == AV_NONE)
    return op_fail(err, errlen, "attribute indices_or_sections is required");
  if (x->kind == AV_INT) {
    int64_t k = x->i;
    if (k < 1)
      return op_fail(err, errlen, "the number of sections must be >= 1, got %lld", (long long)k);
    if (k > MAX_PIECES)
      return op_fail(err, errlen, "at most %d sections, got %lld", MAX_PIECES, (long long)k);
    if (!op_dim_any(dim) && dim % k)
      return op_fail(err, errlen, "%lld sections do not divide axis %d of size %lld", (long long)k,
                     *axis, (long long)dim);
    *n = (int)k;
    for (int i = 0; i < *n; i++) /* an Any axis gives Any pieces */
      start[i] = op_dim_any(dim) ? 0 : i * (dim / k), size[i] = op_dim_any(dim) ? dim : dim / k;
    return REL_OK;
  }
  if (x->kind != AV_INTS)
    return op_fail(err, errlen, "indices_or_sections must be an integer or a list of integers");
  if (x->n < 0 || x->n >= MAX_PIECES)
    return op_fail(err, errlen, "at most %d indices, got %d", MAX_PIECES - 1, x->n);
  int64_t prev = 0;
  for (int i = 0; i < x->n; i++) {
    if (x->ints[i] <= prev)
      return op_fail(err, errlen, "indices must be positive and increasing, got %lld after %lld",
                     (long long)x->ints[i], (long long)prev);
    start[i] = prev, size[i] = x->ints[i] - prev;
    prev = x->ints[i];
  }
  if (!op_dim_any(dim) && prev >= dim) /* also rejects no indices on an empty axis, as Relay does */
    return op_fail(err, errlen, "index %lld is not below the size %lld of axis %d", (long long)prev,
                   (long long)dim, *axis);
  start[x->n] = prev, size[x->n] = op_dim_any(dim) ? dim : dim - prev;
  *n = x->n + 1;
  return REL_OK;
}

RelStatus rel_split(OpId op, Type *const *args, int nargs, const Attrs *at, Arena *a, Type **out,
                    char *err, size_t errlen) {
  int axis, n;
  int64_t start[MAX_PIECES], size[MAX_PIECES];
  RelStatus s = op_want_shaped(args, nargs, 1, err, errlen);
  if (s == REL_OK)
    s = split_plan(at, args[0]->tensor.rank, args[0]->tensor.shape, &axis, &n, start, size, err,
                   errlen);
  if (s != REL_OK)
    return s;
  Type *fields[MAX_PIECES];
  int64_t shape[IR_MAX_RANK];
  memcpy(shape, args[0]->tensor.shape, sizeof shape);
  for (int i = 0; i < n; i++) {
    shape[axis] = size[i];
    fields[i] = op_like(a, args[0], args[0]->tensor.rank, shape);
  }
  *out = ir_tuple_type(a, n, fields);
  return REL_OK;
}

/* Which axes split can produce the tuple type want along: modes[a] has
 * bit 1 when equal sections give it and bit 2 when indices do (0: not
 * along a).  Returns the fields' rank, or -1 when want is no candidate. */
static int split_modes(const Type *want, const OpLimits *lim, int *modes) {
  if (!want || want->kind != TY_TUPLE || want->tuple.n < 1 || want->tuple.n > MAX_PIECES)
    return -1;
  Type *const *f = want->tuple.fields;
  int n = want->tuple.n, r = op_fits_elems(f[0], lim) ? f[0]->tensor.rank : -1;
  int64_t dmax = lim->max_dim; /* the input's axis may not exceed it or a wanted dim */
  if (r < 1)
    return -1;
  for (int i = 0; i < n; i++) {
    if (!op_fits_elems(f[i], lim) || f[i]->tensor.rank != r ||
        f[i]->tensor.dtype != f[0]->tensor.dtype)
      return -1;
    for (int d = 0; d < r; d++)
      dmax = f[i]->tensor.shape[d] > dmax ? f[i]->tensor.shape[d] : dmax;
  }
  for (int a = 0; a < r; a++) {
    bool eq = true, pos = true;
    int64_t total = 0, others = 1, numel;
    modes[a] = 0;
    for (int i = 0; i < n; i++) {
      for (int d = 0; d < r; d++)
        if (d != a && f[i]->tensor.shape[d] != f[0]->tensor.shape[d])
          goto next;
      eq &= f[i]->tensor.shape[a] == f[0]->tensor.shape[a];
      pos &= f[i]->tensor.shape[a] >= 1;
      total += f[i]->tensor.shape[a]; /* each <= max_numel, n <= 64: no overflow */
    }
    for (int d = 0; d < r; d++)
      others *= d == a ? 1 : f[0]->tensor.shape[d];
    if (total > dmax || __builtin_mul_overflow(others, total, &numel) || numel > lim->max_numel)
      continue;
    modes[a] = (eq ? 1 : 0) | (pos ? 2 : 0);
  next:;
  }
  return r;
}

bool rec_split(OpId op, const Type *want, const OpLimits *lim) {
  int modes[IR_MAX_RANK], r = split_modes(want, lim, modes);
  for (int a = 0; a < r; a++)
    if (modes[a])
      return true;
  return false;
}

bool solve_split(OpId op, const Type *want, OpSolveCtx *cx, OpSig *sig) {
  int modes[IR_MAX_RANK], cand[IR_MAX_RANK], nc = 0, r = split_modes(want, cx->lim, modes);
  for (int a = 0; a < r; a++)
    if (modes[a])
      cand[nc++] = a;
  if (nc == 0)
    return false;
  Type *const *f = want->tuple.fields;
  int n = want->tuple.n, axis = cand[op_pick_below(cx, nc)];
  bool sections = modes[axis] == 1 || (modes[axis] == 3 && !op_coin(cx));
  int64_t in[IR_MAX_RANK], idx[MAX_PIECES], total = 0;
  for (int i = 0; i < n; i++) {
    total += f[i]->tensor.shape[axis];
    idx[i] = total;
  }
  memcpy(in, f[0]->tensor.shape, sizeof in);
  in[axis] = total;
  op_sig_start(cx, sig, 1, want);
  sig->args[0] = op_like(cx->arena, f[0], r, in);
  if (sections)
    ir_attr_set_int(cx->arena, &sig->attrs, "indices_or_sections", n);
  else
    ir_attr_set_ints(cx->arena, &sig->attrs, "indices_or_sections", n - 1, idx);
  ir_attr_set_int(cx->arena, &sig->attrs, "axis", op_enc_axis(cx, axis, r));
  return true;
}

bool sample_split(OpId op, OpSolveCtx *cx, OpSig *sig) {
  if (!op_can_sample(cx, 1))
    return false;
  Type *x = op_draw_tensor_maybe_empty(cx, 1, op_rank_cap(cx->lim), OP_ALL);
  int r = x->tensor.rank, axis = (int)op_pick_below(cx, r);
  int64_t d = x->tensor.shape[axis], opts[MAX_PIECES];
  op_sig_start(cx, sig, 1, NULL);
  sig->args[0] = x;
  int64_t sizes[MAX_PIECES];
  int pieces = 0;
  if (d > 0 && op_coin(cx)) { /* indices: each cut point in (0, d) kept or not */
    int n = 0;
    int64_t last = 0;
    for (int64_t c = 1; c < d && n < MAX_PIECES - 1; c++)
      if (op_coin(cx)) {
        sizes[pieces++] = c - last;
        opts[n++] = last = c;
      }
    sizes[pieces++] = d - last;
    ir_attr_set_ints(cx->arena, &sig->attrs, "indices_or_sections", n, opts);
  } else { /* sections: a divisor of d (any of 1..4 when d is 0) */
    int n = 0;
    for (int64_t k = 1; k <= MAX_PIECES && n < MAX_PIECES; k++)
      if (d == 0 ? k <= 4 : d % k == 0)
        opts[n++] = k;
    int64_t k = opts[op_pick_below(cx, n)];
    for (pieces = 0; pieces < k; pieces++)
      sizes[pieces] = d / k;
    ir_attr_set_int(cx->arena, &sig->attrs, "indices_or_sections", k);
  }
  ir_attr_set_int(cx->arena, &sig->attrs, "axis", op_enc_axis(cx, axis, r));
  /* The result: one piece per size, x's dims with the axis cut. */
  Type *fields[MAX_PIECES];
  int64_t shape[IR_MAX_RANK];
  memcpy(shape, x->tensor.shape, sizeof shape);
  for (int i = 0; i < pieces; i++) {
    shape[axis] = sizes[i];
    fields[i] = op_like(cx->arena, x, r, shape);
  }
  sig->ret = ir_tuple_type(cx->arena, pieces, fields);
  return true;
}

void k_split(OpId op, Tensor *const *args, int nargs, const Attrs *at, Tensor *const *outs,
             int nouts, Arena *scratch) {
  int axis, n;
  int64_t start[MAX_PIECES], size[MAX_PIECES], shape[IR_MAX_RANK];
  if (nargs != 1 ||
      split_plan(at, args[0]->rank, args[0]->shape, &axis, &n, start, size, NULL, 0) != REL_OK ||
      !op_arity(args, nargs, 1, outs, nouts, n))
    return;
  Tensor *x = args[0];
  memcpy(shape, x->shape, sizeof shape);
  for (int k = 0; k < n; k++) {
    shape[axis] = size[k];
    if (!op_has_shape(outs[k], x->rank, shape))
      return;
  }
  if (x->numel == 0)
    return;
  int64_t outer = op_prod(x->shape, 0, axis), inner = op_prod(x->shape, axis + 1, x->rank);
  int64_t d = x->shape[axis];
  for (int64_t o = 0; o < outer; o++)
    for (int k = 0; k < n; k++)
      op_copy_run(outs[k], o * size[k] * inner, x, (o * d + start[k]) * inner, size[k] * inner);
}
