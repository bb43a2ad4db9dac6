// Command-line overrides (`kexp run --set KEY=V1,V2,…`): each is written into the YAML
// document before it is parsed, so that an overridden value is checked exactly as one
// written in the file.
#pragma once

#include <yaml-cpp/yaml.h>

#include <string>

#include "config/experiment.hpp"

namespace kexp::core {

/// Applies one override to the document and returns the key path it set, in the form
/// the parser names keys (`kernels[0].sigma`). Throws ConfigError when the text is not
/// KEY=VALUE[,VALUE…] or the key's parent is not in the document.
std::string apply_override(const YAML::Node& root, const Override& o);

}  // namespace kexp::core
