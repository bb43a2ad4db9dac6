// Refusing, before anything runs, a solver that cannot take its dataset's targets.
#include "run/task_check.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <string>

#include "kexp/error.hpp"
#include "kexp/plugin.hpp"

namespace kexp::core {

namespace {

/// The distinct labels of y in order of first appearance (at most `most` of them), and
/// how many there are.
std::pair<std::vector<double>, std::size_t> labels_of(const arma::vec& y, std::size_t most) {
  const arma::vec distinct = arma::unique(y);
  std::vector<double> shown;
  for (arma::uword i = 0; i < y.n_elem && shown.size() < most; ++i) {
    if (std::find(shown.begin(), shown.end(), y[i]) == shown.end()) shown.push_back(y[i]);
  }
  return {shown, distinct.n_elem};
}

std::string label_list(const arma::vec& y) {
  const auto [shown, count] = labels_of(y, 6);
  std::string text;
  for (std::size_t i = 0; i < shown.size(); ++i)
    text += fmt::format("{}{}", i ? ", " : "", shown[i]);
  if (count > shown.size()) text += ", …";
  return text;
}

}  // namespace

void check_tasks(const Experiment& e, const Plan& plan, const std::vector<bool>& selected,
                 const RunData& data) {
  for (std::size_t i = 0; i < plan.cells.size(); ++i) {
    const Cell& cell = plan.cells[i];
    if (!selected[i] || cell.dataset >= data.data.size()) continue;
    const Variant& solver = plan.solvers[cell.solver];
    const Variant& dataset = plan.datasets[cell.dataset];
    const ComponentSpec& entry = e.solvers[solver.component];
    const PluginRecord& plugin = *solver.plugin;
    for (const PreparedData& d : data.data[cell.dataset]) {
      if (d.task == Task::Multiclass && !plugin.has_flag(flags::multiclass)) {
        throw ConfigError(
            entry.where, entry.key,
            fmt::format("{}: {} does not take more than two classes, and the dataset {} has {} "
                        "({}) in its training part; use a solver that trains several classes "
                        "(svc, linear_svc: one against one)",
                        entry.key, solver.name(), dataset.canonical, labels_of(d.y_train, 0).second,
                        label_list(d.y_train)));
      }
      if (!plugin.has_flag(flags::classifier)) continue;
      if (d.task == Task::Regression) {
        throw ConfigError(
            entry.where, entry.key,
            fmt::format("{}: {} is a classifier, and the dataset {} yields regression targets; "
                        "use a classification dataset (a file's `task: classification`), or a "
                        "regression solver",
                        entry.key, solver.name(), dataset.canonical));
      }
      if (labels_of(d.y_train, 0).second < 2) {
        throw ConfigError(
            e.dataset.where, e.dataset.key,
            fmt::format("dataset: the training part of {} holds one class only (label {}), and "
                        "{} ({}) is a classifier, which needs two; a larger n, another "
                        "test_fraction or other data",
                        dataset.canonical, label_list(d.y_train), solver.name(), entry.key));
      }
    }
  }
}

}  // namespace kexp::core
