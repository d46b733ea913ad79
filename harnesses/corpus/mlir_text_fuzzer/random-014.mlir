func.func @main(%x_0: tensor<6x3x8x1xf32>) -> tensor<6x3x8x1xf32> {
  return %x_0 : tensor<6x3x8x1xf32>
}
