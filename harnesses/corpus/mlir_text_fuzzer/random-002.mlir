func.func private @f0(%p_2: tensor<3x1x1xi1>, %p_3: tensor<3xf32>) -> tensor<f32> {
  %4 = "tosa.const"() <{values = dense<[[[13.25]], [[0x7F800000]]]> : tensor<2x1x1xf32>}> : () -> tensor<2x1x1xf32>
  %5 = "tosa.const"() <{values = dense<[[[[24.25, -21.75, 16.5, 2.75]]]]> : tensor<1x1x1x4xf32>}> : () -> tensor<1x1x1x4xf32>
  %6 = "tosa.const"() <{values = dense<[[[[13.25]], [[0x7F800000]]]]> : tensor<1x2x1x1xf32>}> : () -> tensor<1x2x1x1xf32>
  %x_7 = tosa.add %6, %5 : (tensor<1x2x1x1xf32>, tensor<1x1x1x4xf32>) -> tensor<1x2x1x4xf32>
  %8 = "tosa.const"() <{values = dense<[[[[-7.25, -3.25, 3.75, -2.25]], [[-3.5, -8.0, -7.25, -3.0]]]]> : tensor<1x2x1x4xf32>}> : () -> tensor<1x2x1x4xf32>
  %9 = tosa.add %8, %x_7 : (tensor<1x2x1x4xf32>, tensor<1x2x1x4xf32>) -> tensor<1x2x1x4xf32>
  %10 = arith.constant dense<0.0> : tensor<f64>
  %11 = linalg.reduce ins(%9 : tensor<1x2x1x4xf32>) outs(%10 : tensor<f64>) dimensions = [0, 1, 2, 3]
      (%12: f32, %13: f64) {
        %14 = arith.extf %12 : f32 to f64
        %15 = arith.addf %14, %13 : f64
        linalg.yield %15 : f64
      }
  %16 = arith.constant dense<8.0> : tensor<f64>
  %17 = arith.divf %11, %16 : tensor<f64>
  %18 = arith.truncf %17 : tensor<f64> to tensor<f32>
  %19 = tosa.const_shape {values = dense<[1, 1, 1, 1]> : tensor<4xindex>} : () -> !tosa.shape<4>
  %20 = tosa.reshape %18, %19 : (tensor<f32>, !tosa.shape<4>) -> tensor<1x1x1x1xf32>
  %21 = tosa.const_shape {values = dense<> : tensor<0xindex>} : () -> !tosa.shape<0>
  %22 = tosa.reshape %20, %21 : (tensor<1x1x1x1xf32>, !tosa.shape<0>) -> tensor<f32>
  %x_23 = tosa.tanh %22 : (tensor<f32>) -> tensor<f32>
  %24 = "tosa.const"() <{values = dense<[[[[true, false]], [[true, false]], [[true, false]]]]> : tensor<1x3x1x2xi1>}> : () -> tensor<1x3x1x2xi1>
  %25 = "tosa.const"() <{values = dense<[[[[5.5]]], [[[-1.25]]], [[[0.25]]]]> : tensor<3x1x1x1xf32>}> : () -> tensor<3x1x1x1xf32>
  %26 = "tosa.const"() <{values = dense<[[-5.25, 4.75], [6.5, 3.75], [-0.75, -5.5]]> : tensor<3x2xf32>}> : () -> tensor<3x2xf32>
  %27 = tosa.ceil %26 : (tensor<3x2xf32>) -> tensor<3x2xf32>
  %28 = "tosa.const"() <{values = dense<-20.75> : tensor<f32>}> : () -> tensor<f32>
  %29 = "tosa.const"() <{values = dense<[[[[-15.5]], [[-14.875]], [[-14.25]]], [[[-13.625]], [[-13.0]], [[-12.375]]]]> : tensor<2x3x1x1xf32>}> : () -> tensor<2x3x1x1xf32>
  %30 = "tosa.const"() <{values = dense<-13.75> : tensor<1x1xf32>}> : () -> tensor<1x1xf32>
  %31 = "tosa.const"() <{values = dense<-13.75> : tensor<f32>}> : () -> tensor<f32>
  %32 = tosa.add %31, %28 : (tensor<f32>, tensor<f32>) -> tensor<f32>
  %33 = tosa.add %32, %x_23 : (tensor<f32>, tensor<f32>) -> tensor<f32>
  return %33 : tensor<f32>
}
func.func @main(%x_0: tensor<1xi1>, %x_1: tensor<3xf32>) -> tensor<f32> {
  %34 = "tosa.const"() <{values = dense<[[[false]], [[false]], [[true]]]> : tensor<3x1x1xi1>}> : () -> tensor<3x1x1xi1>
  %35 = tosa.reverse %34 {axis = 2 : i32} : (tensor<3x1x1xi1>) -> tensor<3x1x1xi1>
  %36 = tosa.cast %x_0 : (tensor<1xi1>) -> tensor<1xi32>
  %37 = tosa.cast %35 : (tensor<3x1x1xi1>) -> tensor<3x1x1xi32>
  %38 = tosa.const_shape {values = dense<[1, 1, 1]> : tensor<3xindex>} : () -> !tosa.shape<3>
  %39 = tosa.reshape %36, %38 : (tensor<1xi32>, !tosa.shape<3>) -> tensor<1x1x1xi32>
  %40 = tosa.greater %39, %37 : (tensor<1x1x1xi32>, tensor<3x1x1xi32>) -> tensor<3x1x1xi1>
  %x_41 = "tosa.const"() <{values = dense<[18.25, 2.75, -27.75]> : tensor<3xf32>}> : () -> tensor<3xf32>
  %42 = "tosa.const"() <{values = dense<[6.25, 7.5, 4.0]> : tensor<3xf32>}> : () -> tensor<3xf32>
  %43 = tosa.add %42, %x_1 : (tensor<3xf32>, tensor<3xf32>) -> tensor<3xf32>
  %44 = tosa.add %43, %x_41 : (tensor<3xf32>, tensor<3xf32>) -> tensor<3xf32>
  %45 = func.call @f0(%40, %44) : (tensor<3x1x1xi1>, tensor<3xf32>) -> tensor<f32>
  %46 = tosa.sigmoid %45 : (tensor<f32>) -> tensor<f32>
  %47 = tosa.log %46 : (tensor<f32>) -> tensor<f32>
  %48 = tosa.tanh %47 : (tensor<f32>) -> tensor<f32>
  return %48 : tensor<f32>
}
