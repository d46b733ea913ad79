func.func @main(%x_0: tensor<i1>, %x_1: tensor<6x1xi1>) -> tensor<3x1xf32> {
  %2 = "tosa.const"() <{values = dense<0.0> : tensor<5x2xf32>}> : () -> tensor<5x2xf32>
  %x_3 = "tosa.const"() <{values = dense<22.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %4 = "tosa.const"() <{values = dense<true> : tensor<i1>}> : () -> tensor<i1>
  %5 = "tosa.const"() <{values = dense<false> : tensor<i1>}> : () -> tensor<i1>
  %6 = tosa.cast %5 : (tensor<i1>) -> tensor<i32>
  %7 = tosa.cast %x_0 : (tensor<i1>) -> tensor<i32>
  %8 = tosa.equal %6, %7 : (tensor<i32>, tensor<i32>) -> tensor<i1>
  %9 = tosa.logical_not %8 : (tensor<i1>) -> tensor<i1>
  %x_10 = tosa.logical_and %4, %9 : (tensor<i1>, tensor<i1>) -> tensor<i1>
  %11 = "tosa.const"() <{values = dense<-22.0> : tensor<f32>}> : () -> tensor<f32>
  %12 = "tosa.const"() <{values = dense<0.0> : tensor<f32>}> : () -> tensor<f32>
  %13 = tosa.equal %11, %12 : (tensor<f32>, tensor<f32>) -> tensor<i1>
  %14 = tosa.logical_not %13 : (tensor<i1>) -> tensor<i1>
  %17 = tosa.cond_if %14 (%x_15 = %x_1) : tensor<i1> (tensor<6x1xi1>) -> tensor<6x1xi1> {
  ^bb0(%x_15: tensor<6x1xi1>):
    tosa.yield %x_15 : tensor<6x1xi1>
  } else {
  ^bb0(%x_16: tensor<6x1xi1>):
    tosa.yield %x_16 : tensor<6x1xi1>
  }
  %18 = tosa.const_shape {values = dense<[1, 1]> : tensor<2xindex>} : () -> !tosa.shape<2>
  %19 = tosa.reshape %x_10, %18 : (tensor<i1>, !tosa.shape<2>) -> tensor<1x1xi1>
  %20 = tosa.logical_and %17, %19 : (tensor<6x1xi1>, tensor<1x1xi1>) -> tensor<6x1xi1>
  %21 = tosa.const_shape {values = dense<[0, 0]> : tensor<2xindex>} : () -> !tosa.shape<2>
  %22 = tosa.const_shape {values = dense<[3, 1]> : tensor<2xindex>} : () -> !tosa.shape<2>
  %23 = tosa.slice %20, %21, %22 : (tensor<6x1xi1>, !tosa.shape<2>, !tosa.shape<2>) -> tensor<3x1xi1>
  %24 = tosa.const_shape {values = dense<[3, 0]> : tensor<2xindex>} : () -> !tosa.shape<2>
  %25 = tosa.slice %20, %24, %22 : (tensor<6x1xi1>, !tosa.shape<2>, !tosa.shape<2>) -> tensor<3x1xi1>
  %26 = "tosa.const"() <{values = dense<1.0> : tensor<1x1xf32>}> : () -> tensor<1x1xf32>
  %27 = "tosa.const"() <{values = dense<0.0> : tensor<1x1xf32>}> : () -> tensor<1x1xf32>
  %28 = tosa.select %23, %26, %27 : (tensor<3x1xi1>, tensor<1x1xf32>, tensor<1x1xf32>) -> tensor<3x1xf32>
  %29 = "tosa.const"() <{values = dense<22.0> : tensor<1x1xf32>}> : () -> tensor<1x1xf32>
  %30 = tosa.add %29, %28 : (tensor<1x1xf32>, tensor<3x1xf32>) -> tensor<3x1xf32>
  return %30 : tensor<3x1xf32>
}
