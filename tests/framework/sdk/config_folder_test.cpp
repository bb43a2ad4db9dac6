// The experiment's folder for relative paths, as a plugin resolves a file it names.
#include "kexp/config_folder.hpp"

#include <gtest/gtest.h>

namespace kexp {
namespace {

TEST(ConfigFolder, RelativePathsStartFromItAndAbsoluteOnesStayAsTheyAre) {
  detail::set_config_folder({});
  EXPECT_TRUE(config_folder().empty());
  EXPECT_EQ(resolve_config_path("model.txt"), std::filesystem::path("model.txt"));
  detail::set_config_folder("/data/project");
  EXPECT_EQ(config_folder(), std::filesystem::path("/data/project"));
  EXPECT_EQ(resolve_config_path("models/a.txt"),
            std::filesystem::path("/data/project/models/a.txt"));
  EXPECT_EQ(resolve_config_path("/elsewhere/b.txt"), std::filesystem::path("/elsewhere/b.txt"));
  detail::set_config_folder({});
}

}  // namespace
}  // namespace kexp
