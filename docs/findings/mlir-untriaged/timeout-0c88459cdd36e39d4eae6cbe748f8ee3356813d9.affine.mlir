module {
  memref.global "private" constant @__constant_1x1x1x1xf32 : memref<1x1x1x1xf32> = dense<6.250000e+00> {alignment = 64 : i64}
  memref.global "private" constant @__constant_2xf64 : memref<2xf64> = dense<0.000000e+00> {alignment = 64 : i64}
  memref.global "private" constant @__constant_2x1x1x1xf32 : memref<2x1x1x1xf32> = dense<4.000000e+00> {alignment = 64 : i64}
  func.func @main(%arg0: memref<f32>, %arg1: memref<?x?x?x4xf32>, %arg2: memref<i1>, %arg3: memref<f32>, %arg4: memref<f32>, %arg5: memref<f32>) -> memref<2xf32> {
    %cst = arith.constant 4.000000e+00 : f32
    %cst_0 = arith.constant 6.250000e+00 : f32
    %c2 = arith.constant 2 : index
    %c1 = arith.constant 1 : index
    %c0 = arith.constant 0 : index
    %0 = memref.get_global @__constant_2xf64 : memref<2xf64>
    %alloc = memref.alloc() {alignment = 64 : i64} : memref<2x1x1x4xf32>
    %dim = memref.dim %arg1, %c0 : memref<?x?x?x4xf32>
    %dim_1 = memref.dim %arg1, %c1 : memref<?x?x?x4xf32>
    %dim_2 = memref.dim %arg1, %c2 : memref<?x?x?x4xf32>
    affine.for %arg6 = 0 to %dim {
      affine.for %arg7 = 0 to %dim_1 {
        affine.for %arg8 = 0 to %dim_2 {
          affine.for %arg9 = 0 to 4 {
            %3 = affine.load %arg1[%arg6, %arg7, %arg8, %arg9] : memref<?x?x?x4xf32>
            %4 = arith.addf %3, %cst_0 : f32
            affine.store %4, %alloc[%arg6, %arg7, %arg8, %arg9] : memref<2x1x1x4xf32>
          }
        }
      }
    }
    %1 = memref.load %arg2[] : memref<i1>
    %alloc_3 = memref.alloc() {alignment = 64 : i64} : memref<f32>
    %2 = scf.if %1 -> (memref<f32, strided<[], offset: ?>>) {
      %cast = memref.cast %arg3 : memref<f32> to memref<f32, strided<[], offset: ?>>
      scf.yield %cast : memref<f32, strided<[], offset: ?>>
    } else {
      %3 = affine.load %arg5[] : memref<f32>
      %4 = affine.load %arg4[] : memref<f32>
      %5 = arith.addf %3, %4 : f32
      affine.store %5, %alloc_3[] : memref<f32>
      %cast = memref.cast %alloc_3 : memref<f32> to memref<f32, strided<[], offset: ?>>
      scf.yield %cast : memref<f32, strided<[], offset: ?>>
    }
    %expand_shape = memref.expand_shape %2 [] output_shape [1, 1, 1, 1] : memref<f32, strided<[], offset: ?>> into memref<1x1x1x1xf32, strided<[1, 1, 1, 1], offset: ?>>
    %alloc_4 = memref.alloc() {alignment = 64 : i64} : memref<2x1x1x1x1x1x4x1xf32>
    affine.for %arg6 = 0 to 2 {
      affine.for %arg7 = 0 to 1 {
        affine.for %arg8 = 0 to 1 {
          affine.for %arg9 = 0 to 1 {
            affine.for %arg10 = 0 to 1 {
              affine.for %arg11 = 0 to 1 {
                affine.for %arg12 = 0 to 4 {
                  affine.for %arg13 = 0 to 1 {
                    %3 = affine.load %expand_shape[%arg7, %arg9, %arg11, %arg13] : memref<1x1x1x1xf32, strided<[1, 1, 1, 1], offset: ?>>
                    affine.store %3, %alloc_4[%arg6, %arg7, %arg8, %arg9, %arg10, %arg11, %arg12, %arg13] : memref<2x1x1x1x1x1x4x1xf32>
                  }
                }
              }
            }
          }
        }
      }
    }
    %collapse_shape = memref.collapse_shape %alloc_4 [[0], [1], [2, 3, 4, 5], [6, 7]] : memref<2x1x1x1x1x1x4x1xf32> into memref<2x1x1x4xf32>
    affine.for %arg6 = 0 to 2 {
      affine.for %arg7 = 0 to 1 {
        affine.for %arg8 = 0 to 1 {
          affine.for %arg9 = 0 to 4 {
            %3 = affine.load %alloc[%arg6, %arg7, %arg8, %arg9] : memref<2x1x1x4xf32>
            %4 = affine.load %collapse_shape[%arg6, %arg7, %arg8, %arg9] : memref<2x1x1x4xf32>
            %5 = arith.remf %3, %4 : f32
            affine.store %5, %alloc[%arg6, %arg7, %arg8, %arg9] : memref<2x1x1x4xf32>
          }
        }
      }
    }
    affine.for %arg6 = 0 to 2 {
      affine.for %arg7 = 0 to 1 {
        affine.for %arg8 = 0 to 1 {
          affine.for %arg9 = 0 to 4 {
            %3 = affine.load %alloc[%arg6, %arg7, %arg8, %arg9] : memref<2x1x1x4xf32>
            %4 = affine.load %alloc[%arg6, %arg7, %arg8, %arg9] : memref<2x1x1x4xf32>
            %5 = arith.mulf %3, %4 : f32
            affine.store %5, %alloc[%arg6, %arg7, %arg8, %arg9] : memref<2x1x1x4xf32>
          }
        }
      }
    }
    %alloc_5 = memref.alloc() {alignment = 64 : i64} : memref<2xf64>
    memref.copy %0, %alloc_5 : memref<2xf64> to memref<2xf64>
    affine.for %arg6 = 0 to 2 {
      affine.for %arg7 = 0 to 1 {
        affine.for %arg8 = 0 to 1 {
          affine.for %arg9 = 0 to 4 {
            %3 = affine.load %alloc[%arg6, %arg7, %arg8, %arg9] : memref<2x1x1x4xf32>
            %4 = affine.load %alloc_5[%arg6] : memref<2xf64>
            %5 = arith.extf %3 : f32 to f64
            %6 = arith.addf %5, %4 : f64
            affine.store %6, %alloc_5[%arg6] : memref<2xf64>
          }
        }
      }
    }
    %alloc_6 = memref.alloc() {alignment = 64 : i64} : memref<2xf32>
    affine.for %arg6 = 0 to 2 {
      %3 = affine.load %alloc_5[%arg6] : memref<2xf64>
      %4 = arith.truncf %3 : f64 to f32
      affine.store %4, %alloc_6[%arg6] : memref<2xf32>
    }
    %expand_shape_7 = memref.expand_shape %alloc_6 [[0, 1, 2, 3]] output_shape [2, 1, 1, 1] : memref<2xf32> into memref<2x1x1x1xf32>
    affine.for %arg6 = 0 to 2 {
      affine.for %arg7 = 0 to 1 {
        affine.for %arg8 = 0 to 1 {
          affine.for %arg9 = 0 to 1 {
            %3 = affine.load %expand_shape_7[%arg6, %arg7, %arg8, %arg9] : memref<2x1x1x1xf32>
            %4 = arith.divf %3, %cst : f32
            affine.store %4, %expand_shape_7[%arg6, %arg7, %arg8, %arg9] : memref<2x1x1x1xf32>
          }
        }
      }
    }
    affine.for %arg6 = 0 to 2 {
      affine.for %arg7 = 0 to 1 {
        affine.for %arg8 = 0 to 1 {
          affine.for %arg9 = 0 to 1 {
            %3 = affine.load %expand_shape_7[%arg6, %arg7, %arg8, %arg9] : memref<2x1x1x1xf32>
            %4 = math.sqrt %3 : f32
            affine.store %4, %expand_shape_7[%arg6, %arg7, %arg8, %arg9] : memref<2x1x1x1xf32>
          }
        }
      }
    }
    %alloc_8 = memref.alloc() {alignment = 64 : i64} : memref<2xf32>
    %dim_9 = memref.dim %arg1, %c0 : memref<?x?x?x4xf32>
    %dim_10 = memref.dim %arg1, %c1 : memref<?x?x?x4xf32>
    %dim_11 = memref.dim %arg1, %c2 : memref<?x?x?x4xf32>
    affine.for %arg6 = 0 to %dim_9 {
      affine.for %arg7 = 0 to %dim_10 {
        affine.for %arg8 = 0 to %dim_11 {
          affine.for %arg9 = 0 to 4 {
            %3 = affine.load %arg1[%arg6, %arg7, %arg8, %arg9] : memref<?x?x?x4xf32>
            %4 = arith.addf %3, %cst_0 : f32
            affine.store %4, %alloc[%arg6, %arg7, %arg8, %arg9] : memref<2x1x1x4xf32>
          }
        }
      }
    }
    affine.for %arg6 = 0 to 2 {
      affine.for %arg7 = 0 to 1 {
        affine.for %arg8 = 0 to 1 {
          affine.for %arg9 = 0 to 1 {
            affine.for %arg10 = 0 to 1 {
              affine.for %arg11 = 0 to 1 {
                affine.for %arg12 = 0 to 4 {
                  affine.for %arg13 = 0 to 1 {
                    %3 = affine.load %expand_shape[%arg7, %arg9, %arg11, %arg13] : memref<1x1x1x1xf32, strided<[1, 1, 1, 1], offset: ?>>
                    affine.store %3, %alloc_4[%arg6, %arg7, %arg8, %arg9, %arg10, %arg11, %arg12, %arg13] : memref<2x1x1x1x1x1x4x1xf32>
                  }
                }
              }
            }
          }
        }
      }
    }
    %alloc_12 = memref.alloc() {alignment = 64 : i64} : memref<2x1x1x4xf32>
    %dim_13 = memref.dim %arg1, %c0 : memref<?x?x?x4xf32>
    %dim_14 = memref.dim %arg1, %c1 : memref<?x?x?x4xf32>
    %dim_15 = memref.dim %arg1, %c2 : memref<?x?x?x4xf32>
    affine.for %arg6 = 0 to %dim_13 {
      affine.for %arg7 = 0 to %dim_14 {
        affine.for %arg8 = 0 to %dim_15 {
          affine.for %arg9 = 0 to 4 {
            %3 = affine.load %arg1[%arg6, %arg7, %arg8, %arg9] : memref<?x?x?x4xf32>
            %4 = arith.addf %3, %cst_0 : f32
            affine.store %4, %alloc_12[%arg6, %arg7, %arg8, %arg9] : memref<2x1x1x4xf32>
          }
        }
      }
    }
    affine.for %arg6 = 0 to 2 {
      affine.for %arg7 = 0 to 1 {
        affine.for %arg8 = 0 to 1 {
          affine.for %arg9 = 0 to 4 {
            %3 = affine.load %alloc[%arg6, %arg7, %arg8, %arg9] : memref<2x1x1x4xf32>
            %4 = affine.load %collapse_shape[%arg6, %arg7, %arg8, %arg9] : memref<2x1x1x4xf32>
            %5 = arith.remf %3, %4 : f32
            affine.store %5, %alloc_12[%arg6, %arg7, %arg8, %arg9] : memref<2x1x1x4xf32>
          }
        }
      }
    }
    %dim_16 = memref.dim %arg1, %c0 : memref<?x?x?x4xf32>
    %dim_17 = memref.dim %arg1, %c1 : memref<?x?x?x4xf32>
    %dim_18 = memref.dim %arg1, %c2 : memref<?x?x?x4xf32>
    affine.for %arg6 = 0 to %dim_16 {
      affine.for %arg7 = 0 to %dim_17 {
        affine.for %arg8 = 0 to %dim_18 {
          affine.for %arg9 = 0 to 4 {
            %3 = affine.load %arg1[%arg6, %arg7, %arg8, %arg9] : memref<?x?x?x4xf32>
            %4 = arith.addf %3, %cst_0 : f32
            affine.store %4, %alloc[%arg6, %arg7, %arg8, %arg9] : memref<2x1x1x4xf32>
          }
        }
      }
    }
    affine.for %arg6 = 0 to 2 {
      affine.for %arg7 = 0 to 1 {
        affine.for %arg8 = 0 to 1 {
          affine.for %arg9 = 0 to 1 {
            affine.for %arg10 = 0 to 1 {
              affine.for %arg11 = 0 to 1 {
                affine.for %arg12 = 0 to 4 {
                  affine.for %arg13 = 0 to 1 {
                    %3 = affine.load %expand_shape[%arg7, %arg9, %arg11, %arg13] : memref<1x1x1x1xf32, strided<[1, 1, 1, 1], offset: ?>>
                    affine.store %3, %alloc_4[%arg6, %arg7, %arg8, %arg9, %arg10, %arg11, %arg12, %arg13] : memref<2x1x1x1x1x1x4x1xf32>
                  }
                }
              }
            }
          }
        }
      }
    }
    %alloc_19 = memref.alloc() {alignment = 64 : i64} : memref<2x1x1x4xf32>
    %dim_20 = memref.dim %arg1, %c0 : memref<?x?x?x4xf32>
    %dim_21 = memref.dim %arg1, %c1 : memref<?x?x?x4xf32>
    %dim_22 = memref.dim %arg1, %c2 : memref<?x?x?x4xf32>
    affine.for %arg6 = 0 to %dim_20 {
      affine.for %arg7 = 0 to %dim_21 {
        affine.for %arg8 = 0 to %dim_22 {
          affine.for %arg9 = 0 to 4 {
            %3 = affine.load %arg1[%arg6, %arg7, %arg8, %arg9] : memref<?x?x?x4xf32>
            %4 = arith.addf %3, %cst_0 : f32
            affine.store %4, %alloc_19[%arg6, %arg7, %arg8, %arg9] : memref<2x1x1x4xf32>
          }
        }
      }
    }
    affine.for %arg6 = 0 to 2 {
      affine.for %arg7 = 0 to 1 {
        affine.for %arg8 = 0 to 1 {
          affine.for %arg9 = 0 to 4 {
            %3 = affine.load %alloc[%arg6, %arg7, %arg8, %arg9] : memref<2x1x1x4xf32>
            %4 = affine.load %collapse_shape[%arg6, %arg7, %arg8, %arg9] : memref<2x1x1x4xf32>
            %5 = arith.remf %3, %4 : f32
            affine.store %5, %alloc_19[%arg6, %arg7, %arg8, %arg9] : memref<2x1x1x4xf32>
          }
        }
      }
    }
    %alloc_23 = memref.alloc() {alignment = 64 : i64} : memref<2x1x1x4xf32>
    %dim_24 = memref.dim %arg1, %c0 : memref<?x?x?x4xf32>
    %dim_25 = memref.dim %arg1, %c1 : memref<?x?x?x4xf32>
    %dim_26 = memref.dim %arg1, %c2 : memref<?x?x?x4xf32>
    affine.for %arg6 = 0 to %dim_24 {
      affine.for %arg7 = 0 to %dim_25 {
        affine.for %arg8 = 0 to %dim_26 {
          affine.for %arg9 = 0 to 4 {
            %3 = affine.load %arg1[%arg6, %arg7, %arg8, %arg9] : memref<?x?x?x4xf32>
            %4 = arith.addf %3, %cst_0 : f32
            affine.store %4, %alloc_23[%arg6, %arg7, %arg8, %arg9] : memref<2x1x1x4xf32>
          }
        }
      }
    }
    affine.for %arg6 = 0 to 2 {
      affine.for %arg7 = 0 to 1 {
        affine.for %arg8 = 0 to 1 {
          affine.for %arg9 = 0 to 1 {
            affine.for %arg10 = 0 to 1 {
              affine.for %arg11 = 0 to 1 {
                affine.for %arg12 = 0 to 4 {
                  affine.for %arg13 = 0 to 1 {
                    %3 = affine.load %expand_shape[%arg7, %arg9, %arg11, %arg13] : memref<1x1x1x1xf32, strided<[1, 1, 1, 1], offset: ?>>
                    affine.store %3, %alloc_4[%arg6, %arg7, %arg8, %arg9, %arg10, %arg11, %arg12, %arg13] : memref<2x1x1x1x1x1x4x1xf32>
                  }
                }
              }
            }
          }
        }
      }
    }
    %dim_27 = memref.dim %arg1, %c0 : memref<?x?x?x4xf32>
    %dim_28 = memref.dim %arg1, %c1 : memref<?x?x?x4xf32>
    %dim_29 = memref.dim %arg1, %c2 : memref<?x?x?x4xf32>
    affine.for %arg6 = 0 to %dim_27 {
      affine.for %arg7 = 0 to %dim_28 {
        affine.for %arg8 = 0 to %dim_29 {
          affine.for %arg9 = 0 to 4 {
            %3 = affine.load %arg1[%arg6, %arg7, %arg8, %arg9] : memref<?x?x?x4xf32>
            %4 = arith.addf %3, %cst_0 : f32
            affine.store %4, %alloc[%arg6, %arg7, %arg8, %arg9] : memref<2x1x1x4xf32>
          }
        }
      }
    }
    affine.for %arg6 = 0 to 2 {
      affine.for %arg7 = 0 to 1 {
        affine.for %arg8 = 0 to 1 {
          affine.for %arg9 = 0 to 4 {
            %3 = affine.load %alloc_23[%arg6, %arg7, %arg8, %arg9] : memref<2x1x1x4xf32>
            %4 = affine.load %collapse_shape[%arg6, %arg7, %arg8, %arg9] : memref<2x1x1x4xf32>
            %5 = arith.remf %3, %4 : f32
            affine.store %5, %alloc[%arg6, %arg7, %arg8, %arg9] : memref<2x1x1x4xf32>
          }
        }
      }
    }
    affine.for %arg6 = 0 to 2 {
      affine.for %arg7 = 0 to 1 {
        affine.for %arg8 = 0 to 1 {
          affine.for %arg9 = 0 to 4 {
            %3 = affine.load %alloc_12[%arg6, %arg7, %arg8, %arg9] : memref<2x1x1x4xf32>
            %4 = affine.load %alloc_19[%arg6, %arg7, %arg8, %arg9] : memref<2x1x1x4xf32>
            %5 = arith.mulf %3, %4 : f32
            affine.store %5, %alloc[%arg6, %arg7, %arg8, %arg9] : memref<2x1x1x4xf32>
          }
        }
      }
    }
    %alloc_30 = memref.alloc() {alignment = 64 : i64} : memref<2xf64>
    memref.copy %0, %alloc_30 : memref<2xf64> to memref<2xf64>
    affine.for %arg6 = 0 to 2 {
      affine.for %arg7 = 0 to 1 {
        affine.for %arg8 = 0 to 1 {
          affine.for %arg9 = 0 to 4 {
            %3 = affine.load %alloc[%arg6, %arg7, %arg8, %arg9] : memref<2x1x1x4xf32>
            %4 = affine.load %alloc_30[%arg6] : memref<2xf64>
            %5 = arith.extf %3 : f32 to f64
            %6 = arith.addf %5, %4 : f64
            affine.store %6, %alloc_30[%arg6] : memref<2xf64>
          }
        }
      }
    }
    affine.for %arg6 = 0 to 2 {
      %3 = affine.load %alloc_30[%arg6] : memref<2xf64>
      %4 = arith.truncf %3 : f64 to f32
      affine.store %4, %alloc_6[%arg6] : memref<2xf32>
    }
    %dim_31 = memref.dim %arg1, %c0 : memref<?x?x?x4xf32>
    %dim_32 = memref.dim %arg1, %c1 : memref<?x?x?x4xf32>
    %dim_33 = memref.dim %arg1, %c2 : memref<?x?x?x4xf32>
    affine.for %arg6 = 0 to %dim_31 {
      affine.for %arg7 = 0 to %dim_32 {
        affine.for %arg8 = 0 to %dim_33 {
          affine.for %arg9 = 0 to 4 {
            %3 = affine.load %arg1[%arg6, %arg7, %arg8, %arg9] : memref<?x?x?x4xf32>
            %4 = arith.addf %3, %cst_0 : f32
            affine.store %4, %alloc[%arg6, %arg7, %arg8, %arg9] : memref<2x1x1x4xf32>
          }
        }
      }
    }
    affine.for %arg6 = 0 to 2 {
      affine.for %arg7 = 0 to 1 {
        affine.for %arg8 = 0 to 1 {
          affine.for %arg9 = 0 to 1 {
            affine.for %arg10 = 0 to 1 {
              affine.for %arg11 = 0 to 1 {
                affine.for %arg12 = 0 to 4 {
                  affine.for %arg13 = 0 to 1 {
                    %3 = affine.load %expand_shape[%arg7, %arg9, %arg11, %arg13] : memref<1x1x1x1xf32, strided<[1, 1, 1, 1], offset: ?>>
                    affine.store %3, %alloc_4[%arg6, %arg7, %arg8, %arg9, %arg10, %arg11, %arg12, %arg13] : memref<2x1x1x1x1x1x4x1xf32>
                  }
                }
              }
            }
          }
        }
      }
    }
    %alloc_34 = memref.alloc() {alignment = 64 : i64} : memref<2x1x1x4xf32>
    %dim_35 = memref.dim %arg1, %c0 : memref<?x?x?x4xf32>
    %dim_36 = memref.dim %arg1, %c1 : memref<?x?x?x4xf32>
    %dim_37 = memref.dim %arg1, %c2 : memref<?x?x?x4xf32>
    affine.for %arg6 = 0 to %dim_35 {
      affine.for %arg7 = 0 to %dim_36 {
        affine.for %arg8 = 0 to %dim_37 {
          affine.for %arg9 = 0 to 4 {
            %3 = affine.load %arg1[%arg6, %arg7, %arg8, %arg9] : memref<?x?x?x4xf32>
            %4 = arith.addf %3, %cst_0 : f32
            affine.store %4, %alloc_34[%arg6, %arg7, %arg8, %arg9] : memref<2x1x1x4xf32>
          }
        }
      }
    }
    affine.for %arg6 = 0 to 2 {
      affine.for %arg7 = 0 to 1 {
        affine.for %arg8 = 0 to 1 {
          affine.for %arg9 = 0 to 4 {
            %3 = affine.load %alloc[%arg6, %arg7, %arg8, %arg9] : memref<2x1x1x4xf32>
            %4 = affine.load %collapse_shape[%arg6, %arg7, %arg8, %arg9] : memref<2x1x1x4xf32>
            %5 = arith.remf %3, %4 : f32
            affine.store %5, %alloc_34[%arg6, %arg7, %arg8, %arg9] : memref<2x1x1x4xf32>
          }
        }
      }
    }
    %dim_38 = memref.dim %arg1, %c0 : memref<?x?x?x4xf32>
    %dim_39 = memref.dim %arg1, %c1 : memref<?x?x?x4xf32>
    %dim_40 = memref.dim %arg1, %c2 : memref<?x?x?x4xf32>
    affine.for %arg6 = 0 to %dim_38 {
      affine.for %arg7 = 0 to %dim_39 {
        affine.for %arg8 = 0 to %dim_40 {
          affine.for %arg9 = 0 to 4 {
            %3 = affine.load %arg1[%arg6, %arg7, %arg8, %arg9] : memref<?x?x?x4xf32>
            %4 = arith.addf %3, %cst_0 : f32
            affine.store %4, %alloc[%arg6, %arg7, %arg8, %arg9] : memref<2x1x1x4xf32>
          }
        }
      }
    }
    affine.for %arg6 = 0 to 2 {
      affine.for %arg7 = 0 to 1 {
        affine.for %arg8 = 0 to 1 {
          affine.for %arg9 = 0 to 1 {
            affine.for %arg10 = 0 to 1 {
              affine.for %arg11 = 0 to 1 {
                affine.for %arg12 = 0 to 4 {
                  affine.for %arg13 = 0 to 1 {
                    %3 = affine.load %expand_shape[%arg7, %arg9, %arg11, %arg13] : memref<1x1x1x1xf32, strided<[1, 1, 1, 1], offset: ?>>
                    affine.store %3, %alloc_4[%arg6, %arg7, %arg8, %arg9, %arg10, %arg11, %arg12, %arg13] : memref<2x1x1x1x1x1x4x1xf32>
                  }
                }
              }
            }
          }
        }
      }
    }
    %alloc_41 = memref.alloc() {alignment = 64 : i64} : memref<2x1x1x4xf32>
    %dim_42 = memref.dim %arg1, %c0 : memref<?x?x?x4xf32>
    %dim_43 = memref.dim %arg1, %c1 : memref<?x?x?x4xf32>
    %dim_44 = memref.dim %arg1, %c2 : memref<?x?x?x4xf32>
    affine.for %arg6 = 0 to %dim_42 {
      affine.for %arg7 = 0 to %dim_43 {
        affine.for %arg8 = 0 to %dim_44 {
          affine.for %arg9 = 0 to 4 {
            %3 = affine.load %arg1[%arg6, %arg7, %arg8, %arg9] : memref<?x?x?x4xf32>
            %4 = arith.addf %3, %cst_0 : f32
            affine.store %4, %alloc_41[%arg6, %arg7, %arg8, %arg9] : memref<2x1x1x4xf32>
          }
        }
      }
    }
    affine.for %arg6 = 0 to 2 {
      affine.for %arg7 = 0 to 1 {
        affine.for %arg8 = 0 to 1 {
          affine.for %arg9 = 0 to 4 {
            %3 = affine.load %alloc[%arg6, %arg7, %arg8, %arg9] : memref<2x1x1x4xf32>
            %4 = affine.load %collapse_shape[%arg6, %arg7, %arg8, %arg9] : memref<2x1x1x4xf32>
            %5 = arith.remf %3, %4 : f32
            affine.store %5, %alloc_41[%arg6, %arg7, %arg8, %arg9] : memref<2x1x1x4xf32>
          }
        }
      }
    }
    %alloc_45 = memref.alloc() {alignment = 64 : i64} : memref<2x1x1x4xf32>
    %dim_46 = memref.dim %arg1, %c0 : memref<?x?x?x4xf32>
    %dim_47 = memref.dim %arg1, %c1 : memref<?x?x?x4xf32>
    %dim_48 = memref.dim %arg1, %c2 : memref<?x?x?x4xf32>
    affine.for %arg6 = 0 to %dim_46 {
      affine.for %arg7 = 0 to %dim_47 {
        affine.for %arg8 = 0 to %dim_48 {
          affine.for %arg9 = 0 to 4 {
            %3 = affine.load %arg1[%arg6, %arg7, %arg8, %arg9] : memref<?x?x?x4xf32>
            %4 = arith.addf %3, %cst_0 : f32
            affine.store %4, %alloc_45[%arg6, %arg7, %arg8, %arg9] : memref<2x1x1x4xf32>
          }
        }
      }
    }
    affine.for %arg6 = 0 to 2 {
      affine.for %arg7 = 0 to 1 {
        affine.for %arg8 = 0 to 1 {
          affine.for %arg9 = 0 to 1 {
            affine.for %arg10 = 0 to 1 {
              affine.for %arg11 = 0 to 1 {
                affine.for %arg12 = 0 to 4 {
                  affine.for %arg13 = 0 to 1 {
                    %3 = affine.load %expand_shape[%arg7, %arg9, %arg11, %arg13] : memref<1x1x1x1xf32, strided<[1, 1, 1, 1], offset: ?>>
                    affine.store %3, %alloc_4[%arg6, %arg7, %arg8, %arg9, %arg10, %arg11, %arg12, %arg13] : memref<2x1x1x1x1x1x4x1xf32>
                  }
                }
              }
            }
          }
        }
      }
    }
    %dim_49 = memref.dim %arg1, %c0 : memref<?x?x?x4xf32>
    %dim_50 = memref.dim %arg1, %c1 : memref<?x?x?x4xf32>
    %dim_51 = memref.dim %arg1, %c2 : memref<?x?x?x4xf32>
    affine.for %arg6 = 0 to %dim_49 {
      affine.for %arg7 = 0 to %dim_50 {
        affine.for %arg8 = 0 to %dim_51 {
          affine.for %arg9 = 0 to 4 {
            %3 = affine.load %arg1[%arg6, %arg7, %arg8, %arg9] : memref<?x?x?x4xf32>
            %4 = arith.addf %3, %cst_0 : f32
            affine.store %4, %alloc[%arg6, %arg7, %arg8, %arg9] : memref<2x1x1x4xf32>
          }
        }
      }
    }
    affine.for %arg6 = 0 to 2 {
      affine.for %arg7 = 0 to 1 {
        affine.for %arg8 = 0 to 1 {
          affine.for %arg9 = 0 to 4 {
            %3 = affine.load %alloc_45[%arg6, %arg7, %arg8, %arg9] : memref<2x1x1x4xf32>
            %4 = affine.load %collapse_shape[%arg6, %arg7, %arg8, %arg9] : memref<2x1x1x4xf32>
            %5 = arith.remf %3, %4 : f32
            affine.store %5, %alloc[%arg6, %arg7, %arg8, %arg9] : memref<2x1x1x4xf32>
          }
        }
      }
    }
    affine.for %arg6 = 0 to 2 {
      affine.for %arg7 = 0 to 1 {
        affine.for %arg8 = 0 to 1 {
          affine.for %arg9 = 0 to 4 {
            %3 = affine.load %alloc_34[%arg6, %arg7, %arg8, %arg9] : memref<2x1x1x4xf32>
            %4 = affine.load %alloc_41[%arg6, %arg7, %arg8, %arg9] : memref<2x1x1x4xf32>
            %5 = arith.mulf %3, %4 : f32
            affine.store %5, %alloc[%arg6, %arg7, %arg8, %arg9] : memref<2x1x1x4xf32>
          }
        }
      }
    }
    %alloc_52 = memref.alloc() {alignment = 64 : i64} : memref<2xf64>
    memref.copy %0, %alloc_52 : memref<2xf64> to memref<2xf64>
    affine.for %arg6 = 0 to 2 {
      affine.for %arg7 = 0 to 1 {
        affine.for %arg8 = 0 to 1 {
          affine.for %arg9 = 0 to 4 {
            %3 = affine.load %alloc[%arg6, %arg7, %arg8, %arg9] : memref<2x1x1x4xf32>
            %4 = affine.load %alloc_52[%arg6] : memref<2xf64>
            %5 = arith.extf %3 : f32 to f64
            %6 = arith.addf %5, %4 : f64
            affine.store %6, %alloc_52[%arg6] : memref<2xf64>
          }
        }
      }
    }
    %alloc_53 = memref.alloc() {alignment = 64 : i64} : memref<2xf32>
    affine.for %arg6 = 0 to 2 {
      %3 = affine.load %alloc_52[%arg6] : memref<2xf64>
      %4 = arith.truncf %3 : f64 to f32
      affine.store %4, %alloc_53[%arg6] : memref<2xf32>
    }
    %expand_shape_54 = memref.expand_shape %alloc_53 [[0, 1, 2, 3]] output_shape [2, 1, 1, 1] : memref<2xf32> into memref<2x1x1x1xf32>
    affine.for %arg6 = 0 to 2 {
      affine.for %arg7 = 0 to 1 {
        affine.for %arg8 = 0 to 1 {
          affine.for %arg9 = 0 to 1 {
            %3 = affine.load %expand_shape_7[%arg6, %arg7, %arg8, %arg9] : memref<2x1x1x1xf32>
            %4 = arith.divf %3, %cst : f32
            affine.store %4, %expand_shape_54[%arg6, %arg7, %arg8, %arg9] : memref<2x1x1x1xf32>
          }
        }
      }
    }
    %dim_55 = memref.dim %arg1, %c0 : memref<?x?x?x4xf32>
    %dim_56 = memref.dim %arg1, %c1 : memref<?x?x?x4xf32>
    %dim_57 = memref.dim %arg1, %c2 : memref<?x?x?x4xf32>
    affine.for %arg6 = 0 to %dim_55 {
      affine.for %arg7 = 0 to %dim_56 {
        affine.for %arg8 = 0 to %dim_57 {
          affine.for %arg9 = 0 to 4 {
            %3 = affine.load %arg1[%arg6, %arg7, %arg8, %arg9] : memref<?x?x?x4xf32>
            %4 = arith.addf %3, %cst_0 : f32
            affine.store %4, %alloc[%arg6, %arg7, %arg8, %arg9] : memref<2x1x1x4xf32>
          }
        }
      }
    }
    affine.for %arg6 = 0 to 2 {
      affine.for %arg7 = 0 to 1 {
        affine.for %arg8 = 0 to 1 {
          affine.for %arg9 = 0 to 1 {
            affine.for %arg10 = 0 to 1 {
              affine.for %arg11 = 0 to 1 {
                affine.for %arg12 = 0 to 4 {
                  affine.for %arg13 = 0 to 1 {
                    %3 = affine.load %expand_shape[%arg7, %arg9, %arg11, %arg13] : memref<1x1x1x1xf32, strided<[1, 1, 1, 1], offset: ?>>
                    affine.store %3, %alloc_4[%arg6, %arg7, %arg8, %arg9, %arg10, %arg11, %arg12, %arg13] : memref<2x1x1x1x1x1x4x1xf32>
                  }
                }
              }
            }
          }
        }
      }
    }
    %alloc_58 = memref.alloc() {alignment = 64 : i64} : memref<2x1x1x4xf32>
    %dim_59 = memref.dim %arg1, %c0 : memref<?x?x?x4xf32>
    %dim_60 = memref.dim %arg1, %c1 : memref<?x?x?x4xf32>
    %dim_61 = memref.dim %arg1, %c2 : memref<?x?x?x4xf32>
    affine.for %arg6 = 0 to %dim_59 {
      affine.for %arg7 = 0 to %dim_60 {
        affine.for %arg8 = 0 to %dim_61 {
          affine.for %arg9 = 0 to 4 {
            %3 = affine.load %arg1[%arg6, %arg7, %arg8, %arg9] : memref<?x?x?x4xf32>
            %4 = arith.addf %3, %cst_0 : f32
            affine.store %4, %alloc_58[%arg6, %arg7, %arg8, %arg9] : memref<2x1x1x4xf32>
          }
        }
      }
    }
    affine.for %arg6 = 0 to 2 {
      affine.for %arg7 = 0 to 1 {
        affine.for %arg8 = 0 to 1 {
          affine.for %arg9 = 0 to 4 {
            %3 = affine.load %alloc[%arg6, %arg7, %arg8, %arg9] : memref<2x1x1x4xf32>
            %4 = affine.load %collapse_shape[%arg6, %arg7, %arg8, %arg9] : memref<2x1x1x4xf32>
            %5 = arith.remf %3, %4 : f32
            affine.store %5, %alloc_58[%arg6, %arg7, %arg8, %arg9] : memref<2x1x1x4xf32>
          }
        }
      }
    }
    %dim_62 = memref.dim %arg1, %c0 : memref<?x?x?x4xf32>
    %dim_63 = memref.dim %arg1, %c1 : memref<?x?x?x4xf32>
    %dim_64 = memref.dim %arg1, %c2 : memref<?x?x?x4xf32>
    affine.for %arg6 = 0 to %dim_62 {
      affine.for %arg7 = 0 to %dim_63 {
        affine.for %arg8 = 0 to %dim_64 {
          affine.for %arg9 = 0 to 4 {
            %3 = affine.load %arg1[%arg6, %arg7, %arg8, %arg9] : memref<?x?x?x4xf32>
            %4 = arith.addf %3, %cst_0 : f32
            affine.store %4, %alloc[%arg6, %arg7, %arg8, %arg9] : memref<2x1x1x4xf32>
          }
        }
      }
    }
    affine.for %arg6 = 0 to 2 {
      affine.for %arg7 = 0 to 1 {
        affine.for %arg8 = 0 to 1 {
          affine.for %arg9 = 0 to 1 {
            affine.for %arg10 = 0 to 1 {
              affine.for %arg11 = 0 to 1 {
                affine.for %arg12 = 0 to 4 {
                  affine.for %arg13 = 0 to 1 {
                    %3 = affine.load %expand_shape[%arg7, %arg9, %arg11, %arg13] : memref<1x1x1x1xf32, strided<[1, 1, 1, 1], offset: ?>>
                    affine.store %3, %alloc_4[%arg6, %arg7, %arg8, %arg9, %arg10, %arg11, %arg12, %arg13] : memref<2x1x1x1x1x1x4x1xf32>
                  }
                }
              }
            }
          }
        }
      }
    }
    %alloc_65 = memref.alloc() {alignment = 64 : i64} : memref<2x1x1x4xf32>
    %dim_66 = memref.dim %arg1, %c0 : memref<?x?x?x4xf32>
    %dim_67 = memref.dim %arg1, %c1 : memref<?x?x?x4xf32>
    %dim_68 = memref.dim %arg1, %c2 : memref<?x?x?x4xf32>
    affine.for %arg6 = 0 to %dim_66 {
      affine.for %arg7 = 0 to %dim_67 {
        affine.for %arg8 = 0 to %dim_68 {
          affine.for %arg9 = 0 to 4 {
            %3 = affine.load %arg1[%arg6, %arg7, %arg8, %arg9] : memref<?x?x?x4xf32>
            %4 = arith.addf %3, %cst_0 : f32
            affine.store %4, %alloc_65[%arg6, %arg7, %arg8, %arg9] : memref<2x1x1x4xf32>
          }
        }
      }
    }
    affine.for %arg6 = 0 to 2 {
      affine.for %arg7 = 0 to 1 {
        affine.for %arg8 = 0 to 1 {
          affine.for %arg9 = 0 to 4 {
            %3 = affine.load %alloc[%arg6, %arg7, %arg8, %arg9] : memref<2x1x1x4xf32>
            %4 = affine.load %collapse_shape[%arg6, %arg7, %arg8, %arg9] : memref<2x1x1x4xf32>
            %5 = arith.remf %3, %4 : f32
            affine.store %5, %alloc_65[%arg6, %arg7, %arg8, %arg9] : memref<2x1x1x4xf32>
          }
        }
      }
    }
    %alloc_69 = memref.alloc() {alignment = 64 : i64} : memref<2x1x1x4xf32>
    %dim_70 = memref.dim %arg1, %c0 : memref<?x?x?x4xf32>
    %dim_71 = memref.dim %arg1, %c1 : memref<?x?x?x4xf32>
    %dim_72 = memref.dim %arg1, %c2 : memref<?x?x?x4xf32>
    affine.for %arg6 = 0 to %dim_70 {
      affine.for %arg7 = 0 to %dim_71 {
        affine.for %arg8 = 0 to %dim_72 {
          affine.for %arg9 = 0 to 4 {
            %3 = affine.load %arg1[%arg6, %arg7, %arg8, %arg9] : memref<?x?x?x4xf32>
            %4 = arith.addf %3, %cst_0 : f32
            affine.store %4, %alloc_69[%arg6, %arg7, %arg8, %arg9] : memref<2x1x1x4xf32>
          }
        }
      }
    }
    affine.for %arg6 = 0 to 2 {
      affine.for %arg7 = 0 to 1 {
        affine.for %arg8 = 0 to 1 {
          affine.for %arg9 = 0 to 1 {
            affine.for %arg10 = 0 to 1 {
              affine.for %arg11 = 0 to 1 {
                affine.for %arg12 = 0 to 4 {
                  affine.for %arg13 = 0 to 1 {
                    %3 = affine.load %expand_shape[%arg7, %arg9, %arg11, %arg13] : memref<1x1x1x1xf32, strided<[1, 1, 1, 1], offset: ?>>
                    affine.store %3, %alloc_4[%arg6, %arg7, %arg8, %arg9, %arg10, %arg11, %arg12, %arg13] : memref<2x1x1x1x1x1x4x1xf32>
                  }
                }
              }
            }
          }
        }
      }
    }
    %dim_73 = memref.dim %arg1, %c0 : memref<?x?x?x4xf32>
    %dim_74 = memref.dim %arg1, %c1 : memref<?x?x?x4xf32>
    %dim_75 = memref.dim %arg1, %c2 : memref<?x?x?x4xf32>
    affine.for %arg6 = 0 to %dim_73 {
      affine.for %arg7 = 0 to %dim_74 {
        affine.for %arg8 = 0 to %dim_75 {
          affine.for %arg9 = 0 to 4 {
            %3 = affine.load %arg1[%arg6, %arg7, %arg8, %arg9] : memref<?x?x?x4xf32>
            %4 = arith.addf %3, %cst_0 : f32
            affine.store %4, %alloc[%arg6, %arg7, %arg8, %arg9] : memref<2x1x1x4xf32>
          }
        }
      }
    }
    affine.for %arg6 = 0 to 2 {
      affine.for %arg7 = 0 to 1 {
        affine.for %arg8 = 0 to 1 {
          affine.for %arg9 = 0 to 4 {
            %3 = affine.load %alloc_69[%arg6, %arg7, %arg8, %arg9] : memref<2x1x1x4xf32>
            %4 = affine.load %collapse_shape[%arg6, %arg7, %arg8, %arg9] : memref<2x1x1x4xf32>
            %5 = arith.remf %3, %4 : f32
            affine.store %5, %alloc[%arg6, %arg7, %arg8, %arg9] : memref<2x1x1x4xf32>
          }
        }
      }
    }
    affine.for %arg6 = 0 to 2 {
      affine.for %arg7 = 0 to 1 {
        affine.for %arg8 = 0 to 1 {
          affine.for %arg9 = 0 to 4 {
            %3 = affine.load %alloc_58[%arg6, %arg7, %arg8, %arg9] : memref<2x1x1x4xf32>
            %4 = affine.load %alloc_65[%arg6, %arg7, %arg8, %arg9] : memref<2x1x1x4xf32>
            %5 = arith.mulf %3, %4 : f32
            affine.store %5, %alloc[%arg6, %arg7, %arg8, %arg9] : memref<2x1x1x4xf32>
          }
        }
      }
    }
    %alloc_76 = memref.alloc() {alignment = 64 : i64} : memref<2xf64>
    memref.copy %0, %alloc_76 : memref<2xf64> to memref<2xf64>
    affine.for %arg6 = 0 to 2 {
      affine.for %arg7 = 0 to 1 {
        affine.for %arg8 = 0 to 1 {
          affine.for %arg9 = 0 to 4 {
            %3 = affine.load %alloc[%arg6, %arg7, %arg8, %arg9] : memref<2x1x1x4xf32>
            %4 = affine.load %alloc_76[%arg6] : memref<2xf64>
            %5 = arith.extf %3 : f32 to f64
            %6 = arith.addf %5, %4 : f64
            affine.store %6, %alloc_76[%arg6] : memref<2xf64>
          }
        }
      }
    }
    %alloc_77 = memref.alloc() {alignment = 64 : i64} : memref<2xf32>
    affine.for %arg6 = 0 to 2 {
      %3 = affine.load %alloc_76[%arg6] : memref<2xf64>
      %4 = arith.truncf %3 : f64 to f32
      affine.store %4, %alloc_77[%arg6] : memref<2xf32>
    }
    %expand_shape_78 = memref.expand_shape %alloc_77 [[0, 1, 2, 3]] output_shape [2, 1, 1, 1] : memref<2xf32> into memref<2x1x1x1xf32>
    %dim_79 = memref.dim %arg1, %c0 : memref<?x?x?x4xf32>
    %dim_80 = memref.dim %arg1, %c1 : memref<?x?x?x4xf32>
    %dim_81 = memref.dim %arg1, %c2 : memref<?x?x?x4xf32>
    affine.for %arg6 = 0 to %dim_79 {
      affine.for %arg7 = 0 to %dim_80 {
        affine.for %arg8 = 0 to %dim_81 {
          affine.for %arg9 = 0 to 4 {
            %3 = affine.load %arg1[%arg6, %arg7, %arg8, %arg9] : memref<?x?x?x4xf32>
            %4 = arith.addf %3, %cst_0 : f32
            affine.store %4, %alloc[%arg6, %arg7, %arg8, %arg9] : memref<2x1x1x4xf32>
          }
        }
      }
    }
    affine.for %arg6 = 0 to 2 {
      affine.for %arg7 = 0 to 1 {
        affine.for %arg8 = 0 to 1 {
          affine.for %arg9 = 0 to 1 {
            affine.for %arg10 = 0 to 1 {
              affine.for %arg11 = 0 to 1 {
                affine.for %arg12 = 0 to 4 {
                  affine.for %arg13 = 0 to 1 {
                    %3 = affine.load %expand_shape[%arg7, %arg9, %arg11, %arg13] : memref<1x1x1x1xf32, strided<[1, 1, 1, 1], offset: ?>>
                    affine.store %3, %alloc_4[%arg6, %arg7, %arg8, %arg9, %arg10, %arg11, %arg12, %arg13] : memref<2x1x1x1x1x1x4x1xf32>
                  }
                }
              }
            }
          }
        }
      }
    }
    %alloc_82 = memref.alloc() {alignment = 64 : i64} : memref<2x1x1x4xf32>
    %dim_83 = memref.dim %arg1, %c0 : memref<?x?x?x4xf32>
    %dim_84 = memref.dim %arg1, %c1 : memref<?x?x?x4xf32>
    %dim_85 = memref.dim %arg1, %c2 : memref<?x?x?x4xf32>
    affine.for %arg6 = 0 to %dim_83 {
      affine.for %arg7 = 0 to %dim_84 {
        affine.for %arg8 = 0 to %dim_85 {
          affine.for %arg9 = 0 to 4 {
            %3 = affine.load %arg1[%arg6, %arg7, %arg8, %arg9] : memref<?x?x?x4xf32>
            %4 = arith.addf %3, %cst_0 : f32
            affine.store %4, %alloc_82[%arg6, %arg7, %arg8, %arg9] : memref<2x1x1x4xf32>
          }
        }
      }
    }
    affine.for %arg6 = 0 to 2 {
      affine.for %arg7 = 0 to 1 {
        affine.for %arg8 = 0 to 1 {
          affine.for %arg9 = 0 to 4 {
            %3 = affine.load %alloc[%arg6, %arg7, %arg8, %arg9] : memref<2x1x1x4xf32>
            %4 = affine.load %collapse_shape[%arg6, %arg7, %arg8, %arg9] : memref<2x1x1x4xf32>
            %5 = arith.remf %3, %4 : f32
            affine.store %5, %alloc_82[%arg6, %arg7, %arg8, %arg9] : memref<2x1x1x4xf32>
          }
        }
      }
    }
    %dim_86 = memref.dim %arg1, %c0 : memref<?x?x?x4xf32>
    %dim_87 = memref.dim %arg1, %c1 : memref<?x?x?x4xf32>
    %dim_88 = memref.dim %arg1, %c2 : memref<?x?x?x4xf32>
    affine.for %arg6 = 0 to %dim_86 {
      affine.for %arg7 = 0 to %dim_87 {
        affine.for %arg8 = 0 to %dim_88 {
          affine.for %arg9 = 0 to 4 {
            %3 = affine.load %arg1[%arg6, %arg7, %arg8, %arg9] : memref<?x?x?x4xf32>
            %4 = arith.addf %3, %cst_0 : f32
            affine.store %4, %alloc[%arg6, %arg7, %arg8, %arg9] : memref<2x1x1x4xf32>
          }
        }
      }
    }
    affine.for %arg6 = 0 to 2 {
      affine.for %arg7 = 0 to 1 {
        affine.for %arg8 = 0 to 1 {
          affine.for %arg9 = 0 to 1 {
            affine.for %arg10 = 0 to 1 {
              affine.for %arg11 = 0 to 1 {
                affine.for %arg12 = 0 to 4 {
                  affine.for %arg13 = 0 to 1 {
                    %3 = affine.load %expand_shape[%arg7, %arg9, %arg11, %arg13] : memref<1x1x1x1xf32, strided<[1, 1, 1, 1], offset: ?>>
                    affine.store %3, %alloc_4[%arg6, %arg7, %arg8, %arg9, %arg10, %arg11, %arg12, %arg13] : memref<2x1x1x1x1x1x4x1xf32>
                  }
                }
              }
            }
          }
        }
      }
    }
    %alloc_89 = memref.alloc() {alignment = 64 : i64} : memref<2x1x1x4xf32>
    %dim_90 = memref.dim %arg1, %c0 : memref<?x?x?x4xf32>
    %dim_91 = memref.dim %arg1, %c1 : memref<?x?x?x4xf32>
    %dim_92 = memref.dim %arg1, %c2 : memref<?x?x?x4xf32>
    affine.for %arg6 = 0 to %dim_90 {
      affine.for %arg7 = 0 to %dim_91 {
        affine.for %arg8 = 0 to %dim_92 {
          affine.for %arg9 = 0 to 4 {
            %3 = affine.load %arg1[%arg6, %arg7, %arg8, %arg9] : memref<?x?x?x4xf32>
            %4 = arith.addf %3, %cst_0 : f32
            affine.store %4, %alloc_89[%arg6, %arg7, %arg8, %arg9] : memref<2x1x1x4xf32>
          }
        }
      }
    }
    affine.for %arg6 = 0 to 2 {
      affine.for %arg7 = 0 to 1 {
        affine.for %arg8 = 0 to 1 {
          affine.for %arg9 = 0 to 4 {
            %3 = affine.load %alloc[%arg6, %arg7, %arg8, %arg9] : memref<2x1x1x4xf32>
            %4 = affine.load %collapse_shape[%arg6, %arg7, %arg8, %arg9] : memref<2x1x1x4xf32>
            %5 = arith.remf %3, %4 : f32
            affine.store %5, %alloc_89[%arg6, %arg7, %arg8, %arg9] : memref<2x1x1x4xf32>
          }
        }
      }
    }
    %alloc_93 = memref.alloc() {alignment = 64 : i64} : memref<2x1x1x4xf32>
    %dim_94 = memref.dim %arg1, %c0 : memref<?x?x?x4xf32>
    %dim_95 = memref.dim %arg1, %c1 : memref<?x?x?x4xf32>
    %dim_96 = memref.dim %arg1, %c2 : memref<?x?x?x4xf32>
    affine.for %arg6 = 0 to %dim_94 {
      affine.for %arg7 = 0 to %dim_95 {
        affine.for %arg8 = 0 to %dim_96 {
          affine.for %arg9 = 0 to 4 {
            %3 = affine.load %arg1[%arg6, %arg7, %arg8, %arg9] : memref<?x?x?x4xf32>
            %4 = arith.addf %3, %cst_0 : f32
            affine.store %4, %alloc_93[%arg6, %arg7, %arg8, %arg9] : memref<2x1x1x4xf32>
          }
        }
      }
    }
    affine.for %arg6 = 0 to 2 {
      affine.for %arg7 = 0 to 1 {
        affine.for %arg8 = 0 to 1 {
          affine.for %arg9 = 0 to 1 {
            affine.for %arg10 = 0 to 1 {
              affine.for %arg11 = 0 to 1 {
                affine.for %arg12 = 0 to 4 {
                  affine.for %arg13 = 0 to 1 {
                    %3 = affine.load %expand_shape[%arg7, %arg9, %arg11, %arg13] : memref<1x1x1x1xf32, strided<[1, 1, 1, 1], offset: ?>>
                    affine.store %3, %alloc_4[%arg6, %arg7, %arg8, %arg9, %arg10, %arg11, %arg12, %arg13] : memref<2x1x1x1x1x1x4x1xf32>
                  }
                }
              }
            }
          }
        }
      }
    }
    %dim_97 = memref.dim %arg1, %c0 : memref<?x?x?x4xf32>
    %dim_98 = memref.dim %arg1, %c1 : memref<?x?x?x4xf32>
    %dim_99 = memref.dim %arg1, %c2 : memref<?x?x?x4xf32>
    affine.for %arg6 = 0 to %dim_97 {
      affine.for %arg7 = 0 to %dim_98 {
        affine.for %arg8 = 0 to %dim_99 {
          affine.for %arg9 = 0 to 4 {
            %3 = affine.load %arg1[%arg6, %arg7, %arg8, %arg9] : memref<?x?x?x4xf32>
            %4 = arith.addf %3, %cst_0 : f32
            affine.store %4, %alloc[%arg6, %arg7, %arg8, %arg9] : memref<2x1x1x4xf32>
          }
        }
      }
    }
    affine.for %arg6 = 0 to 2 {
      affine.for %arg7 = 0 to 1 {
        affine.for %arg8 = 0 to 1 {
          affine.for %arg9 = 0 to 4 {
            %3 = affine.load %alloc_93[%arg6, %arg7, %arg8, %arg9] : memref<2x1x1x4xf32>
            %4 = affine.load %collapse_shape[%arg6, %arg7, %arg8, %arg9] : memref<2x1x1x4xf32>
            %5 = arith.remf %3, %4 : f32
            affine.store %5, %alloc[%arg6, %arg7, %arg8, %arg9] : memref<2x1x1x4xf32>
          }
        }
      }
    }
    affine.for %arg6 = 0 to 2 {
      affine.for %arg7 = 0 to 1 {
        affine.for %arg8 = 0 to 1 {
          affine.for %arg9 = 0 to 4 {
            %3 = affine.load %alloc_82[%arg6, %arg7, %arg8, %arg9] : memref<2x1x1x4xf32>
            %4 = affine.load %alloc_89[%arg6, %arg7, %arg8, %arg9] : memref<2x1x1x4xf32>
            %5 = arith.mulf %3, %4 : f32
            affine.store %5, %alloc[%arg6, %arg7, %arg8, %arg9] : memref<2x1x1x4xf32>
          }
        }
      }
    }
    %alloc_100 = memref.alloc() {alignment = 64 : i64} : memref<2xf64>
    memref.copy %0, %alloc_100 : memref<2xf64> to memref<2xf64>
    affine.for %arg6 = 0 to 2 {
      affine.for %arg7 = 0 to 1 {
        affine.for %arg8 = 0 to 1 {
          affine.for %arg9 = 0 to 4 {
            %3 = affine.load %alloc[%arg6, %arg7, %arg8, %arg9] : memref<2x1x1x4xf32>
            %4 = affine.load %alloc_100[%arg6] : memref<2xf64>
            %5 = arith.extf %3 : f32 to f64
            %6 = arith.addf %5, %4 : f64
            affine.store %6, %alloc_100[%arg6] : memref<2xf64>
          }
        }
      }
    }
    affine.for %arg6 = 0 to 2 {
      %3 = affine.load %alloc_100[%arg6] : memref<2xf64>
      %4 = arith.truncf %3 : f64 to f32
      affine.store %4, %alloc_6[%arg6] : memref<2xf32>
    }
    affine.for %arg6 = 0 to 2 {
      affine.for %arg7 = 0 to 1 {
        affine.for %arg8 = 0 to 1 {
          affine.for %arg9 = 0 to 1 {
            %3 = affine.load %expand_shape_78[%arg6, %arg7, %arg8, %arg9] : memref<2x1x1x1xf32>
            %4 = arith.divf %3, %cst : f32
            affine.store %4, %expand_shape_7[%arg6, %arg7, %arg8, %arg9] : memref<2x1x1x1xf32>
          }
        }
      }
    }
    affine.for %arg6 = 0 to 2 {
      affine.for %arg7 = 0 to 1 {
        affine.for %arg8 = 0 to 1 {
          affine.for %arg9 = 0 to 1 {
            %3 = affine.load %expand_shape_54[%arg6, %arg7, %arg8, %arg9] : memref<2x1x1x1xf32>
            %4 = math.sqrt %3 : f32
            affine.store %4, %expand_shape_7[%arg6, %arg7, %arg8, %arg9] : memref<2x1x1x1xf32>
          }
        }
      }
    }
    affine.for %arg6 = 0 to 2 {
      %3 = affine.load %alloc_6[%arg6] : memref<2xf32>
      %4 = math.exp %3 : f32
      affine.store %4, %alloc_8[%arg6] : memref<2xf32>
    }
    memref.dealloc %alloc : memref<2x1x1x4xf32>
    memref.dealloc %alloc_3 : memref<f32>
    memref.dealloc %alloc_4 : memref<2x1x1x1x1x1x4x1xf32>
    memref.dealloc %alloc_5 : memref<2xf64>
    memref.dealloc %alloc_6 : memref<2xf32>
    memref.dealloc %alloc_12 : memref<2x1x1x4xf32>
    memref.dealloc %alloc_19 : memref<2x1x1x4xf32>
    memref.dealloc %alloc_23 : memref<2x1x1x4xf32>
    memref.dealloc %alloc_30 : memref<2xf64>
    memref.dealloc %alloc_34 : memref<2x1x1x4xf32>
    memref.dealloc %alloc_41 : memref<2x1x1x4xf32>
    memref.dealloc %alloc_45 : memref<2x1x1x4xf32>
    memref.dealloc %alloc_52 : memref<2xf64>
    memref.dealloc %alloc_53 : memref<2xf32>
    memref.dealloc %alloc_58 : memref<2x1x1x4xf32>
    memref.dealloc %alloc_65 : memref<2x1x1x4xf32>
    memref.dealloc %alloc_69 : memref<2x1x1x4xf32>
    memref.dealloc %alloc_76 : memref<2xf64>
    memref.dealloc %alloc_77 : memref<2xf32>
    memref.dealloc %alloc_82 : memref<2x1x1x4xf32>
    memref.dealloc %alloc_89 : memref<2x1x1x4xf32>
    memref.dealloc %alloc_93 : memref<2x1x1x4xf32>
    memref.dealloc %alloc_100 : memref<2xf64>
    return %alloc_8 : memref<2xf32>
  }
}

