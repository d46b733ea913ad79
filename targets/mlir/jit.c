/*
 * jit.c - the entry point's signature, and running a lowered module through
 * MLIR's ExecutionEngine (session.h: mls_entry, mls_jit, mls_call).
 *
 * Calling convention.  convert-func-to-llvm gives a function marked with
 * llvm.emit_c_interface a wrapper _mlir_ciface_NAME(res*, arg0*, arg1*, ...)
 * whose arguments point at memref descriptors
 *     { void *allocated, *aligned; int64_t offset, sizes[rank], strides[rank]; }
 * and whose first argument, when there are results, points at a struct of
 * one descriptor per result (rank 0: the first three fields only).  The
 * ExecutionEngine adds a "packed" wrapper around it, void (void **args),
 * args[k] pointing at the k-th argument, which is what mls_call calls.
 *
 * Results are buffers the compiled code allocated with malloc, except
 * when it returns a global (allocated is 0xdeadbeef, MLIR's marker) or
 * one of its arguments; mls_call copies them into the caller's arena and
 * frees each buffer it owns once.
 *
 * Traps.  The compiled code of a program relayc defines everywhere (its
 * integer divisions are guarded, its indices in bounds) must not trap: a
 * SIGFPE, SIGSEGV, SIGBUS or SIGILL while it runs is a miscompile.
 * mls_call catches them (a handler of its own for the call's duration,
 * which jumps back out of the code) and says so, instead of the process
 * dying without a report.  What the code allocated before the trap is
 * lost.
 */
#include <dlfcn.h>
#include <setjmp.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "mlir-c/BuiltinAttributes.h"
#include "mlir-c/BuiltinTypes.h"
#include "mlir-c/ExecutionEngine.h"

#include "session_int.h"

#ifndef RS_MLIR_RUNNER_UTILS
#error "RS_MLIR_RUNNER_UTILS: the path of libmlir_c_runner_utils.so (targets/mlir/mlir.cmake)"
#endif

struct MlsJit {
  MlsSession *s;
  MlirExecutionEngine engine;
  void (*fn)(void **args); /* the packed wrapper of _mlir_ciface_<entry> */
  MlsSig sig;
};

/* Memref descriptor words of a rank: allocated, aligned, offset, sizes,
 * strides. */
static int desc_words(int rank) {
  return 3 + 2 * rank;
}

/* --------------------------------------------------------------- entry */

static bool dtype_of(MlirType t, DType *dt) {
  if (mlirTypeIsAF32(t))
    *dt = DT_FLOAT32;
  else if (mlirTypeIsAF64(t))
    *dt = DT_FLOAT64;
  else if (!mlirTypeIsAInteger(t) || !mlirIntegerTypeIsSignless(t))
    return false;
  else if (mlirIntegerTypeGetWidth(t) == 1)
    *dt = DT_BOOL;
  else if (mlirIntegerTypeGetWidth(t) == 8)
    *dt = DT_INT8;
  else if (mlirIntegerTypeGetWidth(t) == 32)
    *dt = DT_INT32;
  else if (mlirIntegerTypeGetWidth(t) == 64)
    *dt = DT_INT64;
  else
    return false;
  return true;
}

/* t as an MlsType: a ranked tensor of a known element type, of rank at
 * most IR_MAX_RANK; a dynamic dim (`?`) is MLS_DYN. */
static bool tensor_type(MlirType t, MlsType *out) {
  if (!mlirTypeIsARankedTensor(t))
    return false;
  out->rank = (int)mlirShapedTypeGetRank(t);
  if (out->rank > IR_MAX_RANK || !dtype_of(mlirShapedTypeGetElementType(t), &out->dtype))
    return false;
  for (int d = 0; d < out->rank; d++) {
    int64_t n = mlirShapedTypeGetDimSize(t, d);
    out->shape[d] = mlirShapedTypeIsDynamicSize(n) ? MLS_DYN : n;
  }
  return true;
}

/* The top-level func.func @name of m, or a null operation. */
static MlirOperation find_func(MlsModule *m, const char *name) {
  MlirOperation op = mlirBlockGetFirstOperation(mlirModuleGetBody(m->mod));
  for (; !mlirOperationIsNull(op); op = mlirOperationGetNextInBlock(op)) {
    MlirStringRef n = mlirIdentifierStr(mlirOperationGetName(op));
    MlirAttribute sym =
        mlirOperationGetAttributeByName(op, mlirStringRefCreateFromCString("sym_name"));
    if (n.length == 9 && !memcmp(n.data, "func.func", 9) && mlirAttributeIsAString(sym) &&
        mlirStringRefEqual(mlirStringAttrGetValue(sym), mlirStringRefCreateFromCString(name)))
      return op;
  }
  return (MlirOperation){NULL};
}

/* Record the types of a function type's inputs (results when results)
 * into a fresh array; false with a diagnostic naming the first it cannot
 * pass. */
static bool record(MlsSession *s, MlirType fty, bool results, const char *name, int *n,
                   MlsType **out) {
  *n = (int)(results ? mlirFunctionTypeGetNumResults(fty) : mlirFunctionTypeGetNumInputs(fty));
  *out = mls_alloc(sizeof **out * (size_t)*n);
  for (int i = 0; i < *n; i++) {
    MlirType t = results ? mlirFunctionTypeGetResult(fty, i) : mlirFunctionTypeGetInput(fty, i);
    if (tensor_type(t, &(*out)[i]))
      continue;
    Buf b = {0};
    mlirTypePrint(t, mls_buf_cb, &b);
    mls_error(s,
              "entry @%s: %s %d has type %s; only ranked tensors of f32, f64, i1, i8, i32 or i64 "
              "of rank <= %d can be passed",
              name, results ? "result" : "parameter", i, b.p ? b.p : "?", IR_MAX_RANK);
    free(b.p);
    return false;
  }
  return true;
}

bool mls_entry(MlsSession *s, MlsModule *m, const char *name) {
  mls_begin(s, m, "entry @%s", name);
  MlirOperation f = find_func(m, name);
  if (mlirOperationIsNull(f)) {
    mls_error(s, "no func.func @%s in the module", name);
    return false;
  }
  MlirType fty = mlirTypeAttrGetValue(
      mlirOperationGetAttributeByName(f, mlirStringRefCreateFromCString("function_type")));
  free(m->sig.params);
  free(m->sig.results);
  free(m->entry);
  m->entry = NULL;
  m->sig = (MlsSig){0};
  if (!record(s, fty, false, name, &m->sig.nparams, &m->sig.params) ||
      !record(s, fty, true, name, &m->sig.nresults, &m->sig.results))
    return false;
  m->entry = mls_strdup(name);
  mlirOperationSetAttributeByName(f, mlirStringRefCreateFromCString("llvm.emit_c_interface"),
                                  mlirUnitAttrGet(s->ctx));
  return true;
}

const MlsSig *mls_entry_sig(const MlsModule *m) {
  return m->entry ? &m->sig : NULL;
}

/* ----------------------------------------------------------------- jit */

static MlsType *copy_types(const MlsType *t, int n) {
  return memcpy(mls_alloc(sizeof *t * (size_t)n), t, sizeof *t * (size_t)n);
}

/* The runner utilities the compiled code calls into (memrefCopy): where
 * MLIR 22 is installed, or else lib/ beside the executable (a
 * ClusterFuzzLite build ships MLIR's libraries there: .clusterfuzzlite/
 * build.sh). */
static const char *runner_utils(void) {
  static char path[4096];
  if (path[0])
    return path;
  snprintf(path, sizeof path, "%s", RS_MLIR_RUNNER_UTILS);
  char exe[4000];
  ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
  if (access(path, R_OK) != 0 && n > 0) {
    exe[n] = 0;
    char *slash = strrchr(exe, '/');
    if (slash)
      *slash = 0;
    snprintf(path, sizeof path, "%s/lib/libmlir_c_runner_utils.so", exe);
  }
  return path;
}

/* Whether a symbol resolves where the ExecutionEngine looks for it: in
 * the process and in the runner utilities it loads. */
static bool resolves(const char *name) {
  static void *utils; /* loaded for good, as the ExecutionEngine loads it */
  if (!utils)
    utils = dlopen(runner_utils(), RTLD_LAZY | RTLD_LOCAL);
  return dlsym(RTLD_DEFAULT, name) || (utils && dlsym(utils, name));
}

/* Before compiling: the lowered module has the entry's wrapper, and every
 * function it declares without a body resolves (otherwise LLVM's JIT
 * prints "JIT session error" itself and compiles nothing).  False with a
 * diagnostic. */
static bool linkable(MlsSession *s, MlsModule *m, const char *wrapper) {
  bool found = false;
  MlirOperation op = mlirBlockGetFirstOperation(mlirModuleGetBody(m->mod));
  for (; !mlirOperationIsNull(op); op = mlirOperationGetNextInBlock(op)) {
    MlirStringRef kind = mlirIdentifierStr(mlirOperationGetName(op));
    MlirAttribute sym =
        mlirOperationGetAttributeByName(op, mlirStringRefCreateFromCString("sym_name"));
    if (kind.length != 9 || memcmp(kind.data, "llvm.func", 9) || !mlirAttributeIsAString(sym))
      continue;
    MlirStringRef n = mlirStringAttrGetValue(sym);
    char name[256];
    snprintf(name, sizeof name, "%.*s", (int)n.length, n.data);
    bool body = !mlirBlockIsNull(mlirRegionGetFirstBlock(mlirOperationGetRegion(op, 0)));
    found |= body && !strcmp(name, wrapper);
    if (!body && !resolves(name)) {
      mls_error(s, "the module calls @%s, which neither the process nor %s defines", name,
                runner_utils());
      return false;
    }
  }
  if (!found)
    mls_error(s,
              "no llvm.func @%s in the module (lowered with convert-func-to-llvm after mls_entry?)",
              wrapper);
  return found;
}

MlsJit *mls_jit(MlsSession *s, MlsModule *m, int opt) {
  mls_begin(s, m, "jit (opt %d)", opt);
  if (!m->entry) {
    mls_error(s, "no entry to compile: mls_entry marks one, before lowering");
    return NULL;
  }
  char wrapper[300];
  snprintf(wrapper, sizeof wrapper, "_mlir_ciface_%s", m->entry);
  if (!linkable(s, m, wrapper))
    return NULL;
  MlirStringRef lib = mlirStringRefCreateFromCString(runner_utils());
  MlirExecutionEngine e = mlirExecutionEngineCreate(m->mod, opt, 1, &lib, false, false);
  if (mlirExecutionEngineIsNull(e)) {
    if (!s->diag.len)
      mls_error(s, "the ExecutionEngine refused the module (it does not translate to LLVM IR)");
    return NULL;
  }
  void *fn = mlirExecutionEngineLookupPacked(e, mlirStringRefCreateFromCString(wrapper));
  if (!fn) {
    mls_error(s, "LLVM's JIT did not compile @%s", wrapper);
    mlirExecutionEngineDestroy(e);
    return NULL;
  }
  MlsJit *j = mls_alloc(sizeof *j);
  j->s = s;
  j->engine = e;
  j->fn = (void (*)(void **))fn;
  j->sig.nparams = m->sig.nparams;
  j->sig.nresults = m->sig.nresults;
  j->sig.params = copy_types(m->sig.params, m->sig.nparams);
  j->sig.results = copy_types(m->sig.results, m->sig.nresults);
  s->live++;
  return j;
}

void mls_jit_free(MlsJit *j) {
  if (!j)
    return;
  mlirExecutionEngineDestroy(j->engine);
  j->s->live--;
  free(j->sig.params);
  free(j->sig.results);
  free(j);
}

/* ---------------------------------------------------------------- call */

static void type_text(char *buf, size_t n, DType dt, int rank, const int64_t *shape) {
  size_t at = (size_t)snprintf(buf, n, "%s(", ir_dtype_name(dt));
  for (int d = 0; d < rank && at < n; d++)
    at += shape[d] == MLS_DYN
              ? (size_t)snprintf(buf + at, n - at, "%s?", d ? ", " : "")
              : (size_t)snprintf(buf + at, n - at, "%s%lld", d ? ", " : "", (long long)shape[d]);
  if (at < n)
    snprintf(buf + at, n - at, ")");
}

static bool same_type(const Tensor *t, const MlsType *ty) {
  if (t->dtype != ty->dtype || t->rank != ty->rank)
    return false;
  for (int d = 0; d < t->rank; d++)
    if (t->shape[d] != ty->shape[d] && ty->shape[d] != MLS_DYN)
      return false;
  return true;
}

/* Fill a descriptor for the row-major buffer of tensor x (its own shape:
 * the run-time extents of the type's `?` dims). */
static void describe(int64_t *w, void *data, const Tensor *x) {
  w[0] = w[1] = (int64_t)(intptr_t)data;
  w[2] = 0;
  int64_t stride = 1;
  for (int d = x->rank - 1; d >= 0; d--) {
    w[3 + d] = x->shape[d];
    w[3 + x->rank + d] = stride;
    stride *= x->shape[d];
  }
}

enum { MAX_RESULT_ELEMS = 1 << 26 }; /* a dynamic result's sizes, sanity-checked */

/* Copy the memref w describes (any strides) into a row-major tensor of
 * a; false when its sizes are not the type's (a `?` dim: any size). */
static bool take(const int64_t *w, const MlsType *ty, Arena *a, Tensor **out) {
  int64_t shape[IR_MAX_RANK], numel = 1;
  for (int d = 0; d < ty->rank; d++) {
    shape[d] = w[3 + d];
    if ((ty->shape[d] != MLS_DYN && w[3 + d] != ty->shape[d]) || w[3 + d] < 0 ||
        w[3 + d] > MAX_RESULT_ELEMS || (numel *= w[3 + d]) > MAX_RESULT_ELEMS)
      return false;
  }
  Tensor *t = ir_tensor_new(a, ty->dtype, ty->rank, shape);
  int esize = ir_dtype_size(ty->dtype);
  const char *base = (const char *)(intptr_t)w[1];
  int64_t idx[IR_MAX_RANK] = {0};
  for (int64_t i = 0; i < t->numel; i++) {
    int64_t at = w[2];
    for (int d = 0; d < ty->rank; d++)
      at += idx[d] * w[3 + ty->rank + d];
    memcpy((char *)t->data + i * esize, base + at * esize, (size_t)esize);
    for (int d = ty->rank - 1; d >= 0 && ++idx[d] == shape[d]; d--)
      idx[d] = 0;
  }
  if (ty->dtype == DT_BOOL) /* i1 is a byte in memory; keep relayc's 0/1 */
    for (int64_t i = 0; i < t->numel; i++)
      ((uint8_t *)t->data)[i] = ((uint8_t *)t->data)[i] != 0;
  *out = t;
  return true;
}

static sigjmp_buf trap_jump;
static volatile sig_atomic_t trap_signal;

static void on_trap(int sig) {
  trap_signal = sig;
  siglongjmp(trap_jump, 1);
}

/* fn(argv) with the trap signals caught: 0, or the signal that ended it. */
static int call_guarded(void (*fn)(void **), void **argv) {
  static const int sigs[] = {SIGFPE, SIGSEGV, SIGBUS, SIGILL};
  enum { NSIGS = sizeof sigs / sizeof *sigs };
  struct sigaction sa = {.sa_handler = on_trap, .sa_flags = SA_ONSTACK}, old[NSIGS];
  sigemptyset(&sa.sa_mask);
  for (int i = 0; i < NSIGS; i++)
    sigaction(sigs[i], &sa, &old[i]);
  trap_signal = 0;
  if (!sigsetjmp(trap_jump, 1))
    fn(argv);
  for (int i = 0; i < NSIGS; i++)
    sigaction(sigs[i], &old[i], NULL);
  return trap_signal;
}

/* What a trap signal means in compiled code. */
static const char *trap_text(int sig) {
  switch (sig) {
  case SIGFPE: return "SIGFPE (an integer division by zero, or INT_MIN / -1)";
  case SIGSEGV: return "SIGSEGV (an access outside the program's memory)";
  case SIGBUS: return "SIGBUS (a misaligned or unmapped access)";
  default: return "SIGILL (an llvm.trap, or an unreachable point reached)";
  }
}

MlsCall mls_call(MlsSession *s, MlsJit *j, int nargs, Tensor *const *args, Arena *a,
                 Tensor ***res) {
  mls_begin(s, NULL, "call");
  const MlsSig *sig = &j->sig;
  if (nargs != sig->nparams) {
    mls_error(s, "%d arguments for an entry of %d parameters", nargs, sig->nparams);
    return MLS_CALL_BAD;
  }
  for (int i = 0; i < nargs; i++)
    if (!same_type(args[i], &sig->params[i])) {
      char want[160], got[160];
      const MlsType *p = &sig->params[i];
      type_text(want, sizeof want, p->dtype, p->rank, p->shape);
      type_text(got, sizeof got, args[i]->dtype, args[i]->rank, args[i]->shape);
      mls_error(s, "argument %d is %s; the entry takes %s", i, got, want);
      return MLS_CALL_BAD;
    }
  int nwords = 0;
  for (int i = 0; i < sig->nresults; i++)
    nwords += desc_words(sig->results[i].rank);
  for (int i = 0; i < nargs; i++)
    nwords += desc_words(sig->params[i].rank);
  int64_t *words = mls_alloc(sizeof *words * (size_t)nwords);
  void **bufs = mls_alloc(sizeof *bufs * (size_t)(nargs + sig->nresults));
  void **ptrs = mls_alloc(sizeof *ptrs * (size_t)(nargs + 1));
  void **argv = mls_alloc(sizeof *argv * (size_t)(nargs + 1));
  int k = 0;
  int64_t *w = words;
  if (sig->nresults) {
    ptrs[k] = w;
    argv[k] = &ptrs[k];
    k++;
    for (int i = 0; i < sig->nresults; i++)
      w += desc_words(sig->results[i].rank);
  }
  for (int i = 0; i < nargs; i++) { /* copies: the code may write into its arguments */
    size_t bytes = (size_t)(args[i]->numel * ir_dtype_size(args[i]->dtype));
    bufs[i] = memcpy(mls_alloc(bytes), args[i]->data, bytes);
    describe(w, bufs[i], args[i]);
    ptrs[k] = w;
    argv[k] = &ptrs[k];
    k++;
    w += desc_words(sig->params[i].rank);
  }

  int trap = call_guarded(j->fn, argv);
  if (trap)
    mls_error(s, "the compiled code trapped: %s", trap_text(trap));

  *res = trap ? NULL : ARENA_ARRAY(a, Tensor *, sig->nresults);
  bool ok = true;
  int nbufs = nargs;
  w = words;
  for (int i = 0; !trap && i < sig->nresults; i++) {
    const MlsType *ty = &sig->results[i];
    if (ok && !take(w, ty, a, &(*res)[i])) {
      char want[160], got[160];
      type_text(want, sizeof want, ty->dtype, ty->rank, ty->shape);
      type_text(got, sizeof got, ty->dtype, ty->rank, w + 3);
      mls_error(s, "result %d has sizes %s; the entry's type says %s", i, got, want);
      ok = false;
    }
    /* Free what the code allocated for this result, once. */
    void *alloc = (void *)(intptr_t)w[0];
    bool ours = alloc == NULL || alloc == (void *)(intptr_t)0xdeadbeef;
    for (int b = 0; b < nbufs && !ours; b++)
      ours = bufs[b] == alloc;
    if (!ours)
      bufs[nbufs++] = alloc;
    w += desc_words(ty->rank);
  }
  for (int b = 0; b < nbufs; b++)
    free(bufs[b]);
  free(words);
  free(bufs);
  free(ptrs);
  free(argv);
  return trap ? MLS_CALL_TRAP : ok ? MLS_CALL_OK : MLS_CALL_BAD;
}
