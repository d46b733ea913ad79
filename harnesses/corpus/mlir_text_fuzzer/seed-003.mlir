func.func private @f0(%p_12: tensor<f32>, %p_13: tensor<5x1x2xi1>) -> tensor<2xi1> {
  %14 = "tosa.const"() <{values = dense<false> : tensor<i1>}> : () -> tensor<i1>
  %15 = "tosa.const"() <{values = dense<[-31, -27]> : tensor<2xi32>}> : () -> tensor<2xi32>
  %16 = "tosa.const"() <{values = dense<false> : tensor<2xi1>}> : () -> tensor<2xi1>
  %17 = tosa.cast %14 : (tensor<i1>) -> tensor<i32>
  %18 = tosa.cast %16 : (tensor<2xi1>) -> tensor<2xi32>
  %19 = tosa.const_shape {values = dense<1> : tensor<1xindex>} : () -> !tosa.shape<1>
  %20 = tosa.reshape %17, %19 : (tensor<i32>, !tosa.shape<1>) -> tensor<1xi32>
  %21 = tosa.equal %20, %18 : (tensor<1xi32>, tensor<2xi32>) -> tensor<2xi1>
  return %21 : tensor<2xi1>
}
func.func @main(%x_0: tensor<i32>, %x_1: tensor<2x1x2xi1>, %x_2: tensor<f32>, %x_3: tensor<5x1x2xi1>) -> tensor<2x1x2xi1> {
  %4 = tosa.sub %x_0, %x_0 : (tensor<i32>, tensor<i32>) -> tensor<i32>
  %5 = tosa.minimum %4, %x_0 : (tensor<i32>, tensor<i32>) -> tensor<i32>
  %6 = tosa.add %5, %x_0 : (tensor<i32>, tensor<i32>) -> tensor<i32>
  %7 = tosa.sub %5, %6 : (tensor<i32>, tensor<i32>) -> tensor<i32>
  %8 = tosa.equal %4, %7 : (tensor<i32>, tensor<i32>) -> tensor<i1>
  %9 = tosa.const_shape {values = dense<[1, 1, 1]> : tensor<3xindex>} : () -> !tosa.shape<3>
  %10 = tosa.reshape %8, %9 : (tensor<i1>, !tosa.shape<3>) -> tensor<1x1x1xi1>
  %11 = tosa.logical_or %10, %x_1 : (tensor<1x1x1xi1>, tensor<2x1x2xi1>) -> tensor<2x1x2xi1>
  %22 = func.call @f0(%x_2, %x_3) : (tensor<f32>, tensor<5x1x2xi1>) -> tensor<2xi1>
  %23 = tosa.cast %11 : (tensor<2x1x2xi1>) -> tensor<2x1x2xi32>
  %24 = tosa.cast %22 : (tensor<2xi1>) -> tensor<2xi32>
  %25 = tosa.const_shape {values = dense<[1, 1, 2]> : tensor<3xindex>} : () -> !tosa.shape<3>
  %26 = tosa.reshape %24, %25 : (tensor<2xi32>, !tosa.shape<3>) -> tensor<1x1x2xi32>
  %27 = tosa.equal %23, %26 : (tensor<2x1x2xi32>, tensor<1x1x2xi32>) -> tensor<2x1x2xi1>
  return %27 : tensor<2x1x2xi1>
}
