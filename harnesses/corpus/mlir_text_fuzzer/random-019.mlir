func.func @main(%x_0: tensor<i1>, %x_1: tensor<2xf32>) -> tensor<1xf32> {
  %2 = "tosa.const"() <{values = dense<false> : tensor<i1>}> : () -> tensor<i1>
  %16:2 = tosa.cond_if %2 (%x_5 = %x_1, %x_8 = %x_0) : tensor<i1> (tensor<2xf32>, tensor<i1>) -> (tensor<1xf32>, tensor<1xf32>) {
  ^bb0(%x_5: tensor<2xf32>, %x_8: tensor<i1>):
    %3 = "tosa.const"() <{values = dense<21.25> : tensor<1xf32>}> : () -> tensor<1xf32>
    %4 = "tosa.const"() <{values = dense<12.75> : tensor<1xf32>}> : () -> tensor<1xf32>
    tosa.yield %3, %4 : tensor<1xf32>, tensor<1xf32>
  } else {
  ^bb0(%x_6: tensor<2xf32>, %x_9: tensor<i1>):
    %10 = tensor.extract %x_9[] : tensor<i1>
    %11 = scf.if %10 -> (tensor<2xf32>) {
      scf.yield %x_6 : tensor<2xf32>
    } else {
      %7 = "tosa.const"() <{values = dense<[-3.25, 1.25]> : tensor<2xf32>}> : () -> tensor<2xf32>
      scf.yield %7 : tensor<2xf32>
    }
    %12 = tosa.const_shape {values = dense<0> : tensor<1xindex>} : () -> !tosa.shape<1>
    %13 = tosa.const_shape {values = dense<1> : tensor<1xindex>} : () -> !tosa.shape<1>
    %14 = tosa.slice %11, %12, %13 : (tensor<2xf32>, !tosa.shape<1>, !tosa.shape<1>) -> tensor<1xf32>
    %15 = tosa.slice %11, %13, %13 : (tensor<2xf32>, !tosa.shape<1>, !tosa.shape<1>) -> tensor<1xf32>
    tosa.yield %14, %15 : tensor<1xf32>, tensor<1xf32>
  }
  return %16#0 : tensor<1xf32>
}
