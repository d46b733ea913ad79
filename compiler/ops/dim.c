/*
 * dim.c - how a relation sees an Any dim (IR_DIM_ANY, `?`): the few
 * helpers every relation uses alike (op_int.h, "dims"; the rules and how
 * to write a relation with them: docs/operators.md, "Dynamic
 * dimensions").  The rules follow TVM's relations: a constraint is
 * checked statically only where every dim in it is static; a result dim
 * that depends on an Any dim is Any; where dims must be equal the result
 * takes the static one.  What is not checked here is checked when the
 * program runs: the interpreter runs the same relation on the arguments'
 * concrete types (op_eval), and a failure there is a run-time error
 * naming the operator.
 */
#include "op_int.h"

bool op_dims_match(int64_t a, int64_t b) {
  return a == b || op_dim_any(a) || op_dim_any(b);
}

int64_t op_dim_meet(int64_t a, int64_t b) {
  return op_dim_any(a) ? b : a;
}

bool op_dim_bcast(int64_t a, int64_t b, int64_t *out) {
  if (op_dim_any(a) || op_dim_any(b)) {
    int64_t other = op_dim_any(a) ? b : a;
    *out = other == 1 ? IR_DIM_ANY : other; /* TVM: ? and 1 give ?, ? and d give d */
    return true;
  }
  if (a != b && a != 1 && b != 1)
    return false;
  *out = a == 1 ? b : a;
  return true;
}

bool op_dim_add(int64_t a, int64_t b, int64_t *out) {
  if (op_dim_any(a) || op_dim_any(b)) {
    *out = IR_DIM_ANY;
    return true;
  }
  return !__builtin_add_overflow(a, b, out);
}

bool op_dim_mul(int64_t a, int64_t b, int64_t *out) {
  if (op_dim_any(a) || op_dim_any(b)) {
    *out = IR_DIM_ANY;
    return true;
  }
  return !__builtin_mul_overflow(a, b, out);
}

bool op_shape_static(int rank, const int64_t *shape) {
  for (int i = 0; i < rank; i++)
    if (op_dim_any(shape[i]))
      return false;
  return true;
}

bool op_count_static(int rank, const int64_t *shape, int64_t *out) {
  int64_t s[IR_MAX_RANK];
  if (rank < 0 || rank > IR_MAX_RANK)
    return false;
  for (int i = 0; i < rank; i++)
    s[i] = op_dim_any(shape[i]) ? 1 : shape[i];
  return op_count_elems(rank, s, out);
}
