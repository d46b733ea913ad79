/*
 * equal.c - alpha-equivalence and hashing of expressions and modules.
 *
 * Bound variables correspond by binding position (a map built while
 * descending), globals and constructors by name, constants bitwise, type
 * definitions by name (so two different modules, e.g. m and
 * parse(print(m)), can be compared).  Free variables are the same variable
 * (pointer) in ir_expr_alpha_equal, whose expressions come from one module:
 * two variables with the same name hint are different variables, which
 * the printer names apart (%x, %x1), so a comparison by name would see an
 * equality the program's text does not have.  Only ir_module_alpha_equal
 * of two different modules matches free variables by name.  Sharing
 * is remembered: once a node pair is proven equal it is not compared again,
 * so DAGs with graph bindings compare in linear time.
 */
#include <stdlib.h>
#include <string.h>

#include "hash.h"
#include "ir.h"
#include "ptrmap.h"

typedef struct {
  const void *a, *b;
} Pair;

typedef struct {
  Pair *v;
  int n, cap;
} Pairs;

typedef struct {
  Pairs vars;   /* bound variable correspondence (a stack) */
  Pairs tvars;  /* bound type variable correspondence */
  PtrMap memo;  /* a-node -> the b-node it was proven equal to */
  bool by_name; /* free variables correspond by name (two modules) */
} Eq;

static void push(Pairs *p, const void *a, const void *b) {
  if (p->n == p->cap) {
    p->cap = p->cap ? 2 * p->cap : 16;
    p->v = realloc(p->v, sizeof(Pair) * (size_t)p->cap);
  }
  p->v[p->n++] = (Pair){a, b};
}

/* -1: a not bound; 1: bound to b; 0: bound to something else. */
static int lookup(const Pairs *p, const void *a, const void *b) {
  for (int i = p->n - 1; i >= 0; i--)
    if (p->v[i].a == a)
      return p->v[i].b == b;
  for (int i = p->n - 1; i >= 0; i--)
    if (p->v[i].b == b)
      return 0;
  return -1;
}

static bool type_eq(Eq *q, const Type *a, const Type *b);

static bool types_eq(Eq *q, int n, Type *const *a, Type *const *b) {
  for (int i = 0; i < n; i++)
    if (!type_eq(q, a[i], b[i]))
      return false;
  return true;
}

static bool type_eq(Eq *q, const Type *a, const Type *b) {
  if (a == b)
    return true;
  if (!a || !b || a->kind != b->kind)
    return false;
  switch (a->kind) {
  case TY_TENSOR: return ir_type_equal(a, b);
  case TY_TUPLE:
    return a->tuple.n == b->tuple.n && types_eq(q, a->tuple.n, a->tuple.fields, b->tuple.fields);
  case TY_FUNC: {
    if (a->func.ntvars != b->func.ntvars || a->func.nparams != b->func.nparams)
      return false;
    int mark = q->tvars.n;
    for (int i = 0; i < a->func.ntvars; i++)
      push(&q->tvars, a->func.tvars[i], b->func.tvars[i]);
    bool eq = types_eq(q, a->func.nparams, a->func.params, b->func.params) &&
              type_eq(q, a->func.ret, b->func.ret);
    q->tvars.n = mark;
    return eq;
  }
  case TY_REF: return type_eq(q, a->ref.inner, b->ref.inner);
  case TY_ADT:
    return strcmp(a->adt.def->name, b->adt.def->name) == 0 && a->adt.nargs == b->adt.nargs &&
           types_eq(q, a->adt.nargs, a->adt.args, b->adt.args);
  case TY_VAR: {
    int r = lookup(&q->tvars, a, b);
    return r < 0 ? strcmp(a->var.name, b->var.name) == 0 : r == 1;
  }
  case TY_INCOMPLETE: return true; /* `_` matches `_` */
  }
  return false;
}

static bool annot_eq(Eq *q, const Type *a, const Type *b) {
  return (!a && !b) || (a && b && type_eq(q, a, b));
}

static bool var_bind(Eq *q, const Var *a, const Var *b) {
  if (!annot_eq(q, a->annot, b->annot))
    return false;
  push(&q->vars, a, b);
  return true;
}

static bool pat_bind(Eq *q, const Pattern *a, const Pattern *b) {
  if (a->kind != b->kind || a->n != b->n)
    return false;
  switch (a->kind) {
  case PAT_WILD: return true;
  case PAT_VAR: return var_bind(q, a->var, b->var);
  case PAT_CTOR:
    if (strcmp(a->ctor->name, b->ctor->name) != 0)
      return false;
    /* fall through */
  case PAT_TUPLE:
    for (int i = 0; i < a->n; i++)
      if (!pat_bind(q, a->sub[i], b->sub[i]))
        return false;
    return true;
  }
  return false;
}

static bool expr_eq(Eq *q, const Expr *a, const Expr *b);

static bool exprs_eq(Eq *q, int n, Expr *const *a, Expr *const *b) {
  for (int i = 0; i < n; i++)
    if (!expr_eq(q, a[i], b[i]))
      return false;
  return true;
}

static bool node_eq(Eq *q, const Expr *a, const Expr *b) {
  if (a->kind != b->kind)
    return false;
  int mark = q->vars.n;
  bool eq = false;
  switch (a->kind) {
  case EX_VAR: {
    int r = lookup(&q->vars, a->var, b->var);
    eq = r < 0 ? a->var == b->var || (q->by_name && strcmp(a->var->name, b->var->name) == 0)
               : r == 1;
    break;
  }
  case EX_GLOBAL: eq = strcmp(a->global->name, b->global->name) == 0; break;
  case EX_CONST: eq = ir_tensor_identical(a->constant, b->constant); break;
  case EX_TUPLE:
    eq = a->tuple.n == b->tuple.n && exprs_eq(q, a->tuple.n, a->tuple.fields, b->tuple.fields);
    break;
  case EX_PROJ:
    eq = a->proj.index == b->proj.index && expr_eq(q, a->proj.tuple, b->proj.tuple);
    break;
  case EX_LET:
    eq = expr_eq(q, a->let.value, b->let.value) && var_bind(q, a->let.var, b->let.var) &&
         expr_eq(q, a->let.body, b->let.body);
    break;
  case EX_IF:
    eq = expr_eq(q, a->if_.cond, b->if_.cond) && expr_eq(q, a->if_.then, b->if_.then) &&
         expr_eq(q, a->if_.els, b->if_.els);
    break;
  case EX_CALL:
    if (a->call.kind != b->call.kind || a->call.nargs != b->call.nargs)
      break;
    if (a->call.kind == CALL_OP)
      eq = a->call.op == b->call.op && ir_attrs_equal(&a->call.attrs, &b->call.attrs);
    else if (a->call.kind == CALL_CTOR)
      eq = strcmp(a->call.ctor->name, b->call.ctor->name) == 0;
    else
      eq = expr_eq(q, a->call.callee, b->call.callee);
    eq = eq && exprs_eq(q, a->call.nargs, a->call.args, b->call.args);
    break;
  case EX_FUNC: {
    static const Attrs none;
    if (a->func.nparams != b->func.nparams || a->func.ntvars != b->func.ntvars ||
        a->func.primitive != b->func.primitive ||
        !ir_attrs_equal(a->func.attrs ? a->func.attrs : &none,
                        b->func.attrs ? b->func.attrs : &none))
      break;
    int tmark = q->tvars.n;
    for (int i = 0; i < a->func.ntvars; i++)
      push(&q->tvars, a->func.tvars[i], b->func.tvars[i]);
    eq = true;
    for (int i = 0; eq && i < a->func.nparams; i++)
      eq = var_bind(q, a->func.params[i], b->func.params[i]);
    eq = eq && annot_eq(q, a->func.ret, b->func.ret) && expr_eq(q, a->func.body, b->func.body);
    q->tvars.n = tmark;
    break;
  }
  case EX_REF_NEW: eq = expr_eq(q, a->ref_new.value, b->ref_new.value); break;
  case EX_REF_READ: eq = expr_eq(q, a->ref_read.ref, b->ref_read.ref); break;
  case EX_REF_WRITE:
    eq = expr_eq(q, a->ref_write.ref, b->ref_write.ref) &&
         expr_eq(q, a->ref_write.value, b->ref_write.value);
    break;
  case EX_MATCH:
    if (a->match.n != b->match.n || a->match.complete != b->match.complete ||
        !expr_eq(q, a->match.scrut, b->match.scrut))
      break;
    eq = true;
    for (int i = 0; eq && i < a->match.n; i++) {
      int cmark = q->vars.n;
      eq = pat_bind(q, a->match.clauses[i].pat, b->match.clauses[i].pat) &&
           expr_eq(q, a->match.clauses[i].body, b->match.clauses[i].body);
      q->vars.n = cmark;
    }
    break;
  }
  q->vars.n = mark;
  return eq;
}

static bool expr_eq(Eq *q, const Expr *a, const Expr *b) {
  if (!a || !b)
    return a == b;
  /* Only binder-free (shareable) nodes are memoised: their meaning does not
   * depend on which variables the enclosing binders map. */
  int64_t *seen = ptrmap_get(&q->memo, a);
  if (seen && *seen == (int64_t)(intptr_t)b)
    return true;
  if (!node_eq(q, a, b))
    return false;
  if (a->kind != EX_VAR && a->kind != EX_CONST && a->kind != EX_GLOBAL)
    *ptrmap_put(&q->memo, a, NULL) = (int64_t)(intptr_t)b;
  return true;
}

static void eq_free(Eq *q) {
  free(q->vars.v);
  free(q->tvars.v);
  ptrmap_free(&q->memo);
}

bool ir_expr_alpha_equal(const Expr *a, const Expr *b) {
  Eq q = {0};
  bool eq = expr_eq(&q, a, b);
  eq_free(&q);
  return eq;
}

static bool typedef_eq(Eq *q, const TypeDef *a, const TypeDef *b) {
  if (strcmp(a->name, b->name) != 0 || a->ntvars != b->ntvars || a->nctors != b->nctors ||
      a->builtin != b->builtin)
    return false;
  int mark = q->tvars.n;
  for (int i = 0; i < a->ntvars; i++)
    push(&q->tvars, a->tvars[i], b->tvars[i]);
  bool eq = true;
  for (int i = 0; eq && i < a->nctors; i++) {
    const Ctor *x = a->ctors[i], *y = b->ctors[i];
    eq = strcmp(x->name, y->name) == 0 && x->nfields == y->nfields &&
         types_eq(q, x->nfields, x->fields, y->fields);
  }
  q->tvars.n = mark;
  return eq;
}

bool ir_module_alpha_equal(const Module *a, const Module *b) {
  if (a->ntypes != b->ntypes || a->nfuncs != b->nfuncs)
    return false;
  Eq q = {.by_name = a != b};
  bool eq = true;
  for (int i = 0; eq && i < a->ntypes; i++)
    eq = typedef_eq(&q, a->types[i], b->types[i]);
  for (int i = 0; eq && i < a->nfuncs; i++) {
    const GlobalFn *f = a->funcs[i], *g = ir_global_get(b, a->funcs[i]->name);
    eq = g && f->is_inline == g->is_inline && expr_eq(&q, f->func, g->func);
  }
  eq_free(&q);
  return eq;
}

/* ------------------------------------------------------------------ hash */

typedef struct {
  Pairs bound; /* a = var, b = (void*)(intptr_t) binding index */
  int work;    /* nodes left to visit: a DAG's paths are not all walked */
} Hs;

static uint64_t expr_hash(Hs *s, const Expr *e, int depth);

static void hash_bind_pat(Hs *s, const Pattern *p, uint64_t *h) {
  *h = hash_mix(*h, p->kind);
  if (p->kind == PAT_VAR)
    push(&s->bound, p->var, (void *)(intptr_t)s->bound.n);
  if (p->kind == PAT_CTOR)
    *h = hash_mix(*h, hash_fnv1a_str(HASH_FNV_BASIS, p->ctor->name));
  for (int i = 0; i < p->n; i++)
    hash_bind_pat(s, p->sub[i], h);
}

static uint64_t expr_hash(Hs *s, const Expr *e, int depth) {
  uint64_t h = hash_mix(0, e->kind);
  /* Past the depth or work budget the rest does not change the hash (the
   * walk order is fixed, so alpha-equal expressions stop at the same
   * point); equality decides. */
  if (depth > 64 || s->work-- <= 0)
    return h;
  int mark = s->bound.n;
  switch (e->kind) {
  case EX_VAR: {
    int i;
    for (i = s->bound.n - 1; i >= 0 && s->bound.v[i].a != e->var; i--)
      ;
    h = hash_mix(h,
                 i < 0 ? hash_fnv1a_str(HASH_FNV_BASIS, e->var->name) : (uint64_t)(s->bound.n - i));
    break;
  }
  case EX_GLOBAL: h = hash_mix(h, hash_fnv1a_str(HASH_FNV_BASIS, e->global->name)); break;
  case EX_CONST: h = hash_mix(h, ir_tensor_hash(e->constant)); break;
  case EX_PROJ: h = hash_mix(h, (uint64_t)e->proj.index); break;
  case EX_LET:
    h = hash_mix(h, expr_hash(s, e->let.value, depth + 1));
    push(&s->bound, e->let.var, NULL);
    h = hash_mix(h, expr_hash(s, e->let.body, depth + 1));
    s->bound.n = mark;
    return h;
  case EX_CALL:
    h = hash_mix(h, e->call.kind);
    if (e->call.kind == CALL_OP)
      h = hash_mix(h, e->call.op);
    if (e->call.kind == CALL_CTOR)
      h = hash_mix(h, hash_fnv1a_str(HASH_FNV_BASIS, e->call.ctor->name));
    break;
  case EX_FUNC:
    for (int i = 0; i < e->func.nparams; i++)
      push(&s->bound, e->func.params[i], NULL);
    h = hash_mix(h, (uint64_t)e->func.nparams);
    h = hash_mix(h, expr_hash(s, e->func.body, depth + 1));
    s->bound.n = mark;
    return h;
  case EX_MATCH:
    h = hash_mix(h, expr_hash(s, e->match.scrut, depth + 1));
    for (int i = 0; i < e->match.n; i++) {
      hash_bind_pat(s, e->match.clauses[i].pat, &h);
      h = hash_mix(h, expr_hash(s, e->match.clauses[i].body, depth + 1));
      s->bound.n = mark;
    }
    return h;
  default: break;
  }
  /* Remaining kinds: hash the children in order. */
  switch (e->kind) {
  case EX_TUPLE:
    for (int i = 0; i < e->tuple.n; i++)
      h = hash_mix(h, expr_hash(s, e->tuple.fields[i], depth + 1));
    break;
  case EX_PROJ: h = hash_mix(h, expr_hash(s, e->proj.tuple, depth + 1)); break;
  case EX_IF:
    h = hash_mix(h, expr_hash(s, e->if_.cond, depth + 1));
    h = hash_mix(h, expr_hash(s, e->if_.then, depth + 1));
    h = hash_mix(h, expr_hash(s, e->if_.els, depth + 1));
    break;
  case EX_CALL:
    if (e->call.kind == CALL_EXPR)
      h = hash_mix(h, expr_hash(s, e->call.callee, depth + 1));
    for (int i = 0; i < e->call.nargs; i++)
      h = hash_mix(h, expr_hash(s, e->call.args[i], depth + 1));
    break;
  case EX_REF_NEW: h = hash_mix(h, expr_hash(s, e->ref_new.value, depth + 1)); break;
  case EX_REF_READ: h = hash_mix(h, expr_hash(s, e->ref_read.ref, depth + 1)); break;
  case EX_REF_WRITE:
    h = hash_mix(h, expr_hash(s, e->ref_write.ref, depth + 1));
    h = hash_mix(h, expr_hash(s, e->ref_write.value, depth + 1));
    break;
  default: break;
  }
  return h;
}

uint64_t ir_expr_hash(const Expr *e) {
  Hs s = {.work = 4096};
  uint64_t h = expr_hash(&s, e, 0);
  free(s.bound.v);
  return h;
}
