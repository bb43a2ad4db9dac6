// The passes of sequential minimal optimization (common/smo.hpp) over its active
// variables: working-set selection and gradient updates, each one loop over n values,
// compiled for AVX-512, AVX2 and the baseline and chosen as the library loads.
#pragma once

#include <cstddef>
#include <cstdint>
#include <limits>

namespace kexp_solvers::smo_passes {

/// The least curvature a step divides by.
inline constexpr double kTau = 1e-12;
inline constexpr double kInf = std::numeric_limits<double>::infinity();

enum Status : std::int8_t { kLower = 0, kUpper = 1, kFree = 2 };

/// The passes over the active variables: [0, n) cut into as many contiguous parts as the
/// step has threads, each of kPartLength variables at least (a pass over that many takes a
/// few microseconds, a parallel region about one where the threads have cores to
/// themselves).
inline constexpr std::size_t kPartLength = 4096;
inline constexpr std::size_t kMostParts = 64;

/// v[t] = −y_t G_t + up_t (up_t = −∞ outside I_up); their largest.
double largest_violation(std::size_t n, const double* G, const double* y, const double* up,
                         double* v);

/// v[t] = −(m + y_t G_t)² / max(Q_ii + Q_tt − 2y_iy_tQ_it, τ) where m + y_t G_t > 0 and t is
/// in I_low (low_t = 0, else −∞), +∞ elsewhere; returns the smallest, and the largest y_t G_t
/// over I_low in `largest`.
double least_decrease(std::size_t n, double m, const double* G, const double* y, const double* low,
                      const double* QD, const double* Qi, double Qii, double yi, double* v,
                      double& largest);

/// v[t] = PG_t²/max(Q_tt, τ), the decrease of the objective by an exact step in t alone
/// (PG the projected gradient: 0 where the gradient pushes t against its bound); returns
/// the largest, and the largest and smallest PG (with 0) in `top` and `bottom`.
double largest_gain(std::size_t n, const double* G, const std::int8_t* status, const double* QD,
                    double* v, double& top, double& bottom);

/// G += a·Qa + b·Qb.
void add_columns(std::size_t n, double* G, const double* Qa, double a, const double* Qb, double b);

/// G += a·Qa.
void add_column(std::size_t n, double* G, const double* Qa, double a);

/// The last t < n with v[t] == value, or −1.
std::ptrdiff_t last_equal(const double* v, std::size_t n, double value);

/// The extreme of v over [0, n), from each part's extreme in best[p], and the
/// last position that takes it: the last part holding it, scanned from its end.
std::ptrdiff_t last_of_extreme(const double* v, std::size_t n, std::size_t parts,
                               const double* best, double extreme);

}  // namespace kexp_solvers::smo_passes
