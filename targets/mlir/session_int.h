/*
 * session_int.h - what session.c and jit.c share; not part of the API.
 */
#ifndef RS_MLIR_SESSION_INT_H
#define RS_MLIR_SESSION_INT_H

#include "mlir-c/IR.h"
#include "mlir-c/Pass.h"

#include "session.h"

/* A growing text buffer; one with a limit keeps its first `max` bytes
 * and then a line saying that the rest was cut. */
typedef struct Buf {
  char *p; /* NUL-terminated, or NULL while empty */
  size_t len, cap, max;
  bool cut;
} Buf;

/* A cached pass manager: one stage's pipeline, parsed once. */
typedef struct Stage {
  char *text;
  uint32_t hash; /* of text: the stage's id in semantic features */
  MlirPassManager pm;
  bool each; /* MLIR's verifier after every pass (mls_run_each) */
} Stage;

enum {
  MLS_MAX_STAGES = 256,    /* cached pass managers; all dropped when full */
  MLS_DIAG_MAX = 1 << 16,  /* bytes of diagnostics kept per call */
  MLS_NAME_CACHE = 1 << 9, /* op name hashes cached by name pointer */
};

struct MlsSession {
  MlirDialectRegistry registry; /* every dialect, for each new context */
  MlirContext ctx;
  int recycle;     /* parses per context; 0: never recycle */
  long parses;     /* over all contexts */
  long since;      /* parses in this context */
  int contexts;    /* made so far */
  int live;        /* modules and compiled modules not yet freed */
  Buf diag;        /* the last call's diagnostics */
  const char *src; /* text the diagnostics' positions refer to, or NULL */
  bool mute;       /* drop diagnostics (while printing) */
  Stage stage[MLS_MAX_STAGES];
  int nstages;
  MlsObserver observe;
  void *observe_ud;
  struct {
    const void *name; /* an interned op name of this context */
    uint32_t hash;
  } names[MLS_NAME_CACHE];
};

struct MlsModule {
  MlsSession *s;
  MlirModule mod;
  char *text;     /* what it was parsed from (diagnostics' source lines) */
  uint32_t shape; /* structural hash after the last observed stage */
  char *entry;    /* the function mls_entry marked, or NULL */
  MlsSig sig;
};

/* Start a call: reset the diagnostics, point their source lines at m's
 * text (m may be NULL) and set the activity to the formatted text. */
void mls_begin(MlsSession *s, const MlsModule *m, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
/* Append a formatted line to the diagnostics. */
void mls_error(MlsSession *s, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Report m's features to the observer as after a stage labelled stage
 * (a stage that is no pass pipeline: a schedule). */
void mls_observed(MlsSession *s, MlsModule *m, const char *stage);
/* An MLIR string callback appending to a Buf (user data). */
void mls_buf_cb(MlirStringRef str, void *buf);

/* Allocation that gives up (aborts) only when memory is exhausted. */
void *mls_alloc(size_t n); /* zeroed */
char *mls_strdup(const char *str);

#endif
