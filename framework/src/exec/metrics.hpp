// How a cell's predictions are scored (RMSE, accuracy, on the test set, the training set
// and the validation splits), and the checks that what is scored is finite: a NaN or an
// infinity fails the cell, never becomes a result.
#pragma once

#include <armadillo>
#include <optional>
#include <string>
#include <string_view>

#include "exec/cell_result.hpp"
#include "exec/data.hpp"
#include "kexp/kernel.hpp"

namespace kexp::core {

/// Root mean squared error √(mean (y − ŷ)²); NaN when the lengths differ or are zero.
double rmse(const arma::vec& y, const arma::vec& prediction);

/// Share of points whose predicted class, the sign of `score` (0 counts as +1), is the
/// sign of y; NaN when the lengths differ or are zero.
double accuracy(const arma::vec& y, const arma::vec& score);

/// Share of points whose predicted label equals their label (multi-class targets, whose
/// solver predicts the labels themselves); NaN when the lengths differ or are zero.
double label_accuracy(const arma::vec& y, const arma::vec& predicted);

/// The accuracy of `prediction` for the task's targets: accuracy() for ±1 labels,
/// label_accuracy() for more classes; nothing for regression.
std::optional<double> task_accuracy(Task task, const arma::vec& y, const arma::vec& prediction);

/// Throws NumericError when `values` holds entries that are not finite, saying how many:
/// a NaN or an infinity must fail the cell, never be written as a result. With
/// Triangle::Lower, only the lower triangle and the diagonal of the square `values` hold
/// results and are checked.
void require_finite(const arma::mat& values, std::string_view what, Triangle part = Triangle::Both);

/// Finite predictions can still give an error that is not (targets near the largest
/// double): such a figure is no result. Throws NumericError naming `what` and the largest
/// |y| of the training targets `y_train`.
void require_finite_error(double value, const std::string& what, const arma::vec& y_train);

/// The test RMSE, the training RMSE when `fitted` has a value per training point, and for
/// classification (two classes or more) the test accuracy of `prediction` on `data`, into `result`.
/// Throws NumericError when an RMSE is not finite (require_finite_error).
void score(const PreparedData& data, const arma::vec& prediction, const arma::vec& fitted,
           CellResult& result);

/// The slack of memory_note: resident memory a cell may gain beyond its estimate without
/// a warning (the allocator's arenas, BLAS buffers and thread stacks, touched at first).
inline constexpr double kMemorySlackBytes = 32.0 * 1024 * 1024;

/// A warning when a cell's resident memory grew by `growth` bytes (its peak less what it
/// started with) and that is more than twice what the memory budget counted for it
/// (`estimated`, run/budget's estimate, negative when not known) and more than the
/// estimate plus kMemorySlackBytes; empty otherwise. The budget trusts the estimate (for
/// a solver that reaches the kernel, Solver::memory_bytes): a cell far over it may pass
/// a budget it should not.
std::string memory_note(double growth, double estimated);

/// The validation figures from each split's RMSE and accuracy: their mean and, over more
/// than one split, their sample standard deviation; accuracy for classification only (two
/// classes or more).
void score_validation(const arma::vec& rmses, const arma::vec& accuracies, Task task,
                      CellResult& result);

}  // namespace kexp::core
