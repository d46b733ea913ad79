/* Alpha-equivalence, hashing and the well-formedness check, on programs
 * built with the builder API; the reader of ops.def's attribute schemas. */
#include "compiler/ir/ir.h"
#include "test.h"

static Type *f32(Module *m) {
  int64_t s[1] = {3};
  return ir_tensor_type(m->arena, DT_FLOAT32, 1, s);
}

/* fn (%name: T) { let %t = add(%name, %name); %t } */
static Expr *sample_fn(Module *m, const char *name, OpId op) {
  Var *x = ir_var(m, name, f32(m));
  Var *t = ir_var(m, "t", NULL);
  Expr *args[2] = {ir_var_ref(m, x), ir_var_ref(m, x)};
  Expr *body = ir_let(m, t, ir_call_op(m, op, 2, args, NULL), ir_var_ref(m, t));
  return ir_func(m, 1, &x, NULL, body);
}

static void test_alpha(void) {
  Module *m = ir_module_new(), *n = ir_module_new();
  Expr *a = sample_fn(m, "x", OP_ADD), *b = sample_fn(n, "y", OP_ADD);
  Expr *c = sample_fn(m, "x", OP_MULTIPLY);
  CHECK(ir_expr_alpha_equal(a, b));
  CHECK(ir_expr_hash(a) == ir_expr_hash(b));
  CHECK(!ir_expr_alpha_equal(a, c));
  /* A free variable is not equal to a bound one of the same name. */
  Var *x = ir_var(m, "x", NULL);
  Expr *fx = ir_func(m, 1, &x, NULL, ir_var_ref(m, x));
  Var *y = ir_var(m, "y", NULL), *x2 = ir_var(m, "x", NULL);
  Expr *fy = ir_func(m, 1, &y, NULL, ir_var_ref(m, x2));
  CHECK(!ir_expr_alpha_equal(fx, fy));
  /* Two free variables with the same name hint are different variables
   * (the printer names them %x and %x1): not equal, unlike one with itself. */
  Var *xa = ir_var(m, "x", NULL), *xb = ir_var(m, "x", NULL);
  CHECK(!ir_expr_alpha_equal(ir_var_ref(m, xa), ir_var_ref(m, xb)));
  CHECK(ir_expr_alpha_equal(ir_var_ref(m, xa), ir_var_ref(m, xa)));
  Expr *pa[2] = {ir_var_ref(m, xa), ir_var_ref(m, xb)},
       *pb[2] = {ir_var_ref(m, xa), ir_var_ref(m, xa)};
  CHECK(!ir_expr_alpha_equal(ir_tuple(m, 2, pa), ir_tuple(m, 2, pb)));
  /* Attributes matter. */
  Attrs at1 = {0}, at2 = {0};
  ir_attr_set_int(m->arena, &at1, "axis", 0);
  ir_attr_set_int(m->arena, &at2, "axis", 1);
  Expr *arg = ir_const_scalar(m, DT_FLOAT32, 1);
  CHECK(!ir_expr_alpha_equal(ir_call_op(m, OP_SOFTMAX, 1, &arg, &at1),
                             ir_call_op(m, OP_SOFTMAX, 1, &arg, &at2)));
  CHECK(ir_expr_alpha_equal(ir_call_op(m, OP_SOFTMAX, 1, &arg, &at1),
                            ir_call_op(m, OP_SOFTMAX, 1, &arg, &at1)));
  ir_def(m, "main", a);
  ir_def(n, "main", b);
  CHECK(ir_module_alpha_equal(m, n));
  ir_module_free(m);
  ir_module_free(n);
}

static bool wf(Module *m, const char *want) {
  Diag d;
  diag_init(&d, NULL, NULL);
  bool ok = ir_well_formed(m, &d);
  bool match = want ? (!ok && d.text && strstr(d.text, want)) : ok;
  if (!match)
    fprintf(stderr, "well-formedness: want %s, got: %s\n", want ? want : "ok",
            d.text ? d.text : "ok");
  diag_free(&d);
  return match;
}

static void test_wellformed(void) {
  Module *m = ir_module_new();
  ir_def(m, "main", sample_fn(m, "x", OP_ADD));
  CHECK(wf(m, NULL));
  ir_module_free(m);

  /* A variable bound twice. */
  m = ir_module_new();
  Var *x = ir_var(m, "x", NULL);
  Expr *inner = ir_func(m, 1, &x, NULL, ir_var_ref(m, x));
  ir_def(m, "main", ir_func(m, 1, &x, NULL, inner));
  CHECK(wf(m, "bound more than once"));
  ir_module_free(m);

  /* Use outside the scope of a let. */
  m = ir_module_new();
  Var *t = ir_var(m, "t", NULL);
  Expr *c = ir_const_scalar(m, DT_INT32, 1);
  Expr *let = ir_let(m, t, c, ir_var_ref(m, t));
  Expr *fields[2] = {let, ir_var_ref(m, t)};
  ir_def(m, "main", ir_func(m, 0, NULL, NULL, ir_tuple(m, 2, fields)));
  CHECK(wf(m, "outside its scope"));
  ir_module_free(m);

  /* Sharing a pure call is fine; sharing a let is not. */
  m = ir_module_new();
  Var *p = ir_var(m, "p", f32(m));
  Expr *args[2] = {ir_var_ref(m, p), ir_var_ref(m, p)};
  Expr *add = ir_call_op(m, OP_ADD, 2, args, NULL);
  Expr *both[2] = {add, add};
  ir_def(m, "main", ir_func(m, 1, &p, NULL, ir_call_op(m, OP_MULTIPLY, 2, both, NULL)));
  CHECK(wf(m, NULL));
  CHECK(ir_expr_count(ir_global_get(m, "main")->func) == 5);
  Var *u = ir_var(m, "u", NULL);
  Expr *l = ir_let(m, u, add, ir_var_ref(m, u));
  Expr *twice[2] = {l, l};
  ir_def(m, "f", ir_func(m, 0, NULL, NULL, ir_tuple(m, 2, twice)));
  CHECK(wf(m, "is shared"));
  ir_module_free(m);

  /* Undefined global and constructor arity. */
  m = ir_module_new();
  GlobalFn *g = ir_global_intern(m, "missing");
  Expr *h = ir_const_scalar(m, DT_INT32, 1);
  Expr *cons = ir_call_ctor(m, ir_ctor_get(m, "Cons"), 1, &h);
  Expr *pair[2] = {ir_global_ref(m, g), cons};
  ir_def(m, "main", ir_func(m, 0, NULL, NULL, ir_tuple(m, 2, pair)));
  CHECK(wf(m, "@missing"));
  CHECK(wf(m, "wrong number of arguments"));
  ir_module_free(m);
}

/* The schema reader on one schema, and on every schema of ops.def: each
 * attribute has one of the seven kinds and a name of its own. */
static void test_schema(void) {
  AttrSpec s;
  CHECK(ir_op_attr(OP_SUM, "keepdims", 8, &s) && s.klen == 4 && !memcmp(s.kind, "bool", 4) &&
        !s.optional);
  CHECK(ir_op_attr(OP_SUM, "axis", 4, &s) && s.klen == 4 && !memcmp(s.kind, "ints", 4) &&
        s.optional);
  CHECK(!ir_op_attr(OP_SUM, "axes", 4, &s) && !ir_op_attr(OP_SUM, "axi", 3, &s));
  CHECK(ir_op_attr_at(OP_SUM, 2, &s) && s.nlen == 7 && !memcmp(s.name, "exclude", 7));
  CHECK(!ir_op_attr_at(OP_SUM, 3, &s) && !ir_op_attr_at(OP_ADD, 0, &s));
  CHECK(ir_attr_fits(&s, AV_INT, true) && !ir_attr_fits(&s, AV_INT, false));
  CHECK(ir_attr_fits(&s, AV_BOOL, false) && !ir_attr_fits(&s, AV_NONE, false));
  Arena *a = arena_new();
  CHECK(strcmp(ir_op_attr_names(OP_SUM, a), "axis, keepdims, exclude") == 0);
  CHECK(strcmp(ir_op_attr_names(OP_ADD, a), "none") == 0);
  arena_free(a);
  for (int op = 0; op < OP_COUNT; op++)
    for (int i = 0; ir_op_attr_at((OpId)op, i, &s); i++) {
      int kinds = 0;
      for (int k = AV_INT; k <= AV_PAIRS; k++)
        kinds += ir_attr_fits(&s, (AttrKind)k, false);
      AttrSpec t;
      CHECK_MSG(kinds >= 1 && s.nlen > 0, "%s: attribute %d has an unknown kind",
                ir_op_name((OpId)op), i);
      CHECK_MSG(ir_op_attr((OpId)op, s.name, (size_t)s.nlen, &t) && t.name == s.name,
                "%s: attribute %.*s is listed twice", ir_op_name((OpId)op), s.nlen, s.name);
    }
}

int main(void) {
  test_alpha();
  test_wellformed();
  test_schema();
  return test_summary();
}
