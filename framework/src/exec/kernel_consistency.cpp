// A kernel's formula, device form and exact map against its compute(), pair by pair.
#include "exec/kernel_consistency.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <random>
#include <vector>

#include "kexp/device_form.hpp"
#include "kexp/formula_kernel.hpp"

namespace kexp::core {

namespace {

/// The most entries of Φ the check makes.
constexpr std::size_t kMaxMapEntries = std::size_t{1} << 22;

/// The largest difference of one form, and where.
struct Worst {
  double relative = 0;
  std::size_t i = 0, j = 0;
  double declared = 0, computed = 0;
};

/// |declared − computed| relative to the pair's scale; infinite when one is finite and the
/// other is not.
double relative_difference(double declared, double computed, double scale) {
  if (std::isnan(declared) && std::isnan(computed)) return 0.0;
  if (std::isfinite(declared) != std::isfinite(computed)) return INFINITY;
  if (!std::isfinite(declared)) return declared == computed ? 0.0 : INFINITY;
  const double size = std::max(
      {std::fabs(declared), std::fabs(computed), scale, std::numeric_limits<double>::min()});
  return std::fabs(declared - computed) / size;
}

void update(Worst& w, double relative, std::size_t i, std::size_t j, double declared,
            double computed) {
  if (relative > w.relative || (std::isnan(relative) && !std::isnan(w.relative))) {
    w = {relative, i, j, declared, computed};
  }
}

std::string point_name(std::size_t i, std::size_t random) {
  return i < random ? fmt::format("random point {}", i)
                    : fmt::format("the data's point {}", i - random);
}

std::string describe(const char* form, const char* value, const Worst& w, double tolerance,
                     std::size_t random) {
  return fmt::format(
      "its {} and its compute() disagree: for the pair ({}, {}) compute() gives {:.17g} and "
      "the {} gives {:.17g}, a relative difference of {:.3g}, beyond {:.3g}",
      form, point_name(w.i, random), point_name(w.j, random), w.computed, value, w.declared,
      w.relative, tolerance);
}

}  // namespace

bool declares_forms(const Kernel& kernel) {
  const FeatureMap* map = kernel.feature_map();
  return formula_program(kernel) != nullptr || device_program(kernel).has_value() ||
         (map != nullptr && map->exact());
}

arma::mat consistency_points(std::size_t d, std::size_t random, std::uint64_t seed,
                             const arma::mat* data, std::size_t own) {
  const std::size_t from_data = data == nullptr ? 0 : std::min<std::size_t>(own, data->n_cols);
  arma::mat points(d, random + from_data);
  std::mt19937_64 rng(seed);
  std::normal_distribution<double> normal(0.0, 1.0);
  for (std::size_t j = 0; j < random; ++j)
    for (std::size_t i = 0; i < d; ++i) points(i, j) = normal(rng);
  if (from_data > 0) points.cols(random, random + from_data - 1) = data->head_cols(from_data);
  return points;
}

std::optional<std::string> kernel_disagreement(const Kernel& kernel, const arma::mat& points,
                                               std::size_t random) {
  const std::size_t n = points.n_cols;
  if (n == 0) return std::nullopt;
  const FormulaProgram* program = formula_program(kernel);
  const std::optional<DeviceProgram> device = device_program(kernel);
  const FeatureMap* map = kernel.feature_map();
  const bool exact_map = map != nullptr && map->exact();
  if (program == nullptr && !device && !exact_map) return std::nullopt;

  // k(x, z) from compute(); a pair it refuses (a point outside the kernel's domain) is left
  // out: the cells report what the kernel says of their own points
  const auto computed = [&](const arma::vec& x, const arma::vec& z) -> std::optional<double> {
    try {
      return kernel.evaluate(x, z);
    } catch (const std::exception&) {
      return std::nullopt;
    }
  };
  std::vector<double> self(n);
  for (std::size_t i = 0; i < n; ++i) {
    const arma::vec x = points.col(i);
    self[i] = computed(x, x).value_or(NAN);
  }
  // Φ of the points, when it is not too large to hold: D·n at most kMaxMapEntries, on the
  // first points only where D is large
  arma::mat Phi;
  std::size_t mapped = 0;
  double map_tolerance = kConsistencyTolerance;
  if (exact_map) {
    std::size_t D = 0;
    try {
      D = map->dimension_of(points);
    } catch (const Error&) {
      D = 0;  // a map too large to make: the cells say so
    }
    if (D > 0) {
      mapped = std::min<std::size_t>(n, std::max<std::size_t>(2, kMaxMapEntries / D));
      if (D * mapped <= 4 * kMaxMapEntries) map->features(points.head_cols(mapped), Phi);
      map_tolerance = std::max(kConsistencyTolerance, 4.0 * static_cast<double>(D) *
                                                          std::numeric_limits<double>::epsilon());
    }
  }
  Worst formula_worst, symmetry_worst, device_worst, map_worst;
  for (std::size_t j = 0; j < n; ++j) {
    const arma::vec z = points.col(j);
    for (std::size_t i = 0; i <= j; ++i) {
      const arma::vec x = points.col(i);
      const std::optional<double> value = computed(x, z);
      if (!value) continue;
      const double k = *value;
      const double scale = std::sqrt(std::fabs(self[i] * self[j]));
      if (program != nullptr) {
        const double f = evaluate_formula(*program, x, z);
        update(formula_worst, relative_difference(f, k, scale), i, j, f, k);
        // k(z, x) = k(x, z): a formula that names xx and zz in different roles is not a kernel
        const double swapped = evaluate_formula(*program, z, x);
        update(symmetry_worst, relative_difference(swapped, f, scale), i, j, swapped, f);
      }
      if (device) {
        const double v =
            evaluate_device_program(*device, arma::dot(x, z), arma::accu(arma::square(x - z)));
        update(device_worst, relative_difference(v, k, scale), i, j, v, k);
      }
      if (j < Phi.n_cols) {
        const double v = arma::dot(Phi.col(i), Phi.col(j));
        update(map_worst, relative_difference(v, k, scale), i, j, v, k);
      }
    }
  }
  std::vector<std::string> problems;
  if (!(formula_worst.relative <= kConsistencyTolerance)) {
    problems.push_back(
        describe("formula", "formula", formula_worst, kConsistencyTolerance, random));
  }
  if (!(symmetry_worst.relative <= kConsistencyTolerance)) {
    const Worst& w = symmetry_worst;
    problems.push_back(fmt::format(
        "its formula is not symmetric in x and z: for the pair ({}, {}) it gives {:.17g} and, "
        "the points swapped, {:.17g} (write xx and zz in the same roles)",
        point_name(w.i, random), point_name(w.j, random), w.computed, w.declared));
  }
  if (!(device_worst.relative <= kConsistencyTolerance)) {
    problems.push_back(describe("device form (DeviceForm::device_form())", "device form",
                                device_worst, kConsistencyTolerance, random));
  }
  if (!(map_worst.relative <= map_tolerance)) {
    problems.push_back(
        describe("exact feature map", "map's ⟨φ(x), φ(z)⟩", map_worst, map_tolerance, random));
  }
  if (problems.empty()) return std::nullopt;
  std::string out;
  for (const std::string& p : problems) out += (out.empty() ? "" : "; ") + p;
  return out;
}

}  // namespace kexp::core
