/*
 * shape.c - the shape family: reshape, transpose, expand_dims, squeeze,
 * broadcast_to, concatenate, stack, split, strided_slice, take, tile,
 * reverse, and the creation operators zeros, ones, full, zeros_like and
 * ones_like.  Each operator has its relation, recognizer, solver, sampler
 * and kernel here (see op.h for the contracts).
 *
 * The relations follow Relay's (src/relay/op/tensor/transform.cc and
 * topi's strided_slice.h), with these deliberate differences, all of them
 * places where Relay would crash, divide by zero or index out of range:
 *   - reshape rejects a -1 whose position in the result differs from its
 *     position in newshape (after a -2 that copies other than one dim, or
 *     after a -4); Relay writes the inferred dim to the wrong place there.
 *     It also rejects inferring -1 when the other dims hold no elements.
 *   - take accepts only batch_dims = 0, checks axis < rank (Relay checks
 *     <= rank), and defines taking from an empty axis: the result is zeros.
 *     Mode "fast" behaves like "clip".
 *   - split rejects sections < 1 and more than 64 pieces (MAX_PIECES).
 *   - strided_slice rejects begin/end/strides longer than the rank (Relay
 *     ignores the excess), duplicate axes and stride 0; negative axes count
 *     from the end.  None strides mean all ones.
 *   - stack takes axis in [-(rank+1), rank] as numpy does.
 *   - Every result shape is checked for overflow and for rank <= 6.
 * Attributes Relay requires (newshape, shape, reps, begin, end,
 * indices_or_sections) are errors when missing; the others default as in
 * Relay (axis 0, num_newaxis 1, mode "clip", slice_mode "end", dtype
 * float32 for zeros/ones and the fill value's dtype for full).
 */
#include <string.h>

#include "util.h"

/* The most tensors split returns; also bounds what the solvers of stack
 * and split build, so op_eval (64 outputs) can always run them. */
enum { MAX_PIECES = 64 };

/* ------------------------------------------------------------ helpers */

/* Elements of a shape in *out; false when a dim is negative or the product
 * of the dims (zero dims counted as one) overflows int64. */
static bool count_elems(int rank, const int64_t *shape, int64_t *out) {
  int64_t n = 1;
  bool zero = false;
  for (int i = 0; i < rank; i++) {
    if (shape[i] < 0)
      return false;
    if (shape[i] == 0)
      zero = true;
    else if (__builtin_mul_overflow(n, shape[i], &n))
      return false;
  }
  *out = zero ? 0 : n;
  return true;
}

/* Format a shape as Relay prints it: (2, 3), (3) or (). */
static const char *fmt_shape(char *buf, size_t n, int rank, const int64_t *shape) {
  size_t k = (size_t)snprintf(buf, n, "(");
  for (int i = 0; i < rank && k < n; i++)
    k += (size_t)snprintf(buf + k, n - k, "%s%lld", i ? ", " : "", (long long)shape[i]);
  if (k < n)
    snprintf(buf + k, n - k, ")");
  return buf;
}

/* Check argument count and that each argument is a known tensor with a
 * valid shape. */
static RelStatus want(Type *const *args, int nargs, int n, char *err, size_t errlen) {
  RelStatus s = op_want_tensors(args, nargs, n, err, errlen);
  if (s != REL_OK)
    return s;
  for (int i = 0; i < nargs; i++) {
    int64_t c;
    if (args[i]->tensor.rank > IR_MAX_RANK ||
        !count_elems(args[i]->tensor.rank, args[i]->tensor.shape, &c))
      return op_fail(err, errlen, "argument %d has an invalid shape", i);
  }
  return REL_OK;
}

/* Build the result tensor type after checking its rank and size. */
static RelStatus result(Arena *a, DType dt, int rank, const int64_t *shape, Type **out, char *err,
                        size_t errlen) {
  int64_t n;
  if (rank > IR_MAX_RANK)
    return op_fail(err, errlen, "result rank %d exceeds %d", rank, IR_MAX_RANK);
  if (!count_elems(rank, shape, &n))
    return op_fail(err, errlen, "result shape is too large");
  *out = ir_tensor_type(a, dt, rank, shape);
  return REL_OK;
}

/* An ints attribute: given is false when absent or None. */
typedef struct Ints {
  bool given;
  int n;
  const int64_t *v;
} Ints;

/* Read an ints attribute; a single integer counts as a one-element list. */
static RelStatus get_ints(const Attrs *at, const char *name, Ints *out, char *err, size_t errlen) {
  const Attr *x = ir_attr_get(at, name);
  *out = (Ints){0};
  if (!x || x->kind == AV_NONE)
    return REL_OK;
  if (x->kind == AV_INTS && x->n >= 0) {
    *out = (Ints){true, x->n, x->ints};
    return REL_OK;
  }
  if (x->kind == AV_INT) {
    *out = (Ints){true, 1, &x->i};
    return REL_OK;
  }
  return op_fail(err, errlen, "attribute %s must be a list of integers", name);
}

/* Read an ints attribute Relay requires. */
static RelStatus need_ints(const Attrs *at, const char *name, Ints *out, char *err, size_t errlen) {
  RelStatus s = get_ints(at, name, out, err, errlen);
  if (s == REL_OK && !out->given)
    return op_fail(err, errlen, "attribute %s is required", name);
  return s;
}

/* Read an optional int attribute: *given is false when absent or None. */
static RelStatus get_opt_int(const Attrs *at, const char *name, bool *given, int64_t *v, char *err,
                             size_t errlen) {
  const Attr *x = ir_attr_get(at, name);
  *given = false;
  if (!x || x->kind == AV_NONE)
    return REL_OK;
  if (x->kind != AV_INT)
    return op_fail(err, errlen, "attribute %s must be an integer", name);
  *given = true;
  *v = x->i;
  return REL_OK;
}

/* Read an int attribute with a default. */
static RelStatus get_int(const Attrs *at, const char *name, int64_t dflt, int64_t *v, char *err,
                         size_t errlen) {
  bool given;
  RelStatus s = get_opt_int(at, name, &given, v, err, errlen);
  if (s == REL_OK && !given)
    *v = dflt;
  return s;
}

/* Read a string attribute with a default. */
static RelStatus get_str(const Attrs *at, const char *name, const char *dflt, const char **v,
                         char *err, size_t errlen) {
  const Attr *x = ir_attr_get(at, name);
  *v = dflt;
  if (!x || x->kind == AV_NONE)
    return REL_OK;
  if (x->kind != AV_STR)
    return op_fail(err, errlen, "attribute %s must be a string", name);
  *v = x->s;
  return REL_OK;
}

/* Read a dtype attribute; dflt is used when it is absent or None. */
static RelStatus get_dtype(const Attrs *at, DType dflt, DType *dt, char *err, size_t errlen) {
  const char *s;
  RelStatus st = get_str(at, "dtype", NULL, &s, err, errlen);
  if (st != REL_OK)
    return st;
  *dt = dflt;
  if (s && !ir_dtype_parse(s, strlen(s), dt))
    return op_fail(err, errlen, "unknown dtype \"%s\"", s);
  return REL_OK;
}

/* Normalise an axis or fail with the standard message. */
static RelStatus want_axis(int64_t axis, int rank, int *out, char *err, size_t errlen) {
  if (!op_axis(axis, rank, out))
    return op_fail(err, errlen, "axis %lld is out of range for rank %d", (long long)axis, rank);
  return REL_OK;
}

/* A fresh tensor type with t's dtype and the given shape, in arena a. */
static Type *like(Arena *a, const Type *t, int rank, const int64_t *shape) {
  return ir_tensor_type(a, t->tensor.dtype, rank, shape);
}

/* ----------------------------------------------------------- reshape */

/* Relay's reshape shape inference: newshape entries are positive dims, 0
 * (copy the input dim at the same position), -1 (infer from the input
 * dims not otherwise used), -2 (copy all remaining input dims), -3 (merge
 * two input dims) and -4 a b (split an input dim into a and b, one of
 * which may be -1).  Input dims must be valid (count_elems). */
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
      out[r++] = in[src] * in[src + 1]; /* cannot overflow: the input is valid */
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
        d1 = d0 / d2;
      else if (d2 == -1)
        d2 = d0 / d1;
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
        pin *= in[j]; /* a sub-product of a valid shape */
    for (int j = 0; j < r; j++)
      if (!used_out[j] && j != infer && __builtin_mul_overflow(pout, out[j], &pout))
        return op_fail(err, errlen, "newshape gives a result that is too large");
    if (pout == 0)
      return op_fail(err, errlen, "cannot infer the -1 dim: the other dims hold no elements");
    out[infer] = pin / pout;
  }
  int64_t nin, nout;
  char b1[96], b2[96];
  count_elems(rin, in, &nin);
  if (!count_elems(r, out, &nout))
    return op_fail(err, errlen, "newshape gives a result that is too large");
  if (nin != nout)
    return op_fail(err, errlen, "cannot reshape %s (%lld elements) to %s (%lld elements)",
                   fmt_shape(b1, sizeof b1, rin, in), (long long)nin,
                   fmt_shape(b2, sizeof b2, r, out), (long long)nout);
  *rout = r;
  return REL_OK;
}

RelStatus rel_reshape(OpId op, Type *const *args, int nargs, const Attrs *at, Arena *a, Type **out,
                      char *err, size_t errlen) {
  Ints ns;
  int r;
  int64_t shape[IR_MAX_RANK];
  RelStatus s = want(args, nargs, 1, err, errlen);
  if (s == REL_OK)
    s = need_ints(at, "newshape", &ns, err, errlen);
  if (s == REL_OK)
    s = reshape_infer(args[0]->tensor.rank, args[0]->tensor.shape, ns.n, ns.v, &r, shape, err,
                      errlen);
  if (s == REL_OK)
    s = result(a, args[0]->tensor.dtype, r, shape, out, err, errlen);
  return s;
}

/* --------------------------------------------------------- transpose */

/* The permutation given by the axes attribute (reversal when None). */
static RelStatus transpose_perm(const Attrs *at, int rank, int *perm, char *err, size_t errlen) {
  Ints axes;
  bool seen[IR_MAX_RANK] = {0};
  RelStatus s = get_ints(at, "axes", &axes, err, errlen);
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
    if ((s = want_axis(axes.v[i], rank, &perm[i], err, errlen)) != REL_OK)
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
  RelStatus s = want(args, nargs, 1, err, errlen);
  if (s == REL_OK)
    s = transpose_perm(at, args[0]->tensor.rank, perm, err, errlen);
  if (s != REL_OK)
    return s;
  for (int i = 0; i < args[0]->tensor.rank; i++)
    shape[i] = args[0]->tensor.shape[perm[i]];
  *out = like(a, args[0], args[0]->tensor.rank, shape);
  return REL_OK;
}

/* -------------------------------------------------------- expand_dims */

RelStatus rel_expand_dims(OpId op, Type *const *args, int nargs, const Attrs *at, Arena *a,
                          Type **out, char *err, size_t errlen) {
  int64_t axis, num, shape[IR_MAX_RANK];
  RelStatus s = want(args, nargs, 1, err, errlen);
  if (s == REL_OK)
    s = get_int(at, "axis", 0, &axis, err, errlen);
  if (s == REL_OK)
    s = get_int(at, "num_newaxis", 1, &num, err, errlen);
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
  *out = like(a, args[0], r, shape);
  return REL_OK;
}

/* ------------------------------------------------------------ squeeze */

RelStatus rel_squeeze(OpId op, Type *const *args, int nargs, const Attrs *at, Arena *a, Type **out,
                      char *err, size_t errlen) {
  Ints axes;
  bool drop[IR_MAX_RANK] = {0};
  int64_t shape[IR_MAX_RANK];
  RelStatus s = want(args, nargs, 1, err, errlen);
  if (s == REL_OK)
    s = get_ints(at, "axis", &axes, err, errlen);
  if (s != REL_OK)
    return s;
  const Type *t = args[0];
  for (int i = 0; !axes.given && i < t->tensor.rank; i++)
    drop[i] = t->tensor.shape[i] == 1;
  for (int i = 0; axes.given && i < axes.n; i++) {
    int ax;
    if ((s = want_axis(axes.v[i], t->tensor.rank, &ax, err, errlen)) != REL_OK)
      return s;
    if (t->tensor.shape[ax] != 1)
      return op_fail(err, errlen, "cannot squeeze axis %d of size %lld", ax,
                     (long long)t->tensor.shape[ax]);
    drop[ax] = true;
  }
  int r = 0;
  for (int i = 0; i < t->tensor.rank; i++)
    if (!drop[i])
      shape[r++] = t->tensor.shape[i];
  *out = like(a, t, r, shape);
  return REL_OK;
}

/* ------------------------------------------------------- broadcast_to */

RelStatus rel_broadcast_to(OpId op, Type *const *args, int nargs, const Attrs *at, Arena *a,
                           Type **out, char *err, size_t errlen) {
  Ints sh;
  char b1[96], b2[96];
  RelStatus s = want(args, nargs, 1, err, errlen);
  if (s == REL_OK)
    s = need_ints(at, "shape", &sh, err, errlen);
  if (s != REL_OK)
    return s;
  const Type *t = args[0];
  int rank = t->tensor.rank;
  if (sh.n > IR_MAX_RANK)
    return op_fail(err, errlen, "result rank %d exceeds %d", sh.n, IR_MAX_RANK);
  for (int i = 0; i < sh.n; i++)
    if (sh.v[i] < 0)
      return op_fail(err, errlen, "shape has a negative dim %lld", (long long)sh.v[i]);
  bool ok = rank <= sh.n;
  for (int i = 0; ok && i < rank; i++) {
    int64_t d = t->tensor.shape[i], want_d = sh.v[sh.n - rank + i];
    ok = d == want_d || d == 1;
  }
  if (!ok)
    return op_fail(err, errlen, "cannot broadcast %s to %s",
                   fmt_shape(b1, sizeof b1, rank, t->tensor.shape),
                   fmt_shape(b2, sizeof b2, sh.n, sh.v));
  return result(a, t->tensor.dtype, sh.n, sh.v, out, err, errlen);
}

/* ---------------------------------------------- concatenate and stack */

/* The tensors of concatenate's and stack's one tuple argument: all known
 * tensors of one dtype and rank, with valid shapes. */
static RelStatus tuple_arg(Type *const *args, int nargs, Type ***fields, int *n, char *err,
                           size_t errlen) {
  if (nargs != 1)
    return op_fail(err, errlen, "expects 1 argument (a tuple of tensors), got %d", nargs);
  if (!op_known(args[0]))
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
    if (f->tensor.rank > IR_MAX_RANK || !count_elems(f->tensor.rank, f->tensor.shape, &c))
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
      if (d != skip && fields[i]->tensor.shape[d] != f0->tensor.shape[d])
        return op_fail(err, errlen, "tuple field %d has shape %s, which does not match %s%s", i,
                       fmt_shape(b1, sizeof b1, f0->tensor.rank, fields[i]->tensor.shape),
                       fmt_shape(b2, sizeof b2, f0->tensor.rank, f0->tensor.shape),
                       skip >= 0 ? " outside the axis" : "");
  return REL_OK;
}

/* The normalised concatenation axis for fields of the given rank. */
static RelStatus concat_axis(const Attrs *at, int rank, int *axis, char *err, size_t errlen) {
  int64_t v;
  RelStatus s = get_int(at, "axis", 0, &v, err, errlen);
  return s == REL_OK ? want_axis(v, rank, axis, err, errlen) : s;
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
  memcpy(shape, fields[0]->tensor.shape, sizeof shape);
  for (int i = 1; i < n; i++)
    if (__builtin_add_overflow(shape[axis], fields[i]->tensor.shape[axis], &shape[axis]))
      return op_fail(err, errlen, "result shape is too large");
  return result(a, fields[0]->tensor.dtype, fields[0]->tensor.rank, shape, out, err, errlen);
}

/* The normalised stacking axis: the position of the new dim. */
static RelStatus stack_axis(const Attrs *at, int rank, int *axis, char *err, size_t errlen) {
  int64_t v;
  RelStatus s = get_int(at, "axis", 0, &v, err, errlen);
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
  int64_t shape[IR_MAX_RANK + 1];
  for (int i = 0, r = 0; i <= rank; i++) {
    if (i == axis)
      shape[r++] = n;
    if (i < rank)
      shape[r++] = fields[0]->tensor.shape[i];
  }
  return result(a, fields[0]->tensor.dtype, rank + 1, shape, out, err, errlen);
}

/* -------------------------------------------------------------- split */

/* How split cuts axis *axis of shape: *n pieces, piece i starting at
 * start[i] with size[i]. */
static RelStatus split_plan(const Attrs *at, int rank, const int64_t *shape, int *axis, int *n,
                            int64_t *start, int64_t *size, char *err, size_t errlen) {
  int64_t ax;
  RelStatus s = get_int(at, "axis", 0, &ax, err, errlen);
  if (s != REL_OK)
    return s;
  if (rank == 0)
    return op_fail(err, errlen, "cannot split a scalar");
  if ((s = want_axis(ax, rank, axis, err, errlen)) != REL_OK)
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
    if (dim % k)
      return op_fail(err, errlen, "%lld sections do not divide axis %d of size %lld", (long long)k,
                     *axis, (long long)dim);
    *n = (int)k;
    for (int i = 0; i < *n; i++)
      start[i] = i * (dim / k), size[i] = dim / k;
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
  if (prev >= dim) /* also rejects no indices on an empty axis, as Relay does */
    return op_fail(err, errlen, "index %lld is not below the size %lld of axis %d", (long long)prev,
                   (long long)dim, *axis);
  start[x->n] = prev, size[x->n] = dim - prev;
  *n = x->n + 1;
  return REL_OK;
}

RelStatus rel_split(OpId op, Type *const *args, int nargs, const Attrs *at, Arena *a, Type **out,
                    char *err, size_t errlen) {
  int axis, n;
  int64_t start[MAX_PIECES], size[MAX_PIECES];
  RelStatus s = want(args, nargs, 1, err, errlen);
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
    fields[i] = like(a, args[0], args[0]->tensor.rank, shape);
  }
  *out = ir_tuple_type(a, n, fields);
  return REL_OK;
}

/* ------------------------------------------------------ strided_slice */

/* A resolved slice: along axis i, size[i] elements from begin[i] on,
 * step[i] apart. */
typedef struct Slice {
  int64_t begin[IR_MAX_RANK], step[IR_MAX_RANK], size[IR_MAX_RANK];
} Slice;

/* topi's CanonicalizeIndex: count a negative index from the end, then
 * clamp to [0, extent] (stride > 0) or [-1, extent - 1] (stride < 0). */
static int64_t canon_index(int64_t index, int64_t extent, int64_t stride) {
  int64_t lo = stride < 0 ? -1 : 0, hi = stride < 0 ? extent - 1 : extent;
  if (index < 0)
    index += extent;
  return index < lo ? lo : index > hi ? hi : index;
}

/* Resolve one axis of extent dim from raw begin, end (or size) and stride. */
static RelStatus slice_axis(int axis, int64_t dim, int64_t b, int64_t e, int64_t stride,
                            bool size_mode, Slice *sl, char *err, size_t errlen) {
  if (size_mode) {
    stride = 1;
    if (e < 0)
      e = INT64_MAX;
    else if (__builtin_add_overflow(b, e, &e))
      e = b < 0 ? INT64_MIN : INT64_MAX;
  }
  if (stride == 0)
    return op_fail(err, errlen, "stride of axis %d is 0", axis);
  int64_t bc = canon_index(b, dim, stride), ec = canon_index(e, dim, stride);
  if (stride > 0 ? bc > ec : ec > bc)
    return op_fail(err, errlen,
                   "axis %d: begin %lld and end %lld (clamped to %lld and %lld) are "
                   "out of order for stride %lld",
                   axis, (long long)b, (long long)e, (long long)bc, (long long)ec,
                   (long long)stride);
  int64_t len = stride > 0 ? ec - bc : bc - ec; /* <= dim, so no overflow */
  int64_t mag = stride == INT64_MIN ? INT64_MAX : stride < 0 ? -stride : stride;
  sl->begin[axis] = bc;
  sl->step[axis] = stride;
  sl->size[axis] = len / mag + (len % mag != 0);
  return REL_OK;
}

/* Resolve strided_slice's attributes for an input of the given shape. */
static RelStatus slice_plan(const Attrs *at, int rank, const int64_t *shape, Slice *sl, char *err,
                            size_t errlen) {
  Ints b, e, st, ax;
  const char *mode;
  RelStatus s = need_ints(at, "begin", &b, err, errlen);
  if (s == REL_OK)
    s = need_ints(at, "end", &e, err, errlen);
  if (s == REL_OK)
    s = get_ints(at, "strides", &st, err, errlen);
  if (s == REL_OK)
    s = get_ints(at, "axes", &ax, err, errlen);
  if (s == REL_OK)
    s = get_str(at, "slice_mode", "end", &mode, err, errlen);
  if (s != REL_OK)
    return s;
  bool size_mode = strcmp(mode, "size") == 0;
  if (!size_mode && strcmp(mode, "end") != 0)
    return op_fail(err, errlen, "slice_mode must be \"end\" or \"size\", got \"%s\"", mode);
  for (int i = 0; i < rank; i++)
    sl->begin[i] = 0, sl->step[i] = 1, sl->size[i] = shape[i];
  if (ax.given) {
    bool seen[IR_MAX_RANK] = {0};
    if (b.n != ax.n || e.n != ax.n || (st.given && st.n != ax.n))
      return op_fail(err, errlen, "axes, begin, end and strides must have the same length");
    for (int k = 0; k < ax.n; k++) {
      int a;
      if ((s = want_axis(ax.v[k], rank, &a, err, errlen)) != REL_OK)
        return s;
      if (seen[a])
        return op_fail(err, errlen, "axis %d is sliced twice", a);
      seen[a] = true;
      s = slice_axis(a, shape[a], b.v[k], e.v[k], st.given ? st.v[k] : 1, size_mode, sl, err,
                     errlen);
      if (s != REL_OK)
        return s;
    }
    return REL_OK;
  }
  if (b.n > rank || e.n > rank || (st.given && st.n > rank))
    return op_fail(err, errlen, "begin, end and strides may have at most %d entries (the rank)",
                   rank);
  for (int a = 0; a < rank; a++) {
    int64_t stride = size_mode || !st.given || a >= st.n ? 1 : st.v[a];
    int64_t bv = a < b.n ? b.v[a] : stride > 0 ? 0 : INT64_MAX;
    int64_t ev = a < e.n ? e.v[a] : stride < 0 ? 0 : size_mode ? -1 : INT64_MAX;
    if ((s = slice_axis(a, shape[a], bv, ev, stride, size_mode, sl, err, errlen)) != REL_OK)
      return s;
  }
  return REL_OK;
}

RelStatus rel_strided_slice(OpId op, Type *const *args, int nargs, const Attrs *at, Arena *a,
                            Type **out, char *err, size_t errlen) {
  Slice sl;
  RelStatus s = want(args, nargs, 1, err, errlen);
  if (s == REL_OK)
    s = slice_plan(at, args[0]->tensor.rank, args[0]->tensor.shape, &sl, err, errlen);
  if (s == REL_OK)
    *out = like(a, args[0], args[0]->tensor.rank, sl.size);
  return s;
}

/* --------------------------------------------------------------- take */

/* take's attributes: *axis is -1 for None (take from the flattened data);
 * *wrap selects mode "wrap" (otherwise clip; "fast" clips too). */
static RelStatus take_plan(const Attrs *at, int drank, int *axis, bool *wrap, char *err,
                           size_t errlen) {
  bool given;
  int64_t ax = 0, bd;
  const char *mode;
  RelStatus s = get_opt_int(at, "axis", &given, &ax, err, errlen);
  if (s == REL_OK)
    s = get_int(at, "batch_dims", 0, &bd, err, errlen);
  if (s == REL_OK)
    s = get_str(at, "mode", "clip", &mode, err, errlen);
  if (s != REL_OK)
    return s;
  if (bd != 0)
    return op_fail(err, errlen, "batch_dims %lld is not supported (only 0)", (long long)bd);
  *wrap = strcmp(mode, "wrap") == 0;
  if (!*wrap && strcmp(mode, "clip") != 0 && strcmp(mode, "fast") != 0)
    return op_fail(err, errlen, "mode must be \"clip\", \"wrap\" or \"fast\", got \"%s\"", mode);
  *axis = -1;
  return given ? want_axis(ax, drank, axis, err, errlen) : REL_OK;
}

RelStatus rel_take(OpId op, Type *const *args, int nargs, const Attrs *at, Arena *a, Type **out,
                   char *err, size_t errlen) {
  int axis;
  bool wrap;
  RelStatus s = want(args, nargs, 2, err, errlen);
  if (s == REL_OK)
    s = take_plan(at, args[0]->tensor.rank, &axis, &wrap, err, errlen);
  if (s != REL_OK)
    return s;
  const Type *d = args[0], *ix = args[1];
  if (!ir_dtype_is_int(ix->tensor.dtype))
    return op_fail(err, errlen, "indices must have an integer dtype, got %s",
                   ir_dtype_name(ix->tensor.dtype));
  if (axis < 0)
    return result(a, d->tensor.dtype, ix->tensor.rank, ix->tensor.shape, out, err, errlen);
  int64_t shape[2 * IR_MAX_RANK];
  int r = 0;
  for (int i = 0; i < axis; i++)
    shape[r++] = d->tensor.shape[i];
  for (int i = 0; i < ix->tensor.rank; i++)
    shape[r++] = ix->tensor.shape[i];
  for (int i = axis + 1; i < d->tensor.rank; i++)
    shape[r++] = d->tensor.shape[i];
  return result(a, d->tensor.dtype, r, shape, out, err, errlen);
}

/* --------------------------------------------------------------- tile */

RelStatus rel_tile(OpId op, Type *const *args, int nargs, const Attrs *at, Arena *a, Type **out,
                   char *err, size_t errlen) {
  Ints reps;
  RelStatus s = want(args, nargs, 1, err, errlen);
  if (s == REL_OK)
    s = need_ints(at, "reps", &reps, err, errlen);
  if (s != REL_OK)
    return s;
  const Type *t = args[0];
  int rank = t->tensor.rank;
  if (reps.n > IR_MAX_RANK)
    return op_fail(err, errlen, "result rank %d exceeds %d", reps.n, IR_MAX_RANK);
  for (int i = 0; i < reps.n; i++)
    if (reps.v[i] < 1)
      return op_fail(err, errlen, "reps must be positive, got %lld", (long long)reps.v[i]);
  int r = rank > reps.n ? rank : reps.n;
  int64_t shape[IR_MAX_RANK];
  for (int i = 0; i < r; i++) {
    int di = i - (r - rank), ri = i - (r - reps.n);
    int64_t d = di >= 0 ? t->tensor.shape[di] : 1, k = ri >= 0 ? reps.v[ri] : 1;
    if (__builtin_mul_overflow(d, k, &shape[i]))
      return op_fail(err, errlen, "result shape is too large");
  }
  return result(a, t->tensor.dtype, r, shape, out, err, errlen);
}

/* ------------------------------------------------------------ reverse */

RelStatus rel_reverse(OpId op, Type *const *args, int nargs, const Attrs *at, Arena *a, Type **out,
                      char *err, size_t errlen) {
  int64_t v;
  int axis;
  RelStatus s = want(args, nargs, 1, err, errlen);
  if (s == REL_OK)
    s = get_int(at, "axis", 0, &v, err, errlen);
  if (s == REL_OK)
    s = want_axis(v, args[0]->tensor.rank, &axis, err, errlen);
  if (s == REL_OK)
    *out = like(a, args[0], args[0]->tensor.rank, args[0]->tensor.shape);
  return s;
}

/* ------------------------------------------------- creation operators */

/* The shape attribute of zeros, ones and full, then the result type. */
static RelStatus fill_result(const Attrs *at, DType dt, Arena *a, Type **out, char *err,
                             size_t errlen) {
  Ints sh;
  RelStatus s = need_ints(at, "shape", &sh, err, errlen);
  if (s != REL_OK)
    return s;
  if (sh.n > IR_MAX_RANK)
    return op_fail(err, errlen, "result rank %d exceeds %d", sh.n, IR_MAX_RANK);
  for (int i = 0; i < sh.n; i++)
    if (sh.v[i] < 0)
      return op_fail(err, errlen, "shape has a negative dim %lld", (long long)sh.v[i]);
  return result(a, dt, sh.n, sh.v, out, err, errlen);
}

RelStatus rel_fill(OpId op, Type *const *args, int nargs, const Attrs *at, Arena *a, Type **out,
                   char *err, size_t errlen) {
  DType dt;
  RelStatus s = want(args, nargs, 0, err, errlen);
  if (s == REL_OK)
    s = get_dtype(at, DT_FLOAT32, &dt, err, errlen);
  return s == REL_OK ? fill_result(at, dt, a, out, err, errlen) : s;
}

RelStatus rel_full(OpId op, Type *const *args, int nargs, const Attrs *at, Arena *a, Type **out,
                   char *err, size_t errlen) {
  DType dt;
  RelStatus s = want(args, nargs, 1, err, errlen);
  if (s != REL_OK)
    return s;
  if (args[0]->tensor.rank != 0)
    return op_fail(err, errlen, "the fill value must be a scalar, got rank %d",
                   args[0]->tensor.rank);
  s = get_dtype(at, args[0]->tensor.dtype, &dt, err, errlen);
  return s == REL_OK ? fill_result(at, dt, a, out, err, errlen) : s;
}

RelStatus rel_unary_like(OpId op, Type *const *args, int nargs, const Attrs *at, Arena *a,
                         Type **out, char *err, size_t errlen) {
  RelStatus s = want(args, nargs, 1, err, errlen);
  if (s == REL_OK)
    *out = like(a, args[0], args[0]->tensor.rank, args[0]->tensor.shape);
  return s;
}

/* ------------------------------------------------------------ kernels */

/* Kernels check that their tensors agree with the relation before they
 * touch any data, and do nothing otherwise: they never read or write out
 * of bounds, whatever they are given.  Outputs come zero-filled. */

/* Copy count consecutive elements from src[si] to dst[di] (same dtype). */
static void copy_run(Tensor *dst, int64_t di, const Tensor *src, int64_t si, int64_t count) {
  size_t n = (size_t)ir_dtype_size(dst->dtype);
  if (count > 0)
    memcpy((char *)dst->data + (size_t)di * n, (const char *)src->data + (size_t)si * n,
           (size_t)count * n);
}

/* Advance a row-major coordinate by one. */
static void next_coord(int rank, const int64_t *shape, int64_t *c) {
  for (int i = rank - 1; i >= 0; i--) {
    if (++c[i] < shape[i])
      return;
    c[i] = 0;
  }
}

/* Product of shape[lo..hi). */
static int64_t prod(const int64_t *shape, int lo, int hi) {
  int64_t p = 1;
  for (int i = lo; i < hi; i++)
    p *= shape[i];
  return p;
}

/* True when the kernel got n inputs and m outputs, every one of them of
 * the first output's dtype. */
static bool arity(Tensor *const *args, int nargs, int n, Tensor *const *outs, int nouts, int m) {
  if (nargs != n || nouts != m || m < 1)
    return false;
  for (int i = 0; i < nargs; i++)
    if (args[i]->dtype != outs[0]->dtype)
      return false;
  for (int i = 0; i < nouts; i++)
    if (outs[i]->dtype != outs[0]->dtype)
      return false;
  return true;
}

/* True when t has the given rank and shape. */
static bool has_shape(const Tensor *t, int rank, const int64_t *shape) {
  return t->rank == rank && memcmp(t->shape, shape, sizeof(int64_t) * (size_t)rank) == 0;
}

void k_copy_data(OpId op, Tensor *const *args, int nargs, const Attrs *at, Tensor *const *outs,
                 int nouts, Arena *scratch) {
  if (arity(args, nargs, 1, outs, nouts, 1) && args[0]->numel == outs[0]->numel)
    copy_run(outs[0], 0, args[0], 0, outs[0]->numel);
}

void k_transpose(OpId op, Tensor *const *args, int nargs, const Attrs *at, Tensor *const *outs,
                 int nouts, Arena *scratch) {
  int perm[IR_MAX_RANK];
  int64_t xs[IR_MAX_RANK], c[IR_MAX_RANK] = {0}, shape[IR_MAX_RANK];
  if (!arity(args, nargs, 1, outs, nouts, 1) ||
      transpose_perm(at, args[0]->rank, perm, NULL, 0) != REL_OK)
    return;
  Tensor *x = args[0], *y = outs[0];
  for (int i = 0; i < x->rank; i++)
    shape[i] = x->shape[perm[i]];
  if (!has_shape(y, x->rank, shape) || y->numel == 0)
    return;
  op_strides(x->rank, x->shape, xs);
  for (int64_t i = 0; i < y->numel; i++) {
    int64_t src = 0;
    for (int d = 0; d < y->rank; d++)
      src += c[d] * xs[perm[d]];
    copy_run(y, i, x, src, 1);
    next_coord(y->rank, y->shape, c);
  }
}

void k_broadcast_to(OpId op, Tensor *const *args, int nargs, const Attrs *at, Tensor *const *outs,
                    int nouts, Arena *scratch) {
  int64_t c[IR_MAX_RANK] = {0};
  if (!arity(args, nargs, 1, outs, nouts, 1))
    return;
  Tensor *x = args[0], *y = outs[0];
  if (x->rank > y->rank || y->numel == 0)
    return;
  for (int i = 0; i < x->rank; i++)
    if (x->shape[i] != 1 && x->shape[i] != y->shape[y->rank - x->rank + i])
      return;
  for (int64_t i = 0; i < y->numel; i++) {
    copy_run(y, i, x, op_broadcast_index(c, y->rank, x->rank, x->shape), 1);
    next_coord(y->rank, y->shape, c);
  }
}

void k_concatenate(OpId op, Tensor *const *args, int nargs, const Attrs *at, Tensor *const *outs,
                   int nouts, Arena *scratch) {
  int axis;
  if (!arity(args, nargs, nargs, outs, nouts, 1) || nargs < 1 ||
      concat_axis(at, outs[0]->rank, &axis, NULL, 0) != REL_OK)
    return;
  Tensor *y = outs[0];
  int64_t shape[IR_MAX_RANK], total = 0;
  memcpy(shape, y->shape, sizeof shape);
  for (int k = 0; k < nargs; k++) {
    shape[axis] = args[k]->shape[axis];
    if (!has_shape(args[k], y->rank, shape) || __builtin_add_overflow(total, shape[axis], &total))
      return;
  }
  if (total != y->shape[axis] || y->numel == 0)
    return;
  int64_t outer = prod(y->shape, 0, axis), inner = prod(y->shape, axis + 1, y->rank);
  for (int64_t o = 0; o < outer; o++) {
    int64_t off = 0;
    for (int k = 0; k < nargs; k++) {
      int64_t d = args[k]->shape[axis];
      copy_run(y, (o * total + off) * inner, args[k], o * d * inner, d * inner);
      off += d;
    }
  }
}

void k_stack(OpId op, Tensor *const *args, int nargs, const Attrs *at, Tensor *const *outs,
             int nouts, Arena *scratch) {
  int axis;
  if (!arity(args, nargs, nargs, outs, nouts, 1) || nargs < 1 || outs[0]->rank < 1 ||
      stack_axis(at, outs[0]->rank - 1, &axis, NULL, 0) != REL_OK)
    return;
  Tensor *y = outs[0];
  int64_t shape[IR_MAX_RANK];
  for (int i = 0, r = 0; i < y->rank; i++)
    if (i != axis)
      shape[r++] = y->shape[i];
  for (int k = 0; k < nargs; k++)
    if (!has_shape(args[k], y->rank - 1, shape))
      return;
  if (y->shape[axis] != nargs || y->numel == 0)
    return;
  int64_t outer = prod(y->shape, 0, axis), inner = prod(y->shape, axis + 1, y->rank);
  for (int64_t o = 0; o < outer; o++)
    for (int k = 0; k < nargs; k++)
      copy_run(y, (o * nargs + k) * inner, args[k], o * inner, inner);
}

void k_split(OpId op, Tensor *const *args, int nargs, const Attrs *at, Tensor *const *outs,
             int nouts, Arena *scratch) {
  int axis, n;
  int64_t start[MAX_PIECES], size[MAX_PIECES], shape[IR_MAX_RANK];
  if (nargs != 1 ||
      split_plan(at, args[0]->rank, args[0]->shape, &axis, &n, start, size, NULL, 0) != REL_OK ||
      !arity(args, nargs, 1, outs, nouts, n))
    return;
  Tensor *x = args[0];
  memcpy(shape, x->shape, sizeof shape);
  for (int k = 0; k < n; k++) {
    shape[axis] = size[k];
    if (!has_shape(outs[k], x->rank, shape))
      return;
  }
  if (x->numel == 0)
    return;
  int64_t outer = prod(x->shape, 0, axis), inner = prod(x->shape, axis + 1, x->rank);
  int64_t d = x->shape[axis];
  for (int64_t o = 0; o < outer; o++)
    for (int k = 0; k < n; k++)
      copy_run(outs[k], o * size[k] * inner, x, (o * d + start[k]) * inner, size[k] * inner);
}

void k_strided_slice(OpId op, Tensor *const *args, int nargs, const Attrs *at, Tensor *const *outs,
                     int nouts, Arena *scratch) {
  Slice sl;
  int64_t xs[IR_MAX_RANK], c[IR_MAX_RANK] = {0};
  if (!arity(args, nargs, 1, outs, nouts, 1) ||
      slice_plan(at, args[0]->rank, args[0]->shape, &sl, NULL, 0) != REL_OK)
    return;
  Tensor *x = args[0], *y = outs[0];
  if (!has_shape(y, x->rank, sl.size) || y->numel == 0)
    return;
  op_strides(x->rank, x->shape, xs);
  for (int64_t i = 0; i < y->numel; i++) {
    int64_t src = 0;
    for (int d = 0; d < y->rank; d++)
      src += (sl.begin[d] + c[d] * sl.step[d]) * xs[d];
    copy_run(y, i, x, src, 1);
    next_coord(y->rank, y->shape, c);
  }
}

/* An index into an axis of n > 0 elements: wrapped, or clipped to [0, n). */
static int64_t take_index(int64_t v, int64_t n, bool wrap) {
  if (wrap) {
    v %= n;
    return v < 0 ? v + n : v;
  }
  return v < 0 ? 0 : v >= n ? n - 1 : v;
}

void k_take(OpId op, Tensor *const *args, int nargs, const Attrs *at, Tensor *const *outs,
            int nouts, Arena *scratch) {
  int axis;
  bool wrap;
  int64_t shape[2 * IR_MAX_RANK];
  if (nargs != 2 || nouts != 1 || take_plan(at, args[0]->rank, &axis, &wrap, NULL, 0) != REL_OK)
    return;
  Tensor *x = args[0], *ix = args[1], *y = outs[0];
  if (x->dtype != y->dtype || !ir_dtype_is_int(ix->dtype))
    return;
  int r = 0;
  for (int i = 0; axis >= 0 && i < axis; i++)
    shape[r++] = x->shape[i];
  for (int i = 0; i < ix->rank; i++)
    shape[r++] = ix->shape[i];
  for (int i = axis + 1; axis >= 0 && i < x->rank; i++)
    shape[r++] = x->shape[i];
  if (!has_shape(y, r, shape) || y->numel == 0)
    return;
  /* Taking from an empty axis gives zeros: write them, never rely on the
   * caller's zeroed memory. */
  memset(y->data, 0, (size_t)y->numel * (size_t)ir_dtype_size(y->dtype));
  if (axis < 0) {
    for (int64_t i = 0; x->numel > 0 && i < y->numel; i++)
      copy_run(y, i, x, take_index(ir_tensor_get_i64(ix, i), x->numel, wrap), 1);
    return;
  }
  int64_t d = x->shape[axis], m = ix->numel;
  int64_t outer = prod(x->shape, 0, axis), inner = prod(x->shape, axis + 1, x->rank);
  for (int64_t o = 0; d > 0 && o < outer; o++)
    for (int64_t k = 0; k < m; k++) {
      int64_t j = take_index(ir_tensor_get_i64(ix, k), d, wrap);
      copy_run(y, (o * m + k) * inner, x, (o * d + j) * inner, inner);
    }
}

void k_tile(OpId op, Tensor *const *args, int nargs, const Attrs *at, Tensor *const *outs,
            int nouts, Arena *scratch) {
  int64_t xs[IR_MAX_RANK], c[IR_MAX_RANK] = {0};
  if (!arity(args, nargs, 1, outs, nouts, 1))
    return;
  Tensor *x = args[0], *y = outs[0];
  int off = y->rank - x->rank;
  if (off < 0 || y->numel == 0)
    return;
  for (int i = 0; i < x->rank; i++)
    if (x->shape[i] == 0 || y->shape[off + i] % x->shape[i] != 0)
      return;
  op_strides(x->rank, x->shape, xs);
  for (int64_t i = 0; i < y->numel; i++) {
    int64_t src = 0;
    for (int d = 0; d < x->rank; d++)
      src += c[off + d] % x->shape[d] * xs[d];
    copy_run(y, i, x, src, 1);
    next_coord(y->rank, y->shape, c);
  }
}

void k_reverse(OpId op, Tensor *const *args, int nargs, const Attrs *at, Tensor *const *outs,
               int nouts, Arena *scratch) {
  int64_t v;
  int axis;
  if (!arity(args, nargs, 1, outs, nouts, 1) || get_int(at, "axis", 0, &v, NULL, 0) != REL_OK ||
      !op_axis(v, args[0]->rank, &axis))
    return;
  Tensor *x = args[0], *y = outs[0];
  if (!has_shape(y, x->rank, x->shape) || y->numel == 0)
    return;
  int64_t outer = prod(x->shape, 0, axis), d = x->shape[axis];
  int64_t inner = prod(x->shape, axis + 1, x->rank);
  for (int64_t o = 0; o < outer; o++)
    for (int64_t k = 0; k < d; k++)
      copy_run(y, (o * d + k) * inner, x, (o * d + d - 1 - k) * inner, inner);
}

void k_fill(OpId op, Tensor *const *args, int nargs, const Attrs *at, Tensor *const *outs,
            int nouts, Arena *scratch) {
  double v = op == OP_ONES || op == OP_ONES_LIKE ? 1 : 0;
  if (nouts != 1)
    return;
  for (int64_t i = 0; i < outs[0]->numel; i++)
    ir_tensor_set_f64(outs[0], i, v);
}

void k_full(OpId op, Tensor *const *args, int nargs, const Attrs *at, Tensor *const *outs,
            int nouts, Arena *scratch) {
  if (nargs != 1 || nouts != 1 || args[0]->numel != 1)
    return;
  double v = ir_tensor_get_f64(args[0], 0);
  for (int64_t i = 0; i < outs[0]->numel; i++)
    ir_tensor_set_f64(outs[0], i, v);
}

/* ------------------------------------------ solvers and samplers: helpers */

/* Solvers draw every freedom with pick (choice 0 is the simplest option),
 * copy dims from the wanted type, and invent dims only up to max_dim and
 * tensors only up to max_numel elements.  Samplers draw arguments (often
 * by drawing a result type within the limits and solving for it) and
 * compute the result with the relation. */

/* A choice in [0, n). */
static uint32_t pick(OpSolveCtx *cx, int64_t n) {
  return n <= 1 ? 0 : op_choose(cx->ch, n > UINT32_MAX ? UINT32_MAX : (uint32_t)n);
}

/* A yes/no choice; no is the simpler. */
static bool coin(OpSolveCtx *cx) {
  return pick(cx, 2) == 1;
}

/* The largest rank a solver may use. */
static int rank_cap(const OpLimits *lim) {
  return lim->max_rank < IR_MAX_RANK ? lim->max_rank : IR_MAX_RANK;
}

/* True when t is a tensor type within lim's rank and size. */
static bool fits(const Type *t, const OpLimits *lim) {
  int64_t n;
  return t && t->kind == TY_TENSOR && t->tensor.rank <= rank_cap(lim) &&
         count_elems(t->tensor.rank, t->tensor.shape, &n) && n <= lim->max_numel;
}

/* Start a solution with nargs arguments, no attributes and result ret
 * (copied; NULL leaves it for the relation). */
static void start(OpSolveCtx *cx, OpSig *sig, int nargs, const Type *ret) {
  memset(sig, 0, sizeof *sig);
  sig->nargs = nargs;
  sig->ret = ret ? ir_type_copy(cx->arena, ret) : NULL;
}

/* Compute a sampled solution's result with the relation. */
static bool finish(OpRelFn rel, OpId op, OpSolveCtx *cx, OpSig *sig) {
  return rel(op, sig->args, sig->nargs, &sig->attrs, cx->arena, &sig->ret, NULL, 0) == REL_OK;
}

/* An axis in [0, range) written as is or counted from the end. */
static int64_t enc_axis(OpSolveCtx *cx, int axis, int range) {
  return coin(cx) ? axis - range : axis;
}

/* Draw a tensor type: rank in [lo, hi], at most max_numel elements, dtype
 * in allowed, and sometimes (the last choice) one dim of size zero. */
static Type *draw_tensor(OpSolveCtx *cx, int lo, int hi, uint32_t allowed) {
  int64_t shape[IR_MAX_RANK];
  int rank = op_draw_rank(cx, lo, hi < IR_MAX_RANK ? hi : IR_MAX_RANK);
  op_draw_shape(cx, rank, cx->lim->max_numel, shape);
  if (rank > 0 && pick(cx, 8) == 7)
    shape[pick(cx, rank)] = 0;
  return ir_tensor_type(cx->arena, op_draw_dtype(cx, allowed), rank, shape);
}

/* True when a sampler may draw tensors of rank >= lo at all. */
static bool can_sample(OpSolveCtx *cx, int lo) {
  return rank_cap(cx->lim) >= lo && cx->lim->max_numel >= 1 && (cx->lim->dtypes & OP_ALL);
}

/* Sample by drawing a result type of rank >= lo and solving for it. */
static bool sample_via(OpSolveFn solve, OpRelFn rel, OpId op, OpSolveCtx *cx, OpSig *sig, int lo) {
  if (!can_sample(cx, lo))
    return false;
  Type *t = draw_tensor(cx, lo, rank_cap(cx->lim), OP_ALL);
  return solve(op, t, cx, sig) && finish(rel, op, cx, sig);
}

/* ----------------------------------------------------------- reshape */

/* Draw a factorisation of n > 0 into a shape of dims <= max_dim; returns
 * its rank, or -1 when the last factor comes out above max_dim. */
static int draw_factors(OpSolveCtx *cx, int64_t n, int64_t *shape) {
  int r = op_draw_rank(cx, n == 1 ? 0 : 1, rank_cap(cx->lim));
  int64_t rem = n;
  for (int i = 0; i + 1 < r; i++) {
    int64_t divs[64];
    int nd = 0;
    for (int64_t d = 1; d <= rem && d <= cx->lim->max_dim && nd < 64; d++)
      if (rem % d == 0)
        divs[nd++] = d;
    if (nd == 0)
      return -1;
    shape[i] = divs[pick(cx, nd)];
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
  while (j < r) {
    int opts[6], k = 0, left = rin - src;
    if (out[j] > 0)
      opts[k++] = LIT;
    if (src < rin && in[src] == out[j])
      opts[k++] = COPY;
    if (!inferred && n == j)
      opts[k++] = INFER;
    if (left > 0 && left <= r - j && memcmp(in + src, out + j, sizeof(int64_t) * (size_t)left) == 0)
      opts[k++] = REST;
    if (left >= 2 && in[src] * in[src + 1] == out[j])
      opts[k++] = MERGE;
    if (left >= 1 && j + 1 < r && out[j] * out[j + 1] == in[src])
      opts[k++] = SPLIT;
    if (k == 0)
      return -1;
    switch (opts[pick(cx, k)]) {
    case LIT: ns[n++] = out[j++], src++; break;
    case COPY: ns[n++] = 0, j++, src++; break;
    case INFER: ns[n++] = -1, j++, src++, inferred = true; break;
    case REST: ns[n++] = -2, j += left, src = rin; break;
    case MERGE: ns[n++] = -3, j++, src += 2; break;
    default: { /* SPLIT: -4 and the two dims, one of them maybe -1 */
      int c = out[j] > 0 && out[j + 1] > 0 ? (int)pick(cx, 3) : 0;
      ns[n++] = -4;
      ns[n++] = c == 1 ? -1 : out[j];
      ns[n++] = c == 2 ? -1 : out[j + 1];
      j += 2, src++;
    }
    }
  }
  return n;
}

/* Fill sig with reshape(in) -> out: a drawn newshape, checked with the
 * relation's inference; plain dims (0 for zero dims, which then sit at the
 * same place in the input) when the draw does not give out exactly. */
static bool reshape_sig(OpSolveCtx *cx, OpSig *sig, DType dt, int rin, const int64_t *in, int r,
                        const int64_t *out) {
  int64_t ns[3 * IR_MAX_RANK], got[IR_MAX_RANK];
  int rg, n = reshape_encode(cx, rin, in, r, out, ns);
  if (n < 0 || reshape_infer(rin, in, n, ns, &rg, got, NULL, 0) != REL_OK || rg != r ||
      memcmp(got, out, sizeof(int64_t) * (size_t)r) != 0) {
    for (n = 0; n < r; n++)
      ns[n] = out[n];
  }
  start(cx, sig, 1, NULL);
  sig->args[0] = ir_tensor_type(cx->arena, dt, rin, in);
  ir_attr_set_ints(cx->arena, &sig->attrs, "newshape", n, ns);
  sig->ret = ir_tensor_type(cx->arena, dt, r, out);
  return true;
}

bool rec_reshape(OpId op, const Type *want, const OpLimits *lim) {
  return fits(want, lim);
}

bool solve_reshape(OpId op, const Type *want, OpSolveCtx *cx, OpSig *sig) {
  int64_t in[IR_MAX_RANK], n;
  if (!fits(want, cx->lim))
    return false;
  int rin = want->tensor.rank, r = rin;
  memcpy(in, want->tensor.shape, sizeof in);
  count_elems(r, want->tensor.shape, &n);
  if (n > 0 && coin(cx)) {
    int64_t f[IR_MAX_RANK];
    int rf = draw_factors(cx, n, f);
    if (rf >= 0)
      rin = rf, memcpy(in, f, sizeof f);
  }
  return reshape_sig(cx, sig, want->tensor.dtype, rin, in, r, want->tensor.shape);
}

bool sample_reshape(OpId op, OpSolveCtx *cx, OpSig *sig) {
  int64_t out[IR_MAX_RANK], n;
  if (!can_sample(cx, 0))
    return false;
  Type *x = draw_tensor(cx, 0, rank_cap(cx->lim), OP_ALL);
  int r = x->tensor.rank;
  memcpy(out, x->tensor.shape, sizeof out);
  count_elems(r, out, &n);
  if (n > 0) {
    int64_t f[IR_MAX_RANK];
    int rf = draw_factors(cx, n, f);
    if (rf >= 0)
      r = rf, memcpy(out, f, sizeof f);
  }
  return reshape_sig(cx, sig, x->tensor.dtype, x->tensor.rank, x->tensor.shape, r, out) &&
         finish(rel_reshape, op, cx, sig);
}

/* --------------------------------------------------------- transpose */

bool rec_transpose(OpId op, const Type *want, const OpLimits *lim) {
  return fits(want, lim);
}

bool solve_transpose(OpId op, const Type *want, OpSolveCtx *cx, OpSig *sig) {
  int perm[IR_MAX_RANK];
  int64_t in[IR_MAX_RANK], axes[IR_MAX_RANK];
  if (!fits(want, cx->lim))
    return false;
  int r = want->tensor.rank;
  bool none = !coin(cx);
  for (int i = 0; i < r; i++)
    perm[i] = none ? r - 1 - i : i;
  for (int i = 0; !none && i + 1 < r; i++) {
    int j = i + (int)pick(cx, r - i), t = perm[i];
    perm[i] = perm[j], perm[j] = t;
  }
  for (int i = 0; i < r; i++) {
    in[perm[i]] = want->tensor.shape[i];
    axes[i] = none ? 0 : enc_axis(cx, perm[i], r);
  }
  start(cx, sig, 1, want);
  sig->args[0] = like(cx->arena, want, r, in);
  if (none)
    ir_attr_set_none(cx->arena, &sig->attrs, "axes");
  else
    ir_attr_set_ints(cx->arena, &sig->attrs, "axes", r, axes);
  return true;
}

bool sample_transpose(OpId op, OpSolveCtx *cx, OpSig *sig) {
  return sample_via(solve_transpose, rel_transpose, op, cx, sig, 0);
}

/* -------------------------------------------------------- expand_dims */

bool rec_expand_dims(OpId op, const Type *want, const OpLimits *lim) {
  return fits(want, lim);
}

bool solve_expand_dims(OpId op, const Type *want, OpSolveCtx *cx, OpSig *sig) {
  int64_t in[IR_MAX_RANK];
  if (!fits(want, cx->lim))
    return false;
  int r = want->tensor.rank, p = (int)pick(cx, r + 1), ones = 0;
  while (p + ones < r && want->tensor.shape[p + ones] == 1)
    ones++;
  int k = (int)pick(cx, ones + 1), rin = 0;
  for (int i = 0; i < r; i++)
    if (i < p || i >= p + k)
      in[rin++] = want->tensor.shape[i];
  start(cx, sig, 1, want);
  sig->args[0] = like(cx->arena, want, rin, in);
  ir_attr_set_int(cx->arena, &sig->attrs, "axis", coin(cx) ? p - rin - 1 : p);
  ir_attr_set_int(cx->arena, &sig->attrs, "num_newaxis", k);
  return true;
}

bool sample_expand_dims(OpId op, OpSolveCtx *cx, OpSig *sig) {
  return sample_via(solve_expand_dims, rel_expand_dims, op, cx, sig, 0);
}

/* ------------------------------------------------------------ squeeze */

bool rec_squeeze(OpId op, const Type *want, const OpLimits *lim) {
  return fits(want, lim);
}

bool solve_squeeze(OpId op, const Type *want, OpSolveCtx *cx, OpSig *sig) {
  int64_t in[IR_MAX_RANK], axes[IR_MAX_RANK];
  bool added[IR_MAX_RANK] = {0}, has_one = false;
  if (!fits(want, cx->lim))
    return false;
  int r = want->tensor.rank, rin = r, u = (int)pick(cx, rank_cap(cx->lim) - r + 1);
  memcpy(in, want->tensor.shape, sizeof in);
  for (int i = 0; i < r; i++)
    has_one |= in[i] == 1;
  for (int k = 0; k < u && rin < IR_MAX_RANK; k++, rin++) {
    int pos = (int)pick(cx, rin + 1);
    memmove(in + pos + 1, in + pos, sizeof(int64_t) * (size_t)(rin - pos));
    memmove(added + pos + 1, added + pos, sizeof(bool) * (size_t)(rin - pos));
    in[pos] = 1, added[pos] = true;
  }
  start(cx, sig, 1, want);
  sig->args[0] = like(cx->arena, want, rin, in);
  if (!has_one && coin(cx)) {
    ir_attr_set_none(cx->arena, &sig->attrs, "axis");
    return true;
  }
  int n = 0;
  for (int i = 0; i < rin; i++)
    if (added[i])
      axes[n++] = enc_axis(cx, i, rin);
  ir_attr_set_ints(cx->arena, &sig->attrs, "axis", n, axes);
  return true;
}

bool sample_squeeze(OpId op, OpSolveCtx *cx, OpSig *sig) {
  return sample_via(solve_squeeze, rel_squeeze, op, cx, sig, 0);
}

/* ------------------------------------------------------- broadcast_to */

bool rec_broadcast_to(OpId op, const Type *want, const OpLimits *lim) {
  return fits(want, lim);
}

bool solve_broadcast_to(OpId op, const Type *want, OpSolveCtx *cx, OpSig *sig) {
  int64_t in[IR_MAX_RANK];
  if (!fits(want, cx->lim))
    return false;
  int r = want->tensor.rank, rin = r - (int)pick(cx, r + 1);
  for (int i = 0; i < rin; i++)
    in[i] = coin(cx) ? 1 : want->tensor.shape[r - rin + i];
  start(cx, sig, 1, want);
  sig->args[0] = like(cx->arena, want, rin, in);
  ir_attr_set_ints(cx->arena, &sig->attrs, "shape", r, want->tensor.shape);
  return true;
}

bool sample_broadcast_to(OpId op, OpSolveCtx *cx, OpSig *sig) {
  return sample_via(solve_broadcast_to, rel_broadcast_to, op, cx, sig, 0);
}

/* ------------------------------------------------------- concatenate */

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
    fields[i] = like(cx->arena, base, r, shape);
  }
  sig->args[0] = ir_tuple_type(cx->arena, n, fields);
  ir_attr_set_int(cx->arena, &sig->attrs, "axis", enc_axis(cx, axis, r));
}

bool rec_concatenate(OpId op, const Type *want, const OpLimits *lim) {
  return fits(want, lim) && want->tensor.rank >= 1;
}

bool solve_concatenate(OpId op, const Type *want, OpSolveCtx *cx, OpSig *sig) {
  int64_t sizes[4];
  if (!rec_concatenate(op, want, cx->lim))
    return false;
  int axis = (int)pick(cx, want->tensor.rank), n = 1 + (int)pick(cx, 4);
  int64_t rem = want->tensor.shape[axis];
  for (int i = 0; i + 1 < n; i++)
    rem -= sizes[i] = pick(cx, rem + 1);
  sizes[n - 1] = rem;
  start(cx, sig, 1, want);
  concat_sig(cx, sig, want, axis, n, sizes);
  return true;
}

bool sample_concatenate(OpId op, OpSolveCtx *cx, OpSig *sig) {
  int64_t sizes[4], others;
  if (!can_sample(cx, 1))
    return false;
  Type *base = draw_tensor(cx, 1, rank_cap(cx->lim), OP_ALL);
  int r = base->tensor.rank, axis = (int)pick(cx, r), n = 1 + (int)pick(cx, 4);
  int64_t saved = base->tensor.shape[axis];
  base->tensor.shape[axis] = 1;
  count_elems(r, base->tensor.shape, &others);
  base->tensor.shape[axis] = saved;
  int64_t budget = others ? cx->lim->max_numel / others : cx->lim->max_dim;
  if (budget > cx->lim->max_dim)
    budget = cx->lim->max_dim; /* the result's axis is invented too */
  for (int i = 0; i < n; i++)
    budget -= sizes[i] = pick(cx, budget + 1);
  start(cx, sig, 1, NULL);
  concat_sig(cx, sig, base, axis, n, sizes);
  return finish(rel_concatenate, op, cx, sig);
}

/* -------------------------------------------------------------- stack */

/* Fill sig with stack of n copies of base along axis. */
static void stack_sig(OpSolveCtx *cx, OpSig *sig, Type *base, int axis, int n) {
  Type *fields[MAX_PIECES];
  for (int i = 0; i < n; i++)
    fields[i] = base;
  sig->args[0] = ir_tuple_type(cx->arena, n, fields);
  ir_attr_set_int(cx->arena, &sig->attrs, "axis", enc_axis(cx, axis, base->tensor.rank + 1));
}

bool rec_stack(OpId op, const Type *want, const OpLimits *lim) {
  if (!fits(want, lim))
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
  int axis = cand[pick(cx, nc)], rin = 0;
  for (int i = 0; i < r; i++)
    if (i != axis)
      in[rin++] = want->tensor.shape[i];
  start(cx, sig, 1, want);
  stack_sig(cx, sig, like(cx->arena, want, rin, in), axis, (int)want->tensor.shape[axis]);
  return true;
}

bool sample_stack(OpId op, OpSolveCtx *cx, OpSig *sig) {
  int64_t numel;
  if (!can_sample(cx, 1))
    return false;
  Type *base = draw_tensor(cx, 0, rank_cap(cx->lim) - 1, OP_ALL);
  count_elems(base->tensor.rank, base->tensor.shape, &numel);
  int64_t most = numel ? cx->lim->max_numel / numel : 4;
  if (most > cx->lim->max_dim)
    most = cx->lim->max_dim;
  int n = 1 + (int)pick(cx, most < 4 ? most : 4);
  start(cx, sig, 1, NULL);
  stack_sig(cx, sig, base, (int)pick(cx, base->tensor.rank + 1), n);
  return finish(rel_stack, op, cx, sig);
}

/* -------------------------------------------------------------- split */

/* Which axes split can produce the tuple type want along: modes[a] has
 * bit 1 when equal sections give it and bit 2 when indices do (0: not
 * along a).  Returns the fields' rank, or -1 when want is no candidate. */
static int split_modes(const Type *want, const OpLimits *lim, int *modes) {
  if (!want || want->kind != TY_TUPLE || want->tuple.n < 1 || want->tuple.n > MAX_PIECES)
    return -1;
  Type *const *f = want->tuple.fields;
  int n = want->tuple.n, r = fits(f[0], lim) ? f[0]->tensor.rank : -1;
  int64_t dmax = lim->max_dim; /* the input's axis may not exceed it or a wanted dim */
  if (r < 1)
    return -1;
  for (int i = 0; i < n; i++) {
    if (!fits(f[i], lim) || f[i]->tensor.rank != r || f[i]->tensor.dtype != f[0]->tensor.dtype)
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
  int n = want->tuple.n, axis = cand[pick(cx, nc)];
  bool sections = modes[axis] == 1 || (modes[axis] == 3 && !coin(cx));
  int64_t in[IR_MAX_RANK], idx[MAX_PIECES], total = 0;
  for (int i = 0; i < n; i++) {
    total += f[i]->tensor.shape[axis];
    idx[i] = total;
  }
  memcpy(in, f[0]->tensor.shape, sizeof in);
  in[axis] = total;
  start(cx, sig, 1, want);
  sig->args[0] = like(cx->arena, f[0], r, in);
  if (sections)
    ir_attr_set_int(cx->arena, &sig->attrs, "indices_or_sections", n);
  else
    ir_attr_set_ints(cx->arena, &sig->attrs, "indices_or_sections", n - 1, idx);
  ir_attr_set_int(cx->arena, &sig->attrs, "axis", enc_axis(cx, axis, r));
  return true;
}

bool sample_split(OpId op, OpSolveCtx *cx, OpSig *sig) {
  if (!can_sample(cx, 1))
    return false;
  Type *x = draw_tensor(cx, 1, rank_cap(cx->lim), OP_ALL);
  int r = x->tensor.rank, axis = (int)pick(cx, r);
  int64_t d = x->tensor.shape[axis], opts[MAX_PIECES];
  start(cx, sig, 1, NULL);
  sig->args[0] = x;
  if (d > 0 && coin(cx)) { /* indices: each cut point in (0, d) kept or not */
    int n = 0;
    for (int64_t c = 1; c < d && n < MAX_PIECES - 1; c++)
      if (coin(cx))
        opts[n++] = c;
    ir_attr_set_ints(cx->arena, &sig->attrs, "indices_or_sections", n, opts);
  } else { /* sections: a divisor of d (any of 1..4 when d is 0) */
    int n = 0;
    for (int64_t k = 1; k <= MAX_PIECES && n < MAX_PIECES; k++)
      if (d == 0 ? k <= 4 : d % k == 0)
        opts[n++] = k;
    ir_attr_set_int(cx->arena, &sig->attrs, "indices_or_sections", opts[pick(cx, n)]);
  }
  ir_attr_set_int(cx->arena, &sig->attrs, "axis", enc_axis(cx, axis, r));
  return finish(rel_split, op, cx, sig);
}

/* ------------------------------------------------------ strided_slice */

/* A raw index that canon_index takes to c for extent d and a stride of
 * the given sign: c itself, c counted from the end, or a value beyond
 * either end that clamps to c. */
static int64_t enc_index(OpSolveCtx *cx, int64_t c, int64_t d, bool neg) {
  int64_t opts[5];
  int n = 0;
  opts[n++] = c >= 0 ? c : -d - 1;
  if (c >= 0 && c < d)
    opts[n++] = c - d;
  if (c == (neg ? d - 1 : d))
    opts[n++] = d + 2, opts[n++] = INT64_MAX;
  if (c == (neg ? -1 : 0))
    opts[n++] = -d - 3;
  return opts[pick(cx, n)];
}

/* Draw an extent *d <= dmax (dmax >= t) and a slice of it with t
 * elements: raw begin *b, raw end (or size, in size mode) *e, stride *s. */
static void slice_draw(OpSolveCtx *cx, int64_t t, int64_t dmax, bool size_mode, int64_t *d,
                       int64_t *b, int64_t *e, int64_t *s) {
  int64_t m = size_mode ? 1 : 1 + pick(cx, 3), span, o, bc, ec, lo, hi;
  bool neg = !size_mode && coin(cx);
  span = t == 0 ? 0 : (t - 1) * m + 1;
  if (span > dmax)
    m = 1, span = t;
  *d = span + pick(cx, dmax - span + 1);
  o = pick(cx, *d - span + 1); /* the selected elements lie in [o, o + span) */
  if (!neg) {
    bc = o;
    lo = t == 0 ? o : o + span;
    hi = t == 0 ? o : o + t * m < *d ? o + t * m : *d;
  } else {
    bc = o + span - 1;
    lo = t == 0 ? bc : o - m > -1 ? o - m : -1;
    hi = t == 0 ? bc : o - 1;
  }
  ec = lo + pick(cx, hi - lo + 1);
  *s = neg ? -m : m;
  if (size_mode) {
    *b = bc + t < *d && coin(cx) ? bc - *d : bc;
    *e = bc + t == *d && coin(cx) ? -1 : t;
  } else {
    *b = enc_index(cx, bc, *d, neg);
    *e = enc_index(cx, ec, *d, neg);
  }
}

/* a * b for a, b >= 0, saturating at INT64_MAX.  The solver below only
 * saturates before a zero dim of the wanted type, which then keeps the
 * input empty. */
static int64_t mul_sat(int64_t a, int64_t b) {
  int64_t p;
  return __builtin_mul_overflow(a, b, &p) ? INT64_MAX : p;
}

bool rec_strided_slice(OpId op, const Type *want, const OpLimits *lim) {
  return fits(want, lim);
}

bool solve_strided_slice(OpId op, const Type *want, OpSolveCtx *cx, OpSig *sig) {
  int64_t d[IR_MAX_RANK], b[IR_MAX_RANK], e[IR_MAX_RANK], s[IR_MAX_RANK], axes[IR_MAX_RANK];
  int64_t suffix[IR_MAX_RANK + 1], prefix = 1;
  bool listed[IR_MAX_RANK], ones = true;
  if (!fits(want, cx->lim))
    return false;
  int r = want->tensor.rank, n = 0;
  const int64_t *t = want->tensor.shape;
  bool size_mode = pick(cx, 4) == 3, use_axes = coin(cx);
  int nl = use_axes ? 0 : r - (int)pick(cx, r + 1); /* without axes: the first nl */
  suffix[r] = 1;
  for (int i = r - 1; i >= 0; i--)
    suffix[i] = suffix[i + 1] * t[i]; /* a sub-product of a valid shape */
  for (int i = 0; i < r; i++) {
    listed[i] = use_axes ? coin(cx) : i < nl;
    if (!listed[i]) {
      prefix = mul_sat(prefix, d[i] = t[i]);
      continue;
    }
    /* Keep the input within max_numel: prefix * d * suffix <= max_numel. */
    int64_t rest, dmax = t[i] > cx->lim->max_dim ? t[i] : cx->lim->max_dim;
    if (__builtin_mul_overflow(prefix, suffix[i + 1], &rest))
      dmax = t[i]; /* only when t[i] == 0 */
    else if (rest > 0 && cx->lim->max_numel / rest < dmax)
      dmax = cx->lim->max_numel / rest;
    slice_draw(cx, t[i], dmax, size_mode, &d[i], &b[n], &e[n], &s[n]);
    ones &= s[n] == 1;
    axes[n++] = use_axes ? enc_axis(cx, i, r) : i;
    prefix = mul_sat(prefix, d[i]);
  }
  start(cx, sig, 1, want);
  sig->args[0] = like(cx->arena, want, r, d);
  ir_attr_set_ints(cx->arena, &sig->attrs, "begin", n, b);
  ir_attr_set_ints(cx->arena, &sig->attrs, "end", n, e);
  if (ones && coin(cx))
    ir_attr_set_none(cx->arena, &sig->attrs, "strides");
  else
    ir_attr_set_ints(cx->arena, &sig->attrs, "strides", n, s);
  if (use_axes)
    ir_attr_set_ints(cx->arena, &sig->attrs, "axes", n, axes);
  else
    ir_attr_set_none(cx->arena, &sig->attrs, "axes");
  ir_attr_set_str(cx->arena, &sig->attrs, "slice_mode", size_mode ? "size" : "end");
  return true;
}

bool sample_strided_slice(OpId op, OpSolveCtx *cx, OpSig *sig) {
  return sample_via(solve_strided_slice, rel_strided_slice, op, cx, sig, 0);
}

/* --------------------------------------------------------------- take */

/* One of the dtypes in a non-empty mask. */
static DType dtype_in(OpSolveCtx *cx, uint32_t mask) {
  uint32_t k = pick(cx, __builtin_popcount(mask));
  for (int dt = 0; dt < DT_COUNT; dt++)
    if (mask & (1u << dt) && k-- == 0)
      return (DType)dt;
  return DT_INT32;
}

/* The index dtypes a solver for a result of type want may use. */
static uint32_t index_dtypes(const Type *want, const OpLimits *lim) {
  return ((1u << DT_INT32) | (1u << DT_INT64)) & (lim->dtypes | (1u << want->tensor.dtype));
}

/* Set take's attributes: axis (-1: None), batch_dims and a drawn mode. */
static void take_attrs(OpSolveCtx *cx, OpSig *sig, int axis, int rank) {
  static const char *modes[] = {"clip", "wrap", "fast"};
  if (axis < 0)
    ir_attr_set_none(cx->arena, &sig->attrs, "axis");
  else
    ir_attr_set_int(cx->arena, &sig->attrs, "axis", enc_axis(cx, axis, rank));
  ir_attr_set_int(cx->arena, &sig->attrs, "batch_dims", 0);
  ir_attr_set_str(cx->arena, &sig->attrs, "mode", modes[pick(cx, 3)]);
}

bool rec_take(OpId op, const Type *want, const OpLimits *lim) {
  return fits(want, lim) && index_dtypes(want, lim) != 0;
}

bool solve_take(OpId op, const Type *want, OpSolveCtx *cx, OpSig *sig) {
  if (!rec_take(op, want, cx->lim))
    return false;
  int r = want->tensor.rank;
  const int64_t *t = want->tensor.shape;
  DType idt = dtype_in(cx, index_dtypes(want, cx->lim));
  start(cx, sig, 2, want);
  if (!coin(cx) || rank_cap(cx->lim) < 1) { /* axis None: any data, indices shaped like want */
    sig->args[0] = draw_tensor(cx, 0, rank_cap(cx->lim), 1u << want->tensor.dtype);
    sig->args[1] = ir_tensor_type(cx->arena, idt, r, t);
    take_attrs(cx, sig, -1, 0);
    return true;
  }
  /* want = data[:a] + indices + data[a+1:], data of rank rd. */
  int rd = 1 + (int)pick(cx, r + 1 < rank_cap(cx->lim) ? r + 1 : rank_cap(cx->lim));
  int a = (int)pick(cx, rd), ri = r - rd + 1, k = 0;
  int64_t ds[IR_MAX_RANK], others = 1, dmax = cx->lim->max_dim;
  for (int i = 0; i < a; i++)
    ds[k++] = t[i];
  ds[k++] = 0; /* the taken axis, drawn below */
  for (int i = a + ri; i < r; i++)
    ds[k++] = t[i];
  for (int i = 0; i < rd; i++)
    others *= i == a ? 1 : ds[i]; /* a sub-product of want's valid shape */
  if (others > 0 && cx->lim->max_numel / others < dmax)
    dmax = cx->lim->max_numel / others;
  ds[a] = dmax < 1 ? 0 : 1 + pick(cx, dmax);
  sig->args[0] = like(cx->arena, want, rd, ds);
  sig->args[1] = ir_tensor_type(cx->arena, idt, ri, t + a);
  take_attrs(cx, sig, a, rd);
  return true;
}

bool sample_take(OpId op, OpSolveCtx *cx, OpSig *sig) {
  uint32_t mask = ((1u << DT_INT32) | (1u << DT_INT64)) & cx->lim->dtypes;
  int64_t ishape[IR_MAX_RANK], others = 1;
  if (!can_sample(cx, 0) || !mask)
    return false;
  Type *x = draw_tensor(cx, 0, rank_cap(cx->lim), OP_ALL);
  int rd = x->tensor.rank, a = rd >= 1 && coin(cx) ? (int)pick(cx, rd) : -1;
  for (int i = 0; a >= 0 && i < rd; i++)
    others *= i == a ? 1 : x->tensor.shape[i];
  int ri = op_draw_rank(cx, 0, a >= 0 ? rank_cap(cx->lim) - rd + 1 : rank_cap(cx->lim));
  op_draw_shape(cx, ri, others ? cx->lim->max_numel / others : cx->lim->max_numel, ishape);
  if (ri > 0 && pick(cx, 8) == 7)
    ishape[pick(cx, ri)] = 0;
  start(cx, sig, 2, NULL);
  sig->args[0] = x;
  sig->args[1] = ir_tensor_type(cx->arena, dtype_in(cx, mask), ri, ishape);
  take_attrs(cx, sig, a, rd);
  return finish(rel_take, op, cx, sig);
}

/* --------------------------------------------------------------- tile */

/* Up to 64 divisors of n > 0, 1 first. */
static int divisors(int64_t n, int64_t *out) {
  int k = 0;
  for (int64_t d = 1; d <= n / d && k < 63; d++)
    if (n % d == 0) {
      out[k++] = d;
      if (d != n / d)
        out[k++] = n / d;
    }
  return k;
}

bool rec_tile(OpId op, const Type *want, const OpLimits *lim) {
  return fits(want, lim);
}

bool solve_tile(OpId op, const Type *want, OpSolveCtx *cx, OpSig *sig) {
  int64_t data[IR_MAX_RANK], reps[IR_MAX_RANK], divs[64];
  if (!fits(want, cx->lim))
    return false;
  int r = want->tensor.rank, rd = r, k;
  const int64_t *t = want->tensor.shape;
  if (!coin(cx)) { /* reps for the last k axes */
    k = (int)pick(cx, r + 1);
  } else { /* reps for every axis; leading data dims of 1 may be left out */
    int lead = 0;
    k = r;
    while (lead < r && t[lead] >= 1)
      lead++;
    rd = r - (int)pick(cx, lead + 1);
  }
  for (int i = 0; i < r; i++) {
    int di = i - (r - rd), ri = i - (r - k);
    int64_t rep = 1;
    if (di < 0)
      rep = t[i];
    else if (ri >= 0 && t[i] == 0)
      rep = 1 + pick(cx, 3);
    else if (ri >= 0)
      rep = divs[pick(cx, divisors(t[i], divs))];
    if (di >= 0)
      data[di] = t[i] / rep;
    if (ri >= 0)
      reps[ri] = rep;
  }
  start(cx, sig, 1, want);
  sig->args[0] = like(cx->arena, want, rd, data);
  ir_attr_set_ints(cx->arena, &sig->attrs, "reps", k, reps);
  return true;
}

bool sample_tile(OpId op, OpSolveCtx *cx, OpSig *sig) {
  return sample_via(solve_tile, rel_tile, op, cx, sig, 0);
}

/* ------------------------------------------------------------ reverse */

bool rec_reverse(OpId op, const Type *want, const OpLimits *lim) {
  return fits(want, lim) && want->tensor.rank >= 1;
}

bool solve_reverse(OpId op, const Type *want, OpSolveCtx *cx, OpSig *sig) {
  if (!rec_reverse(op, want, cx->lim))
    return false;
  int r = want->tensor.rank;
  start(cx, sig, 1, want);
  sig->args[0] = ir_type_copy(cx->arena, want);
  ir_attr_set_int(cx->arena, &sig->attrs, "axis", enc_axis(cx, (int)pick(cx, r), r));
  return true;
}

bool sample_reverse(OpId op, OpSolveCtx *cx, OpSig *sig) {
  return sample_via(solve_reverse, rel_reverse, op, cx, sig, 1);
}

/* ------------------------------------------------- creation operators */

/* Set the shape and dtype attributes of zeros, ones and full to want's. */
static void fill_attrs(OpSolveCtx *cx, OpSig *sig, const Type *want) {
  ir_attr_set_ints(cx->arena, &sig->attrs, "shape", want->tensor.rank, want->tensor.shape);
  ir_attr_set_str(cx->arena, &sig->attrs, "dtype", ir_dtype_name(want->tensor.dtype));
}

bool rec_fill(OpId op, const Type *want, const OpLimits *lim) {
  return fits(want, lim);
}

bool solve_fill(OpId op, const Type *want, OpSolveCtx *cx, OpSig *sig) {
  if (!fits(want, cx->lim))
    return false;
  start(cx, sig, 0, want);
  fill_attrs(cx, sig, want);
  return true;
}

bool sample_fill(OpId op, OpSolveCtx *cx, OpSig *sig) {
  return sample_via(solve_fill, rel_fill, op, cx, sig, 0);
}

bool rec_full(OpId op, const Type *want, const OpLimits *lim) {
  return fits(want, lim);
}

bool solve_full(OpId op, const Type *want, OpSolveCtx *cx, OpSig *sig) {
  if (!fits(want, cx->lim))
    return false;
  DType dt = want->tensor.dtype;
  if (coin(cx)) /* a fill value of another dtype, converted */
    dt = dtype_in(cx, (cx->lim->dtypes & OP_ALL) | (1u << dt));
  start(cx, sig, 1, want);
  sig->args[0] = ir_scalar_type(cx->arena, dt);
  fill_attrs(cx, sig, want);
  return true;
}

bool sample_full(OpId op, OpSolveCtx *cx, OpSig *sig) {
  return sample_via(solve_full, rel_full, op, cx, sig, 0);
}

bool rec_unary_like(OpId op, const Type *want, const OpLimits *lim) {
  return fits(want, lim);
}

bool solve_unary_like(OpId op, const Type *want, OpSolveCtx *cx, OpSig *sig) {
  if (!fits(want, cx->lim))
    return false;
  start(cx, sig, 1, want);
  sig->args[0] = ir_type_copy(cx->arena, want);
  return true;
}

bool sample_unary_like(OpId op, OpSolveCtx *cx, OpSig *sig) {
  return sample_via(solve_unary_like, rel_unary_like, op, cx, sig, 0);
}
