// Dual coordinate descent for linear SVMs (common/dual_coordinate_descent.hpp).
#include "common/dual_coordinate_descent.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <random>
#include <utility>

namespace kexp_solvers {

LinearSettings linear_settings(const kexp::Params& p, const char* squared_loss) {
  LinearSettings s;
  s.c = p.real("c");
  if (p.has("epsilon")) s.epsilon = p.real("epsilon");
  s.squared = p.string("loss") == squared_loss;
  s.bias = p.string("bias") == "regularized";
  s.tolerance = p.real("tolerance");
  s.epochs = p.integer("epochs");
  return s;
}

namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();
/// A step smaller than this is not taken (LIBLINEAR's).
constexpr double kSmallest = 1e-12;
constexpr std::uint64_t kSeed = 1;

double dot(const double* a, const double* b, std::size_t n) {
  double s = 0;
#pragma omp simd reduction(+ : s)
  for (std::size_t k = 0; k < n; ++k) s += a[k] * b[k];
  return s;
}

void axpy(double a, const double* x, double* y, std::size_t n) {
#pragma omp simd
  for (std::size_t k = 0; k < n; ++k) y[k] += a * x[k];
}

/// The coordinates in a random order: the first `active` shuffled (Fisher–Yates).
void shuffle(std::vector<std::size_t>& order, std::size_t active, std::mt19937_64& rng) {
  for (std::size_t i = 0; i + 1 < active; ++i) {
    std::uniform_int_distribution<std::size_t> pick(i, active - 1);
    std::swap(order[i], order[pick(rng)]);
  }
}

}  // namespace

LinearModel train_linear_classifier(const arma::mat& Phi, const std::vector<arma::uword>& index,
                                    const std::vector<std::int8_t>& y, const LinearSettings& s) {
  const std::size_t n = index.size(), D = Phi.n_rows;
  const double diag = s.squared ? 0.5 / s.c : 0.0;
  const double U = s.squared ? kInf : s.c;
  const double bias = s.bias ? 1.0 : 0.0;
  LinearModel m;
  m.w.zeros(D);
  std::vector<double> alpha(n, 0.0), QD(n);
  std::vector<std::size_t> order(n);
  for (std::size_t i = 0; i < n; ++i) {
    const double* x = Phi.colptr(index[i]);
    QD[i] = dot(x, x, D) + bias * bias + diag;
    order[i] = i;
  }
  m.flops += 2.0 * static_cast<double>(n * D);
  std::mt19937_64 rng(kSeed);
  std::size_t active = n;
  double pgmax_old = kInf, pgmin_old = -kInf;
  double* w = m.w.memptr();
  m.converged = false;
  while (m.epochs < s.epochs) {
    double pgmax = -kInf, pgmin = kInf;
    shuffle(order, active, rng);
    for (std::size_t k = 0; k < active; ++k) {
      const std::size_t i = order[k];
      const double* x = Phi.colptr(index[i]);
      const double yi = y[i];
      const double G = yi * (dot(w, x, D) + m.b * bias) - 1.0 + alpha[i] * diag;
      m.flops += 2.0 * static_cast<double>(D);
      double pg = 0;
      if (alpha[i] == 0) {
        if (G > pgmax_old) {  // at 0 and pushed further: leaves the active set
          --active;
          std::swap(order[k], order[active]);
          --k;
          continue;
        }
        if (G < 0) pg = G;
      } else if (alpha[i] == U) {
        if (G < pgmin_old) {
          --active;
          std::swap(order[k], order[active]);
          --k;
          continue;
        }
        if (G > 0) pg = G;
      } else {
        pg = G;
      }
      pgmax = std::max(pgmax, pg);
      pgmin = std::min(pgmin, pg);
      if (std::fabs(pg) > kSmallest) {
        const double old = alpha[i];
        alpha[i] = std::min(std::max(old - G / QD[i], 0.0), U);
        const double d = (alpha[i] - old) * yi;
        axpy(d, x, w, D);
        m.b += d * bias;
        m.flops += 2.0 * static_cast<double>(D);
      }
    }
    ++m.epochs;
    if (std::max(pgmax, 0.0) - std::min(pgmin, 0.0) <= s.tolerance) {
      if (active == n) {
        m.converged = true;
        break;
      }
      active = n;  // check every coordinate before stopping
      pgmax_old = kInf;
      pgmin_old = -kInf;
      continue;
    }
    pgmax_old = pgmax <= 0 ? kInf : pgmax;
    pgmin_old = pgmin >= 0 ? -kInf : pgmin;
  }
  double v = arma::dot(m.w, m.w) + m.b * m.b;
  m.support.assign(n, false);
  for (std::size_t i = 0; i < n; ++i) {
    v += alpha[i] * (alpha[i] * diag - 2.0);
    if (alpha[i] > 0) {
      m.support[i] = true;
      ++m.support_vectors;
      if (alpha[i] >= U) ++m.bounded;
    }
  }
  m.objective = v / 2;
  return m;
}

LinearModel train_linear_regression(const arma::mat& Phi, const arma::vec& y,
                                    const LinearSettings& s) {
  const std::size_t n = Phi.n_cols, D = Phi.n_rows;
  const double lambda = s.squared ? 0.5 / s.c : 0.0;
  const double U = s.squared ? kInf : s.c;
  const double bias = s.bias ? 1.0 : 0.0;
  const double p = s.epsilon;
  LinearModel m;
  m.w.zeros(D);
  std::vector<double> beta(n, 0.0), QD(n);
  std::vector<std::size_t> order(n);
  for (std::size_t i = 0; i < n; ++i) {
    const double* x = Phi.colptr(i);
    QD[i] = dot(x, x, D) + bias * bias;
    order[i] = i;
  }
  m.flops += 2.0 * static_cast<double>(n * D);
  std::mt19937_64 rng(kSeed);
  std::size_t active = n;
  double gmax_old = kInf;
  double* w = m.w.memptr();
  m.converged = false;
  const auto shrink = [&](std::size_t& k) {
    --active;
    std::swap(order[k], order[active]);
    --k;
  };
  while (m.epochs < s.epochs) {
    double gmax = 0;
    shuffle(order, active, rng);
    for (std::size_t k = 0; k < active; ++k) {
      const std::size_t i = order[k];
      const double* x = Phi.colptr(i);
      const double G = dot(w, x, D) + m.b * bias - y[i] + lambda * beta[i];
      m.flops += 2.0 * static_cast<double>(D);
      const double H = QD[i] + lambda;
      const double Gp = G + p, Gn = G - p;
      double violation = 0;
      if (beta[i] == 0) {
        if (Gp < 0) {
          violation = -Gp;
        } else if (Gn > 0) {
          violation = Gn;
        } else if (Gp > gmax_old && Gn < -gmax_old) {
          shrink(k);
          continue;
        }
      } else if (beta[i] >= U) {
        if (Gp > 0) {
          violation = Gp;
        } else if (Gp < -gmax_old) {
          shrink(k);
          continue;
        }
      } else if (beta[i] <= -U) {
        if (Gn < 0) {
          violation = -Gn;
        } else if (Gn > gmax_old) {
          shrink(k);
          continue;
        }
      } else if (beta[i] > 0) {
        violation = std::fabs(Gp);
      } else {
        violation = std::fabs(Gn);
      }
      gmax = std::max(gmax, violation);
      // the minimum of the one-dimensional problem: a Newton step on the side of 0 it
      // lands, or 0 itself
      double d;
      if (Gp < H * beta[i]) {
        d = -Gp / H;
      } else if (Gn > H * beta[i]) {
        d = -Gn / H;
      } else {
        d = -beta[i];
      }
      if (std::fabs(d) < kSmallest) continue;
      const double old = beta[i];
      beta[i] = std::min(std::max(old + d, -U), U);
      d = beta[i] - old;
      if (d != 0) {
        axpy(d, x, w, D);
        m.b += d * bias;
        m.flops += 2.0 * static_cast<double>(D);
      }
    }
    ++m.epochs;
    if (gmax <= s.tolerance) {
      if (active == n) {
        m.converged = true;
        break;
      }
      active = n;
      gmax_old = kInf;
      continue;
    }
    gmax_old = gmax;
  }
  double v = 0.5 * (arma::dot(m.w, m.w) + m.b * m.b);
  m.support.assign(n, false);
  for (std::size_t i = 0; i < n; ++i) {
    v += p * std::fabs(beta[i]) - y[i] * beta[i] + 0.5 * lambda * beta[i] * beta[i];
    if (beta[i] != 0) {
      m.support[i] = true;
      ++m.support_vectors;
      if (std::fabs(beta[i]) >= U) ++m.bounded;
    }
  }
  m.objective = v;
  return m;
}

}  // namespace kexp_solvers
