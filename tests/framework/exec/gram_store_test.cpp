// Where each cell of a group stands towards the group's K: which cells get no K (those
// that reach the kernel, learn it, or run on the GPU), which reads K last, and which run
// beside K or after it.
#include "exec/gram_store.hpp"

#include <gtest/gtest.h>

#include <string>
#include <utility>
#include <vector>

#include "support/plugins.hpp"

namespace kexp::core {
namespace {

using test::checked_params;
using test::registry;

TEST(GroupReaders, TheLastCellToReadKAndTheCellsThatRunBesideK) {
  const auto solver = [](const char* name, const test::TextParams& params) {
    Variant v;
    v.plugin = &registry().find(PluginKind::Solver, name);
    v.params = checked_params(*v.plugin, params);
    v.target = ExecutionTarget::of(v.params);  // as make_plan resolves it
    return v;
  };
  const Variant ridge = solver("kernel_ridge", {{"lambda", "0.1"}});
  const Variant primal = solver("primal_ridge", {{"lambda", "0.1"}});
  const Variant cg = solver("cg_ridge", {{"lambda", "0.1"}});
  const Variant fixed = solver("gp_regression", {{"optimize", "false"}});
  const Variant learning = solver("gp_regression", {{"optimize", "true"}});
  Cell dual, primal_cell;
  dual.form = Form::Dual;
  primal_cell.form = Form::Primal;
  EXPECT_FALSE(reaches_kernel(dual, fixed));
  EXPECT_TRUE(reaches_kernel(dual, learning)) << "K at the written values would go unread";
  EXPECT_TRUE(reaches_kernel(dual, cg));
  EXPECT_FALSE(reads_gram(dual, learning));
  EXPECT_FALSE(reads_gram(primal_cell, primal));
  // a cell on the GPU builds K there: the host builds none for it
  const Variant ridge_on_gpu = solver("kernel_ridge", {{"device", "cuda"}});
  const Variant ridge_on_cpu = solver("kernel_ridge", {{"device", "cpu"}});
  EXPECT_TRUE(runs_on_device(ridge_on_gpu));
  EXPECT_FALSE(runs_on_device(ridge_on_cpu));
  EXPECT_FALSE(runs_on_device(fixed)) << "a solver without the parameter runs on the CPU";
  EXPECT_TRUE(reaches_kernel(dual, ridge_on_gpu));
  EXPECT_FALSE(reads_gram(dual, ridge_on_gpu));
  EXPECT_TRUE(reads_gram(dual, ridge_on_cpu));

  const auto group = [&](std::vector<std::pair<const Cell*, const Variant*>> list) {
    std::vector<GroupCell> cells;
    for (const auto& [c, v] : list) cells.push_back({c, v, std::nullopt});
    return cells;
  };
  EXPECT_EQ(last_gram_reader(group({{&dual, &ridge}, {&dual, &fixed}, {&dual, &learning}})), 1U);
  EXPECT_EQ(last_gram_reader(group({{&dual, &fixed}, {&primal_cell, &primal}, {&dual, &cg}})), 0U);
  EXPECT_EQ(last_gram_reader(group({{&dual, &learning}, {&primal_cell, &primal}})), 2U)
      << "no cell reads K";
  EXPECT_EQ(last_gram_reader({}), 0U);

  // K and K(X, X*), built by the first cell to read K, are kept until the last has run
  // (L) and beside the cells between that read no K (B), and released before the cells
  // after it (A)
  const auto places = [&](std::vector<std::pair<const Cell*, const Variant*>> list) {
    std::string text;
    for (const GramPlace& p : gram_places(group(std::move(list)))) {
      EXPECT_LE(int{p.last_reader} + int{p.beside_gram} + int{p.after_gram}, 1);
      text += p.last_reader ? 'L' : p.beside_gram ? 'B' : p.after_gram ? 'A' : '.';
    }
    return text;
  };
  EXPECT_EQ(places({{&dual, &ridge}, {&dual, &learning}, {&dual, &fixed}}), ".BL");
  EXPECT_EQ(places({{&dual, &learning}, {&dual, &ridge}, {&primal_cell, &primal}}), ".LA");
  EXPECT_EQ(
      places(
          {{&dual, &ridge}, {&primal_cell, &primal}, {&dual, &cg}, {&dual, &ridge}, {&dual, &cg}}),
      ".BBLA");
  EXPECT_EQ(places({{&dual, &cg}, {&primal_cell, &primal}}), "AA");
}

}  // namespace
}  // namespace kexp::core
