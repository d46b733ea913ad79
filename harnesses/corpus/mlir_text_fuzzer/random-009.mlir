func.func @main(%x_0: tensor<f32>) -> tensor<f32> {
  return %x_0 : tensor<f32>
}
