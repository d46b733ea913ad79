/*
 * reducer.c - the test-case reducer (see reducer.h and docs/reduce.md).
 *
 * Every move builds candidates from the current input and offers them to
 * try(), which keeps one only when it is shortlex-smaller and the
 * predicate holds; a candidate tested once is never tested again (a set
 * of hashes).  Span moves go through mut_edit_span, which measures how
 * many bytes the new subtree reads, so the rest of the program is read
 * from its own bytes again.
 */
#include "reducer.h"
#include "compiler/ir/hash.h"

#include <stdlib.h>
#include <string.h>

#include "mut.h"

/* -------------------------------------------------- candidates tested */

/* An open-addressing set of 64-bit hashes (0 marks an empty slot). */
typedef struct Seen {
  uint64_t *v;
  size_t n, cap;
} Seen;

/* FNV-1a over the bytes and the length; never 0. */
static uint64_t hash(const uint8_t *d, size_t n) {
  uint64_t h = hash_fnv1a(HASH_FNV_BASIS ^ n, d, n);
  return h ? h : 1;
}

static void seen_put(Seen *s, uint64_t h) {
  size_t i = h & (s->cap - 1);
  while (s->v[i] && s->v[i] != h)
    i = (i + 1) & (s->cap - 1);
  if (!s->v[i])
    s->v[i] = h, s->n++;
}

/* Add h; false when it was there already. */
static bool seen_add(Seen *s, uint64_t h) {
  if (2 * (s->n + 1) > s->cap) {
    Seen t = {calloc(s->cap ? 2 * s->cap : 1024, sizeof *t.v), 0, s->cap ? 2 * s->cap : 1024};
    if (!t.v)
      abort();
    for (size_t i = 0; i < s->cap; i++)
      if (s->v[i])
        seen_put(&t, s->v[i]);
    free(s->v);
    *s = t;
  }
  size_t before = s->n;
  seen_put(s, h);
  return s->n > before;
}

/* ------------------------------------------------------------ reducer */

typedef struct Red {
  const RedOptions *o;
  uint8_t *cur; /* the current input (capacity: the original's size) */
  size_t n;
  Seen seen;
  size_t tests, kept;
  int round;
  const char *move;
  bool stop;    /* max_tests reached */
  uint8_t *tmp; /* a candidate being built (same capacity) */
} Red;

bool red_shortlex_less(const uint8_t *a, size_t na, const uint8_t *b, size_t nb) {
  if (na != nb)
    return na < nb;
  return na && memcmp(a, b, na) < 0;
}

/* Offer c[0, n) (trailing zeros dropped): kept when shortlex-smaller than
 * the current input, not tested before, and the predicate holds. */
static bool try(Red *R, const uint8_t *c, size_t n) {
  while (n && c[n - 1] == 0)
    n--;
  if (R->stop || !red_shortlex_less(c, n, R->cur, R->n) || !seen_add(&R->seen, hash(c, n)))
    return false;
  if (R->o->max_tests && R->tests >= R->o->max_tests) {
    R->stop = true;
    return false;
  }
  R->tests++;
  bool ok = R->o->test(c, n, R->o->ctx);
  if (ok) {
    memmove(R->cur, c, n);
    R->n = n;
    R->kept++;
  }
  if (R->o->progress) {
    RedProgress p = {R->n, R->tests, R->kept, R->round, R->move};
    R->o->progress(&p, R->o->ctx);
  }
  return ok;
}

/* trim: the bytes the decoder never reads dropped. */
static bool m_trim(Red *R) {
  R->move = "trim";
  size_t n = mut_trim(R->o->policy, R->cur, R->n);
  return n < R->n && try(R, R->cur, n);
}

/* header: the swarm header all zero (the policy's defaults). */
static bool m_header(Red *R) {
  R->move = "header";
  size_t h = R->n < GEN_HEADER_BYTES ? R->n : GEN_HEADER_BYTES;
  memcpy(R->tmp, R->cur, R->n);
  memset(R->tmp, 0, h);
  return try(R, R->tmp, R->n);
}

/* prefix: the module-level choices all zero, measured. */
static bool m_prefix(Red *R) {
  R->move = "prefix";
  MutEdit *e = mut_edit_new(R->o->policy, R->cur, R->n);
  const uint8_t *c;
  size_t n;
  bool ok = mut_edit_prefix(e, NULL, 0, &c, &n) && try(R, c, n);
  mut_edit_free(e);
  return ok;
}

enum { MAX_HOIST = 64 };

/* form: span i's first byte (its form choice, usually) lowered to 0,
 * halved or minus one with its other bytes kept, measured. */
static bool lower_form(Red *R, MutEdit *e, int i, const uint8_t *bytes, size_t len) {
  R->move = "form";
  uint8_t v = bytes[0], to[3] = {0, (uint8_t)(v / 2), (uint8_t)(v - 1)};
  uint8_t *r = malloc(len);
  const uint8_t *c;
  size_t n;
  bool ok = false;
  if (!r)
    abort();
  for (int k = 0; k < 3 && v && !ok; k++) {
    if (k && to[k] == to[k - 1])
      continue;
    memcpy(r, bytes, len);
    r[0] = to[k];
    ok = mut_edit_span(e, i, r, len, &c, &n) && try(R, c, n);
  }
  free(r);
  return ok;
}

/* The form of span k of the candidate whose span i has the bytes r[0, rn)
 * with r[off] set to v; -1 when that cannot be measured. */
static int form_with(MutEdit *e, int i, int k, uint8_t *r, size_t rn, size_t off, uint8_t v) {
  const uint8_t *c;
  size_t n;
  r[off] = v;
  if (!mut_edit_span(e, i, r, rn, &c, &n) || mut_edit_last(e)->n <= k)
    return -1;
  return (int)mut_edit_last(e)->v[k].form;
}

/* The first value of r[off] that makes span k of the candidate (span i
 * has the bytes r[0, rn)) choose form f, by bisection (a form choice is
 * monotone in its byte); -1 when none does. */
static int first_byte(MutEdit *e, int i, int k, uint8_t *r, size_t rn, size_t off, int f) {
  int lo = 0, hi = 255;
  while (lo < hi) {
    int mid = (lo + hi) / 2;
    if (form_with(e, i, k, r, rn, off, (uint8_t)mid) >= f)
      hi = mid;
    else
      lo = mid + 1;
  }
  return form_with(e, i, k, r, rn, off, (uint8_t)lo) == f ? lo : -1;
}

enum { MAX_FIXES = 8 };

/* A descendant's bytes moved to another place are read in a different
 * scope (a let's variable is gone, say), where the form choices of its
 * spans may pick other forms.  Span i of dst gets the bytes of span j of
 * src, and going down j's spans, the first byte of each span whose form
 * changed is set to the first value that picks the old form again (or,
 * for a variable not in scope there, a new parameter of @main); then it
 * is offered, if anything was fixed, and also kept in *keep (malloc'd,
 * *nkeep bytes) when keep is not NULL. */
static bool moved_fixed(Red *R, MutEdit *dst, int i, const MutEdit *src, int j, uint8_t **keep,
                        size_t *nkeep) {
  const GenSpans *sp = mut_edit_spans(src);
  size_t end;
  const uint8_t *b = mut_edit_bytes(src, &end);
  uint32_t at = mut_edit_spans(dst)->v[i].start;
  size_t len = sp->v[j].end - sp->v[j].start;
  uint8_t *r = malloc(len + 1);
  if (!r)
    abort();
  memcpy(r, b + sp->v[j].start, len);
  int nsub = mut_subtree_end(sp, j) - j, fixes = 0;
  bool ok = true;
  for (int k = 0; k < nsub && ok && fixes < MAX_FIXES; k++) {
    const GenSpan *want = &sp->v[j + k];
    size_t off = want->start - sp->v[j].start;
    int f = (int)want->form;
    if (off >= len || form_with(dst, i, i + k, r, len, off, r[off]) == f)
      continue;
    if (mut_edit_last(dst)->v[i + k].start != at + off)
      break; /* the spans no longer line up */
    int v = first_byte(dst, i, i + k, r, len, off, f);
    if (v < 0 && f == GF_VAR) /* its variable is not in scope there */
      v = first_byte(dst, i, i + k, r, len, off, GF_PARAM);
    ok = v >= 0;
    r[off] = (uint8_t)(ok ? v : r[off]);
    fixes++;
  }
  const uint8_t *c;
  size_t n;
  ok = ok && fixes && mut_edit_span(dst, i, r, len, &c, &n);
  if (ok && keep && (*keep = malloc(n + 1))) {
    memcpy(*keep, c, n);
    *nkeep = n;
  }
  ok = ok && try(R, c, n);
  free(r);
  return ok;
}

/* The span moves on span i of e's input: zero, hoist, cut, form. */
static bool span_moves(Red *R, MutEdit *e, int i) {
  const GenSpans *sp = mut_edit_spans(e);
  size_t end;
  const uint8_t *b = mut_edit_bytes(e, &end), *c;
  size_t n;
  R->move = "zero";
  if (mut_edit_span(e, i, NULL, 0, &c, &n) && try(R, c, n))
    return true;
  R->move = "hoist";
  int last = mut_subtree_end(sp, i), tried = 0;
  for (int j = i + 1; j < last && tried < MAX_HOIST; j++) {
    const GenSpan *d = &sp->v[j];
    if (!ir_type_equal(d->type, sp->v[i].type))
      continue;
    tried++;
    if (mut_edit_span(e, i, b + d->start, d->end - d->start, &c, &n) && try(R, c, n))
      return true;
    if (moved_fixed(R, e, i, e, j, NULL, NULL))
      return true;
  }
  R->move = "cut";
  size_t len = sp->v[i].end - sp->v[i].start;
  if (len >= 2 && mut_edit_span(e, i, b + sp->v[i].start, len / 2, &c, &n) && try(R, c, n))
    return true;
  return len >= 2 && lower_form(R, e, i, b + sp->v[i].start, len);
}

enum { MAX_GRAFT = 4 };

/* Up to max descendants of span i with i's type, in pre-order. */
static int same_type_desc(const GenSpans *sp, int i, int *out, int max) {
  int n = 0, last = mut_subtree_end(sp, i);
  for (int j = i + 1; j < last && n < max; j++)
    if (ir_type_equal(sp->v[j].type, sp->v[i].type))
      out[n++] = j;
  return n;
}

/* Put span a's bytes (of e) in place of a span of c's span i (the hoisted
 * b) that has i's type; offer each. */
static bool graft_into(Red *R, MutEdit *e, int i, int a, const uint8_t *c, size_t n) {
  const GenSpans *sp = mut_edit_spans(e);
  size_t end;
  const uint8_t *bytes = mut_edit_bytes(e, &end), *c2;
  size_t n2;
  MutEdit *e1 = mut_edit_new(R->o->policy, c, n);
  int slot[MAX_GRAFT], ns = same_type_desc(mut_edit_spans(e1), i, slot, MAX_GRAFT);
  bool ok = false;
  for (int k = 0; k < ns && !ok; k++)
    ok = mut_edit_span(e1, slot[k], bytes + sp->v[a].start, sp->v[a].end - sp->v[a].start, &c2,
                       &n2) &&
         try(R, c2, n2);
  mut_edit_free(e1);
  return ok;
}

/* graft: span i replaced by a same-type descendant b, and another one, a,
 * outside b's subtree put in place of a same-type span inside b, so that
 * two subtrees of i are kept in one (if (c) {A} else {B} becomes B with A
 * in it, say).  Tried when no other move applies. */
static bool graft(Red *R, MutEdit *e, int i) {
  R->move = "graft";
  const GenSpans *sp = mut_edit_spans(e);
  size_t end;
  const uint8_t *bytes = mut_edit_bytes(e, &end), *c;
  size_t n;
  int d[MAX_GRAFT], nd = same_type_desc(sp, i, d, MAX_GRAFT);
  for (int x = 0; x < nd; x++)
    for (int y = 0; y < nd; y++) {
      int b = d[x], a = d[y];
      if (a == b || (a > b && a < mut_subtree_end(sp, b)) || (b > a && b < mut_subtree_end(sp, a)))
        continue;
      if (!mut_edit_span(e, i, bytes + sp->v[b].start, sp->v[b].end - sp->v[b].start, &c, &n))
        continue;
      uint8_t *copy = malloc(n + 1);
      if (!copy)
        abort();
      memcpy(copy, c, n);
      bool ok = graft_into(R, e, i, a, copy, n);
      free(copy);
      if (ok)
        return true;
    }
  return false;
}

/* The span moves (or the grafts) over every span, from the root down;
 * after a change the input is decoded again and the same span retried. */
static bool m_spans(Red *R, bool grafts) {
  bool any = false;
  MutEdit *e = mut_edit_new(R->o->policy, R->cur, R->n);
  for (int i = 0; i < mut_edit_spans(e)->n && !R->stop; i++) {
    if (!(grafts ? graft(R, e, i) : span_moves(R, e, i)))
      continue;
    any = true;
    mut_edit_free(e);
    e = mut_edit_new(R->o->policy, R->cur, R->n);
    i--;
  }
  mut_edit_free(e);
  return any;
}

enum { TYPE_TRIES = 256, MAX_TYPES = 48, MAX_PREFIX = 16, MAX_RETYPE = 256 };

/* Result types of @main that short module-level choices give, each with
 * the shortlex-smallest such choices found. */
typedef struct Prefixes {
  int n;
  char *type[MAX_TYPES]; /* printed */
  uint8_t bytes[MAX_TYPES][MAX_PREFIX];
  size_t len[MAX_TYPES];
} Prefixes;

/* Decode the header h followed by random module-level choices (and the
 * all-zero ones) and record the result types they give. */
static void prefixes_find(Prefixes *P, const GenPolicy *p, const uint8_t *h) {
  enum { PAD = 64 };
  uint8_t buf[GEN_HEADER_BYTES + MAX_PREFIX + PAD];
  uint64_t rng = 0x2545f4914f6cdd1dull;
  memset(P, 0, sizeof *P);
  for (int t = 0; t < TYPE_TRIES; t++) {
    memset(buf, 0, sizeof buf);
    memcpy(buf, h, GEN_HEADER_BYTES);
    for (int k = 0; k < t % 9; k++) /* 0 to 8 random bytes, then zeros */
      buf[GEN_HEADER_BYTES + k] = (uint8_t)((rng = rng * 6364136223846793005ull + 1) >> 56);
    GenSpans sp = {0};
    Module *m = gen_decode(buf, sizeof buf, p, &sp);
    size_t c = sp.v[0].start - GEN_HEADER_BYTES;
    char *name = ir_print_type(sp.v[0].type);
    int k = 0;
    while (k < P->n && strcmp(P->type[k], name) != 0)
      k++;
    const uint8_t *pb = buf + GEN_HEADER_BYTES;
    if (c <= MAX_PREFIX && k == P->n && k < MAX_TYPES) {
      P->type[P->n++] = name, name = NULL;
      P->len[k] = c, memcpy(P->bytes[k], pb, c);
    } else if (c <= MAX_PREFIX && k < P->n && red_shortlex_less(pb, c, P->bytes[k], P->len[k])) {
      P->len[k] = c, memcpy(P->bytes[k], pb, c);
    }
    free(name);
    ir_module_free(m);
    gen_spans_free(&sp);
  }
}

static void prefixes_free(Prefixes *P) {
  for (int k = 0; k < P->n; k++)
    free(P->type[k]);
}

/* retype: @main's body replaced by a span of another type, after
 * module-level choices that make @main's result that type (found among
 * short random ones): a failing subexpression whose type differs from the
 * result type (an if's condition, say) loses what was around it.  Also
 * with another span of that type grafted into it (two subexpressions the
 * failure needs, far apart in a big type, in one of a small type).  The
 * body itself is tried too, after the shortest choices found for its own
 * type.  Tried when no other move applies. */
static bool m_retype(Red *R) {
  R->move = "retype";
  uint8_t h[GEN_HEADER_BYTES] = {0};
  memcpy(h, R->cur, R->n < GEN_HEADER_BYTES ? R->n : GEN_HEADER_BYTES);
  Prefixes P;
  prefixes_find(&P, R->o->policy, h);
  MutEdit *e = mut_edit_new(R->o->policy, R->cur, R->n);
  const GenSpans *sp = mut_edit_spans(e);
  size_t end;
  const uint8_t *b = mut_edit_bytes(e, &end);
  bool ok = false;
  for (int j = 0; j < sp->n && j < MAX_RETYPE && !ok && !R->stop; j++) {
    char *name = ir_print_type(sp->v[j].type);
    int k = 0;
    while (k < P.n && strcmp(P.type[k], name) != 0)
      k++;
    free(name);
    if (k == P.n)
      continue;
    size_t len = sp->v[j].end - sp->v[j].start, n = GEN_HEADER_BYTES + P.len[k] + len;
    uint8_t *c = malloc(n);
    if (!c)
      abort();
    memcpy(c, h, GEN_HEADER_BYTES);
    memcpy(c + GEN_HEADER_BYTES, P.bytes[k], P.len[k]);
    memcpy(c + GEN_HEADER_BYTES + P.len[k], b + sp->v[j].start, len);
    ok = try(R, c, n);
    uint8_t *fixed = NULL;
    size_t nfixed = 0;
    if (!ok && red_shortlex_less(c, n, R->cur, R->n)) {
      MutEdit *d = mut_edit_new(R->o->policy, c, n);
      ok = moved_fixed(R, d, 0, e, j, &fixed, &nfixed);
      mut_edit_free(d);
    }
    if (fixed) { /* graft into the fixed candidate */
      free(c);
      c = fixed, n = nfixed;
    }
    /* With another span of its type (outside it) grafted into it. */
    int tried = 0, jend = mut_subtree_end(sp, j);
    for (int a = 0; a < sp->n && !ok && tried < MAX_GRAFT && !R->stop; a++) {
      if ((a >= j && a < jend) || (j > a && j < mut_subtree_end(sp, a)) ||
          !ir_type_equal(sp->v[a].type, sp->v[j].type))
        continue;
      tried++;
      ok = graft_into(R, e, 0, a, c, n);
    }
    free(c);
  }
  mut_edit_free(e);
  prefixes_free(&P);
  return ok;
}

/* delete: blocks of 8, 4, 2 and 1 bytes removed; zero: blocks of 8, 4
 * and 2 bytes set to zero (single bytes are lowered by m_lower). */
static bool m_blocks(Red *R, bool del) {
  R->move = del ? "delete" : "zeros";
  bool any = false;
  for (size_t w = 8; w >= (del ? 1u : 2u) && !R->stop; w /= 2)
    for (size_t k = 0; k + w <= R->n && !R->stop;) {
      memcpy(R->tmp, R->cur, R->n);
      if (del)
        memmove(R->tmp + k, R->tmp + k + w, R->n - k - w);
      else
        memset(R->tmp + k, 0, w);
      if (try(R, R->tmp, del ? R->n - w : R->n))
        any = true;
      else
        k += del ? 1 : w;
    }
  return any;
}

/* The current input with byte k set to v, offered. */
static bool try_byte(Red *R, size_t k, uint8_t v) {
  memcpy(R->tmp, R->cur, R->n);
  R->tmp[k] = v;
  return try(R, R->tmp, R->n);
}

/* lower: each byte to 0, else halved, else minus one, while that works. */
static bool m_lower(Red *R) {
  R->move = "lower";
  bool any = false;
  for (size_t k = 0; k < R->n && !R->stop; k++)
    for (;;) {
      uint8_t v = k < R->n ? R->cur[k] : 0;
      if (!v || !(try_byte(R, k, 0) || (v > 1 && try_byte(R, k, v / 2)) ||
                  (v > 2 && try_byte(R, k, (uint8_t)(v - 1)))))
        break;
      any = true;
    }
  return any;
}

bool red_reduce(const RedOptions *o, const uint8_t *data, size_t size, RedResult *out) {
  memset(out, 0, sizeof *out);
  if (!o->test(data, size, o->ctx))
    return false;
  Red R = {.o = o, .n = size, .tests = 1};
  R.cur = malloc(size + 1);
  R.tmp = malloc(size + 1);
  if (!R.cur || !R.tmp)
    abort();
  if (size)
    memcpy(R.cur, data, size);
  seen_add(&R.seen, hash(data, size));
  for (R.round = 1;; R.round++) {
    size_t kept = R.kept;
    m_trim(&R);
    m_header(&R);
    m_prefix(&R);
    m_spans(&R, false);
    m_blocks(&R, true);
    m_blocks(&R, false);
    m_lower(&R);
    if (R.kept == kept && !R.stop)
      m_spans(&R, true);
    if (R.kept == kept && !R.stop)
      m_retype(&R);
    if (R.kept == kept || R.stop)
      break;
  }
  free(R.tmp);
  free(R.seen.v);
  *out = (RedResult){R.cur, R.n, R.tests, R.kept, R.round};
  return true;
}

void red_result_free(RedResult *r) {
  free(r->data);
  memset(r, 0, sizeof *r);
}
