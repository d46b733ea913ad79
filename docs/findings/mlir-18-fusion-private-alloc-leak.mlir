func.func @f(%in: memref<4xf32>, %out: memref<4xf32>) {
  %tmp = memref.alloca() : memref<4x4xf32>
  affine.for %i = 0 to 4 {
    affine.for %j = 0 to 4 {
      %a = affine.load %in[%i] : memref<4xf32>
      affine.store %a, %tmp[%i, %j] : memref<4x4xf32>
    }
  }
  affine.for %i = 0 to 4 {
    affine.for %j = 0 to 4 {
      %c = affine.load %tmp[%i, %j] : memref<4x4xf32>
      %o = affine.load %out[%i] : memref<4xf32>
      %d = arith.addf %c, %o : f32
      affine.store %d, %out[%i] : memref<4xf32>
    }
  }
  return
}
