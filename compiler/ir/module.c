/*
 * module.c - modules, the prelude types, and the expression builder.
 */
#include <stdlib.h>
#include <string.h>

#include "ir.h"
#include "ptrmap.h"

/* ---------------------------------------------------------------- module */

/* The prelude, built in one block (every module has it, so this is on
 * the fuzzers' hot path).  Names point to string literals: nothing writes
 * or frees them.  The result is what ir_typedef_add and ir_ctor_add would
 * build:
 *   type List[A] { Cons(A, List[A]), Nil }
 *   type Option[A] { Some(A), None }
 *   type Tree[A] { Rose(A, List[Tree[A]]) } */
static void add_prelude(Module *m) {
  enum { LIST, OPTION, TREE, NDEF };
  struct Prelude {
    TypeDef *types[8]; /* m->types, capacity 8 */
    TypeDef def[NDEF];
    Type tvar[NDEF];
    Type *tvarp[NDEF];
    Type list_a, tree_a, list_tree; /* List[A], Tree[A], List[Tree[A]] */
    Type *list_a_args[1], *tree_a_args[1], *list_tree_args[1];
    Ctor ctor[5]; /* Cons, Nil, Some, None, Rose */
    Ctor *ctorp[5];
    Type *cons_f[2], *some_f[1], *rose_f[2];
  } *p = ARENA_NEW(m->arena, struct Prelude);
  static const char *const names[NDEF] = {"List", "Option", "Tree"};
  for (int i = 0; i < NDEF; i++) {
    p->tvar[i].kind = TY_VAR;
    p->tvar[i].var.name = "A";
    p->tvarp[i] = &p->tvar[i];
    p->def[i] = (TypeDef){names[i], 1, &p->tvarp[i], 0, NULL, true};
    p->types[i] = &p->def[i];
  }
  Type *la = &p->tvar[LIST], *tb = &p->tvar[TREE];
  p->list_a_args[0] = la;
  p->list_a = (Type){.kind = TY_ADT, .adt = {&p->def[LIST], 1, p->list_a_args}};
  p->tree_a_args[0] = tb;
  p->tree_a = (Type){.kind = TY_ADT, .adt = {&p->def[TREE], 1, p->tree_a_args}};
  p->list_tree_args[0] = &p->tree_a;
  p->list_tree = (Type){.kind = TY_ADT, .adt = {&p->def[LIST], 1, p->list_tree_args}};
  p->cons_f[0] = la;
  p->cons_f[1] = &p->list_a;
  p->some_f[0] = &p->tvar[OPTION];
  p->rose_f[0] = tb;
  p->rose_f[1] = &p->list_tree;
  p->ctor[0] = (Ctor){"Cons", &p->def[LIST], 0, 2, p->cons_f};
  p->ctor[1] = (Ctor){"Nil", &p->def[LIST], 1, 0, NULL};
  p->ctor[2] = (Ctor){"Some", &p->def[OPTION], 0, 1, p->some_f};
  p->ctor[3] = (Ctor){"None", &p->def[OPTION], 1, 0, NULL};
  p->ctor[4] = (Ctor){"Rose", &p->def[TREE], 0, 2, p->rose_f};
  for (int i = 0; i < 5; i++)
    p->ctorp[i] = &p->ctor[i];
  p->def[LIST].nctors = 2;
  p->def[LIST].ctors = &p->ctorp[0];
  p->def[OPTION].nctors = 2;
  p->def[OPTION].ctors = &p->ctorp[2];
  p->def[TREE].nctors = 1;
  p->def[TREE].ctors = &p->ctorp[4];
  m->types = p->types;
  m->ntypes = NDEF;
  m->captypes = 8;
}

Module *ir_module_new(void) {
  Arena *a = arena_new();
  Module *m = ARENA_NEW(a, Module);
  m->arena = a;
  add_prelude(m);
  return m;
}

void ir_module_free(Module *m) {
  if (m)
    arena_free(m->arena);
}

GlobalFn *ir_global_get(const Module *m, const char *name) {
  for (int i = 0; i < m->nfuncs; i++)
    if (strcmp(m->funcs[i]->name, name) == 0)
      return m->funcs[i];
  return NULL;
}

/* Grow an arena-held pointer array (old storage is simply abandoned). */
static void *grow(Arena *a, void *old, int n, int *cap, size_t elem) {
  if (n < *cap)
    return old;
  int nc = *cap ? 2 * *cap : 8;
  void *p = arena_alloc(a, elem * (size_t)nc);
  if (n)
    memcpy(p, old, elem * (size_t)n);
  *cap = nc;
  return p;
}

GlobalFn *ir_global_intern(Module *m, const char *name) {
  GlobalFn *g = ir_global_get(m, name);
  if (g)
    return g;
  g = ARENA_NEW(m->arena, GlobalFn);
  g->name = arena_strdup(m->arena, name);
  m->funcs = grow(m->arena, m->funcs, m->nfuncs, &m->capfuncs, sizeof(GlobalFn *));
  m->funcs[m->nfuncs++] = g;
  return g;
}

void ir_global_remove(Module *m, GlobalFn *g) {
  for (int i = 0; i < m->nfuncs; i++)
    if (m->funcs[i] == g) {
      memmove(&m->funcs[i], &m->funcs[i + 1], sizeof(GlobalFn *) * (size_t)(m->nfuncs - i - 1));
      m->nfuncs--;
      return;
    }
}

GlobalFn *ir_def(Module *m, const char *name, Expr *func) {
  GlobalFn *g = ir_global_intern(m, name);
  g->func = func;
  return g;
}

TypeDef *ir_typedef_get(const Module *m, const char *name) {
  for (int i = 0; i < m->ntypes; i++)
    if (strcmp(m->types[i]->name, name) == 0)
      return m->types[i];
  return NULL;
}

TypeDef *ir_typedef_add(Module *m, const char *name, int ntvars, const char *const *tvar_names) {
  TypeDef *td = ARENA_NEW(m->arena, TypeDef);
  td->name = arena_strdup(m->arena, name);
  td->ntvars = ntvars;
  td->tvars = ntvars ? ARENA_ARRAY(m->arena, Type *, ntvars) : NULL;
  for (int i = 0; i < ntvars; i++)
    td->tvars[i] = ir_type_var(m->arena, tvar_names[i]);
  m->types = grow(m->arena, m->types, m->ntypes, &m->captypes, sizeof(TypeDef *));
  m->types[m->ntypes++] = td;
  return td;
}

Ctor *ir_ctor_add(Module *m, TypeDef *td, const char *name, int nfields, Type *const *fields) {
  Ctor *c = ARENA_NEW(m->arena, Ctor);
  c->name = arena_strdup(m->arena, name);
  c->def = td;
  c->tag = td->nctors;
  c->nfields = nfields;
  c->fields = nfields ? ARENA_ARRAY(m->arena, Type *, nfields) : NULL;
  for (int i = 0; i < nfields; i++)
    c->fields[i] = fields[i];
  Ctor **cs = ARENA_ARRAY(m->arena, Ctor *, td->nctors + 1);
  if (td->nctors)
    memcpy(cs, td->ctors, sizeof(Ctor *) * (size_t)td->nctors);
  cs[td->nctors++] = c;
  td->ctors = cs;
  return c;
}

Ctor *ir_ctor_get(const Module *m, const char *name) {
  for (int i = 0; i < m->ntypes; i++)
    for (int j = 0; j < m->types[i]->nctors; j++)
      if (strcmp(m->types[i]->ctors[j]->name, name) == 0)
        return m->types[i]->ctors[j];
  return NULL;
}

/* The prelude type of that name, or NULL (a module's own type of that
 * name is not the prelude's). */
static TypeDef *prelude_def(const Module *m, const char *name) {
  TypeDef *td = ir_typedef_get(m, name);
  return td && td->builtin ? td : NULL;
}

TypeDef *ir_list_def(const Module *m) {
  return prelude_def(m, "List");
}
TypeDef *ir_option_def(const Module *m) {
  return prelude_def(m, "Option");
}
TypeDef *ir_tree_def(const Module *m) {
  return prelude_def(m, "Tree");
}

/* Does t mention the type definition td? */
static bool mentions(const Type *t, const TypeDef *td) {
  if (!t || t->kind != TY_ADT)
    return false;
  if (t->adt.def == td)
    return true;
  for (int i = 0; i < t->adt.nargs; i++)
    if (mentions(t->adt.args[i], td))
      return true;
  return false;
}

/* Removes prelude type i, then the prelude types whose fields mention it. */
static void prelude_remove(Module *m, int i) {
  TypeDef *gone = m->types[i];
  memmove(&m->types[i], &m->types[i + 1], sizeof(TypeDef *) * (size_t)(m->ntypes - i - 1));
  m->ntypes--;
  for (int k = 0; k < m->ntypes; k++) {
    const TypeDef *td = m->types[k];
    for (int c = 0; td->builtin && c < td->nctors; c++)
      for (int f = 0; f < td->ctors[c]->nfields; f++)
        if (mentions(td->ctors[c]->fields[f], gone)) {
          prelude_remove(m, k);
          return;
        }
  }
}

void ir_prelude_hide(Module *m, const char *name, size_t len) {
  for (int i = 0; i < m->ntypes; i++) {
    const TypeDef *td = m->types[i];
    bool hit = td->builtin && strlen(td->name) == len && !memcmp(td->name, name, len);
    for (int c = 0; td->builtin && c < td->nctors; c++)
      hit |= strlen(td->ctors[c]->name) == len && !memcmp(td->ctors[c]->name, name, len);
    if (hit) {
      prelude_remove(m, i);
      return;
    }
  }
}

/* --------------------------------------------------------------- builder */

static Expr *node(Module *m, ExprKind k) {
  Expr *e = ARENA_NEW(m->arena, Expr);
  e->kind = k;
  return e;
}

static Expr **copy_exprs(Module *m, int n, Expr *const *src) {
  if (n == 0)
    return NULL;
  Expr **p = ARENA_ARRAY(m->arena, Expr *, n);
  memcpy(p, src, sizeof *p * (size_t)n);
  return p;
}

Var *ir_var(Module *m, const char *name, Type *annot) {
  Var *v = ARENA_NEW(m->arena, Var);
  v->name = arena_strdup(m->arena, name && *name ? name : "x");
  v->annot = annot;
  v->id = m->next_var_id++;
  return v;
}

Var *ir_var_static(Module *m, const char *name, Type *annot) {
  Var *v = ARENA_NEW(m->arena, Var);
  v->name = name && *name ? name : "x";
  v->annot = annot;
  v->id = m->next_var_id++;
  return v;
}

Expr *ir_var_ref(Module *m, Var *v) {
  Expr *e = node(m, EX_VAR);
  e->var = v;
  return e;
}

Expr *ir_global_ref(Module *m, GlobalFn *g) {
  Expr *e = node(m, EX_GLOBAL);
  e->global = g;
  return e;
}

Expr *ir_const(Module *m, Tensor *t) {
  Expr *e = node(m, EX_CONST);
  e->constant = t;
  return e;
}

Expr *ir_const_scalar(Module *m, DType dt, double v) {
  return ir_const(m, ir_tensor_scalar_f64(m->arena, dt, v));
}

Expr *ir_tuple(Module *m, int n, Expr *const *fields) {
  Expr *e = node(m, EX_TUPLE);
  e->tuple.n = n;
  e->tuple.fields = copy_exprs(m, n, fields);
  return e;
}

Expr *ir_proj(Module *m, Expr *tuple, int index) {
  Expr *e = node(m, EX_PROJ);
  e->proj.tuple = tuple;
  e->proj.index = index;
  return e;
}

Expr *ir_let(Module *m, Var *v, Expr *value, Expr *body) {
  Expr *e = node(m, EX_LET);
  e->let.var = v;
  e->let.value = value;
  e->let.body = body;
  return e;
}

Expr *ir_if(Module *m, Expr *cond, Expr *then, Expr *els) {
  Expr *e = node(m, EX_IF);
  e->if_.cond = cond;
  e->if_.then = then;
  e->if_.els = els;
  return e;
}

Expr *ir_call_op(Module *m, OpId op, int nargs, Expr *const *args, const Attrs *attrs) {
  Expr *e = node(m, EX_CALL);
  e->call.kind = CALL_OP;
  e->call.op = op;
  if (attrs)
    e->call.attrs = ir_attrs_copy(m->arena, attrs);
  e->call.nargs = nargs;
  e->call.args = copy_exprs(m, nargs, args);
  return e;
}

Expr *ir_call_ctor(Module *m, Ctor *c, int nargs, Expr *const *args) {
  Expr *e = node(m, EX_CALL);
  e->call.kind = CALL_CTOR;
  e->call.ctor = c;
  e->call.nargs = nargs;
  e->call.args = copy_exprs(m, nargs, args);
  return e;
}

Expr *ir_call(Module *m, Expr *callee, int nargs, Expr *const *args) {
  Expr *e = node(m, EX_CALL);
  e->call.kind = CALL_EXPR;
  e->call.callee = callee;
  e->call.nargs = nargs;
  e->call.args = copy_exprs(m, nargs, args);
  return e;
}

Expr *ir_func(Module *m, int nparams, Var *const *params, Type *ret, Expr *body) {
  Expr *e = node(m, EX_FUNC);
  e->func.nparams = nparams;
  if (nparams) {
    e->func.params = ARENA_ARRAY(m->arena, Var *, nparams);
    memcpy(e->func.params, params, sizeof(Var *) * (size_t)nparams);
  }
  e->func.ret = ret;
  e->func.body = body;
  return e;
}

Expr *ir_ref_new(Module *m, Expr *v) {
  Expr *e = node(m, EX_REF_NEW);
  e->ref_new.value = v;
  return e;
}

Expr *ir_ref_read(Module *m, Expr *r) {
  Expr *e = node(m, EX_REF_READ);
  e->ref_read.ref = r;
  return e;
}

Expr *ir_ref_write(Module *m, Expr *r, Expr *v) {
  Expr *e = node(m, EX_REF_WRITE);
  e->ref_write.ref = r;
  e->ref_write.value = v;
  return e;
}

Expr *ir_match(Module *m, Expr *scrut, int n, const Clause *clauses, bool complete) {
  Expr *e = node(m, EX_MATCH);
  e->match.scrut = scrut;
  e->match.n = n;
  e->match.clauses = n ? ARENA_ARRAY(m->arena, Clause, n) : NULL;
  if (n)
    memcpy(e->match.clauses, clauses, sizeof(Clause) * (size_t)n);
  e->match.complete = complete;
  return e;
}

static Pattern *pat(Module *m, PatKind k, int n, Pattern *const *sub) {
  Pattern *p = ARENA_NEW(m->arena, Pattern);
  p->kind = k;
  p->n = n;
  if (n) {
    p->sub = ARENA_ARRAY(m->arena, Pattern *, n);
    memcpy(p->sub, sub, sizeof(Pattern *) * (size_t)n);
  }
  return p;
}

Pattern *ir_pat_wild(Module *m) {
  return pat(m, PAT_WILD, 0, NULL);
}

Pattern *ir_pat_var(Module *m, Var *v) {
  Pattern *p = pat(m, PAT_VAR, 0, NULL);
  p->var = v;
  return p;
}

Pattern *ir_pat_ctor(Module *m, Ctor *c, int n, Pattern *const *sub) {
  Pattern *p = pat(m, PAT_CTOR, n, sub);
  p->ctor = c;
  return p;
}

Pattern *ir_pat_tuple(Module *m, int n, Pattern *const *sub) {
  return pat(m, PAT_TUPLE, n, sub);
}

Expr *ir_expr_clone_node(Module *m, const Expr *e) {
  Expr *c = node(m, e->kind);
  *c = *e;
  return c;
}

/* ------------------------------------------------------------- traversal */

void ir_expr_children(Expr *e, void (*f)(Expr **slot, void *ctx), void *ctx) {
  switch (e->kind) {
  case EX_VAR:
  case EX_GLOBAL:
  case EX_CONST: break;
  case EX_TUPLE:
    for (int i = 0; i < e->tuple.n; i++)
      f(&e->tuple.fields[i], ctx);
    break;
  case EX_PROJ: f(&e->proj.tuple, ctx); break;
  case EX_LET:
    f(&e->let.value, ctx);
    f(&e->let.body, ctx);
    break;
  case EX_IF:
    f(&e->if_.cond, ctx);
    f(&e->if_.then, ctx);
    f(&e->if_.els, ctx);
    break;
  case EX_CALL:
    if (e->call.kind == CALL_EXPR)
      f(&e->call.callee, ctx);
    for (int i = 0; i < e->call.nargs; i++)
      f(&e->call.args[i], ctx);
    break;
  case EX_FUNC: f(&e->func.body, ctx); break;
  case EX_REF_NEW: f(&e->ref_new.value, ctx); break;
  case EX_REF_READ: f(&e->ref_read.ref, ctx); break;
  case EX_REF_WRITE:
    f(&e->ref_write.ref, ctx);
    f(&e->ref_write.value, ctx);
    break;
  case EX_MATCH:
    f(&e->match.scrut, ctx);
    for (int i = 0; i < e->match.n; i++)
      f(&e->match.clauses[i].body, ctx);
    break;
  }
}

/* Counting with a pointer map, so shared nodes count once. */
static void count_visit(Expr **slot, void *ctx) {
  if (ptrmap_first(ctx, *slot))
    ir_expr_children(*slot, count_visit, ctx);
}

static void count_into(PtrMap *s, const Expr *e) {
  Expr *root = (Expr *)e;
  count_visit(&root, s);
}

int64_t ir_expr_count(const Expr *e) {
  PtrMap s = {.arena = arena_new()};
  count_into(&s, e);
  int64_t n = (int64_t)s.n;
  arena_free(s.arena);
  return n;
}

int64_t ir_module_count(const Module *m) {
  PtrMap s = {.arena = arena_new()};
  for (int i = 0; i < m->nfuncs; i++)
    if (m->funcs[i]->func)
      count_into(&s, m->funcs[i]->func);
  int64_t n = (int64_t)s.n;
  arena_free(s.arena);
  return n;
}
