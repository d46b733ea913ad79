/*
 * parse_int.h - what the lexer (lex.c) and the parser (parse.c) of the
 * Relay text format share: the tokens, the lexer's entry point and the
 * helpers that read a token's text.  Private to those two files.
 */
#ifndef RELAYC_PARSE_INT_H
#define RELAYC_PARSE_INT_H

#include <string.h>

#include "ir.h"

typedef enum TokKind {
  TK_EOF,
  TK_ERR, /* a lexical error; str is the message */
  TK_IDENT,
  TK_LOCAL,  /* %x */
  TK_GLOBAL, /* @f */
  TK_GRAPH,  /* %0 */
  TK_NUM,
  TK_STR, /* str is the decoded value */
  /* keywords */
  TK_DEF,
  TK_TYPE,
  TK_FN,
  TK_LET,
  TK_IF,
  TK_ELSE,
  TK_MATCH,
  TK_MATCHQ, /* match? */
  TK_FREE_VAR,
  TK_REF,
  TK_REF_READ,
  TK_REF_WRITE,
  TK_TRUE,
  TK_FALSE,
  TK_UNDERSCORE,
  /* punctuation */
  TK_LPAREN,
  TK_RPAREN,
  TK_LBRACK,
  TK_RBRACK,
  TK_LBRACE,
  TK_RBRACE,
  TK_COMMA,
  TK_SEMI,
  TK_COLON,
  TK_DOT,
  TK_EQ,
  TK_EQEQ,
  TK_NE,
  TK_LT,
  TK_LE,
  TK_GT,
  TK_GE,
  TK_PLUS,
  TK_MINUS,
  TK_STAR,
  TK_SLASH,
  TK_ARROW,    /* -> */
  TK_FATARROW, /* => */
  TK_HASH,
  TK_QUESTION, /* ? (an Any dim) */
} TokKind;

typedef struct Tok {
  TokKind k;
  int line, col;
  const char *s; /* the token's text in the source */
  int len;
  const char *str; /* TK_STR: decoded string; TK_ERR: message */
  int numlen;      /* TK_NUM: length of the numeric part (the rest is a suffix) */
  bool is_float;   /* TK_NUM: has a fraction or an exponent */
  bool is_hex;     /* TK_NUM: 0x... */
} Tok;

/* The source the lexer reads is followed by LEX_PAD zero bytes, so that it
 * can look a few bytes ahead without a bounds check. */
enum { LEX_PAD = 8 };

/* Lexes text[0..len) (followed by LEX_PAD zero bytes; NULs inside are
 * errors) into an array of tokens in arena a, ending with TK_EOF; *ntok
 * receives the count.  A lexical error becomes a TK_ERR token carrying its
 * message, which the parser reports when it reaches it. */
Tok *ir_lex(const char *text, size_t len, Arena *a, int *ntok);

/* A token quoted for messages: `text` (at most 24 bytes, unprintables as
 * ?, longer ones cut with ...), or "end of input"; in arena a. */
const char *ir_tok_describe(Arena *a, const Tok *t);

/* A dtype name as TVM's text reads it: a relayc dtype, or one of TVM's
 * aliases `int` (int32), `float` (float32), `uint` (uint32) and `bfloat`
 * (bfloat16), when relayc has that dtype.  The parser and the printer
 * (which must not name a type variable so) share it. */
bool ir_dtype_parse_text(const char *name, size_t len, DType *out);

/* Is the token's text exactly word? */
static inline bool tok_is(const Tok *t, const char *word) {
  return (size_t)t->len == strlen(word) && memcmp(t->s, word, (size_t)t->len) == 0;
}

#endif
