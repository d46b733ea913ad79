/*
 * choice.c - the choice stream over the input bytes (see choice.h for the
 * byte layout and the mapping of bytes to choices).
 */
#include <string.h>

#include "choice.h"

/* The Chooser entry point used by operator solvers. */
static uint32_t chooser_below(Chooser *c, uint32_t n) {
  return gen_stream_below((GenStream *)c, n);
}

void gen_stream_init(GenStream *s, const uint8_t *data, size_t size) {
  memset(s, 0, sizeof *s);
  s->ch.below = chooser_below;
  s->data = data;
  s->size = size;
  size_t h = size < GEN_HEADER_BYTES ? size : GEN_HEADER_BYTES;
  if (h)
    memcpy(s->header, data, h);
  s->pos = size < GEN_HEADER_BYTES ? size : GEN_HEADER_BYTES;
}

int gen_choice_width(uint32_t n) {
  return n <= 1 ? 0 : n <= 256 ? 1 : n <= 65536 ? 2 : 4;
}

uint32_t gen_stream_below_wide(GenStream *s, uint32_t n) {
  int w = gen_choice_width(n);
  uint64_t v = 0;
  for (int i = 0; i < w; i++)
    v = v << 8 | gen_stream_byte(s);
  return (uint32_t)((v * n) >> (8 * w));
}

int gen_choice_encode(uint32_t k, uint32_t n, uint8_t *out) {
  int w = gen_choice_width(n);
  if (w == 0)
    return 0;
  /* The smallest v with (v * n) >> bits == k is ceil(k * 2^bits / n). */
  uint64_t v = (((uint64_t)k << (8 * w)) + n - 1) / n;
  for (int i = w - 1; i >= 0; i--, v >>= 8)
    out[i] = (uint8_t)v;
  return w;
}

int gen_stream_weighted(GenStream *s, const uint32_t *weight, int n) {
  uint32_t sum = 0;
  for (int i = 0; i < n; i++)
    sum += weight[i];
  return gen_stream_pick(s, weight, n, sum);
}
