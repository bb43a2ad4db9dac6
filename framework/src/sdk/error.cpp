// The kexp exception family's out-of-line members: a source location as text, messages
// prefixed with it, and each class's constructors and destructor, so that each class has
// one home for its vtable and type information.
#include "kexp/error.hpp"

#include <fmt/format.h>

namespace kexp {

std::string SourceLocation::str() const {
  if (file.empty()) return {};
  if (line <= 0) return file;
  if (column <= 0) return fmt::format("{}:{}", file, line);
  return fmt::format("{}:{}:{}", file, line, column);
}

namespace {

std::string located(const SourceLocation& where, const std::string& message) {
  const std::string at = where.str();
  return at.empty() ? message : at + ": " + message;
}

}  // namespace

Error::~Error() = default;
ConfigError::~ConfigError() = default;
DataError::~DataError() = default;
PluginError::~PluginError() = default;
InvalidArgument::~InvalidArgument() = default;
NumericError::~NumericError() = default;

ConfigError::ConfigError(SourceLocation where, std::string key, const std::string& message)
    : Error(located(where, message)), where_(std::move(where)), key_(std::move(key)) {}

ConfigError::ConfigError(const std::string& message) : Error(message) {}

DataError::DataError(SourceLocation where, const std::string& message)
    : Error(located(where, message)), where_(std::move(where)) {}

DataError::DataError(const std::string& message) : Error(message) {}

}  // namespace kexp
