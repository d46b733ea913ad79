/* The reducer's move engine (mutators/reducer.h) with pure predicates on
 * the decoded program's text: random inputs whose program has a feature
 * (an operator, an if, a global function) reduce to tiny programs that
 * still have it; every kept candidate is shortlex-smaller; an input the
 * predicate rejects is not reduced; the test budget is honoured; the
 * result is deterministic. */
#include "mutators/reducer.h"
#include "test.h"

static const GenPolicy *policy;

/* The predicate's context: the text to look for, and what the reducer
 * offered (to check that every kept input is shortlex-smaller). */
typedef struct Pred {
  const char *needle;
  uint8_t last[4096];
  size_t nlast;
  int calls, order_errors;
} Pred;

static char *text_of(const uint8_t *data, size_t n) {
  Module *m = gen_decode(data, n, policy, NULL);
  char *t = ir_print_module(m);
  ir_module_free(m);
  return t;
}

static int64_t nodes_of(const uint8_t *data, size_t n) {
  Module *m = gen_decode(data, n, policy, NULL);
  int64_t k = ir_module_count(m);
  ir_module_free(m);
  return k;
}

/* True when the program data decodes to contains p->needle. */
static bool contains(const uint8_t *data, size_t n, void *ctx) {
  Pred *p = ctx;
  p->calls++;
  char *t = text_of(data, n);
  bool ok = strstr(t, p->needle) != NULL;
  free(t);
  if (ok && n <= sizeof p->last) {
    if (p->calls > 1 && !red_shortlex_less(data, n, p->last, p->nlast))
      p->order_errors++;
    memcpy(p->last, data, n);
    p->nlast = n;
  }
  return ok;
}

/* A random input of about n bytes whose program contains needle. */
static size_t find_input(const char *needle, uint8_t *buf, size_t n) {
  Pred p = {needle};
  static uint64_t x = 777; /* an LCG: any bytes will do */
  for (int tries = 0; tries < 20000; tries++) {
    for (size_t i = 0; i < n; i++)
      buf[i] = (uint8_t)((x = x * 6364136223846793005ull + 1442695040888963407ull) >> 56);
    if (contains(buf, n, &p))
      return n;
  }
  return 0;
}

/* Reduce an input containing needle; the result must still contain it
 * and have at most max_nodes expression nodes. */
static void reduces_to(const char *needle, int64_t max_nodes) {
  uint8_t buf[600];
  size_t n = find_input(needle, buf, sizeof buf);
  CHECK_MSG(n > 0, "no random input contains '%s'", needle);
  if (!n)
    return;
  Pred p = {needle};
  RedOptions o = {policy, contains, &p};
  RedResult r;
  CHECK(red_reduce(&o, buf, n, &r));
  char *t = text_of(r.data, r.size);
  int64_t k = nodes_of(r.data, r.size);
  CHECK_MSG(strstr(t, needle) != NULL, "'%s' lost:\n%s", needle, t);
  CHECK_MSG(k <= max_nodes, "'%s': %lld nodes (%zu -> %zu bytes, %lld nodes before):\n%s", needle,
            (long long)k, n, r.size, (long long)nodes_of(buf, n), t);
  CHECK(r.size < n);
  CHECK(p.order_errors == 0);
  CHECK(r.tests == (size_t)p.calls && r.kept > 0 && r.rounds >= 2);
  free(t);

  /* The same input reduces to the same bytes. */
  Pred q = {needle};
  RedOptions o2 = {policy, contains, &q};
  RedResult r2;
  CHECK(red_reduce(&o2, buf, n, &r2));
  CHECK(r2.size == r.size && memcmp(r2.data, r.data, r.size) == 0);
  red_result_free(&r2);
  red_result_free(&r);
}

/* An input the predicate rejects is not reduced; max_tests stops early. */
static void test_limits(void) {
  uint8_t buf[300];
  size_t n = find_input("exp(", buf, sizeof buf);
  Pred p = {"no such text"};
  RedOptions o = {policy, contains, &p};
  RedResult r;
  CHECK(!red_reduce(&o, buf, n, &r) && r.data == NULL && p.calls == 1);
  Pred q = {"exp("};
  RedOptions o2 = {policy, contains, &q, NULL, 10};
  CHECK(red_reduce(&o2, buf, n, &r));
  CHECK(r.tests <= 10 && q.calls == (int)r.tests);
  red_result_free(&r);
}

static void test_shortlex(void) {
  uint8_t a[] = {1, 2}, b[] = {1, 3}, c[] = {0, 0, 0};
  CHECK(red_shortlex_less(a, 2, b, 2));
  CHECK(!red_shortlex_less(b, 2, a, 2));
  CHECK(!red_shortlex_less(a, 2, a, 2));
  CHECK(red_shortlex_less(b, 2, c, 3));
  CHECK(red_shortlex_less(NULL, 0, a, 1));
}

int main(void) {
  policy = gen_policy_get("default");
  test_shortlex();
  test_limits();
  reduces_to("exp(", 4); /* @main itself is a node */
  reduces_to("if (", 5);
  reduces_to("def @f", 8); /* @f0's call may be left as an if's condition */
  reduces_to("match (", 9);
  return test_summary();
}
