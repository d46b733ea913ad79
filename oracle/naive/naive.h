/*
 * naive.h - a second, deliberately naive implementation of every
 * operator's kernel, for the kernel oracle (oracle.h, ORACLE_KERNEL):
 * constant folding and the interpreter share compiler/ops's kernels, so a
 * kernel bug is invisible to every other oracle.
 *
 * Each kernel is written straight from the operator's definition
 * (docs/operators.md and the family comments in compiler/ops), not from
 * compiler/ops's code: scalar loops over output coordinates, every value
 * read and written through the helpers below (their own conversions, not
 * the IR's), attributes read by name with their documented defaults.
 * Nothing is shared with compiler/ops but the Tensor type and the IR's
 * attribute list.  Obviously correct rather than fast.
 *
 * A kernel gets its outputs allocated with the shapes the operator's
 * relation gives (the relation is not under test here) and writes every
 * element of them.
 *
 * One file per operator family, as in compiler/ops; the table of kernels
 * is in naive.c.
 */
#ifndef RS_NAIVE_H
#define RS_NAIVE_H

#include <stdbool.h>
#include <stdint.h>

#include "compiler/ir/ir.h"

/* A naive kernel: args as the real kernels get them (a tuple argument
 * flattened into its fields), outputs preallocated. */
typedef void (*NvKernel)(OpId op, Tensor *const *args, int nargs, const Attrs *at,
                         Tensor *const *outs, int nouts);

/* How a naive result is compared with the real one.  Integers and bools
 * are always compared bit for bit, and floats too where the definition
 * fixes the order of the operations (NaN payloads aside); NV_CLOSE where
 * it does not (a sum whose order the definition leaves open), within
 * the interpreter's default tolerance (docs/interpreter.md). */
typedef enum NvCompare { NV_EXACT, NV_CLOSE } NvCompare;

typedef struct NvOp {
  NvKernel kernel;
  NvCompare compare;
} NvOp;

/* The naive kernel of op and how to compare it (kernel NULL: none, which
 * tests/unit/test_naive.c rules out for every operator). */
const NvOp *nv_op(OpId op);

/* --------------------------------------------------------------- values */

/* Whether dt is float32, float64, float16 or bfloat16; uint8 .. uint64. */
bool nv_is_float(DType dt);
bool nv_is_unsigned(DType dt);
/* a < b for integers of dtype dt as nv_i reads them (unsigned dtypes
 * compare as unsigned: a uint64 above INT64_MAX reads negative). */
bool nv_lt(DType dt, int64_t a, int64_t b);
/* Element i as a double (bools 0 or 1, integers exactly up to 2^53). */
double nv_f(const Tensor *t, int64_t i);
/* Element i of an integer or bool tensor (a uint64 as its bits). */
int64_t nv_i(const Tensor *t, int64_t i);
/* Element i of an unsigned tensor as its value. */
uint64_t nv_u(const Tensor *t, int64_t i);
/* Store v into element i converted to t's dtype as `cast` defines it:
 * float32, float16 and bfloat16 round once (to nearest, ties to even,
 * float16 and bfloat16 by this file's own bisection); a float into an
 * integer saturates, NaN gives 0; anything into bool is v != 0. */
void nv_put_f(Tensor *t, int64_t i, double v);
/* Store integer v into element i: integers wrap (two's complement), a
 * float gets the nearest value, bool is v != 0. */
void nv_put_i(Tensor *t, int64_t i, int64_t v);
/* The same for an unsigned value v. */
void nv_put_u(Tensor *t, int64_t i, uint64_t v);
/* Store element j of src (any dtype) into element i of dst, converted. */
void nv_put(Tensor *dst, int64_t i, const Tensor *src, int64_t j);
/* Element j of x converted to dtype dt as nv_put converts it: its value
 * as a double, and for an integer dtype as an integer (else 0). */
void nv_convert(const Tensor *x, int64_t j, DType dt, double *f, int64_t *i);
/* IEEE division, zero divisors spelled out (no UBSan report). */
double nv_div(double a, double b);
/* v as one arithmetic step in dtype dt gives it: for float32, float16
 * and bfloat16 the nearest value (a +, -, *, /, sqrt computed in double
 * and rounded is the step), else v.  docs/operators.md, "Float arithmetic". */
double nv_step(DType dt, double v);
/* max and min as `maximum` and `minimum` define them: a NaN operand wins
 * (the first when both are), and -0 is below +0. */
double nv_max(double a, double b);
double nv_min(double a, double b);

/* ---------------------------------------------------------- coordinates */

/* The row-major coordinate of element i of a tensor of shape (rank). */
void nv_coord(int rank, const int64_t *shape, int64_t i, int64_t *c);
/* The row-major index of coordinate c. */
int64_t nv_index(int rank, const int64_t *shape, const int64_t *c);
/* The index in x of result coordinate c (rank rc) under numpy
 * broadcasting: x's dims align with the last ones of c; a dim of 1
 * repeats. */
int64_t nv_broadcast(const Tensor *x, int rc, const int64_t *c);
/* An axis in [-rank, rank) counted from 0. */
int nv_axis(int64_t axis, int rank);

/* ----------------------------------------------------------- attributes */

/* Attribute name, or NULL when it is absent or None. */
const Attr *nv_attr(const Attrs *at, const char *name);
int64_t nv_int(const Attrs *at, const char *name, int64_t dflt);
double nv_float(const Attrs *at, const char *name, double dflt);
bool nv_bool(const Attrs *at, const char *name, bool dflt);
const char *nv_str(const Attrs *at, const char *name, const char *dflt);
/* A list attribute's values and count; NULL (count 0) when absent. */
const int64_t *nv_ints(const Attrs *at, const char *name, int *n);
/* A window attribute of two values, default (1, 1): strides, dilation,
 * pool_size. */
void nv_pair(const Attrs *at, const char *name, int64_t *v);
/* padding: one value for all four sides, two (top and bottom, left and
 * right) or four (top, left, bottom, right); absent: none. */
void nv_padding(const Attrs *at, int64_t *pad);

/* ------------------------------------------------------------- families */

/* unary.c */
void nv_unary(OpId, Tensor *const *, int, const Attrs *, Tensor *const *, int);
void nv_cast(OpId, Tensor *const *, int, const Attrs *, Tensor *const *, int);
/* broadcast.c */
void nv_binary(OpId, Tensor *const *, int, const Attrs *, Tensor *const *, int);
void nv_where(OpId, Tensor *const *, int, const Attrs *, Tensor *const *, int);
/* reduction.c */
void nv_reduce(OpId, Tensor *const *, int, const Attrs *, Tensor *const *, int);
/* shape.c */
void nv_row_major(OpId, Tensor *const *, int, const Attrs *, Tensor *const *, int);
void nv_transpose(OpId, Tensor *const *, int, const Attrs *, Tensor *const *, int);
void nv_broadcast_to(OpId, Tensor *const *, int, const Attrs *, Tensor *const *, int);
/* join.c */
void nv_concatenate(OpId, Tensor *const *, int, const Attrs *, Tensor *const *, int);
void nv_stack(OpId, Tensor *const *, int, const Attrs *, Tensor *const *, int);
void nv_split(OpId, Tensor *const *, int, const Attrs *, Tensor *const *, int);
/* index.c */
void nv_strided_slice(OpId, Tensor *const *, int, const Attrs *, Tensor *const *, int);
void nv_take(OpId, Tensor *const *, int, const Attrs *, Tensor *const *, int);
void nv_tile(OpId, Tensor *const *, int, const Attrs *, Tensor *const *, int);
void nv_reverse(OpId, Tensor *const *, int, const Attrs *, Tensor *const *, int);
/* create.c */
void nv_fill(OpId, Tensor *const *, int, const Attrs *, Tensor *const *, int);
void nv_full(OpId, Tensor *const *, int, const Attrs *, Tensor *const *, int);
/* matmul.c */
void nv_dense(OpId, Tensor *const *, int, const Attrs *, Tensor *const *, int);
void nv_batch_matmul(OpId, Tensor *const *, int, const Attrs *, Tensor *const *, int);
/* conv.c */
void nv_conv2d(OpId, Tensor *const *, int, const Attrs *, Tensor *const *, int);
/* pool.c */
void nv_pool2d(OpId, Tensor *const *, int, const Attrs *, Tensor *const *, int);
void nv_global_avg_pool2d(OpId, Tensor *const *, int, const Attrs *, Tensor *const *, int);
/* nn.c */
void nv_softmax(OpId, Tensor *const *, int, const Attrs *, Tensor *const *, int);
void nv_bias_add(OpId, Tensor *const *, int, const Attrs *, Tensor *const *, int);
void nv_batch_norm(OpId, Tensor *const *, int, const Attrs *, Tensor *const *, int);
void nv_layer_norm(OpId, Tensor *const *, int, const Attrs *, Tensor *const *, int);
void nv_pad(OpId, Tensor *const *, int, const Attrs *, Tensor *const *, int);
/* binary.c (integer and bitwise binary operators) */
void nv_binary2(OpId, Tensor *const *, int, const Attrs *, Tensor *const *, int);
/* math.c (unary float functions, predicates, bitwise_not) */
void nv_math(OpId, Tensor *const *, int, const Attrs *, Tensor *const *, int);
/* stats.c (all, any, logsumexp, variance, std) */
void nv_stats(OpId, Tensor *const *, int, const Attrs *, Tensor *const *, int);
/* cumulative.c (cumsum, cumprod) */
void nv_cumulative(OpId, Tensor *const *, int, const Attrs *, Tensor *const *, int);
/* nn2.c */
void nv_leaky_relu(OpId, Tensor *const *, int, const Attrs *, Tensor *const *, int);
void nv_prelu(OpId, Tensor *const *, int, const Attrs *, Tensor *const *, int);
void nv_dropout(OpId, Tensor *const *, int, const Attrs *, Tensor *const *, int);
void nv_l2_normalize(OpId, Tensor *const *, int, const Attrs *, Tensor *const *, int);
void nv_lrn(OpId, Tensor *const *, int, const Attrs *, Tensor *const *, int);
void nv_group_norm(OpId, Tensor *const *, int, const Attrs *, Tensor *const *, int);
void nv_global_max_pool2d(OpId, Tensor *const *, int, const Attrs *, Tensor *const *, int);
void nv_adaptive_pool2d(OpId, Tensor *const *, int, const Attrs *, Tensor *const *, int);
void nv_matmul(OpId, Tensor *const *, int, const Attrs *, Tensor *const *, int);
/* conv_extra.c */
void nv_conv1d(OpId, Tensor *const *, int, const Attrs *, Tensor *const *, int);
void nv_conv2d_transpose(OpId, Tensor *const *, int, const Attrs *, Tensor *const *, int);
/* gather.c */
void nv_gather(OpId, Tensor *const *, int, const Attrs *, Tensor *const *, int);
void nv_gather_nd(OpId, Tensor *const *, int, const Attrs *, Tensor *const *, int);
void nv_scatter_elements(OpId, Tensor *const *, int, const Attrs *, Tensor *const *, int);
/* sort.c (sort, argsort, topk) */
void nv_sort(OpId, Tensor *const *, int, const Attrs *, Tensor *const *, int);
/* transform.c */
void nv_flat_copy(OpId, Tensor *const *, int, const Attrs *, Tensor *const *, int);
void nv_one_hot(OpId, Tensor *const *, int, const Attrs *, Tensor *const *, int);
void nv_repeat(OpId, Tensor *const *, int, const Attrs *, Tensor *const *, int);
void nv_space_depth(OpId, Tensor *const *, int, const Attrs *, Tensor *const *, int);
void nv_collapse_sum_like(OpId, Tensor *const *, int, const Attrs *, Tensor *const *, int);
void nv_slice_like(OpId, Tensor *const *, int, const Attrs *, Tensor *const *, int);
/* image.c */
void nv_layout_transform(OpId, Tensor *const *, int, const Attrs *, Tensor *const *, int);
void nv_resize(OpId, Tensor *const *, int, const Attrs *, Tensor *const *, int);
/* arange.c */
void nv_arange(OpId, Tensor *const *, int, const Attrs *, Tensor *const *, int);
/* einsum.c */
void nv_einsum(OpId, Tensor *const *, int, const Attrs *, Tensor *const *, int);

#endif
