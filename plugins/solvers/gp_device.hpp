// Gaussian process regression's device code path (gp_regression, `device: cuda` or
// `device: host`), on the building blocks of kexp/device.hpp: C = K(X, X) + noise·I built
// in device memory (its lower triangle), factored by potrf, α = C⁻¹t by potrs and
// log det C from the factor's diagonal. X and the factor L stay on the device for the
// predictions: the mean K(X*, X)α and ‖L⁻¹k‖² (trsm) per point, streamed over blocks of
// the points sized to the free device memory.
#pragma once

#include <fmt/format.h>

#include <kexp/device.hpp>
#include <kexp/kexp.hpp>

#include <algorithm>
#include <cstddef>
#include <string>

namespace kexp_solvers {

class DeviceGaussianProcess {
 public:
  /// Refuses, with the figures, a C that does not fit the free device memory; throws
  /// kexp::NumericError when C is not positive definite.
  DeviceGaussianProcess(kexp::device::Backend& backend, const kexp::FormulaProgram& program,
                        const arma::mat& X, const arma::vec& t, double noise,
                        kexp::device::Transfers& transfers)
      : backend_(backend),
        transfers_(transfers),
        program_(program),
        points_(checked_points(backend, X, transfers)),
        L_(backend, X.n_cols),
        alpha_(kexp::device::upload(backend, t, transfers)) {
    const std::size_t n = X.n_cols;
    const int info = kexp::device::factor_shifted_gram(backend, program_, points_, noise, L_);
    if (info != 0) {
      throw kexp::NumericError(fmt::format(
          "C = K + noise·I is not positive definite (leading minor {} of {}, on device {}): use "
          "a larger noise, or a valid (PSD) kernel",
          info, n, backend.name()));
    }
    L_.solve(alpha_.data());
    weights_ = kexp::device::download(backend, alpha_, n, transfers);
    log_det_ = L_.log_det(transfers);
  }

  /// α = C⁻¹t.
  [[nodiscard]] const arma::vec& weights() const { return weights_; }
  /// log det C.
  [[nodiscard]] double log_det() const { return log_det_; }

  /// The mean K(Z, X)α at the columns of Z; with `explained`, kᵀC⁻¹k = ‖L⁻¹k‖² at each.
  arma::vec predict(const arma::mat& Z, arma::vec* explained) {
    namespace dev = kexp::device;
    const std::size_t n = points_.count(), d = points_.dimension(), m = Z.n_cols;
    if (Z.n_rows != d) {
      throw kexp::InvalidArgument(fmt::format(
          "gp_regression: the points to predict at have {} dimensions and the training points {}",
          Z.n_rows, d));
    }
    dev::require_memory(
        backend_, 8.0 * static_cast<double>((d + 3) * m + std::min<std::size_t>(m, 256) * (n + 2)),
        "the points to predict at and a block of 256 columns of K(X, X*)");
    const dev::Points dZ(backend_, Z, transfers_);
    dev::Buffer mean(backend_, m), variance(backend_, m);
    const dev::Memory free = backend_.memory();
    const std::size_t block = dev::block_rows_that_fit(m, n, free.free_bytes, 0.8);
    if (block == 0 && m > 0) {
      throw kexp::Error(*dev::memory_refusal(
          8.0 * 256 * static_cast<double>(n + 2), free.free_bytes, free.total_bytes,
          "a block of 256 columns of K(X, X*)", backend_.memory_name()));
    }
    dev::Buffer S(backend_, n * block);
    for (std::size_t j0 = 0; j0 < m; j0 += block) {
      const std::size_t cols = std::min(block, m - j0);
      // S = K(X, Z_b), n × cols
      dev::gram_block(backend_, program_, points_, 0, n, dZ, j0, cols, S.data(), n);
      backend_.gemv(dev::Op::transpose, n, cols, 1.0, S.data(), n, alpha_.data(), 0.0,
                    mean.data() + j0);
      if (explained != nullptr) {
        L_.lower_solve(S.data(), cols, false);  // L⁻¹k of each column
        backend_.column_squares(S.data(), n, cols, n, variance.data() + j0);
      }
    }
    if (explained != nullptr) *explained = dev::download(backend_, variance, m, transfers_);
    return dev::download(backend_, mean, m, transfers_);
  }

 private:
  /// The points on the device, once C, the points and potrf's workspace are known to fit.
  static kexp::device::Points checked_points(kexp::device::Backend& backend, const arma::mat& X,
                                             kexp::device::Transfers& t) {
    const std::size_t n = X.n_cols;
    kexp::device::require_memory(
        backend, kexp::device::ridge_bytes(n, X.n_rows, backend.potrf_workspace_bytes(n)),
        fmt::format("C = K + noise·I of {} × {} in float64, X and potrf's workspace", n, n));
    return kexp::device::Points(backend, X, t);
  }

  kexp::device::Backend& backend_;
  kexp::device::Transfers& transfers_;
  kexp::FormulaProgram program_;
  kexp::device::Points points_;
  kexp::device::Cholesky L_;
  kexp::device::Buffer alpha_;
  arma::vec weights_;
  double log_det_ = 0.0;
};

}  // namespace kexp_solvers
