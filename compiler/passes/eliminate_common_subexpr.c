/*
 * eliminate_common_subexpr.c - common subexpression elimination, as
 * Relay's EliminateCommonSubexpr.
 *
 * Requires: a well-formed module; .type is only copied, never needed.
 * Does: walks each function in evaluation order keeping a scoped table of
 * the pure operator calls evaluated so far.  A candidate is an operator
 * call whose arguments are all shareable (ir_expr_is_shareable: binder-
 * and effect-free).  When a candidate is structurally equal to one in the
 * table (same operator, ir_attrs_equal attributes, equal arguments, with
 * variables compared by identity, so nothing is merged across binders of
 * different variables), it is replaced by that node (a graph binding), or,
 * when the earlier one is the value of an enclosing `let %v`, by %v.
 * Scopes: a let body, each if branch and each match clause opens a scope
 * whose entries are forgotten when it closes, so an entry is only reused
 * where it dominates the use and its variables are in scope; a function
 * body opens a scope that does not see entries from outside it.  Effectful
 * expressions (refs, closure calls, matches, lets) are never candidates.
 * Shared input nodes are rewritten once and reused wherever the result is
 * still valid (the scopes its replacements came from are still open) and
 * its calls are still available (inside the scope it was rewritten in).
 * Contract (pass.h): PASS_EXACT.  A merged call is structurally equal to
 * the one it becomes (constants bit-identical, so 0.0 and -0.0 never
 * merge), operators are deterministic, and only binder- and effect-free
 * expressions are candidates: results, errors and effects stay as they
 * were (the interpreter evaluates a shared node at each use anyway).
 * Guarantees (post_eliminate_common_subexpr): walking the result in
 * evaluation order with the scopes above (a node's children on its first
 * visit only), no visit of a candidate has an earlier visit of a
 * structurally equal, different candidate in its own scope or an
 * enclosing one within the same function body (it should have become
 * that node), and none is in the body of a `let %v` of the same function
 * body whose value is a structurally equal call (it should be %v).
 *
 * Shapes (what a program must contain to exercise this pass; the "cse"
 * policy, generator/cse.c, makes them at any node of the right type):
 *   - structurally equal but distinct operator calls whose arguments are
 *     shareable: in the same scope (merged into one node), after a `let
 *     %v` of the same call (replaced by %v), in an if branch after the
 *     first (merged: the first dominates), in a closure body (kept: a
 *     function body sees no entry from outside), in two sibling branches
 *     (kept: neither dominates);
 *   - near duplicates that must not merge: other attributes (ir_attrs_
 *     equal), a constant differing in one bit (bitwise comparison);
 *   - equal calls that are not candidates: calls on ref_read(%r), one
 *     before and one after a ref_write to %r (equal text, other values).
 * Made only by the default forms, by chance: duplicates in match
 * clauses, and equal calls on variables of different binders or on
 * arguments that call a closure or bind a variable.
 */
#include <stdlib.h>
#include <string.h>

#include "compiler/ir/hash.h"
#include "pass.h"
#include "pass_int.h"

/* ------------------------------------------------ structural equality */

/* Hash of a binder-free expression, memoised per node; variables, globals
 * and constructors by identity, constants by content, attributes ignored
 * (equality checks them). */
static uint64_t shash(PtrMap *memo, const Expr *e) {
  int64_t *v = ptrmap_get(memo, e);
  if (v)
    return (uint64_t)*v;
  uint64_t h = hash_mix(0x51ed, (uint64_t)e->kind);
  switch (e->kind) {
  case EX_VAR: h = hash_mix(h, (uint64_t)(uintptr_t)e->var); break;
  case EX_GLOBAL: h = hash_mix(h, (uint64_t)(uintptr_t)e->global); break;
  case EX_CONST: h = hash_mix(h, ir_tensor_hash(e->constant)); break;
  case EX_TUPLE:
    for (int i = 0; i < e->tuple.n; i++)
      h = hash_mix(h, shash(memo, e->tuple.fields[i]));
    break;
  case EX_PROJ:
    h = hash_mix(hash_mix(h, (uint64_t)e->proj.index), shash(memo, e->proj.tuple));
    break;
  case EX_IF:
    h = hash_mix(h, shash(memo, e->if_.cond));
    h = hash_mix(h, shash(memo, e->if_.then));
    h = hash_mix(h, shash(memo, e->if_.els));
    break;
  case EX_CALL:
    if (e->call.kind == CALL_EXPR) {
      h = hash_mix(h, (uint64_t)(uintptr_t)e);
      break;
    }
    h = hash_mix(h, e->call.kind == CALL_OP ? (uint64_t)e->call.op
                                            : (uint64_t)(uintptr_t)e->call.ctor);
    for (int i = 0; i < e->call.nargs; i++)
      h = hash_mix(h, shash(memo, e->call.args[i]));
    break;
  default: h = hash_mix(h, (uint64_t)(uintptr_t)e); break; /* compared by identity */
  }
  *ptrmap_put(memo, e, NULL) = (int64_t)h;
  return h;
}

static bool seq(const Expr *a, const Expr *b);

/* seq on each pair of n expressions. */
static bool seqs(int n, Expr *const *a, Expr *const *b) {
  for (int i = 0; i < n; i++)
    if (!seq(a[i], b[i]))
      return false;
  return true;
}

/* Structural equality of binder-free expressions, variables by identity. */
static bool seq(const Expr *a, const Expr *b) {
  if (a == b)
    return true;
  if (a->kind != b->kind)
    return false;
  switch (a->kind) {
  case EX_VAR: return a->var == b->var;
  case EX_GLOBAL: return a->global == b->global;
  case EX_CONST: return ir_tensor_identical(a->constant, b->constant);
  case EX_TUPLE:
    return a->tuple.n == b->tuple.n && seqs(a->tuple.n, a->tuple.fields, b->tuple.fields);
  case EX_PROJ: return a->proj.index == b->proj.index && seq(a->proj.tuple, b->proj.tuple);
  case EX_IF:
    return seq(a->if_.cond, b->if_.cond) && seq(a->if_.then, b->if_.then) &&
           seq(a->if_.els, b->if_.els);
  case EX_CALL:
    if (a->call.kind != b->call.kind || a->call.nargs != b->call.nargs)
      return false;
    if (a->call.kind == CALL_OP &&
        (a->call.op != b->call.op || !ir_attrs_equal(&a->call.attrs, &b->call.attrs)))
      return false;
    if (a->call.kind == CALL_CTOR && a->call.ctor != b->call.ctor)
      return false;
    if (a->call.kind == CALL_EXPR)
      return false;
    return seqs(a->call.nargs, a->call.args, b->call.args);
  default: return false;
  }
}

/* ------------------------------------------------------ the scoped table */

typedef struct Entry {
  uint64_t hash;
  Expr *expr; /* the available expression */
  Var *var;   /* non-NULL: expr is the value of `let var`; reuse var */
  int depth;  /* scope depth it was added at */
  struct Entry *next;
} Entry;

typedef struct {
  Entry **buckets;
  size_t nbuckets;
  size_t *log; /* bucket of each entry added, in order (for scope exit) */
  int nlog, caplog;
  int *serial; /* serial number of each open scope */
  int depth, capdepth, next_serial;
  int base; /* the innermost function body's scope: lookups stop there */
  PtrMap hashes;
  PtrMap shareable;
  Arena *arena; /* entries */
} Table;

/* An empty table sized for a module of that many nodes. */
static void table_init(Table *t, int64_t nodes) {
  size_t n = 64;
  while (n < (size_t)nodes * 2)
    n *= 2;
  t->nbuckets = n;
  t->buckets = calloc(n, sizeof *t->buckets);
  t->arena = arena_new();
  t->depth = -1;
}

/* Release the table. */
static void table_free(Table *t) {
  free(t->buckets);
  free(t->log);
  free(t->serial);
  ptrmap_free(&t->hashes);
  ptrmap_free(&t->shareable);
  arena_free(t->arena);
}

/* Open a scope with a new serial number. */
static void scope_open(Table *t) {
  if (++t->depth == t->capdepth) {
    t->capdepth = t->capdepth ? 2 * t->capdepth : 64;
    t->serial = realloc(t->serial, sizeof *t->serial * (size_t)t->capdepth);
  }
  t->serial[t->depth] = t->next_serial++;
}

/* Close the innermost scope, forgetting its entries (always the newest). */
static void scope_close(Table *t) {
  while (t->nlog > 0) {
    Entry *e = t->buckets[t->log[t->nlog - 1]];
    if (e->depth < t->depth)
      break;
    t->buckets[t->log[--t->nlog]] = e->next;
  }
  t->depth--;
}

/* Make expr available in the innermost scope (as var when non-NULL). */
static void table_add(Table *t, Expr *expr, Var *var) {
  Entry *e = ARENA_NEW(t->arena, Entry);
  e->hash = shash(&t->hashes, expr);
  e->expr = expr;
  e->var = var;
  e->depth = t->depth;
  size_t b = e->hash & (t->nbuckets - 1);
  e->next = t->buckets[b];
  t->buckets[b] = e;
  if (t->nlog == t->caplog) {
    t->caplog = t->caplog ? 2 * t->caplog : 256;
    t->log = realloc(t->log, sizeof *t->log * (size_t)t->caplog);
  }
  t->log[t->nlog++] = b;
}

/* The newest visible entry structurally equal to e, or NULL. */
static Entry *table_find(Table *t, const Expr *e) {
  uint64_t h = shash(&t->hashes, e);
  for (Entry *x = t->buckets[h & (t->nbuckets - 1)]; x; x = x->next)
    if (x->depth >= t->base && x->hash == h && seq(x->expr, e))
      return x;
  return NULL;
}

/* ir_expr_is_shareable, memoised. */
static bool shareable(Table *t, const Expr *e) {
  int64_t *v = ptrmap_get(&t->shareable, e);
  if (v)
    return *v == 1;
  bool s;
  switch (e->kind) {
  case EX_VAR:
  case EX_GLOBAL:
  case EX_CONST: s = true; break;
  case EX_TUPLE:
    s = true;
    for (int i = 0; s && i < e->tuple.n; i++)
      s = shareable(t, e->tuple.fields[i]);
    break;
  case EX_PROJ: s = shareable(t, e->proj.tuple); break;
  case EX_IF:
    s = shareable(t, e->if_.cond) && shareable(t, e->if_.then) && shareable(t, e->if_.els);
    break;
  case EX_CALL:
    s = e->call.kind != CALL_EXPR;
    for (int i = 0; s && i < e->call.nargs; i++)
      s = shareable(t, e->call.args[i]);
    break;
  default: s = false; break;
  }
  *ptrmap_put(&t->shareable, e, NULL) = s ? 1 : 2;
  return s;
}

/* An operator call with binder- and effect-free arguments. */
static bool candidate(Table *t, const Expr *e) {
  return e->kind == EX_CALL && e->call.kind == CALL_OP && shareable(t, e);
}

/* ---------------------------------------------------------------- the pass */

typedef struct {
  Expr *result;
  int dep_depth, dep_serial; /* newest outside scope it relies on; -1: none */
  int at_depth, at_serial;   /* the scope it was rewritten in, whose table
                                holds the entries its walk added */
} Memo;

typedef struct {
  Module *m;
  Table t;
  PtrMap memo; /* Expr* -> index + 1 into memos */
  Memo *memos;
  int nmemos, capmemos;
} Cse;

static Expr *cse(Cse *c, Expr *e, int *dep);

/* Keep the deepest dependency that is outside the node being rebuilt. */
static void dep_join(Cse *c, int *dep, int child_dep) {
  if (child_dep <= c->t.depth && child_dep > *dep)
    *dep = child_dep;
}

typedef struct {
  Cse *c;
  int dep;
  bool changed;
} Kids;

/* Rewrite one child slot, collecting its dependency. */
static void kid_slot(Expr **slot, void *ctx) {
  Kids *k = ctx;
  int d = -1;
  Expr *n = cse(k->c, *slot, &d);
  dep_join(k->c, &k->dep, d);
  if (n != *slot) {
    *slot = n;
    k->changed = true;
  }
}

/* Rewrite one child in a scope of its own. */
static Expr *in_scope(Cse *c, Expr *e, int *dep, bool function) {
  int base = c->t.base;
  scope_open(&c->t);
  if (function)
    c->t.base = c->t.depth;
  Expr *r = cse(c, e, dep);
  scope_close(&c->t);
  c->t.base = base;
  return r;
}

/* Rewrite e's children in evaluation order, with the scopes they open. */
static Expr *cse_node(Cse *c, Expr *e, int *dep) {
  Expr *n = pass_clone(c->m, e);
  int d = -1;
  bool changed = false;
#define SUB(slot, scoped, fn)                                                                      \
  do {                                                                                             \
    Expr *r_ = scoped ? in_scope(c, slot, &d, fn) : cse(c, slot, &d);                              \
    dep_join(c, dep, d);                                                                           \
    changed |= r_ != slot;                                                                         \
    slot = r_;                                                                                     \
  } while (0)
  switch (n->kind) {
  case EX_LET: {
    SUB(n->let.value, false, false);
    scope_open(&c->t);
    if (candidate(&c->t, n->let.value))
      table_add(&c->t, n->let.value, n->let.var);
    Expr *b = cse(c, n->let.body, &d);
    scope_close(&c->t);
    dep_join(c, dep, d);
    changed |= b != n->let.body;
    n->let.body = b;
    break;
  }
  case EX_IF:
    SUB(n->if_.cond, false, false);
    SUB(n->if_.then, true, false);
    SUB(n->if_.els, true, false);
    break;
  case EX_FUNC: SUB(n->func.body, true, true); break;
  case EX_MATCH:
    SUB(n->match.scrut, false, false);
    for (int i = 0; i < n->match.n; i++)
      SUB(n->match.clauses[i].body, true, false);
    break;
  default: {
    Kids k = {c, -1, false};
    ir_expr_children(n, kid_slot, &k);
    dep_join(c, dep, k.dep);
    changed |= k.changed;
    break;
  }
  }
#undef SUB
  return changed ? n : e;
}

/* The rewrite of e at this point: its node-level rewrite (memoised while
 * valid), then replaced by an equal available expression if there is one,
 * else made available itself.  *dep receives the scope depth it relies on. */
static Expr *cse(Cse *c, Expr *e, int *dep) {
  Table *t = &c->t;
  Expr *r = NULL;
  int d = -1;
  int64_t *mp = ptrmap_get(&c->memo, e);
  int64_t mi = mp ? *mp : 0; /* the map may grow while e is rewritten */
  if (mi) {
    /* Reused only inside the scope it was rewritten in: elsewhere (a
     * sibling branch) the entries its walk added are gone, and the calls
     * in it must be made available again, or a later equal call is kept. */
    Memo *mm = &c->memos[mi - 1];
    bool deps = mm->dep_depth < 0 ||
                (mm->dep_depth <= t->depth && t->serial[mm->dep_depth] == mm->dep_serial);
    bool within =
        mm->at_depth < 0 || (mm->at_depth <= t->depth && t->serial[mm->at_depth] == mm->at_serial);
    if (deps && within) {
      r = mm->result;
      d = mm->dep_depth;
    }
  }
  if (!r) {
    r = cse_node(c, e, &d);
    if (!mi) {
      if (c->nmemos == c->capmemos) {
        c->capmemos = c->capmemos ? 2 * c->capmemos : 256;
        c->memos = realloc(c->memos, sizeof *c->memos * (size_t)c->capmemos);
      }
      mi = ++c->nmemos;
      *ptrmap_put(&c->memo, e, NULL) = mi;
    }
    c->memos[mi - 1] =
        (Memo){r, d, d >= 0 ? t->serial[d] : 0, t->depth, t->depth >= 0 ? t->serial[t->depth] : 0};
  }
  *dep = d;
  if (!candidate(t, r))
    return r;
  Entry *x = table_find(t, r);
  if (!x) {
    table_add(t, r, NULL);
    return r;
  }
  if (x->expr == r && !x->var)
    return r; /* already available */
  if (x->depth > *dep)
    *dep = x->depth;
  if (!x->var)
    return x->expr;
  Expr *v = ir_var_ref(c->m, x->var);
  v->type = r->type;
  return v;
}

/* Run CSE on every global function (see the top of this file). */
bool pass_eliminate_common_subexpr(Module *m, Diag *d) {
  Cse c = {.m = m};
  table_init(&c.t, ir_module_count(m));
  for (int i = 0; i < m->nfuncs; i++) {
    GlobalFn *g = m->funcs[i];
    if (!g->func)
      continue;
    int dep = -1;
    scope_open(&c.t);
    c.t.base = c.t.depth;
    g->func = cse(&c, g->func, &dep);
    scope_close(&c.t);
  }
  table_free(&c.t);
  ptrmap_free(&c.memo);
  free(c.memos);
  return true;
}

/* ----------------------------------------------------------- postcondition
 * Decided by code of its own: nothing below calls a function the pass
 * reaches (not table_find, candidate, shareable, seq, nor the IR's
 * ir_attrs_equal and ir_tensor_identical that seq uses), so a bug in one
 * cannot make the checker agree with the pass.  The walk records every
 * visit of a candidate call and every let of one, with the scope it is
 * in; equal calls are then found by number, not compared pair by pair:
 * value numbering gives two nodes the same number exactly when they are
 * structurally equal (a node's number is that of its description -- its
 * kind, its own data, its children's numbers -- in a table of the
 * descriptions seen so far). */

/* The value numbers: descriptions interned in a hash table. */
typedef struct {
  uint8_t *bytes; /* every description, back to back */
  size_t nbytes, capbytes;
  size_t *start; /* description i is bytes[start[i] .. start[i + 1]) */
  int64_t n, cap;
  int64_t *slots; /* open addressing: a number + 1, or 0 */
  int64_t nslots;
  uint8_t *desc; /* the description being written */
  size_t ndesc, capdesc;
  PtrMap of; /* Expr* -> its number */
} Numbers;

/* Append n bytes to the description being written. */
static void desc_bytes(Numbers *v, const void *p, size_t n) {
  if (v->ndesc + n > v->capdesc) {
    v->capdesc = 2 * (v->ndesc + n) + 64;
    v->desc = realloc(v->desc, v->capdesc);
  }
  if (n)
    memcpy(v->desc + v->ndesc, p, n);
  v->ndesc += n;
}

/* Append a 64-bit value to the description being written. */
static void desc_u64(Numbers *v, uint64_t x) {
  desc_bytes(v, &x, sizeof x);
}

/* Append a string, its length first, to the description being written. */
static void desc_str(Numbers *v, const char *s) {
  desc_u64(v, strlen(s));
  desc_bytes(v, s, strlen(s));
}

/* The slot of description [p, p + n) in the hash table: its number + 1,
 * or the empty slot where it goes. */
static int64_t *intern_slot(Numbers *v, const uint8_t *p, size_t n) {
  uint64_t mask = (uint64_t)v->nslots - 1;
  for (uint64_t i = hash_fnv1a(0xcbf29ce484222325ull, p, n) & mask;; i = (i + 1) & mask) {
    int64_t k = v->slots[i] - 1;
    if (k < 0 || (v->start[k + 1] - v->start[k] == n && memcmp(v->bytes + v->start[k], p, n) == 0))
      return &v->slots[i];
  }
}

/* Double the hash table (or make it), re-entering every description. */
static void intern_grow(Numbers *v) {
  free(v->slots);
  v->nslots = v->nslots ? 2 * v->nslots : 256;
  v->slots = calloc((size_t)v->nslots, sizeof *v->slots);
  for (int64_t k = 0; k < v->n; k++)
    *intern_slot(v, v->bytes + v->start[k], v->start[k + 1] - v->start[k]) = k + 1;
}

/* The number of the description just written (a new one when it is new);
 * the description is consumed. */
static int64_t number_intern(Numbers *v) {
  if (2 * (v->n + 1) > v->nslots)
    intern_grow(v);
  int64_t *slot = intern_slot(v, v->desc, v->ndesc);
  if (!*slot) {
    if (v->n + 2 > v->cap) {
      v->cap = 2 * v->cap + 64;
      v->start = realloc(v->start, sizeof *v->start * (size_t)v->cap);
    }
    if (v->nbytes + v->ndesc > v->capbytes) {
      v->capbytes = 2 * (v->nbytes + v->ndesc) + 256;
      v->bytes = realloc(v->bytes, v->capbytes);
    }
    memcpy(v->bytes + v->nbytes, v->desc, v->ndesc);
    v->start[v->n] = v->nbytes;
    v->nbytes += v->ndesc;
    v->start[++v->n] = v->nbytes;
    *slot = v->n;
  }
  v->ndesc = 0;
  return *slot - 1;
}

/* An operator's attributes, each with its name, kind and value bits. */
static void desc_attrs(Numbers *v, const Attrs *at) {
  desc_u64(v, (uint64_t)at->n);
  for (int i = 0; i < at->n; i++) {
    const Attr *x = &at->items[i];
    desc_str(v, x->name);
    desc_u64(v, (uint64_t)x->kind);
    if (x->kind == AV_INT || x->kind == AV_BOOL)
      desc_u64(v, (uint64_t)x->i);
    else if (x->kind == AV_FLOAT)
      desc_bytes(v, &x->f, sizeof x->f);
    else if (x->kind == AV_STR)
      desc_str(v, x->s);
    else if (x->kind == AV_INTS || x->kind == AV_PAIRS) {
      size_t count = (size_t)x->n * (x->kind == AV_PAIRS ? 2 : 1);
      desc_u64(v, (uint64_t)x->n);
      desc_bytes(v, x->ints, sizeof *x->ints * count);
    }
  }
}

static int64_t number(Numbers *v, const Expr *e);

/* Number one child (the first of the two visits number makes). */
static void number_child(Expr **slot, void *ctx) {
  number(ctx, *slot);
}

/* Append one child's number (already known) to the description. */
static void desc_child(Expr **slot, void *ctx) {
  desc_u64(ctx, (uint64_t)number(ctx, *slot));
}

/* Whether e's number is made of its children's: the binder-free kinds
 * (variables, globals and constants have no children). */
static bool by_structure(const Expr *e) {
  switch (e->kind) {
  case EX_TUPLE:
  case EX_PROJ:
  case EX_IF: return true;
  case EX_CALL: return e->call.kind != CALL_EXPR;
  default: return false;
  }
}

/* e's value number: variables, globals and constructors by identity,
 * constants by dtype, shape and bits, operators with their attributes,
 * and every other node (a let, a function, a closure call, ...) equal
 * only to itself. */
static int64_t number(Numbers *v, const Expr *e) {
  int64_t *memo = ptrmap_get(&v->of, e);
  if (memo)
    return *memo;
  if (by_structure(e))
    ir_expr_children((Expr *)e, number_child, v); /* numbered before e's description */
  desc_u64(v, (uint64_t)e->kind);
  switch (e->kind) {
  case EX_VAR: desc_u64(v, (uint64_t)(uintptr_t)e->var); break;
  case EX_GLOBAL: desc_u64(v, (uint64_t)(uintptr_t)e->global); break;
  case EX_CONST: {
    const Tensor *t = e->constant;
    desc_u64(v, (uint64_t)t->dtype);
    desc_u64(v, (uint64_t)t->rank);
    desc_bytes(v, t->shape, sizeof *t->shape * (size_t)t->rank);
    desc_bytes(v, t->data, (size_t)t->numel * (size_t)ir_dtype_size(t->dtype));
    break;
  }
  case EX_PROJ: desc_u64(v, (uint64_t)e->proj.index); break;
  case EX_TUPLE: desc_u64(v, (uint64_t)e->tuple.n); break;
  case EX_CALL:
    if (e->call.kind == CALL_OP) {
      desc_u64(v, 1 + (uint64_t)e->call.op);
      desc_attrs(v, &e->call.attrs);
    } else if (e->call.kind == CALL_CTOR) {
      desc_u64(v, 0);
      desc_u64(v, (uint64_t)(uintptr_t)e->call.ctor);
    }
    desc_u64(v, (uint64_t)e->call.nargs);
    break;
  default: break;
  }
  if (by_structure(e))
    ir_expr_children((Expr *)e, desc_child, v);
  else if (e->kind != EX_VAR && e->kind != EX_GLOBAL && e->kind != EX_CONST)
    desc_u64(v, (uint64_t)(uintptr_t)e); /* itself */
  int64_t k = number_intern(v);
  *ptrmap_put(&v->of, e, NULL) = k;
  return k;
}

/* Release the numbers. */
static void numbers_free(Numbers *v) {
  free(v->bytes);
  free(v->start);
  free(v->slots);
  free(v->desc);
  ptrmap_free(&v->of);
}

typedef struct {
  int enter, leave; /* walk clock at open and close: nested scopes nest */
  int func;         /* the innermost function body scope holding it */
} PostScope;

typedef struct {
  Expr *e;
  Var *var;    /* non-NULL: e is the value of `let var`, scope its body */
  int scope;   /* the scope e was visited in */
  int order;   /* its place in the walk */
  int64_t key; /* e's value number */
} Sighting;

typedef struct {
  PtrMap seen;  /* nodes whose children were visited */
  PtrMap plain; /* Expr* -> 1 binder- and effect-free, 2 not */
  PostScope *scopes;
  int nscopes, capscopes, scope, func, clock;
  Sighting *sights;
  int nsights, capsights;
  Numbers num;
} Post;

static bool plain(Post *p, const Expr *e);

typedef struct {
  Post *p;
  bool all;
} PlainKids;

/* Note whether one child is binder- and effect-free. */
static void plain_slot(Expr **slot, void *ctx) {
  PlainKids *k = ctx;
  k->all = k->all && plain(k->p, *slot);
}

/* Binds no variable and has no effect (ir_expr_is_shareable: variables,
 * globals, constants, tuples, projections, ifs and calls of operators and
 * constructors, of such), memoised per node. */
static bool plain(Post *p, const Expr *e) {
  int64_t *memo = ptrmap_get(&p->plain, e);
  if (memo)
    return *memo == 1;
  PlainKids k = {p, false};
  switch (e->kind) {
  case EX_VAR:
  case EX_GLOBAL:
  case EX_CONST:
  case EX_TUPLE:
  case EX_PROJ:
  case EX_IF: k.all = true; break;
  case EX_CALL: k.all = e->call.kind != CALL_EXPR; break;
  default: break; /* a let, a function, a ref operation, a match */
  }
  if (k.all)
    ir_expr_children((Expr *)e, plain_slot, &k);
  *ptrmap_put(&p->plain, e, NULL) = k.all ? 1 : 2;
  return k.all;
}

/* The calls CSE merges: an operator call, binder- and effect-free. */
static bool mergeable(Post *p, const Expr *e) {
  return e->kind == EX_CALL && e->call.kind == CALL_OP && plain(p, e);
}

/* Record candidate e (the value of `let var` when var is non-NULL) as seen
 * in the current scope. */
static void sight(Post *p, Expr *e, Var *var) {
  if (p->nsights == p->capsights) {
    p->capsights = p->capsights ? 2 * p->capsights : 64;
    p->sights = realloc(p->sights, sizeof *p->sights * (size_t)p->capsights);
  }
  p->sights[p->nsights] = (Sighting){e, var, p->scope, p->nsights, number(&p->num, e)};
  p->nsights++;
}

/* Open a scope inside the current one (a function body when func). */
static void post_open(Post *p, bool func) {
  if (p->nscopes == p->capscopes) {
    p->capscopes = p->capscopes ? 2 * p->capscopes : 64;
    p->scopes = realloc(p->scopes, sizeof *p->scopes * (size_t)p->capscopes);
  }
  int s = p->nscopes++;
  p->scopes[s] = (PostScope){p->clock++, -1, func ? s : p->func};
  p->scope = s;
  p->func = p->scopes[s].func;
}

/* Close the current scope, back to the one that was current at its open. */
static void post_close(Post *p, int outer) {
  p->scopes[p->scope].leave = p->clock++;
  p->scope = outer;
  p->func = outer < 0 ? -1 : p->scopes[outer].func;
}

static void post_walk(Post *p, Expr *e);

/* Walk e in a scope of its own. */
static void post_scoped(Post *p, Expr *e, bool func) {
  int outer = p->scope;
  post_open(p, func);
  post_walk(p, e);
  post_close(p, outer);
}

/* Walk one child slot in the current scope. */
static void post_slot(Expr **slot, void *ctx) {
  post_walk(ctx, *slot);
}

/* Record the candidates of e in evaluation order: its children on its
 * first visit (a let body, each if branch, each match clause and each
 * function body in a scope of its own), then e itself. */
static void post_walk(Post *p, Expr *e) {
  if (ptrmap_first(&p->seen, e)) {
    switch (e->kind) {
    case EX_LET: {
      int outer = p->scope;
      post_walk(p, e->let.value);
      post_open(p, false);
      if (mergeable(p, e->let.value))
        sight(p, e->let.value, e->let.var);
      post_walk(p, e->let.body);
      post_close(p, outer);
      break;
    }
    case EX_IF:
      post_walk(p, e->if_.cond);
      post_scoped(p, e->if_.then, false);
      post_scoped(p, e->if_.els, false);
      break;
    case EX_FUNC: post_scoped(p, e->func.body, true); break;
    case EX_MATCH:
      post_walk(p, e->match.scrut);
      for (int i = 0; i < e->match.n; i++)
        post_scoped(p, e->match.clauses[i].body, false);
      break;
    default: ir_expr_children(e, post_slot, p); break;
    }
  }
  if (mergeable(p, e))
    sight(p, e, NULL);
}

/* Is a seen where b is, inside no function body that a is outside of? */
static bool visible(const Post *p, const Sighting *a, const Sighting *b) {
  const PostScope *s = &p->scopes[a->scope], *t = &p->scopes[b->scope];
  return s->enter <= t->enter && t->leave <= s->leave && s->func == t->func;
}

/* Sightings by value number, then in walk order. */
static int by_key(const void *x, const void *y) {
  const Sighting *a = x, *b = y;
  if (a->key != b->key)
    return a->key < b->key ? -1 : 1;
  return a->order - b->order;
}

/* Report a call b that a visible earlier sighting a of the same number
 * should have become. */
static bool check_pair(const GlobalFn *g, Diag *d, const Post *p, const Sighting *a,
                       const Sighting *b) {
  if (b->var || !(a->var || a->e != b->e) || !visible(p, a, b))
    return true;
  if (a->var)
    pass_report(d, g, b->e, "eliminate_common_subexpr left %s recomputed instead of %%%s",
                ir_op_name(b->e->call.op), a->var->name);
  else
    pass_report(d, g, b->e, "eliminate_common_subexpr left two equal %s calls",
                ir_op_name(b->e->call.op));
  return false;
}

/* The postcondition (see the top of this file), one function at a time:
 * each pair of sightings of equal calls (the same number), in walk order,
 * is checked. */
bool post_eliminate_common_subexpr(const Module *m, Diag *d) {
  Post p = {.scope = -1, .func = -1};
  bool ok = true;
  for (int f = 0; f < m->nfuncs; f++) {
    const GlobalFn *g = m->funcs[f];
    if (!g->func)
      continue;
    p.nsights = p.nscopes = 0;
    post_scoped(&p, g->func, true);
    if (p.nsights > 1)
      qsort(p.sights, (size_t)p.nsights, sizeof *p.sights, by_key);
    for (int i = 0; i < p.nsights; i++)
      for (int j = i - 1; j >= 0 && p.sights[j].key == p.sights[i].key; j--)
        if (!check_pair(g, d, &p, &p.sights[j], &p.sights[i])) {
          ok = false;
          break;
        }
  }
  ptrmap_free(&p.seen);
  ptrmap_free(&p.plain);
  numbers_free(&p.num);
  free(p.scopes);
  free(p.sights);
  return ok;
}
