/*
 * eval.c - the evaluator: runs and budgets, environments, and every
 * expression form.  The semantics are described in eval.h.
 *
 * Structure: eval() is the only recursive entry; it counts depth and
 * checks the stack, then loops in eval_tail(), where each form either
 * returns a value or (let, if, match, call) replaces the current
 * expression and environment with the one in tail position and returns
 * TAIL.  So a tail call reuses the C frame and only non-tail nesting
 * (arguments, scrutinees, let values) grows the stack.
 */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "compiler/ops/op.h"
#include "eval_int.h"

const EvLimits ev_default_limits = {
    .fuel = 1000000,
    .max_depth = 2000,
    .max_stack = 2 << 20,
    .max_bytes = 64 << 20,
};

/* A variable binding; environments are persistent linked lists, so a
 * closure captures one by pointer. */
struct EvEnv {
  const Var *var;
  EvValue *val;
  EvEnv *next;
};

/* Constants copied into the run, keyed by the module's tensor. */
typedef struct EvConsts {
  int cap, n;
  const Tensor **keys;
  Tensor **vals;
} EvConsts;

static EvValue tail_mark;
#define TAIL (&tail_mark)

static EvValue *eval(EvRun *r, Expr *e, EvEnv *env);

/* ------------------------------------------------------------ runs */

EvRun *ev_run_new(const EvLimits *lim) {
  Arena *a = arena_new();
  EvRun *r = ARENA_NEW(a, EvRun);
  r->arena = a;
  r->lim = lim ? *lim : ev_default_limits;
  return r;
}

void ev_run_free(EvRun *r) {
  if (!r)
    return;
  arena_free(r->scratch);
  arena_free(r->arena);
}

const char *ev_status_name(EvStatus s) {
  static const char *names[] = {"ok", "inconclusive", "runtime error", "invalid"};
  return names[s];
}

EvValue *ev_fail(EvRun *r, EvStatus st, const char *fmt, ...) {
  if (r->status != EV_OK)
    return NULL;
  r->status = st;
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(r->msg, sizeof r->msg, fmt, ap);
  va_end(ap);
  return NULL;
}

bool ev_reserve(EvRun *r, int64_t bytes) {
  int64_t used = (int64_t)arena_used(r->arena) + (r->scratch ? (int64_t)arena_used(r->scratch) : 0);
  if (bytes >= 0 && bytes <= r->lim.max_bytes - used)
    return true;
  ev_fail(r, EV_INCONCLUSIVE, "memory budget of %lld bytes exhausted", (long long)r->lim.max_bytes);
  return false;
}

int64_t ev_tensor_bytes(const Type *t) {
  if (t->kind != TY_TENSOR)
    return -1;
  int64_t n = ir_dtype_size(t->tensor.dtype);
  for (int i = 0; i < t->tensor.rank; i++) {
    int64_t d = t->tensor.shape[i];
    if (d < 0 || (d > 0 && n > INT64_MAX / d))
      return -1;
    n *= d;
  }
  return n;
}

/* Spend cost units of fuel and check the memory budget. */
static bool spend(EvRun *r, int64_t cost) {
  if (r->status != EV_OK)
    return false;
  r->steps += cost;
  if (r->steps > r->lim.fuel) {
    ev_fail(r, EV_INCONCLUSIVE, "out of fuel after %lld steps", (long long)r->lim.fuel);
    return false;
  }
  return ev_reserve(r, 0);
}

/* Enter one level of non-tail evaluation; false when too deep. */
static bool enter(EvRun *r) {
  if (++r->depth > r->peak_depth)
    r->peak_depth = r->depth;
  if (r->depth > r->lim.max_depth) {
    ev_fail(r, EV_INCONCLUSIVE, "evaluation nested deeper than %d", r->lim.max_depth);
    return false;
  }
  uintptr_t sp = (uintptr_t)__builtin_frame_address(0);
  if (sp < r->stack_base && r->stack_base - sp > (uint64_t)r->lim.max_stack) {
    ev_fail(r, EV_INCONCLUSIVE, "evaluation used more than %lld bytes of stack",
            (long long)r->lim.max_stack);
    return false;
  }
  return true;
}

/* ---------------------------------------------------------- values */

/* A zeroed value of kind k in the run's arena. */
static EvValue *val_new(EvRun *r, EvKind k) {
  EvValue *v = ARENA_NEW(r->arena, EvValue);
  v->kind = k;
  return v;
}

EvValue *ev_val_tensor(EvRun *r, Tensor *t) {
  EvValue *v = val_new(r, VAL_TENSOR);
  v->tensor = t;
  return v;
}

EvValue *ev_val_tuple(EvRun *r, int n) {
  EvValue *v = val_new(r, VAL_TUPLE);
  v->tuple.n = n;
  v->tuple.fields = ARENA_ARRAY(r->arena, EvValue *, n);
  return v;
}

EvValue *ev_val_ref(EvRun *r, EvValue *contents) {
  EvValue *v = val_new(r, VAL_REF);
  v->ref.contents = contents;
  v->ref.id = r->nrefs++;
  return v;
}

EvValue *ev_val_adt(EvRun *r, Ctor *c) {
  EvValue *v = val_new(r, VAL_ADT);
  v->adt.ctor = c;
  v->adt.n = c->nfields;
  v->adt.fields = ARENA_ARRAY(r->arena, EvValue *, c->nfields);
  return v;
}

/* A function value: code fn with environment env (g set for a global). */
static EvValue *val_closure(EvRun *r, Expr *fn, EvEnv *env, GlobalFn *g) {
  EvValue *v = val_new(r, VAL_CLOSURE);
  v->closure.fn = fn;
  v->closure.env = env;
  v->closure.global = g;
  return v;
}

/* ---------------------------------------------------------- effects */

/* Append an effect on ref to the trace. */
static void record(EvRun *r, EvEffectKind kind, const EvValue *ref, const EvValue *v) {
  EvEffect *e = ARENA_NEW(r->arena, EvEffect);
  e->kind = kind;
  e->ref = ref->ref.id;
  e->value = v;
  if (r->trace.last)
    r->trace.last->next = e;
  else
    r->trace.first = e;
  r->trace.last = e;
  r->trace.n++;
}

/* ---------------------------------------------------- environments */

/* env extended with var = val. */
static EvEnv *bind(EvRun *r, EvEnv *env, const Var *var, EvValue *val) {
  EvEnv *b = ARENA_NEW(r->arena, EvEnv);
  b->var = var;
  b->val = val;
  b->next = env;
  return b;
}

/* The value bound to var, innermost first; unbound is EV_INVALID. */
static EvValue *lookup(EvRun *r, EvEnv *env, const Var *var) {
  for (; env; env = env->next)
    if (env->var == var)
      return env->val;
  return ev_fail(r, EV_INVALID, "unbound variable %%%s", var->name ? var->name : "?");
}

/* ------------------------------------------------------- constants */

/* Slot of key t in the cache (its entry or the empty slot for it). */
static int cache_slot(const EvConsts *c, const Tensor *t) {
  unsigned h = (unsigned)(((uintptr_t)t >> 4) * 2654435761u);
  int i = (int)(h & (unsigned)(c->cap - 1));
  while (c->keys[i] && c->keys[i] != t)
    i = (i + 1) & (c->cap - 1);
  return i;
}

/* Double the cache's capacity (16 to start). */
static void cache_grow(EvRun *r, EvConsts *c) {
  EvConsts old = *c;
  c->cap = old.cap ? 2 * old.cap : 16;
  c->keys = ARENA_ARRAY(r->arena, const Tensor *, c->cap);
  c->vals = ARENA_ARRAY(r->arena, Tensor *, c->cap);
  for (int i = 0; i < old.cap; i++)
    if (old.keys[i]) {
      int j = cache_slot(c, old.keys[i]);
      c->keys[j] = old.keys[i];
      c->vals[j] = old.vals[i];
    }
}

/* The run's own copy of a module constant, so that results never alias
 * the module (a pass may rewrite it in place after the run). */
static EvValue *constant(EvRun *r, const Tensor *t) {
  if (!r->consts)
    r->consts = ARENA_NEW(r->arena, EvConsts);
  EvConsts *c = r->consts;
  if (2 * (c->n + 1) > c->cap)
    cache_grow(r, c);
  int i = cache_slot(c, t);
  if (!c->keys[i]) {
    int64_t bytes = t->numel * ir_dtype_size(t->dtype);
    if (!ev_reserve(r, bytes))
      return NULL;
    Tensor *copy = ir_tensor_new(r->arena, t->dtype, t->rank, t->shape);
    memcpy(copy->data, t->data, (size_t)bytes);
    c->keys[i] = t;
    c->vals[i] = copy;
    c->n++;
  }
  return ev_val_tensor(r, c->vals[i]);
}

/* ------------------------------------------------------- operators */

/* Flatten argument values into tensors and their relation types: a tensor
 * is itself, a tuple of tensors (concatenate, stack) its fields.  Types go
 * in scratch arena s.  Returns the number of tensors, or -1 after
 * recording EV_INVALID. */
static int flatten_args(EvRun *r, Arena *s, OpId op, EvValue **args, int n, Type **targs,
                        Tensor **flat, int max) {
  int k = 0;
  for (int i = 0; i < n; i++) {
    EvValue *v = args[i];
    int nf = v->kind == VAL_TUPLE ? v->tuple.n : 1;
    EvValue *const *fs = v->kind == VAL_TUPLE ? v->tuple.fields : &args[i];
    if ((v->kind != VAL_TENSOR && v->kind != VAL_TUPLE) || k + nf > max)
      return ev_fail(r, EV_INVALID, "%s: argument %d is not a tensor or a small tuple of tensors",
                     ir_op_name(op), i),
             -1;
    Type **ftys = ARENA_ARRAY(s, Type *, nf);
    for (int j = 0; j < nf; j++) {
      if (fs[j]->kind != VAL_TENSOR)
        return ev_fail(r, EV_INVALID, "%s: argument %d field %d is not a tensor", ir_op_name(op), i,
                       j),
               -1;
      flat[k++] = fs[j]->tensor;
      ftys[j] = ir_tensor_type_of(s, fs[j]->tensor);
    }
    targs[i] = v->kind == VAL_TUPLE ? ir_tuple_type(s, nf, ftys) : ftys[0];
  }
  return k;
}

/* Bytes of an operator's result (a tensor or tuple of tensors), at most
 * INT64_MAX / 2; -1 when it is neither. */
static int64_t result_bytes(const Type *t) {
  const int64_t big = INT64_MAX / 2; /* what the memory budget refuses */
  if (t->kind != TY_TENSOR && t->kind != TY_TUPLE)
    return -1;
  int n = t->kind == TY_TUPLE ? t->tuple.n : 1;
  int64_t total = 0;
  for (int i = 0; i < n; i++) {
    const Type *f = t->kind == TY_TUPLE ? t->tuple.fields[i] : t;
    if (f->kind != TY_TENSOR)
      return -1;
    /* A well-typed result too large to count in bytes (Tensor[(2^62),
     * float32]) is one the budget refuses, not a type fault. */
    int64_t b = ev_tensor_bytes(f);
    if (b < 0 || b > big - total)
      return big;
    total += b;
  }
  return total;
}

/* The scratch arena for one operator call: everything in it is dead once
 * the call's outputs are copied out, so it is replaced when it grows. */
static Arena *scratch(EvRun *r) {
  enum { RECYCLE = 256 * 1024 };
  if (r->scratch && arena_used(r->scratch) > RECYCLE) {
    arena_free(r->scratch);
    r->scratch = NULL;
  }
  if (!r->scratch)
    r->scratch = arena_new();
  return r->scratch;
}

/* Wrap op_eval's outputs, copied into the run's arena, as the result: a
 * tuple when the relation's result is one. */
static EvValue *op_result(EvRun *r, const Type *ret, Tensor **outs, int nouts) {
  EvValue *t = ret->kind == TY_TUPLE ? ev_val_tuple(r, nouts) : NULL;
  for (int i = 0; i < nouts; i++) {
    Tensor *o = outs[i];
    Tensor *c = ir_tensor_new(r->arena, o->dtype, o->rank, o->shape);
    memcpy(c->data, o->data, (size_t)o->numel * (size_t)ir_dtype_size(o->dtype));
    if (!t)
      return ev_val_tensor(r, c);
    t->tuple.fields[i] = ev_val_tensor(r, c);
  }
  return t;
}

/* Whether tensor o has type t (a tensor type): its dtype, and a shape that
 * fits t's (an Any dim fits any extent). */
static bool tensor_has_type(const Tensor *o, const Type *t) {
  return t->kind == TY_TENSOR && o->dtype == t->tensor.dtype && ir_shape_fits(t, o->rank, o->shape);
}

/* Whether value v fits the static dims of type t: tensors and tuples are
 * looked into, any other value fits. */
static bool value_fits(const EvValue *v, const Type *t, int depth) {
  if (!t || !v || depth > IR_MAX_NESTING)
    return true;
  if (t->kind == TY_TENSOR)
    return v->kind != VAL_TENSOR || ir_shape_fits(t, v->tensor->rank, v->tensor->shape);
  if (t->kind != TY_TUPLE || v->kind != VAL_TUPLE || v->tuple.n != t->tuple.n)
    return true;
  for (int i = 0; i < t->tuple.n; i++)
    if (!value_fits(v->tuple.fields[i], t->tuple.fields[i], depth + 1))
      return false;
  return true;
}

/* The run-time check of an annotation: value v, of an expression whose
 * inferred type is from, flows into annotation annot (of what).  Only
 * when from has an Any dim can they disagree (type checking has shown
 * the rest); a disagreement is EV_ERROR, a defined run-time error. */
static bool annot_holds(EvRun *r, const Type *annot, const Type *from, const EvValue *v,
                        const char *what, const char *name) {
  if (!annot || !from || !ir_type_has_any(from) || value_fits(v, annot, 0))
    return true;
  char *want = ir_print_type(annot);
  ev_fail(r, EV_ERROR, "%s%s: the value does not fit the annotation %s", what, name ? name : "",
          want);
  free(want);
  return false;
}

/* The soundness check (EvRun.check_types): the outputs of the call x
 * against its inferred type, a tensor or a tuple of tensors.  A type
 * with anything else in it (a type variable) is not checked. */
static bool outputs_match(EvRun *r, const Expr *x, Tensor **outs, int nouts) {
  const Type *t = x->type;
  if (!t || (t->kind != TY_TENSOR && t->kind != TY_TUPLE))
    return true;
  int n = t->kind == TY_TUPLE ? t->tuple.n : 1;
  for (int i = 0; t->kind == TY_TUPLE && i < n; i++)
    if (t->tuple.fields[i]->kind != TY_TENSOR)
      return true;
  bool same = n == nouts;
  for (int i = 0; same && i < n; i++)
    same = tensor_has_type(outs[i], t->kind == TY_TUPLE ? t->tuple.fields[i] : t);
  if (same)
    return true;
  char *want = ir_print_type(t);
  Type *got = nouts == 1 ? ir_tensor_type_of(r->scratch, outs[0]) : NULL;
  char *have = got ? ir_print_type(got) : NULL;
  if (have)
    ev_fail(r, EV_INVALID, "%s: the kernel's output is %s, the call's inferred type %s",
            ir_op_name(x->call.op), have, want);
  else
    ev_fail(r, EV_INVALID, "%s: the kernel gives %d outputs, the call's inferred type is %s",
            ir_op_name(x->call.op), nouts, want);
  free(want);
  free(have);
  return false;
}

/* EvRun.jitter: t's float elements each moved by as much as a float
 * comparison allows (the default tolerance's rtol * |x| + atol for t's
 * dtype), up or down as bits of a hash of salt and the index say. */
static void jitter_floats(Tensor *t, uint64_t salt) {
  if (!ir_dtype_is_float(t->dtype))
    return;
  double rtol, atol;
  ev_tolerance_of(&ev_default_tolerance, t->dtype, &rtol, &atol);
  for (int64_t k = 0; k < t->numel; k++) {
    uint64_t h = (salt + (uint64_t)k) * 0xbf58476d1ce4e5b9ull;
    h ^= h >> 31;
    double x = ir_tensor_get_f64(t, k), d = rtol * fabs(x) + atol;
    ir_tensor_set_f64(t, k, h & 1 ? x + d : x - d);
  }
}

/* What the relation rejecting a call's concrete arguments means: a check
 * deferred to run time that fails (EV_ERROR, a defined run-time error) when
 * an argument's inferred type has an Any dim, else an ill-typed program. */
static EvStatus relate_failure(const Expr *x) {
  for (int i = 0; i < x->call.nargs; i++)
    if (ir_type_has_any(x->call.args[i]->type))
      return EV_ERROR;
  return EV_INVALID;
}

/* A failed check of call x on its concrete arguments (relate_failure). */
static EvValue *op_check_failed(EvRun *r, const Expr *x, const char *msg) {
  EvStatus st = relate_failure(x);
  if (r->status == EV_OK && st == EV_ERROR)
    r->pure_check = true;
  return ev_fail(r, st, "%s", msg);
}

/* Apply an operator to evaluated arguments through op_eval.  Not inlined:
 * its arrays must not sit in the frames of the recursive evaluator. */
__attribute__((noinline)) static EvValue *call_op(EvRun *r, const Expr *x, EvValue **args) {
  enum { MAXT = 64 };
  OpId op = x->call.op;
  int n = x->call.nargs;
  if (n > OP_MAX_ARGS)
    return ev_fail(r, EV_INVALID, "%s: %d arguments", ir_op_name(op), n);
  Arena *s = scratch(r);
  Type *targs[OP_MAX_ARGS];
  Tensor *flat[MAXT], *outs[MAXT];
  int nflat = flatten_args(r, s, op, args, n, targs, flat, MAXT);
  if (nflat < 0)
    return NULL;
  char err[256];
  Type *ret;
  if (op_relate(op, targs, n, &x->call.attrs, s, &ret, err, sizeof err) != REL_OK)
    return op_check_failed(r, x, err[0] ? err : "operator relation failed");
  if (op_value_type(op, flat, nflat, s, ret, &ret, err, sizeof err) != REL_OK) {
    if (r->status == EV_OK) /* a pure call's defined run-time error (arange's step 0) */
      r->pure_check = true;
    return ev_fail(r, EV_ERROR, "%s", err);
  }
  int64_t bytes = result_bytes(ret);
  if (bytes < 0)
    return ev_fail(r, EV_INVALID, "%s: result is not a tensor or tuple of tensors", ir_op_name(op));
  if (!ev_reserve(r, 2 * bytes)) /* the outputs in scratch, and their copies */
    return NULL;
  int nouts = op_eval(op, flat, nflat, &x->call.attrs, s, outs, MAXT, err, sizeof err);
  if (nouts < 0)
    return op_check_failed(r, x, err);
  if (r->check_types && !outputs_match(r, x, outs, nouts))
    return NULL;
  for (int i = 0; r->jitter && i < nouts; i++)
    jitter_floats(outs[i], r->jitter ^ (uint64_t)r->steps * 0x9e3779b97f4a7c15ull ^ (uint64_t)i);
  int64_t work = 0;
  for (int i = 0; i < nouts; i++)
    work += outs[i]->numel;
  return spend(r, work) ? op_result(r, ret, outs, nouts) : NULL;
}

/* ------------------------------------------------------------ forms */

/* (a, b, ..): fields left to right. */
static EvValue *eval_tuple(EvRun *r, Expr *x, EvEnv *env) {
  EvValue *t = ev_val_tuple(r, x->tuple.n);
  for (int i = 0; i < x->tuple.n; i++)
    if (!(t->tuple.fields[i] = eval(r, x->tuple.fields[i], env)))
      return NULL;
  return t;
}

/* t.i */
static EvValue *eval_proj(EvRun *r, Expr *x, EvEnv *env) {
  EvValue *t = eval(r, x->proj.tuple, env);
  if (!t)
    return NULL;
  if (t->kind != VAL_TUPLE || x->proj.index < 0 || x->proj.index >= t->tuple.n)
    return ev_fail(r, EV_INVALID, "projection .%d of a value that is not a tuple that long",
                   x->proj.index);
  return t->tuple.fields[x->proj.index];
}

/* @g as a function value. */
static EvValue *global_value(EvRun *r, GlobalFn *g) {
  if (!g->func || g->func->kind != EX_FUNC)
    return ev_fail(r, EV_INVALID, "global @%s is not defined", g->name);
  return val_closure(r, g->func, NULL, g);
}

/* let: a function value is bound inside its own closure (Relay's
 * recursive let); then continue with the body. */
static EvValue *eval_let(EvRun *r, Expr **e, EvEnv **env) {
  Expr *x = *e;
  if (x->let.value->kind == EX_FUNC) {
    EvEnv *b = bind(r, *env, x->let.var, NULL);
    b->val = val_closure(r, x->let.value, b, NULL);
    *env = b;
  } else {
    EvValue *v = eval(r, x->let.value, *env);
    if (!v)
      return NULL;
    if (!annot_holds(r, x->let.var->annot, x->let.value->type, v, "let %", x->let.var->name)) {
      r->pure_check = true;
      return NULL;
    }
    *env = bind(r, *env, x->let.var, v);
  }
  *e = x->let.body;
  return TAIL;
}

/* if: the condition, then the chosen branch in tail position. */
static EvValue *eval_if(EvRun *r, Expr **e, EvEnv **env) {
  Expr *x = *e;
  EvValue *c = eval(r, x->if_.cond, *env);
  if (!c)
    return NULL;
  if (c->kind != VAL_TENSOR || c->tensor->dtype != DT_BOOL || c->tensor->rank != 0)
    return ev_fail(r, EV_INVALID, "if condition is not a scalar bool");
  *e = ((uint8_t *)c->tensor->data)[0] ? x->if_.then : x->if_.els;
  return TAIL;
}

/* Bind a function value's parameters.  Code continues with its body in
 * tail position (TAIL); a constant function returns its value. */
static EvValue *enter_closure(EvRun *r, EvValue *f, int n, EvValue **args, Expr **e, EvEnv **env) {
  if (f->kind != VAL_CLOSURE)
    return ev_fail(r, EV_INVALID, "calling a value that is not a function");
  if (!f->closure.fn)
    return f->closure.konst;
  Expr *fn = f->closure.fn;
  if (fn->func.nparams != n)
    return ev_fail(r, EV_INVALID, "function of %d parameters called with %d arguments",
                   fn->func.nparams, n);
  EvEnv *b = f->closure.env;
  for (int i = 0; i < n; i++)
    b = bind(r, b, fn->func.params[i], args[i]);
  *e = fn->func.body;
  *env = b;
  return TAIL;
}

/* A constructor applied to evaluated arguments. */
static EvValue *make_adt(EvRun *r, Ctor *c, int n, EvValue **args) {
  if (n != c->nfields)
    return ev_fail(r, EV_INVALID, "constructor %s of %d fields applied to %d", c->name, c->nfields,
                   n);
  EvValue *v = ev_val_adt(r, c);
  memcpy(v->adt.fields, args, sizeof(EvValue *) * (size_t)n);
  return v;
}

/* Calls: arguments left to right, then (for an expression call) the
 * callee, as in Relay. */
static EvValue *eval_call(EvRun *r, Expr **e, EvEnv **env) {
  Expr *x = *e;
  int n = x->call.nargs;
  EvValue **args = ARENA_ARRAY(r->arena, EvValue *, n);
  for (int i = 0; i < n; i++)
    if (!(args[i] = eval(r, x->call.args[i], *env)))
      return NULL;
  switch (x->call.kind) {
  case CALL_OP: return call_op(r, x, args);
  case CALL_CTOR: return make_adt(r, x->call.ctor, n, args);
  case CALL_EXPR: break;
  }
  EvValue *f = eval(r, x->call.callee, *env);
  if (f && f->kind == VAL_CLOSURE && f->closure.fn && f->closure.fn->func.nparams == n)
    for (int i = 0; i < n; i++) {
      Var *p = f->closure.fn->func.params[i];
      if (!annot_holds(r, p->annot, x->call.args[i]->type, args[i], "parameter %", p->name))
        return NULL;
    }
  return f ? enter_closure(r, f, n, args, e, env) : NULL;
}

/* ref_read(r): the cell's current contents. */
static EvValue *eval_ref_read(EvRun *r, Expr *x, EvEnv *env) {
  EvValue *c = eval(r, x->ref_read.ref, env);
  if (!c)
    return NULL;
  if (c->kind != VAL_REF)
    return ev_fail(r, EV_INVALID, "ref_read of a value that is not a ref");
  record(r, EV_EFF_READ, c, c->ref.contents);
  return c->ref.contents;
}

/* ref_write(r, v): the ref, then the value; the result is unit. */
static EvValue *eval_ref_write(EvRun *r, Expr *x, EvEnv *env) {
  EvValue *c = eval(r, x->ref_write.ref, env);
  if (!c)
    return NULL;
  if (c->kind != VAL_REF)
    return ev_fail(r, EV_INVALID, "ref_write to a value that is not a ref");
  EvValue *v = eval(r, x->ref_write.value, env);
  if (!v)
    return NULL;
  c->ref.contents = v;
  record(r, EV_EFF_WRITE, c, v);
  return ev_val_tuple(r, 0);
}

/* Match v against p, extending *env with its variables: 1 when it
 * matches, 0 when not, -1 (recorded) when the shapes disagree. */
static int match(EvRun *r, const Pattern *p, EvValue *v, EvEnv **env) {
  switch (p->kind) {
  case PAT_WILD: return 1;
  case PAT_VAR: *env = bind(r, *env, p->var, v); return 1;
  case PAT_CTOR:
    if (v->kind != VAL_ADT)
      return ev_fail(r, EV_INVALID, "constructor pattern %s against a non-ADT value",
                     p->ctor->name),
             -1;
    if (v->adt.ctor != p->ctor &&
        (v->adt.ctor->tag != p->ctor->tag || strcmp(v->adt.ctor->name, p->ctor->name) != 0))
      return 0;
    if (v->adt.n != p->n)
      return ev_fail(r, EV_INVALID, "pattern %s with %d fields", p->ctor->name, p->n), -1;
    break;
  case PAT_TUPLE:
    if (v->kind != VAL_TUPLE || v->tuple.n != p->n)
      return ev_fail(r, EV_INVALID, "tuple pattern of %d against another value", p->n), -1;
    break;
  }
  EvValue **fields = p->kind == PAT_CTOR ? v->adt.fields : v->tuple.fields;
  for (int i = 0; i < p->n; i++) {
    int m = match(r, p->sub[i], fields[i], env);
    if (m <= 0)
      return m;
  }
  return 1;
}

/* match: the first clause whose pattern matches continues in tail
 * position; none matching is a runtime error. */
static EvValue *eval_match(EvRun *r, Expr **e, EvEnv **env) {
  Expr *x = *e;
  EvValue *v = eval(r, x->match.scrut, *env);
  if (!v)
    return NULL;
  for (int i = 0; i < x->match.n; i++) {
    EvEnv *b = *env;
    int m = match(r, x->match.clauses[i].pat, v, &b);
    if (m < 0)
      return NULL;
    if (m) {
      *e = x->match.clauses[i].body;
      *env = b;
      return TAIL;
    }
  }
  char *s = ev_print_value(r->arena, v);
  return ev_fail(r, EV_ERROR, "match: no clause matches %s", s);
}

/* One step: a value, or TAIL with *e and *env moved to a tail position. */
static EvValue *eval_form(EvRun *r, Expr **e, EvEnv **env) {
  Expr *x = *e;
  switch (x->kind) {
  case EX_VAR: return lookup(r, *env, x->var);
  case EX_GLOBAL: return global_value(r, x->global);
  case EX_CONST: return constant(r, x->constant);
  case EX_TUPLE: return eval_tuple(r, x, *env);
  case EX_PROJ: return eval_proj(r, x, *env);
  case EX_LET: return eval_let(r, e, env);
  case EX_IF: return eval_if(r, e, env);
  case EX_CALL: return eval_call(r, e, env);
  case EX_FUNC: return val_closure(r, x, *env, NULL);
  case EX_REF_NEW: {
    EvValue *v = eval(r, x->ref_new.value, *env);
    if (!v)
      return NULL;
    EvValue *ref = ev_val_ref(r, v);
    record(r, EV_EFF_NEW, ref, v);
    return ref;
  }
  case EX_REF_READ: return eval_ref_read(r, x, *env);
  case EX_REF_WRITE: return eval_ref_write(r, x, *env);
  case EX_MATCH: return eval_match(r, e, env);
  }
  return ev_fail(r, EV_INVALID, "unknown expression kind %d", (int)x->kind);
}

/* Evaluate e, following tail positions in a loop. */
static EvValue *eval_tail(EvRun *r, Expr *e, EvEnv *env) {
  for (;;) {
    if (!spend(r, 1))
      return NULL;
    EvValue *v = eval_form(r, &e, &env);
    if (v != TAIL)
      return v;
  }
}

/* Evaluate e in env as one more level of nesting. */
static EvValue *eval(EvRun *r, Expr *e, EvEnv *env) {
  EvValue *v = enter(r) ? eval_tail(r, e, env) : NULL;
  r->depth--;
  return v;
}

/* --------------------------------------------------------- entries */

/* Start a top-level call: reset the status and the trace, note the stack
 * base. */
static void begin(EvRun *r) {
  r->status = EV_OK;
  r->pure_check = false;
  r->msg[0] = 0;
  r->trace = (EvTrace){0};
  r->depth = 0;
  r->stack_base = (uintptr_t)__builtin_frame_address(0);
}

/* The result of a top-level call from the run's status; its trace is the
 * shared empty one when the call had no effect (the common case). */
static EvResult finish(EvRun *r, EvValue *v) {
  static const EvTrace no_effects;
  const EvTrace *t = &no_effects;
  if (r->trace.n) {
    EvTrace *copy = ARENA_NEW(r->arena, EvTrace);
    *copy = r->trace;
    t = copy;
  }
  EvResult res = {r->status, r->status == EV_OK ? v : NULL, r->msg, t,
                  r->status == EV_ERROR && r->pure_check};
  if (r->status == EV_OK && !v) /* every failure path records one */
    res.status = EV_INVALID, res.msg = "internal: no value";
  return res;
}

EvResult ev_eval(EvRun *r, Expr *e) {
  begin(r);
  return finish(r, eval(r, e, NULL));
}

EvResult ev_apply(EvRun *r, EvValue *fn, int nargs, EvValue *const *args) {
  begin(r);
  Expr *e = NULL;
  EvEnv *env = NULL;
  EvValue **a = ARENA_ARRAY(r->arena, EvValue *, nargs);
  memcpy(a, args, sizeof(EvValue *) * (size_t)nargs);
  EvValue *v = spend(r, 1) ? enter_closure(r, fn, nargs, a, &e, &env) : NULL;
  if (v == TAIL)
    v = eval(r, e, env);
  return finish(r, v);
}

EvResult ev_call_global(EvRun *r, GlobalFn *g, int nargs, EvValue *const *args) {
  begin(r);
  EvValue *f = global_value(r, g);
  if (!f)
    return finish(r, NULL);
  return ev_apply(r, f, nargs, args);
}

Type *ev_func_type(Arena *a, const Expr *fn) {
  if (fn->kind != EX_FUNC)
    return NULL;
  if (fn->type && fn->type->kind == TY_FUNC)
    return fn->type;
  Type **ps = ARENA_ARRAY(a, Type *, fn->func.nparams);
  for (int i = 0; i < fn->func.nparams; i++)
    if (!(ps[i] = fn->func.params[i]->annot))
      return NULL;
  Type *ret = fn->func.ret ? fn->func.ret : ir_incomplete_type(a, 0);
  return ir_func_type(a, fn->func.ntvars, fn->func.tvars, fn->func.nparams, ps, ret);
}

EvResult ev_run_main(EvRun *r, const Module *m, uint64_t seed) {
  begin(r);
  GlobalFn *g = ir_global_get(m, "main");
  if (!g || !g->func || g->func->kind != EX_FUNC) {
    ev_fail(r, EV_INVALID, "no @main");
    return finish(r, NULL);
  }
  Type *t = ev_func_type(r->arena, g->func);
  if (!t) {
    ev_fail(r, EV_INVALID, "@main's parameter types are unknown (not inferred, not annotated)");
    return finish(r, NULL);
  }
  EvValue **args = ARENA_ARRAY(r->arena, EvValue *, t->func.nparams);
  if (!ev_make_args(r, t, seed, args))
    return finish(r, NULL);
  EvResult res = ev_call_global(r, g, t->func.nparams, args);
  if (res.status == EV_OK &&
      !annot_holds(r, g->func->func.ret, g->func->func.body->type, res.value, "@main's result", ""))
    return finish(r, NULL);
  return res;
}
