// Configuration errors gathered over one pass: a file with several mistakes is reported
// whole, each with its file:line:column, rather than one edit-and-run at a time.
//
//   ErrorList errors;
//   errors.attempt([&] { e.seed = integer(seed, "seed", 0); });
//   errors.attempt([&] { e.dataset = component(dataset, "dataset"); });
//   errors.throw_if_any();
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "kexp/error.hpp"

namespace kexp::core {

/// Several configuration errors as one: its message lists each on a line of its own.
class ConfigErrors : public ConfigError {
 public:
  explicit ConfigErrors(std::vector<ConfigError> errors);
  [[nodiscard]] const std::vector<ConfigError>& errors() const { return errors_; }

 private:
  std::vector<ConfigError> errors_;
};

class ErrorList {
 public:
  /// The most errors a message lists; it says how many more there were.
  static constexpr std::size_t kMaxShown = 20;

  /// Runs `step`. A ConfigError it throws is kept (each of a ConfigErrors), and false
  /// returned; any other exception passes through.
  template <typename Step>
  bool attempt(Step&& step) {
    try {
      step();
      return true;
    } catch (const ConfigErrors& e) {
      for (const ConfigError& one : e.errors()) add(one);
    } catch (const ConfigError& e) {
      add(e);
    }
    return false;
  }

  void add(const ConfigError& error);
  [[nodiscard]] bool empty() const { return errors_.empty(); }
  [[nodiscard]] std::size_t size() const { return errors_.size(); }
  /// Whether an error was kept at this key path ("plugin_path").
  [[nodiscard]] bool has_key(const std::string& key) const;

  /// Nothing when empty; the one error as it was; several as a ConfigErrors, in the
  /// order of their places in the file.
  void throw_if_any() const;

 private:
  std::vector<ConfigError> errors_;
};

}  // namespace kexp::core
