/*
 * types.c - the type generator (tensor types within the limits, tuples,
 * function types, refs, applied ADTs) and the per-typedef facts the
 * expression generator needs: which constructor is the base case, and
 * which type definitions can be recursed on.
 */
#include "compiler/ir/hash.h"
#include "gen_int.h"

/* The order dtypes are offered in: choice 0 is float32, the dtype almost
 * every operator accepts. */
static const DType dtype_order[] = {DT_FLOAT32, DT_INT32,   DT_BOOL,    DT_INT64,  DT_INT8,
                                    DT_FLOAT64, DT_INT16,   DT_UINT8,   DT_UINT16, DT_UINT32,
                                    DT_UINT64,  DT_FLOAT16, DT_BFLOAT16};
_Static_assert(sizeof dtype_order / sizeof *dtype_order == DT_COUNT, "every dtype is offered");

/* Draw a dtype from those both the configuration and its limits allow
 * (the list of them remembered for the last such set). */
static DType draw_dtype(GenCtx *g) {
  static _Thread_local struct {
    uint32_t allowed;
    int n;
    DType pool[DT_COUNT];
  } last = {.allowed = 0, .n = 0};
  uint32_t allowed = g->cfg.dtypes & g->cfg.limits.dtypes;
  if (allowed != last.allowed) {
    last.n = 0;
    for (int i = 0; i < DT_COUNT; i++)
      if (allowed >> dtype_order[i] & 1)
        last.pool[last.n++] = dtype_order[i];
    last.allowed = allowed;
  }
  if (last.n == 0)
    return DT_FLOAT32;
  return last.pool[gen_choose(g, (uint32_t)last.n)];
}

/* A choice in [0, n) favouring small values: weight n - i for option i
 * (what gen_stream_weighted reads and returns for those weights, with the
 * sum in closed form). */
static int small_choice(GenCtx *g, int n) {
  if (n > 64)
    n = 64;
  uint32_t r = gen_stream_below(&g->st, (uint32_t)(n * (n + 1) / 2));
  int i = 0;
  for (; i < n - 1 && r >= (uint32_t)(n - i); i++)
    r -= (uint32_t)(n - i);
  return i;
}

Type *gen_tensor_type(GenCtx *g) {
  const OpLimits *l = &g->cfg.limits;
  DType dt = draw_dtype(g);
  static const uint32_t rank_w[IR_MAX_RANK + 1] = {4, 4, 4, 3, 3, 2, 2};
  int rank = gen_weighted(&g->st, rank_w, l->max_rank + 1);
  int64_t shape[IR_MAX_RANK];
  int64_t numel = 1;
  for (int i = 0; i < rank; i++) {
    int64_t room = l->max_numel / numel;
    int64_t hi = room < l->max_dim ? room : l->max_dim;
    shape[i] = 1 + (hi > 1 ? small_choice(g, (int)hi) : 0);
    numel *= shape[i];
  }
  return ir_tensor_type(g->a, dt, rank, shape);
}

/* The result type of a call some allowed operator's sampler draws (field
 * 0 when the result is a tuple); a plain tensor type if none can. */
static Type *sampled_type(GenCtx *g) {
  /* The k-th allowed operator, in OpId order, without listing them. */
  const uint64_t *allow = g->cfg.op_allow;
  int n = 0;
  for (int i = 0; i < OP_WORDS; i++)
    n += __builtin_popcountll(allow[i]);
  if (n == 0)
    return gen_tensor_type(g);
  int k = (int)gen_choose(g, (uint32_t)n), word = 0;
  while (k >= __builtin_popcountll(allow[word]))
    k -= __builtin_popcountll(allow[word++]);
  uint64_t m = allow[word];
  for (; k > 0; k--)
    m &= m - 1; /* drop the lowest allowed one */
  OpId op = (OpId)(64 * word + __builtin_ctzll(m));
  OpSolveCtx cx = {&g->st.ch, g->a, &g->cfg.limits};
  OpSig sig = {0};
  if (!op_table[op].sample(op, &cx, &sig) || !sig.ret)
    return gen_tensor_type(g); /* a sampler breaking its contract */
  Type *t = sig.ret;
  if (t->kind == TY_TUPLE && t->tuple.n > 0)
    t = t->tuple.fields[0];
  if (t->kind != TY_TENSOR)
    return gen_tensor_type(g);
  g->hint_type = sig.ret;
  g->hint_op = op;
  return t;
}

Type *gen_type(GenCtx *g) {
  return gen_type_at(g, 0, GEN_TY_ANY);
}

/* Whether the configuration lets the generator use definition ai. */
static bool adt_on(GenCtx *g, const AdtInfo *ai) {
  if (!ai->usable)
    return false;
  return ai->def->builtin ? gen_feature(g, GEN_F_ADT) : gen_feature(g, GEN_F_GENADT);
}

bool gen_adts_usable(GenCtx *g) {
  return g->adts_usable;
}

/* Compute g->adts_usable (after the analysis). */
static void find_usable(GenCtx *g) {
  g->adts_usable = false;
  for (int i = 0; i < g->nadts; i++)
    g->adts_usable |= adt_on(g, &g->adts[i]);
}

Type *gen_type_at(GenCtx *g, int depth, GenTyMode mode) {
  uint32_t w[GT_COUNT] = {0};
  const uint8_t *tw = g->pol->type_weight;
  w[GT_TENSOR] = tw[GT_TENSOR] ? tw[GT_TENSOR] : 1;
  if (gen_feature(g, GEN_F_OPS))
    w[GT_OPTYPE] = tw[GT_OPTYPE];
  if (mode != GEN_TY_TENSOR && depth < g->pol->max_type_depth) {
    if (gen_feature(g, GEN_F_TUPLE))
      w[GT_TUPLE] = tw[GT_TUPLE];
    if (mode == GEN_TY_ANY && gen_feature(g, GEN_F_CLOSURE))
      w[GT_FUNC] = tw[GT_FUNC];
    if (mode == GEN_TY_ANY && gen_feature(g, GEN_F_REF))
      w[GT_REF] = tw[GT_REF];
    if (gen_adts_usable(g))
      w[GT_ADT] = tw[GT_ADT];
  }
  switch ((GenTypeKind)gen_weighted(&g->st, w, GT_COUNT)) {
  case GT_TENSOR: break;
  case GT_TUPLE: {
    int n = (int)gen_choose(g, 4);
    Type *f[3];
    for (int i = 0; i < n; i++)
      f[i] = gen_type_at(g, depth + 1, mode);
    return ir_tuple_type(g->a, n, f);
  }
  case GT_FUNC: {
    int n = (int)gen_choose(g, 3);
    Type *p[2];
    for (int i = 0; i < n; i++)
      p[i] = gen_type_at(g, depth + 1, mode);
    Type *ret = gen_type_at(g, depth + 1, mode);
    return ir_func_type(g->a, 0, NULL, n, p, ret);
  }
  case GT_REF: return ir_ref_type(g->a, gen_type_at(g, depth + 1, mode));
  case GT_ADT: return gen_adt_type(g, depth, false, mode);
  case GT_OPTYPE: return sampled_type(g);
  case GT_COUNT: break;
  }
  return gen_tensor_type(g);
}

Type *gen_adt_type(GenCtx *g, int depth, bool recursive_only, GenTyMode mode) {
  AdtInfo *defs[GEN_MAX_ADTS + 3];
  int n = 0;
  for (int i = 0; i < g->nadts; i++) {
    AdtInfo *ai = &g->adts[i];
    if (adt_on(g, ai) && (!recursive_only || ai->recursive))
      defs[n++] = ai;
  }
  if (n == 0)
    return NULL;
  AdtInfo *ai = defs[gen_choose(g, (uint32_t)n)];
  ai->used = true;
  TypeDef *d = ai->def;
  Type *args[4];
  for (int i = 0; i < d->ntvars && i < 4; i++)
    args[i] = gen_type_at(g, depth + 1, mode == GEN_TY_TENSOR ? GEN_TY_TENSOR : mode);
  return ir_adt_type(g->a, d, d->ntvars, args);
}

AdtInfo *gen_adt_info(GenCtx *g, const TypeDef *def) {
  for (int i = 0; i < g->nadts; i++)
    if (g->adts[i].def == def)
      return &g->adts[i];
  return NULL;
}

Type *gen_ctor_field(GenCtx *g, const Ctor *c, const Type *adt, int i) {
  const TypeDef *d = c->def;
  if (d->ntvars == 0)
    return c->fields[i];
  return ir_type_subst(g->a, c->fields[i], d->ntvars, d->tvars, adt->adt.args);
}

int gen_type_depth(const Type *t) {
  int d = 0;
  if (t->kind == TY_TENSOR)
    return 0;
  switch (t->kind) {
  case TY_TUPLE:
    for (int i = 0; i < t->tuple.n; i++) {
      int k = gen_type_depth(t->tuple.fields[i]);
      d = k > d ? k : d;
    }
    return d + 1;
  case TY_FUNC:
    for (int i = 0; i < t->func.nparams; i++) {
      int k = gen_type_depth(t->func.params[i]);
      d = k > d ? k : d;
    }
    int k = gen_type_depth(t->func.ret);
    return (k > d ? k : d) + 1;
  case TY_REF: return gen_type_depth(t->ref.inner) + 1;
  case TY_ADT:
    for (int i = 0; i < t->adt.nargs; i++) {
      int k = gen_type_depth(t->adt.args[i]);
      d = k > d ? k : d;
    }
    return d + 1;
  default: return 0;
  }
}

bool gen_type_poly_adt(const Type *t) {
  switch (t->kind) {
  case TY_TUPLE:
    for (int i = 0; i < t->tuple.n; i++)
      if (gen_type_poly_adt(t->tuple.fields[i]))
        return true;
    return false;
  case TY_REF: return gen_type_poly_adt(t->ref.inner);
  case TY_ADT: return t->adt.nargs > 0;
  default: return false; /* function literals carry annotations */
  }
}

/* A hash of t's outer structure; inner types contribute their kind only
 * below depth lvl, tensors above it their gen_tensor_hash. */
static uint64_t hash_at(const Type *t, int lvl) {
  if (lvl >= 0 && t->kind == TY_TENSOR)
    return gen_tensor_hash(t);
  uint64_t h = hash_mix(0, (uint64_t)t->kind + 1);
  if (lvl < 0)
    return h;
  switch (t->kind) {
  case TY_TENSOR: return h; /* (above) */
  case TY_TUPLE:
    h = hash_mix(h, (uint64_t)t->tuple.n);
    for (int i = 0; i < t->tuple.n; i++)
      h = hash_mix(h, hash_at(t->tuple.fields[i], lvl - 1));
    return h;
  case TY_FUNC:
    h = hash_mix(h, (uint64_t)t->func.nparams);
    return hash_mix(h, hash_at(t->func.ret, lvl - 1));
  case TY_REF: return hash_mix(h, hash_at(t->ref.inner, lvl - 1));
  case TY_ADT:
    h = hash_mix(h, (uint64_t)(uintptr_t)t->adt.def);
    for (int i = 0; i < t->adt.nargs; i++)
      h = hash_mix(h, hash_at(t->adt.args[i], lvl - 1));
    return h;
  case TY_VAR: return hash_mix(h, (uint64_t)(uintptr_t)t);
  case TY_INCOMPLETE: return hash_mix(h, (uint64_t)t->incomplete.id);
  }
  return h;
}

uint64_t gen_type_hash(const Type *t) {
  return hash_at(t, 1);
}

/* The memo entry holding t (its hash filled on a miss, its depth when
 * first asked); t is not a tensor. */
static TypeMemo *memo(GenCtx *g, const Type *t) {
  TypeMemo *m = &g->tmemo[hash_ptr(t) >> 58];
  if (m->t != t)
    *m = (TypeMemo){t, hash_at(t, 1), -1};
  return m;
}

uint64_t gen_hash_memo(GenCtx *g, const Type *t) {
  return memo(g, t)->h;
}

int gen_tdepth_memo(GenCtx *g, const Type *t) {
  TypeMemo *m = memo(g, t);
  if (m->depth < 0)
    m->depth = gen_type_depth(t);
  return m->depth;
}

/* ----------------------------------------------------- ADT bookkeeping */

enum { INF = 1 << 20 };

/* Height of the minimal literal of t given the current estimates. */
static int height(GenCtx *g, const Type *t) {
  int h = 0;
  switch (t->kind) {
  case TY_TUPLE:
    for (int i = 0; i < t->tuple.n; i++) {
      int k = height(g, t->tuple.fields[i]);
      h = k > h ? k : h;
    }
    return h;
  case TY_FUNC: return height(g, t->func.ret);
  case TY_REF: return height(g, t->ref.inner);
  case TY_ADT: {
    AdtInfo *ai = gen_adt_info(g, t->adt.def);
    return ai ? ai->height : INF;
  }
  default: return 0;
  }
}

/* Height of a constructor: one more than its tallest field. */
static int ctor_height(GenCtx *g, const Ctor *c) {
  int h = 0;
  for (int i = 0; i < c->nfields; i++) {
    int k = height(g, c->fields[i]);
    h = k > h ? k : h;
  }
  return h >= INF ? INF : h + 1;
}

bool gen_ctor_determines(const Ctor *c) {
  for (int v = 0; v < c->def->ntvars; v++) {
    bool found = false;
    for (int i = 0; i < c->nfields; i++)
      found |= c->fields[i] == c->def->tvars[v];
    if (!found)
      return false;
  }
  return true;
}

/* Analyse definitions [from, g->nadts) (earlier ones are final). */
static void analyse(GenCtx *g, int from) {
  for (int i = from; i < g->nadts; i++) {
    AdtInfo *ai = &g->adts[i];
    ai->height = INF;
    ai->base = ai->tbase = -1;
    ai->recursive = false;
    for (int j = 0; j < ai->def->nctors; j++)
      for (int k = 0; k < ai->def->ctors[j]->nfields; k++) {
        const Type *f = ai->def->ctors[j]->fields[k];
        ai->recursive |= f->kind == TY_ADT && f->adt.def == ai->def;
      }
  }
  /* Fixpoint: heights only decrease, and are bounded below by 1. */
  for (bool changed = true; changed;) {
    changed = false;
    for (int i = from; i < g->nadts; i++) {
      AdtInfo *ai = &g->adts[i];
      for (int j = 0; j < ai->def->nctors; j++) {
        int h = ctor_height(g, ai->def->ctors[j]);
        if (h < ai->height) {
          ai->height = h;
          ai->base = j;
          changed = true;
        }
      }
    }
  }
  for (int i = from; i < g->nadts; i++) {
    AdtInfo *ai = &g->adts[i];
    int best = INF;
    for (int j = 0; j < ai->def->nctors; j++) {
      const Ctor *c = ai->def->ctors[j];
      int h = ctor_height(g, c);
      if (gen_ctor_determines(c) && h < best) {
        best = h;
        ai->tbase = j;
      }
    }
    /* A definition without a finite, self-typing constructor is never
     * drawn (generated ones always have both). */
    ai->usable = ai->height < INF && (ai->def->ntvars == 0 || ai->tbase >= 0);
  }
}

void gen_adt_analyse(GenCtx *g) {
  /* The prelude (the builtin definitions ir_module_new puts first) is the
   * same in every module and mentions no other definition: analyse it
   * once per thread. */
  static _Thread_local AdtInfo prelude[3];
  static _Thread_local int nprelude = -1;
  g->nadts = 0;
  for (int i = 0; i < g->m->ntypes && g->nadts < GEN_MAX_ADTS + 3; i++)
    g->adts[g->nadts++].def = g->m->types[i];
  int np = 0;
  while (np < g->nadts && np < 3 && g->adts[np].def->builtin)
    np++;
  if (nprelude != np) {
    int n = g->nadts;
    g->nadts = np;
    analyse(g, 0);
    g->nadts = n;
    for (int i = 0; i < np; i++)
      prelude[i] = g->adts[i];
    nprelude = np;
  }
  for (int i = 0; i < np; i++) {
    TypeDef *d = g->adts[i].def;
    g->adts[i] = prelude[i];
    g->adts[i].def = d;
  }
  analyse(g, np);
  find_usable(g);
}
