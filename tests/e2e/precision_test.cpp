// kernel_ridge's `precision:` swept through the kexp program: mixed precision predicts as
// float64 does, single within float32's rounding, each cell says how far it is from the
// float64 cell (precision_max_diff), and a λ too small for float32 makes mixed fall back
// to float64 and single fail with the remedy; falkon's mixed precision beside them.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

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
  // single builds its own float32 K from the Gaussian's device form: no float64 K, so no
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

}  // namespace
}  // namespace kexp::test
