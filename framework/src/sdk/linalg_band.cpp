// The reduction of a symmetric matrix to a band (LAPACK dsytrd_sy2sb) and its band
// solves for many shifts (kexp/linalg.hpp: BandReduction).
#include "kexp/linalg.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <vector>

#include "kexp/error.hpp"
#include "sdk/lapack.hpp"

namespace kexp::linalg {

BandReduction::BandReduction(arma::mat& A, arma::uword bandwidth) : n_(A.n_rows) {
  if (A.n_rows != A.n_cols) {
    throw InvalidArgument(
        fmt::format("band reduction needs a square matrix, got {} × {}", A.n_rows, A.n_cols));
  }
  if (bandwidth == 0) throw InvalidArgument("band reduction needs a bandwidth of at least 1");
  bandwidth_ = n_ > 1 ? std::min(bandwidth, n_ - 1) : 0;
  const int n = static_cast<int>(n_), kd = static_cast<int>(bandwidth_), ldab = kd + 1;
  band_.set_size(bandwidth_ + 1, n_);
  if (n_ == 0) return;
  arma::vec tau(n_, arma::fill::zeros);
  int lwork = -1, info = 0;
  double work_size = 0;
  dsytrd_sy2sb_("L", &n, &kd, A.memptr(), &n, band_.memptr(), &ldab, tau.memptr(), &work_size,
                &lwork, &info, 1);
  if (info != 0) throw NumericError(fmt::format("dsytrd_sy2sb workspace query: info {}", info));
  lwork = std::max(1, static_cast<int>(work_size));
  std::vector<double> work(static_cast<std::size_t>(lwork));
  workspace_bytes_ = 8.0 * static_cast<double>(lwork + n);  // WORK and TAU
  dsytrd_sy2sb_("L", &n, &kd, A.memptr(), &n, band_.memptr(), &ldab, tau.memptr(), work.data(),
                &lwork, &info, 1);
  if (info != 0) throw NumericError(fmt::format("dsytrd_sy2sb failed (info {})", info));
  // Panel i (a multiple of b) holds the Householder vectors of the QR factorization of
  // A(i+b : n, i : i+b) below its b-th subdiagonal, with their unit diagonal and zeros
  // above it already written in; there are none when n ≤ b + 1 (B is then A itself).
  if (n_ <= bandwidth_ + 1) return;
  for (arma::uword i = 0; i + bandwidth_ < n_; i += bandwidth_) {
    const arma::uword first = i + bandwidth_, rows = n_ - first;
    const arma::uword k = std::min(rows, bandwidth_);
    Panel panel{first, A.submat(first, i, n_ - 1, i + k - 1), arma::mat(k, k, arma::fill::zeros)};
    const int m = static_cast<int>(rows), kk = static_cast<int>(k);
    dlarft_("F", "C", &m, &kk, panel.V.memptr(), &m, tau.memptr() + i, panel.T.memptr(), &kk, 1, 1);
    panels_.push_back(std::move(panel));
  }
}

double BandReduction::bytes() const {
  double doubles = static_cast<double>(band_.n_elem);
  for (const Panel& p : panels_) doubles += static_cast<double>(p.V.n_elem + p.T.n_elem);
  return 8.0 * doubles;
}

void BandReduction::apply_qt(arma::vec& x) const {
  if (x.n_elem != n_) {
    throw InvalidArgument(fmt::format("Qᵀx: x has {} entries, Q is {} × {}", x.n_elem, n_, n_));
  }
  for (const Panel& p : panels_) {  // Qᵀ = Q_{P−1}ᵀ ⋯ Q_0ᵀ, Q_pᵀ = I − V Tᵀ Vᵀ
    auto tail = x.subvec(p.first, n_ - 1);
    const arma::vec w = p.T.t() * (p.V.t() * tail);
    tail -= p.V * w;
  }
}

void BandReduction::apply_q(arma::vec& x) const {
  if (x.n_elem != n_) {
    throw InvalidArgument(fmt::format("Qx: x has {} entries, Q is {} × {}", x.n_elem, n_, n_));
  }
  for (auto p = panels_.rbegin(); p != panels_.rend(); ++p) {  // Q_p = I − V T Vᵀ
    auto tail = x.subvec(p->first, n_ - 1);
    const arma::vec w = p->T * (p->V.t() * tail);
    tail -= p->V * w;
  }
}

int BandReduction::solve_band(double shift, arma::vec& c) const {
  if (c.n_elem != n_) {
    throw InvalidArgument(fmt::format("banded solve: right-hand side has {} entries, B is {} × {}",
                                      c.n_elem, n_, n_));
  }
  if (n_ == 0) return 0;
  arma::mat factor = band_;
  factor.row(0) += shift;  // the diagonal, in lower band storage
  const int n = static_cast<int>(n_), kd = static_cast<int>(bandwidth_), ldab = kd + 1, one = 1;
  int info = 0;
  dpbtrf_("L", &n, &kd, factor.memptr(), &ldab, &info, 1);
  if (info < 0) throw NumericError(fmt::format("dpbtrf: argument {} is invalid", -info));
  if (info > 0) return info;
  dpbtrs_("L", &n, &kd, &one, factor.memptr(), &ldab, c.memptr(), &n, &info, 1);
  if (info != 0) throw NumericError(fmt::format("dpbtrs failed (info {})", info));
  return 0;
}

int BandReduction::solve_shifted(double shift, arma::vec& x) const {
  apply_qt(x);
  const int info = solve_band(shift, x);
  if (info != 0) return info;
  apply_q(x);
  return 0;
}

}  // namespace kexp::linalg
