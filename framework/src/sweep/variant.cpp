#include "sweep/variant.hpp"

#include "sweep/kernel_resolution.hpp"

namespace kexp::core {

std::string Variant::name() const {
  return expression ? expression->label : std::string(plugin->name());
}

}  // namespace kexp::core
