// The device building blocks of kexp/device.hpp on each backend against the CPU: K(Z, X)v
// streamed for each device kernel and composite, a shifted Gram factored and solved
// (kernel ridge's β), the normal product Kᵀ(Ku + v) and triangular solves, to 1e-9
// relative in float64; the refusal, with the figures, of what does not fit. Every test
// runs on the host backend everywhere, and on the CUDA backend where a GPU is present
// (skipped otherwise, saying why); with a small host memory limit the products stream
// over several blocks. Without a GPU, selecting the CUDA backend throws a kexp::Error with
// the driver's or the build's words, never an abort.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <memory>
#include <string>
#include <vector>

#include "kernel_algebra/composite_kernel.hpp"
#include "kexp/device.hpp"
#include "kexp/formula_kernel.hpp"
#include "support/host_device_memory.hpp"
#include "support/plugins.hpp"

namespace kexp::test {
namespace {

using ::testing::AnyOf;
using ::testing::HasSubstr;

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

TEST(Gpu, WithoutOneTheCudaBackendThrowsAnErrorAndNothingAborts) {
  if (device::gpu_info().present) GTEST_SKIP() << "a GPU is present";
  try {
    (void)device::backend("cuda");
    FAIL() << "a CUDA backend without a GPU";
  } catch (const Error& e) {
    EXPECT_THAT(std::string(e.what()),
                AnyOf(HasSubstr("CUDA"), HasSubstr("cuda"), HasSubstr("built without CUDA")));
  }
  EXPECT_THROW((void)device::backend("opencl"), InvalidArgument);
}

/// A test of the building blocks, run once per backend: host everywhere, cuda where there
/// is a GPU.
class DeviceBlocks : public ::testing::TestWithParam<std::string> {
 protected:
  void SetUp() override {
    if (GetParam() == "cuda" && !device::gpu_info().present) {
      GTEST_SKIP() << "no GPU to run on: " << device::gpu_info().reason;
    }
  }
  [[nodiscard]] device::Backend& backend() const { return device::backend(GetParam()); }
};

TEST_P(DeviceBlocks, KernelProductsEqualTheCpusForEveryDeviceKernel) {
  arma::arma_rng::set_seed(3);
  const arma::mat X = arma::randn(4, 700) * 0.5, Z = arma::randn(4, 300) * 0.5;
  const arma::vec v = arma::randn(700);
  for (const Named& k : device_kernels()) {
    arma::mat K;
    k.kernel->gram(Z, X, K);
    const arma::vec want = K * v;
    device::Transfers t;
    const device::Points points(backend(), X, t);
    const arma::vec got = device::predict(backend(), *device_formula(*k.kernel), points, Z, v, t);
    EXPECT_LT(relative_difference(got, want), 1e-9) << k.name;
    EXPECT_GT(t.seconds, 0.0) << k.name;
  }
}

TEST_P(DeviceBlocks, AGramBlockIsTheCpusBlockOfK) {
  arma::arma_rng::set_seed(4);
  const arma::mat X = arma::randn(3, 60), Z = arma::randn(3, 40);
  const auto kernel = make_kernel("polynomial", {{"degree", "3"}, {"c", "1"}});
  arma::mat K;
  kernel->gram(X, Z, K);
  device::Transfers t;
  const device::Points A(backend(), X, t), B(backend(), Z, t);
  device::Buffer S(backend(), 20 * 15);
  // rows 10 … 30 of X against columns 5 … 20 of Z
  device::gram_block(backend(), *device_formula(*kernel), A, 10, 20, B, 5, 15, S.data(), 20);
  const arma::vec got = device::download(backend(), S, 300, t);
  const arma::mat want = K.submat(10, 5, 29, 19);
  EXPECT_LT(arma::norm(got - arma::vectorise(want), "inf"), 1e-12 * arma::norm(want, "inf"));
  EXPECT_THROW(
      device::gram_block(backend(), *device_formula(*kernel), A, 50, 20, B, 0, 15, S.data(), 20),
      InvalidArgument);
}

TEST_P(DeviceBlocks, ASymmetricBlockIsTheLowerTriangleOfKWithTheShiftOnItsDiagonal) {
  arma::arma_rng::set_seed(6);
  const arma::mat X = arma::randn(3, 90);
  const auto kernel = make_kernel("laplacian", {{"sigma", "1.5"}});
  arma::mat K;
  kernel->gram(X, K);
  // the inner products in the lower triangle, 7 above it, which must stay
  arma::mat S = X.t() * X;
  S.elem(arma::trimatu_ind(arma::size(S), 1)).fill(7.0);
  device::Transfers t;
  const device::Points points(backend(), X, t);
  device::Buffer dS = device::upload(backend(), S, t);
  backend().apply_kernel(*device_formula(*kernel), dS.data(), 90, 90, 90, points.norms(),
                         points.norms(), true, 0.5);
  arma::mat got(90, 90);
  device::download(backend(), got.memptr(), dS.data(), got.n_elem, t);
  const arma::mat want = K + 0.5 * arma::eye(90, 90);
  // r² from s and the norms here, from the differences on the CPU: apart by rounding
  EXPECT_LT(arma::abs(arma::trimatl(got) - arma::trimatl(want)).max(), 1e-12);
  EXPECT_LT(arma::abs(got.diag() - want.diag()).max(), 1e-15);
  EXPECT_TRUE(arma::all(got.elem(arma::trimatu_ind(arma::size(S), 1)) == 7.0));
}

TEST_P(DeviceBlocks, KernelRidgeCoefficientsEqualTheCpusForEveryPsdDeviceKernel) {
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
    const device::Points points(backend(), X, t);
    device::Cholesky factor(backend(), X.n_cols);
    ASSERT_EQ(
        device::factor_shifted_gram(backend(), *device_formula(*k.kernel), points, lambda, factor),
        0)
        << k.name;
    device::Buffer b = device::upload(backend(), y, t);
    factor.solve(b.data());
    EXPECT_LT(relative_difference(device::download(backend(), b, y.n_elem, t), want), 1e-9)
        << k.name;
    // log det (K + λI) from the factor's diagonal
    double sign = 0;
    double want_log_det = 0;
    arma::log_det(want_log_det, sign, arma::symmatu(K));
    EXPECT_NEAR(factor.log_det(t), want_log_det, 1e-9 * std::abs(want_log_det)) << k.name;
  }
}

TEST_P(DeviceBlocks, WhatDoesNotFitTheFreeMemoryIsRefusedWithTheFigures) {
  // K of 4·10⁵ × 4·10⁵ is 1.28 TB, more than any GPU, or the host backend's 4 GiB, holds
  try {
    device::require_memory(backend(), device::ridge_bytes(400000, 1, 0.0), "K of 4·10⁵ × 4·10⁵");
    FAIL() << "no refusal";
  } catch (const Error& e) {
    EXPECT_THAT(e.what(), HasSubstr("GiB of " + backend().memory_name() + " (K of 4·10⁵ × 4·10⁵)"));
    EXPECT_THAT(e.what(), HasSubstr("free of"));
  }
}

TEST_P(DeviceBlocks, AShiftedGramThatIsNotPositiveDefiniteIsTheFactorsValue) {
  arma::arma_rng::set_seed(9);
  const arma::mat X = arma::randn(2, 50) * 0.1;  // tanh(xᵀz − 1) < 0 on the diagonal
  device::Transfers t;
  const device::Points points(backend(), X, t);
  device::Cholesky factor(backend(), X.n_cols);
  EXPECT_EQ(device::factor_shifted_gram(
                backend(), formula_of_device_program({{DeviceOp::sigmoid, 1.0, -1.0, 0}}), points,
                0.0, factor),
            1);
}

TEST_P(DeviceBlocks, TheNormalProductAndTriangularSolvesEqualTheCpus) {
  arma::arma_rng::set_seed(11);
  const arma::mat X = arma::randn(5, 3000) * 0.4, C = X.cols(0, 199);
  const auto kernel = make_kernel("gaussian", {{"sigma", "1.2"}});
  const FormulaProgram program = *device_formula(*kernel);
  device::Transfers t;
  const device::Points points(backend(), X, t), centres(backend(), C, t);
  device::StreamedGram knm(backend(), program, points, centres, "a block of K_nm");
  EXPECT_GT(knm.block_rows(), 0U);
  const arma::vec u = arma::randn(200), v = arma::randn(3000);
  arma::mat Knm;
  kernel->gram(X, C, Knm);
  const device::Buffer du = device::upload(backend(), u, t);
  device::Buffer dv = device::upload(backend(), v, t), out(backend(), 200);
  knm.normal_product(du.data(), dv.data(), out.data());
  EXPECT_LT(relative_difference(device::download(backend(), out, 200, t), Knm.t() * (Knm * u + v)),
            1e-9);
  knm.product(du.data(), dv.data());
  EXPECT_LT(relative_difference(device::download(backend(), dv, 3000, t), Knm * u), 1e-9);
  // L Lᵀ = K_mm + I: L⁻¹ applied to (K_mm + I) e₁ then L⁻ᵀ gives e₁ back
  device::Cholesky factor(backend(), 200);
  ASSERT_EQ(device::factor_shifted_gram(backend(), program, centres, 1.0, factor), 0);
  arma::mat Kmm;
  kernel->gram(C, Kmm);
  Kmm.diag() += 1.0;
  const arma::vec e1 = arma::eye(200, 1);
  device::Buffer w = device::upload(backend(), Kmm * e1, t);
  factor.lower_solve(w.data(), 1, false);
  factor.lower_solve(w.data(), 1, true);
  EXPECT_LT(arma::norm(device::download(backend(), w, 200, t) - e1, "inf"), 1e-10);
}

TEST(DeviceBlocksOnTheHost, ProductsStreamOverSeveralBlocksOfTheMemoryLimit) {
  // 4 MiB of host device memory for K(X, C) of 3000 × 200: blocks of 1792 rows (0.8 of the
  // free memory at 8·202 bytes a row, in whole granules of 256), two per product
  const HostDeviceMemory limit(4 << 20);
  device::Backend& host = device::backend("host");
  EXPECT_EQ(host.memory().total_bytes, 4 << 20);
  arma::arma_rng::set_seed(12);
  const arma::mat X = arma::randn(5, 3000) * 0.4, C = X.cols(0, 199);
  const auto kernel = make_kernel("gaussian", {{"sigma", "1.2"}});
  device::Transfers t;
  const device::Points points(host, X, t), centres(host, C, t);
  device::StreamedGram knm(host, *device_formula(*kernel), points, centres, "a block of K_nm");
  EXPECT_EQ(knm.block_rows(), 1792U);
  const arma::vec u = arma::randn(200), v = arma::randn(3000);
  arma::mat Knm;
  kernel->gram(X, C, Knm);
  const device::Buffer du = device::upload(host, u, t);
  device::Buffer dv = device::upload(host, v, t), out(host, 200);
  knm.normal_product(du.data(), dv.data(), out.data());
  EXPECT_LT(relative_difference(device::download(host, out, 200, t), Knm.t() * (Knm * u + v)),
            1e-9);
  // at 1 MiB not even 256 rows fit: refused, with the figures
  const HostDeviceMemory smaller(1 << 20);
  try {
    device::StreamedGram none(host, *device_formula(*kernel), points, points, "a block of K");
    FAIL() << "no refusal";
  } catch (const Error& e) {
    EXPECT_THAT(e.what(),
                HasSubstr("of host device memory (KEXP_HOST_DEVICE_MEMORY) (a block of K)"));
    EXPECT_THAT(e.what(), HasSubstr("free of 1.00 MiB"));
  }
}

TEST(DeviceBlocksOnTheHost, TheMemoryLimitIsAPositiveWholeNumberOfBytes) {
  const HostDeviceMemory restored_after(1);
  unsetenv("KEXP_HOST_DEVICE_MEMORY");
  EXPECT_EQ(device::host_memory_limit(), 4.0 * 1024 * 1024 * 1024);
  for (const char* bad : {"lots", "-5", "0", "1.5", "12 GiB"}) {
    setenv("KEXP_HOST_DEVICE_MEMORY", bad, 1);
    try {
      (void)device::host_memory_limit();
      ADD_FAILURE() << bad << " taken";
    } catch (const InvalidArgument& e) {
      EXPECT_THAT(e.what(), HasSubstr("KEXP_HOST_DEVICE_MEMORY is '" + std::string(bad) + "'"));
    }
  }
  setenv("KEXP_HOST_DEVICE_MEMORY", "1073741824", 1);
  EXPECT_EQ(device::host_memory_limit(), 1073741824.0);
}

INSTANTIATE_TEST_SUITE_P(Backends, DeviceBlocks, ::testing::Values("host", "cuda"),
                         [](const ::testing::TestParamInfo<std::string>& backend) {
                           return backend.param;
                         });

}  // namespace
}  // namespace kexp::test
