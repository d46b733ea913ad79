func.func @main(%x_0: tensor<4xi32>, %x_1: tensor<i1>, %x_2: tensor<i1>, %x_3: tensor<1x1xi32>, %x_4: tensor<4x1x2xi32>, %x_5: tensor<4x1xi32>) -> tensor<1x1xi1> {
  %6 = "tosa.const"() <{values = dense<0> : tensor<1xi32>}> : () -> tensor<1xi32>
  %7 = tosa.sub %6, %x_0 : (tensor<1xi32>, tensor<4xi32>) -> tensor<4xi32>
  %8 = tosa.reduce_sum %7 {axis = 0 : i32} : (tensor<4xi32>) -> tensor<1xi32>
  %9 = tosa.const_shape {values = dense<> : tensor<0xindex>} : () -> !tosa.shape<0>
  %x_10 = tosa.reshape %8, %9 : (tensor<1xi32>, !tosa.shape<0>) -> tensor<i32>
  %11 = "tosa.const"() <{values = dense<-17> : tensor<i32>}> : () -> tensor<i32>
  %12 = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
  %13 = tosa.mul %11, %x_10, %12 : (tensor<i32>, tensor<i32>, tensor<1xi8>) -> tensor<i32>
  %14 = tosa.logical_or %x_1, %x_1 : (tensor<i1>, tensor<i1>) -> tensor<i1>
  %17 = tosa.cond_if %14 (%x_15 = %x_0) : tensor<i1> (tensor<4xi32>) -> tensor<4xi32> {
  ^bb0(%x_15: tensor<4xi32>):
    tosa.yield %x_15 : tensor<4xi32>
  } else {
  ^bb0(%x_16: tensor<4xi32>):
    tosa.yield %x_16 : tensor<4xi32>
  }
  %18 = tosa.const_shape {values = dense<0> : tensor<1xindex>} : () -> !tosa.shape<1>
  %19 = tosa.const_shape {values = dense<2> : tensor<1xindex>} : () -> !tosa.shape<1>
  %20 = tosa.slice %17, %18, %19 : (tensor<4xi32>, !tosa.shape<1>, !tosa.shape<1>) -> tensor<2xi32>
  %21 = tosa.slice %17, %19, %19 : (tensor<4xi32>, !tosa.shape<1>, !tosa.shape<1>) -> tensor<2xi32>
  %22 = tosa.const_shape {values = dense<[2, 1]> : tensor<2xindex>} : () -> !tosa.shape<2>
  %23 = tosa.reshape %20, %22 : (tensor<2xi32>, !tosa.shape<2>) -> tensor<2x1xi32>
  %24 = tosa.reshape %21, %22 : (tensor<2xi32>, !tosa.shape<2>) -> tensor<2x1xi32>
  %25 = tosa.concat %23, %24 {axis = 1 : i32} : (tensor<2x1xi32>, tensor<2x1xi32>) -> tensor<2x2xi32>
  %26 = "tosa.const"() <{values = dense<1> : tensor<2x2xi32>}> : () -> tensor<2x2xi32>
  %27 = "tosa.const"() <{values = dense<0> : tensor<1x1xi32>}> : () -> tensor<1x1xi32>
  %28 = "tosa.const"() <{values = dense<-1> : tensor<1x1xi32>}> : () -> tensor<1x1xi32>
  %29 = tosa.equal %26, %27 : (tensor<2x2xi32>, tensor<1x1xi32>) -> tensor<2x2xi1>
  %30 = tosa.equal %26, %28 : (tensor<2x2xi32>, tensor<1x1xi32>) -> tensor<2x2xi1>
  %31 = tosa.logical_or %29, %30 : (tensor<2x2xi1>, tensor<2x2xi1>) -> tensor<2x2xi1>
  %32 = "tosa.const"() <{values = dense<1> : tensor<1x1xi32>}> : () -> tensor<1x1xi32>
  %33 = tosa.select %31, %32, %26 : (tensor<2x2xi1>, tensor<1x1xi32>, tensor<2x2xi32>) -> tensor<2x2xi32>
  %34 = tosa.const_shape {values = dense<[1, 1]> : tensor<2xindex>} : () -> !tosa.shape<2>
  %35 = tosa.reshape %13, %34 : (tensor<i32>, !tosa.shape<2>) -> tensor<1x1xi32>
  %36 = tosa.intdiv %35, %33 : (tensor<1x1xi32>, tensor<2x2xi32>) -> tensor<2x2xi32>
  %37 = "tosa.const"() <{values = dense<0> : tensor<i32>}> : () -> tensor<i32>
  %38 = tosa.sub %37, %13 : (tensor<i32>, tensor<i32>) -> tensor<i32>
  %39 = tosa.reshape %38, %34 : (tensor<i32>, !tosa.shape<2>) -> tensor<1x1xi32>
  %40 = tosa.select %30, %39, %36 : (tensor<2x2xi1>, tensor<1x1xi32>, tensor<2x2xi32>) -> tensor<2x2xi32>
  %x_41 = tosa.select %29, %27, %40 : (tensor<2x2xi1>, tensor<1x1xi32>, tensor<2x2xi32>) -> tensor<2x2xi32>
  %x_45 = tosa.cond_if %x_2 (%x_42 = %x_3) : tensor<i1> (tensor<1x1xi32>) -> tensor<1x1xi32> {
  ^bb0(%x_42: tensor<1x1xi32>):
    tosa.yield %x_42 : tensor<1x1xi32>
  } else {
  ^bb0(%x_43: tensor<1x1xi32>):
    %44 = "tosa.const"() <{values = dense<-33> : tensor<1x1xi32>}> : () -> tensor<1x1xi32>
    tosa.yield %44 : tensor<1x1xi32>
  }
  %46 = "tosa.const"() <{values = dense<[[-22], [-28], [12], [-9]]> : tensor<4x1xi32>}> : () -> tensor<4x1xi32>
  %47 = "tosa.const"() <{values = dense<[[[-22]], [[-28]], [[12]], [[-9]]]> : tensor<4x1x1xi32>}> : () -> tensor<4x1x1xi32>
  %48 = tosa.const_shape {values = dense<[4, 1, 1]> : tensor<3xindex>} : () -> !tosa.shape<3>
  %49 = tosa.reshape %x_5, %48 : (tensor<4x1xi32>, !tosa.shape<3>) -> tensor<4x1x1xi32>
  %50 = tosa.concat %47, %49 {axis = 2 : i32} : (tensor<4x1x1xi32>, tensor<4x1x1xi32>) -> tensor<4x1x2xi32>
  %x_51 = tosa.add %50, %x_4 : (tensor<4x1x2xi32>, tensor<4x1x2xi32>) -> tensor<4x1x2xi32>
  %52 = "tosa.const"() <{values = dense<-34> : tensor<1xi32>}> : () -> tensor<1xi32>
  %53 = "tosa.const"() <{values = dense<-34> : tensor<1x1xi32>}> : () -> tensor<1x1xi32>
  %54 = "tosa.const"() <{values = dense<29> : tensor<i32>}> : () -> tensor<i32>
  %55 = tosa.const_shape {values = dense<[1, 8, 1]> : tensor<3xindex>} : () -> !tosa.shape<3>
  %56 = tosa.reshape %x_51, %55 : (tensor<4x1x2xi32>, !tosa.shape<3>) -> tensor<1x8x1xi32>
  %57 = tosa.maximum %54, %37 : (tensor<i32>, tensor<i32>) -> tensor<i32>
  %58 = "tosa.const"() <{values = dense<7> : tensor<i32>}> : () -> tensor<i32>
  %59 = tosa.minimum %57, %58 : (tensor<i32>, tensor<i32>) -> tensor<i32>
  %60 = tosa.reshape %59, %34 : (tensor<i32>, !tosa.shape<2>) -> tensor<1x1xi32>
  %61 = tosa.gather %56, %60 : (tensor<1x8x1xi32>, tensor<1x1xi32>) -> tensor<1x1x1xi32>
  %62 = tosa.reshape %61, %9 : (tensor<1x1x1xi32>, !tosa.shape<0>) -> tensor<i32>
  %63 = tosa.reshape %62, %34 : (tensor<i32>, !tosa.shape<2>) -> tensor<1x1xi32>
  %64 = tosa.add %53, %63 : (tensor<1x1xi32>, tensor<1x1xi32>) -> tensor<1x1xi32>
  %65 = tosa.mul %27, %x_45, %12 : (tensor<1x1xi32>, tensor<1x1xi32>, tensor<1xi8>) -> tensor<1x1xi32>
  %66 = tosa.cast %65 : (tensor<1x1xi32>) -> tensor<1x1xi1>
  return %66 : tensor<1x1xi1>
}
