// falkon: Nyström kernel ridge regression by preconditioned conjugate gradients (Rudi,
// Carratino and Rosasco 2017, "FALKON: An Optimal Large Scale Kernel Method", Alg. 1;
// Meanti et al. 2020)
//
//   minimise over α ∈ Rᵐ   (1/n)‖y − K_nm α‖² + λ αᵀ K_mm α,
//   i.e.  (K_nmᵀ K_nm + λ n K_mm) α = K_nmᵀ y,     f(x) = Σⱼ αⱼ k(cⱼ, x),
//
// with m centres cⱼ drawn uniformly without replacement from the training points (a seeded
// partial Fisher–Yates shuffle). λ is per sample, as in the papers: with every training
// point a centre, α = (K + λnI)⁻¹ y, kernel_ridge's solution with its λ = n·λ here.
//
// Preconditioner: T = chol(K_mm + εmI) and A = chol(TTᵀ/m + λI), upper triangular (ε the
// machine epsilon, raised tenfold until the Cholesky succeeds; both kept as their lower
// transposes and applied by triangular solves), and conjugate gradients on
//   A⁻ᵀ(T⁻ᵀ K_nmᵀ K_nm T⁻¹ A⁻¹ β / n + λ A⁻¹ β) = A⁻ᵀ T⁻ᵀ K_nmᵀ y / n,   α = T⁻¹ A⁻¹ β,
// which is close to the identity when the centres span the data, so a few iterations
// suffice. K_nmᵀ(K_nm u + v) is streamed over tiles of rows of K_nm (about 2¹⁸ values,
// 2 MiB, each) on every thread (gram::normal_product): memory O(m² + n), never n·m, and
// each iteration costs one pass of n·m kernel evaluations. Fit O(n·m·t + m³), prediction
// O(m) per point.
//
// precision: mixed — as Falkon runs on GPUs: the kernel values of K_nm (each pass) and of
// K(X*, C) (the predictions) in float32 tiles, from float32 copies of the points and the
// centres (kexp/single.hpp: the kernel's device form over SGEMM blocks, or its float64
// Gram rounded where it has none); each tile's products, the conjugate-gradient state and
// the preconditioner in float64 (its K_mm too: the Falkon authors found its float32
// Cholesky loses positive definiteness). Where K_mm has a pivot below float32's resolution
// of a kernel value, the jitter is raised to εm = 2⁻²³·max k(c, c) (the metric jitter
// records it); elsewhere mixed keeps float64's jitter, and so float64's model.
//
// device: cuda or host — the same centres, preconditioner and conjugate gradients (in
// double on the host), with X, the centres and both factors in device memory: K_mm and its
// Cholesky by potrf, the triangular solves by trsv, and each K_nmᵀ(K_nm u + v) streamed
// over blocks of rows of K_nm sized from the free device memory, all on the building
// blocks of kexp/device.hpp. cuda runs it on an NVIDIA GPU, host on the CPU (the host
// backend). The copies between host and device are the metric transfer_seconds (0 on the
// CPU).
#include <fmt/format.h>
#include <kexp/kexp.hpp>

#include <algorithm>
#include <cmath>
#include <functional>
#include <limits>
#include <memory>
#include <numeric>
#include <optional>
#include <random>
#include <vector>

#include "common/conjugate_gradients.hpp"
#include "common/device_path.hpp"

namespace {

/// float32's machine epsilon, 2⁻²³: the relative rounding of a float32 kernel value.
constexpr double kFloat32Epsilon = 0x1p-23;

class Falkon final : public kexp::Solver, public kexp::DeviceMemory {
 public:
  explicit Falkon(const kexp::Params& p)
      : lambda_(p.real("lambda")),
        m_(static_cast<std::size_t>(p.integer("m"))),
        iterations_(p.integer("iterations")),
        tolerance_(p.real("tolerance")),
        seed_(static_cast<std::uint64_t>(p.integer("seed"))),
        device_(p),
        on_device_(device_.on_device()),
        mixed_(kexp::ExecutionTarget::of(p).precision == kexp::Precision::Mixed) {
    device_.require_float64("falkon", !mixed_);
  }

  double memory_bytes(std::size_t n, std::size_t m, std::size_t d) const override {
    const double c = static_cast<double>(std::min(m_, n));
    // two m × m factors; the centres; n-vectors of the products; the predictions; the
    // m-vectors of conjugate gradients and the best β so far; the
    // tiles of K_nm of each thread in a pass, or of K(X*, C) at prediction
    // on the GPU the host holds the centres and the vectors only
    // (and, on the host backend, the device memory too)
    if (on_device_) {
      return device_.host_bytes(8.0 * (c * static_cast<double>(d) + 3.0 * static_cast<double>(n) +
                                       static_cast<double>(m) + 9.0 * c),
                                device_memory_bytes(n, m, d));
    }
    const double tiles = std::max(kexp::gram::normal_product_bytes(n, std::min(m_, n)),
                                  kexp::gram::product_block_bytes(m, std::min(m_, n)));
    // in mixed precision float32 copies of the points and the centres (float32 tiles have
    // float64's bytes)
    const double copies = mixed_ ? 4.0 * static_cast<double>(n + m) * static_cast<double>(d) +
                                       4.0 * c * static_cast<double>(d)
                                 : 0.0;
    return 8.0 * (2.0 * c * c + c * static_cast<double>(d) + 3.0 * static_cast<double>(n) +
                  static_cast<double>(m) + 9.0 * c) +
           copies + tiles;
  }

  /// On the GPU: the points, the centres, K_mm and both factors and a block of K_nm at its
  /// smallest at the fit; the centres and a block of K(X*, C) at prediction.
  double device_memory_bytes(std::size_t n, std::size_t m, std::size_t d) const override {
    if (!on_device_) return 0.0;
    const std::size_t c = std::min(m_, n);
    return std::max(kexp::device::nystrom_least_bytes(n, c, d),
                    kexp::device::product_least_bytes(c, m, d));
  }

  /// K_mm and its two factors, then every iteration's pass over K_nm and as many checks of
  /// the true residual, each another pass.
  double fit_flops_bound(std::size_t n, std::size_t d, const kexp::Kernel* kernel) const override {
    if (kernel == nullptr) return -1;
    const std::size_t c = std::min(m_, n);
    const double m = static_cast<double>(c), x = static_cast<double>(n);
    const double it = static_cast<double>(iterations_);
    return kernel->gram_flops(c, c, d) + 2.0 * m * m * m / 3.0 +
           (2.0 * it + 2.0) * (kernel->gram_flops(n, c, d) + 4.0 * x * m) +
           (2.0 * it + 1.0) * 4.0 * m * m;
  }

  void fit(const kexp::TrainingData& data, kexp::SolverReport& report) override {
    const arma::mat& X = *data.inputs;
    const arma::vec& y = *data.targets;
    const kexp::Kernel& k = *data.kernel;
    const std::size_t n = X.n_cols, d = X.n_rows;
    if (m_ > n) {
      throw kexp::InvalidArgument(fmt::format(
          "falkon with m = {} centres needs at least {} training points, and the training part "
          "has {}; lower m",
          m_, m_, n));
    }
    // uniform centres without replacement
    std::vector<arma::uword> order(n);
    std::iota(order.begin(), order.end(), arma::uword{0});
    std::mt19937_64 rng(seed_);
    for (std::size_t i = 0; i < m_; ++i) {
      std::swap(order[i], order[std::uniform_int_distribution<std::size_t>(i, n - 1)(rng)]);
    }
    centres_ = X.cols(arma::uvec(std::vector<arma::uword>(order.begin(), order.begin() + m_)));
    const double m = static_cast<double>(m_), nn = static_cast<double>(n);

    const Operators ops = on_device_ ? device_operators(k, X) : cpu_operators(k, X);
    const double jitter = ops.factor();
    const auto& knm_product = ops.knm_product;
    // T⁻¹v = Lt⁻ᵀv, T⁻ᵀv = Lt⁻¹v, A⁻¹v = La⁻ᵀv, A⁻ᵀv = La⁻¹v
    const bool Lt = true, La = false;
    const auto& solve = ops.solve;
    const arma::vec zeros_n(n, arma::fill::zeros), zeros_m(m_, arma::fill::zeros);
    const auto preconditioned = [&](const arma::vec& u) -> arma::vec {
      const arma::vec a_u = solve(La, u, true);
      const arma::vec inner = solve(Lt, knm_product(solve(Lt, a_u, true), zeros_n) / nn, false);
      return solve(La, inner + lambda_ * a_u, false);
    };
    const arma::vec b = solve(La, solve(Lt, knm_product(zeros_m, y / nn), false), false);

    // conjugate gradients from β = 0, judged by the true residual b − Hβ (one more pass
    // over K_nm each time the recurrence says it is small; common/conjugate_gradients.hpp)
    const kexp_solvers::ConjugateGradients cg =
        kexp_solvers::conjugate_gradients(preconditioned, b, tolerance_, iterations_);
    alpha_ = solve(Lt, solve(La, cg.x, true), true);
    const auto it = static_cast<double>(cg.iterations), checks = static_cast<double>(cg.checks);

    report.iterations = cg.iterations;
    report.converged = cg.converged;
    report.metrics.emplace_back("relative_residual", cg.residual);
    report.metrics.emplace_back("jitter", jitter);
    report.metrics.emplace_back("transfer_seconds", transfers_.seconds);
    if (mixed_) report.metrics.emplace_back("gram_converted", gram_converted_ ? 1.0 : 0.0);
    // K_mm and two Cholesky factors, then per iteration one pass over K_nm (two products)
    report.fit_flops = k.gram_flops(m_, m_, d) + 2.0 * m * m * m / 3.0 +
                       (it + 1 + checks) * (k.gram_flops(n, m_, d) + 4.0 * nn * m) +
                       (it + checks) * 4.0 * m * m;
    report.matrix_bytes = memory_bytes(n, 0, d);
  }

  kexp::Prediction predict(const kexp::TestData& data, kexp::SolverReport& report) const override {
    kexp::Prediction p;
    // f(X*) = K(X*, C) α
    if (on_device_) {
      kexp::device::Backend& backend = device_.backend();
      kexp::device::Transfers transfers;
      const kexp::device::Points centres(backend, centres_, transfers);
      p.mean = kexp::device::predict(backend, program_, centres, *data.inputs, alpha_, transfers);
      kexp_solvers::add_transfer_seconds(report, transfers.seconds);
    } else if (mixed_) {
      kexp::gram::product(*data.kernel, arma::conv_to<arma::fmat>::from(*data.inputs),
                          arma::conv_to<arma::fmat>::from(centres_), alpha_, p.mean);
    } else {
      kexp::gram::product(*data.kernel, *data.inputs, centres_, alpha_, p.mean);
    }
    report.predict_flops = data.kernel->gram_flops(data.inputs->n_cols, m_, centres_.n_rows) +
                           2.0 * static_cast<double>(data.inputs->n_cols * m_);
    return p;
  }

 private:
  /// What the method does with K_mm and K_nm, on the CPU or on the GPU: factor() forms
  /// Lt = chol(K_mm + εmI) and La = chol(LtᵀLt/m + λI) (both lower) and returns ε;
  /// solve(of_t, v, transpose) is Lt⁻¹v or La⁻¹v, transposed on request; knm_product(u, v)
  /// is K_nmᵀ(K_nm u + v).
  struct Operators {
    std::function<double()> factor;
    std::function<arma::vec(bool, arma::vec, bool)> solve;
    std::function<arma::vec(const arma::vec&, const arma::vec&)> knm_product;
  };

  /// T (upper, K_mm + εmI = TᵀT) and A (upper, TTᵀ/m + λI = AᵀA) are kept as their lower
  /// transposes Lt = Tᵀ and La = Aᵀ, factored in place: at most two m × m matrices at
  /// once, and every solve by LAPACK's dtrtrs on the factor itself, without a copy.
  Operators cpu_operators(const kexp::Kernel& k, const arma::mat& X) {
    auto Lt = std::make_shared<arma::mat>(), La = std::make_shared<arma::mat>();
    Operators ops;
    ops.factor = [this, &k, Lt, La] {
      const double m = static_cast<double>(m_);
      k.gram(centres_, *Lt);
      const arma::vec diagonal = Lt->diag();
      double jitter = std::numeric_limits<double>::epsilon();
      const auto factor_with_jitter = [&] {
        for (;;) {
          Lt->diag() = diagonal + jitter * m;
          if (kexp::linalg::cholesky_in_place(*Lt) == 0) return;
          kexp::linalg::symmetrize_from_upper(*Lt);  // K_mm again, from its upper triangle
          jitter *= 10;
          if (jitter > 1e-2) {
            throw kexp::NumericError(
                "falkon: K_mm + εmI has no Cholesky factor even with ε = 1e-2; is the kernel "
                "PSD?");
          }
        }
      };
      factor_with_jitter();
      // In mixed precision T⁻¹ multiplies float32 kernel values, each off by up to
      // ε₃₂·max k(c, c). A pivot of T below that (a centre that float32 cannot tell from
      // the span of the others) gives T⁻¹ entries that turn this rounding into garbage:
      // such a K_mm is factored again with εm = ε₃₂·max k(c, c), every pivot² above it.
      // Where no pivot is that small, mixed keeps float64's jitter, and float64's model.
      if (mixed_) {
        const double floor = kFloat32Epsilon * diagonal.max();
        if (arma::min(arma::square(Lt->diag())) < floor && jitter * m < floor) {
          kexp::linalg::symmetrize_from_upper(*Lt);
          jitter = floor / m;
          factor_with_jitter();
        }
      }
      for (arma::uword j = 1; j < m_; ++j) {
        std::fill(Lt->colptr(j), Lt->colptr(j) + j, 0.0);  // Lt lower triangular
      }
      *La = Lt->t() * *Lt;  // TTᵀ
      *La /= m;
      La->diag() += lambda_;
      if (kexp::linalg::cholesky_in_place(*La) != 0) {
        throw kexp::NumericError("falkon: TTᵀ/m + λI has no Cholesky factor; raise λ");
      }
      return jitter;
    };
    ops.solve = [Lt, La](bool of_t, arma::vec v, bool transpose) {
      kexp::linalg::lower_triangular_solve(of_t ? *Lt : *La, v, transpose);
      return v;
    };
    // streamed over tiles of rows of K_nm on every thread; in mixed precision over float32
    // tiles of float32 copies of X and the centres
    if (mixed_) {
      auto Xf = std::make_shared<arma::fmat>(arma::conv_to<arma::fmat>::from(X));
      auto Cf = std::make_shared<arma::fmat>(arma::conv_to<arma::fmat>::from(centres_));
      ops.knm_product = [this, &k, Xf, Cf](const arma::vec& u, const arma::vec& v) {
        kexp::gram::SinglePath path{};
        arma::vec w = kexp::gram::normal_product(k, *Xf, *Cf, u, v, &path);
        gram_converted_ = path == kexp::gram::SinglePath::converted;
        return w;
      };
    } else {
      ops.knm_product = [this, &k, &X](const arma::vec& u, const arma::vec& v) {
        return kexp::gram::normal_product(k, X, centres_, u, v);
      };
    }
    return ops;
  }

  /// Falkon's state on the device: the points X and the centres C resident, with K_mm and
  /// the factors Lt, La of the preconditioner; K_nm is never stored whole, every product
  /// streams blocks of its rows sized to the free device memory (kexp::device::StreamedGram).
  struct DeviceNystrom {
    DeviceNystrom(kexp::device::Backend& b, const kexp::FormulaProgram& kernel, const arma::mat& X,
                  const arma::mat& C, kexp::device::Transfers& t)
        : backend(b),
          transfers(t),
          program(kernel),
          n(X.n_cols),
          m(C.n_cols),
          points(b, X, t),
          centres(b, C, t),
          Kmm(b, m * m),
          diagonal(b, m),
          u(b, m),
          v(b, n),
          out(b, m),
          Lt(b, m),
          La(b, m),
          knm(b, kernel, points, centres, "a block of 256 rows of K_nm") {}

    /// Lt = chol(K_mm + εmI), raising ε = machine epsilon tenfold until it factors, and
    /// La = chol(LtᵀLt/m + λI), both lower; returns ε.
    double factor(double lambda) {
      namespace dev = kexp::device;
      const double mm = static_cast<double>(m);
      dev::shifted_gram(backend, program, centres, 0.0, Kmm.data());  // its lower triangle
      backend.get_diagonal(Kmm.data(), m, m, diagonal.data());
      double jitter = std::numeric_limits<double>::epsilon();
      for (;;) {
        backend.copy_on_device(Lt.matrix(), Kmm.data(), m * m);
        backend.set_diagonal(Lt.matrix(), m, m, diagonal.data(), jitter * mm);
        if (Lt.factor() == 0) break;
        jitter *= 10;
        if (jitter > 1e-2) {
          throw kexp::NumericError(
              "falkon: K_mm + εmI has no Cholesky factor even with ε = 1e-2; is the kernel "
              "PSD?");
        }
      }
      backend.lower_only(Lt.matrix(), m, m, 0.0);  // syrk below reads all of Lt
      backend.syrk(dev::Op::transpose, m, m, 1.0 / mm, Lt.matrix(), m, 0.0, La.matrix(), m);
      backend.lower_only(La.matrix(), m, m, lambda);
      if (La.factor() != 0) {
        throw kexp::NumericError("falkon: TTᵀ/m + λI has no Cholesky factor; raise λ");
      }
      return jitter;
    }

    /// L⁻¹w, or L⁻ᵀw with `transpose`, for L = Lt (`of_t`) or La.
    arma::vec solve(bool of_t, const arma::vec& w, bool transpose) {
      kexp::device::upload(backend, u.data(), w.memptr(), m, transfers);
      (of_t ? Lt : La).lower_solve(u.data(), 1, transpose);
      return kexp::device::download(backend, u, m, transfers);
    }

    /// K_nmᵀ(K_nm a + w) for a of m and w of n entries.
    arma::vec normal_product(const arma::vec& a, const arma::vec& w) {
      kexp::device::upload(backend, u.data(), a.memptr(), m, transfers);
      if (arma::any(w)) {
        kexp::device::upload(backend, v.data(), w.memptr(), n, transfers);
      } else {
        backend.set_zero(v.data(), n);
      }
      knm.normal_product(u.data(), v.data(), out.data());
      return kexp::device::download(backend, out, m, transfers);
    }

    kexp::device::Backend& backend;
    kexp::device::Transfers& transfers;
    kexp::FormulaProgram program;
    std::size_t n, m;
    kexp::device::Points points, centres;
    kexp::device::Buffer Kmm, diagonal, u, v, out;
    kexp::device::Cholesky Lt, La;
    kexp::device::StreamedGram knm;
  };

  /// The same on the device, from the kernel's program (the runner has checked that it
  /// has one). Refuses, with the figures, what does not fit the free device memory.
  Operators device_operators(const kexp::Kernel& k, const arma::mat& X) {
    program_ = kexp_solvers::device_program(k, "falkon");
    transfers_ = {};
    kexp::device::Backend& backend = device_.backend();
    kexp::device::require_memory(
        backend, kexp::device::nystrom_least_bytes(X.n_cols, centres_.n_cols, X.n_rows),
        "X, the centres, K_mm and two m × m factors, and a block of 256 rows of K_nm");
    auto gpu = std::make_shared<DeviceNystrom>(backend, program_, X, centres_, transfers_);
    Operators ops;
    ops.factor = [this, gpu] { return gpu->factor(lambda_); };
    ops.solve = [gpu](bool of_t, const arma::vec& v, bool transpose) {
      return gpu->solve(of_t, v, transpose);
    };
    ops.knm_product = [gpu](const arma::vec& u, const arma::vec& v) {
      return gpu->normal_product(u, v);
    };
    return ops;
  }

  double lambda_;
  std::size_t m_;
  long iterations_;
  double tolerance_;
  std::uint64_t seed_;
  kexp_solvers::DeviceSetting device_;
  bool on_device_;                     ///< the device code path (cuda or host)
  bool mixed_;                         ///< precision: mixed
  bool gram_converted_ = false;        ///< mixed: K_nm's float32 tiles were rounded from float64
  kexp::FormulaProgram program_;       ///< on the GPU: the kernel's program (kexp::device_formula)
  kexp::device::Transfers transfers_;  ///< on the GPU: the copies of the last fit
  arma::mat centres_;
  arma::vec alpha_;
};

constexpr kexp::ParamSpec kParams[] = {
    kexp::param::real("lambda", "1e-6",
                      "ridge λ per sample: (K_nmᵀK_nm + λn K_mm)α = K_nmᵀy (kernel_ridge's λ "
                      "is n times this)")
        .greater_than(0)
        .log_scale(),
    kexp::param::integer("m", "1000", "number of Nyström centres, uniform from the training points")
        .at_least(1)
        .log_scale(),
    kexp::param::integer("iterations", "20", "most conjugate-gradient iterations").at_least(1),
    kexp::param::real("tolerance", "1e-10",
                      "stop when the preconditioned residual falls below this times its start")
        .greater_than(0),
    kexp::param::integer("seed", "0", "seed of the centres").at_least(0),
    kexp::target::device("cpu|cuda|host",
                         "where K_nm is streamed and the preconditioner factored: cpu, or cuda "
                         "(an NVIDIA GPU, float64); host: the device code path on the CPU (the "
                         "host backend: for testing the device path without a GPU)"),
    kexp::target::precision("double|mixed",
                            "K_nm's kernel values and products in float64; or in float32 tiles "
                            "added in float64, with conjugate gradients and the preconditioner in "
                            "float64"),
};
constexpr const char* kMetrics[] = {"relative_residual", "jitter", "transfer_seconds",
                                    "gram_converted"};
constexpr kexp::PluginInfo kInfo =
    kexp::PluginInfo("falkon", "1.2.0",
                     "(K_nmᵀK_nm + λn K_mm)α = K_nmᵀy over m uniform Nyström centres, by conjugate "
                     "gradients preconditioned with T = chol(K_mm), A = chol(TTᵀ/m + λI); "
                     "f(x) = Σ αⱼ k(cⱼ, x)",
                     kParams,
                     kexp::flags::dual | kexp::flags::kernel_inputs | kexp::flags::needs_psd |
                         kexp::flags::iterative)
        .with_metrics(kMetrics);

}  // namespace

KEXP_PLUGIN(Falkon, kInfo)
