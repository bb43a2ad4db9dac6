# kexp::armadillo — Armadillo over OpenBLAS as an imported target.
#
# Debian ships Armadillo without a CMake target. We use its headers without the
# run-time wrapper library (ARMA_DONT_USE_WRAPPER) and link OpenBLAS directly, which
# carries both BLAS and LAPACK: the BLAS is then OpenBLAS whatever the system's
# alternatives say, and kexp can ask it for its core type and thread count.
if(TARGET kexp::armadillo)
  return()
endif()

find_path(KEXP_ARMADILLO_INCLUDE_DIR armadillo)
find_library(KEXP_OPENBLAS_LIBRARY NAMES openblas)
if(NOT KEXP_ARMADILLO_INCLUDE_DIR OR NOT KEXP_OPENBLAS_LIBRARY)
  message(FATAL_ERROR
    "kexp needs Armadillo and OpenBLAS (Debian: apt-get install libarmadillo-dev "
    "libopenblas-dev); found headers '${KEXP_ARMADILLO_INCLUDE_DIR}', "
    "library '${KEXP_OPENBLAS_LIBRARY}'. Run scripts/setup.sh.")
endif()

add_library(kexp::armadillo INTERFACE IMPORTED)
set_target_properties(kexp::armadillo PROPERTIES
  INTERFACE_INCLUDE_DIRECTORIES "${KEXP_ARMADILLO_INCLUDE_DIR}"
  INTERFACE_COMPILE_DEFINITIONS "ARMA_DONT_USE_WRAPPER;ARMA_USE_BLAS;ARMA_USE_LAPACK;ARMA_NO_DEBUG"
  INTERFACE_LINK_LIBRARIES "${KEXP_OPENBLAS_LIBRARY}")
