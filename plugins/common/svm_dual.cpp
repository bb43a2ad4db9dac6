// The dual SVM problems on cached kernel columns (common/svm_dual.hpp).
#include "common/svm_dual.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <utility>

#include "common/kernel_columns.hpp"
#include "common/smo.hpp"
#include "common/step_threads.hpp"
#include "kexp/error.hpp"
#include "kexp/gram.hpp"
#include "kexp/memory_budget.hpp"

namespace kexp_solvers {

namespace {

#if defined(__x86_64__) && defined(__GNUC__) && !defined(__clang__)
#define SVM_VECTOR_CLONES \
  __attribute__((target_clones("arch=x86-64-v4", "arch=x86-64-v3", "default")))
#else
#define SVM_VECTOR_CLONES
#endif

/// data[k] = s·y[k]·(data[k] + offset) for k in [first, len): kernel values to Q's.
SVM_VECTOR_CLONES
void signed_entries(double* data, const std::int8_t* y, double s, double offset, std::size_t first,
                    std::size_t len) {
#pragma omp simd
  for (std::size_t k = first; k < len; ++k) data[k] = s * y[k] * (data[k] + offset);
}

/// out[k] = s·sign[k]·column[point[k]] for k < len: a column of ε-SVR's Q from one of K.
SVM_VECTOR_CLONES
void gather_entries(double* out, const double* column, const std::size_t* point,
                    const std::int8_t* sign, double s, std::size_t len) {
#pragma omp simd
  for (std::size_t k = 0; k < len; ++k) out[k] = s * sign[k] * column[point[k]];
}

/// Kernel values of a column computed per part at least: below, one thread does the column.
constexpr std::size_t kColumnPart = 2048;

std::size_t column_parts(std::size_t count, int threads) {
  return std::max<std::size_t>(1, std::min(static_cast<std::size_t>(threads), count / kColumnPart));
}

/// C-SVC's Q_ij = y_i y_j (k(x_i, x_j) + offset) + δ_ij·shift. The points are copied and
/// permuted with the solver's positions, so that the active points are contiguous and a
/// column's missing entries are one block for Kernel::gram.
class ClassifierQ final : public QMatrix {
 public:
  ClassifierQ(const kexp::Kernel& kernel, arma::mat X, std::vector<std::int8_t> y, double offset,
              double shift, double cache_bytes)
      : kernel_(kernel),
        X_(std::move(X)),
        y_(std::move(y)),
        offset_(offset),
        shift_(shift),
        cache_(X_.n_cols, X_.n_cols, cache_bytes) {
    kexp::require_finite(X_, "the training points");  // once: the columns trust them
    const arma::vec k = kernel.diagonal(X_);
    qd_.resize(X_.n_cols);
    for (arma::uword i = 0; i < X_.n_cols; ++i) qd_[i] = k[i] + offset_ + shift_;
  }

  const double* column(std::size_t i, std::size_t len) override {
    double* data = nullptr;
    const std::size_t first = cache_.request(i, len, &data);
    if (first < len) {
      const std::size_t count = len - first;
      in_parts(count, column_parts(count, threads_),
               [&](std::size_t lo, std::size_t hi, std::size_t) {
                 kernel_column(kernel_, X_, first + lo, hi - lo, X_.colptr(i), data + first + lo);
                 signed_entries(data, y_.data(), y_[i], offset_, first + lo, first + hi);
               });
      flops_ += kernel_.gram_flops(count, 1, X_.n_rows);
      if (i >= first && i < len) data[i] += shift_;
    }
    return data;
  }

  void use_threads(int threads) override { threads_ = threads; }

  const double* diagonal() const override { return qd_.data(); }

  void swap(std::size_t i, std::size_t j) override {
    if (i == j) return;
    cache_.swap_positions(i, j);
    X_.swap_cols(i, j);
    std::swap(y_[i], y_[j]);
    std::swap(qd_[i], qd_[j]);
  }

  void add_to(DualStats& stats) const {
    stats.kernel_evaluations += cache_.entries_computed();
    stats.entries_requested += cache_.entries_requested();
    stats.kernel_flops += flops_;
    stats.peak_cache_bytes = std::max(stats.peak_cache_bytes, cache_.peak_bytes());
  }

 private:
  const kexp::Kernel& kernel_;
  arma::mat X_;
  std::vector<std::int8_t> y_;
  std::vector<double> qd_;
  double offset_, shift_;
  ColumnCache cache_;
  double flops_ = 0;
  int threads_ = 1;
};

/// ε-SVR's 2n × 2n Q = [K̃ −K̃; −K̃ K̃] + shift·I, K̃ = K + offset: variable i < n is αᵢ
/// (sign +1) and n + i is αᵢ* (sign −1), both of point i. The cache holds whole columns of
/// K̃ by point (LIBSVM's SVR_Q), and a column of Q is gathered from one of them.
class RegressionQ final : public QMatrix {
 public:
  RegressionQ(const kexp::Kernel& kernel, const arma::mat& X, double offset, double shift,
              double cache_bytes)
      : kernel_(kernel),
        X_(X),
        n_(X.n_cols),
        offset_(offset),
        shift_(shift),
        cache_(X.n_cols, X.n_cols, cache_bytes),
        sign_(2 * n_),
        point_(2 * n_),
        qd_(2 * n_),
        buffer_{std::vector<double>(2 * n_), std::vector<double>(2 * n_)} {
    kexp::require_finite(X_, "the training points");  // once: the columns trust them
    const arma::vec k = kernel.diagonal(X_);
    for (std::size_t i = 0; i < n_; ++i) {
      sign_[i] = 1;
      sign_[i + n_] = -1;
      point_[i] = point_[i + n_] = i;
      qd_[i] = qd_[i + n_] = k[i] + offset_ + shift_;
    }
  }

  const double* column(std::size_t i, std::size_t len) override {
    const std::size_t point = point_[i];
    double* data = nullptr;
    const std::size_t first = cache_.request(point, n_, &data);
    if (first < n_) {
      const std::size_t count = n_ - first;
      in_parts(
          count, column_parts(count, threads_), [&](std::size_t lo, std::size_t hi, std::size_t) {
            kernel_column(kernel_, X_, first + lo, hi - lo, X_.colptr(point), data + first + lo);
            for (std::size_t k = first + lo; k < first + hi; ++k) data[k] += offset_;
          });
      flops_ += kernel_.gram_flops(count, 1, X_.n_rows);
    }
    std::vector<double>& out = buffer_[next_];
    next_ = 1 - next_;
    double* o = out.data();
    in_parts(len, column_parts(len, threads_), [&](std::size_t lo, std::size_t hi, std::size_t) {
      gather_entries(o + lo, data, point_.data() + lo, sign_.data() + lo, sign_[i], hi - lo);
    });
    if (i < len) o[i] += shift_;
    return o;
  }

  void use_threads(int threads) override { threads_ = threads; }

  const double* diagonal() const override { return qd_.data(); }

  void swap(std::size_t i, std::size_t j) override {
    std::swap(sign_[i], sign_[j]);
    std::swap(point_[i], point_[j]);
    std::swap(qd_[i], qd_[j]);
  }

  void add_to(DualStats& stats) const {
    stats.kernel_evaluations += cache_.entries_computed();
    stats.entries_requested += cache_.entries_requested();
    stats.kernel_flops += flops_;
    stats.peak_cache_bytes = std::max(stats.peak_cache_bytes, cache_.peak_bytes());
  }

 private:
  const kexp::Kernel& kernel_;
  const arma::mat& X_;
  std::size_t n_;
  double offset_, shift_;
  ColumnCache cache_;
  std::vector<std::int8_t> sign_;
  std::vector<std::size_t> point_;
  std::vector<double> qd_;
  std::vector<double> buffer_[2];
  int next_ = 0;
  double flops_ = 0;
  int threads_ = 1;
};

SmoSettings smo_settings(const DualSettings& s) {
  SmoSettings out;
  out.tolerance = s.tolerance;
  out.shrinking = s.shrinking;
  out.iterations = s.iterations;
  out.equality = s.bias == Bias::Free;
  out.upper = s.squared ? std::numeric_limits<double>::infinity() : s.c;
  return out;
}

void add_solution(const SmoSolution& sol, DualStats& stats) {
  stats.iterations += sol.iterations;
  stats.converged = stats.converged && sol.converged;
  stats.update_flops += sol.update_flops;
  stats.nonpositive_curvature += sol.nonpositive_curvature;
  stats.objective += sol.objective;
}

double offset_of(Bias bias) { return bias == Bias::Regularized ? 1.0 : 0.0; }

double shift_of(const DualSettings& s) { return s.squared ? 0.5 / s.c : 0.0; }

}  // namespace

double cache_size(double cache_bytes, std::size_t n) {
  const double all = 8.0 * static_cast<double>(n) * static_cast<double>(n);
  if (cache_bytes > 0) return std::min(cache_bytes, all);
  const double budget = kexp::memory_budget();
  return std::min(budget > 0 ? budget / 2 : 1024.0 * 1024.0 * 1024.0, all);
}

DualSettings dual_settings(const kexp::Params& p, const char* squared_loss) {
  DualSettings s;
  s.c = p.real("c");
  if (p.has("epsilon")) s.epsilon = p.real("epsilon");
  s.squared = p.string("loss") == squared_loss;
  s.bias = bias_of(p.string("bias"));
  s.tolerance = p.real("tolerance");
  s.shrinking = p.boolean("shrinking");
  s.iterations = p.integer("iterations");
  return s;
}

Bias bias_of(const std::string& text) {
  if (text == "free") return Bias::Free;
  if (text == "regularized") return Bias::Regularized;
  if (text == "none") return Bias::None;
  throw kexp::InvalidArgument("bias must be free, regularized or none, got '" + text + "'");
}

DecisionFunction train_classifier(const kexp::Kernel& kernel, arma::mat X,
                                  const std::vector<std::int8_t>& y, const DualSettings& s,
                                  DualStats& stats) {
  const std::size_t n = X.n_cols;
  const double offset = offset_of(s.bias), shift = shift_of(s);
  ClassifierQ Q(kernel, std::move(X), y, offset, shift, s.cache_bytes);
  const std::vector<double> p(n, -1.0);
  const SmoSettings settings = smo_settings(s);
  const SmoSolution sol = solve_smo(Q, p, y, settings);
  add_solution(sol, stats);
  Q.add_to(stats);

  DecisionFunction f;
  f.rho = sol.rho;
  f.training.set_size(n);
  for (std::size_t i = 0; i < n; ++i) {
    const double a = sol.alpha[i];
    // G_i = y_i Σ_j y_j α_j (K_ij + offset) + shift·α_i − 1
    f.training[i] = y[i] * (sol.gradient[i] + 1.0 - shift * a) - sol.rho;
    if (a > 0) {
      f.support.push_back(static_cast<arma::uword>(i));
      if (a >= settings.upper) ++f.bounded;
    }
  }
  f.coef.set_size(f.support.size());
  for (std::size_t k = 0; k < f.support.size(); ++k) {
    f.coef[k] = y[f.support[k]] * sol.alpha[f.support[k]];
  }
  return f;
}

DecisionFunction train_regression(const kexp::Kernel& kernel, const arma::mat& X,
                                  const arma::vec& y, const DualSettings& s, DualStats& stats) {
  const std::size_t n = X.n_cols;
  const double offset = offset_of(s.bias), shift = shift_of(s);
  RegressionQ Q(kernel, X, offset, shift, s.cache_bytes);
  std::vector<double> p(2 * n);
  std::vector<std::int8_t> sign(2 * n);
  for (std::size_t i = 0; i < n; ++i) {
    p[i] = s.epsilon - y[i];
    p[i + n] = s.epsilon + y[i];
    sign[i] = 1;
    sign[i + n] = -1;
  }
  const SmoSettings settings = smo_settings(s);
  const SmoSolution sol = solve_smo(Q, p, sign, settings);
  add_solution(sol, stats);
  Q.add_to(stats);

  DecisionFunction f;
  f.rho = sol.rho;
  f.training.set_size(n);
  for (std::size_t i = 0; i < n; ++i) {
    const double a = sol.alpha[i], b = sol.alpha[i + n];
    // G_i = Σ_j (α_j − α_j*)(K_ij + offset) + shift·α_i + ε − y_i
    f.training[i] = sol.gradient[i] - shift * a - s.epsilon + y[i] - sol.rho;
    const double c = a - b;
    if (c != 0) {
      f.support.push_back(static_cast<arma::uword>(i));
      if (std::max(a, b) >= settings.upper) ++f.bounded;
    }
  }
  f.coef.set_size(f.support.size());
  for (std::size_t k = 0; k < f.support.size(); ++k) {
    const std::size_t i = f.support[k];
    f.coef[k] = sol.alpha[i] - sol.alpha[i + n];
  }
  return f;
}

}  // namespace kexp_solvers

namespace kexp_solvers {

SupportVectors gather_support(const arma::mat& X, const std::vector<DecisionFunction>& functions,
                              double offset) {
  std::vector<arma::uword> all;
  for (const DecisionFunction& f : functions)
    all.insert(all.end(), f.support.begin(), f.support.end());
  std::sort(all.begin(), all.end());
  all.erase(std::unique(all.begin(), all.end()), all.end());
  SupportVectors sv;
  sv.offset = offset;
  sv.X = X.cols(arma::uvec(all));
  sv.coef.zeros(all.size(), functions.size());
  sv.rho.set_size(functions.size());
  for (std::size_t p = 0; p < functions.size(); ++p) {
    const DecisionFunction& f = functions[p];
    sv.rho[p] = f.rho;
    for (std::size_t k = 0; k < f.support.size(); ++k) {
      const auto at = std::lower_bound(all.begin(), all.end(), f.support[k]);
      sv.coef(static_cast<arma::uword>(at - all.begin()), p) = f.coef[k];
    }
  }
  return sv;
}

arma::mat SupportVectors::decisions(const kexp::Kernel& kernel, const arma::mat& X_test) const {
  arma::mat out;
  if (X.n_cols == 0) {
    out.zeros(X_test.n_cols, coef.n_cols);
  } else {
    kexp::gram::product(kernel, X_test, X, coef, out);
  }
  // f(x) = Σ cᵢ (k(xᵢ, x) + offset) − ρ
  const arma::rowvec constant = offset * arma::sum(coef, 0) - rho;
  out.each_row() += constant;
  return out;
}

double SupportVectors::decision_flops(const kexp::Kernel& kernel, std::size_t m) const {
  const double s = static_cast<double>(X.n_cols), p = static_cast<double>(coef.n_cols);
  return kernel.gram_flops(m, X.n_cols, X.n_rows) + 2.0 * static_cast<double>(m) * s * p;
}

}  // namespace kexp_solvers
