module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %fn0_0 = transform.structured.match ops{["func.func"]} attributes{sym_name = "main"} in %root : (!transform.any_op) -> !transform.any_op
    %fn0 = transform.merge_handles %fn0_0 : !transform.any_op
    %ops_0 = transform.structured.match interface{LinalgOp} in %fn0_0 : (!transform.any_op) -> !transform.any_op
    %ops = transform.merge_handles %ops_0 : !transform.any_op
    %op:1 = transform.split_handle %ops : (!transform.any_op) -> (!transform.any_op)
    %f1_0 = transform.structured.match ops{["func.func"]} attributes{sym_name = "main"} in %root : (!transform.any_op) -> !transform.any_op
    %f1 = transform.merge_handles %f1_0 : !transform.any_op
    %v2 = transform.structured.vectorize_children_and_apply_patterns %f1 {vectorize_nd_extract, disable_multi_reduction_to_contract_patterns} : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
}
