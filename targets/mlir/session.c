/*
 * session.c - the MLIR context, diagnostics, the fatal-error hook, parsing,
 * verification, stages (cached pass managers), legality and the semantic
 * observer (session.h).  Execution is in jit.c.
 */
#include <assert.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mlir-c/BuiltinAttributes.h"
#include "mlir-c/Diagnostics.h"
#include "mlir-c/RegisterEverything.h"

#include "session_int.h"

/* Exported by libLLVM.so, declared here because Debian's MLIR packages do
 * not ship the llvm-c headers (llvm-c/ErrorHandling.h). */
void LLVMInstallFatalErrorHandler(void (*handler)(const char *reason));

/* ------------------------------------------------------------- helpers */

void *mls_alloc(size_t n) {
  void *p = calloc(1, n ? n : 1);
  if (!p)
    abort(); /* out of memory is not recoverable here */
  return p;
}

char *mls_strdup(const char *str) {
  size_t n = strlen(str) + 1;
  return memcpy(mls_alloc(n), str, n);
}

static MlirStringRef sref(const char *str) {
  return mlirStringRefCreateFromCString(str);
}

/* FNV-1a: stable across processes, for feature hashes. */
static uint32_t fnv(const void *p, size_t n, uint32_t h) {
  const unsigned char *b = p;
  for (size_t i = 0; i < n; i++)
    h = (h ^ b[i]) * 16777619u;
  return h;
}
#define FNV_BASIS 2166136261u

static void buf_append(Buf *b, const char *p, size_t n) {
  if (b->len + n + 1 > b->cap) {
    size_t cap = b->cap ? b->cap : 256;
    while (b->len + n + 1 > cap)
      cap *= 2;
    char *q = realloc(b->p, cap);
    if (!q)
      abort();
    b->p = q;
    b->cap = cap;
  }
  memcpy(b->p + b->len, p, n);
  b->len += n;
  b->p[b->len] = 0;
}

/* Append, keeping at most b->max bytes (when set) and saying so once. */
static void buf_put(Buf *b, const char *p, size_t n) {
  if (b->cut)
    return;
  if (b->max && b->len + n > b->max) {
    static const char mark[] = "\n[the rest is cut]\n";
    buf_append(b, p, b->max - b->len);
    buf_append(b, mark, sizeof mark - 1);
    b->cut = true;
    return;
  }
  buf_append(b, p, n);
}

static void buf_vprintf(Buf *b, const char *fmt, va_list ap) {
  char small[512];
  va_list ap2;
  va_copy(ap2, ap);
  int n = vsnprintf(small, sizeof small, fmt, ap);
  if (n < 0)
    n = 0;
  if ((size_t)n < sizeof small) {
    buf_put(b, small, (size_t)n);
  } else {
    char *big = mls_alloc((size_t)n + 1);
    vsnprintf(big, (size_t)n + 1, fmt, ap2);
    buf_put(b, big, (size_t)n);
    free(big);
  }
  va_end(ap2);
}

static void buf_printf(Buf *b, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  buf_vprintf(b, fmt, ap);
  va_end(ap);
}

void mls_buf_cb(MlirStringRef str, void *buf) {
  buf_put(buf, str.data, str.length);
}

/* ------------------------------------------------------------ activity */

/* What the session is doing, for the fatal-error handler: one
 * process-wide line, as the handler is. */
static char activity[1024] = "idle";

void mls_begin(MlsSession *s, const MlsModule *m, const char *fmt, ...) {
  s->diag.len = 0;
  s->diag.cut = false;
  if (s->diag.p)
    s->diag.p[0] = 0;
  s->src = m ? m->text : NULL;
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(activity, sizeof activity, fmt, ap);
  va_end(ap);
}

void mls_error(MlsSession *s, const char *fmt, ...) {
  buf_put(&s->diag, "error: ", 7);
  va_list ap;
  va_start(ap, fmt);
  buf_vprintf(&s->diag, fmt, ap);
  va_end(ap);
  buf_put(&s->diag, "\n", 1);
}

const char *mls_diag(const MlsSession *s) {
  return s->diag.p ? s->diag.p : "";
}

/* LLVM's fatal errors end the process (report_fatal_error aborts or
 * exits after the handler): say what and where on one line each, in a
 * form the report and the signature reader recognise, and abort so that
 * libFuzzer counts a crash. */
static void on_fatal(const char *reason) {
  fputs("==relaysmith== MLIR FATAL ERROR: ", stderr);
  for (const char *p = reason; *p; p++)
    fputc(*p == '\n' ? ' ' : *p, stderr);
  fprintf(stderr, "\n==relaysmith== during: %s\n", activity);
  fflush(stderr);
  abort();
}

/* --------------------------------------------------------- diagnostics */

/* The first file position inside loc (through names, call sites and
 * fused locations); false when it has none. */
static bool position(MlirLocation loc, MlirStringRef *file, int *line, int *col) {
  if (mlirLocationIsAFileLineColRange(loc)) {
    *file = mlirIdentifierStr(mlirLocationFileLineColRangeGetFilename(loc));
    *line = mlirLocationFileLineColRangeGetStartLine(loc);
    *col = mlirLocationFileLineColRangeGetStartColumn(loc);
    return true;
  }
  if (mlirLocationIsAName(loc))
    return position(mlirLocationNameGetChildLoc(loc), file, line, col);
  if (mlirLocationIsACallSite(loc))
    return position(mlirLocationCallSiteGetCallee(loc), file, line, col);
  if (mlirLocationIsAFused(loc)) {
    intptr_t n = mlirLocationFusedGetNumLocations(loc);
    MlirLocation *locs = mls_alloc(sizeof *locs * (size_t)n);
    mlirLocationFusedGetLocations(loc, locs);
    bool found = false;
    for (intptr_t i = 0; i < n && !found; i++)
      found = position(locs[i], file, line, col);
    free(locs);
    return found;
  }
  return false;
}

/* The source line `line` of the session's text, and a caret under col,
 * as MLIR's tools show them; long lines as a window around col. */
static void excerpt(MlsSession *s, int line, int col) {
  const char *p = s->src;
  for (int l = 1; p && l < line; l++) {
    p = strchr(p, '\n');
    if (p)
      p++;
  }
  if (!p || col < 1)
    return;
  size_t len = strcspn(p, "\n"), from = 0, c = (size_t)col - 1;
  if (c > len)
    return;
  enum { WINDOW = 100 };
  if (len > 2 * WINDOW && c > WINDOW / 2) {
    from = c - WINDOW / 2;
    len = len - from < WINDOW ? len - from : WINDOW;
  } else if (len > 2 * WINDOW) {
    len = WINDOW;
  }
  buf_printf(&s->diag, "%s%.*s\n%*s^\n", from ? "..." : "", (int)len, p + from,
             (int)(c - from + (from ? 3 : 0)), "");
}

static void put_diag(MlsSession *s, MlirDiagnostic d, bool note) {
  static const char *const severity[] = {"error", "warning", "note", "remark"};
  MlirDiagnosticSeverity sev = mlirDiagnosticGetSeverity(d);
  MlirStringRef file;
  int line, col;
  bool pos = position(mlirDiagnosticGetLocation(d), &file, &line, &col);
  bool ours = pos && (file.length == 0 || (file.length == 1 && file.data[0] == '-'));
  if (pos && !ours)
    buf_printf(&s->diag, "%.*s:", (int)file.length, file.data);
  if (pos)
    buf_printf(&s->diag, "%d:%d: ", line, col);
  buf_printf(&s->diag, "%s: ", (unsigned)sev < 4 ? severity[sev] : "diagnostic");
  mlirDiagnosticPrint(d, mls_buf_cb, &s->diag);
  buf_put(&s->diag, "\n", 1);
  if (ours && !note)
    excerpt(s, line, col);
  for (intptr_t i = 0; i < mlirDiagnosticGetNumNotes(d); i++)
    put_diag(s, mlirDiagnosticGetNote(d, i), true);
}

/* Every diagnostic of the context lands here and nowhere else. */
static MlirLogicalResult on_diag(MlirDiagnostic d, void *ud) {
  MlsSession *s = ud;
  if (!s->mute)
    put_diag(s, d, false);
  return mlirLogicalResultSuccess();
}

/* ------------------------------------------------------------- session */

static void make_context(MlsSession *s) {
  s->ctx = mlirContextCreateWithRegistry(s->registry, /*threadingEnabled=*/false);
  mlirRegisterAllLLVMTranslations(s->ctx);
  mlirContextAttachDiagnosticHandler(s->ctx, on_diag, s, NULL);
  memset(s->names, 0, sizeof s->names);
  s->contexts++;
  s->since = 0;
}

static void drop_stages(MlsSession *s) {
  for (int i = 0; i < s->nstages; i++) {
    mlirPassManagerDestroy(s->stage[i].pm);
    free(s->stage[i].text);
  }
  s->nstages = 0;
}

MlsSession *mls_session_new(int recycle) {
  static bool once;
  if (!once) {
    once = true;
    mlirRegisterAllPasses();
    LLVMInstallFatalErrorHandler(on_fatal);
  }
  MlsSession *s = mls_alloc(sizeof *s);
  s->recycle = recycle < 0 ? MLS_RECYCLE_DEFAULT : recycle;
  s->diag.max = MLS_DIAG_MAX;
  s->registry = mlirDialectRegistryCreate();
  mlirRegisterAllDialects(s->registry);
  make_context(s);
  return s;
}

void mls_session_free(MlsSession *s) {
  if (!s)
    return;
  assert(s->live == 0 && "modules and compiled modules are freed before their session");
  drop_stages(s);
  mlirContextDestroy(s->ctx);
  mlirDialectRegistryDestroy(s->registry);
  free(s->diag.p);
  free(s);
}

MlsStats mls_stats(const MlsSession *s) {
  return (MlsStats){s->parses, s->contexts, s->nstages, s->live};
}

void mls_observe(MlsSession *s, MlsObserver fn, void *ud) {
  s->observe = fn;
  s->observe_ud = ud;
}

/* ------------------------------------------------------------ observer */

typedef struct Walk {
  MlsSession *s;
  uint32_t stage;
  uint32_t shape; /* structural hash so far (of this context's pointers) */
} Walk;

/* The stable hash of an interned op name, cached by its address (valid
 * for one context; make_context clears the cache). */
static uint32_t name_hash(MlsSession *s, MlirStringRef name) {
  size_t i = ((uintptr_t)name.data >> 4) & (MLS_NAME_CACHE - 1);
  if (s->names[i].name != name.data) {
    s->names[i].name = name.data;
    s->names[i].hash = fnv(name.data, name.length, FNV_BASIS);
  }
  return s->names[i].hash;
}

/* Mix a pointer-sized value into the structural hash. */
static void shape_add(Walk *w, uintptr_t v) {
  w->shape = fnv(&v, sizeof v, w->shape);
}

static void emit(Walk *w, MlsFeature *f, const uint32_t *key, size_t n) {
  f->stage = w->stage;
  f->hash = fnv(key, n * sizeof *key, FNV_BASIS);
  w->s->observe(w->s->observe_ud, f);
}

static MlirWalkResult observe_op(MlirOperation op, void *ud) {
  Walk *w = ud;
  MlirStringRef name = mlirIdentifierStr(mlirOperationGetName(op));
  uint32_t h = name_hash(w->s, name);
  MlsFeature f = {.kind = MLS_FEAT_OP, .op = name.data, .op_len = name.length};
  emit(w, &f, (uint32_t[]){MLS_FEAT_OP, w->stage, h}, 3);
  shape_add(w, (uintptr_t)name.data);
  f.kind = MLS_FEAT_EDGE;
  for (intptr_t i = 0, n = mlirOperationGetNumOperands(op); i < n; i++) {
    MlirValue v = mlirOperationGetOperand(op, i);
    MlirStringRef p = {"^arg", 4};
    if (mlirValueIsAOpResult(v))
      p = mlirIdentifierStr(mlirOperationGetName(mlirOpResultGetOwner(v)));
    f.producer = p.data;
    f.producer_len = p.length;
    emit(w, &f, (uint32_t[]){MLS_FEAT_EDGE, w->stage, h, name_hash(w->s, p)}, 4);
    shape_add(w, (uintptr_t)p.data);
  }
  for (intptr_t i = 0, n = mlirOperationGetNumResults(op); i < n; i++)
    shape_add(w, (uintptr_t)mlirValueGetType(mlirOperationGetResult(op, i)).ptr);
  for (intptr_t i = 0, n = mlirOperationGetNumAttributes(op); i < n; i++)
    shape_add(w, (uintptr_t)mlirOperationGetAttribute(op, i).attribute.ptr);
  shape_add(w, (uintptr_t)mlirOperationGetNumRegions(op));
  return MlirWalkResultAdvance;
}

/* Report m's features for a stage (0: the parse) to the observer. */
static void observe(MlsSession *s, MlsModule *m, uint32_t stage) {
  if (!s->observe)
    return;
  Walk w = {s, stage, FNV_BASIS};
  mlirOperationWalk(mlirModuleGetOperation(m->mod), observe_op, &w, MlirWalkPreOrder);
  if (stage) {
    MlsFeature f = {.kind = MLS_FEAT_CHANGED, .changed = w.shape != m->shape};
    emit(&w, &f, (uint32_t[]){MLS_FEAT_CHANGED, stage, f.changed}, 3);
  }
  m->shape = w.shape;
}

void mls_observed(MlsSession *s, MlsModule *m, const char *stage) {
  observe(s, m, fnv(stage, strlen(stage), FNV_BASIS));
}

/* -------------------------------------------------------------- modules */

MlsModule *mls_parse(MlsSession *s, const char *text) {
  if (s->recycle && s->since >= s->recycle && s->live == 0) {
    drop_stages(s);
    mlirContextDestroy(s->ctx);
    make_context(s);
  }
  mls_begin(s, NULL, "parse");
  s->src = text;
  s->parses++;
  s->since++;
  MlirModule mod = mlirModuleCreateParse(s->ctx, sref(text));
  if (mlirModuleIsNull(mod)) {
    if (!s->diag.len)
      mls_error(s, "the module does not parse");
    return NULL;
  }
  MlsModule *m = mls_alloc(sizeof *m);
  m->s = s;
  m->mod = mod;
  m->text = mls_strdup(text);
  s->src = m->text;
  s->live++;
  observe(s, m, 0);
  return m;
}

void mls_module_free(MlsModule *m) {
  if (!m)
    return;
  mlirModuleDestroy(m->mod);
  m->s->live--;
  free(m->text);
  free(m->entry);
  free(m->sig.params);
  free(m->sig.results);
  free(m);
}

bool mls_verify(MlsSession *s, MlsModule *m) {
  mls_begin(s, m, "verify");
  if (mlirOperationVerify(mlirModuleGetOperation(m->mod)))
    return true;
  if (!s->diag.len)
    mls_error(s, "the module does not verify");
  return false;
}

char *mls_print(MlsSession *s, MlsModule *m) {
  Buf b = {0};
  /* An invalid module prints in generic form, after the printer's own
   * verification has emitted diagnostics that belong to nobody. */
  s->mute = true;
  mlirOperationPrint(mlirModuleGetOperation(m->mod), mls_buf_cb, &b);
  s->mute = false;
  if (!b.p)
    return mls_strdup("");
  buf_put(&b, "\n", 1);
  return b.p;
}

/* --------------------------------------------------------------- stages */

/* The pass manager for pipeline, with the verifier after each pass or
 * not: cached, or parsed now (NULL with the parser's message when the
 * text is not a pipeline). */
static Stage *stage_get(MlsSession *s, const char *pipeline, bool each) {
  uint32_t h = fnv(pipeline, strlen(pipeline), FNV_BASIS);
  for (int i = 0; i < s->nstages; i++)
    if (s->stage[i].hash == h && s->stage[i].each == each && !strcmp(s->stage[i].text, pipeline))
      return &s->stage[i];
  MlirPassManager pm = mlirPassManagerCreate(s->ctx);
  mlirPassManagerEnableVerifier(pm, each);
  if (mlirLogicalResultIsFailure(mlirParsePassPipeline(mlirPassManagerGetAsOpPassManager(pm),
                                                       sref(pipeline), mls_buf_cb, &s->diag))) {
    mlirPassManagerDestroy(pm);
    if (!s->diag.len)
      mls_error(s, "not a pass pipeline: %s", pipeline);
    return NULL;
  }
  if (s->nstages == MLS_MAX_STAGES)
    drop_stages(s);
  Stage *st = &s->stage[s->nstages++];
  *st = (Stage){mls_strdup(pipeline), h ? h : 1, pm, each};
  return st;
}

bool mls_pipeline_ok(MlsSession *s, const char *pipeline) {
  mls_begin(s, NULL, "pipeline %s", pipeline);
  return stage_get(s, pipeline, false) != NULL;
}

static MlsStatus run_stage(MlsSession *s, MlsModule *m, const char *pipeline, bool each) {
  mls_begin(s, m, "stage %s", pipeline);
  Stage *st = stage_get(s, pipeline, each);
  if (!st)
    return MLS_BAD_PIPELINE;
  if (mlirLogicalResultIsFailure(mlirPassManagerRunOnOp(st->pm, mlirModuleGetOperation(m->mod)))) {
    if (!s->diag.len)
      mls_error(s, "the stage failed without a diagnostic");
    return MLS_FAILED;
  }
  observe(s, m, st->hash);
  return MLS_OK;
}

MlsStatus mls_run(MlsSession *s, MlsModule *m, const char *pipeline) {
  return run_stage(s, m, pipeline, false);
}

MlsStatus mls_run_each(MlsSession *s, MlsModule *m, const char *pipeline) {
  return run_stage(s, m, pipeline, true);
}

bool mls_validate(MlsSession *s, MlsModule *m) {
  MlirOperation op = mlirModuleGetOperation(m->mod);
  MlirStringRef key = sref("tosa.target_env");
  MlirAttribute before = mlirOperationGetAttributeByName(op, key);
  mls_begin(s, m, "validate");
  Stage *st = stage_get(s, MLS_VALIDATE_PIPELINE, false);
  bool ok = st && mlirLogicalResultIsSuccess(mlirPassManagerRunOnOp(st->pm, op));
  if (mlirAttributeIsNull(before))
    mlirOperationRemoveAttributeByName(op, key);
  else
    mlirOperationSetAttributeByName(op, key, before);
  if (!ok && !s->diag.len)
    mls_error(s, "tosa-validate failed without a diagnostic");
  return ok;
}

/* ------------------------------------------------------------- legality */

typedef struct Legal {
  int bad;
  MlirOperation first; /* the first op left that is not a cast */
  MlirOperation cast;  /* the first unrealized_conversion_cast left */
} Legal;

static MlirWalkResult legal_op(MlirOperation op, void *ud) {
  Legal *l = ud;
  MlirStringRef n = mlirIdentifierStr(mlirOperationGetName(op));
  bool ok = (n.length > 5 && !memcmp(n.data, "llvm.", 5)) ||
            (n.length == 14 && !memcmp(n.data, "builtin.module", 14));
  if (ok)
    return MlirWalkResultAdvance;
  static const char unrealized[] = "builtin.unrealized_conversion_cast";
  bool cast = n.length == sizeof unrealized - 1 && !memcmp(n.data, unrealized, n.length);
  MlirOperation *slot = cast ? &l->cast : &l->first;
  if (mlirOperationIsNull(*slot))
    *slot = op;
  l->bad++;
  return MlirWalkResultAdvance;
}

/* Each op left unconverted after the LLVM stage is an error.  The key
 * names the first that is not an unrealized_conversion_cast, with the
 * type of its first result (or operand, if it has none): the casts are what a conversion leaves
 * around an op it could not convert, so that op is the cause (a cast alone is named when nothing
 * else is left). */
bool mls_legal(MlsSession *s, MlsModule *m) {
  mls_begin(s, m, "legality");
  Legal l = {0};
  mlirOperationWalk(mlirModuleGetOperation(m->mod), legal_op, &l, MlirWalkPreOrder);
  if (!l.bad)
    return true;
  MlirOperation op = mlirOperationIsNull(l.first) ? l.cast : l.first;
  MlirStringRef n = mlirIdentifierStr(mlirOperationGetName(op));
  MlirStringRef file;
  int line, col;
  char at[64] = "", of[96] = "";
  if (position(mlirOperationGetLocation(op), &file, &line, &col))
    snprintf(at, sizeof at, " (from %d:%d)", line, col);
  MlirValue v = mlirOperationGetNumResults(op) > 0    ? mlirOperationGetResult(op, 0)
                : mlirOperationGetNumOperands(op) > 0 ? mlirOperationGetOperand(op, 0)
                                                      : (MlirValue){0};
  if (!mlirValueIsNull(v)) {
    Buf b = {0};
    mlirTypePrint(mlirValueGetType(v), mls_buf_cb, &b);
    snprintf(of, sizeof of, "%s", b.p ? b.p : "");
    free(b.p);
  }
  mls_error(s,
            "%d op%s other than builtin.module and llvm.* after lowering; the first: '%.*s'%s%s%s",
            l.bad, l.bad == 1 ? "" : "s", (int)n.length, n.data, *of ? " of " : "", of, at);
  return false;
}
