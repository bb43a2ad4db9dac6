// Out-of-line members of the SDK interfaces: the input checks in front of every kernel
// and feature map, the default loops (in parallel; an exception from compute() is
// rethrown on the calling thread), and the virtual destructors (so that each class has
// one home for its vtable and type information).
#include <fmt/format.h>

#include <algorithm>
#include <atomic>
#include <cmath>
#include <vector>

#include "kexp/dataset.hpp"
#include "kexp/error.hpp"
#include "kexp/gram.hpp"
#include "kexp/kernel.hpp"
#include "kexp/parallel.hpp"
#include "kexp/plugin.hpp"
#include "kexp/solver.hpp"
#include "sdk/tiles.hpp"

namespace kexp {

const char* to_string(Task task) {
  switch (task) {
    case Task::Regression:
      return "regression";
    case Task::Classification:
      return "classification";
    case Task::Multiclass:
      return "multiclass";
  }
  return "unknown";
}

const char* to_string(Form form) { return form == Form::Primal ? "primal" : "dual"; }

const char* to_string(PluginKind kind) {
  switch (kind) {
    case PluginKind::Kernel:
      return "kernel";
    case PluginKind::Solver:
      return "solver";
    case PluginKind::Dataset:
      return "dataset";
  }
  return "unknown";
}

namespace {

/// Whether every value is finite, in one vectorized pass: x·0 is 0 for a finite x and NaN
/// for an infinity or a NaN, and a NaN stays in the sum. Armadillo's is_finite() stops at
/// the first bad value, a branch per entry that does not vectorize: on the small blocks a
/// kernel column takes (svc's, d·n values per column) it cost more than the column's
/// kernel values themselves.
KEXP_VECTOR_CLONES
bool all_finite(const double* x, std::size_t n) {
  double sum = 0.0;
#pragma omp simd reduction(+ : sum)
  for (std::size_t i = 0; i < n; ++i) sum += x[i] * 0.0;
  return sum == 0.0;
}

/// all_finite on kexp's threads where X is large enough to repay them.
bool finite(const arma::mat& X) {
  constexpr std::size_t kPart = std::size_t{1} << 14;
  const std::size_t n = X.n_elem;
  const auto threads = static_cast<std::size_t>(std::max(1, thread_count()));
  const std::size_t parts = std::min(threads, n / kPart);
  if (parts <= 1) return all_finite(X.memptr(), n);
  std::vector<char> ok(parts, 1);
  parallel_for(parts, [&](std::size_t p) {
    const std::size_t lo = n * p / parts, hi = n * (p + 1) / parts;
    ok[p] = all_finite(X.memptr() + lo, hi - lo) ? 1 : 0;
  });
  return std::all_of(ok.begin(), ok.end(), [](char c) { return c != 0; });
}

}  // namespace

void require_finite(const arma::mat& X, const char* what) {
  if (finite(X)) return;
  const arma::uvec bad = arma::find_nonfinite(X);
  const arma::uword row = bad(0) % X.n_rows;
  const arma::uword col = bad(0) / X.n_rows;
  throw InvalidArgument(fmt::format(
      "{} has a non-finite value ({}) at feature {} of sample {} ({} such entries in all)", what,
      X(row, col), row, col, bad.n_elem));
}

namespace {

void require_same_dimension(const arma::mat& X, const arma::mat& Z) {
  if (X.n_rows != Z.n_rows) {
    throw InvalidArgument(
        fmt::format("points of different dimension: X is {} × {} (d = {}), Z is {} × {} (d = {}); "
                    "samples are columns and both sets need the same number of rows",
                    X.n_rows, X.n_cols, X.n_rows, Z.n_rows, Z.n_cols, Z.n_rows));
  }
}

}  // namespace

Kernel::~Kernel() = default;

double Kernel::evaluate(const arma::vec& x, const arma::vec& z) const {
  require_same_dimension(x, z);
  require_finite(x, "x");
  require_finite(z, "z");
  return compute(x, z);
}

namespace {

/// detail::kernel_flops_counted(), and how deep in public kernel calls this thread is.
std::atomic<double> counted_flops{0.0};
thread_local int call_depth = 0;

/// Counts a call's flops when it is the outermost public kernel call of its thread.
class CountedCall {
 public:
  CountedCall(const Kernel& kernel, std::size_t n, std::size_t m, std::size_t d) {
    const bool outermost = call_depth == 0;
    double flops = 0;
    if (outermost && n > 0 && m > 0) {
      try {
        flops = kernel.gram_flops(n, m, d);
      } catch (...) {  // a count that cannot be had is not counted; the call goes on
      }
    }
    ++call_depth;
    if (!(flops > 0)) return;
    double before = counted_flops.load(std::memory_order_relaxed);
    while (
        !counted_flops.compare_exchange_weak(before, before + flops, std::memory_order_relaxed)) {
    }
  }
  ~CountedCall() { --call_depth; }
  CountedCall(const CountedCall&) = delete;
  CountedCall& operator=(const CountedCall&) = delete;
};

}  // namespace

double detail::kernel_flops_counted() { return counted_flops.load(std::memory_order_relaxed); }

void Kernel::gram(const arma::mat& X, const arma::mat& Z, arma::mat& K) const {
  require_same_dimension(X, Z);
  require_finite(X, "X");
  require_finite(Z, "Z");
  gram(X, Z, K, InputsChecked{});
}

void Kernel::gram(const arma::mat& X, const arma::mat& Z, arma::mat& K, InputsChecked) const {
  K.set_size(X.n_cols, Z.n_cols);
  advise_huge_pages(K);
  const CountedCall counted(*this, X.n_cols, Z.n_cols, X.n_rows);
  if (K.n_elem > 0) compute_gram(X, Z, K);
}

namespace {

/// The part of K(X, X) asked for by the Kernel::gram call running on this thread.
thread_local Triangle requested = Triangle::Both;

/// Sets `requested` for its lifetime, restoring the previous request (a composite
/// kernel's terms are asked for all of their K).
class TriangleRequest {
 public:
  explicit TriangleRequest(Triangle part) : previous_(requested) { requested = part; }
  ~TriangleRequest() { requested = previous_; }
  TriangleRequest(const TriangleRequest&) = delete;
  TriangleRequest& operator=(const TriangleRequest&) = delete;

 private:
  Triangle previous_;
};

}  // namespace

Triangle gram::requested_triangle() { return requested; }

void Kernel::gram(const arma::mat& X, arma::mat& K) const { gram(X, K, Triangle::Both); }

void Kernel::gram(const arma::mat& X, arma::mat& K, Triangle part) const {
  require_finite(X, "X");
  K.set_size(X.n_cols, X.n_cols);
  advise_huge_pages(K);
  const TriangleRequest request(part);
  const CountedCall counted(*this, X.n_cols, X.n_cols, X.n_rows);
  if (K.n_elem > 0) compute_symmetric_gram(X, K);
}

arma::vec Kernel::diagonal(const arma::mat& X) const {
  require_finite(X, "X");
  arma::vec diag(X.n_cols);
  const CountedCall counted(*this, X.n_cols, 1, X.n_rows);
  compute_diagonal(X, diag);
  return diag;
}

void Kernel::fit(const KernelFitData& data) {
  if (data.X == nullptr || data.y == nullptr) {
    throw InvalidArgument("Kernel::fit needs both the training inputs X and their targets y");
  }
  if (data.X->n_cols == 0) throw InvalidArgument("Kernel::fit was given no training samples");
  if (data.y->n_elem != data.X->n_cols) {
    throw InvalidArgument(
        fmt::format("Kernel::fit was given {} samples (columns of X) but {} targets",
                    data.X->n_cols, data.y->n_elem));
  }
  require_finite(*data.X, "X");
  compute_fit(data);
}

namespace {
/// Set by the default compute_fit(), read by detail::overrides_compute_fit().
thread_local bool t_default_fit_ran = false;
}  // namespace

void Kernel::compute_fit(const KernelFitData& /*data*/) { t_default_fit_ran = true; }

bool detail::overrides_compute_fit(Kernel& kernel) {
  const arma::mat X = {{0.5, -1.0, 0.25, 2.0}, {1.0, 0.0, -0.5, 0.75}};
  const arma::vec y = {1.0, -1.0, 1.0, -1.0};
  t_default_fit_ran = false;
  try {
    kernel.fit(KernelFitData{&X, &y, 1});
  } catch (...) {
    return true;  // the default never throws on these points
  }
  return !t_default_fit_ran;
}

std::unique_ptr<Kernel> Kernel::with_hyperparameters(const arma::vec& values) const {
  if (!learnable()) {
    throw InvalidArgument(
        "Kernel::with_hyperparameters: this kernel does not declare hyperparameters that can "
        "be learned (Kernel::learnable)");
  }
  const std::vector<Hyperparameter> own = hyperparameters();
  if (values.n_elem != own.size()) {
    throw InvalidArgument(
        fmt::format("Kernel::with_hyperparameters was given {} values for {} hyperparameters",
                    values.n_elem, own.size()));
  }
  for (std::size_t j = 0; j < own.size(); ++j) {
    if (!std::isfinite(values[j]) || values[j] <= 0) {
      throw InvalidArgument(
          fmt::format("Kernel::with_hyperparameters: {} = {} is not a finite positive number",
                      own[j].name, values[j]));
    }
  }
  std::unique_ptr<Kernel> copy = compute_with_hyperparameters(values);
  if (!copy) throw Error("Kernel::with_hyperparameters: the kernel returned no copy");
  return copy;
}

void Kernel::gram_gradient(const arma::mat& X, arma::cube& dK) const {
  if (!learnable()) {
    throw InvalidArgument(
        "Kernel::gram_gradient: this kernel does not declare the gradients of its "
        "hyperparameters (Kernel::learnable)");
  }
  require_finite(X, "X");
  dK.zeros(X.n_cols, X.n_cols, hyperparameters().size());
  if (dK.n_elem > 0) compute_gram_gradient(X, dK);
}

std::unique_ptr<Kernel> Kernel::compute_with_hyperparameters(const arma::vec& /*values*/) const {
  throw Error("this kernel has no hyperparameters to set (compute_with_hyperparameters)");
}

void Kernel::compute_gram_gradient(const arma::mat& /*X*/, arma::cube& /*dK*/) const {
  throw Error("this kernel has no gradients of its hyperparameters (compute_gram_gradient)");
}

double Kernel::gram_flops(std::size_t n, std::size_t m, std::size_t d) const {
  return 2.0 * static_cast<double>(n) * static_cast<double>(m) * static_cast<double>(d);
}

void Kernel::compute_gram(const arma::mat& X, const arma::mat& Z, arma::mat& K) const {
  parallel_for(Z.n_cols, [&](std::size_t j) {
    const arma::vec z(const_cast<double*>(Z.colptr(j)), Z.n_rows, false, true);
    for (arma::uword i = 0; i < X.n_cols; ++i) {
      const arma::vec x(const_cast<double*>(X.colptr(i)), X.n_rows, false, true);
      K(i, j) = compute(x, z);
    }
  });
}

void Kernel::compute_symmetric_gram(const arma::mat& X, arma::mat& K) const {
  const bool lower_only = gram::requested_triangle() == Triangle::Lower;
  const arma::uword n = X.n_cols;
  parallel_for(
      n,
      [&](std::size_t j) {
        const arma::vec z(const_cast<double*>(X.colptr(j)), X.n_rows, false, true);
        const arma::uword first = lower_only ? j : 0, last = lower_only ? n - 1 : j;
        for (arma::uword i = first; i <= last; ++i) {
          const arma::vec x(const_cast<double*>(X.colptr(i)), X.n_rows, false, true);
          K(i, j) = compute(x, z);
        }
      },
      Schedule::Dynamic, 16);
  if (!lower_only) K = arma::symmatu(K);
}

void Kernel::compute_diagonal(const arma::mat& X, arma::vec& diag) const {
  for (arma::uword i = 0; i < X.n_cols; ++i) {
    const arma::vec x(const_cast<double*>(X.colptr(i)), X.n_rows, false, true);
    diag(i) = compute(x, x);
  }
}

FeatureMap::~FeatureMap() = default;

void FeatureMap::features(const arma::mat& X, arma::mat& Phi) const {
  require_finite(X, "X");
  Phi.set_size(dimension_of(X), X.n_cols);
  advise_huge_pages(Phi);
  if (Phi.n_elem > 0) compute_features(X, Phi);
}

std::size_t FeatureMap::dimension_of(const arma::mat& X) const { return dimension(X.n_rows); }

double FeatureMap::flops(std::size_t n, std::size_t d) const {
  return static_cast<double>(dimension(d)) * static_cast<double>(n);
}

std::shared_ptr<void> SharedState::get(const std::string& key) const {
  const auto it = values_.find(key);
  return it == values_.end() ? nullptr : it->second;
}

void SharedState::put(const std::string& key, std::shared_ptr<void> value) {
  values_.insert_or_assign(key, std::move(value));
}

Dataset::~Dataset() = default;

std::optional<DataShape> Dataset::shape(const DatasetContext& /*context*/) const {
  return std::nullopt;
}
Solver::~Solver() = default;

double Solver::memory_bytes(std::size_t /*n*/, std::size_t /*m*/, std::size_t /*d*/) const {
  return -1;
}

double Solver::fit_flops_bound(std::size_t /*n*/, std::size_t /*d*/,
                               const Kernel* /*kernel*/) const {
  return -1;
}

}  // namespace kexp
