// The resolved config read back and compared; the merged config.
#include "reporting/resolved_config.hpp"

#include <gtest/gtest.h>

#include "kexp/error.hpp"
#include "support/plugins.hpp"

namespace kexp::core {
namespace {

TEST(ResolvedConfig, ConfigDifferenceNamesTheFirstDifferingKey) {
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

TEST(ResolvedConfig, AMergedConfigNamesItsOwnFolderAndIsOtherwiseTheSame) {
  const YAML::Node a = YAML::Load("experiment: x\nseed: 1\noutput: {dir: a, predictions: true}\n");
  const YAML::Node merged = YAML::Load(merged_config(a, ".", "joined"));
  EXPECT_EQ(merged["output"]["dir"].as<std::string>(), "joined");
  EXPECT_FALSE(config_difference(a, merged).has_value());
  EXPECT_EQ(a["output"]["dir"].as<std::string>(), "a");  // the input is left alone
  // base_dir is relative to the config's folder: the merged folder's names the same place.
  const YAML::Node shard = YAML::Load("experiment: x\nbase_dir: ..\noutput: {dir: shard0}\n");
  const YAML::Node all = YAML::Load(merged_config(shard, "runs/shard0", "runs/all"));
  EXPECT_EQ(all["base_dir"].as<std::string>(), "..");
  EXPECT_EQ(all["output"]["dir"].as<std::string>(), "all");
}

TEST(ResolvedConfig, WhereTheConfigWasAndParametersAtTheirDefaultAreNoDifference) {
  const YAML::Node a = YAML::Load(
      "experiment: x\nbase_dir: /home/a/exp\nkernels: [{plugin: gaussian, sigma: 0.5}]\n");
  YAML::Node b = YAML::Load(
      "experiment: x\nbase_dir: ..\nkernels: [{plugin: gaussian, sigma: 0.5, map: none}]\n");
  // Without the defaults, a parameter one config lacks is a difference.
  EXPECT_EQ(config_difference(a, b).value_or(""), "kernels[0].map is (absent) there and none here");
  ParamDefaults defaults;
  defaults.add("kernel", "gaussian", "map", "none");
  defaults.add("kernel", "gaussian", "sigma", "1");
  EXPECT_FALSE(config_difference(a, b, &defaults).has_value());
  b["kernels"][0]["map"] = "rff";
  EXPECT_EQ(config_difference(a, b, &defaults).value_or(""),
            "kernels[0].map is (absent) there and rff here");
}

TEST(ResolvedConfig, AFolderWithoutOneIsNotAResultFolder) {
  const test::TempDir dir;
  EXPECT_THROW(read_resolved_config(dir.path() / "config.yaml", dir.path()), ConfigError);
  dir.write("config.yaml", "experiment: [\n");
  EXPECT_THROW(read_resolved_config(dir.path() / "config.yaml", dir.path()), ConfigError);
}

}  // namespace
}  // namespace kexp::core
