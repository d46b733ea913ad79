/* Decoding snapshots: tests/golden/gen_decode.txt lists byte strings
 * (made from a seed and a length by splitmix64, spelled out below so any
 * build can remake them) and the FNV-1a 64 hash of the text each one
 * decodes to.  A gcc build and a clang build, or two machines, must agree
 * with it byte for byte.  When the generator or the printer changes on
 * purpose, regenerate the file with
 *     RS_UPDATE_GOLDEN=1 build/test/test_gen_golden
 * and review the diff of a few decoded programs (relaysmith decode). */
#include <stdlib.h>

#include "generator/gen.h"
#include "test.h"

static const char *golden = "tests/golden/gen_decode.txt";

/* splitmix64 */
static uint64_t mix(uint64_t *s) {
  uint64_t z = (*s += 0x9e3779b97f4a7c15ull);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return z ^ (z >> 31);
}

/* The n bytes of input (seed, n): the low byte of successive draws. */
static uint8_t *input(uint64_t seed, size_t n) {
  uint8_t *b = malloc(n + 1);
  uint64_t s = seed;
  for (size_t i = 0; i < n; i++)
    b[i] = (uint8_t)mix(&s);
  return b;
}

static uint64_t fnv1a(const char *s) {
  uint64_t h = 0xcbf29ce484222325ull;
  for (; *s; s++)
    h = (h ^ (uint8_t)*s) * 0x100000001b3ull;
  return h;
}

/* Hash of the text input (seed, n) decodes to under policy p. */
static uint64_t decoded_hash(const GenPolicy *p, uint64_t seed, size_t n) {
  uint8_t *b = input(seed, n);
  Module *m = gen_decode(b, n, p, NULL);
  char *text = ir_print_module(m);
  uint64_t h = fnv1a(text);
  free(text);
  ir_module_free(m);
  free(b);
  return h;
}

/* Hand-checked: splitmix64 from seed 0 starts 0xe220a8397b1dcdaf. */
static void test_input(void) {
  uint64_t s = 0;
  CHECK(mix(&s) == 0xe220a8397b1dcdafull);
  uint8_t *b = input(0, 1);
  CHECK(b[0] == 0xaf);
  free(b);
}

/* Rewrite the golden file from the current build. */
static int update(void) {
  FILE *f = fopen(golden, "w");
  if (!f) {
    perror(golden);
    return 1;
  }
  fprintf(f, "# policy seed length fnv1a64-of-printed-program (test_gen_golden.c)\n");
  size_t lens[] = {0, 16, 24, 40, 64, 128, 256, 512, 1024, 4096};
  for (int k = 0; gen_policy_at(k); k++)
    for (uint64_t seed = 1; seed <= 10; seed++) {
      size_t n = lens[seed % (sizeof lens / sizeof *lens)];
      const GenPolicy *p = gen_policy_at(k);
      fprintf(f, "%s %llu %zu %016llx\n", p->name, (unsigned long long)seed, n,
              (unsigned long long)decoded_hash(p, seed, n));
    }
  fclose(f);
  printf("wrote %s\n", golden);
  return 0;
}

/* Every line of the golden file decodes to the recorded hash. */
static void test_golden(void) {
  size_t len;
  char *text = test_read_file(golden, &len);
  CHECK_MSG(text != NULL, "cannot read %s", golden);
  if (!text)
    return;
  int lines = 0;
  for (char *line = strtok(text, "\n"); line; line = strtok(NULL, "\n")) {
    if (line[0] == '#')
      continue;
    char name[64];
    unsigned long long seed, want;
    size_t n;
    if (sscanf(line, "%63s %llu %zu %llx", name, &seed, &n, &want) != 4) {
      CHECK_MSG(false, "bad line: %s", line);
      continue;
    }
    const GenPolicy *p = gen_policy_get(name);
    CHECK_MSG(p != NULL, "unknown policy %s", name);
    if (!p)
      continue;
    uint64_t got = decoded_hash(p, seed, n);
    CHECK_MSG(got == want, "%s seed %llu length %zu: %016llx, recorded %016llx", name, seed, n,
              (unsigned long long)got, want);
    lines++;
  }
  CHECK(lines >= 20);
  free(text);
}

int main(void) {
  if (getenv("RS_UPDATE_GOLDEN"))
    return update();
  test_input();
  test_golden();
  return test_summary();
}
