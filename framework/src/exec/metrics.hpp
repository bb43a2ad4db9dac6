// How a cell's predictions are scored.
#pragma once

#include <armadillo>

namespace kexp::core {

/// Root mean squared error √(mean (y − ŷ)²); NaN when the lengths differ or are zero.
double rmse(const arma::vec& y, const arma::vec& prediction);

/// Share of points whose predicted class, the sign of `score` (0 counts as +1), is the
/// sign of y; NaN when the lengths differ or are zero.
double accuracy(const arma::vec& y, const arma::vec& score);

}  // namespace kexp::core
