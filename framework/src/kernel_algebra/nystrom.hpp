// Nyström features (Williams and Seeger 2001): a finite map for any PSD kernel, learned
// from the training inputs. With m centres c₁ … c_m drawn from the training points,
//
//   φ(x) = K_mm^{−1/2} k_m(x),   k_m(x) = (k(c₁, x), …, k(c_m, x)),   D = m,
//
// where K_mm = K(C, C) = U Λ Uᵀ and K_mm^{−1/2} = U Λ^{−1/2} Uᵀ with every eigenvalue below
// 10⁻¹²·λmax raised to that first (scikit-learn's Nystroem raises them to an absolute
// 10⁻¹²; relative to λmax, a kernel of small values keeps its spectrum), so that a
// singular K_mm, from repeated or nearly repeated centres, still gives finite features. Then
// ⟨φ(x), φ(z)⟩ = k_m(x)ᵀ K_mm⁻¹ k_m(z), the kernel's projection on the span of the centres:
// exact at the centres, an approximation elsewhere (the map says so: exact() is false).
//
// The kernel itself is the wrapped one: a dual cell uses k, a primal cell the Nyström
// features, so the two forms pair like any kernel and its approximate map.
//
// Centres (deterministic from the fit's seed): uniform — m distinct training points,
// a seeded partial Fisher–Yates shuffle; kmeans++ — D² sampling in the kernel's feature
// space (Arthur and Vassilvitskii 2007, with d²(x, c) = k(x, x) − 2k(x, c) + k(c, c)):
// each next centre drawn with probability proportional to its squared feature-space
// distance to the nearest centre so far, which spreads the centres over the data and
// rarely picks the same point twice.
#pragma once

#include <cstddef>
#include <memory>

#include "kexp/kernel.hpp"

namespace kexp::algebra {

struct NystromSettings {
  std::size_t m = 100;   ///< number of centres, D
  bool kmeanspp = true;  ///< kmeans++ D² sampling; false: uniform
};

/// k with Nyström features for its primal form, fitted by Kernel::fit on the training
/// inputs (which first fits k, when k learns too). Throws kexp::InvalidArgument when k is
/// not PSD with its parameters; its fit throws when the training part has fewer than m
/// points.
std::shared_ptr<Kernel> nystrom(std::shared_ptr<Kernel> kernel, const NystromSettings& settings);

/// The indices of the m centres among the columns of X, in the order drawn.
arma::uvec nystrom_centres(const Kernel& kernel, const arma::mat& X,
                           const NystromSettings& settings, std::uint64_t seed);

}  // namespace kexp::algebra
