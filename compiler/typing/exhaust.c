/*
 * exhaust.c - match exhaustiveness: is the all-wildcard pattern "useful"
 * after the clauses (Maranget, "Warnings for pattern matching", 2007)?
 * Works over constructor, tuple, variable and wildcard patterns, nested
 * to any depth, and builds a witness: a value shape no clause covers.
 *
 * The pattern matrix has one row per clause and one column per value
 * still to match; each column has a resolved type.  A column of an ADT
 * whose constructors all appear at its head is split per constructor
 * (specialisation); otherwise only the rows with a wildcard head can cover
 * the missing constructors (the default matrix).  Tuples have a single
 * constructor.  A work budget bounds the (worst-case exponential) search.
 */
#include <stdio.h>
#include <string.h>

#include "typing.h"

enum { BUDGET = 200000, MAX_DEPTH = 1000 };

/* A witness: a wildcard, a constructor or a tuple of witnesses. */
typedef struct Wit Wit;
struct Wit {
  enum { W_WILD, W_CTOR, W_TUPLE } kind;
  const Ctor *ctor;
  int n;
  Wit **sub;
};

typedef struct Ex {
  Arena *S;
  long budget;
  int depth;
  bool gave_up;
} Ex;

/* A pattern that matches anything here (NULL counts as a wildcard). */
static bool is_wild(const Pattern *p) {
  return !p || p->kind == PAT_WILD || p->kind == PAT_VAR;
}

static Wit *wit(Ex *x, int kind, const Ctor *c, int n, Wit **sub) {
  Wit *w = ARENA_NEW(x->S, Wit);
  w->kind = kind;
  w->ctor = c;
  w->n = n;
  w->sub = sub;
  return w;
}

/* The witness vector [head, rest[0..k)]. */
static Wit **cons_wit(Ex *x, Wit *head, Wit **rest, int k) {
  Wit **v = ARENA_ARRAY(x->S, Wit *, k + 1);
  v[0] = head;
  if (k)
    memcpy(v + 1, rest, sizeof *v * (size_t)k);
  return v;
}

/* Field types of constructor c in an ADT type t (type arguments put in). */
static const Type **field_types(Ex *x, const Ctor *c, const Type *t) {
  const TypeDef *td = c->def;
  int n = td->ntvars < t->adt.nargs ? td->ntvars : t->adt.nargs;
  const Type **fs = ARENA_ARRAY(x->S, const Type *, c->nfields + 1);
  for (int i = 0; i < c->nfields; i++)
    fs[i] = ir_type_subst(x->S, c->fields[i], n, td->tvars, t->adt.args);
  return fs;
}

static Wit **useful(Ex *x, const Pattern **rows, int nrows, int k, const Type **types);

/* Specialise the matrix by a head of arity `ar` (constructor c, or a
 * tuple when c is NULL) and recurse; returns the sub-witness vector. */
static Wit **specialise(Ex *x, const Pattern **rows, int nrows, int k, const Type **types,
                        const Ctor *c, int ar, const Type **ftypes) {
  int nk = ar + k - 1;
  const Pattern **spec = ARENA_ARRAY(x->S, const Pattern *, (size_t)nrows *(size_t)nk + 1);
  int ns = 0;
  for (int r = 0; r < nrows; r++) {
    const Pattern **row = rows + (size_t)r * (size_t)k;
    const Pattern *h = row[0];
    const Pattern **out = spec + (size_t)ns * (size_t)nk;
    if (is_wild(h)) {
      for (int i = 0; i < ar; i++)
        out[i] = NULL;
    } else if (c ? h->kind == PAT_CTOR && h->ctor == c && h->n == ar
                 : h->kind == PAT_TUPLE && h->n == ar) {
      for (int i = 0; i < ar; i++)
        out[i] = h->sub ? h->sub[i] : NULL;
    } else {
      continue; /* a different constructor: this row cannot match */
    }
    for (int i = 1; i < k; i++)
      out[ar + i - 1] = row[i];
    ns++;
  }
  const Type **nt = ARENA_ARRAY(x->S, const Type *, nk + 1);
  for (int i = 0; i < ar; i++)
    nt[i] = ftypes[i];
  for (int i = 1; i < k; i++)
    nt[ar + i - 1] = types[i];
  x->depth++;
  Wit **w = useful(x, spec, ns, nk, nt);
  x->depth--;
  return w;
}

/* The default matrix: rows with a wildcard head, without the head. */
static Wit **by_default(Ex *x, const Pattern **rows, int nrows, int k, const Type **types) {
  const Pattern **def = ARENA_ARRAY(x->S, const Pattern *, (size_t)nrows *(size_t)(k - 1) + 1);
  int nd = 0;
  for (int r = 0; r < nrows; r++) {
    const Pattern **row = rows + (size_t)r * (size_t)k;
    if (!is_wild(row[0]))
      continue;
    memcpy(def + (size_t)nd * (size_t)(k - 1), row + 1, sizeof *row * (size_t)(k - 1));
    nd++;
  }
  return useful(x, def, nd, k - 1, types + 1);
}

/* NULL when every value of `types` is matched by some row; otherwise a
 * witness vector of k values that no row matches. */
static Wit **useful(Ex *x, const Pattern **rows, int nrows, int k, const Type **types) {
  x->budget -= (long)nrows * k + 1;
  if (x->budget < 0 || x->depth > MAX_DEPTH) {
    x->gave_up = true;
    return NULL;
  }
  if (k == 0)
    return nrows ? NULL : ARENA_ARRAY(x->S, Wit *, 1);
  const Type *t = types[0];
  bool any_ctor = false, any_tuple = false;
  for (int r = 0; r < nrows; r++) {
    const Pattern *h = rows[(size_t)r * (size_t)k];
    any_ctor |= !is_wild(h) && h->kind == PAT_CTOR;
    any_tuple |= !is_wild(h) && h->kind == PAT_TUPLE;
  }
  if (t && t->kind == TY_ADT && t->adt.def) {
    const TypeDef *td = t->adt.def;
    /* Which constructors appear at the head? */
    int missing = -1;
    for (int c = 0; c < td->nctors && missing < 0; c++) {
      bool present = false;
      for (int r = 0; r < nrows && !present; r++) {
        const Pattern *h = rows[(size_t)r * (size_t)k];
        present = !is_wild(h) && h->kind == PAT_CTOR && h->ctor == td->ctors[c];
      }
      if (!present)
        missing = c;
    }
    if (missing < 0) {
      for (int c = 0; c < td->nctors; c++) {
        const Ctor *ct = td->ctors[c];
        Wit **w = specialise(x, rows, nrows, k, types, ct, ct->nfields, field_types(x, ct, t));
        if (x->gave_up)
          return NULL;
        if (w) {
          Wit *h = wit(x, W_CTOR, ct, ct->nfields, w);
          return cons_wit(x, h, w + ct->nfields, k - 1);
        }
      }
      return NULL;
    }
    Wit **w = by_default(x, rows, nrows, k, types);
    if (!w)
      return NULL;
    const Ctor *mc = td->ctors[missing];
    Wit *h = wit(x, W_WILD, NULL, 0, NULL);
    if (any_ctor) {
      Wit **sub = ARENA_ARRAY(x->S, Wit *, mc->nfields + 1);
      for (int i = 0; i < mc->nfields; i++)
        sub[i] = wit(x, W_WILD, NULL, 0, NULL);
      h = wit(x, W_CTOR, mc, mc->nfields, sub);
    }
    return cons_wit(x, h, w, k - 1);
  }
  if (t && t->kind == TY_TUPLE && any_tuple) {
    int n = t->tuple.n;
    Wit **w = specialise(x, rows, nrows, k, types, NULL, n, (const Type **)t->tuple.fields);
    if (!w)
      return NULL;
    return cons_wit(x, wit(x, W_TUPLE, NULL, n, w), w + n, k - 1);
  }
  Wit **w = by_default(x, rows, nrows, k, types);
  return w ? cons_wit(x, wit(x, W_WILD, NULL, 0, NULL), w, k - 1) : NULL;
}

/* Append w as pattern text to buf (of size len, at *pos). */
static void show(const Wit *w, char *buf, size_t len, size_t *pos, int depth) {
  char tmp[128];
  const char *s = tmp;
  if (depth > 16 || !w)
    s = "_";
  else if (w->kind == W_WILD)
    s = "_";
  else if (w->kind == W_CTOR && w->n == 0)
    s = w->ctor->name;
  else
    snprintf(tmp, sizeof tmp, "%s(", w->kind == W_CTOR ? w->ctor->name : "");
  size_t l = strlen(s);
  if (*pos + l + 1 < len) {
    memcpy(buf + *pos, s, l + 1);
    *pos += l;
  }
  if (s != tmp)
    return;
  for (int i = 0; i < w->n; i++) {
    if (i && *pos + 3 < len) {
      memcpy(buf + *pos, ", ", 3);
      *pos += 2;
    }
    show(w->sub[i], buf, len, pos, depth + 1);
  }
  const char *close = w->kind == W_TUPLE && w->n == 1 ? ",)" : ")";
  if (*pos + strlen(close) + 1 < len) {
    memcpy(buf + *pos, close, strlen(close) + 1);
    *pos += strlen(close);
  }
}

int ty_match_exhaustive(const Clause *clauses, int n, const Type *scrut, Arena *scratch,
                        char *witness, size_t witness_len) {
  Ex x = {.S = scratch ? scratch : arena_new(), .budget = BUDGET};
  const Pattern **rows = ARENA_ARRAY(x.S, const Pattern *, n + 1);
  for (int i = 0; i < n; i++)
    rows[i] = clauses[i].pat;
  Wit **w = useful(&x, rows, n, 1, &scrut);
  int result = x.gave_up ? -1 : w ? 0 : 1;
  if (result == 0 && witness && witness_len) {
    size_t pos = 0;
    witness[0] = 0;
    show(w[0], witness, witness_len, &pos, 0);
  }
  if (!scratch)
    arena_free(x.S);
  return result;
}
