// `device: cuda` and `device: host` through the kexp program: a cell that cannot run on its
// device (no GPU, or no CUDA in the build; a kernel without a formula or device form) is
// refused alone, with the setting, the kernel and the fix, and the other cells run; a run
// none of whose cells can run is refused before anything runs. A sweep over the device
// predicts as the CPU does on the host backend everywhere, and on the GPU where there is
// one (writing its name); on the host backend a cell over its memory limit fails with the
// figures while the others run.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cmath>
#include <map>
#include <sstream>
#include <string>

#include "kexp/device.hpp"
#include "support/plugins.hpp"
#include "support/results.hpp"
#include "util/csv.hpp"

namespace kexp::test {
namespace {

using ::testing::HasSubstr;
using ::testing::Not;

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
         device +
         "\n"
         "  - plugin: cg_ridge\n"
         "    lambda: 1\n"
         "    tolerance: 1e-13\n"
         "    device: " +
         device +
         "\n"
         "  - plugin: gp_regression\n"
         "    noise: 0.01\n"
         "    device: " +
         device + "\n";
}

TEST(Device, WithoutAGpuEveryCellOnCudaIsRefusedBeforeAnythingRuns) {
  if (device::gpu_info().present) GTEST_SKIP() << "a GPU is present";
  TempDir dir;
  dir.write("exp.yaml", experiment("{plugin: gaussian, sigma: 2}", "cuda"));
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

TEST(Device, WithoutAGpuASweepOverTheDeviceRunsTheCpuCellsAndRefusesTheCudaCells) {
  if (device::gpu_info().present) GTEST_SKIP() << "a GPU is present";
  TempDir dir;
  dir.write("exp.yaml", experiment("{plugin: gaussian, sigma: 2}", "[cpu, cuda]"));
  // the dry run lists the cuda cells as refused, with the reason, and runs nothing
  const CommandResult dry = run_kexp("run exp.yaml --out out --dry-run", dir.path());
  ASSERT_EQ(dry.exit_code, 0) << dry.err;
  EXPECT_THAT(dry.out, HasSubstr("CANNOT RUN: solvers[0].device = cuda needs an NVIDIA GPU"));
  EXPECT_THAT(dry.out, HasSubstr("4 cells cannot run (said beside each) and would be refused"));
  EXPECT_FALSE(std::filesystem::exists(dir.path() / "out"));

  const CommandResult r = run_kexp("run exp.yaml --out out --quiet", dir.path());
  EXPECT_EQ(r.exit_code, 1) << r.err;  // as for any refused cell
  const core::CsvTable t = core::read_csv(dir.path() / "out" / "results.csv");
  ASSERT_EQ(t.rows.size(), 8U) << r.err;
  const std::size_t solver = column(t, "solver"), device = column(t, "solver.device"),
                    status = column(t, "status"), error = column(t, "error");
  std::map<std::string, std::string> cpu, cuda;  // solver → status
  for (const auto& row : t.rows) {
    if (row[device] == "cuda") {
      cuda[row[solver]] = row[status];
      EXPECT_THAT(row[error], HasSubstr("refused before it started: solvers["));
      EXPECT_THAT(row[error], HasSubstr("].device = cuda needs an NVIDIA GPU, and there is none: " +
                                        device::gpu_info().reason));
      EXPECT_THAT(row[error], HasSubstr("use device: cpu"));
    } else {
      cpu[row[solver]] = row[status];
      EXPECT_EQ(row[error], "") << row[solver];
    }
  }
  for (const char* s : {"kernel_ridge", "falkon", "cg_ridge", "gp_regression"}) {
    EXPECT_EQ(cpu[s], "ok") << s;
    EXPECT_EQ(cuda[s], "refused") << s;
  }
  EXPECT_THAT(r.out + r.err, HasSubstr("8 runs: 4 ok, 0 failed, 4 refused"));
}

TEST(Device, AKernelWithoutADeviceFormRefusesOnlyItsCudaCells) {
  TempDir dir;
  // the Gaussian runs on both devices where there is a GPU; the cubic kernel has no formula
  // nor device form, so its cells on cuda are refused, and its cells on cpu run
  dir.write("exp.yaml",
            "experiment: gpu-kernels\n"
            "dataset: {plugin: friedman1, n: 200}\n"
            "kernels: [{plugin: gaussian, sigma: 2}, {plugin: cubic}]\n"
            "solvers: [{plugin: kernel_ridge, lambda: 0.01, device: [cpu, cuda]}]\n");
  const CommandResult r = run_kexp("run exp.yaml --out out --quiet", dir.path());
  EXPECT_EQ(r.exit_code, 1) << r.err;
  const core::CsvTable t = core::read_csv(dir.path() / "out" / "results.csv");
  ASSERT_EQ(t.rows.size(), 4U) << r.err;
  const std::size_t kernel = column(t, "kernel"), device = column(t, "solver.device"),
                    status = column(t, "status"), error = column(t, "error");
  for (const auto& row : t.rows) {
    const std::string what = row[kernel] + " on " + row[device];
    if (row[device] == "cpu") {
      EXPECT_EQ(row[status], "ok") << what;
    } else if (row[kernel] == "cubic") {
      EXPECT_EQ(row[status], "refused") << what;
      EXPECT_THAT(row[error], HasSubstr("the kernel cubic (kernels[1]) has neither"));
      EXPECT_THAT(row[error], HasSubstr("use device: cpu with it"));
    } else {
      // the Gaussian's cuda cell: it runs where there is a GPU
      EXPECT_EQ(row[status], device::gpu_info().present ? "ok" : "refused") << what;
      EXPECT_THAT(row[error], Not(HasSubstr("has neither")));
    }
  }
}

TEST(Device, WithoutAGpuAPrimalCellOnCudaIsRefusedBeforeAnythingRuns) {
  if (device::gpu_info().present) GTEST_SKIP() << "a GPU is present";
  TempDir dir;
  // the cubic kernel has no device form, and a primal cell needs none: only the GPU
  dir.write("exp.yaml",
            "experiment: gpu-primal\n"
            "dataset: {plugin: friedman1, n: 200}\n"
            "kernels: [{plugin: cubic}]\n"
            "solvers: [{plugin: primal_ridge, lambda: 0.01, device: cuda}]\n");
  const CommandResult r = run_kexp("run exp.yaml --out out --quiet", dir.path());
  EXPECT_EQ(r.exit_code, 2) << r.err;
  EXPECT_THAT(r.err, HasSubstr("solvers[0].device"));
  EXPECT_THAT(r.err, HasSubstr("cuda needs an NVIDIA GPU, and there is none"));
  EXPECT_THAT(r.err, Not(HasSubstr("device form")));
  EXPECT_FALSE(std::filesystem::exists(dir.path() / "out"));
}

TEST(Device, AKernelWithoutADeviceFormIsRefusedByName) {
  TempDir dir;
  dir.write("exp.yaml", experiment("{plugin: cubic}", "cuda"));
  const CommandResult r = run_kexp("run exp.yaml --out out --quiet", dir.path());
  EXPECT_EQ(r.exit_code, 2) << r.err;
  EXPECT_THAT(r.err, HasSubstr("solvers[0].device"));
  EXPECT_THAT(r.err, HasSubstr("the kernel cubic (kernels[0]) has neither"));
  EXPECT_THAT(r.err, HasSubstr("use device: cpu with it"));
}

TEST(Device, AKernelWrittenAsAFormulaNeedsOnlyTheGpu) {
  if (device::gpu_info().present) GTEST_SKIP() << "a GPU is present";
  TempDir dir;
  // no device form: the GPU runs its formula's program, so only the missing GPU is said
  dir.write("exp.yaml",
            experiment("{formula: \"(1 + r2 / (2 * alpha * l^2))^(-alpha)\", name: rq, alpha: "
                       "0.7, l: 1.0, psd: true}",
                       "cuda"));
  const CommandResult r = run_kexp("run exp.yaml --out out --quiet", dir.path());
  EXPECT_EQ(r.exit_code, 2) << r.err;
  EXPECT_THAT(r.err, HasSubstr("cuda needs an NVIDIA GPU, and there is none"));
  EXPECT_THAT(r.err, Not(HasSubstr("has neither")));
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

/// An end-to-end run of the device code path, once per backend: `device: host`
/// everywhere, `device: cuda` where there is a GPU.
class DeviceBackends : public ::testing::TestWithParam<std::string> {
 protected:
  void SetUp() override {
    if (GetParam() == "cuda" && !device::gpu_info().present) {
      GTEST_SKIP() << "no GPU: " << device::gpu_info().reason;
    }
  }
  [[nodiscard]] const std::string& backend() const { return GetParam(); }
  /// The device_name column of a cell on the backend: the GPU's name, or "host backend".
  [[nodiscard]] std::string device_name() const {
    return backend() == "cuda" ? device::gpu_info().name : "host backend";
  }
};

TEST_P(DeviceBackends, ASweepOverTheDeviceWritesTheGpuAndPredictsAsTheCpu) {
  TempDir dir;
  dir.write("exp.yaml", experiment("{plugin: gaussian, sigma: 2}", "[cpu, " + backend() + "]"));
  const CommandResult r = run_kexp("run exp.yaml --out out --quiet", dir.path());
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const core::CsvTable t = core::read_csv(dir.path() / "out" / "results.csv");
  ASSERT_EQ(t.rows.size(), 8U);
  const std::size_t solver = column(t, "solver"), device = column(t, "solver.device"),
                    name = column(t, "device_name"), rmse = column(t, "test_rmse"),
                    transfer = column(t, "transfer_seconds");
  std::map<std::string, double> cpu, gpu;
  for (const auto& row : t.rows) {
    const double value = std::stod(row[rmse]);
    if (row[device] == backend()) {
      EXPECT_EQ(row[name], device_name());
      EXPECT_GT(std::stod(row[transfer]), 0.0);
      gpu[row[solver]] = value;
    } else {
      EXPECT_EQ(row[name], "");
      cpu[row[solver]] = value;
    }
  }
  for (const char* s : {"kernel_ridge", "falkon", "cg_ridge", "gp_regression"}) {
    ASSERT_TRUE(cpu.count(s) && gpu.count(s)) << s;
    EXPECT_NEAR(gpu[s], cpu[s], 1e-9 * cpu[s]) << s;
  }
}

TEST_P(DeviceBackends, PrimalAndDualOnTheDevicePairAndAgreeAsOnTheCpu) {
  TempDir dir;
  dir.write("exp.yaml",
            "experiment: gpu-pairs\n"
            "dataset: {plugin: friedman1, n: 600}\n"
            "kernels: [{plugin: polynomial, degree: 2, c: 1}]\n"
            "solvers:\n"
            "  - {plugin: primal_ridge, lambda: 0.1, device: [cpu, " +
                backend() +
                "]}\n"
                "  - {plugin: kernel_ridge, lambda: 0.1, device: [cpu, " +
                backend() + "]}\n");
  const CommandResult r = run_kexp("run exp.yaml --out out --quiet", dir.path());
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const core::CsvTable t = core::read_csv(dir.path() / "out" / "results.csv");
  ASSERT_EQ(t.rows.size(), 4U);
  const std::size_t form = column(t, "form"), device = column(t, "solver.device"),
                    name = column(t, "device_name"), paired = column(t, "paired_with"),
                    diff = column(t, "prediction_max_diff"), rmse = column(t, "test_rmse");
  std::map<std::string, double> by_cell;
  for (const auto& row : t.rows) {
    EXPECT_EQ(row[name], row[device] == backend() ? device_name() : "");
    by_cell[row[form] + "/" + row[device]] = std::stod(row[rmse]);
    if (row[form] == "dual") {
      // each dual cell pairs with the primal cell on its own device, within the exact map's
      // bound
      EXPECT_FALSE(row[paired].empty());
      EXPECT_LT(std::stod(row[diff]), 1e-6);
    }
  }
  EXPECT_NEAR(by_cell["primal/" + backend()], by_cell["primal/cpu"], 1e-9 * by_cell["primal/cpu"]);
  EXPECT_NEAR(by_cell["dual/" + backend()], by_cell["dual/cpu"], 1e-9 * by_cell["dual/cpu"]);
}

TEST(Device, OnTheHostBackendACellOverItsMemoryIsRefusedWithTheFiguresAndTheOthersRun) {
  TempDir dir;
  // 1 MiB of host device memory: K of 320 × 320 (0.78 MiB) with the points fits, K of
  // 1600 × 1600 does not
  dir.write("exp.yaml",
            "experiment: host-memory\n"
            "dataset: {plugin: friedman1, n: [400, 2000]}\n"
            "kernels: [{plugin: gaussian, sigma: 2}]\n"
            "solvers: [{plugin: kernel_ridge, lambda: 0.01, device: host}]\n");
  // the dry run shows each cell's device memory, and the one over the limit
  const CommandResult dry =
      run_kexp("run exp.yaml --dry-run", dir.path(), "KEXP_HOST_DEVICE_MEMORY=1048576");
  ASSERT_EQ(dry.exit_code, 0) << dry.err;
  EXPECT_THAT(dry.out, ::testing::ContainsRegex("n=400\\).*host backend 0\\.[0-9]+ MiB\n"));
  EXPECT_THAT(dry.out, ::testing::ContainsRegex(
                           "n=2000\\).*host backend [0-9.]+ MiB  OVER HOST BACKEND MEMORY\n"));
  EXPECT_THAT(dry.out, HasSubstr("1 cells need more of the host backend's device memory than its "
                                 "limit of 1.00 MiB (KEXP_HOST_DEVICE_MEMORY)"));
  const CommandResult r =
      run_kexp("run exp.yaml --out out --quiet", dir.path(), "KEXP_HOST_DEVICE_MEMORY=1048576");
  const core::CsvTable t = core::read_csv(dir.path() / "out" / "results.csv");
  ASSERT_EQ(t.rows.size(), 2U) << r.err;
  const std::size_t n = column(t, "dataset.n"), status = column(t, "status"),
                    error = column(t, "error"), name = column(t, "device_name");
  for (const auto& row : t.rows) {
    if (row[n] == "400") {
      EXPECT_EQ(row[status], "ok") << row[error];
      EXPECT_EQ(row[name], "host backend");
    } else {
      EXPECT_EQ(row[status], "refused");
      EXPECT_THAT(row[error], HasSubstr("refused before it started: it needs about"));
      EXPECT_THAT(row[error], HasSubstr("of the host backend's device memory, more than its "
                                        "limit of 1.00 MiB (KEXP_HOST_DEVICE_MEMORY)"));
    }
  }
}

TEST(Device, APrimalCellOnTheHostBackendIsBudgetedWithItsDeviceCopies) {
  TempDir dir;
  dir.write("exp.yaml",
            "experiment: host-primal\n"
            "dataset: {plugin: friedman1, n: 2000}\n"
            "kernels: [{plugin: polynomial, degree: 2, c: 1}]\n"
            "solvers: [{plugin: primal_ridge, lambda: 0.1, device: [cpu, host]}]\n");
  const CommandResult dry = run_kexp("run exp.yaml --dry-run", dir.path());
  ASSERT_EQ(dry.exit_code, 0) << dry.err;
  // the line of each cell: "<id>  primal  <memory>  <time>  … | primal_ridge(…)…", with
  // device=host on the host cell's (the CPU, the default, is not written)
  std::map<std::string, std::string> memory;
  std::istringstream lines(dry.out);
  for (std::string line; std::getline(lines, line);) {
    if (line.find("| primal_ridge(") == std::string::npos) continue;
    std::istringstream fields(line);
    std::string id, form, amount, unit;
    fields >> id >> form >> amount >> unit;
    memory[line.find("device=host") != std::string::npos ? "host" : "cpu"] = amount + " " + unit;
  }
  ASSERT_EQ(memory.size(), 2U) << dry.out;
  EXPECT_THAT(dry.out, ::testing::ContainsRegex("device=host\\).*host backend [0-9.]+ MiB\n"));
  // the host cell holds Φ twice (the host's and the backend's): more than the CPU cell
  EXPECT_NE(memory["host"], memory["cpu"]);
  const auto bytes = [](const std::string& text) {
    const double value = std::stod(text);
    return text.find("MB") != std::string::npos ? value * 1e6 : value * 1e3;
  };
  EXPECT_GT(bytes(memory["host"]), bytes(memory["cpu"]));
}

TEST(Device, AHostMemoryLimitThatIsNotANumberOfBytesIsRefusedBeforeAnythingRuns) {
  TempDir dir;
  dir.write("exp.yaml", experiment("{plugin: gaussian, sigma: 2}", "host"));
  const CommandResult r =
      run_kexp("run exp.yaml --out out --quiet", dir.path(), "KEXP_HOST_DEVICE_MEMORY=12GiB");
  EXPECT_EQ(r.exit_code, 2) << r.err;
  EXPECT_THAT(r.err, HasSubstr("exp.yaml:9:"));
  EXPECT_THAT(r.err, HasSubstr("solvers[0].device = host: KEXP_HOST_DEVICE_MEMORY is '12GiB'"));
  EXPECT_THAT(r.err, HasSubstr("a positive whole number"));
  EXPECT_FALSE(std::filesystem::exists(dir.path() / "out" / "results.csv"));
}

TEST(Device, TheHostBackendNeedsNoGpuButAKernelWithADeviceForm) {
  TempDir dir;
  dir.write("exp.yaml", experiment("{plugin: cubic}", "host"));
  const CommandResult r = run_kexp("run exp.yaml --out out --quiet", dir.path());
  EXPECT_EQ(r.exit_code, 2) << r.err;
  EXPECT_THAT(r.err, HasSubstr("solvers[0].device = host runs kernels that declare a formula"));
  EXPECT_THAT(r.err, HasSubstr("the kernel cubic (kernels[0]) has neither"));
  EXPECT_THAT(r.err, Not(HasSubstr("NVIDIA GPU")));
}

TEST(Device, ACellOverTheGpusFreeMemoryIsRefusedBeforeItStartsWithTheFigures) {
  if (!device::gpu_info().present) GTEST_SKIP() << "no GPU: " << device::gpu_info().reason;
  // K alone, 8n² bytes for the training part (80% of friedman1's n), is a fifth larger
  // than what the GPU has free
  const auto n =
      static_cast<long>(std::ceil(std::sqrt(1.2 * device::gpu_info().free_bytes / 8.0) / 0.8)) + 1;
  TempDir dir;
  dir.write("exp.yaml",
            "experiment: gpu-memory\n"
            "dataset: {plugin: friedman1, n: " +
                std::to_string(n) +
                "}\n"
                "kernels: [{plugin: gaussian, sigma: 2}]\n"
                "solvers: [{plugin: kernel_ridge, lambda: 0.01, device: cuda}]\n");
  const CommandResult dry = run_kexp("run exp.yaml --out out --dry-run", dir.path());
  ASSERT_EQ(dry.exit_code, 0) << dry.err;
  EXPECT_THAT(dry.out, HasSubstr("OVER GPU MEMORY"));
  EXPECT_THAT(dry.out, HasSubstr("1 cells need more GPU memory than the"));
  const CommandResult r = run_kexp("run exp.yaml --out out --quiet", dir.path());
  const core::CsvTable t = core::read_csv(dir.path() / "out" / "results.csv");
  ASSERT_EQ(t.rows.size(), 1U) << r.err;
  EXPECT_EQ(t.rows[0][column(t, "status")], "refused");
  EXPECT_THAT(t.rows[0][column(t, "error")], HasSubstr("GiB of GPU memory, more than the"));
  EXPECT_THAT(t.rows[0][column(t, "error")], HasSubstr(device::gpu_info().name));
}

INSTANTIATE_TEST_SUITE_P(Backends, DeviceBackends, ::testing::Values("host", "cuda"),
                         [](const ::testing::TestParamInfo<std::string>& backend) {
                           return backend.param;
                         });

}  // namespace
}  // namespace kexp::test
