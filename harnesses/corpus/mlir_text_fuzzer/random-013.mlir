func.func private @f1(%p_1: tensor<4x1x4x8xi32>, %p_2: tensor<1x7xi1>, %p_3: tensor<1x1xi1>) -> tensor<i32> {
  %4 = "tosa.const"() <{values = dense<true> : tensor<i1>}> : () -> tensor<i1>
  %7 = tosa.cond_if %4 : tensor<i1> -> tensor<i32> {
    %5 = "tosa.const"() <{values = dense<-73> : tensor<i32>}> : () -> tensor<i32>
    tosa.yield %5 : tensor<i32>
  } else {
    %6 = "tosa.const"() <{values = dense<-85> : tensor<i32>}> : () -> tensor<i32>
    tosa.yield %6 : tensor<i32>
  }
  return %7 : tensor<i32>
}
func.func private @f2(%p_9: tensor<4x7x1x5xf32>, %p_10: tensor<1x3xi32>, %p_11: tensor<i1>) -> tensor<4x1x4xi32> {
  %12 = "tosa.const"() <{values = dense<[[[4, 41, -58, -53]], [[-11, -59, 1, 3]], [[-78, 16, 43, -79]], [[-105, -112, -36, -110]]]> : tensor<4x1x4xi32>}> : () -> tensor<4x1x4xi32>
  %13 = tosa.identity %12 : (tensor<4x1x4xi32>) -> tensor<4x1x4xi32>
  return %13 : tensor<4x1x4xi32>
}
func.func private @f0() -> tensor<i1> {
  %8 = "tosa.const"() <{values = dense<[[[-5, 12, -18, -17]], [[-21, 24, -16, -6]], [[27, 15, -24, -23]], [[-10, -5, 30, -22]]]> : tensor<4x1x4xi32>}> : () -> tensor<4x1x4xi32>
  %14 = "tosa.const"() <{values = dense<[[[[-3.5, 3.0, 5.5, 6.0, -15.5]], [[3.0, -3.75, -4.25, -7.5, -1.5]], [[4.25, -4.5, -1.75, 0.5, 4.0]], [[0.0, 6.5, 2.5, -4.25, -7.5]], [[-6.5, -1.0, 2.75, -1.5, 0.25]], [[1.0, 0.25, -3.0, -0.75, 5.75]], [[1.0, -2.75, -3.0, -3.0, 0.75]]], [[[5.0, -3.0, 0.75, 6.0, 3.25]], [[4.5, -2.75, 0.75, -6.0, -1.75]], [[4.0, 1.0, 3.25, -4.0, 2.0]], [[-5.0, 7.0, 5.5, 7.25, -2.75]], [[-2.25, 4.75, -5.25, 3.5, 4.5]], [[-2.25, 5.75, 4.25, -4.5, -7.25]], [[2.25, 5.0, -6.5, -4.0, 12.25]]], [[[-3.0, 5.5, 2.75, 23.25, 6.5]], [[-4.25, 5.5, 7.25, -3.25, -4.75]], [[2.75, 6.75, -7.5, 5.25, 6.0]], [[-6.5, -2.0, 4.75, 2.5, 0.25]], [[-6.25, -3.5, 5.0, 4.0, -2.5]], [[-6.75, 1.5, 4.5, -8.0, 2.75]], [[1.5, 1.75, -1.0, 5.0, 6.0]]], [[[-5.0, -5.5, 6.75, 4.0, -3.75]], [[-6.5, 7.5, 6.25, 6.5, -5.0]], [[0.75, 7.75, 6.25, 6.25, -5.25]], [[-1.5, -0.5, 7.0, -8.0, 2.0]], [[-1.25, -2.25, 7.5, 0.5, 6.75]], [[5.75, 19.75, 7.25, 3.0, -6.25]], [[3.0, -6.25, -2.25, 3.5, -1.25]]]]> : tensor<4x7x1x5xf32>}> : () -> tensor<4x7x1x5xf32>
  %15 = "tosa.const"() <{values = dense<[[12, 28, 7]]> : tensor<1x3xi32>}> : () -> tensor<1x3xi32>
  %16 = "tosa.const"() <{values = dense<false> : tensor<i1>}> : () -> tensor<i1>
  %17 = func.call @f2(%14, %15, %16) : (tensor<4x7x1x5xf32>, tensor<1x3xi32>, tensor<i1>) -> tensor<4x1x4xi32>
  %18 = "tosa.const"() <{values = dense<[[[28, 75, -66, -87]], [[76, 69, -37, -93]], [[-128, 255, 69, 96]], [[-23, -51, -103, -100]]]> : tensor<4x1x4xi32>}> : () -> tensor<4x1x4xi32>
  %19 = "tosa.const"() <{values = dense<[[[109, 62, 15, -32]], [[-79, -126, -173, -220]], [[-267, -314, -361, -408]], [[-455, -502, -549, -596]]]> : tensor<4x1x4xi32>}> : () -> tensor<4x1x4xi32>
  %20 = "tosa.const"() <{values = dense<[[[-21, 39, -99, 58]], [[57, 127, 28, -80]], [[39, -57, -27, -105]], [[15, 103, -46, -52]]]> : tensor<4x1x4xi32>}> : () -> tensor<4x1x4xi32>
  %21 = "tosa.const"() <{values = dense<[[[39, -9, -100, 62]], [[-60, -102, 34, 93]], [[38, 15, -12, -77]], [[-46, -33, 65535, 16]]]> : tensor<4x1x4xi32>}> : () -> tensor<4x1x4xi32>
  %22 = "tosa.const"() <{values = dense<[[[-1, 100, 0, -40]], [[-48, 24, -17, 63]], [[3, -63, 255, -67]], [[93, 26, -76, -92]]]> : tensor<4x1x4xi32>}> : () -> tensor<4x1x4xi32>
  %23 = "tosa.const"() <{values = dense<0> : tensor<4x1x4xi32>}> : () -> tensor<4x1x4xi32>
  %24 = "tosa.const"() <{values = dense<[[[[-5], [12], [-18], [-17]]], [[[-21], [24], [-16], [-6]]], [[[27], [15], [-24], [-23]]], [[[-10], [-5], [30], [-22]]]]> : tensor<4x1x4x1xi32>}> : () -> tensor<4x1x4x1xi32>
  %25 = tosa.const_shape {values = dense<[4, 1, 4, 1]> : tensor<4xindex>} : () -> !tosa.shape<4>
  %26 = tosa.reshape %17, %25 : (tensor<4x1x4xi32>, !tosa.shape<4>) -> tensor<4x1x4x1xi32>
  %27 = "tosa.const"() <{values = dense<[[[[28], [75], [-66], [-87]]], [[[76], [69], [-37], [-93]]], [[[-128], [255], [69], [96]]], [[[-23], [-51], [-103], [-100]]]]> : tensor<4x1x4x1xi32>}> : () -> tensor<4x1x4x1xi32>
  %28 = "tosa.const"() <{values = dense<[[[[109], [62], [15], [-32]]], [[[-79], [-126], [-173], [-220]]], [[[-267], [-314], [-361], [-408]]], [[[-455], [-502], [-549], [-596]]]]> : tensor<4x1x4x1xi32>}> : () -> tensor<4x1x4x1xi32>
  %29 = "tosa.const"() <{values = dense<[[[[-21], [39], [-99], [58]]], [[[57], [127], [28], [-80]]], [[[39], [-57], [-27], [-105]]], [[[15], [103], [-46], [-52]]]]> : tensor<4x1x4x1xi32>}> : () -> tensor<4x1x4x1xi32>
  %30 = "tosa.const"() <{values = dense<[[[[39], [-9], [-100], [62]]], [[[-60], [-102], [34], [93]]], [[[38], [15], [-12], [-77]]], [[[-46], [-33], [65535], [16]]]]> : tensor<4x1x4x1xi32>}> : () -> tensor<4x1x4x1xi32>
  %31 = "tosa.const"() <{values = dense<[[[[-1], [100], [0], [-40]]], [[[-48], [24], [-17], [63]]], [[[3], [-63], [255], [-67]]], [[[93], [26], [-76], [-92]]]]> : tensor<4x1x4x1xi32>}> : () -> tensor<4x1x4x1xi32>
  %32 = "tosa.const"() <{values = dense<0> : tensor<4x1x4x1xi32>}> : () -> tensor<4x1x4x1xi32>
  %33 = tosa.concat %24, %26, %27, %28, %29, %30, %31, %32 {axis = 3 : i32} : (tensor<4x1x4x1xi32>, tensor<4x1x4x1xi32>, tensor<4x1x4x1xi32>, tensor<4x1x4x1xi32>, tensor<4x1x4x1xi32>, tensor<4x1x4x1xi32>, tensor<4x1x4x1xi32>, tensor<4x1x4x1xi32>) -> tensor<4x1x4x8xi32>
  %34 = "tosa.const"() <{values = dense<[[true, true, false, true, false, false, false]]> : tensor<1x7xi1>}> : () -> tensor<1x7xi1>
  %35 = "tosa.const"() <{values = dense<false> : tensor<1x1xi1>}> : () -> tensor<1x1xi1>
  %36 = func.call @f1(%33, %34, %35) : (tensor<4x1x4x8xi32>, tensor<1x7xi1>, tensor<1x1xi1>) -> tensor<i32>
  %37 = tosa.cast %36 : (tensor<i32>) -> tensor<i1>
  return %37 : tensor<i1>
}
func.func @main(%x_0: tensor<i32>) -> tensor<i1> {
  %38 = func.call @f0() : () -> tensor<i1>
  %39 = tosa.cast %x_0 : (tensor<i32>) -> tensor<i1>
  return %38 : tensor<i1>
}
