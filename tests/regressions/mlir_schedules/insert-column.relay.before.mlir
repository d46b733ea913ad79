module {
  func.func @main(%arg0: memref<4x1xf32>) -> memref<4x1xf32> attributes {llvm.emit_c_interface} {
    %cst = arith.constant dense<[true, false, false, false]> : vector<4xi1>
    %0 = llvm.mlir.poison : vector<4xf32>
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %c0 = arith.constant 0 : index
    %1 = builtin.unrealized_conversion_cast %c0 : index to i64
    %alloc = memref.alloc() {alignment = 64 : i64} : memref<4x1xf32>
    %2 = builtin.unrealized_conversion_cast %alloc : memref<4x1xf32> to !llvm.struct<(ptr, ptr, i64, array<2 x i64>, array<2 x i64>)>
    cf.br ^bb1(%c0, %0 : index, vector<4xf32>)
  ^bb1(%3: index, %4: vector<4xf32>):  // 2 preds: ^bb0, ^bb2
    %5 = builtin.unrealized_conversion_cast %3 : index to i64
    %6 = arith.cmpi slt, %3, %c4 : index
    cf.cond_br %6, ^bb2, ^bb3
  ^bb2:  // pred: ^bb1
    %7 = memref.load %arg0[%3, %c0] : memref<4x1xf32>
    %8 = llvm.insertelement %7, %4[%5 : i64] : vector<4xf32>
    %9 = arith.addi %3, %c1 : index
    cf.br ^bb1(%9, %8 : index, vector<4xf32>)
  ^bb3:  // pred: ^bb1
    %10 = math.log %4 : vector<4xf32>
    %11 = llvm.extractvalue %2[1] : !llvm.struct<(ptr, ptr, i64, array<2 x i64>, array<2 x i64>)> 
    %12 = llvm.add %1, %1 : i64
    %13 = llvm.getelementptr %11[%12] : (!llvm.ptr, i64) -> !llvm.ptr, f32
    llvm.intr.masked.store %10, %13, %cst {alignment = 4 : i32} : vector<4xf32>, vector<4xi1> into !llvm.ptr
    return %alloc : memref<4x1xf32>
  }
}

