func.func @main(%x_0: tensor<i32>, %x_1: tensor<i32>, %x_2: tensor<3x1x2xi32>, %x_3: tensor<4xi1>, %x_4: tensor<4xi1>) -> tensor<4xi1> {
  %5 = "tosa.const"() <{values = dense<false> : tensor<i1>}> : () -> tensor<i1>
  %6 = tosa.sub %x_0, %x_0 : (tensor<i32>, tensor<i32>) -> tensor<i32>
  %7 = tosa.identity %x_1 : (tensor<i32>) -> tensor<i32>
  %8 = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
  %9 = tosa.mul %6, %7, %8 : (tensor<i32>, tensor<i32>, tensor<1xi8>) -> tensor<i32>
  %10 = tosa.reduce_sum %x_2 {axis = 0 : i32} : (tensor<3x1x2xi32>) -> tensor<1x1x2xi32>
  %11 = tosa.reduce_sum %10 {axis = 2 : i32} : (tensor<1x1x2xi32>) -> tensor<1x1x1xi32>
  %12 = tosa.const_shape {values = dense<> : tensor<0xindex>} : () -> !tosa.shape<0>
  %13 = tosa.reshape %11, %12 : (tensor<1x1x1xi32>, !tosa.shape<0>) -> tensor<i32>
  %14 = "tosa.const"() <{values = dense<[-1, 28, -15, 12]> : tensor<4xi32>}> : () -> tensor<4xi32>
  %15 = tosa.const_shape {values = dense<1> : tensor<1xindex>} : () -> !tosa.shape<1>
  %16 = tosa.reshape %13, %15 : (tensor<i32>, !tosa.shape<1>) -> tensor<1xi32>
  %17 = tosa.sub %16, %14 : (tensor<1xi32>, tensor<4xi32>) -> tensor<4xi32>
  %18 = tosa.reshape %9, %15 : (tensor<i32>, !tosa.shape<1>) -> tensor<1xi32>
  %19 = tosa.greater %17, %18 : (tensor<4xi32>, tensor<1xi32>) -> tensor<4xi1>
  %20 = "tosa.const"() <{values = dense<false> : tensor<1xi1>}> : () -> tensor<1xi1>
  %x_21 = tosa.logical_and %20, %19 : (tensor<1xi1>, tensor<4xi1>) -> tensor<4xi1>
  %22 = tosa.logical_not %x_4 : (tensor<4xi1>) -> tensor<4xi1>
  %23 = tosa.logical_or %22, %x_3 : (tensor<4xi1>, tensor<4xi1>) -> tensor<4xi1>
  %24 = tosa.logical_and %23, %x_21 : (tensor<4xi1>, tensor<4xi1>) -> tensor<4xi1>
  return %24 : tensor<4xi1>
}
