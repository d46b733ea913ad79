func.func @main() -> tensor<1xi1> {
  %0 = "tosa.const"() <{values = dense<false> : tensor<1xi1>}> : () -> tensor<1xi1>
  return %0 : tensor<1xi1>
}
