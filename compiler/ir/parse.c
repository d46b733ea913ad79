/*
 * parse.c - the parser: Relay text format 0.0.5, with the extensions in
 * docs/text-format.md, into a Module.
 *
 * The lexer (lex.c) turns the whole input into a token array first, so the
 * parser has arbitrary lookahead and a cheap way to skip.  Parsing is
 * recursive descent, one function per grammar rule with the rule above
 * it; every recursive production passes enter(), which bounds the nesting
 * depth, and let chains and graph bindings are parsed in loops, so the C
 * stack stays bounded whatever the input.  After each definition the IR
 * depth (which let chains and graph bindings can grow without nesting) is
 * checked against IR_MAX_DEPTH and IR_MAX_NESTING (ir_expr_depth), so later
 * recursive walks are safe and the module prints as text this parser reads.
 *
 * Errors go into the Diag as `file:line:col: error: message` with the
 * source line and a caret; a lexical error is reported when the parser
 * reaches its TK_ERR token.  An error abandons the current top-level item
 * (a longjmp back to the item loop; everything allocated lives in arenas)
 * and parsing resumes at the next `def` or `type` keyword, so one file can
 * report several errors.  Unknown globals are reported after the whole
 * file, since a definition may follow its uses.
 *
 * Names: %x are variables (lexically scoped, shadowing allowed), %0 are
 * graph bindings (a name for one shared node, scoped to the enclosing
 * block), @f are globals, and bare identifiers are operators (nn.conv2d),
 * constructors, types, dtypes and type variables.  Type definitions are
 * declared by a pre-scan so types may be used before their definition;
 * constructors become usable where their type definition is parsed, as in
 * TVM.
 *
 * Grammar rules are written with the terminals as they appear in the
 * text: `x?` is optional, `x*` repeats, and `x, ..` is a comma-separated
 * list, possibly empty, with an optional trailing comma.
 */
#include <math.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "parse_int.h"
#include "ptrmap.h"

enum {
  PARSE_MAX_DEPTH = IR_MAX_NESTING, /* nesting of expressions, types, patterns */
  PARSE_MAX_ERRORS = 20,
};

/* -------------------------------------------------------------- parser */

typedef struct Binding {
  const char *name;
  int len;
  void *val; /* Var * or Type * (a TY_VAR) */
} Binding;

/* A graph binding %num = e.  One whose value has effects or binders
 * (not shareable) is not shared: its uses are references to var, the
 * first of which is first; at the end of its block a value used once
 * replaces that use, and one used more often is bound by a let of var
 * where the graph binding stands (TVM evaluates a shared node once). */
typedef struct GraphBinding {
  int64_t num;
  Expr *e;
  Var *var; /* NULL when e is shareable */
  Expr *first;
  int uses;
} GraphBinding;

typedef struct GlobalRef {
  GlobalFn *g;
  const Tok *at;
} GlobalRef;

typedef struct TypeDecl {
  int tok; /* index of its `type` token */
  TypeDef *td;
} TypeDecl;

typedef struct Parser {
  Module *m;
  Diag *d;
  Arena *tmp; /* tokens, scopes, attribute drafts: freed after parsing */
  Tok *toks;
  int ntok, pos;
  jmp_buf *bail;
  int depth, nerrors;
  bool stop; /* too many errors */
  Binding *vars, *tvars;
  int nvars, capvars, ntvars, captvars;
  GraphBinding *graph;
  int ngraph, capgraph;
  PtrMap gindex; /* graph binding number + 1 -> 1 + its last index in graph
                    (stale once popped: graph_find checks) */
  PtrMap pure;   /* shareable graph-bound values and the Vars standing for
                    the others: whether a value is shareable (is_shareable) */
  Var **freev;   /* free_var declarations of the current definition */
  int nfree, capfree;
  TypeDecl *decls;
  int ndecls, capdecls;
  GlobalFn **defs; /* in definition order */
  int ndefs, capdefs;
  PtrMap attempted; /* globals whose definition was parsed, even if badly */
  GlobalRef *grefs;
  int ngrefs, capgrefs;
  int next_incomplete;
  bool expr_file; /* the file holds one expression (is_expr_file) */
} Parser;

/* Grows an array in the scratch arena so that index n is valid. */
static void *grow(Arena *a, void *old, int n, int *cap, size_t elem) {
  if (n < *cap)
    return old;
  int nc = *cap ? 2 * *cap : 16;
  void *p = arena_alloc(a, elem * (size_t)nc);
  if (n)
    memcpy(p, old, elem * (size_t)n);
  *cap = nc;
  return p;
}

#define PUSH(p, arr, n, cap, v)                                                                    \
  do {                                                                                             \
    (arr) = grow((p)->tmp, (arr), (n), &(cap), sizeof *(arr));                                     \
    (arr)[(n)++] = (v);                                                                            \
  } while (0)

/* `text` of a token for messages (at most 24 bytes, unprintables as ?). */
static const char *describe(Parser *p, const Tok *t) {
  return ir_tok_describe(p->tmp, t);
}

/* Records an error at t; past PARSE_MAX_ERRORS it records "too many
 * errors" once and stops the parse. */
static void verror_at(Parser *p, const Tok *t, const char *fmt, va_list ap) {
  if (p->stop)
    return;
  if (++p->nerrors > PARSE_MAX_ERRORS) {
    diag_error(p->d, t->line, t->col, "too many errors; giving up");
    p->stop = true;
    return;
  }
  diag_verror(p->d, t->line, t->col, fmt, ap);
}

static void error_at(Parser *p, const Tok *t, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* Records an error at t and carries on. */
static void error_at(Parser *p, const Tok *t, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  verror_at(p, t, fmt, ap);
  va_end(ap);
}

/* Records an error at t and abandons the current top-level item. */
static _Noreturn void fail(Parser *p, const Tok *t, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

static _Noreturn void fail(Parser *p, const Tok *t, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  verror_at(p, t, fmt, ap);
  va_end(ap);
  longjmp(*p->bail, 1);
}

/* The current token; a lexical error is reported when reached. */
static const Tok *peek(Parser *p) {
  const Tok *t = &p->toks[p->pos];
  if (t->k == TK_ERR)
    fail(p, t, "%s", t->str);
  return t;
}

/* The token k places ahead (no error check; EOF past the end). */
static const Tok *ahead(const Parser *p, int k) {
  int i = p->pos + k;
  return &p->toks[i < p->ntok ? i : p->ntok - 1];
}

/* Consumes and returns the current token (EOF stays put). */
static const Tok *next(Parser *p) {
  const Tok *t = peek(p);
  if (t->k != TK_EOF)
    p->pos++;
  return t;
}

/* Consumes the current token when it is of kind k. */
static bool accept(Parser *p, TokKind k) {
  if (peek(p)->k != k)
    return false;
  p->pos++;
  return true;
}

/* Consumes a token of kind k or fails with "expected what". */
static const Tok *expect(Parser *p, TokKind k, const char *what) {
  const Tok *t = peek(p);
  if (t->k != k)
    fail(p, t, "expected %s, found %s", what, describe(p, t));
  p->pos++;
  return t;
}

/* Enters a recursive production at t, bounding the nesting depth. */
static void enter(Parser *p, const Tok *t) {
  if (++p->depth > PARSE_MAX_DEPTH)
    fail(p, t, "nesting is deeper than %d levels", PARSE_MAX_DEPTH);
}

/* Leaves a recursive production. */
static void leave(Parser *p) {
  p->depth--;
}

/* The token's text as a NUL-terminated string in the module arena;
 * skip drops a sigil (% or @). */
static char *tok_name(Parser *p, const Tok *t, int skip) {
  return arena_strndup(p->m->arena, t->s + skip, (size_t)(t->len - skip));
}

/* Gives e the position of t. */
static Expr *at(Expr *e, const Tok *t) {
  e->line = t->line, e->col = t->col;
  return e;
}

/* ------------------------------------------------------------- scopes */

/* The innermost binding of name among b[from..n). */
static Binding *lookup(Binding *b, int from, int n, const char *name, int len) {
  for (int i = n - 1; i >= from; i--)
    if (b[i].len == len && memcmp(b[i].name, name, (size_t)len) == 0)
      return &b[i];
  return NULL;
}

/* Brings a variable into scope (innermost last). */
static void bind_var(Parser *p, Var *v) {
  Binding b = {v->name, (int)strlen(v->name), v};
  PUSH(p, p->vars, p->nvars, p->capvars, b);
}

/* Brings a type variable into scope. */
static void bind_tvar(Parser *p, Type *tv) {
  Binding b = {tv->var.name, (int)strlen(tv->var.name), tv};
  PUSH(p, p->tvars, p->ntvars, p->captvars, b);
}

/* ------------------------------------------------------------ numbers */

/* Decimal digits to a uint64; false on overflow. */
static bool to_u64(const char *s, int n, uint64_t *out) {
  uint64_t v = 0;
  for (int i = 0; i < n; i++) {
    if (v > (UINT64_MAX - (uint64_t)(s[i] - '0')) / 10)
      return false;
    v = v * 10 + (uint64_t)(s[i] - '0');
  }
  *out = v;
  return true;
}

/* The integer value of a suffix-free number token within [0, max]. */
static int64_t plain_int(Parser *p, const Tok *t, int64_t max, const char *what) {
  uint64_t v;
  if (t->k != TK_NUM || t->is_float || t->is_hex || t->numlen != t->len)
    fail(p, t, "expected %s, found %s", what, describe(p, t));
  if (!to_u64(t->s, t->len, &v) || v > (uint64_t)max)
    fail(p, t, "%s %s is too large (at most %lld)", what, describe(p, t), (long long)max);
  return (int64_t)v;
}

/* The number of bits of an integer dtype. */
static int int_bits(DType dt) {
  return ir_dtype_size(dt) * 8;
}

/* An integer of the given dtype's range from a token's digits, as its
 * two's complement bits (a uint64 above INT64_MAX reads negative). */
static int64_t int_value(Parser *p, const Tok *t, bool neg, DType dt) {
  int bits = int_bits(dt);
  bool uns = ir_dtype_is_unsigned(dt);
  uint64_t v, max = uns ? (bits == 64 ? UINT64_MAX : (1ull << bits) - 1) : (1ull << (bits - 1)) - 1;
  if (!to_u64(t->s, t->numlen, &v) || v > max + (neg && !uns) || (neg && uns && v))
    fail(p, t, "integer literal %s%s is out of range for %s", neg ? "-" : "", describe(p, t),
         ir_dtype_name(dt));
  uint64_t u = neg ? 0 - v : v;
  int64_t r;
  memcpy(&r, &u, 8);
  return r;
}

/* The fraction bits of a float dtype's format. */
static int mant_bits(DType dt) {
  switch (dt) {
  case DT_FLOAT16: return 10;
  case DT_BFLOAT16: return 7;
  case DT_FLOAT32: return 23;
  default: return 52;
  }
}

/* A float of dtype dt from a token's numeric part (float32 read directly,
 * float16 and bfloat16 as the nearest double rounded once); a value that
 * rounds to infinity is an error. */
static double float_value(Parser *p, const Tok *t, bool neg, DType dt) {
  char *s = arena_strndup(p->tmp, t->s, (size_t)t->numlen);
  double v = dt == DT_FLOAT32 ? (double)strtof(s, NULL) : strtod(s, NULL);
  v = ir_round_float(dt, v);
  if (isinf(v))
    fail(p, t, "float literal %s is out of range for %s", describe(p, t), ir_dtype_name(dt));
  return neg ? -v : v;
}

/* nan, nan(0xPAYLOAD) or inf after its identifier token t, stored with
 * sign neg into *dst as a value of float dtype dt.  NaNs are built from
 * bits: a float-double conversion would quiet a signalling NaN. */
static void special_float(Parser *p, const Tok *t, bool neg, DType dt, void *dst) {
  uint64_t payload = 0;
  bool inf = tok_is(t, "inf");
  int mant = mant_bits(dt), size = ir_dtype_size(dt);
  if (!inf && accept(p, TK_LPAREN)) {
    const Tok *h = next(p);
    if (h->k != TK_NUM || !h->is_hex || h->numlen != h->len)
      fail(p, h, "expected a hexadecimal NaN payload, found %s", describe(p, h));
    payload = 0;
    for (int i = 2; i < h->len; i++) {
      int c = h->s[i];
      if (payload >> 56)
        fail(p, h, "NaN payload %s is too large", describe(p, h));
      payload = payload * 16 + (uint64_t)(c <= '9' ? c - '0' : (c | 0x20) - 'a' + 10);
    }
    if (payload == 0 || payload >= 1ull << mant)
      fail(p, h, "NaN payload %s must be nonzero and fit in %d bits", describe(p, h), mant);
    expect(p, TK_RPAREN, "`)`");
  }
  int ebits = size * 8 - 1 - mant;
  uint64_t bits = (neg ? 1ull << (size * 8 - 1) : 0) | (((1ull << ebits) - 1) << mant) |
                  (inf       ? 0
                   : payload ? payload
                             : 1ull << (mant - 1));
  if (size == 2) {
    uint16_t h = (uint16_t)bits;
    memcpy(dst, &h, 2);
  } else if (size == 4) {
    uint32_t w = (uint32_t)bits;
    memcpy(dst, &w, 4);
  } else {
    memcpy(dst, &bits, 8);
  }
}

/* elem := True | False                        (bool tensors)
 *       | -? (number | nan | nan(0xPAYLOAD) | inf)  (float tensors)
 *       | -? integer                               (integer tensors)
 * Stores element i of a tensor literal. */
static void parse_elem(Parser *p, Tensor *t, int64_t i) {
  bool neg = accept(p, TK_MINUS);
  const Tok *tok = next(p);
  if (t->dtype == DT_BOOL) {
    if (neg || (tok->k != TK_TRUE && tok->k != TK_FALSE))
      fail(p, tok, "expected `True` or `False` in a bool tensor, found %s", describe(p, tok));
    ((uint8_t *)t->data)[i] = tok->k == TK_TRUE;
    return;
  }
  if (ir_dtype_is_float(t->dtype)) {
    char *dst = (char *)t->data + ir_dtype_size(t->dtype) * i;
    if (tok->k == TK_IDENT && (tok_is(tok, "nan") || tok_is(tok, "inf"))) {
      special_float(p, tok, neg, t->dtype, dst);
    } else if (tok->k == TK_NUM && !tok->is_hex && tok->numlen == tok->len) {
      ir_tensor_set_f64(t, i, float_value(p, tok, neg, t->dtype)); /* exact */
    } else {
      fail(p, tok, "expected a number, `nan` or `inf` in a %s tensor, found %s",
           ir_dtype_name(t->dtype), describe(p, tok));
    }
    return;
  }
  if (tok->k != TK_NUM || tok->is_float || tok->is_hex || tok->numlen != tok->len)
    fail(p, tok, "expected an integer in a %s tensor, found %s", ir_dtype_name(t->dtype),
         describe(p, tok));
  ir_tensor_set_i64(t, i, int_value(p, tok, neg, t->dtype));
}

/* The dtype a literal suffix names ("" when there is none). */
static DType suffix_dtype(Parser *p, const Tok *t) {
  const char *suf = t->s + t->numlen;
  int n = t->len - t->numlen;
  if (t->is_hex)
    fail(p, t, "hexadecimal literals are only allowed as NaN payloads");
  if (n == 0)
    return t->is_float ? DT_FLOAT32 : DT_INT32;
  static const struct {
    const char *s;
    DType dt;
  } sufs[] = {{"f", DT_FLOAT32},   {"f32", DT_FLOAT32}, {"f64", DT_FLOAT64},
              {"f16", DT_FLOAT16}, {"i", DT_INT32},     {"i8", DT_INT8},
              {"i16", DT_INT16},   {"i32", DT_INT32},   {"i64", DT_INT64}};
  for (size_t i = 0; i < sizeof sufs / sizeof sufs[0]; i++)
    if ((int)strlen(sufs[i].s) == n && memcmp(sufs[i].s, suf, (size_t)n) == 0) {
      if (t->is_float && ir_dtype_is_int(sufs[i].dt))
        fail(p, t, "integer suffix on the float literal %s", describe(p, t));
      return sufs[i].dt;
    }
  fail(p, t, "unknown literal suffix in %s (use f, f16, f32, f64, i, i8, i16, i32 or i64)",
       describe(p, t));
}

/* A scalar constant from a number token; neg when preceded by `-`. */
static Expr *number_literal(Parser *p, const Tok *t, bool neg, const Tok *pos) {
  DType dt = suffix_dtype(p, t);
  uint64_t v;
  if (!t->is_float && t->numlen == t->len && to_u64(t->s, t->numlen, &v) &&
      v > (uint64_t)INT32_MAX + neg)
    dt = DT_INT64; /* as TVM: an integer without a suffix that int32 cannot hold */
  Tensor *x = ir_tensor_new(p->m->arena, dt, 0, NULL);
  if (ir_dtype_is_float(dt))
    ir_tensor_set_f64(x, 0, float_value(p, t, neg, dt)); /* exact */
  else
    ir_tensor_set_i64(x, 0, int_value(p, t, neg, dt));
  return at(ir_const(p->m, x), pos);
}

/* -------------------------------------------------------------- types */

static Type *parse_type(Parser *p);

static const char *const reserved_types[] = {"Tensor", "Ref", "fn", "nan", "inf", "None", NULL};

/* Is t's text a dtype or a reserved type word? */
static bool reserved_type_name(const Tok *t) {
  DType dt;
  if (ir_dtype_parse_text(t->s, (size_t)t->len, &dt))
    return true;
  for (int i = 0; reserved_types[i]; i++)
    if (tok_is(t, reserved_types[i]))
      return true;
  return false;
}

/* A name for a new type, type variable or constructor: no dots, not
 * reserved.  what names the thing for the message. */
static void check_new_name(Parser *p, const Tok *t, const char *what) {
  if (memchr(t->s, '.', (size_t)t->len))
    fail(p, t, "%s name %s must not contain `.`", what, describe(p, t));
  if (reserved_type_name(t))
    fail(p, t, "%s is reserved and cannot name a %s", describe(p, t), what);
}

/* A TypeDef by the token's name, or NULL. */
static TypeDef *find_typedef(Parser *p, const Tok *t) {
  for (int i = 0; i < p->m->ntypes; i++) {
    const char *n = p->m->types[i]->name;
    if (strlen(n) == (size_t)t->len && memcmp(n, t->s, (size_t)t->len) == 0)
      return p->m->types[i];
  }
  return NULL;
}

/* tvars := [ Name, .. ] with at least one Name, after the `[`.  Binds fresh
 * type variables and returns them in *out. */
static int parse_tvar_binders(Parser *p, Type ***out) {
  Type **tv = NULL;
  int n = 0, cap = 0, mark = p->ntvars;
  do {
    const Tok *t = expect(p, TK_IDENT, "a type parameter name");
    check_new_name(p, t, "type parameter");
    if (find_typedef(p, t))
      fail(p, t, "type parameter %s has the name of a type", describe(p, t));
    if (lookup(p->tvars, mark, p->ntvars, t->s, t->len))
      fail(p, t, "type parameter %s is declared twice", describe(p, t));
    Type *v = ir_type_var(p->m->arena, tok_name(p, t, 0));
    PUSH(p, tv, n, cap, v);
    bind_tvar(p, v);
  } while (accept(p, TK_COMMA) && peek(p)->k != TK_RBRACK);
  expect(p, TK_RBRACK, "`,` or `]` in the type parameters");
  *out = tv;
  return n;
}

/* types := type, .. close, after the opener; returns the count. */
static int parse_type_list(Parser *p, TokKind close, const char *closer, Type ***out) {
  Type **ts = NULL;
  int n = 0, cap = 0;
  while (!accept(p, close)) {
    Type *t = parse_type(p);
    PUSH(p, ts, n, cap, t);
    if (!accept(p, TK_COMMA)) {
      expect(p, close, closer);
      break;
    }
  }
  *out = ts;
  return n;
}

/* tensor_type := Tensor [ ( dim, .. ) , dtype ], after `Tensor`.  A dim
 * may carry TVM's suffix i32 or i64, or be `?` (Any), as TVM's parser
 * takes it. */
static Type *parse_tensor_type(Parser *p) {
  int64_t shape[IR_MAX_RANK];
  int rank = 0;
  expect(p, TK_LBRACK, "`[` after `Tensor`");
  expect(p, TK_LPAREN, "`(` to start the shape");
  uint64_t prod = 1;
  while (!accept(p, TK_RPAREN)) {
    const Tok *t = next(p);
    if (t->k == TK_QUESTION) {
      if (rank == IR_MAX_RANK)
        fail(p, t, "tensor rank exceeds the maximum of %d", IR_MAX_RANK);
      shape[rank++] = IR_DIM_ANY;
      if (!accept(p, TK_COMMA)) {
        expect(p, TK_RPAREN, "`,` or `)` in the shape");
        break;
      }
      continue;
    }
    Tok plain = *t; /* TVM writes 64-bit dimensions as 2i64 */
    int sn = t->len - t->numlen;
    if (t->k == TK_NUM && sn == 3 &&
        (memcmp(t->s + t->numlen, "i64", 3) == 0 || memcmp(t->s + t->numlen, "i32", 3) == 0))
      plain.len = plain.numlen;
    if (rank == IR_MAX_RANK)
      fail(p, t, "tensor rank exceeds the maximum of %d", IR_MAX_RANK);
    shape[rank++] = plain_int(p, &plain, INT32_MAX, "a dimension");
    if (shape[rank - 1] && __builtin_mul_overflow(prod, (uint64_t)shape[rank - 1], &prod))
      fail(p, t, "tensor shape has too many elements");
    if (prod > (uint64_t)INT64_MAX / 2)
      fail(p, t, "tensor shape has too many elements");
    if (!accept(p, TK_COMMA)) {
      expect(p, TK_RPAREN, "`,` or `)` in the shape");
      break;
    }
  }
  expect(p, TK_COMMA, "`,` after the shape");
  const Tok *d = expect(p, TK_IDENT, "a dtype");
  DType dt;
  if (!ir_dtype_parse_text(d->s, (size_t)d->len, &dt))
    fail(p, d, "unknown dtype %s (use bool, int8, int32, int64, float32 or float64)",
         describe(p, d));
  expect(p, TK_RBRACK, "`]` after the dtype");
  return ir_tensor_type(p->m->arena, dt, rank, shape);
}

/* named_type := tensor_type | Ref [ type ] | dtype | tvar | Name ([ type, .. ])?
 * after its first token t. */
static Type *parse_named_type(Parser *p, const Tok *t) {
  DType dt;
  if (tok_is(t, "Tensor"))
    return parse_tensor_type(p);
  if (tok_is(t, "Ref")) {
    expect(p, TK_LBRACK, "`[` after `Ref`");
    Type *in = parse_type(p);
    expect(p, TK_RBRACK, "`]` after the type of `Ref`");
    return ir_ref_type(p->m->arena, in);
  }
  if (ir_dtype_parse_text(t->s, (size_t)t->len, &dt))
    return ir_scalar_type(p->m->arena, dt);
  Binding *b = lookup(p->tvars, 0, p->ntvars, t->s, t->len);
  if (b) {
    if (peek(p)->k == TK_LBRACK)
      fail(p, peek(p), "type variable %s takes no type arguments", describe(p, t));
    return b->val;
  }
  TypeDef *td = find_typedef(p, t);
  if (!td)
    fail(p, t, "unknown type %s", describe(p, t));
  Type **args = NULL;
  int n = 0;
  if (accept(p, TK_LBRACK))
    n = parse_type_list(p, TK_RBRACK, "`,` or `]` in the type arguments", &args);
  if (n != td->ntvars)
    fail(p, t, "type %s expects %d type argument%s, found %d", td->name, td->ntvars,
         td->ntvars == 1 ? "" : "s", n);
  return ir_adt_type(p->m->arena, td, n, args);
}

/* type := named_type | ( type, .. ) | fn tvars? ( type, .. ) -> type | _ */
static Type *parse_type(Parser *p) {
  const Tok *t = next(p);
  enter(p, t);
  Type *ty = NULL;
  switch (t->k) {
  case TK_LPAREN: {
    Type **fs;
    int n = parse_type_list(p, TK_RPAREN, "`,` or `)` in the tuple type", &fs);
    ty = ir_tuple_type(p->m->arena, n, fs);
    break;
  }
  case TK_FN: {
    int mark = p->ntvars;
    Type **tv = NULL, **ps;
    int ntv = 0;
    if (accept(p, TK_LBRACK))
      ntv = parse_tvar_binders(p, &tv);
    expect(p, TK_LPAREN, "`(` for the parameter types");
    int n = parse_type_list(p, TK_RPAREN, "`,` or `)` in the parameter types", &ps);
    expect(p, TK_ARROW, "`->` and the result type");
    Type *ret = parse_type(p);
    ty = ir_func_type(p->m->arena, ntv, tv, n, ps, ret);
    p->ntvars = mark;
    break;
  }
  case TK_UNDERSCORE: ty = ir_incomplete_type(p->m->arena, p->next_incomplete++); break;
  case TK_IDENT: ty = parse_named_type(p, t); break;
  default: fail(p, t, "expected a type, found %s", describe(p, t));
  }
  leave(p);
  return ty;
}

/* ------------------------------------------------------- expressions */

static Expr *parse_seq(Parser *p);
static Expr *parse_expr(Parser *p);
static Expr *parse_atom(Parser *p);
static Expr *parse_postfix(Parser *p, Expr *e);

/* An expression list up to `)` (the `(` is consumed), with attributes
 * `name=value` at the end when at is non-NULL (an operator call). */
static int parse_args(Parser *p, Expr ***out, OpId op, Attrs *at);

/* An integer attribute value (optionally negative), no suffix. */
static int64_t attr_int(Parser *p, bool neg, const Tok *t) {
  if (t->k != TK_NUM || t->is_float || t->is_hex || t->numlen != t->len)
    fail(p, t, "expected an integer, found %s", describe(p, t));
  return int_value(p, t, neg, DT_INT64);
}

/* [i, ..] or [[a, b], ..] after the `[`; returns the kind. */
static AttrKind attr_list(Parser *p, Arena *a, Attrs *at, const char *name) {
  int64_t *v = NULL;
  int n = 0, cap = 0;
  bool pairs = peek(p)->k == TK_LBRACK;
  while (!accept(p, TK_RBRACK)) {
    if (pairs) {
      const Tok *lb = expect(p, TK_LBRACK, "`[` to start a pair");
      for (int k = 0; k < 2; k++) {
        if (k)
          expect(p, TK_COMMA, "`,` between the two values of a pair");
        bool neg = accept(p, TK_MINUS);
        int64_t x = attr_int(p, neg, next(p));
        PUSH(p, v, n, cap, x);
      }
      if (!accept(p, TK_RBRACK))
        fail(p, lb, "a pair must hold exactly two integers");
    } else {
      bool neg = accept(p, TK_MINUS);
      int64_t x = attr_int(p, neg, next(p));
      PUSH(p, v, n, cap, x);
    }
    if (!accept(p, TK_COMMA)) {
      expect(p, TK_RBRACK, "`,` or `]` in the list");
      break;
    }
  }
  if (pairs) {
    ir_attr_set_pairs(a, at, name, n / 2, v);
    return AV_PAIRS;
  }
  ir_attr_set_ints(a, at, name, n, v);
  return AV_INTS;
}

/* A float attribute value from a number or nan/inf token. */
static double attr_float(Parser *p, bool neg, const Tok *t) {
  if (t->k == TK_IDENT && (tok_is(t, "nan") || tok_is(t, "inf"))) {
    double v;
    special_float(p, t, neg, DT_FLOAT64, &v);
    return v;
  }
  if (t->k != TK_NUM || t->is_hex)
    fail(p, t, "expected a number, found %s", describe(p, t));
  int sn = t->len - t->numlen;
  const char *suf = t->s + t->numlen;
  if (sn && !(sn == 1 && suf[0] == 'f') && !(sn == 3 && memcmp(suf, "f32", 3) == 0) &&
      !(sn == 3 && memcmp(suf, "f64", 3) == 0))
    fail(p, t, "unexpected suffix on the attribute value %s", describe(p, t));
  return float_value(p, t, neg, DT_FLOAT64);
}

/* An attribute kind for messages. */
static const char *kind_desc(AttrKind k) {
  static const char *names[] = {"None",     "an integer",         "a float",        "a bool",
                                "a string", "a list of integers", "a list of pairs"};
  return names[k];
}

/* name=value for operator op, checked against its schema. */
static void parse_attr(Parser *p, OpId op, Attrs *at) {
  const Tok *nt = next(p);
  expect(p, TK_EQ, "`=`");
  AttrSpec spec;
  if (!ir_op_attr(op, nt->s, (size_t)nt->len, &spec))
    fail(p, nt, "operator %s has no attribute %s (it accepts: %s)", ir_op_name(op), describe(p, nt),
         ir_op_attr_names(op, p->tmp));
  char *name = arena_strndup(p->tmp, nt->s, (size_t)nt->len);
  if (ir_attr_get(at, name))
    fail(p, nt, "attribute %s is given twice", describe(p, nt));
  const Tok *v = peek(p);
  AttrKind got;
  if (v->k == TK_IDENT && tok_is(v, "None")) {
    next(p);
    ir_attr_set_none(p->tmp, at, name);
    got = AV_NONE;
  } else if (v->k == TK_TRUE || v->k == TK_FALSE) {
    next(p);
    ir_attr_set_bool(p->tmp, at, name, v->k == TK_TRUE);
    got = AV_BOOL;
  } else if (v->k == TK_STR) {
    next(p);
    DType dt; /* TVM's dtype aliases ("int") are kept by their canonical name */
    size_t nl = strlen(name);
    bool is_dtype = nl >= 5 && strcmp(name + nl - 5, "dtype") == 0 &&
                    ir_dtype_parse_text(v->str, strlen(v->str), &dt);
    ir_attr_set_str(p->tmp, at, name, is_dtype ? ir_dtype_name(dt) : v->str);
    got = AV_STR;
  } else if (v->k == TK_LBRACK) {
    next(p);
    got = attr_list(p, p->tmp, at, name);
    if (got == AV_INTS && ir_attr_get(at, name)->n == 0 && ir_attr_fits(&spec, AV_PAIRS, false))
      ir_attr_set_pairs(p->tmp, at, name, 0, NULL), got = AV_PAIRS;
  } else {
    bool neg = accept(p, TK_MINUS);
    const Tok *t = next(p);
    bool fl = t->k != TK_NUM || t->is_float || t->len != t->numlen;
    if (fl) { /* an integer stays AV_INT, so builder attributes round-trip */
      ir_attr_set_float(p->tmp, at, name, attr_float(p, neg, t));
      got = AV_FLOAT;
    } else {
      ir_attr_set_int(p->tmp, at, name, attr_int(p, neg, t));
      got = AV_INT;
    }
  }
  if (!ir_attr_fits(&spec, got, false))
    fail(p, v, "attribute %s of %s expects %.*s%s, found %s", name, ir_op_name(op), spec.klen,
         spec.kind, spec.optional ? " or None" : "", kind_desc(got));
}

/* args := (seq | name=value), ... `)`; attributes only for an operator. */
static int parse_args(Parser *p, Expr ***out, OpId op, Attrs *at) {
  Expr **args = NULL;
  int n = 0, cap = 0;
  bool attrs = false;
  while (!accept(p, TK_RPAREN)) {
    const Tok *t = peek(p);
    if (t->k == TK_IDENT && ahead(p, 1)->k == TK_EQ) {
      if (!at)
        fail(p, t, "attributes are only allowed in operator calls");
      parse_attr(p, op, at);
      attrs = true;
    } else {
      if (attrs)
        fail(p, t, "an argument cannot follow the attributes");
      Expr *e = parse_seq(p);
      PUSH(p, args, n, cap, e);
    }
    if (!accept(p, TK_COMMA)) {
      expect(p, TK_RPAREN, "`,` or `)` in the arguments");
      break;
    }
  }
  *out = args;
  return n;
}

/* Binary operators: precedence (higher binds tighter) and the op. */
static int binop(TokKind k, OpId *op) {
  switch (k) {
  case TK_STAR: *op = OP_MULTIPLY; return 4;
  case TK_SLASH: *op = OP_DIVIDE; return 4;
  case TK_PLUS: *op = OP_ADD; return 3;
  case TK_MINUS: *op = OP_SUBTRACT; return 3;
  case TK_LT: *op = OP_LESS; return 2;
  case TK_GT: *op = OP_GREATER; return 2;
  case TK_LE: *op = OP_LESS_EQUAL; return 2;
  case TK_GE: *op = OP_GREATER_EQUAL; return 2;
  case TK_EQEQ: *op = OP_EQUAL; return 1;
  case TK_NE: *op = OP_NOT_EQUAL; return 1;
  default: return 0;
  }
}

/* unary := - unary | postfix; `-` before a number is a negative literal. */
static Expr *parse_unary(Parser *p) {
  const Tok *t = peek(p);
  if (t->k != TK_MINUS)
    return parse_postfix(p, parse_atom(p));
  next(p);
  if (peek(p)->k == TK_NUM)
    return parse_postfix(p, number_literal(p, next(p), true, t));
  enter(p, t);
  Expr *x = parse_unary(p);
  leave(p);
  return at(ir_call_op(p->m, OP_NEGATIVE, 1, &x, NULL), t);
}

/* binop := unary (op unary)*, where op is * or / (tightest), + or -,
 * < > <= or >=, == or != (loosest); by precedence climbing, left
 * associative. */
static Expr *parse_binop(Parser *p, int min_prec) {
  Expr *lhs = parse_unary(p);
  for (;;) {
    OpId op;
    const Tok *t = peek(p);
    int prec = binop(t->k, &op);
    if (!prec || prec < min_prec)
      return lhs;
    next(p);
    Expr *args[2] = {lhs, parse_binop(p, prec + 1)};
    lhs = at(ir_call_op(p->m, op, 2, args, NULL), t);
  }
}

/* expr := binop (no let or graph bindings: those are a seq). */
static Expr *parse_expr(Parser *p) {
  return parse_binop(p, 1);
}

/* postfix := atom (( args | . integer)*, calls and tuple projections. */
static Expr *parse_postfix(Parser *p, Expr *e) {
  for (;;) {
    const Tok *t = peek(p);
    if (t->k == TK_LPAREN) {
      next(p);
      Expr **args;
      int n = parse_args(p, &args, OP_COUNT, NULL);
      e = at(ir_call(p->m, e, n, args), t);
    } else if (t->k == TK_DOT) {
      next(p);
      int idx = (int)plain_int(p, next(p), INT32_MAX, "a tuple index");
      e = at(ir_proj(p->m, e, idx), t);
    } else {
      return e;
    }
  }
}

/* elems := [ elems, .. ] | elem, nested as deep as the rank from dimension
 * dim on, each list exactly as long as its dimension (no trailing comma). */
static void parse_elems(Parser *p, Tensor *t, int dim, int64_t *idx) {
  if (dim == t->rank) {
    parse_elem(p, t, (*idx)++);
    return;
  }
  const Tok *lb = expect(p, TK_LBRACK, "`[` for the next dimension");
  for (int64_t i = 0; i < t->shape[dim]; i++) {
    if (i && peek(p)->k != TK_RBRACK)
      expect(p, TK_COMMA, "`,` between elements");
    if (peek(p)->k == TK_RBRACK)
      fail(p, peek(p), "dimension %d has %lld element%s, expected %lld", dim, (long long)i,
           i == 1 ? "" : "s", (long long)t->shape[dim]);
    parse_elems(p, t, dim + 1, idx);
  }
  if (peek(p)->k != TK_RBRACK)
    fail(p, lb, "dimension %d has more than %lld elements", dim, (long long)t->shape[dim]);
  next(p);
}

/* tensor_literal := tensor_type ( elems ), after `Tensor`. */
static Expr *parse_tensor_literal(Parser *p, const Tok *t) {
  Type *ty = parse_tensor_type(p);
  if (ir_tensor_has_any(ty))
    fail(p, t, "a tensor literal's shape cannot have an Any dim `?`");
  const Tok *lp = expect(p, TK_LPAREN, "`(` and the elements of the tensor");
  int64_t numel = ir_type_numel(ty);
  if (numel > p->ntok - p->pos)
    fail(p, lp, "the tensor literal needs %lld elements; the input is shorter", (long long)numel);
  Tensor *x = ir_tensor_of_type(p->m->arena, ty);
  int64_t idx = 0;
  parse_elems(p, x, 0, &idx);
  expect(p, TK_RPAREN, "`)` after the elements");
  return at(ir_const(p->m, x), t);
}

/* A constructor with fields used as a value (`%f = Cons; %f(1, Nil)`, as
 * TVM allows): its eta expansion fn (%x0, %x1) { Cons(%x0, %x1) }, whose
 * parameter types inference finds from the use (so it is monomorphic: one
 * instantiation per occurrence, as a let-bound function literal is). */
static Expr *ctor_value(Parser *p, Ctor *c, const Tok *t) {
  Var **ps = ARENA_ARRAY(p->tmp, Var *, c->nfields);
  Expr **refs = ARENA_ARRAY(p->tmp, Expr *, c->nfields);
  for (int i = 0; i < c->nfields; i++) {
    ps[i] = ir_var(p->m, arena_printf(p->tmp, "x%d", i), NULL);
    refs[i] = at(ir_var_ref(p->m, ps[i]), t);
  }
  Expr *body = at(ir_call_ctor(p->m, c, c->nfields, refs), t);
  return at(ir_func(p->m, c->nfields, ps, NULL, body), t);
}

/* ident_expr := tensor_literal | Ctor (( seq, .. ))? | op ( args ), after the
 * identifier t; a Ctor with fields and no `(` is a value (ctor_value). */
static Expr *parse_ident_expr(Parser *p, const Tok *t) {
  if (tok_is(t, "Tensor") && peek(p)->k == TK_LBRACK)
    return parse_tensor_literal(p, t);
  Ctor *c = NULL;
  for (int i = 0; !c && i < p->m->ntypes; i++)
    for (int j = 0; j < p->m->types[i]->nctors; j++)
      if (tok_is(t, p->m->types[i]->ctors[j]->name))
        c = p->m->types[i]->ctors[j];
  Expr **args = NULL;
  if (c && c->nfields && peek(p)->k != TK_LPAREN)
    return ctor_value(p, c, t);
  if (c) {
    int n = 0;
    if (accept(p, TK_LPAREN))
      n = parse_args(p, &args, OP_COUNT, NULL);
    if (n != c->nfields) {
      const char *want = "(";
      for (int i = 0; i < c->nfields; i++) {
        char *f = ir_print_type(c->fields[i]);
        want = arena_printf(p->tmp, "%s%s%s", want, i ? ", " : "", f);
        free(f);
      }
      fail(p, t, "constructor %s expects %d argument%s, found %d: expected %s)", c->name,
           c->nfields, c->nfields == 1 ? "" : "s", n, want);
    }
    return at(ir_call_ctor(p->m, c, n, args), t);
  }
  OpId op;
  if (!ir_op_lookup(t->s, (size_t)t->len, &op))
    fail(p, t, "unknown operator or constructor %s", describe(p, t));
  expect(p, TK_LPAREN, "`(` and the arguments of the operator");
  Attrs attrs = {0};
  int n = parse_args(p, &args, op, &attrs);
  return at(ir_call_op(p->m, op, n, args, &attrs), t);
}

/* fn_attr := Name = value, a function attribute other than Primitive and
 * Inline, kept opaque (TVM's Compiler="c", global_symbol="f"): value is
 * None, True, False, a string, a number (an integer may carry TVM's i,
 * i32 or i64 suffix, which is not kept) or a list of integers or pairs;
 * after the `=`, name being t.  Inline on a local function is one. */
static void fn_attr(Parser *p, const Tok *t, Attrs *at) {
  char *name = arena_strndup(p->tmp, t->s, (size_t)t->len);
  if (ir_attr_get(at, name))
    fail(p, t, "function attribute %s is given twice", describe(p, t));
  const Tok *v = next(p);
  if (v->k == TK_IDENT && tok_is(v, "None")) {
    ir_attr_set_none(p->tmp, at, name);
  } else if (v->k == TK_TRUE || v->k == TK_FALSE) {
    ir_attr_set_bool(p->tmp, at, name, v->k == TK_TRUE);
  } else if (v->k == TK_STR) {
    ir_attr_set_str(p->tmp, at, name, v->str);
  } else if (v->k == TK_LBRACK) {
    attr_list(p, p->tmp, at, name);
  } else {
    bool neg = v->k == TK_MINUS;
    if (neg)
      v = next(p);
    const char *suf = v->s + v->numlen;
    int sn = v->len - v->numlen;
    bool int_suffix = sn == 0 || (sn == 1 && suf[0] == 'i') ||
                      (sn == 3 && (memcmp(suf, "i32", 3) == 0 || memcmp(suf, "i64", 3) == 0));
    if (v->k == TK_NUM && !v->is_float && !v->is_hex && int_suffix) {
      Tok plain = *v;
      plain.len = plain.numlen;
      ir_attr_set_int(p->tmp, at, name, attr_int(p, neg, &plain));
    } else if (v->k == TK_NUM || (v->k == TK_IDENT && (tok_is(v, "nan") || tok_is(v, "inf")))) {
      ir_attr_set_float(p->tmp, at, name, attr_float(p, neg, v));
    } else {
      fail(p, v,
           "expected a function attribute value (None, True, False, a string, a number or a "
           "list), found %s",
           describe(p, v));
    }
  }
}

/* fn := tvars? ( param, .. attr, .. ) (-> type)? { seq }
 * param := %x (: type)?        attr := Name = 0 | Name = 1
 * after `fn` or `def @name`.  Attributes follow the parameters: Primitive,
 * and Inline on definitions only. */
static Expr *parse_fn(Parser *p, const Tok *start, bool is_def, bool *is_inline) {
  int vmark = p->nvars, tmark = p->ntvars;
  Type **tv = NULL;
  int ntv = 0;
  if (accept(p, TK_LBRACK))
    ntv = parse_tvar_binders(p, &tv);
  expect(p, TK_LPAREN, "`(` and the parameters");
  Var **params = NULL;
  int n = 0, cap = 0;
  bool primitive = false, seen_prim = false, attrs = false;
  Attrs fattrs = {0};
  *is_inline = false;
  while (!accept(p, TK_RPAREN)) {
    const Tok *t = next(p);
    if (t->k == TK_LOCAL) {
      if (attrs)
        fail(p, t, "a parameter cannot follow the function attributes");
      if (lookup(p->vars, vmark, p->nvars, t->s + 1, t->len - 1))
        fail(p, t, "parameter %s is declared twice", describe(p, t));
      Type *annot = accept(p, TK_COLON) ? parse_type(p) : NULL;
      Var *v = ir_var(p->m, tok_name(p, t, 1), annot);
      PUSH(p, params, n, cap, v);
      bind_var(p, v);
    } else if (t->k == TK_IDENT && peek(p)->k == TK_EQ) {
      next(p);
      bool prim = tok_is(t, "Primitive"), inl = is_def && tok_is(t, "Inline");
      if (prim || inl) {
        if ((prim && seen_prim) || (inl && *is_inline))
          fail(p, t, "function attribute %s is given twice", describe(p, t));
        int64_t v = plain_int(p, next(p), 1, "0 or 1");
        if (prim)
          primitive = v, seen_prim = true;
        else
          *is_inline = v;
      } else {
        fn_attr(p, t, &fattrs);
      }
      attrs = true;
    } else {
      fail(p, t, "expected a parameter `%%name`, found %s", describe(p, t));
    }
    if (!accept(p, TK_COMMA)) {
      expect(p, TK_RPAREN, "`,` or `)` in the parameters");
      break;
    }
  }
  Type *ret = accept(p, TK_ARROW) ? parse_type(p) : NULL;
  expect(p, TK_LBRACE, "`{` and the function body");
  Expr *body = parse_seq(p);
  expect(p, TK_RBRACE, "`}` after the function body");
  Expr *f = at(ir_func(p->m, n, params, ret, body), start);
  f->func.ntvars = ntv;
  if (ntv) {
    f->func.tvars = ARENA_ARRAY(p->m->arena, Type *, ntv);
    memcpy(f->func.tvars, tv, sizeof(Type *) * (size_t)ntv);
  }
  f->func.primitive = primitive;
  if (fattrs.n) {
    Attrs *fa = ARENA_NEW(p->m->arena, Attrs);
    *fa = ir_attrs_copy(p->m->arena, &fattrs);
    f->func.attrs = fa;
  }
  p->nvars = vmark, p->ntvars = tmark;
  return f;
}

/* Patterns bind their variables into scope; mark is where the clause's
 * bindings start (a name may be bound once per pattern). */
static Pattern *parse_pattern(Parser *p, int mark);

/* patterns := pattern, .. ), after the `(`; returns the count. */
static int parse_pattern_list(Parser *p, int mark, Pattern ***out) {
  Pattern **ps = NULL;
  int n = 0, cap = 0;
  while (!accept(p, TK_RPAREN)) {
    Pattern *x = parse_pattern(p, mark);
    PUSH(p, ps, n, cap, x);
    if (!accept(p, TK_COMMA)) {
      expect(p, TK_RPAREN, "`,` or `)` in the pattern");
      break;
    }
  }
  *out = ps;
  return n;
}

/* pattern := _ | %x (: type)? | Ctor (( patterns)? | ( patterns */
static Pattern *parse_pattern(Parser *p, int mark) {
  const Tok *t = next(p);
  enter(p, t);
  Pattern *pat = NULL, **sub = NULL;
  switch (t->k) {
  case TK_UNDERSCORE: pat = ir_pat_wild(p->m); break;
  case TK_LOCAL: {
    if (lookup(p->vars, mark, p->nvars, t->s + 1, t->len - 1))
      fail(p, t, "variable %s is bound twice in one pattern", describe(p, t));
    Type *annot = accept(p, TK_COLON) ? parse_type(p) : NULL;
    Var *v = ir_var(p->m, tok_name(p, t, 1), annot);
    bind_var(p, v);
    pat = ir_pat_var(p->m, v);
    break;
  }
  case TK_IDENT: {
    Ctor *c = NULL;
    for (int i = 0; !c && i < p->m->ntypes; i++)
      for (int j = 0; j < p->m->types[i]->nctors; j++)
        if (tok_is(t, p->m->types[i]->ctors[j]->name))
          c = p->m->types[i]->ctors[j];
    if (!c)
      fail(p, t, "unknown constructor %s in a pattern", describe(p, t));
    int n = accept(p, TK_LPAREN) ? parse_pattern_list(p, mark, &sub) : 0;
    if (n != c->nfields)
      fail(p, t, "constructor %s has %d field%s, the pattern has %d", c->name, c->nfields,
           c->nfields == 1 ? "" : "s", n);
    pat = ir_pat_ctor(p->m, c, n, sub);
    break;
  }
  case TK_LPAREN: {
    int n = parse_pattern_list(p, mark, &sub);
    pat = ir_pat_tuple(p->m, n, sub);
    break;
  }
  default: fail(p, t, "expected a pattern, found %s", describe(p, t));
  }
  leave(p);
  return pat;
}

/* match := (match | match?) postfix { pattern => seq, .. }, after the
 * keyword t. */
static Expr *parse_match(Parser *p, const Tok *t) {
  Expr *scrut = parse_postfix(p, parse_atom(p));
  expect(p, TK_LBRACE, "`{` and the match clauses");
  Clause *cs = NULL;
  int n = 0, cap = 0;
  while (!accept(p, TK_RBRACE)) {
    int mark = p->nvars;
    Clause c;
    c.pat = parse_pattern(p, mark);
    expect(p, TK_FATARROW, "`=>` after the pattern");
    c.body = parse_seq(p);
    p->nvars = mark;
    PUSH(p, cs, n, cap, c);
    if (!accept(p, TK_COMMA)) {
      expect(p, TK_RBRACE, "`,` or `}` after the clause");
      break;
    }
  }
  return at(ir_match(p->m, scrut, n, cs, t->k == TK_MATCH), t);
}

/* paren := ( ) | ( seq ) | ( seq , seq, .. ), after the `(`: the unit, a
 * grouping, a tuple (`(e,)` has one field). */
static Expr *parse_paren(Parser *p, const Tok *t) {
  if (accept(p, TK_RPAREN))
    return at(ir_tuple(p->m, 0, NULL), t);
  Expr *first = parse_seq(p);
  if (accept(p, TK_RPAREN))
    return first;
  expect(p, TK_COMMA, "`,` or `)`");
  Expr **fs = NULL;
  int n = 0, cap = 0;
  PUSH(p, fs, n, cap, first);
  while (!accept(p, TK_RPAREN)) {
    Expr *e = parse_seq(p);
    PUSH(p, fs, n, cap, e);
    if (!accept(p, TK_COMMA)) {
      expect(p, TK_RPAREN, "`,` or `)` in the tuple");
      break;
    }
  }
  return at(ir_tuple(p->m, n, fs), t);
}

/* parened := ( seq ), the operands of if, ref, ref_read and ref_write. */
static Expr *parse_parened(Parser *p, const char *what) {
  expect(p, TK_LPAREN, what);
  Expr *e = parse_seq(p);
  expect(p, TK_RPAREN, "`)`");
  return e;
}

/* braced := { seq } */
static Expr *parse_braced(Parser *p, const char *what) {
  expect(p, TK_LBRACE, what);
  Expr *e = parse_seq(p);
  expect(p, TK_RBRACE, "`}`");
  return e;
}

/* The key of graph binding number num (<= INT32_MAX) in p->gindex: never
 * NULL, and consecutive numbers differ in the bits hash_ptr keeps. */
static const void *graph_key(uint64_t num) {
  return (const void *)(uintptr_t)((num + 1) << 4);
}

/* The index in p->graph of the graph binding numbered num in scope, or -1:
 * one probe of p->gindex (a scan would make n bindings cost n^2). */
static int graph_find(const Parser *p, uint64_t num) {
  if (num > INT32_MAX)
    return -1;
  int64_t *slot = ptrmap_get(&p->gindex, graph_key(num));
  int i = slot ? (int)*slot - 1 : -1;
  return i >= 0 && i < p->ngraph && (uint64_t)p->graph[i].num == num ? i : -1;
}

/* atom := number | True | False | %x | @f | %0 | ident_expr | paren
 *       | fn | if parened braced else braced | match
 *       | ref parened | ref_read parened | ref_write ( seq , seq ) | { seq } */
static Expr *parse_atom(Parser *p) {
  const Tok *t = next(p);
  enter(p, t);
  Expr *e = NULL;
  switch (t->k) {
  case TK_NUM: e = number_literal(p, t, false, t); break;
  case TK_TRUE:
  case TK_FALSE: {
    Tensor *x = ir_tensor_new(p->m->arena, DT_BOOL, 0, NULL);
    ((uint8_t *)x->data)[0] = t->k == TK_TRUE;
    e = at(ir_const(p->m, x), t);
    break;
  }
  case TK_LOCAL: {
    Binding *b = lookup(p->vars, 0, p->nvars, t->s + 1, t->len - 1);
    if (!b)
      fail(p, t,
           "undefined variable %s: expected a variable bound by an enclosing let, function or "
           "pattern (or declared by free_var), found none in scope",
           describe(p, t));
    e = at(ir_var_ref(p->m, b->val), t);
    break;
  }
  case TK_GLOBAL: {
    GlobalFn *g = ir_global_intern(p->m, tok_name(p, t, 1));
    GlobalRef r = {g, t};
    PUSH(p, p->grefs, p->ngrefs, p->capgrefs, r);
    e = at(ir_global_ref(p->m, g), t);
    break;
  }
  case TK_GRAPH: {
    uint64_t num;
    if (!to_u64(t->s + 1, t->len - 1, &num))
      num = UINT64_MAX;
    int i = graph_find(p, num);
    if (i < 0)
      fail(p, t, "undefined graph binding %s", describe(p, t));
    GraphBinding *g = &p->graph[i];
    e = g->e;
    if (g->var) {
      e = at(ir_var_ref(p->m, g->var), t);
      if (!g->uses++)
        g->first = e;
    }
    break;
  }
  case TK_IDENT: e = parse_ident_expr(p, t); break;
  case TK_LPAREN: e = parse_paren(p, t); break;
  case TK_FN: {
    bool inl;
    e = parse_fn(p, t, false, &inl);
    break;
  }
  case TK_IF: {
    Expr *c = parse_parened(p, "`(` and the condition");
    Expr *th = parse_braced(p, "`{` and the then branch");
    expect(p, TK_ELSE, "`else`");
    Expr *el = parse_braced(p, "`{` and the else branch");
    e = at(ir_if(p->m, c, th, el), t);
    break;
  }
  case TK_MATCH:
  case TK_MATCHQ: e = parse_match(p, t); break;
  case TK_REF: e = at(ir_ref_new(p->m, parse_parened(p, "`(` after `ref`")), t); break;
  case TK_REF_READ: e = at(ir_ref_read(p->m, parse_parened(p, "`(` after `ref_read`")), t); break;
  case TK_REF_WRITE: {
    expect(p, TK_LPAREN, "`(` after `ref_write`");
    Expr *r = parse_seq(p);
    expect(p, TK_COMMA, "`,` and the value to write");
    Expr *v = parse_seq(p);
    expect(p, TK_RPAREN, "`)`");
    e = at(ir_ref_write(p->m, r, v), t);
    break;
  }
  case TK_LBRACE:
    e = parse_seq(p);
    expect(p, TK_RBRACE, "`}` to close the block");
    break;
  default: fail(p, t, "expected an expression, found %s", describe(p, t));
  }
  leave(p);
  return e;
}

typedef struct PendingLet {
  Var *v;
  Expr *value;
  const Tok *at;
  int graph; /* 1 + the index in p->graph of a graph binding not shared, or 0 */
} PendingLet;

/* Can e be shared (ir_expr_is_shareable), where the graph-bound values
 * met are known shareable and a Var standing for a graph binding that is
 * not is not (a use of it is replaced by its value or bound by a let)?
 * Walks e's own nodes only: linear, however much the values share. */
static bool is_shareable(Parser *p, const Expr *e) {
  if (ptrmap_get(&p->pure, e))
    return true;
  switch (e->kind) {
  case EX_VAR: return !ptrmap_get(&p->pure, e->var);
  case EX_GLOBAL:
  case EX_CONST: return true;
  case EX_TUPLE:
    for (int i = 0; i < e->tuple.n; i++)
      if (!is_shareable(p, e->tuple.fields[i]))
        return false;
    return true;
  case EX_PROJ: return is_shareable(p, e->proj.tuple);
  case EX_IF:
    return is_shareable(p, e->if_.cond) && is_shareable(p, e->if_.then) &&
           is_shareable(p, e->if_.els);
  case EX_CALL:
    if (e->call.kind == CALL_EXPR)
      return false;
    for (int i = 0; i < e->call.nargs; i++)
      if (!is_shareable(p, e->call.args[i]))
        return false;
    return true;
  default: return false;
  }
}

/* seq := (let %x (: type)? = expr ; | %0 = expr ; | free_var %x (: type)? ;
 *         | expr ;)* expr
 * The bindings are scoped to the sequence; `e1; e2` is sugar for a let of
 * an unused variable, `let %_ = e1; e2`, as in TVM (its `_` is not in
 * scope).  The let chain is built without recursion. */
static Expr *parse_seq(Parser *p) {
  int vmark = p->nvars, gmark = p->ngraph;
  PendingLet *lets = NULL;
  int n = 0, cap = 0;
  Expr *body;
  for (;;) {
    const Tok *t = peek(p);
    if (t->k == TK_LET) {
      next(p);
      const Tok *name = expect(p, TK_LOCAL, "a variable `%name` after `let`");
      Type *annot = accept(p, TK_COLON) ? parse_type(p) : NULL;
      expect(p, TK_EQ, "`=` in the let binding");
      Expr *value = parse_expr(p);
      expect(p, TK_SEMI, "`;` after the let binding");
      Var *v = ir_var(p->m, tok_name(p, name, 1), annot);
      bind_var(p, v);
      PendingLet pl = {v, value, t};
      PUSH(p, lets, n, cap, pl);
    } else if (t->k == TK_GRAPH && ahead(p, 1)->k == TK_EQ) {
      next(p);
      next(p);
      uint64_t num;
      if (!to_u64(t->s + 1, t->len - 1, &num) || num > INT32_MAX)
        fail(p, t, "graph binding number %s is too large", describe(p, t));
      if (graph_find(p, num) >= 0)
        fail(p, t, "graph binding %s is already defined", describe(p, t));
      Expr *value = parse_expr(p);
      expect(p, TK_SEMI, "`;` after the graph binding");
      GraphBinding g = {(int64_t)num, value, NULL, NULL, 0};
      if (is_shareable(p, value)) {
        ptrmap_put(&p->pure, value, NULL);
      } else {
        g.var = ir_var(p->m, arena_printf(p->tmp, "x%lld", (long long)num), NULL);
        ptrmap_put(&p->pure, g.var, NULL);
        PendingLet pl = {g.var, value, t, p->ngraph + 1};
        PUSH(p, lets, n, cap, pl);
      }
      PUSH(p, p->graph, p->ngraph, p->capgraph, g);
      *ptrmap_put(&p->gindex, graph_key(num), NULL) = p->ngraph;
    } else if (t->k == TK_FREE_VAR) {
      next(p);
      const Tok *name = expect(p, TK_LOCAL, "a variable `%name` after `free_var`");
      for (int i = 0; i < p->nfree; i++)
        if ((size_t)name->len - 1 == strlen(p->freev[i]->name) &&
            memcmp(name->s + 1, p->freev[i]->name, (size_t)name->len - 1) == 0)
          fail(p, name, "free variable %s is already declared", describe(p, name));
      Type *annot = accept(p, TK_COLON) ? parse_type(p) : NULL;
      expect(p, TK_SEMI, "`;` after the free_var declaration");
      Var *v = ir_var(p->m, tok_name(p, name, 1), annot);
      bind_var(p, v);
      PUSH(p, p->freev, p->nfree, p->capfree, v);
    } else {
      Expr *e = parse_expr(p);
      if (!accept(p, TK_SEMI)) {
        body = e;
        break;
      }
      /* e; seq: a let of a variable named _, out of scope. */
      PendingLet pl = {ir_var(p->m, "_", NULL), e, t, 0};
      PUSH(p, lets, n, cap, pl);
    }
  }
  for (int i = n - 1; i >= 0; i--) {
    GraphBinding *g = lets[i].graph ? &p->graph[lets[i].graph - 1] : NULL;
    if (g && g->uses == 1)
      *g->first = *g->e; /* used once: evaluated where it is used */
    if (!g || g->uses > 1)
      body = at(ir_let(p->m, lets[i].v, lets[i].value, body), lets[i].at);
  }
  p->nvars = vmark, p->ngraph = gmark;
  return body;
}

/* ---------------------------------------------------------- top level */

/* def := def @name fn */
static void parse_def(Parser *p) {
  const Tok *start = next(p);
  const Tok *name = expect(p, TK_GLOBAL, "a global name `@name` after `def`");
  GlobalFn *g = ir_global_intern(p->m, tok_name(p, name, 1));
  int added;
  ptrmap_put(&p->attempted, g, &added);
  if (!added)
    fail(p, name, "%s is already defined", describe(p, name));
  p->nfree = 0;
  bool inl;
  Expr *f = parse_fn(p, start, true, &inl);
  char why[160];
  if (!ir_depth_within(ir_expr_depth(f), why, sizeof why))
    fail(p, start, "the definition of %s %s", describe(p, name), why);
  g->func = f;
  g->is_inline = inl;
  PUSH(p, p->defs, p->ndefs, p->capdefs, g);
}

/* The TypeDef the pre-scan declared for the `type` token at index i. */
static TypeDef *declared(const Parser *p, int i) {
  for (int k = 0; k < p->ndecls; k++)
    if (p->decls[k].tok == i)
      return p->decls[k].td;
  return NULL;
}

/* typedef := type Name tvars? { Ctor (( type, .. ))?, .. } */
static void parse_typedef(Parser *p) {
  int tok = p->pos;
  next(p);
  const Tok *name = expect(p, TK_IDENT, "a type name after `type`");
  check_new_name(p, name, "type");
  int mark = p->ntvars, n = 0;
  Type **tv = NULL;
  if (accept(p, TK_LBRACK))
    n = parse_tvar_binders(p, &tv);
  TypeDef *td = declared(p, tok);
  if (!td && find_typedef(p, name))
    fail(p, name, "type %s is already defined", describe(p, name));
  if (!td)
    fail(p, name, "type %s has too many type parameters", describe(p, name));
  if (n != td->ntvars)
    abort(); /* the pre-scan read the same tokens */
  p->ntvars = mark;
  for (int i = 0; i < n; i++)
    bind_tvar(p, td->tvars[i]);
  expect(p, TK_LBRACE, "`{` and the constructors");
  while (!accept(p, TK_RBRACE)) {
    const Tok *c = expect(p, TK_IDENT, "a constructor name");
    check_new_name(p, c, "constructor");
    char *cname = tok_name(p, c, 0);
    OpId op;
    if (ir_ctor_get(p->m, cname))
      fail(p, c, "constructor %s is already defined", describe(p, c));
    if (ir_op_lookup(c->s, (size_t)c->len, &op) || tok_is(c, "Tensor") || tok_is(c, "nan") ||
        tok_is(c, "inf") || tok_is(c, "None"))
      fail(p, c, "%s cannot name a constructor (it is an operator or a reserved word)",
           describe(p, c));
    Type **fields = NULL;
    int n = 0;
    if (accept(p, TK_LPAREN))
      n = parse_type_list(p, TK_RPAREN, "`,` or `)` in the constructor fields", &fields);
    ir_ctor_add(p->m, td, cname, n, fields);
    if (!accept(p, TK_COMMA)) {
      expect(p, TK_RBRACE, "`,` or `}` after the constructor");
      break;
    }
  }
  p->ntvars = mark;
}

/* Hides the prelude types whose names the module defines itself, as a
 * type or a constructor (ir_prelude_hide): the module's own definitions
 * are the ones used, as in TVM, whose parser imports no prelude.  The
 * constructors of `type Name tvars? { .. }` are the identifiers that open
 * the entries of its braces. */
static void hide_prelude(Parser *p) {
  const Tok *end = &p->toks[p->ntok - 1]; /* EOF */
  for (const Tok *t = p->toks; t + 1 < end; t++) {
    if (t->k != TK_TYPE || t[1].k != TK_IDENT)
      continue;
    ir_prelude_hide(p->m, t[1].s, (size_t)t[1].len);
    const Tok *c = t + 2;
    if (c->k == TK_LBRACK)
      while (c < end && (c++)->k != TK_RBRACK)
        ;
    if (c->k != TK_LBRACE)
      continue;
    int depth = 0;
    for (bool entry = true; ++c < end;) {
      if (depth == 0 && (c->k == TK_RBRACE || c->k == TK_DEF || c->k == TK_TYPE))
        break;
      if (depth == 0 && entry && c->k == TK_IDENT)
        ir_prelude_hide(p->m, c->s, (size_t)c->len);
      depth += (c->k == TK_LPAREN || c->k == TK_LBRACK) - (c->k == TK_RPAREN || c->k == TK_RBRACK);
      entry = depth == 0 && c->k == TK_COMMA;
    }
  }
}

/* Declares every `type Name[A, ..]` header so types can be used before
 * their definition.  Malformed headers and duplicates are left to the
 * main pass, which reports them in order. */
static void prescan_types(Parser *p) {
  for (int i = 0; i + 1 < p->ntok; i++) {
    const Tok *t = &p->toks[i], *name = &p->toks[i + 1];
    if (t->k != TK_TYPE || name->k != TK_IDENT || memchr(name->s, '.', (size_t)name->len) ||
        reserved_type_name(name) || find_typedef(p, name))
      continue;
    const char *tv[64];
    int n = 0, j = i + 2;
    bool ok = true;
    if (j < p->ntok && p->toks[j].k == TK_LBRACK) {
      for (j++;; j += 2) {
        if (j + 1 >= p->ntok || p->toks[j].k != TK_IDENT || n == 64) {
          ok = false;
          break;
        }
        tv[n++] = arena_strndup(p->tmp, p->toks[j].s, (size_t)p->toks[j].len);
        if (p->toks[j + 1].k == TK_RBRACK)
          break;
        if (p->toks[j + 1].k != TK_COMMA) {
          ok = false;
          break;
        }
      }
    }
    if (!ok)
      continue;
    TypeDecl d = {i, ir_typedef_add(p->m, tok_name(p, name, 0), n, tv)};
    PUSH(p, p->decls, p->ndecls, p->capdecls, d);
  }
}

/* header := # [ version = "0.0.5" ] */
static void parse_header(Parser *p) {
  next(p);
  expect(p, TK_LBRACK, "`[` after `#`");
  const Tok *v = expect(p, TK_IDENT, "`version`");
  if (!tok_is(v, "version"))
    fail(p, v, "expected `version`, found %s", describe(p, v));
  expect(p, TK_EQ, "`=`");
  const Tok *s = expect(p, TK_STR, "a version string");
  if (strcmp(s->str, "0.0.5") != 0)
    fail(p, s, "unsupported text format version %s (expected \"0.0.5\")", describe(p, s));
  expect(p, TK_RBRACK, "`]`");
}

/* expr_file := seq, the whole rest of a file that holds one expression
 * (TVM's parse_expr): it becomes the body of `def @main() { seq }`. */
static void parse_expr_file(Parser *p) {
  const Tok *start = peek(p);
  GlobalFn *g = ir_global_intern(p->m, "main");
  ptrmap_put(&p->attempted, g, NULL);
  p->nfree = 0;
  Expr *body = parse_seq(p);
  const Tok *t = peek(p);
  if (t->k != TK_EOF)
    fail(p, t,
         "expected the end of the expression, found %s (a file holds either definitions or "
         "one expression)",
         describe(p, t));
  Expr *f = at(ir_func(p->m, 0, NULL, NULL, body), start);
  char why[160];
  if (!ir_depth_within(ir_expr_depth(f), why, sizeof why))
    fail(p, start, "the expression %s", why);
  g->func = f;
  PUSH(p, p->defs, p->ndefs, p->capdefs, g);
}

/* Does the file hold one expression: is its first token after the
 * header neither `def`, `type` nor the end? */
static bool is_expr_file(const Parser *p) {
  int i = p->toks[0].k == TK_HASH ? 6 : 0; /* # [ version = "0.0.5" ] */
  if (i >= p->ntok)
    return false;
  TokKind k = p->toks[i].k;
  return k != TK_DEF && k != TK_TYPE && k != TK_EOF && k != TK_ERR;
}

/* item := header (first only) | def | typedef */
static void parse_item(Parser *p, bool first) {
  const Tok *t = peek(p);
  if (t->k == TK_HASH && first)
    parse_header(p);
  else if (p->expr_file)
    parse_expr_file(p);
  else if (t->k == TK_DEF)
    parse_def(p);
  else if (t->k == TK_TYPE)
    parse_typedef(p);
  else
    fail(p, t, "expected `def` or `type`, found %s", describe(p, t));
}

/* Parses one item; after an error skips to the next `def` or `type`. */
static void parse_item_guarded(Parser *p, bool first) {
  jmp_buf jb;
  int start = p->pos;
  p->bail = &jb;
  if (setjmp(jb) == 0) {
    parse_item(p, first);
    return;
  }
  p->depth = 0, p->nvars = 0, p->ntvars = 0, p->ngraph = 0;
  if (p->pos == start)
    p->pos++;
  while (p->pos < p->ntok - 1 && p->toks[p->pos].k != TK_DEF && p->toks[p->pos].k != TK_TYPE)
    p->pos++;
}

/* Reports globals used but never defined, each at its first use. */
static void resolve_globals(Parser *p) {
  PtrMap reported = {.arena = p->tmp};
  for (int i = 0; i < p->ngrefs && !p->stop; i++) {
    GlobalFn *g = p->grefs[i].g;
    int added;
    if (g->func || ptrmap_get(&p->attempted, g))
      continue;
    ptrmap_put(&reported, g, &added);
    if (added)
      error_at(p, p->grefs[i].at, "undefined global @%s", g->name);
  }
  ptrmap_free(&reported);
}

/* module := item*
 * Lexes, pre-scans the type definitions, parses every item with recovery,
 * then resolves globals; the module only when there was no error. */
Module *ir_parse_module(const char *src, size_t len, const char *file, Diag *d) {
  Diag local;
  if (!d)
    diag_init(d = &local, file, NULL);
  const char *old_file = d->file, *old_src = d->src;
  /* The lexer reads a NUL-terminated copy (NULs inside are errors); the
   * messages quote a copy with NULs shown as spaces. */
  char *text = malloc(len + LEX_PAD), *shown = malloc(len + 1);
  if (!text || !shown)
    abort();
  if (len)
    memcpy(text, src, len);
  memset(text + len, 0, LEX_PAD);
  memcpy(shown, text, len + 1);
  for (char *z = memchr(shown, 0, len); z; z = memchr(z + 1, 0, len - (size_t)(z + 1 - shown)))
    *z = ' ';
  if (file)
    d->file = file;
  d->src = shown;

  Parser p = {.m = ir_module_new(), .d = d, .tmp = arena_new()};
  p.attempted.arena = p.tmp;
  p.gindex.arena = p.tmp;
  p.pure.arena = p.tmp;
  p.toks = ir_lex(text, len, p.tmp, &p.ntok);
  hide_prelude(&p);
  prescan_types(&p);
  if ((p.expr_file = is_expr_file(&p))) {
    if (p.toks[0].k == TK_HASH)
      parse_item_guarded(&p, true);
    if (!p.nerrors)
      parse_item_guarded(&p, false);
  } else {
    for (bool first = true; !p.stop && p.toks[p.pos].k != TK_EOF; first = false)
      parse_item_guarded(&p, first);
  }
  if (!p.stop)
    resolve_globals(&p);

  Module *m = p.m;
  if (p.nerrors) {
    ir_module_free(m);
    m = NULL;
  } else {
    /* Definition order, not the order of first reference. */
    if (p.ndefs != m->nfuncs)
      abort();
    if (p.ndefs)
      memcpy(m->funcs, p.defs, sizeof(GlobalFn *) * (size_t)p.ndefs);
  }
  ptrmap_free(&p.attempted);
  ptrmap_free(&p.pure);
  arena_free(p.tmp);
  d->file = old_file, d->src = old_src;
  free(text);
  free(shown);
  if (d == &local)
    diag_free(&local);
  return m;
}
