/*
 * prelude.c - calls of the polymorphic prelude functions (@map, @foldl,
 * @zip, @tmap, ...: compiler/typing/typing.h, ty_prelude_add), so that
 * programs exercise polymorphic instantiation and higher-order code.
 *
 * To know which prelude functions can return a wanted type, their result
 * types are copied once per thread (from a scratch module, freed at once)
 * into plain patterns: type variables by index, prelude ADTs by name.  A
 * chosen function is then added to the module being generated, its type
 * variables are bound by matching its result type against the wanted
 * type, the others drawn by the type generator, and the arguments are
 * generated at the instantiated parameter types.  Arguments are generated
 * self-typing (g->free), so type inference can always recover the type
 * variables at the call.
 */
#include <string.h>

#include "compiler/typing/typing.h"
#include "gen_int.h"

enum { MAXFN = 32, MAXPAT = 512, MAXTV = 3 };

/* A type pattern: like a Type, without pointers into any module. */
typedef struct Pat {
  TypeKind kind; /* TY_VAR: a type variable of the function, by index */
  int var;
  DType dtype;
  int rank;
  int64_t shape[IR_MAX_RANK];
  char adt[16]; /* TY_ADT: the prelude definition's name */
  int n;        /* children: tuple fields, function params then result,
                   ref inner, ADT args */
  int sub[4];
} Pat;

static _Thread_local struct {
  bool init;
  int nfn;
  struct {
    const char *name; /* static, from ty_prelude_name */
    int ret;          /* pattern of the result type */
    bool fn_param;    /* takes a function */
  } fn[MAXFN];
  Pat pat[MAXPAT];
  int npat;
} sigs;

/* Copy t into a pattern (type variables numbered by tvars); -1 if the
 * table is full or t is not expressible. */
static int to_pat(const Type *t, Type *const *tvars, int ntv) {
  if (sigs.npat >= MAXPAT)
    return -1;
  int i = sigs.npat++;
  Pat *p = &sigs.pat[i];
  memset(p, 0, sizeof *p);
  p->kind = t->kind;
  const Type *kids[4];
  switch (t->kind) {
  case TY_TENSOR:
    p->dtype = t->tensor.dtype;
    p->rank = t->tensor.rank;
    memcpy(p->shape, t->tensor.shape, sizeof p->shape);
    return i;
  case TY_VAR:
    p->var = -1;
    for (int k = 0; k < ntv; k++)
      if (tvars[k] == t)
        p->var = k;
    return p->var >= 0 ? i : -1;
  case TY_TUPLE:
    p->n = t->tuple.n;
    for (int k = 0; k < p->n && k < 4; k++)
      kids[k] = t->tuple.fields[k];
    break;
  case TY_FUNC:
    p->n = t->func.nparams + 1;
    for (int k = 0; k < t->func.nparams && k < 3; k++)
      kids[k] = t->func.params[k];
    kids[p->n - 1] = t->func.ret;
    break;
  case TY_REF:
    p->n = 1;
    kids[0] = t->ref.inner;
    break;
  case TY_ADT:
    if (!t->adt.def->builtin || strlen(t->adt.def->name) >= sizeof p->adt)
      return -1;
    strcpy(p->adt, t->adt.def->name);
    p->n = t->adt.nargs;
    for (int k = 0; k < p->n && k < 4; k++)
      kids[k] = t->adt.args[k];
    break;
  default: return -1;
  }
  if (p->n > 4)
    return -1;
  for (int k = 0; k < p->n; k++) {
    int c = to_pat(kids[k], tvars, ntv);
    if (c < 0)
      return -1;
    sigs.pat[i].sub[k] = c;
  }
  return i;
}

/* Fill sigs from a scratch module holding the whole prelude. */
static void load_sigs(void) {
  sigs.init = true;
  Module *m = ir_module_new();
  for (int i = 0; i < ty_prelude_count() && sigs.nfn < MAXFN; i++) {
    const char *name = ty_prelude_name(i);
    GlobalFn *g = ty_prelude_add(m, name);
    if (!g || !g->func || g->func->kind != EX_FUNC || g->func->func.ntvars > MAXTV ||
        !g->func->func.ret)
      continue;
    const Expr *f = g->func;
    int ret = to_pat(f->func.ret, f->func.tvars, f->func.ntvars);
    if (ret < 0)
      continue;
    bool fn_param = false;
    for (int k = 0; k < f->func.nparams; k++)
      fn_param |= f->func.params[k]->annot && f->func.params[k]->annot->kind == TY_FUNC;
    sigs.fn[sigs.nfn].name = name;
    sigs.fn[sigs.nfn].ret = ret;
    sigs.fn[sigs.nfn++].fn_param = fn_param;
  }
  ir_module_free(m);
}

/* Does pattern p match t, consistently with the bindings so far? */
static bool pmatch(int pi, const Type *t, const Type **bind) {
  const Pat *p = &sigs.pat[pi];
  if (p->kind == TY_VAR) {
    if (bind[p->var])
      return ir_type_equal(bind[p->var], t);
    bind[p->var] = t;
    return true;
  }
  if (p->kind != t->kind)
    return false;
  switch (p->kind) {
  case TY_TENSOR:
    return p->dtype == t->tensor.dtype && p->rank == t->tensor.rank &&
           memcmp(p->shape, t->tensor.shape, sizeof(int64_t) * (size_t)p->rank) == 0;
  case TY_TUPLE:
    if (p->n != t->tuple.n)
      return false;
    for (int k = 0; k < p->n; k++)
      if (!pmatch(p->sub[k], t->tuple.fields[k], bind))
        return false;
    return true;
  case TY_FUNC:
    if (p->n != t->func.nparams + 1)
      return false;
    for (int k = 0; k + 1 < p->n; k++)
      if (!pmatch(p->sub[k], t->func.params[k], bind))
        return false;
    return pmatch(p->sub[p->n - 1], t->func.ret, bind);
  case TY_REF: return pmatch(p->sub[0], t->ref.inner, bind);
  case TY_ADT:
    if (!t->adt.def->builtin || strcmp(p->adt, t->adt.def->name) != 0 || p->n != t->adt.nargs)
      return false;
    for (int k = 0; k < p->n; k++)
      if (!pmatch(p->sub[k], t->adt.args[k], bind))
        return false;
    return true;
  default: return false;
  }
}

bool gen_prelude_ok(GenCtx *g) {
  return gen_feature(g, GEN_F_PRELUDE | GEN_F_ADT | GEN_F_GLOBAL) &&
         g->pol->form_weight[GF_GLOBAL] > 0;
}

/* Bind the real type variables of f by matching its result against t. */
static bool rmatch(const Type *p, const Type *t, Type *const *tv, int ntv, Type **bind) {
  if (p->kind == TY_VAR) {
    for (int k = 0; k < ntv; k++)
      if (tv[k] == p) {
        if (bind[k])
          return ir_type_equal(bind[k], t);
        bind[k] = (Type *)t;
        return true;
      }
    return false;
  }
  if (p->kind != t->kind)
    return false;
  switch (p->kind) {
  case TY_TUPLE:
    if (p->tuple.n != t->tuple.n)
      return false;
    for (int k = 0; k < p->tuple.n; k++)
      if (!rmatch(p->tuple.fields[k], t->tuple.fields[k], tv, ntv, bind))
        return false;
    return true;
  case TY_FUNC:
    if (p->func.nparams != t->func.nparams)
      return false;
    for (int k = 0; k < p->func.nparams; k++)
      if (!rmatch(p->func.params[k], t->func.params[k], tv, ntv, bind))
        return false;
    return rmatch(p->func.ret, t->func.ret, tv, ntv, bind);
  case TY_REF: return rmatch(p->ref.inner, t->ref.inner, tv, ntv, bind);
  case TY_ADT:
    if (p->adt.def != t->adt.def)
      return false;
    for (int k = 0; k < p->adt.nargs; k++)
      if (!rmatch(p->adt.args[k], t->adt.args[k], tv, ntv, bind))
        return false;
    return true;
  default: return ir_type_equal(p, t);
  }
}

Expr *gen_prelude_call(GenCtx *g, Type *t, int budget) {
  if (!sigs.init)
    load_sigs();
  int cand[MAXFN], n = 0;
  for (int i = 0; i < sigs.nfn; i++) {
    const Type *bind[MAXTV] = {0};
    if ((!sigs.fn[i].fn_param || gen_feature(g, GEN_F_CLOSURE)) && pmatch(sigs.fn[i].ret, t, bind))
      cand[n++] = i;
  }
  if (n == 0) /* only when the prelude changed under us: @id matches all */
    return gen_literal(g, t, budget);
  GlobalFn *gf = ty_prelude_add(g->m, sigs.fn[cand[gen_choose(g, (uint32_t)n)]].name);
  Expr *f = gf->func;
  Type *bind[MAXTV] = {0};
  int ntv = f->func.ntvars;
  if (!rmatch(f->func.ret, t, f->func.tvars, ntv, bind))
    return gen_literal(g, t, budget);
  for (int k = 0; k < ntv; k++)
    if (!bind[k])
      bind[k] = gen_type_at(g, 1, GEN_TY_DATA);
  int np = f->func.nparams;
  Expr *args[8];
  int b[8];
  gen_split(g, budget - 1, np, b);
  for (int k = 0; k < np && k < 8; k++) {
    Type *pt = ir_type_subst(g->a, f->func.params[k]->annot, ntv, f->func.tvars, bind);
    args[k] = gen_sub(g, pt, b[k], true);
  }
  g->pure = false;
  return ir_call(g->m, ir_global_ref(g->m, gf), np, args);
}
