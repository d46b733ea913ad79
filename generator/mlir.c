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
 * lowers is allowed, with a faithful lowering for each corner
 * (docs/mlir.md); those it refuses are denied (op_deny).
 * Pure data: no hook.
 */
#include "gen_int.h"

/* Bits lo..hi of the second word of an operator mask (64 <= lo <= hi). */
#define MLIR_DENY(lo, hi) (((2ull << ((hi)-64)) - 1) & ~((1ull << ((lo)-64)) - 1))
_Static_assert(OP_GATHER >= 64, "MLIR_DENY covers the second word only");

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
    /* Operators the translator refuses (targets/mlir/accept.c). */
    .op_deny = {0, MLIR_DENY(OP_GATHER, OP_SCATTER_ELEMENTS)},
};
