/*
 * mutate.c - make the mutants of C functions and write them as a mutant
 * schema (scripts/mutation-score, docs/mutation-score.md).
 *
 *   mutate --root TREE [--out DIR] [--map FILE] [--seed S] [--exclude FILE]
 *          --entry NAME... FILE...
 *
 * Parses each FILE (a path under TREE) with libclang, finds the functions
 * reachable from the --entry functions through calls and function
 * references (so a pass's own code, not its postcondition checker), and
 * lists on stdout, one TSV row each, every mutant the operators of the
 * table below make in them.  With --out it writes each FILE, rewritten so
 * that every mutant is in it and switched on at run time by its number
 * (rs_mutant.h: rs_mut(id) is true only for the active mutant), under
 * DIR; --map lists where each rewritten site landed in the output (to
 * find the site a compiler error points into); --exclude names the sites
 * (any mutant id of the site, one per line) to leave as they were.
 *
 * A site is one place in the source and the edit that puts its mutants
 * there; it holds one mutant (a deleted statement) or several (the five
 * other relational operators).  Sites nest (an operand of a comparison
 * may hold a call whose arguments are swapped); each operand is emitted
 * once, so the output grows linearly.  Anything inside a macro expansion
 * is left alone, and so is anything that must stay a constant expression
 * (case labels, array sizes, static initializers, _Static_assert, enum
 * values, bit-field widths) or is not evaluated (sizeof).
 *
 * Each mutant's key (file, function, operator, text before and after, and
 * its ordinal among mutants with the same five) does not depend on line
 * numbers or on other functions, and its rank is a hash of the key and the
 * seed: scripts/mutation-score samples the smallest ranks per pass, so two
 * trees whose pass code is the same get the same sample.
 */
#include <clang-c/Index.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The mutation operators: name (in keys and reports), what it does (the
 * usage message lists them). */
#define OPERATORS(X)                                                                               \
  X(ROR, "ror", "relational operator replaced by each of the five others")                         \
  X(LCR, "lcr", "&& and || swapped")                                                               \
  X(NEG, "neg", "if/while/for/?: condition negated (not one that is a comparison: ror has it)")    \
  X(CONST, "const", "integer literal plus one, minus one")                                         \
  X(DEL, "del", "expression statement, break or continue deleted")                                 \
  X(SWAP, "swap", "two call arguments of the same type swapped")                                   \
  X(RET, "ret", "return at the function's entry: return; / 0 / false / NULL / (T){0}")

enum {
#define X(id, name, what) OP_##id,
  OPERATORS(X)
#undef X
};

static const char *op_name[] = {
#define X(id, name, what) name,
    OPERATORS(X)
#undef X
};

static const char *op_what[] = {
#define X(id, name, what) what,
    OPERATORS(X)
#undef X
};

#define MAX_ARGS 16

typedef struct {
  unsigned lo, hi; /* byte offsets, hi exclusive */
} Range;

/* One site: a source range replaced by a template around its holes. */
typedef struct {
  int op;
  Range r;    /* replaced range; lo == hi is an insertion */
  int nholes; /* sub-ranges emitted (with the sites inside) into the template */
  Range hole[MAX_ARGS];
  int order;   /* creation order: a site is created before the sites inside it */
  int fn;      /* enclosing function (index in Tool.fns) */
  unsigned at; /* offset reported as the site's line */
  int id, n;   /* its mutants are id .. id + n - 1 */
  bool excluded;
  const char *opsym; /* ROR, LCR: the original operator */
  bool bitfield[2];  /* ROR: the operand is a bit-field (promoted with +) */
  char *text;        /* CONST: the literal; RET: the return statement */
  int npairs;        /* SWAP: the argument pairs (i, j), one mutant each */
  int pair[MAX_ARGS * (MAX_ARGS - 1) / 2][2];
  int nocc, capocc; /* where the site landed in the output (--map) */
  Range *occ;
} Site;

typedef struct {
  const char *path; /* as given, relative to --root */
  char *src;
  unsigned len;
  unsigned *line_at; /* offset of the start of each line */
  int nlines;
  CXTranslationUnit tu;
  Range *macro; /* macro expansions in this file */
  int nmacro;
  Site *sites;
  int nsites, capsites;
} File;

/* A function defined in one of the files, and what it refers to. */
typedef struct {
  char *usr, *name;
  int file;
  CXCursor def;
  char **callee; /* USRs of the functions its body names */
  int ncallee;
  bool reached; /* from an --entry function */
} Fn;

typedef struct {
  const char *root;
  File *files;
  int nfiles;
  Fn *fns;
  int nfns, capfns;
  File *f;     /* the file being walked */
  int fn;      /* the function being walked */
  int counter; /* site creation order */
} Tool;

/* ---------------------------------------------------------------- utilities */

static void die(const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  fprintf(stderr, "mutate: ");
  vfprintf(stderr, fmt, ap);
  fprintf(stderr, "\n");
  va_end(ap);
  exit(1);
}

static void *grow(void *p, int n, int *cap, size_t size) {
  if (n < *cap)
    return p;
  *cap = *cap ? 2 * *cap : 16;
  p = realloc(p, *cap * size);
  if (!p)
    die("out of memory");
  return p;
}

typedef struct {
  char *p;
  size_t n, cap;
} Buf;

static void put(Buf *b, const char *s, size_t n) {
  if (b->n + n + 1 > b->cap) {
    b->cap = (b->n + n + 1) * 2;
    b->p = realloc(b->p, b->cap);
    if (!b->p)
      die("out of memory");
  }
  memcpy(b->p + b->n, s, n);
  b->n += n;
  b->p[b->n] = 0;
}

static void put_str(Buf *b, const char *s) {
  put(b, s, strlen(s));
}

static void putf(Buf *b, const char *fmt, ...) {
  char tmp[512];
  va_list ap;
  va_start(ap, fmt);
  int n = vsnprintf(tmp, sizeof tmp, fmt, ap);
  va_end(ap);
  if (n < 0 || n >= (int)sizeof tmp)
    die("template too long");
  put(b, tmp, n);
}

static char *read_file(const char *path, unsigned *len) {
  FILE *in = fopen(path, "rb");
  if (!in)
    die("cannot read %s", path);
  Buf b = {0};
  char chunk[65536];
  size_t n;
  while ((n = fread(chunk, 1, sizeof chunk, in)) > 0)
    put(&b, chunk, n);
  fclose(in);
  if (!b.p)
    put_str(&b, "");
  *len = b.n;
  return b.p;
}

/* The text of r with every run of white space made one space. */
static char *squeeze(const File *f, Range r) {
  Buf b = {0};
  put_str(&b, "");
  bool space = false;
  for (unsigned i = r.lo; i < r.hi; i++) {
    char c = f->src[i];
    if (c == ' ' || c == '\t' || c == '\n' || c == '\r') {
      space = b.n > 0;
      continue;
    }
    if (space)
      put_str(&b, " ");
    space = false;
    put(&b, &c, 1);
  }
  return b.p;
}

static char *dupf(const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  int n = vsnprintf(NULL, 0, fmt, ap);
  va_end(ap);
  char *s = malloc(n + 1);
  if (!s)
    die("out of memory");
  va_start(ap, fmt);
  vsnprintf(s, n + 1, fmt, ap);
  va_end(ap);
  return s;
}

static char *cx_dup(CXString s) {
  char *r = strdup(clang_getCString(s) ? clang_getCString(s) : "");
  clang_disposeString(s);
  return r;
}

/* 1-based line of offset off in f. */
static int line_of(const File *f, unsigned off) {
  int lo = 0, hi = f->nlines - 1;
  while (lo < hi) {
    int mid = (lo + hi + 1) / 2;
    if (f->line_at[mid] <= off)
      lo = mid;
    else
      hi = mid - 1;
  }
  return lo + 1;
}

/* ------------------------------------------------------------ source ranges */

static unsigned offset_of(CXSourceLocation loc) {
  unsigned off;
  clang_getFileLocation(loc, NULL, NULL, NULL, &off);
  return off;
}

static Range range_of(CXCursor c) {
  CXSourceRange r = clang_getCursorExtent(c);
  return (Range){offset_of(clang_getRangeStart(r)), offset_of(clang_getRangeEnd(r))};
}

static bool in_main_file(CXCursor c) {
  return clang_Location_isFromMainFile(clang_getCursorLocation(c));
}

/* Is offset off inside a macro expansion? */
static bool in_macro(const File *f, unsigned off) {
  for (int i = 0; i < f->nmacro; i++)
    if (f->macro[i].lo <= off && off < f->macro[i].hi)
      return true;
  return false;
}

/* Does an end of r fall strictly inside a macro expansion, so that
 * replacing r would cut the expansion? */
static bool cuts_macro(const File *f, Range r) {
  for (int i = 0; i < f->nmacro; i++) {
    Range m = f->macro[i];
    if ((m.lo < r.lo && r.lo < m.hi) || (m.lo < r.hi && r.hi < m.hi))
      return true;
  }
  return r.hi < r.lo || r.hi > f->len;
}

/* The spelling and offset of the first token of extent c at or after off;
 * false when there is none.  Tokens are the file's, never a macro's. */
static bool token_after(const File *f, CXCursor c, unsigned off, char *out, size_t size,
                        unsigned *at) {
  CXToken *toks;
  unsigned n;
  clang_tokenize(f->tu, clang_getCursorExtent(c), &toks, &n);
  bool found = false;
  for (unsigned i = 0; i < n && !found; i++) {
    unsigned o = offset_of(clang_getTokenLocation(f->tu, toks[i]));
    if (o < off)
      continue;
    CXString s = clang_getTokenSpelling(f->tu, toks[i]);
    snprintf(out, size, "%s", clang_getCString(s));
    clang_disposeString(s);
    *at = o;
    found = true;
  }
  clang_disposeTokens(f->tu, toks, n);
  return found;
}

/* The children of a cursor (kids_free frees them). */
typedef struct {
  CXCursor *c;
  int n, cap;
} Kids;

static enum CXChildVisitResult add_kid(CXCursor c, CXCursor parent, void *ctx) {
  Kids *k = ctx;
  k->c = grow(k->c, k->n, &k->cap, sizeof *k->c);
  k->c[k->n++] = c;
  return CXChildVisit_Continue;
}

static Kids kids_of(CXCursor c) {
  Kids k = {NULL, 0, 0};
  clang_visitChildren(c, add_kid, &k);
  return k;
}

static void kids_free(Kids *k) {
  free(k->c);
}

/* c without the implicit conversions and parentheses around it. */
static CXCursor bare(CXCursor c) {
  for (;;) {
    enum CXCursorKind k = clang_getCursorKind(c);
    if (k != CXCursor_UnexposedExpr && k != CXCursor_ParenExpr)
      return c;
    Kids kids = kids_of(c);
    bool one = kids.n == 1;
    if (one)
      c = kids.c[0];
    kids_free(&kids);
    if (!one)
      return c;
  }
}

/* The operator of binary operator c (its first token after the left
 * operand), with its offset. */
static bool binary_op(const File *f, CXCursor c, char *op, size_t size, unsigned *at) {
  Kids k = kids_of(c);
  bool ok = k.n == 2 && token_after(f, c, range_of(k.c[0]).hi, op, size, at);
  kids_free(&k);
  return ok;
}

static const char *relational[] = {"<", "<=", ">", ">=", "==", "!="};

static int relational_index(const char *op) {
  for (int i = 0; i < 6; i++)
    if (strcmp(op, relational[i]) == 0)
      return i;
  return -1;
}

/* ------------------------------------------------------------------- sites */

static Site *new_site(Tool *t, int op, Range r, unsigned at) {
  File *f = t->f;
  f->sites = grow(f->sites, f->nsites, &f->capsites, sizeof *f->sites);
  Site *s = &f->sites[f->nsites++];
  memset(s, 0, sizeof *s);
  s->op = op;
  s->r = r;
  s->at = at;
  s->order = t->counter++;
  s->fn = t->fn;
  s->n = 1;
  return s;
}

/* Can a site replace r, with its key token at anchor, and these holes? */
static bool editable(const File *f, Range r, unsigned anchor, const Range *holes, int n) {
  if (in_macro(f, anchor) || cuts_macro(f, r))
    return false;
  for (int i = 0; i < n; i++)
    if (cuts_macro(f, holes[i]) || holes[i].lo < r.lo || holes[i].hi > r.hi)
      return false;
  return true;
}

/* Is c (under conversions and parentheses) a bit-field member?  An
 * __auto_type variable cannot hold one as it is. */
static bool is_bitfield(CXCursor c) {
  CXCursor b = bare(c);
  return clang_getCursorKind(b) == CXCursor_MemberRefExpr &&
         clang_Cursor_isBitField(clang_getCursorReferenced(b));
}

static void site_ror_lcr(Tool *t, CXCursor c) {
  char op[8];
  unsigned at;
  if (!binary_op(t->f, c, op, sizeof op, &at))
    return;
  bool logical = strcmp(op, "&&") == 0 || strcmp(op, "||") == 0;
  int ri = relational_index(op);
  if (!logical && ri < 0)
    return;
  Kids k = kids_of(c);
  Range h[2] = {range_of(k.c[0]), range_of(k.c[1])};
  bool bitfield[2];
  for (int i = 0; i < 2; i++)
    bitfield[i] = is_bitfield(k.c[i]);
  kids_free(&k);
  Range r = {h[0].lo, h[1].hi};
  if (!editable(t->f, r, at, h, 2))
    return;
  Site *s = new_site(t, logical ? OP_LCR : OP_ROR, r, at);
  s->nholes = 2;
  for (int i = 0; i < 2; i++) {
    s->hole[i] = h[i];
    s->bitfield[i] = bitfield[i];
  }
  s->opsym = logical ? (op[0] == '&' ? "&&" : "||") : relational[ri];
  s->n = logical ? 1 : 5;
}

/* The alternatives of ROR site s, in mutant order. */
static void ror_alternatives(const Site *s, const char *alt[5]) {
  int n = 0;
  for (int i = 0; i < 6; i++)
    if (strcmp(relational[i], s->opsym) != 0)
      alt[n++] = relational[i];
}

/* Negate condition c, unless it is a comparison (ror makes its negation). */
static void site_neg(Tool *t, CXCursor c) {
  CXCursor b = bare(c);
  if (clang_getCursorKind(b) == CXCursor_BinaryOperator) {
    char op[8];
    unsigned at;
    if (binary_op(t->f, b, op, sizeof op, &at) && relational_index(op) >= 0)
      return;
  }
  Range r = range_of(c);
  if (!editable(t->f, r, r.lo, &r, 1))
    return;
  Site *s = new_site(t, OP_NEG, r, r.lo);
  s->nholes = 1;
  s->hole[0] = r;
}

static void site_const(Tool *t, CXCursor c) {
  Range r = range_of(c);
  if (!editable(t->f, r, r.lo, NULL, 0))
    return;
  Site *s = new_site(t, OP_CONST, r, r.lo);
  s->text = squeeze(t->f, r);
  s->n = 2;
}

/* Delete expression statement c, or the break/continue keyword c. */
static void site_del(Tool *t, CXCursor c) {
  Range r = range_of(c);
  enum CXCursorKind k = clang_getCursorKind(c);
  bool jump = k == CXCursor_BreakStmt || k == CXCursor_ContinueStmt;
  if (jump)
    r.hi = r.lo + (k == CXCursor_BreakStmt ? 5 : 8);
  /* (void)x; is there to silence a warning: deleting it changes nothing. */
  if (k == CXCursor_CStyleCastExpr && clang_getCursorType(c).kind == CXType_Void)
    return;
  if (!editable(t->f, r, r.lo, &r, jump ? 0 : 1))
    return;
  Site *s = new_site(t, OP_DEL, r, r.lo);
  if (!jump) {
    s->nholes = 1;
    s->hole[0] = r;
  } else {
    s->text = strdup(k == CXCursor_BreakStmt ? "break" : "continue");
  }
}

static void site_swap(Tool *t, CXCursor call) {
  int n = clang_Cursor_getNumArguments(call);
  if (n < 2 || n > MAX_ARGS)
    return;
  CXCursor arg[MAX_ARGS];
  Range h[MAX_ARGS];
  for (int i = 0; i < n; i++) {
    arg[i] = clang_Cursor_getArgument(call, i);
    h[i] = range_of(arg[i]);
  }
  Range r = {h[0].lo, h[n - 1].hi};
  if (!editable(t->f, r, range_of(call).lo, h, n))
    return;
  int pairs[MAX_ARGS * (MAX_ARGS - 1) / 2][2], np = 0;
  for (int i = 0; i < n; i++)
    for (int j = i + 1; j < n; j++) {
      CXType a = clang_getCanonicalType(clang_getCursorType(arg[i]));
      CXType b = clang_getCanonicalType(clang_getCursorType(arg[j]));
      if (!clang_equalTypes(a, b))
        continue;
      char *x = squeeze(t->f, h[i]), *y = squeeze(t->f, h[j]);
      bool same = strcmp(x, y) == 0; /* f(a, a): swapping changes nothing */
      free(x);
      free(y);
      if (!same) {
        pairs[np][0] = i;
        pairs[np][1] = j;
        np++;
      }
    }
  if (np == 0)
    return;
  Site *s = new_site(t, OP_SWAP, r, range_of(call).lo);
  s->nholes = n;
  memcpy(s->hole, h, n * sizeof *h);
  s->npairs = s->n = np;
  memcpy(s->pair, pairs, sizeof pairs[0] * np);
}

/* Return at the entry of function fn, whose body is body. */
static void site_ret(Tool *t, CXCursor fn, CXCursor body) {
  unsigned at = range_of(body).lo;
  if (t->f->src[at] != '{' || in_macro(t->f, at))
    return;
  CXType rt = clang_getCanonicalType(clang_getResultType(clang_getCursorType(fn)));
  char *ret;
  if (rt.kind == CXType_Void) {
    ret = strdup("return;");
  } else if (rt.kind == CXType_Record) {
    ret = dupf("return (%s){0};",
               cx_dup(clang_getTypeSpelling(clang_getResultType(clang_getCursorType(fn)))));
  } else {
    ret = strdup("return 0;");
  }
  Site *s = new_site(t, OP_RET, (Range){at + 1, at + 1}, at);
  s->text = ret;
}

/* -------------------------------------------------------------------- walk */

static void walk(Tool *t, CXCursor c, bool stmt, bool ptr_context);

static void walk_kids(Tool *t, CXCursor c, bool stmt) {
  Kids k = kids_of(c);
  bool ptr = false;
  enum CXCursorKind ck = clang_getCursorKind(c);
  if (ck == CXCursor_UnexposedExpr || ck == CXCursor_CStyleCastExpr)
    ptr = clang_getCursorType(c).kind == CXType_Pointer;
  for (int i = 0; i < k.n; i++)
    walk(t, k.c[i], stmt, ptr);
  kids_free(&k);
}

/* for (init; cond; inc) body: which child is which, from the header's
 * semicolons (an absent part has no child). */
static void walk_for(Tool *t, CXCursor c) {
  CXToken *toks;
  unsigned n;
  clang_tokenize(t->f->tu, clang_getCursorExtent(c), &toks, &n);
  unsigned semi[2] = {0, 0}, close = 0;
  int depth = 0, nsemi = 0;
  for (unsigned i = 1; i < n && !close; i++) {
    CXString s = clang_getTokenSpelling(t->f->tu, toks[i]);
    const char *sp = clang_getCString(s);
    unsigned o = offset_of(clang_getTokenLocation(t->f->tu, toks[i]));
    if (strcmp(sp, "(") == 0)
      depth++;
    else if (strcmp(sp, ")") == 0 && --depth == 0)
      close = o;
    else if (strcmp(sp, ";") == 0 && depth == 1 && nsemi < 2)
      semi[nsemi++] = o;
    clang_disposeString(s);
  }
  clang_disposeTokens(t->f->tu, toks, n);
  if (nsemi != 2 || !close)
    return;
  Kids k = kids_of(c);
  for (int i = 0; i < k.n; i++) {
    unsigned lo = range_of(k.c[i]).lo;
    if (lo > close) {
      walk(t, k.c[i], true, false);
    } else if (lo > semi[0] && lo < semi[1]) {
      site_neg(t, k.c[i]);
      walk(t, k.c[i], false, false);
    } else {
      walk(t, k.c[i], false, false);
    }
  }
  kids_free(&k);
}

/* Walk c, making its sites; stmt: c stands where a statement does;
 * ptr_context: c's value is converted to a pointer. */
static void walk(Tool *t, CXCursor c, bool stmt, bool ptr_context) {
  enum CXCursorKind k = clang_getCursorKind(c);
  Kids kids;
  if (stmt && clang_isExpression(k))
    site_del(t, c);
  switch (k) {
  case CXCursor_UnaryExpr:    /* sizeof, _Alignof: not evaluated */
  case CXCursor_StaticAssert: /* constant */
  case CXCursor_StructDecl:   /* local types: sizes, bit-field widths */
  case CXCursor_UnionDecl:
  case CXCursor_EnumDecl:
  case CXCursor_TypedefDecl:
  case CXCursor_TypeRef:
  case CXCursor_AsmStmt: return;
  case CXCursor_VarDecl:
    /* Only a local's initializer: not its type (array sizes), and not a
     * static's, which must be constant. */
    if (!clang_Cursor_hasVarDeclGlobalStorage(c)) {
      CXCursor init = clang_Cursor_getVarDeclInitializer(c);
      if (!clang_Cursor_isNull(init))
        walk(t, init, false, clang_getCursorType(c).kind == CXType_Pointer);
    }
    return;
  case CXCursor_CompoundStmt: walk_kids(t, c, true); return;
  case CXCursor_IfStmt:
  case CXCursor_WhileStmt:
    kids = kids_of(c);
    for (int i = 0; i < kids.n; i++) {
      if (i == 0)
        site_neg(t, kids.c[i]);
      walk(t, kids.c[i], i > 0, false);
    }
    kids_free(&kids);
    return;
  case CXCursor_DoStmt:
    kids = kids_of(c);
    if (kids.n == 2) {
      walk(t, kids.c[0], true, false);
      site_neg(t, kids.c[1]);
      walk(t, kids.c[1], false, false);
    }
    kids_free(&kids);
    return;
  case CXCursor_ForStmt: walk_for(t, c); return;
  case CXCursor_SwitchStmt:
    kids = kids_of(c);
    for (int i = 0; i < kids.n; i++)
      walk(t, kids.c[i], i > 0, false);
    kids_free(&kids);
    return;
  case CXCursor_CaseStmt:
    kids = kids_of(c); /* labels (constant), then the statement */
    if (kids.n > 0)
      walk(t, kids.c[kids.n - 1], true, false);
    kids_free(&kids);
    return;
  case CXCursor_DefaultStmt:
  case CXCursor_LabelStmt: walk_kids(t, c, true); return;
  case CXCursor_ConditionalOperator:
    kids = kids_of(c);
    if (kids.n == 3)
      site_neg(t, kids.c[0]);
    kids_free(&kids);
    walk_kids(t, c, false);
    return;
  case CXCursor_BinaryOperator:
    site_ror_lcr(t, c);
    walk_kids(t, c, false);
    return;
  case CXCursor_IntegerLiteral:
    if (!ptr_context)
      site_const(t, c);
    return;
  case CXCursor_CallExpr:
    site_swap(t, c);
    walk_kids(t, c, false);
    return;
  default:
    if (clang_isExpression(k) || clang_isStatement(k) || k == CXCursor_DeclStmt)
      walk_kids(t, c, false);
    return;
  }
}

/* ------------------------------------------------------------- call graph */

typedef struct {
  Tool *t;
  Fn *fn;
  int cap;
} Refs;

static enum CXChildVisitResult collect_ref(CXCursor c, CXCursor parent, void *ctx) {
  Refs *r = ctx;
  if (clang_getCursorKind(c) == CXCursor_DeclRefExpr) {
    CXCursor d = clang_getCursorReferenced(c);
    if (clang_getCursorKind(d) == CXCursor_FunctionDecl) {
      r->fn->callee = grow(r->fn->callee, r->fn->ncallee, &r->cap, sizeof(char *));
      r->fn->callee[r->fn->ncallee++] = cx_dup(clang_getCursorUSR(d));
    }
  }
  return CXChildVisit_Recurse;
}

typedef struct {
  Tool *t;
  int file;
  int capmacro;
} Top;

/* The functions defined in a file, and its macro expansions. */
static enum CXChildVisitResult collect_top(CXCursor c, CXCursor parent, void *ctx) {
  Top *top = ctx;
  Tool *t = top->t;
  File *f = &t->files[top->file];
  if (!in_main_file(c))
    return CXChildVisit_Continue;
  enum CXCursorKind k = clang_getCursorKind(c);
  if (k == CXCursor_MacroExpansion) {
    f->macro = grow(f->macro, f->nmacro, &top->capmacro, sizeof *f->macro);
    f->macro[f->nmacro++] = range_of(c);
  } else if (k == CXCursor_FunctionDecl && clang_isCursorDefinition(c)) {
    t->fns = grow(t->fns, t->nfns, &t->capfns, sizeof *t->fns);
    Fn *fn = &t->fns[t->nfns++];
    memset(fn, 0, sizeof *fn);
    fn->usr = cx_dup(clang_getCursorUSR(c));
    fn->name = cx_dup(clang_getCursorSpelling(c));
    fn->file = top->file;
    fn->def = c;
    Refs r = {t, fn, 0};
    clang_visitChildren(c, collect_ref, &r);
  }
  return CXChildVisit_Continue;
}

static void reach(Tool *t, Fn *fn) {
  if (fn->reached)
    return;
  fn->reached = true;
  for (int i = 0; i < fn->ncallee; i++)
    for (int j = 0; j < t->nfns; j++)
      if (strcmp(t->fns[j].usr, fn->callee[i]) == 0)
        reach(t, &t->fns[j]);
}

/* ------------------------------------------------------------------ render */

static void render(const File *f, Buf *out, Range r, int parent_order);

/* The text of hole i of s, with the sites inside it. */
static void hole(const File *f, Buf *out, const Site *s, int i) {
  render(f, out, s->hole[i], s->order);
}

static void render_site(const File *f, Buf *out, Site *s) {
  size_t start = out->n;
  int id = s->id;
  switch (s->op) {
  case OP_ROR: {
    const char *alt[5];
    ror_alternatives(s, alt);
    /* A bit-field operand is promoted with unary +, as the comparison
     * itself promotes it. */
    putf(out, "({ __auto_type rs_l%d = %s(", id, s->bitfield[0] ? "+" : "");
    hole(f, out, s, 0);
    putf(out, "); __auto_type rs_r%d = %s(", id, s->bitfield[1] ? "+" : "");
    hole(f, out, s, 1);
    putf(out, "); int rs_k%d = rs_pick(%d, 5); ", id, id);
    for (int i = 0; i < 5; i++)
      putf(out, "rs_k%d == %d ? rs_l%d %s rs_r%d : ", id, i + 1, id, alt[i], id);
    putf(out, "rs_l%d %s rs_r%d; })", id, s->opsym, id);
    break;
  }
  case OP_LCR:
    /* a && b is a ? b : 0, and a || b is a ? 1 : b: with and = 1 for &&,
     * the result is a when a != and, else b; no operand is repeated. */
    putf(out, "({ int rs_a%d = !!(", id);
    hole(f, out, s, 0);
    putf(out, "); int rs_and%d = %srs_mut(%d); rs_a%d != rs_and%d ? rs_a%d : !!(", id,
         strcmp(s->opsym, "&&") == 0 ? "!" : "", id, id, id, id);
    hole(f, out, s, 1);
    put_str(out, "); })");
    break;
  case OP_NEG:
    putf(out, "(rs_mut(%d) != !!(", id);
    hole(f, out, s, 0);
    put_str(out, "))");
    break;
  case OP_CONST: putf(out, "(%s + rs_delta(%d))", s->text, id); break;
  case OP_DEL:
    if (s->nholes == 0) {
      putf(out, "if (rs_mut(%d)) { } else %s", id, s->text);
    } else {
      putf(out, "(rs_mut(%d) ? (void)0 : (void)(", id);
      hole(f, out, s, 0);
      put_str(out, "))");
    }
    break;
  case OP_SWAP:
    for (int i = 0; i < s->nholes; i++) {
      if (i > 0) /* the commas and spaces between the arguments */
        put(out, f->src + s->hole[i - 1].hi, s->hole[i].lo - s->hole[i - 1].hi);
      int uses = 0;
      for (int p = 0; p < s->npairs; p++) {
        int other = s->pair[p][0] == i ? s->pair[p][1] : s->pair[p][1] == i ? s->pair[p][0] : -1;
        if (other < 0)
          continue;
        putf(out, "%srs_mut(%d) ? (", uses++ ? "" : "(", id + p);
        hole(f, out, s, other);
        put_str(out, ") : ");
      }
      if (uses)
        put_str(out, "(");
      hole(f, out, s, i);
      if (uses)
        put_str(out, "))");
    }
    break;
  case OP_RET: putf(out, " if (rs_mut(%d)) %s", id, s->text); break;
  }
  s->occ = grow(s->occ, s->nocc, &s->capocc, sizeof *s->occ);
  s->occ[s->nocc++] = (Range){start, out->n};
}

/* Emit the text of r with the sites inside it: those contained in r and
 * created after the site being emitted (parent_order), outermost first.
 * f->sites is sorted by start, insertions first, longest first, creation
 * order. */
static void render(const File *f, Buf *out, Range r, int parent_order) {
  unsigned pos = r.lo;
  for (int i = 0; i < f->nsites; i++) {
    Site *s = &f->sites[i];
    if (s->excluded || s->order <= parent_order || s->r.lo < pos || s->r.hi > r.hi)
      continue;
    put(out, f->src + pos, s->r.lo - pos);
    render_site(f, out, s);
    pos = s->r.hi;
  }
  put(out, f->src + pos, r.hi - pos);
}

static int by_position(const void *a, const void *b) {
  const Site *x = a, *y = b;
  if (x->r.lo != y->r.lo)
    return x->r.lo < y->r.lo ? -1 : 1;
  bool xi = x->r.lo == x->r.hi, yi = y->r.lo == y->r.hi;
  if (xi != yi)
    return xi ? -1 : 1;
  if (x->r.hi != y->r.hi)
    return x->r.hi > y->r.hi ? -1 : 1;
  return x->order - y->order;
}

/* ------------------------------------------------------------------ output */

static uint64_t fnv(uint64_t h, const char *s) {
  for (; *s; s++)
    h = (h ^ (unsigned char)*s) * 0x100000001b3ull;
  return h;
}

/* The rank of a key under a seed: FNV-1a, then splitmix64's finalizer. */
static uint64_t rank(const char *seed, const char *key) {
  uint64_t h = fnv(fnv(0xcbf29ce484222325ull, seed), "\n");
  h = fnv(h, key);
  h ^= h >> 30;
  h *= 0xbf58476d1ce4e5b9ull;
  h ^= h >> 27;
  h *= 0x94d049bb133111ebull;
  return h ^ (h >> 31);
}

/* Mutant k of site s: the text before and after. */
static void describe(const File *f, const Site *s, int k, char **before, char **after) {
  char *a, *b;
  switch (s->op) {
  case OP_ROR:
  case OP_LCR: {
    const char *alt[5] = {s->op == OP_LCR ? (s->opsym[0] == '&' ? "||" : "&&") : NULL};
    if (s->op == OP_ROR)
      ror_alternatives(s, alt);
    a = squeeze(f, s->hole[0]);
    b = squeeze(f, s->hole[1]);
    *before = dupf("%s %s %s", a, s->opsym, b);
    *after = dupf("%s %s %s", a, alt[k], b);
    free(a);
    free(b);
    return;
  }
  case OP_NEG:
    *before = squeeze(f, s->r);
    *after = dupf("!(%s)", *before);
    return;
  case OP_CONST:
    *before = strdup(s->text);
    *after = dupf("%s %s 1", s->text, k == 0 ? "+" : "-");
    return;
  case OP_DEL:
    a = s->nholes ? squeeze(f, s->r) : strdup(s->text);
    *before = dupf("%s;", a);
    *after = strdup("");
    free(a);
    return;
  case OP_SWAP: {
    Buf x = {0}, y = {0};
    int i = s->pair[k][0], j = s->pair[k][1];
    for (int h = 0; h < s->nholes; h++) {
      char *arg = squeeze(f, s->hole[h]);
      char *sw = squeeze(f, s->hole[h == i ? j : h == j ? i : h]);
      putf(&x, "%s", h ? ", " : "");
      putf(&y, "%s", h ? ", " : "");
      put(&x, arg, strlen(arg));
      put(&y, sw, strlen(sw));
      free(arg);
      free(sw);
    }
    *before = x.p;
    *after = y.p;
    return;
  }
  case OP_RET:
    *before = strdup("{");
    *after = dupf("{ %s", s->text);
    return;
  }
}

typedef struct {
  char *key;
  int count;
} Seen;

/* Print the mutants of every site, one TSV row each. */
static void list(Tool *t, const char *seed) {
  Seen *seen = NULL;
  int nseen = 0, cap = 0;
  printf("id\tfile\tline\tfunction\toperator\tbefore\tafter\tordinal\trank\n");
  for (int fi = 0; fi < t->nfiles; fi++) {
    File *f = &t->files[fi];
    for (int i = 0; i < f->nsites; i++) {
      Site *s = &f->sites[i];
      for (int k = 0; k < s->n; k++) {
        char *before, *after;
        describe(f, s, k, &before, &after);
        const char *fn = t->fns[s->fn].name;
        char *key = dupf("%s\x1f%s\x1f%s\x1f%s\x1f%s", f->path, fn, op_name[s->op], before, after);
        int ord = 0, j;
        for (j = 0; j < nseen && strcmp(seen[j].key, key) != 0; j++)
          ;
        if (j < nseen) {
          ord = seen[j].count++;
          free(key);
        } else {
          seen = grow(seen, nseen, &cap, sizeof *seen);
          seen[nseen++] = (Seen){key, 1};
        }
        char *full = dupf("%s\x1f%s\x1f%s\x1f%s\x1f%s\x1f%d", f->path, fn, op_name[s->op], before,
                          after, ord);
        printf("%d\t%s\t%d\t%s\t%s\t%s\t%s\t%d\t%016llx\n", s->id + k, f->path, line_of(f, s->at),
               fn, op_name[s->op], before, after, ord, (unsigned long long)rank(seed, full));
        free(full);
        free(before);
        free(after);
      }
    }
  }
}

/* Write the rewritten file under dir, and its sites' places to map. */
static void rewrite(const File *f, const char *dir, FILE *map) {
  Buf out = {0};
  const char *include = "#include \"compiler/passes/rs_mutant.h\"\n";
  put(&out, include, strlen(include));
  render(f, &out, (Range){0, f->len}, -1);
  char *path = dupf("%s/%s", dir, f->path);
  FILE *o = fopen(path, "wb");
  if (!o || fwrite(out.p, 1, out.n, o) != out.n || fclose(o) != 0)
    die("cannot write %s", path);
  free(path);
  if (!map)
    return;
  /* Output offsets to line:col, in one pass over the output. */
  unsigned *line = calloc(out.n + 1, sizeof *line), *col = calloc(out.n + 1, sizeof *col);
  unsigned l = 1, c = 1;
  for (size_t i = 0; i <= out.n; i++) {
    line[i] = l;
    col[i] = c;
    if (i < out.n && out.p[i] == '\n')
      l++, c = 1;
    else
      c++;
  }
  for (int i = 0; i < f->nsites; i++) {
    const Site *s = &f->sites[i];
    for (int k = 0; k < s->nocc; k++)
      fprintf(map, "%s\t%u\t%u\t%u\t%u\t%d\t%d\n", f->path, line[s->occ[k].lo], col[s->occ[k].lo],
              line[s->occ[k].hi], col[s->occ[k].hi], s->id, s->n);
  }
  free(line);
  free(col);
  free(out.p);
}

/* -------------------------------------------------------------------- main */

static void load(Tool *t, int fi, CXIndex index) {
  File *f = &t->files[fi];
  char *abs = dupf("%s/%s", t->root, f->path);
  f->src = read_file(abs, &f->len);
  int cap = 0;
  f->line_at = grow(NULL, 0, &cap, sizeof *f->line_at);
  f->line_at[f->nlines++] = 0;
  for (unsigned i = 0; i < f->len; i++)
    if (f->src[i] == '\n') {
      f->line_at = grow(f->line_at, f->nlines, &cap, sizeof *f->line_at);
      f->line_at[f->nlines++] = i + 1;
    }
  char *inc = dupf("-I%s", t->root);
  const char *args[] = {"-std=gnu11", inc, "-DRS_SOURCE_DIR=\"\""};
  f->tu = clang_parseTranslationUnit(index, abs, args, 3, NULL, 0,
                                     CXTranslationUnit_DetailedPreprocessingRecord);
  if (!f->tu)
    die("libclang cannot parse %s", abs);
  bool bad = false;
  for (unsigned i = 0; i < clang_getNumDiagnostics(f->tu); i++) {
    CXDiagnostic d = clang_getDiagnostic(f->tu, i);
    if (clang_getDiagnosticSeverity(d) >= CXDiagnostic_Error) {
      CXString s = clang_formatDiagnostic(d, clang_defaultDiagnosticDisplayOptions());
      fprintf(stderr, "%s\n", clang_getCString(s));
      clang_disposeString(s);
      bad = true;
    }
    clang_disposeDiagnostic(d);
  }
  if (bad)
    die("%s does not compile", abs);
  Top top = {t, fi, 0};
  clang_visitChildren(clang_getTranslationUnitCursor(f->tu), collect_top, &top);
  free(inc);
  free(abs);
}

static void usage(void) {
  fprintf(stderr, "usage: mutate --root TREE [--out DIR] [--map FILE] [--seed S] [--exclude FILE] "
                  "--entry NAME... FILE...\noperators:\n");
  for (size_t i = 0; i < sizeof op_name / sizeof *op_name; i++)
    fprintf(stderr, "  %-6s %s\n", op_name[i], op_what[i]);
  exit(2);
}

int main(int argc, char **argv) {
  Tool t = {0};
  const char *out = NULL, *map_path = NULL, *seed = "1", *exclude = NULL;
  const char **entry = calloc(argc, sizeof *entry);
  int nentry = 0;
  t.files = calloc(argc, sizeof *t.files);
  for (int i = 1; i < argc; i++) {
    const char *a = argv[i];
    bool val = i + 1 < argc;
    if (strcmp(a, "--root") == 0 && val)
      t.root = argv[++i];
    else if (strcmp(a, "--out") == 0 && val)
      out = argv[++i];
    else if (strcmp(a, "--map") == 0 && val)
      map_path = argv[++i];
    else if (strcmp(a, "--seed") == 0 && val)
      seed = argv[++i];
    else if (strcmp(a, "--exclude") == 0 && val)
      exclude = argv[++i];
    else if (strcmp(a, "--entry") == 0 && val)
      entry[nentry++] = argv[++i];
    else if (a[0] == '-')
      usage();
    else
      t.files[t.nfiles++].path = a;
  }
  if (!t.root || !t.nfiles || !nentry)
    usage();

  CXIndex index = clang_createIndex(0, 0);
  for (int i = 0; i < t.nfiles; i++)
    load(&t, i, index);
  for (int e = 0; e < nentry; e++)
    for (int i = 0; i < t.nfns; i++)
      if (strcmp(t.fns[i].name, entry[e]) == 0)
        reach(&t, &t.fns[i]);

  /* Sites, numbered in creation order file by file: the ids depend only
   * on the files' text. */
  int next = 1;
  for (int fi = 0; fi < t.nfiles; fi++) {
    t.f = &t.files[fi];
    for (int i = 0; i < t.nfns; i++) {
      if (t.fns[i].file != fi || !t.fns[i].reached)
        continue;
      t.fn = i;
      Kids k = kids_of(t.fns[i].def);
      if (k.n > 0 && clang_getCursorKind(k.c[k.n - 1]) == CXCursor_CompoundStmt) {
        site_ret(&t, t.fns[i].def, k.c[k.n - 1]);
        walk(&t, k.c[k.n - 1], true, false);
      }
      kids_free(&k);
    }
    for (int i = 0; i < t.f->nsites; i++) {
      t.f->sites[i].id = next;
      next += t.f->sites[i].n;
    }
  }

  if (exclude) {
    FILE *in = fopen(exclude, "r");
    if (!in)
      die("cannot read %s", exclude);
    int id;
    while (fscanf(in, "%d", &id) == 1)
      for (int fi = 0; fi < t.nfiles; fi++)
        for (int i = 0; i < t.files[fi].nsites; i++) {
          Site *s = &t.files[fi].sites[i];
          if (id >= s->id && id < s->id + s->n)
            s->excluded = true;
        }
    fclose(in);
  }

  list(&t, seed);
  if (out) {
    FILE *map = map_path ? fopen(map_path, "w") : NULL;
    if (map_path && !map)
      die("cannot write %s", map_path);
    for (int fi = 0; fi < t.nfiles; fi++) {
      File *f = &t.files[fi];
      qsort(f->sites, f->nsites, sizeof *f->sites, by_position);
      rewrite(f, out, map);
    }
    if (map)
      fclose(map);
  }
  for (int fi = 0; fi < t.nfiles; fi++)
    clang_disposeTranslationUnit(t.files[fi].tu);
  clang_disposeIndex(index);
  return 0;
}
