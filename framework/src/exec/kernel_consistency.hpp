// The check, before any cell uses a kernel, that what the kernel declares about itself
// agrees with what it computes: its formula's program (kexp/formula_kernel.hpp), its device
// form (kexp/device_form.hpp) and an exact feature map (⟨φ(x), φ(z)⟩), each against
// k(x, z) from compute(), on every pair of a set of points: random ones and the data's own;
// and the formula against itself with the points swapped, since a kernel is symmetric.
// Kexp computes Gram matrices from the formula, runs the device form on a GPU and trains
// the primal solvers on the map; one that disagrees with compute() would give other numbers
// in another form, in silence.
//
// A difference is relative to the larger of |k(x, z)|, the declared value and
// (|k(x, x)·k(z, z)|)^½, the size of the values the pair's kernel is made of; the
// tolerance is 1e-12, and for a map of dimension D the rounding of its D products,
// 4·D·2⁻⁵² when that is larger.
#pragma once

#include <armadillo>
#include <cstddef>
#include <optional>
#include <string>

#include "kexp/kernel.hpp"

namespace kexp::core {

inline constexpr double kConsistencyTolerance = 1e-12;

/// Whether the kernel declares anything the check compares: a formula program, a device
/// form or an exact feature map.
[[nodiscard]] bool declares_forms(const Kernel& kernel);

/// The points of the check (a column each): `random` with N(0, 1) entries in `d`
/// dimensions from `seed`, then the first `own` columns of `data` (may be null).
[[nodiscard]] arma::mat consistency_points(std::size_t d, std::size_t random, std::uint64_t seed,
                                           const arma::mat* data, std::size_t own);

/// What is wrong, naming the form, the pair and both values of the largest difference
/// beyond the tolerance; nothing when every form agrees. `random` is how many of the
/// points are random ones (the rest are the data's), for the message.
[[nodiscard]] std::optional<std::string> kernel_disagreement(const Kernel& kernel,
                                                             const arma::mat& points,
                                                             std::size_t random);

}  // namespace kexp::core
