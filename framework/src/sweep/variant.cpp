// A variant's name in messages: its kernel expression's label, or its plugin's name.
#include "sweep/variant.hpp"

#include "sweep/kernel_resolution.hpp"

namespace kexp::core {

std::string Variant::name() const {
  return expression ? expression->label : std::string(plugin->name());
}

}  // namespace kexp::core
