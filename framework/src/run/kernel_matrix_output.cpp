// output.kernel_matrix: refused for a K too large to write, else each group's K (and
// K(X, X*)) written as the executor builds it.
#include "run/kernel_matrix_output.hpp"

#include <fmt/format.h>

#include "exec/gram_store.hpp"
#include "kexp/error.hpp"
#include "reporting/kernel_matrix.hpp"
#include "run/budget.hpp"

namespace kexp::core {

void check_kernel_matrix_size(const Experiment& e, const Plan& plan,
                              const std::vector<bool>& selected,
                              const std::vector<DataDims>& dims) {
  if (e.output.kernel_matrix == KernelMatrixOutput::None) return;
  for (const Cell& c : plan.cells) {
    if (!selected[c.index] || !reads_gram(c, plan.solvers[c.solver]) || c.dataset >= dims.size() ||
        !(dims[c.dataset].n > 0)) {
      continue;
    }
    const auto n = static_cast<arma::uword>(dims[c.dataset].n);
    if (n <= kMaxKernelMatrixPoints) continue;
    const double bytes = 8.0 * static_cast<double>(n) * static_cast<double>(n);
    throw ConfigError(
        e.output.kernel_matrix_where, "output.kernel_matrix",
        fmt::format("output.kernel_matrix writes K only for n ≤ {} training points, and "
                    "cell {} ({} on {}) has n = {} (its K would be {}); lower dataset.n, or "
                    "remove output.kernel_matrix",
                    kMaxKernelMatrixPoints, c.id, plan.kernels[c.kernel].name(),
                    plan.datasets[c.dataset].name(), n, size_text(bytes)));
  }
}

void write_kernel_matrices(GroupCallbacks& callbacks, const ResultFolder& folder,
                           KernelMatrixOutput what, int repeat, const PreparedData& data,
                           const std::string& kernel_name, const std::string& dataset_name) {
  if (what == KernelMatrixOutput::None) return;
  const auto stem = [repeat](const Cell& c) { return fmt::format("{}-{}", c.id, repeat); };
  callbacks.gram_built = [&folder, &data, stem, kernel_name, dataset_name, repeat](
                             const Cell& c, const arma::mat& K, bool lower_only) {
    KernelHeatMap map;
    map.title = fmt::format("K(X, X): {} on {}, repeat {}, n = {}", kernel_name, dataset_name,
                            repeat, K.n_rows);
    map.classification = data.task == Task::Classification;
    (void)write_gram_matrix(folder, stem(c), K, lower_only, data.y_train, map);
  };
  if (what != KernelMatrixOutput::TrainAndTest) return;
  callbacks.cross_built = [&folder, stem](const Cell& c, const arma::mat& K_cross) {
    (void)write_cross_gram_matrix(folder, stem(c), K_cross);
  };
}

}  // namespace kexp::core
