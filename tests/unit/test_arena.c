/* Arena, diagnostics and basic type/tensor helpers. */
#include <math.h>

#include "compiler/ir/asan.h"
#include "compiler/ir/ir.h"
#include "test.h"

#ifdef RS_ASAN
#include <sanitizer/asan_interface.h>
#endif

static void test_arena(void) {
  Arena *a = arena_new();
  char *p = arena_alloc(a, 10);
  CHECK(((uintptr_t)p & 15) == 0);
  CHECK(p[0] == 0 && p[9] == 0);
#ifdef RS_ASAN
  /* The chunk past what was handed out is poisoned: ASan catches an
   * overrun of an arena allocation. */
  CHECK(!__asan_address_is_poisoned(p + 9) && __asan_address_is_poisoned(p + 64));
#endif
  char *big = arena_alloc(a, 1 << 20); /* larger than a chunk */
  big[(1 << 20) - 1] = 1;
  char *q = arena_alloc(a, 16);
  CHECK(q != p && q != big);
  CHECK_STR(arena_printf(a, "%d-%s", 42, "x"), "42-x");
  CHECK(arena_used(a) >= (1 << 20));
  arena_free(a);
}

static void test_diag(void) {
  Diag d;
  diag_init(&d, "t.relay", "line one\n  bad token here\n");
  diag_error(&d, 2, 3, "unexpected %s", "token");
  CHECK(d.count == 1 && d.line == 2 && d.col == 3);
  CHECK_STR(d.text, "t.relay:2:3: error: unexpected token\n  bad token here\n  ^\n");
  CHECK_STR(d.first, "unexpected token");
  diag_error(&d, 0, 0, "no position");
  CHECK(d.count == 2 && strstr(d.text, "error: no position\n"));
  diag_free(&d);
}

static void test_casts(void) {
  CHECK(ir_sat_f64_to_int(NAN, DT_INT32) == 0);
  CHECK(ir_sat_f64_to_int(1e30, DT_INT8) == 127);
  CHECK(ir_sat_f64_to_int(-1e30, DT_INT32) == INT32_MIN);
  CHECK(ir_sat_f64_to_int(1e300, DT_INT64) == INT64_MAX);
  CHECK(ir_sat_f64_to_int(-2.7, DT_INT64) == -2);
  CHECK(ir_wrap_int(300, DT_INT8) == 44);
  CHECK(ir_wrap_int(INT64_MIN, DT_INT32) == 0);
}

static void test_types(void) {
  Module *m = ir_module_new();
  int64_t s[2] = {2, 3};
  Type *t1 = ir_tensor_type(m->arena, DT_FLOAT32, 2, s);
  Type *t2 = ir_tensor_type(m->arena, DT_FLOAT32, 2, s);
  CHECK(ir_type_equal(t1, t2));
  CHECK(ir_type_numel(t1) == 6);
  Type *a = ir_list_def(m)->tvars[0];
  Type *la = ir_adt_type(m->arena, ir_list_def(m), 1, &a);
  Type *lt = ir_type_subst(m->arena, la, 1, &a, &t1);
  CHECK(lt != la && ir_type_equal(lt->adt.args[0], t1));
  CHECK(ir_ctor_get(m, "Rose") && ir_ctor_get(m, "Rose")->def == ir_tree_def(m));
  CHECK(ir_ctor_get(m, "Nil")->tag == 1);
  Tensor *x = ir_tensor_new(m->arena, DT_INT8, 2, s);
  ir_tensor_set_i64(x, 5, 200);
  CHECK(ir_tensor_get_i64(x, 5) == -56);
  OpId op;
  CHECK(ir_op_lookup("nn.conv2d", 9, &op) && op == OP_CONV2D);
  CHECK(strcmp(ir_op_name(OP_ADD), "add") == 0);
  ir_module_free(m);
}

int main(void) {
  test_arena();
  test_diag();
  test_casts();
  test_types();
  return test_summary();
}
