func.func @main(%x_0: tensor<4x1xf32>) -> tensor<4x1xf32> {
  %1 = tosa.log %x_0 : (tensor<4x1xf32>) -> tensor<4x1xf32>
  return %1 : tensor<4x1xf32>
}

func.func private @printMemrefI32(tensor<*xi32>)
func.func @entry() {
  %a0 = arith.constant dense<[[-0.5], [2.0], [-1.98455918], [1.30614901]]> : tensor<4x1xf32>
  %r = func.call @main(%a0) : (tensor<4x1xf32>) -> (tensor<4x1xf32>)
  %i0 = arith.bitcast %r : tensor<4x1xf32> to tensor<4x1xi32>
  %u0 = tensor.cast %i0 : tensor<4x1xi32> to tensor<*xi32>
  func.call @printMemrefI32(%u0) : (tensor<*xi32>) -> ()
  return
}
