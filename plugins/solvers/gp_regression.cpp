// gp_regression: Gaussian process regression with Gaussian noise.
//
// Prior f ~ GP(0, k), targets tᵢ = f(xᵢ) + εᵢ with εᵢ ~ N(0, β⁻¹), β⁻¹ = `noise`. With
// C = K + β⁻¹I the predictive distribution at x* has (Bishop, Pattern Recognition and
// Machine Learning, §6.4.2; Rasmussen & Williams, Gaussian Processes for Machine
// Learning, Algorithm 2.1)
//
//   mean    m(x*) = kᵀC⁻¹t,               k = k(X, x*),
//   var f   σ²_f(x*) = k(x*, x*) − kᵀC⁻¹k,
//   var t   σ²_t(x*) = σ²_f(x*) + β⁻¹,
//
// and the data the log marginal likelihood
//
//   log p(t) = −½ tᵀC⁻¹t − ½ log det C − (n/2) log 2π,
//
// reported as the metric `log_marginal_likelihood`. The mean is kernel_ridge's predictor
// with λ = β⁻¹. C = LLᵀ by Cholesky, in place on K when the runner allows it.
// Fit n³/3 + O(n²) flops; prediction 2n per point for the mean and n² more for the
// variance (one triangular solve L⁻¹k per point, on an n × m copy of K(X, X*)).
#include <kexp/kexp.hpp>

#include <cmath>

namespace {

class GaussianProcessRegression final : public kexp::Solver {
 public:
  explicit GaussianProcessRegression(const kexp::Params& p) : noise_(p.real("noise")) {}

  void fit(const kexp::TrainingData& data, kexp::SolverReport& report) override {
    const arma::vec& t = *data.targets;
    const double n = static_cast<double>(data.gram->n_rows);
    if (data.gram_writable) {
      // Factor K in place: the factor lives in the runner's matrix, which stays valid
      // until this cell's predictions are made.
      factor_ = data.gram;
    } else {
      own_factor_.set_size(data.gram->n_rows, data.gram->n_cols);
      kexp::advise_huge_pages(own_factor_);
      own_factor_ = *data.gram;
      factor_ = &own_factor_;
      report.matrix_bytes += 8.0 * n * n;
    }
    arma::mat& L = *factor_;
    kexp::linalg::cholesky_shifted_in_place(L, noise_, {"C = K + noise·I", "noise", "noise"});
    weights_ = t;
    kexp::linalg::cholesky_solve(L, weights_);  // C⁻¹t
    const double log_det = kexp::linalg::cholesky_log_det(L);
    const double lml =
        -0.5 * arma::dot(t, weights_) - 0.5 * log_det - 0.5 * n * std::log(2.0 * arma::datum::pi);
    report.metrics.emplace_back("log_marginal_likelihood", lml);
    // Kα = (C − noise·I)α = t − noise·α.
    report.fitted = t - noise_ * weights_;
    report.fit_flops += n * n * n / 3.0 + 2.0 * n * n + 4.0 * n;
  }

  kexp::Prediction predict(const kexp::TestData& data, kexp::SolverReport& report) const override {
    const arma::mat& Ks = *data.gram;
    const double n = static_cast<double>(Ks.n_rows), m = static_cast<double>(Ks.n_cols);
    kexp::Prediction p;
    p.mean = Ks.t() * weights_;
    report.predict_flops += 2.0 * n * m;
    if (data.gram_diagonal == nullptr) return p;
    // V = L⁻¹K(X, X*); kᵀC⁻¹k = ‖L⁻¹k‖², column by column.
    const arma::mat V = arma::solve(arma::trimatl(*factor_), Ks, arma::solve_opts::fast);
    report.matrix_bytes += 8.0 * n * m;
    p.var_f = *data.gram_diagonal - arma::sum(arma::square(V), 0).t();
    p.var_f.transform([](double v) { return v > 0 ? v : 0.0; });  // rounding below zero
    p.var_y = p.var_f + noise_;
    report.predict_flops += n * n * m + 2.0 * n * m;
    return p;
  }

 private:
  double noise_;
  arma::mat own_factor_;
  arma::mat* factor_ = nullptr;
  arma::vec weights_;  ///< C⁻¹t
};

constexpr kexp::ParamSpec kParams[] = {
    kexp::param::real("noise", "1e-2", "noise variance β⁻¹ on the targets: C = K + β⁻¹I")
        .greater_than(0)
        .log_scale(),
};

constexpr const char* kMetrics[] = {"log_marginal_likelihood"};

constexpr kexp::PluginInfo kInfo =
    kexp::PluginInfo{"gp_regression", "1.0.0",
                     "GP regression: mean kᵀC⁻¹t, variance k(x,x) − kᵀC⁻¹k (+ noise), "
                     "C = K + noise·I",
                     kParams,
                     kexp::flags::dual | kexp::flags::needs_psd | kexp::flags::predictive_variance |
                         kexp::flags::keeps_gram | kexp::flags::lower_triangle}
        .with_metrics(kMetrics);

}  // namespace

KEXP_PLUGIN(GaussianProcessRegression, kInfo)
