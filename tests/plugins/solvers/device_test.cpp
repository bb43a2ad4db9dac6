// The five solvers with a device code path (kernel_ridge, falkon, cg_ridge, gp_regression,
// primal_ridge) on each device backend against the same solvers on the CPU: the
// predictions agree to 1e-9 relative in float64 for every device kernel and composite, and
// the transfers are a metric of their own. Every test runs on the host backend (`device:
// host`) everywhere, and again on the CUDA backend where a GPU is present (skipped
// otherwise, saying why); on the host backend with a small memory limit
// (KEXP_HOST_DEVICE_MEMORY) they also stream over several blocks and refuse, with the
// figures, what does not fit. Without a GPU one test checks that a cuda cell fails saying
// why (the driver's words, or the build's) rather than aborting.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <memory>
#include <string>
#include <vector>

#include "kernel_algebra/composite_kernel.hpp"
#include "kexp/device.hpp"
#include "plugins/solvers/solver_problems.hpp"
#include "support/host_device_memory.hpp"
#include "support/plugins.hpp"

namespace kexp::test {
namespace {

using ::testing::HasSubstr;

struct Named {
  std::string name;
  std::shared_ptr<Kernel> kernel;
};

std::vector<Named> psd_device_kernels() {
  using algebra::Combination;
  const auto gaussian = make_kernel("gaussian", {{"sigma", "0.8"}});
  const auto laplacian = make_kernel("laplacian", {{"sigma", "1.5"}});
  const auto poly = make_kernel("polynomial", {{"degree", "2"}, {"c", "1"}});
  const auto linear = make_kernel("linear");
  const auto constant = make_kernel("constant", {{"c", "0.5"}});
  return {
      {"gaussian", gaussian},
      {"laplacian", laplacian},
      {"polynomial", poly},
      {"linear", linear},
      {"constant", constant},
      {"scaled sum", algebra::combined(Combination::Sum, {algebra::scaled(gaussian, 2.0), constant,
                                                          algebra::scaled(linear, 0.1)})},
      {"product", algebra::combined(Combination::Product, {laplacian, poly})},
  };
}

double relative_difference(const arma::vec& got, const arma::vec& want) {
  return arma::norm(got - want, "inf") / std::max(1e-300, arma::norm(want, "inf"));
}

double metric(const SolverReport& report, const std::string& name) {
  for (const auto& [n, v] : report.metrics)
    if (n == name) return v;
  return -1;
}

/// A test of the device code path, run once per backend: `device: host` everywhere, and
/// `device: cuda` where there is a GPU.
class DeviceSolvers : public ::testing::TestWithParam<std::string> {
 protected:
  void SetUp() override {
    if (GetParam() == "cuda" && !device::gpu_info().present) {
      GTEST_SKIP() << "no GPU: " << device::gpu_info().reason;
    }
  }
  [[nodiscard]] const std::string& backend() const { return GetParam(); }
};

TEST_P(DeviceSolvers, KernelRidgeOnTheDevicePredictsAsOnTheCpu) {
  const Problem p = make_problem(3, 600, 200, 4);
  for (const Named& k : psd_device_kernels()) {
    auto cpu = make_solver("kernel_ridge", {{"lambda", "0.05"}});
    auto gpu = make_solver("kernel_ridge", {{"lambda", "0.05"}, {"device", backend()}});
    arma::mat K, K_cross;
    k.kernel->gram(p.X, K);
    k.kernel->gram(p.X, p.Xt, K_cross);
    const FitResult want = run_dual(*cpu, K, K_cross, k.kernel->diagonal(p.Xt), p.y);
    const FitResult got = run_reaching(*gpu, *k.kernel, p);
    EXPECT_LT(relative_difference(got.prediction.mean, want.prediction.mean), 1e-9) << k.name;
    EXPECT_LT(relative_difference(got.report.fitted, want.report.fitted), 1e-9) << k.name;
    EXPECT_GT(metric(got.report, "transfer_seconds"), 0.0) << k.name;
    EXPECT_EQ(metric(want.report, "transfer_seconds"), 0.0) << k.name;
  }
}

TEST_P(DeviceSolvers, FalkonOnTheDevicePredictsAsOnTheCpu) {
  const Problem p = make_problem(4, 5000, 300, 6);
  for (const Named& k : psd_device_kernels()) {
    // converged to the rounding floor on both, so that they agree past CG's tolerance
    const TextParams params = {
        {"lambda", "1e-4"}, {"m", "300"}, {"iterations", "60"}, {"tolerance", "1e-14"}};
    TextParams on_gpu = params;
    on_gpu["device"] = backend();
    auto cpu = make_solver("falkon", params);
    auto gpu = make_solver("falkon", on_gpu);
    const FitResult want = run_reaching(*cpu, *k.kernel, p);
    const FitResult got = run_reaching(*gpu, *k.kernel, p);
    // The centres are training points, so K_nm holds pairs at distance 0 off its diagonal,
    // where r² = ‖x‖² + ‖c‖² − 2xᵀc is rounding (≈ 4ε‖x‖² ≤ 4·10⁻¹⁵ here) in a different
    // order on each device; the laplacian's √r² turns that into ≈ 6·10⁻⁸/σ in such an
    // entry, on the CPU as on the GPU. Kernels of r² or s alone agree to 1e-9.
    const double tolerance = k.name == "laplacian" || k.name == "product" ? 1e-7 : 1e-9;
    EXPECT_LT(relative_difference(got.prediction.mean, want.prediction.mean), tolerance) << k.name;
    EXPECT_GT(metric(got.report, "transfer_seconds"), 0.0) << k.name;
  }
}

TEST_P(DeviceSolvers, CgRidgeOnTheDevicePredictsAsOnTheCpu) {
  const Problem p = make_problem(3, 1500, 200, 7);
  for (const Named& k : psd_device_kernels()) {
    // a well-conditioned system (λ = 10: κ of a few hundred), converged to the rounding
    // floor on both, so that two orders of rounding agree to 1e-9 through κ
    const TextParams params = {{"lambda", "10"}, {"iterations", "2000"}, {"tolerance", "1e-13"}};
    TextParams on_gpu = params;
    on_gpu["device"] = backend();
    auto cpu = make_solver("cg_ridge", params);
    auto gpu = make_solver("cg_ridge", on_gpu);
    const FitResult want = run_reaching(*cpu, *k.kernel, p);
    const FitResult got = run_reaching(*gpu, *k.kernel, p);
    // the product streams K(X, X) without the symmetric path, so its diagonal's r² is
    // rounding (≈ 4ε‖x‖²) in a different order on each device, which the laplacian's √r²
    // turns into ≈ 10⁻⁸/σ, as for falkon's centres
    const double tolerance = k.name == "laplacian" || k.name == "product" ? 1e-7 : 1e-9;
    EXPECT_LT(relative_difference(got.prediction.mean, want.prediction.mean), tolerance) << k.name;
    EXPECT_GT(metric(got.report, "transfer_seconds"), 0.0) << k.name;
    EXPECT_EQ(metric(want.report, "transfer_seconds"), 0.0) << k.name;
  }
}

TEST_P(DeviceSolvers, GpRegressionOnTheDevicePredictsAsOnTheCpuWithItsVariancesAndLikelihood) {
  const Problem p = make_problem(3, 600, 200, 9);
  for (const Named& k : psd_device_kernels()) {
    auto cpu = make_solver("gp_regression", {{"noise", "0.05"}});
    auto gpu = make_solver("gp_regression", {{"noise", "0.05"}, {"device", backend()}});
    arma::mat K, K_cross;
    k.kernel->gram(p.X, K);
    k.kernel->gram(p.X, p.Xt, K_cross);
    const arma::vec diagonal = k.kernel->diagonal(p.Xt);
    const FitResult want = run_dual(*cpu, K, K_cross, diagonal, p.y);
    const FitResult got = run_reaching(*gpu, *k.kernel, p);
    EXPECT_LT(relative_difference(got.prediction.mean, want.prediction.mean), 1e-9) << k.name;
    // the variances are differences k(x*, x*) − ‖L⁻¹k‖², so compare them against k(x*, x*)
    EXPECT_LT(arma::norm(got.prediction.var_f - want.prediction.var_f, "inf"),
              1e-9 * arma::norm(diagonal, "inf"))
        << k.name;
    EXPECT_LT(arma::norm(got.prediction.var_y - want.prediction.var_y, "inf"),
              1e-9 * arma::norm(diagonal, "inf"))
        << k.name;
    const double lml = metric(want.report, "log_marginal_likelihood");
    EXPECT_NEAR(metric(got.report, "log_marginal_likelihood"), lml, 1e-9 * std::abs(lml)) << k.name;
    EXPECT_GT(metric(got.report, "transfer_seconds"), 0.0) << k.name;
    EXPECT_EQ(metric(want.report, "transfer_seconds"), 0.0) << k.name;
  }
}

TEST_P(DeviceSolvers, PrimalRidgeOnTheDevicePredictsAsOnTheCpu) {
  const Problem p = make_problem(6, 2000, 300, 5);
  const arma::mat Phi = quadratic_map(p.X), Phi_test = quadratic_map(p.Xt);  // D = 28
  for (const char* lambda : {"1e-6", "0.1", "10"}) {
    auto cpu = make_solver("primal_ridge", {{"lambda", lambda}});
    auto gpu = make_solver("primal_ridge", {{"lambda", lambda}, {"device", backend()}});
    const FitResult want = run_primal(*cpu, Phi, Phi_test, p.y);
    const FitResult got = run_primal(*gpu, Phi, Phi_test, p.y);
    EXPECT_LT(relative_difference(got.prediction.mean, want.prediction.mean), 1e-9) << lambda;
    EXPECT_LT(relative_difference(got.report.fitted, want.report.fitted), 1e-9) << lambda;
    EXPECT_GT(metric(got.report, "transfer_seconds"), 0.0) << lambda;
    EXPECT_EQ(metric(want.report, "transfer_seconds"), 0.0) << lambda;
  }
  // λ = 0 with a feature that is 0 at every point: a zero pivot, a NumericError on the GPU
  // as on the CPU
  arma::mat zero_feature = Phi;
  zero_feature.row(7).zeros();
  auto singular = make_solver("primal_ridge", {{"lambda", "0"}, {"device", backend()}});
  EXPECT_THROW((void)run_primal(*singular, zero_feature, Phi_test, p.y), NumericError);
}

TEST(DeviceSetting, WithoutAGpuACudaCellFailsSayingWhy) {
  if (device::gpu_info().present) GTEST_SKIP() << "a GPU is present";
  const Problem p = make_problem(2, 40, 10, 8);
  const auto kernel = make_kernel("gaussian");
  for (const std::string solver : {"kernel_ridge", "falkon", "cg_ridge", "gp_regression"}) {
    TextParams params = {{"device", "cuda"}};
    if (solver == "falkon") params["m"] = "10";
    auto s = make_solver(solver, params);
    try {
      (void)run_reaching(*s, *kernel, p);
      ADD_FAILURE() << solver << " ran without a GPU";
    } catch (const Error& e) {
      EXPECT_EQ(std::string(e.what()), device::gpu_info().reason) << solver;
    }
  }
  auto primal = make_solver("primal_ridge", {{"device", "cuda"}});
  try {
    (void)run_primal(*primal, quadratic_map(p.X), quadratic_map(p.Xt), p.y);
    ADD_FAILURE() << "primal_ridge ran without a GPU";
  } catch (const Error& e) {
    EXPECT_EQ(std::string(e.what()), device::gpu_info().reason);
  }
}

TEST_P(DeviceSolvers, OnTheDeviceEachSolverRunsInFloat64Only) {
  const std::vector<std::pair<std::string, std::string>> refused = {
      {"primal_ridge", "single"}, {"primal_ridge", "mixed"}, {"cg_ridge", "mixed"},
      {"kernel_ridge", "mixed"},  {"falkon", "mixed"},       {"gp_regression", "mixed"}};
  for (const auto& [solver, precision] : refused) {
    try {
      (void)make_solver(solver, {{"device", backend()}, {"precision", precision}});
      ADD_FAILURE() << solver << " took " << precision << " on the device";
    } catch (const Error& e) {
      EXPECT_THAT(e.what(), HasSubstr(solver + ": device: " + backend() + " runs in float64 only"))
          << solver << " " << precision;
    }
  }
  // learning the kernel runs on the host only
  try {
    (void)make_solver("gp_regression", {{"device", backend()}, {"optimize", "true"}});
    ADD_FAILURE() << "gp_regression took optimize: true on the GPU";
  } catch (const Error& e) {
    EXPECT_THAT(e.what(), HasSubstr("optimize: true learns on the host only"));
  }
}

TEST(DeviceSetting, OnTheGpuTheHostBudgetCountsNoK) {
  auto cpu = make_solver("kernel_ridge");
  auto gpu = make_solver("kernel_ridge", {{"device", "cuda"}});
  EXPECT_LT(cpu->memory_bytes(1000, 100, 5), 0.0);  // the runner counts K
  EXPECT_EQ(gpu->memory_bytes(1000, 100, 5), 8.0 * 2100);
  auto falkon_cpu = make_solver("falkon", {{"m", "100"}});
  auto falkon_gpu = make_solver("falkon", {{"m", "100"}, {"device", "cuda"}});
  // on the GPU no m × m factor and no tile stays on the host
  EXPECT_EQ(falkon_gpu->memory_bytes(1000, 50, 5), 8.0 * (500 + 3000 + 50 + 900));
  EXPECT_GT(falkon_cpu->memory_bytes(1000, 50, 5),
            falkon_gpu->memory_bytes(1000, 50, 5) + 8.0 * 2 * 100 * 100);
}

TEST(DeviceSetting, OnTheGpuEachSolverSaysWhatItHoldsInDeviceMemory) {
  // n = 1000 training points, m = 100 test points, d = 5
  EXPECT_FALSE(device_memory_bytes(*make_solver("kernel_ridge"), 1000, 100, 5).has_value());
  // K (10⁶), X (5000), y, β and a spare n-vector (3000); more than predicting, which holds
  // the points and their norms (7 · 1100), β, the predictions and 100 rows of K(X*, X)
  const auto ridge =
      device_memory_bytes(*make_solver("kernel_ridge", {{"device", "cuda"}}), 1000, 100, 5);
  ASSERT_TRUE(ridge.has_value());
  EXPECT_EQ(*ridge, 8.0 * (1000000 + 5000 + 3000));
  // at 2·10⁵ test points predicting holds more: 7 · 201 000 and 256 rows of 1002
  EXPECT_EQ(
      *device_memory_bytes(*make_solver("kernel_ridge", {{"device", "cuda"}}), 1000, 200000, 5),
      8.0 * (7 * 201000 + 256 * 1002));
  EXPECT_FALSE(
      device_memory_bytes(*make_solver("falkon", {{"m", "100"}}), 1000, 50, 5).has_value());
  // falkon, 100 centres: X (5000), three n-vectors, the centres (500), K_mm and two factors
  // (3 · 10⁴), eight m-vectors, and 256 rows of K_nm with two row vectors (256 · 102)
  const auto falkon =
      device_memory_bytes(*make_solver("falkon", {{"m", "100"}, {"device", "cuda"}}), 1000, 50, 5);
  ASSERT_TRUE(falkon.has_value());
  EXPECT_EQ(*falkon, 8.0 * (5000 + 3000 + 500 + 30000 + 800 + 256 * 102));
  // cg_ridge: the points and their norms with two n-vectors, 7 · 2000 when fitting, and
  // 256 rows of K(X, X); predicting at 100 points needs less
  EXPECT_FALSE(device_memory_bytes(*make_solver("cg_ridge"), 1000, 100, 5).has_value());
  EXPECT_EQ(*device_memory_bytes(*make_solver("cg_ridge", {{"device", "cuda"}}), 1000, 100, 5),
            8.0 * (7 * 2000 + 256 * 1002));
  // gp_regression: predicting holds C (10⁶), the points with their norms and α (7000),
  // the test points with three m-vectors (800) and 100 columns of K(X, X*) (100 · 1002)
  EXPECT_FALSE(device_memory_bytes(*make_solver("gp_regression"), 1000, 100, 5).has_value());
  EXPECT_EQ(*device_memory_bytes(*make_solver("gp_regression", {{"device", "cuda"}}), 1000, 100, 5),
            8.0 * (1000000 + 7000 + 800 + 100 * 1002));
  // primal_ridge, d = D = 28 features: Φ (28 000), ΦΦᵀ + λI (784), y and Φy
  EXPECT_FALSE(device_memory_bytes(*make_solver("primal_ridge"), 1000, 100, 28).has_value());
  EXPECT_EQ(*device_memory_bytes(*make_solver("primal_ridge", {{"device", "cuda"}}), 1000, 100, 28),
            8.0 * (28000 + 784 + 1000 + 28));
}

TEST(DeviceSetting, OnTheHostBackendTheHostBudgetCountsTheDeviceMemoryToo) {
  // n = 1000, m = 100, d = 5: the device memory of the host backend is the host's
  for (const std::string solver : {"kernel_ridge", "falkon", "cg_ridge", "gp_regression"}) {
    TextParams on_cuda = {{"device", "cuda"}}, on_host = {{"device", "host"}};
    if (solver == "falkon") on_cuda["m"] = on_host["m"] = "100";
    auto cuda = make_solver(solver, on_cuda);
    auto host = make_solver(solver, on_host);
    EXPECT_EQ(*device_memory_bytes(*host, 1000, 100, 5), *device_memory_bytes(*cuda, 1000, 100, 5))
        << solver;
    EXPECT_EQ(host->memory_bytes(1000, 100, 5),
              cuda->memory_bytes(1000, 100, 5) + *device_memory_bytes(*cuda, 1000, 100, 5))
        << solver;
  }
}

TEST(DeviceSetting, OnTheHostBackendTheDevicePathStreamsOverSeveralBlocks) {
  // 8 MiB of host device memory: a block of 512 rows of K(X, X) for n = 1500 (0.8 of the
  // free memory at 8·1502 bytes a row), so each product K p streams three blocks
  const HostDeviceMemory limit(8 << 20);
  const Problem p = make_problem(3, 1500, 700, 7);
  const auto kernel = make_kernel("gaussian", {{"sigma", "0.8"}});
  const TextParams params = {{"lambda", "10"}, {"iterations", "2000"}, {"tolerance", "1e-13"}};
  TextParams on_host = params;
  on_host["device"] = "host";
  const FitResult want = run_reaching(*make_solver("cg_ridge", params), *kernel, p);
  const FitResult got = run_reaching(*make_solver("cg_ridge", on_host), *kernel, p);
  EXPECT_LT(relative_difference(got.prediction.mean, want.prediction.mean), 1e-9);
  // falkon's K_nm, 5000 × 300, beside X, the centres and three 300 × 300 matrices: blocks
  // of 1792 rows, three of them per pass
  const Problem q = make_problem(4, 5000, 300, 6);
  const TextParams falkon = {
      {"lambda", "1e-4"}, {"m", "300"}, {"iterations", "60"}, {"tolerance", "1e-14"}};
  TextParams falkon_host = falkon;
  falkon_host["device"] = "host";
  const FitResult falkon_want = run_reaching(*make_solver("falkon", falkon), *kernel, q);
  const FitResult falkon_got = run_reaching(*make_solver("falkon", falkon_host), *kernel, q);
  EXPECT_LT(relative_difference(falkon_got.prediction.mean, falkon_want.prediction.mean), 1e-9);
}

TEST(DeviceSetting, OnTheHostBackendWhatDoesNotFitIsRefusedWithTheFigures) {
  // 1 MiB: K of 600 × 600 (2.75 MiB) does not fit
  const HostDeviceMemory limit(1 << 20);
  const Problem p = make_problem(3, 600, 200, 9);
  const auto kernel = make_kernel("gaussian");
  for (const std::string solver : {"kernel_ridge", "gp_regression"}) {
    auto s = make_solver(solver, {{"device", "host"}});
    try {
      (void)run_reaching(*s, *kernel, p);
      ADD_FAILURE() << solver << " ran over the host backend's memory";
    } catch (const Error& e) {
      EXPECT_THAT(e.what(), HasSubstr("of host device memory (KEXP_HOST_DEVICE_MEMORY)")) << solver;
      EXPECT_THAT(e.what(), HasSubstr("600 × 600")) << solver;
      EXPECT_THAT(e.what(), HasSubstr("free of 1.00 MiB")) << solver;
    }
  }
}

INSTANTIATE_TEST_SUITE_P(Backends, DeviceSolvers, ::testing::Values("host", "cuda"),
                         [](const ::testing::TestParamInfo<std::string>& backend) {
                           return backend.param;
                         });

}  // namespace
}  // namespace kexp::test
