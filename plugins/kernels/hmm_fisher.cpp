// hmm_fisher: the Fisher kernel of a hidden Markov model on sequences (Jaakkola and
// Haussler 1999)
//
//   k(X, X′) = g(X)ᵀ F⁻¹ g(X′),   g(X) = ∇_θ log p(X | θ̂),   φ(X) = F^{−1/2} g(X),
//
// for a model fitted by Baum–Welch to the training sequences or read from `file`
// (common/hmm_source.hpp). θ holds the emission parameters in the softmax parametrisation
// B(i, s) = e^{b_is}/Σ_s′ e^{b_is′} and, with `transitions: true`, the transition ones
// a_ij likewise; by forward–backward (common/hmm_kernels.hpp),
//   ∂ log p/∂b_is = Σ_t γ_t(i)([x_t = s] − B(i, s)),
//   ∂ log p/∂a_ij = Σ_{t<L} ξ_t(i, j) − A(i, j) Σ_{t<L} γ_t(i),
// so D = S·|Σ| (+ S²). information: empirical — F the mean of g gᵀ over the training
// sequences and F^{−1/2} its pseudo-inverse root (common/fisher_information.hpp; the
// softmax scores of each row of B, and of A, sum to 0, so F has rank at most D − S, or
// D − 2S with the transitions); identity — F = I.
//
// The map is exact and explicit, and the scores are sums over the sequence: sequences of
// any lengths can be compared, and a longer sequence has a larger score.
#include <kexp/kexp.hpp>

#include <memory>
#include <optional>
#include <string>
#include <utility>

#include "common/feature_map_kernel.hpp"
#include "common/fisher_information.hpp"
#include "common/hmm_kernels.hpp"
#include "common/hmm_model.hpp"
#include "common/hmm_source.hpp"

namespace {

using kexp_kernels::Hmm;

/// The largest D whose D × D empirical information the kernel forms.
constexpr std::size_t kMaxEmpiricalDimension = 10000;

class HmmFisherKernel;

class HmmFisherMap final : public kexp::FeatureMap {
 public:
  explicit HmmFisherMap(const HmmFisherKernel& kernel) : kernel_(kernel) {}
  std::size_t dimension(std::size_t alphabet) const override;
  std::size_t dimension_of(const arma::mat& X) const override;
  bool exact() const override { return true; }
  /// For sequences the runner passes d = L, the longest length.
  double flops(std::size_t n, std::size_t L) const override;

 protected:
  void compute_features(const arma::mat& X, arma::mat& Phi) const override;

 private:
  const HmmFisherKernel& kernel_;
};

class HmmFisherKernel final : public kexp_kernels::FeatureMapKernel {
 public:
  explicit HmmFisherKernel(const kexp::Params& p)
      : source_(p),
        transitions_(p.boolean("transitions")),
        empirical_(p.string("information") == "empirical"),
        map_(*this) {}
  HmmFisherKernel(const HmmFisherKernel&) = delete;  // the map refers to this object
  HmmFisherKernel& operator=(const HmmFisherKernel&) = delete;

  bool positive_semidefinite() const override { return true; }
  const kexp::FeatureMap* feature_map() const override { return &map_; }

  std::size_t dimension(std::size_t alphabet) const {
    return kexp_kernels::fisher_dimension(source_.states, alphabet, transitions_);
  }
  /// Forward–backward over n sequences of length L (about 8·L·S² each) and the whitening
  /// (2·D² each), D for the fitted alphabet.
  double feature_flops(std::size_t n, std::size_t L) const {
    const auto S = static_cast<double>(source_.states);
    const double D = model_ ? static_cast<double>(dimension(model_->symbols())) : 0.0;
    return static_cast<double>(n) * (8.0 * static_cast<double>(L) * S * S + 2.0 * D * D);
  }
  /// The features of both blocks, then 2·n·m·D for ΦᵀΦ′.
  double gram_flops(std::size_t n, std::size_t m, std::size_t L) const override {
    const double D = model_ ? static_cast<double>(dimension(model_->symbols())) : 0.0;
    return feature_flops(n + m, L) + 2.0 * static_cast<double>(n) * static_cast<double>(m) * D;
  }
  const Hmm& model() const {
    if (!model_) {
      throw kexp::InvalidArgument(
          "the hmm_fisher kernel learns its HMM from the training sequences: call fit() "
          "before using it");
    }
    return *model_;
  }
  /// Φ, D × n.
  void features(const arma::mat& X, arma::mat& Phi) const override {
    arma::mat G;
    kexp_kernels::fisher_scores(model(), kexp_kernels::sequences_of(X, model().symbols()),
                                transitions_, G);
    if (whiten_.is_empty()) {
      Phi = std::move(G);
    } else {
      kexp::linalg::multiply_by_columns(whiten_, G, Phi);  // on kexp's threads
    }
  }

 protected:
  void compute_fit(const kexp::KernelFitData& data) override {
    model_.reset();  // until the model and F^{−1/2} are both new
    const std::size_t D = dimension(data.alphabet_size);
    if (empirical_ && D > kMaxEmpiricalDimension) {
      throw kexp::InvalidArgument("the empirical Fisher information of " + std::to_string(D) +
                                  " scores is a D × D matrix, more than the limit D = 10⁴ (" +
                                  std::to_string(data.alphabet_size) +
                                  " symbols); use information: identity");
    }
    Hmm m = source_.model(data, "hmm_fisher");
    whiten_.reset();
    if (empirical_) {
      arma::mat G;
      kexp_kernels::fisher_scores(m, kexp_kernels::sequences_of(*data.X, m.symbols()), transitions_,
                                  G);
      whiten_ = kexp_kernels::inverse_root_information(G);
    }
    model_ = std::move(m);
  }

 private:
  kexp_kernels::HmmSource source_;
  bool transitions_, empirical_;
  std::optional<Hmm> model_;
  arma::mat whiten_;  ///< F^{−1/2}; empty for the identity
  HmmFisherMap map_;
};

std::size_t HmmFisherMap::dimension(std::size_t alphabet) const {
  return kernel_.dimension(alphabet);
}
std::size_t HmmFisherMap::dimension_of(const arma::mat& /*X*/) const {
  return kernel_.dimension(kernel_.model().symbols());
}
double HmmFisherMap::flops(std::size_t n, std::size_t L) const {
  return kernel_.feature_flops(n, L);
}
void HmmFisherMap::compute_features(const arma::mat& X, arma::mat& Phi) const {
  kernel_.features(X, Phi);
}

constexpr kexp::ParamSpec kParams[] = {
    kexp_kernels::kHmmStatesParam,
    kexp::param::boolean("transitions", "true",
                         "score the transition parameters too (D = S·|Σ| + S²), not only the "
                         "emissions (D = S·|Σ|)"),
    kexp::param::choice("information", "empirical", "empirical|identity",
                        "F: empirical (the mean of g gᵀ over the training sequences; its "
                        "pseudo-inverse square root) or identity (k = g(X)ᵀg(X′))"),
    kexp_kernels::kHmmFileParam,
    kexp_kernels::kHmmIterationsParam,
    kexp_kernels::kHmmToleranceParam,
    kexp_kernels::kHmmPseudoCountParam,
};

constexpr kexp::PluginInfo kInfo{
    "hmm_fisher", "1.0.1",
    "k(X, X′) = g(X)ᵀ F⁻¹ g(X′), g = ∇_θ log p(X|θ) of an HMM fitted by Baum–Welch (θ: "
    "softmax emission and transition parameters), by forward–backward; exact map "
    "φ = F^{−1/2} g, D = S·|Σ| + S²",
    kParams,
    kexp::flags::psd_always | kexp::flags::exact_map | kexp::flags::fitted |
        kexp::flags::sequences};

}  // namespace

KEXP_PLUGIN(HmmFisherKernel, kInfo)
