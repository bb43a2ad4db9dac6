#include "kernel_algebra/expression.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>

#include "config/schema.hpp"
#include "kernel_algebra/composite_kernel.hpp"
#include "plugin/registry.hpp"
#include "sweep/plan.hpp"

namespace kexp::core {

namespace {

using Kind = KernelExpression::Kind;

constexpr ParamSpec kScale =
    param::real("scale", "1.0", "positive factor s of the term: s·k").greater_than(0).log_scale();

const char* kind_name(Kind kind) { return kind == Kind::Sum ? "sum" : "product"; }

std::string joined(const std::string& path, const std::string& name) {
  return path.empty() ? name : path + "." + name;
}

[[noreturn]] void fail(const YAML::Node& node, const std::filesystem::path& file,
                       const std::string& key, const std::string& message) {
  throw ConfigError(location_of(node, file), key, message);
}

struct ExpressionParser {
  const std::filesystem::path& file;
  const std::function<ComponentSpec(const YAML::Node&, const std::string&)>& component;
  const std::function<ParamSetting(const std::string&, const YAML::Node&, const std::string&)>&
      setting;

  KernelExpression term(const YAML::Node& node, const std::string& key,
                        const std::string& path) const {
    if (!node.IsMap()) {
      fail(
          node, file, key,
          fmt::format("{} must be a kernel: {{plugin: NAME, …}}, or a sum: or product: list", key));
    }
    KernelExpression e;
    e.key = key;
    e.path = path;
    e.where = location_of(node, file);
    const bool has_plugin = static_cast<bool>(node["plugin"]);
    const bool has_sum = static_cast<bool>(node["sum"]);
    const bool has_product = static_cast<bool>(node["product"]);
    if (has_plugin + has_sum + has_product != 1) {
      fail(node, file, key,
           fmt::format("{} must have exactly one of 'plugin', 'sum' or 'product'", key));
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
    e.kind = has_sum ? Kind::Sum : Kind::Product;
    const std::string op = kind_name(e.kind);
    for (const auto& kv : node) {
      const std::string k = kv.first.as<std::string>();
      if (k == op) continue;
      if (k == "scale") {
        e.scale = setting("scale", kv.second, key + ".scale");
        continue;
      }
      fail(kv.first, file, key + "." + k,
           fmt::format("unknown key '{}' in {}: a {} takes '{}' (its terms) and 'scale'", k, key,
                       op, op));
    }
    const YAML::Node list = node[op];
    if (!list.IsSequence() || list.size() == 0) {
      fail(list, file, key + "." + op,
           fmt::format("{}.{} must be a list of one or more kernels", key, op));
    }
    for (std::size_t i = 0; i < list.size(); ++i) {
      const std::string step = fmt::format("{}[{}]", op, i);
      e.terms.push_back(term(list[i], key + "." + step, joined(path, step)));
    }
    return e;
  }
};

/// Every setting of the tree, named by path.
void flatten(const KernelExpression& e, std::vector<ParamSetting>& out) {
  if (e.kind == Kind::Plugin) {
    for (ParamSetting s : e.plugin.params) {
      s.name = joined(e.path, s.name);
      out.push_back(std::move(s));
    }
  }
  for (const KernelExpression& t : e.terms) flatten(t, out);
  if (e.scale) {
    ParamSetting s = *e.scale;
    s.name = joined(e.path, "scale");
    out.push_back(std::move(s));
  }
}

ResolvedKernelExpression resolve(const KernelExpression& e, const PluginRegistry& registry,
                                 std::vector<ResolvedParam>& params) {
  ResolvedKernelExpression r;
  r.kind = e.kind;
  r.path = e.path;
  r.scaled = e.scale.has_value();
  if (e.kind == Kind::Plugin) {
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
      p.name = joined(e.path, p.name);
      params.push_back(std::move(p));
    }
    r.label = std::string(r.plugin->name());
  } else {
    std::vector<std::string> labels;
    for (const KernelExpression& t : e.terms) {
      r.terms.push_back(resolve(t, registry, params));
      labels.push_back(r.terms.back().label);
    }
    r.label = fmt::format("{}({})", kind_name(e.kind), fmt::join(labels, ","));
  }
  if (e.scale) {
    ResolvedParam p;
    p.name = joined(e.path, "scale");
    p.given = true;
    p.swept = e.scale->swept;
    for (const SweepValue& v : e.scale->values)
      p.values.push_back(check_value(kScale, v, e.scale->key));
    params.push_back(std::move(p));
  }
  return r;
}

void* refuse_create(const Params&) {
  throw PluginError(
      "a sum or product of kernels is built from its terms (create_kernel_of), not from "
      "parameters");
}

void refuse_destroy(void*) noexcept {}

std::shared_ptr<Kernel> build(const ResolvedKernelExpression& r, const Params& all) {
  std::shared_ptr<Kernel> kernel;
  if (r.kind == Kind::Plugin) {
    Params own;
    for (const std::string& name : r.params) own.set(name, all.value(joined(r.path, name)));
    kernel = create_kernel(*r.plugin, own);
  } else {
    std::vector<std::shared_ptr<Kernel>> terms;
    for (const auto& t : r.terms) terms.push_back(build(t, all));
    kernel = algebra::combined(
        r.kind == Kind::Sum ? algebra::Combination::Sum : algebra::Combination::Product,
        std::move(terms));
  }
  if (r.scaled) kernel = algebra::scaled(std::move(kernel), all.real(joined(r.path, "scale")));
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

bool is_kernel_expression(const YAML::Node& node) {
  return node.IsMap() && !node["plugin"] && (node["sum"] || node["product"]);
}

ComponentSpec parse_kernel_expression(
    const YAML::Node& node, const std::string& key, const std::filesystem::path& file,
    const std::function<ComponentSpec(const YAML::Node&, const std::string&)>& component,
    const std::function<ParamSetting(const std::string&, const YAML::Node&, const std::string&)>&
        setting) {
  const ExpressionParser parser{file, component, setting};
  auto e = std::make_shared<KernelExpression>(parser.term(node, key, ""));
  ComponentSpec spec;
  spec.plugin = kind_name(e->kind);
  spec.key = key;
  spec.where = e->where;
  flatten(*e, spec.params);
  spec.expression = std::move(e);
  return spec;
}

std::shared_ptr<const ResolvedKernelExpression> resolve_kernel_expression(
    const ComponentSpec& spec, const PluginRegistry& registry, std::vector<ResolvedParam>& params) {
  auto r = std::make_shared<ResolvedKernelExpression>(resolve(*spec.expression, registry, params));
  r->descriptor = std::make_shared<PluginDescriptor>(PluginDescriptor{
      kAbiVersion, KEXP_BUILD_FINGERPRINT, PluginKind::Kernel,
      PluginInfo(r->label.c_str(), "1.0.0",
                 "a sum or product of kernels, with positive scalings (kernel algebra)", 0U),
      &refuse_create, &refuse_destroy});
  r->record = std::make_shared<PluginRecord>();
  r->record->path = "(kernel algebra)";
  r->record->descriptor = r->descriptor.get();
  return r;
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

void emit_kernel_expression(YAML::Emitter& out, const ResolvedKernelExpression& r,
                            const std::vector<ResolvedParam>& params) {
  out << YAML::BeginMap;
  if (r.kind == Kind::Plugin) {
    out << YAML::Key << "plugin" << YAML::Value << std::string(r.plugin->name());
    for (const std::string& name : r.params) {
      out << YAML::Key << name;
      emit_value(out, params, joined(r.path, name));
    }
  } else {
    out << YAML::Key << kind_name(r.kind) << YAML::Value << YAML::BeginSeq;
    for (const auto& t : r.terms) emit_kernel_expression(out, t, params);
    out << YAML::EndSeq;
  }
  if (r.scaled) {
    out << YAML::Key << "scale";
    emit_value(out, params, joined(r.path, "scale"));
  }
  out << YAML::EndMap;
}

}  // namespace kexp::core
