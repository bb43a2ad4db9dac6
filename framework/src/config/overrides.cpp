#include "config/overrides.hpp"

#include <fmt/format.h>

#include <sstream>
#include <vector>

namespace kexp::core {

namespace {

/// Splits `kernels[0].sigma` into steps: "kernels", 0, "sigma".
struct PathStep {
  std::string key;
  long index = -1;
};

std::vector<PathStep> parse_key_path(const std::string& path, const std::string& text) {
  std::vector<PathStep> steps;
  std::size_t i = 0;
  while (i < path.size()) {
    std::size_t j = i;
    while (j < path.size() && path[j] != '.' && path[j] != '[') ++j;
    if (j > i) steps.push_back({path.substr(i, j - i), -1});
    while (j < path.size() && path[j] == '[') {
      const std::size_t close = path.find(']', j);
      if (close == std::string::npos) {
        throw ConfigError(fmt::format("--set {}: unclosed '[' in the key", text));
      }
      try {
        steps.push_back({"", std::stol(path.substr(j + 1, close - j - 1))});
      } catch (const std::exception&) {
        throw ConfigError(
            fmt::format("--set {}: '{}' is not an index", text, path.substr(j + 1, close - j - 1)));
      }
      j = close + 1;
    }
    if (j < path.size() && path[j] == '.') ++j;
    i = j;
  }
  return steps;
}

}  // namespace

std::string apply_override(const YAML::Node& root, const Override& o) {
  const auto eq = o.text.find('=');
  if (eq == std::string::npos || eq == 0) {
    throw ConfigError(
        fmt::format("--set '{}' must be KEY=VALUE[,VALUE…], e.g. kernels[0].sigma=0.5,1", o.text));
  }
  const std::string path = o.text.substr(0, eq);
  const std::string rhs = o.text.substr(eq + 1);
  const std::vector<PathStep> steps = parse_key_path(path, o.text);
  if (steps.empty()) throw ConfigError(fmt::format("--set '{}' names no key", o.text));
  // Walk to the parent of the last step; every step but the last must exist. The last
  // may be new: every map of the file has its keys checked by the parser (top-level and
  // output: against the known keys; a component: against its plugin's schema), so a key
  // that names nothing is reported there, located at this `--set`.
  YAML::Node node = root;
  std::string canonical;
  for (std::size_t s = 0; s + 1 < steps.size(); ++s) {
    const PathStep& step = steps[s];
    YAML::Node next;
    if (step.index >= 0) {
      canonical += fmt::format("[{}]", step.index);
      if (step.index == 0 && node.IsMap()) {
        continue;  // `kernels:` written as a single map is kernels[0]
      }
      if (!node.IsSequence() || step.index >= static_cast<long>(node.size())) {
        throw ConfigError(
            fmt::format("--set {}: the config has no element [{}] there", o.text, step.index));
      }
      next = node[static_cast<std::size_t>(step.index)];
    } else {
      if (!node.IsMap() || !node[step.key]) {
        std::string message = fmt::format("--set {}: the config has no key '{}'", o.text, step.key);
        const bool number =
            !step.key.empty() && step.key.find_first_not_of("0123456789") == std::string::npos;
        if (number) {
          // kernels.0.sigma: a list element is written with brackets.
          std::string fixed = path;
          const std::string dotted = "." + step.key;
          const auto at = fixed.find(dotted);
          if (at != std::string::npos) fixed.replace(at, dotted.size(), "[" + step.key + "]");
          message += fmt::format("; an element of a list is written [{}]: --set {}={}", step.key,
                                 fixed, rhs);
        }
        throw ConfigError(message);
      }
      next = node[step.key];
      canonical += (canonical.empty() ? "" : ".") + step.key;
    }
    node.reset(next);  // rebind: `node = next` would overwrite the parent with its child
  }
  canonical += (canonical.empty() ? "" : ".") + steps.back().key;
  const PathStep& last = steps.back();
  if (last.index >= 0 || !node.IsMap()) {
    throw ConfigError(fmt::format("--set {}: '{}' does not name a key of a map", o.text, path));
  }
  std::vector<std::string> values;
  std::stringstream ss(rhs);
  std::string item;
  while (std::getline(ss, item, ',')) {
    if (item.empty()) throw ConfigError(fmt::format("--set {}: an empty value", o.text));
    values.push_back(item);
  }
  if (values.empty()) throw ConfigError(fmt::format("--set {}: no value given", o.text));
  if (values.size() == 1) {
    node[last.key] = values[0];
  } else {
    YAML::Node list(YAML::NodeType::Sequence);
    for (const auto& v : values) list.push_back(v);
    node[last.key] = list;
  }
  return canonical;
}

}  // namespace kexp::core
