/*
 * eval_int.h - helpers shared by the interpreter's files (eval.c,
 * eval_inputs.c, eval_compare.c, eval_print.c); not part of the API.
 */
#ifndef RELAYC_EVAL_INT_H
#define RELAYC_EVAL_INT_H

#include "eval.h"

/* Record a failure with status st unless one is already recorded; returns
 * NULL so callers can `return ev_fail(...)`. */
EvValue *ev_fail(EvRun *r, EvStatus st, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

/* Would allocating `bytes` more exceed the run's memory budget?  Records
 * EV_INCONCLUSIVE and returns false if so. */
bool ev_reserve(EvRun *r, int64_t bytes);

/* Bytes of a tensor type (numel * element size), or -1 when it overflows
 * or t is not a tensor. */
int64_t ev_tensor_bytes(const Type *t);

/* Format element i of t ("1.5", "-3", "True"); floats with enough
 * digits to round-trip.  Returns buf. */
char *ev_format_elem(char *buf, size_t n, const Tensor *t, int64_t i);

/* Traversals of values (compare, identical, print) give up past this many
 * levels of non-tail nesting or this many nodes, so cyclic or huge values
 * (a ref inside an ADT can close a cycle) cannot hang or overflow. */
enum { EV_WALK_DEPTH = 10000, EV_WALK_NODES = 1 << 22 };

#endif
