// Reading result folders back: config differences, complete rows, JSONL filtering.
#include "reporting/folder.hpp"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "support/plugins.hpp"

namespace kexp::core {
namespace {

TEST(ResultFolder, ConfigDifferenceNamesTheFirstDifferingKey) {
  const YAML::Node a = YAML::Load(
      "experiment: x\nseed: 1\nkernels:\n  - {plugin: gaussian, sigma: [0.3, 1, 3]}\n"
      "output: {dir: a}\nplugin_path: [/p]\n");
  YAML::Node b = YAML::Clone(a);
  b["output"]["dir"] = "b";
  b["plugin_path"][0] = "/q";
  EXPECT_FALSE(config_difference(a, b).has_value());
  b["kernels"][0]["sigma"] = YAML::Load("[0.3, 1]");
  EXPECT_EQ(config_difference(a, b).value_or(""),
            "kernels[0].sigma is [0.3, 1, 3] there and [0.3, 1] here");
  YAML::Node c = YAML::Clone(a);
  c["seed"] = 2;
  EXPECT_EQ(config_difference(a, c).value_or(""), "seed is 1 there and 2 here");
  YAML::Node d = YAML::Clone(a);
  d["repeats"] = 3;
  EXPECT_EQ(config_difference(a, d).value_or(""), "repeats is (absent) there and 3 here");
}

TEST(ResultFolder, KeepsOnlyCompleteRowsAndWholeJsonLines) {
  const test::TempDir dir;
  dir.write("results.csv", "cell,repeat,status\na,0,ok\nb,0,failed\nc,0,ok\nd,0\n");
  const CsvTable t = read_results(dir.path());
  ASSERT_EQ(t.rows.size(), 3U);
  EXPECT_EQ(finished_runs(t), (std::set<RunKey>{{"a", "0"}, {"c", "0"}}));
  EXPECT_EQ(csv_text(t), "cell,repeat,status\na,0,ok\nb,0,failed\nc,0,ok\n");
  dir.write("results.jsonl",
            "{\"cell\":\"a\",\"repeat\":0,\"status\":\"ok\"}\n"
            "{\"cell\":\"b\",\"repeat\":0,\"status\":\"failed\"}\n"
            "{\"cell\":\"a\",\"repeat\":0,\"status\":\"ok\"}\n"
            "{\"cell\":\"c\",\"repeat\":0,\"sta");
  EXPECT_EQ(filter_jsonl(dir.path() / "results.jsonl", {{{"a", "0"}, "ok"}, {{"c", "0"}, "ok"}}),
            "{\"cell\":\"a\",\"repeat\":0,\"status\":\"ok\"}\n");
  EXPECT_THROW(read_results(dir.path() / "nowhere"), ConfigError);
  EXPECT_THROW(read_resolved_config(dir.path()), ConfigError);
}

}  // namespace
}  // namespace kexp::core
