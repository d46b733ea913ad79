/*
 * defect.c - negative inputs at the MLIR level (session.h, mls_defect):
 * one deliberate defect put into a valid module through the C API, which
 * the verifier must then reject.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mlir-c/BuiltinAttributes.h"
#include "mlir-c/BuiltinTypes.h"

#include "session_int.h"

typedef struct Pick {
  MlsDefect kind;
  MlirOperation op[256]; /* candidate ops, in walk order */
  int n;
} Pick;

static bool is_tosa(MlirOperation op) {
  MlirStringRef name = mlirIdentifierStr(mlirOperationGetName(op));
  return name.length > 5 && !strncmp(name.data, "tosa.", 5) &&
         !(name.length == 10 && !strncmp(name.data, "tosa.yield", 10));
}

static bool ranked_result(MlirOperation op) {
  return mlirOperationGetNumResults(op) > 0 &&
         mlirTypeIsARankedTensor(mlirValueGetType(mlirOperationGetResult(op, 0)));
}

/* The last static dim of the ranked tensor type t, or -1 (rank 0: 0). */
static intptr_t last_static(MlirType t) {
  intptr_t i = mlirShapedTypeGetRank(t) - 1;
  while (i >= 0 && mlirShapedTypeIsDynamicDim(t, i))
    i--;
  return mlirShapedTypeGetRank(t) ? i : 0;
}

/* The ops a defect of p->kind can go into. */
static MlirWalkResult collect(MlirOperation op, void *ud) {
  Pick *p = ud;
  if (p->n == (int)(sizeof p->op / sizeof *p->op) || !is_tosa(op))
    return MlirWalkResultAdvance;
  /* A wrong shape changes a static dim: a `?` has no size to change. */
  bool fits = p->kind == MLS_DEFECT_ATTRIBUTE
                  ? !mlirAttributeIsNull(
                        mlirOperationGetAttributeByName(op, mlirStringRefCreateFromCString("axis")))
                  : ranked_result(op) &&
                        (p->kind != MLS_DEFECT_SHAPE ||
                         last_static(mlirValueGetType(mlirOperationGetResult(op, 0))) >= 0);
  if (fits)
    p->op[p->n++] = op;
  return MlirWalkResultAdvance;
}

/* The type t with its shape or element type changed as kind says. */
static MlirType changed_type(MlirContext ctx, MlirType t, MlsDefect kind) {
  intptr_t rank = mlirShapedTypeGetRank(t);
  int64_t shape[IR_MAX_RANK + 1];
  for (intptr_t i = 0; i < rank && i < IR_MAX_RANK; i++)
    shape[i] = mlirShapedTypeGetDimSize(t, i);
  MlirType elt = mlirShapedTypeGetElementType(t);
  MlirAttribute none = mlirAttributeGetNull();
  switch (kind) {
  case MLS_DEFECT_SHAPE:
    if (rank == 0)
      return mlirRankedTensorTypeGet(1, (int64_t[]){2}, elt, none);
    shape[last_static(t)] += 1;
    return mlirRankedTensorTypeGet(rank, shape, elt, none);
  case MLS_DEFECT_RANK:
    memmove(shape + 1, shape, (size_t)rank * sizeof *shape);
    shape[0] = 1;
    return mlirRankedTensorTypeGet(rank + 1, shape, elt, none);
  default: /* MLS_DEFECT_DTYPE */
    elt = mlirTypeIsAF32(elt) ? mlirIntegerTypeGet(ctx, 32) : mlirF32TypeGet(ctx);
    return mlirRankedTensorTypeGet(rank, shape, elt, none);
  }
}

bool mls_defect(MlsSession *s, MlsModule *m, MlsDefect kind, uint32_t pick, char *what,
                size_t len) {
  Pick p = {.kind = kind};
  mlirOperationWalk(mlirModuleGetOperation(m->mod), collect, &p, MlirWalkPreOrder);
  if (!p.n) {
    snprintf(what, len, "no op to put the defect in");
    return false;
  }
  MlirOperation op = p.op[pick % (uint32_t)p.n];
  MlirStringRef name = mlirIdentifierStr(mlirOperationGetName(op));
  if (kind == MLS_DEFECT_ATTRIBUTE) {
    /* An axis beyond the operand's rank. */
    MlirAttribute axis =
        mlirOperationGetAttributeByName(op, mlirStringRefCreateFromCString("axis"));
    MlirType at = mlirAttributeGetType(axis);
    mlirOperationSetAttributeByName(op, mlirStringRefCreateFromCString("axis"),
                                    mlirIntegerAttrGet(at, 7 + (int64_t)(pick % 3)));
    snprintf(what, len, "%.*s: axis = %d (out of range)", (int)name.length, name.data,
             7 + (int)(pick % 3));
    return true;
  }
  MlirValue r = mlirOperationGetResult(op, 0);
  MlirType t = mlirValueGetType(r);
  MlirType u = changed_type(s->ctx, t, kind);
  mlirValueSetType(r, u);
  char before[128] = "", after[128] = "";
  Buf b = {0};
  mlirTypePrint(t, mls_buf_cb, &b);
  snprintf(before, sizeof before, "%s", b.p ? b.p : "");
  b.len = 0;
  mlirTypePrint(u, mls_buf_cb, &b);
  snprintf(after, sizeof after, "%s", b.p ? b.p : "");
  free(b.p);
  snprintf(what, len, "%.*s: result type %s -> %s (%s)", (int)name.length, name.data, before, after,
           kind == MLS_DEFECT_SHAPE  ? "wrong shape"
           : kind == MLS_DEFECT_RANK ? "wrong rank for its users"
                                     : "wrong element type");
  return true;
}
