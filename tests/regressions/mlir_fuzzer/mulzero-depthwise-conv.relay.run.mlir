func.func @main(%x_0: tensor<1x3x4xf32>) -> tensor<1x3x4xf32> {
  %1 = tosa.sub %x_0, %x_0 : (tensor<1x3x4xf32>, tensor<1x3x4xf32>) -> tensor<1x3x4xf32>
  %2 = tosa.log %1 : (tensor<1x3x4xf32>) -> tensor<1x3x4xf32>
  %3 = "tosa.const"() <{values = dense<0.0> : tensor<3x1x1xf32>}> : () -> tensor<3x1x1xf32>
  %4 = tosa.const_shape {values = dense<[1, 3, 1, 4]> : tensor<4xindex>} : () -> !tosa.shape<4>
  %5 = tosa.reshape %2, %4 : (tensor<1x3x4xf32>, !tosa.shape<4>) -> tensor<1x3x1x4xf32>
  %6 = tosa.const_shape {values = dense<[3, 1, 1, 1]> : tensor<4xindex>} : () -> !tosa.shape<4>
  %7 = tosa.reshape %3, %6 : (tensor<3x1x1xf32>, !tosa.shape<4>) -> tensor<3x1x1x1xf32>
  %8 = tosa.transpose %7 {perms = array<i32: 2, 3, 0, 1>} : (tensor<3x1x1x1xf32>) -> tensor<1x1x3x1xf32>
  %9 = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %10 = tosa.transpose %5 {perms = array<i32: 0, 2, 3, 1>} : (tensor<1x3x1x4xf32>) -> tensor<1x1x4x3xf32>
  %11 = tosa.depthwise_conv2d %10, %8, %9, %9, %9 {acc_type = f32, dilation = array<i64: 1, 1>, pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 1, 1>} : (tensor<1x1x4x3xf32>, tensor<1x1x3x1xf32>, tensor<1xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x1x4x3xf32>
  %12 = tosa.transpose %11 {perms = array<i32: 0, 3, 1, 2>} : (tensor<1x1x4x3xf32>) -> tensor<1x3x1x4xf32>
  %13 = tosa.const_shape {values = dense<[1, 3, 4]> : tensor<3xindex>} : () -> !tosa.shape<3>
  %14 = tosa.reshape %12, %13 : (tensor<1x3x1x4xf32>, !tosa.shape<3>) -> tensor<1x3x4xf32>
  return %14 : tensor<1x3x4xf32>
}

func.func private @printMemrefI32(tensor<*xi32>)
func.func @entry() {
  %a0 = arith.constant dense<[[[1.0, 0.0, -0.871077836, 0.710146546], [-1.1769191, -1.57986057, -1.31597555, 0.991698325], [0.961360753, 1.28351367, -1.0, -1.71190798]]]> : tensor<1x3x4xf32>
  %r = func.call @main(%a0) : (tensor<1x3x4xf32>) -> (tensor<1x3x4xf32>)
  %i0 = arith.bitcast %r : tensor<1x3x4xf32> to tensor<1x3x4xi32>
  %u0 = tensor.cast %i0 : tensor<1x3x4xi32> to tensor<*xi32>
  func.call @printMemrefI32(%u0) : (tensor<*xi32>) -> ()
  return
}
