/*
 * choice.h - the choice stream: every random decision the generator makes
 * is read from the input bytes through here.
 *
 * Layout of an input:
 *   bytes [0, GEN_HEADER_BYTES)  the header: the swarm configuration (size
 *                                budget, tensor size, features and operators
 *                                disabled).  Missing header bytes read as 0,
 *                                which means "the policy's defaults".
 *   bytes [GEN_HEADER_BYTES, ..) the body: one or more bytes per choice, read
 *                                front to back and never from the end.
 *
 * Rules (the choice stream of docs/architecture.md, "Data flow"):
 *   - decoding is total: out of bytes, every choice is 0;
 *   - choice 0 is the simplest option, so shrinking bytes toward 0 shrinks
 *     the program;
 *   - a choice among n options reads 1 byte when n <= 256, 2 bytes (big
 *     endian) when n <= 65536, else 4, and maps the value v of those bytes
 *     to (v * n) >> bits: monotone, so a smaller byte never picks a later
 *     option, and each option owns a contiguous run of byte values;
 *   - a choice among one option reads nothing (options are filtered before
 *     any byte is spent).
 *
 * The stream is also an op.h Chooser, so operator solvers draw their
 * freedoms from the same bytes.
 */
#ifndef RS_GEN_CHOICE_H
#define RS_GEN_CHOICE_H

#include <stddef.h>
#include <stdint.h>

#include "compiler/ops/op.h"

enum { GEN_HEADER_BYTES = 16 };

typedef struct GenStream {
  Chooser ch; /* first member: solvers receive &stream->ch */
  const uint8_t *data;
  size_t size;
  size_t pos; /* next body byte; never beyond size */
  uint8_t header[GEN_HEADER_BYTES];
} GenStream;

/* Start reading data (which must outlive the stream). */
void gen_stream_init(GenStream *s, const uint8_t *data, size_t size);
/* The next raw body byte, 0 when out of bytes. */
static inline uint8_t gen_stream_byte(GenStream *s) {
  return s->pos < s->size ? s->data[s->pos++] : 0;
}
/* gen_stream_below for n > 256 (two or four bytes). */
uint32_t gen_stream_below_wide(GenStream *s, uint32_t n);
/* A choice in [0, n); 0 when n <= 1 (no byte read) or out of bytes.
 * Inline: the generator makes several per node, nearly all of one byte. */
static inline uint32_t gen_stream_below(GenStream *s, uint32_t n) {
  if (n > 256)
    return gen_stream_below_wide(s, n);
  return n <= 1 ? 0 : ((uint32_t)gen_stream_byte(s) * n) >> 8;
}
/* Pick an index i with probability weight[i] / sum; zero weights are never
 * picked unless all are zero, in which case 0 is returned.  Reads like
 * gen_stream_below(sum). */
int gen_stream_weighted(GenStream *s, const uint32_t *weight, int n);
/* gen_stream_weighted when the caller has the weights' sum (inline:
 * the generator picks a weighted option at every node). */
static inline int gen_stream_pick(GenStream *s, const uint32_t *weight, int n, uint32_t sum) {
  if (sum == 0)
    return 0;
  uint32_t r = gen_stream_below(s, sum);
  int i = 0;
  for (; i < n - 1 && r >= weight[i]; i++) /* r < sum: stops by n - 1 */
    r -= weight[i];
  return i;
}
/* Bytes a choice among n options reads (0, 1, 2 or 4). */
int gen_choice_width(uint32_t n);
/* Encode choice k of n into out (gen_choice_width(n) bytes, at most 4):
 * the smallest byte string that decodes to k.  Returns the width. */
int gen_choice_encode(uint32_t k, uint32_t n, uint8_t *out);

#endif
