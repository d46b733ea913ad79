/*
 * test_runtime.c - the MLIR runtime (targets/mlir/session.h) against MLIR 22:
 * the four hand-translated examples parse, verify, validate, lower with the
 * full pipeline to legal LLVM dialect and, JIT-compiled in-process, give
 * the values relayc's interpreter gives on the same inputs; bad pipelines,
 * failing stages, invalid IR and bad calls fail cleanly with MLIR's
 * diagnostic; the semantic observer is stable across contexts and sees
 * whether a stage changed the module; contexts are recycled; an LLVM fatal
 * error is tagged before the abort.  Run from the source root (ctest
 * does it), under LeakSanitizer.
 */
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "mlir-c/IR.h"
#include "mlir-c/RegisterEverything.h"

#include "compiler/ir/asan.h"
#include "examples.h"
#include "targets/mlir/session.h"
#include "tests/unit/test.h"

/* The trap test's compiled code loses what it allocated before the trap
 * (jit.c): LeakSanitizer is told not to count it. */
#ifdef RS_ASAN
#include <sanitizer/lsan_interface.h>
#define LSAN_OFF() __lsan_disable()
#define LSAN_ON() __lsan_enable()
#else
#define LSAN_OFF() ((void)0)
#define LSAN_ON() ((void)0)
#endif

static const char *const dir = "tests/mlir/examples";

static bool has(const char *text, const char *part) {
  return text && strstr(text, part) != NULL;
}

/* ------------------------------------------------------------ examples */

/* Every call of @f in the example's @main, run by the JIT and by relayc's
 * interpreter, must give the same values. */
static void check_calls(MlsSession *s, const Example *ex, MlsJit *j, int nresults) {
  for (int c = 0; c < ex->ncalls; c++) {
    EvRun *run = ev_run_new(NULL);
    EvValue *args[EXAMPLE_MAX_ARGS];
    for (int i = 0; i < ex->nargs; i++)
      args[i] = ev_val_tensor(run, ex->args[c][i]);
    EvResult want = ev_call_global(run, ex->f, ex->nargs, args);
    CHECK_MSG(want.status == EV_OK, "%s: interpreter: %s", ex->name, want.msg);
    Tensor *flat[8];
    int n = want.status == EV_OK ? example_flatten(want.value, flat, 0, 8) : -1;
    CHECK_MSG(n == nresults, "%s: relayc gives %d tensors, the MLIR entry %d", ex->name, n,
              nresults);
    Tensor **got = NULL;
    bool ran = mls_call(s, j, ex->nargs, ex->args[c], run->arena, &got) == MLS_CALL_OK;
    CHECK_MSG(ran, "%s: call %d: %s", ex->name, c, mls_diag(s));
    for (int i = 0; ran && i < n && n == nresults; i++) {
      char why[256] = "";
      /* A lowering may reassociate floats; everything else is exact. */
      static const EvRules lowered = {.tol = &ev_default_tolerance};
      EvVerdict v = ev_compare_values(ev_val_tensor(run, got[i]), ev_val_tensor(run, flat[i]),
                                      &lowered, why, sizeof why);
      CHECK_MSG(v == EV_SAME, "%s: call %d, result %d: MLIR vs relayc: %s", ex->name, c, i, why);
    }
    ev_run_free(run);
  }
}

/* One example through the whole path, its code compiled at opt. */
static void check_example(MlsSession *s, const char *name, int opt) {
  Example ex;
  bool loaded = example_load(&ex, dir, name);
  CHECK_MSG(loaded, "%s: cannot load the example", name);
  MlsModule *m = loaded ? mls_parse(s, ex.mlir) : NULL;
  CHECK_MSG(!loaded || m, "%s: parse: %s", name, mls_diag(s));
  if (!m) {
    example_free(&ex);
    return;
  }
  CHECK_MSG(mls_verify(s, m), "%s: verify: %s", name, mls_diag(s));
  CHECK_MSG(mls_validate(s, m), "%s: validate: %s", name, mls_diag(s));
  char *text = mls_print(s, m);
  CHECK_MSG(has(text, "func.func @f") && !has(text, "tosa.target_env"),
            "%s: validation changed the module:\n%s", name, text);
  free(text);
  CHECK_MSG(mls_entry(s, m, "f"), "%s: entry: %s", name, mls_diag(s));
  const MlsSig *sig = mls_entry_sig(m);
  CHECK(sig && sig->nparams == ex.nargs);
  int nresults = sig ? sig->nresults : -1;
  CHECK_MSG(mls_run(s, m, MLS_FULL_PIPELINE) == MLS_OK, "%s: lowering: %s", name, mls_diag(s));
  CHECK_MSG(mls_verify(s, m), "%s: verify after lowering: %s", name, mls_diag(s));
  CHECK_MSG(mls_legal(s, m), "%s: legality: %s", name, mls_diag(s));
  MlsJit *j = mls_jit(s, m, opt);
  CHECK_MSG(j, "%s: jit at opt %d: %s", name, opt, mls_diag(s));
  mls_module_free(m); /* the compiled code does not need it */
  if (j)
    check_calls(s, &ex, j, nresults);
  mls_jit_free(j);
  example_free(&ex);
}

/* ------------------------------------------------------------ failures */

/* ex1 with a wrong result type: the verifier rejects it at the op. */
static const char *const invalid_ir = "func.func @f(%a: tensor<2xf32>) -> tensor<3xf32> {\n"
                                      "  %x = tosa.abs %a : (tensor<2xf32>) -> tensor<3xf32>\n"
                                      "  return %x : tensor<3xf32>\n"
                                      "}\n";

/* Valid IR that tosa-validate rejects and no lowering handles. */
static const char *const exp_i32 = "func.func @f(%a: tensor<2xi32>) -> tensor<2xi32> {\n"
                                   "  %x = tosa.exp %a : (tensor<2xi32>) -> tensor<2xi32>\n"
                                   "  return %x : tensor<2xi32>\n"
                                   "}\n";

static void test_failures(MlsSession *s) {
  /* A syntax error and a verifier error: no module, the position and a caret. */
  CHECK(!mls_parse(s, "func.func @f( {\n"));
  CHECK_MSG(has(mls_diag(s), "1:14: error: expected non-function type"), "%s", mls_diag(s));
  CHECK(!mls_parse(s, invalid_ir));
  CHECK_MSG(has(mls_diag(s), "2:8: error: 'tosa.abs' op") &&
                has(mls_diag(s), "  %x = tosa.abs %a : (tensor<2xf32>) -> tensor<3xf32>\n"
                                 "       ^\n"),
            "%s", mls_diag(s));

  /* A bad pass name: the pipeline is refused, naming the pass. */
  const char *bad = "builtin.module(func.func(tosa-to-linalgx))";
  CHECK(!mls_pipeline_ok(s, bad));
  CHECK_MSG(has(mls_diag(s), "'tosa-to-linalgx' does not refer to a registered pass"), "%s",
            mls_diag(s));
  CHECK(mls_pipeline_ok(s, "builtin.module(canonicalize)"));
  CHECK_STR(mls_diag(s), "");

  MlsModule *m = mls_parse(s, exp_i32);
  CHECK_MSG(m, "%s", mls_diag(s));
  if (!m)
    return;
  CHECK(mls_run(s, m, bad) == MLS_BAD_PIPELINE);
  CHECK(has(mls_diag(s), "tosa-to-linalgx"));
  /* Validation rejects exp on i32; the verifier does not. */
  CHECK(mls_verify(s, m));
  CHECK(!mls_validate(s, m));
  CHECK_MSG(has(mls_diag(s), "2:8: error: 'tosa.exp' op illegal"), "%s", mls_diag(s));
  /* The lowering fails cleanly with its diagnostic, pointing at the op. */
  CHECK(mls_run(s, m, "builtin.module(func.func(tosa-to-linalg))") == MLS_FAILED);
  CHECK_MSG(has(mls_diag(s), "2:8: error: failed to legalize operation 'tosa.exp'\n"
                             "  %x = tosa.exp %a : (tensor<2xi32>) -> tensor<2xi32>\n"
                             "       ^\n") &&
                has(mls_diag(s), "note: see current operation"),
            "%s", mls_diag(s));
  /* Not lowered: illegal, and nothing to call. */
  CHECK(!mls_legal(s, m));
  CHECK_MSG(has(mls_diag(s), "3 ops other than builtin.module and llvm.*") &&
                has(mls_diag(s), "the first: 'func.func'"),
            "%s", mls_diag(s));
  CHECK(!mls_jit(s, m, 0));
  CHECK(has(mls_diag(s), "no entry to compile"));
  CHECK(!mls_entry(s, m, "g"));
  CHECK(has(mls_diag(s), "no func.func @g"));
  mls_module_free(m);

  /* An op a conversion leaves behind, wrapped in unrealized casts (MLIR
   * 22's convert-math-to-llvm and math.absi on a 2-d vector): the key
   * names that op and its type, not the casts. */
  m = mls_parse(s, "func.func @f(%v: vector<2x3xi32>) -> vector<2x3xi32> {\n"
                   "  %r = math.absi %v : vector<2x3xi32>\n"
                   "  return %r : vector<2x3xi32>\n"
                   "}\n");
  CHECK_MSG(m, "%s", mls_diag(s));
  if (m && mls_run(s, m, "builtin.module(convert-to-llvm,reconcile-unrealized-casts)") == MLS_OK) {
    CHECK(!mls_legal(s, m));
    CHECK_MSG(has(mls_diag(s), "3 ops other than builtin.module and llvm.* after lowering; "
                               "the first: 'math.absi' of vector<2x3xi32> (from 2:"),
              "%s", mls_diag(s));
  } else {
    CHECK_MSG(false, "convert-to-llvm: %s", mls_diag(s));
  }
  mls_module_free(m);

  /* A module lowered without its entry marked has no wrapper to call. */
  m = mls_parse(s, "func.func @f(%a: tensor<2xf32>) -> tensor<2xf32> {\n"
                   "  %x = tosa.abs %a : (tensor<2xf32>) -> tensor<2xf32>\n"
                   "  return %x : tensor<2xf32>\n"
                   "}\n");
  CHECK(m && mls_entry(s, m, "f"));
  MlsModule *unmarked = mls_parse(s, "func.func @f(%a: tensor<2xf32>) -> tensor<2xf32> {\n"
                                     "  return %a : tensor<2xf32>\n"
                                     "}\n");
  CHECK(unmarked);
  if (!m || !unmarked)
    return;
  CHECK(mls_run(s, m, MLS_FULL_PIPELINE) == MLS_OK && mls_legal(s, m));
  MlsJit *j = mls_jit(s, m, 0);
  CHECK_MSG(j, "%s", mls_diag(s));
  Arena *a = arena_new();
  int64_t two = 2, three = 3;
  Tensor *ok = ir_tensor_new(a, DT_FLOAT32, 1, &two),
         *wrong = ir_tensor_new(a, DT_FLOAT32, 1, &three);
  ((float *)ok->data)[0] = -1.5f;
  ((float *)ok->data)[1] = 2.0f;
  Tensor **res = NULL;
  CHECK(j && mls_call(s, j, 1, &wrong, a, &res) == MLS_CALL_BAD);
  CHECK_MSG(has(mls_diag(s), "argument 0 is float32(3); the entry takes float32(2)"), "%s",
            mls_diag(s));
  CHECK(j && mls_call(s, j, 0, NULL, a, &res) == MLS_CALL_BAD);
  CHECK(j && mls_call(s, j, 1, &ok, a, &res) == MLS_CALL_OK);
  CHECK(res && ((float *)res[0]->data)[0] == 1.5f && ((float *)res[0]->data)[1] == 2.0f);
  CHECK(((float *)ok->data)[0] == -1.5f);
  mls_jit_free(j);
  mls_module_free(m);
  /* Compiled code that traps (an integer division by zero): the call says
   * so, and the next call runs. */
  m = mls_parse(s, "func.func @f(%a: tensor<2xi32>, %b: tensor<2xi32>) -> tensor<2xi32> {\n"
                   "  %x = tosa.intdiv %a, %b : (tensor<2xi32>, tensor<2xi32>) -> tensor<2xi32>\n"
                   "  return %x : tensor<2xi32>\n"
                   "}\n");
  CHECK(m && mls_entry(s, m, "f") && mls_run(s, m, MLS_FULL_PIPELINE) == MLS_OK && mls_legal(s, m));
  j = m ? mls_jit(s, m, 0) : NULL;
  CHECK_MSG(j, "%s", mls_diag(s));
  Tensor *num = ir_tensor_new(a, DT_INT32, 1, &two), *den = ir_tensor_new(a, DT_INT32, 1, &two);
  ((int32_t *)num->data)[0] = 7, ((int32_t *)num->data)[1] = 9;
  ((int32_t *)den->data)[0] = 2, ((int32_t *)den->data)[1] = 0;
  Tensor *div0[] = {num, den};
  LSAN_OFF();
  CHECK(j && mls_call(s, j, 2, div0, a, &res) == MLS_CALL_TRAP);
  LSAN_ON();
  CHECK_MSG(has(mls_diag(s), "the compiled code trapped: SIGFPE"), "%s", mls_diag(s));
  ((int32_t *)den->data)[1] = 3;
  CHECK(j && mls_call(s, j, 2, div0, a, &res) == MLS_CALL_OK);
  CHECK(res && ((int32_t *)res[0]->data)[0] == 3 && ((int32_t *)res[0]->data)[1] == 3);
  if (j)
    mls_jit_free(j);
  arena_free(a);
  mls_module_free(m);
  /* A call of a function nobody defines: refused before LLVM's JIT would
   * print its own error. */
  m = mls_parse(s, "func.func private @nowhere(tensor<2xf32>) -> tensor<2xf32>\n"
                   "func.func @f(%a: tensor<2xf32>) -> tensor<2xf32> {\n"
                   "  %x = func.call @nowhere(%a) : (tensor<2xf32>) -> tensor<2xf32>\n"
                   "  return %x : tensor<2xf32>\n"
                   "}\n");
  CHECK(m && mls_entry(s, m, "f") && mls_run(s, m, MLS_FULL_PIPELINE) == MLS_OK);
  CHECK(m && !mls_jit(s, m, 0));
  CHECK_MSG(has(mls_diag(s), "the module calls @nowhere, which neither the process nor"), "%s",
            mls_diag(s));
  mls_module_free(m);
  /* Marking the entry after the lowering is too late: func.func is gone. */
  m = unmarked;
  CHECK(mls_run(s, m, MLS_FULL_PIPELINE) == MLS_OK && mls_legal(s, m));
  CHECK(!mls_entry(s, m, "f"));
  CHECK(has(mls_diag(s), "no func.func @f"));
  CHECK(!mls_jit(s, m, 0));
  CHECK(has(mls_diag(s), "no entry to compile"));
  mls_module_free(m);
}

/* ------------------------------------------------------------ observer */

typedef struct Seen {
  int ops, edges, changed, unchanged;
  uint64_t sum; /* of hashes: equal for equal multisets (nearly) */
  bool tosa_abs;
} Seen;

static void seen(void *ud, const MlsFeature *f) {
  Seen *s = ud;
  s->sum += f->hash * 0x9e3779b97f4a7c15u;
  switch (f->kind) {
  case MLS_FEAT_OP:
    s->ops++;
    s->tosa_abs |= f->op_len == 8 && !memcmp(f->op, "tosa.abs", 8) && f->stage == 0;
    break;
  case MLS_FEAT_EDGE: s->edges++; break;
  case MLS_FEAT_CHANGED: f->changed ? s->changed++ : s->unchanged++; break;
  }
}

static const char *const to_linalg =
    "builtin.module(func.func(tosa-to-linalg-named,tosa-to-linalg,tosa-to-arith,tosa-to-tensor))";

/* ex1 parsed, through one TOSA->linalg stage and one stage that leaves it
 * as it is, in a fresh session. */
static Seen observe_ex1(void) {
  Seen out = {0};
  MlsSession *s = mls_session_new(0);
  mls_observe(s, seen, &out);
  char path[256];
  snprintf(path, sizeof path, "%s/ex1_chain.mlir", dir);
  char *text = example_read(path);
  MlsModule *m = text ? mls_parse(s, text) : NULL;
  CHECK(m);
  if (m) {
    CHECK(mls_run(s, m, to_linalg) == MLS_OK);
    CHECK(mls_run(s, m, "builtin.module(symbol-dce)") == MLS_OK);
    mls_module_free(m);
  }
  free(text);
  mls_session_free(s);
  return out;
}

static void test_observer(void) {
  Seen a = observe_ex1(), b = observe_ex1();
  CHECK(a.tosa_abs);
  CHECK_MSG(a.ops > 60 && a.edges > a.ops, "%d ops, %d edges", a.ops, a.edges);
  CHECK_MSG(a.changed == 1 && a.unchanged == 1, "%d changed, %d unchanged", a.changed, a.unchanged);
  /* The same features in another context (other addresses). */
  CHECK(a.ops == b.ops && a.edges == b.edges && a.sum == b.sum);
}

/* -------------------------------------------------------------- contexts */

static void test_recycle(void) {
  MlsSession *s = mls_session_new(2);
  const char *text = "func.func @f() { return }\n";
  for (int i = 0; i < 5; i++) {
    MlsModule *m = mls_parse(s, text);
    CHECK(m && mls_run(s, m, "builtin.module(canonicalize)") == MLS_OK);
    mls_module_free(m);
  }
  MlsStats st = mls_stats(s);
  CHECK_MSG(st.parses == 5 && st.contexts == 3 && st.live == 0, "%ld parses, %d contexts",
            st.parses, st.contexts);
  CHECK(st.pipelines == 1); /* one cached pass manager, made again per context */
  /* A module alive keeps the context. */
  MlsModule *keep = mls_parse(s, text);
  for (int i = 0; i < 3; i++)
    mls_module_free(mls_parse(s, text));
  CHECK(mls_stats(s).contexts == 3 && mls_stats(s).live == 1);
  mls_module_free(keep);
  mls_module_free(mls_parse(s, text));
  CHECK(mls_stats(s).contexts == 4);
  mls_session_free(s);
}

/* ----------------------------------------------------------- fatal error */

/* Exported by libLLVM, not declared by the MLIR packages' headers.  LLVM's
 * interpreter cannot load a struct value and says so with
 * report_fatal_error: a fatal error reachable from C. */
typedef struct LLVMOpaqueModule *LLVMModuleRef;
typedef struct LLVMOpaqueContext *LLVMContextRef;
typedef struct LLVMOpaqueExecutionEngine *LLVMExecutionEngineRef;
typedef struct LLVMOpaqueGenericValue *LLVMGenericValueRef;
typedef struct LLVMOpaqueValue *LLVMValueRef;
LLVMModuleRef mlirTranslateModuleToLLVMIR(MlirOperation module, LLVMContextRef context);
LLVMContextRef LLVMContextCreate(void);
void LLVMLinkInInterpreter(void);
int LLVMCreateInterpreterForModule(LLVMExecutionEngineRef *, LLVMModuleRef, char **);
LLVMValueRef LLVMGetNamedFunction(LLVMModuleRef, const char *);
LLVMGenericValueRef LLVMCreateGenericValueOfPointer(void *);
LLVMGenericValueRef LLVMRunFunction(LLVMExecutionEngineRef, LLVMValueRef, unsigned,
                                    LLVMGenericValueRef *);

/* In a child: a session (which installs the handler), then the fatal
 * error, through MLIR's C API directly. */
static void die_fatally(void) {
  MlsSession *s = mls_session_new(0);
  mls_pipeline_ok(s, "builtin.module(canonicalize)"); /* the activity reported */
  MlirDialectRegistry reg = mlirDialectRegistryCreate();
  mlirRegisterAllDialects(reg);
  MlirContext ctx = mlirContextCreateWithRegistry(reg, false);
  mlirRegisterAllLLVMTranslations(ctx);
  MlirModule m =
      mlirModuleCreateParse(ctx, mlirStringRefCreateFromCString(
                                     "llvm.func @g(%p: !llvm.ptr) -> i64 {\n"
                                     "  %v = llvm.load %p : !llvm.ptr -> !llvm.struct<(i64, i64)>\n"
                                     "  %x = llvm.extractvalue %v[0] : !llvm.struct<(i64, i64)>\n"
                                     "  llvm.return %x : i64\n"
                                     "}\n"));
  LLVMModuleRef lm = mlirTranslateModuleToLLVMIR(mlirModuleGetOperation(m), LLVMContextCreate());
  LLVMLinkInInterpreter();
  LLVMExecutionEngineRef ee;
  char *err = NULL;
  if (!lm || LLVMCreateInterpreterForModule(&ee, lm, &err))
    _exit(3);
  long long pair[2] = {7, 8};
  LLVMGenericValueRef arg = LLVMCreateGenericValueOfPointer(pair);
  LLVMRunFunction(ee, LLVMGetNamedFunction(lm, "g"), 1, &arg);
  _exit(0); /* not reached */
}

static void test_fatal(void) {
  int fd[2];
  CHECK(pipe(fd) == 0);
  fflush(NULL);
  pid_t pid = fork();
  if (pid == 0) {
    close(fd[0]);
    dup2(fd[1], 2);
    die_fatally();
  }
  close(fd[1]);
  char out[8192];
  size_t n = 0;
  ssize_t k;
  while (n < sizeof out - 1 && (k = read(fd[0], out + n, sizeof out - 1 - n)) > 0)
    n += (size_t)k;
  out[n] = 0;
  close(fd[0]);
  int status = 0;
  waitpid(pid, &status, 0);
  CHECK_MSG(WIFSIGNALED(status) && WTERMSIG(status) == SIGABRT, "status %d", status);
  CHECK_MSG(has(out, "==relaysmith== MLIR FATAL ERROR: Cannot load value of type { i64, i64 }!\n"
                     "==relaysmith== during: pipeline builtin.module(canonicalize)\n"),
            "%s", out);
}

int main(void) {
  MlsSession *s = mls_session_new(-1);
  for (int i = 0; i < NEXAMPLES; i++)
    check_example(s, example_names[i], 0);
  for (int i = 0; i < NEXAMPLES; i++)
    check_example(s, example_names[i], 2);
  test_failures(s);
  CHECK(mls_stats(s).live == 0);
  mls_session_free(s);
  test_observer();
  test_recycle();
  test_fatal();
  return test_summary();
}
