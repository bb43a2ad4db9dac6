// The memory budget inside a real cgroup (v1) whose limit sits on the parent of the
// process's own cgroup, as Slurm lays out a job with --mem=1G: the budget is 80% of the
// parent's limit, and a cell that needs more is refused with its estimate, not killed.
// Skipped where cgroups cannot be made (no root, no writable v1 memory hierarchy).
#include <fmt/format.h>
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <unistd.h>

#include <fstream>
#include <sstream>

#include "support/plugins.hpp"

namespace kexp::test {
namespace {

namespace fs = std::filesystem;
using ::testing::HasSubstr;

/// The folder of this process's cgroup in the v1 memory hierarchy, if there is one.
std::optional<fs::path> own_memory_cgroup() {
  std::ifstream in("/proc/self/cgroup");
  std::string line;
  while (std::getline(in, line)) {
    const auto at = line.find(":memory:");
    if (at != std::string::npos) {
      return fs::path("/sys/fs/cgroup/memory") / fs::path(line.substr(at + 8)).relative_path();
    }
  }
  return std::nullopt;
}

class CgroupJob : public ::testing::Test {
 protected:
  void SetUp() override {
    const auto own = own_memory_cgroup();
    if (::geteuid() != 0 || !own || !fs::exists(*own / "memory.limit_in_bytes")) {
      GTEST_SKIP() << "needs root and a cgroup v1 memory hierarchy";
    }
    base_ = *own / fmt::format("kexp-test-{}", ::getpid());
    std::error_code ec;
    fs::create_directories(base_ / "job" / "task", ec);
    if (ec)
      GTEST_SKIP() << "cannot create a cgroup under " << own->string() << ": " << ec.message();
    std::ofstream(base_ / "job" / "memory.limit_in_bytes") << "1073741824\n";
  }
  void TearDown() override {
    if (base_.empty()) return;
    std::error_code ec;
    fs::remove(base_ / "job" / "task", ec);  // rmdir: empty once the child has exited
    fs::remove(base_ / "job", ec);
    fs::remove(base_, ec);
  }
  /// Runs kexp with `args` inside job/task.
  CommandResult run_in_task(const std::string& args, const fs::path& cwd) {
    return run_kexp(
        args, cwd,
        fmt::format("echo $$ > '{}' &&", (base_ / "job" / "task" / "cgroup.procs").string()));
  }
  fs::path base_;
};

TEST_F(CgroupJob, TheBudgetIsEightyPercentOfTheJobsLimit) {
  const TempDir dir;
  dir.write("big.yaml", R"(experiment: big
dataset: {plugin: friedman1, n: 15000, test_fraction: 0.2}
kernels: [{plugin: gaussian}]
solvers: [{plugin: kernel_ridge}]
)");
  const CommandResult dry = run_in_task("run big.yaml --dry-run", dir.path());
  ASSERT_EQ(dry.exit_code, 0) << dry.err;
  EXPECT_THAT(dry.out, HasSubstr("memory budget 859 MB per cell (80% of memory.limit_in_bytes of "
                                 "cgroup "));
  EXPECT_THAT(dry.out, HasSubstr("/job (1.07 GB))"));
  EXPECT_THAT(dry.out, HasSubstr("OVER BUDGET"));
  const CommandResult run = run_in_task("run big.yaml --out out --quiet", dir.path());
  EXPECT_EQ(run.exit_code, 1) << run.err;
  EXPECT_THAT(run.err, HasSubstr("refused: refused before it started: it needs about 1.44 GB"));
  EXPECT_THAT(run.err, HasSubstr("memory budget of 859 MB per cell (80% of memory.limit_in_bytes"));
}

}  // namespace
}  // namespace kexp::test
