/*
 * eval_inputs.c - deterministic argument values from a function type and a
 * seed (ev_make_args); the value ranges are documented in eval.h.
 */
#include "compiler/ir/hash.h"
#include "eval_int.h"

/* splitmix64: small, fast, and the same on every platform. */
typedef struct Rng {
  uint64_t s;
} Rng;

/* The next 64 random bits. */
static uint64_t next(Rng *g) {
  return hash_splitmix64(&g->s);
}

/* Uniform in [0, n) (n small, so the modulo bias is negligible). */
static uint32_t below(Rng *g, uint32_t n) {
  return (uint32_t)(next(g) % n);
}

enum {
  ADT_BUDGET = 16, /* constructor nodes per parameter before choosing base cases */
  MAX_NEST = 64,   /* nesting of types (an ADT with no base case never ends) */
};

/* One float element: mostly uniform in [-2, 2], one in four exact. */
static double draw_float(Rng *g) {
  static const double exact[] = {0, 1, -1, 0.5, -0.5, 2, -2, 0.25};
  if (below(g, 4) == 0)
    return exact[below(g, 8)];
  double u = (double)(next(g) >> 11) * 0x1p-53; /* [0, 1) */
  return -2.0 + 4.0 * u;
}

/* A tensor of type t with elements drawn per dtype. */
static EvValue *make_tensor(EvRun *r, const Type *t, Rng *g) {
  int64_t bytes = ev_tensor_bytes(t);
  if (bytes < 0)
    return ev_fail(r, EV_INVALID, "input tensor too large");
  if (!ev_reserve(r, bytes))
    return NULL;
  Tensor *x = ir_tensor_of_type(r->arena, t);
  for (int64_t i = 0; i < x->numel; i++) {
    if (ir_dtype_is_float(x->dtype))
      ir_tensor_set_f64(x, i, draw_float(g));
    else if (x->dtype == DT_BOOL)
      ir_tensor_set_i64(x, i, below(g, 2));
    else
      ir_tensor_set_i64(x, i, (int64_t)below(g, 11) - 5);
  }
  return ev_val_tensor(r, x);
}

/* Does t mention an algebraic data type anywhere? */
static bool has_adt(const Type *t) {
  switch (t->kind) {
  case TY_ADT: return true;
  case TY_TUPLE:
    for (int i = 0; i < t->tuple.n; i++)
      if (has_adt(t->tuple.fields[i]))
        return true;
    return false;
  case TY_REF: return has_adt(t->ref.inner);
  case TY_FUNC: return has_adt(t->func.ret);
  default: return false;
  }
}

/* The constructor with the fewest fields mentioning an ADT: the base case
 * (Nil, None) that ends a value once the budget is spent. */
static int base_ctor(const TypeDef *d) {
  int best = 0, best_n = 1 << 30;
  for (int i = 0; i < d->nctors; i++) {
    int n = 0;
    for (int j = 0; j < d->ctors[i]->nfields; j++)
      n += has_adt(d->ctors[i]->fields[j]);
    if (n < best_n)
      best = i, best_n = n;
  }
  return best;
}

static EvValue *make_value(EvRun *r, const Type *t, Rng *g, int *budget, int nest);

/* An ADT value: while the budget lasts the base constructor is chosen one
 * time in four, other constructors uniformly otherwise. */
static EvValue *make_adt(EvRun *r, const Type *t, Rng *g, int *budget, int nest) {
  const TypeDef *d = t->adt.def;
  if (d->nctors == 0)
    return ev_fail(r, EV_INVALID, "cannot make a value of %s: it has no constructors", d->name);
  int base = base_ctor(d), k = base;
  if (*budget > 0 && d->nctors > 1 && below(g, 4) != 0) {
    k = (int)below(g, (uint32_t)d->nctors - 1);
    k += k >= base; /* uniform over the others */
  }
  Ctor *c = d->ctors[k];
  if (*budget > 0)
    (*budget)--;
  EvValue *v = ev_val_adt(r, c);
  for (int i = 0; i < c->nfields; i++) {
    Type *ft = ir_type_subst(r->arena, c->fields[i], d->ntvars, d->tvars, t->adt.args);
    if (!(v->adt.fields[i] = make_value(r, ft, g, budget, nest + 1)))
      return NULL;
  }
  return v;
}

/* A constant function: ignores its arguments, returns one drawn value. */
static EvValue *make_func(EvRun *r, const Type *t, Rng *g, int *budget, int nest) {
  EvValue *k = make_value(r, t->func.ret, g, budget, nest + 1);
  if (!k)
    return NULL;
  EvValue *f = ARENA_NEW(r->arena, EvValue);
  f->kind = VAL_CLOSURE;
  f->closure.konst = k;
  return f;
}

/* A value of type t; budget counts ADT nodes left, nest the depth. */
static EvValue *make_value(EvRun *r, const Type *t, Rng *g, int *budget, int nest) {
  if (nest > MAX_NEST)
    return ev_fail(r, EV_INVALID, "cannot make a finite input value (types nest too deeply)");
  switch (t->kind) {
  case TY_TENSOR: return make_tensor(r, t, g);
  case TY_TUPLE: {
    EvValue *v = ev_val_tuple(r, t->tuple.n);
    for (int i = 0; i < t->tuple.n; i++)
      if (!(v->tuple.fields[i] = make_value(r, t->tuple.fields[i], g, budget, nest + 1)))
        return NULL;
    return v;
  }
  case TY_REF: {
    EvValue *c = make_value(r, t->ref.inner, g, budget, nest + 1);
    return c ? ev_val_ref(r, c) : NULL;
  }
  case TY_ADT: return make_adt(r, t, g, budget, nest);
  case TY_FUNC: return make_func(r, t, g, budget, nest);
  case TY_VAR:
  case TY_INCOMPLETE: break;
  }
  return ev_fail(r, EV_INVALID, "cannot make an input value of a type variable or unknown type");
}

bool ev_make_args(EvRun *r, const Type *fn_type, uint64_t seed, EvValue **args) {
  if (!fn_type || fn_type->kind != TY_FUNC) {
    ev_fail(r, EV_INVALID, "inputs need a function type");
    return false;
  }
  Rng g = {seed};
  for (int i = 0; i < fn_type->func.nparams; i++) {
    int budget = ADT_BUDGET;
    if (!(args[i] = make_value(r, fn_type->func.params[i], &g, &budget, 0)))
      return false;
  }
  return true;
}
