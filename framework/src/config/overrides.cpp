// Writing a `--set KEY=VALUE` into the YAML document before it is parsed: the key path
// (`kernels[0].sigma`) followed into the document, and the value written as a scalar, a
// list of values or a generator (linspace, logspace, range).
#include "config/overrides.hpp"
#include "util/names.hpp"
#include "util/text.hpp"

#include <fmt/format.h>

#include <optional>
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

/// The value of a --set that is a generator or a YAML list, or nothing for plain values.
std::optional<YAML::Node> generator_or_list(const std::string& rhs, const std::string& text) {
  const auto open = rhs.find('(');
  if (open != std::string::npos && !rhs.empty() && rhs.back() == ')') {
    const std::string kind = rhs.substr(0, open);
    if (kind != "linspace" && kind != "logspace" && kind != "range") {
      throw ConfigError(fmt::format(
          "--set {}: '{}' is not a generator; write linspace(a,b,count), logspace(a,b,count) "
          "or range(start,stop,step)",
          text, kind));
    }
    YAML::Node args(YAML::NodeType::Sequence);
    std::stringstream ss(rhs.substr(open + 1, rhs.size() - open - 2));
    std::string item;
    while (std::getline(ss, item, ',')) {
      const auto first = item.find_first_not_of(' ');
      const auto end = item.find_last_not_of(' ');
      args.push_back(first == std::string::npos ? std::string()
                                                : item.substr(first, end - first + 1));
    }
    YAML::Node generator(YAML::NodeType::Map);
    generator[kind] = args;
    return generator;
  }
  if (rhs.front() != '{' && rhs.front() != '[') return std::nullopt;
  try {
    return YAML::Load(rhs);
  } catch (const YAML::Exception& e) {
    throw ConfigError(
        fmt::format("--set {}: the value is not valid YAML ({}); write a list as "
                    "[0.1, 0.5] or a generator as {{logspace: [-3, 0, 4]}}",
                    text, e.msg));
  }
}

}  // namespace

std::string apply_override(const YAML::Node& root, const Override& o) {
  if (const auto bad = first_invalid_utf8(o.text)) {
    throw ConfigError(fmt::format(
        "--set: byte {} of the value (0x{:02x}) is not valid UTF-8; names and paths must be "
        "UTF-8 (rename a file whose name is not)",
        *bad + 1, static_cast<unsigned char>(o.text[*bad])));
  }
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
      // A section of settings the file may leave out (output:, timing:) is created, so
      // that `--set output.html=true` works on a file without output:; the parser checks
      // the key set in it.
      if (s == 0 && node.IsMap() && !node[step.key] &&
          (step.key == "output" || step.key == "timing")) {
        node[step.key] = YAML::Node(YAML::NodeType::Map);
      }
      if (!node.IsMap() || !node[step.key]) {
        std::string message = fmt::format("--set {}: the config has no key '{}'", o.text, step.key);
        const bool number =
            !step.key.empty() && step.key.find_first_not_of("0123456789") == std::string::npos;
        if (number) {
          // kernels.0.sigma: a list element is written with brackets.
          std::string fixed;
          for (const PathStep& p : steps) {
            const bool digits =
                !p.key.empty() && p.key.find_first_not_of("0123456789") == std::string::npos;
            if (p.index >= 0) {
              fixed += fmt::format("[{}]", p.index);
            } else if (digits) {
              fixed += "[" + p.key + "]";
            } else {
              fixed += (fixed.empty() ? "" : ".") + p.key;
            }
          }
          message += fmt::format("; an element of a list is written [{}]: --set {}={}", step.key,
                                 fixed, rhs);
        } else if (node.IsMap()) {
          // kernel[0] for kernels[0]: the keys that are there.
          std::vector<std::string> keys;
          for (const auto& kv : node) keys.push_back(kv.first.as<std::string>());
          message += did_you_mean(step.key, keys);
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
  // A generator, as a call (logspace(-3,0,4)) or in the file's own YAML form
  // ({logspace: [-3, 0, 4]}), and a YAML list ([0.1, 0.5]): the parser checks it as if
  // the file held it.
  if (const std::optional<YAML::Node> value = generator_or_list(rhs, o.text)) {
    node[last.key] = *value;
    return canonical;
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
