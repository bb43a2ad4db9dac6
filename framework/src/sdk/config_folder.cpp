// The experiment's folder for relative paths, set once by kexp, read by plugins.
#include "kexp/config_folder.hpp"

namespace kexp {

namespace {

std::filesystem::path& folder() {
  static std::filesystem::path value;
  return value;
}

}  // namespace

std::filesystem::path config_folder() { return folder(); }

std::filesystem::path resolve_config_path(const std::string& written) {
  std::filesystem::path path(written);
  if (path.is_relative() && !folder().empty()) path = folder() / path;
  return path;
}

void detail::set_config_folder(const std::filesystem::path& value) { folder() = value; }

}  // namespace kexp
