/*
 * depth.c - how deep a definition goes, against the bounds in ir.h that
 * the parser, every pass (pass_run), the type checker and the printer
 * keep to: IR_MAX_DEPTH (the longest path, which every recursive walk
 * follows) and IR_MAX_NESTING (how deep its text nests, which the parser
 * reads back).
 *
 * Measured without recursion, since this is what keeps the recursive
 * walks elsewhere safe: an explicit stack, and a table of the depths of
 * the nodes done, so that a shared node is measured once.
 */
#include <stdio.h>

#include "ir.h"
#include "ptrmap.h"

/* A node on the stack: expanded once its children are pushed. */
typedef struct Frame {
  const Expr *e;
  bool expanded;
} Frame;

typedef struct Walk {
  Arena *a;
  PtrMap done; /* Expr -> height | nesting << 32 */
  Frame *stack;
  size_t n, cap;
  const Expr *parent; /* the node being finished, and its depth so far */
  IrDepth d;
} Walk;

static void push(Walk *w, const Expr *e, bool expanded) {
  if (w->n == w->cap) {
    size_t cap = w->cap ? 2 * w->cap : 256;
    Frame *s = ARENA_ARRAY(w->a, Frame, cap);
    if (w->n)
      memcpy(s, w->stack, sizeof *s * w->n);
    w->stack = s, w->cap = cap;
  }
  w->stack[w->n++] = (Frame){e, expanded};
}

static void push_child(Expr **slot, void *ctx) {
  Walk *w = ctx;
  if (!ptrmap_get(&w->done, *slot))
    push(w, *slot, false);
}

/* Text puts a let's body, a projected tuple and a called closure at the
 * level of the node itself (`let %x = v; body`, `t.0`, `%f(x)`); every
 * other child is one level in. */
static int64_t text_step(const Expr *e, Expr *const *slot) {
  bool same = (e->kind == EX_LET && slot == &e->let.body) || e->kind == EX_PROJ ||
              (e->kind == EX_CALL && e->call.kind == CALL_EXPR && slot == &e->call.callee);
  return !same;
}

static void add_child(Expr **slot, void *ctx) {
  Walk *w = ctx;
  int64_t v = *ptrmap_get(&w->done, *slot);
  int64_t height = v & 0xffffffff, nesting = (v >> 32) + text_step(w->parent, slot);
  if (height > w->d.height)
    w->d.height = height;
  if (nesting > w->d.nesting)
    w->d.nesting = nesting;
}

IrDepth ir_expr_depth(const Expr *root) {
  Walk w = {.a = arena_new()};
  w.done.arena = w.a;
  push(&w, root, false);
  while (w.n) {
    Frame f = w.stack[--w.n];
    if (ptrmap_get(&w.done, f.e))
      continue;
    if (!f.expanded) {
      push(&w, f.e, true);
      ir_expr_children((Expr *)f.e, push_child, &w);
      continue;
    }
    w.parent = f.e, w.d = (IrDepth){0, 0};
    ir_expr_children((Expr *)f.e, add_child, &w);
    *ptrmap_put(&w.done, f.e, NULL) = (w.d.height + 1) | w.d.nesting << 32;
  }
  int64_t v = *ptrmap_get(&w.done, root);
  arena_free(w.a);
  return (IrDepth){v & 0xffffffff, v >> 32};
}

bool ir_depth_within(IrDepth d, char *why, size_t n) {
  if (d.height > IR_MAX_DEPTH)
    snprintf(why, n,
             "is deeper than %d levels (IR_MAX_DEPTH, counting let chains and graph "
             "bindings)",
             IR_MAX_DEPTH);
  else if (d.nesting > IR_MAX_NESTING)
    snprintf(why, n, "nests deeper than %d levels (IR_MAX_NESTING, counting graph bindings)",
             IR_MAX_NESTING);
  else
    return true;
  return false;
}

bool ir_depth_ok(const Module *m, Diag *d) {
  for (int i = 0; i < m->nfuncs; i++) {
    const GlobalFn *g = m->funcs[i];
    char why[160];
    if (g->func && !ir_depth_within(ir_expr_depth(g->func), why, sizeof why)) {
      diag_error(d, g->func->line, g->func->col, "@%s %s", g->name, why);
      return false;
    }
  }
  return true;
}
