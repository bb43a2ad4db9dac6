// Parameters in the reader's notation: their symbols, settings and sweeps as text, and the
// defaults manifest.json records for each plugin's parameters.
#include "reporting/symbols.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "reporting/analysis.hpp"

namespace kexp::core {

std::string symbol_of(const std::string& column) {
  const std::string name = column.substr(column.find('.') + 1);
  static const std::map<std::string, std::string> symbols = {
      {"sigma", "σ"}, {"lambda", "λ"}, {"alpha", "α"}, {"beta", "β"},  {"gamma", "γ"},
      {"theta", "θ"}, {"nu", "ν"},     {"tau", "τ"},   {"degree", "p"}};
  const auto it = symbols.find(name);
  return it == symbols.end() ? name : it->second;
}

std::string setting_text(const std::string& column, const std::string& value) {
  return symbol_of(column) + " = " + shown_value(value);
}

std::string values_text(const std::vector<std::string>& values, std::size_t listed) {
  if (values.empty()) return {};
  if (values.size() == 1) return shown_value(values.front());
  std::vector<std::string> shown;
  for (const std::string& v : values) shown.push_back(shown_value(v));
  if (values.size() <= listed) return fmt::format("{{{}}}", fmt::join(shown, ", "));
  return fmt::format("{} … {} ({} values)", shown.front(), shown.back(), values.size());
}

ParamDefaults::ParamDefaults(const nlohmann::ordered_json& manifest) {
  const auto read = [&](const nlohmann::ordered_json& m) {
    if (!m.is_object() || !m.contains("plugins") || !m["plugins"].is_array()) return;
    for (const auto& plugin : m["plugins"]) {
      if (!plugin.is_object() || !plugin.contains("defaults") || !plugin["defaults"].is_object() ||
          !plugin.value("kind", nlohmann::ordered_json()).is_string() ||
          !plugin.value("name", nlohmann::ordered_json()).is_string()) {
        continue;
      }
      auto& into =
          defaults_[plugin["kind"].get<std::string>() + "." + plugin["name"].get<std::string>()];
      for (const auto& [name, value] : plugin["defaults"].items()) {
        if (value.is_string()) into.emplace(name, value.get<std::string>());
      }
    }
  };
  read(manifest);
  if (manifest.is_object() && manifest.contains("merged_from") &&
      manifest["merged_from"].is_array()) {
    for (const auto& input : manifest["merged_from"]) {
      if (input.is_object() && input.contains("manifest")) read(input["manifest"]);
    }
  }
}

void ParamDefaults::add(const std::string& kind, const std::string& plugin, const std::string& name,
                        const std::string& value) {
  defaults_[kind + "." + plugin].emplace(name, value);
}

void ParamDefaults::merge(const ParamDefaults& other) {
  for (const auto& [plugin, values] : other.defaults_) {
    auto& into = defaults_[plugin];
    for (const auto& [name, value] : values) into.emplace(name, value);
  }
}

std::string ParamDefaults::default_of(const std::string& plugin, const std::string& column) const {
  const auto dot = column.find('.');
  if (dot == std::string::npos) return {};
  const auto p = defaults_.find(column.substr(0, dot) + "." + plugin);
  if (p == defaults_.end()) return {};
  const auto d = p->second.find(column.substr(dot + 1));
  return d == p->second.end() ? std::string() : d->second;
}

bool ParamDefaults::is_default(const std::string& plugin, const std::string& column,
                               const std::string& value) const {
  const std::string d = default_of(plugin, column);
  if (d.empty()) return false;
  if (d == value) return true;
  double a = 0, b = 0;
  return parse_number(d, a) && parse_number(value, b) && a == b;
}

}  // namespace kexp::core
