func.func @main(%x_0: tensor<i1>, %x_1: tensor<7x1x7xi32>, %x_2: tensor<i32>, %x_3: tensor<6x2xi32>, %x_4: tensor<1x8xi32>, %x_5: tensor<1x4x4xf32>) -> tensor<1x4x1xi32> {
  %x_6 = "tosa.const"() <{values = dense<-82> : tensor<i32>}> : () -> tensor<i32>
  %10 = tosa.cond_if %x_0 (%x_7 = %x_6) : tensor<i1> (tensor<i32>) -> tensor<i32> {
  ^bb0(%x_7: tensor<i32>):
    tosa.yield %x_7 : tensor<i32>
  } else {
  ^bb0(%x_8: tensor<i32>):
    %9 = "tosa.const"() <{values = dense<-99> : tensor<i32>}> : () -> tensor<i32>
    tosa.yield %9 : tensor<i32>
  }
  %11 = "tosa.const"() <{values = dense<30> : tensor<i32>}> : () -> tensor<i32>
  %12 = tosa.greater_equal %11, %10 : (tensor<i32>, tensor<i32>) -> tensor<i1>
  %90 = tosa.cond_if %12 (%x_15 = %x_4, %x_64 = %x_5) : tensor<i1> (tensor<1x8xi32>, tensor<1x4x4xf32>) -> tensor<1x4x1xi32> {
  ^bb0(%x_15: tensor<1x8xi32>, %x_64: tensor<1x4x4xf32>):
    %13 = "tosa.const"() <{values = dense<[[-1, -45, -88, 63, 75, 84, -110, 56]]> : tensor<1x8xi32>}> : () -> tensor<1x8xi32>
    %14 = "tosa.const"() <{values = dense<[[[-1, -45, -88, 63, 75, 84, -110, 56]]]> : tensor<1x1x8xi32>}> : () -> tensor<1x1x8xi32>
    %17 = tosa.transpose %x_15 {perms = array<i32: 1, 0>} : (tensor<1x8xi32>) -> tensor<8x1xi32>
    %18 = tosa.const_shape {values = dense<[1, 8, 1]> : tensor<3xindex>} : () -> !tosa.shape<3>
    %19 = tosa.reshape %17, %18 : (tensor<8x1xi32>, !tosa.shape<3>) -> tensor<1x8x1xi32>
    %20 = "tosa.const"() <{values = dense<0> : tensor<1x1x1xi32>}> : () -> tensor<1x1x1xi32>
    %21 = linalg.batch_matmul ins(%14, %19 : tensor<1x1x8xi32>, tensor<1x8x1xi32>) outs(%20 : tensor<1x1x1xi32>) -> tensor<1x1x1xi32>
    %22 = tosa.const_shape {values = dense<[1, 1]> : tensor<2xindex>} : () -> !tosa.shape<2>
    %23 = tosa.reshape %21, %22 : (tensor<1x1x1xi32>, !tosa.shape<2>) -> tensor<1x1xi32>
    %24 = tosa.const_shape {values = dense<1> : tensor<1xindex>} : () -> !tosa.shape<1>
    %25 = tosa.reshape %23, %24 : (tensor<1x1xi32>, !tosa.shape<1>) -> tensor<1xi32>
    %26 = "tosa.const"() <{values = dense<0> : tensor<1x4x1xi32>}> : () -> tensor<1x4x1xi32>
    %27 = "tosa.const"() <{values = dense<-1> : tensor<1x1x1xi32>}> : () -> tensor<1x1x1xi32>
    %28 = tosa.equal %26, %20 : (tensor<1x4x1xi32>, tensor<1x1x1xi32>) -> tensor<1x4x1xi1>
    %29 = tosa.equal %26, %27 : (tensor<1x4x1xi32>, tensor<1x1x1xi32>) -> tensor<1x4x1xi1>
    %30 = tosa.logical_or %28, %29 : (tensor<1x4x1xi1>, tensor<1x4x1xi1>) -> tensor<1x4x1xi1>
    %31 = "tosa.const"() <{values = dense<1> : tensor<1x1x1xi32>}> : () -> tensor<1x1x1xi32>
    %32 = tosa.select %30, %31, %26 : (tensor<1x4x1xi1>, tensor<1x1x1xi32>, tensor<1x4x1xi32>) -> tensor<1x4x1xi32>
    %33 = tosa.const_shape {values = dense<[1, 1, 1]> : tensor<3xindex>} : () -> !tosa.shape<3>
    %34 = tosa.reshape %25, %33 : (tensor<1xi32>, !tosa.shape<3>) -> tensor<1x1x1xi32>
    %35 = tosa.intdiv %34, %32 : (tensor<1x1x1xi32>, tensor<1x4x1xi32>) -> tensor<1x4x1xi32>
    %36 = "tosa.const"() <{values = dense<0> : tensor<1xi32>}> : () -> tensor<1xi32>
    %37 = tosa.sub %36, %25 : (tensor<1xi32>, tensor<1xi32>) -> tensor<1xi32>
    %38 = tosa.reshape %37, %33 : (tensor<1xi32>, !tosa.shape<3>) -> tensor<1x1x1xi32>
    %39 = tosa.select %29, %38, %35 : (tensor<1x4x1xi1>, tensor<1x1x1xi32>, tensor<1x4x1xi32>) -> tensor<1x4x1xi32>
    %40 = tosa.select %28, %20, %39 : (tensor<1x4x1xi1>, tensor<1x1x1xi32>, tensor<1x4x1xi32>) -> tensor<1x4x1xi32>
    tosa.yield %40 : tensor<1x4x1xi32>
  } else {
  ^bb0(%x_16: tensor<1x8xi32>, %x_65: tensor<1x4x4xf32>):
    %41 = "tosa.const"() <{values = dense<[-5.5, 9.99999994e-09, 3.25, 4.0]> : tensor<4xf32>}> : () -> tensor<4xf32>
    %42 = "tosa.const"() <{values = dense<[[-5.5], [9.99999994e-09], [3.25], [4.0]]> : tensor<4x1xf32>}> : () -> tensor<4x1xf32>
    %43 = arith.constant dense<0.0> : tensor<4xf64>
    %44 = linalg.reduce ins(%42 : tensor<4x1xf32>) outs(%43 : tensor<4xf64>) dimensions = [1]
        (%45: f32, %46: f64) {
          %47 = arith.extf %45 : f32 to f64
          %48 = arith.addf %47, %46 : f64
          linalg.yield %48 : f64
        }
    %49 = arith.truncf %44 : tensor<4xf64> to tensor<4xf32>
    %50 = tosa.const_shape {values = dense<[4, 1]> : tensor<2xindex>} : () -> !tosa.shape<2>
    %51 = tosa.reshape %49, %50 : (tensor<4xf32>, !tosa.shape<2>) -> tensor<4x1xf32>
    %52 = tosa.const_shape {values = dense<4> : tensor<1xindex>} : () -> !tosa.shape<1>
    %53 = tosa.reshape %51, %52 : (tensor<4x1xf32>, !tosa.shape<1>) -> tensor<4xf32>
    %54 = "tosa.const"() <{values = dense<-7.5> : tensor<f32>}> : () -> tensor<f32>
    %55 = "tosa.const"() <{values = dense<[[-5.0, -23.5, 4.0, -25.5]]> : tensor<1x4xf32>}> : () -> tensor<1x4xf32>
    %56 = "tosa.const"() <{values = dense<-7.5> : tensor<1x1xf32>}> : () -> tensor<1x1xf32>
    %57 = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
    %58 = tosa.mul %56, %55, %57 : (tensor<1x1xf32>, tensor<1x4xf32>, tensor<1xi8>) -> tensor<1x4xf32>
    %59 = tosa.reverse %58 {axis = 1 : i32} : (tensor<1x4xf32>) -> tensor<1x4xf32>
    %60 = tosa.const_shape {values = dense<[1, 4]> : tensor<2xindex>} : () -> !tosa.shape<2>
    %61 = tosa.reshape %53, %60 : (tensor<4xf32>, !tosa.shape<2>) -> tensor<1x4xf32>
    %62 = tosa.pow %61, %59 : (tensor<1x4xf32>, tensor<1x4xf32>) -> tensor<1x4xf32>
    %63 = "tosa.const"() <{values = dense<0.0> : tensor<1x1x1xf32>}> : () -> tensor<1x1x1xf32>
    %66 = tosa.greater %63, %x_65 : (tensor<1x1x1xf32>, tensor<1x4x4xf32>) -> tensor<1x4x4xi1>
    %67 = tosa.ceil %x_65 : (tensor<1x4x4xf32>) -> tensor<1x4x4xf32>
    %68 = tosa.floor %x_65 : (tensor<1x4x4xf32>) -> tensor<1x4x4xf32>
    %69 = tosa.select %66, %67, %68 : (tensor<1x4x4xi1>, tensor<1x4x4xf32>, tensor<1x4x4xf32>) -> tensor<1x4x4xf32>
    %70 = tosa.cast %69 : (tensor<1x4x4xf32>) -> tensor<1x4x4xi32>
    %71 = tosa.equal %x_65, %x_65 : (tensor<1x4x4xf32>, tensor<1x4x4xf32>) -> tensor<1x4x4xi1>
    %72 = tosa.logical_not %71 : (tensor<1x4x4xi1>) -> tensor<1x4x4xi1>
    %73 = "tosa.const"() <{values = dense<0> : tensor<1x1x1xi32>}> : () -> tensor<1x1x1xi32>
    %74 = tosa.select %72, %73, %70 : (tensor<1x4x4xi1>, tensor<1x1x1xi32>, tensor<1x4x4xi32>) -> tensor<1x4x4xi32>
    %75 = "tosa.const"() <{values = dense<0.0> : tensor<1x1xf32>}> : () -> tensor<1x1xf32>
    %76 = tosa.greater %75, %62 : (tensor<1x1xf32>, tensor<1x4xf32>) -> tensor<1x4xi1>
    %77 = tosa.ceil %62 : (tensor<1x4xf32>) -> tensor<1x4xf32>
    %78 = tosa.floor %62 : (tensor<1x4xf32>) -> tensor<1x4xf32>
    %79 = tosa.select %76, %77, %78 : (tensor<1x4xi1>, tensor<1x4xf32>, tensor<1x4xf32>) -> tensor<1x4xf32>
    %80 = tosa.cast %79 : (tensor<1x4xf32>) -> tensor<1x4xi32>
    %81 = tosa.equal %62, %62 : (tensor<1x4xf32>, tensor<1x4xf32>) -> tensor<1x4xi1>
    %82 = tosa.logical_not %81 : (tensor<1x4xi1>) -> tensor<1x4xi1>
    %83 = "tosa.const"() <{values = dense<0> : tensor<1x1xi32>}> : () -> tensor<1x1xi32>
    %84 = tosa.select %82, %83, %80 : (tensor<1x4xi1>, tensor<1x1xi32>, tensor<1x4xi32>) -> tensor<1x4xi32>
    %85 = tosa.transpose %84 {perms = array<i32: 1, 0>} : (tensor<1x4xi32>) -> tensor<4x1xi32>
    %86 = tosa.const_shape {values = dense<[1, 4, 1]> : tensor<3xindex>} : () -> !tosa.shape<3>
    %87 = tosa.reshape %85, %86 : (tensor<4x1xi32>, !tosa.shape<3>) -> tensor<1x4x1xi32>
    %88 = "tosa.const"() <{values = dense<0> : tensor<1x4x1xi32>}> : () -> tensor<1x4x1xi32>
    %89 = linalg.batch_matmul ins(%74, %87 : tensor<1x4x4xi32>, tensor<1x4x1xi32>) outs(%88 : tensor<1x4x1xi32>) -> tensor<1x4x1xi32>
    tosa.yield %89 : tensor<1x4x1xi32>
  }
  return %90 : tensor<1x4x1xi32>
}
