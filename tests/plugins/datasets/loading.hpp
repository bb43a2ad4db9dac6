// What the dataset tests share: loading a dataset plugin through the real loader, and the
// message of the error it, or any reading, throws.
#pragma once

#include <cstdint>
#include <filesystem>
#include <string>

#include "kexp/kexp.hpp"
#include "support/plugins.hpp"

namespace kexp::test {

/// Loads dataset `name` with `params` (YAML text, checked against the schema), with
/// relative paths taken from `base_dir`.
inline Data load_dataset(const std::string& name, const TextParams& params,
                         const std::filesystem::path& base_dir = {}, std::uint64_t seed = 1) {
  return make_dataset(name, params)->load(DatasetContext{seed, base_dir});
}

/// The message of the DataError that read() throws, or "(no error)".
template <class Read>
std::string data_error_of(const Read& read) {
  try {
    (void)read();
  } catch (const DataError& e) {
    return e.what();
  }
  return "(no error)";
}

/// The message of the DataError that loading throws, or "(no error)".
inline std::string data_error(const std::string& name, const TextParams& params,
                              const std::filesystem::path& base_dir = {}) {
  return data_error_of([&] { return load_dataset(name, params, base_dir); });
}

/// The message of the ConfigError that checking `params` against the schema throws, or
/// "(no error)".
inline std::string config_error(const std::string& name, const TextParams& params) {
  try {
    (void)make_dataset(name, params);
  } catch (const ConfigError& e) {
    return e.what();
  }
  return "(no error)";
}

}  // namespace kexp::test
