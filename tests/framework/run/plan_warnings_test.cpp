// Warnings about a plan: a kernel that is not PSD given to a solver that needs one, said
// once a pair; metrics a solver reports without declaring them, said once a name.
#include "run/plan_warnings.hpp"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "support/config.hpp"
#include "support/plugins.hpp"

namespace kexp::core {
namespace {

using ::testing::HasSubstr;

Plan plan_of(const std::string& text) {
  return make_plan(test::parse_config(text), test::registry());
}

TEST(PlanWarnings, ANonPsdKernelMeetingASolverThatNeedsPsdIsSaidOncePerPair) {
  const Plan plan = plan_of(R"(experiment: w
dataset: {plugin: cubic, n: 40}
kernels:
  - plugin: sigmoid
    a: 1
    b: [-1, -2]
  - plugin: gaussian
solvers:
  - plugin: kernel_ridge
    lambda: [0.1, 1]
  - plugin: nadaraya_watson
)");
  std::vector<std::shared_ptr<Kernel>> kernels;
  for (const Variant& v : plan.kernels) kernels.push_back(create_kernel(*v.plugin, v.params));
  const std::vector<bool> all(plan.cells.size(), true);
  const auto warnings = psd_warnings(plan, all, kernels);
  // two sigmoid variants × kernel_ridge (two λ each: one warning a variant); the Gaussian
  // is PSD and Nadaraya-Watson does not need PSD
  ASSERT_EQ(warnings.size(), 2U);
  EXPECT_THAT(warnings[0], HasSubstr("the kernel sigmoid(b=-1)"));
  EXPECT_THAT(warnings[1], HasSubstr("the kernel sigmoid(b=-2)"));
  EXPECT_THAT(warnings[0], HasSubstr("solver 'kernel_ridge' needs a PSD kernel"));
  // cells not selected (another shard) are not warned about
  EXPECT_TRUE(psd_warnings(plan, std::vector<bool>(plan.cells.size(), false), kernels).empty());
}

TEST(PlanWarnings, AnUndeclaredMetricIsSaidOnce) {
  const Plan plan = plan_of(test::kBaseConfig);
  CellResult result;
  result.metrics = {{"band_reduction", 0.0}, {"surprise", 1.0}};
  std::set<std::string> said;
  const auto first = undeclared_metric_warnings(plan, plan.cells[0], result, said);
  ASSERT_EQ(first.size(), 1U);
  EXPECT_THAT(first[0], HasSubstr("solver 'kernel_ridge' reported the metric 'surprise'"));
  EXPECT_TRUE(undeclared_metric_warnings(plan, plan.cells[1], result, said).empty());
}

}  // namespace
}  // namespace kexp::core
