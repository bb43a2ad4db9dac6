// Through the kexp program: kernels written as formulas in the experiment file sweep, run in
// float64 and float32 and give the built-in kernel's numbers where the formula is the same;
// a formula with a mistake is refused before anything runs at its file:line:column and the
// column inside it; a value that is not finite fails its cell, naming the pair; dry runs,
// check-kernel and describe take formulas; a plugin that is its formula alone runs natively
// in float32; and a kernel whose declared formula or device form is not what its compute()
// computes is refused before any cell.
#include <fmt/format.h>
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cmath>
#include <string>

#include "support/plugins.hpp"
#include "support/results.hpp"

namespace kexp::test {
namespace {

namespace fs = std::filesystem;
using ::testing::AllOf;
using ::testing::HasSubstr;

std::string forms() {
  return fmt::format("--plugin-path '{}'", (fixture_dir() / "forms").string());
}

constexpr const char* kRationalQuadratic = R"yaml(experiment: formulas
seed: 3
dataset: {plugin: friedman1, n: 120}
kernels:
  - formula: "(1 + r2 / (2 * alpha * l^2))^(-alpha)"
    name: rational_quadratic
    alpha: [0.5, 2]
    l: 1.5
    psd: true
  - formula: "exp(-r2 / (2 * sigma^2))"
    name: gaussian_formula
    sigma: 1.5
  - plugin: gaussian
    sigma: 1.5
solvers:
  - plugin: kernel_ridge
    lambda: 0.01
    precision: [double, single, mixed]
)yaml";

TEST(FormulaKernels, SweepAndRunInFloat64AndFloat32AsTheBuiltInKernelDoes) {
  TempDir dir;
  dir.write("exp.yaml", kRationalQuadratic);
  const CommandResult r = run_kexp("run exp.yaml --out out --quiet", dir.path());
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto rows = result_rows(dir.path() / "out");
  ASSERT_EQ(rows.size(), 12U);
  double gaussian_formula = NAN, gaussian_plugin = NAN;
  int rational = 0;
  for (const ResultRow& row : rows) {
    EXPECT_EQ(row.at("status"), "ok") << row.at("error");
    if (row.at("solver.precision") == "single") {
      EXPECT_EQ(row.at("gram_converted"), "0") << row.at("kernel");  // natively in float32
    }
    if (row.at("kernel") == "rational_quadratic") {
      ++rational;
      EXPECT_EQ(row.at("kernel.formula"), "(1 + r2 / (2 * alpha * l^2))^(-alpha)");
      EXPECT_THAT(row.at("kernel.alpha"), testing::AnyOf("0.5", "2"));
    }
    if (row.at("solver.precision") != "double") continue;
    if (row.at("kernel") == "gaussian_formula") gaussian_formula = std::stod(row.at("test_rmse"));
    if (row.at("kernel") == "gaussian") gaussian_plugin = std::stod(row.at("test_rmse"));
  }
  EXPECT_EQ(rational, 6);
  // the same kernel written as a formula and as the plugin: the same model
  EXPECT_NEAR(gaussian_formula, gaussian_plugin, 1e-10 * gaussian_plugin);
  // the resolved config writes the formula back, and runs as it is
  const CommandResult again = run_kexp("run out/config.yaml --out again --quiet", dir.path());
  EXPECT_EQ(again.exit_code, 0) << again.err;
}

TEST(FormulaKernels, TheMatrixFreeSolversStreamAFormulaInFloat32) {
  // falkon and cg_ridge in mixed precision: the tiles of K in float32, from the formula
  TempDir dir;
  dir.write("exp.yaml", R"yaml(experiment: streamed
dataset: {plugin: friedman1, n: 300}
kernels:
  - formula: "(1 + sqrt(3) * r / l) * exp(-sqrt(3) * r / l)"
    name: matern32
    l: 1.5
    psd: true
solvers:
  - plugin: falkon
    m: 60
    lambda: 0.001
    precision: [double, mixed]
  - plugin: cg_ridge
    lambda: 0.1
    precision: [double, mixed]
)yaml");
  const CommandResult r = run_kexp("run exp.yaml --out out --quiet", dir.path());
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto rows = result_rows(dir.path() / "out");
  ASSERT_EQ(rows.size(), 4U);
  for (const ResultRow& row : rows) {
    EXPECT_EQ(row.at("status"), "ok") << row.at("error");
    if (row.at("solver.precision") != "mixed") continue;
    EXPECT_EQ(row.at("gram_converted"), "0") << row.at("solver");
    EXPECT_GT(std::stod(row.at("precision_max_diff")), 0.0)
        << row.at("solver") << " ran in float64";
    EXPECT_LT(std::stod(row.at("precision_max_diff")), 1e-2) << row.at("solver");
  }
}

TEST(FormulaKernels, AMistakeInAFormulaIsReportedAtItsPlaceBeforeAnythingRuns) {
  TempDir dir;
  std::string text = kRationalQuadratic;
  text.replace(text.find("alpha * l^2"), 11, "alpha * ll^2");
  dir.write("exp.yaml", text);
  const CommandResult r = run_kexp("run exp.yaml --out out", dir.path());
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_THAT(r.err, AllOf(HasSubstr("exp.yaml:5:14: kernels[0].formula: column 24 of the "
                                     "formula \"(1 + r2 / (2 * alpha * ll^2))^(-alpha)\""),
                           HasSubstr("unknown name 'll' (did you mean 'l'?)")));
  EXPECT_FALSE(fs::exists(dir.path() / "out"));
  // a parameter the formula does not use, at its own place
  text = kRationalQuadratic;
  text.replace(text.find("    l: 1.5"), 10, "    l: 1.5\n    beta: 2");
  dir.write("unused.yaml", text);
  const CommandResult unused = run_kexp("run unused.yaml --out out", dir.path());
  EXPECT_EQ(unused.exit_code, 2);
  EXPECT_THAT(unused.err, HasSubstr("unused.yaml:9:11: kernels[0].beta is set, but the formula"));
  // a value that makes a constant part of it infinite, naming the value
  text = kRationalQuadratic;
  text.replace(text.find("alpha: [0.5, 2]"), 15, "alpha: [0.5, 0]");
  dir.write("zero.yaml", text);
  const CommandResult zero = run_kexp("run zero.yaml --dry-run", dir.path());
  EXPECT_EQ(zero.exit_code, 2);
  EXPECT_THAT(zero.err, AllOf(HasSubstr("zero.yaml:5:14: kernels[0].formula with alpha = 0, "
                                        "l = 1.5"),
                              HasSubstr("division by zero")));
}

TEST(FormulaKernels, AValueThatIsNotFiniteFailsTheCellNamingThePair) {
  TempDir dir;
  dir.write("exp.yaml", R"yaml(experiment: nan
dataset: {plugin: friedman1, n: 60}
kernels:
  - formula: "sqrt(s - 2.5)"
solvers:
  - plugin: kernel_ridge
    lambda: 0.01
)yaml");
  const CommandResult r = run_kexp("run exp.yaml --out out --quiet", dir.path());
  EXPECT_EQ(r.exit_code, 1) << r.err;
  const auto rows = result_rows(dir.path() / "out");
  ASSERT_EQ(rows.size(), 1U);
  EXPECT_EQ(rows[0].at("status"), "failed");
  EXPECT_THAT(rows[0].at("error"),
              AllOf(HasSubstr("kernel 'formula' failed while computing the Gram matrix"),
                    HasSubstr("the kernel's value for the pair (x_"), HasSubstr("is NaN"),
                    HasSubstr("s = ")));
}

TEST(FormulaKernels, DryRunCheckKernelAndDescribeTakeFormulas) {
  TempDir dir;
  dir.write("exp.yaml", kRationalQuadratic);
  const CommandResult dry = run_kexp("run exp.yaml --dry-run", dir.path());
  EXPECT_EQ(dry.exit_code, 0) << dry.err;
  EXPECT_THAT(dry.out, HasSubstr("rational_quadratic"));

  const CommandResult check = run_kexp("check-kernel --config exp.yaml --points 60", dir.path());
  EXPECT_EQ(check.exit_code, 0) << check.out << check.err;
  EXPECT_THAT(check.out,
              AllOf(HasSubstr("rational_quadratic(formula="),
                    HasSubstr("declared forms  its formula"), HasSubstr("PSD             yes")));

  const CommandResult one = run_kexp(
      "check-kernel --formula '(1 + r2 / c^2)^(-0.5)' --set c=2 --psd --points 50", dir.path());
  EXPECT_EQ(one.exit_code, 0) << one.out << one.err;
  EXPECT_THAT(one.out, HasSubstr("declared PSD: yes"));
  // not PSD: the sigmoid's formula with a = 1, b = −1
  const CommandResult sigmoid = run_kexp(
      "check-kernel --formula 'tanh(a * s + b)' --set a=1 --set b=-1 --points 50", dir.path());
  EXPECT_EQ(sigmoid.exit_code, 1) << sigmoid.out << sigmoid.err;
  const CommandResult wrong = run_kexp("check-kernel --formula 'exp(-r2 / l)'", dir.path());
  EXPECT_EQ(wrong.exit_code, 2);
  EXPECT_THAT(wrong.err, AllOf(HasSubstr("column 11"), HasSubstr("unknown name 'l'"),
                               HasSubstr("--set NAME=VALUE")));

  const CommandResult describe = run_kexp(
      "describe --formula '(1 + r2 / (2 * alpha * l^2))^(-alpha)' --set alpha=0.5 "
      "--set l=2",
      dir.path());
  EXPECT_EQ(describe.exit_code, 0) << describe.err;
  EXPECT_THAT(describe.out,
              AllOf(HasSubstr("parameters: alpha, l"), HasSubstr("program with alpha = 0.5, l = 2"),
                    HasSubstr("(0.25·r2 + 1)^-0.5"), HasSubstr("by its formula"),
                    HasSubstr("device: cuda runs it by its formula")));
  const CommandResult described = run_kexp("describe --config exp.yaml", dir.path());
  EXPECT_EQ(described.exit_code, 0) << described.err;
  EXPECT_THAT(described.out, AllOf(HasSubstr("rational_quadratic (kernels[0]"),
                                   HasSubstr("gaussian_formula (kernels[1]"),
                                   HasSubstr("kernel gaussian (kernels[2]")));  // a formula too
}

TEST(FormulaKernels, AFormulaTakesVectorsOnly) {
  TempDir dir;
  dir.write("exp.yaml", R"yaml(experiment: sequences
dataset: {plugin: hmm, n: 40}
kernels:
  - formula: "exp(-r2)"
solvers:
  - plugin: kernel_ridge
)yaml");
  const CommandResult r = run_kexp("run exp.yaml --dry-run", dir.path());
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_THAT(r.err, HasSubstr("kernels[0] is written as a formula, which takes vectors"));
}

TEST(FormulaKernels, APluginThatIsItsFormulaAloneRunsNativelyInFloat32) {
  TempDir dir;
  dir.write("exp.yaml", R"yaml(experiment: formula-plugin
dataset: {plugin: friedman1, n: 80}
kernels:
  - plugin: fixture_rational_quadratic
    alpha: 0.5
solvers:
  - plugin: kernel_ridge
    lambda: 0.01
    precision: [double, single]
)yaml");
  const CommandResult r = run_kexp("run exp.yaml --out out --quiet " + forms(), dir.path());
  ASSERT_EQ(r.exit_code, 0) << r.err;
  for (const ResultRow& row : result_rows(dir.path() / "out")) {
    EXPECT_EQ(row.at("status"), "ok");
    if (row.at("solver.precision") == "single") EXPECT_EQ(row.at("gram_converted"), "0");
  }
  const CommandResult d = run_kexp("describe fixture_rational_quadratic " + forms());
  EXPECT_THAT(d.out, HasSubstr("by its formula"));
}

TEST(FormulaKernels, AKernelWhoseDeclaredFormsAreNotItsComputeIsRefusedBeforeAnyCell) {
  for (const std::string kernel : {"fixture_lying_formula", "fixture_lying_device_form"}) {
    TempDir dir;
    const auto text = [&](const char* lie) {
      return fmt::format(R"yaml(experiment: lying
dataset: {{plugin: friedman1, n: 60}}
kernels:
  - plugin: {}
    lie: {}
solvers:
  - plugin: kernel_ridge
    lambda: 0.01
)yaml",
                         kernel, lie);
    };
    dir.write("lie.yaml", text("true"));
    const CommandResult r = run_kexp("run lie.yaml --out out " + forms(), dir.path());
    EXPECT_EQ(r.exit_code, 2) << kernel << r.err;
    EXPECT_THAT(r.err, AllOf(HasSubstr(fmt::format("kernels[0]: kernel {}()", kernel)),
                             HasSubstr(kernel == "fixture_lying_formula"
                                           ? "its formula and its compute() disagree"
                                           : "its device form (DeviceForm::device_form()) and its "
                                             "compute() disagree"),
                             HasSubstr("relative difference of"), HasSubstr("beyond 1e-12"),
                             HasSubstr("before any cell runs")))
        << kernel;
    EXPECT_FALSE(fs::exists(dir.path() / "out" / "results.csv"));
    // check-kernel says so too
    const CommandResult check = run_kexp(
        fmt::format("check-kernel {} --set lie=true --points 30 {}", kernel, forms()), dir.path());
    EXPECT_EQ(check.exit_code, 1) << check.out << check.err;
    EXPECT_THAT(check.out, HasSubstr("DISAGREE"));
    // declaring what it computes, it runs
    dir.write("honest.yaml", text("false"));
    const CommandResult honest =
        run_kexp("run honest.yaml --out honest --quiet " + forms(), dir.path());
    EXPECT_EQ(honest.exit_code, 0) << kernel << honest.err;
  }
}

}  // namespace
}  // namespace kexp::test
