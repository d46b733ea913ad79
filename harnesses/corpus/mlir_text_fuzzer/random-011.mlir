func.func @main(%x_0: tensor<f32>, %x_1: tensor<f32>) -> tensor<i1> {
  %x_2 = "tosa.const"() <{values = dense<21.75> : tensor<f32>}> : () -> tensor<f32>
  %3 = "tosa.const"() <{values = dense<0.0> : tensor<f32>}> : () -> tensor<f32>
  %4 = "tosa.const"() <{values = dense<2.75> : tensor<f32>}> : () -> tensor<f32>
  %5 = tosa.add %4, %x_0 : (tensor<f32>, tensor<f32>) -> tensor<f32>
  %6 = tosa.maximum %5, %x_0 : (tensor<f32>, tensor<f32>) -> tensor<f32>
  %7 = "tosa.const"() <{values = dense<13.0> : tensor<f32>}> : () -> tensor<f32>
  %x_8 = tosa.add %7, %x_0 : (tensor<f32>, tensor<f32>) -> tensor<f32>
  %9 = tosa.add %3, %x_8 : (tensor<f32>, tensor<f32>) -> tensor<f32>
  %10 = tosa.pow %6, %9 : (tensor<f32>, tensor<f32>) -> tensor<f32>
  %11 = tosa.greater_equal %10, %3 : (tensor<f32>, tensor<f32>) -> tensor<i1>
  return %11 : tensor<i1>
}
