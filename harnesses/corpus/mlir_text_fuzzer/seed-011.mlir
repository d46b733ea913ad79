func.func @main(%x_0: tensor<4x1x2x1xf32>, %x_1: tensor<2x4x1xf32>) -> tensor<f32> {
  %2 = arith.constant dense<0.0> : tensor<f64>
  %3 = linalg.reduce ins(%x_0 : tensor<4x1x2x1xf32>) outs(%2 : tensor<f64>) dimensions = [0, 1, 2, 3]
      (%4: f32, %5: f64) {
        %6 = arith.extf %4 : f32 to f64
        %7 = arith.addf %6, %5 : f64
        linalg.yield %7 : f64
      }
  %8 = arith.truncf %3 : tensor<f64> to tensor<f32>
  %9 = tosa.const_shape {values = dense<[1, 1, 1, 1]> : tensor<4xindex>} : () -> !tosa.shape<4>
  %10 = tosa.reshape %8, %9 : (tensor<f32>, !tosa.shape<4>) -> tensor<1x1x1x1xf32>
  %11 = tosa.const_shape {values = dense<> : tensor<0xindex>} : () -> !tosa.shape<0>
  %12 = tosa.reshape %10, %11 : (tensor<1x1x1x1xf32>, !tosa.shape<0>) -> tensor<f32>
  %13 = tosa.reduce_min %x_1 {axis = 0 : i32} : (tensor<2x4x1xf32>) -> tensor<1x4x1xf32>
  %14 = tosa.reduce_min %13 {axis = 1 : i32} : (tensor<1x4x1xf32>) -> tensor<1x1x1xf32>
  %15 = tosa.reshape %14, %11 : (tensor<1x1x1xf32>, !tosa.shape<0>) -> tensor<f32>
  %16 = tosa.minimum %12, %15 : (tensor<f32>, tensor<f32>) -> tensor<f32>
  %17 = tosa.tanh %16 : (tensor<f32>) -> tensor<f32>
  %18 = tosa.const_shape {values = dense<[1, 1]> : tensor<2xindex>} : () -> !tosa.shape<2>
  %19 = tosa.reshape %17, %18 : (tensor<f32>, !tosa.shape<2>) -> tensor<1x1xf32>
  %20 = arith.constant dense<0.0> : tensor<1xf64>
  %21 = linalg.reduce ins(%19 : tensor<1x1xf32>) outs(%20 : tensor<1xf64>) dimensions = [1]
      (%22: f32, %23: f64) {
        %24 = arith.extf %22 : f32 to f64
        %25 = arith.addf %24, %23 : f64
        linalg.yield %25 : f64
      }
  %26 = arith.constant dense<1.0> : tensor<1xf64>
  %27 = arith.divf %21, %26 : tensor<1xf64>
  %28 = arith.truncf %27 : tensor<1xf64> to tensor<1xf32>
  %29 = tosa.reshape %28, %18 : (tensor<1xf32>, !tosa.shape<2>) -> tensor<1x1xf32>
  %x_30 = tosa.reshape %29, %11 : (tensor<1x1xf32>, !tosa.shape<0>) -> tensor<f32>
  %31 = "tosa.const"() <{values = dense<1.0> : tensor<f32>}> : () -> tensor<f32>
  %32 = tosa.log %31 : (tensor<f32>) -> tensor<f32>
  %33 = "tosa.const"() <{values = dense<0.0> : tensor<3xf32>}> : () -> tensor<3xf32>
  %34 = arith.constant dense<0.0> : tensor<f64>
  %35 = linalg.reduce ins(%33 : tensor<3xf32>) outs(%34 : tensor<f64>) dimensions = [0]
      (%36: f32, %37: f64) {
        %38 = arith.extf %36 : f32 to f64
        %39 = arith.addf %38, %37 : f64
        linalg.yield %39 : f64
      }
  %40 = arith.constant dense<3.0> : tensor<f64>
  %41 = arith.divf %35, %40 : tensor<f64>
  %42 = arith.truncf %41 : tensor<f64> to tensor<f32>
  %43 = tosa.const_shape {values = dense<1> : tensor<1xindex>} : () -> !tosa.shape<1>
  %44 = tosa.reshape %42, %43 : (tensor<f32>, !tosa.shape<1>) -> tensor<1xf32>
  %45 = tosa.reshape %44, %11 : (tensor<1xf32>, !tosa.shape<0>) -> tensor<f32>
  %46 = tosa.maximum %32, %45 : (tensor<f32>, tensor<f32>) -> tensor<f32>
  %47 = tosa.maximum %46, %x_30 : (tensor<f32>, tensor<f32>) -> tensor<f32>
  return %47 : tensor<f32>
}
