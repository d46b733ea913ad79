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

func.func private @printMemrefI32(tensor<*xi32>)
func.func @entry() {
  %a0 = arith.constant dense<[[1.87317467, -0.560280442, -0.685775042, -1.0, 0.0802491456], [-1.01071632, 1.14072156, 0.25, -1.70028961, -0.464632481], [-1.88927853, 0.17161864, 1.0, -1.83937788, -1.70489037]]> : tensor<3x5xf32>
  %r = func.call @main(%a0) : (tensor<3x5xf32>) -> (tensor<3xf32>)
  %i0 = arith.bitcast %r : tensor<3xf32> to tensor<3xi32>
  %u0 = tensor.cast %i0 : tensor<3xi32> to tensor<*xi32>
  func.call @printMemrefI32(%u0) : (tensor<*xi32>) -> ()
  return
}
