/*
 * resize.h - the taps of image.c's resize kernel (nn.upsampling,
 * image.resize2d) for one output coordinate, for a lowering that must
 * read the same pixels with the same weights (targets/mlir).
 */
#ifndef RS_OPS_RESIZE_H
#define RS_OPS_RESIZE_H

#include <stdbool.h>
#include <stdint.h>

#include "compiler/ir/ir.h"

/* Output coordinate x of an axis resized from in to out elements: the
 * input index i[0] (nearest: i[1] the same, t 0) or, linear, the two
 * clamped indices and the float32 weight t of i[1] as k_resize computes
 * them. */
typedef struct OpResizeTap {
  bool linear;
  int64_t i[2];
  float t;
} OpResizeTap;

/* The tap of output coordinate x under op's attributes at (false when
 * they are not valid for op). */
bool op_resize_tap(OpId op, const Attrs *at, int64_t in, int64_t out, int64_t x, OpResizeTap *tap);

#endif
