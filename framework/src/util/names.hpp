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

/// A name a user brings from scikit-learn or the literature, the kexp name that stands
/// for it, and how a value converts (may be empty).
struct Synonym {
  std::string_view theirs, ours, note;
};

/// Every synonym kexp knows, plugin names and parameter names alike.
const std::vector<Synonym>& synonyms();

/// The suggestion for an unknown `name` among `candidates`, to append to a message:
/// "; did you mean 'sigma'? (scikit-learn's gamma: σ = 1/√(2γ))" when `name` is a known
/// synonym of a candidate (compared without case), else "; did you mean 'x'?" with the
/// nearest candidate, or "" when none is close.
std::string did_you_mean(std::string_view name, const std::vector<std::string>& candidates);

}  // namespace kexp::core
