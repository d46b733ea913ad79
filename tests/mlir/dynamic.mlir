func.func private @scale(%v_12: tensor<?x3xf32>, %k_13: tensor<1x3xf32>) -> tensor<?x3xf32> {
  %14 = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
  %15 = tosa.mul %v_12, %k_13, %14 : (tensor<?x3xf32>, tensor<1x3xf32>, tensor<1xi8>) -> tensor<?x3xf32>
  return %15 : tensor<?x3xf32>
}
func.func @main(%c_0: tensor<i1>, %x_1: tensor<2x3xf32>, %y_2: tensor<1x3xf32>, %i_3: tensor<2x3xi32>) -> (tensor<3x2xf32>, tensor<?xf32>, tensor<?x?xi32>, tensor<?x3xf32>) {
  %4 = tosa.exp %x_1 : (tensor<2x3xf32>) -> tensor<2x3xf32>
  %d_5 = tensor.cast %4 : tensor<2x3xf32> to tensor<?x3xf32>
  %e_6 = tosa.add %d_5, %y_2 : (tensor<?x3xf32>, tensor<1x3xf32>) -> tensor<?x3xf32>
  %f_7 = tensor.cast %i_3 : tensor<2x3xi32> to tensor<?x?xi32>
  %8 = "tosa.const"() <{values = dense<1> : tensor<i32>}> : () -> tensor<i32>
  %9 = "tosa.const"() <{values = dense<1> : tensor<1x1xi32>}> : () -> tensor<1x1xi32>
  %10 = tosa.sub %f_7, %9 : (tensor<?x?xi32>, tensor<1x1xi32>) -> tensor<?x?xi32>
  %g_11 = tosa.maximum %f_7, %10 : (tensor<?x?xi32>, tensor<?x?xi32>) -> tensor<?x?xi32>
  %h_23 = tosa.cond_if %c_0 (%e_16 = %e_6, %y_18 = %y_2) : tensor<i1> (tensor<?x3xf32>, tensor<1x3xf32>) -> tensor<?x3xf32> {
  ^bb0(%e_16: tensor<?x3xf32>, %y_18: tensor<1x3xf32>):
    %20 = func.call @scale(%e_16, %y_18) : (tensor<?x3xf32>, tensor<1x3xf32>) -> tensor<?x3xf32>
    tosa.yield %20 : tensor<?x3xf32>
  } else {
  ^bb0(%e_17: tensor<?x3xf32>, %y_19: tensor<1x3xf32>):
    %21 = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
    %22 = tosa.negate %e_17, %21, %21 : (tensor<?x3xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<?x3xf32>
    tosa.yield %22 : tensor<?x3xf32>
  }
  %24 = tensor.cast %h_23 : tensor<?x3xf32> to tensor<2x3xf32>
  %25 = tosa.const_shape {values = dense<[3, 2]> : tensor<2xindex>} : () -> !tosa.shape<2>
  %26 = tosa.reshape %24, %25 : (tensor<2x3xf32>, !tosa.shape<2>) -> tensor<3x2xf32>
  %27 = tensor.cast %e_6 : tensor<?x3xf32> to tensor<2x3xf32>
  %28 = arith.constant dense<0.0> : tensor<2xf64>
  %29 = linalg.reduce ins(%27 : tensor<2x3xf32>) outs(%28 : tensor<2xf64>) dimensions = [1]
      (%30: f32, %31: f64) {
        %32 = arith.extf %30 : f32 to f64
        %33 = arith.addf %32, %31 : f64
        linalg.yield %33 : f64
      }
  %34 = arith.truncf %29 : tensor<2xf64> to tensor<2xf32>
  %35 = tosa.const_shape {values = dense<[2, 1]> : tensor<2xindex>} : () -> !tosa.shape<2>
  %36 = tosa.reshape %34, %35 : (tensor<2xf32>, !tosa.shape<2>) -> tensor<2x1xf32>
  %37 = tosa.const_shape {values = dense<2> : tensor<1xindex>} : () -> !tosa.shape<1>
  %38 = tosa.reshape %36, %37 : (tensor<2x1xf32>, !tosa.shape<1>) -> tensor<2xf32>
  %39 = tensor.cast %38 : tensor<2xf32> to tensor<?xf32>
  return %26, %39, %g_11, %h_23 : tensor<3x2xf32>, tensor<?xf32>, tensor<?x?xi32>, tensor<?x3xf32>
}
