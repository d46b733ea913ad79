func.func private @f0(%p_3: tensor<3x2x1xf32>, %p_4: tensor<3x1xf32>, %p_5: tensor<f32>) -> tensor<i32> {
  %6 = "tosa.const"() <{values = dense<[[-27, -155], [-283, -411], [-539, -667], [-795, -923]]> : tensor<4x2xi32>}> : () -> tensor<4x2xi32>
  %7 = arith.constant dense<1> : tensor<4xi32>
  %8 = linalg.reduce ins(%6 : tensor<4x2xi32>) outs(%7 : tensor<4xi32>) dimensions = [1]
      (%9: i32, %10: i32) {
        %12 = arith.muli %9, %10 : i32
        linalg.yield %12 : i32
      }
  %13 = tosa.const_shape {values = dense<[4, 1]> : tensor<2xindex>} : () -> !tosa.shape<2>
  %14 = tosa.reshape %8, %13 : (tensor<4xi32>, !tosa.shape<2>) -> tensor<4x1xi32>
  %15 = tosa.const_shape {values = dense<4> : tensor<1xindex>} : () -> !tosa.shape<1>
  %16 = tosa.reshape %14, %15 : (tensor<4x1xi32>, !tosa.shape<1>) -> tensor<4xi32>
  %17 = arith.constant dense<1> : tensor<i32>
  %18 = linalg.reduce ins(%16 : tensor<4xi32>) outs(%17 : tensor<i32>) dimensions = [0]
      (%19: i32, %20: i32) {
        %22 = arith.muli %19, %20 : i32
        linalg.yield %22 : i32
      }
  %23 = tosa.const_shape {values = dense<1> : tensor<1xindex>} : () -> !tosa.shape<1>
  %24 = tosa.reshape %18, %23 : (tensor<i32>, !tosa.shape<1>) -> tensor<1xi32>
  %25 = tosa.const_shape {values = dense<> : tensor<0xindex>} : () -> !tosa.shape<0>
  %26 = tosa.reshape %24, %25 : (tensor<1xi32>, !tosa.shape<0>) -> tensor<i32>
  return %26 : tensor<i32>
}
func.func @main(%x_0: tensor<3x2x1xf32>, %x_1: tensor<3x1xf32>, %x_2: tensor<1xi32>) -> tensor<1xf32> {
  %x_27 = tosa.sigmoid %x_0 : (tensor<3x2x1xf32>) -> tensor<3x2x1xf32>
  %28 = tosa.sigmoid %x_27 : (tensor<3x2x1xf32>) -> tensor<3x2x1xf32>
  %29 = "tosa.const"() <{values = dense<-0.0> : tensor<f32>}> : () -> tensor<f32>
  %30 = func.call @f0(%28, %x_1, %29) : (tensor<3x2x1xf32>, tensor<3x1xf32>, tensor<f32>) -> tensor<i32>
  %31 = tosa.const_shape {values = dense<1> : tensor<1xindex>} : () -> !tosa.shape<1>
  %32 = tosa.reshape %30, %31 : (tensor<i32>, !tosa.shape<1>) -> tensor<1xi32>
  %33 = tosa.add %32, %x_2 : (tensor<1xi32>, tensor<1xi32>) -> tensor<1xi32>
  %34 = tosa.cast %33 : (tensor<1xi32>) -> tensor<1xf32>
  return %34 : tensor<1xf32>
}
