func.func @main(%x_0: tensor<f32>, %x_1: tensor<4x1xi32>, %x_2: tensor<1x1xi32>, %x_3: tensor<i32>, %x_4: tensor<1x3xi32>) -> tensor<4xi32> {
  %5 = tosa.ceil %x_0 : (tensor<f32>) -> tensor<f32>
  %6 = "tosa.const"() <{values = dense<0.0> : tensor<f32>}> : () -> tensor<f32>
  %7 = tosa.greater %6, %5 : (tensor<f32>, tensor<f32>) -> tensor<i1>
  %8 = tosa.ceil %5 : (tensor<f32>) -> tensor<f32>
  %9 = tosa.floor %5 : (tensor<f32>) -> tensor<f32>
  %10 = tosa.select %7, %8, %9 : (tensor<i1>, tensor<f32>, tensor<f32>) -> tensor<f32>
  %11 = tosa.cast %10 : (tensor<f32>) -> tensor<i32>
  %12 = tosa.equal %5, %5 : (tensor<f32>, tensor<f32>) -> tensor<i1>
  %13 = tosa.logical_not %12 : (tensor<i1>) -> tensor<i1>
  %14 = "tosa.const"() <{values = dense<0> : tensor<i32>}> : () -> tensor<i32>
  %15 = tosa.select %13, %14, %11 : (tensor<i1>, tensor<i32>, tensor<i32>) -> tensor<i32>
  %16 = tosa.abs %15 : (tensor<i32>) -> tensor<i32>
  %17 = tosa.sub %14, %14 : (tensor<i32>, tensor<i32>) -> tensor<i32>
  %18 = "tosa.const"() <{values = dense<-6> : tensor<i32>}> : () -> tensor<i32>
  %19 = tosa.maximum %14, %18 : (tensor<i32>, tensor<i32>) -> tensor<i32>
  %20 = "tosa.const"() <{values = dense<2147483647> : tensor<i32>}> : () -> tensor<i32>
  %21 = tosa.minimum %19, %20 : (tensor<i32>, tensor<i32>) -> tensor<i32>
  %22 = tosa.maximum %21, %18 : (tensor<i32>, tensor<i32>) -> tensor<i32>
  %23 = "tosa.const"() <{values = dense<-1> : tensor<i32>}> : () -> tensor<i32>
  %24 = tosa.minimum %22, %23 : (tensor<i32>, tensor<i32>) -> tensor<i32>
  %25 = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
  %26 = tosa.mul %16, %24, %25 : (tensor<i32>, tensor<i32>, tensor<1xi8>) -> tensor<i32>
  %27 = tosa.const_shape {values = dense<1> : tensor<1xindex>} : () -> !tosa.shape<1>
  %28 = tosa.reshape %26, %27 : (tensor<i32>, !tosa.shape<1>) -> tensor<1xi32>
  %29 = tosa.const_shape {values = dense<3> : tensor<1xindex>} : () -> !tosa.shape<1>
  %30 = tosa.tile %28, %29 : (tensor<1xi32>, !tosa.shape<1>) -> tensor<3xi32>
  %31 = tosa.reverse %30 {axis = 0 : i32} : (tensor<3xi32>) -> tensor<3xi32>
  %32 = "tosa.const"() <{values = dense<0> : tensor<1x1xi32>}> : () -> tensor<1x1xi32>
  %33 = "tosa.const"() <{values = dense<-1> : tensor<1x1xi32>}> : () -> tensor<1x1xi32>
  %34 = tosa.equal %x_2, %32 : (tensor<1x1xi32>, tensor<1x1xi32>) -> tensor<1x1xi1>
  %35 = tosa.equal %x_2, %33 : (tensor<1x1xi32>, tensor<1x1xi32>) -> tensor<1x1xi1>
  %36 = tosa.logical_or %34, %35 : (tensor<1x1xi1>, tensor<1x1xi1>) -> tensor<1x1xi1>
  %37 = "tosa.const"() <{values = dense<1> : tensor<1x1xi32>}> : () -> tensor<1x1xi32>
  %38 = tosa.select %36, %37, %x_2 : (tensor<1x1xi1>, tensor<1x1xi32>, tensor<1x1xi32>) -> tensor<1x1xi32>
  %39 = tosa.intdiv %x_1, %38 : (tensor<4x1xi32>, tensor<1x1xi32>) -> tensor<4x1xi32>
  %40 = tosa.sub %32, %x_1 : (tensor<1x1xi32>, tensor<4x1xi32>) -> tensor<4x1xi32>
  %41 = tosa.select %35, %40, %39 : (tensor<1x1xi1>, tensor<4x1xi32>, tensor<4x1xi32>) -> tensor<4x1xi32>
  %42 = tosa.select %34, %32, %41 : (tensor<1x1xi1>, tensor<1x1xi32>, tensor<4x1xi32>) -> tensor<4x1xi32>
  %43 = tosa.equal %x_4, %32 : (tensor<1x3xi32>, tensor<1x1xi32>) -> tensor<1x3xi1>
  %44 = tosa.equal %x_4, %33 : (tensor<1x3xi32>, tensor<1x1xi32>) -> tensor<1x3xi1>
  %45 = tosa.logical_or %43, %44 : (tensor<1x3xi1>, tensor<1x3xi1>) -> tensor<1x3xi1>
  %46 = tosa.select %45, %37, %x_4 : (tensor<1x3xi1>, tensor<1x1xi32>, tensor<1x3xi32>) -> tensor<1x3xi32>
  %47 = tosa.const_shape {values = dense<[1, 1]> : tensor<2xindex>} : () -> !tosa.shape<2>
  %48 = tosa.reshape %x_3, %47 : (tensor<i32>, !tosa.shape<2>) -> tensor<1x1xi32>
  %49 = tosa.intdiv %48, %46 : (tensor<1x1xi32>, tensor<1x3xi32>) -> tensor<1x3xi32>
  %50 = tosa.sub %14, %x_3 : (tensor<i32>, tensor<i32>) -> tensor<i32>
  %51 = tosa.reshape %50, %47 : (tensor<i32>, !tosa.shape<2>) -> tensor<1x1xi32>
  %52 = tosa.select %44, %51, %49 : (tensor<1x3xi1>, tensor<1x1xi32>, tensor<1x3xi32>) -> tensor<1x3xi32>
  %53 = tosa.select %43, %32, %52 : (tensor<1x3xi1>, tensor<1x1xi32>, tensor<1x3xi32>) -> tensor<1x3xi32>
  %54 = tosa.equal %53, %32 : (tensor<1x3xi32>, tensor<1x1xi32>) -> tensor<1x3xi1>
  %55 = tosa.equal %53, %33 : (tensor<1x3xi32>, tensor<1x1xi32>) -> tensor<1x3xi1>
  %56 = tosa.logical_or %54, %55 : (tensor<1x3xi1>, tensor<1x3xi1>) -> tensor<1x3xi1>
  %57 = tosa.select %56, %37, %53 : (tensor<1x3xi1>, tensor<1x1xi32>, tensor<1x3xi32>) -> tensor<1x3xi32>
  %58 = tosa.intdiv %42, %57 : (tensor<4x1xi32>, tensor<1x3xi32>) -> tensor<4x3xi32>
  %59 = tosa.sub %32, %42 : (tensor<1x1xi32>, tensor<4x1xi32>) -> tensor<4x1xi32>
  %60 = tosa.select %55, %59, %58 : (tensor<1x3xi1>, tensor<4x1xi32>, tensor<4x3xi32>) -> tensor<4x3xi32>
  %61 = tosa.select %54, %32, %60 : (tensor<1x3xi1>, tensor<1x1xi32>, tensor<4x3xi32>) -> tensor<4x3xi32>
  %62 = tosa.const_shape {values = dense<[1, 1, 3]> : tensor<3xindex>} : () -> !tosa.shape<3>
  %63 = tosa.reshape %31, %62 : (tensor<3xi32>, !tosa.shape<3>) -> tensor<1x1x3xi32>
  %64 = tosa.transpose %61 {perms = array<i32: 1, 0>} : (tensor<4x3xi32>) -> tensor<3x4xi32>
  %65 = tosa.const_shape {values = dense<[1, 3, 4]> : tensor<3xindex>} : () -> !tosa.shape<3>
  %66 = tosa.reshape %64, %65 : (tensor<3x4xi32>, !tosa.shape<3>) -> tensor<1x3x4xi32>
  %67 = "tosa.const"() <{values = dense<0> : tensor<1x1x4xi32>}> : () -> tensor<1x1x4xi32>
  %68 = linalg.batch_matmul ins(%63, %66 : tensor<1x1x3xi32>, tensor<1x3x4xi32>) outs(%67 : tensor<1x1x4xi32>) -> tensor<1x1x4xi32>
  %69 = tosa.const_shape {values = dense<4> : tensor<1xindex>} : () -> !tosa.shape<1>
  %70 = tosa.reshape %68, %69 : (tensor<1x1x4xi32>, !tosa.shape<1>) -> tensor<4xi32>
  %71 = tosa.reverse %70 {axis = 0 : i32} : (tensor<4xi32>) -> tensor<4xi32>
  return %71 : tensor<4xi32>
}
