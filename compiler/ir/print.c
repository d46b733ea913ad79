/*
 * print.c - the printer: modules, expressions and types in Relay's text
 * format 0.0.5, with the extensions described in docs/text-format.md.
 *
 * The output is canonical: parse(print(m)) prints back to the same text.
 *
 * Sharing.  An expression node reachable along two paths (in-degree >= 2)
 * is printed once as a graph binding `%N = ...;` and referenced as %N.
 * Variables, globals and scalar constants are never bound this way: they
 * are printed at every use (their sharing carries no meaning).  A binding
 * is placed in the innermost block that encloses all its uses, just
 * before the first statement (or the tail) that uses it.
 *
 * A block is the statement list of a function body, an if branch, a match
 * clause or a braced `{ let ...; e }` expression; a let chain is flattened
 * into the statements of its block.  Placement takes two walks over the
 * same structure: a dry walk, which prints nothing but numbers the blocks
 * and folds every use of a bound node into the lowest common ancestor
 * (block, statement) slot, then the real walk, which prints the bindings
 * in their slots.  Bound nodes are placed parents-first (reverse
 * post-order), so the uses inside a bound value are known by the time the
 * nodes it references are placed.
 *
 * Names.  Variables get unique names within one global function: free
 * variables keep their name hints (they are compared by name), binders
 * take their sanitised hint, then hint1, hint2, ... when it is taken.
 * Type variables likewise, avoiding reserved words and type names.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hash.h"
#include "ir.h"
#include "parse_int.h"
#include "ptrmap.h"

/* ------------------------------------------------------------ buffers */

/* Text being built, in an arena (growing abandons the old copy). */
typedef struct Buf {
  char *s;
  size_t len, cap;
  Arena *a;
} Buf;

/* Appends n bytes to b. */
static void buf_put(Buf *b, const char *s, size_t n) {
  if (b->len + n + 1 > b->cap) {
    size_t cap = b->cap ? b->cap : 4096;
    while (cap < b->len + n + 1)
      cap *= 2;
    char *t = arena_alloc(b->a, cap);
    if (b->len)
      memcpy(t, b->s, b->len);
    b->s = t;
    b->cap = cap;
  }
  memcpy(b->s + b->len, s, n);
  b->len += n;
  b->s[b->len] = 0;
}

/* ----------------------------------------------------------- name sets */

/* A set of strings (the names taken in one namespace). */
typedef struct NameSet {
  const char **slots;
  size_t cap, n;
  Arena *arena; /* where the table lives */
} NameSet;

/* The slot holding s, or the empty slot where it would go. */
static size_t ns_slot(const NameSet *ns, const char *s) {
  size_t i = (size_t)hash_fnv1a_str(HASH_FNV_BASIS, s) & (ns->cap - 1);
  while (ns->slots[i] && strcmp(ns->slots[i], s) != 0)
    i = (i + 1) & (ns->cap - 1);
  return i;
}

/* Is s in the set? */
static bool ns_has(const NameSet *ns, const char *s) {
  return ns->cap && ns->slots[ns_slot(ns, s)];
}

/* Adds s (which must outlive the set). */
static void ns_add(NameSet *ns, const char *s) {
  if (2 * (ns->n + 1) > ns->cap) {
    size_t cap = ns->cap ? 2 * ns->cap : 64;
    NameSet t = {ARENA_ARRAY(ns->arena, const char *, cap), cap, 0, ns->arena};
    for (size_t i = 0; i < ns->cap; i++)
      if (ns->slots[i])
        t.slots[ns_slot(&t, ns->slots[i])] = ns->slots[i], t.n++;
    *ns = t; /* the old table stays in the arena */
  }
  size_t i = ns_slot(ns, s);
  if (!ns->slots[i])
    ns->slots[i] = s, ns->n++;
}

/* Empties the set, keeping its table. */
static void ns_clear(NameSet *ns) {
  if (ns->n)
    memset((void *)ns->slots, 0, sizeof *ns->slots * ns->cap);
  ns->n = 0;
}

/* ------------------------------------------------------------ printer */

/* A block: a list of statements (let items) then a tail.  parent/item is
 * the slot of the enclosing block in which this block is printed. */
typedef struct Block {
  int parent, item, depth;
} Block;

/* A node printed as a graph binding, and the slot where it goes. */
typedef struct Bound {
  const Expr *e;
  int post; /* post-order index: a node's children have smaller ones */
  int blk, item;
  bool placed;
} Bound;

typedef struct Printer {
  Buf out;
  int indent;
  bool dry; /* walking to place bindings: print nothing */
  const Module *m;
  Arena *tmp; /* names */

  /* Per root (one global function, or the expression printed). */
  PtrMap indeg;       /* Expr -> parent edges within the root */
  const Expr **multi; /* the nodes with two or more parent edges */
  int nmulti, capmulti;
  PtrMap post; /* Expr -> post-order index */
  PtrMap bidx; /* bound Expr -> index into bound[] + 1 */
  Bound *bound;
  int nbound, npost;
  Bound *sorted; /* bound[] sorted by slot, for the real walk */
  int *cursor;   /* per block: next position in sorted[] */
  Block *blocks;
  int nblocks, capblocks;
  PtrMap bbase; /* block owner -> first block id + 1 */
  int cur_blk, cur_item;
  char root_key; /* its owner, when printing a bare expression */
  PtrMap gnum;   /* bound Expr -> graph number + 1, once printed */
  int next_gnum;
  PtrMap vname; /* Var / TY_VAR -> (char *) name */
  NameSet vtaken, ttaken;
  PtrMap vbinder;   /* Vars bound somewhere in the root */
  PtrMap vused;     /* Vars used */
  const Var **used; /* in order of first use */
  int nused, capused;
  int nfree;          /* used[] entries never bound: printed as free_var */
  const char **names; /* optional: Var id -> printed name, in names_arena */
  Arena *names_arena;
} Printer;

/* Appends s to the output (nothing in the dry walk). */
static void put(Printer *p, const char *s) {
  if (!p->dry)
    buf_put(&p->out, s, strlen(s));
}

static void putf(Printer *p, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* Appends formatted text of any length (nothing in the dry walk). */
static void putf(Printer *p, const char *fmt, ...) {
  if (p->dry)
    return;
  char small[128], *buf = small;
  va_list ap;
  va_start(ap, fmt);
  int n = vsnprintf(small, sizeof small, fmt, ap);
  va_end(ap);
  if (n < 0)
    return;
  if ((size_t)n >= sizeof small) { /* long names */
    buf = malloc((size_t)n + 1);
    if (!buf)
      abort();
    va_start(ap, fmt);
    vsnprintf(buf, (size_t)n + 1, fmt, ap);
    va_end(ap);
  }
  buf_put(&p->out, buf, (size_t)n);
  if (buf != small)
    free(buf);
}

/* A new line at the current indentation (nothing at the very start). */
static void nl(Printer *p) {
  if (p->dry || p->out.len == 0)
    return;
  put(p, "\n");
  for (int i = 0; i < p->indent; i++)
    put(p, "  ");
}

/* ------------------------------------------------------------ numbers */

/* Formats a non-finite float from its sign, exponent-all-ones flag and
 * mantissa: inf, -inf, nan, -nan or nan(0xPAYLOAD) where the payload is
 * the mantissa field (omitted when it is the default quiet NaN's). */
static void fmt_nonfinite(char *buf, size_t n, bool neg, uint64_t mant, uint64_t quiet) {
  if (mant == 0)
    snprintf(buf, n, "%sinf", neg ? "-" : "");
  else if (mant == quiet)
    snprintf(buf, n, "%snan", neg ? "-" : "");
  else
    snprintf(buf, n, "%snan(0x%llx)", neg ? "-" : "", (unsigned long long)mant);
}

/* Formats a non-finite float32 given by its bits; false when finite.
 * Bits, not values: converting a float to double would quiet a NaN. */
static bool special_f32(char *buf, size_t n, uint32_t bits) {
  if ((bits & 0x7f800000u) != 0x7f800000u)
    return false;
  fmt_nonfinite(buf, n, bits >> 31, bits & 0x7fffffu, 0x400000u);
  return true;
}

/* Formats a non-finite double given by its bits; false when finite. */
static bool special_f64(char *buf, size_t n, uint64_t bits) {
  if ((bits & 0x7ff0000000000000ull) != 0x7ff0000000000000ull)
    return false;
  fmt_nonfinite(buf, n, bits >> 63, bits & 0xfffffffffffffull, 0x8000000000000ull);
  return true;
}

/* Formats a non-finite float16 or bfloat16 given by its bits; false when
 * finite. */
static bool special_half(char *buf, size_t n, DType dt, uint16_t bits) {
  int mant = dt == DT_FLOAT16 ? 10 : 7;
  unsigned inf = (0x7fffu >> mant) << mant;
  if ((bits & inf) != inf)
    return false;
  fmt_nonfinite(buf, n, bits >> 15, bits & ((1u << mant) - 1), 1u << (mant - 1));
  return true;
}

/* Integers below 10^(maxexp+1) are exact in the type: print 1000 rather
 * than %g's 1e+03 when the shortest form is in exponent notation. */
static void fixed_if_integral(char *buf, size_t n, double v, int maxexp) {
  const char *e = strchr(buf, 'e');
  if (!e)
    return;
  int exp = atoi(e + 1);
  if (exp >= 0 && exp <= maxexp)
    snprintf(buf, n, "%.*g", exp + 1, v);
}

#ifdef RS_TEST_PASSES
bool ir_test_print_zero_sign;
#endif

/* The shortest %g form of a finite float32 that reads back bit-exactly. */
static void fmt_f32(char *buf, size_t n, float v) {
#ifdef RS_TEST_PASSES
  if (ir_test_print_zero_sign && v == 0)
    v = 0; /* the deliberate printer bug only a structural round trip sees */
#endif
  for (int prec = 1; prec <= 9; prec++) {
    snprintf(buf, n, "%.*g", prec, (double)v);
    float back = strtof(buf, NULL);
    if (memcmp(&back, &v, sizeof v) == 0)
      break;
  }
  fixed_if_integral(buf, n, v, 6);
}

/* The shortest %g form of a finite double that reads back bit-exactly. */
static void fmt_f64(char *buf, size_t n, double v) {
#ifdef RS_TEST_PASSES
  if (ir_test_print_zero_sign && v == 0)
    v = 0;
#endif
  for (int prec = 1; prec <= 17; prec++) {
    snprintf(buf, n, "%.*g", prec, v);
    double back = strtod(buf, NULL);
    if (memcmp(&back, &v, sizeof v) == 0)
      break;
  }
  fixed_if_integral(buf, n, v, 15);
}

/* The shortest %g form of a finite float16 or bfloat16 (bits) that reads
 * back to the same bits (the parser rounds the nearest double once). */
static void fmt_half(char *buf, size_t n, DType dt, uint16_t bits) {
  double v = ir_half_to_f64(dt, bits);
  for (int prec = 1; prec <= 17; prec++) {
    snprintf(buf, n, "%.*g", prec, v);
    if (ir_half_from_f64(dt, strtod(buf, NULL)) == bits)
      break;
  }
  fixed_if_integral(buf, n, v, 4);
}

/* A tensor element (no suffix: the literal's header gives the dtype). */
static void fmt_elem(char *buf, size_t n, const Tensor *t, int64_t i) {
  switch (t->dtype) {
  case DT_BOOL: snprintf(buf, n, "%s", ((const uint8_t *)t->data)[i] ? "True" : "False"); break;
  case DT_FLOAT32: {
    uint32_t bits;
    memcpy(&bits, (const char *)t->data + 4 * i, 4);
    float f;
    memcpy(&f, &bits, 4);
    if (!special_f32(buf, n, bits))
      fmt_f32(buf, n, f);
    break;
  }
  case DT_FLOAT64: {
    uint64_t bits;
    memcpy(&bits, (const char *)t->data + 8 * i, 8);
    double f;
    memcpy(&f, &bits, 8);
    if (!special_f64(buf, n, bits))
      fmt_f64(buf, n, f);
    break;
  }
  case DT_FLOAT16:
  case DT_BFLOAT16: {
    uint16_t bits = ((const uint16_t *)t->data)[i];
    if (!special_half(buf, n, t->dtype, bits))
      fmt_half(buf, n, t->dtype, bits);
    break;
  }
  default:
    if (ir_dtype_is_unsigned(t->dtype))
      snprintf(buf, n, "%llu", (unsigned long long)ir_tensor_get_u64(t, i));
    else
      snprintf(buf, n, "%lld", (long long)ir_tensor_get_i64(t, i));
    break;
  }
}

/* ------------------------------------------------------------ names */

static const char *const reserved[] = {
    "def",       "type", "fn",    "let",    "if",  "else", "match", "free_var", "ref", "ref_read",
    "ref_write", "True", "False", "Tensor", "Ref", "None", "nan",   "inf",      "_",   NULL};

/* Is s a reserved word, a dtype, or (for type variables) a type name? */
static bool name_reserved(const Printer *p, const char *s, bool type_ns) {
  if (!type_ns)
    return false;
  for (int i = 0; reserved[i]; i++)
    if (strcmp(reserved[i], s) == 0)
      return true;
  DType dt;
  if (ir_dtype_parse_text(s, strlen(s), &dt))
    return true;
  return p->m && ir_typedef_get(p->m, s);
}

/* hint reduced to [A-Za-z_][A-Za-z0-9_]*, never empty. */
static char *sanitize(Printer *p, const char *hint, const char *dflt) {
  size_t n = hint ? strlen(hint) : 0;
  char *s = arena_alloc(p->tmp, n + 2);
  size_t k = 0;
  for (size_t i = 0; i < n; i++) {
    char c = hint[i];
    if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_' || (c >= '0' && c <= '9'))
      s[k++] = c;
  }
  if (k == 0)
    return arena_strdup(p->tmp, dflt);
  if (s[0] >= '0' && s[0] <= '9') {
    memmove(s + 1, s, k);
    s[0] = dflt[0];
  }
  return s;
}

/* A name for hint not yet in ns (hint, hint1, hint2, ...); adds it. */
static const char *fresh(Printer *p, NameSet *ns, const char *hint, bool type_ns) {
  const char *base = sanitize(p, hint, type_ns ? "T" : "x");
  const char *s = base;
  for (int k = 1; ns_has(ns, s) || name_reserved(p, s, type_ns); k++)
    s = arena_printf(p->tmp, "%s%d", base, k);
  ns_add(ns, s);
  return s;
}

/* The printed name of a variable, assigned at its first appearance. */
static const char *var_name(Printer *p, const Var *v) {
  int added;
  int64_t *slot = ptrmap_put(&p->vname, v, &added);
  if (added) {
    const char *s = fresh(p, &p->vtaken, v->name, false);
    *slot = (int64_t)(intptr_t)s;
    if (p->names)
      p->names[v->id] = arena_strdup(p->names_arena, s);
  }
  return (const char *)(intptr_t)*slot;
}

/* Names a type variable at its binder. */
static void tvar_bind(Printer *p, const Type *tv) {
  int added;
  int64_t *slot = ptrmap_put(&p->vname, tv, &added);
  if (added)
    *slot = (int64_t)(intptr_t)fresh(p, &p->ttaken, tv->var.name, true);
}

/* The printed name of a type variable (its raw hint when unbound). */
static const char *tvar_name(Printer *p, const Type *tv) {
  int64_t *slot = ptrmap_get(&p->vname, tv);
  return slot ? (const char *)(intptr_t)*slot : sanitize(p, tv->var.name, "T");
}

/* ------------------------------------------------------------ types */

static void pr_type(Printer *p, const Type *t);

/* Prints n types separated by ", ". */
static void pr_types(Printer *p, int n, Type *const *ts) {
  for (int i = 0; i < n; i++) {
    if (i)
      put(p, ", ");
    pr_type(p, ts[i]);
  }
}

/* Prints binder type variables as [A, B] (nothing when there are none). */
static void pr_tvars(Printer *p, int n, Type *const *tvars) {
  if (!n || p->dry)
    return;
  put(p, "[");
  for (int i = 0; i < n; i++) {
    tvar_bind(p, tvars[i]);
    putf(p, "%s%s", i ? ", " : "", tvar_name(p, tvars[i]));
  }
  put(p, "]");
}

/* Prints a shape: (2, 3), (3), (), and an Any dim as Relay does: (?, 3). */
static void pr_shape(Printer *p, int rank, const int64_t *shape) {
  put(p, "(");
  for (int i = 0; i < rank; i++) {
    if (i)
      put(p, ", ");
    if (ir_dim_is_any(shape[i]))
      put(p, "?");
    else
      putf(p, "%lld", (long long)shape[i]);
  }
  put(p, ")");
}

/* Prints a type; TY_VARs by their names in the current root. */
static void pr_type(Printer *p, const Type *t) {
  if (p->dry)
    return;
  if (!t) {
    put(p, "_");
    return;
  }
  switch (t->kind) {
  case TY_TENSOR:
    if (t->tensor.rank == 0) {
      put(p, ir_dtype_name(t->tensor.dtype));
      break;
    }
    put(p, "Tensor[");
    pr_shape(p, t->tensor.rank, t->tensor.shape);
    putf(p, ", %s]", ir_dtype_name(t->tensor.dtype));
    break;
  case TY_TUPLE:
    put(p, "(");
    pr_types(p, t->tuple.n, t->tuple.fields);
    put(p, t->tuple.n == 1 ? ",)" : ")");
    break;
  case TY_FUNC:
    put(p, "fn ");
    pr_tvars(p, t->func.ntvars, t->func.tvars);
    put(p, "(");
    pr_types(p, t->func.nparams, t->func.params);
    put(p, ") -> ");
    pr_type(p, t->func.ret);
    break;
  case TY_REF:
    put(p, "Ref[");
    pr_type(p, t->ref.inner);
    put(p, "]");
    break;
  case TY_ADT:
    put(p, t->adt.def->name);
    if (t->adt.nargs) {
      put(p, "[");
      pr_types(p, t->adt.nargs, t->adt.args);
      put(p, "]");
    }
    break;
  case TY_VAR: put(p, tvar_name(p, t)); break;
  case TY_INCOMPLETE: put(p, "_"); break;
  }
}

/* ------------------------------------------------------------ literals */

/* Prints nested element lists for dimension dim onward. */
static void pr_elems(Printer *p, const Tensor *t, int dim, int64_t *idx) {
  char buf[64];
  if (dim == t->rank) {
    fmt_elem(buf, sizeof buf, t, (*idx)++);
    put(p, buf);
    return;
  }
  put(p, "[");
  for (int64_t i = 0; i < t->shape[dim]; i++) {
    if (i)
      put(p, ", ");
    pr_elems(p, t, dim + 1, idx);
  }
  put(p, "]");
}

/* A scalar literal with its dtype suffix, when the value has one. */
static bool pr_scalar(Printer *p, const Tensor *t) {
  char buf[64];
  switch (t->dtype) {
  case DT_BOOL: put(p, ((const uint8_t *)t->data)[0] ? "True" : "False"); return true;
  case DT_INT8: putf(p, "%di8", ((const int8_t *)t->data)[0]); return true;
  case DT_INT32: putf(p, "%d", ((const int32_t *)t->data)[0]); return true;
  case DT_INT64: putf(p, "%lldi64", (long long)((const int64_t *)t->data)[0]); return true;
  case DT_INT16: putf(p, "%di16", ((const int16_t *)t->data)[0]); return true;
  case DT_FLOAT16: { /* TVM's suffixes: f16 and i16, none for bfloat16 and the uints */
    uint16_t bits = ((const uint16_t *)t->data)[0];
    if (special_half(buf, sizeof buf, DT_FLOAT16, bits))
      return false;
    fmt_half(buf, sizeof buf, DT_FLOAT16, bits);
    putf(p, "%sf16", buf);
    return true;
  }
  case DT_FLOAT32: {
    float f = ((const float *)t->data)[0];
    if (!isfinite(f))
      return false;
    fmt_f32(buf, sizeof buf, f);
    putf(p, "%sf", buf);
    return true;
  }
  case DT_FLOAT64: {
    double f = ((const double *)t->data)[0];
    if (!isfinite(f))
      return false;
    fmt_f64(buf, sizeof buf, f);
    putf(p, "%sf64", buf);
    return true;
  }
  default: return false;
  }
}

/* A constant: a suffixed scalar literal, or Tensor[shape, dtype](elems). */
static void pr_const(Printer *p, const Tensor *t) {
  if (p->dry || (t->rank == 0 && pr_scalar(p, t)))
    return;
  put(p, "Tensor[");
  pr_shape(p, t->rank, t->shape);
  putf(p, ", %s](", ir_dtype_name(t->dtype));
  int64_t idx = 0;
  pr_elems(p, t, 0, &idx);
  put(p, ")");
}

/* A double attribute value: 1.5f, -0f, inf, nan(0x1). */
static void pr_float_attr(Printer *p, double v) {
  char buf[64];
  uint64_t bits;
  memcpy(&bits, &v, 8);
  if (special_f64(buf, sizeof buf, bits)) {
    put(p, buf);
    return;
  }
  fmt_f64(buf, sizeof buf, v);
  putf(p, "%sf", buf);
}

/* A string literal; bytes outside printable ASCII are escaped as \xHH. */
static void pr_string(Printer *p, const char *s) {
  put(p, "\"");
  for (; *s; s++) {
    unsigned char c = (unsigned char)*s;
    if (c == '"' || c == '\\')
      putf(p, "\\%c", c);
    else if (c == '\n')
      put(p, "\\n");
    else if (c == '\t')
      put(p, "\\t");
    else if (c < 0x20 || c > 0x7e)
      putf(p, "\\x%02x", c);
    else
      putf(p, "%c", c);
  }
  put(p, "\"");
}

/* Prints name=value for an operator attribute. */
static void pr_attr(Printer *p, const Attr *a) {
  putf(p, "%s=", a->name);
  switch (a->kind) {
  case AV_NONE: put(p, "None"); break;
  case AV_INT: putf(p, "%lld", (long long)a->i); break;
  case AV_FLOAT: pr_float_attr(p, a->f); break;
  case AV_BOOL: put(p, a->i ? "True" : "False"); break;
  case AV_STR: pr_string(p, a->s ? a->s : ""); break;
  case AV_INTS:
    put(p, "[");
    for (int i = 0; i < a->n; i++)
      putf(p, "%s%lld", i ? ", " : "", (long long)a->ints[i]);
    put(p, "]");
    break;
  case AV_PAIRS:
    put(p, "[");
    for (int i = 0; i < a->n; i++)
      putf(p, "%s[%lld, %lld]", i ? ", " : "", (long long)a->ints[2 * i],
           (long long)a->ints[2 * i + 1]);
    put(p, "]");
    break;
  }
}

/* --------------------------------------------------- graph structure */

/* Number of direct child expressions (the order ir_expr_children uses). */
static int nkids(const Expr *e) {
  switch (e->kind) {
  case EX_TUPLE: return e->tuple.n;
  case EX_PROJ:
  case EX_FUNC:
  case EX_REF_NEW:
  case EX_REF_READ: return 1;
  case EX_LET:
  case EX_REF_WRITE: return 2;
  case EX_IF: return 3;
  case EX_CALL: return e->call.nargs + (e->call.kind == CALL_EXPR);
  case EX_MATCH: return 1 + e->match.n;
  default: return 0;
  }
}

/* The i-th direct child expression. */
static const Expr *kid(const Expr *e, int i) {
  switch (e->kind) {
  case EX_TUPLE: return e->tuple.fields[i];
  case EX_PROJ: return e->proj.tuple;
  case EX_FUNC: return e->func.body;
  case EX_REF_NEW: return e->ref_new.value;
  case EX_REF_READ: return e->ref_read.ref;
  case EX_LET: return i ? e->let.body : e->let.value;
  case EX_REF_WRITE: return i ? e->ref_write.value : e->ref_write.ref;
  case EX_IF: return i == 0 ? e->if_.cond : i == 1 ? e->if_.then : e->if_.els;
  case EX_CALL:
    if (e->call.kind == CALL_EXPR)
      return i ? e->call.args[i - 1] : e->call.callee;
    return e->call.args[i];
  case EX_MATCH: return i ? e->match.clauses[i - 1].body : e->match.scrut;
  default: return NULL;
  }
}

/* Variables, globals and scalar constants are printed at every use. */
static bool is_leaf(const Expr *e) {
  return e->kind == EX_VAR || e->kind == EX_GLOBAL ||
         (e->kind == EX_CONST && e->constant->rank == 0);
}

/* Counts parent edges and numbers nodes in post-order. */
static void count_edges(Printer *p, const Expr *e) {
  int added;
  int64_t *d = ptrmap_put(&p->indeg, e, &added);
  if (++*d == 2) {
    if (p->nmulti == p->capmulti) {
      p->capmulti = p->capmulti ? 2 * p->capmulti : 16;
      const Expr **nm = ARENA_ARRAY(p->tmp, const Expr *, p->capmulti);
      if (p->nmulti)
        memcpy(nm, p->multi, sizeof *nm * (size_t)p->nmulti);
      p->multi = nm;
    }
    p->multi[p->nmulti++] = e;
  }
  if (!added)
    return;
  for (int i = 0, n = nkids(e); i < n; i++)
    count_edges(p, kid(e, i));
  *ptrmap_put(&p->post, e, NULL) = p->npost++;
}

/* The Bound record of e, or NULL when e is printed in place. */
static Bound *bound_of(const Printer *p, const Expr *e) {
  int64_t *i = ptrmap_get(&p->bidx, e);
  return i ? &p->bound[*i - 1] : NULL;
}

/* Orders bound nodes parents first. */
static int cmp_post_desc(const void *a, const void *b) {
  return ((const Bound *)b)->post - ((const Bound *)a)->post;
}

/* Collects the nodes that become graph bindings, parents first. */
static void collect_bound(Printer *p) {
  int n = 0;
  for (int i = 0; i < p->nmulti; i++)
    n += !is_leaf(p->multi[i]);
  p->bound = n ? ARENA_ARRAY(p->tmp, Bound, n) : NULL;
  p->nbound = 0;
  for (int i = 0; i < p->nmulti; i++)
    if (!is_leaf(p->multi[i])) {
      const Expr *e = p->multi[i];
      p->bound[p->nbound++] = (Bound){e, (int)*ptrmap_get(&p->post, e), 0, 0, false};
    }
  if (n)
    qsort(p->bound, (size_t)n, sizeof(Bound), cmp_post_desc);
  for (int i = 0; i < n; i++)
    *ptrmap_put(&p->bidx, p->bound[i].e, NULL) = i + 1;
}

/* Enters block `which` of owner (owners have nblk consecutive blocks);
 * the dry walk creates them as children of the current slot. */
static int enter_block(Printer *p, const void *owner, int which, int nblk) {
  int64_t *base = ptrmap_get(&p->bbase, owner);
  if (!base) {
    if (!p->dry)
      abort(); /* the real walk follows the dry one exactly */
    base = ptrmap_put(&p->bbase, owner, NULL);
    *base = p->nblocks + 1;
    for (int i = 0; i < nblk; i++) {
      if (p->nblocks == p->capblocks) {
        p->capblocks = p->capblocks ? 2 * p->capblocks : 32;
        Block *nb = ARENA_ARRAY(p->tmp, Block, p->capblocks);
        if (p->nblocks)
          memcpy(nb, p->blocks, sizeof(Block) * (size_t)p->nblocks);
        p->blocks = nb;
      }
      int depth = p->cur_blk >= 0 ? p->blocks[p->cur_blk].depth + 1 : 0;
      p->blocks[p->nblocks++] = (Block){p->cur_blk, p->cur_item, depth};
    }
  }
  return (int)*base - 1 + which;
}

/* Folds the current slot into b's placement (lowest common ancestor). */
static void record_use(Printer *p, Bound *b) {
  int blk = p->cur_blk, item = p->cur_item;
  if (!b->placed) {
    b->blk = blk, b->item = item, b->placed = true;
    return;
  }
  int ob = b->blk, oi = b->item;
  while (p->blocks[blk].depth > p->blocks[ob].depth)
    item = p->blocks[blk].item, blk = p->blocks[blk].parent;
  while (p->blocks[ob].depth > p->blocks[blk].depth)
    oi = p->blocks[ob].item, ob = p->blocks[ob].parent;
  while (blk != ob) {
    item = p->blocks[blk].item, blk = p->blocks[blk].parent;
    oi = p->blocks[ob].item, ob = p->blocks[ob].parent;
  }
  b->blk = blk;
  b->item = item < oi ? item : oi;
}

/* Notes a variable use (dry walk), to find the free variables. */
static void note_use(Printer *p, const Var *v) {
  if (!ptrmap_first(&p->vused, v))
    return;
  if (p->nused == p->capused) {
    p->capused = p->capused ? 2 * p->capused : 16;
    const Var **nu = ARENA_ARRAY(p->tmp, const Var *, p->capused);
    if (p->nused)
      memcpy(nu, p->used, sizeof(Var *) * (size_t)p->nused);
    p->used = nu;
  }
  p->used[p->nused++] = v;
}

/* ------------------------------------------------------------ exprs */

static void pr_expr(Printer *p, const Expr *e);
static void pr_node(Printer *p, const Expr *e);

typedef enum BlockStyle {
  BLK_BRACES,   /* always { ... } */
  BLK_OPTIONAL, /* braces only when there are statements (match clauses) */
  BLK_BARE,     /* statements and tail without braces (a bare expression) */
} BlockStyle;

/* Prints a binder: %name, with its annotation when present. */
static void pr_binder(Printer *p, const Var *v) {
  if (p->dry) {
    ptrmap_put(&p->vbinder, v, NULL);
    return;
  }
  putf(p, "%%%s", var_name(p, v));
  if (v->annot) {
    put(p, ": ");
    pr_type(p, v->annot);
  }
}

/* Prints the graph bindings whose slot is (blk, item). */
static void pr_bindings(Printer *p, int blk, int item) {
  if (p->dry)
    return;
  int *c = &p->cursor[blk];
  while (*c < p->nbound && p->sorted[*c].blk == blk && p->sorted[*c].item == item) {
    const Bound *b = &p->sorted[(*c)++];
    int num = p->next_gnum++;
    nl(p);
    putf(p, "%%%d = ", num);
    pr_node(p, b->e);
    put(p, ";");
    *ptrmap_put(&p->gnum, b->e, NULL) = num + 1;
  }
}

/* Does block blk hold any graph binding? */
static bool has_bindings(const Printer *p, int blk) {
  int c = p->cursor[blk];
  return c < p->nbound && p->sorted[c].blk == blk;
}

/* Prints e as block `which` of owner: its let chain as statements, with
 * the graph bindings placed there, then the tail. */
static void pr_block(Printer *p, const void *owner, int which, int nblk, const Expr *e,
                     BlockStyle style) {
  int sblk = p->cur_blk, sitem = p->cur_item;
  int blk = enter_block(p, owner, which, nblk);
  int nitems = 0;
  const Expr *tail = e;
  while (tail->kind == EX_LET && !bound_of(p, tail))
    tail = tail->let.body, nitems++;
  bool root = blk == 0;
  bool stmts = !p->dry && (nitems > 0 || has_bindings(p, blk) || (root && p->nfree > 0));
  if (style == BLK_OPTIONAL && !stmts && !p->dry) {
    p->cur_blk = blk, p->cur_item = 0;
    pr_expr(p, tail);
    p->cur_blk = sblk, p->cur_item = sitem;
    return;
  }
  if (style != BLK_BARE) {
    put(p, "{");
    p->indent++;
  }
  if (root && !p->dry)
    for (int i = 0; i < p->nused; i++)
      if (!ptrmap_get(&p->vbinder, p->used[i])) {
        nl(p);
        put(p, "free_var ");
        pr_binder(p, p->used[i]);
        put(p, ";");
      }
  const Expr *it = e;
  for (int i = 0; i < nitems; i++, it = it->let.body) {
    pr_bindings(p, blk, i);
    p->cur_blk = blk, p->cur_item = i;
    nl(p);
    put(p, "let ");
    pr_binder(p, it->let.var);
    put(p, " = ");
    pr_expr(p, it->let.value);
    put(p, ";");
  }
  pr_bindings(p, blk, nitems);
  p->cur_blk = blk, p->cur_item = nitems;
  nl(p);
  pr_expr(p, tail);
  if (style != BLK_BARE) {
    p->indent--;
    nl(p);
    put(p, "}");
  }
  p->cur_blk = sblk, p->cur_item = sitem;
}

/* Prints a reference to a graph binding, or the node itself. */
static void pr_expr(Printer *p, const Expr *e) {
  Bound *b = bound_of(p, e);
  if (!b) {
    pr_node(p, e);
    return;
  }
  if (p->dry) {
    record_use(p, b);
    return;
  }
  int64_t *num = ptrmap_get(&p->gnum, e);
  if (!num)
    abort(); /* placement guarantees the binding comes first */
  putf(p, "%%%lld", (long long)*num - 1);
}

/* Prints expressions separated by ", ". */
static void pr_args(Printer *p, int n, Expr *const *args) {
  for (int i = 0; i < n; i++) {
    if (i)
      put(p, ", ");
    pr_expr(p, args[i]);
  }
}

/* Is e printed as a bare nullary constructor (`Nil`)? */
static bool is_bare_ctor(const Printer *p, const Expr *e) {
  return !bound_of(p, e) && e->kind == EX_CALL && e->call.kind == CALL_CTOR && e->call.nargs == 0;
}

/* Prints the signature of a function: [tvars](params, attrs) -> ret. */
static void pr_sig(Printer *p, const Expr *f, bool is_inline) {
  pr_tvars(p, f->func.ntvars, f->func.tvars);
  put(p, "(");
  for (int i = 0; i < f->func.nparams; i++) {
    if (i)
      put(p, ", ");
    pr_binder(p, f->func.params[i]);
  }
  const char *sep = f->func.nparams ? ", " : "";
  if (f->func.primitive)
    putf(p, "%sPrimitive=1", sep), sep = ", ";
  if (is_inline)
    putf(p, "%sInline=1", sep), sep = ", ";
  for (int i = 0; f->func.attrs && i < f->func.attrs->n; i++) {
    put(p, sep), sep = ", ";
    pr_attr(p, &f->func.attrs->items[i]);
  }
  put(p, ")");
  if (f->func.ret) {
    put(p, " -> ");
    pr_type(p, f->func.ret);
  }
  put(p, " ");
}

/* Prints a pattern, naming the variables it binds. */
static void pr_pattern(Printer *p, const Pattern *pat) {
  switch (pat->kind) {
  case PAT_WILD: put(p, "_"); return;
  case PAT_VAR: pr_binder(p, pat->var); return;
  case PAT_CTOR:
    put(p, pat->ctor->name);
    if (pat->n == 0 && pat->ctor->nfields == 0)
      return;
    break;
  case PAT_TUPLE: break;
  }
  put(p, "(");
  for (int i = 0; i < pat->n; i++) {
    if (i)
      put(p, ", ");
    pr_pattern(p, pat->sub[i]);
  }
  put(p, pat->kind == PAT_TUPLE && pat->n == 1 ? ",)" : ")");
}

/* Prints match (e) { pattern => body, ... }; each clause body is a block. */
static void pr_match(Printer *p, const Expr *e) {
  put(p, e->match.complete ? "match (" : "match? (");
  pr_expr(p, e->match.scrut);
  put(p, ") {");
  p->indent++;
  for (int i = 0; i < e->match.n; i++) {
    nl(p);
    pr_pattern(p, e->match.clauses[i].pat);
    put(p, " => ");
    pr_block(p, e, i, e->match.n, e->match.clauses[i].body, BLK_OPTIONAL);
    put(p, ",");
  }
  p->indent--;
  if (e->match.n)
    nl(p);
  put(p, "}");
}

#ifdef RS_TEST_PASSES
bool ir_test_print_drop_attr;
#endif

/* Prints an operator, constructor or closure call. */
static void pr_call(Printer *p, const Expr *e) {
  switch (e->call.kind) {
  case CALL_OP:
    put(p, ir_op_name(e->call.op));
    put(p, "(");
    pr_args(p, e->call.nargs, e->call.args);
    int nattrs = e->call.attrs.n;
#ifdef RS_TEST_PASSES
    if (ir_test_print_drop_attr && nattrs > 0)
      nattrs--; /* the deliberate printer bug the round-trip oracle must catch */
#endif
    for (int i = 0; i < nattrs; i++) {
      if (i || e->call.nargs)
        put(p, ", ");
      pr_attr(p, &e->call.attrs.items[i]);
    }
    put(p, ")");
    return;
  case CALL_CTOR:
    put(p, e->call.ctor->name);
    if (e->call.nargs == 0 && e->call.ctor->nfields == 0)
      return;
    break;
  case CALL_EXPR:
    pr_expr(p, e->call.callee);
    if (is_bare_ctor(p, e->call.callee))
      put(p, "()"); /* Nil()(x): not Nil(x) */
    break;
  }
  put(p, "(");
  pr_args(p, e->call.nargs, e->call.args);
  put(p, ")");
}

/* Prints the node itself (never as a graph reference). */
static void pr_node(Printer *p, const Expr *e) {
  switch (e->kind) {
  case EX_VAR:
    if (p->dry)
      note_use(p, e->var);
    else
      putf(p, "%%%s", var_name(p, e->var));
    break;
  case EX_GLOBAL: putf(p, "@%s", e->global->name); break;
  case EX_CONST: pr_const(p, e->constant); break;
  case EX_TUPLE:
    put(p, "(");
    pr_args(p, e->tuple.n, e->tuple.fields);
    put(p, e->tuple.n == 1 ? ",)" : ")");
    break;
  case EX_PROJ: {
    /* `1.0` would read as a float and `Nil.0` as a field of Nil. */
    const Expr *t = e->proj.tuple;
    bool paren = t->kind == EX_CONST && !bound_of(p, t);
    put(p, paren ? "(" : "");
    pr_expr(p, t);
    put(p, paren ? ")" : is_bare_ctor(p, t) ? "()" : "");
    putf(p, ".%d", e->proj.index);
    break;
  } break;
  case EX_LET: pr_block(p, e, 0, 1, e, BLK_BRACES); break;
  case EX_IF:
    put(p, "if (");
    pr_expr(p, e->if_.cond);
    put(p, ") ");
    pr_block(p, e, 0, 2, e->if_.then, BLK_BRACES);
    put(p, " else ");
    pr_block(p, e, 1, 2, e->if_.els, BLK_BRACES);
    break;
  case EX_CALL: pr_call(p, e); break;
  case EX_FUNC:
    put(p, "fn ");
    pr_sig(p, e, false);
    pr_block(p, e, 0, 1, e->func.body, BLK_BRACES);
    break;
  case EX_REF_NEW:
    put(p, "ref(");
    pr_expr(p, e->ref_new.value);
    put(p, ")");
    break;
  case EX_REF_READ:
    put(p, "ref_read(");
    pr_expr(p, e->ref_read.ref);
    put(p, ")");
    break;
  case EX_REF_WRITE:
    put(p, "ref_write(");
    pr_expr(p, e->ref_write.ref);
    put(p, ", ");
    pr_expr(p, e->ref_write.value);
    put(p, ")");
    break;
  case EX_MATCH: pr_match(p, e); break;
  }
}

/* ------------------------------------------------------------ roots */

/* Orders bound nodes by slot, and within a slot children first. */
static int cmp_slot(const void *a, const void *b) {
  const Bound *x = a, *y = b;
  if (x->blk != y->blk)
    return x->blk < y->blk ? -1 : 1;
  if (x->item != y->item)
    return x->item < y->item ? -1 : 1;
  return x->post - y->post;
}

/* Forgets everything about the previous root (tables and arrays stay
 * allocated in p->tmp for the next one). */
static void reset_root(Printer *p) {
  PtrMap *maps[] = {&p->indeg, &p->post,  &p->bidx,    &p->bbase,
                    &p->gnum,  &p->vname, &p->vbinder, &p->vused};
  for (size_t i = 0; i < sizeof maps / sizeof *maps; i++)
    ptrmap_clear(maps[i]);
  ns_clear(&p->vtaken);
  ns_clear(&p->ttaken);
  p->bound = NULL, p->sorted = NULL, p->cursor = NULL;
  p->nbound = p->npost = p->nblocks = p->nused = p->nfree = p->nmulti = 0;
  p->next_gnum = 0;
  p->cur_blk = -1, p->cur_item = 0;
}

/* Prints one root: walk(p, ctx) prints it, called twice (dry, then real). */
static void print_root(Printer *p, const Expr *root, void (*walk)(Printer *, const void *),
                       const void *ctx) {
  reset_root(p);
  count_edges(p, root);
  collect_bound(p);
  /* Dry walk: number the blocks and fold the uses of bound nodes. */
  p->dry = true;
  walk(p, ctx);
  for (int i = 0; i < p->nbound; i++) { /* parents first */
    Bound *b = &p->bound[i];
    if (!b->placed)
      abort(); /* every bound node has a printed parent */
    p->cur_blk = b->blk, p->cur_item = b->item;
    pr_node(p, b->e);
  }
  p->cur_blk = -1, p->cur_item = 0;
  p->dry = false;
  /* Slots in printing order; free variables keep their names. */
  p->sorted = ARENA_ARRAY(p->tmp, Bound, p->nbound ? p->nbound : 1);
  p->cursor = ARENA_ARRAY(p->tmp, int, p->nblocks ? p->nblocks : 1);
  if (p->nbound) {
    memcpy(p->sorted, p->bound, sizeof(Bound) * (size_t)p->nbound);
    qsort(p->sorted, (size_t)p->nbound, sizeof(Bound), cmp_slot);
  }
  for (int i = p->nblocks - 1; i >= 0; i--)
    p->cursor[i] = p->nbound;
  for (int i = p->nbound - 1; i >= 0; i--)
    p->cursor[p->sorted[i].blk] = i;
  for (int i = 0; i < p->nused; i++)
    if (!ptrmap_get(&p->vbinder, p->used[i])) {
      var_name(p, p->used[i]);
      p->nfree++;
    }
  walk(p, ctx);
  if (p->next_gnum != p->nbound)
    abort();
}

/* Walks one global function: def @name(...) { body }. */
static void walk_def(Printer *p, const void *ctx) {
  const GlobalFn *g = ctx;
  putf(p, "def @%s", g->name);
  pr_sig(p, g->func, g->is_inline);
  pr_block(p, g->func, 0, 1, g->func->func.body, BLK_BRACES);
}

/* Walks a bare expression as a block without braces. */
static void walk_expr(Printer *p, const void *ctx) {
  pr_block(p, &p->root_key, 0, 1, ctx, BLK_BARE);
}

/* Prints type Name[tvars] { Ctor(fields), ... }. */
static void pr_typedef(Printer *p, const TypeDef *td) {
  reset_root(p);
  putf(p, "type %s", td->name);
  pr_tvars(p, td->ntvars, td->tvars);
  put(p, " {");
  p->indent++;
  for (int i = 0; i < td->nctors; i++) {
    const Ctor *c = td->ctors[i];
    nl(p);
    put(p, c->name);
    if (c->nfields) {
      put(p, "(");
      pr_types(p, c->nfields, c->fields);
      put(p, ")");
    }
    put(p, ",");
  }
  p->indent--;
  if (td->nctors)
    nl(p);
  put(p, "}");
}

/* A printer for module m (or NULL): its tables live in p->tmp. */
static void printer_init(Printer *p, const Module *m) {
  memset(p, 0, sizeof *p);
  p->m = m;
  p->tmp = arena_new();
  p->out.a = p->tmp;
  p->cur_blk = -1;
  PtrMap *maps[] = {&p->indeg, &p->post,  &p->bidx,    &p->bbase,
                    &p->gnum,  &p->vname, &p->vbinder, &p->vused};
  for (size_t i = 0; i < sizeof maps / sizeof *maps; i++)
    maps[i]->arena = p->tmp;
  p->vtaken.arena = p->ttaken.arena = p->tmp;
}

/* Frees the printer's state; returns the text (never NULL). */
static char *finish(Printer *p) {
  char *text = malloc(p->out.len + 1);
  if (!text)
    abort();
  if (p->out.len)
    memcpy(text, p->out.s, p->out.len);
  text[p->out.len] = 0;
  arena_free(p->tmp);
  return text;
}

/* Header, type definitions (not the prelude's), then definitions; the
 * variables' names into names when it is not NULL. */
static char *print_module(const Module *m, const char **names, Arena *names_arena) {
  Printer p;
  printer_init(&p, m);
  p.names = names, p.names_arena = names_arena;
  put(&p, "#[version = \"0.0.5\"]\n");
  for (int i = 0; i < m->ntypes; i++)
    if (!m->types[i]->builtin) {
      pr_typedef(&p, m->types[i]);
      put(&p, "\n\n");
    }
  for (int i = 0; i < m->nfuncs; i++) {
    const GlobalFn *g = m->funcs[i];
    if (!g->func || g->func->kind != EX_FUNC)
      continue; /* only referenced; nothing to print */
    print_root(&p, g->func, walk_def, g);
    put(&p, "\n\n");
  }
  if (p.out.len >= 2 && p.out.s[p.out.len - 2] == '\n')
    p.out.s[--p.out.len] = 0; /* one newline at the end */
  return finish(&p);
}

char *ir_print_module(const Module *m) {
  return print_module(m, NULL, NULL);
}

char *ir_print_module_names(const Module *m, Arena *a, const char ***names) {
  *names = ARENA_ARRAY(a, const char *, m->next_var_id ? m->next_var_id : 1);
  return print_module(m, *names, a);
}

/* Statements one per line, free variables declared first. */
char *ir_print_expr(const Expr *e) {
  Printer p;
  printer_init(&p, NULL);
  print_root(&p, e, walk_expr, e);
  return finish(&p);
}

/* Type variables print by their name hints. */
char *ir_print_type(const Type *t) {
  Printer p;
  printer_init(&p, NULL);
  pr_type(&p, t);
  return finish(&p);
}
