// nystrom_ridge: kernel ridge regression on m centres (the subset of regressors, Nyström's
// approximation), a solver that reaches the kernel itself (flags::kernel_inputs): kexp
// builds no n × n Gram matrix for it, and it evaluates only the blocks it needs.
//
// With C the m centres, drawn from the training points without replacement, the model is
// f(x) = Σⱼ αⱼ k(cⱼ, x), and α minimizes ‖y − K_nm α‖² + λ αᵀK_mm α:
//   (K_nmᵀK_nm + λ K_mm) α = K_nmᵀy,
// an m × m system (Smola & Schölkopf, 2000; Williams & Seeger, 2001). Its cost is
// K_nm (n·m kernel values) and 2n·m² flops, its memory n·m, against kernel ridge's n²
// and n³/3. With every training point a centre (m = n) it is kernel ridge: (K² + λK)α = Ky
// gives α = (K + λI)⁻¹y.
#include <kexp/kexp.hpp>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <numeric>
#include <random>
#include <string>
#include <vector>

namespace {

class NystromRidge final : public kexp::Solver {
 public:
  explicit NystromRidge(const kexp::Params& p)
      : lambda_(p.real("lambda")),
        m_(static_cast<std::size_t>(p.integer("m"))),
        seed_(static_cast<std::uint64_t>(p.integer("seed"))) {}

  // What the memory budget counts instead of K: K_nm, the m × m system and K_mm, the
  // centres, and at prediction K(X*, C).
  double memory_bytes(std::size_t n, std::size_t m_test, std::size_t d) const override {
    const double m = static_cast<double>(std::min(m_, n));
    return 8.0 * (static_cast<double>(n) * m + 2.0 * m * m + m * static_cast<double>(d) +
                  static_cast<double>(m_test) * m + m);
  }

  // The most fit() takes: K_nm and K_mm, K_nmᵀK_nm, K_nmᵀy, the Cholesky and its solves.
  double fit_flops_bound(std::size_t n, std::size_t d, const kexp::Kernel* kernel) const override {
    if (kernel == nullptr) return -1;
    const std::size_t c = std::min(m_, n);
    const double m = static_cast<double>(c), x = static_cast<double>(n);
    return kernel->gram_flops(n, c, d) + kernel->gram_flops(c, c, d) + 2.0 * x * m * m +
           2.0 * x * m + m * m * m / 3.0 + 4.0 * m * m;
  }

  void fit(const kexp::TrainingData& data, kexp::SolverReport& report) override {
    const arma::mat& X = *data.inputs;  // d × n: the training points, not K
    const arma::vec& y = *data.targets;
    const kexp::Kernel& k = *data.kernel;
    const std::size_t n = X.n_cols;
    if (m_ > n) {
      throw kexp::InvalidArgument("nystrom_ridge with m = " + std::to_string(m_) +
                                  " centres needs as many training points, and there are " +
                                  std::to_string(n) + "; lower m");
    }
    // m distinct training points, drawn with the plugin's own seed
    std::vector<arma::uword> order(n);
    std::iota(order.begin(), order.end(), arma::uword{0});
    std::mt19937_64 rng(seed_);
    std::shuffle(order.begin(), order.end(), rng);
    centres_ = X.cols(arma::uvec(std::vector<arma::uword>(order.begin(), order.begin() + m_)));

    arma::mat K_nm, A;
    k.gram(X, centres_, K_nm);  // n × m, evaluated by the kernel plugin
    k.gram(centres_, A);        // K_mm, m × m
    A *= lambda_;
    A += K_nm.t() * K_nm;  // K_nmᵀK_nm + λK_mm
    alpha_ = K_nm.t() * y;
    if (!arma::solve(alpha_, A, arma::vec(alpha_), arma::solve_opts::likely_sympd)) {
      throw kexp::NumericError(
          "K_nmᵀK_nm + λK_mm is singular: the kernel is not positive definite on the centres, "
          "or λ is too small; use a PSD kernel, a larger lambda or fewer centres");
    }
    report.fitted = K_nm * alpha_;  // train_rmse without another kernel evaluation
    const double nn = static_cast<double>(n), m = static_cast<double>(m_);
    report.fit_flops = k.gram_flops(n, m_, X.n_rows) + k.gram_flops(m_, m_, X.n_rows) +
                       2.0 * nn * m * m + 4.0 * nn * m + m * m * m / 3.0 + 2.0 * m * m;
    report.matrix_bytes = 8.0 * (nn * m + m * m);
  }

  kexp::Prediction predict(const kexp::TestData& data, kexp::SolverReport& report) const override {
    arma::mat K_tm;
    data.kernel->gram(*data.inputs, centres_, K_tm);  // K(X*, C), m_test × m
    kexp::Prediction p;
    p.mean = K_tm * alpha_;
    report.predict_flops = data.kernel->gram_flops(data.inputs->n_cols, m_, centres_.n_rows) +
                           2.0 * static_cast<double>(K_tm.n_elem);
    return p;
  }

 private:
  double lambda_;
  std::size_t m_;
  std::uint64_t seed_;
  arma::mat centres_;
  arma::vec alpha_;
};

constexpr kexp::ParamSpec kParams[] = {
    kexp::param::real("lambda", "1e-3", "ridge penalty λ in (K_nmᵀK_nm + λK_mm)α = K_nmᵀy")
        .greater_than(0)
        .log_scale(),
    kexp::param::integer("m", "100", "centres, drawn from the training points").at_least(1),
    kexp::param::integer("seed", "0", "seed of the draw of the centres").at_least(0),
};

constexpr kexp::PluginInfo kInfo = kexp::PluginInfo{
    "nystrom_ridge", "0.1.0",
    "kernel ridge on m centres (subset of regressors): (K_nmᵀK_nm + λK_mm)α = K_nmᵀy", kParams,
    kexp::flags::dual | kexp::flags::kernel_inputs | kexp::flags::needs_psd};

}  // namespace

KEXP_PLUGIN(NystromRidge, kInfo)
