func.func private @f0(%p_1: tensor<2xi1>, %p_2: tensor<i1>) -> tensor<5x2x2xi1> {
  %3 = "tosa.const"() <{values = dense<false> : tensor<i1>}> : () -> tensor<i1>
  %4 = "tosa.const"() <{values = dense<false> : tensor<3x2x1xi1>}> : () -> tensor<3x2x1xi1>
  %5 = "tosa.const"() <{values = dense<[[[true], [false]]]> : tensor<1x2x1xi1>}> : () -> tensor<1x2x1xi1>
  %6 = "tosa.const"() <{values = dense<true> : tensor<1x2x1xi1>}> : () -> tensor<1x2x1xi1>
  %7 = tosa.concat %4, %5, %6 {axis = 0 : i32} : (tensor<3x2x1xi1>, tensor<1x2x1xi1>, tensor<1x2x1xi1>) -> tensor<5x2x1xi1>
  %8 = tosa.const_shape {values = dense<[1, 1, 2]> : tensor<3xindex>} : () -> !tosa.shape<3>
  %9 = tosa.reshape %p_1, %8 : (tensor<2xi1>, !tosa.shape<3>) -> tensor<1x1x2xi1>
  %10 = "tosa.const"() <{values = dense<false> : tensor<1x1x1xi1>}> : () -> tensor<1x1x1xi1>
  %11 = tosa.select %9, %10, %7 : (tensor<1x1x2xi1>, tensor<1x1x1xi1>, tensor<5x2x1xi1>) -> tensor<5x2x2xi1>
  return %11 : tensor<5x2x2xi1>
}
func.func private @f1(%p_13: tensor<3x7x1xi1>) -> tensor<i32> {
  %14 = "tosa.const"() <{values = dense<-61> : tensor<i32>}> : () -> tensor<i32>
  return %14 : tensor<i32>
}
func.func @main(%x_0: tensor<2xi1>) -> tensor<5x2x2xi1> {
  %12 = "tosa.const"() <{values = dense<[4.75, 1.0]> : tensor<2xf32>}> : () -> tensor<2xf32>
  %15 = "tosa.const"() <{values = dense<[[[false], [false], [true], [false], [false], [false], [true]], [[true], [true], [true], [true], [true], [false], [true]], [[false], [false], [false], [true], [false], [true], [true]]]> : tensor<3x7x1xi1>}> : () -> tensor<3x7x1xi1>
  %16 = func.call @f1(%15) : (tensor<3x7x1xi1>) -> tensor<i32>
  %17 = "tosa.const"() <{values = dense<[[[4.75], [1.0]]]> : tensor<1x2x1xf32>}> : () -> tensor<1x2x1xf32>
  %18 = "tosa.const"() <{values = dense<0> : tensor<i32>}> : () -> tensor<i32>
  %19 = tosa.maximum %16, %18 : (tensor<i32>, tensor<i32>) -> tensor<i32>
  %20 = "tosa.const"() <{values = dense<1> : tensor<i32>}> : () -> tensor<i32>
  %21 = tosa.minimum %19, %20 : (tensor<i32>, tensor<i32>) -> tensor<i32>
  %22 = tosa.const_shape {values = dense<[1, 1]> : tensor<2xindex>} : () -> !tosa.shape<2>
  %23 = tosa.reshape %21, %22 : (tensor<i32>, !tosa.shape<2>) -> tensor<1x1xi32>
  %24 = tosa.gather %17, %23 : (tensor<1x2x1xf32>, tensor<1x1xi32>) -> tensor<1x1x1xf32>
  %25 = tosa.const_shape {values = dense<> : tensor<0xindex>} : () -> !tosa.shape<0>
  %26 = tosa.reshape %24, %25 : (tensor<1x1x1xf32>, !tosa.shape<0>) -> tensor<f32>
  %27 = "tosa.const"() <{values = dense<0.0> : tensor<f32>}> : () -> tensor<f32>
  %28 = tosa.equal %26, %27 : (tensor<f32>, tensor<f32>) -> tensor<i1>
  %29 = tosa.logical_not %28 : (tensor<i1>) -> tensor<i1>
  %30 = func.call @f0(%x_0, %29) : (tensor<2xi1>, tensor<i1>) -> tensor<5x2x2xi1>
  %31 = tosa.logical_not %30 : (tensor<5x2x2xi1>) -> tensor<5x2x2xi1>
  return %31 : tensor<5x2x2xi1>
}
