module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %fn0_0 = transform.structured.match ops{["func.func"]} attributes{sym_name = "main"} in %root : (!transform.any_op) -> !transform.any_op
    %fn0 = transform.merge_handles %fn0_0 : !transform.any_op
    %ops_0 = transform.structured.match interface{LinalgOp} in %fn0_0 : (!transform.any_op) -> !transform.any_op
    %ops = transform.merge_handles %ops_0 : !transform.any_op
    %op:4 = transform.split_handle %ops : (!transform.any_op) -> (!transform.any_op, !transform.any_op, !transform.any_op, !transform.any_op)
    transform.structured.vectorize %op#3 vector_sizes [3, 7] : !transform.any_op
    %f1_0 = transform.structured.match ops{["func.func"]} attributes{sym_name = "main"} in %root : (!transform.any_op) -> !transform.any_op
    %f1 = transform.merge_handles %f1_0 : !transform.any_op
    transform.apply_patterns to %f1 {
      transform.apply_patterns.vector.lower_contraction lowering_strategy = "parallelarith"
      transform.apply_patterns.vector.lower_transfer max_transfer_rank = 1
      transform.apply_patterns.vector.lower_multi_reduction lowering_strategy = "innerreduction"
      transform.apply_patterns.vector.lower_transpose lowering_strategy = "eltwise"
      transform.apply_patterns.vector.lower_broadcast
      transform.apply_patterns.vector.transfer_permutation_patterns
      transform.apply_patterns.vector.lower_shape_cast
      transform.apply_patterns.vector.lower_masks
      transform.apply_patterns.vector.lower_masked_transfers
      transform.apply_patterns.vector.lower_gather
      transform.apply_patterns.vector.lower_bitcast
    } : !transform.any_op
    transform.apply_patterns to %f1 {
      transform.apply_patterns.vector.cast_away_vector_leading_one_dim
    } : !transform.any_op
    transform.apply_patterns to %f1 {
      transform.apply_patterns.canonicalization
    } : !transform.any_op
    transform.yield
  }
}
