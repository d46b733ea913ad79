/*
 * Relay text as TVM writes it (docs/text-format.md): TVM's dtype aliases and
 * literal suffixes, a file that holds one expression, opaque function
 * attributes, a graph-bound expression with effects used twice, recursive
 * and polymorphic local functions, constructors as values.  Each form
 * parses, type checks, round-trips (print -> parse -> print is the
 * identity, alpha-equal) and, where it runs, evaluates as TVM would; bad
 * inputs give positioned errors.
 */
#include "compiler/eval/eval.h"
#include "compiler/typing/typing.h"
#include "test.h"

/* Parses src into a module or NULL, leaving messages in d. */
static Module *parse(const char *src, Diag *d) {
  diag_init(d, "t.relay", NULL);
  return ir_parse_module(src, strlen(src), "t.relay", d);
}

/* Parses, checks and round-trips src; returns its printed text (malloc'd)
 * and @main's result in *result (or "" without @main), or NULL. */
static char *load(const char *src, char *result, size_t n) {
  Diag d;
  Module *m = parse(src, &d);
  bool ok = m && ir_well_formed(m, &d) && ty_check_module(m, &d);
  CHECK_MSG(ok, "does not load:\n%s\n%s", src, d.text ? d.text : "");
  char *t1 = NULL;
  if (ok) {
    t1 = ir_print_module(m);
    diag_reset(&d);
    Module *m2 = ir_parse_module(t1, strlen(t1), "printed", &d);
    CHECK_MSG(m2 && ir_well_formed(m2, &d) && ty_check_module(m2, &d),
              "printed text does not load:\n%s\n%s", t1, d.text ? d.text : "");
    if (m2) {
      char *t2 = ir_print_module(m2);
      CHECK_MSG(strcmp(t1, t2) == 0, "printed twice:\n%s\n---\n%s", t1, t2);
      CHECK_MSG(ir_module_alpha_equal(m, m2), "not alpha-equal after a round trip:\n%s", t1);
      free(t2);
      ir_module_free(m2);
    }
    result[0] = 0;
    if (ir_global_get(m, "main")) {
      EvRun *r = ev_run_new(&ev_default_limits);
      EvResult res = ev_run_main(r, m, 1);
      snprintf(result, n, "%s",
               res.status == EV_OK ? ev_print_value(r->arena, res.value) : res.msg);
      ev_run_free(r);
    }
  }
  ir_module_free(m);
  diag_free(&d);
  return t1;
}

/* src loads, prints containing `printed` and @main evaluates to want (when
 * want is not NULL). */
#define CHECK_LOADS(src, printed, want)                                                            \
  do {                                                                                             \
    char res_[256];                                                                                \
    char *t_ = load(src, res_, sizeof res_);                                                       \
    if (t_) {                                                                                      \
      CHECK_MSG(strstr(t_, printed), "printed text lacks \"%s\":\n%s", printed, t_);               \
      if ((want) != NULL)                                                                          \
        CHECK_MSG(strcmp(res_, (want) ? (want) : "") == 0, "@main gives %s, want %s", res_,        \
                  (want) ? (want) : "");                                                           \
    }                                                                                              \
    free(t_);                                                                                      \
  } while (0)

/* src fails to parse (or to check) with one error containing msg at
 * line:col. */
#define CHECK_ERROR(src, msg, line_, col_)                                                         \
  do {                                                                                             \
    Diag d_;                                                                                       \
    Module *m_ = parse(src, &d_);                                                                  \
    if (m_ && ir_well_formed(m_, &d_) && ty_check_module(m_, &d_))                                 \
      CHECK_MSG(false, "accepted, want \"%s\": %s", msg, src);                                     \
    else                                                                                           \
      CHECK_MSG(d_.count >= 1 && strstr(d_.first, msg) && d_.line == (line_) && d_.col == (col_),  \
                "want %d:%d \"%s\", got %d error(s), first %d:%d \"%s\"", line_, col_, msg,        \
                d_.count, d_.line, d_.col, d_.first);                                              \
    ir_module_free(m_);                                                                            \
    diag_free(&d_);                                                                                \
  } while (0)

/* TVM's `int`/`float` aliases and its `i` suffix; canonical names printed. */
static void test_dtype_aliases(void) {
  CHECK_LOADS(
      "def @main(%x: Tensor[(2), int], %y: float) -> (Tensor[(2), int], Tensor[(2), float]) {\n"
      "  let %z: int = 3i;\n"
      "  (add(%x, %z), cast(%x, dtype=\"float\"))\n"
      "}",
      "Tensor[(2), int32], %y: float32", NULL);
  CHECK_LOADS("def @main() { cast(1.5f, dtype=\"int\") }", "dtype=\"int32\"", "int32 1");
  CHECK_LOADS("def @main() -> float { cast(7i, dtype=\"float\") }", "-> float32", "float32 7");
  CHECK_LOADS("def @main() { (2147483648, -2147483649, -2147483648, 2147483647) }",
              "(2147483648i64, -2147483649i64, -2147483648, 2147483647)",
              "(int64 2147483648, int64 -2147483649, int32 -2147483648, int32 2147483647)");
  CHECK_ERROR("def @main(%x: Tensor[(2), integer]) { %x }", "unknown dtype `integer`", 1, 27);
  CHECK_ERROR("def @main() { 2147483648i }", "out of range for int32", 1, 15);
  CHECK_ERROR("def @main() { 1.5i }", "integer suffix on the float literal", 1, 15);
  CHECK_ERROR("type int { A }", "`int` is reserved and cannot name a type", 1, 6);
  CHECK_ERROR("def @f[float](%x: float) { %x }", "`float` is reserved", 1, 8);
}

/* A file holding one expression is the body of @main. */
static void test_expr_file(void) {
  CHECK_LOADS("add(1f, 2f)", "def @main() {\n  add(1f, 2f)\n}", "float32 3");
  CHECK_LOADS("#[version = \"0.0.5\"]\nlet %x = 1; %0 = add(%x, %x); (%0, %0)", "def @main()",
              "(int32 2, int32 2)");
  CHECK_LOADS("fn (%x: int) { %x }", "fn (%x: int32)", NULL);
  CHECK_ERROR("add(1f, 2f)\ndef @f() { 1 }", "expected the end of the expression, found `def`", 2,
              1);
  CHECK_ERROR("#[version = \"0.0.5\"] add(1f, %y)", "undefined variable `%y`", 1, 30);
  CHECK_ERROR("1 +", "expected an expression, found end of input", 1, 4);
}

/* Function attributes TVM writes are kept, printed back, compared. */
static void test_fn_attrs(void) {
  CHECK_LOADS(
      "def @f(%x: float32, global_symbol=\"f\", Compiler=\"ccompiler\", Inline=1) { %x }\n"
      "def @main() {\n"
      "  let %g = fn (%y: float32, Primitive=1, hash=\"ab\", n=3i64, k=-2, xs=[1, 2], "
      "ps=[[0, 1]], fl=1.5f, b=True, z=None, relay.reshape_only=1, Inline=1) { %y };\n"
      "  %g(@f(1f))\n"
      "}",
      "Primitive=1, hash=\"ab\", n=3, k=-2, xs=[1, 2], ps=[[0, 1]], fl=1.5f, b=True, z=None, "
      "relay.reshape_only=1, Inline=1) {",
      "float32 1");
  CHECK_LOADS("def @main(%x: float32, Inline=1, Compiler=\"c\") { %x }",
              "(%x: float32, Inline=1, Compiler=\"c\")", NULL);

  /* Attributes take part in alpha-equality. */
  Diag d1, d2;
  Module *a = parse("def @f(%x, Compiler=\"a\") { %x }", &d1);
  Module *b = parse("def @f(%x, Compiler=\"b\") { %x }", &d2);
  CHECK(a && b && !ir_module_alpha_equal(a, b));
  ir_module_free(a), ir_module_free(b), diag_free(&d1), diag_free(&d2);

  CHECK_ERROR("def @f(%x, Compiler=\"a\", Compiler=\"b\") { %x }",
              "function attribute `Compiler` is given twice", 1, 26);
  CHECK_ERROR("def @f(%x, Primitive=1, Primitive=1) { %x }",
              "function attribute `Primitive` is given twice", 1, 25);
  CHECK_ERROR("def @f(%x, Compiler=%x) { %x }", "expected a function attribute value", 1, 21);
  CHECK_ERROR("def @f(%x, Compiler=\"a\", %y) { %x }",
              "a parameter cannot follow the function attributes", 1, 26);
  CHECK_ERROR("def @f(%x, n=1.5i) { %x }", "unexpected suffix", 1, 14);
}

/* A graph binding with effects used twice is evaluated once (a let where
 * it stands); used once, where it is used. */
static void test_graph_effects(void) {
  CHECK_LOADS("def @main(%x: float32) {\n"
              "  %0 = ref(%x);\n"
              "  ref_write(%0, 1f);\n"
              "  ref_read(%0)\n"
              "}",
              "let %x0 = ref(%x);", "float32 1");
  /* Once: a read after a later write, as TVM evaluates the tuple. */
  CHECK_LOADS("def @main() {\n"
              "  let %r = ref(1f);\n"
              "  %0 = ref_read(%r);\n"
              "  %1 = ref_write(%r, 2f);\n"
              "  (%1, %0)\n"
              "}",
              "(ref_write(%r, 2f), ref_read(%r))", "((), float32 2)");
  /* A shared pure node around a shared effect, used twice each. */
  CHECK_LOADS("def @main() {\n"
              "  let %r = ref(1f);\n"
              "  %0 = ref_read(%r);\n"
              "  %1 = add(%0, %0);\n"
              "  %2 = (%1, %1);\n"
              "  ref_write(%r, 5f);\n"
              "  (%2, %2, ref_read(%r))\n"
              "}",
              "let %x0 = ref_read(%r);",
              "((float32 2, float32 2), (float32 2, float32 2), float32 5)");
  /* Closures shared: one function value. */
  CHECK_LOADS("def @main() {\n"
              "  %0 = fn (%y: int) { add(%y, 1) };\n"
              "  (%0(1), %0(2))\n"
              "}",
              "let %x0 = fn (%y: int32)", "(int32 2, int32 3)");
  /* A value that is shareable only without the effect it names. */
  CHECK_LOADS("def @main() {\n"
              "  %0 = ref(1f);\n"
              "  %1 = (%0,);\n"
              "  ref_write(%1.0, 3f);\n"
              "  ref_read(%1.0)\n"
              "}",
              "let %x1 = (ref(1f),);", "float32 3");
  CHECK_ERROR("def @main() { %0 = ref(1f); %0 = 2; %0 }", "graph binding `%0` is already defined",
              1, 29);
  CHECK_ERROR("def @main() { { %0 = ref(1f); %0 }; %0 }", "undefined graph binding `%0`", 1, 37);
}

/* A constructor used as a value is its eta expansion. */
static void test_ctor_values(void) {
  CHECK_LOADS("def @main() {\n"
              "  %0 = Cons;\n"
              "  %0(1, %0(2, Nil))\n"
              "}",
              "let %x0 = fn (%x01, %x1) {\n    Cons(%x01, %x1)\n  };", NULL);
  CHECK_LOADS("def @main() { let %f = Some; %f(3f) }", "Some(%x0)", "Some(float32 3)");
  CHECK_LOADS("def @ap(%f: fn (int32) -> Option[int32]) { %f(1) }\n"
              "def @main() { @ap(Some) }",
              "@ap(fn (%x0) {", "Some(int32 1)");
  CHECK_LOADS("type L[A] { C(A, L[A]), E }\n"
              "def @main[A]() -> fn (A, L[A]) -> L[A] { C }",
              "C(%x0, %x1)", "<closure>");
  CHECK_ERROR("def @main() { Some(1, 2) }", "constructor Some expects 1 argument, found 2", 1, 15);
  CHECK_ERROR("def @main() { Some() }", "constructor Some expects 1 argument, found 0", 1, 15);
  CHECK_ERROR("def @main() { let %f = Some; (%f(1), %f(1f)) }",
              "argument 0 of call to %f: expected Tensor[(), int32], found Tensor[(), float32]", 1,
              41);
}

int main(void) {
  test_dtype_aliases();
  test_expr_file();
  test_fn_attrs();
  test_graph_effects();
  test_ctor_values();
  return test_summary();
}
