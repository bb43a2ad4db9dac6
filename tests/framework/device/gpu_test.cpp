// The GPU work of `device: cuda` (device/gpu.hpp) against the CPU: K(Z, X)v for each
// device kernel and composite, kernel ridge's β and falkon's operators, to 1e-9 relative
// in float64; the refusal of a K over the free memory. Without a GPU these tests skip,
// saying why, except the ones that check how the calls fail there: a kexp::Error with the
// CUDA library's message or the build's, never an abort.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <memory>
#include <string>
#include <vector>

#include "device/gpu.hpp"
#include "kernel_algebra/composite_kernel.hpp"
#include "kexp/formula_kernel.hpp"
#include "support/plugins.hpp"

namespace kexp::test {
namespace {

using ::testing::AnyOf;
using ::testing::HasSubstr;

#define SKIP_WITHOUT_GPU()                                               \
  do {                                                                   \
    if (!device::gpu_info().present)                                     \
      GTEST_SKIP() << "no GPU to run on: " << device::gpu_info().reason; \
  } while (false)

struct Named {
  std::string name;
  std::shared_ptr<Kernel> kernel;
};

std::vector<Named> device_kernels() {
  using algebra::Combination;
  const auto gaussian = make_kernel("gaussian", {{"sigma", "1.5"}});
  const auto linear = make_kernel("linear");
  const auto constant = make_kernel("constant", {{"c", "0.3"}});
  const auto poly = make_kernel("polynomial", {{"degree", "3"}, {"c", "1"}});
  return {
      {"gaussian", gaussian},
      {"laplacian", make_kernel("laplacian", {{"sigma", "2"}})},
      {"polynomial", poly},
      {"linear", linear},
      {"sigmoid", make_kernel("sigmoid", {{"a", "0.1"}, {"b", "0.2"}})},
      {"constant", constant},
      {"sum",
       algebra::combined(Combination::Sum, {algebra::scaled(gaussian, 2.0), constant, linear})},
      {"product", algebra::combined(Combination::Product, {gaussian, poly})},
      // kernels written as formulas: the GPU runs their program as the CPU's engine does
      {"rational quadratic",
       std::make_shared<FormulaKernel>(
           std::make_shared<const Formula>("(1 + r2 / (2 * alpha * l^2))^(-alpha)",
                                           std::vector<std::string>{"alpha", "l"}),
           std::vector<double>{0.7, 1.3}, true)},
      {"matern 3/2",
       std::make_shared<FormulaKernel>(
           std::make_shared<const Formula>("(1 + sqrt(3) * r / l) * exp(-sqrt(3) * r / l)",
                                           std::vector<std::string>{"l"}),
           std::vector<double>{1.1}, true)},
      {"periodic",
       std::make_shared<FormulaKernel>(
           std::make_shared<const Formula>("exp(-2 * sin(pi * r / p)^2 / l^2) + xx * zz / 100",
                                           std::vector<std::string>{"p", "l"}),
           std::vector<double>{2.0, 0.9}, false)},
  };
}

double relative_difference(const arma::vec& got, const arma::vec& want) {
  return arma::norm(got - want, "inf") / std::max(1e-300, arma::norm(want, "inf"));
}

TEST(Gpu, ProbeSaysWhyThereIsNone) {
  const device::GpuInfo& gpu = device::gpu_info();
  if (gpu.present) {
    EXPECT_FALSE(gpu.name.empty());
    EXPECT_GT(gpu.total_bytes, 0.0);
    EXPECT_LE(gpu.free_bytes, gpu.total_bytes);
  } else {
    EXPECT_FALSE(gpu.reason.empty());
    if (!device::built_with_cuda()) {
      EXPECT_THAT(gpu.reason, HasSubstr("built without CUDA"));
    }
  }
}

TEST(Gpu, WithoutOneEveryCallThrowsAnErrorAndNothingAborts) {
  if (device::gpu_info().present) GTEST_SKIP() << "a GPU is present";
  const arma::mat X = arma::randu(2, 5);
  const arma::vec y = arma::randu(5);
  device::Transfers t;
  const FormulaProgram g = formula_of_device_program({{DeviceOp::gaussian, 1.0, 0, 0}});
  const auto message = [](auto&& call) {
    try {
      call();
    } catch (const Error& e) {
      return std::string(e.what());
    }
    return std::string("(no error)");
  };
  for (const std::string& m : {message([&] { (void)device::ridge_solve(g, X, y, 0.1, t); }),
                               message([&] { (void)device::kernel_product(g, X, X, y, t); }),
                               message([&] { device::NystromSystem s(g, X, X.cols(0, 1), t); })}) {
    EXPECT_THAT(m, AnyOf(HasSubstr("CUDA error"), HasSubstr("cuBLAS error"),
                         HasSubstr("cuSOLVER error"), HasSubstr("built without CUDA")));
  }
}

TEST(Gpu, KernelProductsEqualTheCpusForEveryDeviceKernel) {
  SKIP_WITHOUT_GPU();
  arma::arma_rng::set_seed(3);
  const arma::mat X = arma::randn(4, 700) * 0.5, Z = arma::randn(4, 300) * 0.5;
  const arma::vec v = arma::randn(700);
  for (const Named& k : device_kernels()) {
    arma::mat K;
    k.kernel->gram(Z, X, K);
    const arma::vec want = K * v;
    device::Transfers t;
    const arma::vec got = device::kernel_product(*device_formula(*k.kernel), X, Z, v, t);
    EXPECT_LT(relative_difference(got, want), 1e-9) << k.name;
    EXPECT_GT(t.seconds, 0.0) << k.name;
  }
}

TEST(Gpu, KernelRidgeCoefficientsEqualTheCpusForEveryPsdDeviceKernel) {
  SKIP_WITHOUT_GPU();
  arma::arma_rng::set_seed(5);
  const arma::mat X = arma::randn(3, 400) * 0.6;
  const arma::vec y = arma::sin(X.row(0).t()) + 0.1 * arma::randn(400);
  const double lambda = 0.1;
  for (const Named& k : device_kernels()) {
    if (!k.kernel->positive_semidefinite()) continue;
    arma::mat K;
    k.kernel->gram(X, K);
    K.diag() += lambda;
    const arma::vec want = arma::solve(arma::symmatu(K), y, arma::solve_opts::likely_sympd);
    device::Transfers t;
    const arma::vec got = device::ridge_solve(*device_formula(*k.kernel), X, y, lambda, t);
    EXPECT_LT(relative_difference(got, want), 1e-9) << k.name;
  }
}

TEST(Gpu, KernelRidgeRefusesAKOverTheFreeMemoryWithTheFigures) {
  SKIP_WITHOUT_GPU();
  // K of 4·10⁵ × 4·10⁵ is 1.28 TB, more than any GPU holds
  const arma::mat X(1, 400000, arma::fill::zeros);
  const arma::vec y(400000, arma::fill::zeros);
  device::Transfers t;
  try {
    (void)device::ridge_solve(formula_of_device_program({{DeviceOp::linear, 0, 0, 0}}), X, y, 1.0,
                              t);
    FAIL() << "no refusal";
  } catch (const Error& e) {
    EXPECT_THAT(e.what(), HasSubstr("GiB of GPU memory"));
    EXPECT_THAT(e.what(), HasSubstr("free of"));
  }
}

TEST(Gpu, KernelRidgeRefusesAnIndefiniteMatrixAsTheCpuDoes) {
  SKIP_WITHOUT_GPU();
  arma::arma_rng::set_seed(9);
  const arma::mat X = arma::randn(2, 50) * 0.1;  // tanh(xᵀz − 1) < 0 on the diagonal
  const arma::vec y = arma::randn(50);
  device::Transfers t;
  EXPECT_THROW((void)device::ridge_solve(
                   formula_of_device_program({{DeviceOp::sigmoid, 1.0, -1.0, 0}}), X, y, 0.0, t),
               NumericError);
}

TEST(Gpu, NystromOperatorsEqualTheCpus) {
  SKIP_WITHOUT_GPU();
  arma::arma_rng::set_seed(11);
  const arma::mat X = arma::randn(5, 3000) * 0.4, C = X.cols(0, 199);
  const auto kernel = make_kernel("gaussian", {{"sigma", "1.2"}});
  device::Transfers t;
  device::NystromSystem gpu(*device_formula(*kernel), X, C, t);
  EXPECT_GT(gpu.block_rows(), 0U);
  const double jitter = gpu.factor(1e-3);
  EXPECT_GT(jitter, 0.0);
  const arma::vec u = arma::randn(200), v = arma::randn(3000);
  arma::mat Knm;
  kernel->gram(X, C, Knm);
  EXPECT_LT(relative_difference(gpu.normal_product(u, v), Knm.t() * (Knm * u + v)), 1e-9);
  EXPECT_LT(relative_difference(gpu.normal_product(u, arma::zeros(3000)), Knm.t() * (Knm * u)),
            1e-9);
  // Lt Ltᵀ = K_mm + εmI: Lt⁻¹ applied to (K_mm + εmI) e₁ then Lt⁻ᵀ gives e₁ back
  arma::mat Kmm;
  kernel->gram(C, Kmm);
  Kmm.diag() += jitter * 200.0;
  const arma::vec e1 = arma::eye(200, 1);
  const arma::vec back = gpu.solve(true, gpu.solve(true, Kmm * e1, false), true);
  EXPECT_LT(arma::norm(back - e1, "inf"), 1e-8);
}

}  // namespace
}  // namespace kexp::test
