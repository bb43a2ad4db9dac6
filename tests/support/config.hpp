// Helpers for tests of the experiment parser: parse a config text with overrides, catch
// its error, read a parameter's values.
#pragma once

#include <stdexcept>
#include <string>
#include <vector>

#include "config/experiment.hpp"

namespace kexp::test {

/// A valid experiment: the cubic dataset, a Gaussian kernel over three σ, kernel ridge.
inline const char* const kBaseConfig = R"(experiment: t
seed: 1
dataset:
  plugin: cubic
  n: 100
kernels:
  - plugin: gaussian
    sigma: [0.5, 1, 2]
solvers:
  - plugin: kernel_ridge
    lambda: 0.1
)";

/// An experiment whose kernels are the YAML list items `kernels` (each "  - …\n").
inline std::string config_with_kernels(const std::string& kernels) {
  return "experiment: algebra\n"
         "dataset: {plugin: cubic, n: 50, d: 2}\n"
         "kernels:\n" +
         kernels +
         "solvers:\n"
         "  - plugin: kernel_ridge\n";
}

/// Parses `text` as the file `file`, with `--set` overrides.
inline core::Experiment parse_config(const std::string& text,
                                     const std::vector<std::string>& sets = {},
                                     const std::string& file = "exp.yaml") {
  std::vector<core::Override> overrides;
  for (const auto& s : sets) overrides.push_back({s});
  return core::parse_experiment(text, file, overrides);
}

/// The message of the ConfigError parsing throws, or "(no error)".
inline std::string config_error(const std::string& text, const std::vector<std::string>& sets = {},
                                const std::string& file = "exp.yaml") {
  try {
    parse_config(text, sets, file);
  } catch (const ConfigError& e) {
    return e.what();
  }
  return "(no error)";
}

/// The values of a setting, as written.
inline std::vector<std::string> values_of(const core::ParamSetting& s) {
  std::vector<std::string> out;
  for (const auto& v : s.values) out.push_back(v.text);
  return out;
}

/// A component's setting of `name`; throws when there is none.
inline const core::ParamSetting& setting_of(const core::ComponentSpec& c, const std::string& name) {
  for (const auto& p : c.params) {
    if (p.name == name) return p;
  }
  throw std::runtime_error("no parameter " + name);
}

}  // namespace kexp::test
