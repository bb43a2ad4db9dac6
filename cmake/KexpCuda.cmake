# KEXP_CUDA: whether the GPU code of `device: cuda` (framework/src/device/cuda_ops.cu) is
# built. AUTO (the default) builds it when a CUDA compiler and the CUDA toolkit are found,
# ON requires them, OFF leaves them out; without it, `device: cuda` is refused before a
# run starts. Sets KEXP_WITH_CUDA. The device code is compiled for sm_90 (H100, H200) and
# as compute_90 PTX, which the driver compiles for later GPUs.
set(KEXP_CUDA AUTO CACHE STRING "Build the GPU code of device: cuda: AUTO, ON or OFF")
set_property(CACHE KEXP_CUDA PROPERTY STRINGS AUTO ON OFF)
set(KEXP_WITH_CUDA OFF)
if(NOT KEXP_CUDA STREQUAL "OFF")
  include(CheckLanguage)
  check_language(CUDA)
  if(CMAKE_CUDA_COMPILER)
    find_package(CUDAToolkit QUIET)
  endif()
  if(CMAKE_CUDA_COMPILER AND CUDAToolkit_FOUND)
    if(NOT DEFINED CMAKE_CUDA_ARCHITECTURES)
      set(CMAKE_CUDA_ARCHITECTURES "90-real;90-virtual")
    endif()
    set(CMAKE_CUDA_STANDARD 17)
    set(CMAKE_CUDA_STANDARD_REQUIRED ON)
    if(KEXP_CCACHE_PROGRAM AND NOT CMAKE_CUDA_COMPILER_LAUNCHER)
      set(CMAKE_CUDA_COMPILER_LAUNCHER ${CMAKE_CXX_COMPILER_LAUNCHER})
    endif()
    enable_language(CUDA)
    set(KEXP_WITH_CUDA ON)
    message(STATUS "kexp: building the CUDA code (CUDA ${CUDAToolkit_VERSION}, "
      "architectures ${CMAKE_CUDA_ARCHITECTURES})")
  elseif(KEXP_CUDA STREQUAL "ON")
    message(FATAL_ERROR "KEXP_CUDA=ON, but no CUDA compiler and toolkit were found: put nvcc "
      "on PATH (or set CUDACXX) or build with -DKEXP_CUDA=OFF")
  else()
    message(STATUS "kexp: no CUDA toolkit found; device: cuda will be refused")
  endif()
endif()
