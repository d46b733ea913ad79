/*
 * text_mutate.c - syntax-level mutations of MLIR text (text_mutate.h).
 *
 * Every mutation is a scan for the spans where it fits, a reservoir
 * choice of one (each candidate kept with probability 1/count, so no list
 * is built), and a splice.  The scans read MLIR's lexical shapes only:
 * `%name` values, `<2x?xf32>` shapes, dotted op names, numbers and lines.
 */
#include "text_mutate.h"

#include <ctype.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define N(a) (int)(sizeof a / sizeof *a)

static const char *const op_names[] = {
#define MTM_OP(name) name,
#include "text_ops.def"
#undef MTM_OP
};

static const char *const kind_names[MTM_NKINDS] = {
    "element-type", "dim",       "rank",    "swap",    "drop-line",
    "dup-line",     "attribute", "op-name", "ssa-use", "drop-token",
};

/* The element types a mutation recognises, then those it may also write. */
static const char *const elem_types[] = {
    "f16",           "bf16", "f32",  "f64",  "i1",       "i8",           "i16",
    "i32",           "i64",  "ui8",  "si8",  "ui32",     "si32",         "index",
    "tf32",          "i4",   "i128", "none", "f8E4M3FN", "complex<f32>", "vector<2xf32>",
    "!tosa.shape<1>"};
enum { ELEM_RECOGNISED = 14 };

static const char *const dim_values[] = {
    "?", "0", "1", "2", "3", "7", "65536", "2147483647", "4294967296", "9223372036854775807", "-1"};

static const char *const number_values[] = {
    "0",   "1",     "-1",         "2",           "3",          "4",
    "255", "65536", "2147483647", "-2147483648", "4294967296", "9223372036854775807",
    "0.5", "-0.0",  "1.0e+39",    "0x7FC00000",  "0xFF800000", "1.0e-45"};

const char *mtm_kind_name(MtmKind kind) {
  return kind < MTM_NKINDS ? kind_names[kind] : "?";
}

int mtm_op_count(void) {
  return N(op_names);
}

const char *mtm_op_name(int i) {
  return i >= 0 && i < N(op_names) ? op_names[i] : NULL;
}

uint64_t mtm_next(uint64_t *state) {
  uint64_t z = (*state += 0x9e3779b97f4a7c15ull);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return z ^ (z >> 31);
}

static size_t below(uint64_t *rng, size_t n) {
  return n ? (size_t)(mtm_next(rng) % n) : 0;
}

/* ---------------------------------------------------------------- picks */

typedef struct Span {
  size_t at, end;
} Span;

/* A reservoir of one: after every candidate has been offered, span is a
 * uniform choice among them. */
typedef struct Pick {
  Span span;
  size_t count;
} Pick;

static void offer(Pick *p, size_t at, size_t end, uint64_t *rng) {
  if (below(rng, ++p->count) == 0)
    p->span = (Span){at, end};
}

/* Replace text[at, end) by repl[0, rlen); len unchanged when it does not
 * fit in cap. */
static size_t splice(char *text, size_t len, size_t cap, Span s, const char *repl, size_t rlen) {
  size_t n = len - (s.end - s.at) + rlen;
  if (n > cap)
    return len;
  memmove(text + s.at + rlen, text + s.end, len - s.end);
  memcpy(text + s.at, repl, rlen);
  return n;
}

static size_t splice_str(char *text, size_t len, size_t cap, Span s, const char *repl) {
  return splice(text, len, cap, s, repl, strlen(repl));
}

/* ------------------------------------------------------------- lexemes */

static bool ident_char(char c) {
  return isalnum((unsigned char)c) || c == '_' || c == '$' || c == '.';
}

/* The end of the `%name` token at i (i itself when none starts there). */
static size_t ssa_end(const char *t, size_t len, size_t i) {
  if (i >= len || t[i] != '%')
    return i;
  size_t j = i + 1;
  while (j < len && ident_char(t[j]))
    j++;
  return j > i + 1 ? j : i;
}

static size_t line_end(const char *t, size_t len, size_t i) {
  while (i < len && t[i] != '\n')
    i++;
  return i;
}

static size_t skip_blank(const char *t, size_t len, size_t i) {
  while (i < len && (t[i] == ' ' || t[i] == '\t'))
    i++;
  return i;
}

/* Where the uses of a line begin: after the first '=' when the line
 * starts with a result (`%x = ...`), else at its start. */
static size_t uses_start(const char *t, size_t ls, size_t le) {
  size_t i = skip_blank(t, le, ls);
  if (i >= le || t[i] != '%')
    return ls;
  const char *eq = memchr(t + i, '=', le - i);
  return eq ? (size_t)(eq - t) + 1 : le;
}

/* Is the `%name` token [i, j) a use (not a result, not an argument
 * declared as `%a: type`)? */
static bool is_use(const char *t, size_t len, size_t j) {
  return !(j < len && t[j] == ':');
}

/* A dim of a shape starts at i: digits or '?' right after '<' or after a
 * dim's 'x', followed by 'x'.  Its end (the 'x' excluded) or 0. */
static size_t dim_end(const char *t, size_t len, size_t i) {
  if (i == 0 || !(t[i - 1] == '<' || (t[i - 1] == 'x' && i >= 2 &&
                                      (isdigit((unsigned char)t[i - 2]) || t[i - 2] == '?'))))
    return 0;
  size_t j = i;
  if (j < len && t[j] == '?')
    j++;
  else
    while (j < len && isdigit((unsigned char)t[j]))
      j++;
  return j > i && j < len && t[j] == 'x' ? j : 0;
}

/* An element type's word starts at i: not inside another word. */
static bool type_start(const char *t, size_t i) {
  if (i == 0)
    return true;
  char p = t[i - 1];
  if (p == 'x' && i >= 2 &&
      (isdigit((unsigned char)t[i - 2]) || t[i - 2] == '?' || t[i - 2] == '*'))
    return true;
  return !(ident_char(p) || p == '%' || p == '@' || p == '^' || p == '#' || p == '!' || p == '"');
}

/* The end of a number literal at i (decimal, float or hex), or 0. */
static size_t number_end(const char *t, size_t len, size_t i) {
  size_t j = i;
  if (j < len && t[j] == '-')
    j++;
  if (j >= len || !isdigit((unsigned char)t[j]))
    return 0;
  if (t[j] == '0' && j + 2 < len && t[j + 1] == 'x' && isxdigit((unsigned char)t[j + 2])) {
    j += 2;
    while (j < len && isxdigit((unsigned char)t[j]))
      j++;
    return j < len && t[j] == 'x' ? 0 : j; /* 0x3xf32 is a shape */
  }
  while (j < len && (isdigit((unsigned char)t[j]) || t[j] == '.'))
    j++;
  if (j < len && (t[j] == 'e' || t[j] == 'E')) {
    j++;
    if (j < len && (t[j] == '+' || t[j] == '-'))
      j++;
    while (j < len && isdigit((unsigned char)t[j]))
      j++;
  }
  return j < len && t[j] == 'x' ? 0 : j;
}

static int op_cmp(const void *key, const void *elem) {
  return strcmp(key, *(const char *const *)elem);
}

/* The index of the op name t[i, j) in the table, or -1. */
static int op_index(const char *t, size_t i, size_t j) {
  char name[64];
  if (j - i >= sizeof name)
    return -1;
  memcpy(name, t + i, j - i);
  name[j - i] = 0;
  const char *const *hit = bsearch(name, op_names, N(op_names), sizeof *op_names, op_cmp);
  return hit ? (int)(hit - op_names) : -1;
}

/* ----------------------------------------------------------- mutations */

/* The type that holds text[at] (`tensor<2x3xf32>`, from its word to its
 * closing '>'), or an empty span when at is not inside one. */
static Span enclosing_type(const char *t, size_t len, size_t at) {
  size_t w = at;
  while (w > 0 && !strchr(" ,():{}=\n\t", t[w - 1]))
    w--;
  const char *lt = memchr(t + w, '<', at - w);
  if (!lt)
    return (Span){at, at};
  size_t e = (size_t)(lt - t);
  for (int depth = 0; e < len; e++) {
    depth += (t[e] == '<') - (t[e] == '>');
    if (depth == 0)
      return e >= at ? (Span){w, e + 1} : (Span){at, at};
  }
  return (Span){at, at};
}

/* Replace the span s (inside a type) by repl: in that one place, or
 * (three times in four, the types of a module staying consistent, so that
 * the parser's type check of every use passes) in every occurrence of the
 * whole type that holds it. */
static size_t type_splice(char *t, size_t len, size_t cap, Span s, const char *repl,
                          uint64_t *rng) {
  Span ty = enclosing_type(t, len, s.at);
  size_t rlen = strlen(repl), olen = ty.end - ty.at;
  if (below(rng, 4) == 0 || olen == 0 || s.end > ty.end)
    return splice(t, len, cap, s, repl, rlen);
  char *old = malloc(olen), *out = malloc(cap + 1);
  size_t nlen = olen - (s.end - s.at) + rlen, n = 0, i = 0;
  char *neu = malloc(nlen + 1);
  if (!old || !out || !neu) {
    free(old), free(out), free(neu);
    return len;
  }
  memcpy(old, t + ty.at, olen);
  memcpy(neu, old, s.at - ty.at);
  memcpy(neu + (s.at - ty.at), repl, rlen);
  memcpy(neu + (s.at - ty.at) + rlen, old + (s.end - ty.at), ty.end - s.end);
  while (i < len && n <= cap) {
    bool hit = i + olen <= len && !memcmp(t + i, old, olen) && (i == 0 || !ident_char(t[i - 1]));
    if (hit && n + nlen <= cap)
      memcpy(out + n, neu, nlen), n += nlen, i += olen;
    else if (hit)
      n = cap + 1;
    else
      out[n++] = t[i++];
  }
  if (n <= cap)
    memcpy(t, out, n), len = n;
  free(old), free(out), free(neu);
  return len;
}

static size_t mutate_element_type(char *t, size_t len, size_t cap, uint64_t *rng) {
  Pick p = {{0, 0}, 0};
  for (size_t i = 0; i < len; i++) {
    if (!isalpha((unsigned char)t[i]) || !type_start(t, i))
      continue;
    for (int k = 0; k < ELEM_RECOGNISED; k++) {
      size_t n = strlen(elem_types[k]);
      if (i + n <= len && !memcmp(t + i, elem_types[k], n) &&
          (i + n == len || !isalnum((unsigned char)t[i + n]))) {
        offer(&p, i, i + n, rng);
        break;
      }
    }
  }
  if (!p.count)
    return len;
  return type_splice(t, len, cap, p.span, elem_types[below(rng, N(elem_types))], rng);
}

/* The integer that text starts with, plus delta, wrapping (no overflow). */
static long long plus(const char *text, int delta) {
  return (long long)((unsigned long long)strtoll(text, NULL, 10) + (unsigned long long)delta);
}

/* A new value for the dim text t[s): a value of the table or one near n. */
static void dim_value(const char *t, Span s, uint64_t *rng, char *out, size_t outlen) {
  const char *n = t[s.at] == '?' ? "4" : t + s.at;
  switch (below(rng, 4)) {
  case 0: snprintf(out, outlen, "%lld", plus(n, 1)); break;
  case 1: snprintf(out, outlen, "%lld", plus(n, -1)); break;
  default: snprintf(out, outlen, "%s", dim_values[below(rng, N(dim_values))]);
  }
}

static size_t mutate_dim(char *t, size_t len, size_t cap, uint64_t *rng) {
  Pick p = {{0, 0}, 0};
  for (size_t i = 1; i < len; i++) {
    size_t e = dim_end(t, len, i);
    if (e)
      offer(&p, i, e, rng);
  }
  if (!p.count)
    return len;
  char v[32];
  dim_value(t, p.span, rng, v, sizeof v);
  return type_splice(t, len, cap, p.span, v, rng);
}

/* The end of the run of dims (each with its 'x') that starts at i. */
static size_t dims_end(const char *t, size_t len, size_t i) {
  size_t e;
  while ((e = dim_end(t, len, i)) != 0)
    i = e + 1;
  return i;
}

static size_t mutate_rank(char *t, size_t len, size_t cap, uint64_t *rng) {
  Pick p = {{0, 0}, 0};
  for (size_t i = 1; i < len; i++) {
    size_t e = dim_end(t, len, i);
    if (e)
      offer(&p, i, e + 1, rng);
  }
  if (!p.count)
    return len;
  Span s = p.span;
  switch (below(rng, 4)) {
  case 0: return type_splice(t, len, cap, (Span){s.at, s.at}, below(rng, 2) ? "1x" : "3x", rng);
  case 1: return type_splice(t, len, cap, s, "", rng);
  case 2: /* the whole shape, when s is its first dim: unranked or rank 0 */
    if (t[s.at - 1] == '<')
      return type_splice(t, len, cap, (Span){s.at, dims_end(t, len, s.at)},
                         below(rng, 2) ? "*x" : "", rng);
    return type_splice(t, len, cap, s, "", rng);
  default: return type_splice(t, len, cap, (Span){s.at, s.at}, "?x", rng);
  }
}

enum { MAX_USES = 32 };

/* The uses on the line [ls, le), at most MAX_USES; their number. */
static int line_uses(const char *t, size_t len, size_t ls, size_t le, Span *out) {
  int n = 0;
  for (size_t i = uses_start(t, ls, le); i < le && n < MAX_USES; i++) {
    size_t j = ssa_end(t, len, i);
    if (j == i)
      continue;
    if (is_use(t, len, j))
      out[n++] = (Span){i, j};
    i = j - 1;
  }
  return n;
}

static bool same_text(const char *t, Span a, Span b) {
  return a.end - a.at == b.end - b.at && !memcmp(t + a.at, t + b.at, a.end - a.at);
}

static size_t mutate_swap(char *t, size_t len, size_t cap, uint64_t *rng) {
  Pick p = {{0, 0}, 0};
  Span uses[MAX_USES];
  for (size_t ls = 0; ls < len;) {
    size_t le = line_end(t, len, ls);
    if (line_uses(t, len, ls, le, uses) >= 2)
      offer(&p, ls, le, rng);
    ls = le + 1;
  }
  if (!p.count)
    return len;
  int n = line_uses(t, len, p.span.at, p.span.end, uses);
  int a = (int)below(rng, (size_t)n), b = (int)below(rng, (size_t)n - 1);
  b += b >= a;
  if (a > b) {
    int c = a;
    a = b, b = c;
  }
  if (same_text(t, uses[a], uses[b]))
    return len;
  char first[64], second[64];
  size_t fl = uses[a].end - uses[a].at, sl = uses[b].end - uses[b].at;
  if (fl >= sizeof first || sl >= sizeof second || len - fl + sl > cap || len - sl + fl > cap)
    return len;
  memcpy(first, t + uses[a].at, fl);
  memcpy(second, t + uses[b].at, sl);
  len = splice(t, len, cap, uses[b], first, fl); /* the later one first */
  return splice(t, len, cap, uses[a], second, sl);
}

/* Is the line [ls, le) an operation (not a brace, a function's or
 * module's header, or blank)? */
static bool op_line(const char *t, size_t ls, size_t le) {
  size_t i = skip_blank(t, le, ls);
  if (i >= le || !(t[i] == '%' || t[i] == '"' || isalpha((unsigned char)t[i])))
    return false;
  return !(le - i >= 9 && !memcmp(t + i, "func.func", 9)) &&
         !(le - i >= 6 && !memcmp(t + i, "module", 6));
}

/* A uniform choice of an operation's line (with its newline), or count 0;
 * with results only: lines that define values. */
static Pick pick_line(const char *t, size_t len, bool results, uint64_t *rng) {
  Pick p = {{0, 0}, 0};
  for (size_t ls = 0; ls < len;) {
    size_t le = line_end(t, len, ls);
    if (op_line(t, ls, le) && (!results || t[skip_blank(t, le, ls)] == '%'))
      offer(&p, ls, le < len ? le + 1 : le, rng);
    ls = le + 1;
  }
  return p;
}

static size_t mutate_drop_line(char *t, size_t len, size_t cap, uint64_t *rng) {
  Pick p = pick_line(t, len, false, rng);
  return p.count ? splice_str(t, len, cap, p.span, "") : len;
}

static size_t mutate_dup_line(char *t, size_t len, size_t cap, uint64_t *rng) {
  Pick p = pick_line(t, len, true, rng);
  if (!p.count)
    return len;
  Span s = p.span;
  size_t defs_end = uses_start(t, s.at, s.end);
  char copy[4096];
  size_t n = 0;
  unsigned tag = (unsigned)below(rng, 1000);
  for (size_t i = s.at; i < s.end && n + 16 < sizeof copy; i++) {
    copy[n++] = t[i];
    size_t j = ssa_end(t, len, i);
    if (i >= defs_end || j == i)
      continue;
    if (n + (j - i) + 8 >= sizeof copy)
      return len; /* a name too long to copy: no change */
    /* `%d<tag>_` before the name: a name may not start with a digit
     * unless it is all digits (`%12`). */
    n += (size_t)snprintf(copy + n, sizeof copy - n, "d%u_", tag);
    memcpy(copy + n, t + i + 1, j - i - 1);
    n += j - i - 1;
    i = j - 1;
  }
  if (n && copy[n - 1] != '\n')
    copy[n++] = '\n';
  return splice(t, len, cap, (Span){s.end, s.end}, copy, n);
}

static size_t mutate_attribute(char *t, size_t len, size_t cap, uint64_t *rng) {
  Pick p = {{0, 0}, 0};
  for (size_t i = 0; i < len; i++) {
    if (i > 0 && (ident_char(t[i - 1]) || t[i - 1] == '%' || t[i - 1] == '#' || t[i - 1] == '^' ||
                  t[i - 1] == '-'))
      continue;
    size_t e = number_end(t, len, i);
    if (!e && len - i >= 4 && !memcmp(t + i, "true", 4))
      e = i + 4;
    else if (!e && len - i >= 5 && !memcmp(t + i, "false", 5))
      e = i + 5;
    if (e && e > i && !(e < len && ident_char(t[e]) && t[e] != '.'))
      offer(&p, i, e, rng), i = e - 1;
  }
  if (!p.count)
    return len;
  Span s = p.span;
  if (t[s.at] == 't' || t[s.at] == 'f')
    return splice_str(t, len, cap, s, t[s.at] == 't' ? "false" : "true");
  char v[32];
  if (below(rng, 3) == 0)
    snprintf(v, sizeof v, "%lld", plus(t + s.at, below(rng, 2) ? 1 : -1));
  else
    snprintf(v, sizeof v, "%s", number_values[below(rng, N(number_values))]);
  return splice_str(t, len, cap, s, v);
}

/* Another op name for table entry k: of its dialect two times in three. */
static const char *other_op(int k, uint64_t *rng) {
  if (below(rng, 3) == 0)
    return op_names[below(rng, N(op_names))];
  const char *dot = strchr(op_names[k], '.');
  size_t plen = (size_t)(dot - op_names[k]) + 1;
  int lo = k, hi = k;
  while (lo > 0 && !strncmp(op_names[lo - 1], op_names[k], plen))
    lo--;
  while (hi + 1 < N(op_names) && !strncmp(op_names[hi + 1], op_names[k], plen))
    hi++;
  return op_names[lo + (int)below(rng, (size_t)(hi - lo + 1))];
}

static size_t mutate_op_name(char *t, size_t len, size_t cap, uint64_t *rng) {
  Pick p = {{0, 0}, 0};
  int which = -1;
  for (size_t i = 0; i < len; i++) {
    if (!islower((unsigned char)t[i]) ||
        (i > 0 && (ident_char(t[i - 1]) || t[i - 1] == '%' || t[i - 1] == '@' || t[i - 1] == '#' ||
                   t[i - 1] == '!' || t[i - 1] == '^')))
      continue;
    size_t j = i;
    while (j < len && (islower((unsigned char)t[j]) || isdigit((unsigned char)t[j]) ||
                       t[j] == '_' || t[j] == '.'))
      j++;
    int k = memchr(t + i, '.', j - i) ? op_index(t, i, j) : -1;
    if (k >= 0 && !strcmp(op_names[k], "func.func"))
      k = -1; /* a function's header: its parser, renamed, only says no */
    if (k >= 0) {
      offer(&p, i, j, rng);
      if (p.span.at == i)
        which = k;
    }
    i = j - 1;
  }
  if (!p.count)
    return len;
  const char *name = other_op(which, rng);
  for (int tries = 0; tries < 4 && !strcmp(name, op_names[which]); tries++)
    name = other_op(which, rng);
  return splice_str(t, len, cap, p.span, name);
}

static size_t mutate_ssa_use(char *t, size_t len, size_t cap, uint64_t *rng) {
  Pick use = {{0, 0}, 0};
  Span uses[MAX_USES];
  for (size_t ls = 0; ls < len;) {
    size_t le = line_end(t, len, ls);
    int n = line_uses(t, len, ls, le, uses);
    for (int k = 0; k < n; k++)
      offer(&use, uses[k].at, uses[k].end, rng);
    ls = le + 1;
  }
  if (!use.count)
    return len;
  Pick other = {{0, 0}, 0}; /* a value named before the use, by another name */
  for (size_t i = 0; i < use.span.at; i++) {
    size_t j = ssa_end(t, len, i);
    if (j == i)
      continue;
    if (!same_text(t, (Span){i, j}, use.span))
      offer(&other, i, j, rng);
    i = j - 1;
  }
  if (!other.count)
    return len;
  char name[64];
  size_t n = other.span.end - other.span.at;
  if (n >= sizeof name)
    return len;
  memcpy(name, t + other.span.at, n);
  return splice(t, len, cap, use.span, name, n);
}

/* A token of an op's line: a word, a number, a `%value`, or one
 * punctuation character, with the blanks after it. */
static size_t mutate_drop_token(char *t, size_t len, size_t cap, uint64_t *rng) {
  Pick line = pick_line(t, len, false, rng);
  if (!line.count)
    return len;
  Pick p = {{0, 0}, 0};
  size_t i = skip_blank(t, line.span.end, line.span.at);
  while (i < line.span.end && t[i] != '\n') {
    size_t j = i + 1;
    if (ident_char(t[i]) || t[i] == '%' || t[i] == '-')
      while (j < line.span.end && ident_char(t[j]))
        j++;
    j = skip_blank(t, line.span.end, j);
    offer(&p, i, j, rng);
    i = j;
  }
  return p.count ? splice_str(t, len, cap, p.span, "") : len;
}

size_t mtm_mutate(char *text, size_t len, size_t cap, MtmKind kind, uint64_t *rng) {
  switch (kind) {
  case MTM_ELEMENT_TYPE: return mutate_element_type(text, len, cap, rng);
  case MTM_DIM: return mutate_dim(text, len, cap, rng);
  case MTM_RANK: return mutate_rank(text, len, cap, rng);
  case MTM_SWAP: return mutate_swap(text, len, cap, rng);
  case MTM_DROP_LINE: return mutate_drop_line(text, len, cap, rng);
  case MTM_DUP_LINE: return mutate_dup_line(text, len, cap, rng);
  case MTM_ATTRIBUTE: return mutate_attribute(text, len, cap, rng);
  case MTM_OP_NAME: return mutate_op_name(text, len, cap, rng);
  case MTM_SSA_USE: return mutate_ssa_use(text, len, cap, rng);
  case MTM_DROP_TOKEN: return mutate_drop_token(text, len, cap, rng);
  default: return len;
  }
}

size_t mtm_splice_line(char *text, size_t len, size_t cap, const char *other, size_t olen,
                       uint64_t *rng) {
  Pick line = pick_line(other, olen, false, rng);
  if (!line.count)
    return len;
  Pick at = {{0, 0}, 0};
  for (size_t i = 0; i < len; i++)
    if (text[i] == '\n')
      offer(&at, i + 1, i + 1, rng);
  if (!at.count)
    return len;
  Span s = line.span;
  size_t n = s.end - s.at;
  if (n == 0 || other[s.end - 1] != '\n')
    return len; /* the other's last line, without its newline */
  return splice(text, len, cap, at.span, other + s.at, n);
}
