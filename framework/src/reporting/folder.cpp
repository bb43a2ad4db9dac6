#include "reporting/folder.hpp"

#include <fmt/format.h>

#include <fstream>
#include <nlohmann/json.hpp>

#include "kexp/error.hpp"

namespace kexp::core {

namespace fs = std::filesystem;

namespace {

std::string flow(const YAML::Node& node) {
  if (!node.IsDefined() || node.IsNull()) return "(absent)";
  YAML::Emitter out;
  out << YAML::Flow << node;
  return out.c_str();
}

std::optional<std::string> difference(const YAML::Node& a, const YAML::Node& b,
                                      const std::string& path) {
  const auto differs = [&] {
    return fmt::format("{} is {} there and {} here", path.empty() ? "the config" : path, flow(a),
                       flow(b));
  };
  if (a.Type() != b.Type()) return differs();
  if (a.IsScalar()) {
    if (a.Scalar() != b.Scalar()) return differs();
    return std::nullopt;
  }
  if (a.IsSequence()) {
    bool scalars = true;
    for (const auto& x : a) scalars = scalars && x.IsScalar();
    for (const auto& x : b) scalars = scalars && x.IsScalar();
    if (a.size() != b.size() || scalars) {
      if (a.size() != b.size()) return differs();
      for (std::size_t i = 0; i < a.size(); ++i) {
        if (a[i].Scalar() != b[i].Scalar()) return differs();
      }
      return std::nullopt;
    }
    for (std::size_t i = 0; i < a.size(); ++i) {
      if (auto d = difference(a[i], b[i], fmt::format("{}[{}]", path, i))) return d;
    }
    return std::nullopt;
  }
  if (a.IsMap()) {
    std::vector<std::string> keys;
    for (const auto& kv : a) keys.push_back(kv.first.as<std::string>());
    for (const auto& kv : b) {
      const auto k = kv.first.as<std::string>();
      if (std::find(keys.begin(), keys.end(), k) == keys.end()) keys.push_back(k);
    }
    for (const auto& k : keys) {
      if (path.empty() && (k == "output" || k == "plugin_path")) continue;
      const std::string sub = path.empty() ? k : path + "." + k;
      if (!a[k] || !b[k]) {
        return fmt::format("{} is {} there and {} here", sub, a[k] ? flow(a[k]) : "(absent)",
                           b[k] ? flow(b[k]) : "(absent)");
      }
      if (auto d = difference(a[k], b[k], sub)) return d;
    }
  }
  return std::nullopt;
}

}  // namespace

std::optional<std::string> config_difference(const YAML::Node& there, const YAML::Node& here) {
  return difference(there, here, "");
}

YAML::Node read_resolved_config(const fs::path& folder) {
  const fs::path file = folder / "config.yaml";
  std::error_code ec;
  if (!fs::is_regular_file(file, ec)) {
    throw ConfigError(
        fmt::format("{} is not a kexp result folder: it has no config.yaml", folder.string()));
  }
  try {
    return YAML::LoadFile(file.string());
  } catch (const YAML::Exception& e) {
    throw ConfigError(SourceLocation{file.string(), e.mark.line + 1, e.mark.column + 1}, "",
                      fmt::format("cannot read the resolved config: {}", e.msg));
  }
}

CsvTable read_results(const fs::path& folder) {
  const fs::path file = folder / "results.csv";
  std::error_code ec;
  if (!fs::is_regular_file(file, ec)) {
    throw ConfigError(fmt::format("{} has no results.csv", folder.string()));
  }
  CsvTable table = read_csv(file);
  std::vector<std::vector<std::string>> complete;
  for (auto& row : table.rows) {
    if (row.size() == table.columns.size()) complete.push_back(std::move(row));
  }
  table.rows = std::move(complete);
  return table;
}

RunKey run_key(const CsvTable& table, const std::vector<std::string>& row) {
  const auto cell = table.column("cell"), repeat = table.column("repeat");
  return {cell ? row[*cell] : std::string(), repeat ? row[*repeat] : std::string()};
}

std::set<RunKey> finished_runs(const CsvTable& table) {
  std::set<RunKey> out;
  const auto status = table.column("status");
  if (!status) return out;
  for (const auto& row : table.rows) {
    if (row[*status] == "ok") out.insert(run_key(table, row));
  }
  return out;
}

std::string csv_text(const CsvTable& table) {
  std::string text;
  const auto line = [&](const std::vector<std::string>& fields) {
    for (std::size_t i = 0; i < fields.size(); ++i) text += (i ? "," : "") + csv_escape(fields[i]);
    text += '\n';
  };
  line(table.columns);
  for (const auto& row : table.rows) line(row);
  return text;
}

std::string filter_jsonl(const fs::path& file, const std::map<RunKey, std::string>& keep) {
  std::ifstream in(file);
  std::string line, out;
  std::set<RunKey> seen;
  while (std::getline(in, line)) {
    const auto j = nlohmann::json::parse(line, nullptr, false);
    if (j.is_discarded() || !j.is_object() || !j.contains("cell") || !j.contains("repeat")) {
      continue;
    }
    const RunKey key{j["cell"].get<std::string>(), j["repeat"].dump()};
    const auto it = keep.find(key);
    if (it == keep.end() || j.value("status", std::string()) != it->second) continue;
    if (!seen.insert(key).second) continue;
    out += line + '\n';
  }
  return out;
}

}  // namespace kexp::core
