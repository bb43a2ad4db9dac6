// What manifest.json records about where and how a run happened: the kexp build (version,
// git commit and dirty flag, compiler and flags), the machine (host, CPU, BLAS and its
// threads) and each plugin (path, version, sha256 of the library).
#pragma once

#include <filesystem>
#include <nlohmann/json.hpp>
#include <string>

#include "plugin/registry.hpp"

namespace kexp::core {

/// Facts fixed when kexp was built (written by CMake into generated sources).
struct BuildInfo {
  std::string git_commit;  ///< empty when built outside a git checkout
  bool git_dirty = false;  ///< tracked files differed from the commit
  std::string compiler;    ///< "GNU 12.2.0"
  std::string build_type;  ///< "Release"
  std::string flags;       ///< CMAKE_CXX_FLAGS and those of the build type
};
BuildInfo build_info();

/// kexp version and the build facts.
nlohmann::ordered_json build_json();

/// Host, operating system, CPU model and count, physical memory, BLAS (OpenBLAS's
/// configuration, core type and threads) and kexp's Gram threads.
nlohmann::ordered_json environment_json();

/// A plugin: kind, name, version, path and the sha256 of its library.
nlohmann::ordered_json plugin_json(const PluginRecord& plugin);

/// SHA-256 of bytes, and of a file's content, as 64 lowercase hex digits (OpenSSL's
/// libcrypto). sha256_file throws kexp::Error when the file cannot be read.
std::string sha256_hex(const std::string& bytes);
std::string sha256_file(const std::filesystem::path& file);

/// The "model name" of /proc/cpuinfo, or "" where there is none.
std::string cpu_model();

/// The current UTC time, ISO 8601 ("2024-05-01T12:00:00Z").
std::string now_iso8601();

}  // namespace kexp::core
