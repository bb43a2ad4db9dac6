// Through the kexp program: a NaN or an infinity in K, Φ or the predictions fails the
// cell with a message naming the plugin, the phase and where (for a kernel given by a
// formula, the first pair and its value; otherwise how many entries), and the run
// exits 1; it is never written as an ok result. A cell whose feature map cannot be built
// for the data is refused before it starts, and the others run.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <map>
#include <string>

#include "reporting/result_folder.hpp"
#include "support/plugins.hpp"

namespace kexp::test {
namespace {

namespace fs = std::filesystem;
using ::testing::AllOf;
using ::testing::HasSubstr;

// Features of size 1e200: every inner product overflows to infinity.
constexpr const char* kData =
    "x1,x2,y\n1e200,1e200,1\n2e200,1e200,2\n1e200,3e200,3\n"
    "3e200,2e200,4\n2e200,2e200,5\n1e200,1e200,6\n";

constexpr const char* kConfig = R"(experiment: overflow
dataset:
  plugin: csv
  train: data.csv
  standardize: false
  test_fraction: 0.5
kernels:
  - plugin: linear
solvers:
  - plugin: kernel_ridge
  - plugin: primal_ridge
)";

TEST(NonFiniteResults, OverflowFailsEachCellWithWhereAndHowMany) {
  TempDir dir;
  dir.write("data.csv", kData);
  dir.write("exp.yaml", kConfig);
  const CommandResult r = run_kexp("run exp.yaml --out out --quiet", dir.path());
  EXPECT_EQ(r.exit_code, 1) << r.err;
  const core::CsvTable t = core::ResultFolder(dir.path() / "out").read_results();
  ASSERT_EQ(t.rows.size(), 2U);
  const auto column = [&](const std::string& name) {
    for (std::size_t i = 0; i < t.columns.size(); ++i)
      if (t.columns[i] == name) return i;
    ADD_FAILURE() << "no column " << name;
    return std::size_t{0};
  };
  std::map<std::string, std::string> error_of;
  for (const auto& row : t.rows) {
    EXPECT_EQ(row[column("status")], "failed");
    error_of[row[column("form")]] = row[column("error")];
  }
  // dual: K(X, X) = XᵀX overflows, every entry (3 training points). The linear kernel is
  // a formula, whose engine stops at the first value that is not finite, naming its pair.
  EXPECT_THAT(error_of["dual"],
              AllOf(HasSubstr("kernel 'linear' failed while computing the Gram matrix"),
                    HasSubstr("the kernel's value for the pair (x_0, x_0)"), HasSubstr("is inf"),
                    HasSubstr("s = inf")));
  // primal: Φ = X is finite, the solver's ΦΦᵀ is not: its Cholesky refuses it
  EXPECT_THAT(error_of["primal"],
              AllOf(HasSubstr("solver 'primal_ridge' failed while fitting"),
                    HasSubstr("the matrix to factor has entries that are not finite")));
}

TEST(NonFiniteResults, AFeatureMapThatCannotBeBuiltRefusesItsCellOnly) {
  TempDir dir;
  dir.write("exp.yaml", R"(experiment: huge-map
dataset: {plugin: cubic, n: 40, d: 2}
kernels:
  - plugin: polynomial
    degree: [2, 4294967297]
solvers:
  - plugin: primal_ridge
)");
  const CommandResult dry = run_kexp("run exp.yaml --dry-run", dir.path());
  EXPECT_EQ(dry.exit_code, 0) << dry.err;
  EXPECT_THAT(dry.out, AllOf(HasSubstr("CANNOT RUN: the feature map would have D = "),
                             HasSubstr("1 cells cannot run")));
  const CommandResult r = run_kexp("run exp.yaml --out out --quiet", dir.path());
  EXPECT_EQ(r.exit_code, 1) << r.err;
  const core::CsvTable t = core::ResultFolder(dir.path() / "out").read_results();
  ASSERT_EQ(t.rows.size(), 2U);
  std::size_t status = 0, error = 0;
  for (std::size_t i = 0; i < t.columns.size(); ++i) {
    if (t.columns[i] == "status") status = i;
    if (t.columns[i] == "error") error = i;
  }
  EXPECT_EQ(t.rows[0][status], "ok");
  EXPECT_EQ(t.rows[1][status], "refused");
  EXPECT_THAT(t.rows[1][error], HasSubstr("degree p = 4294967297"));
}

}  // namespace
}  // namespace kexp::test
