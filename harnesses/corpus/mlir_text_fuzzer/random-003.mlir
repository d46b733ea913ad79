func.func @main(%x_0: tensor<1x2x6xi32>, %x_1: tensor<1x6x1xi32>, %x_2: tensor<1x1xi32>, %x_3: tensor<i1>, %x_4: tensor<3xi32>, %x_5: tensor<i1>) -> tensor<1x2x1xf32> {
  %6 = "tosa.const"() <{values = dense<[[[-4, 22], [13, 29], [14, -29], [-8, 10], [-19, 10], [-24, 5]]]> : tensor<1x6x2xi32>}> : () -> tensor<1x6x2xi32>
  %7 = tosa.concat %6, %x_1 {axis = 2 : i32} : (tensor<1x6x2xi32>, tensor<1x6x1xi32>) -> tensor<1x6x3xi32>
  %8 = tosa.abs %7 : (tensor<1x6x3xi32>) -> tensor<1x6x3xi32>
  %9 = tosa.cast %x_0 : (tensor<1x2x6xi32>) -> tensor<1x2x6xf32>
  %10 = tosa.cast %8 : (tensor<1x6x3xi32>) -> tensor<1x6x3xf32>
  %11 = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %12 = tosa.matmul %9, %10, %11, %11 : (tensor<1x2x6xf32>, tensor<1x6x3xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x2x3xf32>
  %x_13 = tosa.negate %12, %11, %11 : (tensor<1x2x3xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x2x3xf32>
  %14 = tosa.const_shape {values = dense<> : tensor<0xindex>} : () -> !tosa.shape<0>
  %x_15 = tosa.reshape %x_2, %14 : (tensor<1x1xi32>, !tosa.shape<0>) -> tensor<i32>
  %19 = tosa.cond_if %x_3 (%x_17 = %x_4) : tensor<i1> (tensor<3xi32>) -> tensor<3xi32> {
  ^bb0(%x_17: tensor<3xi32>):
    %16 = "tosa.const"() <{values = dense<[24, 26, 29]> : tensor<3xi32>}> : () -> tensor<3xi32>
    tosa.yield %16 : tensor<3xi32>
  } else {
  ^bb0(%x_18: tensor<3xi32>):
    tosa.yield %x_18 : tensor<3xi32>
  }
  %20 = tosa.const_shape {values = dense<1> : tensor<1xindex>} : () -> !tosa.shape<1>
  %21 = tosa.reshape %x_15, %20 : (tensor<i32>, !tosa.shape<1>) -> tensor<1xi32>
  %22 = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
  %x_23 = tosa.mul %19, %21, %22 : (tensor<3xi32>, tensor<1xi32>, tensor<1xi8>) -> tensor<3xi32>
  %24 = "tosa.const"() <{values = dense<false> : tensor<i1>}> : () -> tensor<i1>
  %25 = tosa.cast %24 : (tensor<i1>) -> tensor<i32>
  %26 = tosa.cast %x_5 : (tensor<i1>) -> tensor<i32>
  %27 = tosa.equal %25, %26 : (tensor<i32>, tensor<i32>) -> tensor<i1>
  %28 = tosa.logical_not %27 : (tensor<i1>) -> tensor<i1>
  %31 = tosa.cond_if %28 (%x_29 = %x_13) : tensor<i1> (tensor<1x2x3xf32>) -> tensor<1x2x3xf32> {
  ^bb0(%x_29: tensor<1x2x3xf32>):
    tosa.yield %x_29 : tensor<1x2x3xf32>
  } else {
  ^bb0(%x_30: tensor<1x2x3xf32>):
    tosa.yield %x_30 : tensor<1x2x3xf32>
  }
  %32 = "tosa.const"() <{values = dense<1.0> : tensor<1x2x3xf32>}> : () -> tensor<1x2x3xf32>
  %33 = "tosa.const"() <{values = dense<[[[[3.0], [-7.0]], [[-5.0], [4.75]], [[1.75], [-3.5]], [[4.5], [-5.75]]], [[[-5.75], [-5.5]], [[-6.25], [-0.5]], [[-7.5], [1.75]], [[3.5], [-7.5]]], [[[7.25], [-7.0]], [[10.0], [-2.25]], [[-2.5], [-2.25]], [[3.0], [-5.25]]]]> : tensor<3x4x2x1xf32>}> : () -> tensor<3x4x2x1xf32>
  %34 = "tosa.const"() <{values = dense<[[[[-5.5], [2.75], [-2.25], [-6.25]], [[-0.75], [3.0], [4.5], [6.25]]], [[[-3.25], [-2.0], [1.0], [2.75]], [[-2.75], [-7.5], [3.25], [-8.0]]], [[[4.0], [7.25], [5.5], [4.0]], [[7.75], [-4.75], [-0.75], [7.5]]], [[[0.25], [7.75], [-2.0], [-1.75]], [[-7.75], [5.75], [-7.5], [15.25]]]]> : tensor<4x2x4x1xf32>}> : () -> tensor<4x2x4x1xf32>
  %35 = "tosa.const"() <{values = dense<0.0> : tensor<1x1x1x1xf32>}> : () -> tensor<1x1x1x1xf32>
  %36 = tosa.greater %35, %33 : (tensor<1x1x1x1xf32>, tensor<3x4x2x1xf32>) -> tensor<3x4x2x1xi1>
  %37 = tosa.ceil %33 : (tensor<3x4x2x1xf32>) -> tensor<3x4x2x1xf32>
  %38 = tosa.floor %33 : (tensor<3x4x2x1xf32>) -> tensor<3x4x2x1xf32>
  %39 = tosa.select %36, %37, %38 : (tensor<3x4x2x1xi1>, tensor<3x4x2x1xf32>, tensor<3x4x2x1xf32>) -> tensor<3x4x2x1xf32>
  %40 = tosa.cast %39 : (tensor<3x4x2x1xf32>) -> tensor<3x4x2x1xi32>
  %41 = tosa.equal %33, %33 : (tensor<3x4x2x1xf32>, tensor<3x4x2x1xf32>) -> tensor<3x4x2x1xi1>
  %42 = tosa.logical_not %41 : (tensor<3x4x2x1xi1>) -> tensor<3x4x2x1xi1>
  %43 = "tosa.const"() <{values = dense<0> : tensor<1x1x1x1xi32>}> : () -> tensor<1x1x1x1xi32>
  %44 = tosa.select %42, %43, %40 : (tensor<3x4x2x1xi1>, tensor<1x1x1x1xi32>, tensor<3x4x2x1xi32>) -> tensor<3x4x2x1xi32>
  %45 = tosa.greater %35, %34 : (tensor<1x1x1x1xf32>, tensor<4x2x4x1xf32>) -> tensor<4x2x4x1xi1>
  %46 = tosa.ceil %34 : (tensor<4x2x4x1xf32>) -> tensor<4x2x4x1xf32>
  %47 = tosa.floor %34 : (tensor<4x2x4x1xf32>) -> tensor<4x2x4x1xf32>
  %48 = tosa.select %45, %46, %47 : (tensor<4x2x4x1xi1>, tensor<4x2x4x1xf32>, tensor<4x2x4x1xf32>) -> tensor<4x2x4x1xf32>
  %49 = tosa.cast %48 : (tensor<4x2x4x1xf32>) -> tensor<4x2x4x1xi32>
  %50 = tosa.equal %34, %34 : (tensor<4x2x4x1xf32>, tensor<4x2x4x1xf32>) -> tensor<4x2x4x1xi1>
  %51 = tosa.logical_not %50 : (tensor<4x2x4x1xi1>) -> tensor<4x2x4x1xi1>
  %52 = tosa.select %51, %43, %49 : (tensor<4x2x4x1xi1>, tensor<1x1x1x1xi32>, tensor<4x2x4x1xi32>) -> tensor<4x2x4x1xi32>
  %53 = tosa.const_shape {values = dense<[0, 0, 0, 0]> : tensor<4xindex>} : () -> !tosa.shape<4>
  %54 = tosa.const_shape {values = dense<[3, 2, 2, 1]> : tensor<4xindex>} : () -> !tosa.shape<4>
  %55 = tosa.slice %44, %53, %54 : (tensor<3x4x2x1xi32>, !tosa.shape<4>, !tosa.shape<4>) -> tensor<3x2x2x1xi32>
  %56 = tosa.const_shape {values = dense<[2, 2, 4, 1]> : tensor<4xindex>} : () -> !tosa.shape<4>
  %57 = tosa.slice %52, %53, %56 : (tensor<4x2x4x1xi32>, !tosa.shape<4>, !tosa.shape<4>) -> tensor<2x2x4x1xi32>
  %58 = tosa.const_shape {values = dense<[6, 2, 1]> : tensor<3xindex>} : () -> !tosa.shape<3>
  %59 = tosa.reshape %55, %58 : (tensor<3x2x2x1xi32>, !tosa.shape<3>) -> tensor<6x2x1xi32>
  %60 = tosa.const_shape {values = dense<[0, 0, 9, 9, 0, 0]> : tensor<6xindex>} : () -> !tosa.shape<6>
  %61 = "tosa.const"() <{values = dense<0> : tensor<1xi32>}> : () -> tensor<1xi32>
  %62 = tosa.pad %59, %60, %61 : (tensor<6x2x1xi32>, !tosa.shape<6>, tensor<1xi32>) -> tensor<6x20x1xi32>
  %63 = tosa.const_shape {values = dense<[3, 2, 20, 1]> : tensor<4xindex>} : () -> !tosa.shape<4>
  %64 = tosa.reshape %62, %63 : (tensor<6x20x1xi32>, !tosa.shape<4>) -> tensor<3x2x20x1xi32>
  %65 = "tosa.const"() <{values = dense<0> : tensor<3x2x2x1xi32>}> : () -> tensor<3x2x2x1xi32>
  %66 = linalg.conv_2d_nchw_fchw {dilations = dense<[6, 7]> : tensor<2xi64>, strides = dense<[1, 1]> : tensor<2xi64>} ins(%64, %57 : tensor<3x2x20x1xi32>, tensor<2x2x4x1xi32>) outs(%65 : tensor<3x2x2x1xi32>) -> tensor<3x2x2x1xi32>
  %67 = tosa.const_shape {values = dense<[0, 2, 0, 0]> : tensor<4xindex>} : () -> !tosa.shape<4>
  %68 = tosa.slice %44, %67, %54 : (tensor<3x4x2x1xi32>, !tosa.shape<4>, !tosa.shape<4>) -> tensor<3x2x2x1xi32>
  %69 = tosa.const_shape {values = dense<[2, 0, 0, 0]> : tensor<4xindex>} : () -> !tosa.shape<4>
  %70 = tosa.slice %52, %69, %56 : (tensor<4x2x4x1xi32>, !tosa.shape<4>, !tosa.shape<4>) -> tensor<2x2x4x1xi32>
  %71 = tosa.reshape %68, %58 : (tensor<3x2x2x1xi32>, !tosa.shape<3>) -> tensor<6x2x1xi32>
  %72 = tosa.pad %71, %60, %61 : (tensor<6x2x1xi32>, !tosa.shape<6>, tensor<1xi32>) -> tensor<6x20x1xi32>
  %73 = tosa.reshape %72, %63 : (tensor<6x20x1xi32>, !tosa.shape<4>) -> tensor<3x2x20x1xi32>
  %74 = linalg.conv_2d_nchw_fchw {dilations = dense<[6, 7]> : tensor<2xi64>, strides = dense<[1, 1]> : tensor<2xi64>} ins(%73, %70 : tensor<3x2x20x1xi32>, tensor<2x2x4x1xi32>) outs(%65 : tensor<3x2x2x1xi32>) -> tensor<3x2x2x1xi32>
  %75 = tosa.concat %66, %74 {axis = 1 : i32} : (tensor<3x2x2x1xi32>, tensor<3x2x2x1xi32>) -> tensor<3x4x2x1xi32>
  %78 = tosa.cond_if %24 : tensor<i1> -> tensor<1x3xi32> {
    %76 = "tosa.const"() <{values = dense<[[-5, -52, -39]]> : tensor<1x3xi32>}> : () -> tensor<1x3xi32>
    tosa.yield %76 : tensor<1x3xi32>
  } else {
    %77 = "tosa.const"() <{values = dense<[[14, 8, 6]]> : tensor<1x3xi32>}> : () -> tensor<1x3xi32>
    tosa.yield %77 : tensor<1x3xi32>
  }
  %79 = tosa.const_shape {values = dense<[1, 24, 1]> : tensor<3xindex>} : () -> !tosa.shape<3>
  %80 = tosa.reshape %75, %79 : (tensor<3x4x2x1xi32>, !tosa.shape<3>) -> tensor<1x24x1xi32>
  %81 = "tosa.const"() <{values = dense<0> : tensor<1x1xi32>}> : () -> tensor<1x1xi32>
  %82 = tosa.maximum %78, %81 : (tensor<1x3xi32>, tensor<1x1xi32>) -> tensor<1x3xi32>
  %83 = "tosa.const"() <{values = dense<23> : tensor<1x1xi32>}> : () -> tensor<1x1xi32>
  %84 = tosa.minimum %82, %83 : (tensor<1x3xi32>, tensor<1x1xi32>) -> tensor<1x3xi32>
  %85 = tosa.gather %80, %84 : (tensor<1x24x1xi32>, tensor<1x3xi32>) -> tensor<1x3x1xi32>
  %86 = tosa.const_shape {values = dense<[1, 3]> : tensor<2xindex>} : () -> !tosa.shape<2>
  %x_87 = tosa.reshape %85, %86 : (tensor<1x3x1xi32>, !tosa.shape<2>) -> tensor<1x3xi32>
  %88 = "tosa.const"() <{values = dense<1.0> : tensor<8x3x1xf32>}> : () -> tensor<8x3x1xf32>
  %89 = "tosa.const"() <{values = dense<-0.75> : tensor<f32>}> : () -> tensor<f32>
  %90 = tosa.const_shape {values = dense<[5, 0, 0]> : tensor<3xindex>} : () -> !tosa.shape<3>
  %91 = tosa.const_shape {values = dense<[1, 3, 1]> : tensor<3xindex>} : () -> !tosa.shape<3>
  %92 = tosa.slice %88, %90, %91 : (tensor<8x3x1xf32>, !tosa.shape<3>, !tosa.shape<3>) -> tensor<1x3x1xf32>
  %93 = tosa.matmul %32, %92, %11, %11 : (tensor<1x2x3xf32>, tensor<1x3x1xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x2x1xf32>
  return %93 : tensor<1x2x1xf32>
}
