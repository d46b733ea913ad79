func.func private @f1(%p_8: tensor<2x6xi1>) -> tensor<1x3xi1> {
  %9 = "tosa.const"() <{values = dense<false> : tensor<1x1x3xi1>}> : () -> tensor<1x1x3xi1>
  %10 = tosa.reverse %9 {axis = 0 : i32} : (tensor<1x1x3xi1>) -> tensor<1x1x3xi1>
  %11 = tosa.const_shape {values = dense<[1, 3]> : tensor<2xindex>} : () -> !tosa.shape<2>
  %12 = tosa.reshape %10, %11 : (tensor<1x1x3xi1>, !tosa.shape<2>) -> tensor<1x3xi1>
  return %12 : tensor<1x3xi1>
}
func.func private @f0(%p_5: tensor<1x1x1x1xi32>, %p_6: tensor<4x3x1x2xi32>, %p_7: tensor<f32>) -> tensor<1x3xi1> {
  %13 = "tosa.const"() <{values = dense<false> : tensor<6xi1>}> : () -> tensor<6xi1>
  %14 = "tosa.const"() <{values = dense<[[false], [true]]> : tensor<2x1xi1>}> : () -> tensor<2x1xi1>
  %15 = tosa.cast %13 : (tensor<6xi1>) -> tensor<6xi32>
  %16 = tosa.cast %14 : (tensor<2x1xi1>) -> tensor<2x1xi32>
  %17 = tosa.const_shape {values = dense<[1, 6]> : tensor<2xindex>} : () -> !tosa.shape<2>
  %18 = tosa.reshape %15, %17 : (tensor<6xi32>, !tosa.shape<2>) -> tensor<1x6xi32>
  %19 = tosa.greater_equal %18, %16 : (tensor<1x6xi32>, tensor<2x1xi32>) -> tensor<2x6xi1>
  %20 = func.call @f1(%19) : (tensor<2x6xi1>) -> tensor<1x3xi1>
  return %20 : tensor<1x3xi1>
}
func.func @main(%x_0: tensor<i1>, %x_1: tensor<5x5x1x1xf32>, %x_2: tensor<1x1x1x1xi32>, %x_3: tensor<4x3x1x2xi32>, %x_4: tensor<3x3xi32>) -> tensor<1x3x1xi1> {
  %21 = "tosa.const"() <{values = dense<[[14, -13, 9], [-20, -21, 31], [-15, -25, -20], [16, -32, 14], [5, -19, -3], [26, -21, -6]]> : tensor<6x3xi32>}> : () -> tensor<6x3xi32>
  %22 = "tosa.const"() <{values = dense<[[[[7.25], [-7.75], [-4.0], [-5.25], [3.5], [-6.75]], [[-2.5], [3.0], [-1.0], [1.5], [7.5], [-4.75]], [[-3.75], [1.25], [5.75], [0.25], [-3.75], [-3.0]], [[4.25], [1.75], [2.75], [-3.25], [7.25], [6.5]], [[3.25], [17.0], [-6.0], [-5.5], [-1.5], [1.75]]]]> : tensor<1x5x6x1xf32>}> : () -> tensor<1x5x6x1xf32>
  %23 = "tosa.const"() <{values = dense<24.0> : tensor<f32>}> : () -> tensor<f32>
  %24 = func.call @f0(%x_2, %x_3, %23) : (tensor<1x1x1x1xi32>, tensor<4x3x1x2xi32>, tensor<f32>) -> tensor<1x3xi1>
  %25 = tosa.const_shape {values = dense<[1, 3, 1]> : tensor<3xindex>} : () -> !tosa.shape<3>
  %26 = tosa.reshape %24, %25 : (tensor<1x3xi1>, !tosa.shape<3>) -> tensor<1x3x1xi1>
  %27 = "tosa.const"() <{values = dense<false> : tensor<1xi1>}> : () -> tensor<1xi1>
  %28 = "tosa.const"() <{values = dense<-90> : tensor<i32>}> : () -> tensor<i32>
  %29 = "tosa.const"() <{values = dense<[65536, 107, 12345, 8]> : tensor<4xi32>}> : () -> tensor<4xi32>
  %30 = "tosa.const"() <{values = dense<[[[true], [true], [false]]]> : tensor<1x3x1xi1>}> : () -> tensor<1x3x1xi1>
  %31 = tosa.cast %27 : (tensor<1xi1>) -> tensor<1xi32>
  %32 = tosa.cast %30 : (tensor<1x3x1xi1>) -> tensor<1x3x1xi32>
  %33 = tosa.const_shape {values = dense<[1, 1, 1]> : tensor<3xindex>} : () -> !tosa.shape<3>
  %34 = tosa.reshape %31, %33 : (tensor<1xi32>, !tosa.shape<3>) -> tensor<1x1x1xi32>
  %35 = tosa.greater %32, %34 : (tensor<1x3x1xi32>, tensor<1x1x1xi32>) -> tensor<1x3x1xi1>
  %36 = tosa.reshape %x_0, %33 : (tensor<i1>, !tosa.shape<3>) -> tensor<1x1x1xi1>
  %37 = tosa.select %36, %26, %35 : (tensor<1x1x1xi1>, tensor<1x3x1xi1>, tensor<1x3x1xi1>) -> tensor<1x3x1xi1>
  return %37 : tensor<1x3x1xi1>
}
