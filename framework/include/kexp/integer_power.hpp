// integer_power: s^p for an integer p ≥ 0, the power of the polynomial kernel, the same on
// the host and, compiled by nvcc, on a GPU (kexp/device_form.hpp's polynomial step).
#pragma once

#include <cstdint>

#if defined(__CUDACC__)
#define KEXP_HOST_DEVICE __host__ __device__
#else
#define KEXP_HOST_DEVICE
#endif

namespace kexp {

/// s^p by repeated squaring, p ≥ 0 (1 for p = 0).
KEXP_HOST_DEVICE inline double integer_power(double s, std::int64_t p) {
  double r = 1.0;
  while (p > 0) {
    if ((p & 1) != 0) r *= s;
    s *= s;
    p >>= 1;
  }
  return r;
}

}  // namespace kexp
