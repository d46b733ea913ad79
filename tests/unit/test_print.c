/*
 * The printer: golden files (tests/golden/print/NAME.relay hold an input
 * program, a line "// >>> printed", then the expected text; a file without
 * the marker must print as itself), round trips over the golden files and
 * the parse_fuzzer seed corpus, and modules built with the builder API
 * whose printed form is written out by hand.
 */
#include <dirent.h>
#include <math.h>

#include "compiler/ir/ir.h"
#include "test.h"

static const char *const marker = "// >>> printed\n";

/* Distinct expression nodes other than variables, globals and scalar
 * constants (the nodes whose sharing the printer preserves). */
static long compound(const Module *m);

/* Parses text; NULL (and a report) on failure. */
static Module *parse_or_report(const char *text, const char *name) {
  Diag d;
  diag_init(&d, name, NULL);
  Module *m = ir_parse_module(text, strlen(text), name, &d);
  CHECK_MSG(m != NULL, "%s does not parse:\n%s", name, d.text ? d.text : "");
  diag_free(&d);
  return m;
}

/* print(parse(text)) is stable: the printed text re-parses to an
 * alpha-equal module with the same sharing that prints identically. */
static void check_round_trip(const char *text, const char *name) {
  Module *m1 = parse_or_report(text, name);
  if (!m1)
    return;
  char *t1 = ir_print_module(m1);
  Module *m2 = parse_or_report(t1, name);
  if (m2) {
    char *t2 = ir_print_module(m2);
    CHECK_STR(t2, t1);
    CHECK_MSG(ir_module_alpha_equal(m1, m2), "%s: not alpha-equal after a round trip", name);
    CHECK_MSG(compound(m1) == compound(m2), "%s: sharing changed", name);
    free(t2);
  }
  free(t1);
  ir_module_free(m1);
  ir_module_free(m2);
}

/* ------------------------------------------------------------ helpers */

typedef struct {
  const Expr **v;
  int n, cap;
  long count;
} Seen;

static void visit(Expr **slot, void *ctx) {
  Seen *s = ctx;
  for (int i = 0; i < s->n; i++)
    if (s->v[i] == *slot)
      return;
  if (s->n == s->cap) {
    s->cap = s->cap ? 2 * s->cap : 64;
    s->v = realloc(s->v, sizeof *s->v * (size_t)s->cap);
  }
  s->v[s->n++] = *slot;
  const Expr *e = *slot;
  if (!(e->kind == EX_VAR || e->kind == EX_GLOBAL ||
        (e->kind == EX_CONST && e->constant->rank == 0)))
    s->count++;
  ir_expr_children(*slot, visit, ctx);
}

static long compound(const Module *m) {
  long total = 0;
  for (int i = 0; i < m->nfuncs; i++) {
    Seen s = {0};
    Expr *root = m->funcs[i]->func;
    visit(&root, &s);
    free(s.v);
    total += s.count;
  }
  return total;
}

/* ------------------------------------------------------------ golden */

static int cmp_names(const void *a, const void *b) {
  return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Calls f(path) for every *.relay file in dir, in name order. */
static int each_relay(const char *dir, void (*f)(const char *path)) {
  DIR *d = opendir(dir);
  CHECK_MSG(d != NULL, "cannot open %s", dir);
  if (!d)
    return 0;
  char *names[256];
  int n = 0;
  struct dirent *de;
  while ((de = readdir(d)) && n < 256) {
    size_t len = strlen(de->d_name);
    if (len > 6 && strcmp(de->d_name + len - 6, ".relay") == 0)
      names[n++] = strdup(de->d_name);
  }
  closedir(d);
  qsort(names, (size_t)n, sizeof *names, cmp_names);
  for (int i = 0; i < n; i++) {
    char path[512];
    snprintf(path, sizeof path, "%s/%s", dir, names[i]);
    f(path);
    free(names[i]);
  }
  return n;
}

static void golden_file(const char *path) {
  char *text = test_read_file(path, NULL);
  CHECK_MSG(text != NULL, "cannot read %s", path);
  if (!text)
    return;
  char *mark = strstr(text, marker);
  const char *expected = text;
  if (mark) {
    *mark = 0; /* text is now the input alone */
    expected = mark + strlen(marker);
  }
  Module *m = parse_or_report(text, path);
  if (m) {
    char *printed = ir_print_module(m);
    CHECK_MSG(strcmp(printed, expected) == 0, "%s:\n--- printed:\n%s--- expected:\n%s", path,
              printed, expected);
    free(printed);
    ir_module_free(m);
  }
  check_round_trip(expected, path);
  free(text);
}

static void corpus_file(const char *path) {
  char *text = test_read_file(path, NULL);
  CHECK_MSG(text != NULL, "cannot read %s", path);
  if (text)
    check_round_trip(text, path);
  free(text);
}

static void test_golden(void) {
  int n = each_relay("tests/golden/print", golden_file);
  CHECK_MSG(n >= 10, "only %d golden files", n);
  n = each_relay("harnesses/corpus/parse_fuzzer", corpus_file);
  CHECK_MSG(n >= 15, "only %d corpus files", n);
}

/* ---------------------------------------------------- built modules */

static Type *f32(Module *m) {
  return ir_scalar_type(m->arena, DT_FLOAT32);
}

static Expr *op2(Module *m, OpId op, Expr *a, Expr *b) {
  Expr *args[2] = {a, b};
  return ir_call_op(m, op, 2, args, NULL);
}

/* A shared subexpression built with the builder, in several positions. */
static void test_built_sharing(void) {
  Module *m = ir_module_new();
  Var *x = ir_var(m, "x", f32(m));
  Var *c = ir_var(m, "c", ir_scalar_type(m->arena, DT_BOOL));
  Expr *xr = ir_var_ref(m, x); /* one variable node, used four times */
  Expr *sq = op2(m, OP_MULTIPLY, xr, xr);
  Expr *s2 = op2(m, OP_ADD, sq, sq);
  /* sq is used by s2 (twice) and in the else branch; s2 in both */
  Expr *iff = ir_if(m, ir_var_ref(m, c), s2, op2(m, OP_SUBTRACT, s2, sq));
  Var *ps[2] = {x, c};
  ir_def(m, "main", ir_func(m, 2, ps, f32(m), iff));
  char *s = ir_print_module(m);
  CHECK_STR(s, "#[version = \"0.0.5\"]\n"
               "def @main(%x: float32, %c: bool) -> float32 {\n"
               "  %0 = multiply(%x, %x);\n"
               "  %1 = add(%0, %0);\n"
               "  if (%c) {\n"
               "    %1\n"
               "  } else {\n"
               "    subtract(%1, %0)\n"
               "  }\n"
               "}\n");
  Module *m2 = parse_or_report(s, "built");
  CHECK(m2 && ir_module_alpha_equal(m, m2) && compound(m) == compound(m2));
  if (m2) {
    /* both branches reach the same add node */
    Expr *e = ir_global_get(m2, "main")->func->func.body;
    CHECK(e->if_.then == e->if_.els->call.args[0]);
  }
  free(s);
  ir_module_free(m2);
  ir_module_free(m);
}

/* A shared node that needs a let-bound variable goes after that let; one
 * used only inside a closure goes inside the closure. */
static void test_built_scopes(void) {
  Module *m = ir_module_new();
  Var *x = ir_var(m, "x", f32(m));
  Var *y = ir_var(m, "y", NULL);
  Var *z = ir_var(m, "z", NULL);
  Var *f = ir_var(m, "f", NULL);
  Expr *ey = op2(m, OP_ADD, ir_var_ref(m, y), ir_var_ref(m, y)); /* needs %y */
  Expr *ez = op2(m, OP_MULTIPLY, ir_var_ref(m, z), ey);          /* needs %z */
  Expr *fn = ir_func(m, 1, &z, NULL, op2(m, OP_SUBTRACT, ez, ez));
  Expr *call = ir_call(m, ir_var_ref(m, f), 1, &ey);
  Expr *body = ir_let(m, y, ir_var_ref(m, x), ir_let(m, f, fn, op2(m, OP_ADD, call, ey)));
  ir_def(m, "main", ir_func(m, 1, &x, NULL, body));
  char *s = ir_print_module(m);
  CHECK_STR(s, "#[version = \"0.0.5\"]\n"
               "def @main(%x: float32) {\n"
               "  let %y = %x;\n"
               "  %0 = add(%y, %y);\n"
               "  let %f = fn (%z) {\n"
               "    %1 = multiply(%z, %0);\n"
               "    subtract(%1, %1)\n"
               "  };\n"
               "  add(%f(%0), %0)\n"
               "}\n");
  Module *m2 = parse_or_report(s, "scopes");
  CHECK(m2 && ir_module_alpha_equal(m, m2) && compound(m) == compound(m2));
  free(s);
  ir_module_free(m2);
  ir_module_free(m);
}

/* Name hints are sanitised and made unique; free variables keep theirs. */
static void test_built_names(void) {
  Module *m = ir_module_new();
  Var *a = ir_var(m, "x", NULL), *b = ir_var(m, "x", NULL), *c = ir_var(m, "9 lives", NULL);
  Var *fr = ir_var(m, "x1", NULL); /* free: keeps x1, so b becomes x2 */
  Type *tv = ir_type_var(m->arena, "float32");
  Var *d = ir_var(m, "d", tv);
  Expr *args[4] = {ir_var_ref(m, a), ir_var_ref(m, b), ir_var_ref(m, c), ir_var_ref(m, fr)};
  Expr *body = ir_let(m, c, ir_var_ref(m, d), ir_tuple(m, 4, args));
  Var *ps[3] = {a, b, d};
  Expr *fn = ir_func(m, 3, ps, NULL, body);
  fn->func.ntvars = 1;
  fn->func.tvars = &tv;
  ir_def(m, "main", fn);
  char *s = ir_print_module(m);
  CHECK_STR(s, "#[version = \"0.0.5\"]\n"
               "def @main[float321](%x, %x2, %d: float321) {\n"
               "  free_var %x1;\n"
               "  let %x9lives = %d;\n"
               "  (%x, %x2, %x9lives, %x1)\n"
               "}\n");
  Module *m2 = parse_or_report(s, "names");
  CHECK(m2 && ir_module_alpha_equal(m, m2));
  free(s);
  ir_module_free(m2);
  ir_module_free(m);
}

/* Names longer than any fixed buffer survive a round trip. */
static void test_long_names(void) {
  char name[400];
  memset(name, 'n', sizeof name - 1);
  name[sizeof name - 1] = 0;
  char *src = malloc(4000);
  snprintf(src, 4000, "def @%s(%%%s) { free_var %%%s_free; @%s(%%%s_free) }", name, name, name,
           name, name);
  check_round_trip(src, "long names");
  Module *m = parse_or_report(src, "long names");
  char *s = m ? ir_print_module(m) : NULL;
  CHECK(s && strstr(s, name) && strlen(s) > 5 * sizeof name);
  free(s);
  ir_module_free(m);
  free(src);
}

static void test_print_expr_and_type(void) {
  Module *m = ir_module_new();
  Var *x = ir_var(m, "x", f32(m));
  Expr *sq = op2(m, OP_ADD, ir_var_ref(m, x), ir_var_ref(m, x));
  Expr *e = op2(m, OP_MULTIPLY, sq, sq);
  char *s = ir_print_expr(e);
  CHECK_STR(s, "free_var %x: float32;\n%0 = add(%x, %x);\nmultiply(%0, %0)");
  free(s);
  s = ir_print_expr(ir_const_scalar(m, DT_INT64, -5));
  CHECK_STR(s, "-5i64");
  free(s);

  int64_t shape[2] = {2, 3};
  Type *t23 = ir_tensor_type(m->arena, DT_FLOAT32, 2, shape);
  Type *b = ir_scalar_type(m->arena, DT_BOOL);
  Type *one = ir_tuple_type(m->arena, 1, &t23);
  Type *fnt = ir_func_type(m->arena, 0, NULL, 1, &t23, b);
  Type *lst = ir_adt_type(m->arena, ir_list_def(m), 1, &b);
  Type *A = ir_type_var(m->arena, "A");
  Type *poly = ir_func_type(m->arena, 1, &A, 1, &A, A);
  struct {
    Type *t;
    const char *want;
  } cases[] = {
      {t23, "Tensor[(2, 3), float32]"},
      {b, "bool"},
      {one, "(Tensor[(2, 3), float32],)"},
      {ir_unit_type(m->arena), "()"},
      {fnt, "fn (Tensor[(2, 3), float32]) -> bool"},
      {ir_ref_type(m->arena, lst), "Ref[List[bool]]"},
      {poly, "fn [A](A) -> A"},
      {ir_incomplete_type(m->arena, 7), "_"},
  };
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    s = ir_print_type(cases[i].t);
    CHECK_STR(s, cases[i].want);
    free(s);
  }
  ir_module_free(m);
}

/* Random float bit patterns (NaN payloads, subnormals, -0) survive a
 * print and a parse bit for bit. */
static void test_float_bits(void) {
  Module *m = ir_module_new();
  int64_t n = 4000;
  Tensor *t32 = ir_tensor_new(m->arena, DT_FLOAT32, 1, &n);
  Tensor *t64 = ir_tensor_new(m->arena, DT_FLOAT64, 1, &n);
  uint64_t r = 0x243f6a8885a308d3ull;
  for (int64_t i = 0; i < n; i++) {
    r ^= r << 13, r ^= r >> 7, r ^= r << 17;
    uint32_t b32 = (uint32_t)r;
    uint64_t b64 = r;
    if (i % 4 == 1)
      b32 |= 0x7f800000u, b64 |= 0x7ff0000000000000ull; /* inf and NaNs */
    if (i % 4 == 2)
      b32 &= 0x807fffffu, b64 &= 0x800fffffffffffffull; /* subnormals and zeros */
    memcpy((char *)t32->data + 4 * i, &b32, 4);
    memcpy((char *)t64->data + 8 * i, &b64, 8);
  }
  Expr *fs[2] = {ir_const(m, t32), ir_const(m, t64)};
  ir_def(m, "main", ir_func(m, 0, NULL, NULL, ir_tuple(m, 2, fs)));
  char *s = ir_print_module(m);
  Module *m2 = parse_or_report(s, "floats");
  if (m2) {
    Expr **g = ir_global_get(m2, "main")->func->func.body->tuple.fields;
    CHECK(ir_tensor_identical(g[0]->constant, t32));
    CHECK(ir_tensor_identical(g[1]->constant, t64));
  }
  free(s);
  ir_module_free(m2);

  /* scalars: shortest forms that read back exactly */
  struct {
    DType dt;
    double v;
    const char *want;
  } cases[] = {
      {DT_FLOAT32, 1.0 / 3.0, "0.33333334f"},
      {DT_FLOAT32, 0.1, "0.1f"},
      {DT_FLOAT32, 3.4028234663852886e38, "3.4028235e+38f"},
      {DT_FLOAT32, -0.0, "-0f"},
      {DT_FLOAT32, 1e6, "1000000f"},
      {DT_FLOAT32, 1e7, "1e+07f"},
      {DT_FLOAT64, 0.1, "0.1f64"},
      {DT_FLOAT64, 1.0 / 3.0, "0.3333333333333333f64"},
      {DT_FLOAT64, 5e-324, "5e-324f64"},
      {DT_FLOAT64, INFINITY, "Tensor[(), float64](inf)"},
      {DT_FLOAT32, -NAN, "Tensor[(), float32](-nan)"},
      {DT_INT8, -128, "-128i8"},
      {DT_INT64, -9223372036854775807.0 - 1, "-9223372036854775808i64"},
      {DT_BOOL, 1, "True"},
  };
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    s = ir_print_expr(ir_const_scalar(m, cases[i].dt, cases[i].v));
    CHECK_STR(s, cases[i].want);
    free(s);
  }
  ir_module_free(m);
}

int main(void) {
  test_golden();
  test_built_sharing();
  test_built_scopes();
  test_built_names();
  test_long_names();
  test_print_expr_and_type();
  test_float_bits();
  return test_summary();
}
