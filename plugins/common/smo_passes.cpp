// The passes of sequential minimal optimization over its active variables
// (common/smo_passes.hpp).
#include "common/smo_passes.hpp"

#include <algorithm>
#include <cmath>

namespace kexp_solvers::smo_passes {

// The loops over the active variables, compiled for AVX-512, AVX2 and the baseline and
// chosen as the library loads (the SDK's Gram loops do the same).
#if defined(__x86_64__) && defined(__GNUC__) && !defined(__clang__)
#define SMO_VECTOR_CLONES \
  __attribute__((target_clones("arch=x86-64-v4", "arch=x86-64-v3", "default")))
#else
#define SMO_VECTOR_CLONES
#endif

/// v[t] = −y_t G_t + up_t (up_t = −∞ outside I_up); their largest.
SMO_VECTOR_CLONES
double largest_violation(std::size_t n, const double* G, const double* y, const double* up,
                         double* v) {
  double best = -kInf;
#pragma omp simd reduction(max : best)
  for (std::size_t t = 0; t < n; ++t) {
    v[t] = -y[t] * G[t] + up[t];
    best = v[t] > best ? v[t] : best;
  }
  return best;
}

/// v[t] = −(m + y_t G_t)² / max(Q_ii + Q_tt − 2y_iy_tQ_it, τ) where m + y_t G_t > 0 and t is
/// in I_low (low_t = 0, else −∞), +∞ elsewhere; returns the smallest, and the largest y_t G_t
/// over I_low in `largest`.
SMO_VECTOR_CLONES
double least_decrease(std::size_t n, double m, const double* G, const double* y, const double* low,
                      const double* QD, const double* Qi, double Qii, double yi, double* v,
                      double& largest) {
  double best = kInf, top = -kInf;
#pragma omp simd reduction(max : top) reduction(min : best)
  for (std::size_t t = 0; t < n; ++t) {
    const double yG = y[t] * G[t] + low[t];
    top = yG > top ? yG : top;
    const double diff = m + yG;
    const double quad = Qii + QD[t] - 2.0 * yi * y[t] * Qi[t];
    const double decrease = -(diff * diff) / (quad > 0 ? quad : kTau);
    v[t] = diff > 0 ? decrease : kInf;
    best = v[t] < best ? v[t] : best;
  }
  largest = top;
  return best;
}

/// v[t] = PG_t²/max(Q_tt, τ), the decrease of the objective by an exact step in t alone
/// (PG the projected gradient: 0 where the gradient pushes t against its bound); returns
/// the largest, and the largest and smallest PG (with 0) in `top` and `bottom`.
SMO_VECTOR_CLONES
double largest_gain(std::size_t n, const double* G, const std::int8_t* status, const double* QD,
                    double* v, double& top, double& bottom) {
  double best = 0.0, hi = 0.0, lo = 0.0;
#pragma omp simd reduction(max : best, hi) reduction(min : lo)
  for (std::size_t t = 0; t < n; ++t) {
    const double g = G[t];
    const double pg = status[t] == kLower   ? (g < 0 ? g : 0.0)
                      : status[t] == kUpper ? (g > 0 ? g : 0.0)
                                            : g;
    hi = pg > hi ? pg : hi;
    lo = pg < lo ? pg : lo;
    v[t] = pg * pg / (QD[t] > 0 ? QD[t] : kTau);
    best = v[t] > best ? v[t] : best;
  }
  top = hi;
  bottom = lo;
  return best;
}

/// G += a·Qa + b·Qb.
SMO_VECTOR_CLONES
void add_columns(std::size_t n, double* G, const double* Qa, double a, const double* Qb, double b) {
#pragma omp simd
  for (std::size_t t = 0; t < n; ++t) G[t] += Qa[t] * a + Qb[t] * b;
}

/// G += a·Qa.
SMO_VECTOR_CLONES
void add_column(std::size_t n, double* G, const double* Qa, double a) {
#pragma omp simd
  for (std::size_t t = 0; t < n; ++t) G[t] += Qa[t] * a;
}

/// The last t < n with v[t] == value, or −1.
std::ptrdiff_t last_equal(const double* v, std::size_t n, double value) {
  for (std::size_t t = n; t-- > 0;) {
    if (v[t] == value) return static_cast<std::ptrdiff_t>(t);
  }
  return -1;
}

/// The extreme of v over [0, n), from each part's extreme in best[p], and the
/// last position that takes it: the last part holding it, scanned from its end.
std::ptrdiff_t last_of_extreme(const double* v, std::size_t n, std::size_t parts,
                               const double* best, double extreme) {
  for (std::size_t p = parts; p-- > 0;) {
    if (best[p] != extreme) continue;
    const std::size_t lo = n * p / parts, hi = n * (p + 1) / parts;
    const std::ptrdiff_t t = last_equal(v + lo, hi - lo, extreme);
    return t < 0 ? -1 : static_cast<std::ptrdiff_t>(lo) + t;
  }
  return -1;
}

}  // namespace kexp_solvers::smo_passes
