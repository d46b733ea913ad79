func.func @main(%x_0: tensor<3x6x1xi32>) -> tensor<3x6x1xi32> {
  %1 = "tosa.const"() <{values = dense<false> : tensor<i1>}> : () -> tensor<i1>
  %16 = tosa.cond_if %1 (%x_3 = %x_0) : tensor<i1> (tensor<3x6x1xi32>) -> tensor<3x6x1xi32> {
  ^bb0(%x_3: tensor<3x6x1xi32>):
    %2 = "tosa.const"() <{values = dense<true> : tensor<i1>}> : () -> tensor<i1>
    %12 = tensor.extract %2[] : tensor<i1>
    %13 = scf.if %12 -> (tensor<3x6x1xi32>) {
      scf.yield %x_3 : tensor<3x6x1xi32>
    } else {
      %5 = "tosa.const"() <{values = dense<-6.75> : tensor<f32>}> : () -> tensor<f32>
      %6 = "tosa.const"() <{values = dense<22.0> : tensor<f32>}> : () -> tensor<f32>
      %7 = tosa.greater %5, %6 : (tensor<f32>, tensor<f32>) -> tensor<i1>
      %10 = tensor.extract %7[] : tensor<i1>
      %11 = scf.if %10 -> (tensor<3x6x1xi32>) {
        %8 = "tosa.const"() <{values = dense<[[[-21], [18], [-2], [-21], [-22], [19]], [[19], [10], [0], [27], [-8], [10]], [[-27], [22], [23], [11], [26], [27]]]> : tensor<3x6x1xi32>}> : () -> tensor<3x6x1xi32>
        scf.yield %8 : tensor<3x6x1xi32>
      } else {
        %9 = "tosa.const"() <{values = dense<[[[26], [29], [5], [17], [21], [16]], [[25], [-18], [-28], [-21], [-12], [31]], [[25], [-11], [8], [-19], [-7], [-23]]]> : tensor<3x6x1xi32>}> : () -> tensor<3x6x1xi32>
        scf.yield %9 : tensor<3x6x1xi32>
      }
      scf.yield %11 : tensor<3x6x1xi32>
    }
    tosa.yield %13 : tensor<3x6x1xi32>
  } else {
  ^bb0(%x_4: tensor<3x6x1xi32>):
    %14 = "tosa.const"() <{values = dense<[[6], [28], [31], [28]]> : tensor<4x1xi32>}> : () -> tensor<4x1xi32>
    %15 = "tosa.const"() <{values = dense<[[30, -38, 76, -128], [-2147483648, 91, 78, 70]]> : tensor<2x4xi32>}> : () -> tensor<2x4xi32>
    tosa.yield %x_4 : tensor<3x6x1xi32>
  }
  %17 = "tosa.const"() <{values = dense<1> : tensor<3x6x1xi32>}> : () -> tensor<3x6x1xi32>
  return %17 : tensor<3x6x1xi32>
}
