// The kexp exception family. Every error kexp raises derives from kexp::Error, which has
// default visibility so that a plugin can throw it and the runner catch it.
#pragma once

#include <stdexcept>
#include <string>

#include "kexp/export.hpp"

namespace kexp {

/// Where in a text file something was found. Lines and columns count from 1;
/// 0 means unknown.
struct SourceLocation {
  std::string file;
  int line = 0;
  int column = 0;

  /// "file:line:column", leaving out the parts that are unknown.
  [[nodiscard]] KEXP_API std::string str() const;
};

/// Base of every error kexp throws.
///
/// Each class of the family has its destructor defined in the SDK library, not inline:
/// an error that a plugin throws is then destroyed by the SDK's code, so it can be caught
/// after the plugin that threw it has been unloaded.
class KEXP_API Error : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
  ~Error() override;
};

/// The experiment file or the command line is wrong; nothing ran. Carries the location
/// in the file and the key path (`kernels[0].sigma`).
class KEXP_API ConfigError : public Error {
 public:
  ConfigError(SourceLocation where, std::string key, const std::string& message);
  explicit ConfigError(const std::string& message);
  ~ConfigError() override;

  [[nodiscard]] const SourceLocation& where() const { return where_; }
  [[nodiscard]] const std::string& key() const { return key_; }

 private:
  SourceLocation where_;
  std::string key_;
};

/// A plugin could not be found, loaded or created.
class KEXP_API PluginError : public Error {
 public:
  using Error::Error;
  ~PluginError() override;
};

/// A data file or generated data set is unusable (missing, ragged, non-numeric, NaN…).
class KEXP_API DataError : public Error {
 public:
  DataError(SourceLocation where, const std::string& message);
  explicit DataError(const std::string& message);
  ~DataError() override;

  [[nodiscard]] const SourceLocation& where() const { return where_; }

 private:
  SourceLocation where_;
};

/// A function of the SDK was called with arguments it cannot accept
/// (NaN in the points, matrices of different dimension, …).
class KEXP_API InvalidArgument : public Error {
 public:
  using Error::Error;
  ~InvalidArgument() override;
};

/// A numerical method failed (a matrix that is not positive definite, …).
class KEXP_API NumericError : public Error {
 public:
  using Error::Error;
  ~NumericError() override;
};

}  // namespace kexp
