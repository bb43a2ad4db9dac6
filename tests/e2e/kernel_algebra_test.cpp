// A sum of kernels run end to end: results columns named by path, the resolved config
// written back as a sum that runs again.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <fstream>
#include <sstream>

#include "support/plugins.hpp"

namespace kexp::test {
namespace {

using ::testing::HasSubstr;

std::string read(const std::filesystem::path& file) {
  std::stringstream s;
  s << std::ifstream(file).rdbuf();
  return s.str();
}

TEST(KernelAlgebraRun, GaussianProcessKernelRunsAndIsWrittenBack) {
  TempDir dir;
  dir.write("gp.yaml",
            "experiment: gp\n"
            "seed: 3\n"
            "dataset: {plugin: cubic, n: 80, d: 2}\n"
            "kernels:\n"
            "  - sum:\n"
            "      - {plugin: gaussian, sigma: [0.5, 1.0], scale: 2.0}\n"
            "      - {plugin: constant, c: 0.5}\n"
            "      - {plugin: linear, scale: 0.1}\n"
            "solvers:\n"
            "  - plugin: kernel_ridge\n");
  const CommandResult r = run_kexp("run gp.yaml --out out --quiet", dir.path());
  ASSERT_EQ(r.exit_code, 0) << r.out << r.err;
  const std::string csv = read(dir.path() / "out" / "results.csv");
  EXPECT_THAT(csv, HasSubstr("kernel.sum[0].sigma"));
  EXPECT_THAT(csv, HasSubstr("kernel.sum[1].c"));
  EXPECT_THAT(csv, HasSubstr("kernel.sum[2].scale"));
  EXPECT_THAT(csv, HasSubstr("sum(gaussian,constant,linear)"));
  EXPECT_THAT(csv, ::testing::Not(HasSubstr("failed")));
  const std::string manifest = read(dir.path() / "out" / "manifest.json");
  EXPECT_THAT(manifest, HasSubstr("libkexp_kernel_constant.so"));

  const CommandResult again = run_kexp("run out/config.yaml --out again --quiet", dir.path());
  ASSERT_EQ(again.exit_code, 0) << again.out << again.err << read(dir.path() / "out/config.yaml");
  EXPECT_EQ(read(dir.path() / "again" / "results.csv").substr(0, 200), csv.substr(0, 200));
}

TEST(KernelAlgebraRun, BadTermIsAConfigError) {
  TempDir dir;
  dir.write("bad.yaml",
            "experiment: bad\n"
            "dataset: {plugin: cubic, n: 80, d: 2}\n"
            "kernels:\n"
            "  - product:\n"
            "      - {plugin: gaussian, sigma: 0}\n"
            "solvers:\n"
            "  - plugin: kernel_ridge\n");
  const CommandResult r = run_kexp("run bad.yaml --dry-run", dir.path());
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_THAT(r.err, HasSubstr("bad.yaml:5:35: kernels[0].product[0].sigma must be > 0, got 0"));
}

}  // namespace
}  // namespace kexp::test
