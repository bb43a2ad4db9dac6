// The Setup section: the resolved config read back component by component, each
// parameter in its symbol with the values it took (defaults left out, as the manifest
// records them), the data's sizes from the cells, the data files from the manifest, and
// the experiment file's own comments, found line by line.
#include "reporting/setup.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <functional>
#include <map>
#include <set>

#include "reporting/symbols.hpp"

namespace kexp::core {

namespace fs = std::filesystem;

namespace {

std::string trimmed(const std::string& s) {
  const auto first = s.find_first_not_of(" \t");
  if (first == std::string::npos) return {};
  const auto last = s.find_last_not_of(" \t\r");
  return s.substr(first, last - first + 1);
}

/// Where the comment of a YAML line starts: a '#' at its start or after a blank, outside
/// quotes; npos when it has none.
std::size_t comment_start(const std::string& line) {
  char quote = 0;
  for (std::size_t i = 0; i < line.size(); ++i) {
    const char c = line[i];
    if (quote != 0) {
      if (c == quote) quote = 0;
    } else if (c == '\'' || c == '"') {
      quote = c;
    } else if (c == '#' && (i == 0 || line[i - 1] == ' ' || line[i - 1] == '\t')) {
      return i;
    }
  }
  return std::string::npos;
}

/// The text of a comment: without its '#' marks and surrounding blanks.
std::string comment_text(const std::string& comment) {
  std::size_t i = 0;
  while (i < comment.size() && comment[i] == '#') ++i;
  return trimmed(comment.substr(i));
}

/// A plugin's one-line summary from the manifest, up to its first "; " (the formula, not
/// every remark), or empty.
std::string plugin_summary(const nlohmann::ordered_json& manifest, const std::string& kind,
                           const std::string& name) {
  const auto find = [&](const nlohmann::ordered_json& m) -> std::string {
    if (!m.is_object() || !m.contains("plugins") || !m["plugins"].is_array()) return {};
    for (const auto& p : m["plugins"]) {
      if (p.is_object() && p.value("kind", "") == kind && p.value("name", "") == name &&
          p.contains("summary") && p["summary"].is_string()) {
        std::string s = p["summary"].get<std::string>();
        const auto cut = s.find("; ");
        return cut == std::string::npos ? s : s.substr(0, cut);
      }
    }
    return {};
  };
  std::string s = find(manifest);
  if (s.empty() && manifest.is_object() && manifest.contains("merged_from") &&
      manifest["merged_from"].is_array() && !manifest["merged_from"].empty()) {
    s = find(manifest["merged_from"][0].value("manifest", nlohmann::ordered_json()));
  }
  return s;
}

/// The run's own manifest, or for a merged folder the first folder's.
const nlohmann::ordered_json& run_manifest(const nlohmann::ordered_json& manifest) {
  static const nlohmann::ordered_json none;
  if (manifest.is_object() && manifest.contains("merged_from") &&
      manifest["merged_from"].is_array() && !manifest["merged_from"].empty() &&
      manifest["merged_from"][0].is_object() && manifest["merged_from"][0].contains("manifest")) {
    return manifest["merged_from"][0]["manifest"];
  }
  return manifest.is_object() ? manifest : none;
}

/// A parameter's values as written in the resolved config: a scalar or a list.
std::vector<std::string> values_of(const YAML::Node& node) {
  std::vector<std::string> out;
  if (node.IsScalar()) out.push_back(node.Scalar());
  if (node.IsSequence()) {
    for (const auto& v : node) {
      if (v.IsScalar()) out.push_back(v.Scalar());
    }
  }
  return out;
}

/// The settings of a component that are written in the experiment file (`written`) or not
/// at their default: "p = 2, c = 1", "λ = {1e-06, 0.001, 1}"; `skip` names parameters said
/// elsewhere.
std::string settings_of(const YAML::Node& component, const std::string& kind,
                        const std::string& plugin, const ParamDefaults& defaults,
                        const std::set<std::string>& written,
                        const std::set<std::string>& skip = {}) {
  std::vector<std::string> parts;
  for (const auto& kv : component) {
    const std::string key = kv.first.as<std::string>();
    if (key == "plugin" || key == "zip" || skip.count(key) > 0 || !kv.second.IsDefined()) continue;
    const std::vector<std::string> values = values_of(kv.second);
    if (values.empty()) continue;
    const std::string column = kind + "." + key;
    if (values.size() == 1 && written.count(key) == 0 &&
        defaults.is_default(plugin, column, values.front())) {
      continue;
    }
    parts.push_back(symbol_of(column) + (values.size() == 1 ? " = " : " ∈ ") + values_text(values));
  }
  if (component["zip"] && component["zip"].IsSequence()) {
    for (const auto& group : component["zip"]) {
      std::vector<std::string> names;
      for (const auto& name : group)
        names.push_back(symbol_of(kind + "." + name.as<std::string>()));
      parts.push_back(
          fmt::format("{} zipped (their i-th values go together)", fmt::join(names, " and ")));
    }
  }
  return fmt::format("{}", fmt::join(parts, ", "));
}

/// A kernel entry: a plugin with its settings, or a sum, product or Nyström map of them.
std::string kernel_text(const YAML::Node& k, const nlohmann::ordered_json& manifest,
                        const ParamDefaults& defaults, const std::set<std::string>& written) {
  if (!k.IsMap()) return {};
  std::string text;
  if (const YAML::Node plugin = k["plugin"]) {
    const std::string name = plugin.as<std::string>();
    const std::string summary = plugin_summary(manifest, "kernel", name);
    const std::string settings = settings_of(k, "kernel", name, defaults, written, {"scale"});
    text = fmt::format("`{}`{}{}", name, summary.empty() ? "" : " (" + summary + ")",
                       settings.empty() ? "" : ": " + settings);
  } else if (const YAML::Node nystrom = k["nystrom"]) {
    std::vector<std::string> settings;
    for (const auto& kv : k) {
      const std::string key = kv.first.as<std::string>();
      if (key == "nystrom" || key == "scale") continue;
      settings.push_back(key + " = " + values_text(values_of(kv.second)));
    }
    text = fmt::format("Nyström features of {}{}", kernel_text(nystrom, manifest, defaults, {}),
                       settings.empty() ? "" : fmt::format(" ({})", fmt::join(settings, ", ")));
  } else {
    for (const char* op : {"sum", "product"}) {
      if (const YAML::Node terms = k[op]) {
        std::vector<std::string> parts;
        for (const auto& t : terms) parts.push_back(kernel_text(t, manifest, defaults, {}));
        text = fmt::format("the {} of {}", op, fmt::join(parts, " and "));
      }
    }
  }
  if (const YAML::Node scale = k["scale"]) {
    text = values_text(values_of(scale)) + " × " + text;
  }
  return text;
}

/// "400" or "400 … 6400" over the cells' means of a column.
std::string range_of(const std::vector<CellSummary>& cells, Column column) {
  double lo = INFINITY, hi = -INFINITY;
  for (const CellSummary& c : cells) {
    const double v = c.stat(column).mean;
    if (!std::isfinite(v)) continue;
    lo = std::min(lo, v);
    hi = std::max(hi, v);
  }
  if (!std::isfinite(lo)) return {};
  return lo == hi ? number_text(lo) : number_text(lo) + " … " + number_text(hi);
}

std::string data_line(const YAML::Node& dataset, const nlohmann::ordered_json& manifest,
                      const ParamDefaults& defaults, const std::set<std::string>& written,
                      const std::vector<CellSummary>& cells) {
  const std::string name = dataset["plugin"] ? dataset["plugin"].as<std::string>() : "?";
  const nlohmann::ordered_json& run = run_manifest(manifest);
  std::vector<std::string> files;
  if (run.contains("inputs") && run["inputs"].is_array()) {
    for (const auto& f : run["inputs"]) {
      if (!f.is_object()) continue;
      const std::string sha = f.value("sha256", "");
      files.push_back(fmt::format("`{}` (sha256 {}…)", f.value("written", ""), sha.substr(0, 12)));
    }
  }
  const std::string summary = plugin_summary(manifest, "dataset", name);
  std::string source =
      files.empty() ? "generated" : fmt::format("read from {}", fmt::join(files, ", "));
  if (!summary.empty()) source += ": " + summary;
  std::string sizes;
  const std::string n_train = range_of(cells, Column::n_train);
  const std::string n_test = range_of(cells, Column::n_test);
  const std::string d = range_of(cells, Column::d);
  if (!n_train.empty()) {
    sizes = fmt::format("; n = {} training and {} test points{}", n_train,
                        n_test.empty() ? "?" : n_test, d.empty() ? "" : " of d = " + d + " inputs");
  }
  // n and d are said by the sizes when they were generated so; the others as set.
  std::set<std::string> skip;
  if (!n_train.empty()) skip.insert("n");
  if (!d.empty() && !(dataset["d"] && dataset["d"].IsSequence())) skip.insert("d");
  std::string settings = settings_of(dataset, "dataset", name, defaults, written, skip);
  if (dataset["n"] && dataset["n"].IsSequence()) {
    const std::string swept = "n ∈ " + values_text(values_of(dataset["n"])) + " in all";
    settings = settings.empty() ? swept : swept + ", " + settings;
  }
  return fmt::format("- **Data:** `{}`, {}{}{}.\n", name, source, sizes,
                     settings.empty() ? "" : "; " + settings);
}

/// The keys written in each entry of the experiment file as its author wrote it:
/// "dataset", "kernels[0]", "solvers[1]" → their keys; empty when it cannot be read.
std::map<std::string, std::set<std::string>> written_keys(const std::string& yaml) {
  std::map<std::string, std::set<std::string>> out;
  YAML::Node root;
  try {
    root = YAML::Load(yaml);
  } catch (const YAML::Exception&) {
    return out;
  }
  if (!root.IsMap()) return out;
  const auto keys = [](const YAML::Node& entry) {
    std::set<std::string> k;
    if (entry.IsMap()) {
      for (const auto& kv : entry) k.insert(kv.first.as<std::string>(""));
    }
    return k;
  };
  if (root["dataset"]) out["dataset"] = keys(root["dataset"]);
  for (const char* list : {"kernels", "solvers"}) {
    const YAML::Node entries = root[list];
    if (!entries || !entries.IsSequence()) continue;
    for (std::size_t i = 0; i < entries.size(); ++i)
      out[fmt::format("{}[{}]", list, i)] = keys(entries[i]);
  }
  return out;
}

}  // namespace

ConfigComments config_comments(const std::string& yaml) {
  ConfigComments out;
  std::vector<std::string> pending;  // full-line comments above the next key
  bool header = true;
  std::size_t start = 0;
  while (start <= yaml.size()) {
    std::size_t end = yaml.find('\n', start);
    if (end == std::string::npos) end = yaml.size();
    const std::string line = yaml.substr(start, end - start);
    start = end + 1;
    const std::string stripped = trimmed(line);
    if (stripped.empty()) {
      if (header && !pending.empty()) {
        out.header = fmt::format("{}", fmt::join(pending, " "));
        pending.clear();
        header = false;
      }
      if (end == yaml.size()) break;
      continue;
    }
    const std::size_t at = comment_start(line);
    if (at != std::string::npos && trimmed(line.substr(0, at)).empty()) {
      // A command the comment shows (`kexp run …`) reads as code.
      if (const std::string text = comment_text(line.substr(at)); !text.empty())
        pending.push_back(text.rfind("kexp ", 0) == 0 ? "`" + text + "`" : text);
      if (end == yaml.size()) break;
      continue;
    }
    if (header) {
      out.header = fmt::format("{}", fmt::join(pending, " "));
      pending.clear();
      header = false;
    }
    const std::string code = trimmed(at == std::string::npos ? line : line.substr(0, at));
    std::vector<std::string> texts = pending;
    pending.clear();
    if (at != std::string::npos) {
      if (const std::string text = comment_text(line.substr(at)); !text.empty())
        texts.push_back(text);
    }
    if (!texts.empty()) out.remarks.push_back({code, fmt::format("{}", fmt::join(texts, " "))});
    if (end == yaml.size()) break;
  }
  if (header && !pending.empty()) out.header = fmt::format("{}", fmt::join(pending, " "));
  return out;
}

std::string shown_path(const std::string& path, const std::string& working_directory) {
  const fs::path p(path);
  if (!p.is_absolute()) return path;
  if (!working_directory.empty()) {
    const fs::path relative =
        p.lexically_normal().lexically_relative(fs::path(working_directory).lexically_normal());
    if (!relative.empty() && *relative.begin() != "..") return relative.string();
  }
  return p.filename().string();
}

std::string setup_markdown(const YAML::Node& config, const nlohmann::ordered_json& manifest,
                           const std::vector<CellSummary>& cells) {
  if (!config.IsMap()) return {};
  const ParamDefaults defaults(manifest);
  const nlohmann::ordered_json& run = run_manifest(manifest);
  std::string md = "## Setup\n\n";
  const ConfigComments comments = config_comments(run.value("config_text", ""));
  if (!comments.header.empty()) md += comments.header + "\n\n";
  auto written = written_keys(run.value("config_text", ""));
  if (const YAML::Node dataset = config["dataset"]; dataset && dataset.IsMap()) {
    md += data_line(dataset, manifest, defaults, written["dataset"], cells);
  }
  std::map<std::string, std::set<std::string>> forms;  // solver → its forms
  for (const CellSummary& c : cells) forms[c.solver].insert(c.form);
  // One item per entry, so that each reads apart.
  const auto list =
      [&](const char* key, const char* label,
          const std::function<std::string(const YAML::Node&, const std::set<std::string>&)>& text) {
        const YAML::Node entries = config[key];
        if (!entries || !entries.IsSequence()) return;
        for (std::size_t i = 0; i < entries.size(); ++i) {
          const std::string t = text(entries[i], written[fmt::format("{}[{}]", key, i)]);
          if (!t.empty()) md += fmt::format("- **{}:** {}.\n", label, t);
        }
      };
  list("kernels", "Kernel", [&](const YAML::Node& k, const std::set<std::string>& keys) {
    return kernel_text(k, manifest, defaults, keys);
  });
  list("solvers", "Solver",
       [&](const YAML::Node& s, const std::set<std::string>& keys) -> std::string {
         if (!s.IsMap() || !s["plugin"]) return {};
         const std::string name = s["plugin"].as<std::string>();
         const std::string summary = plugin_summary(manifest, "solver", name);
         const std::string settings = settings_of(s, "solver", name, defaults, keys);
         const auto f = forms.find(name);
         const std::string form =
             f == forms.end() ? std::string() : fmt::format("{}", fmt::join(f->second, ", "));
         return fmt::format("`{}`{}{}{}", name, form.empty() ? "" : " (" + form + ")",
                            summary.empty() ? "" : ", " + summary,
                            settings.empty() ? "" : ": " + settings);
       });
  std::string runs;
  if (const YAML::Node repeats = config["repeats"]) {
    const std::string r = repeats.as<std::string>();
    runs = r == "1" ? "each cell once" : fmt::format("each cell {} times", r);
  }
  if (const YAML::Node seed = config["seed"]) {
    runs += fmt::format("{}root seed {} (every data set and cell derives its own)",
                        runs.empty() ? "" : ", ", seed.as<std::string>());
  }
  if (const YAML::Node folds = config["folds"]) {
    runs += fmt::format("; the best cells chosen by {}-fold cross-validation on the training part",
                        folds.as<std::string>());
  } else if (const YAML::Node fraction = config["validation_fraction"]) {
    runs += fmt::format("; the best cells chosen on a held-out {} of the training part",
                        fraction.as<std::string>());
  }
  if (!runs.empty()) md += "- **Runs:** " + runs + ".\n";
  md += "\n";
  if (!comments.remarks.empty()) {
    const std::string file =
        shown_path(run.value("config_file", ""), run.value("working_directory", ""));
    md += fmt::format("What the experiment file{} says beside its lines:\n\n",
                      file.empty() ? "" : " (`" + file + "`)");
    for (const auto& r : comments.remarks) md += fmt::format("- `{}`: {}\n", r.line, r.text);
    md += "\n";
  }
  return md;
}

}  // namespace kexp::core
