// The composite kernels s·k, k₁ + k₂ + … and k₁·k₂·…: their Gram blocks and diagonals
// from the parts', their PSD verdict, their feature maps (√s·φ, the concatenation, the
// tensor product) when every part has one, and fit() passed to every part.
#include "kernel_algebra/composite_kernel.hpp"

#include <fmt/format.h>

#include <cmath>
#include <optional>

#include "kexp/device_form.hpp"
#include "kexp/error.hpp"
#include "kexp/formula.hpp"
#include "kexp/formula_kernel.hpp"

namespace kexp::algebra {

namespace {

/// The largest D a tensor-product map will produce (as for the plugins' own maps).
constexpr double kMaxFeatureDim = 1.0e6;

class ScaledMap final : public FeatureMap {
 public:
  ScaledMap(const FeatureMap& map, double scale) : map_(map), root_(std::sqrt(scale)) {}
  std::size_t dimension(std::size_t d) const override { return map_.dimension(d); }
  std::size_t dimension_of(const arma::mat& X) const override { return map_.dimension_of(X); }
  bool exact() const override { return map_.exact(); }
  double flops(std::size_t n, std::size_t d) const override {
    return map_.flops(n, d) + static_cast<double>(dimension(d) * n);
  }

 protected:
  void compute_features(const arma::mat& X, arma::mat& Phi) const override {
    map_.features(X, Phi);
    Phi *= root_;
  }

 private:
  const FeatureMap& map_;
  double root_;
};

/// The program of a composite from its parts', when each has one and the result fits in
/// a program; none otherwise (the composite then combines the parts' Gram matrices).
template <class Make>
std::optional<FormulaProgram> program_or_none(const Make& make) {
  try {
    return make();
  } catch (const InvalidArgument&) {
    return std::nullopt;
  }
}

class ScaledKernel final : public Kernel, public DeviceForm, public FormulaForm {
 public:
  ScaledKernel(std::shared_ptr<Kernel> kernel, double scale)
      : kernel_(std::move(kernel)), scale_(scale) {
    if (const FeatureMap* m = kernel_->feature_map())
      map_ = std::make_unique<ScaledMap>(*m, scale_);
    if (const FormulaProgram* p = kexp::formula_program(*kernel_)) {
      program_ = program_or_none([&] { return scale_formula_program(*p, scale_); });
    }
  }
  /// The kernel's program times the scale; none when the kernel has none.
  const FormulaProgram* formula_program() const override { return program_ ? &*program_ : nullptr; }
  bool positive_semidefinite() const override {
    return scale_ > 0 && kernel_->positive_semidefinite();
  }
  const FeatureMap* feature_map() const override { return map_.get(); }
  double gram_flops(std::size_t n, std::size_t m, std::size_t d) const override {
    return kernel_->gram_flops(n, m, d) + static_cast<double>(n * m);
  }
  /// The kernel's program, then its scale; none when the kernel has none.
  DeviceProgram device_form() const override {
    std::optional<DeviceProgram> program = device_program(*kernel_);
    if (!program) return {};
    program->push_back({DeviceOp::scale, scale_, 0, 0});
    return *program;
  }

  bool learnable() const override { return kernel_->learnable(); }
  /// The kernel's own, then the scale.
  std::vector<Hyperparameter> hyperparameters() const override {
    std::vector<Hyperparameter> all = kernel_->hyperparameters();
    all.push_back({"scale", scale_});
    return all;
  }

 protected:
  void compute_fit(const KernelFitData& data) override { kernel_->fit(data); }
  std::unique_ptr<Kernel> compute_with_hyperparameters(const arma::vec& values) const override {
    const arma::uword own = values.n_elem - 1;
    std::shared_ptr<Kernel> inner = kernel_->with_hyperparameters(values.head(own));
    return std::make_unique<ScaledKernel>(std::move(inner), values[own]);
  }
  // ∂(s·K)/∂ log θ = s·∂K/∂ log θ; ∂(s·K)/∂ log s = s·K.
  void compute_gram_gradient(const arma::mat& X, arma::cube& dK) const override {
    const arma::uword own = dK.n_slices - 1;
    if (own > 0) {
      arma::cube inner;
      kernel_->gram_gradient(X, inner);
      dK.head_slices(own) = scale_ * inner;
    }
    arma::mat K;
    kernel_->gram(X, K);
    dK.slice(own) = scale_ * K;
  }
  double compute(const arma::vec& x, const arma::vec& z) const override {
    return scale_ * kernel_->evaluate(x, z);
  }
  void compute_gram(const arma::mat& X, const arma::mat& Z, arma::mat& K) const override {
    if (program_) {
      gram::formula(*program_, X, Z, K);
      return;
    }
    kernel_->gram(X, Z, K);
    K *= scale_;
  }
  void compute_symmetric_gram(const arma::mat& X, arma::mat& K) const override {
    if (program_) {
      gram::formula(*program_, X, K);
      return;
    }
    kernel_->gram(X, K);
    K *= scale_;
  }
  void compute_diagonal(const arma::mat& X, arma::vec& diag) const override {
    diag = scale_ * kernel_->diagonal(X);
  }

 private:
  std::shared_ptr<Kernel> kernel_;
  double scale_;
  std::unique_ptr<FeatureMap> map_;
  std::optional<FormulaProgram> program_;
};

/// (φ₁, φ₂, …) for a sum; φ₁ ⊗ φ₂ ⊗ … for a product.
class CombinedMap final : public FeatureMap {
 public:
  CombinedMap(Combination how, std::vector<const FeatureMap*> maps)
      : how_(how), maps_(std::move(maps)) {}

  std::size_t dimension(std::size_t d) const override {
    return combined([&](const FeatureMap& m) { return m.dimension(d); }, d);
  }
  std::size_t dimension_of(const arma::mat& X) const override {
    return combined([&](const FeatureMap& m) { return m.dimension_of(X); }, X.n_rows);
  }

  /// The terms' dimensions summed or multiplied; d only names the inputs in the error.
  template <class Dimension>
  std::size_t combined(const Dimension& dimension_of_term, std::size_t d) const {
    double D = how_ == Combination::Sum ? 0.0 : 1.0;
    for (const FeatureMap* m : maps_) {
      const auto Di = static_cast<double>(dimension_of_term(*m));
      D = how_ == Combination::Sum ? D + Di : D * Di;
    }
    if (D > kMaxFeatureDim) {
      throw InvalidArgument(fmt::format(
          "the feature map of this product of kernels would have D = {:.6g} features (the "
          "product of its terms' dimensions for d = {}), more than the limit of {:.0f}; use a "
          "dual solver with it",
          D, d, kMaxFeatureDim));
    }
    return static_cast<std::size_t>(D);
  }

  bool exact() const override {
    for (const FeatureMap* m : maps_)
      if (!m->exact()) return false;
    return true;
  }

  double flops(std::size_t n, std::size_t d) const override {
    double f = 0;
    for (const FeatureMap* m : maps_) f += m->flops(n, d);
    return f + (how_ == Combination::Product ? static_cast<double>(dimension(d) * n) : 0.0);
  }

 protected:
  void compute_features(const arma::mat& X, arma::mat& Phi) const override {
    std::size_t row = 0;
    arma::mat part;
    if (how_ == Combination::Sum) {
      for (const FeatureMap* m : maps_) {
        m->features(X, part);
        Phi.rows(row, row + part.n_rows - 1) = part;
        row += part.n_rows;
      }
      return;
    }
    // Tensor product, column by column: (a ⊗ b)_{i·|b| + j} = a_i·b_j.
    arma::mat acc(1, X.n_cols, arma::fill::ones);
    for (const FeatureMap* m : maps_) {
      m->features(X, part);
      arma::mat next(acc.n_rows * part.n_rows, X.n_cols);
      for (arma::uword c = 0; c < X.n_cols; ++c) {
        for (arma::uword i = 0; i < acc.n_rows; ++i) {
          next.col(c).subvec(i * part.n_rows, (i + 1) * part.n_rows - 1) = acc(i, c) * part.col(c);
        }
      }
      acc = std::move(next);
    }
    Phi = acc;
  }

 private:
  Combination how_;
  std::vector<const FeatureMap*> maps_;
};

class CombinedKernel final : public Kernel, public DeviceForm, public FormulaForm {
 public:
  CombinedKernel(Combination how, std::vector<std::shared_ptr<Kernel>> terms)
      : how_(how), terms_(std::move(terms)) {
    if (terms_.empty()) throw Error("a sum or product of kernels needs at least one term");
    std::vector<FormulaProgram> programs;
    for (const auto& t : terms_) {
      if (const FormulaProgram* p = kexp::formula_program(*t)) programs.push_back(*p);
    }
    if (programs.size() == terms_.size()) {
      program_ = program_or_none(
          [&] { return combine_formula_programs(how_ == Combination::Sum, programs); });
    }
    std::vector<const FeatureMap*> maps;
    for (const auto& t : terms_) {
      if (t->feature_map() == nullptr) return;
      maps.push_back(t->feature_map());
    }
    map_ = std::make_unique<CombinedMap>(how_, std::move(maps));
  }

  bool positive_semidefinite() const override {
    for (const auto& t : terms_)
      if (!t->positive_semidefinite()) return false;
    return true;
  }
  const FeatureMap* feature_map() const override { return map_.get(); }
  /// The terms' programs summed or multiplied; none when a term has none.
  const FormulaProgram* formula_program() const override { return program_ ? &*program_ : nullptr; }
  /// The terms' programs in order, then their sum or product; none when a term has none.
  DeviceProgram device_form() const override {
    DeviceProgram all;
    for (const auto& t : terms_) {
      const std::optional<DeviceProgram> program = device_program(*t);
      if (!program) return {};
      all.insert(all.end(), program->begin(), program->end());
    }
    all.push_back({how_ == Combination::Sum ? DeviceOp::sum : DeviceOp::product, 0, 0,
                   static_cast<std::int64_t>(terms_.size())});
    return all;
  }
  double gram_flops(std::size_t n, std::size_t m, std::size_t d) const override {
    double f = 0;
    for (const auto& t : terms_) f += t->gram_flops(n, m, d) + static_cast<double>(n * m);
    return f;
  }

  bool learnable() const override {
    for (const auto& t : terms_)
      if (!t->learnable()) return false;
    return true;
  }
  /// The terms' in order, named by their place as the experiment names them:
  /// "sum[0].sigma", "product[1].c".
  std::vector<Hyperparameter> hyperparameters() const override {
    std::vector<Hyperparameter> all;
    for (std::size_t i = 0; i < terms_.size(); ++i) {
      for (Hyperparameter h : terms_[i]->hyperparameters()) {
        h.name = fmt::format("{}[{}].{}", how_ == Combination::Sum ? "sum" : "product", i, h.name);
        all.push_back(std::move(h));
      }
    }
    return all;
  }

 protected:
  /// Each term is fitted on the same data, with a seed of its own.
  void compute_fit(const KernelFitData& data) override {
    for (std::size_t i = 0; i < terms_.size(); ++i) {
      KernelFitData own = data;
      own.seed = data.seed + 0x9e3779b97f4a7c15ULL * (i + 1);
      terms_[i]->fit(own);
    }
  }
  double compute(const arma::vec& x, const arma::vec& z) const override {
    double k = how_ == Combination::Sum ? 0.0 : 1.0;
    for (const auto& t : terms_) {
      const double v = t->evaluate(x, z);
      k = how_ == Combination::Sum ? k + v : k * v;
    }
    return k;
  }
  void compute_gram(const arma::mat& X, const arma::mat& Z, arma::mat& K) const override {
    if (program_) {
      gram::formula(*program_, X, Z, K);
      return;
    }
    terms_.front()->gram(X, Z, K);
    arma::mat part;
    for (std::size_t i = 1; i < terms_.size(); ++i) {
      terms_[i]->gram(X, Z, part);
      combine(K, part);
    }
  }
  void compute_symmetric_gram(const arma::mat& X, arma::mat& K) const override {
    if (program_) {
      gram::formula(*program_, X, K);
      return;
    }
    terms_.front()->gram(X, K);
    arma::mat part;
    for (std::size_t i = 1; i < terms_.size(); ++i) {
      terms_[i]->gram(X, part);
      combine(K, part);
    }
  }
  std::unique_ptr<Kernel> compute_with_hyperparameters(const arma::vec& values) const override {
    std::vector<std::shared_ptr<Kernel>> terms;
    arma::uword at = 0;
    for (const auto& t : terms_) {
      const arma::uword count = t->hyperparameters().size();
      terms.push_back(t->with_hyperparameters(
          count > 0 ? arma::vec(values.subvec(at, at + count - 1)) : arma::vec()));
      at += count;
    }
    return std::make_unique<CombinedKernel>(how_, std::move(terms));
  }
  // A sum's slices are its terms'. A product's, for a hyperparameter of term i:
  // ∂K_i/∂ log θ ⊙ Π_{l ≠ i} K_l.
  void compute_gram_gradient(const arma::mat& X, arma::cube& dK) const override {
    std::vector<arma::mat> grams(how_ == Combination::Product ? terms_.size() : 0);
    for (std::size_t l = 0; l < grams.size(); ++l) terms_[l]->gram(X, grams[l]);
    arma::uword at = 0;
    arma::cube part;
    for (std::size_t i = 0; i < terms_.size(); ++i) {
      terms_[i]->gram_gradient(X, part);
      if (part.n_slices == 0) continue;
      if (how_ == Combination::Product) {
        for (std::size_t l = 0; l < terms_.size(); ++l) {
          if (l == i) continue;
          part.each_slice([&](arma::mat& slice) { slice %= grams[l]; });
        }
      }
      dK.slices(at, at + part.n_slices - 1) = part;
      at += part.n_slices;
    }
  }
  void compute_diagonal(const arma::mat& X, arma::vec& diag) const override {
    diag = terms_.front()->diagonal(X);
    for (std::size_t i = 1; i < terms_.size(); ++i) {
      const arma::vec part = terms_[i]->diagonal(X);
      if (how_ == Combination::Sum) {
        diag += part;
      } else {
        diag %= part;
      }
    }
  }

 private:
  void combine(arma::mat& K, const arma::mat& part) const {
    if (how_ == Combination::Sum) {
      K += part;
    } else {
      K %= part;
    }
  }

  Combination how_;
  std::vector<std::shared_ptr<Kernel>> terms_;
  std::unique_ptr<FeatureMap> map_;
  std::optional<FormulaProgram> program_;
};

}  // namespace

std::shared_ptr<Kernel> scaled(std::shared_ptr<Kernel> kernel, double scale) {
  return std::make_shared<ScaledKernel>(std::move(kernel), scale);
}

std::shared_ptr<Kernel> combined(Combination how, std::vector<std::shared_ptr<Kernel>> terms) {
  return std::make_shared<CombinedKernel>(how, std::move(terms));
}

}  // namespace kexp::algebra
