// kexp merge on hand-made shard folders: one row per run (ok wins over failed, the first
// folder over later ones), missing and repeated shards reported, predictions and kernels/
// carried, folders of different experiments refused.
#include "reporting/merge.hpp"

#include <fmt/format.h>
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "kexp/error.hpp"
#include "reporting/result_folder.hpp"
#include "support/plugins.hpp"

namespace kexp::core {
namespace {

namespace fs = std::filesystem;
using ::testing::HasSubstr;

std::vector<std::string> split(const std::string& row) { return csv_split(row); }

const char* const kConfig = "experiment: m\nseed: 1\nrepeats: 1\noutput: {dir: x}\n";

/// A shard folder: config.yaml, results (cell,repeat,status,test_rmse), manifest.json.
fs::path shard(const test::TempDir& dir, const std::string& name, std::size_t index,
               std::size_t count, const std::vector<std::string>& rows,
               const std::string& config = kConfig) {
  std::string csv = "cell,repeat,status,test_rmse\n", jsonl;
  for (const std::string& row : rows) {
    csv += row + "\n";
    std::vector<std::string> f = split(row);
    const std::string rmse = f.size() > 3 && !f[3].empty() ? ",\"test_rmse\":" + f[3] : "";
    jsonl += fmt::format(R"({{"cell":"{}","repeat":{},"status":"{}"{}}})", f[0], f[1], f[2], rmse) +
             "\n";
  }
  dir.write(name + "/config.yaml", config);
  dir.write(name + "/results.csv", csv);
  dir.write(name + "/results.jsonl", jsonl);
  dir.write(
      name + "/manifest.json",
      fmt::format(
          R"({{"cells": 3, "seeds": {{"repeats": 1}}, "shard": {{"index": {}, "count": {}}}}})",
          index, count));
  return dir.path() / name;
}

std::string read(const fs::path& file) {
  std::stringstream s;
  s << std::ifstream(file).rdbuf();
  return s.str();
}

TEST(Merge, OneRowPerRunAndOkWinsOverFailed) {
  const test::TempDir dir;
  const fs::path a = shard(dir, "a", 0, 2, {"c1,0,ok,0.5", "c2,0,failed,"});
  const fs::path b = shard(dir, "b", 1, 2, {"c2,0,ok,0.25", "c3,0,ok,0.75", "c1,0,ok,9"});
  dir.write("a/predictions/c1-0.csv", "index,y_true,y_pred\n0,1,1\n");
  dir.write("a/kernels/c1-0-K.npy", std::string("\x93NUMPY\0a", 9));
  dir.write("b/kernels/c1-0-K.npy", "later");
  dir.write("b/kernels/c2-0-K.npy", "b's");
  MergeOptions o{{a, b}, dir.path() / "out", false, "kexp merge a b --out out"};
  EXPECT_EQ(merge_results(o), 0);
  const CsvTable t = ResultFolder(o.out).read_results();
  ASSERT_EQ(t.rows.size(), 3U);
  EXPECT_EQ(t.rows[0], (std::vector<std::string>{"c1", "0", "ok", "0.5"}));   // the first folder
  EXPECT_EQ(t.rows[1], (std::vector<std::string>{"c2", "0", "ok", "0.25"}));  // ok over failed
  EXPECT_EQ(t.rows[2], (std::vector<std::string>{"c3", "0", "ok", "0.75"}));
  EXPECT_EQ(read(o.out / "results.jsonl"),
            "{\"cell\":\"c1\",\"repeat\":0,\"status\":\"ok\",\"test_rmse\":0.5}\n"
            "{\"cell\":\"c2\",\"repeat\":0,\"status\":\"ok\",\"test_rmse\":0.25}\n"
            "{\"cell\":\"c3\",\"repeat\":0,\"status\":\"ok\",\"test_rmse\":0.75}\n");
  EXPECT_EQ(read(o.out / "predictions" / "c1-0.csv"), "index,y_true,y_pred\n0,1,1\n");
  EXPECT_EQ(read(o.out / "kernels" / "c1-0-K.npy"), std::string("\x93NUMPY\0a", 9));
  EXPECT_EQ(read(o.out / "kernels" / "c2-0-K.npy"), "b's");
  EXPECT_TRUE(ResultFolder(o.out).is_marked());
  const auto m = nlohmann::json::parse(read(o.out / "manifest.json"));
  EXPECT_EQ(m["runs"]["total"], 3);
  EXPECT_EQ(m["runs"]["planned"], 3);
  EXPECT_EQ(m["merged_from"][1]["runs"], 2);  // c2 and c3 came from b
  // output.dir names the merged folder from base_dir, which is relative to the folder the
  // config is in (the inputs' had none: their own folder).
  const YAML::Node merged = YAML::Load(read(o.out / "config.yaml"));
  EXPECT_EQ(
      (o.out / merged["base_dir"].as<std::string>() / merged["output"]["dir"].as<std::string>())
          .lexically_normal(),
      o.out.lexically_normal());
}

TEST(Merge, AMissingOrRepeatedShardIsAProblem) {
  const test::TempDir dir;
  const fs::path a = shard(dir, "a", 0, 3, {"c1,0,ok,0.5"});
  const fs::path b = shard(dir, "b", 0, 3, {"c2,0,ok,0.5"});
  MergeOptions o{{a, b}, dir.path() / "out", false, ""};
  EXPECT_EQ(merge_results(o), 1);
  const auto problems = nlohmann::json::parse(read(o.out / "manifest.json"))["problems"];
  EXPECT_THAT(problems.dump(), HasSubstr("shard 0/3 is given twice"));
  EXPECT_THAT(problems.dump(), HasSubstr("shard 1/3 is missing"));
  EXPECT_THAT(problems.dump(), HasSubstr("1 of the sweep's 3 runs are missing"));
}

TEST(Merge, RefusesDifferentExperimentsAndItsOwnInput) {
  const test::TempDir dir;
  const fs::path a = shard(dir, "a", 0, 2, {"c1,0,ok,0.5"});
  const fs::path b = shard(dir, "b", 1, 2, {"c2,0,ok,0.5"},
                           "experiment: m\nseed: 2\nrepeats: 1\noutput: {dir: x}\n");
  try {
    merge_results(MergeOptions{{a, b}, dir.path() / "out", false, ""});
    FAIL() << "merged different experiments";
  } catch (const ConfigError& e) {
    EXPECT_THAT(e.what(), HasSubstr("seed is 1 there and 2 here"));
  }
  EXPECT_FALSE(fs::exists(dir.path() / "out"));
  EXPECT_THROW(merge_results(MergeOptions{{a}, a, false, ""}), ConfigError);
}

TEST(Merge, RefusesAShardWhoseCsvSaysOtherThanItsJsonlAndWritesBothFromOneSource) {
  // Before: the CSV and JSONL rows were copied separately, so an edited results.csv gave
  // a merged CSV that said other than the merged JSONL, with exit 0.
  const test::TempDir dir;
  const fs::path a = shard(dir, "a", 0, 2, {"c1,0,ok,0.5"});
  const fs::path b = shard(dir, "b", 1, 2, {"c2,0,ok,0.25", "c3,0,ok,0.75"});
  dir.write("b/results.csv", "cell,repeat,status,test_rmse\nc2,0,ok,0.25\nc3,0,ok,0.07\n");
  try {
    merge_results(MergeOptions{{a, b}, dir.path() / "out", false, ""});
    FAIL() << "merged a shard whose two tables differ";
  } catch (const ConfigError& e) {
    EXPECT_THAT(e.what(), HasSubstr(b.string() + ": row 2, column test_rmse: results.csv has "
                                                 "'0.07', results.jsonl '0.75'"));
  }
  EXPECT_FALSE(fs::exists(dir.path() / "out"));
  // a row missing from one table
  dir.write("b/results.csv", "cell,repeat,status,test_rmse\nc2,0,ok,0.25\n");
  EXPECT_THROW(merge_results(MergeOptions{{a, b}, dir.path() / "out", false, ""}), ConfigError);
  // restored: merged, the CSV rendered from the very rows the JSONL holds
  dir.write("b/results.csv", "cell,repeat,status,test_rmse\nc2,0,ok,0.25\nc3,0,ok,0.75\n");
  MergeOptions o{{a, b}, dir.path() / "out", false, ""};
  EXPECT_EQ(merge_results(o), 0);
  EXPECT_EQ(read(o.out / "results.csv"),
            "cell,repeat,status,test_rmse\nc1,0,ok,0.5\nc2,0,ok,0.25\nc3,0,ok,0.75\n");
  EXPECT_EQ(read(o.out / "results.jsonl"),
            "{\"cell\":\"c1\",\"repeat\":0,\"status\":\"ok\",\"test_rmse\":0.5}\n"
            "{\"cell\":\"c2\",\"repeat\":0,\"status\":\"ok\",\"test_rmse\":0.25}\n"
            "{\"cell\":\"c3\",\"repeat\":0,\"status\":\"ok\",\"test_rmse\":0.75}\n");
}

}  // namespace
}  // namespace kexp::core
