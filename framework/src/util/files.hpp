// Files written whole or not at all.
#pragma once

#include <filesystem>
#include <string>

namespace kexp::core {

/// Writes a whole file atomically: to a temporary name in the same folder, then renamed
/// over `file`. On failure the temporary file is removed and kexp::Error thrown; `file`
/// keeps its old content.
void write_file_atomically(const std::filesystem::path& file, const std::string& content);

/// The whole content of a file; empty when it cannot be read.
std::string read_text_file(const std::filesystem::path& file);

}  // namespace kexp::core
