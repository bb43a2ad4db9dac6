// Kernel and FeatureMap: the interfaces a kernel plugin implements.
//
// Samples are columns (Armadillo's column-major layout): X is d × n. A kernel computes
// k(x, z), Gram blocks K(X, Z) with Kᵢⱼ = k(xᵢ, zⱼ), and says whether its Gram matrices
// are positive semi-definite for the parameters it holds. A kernel with an explicit
// feature map φ (exact, ⟨φ(x), φ(z)⟩ = k(x, z), or approximate) exposes it through
// feature_map(); the primal solvers train on Φ = [φ(x₁) … φ(xₙ)], D × n.
//
// A kernel may learn from the training data (flags::fitted, Kernel::fit): it is then
// fitted once per dataset variant, repeat and validation split, on the training part
// only, before it computes anything. The other kernels are fixed functions of their
// parameters and never see fit().
//
// A kernel may expose its positive real parameters as hyperparameters (learnable()): it
// then gives their values, a copy of itself with other values, and the derivatives of
// K(X, X) with respect to their logarithms, so that a solver can learn them by gradient
// (gp_regression's `optimize`, on the log marginal likelihood).
//
// A sequence kernel (flags::sequences) takes sequences in kexp/dataset.hpp's encoding:
// a column of symbol indices, −1 past the sequence's end. It learns the alphabet's size
// in fit(), and its feature map's dimension(d) reads d as that size |Σ|.
//
// The public functions check their inputs (equal dimensions, finite values) and then
// call the protected virtual compute_* functions, which may trust them.
#pragma once

#include <armadillo>
#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "kexp/export.hpp"

namespace kexp {

class FeatureMap;

/// What a kernel that learns (flags::fitted) is fitted on: the training part of one
/// dataset variant and repeat, or of one validation split. Never test points.
struct KernelFitData {
  /// What a vector kernel needs comes first: KernelFitData{&X, &y, seed}, or
  /// fit({&X, &y, seed}), as when this was a plain aggregate of those three.
  KernelFitData(  // NOLINT(google-explicit-constructor, hicpp-explicit-conversions)
      const arma::mat* X_ = nullptr, const arma::vec* y_ = nullptr, std::uint64_t seed_ = 0,
      std::size_t alphabet_size_ = 0, std::filesystem::path base_dir_ = {})
      : X(X_), y(y_), seed(seed_), alphabet_size(alphabet_size_), base_dir(std::move(base_dir_)) {}

  const arma::mat* X;  ///< d × n training inputs, a sample per column, finite
  const arma::vec* y;  ///< their n targets (±1 labels for classification)
  /// For whatever the fit draws at random (a k-means++ start): derived by the runner from
  /// the experiment seed, the dataset variant, the repeat and the split, so the same
  /// experiment fits the same kernel.
  std::uint64_t seed;
  /// |Σ| for a sequence kernel (flags::sequences): the symbols are 0 … |Σ| − 1. 0 for
  /// vectors.
  std::size_t alphabet_size;
  /// The folder that relative paths in the kernel's parameters are resolved against (the
  /// config's), as for a dataset's files: an HMM read from a file.
  std::filesystem::path base_dir;
};

/// A positive real parameter of a kernel that can be learned by gradient: its name as the
/// experiment writes it ("sigma"; "sum[0].scale" inside a sum) and its value (> 0).
/// Learning works on log θ, so a hyperparameter stays positive.
struct Hyperparameter {
  std::string name;
  double value = 0;
};

/// The part of a symmetric K(X, X) a caller needs.
enum class Triangle : std::uint8_t {
  Both,   ///< all of K, exactly symmetric
  Lower,  ///< the lower triangle and the diagonal; the strict upper triangle is unspecified
};

class KEXP_API Kernel {
 public:
  virtual ~Kernel();

  /// k(x, z) for two samples of the same dimension.
  [[nodiscard]] double evaluate(const arma::vec& x, const arma::vec& z) const;

  /// K(X, Z), n × m, for X d × n and Z d × m.
  void gram(const arma::mat& X, const arma::mat& Z, arma::mat& K) const;

  /// The same, for inputs the caller has already checked (equal dimensions, every entry
  /// finite: require_finite), so that a solver asking for many small blocks of the same
  /// points does not pay a pass over them each time: svc's kernel columns, d·n values
  /// checked per column of n kernel values.
  struct InputsChecked {};
  void gram(const arma::mat& X, const arma::mat& Z, arma::mat& K, InputsChecked) const;

  /// K(X, X), n × n and symmetric.
  void gram(const arma::mat& X, arma::mat& K) const;

  /// K(X, X), of which only `part` is needed: with Triangle::Lower, for a solver that
  /// factors the lower triangle in place, the kexp::gram functions and the default
  /// compute_symmetric_gram write only the lower triangle and the diagonal (about half
  /// the memory writes, and no mirroring); a kernel that fills all of K is also right.
  void gram(const arma::mat& X, arma::mat& K, Triangle part) const;

  /// k(xᵢ, xᵢ) for each column of X.
  [[nodiscard]] arma::vec diagonal(const arma::mat& X) const;

  /// Whether every Gram matrix of this kernel, with the parameters it holds, is positive
  /// semi-definite (Mercer).
  [[nodiscard]] virtual bool positive_semidefinite() const = 0;

  /// The explicit feature map φ for these parameters, or nullptr when the kernel has
  /// no finite one. The map lives as long as the kernel.
  [[nodiscard]] virtual const FeatureMap* feature_map() const { return nullptr; }

  /// Analytic floating-point operation count of an n × m Gram block in d dimensions; for
  /// sequences d is the longest length L. Default: 2·n·m·d (one inner product or squared
  /// distance per entry).
  [[nodiscard]] virtual double gram_flops(std::size_t n, std::size_t m, std::size_t d) const;

  /// Learns the kernel's state from training data: the generative model of a Fisher or
  /// mixture kernel, the centres of a data-dependent map. Only for a kernel whose plugin
  /// declares flags::fitted; the runner then makes a kernel object of its own for each
  /// dataset variant, repeat and validation split, calls fit() once with that training
  /// part, before anything else, and uses the fitted state for training and test points
  /// alike. feature_map() must already answer before fit() (its dimension follows from
  /// the parameters) and return the same object after. Checks the data (finite, one
  /// target per sample, at least one sample) and calls compute_fit().
  void fit(const KernelFitData& data);

  /// True when the kernel implements hyperparameters(), with_hyperparameters() and
  /// compute_gram_gradient(), even with no hyperparameter at all (the linear kernel, whose
  /// scale a sum learns). Default: false, and a solver that learns refuses the kernel.
  [[nodiscard]] virtual bool learnable() const { return false; }

  /// The hyperparameters, in a fixed order. Default: none.
  [[nodiscard]] virtual std::vector<Hyperparameter> hyperparameters() const { return {}; }

  /// The same kernel with its hyperparameters set to `values` (in the order of
  /// hyperparameters(); every other parameter kept). Checks that the kernel is learnable,
  /// the count and that every value is finite and positive; calls
  /// compute_with_hyperparameters().
  [[nodiscard]] std::unique_ptr<Kernel> with_hyperparameters(const arma::vec& values) const;

  /// dK, n × n × p: slice j is ∂K(X, X)/∂ log θⱼ = θⱼ·∂K/∂θⱼ for the p hyperparameters,
  /// each slice exactly symmetric. Checks that the kernel is learnable and X is finite.
  void gram_gradient(const arma::mat& X, arma::cube& dK) const;

 protected:
  /// Learns from `data`, whose inputs are checked. Default: nothing to learn.
  virtual void compute_fit(const KernelFitData& data);

  /// k(x, z); x and z have the same dimension and finite entries.
  [[nodiscard]] virtual double compute(const arma::vec& x, const arma::vec& z) const = 0;

  /// Fills K (already sized n × m). Default: compute() on every pair.
  virtual void compute_gram(const arma::mat& X, const arma::mat& Z, arma::mat& K) const;

  /// Fills the symmetric K (already sized n × n). K must come out exactly symmetric
  /// (compute one triangle and mirror it, as the default and kexp::gram do): solvers
  /// rely on it to restore K from one triangle. Default: compute() on one triangle,
  /// mirrored. When the caller asked for Triangle::Lower (gram::requested_triangle()),
  /// the kexp::gram functions and the default fill only the lower triangle: do not read
  /// the strict upper triangle of what they filled.
  virtual void compute_symmetric_gram(const arma::mat& X, arma::mat& K) const;

  /// Fills diag (already sized n). Default: compute(xᵢ, xᵢ).
  virtual void compute_diagonal(const arma::mat& X, arma::vec& diag) const;

  /// A learnable kernel's copy with these hyperparameter values (checked). Default:
  /// throws kexp::Error.
  [[nodiscard]] virtual std::unique_ptr<Kernel> compute_with_hyperparameters(
      const arma::vec& values) const;

  /// Fills dK (already sized n × n × p, zeroed) with ∂K/∂ log θⱼ. Default: throws
  /// kexp::Error.
  virtual void compute_gram_gradient(const arma::mat& X, arma::cube& dK) const;
};

class KEXP_API FeatureMap {
 public:
  virtual ~FeatureMap();

  /// D, the dimension of φ(x) for inputs of dimension d. For a sequence kernel's map, d
  /// is the alphabet's size |Σ| (a spectrum map has D = |Σ|ᵏ), whatever the lengths.
  [[nodiscard]] virtual std::size_t dimension(std::size_t d) const = 0;

  /// D for these inputs, the rows of features(X). Default: dimension(X.n_rows). A
  /// sequence kernel's map answers dimension(|Σ|) for the alphabet it was fitted on.
  [[nodiscard]] virtual std::size_t dimension_of(const arma::mat& X) const;

  /// True when ⟨φ(x), φ(z)⟩ = k(x, z) to rounding; false for an approximation
  /// (truncated series, random features).
  [[nodiscard]] virtual bool exact() const = 0;

  /// Φ = [φ(x₁) … φ(xₙ)], D × n, for X d × n.
  void features(const arma::mat& X, arma::mat& Phi) const;

  /// Analytic floating-point operation count of features() for n samples in d
  /// dimensions; for sequences d is the longest length L. Default: D·n.
  [[nodiscard]] virtual double flops(std::size_t n, std::size_t d) const;

 protected:
  /// Fills Phi (already sized D × n); X has finite entries.
  virtual void compute_features(const arma::mat& X, arma::mat& Phi) const = 0;
};

/// Throws kexp::InvalidArgument unless every entry of X is finite; `what` names X in the
/// message ("X", "Z", …).
KEXP_API void require_finite(const arma::mat& X, const char* what);

namespace detail {

/// Whether `kernel` overrides Kernel::compute_fit(), for the runner's check that such a
/// kernel declares flags::fitted: fits it on four points in two dimensions and sees
/// whether the default compute_fit() ran (it marks that it did). A compute_fit() that
/// throws overrides it. Use a kernel object made for this only: it may be fitted after.
/// An override that ends by calling Kernel::compute_fit() is not seen.
KEXP_API bool overrides_compute_fit(Kernel& kernel);

/// The flops (Kernel::gram_flops) of every block of K and every diagonal this process has
/// computed through Kernel::gram and Kernel::diagonal, on any thread, counting a call made
/// inside another (a sum's terms) once with the outer one. The runner reads it before and
/// after a fit and a prediction of a solver that reaches the kernel (flags::kernel_inputs):
/// the cell's flops are at least what its kernel evaluations took, whatever the solver
/// reports.
KEXP_API double kernel_flops_counted();

}  // namespace detail

}  // namespace kexp
