#include "config/experiment.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <cmath>
#include <fstream>
#include <map>
#include <set>
#include <sstream>

#include "kernel_algebra/expression.hpp"
#include "plugin/registry.hpp"

namespace kexp::core {

namespace fs = std::filesystem;

SourceLocation location_of(const YAML::Node& node, const fs::path& file) {
  SourceLocation where{file.string(), 0, 0};
  if (node.IsDefined()) {
    const YAML::Mark mark = node.Mark();
    if (mark.line >= 0) {
      where.line = mark.line + 1;
      where.column = mark.column + 1;
    }
  }
  return where;
}

namespace {

constexpr const char* kTopLevelKeys[] = {"experiment", "description", "base_dir", "seed",
                                         "repeats",    "plugin_path", "dataset",  "kernels",
                                         "solvers",    "output"};
constexpr const char* kOutputKeys[] = {"dir", "predictions"};
constexpr const char* kGenerators[] = {"linspace", "logspace", "range"};

/// Key paths set from the command line (`kernels[0].sigma`) → the `--set` text.
using OverriddenKeys = std::map<std::string, std::string>;

class Parser {
 public:
  Parser(fs::path file, OverriddenKeys overridden)
      : file_(std::move(file)), overridden_(std::move(overridden)) {}

  /// Where a value came from: its place in the file, or the `--set` that wrote it.
  SourceLocation where_of(const YAML::Node& node, const std::string& key) const {
    const auto it = overridden_.find(key);
    if (it != overridden_.end()) return SourceLocation{"--set " + it->second, 0, 0};
    return location_of(node, file_);
  }

  [[noreturn]] void fail(const YAML::Node& node, const std::string& key,
                         const std::string& message) const {
    throw ConfigError(where_of(node, key), key, message);
  }

  std::string scalar(const YAML::Node& node, const std::string& key) const {
    if (!node.IsScalar()) fail(node, key, fmt::format("{} must be a single value", key));
    return node.Scalar();
  }

  std::int64_t integer(const YAML::Node& node, const std::string& key, std::int64_t min) const {
    const std::string text = scalar(node, key);
    std::size_t used = 0;
    long long v = 0;
    try {
      v = std::stoll(text, &used);
    } catch (const std::exception&) {
      used = 0;
    }
    if (used != text.size() || text.empty()) {
      fail(node, key, fmt::format("{} must be an integer, got '{}'", key, text));
    }
    if (v < min) fail(node, key, fmt::format("{} must be ≥ {}, got {}", key, min, v));
    return v;
  }

  bool boolean(const YAML::Node& node, const std::string& key) const {
    const std::string text = scalar(node, key);
    if (text == "true" || text == "yes" || text == "on") return true;
    if (text == "false" || text == "no" || text == "off") return false;
    fail(node, key, fmt::format("{} must be true or false, got '{}'", key, text));
  }

  double number(const YAML::Node& node, const std::string& key) const {
    const std::string text = scalar(node, key);
    char* end = nullptr;
    const double v = std::strtod(text.c_str(), &end);
    if (text.empty() || end != text.c_str() + text.size() || !std::isfinite(v)) {
      fail(node, key, fmt::format("{} must be a finite number, got '{}'", key, text));
    }
    return v;
  }

  void check_keys(const YAML::Node& map, const std::string& where,
                  const std::vector<std::string>& allowed) const {
    for (const auto& kv : map) {
      const std::string k = kv.first.as<std::string>();
      if (std::find(allowed.begin(), allowed.end(), k) != allowed.end()) continue;
      std::string message = where.empty() ? fmt::format("unknown top-level key '{}'", k)
                                          : fmt::format("unknown key '{}' in {}", k, where);
      const std::string near = nearest_name(k, allowed);
      if (!near.empty()) message += fmt::format("; did you mean '{}'?", near);
      message += fmt::format(" (expected one of: {})", fmt::join(allowed, ", "));
      fail(kv.first, where.empty() ? k : where + "." + k, message);
    }
  }

  std::vector<SweepValue> generator(const std::string& kind, const YAML::Node& args,
                                    const std::string& key) const {
    const std::string gkey = key + "." + kind;
    if (!args.IsSequence() || args.size() != 3) {
      fail(args, gkey,
           fmt::format("{} takes three numbers: {}", gkey,
                       kind == "range" ? "[start, stop, step]" : "[start, stop, count]"));
    }
    const double a = number(args[0], gkey + "[0]");
    const double b = number(args[1], gkey + "[1]");
    std::vector<double> values;
    if (kind == "range") {
      const double step = number(args[2], gkey + "[2]");
      if (step == 0 || (b - a) / step < 0) {
        fail(args[2], gkey + "[2]",
             fmt::format("{}: step {} never reaches from {} towards {}", gkey, step, a, b));
      }
      const double span = (b - a) / step;
      const auto count = static_cast<std::int64_t>(std::floor(span + 1e-9));
      if (count > 1000000) fail(args, gkey, fmt::format("{} makes over a million values", gkey));
      // stop is excluded, as in Python's range; a value within rounding of stop is not kept
      for (std::int64_t i = 0; i <= count; ++i) {
        const double v = a + static_cast<double>(i) * step;
        if (std::fabs(v - b) <= 1e-12 * std::max(1.0, std::fabs(b))) break;
        values.push_back(v);
      }
      if (values.empty()) {
        fail(args, gkey,
             fmt::format("{}: [{}, {}) is empty; it must give at least one value", gkey, a, b));
      }
    } else {
      const std::int64_t count = integer(args[2], gkey + "[2]", 1);
      if (count > 1000000)
        fail(args[2], gkey, fmt::format("{} asks for over a million values", gkey));
      for (std::int64_t i = 0; i < count; ++i) {
        const double t = count == 1 ? 0.0 : static_cast<double>(i) / static_cast<double>(count - 1);
        double v = a + t * (b - a);
        if (count > 1 && i == count - 1) v = b;  // exact end point; one value is start
        values.push_back(kind == "logspace" ? std::pow(10.0, v) : v);
      }
    }
    std::vector<SweepValue> out;
    const SourceLocation where = location_of(args, file_);
    for (double v : values) out.push_back({fmt::format("{}", v), where, true});
    return out;
  }

  ParamSetting setting(const std::string& name, const YAML::Node& node,
                       const std::string& key) const {
    ParamSetting s;
    s.name = name;
    s.key = key;
    s.where = where_of(node, key);
    const bool overridden = overridden_.count(key) > 0;
    if (node.IsScalar()) {
      s.values.push_back({node.Scalar(), s.where, false});
    } else if (node.IsSequence()) {
      s.swept = true;
      if (node.size() == 0) {
        fail(node, key, fmt::format("{} is an empty list: a sweep needs at least one value", key));
      }
      for (std::size_t i = 0; i < node.size(); ++i) {
        const YAML::Node item = node[i];
        if (!item.IsScalar()) {
          fail(item, fmt::format("{}[{}]", key, i),
               fmt::format("{}[{}] must be a single value", key, i));
        }
        s.values.push_back({item.Scalar(), overridden ? s.where : location_of(item, file_), false});
      }
    } else if (node.IsMap()) {
      s.swept = true;
      if (node.size() != 1) {
        fail(node, key,
             fmt::format("{} must be a value, a list, or one generator ({})", key,
                         fmt::join(kGenerators, ", ")));
      }
      const auto kv = *node.begin();
      const std::string kind = kv.first.as<std::string>();
      if (std::find(std::begin(kGenerators), std::end(kGenerators), kind) ==
          std::end(kGenerators)) {
        std::vector<std::string> g(std::begin(kGenerators), std::end(kGenerators));
        std::string message = fmt::format("unknown generator '{}' for {}", kind, key);
        const std::string near = nearest_name(kind, g);
        if (!near.empty()) message += fmt::format("; did you mean '{}'?", near);
        message += fmt::format(" (expected one of: {})", fmt::join(g, ", "));
        fail(kv.first, key + "." + kind, message);
      }
      s.values = generator(kind, kv.second, key);
    } else {
      fail(node, key, fmt::format("{} has no value", key));
    }
    return s;
  }

  ComponentSpec component(const YAML::Node& node, const std::string& key) const {
    if (!node.IsMap()) {
      fail(node, key, fmt::format("{} must be a map with a 'plugin' key and its parameters", key));
    }
    ComponentSpec c;
    c.key = key;
    c.where = location_of(node, file_);
    const YAML::Node plugin = node["plugin"];
    if (!plugin)
      fail(node, key + ".plugin", fmt::format("{} has no 'plugin' key naming the plugin", key));
    c.plugin = scalar(plugin, key + ".plugin");
    YAML::Node zip;
    bool has_zip = false;
    for (const auto& kv : node) {
      const std::string name = kv.first.as<std::string>();
      if (name == "plugin") continue;
      if (name == "zip") {
        zip = kv.second;
        has_zip = true;
        continue;
      }
      c.params.push_back(setting(name, kv.second, key + "." + name));
    }
    if (has_zip) c.zips = zip_groups(zip, c);
    return c;
  }

  /// `zip: [a, b]` (one group) or `zip: [[a, b], [c, d]]`: each name a swept parameter of
  /// the component, in at most one group, every one of a group with as many values.
  std::vector<ZipGroup> zip_groups(const YAML::Node& node, const ComponentSpec& c) const {
    const std::string key = c.key + ".zip";
    const std::string usage = fmt::format(
        "{} must list swept parameters that move together, e.g. zip: [n, d], or several "
        "groups, zip: [[n, d], [a, b]]",
        key);
    if (!node.IsSequence() || node.size() == 0) fail(node, key, usage);
    std::vector<YAML::Node> groups;
    if (node[0].IsSequence()) {
      for (const auto& g : node) groups.push_back(g);
    } else {
      groups.push_back(node);
    }
    std::vector<ZipGroup> out;
    std::set<std::string> used;
    for (const YAML::Node& g : groups) {
      if (!g.IsSequence()) fail(g, key, usage);
      ZipGroup group;
      group.where = location_of(g, file_);
      std::size_t count = 0;
      for (const auto& item : g) {
        const std::string name = scalar(item, key);
        const auto it = std::find_if(c.params.begin(), c.params.end(),
                                     [&](const ParamSetting& p) { return p.name == name; });
        if (it == c.params.end()) {
          std::vector<std::string> swept;
          for (const ParamSetting& p : c.params) {
            if (p.swept) swept.push_back(p.name);
          }
          fail(item, key,
               fmt::format("{} names '{}', which is not a parameter written in {} (swept there: "
                           "{})",
                           key, name, c.key,
                           swept.empty() ? "none" : fmt::to_string(fmt::join(swept, ", "))));
        }
        if (!it->swept) {
          fail(item, key,
               fmt::format("{}: {} is a single value; a zipped parameter is a list or a generator",
                           key, it->key));
        }
        if (!used.insert(name).second) {
          fail(item, key, fmt::format("{}: '{}' appears in more than one group", key, name));
        }
        if (group.names.empty()) {
          count = it->values.size();
        } else if (it->values.size() != count) {
          fail(item, key,
               fmt::format("{}: {}.{} has {} values but {} has {}; zipped parameters need as many "
                           "values each",
                           key, c.key, group.names.front(), count, it->key, it->values.size()));
        }
        group.names.push_back(name);
      }
      if (group.names.size() < 2) {
        fail(g, key, fmt::format("{}: a zipped group names at least two parameters", key));
      }
      out.push_back(std::move(group));
    }
    return out;
  }

  /// A kernels entry: a plugin, or a sum or product of kernels (kernel_algebra/).
  ComponentSpec kernel(const YAML::Node& node, const std::string& key) const {
    if (!is_kernel_expression(node)) return component(node, key);
    return parse_kernel_expression(
        node, key, file_,
        [this](const YAML::Node& n, const std::string& k) { return component(n, k); },
        [this](const std::string& name, const YAML::Node& n, const std::string& k) {
          return setting(name, n, k);
        });
  }

  std::vector<ComponentSpec> components(const YAML::Node& node, const std::string& key) const {
    std::vector<ComponentSpec> out;
    const bool kernels = key == "kernels";
    if (node.IsMap()) {
      out.push_back(kernels ? kernel(node, key + "[0]") : component(node, key + "[0]"));
    } else if (node.IsSequence()) {
      for (std::size_t i = 0; i < node.size(); ++i) {
        const std::string k = fmt::format("{}[{}]", key, i);
        out.push_back(kernels ? kernel(node[i], k) : component(node[i], k));
      }
    } else {
      fail(node, key, fmt::format("{} must be a list of entries with a 'plugin' key", key));
    }
    if (out.empty()) fail(node, key, fmt::format("{} is empty: name at least one plugin", key));
    return out;
  }

  Experiment parse(YAML::Node root) const {
    if (!root.IsMap()) {
      throw ConfigError(
          location_of(root, file_), "",
          "an experiment file must be a YAML map (experiment:, dataset:, kernels:, solvers:, …)");
    }
    check_keys(root, "", {std::begin(kTopLevelKeys), std::end(kTopLevelKeys)});
    Experiment e;
    e.file = file_;
    e.base_dir = file_.has_parent_path() ? file_.parent_path() : fs::path(".");
    // base_dir: the folder relative paths in this file start from (default: the file's
    // own). A result folder's config.yaml names the original one, so that it runs as it is.
    if (const YAML::Node base = root["base_dir"])
      e.base_dir = e.base_dir / scalar(base, "base_dir");
    e.document = root;
    const YAML::Node name = root["experiment"];
    if (!name) fail(root, "experiment", "the experiment has no name: add 'experiment: NAME'");
    e.name = scalar(name, "experiment");
    e.name_where = location_of(name, file_);
    if (e.name.empty() || e.name.find('/') != std::string::npos ||
        e.name.find('\\') != std::string::npos || e.name == "." || e.name == "..") {
      fail(name, "experiment",
           fmt::format("experiment name '{}' must be a plain folder name (no '/', not '.' or '..')",
                       e.name));
    }
    if (const YAML::Node seed = root["seed"])
      e.seed = static_cast<std::uint64_t>(integer(seed, "seed", 0));
    if (const YAML::Node repeats = root["repeats"])
      e.repeats = static_cast<int>(integer(repeats, "repeats", 1));
    if (const YAML::Node path = root["plugin_path"]) {
      std::vector<YAML::Node> items;
      if (path.IsSequence()) {
        for (const auto& p : path) items.push_back(p);
      } else {
        items.push_back(path);
      }
      for (const auto& p : items) e.plugin_path.push_back(e.base_dir / scalar(p, "plugin_path"));
    }
    const YAML::Node dataset = root["dataset"];
    if (!dataset) fail(root, "dataset", "the experiment has no 'dataset:'");
    e.dataset = component(dataset, "dataset");
    const YAML::Node kernels = root["kernels"];
    if (!kernels) fail(root, "kernels", "the experiment has no 'kernels:' list");
    e.kernels = components(kernels, "kernels");
    const YAML::Node solvers = root["solvers"];
    if (!solvers) fail(root, "solvers", "the experiment has no 'solvers:' list");
    e.solvers = components(solvers, "solvers");
    if (const YAML::Node output = root["output"]) {
      if (!output.IsMap()) fail(output, "output", "output must be a map (dir:, predictions:)");
      check_keys(output, "output", {std::begin(kOutputKeys), std::end(kOutputKeys)});
      if (const YAML::Node dir = output["dir"]) e.output.dir = scalar(dir, "output.dir");
      if (const YAML::Node p = output["predictions"])
        e.output.predictions = boolean(p, "output.predictions");
    }
    return e;
  }

 private:
  fs::path file_;
  OverriddenKeys overridden_;
};

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

/// Applies one override to the document and returns the key path it set, in the form
/// the parser names keys (`kernels[0].sigma`).
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
        throw ConfigError(fmt::format("--set {}: the config has no key '{}'", o.text, step.key));
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

}  // namespace

Experiment parse_experiment(const std::string& text, const fs::path& file,
                            const std::vector<Override>& overrides) {
  YAML::Node root;
  try {
    root = YAML::Load(text);
  } catch (const YAML::ParserException& e) {
    throw ConfigError(SourceLocation{file.string(), e.mark.line + 1, e.mark.column + 1}, "",
                      fmt::format("YAML syntax error: {}", e.msg));
  }
  OverriddenKeys overridden;
  for (const Override& o : overrides) overridden[apply_override(root, o)] = o.text;
  return Parser(file, overridden).parse(root);
}

Experiment load_experiment(const fs::path& file, const std::vector<Override>& overrides) {
  std::ifstream in(file);
  if (!in) {
    throw ConfigError(SourceLocation{file.string(), 0, 0}, "",
                      "cannot read the experiment file (does it exist?)");
  }
  std::stringstream buffer;
  buffer << in.rdbuf();
  return parse_experiment(buffer.str(), file, overrides);
}

}  // namespace kexp::core
