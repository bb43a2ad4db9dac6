// Dual coordinate descent for linear support vector machines on explicit features
// (linear_svc, linear_svr), as LIBLINEAR solves them (Hsieh, Chang, Lin, Keerthi &
// Sundararajan, A dual coordinate descent method for large-scale linear SVM, ICML 2008; Ho
// & Lin, Large-scale linear support vector regression, JMLR 13, 2012):
//
//   classification  min_α ½ αᵀ(Q + D)α − eᵀα,  0 ≤ αᵢ ≤ U,  Q_ij = y_i y_j x̃ᵢᵀx̃ⱼ
//   regression      min_β ½ βᵀ(Q + D)β − yᵀβ + ε‖β‖₁,  −U ≤ βᵢ ≤ U,  Q_ij = x̃ᵢᵀx̃ⱼ
//
// with x̃ = (φ(x), 1) when the bias is regularized (LIBLINEAR's bias feature of value 1) and
// x̃ = φ(x) without a bias; D = 0 and U = C for the hinge and ε-insensitive losses, D = I/(2C)
// and U = ∞ for their squares. w = Σ αᵢyᵢx̃ᵢ (or Σ βᵢx̃ᵢ) is kept up to date, so a coordinate
// costs two passes over its D features: its gradient y_i wᵀx̃ᵢ − 1 + Dᵢᵢαᵢ and, when it
// moves, the update of w. Each epoch visits the active coordinates in a random order (a
// fixed seed: the same result every run) and leaves out those at a bound whose gradient
// points out of the box by more than the last epoch's largest violation (LIBLINEAR's
// shrinking); it stops when every projected gradient of an epoch lies within tolerance of
// 0 (the rule svc and svr use without a free bias), after checking every coordinate, or
// after `epochs` epochs with converged false.
#pragma once

#include <armadillo>
#include <cstddef>
#include <cstdint>
#include <vector>

#include "kexp/params.hpp"

namespace kexp_solvers {

struct LinearSettings {
  double c = 1.0;
  double epsilon = 0.1;  ///< linear_svr's tube
  bool squared = false;
  bool bias = true;  ///< a regularized bias: the feature 1 appended
  double tolerance = 1e-3;
  std::int64_t epochs = 1000;
};

/// The settings linear_svc and linear_svr share, read from their parameters (c, loss, bias,
/// tolerance, epochs; linear_svr's epsilon where it has one): `squared_loss` names the value
/// of `loss` that is the squared one.
LinearSettings linear_settings(const kexp::Params& p, const char* squared_loss);

/// The flops of every epoch over every coordinate of n points with D features, each with its
/// gradient and an update of θ: the bound of a fit.
inline double linear_fit_flops_bound(const LinearSettings& s, std::size_t n, std::size_t D) {
  const double per_epoch = 4.0 * static_cast<double>(n) * static_cast<double>(D);
  return static_cast<double>(s.epochs + 1) * per_epoch;
}

/// w, b (the bias feature's weight; 0 without it) and what the solver did.
struct LinearModel {
  arma::vec w;
  double b = 0;
  std::int64_t epochs = 0;
  bool converged = true;
  std::size_t support_vectors = 0;  ///< αᵢ ≠ 0
  std::size_t bounded = 0;          ///< |αᵢ| = C
  std::vector<bool> support;        ///< per sample of the problem, αᵢ ≠ 0
  double objective = 0;             ///< the dual objective
  double flops = 0;                 ///< 2 per feature of each gradient and update of w
};

/// Classification on the columns `index` of Phi (D × n) with labels y = ±1.
LinearModel train_linear_classifier(const arma::mat& Phi, const std::vector<arma::uword>& index,
                                    const std::vector<std::int8_t>& y, const LinearSettings& s);

/// Regression on every column of Phi with targets y.
LinearModel train_linear_regression(const arma::mat& Phi, const arma::vec& y,
                                    const LinearSettings& s);

}  // namespace kexp_solvers
