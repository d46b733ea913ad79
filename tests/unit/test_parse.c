/* The parser: the IR it builds, and its errors (message, line, column). */
#include <math.h>

#include "compiler/ir/ir.h"
#include "test.h"

/* Parses src; returns the module or NULL, leaving messages in d. */
static Module *parse(const char *src, Diag *d) {
  diag_init(d, "t.relay", NULL);
  return ir_parse_module(src, strlen(src), "t.relay", d);
}

/* The body of @name in m. */
static Expr *body_of(Module *m, const char *name) {
  GlobalFn *g = ir_global_get(m, name);
  return g && g->func ? g->func->func.body : NULL;
}

/* Expects src to fail with exactly one error whose message contains
 * msg, at line:col. */
#define CHECK_ERROR(src, msg, line_, col_)                                                         \
  do {                                                                                             \
    Diag d_;                                                                                       \
    Module *m_ = parse(src, &d_);                                                                  \
    CHECK_MSG(!m_ && d_.count == 1 && strstr(d_.first, msg) && d_.line == (line_) &&               \
                  d_.col == (col_),                                                                \
              "want %d:%d \"%s\", got %d error(s), first %d:%d \"%s\"", line_, col_, msg,          \
              d_.count, d_.line, d_.col, d_.first);                                                \
    ir_module_free(m_);                                                                            \
    diag_free(&d_);                                                                                \
  } while (0)

static void test_structure(void) {
  Diag d;
  Module *m =
      parse("#[version = \"0.0.5\"]\n"
            "def @main(%x: Tensor[(2, 3), float32], %c: bool) -> Tensor[(2, 3), float32] {\n"
            "  let %y = add(%x, %x);\n"
            "  %0 = multiply(%y, %y);\n"
            "  if (%c) { %0 } else { subtract(%0, %y) }\n"
            "}\n",
            &d);
  CHECK(m != NULL);
  if (!m)
    return;
  Expr *f = ir_global_get(m, "main")->func;
  CHECK(f->kind == EX_FUNC && f->func.nparams == 2);
  Var *x = f->func.params[0];
  CHECK_STR(x->name, "x");
  CHECK(x->annot && x->annot->kind == TY_TENSOR && x->annot->tensor.rank == 2 &&
        x->annot->tensor.shape[0] == 2 && x->annot->tensor.shape[1] == 3 &&
        x->annot->tensor.dtype == DT_FLOAT32);
  CHECK(ir_type_is_scalar(f->func.params[1]->annot, DT_BOOL));
  Expr *let = f->func.body;
  CHECK(let->kind == EX_LET && let->line == 3 && let->col == 3);
  CHECK(let->let.value->kind == EX_CALL && let->let.value->call.op == OP_ADD);
  CHECK(let->let.value->call.args[0]->var == x);
  CHECK(let->let.value->line == 3 && let->let.value->col == 12);
  CHECK(let->let.value->call.args[1]->line == 3 && let->let.value->call.args[1]->col == 20);
  Expr *iff = let->let.body;
  CHECK(iff->kind == EX_IF && iff->line == 5 && iff->col == 3);
  /* the graph binding is one node, referenced from both branches */
  Expr *shared = iff->if_.then;
  CHECK(shared->kind == EX_CALL && shared->call.op == OP_MULTIPLY);
  CHECK(iff->if_.els->call.args[0] == shared);
  CHECK(shared->call.args[0]->var == let->let.var);
  ir_module_free(m);
  diag_free(&d);
}

static void test_precedence(void) {
  Diag d;
  Module *m = parse("def @f(%a, %b, %c) { %a + %b * %c - -%a / %b == %c < %a }", &d);
  CHECK(m != NULL);
  if (!m)
    return;
  /* ((a + (b * c)) - ((-a) / b)) == (c < a) */
  Expr *e = body_of(m, "f");
  CHECK(e->kind == EX_CALL && e->call.op == OP_EQUAL);
  Expr *l = e->call.args[0], *r = e->call.args[1];
  CHECK(r->call.op == OP_LESS);
  CHECK(l->call.op == OP_SUBTRACT);
  CHECK(l->call.args[0]->call.op == OP_ADD);
  CHECK(l->call.args[0]->call.args[1]->call.op == OP_MULTIPLY);
  CHECK(l->call.args[1]->call.op == OP_DIVIDE);
  CHECK(l->call.args[1]->call.args[0]->call.op == OP_NEGATIVE);
  /* the operator's position is the node's */
  CHECK(e->col == 46 && l->col == 35 && l->call.args[0]->col == 25);
  ir_module_free(m);
  /* left associativity; a negative literal is one constant */
  m = parse("def @f(%a) { %a - 1 - -2 }", &d);
  e = body_of(m, "f");
  CHECK(e->call.op == OP_SUBTRACT && e->call.args[0]->call.op == OP_SUBTRACT);
  CHECK(e->call.args[1]->kind == EX_CONST && ((int32_t *)e->call.args[1]->constant->data)[0] == -2);
  ir_module_free(m);
  diag_free(&d);
}

static void test_literals(void) {
  Diag d;
  Module *m = parse("def @f() { (1f, -0f, 3f64, -42i64, 7i8, True, 2147483647, -2147483648, 0.1f, "
                    "Tensor[(3), float32]([nan(0x1), -nan, -inf]), "
                    "Tensor[(2, 0), int8]([[], []]), 1e-45f) }",
                    &d);
  CHECK(m != NULL);
  if (!m)
    return;
  Expr **f = body_of(m, "f")->tuple.fields;
  CHECK(f[0]->constant->dtype == DT_FLOAT32 && ((float *)f[0]->constant->data)[0] == 1.0f);
  float z = ((float *)f[1]->constant->data)[0];
  CHECK(z == 0.0f && signbit(z));
  CHECK(f[2]->constant->dtype == DT_FLOAT64 && ((double *)f[2]->constant->data)[0] == 3.0);
  CHECK(f[3]->constant->dtype == DT_INT64 && ((int64_t *)f[3]->constant->data)[0] == -42);
  CHECK(f[4]->constant->dtype == DT_INT8 && ((int8_t *)f[4]->constant->data)[0] == 7);
  CHECK(f[5]->constant->dtype == DT_BOOL && ((uint8_t *)f[5]->constant->data)[0] == 1);
  CHECK(f[6]->constant->dtype == DT_INT32 && ((int32_t *)f[6]->constant->data)[0] == INT32_MAX);
  CHECK(((int32_t *)f[7]->constant->data)[0] == INT32_MIN);
  CHECK(((float *)f[8]->constant->data)[0] == 0.1f);
  uint32_t bits[3];
  memcpy(bits, f[9]->constant->data, 12);
  CHECK(bits[0] == 0x7f800001u); /* a signalling NaN survives */
  CHECK(bits[1] == 0xffc00000u);
  CHECK(bits[2] == 0xff800000u);
  CHECK(f[10]->constant->rank == 2 && f[10]->constant->shape[1] == 0 &&
        f[10]->constant->numel == 0);
  CHECK(((float *)f[11]->constant->data)[0] > 0); /* the smallest subnormal */
  ir_module_free(m);
  diag_free(&d);
}

static void test_types_and_adts(void) {
  Diag d;
  Module *m = parse("def @id[A](%x: A, %t: (A), %u: (A, B2), %f: fn [B](B) -> A) -> A { %x }\n"
                    "type B2 { MkB(List[B2]), NoB }\n"
                    "def @g(%r: Ref[_], %o: Option[float32]) { match? (%o) { Some(_) => NoB } }\n",
                    &d);
  CHECK(m != NULL);
  if (!m)
    return;
  Expr *f = ir_global_get(m, "id")->func;
  Type *A = f->func.tvars[0];
  CHECK(f->func.ntvars == 1 && A->kind == TY_VAR && f->func.params[0]->annot == A);
  CHECK(f->func.ret == A);
  Type *t = f->func.params[1]->annot; /* (A) is a one-tuple, as in TVM */
  CHECK(t->kind == TY_TUPLE && t->tuple.n == 1 && t->tuple.fields[0] == A);
  CHECK(f->func.params[2]->annot->tuple.fields[1]->adt.def == ir_typedef_get(m, "B2"));
  Type *ft = f->func.params[3]->annot;
  CHECK(ft->kind == TY_FUNC && ft->func.ntvars == 1 && ft->func.params[0] == ft->func.tvars[0] &&
        ft->func.ret == A);
  TypeDef *b2 = ir_typedef_get(m, "B2");
  CHECK(b2 && !b2->builtin && b2->nctors == 2 && b2->ctors[1]->nfields == 0);
  CHECK(ir_list_def(m)->builtin);
  Expr *g = ir_global_get(m, "g")->func;
  CHECK(g->func.params[0]->annot->ref.inner->kind == TY_INCOMPLETE);
  Expr *mt = g->func.body;
  CHECK(mt->kind == EX_MATCH && !mt->match.complete && mt->match.n == 1);
  CHECK(mt->match.clauses[0].pat->kind == PAT_CTOR &&
        mt->match.clauses[0].pat->sub[0]->kind == PAT_WILD);
  CHECK(mt->match.clauses[0].body->call.kind == CALL_CTOR);
  /* definition order is kept although @id was seen first */
  CHECK(m->nfuncs == 2 && strcmp(m->funcs[0]->name, "id") == 0);
  ir_module_free(m);

  m = parse("def @f(%x) { match (%x) { (%a, Cons(%b, Nil)) => (%a, %b), (%c,) => %c, () => () } }",
            &d);
  CHECK(m != NULL);
  if (m) {
    Clause *c = body_of(m, "f")->match.clauses;
    CHECK(c[0].pat->kind == PAT_TUPLE && c[0].pat->n == 2 && c[0].pat->sub[1]->kind == PAT_CTOR &&
          c[0].pat->sub[1]->sub[1]->kind == PAT_CTOR);
    CHECK(c[0].body->tuple.fields[1]->var == c[0].pat->sub[1]->sub[0]->var);
    CHECK(c[1].pat->kind == PAT_TUPLE && c[1].pat->n == 1 && c[2].pat->n == 0);
  }
  ir_module_free(m);
  diag_free(&d);
}

/* A module's own definition of a prelude name replaces the prelude type
 * (and Tree, built on List, goes with List); `e1; e2` is a let of an
 * out-of-scope variable named _. */
static void test_prelude_and_sequencing(void) {
  Diag d;
  Module *m = parse("type List[A] { Nil2 }\ndef @f() -> List[int32] { Nil2 }", &d);
  CHECK(m != NULL);
  if (m) {
    TypeDef *list = ir_typedef_get(m, "List");
    CHECK(list && !list->builtin && list->nctors == 1);
    CHECK(!ir_list_def(m) && !ir_tree_def(m) && ir_option_def(m) && ir_option_def(m)->builtin);
    CHECK(!ir_ctor_get(m, "Cons") && !ir_ctor_get(m, "Rose") && ir_ctor_get(m, "Some"));
  }
  ir_module_free(m);
  m = parse("type Ayy { Some }\ndef @f() -> Ayy { Some }", &d);
  CHECK(m && !ir_option_def(m) && ir_list_def(m) && ir_tree_def(m));
  CHECK(m && ir_ctor_get(m, "Some")->def == ir_typedef_get(m, "Ayy"));
  ir_module_free(m);
  m = parse("def @f(%r: Ref[int32]) { ref_write(%r, 1); (); ref_read(%r) }", &d);
  CHECK(m != NULL);
  if (m) {
    Expr *b = body_of(m, "f");
    CHECK(b->kind == EX_LET && strcmp(b->let.var->name, "_") == 0 &&
          b->let.value->kind == EX_REF_WRITE && b->line == 1 && b->col == 26);
    Expr *b2 = b->let.body;
    CHECK(b2->kind == EX_LET && b2->let.value->kind == EX_TUPLE && b2->let.var != b->let.var &&
          b2->let.body->kind == EX_REF_READ);
  }
  ir_module_free(m);
  diag_free(&d);
  CHECK_ERROR("def @f() { (); %_ }", "undefined variable `%_`", 1, 16);
  CHECK_ERROR("type List[A] { Nil2 }\ndef @f() { Cons(1, Nil2) }",
              "unknown operator or constructor `Cons`", 2, 12);
}

static void test_attrs(void) {
  Diag d;
  Module *m = parse("def @f(%x) { (sum(%x, axis=[0, -1], keepdims=True), mean(%x, axis=None), "
                    "clip(%x, a_min=0, a_max=inf), nn.pad(%x, 0f, pad_width=[[1, 2]]), "
                    "split(%x, indices_or_sections=3), cast(%x, dtype=\"int8\"), "
                    "nn.pad(%x, 0f, pad_width=[])) }",
                    &d);
  CHECK(m != NULL);
  if (!m)
    return;
  Expr **f = body_of(m, "f")->tuple.fields;
  const Attrs *a = &f[0]->call.attrs;
  CHECK(a->n == 2 && a->items[0].kind == AV_INTS && a->items[0].n == 2 &&
        a->items[0].ints[1] == -1);
  CHECK(a->items[1].kind == AV_BOOL && a->items[1].i == 1);
  CHECK(f[1]->call.attrs.items[0].kind == AV_NONE);
  a = &f[2]->call.attrs;
  CHECK(a->items[0].kind == AV_INT && ir_attr_float(a, "a_min", 1) == 0.0);
  CHECK(a->items[1].kind == AV_FLOAT && isinf(a->items[1].f));
  a = &f[3]->call.attrs;
  CHECK(a->items[0].kind == AV_PAIRS && a->items[0].n == 1 && a->items[0].ints[1] == 2);
  CHECK(f[4]->call.attrs.items[0].kind == AV_INT && f[4]->call.attrs.items[0].i == 3);
  CHECK_STR(ir_attr_str(&f[5]->call.attrs, "dtype", ""), "int8");
  CHECK(f[6]->call.attrs.items[0].kind == AV_PAIRS && f[6]->call.attrs.items[0].n == 0);
  ir_module_free(m);
  diag_free(&d);
}

static void test_misc_forms(void) {
  Diag d;
  Module *m = parse("def @f(%x, Inline=1) {\n"
                    "  free_var %v: float32;\n"
                    "  let %r = ref(%x);\n"
                    "  let %w = ref_write(%r, ref_read(%r));\n"
                    "  let %g = fn (%a, Primitive=1) { %a };\n"
                    "  (%g(%v), @f(%x), %x.0.1, Nil, Nil()(%x), { %x }, ((%x)), (%x,))\n"
                    "}",
                    &d);
  CHECK(m != NULL);
  if (!m)
    return;
  GlobalFn *g = ir_global_get(m, "f");
  CHECK(g->is_inline && !g->func->func.primitive);
  Expr *e = g->func->func.body;
  CHECK(e->let.value->kind == EX_REF_NEW);
  e = e->let.body;
  CHECK(e->let.value->kind == EX_REF_WRITE && e->let.value->ref_write.value->kind == EX_REF_READ);
  e = e->let.body;
  CHECK(e->let.value->kind == EX_FUNC && e->let.value->func.primitive);
  Expr **t = e->let.body->tuple.fields;
  CHECK(t[0]->call.kind == CALL_EXPR && t[0]->call.args[0]->kind == EX_VAR);
  CHECK_STR(t[0]->call.args[0]->var->name, "v");
  CHECK(t[1]->call.kind == CALL_EXPR && t[1]->call.callee->kind == EX_GLOBAL &&
        t[1]->call.callee->global == g);
  CHECK(t[2]->kind == EX_PROJ && t[2]->proj.index == 1 && t[2]->proj.tuple->proj.index == 0);
  CHECK(t[3]->call.kind == CALL_CTOR && t[3]->call.nargs == 0);
  CHECK(t[4]->call.kind == CALL_EXPR && t[4]->call.callee->call.kind == CALL_CTOR);
  CHECK(t[5]->kind == EX_VAR && t[6]->kind == EX_VAR);
  CHECK(t[7]->kind == EX_TUPLE && t[7]->tuple.n == 1);
  ir_module_free(m);
  /* an empty file is an empty module (with the prelude) */
  m = parse("", &d);
  CHECK(m && m->nfuncs == 0 && m->ntypes == 3);
  ir_module_free(m);
  /* line comments, nested block comments */
  m = parse("// a\n/* b /* c */ d */ def @f() { /**/ 1 } // e", &d);
  CHECK(m && body_of(m, "f")->line == 2 && body_of(m, "f")->col == 35);
  ir_module_free(m);
  diag_free(&d);
}

static void test_errors(void) {
  CHECK_ERROR("def @f() { %y }", "undefined variable `%y`", 1, 12);
  CHECK_ERROR("def @f() {\n  @g()\n}", "undefined global @g", 2, 3);
  CHECK_ERROR("def @f() { foo(1) }", "unknown operator or constructor `foo`", 1, 12);
  CHECK_ERROR("def @f(%x: Foo) { %x }", "unknown type `Foo`", 1, 12);
  CHECK_ERROR("def @f() { 1 }\ndef @f() { 2 }", "`@f` is already defined", 2, 5);
  CHECK_ERROR("def @f(%x) { sum(%x, axes=[1]) }",
              "operator sum has no attribute `axes` (it accepts: axis, keepdims, exclude)", 1, 22);
  CHECK_ERROR("def @f(%x) { sum(%x, keepdims=1) }",
              "attribute keepdims of sum expects bool, found an integer", 1, 31);
  CHECK_ERROR("def @f(%x) { reshape(%x, newshape=None) }",
              "attribute newshape of reshape expects ints, found None", 1, 35);
  CHECK_ERROR("def @f(%x) { sum(%x, axis=[1], axis=[2]) }", "attribute `axis` is given twice", 1,
              32);
  CHECK_ERROR("def @f(%x) { @f(%x, axis=1) }", "attributes are only allowed in operator calls", 1,
              21);
  CHECK_ERROR("def @f(%x) { Cons(%x) }", "constructor Cons expects 2 arguments, found 1", 1, 14);
  CHECK_ERROR("def @f() { Some() }", "constructor Some expects 1 argument, found 0", 1, 12);
  CHECK_ERROR("def @f(%x) { match (%x) { Cons(%a) => %a } }",
              "constructor Cons has 2 fields, the pattern has 1", 1, 27);
  CHECK_ERROR("def @f(%x) { match (%x) { (%a, %a) => %a } }",
              "variable `%a` is bound twice in one pattern", 1, 32);
  CHECK_ERROR("def @f() { 2147483648i32 }",
              "integer literal `2147483648i32` is out of range for int32", 1, 12);
  CHECK_ERROR("def @f() { 9223372036854775808 }",
              "integer literal `9223372036854775808` is out of range for int64", 1, 12);
  CHECK_ERROR("def @f() { -129i8 }", "out of range for int8", 1, 13);
  CHECK_ERROR("def @f() { 99999999999999999999i64 }", "out of range for int64", 1, 12);
  CHECK_ERROR("def @f() { 1e39f }", "float literal `1e39f` is out of range for float32", 1, 12);
  CHECK_ERROR("def @f() { 1.5i32 }", "integer suffix on the float literal `1.5i32`", 1, 12);
  CHECK_ERROR("def @f() { 3u8 }", "unknown literal suffix in `3u8`", 1, 12);
  CHECK_ERROR("def @f() {\n  1 /* never closed\n}", "unterminated block comment", 2, 5);
  CHECK_ERROR("def @f() { \"abc }", "unterminated string literal", 1, 12);
  CHECK_ERROR("def @f() { 1 $ }", "unexpected character `$`", 1, 14);
  CHECK_ERROR("def @f() { 1 }\n\xff\xfe", "unexpected byte 0xff", 2, 1);
  CHECK_ERROR("#[version = \"0.0.4\"]",
              "unsupported text format version `\"0.0.4\"` (expected \"0.0.5\")", 1, 13);
  CHECK_ERROR("def @f() { %0 }", "undefined graph binding `%0`", 1, 12);
  CHECK_ERROR("def @f() { %0 = 1; %0 = 2; %0 }", "graph binding `%0` is already defined", 1, 20);
  CHECK_ERROR("def @f() { free_var %a; free_var %a; %a }", "free variable `%a` is already declared",
              1, 34);
  CHECK_ERROR("def @f(%x, %x) { %x }", "parameter `%x` is declared twice", 1, 12);
  CHECK_ERROR("def @f() { fn (Primitive=2) { 1 } }", "`2` is too large (at most 1)", 1, 26);
  CHECK_ERROR("def @f(%x) { add(axis=1, %x) }", "operator add has no attribute `axis`", 1, 18);
  CHECK_ERROR("def @f(%x: Tensor[(1, 2, 3, 4, 5, 6, 7), float32]) { %x }",
              "tensor rank exceeds the maximum of 6", 1, 38);
  CHECK_ERROR("def @f(%x: Tensor[(2), float8]) { %x }", "unknown dtype `float8`", 1, 24);
  CHECK_ERROR("def @f(%x: Tensor[(?, 1, 2, 3, 4, 5, ?), float32]) { %x }",
              "tensor rank exceeds the maximum of 6", 1, 38);
  CHECK_ERROR("def @f() { Tensor[(?), float32]([1]) }",
              "a tensor literal's shape cannot have an Any dim `?`", 1, 12);
  CHECK_ERROR("def @f(%x: Tensor[(?3), float32]) { %x }", "`,` or `)` in the shape", 1, 21);
  CHECK_ERROR("def @f(%x: List) { %x }", "type List expects 1 type argument, found 0", 1, 12);
  CHECK_ERROR("def @f() { Tensor[(2, 2), float32]([[1, 2], [3]]) }",
              "dimension 1 has 1 element, expected 2", 1, 47);
  CHECK_ERROR("def @f() { Tensor[(2), float32]([1, 2, 3]) }",
              "dimension 0 has more than 2 elements", 1, 33);
  CHECK_ERROR("def @f() { Tensor[(2), int32]([1, 2.5]) }", "expected an integer in a int32 tensor",
              1, 35);
  CHECK_ERROR("def @f() { Tensor[(1), float32]([nan(0x800000)]) }",
              "must be nonzero and fit in 23 bits", 1, 38);
  CHECK_ERROR("def @f() { Tensor[(1000000, 1000000), float32]([]) }",
              "the tensor literal needs 1000000000000 elements; the input is shorter", 1, 47);
  CHECK_ERROR("type List[A] { Nil2 }\ntype List[A] { Nil3 }", "type `List` is already defined", 2,
              6);
  CHECK_ERROR("type T { add }", "`add` cannot name a constructor", 1, 10);
  CHECK_ERROR("type T { A }\ntype U { A }", "constructor `A` is already defined", 2, 10);
  CHECK_ERROR("def @f() { Foo }\ntype T { Foo }", "unknown operator or constructor `Foo`", 1, 12);
  CHECK_ERROR("def @f() { let %x = 1; }", "expected an expression, found `}`", 1, 24);
  CHECK_ERROR("def @f() { (1, 2 }", "expected `,` or `)` in the tuple, found `}`", 1, 18);
  CHECK_ERROR("let", "expected a variable `%name` after `let`, found end of input", 1, 4);
  CHECK_ERROR("def @f() { 1 } let", "expected `def` or `type`, found `let`", 1, 16);
  CHECK_ERROR("def @f[float32]() { 1 }", "`float32` is reserved and cannot name a type parameter",
              1, 8);
}

static void test_more_errors(void) {
  CHECK_ERROR("def @f() { Tensor[(2), bool]([1, 0]) }",
              "expected `True` or `False` in a bool tensor, found `1`", 1, 31);
  CHECK_ERROR("def @f() { Tensor[(1), float32]([True]) }",
              "expected a number, `nan` or `inf` in a float32 tensor, found `True`", 1, 34);
  CHECK_ERROR("def @f() { Tensor[(1), float32]([nan(5)]) }",
              "expected a hexadecimal NaN payload, found `5`", 1, 38);
  CHECK_ERROR("def @f() { Tensor[(1), float64]([nan(0x10000000000000000)]) }",
              "NaN payload `0x10000000000000000` is too large", 1, 38);
  CHECK_ERROR("def @f() { 0x1f }", "hexadecimal literals are only allowed as NaN payloads", 1, 12);
  CHECK_ERROR("type a.b { X }", "type name `a.b` must not contain `.`", 1, 6);
  CHECK_ERROR("def @f[A, A]() { 1 }", "type parameter `A` is declared twice", 1, 11);
  CHECK_ERROR("def @f[List]() { 1 }", "type parameter `List` has the name of a type", 1, 8);
  CHECK_ERROR("def @f(%x: Tensor[(2147483647, 2147483647, 2147483647), float32]) { %x }",
              "tensor shape has too many elements", 1, 44);
  CHECK_ERROR("def @f(%x: Tensor[(2147483648), float32]) { %x }",
              "a dimension `2147483648` is too large (at most 2147483647)", 1, 20);
  CHECK_ERROR("def @f[A](%x: A[float32]) { %x }", "type variable `A` takes no type arguments", 1,
              16);
  CHECK_ERROR("def @f(%x: ,) { %x }", "expected a type, found `,`", 1, 12);
  CHECK_ERROR("def @f(%x) { nn.pad(%x, pad_width=[[1, 2, 3]]) }",
              "a pair must hold exactly two integers", 1, 36);
  CHECK_ERROR("def @f(%x) { sum(%x, axis=[1.5]) }", "expected an integer, found `1.5`", 1, 28);
  CHECK_ERROR("def @f(%x) { clip(%x, a_min=1i64) }",
              "unexpected suffix on the attribute value `1i64`", 1, 29);
  CHECK_ERROR("def @f(%x) { clip(%x, a_min=\"a\") }",
              "attribute a_min of clip expects float, found a string", 1, 29);
  CHECK_ERROR("def @f(%x) { clip(%x, a_min=[1]) }",
              "attribute a_min of clip expects float, found a list of integers", 1, 29);
  CHECK_ERROR("def @f(%x) { sum(%x, axis=1) }",
              "attribute axis of sum expects ints or None, found an integer", 1, 27);
  CHECK_ERROR("def @f(Primitive=1, %x) { %x }", "a parameter cannot follow the function attributes",
              1, 21);
  CHECK_ERROR("def @f(Primitive=2) { 1 }", "0 or 1 `2` is too large (at most 1)", 1, 18);
  CHECK_ERROR("def @f(1) { 1 }", "expected a parameter `%name`, found `1`", 1, 8);
  CHECK_ERROR("def @f(%x) { match (%x) { Foo => 1 } }", "unknown constructor `Foo` in a pattern", 1,
              27);
  CHECK_ERROR("def @f(%x) { match (%x) { 1 => 1 } }", "expected a pattern, found `1`", 1, 27);
  CHECK_ERROR("def @f() { %99999999999 = 1; 2 }",
              "graph binding number `%99999999999` is too large", 1, 12);
  CHECK_ERROR("def @f() { \"\\x00\" }", "`\\x00` cannot appear in a string", 1, 12);
  CHECK_ERROR("def @f() { \"\\q\" }", "invalid escape sequence in a string literal", 1, 12);
  CHECK_ERROR("def @f() { % }", "expected a name or a number after `%`", 1, 12);
  CHECK_ERROR("def @f() { @1 }", "expected a name after `@`", 1, 12);
  CHECK_ERROR("def @f() { (1, 2).x }", "expected a tuple index, found `x`", 1, 19);
  CHECK_ERROR("def @f() { if (True) { 1 } }", "expected `else`, found `}`", 1, 28);
  CHECK_ERROR("def @f() { add }", "expected `(` and the arguments of the operator, found `}`", 1,
              16);
  /* dimensions may carry TVM's 64-bit suffix; relational operators */
  Diag d;
  Module *m =
      parse("def @f(%x: Tensor[(2i64, 3i32), float32], %a, %b) { (%a > %b, %a <= %b) }", &d);
  CHECK(m && ir_global_get(m, "f")->func->func.params[0]->annot->tensor.shape[0] == 2);
  if (m) {
    Expr **t = body_of(m, "f")->tuple.fields;
    CHECK(t[0]->call.op == OP_GREATER && t[1]->call.op == OP_LESS_EQUAL);
  }
  ir_module_free(m);
  diag_free(&d);
}

static void test_multiple_errors(void) {
  Diag d;
  const char *src = "def @a() { %nope }\n"
                    "def @b() { 1 }\n"
                    "def @c() { add(1 }\n"
                    "type T { X(Nope) }\n"
                    "def @d() { @missing(@a()) }\n";
  Module *m = parse(src, &d);
  CHECK(m == NULL);
  /* one error per broken item, then the undefined global at the end;
   * @a failed to parse but is not reported again as undefined */
  CHECK_MSG(d.count == 4, "count %d:\n%s", d.count, d.text);
  CHECK(d.line == 1 && d.col == 12);
  CHECK(strstr(d.text, "t.relay:1:12: error: undefined variable `%nope`: expected a variable "
                       "bound by an enclosing let, function or pattern (or declared by free_var), "
                       "found none in scope\n"
                       "def @a() { %nope }\n"
                       "           ^\n"));
  CHECK(strstr(d.text, "t.relay:3:18: error: expected `,` or `)` in the arguments, found `}`"));
  CHECK(strstr(d.text, "t.relay:4:12: error: unknown type `Nope`"));
  CHECK(strstr(d.text, "t.relay:5:12: error: undefined global @missing"));
  CHECK(!strstr(d.text, "undefined global @a"));
  diag_free(&d);

  /* the error cap */
  char big[4096] = "";
  for (int i = 0; i < 40; i++)
    strcat(big, "def @f() { %x }\n");
  m = parse(big, &d);
  CHECK(!m && d.count == 21 && strstr(d.text, "too many errors"));
  diag_free(&d);
}

/* A long line is echoed clipped to 80 columns around the caret, which
 * stays under the error. */
static void test_long_line(void) {
  char src[4096] = "def @a() -> float32 { ";
  for (int i = 0; i < 200; i++)
    strcat(src, "1f + ");
  strcat(src, "%nope");
  for (int i = 0; i < 200; i++)
    strcat(src, " + 1f");
  strcat(src, " }\n");
  Diag d;
  Module *m = parse(src, &d);
  CHECK(!m && d.line == 1 && d.col == 1023);
  const char *l = strchr(d.text, '\n') + 1, *caret = strchr(l, '\n') + 1;
  const char *end = strchr(caret, '\n');
  CHECK_MSG(caret - l <= 88 && strncmp(l, "...", 3) == 0 && strstr(l, "...\n") == caret - 4,
            "the echoed line is not clipped:\n%s", d.text);
  const char *at = strstr(l, "%nope");
  CHECK_MSG(at && end && end[-1] == '^' && end - 1 - caret == at - l,
            "the caret is not under it:\n%s", d.text);
  diag_free(&d);
}

/* Builds a string of n copies of a, then mid, then n copies of b. */
static char *nest(int n, const char *pre, const char *a, const char *mid, const char *b,
                  const char *post) {
  size_t len = strlen(pre) + n * (strlen(a) + strlen(b)) + strlen(mid) + strlen(post) + 1;
  char *s = malloc(len), *q = s;
  q += sprintf(q, "%s", pre);
  for (int i = 0; i < n; i++)
    q += sprintf(q, "%s", a);
  q += sprintf(q, "%s", mid);
  for (int i = 0; i < n; i++)
    q += sprintf(q, "%s", b);
  sprintf(q, "%s", post);
  return s;
}

static void test_depth_limits(void) {
  Diag d;
  /* 511 nested parentheses are fine; 100000 are an error, not a crash */
  char *s = nest(500, "def @f() { ", "(", "1", ")", " }");
  Module *m = parse(s, &d);
  CHECK(m != NULL);
  ir_module_free(m);
  free(s);
  s = nest(100000, "def @f() { ", "(", "1", ")", " }");
  m = parse(s, &d);
  CHECK(!m && d.count == 1 && strstr(d.first, "nesting is deeper than 512 levels") && d.line == 1 &&
        d.col == 12 + 512);
  ir_module_free(m);
  diag_free(&d);
  free(s);
  s = nest(100000, "def @f(%x: ", "(", "float32", ",)", ") { %x }");
  m = parse(s, &d);
  CHECK(!m && strstr(d.first, "nesting is deeper than 512"));
  diag_free(&d);
  free(s);
  s = nest(100000, "def @f() { ", "-", "%x", "", " }");
  m = parse(s, &d);
  CHECK(!m && strstr(d.first, "nesting is deeper than 512"));
  diag_free(&d);
  free(s);
  s = nest(100000, "def @f(%x) { match (%x) { ", "Some(", "_", ")", " => 1 } }");
  m = parse(s, &d);
  CHECK(!m && strstr(d.first, "nesting is deeper than 512"));
  diag_free(&d);
  free(s);
  /* long let chains are parsed without recursion, up to IR_MAX_DEPTH */
  s = nest(3000, "def @f(%x0) { ", "let %x0 = add(%x0, 1f); ", "%x0", "", " }");
  m = parse(s, &d);
  CHECK(m != NULL);
  ir_module_free(m);
  free(s);
  s = nest(12000, "def @f(%x0) { ", "let %x0 = %x0; ", "%x0", "", " }");
  m = parse(s, &d);
  CHECK(!m && strstr(d.first, "the definition of `@f` is deeper than 4000 levels (IR_MAX_DEPTH"));
  diag_free(&d);
  free(s);
  /* graph bindings nest without nesting the text: up to IR_MAX_NESTING */
  s = malloc(600 * 40 + 64);
  char *q = s + sprintf(s, "def @f(%%x) { %%0 = negative(%%x); ");
  for (int i = 1; i < 600; i++)
    q += sprintf(q, "%%%d = negative(%%%d); ", i, i - 1);
  sprintf(q, "%%599 }");
  m = parse(s, &d);
  CHECK(!m && strstr(d.first, "the definition of `@f` nests deeper than 512 levels "
                              "(IR_MAX_NESTING, counting graph bindings)"));
  diag_free(&d);
  free(s);
}

/* Arbitrary bytes never crash the parser; every failure has a message. */
static void test_garbage(void) {
  uint64_t x = 88172645463325252ull;
  static const char alphabet[] = "def@%(){}[],;:.=<>-+*/_\"#0123456789aefnxTL \n\t\0\xff";
  size_t na = sizeof alphabet - 1;
  for (int round = 0; round < 3000; round++) {
    char buf[96];
    size_t n = (size_t)(round % 96);
    for (size_t i = 0; i < n; i++) {
      x ^= x << 13, x ^= x >> 7, x ^= x << 17;
      buf[i] = round & 1 ? alphabet[x % na] : (char)(x & 0xff);
    }
    Diag d;
    diag_init(&d, "g", NULL);
    Module *m = ir_parse_module(buf, n, "g", &d);
    CHECK(m || d.count > 0);
    ir_module_free(m);
    diag_free(&d);
  }
  /* NUL bytes inside the text are reported, not a truncation */
  Diag d;
  diag_init(&d, "nul", NULL);
  Module *m = ir_parse_module("def @f() { 1 }\0 junk", 20, "nul", &d);
  CHECK(!m && d.count == 1 && strstr(d.first, "unexpected byte 0x00") && d.col == 15);
  diag_free(&d);
}

/* Every node of every seed-corpus program has a source position. */
static long unpositioned;

static void check_pos(Expr **slot, void *ctx) {
  if ((*slot)->line <= 0 || (*slot)->col <= 0)
    unpositioned++;
  ir_expr_children(*slot, check_pos, ctx);
}

static void test_positions(void) {
  static const char *const files[] = {
      "01_defs",    "02_let",          "03_graph",  "04_if",    "05_fn",       "06_globals",
      "07_poly",    "08_adt",          "09_match",  "10_ref",   "11_tuples",   "12_literals",
      "13_tensors", "14_infix",        "15_attrs",  "16_types", "17_free_var", "18_comments",
      "19_net",     "20_mutual_types", "21_sharing"};
  for (size_t i = 0; i < sizeof files / sizeof files[0]; i++) {
    char path[256];
    snprintf(path, sizeof path, "harnesses/corpus/parse_fuzzer/%s.relay", files[i]);
    size_t len;
    char *text = test_read_file(path, &len);
    CHECK_MSG(text != NULL, "cannot read %s", path);
    if (!text)
      continue;
    Diag d;
    diag_init(&d, path, NULL);
    Module *m = ir_parse_module(text, len, path, &d);
    CHECK_MSG(m != NULL, "%s: %s", path, d.text);
    unpositioned = 0;
    for (int f = 0; m && f < m->nfuncs; f++)
      check_pos(&m->funcs[f]->func, NULL);
    CHECK_MSG(unpositioned == 0, "%s: %ld nodes without a position", path, unpositioned);
    ir_module_free(m);
    diag_free(&d);
    free(text);
  }
}

int main(void) {
  test_positions();
  test_structure();
  test_precedence();
  test_literals();
  test_types_and_adts();
  test_prelude_and_sequencing();
  test_attrs();
  test_misc_forms();
  test_errors();
  test_more_errors();
  test_multiple_errors();
  test_long_line();
  test_depth_limits();
  test_garbage();
  return test_summary();
}
