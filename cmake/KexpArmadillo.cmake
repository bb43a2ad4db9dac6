# kexp::armadillo — Armadillo over OpenBLAS as an imported target.
#
# Debian ships Armadillo without a CMake target. We use its headers without the
# run-time wrapper library (ARMA_DONT_USE_WRAPPER) and link OpenBLAS directly, which
# carries both BLAS and LAPACK: the BLAS is then OpenBLAS whatever the system's
# alternatives say, and kexp can ask it for its core type and thread count.
#
# OpenBLAS's OpenMP build comes first (Debian: libopenblas0-openmp, which installs beside
# the default pthreads build without replacing it). Its threads are then libgomp's, the
# same pool as kexp's own parallel regions: a BLAS call inside a region runs on one
# thread by itself, and one between regions runs on the threads the regions left, instead
# of on a second pool whose idle threads spin on the same cores (docs/design.md,
# "Threads"). The build's directory goes into the run-time path of everything that links
# this target, since the system's libopenblas.so.0 is the pthreads build. Without the
# OpenMP build, kexp links the default one and holds it to one thread inside its regions.
if(TARGET kexp::armadillo)
  return()
endif()

find_path(KEXP_ARMADILLO_INCLUDE_DIR armadillo)
find_library(KEXP_BLAS_LIBRARY NAMES libopenblas.so.0 openblas
  PATHS "/usr/lib/${CMAKE_LIBRARY_ARCHITECTURE}/openblas-openmp" NO_DEFAULT_PATH)
find_library(KEXP_BLAS_LIBRARY NAMES openblas)  # only where the first found nothing
# 1 where the library linked is the OpenMP build: its folder goes into the run-time path,
# and the tests expect it to be the one that runs
get_filename_component(KEXP_BLAS_DIR "${KEXP_BLAS_LIBRARY}" DIRECTORY)
if(KEXP_BLAS_DIR MATCHES "/openblas-openmp$")
  set(KEXP_BLAS_OPENMP 1)
else()
  set(KEXP_BLAS_OPENMP 0)
endif()
if(KEXP_BLAS_LIBRARY AND NOT KEXP_BLAS_OPENMP)
  message(WARNING
    "kexp: OpenBLAS's OpenMP build was not found, so kexp links ${KEXP_BLAS_LIBRARY}, whose "
    "threads compete with kexp's own between parallel regions (slower on several cores). "
    "Debian: apt-get install libopenblas0-openmp, or run scripts/setup.sh, then configure "
    "again with -U KEXP_BLAS_LIBRARY.")
endif()
if(NOT KEXP_ARMADILLO_INCLUDE_DIR OR NOT KEXP_BLAS_LIBRARY)
  message(FATAL_ERROR
    "kexp needs Armadillo and OpenBLAS (Debian: apt-get install libarmadillo-dev "
    "libopenblas-dev libopenblas0-openmp); found headers '${KEXP_ARMADILLO_INCLUDE_DIR}', "
    "library '${KEXP_BLAS_LIBRARY}'. Run scripts/setup.sh.")
endif()

add_library(kexp::armadillo INTERFACE IMPORTED)
set_target_properties(kexp::armadillo PROPERTIES
  INTERFACE_INCLUDE_DIRECTORIES "${KEXP_ARMADILLO_INCLUDE_DIR}"
  INTERFACE_COMPILE_DEFINITIONS "ARMA_DONT_USE_WRAPPER;ARMA_USE_BLAS;ARMA_USE_LAPACK;ARMA_NO_DEBUG"
  INTERFACE_LINK_LIBRARIES "${KEXP_BLAS_LIBRARY}")
if(KEXP_BLAS_OPENMP)
  set_property(TARGET kexp::armadillo PROPERTY
    INTERFACE_LINK_OPTIONS "LINKER:-rpath,${KEXP_BLAS_DIR}")
endif()
