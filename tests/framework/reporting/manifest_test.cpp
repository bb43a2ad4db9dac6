// The manifest's provenance: hashes, build facts, environment.
#include "reporting/manifest.hpp"

#include <gtest/gtest.h>

#include "support/plugins.hpp"
#include "support/test_paths.hpp"

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

// The OpenBLAS that runs is the one the build linked: with the OpenMP build, the
// system's default libopenblas.so.0 (the pthreads build) must not have been loaded
// instead, as it would be without the run-time path to the OpenMP build's directory.
TEST(Manifest, RecordsHowBlasRunsItsThreads) {
  const auto e = environment_json();
  const std::string threading = e["blas"]["threading"].get<std::string>();
  const bool omp_config =
      e["blas"]["config"].get<std::string>().find("USE_OPENMP") != std::string::npos;
  EXPECT_EQ(threading == "openmp", omp_config) << threading;
  if (KEXP_TEST_OPENBLAS_OPENMP != 0) {
    EXPECT_EQ(threading, "openmp");
  } else {
    EXPECT_NE(threading, "openmp");
  }
}

TEST(Manifest, PluginsCarryTheirHash) {
  const auto& p = test::registry().find(PluginKind::Kernel, "gaussian");
  const auto j = plugin_json(p);
  EXPECT_EQ(j["name"], "gaussian");
  EXPECT_EQ(j["sha256"], sha256_file(p.path));
}

TEST(Manifest, ARunManifestIsReadBackAsWritten) {
  Manifest m;
  m.experiment = "x";
  m.started = "2024-05-01T12:00:00Z";
  m.root_seed = 7;
  m.repeats = 3;
  m.dataset_seeds = {{"cubic(n=10)", {"1", "2", "3"}}};
  m.cells = 12;
  m.shard = Manifest::Shard{1, 4, 3};
  const auto j = m.to_json();
  EXPECT_EQ(j["finished"], nullptr);  // still running
  EXPECT_FALSE(j.contains("runs"));
  EXPECT_EQ(j["seeds"]["datasets"][0]["seeds"][2], "3");
  const std::vector<std::string> order = {
      "kexp_version", "git_commit",        "git_dirty",   "compiler",    "build_type",
      "flags",        "experiment",        "cell_ids",    "config_file", "config_text",
      "command_line", "working_directory", "started",     "finished",    "environment",
      "seeds",        "plugins",           "inputs",      "cells",       "shard",
      "resumed",      "options",           "machine_load"};
  std::vector<std::string> keys;
  for (const auto& [key, value] : j.items()) keys.push_back(key);
  EXPECT_EQ(keys, order);

  const test::TempDir dir;
  write_manifest(dir.path() / "manifest.json", j);
  const StoredManifest back = read_manifest(dir.path() / "manifest.json");
  EXPECT_EQ(back.started.value_or(""), "2024-05-01T12:00:00Z");
  EXPECT_EQ(back.cells.value_or(0), 12U);
  EXPECT_EQ(back.repeats.value_or(0), 3);
  ASSERT_TRUE(back.shard.has_value());
  EXPECT_EQ(back.shard->index, 1U);
  EXPECT_EQ(back.shard->count, 4U);
  EXPECT_EQ(back.document, j);

  m.finished = "2024-05-01T12:01:00Z";
  m.runs = Manifest::Runs{5, 1, 2, 4, 3, 1};
  const auto done = m.to_json();
  EXPECT_EQ(done["runs"]["refused"], 2);
  EXPECT_EQ(done["runs"]["timeout"], 4);
  EXPECT_EQ(done["runs"]["kept_from_before"], 3);
  EXPECT_EQ(done["runs"]["not_started"], 1);
}

TEST(Manifest, AMergedOrMissingManifestReadsAsUnknown) {
  const test::TempDir dir;
  EXPECT_TRUE(read_manifest(dir.path() / "none.json").document.is_null());
  dir.write("bad.json", "{\"started\": ");
  EXPECT_TRUE(read_manifest(dir.path() / "bad.json").document.is_null());
  MergeManifest merged;
  merged.experiment = "x";
  merged.inputs = {{"/a", 2, nullptr}};
  merged.total_runs = 2;
  write_manifest(dir.path() / "merged.json", merged.to_json());
  const StoredManifest back = read_manifest(dir.path() / "merged.json");
  EXPECT_FALSE(back.cells.has_value());
  EXPECT_FALSE(back.repeats.has_value());
  EXPECT_FALSE(back.shard.has_value());
  EXPECT_EQ(back.document["merged_from"][0]["folder"], "/a");
}

}  // namespace
}  // namespace kexp::core
