/*
 * tool.c - the helpers the relaysmith subcommands share (tool.h).
 */
#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "tool.h"

void tool_fill(uint64_t *s, uint8_t *buf, size_t n) {
  for (size_t i = 0; i < n; i += 8) {
    uint64_t r = tool_rand(s);
    for (size_t k = 0; k < 8 && i + k < n; k++)
      buf[i + k] = (uint8_t)(r >> (8 * k));
  }
}

int tool_usage_error(const char *cmd, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  fprintf(stderr, "relaysmith %s: ", cmd);
  vfprintf(stderr, fmt, ap);
  fprintf(stderr, "\n(try 'relaysmith %s --help')\n", cmd);
  va_end(ap);
  return 2;
}

bool tool_parse_u64(const char *s, uint64_t *out) {
  if (!s || !*s || *s == '-')
    return false;
  char *end;
  errno = 0;
  unsigned long long v = strtoull(s, &end, 0);
  if (*end || errno)
    return false;
  *out = v;
  return true;
}

const GenPolicy *tool_policy(const char *cmd, const char *name) {
  const GenPolicy *p = gen_policy_get(name);
  if (p)
    return p;
  fprintf(stderr, "relaysmith %s: unknown policy '%s'; known:", cmd, name);
  for (int i = 0; gen_policy_at(i); i++)
    fprintf(stderr, " %s", gen_policy_at(i)->name);
  fprintf(stderr, "\n");
  return NULL;
}

uint8_t *tool_read_file(const char *path, size_t *len) {
  struct stat st;
  if (stat(path, &st) == 0 && S_ISDIR(st.st_mode)) {
    fprintf(stderr, "relaysmith: %s is a directory (give a file)\n", path);
    return NULL;
  }
  FILE *f = fopen(path, "rb");
  if (!f) {
    fprintf(stderr, "relaysmith: cannot open %s: %s\n", path, strerror(errno));
    return NULL;
  }
  size_t cap = 4096, n = 0;
  uint8_t *buf = malloc(cap);
  for (size_t got; buf && (got = fread(buf + n, 1, cap - n, f)) > 0;) {
    n += got;
    if (n == cap)
      buf = realloc(buf, cap *= 2);
  }
  bool err = ferror(f);
  fclose(f);
  if (!buf || err) {
    fprintf(stderr, "relaysmith: cannot read %s\n", path);
    free(buf);
    return NULL;
  }
  *len = n;
  return buf;
}

double tool_now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

double tool_cpu(void) {
  struct timespec ts;
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

void tool_list_policies(FILE *f) {
  for (int i = 0; gen_policy_at(i); i++)
    fprintf(f, "  %-10s %s\n", gen_policy_at(i)->name, gen_policy_at(i)->doc);
}

bool tool_can_write(const char *path) {
  struct stat st;
  bool existed = stat(path, &st) == 0;
  if (existed && S_ISDIR(st.st_mode)) {
    fprintf(stderr, "relaysmith: cannot write %s: it is a directory\n", path);
    return false;
  }
  FILE *f = fopen(path, "ab");
  if (!f) {
    fprintf(stderr, "relaysmith: cannot write %s: %s\n", path, strerror(errno));
    return false;
  }
  fclose(f);
  if (!existed)
    remove(path);
  return true;
}

bool tool_write_file(const char *path, const void *data, size_t n) {
  FILE *f = fopen(path, "wb");
  if (!f || fwrite(data, 1, n, f) != n) {
    fprintf(stderr, "relaysmith: cannot write %s: %s\n", path, strerror(errno));
    if (f)
      fclose(f);
    return false;
  }
  return fclose(f) == 0;
}

char *tool_check_flag(int argc, char **argv, int *i) {
  const char *a = argv[*i];
  if (rs_flag_any(a))
    return strdup(a);
  if (a[0] != '-' || strchr(a, '=') || *i + 1 >= argc)
    return NULL;
  size_t n = strlen(a) + strlen(argv[*i + 1]) + 2;
  char *joined = malloc(n);
  snprintf(joined, n, "%s=%s", a, argv[*i + 1]);
  if (rs_flag_any(joined)) {
    ++*i;
    return joined;
  }
  free(joined);
  return NULL;
}

const char *tool_sidecar_harness(const char *crash, char *buf, size_t cap) {
  const char *name, *flags[1];
  return crash && rs_sidecar_read(crash, buf, cap, &name, flags, 0) >= 0 ? name : NULL;
}

/* Append flag a to f, -passes= and -pipeline= spelt -<flag>=. */
static void add_flag(ToolFlags *f, size_t *used, const char *a, const char *flag) {
  size_t dashes = a[1] == '-' ? 2 : 1;
  const char *v = strchr(a, '=');
  char *at = f->buf + *used;
  size_t cap = sizeof f->buf - *used;
  bool pipe = (!strncmp(a + dashes, "passes=", 7) || !strncmp(a + dashes, "pipeline=", 9));
  int n = pipe ? snprintf(at, cap, "-%s%s", flag, v) : snprintf(at, cap, "%s", a);
  if (n < 0 || (size_t)n >= cap || f->argc == (int)(sizeof f->argv / sizeof *f->argv))
    return;
  f->argv[f->argc++] = at;
  *used += (size_t)n + 1;
  size_t d = strlen(f->desc);
  snprintf(f->desc + d, sizeof f->desc - d, " %s", at);
}

/* The name of flag a, without its dashes and value, into buf; -passes and
 * -pipeline are one. */
static const char *flag_name(const char *a, char *buf, size_t cap) {
  a += a[0] == '-' ? (a[1] == '-' ? 2 : 1) : 0;
  snprintf(buf, cap, "%.*s", (int)strcspn(a, "="), a);
  return !strcmp(buf, "pipeline") ? "passes" : buf;
}

/* Does one of given[0..n) set the flag a sets? */
static bool overridden(const char *a, char *const *given, int n) {
  char x[64], y[64];
  for (int i = 0; i < n; i++)
    if (!strcmp(flag_name(a, x, sizeof x), flag_name(given[i], y, sizeof y)))
      return true;
  return false;
}

void tool_flags(ToolFlags *f, const char *harness, const char *flag, const char *crash,
                char *const *given, int n) {
  char line[4096];
  const char *name, *side[32];
  int nside = crash ? rs_sidecar_read(crash, line, sizeof line, &name, side, 32) : -1;
  f->argv[0] = "relaysmith";
  f->argc = 1;
  f->sidecar = nside >= 0 && !strcmp(name, harness);
  snprintf(f->desc, sizeof f->desc, "%s", harness);
  size_t used = 0;
  for (int i = 0; f->sidecar && i < nside; i++)
    if (!overridden(side[i], given, n)) /* the flags given win */
      add_flag(f, &used, side[i], flag);
  for (int i = 0; i < n; i++)
    add_flag(f, &used, given[i], flag);
}

/* ------------------------------------------------------- running a child */

enum { KEEP = 256 << 10 }; /* bytes of a child's stderr kept */

/* Read the child's stderr until it closes or the deadline passes. */
static void drain(ToolChild *r, int fd, pid_t pid, double deadline) {
  size_t cap = 4096;
  r->err = malloc(cap);
  char chunk[4096];
  for (;;) {
    double left = deadline - tool_now();
    struct pollfd p = {fd, POLLIN, 0};
    int k = left > 0 ? poll(&p, 1, (int)(left * 1000) + 1) : 0;
    if (k < 0 && errno == EINTR)
      continue;
    if (k <= 0) {
      kill(pid, SIGKILL);
      r->timed_out = true;
      break;
    }
    ssize_t got = read(fd, chunk, sizeof chunk);
    if (got < 0 && errno == EINTR)
      continue;
    if (got <= 0)
      break;
    size_t take = r->n + (size_t)got > KEEP ? KEEP - r->n : (size_t)got;
    while (r->n + take + 1 > cap)
      r->err = realloc(r->err, cap *= 2);
    memcpy(r->err + r->n, chunk, take);
    r->n += take;
  }
  r->err[r->n] = 0;
}

void tool_run_child(void (*body)(void *ctx), void *ctx, double timeout, ToolChild *r) {
  memset(r, 0, sizeof *r);
  fflush(stdout);
  fflush(stderr);
  int fds[2];
  if (pipe(fds) != 0) {
    perror("relaysmith: pipe");
    abort();
  }
  pid_t pid = fork();
  if (pid < 0) {
    perror("relaysmith: fork");
    abort();
  }
  if (pid == 0) {
    close(fds[0]);
    dup2(fds[1], 2);
    close(fds[1]);
    body(ctx);
    _exit(0);
  }
  close(fds[1]);
  drain(r, fds[0], pid, tool_now() + timeout);
  close(fds[0]);
  while (waitpid(pid, &r->status, 0) < 0 && errno == EINTR)
    ;
}
