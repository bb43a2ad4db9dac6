# Every third-party library kexp builds with, each from Debian 12's packages
# (scripts/setup.sh installs them). The README says why each is there.
include(KexpArmadillo)
find_package(OpenMP REQUIRED COMPONENTS CXX)
find_package(Boost 1.74 REQUIRED)
find_package(yaml-cpp REQUIRED)
find_package(fmt REQUIRED)
find_package(CLI11 REQUIRED)
find_package(nlohmann_json 3 REQUIRED)
find_package(Threads REQUIRED)
find_package(OpenSSL REQUIRED COMPONENTS Crypto)  # SHA-256 of plugin libraries
# SLEEF (libsleef-dev): the vectorized tanh, sin, cos and log of the formula engine, for
# SSE2, AVX2 and AVX-512. Without it the engine computes those one value at a time.
find_path(KEXP_SLEEF_INCLUDE_DIR sleef.h)
find_library(KEXP_SLEEF_LIBRARY sleef)
if(KEXP_SLEEF_INCLUDE_DIR AND KEXP_SLEEF_LIBRARY)
  set(KEXP_HAVE_SLEEF ON)
else()
  set(KEXP_HAVE_SLEEF OFF)
  message(WARNING "kexp: SLEEF not found (Debian: libsleef-dev): kernel formulas compute "
    "tanh, sin and cos one value at a time")
endif()
if(KEXP_BUILD_TESTS)
  find_package(GTest REQUIRED)
endif()
if(KEXP_BUILD_BENCH)
  find_package(benchmark REQUIRED)
endif()
