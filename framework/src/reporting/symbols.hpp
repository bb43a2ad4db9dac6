// Parameters as a reader knows them (private to reporting/): the symbols of docs/design.md's
// notation for the parameters that have one (σ, λ, p), a setting as "λ = 0.001", a sweep's
// values in a few words, and whether a value is its parameter's default, from the defaults
// each plugin's entry of manifest.json records.
#pragma once

#include <map>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace kexp::core {

/// A parameter column's symbol: "kernel.sigma" → "σ", "solver.lambda" → "λ",
/// "kernel.degree" → "p", "dataset.n" → "n"; any other its name without the kind
/// ("kernel.c" → "c").
std::string symbol_of(const std::string& column);

/// "λ = 0.001": the symbol and the value as the summary shows it (shown_value).
std::string setting_text(const std::string& column, const std::string& value);

/// The values a parameter takes, in order: "0.001", "{1e-06, 0.001, 1}", or past
/// `listed` values "1e-06 … 1 (50 values)".
std::string values_text(const std::vector<std::string>& values, std::size_t listed = 6);

/// The defaults a run recorded for its plugins' parameters (manifest.json's `plugins`,
/// each with its `defaults`; a merged folder's from the folders it joins), by column:
/// "solver.kernel_ridge" → "lambda" → "0.001" under the key "<kind>.<plugin>". Empty for a
/// manifest written before defaults were recorded.
class ParamDefaults {
 public:
  ParamDefaults() = default;
  explicit ParamDefaults(const nlohmann::ordered_json& manifest);
  /// Whether `value` is the default of `column` ("solver.lambda") of the plugin `plugin`
  /// of that kind; false when it is not known.
  [[nodiscard]] bool is_default(const std::string& plugin, const std::string& column,
                                const std::string& value) const;
  /// The default of `column` for `plugin`, or empty when there is none or it is not known.
  [[nodiscard]] std::string default_of(const std::string& plugin, const std::string& column) const;
  [[nodiscard]] bool empty() const { return defaults_.empty(); }
  /// Records the default `value` of parameter `name` of the plugin `plugin` of `kind`
  /// ("solver", "kernel_ridge", "lambda", "0.001"); a default known already stays.
  void add(const std::string& kind, const std::string& plugin, const std::string& name,
           const std::string& value);
  /// The defaults of both, this one's first.
  void merge(const ParamDefaults& other);

 private:
  std::map<std::string, std::map<std::string, std::string>> defaults_;
};

}  // namespace kexp::core
