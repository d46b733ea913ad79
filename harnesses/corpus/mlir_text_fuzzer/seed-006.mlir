func.func @main(%x_0: tensor<i1>, %x_1: tensor<4xi32>, %x_2: tensor<7xi32>) -> tensor<4xi32> {
  %26 = tosa.cond_if %x_0 (%x_12 = %x_2, %x_22 = %x_1) : tensor<i1> (tensor<7xi32>, tensor<4xi32>) -> tensor<4xi32> {
  ^bb0(%x_12: tensor<7xi32>, %x_22: tensor<4xi32>):
    %3 = "tosa.const"() <{values = dense<0> : tensor<7x8x4x1xi32>}> : () -> tensor<7x8x4x1xi32>
    %4 = tosa.reduce_sum %3 {axis = 0 : i32} : (tensor<7x8x4x1xi32>) -> tensor<1x8x4x1xi32>
    %5 = tosa.reduce_sum %4 {axis = 1 : i32} : (tensor<1x8x4x1xi32>) -> tensor<1x1x4x1xi32>
    %6 = tosa.const_shape {values = dense<4> : tensor<1xindex>} : () -> !tosa.shape<1>
    %7 = tosa.reshape %5, %6 : (tensor<1x1x4x1xi32>, !tosa.shape<1>) -> tensor<4xi32>
    %8 = "tosa.const"() <{values = dense<0> : tensor<1xi32>}> : () -> tensor<1xi32>
    %9 = tosa.sub %8, %7 : (tensor<1xi32>, tensor<4xi32>) -> tensor<4xi32>
    tosa.yield %9 : tensor<4xi32>
  } else {
  ^bb0(%x_13: tensor<7xi32>, %x_23: tensor<4xi32>):
    %10 = "tosa.const"() <{values = dense<[[-16, 8, 3, 20, -6, -19, 11], [0, 31, 18, -17, 21, -9, -16], [-25, 38, -20, 27, 28, -3, 2], [17, -26, 21, 20, -23, -29, 29]]> : tensor<4x7xi32>}> : () -> tensor<4x7xi32>
    %11 = tosa.const_shape {values = dense<[1, 1, 7]> : tensor<3xindex>} : () -> !tosa.shape<3>
    %14 = tosa.reshape %x_13, %11 : (tensor<7xi32>, !tosa.shape<3>) -> tensor<1x1x7xi32>
    %15 = tosa.transpose %10 {perms = array<i32: 1, 0>} : (tensor<4x7xi32>) -> tensor<7x4xi32>
    %16 = tosa.const_shape {values = dense<[1, 7, 4]> : tensor<3xindex>} : () -> !tosa.shape<3>
    %17 = tosa.reshape %15, %16 : (tensor<7x4xi32>, !tosa.shape<3>) -> tensor<1x7x4xi32>
    %18 = "tosa.const"() <{values = dense<0> : tensor<1x1x4xi32>}> : () -> tensor<1x1x4xi32>
    %19 = linalg.batch_matmul ins(%14, %17 : tensor<1x1x7xi32>, tensor<1x7x4xi32>) outs(%18 : tensor<1x1x4xi32>) -> tensor<1x1x4xi32>
    %20 = tosa.const_shape {values = dense<4> : tensor<1xindex>} : () -> !tosa.shape<1>
    %x_21 = tosa.reshape %19, %20 : (tensor<1x1x4xi32>, !tosa.shape<1>) -> tensor<4xi32>
    %24 = tosa.maximum %x_21, %x_23 : (tensor<4xi32>, tensor<4xi32>) -> tensor<4xi32>
    %25 = tosa.identity %24 : (tensor<4xi32>) -> tensor<4xi32>
    tosa.yield %25 : tensor<4xi32>
  }
  return %26 : tensor<4xi32>
}
