// spectrum: the k-spectrum kernel on sequences (Leslie, Eskin and Noble 2002)
//
//   k(X, X′) = Σ_u count_u(X)·count_u(X′),
//
// u over the |Σ|ᵏ words of k symbols, count_u(X) the number of places where u occurs in
// X (overlapping). Its map is exact and explicit: φ_u(X) = count_u(X), D = |Σ|ᵏ, with u
// numbered as a k-digit number in base |Σ| (first symbol most significant). A sequence
// shorter than k has φ = 0. With `normalize: true`, k(X, X′)/√(k(X, X)·k(X′, X′)) and
// φ/‖φ‖ (0 for φ = 0): sequences of different lengths are compared by their make-up.
//
// D grows as |Σ|ᵏ while a sequence of length L has at most L − k + 1 words, so Φ is mostly
// zeros: the dual form computes K from each sequence's sorted word counts (a merge per
// pair, O(L) whatever D), and the primal form pays for the D × D system. For a large
// alphabet or k the dual wins at any n.
//
// The kernel learns the alphabet's size in fit() (flags::fitted, as every sequence kernel).
#include <kexp/kexp.hpp>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

namespace {

/// The largest D the explicit map produces.
constexpr double kMaxDimension = 1.0e7;

/// The words of every sequence of X, counted: sequence j's distinct words in increasing
/// order in codes[offsets[j] … offsets[j + 1]), their counts alongside. One allocation.
struct WordCounts {
  std::vector<std::uint64_t> codes;
  std::vector<double> counts;
  std::vector<std::size_t> offsets;
  arma::vec norms;  ///< ‖φ(Xⱼ)‖
};

class SpectrumKernel;

class SpectrumMap final : public kexp::FeatureMap {
 public:
  explicit SpectrumMap(const SpectrumKernel& kernel) : kernel_(kernel) {}
  std::size_t dimension(std::size_t alphabet) const override;
  std::size_t dimension_of(const arma::mat& X) const override;
  bool exact() const override { return true; }
  double flops(std::size_t n, std::size_t d) const override {
    return static_cast<double>(n) * static_cast<double>(d);
  }

 protected:
  void compute_features(const arma::mat& X, arma::mat& Phi) const override;

 private:
  const SpectrumKernel& kernel_;
};

class SpectrumKernel final : public kexp::Kernel {
 public:
  explicit SpectrumKernel(const kexp::Params& p)
      : k_(static_cast<unsigned>(p.integer("k"))),
        normalize_(p.boolean("normalize")),
        map_(*this) {}
  SpectrumKernel(const SpectrumKernel&) = delete;  // the map refers to this object
  SpectrumKernel& operator=(const SpectrumKernel&) = delete;

  bool positive_semidefinite() const override { return true; }
  const kexp::FeatureMap* feature_map() const override { return &map_; }
  /// A merge of two sorted lists of at most L words per pair.
  double gram_flops(std::size_t n, std::size_t m, std::size_t L) const override {
    return 2.0 * static_cast<double>(n) * static_cast<double>(m) * static_cast<double>(L);
  }

  /// |Σ|ᵏ; throws past kMaxDimension.
  std::size_t words(std::size_t alphabet) const {
    const double D = std::pow(static_cast<double>(alphabet), static_cast<double>(k_));
    if (D > kMaxDimension) {
      throw kexp::InvalidArgument(
          "the spectrum map of k = " + std::to_string(k_) + " over " + std::to_string(alphabet) +
          " symbols has D = |Σ|ᵏ = " + std::to_string(D) +
          " features, more than the map's limit of 10⁷; use a dual solver with it");
    }
    return static_cast<std::size_t>(D);
  }
  std::size_t alphabet() const {
    if (alphabet_ == 0) {
      throw kexp::InvalidArgument(
          "the spectrum kernel takes sequences and learns their alphabet in fit(): fit it "
          "on sequence data first");
    }
    return alphabet_;
  }

  /// The word counts of every column of X.
  WordCounts count(const arma::mat& X) const {
    const std::size_t M = alphabet();
    if (std::pow(static_cast<double>(M), static_cast<double>(k_ + 1)) >= 1.8e19) {
      throw kexp::InvalidArgument("the words of k = " + std::to_string(k_) + " over " +
                                  std::to_string(M) +
                                  " symbols cannot be numbered in 64 bits; use a smaller k");
    }
    std::uint64_t Mk = 1;
    for (unsigned i = 0; i < k_; ++i) Mk *= M;
    WordCounts w;
    w.offsets.assign(X.n_cols + 1, 0);
    w.norms.set_size(X.n_cols);
    std::vector<std::uint64_t> words;
    for (arma::uword j = 0; j < X.n_cols; ++j) {
      words.clear();
      const double* x = X.colptr(j);
      std::uint64_t code = 0;
      for (arma::uword t = 0; t < X.n_rows && x[t] != -1.0; ++t) {
        const double s = x[t];
        if (s < 0 || s >= static_cast<double>(M) || s != std::floor(s)) {
          throw kexp::InvalidArgument("sequence " + std::to_string(j) + " has " +
                                      std::to_string(s) + " at position " + std::to_string(t) +
                                      ", not a symbol of the " + std::to_string(M) +
                                      "-symbol alphabet the kernel was fitted on");
        }
        code = (code * M + static_cast<std::uint64_t>(s)) % Mk;
        if (t + 1 >= k_) words.push_back(code);
      }
      std::sort(words.begin(), words.end());
      double squares = 0;
      for (std::size_t i = 0; i < words.size();) {
        std::size_t e = i;
        while (e < words.size() && words[e] == words[i]) ++e;
        const auto c = static_cast<double>(e - i);
        w.codes.push_back(words[i]);
        w.counts.push_back(c);
        squares += c * c;
        i = e;
      }
      w.offsets[j + 1] = w.codes.size();
      w.norms[j] = std::sqrt(squares);
    }
    return w;
  }

  /// ⟨φ(Xᵢ), φ(Zⱼ)⟩ by a merge of the two sorted word lists, normalised when asked.
  double dot(const WordCounts& a, std::size_t i, const WordCounts& b, std::size_t j) const {
    std::size_t p = a.offsets[i], q = b.offsets[j];
    const std::size_t pe = a.offsets[i + 1], qe = b.offsets[j + 1];
    double sum = 0;
    while (p < pe && q < qe) {
      if (a.codes[p] < b.codes[q]) {
        ++p;
      } else if (b.codes[q] < a.codes[p]) {
        ++q;
      } else {
        sum += a.counts[p++] * b.counts[q++];
      }
    }
    if (!normalize_) return sum;
    const double scale = a.norms[i] * b.norms[j];
    return scale > 0 ? sum / scale : 0.0;
  }

  void features(const arma::mat& X, arma::mat& Phi) const {
    const WordCounts w = count(X);
    Phi.zeros();
    for (arma::uword j = 0; j < X.n_cols; ++j) {
      const double scale = normalize_ && w.norms[j] > 0 ? 1.0 / w.norms[j] : 1.0;
      for (std::size_t p = w.offsets[j]; p < w.offsets[j + 1]; ++p) {
        Phi(static_cast<arma::uword>(w.codes[p]), j) = scale * w.counts[p];
      }
    }
  }

 protected:
  void compute_fit(const kexp::KernelFitData& data) override {
    if (data.alphabet_size == 0) {
      throw kexp::InvalidArgument(
          "the spectrum kernel takes sequences; it was fitted on vectors (no alphabet)");
    }
    alphabet_ = data.alphabet_size;
  }
  double compute(const arma::vec& x, const arma::vec& z) const override {
    const WordCounts a = count(x), b = count(z);
    return dot(a, 0, b, 0);
  }
  void compute_gram(const arma::mat& X, const arma::mat& Z, arma::mat& K) const override {
    const WordCounts a = count(X), b = count(Z);
    kexp::parallel_for(
        Z.n_cols,
        [&](std::size_t j) {
          for (arma::uword i = 0; i < X.n_cols; ++i) K(i, j) = dot(a, i, b, j);
        },
        kexp::Schedule::Dynamic, 8);
  }
  void compute_symmetric_gram(const arma::mat& X, arma::mat& K) const override {
    const WordCounts a = count(X);
    // Column j from the diagonal down: the lower triangle, then mirrored.
    kexp::parallel_for(
        X.n_cols,
        [&](std::size_t j) {
          for (arma::uword i = j; i < X.n_cols; ++i) K(i, j) = dot(a, i, a, j);
        },
        kexp::Schedule::Dynamic, 8);
    if (kexp::gram::requested_triangle() == kexp::Triangle::Both) K = arma::symmatl(K);
  }
  void compute_diagonal(const arma::mat& X, arma::vec& diag) const override {
    const WordCounts a = count(X);
    for (arma::uword j = 0; j < X.n_cols; ++j) diag[j] = dot(a, j, a, j);
  }

 private:
  unsigned k_;
  bool normalize_;
  std::size_t alphabet_ = 0;
  SpectrumMap map_;
};

std::size_t SpectrumMap::dimension(std::size_t alphabet) const { return kernel_.words(alphabet); }
std::size_t SpectrumMap::dimension_of(const arma::mat& /*X*/) const {
  return kernel_.words(kernel_.alphabet());
}
void SpectrumMap::compute_features(const arma::mat& X, arma::mat& Phi) const {
  kernel_.features(X, Phi);
}

constexpr kexp::ParamSpec kParams[] = {
    kexp::param::integer("k", "3", "length k of the words counted").at_least(1).at_most(32),
    kexp::param::boolean("normalize", "false",
                         "k(X, X′)/√(k(X, X)·k(X′, X′)): compare the make-up, not the length"),
};

constexpr kexp::PluginInfo kInfo{
    "spectrum", "1.0.0",
    "k(X, X′) = Σ_u count_u(X)·count_u(X′) over the words u of k symbols (sequences); exact "
    "map φ_u = count_u, D = |Σ|ᵏ",
    kParams,
    kexp::flags::psd_always | kexp::flags::exact_map | kexp::flags::fitted |
        kexp::flags::sequences};

}  // namespace

KEXP_PLUGIN(SpectrumKernel, kInfo)
