module {
  memref.global "private" constant @__constant_1x1xf32 : memref<1x1xf32> = dense<-1.500000e+00> {alignment = 64 : i64}
  func.func @main(%arg0: memref<3x5xf32>) -> memref<3xf32> attributes {llvm.emit_c_interface} {
    %0 = llvm.mlir.poison : vector<7xf32>
    %1 = llvm.mlir.poison : !llvm.array<3 x vector<7xi1>>
    %2 = builtin.unrealized_conversion_cast %1 : !llvm.array<3 x vector<7xi1>> to vector<3x7xi1>
    %3 = builtin.unrealized_conversion_cast %2 : vector<3x7xi1> to !llvm.array<3 x vector<7xi1>>
    %cst = arith.constant dense<[true, true, true, true, true, false, false]> : vector<7xi1>
    %cst_0 = arith.constant -3.40282347E+38 : f32
    %c0 = arith.constant 0 : index
    %4 = builtin.unrealized_conversion_cast %c0 : index to i64
    %c3 = arith.constant 3 : index
    %c1 = arith.constant 1 : index
    %c5 = arith.constant 5 : index
    %alloca = memref.alloca() : memref<vector<3x7xf32>>
    %5 = builtin.unrealized_conversion_cast %alloca : memref<vector<3x7xf32>> to !llvm.struct<(ptr, ptr, i64)>
    %alloca_1 = memref.alloca() : memref<vector<3x7xi1>>
    %6 = builtin.unrealized_conversion_cast %alloca_1 : memref<vector<3x7xi1>> to !llvm.struct<(ptr, ptr, i64)>
    %7 = memref.get_global @__constant_1x1xf32 : memref<1x1xf32>
    %alloc = memref.alloc() {alignment = 64 : i64} : memref<3x5xf32>
    cf.br ^bb1(%c0 : index)
  ^bb1(%8: index):  // 2 preds: ^bb0, ^bb5
    %9 = arith.cmpi slt, %8, %c3 : index
    cf.cond_br %9, ^bb2, ^bb6
  ^bb2:  // pred: ^bb1
    cf.br ^bb3(%c0 : index)
  ^bb3(%10: index):  // 2 preds: ^bb2, ^bb4
    %11 = arith.cmpi slt, %10, %c5 : index
    cf.cond_br %11, ^bb4, ^bb5
  ^bb4:  // pred: ^bb3
    %12 = memref.load %arg0[%8, %10] : memref<3x5xf32>
    %13 = math.absf %12 : f32
    memref.store %13, %alloc[%8, %10] : memref<3x5xf32>
    %14 = arith.addi %10, %c1 : index
    cf.br ^bb3(%14 : index)
  ^bb5:  // pred: ^bb3
    %15 = arith.addi %8, %c1 : index
    cf.br ^bb1(%15 : index)
  ^bb6:  // pred: ^bb1
    %alloc_2 = memref.alloc() {alignment = 64 : i64} : memref<3x5xf32>
    %16 = builtin.unrealized_conversion_cast %alloc_2 : memref<3x5xf32> to !llvm.struct<(ptr, ptr, i64, array<2 x i64>, array<2 x i64>)>
    cf.br ^bb7(%c0 : index)
  ^bb7(%17: index):  // 2 preds: ^bb6, ^bb11
    %18 = arith.cmpi slt, %17, %c3 : index
    cf.cond_br %18, ^bb8, ^bb12
  ^bb8:  // pred: ^bb7
    cf.br ^bb9(%c0 : index)
  ^bb9(%19: index):  // 2 preds: ^bb8, ^bb10
    %20 = arith.cmpi slt, %19, %c5 : index
    cf.cond_br %20, ^bb10, ^bb11
  ^bb10:  // pred: ^bb9
    %21 = memref.load %7[%c0, %c0] : memref<1x1xf32>
    %22 = memref.load %alloc[%17, %19] : memref<3x5xf32>
    %23 = arith.subf %21, %22 : f32
    memref.store %23, %alloc_2[%17, %19] : memref<3x5xf32>
    %24 = arith.addi %19, %c1 : index
    cf.br ^bb9(%24 : index)
  ^bb11:  // pred: ^bb9
    %25 = arith.addi %17, %c1 : index
    cf.br ^bb7(%25 : index)
  ^bb12:  // pred: ^bb7
    %alloc_3 = memref.alloc() {alignment = 64 : i64} : memref<3xf32>
    %26 = builtin.unrealized_conversion_cast %alloc_3 : memref<3xf32> to !llvm.struct<(ptr, ptr, i64, array<1 x i64>, array<1 x i64>)>
    cf.br ^bb13(%c0 : index)
  ^bb13(%27: index):  // 2 preds: ^bb12, ^bb14
    %28 = arith.cmpi slt, %27, %c3 : index
    cf.cond_br %28, ^bb14, ^bb15
  ^bb14:  // pred: ^bb13
    memref.store %cst_0, %alloc_3[%27] : memref<3xf32>
    %29 = arith.addi %27, %c1 : index
    cf.br ^bb13(%29 : index)
  ^bb15:  // pred: ^bb13
    %30 = llvm.insertvalue %cst, %3[0] : !llvm.array<3 x vector<7xi1>> 
    %31 = llvm.insertvalue %cst, %30[1] : !llvm.array<3 x vector<7xi1>> 
    %32 = llvm.insertvalue %cst, %31[2] : !llvm.array<3 x vector<7xi1>> 
    %33 = builtin.unrealized_conversion_cast %32 : !llvm.array<3 x vector<7xi1>> to vector<3x7xi1>
    memref.store %33, %alloca_1[] : memref<vector<3x7xi1>>
    %34 = llvm.mlir.poison : !llvm.struct<(ptr, ptr, i64, array<1 x i64>, array<1 x i64>)>
    %35 = llvm.extractvalue %5[0] : !llvm.struct<(ptr, ptr, i64)> 
    %36 = llvm.insertvalue %35, %34[0] : !llvm.struct<(ptr, ptr, i64, array<1 x i64>, array<1 x i64>)> 
    %37 = llvm.extractvalue %5[1] : !llvm.struct<(ptr, ptr, i64)> 
    %38 = llvm.insertvalue %37, %36[1] : !llvm.struct<(ptr, ptr, i64, array<1 x i64>, array<1 x i64>)> 
    %39 = llvm.mlir.constant(0 : index) : i64
    %40 = llvm.insertvalue %39, %38[2] : !llvm.struct<(ptr, ptr, i64, array<1 x i64>, array<1 x i64>)> 
    %41 = llvm.mlir.constant(3 : index) : i64
    %42 = llvm.insertvalue %41, %40[3, 0] : !llvm.struct<(ptr, ptr, i64, array<1 x i64>, array<1 x i64>)> 
    %43 = llvm.mlir.constant(1 : index) : i64
    %44 = llvm.insertvalue %43, %42[4, 0] : !llvm.struct<(ptr, ptr, i64, array<1 x i64>, array<1 x i64>)> 
    %45 = builtin.unrealized_conversion_cast %44 : !llvm.struct<(ptr, ptr, i64, array<1 x i64>, array<1 x i64>)> to memref<3xvector<7xf32>>
    %46 = llvm.mlir.poison : !llvm.struct<(ptr, ptr, i64, array<1 x i64>, array<1 x i64>)>
    %47 = llvm.extractvalue %6[0] : !llvm.struct<(ptr, ptr, i64)> 
    %48 = llvm.insertvalue %47, %46[0] : !llvm.struct<(ptr, ptr, i64, array<1 x i64>, array<1 x i64>)> 
    %49 = llvm.extractvalue %6[1] : !llvm.struct<(ptr, ptr, i64)> 
    %50 = llvm.insertvalue %49, %48[1] : !llvm.struct<(ptr, ptr, i64, array<1 x i64>, array<1 x i64>)> 
    %51 = llvm.mlir.constant(0 : index) : i64
    %52 = llvm.insertvalue %51, %50[2] : !llvm.struct<(ptr, ptr, i64, array<1 x i64>, array<1 x i64>)> 
    %53 = llvm.mlir.constant(3 : index) : i64
    %54 = llvm.insertvalue %53, %52[3, 0] : !llvm.struct<(ptr, ptr, i64, array<1 x i64>, array<1 x i64>)> 
    %55 = llvm.mlir.constant(1 : index) : i64
    %56 = llvm.insertvalue %55, %54[4, 0] : !llvm.struct<(ptr, ptr, i64, array<1 x i64>, array<1 x i64>)> 
    %57 = builtin.unrealized_conversion_cast %56 : !llvm.struct<(ptr, ptr, i64, array<1 x i64>, array<1 x i64>)> to memref<3xvector<7xi1>>
    cf.br ^bb16(%c0 : index)
  ^bb16(%58: index):  // 2 preds: ^bb15, ^bb17
    %59 = builtin.unrealized_conversion_cast %58 : index to i64
    %60 = arith.cmpi slt, %58, %c3 : index
    cf.cond_br %60, ^bb17, ^bb18
  ^bb17:  // pred: ^bb16
    %61 = memref.load %57[%58] : memref<3xvector<7xi1>>
    %62 = llvm.extractvalue %16[1] : !llvm.struct<(ptr, ptr, i64, array<2 x i64>, array<2 x i64>)> 
    %63 = llvm.mlir.constant(5 : index) : i64
    %64 = llvm.mul %59, %63 : i64
    %65 = llvm.add %64, %4 : i64
    %66 = llvm.getelementptr %62[%65] : (!llvm.ptr, i64) -> !llvm.ptr, f32
    %67 = llvm.intr.masked.load %66, %61, %0 {alignment = 4 : i32} : (!llvm.ptr, vector<7xi1>, vector<7xf32>) -> vector<7xf32>
    memref.store %67, %45[%58] : memref<3xvector<7xf32>>
    %68 = arith.addi %58, %c1 : index
    cf.br ^bb16(%68 : index)
  ^bb18:  // pred: ^bb16
    %69 = memref.load %alloca[] : memref<vector<3x7xf32>>
    %70 = builtin.unrealized_conversion_cast %69 : vector<3x7xf32> to !llvm.array<3 x vector<7xf32>>
    %71 = llvm.extractvalue %26[1] : !llvm.struct<(ptr, ptr, i64, array<1 x i64>, array<1 x i64>)> 
    %72 = llvm.getelementptr %71[%4] : (!llvm.ptr, i64) -> !llvm.ptr, f32
    %73 = llvm.load %72 {alignment = 4 : i64} : !llvm.ptr -> vector<3xf32>
    %74 = llvm.extractvalue %70[0] : !llvm.array<3 x vector<7xf32>> 
    %75 = llvm.mlir.constant(0 : i64) : i64
    %76 = llvm.extractelement %73[%75 : i64] : vector<3xf32>
    %77 = llvm.mlir.constant(dense<-1.401300e-45> : vector<7xf32>) : vector<7xf32>
    %78 = llvm.select %cst, %74, %77 : vector<7xi1>, vector<7xf32>
    %79 = llvm.intr.vector.reduce.fmaximum(%78) : (vector<7xf32>) -> f32
    %80 = llvm.intr.maximum(%79, %76) : (f32, f32) -> f32
    %81 = llvm.extractvalue %70[1] : !llvm.array<3 x vector<7xf32>> 
    %82 = llvm.mlir.constant(1 : i64) : i64
    %83 = llvm.extractelement %73[%82 : i64] : vector<3xf32>
    %84 = llvm.mlir.constant(dense<-1.401300e-45> : vector<7xf32>) : vector<7xf32>
    %85 = llvm.select %cst, %81, %84 : vector<7xi1>, vector<7xf32>
    %86 = llvm.intr.vector.reduce.fmaximum(%85) : (vector<7xf32>) -> f32
    %87 = llvm.intr.maximum(%86, %83) : (f32, f32) -> f32
    %88 = llvm.extractvalue %70[2] : !llvm.array<3 x vector<7xf32>> 
    %89 = llvm.mlir.constant(2 : i64) : i64
    %90 = llvm.extractelement %73[%89 : i64] : vector<3xf32>
    %91 = llvm.mlir.constant(dense<-1.401300e-45> : vector<7xf32>) : vector<7xf32>
    %92 = llvm.select %cst, %88, %91 : vector<7xi1>, vector<7xf32>
    %93 = llvm.intr.vector.reduce.fmaximum(%92) : (vector<7xf32>) -> f32
    %94 = llvm.intr.maximum(%93, %90) : (f32, f32) -> f32
    %95 = llvm.mlir.poison : vector<3xf32>
    %96 = llvm.mlir.constant(0 : i64) : i64
    %97 = llvm.insertelement %80, %95[%96 : i64] : vector<3xf32>
    %98 = llvm.mlir.constant(1 : i64) : i64
    %99 = llvm.insertelement %87, %97[%98 : i64] : vector<3xf32>
    %100 = llvm.mlir.constant(2 : i64) : i64
    %101 = llvm.insertelement %94, %99[%100 : i64] : vector<3xf32>
    %102 = llvm.extractvalue %26[1] : !llvm.struct<(ptr, ptr, i64, array<1 x i64>, array<1 x i64>)> 
    %103 = llvm.getelementptr %102[%4] : (!llvm.ptr, i64) -> !llvm.ptr, f32
    llvm.store %101, %103 {alignment = 4 : i64} : vector<3xf32>, !llvm.ptr
    memref.dealloc %alloc : memref<3x5xf32>
    memref.dealloc %alloc_2 : memref<3x5xf32>
    return %alloc_3 : memref<3xf32>
  }
}

