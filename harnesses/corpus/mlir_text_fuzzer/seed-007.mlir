func.func @main() -> tensor<1x5xi32> {
  %0 = "tosa.const"() <{values = dense<[[-22, 15, -24, -31, -25, 2, -2, -25], [24, 23, 7, -10, -15, -8, -31, 6]]> : tensor<2x8xi32>}> : () -> tensor<2x8xi32>
  %1 = tosa.const_shape {values = dense<[0, 0]> : tensor<2xindex>} : () -> !tosa.shape<2>
  %2 = tosa.const_shape {values = dense<[1, 8]> : tensor<2xindex>} : () -> !tosa.shape<2>
  %3 = tosa.slice %0, %1, %2 : (tensor<2x8xi32>, !tosa.shape<2>, !tosa.shape<2>) -> tensor<1x8xi32>
  %4 = tosa.const_shape {values = dense<[1, 0]> : tensor<2xindex>} : () -> !tosa.shape<2>
  %5 = tosa.slice %0, %4, %2 : (tensor<2x8xi32>, !tosa.shape<2>, !tosa.shape<2>) -> tensor<1x8xi32>
  %6 = tosa.reverse %3 {axis = 1 : i32} : (tensor<1x8xi32>) -> tensor<1x8xi32>
  %7 = tosa.const_shape {values = dense<[1, 5]> : tensor<2xindex>} : () -> !tosa.shape<2>
  %8 = tosa.slice %6, %1, %7 : (tensor<1x8xi32>, !tosa.shape<2>, !tosa.shape<2>) -> tensor<1x5xi32>
  return %8 : tensor<1x5xi32>
}
