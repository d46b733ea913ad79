func.func @main(%x_0: tensor<3xf32>, %x_1: tensor<1x2xi32>, %x_2: tensor<4x5x1xi32>, %x_3: tensor<3x2xi32>) -> tensor<3x2xf32> {
  %4 = tosa.const_shape {values = dense<[1, 20, 1]> : tensor<3xindex>} : () -> !tosa.shape<3>
  %5 = tosa.reshape %x_2, %4 : (tensor<4x5x1xi32>, !tosa.shape<3>) -> tensor<1x20x1xi32>
  %6 = "tosa.const"() <{values = dense<0> : tensor<1x1xi32>}> : () -> tensor<1x1xi32>
  %7 = tosa.maximum %x_3, %6 : (tensor<3x2xi32>, tensor<1x1xi32>) -> tensor<3x2xi32>
  %8 = "tosa.const"() <{values = dense<19> : tensor<1x1xi32>}> : () -> tensor<1x1xi32>
  %9 = tosa.minimum %7, %8 : (tensor<3x2xi32>, tensor<1x1xi32>) -> tensor<3x2xi32>
  %10 = tosa.const_shape {values = dense<[1, 6]> : tensor<2xindex>} : () -> !tosa.shape<2>
  %11 = tosa.reshape %9, %10 : (tensor<3x2xi32>, !tosa.shape<2>) -> tensor<1x6xi32>
  %12 = tosa.gather %5, %11 : (tensor<1x20x1xi32>, tensor<1x6xi32>) -> tensor<1x6x1xi32>
  %13 = tosa.const_shape {values = dense<[3, 2]> : tensor<2xindex>} : () -> !tosa.shape<2>
  %14 = tosa.reshape %12, %13 : (tensor<1x6x1xi32>, !tosa.shape<2>) -> tensor<3x2xi32>
  %15 = tosa.const_shape {values = dense<[1, 3, 1]> : tensor<3xindex>} : () -> !tosa.shape<3>
  %16 = tosa.reshape %x_0, %15 : (tensor<3xf32>, !tosa.shape<3>) -> tensor<1x3x1xf32>
  %17 = tosa.maximum %14, %6 : (tensor<3x2xi32>, tensor<1x1xi32>) -> tensor<3x2xi32>
  %18 = "tosa.const"() <{values = dense<2> : tensor<1x1xi32>}> : () -> tensor<1x1xi32>
  %19 = tosa.minimum %17, %18 : (tensor<3x2xi32>, tensor<1x1xi32>) -> tensor<3x2xi32>
  %20 = tosa.reshape %19, %10 : (tensor<3x2xi32>, !tosa.shape<2>) -> tensor<1x6xi32>
  %21 = tosa.gather %16, %20 : (tensor<1x3x1xf32>, tensor<1x6xi32>) -> tensor<1x6x1xf32>
  %22 = tosa.reshape %21, %13 : (tensor<1x6x1xf32>, !tosa.shape<2>) -> tensor<3x2xf32>
  return %22 : tensor<3x2xf32>
}
