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
if(KEXP_BUILD_TESTS)
  find_package(GTest REQUIRED)
endif()
if(KEXP_BUILD_BENCH)
  find_package(benchmark REQUIRED)
endif()
