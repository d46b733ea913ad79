/*
 * entry.c - running a translation: the tensors of @main's values
 * flattened and rebuilt, the runner's entry function, and reading back
 * what it printed (translate.h).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "translate_int.h"

/* Append the tensor leaves of t to out[*n ..] (up to max), counting all. */
static void flatten_type(const Type *t, const Type **out, int max, int *n) {
  if (t->kind != TY_TUPLE) {
    if (*n < max)
      out[*n] = t;
    ++*n;
    return;
  }
  for (int i = 0; i < t->tuple.n; i++)
    flatten_type(t->tuple.fields[i], out, max, n);
}

int mlt_flatten_type(const Type *t, const Type **out, int max) {
  int n = 0;
  flatten_type(t, out, max, &n);
  return n;
}

static void flatten_value(const EvValue *v, Tensor **out, int max, int *n) {
  if (v->kind == VAL_TENSOR) {
    if (*n < max)
      out[*n] = v->tensor;
    ++*n;
    return;
  }
  for (int i = 0; v->kind == VAL_TUPLE && i < v->tuple.n; i++)
    flatten_value(v->tuple.fields[i], out, max, n);
}

int mlt_flatten_value(const EvValue *v, Tensor **out, int max) {
  int n = 0;
  flatten_value(v, out, max, &n);
  return n;
}

EvValue *mlt_unflatten_value(EvRun *r, const Type *t, Tensor *const *leaves, int *pos) {
  if (t->kind != TY_TUPLE)
    return ev_val_tensor(r, leaves[(*pos)++]);
  EvValue *v = ev_val_tuple(r, t->tuple.n);
  for (int i = 0; i < t->tuple.n; i++)
    v->tuple.fields[i] = mlt_unflatten_value(r, t->tuple.fields[i], leaves, pos);
  return v;
}

/* ------------------------------------------------------- running (CLI) */

char *mlt_entry(const MltSig *sig, Tensor *const *args) {
  Buf b = {0};
  buf_put(&b, "func.func private @printMemrefI32(tensor<*xi32>)\n");
  buf_put(&b, "func.func @entry() {\n");
  for (int i = 0; i < sig->nargs; i++) {
    buf_put(&b, "  %%a%d = arith.constant ", i);
    buf_dense(&b, args[i]);
    buf_put(&b, "\n");
    if (sig->argdyn && sig->argdyn[i]) { /* a parameter with `?` dims */
      buf_put(&b, "  %%a%d_d = tensor.cast %%a%d : ", i, i);
      buf_tensor_type(&b, args[i]->dtype, args[i]->rank, args[i]->shape);
      buf_put(&b, " to ");
      buf_dyn_type(&b, args[i]->dtype, args[i]->rank, args[i]->shape, sig->argdyn[i]);
      buf_put(&b, "\n");
    }
  }
  int n = sig->nresults;
  buf_put(&b, "  ");
  if (n == 1)
    buf_put(&b, "%%r = ");
  else if (n > 1)
    buf_put(&b, "%%r:%d = ", n);
  buf_put(&b, "func.call @main(");
  for (int i = 0; i < sig->nargs; i++)
    buf_put(&b, "%s%%a%d%s", i ? ", " : "", i, sig->argdyn && sig->argdyn[i] ? "_d" : "");
  buf_put(&b, ") : (");
  for (int i = 0; i < sig->nargs; i++) {
    buf_put(&b, "%s", i ? ", " : "");
    buf_dyn_type(&b, args[i]->dtype, args[i]->rank, args[i]->shape,
                 sig->argdyn ? sig->argdyn[i] : 0);
  }
  buf_put(&b, ") -> (");
  for (int i = 0; i < n; i++) {
    const Type *t = sig->results[i];
    buf_put(&b, "%s", i ? ", " : "");
    buf_dyn_type(&b, t->tensor.dtype, t->tensor.rank, t->tensor.shape,
                 sig->resdyn ? sig->resdyn[i] : 0);
  }
  buf_put(&b, ")\n");
  for (int i = 0; i < n; i++) {
    const Type *t = sig->results[i];
    DType dt = t->tensor.dtype;
    char r[16];
    snprintf(r, sizeof r, n == 1 ? "%%r" : "%%r#%d", i);
    Buf ty = {0}, ity = {0};
    uint32_t dyn = sig->resdyn ? sig->resdyn[i] : 0;
    buf_dyn_type(&ty, dt, t->tensor.rank, t->tensor.shape, dyn);
    buf_dyn_type(&ity, DT_INT32, t->tensor.rank, t->tensor.shape, dyn);
    if (dt == DT_INT32)
      buf_put(&b, "  %%i%d = tensor.cast %s : %s to %s\n", i, r, ty.s, ty.s);
    else
      buf_put(&b, "  %%i%d = %s %s : %s to %s\n", i,
              dt == DT_BOOL ? "arith.extui" : "arith.bitcast", r, ty.s, ity.s);
    buf_put(&b, "  %%u%d = tensor.cast %%i%d : %s to tensor<*xi32>\n", i, i, ity.s);
    buf_put(&b, "  func.call @printMemrefI32(%%u%d) : (tensor<*xi32>) -> ()\n", i);
    free(ty.s);
    free(ity.s);
  }
  buf_put(&b, "  return\n}\n");
  return b.s;
}

/* A tensor of type t, its Any dims taken from the printed "sizes = [..]"
 * of printMemref (the run-time extents). */
static Tensor *tensor_printed(Arena *a, const Type *t, const char *sizes) {
  int64_t shape[IR_MAX_RANK];
  const char *q = sizes ? sizes + 9 : NULL;
  for (int d = 0; d < t->tensor.rank; d++) {
    char *end = NULL;
    long long v = q ? strtoll(q, &end, 10) : 1;
    shape[d] = ir_dim_is_any(t->tensor.shape[d]) ? (v > 0 ? v : 0) : t->tensor.shape[d];
    q = end && *end == ',' ? end + 1 : NULL;
  }
  return ir_tensor_new(a, t->tensor.dtype, t->tensor.rank, shape);
}

bool mlt_parse_printed(const MltSig *sig, const char *out, Arena *a, Tensor **results, char *err,
                       size_t errlen) {
  const char *p = out;
  for (int i = 0; i < sig->nresults; i++) {
    const Type *t = sig->results[i];
    p = p ? strstr(p, "data =") : NULL;
    if (!p) {
      snprintf(err, errlen, "result %d was not printed", i);
      return false;
    }
    const char *sizes = strstr(out + 0, "sizes = [");
    for (const char *q = sizes; q && q < p; q = strstr(q + 1, "sizes = ["))
      sizes = q; /* the last "sizes = [" before this result's data */
    p += 6;
    Tensor *x = tensor_printed(a, t, sizes);
    for (int64_t k = 0; k < x->numel; k++) {
      while (*p && *p != '-' && (*p < '0' || *p > '9'))
        p++;
      char *end;
      long long v = strtoll(p, &end, 10);
      if (end == p) {
        snprintf(err, errlen, "result %d: %lld of %lld elements printed", i, (long long)k,
                 (long long)x->numel);
        return false;
      }
      p = end;
      if (x->dtype == DT_FLOAT32) {
        uint32_t bits = (uint32_t)(int32_t)v;
        memcpy((float *)x->data + k, &bits, 4);
      } else {
        ir_tensor_set_i64(x, k, v);
      }
    }
    results[i] = x;
  }
  return true;
}
