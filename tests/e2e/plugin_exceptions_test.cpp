// The kexp program when a kernel throws from inside kexp's parallel loops (its Gram
// matrix on several threads, its feature map): the cell is written as failed with a
// message naming the kernel and what it was doing, every other cell runs, and the
// process never ends in std::terminate. check-kernel reports the error and exits 2.
#include <fmt/format.h>
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <map>
#include <string>

#include "support/plugins.hpp"
#include "support/results.hpp"

namespace kexp::test {
namespace {

namespace fs = std::filesystem;
using ::testing::HasSubstr;
using ::testing::Not;

std::string forms() {
  return fmt::format("--plugin-path '{}'", (fixture_dir() / "forms").string());
}

using Row = ResultRow;

std::string describe(const Row& row) {
  return fmt::format("{} {}(throw_in={}, what={}) {} {}: {}", row.at("form"), row.at("kernel"),
                     row.count("kernel.throw_in") ? row.at("kernel.throw_in") : "",
                     row.count("kernel.what") ? row.at("kernel.what") : "", row.at("solver"),
                     row.at("status"), row.at("error"));
}

/// Expects each row for which `fails` holds to have failed with `error`, and every other
/// row to be ok; returns how many failed.
template <class Fails>
int expect_failed_where(const std::vector<Row>& rows, const Fails& fails,
                        const std::string& error) {
  int failed = 0;
  for (const Row& row : rows) {
    if (fails(row)) {
      ++failed;
      EXPECT_EQ(row.at("status"), "failed") << describe(row);
      EXPECT_EQ(row.at("error"), error) << describe(row);
    } else {
      EXPECT_EQ(row.at("status"), "ok") << describe(row);
    }
  }
  return failed;
}

const std::string kGramFailed =
    "kernel 'fixture_throwing_kernel' failed while computing the Gram matrix: "
    "fixture_throwing_kernel threw from compute()";

/// The throwing kernel, throwing from compute() or nowhere, beside a Gaussian; dual and
/// primal ridge.
const char* const kThrowsInCompute = R"(experiment: throws-in-compute
seed: 3
dataset:
  plugin: cubic
  n: 60
  d: 2
kernels:
  - plugin: fixture_throwing_kernel
    throw_in: [none, compute]
  - plugin: gaussian
    sigma: 1
solvers:
  - plugin: kernel_ridge
    lambda: [0.001, 0.1]
  - plugin: primal_ridge
)";

TEST(PluginExceptions, AKernelThatThrowsInComputeFailsItsDualCellsAndTheSweepGoesOn) {
  for (const char* threads : {"--threads 2", "--threads 1"}) {
    SCOPED_TRACE(threads);
    const TempDir dir;
    dir.write("x.yaml", kThrowsInCompute);
    const auto r =
        run_kexp(fmt::format("run x.yaml --out out {} {}", threads, forms()), dir.path());
    ASSERT_EQ(r.exit_code, 1) << r.err;
    EXPECT_THAT(r.err, Not(HasSubstr("terminate")));
    EXPECT_THAT(r.err, HasSubstr(kGramFailed));
    const auto rows = result_rows(dir.path() / "out");
    // throwing kernel: 2 variants × (2 dual + 1 primal); gaussian: 2 dual (no map)
    ASSERT_EQ(rows.size(), 8U);
    int failed = 0;
    for (const Row& row : rows) {
      const bool throws = row.at("kernel") == "fixture_throwing_kernel" &&
                          row.at("kernel.throw_in") == "compute" && row.at("form") == "dual";
      if (throws) {
        ++failed;
        EXPECT_EQ(row.at("status"), "failed") << describe(row);
        EXPECT_EQ(row.at("error"), kGramFailed) << describe(row);
      } else {
        EXPECT_EQ(row.at("status"), "ok") << describe(row);
        EXPECT_EQ(row.at("error"), "") << describe(row);
      }
    }
    EXPECT_EQ(failed, 2);
  }
}

TEST(PluginExceptions, WhateverTheKernelThrowsTheMessageSaysWhat) {
  const TempDir dir;
  dir.write("x.yaml", R"(experiment: what
seed: 3
dataset:
  plugin: cubic
  n: 60
kernels:
  - plugin: fixture_throwing_kernel
    what: [kexp_error, runtime_error, int]
solvers:
  - plugin: kernel_ridge
)");
  const auto r = run_kexp("run x.yaml --out out --threads 2 " + forms(), dir.path());
  ASSERT_EQ(r.exit_code, 1) << r.err;
  std::map<std::string, std::string> error_of;
  for (const Row& row : result_rows(dir.path() / "out")) {
    EXPECT_EQ(row.at("status"), "failed") << describe(row);
    error_of[row.at("kernel.what")] = row.at("error");
  }
  EXPECT_EQ(error_of["kexp_error"], kGramFailed);
  EXPECT_EQ(error_of["runtime_error"], kGramFailed);
  EXPECT_EQ(error_of["int"],
            "kernel 'fixture_throwing_kernel' failed while computing the Gram matrix: unknown "
            "exception");
}

TEST(PluginExceptions, AKernelThatThrowsOnlyInTheCrossBlockFailsTheCellAfterTheFit) {
  // n = 60, of which the training points are fewer: the first calls build K(X, X), and a
  // call far enough on falls in K(X, X*) (each built once: one measurement per phase).
  const TempDir dir;
  dir.write("x.yaml", R"(experiment: cross
seed: 3
dataset:
  plugin: cubic
  n: 60
  test_fraction: 0.5
kernels:
  - plugin: fixture_throwing_kernel
    throw_at: 466
solvers:
  - plugin: kernel_ridge
)");
  const auto r = run_kexp("run x.yaml --out out --threads 2 --timing-max-measurements 1 " + forms(),
                          dir.path());
  ASSERT_EQ(r.exit_code, 1) << r.err;
  const auto rows = result_rows(dir.path() / "out");
  ASSERT_EQ(rows.size(), 1U);
  EXPECT_EQ(rows[0].at("error"),
            "kernel 'fixture_throwing_kernel' failed while computing the cross Gram matrix "
            "K(X, X*): fixture_throwing_kernel threw from compute()");
}

/// The throwing kernel over the values `throw_in` (YAML) with `solvers` (YAML list items),
/// on 60 points of the cubic data in 2 dimensions.
std::string throwing_kernel_experiment(const std::string& throw_in, const std::string& solvers) {
  return fmt::format(R"(experiment: throws
seed: 3
dataset:
  plugin: cubic
  n: 60
  d: 2
kernels:
  - plugin: fixture_throwing_kernel
    throw_in: {}
solvers:
{})",
                     throw_in, solvers);
}

TEST(PluginExceptions, AFeatureMapThatThrowsFailsItsPrimalCellsAndTheSweepGoesOn) {
  const TempDir dir;
  dir.write("x.yaml", throwing_kernel_experiment("[none, features]",
                                                 "  - plugin: kernel_ridge\n"
                                                 "  - plugin: primal_ridge\n"
                                                 "    lambda: [0.001, 0.1]\n"));
  const auto r = run_kexp("run x.yaml --out out --threads 2 " + forms(), dir.path());
  ASSERT_EQ(r.exit_code, 1) << r.err;
  EXPECT_THAT(r.err, Not(HasSubstr("terminate")));
  const auto rows = result_rows(dir.path() / "out");
  ASSERT_EQ(rows.size(), 6U);  // 2 variants × (1 dual + 2 primal)
  const auto in_features = [](const Row& row) {
    return row.at("kernel.throw_in") == "features" && row.at("form") == "primal";
  };
  EXPECT_EQ(expect_failed_where(
                rows, in_features,
                "kernel 'fixture_throwing_kernel' failed while computing the features of the "
                "training points: fixture_throwing_kernel threw from compute_features()"),
            2);
}

TEST(PluginExceptions, ATransformHandedToTheGramHelperThatThrowsFailsItsCellsNamingThePlugin) {
  for (const char* threads : {"--threads 2", "--threads 1"}) {
    SCOPED_TRACE(threads);
    const TempDir dir;
    dir.write("x.yaml", throwing_kernel_experiment("[none, transform]",
                                                   "  - plugin: kernel_ridge\n"
                                                   "    lambda: [0.001, 0.1]\n"));
    const auto r =
        run_kexp(fmt::format("run x.yaml --out out {} {}", threads, forms()), dir.path());
    ASSERT_EQ(r.exit_code, 1) << r.err;
    EXPECT_THAT(r.err, Not(HasSubstr("terminate")));
    const auto rows = result_rows(dir.path() / "out");
    ASSERT_EQ(rows.size(), 4U);
    const auto in_transform = [](const Row& row) {
      return row.at("kernel.throw_in") == "transform";
    };
    EXPECT_EQ(expect_failed_where(
                  rows, in_transform,
                  "kernel 'fixture_throwing_kernel' failed while computing the Gram matrix: "
                  "fixture_throwing_kernel threw from the transform of gram::from_inner_products"),
              2);
  }
}

TEST(PluginExceptions, CheckKernelOnAKernelThatThrowsExitsTwoNamingIt) {
  const auto r = run_kexp("check-kernel fixture_throwing_kernel --points 50 " + forms(), {},
                          "OMP_NUM_THREADS=3");
  EXPECT_EQ(r.exit_code, 2) << r.out << r.err;
  EXPECT_THAT(r.err, HasSubstr("kexp: error: " + kGramFailed));
  EXPECT_THAT(r.err, Not(HasSubstr("terminate")));

  const auto n = run_kexp("check-kernel fixture_throwing_kernel --set what=int " + forms(), {},
                          "OMP_NUM_THREADS=3");
  EXPECT_EQ(n.exit_code, 2) << n.out << n.err;
  EXPECT_THAT(n.err, HasSubstr("kexp: error: kernel 'fixture_throwing_kernel' failed while "
                               "computing the Gram matrix: unknown exception"));

  const auto f = run_kexp("check-kernel fixture_throwing_kernel --set throw_in=features " + forms(),
                          {}, "OMP_NUM_THREADS=3");
  EXPECT_EQ(f.exit_code, 2) << f.out << f.err;
  EXPECT_THAT(f.err, HasSubstr("kexp: error: kernel 'fixture_throwing_kernel' failed while "
                               "computing the features: fixture_throwing_kernel threw from "
                               "compute_features()"));
}

TEST(PluginExceptions, CheckKernelOnTheSameKernelThrowingNowhereIsValid) {
  const auto r = run_kexp("check-kernel fixture_throwing_kernel --set throw_in=none " + forms());
  EXPECT_EQ(r.exit_code, 0) << r.out << r.err;
  EXPECT_THAT(r.out, HasSubstr("verdict: valid"));
}

}  // namespace
}  // namespace kexp::test
