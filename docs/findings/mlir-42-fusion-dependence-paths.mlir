// chain.sh 28: 28 loops in a chain, each storing two buffers the next loads
func.func @f(%in: memref<f32>, %out: memref<f32>) {
  %p0 = memref.alloc() : memref<f32>
  %q0 = memref.alloc() : memref<f32>
  %p1 = memref.alloc() : memref<f32>
  %q1 = memref.alloc() : memref<f32>
  %p2 = memref.alloc() : memref<f32>
  %q2 = memref.alloc() : memref<f32>
  %p3 = memref.alloc() : memref<f32>
  %q3 = memref.alloc() : memref<f32>
  %p4 = memref.alloc() : memref<f32>
  %q4 = memref.alloc() : memref<f32>
  %p5 = memref.alloc() : memref<f32>
  %q5 = memref.alloc() : memref<f32>
  %p6 = memref.alloc() : memref<f32>
  %q6 = memref.alloc() : memref<f32>
  %p7 = memref.alloc() : memref<f32>
  %q7 = memref.alloc() : memref<f32>
  %p8 = memref.alloc() : memref<f32>
  %q8 = memref.alloc() : memref<f32>
  %p9 = memref.alloc() : memref<f32>
  %q9 = memref.alloc() : memref<f32>
  %p10 = memref.alloc() : memref<f32>
  %q10 = memref.alloc() : memref<f32>
  %p11 = memref.alloc() : memref<f32>
  %q11 = memref.alloc() : memref<f32>
  %p12 = memref.alloc() : memref<f32>
  %q12 = memref.alloc() : memref<f32>
  %p13 = memref.alloc() : memref<f32>
  %q13 = memref.alloc() : memref<f32>
  %p14 = memref.alloc() : memref<f32>
  %q14 = memref.alloc() : memref<f32>
  %p15 = memref.alloc() : memref<f32>
  %q15 = memref.alloc() : memref<f32>
  %p16 = memref.alloc() : memref<f32>
  %q16 = memref.alloc() : memref<f32>
  %p17 = memref.alloc() : memref<f32>
  %q17 = memref.alloc() : memref<f32>
  %p18 = memref.alloc() : memref<f32>
  %q18 = memref.alloc() : memref<f32>
  %p19 = memref.alloc() : memref<f32>
  %q19 = memref.alloc() : memref<f32>
  %p20 = memref.alloc() : memref<f32>
  %q20 = memref.alloc() : memref<f32>
  %p21 = memref.alloc() : memref<f32>
  %q21 = memref.alloc() : memref<f32>
  %p22 = memref.alloc() : memref<f32>
  %q22 = memref.alloc() : memref<f32>
  %p23 = memref.alloc() : memref<f32>
  %q23 = memref.alloc() : memref<f32>
  %p24 = memref.alloc() : memref<f32>
  %q24 = memref.alloc() : memref<f32>
  %p25 = memref.alloc() : memref<f32>
  %q25 = memref.alloc() : memref<f32>
  %p26 = memref.alloc() : memref<f32>
  %q26 = memref.alloc() : memref<f32>
  %p27 = memref.alloc() : memref<f32>
  %q27 = memref.alloc() : memref<f32>
  %p28 = memref.alloc() : memref<f32>
  %q28 = memref.alloc() : memref<f32>
  affine.for %i = 0 to 2 {
    %v = affine.load %in[] : memref<f32>
    affine.store %v, %p0[] : memref<f32>
    affine.store %v, %q0[] : memref<f32>
  }
  affine.for %i = 0 to 2 {
    %x = affine.load %p0[] : memref<f32>
    %y = affine.load %q0[] : memref<f32>
    %s = arith.addf %x, %y : f32
    affine.store %s, %p1[] : memref<f32>
    affine.store %s, %q1[] : memref<f32>
  }
  affine.for %i = 0 to 2 {
    %x = affine.load %p1[] : memref<f32>
    %y = affine.load %q1[] : memref<f32>
    %s = arith.addf %x, %y : f32
    affine.store %s, %p2[] : memref<f32>
    affine.store %s, %q2[] : memref<f32>
  }
  affine.for %i = 0 to 2 {
    %x = affine.load %p2[] : memref<f32>
    %y = affine.load %q2[] : memref<f32>
    %s = arith.addf %x, %y : f32
    affine.store %s, %p3[] : memref<f32>
    affine.store %s, %q3[] : memref<f32>
  }
  affine.for %i = 0 to 2 {
    %x = affine.load %p3[] : memref<f32>
    %y = affine.load %q3[] : memref<f32>
    %s = arith.addf %x, %y : f32
    affine.store %s, %p4[] : memref<f32>
    affine.store %s, %q4[] : memref<f32>
  }
  affine.for %i = 0 to 2 {
    %x = affine.load %p4[] : memref<f32>
    %y = affine.load %q4[] : memref<f32>
    %s = arith.addf %x, %y : f32
    affine.store %s, %p5[] : memref<f32>
    affine.store %s, %q5[] : memref<f32>
  }
  affine.for %i = 0 to 2 {
    %x = affine.load %p5[] : memref<f32>
    %y = affine.load %q5[] : memref<f32>
    %s = arith.addf %x, %y : f32
    affine.store %s, %p6[] : memref<f32>
    affine.store %s, %q6[] : memref<f32>
  }
  affine.for %i = 0 to 2 {
    %x = affine.load %p6[] : memref<f32>
    %y = affine.load %q6[] : memref<f32>
    %s = arith.addf %x, %y : f32
    affine.store %s, %p7[] : memref<f32>
    affine.store %s, %q7[] : memref<f32>
  }
  affine.for %i = 0 to 2 {
    %x = affine.load %p7[] : memref<f32>
    %y = affine.load %q7[] : memref<f32>
    %s = arith.addf %x, %y : f32
    affine.store %s, %p8[] : memref<f32>
    affine.store %s, %q8[] : memref<f32>
  }
  affine.for %i = 0 to 2 {
    %x = affine.load %p8[] : memref<f32>
    %y = affine.load %q8[] : memref<f32>
    %s = arith.addf %x, %y : f32
    affine.store %s, %p9[] : memref<f32>
    affine.store %s, %q9[] : memref<f32>
  }
  affine.for %i = 0 to 2 {
    %x = affine.load %p9[] : memref<f32>
    %y = affine.load %q9[] : memref<f32>
    %s = arith.addf %x, %y : f32
    affine.store %s, %p10[] : memref<f32>
    affine.store %s, %q10[] : memref<f32>
  }
  affine.for %i = 0 to 2 {
    %x = affine.load %p10[] : memref<f32>
    %y = affine.load %q10[] : memref<f32>
    %s = arith.addf %x, %y : f32
    affine.store %s, %p11[] : memref<f32>
    affine.store %s, %q11[] : memref<f32>
  }
  affine.for %i = 0 to 2 {
    %x = affine.load %p11[] : memref<f32>
    %y = affine.load %q11[] : memref<f32>
    %s = arith.addf %x, %y : f32
    affine.store %s, %p12[] : memref<f32>
    affine.store %s, %q12[] : memref<f32>
  }
  affine.for %i = 0 to 2 {
    %x = affine.load %p12[] : memref<f32>
    %y = affine.load %q12[] : memref<f32>
    %s = arith.addf %x, %y : f32
    affine.store %s, %p13[] : memref<f32>
    affine.store %s, %q13[] : memref<f32>
  }
  affine.for %i = 0 to 2 {
    %x = affine.load %p13[] : memref<f32>
    %y = affine.load %q13[] : memref<f32>
    %s = arith.addf %x, %y : f32
    affine.store %s, %p14[] : memref<f32>
    affine.store %s, %q14[] : memref<f32>
  }
  affine.for %i = 0 to 2 {
    %x = affine.load %p14[] : memref<f32>
    %y = affine.load %q14[] : memref<f32>
    %s = arith.addf %x, %y : f32
    affine.store %s, %p15[] : memref<f32>
    affine.store %s, %q15[] : memref<f32>
  }
  affine.for %i = 0 to 2 {
    %x = affine.load %p15[] : memref<f32>
    %y = affine.load %q15[] : memref<f32>
    %s = arith.addf %x, %y : f32
    affine.store %s, %p16[] : memref<f32>
    affine.store %s, %q16[] : memref<f32>
  }
  affine.for %i = 0 to 2 {
    %x = affine.load %p16[] : memref<f32>
    %y = affine.load %q16[] : memref<f32>
    %s = arith.addf %x, %y : f32
    affine.store %s, %p17[] : memref<f32>
    affine.store %s, %q17[] : memref<f32>
  }
  affine.for %i = 0 to 2 {
    %x = affine.load %p17[] : memref<f32>
    %y = affine.load %q17[] : memref<f32>
    %s = arith.addf %x, %y : f32
    affine.store %s, %p18[] : memref<f32>
    affine.store %s, %q18[] : memref<f32>
  }
  affine.for %i = 0 to 2 {
    %x = affine.load %p18[] : memref<f32>
    %y = affine.load %q18[] : memref<f32>
    %s = arith.addf %x, %y : f32
    affine.store %s, %p19[] : memref<f32>
    affine.store %s, %q19[] : memref<f32>
  }
  affine.for %i = 0 to 2 {
    %x = affine.load %p19[] : memref<f32>
    %y = affine.load %q19[] : memref<f32>
    %s = arith.addf %x, %y : f32
    affine.store %s, %p20[] : memref<f32>
    affine.store %s, %q20[] : memref<f32>
  }
  affine.for %i = 0 to 2 {
    %x = affine.load %p20[] : memref<f32>
    %y = affine.load %q20[] : memref<f32>
    %s = arith.addf %x, %y : f32
    affine.store %s, %p21[] : memref<f32>
    affine.store %s, %q21[] : memref<f32>
  }
  affine.for %i = 0 to 2 {
    %x = affine.load %p21[] : memref<f32>
    %y = affine.load %q21[] : memref<f32>
    %s = arith.addf %x, %y : f32
    affine.store %s, %p22[] : memref<f32>
    affine.store %s, %q22[] : memref<f32>
  }
  affine.for %i = 0 to 2 {
    %x = affine.load %p22[] : memref<f32>
    %y = affine.load %q22[] : memref<f32>
    %s = arith.addf %x, %y : f32
    affine.store %s, %p23[] : memref<f32>
    affine.store %s, %q23[] : memref<f32>
  }
  affine.for %i = 0 to 2 {
    %x = affine.load %p23[] : memref<f32>
    %y = affine.load %q23[] : memref<f32>
    %s = arith.addf %x, %y : f32
    affine.store %s, %p24[] : memref<f32>
    affine.store %s, %q24[] : memref<f32>
  }
  affine.for %i = 0 to 2 {
    %x = affine.load %p24[] : memref<f32>
    %y = affine.load %q24[] : memref<f32>
    %s = arith.addf %x, %y : f32
    affine.store %s, %p25[] : memref<f32>
    affine.store %s, %q25[] : memref<f32>
  }
  affine.for %i = 0 to 2 {
    %x = affine.load %p25[] : memref<f32>
    %y = affine.load %q25[] : memref<f32>
    %s = arith.addf %x, %y : f32
    affine.store %s, %p26[] : memref<f32>
    affine.store %s, %q26[] : memref<f32>
  }
  affine.for %i = 0 to 2 {
    %x = affine.load %p26[] : memref<f32>
    %y = affine.load %q26[] : memref<f32>
    %s = arith.addf %x, %y : f32
    affine.store %s, %p27[] : memref<f32>
    affine.store %s, %q27[] : memref<f32>
  }
  affine.for %i = 0 to 2 {
    %x = affine.load %p27[] : memref<f32>
    %y = affine.load %q27[] : memref<f32>
    %s = arith.addf %x, %y : f32
    affine.store %s, %p28[] : memref<f32>
    affine.store %s, %q28[] : memref<f32>
  }
  affine.for %i = 0 to 2 {
    %v = affine.load %in[] : memref<f32>
    affine.store %v, %out[] : memref<f32>
  }
  return
}
