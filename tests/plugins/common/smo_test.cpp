// SMO on small dense problems: hand-solved two- and four-point problems, the KKT
// conditions of the result on larger ones, with and without the equality constraint, an
// indefinite matrix, the iteration limit, and shrinking against none.
#include <gtest/gtest.h>

#include <armadillo>
#include <cmath>
#include <limits>
#include <utility>

#include "common/smo.hpp"

namespace kexp_solvers {
namespace {

/// Q = y yᵀ ∘ K + shift·I from a dense K, followed through the solver's swaps; its two
/// most recent columns stay valid, as the SMO step needs.
class DenseQ final : public QMatrix {
 public:
  DenseQ(const arma::mat& K, const std::vector<std::int8_t>& y, double shift = 0)
      : Q_(K.n_rows, K.n_cols), order_(K.n_rows) {
    for (arma::uword i = 0; i < K.n_rows; ++i) {
      order_[i] = i;
      for (arma::uword j = 0; j < K.n_cols; ++j) Q_(i, j) = y[i] * y[j] * K(i, j);
      Q_(i, i) += shift;
    }
    diag_ = arma::vec(Q_.diag());
  }
  const double* column(std::size_t i, std::size_t len) override {
    arma::vec& out = ring_[next_];
    next_ = 1 - next_;
    out.set_size(len);
    for (std::size_t k = 0; k < len; ++k) out[k] = Q_(order_[k], order_[i]);
    return out.memptr();
  }
  const double* diagonal() const override { return diag_.memptr(); }
  void swap(std::size_t i, std::size_t j) override {
    std::swap(order_[i], order_[j]);
    std::swap(diag_[i], diag_[j]);
  }

 private:
  arma::mat Q_;
  std::vector<arma::uword> order_;
  arma::vec diag_;
  arma::vec ring_[2];
  int next_ = 0;
};

std::vector<std::int8_t> labels(const arma::vec& y) {
  std::vector<std::int8_t> out(y.n_elem);
  for (arma::uword i = 0; i < y.n_elem; ++i) out[i] = y[i] > 0 ? 1 : -1;
  return out;
}

/// The KKT conditions of min ½αᵀQα − eᵀα, 0 ≤ α ≤ C, yᵀα = 0 at α, with b = −ρ: the
/// margins yᵢf(xᵢ) are ≥ 1 where α = 0, = 1 where 0 < α < C, ≤ 1 where α = C, within tol.
void expect_kkt(const arma::mat& K, const arma::vec& y, const SmoSolution& s, double C, double tol,
                bool equality) {
  const arma::uword n = y.n_elem;
  const arma::vec alpha(s.alpha);
  arma::vec g = K * (alpha % y);  // Σ αⱼyⱼk(xⱼ, xᵢ)
  const arma::vec margin = y % (g - s.rho);
  for (arma::uword i = 0; i < n; ++i) {
    SCOPED_TRACE(i);
    ASSERT_GE(alpha[i], 0.0);
    ASSERT_LE(alpha[i], C);
    if (alpha[i] == 0) {
      EXPECT_GE(margin[i], 1 - tol);
    } else if (alpha[i] == C) {
      EXPECT_LE(margin[i], 1 + tol);
    } else {
      EXPECT_NEAR(margin[i], 1.0, tol);
    }
  }
  if (equality) {
    EXPECT_NEAR(arma::dot(alpha, y), 0.0, 1e-10 * C * static_cast<double>(n));
  }
}

SmoSolution solve(const arma::mat& K, const arma::vec& y, const SmoSettings& s) {
  DenseQ Q(K, labels(y));
  return solve_smo(Q, std::vector<double>(y.n_elem, -1.0), labels(y), s);
}

TEST(Smo, SolvesTwoPointsByHand) {
  // x = ±1 with labels ±1, k = xz: the widest margin is w = 1, b = 0, with
  // α = (½, ½) (w = Σ αᵢyᵢxᵢ); the dual objective is ½αᵀQα − Σα = ½·1 − 1 = −½.
  const arma::mat K = {{1.0, -1.0}, {-1.0, 1.0}};
  const arma::vec y = {1.0, -1.0};
  SmoSettings s;
  s.upper = 10;
  const SmoSolution sol = solve(K, y, s);
  EXPECT_NEAR(sol.alpha[0], 0.5, 1e-12);
  EXPECT_NEAR(sol.alpha[1], 0.5, 1e-12);
  EXPECT_NEAR(sol.rho, 0.0, 1e-12);
  EXPECT_NEAR(sol.objective, -0.5, 1e-12);
  EXPECT_TRUE(sol.converged);
  // With C = ¼ both are bounded: α = (¼, ¼), w = ½, and ρ is the middle of its range.
  s.upper = 0.25;
  const SmoSolution bounded = solve(K, y, s);
  EXPECT_DOUBLE_EQ(bounded.alpha[0], 0.25);
  EXPECT_DOUBLE_EQ(bounded.alpha[1], 0.25);
  EXPECT_NEAR(bounded.rho, 0.0, 1e-12);
}

TEST(Smo, SolvesFourPointsByHand) {
  // x = −2, −1, 1, 2 with labels −, −, +, +: the margin is set by ±1 alone, w = 1, b = 0,
  // α = (0, ½, ½, 0); the outer points are no support vectors.
  const arma::vec x = {-2.0, -1.0, 1.0, 2.0};
  const arma::mat K = x * x.t();
  const arma::vec y = {-1.0, -1.0, 1.0, 1.0};
  SmoSettings s;
  s.upper = 100;
  s.tolerance = 1e-10;
  const SmoSolution sol = solve(K, y, s);
  EXPECT_NEAR(sol.alpha[0], 0.0, 1e-12);
  EXPECT_NEAR(sol.alpha[1], 0.5, 1e-10);
  EXPECT_NEAR(sol.alpha[2], 0.5, 1e-10);
  EXPECT_NEAR(sol.alpha[3], 0.0, 1e-12);
  EXPECT_NEAR(sol.rho, 0.0, 1e-10);
  // the gradient Qα − 1 is y_i·f(x_i) − 1: 1, 0, 0, 1
  EXPECT_NEAR(sol.gradient[0], 1.0, 1e-10);
  EXPECT_NEAR(sol.gradient[1], 0.0, 1e-10);
}

TEST(Smo, MeetsTheKktConditionsOnAGaussianProblem) {
  arma::arma_rng::set_seed(3);
  const arma::uword n = 300;
  arma::mat X = arma::randn<arma::mat>(2, n);
  arma::vec y(n);
  for (arma::uword i = 0; i < n; ++i) y[i] = X(0, i) * X(1, i) + 0.3 * arma::randn() > 0 ? 1 : -1;
  arma::mat K(n, n);
  for (arma::uword i = 0; i < n; ++i)
    for (arma::uword j = 0; j < n; ++j)
      K(i, j) = std::exp(-0.5 * arma::accu(arma::square(X.col(i) - X.col(j))));
  for (const bool shrinking : {true, false}) {
    SCOPED_TRACE(shrinking);
    SmoSettings s;
    s.upper = 2.0;
    s.tolerance = 1e-8;
    s.shrinking = shrinking;
    const SmoSolution sol = solve(K, y, s);
    EXPECT_TRUE(sol.converged);
    expect_kkt(K, y, sol, 2.0, 1e-7, true);
  }
  // shrinking changes the path, not the answer
  SmoSettings a, b;
  a.upper = b.upper = 2.0;
  a.tolerance = b.tolerance = 1e-10;
  b.shrinking = false;
  const SmoSolution sa = solve(K, y, a), sb = solve(K, y, b);
  EXPECT_NEAR(sa.objective, sb.objective, 1e-9 * std::fabs(sb.objective));
}

TEST(Smo, WithoutTheEqualityConstraintSolvesEachCoordinate) {
  // one point: min ½qα² − α on [0, U] is α = min(1/q, U), and ρ = 0
  const arma::mat K(1, 1, arma::fill::value(4.0));
  SmoSettings s;
  s.equality = false;
  s.upper = 10;
  EXPECT_NEAR(solve(K, arma::vec{1.0}, s).alpha[0], 0.25, 1e-15);
  s.upper = 0.1;
  EXPECT_DOUBLE_EQ(solve(K, arma::vec{1.0}, s).alpha[0], 0.1);
  // a larger problem: the KKT conditions with ρ = 0
  arma::arma_rng::set_seed(5);
  const arma::uword n = 200;
  const arma::mat X = arma::randn<arma::mat>(3, n);
  arma::vec y = arma::sign(X.row(0).t() + 0.5 * arma::randn<arma::vec>(n));
  y.replace(0.0, 1.0);
  const arma::mat Kl = X.t() * X + 1.0;  // the linear kernel + 1: a regularized bias
  s.upper = 1.0;
  s.tolerance = 1e-9;
  const SmoSolution sol = solve(Kl, y, s);
  EXPECT_TRUE(sol.converged);
  EXPECT_EQ(sol.rho, 0.0);
  expect_kkt(Kl, y, sol, 1.0, 1e-8, false);
}

TEST(Smo, EndsOnAnIndefiniteMatrix) {
  // tanh(a xᵀz + b) with b < 0 is not PSD; the τ rule keeps every step a descent, and SMO
  // ends on the KKT conditions of the box (a local solution)
  arma::arma_rng::set_seed(7);
  const arma::uword n = 120;
  const arma::mat X = arma::randn<arma::mat>(3, n);
  arma::vec y = arma::sign(X.row(1).t());
  y.replace(0.0, 1.0);
  const arma::mat K = arma::tanh(0.5 * X.t() * X - 1.0);
  ASSERT_LT(arma::eig_sym(K).min(), -1e-3) << "the test needs an indefinite K";
  SmoSettings s;
  s.upper = 1.0;
  const SmoSolution sol = solve(K, y, s);
  EXPECT_TRUE(sol.converged);
  EXPECT_GT(sol.nonpositive_curvature, 0);
  for (const double a : sol.alpha) {
    EXPECT_GE(a, 0.0);
    EXPECT_LE(a, 1.0);
  }
}

TEST(Smo, StopsAtTheIterationLimitUnconverged) {
  arma::arma_rng::set_seed(9);
  const arma::uword n = 100;
  const arma::mat X = arma::randn<arma::mat>(2, n);
  arma::vec y = arma::sign(X.row(0).t() + arma::randn<arma::vec>(n));
  y.replace(0.0, 1.0);
  arma::mat K(n, n);
  for (arma::uword i = 0; i < n; ++i)
    for (arma::uword j = 0; j < n; ++j)
      K(i, j) = std::exp(-arma::accu(arma::square(X.col(i) - X.col(j))));
  SmoSettings s;
  s.iterations = 5;
  const SmoSolution sol = solve(K, y, s);
  EXPECT_FALSE(sol.converged);
  EXPECT_EQ(sol.iterations, 5);
  // still feasible, and the gradient whole
  EXPECT_NEAR(arma::dot(arma::vec(sol.alpha), y), 0.0, 1e-12);
}

TEST(Smo, SquaredLossLiftsTheUpperBound) {
  // U = ∞ with shift 1/(2C) on the diagonal: two points x = ±1, k = xz, C = ½:
  // Q = [[1 + 1, 1], [1, 1 + 1]] in y-space; α = (α, α) by symmetry, minimize
  // ½·2α²·(2 + 1)... solved: (Q α)_i = 1 ⇒ 3α = 1, α = ⅓.
  const arma::mat K = {{1.0, -1.0}, {-1.0, 1.0}};
  const arma::vec y = {1.0, -1.0};
  DenseQ Q(K, labels(y), 1.0);  // 1/(2C) with C = ½
  SmoSettings s;
  s.upper = std::numeric_limits<double>::infinity();
  s.tolerance = 1e-12;
  const SmoSolution sol = solve_smo(Q, {-1.0, -1.0}, labels(y), s);
  EXPECT_NEAR(sol.alpha[0], 1.0 / 3.0, 1e-12);
  EXPECT_NEAR(sol.alpha[1], 1.0 / 3.0, 1e-12);
}

}  // namespace
}  // namespace kexp_solvers
