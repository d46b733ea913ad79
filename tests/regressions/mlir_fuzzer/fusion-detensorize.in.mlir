func.func @main(%x_0: tensor<i1>, %x_1: tensor<i32>) -> tensor<2x1x1x1xf32> {
  %x_2 = "tosa.const"() <{values = dense<-2.0> : tensor<f32>}> : () -> tensor<f32>
  %3 = tosa.cast %x_0 : (tensor<i1>) -> tensor<i32>
  %4 = tosa.const_shape {values = dense<[1, 1, 1]> : tensor<3xindex>} : () -> !tosa.shape<3>
  %5 = tosa.reshape %3, %4 : (tensor<i32>, !tosa.shape<3>) -> tensor<1x1x1xi32>
  %6 = "tosa.const"() <{values = dense<0> : tensor<i32>}> : () -> tensor<i32>
  %7 = tosa.maximum %x_1, %6 : (tensor<i32>, tensor<i32>) -> tensor<i32>
  %8 = tosa.minimum %7, %6 : (tensor<i32>, tensor<i32>) -> tensor<i32>
  %9 = tosa.const_shape {values = dense<[1, 1]> : tensor<2xindex>} : () -> !tosa.shape<2>
  %10 = tosa.reshape %8, %9 : (tensor<i32>, !tosa.shape<2>) -> tensor<1x1xi32>
  %11 = tosa.gather %5, %10 : (tensor<1x1x1xi32>, tensor<1x1xi32>) -> tensor<1x1x1xi32>
  %12 = tosa.const_shape {values = dense<> : tensor<0xindex>} : () -> !tosa.shape<0>
  %13 = tosa.reshape %11, %12 : (tensor<1x1x1xi32>, !tosa.shape<0>) -> tensor<i32>
  %14 = tosa.cast %13 : (tensor<i32>) -> tensor<i1>
  %17 = tosa.cond_if %14 : tensor<i1> -> tensor<2x1x1x1xf32> {
    %15 = "tosa.const"() <{values = dense<0.0> : tensor<2x1x1x1xf32>}> : () -> tensor<2x1x1x1xf32>
    tosa.yield %15 : tensor<2x1x1x1xf32>
  } else {
    %16 = "tosa.const"() <{values = dense<0.0> : tensor<2x1x1x1xf32>}> : () -> tensor<2x1x1x1xf32>
    tosa.yield %16 : tensor<2x1x1x1xf32>
  }
  %18 = "tosa.const"() <{values = dense<-2.0> : tensor<1x1x1x1xf32>}> : () -> tensor<1x1x1x1xf32>
  %19 = tosa.add %17, %18 : (tensor<2x1x1x1xf32>, tensor<1x1x1x1xf32>) -> tensor<2x1x1x1xf32>
  %20 = tosa.reduce_max %19 {axis = 0 : i32} : (tensor<2x1x1x1xf32>) -> tensor<1x1x1x1xf32>
  %21 = tosa.sub %19, %20 : (tensor<2x1x1x1xf32>, tensor<1x1x1x1xf32>) -> tensor<2x1x1x1xf32>
  %22 = tosa.exp %21 : (tensor<2x1x1x1xf32>) -> tensor<2x1x1x1xf32>
  %23 = tosa.reduce_sum %22 {axis = 0 : i32} : (tensor<2x1x1x1xf32>) -> tensor<1x1x1x1xf32>
  %24 = tosa.reciprocal %23 : (tensor<1x1x1x1xf32>) -> tensor<1x1x1x1xf32>
  %25 = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
  %26 = tosa.mul %22, %24, %25 : (tensor<2x1x1x1xf32>, tensor<1x1x1x1xf32>, tensor<1xi8>) -> tensor<2x1x1x1xf32>
  return %26 : tensor<2x1x1x1xf32>
}
