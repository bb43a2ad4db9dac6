// The check of a kernel's declared exact feature map against a primal–dual pair: on an
// exact map, primal and dual solvers that solve the same problem directly give the same
// predictions up to rounding (identities 1 and 3 of docs/design.md), so a larger
// difference means the map misses terms of the kernel or weighs them wrongly.
//
// The pair's rounding bound is 10⁻⁶·max(1, max |ŷ|), on the larger of the two forms'
// largest predictions: far above the differences the shipped exact maps give with direct
// solvers (at most about 10⁻⁹ on the curated experiments), far below what a missing term
// gives. Pairs with an iterative solver are not checked: their difference is also the
// solvers' tolerance.
#pragma once

#include <armadillo>
#include <optional>
#include <string>
#include <string_view>

#include "kexp/kernel.hpp"

namespace kexp::core {

/// The bound on max |Δŷ| of a pair with these test predictions.
[[nodiscard]] double exact_map_rounding_bound(const arma::vec& primal, const arma::vec& dual);

/// What is wrong when `kernel` declares an exact map (feature_map()->exact()), neither
/// solver is iterative, and the two predictions differ beyond exact_map_rounding_bound;
/// nothing otherwise. `kernel_name` and `other_cell` (the earlier cell of the pair) name
/// them in the message.
[[nodiscard]] std::optional<std::string> exact_map_disagreement(
    const Kernel& kernel, std::string_view kernel_name, bool either_iterative,
    const arma::vec& mine, const arma::vec& other, std::string_view other_cell);

}  // namespace kexp::core
