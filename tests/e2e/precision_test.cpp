// kernel_ridge's `precision:` swept through the kexp program: mixed precision predicts as
// float64 does, single within float32's rounding, each cell says how far it is from the
// float64 cell (precision_max_diff), and a λ too small for float32 makes mixed fall back
// to float64 and single fail with the remedy; falkon's mixed precision beside them.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <map>
#include <string>

#include "support/plugins.hpp"
#include "support/results.hpp"

namespace kexp::test {
namespace {

using ::testing::HasSubstr;

constexpr const char* kConfig = R"(experiment: precision
seed: 3
dataset: {plugin: cubic, n: 400, d: 3, noise: 0.1}
kernels: [{plugin: gaussian, sigma: 1}]
solvers:
  - {plugin: kernel_ridge, lambda: [0.1, 1e-12], precision: [mixed, single, double]}
  - {plugin: falkon, lambda: 1e-4, m: 100, tolerance: 1e-6, precision: [mixed, double]}
)";

TEST(Precision, ASweepComparesEachPrecisionWithFloat64) {
  TempDir dir;
  dir.write("exp.yaml", kConfig);
  const CommandResult r =
      run_kexp("run exp.yaml --out out --quiet --timing-max-measurements 1", dir.path());
  EXPECT_EQ(r.exit_code, 1) << r.err;      // single at λ = 1e-12 fails
  std::map<std::string, ResultRow> cells;  // "λ precision" → row
  for (const ResultRow& row : result_rows(dir.path() / "out")) {
    cells[row.at("solver.lambda") + " " + row.at("solver.precision")] = row;
  }
  ASSERT_EQ(cells.size(), 8U);
  EXPECT_EQ(cells["0.1 double"].at("precision_max_diff"), "");
  const ResultRow& mixed = cells["0.1 mixed"];
  const ResultRow& single = cells["0.1 single"];
  // The test targets are near 1 in size: differences are relative to them.
  EXPECT_LT(std::stod(mixed.at("precision_max_diff")), 1e-11);
  EXPECT_GE(std::stod(mixed.at("refinement_steps")), 1.0);
  EXPECT_EQ(mixed.at("precision_fallback"), "0");
  EXPECT_GT(std::stod(single.at("precision_max_diff")), 1e-9) << "single ran in float64";
  EXPECT_LT(std::stod(single.at("precision_max_diff")), 1e-3);
  // K (8n² bytes, n = 320) and the float32 copy of K + λI (4n²) are counted.
  EXPECT_GE(std::stod(mixed.at("matrix_bytes")), 12.0 * 320 * 320);
  // single builds its own float32 K from the Gaussian's formula: no float64 K, so no
  // gram phase of its own, and 4n² bytes
  EXPECT_EQ(single.at("gram_converted"), "0");
  EXPECT_EQ(single.at("gram_seconds"), "");
  EXPECT_GE(std::stod(single.at("matrix_bytes")), 4.0 * 320 * 320);
  EXPECT_LT(std::stod(single.at("matrix_bytes")), 8.0 * 320 * 320);

  // falkon in mixed precision: float32 kernel values, float64 products and solver
  const ResultRow& falkon = cells["0.0001 mixed"];
  EXPECT_EQ(falkon.at("status"), "ok") << falkon.at("error");
  EXPECT_GT(std::stod(falkon.at("precision_max_diff")), 1e-9) << "mixed ran in float64";
  EXPECT_LT(std::stod(falkon.at("precision_max_diff")), 1e-2);
  EXPECT_EQ(falkon.at("gram_converted"), "0");

  EXPECT_EQ(cells["1e-12 mixed"].at("status"), "ok");
  EXPECT_EQ(cells["1e-12 mixed"].at("precision_fallback"), "1");
  EXPECT_EQ(cells["1e-12 single"].at("status"), "failed");
  EXPECT_THAT(cells["1e-12 single"].at("error"),
              HasSubstr("is not positive definite in single precision"));
  EXPECT_THAT(cells["1e-12 single"].at("error"), HasSubstr("use precision: mixed"));
}

TEST(Precision, PrimalEqualsDualInSingleWithinWhatEachSideLosesToFloat32) {
  // The polynomial kernel of degree 2 has an exact map (D = 10 at d = 3): primal_ridge
  // and kernel_ridge fit the same model, and each form runs all in float32.
  TempDir dir;
  dir.write("exp.yaml", R"(experiment: primal-dual-single
seed: 5
dataset: {plugin: cubic, n: 400, d: 3, noise: 0.1}
kernels: [{plugin: polynomial, degree: 2, c: 1}]
solvers:
  - {plugin: primal_ridge, lambda: 0.1, precision: [double, single, mixed]}
  - {plugin: kernel_ridge, lambda: 0.1, precision: [double, single, mixed]}
)");
  const CommandResult r =
      run_kexp("run exp.yaml --out out --quiet --timing-max-measurements 1", dir.path());
  ASSERT_EQ(r.exit_code, 0) << r.err;
  std::map<std::string, ResultRow> cells;  // "form precision" → row
  for (const ResultRow& row : result_rows(dir.path() / "out")) {
    EXPECT_EQ(row.at("status"), "ok") << row.at("error");
    cells[row.at("form") + " " + row.at("solver.precision")] = row;
  }
  ASSERT_EQ(cells.size(), 6U);
  // A pair's difference is written on its later cell: −1 where a column is empty.
  const auto number = [&](const std::string& cell, const char* column) {
    const std::string& text = cells.at(cell).at(column);
    return text.empty() ? -1.0 : std::stod(text);
  };
  // Each form in single is float32's, not float64's, and within 10⁻³ of float64 (targets
  // near 1 in size).
  for (const char* form : {"primal", "dual"}) {
    const std::string single = std::string(form) + " single";
    EXPECT_GT(number(single, "precision_max_diff"), 1e-9) << single << " ran in float64";
    EXPECT_LT(number(single, "precision_max_diff"), 1e-3) << single;
    EXPECT_LT(number(std::string(form) + " mixed", "precision_max_diff"), 1e-10) << form;
  }
  // The pair in float64 agrees to the exact map's rounding bound, and the pair in float32
  // to the triangle inequality through float64: |ŷ_p − ŷ_d| ≤ |ŷ_p − ŷ_p⁶⁴| + |ŷ_p⁶⁴ −
  // ŷ_d⁶⁴| + |ŷ_d⁶⁴ − ŷ_d|, each term measured in the same run.
  const double pair_double = std::max(number("primal double", "prediction_max_diff"),
                                      number("dual double", "prediction_max_diff"));
  EXPECT_LT(pair_double, 1e-6);
  const double pair_single = std::max(number("primal single", "prediction_max_diff"),
                                      number("dual single", "prediction_max_diff"));
  EXPECT_GT(pair_single, 0.0);
  EXPECT_LE(pair_single, number("primal single", "precision_max_diff") + pair_double +
                             number("dual single", "precision_max_diff"));
  EXPECT_LT(pair_single, 1e-3);
  // The mixed pair is float64's, and is checked as float64's is (it passed: status ok).
  EXPECT_LT(std::max(number("primal mixed", "prediction_max_diff"),
                     number("dual mixed", "prediction_max_diff")),
            1e-6);
  // The summary gives the float32 pair's difference apart from the float64 and mixed pairs'.
  std::ifstream file(dir.path() / "out" / "summary.md");
  const std::string summary((std::istreambuf_iterator<char>(file)),
                            std::istreambuf_iterator<char>());
  EXPECT_THAT(summary, HasSubstr("polynomial: max |Δŷ| ≤"));
  EXPECT_THAT(summary, HasSubstr("over 1 pair; polynomial in mixed: max |Δŷ| ≤"));
  EXPECT_THAT(summary, HasSubstr("polynomial in single: max |Δŷ| ≤"));
}

TEST(Precision, APrecisionASolverDoesNotTakeIsRefusedAtItsEntryBeforeAnythingRuns) {
  TempDir dir;
  dir.write("learn.yaml", R"(experiment: learn-mixed
dataset: {plugin: cubic, n: 100, d: 2}
kernels: [{plugin: gaussian, sigma: 1}]
solvers:
  - {plugin: gp_regression, optimize: true, precision: [double, mixed]}
)");
  const CommandResult learn = run_kexp("run learn.yaml --out out --quiet", dir.path());
  EXPECT_EQ(learn.exit_code, 2) << learn.err;
  EXPECT_THAT(learn.err, HasSubstr("learn.yaml:5"));
  EXPECT_THAT(learn.err, HasSubstr("use precision: double with optimize: true"));
  EXPECT_THAT(learn.err, HasSubstr("precision=mixed"));
  EXPECT_FALSE(std::filesystem::exists(dir.path() / "out")) << "a folder was written";

  dir.write("falkon.yaml", R"(experiment: falkon-single
dataset: {plugin: cubic, n: 100, d: 2}
kernels: [{plugin: gaussian, sigma: 1}]
solvers:
  - {plugin: falkon, m: 20, precision: single}
)");
  const CommandResult falkon = run_kexp("run falkon.yaml --out out --quiet", dir.path());
  EXPECT_EQ(falkon.exit_code, 2) << falkon.err;
  EXPECT_THAT(falkon.err, HasSubstr("falkon.yaml:5"));
  EXPECT_THAT(falkon.err, HasSubstr("precision must be one of double, mixed, got 'single'"));
  EXPECT_FALSE(std::filesystem::exists(dir.path() / "out"));
}

}  // namespace
}  // namespace kexp::test
