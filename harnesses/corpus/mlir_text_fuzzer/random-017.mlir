func.func private @f0() -> tensor<1x3x1x1xi32> {
  %8 = "tosa.const"() <{values = dense<[[[[33], [-11]], [[-55], [-99]], [[-143], [-187]]]]> : tensor<1x3x2x1xi32>}> : () -> tensor<1x3x2x1xi32>
  %9 = "tosa.const"() <{values = dense<[[[33], [-11]], [[-55], [-99]], [[-143], [-187]]]> : tensor<3x2x1xi32>}> : () -> tensor<3x2x1xi32>
  %10 = tosa.const_shape {values = dense<[0, 0, 1, 2, 3, 3]> : tensor<6xindex>} : () -> !tosa.shape<6>
  %11 = "tosa.const"() <{values = dense<-2147483648> : tensor<1xi32>}> : () -> tensor<1xi32>
  %12 = tosa.pad %9, %10, %11 : (tensor<3x2x1xi32>, !tosa.shape<6>, tensor<1xi32>) -> tensor<3x5x7xi32>
  %13 = tosa.const_shape {values = dense<[1, 3, 5, 7]> : tensor<4xindex>} : () -> !tosa.shape<4>
  %14 = tosa.reshape %12, %13 : (tensor<3x5x7xi32>, !tosa.shape<4>) -> tensor<1x3x5x7xi32>
  %15 = tensor.empty() : tensor<2x3xi32>
  %16 = "tosa.const"() <{values = dense<-2147483648> : tensor<1x3x1x1xi32>}> : () -> tensor<1x3x1x1xi32>
  %17 = linalg.pooling_nchw_max {dilations = dense<[4, 3]> : tensor<2xi64>, strides = dense<[3, 1]> : tensor<2xi64>} ins(%14, %15 : tensor<1x3x5x7xi32>, tensor<2x3xi32>) outs(%16 : tensor<1x3x1x1xi32>) -> tensor<1x3x1x1xi32>
  return %17 : tensor<1x3x1x1xi32>
}
func.func @main(%x_0: tensor<i32>) -> tensor<1x3x2x1xi32> {
  %1 = "tosa.const"() <{values = dense<[[[[7], [31]], [[50], [28]], [[-94], [43]]]]> : tensor<1x3x2x1xi32>}> : () -> tensor<1x3x2x1xi32>
  %2 = "tosa.const"() <{values = dense<0> : tensor<i32>}> : () -> tensor<i32>
  %3 = tosa.sub %2, %x_0 : (tensor<i32>, tensor<i32>) -> tensor<i32>
  %4 = "tosa.const"() <{values = dense<21> : tensor<i32>}> : () -> tensor<i32>
  %5 = tosa.minimum %4, %x_0 : (tensor<i32>, tensor<i32>) -> tensor<i32>
  %6 = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
  %x_7 = tosa.mul %3, %5, %6 : (tensor<i32>, tensor<i32>, tensor<1xi8>) -> tensor<i32>
  %18 = func.call @f0() : () -> tensor<1x3x1x1xi32>
  %19 = "tosa.const"() <{values = dense<[[-10], [31], [-26]]> : tensor<3x1xi32>}> : () -> tensor<3x1xi32>
  %20 = "tosa.const"() <{values = dense<0> : tensor<3x1xi32>}> : () -> tensor<3x1xi32>
  %21 = "tosa.const"() <{values = dense<0> : tensor<3x1x1xi32>}> : () -> tensor<3x1x1xi32>
  %22 = "tosa.const"() <{values = dense<0> : tensor<1x3x1x1xi32>}> : () -> tensor<1x3x1x1xi32>
  %23 = tosa.minimum %18, %22 : (tensor<1x3x1x1xi32>, tensor<1x3x1x1xi32>) -> tensor<1x3x1x1xi32>
  %24 = tosa.const_shape {values = dense<[1, 1, 1, 1]> : tensor<4xindex>} : () -> !tosa.shape<4>
  %25 = tosa.reshape %x_7, %24 : (tensor<i32>, !tosa.shape<4>) -> tensor<1x1x1x1xi32>
  %26 = tosa.mul %23, %25, %6 : (tensor<1x3x1x1xi32>, tensor<1x1x1x1xi32>, tensor<1xi8>) -> tensor<1x3x1x1xi32>
  %27 = tosa.mul %1, %26, %6 : (tensor<1x3x2x1xi32>, tensor<1x3x1x1xi32>, tensor<1xi8>) -> tensor<1x3x2x1xi32>
  return %27 : tensor<1x3x2x1xi32>
}
