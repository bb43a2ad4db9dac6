// Sums and products of kernels resolved against the plugins (each term's plugin found
// and its parameters checked), the composite kernel built from a variant, the plugins a
// variant uses, whether it is fitted, and the expression written back as YAML.
#include "sweep/kernel_resolution.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>

#include "kernel_algebra/composite_kernel.hpp"
#include "kernel_algebra/nystrom.hpp"
#include "kexp/formula_kernel.hpp"

namespace kexp::core {

namespace {

using Kind = KernelExpression::Kind;

constexpr ParamSpec kScale =
    param::real("scale", "1.0", "positive factor s of the term: s·k").greater_than(0).log_scale();

/// The Nyström map's own settings.
constexpr ParamSpec kNystrom[] = {
    param::integer("m", "100", "number of centres m, the dimension D of the Nyström features")
        .at_least(1)
        .log_scale(),
    param::choice("centres", "kmeans++", "uniform|kmeans++",
                  "how the m centres are drawn from the training points: uniform without "
                  "replacement, or kmeans++ (D² sampling in the kernel's feature space)"),
};

void collect_plugins(const ResolvedKernelExpression& r, std::vector<const PluginRecord*>& out);

ResolvedKernelExpression resolve(const KernelExpression& e, const PluginRegistry& registry,
                                 std::vector<ResolvedParam>& params) {
  ResolvedKernelExpression r;
  r.kind = e.kind;
  r.path = e.path;
  r.scaled = e.scale.has_value();
  if (e.kind == Kind::Formula) {
    r.formula = e.formula;
    r.psd = e.psd;
    r.where = e.formula_where;
    r.key = e.key + "." + kFormulaParam;
    // the formula's text, then its parameters: numbers, each given
    std::vector<ParamSpec> schema;
    schema.push_back(param::string(kFormulaParam, nullptr, "the kernel's formula"));
    for (const ParamSetting& s : e.plugin.params) {
      schema.push_back(param::real(s.name.c_str(), nullptr, "a parameter of the formula"));
    }
    ComponentSpec own = e.plugin;
    ParamSetting text;
    text.name = kFormulaParam;
    text.key = r.key;
    text.where = e.formula_where;
    text.values.push_back({e.formula->text(), e.formula_where, false});
    own.params.insert(own.params.begin(), text);
    for (ResolvedParam p :
         resolve_params(schema, own, fmt::format("formula kernel '{}'", e.plugin.plugin))) {
      r.params.push_back(p.name);
      p.name = term_param_name(e.path, p.name);
      params.push_back(std::move(p));
    }
    r.label = e.plugin.plugin;
  } else if (e.kind == Kind::Plugin) {
    try {
      r.plugin = &registry.find(PluginKind::Kernel, e.plugin.plugin);
    } catch (const PluginError& err) {
      throw ConfigError(e.plugin.where, e.key + ".plugin", err.what());
    }
    const std::vector<ParamSpec> schema = schema_of(*r.plugin->descriptor);
    if (r.scaled && std::any_of(schema.begin(), schema.end(), [](const ParamSpec& s) {
          return std::string_view(s.name) == "scale";
        })) {
      throw ConfigError(e.scale->where, e.scale->key,
                        fmt::format("{}: kernel plugin '{}' has a parameter named 'scale' of its "
                                    "own; inside a sum or product 'scale' is the term's factor",
                                    e.scale->key, r.plugin->name()));
    }
    for (ResolvedParam p :
         resolve_params(schema, e.plugin, fmt::format("kernel plugin '{}'", r.plugin->name()))) {
      r.params.push_back(p.name);
      p.name = term_param_name(e.path, p.name);
      params.push_back(std::move(p));
    }
    r.label = std::string(r.plugin->name());
  } else if (e.kind == Kind::Nystrom) {
    r.terms.push_back(resolve(e.terms.front(), registry, params));
    std::vector<const PluginRecord*> plugins;
    collect_plugins(r.terms.front(), plugins);
    for (const PluginRecord* p : plugins) {
      if (!p->has_flag(flags::psd_never)) continue;
      throw ConfigError(e.where, e.key,
                        fmt::format("{}: Nyström features need a PSD kernel, and kernel plugin "
                                    "'{}' is not PSD in general; map a PSD kernel instead",
                                    e.key, p->name()));
    }
    ComponentSpec own;
    own.plugin = "nystrom";
    own.key = e.key;
    own.where = e.where;
    own.params = e.map_settings;
    for (ResolvedParam p : resolve_params(
             std::vector<ParamSpec>(std::begin(kNystrom), std::end(kNystrom)), own, "nystrom")) {
      r.params.push_back(p.name);
      p.name = term_param_name(e.path, p.name);
      params.push_back(std::move(p));
    }
    r.label = fmt::format("nystrom({})", r.terms.front().label);
  } else {
    std::vector<std::string> labels;
    for (const KernelExpression& t : e.terms) {
      r.terms.push_back(resolve(t, registry, params));
      labels.push_back(r.terms.back().label);
    }
    r.label = fmt::format("{}({})", operator_name(e.kind), fmt::join(labels, ","));
  }
  if (e.scale) {
    ResolvedParam p;
    p.name = term_param_name(e.path, "scale");
    p.given = true;
    p.swept = e.scale->swept;
    for (const SweepValue& v : e.scale->values)
      p.values.push_back(check_value(kScale, v, e.scale->key));
    params.push_back(std::move(p));
  }
  return r;
}

std::shared_ptr<Kernel> build(const ResolvedKernelExpression& r, const Params& all) {
  std::shared_ptr<Kernel> kernel;
  if (r.kind == Kind::Formula) {
    std::vector<double> values;
    std::string shown;
    for (std::size_t i = 1; i < r.params.size(); ++i) {
      values.push_back(all.real(term_param_name(r.path, r.params[i])));
      shown += fmt::format("{}{} = {}", shown.empty() ? "" : ", ", r.params[i], values.back());
    }
    try {
      kernel = std::make_shared<FormulaKernel>(r.formula, values, r.psd);
    } catch (const FormulaError& err) {
      throw ConfigError(r.where, r.key, fmt::format("{} with {}: {}", r.key, shown, err.what()));
    }
  } else if (r.kind == Kind::Plugin) {
    Params own;
    for (const std::string& name : r.params)
      own.set(name, all.value(term_param_name(r.path, name)));
    kernel = create_kernel(*r.plugin, own);
  } else if (r.kind == Kind::Nystrom) {
    algebra::NystromSettings settings;
    settings.m = static_cast<std::size_t>(all.integer(term_param_name(r.path, "m")));
    settings.kmeanspp = all.string(term_param_name(r.path, "centres")) == "kmeans++";
    kernel = algebra::nystrom(build(r.terms.front(), all), settings);
  } else {
    std::vector<std::shared_ptr<Kernel>> terms;
    for (const auto& t : r.terms) terms.push_back(build(t, all));
    kernel = algebra::combined(
        r.kind == Kind::Sum ? algebra::Combination::Sum : algebra::Combination::Product,
        std::move(terms));
  }
  if (r.scaled)
    kernel = algebra::scaled(std::move(kernel), all.real(term_param_name(r.path, "scale")));
  return kernel;
}

void collect_plugins(const ResolvedKernelExpression& r, std::vector<const PluginRecord*>& out) {
  if (r.plugin != nullptr && std::find(out.begin(), out.end(), r.plugin) == out.end())
    out.push_back(r.plugin);
  for (const auto& t : r.terms) collect_plugins(t, out);
}

void emit_value(YAML::Emitter& out, const std::vector<ResolvedParam>& params,
                const std::string& name) {
  const auto p = std::find_if(params.begin(), params.end(),
                              [&](const ResolvedParam& q) { return q.name == name; });
  if (p == params.end()) return;
  out << YAML::Value;
  if (p->swept) {
    out << YAML::Flow << YAML::BeginSeq;
    for (const ParamValue& v : p->values) out << format_value(v);
    out << YAML::EndSeq;
  } else {
    out << format_value(p->values.front());
  }
}

}  // namespace

std::shared_ptr<const ResolvedKernelExpression> resolve_kernel_expression(
    const ComponentSpec& spec, const PluginRegistry& registry, std::vector<ResolvedParam>& params) {
  return std::make_shared<const ResolvedKernelExpression>(
      resolve(*spec.expression, registry, params));
}

std::shared_ptr<Kernel> create_kernel_of(const Variant& variant) {
  if (!variant.expression) return create_kernel(*variant.plugin, variant.params);
  return build(*variant.expression, variant.params);
}

std::vector<const PluginRecord*> kernel_plugins(const Variant& variant) {
  if (!variant.expression) return {variant.plugin};
  std::vector<const PluginRecord*> out;
  collect_plugins(*variant.expression, out);
  return out;
}

namespace {

bool has_formula(const ResolvedKernelExpression& r) {
  return r.kind == Kind::Formula ||
         std::any_of(r.terms.begin(), r.terms.end(),
                     [](const ResolvedKernelExpression& t) { return has_formula(t); });
}

bool has_nystrom(const ResolvedKernelExpression& r) {
  return r.kind == Kind::Nystrom ||
         std::any_of(r.terms.begin(), r.terms.end(),
                     [](const ResolvedKernelExpression& t) { return has_nystrom(t); });
}

}  // namespace

bool kernel_has_formula(const Variant& variant) {
  return variant.expression && has_formula(*variant.expression);
}

bool kernel_is_fitted(const Variant& variant) {
  if (variant.expression && has_nystrom(*variant.expression)) return true;
  const std::vector<const PluginRecord*> plugins = kernel_plugins(variant);
  return std::any_of(plugins.begin(), plugins.end(),
                     [](const PluginRecord* p) { return p->has_flag(flags::fitted); });
}

void emit_kernel_expression(YAML::Emitter& out, const ResolvedKernelExpression& r,
                            const std::vector<ResolvedParam>& params) {
  out << YAML::BeginMap;
  if (r.kind == Kind::Formula) {
    out << YAML::Key << kFormulaParam << YAML::Value << YAML::DoubleQuoted << r.formula->text();
    out << YAML::Key << "name" << YAML::Value << r.label;
    if (r.psd) out << YAML::Key << "psd" << YAML::Value << true;
    for (std::size_t i = 1; i < r.params.size(); ++i) {
      out << YAML::Key << r.params[i];
      emit_value(out, params, term_param_name(r.path, r.params[i]));
    }
  } else if (r.kind == Kind::Plugin) {
    out << YAML::Key << "plugin" << YAML::Value << std::string(r.plugin->name());
    for (const std::string& name : r.params) {
      out << YAML::Key << name;
      emit_value(out, params, term_param_name(r.path, name));
    }
  } else if (r.kind == Kind::Nystrom) {
    out << YAML::Key << "nystrom" << YAML::Value;
    emit_kernel_expression(out, r.terms.front(), params);
    for (const std::string& name : r.params) {
      out << YAML::Key << name;
      emit_value(out, params, term_param_name(r.path, name));
    }
  } else {
    out << YAML::Key << operator_name(r.kind) << YAML::Value << YAML::BeginSeq;
    for (const auto& t : r.terms) emit_kernel_expression(out, t, params);
    out << YAML::EndSeq;
  }
  if (r.scaled) {
    out << YAML::Key << "scale";
    emit_value(out, params, term_param_name(r.path, "scale"));
  }
  out << YAML::EndMap;
}

}  // namespace kexp::core
