/*
 * check.c - the entry points that check with the operator registry's
 * relations (op_relate).  Kept apart from infer.c so that tests of the
 * solver can link without the operator families.
 */
#include "typing.h"

bool ty_check_module(Module *m, Diag *d) {
  return ty_check_module_with(m, d, op_relate);
}

bool ty_check_expr(Module *m, Expr *e, Diag *d) {
  return ty_check_expr_with(m, e, d, op_relate);
}
