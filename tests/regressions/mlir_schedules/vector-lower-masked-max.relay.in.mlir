func.func @main(%s_0: tensor<3x5xf32>) -> tensor<3xf32> {
  %1 = "tosa.const"() <{values = dense<-1.5> : tensor<f32>}> : () -> tensor<f32>
  %2 = tosa.abs %s_0 : (tensor<3x5xf32>) -> tensor<3x5xf32>
  %3 = "tosa.const"() <{values = dense<-1.5> : tensor<1x1xf32>}> : () -> tensor<1x1xf32>
  %4 = tosa.sub %3, %2 : (tensor<1x1xf32>, tensor<3x5xf32>) -> tensor<3x5xf32>
  %5 = tosa.reduce_max %4 {axis = 1 : i32} : (tensor<3x5xf32>) -> tensor<3x1xf32>
  %6 = tosa.const_shape {values = dense<3> : tensor<1xindex>} : () -> !tosa.shape<1>
  %7 = tosa.reshape %5, %6 : (tensor<3x1xf32>, !tosa.shape<1>) -> tensor<3xf32>
  return %7 : tensor<3xf32>
}
