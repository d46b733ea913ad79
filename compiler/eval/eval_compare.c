/*
 * eval_compare.c - the oracle's comparison of two results (ev_compare)
 * and of their traces (ev_compare_effects), structural comparison of
 * values under EvRules, and bitwise identity for determinism checks.  The
 * rules and the tolerance are justified in eval.h.
 */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "eval_int.h"

const EvTolerance ev_default_tolerance = {
    .rtol32 = 1e-4,
    .atol32 = 1e-4,
    .rtol64 = 1e-9,
    .atol64 = 1e-9,
    .rtol16 = 1e-2,
    .atol16 = 1e-2,
    .rtolbf16 = 6e-2,
    .atolbf16 = 6e-2,
};

void ev_tolerance_of(const EvTolerance *tol, DType dt, double *rtol, double *atol) {
  switch (dt) {
  case DT_FLOAT32: *rtol = tol->rtol32, *atol = tol->atol32; return;
  case DT_FLOAT16: *rtol = tol->rtol16, *atol = tol->atol16; return;
  case DT_BFLOAT16: *rtol = tol->rtolbf16, *atol = tol->atolbf16; return;
  default: *rtol = tol->rtol64, *atol = tol->atol64; return;
  }
}

bool ev_float_close(double x, double y, DType dt, const EvTolerance *tol) {
  if (isnan(x) || isnan(y))
    return isnan(x) && isnan(y);
  if (isinf(x) || isinf(y))
    return x == y;
  double rtol, atol;
  ev_tolerance_of(tol, dt, &rtol, &atol);
  return fabs(x - y) <= atol + rtol * fmax(fabs(x), fabs(y));
}

/* Exact comparison: what a NULL EvRules stands for. */
static const EvRules exact;

/* One step of the path from the root to the values being compared: field
 * `field` of a tuple (ctor NULL) or of constructor ctor, or a ref's
 * contents (field -1).  Steps are kept as data and formatted only when a
 * difference is reported. */
typedef struct Step {
  const char *ctor;
  int field;
} Step;

enum { MAX_STEPS = 48 };

/* State of one structural comparison. */
typedef struct Cmp {
  const EvRules *rules;
  bool ref_ids;         /* refs compare by creation number (trace values) */
  Step step[MAX_STEPS]; /* the path; steps past MAX_STEPS are elided */
  int nstep;            /* may exceed MAX_STEPS */
  char elem[160];       /* "[5] (index (1, 2) of (2, 3))" after the path */
  long nodes;           /* values visited, against EV_WALK_NODES */
  int closures;         /* closure pairs skipped */
  EvVerdict verdict;
  char *why;
  size_t whylen;
} Cmp;

/* Enter field i of a tuple (ctor NULL) or a constructor, or a ref's
 * contents (i = -1); leave by restoring nstep. */
static void step(Cmp *c, const char *ctor, int i) {
  if (c->nstep < MAX_STEPS)
    c->step[c->nstep] = (Step){ctor, i};
  c->nstep++;
}

/* The path as text, "$.1.Cons.0.ref", ending in "..." when long. */
static void path_str(const Cmp *c, char *buf, size_t n) {
  size_t len = (size_t)snprintf(buf, n, "$");
  int shown = c->nstep < MAX_STEPS ? c->nstep : MAX_STEPS;
  for (int i = 0; i < shown && len < n; i++) {
    const Step *s = &c->step[i];
    if (s->field < 0)
      len += (size_t)snprintf(buf + len, n - len, ".ref");
    else if (s->ctor)
      len += (size_t)snprintf(buf + len, n - len, ".%s.%d", s->ctor, s->field);
    else
      len += (size_t)snprintf(buf + len, n - len, ".%d", s->field);
  }
  if (c->nstep > shown && len < n)
    len += (size_t)snprintf(buf + len, n - len, "...");
  if (len >= n && n > 4)
    strcpy(buf + n - 4, "...");
}

/* Record the first difference, at the current path (and element). */
static bool differ(Cmp *c, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static bool differ(Cmp *c, const char *fmt, ...) {
  c->verdict = EV_DIFFERENT;
  if (c->why && c->whylen) {
    char detail[400], path[200];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(detail, sizeof detail, fmt, ap);
    va_end(ap);
    path_str(c, path, sizeof path);
    snprintf(c->why, c->whylen, "at %s%s: %s", path, c->elem, detail);
  }
  return false;
}

/* "tensor", "tuple", .. for messages. */
static const char *kind_name(EvKind k) {
  static const char *names[] = {"tensor", "tuple", "closure", "ref", "ADT value"};
  return names[k];
}

/* "(2, 3)" */
static void shape_str(char *buf, size_t n, int rank, const int64_t *shape) {
  size_t len = (size_t)snprintf(buf, n, "(");
  for (int i = 0; i < rank && len < n; i++)
    len += (size_t)snprintf(buf + len, n - len, "%s%lld", i ? ", " : "", (long long)shape[i]);
  if (len < n)
    snprintf(buf + len, n - len, "%s)", rank == 1 ? "," : "");
}

/* Do elements i of x and y agree under the rules?  Exactly: the same
 * bits, but any NaN faces any NaN (a float32 widens to a double
 * injectively, so == decides every other pair but the two zeros). */
static bool elem_same(Cmp *c, const Tensor *x, const Tensor *y, int64_t i) {
  if (!ir_dtype_is_float(x->dtype))
    return ir_tensor_get_i64(x, i) == ir_tensor_get_i64(y, i);
  double a = ir_tensor_get_f64(x, i), b = ir_tensor_get_f64(y, i);
  if (c->rules->tol)
    return ev_float_close(a, b, x->dtype, c->rules->tol);
  if (isnan(a) || isnan(b))
    return isnan(a) && isnan(b);
  return a == b && (a != 0 || c->rules->signed_zero || signbit(a) == signbit(b));
}

/* Same dtype and shape, and every element the same within tolerance. */
static bool tensors_same(Cmp *c, const Tensor *x, const Tensor *y) {
  char sx[100], sy[100];
  if (x->dtype != y->dtype || x->rank != y->rank ||
      memcmp(x->shape, y->shape, sizeof *x->shape * (size_t)x->rank) != 0) {
    shape_str(sx, sizeof sx, x->rank, x->shape);
    shape_str(sy, sizeof sy, y->rank, y->shape);
    return differ(c, "Tensor[%s, %s] vs Tensor[%s, %s]", sx, ir_dtype_name(x->dtype), sy,
                  ir_dtype_name(y->dtype));
  }
  if (memcmp(x->data, y->data, (size_t)x->numel * (size_t)ir_dtype_size(x->dtype)) == 0)
    return true; /* the same bits agree under every rule */
  shape_str(sx, sizeof sx, x->rank, x->shape);
  for (int64_t i = 0; i < x->numel; i++) {
    if (elem_same(c, x, y, i))
      continue;
    char ex[40], ey[40];
    ev_format_elem(ex, sizeof ex, x, i);
    ev_format_elem(ey, sizeof ey, y, i);
    if (x->rank > 0) {
      int64_t coord[IR_MAX_RANK], k = i;
      for (int d = x->rank - 1; d >= 0; d--) {
        coord[d] = x->shape[d] ? k % x->shape[d] : 0;
        k = x->shape[d] ? k / x->shape[d] : 0;
      }
      char cs[100];
      shape_str(cs, sizeof cs, x->rank, coord);
      snprintf(c->elem, sizeof c->elem, "[%lld] (index %s of %s)", (long long)i, cs, sx);
    }
    return differ(c, "%s %s vs %s", ir_dtype_name(x->dtype), ex, ey);
  }
  return true;
}

static bool same(Cmp *c, const EvValue *a, const EvValue *b, int depth);

/* Compare fields pairwise; the last one is returned through *a, *b for
 * the caller's loop so that long lists do not recurse. */
static bool fields_same(Cmp *c, int n, EvValue *const *fa, EvValue *const *fb, const char *ctor,
                        const EvValue **a, const EvValue **b, int depth) {
  int mark = c->nstep;
  for (int i = 0; i < n - 1; i++) {
    step(c, ctor, i);
    if (!same(c, fa[i], fb[i], depth + 1))
      return false;
    c->nstep = mark;
  }
  if (n > 0)
    step(c, ctor, n - 1);
  *a = n > 0 ? fa[n - 1] : NULL;
  *b = n > 0 ? fb[n - 1] : NULL;
  return true;
}

/* Compare a and b; false with c->verdict set at the first difference. */
static bool same(Cmp *c, const EvValue *a, const EvValue *b, int depth) {
  int mark = c->nstep;
  bool ok = true;
  while (ok && a) {
    if (++c->nodes > EV_WALK_NODES || depth > EV_WALK_DEPTH) {
      c->verdict = EV_UNDECIDED;
      if (c->why && c->whylen) {
        char path[200];
        path_str(c, path, sizeof path);
        snprintf(c->why, c->whylen, "values too large or deep to compare (at %s)", path);
      }
      ok = false;
      break;
    }
    if (a->kind != b->kind) {
      ok = differ(c, "%s vs %s", kind_name(a->kind), kind_name(b->kind));
      break;
    }
    switch (a->kind) {
    case VAL_TENSOR:
      ok = tensors_same(c, a->tensor, b->tensor);
      a = NULL;
      break;
    case VAL_CLOSURE:
      c->closures++;
      a = NULL;
      break;
    case VAL_REF:
      if (c->ref_ids) {
        if (a->ref.id != b->ref.id)
          ok = differ(c, "ref %d vs ref %d", a->ref.id, b->ref.id);
        a = NULL;
        break;
      }
      step(c, NULL, -1);
      a = a->ref.contents, b = b->ref.contents;
      break;
    case VAL_TUPLE:
      if (a->tuple.n != b->tuple.n)
        ok = differ(c, "tuple of %d vs tuple of %d", a->tuple.n, b->tuple.n);
      else
        ok = fields_same(c, a->tuple.n, a->tuple.fields, b->tuple.fields, NULL, &a, &b, depth);
      break;
    case VAL_ADT:
      if (a->adt.ctor->tag != b->adt.ctor->tag ||
          strcmp(a->adt.ctor->name, b->adt.ctor->name) != 0 || a->adt.n != b->adt.n)
        ok = differ(c, "%s vs %s", a->adt.ctor->name, b->adt.ctor->name);
      else
        ok = fields_same(c, a->adt.n, a->adt.fields, b->adt.fields, a->adt.ctor->name, &a, &b,
                         depth);
      break;
    }
  }
  c->nstep = mark;
  return ok;
}

/* Compare values a and b under rules (refs by creation number when
 * ref_ids); why as for ev_compare_values. */
static EvVerdict compare_values(const EvValue *a, const EvValue *b, const EvRules *rules,
                                bool ref_ids, char *why, size_t whylen) {
  Cmp c = {.rules = rules ? rules : &exact,
           .ref_ids = ref_ids,
           .verdict = EV_SAME,
           .why = why,
           .whylen = whylen};
  if (why && whylen)
    why[0] = 0;
  if (same(&c, a, b, 0) && c.closures && why && whylen)
    snprintf(why, whylen, "%d closure%s not compared", c.closures, c.closures > 1 ? "s" : "");
  return c.verdict;
}

EvVerdict ev_compare_values(const EvValue *a, const EvValue *b, const EvRules *rules, char *why,
                            size_t whylen) {
  return compare_values(a, b, rules, false, why, whylen);
}

/* Write a formatted note into why (when given) and return v. */
static EvVerdict say(EvVerdict v, char *why, size_t whylen, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
static EvVerdict say(EvVerdict v, char *why, size_t whylen, const char *fmt, ...) {
  if (why && whylen) {
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(why, whylen, fmt, ap);
    va_end(ap);
  }
  return v;
}

EvVerdict ev_compare(const EvResult *a, const EvResult *b, const EvRules *rules, char *why,
                     size_t whylen) {
  rules = rules ? rules : &exact;
  const EvResult *x[2] = {a, b};
  const char *name[2] = {"first", "second"};
  for (int i = 0; i < 2; i++)
    if (x[i]->status == EV_INCONCLUSIVE)
      return say(EV_UNDECIDED, why, whylen, "%s run inconclusive: %s", name[i], x[i]->msg);
  for (int i = 0; i < 2; i++)
    if (x[i]->status == EV_INVALID)
      return say(EV_DIFFERENT, why, whylen, "%s run invalid: %s", name[i], x[i]->msg);
  if (a->status == EV_ERROR && b->status == EV_ERROR)
    return say(EV_SAME, why, whylen, "both runs fail: %s", a->msg);
  if (a->status == EV_ERROR && rules->error_to_value)
    return say(EV_SAME, why, whylen, "the first run fails (%s), the second does not: allowed",
               a->msg);
  if (a->status == EV_ERROR && rules->drop_checks && a->pure_check)
    return say(EV_SAME, why, whylen,
               "the first run fails a pure expression's check (%s), the second does not: allowed",
               a->msg);
  if (a->status == EV_ERROR)
    return say(EV_DIFFERENT, why, whylen, "only the first run fails: %s", a->msg);
  if (b->status == EV_ERROR)
    return say(EV_DIFFERENT, why, whylen, "only the second run fails: %s", b->msg);
  return ev_compare_values(a->value, b->value, rules, why, whylen);
}

/* ------------------------------------------------------------- traces */

/* "ref 1 written (float32 2)", into buf; a long value ends in "...". */
static void effect_str(char *buf, size_t n, const EvEffect *e) {
  static const char *verb[] = {"made", "written", "read"};
  Arena *a = arena_new();
  const char *v = ev_print_value(a, e->value);
  int len = (int)strlen(v);
  snprintf(buf, n, "ref %d %s (%.*s%s)", e->ref, verb[e->kind], len > 60 ? 57 : len, v,
           len > 60 ? "..." : "");
  arena_free(a);
}

/* Effect k of the two traces differs: x or y (not both) may be NULL, for
 * a trace that has ended. */
static EvVerdict effect_differs(char *why, size_t whylen, int64_t k, const EvEffect *x,
                                const EvEffect *y, const char *detail) {
  if (!why || !whylen)
    return EV_DIFFERENT;
  char sx[160] = "nothing: the first run has no more effects",
       sy[160] = "nothing: the second run has no more effects";
  if (x)
    effect_str(sx, sizeof sx, x);
  if (y)
    effect_str(sy, sizeof sy, y);
  if (detail)
    return say(EV_DIFFERENT, why, whylen, "effect %lld (%s): %s", (long long)k, sx, detail);
  return say(EV_DIFFERENT, why, whylen, "effect %lld: %s vs %s", (long long)k, sx, sy);
}

EvVerdict ev_compare_effects(const EvResult *a, const EvResult *b, const EvRules *rules, char *why,
                             size_t whylen) {
  rules = rules ? rules : &exact;
  if (why && whylen)
    why[0] = 0;
  if (rules->effects || !a->trace || !b->trace || a->status == EV_INVALID ||
      b->status == EV_INVALID)
    return EV_SAME;
  /* A run that did not finish may stop early; its trace is then a prefix. */
  bool a_ends =
      a->status == EV_OK ||
      (a->status == EV_ERROR &&
       !((rules->error_to_value || (rules->drop_checks && a->pure_check)) && b->status == EV_OK));
  bool b_ends = b->status != EV_INCONCLUSIVE;
  const EvEffect *x = a->trace->first, *y = b->trace->first;
  int64_t k = 1; /* the number of y in the second trace */
  char detail[400];
  for (; x && y; x = x->next) {
    if (x->kind == y->kind && x->ref == y->ref) {
      EvVerdict v = compare_values(x->value, y->value, rules, true, detail, sizeof detail);
      if (v == EV_SAME) {
        y = y->next, k++;
        continue;
      }
      if (v == EV_UNDECIDED)
        return say(EV_UNDECIDED, why, whylen, "effect %lld: %s", (long long)k, detail);
      if (!(rules->drop_reads && x->kind == EV_EFF_READ))
        return effect_differs(why, whylen, k, x, y, detail);
    } else if (!(rules->drop_reads && x->kind == EV_EFF_READ)) {
      return effect_differs(why, whylen, k, x, y, NULL);
    }
  }
  while (rules->drop_reads && x && x->kind == EV_EFF_READ)
    x = x->next;
  if (x && b_ends)
    return effect_differs(why, whylen, k, x, NULL, NULL);
  if (y && a_ends)
    return effect_differs(why, whylen, k, NULL, y, NULL);
  return EV_SAME;
}

/* Bitwise identity with the same node budget as comparison. */
static bool ident(const EvValue *a, const EvValue *b, int depth, long *nodes) {
  while (a) {
    if (++*nodes > EV_WALK_NODES || depth > EV_WALK_DEPTH || a->kind != b->kind)
      return false;
    int n = 0;
    EvValue *const *fa = NULL, *const *fb = NULL;
    switch (a->kind) {
    case VAL_TENSOR: return ir_tensor_identical(a->tensor, b->tensor);
    case VAL_CLOSURE:
      if (a->closure.fn != b->closure.fn || a->closure.global != b->closure.global ||
          !a->closure.konst != !b->closure.konst)
        return false;
      a = a->closure.konst, b = b->closure.konst;
      continue;
    case VAL_REF: a = a->ref.contents, b = b->ref.contents; continue;
    case VAL_TUPLE:
      n = a->tuple.n, fa = a->tuple.fields, fb = b->tuple.fields;
      if (n != b->tuple.n)
        return false;
      break;
    case VAL_ADT:
      n = a->adt.n, fa = a->adt.fields, fb = b->adt.fields;
      if (a->adt.ctor->tag != b->adt.ctor->tag || n != b->adt.n ||
          strcmp(a->adt.ctor->name, b->adt.ctor->name) != 0)
        return false;
      break;
    }
    for (int i = 0; i < n - 1; i++)
      if (!ident(fa[i], fb[i], depth + 1, nodes))
        return false;
    a = n ? fa[n - 1] : NULL;
    b = n ? fb[n - 1] : NULL;
  }
  return true;
}

bool ev_value_identical(const EvValue *a, const EvValue *b) {
  long nodes = 0;
  return ident(a, b, 0, &nodes);
}
