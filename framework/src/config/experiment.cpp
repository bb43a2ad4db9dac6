// The top level of the experiment file: the first YAML document read (a second one with
// content is an error), its shape checked, the --set overrides written into it, and its
// keys read into an Experiment (dataset, kernels, solvers, seed, repeats, validation,
// timing, output, threads), every value keeping its file:line:column.
#include "config/experiment.hpp"
#include "config/structure.hpp"

#include <fmt/format.h>
#include <yaml-cpp/eventhandler.h>
#include <yaml-cpp/parser.h>

#include <algorithm>
#include <fstream>
#include <sstream>

#include "config/overrides.hpp"
#include "config/parser.hpp"
#include "util/text.hpp"

namespace kexp::core {

namespace fs = std::filesystem;

SourceLocation location_of(const YAML::Node& node, const fs::path& file) {
  SourceLocation where{file.string(), 0, 0};
  if (node.IsDefined()) {
    const YAML::Mark mark = node.Mark();
    if (mark.line >= 0) {
      where.line = mark.line + 1;
      where.column = mark.column + 1;
    }
  }
  return where;
}

namespace {

constexpr std::int64_t kMaxRepeats = 1000000;
constexpr std::int64_t kMaxFolds = 1000;

constexpr const char* kTopLevelKeys[] = {
    "experiment", "description", "base_dir", "seed",   "repeats", "plugin_path",
    "dataset",    "kernels",     "solvers",  "output", "folds",   "validation_fraction",
    "timing",     "threads"};
constexpr const char* kOutputKeys[] = {"dir", "predictions", "html", "plots", "kernel_matrix"};
constexpr const char* kTimingKeys[] = {"min_seconds", "max_measurements"};
constexpr std::int64_t kMaxMeasurements = 1000;
constexpr std::int64_t kMaxThreads = 4096;

}  // namespace

std::vector<ComponentSpec> ExperimentParser::components(const YAML::Node& node,
                                                        const std::string& key) const {
  std::vector<ComponentSpec> out;
  const bool kernels = key == "kernels";
  const auto entry = [&](const YAML::Node& n, const std::string& k) {
    errors_->attempt([&] { out.push_back(kernels ? kernel(n, k) : component(n, k)); });
  };
  if (node.IsMap()) {
    entry(node, key + "[0]");
  } else if (node.IsSequence()) {
    if (node.size() == 0)
      fail(node, key, fmt::format("{} is empty: name at least one plugin", key));
    for (std::size_t i = 0; i < node.size(); ++i) entry(node[i], fmt::format("{}[{}]", key, i));
  } else {
    fail(node, key, fmt::format("{} must be a list of entries with a 'plugin' key", key));
  }
  return out;
}

void ExperimentParser::validation(const YAML::Node& root, ValidationSpec& v) const {
  const YAML::Node folds = root["folds"];
  const YAML::Node fraction = root["validation_fraction"];
  if (folds && fraction) {
    fail(fraction, "validation_fraction",
         "give either 'folds: k' (k-fold cross-validation on the training part) or "
         "'validation_fraction: f' (one held-out part of it), not both");
  }
  if (folds) {
    v.folds = static_cast<int>(integer(folds, "folds", 2, kMaxFolds));
    v.where = where_of(folds, "folds");
  }
  if (fraction) {
    v.fraction = number(fraction, "validation_fraction");
    v.where = where_of(fraction, "validation_fraction");
    if (!(v.fraction > 0 && v.fraction < 1)) {
      fail(fraction, "validation_fraction",
           fmt::format("validation_fraction is the part of the training set held out for "
                       "model selection and must be > 0 and < 1, got {}",
                       v.fraction));
    }
  }
}

void ExperimentParser::timing(const YAML::Node& node, TimingSpec& t) const {
  if (!node.IsMap()) fail(node, "timing", "timing must be a map (min_seconds:, max_measurements:)");
  errors_->attempt([&] {
    check_keys(node, "timing", {std::begin(kTimingKeys), std::end(kTimingKeys)});
  });
  if (const YAML::Node m = node["min_seconds"]) {
    errors_->attempt([&] {
      t.min_seconds = number(m, "timing.min_seconds");
      if (t.min_seconds < 0) {
        fail(m, "timing.min_seconds",
             fmt::format("timing.min_seconds must be ≥ 0 (0: measure each phase once), got {}",
                         t.min_seconds));
      }
    });
  }
  if (const YAML::Node m = node["max_measurements"]) {
    errors_->attempt([&] {
      t.max_measurements =
          static_cast<int>(integer(m, "timing.max_measurements", 1, kMaxMeasurements));
    });
  }
}

void ExperimentParser::output(const YAML::Node& node, OutputSpec& o) const {
  if (!node.IsMap()) {
    fail(node, "output",
         "output must be a map (dir:, predictions:, html:, plots:, kernel_matrix:)");
  }
  errors_->attempt([&] {
    check_keys(node, "output", {std::begin(kOutputKeys), std::end(kOutputKeys)});
  });
  if (const YAML::Node dir = node["dir"]) {
    errors_->attempt([&] { o.dir = scalar(dir, "output.dir"); });
  }
  if (const YAML::Node p = node["predictions"]) {
    errors_->attempt([&] { o.predictions = boolean(p, "output.predictions"); });
  }
  if (const YAML::Node h = node["html"]) {
    errors_->attempt([&] { o.html = boolean(h, "output.html"); });
  }
  if (const YAML::Node p = node["plots"]) {
    errors_->attempt([&] {
      const std::string text = scalar(p, "output.plots");
      if (text != "findings" && text != "all") {
        fail(p, "output.plots",
             fmt::format("output.plots must be findings (the plots the summary's findings rest "
                         "on, the default) or all (every plot), got '{}'",
                         text));
      }
      o.all_plots = text == "all";
    });
  }
  if (const YAML::Node k = node["kernel_matrix"]) {
    errors_->attempt([&] {
      const std::string key = "output.kernel_matrix";
      o.kernel_matrix_where = where_of(k, key);
      if (k.IsScalar() && k.Scalar() == "with_test") {
        o.kernel_matrix = KernelMatrixOutput::TrainAndTest;
        return;
      }
      const std::string text = scalar(k, key);
      if (text != "true" && text != "false") {
        fail(k, key,
             fmt::format("{} must be true (K of the training points), with_test (K and "
                         "K(X, X*)) or false, got '{}'",
                         key, text));
      }
      o.kernel_matrix = text == "true" ? KernelMatrixOutput::Train : KernelMatrixOutput::None;
    });
  }
}

Experiment ExperimentParser::parse(const YAML::Node& root) const {
  if (!root.IsMap()) {
    throw ConfigError(
        location_of(root, file_), "",
        "an experiment file must be a YAML map (experiment:, dataset:, kernels:, solvers:, …)");
  }
  // Each key is read on its own: an error in one is kept and the next is read.
  ErrorList& errors = *errors_;
  errors.attempt([&] {
    check_keys(root, "", {std::begin(kTopLevelKeys), std::end(kTopLevelKeys)});
  });
  Experiment e;
  e.file = file_;
  e.base_dir = file_.has_parent_path() ? file_.parent_path() : fs::path(".");
  // base_dir: the folder relative paths in this file start from (default: the file's
  // own). A result folder's config.yaml names the original one, so that it runs as it is.
  if (const YAML::Node base = root["base_dir"]) {
    errors.attempt([&] { e.base_dir = e.base_dir / scalar(base, "base_dir"); });
  }
  e.document = root;
  errors.attempt([&] {
    const YAML::Node name = root["experiment"];
    if (!name) fail(root, "experiment", "the experiment has no name: add 'experiment: NAME'");
    e.name = scalar(name, "experiment");
    e.name_where = location_of(name, file_);
    if (e.name.empty() || e.name.find('/') != std::string::npos ||
        e.name.find('\\') != std::string::npos || e.name == "." || e.name == "..") {
      fail(name, "experiment",
           fmt::format("experiment name '{}' must be a plain folder name (no '/', not '.' or "
                       "'..')",
                       e.name));
    }
  });
  if (const YAML::Node seed = root["seed"]) {
    errors.attempt([&] { e.seed = static_cast<std::uint64_t>(integer(seed, "seed", 0)); });
  }
  if (const YAML::Node repeats = root["repeats"]) {
    errors.attempt(
        [&] { e.repeats = static_cast<int>(integer(repeats, "repeats", 1, kMaxRepeats)); });
  }
  if (const YAML::Node path = root["plugin_path"]) {
    std::vector<YAML::Node> items;
    if (path.IsSequence()) {
      for (const auto& p : path) items.push_back(p);
    } else {
      items.push_back(path);
    }
    for (const auto& p : items) {
      errors.attempt([&] { e.plugin_path.push_back(e.base_dir / scalar(p, "plugin_path")); });
    }
  }
  errors.attempt([&] { validation(root, e.validation); });
  if (const YAML::Node t = root["timing"]) errors.attempt([&] { timing(t, e.timing); });
  if (const YAML::Node threads = root["threads"]) {
    errors.attempt(
        [&] { e.threads = static_cast<int>(integer(threads, "threads", 1, kMaxThreads)); });
  }
  errors.attempt([&] {
    const YAML::Node dataset = root["dataset"];
    if (!dataset) fail(root, "dataset", "the experiment has no 'dataset:'");
    e.dataset = component(dataset, "dataset");
  });
  errors.attempt([&] {
    const YAML::Node kernels = root["kernels"];
    if (!kernels) fail(root, "kernels", "the experiment has no 'kernels:' list");
    e.kernels = components(kernels, "kernels");
  });
  errors.attempt([&] {
    const YAML::Node solvers = root["solvers"];
    if (!solvers) fail(root, "solvers", "the experiment has no 'solvers:' list");
    e.solvers = components(solvers, "solvers");
  });
  if (const YAML::Node o = root["output"]) errors.attempt([&] { output(o, e.output); });
  return e;
}

namespace {

/// Reads the events of one YAML document and keeps whether it has content (a map, a
/// sequence, a scalar or an alias, not only a null) and where that starts.
class DocumentProbe : public YAML::EventHandler {
 public:
  void OnDocumentStart(const YAML::Mark&) override {}
  void OnDocumentEnd() override {}
  void OnNull(const YAML::Mark&, YAML::anchor_t) override {}
  void OnAlias(const YAML::Mark& mark, YAML::anchor_t) override { found(mark); }
  void OnScalar(const YAML::Mark& mark, const std::string&, YAML::anchor_t,
                const std::string&) override {
    found(mark);
  }
  void OnSequenceStart(const YAML::Mark& mark, const std::string&, YAML::anchor_t,
                       YAML::EmitterStyle::value) override {
    found(mark);
  }
  void OnSequenceEnd() override {}
  void OnMapStart(const YAML::Mark& mark, const std::string&, YAML::anchor_t,
                  YAML::EmitterStyle::value) override {
    found(mark);
  }
  void OnMapEnd() override {}

  YAML::Mark start;
  bool content = false;

 private:
  void found(const YAML::Mark& mark) {
    if (!content) start = mark;
    content = true;
  }
};

/// The first YAML document of `text`. A second document with content is an error.
/// yaml-cpp 0.7's LoadAll can loop without end on some malformed input, adding empty
/// documents as it goes, so the documents are read one at a time, two at most.
YAML::Node first_document(const std::string& text, const fs::path& file) {
  // Names and paths go into JSON and file names: refuse a byte that is not UTF-8 here,
  // at its line, before anything is created.
  if (const auto bad = first_invalid_utf8(text)) {
    const std::string_view before = std::string_view(text).substr(0, *bad);
    const std::size_t line_start =
        before.rfind('\n') == std::string_view::npos ? 0 : before.rfind('\n') + 1;
    throw ConfigError(
        SourceLocation{file.string(),
                       static_cast<int>(std::count(before.begin(), before.end(), '\n')) + 1,
                       static_cast<int>(*bad - line_start) + 1},
        "",
        fmt::format("byte 0x{:02x} is not valid UTF-8; an experiment file is UTF-8, its names "
                    "and paths too (rename a file or folder whose name is not)",
                    static_cast<unsigned char>(text[*bad])));
  }
  YAML::Node root = YAML::Load(text);
  std::stringstream in(text);
  YAML::Parser parser(in);
  DocumentProbe first, second;
  if (parser.HandleNextDocument(first) && parser.HandleNextDocument(second) && second.content) {
    throw ConfigError(SourceLocation{file.string(), second.start.line + 1, second.start.column + 1},
                      "",
                      "the file holds a second YAML document (after '---'); an experiment "
                      "file holds one: remove the second, or make it an experiment file of "
                      "its own");
  }
  return root;
}

}  // namespace

Experiment parse_experiment(const std::string& text, const fs::path& file,
                            const std::vector<Override>& overrides, ErrorList* keep_going) {
  YAML::Node root;
  try {
    root = first_document(text, file);
  } catch (const YAML::ParserException& e) {
    throw ConfigError(SourceLocation{file.string(), e.mark.line + 1, e.mark.column + 1}, "",
                      fmt::format("YAML syntax error: {}", e.msg));
  }
  check_structure(root, file);
  OverriddenKeys overridden;
  for (const Override& o : overrides) overridden[apply_override(root, o)] = o.text;
  ErrorList own;
  ErrorList& errors = keep_going != nullptr ? *keep_going : own;
  Experiment e = ExperimentParser(file, overridden, errors).parse(root);
  own.throw_if_any();
  return e;
}

Experiment load_experiment(const fs::path& file, const std::vector<Override>& overrides,
                           ErrorList* keep_going) {
  std::ifstream in(file);
  if (!in) {
    throw ConfigError(SourceLocation{file.string(), 0, 0}, "",
                      "cannot read the experiment file (does it exist?)");
  }
  std::stringstream buffer;
  buffer << in.rdbuf();
  return parse_experiment(buffer.str(), file, overrides, keep_going);
}

}  // namespace kexp::core
