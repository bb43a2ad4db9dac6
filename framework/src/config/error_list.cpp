// Gathering the configuration errors of one pass: an error already listed is not listed
// again (found by the hash of its message), the first 50 are kept and the others only
// counted, and several are thrown as one ConfigErrors, in the file's order (those of --set
// last), its message listing the first few and the count of the rest.
#include "config/error_list.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <functional>
#include <string_view>
#include <tuple>

namespace kexp::core {

namespace {

std::string listed(const std::vector<ConfigError>& errors, std::size_t more) {
  const std::size_t total = errors.size() + more;
  std::string text =
      fmt::format("{} errors in the experiment; fix them all, then run again:", total);
  const std::size_t shown = std::min(errors.size(), ErrorList::kMaxShown);
  for (std::size_t i = 0; i < shown; ++i) {
    // An error of several lines keeps them under its first, indented.
    std::string one = errors[i].what();
    for (std::size_t at = one.find('\n'); at != std::string::npos; at = one.find('\n', at + 5)) {
      one.replace(at, 1, "\n    ");
    }
    text += "\n  " + one;
  }
  if (total > shown) text += fmt::format("\n  … and {} more", total - shown);
  return text;
}

}  // namespace

ConfigErrors::ConfigErrors(std::vector<ConfigError> errors, std::size_t more)
    : ConfigError(listed(errors, more)), errors_(std::move(errors)), more_(more) {}

void ErrorList::add(const ConfigError& error) {
  if (!seen_.insert(std::hash<std::string_view>{}(error.what())).second) return;
  if (errors_.size() < kMaxKept) {
    errors_.push_back(error);
  } else {
    ++more_;
  }
}

bool ErrorList::has_key(const std::string& key) const {
  return std::any_of(errors_.begin(), errors_.end(),
                     [&](const ConfigError& e) { return e.key() == key; });
}

bool ErrorList::has_key_within(const std::string& key) const {
  return std::any_of(errors_.begin(), errors_.end(), [&](const ConfigError& e) {
    return e.key() == key ||
           (e.key().size() > key.size() && e.key().compare(0, key.size(), key) == 0 &&
            (e.key()[key.size()] == '.' || e.key()[key.size()] == '['));
  });
}

void ErrorList::throw_if_any() const {
  if (errors_.empty()) return;
  if (errors_.size() == 1 && more_ == 0) throw errors_.front();
  std::vector<ConfigError> sorted = errors_;
  // In the file's order; errors from --set (no line) after those of the file.
  std::stable_sort(sorted.begin(), sorted.end(), [](const ConfigError& a, const ConfigError& b) {
    const auto key = [](const ConfigError& e) {
      return std::make_tuple(e.where().line <= 0, e.where().line, e.where().column);
    };
    return key(a) < key(b);
  });
  throw ConfigErrors(std::move(sorted), more_);
}

}  // namespace kexp::core
