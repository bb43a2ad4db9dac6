// kexp/device.hpp's building blocks, written once over any Backend: the points resident
// on the device, blocks of K from a kernel's program, the streamed products and the
// Cholesky factor of a shifted Gram matrix.
#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <string>

#include "kexp/device.hpp"
#include "kexp/error.hpp"
#include "kexp/formula.hpp"

namespace kexp::device {

namespace {

/// The program, checked on the host before a backend runs it: a malformed one is an
/// InvalidArgument here, never a fault on a GPU.
const FormulaProgram& checked(const FormulaProgram& program) {
  check_formula_program(program);
  return program;
}

/// The share of the free memory a streamed block may take.
constexpr double kBlockShare = 0.8;

}  // namespace

Points::Points(Backend& backend, const arma::mat& X, Transfers& transfers)
    : d_(X.n_rows), n_(X.n_cols), X_(upload(backend, X, transfers)), norms_(backend, X.n_cols) {
  backend.squared_norms(X_.data(), d_, n_, norms_.data());
}

double Points::bytes(std::size_t n, std::size_t d) {
  return 8.0 * static_cast<double>(d + 1) * static_cast<double>(n);
}

void gram_block(Backend& backend, const FormulaProgram& program, const Points& A, std::size_t a0,
                std::size_t rows, const Points& B, std::size_t b0, std::size_t cols, double* S,
                std::size_t ld) {
  if (A.dimension() != B.dimension()) {
    throw InvalidArgument(
        fmt::format("gram_block: points of {} and of {} dimensions", A.dimension(), B.dimension()));
  }
  if (a0 + rows > A.count() || b0 + cols > B.count()) {
    throw InvalidArgument(
        fmt::format("gram_block: rows {} … {} of {} points and columns {} … {} of {}", a0,
                    a0 + rows, A.count(), b0, b0 + cols, B.count()));
  }
  if (rows == 0 || cols == 0) return;
  const std::size_t d = A.dimension();
  backend.gemm(Op::transpose, Op::none, rows, cols, d, 1.0, A.data() + a0 * d, d, B.data() + b0 * d,
               d, 0.0, S, ld);
  backend.apply_kernel(checked(program), S, ld, rows, cols, A.norms() + a0, B.norms() + b0, false,
                       0.0);
}

void shifted_gram(Backend& backend, const FormulaProgram& program, const Points& X, double shift,
                  double* A) {
  const std::size_t n = X.count(), d = X.dimension();
  if (n == 0) return;
  backend.syrk(Op::transpose, n, d, 1.0, X.data(), d, 0.0, A, n);
  backend.apply_kernel(checked(program), A, n, n, n, X.norms(), X.norms(), true, shift);
}

StreamedGram::StreamedGram(Backend& backend, const FormulaProgram& program, const Points& A,
                           const Points& B, const std::string& what)
    : backend_(&backend), program_(checked(program)), A_(&A), B_(&B), block_(0) {
  const Memory m = backend.memory();
  block_ = block_rows_that_fit(A.count(), B.count(), m.free_bytes, kBlockShare);
  if (block_ == 0 && A.count() > 0) {
    const double least = 8.0 * static_cast<double>(std::min<std::size_t>(A.count(), 256)) *
                         static_cast<double>(B.count() + 2) / kBlockShare;
    throw Error(*memory_refusal(least, m.free_bytes, m.total_bytes, what, backend.memory_name()));
  }
  S_ = Buffer(backend, block_ * B.count());
}

void StreamedGram::product(const double* v, double* out) {
  const std::size_t n = A_->count(), m = B_->count();
  for (std::size_t r0 = 0; r0 < n; r0 += block_) {
    const std::size_t rows = std::min(block_, n - r0);
    gram_block(*backend_, program_, *A_, r0, rows, *B_, 0, m, S_.data(), rows);
    backend_->gemv(Op::none, rows, m, 1.0, S_.data(), rows, v, 0.0, out + r0);
  }
}

void StreamedGram::normal_product(const double* u, double* v, double* out) {
  const std::size_t n = A_->count(), m = B_->count();
  if (n == 0) backend_->set_zero(out, m);
  for (std::size_t r0 = 0; r0 < n; r0 += block_) {
    const std::size_t rows = std::min(block_, n - r0);
    gram_block(*backend_, program_, *A_, r0, rows, *B_, 0, m, S_.data(), rows);
    // w = K_b u + v_b in place of v_b, then out += K_bᵀ w
    backend_->gemv(Op::none, rows, m, 1.0, S_.data(), rows, u, 1.0, v + r0);
    backend_->gemv(Op::transpose, rows, m, 1.0, S_.data(), rows, v + r0, r0 == 0 ? 0.0 : 1.0, out);
  }
}

arma::vec predict(Backend& backend, const FormulaProgram& program, const Points& X,
                  const arma::mat& Z, const arma::vec& v, Transfers& transfers) {
  if (v.n_elem != X.count()) {
    throw InvalidArgument(
        fmt::format("predict: {} coefficients for {} points", v.n_elem, X.count()));
  }
  if (Z.n_rows != X.dimension()) {
    throw InvalidArgument(fmt::format(
        "predict: the points to predict at have {} dimensions and the training points {}", Z.n_rows,
        X.dimension()));
  }
  const std::size_t n = X.count(), m = Z.n_cols;
  require_memory(
      backend,
      Points::bytes(m, X.dimension()) + 8.0 * static_cast<double>(n + m) +
          8.0 * static_cast<double>(std::min<std::size_t>(m, 256)) * static_cast<double>(n + 2),
      "the points to predict at, the coefficients and a block of 256 rows of "
      "K(X*, X)");
  const Points dZ(backend, Z, transfers);
  const Buffer dv = upload(backend, v, transfers);
  Buffer out(backend, m);
  StreamedGram K(backend, program, dZ, X, "a block of 256 rows of K(X*, X)");
  K.product(dv.data(), out.data());
  return download(backend, out, m, transfers);
}

Cholesky::Cholesky(Backend& backend, std::size_t n)
    : backend_(&backend), n_(n), A_(backend, n * n) {}

int Cholesky::factor() { return backend_->potrf(A_.data(), n_, n_); }

void Cholesky::solve(double* B, std::size_t nrhs) {
  backend_->potrs(A_.data(), n_, n_, B, nrhs, n_);
}

void Cholesky::lower_solve(double* B, std::size_t nrhs, bool transpose) {
  const Op op = transpose ? Op::transpose : Op::none;
  if (nrhs == 1) {
    backend_->trsv(op, A_.data(), n_, n_, B);
  } else {
    backend_->trsm(op, A_.data(), n_, n_, B, nrhs, n_);
  }
}

double Cholesky::log_det(Transfers& transfers) {
  Buffer diagonal(*backend_, n_);
  backend_->get_diagonal(A_.data(), n_, n_, diagonal.data());
  const arma::vec d = download(*backend_, diagonal, n_, transfers);
  return 2.0 * arma::accu(arma::log(d));
}

int factor_shifted_gram(Backend& backend, const FormulaProgram& program, const Points& X,
                        double shift, Cholesky& factor) {
  if (factor.size() != X.count()) {
    throw InvalidArgument(
        fmt::format("factor_shifted_gram: a factor of {} for {} points", factor.size(), X.count()));
  }
  shifted_gram(backend, program, X, shift, factor.matrix());
  return factor.factor();
}

}  // namespace kexp::device
