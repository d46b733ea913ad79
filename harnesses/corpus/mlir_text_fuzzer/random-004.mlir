func.func @main() -> tensor<2xf32> {
  %0 = "tosa.const"() <{values = dense<[[23.25, -5.25], [17.5, 0.25], [19.5, 1.5], [1.17549435e-38, 20.0], [10.25, -28.0], [-27.25, -23.75], [-4.25, 6.75]]> : tensor<7x2xf32>}> : () -> tensor<7x2xf32>
  %1 = "tosa.const"() <{values = dense<[15.0, 20.0, 25.0, 30.0, 35.0, 40.0, 45.0]> : tensor<7xf32>}> : () -> tensor<7xf32>
  %2 = "tosa.const"() <{values = dense<[[15.0], [20.0], [25.0], [30.0], [35.0], [40.0], [45.0]]> : tensor<7x1xf32>}> : () -> tensor<7x1xf32>
  %3 = tosa.add %0, %2 : (tensor<7x2xf32>, tensor<7x1xf32>) -> tensor<7x2xf32>
  %4 = tosa.reduce_max %3 {axis = 0 : i32} : (tensor<7x2xf32>) -> tensor<1x2xf32>
  %5 = tosa.const_shape {values = dense<2> : tensor<1xindex>} : () -> !tosa.shape<1>
  %6 = tosa.reshape %4, %5 : (tensor<1x2xf32>, !tosa.shape<1>) -> tensor<2xf32>
  return %6 : tensor<2xf32>
}
