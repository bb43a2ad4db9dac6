// `device: cuda` through the kexp program: refused before anything runs where there is no
// GPU (or no CUDA in the build) and for a kernel without a device form, naming the setting,
// the kernel and the fix; where there is a GPU, a sweep over the device writes the GPU's
// name and predicts as the CPU does.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cmath>
#include <map>
#include <string>

#include "device/gpu.hpp"
#include "support/plugins.hpp"
#include "support/results.hpp"
#include "util/csv.hpp"

namespace kexp::test {
namespace {

using ::testing::HasSubstr;

std::string experiment(const std::string& kernel, const std::string& device) {
  return "experiment: gpu\n"
         "seed: 3\n"
         "dataset: {plugin: friedman1, n: 400}\n"
         "kernels:\n"
         "  - " +
         kernel +
         "\n"
         "solvers:\n"
         "  - plugin: kernel_ridge\n"
         "    lambda: 0.01\n"
         "    device: " +
         device +
         "\n"
         "  - plugin: falkon\n"
         "    m: 100\n"
         "    tolerance: 1e-13\n"
         "    iterations: 60\n"
         "    device: " +
         device + "\n";
}

TEST(Device, WithoutAGpuCudaIsRefusedBeforeAnythingRuns) {
  if (device::gpu_info().present) GTEST_SKIP() << "a GPU is present";
  TempDir dir;
  dir.write("exp.yaml", experiment("{plugin: gaussian, sigma: 2}", "[cpu, cuda]"));
  const CommandResult r = run_kexp("run exp.yaml --out out --quiet", dir.path());
  EXPECT_EQ(r.exit_code, 2) << r.err;
  EXPECT_THAT(r.err, HasSubstr("exp.yaml:9:"));
  EXPECT_THAT(r.err, HasSubstr("solvers[0].device"));
  EXPECT_THAT(r.err, HasSubstr("cuda needs an NVIDIA GPU, and there is none"));
  EXPECT_THAT(r.err, HasSubstr("use device: cpu"));
  EXPECT_FALSE(std::filesystem::exists(dir.path() / "out" / "results.csv"));
  // the dry run says so too
  const CommandResult dry = run_kexp("run exp.yaml --out out --dry-run", dir.path());
  EXPECT_EQ(dry.exit_code, 2);
  EXPECT_THAT(dry.err, HasSubstr("cuda needs an NVIDIA GPU"));
}

TEST(Device, AKernelWithoutADeviceFormIsRefusedByName) {
  TempDir dir;
  dir.write("exp.yaml", experiment("{plugin: cubic}", "cuda"));
  const CommandResult r = run_kexp("run exp.yaml --out out --quiet", dir.path());
  EXPECT_EQ(r.exit_code, 2) << r.err;
  EXPECT_THAT(r.err, HasSubstr("solvers[0].device"));
  EXPECT_THAT(r.err, HasSubstr("the kernel cubic (kernels[0]) has none"));
  EXPECT_THAT(r.err, HasSubstr("use device: cpu with it"));
}

TEST(Device, AnUnknownDeviceIsAConfigError) {
  TempDir dir;
  dir.write("exp.yaml", experiment("{plugin: gaussian}", "gpu"));
  const CommandResult r = run_kexp("run exp.yaml --out out --quiet", dir.path());
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_THAT(r.err, HasSubstr("solvers[0].device"));
  EXPECT_THAT(r.err, HasSubstr("cpu"));
  EXPECT_THAT(r.err, HasSubstr("cuda"));
}

TEST(Device, ASweepOverTheDeviceWritesTheGpuAndPredictsAsTheCpu) {
  if (!device::gpu_info().present) GTEST_SKIP() << "no GPU: " << device::gpu_info().reason;
  TempDir dir;
  dir.write("exp.yaml", experiment("{plugin: gaussian, sigma: 2}", "[cpu, cuda]"));
  const CommandResult r = run_kexp("run exp.yaml --out out --quiet", dir.path());
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const core::CsvTable t = core::read_csv(dir.path() / "out" / "results.csv");
  ASSERT_EQ(t.rows.size(), 4U);
  const std::size_t solver = column(t, "solver"), device = column(t, "solver.device"),
                    name = column(t, "device_name"), rmse = column(t, "test_rmse"),
                    transfer = column(t, "transfer_seconds");
  std::map<std::string, double> cpu, gpu;
  for (const auto& row : t.rows) {
    const double value = std::stod(row[rmse]);
    if (row[device] == "cuda") {
      EXPECT_EQ(row[name], device::gpu_info().name);
      EXPECT_GT(std::stod(row[transfer]), 0.0);
      gpu[row[solver]] = value;
    } else {
      EXPECT_EQ(row[name], "");
      cpu[row[solver]] = value;
    }
  }
  for (const char* s : {"kernel_ridge", "falkon"}) {
    ASSERT_TRUE(cpu.count(s) && gpu.count(s)) << s;
    EXPECT_NEAR(gpu[s], cpu[s], 1e-9 * cpu[s]) << s;
  }
}

}  // namespace
}  // namespace kexp::test
