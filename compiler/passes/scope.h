/*
 * scope.h - where each node of a function is evaluated, and how to place new
 * let bindings there.  Shared by to_anf and fuse_ops.  Internal to
 * compiler/passes.
 *
 * A function body is a tree of scopes, as in Relay's ToANormalForm: the
 * body itself (scope 0), each non-primitive function literal's body, each
 * if branch and each match clause body.  With `chains` set, a let chain
 * that starts anywhere else (a let in an argument, a let value, a tuple
 * field...) is a scope of its own too: the variables it binds are visible
 * only inside it, and a pass that keeps such chains in place (fuse_ops)
 * must place bindings that use them inside it.
 *
 * Every node reachable from the body (primitive functions' bodies are not
 * entered) has a home: the scope where it sits, or for a node reached
 * along several paths (a graph binding), the innermost scope that encloses
 * all its uses (the least common ancestor of its parents' scopes).  A node
 * bound at the first point of its home where it is used, in evaluation
 * order, is in scope at every use: lets are not recursive in relayc, so its
 * free variables are bound before that point.  Such a node may then be
 * evaluated on a path that did not evaluate it before (one used only in
 * the then branches of two ifs is bound before both), and once where it
 * was evaluated at each use; graph bindings are pure and total
 * (ir_well_formed, and operators are total), so, as in Relay, no result
 * changes.
 *
 * The builder side keeps one list of pending `let` bindings per scope.  A
 * pass rebuilds a scope's body in evaluation order; whenever it decides to
 * bind a node it appends the binding to the list of the node's home (an
 * enclosing scope whose rebuild is in progress, so the binding lands just
 * before the construct being rebuilt there), and when the scope's body is
 * done it wraps the pending bindings around it (pass_scope_wrap).
 */
#ifndef RELAYC_SCOPE_H
#define RELAYC_SCOPE_H

#include "compiler/ir/ir.h"
#include "compiler/ir/ptrmap.h"

typedef struct ScopeLets {
  int n, cap;
  Var **vars;
  Expr **vals;
} ScopeLets;

typedef struct ScopeInfo {
  bool chains;  /* let chains are scopes (see the top of the file) */
  int n;        /* nodes */
  Expr **node;  /* every node, parents before children */
  PtrMap index; /* Expr* -> its position in node[] */
  int *home;    /* scope the node is evaluated in */
  int *inner;   /* scope of its non-branch children: home, or its own chain scope */
  int *sub;     /* first scope of its branches/body/chain, or -1 */
  int *refs;    /* parent slots pointing at it */
  int nscopes, capscopes;
  int *parent;     /* per scope: enclosing scope, -1 for scope 0 */
  int *depth;      /* per scope: 0 for scope 0 */
  ScopeLets *lets; /* per scope: pending bindings */
} ScopeInfo;

/* Analyse the function body `body`. */
void pass_scope_build(ScopeInfo *si, Expr *body, bool chains);
void pass_scope_free(ScopeInfo *si);

/* The position of e in si->node, or -1 when e was not reached. */
int pass_scope_id(const ScopeInfo *si, const Expr *e);

/* Innermost scope enclosing both a and b. */
int pass_scope_lca(const ScopeInfo *si, int a, int b);

/* Append `let v = val` to the pending bindings of scope s. */
void pass_scope_emit(ScopeInfo *si, int s, Var *v, Expr *val);
/* Number of pending bindings of s, to pass to pass_scope_wrap later. */
int pass_scope_mark(const ScopeInfo *si, int s);
/* Wrap the bindings of s pending since mark around tail (in order) and
 * forget them; returns tail itself when there are none. */
Expr *pass_scope_wrap(Module *m, ScopeInfo *si, int s, int mark, Expr *tail);

/* e itself when f returns every child of e unchanged, else a copy of e
 * (with its own child arrays) whose children are f's results; children are
 * visited in ir_expr_children order. */
Expr *pass_map_children(Module *m, Expr *e, Expr *(*f)(void *ctx, Expr *child), void *ctx);

/* A fresh variable `x` of type t (may be NULL), and a use of it. */
Var *pass_fresh_var(Module *m, const char *hint, Type *t);
Expr *pass_var_use(Module *m, Var *v);

#endif
