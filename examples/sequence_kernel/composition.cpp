// composition: a kernel on sequences that compares what they are made of,
//   k(X, X′) = Σ_s f_s(X)·f_s(X′),   f_s(X) = (occurrences of symbol s in X) / |X|,
// with its exact map φ(X) = (f_s(X))_s of dimension |Σ|.
//
// A sequence kernel declares kexp::flags::sequences (and flags::fitted, for fit() is where
// it learns the alphabet's size). Its inputs come as kexp/dataset.hpp says: column j of X
// holds sequence j's symbols as indices 0 … |Σ| − 1, then −1 past its end.
#include <kexp/kexp.hpp>

namespace {

class Composition;

class CompositionMap final : public kexp::FeatureMap {
 public:
  explicit CompositionMap(const Composition& kernel) : kernel_(kernel) {}
  // For a sequence kernel d is the alphabet's size.
  std::size_t dimension(std::size_t alphabet) const override { return alphabet; }
  std::size_t dimension_of(const arma::mat& X) const override;
  bool exact() const override { return true; }

 protected:
  void compute_features(const arma::mat& X, arma::mat& Phi) const override;

 private:
  const Composition& kernel_;
};

class Composition final : public kexp::Kernel {
 public:
  explicit Composition(const kexp::Params& /*params*/) : map_(*this) {}
  Composition(const Composition&) = delete;  // the map refers to this object
  Composition& operator=(const Composition&) = delete;

  bool positive_semidefinite() const override { return true; }
  const kexp::FeatureMap* feature_map() const override { return &map_; }
  std::size_t alphabet() const { return alphabet_; }

  /// The symbol frequencies of each sequence, |Σ| × n.
  void frequencies(const arma::mat& X, arma::mat& F) const {
    F.zeros(alphabet_, X.n_cols);
    for (arma::uword j = 0; j < X.n_cols; ++j) {
      arma::uword length = 0;
      while (length < X.n_rows && X(length, j) != -1.0) {
        F(static_cast<arma::uword>(X(length, j)), j) += 1.0;
        ++length;
      }
      if (length > 0) F.col(j) /= static_cast<double>(length);
    }
  }

 protected:
  void compute_fit(const kexp::KernelFitData& data) override {
    if (data.alphabet_size == 0) throw kexp::InvalidArgument("composition takes sequences");
    alphabet_ = data.alphabet_size;
  }
  double compute(const arma::vec& x, const arma::vec& z) const override {
    arma::mat a, b;
    frequencies(x, a);
    frequencies(z, b);
    return arma::dot(a, b);
  }

 private:
  std::size_t alphabet_ = 0;  // learned in fit()
  CompositionMap map_;
};

std::size_t CompositionMap::dimension_of(const arma::mat& /*X*/) const {
  return kernel_.alphabet();
}
void CompositionMap::compute_features(const arma::mat& X, arma::mat& Phi) const {
  kernel_.frequencies(X, Phi);
}

constexpr kexp::PluginInfo kInfo{
    "composition", "0.1.0",
    "k(X, X′) = Σ_s f_s(X)·f_s(X′), f_s the frequency of symbol s in the sequence; exact map "
    "of dimension |Σ|",
    kexp::flags::psd_always | kexp::flags::exact_map | kexp::flags::fitted |
        kexp::flags::sequences};

}  // namespace

KEXP_PLUGIN(Composition, kInfo)
