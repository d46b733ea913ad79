/*
 * attrs.c - reading operator attributes in relations (see op_int.h): the
 * check of a whole attribute list against the operator's schema (unary,
 * broadcast, reduction), the reader that takes one attribute at a time
 * with its default (matmul, conv, pool, nn), and the getters of the shape,
 * join, index and create families.
 *
 * The schema strings of ops.def are read only through ir_op_attr and
 * ir_attr_fits (compiler/ir), which the parser uses too.
 */
#include <stdarg.h>
#include <string.h>

#include "op_int.h"

/* -------------------------------------------------------- the whole list */

RelStatus op_check_attrs(OpId op, const Attrs *at, char *err, size_t errlen) {
  for (int i = 0; at && i < at->n; i++) {
    const Attr *x = &at->items[i];
    AttrSpec spec;
    if (!x->name || !ir_op_attr(op, x->name, strlen(x->name), &spec))
      return op_fail(err, errlen, "unknown attribute '%s'", x->name ? x->name : "");
    for (int j = 0; j < i; j++)
      if (strcmp(at->items[j].name, x->name) == 0)
        return op_fail(err, errlen, "attribute '%s' given twice", x->name);
    if (!ir_attr_fits(&spec, x->kind, true))
      return op_fail(err, errlen, "attribute '%s' must be %.*s%s", x->name, spec.klen, spec.kind,
                     spec.optional ? "?" : "");
  }
  return REL_OK;
}

/* ------------------------------------------------------------ the reader */

void op_rd_fail(OpAttrReader *r, const char *fmt, ...) {
  if (r->bad)
    return;
  r->bad = true;
  if (r->err && r->errlen) {
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(r->err, r->errlen, fmt, ap);
    va_end(ap);
  }
}

OpAttrReader op_rd_begin(OpId op, const Attrs *at, char *err, size_t errlen) {
  OpAttrReader r = {at, err, errlen, false};
  AttrSpec spec;
  for (int i = 0; at && i < at->n; i++)
    if (!ir_op_attr(op, at->items[i].name, strlen(at->items[i].name), &spec))
      op_rd_fail(&r, "unknown attribute '%s'", at->items[i].name);
  return r;
}

int64_t op_rd_int(OpAttrReader *r, const char *name, int64_t dflt) {
  const Attr *x = ir_attr_get(r->at, name);
  if (!x)
    return dflt;
  if (x->kind != AV_INT) {
    op_rd_fail(r, "attribute %s must be an integer", name);
    return dflt;
  }
  return x->i;
}

bool op_rd_opt_int(OpAttrReader *r, const char *name, int64_t *v) {
  const Attr *x = ir_attr_get(r->at, name);
  if (!x || x->kind == AV_NONE)
    return false;
  if (x->kind != AV_INT) {
    op_rd_fail(r, "attribute %s must be an integer or None", name);
    return false;
  }
  *v = x->i;
  return true;
}

bool op_rd_bool(OpAttrReader *r, const char *name, bool dflt) {
  const Attr *x = ir_attr_get(r->at, name);
  if (!x)
    return dflt;
  if (x->kind != AV_BOOL && !(x->kind == AV_INT && (x->i == 0 || x->i == 1))) {
    op_rd_fail(r, "attribute %s must be a bool", name);
    return dflt;
  }
  return x->i != 0;
}

double op_rd_float(OpAttrReader *r, const char *name, double dflt) {
  const Attr *x = ir_attr_get(r->at, name);
  if (!x)
    return dflt;
  if (x->kind == AV_FLOAT)
    return x->f;
  if (x->kind == AV_INT)
    return (double)x->i;
  op_rd_fail(r, "attribute %s must be a float", name);
  return dflt;
}

const char *op_rd_str(OpAttrReader *r, const char *name, const char *dflt) {
  const Attr *x = ir_attr_get(r->at, name);
  if (!x)
    return dflt;
  if (x->kind != AV_STR) {
    op_rd_fail(r, "attribute %s must be a string", name);
    return dflt;
  }
  return x->s;
}

int op_rd_ints(OpAttrReader *r, const char *name, int max, int64_t *v, int ndflt,
               const int64_t *dflt, bool none_ok) {
  const Attr *x = ir_attr_get(r->at, name);
  if (!x) {
    if (!dflt)
      return -1;
    memcpy(v, dflt, sizeof(int64_t) * (size_t)ndflt);
    return ndflt;
  }
  if (x->kind == AV_NONE && none_ok)
    return -1;
  if (x->kind != AV_INTS) {
    op_rd_fail(r, "attribute %s must be a list of integers", name);
    return 0;
  }
  if (x->n > max) {
    op_rd_fail(r, "attribute %s has %d values, at most %d allowed", name, x->n, max);
    return 0;
  }
  if (x->n)
    memcpy(v, x->ints, sizeof(int64_t) * (size_t)x->n);
  return x->n;
}

DType op_rd_out_dtype(OpAttrReader *r, DType in) {
  const char *s = op_rd_str(r, "out_dtype", "");
  if (!s[0])
    return in;
  DType dt;
  if (!ir_dtype_parse(s, strlen(s), &dt) || dt == DT_BOOL) {
    op_rd_fail(r, "out_dtype \"%s\" is not a numeric dtype", s);
    return in;
  }
  return dt;
}

void op_rd_layout(OpAttrReader *r, const char *name, const char *only) {
  const char *s = op_rd_str(r, name, only);
  if (!r->bad && strcmp(s, only) != 0)
    op_rd_fail(r, "%s \"%s\" is not supported; only \"%s\"", name, s, only);
}

/* --------------------------------------------- argument checks, reported */

bool op_want_dtype(OpAttrReader *r, const Type *t, uint32_t allowed, const char *what) {
  if (allowed & (1u << t->tensor.dtype))
    return true;
  op_rd_fail(r, "%s has dtype %s; %s expected", what, ir_dtype_name(t->tensor.dtype),
             allowed == OP_FLOATS ? "a float dtype" : "a numeric dtype");
  return false;
}

bool op_want_same_numeric(OpAttrReader *r, const Type *x, const Type *y) {
  if (!op_want_dtype(r, x, OP_NUMERIC, "the first operand"))
    return false;
  if (x->tensor.dtype != y->tensor.dtype) {
    op_rd_fail(r, "operand dtypes differ: %s and %s", ir_dtype_name(x->tensor.dtype),
               ir_dtype_name(y->tensor.dtype));
    return false;
  }
  return true;
}

/* -------------------------- the getters of shape, join, index and create */

RelStatus op_get_ints(const Attrs *at, const char *name, OpInts *out, char *err, size_t errlen) {
  const Attr *x = ir_attr_get(at, name);
  *out = (OpInts){0};
  if (!x || x->kind == AV_NONE)
    return REL_OK;
  if (x->kind == AV_INTS && x->n >= 0) {
    *out = (OpInts){true, x->n, x->ints};
    return REL_OK;
  }
  if (x->kind == AV_INT) {
    *out = (OpInts){true, 1, &x->i};
    return REL_OK;
  }
  return op_fail(err, errlen, "attribute %s must be a list of integers", name);
}

RelStatus op_need_ints(const Attrs *at, const char *name, OpInts *out, char *err, size_t errlen) {
  RelStatus s = op_get_ints(at, name, out, err, errlen);
  if (s == REL_OK && !out->given)
    return op_fail(err, errlen, "attribute %s is required", name);
  return s;
}

RelStatus op_need_shape(const Attrs *at, OpInts *out, char *err, size_t errlen) {
  RelStatus s = op_need_ints(at, "shape", out, err, errlen);
  if (s != REL_OK)
    return s;
  if (out->n > IR_MAX_RANK)
    return op_fail(err, errlen, "result rank %d exceeds %d", out->n, IR_MAX_RANK);
  for (int i = 0; i < out->n; i++)
    if (out->v[i] < 0)
      return op_fail(err, errlen, "shape has a negative dim %lld", (long long)out->v[i]);
  return REL_OK;
}

RelStatus op_get_opt_int(const Attrs *at, const char *name, bool *given, int64_t *v, char *err,
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

RelStatus op_get_int(const Attrs *at, const char *name, int64_t dflt, int64_t *v, char *err,
                     size_t errlen) {
  bool given;
  RelStatus s = op_get_opt_int(at, name, &given, v, err, errlen);
  if (s == REL_OK && !given)
    *v = dflt;
  return s;
}

RelStatus op_get_str(const Attrs *at, const char *name, const char *dflt, const char **v, char *err,
                     size_t errlen) {
  const Attr *x = ir_attr_get(at, name);
  *v = dflt;
  if (!x || x->kind == AV_NONE)
    return REL_OK;
  if (x->kind != AV_STR)
    return op_fail(err, errlen, "attribute %s must be a string", name);
  *v = x->s;
  return REL_OK;
}

int op_rd_axis(OpAttrReader *r, int64_t dflt, int rank, int64_t lo) {
  int64_t v = op_rd_int(r, "axis", dflt);
  if (r->bad)
    return 0;
  if (lo < -rank)
    lo = -rank; /* a rank-0 tensor has no axis at all, not even -1 */
  if (v < lo || v >= rank) {
    op_rd_fail(r, "axis %lld out of range [%lld, %d) for rank %d", (long long)v, (long long)lo,
               rank, rank);
    return 0;
  }
  return (int)(v < 0 ? v + rank : v);
}
