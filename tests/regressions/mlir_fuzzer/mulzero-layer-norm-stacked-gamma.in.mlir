func.func private @f0() -> tensor<1x1x1xf32> {
  %1 = "tosa.const"() <{values = dense<0.0> : tensor<1x1x1xf32>}> : () -> tensor<1x1x1xf32>
  return %1 : tensor<1x1x1xf32>
}
func.func @main(%x_0: tensor<f32>) -> tensor<1x1x1xf32> {
  %2 = func.call @f0() : () -> tensor<1x1x1xf32>
  %3 = "tosa.const"() <{values = dense<0.0> : tensor<f32>}> : () -> tensor<f32>
  %4 = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %5 = tosa.const_shape {values = dense<1> : tensor<1xindex>} : () -> !tosa.shape<1>
  %x_6 = tosa.reshape %x_0, %5 : (tensor<f32>, !tosa.shape<1>) -> tensor<1xf32>
  %7 = arith.constant dense<0.0> : tensor<1x1xf64>
  %8 = linalg.reduce ins(%2 : tensor<1x1x1xf32>) outs(%7 : tensor<1x1xf64>) dimensions = [2]
      (%9: f32, %10: f64) {
        %11 = arith.extf %9 : f32 to f64
        %12 = arith.addf %11, %10 : f64
        linalg.yield %12 : f64
      }
  %13 = arith.constant dense<1.0> : tensor<1x1xf64>
  %14 = arith.divf %8, %13 : tensor<1x1xf64>
  %15 = arith.truncf %14 : tensor<1x1xf64> to tensor<1x1xf32>
  %16 = tosa.const_shape {values = dense<[1, 1, 1]> : tensor<3xindex>} : () -> !tosa.shape<3>
  %17 = tosa.reshape %15, %16 : (tensor<1x1xf32>, !tosa.shape<3>) -> tensor<1x1x1xf32>
  %18 = tosa.sub %2, %17 : (tensor<1x1x1xf32>, tensor<1x1x1xf32>) -> tensor<1x1x1xf32>
  %19 = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
  %20 = tosa.mul %18, %18, %19 : (tensor<1x1x1xf32>, tensor<1x1x1xf32>, tensor<1xi8>) -> tensor<1x1x1xf32>
  %21 = arith.constant dense<0.0> : tensor<1x1xf64>
  %22 = linalg.reduce ins(%20 : tensor<1x1x1xf32>) outs(%21 : tensor<1x1xf64>) dimensions = [2]
      (%23: f32, %24: f64) {
        %25 = arith.extf %23 : f32 to f64
        %26 = arith.addf %25, %24 : f64
        linalg.yield %26 : f64
      }
  %27 = arith.divf %22, %13 : tensor<1x1xf64>
  %28 = arith.truncf %27 : tensor<1x1xf64> to tensor<1x1xf32>
  %29 = tosa.reshape %28, %16 : (tensor<1x1xf32>, !tosa.shape<3>) -> tensor<1x1x1xf32>
  %30 = "tosa.const"() <{values = dense<0.0> : tensor<1x1x1xf32>}> : () -> tensor<1x1x1xf32>
  %31 = arith.addf %29, %30 : tensor<1x1x1xf32>
  %32 = math.sqrt %31 : tensor<1x1x1xf32>
  %33 = arith.divf %18, %32 : tensor<1x1x1xf32>
  %34 = tosa.mul %33, %30, %19 : (tensor<1x1x1xf32>, tensor<1x1x1xf32>, tensor<1xi8>) -> tensor<1x1x1xf32>
  return %34 : tensor<1x1x1xf32>
}
