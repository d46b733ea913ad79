/*
 * mlir.c - the "mlir" policy: the programs targets/mlir/translate.c takes,
 * so that every input of the MLIR target translates.
 *
 * The translatable subset is data flow: let, tuples, sharing, operator
 * calls, if, and calls of non-recursive globals; no closures, references,
 * ADTs or match.  Tensors are float32, int32 or bool (TOSA's profiles have
 * no float64, and int8/int64 arithmetic belongs to none) with every dim at
 * least 1 (TOSA rejects empty tensors: the limits' min_dim keeps the
 * operator solvers from inventing one).  The
 * operators are those of the target's one table of what it lowers
 * (targets/mlir/lowers.def, which the translator's acceptance reads too):
 * each has a faithful lowering for every corner (docs/mlir.md); any other
 * operator is never drawn.
 * Any dims (dyn.c) are drawn in 3 programs in 4 (any_rate 12 of 16): the
 * translator makes them `?` (MLIR's dynamic shapes), deriving the static
 * shapes from @main's parameters, which dyn.c never relaxes.
 * Pure data: no hook.
 */
#include "gen_int.h"

/* The operators the MLIR target lowers in every call (lowers.def's rows
 * with draw 1): an allow-list, so an operator added to relayc later is
 * never drawn until it has a lowering there. */
static const bool mlir_ops[OP_COUNT] = {
#define MLIR_OP(id, family, draw) [OP_##id] = (draw),
#include "targets/mlir/lowers.def"
#undef MLIR_OP
};

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
    .any_rate = 12,
    .op_only = mlir_ops,
};
