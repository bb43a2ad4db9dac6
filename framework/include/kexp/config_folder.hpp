// The folder an experiment's relative paths start from, for a plugin whose parameters
// name a file and that checks the file when it is created, before anything runs (the
// HMM kernels' model file), rather than when it is first used.
#pragma once

#include <filesystem>
#include <string>

#include "kexp/export.hpp"

namespace kexp {

/// The folder relative paths of the experiment being run start from (its `base_dir`: the
/// config file's folder unless the file says otherwise), set by kexp before it creates
/// any plugin object of that experiment; empty when there is none (`check-kernel NAME`,
/// a test), and relative paths then start from the working folder.
KEXP_API std::filesystem::path config_folder();

/// `written` as a path: as it is when absolute, in config_folder() otherwise.
KEXP_API std::filesystem::path resolve_config_path(const std::string& written);

namespace detail {
/// Sets config_folder(); kexp calls it once it has read an experiment file.
KEXP_API void set_config_folder(const std::filesystem::path& folder);
}  // namespace detail

}  // namespace kexp
