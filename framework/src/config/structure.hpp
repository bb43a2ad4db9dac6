// Checks of a YAML document's shape before its values are read: what yaml-cpp accepts but
// an experiment file must not hold.
#pragma once

#include <yaml-cpp/yaml.h>

#include <cstddef>
#include <filesystem>

namespace kexp::core {

/// The most nodes a document may expand to, aliases counted each time they are used.
constexpr std::size_t kMaxDocumentNodes = 100000;

/// Throws ConfigError, with the file:line:column of the offending node, when `root`
///   - repeats a key in one map (yaml-cpp keeps the first silently),
///   - holds an alias that refers to a node containing it (a cycle: `&k [{sum: *k}]`),
///   - expands through aliases to more than kMaxDocumentNodes nodes (an alias bomb).
void check_structure(const YAML::Node& root, const std::filesystem::path& file);

}  // namespace kexp::core
