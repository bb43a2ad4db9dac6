// Parameter values: a type's name, a value as text, and Params' typed getters, which
// throw naming the parameter when it is missing or of another type.
#include "kexp/params.hpp"

#include <fmt/format.h>

#include <cmath>

#include "kexp/error.hpp"

namespace kexp {

const char* to_string(ParamType type) {
  switch (type) {
    case ParamType::Real:
      return "real";
    case ParamType::Int:
      return "integer";
    case ParamType::Bool:
      return "boolean";
    case ParamType::String:
      return "string";
  }
  return "?";
}

std::string format_value(const ParamValue& value) {
  struct Formatter {
    std::string operator()(double v) const {
      if (std::isnan(v)) return "nan";
      if (std::isinf(v)) return v > 0 ? "inf" : "-inf";
      return fmt::format("{}", v);
    }
    std::string operator()(std::int64_t v) const { return fmt::format("{}", v); }
    std::string operator()(bool v) const { return v ? "true" : "false"; }
    std::string operator()(const std::string& v) const { return v; }
  };
  return std::visit(Formatter{}, value);
}

void Params::set(const std::string& name, ParamValue value) {
  values_.insert_or_assign(name, std::move(value));
}

bool Params::has(std::string_view name) const { return values_.find(name) != values_.end(); }

const ParamValue& Params::value(std::string_view name) const {
  auto it = values_.find(name);
  if (it == values_.end()) {
    throw Error(fmt::format("parameter '{}' is not in this plugin's schema", name));
  }
  return it->second;
}

double Params::real(std::string_view name) const {
  const ParamValue& v = value(name);
  if (const auto* d = std::get_if<double>(&v)) return *d;
  if (const auto* i = std::get_if<std::int64_t>(&v)) return static_cast<double>(*i);
  throw Error(fmt::format("parameter '{}' is not a number", name));
}

std::int64_t Params::integer(std::string_view name) const {
  const ParamValue& v = value(name);
  if (const auto* i = std::get_if<std::int64_t>(&v)) return *i;
  throw Error(fmt::format("parameter '{}' is not an integer", name));
}

bool Params::boolean(std::string_view name) const {
  const ParamValue& v = value(name);
  if (const auto* b = std::get_if<bool>(&v)) return *b;
  throw Error(fmt::format("parameter '{}' is not a boolean", name));
}

const std::string& Params::string(std::string_view name) const {
  const ParamValue& v = value(name);
  if (const auto* s = std::get_if<std::string>(&v)) return *s;
  throw Error(fmt::format("parameter '{}' is not a string", name));
}

}  // namespace kexp
