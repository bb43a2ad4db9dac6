// A plugin library probed in a child process: one that loads, one that is not a plugin,
// one the loader refuses, and ones that crash, exit or hang while they are opened, each
// told apart, with this process unharmed.
#include "plugin/probe.hpp"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cstdlib>

#include "support/plugins.hpp"

namespace kexp::core {
namespace {

using ::testing::AllOf;
using ::testing::HasSubstr;
using Verdict = ProbeResult::Verdict;

std::filesystem::path fixture(const std::string& folder, const std::string& file) {
  return test::fixture_dir() / folder / file;
}

TEST(PluginProbe, ALibraryThatLoadsANonPluginAndABrokenPluginAreToldApart) {
  const ProbeResult loads = probe_plugin(fixture("forms", "libkexp_fixture_flaky.so"), 10);
  EXPECT_EQ(loads.verdict, Verdict::Loads) << loads.message;
  EXPECT_GT(loads.seconds, 0.0);
  const ProbeResult helper = probe_plugin(fixture("no_entry", "libnot_a_plugin.so"), 10);
  EXPECT_EQ(helper.verdict, Verdict::NotAPlugin);
  EXPECT_THAT(helper.message, HasSubstr("is not a kexp plugin"));
  const ProbeResult abi = probe_plugin(fixture("bad_abi", "libkexp_fixture_bad_abi.so"), 10);
  EXPECT_EQ(abi.verdict, Verdict::Broken);
  EXPECT_THAT(abi.message, HasSubstr("was built for kexp plugin ABI"));
}

TEST(PluginProbe, ALibraryThatEndsOrStopsItsProcessIsNamedWithWhatItDid) {
  const ProbeResult garbage =
      probe_plugin(fixture("garbage_entry", "libkexp_kernel_garbage_entry.so"), 10);
  EXPECT_EQ(garbage.verdict, Verdict::Misbehaved);
  EXPECT_THAT(garbage.message, AllOf(HasSubstr("libkexp_kernel_garbage_entry.so"),
                                     HasSubstr("was killed by SIGSEGV (signal 11)")));
  const ProbeResult exits =
      probe_plugin(fixture("constructor_exit", "libkexp_fixture_constructor_exit.so"), 10);
  EXPECT_EQ(exits.verdict, Verdict::Misbehaved);
  EXPECT_THAT(exits.message, HasSubstr("exited with code 0"));
  const ProbeResult hangs =
      probe_plugin(fixture("constructor_hang", "libkexp_fixture_constructor_hang.so"), 0.5);
  EXPECT_EQ(hangs.verdict, Verdict::Misbehaved);
  EXPECT_THAT(hangs.message, AllOf(HasSubstr("did not finish within 0.5 s and was killed"),
                                   HasSubstr("KEXP_PLUGIN_PROBE_SECONDS")));
}

TEST(PluginProbe, TheTimeoutComesFromTheEnvironmentWhenItIsAPositiveNumber) {
  ::unsetenv("KEXP_PLUGIN_PROBE_SECONDS");
  EXPECT_EQ(probe_timeout_seconds(), 10.0);
  ::setenv("KEXP_PLUGIN_PROBE_SECONDS", "2.5", 1);
  EXPECT_EQ(probe_timeout_seconds(), 2.5);
  for (const char* bad : {"0", "-1", "soon", "3s", ""}) {
    ::setenv("KEXP_PLUGIN_PROBE_SECONDS", bad, 1);
    EXPECT_EQ(probe_timeout_seconds(), 10.0) << bad;
  }
  ::unsetenv("KEXP_PLUGIN_PROBE_SECONDS");
}

}  // namespace
}  // namespace kexp::core
