// Small problems for the solver tests: data with a fixed seed, exact feature maps built
// by hand (so that primal and dual forms can be compared without any kernel plugin), and
// fit-then-predict in either form through the solver interface.
#pragma once

#include <algorithm>
#include <armadillo>
#include <cmath>
#include <cstddef>
#include <string>

#include "kexp/kexp.hpp"

namespace kexp::test {

/// Inputs X (d × n), test inputs Xt (d × m), targets y = a smooth function plus noise.
struct Problem {
  arma::mat X, Xt;
  arma::vec y;
};

inline Problem make_problem(arma::uword d, arma::uword n, arma::uword m, unsigned seed) {
  arma::arma_rng::set_seed(seed);
  Problem p;
  p.X = arma::randu<arma::mat>(d, n) * 2.0 - 1.0;
  p.Xt = arma::randu<arma::mat>(d, m) * 2.0 - 1.0;
  const arma::rowvec s = arma::sum(p.X, 0);
  p.y = arma::vec(arma::sin(2.0 * s).t()) + 0.1 * arma::randn<arma::vec>(n);
  return p;
}

/// The exact map of the degree-2 polynomial kernel k(x, z) = (xᵀz + 1)²:
/// φ(x) = (1, √2 xᵢ, xᵢ², √2 xᵢxⱼ for i < j), D = 1 + 2d + d(d − 1)/2.
inline arma::mat quadratic_map(const arma::mat& X) {
  const arma::uword d = X.n_rows;
  arma::mat Phi(1 + 2 * d + d * (d - 1) / 2, X.n_cols);
  const double r2 = std::sqrt(2.0);
  for (arma::uword c = 0; c < X.n_cols; ++c) {
    arma::uword k = 0;
    Phi(k++, c) = 1.0;
    for (arma::uword i = 0; i < d; ++i) Phi(k++, c) = r2 * X(i, c);
    for (arma::uword i = 0; i < d; ++i) Phi(k++, c) = X(i, c) * X(i, c);
    for (arma::uword i = 0; i < d; ++i)
      for (arma::uword j = i + 1; j < d; ++j) Phi(k++, c) = r2 * X(i, c) * X(j, c);
  }
  return Phi;
}

/// (XᵀZ + 1)², the Gram block of quadratic_map.
inline arma::mat quadratic_gram(const arma::mat& X, const arma::mat& Z) {
  return arma::square(X.t() * Z + 1.0);
}

/// Gaussian Gram block exp(−‖x − z‖² / (2σ²)), computed directly.
inline arma::mat gaussian_gram(const arma::mat& X, const arma::mat& Z, double sigma) {
  arma::mat K(X.n_cols, Z.n_cols);
  for (arma::uword j = 0; j < Z.n_cols; ++j)
    for (arma::uword i = 0; i < X.n_cols; ++i)
      K(i, j) = std::exp(-arma::accu(arma::square(X.col(i) - Z.col(j))) / (2.0 * sigma * sigma));
  return K;
}

struct FitResult {
  SolverReport report;
  Prediction prediction;
};

/// Options of a dual fit: whether K may be overwritten, and the group it belongs to.
struct DualOptions {
  bool writable = false;
  SharedState* shared = nullptr;
  std::size_t group_size = 1;
  std::size_t group_position = 0;
};

/// fit() on K (taken by value: the solver may factor it in place), then predict() with
/// K(X, X*) and k(x*, x*).
inline FitResult run_dual(Solver& solver, arma::mat K, const arma::mat& K_cross,
                          const arma::vec& k_diag, const arma::vec& y,
                          const DualOptions& options = {}, Task task = Task::Regression) {
  TrainingData train;
  train.gram = &K;
  train.gram_writable = options.writable;
  train.targets = &y;
  train.task = task;
  train.shared = options.shared;
  train.group_size = options.group_size;
  train.group_position = options.group_position;
  FitResult run;
  solver.fit(train, run.report);
  TestData test;
  test.gram = &K_cross;
  test.gram_diagonal = &k_diag;
  run.prediction = solver.predict(test, run.report);
  return run;
}

/// fit() with the kernel and the points X, then predict() at Xt: a solver that reaches
/// the kernel (flags::kernel_inputs, or `device: cuda`).
inline FitResult run_reaching(Solver& solver, const Kernel& k, const Problem& p) {
  TrainingData train;
  train.kernel = &k;
  train.inputs = &p.X;
  train.targets = &p.y;
  FitResult r;
  solver.fit(train, r.report);
  TestData test;
  test.kernel = &k;
  test.inputs = &p.Xt;
  r.prediction = solver.predict(test, r.report);
  return r;
}

/// fit() on Φ (D × n), then predict() on Φ(X*).
inline FitResult run_primal(Solver& solver, const arma::mat& Phi, const arma::mat& Phi_test,
                            const arma::vec& y) {
  TrainingData train;
  train.features = &Phi;
  train.targets = &y;
  FitResult run;
  solver.fit(train, run.report);
  TestData test;
  test.features = &Phi_test;
  run.prediction = solver.predict(test, run.report);
  return run;
}

/// The value of a named metric in a report; NaN when absent.
inline double metric(const SolverReport& report, const std::string& name) {
  for (const auto& [key, value] : report.metrics)
    if (key == name) return value;
  return std::nan("");
}

/// max |a − b| / max(1, max |b|).
inline double relative_difference(const arma::vec& a, const arma::vec& b) {
  return arma::abs(a - b).max() / std::max(1.0, arma::abs(b).max());
}

}  // namespace kexp::test
