// Parameters: the schema a plugin declares (constant data, read before anything is
// created) and the validated values it is created with.
#pragma once

#include <cstdint>
#include <limits>
#include <map>
#include <string>
#include <string_view>
#include <variant>

#include "kexp/export.hpp"

namespace kexp {

enum class ParamType : std::uint8_t { Real, Int, Bool, String };

/// The name of a type as the YAML user sees it: "real", "integer", "boolean", "string".
KEXP_API const char* to_string(ParamType type);

/// One entry of a plugin's parameter schema. Constant data: build it with the
/// constexpr helpers in kexp::param and refine it with the chained setters, e.g.
///
///     kexp::param::real("sigma", "1.0", "bandwidth σ").greater_than(0).log_scale()
struct ParamSpec {
  const char* name = nullptr;
  ParamType type = ParamType::Real;
  /// The default as YAML text ("1.0", "3", "true", "rff"); nullptr when the parameter
  /// must be given.
  const char* default_value = nullptr;
  const char* doc = "";
  double min = -std::numeric_limits<double>::infinity();
  double max = std::numeric_limits<double>::infinity();
  bool min_exclusive = false;
  bool max_exclusive = false;
  /// Sweeps and plots of this parameter are best on a log scale.
  bool log_scale_hint = false;
  /// For a String parameter, the accepted values separated by '|'; nullptr: any text.
  const char* choices = nullptr;

  [[nodiscard]] constexpr ParamSpec greater_than(double v) const {
    ParamSpec p = *this;
    p.min = v;
    p.min_exclusive = true;
    return p;
  }
  [[nodiscard]] constexpr ParamSpec at_least(double v) const {
    ParamSpec p = *this;
    p.min = v;
    p.min_exclusive = false;
    return p;
  }
  [[nodiscard]] constexpr ParamSpec less_than(double v) const {
    ParamSpec p = *this;
    p.max = v;
    p.max_exclusive = true;
    return p;
  }
  [[nodiscard]] constexpr ParamSpec at_most(double v) const {
    ParamSpec p = *this;
    p.max = v;
    p.max_exclusive = false;
    return p;
  }
  [[nodiscard]] constexpr ParamSpec log_scale() const {
    ParamSpec p = *this;
    p.log_scale_hint = true;
    return p;
  }
  [[nodiscard]] constexpr ParamSpec required() const {
    ParamSpec p = *this;
    p.default_value = nullptr;
    return p;
  }
};

namespace param {

constexpr ParamSpec real(const char* name, const char* default_value, const char* doc) {
  ParamSpec p;
  p.name = name;
  p.type = ParamType::Real;
  p.default_value = default_value;
  p.doc = doc;
  return p;
}

constexpr ParamSpec integer(const char* name, const char* default_value, const char* doc) {
  ParamSpec p = real(name, default_value, doc);
  p.type = ParamType::Int;
  return p;
}

constexpr ParamSpec boolean(const char* name, const char* default_value, const char* doc) {
  ParamSpec p = real(name, default_value, doc);
  p.type = ParamType::Bool;
  return p;
}

constexpr ParamSpec string(const char* name, const char* default_value, const char* doc) {
  ParamSpec p = real(name, default_value, doc);
  p.type = ParamType::String;
  return p;
}

/// A String parameter restricted to `choices` ("taylor|rff|none").
constexpr ParamSpec choice(const char* name, const char* default_value, const char* choices,
                           const char* doc) {
  ParamSpec p = string(name, default_value, doc);
  p.choices = choices;
  return p;
}

}  // namespace param

/// A parameter value after validation against the schema.
using ParamValue = std::variant<double, std::int64_t, bool, std::string>;

/// Text of a value as it is written to results and hashed into cell ids: the shortest
/// decimal that reads back to the same double, integers as integers.
KEXP_API std::string format_value(const ParamValue& value);

/// Validated parameter values, every default filled in. This is what a plugin is created
/// with; the accessors throw kexp::Error only for a name the plugin did not declare.
class KEXP_API Params {
 public:
  Params() = default;

  void set(const std::string& name, ParamValue value);
  [[nodiscard]] bool has(std::string_view name) const;

  [[nodiscard]] double real(std::string_view name) const;  ///< Real, or Int widened
  [[nodiscard]] std::int64_t integer(std::string_view name) const;
  [[nodiscard]] bool boolean(std::string_view name) const;
  [[nodiscard]] const std::string& string(std::string_view name) const;
  [[nodiscard]] const ParamValue& value(std::string_view name) const;

  [[nodiscard]] const std::map<std::string, ParamValue, std::less<>>& values() const {
    return values_;
  }

 private:
  std::map<std::string, ParamValue, std::less<>> values_;
};

}  // namespace kexp
