// The kernels' declared forms against their compute(), before any cell runs.
#include "run/kernel_forms_check.hpp"

#include <fmt/format.h>

#include <optional>
#include <string>

#include "exec/kernel_consistency.hpp"
#include "sweep/kernel_resolution.hpp"
#include "util/seed.hpp"

namespace kexp::core {

namespace {

constexpr std::size_t kRandomPoints = 16;
constexpr std::size_t kDataPoints = 32;

}  // namespace

void check_kernel_forms(const Experiment& e, const Plan& plan, const std::vector<bool>& selected,
                        const std::vector<std::shared_ptr<Kernel>>& kernels, const RunData& data) {
  if (plan.datasets.empty()) return;
  std::vector<bool> used(plan.kernels.size(), false);
  for (const Cell& c : plan.cells) {
    if (selected[c.index]) used[c.kernel] = true;
  }
  // The data the points come from: the first dataset variant that is loaded, else the
  // dimension a dataset states.
  const PreparedData* own = nullptr;
  std::size_t d = 0;
  for (std::size_t v = 0; v < data.data.size() && own == nullptr; ++v) {
    if (!data.data[v].empty()) own = &data.data[v].front();
  }
  for (std::size_t v = 0; v < data.dims.size() && d == 0; ++v) {
    d = static_cast<std::size_t>(data.dims[v].d);
  }
  if (own != nullptr) d = own->X_train.n_rows;
  const bool sequences = plan.datasets.front().plugin->has_flag(flags::sequences);
  const std::size_t random = sequences || d == 0 ? 0 : kRandomPoints;
  const arma::mat points =
      consistency_points(d, random, derive_seed(e.seed, "kernel forms", 0),
                         own != nullptr ? &own->X_train : nullptr, kDataPoints);
  if (points.n_cols == 0) return;
  for (std::size_t k = 0; k < plan.kernels.size(); ++k) {
    if (!used[k] || !declares_forms(*kernels[k])) continue;
    const Variant& variant = plan.kernels[k];
    // An instance of its own: the check's calls leave the one the cells use as it was (a
    // kernel may count its calls, or cache).
    std::shared_ptr<Kernel> kernel = create_kernel_of(variant);
    std::size_t checked_random = random;
    arma::mat at = points;
    if (kernel_is_fitted(variant)) {
      // fitted on the data's points alone, and checked there
      if (own == nullptr) continue;
      at = points.tail_cols(points.n_cols - random);
      checked_random = 0;
      const arma::vec y(at.n_cols, arma::fill::zeros);
      try {
        kernel->fit(KernelFitData{&at, &y, derive_seed(e.seed, "kernel forms fit", 0),
                                  own->alphabet.size(), e.base_dir});
      } catch (const std::exception&) {
        continue;  // a fit that fails on so few points: the cells fit it on their own
      }
    }
    std::optional<std::string> problem;
    try {
      problem = kernel_disagreement(*kernel, at, checked_random);
    } catch (...) {
      // The kernel's own code failed on the check's points (it throws from compute() or
      // its map): its cells fail on their own, each naming the call, as they would without
      // the check.
      continue;
    }
    if (!problem) continue;
    throw PluginError(fmt::format(
        "{}: kernel {}: {}. kexp computes its Gram matrices from what it declares, so it refuses "
        "the kernel before any cell runs: correct the declaration or compute() (`kexp "
        "check-kernel` compares them too)",
        e.kernels[variant.component].key, variant.canonical, *problem));
  }
}

}  // namespace kexp::core
