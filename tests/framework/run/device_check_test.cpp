// The device check: each selected cell that cannot run on its solver's target gets its
// reason, the others none; a plan none of whose selected cells can run is a ConfigError
// at the first one's `device` setting.
#include "run/device_check.hpp"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "kexp/device.hpp"
#include "support/config.hpp"
#include "support/plugins.hpp"
#include "sweep/kernel_resolution.hpp"

namespace kexp::core {
namespace {

using ::testing::HasSubstr;

struct Checked {
  Experiment experiment;
  Plan plan;
  std::vector<std::shared_ptr<Kernel>> kernels;
};

Checked checked(const std::string& text) {
  Checked c{test::parse_config(text), {}, {}};
  c.plan = make_plan(c.experiment, test::registry());
  for (const Variant& v : c.plan.kernels) c.kernels.push_back(create_kernel_of(v));
  return c;
}

constexpr const char* kTwoKernels = R"(experiment: d
dataset: {plugin: cubic, n: 40}
kernels:
  - {plugin: gaussian}
  - {plugin: cubic}
solvers:
  - plugin: kernel_ridge
    device: [cpu, cuda]
)";

TEST(DeviceCheck, OnlyTheCellsThatCannotRunOnTheirDeviceAreRefused) {
  const Checked c = checked(kTwoKernels);
  ASSERT_EQ(c.plan.cells.size(), 4U);
  const std::vector<bool> all(c.plan.cells.size(), true);
  const auto refusals = check_devices(c.experiment, c.plan, all, c.kernels);
  ASSERT_EQ(refusals.size(), 4U);
  for (const Cell& cell : c.plan.cells) {
    const bool on_cuda = c.plan.solvers[cell.solver].target.device == Device::cuda;
    const std::string kernel = c.plan.kernels[cell.kernel].name();
    if (!on_cuda) {
      EXPECT_FALSE(refusals[cell.index]) << kernel << " on cpu always runs";
    } else if (kernel == "cubic") {
      ASSERT_TRUE(refusals[cell.index]);
      EXPECT_THAT(*refusals[cell.index],
                  HasSubstr("solvers[0].device = cuda runs kernels that declare a formula"));
      EXPECT_THAT(*refusals[cell.index], HasSubstr("the kernel cubic (kernels[1]) has neither"));
    } else {
      // the Gaussian has a formula: only the GPU decides
      EXPECT_EQ(refusals[cell.index].has_value(), !device::gpu_info().present);
      if (refusals[cell.index]) {
        EXPECT_THAT(*refusals[cell.index],
                    HasSubstr("solvers[0].device = cuda needs an NVIDIA GPU, and there is none"));
      }
    }
  }
}

TEST(DeviceCheck, ACellNotSelectedIsNotChecked) {
  const Checked c = checked(kTwoKernels);
  std::vector<bool> cpu_only(c.plan.cells.size());
  for (const Cell& cell : c.plan.cells) {
    cpu_only[cell.index] = c.plan.solvers[cell.solver].target.device == Device::cpu;
  }
  for (const auto& why : check_devices(c.experiment, c.plan, cpu_only, c.kernels)) {
    EXPECT_FALSE(why);
  }
}

TEST(DeviceCheck, APlanNoneOfWhoseCellsCanRunIsAConfigErrorAtTheSetting) {
  const Checked c = checked(R"(experiment: d
dataset: {plugin: cubic, n: 40}
kernels: [{plugin: cubic}]
solvers:
  - plugin: kernel_ridge
    device: cuda
)");
  const std::vector<bool> all(c.plan.cells.size(), true);
  try {
    (void)check_devices(c.experiment, c.plan, all, c.kernels);
    FAIL() << "every cell is refused: the run must be";
  } catch (const ConfigError& e) {
    EXPECT_EQ(e.key(), "solvers[0].device");
    EXPECT_EQ(e.where().line, 6);
    EXPECT_THAT(e.what(), HasSubstr("the kernel cubic (kernels[0]) has neither"));
  }
  // no cell selected (an empty shard): nothing to refuse
  const auto none = check_devices(c.experiment, c.plan, std::vector<bool>(1, false), c.kernels);
  EXPECT_FALSE(none.at(0));
}

}  // namespace
}  // namespace kexp::core
