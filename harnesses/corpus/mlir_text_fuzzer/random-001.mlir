func.func @main(%x_0: tensor<i32>, %x_1: tensor<2x4x2xi32>, %x_2: tensor<2x4xi32>, %x_3: tensor<3x2x6x1xi32>, %x_4: tensor<1x6xi32>, %x_5: tensor<2x7x3x4xi32>) -> tensor<6x2x4x2xi32> {
  %6 = "tosa.const"() <{values = dense<false> : tensor<i1>}> : () -> tensor<i1>
  %x_9 = tosa.cond_if %6 : tensor<i1> -> tensor<i32> {
    %7 = "tosa.const"() <{values = dense<69> : tensor<i32>}> : () -> tensor<i32>
    tosa.yield %7 : tensor<i32>
  } else {
    %8 = "tosa.const"() <{values = dense<-100> : tensor<i32>}> : () -> tensor<i32>
    tosa.yield %8 : tensor<i32>
  }
  %x_10 = tosa.maximum %x_0, %x_9 : (tensor<i32>, tensor<i32>) -> tensor<i32>
  %11 = tosa.const_shape {values = dense<[1, 1, 1]> : tensor<3xindex>} : () -> !tosa.shape<3>
  %12 = tosa.reshape %x_10, %11 : (tensor<i32>, !tosa.shape<3>) -> tensor<1x1x1xi32>
  %13 = tosa.maximum %x_1, %12 : (tensor<2x4x2xi32>, tensor<1x1x1xi32>) -> tensor<2x4x2xi32>
  %14 = "tosa.const"() <{values = dense<1> : tensor<2x1x1x6xi32>}> : () -> tensor<2x1x1x6xi32>
  %15 = "tosa.const"() <{values = dense<[[[[-7, -31, 21, 26], [19, -1, 8, 2], [25, -5, -8, -20]], [[29, -10, -16, -16], [-8, 10, -8, -30], [-12, 9, -29, -28]], [[10, -15, -27, -32], [-3, -11, -1, -23], [-25, 23, 10, -2]], [[-14, -20, 2, -27], [24, -17, -25, -1], [-6, 6, 5, 15]], [[1, -19, -27, 18], [-20, -19, -29, 13], [14, 14, 2, -6]], [[-29, 15, 0, -23], [27, 14, -4, 2], [-25, 4, 3, -9]], [[4, 18, 11, -20], [-7, -18, 10, -17], [22, 14, 17, 30]]], [[[-7, 27, 12, 22], [22, 18, 19, -18], [-17, -9, -1, -29]], [[12, -22, -22, 24], [8, 8, 24, 14], [-19, -106, -19, 18]], [[3, -19, 10, -10], [12, 14, 1, 24], [-22, -6, -22, 26]], [[-14, -29, 28, 9], [-31, 25, -6, 16], [25, 16, -17, -16]], [[42, 31, -29, 26], [23, -2, -13, 2], [23, -5, 4, 1]], [[-11, -24, -17, 30], [-1, 16, 12, -23], [2, 8, -9, 2]], [[3, -24, -21, -12], [-9, 31, -13, 22], [12, -32, 12, -12]]]]> : tensor<2x7x3x4xi32>}> : () -> tensor<2x7x3x4xi32>
  %16 = "tosa.const"() <{values = dense<-80> : tensor<i32>}> : () -> tensor<i32>
  %17 = "tosa.const"() <{values = dense<[[[18, -12, 30, 15], [22, 28, 24, -22], [13, -4, -11, 11], [-29, 9, 2, 30], [-24, -26, -24, -8], [-17, -8, -26, -24]], [[-27, -2, 31, 0], [31, -15, -8, 29], [11, -4, -9, -30], [23, 8, 30, 14], [-24, 14, -11, -29], [15, -19, 20, -1]], [[-29, 19, 23, -11], [-22, -10, 5, -5], [11, 18, -6, -6], [0, -19, -18, -4], [29, -32, 27, 14], [-4, -3, 16, -22]], [[-18, 85, -1, 16], [-20, 19, -4, 21], [18, -9, -18, 9], [20, -18, 6, 30], [-6, 29, 20, 8], [22, -19, 16, 22]], [[27, -23, -21, -10], [-26, -25, -10, -18], [7, -3, -10, 28], [-23, 29, -12, -11], [-6, 26, 1, 30], [-11, -14, -7, 0]], [[-8, -29, -22, 3], [12, -8, -26, 21], [19, 31, -16, -1], [2, -20, 31, -4], [-18, 10, 13, -18], [-12, -6, -29, -32]]]> : tensor<6x6x4xi32>}> : () -> tensor<6x6x4xi32>
  %18 = "tosa.const"() <{values = dense<-80> : tensor<1x1x1xi32>}> : () -> tensor<1x1x1xi32>
  %19 = tosa.add %18, %17 : (tensor<1x1x1xi32>, tensor<6x6x4xi32>) -> tensor<6x6x4xi32>
  %20 = tosa.reduce_sum %19 {axis = 2 : i32} : (tensor<6x6x4xi32>) -> tensor<6x6x1xi32>
  %21 = tosa.const_shape {values = dense<[6, 6]> : tensor<2xindex>} : () -> !tosa.shape<2>
  %22 = tosa.reshape %20, %21 : (tensor<6x6x1xi32>, !tosa.shape<2>) -> tensor<6x6xi32>
  %23 = tosa.const_shape {values = dense<[1, 2, 6]> : tensor<3xindex>} : () -> !tosa.shape<3>
  %24 = tosa.reshape %14, %23 : (tensor<2x1x1x6xi32>, !tosa.shape<3>) -> tensor<1x2x6xi32>
  %25 = tosa.transpose %22 {perms = array<i32: 1, 0>} : (tensor<6x6xi32>) -> tensor<6x6xi32>
  %26 = tosa.const_shape {values = dense<[1, 6, 6]> : tensor<3xindex>} : () -> !tosa.shape<3>
  %27 = tosa.reshape %25, %26 : (tensor<6x6xi32>, !tosa.shape<3>) -> tensor<1x6x6xi32>
  %28 = "tosa.const"() <{values = dense<0> : tensor<1x2x6xi32>}> : () -> tensor<1x2x6xi32>
  %29 = linalg.batch_matmul ins(%24, %27 : tensor<1x2x6xi32>, tensor<1x6x6xi32>) outs(%28 : tensor<1x2x6xi32>) -> tensor<1x2x6xi32>
  %30 = tosa.const_shape {values = dense<[2, 1, 1, 6]> : tensor<4xindex>} : () -> !tosa.shape<4>
  %31 = tosa.reshape %29, %30 : (tensor<1x2x6xi32>, !tosa.shape<4>) -> tensor<2x1x1x6xi32>
  %32 = tosa.transpose %31 {perms = array<i32: 3, 2, 1, 0>} : (tensor<2x1x1x6xi32>) -> tensor<6x1x1x2xi32>
  %33 = tosa.const_shape {values = dense<[1, 2, 4, 2]> : tensor<4xindex>} : () -> !tosa.shape<4>
  %34 = tosa.reshape %13, %33 : (tensor<2x4x2xi32>, !tosa.shape<4>) -> tensor<1x2x4x2xi32>
  %35 = tosa.add %34, %32 : (tensor<1x2x4x2xi32>, tensor<6x1x1x2xi32>) -> tensor<6x2x4x2xi32>
  return %35 : tensor<6x2x4x2xi32>
}
