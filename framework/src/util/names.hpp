// Names close to a misspelt one, for "did you mean" suggestions in messages.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace kexp::core {

/// Levenshtein distance: the fewest insertions, deletions and substitutions of one
/// character that turn `a` into `b`.
std::size_t edit_distance(std::string_view a, std::string_view b);

/// The candidate nearest to `name` ("" if none is close enough to suggest).
std::string nearest_name(std::string_view name, const std::vector<std::string>& candidates);

}  // namespace kexp::core
