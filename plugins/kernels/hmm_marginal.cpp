// hmm_marginal: the hidden Markov model kernel on sequences, both sequences emitted along
// the same hidden path,
//
//   k(X, X′) = Σ_Z p(X | Z) p(X′ | Z) p(Z),
//
// for a model fitted by Baum–Welch to the training sequences or read from `file`
// (common/hmm_source.hpp). It is computed by the forward recursion of the pair, O(L·S²)
// per pair rather than a sum over the S^L paths, in log space (common/hmm_kernels.hpp), so
// that long sequences do not underflow before the end. k itself is p(X, X′ on one path),
// of the order of the square of a sequence's probability: for long sequences it is below
// the smallest double and becomes 0. `normalize: true` (the default) gives
//
//   k(X, X′) / √(k(X, X)·k(X′, X′)) = exp(log k(X, X′) − ½ log k(X, X) − ½ log k(X′, X′)),
//
// computed from the logarithms, in (0, 1] whatever the length. It is an inner product of
// the vectors (p(X | Z)·√p(Z))_Z, so PSD; that map has S^L entries and kexp gives none.
// The kernel is defined for sequences of equal length: a pair that is not is an error.
#include <kexp/kexp.hpp>

#include <algorithm>
#include <cmath>
#include <memory>
#include <optional>
#include <string>

#include "common/hmm_kernels.hpp"
#include "common/hmm_model.hpp"
#include "common/hmm_source.hpp"

namespace {

/// The largest table of emission products the Gram loops may keep.
constexpr double kMaxTableBytes = 1073741824.0;

using kexp_kernels::Hmm;
using kexp_kernels::Sequences;

class HmmMarginalKernel final : public kexp::Kernel {
 public:
  explicit HmmMarginalKernel(const kexp::Params& p)
      : source_(p), normalize_(p.boolean("normalize")) {}

  bool positive_semidefinite() const override { return true; }
  double gram_flops(std::size_t n, std::size_t m, std::size_t L) const override {
    const auto S = static_cast<double>(source_.states);
    return static_cast<double>(n) * static_cast<double>(m) * static_cast<double>(L) *
           (2.0 * S * S + 3.0 * S);
  }

 protected:
  void compute_fit(const kexp::KernelFitData& data) override {
    model_.reset();
    const arma::uword M = data.alphabet_size, S = source_.states;
    // The Gram loops keep B(j, s)·B(j, s′) for every pair of symbols: 2·M²·S doubles.
    const double table_bytes =
        16.0 * static_cast<double>(M) * static_cast<double>(M) * static_cast<double>(S);
    if (table_bytes > kMaxTableBytes) {
      throw kexp::InvalidArgument("the marginal kernel keeps a table of 2·|Σ|²·S numbers, " +
                                  std::to_string(static_cast<long long>(table_bytes / 1048576.0)) +
                                  " MiB for " + std::to_string(M) + " symbols and " +
                                  std::to_string(S) +
                                  " states, more than 1 GiB; use a smaller alphabet or hmm_fisher");
    }
    if (M > 0) {
      std::size_t shortest = data.X->n_rows, longest = 0;
      for (arma::uword j = 0; j < data.X->n_cols; ++j) {
        const std::size_t length = kexp_kernels::detail::checked_length(*data.X, j, M);
        shortest = std::min(shortest, length);
        longest = std::max(longest, length);
      }
      if (shortest != longest) {
        throw kexp::InvalidArgument(
            "the HMM marginal kernel is defined for sequences of equal length, and the "
            "training sequences have " +
            std::to_string(shortest) + " to " + std::to_string(longest) +
            " symbols; use data of one length (the hmm dataset with min_length = max_length)");
      }
    }
    model_ = source_.model(data, "hmm_marginal");
  }
  double compute(const arma::vec& x, const arma::vec& z) const override {
    arma::mat K;
    compute_block(x, z, K);
    return K(0, 0);
  }
  void compute_gram(const arma::mat& X, const arma::mat& Z, arma::mat& K) const override {
    compute_block(X, Z, K);
  }
  void compute_symmetric_gram(const arma::mat& X, arma::mat& K) const override {
    const Sequences xs = sequences(X);
    arma::mat logK;
    kexp_kernels::marginal_gram_symmetric(model(), xs, logK);
    const arma::vec half = 0.5 * defined(logK.diag());
    // One triangle, mirrored: K is exactly symmetric.
    for (arma::uword j = 0; j < X.n_cols; ++j) {
      for (arma::uword i = j; i < X.n_cols; ++i) {
        K(i, j) = K(j, i) = std::exp(normalize_ ? logK(i, j) - half[i] - half[j] : logK(i, j));
      }
    }
  }
  void compute_diagonal(const arma::mat& X, arma::vec& diag) const override {
    if (normalize_) {
      diag.ones();
      return;
    }
    diag = arma::exp(log_diagonal(sequences(X)));
  }

 private:
  const Hmm& model() const {
    if (!model_) {
      throw kexp::InvalidArgument(
          "the hmm_marginal kernel learns its HMM from the training sequences: call fit() "
          "before using it");
    }
    return *model_;
  }
  Sequences sequences(const arma::mat& X) const {
    return kexp_kernels::sequences_of(X, model().symbols());
  }
  /// log k(Xⱼ, Xⱼ) for each sequence (defined()).
  arma::vec log_diagonal(const Sequences& xs) const {
    arma::vec out(xs.size());
    for (std::size_t j = 0; j < xs.size(); ++j) {
      out[j] = kexp_kernels::log_marginal_kernel(model(), xs.data(j), xs.data(j), xs.length(j));
    }
    return defined(out);
  }
  /// `log_diagonal` itself; throws, when normalising, for a sequence of probability 0 under
  /// the model (k(X, X) = 0), for which the normalised kernel is not defined.
  arma::vec defined(arma::vec log_diagonal) const {
    for (arma::uword j = 0; j < log_diagonal.n_elem; ++j) {
      if (normalize_ && std::isinf(log_diagonal[j])) {
        throw kexp::InvalidArgument(
            "sequence " + std::to_string(j) +
            " has probability 0 under the HMM (a transition or emission of probability 0), so "
            "k(X, X) = 0 and the normalised kernel is not defined; give pseudo_count > 0, or a "
            "model file without zeros");
      }
    }
    return log_diagonal;
  }
  void compute_block(const arma::mat& X, const arma::mat& Z, arma::mat& K) const {
    const Sequences xs = sequences(X), zs = sequences(Z);
    arma::mat logK;
    kexp_kernels::marginal_gram(model(), xs, zs, logK);
    if (normalize_) {
      const arma::vec hx = 0.5 * log_diagonal(xs), hz = 0.5 * log_diagonal(zs);
      logK.each_col() -= hx;
      logK.each_row() -= hz.t();
    }
    K = arma::exp(logK);
  }

  kexp_kernels::HmmSource source_;
  bool normalize_;
  std::optional<Hmm> model_;
};

constexpr kexp::ParamSpec kParams[] = {
    kexp_kernels::kHmmStatesParam,
    kexp::param::boolean("normalize", "true",
                         "k(X, X′)/√(k(X, X)·k(X′, X′)), in (0, 1] whatever the length; false: "
                         "k itself, which underflows to 0 for long sequences"),
    kexp_kernels::kHmmFileParam,
    kexp_kernels::kHmmIterationsParam,
    kexp_kernels::kHmmToleranceParam,
    kexp_kernels::kHmmPseudoCountParam,
};

constexpr kexp::PluginInfo kInfo{
    "hmm_marginal", "1.0.0",
    "k(X, X′) = Σ_Z p(X|Z) p(X′|Z) p(Z) for an HMM fitted by Baum–Welch (or read from a "
    "file), by the forward recursion of the pair in log space; sequences of equal length",
    kParams, kexp::flags::psd_always | kexp::flags::fitted | kexp::flags::sequences};

}  // namespace

KEXP_PLUGIN(HmmMarginalKernel, kInfo)
