func.func private @f0(%p_0: tensor<2x5x1x6xf32>) -> tensor<1x4x4x8xi1> {
  %1 = "tosa.const"() <{values = dense<[[[2.75, 3.25, -6.75, 6.25, 2.0, 5.5], [4.25, -8.0, -2.5, 6.75, -6.75, -8.0]], [[6.25, 9.25, -7.25, 2.0, -5.0, 4.75], [1.25, 2.75, -5.75, 6.75, -8.0, 1.75]], [[-4.5, -7.25, 4.5, -3.75, 6.5, -3.5], [-1.5, 3.75, 1.25, -4.0, 4.5, -2.5]], [[5.75, 3.75, 6.75, 1.5, 2.25, 3.5], [-7.25, -3.25, 5.5, 3.14159274, -1.25, -3.25]]]> : tensor<4x2x6xf32>}> : () -> tensor<4x2x6xf32>
  %2 = "tosa.const"() <{values = dense<41> : tensor<i32>}> : () -> tensor<i32>
  %3 = "tosa.const"() <{values = dense<[[[-2.25, 11.125, 24.5, 37.875]], [[51.25, 64.625, 78.0, 91.375]], [[104.75, 118.125, 131.5, 144.875]], [[158.25, 171.625, 185.0, 198.375]], [[211.75, 225.125, 238.5, 251.875]]]> : tensor<5x1x4xf32>}> : () -> tensor<5x1x4xf32>
  %4 = "tosa.const"() <{values = dense<-65> : tensor<i32>}> : () -> tensor<i32>
  %5 = tosa.equal %4, %4 : (tensor<i32>, tensor<i32>) -> tensor<i1>
  %6 = tosa.logical_not %5 : (tensor<i1>) -> tensor<i1>
  %7 = tosa.cast %6 : (tensor<i1>) -> tensor<i32>
  %8 = tosa.add %2, %7 : (tensor<i32>, tensor<i32>) -> tensor<i32>
  %9 = tosa.const_shape {values = dense<[1, 1, 1, 1]> : tensor<4xindex>} : () -> !tosa.shape<4>
  %10 = tosa.reshape %8, %9 : (tensor<i32>, !tosa.shape<4>) -> tensor<1x1x1x1xi32>
  %11 = tosa.const_shape {values = dense<[1, 4, 4, 8]> : tensor<4xindex>} : () -> !tosa.shape<4>
  %12 = tosa.tile %10, %11 : (tensor<1x1x1x1xi32>, !tosa.shape<4>) -> tensor<1x4x4x8xi32>
  %13 = tosa.reverse %12 {axis = 2 : i32} : (tensor<1x4x4x8xi32>) -> tensor<1x4x4x8xi32>
  %14 = tosa.cast %13 : (tensor<1x4x4x8xi32>) -> tensor<1x4x4x8xi1>
  return %14 : tensor<1x4x4x8xi1>
}
func.func private @f2(%p_17: tensor<2x8x6x1xi1>) -> tensor<2x5x3xf32> {
  %18 = "tosa.const"() <{values = dense<[[[2.75, -2.5, -5.25], [1.0, 4.5, -0.75], [0.75, 7.5, 7.0], [2.0, 2.0, -1.5], [0.25, -5.0, -0.25]], [[-0.75, -7.75, 7.5], [5.0, 7.75, 1.75], [3.0, 6.0, 3.5], [-7.5, -3.75, 0.0], [4.25, -5.75, 7.75]]]> : tensor<2x5x3xf32>}> : () -> tensor<2x5x3xf32>
  return %18 : tensor<2x5x3xf32>
}
func.func private @f1() -> tensor<2x5x3x8xf32> {
  %15 = "tosa.const"() <{values = dense<[[[8.75, 2.0, -4.75], [-11.5, -18.25, -25.0], [-31.75, -38.5, -45.25], [-52.0, -58.75, -65.5], [-72.25, -79.0, -85.75]], [[-92.5, -99.25, -106.0], [-112.75, -119.5, -126.25], [-133.0, -139.75, -146.5], [-153.25, -160.0, -166.75], [-173.5, -180.25, -187.0]]]> : tensor<2x5x3xf32>}> : () -> tensor<2x5x3xf32>
  %16 = "tosa.const"() <{values = dense<[[[5.5, 6.75, 0.75], [7.75, 3.0, -18.5], [3.5, 6.25, 2.25], [-26.0, 4.5, -1.5], [-2.0, 6.5, 4.75]], [[-5.5, -2.25, -7.5], [-1.5, -5.25, 0.25], [25.75, 6.0, -6.0], [-0.75, 4.0, 1.0], [1.0, -0.5, 1.0]]]> : tensor<2x5x3xf32>}> : () -> tensor<2x5x3xf32>
  %19 = "tosa.const"() <{values = dense<[[[[false, true], [false, true], [false, true], [false, true], [false, true], [false, true]], [[false, true], [false, true], [false, true], [false, true], [false, true], [false, true]], [[false, true], [false, true], [false, true], [false, true], [false, true], [false, true]], [[false, true], [false, true], [false, true], [false, true], [false, true], [false, true]], [[false, true], [false, true], [false, true], [false, true], [false, true], [false, true]], [[false, true], [false, true], [false, true], [false, true], [false, true], [false, true]], [[false, true], [false, true], [false, true], [false, true], [false, true], [false, true]], [[false, true], [false, true], [false, true], [false, true], [false, true], [false, true]]]]> : tensor<1x8x6x2xi1>}> : () -> tensor<1x8x6x2xi1>
  %20 = tosa.transpose %19 {perms = array<i32: 3, 1, 2, 0>} : (tensor<1x8x6x2xi1>) -> tensor<2x8x6x1xi1>
  %21 = func.call @f2(%20) : (tensor<2x8x6x1xi1>) -> tensor<2x5x3xf32>
  %22 = "tosa.const"() <{values = dense<[[[-1.75, -3.0, 4.0], [1.75, 0.5, 2.25], [7.5, 2.5, -0.75], [-4.5, -6.75, 6.25], [3.75, -6.25, -1.5]], [[5.25, 6.25, -6.0], [-5.5, -3.5, -5.25], [-2.5, -6.75, 0.75], [-2.0, -0.5, 0.5], [-6.5, 7.25, -0.75]]]> : tensor<2x5x3xf32>}> : () -> tensor<2x5x3xf32>
  %23 = "tosa.const"() <{values = dense<[[[1.25, 3.0, 1.0], [-3.5, 0.75, 2.5], [-7.0, -7.75, -3.5], [-4.5, -4.25, 2.5], [2.75, 2.5, -4.25]], [[-6.25, -2.25, -7.5], [-4.0, -5.5, 1.75], [4.75, -3.25, -2.5], [-3.75, 6.0, 0.0], [-0.5, 0.5, -2.0]]]> : tensor<2x5x3xf32>}> : () -> tensor<2x5x3xf32>
  %24 = "tosa.const"() <{values = dense<[[[1.75, -5.25, -12.25], [-19.25, -26.25, -33.25], [-40.25, -47.25, -54.25], [-61.25, -68.25, -75.25], [-82.25, -89.25, -96.25]], [[-103.25, -110.25, -117.25], [-124.25, -131.25, -138.25], [-145.25, -152.25, -159.25], [-166.25, -173.25, -180.25], [-187.25, -194.25, -201.25]]]> : tensor<2x5x3xf32>}> : () -> tensor<2x5x3xf32>
  %25 = "tosa.const"() <{values = dense<[[[29.0, 13.375, -2.25], [-17.875, -33.5, -49.125], [-64.75, -80.375, -96.0], [-111.625, -127.25, -142.875], [-158.5, -174.125, -189.75]], [[-205.375, -221.0, -236.625], [-252.25, -267.875, -283.5], [-299.125, -314.75, -330.375], [-346.0, -361.625, -377.25], [-392.875, -408.5, -424.125]]]> : tensor<2x5x3xf32>}> : () -> tensor<2x5x3xf32>
  %26 = "tosa.const"() <{values = dense<-15.25> : tensor<2x5x3xf32>}> : () -> tensor<2x5x3xf32>
  %27 = "tosa.const"() <{values = dense<[[[[8.75], [2.0], [-4.75]], [[-11.5], [-18.25], [-25.0]], [[-31.75], [-38.5], [-45.25]], [[-52.0], [-58.75], [-65.5]], [[-72.25], [-79.0], [-85.75]]], [[[-92.5], [-99.25], [-106.0]], [[-112.75], [-119.5], [-126.25]], [[-133.0], [-139.75], [-146.5]], [[-153.25], [-160.0], [-166.75]], [[-173.5], [-180.25], [-187.0]]]]> : tensor<2x5x3x1xf32>}> : () -> tensor<2x5x3x1xf32>
  %28 = "tosa.const"() <{values = dense<[[[[5.5], [6.75], [0.75]], [[7.75], [3.0], [-18.5]], [[3.5], [6.25], [2.25]], [[-26.0], [4.5], [-1.5]], [[-2.0], [6.5], [4.75]]], [[[-5.5], [-2.25], [-7.5]], [[-1.5], [-5.25], [0.25]], [[25.75], [6.0], [-6.0]], [[-0.75], [4.0], [1.0]], [[1.0], [-0.5], [1.0]]]]> : tensor<2x5x3x1xf32>}> : () -> tensor<2x5x3x1xf32>
  %29 = tosa.const_shape {values = dense<[2, 5, 3, 1]> : tensor<4xindex>} : () -> !tosa.shape<4>
  %30 = tosa.reshape %21, %29 : (tensor<2x5x3xf32>, !tosa.shape<4>) -> tensor<2x5x3x1xf32>
  %31 = "tosa.const"() <{values = dense<[[[[-1.75], [-3.0], [4.0]], [[1.75], [0.5], [2.25]], [[7.5], [2.5], [-0.75]], [[-4.5], [-6.75], [6.25]], [[3.75], [-6.25], [-1.5]]], [[[5.25], [6.25], [-6.0]], [[-5.5], [-3.5], [-5.25]], [[-2.5], [-6.75], [0.75]], [[-2.0], [-0.5], [0.5]], [[-6.5], [7.25], [-0.75]]]]> : tensor<2x5x3x1xf32>}> : () -> tensor<2x5x3x1xf32>
  %32 = "tosa.const"() <{values = dense<[[[[1.25], [3.0], [1.0]], [[-3.5], [0.75], [2.5]], [[-7.0], [-7.75], [-3.5]], [[-4.5], [-4.25], [2.5]], [[2.75], [2.5], [-4.25]]], [[[-6.25], [-2.25], [-7.5]], [[-4.0], [-5.5], [1.75]], [[4.75], [-3.25], [-2.5]], [[-3.75], [6.0], [0.0]], [[-0.5], [0.5], [-2.0]]]]> : tensor<2x5x3x1xf32>}> : () -> tensor<2x5x3x1xf32>
  %33 = "tosa.const"() <{values = dense<[[[[1.75], [-5.25], [-12.25]], [[-19.25], [-26.25], [-33.25]], [[-40.25], [-47.25], [-54.25]], [[-61.25], [-68.25], [-75.25]], [[-82.25], [-89.25], [-96.25]]], [[[-103.25], [-110.25], [-117.25]], [[-124.25], [-131.25], [-138.25]], [[-145.25], [-152.25], [-159.25]], [[-166.25], [-173.25], [-180.25]], [[-187.25], [-194.25], [-201.25]]]]> : tensor<2x5x3x1xf32>}> : () -> tensor<2x5x3x1xf32>
  %34 = "tosa.const"() <{values = dense<[[[[29.0], [13.375], [-2.25]], [[-17.875], [-33.5], [-49.125]], [[-64.75], [-80.375], [-96.0]], [[-111.625], [-127.25], [-142.875]], [[-158.5], [-174.125], [-189.75]]], [[[-205.375], [-221.0], [-236.625]], [[-252.25], [-267.875], [-283.5]], [[-299.125], [-314.75], [-330.375]], [[-346.0], [-361.625], [-377.25]], [[-392.875], [-408.5], [-424.125]]]]> : tensor<2x5x3x1xf32>}> : () -> tensor<2x5x3x1xf32>
  %35 = "tosa.const"() <{values = dense<-15.25> : tensor<2x5x3x1xf32>}> : () -> tensor<2x5x3x1xf32>
  %36 = tosa.concat %27, %28, %30, %31, %32, %33, %34, %35 {axis = 3 : i32} : (tensor<2x5x3x1xf32>, tensor<2x5x3x1xf32>, tensor<2x5x3x1xf32>, tensor<2x5x3x1xf32>, tensor<2x5x3x1xf32>, tensor<2x5x3x1xf32>, tensor<2x5x3x1xf32>, tensor<2x5x3x1xf32>) -> tensor<2x5x3x8xf32>
  return %36 : tensor<2x5x3x8xf32>
}
func.func @main() -> tensor<4x1x4xi32> {
  %37 = func.call @f1() : () -> tensor<2x5x3x8xf32>
  %38 = tosa.const_shape {values = dense<[30, 8]> : tensor<2xindex>} : () -> !tosa.shape<2>
  %39 = tosa.reshape %37, %38 : (tensor<2x5x3x8xf32>, !tosa.shape<2>) -> tensor<30x8xf32>
  %40 = tosa.const_shape {values = dense<[0, 0, 6, 6]> : tensor<4xindex>} : () -> !tosa.shape<4>
  %41 = "tosa.const"() <{values = dense<0xFF800000> : tensor<1xf32>}> : () -> tensor<1xf32>
  %42 = tosa.pad %39, %40, %41 : (tensor<30x8xf32>, !tosa.shape<4>, tensor<1xf32>) -> tensor<30x20xf32>
  %43 = tosa.const_shape {values = dense<[2, 5, 3, 20]> : tensor<4xindex>} : () -> !tosa.shape<4>
  %44 = tosa.reshape %42, %43 : (tensor<30x20xf32>, !tosa.shape<4>) -> tensor<2x5x3x20xf32>
  %45 = tensor.empty() : tensor<1x5xf32>
  %46 = "tosa.const"() <{values = dense<0xFF800000> : tensor<2x5x3x8xf32>}> : () -> tensor<2x5x3x8xf32>
  %47 = linalg.pooling_nchw_max {dilations = dense<[7, 3]> : tensor<2xi64>, strides = dense<[1, 1]> : tensor<2xi64>} ins(%44, %45 : tensor<2x5x3x20xf32>, tensor<1x5xf32>) outs(%46 : tensor<2x5x3x8xf32>) -> tensor<2x5x3x8xf32>
  %48 = tosa.const_shape {values = dense<[10, 3, 8]> : tensor<3xindex>} : () -> !tosa.shape<3>
  %49 = tosa.reshape %47, %48 : (tensor<2x5x3x8xf32>, !tosa.shape<3>) -> tensor<10x3x8xf32>
  %50 = tosa.const_shape {values = dense<[0, 0, 6, 4, 17, 16]> : tensor<6xindex>} : () -> !tosa.shape<6>
  %51 = tosa.pad %49, %50, %41 : (tensor<10x3x8xf32>, !tosa.shape<6>, tensor<1xf32>) -> tensor<10x13x41xf32>
  %52 = tosa.const_shape {values = dense<[2, 5, 13, 41]> : tensor<4xindex>} : () -> !tosa.shape<4>
  %53 = tosa.reshape %51, %52 : (tensor<10x13x41xf32>, !tosa.shape<4>) -> tensor<2x5x13x41xf32>
  %54 = tensor.empty() : tensor<7x8xf32>
  %55 = "tosa.const"() <{values = dense<0xFF800000> : tensor<2x5x1x6xf32>}> : () -> tensor<2x5x1x6xf32>
  %56 = linalg.pooling_nchw_max {dilations = dense<[2, 5]> : tensor<2xi64>, strides = dense<[4, 1]> : tensor<2xi64>} ins(%53, %54 : tensor<2x5x13x41xf32>, tensor<7x8xf32>) outs(%55 : tensor<2x5x1x6xf32>) -> tensor<2x5x1x6xf32>
  %57 = tosa.identity %56 : (tensor<2x5x1x6xf32>) -> tensor<2x5x1x6xf32>
  %58 = func.call @f0(%57) : (tensor<2x5x1x6xf32>) -> tensor<1x4x4x8xi1>
  %59 = tosa.cast %58 : (tensor<1x4x4x8xi1>) -> tensor<1x4x4x8xi32>
  %60 = tosa.const_shape {values = dense<[4, 4, 8]> : tensor<3xindex>} : () -> !tosa.shape<3>
  %61 = tosa.reshape %59, %60 : (tensor<1x4x4x8xi32>, !tosa.shape<3>) -> tensor<4x4x8xi32>
  %62 = tosa.const_shape {values = dense<[0, 0, 1, 1, 9, 10]> : tensor<6xindex>} : () -> !tosa.shape<6>
  %63 = "tosa.const"() <{values = dense<-2147483648> : tensor<1xi32>}> : () -> tensor<1xi32>
  %64 = tosa.pad %61, %62, %63 : (tensor<4x4x8xi32>, !tosa.shape<6>, tensor<1xi32>) -> tensor<4x6x27xi32>
  %65 = tosa.const_shape {values = dense<[1, 4, 6, 27]> : tensor<4xindex>} : () -> !tosa.shape<4>
  %66 = tosa.reshape %64, %65 : (tensor<4x6x27xi32>, !tosa.shape<4>) -> tensor<1x4x6x27xi32>
  %67 = tensor.empty() : tensor<2x5xi32>
  %68 = "tosa.const"() <{values = dense<-2147483648> : tensor<1x4x1x4xi32>}> : () -> tensor<1x4x1x4xi32>
  %69 = linalg.pooling_nchw_max {dilations = dense<[5, 5]> : tensor<2xi64>, strides = dense<[3, 2]> : tensor<2xi64>} ins(%66, %67 : tensor<1x4x6x27xi32>, tensor<2x5xi32>) outs(%68 : tensor<1x4x1x4xi32>) -> tensor<1x4x1x4xi32>
  %70 = tosa.const_shape {values = dense<[4, 1, 4]> : tensor<3xindex>} : () -> !tosa.shape<3>
  %71 = tosa.reshape %69, %70 : (tensor<1x4x1x4xi32>, !tosa.shape<3>) -> tensor<4x1x4xi32>
  return %71 : tensor<4x1x4xi32>
}
