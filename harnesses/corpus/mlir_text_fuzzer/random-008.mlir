func.func @main(%x_0: tensor<i1>, %x_1: tensor<4xf32>, %x_2: tensor<6x1x1xf32>, %x_3: tensor<6x1x4xf32>) -> tensor<6x1x4xf32> {
  %13 = tosa.cond_if %x_0 (%x_5 = %x_1, %x_8 = %x_2, %x_11 = %x_3) : tensor<i1> (tensor<4xf32>, tensor<6x1x1xf32>, tensor<6x1x4xf32>) -> tensor<6x1x4xf32> {
  ^bb0(%x_5: tensor<4xf32>, %x_8: tensor<6x1x1xf32>, %x_11: tensor<6x1x4xf32>):
    %4 = tosa.const_shape {values = dense<[1, 1, 4]> : tensor<3xindex>} : () -> !tosa.shape<3>
    %7 = tosa.reshape %x_5, %4 : (tensor<4xf32>, !tosa.shape<3>) -> tensor<1x1x4xf32>
    %10 = tosa.sub %7, %x_8 : (tensor<1x1x4xf32>, tensor<6x1x1xf32>) -> tensor<6x1x4xf32>
    tosa.yield %10 : tensor<6x1x4xf32>
  } else {
  ^bb0(%x_6: tensor<4xf32>, %x_9: tensor<6x1x1xf32>, %x_12: tensor<6x1x4xf32>):
    tosa.yield %x_12 : tensor<6x1x4xf32>
  }
  return %13 : tensor<6x1x4xf32>
}
