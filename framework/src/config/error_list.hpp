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
#include <unordered_set>
#include <vector>

#include "kexp/error.hpp"

namespace kexp::core {

/// Several configuration errors as one: its message lists each on a line of its own, the
/// first ErrorList::kMaxShown of them, and says how many more there were.
class ConfigErrors : public ConfigError {
 public:
  /// `errors` kept, and `more` errors beyond them that were only counted.
  explicit ConfigErrors(std::vector<ConfigError> errors, std::size_t more = 0);
  [[nodiscard]] const std::vector<ConfigError>& errors() const { return errors_; }
  [[nodiscard]] std::size_t more() const { return more_; }

 private:
  std::vector<ConfigError> errors_;
  std::size_t more_ = 0;
};

/// Keeps the first kMaxKept errors and counts the rest, each in constant time, so that a
/// file with a million bad values is reported as fast as it is read.
class ErrorList {
 public:
  /// The most errors a message lists; it says how many more there were.
  static constexpr std::size_t kMaxShown = 20;
  /// The most errors kept (to be sorted into the file's order); the others are counted.
  static constexpr std::size_t kMaxKept = 50;

  /// Runs `step`. A ConfigError it throws is kept (each of a ConfigErrors), and false
  /// returned; any other exception passes through.
  template <typename Step>
  bool attempt(Step&& step) {
    try {
      step();
      return true;
    } catch (const ConfigErrors& e) {
      for (const ConfigError& one : e.errors()) add(one);
      more_ += e.more();
    } catch (const ConfigError& e) {
      add(e);
    }
    return false;
  }

  void add(const ConfigError& error);
  [[nodiscard]] bool empty() const { return errors_.empty(); }
  /// The errors kept and counted; an error listed twice counts once.
  [[nodiscard]] std::size_t size() const { return errors_.size() + more_; }
  /// Whether an error was kept at this key path ("plugin_path"); one only counted is not
  /// seen.
  [[nodiscard]] bool has_key(const std::string& key) const;
  /// Whether an error is at `key` or below it (`solvers[0]` covers `solvers[0].lambda`).
  [[nodiscard]] bool has_key_within(const std::string& key) const;

  /// Nothing when empty; the one error as it was; several as a ConfigErrors, in the
  /// order of their places in the file.
  void throw_if_any() const;

 private:
  std::vector<ConfigError> errors_;
  std::size_t more_ = 0;
  std::unordered_set<std::size_t> seen_;  ///< hashes of the messages of every error added
};

}  // namespace kexp::core
