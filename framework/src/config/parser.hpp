// The experiment parser, private to config/: reads the YAML document into an Experiment,
// checking its shape and naming the place of every error (file:line:column, or the
// `--set` that wrote the value). Its parts: experiment.cpp (the file's top level),
// parser.cpp (values, generators, parameter settings, plugin entries, zip groups) and
// kernel_expression.cpp (kernels entries that are sums or products).
#pragma once

#include <yaml-cpp/yaml.h>

#include <cstdint>
#include <filesystem>
#include <limits>
#include <map>
#include <string>
#include <vector>

#include "config/error_list.hpp"
#include "config/experiment.hpp"
#include "config/kernel_expression.hpp"

namespace kexp::core {

/// Key paths set from the command line (`kernels[0].sigma`) → the `--set` text.
using OverriddenKeys = std::map<std::string, std::string>;

class ExperimentParser {
 public:
  /// Errors go to `errors`, each part of the file read on after one: a setting, an entry
  /// of a list, a top-level key.
  ExperimentParser(std::filesystem::path file, OverriddenKeys overridden, ErrorList& errors)
      : file_(std::move(file)), overridden_(std::move(overridden)), errors_(&errors) {}

  /// The whole file: the parts without errors read (the others left empty or default).
  [[nodiscard]] Experiment parse(const YAML::Node& root) const;

 private:
  /// Where a value came from: its place in the file, or the `--set` that wrote it.
  [[nodiscard]] SourceLocation where_of(const YAML::Node& node, const std::string& key) const;
  [[noreturn]] void fail(const YAML::Node& node, const std::string& key,
                         const std::string& message) const;

  [[nodiscard]] std::string scalar(const YAML::Node& node, const std::string& key) const;
  [[nodiscard]] std::int64_t integer(
      const YAML::Node& node, const std::string& key, std::int64_t min,
      std::int64_t max = std::numeric_limits<std::int64_t>::max()) const;
  [[nodiscard]] bool boolean(const YAML::Node& node, const std::string& key) const;
  [[nodiscard]] double number(const YAML::Node& node, const std::string& key) const;
  /// Rejects a key of `map` that is not `allowed`, with the nearest allowed one.
  void check_keys(const YAML::Node& map, const std::string& where,
                  const std::vector<std::string>& allowed) const;

  /// The top-level `folds:` or `validation_fraction:`.
  void validation(const YAML::Node& root, ValidationSpec& v) const;
  /// `timing:` and `output:`, a key at a time.
  void timing(const YAML::Node& node, TimingSpec& t) const;
  void output(const YAML::Node& node, OutputSpec& o) const;

  /// `linspace: [a, b, n]`, `logspace: [a, b, n]` or `range: [start, stop, step]`.
  [[nodiscard]] std::vector<SweepValue> generator(const std::string& kind, const YAML::Node& args,
                                                  const std::string& key) const;
  /// One parameter: a value, a list, or a generator.
  [[nodiscard]] ParamSetting setting(const std::string& name, const YAML::Node& node,
                                     const std::string& key) const;
  /// A plugin entry: `plugin: NAME`, its parameters, and `zip:` groups.
  [[nodiscard]] ComponentSpec component(const YAML::Node& node, const std::string& key) const;
  [[nodiscard]] std::vector<ZipGroup> zip_groups(const YAML::Node& node,
                                                 const ComponentSpec& c) const;
  /// The `kernels:` or `solvers:` list (a single map is a list of one).
  [[nodiscard]] std::vector<ComponentSpec> components(const YAML::Node& node,
                                                      const std::string& key) const;

  /// A kernels entry: a plugin, or a sum or product of kernels.
  [[nodiscard]] ComponentSpec kernel(const YAML::Node& node, const std::string& key) const;
  /// One term of a sum or product, at `path` in the entry.
  [[nodiscard]] KernelExpression kernel_term(const YAML::Node& node, const std::string& key,
                                             const std::string& path) const;
  /// A term that is a formula, read into `e`.
  void formula_term(const YAML::Node& node, const std::string& key, KernelExpression& e) const;

  std::filesystem::path file_;
  OverriddenKeys overridden_;
  ErrorList* errors_;
};

}  // namespace kexp::core
