/*
 * lex.c - the lexer of the Relay text format (docs/text-format.md): bytes
 * into the token array the parser (parse.c) reads.
 *
 * The input is any bytes.  The whole input is lexed before parsing starts,
 * so the parser has arbitrary lookahead and a cheap way to skip.  A bad
 * byte, an unterminated comment or string, or a bad escape does not stop
 * the lexer: it becomes a TK_ERR token carrying its message, and the
 * parser reports it (with the token's line and column) only if it gets
 * there.  Every token keeps its position and its text in the source.
 *
 * Tokens: identifiers (dotted: nn.conv2d) and keywords; %x locals, %0
 * graph bindings and @f globals; numbers (decimal, with an optional
 * fraction and exponent and an alphanumeric suffix such as f32 or i64,
 * which the parser interprets, or hexadecimal, for NaN payloads; after a
 * `.` only digits, so %t.0.1 is two projections); strings with \" \\ \n
 * \t \r \xHH escapes; and punctuation.  Comments run from // to the end of the
 * line, or are block comments, which nest.
 *
 * The lexer runs on every program the round-trip oracle prints, so it
 * is written for speed: character classes come from a table and
 * punctuation from a switch (the fuzz build traces every comparison), and
 * the source is zero-padded so that looking ahead needs no bounds check.
 */
#include <stdlib.h>
#include <string.h>

#include "parse_int.h"

/* The keywords; every other word is a TK_IDENT. */
static const struct {
  const char *word;
  TokKind k;
} keywords[] = {
    {"def", TK_DEF},
    {"type", TK_TYPE},
    {"fn", TK_FN},
    {"let", TK_LET},
    {"if", TK_IF},
    {"else", TK_ELSE},
    {"match", TK_MATCH},
    {"free_var", TK_FREE_VAR},
    {"ref", TK_REF},
    {"ref_read", TK_REF_READ},
    {"ref_write", TK_REF_WRITE},
    {"True", TK_TRUE},
    {"False", TK_FALSE},
    {"_", TK_UNDERSCORE},
};

/* The lexer's state: the cursor, its line, and the tokens so far. */
typedef struct Lexer {
  const char *src; /* NUL-terminated copy; may hold NULs before len */
  size_t len, i;
  int line;
  size_t line_start;
  Arena *a;
  Tok *toks;
  int ntok, cap;
} Lexer;

/* Character classes of the lexer (ASCII only: other bytes are errors),
 * looked up in a table: the lexer runs on every byte the round-trip oracle
 * prints, and a table needs no comparisons (which the fuzz build traces). */
enum { CC_ALPHA = 1, CC_DIGIT = 2, CC_HEX = 4 };
static const unsigned char cclass[256] = {
    ['0' ... '9'] = CC_DIGIT | CC_HEX, ['a' ... 'f'] = CC_ALPHA | CC_HEX, ['g' ... 'z'] = CC_ALPHA,
    ['A' ... 'F'] = CC_ALPHA | CC_HEX, ['G' ... 'Z'] = CC_ALPHA,          ['_'] = CC_ALPHA,
};
static bool is_alpha(int c) {
  return cclass[(unsigned char)c] & CC_ALPHA;
}
static bool is_digit(int c) {
  return cclass[(unsigned char)c] & CC_DIGIT;
}
static bool is_alnum(int c) {
  return cclass[(unsigned char)c] & (CC_ALPHA | CC_DIGIT);
}
static bool is_hex(int c) {
  return cclass[(unsigned char)c] & CC_HEX;
}

/* The byte at offset k from the cursor, or 0 past the end.  The source
 * copy is followed by LEX_PAD zero bytes and the cursor never passes
 * len + 1 (it only steps over bytes read as non-zero, plus one after an
 * escape backslash), so k <= 2 stays inside without a bounds check. */
static int at_(const Lexer *L, size_t k) {
  return (unsigned char)L->src[L->i + k];
}

/* Appends a token starting at byte `start` and ending at the cursor. */
static Tok *emit(Lexer *L, TokKind k, size_t start, int line, int col) {
  if (L->ntok == L->cap) {
    int nc = L->cap ? 2 * L->cap : 256;
    Tok *t = ARENA_ARRAY(L->a, Tok, nc);
    if (L->ntok)
      memcpy(t, L->toks, sizeof(Tok) * (size_t)L->ntok);
    L->toks = t, L->cap = nc;
  }
  Tok *t = &L->toks[L->ntok++];
  memset(t, 0, sizeof *t);
  t->k = k, t->line = line, t->col = col;
  t->s = L->src + start;
  t->len = (int)(L->i - start);
  return t;
}

/* Appends a TK_ERR token; the parser reports msg when it reaches it. */
static Tok *lex_error(Lexer *L, size_t start, int line, int col, const char *msg) {
  Tok *t = emit(L, TK_ERR, start, line, col);
  t->str = msg;
  return t;
}

/* Skips whitespace and comments; returns false after an error token. */
static bool skip_space(Lexer *L) {
  for (;;) {
    int c = at_(L, 0);
    if (L->i >= L->len)
      return true;
    if (c == '\n') {
      L->i++, L->line++, L->line_start = L->i;
    } else if (c == ' ' || c == '\t' || c == '\r') {
      L->i++;
    } else if (c == '/' && at_(L, 1) == '/') {
      while (L->i < L->len && L->src[L->i] != '\n')
        L->i++;
    } else if (c == '/' && at_(L, 1) == '*') {
      size_t start = L->i;
      int line = L->line, col = (int)(L->i - L->line_start) + 1, depth = 0;
      do {
        if (L->i >= L->len) {
          L->i = start + 2;
          lex_error(L, start, line, col, "unterminated block comment");
          L->i = L->len;
          return false;
        }
        if (at_(L, 0) == '/' && at_(L, 1) == '*')
          depth++, L->i += 2;
        else if (at_(L, 0) == '*' && at_(L, 1) == '/')
          depth--, L->i += 2;
        else if (at_(L, 0) == '\n')
          L->i++, L->line++, L->line_start = L->i;
        else
          L->i++;
      } while (depth > 0);
    } else {
      return true;
    }
  }
}

/* Lexes a number; after a `.` only digits (so %t.0.1 is two projections). */
static void lex_number(Lexer *L, size_t start, int line, int col, bool after_dot) {
  bool fl = false, hex = false;
  if (!after_dot && at_(L, 0) == '0' && (at_(L, 1) == 'x' || at_(L, 1) == 'X') &&
      is_hex(at_(L, 2))) {
    L->i += 2, hex = true;
    while (is_hex(at_(L, 0)))
      L->i++;
  } else {
    while (is_digit(at_(L, 0)))
      L->i++;
    if (!after_dot && at_(L, 0) == '.' && is_digit(at_(L, 1))) {
      fl = true, L->i++;
      while (is_digit(at_(L, 0)))
        L->i++;
    }
    int e = at_(L, 0), s = at_(L, 1);
    if (!after_dot && (e == 'e' || e == 'E') &&
        (is_digit(s) || ((s == '+' || s == '-') && is_digit(at_(L, 2))))) {
      fl = true, L->i += 2;
      while (is_digit(at_(L, 0)))
        L->i++;
    }
  }
  size_t numend = L->i;
  if (!after_dot && !hex)
    while (is_alnum(at_(L, 0)))
      L->i++;
  Tok *t = emit(L, TK_NUM, start, line, col);
  t->numlen = (int)(numend - start);
  t->is_float = fl, t->is_hex = hex;
}

/* Lexes a string literal with \" \\ \n \t \r \xHH escapes. */
static void lex_string(Lexer *L, size_t start, int line, int col) {
  char *out = arena_alloc(L->a, L->len - L->i + 1);
  size_t n = 0;
  L->i++;
  for (;;) {
    int c = at_(L, 0);
    if (L->i >= L->len || c == '\n') {
      lex_error(L, start, line, col, "unterminated string literal");
      return;
    }
    L->i++;
    if (c == '"')
      break;
    if (c == 0) {
      lex_error(L, L->i - 1, line, (int)(L->i - 1 - L->line_start) + 1,
                "a NUL byte in a string literal");
      return;
    }
    if (c != '\\') {
      out[n++] = (char)c;
      continue;
    }
    int e = at_(L, 0);
    L->i++;
    if (e == '"' || e == '\\')
      out[n++] = (char)e;
    else if (e == 'n')
      out[n++] = '\n';
    else if (e == 't')
      out[n++] = '\t';
    else if (e == 'r')
      out[n++] = '\r';
    else if (e == 'x' && is_hex(at_(L, 0)) && is_hex(at_(L, 1))) {
      char hx[3] = {(char)at_(L, 0), (char)at_(L, 1), 0};
      long v = strtol(hx, NULL, 16);
      L->i += 2;
      if (v == 0) {
        lex_error(L, start, line, col, "`\\x00` cannot appear in a string");
        return;
      }
      out[n++] = (char)v;
    } else {
      lex_error(L, start, line, col, "invalid escape sequence in a string literal");
      return;
    }
  }
  out[n] = 0;
  emit(L, TK_STR, start, line, col)->str = out;
}

/* Lexes an identifier (dotted: nn.conv2d) or a keyword. */
static void lex_ident(Lexer *L, size_t start, int line, int col) {
  for (;;) {
    while (is_alnum(at_(L, 0)))
      L->i++;
    if (at_(L, 0) == '.' && is_alpha(at_(L, 1)))
      L->i++;
    else
      break;
  }
  size_t n = L->i - start;
  TokKind k = TK_IDENT;
  for (size_t j = 0; j < sizeof keywords / sizeof keywords[0]; j++)
    if (keywords[j].word[0] == L->src[start] && strlen(keywords[j].word) == n &&
        memcmp(keywords[j].word, L->src + start, n) == 0)
      k = keywords[j].k;
  if (k == TK_MATCH && at_(L, 0) == '?')
    L->i++, k = TK_MATCHQ;
  emit(L, k, start, line, col);
}

/* A one- or two-character punctuation token, or false.  Two-character
 * tokens win: == != <= >= -> =>, then ( ) [ ] { } , ; : . = < > + - * / # ?
 * (by a switch on the bytes, not string compares: this is on the
 * round-trip oracle's hot path). */
static bool lex_punct(Lexer *L, size_t start, int line, int col) {
  int c = at_(L, 0), d = at_(L, 1); /* 0 past the end matches nothing */
  TokKind k;
  size_t n = 1;
  switch (c) {
  case '=': k = d == '=' ? (n = 2, TK_EQEQ) : d == '>' ? (n = 2, TK_FATARROW) : TK_EQ; break;
  case '!':
    if (d != '=')
      return false;
    k = TK_NE, n = 2;
    break;
  case '<': k = d == '=' ? (n = 2, TK_LE) : TK_LT; break;
  case '>': k = d == '=' ? (n = 2, TK_GE) : TK_GT; break;
  case '-': k = d == '>' ? (n = 2, TK_ARROW) : TK_MINUS; break;
  case '(': k = TK_LPAREN; break;
  case ')': k = TK_RPAREN; break;
  case '[': k = TK_LBRACK; break;
  case ']': k = TK_RBRACK; break;
  case '{': k = TK_LBRACE; break;
  case '}': k = TK_RBRACE; break;
  case ',': k = TK_COMMA; break;
  case ';': k = TK_SEMI; break;
  case ':': k = TK_COLON; break;
  case '.': k = TK_DOT; break;
  case '+': k = TK_PLUS; break;
  case '*': k = TK_STAR; break;
  case '/': k = TK_SLASH; break;
  case '#': k = TK_HASH; break;
  case '?': k = TK_QUESTION; break;
  default: return false;
  }
  if (L->i >= L->len)
    return false;
  L->i += n;
  emit(L, k, start, line, col);
  return true;
}

/* Lexes the whole input (see parse_int.h); the last token is TK_EOF. */
Tok *ir_lex(const char *text, size_t len, Arena *a, int *ntok) {
  Lexer lexer = {.src = text, .len = len, .line = 1, .a = a}, *L = &lexer;
  for (;;) {
    if (!skip_space(L) || L->i >= L->len)
      break;
    size_t start = L->i;
    int line = L->line, col = (int)(L->i - L->line_start) + 1;
    int c = at_(L, 0);
    if (is_digit(c)) {
      bool after_dot = L->ntok && L->toks[L->ntok - 1].k == TK_DOT;
      lex_number(L, start, line, col, after_dot);
    } else if (is_alpha(c)) {
      lex_ident(L, start, line, col);
    } else if (c == '%' || c == '@') {
      L->i++;
      if (is_alpha(at_(L, 0))) {
        while (is_alnum(at_(L, 0)))
          L->i++;
        emit(L, c == '%' ? TK_LOCAL : TK_GLOBAL, start, line, col);
      } else if (c == '%' && is_digit(at_(L, 0))) {
        while (is_digit(at_(L, 0)))
          L->i++;
        emit(L, TK_GRAPH, start, line, col);
      } else {
        lex_error(L, start, line, col,
                  c == '%' ? "expected a name or a number after `%`" : "expected a name after `@`");
      }
    } else if (c == '"') {
      lex_string(L, start, line, col);
    } else if (!lex_punct(L, start, line, col)) {
      L->i++;
      char *msg = c >= 0x20 && c < 0x7f ? arena_printf(L->a, "unexpected character `%c`", c)
                                        : arena_printf(L->a, "unexpected byte 0x%02x", c);
      lex_error(L, start, line, col, msg);
    }
  }
  size_t end = L->i;
  emit(L, TK_EOF, end, L->line, (int)(end - L->line_start) + 1);
  *ntok = L->ntok;
  return L->toks;
}

/* `text` of a token for messages (see parse_int.h). */
const char *ir_tok_describe(Arena *a, const Tok *t) {
  if (t->k == TK_EOF)
    return "end of input";
  int n = t->len < 24 ? t->len : 24;
  char *s = arena_alloc(a, (size_t)n + 8);
  s[0] = '`';
  for (int i = 0; i < n; i++) {
    unsigned char c = (unsigned char)t->s[i];
    s[i + 1] = c >= 0x20 && c < 0x7f ? (char)c : '?';
  }
  strcpy(s + n + 1, t->len > n ? "...`" : "`");
  return s;
}

/* A dtype name or one of TVM's aliases (see parse_int.h). */
bool ir_dtype_parse_text(const char *name, size_t len, DType *out) {
  static const struct {
    const char *alias, *dtype;
  } aliases[] = {
      {"int", "int32"}, {"float", "float32"}, {"uint", "uint32"}, {"bfloat", "bfloat16"}};
  for (size_t i = 0; i < sizeof aliases / sizeof aliases[0]; i++)
    if (strlen(aliases[i].alias) == len && memcmp(aliases[i].alias, name, len) == 0)
      return ir_dtype_parse(aliases[i].dtype, strlen(aliases[i].dtype), out);
  return ir_dtype_parse(name, len, out);
}
