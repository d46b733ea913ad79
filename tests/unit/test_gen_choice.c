/* The choice stream (generator/choice.c): byte layout, the mapping of
 * bytes to choices, totality out of bytes, weighted choices, encoding. */
#include "generator/choice.h"
#include "test.h"

/* Bytes consumed per choice: 0 for one option, then 1, 2, 4. */
static void test_widths(void) {
  CHECK(gen_choice_width(0) == 0);
  CHECK(gen_choice_width(1) == 0);
  CHECK(gen_choice_width(2) == 1);
  CHECK(gen_choice_width(256) == 1);
  CHECK(gen_choice_width(257) == 2);
  CHECK(gen_choice_width(65536) == 2);
  CHECK(gen_choice_width(65537) == 4);
}

/* The header is the first 16 bytes; the body starts after it. */
static void test_header(void) {
  uint8_t data[20];
  for (int i = 0; i < 20; i++)
    data[i] = (uint8_t)(100 + i);
  GenStream s;
  gen_stream_init(&s, data, sizeof data);
  CHECK(s.header[0] == 100 && s.header[15] == 115);
  CHECK(s.pos == 16);
  CHECK(gen_stream_byte(&s) == 116);
  /* A short input: the header is padded with zeros, the body is empty. */
  gen_stream_init(&s, data, 5);
  CHECK(s.header[4] == 104 && s.header[5] == 0 && s.header[15] == 0);
  CHECK(s.pos == 5);
  CHECK(gen_stream_byte(&s) == 0);
  CHECK(gen_stream_below(&s, 200) == 0);
  /* The empty input. */
  gen_stream_init(&s, NULL, 0);
  CHECK(s.header[0] == 0 && gen_stream_below(&s, 1000) == 0);
}

/* (v * n) >> 8 for one byte: hand-computed values. */
static void test_mapping(void) {
  uint8_t body[16 + 6] = {0};
  body[16] = 0;    /* 0 of 3 */
  body[17] = 85;   /* 85 * 3 / 256 = 0.99 -> 0 */
  body[18] = 86;   /* 86 * 3 / 256 = 1.007 -> 1 */
  body[19] = 255;  /* 255 * 3 / 256 = 2.99 -> 2 */
  body[20] = 0x80; /* two bytes 0x8000 of 1000: 500 */
  body[21] = 0x00;
  GenStream s;
  gen_stream_init(&s, body, sizeof body);
  CHECK(gen_stream_below(&s, 3) == 0);
  CHECK(gen_stream_below(&s, 3) == 0);
  CHECK(gen_stream_below(&s, 3) == 1);
  CHECK(gen_stream_below(&s, 3) == 2);
  CHECK(gen_stream_below(&s, 1000) == 500);
  CHECK(s.pos == sizeof body);
  /* One option reads nothing. */
  CHECK(gen_stream_below(&s, 1) == 0 && s.pos == sizeof body);
}

/* Monotone: a smaller byte never gives a later option. */
static void test_monotone(void) {
  for (uint32_t n = 2; n <= 256; n++) {
    uint32_t prev = 0;
    bool ok = true, all = true;
    bool seen[256] = {false};
    for (int b = 0; b < 256; b++) {
      uint8_t d[17] = {0};
      d[16] = (uint8_t)b;
      GenStream s;
      gen_stream_init(&s, d, sizeof d);
      uint32_t k = gen_stream_below(&s, n);
      ok &= k >= prev && k < n;
      prev = k;
      seen[k] = true;
    }
    for (uint32_t k = 0; k < n; k++)
      all &= seen[k];
    CHECK_MSG(ok && all, "n = %u", n);
  }
}

/* encode(k, n) is the smallest byte string that decodes to k. */
static void test_encode(void) {
  uint32_t ns[] = {2, 3, 7, 200, 256, 257, 1000, 65536, 70000, 4000000000u};
  for (size_t i = 0; i < sizeof ns / sizeof *ns; i++) {
    uint32_t n = ns[i];
    uint32_t ks[] = {0, 1, n / 3, n / 2, n - 1};
    for (size_t j = 0; j < 5; j++) {
      uint8_t d[16 + 4] = {0};
      int w = gen_choice_encode(ks[j], n, d + 16);
      CHECK(w == gen_choice_width(n));
      GenStream s;
      gen_stream_init(&s, d, 16 + (size_t)w);
      CHECK_MSG(gen_stream_below(&s, n) == ks[j], "k %u of n %u", ks[j], n);
      if (ks[j] > 0) { /* one less decodes to the previous option */
        uint64_t v = 0;
        for (int b = 0; b < w; b++)
          v = v << 8 | d[16 + b];
        v--;
        for (int b = w - 1; b >= 0; b--, v >>= 8)
          d[16 + b] = (uint8_t)v;
        gen_stream_init(&s, d, 16 + (size_t)w);
        CHECK_MSG(gen_stream_below(&s, n) == ks[j] - 1, "below k %u of n %u", ks[j], n);
      }
    }
  }
  uint8_t out[4];
  CHECK(gen_choice_encode(0, 1, out) == 0);
  /* Hand-computed: k = 1 of 3 needs ceil(256 / 3) = 86. */
  CHECK(gen_choice_encode(1, 3, out) == 1 && out[0] == 86);
}

/* Weighted choices skip zero weights and follow the cumulative split. */
static void test_weighted(void) {
  uint32_t w[4] = {0, 1, 0, 3}; /* sum 4: byte b picks (b * 4) >> 8 */
  uint8_t d[16 + 4] = {0};
  d[16] = 0;   /* r 0 -> index 1 (first nonzero) */
  d[17] = 64;  /* r 1 -> index 3 */
  d[18] = 255; /* r 3 -> index 3 */
  d[19] = 63;  /* r 0 -> index 1 */
  GenStream s;
  gen_stream_init(&s, d, sizeof d);
  CHECK(gen_stream_weighted(&s, w, 4) == 1);
  CHECK(gen_stream_weighted(&s, w, 4) == 3);
  CHECK(gen_stream_weighted(&s, w, 4) == 3);
  CHECK(gen_stream_weighted(&s, w, 4) == 1);
  uint32_t z[3] = {0, 0, 0};
  CHECK(gen_stream_weighted(&s, z, 3) == 0);
  uint32_t one[3] = {0, 0, 5}; /* a single option reads nothing */
  size_t pos = s.pos;
  CHECK(gen_stream_weighted(&s, one, 3) == 2 && s.pos == pos);
}

/* The stream is an op.h Chooser reading the same bytes. */
static void test_chooser(void) {
  uint8_t d[18] = {0};
  d[16] = 255;
  d[17] = 128;
  GenStream s;
  gen_stream_init(&s, d, sizeof d);
  CHECK(op_choose(&s.ch, 10) == 9);
  CHECK(op_choose(&s.ch, 1) == 0);
  CHECK(gen_stream_below(&s, 4) == 2);
  CHECK(op_choose(&s.ch, 10) == 0); /* out of bytes */
}

int main(void) {
  test_widths();
  test_header();
  test_mapping();
  test_monotone();
  test_encode();
  test_weighted();
  test_chooser();
  return test_summary();
}
