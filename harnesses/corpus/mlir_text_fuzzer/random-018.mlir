func.func @main() -> tensor<3x2xf32> {
  %0 = "tosa.const"() <{values = dense<1.0> : tensor<3x2xf32>}> : () -> tensor<3x2xf32>
  return %0 : tensor<3x2xf32>
}
