// The OpenBLAS kernels kexp chooses for itself change the time of a run, not its numbers:
// the same experiment run with kexp's choice, with OpenBLAS's own (KEXP_OPENBLAS_CORETYPE
// =keep) and with the user's (OPENBLAS_CORETYPE) predicts the same to rounding, and each
// manifest says who chose the kernels. Where OPENBLAS_CORETYPE is set for the tests, the
// first two runs must both keep it; where kexp has nothing to change, they are the same.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <limits>
#include <map>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>

#include "support/plugins.hpp"
#include "util/blas_core.hpp"
#include "util/csv.hpp"

namespace kexp::test {
namespace {

constexpr const char* kConfig = R"(experiment: blas-core
seed: 11
dataset: {plugin: friedman1, n: 700, d: 6, noise: 0.3}
kernels:
  - {plugin: gaussian, sigma: 1.5}
solvers:
  - {plugin: kernel_ridge, lambda: {logspace: [-3, 0, 7]}}
  - {plugin: gp_regression, noise: 0.05}
  - {plugin: kernel_ridge, lambda: 0.02}
output: {predictions: true}
)";

struct KexpRun {
  nlohmann::json blas;
  std::uint64_t dataset_seed = 0;  ///< the manifest's seed of the friedman1 points
  std::map<std::string, std::vector<double>> predictions;  ///< file name → y_pred
};

KexpRun run_with(const TempDir& dir, const std::string& name, const std::string& env) {
  const auto out = dir.path() / name;
  const auto r = run_kexp("run blas.yaml --quiet --out '" + out.string() + "'", dir.path(), env);
  EXPECT_EQ(r.exit_code, 0) << r.err;
  KexpRun run;
  std::ifstream manifest(out / "manifest.json");
  std::stringstream text;
  text << manifest.rdbuf();
  const nlohmann::json facts = nlohmann::json::parse(text.str());
  run.blas = facts["environment"]["blas"];
  run.dataset_seed = std::stoull(facts["seeds"]["datasets"][0]["seeds"][0].get<std::string>());
  for (const auto& e : std::filesystem::directory_iterator(out / "predictions")) {
    const core::CsvTable t = core::read_csv(e.path());
    const std::size_t column = t.column("y_pred").value();
    for (const auto& row : t.rows) {
      run.predictions[e.path().filename().string()].push_back(std::stod(row[column]));
    }
  }
  return run;
}

/// κ(K + λI) at the experiment's smallest λ, 1e-3, for the Gaussian K of all 700 points: at
/// least that of the 560 training points, a principal submatrix (Cauchy interlacing).
double condition_at_smallest_lambda(std::uint64_t dataset_seed) {
  const auto dataset = make_dataset("friedman1", {{"n", "700"}, {"d", "6"}, {"noise", "0.3"}});
  const Data data = dataset->load(DatasetContext{dataset_seed, {}});
  arma::mat K;
  make_kernel("gaussian", {{"sigma", "1.5"}})->gram(data.X, K);
  const arma::vec eigenvalues = arma::eig_sym(K);
  const double lambda = 1e-3;
  return (eigenvalues.max() + lambda) / (std::max(eigenvalues.min(), 0.0) + lambda);
}

void expect_same_predictions(const KexpRun& a, const KexpRun& b, double kappa) {
  ASSERT_EQ(a.predictions.size(), b.predictions.size());
  ASSERT_GE(a.predictions.size(), 9U);  // 7 λ by one band reduction, the GP, one λ by Cholesky
  for (const auto& [file, p] : a.predictions) {
    const auto& q = b.predictions.at(file);
    ASSERT_EQ(p.size(), q.size()) << file;
    for (std::size_t i = 0; i < p.size(); ++i) {
      // two backward-stable solves: ≤ 2·n·ε·κ(K + λI)·max(1, |q|), n = 560; κ ≈ 5.7e5 here
      const double tolerance = 2.0 * 560 * std::numeric_limits<double>::epsilon() * kappa;
      EXPECT_NEAR(p[i], q[i], tolerance * std::max(1.0, std::abs(q[i]))) << file << " row " << i;
    }
  }
}

TEST(BlasCore, ThePredictionsDoNotDependOnWhoChoseTheKernels) {
  TempDir dir;
  dir.write("blas.yaml", kConfig);
  // The caller's OPENBLAS_CORETYPE, if any, is left as it is: some machines set it
  // because other kernels misbehave on their CPU.
  const core::BlasCoreFacts facts = core::blas_core_facts();
  const std::string users_core = facts.user_setting.empty() ? "Haswell" : facts.user_setting;
  const KexpRun as_is = run_with(dir, "as-is", "");
  const KexpRun kept = run_with(dir, "kept", "KEXP_OPENBLAS_CORETYPE=keep");
  const KexpRun users = run_with(dir, "users", "OPENBLAS_CORETYPE=" + users_core);

  if (facts.user_setting.empty()) {
    // What kexp should have done, from this process's CPU and OpenBLAS and the kernels
    // OpenBLAS chose by itself in the run that kept them.
    core::BlasCoreFacts own = facts;
    own.selected = kept.blas["core"].get<std::string>();
    const core::BlasCoreChoice expected = core::choose_blas_core(own);
    EXPECT_EQ(as_is.blas["core_chosen_by"], core::to_string(expected.by));
    EXPECT_EQ(as_is.blas["core"], expected.core);  // a restart took effect
    EXPECT_EQ(kept.blas["core_chosen_by"], "openblas");
    EXPECT_NE(kept.blas["core_reason"].get<std::string>().find("keep"), std::string::npos);
  } else {
    // The user's setting wins over kexp's choice and over keep.
    for (const KexpRun* run : {&as_is, &kept}) {
      EXPECT_EQ(run->blas["core_chosen_by"], "user");
      EXPECT_EQ(run->blas["core"].get<std::string>().size(), facts.selected.size());
    }
  }
  EXPECT_EQ(users.blas["core_chosen_by"], "user");
  // the reason names the setting first; it may go on to point to wider kernels
  EXPECT_EQ(users.blas["core_reason"].get<std::string>().rfind(
                "OPENBLAS_CORETYPE=" + users_core + " was set in the environment", 0),
            0U);

  const double kappa = condition_at_smallest_lambda(as_is.dataset_seed);
  expect_same_predictions(as_is, kept, kappa);
  expect_same_predictions(as_is, users, kappa);
}

}  // namespace
}  // namespace kexp::test
