module {
  memref.global "private" constant @__constant_1x1x1xf32 : memref<1x1x1xf32> = dense<0.000000e+00> {alignment = 64 : i64}
  func.func private @f0() -> memref<1x1x1xf32> {
    %0 = memref.get_global @__constant_1x1x1xf32 : memref<1x1x1xf32>
    %alloc = memref.alloc() : memref<1x1x1xf32>
    memref.copy %0, %alloc : memref<1x1x1xf32> to memref<1x1x1xf32>
    return %alloc : memref<1x1x1xf32>
  }
  func.func @main(%arg0: memref<f32>) -> memref<1x1x1xf32> attributes {llvm.emit_c_interface} {
    %0 = memref.get_global @__constant_1x1x1xf32 : memref<1x1x1xf32>
    %1 = call @f0() : () -> memref<1x1x1xf32>
    %alloc = memref.alloc() : memref<1x1x1xf32>
    memref.copy %0, %alloc : memref<1x1x1xf32> to memref<1x1x1xf32>
    %base_buffer, %offset, %sizes:3, %strides:3 = memref.extract_strided_metadata %1 : memref<1x1x1xf32> -> memref<f32>, index, index, index, index, index, index, index
    %intptr = memref.extract_aligned_pointer_as_index %base_buffer : memref<f32> -> index
    %intptr_0 = memref.extract_aligned_pointer_as_index %alloc : memref<1x1x1xf32> -> index
    %2 = arith.cmpi ne, %intptr, %intptr_0 : index
    cf.cond_br %2, ^bb1, ^bb2
  ^bb1:  // pred: ^bb0
    memref.dealloc %base_buffer : memref<f32>
    cf.br ^bb2
  ^bb2:  // 2 preds: ^bb0, ^bb1
    return %alloc : memref<1x1x1xf32>
  }
}

