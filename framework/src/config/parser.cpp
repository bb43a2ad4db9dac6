// The experiment parser's reading of values: scalars, integers, booleans and numbers
// with their place in the file (or the --set that wrote them), unknown keys with the
// nearest known one, the generators linspace, logspace and range, a plugin entry's
// parameter settings, and zip groups.
#include "config/parser.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <set>

#include "util/names.hpp"

namespace kexp::core {

namespace {

constexpr const char* kGenerators[] = {"linspace", "logspace", "range"};

}  // namespace

SourceLocation ExperimentParser::where_of(const YAML::Node& node, const std::string& key) const {
  const auto it = overridden_.find(key);
  if (it != overridden_.end()) return SourceLocation{"--set " + it->second, 0, 0};
  return location_of(node, file_);
}

void ExperimentParser::fail(const YAML::Node& node, const std::string& key,
                            const std::string& message) const {
  throw ConfigError(where_of(node, key), key, message);
}

std::string ExperimentParser::scalar(const YAML::Node& node, const std::string& key) const {
  if (!node.IsScalar()) {
    // The root seed is one value; several seeds per cell are what repeats are.
    const std::string hint =
        key == "seed" && node.IsSequence()
            ? fmt::format(
                  ": it is the root seed, from which every dataset and cell derives "
                  "its own; to run each cell with {} different seeds, write "
                  "'repeats: {}'",
                  node.size(), node.size())
            : std::string();
    fail(node, key, fmt::format("{} must be a single value{}", key, hint));
  }
  return node.Scalar();
}

std::int64_t ExperimentParser::integer(const YAML::Node& node, const std::string& key,
                                       std::int64_t min, std::int64_t max) const {
  const std::string text = scalar(node, key);
  std::size_t used = 0;
  long long v = 0;
  try {
    v = std::stoll(text, &used);
  } catch (const std::exception&) {
    used = 0;
  }
  bool out_of_range = false;
  if (used != text.size() || text.empty()) {
    // A whole number too large for 64 bits is out of range, not malformed.
    out_of_range = !text.empty() && text.find_first_not_of("+-0123456789") == std::string::npos;
    if (!out_of_range) fail(node, key, fmt::format("{} must be an integer, got '{}'", key, text));
  }
  if (!out_of_range && v < min) {
    fail(node, key, fmt::format("{} must be ≥ {}, got {}", key, min, v));
  }
  if (out_of_range || v > max) {
    fail(node, key, fmt::format("{} must be ≤ {}, got {}", key, max, text));
  }
  return v;
}

bool ExperimentParser::boolean(const YAML::Node& node, const std::string& key) const {
  const std::string text = scalar(node, key);
  if (text == "true" || text == "yes" || text == "on") return true;
  if (text == "false" || text == "no" || text == "off") return false;
  fail(node, key, fmt::format("{} must be true or false, got '{}'", key, text));
}

double ExperimentParser::number(const YAML::Node& node, const std::string& key) const {
  const std::string text = scalar(node, key);
  char* end = nullptr;
  const double v = std::strtod(text.c_str(), &end);
  if (text.empty() || end != text.c_str() + text.size() || !std::isfinite(v)) {
    fail(node, key, fmt::format("{} must be a finite number, got '{}'", key, text));
  }
  return v;
}

void ExperimentParser::check_keys(const YAML::Node& map, const std::string& where,
                                  const std::vector<std::string>& allowed) const {
  ErrorList unknown;
  for (const auto& kv : map) {
    const std::string k = kv.first.as<std::string>();
    if (std::find(allowed.begin(), allowed.end(), k) != allowed.end()) continue;
    std::string message = where.empty() ? fmt::format("unknown top-level key '{}'", k)
                                        : fmt::format("unknown key '{}' in {}", k, where);
    const std::string near = nearest_name(k, allowed);
    if (!near.empty()) message += fmt::format("; did you mean '{}'?", near);
    message += fmt::format(" (expected one of: {})", fmt::join(allowed, ", "));
    unknown.attempt([&] { fail(kv.first, where.empty() ? k : where + "." + k, message); });
  }
  unknown.throw_if_any();
}

std::vector<SweepValue> ExperimentParser::generator(const std::string& kind, const YAML::Node& args,
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

ParamSetting ExperimentParser::setting(const std::string& name, const YAML::Node& node,
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
    if (std::find(std::begin(kGenerators), std::end(kGenerators), kind) == std::end(kGenerators)) {
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

ComponentSpec ExperimentParser::component(const YAML::Node& node, const std::string& key) const {
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
    if (!errors_->attempt(
            [&] { c.params.push_back(setting(name, kv.second, key + "." + name)); })) {
      c.unread.push_back(name);
    }
  }
  if (has_zip) errors_->attempt([&] { c.zips = zip_groups(zip, c); });
  return c;
}

// `zip: [a, b]` (one group) or `zip: [[a, b], [c, d]]`: each name a swept parameter of
// the component, in at most one group, every one of a group with as many values.
std::vector<ZipGroup> ExperimentParser::zip_groups(const YAML::Node& node,
                                                   const ComponentSpec& c) const {
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
    bool unread = false;  // a member whose value has an error of its own
    for (const auto& item : g) {
      const std::string name = scalar(item, key);
      const auto it = std::find_if(c.params.begin(), c.params.end(),
                                   [&](const ParamSetting& p) { return p.name == name; });
      if (it == c.params.end() &&
          std::find(c.unread.begin(), c.unread.end(), name) != c.unread.end()) {
        unread = true;  // its own error is reported
        continue;
      }
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
    if (unread) continue;  // the group is checked once its members can be read
    if (group.names.size() < 2) {
      fail(g, key, fmt::format("{}: a zipped group names at least two parameters", key));
    }
    out.push_back(std::move(group));
  }
  return out;
}

}  // namespace kexp::core
