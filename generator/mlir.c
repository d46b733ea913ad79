/*
 * mlir.c - the "mlir" policy: the programs targets/mlir/translate.c takes,
 * so that every input of the MLIR target translates.
 *
 * The translatable subset is data flow: let, tuples, sharing, operator
 * calls, if, and calls of non-recursive globals; no closures, references,
 * ADTs or match.  Tensors are float32, int32 or bool (TOSA's profiles have
 * no float64, and int8/int64 arithmetic belongs to none) with every dim at
 * least 1 (TOSA rejects empty tensors: the limits' min_dim keeps the
 * operator solvers from inventing one).  Every operator the translator
 * lowers is allowed, and it has a faithful lowering for each corner
 * (docs/mlir.md); op_deny lists those targets/mlir/accept.c refuses.
 * Pure data: no hook.
 */
#include "gen_int.h"

/* Operator op's bit in word w of a deny-list. */
#define DENY(w, op) ((op) / 64 == (w) ? 1ull << ((op) % 64) : 0)
/* The operators of nn2.c and conv_extra.c, which the translator refuses. */
#define DENY_REFUSED(w)                                                                            \
  (DENY(w, OP_LEAKY_RELU) | DENY(w, OP_PRELU) | DENY(w, OP_DROPOUT) | DENY(w, OP_L2_NORMALIZE) |   \
   DENY(w, OP_LRN) | DENY(w, OP_INSTANCE_NORM) | DENY(w, OP_GROUP_NORM) |                          \
   DENY(w, OP_GLOBAL_MAX_POOL2D) | DENY(w, OP_ADAPTIVE_AVG_POOL2D) |                               \
   DENY(w, OP_ADAPTIVE_MAX_POOL2D) | DENY(w, OP_MATMUL) | DENY(w, OP_CONV1D) |                     \
   DENY(w, OP_CONV2D_TRANSPOSE))

const GenPolicy gen_policy_mlir = {
    .name = "mlir",
    .doc = "what the MLIR target translates: data flow, if, globals; f32/i32/bool, dims >= 1",
    .form_weight =
        {
            [GF_VAR] = 6,
            [GF_LIT] = 3,
            [GF_SHARE] = 3,
            [GF_LET] = 5,
            [GF_IF] = 2,
            [GF_PROJ] = 2,
            [GF_OP] = 14,
            [GF_GLOBAL] = 2,
            [GF_PARAM] = 5,
        },
    .type_weight = {[GT_TENSOR] = 12, [GT_TUPLE] = 2, [GT_OPTYPE] = 6},
    .pattern_weight =
        {
            [OPAT_ELEMWISE] = 2,
            [OPAT_BROADCAST] = 2,
            [OPAT_INJECTIVE] = 2,
            [OPAT_COMM_REDUCE] = 2,
            [OPAT_OUT_ELEMWISE_FUSABLE] = 4, /* conv2d, dense, pools: TOSA's richest */
            [OPAT_OPAQUE] = 2,
        },
    .features = GEN_F_LET | GEN_F_IF | GEN_F_TUPLE | GEN_F_GLOBAL | GEN_F_SHARE | GEN_F_OPS,
    .swarm = true,
    .swarm_keep = GEN_F_OPS,
    .budget = 24,
    .budget_min = 4,
    .budget_max = 48,
    .max_depth = 12,
    .max_type_depth = 1,
    .max_params = 3,
    .max_main_params = 6,
    .max_globals = 3,
    .max_adts = 0,
    .limits = {.max_rank = 4,
               .max_dim = 8,
               .max_numel = 256,
               .max_flops = 16384,
               .dtypes = (1u << DT_FLOAT32) | (1u << DT_INT32) | (1u << DT_BOOL),
               .min_dim = 1},
    .dtypes = (1u << DT_FLOAT32) | (1u << DT_INT32) | (1u << DT_BOOL),
    .op_deny = {DENY_REFUSED(0), DENY_REFUSED(1)},
};
