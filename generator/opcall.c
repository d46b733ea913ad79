/*
 * opcall.c - operator calls: which operators can produce a wanted type
 * (the registry's recognizers, memoised), and a call built from a solver's
 * solution with arguments generated at the solved types.
 *
 * Recognizers are called for every operator on every wanted tensor type,
 * which would dominate generation time, so their answers are cached per
 * thread, keyed by the type's structure and the limits they were asked
 * under.  The cache only memoises a pure function: results do not depend
 * on it.  Only tensors and tuples of tensors are asked about (operators
 * return nothing else).
 */
#include <stdlib.h>
#include <string.h>

#include "compiler/ir/hash.h"
#include "gen_int.h"

enum { KEYMAX = 30, KEYWORDS = 4, CACHE_BITS = 16, CACHE_SIZE = 1 << CACHE_BITS, NLIMITS = 4 };

_Static_assert(8 * KEYWORDS >= KEYMAX + 1, "a key holds the slot and KEYMAX bytes");

/* A key: the limits slot, the type's serialisation, zeros after it (so
 * keys of different lengths differ in some word: the serialisation says
 * its own length). */
typedef union RecKey {
  uint8_t b[8 * KEYWORDS];
  uint64_t w[KEYWORDS];
} RecKey;

typedef struct RecEntry {
  RecKey key; /* all zero: empty (a type's key never is) */
  uint64_t mask[OP_WORDS];
} RecEntry;

static _Thread_local struct {
  OpLimits lim[NLIMITS]; /* the limits seen so far; slot i tags keys */
  int nlim;
  uint32_t epoch; /* counts the times the cache was emptied */
  RecEntry *e;    /* CACHE_SIZE entries, allocated on first use and kept for
                     the thread's life (reachable, so not a leak) */
} cache;

/* The cache's slot for lim (emptying the cache when all are taken). */
static int limits_slot(const OpLimits *lim) {
  for (int i = 0; i < cache.nlim; i++)
    if (memcmp(&cache.lim[i], lim, sizeof *lim) == 0)
      return i;
  if (cache.nlim == NLIMITS) {
    memset(cache.e, 0, sizeof *cache.e * CACHE_SIZE);
    cache.nlim = 0;
    cache.epoch++;
  }
  cache.lim[cache.nlim] = *lim;
  return cache.nlim++;
}

/* Serialise a tensor type into k; returns the new length or -1. */
static int tensor_key(const Type *t, uint8_t *k, int n) {
  if (n + 2 + 2 * t->tensor.rank > KEYMAX)
    return -1;
  k[n++] = (uint8_t)(0x10 | t->tensor.rank);
  k[n++] = (uint8_t)t->tensor.dtype;
  for (int i = 0; i < t->tensor.rank; i++) {
    int64_t d = t->tensor.shape[i];
    if (d < 0 || d > 0xffff)
      return -1;
    k[n++] = (uint8_t)(d >> 8);
    k[n++] = (uint8_t)d;
  }
  return n;
}

/* Serialise a tensor or tuple-of-tensors type; -1 if too long. */
static int type_key(const Type *t, uint8_t *k) {
  if (t->kind == TY_TENSOR)
    return tensor_key(t, k, 0);
  int n = 0;
  k[n++] = 0x20;
  k[n++] = (uint8_t)t->tuple.n;
  for (int i = 0; i < t->tuple.n && n >= 0; i++)
    n = tensor_key(t->tuple.fields[i], k, n);
  return n;
}

/* Whether operators could produce t at all: a tensor, or a non-empty
 * tuple of tensors. */
static bool tensor_or_tensor_tuple(const Type *t) {
  if (t->kind == TY_TENSOR)
    return true;
  if (t->kind != TY_TUPLE || t->tuple.n == 0)
    return false;
  for (int i = 0; i < t->tuple.n; i++)
    if (t->tuple.fields[i]->kind != TY_TENSOR)
      return false;
  return true;
}

/* Ask every recognizer about t. */
static void recognise(const Type *t, const OpLimits *lim, uint64_t mask[OP_WORDS]) {
  memset(mask, 0, OP_WORDS * sizeof *mask);
  op_fits_hint(t, lim);
  for (int op = 0; op < OP_COUNT; op++)
    if (op_table[op].rec((OpId)op, t, lim))
      mask[op / 64] |= 1ull << (op % 64);
  op_fits_hint(NULL, NULL);
}

/* The cache's slot for g's limits (looked up once per decode). */
static int slot_of(GenCtx *g) {
  if (g->rec_slot == 0 || g->rec_epoch != cache.epoch) {
    g->rec_slot = 1 + limits_slot(&g->cfg.limits);
    g->rec_epoch = cache.epoch;
  }
  return g->rec_slot - 1;
}

/* The cache entry for t under g's limits (NULL when t's key is too long),
 * and whether it already holds t's answer.  On a miss the entry is emptied
 * and *key is what its key must be set to once its mask is filled. */
static RecEntry *lookup(GenCtx *g, const Type *t, bool *hit, RecKey *key) {
  if (!cache.e && !(cache.e = calloc(CACHE_SIZE, sizeof *cache.e)))
    return NULL;
  *key = (RecKey){{0}};
  if (type_key(t, key->b + 1) < 0)
    return NULL;
  key->b[0] = (uint8_t)slot_of(g);
  uint64_t h = 0;
  for (int i = 0; i < KEYWORDS; i++)
    h = hash_mix(h, key->w[i]);
  RecEntry *e = &cache.e[h >> (64 - CACHE_BITS)];
  bool same = true;
  for (int i = 0; i < KEYWORDS; i++)
    same &= e->key.w[i] == key->w[i];
  *hit = same;
  if (!same)
    e->key = (RecKey){{0}};
  return e;
}

/* The set of operators whose recognizer accepts t (under g's limits),
 * from the cache. */
static void rec_mask(GenCtx *g, const Type *t, uint64_t mask[OP_WORDS]) {
  memset(mask, 0, OP_WORDS * sizeof *mask);
  if (!tensor_or_tensor_tuple(t))
    return;
  if (g->rec_type == t) {
    memcpy(mask, g->rec_mask, sizeof g->rec_mask);
    return;
  }
  bool hit;
  RecKey key;
  RecEntry *e = lookup(g, t, &hit, &key);
  if (!e) {
    recognise(t, &g->cfg.limits, mask);
  } else {
    if (!hit) {
      recognise(t, &g->cfg.limits, e->mask);
      e->key = key;
    }
    memcpy(mask, e->mask, sizeof e->mask);
  }
  g->rec_type = t;
  memcpy(g->rec_mask, mask, sizeof g->rec_mask);
}

/* Whether masks m and allow share an operator. */
static bool any_allowed(const uint64_t m[OP_WORDS], const uint64_t allow[OP_WORDS]) {
  uint64_t any = 0;
  for (int i = 0; i < OP_WORDS; i++)
    any |= m[i] & allow[i];
  return any != 0;
}

bool gen_op_available(GenCtx *g, const Type *t) {
  if (!gen_feature(g, GEN_F_OPS) || !tensor_or_tensor_tuple(t))
    return false;
  const uint64_t *allow = g->cfg.op_allow;
  if (g->rec_type == t)
    return any_allowed(g->rec_mask, allow);
  /* copy accepts most wanted tensors (those within the limits): asking its
   * recognizer is cheaper than the cache, a likely memory miss. */
  if (t->kind == TY_TENSOR && (allow[OP_COPY / 64] >> (OP_COPY % 64) & 1) &&
      op_table[OP_COPY].rec(OP_COPY, t, &g->cfg.limits))
    return true;
  bool hit = false;
  RecKey key;
  RecEntry *e = t->kind == TY_TENSOR ? lookup(g, t, &hit, &key) : NULL;
  if (hit) {
    g->rec_type = t;
    memcpy(g->rec_mask, e->mask, sizeof e->mask);
    return any_allowed(e->mask, allow);
  }
  if (t->kind != TY_TENSOR) {
    uint64_t mask[OP_WORDS];
    rec_mask(g, t, mask);
    return any_allowed(mask, allow);
  }
  /* A miss: stop at the first allowed operator that accepts t (copy did
   * not). */
  for (int i = 1; i < OP_COUNT; i++) {
    int op = (OP_COPY + i) % OP_COUNT;
    if ((allow[op / 64] >> (op % 64) & 1) && op_table[op].rec((OpId)op, t, &g->cfg.limits))
      return true;
  }
  return false;
}

int gen_op_candidates(GenCtx *g, const Type *t, OpId *out) {
  if (!gen_feature(g, GEN_F_OPS))
    return 0;
  uint64_t mask[OP_WORDS];
  rec_mask(g, t, mask);
  int n = 0;
  for (int i = 0; i < OP_WORDS; i++)
    for (uint64_t m = mask[i] & g->cfg.op_allow[i]; m; m &= m - 1)
      out[n++] = (OpId)(64 * i + __builtin_ctzll(m));
  return n;
}

bool gen_op_ok(GenCtx *g, OpId op, const Type *t) {
  if (!gen_feature(g, GEN_F_OPS) || !((g->cfg.op_allow[op / 64] >> (op % 64)) & 1))
    return false;
  uint64_t mask[OP_WORDS];
  rec_mask(g, t, mask);
  return (mask[op / 64] >> (op % 64)) & 1;
}

#ifdef RS_TEST_PASSES
bool gen_test_fault_spans;
#endif

bool gen_op_solve(GenCtx *g, OpId op, Type *t, OpSig *sig) {
  OpSolveCtx cx = {&g->st.ch, g->a, &g->cfg.limits};
  memset(sig, 0, sizeof *sig);
  if (op_table[op].solve(op, t, &cx, sig))
    return true;
  char *ty = ir_print_type(t);
  gen_fail(g, "the solver of %s failed on %s, which its recognizer accepted", ir_op_name(op), ty);
  free(ty);
  return false;
}

/* A value-typed operator's call (arange: its result's length is Any to
 * the type checker) is built with the constants its solution names and
 * reshaped to the static type the solution claims, so that what uses it
 * sees static dims, as the generator planned (a relation may refuse an Any
 * dim: gather_nd's indices, squeeze without an axis). */
Expr *gen_op_build(GenCtx *g, OpId op, const OpSig *sig, Expr *const *args) {
  Expr *a[OP_MAX_ARGS];
  for (int i = 0; i < sig->nargs; i++)
    a[i] = sig->lit[i] ? ir_const_scalar(g->m, sig->args[i]->tensor.dtype, sig->val[i]) : args[i];
  Expr *call = ir_call_op(g->m, op, sig->nargs, a, &sig->attrs);
  if (!op_value_typed(op) || !sig->ret || sig->ret->kind != TY_TENSOR)
    return call;
  Attrs at = {0};
  ir_attr_set_ints(g->m->arena, &at, "newshape", sig->ret->tensor.rank, sig->ret->tensor.shape);
  return ir_call_op(g->m, OP_RESHAPE, 1, &call, &at);
}

/* Operators whose results carry little information are drawn at half the
 * weight of the others: those whose float results are NaN or infinite on
 * much of the inputs' range (log, sqrt and rsqrt of a negative or zero
 * argument, a negative base of power), since a NaN or infinity spreads
 * through the rest of a program and hides every difference a pass could
 * make there (NNSmith's lesson); and those whose result is constant or
 * nearly (the fills, sign, argmin and argmax), which hide differences the
 * same way. */
/* Each operator's weight, a factor of its pattern's weight in the policy;
 * an operator not listed weighs 2.  Lossy operators weigh 1 (sign, the
 * constant makers: what flows into them is mostly lost), and so do
 * gather_nd, scatter_elements, one_hot, topk, collapse_sum_like and
 * einsum, which almost any wanted type
 * admits (else they would take the share of others).  Operators that
 * give only rare types (rank-4 floats, extents of 1) or are often
 * refused by their recognizers (the comparisons and predicates compete
 * for the few bool results) weigh more, so that each is in at least
 * 0.5% of the default policy's programs (`relaysmith stats`). */
static const uint8_t op_weights[OP_COUNT] = {
    [OP_SIGN] = 1,
    [OP_ZEROS] = 1,
    [OP_ONES] = 1,
    [OP_FULL] = 1,
    [OP_ZEROS_LIKE] = 1,
    [OP_ONES_LIKE] = 1,
    [OP_ARGMIN] = 4,
    [OP_ARGMAX] = 4,
    [OP_PRELU] = 4,
    [OP_AVG_POOL2D] = 8,
    [OP_LRN] = 16,
    [OP_INSTANCE_NORM] = 8,
    [OP_GLOBAL_MAX_POOL2D] = 12,
    [OP_ADAPTIVE_AVG_POOL2D] = 8,
    [OP_GLOBAL_AVG_POOL2D] = 96,
    [OP_EQUAL] = 3,
    [OP_NOT_EQUAL] = 3,
    [OP_LESS] = 3,
    [OP_LESS_EQUAL] = 3,
    [OP_GREATER] = 3,
    [OP_GREATER_EQUAL] = 3,
    [OP_LOGICAL_XOR] = 3,
    [OP_LOGICAL_NOT] = 3,
    [OP_ISNAN] = 3,
    [OP_ISINF] = 3,
    [OP_ISFINITE] = 3,
    [OP_GATHER_ND] = 1,
    [OP_SCATTER_ELEMENTS] = 1,
    [OP_ONE_HOT] = 1,
    [OP_TOPK] = 1,
    [OP_COLLAPSE_SUM_LIKE] = 1,
    [OP_BATCH_FLATTEN] = 4,
    [OP_DEPTH_TO_SPACE] = 8,
    [OP_SPACE_TO_DEPTH] = 8,
    [OP_UPSAMPLING] = 8,
    [OP_RESIZE2D] = 8,
    [OP_ARANGE] = 3,
    [OP_EINSUM] = 1,
};

uint32_t gen_op_weight(GenCtx *g, OpId op) {
  return g->pol->pattern_weight[op_table[op].pattern] * (op_weights[op] ? op_weights[op] : 2u);
}

Expr *gen_op_call(GenCtx *g, Type *t, int budget) {
  OpId ops[OP_COUNT];
  uint32_t w[OP_COUNT];
  int n = gen_op_candidates(g, t, ops);
  if (n == 0) {
    gen_fail(g, "no operator can produce the wanted type, though gen_op_available said one can");
    return gen_literal(g, t, budget);
  }
  bool hinted = g->hint_type && ir_type_equal(g->hint_type, t);
  for (int i = 0; i < n; i++) {
    w[i] = gen_op_weight(g, ops[i]);
    if (hinted && ops[i] == g->hint_op)
      w[i] *= 16;
  }
  OpId op = ops[gen_weighted(&g->st, w, n)];
#ifdef RS_TEST_PASSES
  if (gen_test_fault_spans && g->spans && op == OP_REVERSE)
    gen_fail(g, "test fault generator_spans: a check of %s that fails only with spans on",
             ir_op_name(op));
#endif
  OpSig sig;
  if (!gen_op_solve(g, op, t, &sig))
    return gen_literal(g, t, budget);
  int b[OP_MAX_ARGS];
  gen_split(g, budget - 1, sig.nargs, b);
  Expr *args[OP_MAX_ARGS];
  bool pure = true;
  for (int i = 0; i < sig.nargs; i++) {
    args[i] = sig.lit[i] ? NULL : gen_sub(g, sig.args[i], b[i], false); /* lit: gen_op_build's */
    pure &= sig.lit[i] || g->pure;
  }
  g->pure = pure;
  return gen_op_build(g, op, &sig, args);
}
