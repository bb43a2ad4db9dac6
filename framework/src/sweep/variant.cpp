// A variant's name in messages: its kernel expression's label, or its plugin's name; and its
// canonical text, which names the parameters that are not at their default.
#include "sweep/variant.hpp"

#include <fmt/format.h>

#include "sweep/kernel_resolution.hpp"

namespace kexp::core {

std::string Variant::name() const {
  return expression ? expression->label : std::string(plugin->name());
}

std::string canonical_text(const std::string& name, const std::vector<ResolvedParam>& params,
                           const std::vector<ParamValue>& values) {
  std::string text = name + "(";
  bool first = true;
  for (std::size_t i = 0; i < params.size() && i < values.size(); ++i) {
    if (params[i].default_value && *params[i].default_value == values[i]) continue;
    text += fmt::format("{}{}={}", first ? "" : ",", params[i].name, format_value(values[i]));
    first = false;
  }
  return text + ")";
}

}  // namespace kexp::core
