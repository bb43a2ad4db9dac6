#include "exec/metrics.hpp"

#include <cmath>
#include <cstddef>

namespace kexp::core {

double rmse(const arma::vec& y, const arma::vec& prediction) {
  if (y.n_elem == 0 || prediction.n_elem != y.n_elem) return std::nan("");
  return std::sqrt(arma::mean(arma::square(y - prediction)));
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

}  // namespace kexp::core
