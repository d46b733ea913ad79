/*
 * bad_relations.c - deliberately wrong relations, compiled only into the
 * test build (RS_TEST_PASSES), as compiler/passes/bad_passes.c is for
 * passes.  Each of the first four accepts argument types its operator's
 * relation rejects, so the test suite can prove that the reject_fuzzer's
 * soundness oracle finds a relation that is too lenient:
 *   bad_broadcast     a broadcast that takes the first operand's dimension
 *                     where the two differ and neither is 1
 *   bad_reduce_axis   a reduction that wraps an out-of-range axis modulo
 *                     the rank instead of rejecting it
 *   bad_reshape       a reshape to positive sizes whose product is not
 *                     the tensor's element count
 *   bad_concatenate   a concatenate that takes field 0's dimensions outside
 *                     the axis for every field
 *   bad_any_as_one    a broadcast that takes an Any dim for 1: ? with 1 or
 *                     ? gives 1 (not ?).  This one rejects nothing, it
 *                     narrows a type: a program with an Any dim whose value
 *                     is not 1 there shows it (the soundness oracle's
 *                     outputs against the call's inferred type)
 *   bad_gather_axis   a gather whose result takes its dim along axis from
 *                     the data instead of the indices (where they differ):
 *                     like bad_any_as_one it gives another answer on
 *                     well-typed programs, which the type checker's
 *                     disagreement with the generator's solver shows
 *
 * op_relate (what the type checker calls, and the interpreter for its
 * bookkeeping) runs the wrong relation op_test_fault names; op_eval keeps
 * the operator's own relation for the shapes of the kernel's outputs, as
 * a kernel written apart from its type relation would, so a program the
 * wrong relation lets through meets the right one when it runs: the
 * interpreter's EV_INVALID, naming the operator.  Where the operator's own
 * relation accepts, each wrong one gives its answer, so no well-typed
 * program can tell them apart: only a near-valid one, which the generator
 * never makes and the break stage (generator/breaker.h) does (bad_any_as_one
 * aside: it gives another answer on Any dims).
 */
#ifdef RS_TEST_PASSES

#include <string.h>

#include "op.h"

OpFault op_test_fault;

static const char *const fault_names[OP_FAULT_COUNT] = {
    [OP_FAULT_BROADCAST] = "bad_broadcast",   [OP_FAULT_REDUCE_AXIS] = "bad_reduce_axis",
    [OP_FAULT_RESHAPE] = "bad_reshape",       [OP_FAULT_CONCATENATE] = "bad_concatenate",
    [OP_FAULT_ANY_AS_ONE] = "bad_any_as_one", [OP_FAULT_GATHER_AXIS] = "bad_gather_axis",
};

bool op_fault_lookup(const char *name, OpFault *out) {
  for (int f = 1; f < OP_FAULT_COUNT; f++)
    if (strcmp(fault_names[f], name) == 0) {
      *out = (OpFault)f;
      return true;
    }
  return false;
}

const char *op_fault_name(OpFault f) {
  return f > OP_FAULT_NONE && f < OP_FAULT_COUNT ? fault_names[f] : "none";
}

/* A copy of tensor type t in a. */
static Type *copy(Arena *a, const Type *t) {
  return ir_tensor_type(a, t->tensor.dtype, t->tensor.rank, t->tensor.shape);
}

/* bad_broadcast: the second operand's dimensions that do not broadcast
 * with the first's (aligned from the right) become the first's. */
static bool bad_broadcast(OpId op, Type *const *args, int nargs, const Attrs *at, Arena *a,
                          Type **out, char *err, size_t errlen, RelStatus *st) {
  if (op_table[op].rel != rel_broadcast || nargs != 2 || args[0]->kind != TY_TENSOR ||
      args[1]->kind != TY_TENSOR)
    return false;
  const Type *x = args[0];
  Type *y = copy(a, args[1]);
  bool changed = false;
  for (int i = 1; i <= x->tensor.rank && i <= y->tensor.rank; i++) {
    int64_t *dy = &y->tensor.shape[y->tensor.rank - i], dx = x->tensor.shape[x->tensor.rank - i];
    if (*dy != dx && *dy != 1 && dx != 1 && !ir_dim_is_any(*dy) && !ir_dim_is_any(dx))
      *dy = dx, changed = true;
  }
  Type *args2[2] = {args[0], y};
  return changed && (*st = rel_broadcast(op, args2, 2, at, a, out, err, errlen), true);
}

/* bad_any_as_one: an operand's Any dims read as 1. */
static bool bad_any_as_one(OpId op, Type *const *args, int nargs, const Attrs *at, Arena *a,
                           Type **out, char *err, size_t errlen, RelStatus *st) {
  if (op_table[op].rel != rel_broadcast || nargs != 2 || args[0]->kind != TY_TENSOR ||
      args[1]->kind != TY_TENSOR)
    return false;
  Type *xy[2] = {copy(a, args[0]), copy(a, args[1])};
  bool changed = false;
  for (int k = 0; k < 2; k++)
    for (int i = 0; i < xy[k]->tensor.rank; i++)
      if (ir_dim_is_any(xy[k]->tensor.shape[i]))
        xy[k]->tensor.shape[i] = 1, changed = true;
  return changed && (*st = rel_broadcast(op, xy, 2, at, a, out, err, errlen), true);
}

/* bad_reduce_axis: axes out of [-rank, rank) taken modulo the rank. */
static bool bad_reduce_axis(OpId op, Type *const *args, int nargs, const Attrs *at, Arena *a,
                            Type **out, char *err, size_t errlen, RelStatus *st) {
  OpRelFn rel = op_table[op].rel;
  const Attr *ax = ir_attr_get(at, "axis");
  if ((rel != rel_reduce && rel != rel_argreduce) || nargs != 1 || args[0]->kind != TY_TENSOR ||
      !ax || ax->kind != AV_INTS || args[0]->tensor.rank == 0)
    return false;
  int64_t r = args[0]->tensor.rank, v[64];
  bool changed = false;
  for (int i = 0; i < ax->n && i < 64; i++) {
    v[i] = ax->ints[i];
    if (v[i] < -r || v[i] >= r)
      v[i] = (v[i] % r + r) % r, changed = true;
  }
  if (!changed || ax->n > 64)
    return false;
  Attrs at2 = ir_attrs_copy(a, at);
  ir_attr_set_ints(a, &at2, "axis", ax->n, v);
  *st = rel(op, args, nargs, &at2, a, out, err, errlen);
  return true;
}

/* bad_reshape: positive sizes are taken as they are, whatever the count. */
static bool bad_reshape(OpId op, Type *const *args, int nargs, const Attrs *at, Arena *a,
                        Type **out, char *err, size_t errlen, RelStatus *st) {
  const Attr *ns = ir_attr_get(at, "newshape");
  if (op != OP_RESHAPE || nargs != 1 || args[0]->kind != TY_TENSOR || !ns || ns->kind != AV_INTS ||
      ns->n > IR_MAX_RANK)
    return false;
  int64_t n = 1;
  for (int i = 0; i < ns->n; i++)
    if (ns->ints[i] < 1 || __builtin_mul_overflow(n, ns->ints[i], &n) || n > 1 << 20)
      return false;
  if (n == ir_type_numel(args[0]))
    return false;
  *out = ir_tensor_type(a, args[0]->tensor.dtype, ns->n, ns->ints);
  *st = REL_OK;
  return true;
}

/* bad_concatenate: each field's dimensions outside the axis become field
 * 0's. */
static bool bad_concatenate(OpId op, Type *const *args, int nargs, const Attrs *at, Arena *a,
                            Type **out, char *err, size_t errlen, RelStatus *st) {
  if (op != OP_CONCATENATE || nargs != 1 || args[0]->kind != TY_TUPLE || args[0]->tuple.n < 2)
    return false;
  const Type *t = args[0];
  const Type *f0 = t->tuple.fields[0];
  int64_t axis = ir_attr_int(at, "axis", 0);
  if (f0->kind != TY_TENSOR || f0->tensor.rank == 0 || axis < -f0->tensor.rank ||
      axis >= f0->tensor.rank)
    return false;
  if (axis < 0)
    axis += f0->tensor.rank;
  Type **fs = ARENA_ARRAY(a, Type *, t->tuple.n);
  bool changed = false;
  for (int i = 0; i < t->tuple.n; i++) {
    const Type *f = t->tuple.fields[i];
    if (f->kind != TY_TENSOR || f->tensor.rank != f0->tensor.rank)
      return false;
    fs[i] = copy(a, f);
    for (int d = 0; d < f0->tensor.rank; d++)
      if (d != axis && fs[i]->tensor.shape[d] != f0->tensor.shape[d])
        fs[i]->tensor.shape[d] = f0->tensor.shape[d], changed = true;
  }
  if (!changed)
    return false;
  Type *args2[1] = {ir_tuple_type(a, t->tuple.n, fs)};
  *st = rel_concatenate(op, args2, 1, at, a, out, err, errlen);
  return true;
}

/* bad_gather_axis: gather's result along axis is the data's dim, not the
 * indices' (the right relation decides everything else). */
static bool bad_gather_axis(OpId op, Type *const *args, int nargs, const Attrs *at, Arena *a,
                            Type **out, char *err, size_t errlen, RelStatus *st) {
  const Attr *ax = ir_attr_get(at, "axis");
  if (op != OP_GATHER || nargs != 2 || args[0]->kind != TY_TENSOR || !ax || ax->kind != AV_INT ||
      rel_gather(op, args, nargs, at, a, out, err, errlen) != REL_OK)
    return false;
  int r = args[0]->tensor.rank;
  int64_t axis = ax->i < 0 ? ax->i + r : ax->i;
  if ((*out)->tensor.shape[axis] == args[0]->tensor.shape[axis])
    return false;
  *out = copy(a, *out);
  (*out)->tensor.shape[axis] = args[0]->tensor.shape[axis];
  *st = REL_OK;
  return true;
}

bool op_bad_relate(OpId op, Type *const *args, int nargs, const Attrs *at, Arena *a, Type **out,
                   char *err, size_t errlen, RelStatus *st) {
  switch (op_test_fault) {
  case OP_FAULT_BROADCAST: return bad_broadcast(op, args, nargs, at, a, out, err, errlen, st);
  case OP_FAULT_REDUCE_AXIS: return bad_reduce_axis(op, args, nargs, at, a, out, err, errlen, st);
  case OP_FAULT_RESHAPE: return bad_reshape(op, args, nargs, at, a, out, err, errlen, st);
  case OP_FAULT_CONCATENATE: return bad_concatenate(op, args, nargs, at, a, out, err, errlen, st);
  case OP_FAULT_ANY_AS_ONE: return bad_any_as_one(op, args, nargs, at, a, out, err, errlen, st);
  case OP_FAULT_GATHER_AXIS: return bad_gather_axis(op, args, nargs, at, a, out, err, errlen, st);
  default: return false;
  }
}

#endif
