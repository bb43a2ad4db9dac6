// A primal–dual pair's predictions against the kernel's declared exact map.
#include "exec/exact_map_check.hpp"

#include <fmt/format.h>

#include <algorithm>

namespace kexp::core {

namespace {

constexpr double kRelativeBound = 1e-6;

double largest_magnitude(const arma::vec& v) { return v.is_empty() ? 0.0 : arma::abs(v).max(); }

}  // namespace

double exact_map_rounding_bound(const arma::vec& primal, const arma::vec& dual) {
  return kRelativeBound * std::max({1.0, largest_magnitude(primal), largest_magnitude(dual)});
}

std::optional<std::string> exact_map_disagreement(const Kernel& kernel,
                                                  std::string_view kernel_name,
                                                  bool either_iterative, const arma::vec& mine,
                                                  const arma::vec& other,
                                                  std::string_view other_cell) {
  const FeatureMap* map = kernel.feature_map();
  if (map == nullptr || !map->exact() || either_iterative) return std::nullopt;
  if (mine.n_elem != other.n_elem || mine.is_empty()) return std::nullopt;
  const double difference = arma::abs(mine - other).max();
  const double bound = exact_map_rounding_bound(mine, other);
  if (!(difference > bound)) return std::nullopt;  // a NaN is the finiteness checks' concern
  return fmt::format(
      "kernel '{}' declares an exact feature map, but this cell's test predictions and those "
      "of its counterpart in the other form (cell {}) differ by max |Δŷ| = {:.3g}, beyond "
      "the pair's rounding bound {:.3g}: the map misses terms of the kernel or weighs them "
      "wrongly; `kexp check-kernel {}` measures the map's error, and a map that is not exact "
      "should say so (FeatureMap::exact() false, flags::approximate_map)",
      kernel_name, other_cell, difference, bound, kernel_name);
}

}  // namespace kexp::core
