/*
 * adt.c - algebraic data types in expressions: constructor literals and
 * match expressions with complete, possibly nested, patterns -- or, one
 * match in PARTIAL_ONE_IN, a `match?` missing one clause of the cover, which
 * fails at run time on the values that clause would have taken (so the
 * oracles see programs that end in an error, and passes must keep them
 * failing).
 *
 * A match's clauses come from a cover of the scrutinee's type: a list of
 * disjoint patterns that together match every value.  The cover of an ADT
 * has one group per constructor; within a group one field may be covered
 * again (nesting), the others get a wildcard or a variable.  Tuples are
 * covered the same way with a single group.
 *
 * Inside a structurally recursive global, matching on its first parameter
 * (or on a value already known to be smaller) marks the variables bound
 * under a constructor pattern with the parameter's type as smaller: the
 * global may call itself on them (module.c).
 */

#include "gen_int.h"

enum { MAXALT = 8, MAXPV = 8, MAXLEVEL = 3, PARTIAL_ONE_IN = 8 };

/* One alternative of a cover: its pattern and the variables it binds. */
typedef struct Alt {
  Pattern *p;
  int nv;
  Var *v[MAXPV];
  Type *t[MAXPV];
  bool under[MAXPV]; /* bound inside a constructor pattern */
} Alt;

Expr *gen_ctor_literal(GenCtx *g, Type *t, int budget) {
  TypeDef *d = t->adt.def;
  AdtInfo *ai = gen_adt_info(g, d);
  bool leaf = budget <= 1 || g->depth >= g->pol->max_depth;
  bool need = g->free && d->ntvars > 0;
  int first = need ? ai->tbase : ai->base;
  int ci = first;
  if (!leaf) {
    int order[16], n = 0;
    order[n++] = first;
    for (int j = 0; j < d->nctors && n < 16; j++)
      if (j != first && (!need || gen_ctor_determines(d->ctors[j])))
        order[n++] = j;
    ci = order[gen_choose(g, (uint32_t)n)];
  }
  Ctor *c = d->ctors[ci];
  Expr *args[16];
  int b[16];
  int nf = c->nfields < 16 ? c->nfields : 16;
  gen_split(g, budget - 1, nf, b);
  bool pure = true;
  for (int i = 0; i < nf; i++) {
    bool is_tvar = c->fields[i]->kind == TY_VAR;
    args[i] = gen_sub(g, gen_ctor_field(g, c, t, i), b[i], need && is_tvar);
    pure &= g->pure;
  }
  g->pure = pure;
  return ir_call_ctor(g->m, c, nf, args);
}

/* A wildcard or (when room) a fresh variable pattern for a value of t. */
static Pattern *irrefutable(GenCtx *g, Type *t, Alt *alt, bool under) {
  if (alt->nv >= MAXPV || gen_choose(g, 3) == 0)
    return ir_pat_wild(g->m);
  Var *v = gen_fresh_var(g, "v", t, false);
  alt->v[alt->nv] = v;
  alt->t[alt->nv] = t;
  alt->under[alt->nv++] = under;
  return ir_pat_var(g->m, v);
}

/* Append the variables of src to dst (dst has room: both are capped). */
static void merge_vars(Alt *dst, const Alt *src) {
  for (int i = 0; i < src->nv && dst->nv < MAXPV; i++) {
    dst->v[dst->nv] = src->v[i];
    dst->t[dst->nv] = src->t[i];
    dst->under[dst->nv++] = src->under[i];
  }
}

static int cover(GenCtx *g, Type *s, int level, bool under, Alt *out, int max);

/* Cover one constructor (c != NULL) or a tuple (c == NULL) whose field
 * types are ft[0..n): up to max alternatives into out. */
static int cover_group(GenCtx *g, Ctor *c, Type **ft, int n, int level, bool under, Alt *out,
                       int max) {
  bool in = under || c != NULL;
  int j = -1;
  if (n > 0 && max > 1 && level + 1 < MAXLEVEL && gen_feature(g, GEN_F_NESTED)) {
    /* Nest into one of the fields that can be covered by more than one
     * pattern (ADTs and tuples), or into none (choice 0). */
    int fields[16], nf = 0;
    for (int i = 0; i < n && i < 16; i++)
      if (ft[i]->kind == TY_ADT || (ft[i]->kind == TY_TUPLE && ft[i]->tuple.n > 0))
        fields[nf++] = i;
    uint32_t k = gen_choose(g, (uint32_t)nf + 1);
    j = k ? fields[k - 1] : -1;
  }
  Alt sub[MAXALT];
  int k = 1;
  if (j >= 0)
    k = cover(g, ft[j], level + 1, in, sub, max);
  for (int a = 0; a < k; a++) {
    Alt *alt = &out[a];
    alt->nv = 0;
    Pattern *ps[16];
    for (int i = 0; i < n && i < 16; i++) {
      if (i == j) {
        ps[i] = sub[a].p;
        merge_vars(alt, &sub[a]);
      } else {
        ps[i] = irrefutable(g, ft[i], alt, in);
      }
    }
    alt->p = c ? ir_pat_ctor(g->m, c, n, ps) : ir_pat_tuple(g->m, n, ps);
  }
  return k;
}

/* A complete list of disjoint patterns for type s (at most max >= 1). */
static int cover(GenCtx *g, Type *s, int level, bool under, Alt *out, int max) {
  bool can = s->kind == TY_ADT || (s->kind == TY_TUPLE && s->tuple.n > 0 && s->tuple.n <= 16);
  if (s->kind == TY_ADT && s->adt.def->nctors > max)
    can = false;
  if (can && level > 0)
    can = gen_choose(g, 3) != 0;
  if (!can) {
    out[0].nv = 0;
    out[0].p = irrefutable(g, s, &out[0], under);
    return 1;
  }
  if (s->kind == TY_TUPLE)
    return cover_group(g, NULL, s->tuple.fields, s->tuple.n, level, under, out, max);
  TypeDef *d = s->adt.def;
  int total = 0;
  for (int ci = 0; ci < d->nctors; ci++) {
    Ctor *c = d->ctors[ci];
    Type *ft[16];
    int n = c->nfields < 16 ? c->nfields : 16;
    for (int i = 0; i < n; i++)
      ft[i] = gen_ctor_field(g, c, s, i);
    int room = max - total - (d->nctors - ci - 1);
    total += cover_group(g, c, ft, n, level, under, out + total, room);
  }
  return total;
}

bool gen_match_ok(GenCtx *g) {
  return gen_adts_usable(g);
}

/* Whether scrutinising e yields values smaller than the recursive
 * global's parameter. */
static bool smaller_source(GenCtx *g, const Expr *e) {
  if (!g->self || e->kind != EX_VAR)
    return false;
  if (e->var == g->self_param)
    return true;
  for (int i = g->nscope - 1; i >= g->scope_base; i--)
    if (g->scope[i].var == e->var)
      return g->scope[i].smaller;
  return false;
}

/* The body of a clause that binds a smaller value sm: bind the recursive
 * call on it first, then generate the body with the result in scope. */
typedef struct RecArg {
  Type *t;
  int budget;
} RecArg;

static Expr *after_rec(GenCtx *g, Var *r, void *arg) {
  RecArg *ra = arg;
  (void)r;
  return gen_sub(g, ra->t, ra->budget, false);
}

Expr *gen_match_on(GenCtx *g, Expr *scrut, Type *s, Type *t, int budget, bool force_rec) {
  bool smaller = smaller_source(g, scrut);
  Type *self_arg = g->self ? g->self_type->func.params[0] : NULL;
  Alt alts[MAXALT];
  int n = cover(g, s, 0, false, alts, MAXALT);
  /* A recursive global's match stays complete (its base case is a clause). */
  bool complete = true;
  if (!force_rec && n > 1 && gen_choose(g, PARTIAL_ONE_IN) == PARTIAL_ONE_IN - 1) {
    int drop = (int)gen_choose(g, (uint32_t)n);
    for (int i = drop; i + 1 < n; i++)
      alts[i] = alts[i + 1];
    n--;
    complete = false;
  }
  Clause *cl = ARENA_ARRAY(g->a, Clause, n);
  int *b = ARENA_ARRAY(g->a, int, n);
  gen_split(g, budget, n, b);
  bool free = g->free;
  for (int i = 0; i < n; i++) {
    int mark = g->nscope;
    int sm = -1;
    for (int k = 0; k < alts[i].nv; k++) {
      gen_scope_push(g, alts[i].v[k], alts[i].t[k]);
      if (smaller && alts[i].under[k] && ir_type_equal(alts[i].t[k], self_arg)) {
        g->scope[g->nscope - 1].smaller = true;
        sm = g->nscope - 1;
      }
    }
    cl[i].pat = alts[i].p;
    if (sm >= 0 && force_rec && gen_feature(g, GEN_F_LET) && gen_choose(g, 3) != 0) {
      int rb = b[i] / 2 > 1 ? b[i] / 2 : 1;
      Expr *call = gen_self_call(g, sm, rb);
      RecArg ra = {t, b[i] - rb};
      bool saved = g->free;
      g->free = i == 0 && free;
      cl[i].body = gen_let_with(g, g->self_type->func.ret, call, after_rec, &ra);
      g->free = saved;
    } else {
      cl[i].body = gen_sub(g, t, b[i], i == 0 && free);
    }
    gen_scope_pop(g, mark);
  }
  g->pure = false;
  return ir_match(g->m, scrut, n, cl, complete);
}

/* ADT or tuple variables in scope worth matching on (tuples only with
 * GEN_F_TUPLE: a tuple an operator takes, concatenate's, may be in scope
 * without it). */
static int find_scrutinees(GenCtx *g, Scoped **out, int max) {
  int n = 0;
  bool tup = gen_feature(g, GEN_F_TUPLE);
  for (int i = g->nscope - 1; i >= g->scope_base && n < max; i--) {
    Type *t = g->scope[i].type;
    if (t->kind == TY_ADT || (tup && t->kind == TY_TUPLE && t->tuple.n > 0 && t->tuple.n <= 16))
      out[n++] = &g->scope[i];
  }
  return n;
}

Expr *gen_match(GenCtx *g, Type *t, int budget) {
  Scoped *vars[16];
  int nv = find_scrutinees(g, vars, 16);
  bool tup = gen_feature(g, GEN_F_TUPLE);
  uint32_t k = gen_choose(g, (uint32_t)nv + 1 + tup);
  int b[2];
  gen_split(g, budget - 1, 2, b);
  Expr *scrut;
  Type *s;
  if ((int)k < nv) {
    s = vars[k]->type;
    scrut = gen_var_expr(g, vars[k]);
    b[1] += b[0];
  } else {
    s = gen_adt_type(g, 0, false, GEN_TY_ANY);
    if (!s) {
      gen_fail(g, "no type definition to match on, though gen_match_ok allowed a match");
      return gen_literal(g, t, b[1]);
    }
    if ((int)k > nv) {
      Type *other = gen_type_at(g, 1, GEN_TY_ANY);
      int at = (int)gen_choose(g, 2);
      Type *f[2] = {at ? other : s, at ? s : other};
      s = ir_tuple_type(g->a, 2, f);
    }
    scrut = gen_sub(g, s, b[0], true);
  }
  return gen_match_on(g, scrut, s, t, b[1], false);
}
