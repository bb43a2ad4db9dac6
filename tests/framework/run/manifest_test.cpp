// The manifest's provenance: hashes, build facts, environment.
#include "run/manifest.hpp"

#include <gtest/gtest.h>

#include "support/plugins.hpp"

namespace kexp::core {
namespace {

TEST(Manifest, Sha256MatchesTheStandardVectors) {
  EXPECT_EQ(sha256_hex(""), "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
  EXPECT_EQ(sha256_hex("abc"), "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
  const test::TempDir dir;
  // longer than one read buffer
  const std::string big(200000, 'a');
  EXPECT_EQ(sha256_file(dir.write("big", big)), sha256_hex(big));
  EXPECT_THROW(sha256_file(dir.path() / "missing"), Error);
}

TEST(Manifest, RecordsTheBuildAndTheMachine) {
  const auto b = build_json();
  EXPECT_FALSE(b["kexp_version"].get<std::string>().empty());
  EXPECT_TRUE(b.contains("git_commit"));
  if (!b["git_commit"].is_null()) {
    EXPECT_EQ(b["git_commit"].get<std::string>().size(), 40U);
  }
  EXPECT_TRUE(b["git_dirty"].is_boolean());
  EXPECT_FALSE(b["compiler"].get<std::string>().empty());
  const auto e = environment_json();
  EXPECT_EQ(e["blas"]["library"], "OpenBLAS");
  EXPECT_FALSE(e["blas"]["core"].get<std::string>().empty());
  EXPECT_GE(e["blas"]["threads"].get<int>(), 1);
  EXPECT_FALSE(e["host"].get<std::string>().empty());
}

TEST(Manifest, PluginsCarryTheirHash) {
  const auto& p = test::registry().find(PluginKind::Kernel, "gaussian");
  const auto j = plugin_json(p);
  EXPECT_EQ(j["name"], "gaussian");
  EXPECT_EQ(j["sha256"], sha256_file(p.path));
}

}  // namespace
}  // namespace kexp::core
