func.func private @f0() -> tensor<6x1x1xf32> {
  %1 = "tosa.const"() <{values = dense<[[[0x7FC00000, 0.5, -3.0]], [[7.0, 1.75, -3.5]], [[-7.75, -4.5, 7.25]], [[6.5, -7.75, -7.5]], [[0.5, 3.5, 7.25]], [[-8.0, -1.75, -7.75]]]> : tensor<6x1x3xf32>}> : () -> tensor<6x1x3xf32>
  %2 = "tosa.const"() <{values = dense<0> : tensor<1xi32>}> : () -> tensor<1xi32>
  %3 = "tosa.const"() <{values = dense<[[[0x7FC00000], [0.5], [-3.0]], [[7.0], [1.75], [-3.5]], [[-7.75], [-4.5], [7.25]], [[6.5], [-7.75], [-7.5]], [[0.5], [3.5], [7.25]], [[-8.0], [-1.75], [-7.75]]]> : tensor<6x3x1xf32>}> : () -> tensor<6x3x1xf32>
  %4 = tosa.maximum %2, %2 : (tensor<1xi32>, tensor<1xi32>) -> tensor<1xi32>
  %5 = "tosa.const"() <{values = dense<2> : tensor<1xi32>}> : () -> tensor<1xi32>
  %6 = tosa.minimum %4, %5 : (tensor<1xi32>, tensor<1xi32>) -> tensor<1xi32>
  %7 = tosa.const_shape {values = dense<[1, 1]> : tensor<2xindex>} : () -> !tosa.shape<2>
  %8 = tosa.reshape %6, %7 : (tensor<1xi32>, !tosa.shape<2>) -> tensor<1x1xi32>
  %9 = tosa.const_shape {values = dense<[6, 1]> : tensor<2xindex>} : () -> !tosa.shape<2>
  %10 = tosa.tile %8, %9 : (tensor<1x1xi32>, !tosa.shape<2>) -> tensor<6x1xi32>
  %11 = tosa.gather %3, %10 : (tensor<6x3x1xf32>, tensor<6x1xi32>) -> tensor<6x1x1xf32>
  return %11 : tensor<6x1x1xf32>
}
func.func private @f1(%p_25: tensor<3x3x2x1xi32>, %p_26: tensor<1xf32>) -> tensor<4x4xf32> {
  %27 = "tosa.const"() <{values = dense<[[-14.5, 2.14748365e+09, -14.25, 8.25], [0.25, -1.5, 27.5, 8.5], [-7.5, 24.0, 8.0, -7.5], [-13.0, -13.75, -21.5, 4.25]]> : tensor<4x4xf32>}> : () -> tensor<4x4xf32>
  %28 = tosa.floor %27 : (tensor<4x4xf32>) -> tensor<4x4xf32>
  return %28 : tensor<4x4xf32>
}
func.func private @f2(%p_39: tensor<i1>, %p_40: tensor<1xi1>, %p_41: tensor<i1>) -> tensor<1x1xf32> {
  %42 = "tosa.const"() <{values = dense<21.5> : tensor<1xf32>}> : () -> tensor<1xf32>
  %43 = "tosa.const"() <{values = dense<0.0> : tensor<2xf32>}> : () -> tensor<2xf32>
  %44 = "tosa.const"() <{values = dense<[[14, -13, 28], [-18, 10, -21], [16, 31, -15], [-27, -6, 21], [-40, -25, 20], [-11, 19, -28], [7, -3, 22]]> : tensor<7x3xi32>}> : () -> tensor<7x3xi32>
  %45 = "tosa.const"() <{values = dense<0.0> : tensor<1x2x1xf32>}> : () -> tensor<1x2x1xf32>
  %46 = "tosa.const"() <{values = dense<0> : tensor<1x1xi32>}> : () -> tensor<1x1xi32>
  %47 = tosa.maximum %44, %46 : (tensor<7x3xi32>, tensor<1x1xi32>) -> tensor<7x3xi32>
  %48 = "tosa.const"() <{values = dense<1> : tensor<1x1xi32>}> : () -> tensor<1x1xi32>
  %49 = tosa.minimum %47, %48 : (tensor<7x3xi32>, tensor<1x1xi32>) -> tensor<7x3xi32>
  %50 = tosa.const_shape {values = dense<[1, 21]> : tensor<2xindex>} : () -> !tosa.shape<2>
  %51 = tosa.reshape %49, %50 : (tensor<7x3xi32>, !tosa.shape<2>) -> tensor<1x21xi32>
  %52 = tosa.gather %45, %51 : (tensor<1x2x1xf32>, tensor<1x21xi32>) -> tensor<1x21x1xf32>
  %53 = tosa.const_shape {values = dense<[7, 3]> : tensor<2xindex>} : () -> !tosa.shape<2>
  %54 = tosa.reshape %52, %53 : (tensor<1x21x1xf32>, !tosa.shape<2>) -> tensor<7x3xf32>
  %55 = "tosa.const"() <{values = dense<-9.75> : tensor<f32>}> : () -> tensor<f32>
  %56 = tosa.const_shape {values = dense<[0, 2]> : tensor<2xindex>} : () -> !tosa.shape<2>
  %57 = tosa.const_shape {values = dense<[1, 1]> : tensor<2xindex>} : () -> !tosa.shape<2>
  %58 = tosa.slice %54, %56, %57 : (tensor<7x3xf32>, !tosa.shape<2>, !tosa.shape<2>) -> tensor<1x1xf32>
  %59 = "tosa.const"() <{values = dense<21.5> : tensor<1x1xf32>}> : () -> tensor<1x1xf32>
  %60 = tosa.maximum %59, %58 : (tensor<1x1xf32>, tensor<1x1xf32>) -> tensor<1x1xf32>
  return %60 : tensor<1x1xf32>
}
func.func @main(%x_0: tensor<1xf32>) -> tensor<5x1x3x1xi1> {
  %12 = func.call @f0() : () -> tensor<6x1x1xf32>
  %13 = arith.constant dense<1.0> : tensor<1x1xf64>
  %14 = linalg.reduce ins(%12 : tensor<6x1x1xf32>) outs(%13 : tensor<1x1xf64>) dimensions = [0]
      (%15: f32, %16: f64) {
        %17 = arith.extf %15 : f32 to f64
        %18 = arith.mulf %17, %16 : f64
        linalg.yield %18 : f64
      }
  %19 = arith.truncf %14 : tensor<1x1xf64> to tensor<1x1xf32>
  %20 = tosa.const_shape {values = dense<[1, 1, 1]> : tensor<3xindex>} : () -> !tosa.shape<3>
  %21 = tosa.reshape %19, %20 : (tensor<1x1xf32>, !tosa.shape<3>) -> tensor<1x1x1xf32>
  %22 = tosa.const_shape {values = dense<[1, 1]> : tensor<2xindex>} : () -> !tosa.shape<2>
  %23 = tosa.reshape %21, %22 : (tensor<1x1x1xf32>, !tosa.shape<2>) -> tensor<1x1xf32>
  %24 = tosa.reshape %23, %20 : (tensor<1x1xf32>, !tosa.shape<3>) -> tensor<1x1x1xf32>
  %29 = "tosa.const"() <{values = dense<[[[[-7], [-18]], [[6], [-11]], [[6], [25]]], [[[-1], [-24]], [[2], [-18]], [[-20], [26]]], [[[-28], [11]], [[10], [10]], [[-25], [-19]]]]> : tensor<3x3x2x1xi32>}> : () -> tensor<3x3x2x1xi32>
  %30 = func.call @f1(%29, %x_0) : (tensor<3x3x2x1xi32>, tensor<1xf32>) -> tensor<4x4xf32>
  %31 = tosa.reduce_min %30 {axis = 1 : i32} : (tensor<4x4xf32>) -> tensor<4x1xf32>
  %32 = tosa.const_shape {values = dense<[4, 1, 1, 1]> : tensor<4xindex>} : () -> !tosa.shape<4>
  %33 = tosa.reshape %31, %32 : (tensor<4x1xf32>, !tosa.shape<4>) -> tensor<4x1x1x1xf32>
  %34 = tosa.const_shape {values = dense<[1, 1, 1, 1]> : tensor<4xindex>} : () -> !tosa.shape<4>
  %35 = tosa.reshape %24, %34 : (tensor<1x1x1xf32>, !tosa.shape<4>) -> tensor<1x1x1x1xf32>
  %36 = tosa.greater %33, %35 : (tensor<4x1x1x1xf32>, tensor<1x1x1x1xf32>) -> tensor<4x1x1x1xi1>
  %37 = tosa.const_shape {values = dense<[1, 5, 1, 1]> : tensor<4xindex>} : () -> !tosa.shape<4>
  %38 = tosa.tile %36, %37 : (tensor<4x1x1x1xi1>, !tosa.shape<4>) -> tensor<4x5x1x1xi1>
  %61 = "tosa.const"() <{values = dense<true> : tensor<i1>}> : () -> tensor<i1>
  %62 = "tosa.const"() <{values = dense<false> : tensor<1xi1>}> : () -> tensor<1xi1>
  %63 = "tosa.const"() <{values = dense<false> : tensor<i1>}> : () -> tensor<i1>
  %64 = func.call @f2(%61, %62, %63) : (tensor<i1>, tensor<1xi1>, tensor<i1>) -> tensor<1x1xf32>
  %65 = tosa.const_shape {values = dense<> : tensor<0xindex>} : () -> !tosa.shape<0>
  %66 = tosa.reshape %64, %65 : (tensor<1x1xf32>, !tosa.shape<0>) -> tensor<f32>
  %67 = tosa.const_shape {values = dense<[0, 0, 0, 0]> : tensor<4xindex>} : () -> !tosa.shape<4>
  %68 = tosa.slice %38, %67, %32 : (tensor<4x5x1x1xi1>, !tosa.shape<4>, !tosa.shape<4>) -> tensor<4x1x1x1xi1>
  %69 = "tosa.const"() <{values = dense<false> : tensor<1x1x1x1xi1>}> : () -> tensor<1x1x1x1xi1>
  %70 = tosa.concat %68, %69 {axis = 0 : i32} : (tensor<4x1x1x1xi1>, tensor<1x1x1x1xi1>) -> tensor<5x1x1x1xi1>
  %71 = "tosa.const"() <{values = dense<false> : tensor<5x1x2x1xi1>}> : () -> tensor<5x1x2x1xi1>
  %72 = tosa.concat %70, %71 {axis = 2 : i32} : (tensor<5x1x1x1xi1>, tensor<5x1x2x1xi1>) -> tensor<5x1x3x1xi1>
  %73 = "tosa.const"() <{values = dense<0.0> : tensor<f32>}> : () -> tensor<f32>
  %74 = tosa.equal %66, %73 : (tensor<f32>, tensor<f32>) -> tensor<i1>
  %75 = tosa.logical_not %74 : (tensor<i1>) -> tensor<i1>
  %76 = tosa.reshape %75, %34 : (tensor<i1>, !tosa.shape<4>) -> tensor<1x1x1x1xi1>
  %77 = tosa.const_shape {values = dense<[5, 1, 3, 1]> : tensor<4xindex>} : () -> !tosa.shape<4>
  %78 = tosa.tile %76, %77 : (tensor<1x1x1x1xi1>, !tosa.shape<4>) -> tensor<5x1x3x1xi1>
  %79 = "tosa.const"() <{values = dense<true> : tensor<4x1x1x1xi1>}> : () -> tensor<4x1x1x1xi1>
  %80 = tosa.concat %79, %69 {axis = 0 : i32} : (tensor<4x1x1x1xi1>, tensor<1x1x1x1xi1>) -> tensor<5x1x1x1xi1>
  %81 = tosa.concat %80, %71 {axis = 2 : i32} : (tensor<5x1x1x1xi1>, tensor<5x1x2x1xi1>) -> tensor<5x1x3x1xi1>
  %82 = tosa.select %81, %72, %78 : (tensor<5x1x3x1xi1>, tensor<5x1x3x1xi1>, tensor<5x1x3x1xi1>) -> tensor<5x1x3x1xi1>
  return %82 : tensor<5x1x3x1xi1>
}
