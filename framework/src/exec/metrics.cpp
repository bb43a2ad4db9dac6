// The scores of a cell's predictions (RMSE and accuracy, and their mean and deviation over
// the validation splits) and the checks that fail a cell whose inputs, predictions or
// errors hold a NaN or an infinity, saying where and how many.
#include "exec/metrics.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <utility>

#include "kexp/error.hpp"

namespace kexp::core {

std::string memory_note(double growth, double estimated) {
  if (estimated < 0 || !(growth > 2 * estimated) || !(growth > estimated + kMemorySlackBytes)) {
    return {};
  }
  return fmt::format(
      "its resident memory grew by {:.3g} MB, more than twice the {:.3g} MB its memory "
      "estimate counts (the memory budget trusts that estimate: a solver that reaches the "
      "kernel gives it in Solver::memory_bytes)",
      growth / 1e6, estimated / 1e6);
}

double rmse(const arma::vec& y, const arma::vec& prediction) {
  if (y.n_elem == 0 || prediction.n_elem != y.n_elem) return std::nan("");
  // Scaled by the largest error, as LAPACK's dnrm2 is: errors of 1e-200 would square to
  // zero (RMSE 0) and errors of 1e200 to infinity.
  const arma::vec e = y - prediction;
  if (e.has_nan()) return std::nan("");
  const double scale = arma::abs(e).max();
  if (!(scale > 0) || !std::isfinite(scale)) return scale;  // 0, inf or NaN as they are
  return scale * std::sqrt(arma::mean(arma::square(e / scale)));
}

double accuracy(const arma::vec& y, const arma::vec& score) {
  if (y.n_elem == 0 || score.n_elem != y.n_elem) return std::nan("");
  std::size_t right = 0;
  for (arma::uword i = 0; i < y.n_elem; ++i) {
    const double label = score[i] >= 0 ? 1.0 : -1.0;
    if (label == (y[i] >= 0 ? 1.0 : -1.0)) ++right;
  }
  return static_cast<double>(right) / static_cast<double>(y.n_elem);
}

double label_accuracy(const arma::vec& y, const arma::vec& predicted) {
  if (y.n_elem == 0 || predicted.n_elem != y.n_elem) return std::nan("");
  std::size_t right = 0;
  for (arma::uword i = 0; i < y.n_elem; ++i) right += predicted[i] == y[i] ? 1 : 0;
  return static_cast<double>(right) / static_cast<double>(y.n_elem);
}

std::optional<double> task_accuracy(Task task, const arma::vec& y, const arma::vec& prediction) {
  switch (task) {
    case Task::Classification:
      return accuracy(y, prediction);
    case Task::Multiclass:
      return label_accuracy(y, prediction);
    case Task::Regression:
      break;
  }
  return std::nullopt;
}

void require_finite(const arma::mat& values, std::string_view what, Triangle part) {
  std::size_t bad = 0, entries = values.n_elem;
  std::string where(what);
  if (part == Triangle::Lower) {
    for (arma::uword j = 0; j < values.n_cols; ++j) {
      const double* col = values.colptr(j);
      for (arma::uword i = j; i < values.n_rows; ++i) bad += std::isfinite(col[i]) ? 0 : 1;
    }
    entries = values.n_rows * (values.n_rows + 1) / 2;
    where = fmt::format("the lower triangle of {}", what);
  } else if (!values.is_finite()) {
    bad = static_cast<std::size_t>(
        std::count_if(values.begin(), values.end(), [](double v) { return !std::isfinite(v); }));
  }
  if (bad == 0) return;
  throw NumericError(fmt::format(
      "{} of the {} entries of {} are not finite (NaN or infinite); check the parameters "
      "against the scale of the data (an overflow, a σ far too small, a λ or noise of inf)",
      bad, entries, where));
}

void require_finite_error(double value, const std::string& what, const arma::vec& y_train) {
  if (std::isfinite(value)) return;
  throw NumericError(fmt::format(
      "the {} is {} although every prediction is finite: the targets (largest |y| = {}) "
      "are too large to square in double precision; rescale them",
      what, value, arma::abs(y_train).max()));
}

void score(const PreparedData& data, const arma::vec& prediction, const arma::vec& fitted,
           CellResult& result) {
  result.test_rmse = rmse(data.y_test, prediction);
  if (fitted.n_elem == data.y_train.n_elem) result.train_rmse = rmse(data.y_train, fitted);
  if (const auto a = task_accuracy(data.task, data.y_test, prediction)) result.test_accuracy = *a;
  for (const auto& [name, value] :
       {std::pair{"test RMSE", result.test_rmse}, std::pair{"training RMSE", result.train_rmse}}) {
    if (value) require_finite_error(*value, name, data.y_train);
  }
}

void score_validation(const arma::vec& rmses, const arma::vec& accuracies, Task task,
                      CellResult& result) {
  const std::size_t count = rmses.n_elem;
  result.validation_rmse = arma::mean(rmses);
  if (count > 1) result.validation_rmse_std = arma::stddev(rmses);
  if (task != Task::Regression) {
    result.validation_accuracy = arma::mean(accuracies);
    if (count > 1) result.validation_accuracy_std = arma::stddev(accuracies);
  }
}

}  // namespace kexp::core
