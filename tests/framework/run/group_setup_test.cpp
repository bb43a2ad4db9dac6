// The groups of a run, formed once: one per dataset variant, repeat and kernel variant,
// of the runs still to do, each cell placed towards the group's K; and each cell's most
// demanding place over its groups, which the dry run's estimates read.
#include "run/group_setup.hpp"

#include <gtest/gtest.h>

#include "support/config.hpp"
#include "support/plugins.hpp"

namespace kexp::core {
namespace {

// Three cells of one group, in this order: A reads K, X (primal) reads none and runs
// beside K, C reads K last and may factor it in place.
constexpr const char* kThree = R"(experiment: g
dataset: {plugin: friedman1, n: 40}
kernels: [{plugin: polynomial, degree: 2}]
solvers:
  - {plugin: kernel_ridge, lambda: 0.1}
  - {plugin: primal_ridge, lambda: 0.1}
  - {plugin: kernel_ridge, lambda: 1}
)";
constexpr std::size_t kA = 0, kX = 1, kC = 2;

Plan three_cells() {
  Plan plan = make_plan(test::parse_config(kThree), test::registry());
  EXPECT_EQ(plan.cells.size(), 3U);
  return plan;
}

TEST(RunGroups, OnePerRepeatOfTheRunsToDoEachCellAtItsPlace) {
  const Plan plan = three_cells();
  const auto groups = form_run_groups(plan, 2, [](const Cell&, int) { return true; });
  ASSERT_EQ(groups.size(), 2U);
  for (int r = 0; r < 2; ++r) {
    const RunGroup& g = groups[static_cast<std::size_t>(r)];
    EXPECT_EQ(g.repeat, r);
    ASSERT_EQ(g.cells.size(), 3U);
    ASSERT_EQ(g.places.size(), 3U);
    EXPECT_FALSE(g.places[kA].last_reader);
    EXPECT_TRUE(g.places[kX].beside_gram);
    EXPECT_TRUE(g.places[kC].last_reader);
  }
  const auto places = demanding_places(plan, groups);
  EXPECT_FALSE(places[kA].last_reader);
  EXPECT_TRUE(places[kX].beside_gram);
  EXPECT_TRUE(places[kC].last_reader);
  // nothing left to do: no group
  EXPECT_TRUE(form_run_groups(plan, 2, [](const Cell&, int) { return false; }).empty());
}

TEST(RunGroups, ACellsEstimateIsAtItsMostDemandingPlaceOverItsGroups) {
  const Plan plan = three_cells();
  // a run stopped after A in repeat 0: that repeat's group is X and C, where X runs before
  // any cell has built K; repeat 1's is whole, where X runs beside it
  const auto groups =
      form_run_groups(plan, 2, [](const Cell& c, int r) { return !(r == 0 && c.index == kA); });
  ASSERT_EQ(groups.size(), 2U);
  ASSERT_EQ(groups[0].cells.size(), 2U);
  EXPECT_FALSE(groups[0].places[0].beside_gram);
  const auto places = demanding_places(plan, groups);
  EXPECT_TRUE(places[kX].beside_gram) << "repeat 1 holds K beside it";
  EXPECT_TRUE(places[kC].last_reader);
  EXPECT_FALSE(places[kA].last_reader);
}

TEST(RunGroups, ACellLeftAloneOrOutsideTheShardIsPlacedAlone) {
  const Plan plan = three_cells();
  // C done in every repeat (or outside the shard): A is then the last to read K, and may
  // factor it in place; X runs after it
  const auto groups = form_run_groups(plan, 1, [](const Cell& c, int) { return c.index != kC; });
  ASSERT_EQ(groups.size(), 1U);
  const auto places = demanding_places(plan, groups);
  EXPECT_TRUE(places[kA].last_reader);
  EXPECT_TRUE(places[kX].after_gram);
  EXPECT_TRUE(places[kC].last_reader) << "alone, a cell that reads K is its last reader";
}

}  // namespace
}  // namespace kexp::core
