# targets/mlir/mlir.cmake - the MLIR target's runtime: the library rsmlir
# (every targets/mlir/*.c: the session over MLIR's C API, and the
# translator), built when MLIR 22's C API is installed (Debian:
# libmlir-22-dev; scripts/test installs it).  Included from the top
# CMakeLists.txt after the relayc library.
#
#   RS_MLIR       AUTO (default): on when RS_MLIR_ROOT holds the C API; ON:
#                 an error when it does not; OFF: no MLIR target
#   RS_MLIR_ROOT  MLIR 22's prefix, /usr/lib/llvm-22
set(RS_MLIR AUTO CACHE STRING "the MLIR target: AUTO (on when MLIR 22's C API is found), ON, OFF")
set_property(CACHE RS_MLIR PROPERTY STRINGS AUTO ON OFF)
set(RS_MLIR_ROOT /usr/lib/llvm-22 CACHE PATH "MLIR 22's install prefix (libmlir-22-dev)")

# The link line of docs/mlir.md: the C API's static pieces, then the
# shared libMLIR and libLLVM they call into, and the C++ runtime.
set(_mlir_capi MLIRCAPIExecutionEngine MLIRCAPITarget MLIRCAPIRegisterEverything
               MLIRCAPITransformDialectTransforms MLIRCAPILinalg MLIRCAPIIR)
set(_mlir_libs "")
set(_mlir_missing "")
foreach(lib ${_mlir_capi})
  list(APPEND _mlir_libs ${RS_MLIR_ROOT}/lib/lib${lib}.a)
endforeach()
list(APPEND _mlir_libs ${RS_MLIR_ROOT}/lib/libMLIR.so)
foreach(f ${_mlir_libs} ${RS_MLIR_ROOT}/include/mlir-c/IR.h
          ${RS_MLIR_ROOT}/lib/libmlir_c_runner_utils.so)
  if(NOT EXISTS ${f})
    list(APPEND _mlir_missing ${f})
  endif()
endforeach()
find_library(RS_MLIR_LLVM NAMES LLVM-22 HINTS ${RS_MLIR_ROOT}/lib)
if(NOT RS_MLIR_LLVM)
  list(APPEND _mlir_missing libLLVM-22.so)
endif()

if(RS_MLIR STREQUAL "OFF" OR (RS_MLIR STREQUAL "AUTO" AND _mlir_missing))
  if(RS_MLIR STREQUAL "OFF")
    message(STATUS "MLIR target: off (RS_MLIR=OFF)")
  else()
    message(STATUS "MLIR target: off (not found: ${_mlir_missing})")
  endif()
  return()
endif()
if(_mlir_missing)
  message(FATAL_ERROR "RS_MLIR=ON but MLIR 22's C API is incomplete; missing: ${_mlir_missing}\n"
                      "Install it with: apt-get install libmlir-22-dev mlir-22-tools")
endif()
message(STATUS "MLIR target: on (${RS_MLIR_ROOT})")

file(GLOB RS_MLIR_SRC CONFIGURE_DEPENDS ${CMAKE_SOURCE_DIR}/targets/mlir/*.c)
list(REMOVE_ITEM RS_MLIR_SRC ${RS_MLT_SRC}) # rsmlt (translate.cmake)
list(FILTER RS_MLIR_SRC EXCLUDE REGEX "/counters\\.c$") # the fuzz targets' own (harnesses/targets.cmake)
add_library(rsmlir STATIC ${RS_MLIR_SRC})
target_compile_options(rsmlir PRIVATE ${RS_WARN})
target_compile_definitions(
  rsmlir PRIVATE RS_MLIR_RUNNER_UTILS="${RS_MLIR_ROOT}/lib/libmlir_c_runner_utils.so")
target_include_directories(rsmlir SYSTEM PUBLIC ${RS_MLIR_ROOT}/include)
target_link_libraries(rsmlir PUBLIC rsmlt rsoracle relayc ${_mlir_libs} ${RS_MLIR_LLVM} stdc++)
# MLIR's libraries where they are installed, or in lib/ beside the binary
# (rs_link_mlir's $ORIGIN/lib: a ClusterFuzzLite build ships them there,
# .clusterfuzzlite/build.sh); DT_RPATH, not RUNPATH, so that libMLIR's and
# libLLVM's own dependencies are found there too.
target_link_options(rsmlir PUBLIC -Wl,--disable-new-dtags -Wl,-rpath,${RS_MLIR_ROOT}/lib)
# As for relayc: the session compares MLIR's strings, never input bytes,
# so libFuzzer's comparison hints are of no use to it.
if(RS_ENGINE STREQUAL "libfuzzer")
  target_compile_options(rsmlir PRIVATE -fno-sanitize-coverage=trace-cmp)
endif()

# The MLIR target (target.c, `target_mlir`) is in the table of targets
# (targets/targets.c) as a weak symbol: a binary has it when it links
# rsmlir with -Wl,--undefined=target_mlir (rs_link_mlir); the others
# (pass_fuzzer, the unit tests) do not load MLIR at all.
function(rs_link_mlir name)
  target_link_libraries(${name} PRIVATE rsmlir)
  target_link_options(${name} PRIVATE -Wl,--undefined=target_mlir)
  set_property(TARGET ${name} APPEND PROPERTY BUILD_RPATH "\$ORIGIN/lib")
endfunction()

# The runtime's benchmark over the examples of tests/mlir (docs/mlir.md),
# in every build that has the runtime, the `mlir` preset's included.
add_executable(mlir_bench tests/mlir/bench_runtime.c tests/mlir/examples.c)
target_compile_options(mlir_bench PRIVATE ${RS_WARN})
target_link_libraries(mlir_bench PRIVATE rsmlir)
