func.func @main(%x_0: tensor<i32>, %x_1: tensor<i32>, %x_2: tensor<5x1x2xi1>, %x_3: tensor<2x1x2x4xf32>) -> tensor<5x2xi1> {
  %4 = tosa.maximum %x_0, %x_1 : (tensor<i32>, tensor<i32>) -> tensor<i32>
  %x_5 = tosa.cast %4 : (tensor<i32>) -> tensor<i1>
  %6 = "tosa.const"() <{values = dense<true> : tensor<5x2xi1>}> : () -> tensor<5x2xi1>
  return %6 : tensor<5x2xi1>
}
