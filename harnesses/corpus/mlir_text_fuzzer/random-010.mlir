func.func @main() -> tensor<2x5x1xi32> {
  %0 = "tosa.const"() <{values = dense<[[[90], [93], [9], [-56], [110]], [[23], [-47], [49], [-63], [-111]]]> : tensor<2x5x1xi32>}> : () -> tensor<2x5x1xi32>
  return %0 : tensor<2x5x1xi32>
}
