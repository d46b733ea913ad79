module {
  memref.global "private" constant @__constant_1x1x1x1xf32 : memref<1x1x1x1xf32> = dense<-2.000000e+00> {alignment = 64 : i64}
  memref.global "private" constant @__constant_2x1x1x1xf32 : memref<2x1x1x1xf32> = dense<0.000000e+00> {alignment = 64 : i64}
  func.func @main(%arg0: memref<i1>, %arg1: memref<i32>) -> memref<2x1x1x1xf32> attributes {llvm.emit_c_interface} {
    %c0 = arith.constant 0 : index
    %cst = arith.constant -2.000000e+00 : f32
    %cst_0 = arith.constant 1.000000e+00 : f32
    %cst_1 = arith.constant 0.000000e+00 : f32
    %cst_2 = arith.constant -3.40282347E+38 : f32
    %alloc = memref.alloc() {alignment = 64 : i64} : memref<2x1x1x1xf32>
    %alloc_3 = memref.alloc() {alignment = 64 : i64} : memref<1x1x1xf32>
    %c0_4 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c1_5 = arith.constant 1 : index
    cf.br ^bb1(%c0_4 : index)
  ^bb1(%0: index):  // 2 preds: ^bb0, ^bb11
    %1 = arith.cmpi slt, %0, %c1 : index
    cf.cond_br %1, ^bb2, ^bb12
  ^bb2:  // pred: ^bb1
    %c0_6 = arith.constant 0 : index
    %c1_7 = arith.constant 1 : index
    %c1_8 = arith.constant 1 : index
    cf.br ^bb3(%c0_6 : index)
  ^bb3(%2: index):  // 2 preds: ^bb2, ^bb10
    %3 = arith.cmpi slt, %2, %c1_7 : index
    cf.cond_br %3, ^bb4, ^bb11
  ^bb4:  // pred: ^bb3
    %c0_9 = arith.constant 0 : index
    %c1_10 = arith.constant 1 : index
    %c1_11 = arith.constant 1 : index
    cf.br ^bb5(%c0_9 : index)
  ^bb5(%4: index):  // 2 preds: ^bb4, ^bb9
    %5 = arith.cmpi slt, %4, %c1_10 : index
    cf.cond_br %5, ^bb6, ^bb10
  ^bb6:  // pred: ^bb5
    memref.store %cst_2, %alloc_3[%c0, %c0, %c0] : memref<1x1x1xf32>
    %c0_12 = arith.constant 0 : index
    %c2 = arith.constant 2 : index
    %c1_13 = arith.constant 1 : index
    cf.br ^bb7(%c0_12 : index)
  ^bb7(%6: index):  // 2 preds: ^bb6, ^bb8
    %7 = arith.cmpi slt, %6, %c2 : index
    cf.cond_br %7, ^bb8, ^bb9
  ^bb8:  // pred: ^bb7
    memref.store %cst, %alloc[%6, %c0, %c0, %c0] : memref<2x1x1x1xf32>
    %8 = memref.load %alloc[%6, %0, %2, %4] : memref<2x1x1x1xf32>
    %9 = memref.load %alloc_3[%0, %2, %4] : memref<1x1x1xf32>
    %10 = arith.maximumf %8, %9 : f32
    memref.store %10, %alloc_3[%0, %2, %4] : memref<1x1x1xf32>
    %11 = arith.addi %6, %c1_13 : index
    cf.br ^bb7(%11 : index)
  ^bb9:  // pred: ^bb7
    %12 = arith.addi %4, %c1_11 : index
    cf.br ^bb5(%12 : index)
  ^bb10:  // pred: ^bb5
    %13 = arith.addi %2, %c1_8 : index
    cf.br ^bb3(%13 : index)
  ^bb11:  // pred: ^bb3
    %14 = arith.addi %0, %c1_5 : index
    cf.br ^bb1(%14 : index)
  ^bb12:  // pred: ^bb1
    %reinterpret_cast = memref.reinterpret_cast %alloc_3 to offset: [0], sizes: [1, 1, 1, 1], strides: [1, 1, 1, 1] : memref<1x1x1xf32> to memref<1x1x1x1xf32>
    %alloc_14 = memref.alloc() {alignment = 64 : i64} : memref<2x1x1x1xf32>
    %alloc_15 = memref.alloc() {alignment = 64 : i64} : memref<2x1x1x1xf32>
    %alloc_16 = memref.alloc() {alignment = 64 : i64} : memref<1x1x1xf32>
    %reinterpret_cast_17 = memref.reinterpret_cast %alloc_16 to offset: [0], sizes: [1, 1, 1, 1], strides: [1, 1, 1, 1] : memref<1x1x1xf32> to memref<1x1x1x1xf32>
    %alloc_18 = memref.alloc() {alignment = 64 : i64} : memref<1x1x1x1xf32>
    %alloc_19 = memref.alloc() {alignment = 64 : i64} : memref<2x1x1x1xf32>
    %c0_20 = arith.constant 0 : index
    %c2_21 = arith.constant 2 : index
    %c1_22 = arith.constant 1 : index
    cf.br ^bb13(%c0_20 : index)
  ^bb13(%15: index):  // 2 preds: ^bb12, ^bb23
    %16 = arith.cmpi slt, %15, %c2_21 : index
    cf.cond_br %16, ^bb14, ^bb24
  ^bb14:  // pred: ^bb13
    %c0_23 = arith.constant 0 : index
    %c1_24 = arith.constant 1 : index
    %c1_25 = arith.constant 1 : index
    cf.br ^bb15(%c0_23 : index)
  ^bb15(%17: index):  // 2 preds: ^bb14, ^bb22
    %18 = arith.cmpi slt, %17, %c1_24 : index
    cf.cond_br %18, ^bb16, ^bb23
  ^bb16:  // pred: ^bb15
    %c0_26 = arith.constant 0 : index
    %c1_27 = arith.constant 1 : index
    %c1_28 = arith.constant 1 : index
    cf.br ^bb17(%c0_26 : index)
  ^bb17(%19: index):  // 2 preds: ^bb16, ^bb21
    %20 = arith.cmpi slt, %19, %c1_27 : index
    cf.cond_br %20, ^bb18, ^bb22
  ^bb18:  // pred: ^bb17
    memref.store %cst_1, %alloc_16[%c0, %c0, %c0] : memref<1x1x1xf32>
    %21 = memref.load %alloc[%15, %c0, %c0, %c0] : memref<2x1x1x1xf32>
    %22 = memref.load %reinterpret_cast[%c0, %c0, %c0, %c0] : memref<1x1x1x1xf32>
    %23 = arith.subf %21, %22 : f32
    memref.store %23, %alloc_14[%15, %c0, %c0, %c0] : memref<2x1x1x1xf32>
    %24 = memref.load %alloc_14[%15, %c0, %c0, %c0] : memref<2x1x1x1xf32>
    %25 = math.exp %24 : f32
    memref.store %25, %alloc_15[%15, %c0, %c0, %c0] : memref<2x1x1x1xf32>
    %26 = memref.load %alloc_15[%15, %c0, %c0, %c0] : memref<2x1x1x1xf32>
    %27 = memref.load %alloc_16[%c0, %c0, %c0] : memref<1x1x1xf32>
    %28 = arith.addf %26, %27 : f32
    memref.store %28, %alloc_16[%c0, %c0, %c0] : memref<1x1x1xf32>
    %c0_29 = arith.constant 0 : index
    %c1_30 = arith.constant 1 : index
    %c1_31 = arith.constant 1 : index
    cf.br ^bb19(%c0_29 : index)
  ^bb19(%29: index):  // 2 preds: ^bb18, ^bb20
    %30 = arith.cmpi slt, %29, %c1_30 : index
    cf.cond_br %30, ^bb20, ^bb21
  ^bb20:  // pred: ^bb19
    %31 = memref.load %reinterpret_cast_17[%c0, %c0, %c0, %c0] : memref<1x1x1x1xf32>
    %32 = arith.divf %cst_0, %31 : f32
    memref.store %32, %alloc_18[%c0, %c0, %c0, %c0] : memref<1x1x1x1xf32>
    %33 = memref.load %alloc_15[%15, %17, %19, %29] : memref<2x1x1x1xf32>
    %34 = memref.load %alloc_18[%c0, %17, %19, %29] : memref<1x1x1x1xf32>
    %35 = arith.mulf %33, %34 : f32
    memref.store %35, %alloc_19[%15, %17, %19, %29] : memref<2x1x1x1xf32>
    %36 = arith.addi %29, %c1_31 : index
    cf.br ^bb19(%36 : index)
  ^bb21:  // pred: ^bb19
    %37 = arith.addi %19, %c1_28 : index
    cf.br ^bb17(%37 : index)
  ^bb22:  // pred: ^bb17
    %38 = arith.addi %17, %c1_25 : index
    cf.br ^bb15(%38 : index)
  ^bb23:  // pred: ^bb15
    %39 = arith.addi %15, %c1_22 : index
    cf.br ^bb13(%39 : index)
  ^bb24:  // pred: ^bb13
    memref.dealloc %alloc : memref<2x1x1x1xf32>
    memref.dealloc %alloc_3 : memref<1x1x1xf32>
    memref.dealloc %alloc_14 : memref<2x1x1x1xf32>
    memref.dealloc %alloc_15 : memref<2x1x1x1xf32>
    memref.dealloc %alloc_16 : memref<1x1x1xf32>
    memref.dealloc %alloc_18 : memref<1x1x1x1xf32>
    return %alloc_19 : memref<2x1x1x1xf32>
  }
}

