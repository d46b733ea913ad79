/*
 * registry.c - the operator table expanded from ops.def, and the two
 * entry points the rest of relayc uses: op_relate and op_eval.
 */
#include <stdio.h>
#include <string.h>

#include "op_int.h"

const OpInfo op_table[OP_COUNT] = {
#define OP(id, name, family, pattern, schema, sem, rel, rec, solve, sample, kernel)                \
  {name, #family, OPAT_##pattern, schema, sem, rel, rec, solve, sample, kernel},
#include "ops.def"
#undef OP
};

/* Small enough that every kernel runs in well under a millisecond. */
const OpLimits op_default_limits = {
    .max_rank = 4,
    .max_dim = 8,
    .max_numel = 256,
    .max_flops = 16384,
    .dtypes = (1u << DT_COUNT) - 1,
};

const char *op_pattern_name(OpPattern p) {
  static const char *names[] = {
      "elemwise", "broadcast", "injective", "comm_reduce", "out_elemwise_fusable", "opaque"};
  return names[p];
}

/* op's relation (or, when wrong, the test build's wrong one), its
 * message prefixed with the operator's name. */
static RelStatus relate(OpId op, Type *const *args, int nargs, const Attrs *at, Arena *a,
                        Type **out, char *err, size_t errlen, bool wrong) {
  char msg[256];
  msg[0] = 0;
  RelStatus st;
#ifdef RS_TEST_PASSES
  if (!(wrong && op_test_fault && op_bad_relate(op, args, nargs, at, a, out, msg, sizeof msg, &st)))
#endif
    st = op_table[op].rel(op, args, nargs, at, a, out, msg, sizeof msg);
  if (st == REL_ERROR && err && errlen)
    snprintf(err, errlen, "%s: %s", op_table[op].name, msg[0] ? msg : "ill-typed arguments");
  return st;
}

RelStatus op_relate(OpId op, Type *const *args, int nargs, const Attrs *at, Arena *a, Type **out,
                    char *err, size_t errlen) {
  return relate(op, args, nargs, at, a, out, err, errlen, true);
}

/* Flatten a result type into tensor types: a tensor is one, a tuple of
 * tensors is its fields. */
static int flatten(Type *t, Type **outs, int max) {
  if (t->kind == TY_TENSOR) {
    if (max < 1)
      return -1;
    outs[0] = t;
    return 1;
  }
  if (t->kind != TY_TUPLE || t->tuple.n > max)
    return -1;
  for (int i = 0; i < t->tuple.n; i++) {
    if (t->tuple.fields[i]->kind != TY_TENSOR)
      return -1;
    outs[i] = t->tuple.fields[i];
  }
  return t->tuple.n;
}

bool op_value_typed(OpId op) {
  return op == OP_ARANGE;
}

RelStatus op_value_type(OpId op, Tensor *const *args, int nargs, Arena *a, Type *ret, Type **out,
                        char *err, size_t errlen) {
  *out = ret;
  switch (op) {
  case OP_ARANGE: return op_arange_type(args, nargs, a, out, err, errlen);
  default: return REL_OK;
  }
}

int op_eval(OpId op, Tensor *const *args, int nargs, const Attrs *at, Arena *a, Tensor **outs,
            int max_outs, char *err, size_t errlen) {
  /* Rebuild the argument types the relation expects: concatenate and
   * stack take one tuple of all their tensors. */
  Type *targs[OP_MAX_ARGS];
  Type *fields[64];
  int ntargs;
  if (op == OP_CONCATENATE || op == OP_STACK || op == OP_EINSUM) {
    if (nargs > 64) {
      snprintf(err, errlen, "%s: too many tensors", op_table[op].name);
      return -1;
    }
    for (int i = 0; i < nargs; i++)
      fields[i] = ir_tensor_type_of(a, args[i]);
    targs[0] = ir_tuple_type(a, nargs, fields);
    ntargs = 1;
  } else {
    if (nargs > OP_MAX_ARGS) {
      snprintf(err, errlen, "%s: too many arguments", op_table[op].name);
      return -1;
    }
    for (int i = 0; i < nargs; i++)
      targs[i] = ir_tensor_type_of(a, args[i]);
    ntargs = nargs;
  }
  Type *ret;
  if (relate(op, targs, ntargs, at, a, &ret, err, errlen, false) != REL_OK)
    return -1;
  if (op_value_type(op, args, nargs, a, ret, &ret, err, errlen) != REL_OK)
    return -1;
  Type *outty[64];
  int nouts = flatten(ret, outty, max_outs < 64 ? max_outs : 64);
  if (nouts < 0) {
    snprintf(err, errlen, "%s: result is not a tensor or tuple of tensors", op_table[op].name);
    return -1;
  }
  for (int i = 0; i < nouts; i++)
    outs[i] = ir_tensor_of_type(a, outty[i]);
  op_table[op].kernel(op, args, nargs, at, outs, nouts, a);
  return nouts;
}
