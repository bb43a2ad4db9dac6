// The machine's limits: the Gram bound from its three rates, the rates at a thread
// count between one and all, the JSON cache of several machines, and one real
// measurement.
#include "util/machine.hpp"

#include <gtest/gtest.h>
#include <sys/stat.h>

#include <cmath>
#include <fstream>

#include "kexp/error.hpp"
#include "util/files.hpp"

namespace kexp::core {
namespace {

namespace fs = std::filesystem;

MachineRates rates(int threads, double dgemm, double exp, double write) {
  return MachineRates{threads, dgemm, exp, write};
}

MachineLimits limits(const std::string& host) {
  MachineLimits m;
  m.host = host;
  m.cpu = "Some CPU";
  m.cpus = 4;
  m.blas_core = "Haswell";
  m.exp_function = "_ZGVdN4v_exp";
  m.measured = "2026-01-02T03:04:05Z";
  m.seconds = 3.5;
  m.load = 0.25;
  m.one = rates(1, 5e10, 1e9, 8e9);
  m.all = rates(4, 1.6e11, 3.5e9, 2e10);
  return m;
}

TEST(GramEntryBound, OneExpOneWriteAndTheDistancesShareOfDgemmPerEntry) {
  // d = 10: 20 flops at 1e11 flop/s (0.2 ns), one exp at 1e9/s (1 ns), 8 bytes at
  // 8e9 B/s (1 ns): 2.2 ns per entry.
  EXPECT_NEAR(gram_entry_bound(rates(1, 1e11, 1e9, 8e9), 10), 1 / 2.2e-9, 1e-3);
  EXPECT_EQ(gram_entry_bound(rates(1, 0, 1e9, 8e9), 10), 0);  // not measured
}

TEST(MachineLimits, RatesAtOneAllAndInBetween) {
  const MachineLimits m = limits("a");
  EXPECT_EQ(m.at(1).dgemm_flops_per_second, 5e10);
  EXPECT_EQ(m.at(4).exp_per_second, 3.5e9);
  // two threads: one thread's rate twice, below all's
  const MachineRates two = m.at(2);
  EXPECT_EQ(two.threads, 2);
  EXPECT_EQ(two.dgemm_flops_per_second, 1e11);
  EXPECT_EQ(two.exp_per_second, 2e9);
  // three threads: 3 × 8e9 passes all's 2e10, so all's
  EXPECT_EQ(m.at(3).write_bytes_per_second, 2e10);
}

TEST(MachineCache, KeepsOtherMachinesAndReplacesItsOwn) {
  const fs::path dir = fs::temp_directory_path() / "kexp_machine_test";
  fs::remove_all(dir);
  const fs::path file = dir / "sub" / "machine.json";
  EXPECT_FALSE(cached_machine(file).has_value());

  // This machine as measured, and an entry of another host that shares the file.
  MachineLimits here = measure_machine(/*quick=*/true);
  EXPECT_GT(here.one.dgemm_flops_per_second, 0);
  EXPECT_GT(here.all.dgemm_flops_per_second, 0);
  EXPECT_GT(here.one.exp_per_second, 0);
  EXPECT_GT(here.one.write_bytes_per_second, 0);
  EXPECT_FALSE(here.exp_function.empty());
  EXPECT_TRUE(std::isfinite(gram_entry_bound(here.all, 10)));
  cache_machine(file, limits("some-other-host"));
  cache_machine(file, here);
  here.one.dgemm_flops_per_second = 1.23e9;
  cache_machine(file, here);  // replaces this machine's entry

  const auto read = cached_machine(file);
  ASSERT_TRUE(read.has_value());
  EXPECT_EQ(read->one.dgemm_flops_per_second, 1.23e9);
  EXPECT_EQ(read->exp_function, here.exp_function);
  const auto j = nlohmann::json::parse(read_text_file(file));
  ASSERT_EQ(j.at("machines").size(), 2U);
  EXPECT_EQ(j["machines"][0]["host"], "some-other-host");

  // A damaged file counts as none, and the next measurement replaces it.
  { std::ofstream(file) << "{ not json"; }
  EXPECT_FALSE(cached_machine(file).has_value());
  cache_machine(file, here);
  EXPECT_TRUE(cached_machine(file).has_value());
  fs::remove_all(dir);
}

TEST(MachineCache, RatesNoMachineHasAreNotTrustedAndOnlyARegularFileIsWritten) {
  // Every rate within the bounds: plausible. Then each one out of them, or not finite.
  EXPECT_EQ(implausible_rates(limits("h")), "");
  MachineLimits fast = limits("h");
  fast.one.dgemm_flops_per_second = 1e300;  // would turn the time limit off
  EXPECT_NE(implausible_rates(fast).find("DGEMM rate on 1 thread is 1e+291 GFLOP/s"),
            std::string::npos)
      << implausible_rates(fast);
  MachineLimits nan = limits("h");
  nan.all.exp_per_second = std::nan("");
  EXPECT_NE(implausible_rates(nan).find("exp rate on 4 threads"), std::string::npos);
  MachineLimits slow = limits("h");
  slow.one.write_bytes_per_second = 10;
  EXPECT_NE(implausible_rates(slow).find("memory writes"), std::string::npos);

  // This machine's entry with a rate of 1e300 is not used: measured again where needed.
  const fs::path dir = fs::temp_directory_path() / "kexp_machine_sanity_test";
  fs::remove_all(dir);
  fs::create_directories(dir);
  MachineLimits here = measure_machine(/*quick=*/true);
  ASSERT_EQ(implausible_rates(here), "");
  here.one.dgemm_flops_per_second = 1e300;
  cache_machine(dir / "machine.json", here);
  EXPECT_FALSE(cached_machine(dir / "machine.json").has_value());

  // Only a regular file, or none, is written: a folder, a FIFO or a device is refused,
  // and left as it was.
  const fs::path folder = dir / "a-folder";
  fs::create_directories(folder);
  try {
    cache_machine(folder, here);
    FAIL() << "a folder was written over";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("it is a folder, not a regular file"), std::string::npos)
        << e.what();
  }
  EXPECT_TRUE(fs::is_directory(folder));
  const fs::path fifo = dir / "fifo";
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  EXPECT_THROW(cache_machine(fifo, here), Error);
  EXPECT_TRUE(fs::is_fifo(fifo));
  EXPECT_FALSE(cached_machine(fifo).has_value());  // not opened: it would wait for a writer
  EXPECT_THROW(cache_machine("/dev/null", here), Error);
  EXPECT_TRUE(fs::is_character_file("/dev/null"));
  fs::remove_all(dir);
}

TEST(MachineJson, RoundTripAndAMissingFieldIsAnError) {
  const MachineLimits m = limits("a");
  const nlohmann::json j = nlohmann::json::parse(to_json(m).dump());
  const MachineLimits back = machine_from_json(j);
  EXPECT_EQ(back.host, "a");
  EXPECT_EQ(back.cpus, 4);
  EXPECT_EQ(back.load, 0.25);
  EXPECT_EQ(back.all.write_bytes_per_second, 2e10);
  nlohmann::json broken = j;
  broken.erase("one_thread");
  EXPECT_THROW((void)machine_from_json(broken), Error);
}

TEST(MachineLimits, BusyWhenTheLoadLeftTooFewProcessors) {
  MachineLimits m = limits("a");
  m.load = 0.2;
  EXPECT_TRUE(busy_measurement_warning(m).empty());
  m.load = 3.0;
  EXPECT_NE(busy_measurement_warning(m).find("busy"), std::string::npos);
}

}  // namespace
}  // namespace kexp::core
