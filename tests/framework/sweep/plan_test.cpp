// The sweep plan: the product of variants, zip groups, stable cell ids, seeds, the cells
// left out, and shards.
#include "sweep/plan.hpp"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <set>

#include "support/plugins.hpp"
#include "sweep/kernel_resolution.hpp"
#include "sweep/shard.hpp"

namespace kexp::core {
namespace {

using ::testing::HasSubstr;

Plan plan_of(const std::string& text, const std::vector<std::string>& sets = {}) {
  std::vector<Override> overrides;
  for (const auto& s : sets) overrides.push_back({s});
  // as the runner does: the kernel itself says whether its parameters give it a map
  return make_plan(parse_experiment(text, "plan.yaml", overrides), test::registry(),
                   [](const Variant& v) { return create_kernel_of(v)->feature_map() != nullptr; });
}

std::string error_of(const std::string& text, const std::vector<std::string>& sets = {}) {
  try {
    plan_of(text, sets);
  } catch (const Error& e) {
    return e.what();
  }
  return "(no error)";
}

std::set<std::string> ids(const Plan& p) {
  std::set<std::string> out;
  for (const Cell& c : p.cells) out.insert(c.id);
  return out;
}

const char* const kSweep = R"(experiment: t
dataset:
  plugin: cubic
  n: [100, 200]
kernels:
  - plugin: gaussian
    sigma: [0.5, 1, 2]
solvers:
  - plugin: kernel_ridge
    lambda: [0.001, 0.1]
)";

TEST(Plan, ASweepOverTheLimitIsRefusedBeforeItIsExpanded) {
  // 10¹² cells from two generators: refused with its size and where it comes from,
  // without making a single variant of it.
  const std::string huge = R"(experiment: t
dataset: {plugin: cubic, n: 50}
kernels:
  - plugin: gaussian
    sigma: {linspace: [0.1, 10, 1000000]}
solvers:
  - plugin: kernel_ridge
    lambda: {linspace: [0.001, 1, 1000000]}
)";
  const std::string e = error_of(huge);
  EXPECT_THAT(e, HasSubstr("plan.yaml:4:5: the sweep has 1e+06 cells, more than the limit of "
                           "100000 (kernels[0]: sigma: 1000000 values)"));
  EXPECT_THAT(e, HasSubstr("--max-cells"));
  // Each part under the limit, their product over it.
  std::string wide = huge;
  wide.replace(wide.find("1000000]"), 7, "1000");
  wide.replace(wide.find("1000000]"), 7, "1000");
  EXPECT_THAT(error_of(wide),
              HasSubstr("the sweep has 1e+06 cells, more than the limit of 100000 (dataset (1 "
                        "variants); kernels[0] (1000 variants: sigma: 1000 values); solvers[0] "
                        "(1000 variants: lambda: 1000 values))"));
  Experiment small = parse_experiment(kSweep, "plan.yaml");
  small.max_cells = 11;  // 12 cells
  EXPECT_THROW(make_plan(small, test::registry()), ConfigError);
  small.max_cells = 12;
  EXPECT_EQ(make_plan(small, test::registry()).cells.size(), 12U);
}

TEST(Plan, RealParametersRefuseInfinity) {
  for (const std::string sigma : {"inf", "1e309", "{logspace: [300, 310, 3]}"}) {
    const std::string e = error_of(std::string(R"(experiment: t
dataset: {plugin: cubic, n: 50}
kernels: [{plugin: gaussian, sigma: )") +
                                   sigma + "}]\nsolvers: [{plugin: kernel_ridge}]\n");
    EXPECT_THAT(e, HasSubstr("must be a finite real number")) << sigma;
  }
}

TEST(Plan, CellsAreTheProductOfTheVariants) {
  const Plan p = plan_of(kSweep);
  EXPECT_EQ(p.datasets.size(), 2U);
  EXPECT_EQ(p.kernels.size(), 3U);
  EXPECT_EQ(p.solvers.size(), 2U);
  EXPECT_EQ(p.cells.size(), 12U);
  EXPECT_EQ(ids(p).size(), 12U);  // distinct
  for (std::size_t i = 0; i < p.cells.size(); ++i) EXPECT_EQ(p.cells[i].index, i);
  // The parameters at their default are left out of what the id hashes.
  EXPECT_EQ(p.kernels[0].canonical, "gaussian(sigma=0.5)");
  EXPECT_EQ(p.kernels[1].canonical, "gaussian()");
  EXPECT_EQ(p.datasets[0].canonical, "cubic(n=100)");
}

TEST(Plan, AParameterAtItsDefaultIsLeftOutOfTheIdWrittenOrNot) {
  // As if the plugin had gained `map` and `features` with defaults that keep what it did:
  // the ids of the cells that leave them at their default do not change.
  const Plan a = plan_of(kSweep);
  const Plan b = plan_of(kSweep, {"kernels[0].map=none", "kernels[0].features=1000"});
  EXPECT_EQ(ids(a), ids(b));
  const Plan c = plan_of(kSweep, {"kernels[0].map=rff"});
  EXPECT_EQ(c.kernels[0].canonical, "gaussian(sigma=0.5,map=rff)");
  for (const auto& id : ids(c)) EXPECT_EQ(ids(a).count(id), 0U);
}

TEST(Plan, CellIdsHashTheResolvedParameters) {
  // Writing a default out, reordering keys, or writing 1.0 for 1 changes nothing.
  const Plan a = plan_of(kSweep);
  const Plan b = plan_of(R"(experiment: other-name
seed: 99
dataset:
  n: [100, 200]
  plugin: cubic
  noise: 0.1
  test_fraction: 0.2
kernels:
  - plugin: gaussian
    sigma: [0.5, 1.0, 2]
solvers:
  - lambda: [1e-3, 0.1]
    plugin: kernel_ridge
)");
  EXPECT_EQ(ids(a), ids(b));
  // A different value is a different cell.
  const Plan c = plan_of(kSweep, {"kernels[0].sigma=0.5,1,3"});
  std::set<std::string> common;
  for (const auto& id : ids(c)) common.insert(ids(a).count(id) ? id : "");
  EXPECT_EQ(common.size(), 9U);  // 8 shared ids and ""
}

TEST(Plan, ZippedParametersMoveTogether) {
  const Plan p = plan_of(R"(experiment: t
dataset:
  plugin: cubic
  n: [100, 200, 400]
  d: [1, 2, 4]
  noise: [0, 0.1]
  zip: [n, d]
kernels: {plugin: gaussian}
solvers: {plugin: kernel_ridge}
)");
  ASSERT_EQ(p.datasets.size(), 6U);  // 3 (n, d) pairs × 2 noise levels
  std::set<std::pair<std::int64_t, std::int64_t>> pairs;
  for (const Variant& v : p.datasets) pairs.insert({v.params.integer("n"), v.params.integer("d")});
  EXPECT_EQ(pairs, (std::set<std::pair<std::int64_t, std::int64_t>>{{100, 1}, {200, 2}, {400, 4}}));
  // the group varies at the place of its first parameter: slowest here
  EXPECT_EQ(p.datasets[0].params.integer("n"), 100);
  EXPECT_EQ(p.datasets[1].params.integer("n"), 100);
  EXPECT_EQ(p.datasets[2].params.integer("n"), 200);
}

TEST(Plan, AZippedParameterMayRepeatAValueWhereTheTuplesDiffer) {
  const Plan p = plan_of(R"(experiment: t
dataset:
  plugin: cubic
  n: [100, 100, 200]
  d: [1, 2, 2]
  zip: [n, d]
kernels: {plugin: gaussian}
solvers: {plugin: kernel_ridge}
)");
  ASSERT_EQ(p.datasets.size(), 3U);
  EXPECT_EQ(ids(p).size(), 3U);
  // The same tuple twice is one cell twice: refused, naming it.
  EXPECT_THAT(error_of(R"(experiment: t
dataset:
  plugin: cubic
  n: [100, 200, 100]
  d: [1, 2, 1]
  zip: [n, d]
kernels: {plugin: gaussian}
solvers: {plugin: kernel_ridge}
)"),
              HasSubstr("dataset.zip: the values (n=100, d=1) go together twice, as values 1 "
                        "and 3"));
  // Unzipped, a repeated value is still refused.
  EXPECT_THAT(error_of(R"(experiment: t
dataset: {plugin: cubic, n: [100, 100]}
kernels: {plugin: gaussian}
solvers: {plugin: kernel_ridge}
)"),
              HasSubstr("is swept twice"));
}

TEST(Plan, ParametersAreCheckedAgainstTheSchemaWithTheirLocation) {
  EXPECT_THAT(error_of(kSweep, {"kernels[0].sigmaa=1"}),
              HasSubstr("--set kernels[0].sigmaa=1: kernels[0].sigmaa: kernel plugin 'gaussian' "
                        "has no parameter 'sigmaa'; did you mean 'sigma'?"));
  EXPECT_THAT(error_of(kSweep, {"kernels[0].sigma=-1"}),
              HasSubstr("--set kernels[0].sigma=-1: kernels[0].sigma must be > 0, got -1"));
  std::string wrong = kSweep;
  wrong.replace(wrong.find("[0.5, 1, 2]"), 11, "[0.5, x, 2]");
  EXPECT_THAT(error_of(wrong), HasSubstr("plan.yaml:7:18: kernels[0].sigma must be a real number"));
}

TEST(Plan, PrimalSolversOnKernelsWithoutAMapAreLeftOut) {
  const Plan p = plan_of(R"(experiment: t
dataset: {plugin: cubic}
kernels:
  - plugin: linear
  - plugin: gaussian
    map: [none, rff]
solvers:
  - plugin: primal_ridge
  - plugin: kernel_ridge
)");
  // linear × both, gaussian(map=none) × kernel_ridge, gaussian(map=rff) × both
  EXPECT_EQ(p.cells.size(), 5U);
  ASSERT_EQ(p.left_out.size(), 1U);
  EXPECT_THAT(p.left_out[0], HasSubstr("solvers[0] (primal_ridge, primal) with kernels[1] "
                                       "(gaussian): cells whose kernel has no feature map"));
  EXPECT_THAT(error_of(R"(experiment: t
dataset: {plugin: cubic}
kernels: {plugin: gaussian}
solvers: {plugin: primal_ridge}
)"),
              HasSubstr("no cell to run"));
}

TEST(Plan, WithoutBeingAskedASumHasNoMapAndAPluginItsFlags) {
  const Plan p = make_plan(parse_experiment(R"(experiment: t
dataset: {plugin: cubic}
kernels:
  - plugin: linear
  - sum:
      - {plugin: linear}
solvers:
  - plugin: primal_ridge
  - plugin: kernel_ridge
)",
                                            "plan.yaml"),
                           test::registry());
  // linear (flags::exact_map) × both, the sum × kernel_ridge
  EXPECT_EQ(p.cells.size(), 3U);
  ASSERT_EQ(p.left_out.size(), 1U);
  EXPECT_THAT(p.left_out[0], HasSubstr("with kernels[1] (sum)"));
}

TEST(Shard, SharesAreDisjointAndCoverThePlan) {
  const Plan p = plan_of(kSweep);  // 6 groups of 2 cells
  for (std::size_t n : {1U, 2U, 4U, 6U, 7U, 12U, 20U}) {
    std::vector<int> owners(p.cells.size(), 0);
    for (std::size_t i = 0; i < n; ++i) {
      const auto mine = cells_of_shard(p, Shard{i, n});
      for (std::size_t c = 0; c < mine.size(); ++c) owners[c] += mine[c] ? 1 : 0;
    }
    for (int o : owners) EXPECT_EQ(o, 1) << n << " shards";
  }
  // With at least as many groups as shards, a group stays together.
  const auto mine = cells_of_shard(p, Shard{1, 4});
  for (const Cell& c : p.cells) {
    for (const Cell& o : p.cells) {
      if (c.dataset == o.dataset && c.kernel == o.kernel) {
        EXPECT_EQ(mine[c.index], mine[o.index]);
      }
    }
  }
  // Deterministic.
  EXPECT_EQ(cells_of_shard(p, Shard{2, 7}), cells_of_shard(plan_of(kSweep), Shard{2, 7}));
}

TEST(Shard, ParsesIOfNAndSlurmArrays) {
  EXPECT_EQ(parse_shard("3/4").index, 3U);
  EXPECT_EQ(parse_shard("3/4").count, 4U);
  for (const char* bad : {"4/4", "1", "a/2", "1/0", "-1/2", "1/2/3", ""}) {
    EXPECT_THROW(parse_shard(bad), ConfigError) << bad;
  }
  unsetenv("SLURM_ARRAY_TASK_ID");
  unsetenv("SLURM_ARRAY_TASK_COUNT");
  unsetenv("SLURM_ARRAY_TASK_MIN");
  EXPECT_FALSE(shard_from_environment().has_value());
  setenv("SLURM_ARRAY_TASK_ID", "5", 1);
  setenv("SLURM_ARRAY_TASK_COUNT", "4", 1);
  setenv("SLURM_ARRAY_TASK_MIN", "3", 1);  // --array=3-6
  const auto s = shard_from_environment();
  ASSERT_TRUE(s.has_value());
  EXPECT_EQ(s->index, 2U);
  EXPECT_EQ(s->count, 4U);
  setenv("SLURM_ARRAY_TASK_ID", "9", 1);
  EXPECT_THROW(shard_from_environment(), ConfigError);
  unsetenv("SLURM_ARRAY_TASK_ID");
  unsetenv("SLURM_ARRAY_TASK_COUNT");
  unsetenv("SLURM_ARRAY_TASK_MIN");
}

TEST(Plan, AsksWhetherEachKernelVariantHasAMapOnceInOrder) {
  std::vector<std::string> asked;
  const Plan p = make_plan(parse_experiment(R"(experiment: t
dataset: {plugin: cubic}
kernels:
  - {plugin: gaussian, sigma: [0.5, 1], map: [none, rff]}
  - {plugin: linear}
solvers:
  - plugin: kernel_ridge
)",
                                            "plan.yaml"),
                           test::registry(), [&](const Variant& v) {
                             asked.push_back(v.canonical);
                             return true;
                           });
  std::vector<std::string> variants;
  for (const Variant& v : p.kernels) variants.push_back(v.canonical);
  EXPECT_EQ(asked, variants);
  EXPECT_EQ(asked.size(), 5U);
}

TEST(Plan, EachSolverVariantCarriesItsExecutionTarget) {
  const Plan p = plan_of(R"(experiment: t
dataset: {plugin: cubic, n: 100}
kernels: [{plugin: gaussian}]
solvers:
  - {plugin: kernel_ridge, device: [cpu, cuda]}
  - {plugin: kernel_ridge, precision: mixed}
  - {plugin: primal_ridge, precision: single}
  - {plugin: svr}
)");
  ASSERT_EQ(p.solvers.size(), 5U);
  const auto target_of = [&](const std::string& canonical) {
    for (const Variant& v : p.solvers) {
      if (v.canonical == canonical) return v.target;
    }
    ADD_FAILURE() << "no solver variant " << canonical;
    return ExecutionTarget{};
  };
  EXPECT_EQ(target_of("kernel_ridge()"), (ExecutionTarget{Device::cpu, Precision::Double}));
  EXPECT_EQ(target_of("kernel_ridge(device=cuda)"),
            (ExecutionTarget{Device::cuda, Precision::Double}));
  EXPECT_EQ(target_of("kernel_ridge(precision=mixed)"),
            (ExecutionTarget{Device::cpu, Precision::Mixed}));
  EXPECT_EQ(target_of("primal_ridge(precision=single)"),
            (ExecutionTarget{Device::cpu, Precision::Single}));
  EXPECT_EQ(target_of("svr()"), ExecutionTarget{})
      << "a solver without either runs on cpu in double";
  EXPECT_EQ(std::count_if(p.solvers.begin(), p.solvers.end(), runs_on_device), 1);
  EXPECT_EQ(std::count_if(p.solvers.begin(), p.solvers.end(), runs_in_mixed), 1);
  EXPECT_EQ(std::count_if(p.solvers.begin(), p.solvers.end(), runs_in_single), 1);
  for (const Variant& v : p.kernels) EXPECT_EQ(v.target, ExecutionTarget{});
}

}  // namespace
}  // namespace kexp::core
