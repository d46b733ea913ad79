#map = affine_map<() -> ()>
#map1 = affine_map<(d0, d1, d2) -> (0, d1, 0)>
#map2 = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
module {
  func.func private @f0() -> tensor<f32> {
    %cst = arith.constant dense<-1.600000e+01> : tensor<f32>
    return %cst : tensor<f32>
  }
  func.func @main(%arg0: tensor<f32>, %arg1: tensor<5x2xi1>, %arg2: tensor<i32>, %arg3: tensor<7x1x2xi32>) -> tensor<5x2xi1> attributes {llvm.emit_c_interface} {
    %0 = call @f0() : () -> tensor<f32>
    %1 = tensor.empty() : tensor<i1>
    %2 = linalg.generic {indexing_maps = [#map], iterator_types = []} outs(%1 : tensor<i1>) {
    ^bb0(%out: i1):
      %extracted_0 = tensor.extract %arg0[] : tensor<f32>
      %extracted_1 = tensor.extract %0[] : tensor<f32>
      %4 = arith.cmpf oge, %extracted_1, %extracted_0 : f32
      linalg.yield %4 : i1
    } -> tensor<i1>
    %extracted = tensor.extract %2[] : tensor<i1>
    %3 = scf.if %extracted -> (tensor<5x2xi1>) {
      scf.yield %arg1 : tensor<5x2xi1>
    } else {
      %expanded = tensor.expand_shape %arg2 [] output_shape [1, 1, 1] : tensor<i32> into tensor<1x1x1xi32>
      %4 = tensor.empty() : tensor<7x1x2xi1>
      %5 = linalg.generic {indexing_maps = [#map1, #map2, #map2], iterator_types = ["parallel", "parallel", "parallel"]} ins(%expanded, %arg3 : tensor<1x1x1xi32>, tensor<7x1x2xi32>) outs(%4 : tensor<7x1x2xi1>) {
      ^bb0(%in: i32, %in_0: i32, %out: i1):
        %6 = arith.cmpi sgt, %in, %in_0 : i32
        linalg.yield %6 : i1
      } -> tensor<7x1x2xi1>
      %extracted_slice = tensor.extract_slice %5[1, 0, 0] [5, 1, 2] [1, 1, 1] : tensor<7x1x2xi1> to tensor<5x1x2xi1>
      %collapsed = tensor.collapse_shape %extracted_slice [[0, 1], [2]] : tensor<5x1x2xi1> into tensor<5x2xi1>
      scf.yield %collapsed : tensor<5x2xi1>
    }
    return %3 : tensor<5x2xi1>
  }
}

