// output.kernel_matrix: its files sized and held to the disk before anything runs, else
// each group's K (and K(X, X*)) streamed out as the executor builds it.
#include "run/kernel_matrix_output.hpp"

#include <fmt/format.h>
#include <sys/statvfs.h>

#include <algorithm>
#include <set>
#include <tuple>

#include "exec/gram_store.hpp"
#include "kexp/error.hpp"
#include "reporting/kernel_matrix.hpp"
#include "run/budget.hpp"
#include "util/text.hpp"

namespace kexp::core {

namespace fs = std::filesystem;

namespace {

/// A heat map's script and drawing: at most kHeatMapCells² values as text, and the SVG.
constexpr double kHeatMapBytes = 2.0 * kHeatMapCells * kHeatMapCells * 12.0;

/// Bytes free to this process on the disk of `dir`, or of its nearest existing parent.
double free_bytes(fs::path dir) {
  std::error_code ec;
  dir = fs::absolute(dir, ec);
  while (!dir.empty() && !fs::exists(dir, ec)) {
    if (dir == dir.parent_path()) break;
    dir = dir.parent_path();
  }
  struct statvfs s {};
  if (::statvfs(dir.c_str(), &s) != 0) return -1;
  return static_cast<double>(s.f_bavail) * static_cast<double>(s.f_frsize);
}

}  // namespace

KernelMatrixPlan plan_kernel_matrices(const Experiment& e, const Plan& plan,
                                      const std::function<bool(const Cell&, int)>& to_run,
                                      const std::vector<DataDims>& dims) {
  KernelMatrixPlan out;
  if (e.output.kernel_matrix == KernelMatrixOutput::None) return out;
  // (dataset, kernel, repeat) whose group builds K in this run
  std::set<std::tuple<std::size_t, std::size_t, int>> groups;
  std::set<std::size_t> without_gram;  // solver entries
  for (const Cell& c : plan.cells) {
    if (c.form != Form::Dual) continue;
    for (int r = 0; r < e.repeats; ++r) {
      if (!to_run(c, r)) continue;
      if (reads_gram(c, plan.solvers[c.solver])) {
        groups.insert({c.dataset, c.kernel, r});
      } else {
        without_gram.insert(plan.solvers[c.solver].component);
      }
    }
  }
  const bool with_test = e.output.kernel_matrix == KernelMatrixOutput::TrainAndTest;
  for (const auto& [d, k, r] : groups) {
    if (d >= dims.size() || !(dims[d].n > 0)) continue;
    const auto n = static_cast<arma::uword>(dims[d].n);
    const auto m = static_cast<arma::uword>(dims[d].m);
    out.bytes += npy_file_bytes(n, n) + kHeatMapBytes + (with_test ? npy_file_bytes(n, m) : 0.0);
    out.files += with_test ? 2 : 1;
  }
  for (const std::size_t s : without_gram) {
    const ComponentSpec& spec = e.solvers[s];
    out.notes.push_back(fmt::format(
        "output.kernel_matrix writes no K for the cells of {} ({}): they build no K (the "
        "solver reaches the kernel itself{}, or runs in float32 or on the GPU)",
        spec.key, spec.plugin,
        spec.plugin == "cg_ridge" || spec.plugin == "falkon" ? ", by blocks" : ""));
  }
  if (groups.empty()) {
    out.notes.push_back(
        "output.kernel_matrix writes nothing in this run: none of its selected cells builds K");
  }
  return out;
}

void check_kernel_matrix_disk(const Experiment& e, const KernelMatrixPlan& plan,
                              const fs::path& out_dir) {
  if (plan.bytes <= 0) return;
  const double free = free_bytes(out_dir);
  if (free < 0 || plan.bytes <= 0.95 * free) return;
  throw ConfigError(
      e.output.kernel_matrix_where, "output.kernel_matrix",
      fmt::format("output.kernel_matrix would write {} of {} into {}/kernels, and its disk "
                  "has {} free; lower dataset.n (K takes 8·n² bytes), drop with_test, free "
                  "space, or remove output.kernel_matrix",
                  count_of(plan.files, "file"), size_text(plan.bytes), out_dir.string(),
                  size_text(free)));
}

void write_kernel_matrices(GroupCallbacks& callbacks, const ResultFolder& folder,
                           KernelMatrixOutput what, int repeat, const PreparedData& data,
                           const std::string& kernel_name, const std::string& dataset_name) {
  if (what == KernelMatrixOutput::None) return;
  const auto stem = [repeat](const Cell& c) { return fmt::format("{}-{}", c.id, repeat); };
  // A file that cannot be written is said (the executor passes what these throw on as a
  // warning), and the cell keeps its results.
  const auto not_written = [](const Cell& c, const std::exception& err) {
    return Error(fmt::format("output.kernel_matrix of cell {} not written: {}", c.id, err.what()));
  };
  callbacks.gram_built = [&folder, &data, stem, kernel_name, dataset_name, repeat, not_written](
                             const Cell& c, const arma::mat& K, bool lower_only) {
    KernelHeatMap map;
    map.title = fmt::format("K(X, X): {} on {}, repeat {}, n = {}", kernel_name, dataset_name,
                            repeat, K.n_rows);
    map.classification = data.task == Task::Classification;
    try {
      (void)write_gram_matrix(folder, stem(c), K, lower_only, data.y_train, map);
    } catch (const std::exception& err) {
      throw not_written(c, err);
    }
  };
  if (what != KernelMatrixOutput::TrainAndTest) return;
  callbacks.cross_built = [&folder, stem, not_written](const Cell& c, const arma::mat& K_cross) {
    try {
      (void)write_cross_gram_matrix(folder, stem(c), K_cross);
    } catch (const std::exception& err) {
      throw not_written(c, err);
    }
  };
}

}  // namespace kexp::core
