// The memory estimate of a dual cell: K, and a working copy of K unless the cell is the
// last of its group to read K and may factor it in place, and what learning the kernel's
// hyperparameters holds instead of K, by hand.
#include "run/budget.hpp"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cstdio>

#include "support/plugins.hpp"

namespace kexp::core {
namespace {

using ::testing::HasSubstr;

constexpr double kGiB = 1024.0 * 1024.0 * 1024.0;
constexpr double kMiB = 1024.0 * 1024.0;

TEST(Budget, ADualCellCountsAWorkingCopyOfKUnlessItFactorsKInPlace) {
  PreparedData prepared;
  const double n = 300, m = 100, d = 4;
  prepared.X_train.zeros(4, 300);
  prepared.X_test.zeros(4, 100);
  const DataDims data = dims_of(prepared);
  const auto kernel = test::make_kernel("gaussian");
  Cell cell;
  cell.form = Form::Dual;
  const double inputs = 8 * d * (n + m);
  const MemoryEstimate copy = estimate_memory(cell, data, *kernel);
  EXPECT_DOUBLE_EQ(copy.bytes, 8 * (2 * n * n + n * m + m) + inputs);
  EXPECT_THAT(copy.what, HasSubstr("the n × n Gram matrix and a working copy"));
  const MemoryEstimate in_place = estimate_memory(cell, data, *kernel, -1, true);
  EXPECT_DOUBLE_EQ(in_place.bytes, 8 * (n * n + n * m + m) + inputs);
  EXPECT_THAT(in_place.what, HasSubstr("the n × n Gram matrix (factored in place)"));
  // mixed precision factors a float32 copy of K + λI beside K
  const MemoryEstimate mixed = estimate_memory(cell, data, *kernel, -1, true, false, false, true);
  EXPECT_DOUBLE_EQ(mixed.bytes, 8 * (n * n + n * m + m) + 4 * n * n + inputs);
  EXPECT_THAT(mixed.what, HasSubstr("(factored in place), its float32 copy"));
  // learning σ and the noise: no K, but C and one slice of ∂K, then the learned cross
  // block and L⁻¹K(X, X*), whatever the cell's place
  for (const bool last : {false, true}) {
    const MemoryEstimate learning = estimate_memory(cell, data, *kernel, -1, last, true);
    EXPECT_DOUBLE_EQ(learning.bytes, 8 * (2 * n * n + 2 * n * m + m) + inputs);
    EXPECT_THAT(learning.what,
                HasSubstr("to learn 2 hyperparameters, C = K + noise·I, 1 slice of ∂K"));
    EXPECT_THAT(learning.what, HasSubstr("never reads the Gram matrix"));
  }
  // a solver that reaches the kernel holds what it says, whatever its place
  EXPECT_DOUBLE_EQ(estimate_memory(cell, data, *kernel, 1000, true).bytes, 1000 + inputs);
  // between two cells that read K, K and K(X, X*) are kept beside a cell that reads none
  const double kept = 8 * (n * n + n * m);
  const MemoryEstimate reaching = estimate_memory(cell, data, *kernel, 1000, false, false, true);
  EXPECT_DOUBLE_EQ(reaching.bytes, 1000 + inputs + kept);
  EXPECT_THAT(reaching.what, HasSubstr("beside the group's K and K(X, X*), kept for a later cell"));
  EXPECT_DOUBLE_EQ(estimate_memory(cell, data, *kernel, -1, false, true, true).bytes,
                   8 * (2 * n * n + 2 * n * m + m) + inputs + kept);
  Cell primal;
  primal.form = Form::Primal;
  const auto map = test::make_kernel("polynomial", {{"degree", "2"}});
  EXPECT_DOUBLE_EQ(estimate_memory(primal, data, *map, -1, false, false, true).bytes -
                       estimate_memory(primal, data, *map).bytes,
                   kept);
  // in float32, Φ and Φ(X*) rounded besides: D = 15 for degree 2 in d = 4
  const MemoryEstimate single = estimate_memory(primal, data, *map, -1, false, false, false, true);
  EXPECT_DOUBLE_EQ(single.bytes - estimate_memory(primal, data, *map).bytes, 4 * 15 * (n + m));
  EXPECT_THAT(single.what, HasSubstr("Φ, Φ(X*) with their float32 copies"));
}

TEST(Budget, AGpuCellOverTheFreeDeviceMemoryIsRefusedWithBothFigures) {
  const DeviceLimit h100{"NVIDIA H100 80GB HBM3", 70.0 * kGiB, 79.0 * kGiB};
  MemoryEstimate host_only;
  host_only.bytes = 1e12;  // the host budget is another check
  EXPECT_FALSE(device_refusal(host_only, h100).has_value());
  MemoryEstimate fits;
  fits.device_bytes = 70.0 * kGiB;
  EXPECT_FALSE(device_refusal(fits, h100).has_value());
  MemoryEstimate over;
  over.device_bytes = 95.5 * kGiB;
  const auto why = device_refusal(over, h100);
  ASSERT_TRUE(why.has_value());
  EXPECT_THAT(*why, HasSubstr("refused before it started: it needs about 95.50 GiB of GPU memory"));
  EXPECT_THAT(*why, HasSubstr("the 70.00 GiB free of 79.00 GiB on NVIDIA H100 80GB HBM3"));
  EXPECT_THAT(*why, HasSubstr("use device: cpu"));
}

TEST(Budget, TheDryRunShowsEachGpuCellsDeviceMemoryAndTheOnesOverIt) {
  Plan plan;
  plan.datasets.resize(1);
  plan.datasets[0].canonical = "friedman1(n=40000)";
  plan.kernels.resize(1);
  plan.kernels[0].canonical = "gaussian(sigma=1)";
  plan.solvers.resize(2);
  plan.solvers[0].canonical = "kernel_ridge(device=cuda)";
  plan.solvers[1].canonical = "kernel_ridge(device=cpu)";
  plan.cells.resize(3);
  plan.cells[0].id = "00000000000000a1";
  plan.cells[1].id = "00000000000000a2";
  plan.cells[2].id = "00000000000000a3";
  plan.cells[2].solver = 1;
  std::vector<DryRunLine> lines(3);
  for (std::size_t i = 0; i < 3; ++i) {
    lines[i].cell = &plan.cells[i];
    lines[i].estimate.bytes = 1e6;
  }
  lines[0].estimate.device_bytes = 12.0 * kGiB;
  lines[1].estimate.device_bytes = 95.5 * kGiB;
  const DeviceLimit h100{"NVIDIA H100 80GB HBM3", 70.0 * kGiB, 79.0 * kGiB};
  lines[0].device = h100;
  lines[1].device = h100;
  ::testing::internal::CaptureStdout();
  print_dry_run(plan, lines, 1, Limit{1e9, "--max-memory"}, {0, "DGEMM"}, "", "results/x");
  std::fflush(stdout);
  const std::string out = ::testing::internal::GetCapturedStdout();
  EXPECT_THAT(out, HasSubstr("00000000000000a1  dual         1 MB"));
  EXPECT_THAT(out, ::testing::ContainsRegex("a1 .*kernel_ridge\\(device=cuda\\)  GPU 12.00 GiB\n"));
  EXPECT_THAT(out, ::testing::ContainsRegex(
                       "a2 .*kernel_ridge\\(device=cuda\\)  GPU 95.50 GiB  OVER GPU MEMORY\n"));
  EXPECT_THAT(out, ::testing::ContainsRegex("a3 .*kernel_ridge\\(device=cpu\\)\n"));
  EXPECT_THAT(out, HasSubstr("1 cells need more GPU memory than the 70.00 GiB free of 79.00 GiB "
                             "on NVIDIA H100 80GB HBM3 and would be refused"));
}

TEST(Budget, AHostBackendCellIsCheckedAgainstItsLimitInTheDryRunAndBeforeItStarts) {
  Plan plan;
  plan.datasets.resize(1);
  plan.datasets[0].canonical = "friedman1(n=600)";
  plan.kernels.resize(1);
  plan.kernels[0].canonical = "gaussian(sigma=1)";
  plan.solvers.resize(1);
  plan.solvers[0].canonical = "kernel_ridge(device=host)";
  plan.cells.resize(2);
  plan.cells[0].id = "00000000000000b1";
  plan.cells[1].id = "00000000000000b2";
  const DeviceLimit host{"KEXP_HOST_DEVICE_MEMORY", 1.0 * kMiB, 1.0 * kMiB, Device::host};
  std::vector<DryRunLine> lines(2);
  for (std::size_t i = 0; i < 2; ++i) {
    lines[i].cell = &plan.cells[i];
    lines[i].estimate.bytes = 3e6;
    lines[i].device = host;
  }
  lines[0].estimate.device_bytes = 0.5 * kMiB;
  lines[1].estimate.device_bytes = 2.81 * kMiB;
  ::testing::internal::CaptureStdout();
  print_dry_run(plan, lines, 1, Limit{1e9, "--max-memory"}, {0, "DGEMM"}, "", "results/x");
  std::fflush(stdout);
  const std::string out = ::testing::internal::GetCapturedStdout();
  EXPECT_THAT(out, ::testing::ContainsRegex("b1 .*\\(device=host\\)  host backend 0.50 MiB\n"));
  EXPECT_THAT(out,
              ::testing::ContainsRegex(
                  "b2 .*\\(device=host\\)  host backend 2.81 MiB  OVER HOST BACKEND MEMORY\n"));
  EXPECT_THAT(out, HasSubstr("1 cells need more of the host backend's device memory than its "
                             "limit of 1.00 MiB (KEXP_HOST_DEVICE_MEMORY) and would be refused"));
  const auto why = device_refusal(lines[1].estimate, host);
  ASSERT_TRUE(why.has_value());
  EXPECT_THAT(*why, HasSubstr("it needs about 2.81 MiB of the host backend's device memory, more "
                              "than its limit of 1.00 MiB (KEXP_HOST_DEVICE_MEMORY)"));
  EXPECT_THAT(*why, HasSubstr("raise KEXP_HOST_DEVICE_MEMORY, or use device: cpu"));
  EXPECT_FALSE(device_refusal(lines[0].estimate, host).has_value());
}

}  // namespace
}  // namespace kexp::core
