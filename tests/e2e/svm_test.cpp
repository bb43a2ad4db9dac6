// The support vector machines through the kexp program: svc and linear_svc pairing on an
// exact map with the same bias (and their decision values agreeing), svr and linear_svr,
// three classes one against one with test_accuracy, the summary's SVM table, and the
// inputs refused before anything runs with their place in the file.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include "support/plugins.hpp"
#include "util/csv.hpp"

namespace kexp::test {
namespace {

using ::testing::HasSubstr;

struct Results {
  core::CsvTable table;
  std::string value(std::size_t row, const std::string& column) const {
    const auto i = table.column(column);
    EXPECT_TRUE(i.has_value()) << column;
    return i ? table.rows.at(row)[*i] : std::string();
  }
  std::size_t row_of(const std::string& solver) const {
    const std::size_t s = table.column("solver").value();
    for (std::size_t r = 0; r < table.rows.size(); ++r)
      if (table.rows[r][s] == solver) return r;
    ADD_FAILURE() << "no row of " << solver;
    return 0;
  }
};

std::string read(const std::filesystem::path& file) {
  std::ifstream in(file);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

TEST(SvmEndToEnd, PrimalAndDualSvmsPairOnAnExactMapAndAgree) {
  TempDir dir;
  dir.write("svm.yaml", R"(experiment: svm-pairs
seed: 5
dataset: {plugin: blobs, n: 300, d: 3, classes: 2, radius: 1, noise: 1}
kernels:
  - plugin: polynomial
    degree: 2
solvers:
  - plugin: linear_svc
    C: 0.5                 # read as c
    bias: regularized
    tolerance: 1e-9
    epochs: 100000
  - plugin: svc
    c: 0.5
    bias: regularized      # the kernel k + 1: linear_svc's bias feature
    tolerance: 1e-9
  - plugin: svc            # LIBSVM's free bias: another model, no pair
    c: 0.5
    tolerance: 1e-9
)");
  const CommandResult r = run_kexp("run svm.yaml --out out", dir.path());
  ASSERT_EQ(r.exit_code, 0) << r.out << r.err;
  const Results res{core::read_csv(dir.path() / "out" / "results.csv")};
  ASSERT_EQ(res.table.rows.size(), 3U);
  const std::size_t primal = res.row_of("linear_svc");
  EXPECT_EQ(res.value(primal, "solver.c"), "0.5");
  // the regularized-bias svc is the second row and the pair of linear_svc
  EXPECT_EQ(res.value(1, "paired_with"), res.value(primal, "cell"));
  EXPECT_LT(std::stod(res.value(1, "prediction_max_diff")), 1e-6);
  EXPECT_EQ(res.value(2, "paired_with"), "");
  EXPECT_EQ(res.value(1, "support_vectors"), res.value(primal, "support_vectors"));
  EXPECT_GT(std::stod(res.value(1, "kernel_evaluations")), 0.0);
  EXPECT_GE(std::stod(res.value(1, "test_accuracy")), 0.6);
  const std::string summary = read(dir.path() / "out" / "summary.md");
  EXPECT_THAT(summary, HasSubstr("## Support vector machines"));
  EXPECT_THAT(summary, HasSubstr("kernel evaluations"));
}

TEST(SvmEndToEnd, TrainsThreeClassesAndRefusesThemToABinaryClassifier) {
  TempDir dir;
  const std::string base = R"(experiment: svm-classes
seed: 2
dataset: {plugin: blobs, n: 300, d: 2, classes: 3, radius: 3, noise: 1}
kernels:
  - plugin: gaussian
    sigma: 1
solvers:
)";
  dir.write("ok.yaml", base + "  - plugin: svc\n  - plugin: linear_svc\n");
  const CommandResult r = run_kexp("run ok.yaml --out out", dir.path());
  ASSERT_EQ(r.exit_code, 0) << r.out << r.err;
  const Results res{core::read_csv(dir.path() / "out" / "results.csv")};
  EXPECT_GE(std::stod(res.value(res.row_of("svc"), "test_accuracy")), 0.8);
  // a binary classifier is refused at its entry, before anything runs
  dir.write("bad.yaml", base + "  - plugin: svc\n  - plugin: kernel_ridge_classifier\n");
  const CommandResult bad = run_kexp("run bad.yaml --out bad", dir.path());
  EXPECT_EQ(bad.exit_code, 2);
  EXPECT_THAT(bad.err, HasSubstr("bad.yaml:9:5: solvers[1]: kernel_ridge_classifier does not "
                                 "take more than two classes"));
  EXPECT_FALSE(std::filesystem::exists(dir.path() / "bad"));
}

TEST(SvmEndToEnd, RefusesBadInputBeforeAnythingRuns) {
  TempDir dir;
  const auto refused = [&](const std::string& name, const std::string& text) {
    dir.write(name, text);
    const CommandResult r = run_kexp("run " + name + " --out never", dir.path());
    EXPECT_EQ(r.exit_code, 2) << r.out << r.err;
    EXPECT_FALSE(std::filesystem::exists(dir.path() / "never"));
    return r.err;
  };
  const std::string head = R"(experiment: bad
dataset: {plugin: blobs, n: 100, classes: 2}
kernels: [{plugin: gaussian}]
solvers:
)";
  EXPECT_THAT(refused("c.yaml", head + "  - {plugin: svc, c: 0}\n"),
              HasSubstr("c.yaml:5:22: solvers[0].c must be > 0, got 0"));
  EXPECT_THAT(refused("t.yaml", head + "  - {plugin: svc, tolerance: -1e-3}\n"),
              HasSubstr("solvers[0].tolerance must be > 0"));
  EXPECT_THAT(refused("e.yaml",
                      "experiment: bad\ndataset: {plugin: friedman1, n: 100}\nkernels: [{plugin: "
                      "gaussian}]\nsolvers:\n  - {plugin: svr, epsilon: -0.5}\n"),
              HasSubstr("solvers[0].epsilon must be ≥ 0, got -0.5"));
  // a classifier given regression targets
  EXPECT_THAT(refused("r.yaml",
                      "experiment: bad\ndataset: {plugin: friedman1, n: 100}\nkernels: [{plugin: "
                      "gaussian}]\nsolvers:\n  - plugin: svc\n"),
              HasSubstr("r.yaml:5:5: solvers[0]: svc is a classifier, and the dataset"));
  // one class in the training file
  dir.write("one.txt", "1 1:0.5\n1 1:0.7\n1 1:0.2\n");
  dir.write("two.txt", "1 1:0.5\n-1 1:0.7\n");
  EXPECT_THAT(
      refused("one.yaml",
              "experiment: bad\ndataset: {plugin: libsvm, train: one.txt, test: two.txt, "
              "task: classification}\nkernels: [{plugin: gaussian}]\nsolvers:\n  - "
              "plugin: svc\n"),
      HasSubstr("one.txt: task classification needs two distinct labels at least, found 1"));
}

TEST(SvmEndToEnd, MarksAnUnfinishedFitAndAnIndefiniteKernel) {
  TempDir dir;
  dir.write("limit.yaml", R"(experiment: svm-limit
dataset: {plugin: blobs, n: 200, classes: 2, radius: 1}
kernels:
  - plugin: sigmoid
    a: 1
    b: -1
solvers:
  - plugin: svc
    iterations: 5
)");
  const CommandResult r = run_kexp("run limit.yaml --out out", dir.path());
  ASSERT_EQ(r.exit_code, 0) << r.out << r.err;
  const Results res{core::read_csv(dir.path() / "out" / "results.csv")};
  EXPECT_EQ(res.value(0, "converged"), "false");
  EXPECT_EQ(res.value(0, "iterations"), "5");
  EXPECT_EQ(res.value(0, "kernel_indefinite"), "1");
  EXPECT_THAT(read(dir.path() / "out" / "summary.md"), HasSubstr("not converged"));
}

}  // namespace
}  // namespace kexp::test
