func.func @main(%c: i1, %a: tensor<5x2xf32>) -> tensor<5x2xf32> {
  %r = scf.if %c -> (tensor<5x2xf32>) {
    scf.yield %a : tensor<5x2xf32>
  } else {
    %b = tensor.empty() : tensor<7x1x2xf32>
    %s = tensor.extract_slice %b[1, 0, 0] [5, 1, 2] [1, 1, 1] : tensor<7x1x2xf32> to tensor<5x1x2xf32>
    %d = tensor.collapse_shape %s [[0, 1], [2]] : tensor<5x1x2xf32> into tensor<5x2xf32>
    scf.yield %d : tensor<5x2xf32>
  }
  return %r : tensor<5x2xf32>
}
