// Gathering the configuration errors of one pass: an error already listed is not listed
// again, and several are thrown as one ConfigErrors, in the file's order (those of --set
// last), its message listing the first few.
#include "config/error_list.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <tuple>

namespace kexp::core {

namespace {

std::string listed(const std::vector<ConfigError>& errors) {
  std::string text =
      fmt::format("{} errors in the experiment; fix them all, then run again:", errors.size());
  const std::size_t shown = std::min(errors.size(), ErrorList::kMaxShown);
  for (std::size_t i = 0; i < shown; ++i) {
    // An error of several lines keeps them under its first, indented.
    std::string one = errors[i].what();
    for (std::size_t at = one.find('\n'); at != std::string::npos; at = one.find('\n', at + 5)) {
      one.replace(at, 1, "\n    ");
    }
    text += "\n  " + one;
  }
  if (errors.size() > shown) text += fmt::format("\n  … and {} more", errors.size() - shown);
  return text;
}

}  // namespace

ConfigErrors::ConfigErrors(std::vector<ConfigError> errors)
    : ConfigError(listed(errors)), errors_(std::move(errors)) {}

void ErrorList::add(const ConfigError& error) {
  const bool seen = std::any_of(errors_.begin(), errors_.end(), [&](const ConfigError& e) {
    return std::string_view(e.what()) == error.what();
  });
  if (!seen) errors_.push_back(error);
}

bool ErrorList::has_key(const std::string& key) const {
  return std::any_of(errors_.begin(), errors_.end(),
                     [&](const ConfigError& e) { return e.key() == key; });
}

void ErrorList::throw_if_any() const {
  if (errors_.empty()) return;
  if (errors_.size() == 1) throw errors_.front();
  std::vector<ConfigError> sorted = errors_;
  // In the file's order; errors from --set (no line) after those of the file.
  std::stable_sort(sorted.begin(), sorted.end(), [](const ConfigError& a, const ConfigError& b) {
    const auto key = [](const ConfigError& e) {
      return std::make_tuple(e.where().line <= 0, e.where().line, e.where().column);
    };
    return key(a) < key(b);
  });
  throw ConfigErrors(std::move(sorted));
}

}  // namespace kexp::core
