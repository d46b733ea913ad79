func.func @main(%x_0: tensor<4x1xf32>) -> tensor<4x1xf32> {
  %1 = tosa.log %x_0 : (tensor<4x1xf32>) -> tensor<4x1xf32>
  return %1 : tensor<4x1xf32>
}
