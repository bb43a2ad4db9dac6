// The plugins' schemas applied: the parameters every dataset takes besides its own, the
// checks of a descriptor's schema, and each written value checked against its ParamSpec
// (type, bounds, choices) or replaced by its default, an unknown name answered with the
// nearest one.
#include "config/schema.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <limits>
#include <map>

#include "config/error_list.hpp"
#include "util/names.hpp"

namespace kexp::core {

const std::vector<ParamSpec>& dataset_common_params() {
  static const std::vector<ParamSpec> params = {
      param::real("test_fraction", "0.2",
                  "share of the samples held out as the test set (ignored when the dataset "
                  "has its own test set)")
          .greater_than(0)
          .less_than(1),
      param::choice("standardize", "false", "false|true|population",
                    "scale every feature to mean 0 and variance 1, fitted on the training set: "
                    "true divides by the sample standard deviation (n − 1), population by "
                    "the population one (n), as scikit-learn's StandardScaler does"),
  };
  return params;
}

std::vector<ParamSpec> schema_of(const PluginDescriptor& descriptor) {
  std::vector<ParamSpec> schema(descriptor.info.params,
                                descriptor.info.params + descriptor.info.param_count);
  if (descriptor.kind == PluginKind::Dataset) {
    for (const ParamSpec& p : dataset_common_params()) {
      const bool own = std::any_of(schema.begin(), schema.end(), [&](const ParamSpec& s) {
        return std::string_view(s.name) == p.name;
      });
      if (!own) schema.push_back(p);
    }
  }
  return schema;
}

std::vector<std::string> descriptor_problems(const PluginDescriptor& descriptor) {
  std::vector<std::string> problems;
  const PluginInfo& info = descriptor.info;
  std::vector<std::string> reserved = {"plugin", "zip"};
  if (descriptor.kind == PluginKind::Kernel) {
    reserved.insert(reserved.end(), {"sum", "product", "nystrom", "scale"});
  }
  std::vector<std::string> seen;
  for (std::size_t i = 0; i < info.param_count; ++i) {
    const ParamSpec& spec = info.params[i];
    const std::string name = spec.name != nullptr ? spec.name : "";
    if (name.empty()) {
      problems.push_back(fmt::format("parameter {} has no name", i + 1));
      continue;
    }
    if (std::find(seen.begin(), seen.end(), name) != seen.end()) {
      problems.push_back(fmt::format("parameter '{}' is declared twice; declare it once", name));
    }
    seen.push_back(name);
    if (std::find(reserved.begin(), reserved.end(), name) != reserved.end()) {
      problems.push_back(
          fmt::format("parameter '{}' has a name the experiment file reserves ({}); rename it",
                      name, fmt::join(reserved, ", ")));
    }
    if (name.find_first_of(".[]=, \t") != std::string::npos) {
      problems.push_back(fmt::format(
          "parameter '{}' has a character that keys use (. [ ] = , or a space); use letters, "
          "digits and _",
          name));
    }
    if (spec.min > spec.max) {
      problems.push_back(
          fmt::format("parameter '{}' has its lower bound {} above its upper "
                      "bound {}",
                      name, spec.min, spec.max));
    }
    if (spec.default_value != nullptr) {
      try {
        (void)check_value(spec, SweepValue{spec.default_value, {}, false}, name);
      } catch (const Error& e) {
        problems.push_back(
            fmt::format("the default of parameter '{}' is not a value it "
                        "accepts: {}",
                        name, e.what()));
      }
    }
  }
  std::vector<std::string> metrics;
  for (std::size_t i = 0; i < info.metric_count; ++i) {
    const std::string metric = info.metrics[i] != nullptr ? info.metrics[i] : "";
    if (metric.empty()) {
      problems.push_back(fmt::format("metric {} has no name", i + 1));
    } else if (std::find(metrics.begin(), metrics.end(), metric) != metrics.end()) {
      problems.push_back(fmt::format("metric '{}' is declared twice", metric));
    }
    metrics.push_back(metric);
  }
  if (descriptor.kind == PluginKind::Solver &&
      ((info.flags & flags::primal) != 0) == ((info.flags & flags::dual) != 0)) {
    problems.push_back("a solver must declare exactly one form, flags::primal or flags::dual");
  }
  return problems;
}

std::string describe_bounds(const ParamSpec& spec) {
  const bool has_min = std::isfinite(spec.min);
  const bool has_max = std::isfinite(spec.max);
  if (has_min && has_max) {
    return fmt::format("in {}{}, {}{}", spec.min_exclusive ? "(" : "[", spec.min, spec.max,
                       spec.max_exclusive ? ")" : "]");
  }
  if (has_min) return fmt::format("{} {}", spec.min_exclusive ? ">" : "≥", spec.min);
  if (has_max) return fmt::format("{} {}", spec.max_exclusive ? "<" : "≤", spec.max);
  return {};
}

namespace {

[[noreturn]] void reject(const SweepValue& value, const std::string& key,
                         const std::string& message) {
  throw ConfigError(value.where, key, message);
}

bool parse_real(const std::string& text, double& out) {
  if (text.empty()) return false;
  char* end = nullptr;
  out = std::strtod(text.c_str(), &end);
  return end == text.c_str() + text.size();
}

bool parse_integer(const std::string& text, std::int64_t& out) {
  double v = 0;
  if (!parse_real(text, v) || !std::isfinite(v) || v != std::floor(v) || std::fabs(v) > 9.0e15) {
    return false;
  }
  out = static_cast<std::int64_t>(v);
  return true;
}

void check_bounds(const ParamSpec& spec, double v, const SweepValue& value,
                  const std::string& key) {
  const bool below = spec.min_exclusive ? !(v > spec.min) : !(v >= spec.min);
  const bool above = spec.max_exclusive ? !(v < spec.max) : !(v <= spec.max);
  if (below || above) {
    reject(value, key,
           fmt::format("{} must be {}, got {}", key, describe_bounds(spec), value.text));
  }
}

}  // namespace

ParamValue check_value(const ParamSpec& spec, const SweepValue& value, const std::string& key) {
  switch (spec.type) {
    case ParamType::Real: {
      double v = 0;
      if (!parse_real(value.text, v) || std::isnan(v)) {
        reject(value, key, fmt::format("{} must be a real number, got '{}'", key, value.text));
      }
      if (!std::isfinite(v)) {
        reject(value, key,
               fmt::format("{} must be a finite real number, got '{}'{}", key, value.text,
                           value.from_generator ? " (the generator overflows)" : ""));
      }
      check_bounds(spec, v, value, key);
      return v;
    }
    case ParamType::Int: {
      std::int64_t v = 0;
      double generated = 0;
      // A generator's value for an integer is rounded to the nearest one, so that
      // `n: {logspace: [2, 4, 5]}` sweeps 100, 316, 1000, 3162, 10000.
      if (value.from_generator && parse_real(value.text, generated) && std::isfinite(generated) &&
          std::fabs(generated) <= 9.0e15) {
        v = std::llround(generated);
      } else if (!parse_integer(value.text, v)) {
        reject(value, key, fmt::format("{} must be an integer, got '{}'", key, value.text));
      }
      check_bounds(spec, static_cast<double>(v), value, key);
      return v;
    }
    case ParamType::Bool: {
      const std::string& t = value.text;
      if (t == "true" || t == "yes" || t == "on") return true;
      if (t == "false" || t == "no" || t == "off") return false;
      reject(value, key, fmt::format("{} must be true or false, got '{}'", key, t));
    }
    case ParamType::String: {
      if (spec.choices != nullptr) {
        std::vector<std::string> choices;
        std::string_view rest(spec.choices);
        while (true) {
          const auto bar = rest.find('|');
          choices.emplace_back(rest.substr(0, bar));
          if (bar == std::string_view::npos) break;
          rest.remove_prefix(bar + 1);
        }
        if (std::find(choices.begin(), choices.end(), value.text) == choices.end()) {
          std::string message = fmt::format("{} must be one of {}, got '{}'", key,
                                            fmt::join(choices, ", "), value.text);
          const std::string near = nearest_name(value.text, choices);
          if (!near.empty()) message += fmt::format("; did you mean '{}'?", near);
          reject(value, key, message);
        }
      }
      return value.text;
    }
  }
  reject(value, key, fmt::format("{} has a type kexp does not know", key));
}

namespace {

/// A setting the schema does not name: an error with the nearest name, or for a dataset's
/// folds: or validation_fraction:, the pointer to the top level.
[[noreturn]] void reject_unknown(const ParamSetting& s, const ComponentSpec& component,
                                 const std::vector<std::string>& names,
                                 const std::string& plugin_label) {
  if (component.key == "dataset" && (s.name == "validation_fraction" || s.name == "folds")) {
    // Not the test split's neighbour: model selection is a key of the experiment.
    throw ConfigError(
        s.where, s.key,
        fmt::format("{}: '{}' is a key of the experiment, not a dataset parameter: move it "
                    "to the top level of the file, beside 'seed:' (the validation part is "
                    "taken from the training part; test_fraction stays the test set's)",
                    s.key, s.name));
  }
  std::string message = fmt::format("{}: {} has no parameter '{}'", s.key, plugin_label, s.name);
  message += did_you_mean(s.name, names);
  message += names.empty() ? std::string(" (it takes no parameters)")
                           : fmt::format(" (parameters: {})", fmt::join(names, ", "));
  throw ConfigError(s.where, s.key, message);
}

/// A value swept twice (`sigma: [1, 1.0]`, or a generator that rounds two steps to one
/// value) would give two cells with one id, whose rows a resume could not tell apart:
/// refused at the repeat, naming the first.
void reject_repeated_values(const ResolvedParam& r, const ParamSetting& given) {
  std::map<std::string, std::size_t> first;  // the value as the cell id writes it → index
  for (std::size_t i = 0; i < r.values.size(); ++i) {
    const std::string text = format_value(r.values[i]);
    const auto [at, inserted] = first.emplace(text, i);
    if (inserted) continue;
    const SweepValue& repeat = given.values[i];
    const SweepValue& earlier = given.values[at->second];
    const std::string place = earlier.where.line > 0 && earlier.where.line != repeat.where.line
                                  ? fmt::format(" on line {}", earlier.where.line)
                                  : std::string();
    const std::string fix = repeat.from_generator
                                ? "the generator gives one value twice once rounded; ask it "
                                  "for fewer values or a wider range"
                                : "remove the repeat";
    throw ConfigError(
        repeat.where, given.key,
        fmt::format("{}: the value {} ('{}') is swept twice, as value {} and value {}{}: "
                    "both would be one cell with one id; {}",
                    given.key, text, repeat.text, at->second + 1, i + 1, place, fix));
  }
}

/// The values of a zip group go together: a tuple given twice would be two cells with one
/// id, refused at the repeat; a value repeated in tuples that differ is not.
void reject_repeated_tuples(const std::vector<ResolvedParam>& params, const ZipGroup& group,
                            const ComponentSpec& component) {
  std::vector<const ResolvedParam*> members;
  for (const std::string& name : group.names) {
    const auto it = std::find_if(params.begin(), params.end(),
                                 [&](const ResolvedParam& p) { return p.name == name; });
    if (it == params.end()) return;  // an error of its own
    members.push_back(&*it);
  }
  if (members.empty()) return;
  const std::size_t count = members.front()->values.size();
  std::map<std::string, std::size_t> first;  // the tuple as the cell ids write it → index
  for (std::size_t i = 0; i < count; ++i) {
    std::vector<std::string> parts;
    for (const ResolvedParam* m : members) {
      if (i >= m->values.size()) return;  // unequal lengths: refused where the zip is read
      parts.push_back(fmt::format("{}={}", m->name, format_value(m->values[i])));
    }
    const std::string tuple = fmt::format("({})", fmt::join(parts, ", "));
    const auto [at, inserted] = first.emplace(tuple, i);
    if (inserted) continue;
    throw ConfigError(group.where, component.key + ".zip",
                      fmt::format("{}.zip: the values {} go together twice, as values {} and {} "
                                  "of the zipped parameters: both would be one cell with one id; "
                                  "remove the repeat",
                                  component.key, tuple, at->second + 1, i + 1));
  }
}

/// One parameter of the schema: its written values checked, else its default.
ResolvedParam resolve_param(const ParamSpec& spec, const ComponentSpec& component,
                            const std::string& plugin_label) {
  ResolvedParam r;
  r.name = spec.name;
  if (spec.default_value != nullptr) {
    try {
      r.default_value = check_value(spec, SweepValue{spec.default_value, SourceLocation{}, false},
                                    component.key + "." + spec.name);
    } catch (const ConfigError& e) {
      throw PluginError(
          fmt::format("{} declares a bad default for '{}': {}", plugin_label, spec.name, e.what()));
    }
  }
  const auto given = std::find_if(component.params.begin(), component.params.end(),
                                  [&](const ParamSetting& s) { return s.name == spec.name; });
  if (given != component.params.end()) {
    r.given = true;
    r.swept = given->swept;
    ErrorList errors;  // each value of a list
    for (const SweepValue& v : given->values) {
      errors.attempt([&] { r.values.push_back(check_value(spec, v, given->key)); });
    }
    errors.throw_if_any();
    // A zipped parameter may repeat a value where the tuples of its group differ
    // (max_length: [40, 40] with min_length: [30, 40]): checked on the group.
    const bool zipped =
        std::any_of(component.zips.begin(), component.zips.end(), [&](const ZipGroup& g) {
          return std::find(g.names.begin(), g.names.end(), spec.name) != g.names.end();
        });
    if (!zipped) reject_repeated_values(r, *given);
  } else if (r.default_value) {
    r.values.push_back(*r.default_value);
  } else {
    throw ConfigError(component.where, component.key + "." + spec.name,
                      fmt::format("{}.{} is required by {}: {}", component.key, spec.name,
                                  plugin_label, spec.doc));
  }
  return r;
}

}  // namespace

ComponentSpec with_schema_names(const std::vector<ParamSpec>& schema,
                                const ComponentSpec& component) {
  const auto lower = [](std::string text) {
    std::transform(text.begin(), text.end(), text.begin(),
                   [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
    return text;
  };
  ComponentSpec out = component;
  std::map<std::string, std::string> renamed;  // as written → the schema's
  for (ParamSetting& s : out.params) {
    const bool exact = std::any_of(schema.begin(), schema.end(),
                                   [&](const ParamSpec& p) { return s.name == p.name; });
    if (exact) continue;
    const char* match = nullptr;
    std::size_t matches = 0;
    for (const ParamSpec& p : schema) {
      if (lower(p.name) != lower(s.name)) continue;
      match = p.name;
      ++matches;
    }
    if (matches != 1) continue;
    // not when the component also writes the schema's own spelling: that is a repeat,
    // which resolve_params reports
    const bool both = std::any_of(component.params.begin(), component.params.end(),
                                  [&](const ParamSetting& o) { return o.name == match; });
    if (both) continue;
    renamed[s.name] = match;
    s.name = match;
  }
  for (ZipGroup& g : out.zips) {
    for (std::string& name : g.names) {
      if (const auto it = renamed.find(name); it != renamed.end()) name = it->second;
    }
  }
  return out;
}

std::vector<ResolvedParam> resolve_params(const std::vector<ParamSpec>& schema,
                                          const ComponentSpec& component,
                                          const std::string& plugin_label) {
  std::vector<std::string> names;
  for (const ParamSpec& spec : schema) names.emplace_back(spec.name);
  ErrorList errors;  // every parameter's, not the first's alone
  for (const ParamSetting& s : component.params) {
    if (std::find(names.begin(), names.end(), s.name) != names.end()) continue;
    errors.attempt([&] { reject_unknown(s, component, names, plugin_label); });
  }
  std::vector<ResolvedParam> out;
  for (const ParamSpec& spec : schema) {
    if (std::find(component.unread.begin(), component.unread.end(), spec.name) !=
        component.unread.end()) {
      continue;  // written, with an error of its own
    }
    errors.attempt([&] { out.push_back(resolve_param(spec, component, plugin_label)); });
  }
  errors.throw_if_any();
  for (const ZipGroup& group : component.zips) reject_repeated_tuples(out, group, component);
  return out;
}

}  // namespace kexp::core
