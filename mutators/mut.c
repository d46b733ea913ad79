/*
 * mut.c - the structure-aware mutation core (see mut.h).
 *
 * Every span kind works the same way: pick a span [s, e) of the parent,
 * make new bytes r for it, then decode parent[0, s) + r + zeros once to
 * learn how many bytes c the new subtree reads (the bytes before s are the
 * same, so span i of that decode is the new subtree), and write
 *   parent[0, s) + (r + zeros)[0, c) + parent[e, end)
 * where end is the last byte the parent's decode reads.  The rest of the
 * program is then read from its own bytes again.  Trailing zeros are
 * dropped (a missing byte reads as 0), so outputs stay short.
 *
 * The parent is decoded with zero padding so that no read runs past its
 * end (reads past the end would return 0 without advancing, and spans at
 * the end would be empty); the padding does not change the program.
 *
 * When the generator fails on one of these decodes (a broken contract,
 * gen_decode_checked; a bug, since every byte string is valid), the
 * output is the bytes it failed on instead of a mutant.  The fuzz target
 * then runs them like any mutant, and its check decodes them the same way
 * (spans on), so it reports the failure (oracle "generator") and the
 * engine saves a file that reproduces it.  (Aborting here instead would
 * make libFuzzer save the input being mutated, which passes.)
 */
#include "mut.h"
#include "compiler/ir/hash.h"

#include <assert.h>
#include <stdlib.h>
#include <string.h>

const char *const mut_kind_names[MUT_KINDS] = {"regen",  "shrink", "copy",   "wrap",
                                               "unwrap", "leaf",   "header", "cross"};

/* ------------------------------------------------------------ helpers */

typedef struct Rng {
  uint64_t s;
} Rng;

static uint64_t rnd(Rng *r) {
  return hash_splitmix64(&r->s);
}

/* Uniform in [0, n); 0 when n is 0. */
static uint32_t below(Rng *r, uint32_t n) {
  return n ? (uint32_t)(rnd(r) % n) : 0;
}

/* Roughly log-uniform in [1, hi]: small lengths as often as large ones. */
static size_t loglen(Rng *r, size_t hi) {
  if (hi <= 1)
    return 1;
  int bits = 0;
  while (((size_t)1 << bits) < hi)
    bits++;
  size_t k = 1 + (size_t)(rnd(r) % ((size_t)1 << below(r, (uint32_t)bits + 1)));
  return k < hi ? k : hi;
}

/* A growable malloc'd byte buffer. */
typedef struct Buf {
  uint8_t *p;
  size_t n, cap;
} Buf;

/* Append n bytes of src, or n zeros when src is NULL. */
static void put(Buf *b, const uint8_t *src, size_t n) {
  if (n == 0)
    return;
  if (b->n + n > b->cap) {
    size_t nc = b->cap ? b->cap : 256;
    while (nc < b->n + n)
      nc *= 2;
    uint8_t *q = realloc(b->p, nc);
    if (!q)
      abort();
    b->p = q;
    b->cap = nc;
  }
  if (src)
    memcpy(b->p + b->n, src, n);
  else
    memset(b->p + b->n, 0, n);
  b->n += n;
}

static void put_random(Buf *b, Rng *r, size_t n) {
  size_t at = b->n;
  put(b, NULL, n);
  for (size_t i = 0; i < n; i++)
    b->p[at + i] = (uint8_t)rnd(r);
}

static void buf_free(Buf *b) {
  free(b->p);
  memset(b, 0, sizeof *b);
}

/* Length of data[0, n) without its trailing zeros. */
static size_t untrail(const uint8_t *data, size_t n) {
  while (n && data[n - 1] == 0)
    n--;
  return n;
}

/* ------------------------------------------------------------- inputs */

/* A decoded input. */
typedef struct Input {
  Buf b;        /* its bytes, zero padded so the decoder never runs out */
  Module *m;    /* the program */
  GenSpans sp;  /* its spans; sp.v[0] is @main's body */
  uint32_t end; /* the decoder reads b[0, end) */
  size_t canon; /* b[0, end) without trailing zeros: the same program */
} Input;

enum { PAD = 64 };

static void input_free(Input *in) {
  ir_module_free(in->m);
  gen_spans_free(&in->sp);
  buf_free(&in->b);
}

int mut_subtree_end(const GenSpans *sp, int i) {
  int j = i + 1;
  while (j < sp->n && sp->v[j].depth > sp->v[i].depth)
    j++;
  return j;
}

/* Whether var v is in span i's scope. */
static bool in_scope(const GenSpans *sp, int i, const Var *v) {
  const GenSpan *s = &sp->v[i];
  for (int k = 0; k < s->scope_n; k++)
    if (sp->scope[s->scope_off + k].var == v)
      return true;
  return false;
}

/* --------------------------------------------------- free variables */

enum { MAXFREE = 16, WALK_BUDGET = 4000 };

typedef struct Free {
  const GenSpans *sp;
  int span;
  const Var *v[MAXFREE];
  int n;
  int budget;
  bool overflow;
} Free;

/* Collect the variables e refers to that are in scope where f->span starts. */
static void free_walk(Expr **slot, void *ctx) {
  Free *f = ctx;
  Expr *e = *slot;
  if (--f->budget < 0)
    return;
  if (e->kind == EX_VAR) {
    if (!in_scope(f->sp, f->span, e->var))
      return;
    for (int k = 0; k < f->n; k++)
      if (f->v[k] == e->var)
        return;
    if (f->n == MAXFREE)
      f->overflow = true;
    else
      f->v[f->n++] = e->var;
    return;
  }
  ir_expr_children(e, free_walk, f);
}

/* The free variables of span j's expression. */
static void free_vars(const GenSpans *sp, int j, Free *f) {
  memset(f, 0, sizeof *f);
  f->sp = sp;
  f->span = j;
  f->budget = WALK_BUDGET;
  Expr *e = sp->v[j].expr;
  free_walk(&e, f);
}

/* The type of var v as span j's scope records it. */
static const Type *scope_type(const GenSpans *sp, int j, const Var *v) {
  const GenSpan *s = &sp->v[j];
  for (int k = 0; k < s->scope_n; k++)
    if (sp->scope[s->scope_off + k].var == v)
      return sp->scope[s->scope_off + k].type;
  return NULL;
}

/* Type equality across two modules: type definitions by name, and only
 * the prelude's (generated ones of the same name may differ). */
static bool same_type(const Type *a, const Type *b) {
  if (a == b)
    return true;
  if (!a || !b || a->kind != b->kind)
    return false;
  switch (a->kind) {
  case TY_TENSOR: return ir_type_equal(a, b);
  case TY_TUPLE:
    if (a->tuple.n != b->tuple.n)
      return false;
    for (int i = 0; i < a->tuple.n; i++)
      if (!same_type(a->tuple.fields[i], b->tuple.fields[i]))
        return false;
    return true;
  case TY_FUNC:
    if (a->func.ntvars || b->func.ntvars || a->func.nparams != b->func.nparams)
      return false;
    for (int i = 0; i < a->func.nparams; i++)
      if (!same_type(a->func.params[i], b->func.params[i]))
        return false;
    return same_type(a->func.ret, b->func.ret);
  case TY_REF: return same_type(a->ref.inner, b->ref.inner);
  case TY_ADT:
    if (!a->adt.def->builtin || !b->adt.def->builtin ||
        strcmp(a->adt.def->name, b->adt.def->name) != 0 || a->adt.nargs != b->adt.nargs)
      return false;
    for (int i = 0; i < a->adt.nargs; i++)
      if (!same_type(a->adt.args[i], b->adt.args[i]))
        return false;
    return true;
  default: return false;
  }
}

/* Whether every free variable of donor span j has a variable of its type
 * in recipient span i's scope (then each variable choice of j's bytes
 * finds a candidate of its type there). */
static bool scope_fits(const GenSpans *dsp, int j, const GenSpans *rsp, int i) {
  Free f;
  free_vars(dsp, j, &f);
  if (f.overflow)
    return false;
  const GenSpan *r = &rsp->v[i];
  for (int k = 0; k < f.n; k++) {
    if (dsp == rsp && in_scope(rsp, i, f.v[k]))
      continue;
    const Type *t = scope_type(dsp, j, f.v[k]);
    bool found = false;
    for (int q = 0; q < r->scope_n && !found; q++)
      found = same_type(rsp->scope[r->scope_off + q].type, t);
    if (!found)
      return false;
  }
  return true;
}

/* ------------------------------------------- comparing two subtrees */

/* Structural equality of expressions of two decodes of inputs that agree
 * up to the subtree: variables by id (ids follow creation order, so a
 * variable made before the subtree has the same id in both), binders with
 * their annotations, globals by name and body.  Conservative: false when
 * unsure or past the budget. */
typedef struct Cmp {
  int budget;
  const char *seen[8]; /* globals whose bodies are being compared */
  int nseen;
} Cmp;

static bool same_expr(Cmp *c, const Expr *x, const Expr *y);

static bool same_var(const Var *x, const Var *y) {
  return x->id == y->id && (x->annot == NULL) == (y->annot == NULL) &&
         (!x->annot || same_type(x->annot, y->annot));
}

static bool same_pat(const Pattern *x, const Pattern *y) {
  if (x->kind != y->kind || x->n != y->n)
    return false;
  if (x->kind == PAT_VAR)
    return same_var(x->var, y->var);
  if (x->kind == PAT_CTOR && strcmp(x->ctor->name, y->ctor->name) != 0)
    return false;
  for (int i = 0; i < x->n; i++)
    if (!same_pat(x->sub[i], y->sub[i]))
      return false;
  return true;
}

static bool same_list(Cmp *c, int n, Expr *const *x, Expr *const *y) {
  for (int i = 0; i < n; i++)
    if (!same_expr(c, x[i], y[i]))
      return false;
  return true;
}

/* Same global: same name, and (once) the same body. */
static bool same_global(Cmp *c, const GlobalFn *x, const GlobalFn *y) {
  if (strcmp(x->name, y->name) != 0 || !x->func != !y->func)
    return false;
  for (int i = 0; i < c->nseen; i++)
    if (strcmp(c->seen[i], x->name) == 0)
      return true;
  if (c->nseen == 8)
    return false;
  c->seen[c->nseen++] = x->name;
  return !x->func || same_expr(c, x->func, y->func);
}

static bool same_expr(Cmp *c, const Expr *x, const Expr *y) {
  if (--c->budget < 0 || x->kind != y->kind)
    return false;
  switch (x->kind) {
  case EX_VAR: return x->var->id == y->var->id;
  case EX_GLOBAL: return same_global(c, x->global, y->global);
  case EX_CONST: return ir_tensor_identical(x->constant, y->constant);
  case EX_TUPLE:
    return x->tuple.n == y->tuple.n && same_list(c, x->tuple.n, x->tuple.fields, y->tuple.fields);
  case EX_PROJ: return x->proj.index == y->proj.index && same_expr(c, x->proj.tuple, y->proj.tuple);
  case EX_LET:
    return same_var(x->let.var, y->let.var) && same_expr(c, x->let.value, y->let.value) &&
           same_expr(c, x->let.body, y->let.body);
  case EX_IF:
    return same_expr(c, x->if_.cond, y->if_.cond) && same_expr(c, x->if_.then, y->if_.then) &&
           same_expr(c, x->if_.els, y->if_.els);
  case EX_CALL:
    if (x->call.kind != y->call.kind || x->call.nargs != y->call.nargs)
      return false;
    if (x->call.kind == CALL_OP &&
        (x->call.op != y->call.op || !ir_attrs_equal(&x->call.attrs, &y->call.attrs)))
      return false;
    if (x->call.kind == CALL_CTOR && strcmp(x->call.ctor->name, y->call.ctor->name) != 0)
      return false;
    if (x->call.kind == CALL_EXPR && !same_expr(c, x->call.callee, y->call.callee))
      return false;
    return same_list(c, x->call.nargs, x->call.args, y->call.args);
  case EX_FUNC:
    if (x->func.ntvars || y->func.ntvars || x->func.nparams != y->func.nparams ||
        x->func.primitive != y->func.primitive || !x->func.ret != !y->func.ret ||
        (x->func.ret && !same_type(x->func.ret, y->func.ret)))
      return false;
    for (int i = 0; i < x->func.nparams; i++)
      if (!same_var(x->func.params[i], y->func.params[i]))
        return false;
    return same_expr(c, x->func.body, y->func.body);
  case EX_REF_NEW: return same_expr(c, x->ref_new.value, y->ref_new.value);
  case EX_REF_READ: return same_expr(c, x->ref_read.ref, y->ref_read.ref);
  case EX_REF_WRITE:
    return same_expr(c, x->ref_write.ref, y->ref_write.ref) &&
           same_expr(c, x->ref_write.value, y->ref_write.value);
  case EX_MATCH:
    if (x->match.n != y->match.n || x->match.complete != y->match.complete ||
        !same_expr(c, x->match.scrut, y->match.scrut))
      return false;
    for (int i = 0; i < x->match.n; i++)
      if (!same_pat(x->match.clauses[i].pat, y->match.clauses[i].pat) ||
          !same_expr(c, x->match.clauses[i].body, y->match.clauses[i].body))
        return false;
    return true;
  }
  return false;
}

/* ------------------------------------------------------- the mutator */

typedef struct Mut Mut;
struct Mut {
  const MutOptions *o;
  Rng r;
  size_t max;
  Input in;     /* the parent */
  Buf cand;     /* a candidate being measured */
  Module *cmod; /* its program */
  GenSpans csp; /* its spans */
  Buf out;      /* the result */
  Buf tmp;      /* new span bytes */
  Buf tmp2;
  MutInfo info;
  bool keep_same; /* replace() emits a structurally unchanged subtree too
                     (its bytes may be fewer: the reducer wants that) */
  char why[256];  /* the generator's first failure on a decode, or "" */
  Buf failing;    /* the bytes it failed on (without trailing zeros) */
};

/* Decode d[0, n) with spans into sp, keeping the generator's first
 * failure and the bytes that show it. */
static Module *decode(Mut *M, const uint8_t *d, size_t n, GenSpans *sp) {
  char why[sizeof M->why];
  Module *m = gen_decode_checked(d, n, M->o->policy, sp, why, sizeof why);
  if (why[0] && !M->why[0]) {
    memcpy(M->why, why, sizeof why);
    M->failing.n = 0;
    put(&M->failing, d, untrail(d, n));
  }
  return m;
}

/* Decode data, padded with zeros until the decoder stops before the end
 * (or it failed: then the mutation's output is the failing bytes). */
static void input_load(Mut *M, Input *in, const uint8_t *data, size_t n) {
  memset(in, 0, sizeof *in);
  size_t pad = PAD + n / 4;
  for (;;) {
    in->b.n = 0;
    put(&in->b, data, n);
    if (n < GEN_HEADER_BYTES)
      put(&in->b, NULL, GEN_HEADER_BYTES - n);
    put(&in->b, NULL, pad);
    in->m = decode(M, in->b.p, in->b.n, &in->sp);
    in->end = in->sp.n ? in->sp.v[0].end : (uint32_t)in->b.n;
    if (in->end < in->b.n || M->why[0])
      break;
    ir_module_free(in->m);
    pad *= 8;
  }
  in->canon = untrail(in->b.p, in->end);
}

/* After a failure of the generator: the output is the bytes it failed on
 * (see the top of this file).  False when they do not fit max_size (a
 * decode of the parent padded, or of a candidate, is never longer than
 * the parent plus the new span's bytes, which fit). */
static bool hand_over(Mut *M) {
  if (!M->why[0] || M->failing.n > M->max)
    return false;
  M->out.n = 0;
  put(&M->out, M->failing.p, M->failing.n);
  M->info.span = -1;
  M->info.donor = -1;
  M->info.failure = true;
  return true;
}

/* Decode parent[0, s) + r[0, rn) + pad zeros for its spans only. */
static const GenSpans *cand_decode(Mut *M, uint32_t s, const uint8_t *r, size_t rn, size_t pad) {
  M->cand.n = 0;
  put(&M->cand, M->in.b.p, s);
  put(&M->cand, r, rn);
  put(&M->cand, NULL, pad);
  if (M->cmod)
    ir_module_free(M->cmod);
  M->cmod = decode(M, M->cand.p, M->cand.n, &M->csp);
  return &M->csp;
}

/* Write parent[0, s) + (r + zeros)[0, c) + parent[e, end) to out, without
 * trailing zeros; false when it does not fit. */
static bool emit(Mut *M, uint32_t s, uint32_t e, const uint8_t *r, size_t rn, size_t c) {
  Buf *o = &M->out;
  o->n = 0;
  put(o, M->in.b.p, s);
  put(o, r, c < rn ? c : rn);
  if (c > rn)
    put(o, NULL, c - rn);
  if (e < M->in.end)
    put(o, M->in.b.p + e, M->in.end - e);
  o->n = untrail(o->p, o->n);
  return o->n <= M->max;
}

/* Replace span i's bytes by r[0, rn) (zero extended), measured: the new
 * subtree's length is read off a decode of the candidate.  M->csp then
 * holds the candidate's spans. */
static bool replace(Mut *M, int i, const uint8_t *r, size_t rn) {
  const GenSpan *sp = &M->in.sp.v[i];
  uint32_t s = sp->start, e = sp->end;
  size_t pad = PAD, c = 0;
  bool exact = false;
  for (int t = 0; t < 3 && !exact; t++, pad *= 16) {
    const GenSpans *cs = cand_decode(M, s, r, rn, pad);
    assert(cs->n > i && cs->v[i].start == s);
    c = cs->v[i].end - s;
    exact = c < rn + pad;
  }
  M->info.span = i;
  M->info.start = s;
  M->info.old_end = e;
  M->info.new_end = (uint32_t)(s + c);
  M->info.exact = exact;
  /* The same subtree leaves the generator in the same state, so the rest
   * reads the same too: the program would not change. */
  Cmp cmp = {.budget = 20000};
  if (exact && !M->keep_same && same_expr(&cmp, M->in.sp.v[i].expr, M->csp.v[i].expr))
    return false;
  return emit(M, s, e, r, rn, c);
}

/* Room for a span's new bytes if the rest of the input stays. */
static size_t room(const Mut *M, int i) {
  const GenSpan *sp = &M->in.sp.v[i];
  size_t rest = sp->start + (M->in.end - sp->end);
  return M->max > rest ? M->max - rest : 0;
}

/* A span: uniform over spans, or over nesting depths (so spans high in
 * the tree, which are few, are picked often enough). */
static int pick_span(Mut *M) {
  const GenSpans *sp = &M->in.sp;
  if (below(&M->r, 2) == 0)
    return (int)below(&M->r, (uint32_t)sp->n);
  int maxd = 0;
  for (int i = 0; i < sp->n; i++)
    maxd = sp->v[i].depth > maxd ? sp->v[i].depth : maxd;
  int d = (int)below(&M->r, (uint32_t)maxd + 1), n = 0;
  for (int i = 0; i < sp->n; i++)
    n += sp->v[i].depth == d;
  int k = (int)below(&M->r, (uint32_t)n);
  for (int i = 0; i < sp->n; i++)
    if (sp->v[i].depth == d && k-- == 0)
      return i;
  return 0;
}

/* The byte mutator on buf[0, n) (capacity cap). */
static size_t bytes(Mut *M, uint8_t *buf, size_t n, size_t cap) {
  if (M->o->bytes)
    return M->o->bytes(buf, n, cap);
  return mut_bytes_builtin(buf, n, cap, rnd(&M->r));
}

/* MUT_REGEN: random bytes for a span; their number (log-uniform) bounds
 * how much of the new subtree is random before zeros make it minimal. */
static bool k_regen(Mut *M) {
  int i = pick_span(M);
  const GenSpan *sp = &M->in.sp.v[i];
  size_t hi = room(M, i), span = sp->end - sp->start;
  if (hi == 0)
    return false;
  size_t cap = 2 * span + 64;
  hi = hi < cap ? hi : cap;
  M->tmp.n = 0;
  put_random(&M->tmp, &M->r, loglen(&M->r, hi));
  return replace(M, i, M->tmp.p, M->tmp.n);
}

/* MUT_SHRINK: the span's simplest value (all zeros), its own bytes with a
 * zero tail, or its bytes made smaller (each option is monotone in its
 * byte, so smaller bytes choose simpler options). */
static bool k_shrink(Mut *M) {
  int i = pick_span(M);
  const GenSpan *sp = &M->in.sp.v[i];
  const uint8_t *old = M->in.b.p + sp->start;
  size_t n = sp->end - sp->start;
  M->tmp.n = 0;
  switch (n ? below(&M->r, 3) : 0) {
  case 0: break;
  case 1: put(&M->tmp, old, below(&M->r, (uint32_t)n)); break;
  default:
    put(&M->tmp, old, n);
    for (size_t k = 0; k < n; k++)
      if (below(&M->r, 3) == 0)
        M->tmp.p[k] = (uint8_t)(M->tmp.p[k] >> (1 + below(&M->r, 8)));
    break;
  }
  return replace(M, i, M->tmp.p, M->tmp.n);
}

/* MUT_COPY: the bytes of another span of the same type that is not in
 * this span's subtree, preferring spans whose free variables are in scope
 * here (so the copy reads as the same expression more often). */
static bool k_copy(Mut *M) {
  const GenSpans *sp = &M->in.sp;
  for (int tries = 0; tries < 4; tries++) {
    int i = pick_span(M), last = mut_subtree_end(sp, i);
    int cand[64], ncand = 0, nfit = 0;
    int start = (int)below(&M->r, (uint32_t)sp->n);
    for (int q = 0; q < sp->n && ncand < 64; q++) {
      int j = (start + q) % sp->n;
      if ((j >= i && j < last) || !ir_type_equal(sp->v[j].type, sp->v[i].type))
        continue;
      if (sp->v[j].end - sp->v[j].start > room(M, i))
        continue;
      cand[ncand++] = j;
      if (scope_fits(sp, j, sp, i)) { /* keep fitting ones first */
        int t = cand[nfit];
        cand[nfit++] = j;
        cand[ncand - 1] = t;
      }
    }
    if (ncand == 0)
      continue;
    int j = cand[below(&M->r, (uint32_t)(nfit && below(&M->r, 4) ? nfit : ncand))];
    M->tmp.n = 0;
    put(&M->tmp, M->in.b.p + sp->v[j].start, sp->v[j].end - sp->v[j].start);
    M->info.donor = j;
    return replace(M, i, M->tmp.p, M->tmp.n);
  }
  return false;
}

/* MUT_UNWRAP: a span replaced by one of its same-type descendants. */
static bool k_unwrap(Mut *M) {
  const GenSpans *sp = &M->in.sp;
  for (int tries = 0; tries < 6; tries++) {
    int i = pick_span(M), last = mut_subtree_end(sp, i);
    int cand[64], n = 0;
    for (int j = i + 1; j < last && n < 64; j++)
      if (ir_type_equal(sp->v[j].type, sp->v[i].type))
        cand[n++] = j;
    if (n == 0)
      continue;
    int j = cand[below(&M->r, (uint32_t)n)];
    M->tmp.n = 0;
    put(&M->tmp, M->in.b.p + sp->v[j].start, sp->v[j].end - sp->v[j].start);
    M->info.donor = j;
    return replace(M, i, M->tmp.p, M->tmp.n);
  }
  return false;
}

/* The first byte that makes span i choose form f, by bisection (the form
 * choice is monotone in its bytes); -1 when no byte does. */
static int form_byte(Mut *M, int i, GenForm f) {
  uint32_t s = M->in.sp.v[i].start;
  int lo = 0, hi = 255;
  while (lo < hi) {
    int mid = (lo + hi) / 2;
    uint8_t b = (uint8_t)mid;
    const GenSpans *cs = cand_decode(M, s, &b, 1, 0);
    if ((int)cs->v[i].form >= (int)f)
      hi = mid;
    else
      lo = mid + 1;
  }
  uint8_t b = (uint8_t)lo;
  return cand_decode(M, s, &b, 1, 0)->v[i].form == f ? lo : -1;
}

/* Append to R the bytes the first child of span i reads when R so far is
 * followed by x[0, xn) and zeros (measured by a decode). */
static bool put_child(Mut *M, int i, Buf *R, const uint8_t *x, size_t xn) {
  size_t at = R->n;
  put(R, x, xn);
  const GenSpans *cs = cand_decode(M, M->in.sp.v[i].start, R->p, R->n, PAD);
  if (cs->n <= i + 1 || cs->v[i + 1].parent != i || cs->v[i + 1].start != M->in.sp.v[i].start + at)
    return false;
  size_t c = cs->v[i + 1].end - cs->v[i + 1].start;
  if (c >= xn + PAD)
    return false;
  R->n = at;
  put(R, x, c < xn ? c : xn);
  if (c > xn)
    put(R, NULL, c - xn);
  return true;
}

/* MUT_WRAP: let %x = <span>; <body>, let %x = <value>; <span>, or
 * if (<cond>) { <span> } else { <other> }.  The bytes after the form
 * choice follow form_let and form_if in generator/expr.c: one byte for
 * the budget split (0: even), for let one for the value's type (0: the
 * span's own type); the result is checked to have the wanted form. */
static bool k_wrap(Mut *M) {
  int i = pick_span(M);
  GenForm f = below(&M->r, 2) ? GF_LET : GF_IF;
  int b = form_byte(M, i, f);
  if (b < 0) {
    f = f == GF_LET ? GF_IF : GF_LET;
    if ((b = form_byte(M, i, f)) < 0)
      return false;
  }
  const GenSpan *sp = &M->in.sp.v[i];
  const uint8_t *old = M->in.b.p + sp->start;
  size_t n = sp->end - sp->start;
  Buf *R = &M->tmp;
  R->n = 0;
  uint8_t head[3] = {(uint8_t)b, 0, 0};
  put(R, head, f == GF_LET ? 3 : 2);
  Buf *x = &M->tmp2;
  x->n = 0;
  if (below(&M->r, 2))
    put_random(x, &M->r, loglen(&M->r, 8));
  if (f == GF_LET && below(&M->r, 2)) {
    put(R, old, n); /* the value; the body is x (zeros: %x itself) */
    put(R, x->p, x->n);
  } else {
    if (!put_child(M, i, R, x->p, x->n)) /* the value, or the condition */
      return false;
    put(R, old, n);
    if (f == GF_IF && below(&M->r, 2))
      put_random(R, &M->r, loglen(&M->r, 8)); /* the else branch */
  }
  if (!replace(M, i, R->p, R->n))
    return false;
  return M->csp.v[i].form == f;
}

/* MUT_LEAF: the byte mutator on the bytes a span reads itself (not its
 * children's): a leaf's whole range, or the choices of an inner node
 * (its operator, attributes, ...) between its children. */
static bool k_leaf(Mut *M) {
  const GenSpans *sp = &M->in.sp;
  for (int tries = 0; tries < 6; tries++) {
    int i = below(&M->r, 2) ? pick_span(M) : (int)below(&M->r, (uint32_t)sp->n);
    uint32_t runs[64][2];
    int nr = 0, last = mut_subtree_end(sp, i);
    uint32_t at = sp->v[i].start;
    for (int j = i + 1; j < last && nr < 63; j++) {
      if (sp->v[j].parent != i)
        continue;
      if (sp->v[j].start > at)
        runs[nr][0] = at, runs[nr][1] = sp->v[j].start, nr++;
      at = sp->v[j].end > at ? sp->v[j].end : at;
    }
    if (sp->v[i].end > at)
      runs[nr][0] = at, runs[nr][1] = sp->v[i].end, nr++;
    if (nr == 0)
      continue;
    int k = (int)below(&M->r, (uint32_t)nr);
    uint32_t a = runs[k][0], z = runs[k][1], s = sp->v[i].start, e = sp->v[i].end;
    size_t n = z - a, rm = room(M, i), cap;
    rm = rm > e - s ? rm - (e - s) : 0;
    cap = n + (rm < 8 ? rm : 8);
    Buf *x = &M->tmp2;
    x->n = 0;
    put(x, M->in.b.p + a, cap);
    size_t nn = bytes(M, x->p, n, cap);
    if (nn == 0 || nn > cap)
      return false;
    Buf *R = &M->tmp;
    R->n = 0;
    put(R, M->in.b.p + s, a - s);
    put(R, x->p, nn);
    put(R, M->in.b.p + z, e - z);
    return replace(M, i, R->p, R->n);
  }
  return false;
}

/* Replace the module-level choices (generated type definitions, @main's
 * result type) between the header and @main's body by r[0, rn), zero
 * extended to the length a decode measures, so the body keeps its bytes
 * (it is read again at the new result type).  False when the measure
 * fails. */
static bool prefix_replace(Mut *M, const uint8_t *r, size_t rn) {
  uint32_t s0 = M->in.sp.v[0].start;
  size_t c = 0;
  bool exact = false;
  for (size_t pad = PAD; pad <= 16 * PAD && !exact; pad *= 16) {
    const GenSpans *cs = cand_decode(M, GEN_HEADER_BYTES, r, rn, pad);
    c = cs->v[0].start - GEN_HEADER_BYTES;
    exact = c < rn + pad;
  }
  if (!exact)
    return false;
  M->info.start = GEN_HEADER_BYTES;
  M->info.old_end = s0;
  M->info.new_end = (uint32_t)(GEN_HEADER_BYTES + c);
  M->info.exact = true;
  return emit(M, GEN_HEADER_BYTES, s0, r, rn, c);
}

/* The module-level choices regenerated from random bytes. */
static bool k_prefix(Mut *M) {
  Buf *R = &M->tmp;
  R->n = 0;
  put_random(R, &M->r, loglen(&M->r, 32));
  return prefix_replace(M, R->p, R->n);
}

/* MUT_HEADER: one header byte, the budget byte, the whole header random
 * or zero (the policy's defaults), or the module-level choices. */
static bool k_header(Mut *M) {
  Buf *o = &M->out;
  o->n = 0;
  put(o, M->in.b.p, M->in.end);
  size_t lim = M->max < GEN_HEADER_BYTES ? M->max : GEN_HEADER_BYTES;
  M->info.span = -1;
  M->info.start = 0;
  M->info.old_end = M->info.new_end = GEN_HEADER_BYTES;
  switch (below(&M->r, 12)) {
  case 0:
  case 1:
  case 2:
  case 3: o->p[below(&M->r, (uint32_t)lim)] = (uint8_t)rnd(&M->r); break;
  case 4: o->p[below(&M->r, (uint32_t)lim)] ^= (uint8_t)(1u << below(&M->r, 8)); break;
  case 5:
  case 6: o->p[0] = (uint8_t)rnd(&M->r); break;
  case 7:
    for (size_t k = 0; k < lim; k++)
      o->p[k] = (uint8_t)rnd(&M->r);
    break;
  case 8: memset(o->p, 0, lim); break;
  default:
    if (M->max > GEN_HEADER_BYTES)
      return k_prefix(M);
    o->p[below(&M->r, (uint32_t)lim)] = (uint8_t)rnd(&M->r);
  }
  o->n = untrail(o->p, o->n);
  M->info.exact = true;
  return o->n <= M->max;
}

/* Relative weights of the kinds for this parent; shrinking weighs more
 * as the input nears max_size. */
static void weights(const Mut *M, uint32_t w[MUT_KINDS]) {
  double fill = M->max ? (double)M->in.canon / (double)M->max : 1.0;
  fill = fill > 1 ? 1 : fill;
  w[MUT_REGEN] = (uint32_t)(6 + 30 * (1 - fill));
  w[MUT_SHRINK] = (uint32_t)(6 + 40 * fill * fill);
  w[MUT_COPY] = 10;
  w[MUT_WRAP] = (uint32_t)(6 * (1 - fill));
  w[MUT_UNWRAP] = (uint32_t)(5 + 10 * fill);
  w[MUT_LEAF] = 20;
  w[MUT_HEADER] = 8;
  w[MUT_CROSS] = 0;
  /* With no room for a body, only the header can change. */
  if (M->max <= M->in.sp.v[0].start)
    for (int k = 0; k < MUT_KINDS; k++)
      w[k] = k == MUT_HEADER;
  for (int k = 0; k < MUT_KINDS; k++)
    if (M->o->kinds && !(M->o->kinds >> k & 1))
      w[k] = 0;
}

/* Run kind k once; true when out holds a different, fitting input. */
static bool run(Mut *M, MutKind k) {
  memset(&M->info, 0, sizeof M->info);
  M->info.kind = k;
  M->info.donor = -1;
  bool ok = false;
  switch (k) {
  case MUT_REGEN: ok = k_regen(M); break;
  case MUT_SHRINK: ok = k_shrink(M); break;
  case MUT_COPY: ok = k_copy(M); break;
  case MUT_WRAP: ok = k_wrap(M); break;
  case MUT_UNWRAP: ok = k_unwrap(M); break;
  case MUT_LEAF: ok = k_leaf(M); break;
  case MUT_HEADER: ok = k_header(M); break;
  default: break;
  }
  return ok && !(M->out.n == M->in.canon && memcmp(M->out.p, M->in.b.p, M->out.n) == 0);
}

/* Whether the program M->out decodes to equals the parent's outside the
 * mutated span (always, for a header mutation). */
static bool local(Mut *M) {
  return M->info.span < 0 ||
         mut_locality(M->o->policy, M->in.b.p, M->in.end, M->out.p, M->out.n, &M->info).outside;
}

/* Pick kinds by weight until one changes the input; false after a few
 * failures.  With o->local, a mutation that changes the program outside
 * its span is set aside while up to o->local more are tried. */
static bool mutate_loop(Mut *M) {
  uint32_t w[MUT_KINDS], sum = 0;
  weights(M, w);
  for (int k = 0; k < MUT_KINDS; k++)
    sum += w[k];
  if (sum == 0)
    return false;
  Buf first = {0};
  MutInfo first_info = {0};
  bool have = false;
  int extra = 0;
  for (int attempt = 0; attempt < 8 + M->o->local; attempt++) {
    uint32_t x = below(&M->r, sum);
    int k = 0;
    while (x >= w[k])
      x -= w[k++];
    if (!run(M, (MutKind)k))
      continue;
    if (M->o->local <= 0 || local(M)) {
      buf_free(&first);
      return true;
    }
    if (!have) {
      put(&first, M->out.p, M->out.n);
      first_info = M->info;
      have = true;
    }
    if (++extra > M->o->local)
      break;
  }
  if (have) {
    M->out.n = 0;
    put(&M->out, first.p, first.n);
    M->info = first_info;
  }
  buf_free(&first);
  return have;
}

/* Last resort, so that the engine gets a changed input: one random byte
 * of the (truncated) input changed, or a single random byte. */
static void fallback(Mut *M) {
  Buf *o = &M->out;
  o->n = 0;
  size_t n = M->in.canon < M->max ? M->in.canon : M->max;
  put(o, M->in.b.p, n);
  if (o->n == 0)
    put(o, NULL, 1);
  size_t at = below(&M->r, (uint32_t)o->n);
  o->p[at] = (uint8_t)(o->p[at] ^ (1 + below(&M->r, 255)));
  memset(&M->info, 0, sizeof M->info);
  M->info.kind = at < GEN_HEADER_BYTES ? MUT_HEADER : MUT_LEAF;
  M->info.span = -1;
  M->info.donor = -1;
}

static void mut_init(Mut *M, const MutOptions *o, const uint8_t *data, size_t size, size_t max_size,
                     uint64_t seed) {
  memset(M, 0, sizeof *M);
  M->o = o;
  M->r.s = seed ^ 0x5bd1e9955bd1e995ull;
  M->max = max_size;
  input_load(M, &M->in, data, size);
}

/* Copy the result to out and free everything. */
static size_t mut_done(Mut *M, bool ok, uint8_t *out, MutInfo *info) {
  size_t n = 0;
  if (ok) {
    if (M->out.n == 0) /* all zeros: one zero byte reads the same */
      put(&M->out, NULL, 1);
    n = M->out.n;
    memmove(out, M->out.p, n);
    if (info)
      *info = M->info;
  }
  input_free(&M->in);
  if (M->cmod)
    ir_module_free(M->cmod);
  gen_spans_free(&M->csp);
  buf_free(&M->cand);
  buf_free(&M->out);
  buf_free(&M->tmp);
  buf_free(&M->tmp2);
  buf_free(&M->failing);
  return n;
}

size_t mut_mutate(const MutOptions *o, const uint8_t *data, size_t size, uint8_t *out,
                  size_t max_size, uint64_t seed, MutInfo *info) {
  if (max_size == 0)
    return 0;
  Mut M;
  mut_init(&M, o, data, size, max_size, seed);
  bool ok = !M.why[0] && mutate_loop(&M);
  if (hand_over(&M))
    ok = true;
  if (!ok && !o->kinds) {
    fallback(&M);
    ok = true;
  }
  return mut_done(&M, ok, out, info);
}

/* MUT_CROSS: a span of the parent gets the bytes of a same-type span of
 * the donor whose free variables' types are in scope there (their
 * variable choices then pick variables of the recipient's scope); now and
 * then the donor's header instead (its swarm configuration). */
static bool k_cross(Mut *M, const Input *d) {
  memset(&M->info, 0, sizeof M->info);
  M->info.kind = MUT_CROSS;
  M->info.donor = -1;
  if (below(&M->r, 8) == 0) {
    Buf *o = &M->out;
    o->n = 0;
    put(o, d->b.p, GEN_HEADER_BYTES);
    put(o, M->in.b.p + GEN_HEADER_BYTES, M->in.end - GEN_HEADER_BYTES);
    o->n = untrail(o->p, o->n);
    M->info.span = -1;
    M->info.old_end = M->info.new_end = GEN_HEADER_BYTES;
    M->info.exact = true;
    return o->n <= M->max;
  }
  const GenSpans *rs = &M->in.sp, *ds = &d->sp;
  for (int tries = 0; tries < 8; tries++) {
    int i = pick_span(M);
    int cand[64], ncand = 0, nfit = 0;
    int start = (int)below(&M->r, (uint32_t)ds->n);
    for (int q = 0; q < ds->n && ncand < 64; q++) {
      int j = (start + q) % ds->n;
      if (!same_type(ds->v[j].type, rs->v[i].type) || ds->v[j].end - ds->v[j].start > room(M, i))
        continue;
      cand[ncand++] = j;
      if (scope_fits(ds, j, rs, i)) {
        int t = cand[nfit];
        cand[nfit++] = j;
        cand[ncand - 1] = t;
      }
    }
    if (ncand == 0)
      continue;
    int j = cand[below(&M->r, (uint32_t)(nfit && below(&M->r, 4) ? nfit : ncand))];
    M->tmp.n = 0;
    put(&M->tmp, d->b.p + ds->v[j].start, ds->v[j].end - ds->v[j].start);
    M->info.donor = j;
    return replace(M, i, M->tmp.p, M->tmp.n);
  }
  return false;
}

size_t mut_crossover(const MutOptions *o, const uint8_t *a, size_t na, const uint8_t *b, size_t nb,
                     uint8_t *out, size_t max_size, uint64_t seed, MutInfo *info) {
  if (max_size == 0)
    return 0;
  Mut M;
  mut_init(&M, o, a, na, max_size, seed);
  Input donor;
  input_load(&M, &donor, b, nb);
  bool ok = false;
  if (!M.why[0] && M.max > M.in.sp.v[0].start)
    for (int attempt = 0; attempt < 3 && !ok; attempt++)
      ok = k_cross(&M, &donor) &&
           !(M.out.n == M.in.canon && memcmp(M.out.p, M.in.b.p, M.out.n) == 0);
  input_free(&donor);
  if (!ok && !M.why[0] && (!o->kinds || (o->kinds & ~(1u << MUT_CROSS))))
    ok = mutate_loop(&M);
  if (hand_over(&M))
    ok = true;
  if (!ok && !o->kinds) {
    fallback(&M);
    ok = true;
  }
  return mut_done(&M, ok, out, info);
}

size_t mut_trim(const GenPolicy *p, const uint8_t *data, size_t size) {
  GenSpans sp = {0};
  Module *m = gen_decode(data, size, p, &sp);
  size_t end = sp.v[0].end;
  ir_module_free(m);
  gen_spans_free(&sp);
  return untrail(data, end);
}

/* ------------------------------------------------- editing (reducer) */

struct MutEdit {
  MutOptions o;
  Mut M;
};

MutEdit *mut_edit_new(const GenPolicy *p, const uint8_t *data, size_t size) {
  MutEdit *e = calloc(1, sizeof *e);
  if (!e)
    abort();
  e->o.policy = p;
  mut_init(&e->M, &e->o, data, size, SIZE_MAX, 0);
  e->M.keep_same = true;
  return e;
}

void mut_edit_free(MutEdit *e) {
  if (!e)
    return;
  mut_done(&e->M, false, NULL, NULL);
  free(e);
}

const GenSpans *mut_edit_spans(const MutEdit *e) {
  return &e->M.in.sp;
}

const uint8_t *mut_edit_bytes(const MutEdit *e, size_t *end) {
  *end = e->M.in.end;
  return e->M.in.b.p;
}

/* The result of an edit, through the out parameters. */
static bool edit_out(MutEdit *e, bool ok, const uint8_t **out, size_t *n) {
  *out = e->M.out.p;
  *n = ok ? e->M.out.n : 0;
  return ok;
}

bool mut_edit_span(MutEdit *e, int i, const uint8_t *r, size_t rn, const uint8_t **out, size_t *n) {
  assert(i >= 0 && i < e->M.in.sp.n);
  return edit_out(e, replace(&e->M, i, r, rn) && e->M.info.exact, out, n);
}

const GenSpans *mut_edit_last(const MutEdit *e) {
  return &e->M.csp;
}

bool mut_edit_prefix(MutEdit *e, const uint8_t *r, size_t rn, const uint8_t **out, size_t *n) {
  return edit_out(e, prefix_replace(&e->M, r, rn), out, n);
}

/* ------------------------------------------------ built-in byte mutator */

size_t mut_bytes_builtin(uint8_t *data, size_t size, size_t max_size, uint64_t seed) {
  static const uint8_t interesting[] = {0, 1, 2, 0x7f, 0x80, 0xfe, 0xff, 16, 32, 64, 100};
  Rng r = {seed};
  if (max_size == 0)
    return 0;
  if (size == 0) {
    data[0] = (uint8_t)rnd(&r);
    return 1;
  }
  size_t at = below(&r, (uint32_t)size);
  switch (below(&r, 7)) {
  case 0: data[at] ^= (uint8_t)(1u << below(&r, 8)); break;
  case 1: data[at] = (uint8_t)rnd(&r); break;
  case 2: data[at] = (uint8_t)(data[at] + 1 + below(&r, 8)); break;
  case 3: data[at] = (uint8_t)(data[at] - 1 - below(&r, 8)); break;
  case 4: data[at] = interesting[below(&r, sizeof interesting)]; break;
  case 5:
    if (size < max_size) {
      memmove(data + at + 1, data + at, size - at);
      data[at] = (uint8_t)rnd(&r);
      return size + 1;
    }
    data[at] = (uint8_t)rnd(&r);
    break;
  default:
    if (size > 1) {
      memmove(data + at, data + at + 1, size - at - 1);
      return size - 1;
    }
    data[at] = (uint8_t)rnd(&r);
    break;
  }
  return size;
}

/* ---------------------------------------------------------- locality */

/* Overwrite e in place with a marker constant (the same in both modules). */
static void hole(Module *m, Expr *e) {
  Expr *h = ir_const_scalar(m, DT_INT64, 7777777);
  *e = *h;
}

MutLocality mut_locality(const GenPolicy *p, const uint8_t *parent, size_t np,
                         const uint8_t *mutant, size_t nm, const MutInfo *info) {
  MutLocality res = {0};
  GenSpans a = {0}, b = {0};
  Module *ma = gen_decode(parent, np, p, &a);
  Module *mb = gen_decode(mutant, nm, p, &b);
  res.differs = !ir_module_alpha_equal(ma, mb);
  int i = info->span;
  if (i >= 0 && i < a.n && i < b.n) {
    hole(ma, a.v[i].expr);
    hole(mb, b.v[i].expr);
    res.outside = ir_module_alpha_equal(ma, mb);
  }
  ir_module_free(ma);
  ir_module_free(mb);
  gen_spans_free(&a);
  gen_spans_free(&b);
  return res;
}
