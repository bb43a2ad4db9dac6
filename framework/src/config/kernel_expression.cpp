// Kernels entries that are sums or products (`sum:`, `product:`, `scale:`) read into a
// tree of KernelExpression, each term a plugin entry, a formula, or again a sum or product,
// and the tree's parameter settings named by their path in it, so that they sweep as any
// other. A formula is parsed here, with its parameters' names.
#include "config/kernel_expression.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <memory>

#include "config/parser.hpp"

namespace kexp::core {

namespace {

using Kind = KernelExpression::Kind;

/// Every setting of the tree, named by path; a formula's text first among its own.
void flatten(const KernelExpression& e, std::vector<ParamSetting>& out) {
  if (e.kind == Kind::Formula) {
    ParamSetting text;
    text.name = term_param_name(e.path, kFormulaParam);
    text.key = e.key + "." + kFormulaParam;
    text.where = e.formula_where;
    text.values.push_back({e.formula->text(), e.formula_where, false});
    out.push_back(std::move(text));
  }
  if (e.kind == Kind::Plugin || e.kind == Kind::Formula) {
    for (ParamSetting s : e.plugin.params) {
      s.name = term_param_name(e.path, s.name);
      out.push_back(std::move(s));
    }
  }
  for (const KernelExpression& t : e.terms) flatten(t, out);
  for (ParamSetting s : e.map_settings) {
    s.name = term_param_name(e.path, s.name);
    out.push_back(std::move(s));
  }
  if (e.scale) {
    ParamSetting s = *e.scale;
    s.name = term_param_name(e.path, "scale");
    out.push_back(std::move(s));
  }
}

}  // namespace

const char* operator_name(Kind kind) {
  switch (kind) {
    case Kind::Sum:
      return "sum";
    case Kind::Product:
      return "product";
    case Kind::Nystrom:
      return "nystrom";
    case Kind::Formula:
      return "formula";
    case Kind::Plugin:
      break;
  }
  return "plugin";
}

std::string term_param_name(const std::string& path, const std::string& name) {
  return path.empty() ? name : path + "." + name;
}

bool is_kernel_expression(const YAML::Node& node) {
  if (!node.IsMap()) return false;
  // A plugin entry with `scale:` is the scaled kernel s·k, as a term of a sum would be; one
  // with `formula:` too is a mistake that kernel_term() reports.
  if (node["plugin"]) return node["scale"] || node["formula"];
  return node["sum"] || node["product"] || node["nystrom"] || node["formula"];
}

ComponentSpec ExperimentParser::kernel(const YAML::Node& node, const std::string& key) const {
  if (!is_kernel_expression(node)) return component(node, key);
  auto e = std::make_shared<KernelExpression>(kernel_term(node, key, ""));
  ComponentSpec spec;
  const bool named = e->kind == Kind::Plugin || e->kind == Kind::Formula;
  spec.plugin = named ? e->plugin.plugin : operator_name(e->kind);
  spec.key = key;
  spec.where = e->where;
  if (e->kind == Kind::Formula) spec.zips = e->plugin.zips;
  flatten(*e, spec.params);
  spec.expression = std::move(e);
  return spec;
}

// An error in the tree's shape is located in the file even where a `--set` wrote the key;
// its values, read by setting(), name the `--set` that wrote them.
KernelExpression ExperimentParser::kernel_term(const YAML::Node& node, const std::string& key,
                                               const std::string& path) const {
  const auto fail_at = [&](const YAML::Node& n, const std::string& k, const std::string& message) {
    throw ConfigError(location_of(n, file_), k, message);
  };
  if (!node.IsMap()) {
    fail_at(node, key,
            fmt::format("{} must be a kernel: {{plugin: NAME, …}}, {{formula: TEXT, …}}, or a sum: "
                        "or product: list",
                        key));
  }
  KernelExpression e;
  e.key = key;
  e.path = path;
  e.where = location_of(node, file_);
  const bool has_plugin = static_cast<bool>(node["plugin"]);
  const bool has_sum = static_cast<bool>(node["sum"]);
  const bool has_product = static_cast<bool>(node["product"]);
  const bool has_nystrom = static_cast<bool>(node["nystrom"]);
  const bool has_formula = static_cast<bool>(node["formula"]);
  if (has_plugin + has_sum + has_product + has_nystrom + has_formula != 1) {
    fail_at(node, key,
            fmt::format("{} must have exactly one of 'plugin', 'formula', 'sum', 'product' or "
                        "'nystrom'",
                        key));
  }
  if (has_formula) {
    formula_term(node, key, e);
    return e;
  }
  if (has_plugin) {
    e.kind = Kind::Plugin;
    e.plugin = component(node, key);
    const auto s = std::find_if(e.plugin.params.begin(), e.plugin.params.end(),
                                [](const ParamSetting& p) { return p.name == "scale"; });
    if (s != e.plugin.params.end()) {
      e.scale = *s;
      e.plugin.params.erase(s);
    }
    return e;
  }
  e.kind = has_sum ? Kind::Sum : has_product ? Kind::Product : Kind::Nystrom;
  const std::string op = operator_name(e.kind);
  for (const auto& kv : node) {
    const std::string k = kv.first.as<std::string>();
    if (k == op) continue;
    if (k == "scale") {
      e.scale = setting("scale", kv.second, key + ".scale");
      continue;
    }
    if (e.kind == Kind::Nystrom && (k == "m" || k == "centres")) {
      e.map_settings.push_back(setting(k, kv.second, key + "." + k));
      continue;
    }
    fail_at(kv.first, key + "." + k,
            e.kind == Kind::Nystrom
                ? fmt::format("unknown key '{}' in {}: a nystrom takes 'nystrom' (the kernel it "
                              "maps), 'm', 'centres' and 'scale'",
                              k, key)
                : fmt::format("unknown key '{}' in {}: a {} takes '{}' (its terms) and 'scale'", k,
                              key, op, op));
  }
  if (e.kind == Kind::Nystrom) {
    e.terms.push_back(kernel_term(node[op], key + "." + op, term_param_name(path, op)));
    return e;
  }
  const YAML::Node list = node[op];
  if (!list.IsSequence() || list.size() == 0) {
    fail_at(list, key + "." + op,
            fmt::format("{}.{} must be a list of one or more kernels", key, op));
  }
  for (std::size_t i = 0; i < list.size(); ++i) {
    const std::string step = fmt::format("{}[{}]", op, i);
    e.terms.push_back(kernel_term(list[i], key + "." + step, term_param_name(path, step)));
  }
  return e;
}

// `formula:` TEXT, `name:`, `psd:`, `scale:`, `zip:`, and the formula's parameters; the
// formula parsed with their names, and each parameter used by it.
void ExperimentParser::formula_term(const YAML::Node& node, const std::string& key,
                                    KernelExpression& e) const {
  e.kind = Kind::Formula;
  const std::string text_key = key + "." + kFormulaParam;
  const YAML::Node text = node[kFormulaParam];
  const std::string formula = scalar(text, text_key);
  e.formula_where = where_of(text, text_key);
  ComponentSpec& c = e.plugin;
  c.plugin = "formula";
  c.key = key;
  c.where = e.where;
  YAML::Node zip;
  bool has_zip = false;
  for (const auto& kv : node) {
    const std::string name = kv.first.as<std::string>();
    if (name == kFormulaParam) continue;
    if (name == "name") {
      errors_->attempt([&] {
        c.plugin = scalar(kv.second, key + ".name");
        if (!valid_formula_name(c.plugin)) {
          fail(kv.second, key + ".name",
               fmt::format("{}.name '{}' must be a plain name: letters, digits, '_' and '-'", key,
                           c.plugin));
        }
      });
    } else if (name == "psd") {
      errors_->attempt([&] { e.psd = boolean(kv.second, key + ".psd"); });
    } else if (name == "scale") {
      errors_->attempt([&] { e.scale = setting("scale", kv.second, key + ".scale"); });
    } else if (name == "zip") {
      zip = kv.second;
      has_zip = true;
    } else if (!errors_->attempt(
                   [&] { c.params.push_back(setting(name, kv.second, key + "." + name)); })) {
      c.unread.push_back(name);
    }
  }
  if (has_zip) errors_->attempt([&] { c.zips = zip_groups(zip, c); });
  std::vector<std::string> names;
  for (const ParamSetting& p : c.params) names.push_back(p.name);
  for (const std::string& p : c.unread) names.push_back(p);
  try {
    e.formula = std::make_shared<const Formula>(formula, names);
  } catch (const FormulaError& err) {
    throw ConfigError(e.formula_where, text_key, fmt::format("{}: {}", text_key, err.what()));
  }
  for (std::size_t i = 0; i < c.params.size(); ++i) {
    if (e.formula->uses_parameter(i)) continue;
    const ParamSetting& p = c.params[i];
    throw ConfigError(p.where, p.key,
                      fmt::format("{} is set, but the formula of {} does not use '{}': remove it, "
                                  "or use it in the formula",
                                  p.key, key, p.name));
  }
}

bool valid_formula_name(const std::string& name) {
  return !name.empty() && std::all_of(name.begin(), name.end(), [](char ch) {
    return std::isalnum(static_cast<unsigned char>(ch)) || ch == '_' || ch == '-';
  });
}

}  // namespace kexp::core
