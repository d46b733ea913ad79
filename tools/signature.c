/*
 * signature.c - the signature of a failure, read from what a run of a fuzz
 * target's check printed on stderr and how it ended (tool.h,
 * tool_signature; docs/reduce.md): the oracle's report's (read where it
 * is written, oracle/report.c), else a sanitizer's, an assertion's, a
 * signal's.  `relaysmith reduce` keeps it while it shrinks an input;
 * `relaysmith triage` buckets crash files by it.
 */
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>

#include "oracle/oracle.h"
#include "tool.h"

enum { TOP_FRAMES = 3 };

/* Whether a stack frame's function is the sanitizer runtime, libc or
 * abort machinery (not part of the signature). */
static bool runtime_frame(const char *fn, const char *line) {
  static const char *const skip[] = {
      "__asan", "__ubsan", "__sanitizer", "__interceptor", "__lsan",    "__libc",       "__GI_",
      "abort",  "raise",   "gsignal",     "__assert",      "__pthread", "pthread_kill", "malloc",
      "calloc", "realloc", "free",        "strdup",        "strndup",   "_exit"};
  for (size_t i = 0; i < sizeof skip / sizeof *skip; i++)
    if (!strncmp(fn, skip[i], strlen(skip[i])))
      return true;
  return strstr(line, "libc.so") || strstr(line, "/libc-");
}

/* Append " at f1 < f2 < f3": the top frames of the first stack trace
 * after from ("    #N 0x... in FUNC ..."). */
static void add_frames(char *sig, const char *from) {
  int n = 0;
  bool started = false;
  for (const char *p = from; *p && n < TOP_FRAMES;) {
    const char *eol = strchr(p, '\n');
    size_t len = eol ? (size_t)(eol - p) : strlen(p);
    char line[1024];
    snprintf(line, sizeof line, "%.*s", (int)len, p);
    p += len + (eol != NULL);
    const char *h = line + strspn(line, " ");
    if (h[0] != '#') {
      if (started)
        break;
      continue;
    }
    started = true;
    const char *in = strstr(h, " in ");
    if (!in)
      continue;
    char fn[256]; /* a C++ name without its parameters */
    snprintf(fn, sizeof fn, "%.*s", (int)strcspn(in + 4, " ("), in + 4);
    if (runtime_frame(fn, line))
      continue;
    size_t at = strlen(sig);
    snprintf(sig + at, TOOL_SIG_MAX - at, "%s%s", n ? " < " : " at ", fn);
    n++;
  }
}

/* A sanitizer message's kind: its words up to the first value (a digit,
 * a quote, a colon) or the line's end, e.g. "signed integer overflow". */
static void error_kind(const char *msg, char *out, size_t cap) {
  size_t n = 0;
  while (msg[n] && msg[n] != '\n' && msg[n] != ':' && msg[n] != '\'' && msg[n] != '"' &&
         !(msg[n] >= '0' && msg[n] <= '9'))
    n++;
  while (n && msg[n - 1] == ' ')
    n--;
  snprintf(out, cap, "%.*s", (int)n, msg);
}

/* text without digits (positions, sizes and addresses vary between
 * inputs that fail the same way), appended to sig. */
static void add_digitless(char *sig, const char *text, size_t n) {
  size_t at = strlen(sig);
  for (size_t i = 0; i < n && text[i] && at + 1 < TOOL_SIG_MAX; i++)
    if (text[i] < '0' || text[i] > '9')
      sig[at++] = text[i];
    else if (!at || sig[at - 1] != 'N')
      sig[at++] = 'N';
  sig[at] = 0;
}

/* A crash inside a target that names its stages (the MLIR target, with
 * -trace=1: "==relaysmith== stage NAME: ..." before each) happened
 * in the last one named: " in stage NAME". */
static void add_stage(char *sig, const char *e) {
  const char *last = NULL;
  for (const char *p = e; (p = strstr(p, "==relaysmith== stage ")); p++)
    last = p + 21;
  size_t at = strlen(sig);
  if (last)
    snprintf(sig + at, TOOL_SIG_MAX - at, " in stage %.*s", (int)strcspn(last, ":\n"), last);
}

static void crash_signature(const char *e, int status, bool timed_out, char sig[TOOL_SIG_MAX]);

void tool_signature(const char *e, int status, bool timed_out, char sig[TOOL_SIG_MAX]) {
  sig[0] = 0;
  if (oracle_report_signature(e, sig, TOOL_SIG_MAX))
    return;
  crash_signature(e, status, timed_out, sig);
  if (sig[0])
    add_stage(sig, e);
}

static void crash_signature(const char *e, int status, bool timed_out, char sig[TOOL_SIG_MAX]) {
  char a[TOOL_SIG_MAX];
  const char *at;
  if ((at = strstr(e, "==relaysmith== MLIR FATAL ERROR: "))) {
    snprintf(sig, TOOL_SIG_MAX, "MLIR fatal error: ");
    add_digitless(sig, at + 33, strcspn(at + 33, "\n"));
    return;
  }
  if ((at = strstr(e, "runtime error: "))) {
    error_kind(at + 15, a, sizeof a);
    snprintf(sig, TOOL_SIG_MAX, "UndefinedBehaviorSanitizer: %s", a);
    add_frames(sig, at);
    return;
  }
  if ((at = strstr(e, "ERROR: LeakSanitizer: ")) || (at = strstr(e, "ERROR: AddressSanitizer: "))) {
    const char *tool = at + 7, *msg = strstr(tool, ": ") + 2;
    error_kind(msg, a, sizeof a);
    char *on = strstr(a, " on ");
    if (on)
      *on = 0;
    snprintf(sig, TOOL_SIG_MAX, "%.*s: %s", (int)(msg - 2 - tool), tool, a);
    add_frames(sig, at);
    return;
  }
  if ((at = strstr(e, "ERROR: libFuzzer: deadly signal"))) {
    snprintf(sig, TOOL_SIG_MAX, "deadly signal");
    add_frames(sig, at);
    return;
  }
  if ((at = strstr(e, "Assertion `"))) {
    snprintf(sig, TOOL_SIG_MAX, "assertion %.*s", (int)strcspn(at + 10, "\n"), at + 10);
    return;
  }
  if (timed_out)
    snprintf(sig, TOOL_SIG_MAX, "timeout");
  else if (WIFSIGNALED(status))
    snprintf(sig, TOOL_SIG_MAX, "deadly signal %s", strsignal(WTERMSIG(status)));
  else if (WIFEXITED(status) && WEXITSTATUS(status))
    snprintf(sig, TOOL_SIG_MAX, "exit status %d", WEXITSTATUS(status));
}
